//! The ROS 2 messages treadsim publishes and subscribes, and their CDR encoding (field order as
//! in [`super::types`]; REP-103 units: m, rad, s; a quaternion `x, y, z, w`).

use crate::record::cdr::{CdrError, CdrReader, CdrWriter};

/// A ROS time (`builtin_interfaces/msg/Time`): whole seconds and nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    /// Seconds.
    pub sec: i32,
    /// Nanoseconds, 0..1e9.
    pub nanosec: u32,
}

impl Stamp {
    /// The time `seconds` s (since the Unix epoch, or since the start with simulated time).
    pub fn of_seconds(seconds: f64) -> Self {
        let seconds = seconds.max(0.0);
        let whole = seconds.floor();
        let nanosec = (((seconds - whole) * 1e9).round() as u32).min(999_999_999);
        Self {
            sec: whole.min(f64::from(i32::MAX)) as i32,
            nanosec,
        }
    }

    fn write(&self, w: &mut CdrWriter) {
        w.i32(self.sec);
        w.u32(self.nanosec);
    }
}

/// A `std_msgs/msg/Header`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header {
    /// When.
    pub stamp: Stamp,
    /// The frame the data is in.
    pub frame_id: String,
}

impl Header {
    fn write(&self, w: &mut CdrWriter) {
        self.stamp.write(w);
        w.string(&self.frame_id);
    }

    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        Ok(Self {
            stamp: Stamp {
                sec: r.i32("header.stamp.sec")?,
                nanosec: r.u32("header.stamp.nanosec")?,
            },
            frame_id: r.string("header.frame_id")?,
        })
    }
}

fn vector(w: &mut CdrWriter, v: &[f64; 3]) {
    for x in v {
        w.f64(*x);
    }
}

fn quaternion(w: &mut CdrWriter, q: &[f64; 4]) {
    for x in q {
        w.f64(*x);
    }
}

fn read_vector(r: &mut CdrReader<'_>, field: &'static str) -> Result<[f64; 3], CdrError> {
    Ok([r.f64(field)?, r.f64(field)?, r.f64(field)?])
}

/// A `geometry_msgs/msg/Twist`: linear (m/s) and angular (rad/s) velocity.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Twist {
    /// Linear velocity, m/s.
    pub linear: [f64; 3],
    /// Angular velocity, rad/s.
    pub angular: [f64; 3],
}

impl Twist {
    /// Reads one from a CDR message.
    pub fn decode(message: &[u8]) -> Result<Self, CdrError> {
        let mut r = CdrReader::new(message)?;
        Ok(Self {
            linear: read_vector(&mut r, "linear")?,
            angular: read_vector(&mut r, "angular")?,
        })
    }

    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        vector(&mut w, &self.linear);
        vector(&mut w, &self.angular);
        w.finish()
    }
}

/// Reads a `std_msgs/msg/Float64`.
pub fn decode_float64(message: &[u8]) -> Result<f64, CdrError> {
    CdrReader::new(message)?.f64("data")
}

/// A `std_msgs/msg/Float64` message.
pub fn encode_float64(data: f64) -> Vec<u8> {
    let mut w = CdrWriter::new();
    w.f64(data);
    w.finish()
}

/// Reads a `std_msgs/msg/Bool`.
pub fn decode_bool(message: &[u8]) -> Result<bool, CdrError> {
    CdrReader::new(message)?.bool("data")
}

/// A `nav_msgs/msg/Odometry`: the pose in `header.frame_id`, the twist in `child_frame_id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Odometry {
    /// Stamp and the pose's frame (`odom`).
    pub header: Header,
    /// The body's frame (`base_link`), in which the twist is given.
    pub child_frame_id: String,
    /// Position, m.
    pub position: [f64; 3],
    /// Orientation, quaternion `x, y, z, w`.
    pub orientation: [f64; 4],
    /// Pose covariance (x, y, z, roll, pitch, yaw), row-major.
    pub pose_covariance: [f64; 36],
    /// Linear velocity, m/s, child frame.
    pub linear: [f64; 3],
    /// Angular velocity, rad/s, child frame.
    pub angular: [f64; 3],
    /// Twist covariance, row-major.
    pub twist_covariance: [f64; 36],
}

impl Default for Odometry {
    fn default() -> Self {
        Self {
            header: Header::default(),
            child_frame_id: String::new(),
            position: [0.0; 3],
            orientation: [0.0, 0.0, 0.0, 1.0],
            pose_covariance: [0.0; 36],
            linear: [0.0; 3],
            angular: [0.0; 3],
            twist_covariance: [0.0; 36],
        }
    }
}

impl Odometry {
    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        w.string(&self.child_frame_id);
        vector(&mut w, &self.position);
        quaternion(&mut w, &self.orientation);
        for c in &self.pose_covariance {
            w.f64(*c);
        }
        vector(&mut w, &self.linear);
        vector(&mut w, &self.angular);
        for c in &self.twist_covariance {
            w.f64(*c);
        }
        w.finish()
    }
}

/// A `sensor_msgs/msg/Imu`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Imu {
    /// Stamp and the sensor's frame.
    pub header: Header,
    /// Orientation, quaternion `x, y, z, w`, against the fixed frame.
    pub orientation: [f64; 4],
    /// Orientation covariance, row-major.
    pub orientation_covariance: [f64; 9],
    /// Angular velocity, rad/s, sensor frame.
    pub angular_velocity: [f64; 3],
    /// Its covariance.
    pub angular_velocity_covariance: [f64; 9],
    /// Specific force (acceleration less gravity: 9.81 m/s² up at rest), m/s², sensor frame.
    pub linear_acceleration: [f64; 3],
    /// Its covariance.
    pub linear_acceleration_covariance: [f64; 9],
}

impl Imu {
    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        quaternion(&mut w, &self.orientation);
        for c in &self.orientation_covariance {
            w.f64(*c);
        }
        vector(&mut w, &self.angular_velocity);
        for c in &self.angular_velocity_covariance {
            w.f64(*c);
        }
        vector(&mut w, &self.linear_acceleration);
        for c in &self.linear_acceleration_covariance {
            w.f64(*c);
        }
        w.finish()
    }
}

/// A `sensor_msgs/msg/JointState`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointState {
    /// Stamp.
    pub header: Header,
    /// Joint names.
    pub name: Vec<String>,
    /// Positions, rad or m.
    pub position: Vec<f64>,
    /// Velocities, rad/s or m/s.
    pub velocity: Vec<f64>,
    /// Efforts, N·m or N.
    pub effort: Vec<f64>,
}

impl JointState {
    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        w.count(self.name.len());
        for n in &self.name {
            w.string(n);
        }
        for list in [&self.position, &self.velocity, &self.effort] {
            w.count(list.len());
            for x in list {
                w.f64(*x);
            }
        }
        w.finish()
    }
}

/// A `trajectory_msgs/msg/JointTrajectory`: joints by name and the points to pass through.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointTrajectory {
    /// Stamp.
    pub header: Header,
    /// The joints the points give values for, in their order.
    pub joint_names: Vec<String>,
    /// The points, in time order.
    pub points: Vec<TrajectoryPoint>,
}

/// A `trajectory_msgs/msg/JointTrajectoryPoint`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrajectoryPoint {
    /// Positions, rad or m (empty or one per joint).
    pub positions: Vec<f64>,
    /// Velocities, rad/s or m/s (empty or one per joint).
    pub velocities: Vec<f64>,
    /// Accelerations (read, not used).
    pub accelerations: Vec<f64>,
    /// Efforts (read, not used).
    pub effort: Vec<f64>,
    /// When the point is to be reached after the trajectory's start, s.
    pub time_from_start: f64,
}

fn read_f64s(r: &mut CdrReader<'_>, field: &'static str) -> Result<Vec<f64>, CdrError> {
    let n = r.count(field)?;
    (0..n).map(|_| r.f64(field)).collect()
}

impl JointTrajectory {
    /// Reads one from a CDR message.
    pub fn decode(message: &[u8]) -> Result<Self, CdrError> {
        let mut r = CdrReader::new(message)?;
        let header = Header::read(&mut r)?;
        let n = r.count("joint_names")?;
        let joint_names = (0..n)
            .map(|_| r.string("joint_names"))
            .collect::<Result<_, _>>()?;
        let n = r.count("points")?;
        let mut points = Vec::with_capacity(n.min(64));
        for _ in 0..n {
            let positions = read_f64s(&mut r, "positions")?;
            let velocities = read_f64s(&mut r, "velocities")?;
            let accelerations = read_f64s(&mut r, "accelerations")?;
            let effort = read_f64s(&mut r, "effort")?;
            let sec = r.i32("time_from_start")?;
            let nanosec = r.u32("time_from_start")?;
            points.push(TrajectoryPoint {
                positions,
                velocities,
                accelerations,
                effort,
                time_from_start: f64::from(sec) + 1e-9 * f64::from(nanosec),
            });
        }
        Ok(Self {
            header,
            joint_names,
            points,
        })
    }

    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        w.count(self.joint_names.len());
        for n in &self.joint_names {
            w.string(n);
        }
        w.count(self.points.len());
        for p in &self.points {
            for list in [&p.positions, &p.velocities, &p.accelerations, &p.effort] {
                w.count(list.len());
                for x in list {
                    w.f64(*x);
                }
            }
            let sec = p.time_from_start.floor();
            w.i32(sec as i32);
            w.u32(((p.time_from_start - sec) * 1e9).round() as u32);
        }
        w.finish()
    }
}

/// How a [`DiagnosticStatus`] stands (`diagnostic_msgs/msg/DiagnosticStatus`'s levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiagnosticLevel {
    /// `OK` (0).
    #[default]
    Ok = 0,
    /// `WARN` (1).
    Warn = 1,
    /// `ERROR` (2).
    Error = 2,
    /// `STALE` (3).
    Stale = 3,
}

/// A `diagnostic_msgs/msg/DiagnosticStatus`: one part's state, its message and its values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiagnosticStatus {
    /// How it stands.
    pub level: DiagnosticLevel,
    /// The part, e.g. `treadsim: exercise`.
    pub name: String,
    /// One line for people.
    pub message: String,
    /// What it is (the robot's or the exercise's name).
    pub hardware_id: String,
    /// Named values, as text.
    pub values: Vec<(String, String)>,
}

/// A `diagnostic_msgs/msg/DiagnosticArray`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiagnosticArray {
    /// Stamp.
    pub header: Header,
    /// Each part's state.
    pub status: Vec<DiagnosticStatus>,
}

impl DiagnosticArray {
    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        w.count(self.status.len());
        for s in &self.status {
            w.u8(s.level as u8);
            w.string(&s.name);
            w.string(&s.message);
            w.string(&s.hardware_id);
            w.count(s.values.len());
            for (key, value) in &s.values {
                w.string(key);
                w.string(value);
            }
        }
        w.finish()
    }
}

/// A `geometry_msgs/msg/TransformStamped`: the child frame's pose in the header's frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransformStamped {
    /// Stamp and the parent frame.
    pub header: Header,
    /// The child frame.
    pub child_frame_id: String,
    /// Translation, m.
    pub translation: [f64; 3],
    /// Rotation, quaternion `x, y, z, w`.
    pub rotation: [f64; 4],
}

/// A `tf2_msgs/msg/TFMessage` message of `transforms`.
pub fn encode_tf(transforms: &[TransformStamped]) -> Vec<u8> {
    let mut w = CdrWriter::new();
    w.count(transforms.len());
    for t in transforms {
        t.header.write(&mut w);
        w.string(&t.child_frame_id);
        vector(&mut w, &t.translation);
        quaternion(&mut w, &t.rotation);
    }
    w.finish()
}

/// A `sensor_msgs/msg/CompressedImage`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressedImage<'a> {
    /// Capture stamp and the camera's optical frame.
    pub header: Header,
    /// `jpeg` or `png`.
    pub format: String,
    /// The compressed picture.
    pub data: &'a [u8],
}

impl CompressedImage<'_> {
    /// As a CDR message.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::new();
        self.header.write(&mut w);
        w.string(&self.format);
        w.bytes(self.data);
        w.finish()
    }
}

/// A `rosgraph_msgs/msg/Clock` message.
pub fn encode_clock(clock: Stamp) -> Vec<u8> {
    let mut w = CdrWriter::new();
    clock.write(&mut w);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twist_reads_back_and_stamps_split_seconds() {
        let t = Twist {
            linear: [0.3, 0.0, 0.0],
            angular: [0.0, 0.0, -0.5],
        };
        let m = t.encode();
        assert_eq!(m.len(), 4 + 48);
        assert_eq!(Twist::decode(&m).unwrap(), t);
        assert!(Twist::decode(&m[..40]).is_err());
        let s = Stamp::of_seconds(12.25);
        assert_eq!((s.sec, s.nanosec), (12, 250_000_000));
        assert_eq!(decode_float64(&encode_float64(-0.5)).unwrap(), -0.5);
    }

    #[test]
    fn odometry_is_laid_out_field_by_field() {
        let o = Odometry {
            header: Header {
                stamp: Stamp { sec: 1, nanosec: 2 },
                frame_id: "odom".into(),
            },
            child_frame_id: "base_link".into(),
            orientation: [0.0, 0.0, 0.0, 1.0],
            ..Odometry::default()
        };
        let m = o.encode();
        // 8 stamp + 4+5 "odom" + pad 3 + 4+10 "base_link" + pad 6 (to 8) = 40, then 7 + 36 + 6
        // + 36 doubles.
        assert_eq!(m.len(), 4 + 40 + 8 * (7 + 36 + 6 + 36));
    }
}
