//! Drive scripts: timed commands for headless runs and tests.
//!
//! ```toml
//! [[command]]
//! at = 0.0        # s, when the command starts; it holds until the next one
//! left = 0.5      # m/s, belt speed of the left track(s)
//! right = 0.5     # m/s
//! flipper = 0.6   # rad, optional: target angle of all flippers (positive raises the tips)
//! ```
//! Commands must be in time order. `flipper_deg` may be given instead of `flipper`. A command
//! may also tell the arm and gripper what to do ([`script_arm`](super::script_arm)).

use std::path::Path;

use super::script_arm::{read_arm_step, ArmScriptGrip, ArmScriptMotion, ArmStep};
use crate::config::{ConfigError, SourceFile};
use crate::vehicle::arm::{ArmSpec, ToolFrame};
use crate::vehicle::DriveCommand;

/// Largest number of commands in a script.
pub const MAX_COMMANDS: usize = 100_000;
/// Largest speed a script may ask for, m/s (the robot's motors limit it further).
pub const MAX_SCRIPT_SPEED: f64 = 20.0;

/// A timed sequence of drive commands.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DriveScript {
    /// `(start time s, command)` in time order.
    pub commands: Vec<(f64, DriveCommand)>,
    /// `(index of the command, its arm part)` for the commands that have one, in order.
    pub arm: Vec<(usize, ArmStep)>,
}

impl DriveScript {
    /// Reads a script file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        Self::from_source(&SourceFile::read(path)?)
    }

    /// Parses a script from text already read.
    pub fn from_source(file: &SourceFile) -> Result<Self, ConfigError> {
        let root = file.parse()?;
        let mut commands: Vec<(f64, DriveCommand)> = Vec::new();
        let mut arm = Vec::new();
        for t in root.tables("command", MAX_COMMANDS)? {
            let at = t.f64("at", 0.0, 1e7)?;
            if let Some((prev, _)) = commands.last() {
                if at < *prev {
                    return Err(t.error(
                        "at",
                        format!("commands must be in time order: {at} s comes after {prev} s"),
                    ));
                }
            }
            let left = t.f64("left", -MAX_SCRIPT_SPEED, MAX_SCRIPT_SPEED)?;
            let right = t.f64("right", -MAX_SCRIPT_SPEED, MAX_SCRIPT_SPEED)?;
            let flipper = match (
                t.opt_f64("flipper", -10.0, 10.0)?,
                t.opt_f64("flipper_deg", -360.0, 360.0)?,
            ) {
                (Some(_), Some(_)) => {
                    return Err(t.error("flipper_deg", "give flipper or flipper_deg, not both"))
                }
                (Some(r), None) => Some(r),
                (None, Some(d)) => Some(d.to_radians()),
                (None, None) => None,
            };
            if let Some(step) = read_arm_step(&t)? {
                arm.push((commands.len(), step));
            }
            t.finish()?;
            commands.push((
                at,
                DriveCommand {
                    left,
                    right,
                    flipper,
                    steer: None,
                },
            ));
        }
        root.finish()?;
        if commands.is_empty() {
            return Err(root.table_error("the script has no [[command]] tables"));
        }
        Ok(Self { commands, arm })
    }

    /// Whether the robot's arm `arm` (`None`: it has none) can do what the script asks of it.
    pub fn check_arm(&self, arm: Option<&ArmSpec>) -> Result<(), ConfigError> {
        self.arm.iter().try_for_each(|(_, step)| step.check(arm))
    }

    /// Index (into [`DriveScript::arm`]) of the arm step in force at time `t` (s), if any has
    /// started.
    pub fn arm_index_at(&self, t: f64) -> Option<usize> {
        let n = self.arm.partition_point(|(i, _)| self.commands[*i].0 <= t);
        n.checked_sub(1)
    }

    /// The script as text in the format [`DriveScript::load`] reads; every number is written
    /// so that it reads back bit for bit.
    pub fn to_toml(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for (k, (at, c)) in self.commands.iter().enumerate() {
            let _ = write!(
                s,
                "[[command]]\nat = {at:?}\nleft = {:?}\nright = {:?}\n",
                c.left, c.right
            );
            if let Some(f) = c.flipper {
                let _ = writeln!(s, "flipper = {f:?}");
            }
            if let Some((_, step)) = self.arm.iter().find(|(i, _)| *i == k) {
                write_arm_step(&mut s, step);
            }
        }
        s
    }

    /// Index of the command in force at time `t` (s), if any has started.
    pub fn index_at(&self, t: f64) -> Option<usize> {
        let n = self.commands.partition_point(|(at, _)| *at <= t);
        n.checked_sub(1)
    }

    /// The command in force at time `t` (s): a stop before the first one.
    pub fn command_at(&self, t: f64) -> DriveCommand {
        self.index_at(t)
            .map_or(DriveCommand::STOP, |i| self.commands[i].1)
    }
}

/// Writes an arm step's fields in the form [`read_arm_step`] reads, bit for bit.
fn write_arm_step(s: &mut String, step: &ArmStep) {
    use std::fmt::Write;
    let list = |v: &[f64]| {
        let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
        format!("[{}]", items.join(", "))
    };
    let _ = match &step.motion {
        ArmScriptMotion::Hold => writeln!(s, "arm = \"hold\""),
        ArmScriptMotion::Pose { name, .. } => writeln!(s, "arm_pose = {name:?}"),
        ArmScriptMotion::Joints(v) => writeln!(s, "arm_joints = {}", list(v)),
        ArmScriptMotion::Rates(v) => writeln!(s, "arm_rates = {}", list(v)),
        ArmScriptMotion::Tool { velocity, frame } => {
            let frame = match frame {
                ToolFrame::Body => "body",
                ToolFrame::Gripper => "gripper",
            };
            writeln!(
                s,
                "tool_velocity = {}\ntool_frame = \"{frame}\"",
                list(velocity)
            )
        }
    };
    let _ = match step.grip {
        ArmScriptGrip::Keep => Ok(()),
        ArmScriptGrip::Open => writeln!(s, "grip = \"open\""),
        ArmScriptGrip::Close(None) => writeln!(s, "grip = \"close\""),
        ArmScriptGrip::Close(Some(f)) => writeln!(s, "grip = \"close\"\ngrip_force = {f:?}"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<DriveScript, ConfigError> {
        DriveScript::from_source(&SourceFile::from_text(Path::new("s.toml"), text.into()))
    }

    #[test]
    fn commands_hold_until_the_next() {
        let s = parse("[[command]]\nat = 1\nleft = 0.5\nright = 0.4\n[[command]]\nat = 2.5\nleft = 0\nright = 0\nflipper_deg = 30\n").unwrap();
        assert_eq!(s.command_at(0.5), DriveCommand::STOP);
        assert_eq!(s.command_at(1.0).left, 0.5);
        assert_eq!(s.command_at(2.4).right, 0.4);
        assert!((s.command_at(3.0).flipper.unwrap() - 30f64.to_radians()).abs() < 1e-15);
    }

    #[test]
    fn to_toml_reads_back_bit_for_bit() {
        let s = DriveScript {
            commands: vec![
                (0.0, DriveCommand::STOP),
                (
                    0.1 + 0.2,
                    DriveCommand {
                        left: -1.0 / 3.0,
                        right: 1e-7,
                        flipper: Some(std::f64::consts::FRAC_PI_3),
                        steer: None,
                    },
                ),
                (0.5, DriveCommand::STOP),
                (0.75, DriveCommand::STOP),
            ],
            arm: vec![
                (
                    1,
                    ArmStep {
                        motion: ArmScriptMotion::Joints(vec![0.1, -1.0 / 3.0, 1e-9]),
                        grip: ArmScriptGrip::Close(Some(12.5)),
                    },
                ),
                (
                    2,
                    ArmStep {
                        motion: ArmScriptMotion::Tool {
                            velocity: [0.05, -0.01, 1.0 / 7.0],
                            frame: ToolFrame::Gripper,
                        },
                        grip: ArmScriptGrip::Open,
                    },
                ),
                (
                    3,
                    ArmStep {
                        motion: ArmScriptMotion::Rates(vec![0.0, 0.2]),
                        grip: ArmScriptGrip::Keep,
                    },
                ),
            ],
        };
        assert_eq!(parse(&s.to_toml()).unwrap(), s);
    }

    #[test]
    fn arm_steps_hold_until_the_next_and_name_bad_fields() {
        let s = parse(
            "[[command]]\nat = 0\nleft = 0\nright = 0\n\
             [[command]]\nat = 1\nleft = 0\nright = 0\narm_pose = \"reach_forward\"\ngrip = \"close\"\n\
             [[command]]\nat = 2\nleft = 0.2\nright = 0.2\n",
        )
        .unwrap();
        assert_eq!(s.arm_index_at(0.5), None);
        assert_eq!(s.arm_index_at(1.0), Some(0));
        assert_eq!(
            s.arm_index_at(5.0),
            Some(0),
            "a command without arm fields keeps the arm's"
        );
        let robot =
            crate::vehicle::robot_file::load_robot(Path::new("scenes/robots/scout_eod.toml"))
                .expect("robot");
        assert!(s.check_arm(robot.arm.as_ref()).is_ok());
        let bad = parse("[[command]]\nat = 0\nleft = 0\nright = 0\narm_pose = \"wave\"\n").unwrap();
        let e = bad.check_arm(robot.arm.as_ref()).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (5, "command[0].arm_pose"));
        assert!(e.message.contains("no pose 'wave'"), "{e}");
        let e = bad.check_arm(None).unwrap_err();
        assert!(e.message.contains("no arm"), "{e}");
        for (text, line, field) in [
            (
                "arm_pose = \"stow\"\narm_joints_deg = [0, 1]\n",
                6,
                "command[0].arm_joints_deg",
            ),
            ("grip = \"squeeze\"\n", 5, "command[0].grip"),
            (
                "grip = \"open\"\ngrip_force = 10\n",
                6,
                "command[0].grip_force",
            ),
            ("tool_frame = \"gripper\"\n", 5, "command[0].tool_frame"),
            (
                "tool_velocity = [0, 0, 9]\n",
                5,
                "command[0].tool_velocity[2]",
            ),
            ("arm = \"wave\"\n", 5, "command[0].arm"),
            ("arm_rates = []\n", 5, "command[0].arm_rates"),
        ] {
            let e =
                parse(&format!("[[command]]\nat = 0\nleft = 0\nright = 0\n{text}")).unwrap_err();
            assert_eq!((e.line, e.field.as_str()), (line, field), "{text}: {e}");
        }
    }

    #[test]
    fn bad_scripts_are_located() {
        let e = parse(
            "[[command]]\nat = 2\nleft = 0\nright = 0\n[[command]]\nat = 1\nleft = 0\nright = 0\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (6, "command[1].at"));
        let e = parse("[[command]]\nat = 0\nleft = nan\nright = 0\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "command[0].left"));
        let e = parse("[[command]]\nat = 0\nleft = 0\nright = 0\nspeed = 1\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (5, "command[0].speed"));
        let e = parse("").unwrap_err();
        assert!(e.message.contains("no [[command]]"));
    }
}
