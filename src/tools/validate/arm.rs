//! The arm's laws against statics and Coulomb's law (`tests/arm.rs` asserts the same runs):
//! a joint holds a load whose gravity moment is below its torque limit and sags, never
//! exceeding the limit, above it; a two-finger grip holds while 2·μ·F ≥ m·g and slips below.

use nalgebra::{Isometry3, Point3};

use super::{Check, Row, ValidateError};
use crate::envelope::lanes;
use crate::sim::{spawn_pose, ArmState, RobotId, SimConfig, Simulation};
use crate::vehicle::arm::kinematics::{link_frames, tool_point};
use crate::vehicle::arm::{ArmCommand, ArmMotion, GripCommand, MAX_ARM_JOINTS};
use crate::vehicle::RobotSpec;

/// Standard gravity, m/s².
const G: f64 = 9.81;
/// The torque case's shoulder and elbow angles: upper arm straight up, forearm level, deg.
const ELBOW_POSE_DEG: (f64, f64) = (-90.0, 90.0);
/// The grip case's shoulder and elbow angles, deg.
const GRIP_POSE_DEG: (f64, f64) = (-30.0, 30.0);
/// The most the grip case waits for the pads to hold its box, s.
const GRIP_CLOSE_LIMIT: f64 = 3.0;
/// How long the grip case lets a new grip settle before it lifts, s.
const GRIP_SETTLE: f64 = 0.25;
/// Mass and surface friction of the grip case's box.
const GRIP_BOX: (f64, f64) = (1.0, 0.5);

/// An arm's joints by the part they play in the cases, found from its file (any number of
/// joints): the shoulder and elbow are its first two revolute joints about y, the wrist's
/// roll its last revolute joint about x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JointRoles {
    /// Joints in the arm.
    pub joints: usize,
    /// The shoulder's index.
    pub shoulder: usize,
    /// The elbow's index.
    pub elbow: usize,
    /// The wrist roll's index, if the arm has one.
    pub roll: Option<usize>,
}

impl JointRoles {
    /// The roles in `spec`'s arm (`None`: no arm, or fewer than two pitch joints).
    pub fn of(spec: &RobotSpec) -> Option<Self> {
        let arm = spec.arm.as_ref()?;
        let mut pitch = arm.revolute_about(1);
        Some(Self {
            joints: arm.joints.len(),
            shoulder: pitch.next()?,
            elbow: pitch.next()?,
            roll: arm.revolute_about(0).next_back(),
        })
    }

    /// Joint positions with the shoulder and elbow at `(shoulder, elbow)` deg and every
    /// other joint at 0, rad.
    pub fn pose(&self, (shoulder, elbow): (f64, f64)) -> Vec<f64> {
        let mut q = vec![0.0; self.joints];
        q[self.shoulder] = shoulder.to_radians();
        q[self.elbow] = elbow.to_radians();
        q
    }
}

/// The moment about joint `joint`'s (horizontal) axis of the weight of everything outboard of
/// it, arm at `q` on a level hull, N·m: Σ m·g·(horizontal distance along body x).
pub fn gravity_moment(spec: &RobotSpec, q: &[f64], joint: usize) -> f64 {
    let Some(arm) = spec.arm.as_ref() else {
        return 0.0;
    };
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(arm, q, &mut frames);
    let axis_x = frames[joint].translation.vector.x;
    let mut moment = 0.0;
    for (j, link) in arm.joints.iter().enumerate().skip(joint) {
        let centre = frames[j] * Point3::from(link.link.end / 2.0);
        moment += link.link.mass * G * (centre.x - axis_x);
    }
    let g = &arm.gripper;
    let palm = gripper * Point3::new(g.palm_length / 2.0, 0.0, 0.0);
    let pads = gripper * g.tool_point();
    moment += g.palm_mass * G * (palm.x - axis_x);
    moment += 2.0 * g.finger_mass * G * (pads.x - axis_x);
    moment
}

/// `spec` on the level pad at its spawn.
fn on_pad(
    spec: &RobotSpec,
    config: &SimConfig,
    text: String,
) -> Result<(Simulation, RobotId), ValidateError> {
    let scene = lanes::scene_from("arm_pad", text)?;
    Ok(crate::envelope::trials::start(scene, spec, config)?)
}

/// What the elbow case measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElbowLoad {
    /// How far the elbow sagged below its pose after 2 s, deg (positive: the forearm fell).
    pub sag: f64,
    /// The elbow motor's effort at the end, N·m.
    pub effort: f64,
    /// The largest effort over the run, N·m.
    pub peak: f64,
    /// The gravity moment about the elbow, N·m.
    pub needed: f64,
}

impl ElbowLoad {
    /// Nothing measured (no arm, or one without an elbow): every value NaN, which fails
    /// every row.
    fn none() -> Self {
        Self {
            sag: f64::NAN,
            effort: f64::NAN,
            peak: f64::NAN,
            needed: f64::NAN,
        }
    }
}

/// The elbow with the upper arm straight up and the forearm level, its torque limit set to
/// `torque_factor` × the gravity moment of the forearm, wrist and gripper about it; 2 s.
pub fn elbow_under_load(
    spec: &RobotSpec,
    config: &SimConfig,
    torque_factor: f64,
) -> Result<ElbowLoad, ValidateError> {
    let mut spec = spec.clone();
    let Some(roles) = JointRoles::of(&spec) else {
        return Ok(ElbowLoad::none());
    };
    let elbow = roles.elbow;
    let q = roles.pose(ELBOW_POSE_DEG);
    let needed = gravity_moment(&spec, &q, elbow);
    if let Some(arm) = spec.arm.as_mut() {
        arm.joints[elbow].max_effort = torque_factor * needed;
    }
    let (mut sim, id) = on_pad(&spec, config, lanes::flat_pad_text(lanes::LANE_FRICTION))?;
    sim.run_for(0.5);
    sim.pose_arm(id, &q, 0.1);
    let mut peak = 0.0_f64;
    for _ in 0..(2.0 / sim.config().dt).round() as usize {
        sim.step();
        if let Some(state) = sim.arm_state(id) {
            peak = peak.max(state.efforts[elbow].abs());
        }
    }
    let state = sim.arm_state(id);
    Ok(ElbowLoad {
        sag: state.map_or(f64::NAN, |s| (s.positions[elbow] - q[elbow]).to_degrees()),
        effort: state.map_or(f64::NAN, |s| s.efforts[elbow].abs()),
        peak,
        needed,
    })
}

/// A 1 kg box of surface μ 0.5 standing on a pedestal between the open fingers of the level
/// gripper, gripped with `force` N per finger (counted from when the pads hold it, settled
/// 0.25 s), lifted 0.2 rad by the shoulder in 1 s and held for 1 s: how far it slid
/// down in the grip, m.
pub fn grip_slide(spec: &RobotSpec, config: &SimConfig, force: f64) -> Result<f64, ValidateError> {
    let (Some(arm), Some(roles)) = (spec.arm.as_ref(), JointRoles::of(spec)) else {
        return Ok(f64::NAN);
    };
    let q = roles.pose(GRIP_POSE_DEG);
    let pad = lanes::flat_pad(lanes::LANE_FRICTION)?;
    let hull = spawn_pose(&pad.spawns[0], spec);
    let tool = hull * tool_point(arm, &q);
    // The box's bottom 2 cm below the tool point, 5 mm below the pads.
    let text = format!(
        "{}[[element]]\ntype = \"box\"\nsize = [0.04, 0.04, {top}]\nposition = [{x}, {y}, 0]\n\
         [[object]]\nname = \"box\"\nshape = \"box\"\nsize = [0.04, 0.06, 0.04]\n\
         mass = {}\nfriction = {}\nposition = [{x}, {y}, {z}]\n",
        lanes::flat_pad_text(lanes::LANE_FRICTION),
        GRIP_BOX.0,
        GRIP_BOX.1,
        top = tool.z - 0.02,
        x = tool.x,
        y = tool.y,
        z = tool.z,
    );
    let (mut sim, id) = on_pad(spec, config, text)?;
    sim.pose_arm(id, &q, 0.07);
    sim.run_for(0.5);
    let grip = GripCommand::Close(force);
    let hold = ArmCommand {
        motion: ArmMotion::Hold,
        grip,
    };
    // The slide counts from the moment the pads hold the box, settled.
    close_on(&mut sim, id, grip, |arm| arm.holding);
    let start = drop_in_grip(&sim, id);
    let mut lift = [0.0; MAX_ARM_JOINTS];
    lift[roles.shoulder] = -0.2;
    let motion = ArmMotion::JointRates(lift);
    sim.set_arm_command(id, ArmCommand { motion, grip });
    sim.run_for(1.0);
    sim.set_arm_command(id, hold);
    sim.run_for(1.0);
    Ok(drop_in_grip(&sim, id) - start)
}

/// Closes robot `id`'s gripper with `grip`, the arm held, until `held` says the pads hold
/// what they closed on (at most [`GRIP_CLOSE_LIMIT`]), then lets the grip settle
/// [`GRIP_SETTLE`]: the pads close at their fingers' speed, and the larger grippers take over a
/// second from wide open, so a case that measures from a fixed time after the close command
/// would measure the fingers still closing.
pub(super) fn close_on(
    sim: &mut Simulation,
    id: RobotId,
    grip: GripCommand,
    held: impl Fn(&ArmState) -> bool,
) {
    sim.set_arm_command(
        id,
        ArmCommand {
            motion: ArmMotion::Hold,
            grip,
        },
    );
    let mut waited = 0.0;
    while !sim.arm_state(id).is_some_and(|arm| held(&arm)) && waited < GRIP_CLOSE_LIMIT {
        sim.run_for(GRIP_SETTLE / 5.0);
        waited += GRIP_SETTLE / 5.0;
    }
    sim.run_for(GRIP_SETTLE);
}

/// How far the first object lies below the tool point, m.
fn drop_in_grip(sim: &Simulation, id: RobotId) -> f64 {
    match (sim.arm_state(id), sim.object_state(0)) {
        (Some(arm), Some(object)) => arm.tool.z - object.pose.translation.z,
        _ => f64::NAN,
    }
}

/// The arm's joint-torque and grip rows for an armed preset (the valve's are
/// [`super::valve::rows`]).
pub fn rows(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let name = &spec.name;
    let holds = elbow_under_load(spec, config, 1.05)?;
    let sags = elbow_under_load(spec, config, 0.95)?;
    let (mass, mu) = GRIP_BOX;
    // Per-finger force at which 2·μ·F is the given multiple of the box's weight.
    let force = |share: f64| share * mass * G / (2.0 * mu);
    let held = grip_slide(spec, config, force(1.25))?;
    let slipped = grip_slide(spec, config, force(0.8))?;
    Ok(vec![
        Row::new(
            "arm joint torque",
            name,
            "elbow sag, limit 1.05 × gravity moment",
            "deg",
            (holds.sag.abs(), 0.0),
            Check::AtMost(0.5),
            "torque",
        ),
        Row::new(
            "arm joint torque",
            name,
            "elbow effort holding vs gravity moment",
            "N·m",
            (holds.effort, holds.needed),
            Check::Relative(0.10),
            "torque",
        ),
        Row::new(
            "arm joint torque",
            name,
            "elbow sag, limit 0.95 × gravity moment",
            "deg",
            (sags.sag, 10.0),
            Check::AtLeast(0.0),
            "torque",
        ),
        Row::new(
            "arm joint torque",
            name,
            "largest elbow effort, limit 0.95 × gravity moment",
            "N·m",
            (sags.peak, 0.95 * sags.needed),
            Check::AtMost(0.001 * sags.needed),
            "torque",
        ),
        Row::new(
            "grip",
            name,
            "1 kg box slides in the grip, 2·μ·F = 1.25·m·g",
            "m",
            (held.abs(), 0.0),
            Check::AtMost(0.003),
            "grip",
        ),
        Row::new(
            "grip",
            name,
            "1 kg box slides in the grip, 2·μ·F = 0.8·m·g",
            "m",
            (slipped, 0.05),
            Check::AtLeast(0.0),
            "grip",
        ),
    ])
}
