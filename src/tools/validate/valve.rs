//! Turning a handwheel valve with the wrist against Coulomb's law (`tests/arm.rs` asserts the
//! same runs): the level gripper pinches the hub of a two-spoke wheel on the stem's axis, the
//! spokes straight up and down, and rolls its wrist. The grip passes on 2·μ·F·ρ about the stem
//! (two pads, each μ·F at the hub's radius ρ); the wheel turns with the wrist while its friction
//! torque is below both that and the wrist's torque limit; when the grip is the weaker the pads
//! slip round the hub until they meet a spoke (at the angle plane geometry gives,
//! [`free_angle`]), and from there push the spokes round; when the wrist is the weaker it
//! stalls.

use nalgebra::Vector3;

use super::arm::{close_on, JointRoles};
use super::{Check, Row, ValidateError};
use crate::envelope::lanes;
use crate::sim::SimConfig;
use crate::vehicle::arm::{ArmCommand, ArmMotion, GripCommand, GripperSpec, MAX_ARM_JOINTS};
use crate::vehicle::RobotSpec;

/// The valve case's arm pose: upper arm 30° up, forearm and gripper level, deg.
const VALVE_POSE_DEG: (f64, f64) = (-30.0, 30.0);
/// The handwheel the case was drawn for (the scout's 30 mm pads): rim radius and the rim's
/// section radius, m (its hub then 0.024 m in radius).
const DRAWN_WHEEL: (f64, f64) = (0.12, 0.01);
/// The pads' half-height the drawn wheel suits, m: its hub is 1.6 × that, so the pads meet a
/// spoke only after some 43° free (the slip case rolls 30°).
const DRAWN_HALF_HEIGHT: f64 = 0.015;
/// Largest share of the gripper's opening the hub's diameter may take, so that the open
/// fingers clear it.
const HUB_IN_OPENING: f64 = 0.8;
/// Friction μ of the wheel (painted steel on the pads' rubber; the pads' own μ may be lower).
const WHEEL_FRICTION: f64 = 0.9;

/// The case's handwheel for one gripper: the drawn wheel scaled with the pads' height (a real
/// gripper is sized to the handwheels it turns), so that every preset meets the same geometry
/// (hub 1.6 × the pads' half-height, the same free angle to the spokes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaseWheel {
    /// Radius of the rim's centre line, m.
    pub radius: f64,
    /// Radius of the rim's section, m (the spokes' is 0.8 × that).
    pub rim: f64,
    /// The hub's radius, m ([`crate::scene::valves::hub_radius`]).
    pub hub: f64,
}

impl CaseWheel {
    /// The wheel for `gripper`: the drawn one scaled by the pads' half-height, less where its
    /// hub would not fit the opening.
    pub fn for_gripper(gripper: &GripperSpec) -> Self {
        let (radius, rim) = DRAWN_WHEEL;
        let drawn_hub = crate::scene::valves::hub_radius(radius, rim);
        let scale = (0.5 * gripper.pad[1] / DRAWN_HALF_HEIGHT)
            .min(0.5 * HUB_IN_OPENING * gripper.opening / drawn_hub);
        let (radius, rim) = (scale * radius, scale * rim);
        Self {
            radius,
            rim,
            hub: crate::scene::valves::hub_radius(radius, rim),
        }
    }

    /// The spokes' section radius, m.
    pub fn spoke(&self) -> f64 {
        0.8 * self.rim
    }
}

/// What one valve run measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValveTurn {
    /// How far the wrist rolled, turns.
    pub rolled: f64,
    /// The farthest it rolled on the way, turns (its servo overshoots a little and comes back).
    pub farthest: f64,
    /// How far the valve turned, turns (positive: opened).
    pub turned: f64,
    /// The wrist motor's largest effort, N·m.
    pub peak: f64,
    /// Whether the gripper still held the wheel at the end.
    pub held: bool,
    /// The gap between the pads once they held the wheel, m.
    pub gap: f64,
}

/// The torque the grip passes on pinching the hub of the case's wheel ([`CaseWheel`]) with
/// `force` N per pad, N·m: 2·μ·F·ρ, μ the lower of the pads' and the wheel's.
pub fn hub_grip_torque(spec: &RobotSpec, force: f64) -> f64 {
    spec.arm.as_ref().map_or(0.0, |a| {
        let mu = a.gripper.friction.min(WHEEL_FRICTION);
        2.0 * mu * force * CaseWheel::for_gripper(&a.gripper).hub
    })
}

/// How far pads pinching a hub may turn round it before they meet a spoke that stood at right
/// angles to their line, rad: 90° less the angle β at which a spoke of radius `spoke` reaches
/// the pads' inner corner (`half_gap` from the stem, `half_height` either side of their line)
/// sunk `sink` m: g·sin β − h·cos β = s − sink.
pub fn free_angle(half_gap: f64, half_height: f64, spoke: f64, sink: f64) -> f64 {
    let corner = half_gap.hypot(half_height);
    let beta = (half_height / half_gap).atan() + ((spoke - sink) / corner).asin();
    std::f64::consts::FRAC_PI_2 - beta
}

impl ValveTurn {
    /// Nothing measured (no arm, or one without a wrist roll): NaN, which fails every row.
    const NOTHING: Self = Self {
        rolled: f64::NAN,
        farthest: f64::NAN,
        turned: f64::NAN,
        peak: f64::NAN,
        held: false,
        gap: f64::NAN,
    };
}

/// The level gripper pinches the hub of a valve of friction torque `torque` N·m with `force`
/// N per pad, the wrist's torque limit `wrist_torque` N·m (`None`: the preset's), and rolls its
/// wrist `roll` turns at half its top speed, then holds 0.5 s.
pub fn valve_turn(
    spec: &RobotSpec,
    config: &SimConfig,
    torque: f64,
    force: f64,
    wrist_torque: Option<f64>,
    roll: f64,
) -> Result<ValveTurn, ValidateError> {
    let nothing = ValveTurn::NOTHING;
    let Some((roles, wrist_roll)) = JointRoles::of(spec).and_then(|r| Some((r, r.roll?))) else {
        return Ok(nothing);
    };
    let mut spec = spec.clone();
    let Some(arm) = spec.arm.as_mut() else {
        return Ok(nothing);
    };
    if let Some(limit) = wrist_torque {
        arm.joints[wrist_roll].max_effort = limit;
    }
    let arm = arm.clone();
    let roll_speed = 0.5 * arm.joints[wrist_roll].max_speed;
    let q = roles.pose(VALVE_POSE_DEG);
    // Where the pads settle with the arm posed: the wheel's hub goes there.
    let (mut bare, id) =
        crate::envelope::trials::start(lanes::flat_pad(lanes::LANE_FRICTION)?, &spec, config)?;
    bare.pose_arm(id, &q, arm.gripper.opening);
    bare.run_for(0.5);
    let Some(settled) = bare.arm_state(id) else {
        return Ok(nothing);
    };
    let hub = settled.tool;
    let axis = -(settled.gripper.rotation * Vector3::x());
    let wheel = CaseWheel::for_gripper(&arm.gripper);
    // Two spokes, open one turn of two: the spokes straight up and down, the pads' line across.
    let text = format!(
        "{}[[valve]]\nname = \"wheel\"\nposition = [{}, {}, {}]\naxis = [{}, {}, {}]\n\
         radius = {}\nrim = {}\nspokes = 2\ntorque = {torque}\ntravel = 2\nopen = 1\n\
         friction = {WHEEL_FRICTION}\n",
        lanes::flat_pad_text(lanes::LANE_FRICTION),
        hub.x,
        hub.y,
        hub.z,
        axis.x,
        axis.y,
        axis.z,
        wheel.radius,
        wheel.rim,
    );
    let scene = lanes::scene_from("valve_pad", text)?;
    let (mut sim, id) = crate::envelope::trials::start(scene, &spec, config)?;
    sim.pose_arm(id, &q, arm.gripper.opening);
    sim.run_for(0.5);
    let grip = GripCommand::Close(force);
    close_on(&mut sim, id, grip, |arm| arm.turning == Some(0));
    let start_roll = sim
        .arm_state(id)
        .map_or(f64::NAN, |s| s.positions[wrist_roll]);
    let gap = sim.arm_state(id).map_or(f64::NAN, |s| s.finger_gap);
    let start_open = sim.valve_state(0).map_or(f64::NAN, |v| v.open);
    let mut rates = [0.0; MAX_ARM_JOINTS];
    rates[wrist_roll] = roll_speed;
    sim.set_arm_command(
        id,
        ArmCommand {
            motion: ArmMotion::JointRates(rates),
            grip,
        },
    );
    let mut peak = 0.0_f64;
    let mut farthest = 0.0_f64;
    let roll_time = roll * std::f64::consts::TAU / roll_speed;
    for _ in 0..(roll_time / sim.config().dt).round() as usize {
        sim.step();
        if let Some(state) = sim.arm_state(id) {
            peak = peak.max(state.efforts[wrist_roll].abs());
            farthest = farthest.max(state.positions[wrist_roll] - start_roll);
        }
    }
    sim.set_arm_command(
        id,
        ArmCommand {
            motion: ArmMotion::Hold,
            grip,
        },
    );
    for _ in 0..(0.5 / sim.config().dt).round() as usize {
        sim.step();
        if let Some(state) = sim.arm_state(id) {
            farthest = farthest.max(state.positions[wrist_roll] - start_roll);
        }
    }
    let arm_state = sim.arm_state(id);
    let valve = sim.valve_state(0);
    Ok(ValveTurn {
        rolled: arm_state.map_or(f64::NAN, |s| s.positions[wrist_roll] - start_roll)
            / std::f64::consts::TAU,
        turned: valve.map_or(f64::NAN, |v| v.open - start_open),
        peak,
        held: arm_state.is_some_and(|s| s.turning == Some(0)),
        gap,
        farthest: farthest / std::f64::consts::TAU,
    })
}

/// The half-height of the presets' pads and the spokes' radius of the case's wheel, m: what
/// [`free_angle`] needs besides the gap.
fn spoke_geometry(spec: &RobotSpec) -> (f64, f64) {
    spec.arm.as_ref().map_or((f64::NAN, f64::NAN), |a| {
        (
            0.5 * a.gripper.pad[1],
            CaseWheel::for_gripper(&a.gripper).spoke(),
        )
    })
}

/// The valve rows for an armed preset: the wheel turns with the wrist below both limits; above
/// the grip's the pads slip round the hub, then push the spokes; above the wrist's it stalls.
pub fn rows(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let (Some(arm), Some(wrist_roll)) =
        (spec.arm.as_ref(), JointRoles::of(spec).and_then(|r| r.roll))
    else {
        return Ok(Vec::new());
    };
    let name = &spec.name;
    let wrist = arm.joints[wrist_roll].max_effort;
    let full = arm.gripper.max_force;
    let strong = hub_grip_torque(spec, full);
    // Turns: the valve at 0.4 × the weaker of grip and wrist, half a turn.
    let turns = valve_turn(spec, config, 0.4 * strong.min(wrist), full, None, 0.5)?;
    // Slips: a grip that passes on a sixth of the wrist's torque, the valve 2.5 × that (the
    // plates add a little with the pads off the stem by millimetres); a twelfth of a turn (30°,
    // inside the free angle), then half a turn.
    let weak_force = (wrist / 6.0 / hub_grip_torque(spec, 1.0)).min(full);
    let weak = 2.5 * hub_grip_torque(spec, weak_force);
    let slips = valve_turn(spec, config, weak, weak_force, None, 1.0 / 12.0)?;
    let pushes = valve_turn(spec, config, weak, weak_force, None, 0.5)?;
    let (half_height, spoke) = spoke_geometry(spec);
    let free = free_angle(
        0.5 * pushes.gap,
        half_height,
        spoke,
        f64::from(crate::sim::SLIP_SWEEP_SINK),
    ) / std::f64::consts::TAU;
    // Stalls: a full grip, the valve at half of what it passes on, the wrist at 0.8 × that.
    let stall_valve = 0.5 * strong;
    let stalls = valve_turn(
        spec,
        config,
        stall_valve,
        full,
        Some(0.8 * stall_valve),
        0.5,
    )?;
    Ok(vec![
        Row::new(
            "valve",
            name,
            "valve turns with the wrist, torque 0.4 × weaker of 2·μ·F·ρ and wrist limit",
            "turns",
            (-turns.turned, turns.rolled),
            Check::Relative(0.02),
            "valve",
        ),
        Row::new(
            "valve",
            name,
            "valve turns as the pads slip 30°+ round the hub, torque 2.5 × 2·μ·F·ρ",
            "turns",
            (slips.turned.abs(), 0.0),
            Check::AtMost(0.002),
            "valve",
        ),
        Row::new(
            "valve",
            name,
            "valve turns by the wrist's half turn less the pads' free angle to the spokes",
            "turns",
            (-pushes.turned, pushes.farthest - free),
            Check::Absolute(2.0 / 360.0),
            "valve",
        ),
        Row::new(
            "valve",
            name,
            "wrist rolls against a valve of 1.25 × its torque limit",
            "turns",
            (stalls.rolled.abs(), 0.0),
            Check::AtMost(0.003),
            "valve",
        ),
        Row::new(
            "valve",
            name,
            "largest wrist effort against that valve, vs its limit",
            "N·m",
            (stalls.peak, 0.8 * stall_valve),
            Check::AtMost(0.001 * stall_valve),
            "valve",
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gripper(pad_height: f64, opening: f64) -> GripperSpec {
        let mut spec = crate::vehicle::robot_file::test_preset("scout_eod")
            .arm
            .expect("the scout_eod preset carries an arm")
            .gripper;
        spec.pad[1] = pad_height;
        spec.opening = opening;
        spec
    }

    #[test]
    fn the_case_wheel_scales_with_the_pads() {
        // The scout's 30 mm pads: the drawn wheel, hub 0.2 × 0.12 = 24 mm (1.6 × 15 mm).
        let scout = CaseWheel::for_gripper(&gripper(0.03, 0.10));
        assert!((scout.radius - 0.12).abs() < 1e-12 && (scout.hub - 0.024).abs() < 1e-12);
        // 80 mm pads (heavy250_eod): 8/3 the size, hub 64 mm, still 1.6 × the half-height.
        let heavy = CaseWheel::for_gripper(&gripper(0.08, 0.25));
        assert!((heavy.radius - 0.32).abs() < 1e-12, "{heavy:?}");
        assert!((heavy.hub - 1.6 * 0.04).abs() < 1e-12, "{heavy:?}");
        assert!(
            (heavy.spoke() - 0.8 * 0.08 / 3.0).abs() < 1e-12,
            "{heavy:?}"
        );
        // Tall pads on a narrow opening: the hub's diameter stops at 0.8 of the opening.
        let narrow = CaseWheel::for_gripper(&gripper(0.08, 0.10));
        assert!((2.0 * narrow.hub - 0.08).abs() < 1e-12, "{narrow:?}");
    }

    #[test]
    fn pads_meet_a_spoke_at_the_angle_plane_geometry_gives() {
        // Pads 30 mm high on a 24.9 mm half gap, spokes 8 mm: β = atan(15/24.9) + asin(8/29.07)
        // = 31.06° + 15.97° = 47.0°, so 43.0° free; sunk 0.5 mm, 44.0°.
        let free = free_angle(0.0249, 0.015, 0.008, 0.0).to_degrees();
        assert!((free - 42.97).abs() < 0.05, "{free}");
        let sunk = free_angle(0.0249, 0.015, 0.008, 0.0005).to_degrees();
        assert!(sunk > free && (sunk - 44.0).abs() < 0.1, "{sunk}");
    }
}
