//! A real robot's drive recorded as a ROS 2 bag in MCAP (`ros2 bag record -s mcap`), as
//! `treadsim calibrate` reads it: the robot's odometry and the velocity commands its drive
//! controller was given (or its sprockets' joint states), the topics a ROS 2 ground robot
//! records as a matter of course.
//!
//! - **Pose**: the one channel of schema `nav_msgs/msg/Odometry` — its `pose.pose` position
//!   (x, y, m) and orientation's yaw (rad) in its frame (motion capture republished as odometry,
//!   or odometry good enough for the purpose, as for the CSV log).
//! - **Track speeds, commanded**: the one channel of schema `geometry_msgs/msg/Twist` or
//!   `geometry_msgs/msg/TwistStamped` (the `cmd_vel` a skid-steer controller takes): forward
//!   speed v (m/s) and yaw rate ω (rad/s) become each main track's belt speed v − ω·y, y its
//!   belt's lateral position in the robot file (m, body y, left positive), as a differential
//!   drive controller with the file's track gauge would command them. A row's speeds hold
//!   over its interval (to the next odometry message) and are the command in force at the
//!   interval's middle; none before the first (the log should begin with the robot standing
//!   still).
//! - **Track speeds, measured** (a bag without commands): the one channel of schema
//!   `sensor_msgs/msg/JointState` whose messages name a joint for every main track (the
//!   track's name, or it followed by `_sprocket`, `_wheel`, `_joint`, …, [`JOINT_SUFFIXES`]):
//!   the joint's velocity (rad/s, the sprocket's) times the file's sprocket radius is the belt
//!   speed, held as commands are. Joint states of other joints only (an arm's) are passed over.
//! - **Time**: each message's log time (when the recorder received it, ns), so the topics
//!   share one clock whatever the robot's own stamps; a row per odometry message, relative to
//!   the first.
//!
//! Messages are CDR (`message_encoding = "cdr"`), read with the bounds-checked
//! [`CdrReader`]: a message that is not what its schema says is a located error naming the
//! topic and message, never a panic.

use std::path::Path;

use crate::config::ConfigError;
use crate::control::kinematic::PlanarPose;
use crate::record::cdr::{CdrError, CdrReader};
use crate::vehicle::RobotSpec;

use super::log::{unwrap_yaw, DriveLog, TrackInput, MIN_ROWS};

/// Schema of the odometry the pose comes from.
pub const ODOMETRY: &str = "nav_msgs/msg/Odometry";
/// Schemas of the velocity commands the track speeds come from.
pub const COMMANDS: [&str; 2] = ["geometry_msgs/msg/Twist", "geometry_msgs/msg/TwistStamped"];
/// Schema of the joint states measured track speeds come from, without commands.
pub const JOINT_STATE: &str = "sensor_msgs/msg/JointState";

/// Whether `bytes` begin as an MCAP file.
pub fn is_mcap(bytes: &[u8]) -> bool {
    bytes.starts_with(mcap::MAGIC)
}

/// A velocity command: forward speed (m/s) and yaw rate (rad/s), body frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Command {
    forward: f64,
    yaw_rate: f64,
}

/// Where a bag's track speeds come from.
#[derive(Debug, Clone, PartialEq)]
enum SpeedSource {
    /// Velocity commands on this topic (`stamped`: `TwistStamped`).
    Commands { topic: String, stamped: bool },
    /// Joint states on this topic.
    Joints { topic: String },
}

/// Reads the bag `bytes` (the file at `path`, for errors) for `spec`'s main tracks.
pub fn read_bag(path: &Path, bytes: &[u8], spec: &RobotSpec) -> Result<DriveLog, ConfigError> {
    let whole = |message: String| ConfigError::whole_file(path, message);
    let (odometry, source) = channels(bytes).map_err(whole)?;
    let stream =
        mcap::MessageStream::new(bytes).map_err(|e| whole(format!("not an MCAP file ({e})")))?;
    let mut log = DriveLog {
        times: Vec::new(),
        poses: Vec::new(),
        speeds: Vec::new(),
        input: match source {
            SpeedSource::Commands { .. } => TrackInput::Commanded,
            SpeedSource::Joints { .. } => TrackInput::Measured,
        },
    };
    // The poses and the track speeds (m/s, the file's main tracks in order) at the log times
    // (ns) they were received.
    let mut odometry_poses: Vec<(u64, PlanarPose)> = Vec::new();
    let mut samples: Vec<(u64, Vec<f64>)> = Vec::new();
    for (index, message) in stream.enumerate() {
        let message = message.map_err(|e| {
            whole(format!(
                "cut short: the file stops in the middle of a record ({e})"
            ))
        })?;
        let topic = message.channel.topic.as_str();
        let bad = |e: String| {
            let schema = message
                .channel
                .schema
                .as_ref()
                .map_or("?", |s| s.name.as_str());
            whole(format!("message {index} on {topic} is not a {schema}: {e}"))
        };
        if topic == odometry {
            let pose = read_odometry(&message.data).map_err(bad)?;
            odometry_poses.push((message.log_time, pose));
            continue;
        }
        let speeds = match &source {
            SpeedSource::Commands {
                topic: from,
                stamped,
            } if from == topic => {
                let command = read_command(&message.data, *stamped).map_err(bad)?;
                spec.tracks
                    .iter()
                    .map(|track| command.forward - command.yaw_rate * track.y)
                    .collect()
            }
            SpeedSource::Joints { topic: from } if from == topic => {
                match read_joint_speeds(&message.data, spec).map_err(bad)? {
                    Some(speeds) => speeds,
                    // A joint state of other joints (an arm's, published apart).
                    None => continue,
                }
            }
            _ => continue,
        };
        samples.push((message.log_time, speeds));
    }
    // In time order (a bag's messages need not be); of two received in the same nanosecond
    // the later one recorded counts.
    odometry_poses.sort_by_key(|(time, _)| *time);
    odometry_poses.reverse();
    odometry_poses.dedup_by_key(|(time, _)| *time);
    odometry_poses.reverse();
    let first = odometry_poses.first().map_or(0, |(time, _)| *time);
    for (time, pose) in odometry_poses {
        log.times.push((time - first) as f64 * 1e-9);
        log.poses.push(pose);
    }
    if log.times.len() < MIN_ROWS {
        return Err(whole(format!(
            "{} odometry messages on {odometry}, fewer than the {MIN_ROWS} a fit needs",
            log.times.len()
        )));
    }
    if let (SpeedSource::Joints { topic }, true) = (&source, samples.is_empty()) {
        let names: Vec<String> = spec.tracks.iter().map(|t| t.name.clone()).collect();
        return Err(whole(format!(
            "no joint state on {topic} has every main track's joint ({}: the track's name, or \
             it followed by {})",
            names.join(", "),
            JOINT_SUFFIXES[1..].join(", ")
        )));
    }
    samples.sort_by_key(|(time, _)| *time);
    let rest = vec![0.0; spec.tracks.len()];
    log.speeds = in_force(&log.times, first, &samples, rest).collect();
    unwrap_yaw(&mut log.poses);
    Ok(log)
}

/// The sample in force for each row of `times` (s after the log time `start`, ns): the last
/// of `samples` (log time, ns; in time order) at or before the middle of the row's interval
/// (up to the next row; the last row's own time), as a row's speed holds over its interval;
/// `before` before the first.
fn in_force<'a, T: Clone + 'a>(
    times: &'a [f64],
    start: u64,
    samples: &'a [(u64, T)],
    before: T,
) -> impl Iterator<Item = T> + 'a {
    let mut next = 0;
    let mut current = before;
    times.iter().enumerate().map(move |(k, &t)| {
        let end = times.get(k + 1).copied().unwrap_or(t);
        let middle = start + (0.5 * (t + end) * 1e9).round() as u64;
        while let Some((_, value)) = samples.get(next).filter(|(time, _)| *time <= middle) {
            current = value.clone();
            next += 1;
        }
        current.clone()
    })
}

/// A main track's joint in a joint state: named as the track, or that followed by one of
/// these.
pub const JOINT_SUFFIXES: [&str; 6] = [
    "",
    "_sprocket",
    "_sprocket_joint",
    "_wheel",
    "_wheel_joint",
    "_joint",
];

/// The topic of the odometry and where the track speeds come from: velocity commands where
/// the bag has them (then the motors can be fitted too), else joint states.
/// (A pass over the messages: a bag cut short has no summary listing them.)
fn channels(bytes: &[u8]) -> Result<(String, SpeedSource), String> {
    let stream = mcap::MessageStream::new(bytes).map_err(|e| format!("not an MCAP file ({e})"))?;
    let mut seen = std::collections::BTreeMap::new();
    for message in stream {
        let message = message
            .map_err(|e| format!("cut short: the file stops in the middle of a record ({e})"))?;
        seen.entry(message.channel.id)
            .or_insert_with(|| std::sync::Arc::clone(&message.channel));
    }
    let mut odometry = Vec::new();
    let mut commands = Vec::new();
    let mut joints = Vec::new();
    for channel in seen.values() {
        let schema = channel.schema.as_ref().map_or("", |s| s.name.as_str());
        let list = if schema == ODOMETRY {
            &mut odometry
        } else if COMMANDS.contains(&schema) {
            &mut commands
        } else if schema == JOINT_STATE {
            &mut joints
        } else {
            continue;
        };
        if channel.message_encoding != "cdr" {
            return Err(format!(
                "{} is encoded as '{}', not ROS 2's 'cdr'",
                channel.topic, channel.message_encoding
            ));
        }
        list.push((channel.topic.clone(), schema == COMMANDS[1]));
    }
    let one = |mut topics: Vec<(String, bool)>, kind: &str| match topics.len() {
        1 => Ok(topics.remove(0)),
        0 => Err(format!("no topic of type {kind} in the bag")),
        _ => {
            let mut names: Vec<String> = topics.into_iter().map(|(t, _)| t).collect();
            names.sort();
            Err(format!(
                "several topics of type {kind}: {} (keep one)",
                names.join(", ")
            ))
        }
    };
    let (odometry, _) = one(odometry, ODOMETRY)?;
    let source = if commands.is_empty() && !joints.is_empty() {
        SpeedSource::Joints {
            topic: one(joints, JOINT_STATE)?.0,
        }
    } else {
        let kinds = format!("{} (or {JOINT_STATE})", COMMANDS.join(" or "));
        let (topic, stamped) = one(commands, &kinds)?;
        SpeedSource::Commands { topic, stamped }
    };
    Ok((odometry, source))
}

/// Skips a `std_msgs/msg/Header`: stamp (sec, nanosec) and frame id.
fn skip_header(r: &mut CdrReader) -> Result<(), CdrError> {
    r.i32("header.stamp.sec")?;
    r.u32("header.stamp.nanosec")?;
    r.string("header.frame_id")?;
    Ok(())
}

/// The planar pose of a `nav_msgs/msg/Odometry`: x, y and the orientation's yaw.
fn read_odometry(data: &[u8]) -> Result<PlanarPose, String> {
    odometry_fields(data)
        .map_err(|e| e.to_string())
        .and_then(|pose| {
            if [pose.x, pose.y, pose.yaw].iter().all(|v| v.is_finite()) {
                Ok(pose)
            } else {
                Err("pose.pose: not finite".into())
            }
        })
}

/// [`read_odometry`]'s fields.
fn odometry_fields(data: &[u8]) -> Result<PlanarPose, CdrError> {
    let mut r = CdrReader::new(data)?;
    skip_header(&mut r)?;
    r.string("child_frame_id")?;
    let x = r.f64("pose.pose.position.x")?;
    let y = r.f64("pose.pose.position.y")?;
    r.f64("pose.pose.position.z")?;
    let qx = r.f64("pose.pose.orientation.x")?;
    let qy = r.f64("pose.pose.orientation.y")?;
    let qz = r.f64("pose.pose.orientation.z")?;
    let qw = r.f64("pose.pose.orientation.w")?;
    // The heading of the body's x axis projected on the floor (yaw of a z-y-x Euler set).
    let yaw = (2.0 * (qw * qz + qx * qy)).atan2(1.0 - 2.0 * (qy * qy + qz * qz));
    Ok(PlanarPose { x, y, yaw })
}

/// Each main track's measured belt speed (m/s) from a `sensor_msgs/msg/JointState`: its
/// sprocket's joint velocity (rad/s, as ROS reports a revolute joint) times the robot file's
/// sprocket radius; `None` if a track's joint is not in it.
fn read_joint_speeds(data: &[u8], spec: &RobotSpec) -> Result<Option<Vec<f64>>, String> {
    let (names, velocities) = joint_fields(data).map_err(|e| e.to_string())?;
    if velocities.len() != names.len() {
        return Err(format!(
            "{} names but {} velocities",
            names.len(),
            velocities.len()
        ));
    }
    let mut speeds = Vec::with_capacity(spec.tracks.len());
    for track in &spec.tracks {
        let joint = JOINT_SUFFIXES.iter().find_map(|suffix| {
            names
                .iter()
                .position(|n| *n == format!("{}{suffix}", track.name))
        });
        let Some(joint) = joint else {
            return Ok(None);
        };
        let speed = velocities[joint] * track.sprocket.radius;
        if !speed.is_finite() {
            return Err(format!("velocity of {}: not finite", names[joint]));
        }
        speeds.push(speed);
    }
    Ok(Some(speeds))
}

/// [`read_joint_speeds`]' fields: the joints' names and velocities.
fn joint_fields(data: &[u8]) -> Result<(Vec<String>, Vec<f64>), CdrError> {
    let mut r = CdrReader::new(data)?;
    skip_header(&mut r)?;
    let names = (0..r.count("name")?)
        .map(|_| r.string("name"))
        .collect::<Result<Vec<_>, _>>()?;
    for _ in 0..r.count("position")? {
        r.f64("position")?;
    }
    let velocities = (0..r.count("velocity")?)
        .map(|_| r.f64("velocity"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((names, velocities))
}

/// The forward speed and yaw rate of a `geometry_msgs/msg/Twist` (`stamped`: a
/// `TwistStamped`, its header first).
fn read_command(data: &[u8], stamped: bool) -> Result<Command, String> {
    let command = command_fields(data, stamped).map_err(|e| e.to_string())?;
    if command.forward.is_finite() && command.yaw_rate.is_finite() {
        Ok(command)
    } else {
        Err("twist: not finite".into())
    }
}

/// [`read_command`]'s fields.
fn command_fields(data: &[u8], stamped: bool) -> Result<Command, CdrError> {
    let mut r = CdrReader::new(data)?;
    if stamped {
        skip_header(&mut r)?;
    }
    let forward = r.f64("linear.x")?;
    r.f64("linear.y")?;
    r.f64("linear.z")?;
    r.f64("angular.x")?;
    r.f64("angular.y")?;
    let yaw_rate = r.f64("angular.z")?;
    Ok(Command { forward, yaw_rate })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::cdr::CdrWriter;
    use std::io::Cursor;

    /// Messages of a topic: log time (ns) and data.
    type Messages = Vec<(u64, Vec<u8>)>;
    /// What a test bag holds: per topic its schema, encoding and messages.
    type Topic<'a> = (&'a str, &'a str, &'a str, Messages);

    /// An MCAP file of `topics`.
    fn bag(topics: &[Topic]) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let mut writer = mcap::WriteOptions::new()
            .profile("ros2")
            .create(&mut out)
            .expect("writer");
        for (topic, schema, encoding, messages) in topics {
            let schema = writer.add_schema(schema, "ros2msg", b"").expect("schema");
            let channel = writer
                .add_channel(schema, topic, encoding, &Default::default())
                .expect("channel");
            for (k, (time, data)) in messages.iter().enumerate() {
                let header = mcap::records::MessageHeader {
                    channel_id: channel,
                    sequence: k as u32,
                    log_time: *time,
                    publish_time: *time,
                };
                writer
                    .write_to_known_channel(&header, data)
                    .expect("message");
            }
        }
        writer.finish().expect("finish");
        drop(writer);
        out.into_inner()
    }

    fn header(w: &mut CdrWriter) {
        w.i32(0);
        w.u32(0);
        w.string("odom");
    }

    /// An odometry message at `x` m along x, heading `yaw` rad.
    fn odometry(x: f64, yaw: f64) -> Vec<u8> {
        let mut w = CdrWriter::new();
        header(&mut w);
        w.string("base_link");
        for v in [x, 0.0, 0.0, 0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()] {
            w.f64(v);
        }
        for _ in 0..36 + 6 + 36 {
            w.f64(0.0);
        }
        w.finish()
    }

    /// A Twist of `forward` m/s turning at `yaw_rate` rad/s.
    fn twist(forward: f64, yaw_rate: f64) -> Vec<u8> {
        let mut w = CdrWriter::new();
        for v in [forward, 0.0, 0.0, 0.0, 0.0, yaw_rate] {
            w.f64(v);
        }
        w.finish()
    }

    fn scout() -> RobotSpec {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/robots/scout.toml");
        crate::vehicle::robot_file::load_robot(&path).expect("scout")
    }

    /// 30 odometry messages 10 ms apart from 5 s of log time on, a command after the 10th.
    fn drive() -> (Messages, Messages) {
        let start = 5_000_000_000;
        let odom = (0..30)
            .map(|k| (start + k * 10_000_000, odometry(0.01 * k as f64, 3.0)))
            .collect();
        let cmd = vec![(start + 95_000_000, twist(0.4, 0.5))];
        (odom, cmd)
    }

    #[test]
    fn odometry_and_commands_become_rows_of_poses_and_belt_speeds() {
        let (odom, cmd) = drive();
        let bytes = bag(&[
            ("/odom", ODOMETRY, "cdr", odom),
            ("/cmd_vel", COMMANDS[0], "cdr", cmd),
        ]);
        let spec = scout();
        let log = read_bag(Path::new("b.mcap"), &bytes, &spec).expect("log");
        assert_eq!(log.times.len(), 30);
        assert_eq!(log.input, TrackInput::Commanded);
        assert!((log.times[29] - 0.29).abs() < 1e-12);
        assert!((log.poses[29].x - 0.29).abs() < 1e-12 && (log.poses[0].yaw - 3.0).abs() < 1e-12);
        // The command came at 95 ms: row 9's interval (90–100 ms) has it from its middle on.
        assert!(log.speeds[8].iter().all(|&v| v == 0.0));
        for (speed, track) in log.speeds[9].iter().zip(&spec.tracks) {
            assert!((speed - (0.4 - 0.5 * track.y)).abs() < 1e-12);
        }
        assert!(
            log.speeds[9][0] < log.speeds[9][1],
            "left slower turning left"
        );
        // Recorded out of order, read in time order.
        let (mut odom, cmd) = drive();
        odom.swap(3, 17);
        let shuffled = bag(&[
            ("/odom", ODOMETRY, "cdr", odom),
            ("/cmd_vel", COMMANDS[0], "cdr", cmd),
        ]);
        assert_eq!(
            read_bag(Path::new("b.mcap"), &shuffled, &spec).expect("log"),
            log
        );
    }

    /// A joint state of `joints` (name, velocity in rad/s).
    fn joint_state(joints: &[(&str, f64)]) -> Vec<u8> {
        let mut w = CdrWriter::new();
        header(&mut w);
        w.count(joints.len());
        for (name, _) in joints {
            w.string(name);
        }
        w.count(joints.len());
        for _ in joints {
            w.f64(1.0);
        }
        w.count(joints.len());
        for (_, velocity) in joints {
            w.f64(*velocity);
        }
        w.count(0);
        w.finish()
    }

    /// Without commands the sprockets' joint states give measured belt speeds, ω·r; joint
    /// states of other joints are passed over; a bag whose joint states never name the tracks
    /// is refused, naming what it looked for.
    #[test]
    fn sprocket_joint_states_become_measured_belt_speeds() {
        let (odom, _) = drive();
        let spec = scout();
        let start = 5_000_000_000;
        let joints = vec![
            (start + 1, joint_state(&[("arm_shoulder", 3.0)])),
            (
                start + 95_000_000,
                joint_state(&[("left_sprocket_joint", 4.0), ("right", -2.0)]),
            ),
            (start + 96_000_000, joint_state(&[("arm_shoulder", 5.0)])),
        ];
        let bytes = bag(&[
            ("/odom", ODOMETRY, "cdr", odom.clone()),
            ("/joint_states", JOINT_STATE, "cdr", joints),
        ]);
        let log = read_bag(Path::new("b.mcap"), &bytes, &spec).expect("log");
        assert_eq!(log.input, TrackInput::Measured);
        assert!(log.speeds[8].iter().all(|&v| v == 0.0));
        let radius = [0, 1].map(|k| spec.tracks[k].sprocket.radius);
        assert_eq!(log.speeds[29], vec![4.0 * radius[0], -2.0 * radius[1]]);
        let arm_only = bag(&[
            ("/odom", ODOMETRY, "cdr", odom),
            (
                "/joint_states",
                JOINT_STATE,
                "cdr",
                vec![(start, joint_state(&[("arm_shoulder", 3.0)]))],
            ),
        ]);
        let e = read_bag(Path::new("b.mcap"), &arm_only, &spec).unwrap_err();
        assert!(
            e.to_string().contains(
                "no joint state on /joint_states has every main track's joint (left, right"
            ),
            "{e}"
        );
    }

    /// Bags that cannot be read name the file and say why, never panic.
    #[test]
    fn bad_bags_are_refused_with_the_reason() {
        let (odom, cmd) = drive();
        let mut short = odom.clone();
        short[12].1.truncate(40);
        let cases: Vec<(Vec<Topic>, &str)> = vec![
            (
                vec![("/cmd_vel", COMMANDS[0], "cdr", cmd.clone())],
                "no topic of type nav_msgs",
            ),
            (
                vec![("/odom", ODOMETRY, "cdr", odom.clone())],
                "no topic of type geometry_msgs/msg/Twist",
            ),
            (
                vec![
                    ("/odom", ODOMETRY, "cdr", odom.clone()),
                    ("/odom2", ODOMETRY, "cdr", odom.clone()),
                    ("/cmd_vel", COMMANDS[0], "cdr", cmd.clone()),
                ],
                "several topics of type nav_msgs/msg/Odometry: /odom, /odom2",
            ),
            (
                vec![
                    ("/odom", ODOMETRY, "json", odom.clone()),
                    ("/cmd_vel", COMMANDS[0], "cdr", cmd.clone()),
                ],
                "/odom is encoded as 'json'",
            ),
            (
                vec![
                    ("/odom", ODOMETRY, "cdr", short),
                    ("/cmd_vel", COMMANDS[0], "cdr", cmd.clone()),
                ],
                "message 12 on /odom is not a nav_msgs/msg/Odometry: the message ends",
            ),
            (
                vec![
                    ("/odom", ODOMETRY, "cdr", odom[..5].to_vec()),
                    ("/cmd_vel", COMMANDS[0], "cdr", cmd.clone()),
                ],
                "5 odometry messages on /odom, fewer than the 20",
            ),
        ];
        for (topics, want) in cases {
            let e = read_bag(Path::new("b.mcap"), &bag(&topics), &scout()).unwrap_err();
            assert!(e.to_string().contains("b.mcap"), "{e}");
            assert!(e.to_string().contains(want), "{e}\nwanted: {want}");
        }
        let whole = bag(&[
            ("/odom", ODOMETRY, "cdr", odom),
            ("/cmd_vel", COMMANDS[0], "cdr", cmd),
        ]);
        let e = read_bag(Path::new("b.mcap"), &whole[..whole.len() / 2], &scout()).unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
    }
}
