//! A session served live to Foxglove (`--foxglove [ADDR]`): a WebSocket server speaking
//! Foxglove's protocol (`foxglove.websocket.v1`, the `foxglove` crate's server), so the Foxglove
//! app — or any client of the protocol — shows the robot moving over its scene in 3D, the
//! onboard cameras, the telemetry and the exercise's events while a trainee drives.
//!
//! Channels, JSON-encoded with JSON Schemas, the same messages as a session's log
//! ([`crate::record::foxglove`], the log's `/telemetry` and `/event`):
//! - `/foxglove/transforms` (`foxglove.FrameTransforms`, `world` → `base_link`) and
//!   `/telemetry` (`treadsim.Telemetry`) at `rate` Hz of simulated time;
//! - `/foxglove/scene` (`foxglove.SceneUpdate`: terrain and hull) at each new session and to
//!   each client that subscribes (a client that comes late still sees the terrain);
//! - `/foxglove/bodies` (`foxglove.SceneUpdate`: arm, objects, traffic) at 10 Hz while there are
//!   any;
//! - `/event` (`treadsim.Event`): the simulation's and the trial's events as they happen;
//! - `/cameras/<camera>/compressed` (`foxglove.CompressedImage`, JPEG): each onboard camera as
//!   the link delivers it (`viewer::camera_feeds`), declared at its first picture.
//!
//! Messages are stamped with the wall clock at the session's start plus the simulated time (as
//! the ROS 2 node stamps its own), so Foxglove's live clock and the 3D panel's transforms agree.
//!
//! Teleoperation is a separate opt-in ([`FoxgloveOptions::teleop`]): only then does the server
//! announce `clientPublish`, and a client's JSON messages on `/cmd_vel` (a Twist:
//! `{"linear": {"x": m/s}, "angular": {"z": rad/s}}`, what Foxglove's Teleop panel sends),
//! `/flippers/target` (`{"data": rad}`), `/enable` (`{"data": bool}`), `/arm/joint_trajectory`
//! (`{"joint_names": [..], "points": [{"positions": [..]}]}`, the last point taken) and
//! `/gripper/force` (`{"data": N}`, 0 opens) reach the session
//! through the one external operator's path ([`TeleopInbox`] → [`TeleopDriver`]), logged as
//! inputs. A message that does not parse, on a topic the server does not take, or in another
//! encoding is refused and counted (a refused velocity stops the robot); a client that goes
//! away mid-drive leaves a command that goes stale and stops the robot.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use foxglove::websocket::{Capability, ChannelView, Client, ClientChannel, ServerListener};
use foxglove::{Context, PartialMetadata, RawChannel, Schema, SinkId, WebSocketServerHandle};
use serde_json::Value;

use super::teleop::{ArmRequest, TeleopCounters, TeleopDriver, TeleopInbox};
use crate::record::foxglove as messages;
use crate::record::writer::{event_schema, telemetry_schema};
use crate::record::{TOPIC_EVENT, TOPIC_TELEMETRY};
use crate::session::{EventCursor, LoggedEvent, Session, TelemetrySample};
use crate::vehicle::RobotSpec;

/// The address the server takes without one given: loopback only.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:8765";

/// How the server is run.
#[derive(Debug, Clone, PartialEq)]
pub struct FoxgloveOptions {
    /// Host (name or address) to bind, `127.0.0.1` unless given.
    pub host: String,
    /// TCP port (0: any free one).
    pub port: u16,
    /// Transforms and telemetry per second of simulated time, Hz.
    pub rate: f64,
    /// Take teleoperation commands from clients.
    pub teleop: bool,
    /// A teleoperation command older than this stops the robot, s.
    pub command_timeout: f64,
}

impl Default for FoxgloveOptions {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 8765,
            rate: 30.0,
            teleop: false,
            // Foxglove's Teleop panel publishes at a few Hz by default.
            command_timeout: 1.0,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum FoxgloveError {
    /// The address does not parse.
    #[error("Foxglove address {0:?}: give HOST:PORT (e.g. 127.0.0.1:8765)")]
    Address(String),
    /// The server did not start (the port is taken, …).
    #[error("the Foxglove server on {address}: {message}")]
    Start {
        /// HOST:PORT.
        address: String,
        /// The server's error.
        message: String,
    },
}

impl FoxgloveOptions {
    /// Options serving on `address` (`HOST:PORT`, `[v6]:PORT` or just `PORT` on loopback).
    pub fn at(address: &str) -> Result<Self, FoxgloveError> {
        let bad = || FoxgloveError::Address(address.to_owned());
        let (host, port) = match address.rsplit_once(':') {
            Some((host, port)) => (host.trim_matches(['[', ']']).to_owned(), port),
            None => ("127.0.0.1".to_owned(), address),
        };
        if host.is_empty() {
            return Err(bad());
        }
        let port = port.parse().map_err(|_| bad())?;
        Ok(Self {
            host,
            port,
            ..Self::default()
        })
    }
}

/// What the server counted.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FoxgloveCounters {
    /// Teleoperation commands (all topics), refusals, timeouts and latency.
    pub commands: TeleopCounters,
    /// Client channels refused (not JSON, a topic not taken, or teleoperation off).
    pub channels_refused: u64,
    /// Messages logged to the server's channels.
    pub published: u64,
    /// Clients that subscribed to the scene.
    pub scene_subscriptions: u64,
}

impl std::fmt::Display for FoxgloveCounters {
    /// `N messages published, N scene subscriptions; N commands taken, N refused (N channels),
    /// N timeouts, command to step X ms mean, Y ms max`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.commands;
        write!(
            f,
            "{} messages published, {} scene subscriptions; {} commands taken, {} refused \
             ({} channels), {} timeouts, command to step {:.1} ms mean, {:.1} ms max",
            self.published,
            self.scene_subscriptions,
            c.received,
            c.rejected,
            self.channels_refused,
            c.timeouts,
            1e3 * c.latency_mean(),
            1e3 * c.latency_max
        )
    }
}

/// The server's callbacks: subscriptions to the scene, and clients' teleoperation.
struct Listener {
    /// `Some` when teleoperation is on.
    teleop: Option<TeleopInbox>,
    /// Clients (their sinks) that subscribed to the scene and wait for it.
    scene_wanted: Mutex<Vec<SinkId>>,
    channels_refused: AtomicU64,
    scene_subscriptions: AtomicU64,
}

/// A teleoperation topic a client may publish on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TeleopTopic {
    Velocity,
    Flipper,
    Enable,
    Arm,
    Grip,
}

impl TeleopTopic {
    fn of(topic: &str) -> Option<Self> {
        match topic {
            "/cmd_vel" => Some(Self::Velocity),
            "/flippers/target" => Some(Self::Flipper),
            "/enable" => Some(Self::Enable),
            "/arm/joint_trajectory" => Some(Self::Arm),
            "/gripper/force" => Some(Self::Grip),
            _ => None,
        }
    }
}

/// Takes one client message on `topic` into `inbox`: a Twist's `linear.x` and `angular.z`, a
/// `data` number or boolean; anything else is refused there.
fn take(inbox: &TeleopInbox, topic: TeleopTopic, payload: &[u8]) {
    let value: Option<Value> = serde_json::from_slice(payload).ok();
    let number = |v: Option<&Value>| v.and_then(Value::as_f64);
    match topic {
        TeleopTopic::Velocity => {
            let v = value.as_ref();
            let linear = number(v.and_then(|v| v.pointer("/linear/x")));
            let angular = number(v.and_then(|v| v.pointer("/angular/z")));
            match (linear, angular) {
                (Some(x), Some(z)) => {
                    inbox.take_velocity(x, z);
                }
                _ => inbox.refuse_velocity(),
            }
        }
        TeleopTopic::Flipper => match number(value.as_ref().and_then(|v| v.get("data"))) {
            Some(angle) => {
                inbox.take_flipper(angle);
            }
            None => inbox.refuse(),
        },
        TeleopTopic::Enable => match value.as_ref().and_then(|v| v.get("data")?.as_bool()) {
            Some(on) => inbox.take_enable(on),
            None => inbox.refuse(),
        },
        TeleopTopic::Arm => match value.as_ref().and_then(arm_request) {
            Some(request) => {
                inbox.take_arm(request);
            }
            None => inbox.refuse(),
        },
        TeleopTopic::Grip => match number(value.as_ref().and_then(|v| v.get("data"))) {
            Some(force) => {
                inbox.take_grip(force);
            }
            None => inbox.refuse(),
        },
    }
}

/// A JSON `trajectory_msgs/JointTrajectory`'s last point as an arm command (positions if it
/// has one per joint, else velocities), as the ROS 2 node reads the CDR one.
fn arm_request(trajectory: &Value) -> Option<ArmRequest> {
    let names: Vec<String> = trajectory
        .get("joint_names")?
        .as_array()?
        .iter()
        .map(|n| n.as_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    let last = trajectory.get("points")?.as_array()?.last()?;
    // A field that is absent or not all numbers counts as empty.
    let values = |field: &str| -> Vec<f64> {
        last.get(field)
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(Value::as_f64).collect())
            .unwrap_or_default()
    };
    ArmRequest::of_point(names, &values("positions"), &values("velocities"))
}

impl ServerListener for Listener {
    fn on_subscribe(&self, client: Client, channel: ChannelView) {
        if channel.topic() == messages::TOPIC_SCENE {
            if let Some(sink) = client.sink_id() {
                self.scene_subscriptions.fetch_add(1, Ordering::Relaxed);
                self.scene_wanted
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(sink);
            }
        }
    }

    fn on_client_advertise(&self, _client: Client, channel: &ClientChannel) {
        let taken = self.teleop.is_some()
            && channel.encoding == "json"
            && TeleopTopic::of(&channel.topic).is_some();
        if !taken {
            self.channels_refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn on_message_data(&self, _client: Client, channel: &ClientChannel, payload: &[u8]) {
        let Some(inbox) = &self.teleop else {
            return;
        };
        match TeleopTopic::of(&channel.topic).filter(|_| channel.encoding == "json") {
            Some(topic) => take(inbox, topic, payload),
            // A channel the server refused: its messages are refusals too.
            None => inbox.refuse(),
        }
    }
}

/// The channels of one session's robot: telemetry's schema names its tracks and flippers.
struct SessionChannels {
    telemetry: Arc<RawChannel>,
    tracks: Vec<String>,
    flippers: Vec<String>,
}

/// treadsim's Foxglove WebSocket server.
pub struct FoxgloveServer {
    handle: Option<WebSocketServerHandle>,
    context: Arc<Context>,
    listener: Arc<Listener>,
    options: FoxgloveOptions,
    transforms: Arc<RawChannel>,
    scene: Arc<RawChannel>,
    bodies: Arc<RawChannel>,
    events: Arc<RawChannel>,
    session_channels: Option<SessionChannels>,
    images: BTreeMap<String, Arc<RawChannel>>,
    /// Wall time (s since the Unix epoch) at simulated time 0 of the session served.
    epoch: Option<f64>,
    last_time: f64,
    next_publish: f64,
    next_bodies: f64,
    scene_due: bool,
    events_seen: EventCursor,
    event_buffer: Vec<LoggedEvent>,
    published: u64,
}

/// Logs `make()`'s message on `channel` (to `sink` only, if given) stamped `stamp` s since the
/// Unix epoch; nothing is built when no client subscribes. Returns whether it went out.
fn log(
    channel: &RawChannel,
    stamp: f64,
    sink: Option<SinkId>,
    make: impl FnOnce() -> Option<Value>,
) -> bool {
    if !channel.has_sinks() {
        return false;
    }
    let Some(value) = make() else {
        return false;
    };
    let nanos = (stamp.max(0.0) * 1e9).round() as u64;
    channel.log_with_meta_to_sink(
        value.to_string().as_bytes(),
        PartialMetadata::with_log_time(nanos),
        sink,
    );
    true
}

/// A JSON channel `topic` of schema `name` in `context`.
fn json_channel(
    context: &Arc<Context>,
    topic: &str,
    name: &str,
    schema: Vec<u8>,
) -> Result<Arc<RawChannel>, FoxgloveError> {
    context
        .channel_builder(topic)
        .message_encoding("json")
        .schema(Schema::new(name, "jsonschema", schema))
        .build_raw()
        .map_err(|e| FoxgloveError::Start {
            address: topic.to_owned(),
            message: e.to_string(),
        })
}

impl FoxgloveServer {
    /// Starts serving as `options` say (the address bound before this returns).
    pub fn start(options: &FoxgloveOptions) -> Result<Self, FoxgloveError> {
        let context = Context::new();
        let scene_schema = messages::scene_schema();
        let transforms = json_channel(
            &context,
            messages::TOPIC_TRANSFORMS,
            "foxglove.FrameTransforms",
            messages::transforms_schema(),
        )?;
        let scene = json_channel(
            &context,
            messages::TOPIC_SCENE,
            "foxglove.SceneUpdate",
            scene_schema.clone(),
        )?;
        let bodies = json_channel(
            &context,
            messages::TOPIC_BODIES,
            "foxglove.SceneUpdate",
            scene_schema,
        )?;
        let events = json_channel(&context, TOPIC_EVENT, "treadsim.Event", event_schema())?;
        let listener = Arc::new(Listener {
            teleop: options.teleop.then(TeleopInbox::default),
            scene_wanted: Mutex::new(Vec::new()),
            channels_refused: AtomicU64::new(0),
            scene_subscriptions: AtomicU64::new(0),
        });
        let mut server = context
            .websocket_server()
            .name("treadsim")
            .bind(options.host.clone(), options.port)
            .supported_encodings(["json"])
            .listener(Arc::clone(&listener) as Arc<dyn ServerListener>);
        if options.teleop {
            server = server.capabilities([Capability::ClientPublish]);
        }
        let handle = server.start_blocking().map_err(|e| FoxgloveError::Start {
            address: format!("{}:{}", options.host, options.port),
            message: e.to_string(),
        })?;
        Ok(Self {
            handle: Some(handle),
            context,
            listener,
            options: options.clone(),
            transforms,
            scene,
            bodies,
            events,
            session_channels: None,
            images: BTreeMap::new(),
            epoch: None,
            last_time: 0.0,
            next_publish: 0.0,
            next_bodies: 0.0,
            scene_due: true,
            events_seen: EventCursor::default(),
            event_buffer: Vec::new(),
            published: 0,
        })
    }

    /// The TCP port served (the one the system chose for port 0).
    pub fn port(&self) -> u16 {
        self.handle.as_ref().map_or(0, WebSocketServerHandle::port)
    }

    /// Clients connected now.
    pub fn clients(&self) -> usize {
        self.handle
            .as_ref()
            .map_or(0, WebSocketServerHandle::client_count)
    }

    /// Whether clients may drive.
    pub fn teleop(&self) -> bool {
        self.listener.teleop.is_some()
    }

    /// What makes the driver that gives clients' teleoperation to a session of a robot (one
    /// per session; they share the server's inbox); `None` without teleoperation.
    pub fn driver_maker(&self) -> Option<impl Fn(&RobotSpec) -> TeleopDriver + Send + 'static> {
        let inbox = self.listener.teleop.clone()?;
        let timeout = self.options.command_timeout;
        Some(move |robot: &RobotSpec| TeleopDriver::new(inbox.clone(), robot, timeout))
    }

    /// What the server has counted.
    pub fn counters(&self) -> FoxgloveCounters {
        FoxgloveCounters {
            commands: self
                .listener
                .teleop
                .as_ref()
                .map(TeleopInbox::counters)
                .unwrap_or_default(),
            channels_refused: self.listener.channels_refused.load(Ordering::Relaxed),
            published: self.published,
            scene_subscriptions: self.listener.scene_subscriptions.load(Ordering::Relaxed),
        }
    }

    /// Publishes what is due at `session`'s simulated time: the scene (a new session, or a
    /// client that subscribed), transforms and telemetry, bodies, new events.
    pub fn publish(&mut self, session: &Session) {
        let t = session.sim().time();
        if t < self.last_time || self.epoch.is_none() {
            self.new_session(session, t);
        }
        self.last_time = t;
        let epoch = *self
            .epoch
            .get_or_insert_with(|| crate::record::unix_now() - t);
        let stamp = epoch + t;
        self.publish_scene(session, stamp);
        if t >= self.next_publish {
            let period = 1.0 / self.options.rate.max(1.0);
            self.next_publish = (t / period).floor() * period + period;
            self.publish_pose(session, stamp);
        }
        if t >= self.next_bodies {
            self.next_bodies = t + messages::BODIES_INTERVAL;
            let sent = log(&self.bodies, stamp, None, || {
                messages::bodies(session, stamp)
            });
            self.published += u64::from(sent);
        }
        self.publish_events(session, epoch);
    }

    /// A new session (or the first): its clock starts again, its scene is due, its robot's
    /// telemetry channel is declared.
    fn new_session(&mut self, session: &Session, t: f64) {
        self.epoch = Some(crate::record::unix_now() - t);
        self.next_publish = 0.0;
        self.next_bodies = 0.0;
        self.scene_due = true;
        self.events_seen = EventCursor::default();
        let spec = session.sim().robot(session.robot()).spec();
        let (tracks, flippers) = TelemetrySample::names(spec);
        let same = self
            .session_channels
            .as_ref()
            .is_some_and(|c| c.tracks == tracks && c.flippers == flippers);
        if !same {
            if let Some(old) = self.session_channels.take() {
                old.telemetry.close();
            }
            let schema = telemetry_schema(&tracks, &flippers);
            match json_channel(&self.context, TOPIC_TELEMETRY, "treadsim.Telemetry", schema) {
                Ok(telemetry) => {
                    self.session_channels = Some(SessionChannels {
                        telemetry,
                        tracks,
                        flippers,
                    });
                }
                Err(e) => eprintln!("Foxglove: no telemetry channel: {e}"),
            }
        }
    }

    fn publish_scene(&mut self, session: &Session, stamp: f64) {
        let waiting: Vec<SinkId> = std::mem::take(
            &mut *self
                .listener
                .scene_wanted
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        if !self.scene_due && waiting.is_empty() {
            return;
        }
        let scene = || Some(messages::scene(session, stamp));
        if std::mem::take(&mut self.scene_due) {
            self.published += u64::from(log(&self.scene, stamp, None, scene));
        } else {
            for sink in waiting {
                self.published += u64::from(log(&self.scene, stamp, Some(sink), scene));
            }
        }
    }

    /// The robot's pose (as the log's transforms: the telemetry's body origin) and telemetry.
    fn publish_pose(&mut self, session: &Session, stamp: f64) {
        let telemetry = self.session_channels.as_ref().map(|c| &c.telemetry);
        if !self.transforms.has_sinks() && !telemetry.is_some_and(|c| c.has_sinks()) {
            return;
        }
        let sample = session.telemetry_sample();
        let mut sent = log(&self.transforms, stamp, None, || {
            Some(messages::row_transforms(stamp, &sample.row))
        }) as u64;
        if let Some(c) = &self.session_channels {
            sent += u64::from(log(&c.telemetry, stamp, None, || {
                Some(sample.to_json(&c.tracks, &c.flippers))
            }));
        }
        self.published += sent;
    }

    fn publish_events(&mut self, session: &Session, epoch: f64) {
        self.event_buffer.clear();
        let mut buffer = std::mem::take(&mut self.event_buffer);
        self.events_seen
            .take(session.sim(), session.trial(), &mut buffer);
        for event in &buffer {
            let sent = log(&self.events, epoch + event.time, None, || {
                Some(event.to_json())
            });
            self.published += u64::from(sent);
        }
        self.event_buffer = buffer;
    }

    /// Publishes camera pictures: (camera name, capture time s simulated, JPEG) each.
    pub fn publish_images(&mut self, frames: &[(String, f64, &[u8])]) {
        let epoch = self.epoch.unwrap_or_else(crate::record::unix_now);
        for (camera, captured, jpeg) in frames {
            let channel = match self.images.get(camera) {
                Some(c) => Arc::clone(c),
                None => {
                    let topic = messages::image_topic(camera);
                    match json_channel(
                        &self.context,
                        &topic,
                        "foxglove.CompressedImage",
                        messages::compressed_image_schema(),
                    ) {
                        Ok(c) => {
                            self.images.insert(camera.clone(), Arc::clone(&c));
                            c
                        }
                        Err(_) => continue,
                    }
                }
            };
            let stamp = epoch + captured;
            let sent = log(&channel, stamp, None, || {
                Some(messages::compressed_image(stamp, camera, jpeg))
            });
            self.published += u64::from(sent);
        }
    }

    /// Stops serving: clients are disconnected.
    pub fn close(mut self) {
        if let Some(handle) = self.handle.take() {
            handle.stop().wait_blocking();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::testing::free;

    #[test]
    fn addresses_parse_and_bad_ones_say_what_to_give() {
        let o = FoxgloveOptions::at("0.0.0.0:9000").unwrap();
        assert_eq!(
            (o.host.as_str(), o.port, o.teleop),
            ("0.0.0.0", 9000, false)
        );
        let o = FoxgloveOptions::at("[::1]:8765").unwrap();
        assert_eq!((o.host.as_str(), o.port), ("::1", 8765));
        assert_eq!(FoxgloveOptions::at("8766").unwrap().host, "127.0.0.1");
        for bad in ["host:", ":80", "host:port", "host:70000"] {
            let e = FoxgloveOptions::at(bad).unwrap_err().to_string();
            assert!(e.contains("HOST:PORT"), "{bad}: {e}");
        }
    }

    #[test]
    fn teleop_messages_are_taken_as_the_teleop_panel_sends_them_and_junk_is_refused() {
        let inbox = TeleopInbox::default();
        let twist =
            br#"{"linear": {"x": 0.3, "y": 0, "z": 0}, "angular": {"x": 0, "y": 0, "z": -0.5}}"#;
        take(&inbox, TeleopTopic::Velocity, twist);
        take(&inbox, TeleopTopic::Flipper, br#"{"data": 0.4}"#);
        take(&inbox, TeleopTopic::Enable, br#"{"data": true}"#);
        let arm = br#"{"joint_names": ["turret"], "points": [{"positions": [0.1]}, {"positions": [0.5]}]}"#;
        take(&inbox, TeleopTopic::Arm, arm);
        take(&inbox, TeleopTopic::Grip, br#"{"data": 20}"#);
        assert_eq!(inbox.counters().received, 5);
        for (topic, junk) in [
            (TeleopTopic::Velocity, &b"{not json"[..]),
            (
                TeleopTopic::Velocity,
                br#"{"linear": {"x": "fast"}, "angular": {"z": 0}}"#,
            ),
            (
                TeleopTopic::Velocity,
                br#"{"linear": {"x": 1e9}, "angular": {"z": 0}}"#,
            ),
            (TeleopTopic::Flipper, br#"{"data": null}"#),
            (TeleopTopic::Enable, br#"{"data": 1}"#),
            (
                TeleopTopic::Arm,
                br#"{"joint_names": ["turret", "elbow"], "points": [{"positions": [0.5]}]}"#,
            ),
            (
                TeleopTopic::Arm,
                br#"{"joint_names": ["turret"], "points": []}"#,
            ),
            (TeleopTopic::Grip, br#"{"data": -5}"#),
        ] {
            take(&inbox, topic, junk);
        }
        assert_eq!(inbox.counters().rejected, 8);
        assert_eq!(TeleopTopic::of("/cmd_vel"), Some(TeleopTopic::Velocity));
        assert_eq!(TeleopTopic::of("/cmd_vel_unstamped"), None);
    }

    /// Every topic `docs/foxglove-layout.json` names, with the message path after it if any.
    fn layout_references(layout: &Value) -> Vec<String> {
        let mut refs = Vec::new();
        for (id, config) in layout["configById"].as_object().unwrap() {
            let kind = id.split('!').next().unwrap();
            match kind {
                "3D" => refs.extend(config["topics"].as_object().unwrap().keys().cloned()),
                "Image" => refs.push(config["imageMode"]["imageTopic"].as_str().unwrap().into()),
                "Plot" => refs.extend(
                    config["paths"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p["value"].as_str().unwrap().to_owned()),
                ),
                "RawMessages" => refs.push(config["topicPath"].as_str().unwrap().into()),
                "Teleop" => refs.push(config["topic"].as_str().unwrap().into()),
                other => panic!("a panel the test does not know: {other}"),
            }
        }
        refs
    }

    fn panels_in(node: &Value, out: &mut Vec<String>) {
        match node {
            Value::String(id) => out.push(id.clone()),
            Value::Object(split) => {
                panels_in(&split["first"], out);
                panels_in(&split["second"], out);
            }
            other => panic!("not a layout node: {other}"),
        }
    }

    #[test]
    fn the_documented_layout_shows_what_the_server_and_the_logs_carry() {
        let layout: Value = serde_json::from_str(include_str!("../../docs/foxglove-layout.json"))
            .expect("docs/foxglove-layout.json is JSON");
        let mut panels = Vec::new();
        panels_in(&layout["layout"], &mut panels);
        panels.sort();
        let mut configured: Vec<String> = layout["configById"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        configured.sort();
        assert_eq!(
            panels, configured,
            "every panel placed, every placed panel configured"
        );
        // The scout's telemetry, as the server and the logs send it.
        let session = free();
        let spec = session.sim().robot(session.robot()).spec();
        let (tracks, flippers) = TelemetrySample::names(spec);
        let telemetry = session.telemetry_sample().to_json(&tracks, &flippers);
        let served = [
            messages::TOPIC_TRANSFORMS.to_owned(),
            messages::TOPIC_SCENE.to_owned(),
            messages::TOPIC_BODIES.to_owned(),
            TOPIC_EVENT.to_owned(),
            messages::image_topic("front"),
            "/cmd_vel".to_owned(),
        ];
        for reference in layout_references(&layout) {
            let (topic, path) = reference
                .split_once('.')
                .map_or((reference.as_str(), None), |(t, p)| (t, Some(p)));
            match path {
                Some(path) => {
                    assert_eq!(topic, TOPIC_TELEMETRY, "{reference}");
                    let mut value = &telemetry;
                    for field in path.split('.') {
                        value = &value[field];
                    }
                    assert!(value.is_number(), "{reference}: {value}");
                }
                None => assert!(served.iter().any(|s| s == topic), "{reference}"),
            }
        }
    }
}
