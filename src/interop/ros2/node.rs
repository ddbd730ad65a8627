//! treadsim as a ROS 2 node over Zenoh, as rmw_zenoh nodes see one: its session joins the ROS
//! graph (a Zenoh router, `tcp/127.0.0.1:7447` by default, or one it runs itself), declares
//! the liveliness tokens of the node and of each topic, publishes the robot's state, and
//! subscribes the operator's commands.
//!
//! Subscribed (the operator's control unit, or any ROS tool):
//! - `/cmd_vel` (`geometry_msgs/msg/Twist`): `linear.x` (m/s) and `angular.z` (rad/s) become
//!   belt speeds by the tracks' kinematics, `v ∓ ω·B/2` (B the track gauge; an Ackermann robot
//!   steers to the same curvature), scaled down together to the slowest motor's top speed;
//! - `/flippers/target` (`std_msgs/msg/Float64`): the flippers' target angle, rad;
//! - `/enable` (`std_msgs/msg/Bool`): `false` stops the robot until `true` comes;
//! - `/arm/joint_trajectory` (`trajectory_msgs/msg/JointTrajectory`): the arm's joints by name
//!   move to the last point's positions (or at its velocities, until stale), at their servos'
//!   speed;
//! - `/gripper/force` (`std_msgs/msg/Float64`): the fingers close pressing with this force, N;
//!   0 opens them.
//!
//! A command older than the timeout (0.5 s by default) stops the robot, as a lost pad does; a
//! message that does not decode, or with a NaN or an absurd speed, is refused, counted, and
//! stops the robot too. Every command reaches the session as an `Input` through the one
//! external operator's path ([`TeleopInbox`] → [`TeleopDriver`]), so the session's log
//! replays it bit-exact.
//!
//! Published at `rate` Hz of simulated time, stamped with the wall clock at the start plus the
//! simulated time (so they are both wall-clock-like and exact in simulated time; `/clock`
//! carries the same for `use_sim_time`): `/odom` (`nav_msgs/msg/Odometry`: frame `odom`, child
//! `base_link`, twist in `base_link`, REP-105), `/imu` (`sensor_msgs/msg/Imu`: orientation,
//! body rates, specific force in `base_link`), `/joint_states` (flippers: angle and torque;
//! each track's or wheel's surface speed; the arm's joints by name; `gripper`: the pads' gap
//! and force), `/tf` (`odom` → `base_link`), `/clock`; and once a simulated second
//! `/diagnostics` (`diagnostic_msgs/msg/DiagnosticArray`: the robot, the exercise and the
//! link, [`super::diagnostics`]).

use nalgebra::{UnitQuaternion, Vector3};
use zenoh::Wait;

use super::super::teleop::{ArmRequest, TeleopCounters, TeleopDriver, TeleopInbox};
use super::msgs::{
    decode_bool, decode_float64, encode_clock, encode_tf, Header, Imu, JointState, JointTrajectory,
    Odometry, Stamp, TransformStamped, Twist,
};
use super::names::{attachment, topic_key, EntityKind, NodeName, Qos, GID_LEN};
use super::types::{self, dds_name, type_hash};
use crate::record::header::sha256_hex;
use crate::session::Session;
use crate::vehicle::RobotSpec;

/// The router rmw_zenoh nodes expect on their own machine.
pub const DEFAULT_ROUTER: &str = "tcp/127.0.0.1:7447";

/// How treadsim joins the ROS graph.
#[derive(Debug, Clone, PartialEq)]
pub struct RosOptions {
    /// ROS domain id (`ROS_DOMAIN_ID`).
    pub domain: u32,
    /// The node's name.
    pub node: String,
    /// The node's namespace (`/` for the root).
    pub namespace: String,
    /// Routers (or peers) to connect to.
    pub connect: Vec<String>,
    /// Endpoints to listen on.
    pub listen: Vec<String>,
    /// Run as a Zenoh router (for a machine without `zenohd`): ROS nodes connect to it.
    pub router: bool,
    /// A command older than this stops the robot, s.
    pub command_timeout: f64,
    /// Publishing rate, Hz of simulated time.
    pub rate: f64,
    /// Whether the robot's cameras are published (their topics are declared with each
    /// robot: a ROS graph read before the first frame lists them).
    pub cameras: bool,
    /// A Zenoh configuration file (JSON5) to start from: a site router's TLS or user/password
    /// authentication, as rmw_zenoh's `ZENOH_SESSION_CONFIG_URI` file gives them; the options
    /// above are set over it.
    pub zenoh_config: Option<std::path::PathBuf>,
}

impl Default for RosOptions {
    fn default() -> Self {
        Self {
            domain: 0,
            node: "treadsim".into(),
            namespace: "/".into(),
            connect: vec![DEFAULT_ROUTER.into()],
            listen: Vec::new(),
            router: false,
            command_timeout: 0.5,
            rate: 50.0,
            cameras: false,
            zenoh_config: None,
        }
    }
}

/// Why the node could not start.
#[derive(Debug, thiserror::Error)]
pub enum RosError {
    /// Zenoh refused the configuration, the session or a declaration.
    #[error("ROS 2 over Zenoh: {0}")]
    Zenoh(String),
    /// A bad option.
    #[error("ROS 2: {0}")]
    Option(String),
}

/// What the node has counted.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RosCounters {
    /// The commands' counters (taken, refused, timeouts, command-to-step latency).
    pub commands: TeleopCounters,
    /// Messages published.
    pub published: u64,
}

impl std::fmt::Display for RosCounters {
    /// `N commands taken, N refused, N timeouts, N messages published, command to step X ms
    /// mean, Y ms max`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.commands;
        write!(
            f,
            "{} commands taken, {} refused, {} timeouts, {} messages published, command to step \
             {:.1} ms mean, {:.1} ms max",
            c.received,
            c.rejected,
            c.timeouts,
            self.published,
            1e3 * c.latency_mean(),
            1e3 * c.latency_max
        )
    }
}

/// One published topic: its Zenoh publisher, its token, its GID and sequence.
struct Topic {
    publisher: zenoh::pubsub::Publisher<'static>,
    _token: zenoh::liveliness::LivelinessToken,
    gid: [u8; GID_LEN],
    sequence: i64,
}

impl Topic {
    fn put(&mut self, payload: Vec<u8>) -> bool {
        self.sequence += 1;
        let now_ns = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        self.publisher
            .put(payload)
            .attachment(attachment(self.sequence, now_ns, &self.gid))
            .wait()
            .is_ok()
    }
}

/// The robot's state between publications (the IMU's acceleration needs the last velocity).
#[derive(Debug, Clone, Copy)]
struct LastState {
    sim_time: f64,
    velocity: Vector3<f64>,
}

/// treadsim's ROS 2 node.
pub struct RosNode {
    session: zenoh::Session,
    _node_token: zenoh::liveliness::LivelinessToken,
    _subscriptions: Vec<(
        zenoh::pubsub::Subscriber<()>,
        zenoh::liveliness::LivelinessToken,
    )>,
    odom: Topic,
    imu: Topic,
    joints: Topic,
    tf: Topic,
    clock: Topic,
    diagnostics: Topic,
    inbox: TeleopInbox,
    published: u64,
    options: RosOptions,
    name: NodeName,
    next_entity: u32,
    /// Each camera's `CompressedImage` topic, declared at its first frame.
    images: std::collections::BTreeMap<String, Topic>,
    /// Wall time (s since the Unix epoch) at simulated time 0 of the session published.
    epoch: Option<f64>,
    next_publish: f64,
    /// Simulated time the next `/diagnostics` is due, s (once a second).
    next_diagnostics: f64,
    last: Option<LastState>,
}

/// Which topic a subscription takes.
#[derive(Debug, Clone, Copy)]
enum Command {
    Velocity,
    Flipper,
    Enable,
    Arm,
    Grip,
}

impl RosNode {
    /// Joins the ROS graph as `options` says: the session, the node's token, its publishers
    /// and subscriptions (each with its token).
    pub fn start(options: &RosOptions) -> Result<Self, RosError> {
        let zerr = |e: zenoh::Error| RosError::Zenoh(e.to_string());
        let session = zenoh::open(config(options)?).wait().map_err(zerr)?;
        let name = NodeName {
            domain: options.domain,
            session: session.zid().to_string(),
            node_id: 0,
            namespace: options.namespace.clone(),
            name: options.node.clone(),
        };
        let node_token = session
            .liveliness()
            .declare_token(name.node_token())
            .wait()
            .map_err(zerr)?;
        let mut next_id = 0;
        let mut topic = |topic: &str, type_name: &str| {
            next_id += 1;
            declare_topic(&session, options, &name, next_id, topic, type_name)
        };
        let odom = topic("/odom", types::ODOMETRY)?;
        let imu = topic("/imu", types::IMU)?;
        let joints = topic("/joint_states", types::JOINT_STATE)?;
        let tf = topic("/tf", types::TF_MESSAGE)?;
        let clock = topic("/clock", types::CLOCK)?;
        let diagnostics = topic("/diagnostics", types::DIAGNOSTIC_ARRAY)?;
        let inbox = TeleopInbox::default();
        let mut subscriptions = Vec::new();
        for (id, (topic, type_name, what)) in [
            ("/cmd_vel", types::TWIST, Command::Velocity),
            ("/flippers/target", types::FLOAT64, Command::Flipper),
            ("/enable", types::BOOL, Command::Enable),
            (
                "/arm/joint_trajectory",
                types::JOINT_TRAJECTORY,
                Command::Arm,
            ),
            ("/gripper/force", types::FLOAT64, Command::Grip),
        ]
        .into_iter()
        .enumerate()
        {
            subscriptions.push(declare_subscription(
                &session,
                options,
                &name,
                (10 + id) as u32,
                (topic, type_name),
                what,
                inbox.clone(),
            )?);
        }
        Ok(Self {
            session,
            _node_token: node_token,
            _subscriptions: subscriptions,
            odom,
            imu,
            joints,
            tf,
            clock,
            diagnostics,
            inbox,
            published: 0,
            options: options.clone(),
            name,
            next_entity: 100,
            images: std::collections::BTreeMap::new(),
            epoch: None,
            next_publish: 0.0,
            next_diagnostics: 0.0,
            last: None,
        })
    }

    /// The driver that gives the operator's ROS commands to a session of `robot` (one per
    /// session; they share this node's inbox); the robot's camera topics are declared now if
    /// cameras are published.
    pub fn driver(&mut self, robot: &RobotSpec) -> TeleopDriver {
        if self.options.cameras {
            for camera in &robot.cameras {
                self.image_topic(&camera.name);
            }
        }
        TeleopDriver::new(self.inbox.clone(), robot, self.options.command_timeout)
    }

    /// What the node has counted.
    pub fn counters(&self) -> RosCounters {
        RosCounters {
            commands: self.inbox.counters(),
            published: self.published,
        }
    }

    /// Publishes the robot's state if a publication is due at `session`'s simulated time.
    pub fn publish(&mut self, session: &Session) {
        let t = session.sim().time();
        if self.last.is_some_and(|l| t < l.sim_time) {
            // Another session (or a reset of the clock): stamps start again from now.
            self.epoch = None;
            self.next_publish = 0.0;
            self.next_diagnostics = 0.0;
            self.last = None;
        }
        if t < self.next_publish {
            return;
        }
        let period = 1.0 / self.options.rate.max(1.0);
        self.next_publish = (t / period).floor() * period + period;
        let epoch = *self
            .epoch
            .get_or_insert_with(|| crate::record::unix_now() - t);
        let stamp = Stamp::of_seconds(epoch + t);
        let mut published = self.publish_state(session, stamp);
        if t >= self.next_diagnostics {
            self.next_diagnostics = t + 1.0;
            let header = Header {
                stamp,
                frame_id: String::new(),
            };
            let message = super::diagnostics::diagnostics(session, header);
            published += u64::from(self.diagnostics.put(message.encode()));
        }
        self.published += published;
    }

    /// Puts every topic's message of this moment; returns how many went out.
    fn publish_state(&mut self, session: &Session, stamp: Stamp) -> u64 {
        let sim = session.sim();
        let id = session.robot();
        let body = sim.body_state(id);
        let t = sim.time();
        let header = |frame: &str| Header {
            stamp,
            frame_id: frame.into(),
        };
        let rotation = body.pose.rotation;
        let q = quaternion(&rotation);
        let position = body.pose.translation.vector;
        let origin_velocity = body.point_velocity(&body.pose.translation.vector.into());
        let to_body = |v: &Vector3<f64>| rotation.inverse_transform_vector(v);
        let odometry = Odometry {
            header: header("odom"),
            child_frame_id: "base_link".into(),
            position: [position.x, position.y, position.z],
            orientation: q,
            pose_covariance: diagonal::<36, 6>(1e-6),
            linear: to_body(&origin_velocity).into(),
            angular: to_body(&body.angvel).into(),
            twist_covariance: diagonal::<36, 6>(1e-6),
        };
        // Specific force: the acceleration since the last publication less gravity.
        let acceleration = match self.last {
            Some(l) if t > l.sim_time => (body.linvel - l.velocity) / (t - l.sim_time),
            _ => Vector3::zeros(),
        };
        self.last = Some(LastState {
            sim_time: t,
            velocity: body.linvel,
        });
        let imu = Imu {
            header: header("base_link"),
            orientation: q,
            orientation_covariance: diagonal::<9, 3>(1e-6),
            angular_velocity: to_body(&body.angvel).into(),
            angular_velocity_covariance: diagonal::<9, 3>(1e-6),
            linear_acceleration: to_body(&(acceleration - sim.gravity())).into(),
            linear_acceleration_covariance: diagonal::<9, 3>(1e-4),
        };
        let joints = joint_state(session, header(""));
        let tf = [TransformStamped {
            header: header("odom"),
            child_frame_id: "base_link".into(),
            translation: [position.x, position.y, position.z],
            rotation: q,
        }];
        let sent = [
            self.odom.put(odometry.encode()),
            self.imu.put(imu.encode()),
            self.joints.put(joints.encode()),
            self.tf.put(encode_tf(&tf)),
            self.clock.put(encode_clock(stamp)),
        ];
        sent.iter().filter(|s| **s).count() as u64
    }

    /// Publishes camera frames (JPEG) as `/<camera>/image_raw/compressed`
    /// (`sensor_msgs/msg/CompressedImage`, frame `<camera>_optical`), stamped with their capture
    /// time; a camera's topic is declared (and its token) at its first frame.
    pub fn publish_images(&mut self, frames: &[(String, f64, &[u8])]) {
        let Some(epoch) = self.epoch else {
            return;
        };
        let mut published = 0;
        for (camera, captured, jpeg) in frames {
            if !self.image_topic(camera) {
                continue;
            }
            let message = super::msgs::CompressedImage {
                header: Header {
                    stamp: Stamp::of_seconds(epoch + captured),
                    frame_id: format!("{camera}_optical"),
                },
                format: "jpeg".into(),
                data: jpeg,
            };
            if let Some(topic) = self.images.get_mut(camera) {
                if topic.put(message.encode()) {
                    published += 1;
                }
            }
        }
        self.published += published;
    }

    /// Declares camera `camera`'s image topic if it is not yet; whether it is.
    fn image_topic(&mut self, camera: &str) -> bool {
        if self.images.contains_key(camera) {
            return true;
        }
        self.next_entity += 1;
        let topic = format!("/{camera}/image_raw/compressed");
        match declare_topic(
            &self.session,
            &self.options,
            &self.name,
            self.next_entity,
            &topic,
            types::COMPRESSED_IMAGE,
        ) {
            Ok(t) => {
                self.images.insert(camera.to_owned(), t);
                true
            }
            Err(e) => {
                eprintln!("ROS 2: camera {camera}: {e}");
                false
            }
        }
    }

    /// Leaves the ROS graph.
    pub fn close(self) {
        let _ = self.session.close().wait();
    }
}

/// A quaternion as ROS orders it: `x, y, z, w`.
fn quaternion(q: &UnitQuaternion<f64>) -> [f64; 4] {
    [q.i, q.j, q.k, q.w]
}

/// An `N`-element row-major covariance of a `D`×`D` matrix with `v` on its diagonal.
fn diagonal<const N: usize, const D: usize>(v: f64) -> [f64; N] {
    let mut out = [0.0; N];
    for i in 0..D {
        out[i * D + i] = v;
    }
    out
}

/// The robot's joints: each flipper's angle and torque, each track's or wheel's surface
/// speed.
fn joint_state(session: &Session, header: Header) -> JointState {
    let sim = session.sim();
    let id = session.robot();
    let robot = sim.robot(id);
    let row = crate::sim::TelemetryRow::capture(sim.time(), &sim.body_state(id), robot);
    let spec = robot.spec();
    let mut out = JointState {
        header,
        ..JointState::default()
    };
    for (i, flipper) in spec.flippers.iter().enumerate() {
        out.name.push(format!("{}_flipper", flipper.name));
        out.position
            .push(row.flippers.get(i).copied().unwrap_or(0.0));
        out.velocity.push(0.0);
        out.effort
            .push(row.flipper_torques.get(i).copied().unwrap_or(0.0));
    }
    let drive_names: Vec<String> = if spec.tracks.len() == row.tracks.len() {
        spec.tracks
            .iter()
            .map(|t| format!("{}_track", t.name))
            .collect()
    } else if spec.wheels.len() == row.tracks.len() {
        spec.wheels
            .iter()
            .map(|w| format!("{}_wheel", w.name))
            .collect()
    } else {
        (0..row.tracks.len())
            .map(|i| format!("drive_{i}"))
            .collect()
    };
    for (name, drive) in drive_names.into_iter().zip(&row.tracks) {
        out.name.push(name);
        out.position.push(0.0);
        out.velocity.push(drive[0]);
        out.effort.push(drive[1]);
    }
    // The arm's joints by their names, and the gripper as the gap between its pads (m) and
    // the force each pad presses with (N).
    if let (Some(arm), Some(state)) = (spec.arm.as_ref(), sim.arm_state(id)) {
        for (i, joint) in arm.joints.iter().enumerate() {
            out.name.push(joint.name.clone());
            out.position.push(state.positions[i]);
            out.velocity.push(state.rates[i]);
            out.effort.push(state.efforts[i]);
        }
        out.name.push("gripper".into());
        out.position.push(state.finger_gap);
        out.velocity.push(0.0);
        out.effort.push(state.grip_force);
    }
    out
}

/// The Zenoh configuration for `options`: a peer that connects to the router (or a router
/// itself), TCP, no multicast scouting (rmw_zenoh's sessions find each other through the
/// router).
fn config(options: &RosOptions) -> Result<zenoh::Config, RosError> {
    let zerr = |e: Box<dyn std::error::Error + Send + Sync>| RosError::Zenoh(e.to_string());
    let list = |l: &[String]| -> Result<String, RosError> {
        for endpoint in l {
            endpoint
                .parse::<zenoh::config::EndPoint>()
                .map_err(|e| RosError::Option(format!("endpoint '{endpoint}': {e}")))?;
        }
        serde_json::to_string(l).map_err(|e| RosError::Option(e.to_string()))
    };
    let mut config = match &options.zenoh_config {
        Some(path) => zenoh::Config::from_file(path)
            .map_err(|e| RosError::Option(format!("{}: {e}", path.display())))?,
        None => zenoh::Config::default(),
    };
    let mode = if options.router {
        "\"router\""
    } else {
        "\"peer\""
    };
    config.insert_json5("mode", mode).map_err(zerr)?;
    config
        .insert_json5("connect/endpoints", &list(&options.connect)?)
        .map_err(zerr)?;
    config
        .insert_json5("listen/endpoints", &list(&options.listen)?)
        .map_err(zerr)?;
    config
        .insert_json5("connect/timeout_ms", "-1")
        .map_err(zerr)?;
    config
        .insert_json5("scouting/multicast/enabled", "false")
        .map_err(zerr)?;
    Ok(config)
}

/// A 16-byte GID for an entity: the first bytes of its token's SHA-256 (rmw_zenoh hashes the
/// token too, with XXH3; a GID is opaque to its readers).
fn gid_of(token: &str) -> [u8; GID_LEN] {
    let hex = sha256_hex(token.as_bytes());
    let mut gid = [0; GID_LEN];
    for (i, byte) in gid.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(0);
    }
    gid
}

fn declare_topic(
    session: &zenoh::Session,
    options: &RosOptions,
    name: &NodeName,
    entity_id: u32,
    topic: &str,
    type_name: &str,
) -> Result<Topic, RosError> {
    let zerr = |e: zenoh::Error| RosError::Zenoh(e.to_string());
    let hash = type_hash(type_name)
        .ok_or_else(|| RosError::Option(format!("no description of {type_name}")))?;
    let key = topic_key(options.domain, topic, &dds_name(type_name), &hash);
    let token_key = name.endpoint_token(
        entity_id,
        EntityKind::Publisher,
        topic,
        type_name,
        &hash,
        Qos::DEFAULT,
    );
    let publisher = session.declare_publisher(key).wait().map_err(zerr)?;
    let token = session
        .liveliness()
        .declare_token(token_key.clone())
        .wait()
        .map_err(zerr)?;
    Ok(Topic {
        publisher,
        _token: token,
        gid: gid_of(&token_key),
        sequence: 0,
    })
}

fn declare_subscription(
    session: &zenoh::Session,
    options: &RosOptions,
    name: &NodeName,
    entity_id: u32,
    (topic, type_name): (&str, &str),
    what: Command,
    inbox: TeleopInbox,
) -> Result<
    (
        zenoh::pubsub::Subscriber<()>,
        zenoh::liveliness::LivelinessToken,
    ),
    RosError,
> {
    let zerr = |e: zenoh::Error| RosError::Zenoh(e.to_string());
    let hash = type_hash(type_name)
        .ok_or_else(|| RosError::Option(format!("no description of {type_name}")))?;
    let key = topic_key(options.domain, topic, &dds_name(type_name), &hash);
    let subscriber = session
        .declare_subscriber(key)
        .callback(move |sample| {
            let bytes = sample.payload().to_bytes();
            take(&inbox, what, &bytes);
        })
        .wait()
        .map_err(zerr)?;
    let token = session
        .liveliness()
        .declare_token(name.endpoint_token(
            entity_id,
            EntityKind::Subscription,
            topic,
            type_name,
            &hash,
            Qos::DEFAULT,
        ))
        .wait()
        .map_err(zerr)?;
    Ok((subscriber, token))
}

/// Decodes one command message into the inbox, which refuses and counts what makes no sense;
/// one that does not decode is refused there too.
fn take(inbox: &TeleopInbox, what: Command, bytes: &[u8]) {
    match what {
        Command::Velocity => match Twist::decode(bytes) {
            Ok(t) => {
                inbox.take_velocity(t.linear[0], t.angular[2]);
            }
            Err(_) => inbox.refuse_velocity(),
        },
        Command::Flipper => match decode_float64(bytes) {
            Ok(angle) => {
                inbox.take_flipper(angle);
            }
            Err(_) => inbox.refuse(),
        },
        Command::Enable => match decode_bool(bytes) {
            Ok(on) => inbox.take_enable(on),
            Err(_) => inbox.refuse(),
        },
        Command::Arm => match JointTrajectory::decode(bytes).ok().and_then(arm_request) {
            Some(request) => {
                inbox.take_arm(request);
            }
            None => inbox.refuse(),
        },
        Command::Grip => match decode_float64(bytes) {
            Ok(force) => {
                inbox.take_grip(force);
            }
            Err(_) => inbox.refuse(),
        },
    }
}

/// What a trajectory asks of the arm: its last point (where it ends), as
/// [`ArmRequest::of_point`] reads it. Timing is not followed: the joints move at their servos'
/// speed.
fn arm_request(trajectory: JointTrajectory) -> Option<ArmRequest> {
    let last = trajectory.points.last()?;
    ArmRequest::of_point(trajectory.joint_names, &last.positions, &last.velocities)
}

#[cfg(test)]
mod tests;
