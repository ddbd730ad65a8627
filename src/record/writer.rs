//! The recorder: drains a session's journal into an MCAP file, closing and flushing a chunk
//! at every snapshot (once per simulated second, and at least once per wall second while
//! anything is written), so a killed process leaves a log readable up to its last complete
//! second.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{
    foxglove, LogError, LogHeader, TOPIC_END, TOPIC_EVENT, TOPIC_HEADER, TOPIC_INPUT,
    TOPIC_SNAPSHOT, TOPIC_TELEMETRY,
};
use crate::exercise::report::result_json;
use crate::session::Session;
use crate::sim::json_f64;

/// Longest wall time between flushes while data is written.
const FLUSH_WALL: Duration = Duration::from_secs(1);

/// Channel ids, in topic order.
struct Channels {
    header: u16,
    input: u16,
    snapshot: u16,
    telemetry: u16,
    event: u16,
    end: u16,
    /// Foxglove's `FrameTransforms` and `SceneUpdate` ([`super::foxglove`]).
    transforms: u16,
    scene: u16,
    bodies: u16,
}

impl Channels {
    /// Declares every channel of a log with `header`'s tracks and flippers in `mcap` (the file
    /// at `path`), each with its JSON Schema.
    fn declare(
        mcap: &mut mcap::Writer<BufWriter<File>>,
        header: &LogHeader,
        path: &Path,
    ) -> Result<Self, LogError> {
        let mcap_err = |e: mcap::McapError| LogError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let meta = BTreeMap::new();
        let mut channel = |topic: &str, title: &str, data: Vec<u8>| -> Result<u16, LogError> {
            let schema = mcap
                .add_schema(title, "jsonschema", &data)
                .map_err(mcap_err)?;
            mcap.add_channel(schema, topic, "json", &meta)
                .map_err(mcap_err)
        };
        Ok(Self {
            header: channel(
                TOPIC_HEADER,
                "treadsim.Header",
                schema(
                    "treadsim.Header",
                    &[
                        ("program", "string"),
                        ("version", "string"),
                        ("files", "array"),
                    ],
                ),
            )?,
            input: channel(
                TOPIC_INPUT,
                "treadsim.Input",
                schema(
                    "treadsim.Input",
                    &[("step", "integer"), ("time", "number"), ("kind", "string")],
                ),
            )?,
            snapshot: channel(
                TOPIC_SNAPSHOT,
                "treadsim.Snapshot",
                schema(
                    "treadsim.Snapshot",
                    &[
                        ("step", "integer"),
                        ("time", "number"),
                        ("names", "array"),
                        ("values", "array"),
                    ],
                ),
            )?,
            telemetry: channel(
                TOPIC_TELEMETRY,
                "treadsim.Telemetry",
                telemetry_schema(&header.tracks, &header.flippers),
            )?,
            event: channel(TOPIC_EVENT, "treadsim.Event", event_schema())?,
            end: channel(
                TOPIC_END,
                "treadsim.End",
                schema("treadsim.End", &[("step", "integer"), ("time", "number")]),
            )?,
            transforms: channel(
                foxglove::TOPIC_TRANSFORMS,
                "foxglove.FrameTransforms",
                foxglove::transforms_schema(),
            )?,
            scene: channel(
                foxglove::TOPIC_SCENE,
                "foxglove.SceneUpdate",
                foxglove::scene_schema(),
            )?,
            bodies: channel(
                foxglove::TOPIC_BODIES,
                "foxglove.SceneUpdate",
                foxglove::scene_schema(),
            )?,
        })
    }
}

/// Writes one session's log.
pub struct LogWriter {
    path: PathBuf,
    mcap: mcap::Writer<BufWriter<File>>,
    channels: Channels,
    tracks: Vec<String>,
    flippers: Vec<String>,
    sequence: u32,
    last_flush: Instant,
    /// Data written since the last flush.
    dirty: bool,
    /// Simulated time the next [`foxglove::TOPIC_BODIES`] message is due, s.
    next_bodies: f64,
    /// The last bodies message written, its stamps left out: an unchanged one is not
    /// written again (Foxglove keeps showing an entity until it is replaced).
    last_bodies: Option<Value>,
    /// Each camera's picture channel, declared at its first picture.
    images: BTreeMap<String, u16>,
}

/// Log time of simulation time `t` (s): nanoseconds.
fn log_time(t: f64) -> u64 {
    if t.is_finite() && t > 0.0 {
        (t * 1e9).round() as u64
    } else {
        0
    }
}

/// A JSON schema: an object with the given properties (`name → JSON type`).
pub fn schema(title: &str, properties: &[(&str, &str)]) -> Vec<u8> {
    let props: serde_json::Map<String, Value> = properties
        .iter()
        .map(|(name, kind)| ((*name).to_owned(), json!({ "type": kind })))
        .collect();
    json!({"title": title, "type": "object", "properties": props})
        .to_string()
        .into_bytes()
}

/// The event channel's schema.
pub fn event_schema() -> Vec<u8> {
    schema(
        "treadsim.Event",
        &[("time", "number"), ("source", "string"), ("text", "string")],
    )
}

/// The telemetry schema: numbers for every plotted quantity, per track and flipper.
pub fn telemetry_schema(tracks: &[String], flippers: &[String]) -> Vec<u8> {
    let num = json!({"type": "number"});
    let xyz = json!({"type": "object", "properties": {"x": num, "y": num, "z": num}});
    let track_props: serde_json::Map<String, Value> = tracks
        .iter()
        .map(|t| {
            (
                t.clone(),
                json!({"type": "object", "properties": {
                    "belt_speed": num, "commanded_speed": num,
                    "motor_torque": num, "normal_force": num}}),
            )
        })
        .collect();
    let flipper_props: serde_json::Map<String, Value> = flippers
        .iter()
        .map(|f| {
            (
                f.clone(),
                json!({"type": "object", "properties": {"angle": num, "torque": num}}),
            )
        })
        .collect();
    json!({
        "title": "treadsim.Telemetry",
        "description": "World frame, SI units, radians; position of the body origin (footprint centre), velocity of the centre of mass",
        "type": "object",
        "properties": {
            "time": num, "position": xyz, "roll": num, "pitch": num, "yaw": num,
            "linvel": xyz, "angvel": xyz,
            "tracks": {"type": "object", "properties": track_props},
            "flippers": {"type": "object", "properties": flipper_props},
            "operator": {"type": "object", "properties": {"left": num, "right": num}},
            "status": {"type": "integer"}, "clock": {"type": ["number", "null"]},
        }
    })
    .to_string()
    .into_bytes()
}

impl LogWriter {
    /// Creates the log at `path` (and its folder) and writes the header.
    pub fn create(path: &Path, header: &LogHeader) -> Result<Self, LogError> {
        let io = |error: std::io::Error| LogError::Io {
            path: path.to_path_buf(),
            error,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = File::create(path).map_err(io)?;
        let options = mcap::WriteOptions::new()
            .profile("")
            .library(format!("treadsim {}", header.version))
            .compression(None)
            .chunk_size(None);
        let mcap_err = |e: mcap::McapError| LogError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let mut mcap = options.create(BufWriter::new(file)).map_err(mcap_err)?;
        let channels = Channels::declare(&mut mcap, header, path)?;
        let mut writer = Self {
            path: path.to_path_buf(),
            mcap,
            channels,
            tracks: header.tracks.clone(),
            flippers: header.flippers.clone(),
            sequence: 0,
            last_flush: Instant::now(),
            dirty: false,
            next_bodies: 0.0,
            last_bodies: None,
            images: BTreeMap::new(),
        };
        let text = serde_json::to_vec(header).map_err(|e| LogError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        writer.write(writer.channels.header, 0, &text)?;
        writer.flush()?;
        Ok(writer)
    }

    /// Starts logging `session` at `path`: the session keeps a journal from now on and the
    /// header names its input files (`(role, path)`: `exercise`, `scene`, `robot`, `script`).
    /// `kind` is `run` or `station`.
    pub fn start(
        session: &mut Session,
        path: &Path,
        kind: &str,
        files: &[(&str, &Path)],
    ) -> Result<Self, LogError> {
        session.start_journal();
        let header = LogHeader::new(session, kind, files, path)?;
        let mut writer = Self::create(path, &header)?;
        // The scene for Foxglove's 3D view, once.
        let t = session.sim().time();
        writer.write_json(writer.channels.scene, t, &foxglove::scene(session, t))?;
        Ok(writer)
    }

    /// The log file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write(&mut self, channel: u16, time: u64, data: &[u8]) -> Result<(), LogError> {
        self.sequence = self.sequence.wrapping_add(1);
        let header = mcap::records::MessageHeader {
            channel_id: channel,
            sequence: self.sequence,
            log_time: time,
            publish_time: time,
        };
        self.dirty = true;
        self.mcap
            .write_to_known_channel(&header, data)
            .map_err(|e| LogError::Write {
                path: self.path.clone(),
                message: e.to_string(),
            })
    }

    fn write_json(&mut self, channel: u16, time: f64, value: &Value) -> Result<(), LogError> {
        let bytes = value.to_string().into_bytes();
        self.write(channel, log_time(time), &bytes)
    }

    /// Closes the chunk under way and flushes it to the operating system.
    pub fn flush(&mut self) -> Result<(), LogError> {
        self.mcap.flush().map_err(|e| LogError::Write {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        self.last_flush = Instant::now();
        self.dirty = false;
        Ok(())
    }

    /// Writes what the session's journal holds and empties it (the session must keep a
    /// journal: [`Session::start_journal`]). Inputs go first, so the inputs that led to a
    /// snapshot are always in the file before it.
    pub fn record(&mut self, session: &mut Session) -> Result<(), LogError> {
        self.record_bodies(session)?;
        let Some(journal) = session.journal_mut() else {
            return Ok(());
        };
        if journal.is_empty() {
            return Ok(());
        }
        let had_snapshot = !journal.snapshots.is_empty();
        for input in &journal.inputs {
            self.write_json(self.channels.input, input.time, &input.to_json())?;
        }
        for sample in &journal.telemetry {
            let value = sample.to_json(&self.tracks, &self.flippers);
            self.write_json(self.channels.telemetry, sample.row.t, &value)?;
            let pose = foxglove::row_transforms(sample.row.t, &sample.row);
            self.write_json(self.channels.transforms, sample.row.t, &pose)?;
        }
        for event in &journal.events {
            self.write_json(self.channels.event, event.time, &event.to_json())?;
        }
        for snapshot in &journal.snapshots {
            self.write_json(self.channels.snapshot, snapshot.time, &snapshot.to_json())?;
        }
        journal.clear();
        if self.dirty && (had_snapshot || self.last_flush.elapsed() >= FLUSH_WALL) {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes camera `camera`'s picture (JPEG) captured at `captured` s of simulated time, as
    /// a `foxglove.CompressedImage` on the camera's channel ([`foxglove::image_topic`]),
    /// declared at its first picture. Replay ignores it.
    pub fn write_image(
        &mut self,
        camera: &str,
        captured: f64,
        jpeg: &[u8],
    ) -> Result<(), LogError> {
        let channel = match self.images.get(camera) {
            Some(c) => *c,
            None => {
                let mcap_err = |e: mcap::McapError| LogError::Write {
                    path: self.path.clone(),
                    message: e.to_string(),
                };
                let schema = self
                    .mcap
                    .add_schema(
                        "foxglove.CompressedImage",
                        "jsonschema",
                        &foxglove::compressed_image_schema(),
                    )
                    .map_err(mcap_err)?;
                let c = self
                    .mcap
                    .add_channel(
                        schema,
                        &foxglove::image_topic(camera),
                        "json",
                        &BTreeMap::new(),
                    )
                    .map_err(mcap_err)?;
                self.images.insert(camera.to_owned(), c);
                c
            }
        };
        let message = foxglove::compressed_image(captured, camera, jpeg);
        self.write_json(channel, captured, &message)
    }

    /// Writes where the arm, the objects, the traffic and the flippers are, if they are due
    /// (every [`foxglove::BODIES_INTERVAL`] s of simulated time), there are any, and they moved
    /// since the last written.
    fn record_bodies(&mut self, session: &Session) -> Result<(), LogError> {
        let t = session.sim().time();
        if t < self.next_bodies || session.journal().is_none() {
            return Ok(());
        }
        self.next_bodies = t + foxglove::BODIES_INTERVAL;
        let Some(bodies) = foxglove::bodies(session, t) else {
            return Ok(());
        };
        let unstamped = foxglove::without_stamps(&bodies);
        if self.last_bodies.as_ref() == Some(&unstamped) {
            return Ok(());
        }
        self.last_bodies = Some(unstamped);
        self.write_json(self.channels.bodies, t, &bodies)
    }

    /// Writes the rest of the journal and the end record (the last step, and the trial's
    /// result), and closes the file with MCAP's summary.
    pub fn finish(mut self, session: &mut Session) -> Result<(), LogError> {
        self.record(session)?;
        let sim = session.sim();
        let end = json!({
            "step": sim.steps(),
            "time": json_f64(sim.time()),
            "result": session.trial().map(|t| result_json(&t.result())),
        });
        self.write_json(self.channels.end, sim.time(), &end)?;
        self.mcap.finish().map_err(|e| LogError::Write {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        Ok(())
    }
}
