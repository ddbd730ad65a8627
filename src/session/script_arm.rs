//! The arm part of a drive script's `[[command]]`: what the arm and gripper do from the
//! command's time on, held until a later command says otherwise.
//!
//! ```toml
//! [[command]]
//! at = 2.0
//! left = 0.0
//! right = 0.0
//! arm_pose = "reach_forward"          # a stored pose of the robot file, or
//! # arm_joints_deg = [0, -30, 60, 0, 0]   joint targets (deg or m), or
//! # arm_rates_deg = [0, -10, 0, 0, 0]     joint speeds (deg/s or m/s), or
//! # tool_velocity = [0.05, 0, 0]          tool-point velocity, m/s, in
//! # tool_frame = "body"                   the body frame (default) or "gripper"
//! grip = "close"                      # "open", "close" or "keep" (default)
//! grip_force = 40                     # N per finger when closing (default: the gripper's most)
//! ```
//! A command with only `grip` holds the arm where it is. `arm = "hold"` stops every joint.

use crate::config::{ConfigError, TableReader};
use crate::vehicle::arm::{ArmCommand, ArmMotion, ArmSpec, GripCommand, ToolFrame, MAX_ARM_JOINTS};

/// Largest tool-point speed a script may ask for, m/s (the joints' speeds limit it further).
pub const MAX_TOOL_SPEED: f64 = 5.0;

/// What a script asks of the arm's joints.
#[derive(Debug, Clone, PartialEq)]
pub enum ArmScriptMotion {
    /// Every joint holds.
    Hold,
    /// Move to a stored pose of the robot file; `at` locates the name for errors.
    Pose {
        /// The pose's name.
        name: String,
        /// The field, for an error naming it (its message is filled in then).
        at: Box<ConfigError>,
    },
    /// Joint targets, rad or m, in joint order.
    Joints(Vec<f64>),
    /// Joint speeds, rad/s or m/s.
    Rates(Vec<f64>),
    /// Tool-point velocity, m/s, in a frame.
    Tool {
        /// The velocity, m/s.
        velocity: [f64; 3],
        /// Its frame.
        frame: ToolFrame,
    },
}

/// What a script asks of the gripper.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArmScriptGrip {
    /// As it is.
    Keep,
    /// Open.
    Open,
    /// Close with this force per finger, N (`None`: the gripper's most).
    Close(Option<f64>),
}

/// The arm part of one script command.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmStep {
    /// The joints.
    pub motion: ArmScriptMotion,
    /// The gripper.
    pub grip: ArmScriptGrip,
}

/// Whether a command table has arm fields (every one of them marked as known).
fn has_arm_fields(t: &TableReader<'_>) -> bool {
    [
        "arm",
        "arm_pose",
        "arm_joints",
        "arm_joints_deg",
        "arm_rates",
        "arm_rates_deg",
        "tool_velocity",
        "tool_frame",
        "grip",
        "grip_force",
    ]
    .iter()
    // Every key looked at (`has` marks it known), not only up to the first found.
    .filter(|key| t.has(key))
    .count()
        > 0
}

/// Reads a command's arm fields (`None`: it has none).
pub fn read_arm_step(t: &TableReader<'_>) -> Result<Option<ArmStep>, ConfigError> {
    if !has_arm_fields(t) {
        return Ok(None);
    }
    let deg = |v: Vec<f64>| v.into_iter().map(f64::to_radians).collect::<Vec<_>>();
    let mut motions = Vec::new();
    if let Some(word) = t.opt_str("arm")? {
        if word != "hold" {
            return Err(t.error("arm", format!("expected \"hold\", found \"{word}\"")));
        }
        motions.push(("arm", ArmScriptMotion::Hold));
    }
    if let Some(name) = t.opt_str("arm_pose")? {
        let at = Box::new(t.error("arm_pose", ""));
        motions.push(("arm_pose", ArmScriptMotion::Pose { name, at }));
    }
    let limit = 1e4;
    for (key, in_deg, rates) in [
        ("arm_joints", false, false),
        ("arm_joints_deg", true, false),
        ("arm_rates", false, true),
        ("arm_rates_deg", true, true),
    ] {
        if t.has(key) {
            let v = t.numbers(key, MAX_ARM_JOINTS, -limit, limit)?;
            let v = if in_deg { deg(v) } else { v };
            let m = if rates {
                ArmScriptMotion::Rates(v)
            } else {
                ArmScriptMotion::Joints(v)
            };
            motions.push((key, m));
        }
    }
    if let Some(velocity) = t.opt_array::<3>("tool_velocity", -MAX_TOOL_SPEED, MAX_TOOL_SPEED)? {
        let frame = match t.opt_str("tool_frame")?.as_deref() {
            None | Some("body") => ToolFrame::Body,
            Some("gripper") => ToolFrame::Gripper,
            Some(other) => {
                return Err(t.error(
                    "tool_frame",
                    format!("expected \"body\" or \"gripper\", found \"{other}\""),
                ))
            }
        };
        motions.push(("tool_velocity", ArmScriptMotion::Tool { velocity, frame }));
    } else if t.has("tool_frame") {
        return Err(t.error("tool_frame", "tool_frame needs tool_velocity"));
    }
    if motions.len() > 1 {
        return Err(t.error(
            motions[1].0,
            format!(
                "give one arm motion, not both {} and {}",
                motions[0].0, motions[1].0
            ),
        ));
    }
    let motion = motions.pop().map_or(ArmScriptMotion::Hold, |(_, m)| m);
    let force = t.opt_positive("grip_force", 1e5)?;
    let grip = match t.opt_str("grip")?.as_deref() {
        None | Some("keep") if force.is_none() => ArmScriptGrip::Keep,
        Some("open") if force.is_none() => ArmScriptGrip::Open,
        Some("close") | None => ArmScriptGrip::Close(force),
        Some("keep" | "open") => {
            return Err(t.error("grip_force", "grip_force is for grip = \"close\""))
        }
        Some(other) => {
            return Err(t.error(
                "grip",
                format!("expected \"open\", \"close\" or \"keep\", found \"{other}\""),
            ))
        }
    };
    Ok(Some(ArmStep { motion, grip }))
}

impl ArmStep {
    /// Whether `arm` can do this: a stored pose it has, no more joints than it has. The error
    /// names the script's file, line and field.
    pub fn check(&self, arm: Option<&ArmSpec>) -> Result<(), ConfigError> {
        let ArmScriptMotion::Pose { name, at } = &self.motion else {
            return Ok(());
        };
        match arm {
            Some(arm) if arm.pose(name).is_some() => Ok(()),
            Some(arm) => {
                let names: Vec<&str> = arm.poses.iter().map(|p| p.name.as_str()).collect();
                let mut e = (**at).clone();
                e.message = format!(
                    "the robot's arm has no pose '{name}' (it has {})",
                    names.join(", ")
                );
                Err(e)
            }
            None => {
                let mut e = (**at).clone();
                e.message = "the robot has no arm".into();
                Err(e)
            }
        }
    }

    /// The command for `arm` (joint vectors padded with the arm's current targets' zeros, a
    /// missing pose as a hold — [`ArmStep::check`] says so before a run).
    pub fn command(&self, arm: &ArmSpec) -> ArmCommand {
        let vector = |v: &[f64]| {
            let mut out = [0.0; MAX_ARM_JOINTS];
            for (o, x) in out.iter_mut().zip(v) {
                *o = *x;
            }
            out
        };
        let motion = match &self.motion {
            ArmScriptMotion::Hold => ArmMotion::Hold,
            ArmScriptMotion::Pose { name, .. } => arm.pose(name).map_or(ArmMotion::Hold, |p| {
                ArmMotion::JointTargets(vector(&p.joints))
            }),
            ArmScriptMotion::Joints(v) => ArmMotion::JointTargets(vector(v)),
            ArmScriptMotion::Rates(v) => ArmMotion::JointRates(vector(v)),
            ArmScriptMotion::Tool { velocity, frame } => ArmMotion::ToolVelocity {
                velocity: *velocity,
                frame: *frame,
            },
        };
        let grip = match self.grip {
            ArmScriptGrip::Keep => GripCommand::Keep,
            ArmScriptGrip::Open => GripCommand::Open,
            ArmScriptGrip::Close(force) => {
                GripCommand::Close(force.unwrap_or(arm.gripper.max_force))
            }
        };
        ArmCommand { motion, grip }
    }
}
