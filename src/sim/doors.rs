//! The scene's hinged doors ([`crate::scene::DoorSpec`]) in the rapier world, and their part of
//! stage 3 of [`Simulation::step`].
//!
//! **The model.** Each leaf is a dynamic body on a rapier revolute joint to a fixed anchor at
//! its hinge line, its travel bounded by the joint's limits: shut against the frame's stop at
//! 0 and open at `swing`. Robots, arms and objects push it by rapier's contacts, so a robot
//! driving through feels the leaf and its closer. The closer's spring, `closer` N·m shut and
//! twice that at 90° ([`DoorSpec::closer_moment`]), is a torque set on the leaf each step it
//! changes; its damper ([`DoorSpec::damping`]) is the joint's motor driving toward rest,
//! which rapier solves implicitly with the joint (a stiff damper integrated explicitly would
//! blow up a light leaf). Rapier's position motor is not used for the spring: it measures its
//! error as a difference of sin(θ/2), not of θ.
//!
//! **A held handle pulls the leaf** ([`Simulation::pull_doors`], after the arms move): a stiff
//! spring between the pads and where they took hold, along the leaf's swing, no harder than
//! the grip's 2·μ·F, the reaction on the hull.
//!
//! **Latch and handle.** The lever handle is a [`ValveRig`] on the leaf (`valves.rs`): a
//! gripper takes hold of it and turns it as it turns a valve's wheel, against its return
//! spring, through its travel; let go, the spring turns it back at once. A latched door's
//! joint is locked shut (limits 0–0) until the handle stands past
//! [`LATCH_RELEASE`](crate::scene::doors::LATCH_RELEASE) of its travel; once the leaf has left
//! the frame the bolt rides on its face, and it snaps in again when the door comes back within
//! [`LATCH_CATCH`] of shut. Each step, before the arms move ([`Simulation::step_doors`]): the
//! handle follows its leaf, springs back if nobody holds it, and the latch is set.
//!
//! **Why a rapier joint here, when the arm and valves avoid one.** A leaf is heavy (tens of
//! kg) on a fixed anchor: no chain of light bodies for the solver to converge, the case rapier's
//! joints handle well. Its cost is one joint, and a shut leaf at rest sleeps.

use nalgebra::{Isometry3, Point3, Vector3};
use rapier3d::prelude::*;

use super::proximity::BodySphere;
use super::state::body_values;
use super::valves::{gripped, ValveRig};
use super::{isometry_of, pose_of, v32, v64, Simulation, StateSnapshot};
use crate::scene::doors::{
    DoorSpec, LATCH_RELEASE, LEVER_LENGTH, LEVER_RADIUS, LEVER_STANDOFF, UNDERCUT,
};

/// A latch bolt catches in its strike within this angle of shut, rad (0.5°).
pub const LATCH_CATCH: f64 = 0.5 * std::f64::consts::PI / 180.0;

/// Stiffness of a held handle's pull on its leaf, N/m: the pads' offset from where they took
/// hold, along the leaf's swing at the handle, pulls the leaf and pushes the hull back (5 mm
/// for a size-3 closer's 43 N at a 0.84 m handle). Beside the masses it couples (a leaf's
/// 5–15 kg at its handle, a hull's tens of kg) it is soft enough for an explicit step:
/// k·dt²/m below 0.01 at 2 ms.
pub const PULL_STIFFNESS: f64 = 8000.0;
/// Damping of that pull, N·s/m: c·dt/m below 0.1 at 2 ms for a 5 kg leaf.
pub const PULL_DAMPING: f64 = 200.0;

/// A leaf slower than this counts as at rest and may sleep, rad/s (and m/s at its centre).
const LEAF_AT_REST: f64 = 0.005;

/// A door's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DoorState {
    /// How far open, rad (0: shut; in the sense of its swing).
    pub angle: f64,
    /// How fast it opens, rad/s (negative: closing).
    pub rate: f64,
    /// Whether the latch holds it shut.
    pub latched: bool,
    /// How far its handle is turned, share of its travel (0: at rest, 1: fully down).
    pub handle: f64,
    /// Whether a gripper holds its handle.
    pub held: bool,
    /// The leaf's pose, world frame (origin at the hinge's foot, x toward the latch edge).
    pub pose: Isometry3<f64>,
}

/// A door in the world.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DoorRig {
    /// The leaf's body.
    pub leaf: RigidBodyHandle,
    /// The hinge's joint to the fixed anchor.
    joint: ImpulseJointHandle,
    /// Its handle, by index in the simulation's turning rigs (after the scene's valves).
    pub handle: usize,
    /// Whether the latch holds it shut now.
    pub latched: bool,
    /// The closer's torque last set on the leaf, N·m about world z.
    torque: f64,
    /// Whether a held handle pulled the leaf in the last step (its force is to be cleared).
    pulled: bool,
}

impl DoorRig {
    /// Inserts the leaf of `spec` and its hinge into `world`, at its starting angle; its
    /// handle is to be turning rig `handle`. Returns the door and the handle's rig.
    pub fn insert(world: &mut PhysicsWorld, spec: &DoorSpec, handle: usize) -> (Self, ValveRig) {
        let shut = spec.leaf_pose(0.0);
        let anchor = world
            .bodies
            .insert(RigidBodyBuilder::fixed().pose(pose_of(&shut)).build());
        let pose = spec.leaf_pose(spec.open);
        let leaf = world.bodies.insert(
            RigidBodyBuilder::dynamic()
                .pose(pose_of(&pose))
                .can_sleep(true)
                .build(),
        );
        if let Some(body) = world.bodies.get_mut(leaf) {
            // A closer shuts a door slowly (a tenth of a radian a second for a slow one), below
            // rapier's default sleep thresholds: only a leaf at rest may sleep.
            let activation = body.activation_mut();
            activation.angular_threshold = LEAF_AT_REST as f32;
            activation.normalized_linear_threshold = LEAF_AT_REST as f32;
        }
        let [w, h, t] = spec.size;
        let tall = h - UNDERCUT;
        let slab = ColliderBuilder::cuboid(0.5 * w as f32, 0.5 * t as f32, 0.5 * tall as f32)
            .translation(Vector::new(
                0.5 * w as f32,
                0.0,
                (UNDERCUT + 0.5 * tall) as f32,
            ))
            .mass(spec.mass as f32)
            .friction(spec.friction as f32)
            .restitution(0.0)
            .build();
        world
            .colliders
            .insert_with_parent(slab, leaf, &mut world.bodies);
        let sense = spec.sense() as f32;
        let swing = spec.swing.abs() as f32;
        let mut hinge = RevoluteJointBuilder::new(Vector::Z)
            .limits(limits(sense, swing, spec.starts_latched()))
            .motor_model(MotorModel::ForceBased)
            .motor_velocity(0.0, spec.damping() as f32)
            .build();
        hinge.data.set_motor_max_force(JointAxis::AngX, f32::MAX);
        let joint = world.impulse_joints.insert(anchor, leaf, hinge, true);
        let rig = ValveRig::insert_handle(
            world,
            leaf,
            &pose,
            spec.handle_frame(),
            handle_parts(spec),
            spec.handle_torque,
            spec.handle_travel / std::f64::consts::TAU,
        );
        let door = Self {
            leaf,
            joint,
            handle,
            latched: spec.starts_latched(),
            torque: 0.0,
            pulled: false,
        };
        (door, rig)
    }

    /// The leaf's angle open and its rate, rad and rad/s (in the sense of the swing).
    pub fn angle(&self, world: &PhysicsWorld, spec: &DoorSpec) -> (f64, f64) {
        let Some(body) = world.bodies.get(self.leaf) else {
            return (0.0, 0.0);
        };
        let turned = spec.leaf_pose(0.0).rotation.inverse() * isometry_of(body.position()).rotation;
        let yaw = super::arm::twist_about(&turned, &Vector3::z());
        let sense = spec.sense();
        (sense * yaw, sense * v64(body.angvel()).z)
    }

    /// Locks the leaf shut or frees it to swing, waking it when that changes.
    fn set_latched(&mut self, world: &mut PhysicsWorld, spec: &DoorSpec, latched: bool) {
        if latched == self.latched {
            return;
        }
        self.latched = latched;
        if let Some(joint) = world.impulse_joints.get_mut(self.joint, true) {
            let bounds = limits(spec.sense() as f32, spec.swing.abs() as f32, latched);
            joint.data.set_limits(JointAxis::AngX, bounds);
        }
    }
}

/// The hinge joint's limits, rad in rapier's sense (anticlockwise about +z): a door of sense
/// `sense` opening `swing` rad, or locked shut.
fn limits(sense: f32, swing: f32, latched: bool) -> [f32; 2] {
    match (latched, sense > 0.0) {
        (true, _) => [0.0, 0.0],
        (false, true) => [0.0, swing],
        (false, false) => [-swing, 0.0],
    }
}

/// The handle's parts in its own frame (z along the spindle, x along the levers at rest):
/// the spindle through the leaf to both levers, and a lever on each face. They carry no mass
/// of their own (the leaf's holds it), so turning them leaves the leaf's mass as it is.
fn handle_parts(spec: &DoorSpec) -> Vec<(Collider, Isometry3<f64>)> {
    let face = (0.5 * spec.size[2] + LEVER_STANDOFF) as f32;
    let (length, radius) = (LEVER_LENGTH as f32, LEVER_RADIUS as f32);
    let part = |a: Vector, b: Vector, r: f32| {
        (
            ColliderBuilder::capsule_from_endpoints(a, b, r)
                .density(0.0)
                .friction(spec.friction as f32)
                .restitution(0.0)
                .build(),
            Isometry3::identity(),
        )
    };
    vec![
        part(
            Vector::new(0.0, 0.0, -face),
            Vector::new(0.0, 0.0, face),
            1.2 * radius,
        ),
        part(
            Vector::new(0.0, 0.0, face),
            Vector::new(length, 0.0, face),
            radius,
        ),
        part(
            Vector::new(0.0, 0.0, -face),
            Vector::new(length, 0.0, -face),
            radius,
        ),
    ]
}

impl Simulation {
    /// Stage 3 for the doors, before the arms move: each handle follows its leaf and springs
    /// back unless a gripper holds it, and each latch is drawn, kept or caught.
    pub(super) fn step_doors(&mut self) {
        for (door, spec) in self.doors.iter_mut().zip(&self.scene.doors) {
            let Some(body) = self.world.bodies.get(door.leaf) else {
                continue;
            };
            let leaf_pose = isometry_of(body.position());
            let held = gripped(&self.robots, door.handle);
            let (angle, _) = door.angle(&self.world, spec);
            // The closer's spring, toward shut. An open door with a closer is never at rest on
            // its own: whatever held it open (a robot's side) may have gone, and rapier does
            // not wake a body when a contact ends. A shut one sleeps, keeping the torque for
            // when something wakes it. The body is only touched when that changes: rapier
            // counts a body borrowed mutably as modified and updates it in the next step.
            let torque = -spec.sense() * spec.closer_moment(angle);
            let closing = spec.closer > 0.0 && angle > LATCH_CATCH;
            if closing || door.pulled || torque.to_bits() != door.torque.to_bits() {
                if let Some(body) = self.world.bodies.get_mut(door.leaf) {
                    body.reset_forces(false);
                    body.reset_torques(false);
                    body.add_torque(Vector::new(0.0, 0.0, torque as f32), closing);
                }
                door.torque = torque;
                door.pulled = false;
            }
            let Some(handle) = self.valves.get_mut(door.handle) else {
                continue;
            };
            handle.carry(&leaf_pose);
            if !held && handle.open > 0.0 {
                handle.set_open(&mut self.world, 0.0);
            }
            let drawn = handle.open >= LATCH_RELEASE * handle.travel;
            let latched = spec.latch && !drawn && (door.latched || angle <= LATCH_CATCH);
            door.set_latched(&mut self.world, spec, latched);
        }
    }

    /// Stage 3 for the doors, after the arms moved: a gripper holding a door's handle pulls
    /// or pushes its leaf along its swing, and the leaf the hull, by a stiff spring between the
    /// pads and where they took hold ([`PULL_STIFFNESS`]), no harder than the grip passes on
    /// along the pads (2·μ·F); beyond it the pads slide and, [`super::arm::SLIP_RELEASE`] off,
    /// let go. Across the swing the leaf cannot follow the pads: they slide off it there.
    pub(super) fn pull_doors(&mut self) {
        for r in &self.robots {
            let Some(hold) = r.arm.as_ref().and_then(|rig| rig.hold_on(&self.valves)) else {
                continue;
            };
            let Some((door, spec)) = self
                .doors
                .iter_mut()
                .zip(&self.scene.doors)
                .find(|(d, _)| d.handle == hold.rig)
            else {
                continue;
            };
            let (Some(leaf), Some(hull)) = (
                self.world.bodies.get(door.leaf),
                self.world.bodies.get(hold.hull),
            ) else {
                continue;
            };
            // The swing's direction at the handle: horizontal, square to the hinge's radius.
            let radius = hold.held - spec.hinge;
            let swing = Vector3::z().cross(&radius) * spec.sense();
            let Some(swing) = swing.try_normalize(1e-9) else {
                continue;
            };
            let velocity = |body: &RigidBody, p: &Point3<f64>| {
                let arm = p - Point3::from(v64(body.center_of_mass()));
                v64(body.linvel()) + v64(body.angvel()).cross(&arm)
            };
            let closing = (velocity(hull, &hold.pads) - velocity(leaf, &hold.held)).dot(&swing);
            let offset = (hold.pads - hold.held).dot(&swing);
            let pull =
                (PULL_STIFFNESS * offset + PULL_DAMPING * closing).clamp(-hold.limit, hold.limit);
            let force = swing * pull;
            if let Some(leaf) = self.world.bodies.get_mut(door.leaf) {
                leaf.add_force_at_point(v32(&force), v32(&hold.held.coords), true);
                door.pulled = true;
            }
            if let Some(hull) = self.world.bodies.get_mut(hold.hull) {
                hull.add_force_at_point(v32(&-force), v32(&hold.pads.coords), true);
            }
        }
    }

    /// The scene's doors' states, in scene order.
    pub fn door_states(&self) -> impl Iterator<Item = DoorState> + '_ {
        (0..self.doors.len()).filter_map(|i| self.door_state(i))
    }

    /// Door `i`'s state (scene order), if it exists.
    pub fn door_state(&self, i: usize) -> Option<DoorState> {
        let (door, spec) = (self.doors.get(i)?, self.scene.doors.get(i)?);
        let body = self.world.bodies.get(door.leaf)?;
        let handle = self.valves.get(door.handle)?;
        let (angle, rate) = door.angle(&self.world, spec);
        Some(DoorState {
            angle,
            rate,
            latched: door.latched,
            handle: handle.open / handle.travel,
            held: gripped(&self.robots, door.handle),
            pose: isometry_of(body.position()),
        })
    }

    /// The rapier body of door `i`'s leaf (scene order), for the viewer.
    pub fn door_body(&self, i: usize) -> Option<RigidBodyHandle> {
        self.doors.get(i).map(|d| d.leaf)
    }

    /// Puts every door back at its starting angle, at rest, its handle at rest and its latch
    /// as it started (part of [`Simulation::reset_objects`], which lets go of what the grippers
    /// hold first).
    pub(crate) fn reset_doors(&mut self) {
        for (door, spec) in self.doors.iter_mut().zip(&self.scene.doors) {
            let pose = spec.leaf_pose(spec.open);
            if let Some(body) = self.world.bodies.get_mut(door.leaf) {
                body.set_position(pose_of(&pose), true);
                body.set_linvel(Vector::ZERO, true);
                body.set_angvel(Vector::ZERO, true);
            }
            if let Some(handle) = self.valves.get_mut(door.handle) {
                handle.carry(&pose);
                handle.set_open(&mut self.world, 0.0);
            }
            door.set_latched(&mut self.world, spec, spec.starts_latched());
        }
    }

    /// Adds every door's leaf (pose and velocities as rapier stores them), its handle's turn
    /// and its latch to a state snapshot, named `door.<name>.…`.
    pub fn capture_doors(&self, out: &mut StateSnapshot) {
        for (door, spec) in self.doors.iter().zip(&self.scene.doors) {
            let Some(body) = self.world.bodies.get(door.leaf) else {
                continue;
            };
            out.push_all(&format!("door.{}", spec.name), body_values(body));
            let handle = self.valves.get(door.handle).map_or(0.0, |h| h.open);
            out.push(format!("door.{}.handle", spec.name), handle);
            out.push(
                format!("door.{}.latched", spec.name),
                f64::from(u8::from(door.latched)),
            );
        }
    }
}

/// Pushes the doors' proximity spheres (robot `None`) onto `spheres`: each leaf's bounding
/// sphere about its centre now.
pub(super) fn push_spheres(
    world: &PhysicsWorld,
    doors: &[DoorRig],
    specs: &[DoorSpec],
    spheres: &mut Vec<BodySphere>,
) {
    for (door, spec) in doors.iter().zip(specs) {
        if let Some(body) = world.bodies.get(door.leaf) {
            let pose = isometry_of(body.position());
            let centre = pose * Point3::new(0.5 * spec.size[0], 0.0, 0.5 * spec.size[1]);
            spheres.push(BodySphere {
                centre,
                radius: spec.bounding_radius(),
                robot: None,
            });
        }
    }
}
