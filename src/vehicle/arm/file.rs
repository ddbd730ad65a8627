//! Reading a robot file's `[arm]` table (format in `scenes/robots/README.md`): its joints,
//! gripper and stored poses, every error located at its field.

use nalgebra::{Point3, Unit, Vector3};

use super::{
    chain_length, ArmJointSpec, ArmPose, ArmSpec, GripperSpec, JointKind, LinkSpec, MAX_ARM_JOINTS,
};
use crate::config::{ConfigError, TableReader};
use crate::vehicle::file_limits::{MAX_MASS, MAX_ROBOT_EXTENT};
use crate::vehicle::robot_file::{non_empty_str, read_camera};

/// Most stored poses an arm may have besides `stow`.
const MAX_POSES: usize = 16;
/// Largest joint torque (N·m) or force (N), or grip force (N), accepted.
const MAX_EFFORT: f64 = 1.0e6;
/// Largest joint speed accepted, deg/s or m/s.
const MAX_JOINT_SPEED_DEG: f64 = 3600.0;
const MAX_JOINT_SPEED: f64 = 20.0;
/// A finger's default closing speed, m/s (real EOD grippers close in 1–3 s).
const DEFAULT_FINGER_SPEED: f64 = 0.05;
/// Largest friction coefficient accepted for finger pads.
const MAX_PAD_FRICTION: f64 = 3.0;

/// Reads `[arm]` if the robot has one.
pub(crate) fn read_arm(root: &TableReader<'_>) -> Result<Option<ArmSpec>, ConfigError> {
    let Some(arm) = root.opt_table("arm")? else {
        return Ok(None);
    };
    let mount = Point3::from(arm.array::<3>("mount", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?);
    let tables = arm.tables("joint", MAX_ARM_JOINTS)?;
    if tables.is_empty() {
        return Err(arm.error("joint", "an arm needs at least one [[arm.joint]]"));
    }
    let mut joints: Vec<ArmJointSpec> = Vec::with_capacity(tables.len());
    for t in &tables {
        let joint = read_joint(t)?;
        if joints.iter().any(|j| j.name == joint.name) {
            return Err(t.error("name", format!("joint '{}' is defined twice", joint.name)));
        }
        joints.push(joint);
    }
    let gripper = arm
        .opt_table("gripper")?
        .ok_or_else(|| arm.error("gripper", "missing required table [arm.gripper]"))?;
    let gripper = read_gripper(&gripper)?;
    let mut poses = vec![ArmPose {
        name: "stow".into(),
        joints: joints.iter().map(|j| j.initial).collect(),
    }];
    for t in arm.tables("pose", MAX_POSES)? {
        let pose = read_pose(&t, &joints)?;
        if poses.iter().any(|p| p.name == pose.name) {
            let why = if pose.name == "stow" {
                "'stow' is the joints' initial positions (`initial_deg`), not a stored pose"
                    .to_string()
            } else {
                format!("pose '{}' is defined twice", pose.name)
            };
            return Err(t.error("name", why));
        }
        poses.push(pose);
    }
    let drive_reach = arm
        .opt_positive("drive_reach", MAX_ROBOT_EXTENT)?
        .unwrap_or(0.5 * chain_length(&joints, &gripper));
    arm.finish()?;
    Ok(Some(ArmSpec {
        mount,
        joints,
        gripper,
        poses,
        drive_reach,
    }))
}

/// One `[[arm.joint]]`.
fn read_joint(t: &TableReader<'_>) -> Result<ArmJointSpec, ConfigError> {
    let name = non_empty_str(t, "name")?;
    let kind = match t.opt_str("type")?.as_deref() {
        None | Some("revolute") => JointKind::Revolute,
        Some("prismatic") => JointKind::Prismatic,
        Some(other) => {
            return Err(t.error(
                "type",
                format!("unknown joint type '{other}' (revolute or prismatic)"),
            ))
        }
    };
    let axis = read_axis(t)?;
    let (min, max, max_speed, max_effort, initial) = match kind {
        JointKind::Revolute => {
            let min = t.f64("min_deg", -180.0, 180.0)?;
            let max = t.f64("max_deg", -180.0, 180.0)?;
            let speed = t.positive("max_speed_deg", MAX_JOINT_SPEED_DEG)?;
            let effort = t.positive("max_torque", MAX_EFFORT)?;
            let initial = t.opt_f64("initial_deg", -180.0, 180.0)?.unwrap_or(0.0);
            check_range(t, ("min_deg", "max_deg", "initial_deg"), min, max, initial)?;
            let rad = f64::to_radians;
            (rad(min), rad(max), rad(speed), effort, rad(initial))
        }
        JointKind::Prismatic => {
            let min = t.f64("min", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
            let max = t.f64("max", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
            let speed = t.positive("max_speed", MAX_JOINT_SPEED)?;
            let effort = t.positive("max_force", MAX_EFFORT)?;
            let initial = t
                .opt_f64("initial", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?
                .unwrap_or(min.max(0.0).min(max));
            check_range(t, ("min", "max", "initial"), min, max, initial)?;
            (min, max, speed, effort, initial)
        }
    };
    let link = t
        .opt_table("link")?
        .ok_or_else(|| t.error("link", "missing required table `link`"))?;
    let link_spec = LinkSpec {
        end: Vector3::from(link.array::<3>("end", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?),
        radius: link.positive("radius", MAX_ROBOT_EXTENT)?,
        mass: link.positive("mass", MAX_MASS)?,
    };
    link.finish()?;
    t.finish()?;
    Ok(ArmJointSpec {
        name,
        kind,
        axis,
        min,
        max,
        max_speed,
        max_effort,
        initial,
        link: link_spec,
    })
}

/// `axis = "x" | "y" | "z" | "-x" | …` or `axis = [x, y, z]` (not zero).
fn read_axis(t: &TableReader<'_>) -> Result<Unit<Vector3<f64>>, ConfigError> {
    let v = if t.is_array("axis") {
        Vector3::from(t.array::<3>("axis", -1.0e3, 1.0e3)?)
    } else {
        match t.str("axis")?.as_str() {
            "x" => Vector3::x(),
            "y" => Vector3::y(),
            "z" => Vector3::z(),
            "-x" => -Vector3::x(),
            "-y" => -Vector3::y(),
            "-z" => -Vector3::z(),
            other => {
                return Err(t.error(
                    "axis",
                    format!("unknown axis '{other}': x, y, z, -x, -y, -z or [x, y, z]"),
                ))
            }
        }
    };
    if v.norm() < 1e-9 {
        return Err(t.error("axis", "the axis must not be zero"));
    }
    Ok(Unit::new_normalize(v))
}

/// `min < max` and `min ≤ initial ≤ max`, located at the field at fault.
fn check_range(
    t: &TableReader<'_>,
    (min_key, max_key, initial_key): (&str, &str, &str),
    min: f64,
    max: f64,
    initial: f64,
) -> Result<(), ConfigError> {
    if max <= min {
        return Err(t.error(max_key, format!("must be greater than {min_key} ({min})")));
    }
    if initial < min || initial > max {
        return Err(t.error(
            initial_key,
            format!("{initial} is outside [{min_key}, {max_key}] = [{min}, {max}]"),
        ));
    }
    Ok(())
}

/// `[arm.gripper]` and its optional `camera`.
fn read_gripper(t: &TableReader<'_>) -> Result<GripperSpec, ConfigError> {
    let camera = match t.opt_table("camera")? {
        Some(c) => Some(read_camera(&c, Some("gripper"))?),
        None => None,
    };
    let gripper = GripperSpec {
        palm_length: t.positive("palm_length", MAX_ROBOT_EXTENT)?,
        palm_mass: t.positive("palm_mass", MAX_MASS)?,
        opening: t.positive("opening", MAX_ROBOT_EXTENT)?,
        max_force: t.positive("max_force", MAX_EFFORT)?,
        finger_speed: t
            .opt_positive("finger_speed", MAX_JOINT_SPEED)?
            .unwrap_or(DEFAULT_FINGER_SPEED),
        friction: t.f64("friction", 0.0, MAX_PAD_FRICTION)?,
        pad: t.positive_array::<2>("pad", MAX_ROBOT_EXTENT)?,
        finger_mass: t.positive("finger_mass", MAX_MASS)?,
        camera,
    };
    t.finish()?;
    Ok(gripper)
}

/// One `[[arm.pose]]`: a name and a position per joint (degrees for revolute joints, metres
/// for prismatic ones), each within its joint's limits.
fn read_pose(t: &TableReader<'_>, joints: &[ArmJointSpec]) -> Result<ArmPose, ConfigError> {
    let name = non_empty_str(t, "name")?;
    let values = t.numbers("positions", MAX_ARM_JOINTS, -1.0e6, 1.0e6)?;
    if values.len() != joints.len() {
        return Err(t.error(
            "positions",
            format!(
                "{} positions for {} joints: give one per joint, in joint order",
                values.len(),
                joints.len()
            ),
        ));
    }
    let mut positions = Vec::with_capacity(joints.len());
    for (value, joint) in values.iter().zip(joints) {
        let q = match joint.kind {
            JointKind::Revolute => value.to_radians(),
            JointKind::Prismatic => *value,
        };
        if q < joint.min - 1e-9 || q > joint.max + 1e-9 {
            return Err(t.error(
                "positions",
                format!("{value} for joint '{}' is outside its limits", joint.name),
            ));
        }
        positions.push(q);
    }
    t.finish()?;
    Ok(ArmPose {
        name,
        joints: positions,
    })
}
