//! What the operator (or the instructor, or a script) does to a session, and its JSON form in
//! logs. Numbers are written in their shortest round-trip form, so a replayed input is the
//! recorded one bit for bit.

use serde_json::{json, Value};

use crate::link::{CameraFaultKind, LinkChange};
use crate::sim::{f64_of_json, json_f64};
use crate::vehicle::arm::{ArmCommand, ArmMotion, GripCommand, ToolFrame, MAX_ARM_JOINTS};
use crate::vehicle::DriveCommand;

/// One input to a [`Session`](super::Session).
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// The operator's drive command (belt speeds m/s, flipper target rad), held until the
    /// next; it reaches the robot through the link.
    Drive(DriveCommand),
    /// The operator's arm and gripper command, held until the next; it reaches the robot
    /// through the link with the drive command (a robot without an arm ignores it).
    Arm(ArmCommand),
    /// A reset asked for: in a trial under way a fault (the robot, and the scene's movable
    /// objects, back at the start); otherwise the robot back at its spawn and the objects
    /// where they began.
    Reset,
    /// Pause (`true`) or go on (`false`): no steps are taken while paused.
    Pause(bool),
    /// The real-time factor the front end runs at (no effect on the physics).
    Speed(f64),
    /// The view shown to the operator: an onboard camera's name, `chase` or `free` (in a
    /// trainee-mode trial any view but an onboard camera fails the trial).
    View(String),
    /// The instructor ends the trial now (it fails, ended by the instructor); nothing without
    /// a trial under way.
    EndTrial,
    /// The instructor changes the link (a dropout, a camera fault, a latency, a frame-rate
    /// cap) from now on.
    Link(LinkChange),
}

/// An input applied before step `step` (at simulation time `time`, s).
#[derive(Debug, Clone, PartialEq)]
pub struct StepInput {
    /// Steps taken when it was applied.
    pub step: u64,
    /// Simulation time when it was applied, s.
    pub time: f64,
    /// The input.
    pub input: Input,
}

/// A logged input that cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("input: {0}")]
pub struct InputError(pub String);

impl StepInput {
    /// The JSON form: `{"step", "time", "kind", …}` with the kind's fields.
    pub fn to_json(&self) -> Value {
        let mut v = match &self.input {
            Input::Drive(c) => json!({
                "kind": "drive",
                "left": json_f64(c.left),
                "right": json_f64(c.right),
                "flipper": c.flipper.map(json_f64),
            }),
            Input::Arm(c) => arm_json(c),
            Input::Reset => json!({"kind": "reset"}),
            Input::EndTrial => json!({"kind": "end_trial"}),
            Input::Pause(p) => json!({"kind": "pause", "paused": p}),
            Input::Speed(s) => json!({"kind": "speed", "speed": json_f64(*s)}),
            Input::View(view) => json!({"kind": "view", "view": view}),
            Input::Link(change) => link_json(change),
        };
        v["step"] = json!(self.step);
        v["time"] = json_f64(self.time);
        v
    }

    /// Reads [`StepInput::to_json`]'s form.
    pub fn from_json(v: &Value) -> Result<Self, InputError> {
        let num = |key: &str| {
            v.get(key)
                .and_then(f64_of_json)
                .ok_or_else(|| InputError(format!("'{key}' is missing or not a number")))
        };
        let step = v
            .get("step")
            .and_then(Value::as_u64)
            .ok_or_else(|| InputError("'step' is missing or not a whole number".into()))?;
        let time = num("time")?;
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| InputError("'kind' is missing".into()))?;
        let input = match kind {
            "drive" => Input::Drive(DriveCommand {
                left: num("left")?,
                right: num("right")?,
                flipper: match v.get("flipper") {
                    None | Some(Value::Null) => None,
                    Some(f) => Some(
                        f64_of_json(f)
                            .ok_or_else(|| InputError("'flipper' is not a number".into()))?,
                    ),
                },
                steer: None,
            }),
            "arm" => Input::Arm(arm_of_json(v)?),
            "reset" => Input::Reset,
            "end_trial" => Input::EndTrial,
            "pause" => Input::Pause(
                v.get("paused")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| InputError("'paused' is not true or false".into()))?,
            ),
            "speed" => Input::Speed(num("speed")?),
            "view" => Input::View(
                v.get("view")
                    .and_then(Value::as_str)
                    .ok_or_else(|| InputError("'view' is not text".into()))?
                    .to_owned(),
            ),
            "link" => Input::Link(link_of_json(v)?),
            other => return Err(InputError(format!("unknown kind '{other}'"))),
        };
        Ok(Self { step, time, input })
    }
}

/// An arm command as JSON: `{"kind": "arm", "motion": "hold" | "rates" | "targets" | "tool",
/// "values": [..] (rates, targets: every joint slot), "velocity": [x, y, z], "frame": "body" |
/// "gripper" (tool), "grip": "keep" | "open" | "close", "force": N (close)}`.
fn arm_json(c: &ArmCommand) -> Value {
    let list = |v: &[f64]| Value::Array(v.iter().map(|x| json_f64(*x)).collect());
    let mut v = match &c.motion {
        ArmMotion::Hold => json!({"kind": "arm", "motion": "hold"}),
        ArmMotion::JointRates(r) => json!({"kind": "arm", "motion": "rates", "values": list(r)}),
        ArmMotion::JointTargets(q) => {
            json!({"kind": "arm", "motion": "targets", "values": list(q)})
        }
        ArmMotion::ToolVelocity { velocity, frame } => json!({
            "kind": "arm",
            "motion": "tool",
            "velocity": list(velocity),
            "frame": match frame {
                ToolFrame::Body => "body",
                ToolFrame::Gripper => "gripper",
            },
        }),
    };
    match c.grip {
        GripCommand::Keep => v["grip"] = json!("keep"),
        GripCommand::Open => v["grip"] = json!("open"),
        GripCommand::Close(force) => {
            v["grip"] = json!("close");
            v["force"] = json_f64(force);
        }
    }
    v
}

/// Reads [`arm_json`]'s form.
fn arm_of_json(v: &Value) -> Result<ArmCommand, InputError> {
    let numbers = |key: &str, len: usize| -> Result<Vec<f64>, InputError> {
        let items = v
            .get(key)
            .and_then(Value::as_array)
            .filter(|a| a.len() == len)
            .ok_or_else(|| InputError(format!("'{key}' is not an array of {len} numbers")))?;
        items
            .iter()
            .map(|x| {
                f64_of_json(x).ok_or_else(|| InputError(format!("'{key}' holds a non-number")))
            })
            .collect()
    };
    let joints = |key: &str| -> Result<[f64; MAX_ARM_JOINTS], InputError> {
        let v = numbers(key, MAX_ARM_JOINTS)?;
        let mut out = [0.0; MAX_ARM_JOINTS];
        out.copy_from_slice(&v);
        Ok(out)
    };
    let text = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| InputError(format!("'{key}' is missing or not text")))
    };
    let motion = match text("motion")? {
        "hold" => ArmMotion::Hold,
        "rates" => ArmMotion::JointRates(joints("values")?),
        "targets" => ArmMotion::JointTargets(joints("values")?),
        "tool" => {
            let w = numbers("velocity", 3)?;
            ArmMotion::ToolVelocity {
                velocity: [w[0], w[1], w[2]],
                frame: match text("frame")? {
                    "body" => ToolFrame::Body,
                    "gripper" => ToolFrame::Gripper,
                    other => return Err(InputError(format!("unknown tool frame '{other}'"))),
                },
            }
        }
        other => return Err(InputError(format!("unknown arm motion '{other}'"))),
    };
    let grip = match text("grip")? {
        "keep" => GripCommand::Keep,
        "open" => GripCommand::Open,
        "close" => GripCommand::Close(
            v.get("force")
                .and_then(f64_of_json)
                .ok_or_else(|| InputError("'force' is missing or not a number".into()))?,
        ),
        other => return Err(InputError(format!("unknown grip '{other}'"))),
    };
    Ok(ArmCommand { motion, grip })
}

/// A link change as JSON: `{"kind": "link", "change": …}` with the change's fields.
fn link_json(change: &LinkChange) -> Value {
    match change {
        LinkChange::Dropout { duration } => {
            json!({"kind": "link", "change": "dropout", "duration": json_f64(*duration)})
        }
        LinkChange::CameraFault { camera, kind } => {
            let (fault, level) = match kind {
                CameraFaultKind::Dead => ("dead", None),
                CameraFaultKind::Noise(l) => ("noise", Some(json_f64(*l))),
                CameraFaultKind::Dirty(l) => ("dirty", Some(json_f64(*l))),
                CameraFaultKind::Clear => ("clear", None),
            };
            json!({"kind": "link", "change": "camera", "camera": camera, "fault": fault, "level": level})
        }
        LinkChange::CommandLatency(s) => {
            json!({"kind": "link", "change": "command_latency", "seconds": json_f64(*s)})
        }
        LinkChange::VideoLatency(s) => {
            json!({"kind": "link", "change": "video_latency", "seconds": json_f64(*s)})
        }
        LinkChange::VideoFps(fps) => {
            json!({"kind": "link", "change": "video_fps", "fps": fps.map(json_f64)})
        }
        LinkChange::AmbientLight(level) => {
            json!({"kind": "link", "change": "light", "level": level.map(json_f64)})
        }
    }
}

/// Reads [`link_json`]'s form.
fn link_of_json(v: &Value) -> Result<LinkChange, InputError> {
    let num = |key: &str| {
        v.get(key)
            .and_then(f64_of_json)
            .ok_or_else(|| InputError(format!("'{key}' is missing or not a number")))
    };
    let text = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| InputError(format!("'{key}' is missing or not text")))
    };
    Ok(match text("change")? {
        "dropout" => LinkChange::Dropout {
            duration: num("duration")?,
        },
        "camera" => LinkChange::CameraFault {
            camera: text("camera")?.to_owned(),
            kind: match text("fault")? {
                "dead" => CameraFaultKind::Dead,
                "noise" => CameraFaultKind::Noise(num("level")?),
                "dirty" => CameraFaultKind::Dirty(num("level")?),
                "clear" => CameraFaultKind::Clear,
                other => return Err(InputError(format!("unknown camera fault '{other}'"))),
            },
        },
        "command_latency" => LinkChange::CommandLatency(num("seconds")?),
        "video_latency" => LinkChange::VideoLatency(num("seconds")?),
        "video_fps" => LinkChange::VideoFps(match v.get("fps") {
            None | Some(Value::Null) => None,
            Some(_) => Some(num("fps")?),
        }),
        "light" => LinkChange::AmbientLight(match v.get("level") {
            None | Some(Value::Null) => None,
            Some(_) => Some(
                Some(num("level")?)
                    .filter(|l| (0.0..=1.0).contains(l))
                    .ok_or_else(|| {
                        InputError("'level' must be a fraction of daylight, 0 to 1".into())
                    })?,
            ),
        }),
        other => return Err(InputError(format!("unknown link change '{other}'"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_bit_for_bit() {
        for input in [
            Input::Drive(DriveCommand {
                left: 0.1 + 0.2,
                right: -1.0 / 3.0,
                flipper: Some(1e-300),
                steer: None,
            }),
            Input::Drive(DriveCommand::STOP),
            Input::Arm(ArmCommand::HOLD),
            Input::Arm(ArmCommand {
                motion: ArmMotion::JointTargets([0.1, -1.0 / 3.0, 0.0, 1e-300, 0.0, 0.0, 0.0, 2.5]),
                grip: GripCommand::Close(0.1 + 0.2),
            }),
            Input::Arm(ArmCommand {
                motion: ArmMotion::JointRates([-0.5; MAX_ARM_JOINTS]),
                grip: GripCommand::Open,
            }),
            Input::Arm(ArmCommand {
                motion: ArmMotion::ToolVelocity {
                    velocity: [0.05, -1.0 / 7.0, 0.0],
                    frame: ToolFrame::Gripper,
                },
                grip: GripCommand::Keep,
            }),
            Input::Reset,
            Input::EndTrial,
            Input::Pause(true),
            Input::Speed(0.25),
            Input::View("front".into()),
            Input::Link(LinkChange::Dropout { duration: 2.5 }),
            Input::Link(LinkChange::CameraFault {
                camera: "rear".into(),
                kind: CameraFaultKind::Noise(0.35),
            }),
            Input::Link(LinkChange::CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Clear,
            }),
            Input::Link(LinkChange::CommandLatency(0.25)),
            Input::Link(LinkChange::AmbientLight(Some(0.05))),
            Input::Link(LinkChange::AmbientLight(None)),
            Input::Link(LinkChange::VideoLatency(0.1)),
            Input::Link(LinkChange::VideoFps(Some(5.0))),
            Input::Link(LinkChange::VideoFps(None)),
        ] {
            let s = StepInput {
                step: 12_345,
                time: 24.69,
                input,
            };
            let text = s.to_json().to_string();
            let back = StepInput::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
            assert_eq!(back, s, "{text}");
        }
    }

    #[test]
    fn malformed_inputs_say_what_is_wrong() {
        for (text, want) in [
            (r#"{"time":0,"kind":"reset"}"#, "'step'"),
            (
                r#"{"step":1,"time":0,"kind":"jump"}"#,
                "unknown kind 'jump'",
            ),
            (r#"{"step":1,"time":0,"kind":"drive","left":1}"#, "'right'"),
            (
                r#"{"step":1,"time":0,"kind":"pause","paused":1}"#,
                "'paused'",
            ),
            (r#"{"step":1,"kind":"reset"}"#, "'time'"),
            (
                r#"{"step":1,"time":0,"kind":"link","change":"camera","camera":"x","fault":"smoke"}"#,
                "unknown camera fault 'smoke'",
            ),
            (
                r#"{"step":1,"time":0,"kind":"link","change":"dropout"}"#,
                "'duration'",
            ),
            (
                r#"{"step":1,"time":0,"kind":"arm","motion":"wave","grip":"keep"}"#,
                "unknown arm motion 'wave'",
            ),
            (
                r#"{"step":1,"time":0,"kind":"arm","motion":"rates","values":[1,2],"grip":"keep"}"#,
                "'values' is not an array of 8 numbers",
            ),
            (
                r#"{"step":1,"time":0,"kind":"arm","motion":"hold","grip":"close"}"#,
                "'force'",
            ),
        ] {
            let e = StepInput::from_json(&serde_json::from_str(text).unwrap()).unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
        }
    }
}
