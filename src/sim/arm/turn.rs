//! Turning a handwheel valve (`sim/valves.rs`) with the gripper. A wheel both pads touch while
//! the gripper closes is *held*; from then on, every step:
//!
//! - the wheel turns with the gripper's own turn about the stem (the twist of the gripper's
//!   rotation since the last step about the stem's axis), up to its stops, while the torque
//!   that takes stays within what the grip can pass on; otherwise the pads slip round it;
//! - what the grip can pass on is Coulomb's law at the pads ([`grip_torque`]): at the pads'
//!   distance `r` from the stem, the force the wheel needs, `τ/r` along the rim's tangent, is
//!   held by friction (2·μ·F) for its part along the pad plane and by the finger plates
//!   (lead-screw fingers are not back-driven) for its part along the finger axis; and the pads
//!   resist twisting about the finger axis with their own friction torque;
//! - the arm's joints feel the wheel's resistance as Coulomb friction ([`JointLoads`]'s
//!   `resist`): each joint's share of the stem's torque is its axis's part along the stem,
//!   the valve's friction torque while it turns and the grip's torque when it cannot (at a stop
//!   or too stiff for the grip), so a wrist weaker than the valve stalls;
//! - pads that slip round the wheel meet its spokes (or whatever else of it stands in their
//!   way) after the free angle found when they took hold ([`free_slip`]); from there the
//!   plates push the spoke, and at a stop nothing turns: the wrist stalls;
//! - the pads keep hold while they stay over where they took the wheel (as it turns): moved
//!   more than [`SLIP_RELEASE`] from it (a wrist turning off the stem's axis, an arm pulling
//!   away, the robot driving off) they have slid off it and let go.
//!
//! A door's lever handle (`sim/doors.rs`) is held and turned the same way, between its rest
//! and its down stop, with two differences: pads across the lever at least
//! [`LEVER_PUSH_MIN`] from its spindle turn it by their move round the spindle over their
//! distance from it (a round bar tilts between flat pads; a wrist rolled there would jam it),
//! and they keep hold sliding along the bar, to its end.
//!
//! What this leaves out: the stem's push back on the pads when the gripper moves off the
//! wheel's circle (the arm is not stalled by it; the grip slides off instead) and the wheel's
//! own inertia beyond its load on the joints.

use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};
use rapier3d::parry::query::contact;
use rapier3d::prelude::*;

use super::grasp::touched_by;
use super::loads::JointLoads;
use crate::scene::doors::LEVER_LENGTH;
use crate::sim::pose_of;
use crate::sim::valves::{turns, ValveRig};
use crate::vehicle::arm::{ArmSpec, GripperSpec, JointKind};

/// Farthest the pads' centre may move from where they took hold of a wheel (turning with it)
/// before they have slid off it and let go, m.
pub const SLIP_RELEASE: f64 = 0.025;

/// Share of a pad's size that is the mean lever arm of its friction against twisting: a
/// square patch of side `s` pressed evenly resists a twist with μ·N·0.383·s.
const TWIST_ARM: f64 = 0.383;

/// How the pads meet a wheel, for [`grip_torque`]: each pad's contact point's velocity per
/// unit turn of the wheel (m/rad, `a × r` with `r` its radial offset from the stem), split
/// into its part along the pad plane and along the finger axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PadLevers {
    /// Each pad's velocity per unit turn along the pad plane, m/rad.
    pub in_plane: [f64; 2],
    /// The pads' centre's velocity per unit turn along the finger axis, m/rad.
    pub normal: f64,
    /// The stem axis's part along the finger axis (a twist about the finger axis), 0–1.
    pub twist: f64,
}

impl PadLevers {
    /// The levers of pads `gap` m apart, their centre at `pads` (world), about a stem through
    /// `centre` along the unit `axis` (world).
    pub fn of(pads: &Isometry3<f64>, gap: f64, centre: &Point3<f64>, axis: &Vector3<f64>) -> Self {
        let fingers = pads.rotation * Vector3::y();
        let middle = Point3::from(pads.translation.vector);
        let velocity = |p: Point3<f64>| {
            let offset = p - centre;
            axis.cross(&(offset - axis * offset.dot(axis)))
        };
        let in_plane = [1.0, -1.0].map(|side| {
            let v = velocity(middle + fingers * (0.5 * gap * side));
            (v - fingers * v.dot(&fingers)).norm()
        });
        Self {
            in_plane,
            normal: velocity(middle).dot(&fingers).abs(),
            twist: axis.dot(&fingers).abs(),
        }
    }
}

/// The torque about a stem the grip can pass on to a wheel, N·m, by Coulomb's law at the pads:
/// each pad presses with `force` N at friction `friction` and gives at most μ·F along the
/// pad plane at its lever ([`PadLevers::in_plane`]) and μ·F·0.383·√(l·h) against a twist
/// about the finger axis (`pad`: l, h, m); along the finger axis the plates (lead-screw
/// fingers, not back-driven) push with up to the gripper's rated force `plates` N.
pub fn grip_torque(
    force: f64,
    friction: f64,
    levers: &PadLevers,
    pad: [f64; 2],
    plates: f64,
) -> f64 {
    let sliding = friction * force * (levers.in_plane[0] + levers.in_plane[1]);
    let twist = 2.0 * friction * force * TWIST_ARM * (pad[0] * pad[1]).sqrt() * levers.twist;
    sliding + twist + plates * levers.normal
}

/// The valve whose wheel both pads touch (last step's contacts), by index in `valves`, with
/// the friction μ of what the first pad touches.
pub(crate) fn pressed_valve(
    world: &PhysicsWorld,
    fingers: [ColliderHandle; 2],
    valves: &[ValveRig],
) -> Option<(usize, f64)> {
    let body_of = |c: ColliderHandle| world.colliders.get(c).and_then(|c| c.parent());
    touched_by(world, fingers[0]).find_map(|c| {
        let body = body_of(c).filter(|_| world.colliders.get(c).is_some_and(turns))?;
        let index = valves.iter().position(|v| v.body == body)?;
        touched_by(world, fingers[1])
            .any(|other| {
                body_of(other) == Some(body) && world.colliders.get(other).is_some_and(turns)
            })
            .then(|| {
                (
                    index,
                    world.colliders.get(c).map_or(0.0, |c| c.friction() as f64),
                )
            })
    })
}

/// What a joint meets turning pads that a spoke blocks against a valve at its stop, N·m: the
/// wheel and the arm locked together (stands for rigid; finite, so that no product with a zero
/// share is undefined).
const BLOCKED: f64 = 1.0e6;

/// Steps of the sweep that finds how far the pads may slip round a wheel, rad (1°).
const SLIP_SWEEP_STEP: f64 = std::f64::consts::PI / 180.0;

/// How much deeper than at the start (or than touching) a pad must sink into the wheel in the
/// sweep to count as meeting it, m: half a millimetre, below what a step's contact slop moves.
pub const SLIP_SWEEP_SINK: f32 = 0.0005;

/// How far `shape` at `pose` (world) is from the collider `part`, m: negative when sunk into
/// it, infinite when apart (no contact within 0 m).
fn depth(pose: &Pose, shape: &dyn Shape, part: &Collider) -> f32 {
    contact(pose, shape, part.position(), part.shape(), 0.0)
        .ok()
        .flatten()
        .map_or(f32::INFINITY, |c| c.dist)
}

/// How far the pads at `pads` (each pad's world pose and collider) may turn round the stem of
/// `valve` relative to its wheel before they meet it, rad: against and along the stem's
/// positive sense (opening), each at most a whole turn (`f64::INFINITY`: nothing in the way).
pub(crate) fn free_slip(
    world: &PhysicsWorld,
    pads: &[(Isometry3<f64>, ColliderHandle); 2],
    valve: &ValveRig,
) -> [f64; 2] {
    let wheel: Vec<&Collider> = world
        .bodies
        .get(valve.body)
        .map(|b| {
            b.colliders()
                .iter()
                .filter_map(|c| world.colliders.get(*c))
                .filter(|c| turns(c))
                .collect()
        })
        .unwrap_or_default();
    let pad_shapes: Vec<(Isometry3<f64>, &Collider)> = pads
        .iter()
        .filter_map(|(pose, c)| Some((*pose, world.colliders.get(*c)?)))
        .collect();
    // Each pad against each part of the wheel, at the start.
    let start: Vec<f32> = pad_shapes
        .iter()
        .flat_map(|(pose, pad)| {
            let pose = pose_of(pose);
            wheel
                .iter()
                .map(move |part| depth(&pose, pad.shape(), part))
        })
        .collect();
    let stem = Unit::new_normalize(valve.axis);
    let blocked = |angle: f64| {
        let turn = Translation3::from(valve.centre.coords)
            * UnitQuaternion::from_axis_angle(&stem, angle)
            * Translation3::from(-valve.centre.coords);
        let mut k = 0;
        pad_shapes.iter().any(|(pose, pad)| {
            let turned = pose_of(&(turn * pose));
            wheel.iter().any(|part| {
                let before = start[k];
                k += 1;
                depth(&turned, pad.shape(), part) < before.min(0.0) - SLIP_SWEEP_SINK
            })
        })
    };
    let steps = (std::f64::consts::TAU / SLIP_SWEEP_STEP).round() as usize;
    [-1.0, 1.0].map(|sign| {
        (1..=steps)
            .find(|k| blocked(sign * *k as f64 * SLIP_SWEEP_STEP))
            .map_or(f64::INFINITY, |k| (k - 1) as f64 * SLIP_SWEEP_STEP)
    })
}

/// Whether the arm's `parts` (collider, link, pose on the hull at `hull`) are all clear of the
/// wheel `body`: none sunk into any of its colliders.
pub(crate) fn clear_of<'a>(
    world: &PhysicsWorld,
    body: RigidBodyHandle,
    hull: &Isometry3<f64>,
    mut parts: impl Iterator<Item = (ColliderHandle, usize, &'a Isometry3<f64>)>,
) -> bool {
    let Some(wheel) = world.bodies.get(body) else {
        return true;
    };
    parts.all(|(handle, _, pose)| {
        let Some(part) = world.colliders.get(handle) else {
            return true;
        };
        let at = pose_of(&(hull * pose));
        wheel
            .colliders()
            .iter()
            .filter_map(|c| world.colliders.get(*c))
            .filter(|c| turns(c))
            .all(|w| depth(&at, part.shape(), w) >= 0.0)
    })
}

/// A gripper's hold on a valve's wheel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ValveHold {
    /// The valve's index in the scene.
    pub valve: usize,
    /// Its wheel's body.
    pub body: RigidBodyHandle,
    /// Friction at the pads: the lower of the pad's and the wheel's μ.
    pub friction: f64,
    /// Where the pads' centre took hold, in the wheel's frame, m.
    held_at: Point3<f64>,
    /// The gripper's rotation a step ago, world frame.
    last: UnitQuaternion<f64>,
    /// How far the pads have slipped round the wheel since they took it, rad about the stem
    /// (positive: the opening sense).
    slip: f64,
    /// How far they may slip before they meet a spoke: against and along the opening sense,
    /// rad ([`free_slip`]).
    free: [f64; 2],
    /// The pads' centre after the last step's move, m, world frame.
    pub pads: Point3<f64>,
}

/// Where the pads are this step and how hard they press.
pub(crate) struct PadsNow {
    /// The pads' frame, world.
    pub pads: Isometry3<f64>,
    /// Gap between the pads, m.
    pub gap: f64,
    /// Each pad's grip force, N.
    pub force: f64,
}

impl ValveHold {
    /// Takes hold of `valve` (index `index`) with the pads' frame at `pads` and each pad at
    /// `fingers` (world poses and colliders), friction `friction`.
    pub fn take(
        world: &mut PhysicsWorld,
        valve: &mut ValveRig,
        index: usize,
        pads: &Isometry3<f64>,
        fingers: &[(Isometry3<f64>, ColliderHandle); 2],
        friction: f64,
    ) -> Self {
        let free = free_slip(world, fingers, valve);
        ValveRig::set_held(world, valve.body, true);
        Self {
            valve: index,
            body: valve.body,
            friction,
            held_at: valve.pose().inverse() * Point3::from(pads.translation.vector),
            last: pads.rotation,
            slip: 0.0,
            free,
            pads: Point3::from(pads.translation.vector),
        }
    }

    /// Where the pads took hold, as it is now (turning and moving with `valve`), m, world.
    pub fn held_point(&self, valve: &ValveRig) -> Point3<f64> {
        valve.pose() * self.held_at
    }

    /// How far the pads may still slip in the sense of `direction` (positive: opening), rad.
    fn room(&self, direction: f64) -> f64 {
        if direction > 0.0 {
            self.free[1] - self.slip
        } else {
            self.free[0] + self.slip
        }
    }

    /// Lets go of the wheel.
    pub fn release(&self, world: &mut PhysicsWorld) {
        ValveRig::set_held(world, self.body, false);
    }

    /// The torque the grip passes on to `valve` with the pads at `now`, N·m ([`grip_torque`]).
    pub fn capacity(&self, valve: &ValveRig, now: &PadsNow, gripper: &GripperSpec) -> f64 {
        let levers = PadLevers::of(&now.pads, now.gap, &valve.centre, &valve.axis);
        grip_torque(
            now.force,
            self.friction,
            &levers,
            gripper.pad,
            gripper.max_force,
        )
    }

    /// The Coulomb friction each joint feels from the wheel, added to `loads` (body frame:
    /// `hull` the hull's pose): for a joint turning one way or the other, the stem's torque
    /// times the joint axis's part along the stem.
    pub fn resist(
        &self,
        valve: &ValveRig,
        capacity: f64,
        spec: &ArmSpec,
        hull: &Isometry3<f64>,
        loads: &mut JointLoads,
    ) {
        let stem = hull.rotation.inverse() * valve.axis;
        // What the stem resists a turn of sign `direction` with, N·m: the pads slip at what the
        // grip passes on until a spoke meets them; from there the wheel turns, or at a stop
        // nothing does.
        let resisting = |direction: f64| {
            let plates = self.room(direction) <= 0.0;
            match (valve.at_stop(direction), plates) {
                (true, true) => BLOCKED,
                (true, false) => capacity,
                (false, true) => valve.torque,
                (false, false) => valve.torque.min(capacity),
            }
        };
        for (j, joint) in spec.joints.iter().enumerate() {
            let share = loads.axis(j).dot(&stem);
            if joint.kind != JointKind::Revolute || share.abs() < 1e-9 {
                continue;
            }
            let plus = resisting(share.signum()) * share.abs();
            let minus = resisting(-share.signum()) * share.abs();
            loads.add_resist(j, plus, minus);
        }
        // The wheel moves with the gripper only while it can turn and the grip passes its
        // torque on; at a stop or slipping the joints move without it.
        let between = valve.open > 0.0 && valve.open < valve.travel;
        if between && valve.torque <= capacity {
            loads.add_inertia(spec.joints.len() - 1, &Point3::origin(), 0.0, valve.inertia);
        }
    }

    /// One step with the pads now at `now`: turns the wheel by the gripper's turn about the
    /// stem while the grip can pass the valve's torque on; returns whether the pads still hold
    /// it (false: they slid off).
    pub fn follow(
        &mut self,
        world: &mut PhysicsWorld,
        valve: &mut ValveRig,
        now: &PadsNow,
        gripper: &GripperSpec,
    ) -> bool {
        let turn = now.pads.rotation * self.last.inverse();
        self.last = now.pads.rotation;
        let pads = Point3::from(now.pads.translation.vector);
        let twist = match lever_arm(valve, &self.pads) {
            // Pads across a lever away from its spindle push it round: their move along the
            // circle about the spindle over its radius (the round bar tilts between flat pads).
            Some((arm, tangent)) => (pads - self.pads).dot(&tangent) / arm,
            None => twist_about(&turn, &valve.axis),
        };
        if twist != 0.0 {
            // The pads slip first if the grip cannot pass the torque on, until a spoke meets
            // them; the rest of the twist turns the wheel, up to its stops; what a stop leaves
            // slips too.
            let grips = valve.torque <= self.capacity(valve, now, gripper);
            let can_slip = if grips {
                0.0
            } else {
                self.room(twist).max(0.0)
            };
            let slipping = twist.abs().min(can_slip).copysign(twist);
            let turned = valve.turn(world, twist - slipping);
            self.slip = (self.slip + twist - turned).clamp(-self.free[0], self.free[1]);
        }
        self.pads = pads;
        let mut off = self.pads - self.held_point(valve);
        if let Some((arm, tangent)) = lever_arm(valve, &self.pads) {
            // Along a lever's bar the pads slide and keep hold, up to its end.
            let along = valve.axis.cross(&tangent);
            off -= along * off.dot(&along);
            if arm > LEVER_LENGTH {
                return false;
            }
        }
        off.norm() <= SLIP_RELEASE
    }

    /// The hold's state for snapshots: where it took the wheel (x, y, z in the wheel's frame),
    /// the gripper's last rotation (quaternion i, j, k, w), the slip and the free slip either
    /// way (rad).
    pub fn state(&self) -> [f64; 10] {
        let (p, q) = (self.held_at, self.last.coords);
        let [against, along] = self.free;
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w, self.slip, against, along]
    }
}

/// Pads closer to a lever's spindle than this, m, turn it by their own twist about the
/// spindle; farther out, by their move round it.
pub const LEVER_PUSH_MIN: f64 = 0.045;

/// For pads at `pads` (world) across a door handle's lever at least [`LEVER_PUSH_MIN`] from
/// its spindle: their distance from the spindle, m, and the unit direction (world) in which
/// a point there moves as the handle turns down; `None` for a valve's wheel or pads near the
/// spindle.
fn lever_arm(valve: &ValveRig, pads: &Point3<f64>) -> Option<(f64, Vector3<f64>)> {
    if !valve.is_lever() {
        return None;
    }
    let offset = pads - valve.centre;
    let radial = offset - valve.axis * offset.dot(&valve.axis);
    let arm = radial.norm();
    (arm >= LEVER_PUSH_MIN).then(|| (arm, valve.axis.cross(&radial) / arm))
}

/// The angle of `rotation` about the unit `axis` (its twist, in a swing–twist split), rad in
/// (−π, π].
pub fn twist_about(rotation: &UnitQuaternion<f64>, axis: &Vector3<f64>) -> f64 {
    let q = rotation.quaternion();
    let along = q.imag().dot(axis);
    if along == 0.0 && q.w == 0.0 {
        return 0.0;
    }
    let angle = 2.0 * along.atan2(q.w);
    // atan2 over (−π, π] doubled: bring it back into (−π, π].
    if angle > std::f64::consts::PI {
        angle - std::f64::consts::TAU
    } else if angle <= -std::f64::consts::PI {
        angle + std::f64::consts::TAU
    } else {
        angle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_twist_about_an_axis_is_the_rotation_about_it_and_ignores_the_swing() {
        let axis = Vector3::new(0.0, 0.6, 0.8);
        let twist = UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), 0.7);
        assert!((twist_about(&twist, &axis) - 0.7).abs() < 1e-12);
        assert!((twist_about(&twist.inverse(), &axis) + 0.7).abs() < 1e-12);
        // A swing about an axis at right angles adds no twist.
        let swing = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 0.3);
        assert!(twist_about(&swing, &axis).abs() < 1e-12);
    }

    #[test]
    fn the_grip_passes_on_coulombs_torque_and_the_plates_hold_the_rest() {
        let pad = [0.05, 0.03];
        let stem = Point3::new(1.0, 0.0, 0.5);
        let along = Vector3::new(-1.0, 0.0, 0.0);
        // A hub of radius 0.024 m pinched on its axis by a level gripper pointing along the
        // stem, 40 N at μ 0.9: each pad's contact slides round at 0.024 m/rad in the pad
        // plane, so 2·0.9·40·0.024 = 1.728 N·m.
        let level = Isometry3::translation(1.0, 0.0, 0.5);
        let hub = PadLevers::of(&level, 0.048, &stem, &along);
        assert!((hub.in_plane[0] - 0.024).abs() < 1e-12 && hub.normal.abs() < 1e-12);
        let tau = grip_torque(40.0, 0.9, &hub, pad, 60.0);
        assert!((tau - 1.728).abs() < 1e-9, "{tau}");
        // A spoke pinched 0.08 m above the stem: turning pushes it along the finger axis,
        // into a plate (60 N at 0.08 m: 4.8 N·m more).
        let above = Isometry3::translation(1.0, 0.0, 0.58);
        let spoke = PadLevers::of(&above, 0.016, &stem, &along);
        assert!((spoke.normal - 0.08).abs() < 1e-12, "{spoke:?}");
        let tau = grip_torque(40.0, 0.9, &spoke, pad, 60.0);
        assert!(
            (tau - (0.9 * 40.0 * 2.0 * 0.008 + 4.8)).abs() < 1e-9,
            "{tau}"
        );
        // The stem along the finger axis, pads on it: only their twist friction,
        // 2·0.9·40·0.383·√(0.0015) = 1.07 N·m.
        let twisted = PadLevers::of(&level, 0.048, &stem, &Vector3::y());
        let tau = grip_torque(40.0, 0.9, &twisted, pad, 60.0);
        let twist = 72.0 * 0.383 * 0.0015_f64.sqrt();
        assert!((tau - twist).abs() < 1e-9, "{tau}");
    }
}
