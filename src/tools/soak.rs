//! Soak testing: seeded random aggressive driving (full-speed straights, reversing, pivot
//! turns, arcs, random flipper targets, stops; an armed robot's arm driven to random targets,
//! speeds, tool velocities and poses while it grips and opens) as a real [`DriveScript`], run on a scene with
//! one robot while counting blow-ups, out-of-bounds and fall events and measuring the largest
//! speed, spin and one-step change of any track's normal force. A robot that goes out of
//! bounds, falls or is disabled is reset to its spawn, as an instructor would, and driving
//! goes on; [`ScriptDriver`] does the same for `treadsim run --auto-reset`, so a failing
//! combination's script replays bit for bit.

use std::time::Instant;

use crate::session::script_arm::{ArmScriptGrip, ArmScriptMotion, ArmStep};
use crate::session::{DriveScript, Driver, ScriptDriver, Session};
use crate::vehicle::arm::{ArmSpec, ToolFrame};

use crate::sim::SimEvent;
use crate::vehicle::{DriveCommand, RobotSpec};

use crate::rng::SplitMix64;

/// Shortest time one random command holds, s.
pub const MIN_HOLD: f64 = 0.3;
/// Longest time one random command holds, s.
pub const MAX_HOLD: f64 = 3.0;

/// The seed of one scene × robot combination: `seed` mixed with both names (FNV-1a), so each
/// combination drives differently and the same `seed` always gives the same scripts.
pub fn combination_seed(seed: u64, scene: &str, robot: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ seed;
    for b in scene.bytes().chain([0u8]).chain(robot.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    h
}

/// Random aggressive driving for `duration` s: piecewise-constant commands held for
/// [`MIN_HOLD`]..[`MAX_HOLD`] s (whole milliseconds): full speed ahead (25 %), full reverse
/// (15 %), pivot turns (15 %), arcs (25 %), any belt speeds (10 %) and stops (10 %), belt
/// speeds up to ± the robot's fastest motor (m/s); with flippers, 40 % of the commands also
/// set a random flipper target within the flippers' range (rad).
pub fn random_script(spec: &RobotSpec, duration: f64, seed: u64) -> DriveScript {
    let mut rng = SplitMix64(seed);
    let vmax = spec.drive_motors().map(|m| m.max_speed).fold(0.0, f64::max);
    let flipper_range = spec
        .flippers
        .iter()
        .fold(None, |acc: Option<(f64, f64)>, f| {
            Some(acc.map_or((f.min_angle, f.max_angle), |(lo, hi)| {
                (lo.max(f.min_angle), hi.min(f.max_angle))
            }))
        });
    let mut commands = Vec::new();
    let mut ms: u64 = 0;
    let end_ms = (duration.max(0.0) * 1000.0).ceil() as u64;
    while ms < end_ms {
        let pick = rng.next_f64();
        let sign = if rng.next_f64() < 0.5 { -1.0 } else { 1.0 };
        let (left, right) = if pick < 0.25 {
            (vmax, vmax)
        } else if pick < 0.40 {
            (-vmax, -vmax)
        } else if pick < 0.55 {
            (sign * vmax, -sign * vmax)
        } else if pick < 0.80 {
            let inner = rng.range(-1.0, 1.0) * vmax;
            if sign > 0.0 {
                (vmax, inner)
            } else {
                (inner, vmax)
            }
        } else if pick < 0.90 {
            (rng.range(-vmax, vmax), rng.range(-vmax, vmax))
        } else {
            (0.0, 0.0)
        };
        let flipper = match flipper_range {
            Some((lo, hi)) if hi >= lo && rng.next_f64() < 0.4 => Some(rng.range(lo, hi)),
            _ => None,
        };
        commands.push((
            ms as f64 / 1000.0,
            DriveCommand {
                left,
                right,
                flipper,
                steer: None,
            },
        ));
        let hold = rng.range(MIN_HOLD, MAX_HOLD);
        ms += (hold * 1000.0).round() as u64;
    }
    let arm = match spec.arm.as_ref() {
        Some(arm) => random_arm_steps(arm, commands.len(), &mut rng),
        None => Vec::new(),
    };
    DriveScript { commands, arm }
}

/// Random arm work for an armed robot's soak: half of the `commands` also move the arm —
/// random joint targets within the limits (40 %), random joint speeds up to the joints' top
/// speeds (20 %), a random tool-point velocity up to 0.3 m/s in the body or gripper frame
/// (20 %), or a stored pose (20 %) — and close (at a random force up to the gripper's
/// largest), open or keep the grip.
fn random_arm_steps(arm: &ArmSpec, commands: usize, rng: &mut SplitMix64) -> Vec<(usize, ArmStep)> {
    let mut steps = Vec::new();
    for k in 0..commands {
        if rng.next_f64() >= 0.5 {
            continue;
        }
        let pick = rng.next_f64();
        let motion = if pick < 0.4 {
            ArmScriptMotion::Joints(arm.joints.iter().map(|j| rng.range(j.min, j.max)).collect())
        } else if pick < 0.6 {
            ArmScriptMotion::Rates(
                arm.joints
                    .iter()
                    .map(|j| rng.range(-j.max_speed, j.max_speed))
                    .collect(),
            )
        } else if pick < 0.8 {
            let frame = if rng.next_f64() < 0.5 {
                ToolFrame::Body
            } else {
                ToolFrame::Gripper
            };
            ArmScriptMotion::Tool {
                velocity: [
                    rng.range(-0.3, 0.3),
                    rng.range(-0.3, 0.3),
                    rng.range(-0.3, 0.3),
                ],
                frame,
            }
        } else {
            let i = ((rng.next_f64() * arm.poses.len() as f64) as usize).min(arm.poses.len() - 1);
            ArmScriptMotion::Joints(arm.poses[i].joints.clone())
        };
        let g = rng.next_f64();
        let grip = if g < 0.3 {
            ArmScriptGrip::Close(Some(rng.range(1.0, arm.gripper.max_force)))
        } else if g < 0.5 {
            ArmScriptGrip::Open
        } else {
            ArmScriptGrip::Keep
        };
        steps.push((k, ArmStep { motion, grip }));
    }
    steps
}

/// What one soak run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct SoakStats {
    /// Scene name.
    pub scene: String,
    /// Robot name.
    pub robot: String,
    /// Seed of the drive script (see [`combination_seed`]).
    pub seed: u64,
    /// Simulated time, s.
    pub sim_seconds: f64,
    /// Wall-clock time, s.
    pub wall_seconds: f64,
    /// Blow-up events of every kind (recovered, escalated to a spawn reset, disabling).
    pub blow_ups: u32,
    /// Of those, escalations to a spawn reset or disabling.
    pub escalations: u32,
    /// Out-of-bounds events.
    pub out_of_bounds: u32,
    /// Fall events.
    pub falls: u32,
    /// Non-finite states seen: blow-ups for a non-finite reason, and non-finite hull states
    /// after a step.
    pub nan: u32,
    /// Largest hull speed, m/s.
    pub max_speed: f64,
    /// Largest hull angular speed, rad/s.
    pub max_spin: f64,
    /// Largest change of any track's normal force from one step to the next, N (steps right
    /// after a reset or recovery excluded).
    pub max_normal_jump: f64,
    /// Simulation time of the largest normal-force change, s.
    pub max_normal_jump_time: f64,
    /// Every event, as text, in order.
    pub events: Vec<String>,
}

impl SoakStats {
    /// An empty total over many runs (scene `total`), to [`add`](Self::add) them to.
    pub fn total(seed: u64) -> Self {
        Self {
            scene: "total".into(),
            robot: String::new(),
            seed,
            sim_seconds: 0.0,
            wall_seconds: 0.0,
            blow_ups: 0,
            escalations: 0,
            out_of_bounds: 0,
            falls: 0,
            nan: 0,
            max_speed: 0.0,
            max_spin: 0.0,
            max_normal_jump: 0.0,
            max_normal_jump_time: 0.0,
            events: Vec::new(),
        }
    }

    /// Adds one run to a total: times and counts summed, the largest speed, spin and
    /// normal-force change kept (their events stay with the run).
    pub fn add(&mut self, run: &SoakStats) {
        self.sim_seconds += run.sim_seconds;
        self.wall_seconds += run.wall_seconds;
        self.blow_ups += run.blow_ups;
        self.escalations += run.escalations;
        self.out_of_bounds += run.out_of_bounds;
        self.falls += run.falls;
        self.nan += run.nan;
        self.max_speed = self.max_speed.max(run.max_speed);
        self.max_spin = self.max_spin.max(run.max_spin);
        self.max_normal_jump = self.max_normal_jump.max(run.max_normal_jump);
    }

    /// Whether the run failed: any blow-up or non-finite state.
    pub fn failed(&self) -> bool {
        self.blow_ups > 0 || self.nan > 0
    }

    /// One JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "scene": self.scene,
            "robot": self.robot,
            "seed": self.seed,
            "sim_s": self.sim_seconds,
            "wall_s": self.wall_seconds,
            "blow_ups": self.blow_ups,
            "escalations": self.escalations,
            "out_of_bounds": self.out_of_bounds,
            "falls": self.falls,
            "nan": self.nan,
            "max_speed_m_s": self.max_speed,
            "max_spin_rad_s": self.max_spin,
            "max_normal_jump_n": self.max_normal_jump,
            "max_normal_jump_time_s": self.max_normal_jump_time,
            "events": self.events,
        })
    }
}

/// Runs `script` for `duration` s on `session` (one robot driving freely, as the launcher
/// starts it at the scene's first spawn), resetting the robot to the spawn whenever it is
/// halted, and measures it.
pub fn soak(mut session: Session, script: DriveScript, seed: u64, duration: f64) -> SoakStats {
    let start = Instant::now();
    let scene_name = session.sim().scene().name.clone();
    let spec = session.sim().robot(session.robot()).spec();
    let robot_name = spec.name.clone();
    let tracks = spec.drive_count();
    let mut driver = ScriptDriver::new(script, true);
    let steps = (duration / session.sim().config().dt).round().max(0.0) as u64;
    let mut prev_normal = vec![0.0; tracks];
    let mut normal_valid = false;
    let (mut max_speed, mut max_spin, mut max_jump, mut jump_time) = (0.0f64, 0.0f64, 0.0, 0.0);
    let mut nan_states = 0u32;
    let mut seen_events = 0;
    for _ in 0..steps {
        let resets = driver.resets();
        driver.before_step(&mut session);
        if driver.resets() != resets {
            normal_valid = false;
        }
        session.step();
        let (sim, id) = (session.sim(), session.robot());
        if sim.events().len() != seen_events {
            seen_events = sim.events().len();
            normal_valid = false;
        }
        let b = sim.body_state(id);
        let (v, w) = (b.linvel.norm(), b.angvel.norm());
        if !(v.is_finite() && w.is_finite()) {
            nan_states += 1;
        }
        max_speed = max_speed.max(v);
        max_spin = max_spin.max(w);
        let robot = sim.robot(id);
        for (t, prev) in prev_normal.iter_mut().enumerate() {
            let n = robot.drive_normal_force(t);
            if normal_valid && (n - *prev).abs() > max_jump {
                max_jump = (n - *prev).abs();
                jump_time = sim.time();
            }
            *prev = n;
        }
        normal_valid = !sim.robot_status(id).is_halted();
    }
    let sim = session.sim();
    let mut stats = SoakStats {
        scene: scene_name,
        robot: robot_name,
        seed,
        sim_seconds: sim.time(),
        wall_seconds: 0.0,
        blow_ups: 0,
        escalations: 0,
        out_of_bounds: 0,
        falls: 0,
        nan: nan_states,
        max_speed,
        max_spin,
        max_normal_jump: max_jump,
        max_normal_jump_time: jump_time,
        events: sim.events().iter().map(|e| e.to_string()).collect(),
    };
    for e in sim.events() {
        match e {
            SimEvent::BlowUp { reason, .. } => {
                stats.blow_ups += 1;
                if reason.contains("non-finite") {
                    stats.nan += 1;
                }
            }
            SimEvent::Reset { reason, .. } | SimEvent::Disabled { reason, .. } => {
                stats.blow_ups += 1;
                stats.escalations += 1;
                if reason.contains("non-finite") {
                    stats.nan += 1;
                }
            }
            SimEvent::OutOfBounds { .. } => stats.out_of_bounds += 1,
            SimEvent::Fell { .. } => stats.falls += 1,
        }
    }
    stats.wall_seconds = start.elapsed().as_secs_f64();
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combination_seeds_differ_and_repeat() {
        let a = combination_seed(1, "flat", "scout");
        assert_eq!(a, combination_seed(1, "flat", "scout"));
        assert_ne!(a, combination_seed(2, "flat", "scout"));
        assert_ne!(a, combination_seed(1, "flats", "cout"));
    }
}
