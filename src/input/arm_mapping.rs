//! The arm on the sticks and keys, as real control units work it: a mode switch hands the
//! sticks from the tracks to the arm ([`ControlMode`]); in arm mode they move the joints one by
//! one or fly the tool point (resolved rate) in the body frame or the gripper camera's frame;
//! one-shot bindings send the arm to its stored poses (collision-aware moves); the grip
//! bindings open and close the fingers. Pure and deterministic, like the rest of the mapping.
//!
//! Sticks in arm mode (keyboard: the driving keys are the left stick, the flipper keys the
//! right stick's y; the flipper bindings are the wrist's pitch on the pad):
//!
//! | input | joints | tool point |
//! |---|---|---|
//! | left stick x | turret (right: clockwise) | left / right |
//! | left stick y | shoulder (up: raise) | forward / back |
//! | right stick y | elbow (up: raise) | up / down |
//! | right stick x | wrist roll | — |
//! | flipper up / down | wrist pitch (up: raise) | — |

use super::settings::ArmInputConfig;
use crate::vehicle::arm::kinematics::JointVector;
use crate::vehicle::arm::{ArmCommand, ArmMotion, ArmSpec, GripCommand, ToolFrame, MAX_ARM_JOINTS};

/// What the sticks control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ControlMode {
    /// The tracks (and flippers).
    #[default]
    Drive,
    /// The arm, joint by joint.
    Joints,
    /// The arm's tool point, flown in a frame.
    Tool(ToolFrame),
}

impl ControlMode {
    /// The mode in words, for the HUD.
    pub fn label(self) -> &'static str {
        match self {
            ControlMode::Drive => "DRIVE",
            ControlMode::Joints => "ARM: JOINTS",
            ControlMode::Tool(ToolFrame::Body) => "ARM: TOOL (robot)",
            ControlMode::Tool(ToolFrame::Gripper) => "ARM: TOOL (camera)",
        }
    }
}

/// The motion the operator asks of the arm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArmRequestMotion {
    /// Every joint holds.
    Hold,
    /// Joint speeds, rad/s or m/s (each joint's limit caps them).
    Rates(JointVector),
    /// Tool-point velocity, m/s, in a frame.
    Tool {
        /// Velocity, m/s.
        velocity: [f64; 3],
        /// Its frame.
        frame: ToolFrame,
    },
    /// A stored pose of the robot's arm, by name.
    Pose(&'static str),
}

/// What the operator asks of the arm and gripper on one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArmRequest {
    /// The joints.
    pub motion: ArmRequestMotion,
    /// The gripper.
    pub grip: GripCommand,
}

impl ArmRequest {
    /// Nothing asked: hold, grip as it is.
    pub const HOLD: ArmRequest = ArmRequest {
        motion: ArmRequestMotion::Hold,
        grip: GripCommand::Keep,
    };

    /// The command for the robot's arm `arm` (a pose it does not have: hold).
    pub fn command(&self, arm: &ArmSpec) -> ArmCommand {
        let motion = match self.motion {
            ArmRequestMotion::Hold => ArmMotion::Hold,
            ArmRequestMotion::Rates(r) => ArmMotion::JointRates(r),
            ArmRequestMotion::Tool { velocity, frame } => {
                ArmMotion::ToolVelocity { velocity, frame }
            }
            ArmRequestMotion::Pose(name) => arm.pose(name).map_or(ArmMotion::Hold, |p| {
                let mut q = [0.0; MAX_ARM_JOINTS];
                for (o, x) in q.iter_mut().zip(&p.joints) {
                    *o = *x;
                }
                ArmMotion::JointTargets(q)
            }),
        };
        ArmCommand {
            motion,
            grip: self.grip,
        }
    }
}

/// The operator's arm demands on one update, each in [-1, 1] (after dead zone and curve).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmSticks {
    /// Left stick x (right +).
    pub left_x: f64,
    /// Left stick y (up +).
    pub left_y: f64,
    /// Right stick x (right +).
    pub right_x: f64,
    /// Right stick y (up +).
    pub right_y: f64,
    /// The flipper bindings: up +1, down −1.
    pub pitch: f64,
}

impl ArmSticks {
    /// Whether any demand is off centre.
    pub fn moved(&self) -> bool {
        [
            self.left_x,
            self.left_y,
            self.right_x,
            self.right_y,
            self.pitch,
        ]
        .iter()
        .any(|v| *v != 0.0)
    }
}

/// The one-shot and held arm bindings on one update.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmButtons {
    /// The mode switch went down.
    pub mode: bool,
    /// The frame switch went down.
    pub frame: bool,
    /// The stow binding went down.
    pub stow: bool,
    /// The deploy binding went down.
    pub deploy: bool,
    /// The close binding is held.
    pub close: bool,
    /// The open binding is held.
    pub open: bool,
}

/// The arm side of the mapper: the mode, the last arm sub-mode and a stored pose under way.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmMapper {
    mode: ControlMode,
    /// The arm sub-mode the mode switch returns to.
    arm_mode: Option<ControlMode>,
    /// A stored-pose move asked for, kept until the sticks take the arm over.
    pose: Option<&'static str>,
}

impl ArmMapper {
    /// The current mode.
    pub fn mode(&self) -> ControlMode {
        self.mode
    }

    /// Back to driving, nothing under way (a reset).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// One update: `buttons` and `sticks` as the operator works them; `enabled` is false while
    /// the pad's dead-man is released or the pad is lost or waiting to re-arm (the arm then
    /// holds, as the tracks stop).
    pub fn update(
        &mut self,
        cfg: &ArmInputConfig,
        buttons: &ArmButtons,
        sticks: &ArmSticks,
        enabled: bool,
    ) -> ArmRequest {
        self.switch_modes(buttons);
        if buttons.stow {
            self.pose = Some("stow");
        }
        if buttons.deploy {
            self.pose = Some("reach_forward");
        }
        let grip = if buttons.close {
            GripCommand::Close(cfg.grip_force)
        } else if buttons.open {
            GripCommand::Open
        } else {
            GripCommand::Keep
        };
        if !enabled {
            self.pose = None;
            return ArmRequest {
                motion: ArmRequestMotion::Hold,
                grip: GripCommand::Keep,
            };
        }
        let arm_sticks = self.mode != ControlMode::Drive && sticks.moved();
        if arm_sticks {
            // The sticks take the arm over from a stored-pose move.
            self.pose = None;
        }
        let motion = match (self.pose, self.mode) {
            (Some(name), _) => ArmRequestMotion::Pose(name),
            (None, ControlMode::Drive) => ArmRequestMotion::Hold,
            (None, ControlMode::Joints) => {
                let r = cfg.joint_rate;
                let mut rates = [0.0; MAX_ARM_JOINTS];
                rates[0] = -sticks.left_x * r;
                rates[1] = -sticks.left_y * r;
                rates[2] = -sticks.right_y * r;
                rates[3] = -sticks.pitch * r;
                rates[4] = sticks.right_x * r;
                ArmRequestMotion::Rates(rates)
            }
            (None, ControlMode::Tool(frame)) => {
                let v = cfg.tool_speed;
                ArmRequestMotion::Tool {
                    velocity: [sticks.left_y * v, -sticks.left_x * v, sticks.right_y * v],
                    frame,
                }
            }
        };
        ArmRequest { motion, grip }
    }

    /// The mode switch (drive ↔ the last arm sub-mode) and the frame switch (joints → tool in
    /// the robot's frame → tool in the camera's frame → joints).
    fn switch_modes(&mut self, buttons: &ArmButtons) {
        if buttons.mode {
            self.mode = match self.mode {
                ControlMode::Drive => self.arm_mode.unwrap_or(ControlMode::Joints),
                arm => {
                    self.arm_mode = Some(arm);
                    ControlMode::Drive
                }
            };
        }
        if buttons.frame && self.mode != ControlMode::Drive {
            self.mode = match self.mode {
                ControlMode::Joints => ControlMode::Tool(ToolFrame::Body),
                ControlMode::Tool(ToolFrame::Body) => ControlMode::Tool(ToolFrame::Gripper),
                _ => ControlMode::Joints,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(mode: bool, frame: bool) -> ArmButtons {
        ArmButtons {
            mode,
            frame,
            ..ArmButtons::default()
        }
    }

    #[test]
    fn the_mode_switch_hands_the_sticks_over_and_remembers_the_arm_mode() {
        let cfg = ArmInputConfig::default();
        let mut m = ArmMapper::default();
        let sticks = ArmSticks {
            left_y: 1.0,
            ..ArmSticks::default()
        };
        // Driving: the sticks leave the arm alone.
        assert_eq!(
            m.update(&cfg, &ArmButtons::default(), &sticks, true),
            ArmRequest::HOLD
        );
        m.update(&cfg, &press(true, false), &ArmSticks::default(), true);
        assert_eq!(m.mode(), ControlMode::Joints);
        let r = m.update(&cfg, &ArmButtons::default(), &sticks, true);
        let ArmRequestMotion::Rates(rates) = r.motion else {
            panic!("{r:?}");
        };
        assert!(
            (rates[1] + cfg.joint_rate).abs() < 1e-12,
            "stick up raises the shoulder"
        );
        m.update(&cfg, &press(false, true), &ArmSticks::default(), true);
        assert_eq!(m.mode(), ControlMode::Tool(ToolFrame::Body));
        let r = m.update(&cfg, &ArmButtons::default(), &sticks, true);
        assert_eq!(
            r.motion,
            ArmRequestMotion::Tool {
                velocity: [cfg.tool_speed, 0.0, 0.0],
                frame: ToolFrame::Body
            }
        );
        m.update(&cfg, &press(true, false), &ArmSticks::default(), true);
        assert_eq!(m.mode(), ControlMode::Drive);
        m.update(&cfg, &press(true, false), &ArmSticks::default(), true);
        assert_eq!(
            m.mode(),
            ControlMode::Tool(ToolFrame::Body),
            "back to the last arm mode"
        );
    }

    #[test]
    fn a_stored_pose_runs_until_the_sticks_or_the_dead_man_stop_it() {
        let cfg = ArmInputConfig::default();
        let mut m = ArmMapper::default();
        let stow = ArmButtons {
            stow: true,
            ..ArmButtons::default()
        };
        let idle = ArmButtons::default();
        let centred = ArmSticks::default();
        assert_eq!(
            m.update(&cfg, &stow, &centred, true).motion,
            ArmRequestMotion::Pose("stow")
        );
        assert_eq!(
            m.update(&cfg, &idle, &centred, true).motion,
            ArmRequestMotion::Pose("stow")
        );
        // Released dead-man: the arm holds and the move is dropped.
        assert_eq!(m.update(&cfg, &idle, &centred, false), ArmRequest::HOLD);
        assert_eq!(
            m.update(&cfg, &idle, &centred, true).motion,
            ArmRequestMotion::Hold
        );
        // In arm mode the sticks take over from a pose move.
        m.update(&cfg, &press(true, false), &centred, true);
        m.update(&cfg, &stow, &centred, true);
        let stick = ArmSticks {
            right_y: -0.5,
            ..ArmSticks::default()
        };
        assert!(matches!(
            m.update(&cfg, &idle, &stick, true).motion,
            ArmRequestMotion::Rates(_)
        ));
        let close = ArmButtons {
            close: true,
            ..ArmButtons::default()
        };
        assert_eq!(
            m.update(&cfg, &close, &centred, true).grip,
            GripCommand::Close(cfg.grip_force)
        );
    }
}
