//! The envelope's arm section: how far the arm reaches (forward, up, and down below the
//! tracks), what it lifts at full reach (the torque arithmetic, and measured by raising test
//! masses until a joint stalls), and the robot's tip-over angles with the arm stowed, at full
//! forward reach, and at full reach holding its rated load (the combined-centre-of-mass
//! formula, and measured on the tilt table).

use std::fmt;

use nalgebra::{Isometry3, Point3, Vector3};
use serde::Serialize;

use super::lanes::{self, TILT_TABLE_FRICTION};
use super::trials::{self, TiltDirection, TiltRate};
use super::EnvelopeError;
use crate::sim::{spawn_pose, RobotId, SimConfig, Simulation};
pub use crate::vehicle::arm::kinematics::combined_mass_center;
use crate::vehicle::arm::kinematics::{link_frames, outboard_masses, tool_point};
use crate::vehicle::arm::{ArmCommand, ArmMotion, ArmSpec, GripCommand, JointKind, MAX_ARM_JOINTS};
use crate::vehicle::spec::HullShape;
use crate::vehicle::stability::{Tilt, TipLimits};
use crate::vehicle::RobotSpec;

/// Standard gravity, m/s².
const G: f64 = 9.81;
/// Samples per joint of the reach search (joints past the third are held at 0).
const REACH_SAMPLES: usize = 40;
/// Test masses for the lift trials go up in steps of this, kg.
const LIFT_STEP: f64 = 0.25;
/// A lift trial raises the shoulder for this long, s.
const LIFT_TIME: f64 = 1.5;
/// The tool point must rise at least this in a lift trial, m.
const LIFT_RISE: f64 = 0.05;
/// A joint further than this from its servo target at the end of a lift has stalled, rad.
const STALL_LAG: f64 = 0.02;
/// A robot tilted further than this on the level pad has nosed over, rad (5°).
const STANDING_TILT: f64 = 0.087;
/// Gravity rises from zero to full over this when a robot is posed for a trial, s.
const LOAD_RAMP: f64 = 2.0;
/// Width of the test masses across the fingers, as a share of the gripper's opening.
const LOAD_WIDTH_SHARE: f64 = 0.6;

/// The tool point's reach, m.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Reach {
    /// Farthest ahead of the hull's front, at or above the ground.
    pub forward: f64,
    /// Highest above the ground.
    pub up: f64,
    /// Deepest below the bottom of the tracks, ahead of the hull (into a ditch or a hole).
    pub down: f64,
}

/// Tip-over angles with the arm in one configuration, deg.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmTip {
    /// What the arm does.
    pub label: String,
    /// Centre of mass with the arm and load, m, body frame.
    pub center_of_mass: [f64; 3],
    /// Forward (nose down) from the combined-centre-of-mass formula.
    pub forward_formula: f64,
    /// Sideways (over onto the right side) from the formula with the turret giving way
    /// ([`sideways_with_turret`]).
    pub sideways_formula: f64,
    /// Sideways from the formula with the arm held rigid where it is posed.
    pub sideways_rigid: f64,
    /// The tilt at which the turret's torque limit lets the arm swing downhill (`None`: it
    /// holds at every tilt).
    pub turret_gives: Option<f64>,
    /// Forward measured on the tilt table (`None`: slid first or never tipped).
    pub forward: Option<f64>,
    /// Sideways measured.
    pub sideways: Option<f64>,
}

/// The arm section of a robot's sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmSheet {
    /// The arm's mass, kg.
    pub mass: f64,
    /// Reach of the tool point.
    pub reach: Reach,
    /// Rated load at full forward reach, kg ([`rated_load`]).
    pub rated_load: f64,
    /// What limits it: a joint's torque or the robot's stability.
    pub limited_by: String,
    /// The load the joints' torques allow at full reach, kg ([`torque_limited_load`]).
    pub torque_load: f64,
    /// The load that tips the robot forward at full reach on level ground, kg.
    pub tipping_load: f64,
    /// The heaviest test mass the arm lifted at full reach, kg (`None`: not even the first).
    pub lifted: Option<f64>,
    /// Tip-over angles: stowed, at full reach, at full reach holding the rated load.
    pub tip: Vec<ArmTip>,
}

/// The full-reach pose: the file's `reach_forward`, or every joint at 0 (clamped).
pub fn full_reach_pose(arm: &ArmSpec) -> Vec<f64> {
    arm.pose("reach_forward").map_or_else(
        || {
            arm.joints
                .iter()
                .map(|j| 0.0_f64.clamp(j.min, j.max))
                .collect()
        },
        |p| p.joints.clone(),
    )
}

/// The sideways tip-over angle (deg, over onto the right side, as the tilt table tips it) of a
/// robot of `spec` with its arm at `pose` holding `load` kg, the turret giving way: tilted by
/// θ, the weight's component g·sin θ across the hull pulls the arm round its vertical turret
/// with moment M·sin θ (M: g times the outboard masses' levers ahead of the turret's axis).
/// Past sin θ_y = τ/M (τ the turret's torque limit) its motor gives only τ and the arm swings
/// downhill to where the moment falls back to τ, cos φ = sin θ_y / sin θ, moving the centre of
/// mass toward the low side. The robot tips at the θ where the combined-centre-of-mass
/// formula with the arm so swung equals θ (the rigid formula where the turret holds).
pub fn sideways_with_turret(
    spec: &RobotSpec,
    arm: &ArmSpec,
    pose: &[f64],
    load: f64,
) -> SidewaysTip {
    // Over the right belt's outer edge, as the envelope's own tilt formula tips it.
    let half = super::support_half_width(spec);
    let right = |pose: &[f64]| {
        let (_, com) = combined_mass_center(spec, arm, pose, load);
        let height = TipLimits::with_center_of_mass(spec, &com).com_height;
        (half + com.y).max(0.0).atan2(height)
    };
    let rigid = right(pose);
    let held = SidewaysTip {
        with_turret: rigid.to_degrees(),
        rigid: rigid.to_degrees(),
        turret_gives: None,
    };
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(arm, pose, &mut frames);
    let Some(turret) = (0..arm.joints.len()).find(|&j| {
        let axis = frames[j].rotation * arm.joints[j].axis.into_inner();
        arm.joints[j].kind == JointKind::Revolute && axis.z.abs() > 0.99
    }) else {
        return held;
    };
    let axis = frames[turret].rotation * arm.joints[turret].axis.into_inner();
    let origin = Point3::from(frames[turret].translation.vector);
    // The moment of a full g across the hull toward the low (−y) side about the turret's axis.
    let moment: f64 = outboard_masses(arm, &frames, &gripper, turret, load)
        .map(|(m, p)| {
            (p - origin)
                .cross(&Vector3::new(0.0, -m * G, 0.0))
                .dot(&axis)
        })
        .sum();
    let limit = arm.joints[turret].max_effort;
    if moment.abs() <= limit {
        return held;
    }
    let yields = (limit / moment.abs()).asin();
    // The arm swings the way the moment turns it, as far as the turret's stops allow.
    let joint = &arm.joints[turret];
    let swung = |tilt: f64| {
        let mut q = pose.to_vec();
        let swing = if tilt <= yields {
            0.0
        } else {
            (yields.sin() / tilt.sin()).acos()
        };
        q[turret] = (q[turret] + moment.signum() * swing).clamp(joint.min, joint.max);
        q
    };
    // right(swung(θ)) − θ falls as θ grows (the swing only moves the mass downhill): bisect.
    let (mut low, mut high) = (0.0, rigid);
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if right(&swung(mid)) > mid {
            low = mid;
        } else {
            high = mid;
        }
    }
    SidewaysTip {
        with_turret: low.to_degrees(),
        rigid: rigid.to_degrees(),
        turret_gives: Some(yields.to_degrees()),
    }
}

/// The sideways tip-over formulas of [`sideways_with_turret`], deg.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SidewaysTip {
    /// With the turret giving way past its torque limit.
    pub with_turret: f64,
    /// With the arm held rigid where it is posed.
    pub rigid: f64,
    /// The tilt at which the turret gives (`None`: it holds the arm at every tilt, or the arm
    /// has no vertical turret).
    pub turret_gives: Option<f64>,
}

/// Share of the tipping load an arm is rated for where stability limits it, as ASME B30.5
/// rates crawler cranes (rated load at most 75 % of the load that tips the machine).
pub const TIPPING_SHARE: f64 = 0.75;

/// The load at the tool point (kg) that tips a robot of `spec` forward on level ground with
/// its arm at `pose`: the combined centre of mass over the front end of the footprint
/// (infinite when the tool point is not ahead of it).
pub fn tipping_load(spec: &RobotSpec, arm: &ArmSpec, pose: &[f64]) -> f64 {
    let (mass, com) = combined_mass_center(spec, arm, pose, 0.0);
    let front = TipLimits::from_spec(spec).footprint.1;
    let tool = tool_point(arm, pose);
    if tool.x <= front {
        return f64::INFINITY;
    }
    (mass * (front - com.x) / (tool.x - front)).max(0.0)
}

/// The share of the load the joints' torques hold at full reach that an arm is rated to lift
/// there: a lift starts from rest, and the motor that only just holds a load statically has
/// nothing left to accelerate it and the arm (the envelope's lift trial needs about 5 % for
/// the heavier arms; a servo reserve of 10 % is the rating's).
pub const TORQUE_SHARE: f64 = 0.9;

/// The rated load at `pose` (kg) and what limits it: [`TORQUE_SHARE`] of the torque
/// arithmetic (for every joint whose axis is level, (torque limit − the gravity moment of the
/// arm outboard of it) over g times the tool point's horizontal lever), or [`TIPPING_SHARE`]
/// of the tipping load, whichever is less.
pub fn rated_load(spec: &RobotSpec, arm: &ArmSpec, pose: &[f64]) -> (f64, String) {
    let (held, joint) = torque_limited_load(arm, pose);
    let torque = TORQUE_SHARE * held;
    let stable = TIPPING_SHARE * tipping_load(spec, arm, pose);
    if stable < torque {
        (
            stable,
            format!(
                "stability ({:.0} % of the tipping load)",
                TIPPING_SHARE * 100.0
            ),
        )
    } else {
        (
            torque,
            format!(
                "the {joint}'s torque ({:.0} % of what it holds)",
                TORQUE_SHARE * 100.0
            ),
        )
    }
}

/// The load at `pose` (kg) the joints' torques allow, and the joint limiting it.
pub fn torque_limited_load(arm: &ArmSpec, pose: &[f64]) -> (f64, String) {
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(arm, pose, &mut frames);
    let g = &arm.gripper;
    let tool = gripper * g.tool_point();
    let mut best = (f64::INFINITY, String::new());
    for (j, joint) in arm.joints.iter().enumerate() {
        let axis = frames[j].rotation * joint.axis.into_inner();
        if joint.kind != JointKind::Revolute || axis.z.abs() > 0.1 {
            continue; // not a pitch joint: gravity puts no moment on it at this pose
        }
        let origin = Point3::from(frames[j].translation.vector);
        let moment = |p: &Point3<f64>, m: f64| {
            (p - origin)
                .cross(&Vector3::new(0.0, 0.0, -m * G))
                .dot(&axis)
        };
        let own: f64 = outboard_masses(arm, &frames, &gripper, j, 0.0)
            .map(|(m, p)| moment(&p, m))
            .sum();
        let per_kg = moment(&tool, 1.0).abs();
        if per_kg < 1e-3 {
            continue;
        }
        let load = ((joint.max_effort - own.abs()) / per_kg).max(0.0);
        if load < best.0 {
            best = (load, joint.name.clone());
        }
    }
    best
}

/// The tool point's reach, searched over a grid of the first three joints' ranges (joints
/// past them at 0).
pub fn reach(spec: &RobotSpec, arm: &ArmSpec) -> Reach {
    let limits = TipLimits::from_spec(spec);
    let ground = spec.center_of_mass.z - limits.com_height;
    let HullShape::Box { size, center } = spec.hull;
    let front = center.x + size.x / 2.0;
    let n = arm.joints.len().min(3);
    let mut q = vec![0.0; arm.joints.len()];
    for (qj, j) in q.iter_mut().zip(&arm.joints) {
        *qj = 0.0_f64.clamp(j.min, j.max);
    }
    let mut reach = Reach {
        forward: f64::NEG_INFINITY,
        up: f64::NEG_INFINITY,
        down: f64::NEG_INFINITY,
    };
    let total = REACH_SAMPLES.pow(n as u32);
    for k in 0..total {
        let mut index = k;
        for (j, joint) in arm.joints.iter().enumerate().take(n) {
            let i = index % REACH_SAMPLES;
            index /= REACH_SAMPLES;
            q[j] = joint.min + (joint.max - joint.min) * i as f64 / (REACH_SAMPLES - 1) as f64;
        }
        let p = tool_point(arm, &q);
        if p.z >= ground {
            reach.forward = reach.forward.max(p.x - front);
        }
        reach.up = reach.up.max(p.z - ground);
        if p.x > front {
            reach.down = reach.down.max(ground - p.z);
        }
    }
    reach
}

/// A robot of `spec` on the tilt table's pad with its arm at `pose`, holding a box of `load`
/// kg (if any) gripped at full force; `None` if the grip did not take.
fn posed(
    spec: &RobotSpec,
    config: &SimConfig,
    pose: &[f64],
    load: f64,
) -> Result<Option<(Simulation, RobotId)>, EnvelopeError> {
    let Some(arm) = spec.arm.as_ref() else {
        return Ok(None);
    };
    let pad = lanes::flat_pad(TILT_TABLE_FRICTION)?;
    let spawn = pad.spawns.first().cloned().ok_or(EnvelopeError::NoSpawn)?;
    let tool = spawn_pose(&spawn, spec) * tool_point(arm, pose);
    let g = &arm.gripper;
    let width = LOAD_WIDTH_SHARE * g.opening;
    let scene = if load > 0.0 {
        let text = format!(
            "{}[[object]]\nname = \"load\"\nshape = \"box\"\nsize = [{l}, {width}, {h}]\n\
             mass = {load}\nfriction = 1.0\nposition = [{}, {}, {}]\n",
            lanes::flat_pad_text(TILT_TABLE_FRICTION),
            tool.x,
            tool.y,
            tool.z,
            l = g.pad[0],
            h = g.pad[1],
        );
        lanes::scene_from("pad_with_load", text)?
    } else {
        pad
    };
    let mut sim = Simulation::new(scene, *config)?;
    let id = sim.add_robot(spec.clone(), &spawn)?;
    sim.pose_arm(id, pose, if load > 0.0 { width + 0.002 } else { g.opening });
    if load > 0.0 {
        sim.set_arm_command(
            id,
            ArmCommand {
                motion: ArmMotion::Hold,
                grip: GripCommand::Close(g.max_force),
            },
        );
    }
    load_gently(&mut sim);
    sim.run_for(0.5);
    let held = sim.arm_state(id).is_some_and(|s| s.holding);
    Ok((load <= 0.0 || held).then_some((sim, id)))
}

/// Brings the posed robot's weight on gently: gravity rises from zero to full over
/// [`LOAD_RAMP`], as a crane takes up a load, where a step (the arm posed and the load placed
/// at once) makes a robot rock on its tracks past its static balance — heavy250_eod, given its
/// rated 20 kg at full reach that way, nosed over onto its flippers though statics give it
/// 26.8 kg.
fn load_gently(sim: &mut Simulation) {
    let full = sim.gravity();
    let steps = (LOAD_RAMP / sim.config().dt).ceil().max(1.0) as usize;
    for k in 0..steps {
        sim.set_gravity(full * ((k + 1) as f64 / steps as f64));
        sim.step();
    }
}

/// Whether the arm at full reach lifts a test mass of `load` kg: the shoulder (the first
/// pitch joint) raises for [`LIFT_TIME`] at a third of its top speed; the tool point must
/// rise [`LIFT_RISE`] with the mass still held and every joint following its servo (none
/// stalled or sagging, [`STALL_LAG`]).
fn lifts(
    spec: &RobotSpec,
    config: &SimConfig,
    pose: &[f64],
    load: f64,
) -> Result<bool, EnvelopeError> {
    let Some(arm) = spec.arm.as_ref() else {
        return Ok(false);
    };
    let Some((mut sim, id)) = posed(spec, config, pose, load)? else {
        return Ok(false);
    };
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    link_frames(arm, pose, &mut frames);
    let Some(shoulder) = arm.joints.iter().enumerate().position(|(j, joint)| {
        joint.kind == JointKind::Revolute
            && (frames[j].rotation * joint.axis.into_inner()).z.abs() < 0.1
    }) else {
        return Ok(false);
    };
    let start = sim.arm_state(id).map_or(0.0, |s| s.tool.z);
    let mut rates = [0.0; MAX_ARM_JOINTS];
    // Raising the tool: the sign that lifts a point ahead of a y-axis pitch joint.
    let axis = frames[shoulder].rotation * arm.joints[shoulder].axis.into_inner();
    rates[shoulder] = -axis.y.signum() * arm.joints[shoulder].max_speed / 3.0;
    sim.set_arm_command(
        id,
        ArmCommand {
            motion: ArmMotion::JointRates(rates),
            grip: GripCommand::Close(arm.gripper.max_force),
        },
    );
    sim.run_for(LIFT_TIME);
    let Some(state) = sim.arm_state(id) else {
        return Ok(false);
    };
    // A joint that stalled or sagged lags its servo target.
    let tracking =
        (0..arm.joints.len()).all(|j| (state.positions[j] - state.targets[j]).abs() < STALL_LAG);
    // Past the tipping load the robot noses over onto what it holds: not a lift.
    let tilt = Tilt::of(&sim.body_state(id).pose);
    let standing = tilt.nose_up.abs() < STANDING_TILT && tilt.left_up.abs() < STANDING_TILT;
    Ok(state.holding && tracking && standing && state.tool.z - start >= LIFT_RISE)
}

/// How the arm section's tilt table turns: quasi-statically from the start
/// ([`trials::QUASI_STATIC_TILT_RATE`], 0.25°/s). Practice turns a table that slowly "when
/// nearing suspension lash and wheel liftoff"; an arm gives as the table turns from the first
/// degree (past its torque limit the turret swings downhill), so its lash is there throughout.
/// Turned at 1.5°/s until the uphill track unloads ([`TiltRate::Practice`]), the turret's
/// swing overshoots its equilibrium and tips scout_eod sideways at 29.2° against the 33.2° of
/// statics (33.4° at 0.25°/s throughout; 2026-12-02).
pub const ARM_TILT_RATE: TiltRate = TiltRate::Constant(trials::QUASI_STATIC_TILT_RATE);

/// The tilt-table angles (forward, sideways) of a robot of `spec` with its arm at `pose`
/// holding `load` kg, deg, the table turning at [`ARM_TILT_RATE`].
fn tilt(
    spec: &RobotSpec,
    config: &SimConfig,
    pose: &[f64],
    load: f64,
) -> Result<(Option<f64>, Option<f64>), EnvelopeError> {
    let angle = |direction| tilt_at(spec, config, pose, load, direction, ARM_TILT_RATE);
    Ok((
        angle(TiltDirection::Forward)?,
        angle(TiltDirection::Sideways)?,
    ))
}

/// The tilt-table angle (deg) in `direction` of a robot of `spec` with its arm at `pose`
/// holding `load` kg (gripped as the arm section grips it), the table turning as `rate`
/// says; `None` if the grip did not take, the robot slid first or it never tipped.
pub fn tilt_at(
    spec: &RobotSpec,
    config: &SimConfig,
    pose: &[f64],
    load: f64,
    direction: TiltDirection,
    rate: TiltRate,
) -> Result<Option<f64>, EnvelopeError> {
    Ok(match posed(spec, config, pose, load)? {
        Some((mut sim, id)) => {
            trials::tilt_run_with(&mut sim, id, direction, rate).map(f64::to_degrees)
        }
        None => None,
    })
}

/// Measures the arm section of `spec` (`None`: no arm).
pub fn measure_arm(
    spec: &RobotSpec,
    config: &SimConfig,
) -> Result<Option<ArmSheet>, EnvelopeError> {
    let Some(arm) = spec.arm.as_ref() else {
        return Ok(None);
    };
    let stow: Vec<f64> = arm.joints.iter().map(|j| j.initial).collect();
    let full = full_reach_pose(arm);
    let (rated, limited_by) = rated_load(spec, arm, &full);
    let (torque_load, _) = torque_limited_load(arm, &full);
    let tipping_load = tipping_load(spec, arm, &full);
    let mut lifted = None;
    let mut load = LIFT_STEP;
    while load <= 2.0 * rated + 1.0 && lifts(spec, config, &full, load)? {
        lifted = Some(load);
        load += LIFT_STEP;
    }
    let mut tip = Vec::with_capacity(3);
    for (label, pose, load) in [
        ("stowed", &stow, 0.0),
        ("full reach", &full, 0.0),
        ("full reach, rated load", &full, rated),
    ] {
        let (_, com) = combined_mass_center(spec, arm, pose, load);
        let limits = TipLimits::with_center_of_mass(spec, &com);
        let (forward, sideways) = tilt(spec, config, pose, load)?;
        let sideways_tip = sideways_with_turret(spec, arm, pose, load);
        tip.push(ArmTip {
            label: label.into(),
            center_of_mass: [com.x, com.y, com.z],
            forward_formula: limits.forward.to_degrees(),
            sideways_formula: sideways_tip.with_turret,
            sideways_rigid: sideways_tip.rigid,
            turret_gives: sideways_tip.turret_gives,
            forward,
            sideways,
        });
    }
    Ok(Some(ArmSheet {
        mass: arm.mass(),
        reach: reach(spec, arm),
        rated_load: rated,
        limited_by,
        torque_load,
        tipping_load,
        lifted,
        tip,
    }))
}

impl fmt::Display for ArmSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |a: Option<f64>| a.map_or("slides first".to_string(), |v| format!("{v:.1}°"));
        writeln!(f, "arm ({:.2} kg)", self.mass)?;
        writeln!(
            f,
            "  reach: {:.2} m ahead of the hull, {:.2} m up, {:.2} m below the tracks",
            self.reach.forward, self.reach.up, self.reach.down
        )?;
        writeln!(
            f,
            "  rated load at full reach: {:.2} kg, limited by {} (joint torques allow {:.2} kg; \
             {:.2} kg tips it)",
            self.rated_load, self.limited_by, self.torque_load, self.tipping_load
        )?;
        writeln!(
            f,
            "  lifted at full reach: {} (test masses in {LIFT_STEP} kg steps, until a joint \
             stalls or the robot noses over)",
            self.lifted
                .map_or("nothing".to_string(), |m| format!("{m:.2} kg"))
        )?;
        writeln!(
            f,
            "  tip-over with the arm          forward: formula  table   sideways: formula  table   \
             (rigid arm; turret gives at)"
        )?;
        for t in &self.tip {
            writeln!(
                f,
                "    {:<26} {:>14.1}° {:>7} {:>17.1}° {:>7}   ({:.1}°; {})",
                t.label,
                t.forward_formula,
                opt(t.forward),
                t.sideways_formula,
                opt(t.sideways),
                t.sideways_rigid,
                t.turret_gives
                    .map_or("holds".to_string(), |v| format!("{v:.1}°")),
            )?;
        }
        Ok(())
    }
}
