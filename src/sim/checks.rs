//! Stages 5–7 of [`Simulation::step`] for one robot: blow-up detection and recovery (back to a
//! snapshot, escalating to a spawn reset, then disabling), bounds and falls, and the snapshots
//! recovery goes back to. See the stage list in the parent module.

use rapier3d::prelude::*;

use super::{
    body_state, borne_by_drive, gravity_of, initial_posture, pose_of, spawn_pose, v64, RobotId,
    RobotStatus, SimConfig, SimEvent, Simulation, Snapshot, DISABLE_WINDOW, MAX_ESCALATE,
};
use crate::scene::SceneBounds;
use crate::vehicle::{DriveCommand, Drivetrain};

impl Simulation {
    /// Stages 5–7 for robot `i`.
    pub(super) fn check_robot(&mut self, i: usize) {
        let g = gravity_of(&self.world);
        let config = self.config;
        let r = &mut self.robots[i];
        if r.status.is_frozen() {
            return;
        }
        // 5: blow-ups.
        let arm_reason = r.arm.as_ref().and_then(super::arm::ArmRig::blow_up_reason);
        // Read, not borrowed mutably: a body rapier sees modified makes its next step update
        // the body's island and rebuild the solver's caches. Only a frozen robot's body
        // changes here.
        let Some(body) = self.world.bodies.get(r.body) else {
            return;
        };
        if let Some(reason) = blow_up_reason(body, &r.model, &config).or(arm_reason) {
            self.recover(i, reason);
            return;
        }
        let state = body_state(body);
        // Supported: the tracks carry a good part of the weight, or the robot is not sinking
        // fast. A robot nosing over an edge keeps some track contact at the edge while it
        // drops, so any contact at all is not support.
        let supported = borne_by_drive(&r.model, g) || state.linvel.z > -config.falling_speed;
        // 6: bounds and falls. A robot stopped by a fall onto ground still moves (it may
        // slide or tumble on): it can still leave the bounds or the scene.
        let active = !r.status.is_halted();
        let landed = matches!(
            r.status,
            RobotStatus::Fell {
                below_scene: false,
                ..
            }
        );
        if active || landed {
            if supported || r.support_z.is_nan() {
                r.support_z = state.com.z;
            }
            let drop = r.support_z - state.com.z;
            let bounds: &SceneBounds = &self.scene.bounds;
            let below_scene = state.com.z < bounds.lowest_z - config.fall_below;
            let event = if !bounds.contains_xy(&state.com) {
                r.status = RobotStatus::OutOfBounds { time: self.time };
                Some(SimEvent::OutOfBounds {
                    time: self.time,
                    robot: RobotId(i),
                    position: state.com,
                })
            } else if below_scene || (active && drop > config.fall_height) {
                r.status = RobotStatus::Fell {
                    time: self.time,
                    below_scene,
                };
                Some(SimEvent::Fell {
                    time: self.time,
                    robot: RobotId(i),
                    position: state.com,
                    drop,
                    below_scene,
                })
            } else {
                None
            };
            if let Some(e) = event {
                r.model.set_command(DriveCommand::STOP);
                // Borrowed mutably only when it changes (see stage 5 above): `get_mut` marks
                // the body modified even if nothing is then done with it.
                let frozen = r
                    .status
                    .is_frozen()
                    .then(|| self.world.bodies.get_mut(r.body));
                if let Some(body) = frozen.flatten() {
                    body.set_linvel(Vector::ZERO, false);
                    body.set_angvel(Vector::ZERO, false);
                    body.set_body_type(RigidBodyType::Fixed, false);
                    r.model.halt();
                }
                if let Some(rig) = &mut r.arm {
                    rig.halt();
                }
                self.events.push(e);
                return;
            }
        }
        // 7: snapshot.
        let due = self.steps - r.snapshot_step >= config.snapshot_steps();
        let calm = state.linvel.norm() < 0.5 * config.max_speed
            && state.angvel.norm() < 0.5 * config.max_spin;
        if due && calm && supported && !r.status.is_halted() {
            std::mem::swap(&mut r.snapshot, &mut r.older);
            r.snapshot.time = self.time;
            r.snapshot.pose = *body.position();
            r.model.save_state(&mut r.snapshot.drive);
            if let Some(rig) = &r.arm {
                r.snapshot.arm = rig.posture();
            }
            r.snapshot_step = self.steps;
        }
    }

    /// Recovers robot `i` from a blow-up: back to a snapshot at least one interval old, or on
    /// repeated blow-ups to its spawn, or disabled.
    fn recover(&mut self, i: usize, reason: String) {
        let config = self.config;
        let now = self.time;
        let r = &mut self.robots[i];
        let n = (config.escalate_after as usize).clamp(1, MAX_ESCALATE);
        r.blow_ups[r.blow_up_next] = now;
        r.blow_up_next = (r.blow_up_next + 1) % MAX_ESCALATE;
        let recent = r
            .blow_ups
            .iter()
            .filter(|t| now - **t < config.escalate_window)
            .count();
        // A non-finite step can leave rapier's own state for the body (mass properties,
        // islands, broad phase) unusable, so the hull is rebuilt rather than repaired, at
        // rest.
        let event = if recent >= n {
            r.blow_ups = [f64::NAN; MAX_ESCALATE];
            let spawn_pose = pose_of(&spawn_pose(&r.spawn, r.model.spec()));
            r.model.reset();
            let posture = initial_posture(r.model.spec());
            r.rebuild(&mut self.world, spawn_pose, &posture, config.hull_friction);
            r.support_z = f64::NAN;
            r.older = Snapshot {
                time: now,
                pose: spawn_pose,
                drive: r.model.state(),
                arm: posture,
            };
            r.snapshot.clone_from(&r.older);
            r.snapshot_step = self.steps;
            let why = format!(
                "{recent} blow-ups within {} s, the last: {reason}",
                config.escalate_window
            );
            if now - r.last_escalation < DISABLE_WINDOW {
                r.status = RobotStatus::Disabled { time: now };
                if let Some(body) = self.world.bodies.get_mut(r.body) {
                    body.set_body_type(RigidBodyType::Fixed, false);
                }
                SimEvent::Disabled {
                    time: now,
                    robot: RobotId(i),
                    reason: format!("{why}; it blew up again within {DISABLE_WINDOW} s of a reset to spawn '{}'", r.spawn.name),
                }
            } else {
                r.last_escalation = now;
                r.status = RobotStatus::Active;
                SimEvent::Reset {
                    time: now,
                    robot: RobotId(i),
                    reason: format!("{why}; back at spawn '{}'", r.spawn.name),
                }
            }
        } else {
            // Never the snapshot taken just before the blow-up: the state may already have
            // been on its way there.
            let min_age = config.snapshot_steps() as f64 * config.dt;
            if now - r.snapshot.time < min_age - 0.5 * config.dt {
                r.snapshot.clone_from(&r.older);
            } else {
                r.older.clone_from(&r.snapshot);
            }
            r.model.restore(&r.snapshot.drive);
            let (pose, posture) = (r.snapshot.pose, r.snapshot.arm);
            r.rebuild(&mut self.world, pose, &posture, config.hull_friction);
            r.model.set_command(DriveCommand::STOP);
            r.support_z = f64::NAN;
            r.snapshot_step = self.steps;
            SimEvent::BlowUp {
                time: now,
                robot: RobotId(i),
                reason,
                restored_to: r.snapshot.time,
            }
        };
        self.events.push(event);
    }
}

fn blow_up_reason(body: &RigidBody, model: &Drivetrain, config: &SimConfig) -> Option<String> {
    let p = body.position();
    let finite = [p.translation.x, p.translation.y, p.translation.z]
        .iter()
        .chain([p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w].iter())
        .all(|x| x.is_finite());
    let (v, w) = (v64(body.linvel()), v64(body.angvel()));
    if !finite || !v.iter().chain(w.iter()).all(|x| x.is_finite()) {
        return Some("non-finite pose or velocity".into());
    }
    if model.has_non_finite_speed() {
        return Some("non-finite belt or wheel speed".into());
    }
    if v.norm() > config.max_speed {
        return Some(format!(
            "speed {:.1} m/s exceeds {} m/s",
            v.norm(),
            config.max_speed
        ));
    }
    if w.norm() > config.max_spin {
        return Some(format!(
            "spin {:.1} rad/s exceeds {} rad/s",
            w.norm(),
            config.max_spin
        ));
    }
    None
}
