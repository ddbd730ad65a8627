//! Reading a log back. A log cut short (a killed process, a full disk, a copy in progress) is
//! read up to the last record that is whole, and says where and why it stopped; anything that
//! is not a treadsim log gets a clear error, never a panic.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{
    LogError, LogHeader, TOPIC_END, TOPIC_EVENT, TOPIC_HEADER, TOPIC_INPUT, TOPIC_SNAPSHOT,
    TOPIC_TELEMETRY,
};
use crate::session::StepInput;
use crate::sim::{f64_of_json, StateSnapshot};

/// Largest log read, bytes.
pub const MAX_LOG_BYTES: u64 = 4 << 30;

/// An event as logged.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEvent {
    /// Simulation time, s.
    pub time: f64,
    /// `sim` or `exercise`.
    pub source: String,
    /// One line for people.
    pub text: String,
    /// The event's fields.
    pub detail: Value,
}

/// The log's end record.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEnd {
    /// Steps taken in all.
    pub step: u64,
    /// Simulation time at the end, s.
    pub time: f64,
    /// The trial's result (JSON as in `<out>.score.json`), for a trial.
    pub result: Option<Value>,
}

/// A log read back.
#[derive(Debug, Clone)]
pub struct Log {
    /// The file.
    pub path: PathBuf,
    /// Its size, bytes.
    pub bytes: u64,
    /// The header.
    pub header: LogHeader,
    /// Inputs in the order applied.
    pub inputs: Vec<StepInput>,
    /// State snapshots, in time order.
    pub snapshots: Vec<StateSnapshot>,
    /// Telemetry samples (JSON, see the writer's schema), in time order.
    pub telemetry: Vec<Value>,
    /// Events, in order.
    pub events: Vec<LogEvent>,
    /// The end record (`None`: the log was cut short).
    pub end: Option<LogEnd>,
    /// Why reading stopped before the end, if it did.
    pub truncated: Option<String>,
}

impl Log {
    /// Reads the log at `path`.
    pub fn read(path: &Path) -> Result<Self, LogError> {
        let io = |error| LogError::Io {
            path: path.to_path_buf(),
            error,
        };
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_LOG_BYTES {
            return Err(LogError::Malformed {
                path: path.to_path_buf(),
                message: format!("{len} bytes is more than the {MAX_LOG_BYTES} a log may have"),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        Self::from_bytes(path, &bytes)
    }

    /// Reads a log from its bytes; `path` names it in errors.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Self, LogError> {
        let malformed = |message: String| LogError::Malformed {
            path: path.to_path_buf(),
            message,
        };
        if bytes.is_empty() {
            return Err(malformed("the file is empty".into()));
        }
        if !bytes.starts_with(mcap::MAGIC) {
            return Err(malformed(if mcap::MAGIC.starts_with(bytes) {
                "cut short before its header was complete (only part of the MCAP magic)".into()
            } else {
                "not an MCAP file (it does not begin with the MCAP magic bytes)".into()
            }));
        }
        let stream = mcap::MessageStream::new(bytes)
            .map_err(|e| malformed(format!("not an MCAP file ({e})")))?;
        let mut header: Option<LogHeader> = None;
        let mut log_parts = Parts::default();
        let mut truncated = None;
        for (index, message) in stream.enumerate() {
            let message = match message {
                Ok(m) => m,
                Err(e) => {
                    truncated = Some(format!("the file stops in the middle of a record ({e})"));
                    break;
                }
            };
            let topic = message.channel.topic.as_str();
            let json: Value = serde_json::from_slice(&message.data)
                .map_err(|e| malformed(format!("message {index} on {topic} is not JSON: {e}")))?;
            let bad = |what: String| malformed(format!("message {index} on {topic}: {what}"));
            if topic == TOPIC_HEADER {
                if header.is_some() {
                    return Err(bad("a second header".into()));
                }
                header = Some(
                    serde_json::from_value(json)
                        .map_err(|e| bad(format!("not a treadsim header: {e}")))?,
                );
                continue;
            }
            if header.is_none() {
                return Err(bad("comes before the header".into()));
            }
            log_parts.add(topic, json).map_err(bad)?;
        }
        let Some(header) = header else {
            return Err(malformed(match truncated {
                Some(why) => format!("cut short before its header was complete: {why}"),
                None => "not a treadsim log (no /header message)".into(),
            }));
        };
        if truncated.is_none() && log_parts.end.is_none() {
            truncated = Some("the log has no end record (the recording was cut short)".into());
        }
        Ok(Self {
            path: path.to_path_buf(),
            bytes: bytes.len() as u64,
            header,
            inputs: log_parts.inputs,
            snapshots: log_parts.snapshots,
            telemetry: log_parts.telemetry,
            events: log_parts.events,
            end: log_parts.end,
            truncated,
        })
    }

    /// The last step a replay can check: the end's, or for a log cut short the last complete
    /// second's (its last snapshot).
    pub fn last_complete_step(&self) -> u64 {
        match &self.end {
            Some(end) => end.step,
            None => self.snapshots.last().map_or(0, |s| s.step),
        }
    }

    /// Simulation time of [`Log::last_complete_step`], s.
    pub fn last_complete_time(&self) -> f64 {
        match &self.end {
            Some(end) => end.time,
            None => self.snapshots.last().map_or(0.0, |s| s.time),
        }
    }
}

/// The messages of the channels after the header.
#[derive(Default)]
struct Parts {
    inputs: Vec<StepInput>,
    snapshots: Vec<StateSnapshot>,
    telemetry: Vec<Value>,
    events: Vec<LogEvent>,
    end: Option<LogEnd>,
}

impl Parts {
    fn add(&mut self, topic: &str, json: Value) -> Result<(), String> {
        if self.end.is_some() {
            return Err("comes after the end record".into());
        }
        match topic {
            TOPIC_INPUT => self
                .inputs
                .push(StepInput::from_json(&json).map_err(|e| e.to_string())?),
            TOPIC_SNAPSHOT => {
                let s = StateSnapshot::from_json(&json)?;
                if self.snapshots.last().is_some_and(|p| p.step >= s.step) {
                    return Err(format!("snapshot of step {} out of order", s.step));
                }
                self.snapshots.push(s);
            }
            TOPIC_TELEMETRY => self.telemetry.push(json),
            TOPIC_EVENT => {
                let text = |key: &str| {
                    json.get(key)
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .ok_or(format!("'{key}' is not text"))
                };
                self.events.push(LogEvent {
                    time: json
                        .get("time")
                        .and_then(f64_of_json)
                        .ok_or("'time' is not a number")?,
                    source: text("source")?,
                    text: text("text")?,
                    detail: json.get("detail").cloned().unwrap_or(Value::Null),
                });
            }
            TOPIC_END => {
                self.end = Some(LogEnd {
                    step: json
                        .get("step")
                        .and_then(Value::as_u64)
                        .ok_or("'step' is not a whole number")?,
                    time: json
                        .get("time")
                        .and_then(f64_of_json)
                        .ok_or("'time' is not a number")?,
                    result: json.get("result").filter(|r| !r.is_null()).cloned(),
                })
            }
            _ => {} // a channel of a later version: not needed to replay
        }
        Ok(())
    }
}
