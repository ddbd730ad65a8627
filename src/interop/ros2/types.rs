//! The ROS 2 message types treadsim speaks, described as ROS describes them (REP-2011 type
//! descriptions: each field's name, type id, array capacity and nested type), and their RIHS01
//! type hashes computed from those descriptions the way `rosidl` does (`RIHS01_` and the
//! SHA-256 of the description and its referenced types as JSON, with Python's `json.dumps`
//! separators). The fields are those of ROS 2 Jazzy's `common_interfaces` and
//! `rcl_interfaces` (`builtin_interfaces`, `std_msgs`, `geometry_msgs`, `nav_msgs`,
//! `sensor_msgs`, `tf2_msgs`, `rosgraph_msgs`, `diagnostic_msgs`,
//! `trajectory_msgs`); unit tests check the hashes against the ones
//! the `rosbags` package computes independently.

use crate::record::header::sha256_hex;

/// A field's element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Another message type, by its full name (`pkg/msg/Name`).
    Nested(&'static str),
    /// `bool`.
    Bool,
    /// `byte` (an octet).
    Byte,
    /// `uint8`.
    Uint8,
    /// `int32`.
    Int32,
    /// `uint32`.
    Uint32,
    /// `float64`.
    Float64,
    /// `string` (unbounded).
    String,
}

impl Kind {
    /// REP-2011's type id of one element.
    fn type_id(self) -> u32 {
        match self {
            Kind::Nested(_) => 1,
            Kind::Byte => 16,
            Kind::Uint8 => 3,
            Kind::Int32 => 6,
            Kind::Uint32 => 7,
            Kind::Float64 => 11,
            Kind::Bool => 15,
            Kind::String => 17,
        }
    }
}

/// One, a fixed array, or an unbounded sequence of a [`Kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One value.
    One,
    /// A fixed array of this many.
    Array(u32),
    /// An unbounded sequence.
    Sequence,
}

/// A field of a message type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Its name.
    pub name: &'static str,
    /// Its element type.
    pub kind: Kind,
    /// One, array or sequence.
    pub shape: Shape,
}

/// A message type: its full name and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageType {
    /// `pkg/msg/Name`.
    pub name: &'static str,
    /// Fields in order.
    pub fields: &'static [Field],
}

const fn one(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        shape: Shape::One,
    }
}

const fn array(name: &'static str, kind: Kind, n: u32) -> Field {
    Field {
        name,
        kind,
        shape: Shape::Array(n),
    }
}

const fn sequence(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        shape: Shape::Sequence,
    }
}

const TIME: &str = "builtin_interfaces/msg/Time";
const HEADER: &str = "std_msgs/msg/Header";
const VECTOR3: &str = "geometry_msgs/msg/Vector3";
const POINT: &str = "geometry_msgs/msg/Point";
const QUATERNION: &str = "geometry_msgs/msg/Quaternion";
const POSE: &str = "geometry_msgs/msg/Pose";
const POSE_COV: &str = "geometry_msgs/msg/PoseWithCovariance";
const TWIST_COV: &str = "geometry_msgs/msg/TwistWithCovariance";
const TRANSFORM: &str = "geometry_msgs/msg/Transform";
const TRANSFORM_STAMPED: &str = "geometry_msgs/msg/TransformStamped";

/// `geometry_msgs/msg/Twist`.
pub const TWIST: &str = "geometry_msgs/msg/Twist";
/// `std_msgs/msg/Float64`.
pub const FLOAT64: &str = "std_msgs/msg/Float64";
/// `std_msgs/msg/Bool`.
pub const BOOL: &str = "std_msgs/msg/Bool";
/// `nav_msgs/msg/Odometry`.
pub const ODOMETRY: &str = "nav_msgs/msg/Odometry";
/// `sensor_msgs/msg/Imu`.
pub const IMU: &str = "sensor_msgs/msg/Imu";
/// `sensor_msgs/msg/JointState`.
pub const JOINT_STATE: &str = "sensor_msgs/msg/JointState";
/// `tf2_msgs/msg/TFMessage`.
pub const TF_MESSAGE: &str = "tf2_msgs/msg/TFMessage";
/// `rosgraph_msgs/msg/Clock`.
pub const CLOCK: &str = "rosgraph_msgs/msg/Clock";
/// `sensor_msgs/msg/CompressedImage`.
pub const COMPRESSED_IMAGE: &str = "sensor_msgs/msg/CompressedImage";
/// `trajectory_msgs/msg/JointTrajectory`.
pub const JOINT_TRAJECTORY: &str = "trajectory_msgs/msg/JointTrajectory";
const JOINT_TRAJECTORY_POINT: &str = "trajectory_msgs/msg/JointTrajectoryPoint";
const DURATION: &str = "builtin_interfaces/msg/Duration";
/// `diagnostic_msgs/msg/DiagnosticArray`.
pub const DIAGNOSTIC_ARRAY: &str = "diagnostic_msgs/msg/DiagnosticArray";
const DIAGNOSTIC_STATUS: &str = "diagnostic_msgs/msg/DiagnosticStatus";
const KEY_VALUE: &str = "diagnostic_msgs/msg/KeyValue";

const F64: Kind = Kind::Float64;

/// Every message type treadsim knows, with the ones they nest.
pub const TYPES: &[MessageType] = &[
    MessageType {
        name: TIME,
        fields: &[one("sec", Kind::Int32), one("nanosec", Kind::Uint32)],
    },
    MessageType {
        name: HEADER,
        fields: &[
            one("stamp", Kind::Nested(TIME)),
            one("frame_id", Kind::String),
        ],
    },
    MessageType {
        name: VECTOR3,
        fields: &[one("x", F64), one("y", F64), one("z", F64)],
    },
    MessageType {
        name: POINT,
        fields: &[one("x", F64), one("y", F64), one("z", F64)],
    },
    MessageType {
        name: QUATERNION,
        fields: &[one("x", F64), one("y", F64), one("z", F64), one("w", F64)],
    },
    MessageType {
        name: POSE,
        fields: &[
            one("position", Kind::Nested(POINT)),
            one("orientation", Kind::Nested(QUATERNION)),
        ],
    },
    MessageType {
        name: POSE_COV,
        fields: &[
            one("pose", Kind::Nested(POSE)),
            array("covariance", F64, 36),
        ],
    },
    MessageType {
        name: TWIST,
        fields: &[
            one("linear", Kind::Nested(VECTOR3)),
            one("angular", Kind::Nested(VECTOR3)),
        ],
    },
    MessageType {
        name: TWIST_COV,
        fields: &[
            one("twist", Kind::Nested(TWIST)),
            array("covariance", F64, 36),
        ],
    },
    MessageType {
        name: ODOMETRY,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            one("child_frame_id", Kind::String),
            one("pose", Kind::Nested(POSE_COV)),
            one("twist", Kind::Nested(TWIST_COV)),
        ],
    },
    MessageType {
        name: IMU,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            one("orientation", Kind::Nested(QUATERNION)),
            array("orientation_covariance", F64, 9),
            one("angular_velocity", Kind::Nested(VECTOR3)),
            array("angular_velocity_covariance", F64, 9),
            one("linear_acceleration", Kind::Nested(VECTOR3)),
            array("linear_acceleration_covariance", F64, 9),
        ],
    },
    MessageType {
        name: JOINT_STATE,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            sequence("name", Kind::String),
            sequence("position", F64),
            sequence("velocity", F64),
            sequence("effort", F64),
        ],
    },
    MessageType {
        name: TRANSFORM,
        fields: &[
            one("translation", Kind::Nested(VECTOR3)),
            one("rotation", Kind::Nested(QUATERNION)),
        ],
    },
    MessageType {
        name: TRANSFORM_STAMPED,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            one("child_frame_id", Kind::String),
            one("transform", Kind::Nested(TRANSFORM)),
        ],
    },
    MessageType {
        name: TF_MESSAGE,
        fields: &[sequence("transforms", Kind::Nested(TRANSFORM_STAMPED))],
    },
    MessageType {
        name: CLOCK,
        fields: &[one("clock", Kind::Nested(TIME))],
    },
    MessageType {
        name: FLOAT64,
        fields: &[one("data", F64)],
    },
    MessageType {
        name: BOOL,
        fields: &[one("data", Kind::Bool)],
    },
    MessageType {
        name: COMPRESSED_IMAGE,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            one("format", Kind::String),
            sequence("data", Kind::Uint8),
        ],
    },
    MessageType {
        name: DURATION,
        fields: &[one("sec", Kind::Int32), one("nanosec", Kind::Uint32)],
    },
    MessageType {
        name: JOINT_TRAJECTORY_POINT,
        fields: &[
            sequence("positions", F64),
            sequence("velocities", F64),
            sequence("accelerations", F64),
            sequence("effort", F64),
            one("time_from_start", Kind::Nested(DURATION)),
        ],
    },
    MessageType {
        name: JOINT_TRAJECTORY,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            sequence("joint_names", Kind::String),
            sequence("points", Kind::Nested(JOINT_TRAJECTORY_POINT)),
        ],
    },
    MessageType {
        name: KEY_VALUE,
        fields: &[one("key", Kind::String), one("value", Kind::String)],
    },
    // Its level constants (OK 0, WARN 1, ERROR 2, STALE 3) are not part of the description.
    MessageType {
        name: DIAGNOSTIC_STATUS,
        fields: &[
            one("level", Kind::Byte),
            one("name", Kind::String),
            one("message", Kind::String),
            one("hardware_id", Kind::String),
            sequence("values", Kind::Nested(KEY_VALUE)),
        ],
    },
    MessageType {
        name: DIAGNOSTIC_ARRAY,
        fields: &[
            one("header", Kind::Nested(HEADER)),
            sequence("status", Kind::Nested(DIAGNOSTIC_STATUS)),
        ],
    },
];

/// The type named `name`, if known.
pub fn find(name: &str) -> Option<&'static MessageType> {
    TYPES.iter().find(|t| t.name == name)
}

/// A type's name as DDS and rmw_zenoh's key expressions spell it:
/// `geometry_msgs/msg/Twist` → `geometry_msgs::msg::dds_::Twist_`.
pub fn dds_name(name: &str) -> String {
    match name.rsplit_once('/') {
        Some((package, short)) => format!("{}::dds_::{short}_", package.replace('/', "::")),
        None => format!("{name}_"),
    }
}

/// A field as REP-2011's JSON writes it.
fn field_json(field: &Field) -> String {
    let (offset, capacity) = match field.shape {
        Shape::One => (0, 0),
        Shape::Array(n) => (48, n),
        Shape::Sequence => (144, 0),
    };
    let nested = match field.kind {
        Kind::Nested(name) => name,
        _ => "",
    };
    format!(
        "{{\"name\": \"{}\", \"type\": {{\"type_id\": {}, \"capacity\": {capacity}, \
         \"string_capacity\": 0, \"nested_type_name\": \"{nested}\"}}}}",
        field.name,
        offset + field.kind.type_id()
    )
}

/// A type description as REP-2011's JSON writes it.
fn description_json(t: &MessageType) -> String {
    let fields: Vec<String> = t.fields.iter().map(field_json).collect();
    format!(
        "{{\"type_name\": \"{}\", \"fields\": [{}]}}",
        t.name,
        fields.join(", ")
    )
}

/// The types `t` nests, transitively, by name (sorted, each once).
fn referenced(t: &MessageType, into: &mut std::collections::BTreeSet<&'static str>) {
    for field in t.fields {
        if let Kind::Nested(name) = field.kind {
            if into.insert(name) {
                if let Some(nested) = find(name) {
                    referenced(nested, into);
                }
            }
        }
    }
}

/// The RIHS01 hash of type `name` (`RIHS01_` and 64 hex digits), or `None` for a type this
/// table lacks (or one that nests such a type).
pub fn type_hash(name: &str) -> Option<String> {
    let t = find(name)?;
    let mut names = std::collections::BTreeSet::new();
    referenced(t, &mut names);
    let mut refs = Vec::with_capacity(names.len());
    for n in names {
        refs.push(description_json(find(n)?));
    }
    let json = format!(
        "{{\"type_description\": {}, \"referenced_type_descriptions\": [{}]}}",
        description_json(t),
        refs.join(", ")
    );
    Some(format!("RIHS01_{}", sha256_hex(json.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hashes the `rosbags` package (0.11.9, its ROS 2 Jazzy type store) computes for these
    /// types (`Typestore.hash_rihs01`): an implementation we did not write.
    const ROSBAGS: &[(&str, &str)] = &[
        (
            TWIST,
            "9c45bf16fe0983d80e3cfe750d6835843d265a9a6c46bd2e609fcddde6fb8d2a",
        ),
        (
            FLOAT64,
            "705ba9c3d1a09df43737eb67095534de36fd426c0587779bda2bc51fe790182a",
        ),
        (
            ODOMETRY,
            "3cc97dc7fb7502f8714462c526d369e35b603cfc34d946e3f2eda2766dfec6e0",
        ),
        (
            IMU,
            "7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b",
        ),
        (
            JOINT_STATE,
            "a13ee3a330e346c9d87b5aa18d24e11690752bd33a0350f11c5882bc9179260e",
        ),
        (
            TF_MESSAGE,
            "e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
        ),
        (
            CLOCK,
            "692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564",
        ),
        (
            COMPRESSED_IMAGE,
            "15640771531571185e2efc8a100baf923961a4d15d5569652e6cb6691e8e371a",
        ),
        (
            JOINT_TRAJECTORY,
            "179b33eba59d676f6d967ac71fe35e7ca2f64b2f3928f4a018cec115e213796e",
        ),
        (
            JOINT_TRAJECTORY_POINT,
            "de8907036d8bd45aac6f30cc9044a3d4a329c42cbf719aff7d95a584cfa532d7",
        ),
        (
            DURATION,
            "e8d009f659816f758b75334ee1a9ca5b5c0b859843261f14c7f937349599d93b",
        ),
        (
            DIAGNOSTIC_ARRAY,
            "5a8a36efb05fb25070fa0fb3810290c0e6cd4862b54a8fb975a1ee8dc55a333e",
        ),
        (
            DIAGNOSTIC_STATUS,
            "b0e3e692ea2d54a8af2f4ef1930e81556a2db55216b771f8a7d2724ed47bf0e4",
        ),
        (
            KEY_VALUE,
            "d68081eaa540288c5440753baecef0c4e16e81a5f78ad68902ded5100413bb42",
        ),
    ];

    #[test]
    fn type_hashes_agree_with_an_independent_implementation() {
        for (name, expected) in ROSBAGS {
            assert_eq!(
                type_hash(name).as_deref(),
                Some(format!("RIHS01_{expected}").as_str()),
                "{name}"
            );
        }
        assert_eq!(type_hash("pkg/msg/Unknown"), None);
    }

    #[test]
    fn dds_names_are_mangled_as_rmw_zenoh_expects() {
        assert_eq!(dds_name(TWIST), "geometry_msgs::msg::dds_::Twist_");
        assert_eq!(dds_name(TF_MESSAGE), "tf2_msgs::msg::dds_::TFMessage_");
    }
}
