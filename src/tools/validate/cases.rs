//! The validation cases: each a headless run of a preset on a generated lane, measured and
//! compared with its reference. Every case takes the step size from the options, so the
//! table can be rerun at any dt.

use std::path::Path;

use nalgebra::{Isometry3, Vector2, Vector3};

use super::coulomb::{steady_twist, PlanarContact, Twist};
use super::{Check, Row, ValidateError, ValidateOptions};
use crate::control::kinematic::{KinematicTracked, PlanarPose};
use crate::envelope::{self, lanes, trials};
use crate::sim::{RobotId, SimConfig, Simulation};
use crate::vehicle::robot_file::load_robot;
use crate::vehicle::spec::Steering;
use crate::vehicle::stability::TipLimits;
use crate::vehicle::{DriveCommand, RobotSpec};

/// Standard gravity, m/s².
const G: f64 = 9.81;
/// Tracked presets of the full form.
const TRACKED: [&str; 4] = ["scout", "selfright20", "tracker55", "heavy250"];
/// Presets with an arm: joint torque and grip.
const ARMED: [&str; 3] = ["scout_eod", "tracker55_eod", "heavy250_eod"];
/// Wheeled presets with Ackermann steering of the full form.
const STEERED: [&str; 1] = ["rover30"];
/// Settling time on the pad before a case measures, s.
const SETTLE: f64 = 1.0;
/// Friction of the slope cases' pad, at most: a robot whose least tip-over angle is lower
/// gets a pad whose friction angle plus the margin stays [`TIP_CLEARANCE`] below it (a robot
/// that tips first cannot show sliding).
const SLOPE_FRICTION: f64 = 0.5;
/// How far below the least tip-over angle the slide case's slope stays, deg.
const TIP_CLEARANCE: f64 = 5.0;
/// The slope cases' margin either side of atan μ, deg.
const SLOPE_MARGIN: f64 = 3.0;
/// Gap widths are bisected down to this, m.
const GAP_RESOLUTION: f64 = 0.01;

/// How the cases are run and judged, for `docs/validation.md`.
pub const METHOD: &str = "\
- **rest on flat ground**: 2 s on a level pad (μ 0.8); the sum of the track model's normal forces over m·g, within 0.5 %.
- **drop**: released 0.2 m above the pad; the largest rise of mechanical energy (kinetic, gravitational and the contacts' elastic energy) in any step, as a share of m·g·0.2, at most 1 %; the time after which the robot is at rest (|v| < 5 mm/s, |ω| < 0.02 rad/s) at most 2 s.
- **straight (kinematic limit)**: belts at half the slowest motor's top speed for 2 s, then 5 s measured: the ground speed over the belt speed within 3 %, and the distance between the end point and seed 000's no-slip arc from the same start, as a share of the distance driven, at most 2 %.
- **steady turn**: belts at 0.5·v_top / 0.2·v_top (a skid turn) and ±0.5·v_top (a pivot), 3 s to a steady state, then 1 s measured: the mean yaw rate and forward speed against the Coulomb equilibrium solved on the model's own contact loads, belt directions, friction coefficients and belt speeds at five instants of that second (their mean), within 3 % (pivot forward speed: within 0.01 m/s).
- **slope hold / slide**: on the level pad (μ 0.5, or less where a robot's least tip-over angle is below atan μ + 8°: then tan of that angle − 8°) gravity is tilted to atan μ ∓ 3° falling towards 8 directions around the robot (4 in the fast form), belts held at zero: below, the body moves at most 1 cm in 5 s once calm (the tilt table's settling: its hull turning slower than 0.005 rad/s for 0.5 s); above, at least 0.3 m in 3 s after 1 s.
- **tilt table**: the envelope's tilt table (μ 3; gravity turning at 1.5°/s, then at 0.25°/s once the uphill half of the footprint bears under a tenth of the load, as tilt-table practice slows near wheel liftoff) against the support-polygon formula, compared as lever arms h·tan θ within 1 cm; sideways a belt of several planes bears across its whole width (a plane's load lies where its strip presses hardest), so a rigid robot would tip over its outer plane, but the compliant one rolls onto that plane only once the uphill track has lifted and the roll carries it over sooner (roll compliance, as a suspended vehicle's): it is checked between the downhill belt's centre line and its outer plane, two one-sided rows within 1 cm; a direction whose formula is within 3° of the pad's friction angle (71.6°) or beyond may slide first and is not listed.
- **gap**: the envelope's gap lane (platforms 0.6 m high, flippers level, autopilot at 0.3 m/s), bisected to 1 cm: the widest gap crossed is at least the static rule's (the shorter of the running gear's reach ahead of and behind the centre of mass, to the extreme points of the main tracks' and the level flippers' circles below it; a robot always supported crosses), less 0.05 m, and at most the running gear's length (no robot bridges a gap longer than itself). Moving, a robot carries over a little more than statics guarantee: the nose dips slowly while the centre of mass is just past the edge.
- **Ackermann circle**: a steered wheeled robot at 0.5 m/s, outer wheel at 15°, 8 s: the radius of its centre of mass's path (v/ω) against seed 001's centre of rotation, within 5 %.
- **arm joint torque**: the armed preset's elbow with the upper arm straight up and the forearm level, its torque limit set to 1.05 and 0.95 × the gravity moment of everything outboard of it (from the arm file's masses); 2 s: holding, it sags at most 0.5° and its motor reads the moment within 10 %; below, it sags at least 10° and its motor never exceeds the limit (0.1 %).
- **grip**: a 1 kg box (μ 0.5) on a pedestal between the level gripper's fingers, gripped with F per finger and, 0.25 s after the pads hold it, lifted 0.2 rad by the shoulder in 1 s and held 1 s: at 2·μ·F = 1.25·m·g it slides at most 3 mm in the grip; at 0.8·m·g at least 5 cm. Every armed preset.
- **valve**: the gripper, level at the end of an arm 30° up, closes on the hub of a two-spoke handwheel on a stem along its own axis (spokes up and down) and, 0.25 s after the pads hold it, rolls its wrist at half its top speed. The wheel is drawn for the scout's 30 mm pads (rim radius 0.12 m, section 10 mm, hub 24 mm: 1.6 × the pads' half-height) and scaled for each gripper by its pads' height, as real grippers are sized to the handwheels they turn (tracker55_eod 0.20 m, heavy250_eod 0.32 m), so each meets the same free angle to the spokes. Every armed preset.";

/// One case's work: rows, or why it could not run.
pub type Job<'a> = Box<dyn Fn() -> Result<Vec<Row>, ValidateError> + Send + Sync + 'a>;

/// The jobs of a validation run, in table order.
pub fn jobs(options: &ValidateOptions) -> Result<Vec<Job<'_>>, ValidateError> {
    let tracked: &[&str] = if options.fast {
        &TRACKED[..1]
    } else {
        &TRACKED
    };
    let mut specs = Vec::new();
    for name in tracked {
        specs.push(preset(&options.robots, name)?);
    }
    let mut steered = Vec::new();
    for name in STEERED {
        steered.push(preset(&options.robots, name)?);
    }
    let config = &options.config;
    let directions = if options.fast { 4 } else { 8 };
    let mut jobs: Vec<Job<'_>> = Vec::new();
    for spec in specs {
        let spec = std::sync::Arc::new(spec);
        let s = spec.clone();
        jobs.push(Box::new(move || rest(&s, config)));
        let s = spec.clone();
        jobs.push(Box::new(move || drop_test(&s, config)));
        let s = spec.clone();
        jobs.push(Box::new(move || straight(&s, config)));
        for (left, right, label) in [(0.5, 0.2, "skid turn"), (-0.5, 0.5, "pivot")] {
            let s = spec.clone();
            jobs.push(Box::new(move || turn(&s, config, left, right, label)));
        }
        let s = spec.clone();
        jobs.push(Box::new(move || slope(&s, config, directions)));
        let s = spec.clone();
        jobs.push(Box::new(move || tilt(&s, config)));
        let s = spec.clone();
        jobs.push(Box::new(move || gap(&s, config)));
    }
    for spec in steered {
        jobs.push(Box::new(move || ackermann(&spec, config)));
    }
    for name in ARMED {
        let spec = preset(&options.robots, name)?;
        let s = spec.clone();
        jobs.push(Box::new(move || super::arm::rows(&s, config)));
        jobs.push(Box::new(move || super::valve::rows(&spec, config)));
    }
    Ok(jobs)
}

/// Preset `name` from `dir`.
fn preset(dir: &Path, name: &str) -> Result<RobotSpec, ValidateError> {
    Ok(load_robot(&dir.join(format!("{name}.toml")))?)
}

/// `spec` on the level pad of friction `mu`, at its spawn.
fn on_pad(
    spec: &RobotSpec,
    config: &SimConfig,
    mu: f64,
) -> Result<(Simulation, RobotId), ValidateError> {
    Ok(trials::start(lanes::flat_pad(mu)?, spec, config)?)
}

fn drive(sim: &mut Simulation, id: RobotId, left: f64, right: f64) {
    sim.set_command(id, DriveCommand::belts(left, right));
}

/// Steps of `seconds` at the simulation's step.
fn steps(sim: &Simulation, seconds: f64) -> usize {
    (seconds / sim.config().dt).round() as usize
}

fn rest(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let (mut sim, id) = on_pad(spec, config, lanes::LANE_FRICTION)?;
    sim.run_for(2.0);
    let share = sim.robot(id).support_force() / (spec.mass * G);
    Ok(vec![Row::new(
        "rest on flat ground",
        &spec.name,
        "Σ normal force / m·g",
        "",
        (share, 1.0),
        Check::Relative(0.005),
        "design",
    )])
}

/// The largest rise of mechanical energy in any one step of a drop, as a share of m·g·h (h the
/// drop's height), that the drop row and its wider form in the tests allow.
pub const DROP_RISE_SHARE: f64 = 0.01;

/// What a drop did to a robot ([`drop_from`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DropOutcome {
    /// The largest rise of the robot's mechanical energy (kinetic, gravitational and the
    /// contacts' elastic energy) in any one step, J (0 if it never rose).
    pub worst_rise: f64,
    /// When that rise happened, simulation time, s.
    pub worst_at: f64,
    /// The time after release from which the robot stayed at rest (|v| < 5 mm/s,
    /// |ω| < 0.02 rad/s) to the end, s (infinite if it was not at rest at the end).
    pub settled: f64,
}

/// Releases robot `id` of `sim` at `pose` (world) from rest and lets it fall and land for
/// `seconds` s: the largest one-step rise of its mechanical energy and the time it took to
/// come to rest (the validation's drop row, DESIGN.md: "energy never grows").
pub fn drop_from(
    sim: &mut Simulation,
    id: RobotId,
    pose: &Isometry3<f64>,
    seconds: f64,
) -> DropOutcome {
    sim.teleport(id, pose);
    sim.step();
    let mut last = sim.mechanical_energy(id);
    let mut worst = (0.0f64, sim.time());
    let mut calm_since = None;
    let start = sim.time();
    for _ in 0..steps(sim, seconds) {
        sim.step();
        let e = sim.mechanical_energy(id);
        if e - last > worst.0 {
            worst = (e - last, sim.time());
        }
        last = e;
        let b = sim.body_state(id);
        let calm = b.linvel.norm() < 0.005 && b.angvel.norm() < 0.02;
        match (calm, calm_since) {
            (true, None) => calm_since = Some(sim.time() - start),
            (false, _) => calm_since = None,
            _ => {}
        }
    }
    DropOutcome {
        worst_rise: worst.0,
        worst_at: worst.1,
        settled: calm_since.unwrap_or(f64::INFINITY),
    }
}

fn drop_test(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let (mut sim, id) = on_pad(spec, config, lanes::LANE_FRICTION)?;
    let drop = drop_from(&mut sim, id, &Isometry3::translation(0.0, 0.0, 0.2), 3.0);
    let scale = spec.mass * G * 0.2;
    Ok(vec![
        Row::new(
            "drop from 0.2 m",
            &spec.name,
            "largest energy rise in a step / m·g·0.2",
            "",
            (drop.worst_rise / scale, 0.0),
            Check::AtMost(DROP_RISE_SHARE),
            "design",
        ),
        Row::new(
            "drop from 0.2 m",
            &spec.name,
            "time to rest",
            "s",
            (drop.settled, 2.0),
            Check::AtMost(0.0),
            "design",
        ),
    ])
}

fn planar(sim: &Simulation, id: RobotId) -> PlanarPose {
    let p = sim.body_state(id).pose;
    let (_, _, yaw) = p.rotation.euler_angles();
    PlanarPose {
        x: p.translation.x,
        y: p.translation.y,
        yaw,
    }
}

fn straight(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let v = 0.5 * spec.slowest_motor(|m| m.max_speed);
    let (mut sim, id) = on_pad(spec, config, lanes::LANE_FRICTION)?;
    drive(&mut sim, id, v, v);
    sim.run_for(2.0);
    let start = planar(&sim, id);
    let kinematic = KinematicTracked {
        gauge: spec.track_gauge(),
    };
    let mut predicted = start;
    let dt = sim.config().dt;
    let n = steps(&sim, 5.0);
    for _ in 0..n {
        sim.step();
        predicted = kinematic.step(predicted, v, v, dt);
    }
    let end = planar(&sim, id);
    let driven = (end.x - start.x).hypot(end.y - start.y);
    let speed = driven / (n as f64 * dt);
    let miss = (end.x - predicted.x).hypot(end.y - predicted.y);
    Ok(vec![
        Row::new(
            "straight",
            &spec.name,
            format!("ground speed / belt speed at {v:.2} m/s"),
            "",
            (speed / v, 1.0),
            Check::Relative(0.03),
            "seed000",
        ),
        Row::new(
            "straight",
            &spec.name,
            "miss of seed 000's path / distance driven",
            "",
            (miss / driven.max(1e-9), 0.0),
            Check::AtMost(0.02),
            "seed000",
        ),
    ])
}

/// The model's contacts as the Coulomb solve takes them: body frame, relative to the centre
/// of mass, in the ground plane.
fn planar_contacts(sim: &Simulation, id: RobotId) -> Vec<PlanarContact> {
    let body = sim.body_state(id);
    let to_body = body.pose.rotation.inverse();
    sim.robot(id)
        .contacts()
        .iter()
        .filter(|c| c.normal_force > 0.0)
        .filter_map(|c| {
            let point = to_body * (c.point - body.com);
            let along = (to_body * c.belt_direction).xy().try_normalize(1e-9)?;
            Some(PlanarContact {
                point: point.xy(),
                along,
                load: c.normal_force,
                mu: c.mu,
                rolling_resistance: c.rolling_resistance,
                slip_ratio_stiffness: c.slip_ratio_stiffness,
                drive: c.track,
            })
        })
        .collect()
}

fn turn(
    spec: &RobotSpec,
    config: &SimConfig,
    left: f64,
    right: f64,
    label: &str,
) -> Result<Vec<Row>, ValidateError> {
    let top = spec.slowest_motor(|m| m.max_speed);
    let (mut sim, id) = on_pad(spec, config, lanes::LANE_FRICTION)?;
    sim.run_for(SETTLE);
    drive(&mut sim, id, left * top, right * top);
    sim.run_for(3.0);
    let n = steps(&sim, 1.0);
    let (mut yaw_rate, mut forward) = (0.0, 0.0);
    let mut reference = Vec::new();
    for i in 0..n {
        sim.step();
        let body = sim.body_state(id);
        yaw_rate += body.angvel.z / n as f64;
        forward += (body.pose.rotation.inverse() * body.linvel).x / n as f64;
        if i % (n / 5).max(1) == 0 && reference.len() < 5 {
            let model = sim.robot(id);
            let speeds: Vec<f64> = (0..model.drive_count())
                .map(|d| model.drive_speed(d))
                .collect();
            let contacts = planar_contacts(&sim, id);
            // No equilibrium (a robot off the ground, bouncing) leaves the row without a
            // reference: it fails.
            reference.push(
                steady_twist(&contacts, &speeds, spec.mass).unwrap_or(Twist {
                    vx: f64::NAN,
                    vy: f64::NAN,
                    yaw_rate: f64::NAN,
                }),
            );
        }
    }
    let mean = |f: fn(&Twist) -> f64| reference.iter().map(f).sum::<f64>() / reference.len() as f64;
    let ref_yaw = mean(|t| t.yaw_rate);
    let ref_forward = mean(|t| t.vx);
    let belts = format!("belts {:+.2}/{:+.2} m/s", left * top, right * top);
    let forward_check = if ref_forward.abs() < 0.1 {
        Check::Absolute(0.01)
    } else {
        Check::Relative(0.03)
    };
    Ok(vec![
        Row::new(
            "steady turn",
            &spec.name,
            format!("{label} yaw rate, {belts}"),
            "rad/s",
            (yaw_rate, ref_yaw),
            Check::Relative(0.03),
            "wong",
        ),
        Row::new(
            "steady turn",
            &spec.name,
            format!("{label} forward speed, {belts}"),
            "m/s",
            (forward, ref_forward),
            forward_check,
            "wong",
        ),
    ])
}

/// Gravity for a slope of `angle` (rad) falling towards the world heading `towards` (rad).
fn slope_gravity(angle: f64, towards: f64) -> Vector3<f64> {
    trials::slope_gravity(angle, Vector2::new(towards.cos(), towards.sin()))
}

fn slope(
    spec: &RobotSpec,
    config: &SimConfig,
    directions: usize,
) -> Result<Vec<Row>, ValidateError> {
    let tip = TipLimits::from_spec(spec);
    let least_tip = tip.forward.min(tip.backward).min(tip.left).min(tip.right);
    let mu = SLOPE_FRICTION.min((least_tip - (SLOPE_MARGIN + TIP_CLEARANCE).to_radians()).tan());
    let limit = mu.atan();
    let mut rows = Vec::new();
    for k in 0..directions {
        let towards = std::f64::consts::TAU * k as f64 / directions as f64;
        let facing = format!("downhill {:.0}° ccw of its heading", towards.to_degrees());
        for holds in [true, false] {
            let angle = limit + (if holds { -1.0 } else { 1.0 }) * SLOPE_MARGIN.to_radians();
            let (mut sim, id) = on_pad(spec, config, mu)?;
            sim.set_gravity(slope_gravity(angle, towards));
            if holds {
                // A front-heavy robot rocks on its end wheels for seconds after it is set
                // down: the hold is judged once it is calm (the tilt table's rule).
                trials::settle_calm(&mut sim, id);
            } else {
                sim.run_for(SETTLE);
            }
            let p0 = sim.body_state(id).pose.translation.vector;
            sim.run_for(if holds { 5.0 } else { 3.0 });
            let moved = (sim.body_state(id).pose.translation.vector - p0).norm();
            let slope = format!("{:.1}°, μ {mu:.2}", angle.to_degrees());
            rows.push(if holds {
                Row::new(
                    "slope, belts held",
                    &spec.name,
                    format!("drift in 5 s at {slope} (atan μ − 3°), {facing}"),
                    "m",
                    (moved, 0.0),
                    Check::AtMost(0.01),
                    "coulomb",
                )
            } else {
                Row::new(
                    "slope, belts held",
                    &spec.name,
                    format!("slide in 3 s at {slope} (atan μ + 3°), {facing}"),
                    "m",
                    (moved, 0.3),
                    Check::AtLeast(0.0),
                    "coulomb",
                )
            });
        }
    }
    Ok(rows)
}

fn tilt(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let tip = envelope::measure_tip(spec, config, 1)?;
    let h = TipLimits::from_spec(spec).com_height;
    let slide = lanes::TILT_TABLE_FRICTION.atan().to_degrees();
    let lever = |deg: f64| h * deg.to_radians().tan();
    let (centre_line, outer_plane) = envelope::sideways_bracket(spec);
    let mut rows = Vec::new();
    // Sideways a compliant belt tips between its centre line and its outer plane
    // (`envelope::sideways_bracket`): two one-sided rows, dropped together where the outer
    // plane's angle is near sliding and the robot slid.
    let (forward, backward) = (tip.forward_formula, tip.backward_formula);
    for (what, formula, steepest, measured, check) in [
        (
            "forward",
            forward,
            forward,
            tip.forward,
            Check::Absolute(0.01),
        ),
        (
            "backward",
            backward,
            backward,
            tip.backward,
            Check::Absolute(0.01),
        ),
        (
            "sideways (outer plane)",
            outer_plane,
            outer_plane,
            tip.sideways,
            Check::AtMost(0.01),
        ),
        (
            "sideways (centre line)",
            centre_line,
            outer_plane,
            tip.sideways,
            Check::AtLeast(0.01),
        ),
    ] {
        if measured.is_none() && steepest > slide - 3.0 {
            continue;
        }
        let model = measured.unwrap_or(f64::NAN);
        rows.push(Row::new(
            "tilt table",
            &spec.name,
            format!("{what} tip-over lever h·tan θ (formula {formula:.1}°)"),
            "m",
            (lever(model), lever(formula)),
            check,
            "tilt",
        ));
    }
    Ok(rows)
}

/// The trench rule's widest gap for `spec` with its flippers level: the shorter of the
/// running gear's reach ahead of and behind the centre of mass, m. The reach runs to the
/// extreme points of the belts' circles (main tracks, and flippers at 0°) that sit below the
/// centre of mass: a raised idler or level flipper lands on the far edge as the nose dips.
pub fn trench_reference(spec: &RobotSpec) -> f64 {
    let (rear, front) = running_gear_reach(spec);
    let x = spec.center_of_mass.x;
    (front - x).min(x - rear)
}

/// Rearmost and foremost x (body frame, m) of the belts' circles below the centre of mass,
/// with the flippers level.
fn running_gear_reach(spec: &RobotSpec) -> (f64, f64) {
    use crate::vehicle::geometry::{flipper_circles_at, track_circles};
    let mut circles: Vec<_> = spec
        .tracks
        .iter()
        .flat_map(track_circles)
        .copied()
        .collect();
    for f in &spec.flippers {
        circles.extend(flipper_circles_at(f, 0.0));
    }
    circles
        .iter()
        .filter(|c| c.z - c.radius < spec.center_of_mass.z)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c.x - c.radius), hi.max(c.x + c.radius))
        })
}

fn gap(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let reference = trench_reference(spec);
    // The widest gap crossed, by bisection from a gap it surely crosses to one it cannot.
    let (mut lo, mut hi) = (0.05, 2.0 * reference + 0.2);
    if !trials::gap(spec, config, lo)?.pass {
        lo = 0.0;
    } else {
        while hi - lo > GAP_RESOLUTION {
            let mid = 0.5 * (lo + hi);
            if trials::gap(spec, config, mid)?.pass {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }
    let (rear, front) = running_gear_reach(spec);
    Ok(vec![
        Row::new(
            "gap",
            &spec.name,
            "widest gap crossed, flippers level, vs the static rule",
            "m",
            (lo, reference),
            Check::AtLeast(0.05),
            "trench",
        ),
        Row::new(
            "gap",
            &spec.name,
            "widest gap crossed vs the running gear's length",
            "m",
            (lo, front - rear),
            Check::AtMost(0.0),
            "trench",
        ),
    ])
}

fn ackermann(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    if !matches!(spec.steering, Steering::Ackermann { .. }) {
        return Ok(Vec::new());
    }
    let alpha = 15f64.to_radians();
    let front = spec.wheels.iter().filter(|w| w.steered).map(|w| w.center.x);
    let rear = spec
        .wheels
        .iter()
        .filter(|w| !w.steered)
        .map(|w| w.center.x);
    let mean = |xs: Vec<f64>| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let (front, rear) = (mean(front.collect()), mean(rear.collect()));
    let width = spec
        .wheels
        .iter()
        .map(|w| w.center.y)
        .fold(f64::NEG_INFINITY, f64::max)
        - spec
            .wheels
            .iter()
            .map(|w| w.center.y)
            .fold(f64::INFINITY, f64::min);
    let wheelbase = front - rear;
    let across = wheelbase / alpha.tan() - width / 2.0;
    let reference = (spec.center_of_mass.x - rear).hypot(across - spec.center_of_mass.y);
    let (mut sim, id) = on_pad(spec, config, lanes::LANE_FRICTION)?;
    sim.run_for(SETTLE);
    sim.set_command(
        id,
        DriveCommand {
            left: 0.5,
            right: 0.5,
            flipper: None,
            steer: Some(alpha),
        },
    );
    sim.run_for(8.0);
    let b = sim.body_state(id);
    let radius = b.linvel.norm() / b.angvel.z.abs();
    Ok(vec![Row::new(
        "Ackermann circle",
        &spec.name,
        "radius of the centre of mass's path, 0.5 m/s, outer wheel 15°",
        "m",
        (radius, reference),
        Check::Relative(0.05),
        "seed001",
    )])
}
