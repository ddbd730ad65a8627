//! The class network's protocol: its key expressions and message schemas, with no network code
//! (so its rules are unit-tested without a Zenoh session). Every message is one JSON object
//! carrying `"protocol": PROTOCOL_VERSION`; a message of another version, or one that does not
//! parse, is refused with a [`ProtocolError`] that says why (the receiver counts it and goes
//! on). The README's "Classroom protocol" section documents the same for other tools.
//!
//! Keys, for class `C` and seat `S` (names: letters, digits, `_`, `-`, `.`; at most 64):
//! - `treadsim/class/C/seat/S/status`: [`SeatStatus`], put by the seat at 10 Hz or more;
//! - `treadsim/class/C/seat/S/event`: [`SeatEvent`], put by the seat as each exercise event
//!   happens;
//! - `treadsim/class/C/seat/S/command`: the seat's queryable; a query carries a
//!   [`CommandRequest`], the reply a [`CommandReply`] (acknowledged or refused with a reason);
//! - `treadsim/class/C/seat/S/alive`: the seat's liveliness token (gone: the seat is offline);
//! - `treadsim/class/C/instructor/result`: the instructor's queryable; a seat's query carries an
//!   [`AttemptReport`], the reply a [`ResultAck`] once the attempt is stored (the seat keeps the
//!   report in its outbox until then);
//! - `treadsim/class/C/instructor/alive`: the instructor's liveliness token.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol's version: a message of another is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// The class a seat or instructor joins when none is named.
pub const DEFAULT_CLASS: &str = "default";

/// Longest seat, class or trainee name, characters.
pub const MAX_NAME_LEN: usize = 64;

/// A message that cannot be taken: why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProtocolError {
    /// Not a JSON object, or a field missing or of the wrong type.
    #[error("malformed {what}: {detail}")]
    Malformed {
        /// What the message should have been.
        what: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// Another protocol version.
    #[error("{what} speaks protocol version {found}, this program speaks {PROTOCOL_VERSION}")]
    Version {
        /// What the message should have been.
        what: &'static str,
        /// The version it carries.
        found: u64,
    },
    /// A name that cannot be part of a key expression or a file name.
    #[error("{kind} name '{name}' must be 1 to {MAX_NAME_LEN} letters, digits, '_', '-' or '.' (and not start with '.')")]
    BadName {
        /// Which name: `seat`, `class`, `trainee`.
        kind: &'static str,
        /// The name given.
        name: String,
    },
}

/// Checks a seat, class or trainee name: it becomes one chunk of a key expression and part of
/// file names, so only `[A-Za-z0-9_.-]`, not starting with `.`, 1 to [`MAX_NAME_LEN`] long.
pub fn check_name(kind: &'static str, name: &str) -> Result<(), ProtocolError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(ProtocolError::BadName {
            kind,
            name: name.to_owned(),
        })
    }
}

/// The key expressions of one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    root: String,
}

impl Keys {
    /// The keys of class `class` (checked by [`check_name`]).
    pub fn new(class: &str) -> Result<Self, ProtocolError> {
        check_name("class", class)?;
        Ok(Self {
            root: format!("treadsim/class/{class}"),
        })
    }

    fn seat_key(&self, seat: &str, what: &str) -> String {
        format!("{}/seat/{seat}/{what}", self.root)
    }

    /// Where seat `seat` puts its [`SeatStatus`].
    pub fn status(&self, seat: &str) -> String {
        self.seat_key(seat, "status")
    }

    /// Where seat `seat` puts its [`SeatEvent`]s.
    pub fn event(&self, seat: &str) -> String {
        self.seat_key(seat, "event")
    }

    /// Seat `seat`'s command queryable.
    pub fn command(&self, seat: &str) -> String {
        self.seat_key(seat, "command")
    }

    /// Seat `seat`'s liveliness token.
    pub fn alive(&self, seat: &str) -> String {
        self.seat_key(seat, "alive")
    }

    /// Every seat's `what` (`status`, `event`, `alive`): the instructor's subscriptions.
    pub fn every_seat(&self, what: &str) -> String {
        self.seat_key("*", what)
    }

    /// The instructor's result queryable.
    pub fn results(&self) -> String {
        format!("{}/instructor/result", self.root)
    }

    /// The instructor's liveliness token.
    pub fn instructor_alive(&self) -> String {
        format!("{}/instructor/alive", self.root)
    }

    /// The seat a seat key names (`…/seat/<seat>/<what>`), if it is one of this class's.
    pub fn seat_of<'k>(&self, key: &'k str) -> Option<&'k str> {
        let rest = key
            .strip_prefix(self.root.as_str())?
            .strip_prefix("/seat/")?;
        let (seat, _) = rest.split_once('/')?;
        check_name("seat", seat).ok().map(|()| seat)
    }
}

/// What a seat is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatState {
    /// No exercise loaded.
    Idle,
    /// An exercise loaded, its trial not started.
    Ready,
    /// The trial is running.
    Running,
    /// The trial is paused (by the instructor).
    Paused,
    /// The trial has ended; its result is in the outbox or delivered.
    Finished,
}

/// The robot on the scene's plan: position, m, and heading, rad, world frame (z up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlanPose {
    /// East, m.
    pub x: f64,
    /// North, m.
    pub y: f64,
    /// Heading (yaw), rad, counter-clockwise from east.
    pub yaw: f64,
}

/// A seat's state, put at 10 Hz or more on [`Keys::status`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatStatus {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The seat's name.
    pub seat: String,
    /// The trainee at the seat, if known.
    pub trainee: Option<String>,
    /// The robot's name, once an exercise is loaded.
    pub robot: Option<String>,
    /// The exercise loaded (its name in the library, or its file as assigned).
    pub exercise: Option<String>,
    /// The attempt under way or last finished.
    pub attempt: Option<String>,
    /// When the attempt's trial started, s since the Unix epoch (`None`: not started).
    pub started_unix_s: Option<f64>,
    /// What the seat is doing.
    pub state: SeatState,
    /// The trial's clock, s.
    pub clock_s: f64,
    /// Repetitions done.
    pub completed: u32,
    /// Repetitions the exercise asks for.
    pub required: u32,
    /// Faults so far.
    pub faults: u32,
    /// Penalty points so far.
    pub penalty_points: f64,
    /// Score so far, 0–100.
    pub score: f64,
    /// The robot on the plan.
    pub pose: Option<PlanPose>,
    /// The scene's plan extent where robots may be: `[min x, min y, max x, max y]`, m.
    pub plan: Option<[f64; 4]>,
    /// The link's conditions in words (latency, dropouts, camera faults, video rate).
    pub link: String,
    /// Whether an operator's input is present (a pad connected, a script or the autopilot
    /// driving).
    pub operator_input: bool,
    /// Whether the instructor's autopilot demo has taken over.
    pub autopilot: bool,
    /// External control the seat accepts, if any (a ROS 2 control unit): what it is, and
    /// whether the instructor allows it now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<ExternalControl>,
    /// Results waiting in the seat's outbox for the instructor's acknowledgement.
    pub outbox: u32,
    /// Counts the statuses this seat has sent since it started.
    pub seq: u64,
    /// When it was sent, s since the Unix epoch (the wall clock; for latency).
    pub sent_unix_s: f64,
}

/// One exercise event as it happened, put on [`Keys::event`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatEvent {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The seat's name.
    pub seat: String,
    /// The attempt it belongs to.
    pub attempt: String,
    /// The event as the score file writes it (`kind`, `time`, `clock`, …).
    pub event: Value,
}

/// External control a seat accepts (`--ros2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalControl {
    /// What drives: `ros2`.
    pub kind: String,
    /// Whether its commands reach the robot now (the instructor can revoke and allow them).
    pub allowed: bool,
}

/// A command from the instructor to a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// Load an exercise for a trainee: from `bundle` when one comes with it (installed in the
    /// seat's exercise folder), else by name from the seat's own exercise folder — refused, with
    /// `sha256`, unless the seat's copy has that hash.
    Assign {
        /// The exercise's name (a library name such as `stairs_35`).
        exercise: String,
        /// SHA-256 of the exercise file as the instructor has it (hex).
        sha256: Option<String>,
        /// The trainee who will do it (`None`: the seat's trainee).
        trainee: Option<String>,
        /// The exercise's files, for a seat that may not have them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bundle: Option<super::bundle::Bundle>,
    },
    /// Start the loaded exercise's trial.
    Start,
    /// Pause the trial.
    Pause,
    /// Resume the paused trial.
    Resume,
    /// A fault reset: the robot back at the start.
    Reset,
    /// End the trial now (it fails: ended by the instructor).
    End,
    /// Change the link: the log's JSON form of a link input (`{"change": "dropout",
    /// "duration": 2.0}`, …).
    Link {
        /// The change.
        change: Value,
    },
    /// The autopilot demo drives the trial's goals.
    TakeOver,
    /// The trainee drives again.
    HandBack,
    /// Send the log of a finished attempt of this seat (the reply carries it).
    SendLog {
        /// The attempt.
        attempt: String,
    },
    /// Allow or revoke the seat's external control (a ROS 2 control unit): revoked, its
    /// commands no longer reach the robot, which stops.
    External {
        /// Whether its commands reach the robot.
        allowed: bool,
    },
}

/// A query to a seat's command queryable, signed by the instructor
/// ([`super::authority`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandRequest {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The instructor's number for it, echoed in the reply.
    pub id: u64,
    /// The seat it is for (a command for one seat is no good to another).
    pub seat: String,
    /// When the instructor issued it, ms since the Unix epoch (a seat takes only fresh ones,
    /// each later than the last it took).
    pub issued_unix_ms: u64,
    /// The command.
    pub command: Command,
    /// The instructor's Ed25519 signature (hex) of this message with this field empty.
    pub signature: String,
}

/// A seat's answer to a [`CommandRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandReply {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The request's id.
    pub id: u64,
    /// Whether the seat carried it out.
    pub accepted: bool,
    /// Why it was refused (empty when accepted).
    pub reason: String,
    /// The log asked for by [`Command::SendLog`] (MCAP, base64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_base64: Option<String>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptStatus {
    /// The trial ended passed.
    Passed,
    /// The trial ended failed.
    Failed,
    /// The seat went away before the trial ended.
    Unfinished,
}

impl AttemptStatus {
    /// The name stored in the records.
    pub fn name(self) -> &'static str {
        match self {
            AttemptStatus::Passed => "passed",
            AttemptStatus::Failed => "failed",
            AttemptStatus::Unfinished => "unfinished",
        }
    }
}

/// One attempt's result, sent by the seat to [`Keys::results`] until acknowledged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttemptReport {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The attempt's id: unique per seat and start (`<seat>-<unix ms>-<n>`).
    pub attempt: String,
    /// The seat's name.
    pub seat: String,
    /// The trainee, if known.
    pub trainee: Option<String>,
    /// The exercise as assigned.
    pub exercise: String,
    /// SHA-256 of the exercise file (hex).
    pub exercise_sha256: String,
    /// The robot's name.
    pub robot: String,
    /// When the trial started, s since the Unix epoch.
    pub started_unix_s: f64,
    /// The trial's clock at its end, s.
    pub duration_s: f64,
    /// How it ended.
    pub status: AttemptStatus,
    /// Score, 0–100.
    pub score: f64,
    /// Repetitions done.
    pub completed: u32,
    /// Repetitions asked for.
    pub required: u32,
    /// Repetitions per minute.
    pub repetitions_per_minute: f64,
    /// Faults.
    pub faults: u32,
    /// Penalty points.
    pub penalty_points: f64,
    /// Why it ended.
    pub reason: String,
    /// The score file's JSON (score table and events).
    pub result: Value,
    /// The exercise's proficiency standard (`[proficiency]` of its file).
    #[serde(default)]
    pub proficiency: Option<ProficiencyStandard>,
    /// The attempt's log file name, if one was written.
    pub log: Option<String>,
    /// SHA-256 of the log file (hex).
    pub log_sha256: Option<String>,
}

/// When a trainee counts as qualified on an exercise, as its file says: over the last `window`
/// finished attempts, a `pass_rate` (0–1) passed and `reps_per_min` on average.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ProficiencyStandard {
    /// Share passed, 0–1.
    pub pass_rate: f64,
    /// Mean repetitions per minute.
    pub reps_per_min: f64,
    /// Attempts looked at.
    pub window: u32,
}

/// The instructor's answer to an [`AttemptReport`]: it is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultAck {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The attempt's id.
    pub attempt: String,
    /// `true`: stored now; `false`: it was already stored (a repeated delivery).
    pub newly_stored: bool,
    /// The instructor's Ed25519 signature (hex) of this message with this field empty: only
    /// the instructor's acknowledgement lets a seat drop a result.
    pub signature: String,
}

impl super::authority::Signed for CommandRequest {
    fn signature(&self) -> &str {
        &self.signature
    }
    fn with_signature(&self, value: String) -> Self {
        Self {
            signature: value,
            ..self.clone()
        }
    }
}

impl super::authority::Signed for ResultAck {
    fn signature(&self) -> &str {
        &self.signature
    }
    fn with_signature(&self, value: String) -> Self {
        Self {
            signature: value,
            ..self.clone()
        }
    }
}

/// Encodes a message as its JSON bytes.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Serialising these plain structs cannot fail (no maps with non-string keys); an empty
    // payload would be refused by the receiver, never misread.
    serde_json::to_vec(message).unwrap_or_default()
}

/// Decodes a message of kind `what`, checking its protocol version first (so another version's
/// message is named as such, not as malformed).
pub fn decode<T: DeserializeOwned>(what: &'static str, bytes: &[u8]) -> Result<T, ProtocolError> {
    let malformed = |detail: String| ProtocolError::Malformed { what, detail };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| malformed(e.to_string()))?;
    let version = value
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or_else(|| malformed("no 'protocol' version".into()))?;
    if version != u64::from(PROTOCOL_VERSION) {
        return Err(ProtocolError::Version {
            what,
            found: version,
        });
    }
    serde_json::from_value(value).map_err(|e| malformed(e.to_string()))
}

pub use crate::record::unix_now;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_escape_a_key_or_a_folder_are_refused() {
        for bad in [
            "",
            "a/b",
            "..",
            ".hidden",
            "a*",
            "a b",
            "x$",
            &"n".repeat(65),
        ] {
            assert!(check_name("seat", bad).is_err(), "{bad:?}");
        }
        for good in ["seat-1", "A_b.c", "7"] {
            assert!(check_name("seat", good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn keys_name_the_seat_and_read_it_back() {
        let keys = Keys::new("room1").unwrap();
        assert_eq!(keys.status("s1"), "treadsim/class/room1/seat/s1/status");
        assert_eq!(
            keys.every_seat("alive"),
            "treadsim/class/room1/seat/*/alive"
        );
        assert_eq!(
            keys.seat_of("treadsim/class/room1/seat/s1/alive"),
            Some("s1")
        );
        assert_eq!(keys.seat_of("treadsim/class/other/seat/s1/alive"), None);
        assert!(Keys::new("a/b").is_err());
    }

    #[test]
    fn a_command_round_trips_and_other_versions_and_junk_are_refused() {
        let request = CommandRequest {
            protocol: PROTOCOL_VERSION,
            id: 7,
            seat: "s1".into(),
            issued_unix_ms: 5,
            command: Command::Assign {
                exercise: "stairs_35".into(),
                sha256: None,
                trainee: Some("t1".into()),
                bundle: None,
            },
            signature: String::new(),
        };
        let bytes = encode(&request);
        let back: CommandRequest = decode("command", &bytes).unwrap();
        assert_eq!(back, request);
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("\"command\":\"assign\""), "{text}");

        let other = text.replace("\"protocol\":1", "\"protocol\":2");
        assert_eq!(
            decode::<CommandRequest>("command", other.as_bytes()),
            Err(ProtocolError::Version {
                what: "command",
                found: 2
            })
        );
        for junk in [
            &b"not json"[..],
            b"{}",
            b"[1,2]",
            b"{\"protocol\":1}",
            b"\xff\xfe",
        ] {
            let e = decode::<CommandRequest>("command", junk).unwrap_err();
            assert!(matches!(e, ProtocolError::Malformed { .. }), "{e}");
        }
    }
}
