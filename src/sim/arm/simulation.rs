//! The arm as the simulation offers it: the drive interlock in stage 1½, commands, state,
//! posing for tests and tools, and the robot's mass, centre of mass and tip-over limits with the
//! arm as posed and loaded.

use nalgebra::Point3;
use rapier3d::prelude::ColliderHandle;

use super::ArmPosture;
use super::ArmState;
use crate::sim::{isometry_of, v64, RobotId, Simulation, StateSnapshot};
use crate::vehicle::arm::{ArmCommand, MAX_ARM_JOINTS};
use crate::vehicle::stability::TipLimits;

/// The drive motors' top speed of a robot of `spec`, m/s: its slowest driven track or wheel.
fn drive_top_speed(spec: &crate::vehicle::RobotSpec) -> f64 {
    spec.tracks
        .iter()
        .map(|t| t.motor.max_speed)
        .chain(
            spec.wheels
                .iter()
                .filter(|w| w.driven)
                .map(|w| w.motor.max_speed),
        )
        .fold(f64::INFINITY, f64::min)
}

impl Simulation {
    /// Stage 1½ for armed robots: the operator's drive command through the arm interlock
    /// ([`ArmRig::interlocked`]), every step, as the arm moves in and out of its drive reach.
    pub(in crate::sim) fn arm_interlocks(&mut self) {
        for r in &mut self.robots {
            let Some(rig) = r.arm.as_ref() else {
                continue;
            };
            if r.status.is_halted() {
                continue;
            }
            let top = drive_top_speed(r.model.spec());
            r.model.set_command(rig.interlocked(rig.drive_command, top));
        }
    }

    /// Sets robot `id`'s arm command; it holds until changed. A halted robot's arm
    /// ([`crate::sim::RobotStatus::is_halted`]) ignores it and holds; a robot without an arm
    /// ignores it.
    pub fn set_arm_command(&mut self, id: RobotId, command: ArmCommand) {
        if let Some(r) = self.robots.get_mut(id.0) {
            if let Some(rig) = r.arm.as_mut().filter(|_| !r.status.is_halted()) {
                rig.set_command(command);
            }
        }
    }

    /// Robot `id`'s arm as the last step left it (`None`: no arm).
    pub fn arm_state(&self, id: RobotId) -> Option<ArmState> {
        let r = self.robots.get(id.0)?;
        let rig = r.arm.as_ref()?;
        let mut state = rig.read(&self.world);
        state.held = rig
            .grasp
            .and_then(|g| self.objects.iter().position(|o| *o == g.object));
        Some(state)
    }

    /// Puts robot `id`'s arm at joint positions `positions` (rad or m, joint order; clamped to
    /// the limits) with the finger pads `finger_gap` m apart, at rest, holding there and
    /// holding nothing (for tests, tools and the envelope). No effect without an arm.
    pub fn pose_arm(&mut self, id: RobotId, positions: &[f64], finger_gap: f64) {
        let Some(rig) = self.robots.get_mut(id.0).and_then(|r| r.arm.as_mut()) else {
            return;
        };
        let mut posture = ArmPosture {
            positions: [0.0; MAX_ARM_JOINTS],
            finger_gap,
        };
        for ((p, q), joint) in posture
            .positions
            .iter_mut()
            .zip(positions)
            .zip(&rig.spec.joints)
        {
            *p = q.clamp(joint.min, joint.max);
        }
        rig.place(&mut self.world, &posture);
    }

    /// Robot `id`'s mass (kg) and centre of mass (m, body frame) with its arm as posed and
    /// what the arm holds: the hull body's (rapier sums the arm's colliders, and a held
    /// object's, into it).
    pub fn mass_center(&self, id: RobotId) -> (f64, Point3<f64>) {
        let r = &self.robots[id.0];
        let Some(hull) = self.world.bodies.get(r.body) else {
            let spec = r.model.spec();
            return (spec.mass, spec.center_of_mass);
        };
        let pose = isometry_of(hull.position());
        let mass = hull.mass() as f64;
        let moment = v64(hull.center_of_mass()) * mass;
        (mass, pose.inverse() * Point3::from(moment / mass.max(1e-9)))
    }

    /// Robot `id`'s static tip-over limits now: an armed robot's from its centre of mass with
    /// the arm as posed and its load ([`Simulation::mass_center`]), any other's from its file.
    pub fn tip_limits(&self, id: RobotId) -> TipLimits {
        let r = &self.robots[id.0];
        let spec = r.model.spec();
        if r.arm.is_none() {
            return TipLimits::from_spec(spec);
        }
        TipLimits::with_center_of_mass(spec, &self.mass_center(id).1)
    }

    /// Robot `id`'s arm command in force (`None`: no arm).
    pub fn arm_command(&self, id: RobotId) -> Option<ArmCommand> {
        Some(self.robots.get(id.0)?.arm.as_ref()?.command())
    }

    /// The colliders of robot `id`'s arm on its hull body: links, palm, then the left and
    /// right fingers (empty: no arm), for the viewer.
    pub fn arm_colliders(&self, id: RobotId) -> Vec<ColliderHandle> {
        self.robots
            .get(id.0)
            .and_then(|r| r.arm.as_ref())
            .map(|rig| rig.colliders().collect())
            .unwrap_or_default()
    }

    /// Adds robot `id`'s arm state to a state snapshot (see [`ArmRig::capture`]).
    pub(in crate::sim) fn capture_arm(&self, id: RobotId, prefix: &str, out: &mut StateSnapshot) {
        if let Some(rig) = self.robots[id.0].arm.as_ref() {
            rig.capture(prefix, out);
        }
    }
}
