//! The scene's handwheel valves ([`crate::scene::ValveSpec`]) in the rapier world: each wheel
//! (rim, spokes and hub) is a fixed body on its stem, moved to its new angle only when a gripper
//! that holds it turns it (`arm/turn.rs`) between its closed and fully open stops. Robots and
//! objects meet it as a fixed part of the plant; at rest it costs nothing a step (a kinematic
//! body's colliders would be updated every step: 20 idle valves took the scout's step from 2×
//! to 6–9× a bare rapier step).
//!
//! **Why turned in `f64`, not on a rapier joint.** The arm is rigid on its hull between steps and its joints
//! are integrated here (`arm/`), not by rapier; a wheel the gripper turns is one more degree of
//! freedom of that same chain, integrated with it: its friction torque loads the arm's joints
//! as Coulomb friction ([`super::arm`]), so a wrist too weak for the valve stalls. A wheel on a
//! rapier joint would couple the hull and the stem through the solver, the chain of light and
//! heavy bodies the arm's design notes why we avoid.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use super::arm::ARM_GROUP;
use super::proximity::BodySphere;
use super::{pose_of, RobotSlot, Simulation, StateSnapshot};
use crate::scene::ValveSpec;

/// A valve's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValveState {
    /// How far open, turns (0: closed).
    pub open: f64,
    /// Whether a gripper holds it.
    pub held: bool,
    /// The wheel's pose, world frame (its z along the stem, out toward the operator).
    pub pose: Isometry3<f64>,
}

/// Something a gripper takes hold of and turns about an axis between two stops: a valve's
/// handwheel, or a door's lever handle (`doors.rs`); its body and how far it is turned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValveRig {
    /// The wheel's fixed body, or the door's leaf a handle turns on. The colliders that turn
    /// (all of a wheel's; a handle's spindle and levers) carry [`TURN_TAG`].
    pub body: RigidBodyHandle,
    /// What it turns on.
    mount: Mount,
    /// The hub's centre, m, world frame.
    pub centre: Point3<f64>,
    /// The stem's axis, world frame (unit).
    pub axis: Vector3<f64>,
    /// The wheel's rotation with the valve closed, world frame (its z along the stem).
    closed: UnitQuaternion<f64>,
    /// Friction torque, N·m.
    pub torque: f64,
    /// Turns from closed to fully open.
    pub travel: f64,
    /// How far open, turns.
    pub open: f64,
    /// The wheel's moment of inertia about the stem, kg·m² (rim and spokes).
    pub inertia: f64,
}

/// What a [`ValveRig`] turns on.
#[derive(Debug, Clone, PartialEq)]
enum Mount {
    /// A wheel on its own fixed body, moved to each new angle.
    Fixed,
    /// A handle on a door's leaf: its frame on the leaf (z along the spindle), and its parts
    /// with each one's pose in that frame at rest; they move on the leaf as it turns.
    Leaf {
        frame: Isometry3<f64>,
        parts: Vec<(ColliderHandle, Isometry3<f64>)>,
    },
}

/// `user_data` of a collider that turns with a [`ValveRig`]: a wheel's or a handle's part
/// ("turn" in ASCII). A handle's leaf carries other colliders that must not count as it.
pub(crate) const TURN_TAG: u128 = 0x7475_726e;

/// Whether `collider` is a part of something that turns ([`TURN_TAG`]).
pub(crate) fn turns(collider: &Collider) -> bool {
    collider.user_data == TURN_TAG
}

impl ValveRig {
    /// Inserts the wheel of `spec` into `world`, at its starting opening.
    pub fn insert(world: &mut PhysicsWorld, spec: &ValveSpec) -> Self {
        let closed =
            UnitQuaternion::rotation_between(&Vector3::z(), &spec.axis).unwrap_or_else(|| {
                UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
            });
        let mut rig = Self {
            body: RigidBodyHandle::invalid(),
            mount: Mount::Fixed,
            centre: spec.centre,
            axis: spec.axis.into_inner(),
            closed,
            torque: spec.torque,
            travel: spec.travel,
            open: spec.open,
            inertia: spec.mass * spec.radius * spec.radius,
        };
        rig.body = world
            .bodies
            .insert(RigidBodyBuilder::fixed().pose(pose_of(&rig.pose())).build());
        for mut collider in wheel_colliders(spec) {
            collider.user_data = TURN_TAG;
            world
                .colliders
                .insert_with_parent(collider, rig.body, &mut world.bodies);
        }
        rig
    }

    /// Inserts a door's lever handle on its leaf `leaf` (whose pose is now `leaf_pose`,
    /// world): its `parts` (colliders and their poses in the handle's frame `frame` on the
    /// leaf, z along the spindle), turning `travel` turns against `torque` N·m.
    pub fn insert_handle(
        world: &mut PhysicsWorld,
        leaf: RigidBodyHandle,
        leaf_pose: &Isometry3<f64>,
        frame: Isometry3<f64>,
        parts: Vec<(Collider, Isometry3<f64>)>,
        torque: f64,
        travel: f64,
    ) -> Self {
        let parts = parts
            .into_iter()
            .map(|(mut collider, pose)| {
                collider.user_data = TURN_TAG;
                // A collider's pose before it has a parent is the one it keeps on it.
                collider.set_position(pose_of(&(frame * pose)));
                let handle = world
                    .colliders
                    .insert_with_parent(collider, leaf, &mut world.bodies);
                (handle, pose)
            })
            .collect();
        let mut rig = Self {
            body: leaf,
            mount: Mount::Leaf { frame, parts },
            centre: Point3::origin(),
            axis: Vector3::z(),
            closed: UnitQuaternion::identity(),
            torque,
            travel,
            open: 0.0,
            inertia: 0.0,
        };
        rig.carry(leaf_pose);
        rig
    }

    /// Whether it is a door's lever handle (on a leaf), not a valve's wheel.
    pub fn is_lever(&self) -> bool {
        matches!(self.mount, Mount::Leaf { .. })
    }

    /// A handle on a leaf now at `leaf_pose` (world): its spindle and rest pose go with it
    /// (a wheel stays where it is).
    pub fn carry(&mut self, leaf_pose: &Isometry3<f64>) {
        if let Mount::Leaf { frame, .. } = &self.mount {
            let pose = leaf_pose * frame;
            self.centre = Point3::from(pose.translation.vector);
            self.axis = pose.rotation * Vector3::z();
            self.closed = pose.rotation;
        }
    }

    /// The wheel's pose now, world frame.
    pub fn pose(&self) -> Isometry3<f64> {
        let turned =
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), self.open * std::f64::consts::TAU);
        Isometry3::from_parts(Translation3::from(self.centre.coords), self.closed * turned)
    }

    /// Whether the valve stands at a stop for a turn of sign `direction` about the stem
    /// (positive opens).
    pub fn at_stop(&self, direction: f64) -> bool {
        (direction > 0.0 && self.open >= self.travel) || (direction < 0.0 && self.open <= 0.0)
    }

    /// Turns the wheel by `angle` rad about the stem (positive opens), up to its stops, and
    /// sets its body to move there in the coming step; returns the angle turned, rad.
    pub fn turn(&mut self, world: &mut PhysicsWorld, angle: f64) -> f64 {
        let before = self.open;
        self.open = (self.open + angle / std::f64::consts::TAU).clamp(0.0, self.travel);
        if self.open != before {
            self.place(world);
        }
        (self.open - before) * std::f64::consts::TAU
    }

    /// Sets it to `open` turns (within its stops) and moves its body or parts there.
    pub fn set_open(&mut self, world: &mut PhysicsWorld, open: f64) {
        self.open = open.clamp(0.0, self.travel);
        self.place(world);
    }

    /// Moves the wheel's body, or the handle's parts on the leaf, to the angle now.
    fn place(&self, world: &mut PhysicsWorld) {
        match &self.mount {
            Mount::Fixed => {
                if let Some(b) = world.bodies.get_mut(self.body) {
                    b.set_position(pose_of(&self.pose()), true);
                }
            }
            Mount::Leaf { frame, parts } => {
                let turned = frame
                    * UnitQuaternion::from_axis_angle(
                        &Vector3::z_axis(),
                        self.open * std::f64::consts::TAU,
                    );
                for (handle, pose) in parts {
                    if let Some(c) = world.colliders.get_mut(*handle) {
                        c.set_position_wrt_parent(pose_of(&(turned * pose)));
                    }
                }
                if let Some(b) = world.bodies.get_mut(self.body) {
                    b.wake_up(true);
                }
            }
        }
    }

    /// Marks the turning parts on `body` held or let go: while held, the gripper's parts pass
    /// through them (the pads hold them by the law in `arm/turn.rs`, not by contact, which
    /// would fight it).
    pub fn set_held(world: &mut PhysicsWorld, body: RigidBodyHandle, held: bool) {
        let colliders: Vec<ColliderHandle> = world
            .bodies
            .get(body)
            .map(|b| b.colliders().to_vec())
            .unwrap_or_default();
        let filter = if held {
            Group::ALL ^ ARM_GROUP
        } else {
            Group::ALL
        };
        for c in colliders {
            if let Some(c) = world.colliders.get_mut(c).filter(|c| turns(c)) {
                c.set_collision_groups(InteractionGroups::new(
                    Group::ALL,
                    filter,
                    InteractionTestMode::And,
                ));
            }
        }
    }
}

/// The wheel's colliders in its own frame (z along the stem): the rim as capsules between
/// points round its centre line, the spokes from the hub to the rim, and the hub
/// ([`crate::scene::valves::hub_radius`]).
fn wheel_colliders(spec: &ValveSpec) -> Vec<Collider> {
    const RIM_SEGMENTS: u32 = 16;
    let (r, t) = (spec.radius as f32, spec.rim as f32);
    let hub = crate::scene::valves::hub_radius(spec.radius, spec.rim) as f32;
    let at = |k: f32, of: u32, radius: f32| {
        let a = k * std::f32::consts::TAU / of as f32;
        Vector::new(radius * a.cos(), radius * a.sin(), 0.0)
    };
    // The mass is shared by length: rim, spokes and hub in proportion.
    let rim_length = std::f32::consts::TAU * r;
    let spoke_length = (r - hub).max(0.0);
    let total = rim_length + spec.spokes as f32 * spoke_length + hub;
    let density = spec.mass as f32 / total;
    let finish = |b: ColliderBuilder, length: f32| {
        b.mass(density * length)
            .friction(spec.friction as f32)
            .restitution(0.0)
            .build()
    };
    let mut colliders = Vec::new();
    for k in 0..RIM_SEGMENTS {
        let (a, b) = (
            at(k as f32, RIM_SEGMENTS, r),
            at(k as f32 + 1.0, RIM_SEGMENTS, r),
        );
        colliders.push(finish(
            ColliderBuilder::capsule_from_endpoints(a, b, t),
            rim_length / RIM_SEGMENTS as f32,
        ));
    }
    for k in 0..spec.spokes {
        let (a, b) = (at(k as f32, spec.spokes, hub), at(k as f32, spec.spokes, r));
        colliders.push(finish(
            ColliderBuilder::capsule_from_endpoints(a, b, 0.8 * t),
            spoke_length,
        ));
    }
    // rapier's cylinders stand along y; the hub's axis is the stem (z). Its length is its
    // radius: short enough that a gripper pinching it clears the wheel with its palm.
    let hub_shape = ColliderBuilder::cylinder(0.5 * hub, hub).rotation(Vector::new(
        std::f32::consts::FRAC_PI_2,
        0.0,
        0.0,
    ));
    colliders.push(finish(hub_shape, hub));
    colliders
}

impl Simulation {
    /// The scene's valves' states, in scene order.
    pub fn valve_states(&self) -> impl Iterator<Item = ValveState> + '_ {
        self.valves.iter().enumerate().map(|(i, v)| ValveState {
            open: v.open,
            held: gripped(&self.robots, i),
            pose: v.pose(),
        })
    }

    /// Valve `i`'s state (scene order), if it exists.
    pub fn valve_state(&self, i: usize) -> Option<ValveState> {
        self.valve_states().nth(i)
    }

    /// The rapier body of valve `i`'s wheel (scene order), for the viewer.
    pub fn valve_body(&self, i: usize) -> Option<RigidBodyHandle> {
        self.valves.get(i).map(|v| v.body)
    }

    /// Puts every valve back at its starting opening (part of
    /// [`Simulation::reset_objects`], which lets go of what the grippers hold first).
    pub(crate) fn reset_valves(&mut self) {
        for (v, spec) in self.valves.iter_mut().zip(&self.scene.valves) {
            v.set_open(&mut self.world, spec.open);
        }
    }

    /// Adds every valve's opening (turns) to a state snapshot, named `valve.<name>.open`.
    pub fn capture_valves(&self, out: &mut StateSnapshot) {
        for (v, spec) in self.valves.iter().zip(&self.scene.valves) {
            out.push(format!("valve.{}.open", spec.name), v.open);
        }
    }
}

/// Whether one of `robots`' grippers holds turning rig `i` (a valve's wheel or a door's
/// handle).
pub(super) fn gripped(robots: &[RobotSlot], i: usize) -> bool {
    robots
        .iter()
        .filter_map(|r| r.arm.as_ref())
        .any(|rig| rig.turning() == Some(i))
}

/// Pushes the valves' proximity spheres (robot `None`) onto `spheres`.
pub(super) fn push_spheres(
    valves: &[ValveRig],
    specs: &[ValveSpec],
    spheres: &mut Vec<BodySphere>,
) {
    for (v, spec) in valves.iter().zip(specs) {
        spheres.push(BodySphere {
            centre: v.centre,
            radius: spec.bounding_radius(),
            robot: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Unit;

    fn spec() -> ValveSpec {
        ValveSpec {
            name: "feed".into(),
            centre: Point3::new(1.0, 2.0, 0.5),
            axis: Unit::new_normalize(Vector3::new(-1.0, 0.0, 0.0)),
            radius: 0.12,
            rim: 0.01,
            spokes: 3,
            mass: 1.2,
            torque: 1.5,
            travel: 2.0,
            open: 1.0,
            friction: 0.8,
            color: [0.7, 0.1, 0.1],
        }
    }

    #[test]
    fn a_wheel_faces_along_its_stem_and_turns_between_its_stops() {
        let mut world = PhysicsWorld::default();
        let mut valve = ValveRig::insert(&mut world, &spec());
        let face = valve.pose().rotation * Vector3::z();
        assert!((face - Vector3::new(-1.0, 0.0, 0.0)).norm() < 1e-12);
        assert_eq!(
            world.bodies.get(valve.body).unwrap().colliders().len(),
            16 + 3 + 1
        );
        // Half a turn open, then past the open stop: only the one turn that was left.
        let turned = valve.turn(&mut world, std::f64::consts::PI);
        assert!((turned - std::f64::consts::PI).abs() < 1e-12 && (valve.open - 1.5).abs() < 1e-12);
        let turned = valve.turn(&mut world, 4.0 * std::f64::consts::PI);
        assert!((turned - std::f64::consts::PI).abs() < 1e-9, "{turned}");
        assert!(valve.at_stop(1.0) && !valve.at_stop(-1.0));
        valve.turn(&mut world, -10.0 * std::f64::consts::PI);
        assert_eq!(valve.open, 0.0);
        assert!(valve.at_stop(-1.0));
    }

    #[test]
    fn opening_turns_the_wheel_anticlockwise_as_its_operator_sees_it() {
        // The operator faces the wheel looking along −axis; a spoke's end at the top moves to
        // the operator's left as the valve opens.
        let mut world = PhysicsWorld::default();
        let mut valve = ValveRig::insert(&mut world, &spec());
        let top = |v: &ValveRig| {
            let p = v.pose();
            // The spoke end that is highest now.
            (0..3)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 3.0;
                    p * Point3::new(0.12 * a.cos(), 0.12 * a.sin(), 0.0)
                })
                .fold(Point3::new(0.0, 0.0, f64::NEG_INFINITY), |a, b| {
                    if b.z > a.z {
                        b
                    } else {
                        a
                    }
                })
        };
        let before = top(&valve);
        valve.turn(&mut world, 0.1);
        let after = top(&valve);
        // The stem points −x, so the operator stands at lower x looking toward +x: their left
        // is +y.
        assert!(after.y > before.y, "{before} -> {after}");
    }
}
