//! Manipulator arms: what a robot file's `[arm]` describes ([`ArmSpec`]), what the operator
//! or a script asks of an arm ([`ArmCommand`]), and the arm's kinematics (`kinematics.rs`).
//!
//! An arm is a serial chain of joints from a mount point on the hull, ending in a two-finger
//! gripper. Frames (DESIGN.md: body frame x forward, y left, z up):
//! - **Link frames.** Link `j`'s frame has its origin on joint `j`'s axis. With every joint at
//!   zero, every link frame is parallel to the body frame: joint 0 sits at [`ArmSpec::mount`]
//!   (body frame) and joint `j + 1` at link `j`'s [`LinkSpec::end`] (link `j`'s frame). A
//!   revolute joint turns its link about [`ArmJointSpec::axis`] by the joint angle
//!   (right-handed: about y, a positive angle points x downwards, as a camera's positive
//!   pitch looks down); a prismatic joint slides it along the axis.
//! - **Gripper frame.** At the last link's end, parallel to the last link's frame: the palm
//!   reaches along its x by [`GripperSpec::palm_length`], the fingers close along its y, and
//!   the tool point is between the finger pads' centres.
//!
//! The simulation builds the chain as rapier bodies on impulse joints (`sim/arm.rs`); this
//! module is the pure description and geometry, shared by the simulation, the controller,
//! the envelope and the HUD.

mod file;
pub mod kinematics;

pub(crate) use file::read_arm;

use nalgebra::{Point3, Unit, Vector3};

use super::spec::CameraSpec;

/// Most joints an arm may have (not counting the gripper's fingers).
pub const MAX_ARM_JOINTS: usize = 8;

/// How a joint moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// Turns about its axis; position in rad, speed in rad/s, effort in N·m.
    Revolute,
    /// Slides along its axis; position in m, speed in m/s, effort in N.
    Prismatic,
}

/// One link of the arm: a capsule from its joint to the next joint.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkSpec {
    /// The next joint's (or the gripper's) origin, m, this link's frame. The link's collision
    /// shape is the capsule from its origin to here.
    pub end: Vector3<f64>,
    /// Capsule radius, m.
    pub radius: f64,
    /// Mass, kg, spread over the capsule (a solid capsule's inertia).
    pub mass: f64,
}

/// One joint of the arm and the link it moves.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmJointSpec {
    /// Name shown on the HUD and in logs.
    pub name: String,
    /// Revolute or prismatic.
    pub kind: JointKind,
    /// Axis, unit, in the parent's frame (equal to this link's frame at zero).
    pub axis: Unit<Vector3<f64>>,
    /// Lowest position, rad or m.
    pub min: f64,
    /// Highest position, rad or m.
    pub max: f64,
    /// Fastest speed, rad/s or m/s.
    pub max_speed: f64,
    /// Largest torque (revolute, N·m) or force (prismatic, N) its motor gives; a load that
    /// needs more makes the joint sag or stall.
    pub max_effort: f64,
    /// Position at start and after a reset, rad or m.
    pub initial: f64,
    /// The link this joint moves.
    pub link: LinkSpec,
}

/// The two-finger gripper at the end of the last link.
#[derive(Debug, Clone, PartialEq)]
pub struct GripperSpec {
    /// Palm length from the last link's end to the fingers' base, m, gripper x.
    pub palm_length: f64,
    /// Palm mass, kg (a box of the palm's length, the full opening wide).
    pub palm_mass: f64,
    /// Widest gap between the finger pads, m.
    pub opening: f64,
    /// Largest force each finger presses with, N.
    pub max_force: f64,
    /// Fastest closing or opening speed of each finger, m/s.
    pub finger_speed: f64,
    /// Friction coefficient of the finger pads; against an object the lower of the pad's
    /// and the object's surface μ acts.
    pub friction: f64,
    /// Pad length along the gripper x and height along its z, m.
    pub pad: [f64; 2],
    /// Mass of each finger, kg.
    pub finger_mass: f64,
    /// Camera on the gripper, its pose in the gripper frame.
    pub camera: Option<CameraSpec>,
}

impl GripperSpec {
    /// Finger thickness across the gripper (y), m: a fixed fraction of the pad height keeps
    /// the finger a plate.
    pub fn finger_thickness(&self) -> f64 {
        (0.25 * self.pad[1]).clamp(0.005, 0.03)
    }

    /// The tool point, m, gripper frame: between the pads' centres.
    pub fn tool_point(&self) -> Point3<f64> {
        Point3::new(self.palm_length + 0.5 * self.pad[0], 0.0, 0.0)
    }
}

/// A named arm pose: one position per joint, rad or m.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmPose {
    /// Name (`stow`, `drive`, `reach_forward`, `reach_down`, or the file's own).
    pub name: String,
    /// Joint positions, in joint order.
    pub joints: Vec<f64>,
}

/// A robot's manipulator arm as its file describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmSpec {
    /// Joint 0's origin, m, body frame.
    pub mount: Point3<f64>,
    /// The joints from the hull outwards (1..=[`MAX_ARM_JOINTS`]).
    pub joints: Vec<ArmJointSpec>,
    /// The gripper on the last link.
    pub gripper: GripperSpec,
    /// Stored poses; the first is `stow`, the joints' initial positions.
    pub poses: Vec<ArmPose>,
    /// Driving is slowed while the tool point is farther than this from the mount
    /// horizontally, m (the safety interlock of real units).
    pub drive_reach: f64,
}

/// The length of the chain `joints` ending in `gripper`, m: its links' lengths and the
/// gripper's tool point, every slide at zero — the tool point's distance from the mount with
/// the chain stretched straight.
pub fn chain_length(joints: &[ArmJointSpec], gripper: &GripperSpec) -> f64 {
    joints.iter().map(|j| j.link.end.norm()).sum::<f64>() + gripper.tool_point().coords.norm()
}

impl ArmSpec {
    /// How far the tool point can get from the mount, m: the chain stretched straight
    /// ([`chain_length`]) and every prismatic joint at its longest travel.
    pub fn reach(&self) -> f64 {
        let slides: f64 = self
            .joints
            .iter()
            .filter(|j| j.kind == JointKind::Prismatic)
            .map(|j| j.max.abs().max(j.min.abs()))
            .sum();
        chain_length(&self.joints, &self.gripper) + slides
    }

    /// Total mass of links, palm and fingers, kg.
    pub fn mass(&self) -> f64 {
        self.joints.iter().map(|j| j.link.mass).sum::<f64>()
            + self.gripper.palm_mass
            + 2.0 * self.gripper.finger_mass
    }

    /// The revolute joints turning about the body's `axis` (0: x, 1: y, 2: z) with every
    /// joint at 0, in chain order: about y the pitch joints (shoulder, elbow, wrist pitch),
    /// about x the rolls.
    pub fn revolute_about(&self, axis: usize) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.joints
            .iter()
            .enumerate()
            .filter(move |(_, j)| {
                j.kind == JointKind::Revolute && j.axis.into_inner()[axis].abs() > 0.5
            })
            .map(|(i, _)| i)
    }

    /// A stored pose by name.
    pub fn pose(&self, name: &str) -> Option<&ArmPose> {
        self.poses.iter().find(|p| p.name == name)
    }
}

/// How the arm should move.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum ArmMotion {
    /// Every joint holds where its servo target is.
    #[default]
    Hold,
    /// Joint speeds, rad/s or m/s, in joint order (each clamped to its joint's
    /// [`ArmJointSpec::max_speed`]; missing joints hold).
    JointRates([f64; MAX_ARM_JOINTS]),
    /// Joint positions to move to, rad or m, all joints arriving together at the slowest
    /// joint's top speed (clamped to each joint's limits).
    JointTargets([f64; MAX_ARM_JOINTS]),
    /// Tool-point velocity, m/s, in `frame` (resolved rate, damped least squares).
    ToolVelocity {
        /// Velocity, m/s.
        velocity: [f64; 3],
        /// The frame it is given in.
        frame: ToolFrame,
    },
}

/// The frame a tool velocity is given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolFrame {
    /// The robot's body frame (x forward, y left, z up).
    #[default]
    Body,
    /// The gripper frame (x out of the palm, as the gripper camera looks).
    Gripper,
}

/// What the fingers should do.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum GripCommand {
    /// Keep doing what they do.
    #[default]
    Keep,
    /// Open to the full opening.
    Open,
    /// Close, pressing with at most this force per finger, N (clamped to the gripper's
    /// [`GripperSpec::max_force`]).
    Close(f64),
}

/// What the operator (or a script) asks of an arm; it holds until the next.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmCommand {
    /// How the joints move.
    pub motion: ArmMotion,
    /// What the fingers do.
    pub grip: GripCommand,
}

impl ArmCommand {
    /// Every joint holds, fingers as they are.
    pub const HOLD: ArmCommand = ArmCommand {
        motion: ArmMotion::Hold,
        grip: GripCommand::Keep,
    };

    /// Whether every number in it is finite (a command that is not is refused as a hold).
    pub fn is_finite(&self) -> bool {
        let motion = match &self.motion {
            ArmMotion::Hold => true,
            ArmMotion::JointRates(v) | ArmMotion::JointTargets(v) => {
                v.iter().all(|x| x.is_finite())
            }
            ArmMotion::ToolVelocity { velocity, .. } => velocity.iter().all(|x| x.is_finite()),
        };
        let grip = match self.grip {
            GripCommand::Close(f) => f.is_finite(),
            _ => true,
        };
        motion && grip
    }
}
