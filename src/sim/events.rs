//! What the simulation reports: events of a step (blow-ups, leaving the scene, falls, resets)
//! and each robot's status (driving, or why it is stopped).

use nalgebra::Point3;

use super::RobotId;

/// Something that happened during a step that the operator or instructor should know.
#[derive(Debug, Clone, PartialEq)]
pub enum SimEvent {
    /// A robot's state became non-finite or ran away; it was restored to its snapshot from
    /// `restored_to` s, at rest.
    BlowUp {
        /// Simulation time of the detection, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// What was wrong.
        reason: String,
        /// Time of the snapshot it was restored to, s.
        restored_to: f64,
    },
    /// A robot's centre of mass left the scene's bounds rectangle: it is frozen where it is
    /// and ignores commands until [`Simulation::reset_robot`](super::Simulation::reset_robot).
    OutOfBounds {
        /// Simulation time of the detection, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// Its centre of mass, world, m.
        position: Point3<f64>,
    },
    /// A robot fell: it dropped more than [`SimConfig::fall_height`](super::SimConfig::fall_height) while falling
    /// (it is stopped and ignores commands), or sank below the scene (it is also frozen),
    /// until [`Simulation::reset_robot`](super::Simulation::reset_robot).
    Fell {
        /// Simulation time of the detection, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// Its centre of mass, world, m.
        position: Point3<f64>,
        /// Height dropped since it was last supported, m.
        drop: f64,
        /// Whether it went below the scene ([`SimConfig::fall_below`](super::SimConfig::fall_below) under the lowest
        /// terrain) and was frozen there.
        below_scene: bool,
    },
    /// Repeated blow-ups ([`SimConfig::escalate_after`](super::SimConfig::escalate_after) within
    /// [`SimConfig::escalate_window`](super::SimConfig::escalate_window)): the robot was put back at its spawn, at rest, command
    /// stopped. Emitted instead of a [`SimEvent::BlowUp`] for the blow-up that escalated.
    Reset {
        /// Simulation time, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// Why: the count and the last blow-up's reason.
        reason: String,
    },
    /// A robot escalated to a spawn reset twice within [`DISABLE_WINDOW`](super::DISABLE_WINDOW) s: it is frozen at
    /// its spawn and ignores commands until [`Simulation::reset_robot`](super::Simulation::reset_robot) (never a loop).
    Disabled {
        /// Simulation time, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// Why: the last blow-up's reason.
        reason: String,
    },
}

impl SimEvent {
    /// The robot the event is about.
    pub fn robot(&self) -> RobotId {
        match self {
            SimEvent::BlowUp { robot, .. }
            | SimEvent::OutOfBounds { robot, .. }
            | SimEvent::Fell { robot, .. }
            | SimEvent::Reset { robot, .. }
            | SimEvent::Disabled { robot, .. } => *robot,
        }
    }

    /// Simulation time of the event, s.
    pub fn time(&self) -> f64 {
        match self {
            SimEvent::BlowUp { time, .. }
            | SimEvent::OutOfBounds { time, .. }
            | SimEvent::Fell { time, .. }
            | SimEvent::Reset { time, .. }
            | SimEvent::Disabled { time, .. } => *time,
        }
    }

    /// A short name of the kind of event (`blow-up`, `out of bounds`, `fell`, `reset`,
    /// `disabled`).
    pub fn kind_name(&self) -> &'static str {
        match self {
            SimEvent::BlowUp { .. } => "blow-up",
            SimEvent::OutOfBounds { .. } => "out of bounds",
            SimEvent::Fell { .. } => "fell",
            SimEvent::Reset { .. } => "reset",
            SimEvent::Disabled { .. } => "disabled",
        }
    }

    /// Whether the physics of the robot failed (a blow-up, recovered, escalated or disabling).
    pub fn is_blow_up(&self) -> bool {
        matches!(
            self,
            SimEvent::BlowUp { .. } | SimEvent::Reset { .. } | SimEvent::Disabled { .. }
        )
    }
}

impl std::fmt::Display for SimEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimEvent::BlowUp {
                time,
                robot,
                reason,
                restored_to,
            } => write!(
                f,
                "{time:.3} s: robot {}: blow-up ({reason}); restored the state of {restored_to:.3} s",
                robot.0
            ),
            SimEvent::OutOfBounds {
                time,
                robot,
                position: p,
            } => write!(
                f,
                "{time:.3} s: robot {}: out of bounds at ({:.2}, {:.2}, {:.2}) m; stopped until reset",
                robot.0, p.x, p.y, p.z
            ),
            SimEvent::Fell {
                time,
                robot,
                position: p,
                drop,
                below_scene,
            } => write!(
                f,
                "{time:.3} s: robot {}: fell {drop:.2} m{} at ({:.2}, {:.2}, {:.2}) m; stopped until reset",
                robot.0,
                if *below_scene { " below the scene" } else { "" },
                p.x,
                p.y,
                p.z
            ),
            SimEvent::Reset {
                time,
                robot,
                reason,
            } => write!(f, "{time:.3} s: robot {}: reset to spawn: {reason}", robot.0),
            SimEvent::Disabled {
                time,
                robot,
                reason,
            } => write!(
                f,
                "{time:.3} s: robot {}: disabled until reset: {reason}",
                robot.0
            ),
        }
    }
}

/// Whether a robot drives, or why it is stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RobotStatus {
    /// Driving: commands are obeyed.
    Active,
    /// Left the scene's bounds at `time` s: frozen where it left, commands ignored until
    /// [`Simulation::reset_robot`](super::Simulation::reset_robot).
    OutOfBounds {
        /// Simulation time of the event, s.
        time: f64,
    },
    /// Fell at `time` s: stopped (frozen too when `below_scene`), commands ignored until
    /// [`Simulation::reset_robot`](super::Simulation::reset_robot).
    Fell {
        /// Simulation time of the event, s.
        time: f64,
        /// Whether it went below the scene.
        below_scene: bool,
    },
    /// Kept blowing up after a reset to its spawn: frozen at the spawn until
    /// [`Simulation::reset_robot`](super::Simulation::reset_robot).
    Disabled {
        /// Simulation time of the event, s.
        time: f64,
    },
}

impl RobotStatus {
    /// Whether the robot is stopped and ignores commands until reset.
    pub fn is_halted(&self) -> bool {
        !matches!(self, RobotStatus::Active)
    }

    /// A number for the status in state snapshots: 0 active, 1 out of bounds, 2 fell,
    /// 3 fell below the scene, 4 disabled.
    pub fn code(&self) -> u8 {
        match self {
            RobotStatus::Active => 0,
            RobotStatus::OutOfBounds { .. } => 1,
            RobotStatus::Fell {
                below_scene: false, ..
            } => 2,
            RobotStatus::Fell {
                below_scene: true, ..
            } => 3,
            RobotStatus::Disabled { .. } => 4,
        }
    }

    /// Whether the hull is frozen in place (no physics) until reset.
    pub(super) fn is_frozen(&self) -> bool {
        matches!(
            self,
            RobotStatus::OutOfBounds { .. }
                | RobotStatus::Disabled { .. }
                | RobotStatus::Fell {
                    below_scene: true,
                    ..
                }
        )
    }
}
