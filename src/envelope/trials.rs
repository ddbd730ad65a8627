//! One envelope trial each: a robot on a lane with a documented driving strategy, judged
//! pass or fail with the reason. Trials share nothing, so the sweeps can run them on any
//! thread and in any order and get the same results.

use nalgebra::{Vector2, Vector3};
use serde::Serialize;

use super::lanes::{self, GAP_DEPTH, LANE_FRICTION, STAIR_COUNT, STAIR_RISE, TILT_TABLE_FRICTION};
use super::EnvelopeError;
use crate::control::autopilot::{Autopilot, Goal, SENSOR_SEED};
use crate::scene::Scene;
use crate::sim::ranging::RangeSensor;
use crate::sim::{RobotId, SimConfig, SimEvent, Simulation};
use crate::vehicle::stability::Tilt;
use crate::vehicle::{BodyState, DriveCommand, RobotSpec};

/// Standard gravity, m/s².
const G: f64 = 9.81;
/// Settling time before a trial's clock starts, s.
const SETTLE: f64 = 1.0;
/// The tilt table starts once the hull turns slower than this, rad/s.
const CALM_SPIN: f64 = 0.005;
/// The hull must stay calm this long before the tilt table starts, s.
const CALM_TIME: f64 = 0.5;
/// Longest a robot is given to settle on the tilt table, s.
const MAX_SETTLE: f64 = 20.0;
/// Tilt beyond which a robot has tipped over (relative to the ground plane), rad (60°).
const TIPPED: f64 = std::f64::consts::FRAC_PI_3;
/// A robot that gains less than this along the lane in [`STALL_TIME`] has stalled, m.
const STALL_PROGRESS: f64 = 0.05;
/// See [`STALL_PROGRESS`], s: long enough for the autopilot's own stall detection, back-off
/// and retry (`control::stair_climb`), which report first.
const STALL_TIME: f64 = 25.0;
/// Approach speed on the stairs, steps and gaps, m/s (an operator's careful approach, kept
/// on the flight by the autopilot's climb strategy).
pub const OBSTACLE_SPEED: f64 = 0.3;
/// Flipper angle of the strategy "without flippers", rad: stowed, folded back along the
/// tracks (180°), where they touch nothing.
pub const STOWED: f64 = std::f64::consts::PI;

/// How a trial ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Whether the robot did what the trial asks.
    pub pass: bool,
    /// Why not (or how it passed), for the sheet.
    pub reason: String,
}

impl Outcome {
    fn pass(reason: impl Into<String>) -> Self {
        Self {
            pass: true,
            reason: reason.into(),
        }
    }

    fn fail(reason: impl Into<String>) -> Self {
        Self {
            pass: false,
            reason: reason.into(),
        }
    }
}

/// A simulation of `spec` at the scene's first spawn, with the settings `config`.
pub fn start(
    scene: Scene,
    spec: &RobotSpec,
    config: &SimConfig,
) -> Result<(Simulation, RobotId), EnvelopeError> {
    let spawn = scene
        .spawns
        .first()
        .cloned()
        .ok_or(EnvelopeError::NoSpawn)?;
    let mut sim = Simulation::new(scene, *config)?;
    let id = sim.add_robot(spec.clone(), &spawn)?;
    Ok((sim, id))
}

/// Whether the robot has tipped over relative to the ground plane (world z; on the pad the
/// plane stays level while gravity turns).
fn tipped(body: &BodyState) -> bool {
    let tilt = Tilt::of(&body.pose);
    tilt.upside_down || tilt.nose_up.abs() > TIPPED || tilt.left_up.abs() > TIPPED
}

/// The first event that ends a trial, as a failure reason.
fn failure_event(sim: &Simulation) -> Option<Outcome> {
    sim.events().first().map(|e| match e {
        SimEvent::BlowUp { reason, .. } => Outcome::fail(format!("blow-up: {reason}")),
        SimEvent::Reset { .. } | SimEvent::Disabled { .. } => Outcome::fail("blow-ups"),
        SimEvent::Fell { .. } => Outcome::fail("fell"),
        SimEvent::OutOfBounds { .. } => Outcome::fail("left the lane"),
    })
}

/// Gravity for a slope of `angle` (rad) falling towards the unit direction `down` (world
/// x–y), m/s².
pub fn slope_gravity(angle: f64, down: Vector2<f64>) -> Vector3<f64> {
    let along = G * angle.sin();
    Vector3::new(down.x * along, down.y * along, -G * angle.cos())
}

/// Tilt-table directions: which way the table falls away under the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TiltDirection {
    /// Nose down.
    Forward,
    /// Nose up.
    Backward,
    /// Right side down.
    Sideways,
}

/// The tilt table: on the high-friction pad, gravity turns as tilt-table practice turns a
/// table ([`TiltRate::Practice`]) after the robot has settled; returns the table angle (rad)
/// at which the robot's own tilt relative to the pad passes 5° in that direction, or `None`
/// if it slid 0.1 m first or never tipped up to 80°.
pub fn tilt_table(
    spec: &RobotSpec,
    config: &SimConfig,
    direction: TiltDirection,
) -> Result<Option<f64>, EnvelopeError> {
    let (mut sim, id) = start(lanes::flat_pad(TILT_TABLE_FRICTION)?, spec, config)?;
    Ok(tilt_run(&mut sim, id, direction))
}

/// How fast the tilt table turns while the robot's uphill side still bears its share, rad/s
/// (1.5°/s, SAE J2180's and TERNZ's approach rate is of this order: a robot on rigid supports
/// tips where it would at rest).
pub const TILT_RATE: f64 = 1.5 * (std::f64::consts::PI / 180.0);

/// The rate at which tilt-table practice turns a table near the tip, rad/s (0.25°/s: no
/// faster "when nearing suspension lash and wheel liftoff", TERNZ's tilt-table report for
/// New Zealand's LTSA, 2001, comparing its table with SAE J2180). A robot that gives as the
/// table turns (an arm's turret swinging downhill, a nose-heavy robot rocking on its
/// compliant front run) tips at another angle at [`TILT_RATE`]: the table runs on while its
/// fall starts from rest (0.8–0.9° late at 70°).
pub const QUASI_STATIC_TILT_RATE: f64 = 0.25 * (std::f64::consts::PI / 180.0);

/// The uphill half of the footprint's share of the robot's contact load below which the
/// practice table slows to [`QUASI_STATIC_TILT_RATE`]: "nearing wheel liftoff" (the uphill
/// end's wheels, or side's track, unloading).
pub const LIFTOFF_SHARE: f64 = 0.1;

/// How a tilt table turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TiltRate {
    /// At this rate throughout, rad/s.
    Constant(f64),
    /// As practice turns it: at [`TILT_RATE`] until the uphill half of the footprint bears
    /// less than [`LIFTOFF_SHARE`] of the load, then at [`QUASI_STATIC_TILT_RATE`] on to the
    /// tip.
    Practice,
}

/// The tilt table run on a robot already on the pad (see [`tilt_table`]): returns the table
/// angle, rad, or `None`.
pub fn tilt_run(sim: &mut Simulation, id: RobotId, direction: TiltDirection) -> Option<f64> {
    tilt_run_with(sim, id, direction, TiltRate::Practice)
}

/// The tilt table run of [`tilt_run`] with gravity turning at a constant `rate`, rad/s.
pub fn tilt_run_at(
    sim: &mut Simulation,
    id: RobotId,
    direction: TiltDirection,
    rate: f64,
) -> Option<f64> {
    tilt_run_with(sim, id, direction, TiltRate::Constant(rate))
}

/// The tilt table run of [`tilt_run`] turning as `rate` says.
pub fn tilt_run_with(
    sim: &mut Simulation,
    id: RobotId,
    direction: TiltDirection,
    rate: TiltRate,
) -> Option<f64> {
    settle_calm(sim, id);
    // The body's origin, not its centre of mass: an arm swinging downhill moves the latter.
    let p0 = sim.body_state(id).pose.translation.vector;
    let down = match direction {
        TiltDirection::Forward => Vector2::new(1.0, 0.0),
        TiltDirection::Backward => Vector2::new(-1.0, 0.0),
        TiltDirection::Sideways => Vector2::new(0.0, -1.0),
    };
    let lean = |sim: &Simulation| {
        let tilt = Tilt::of(&sim.body_state(id).pose);
        match direction {
            TiltDirection::Forward => -tilt.nose_up,
            TiltDirection::Backward => tilt.nose_up,
            TiltDirection::Sideways => tilt.left_up,
        }
    };
    // Measured from the attitude it settled in: a nose-heavy robot (an arm out with a load)
    // already leans on its compliant front run before the table moves.
    let lean0 = lean(sim);
    let dt = sim.config().dt;
    let middle = FootprintMiddle::of(sim.robot(id).spec());
    let mut slow = false;
    let mut angle = 0.0;
    loop {
        if angle > 80f64.to_radians() {
            return None;
        }
        sim.set_gravity(slope_gravity(angle, down));
        sim.step();
        if lean(sim) - lean0 > 5f64.to_radians() {
            return Some(angle);
        }
        let body = sim.body_state(id);
        if (body.pose.translation.vector - p0).xy().norm() > 0.1 || failure_event(sim).is_some() {
            return None;
        }
        angle += dt
            * match rate {
                TiltRate::Constant(rate) => rate,
                TiltRate::Practice => {
                    slow = slow || middle.uphill_share(sim, id, direction) < LIFTOFF_SHARE;
                    if slow {
                        QUASI_STATIC_TILT_RATE
                    } else {
                        TILT_RATE
                    }
                }
            };
    }
}

/// Where a robot's footprint is split into halves for [`FootprintMiddle::uphill_share`], m,
/// body frame: the middle of its main tracks' ground contact along x, and the middle line
/// between its outermost tracks' (or wheels') centre lines along y.
#[derive(Debug, Clone, Copy, PartialEq)]
struct FootprintMiddle {
    x: f64,
    y: f64,
}

impl FootprintMiddle {
    /// The middle of the footprint of a robot of `spec`.
    fn of(spec: &RobotSpec) -> Self {
        let (rear, front) = spec.footprint();
        let (left, right) = spec.track_lines();
        Self {
            x: 0.5 * (rear + front),
            y: if left.is_finite() && right.is_finite() {
                0.5 * (left + right)
            } else {
                0.0
            },
        }
    }

    /// The share of the robot's contact load (normal forces, track model) borne by the
    /// uphill half of its footprint for a table falling in `direction`: the contacts behind
    /// the middle (body x) tilting forward, ahead of it backward, left of the middle line
    /// sideways; 0 with no load.
    fn uphill_share(&self, sim: &Simulation, id: RobotId, direction: TiltDirection) -> f64 {
        let robot = sim.robot(id);
        let pose = sim.body_state(id).pose;
        let (mut uphill, mut total) = (0.0, 0.0);
        for contact in robot.contacts() {
            let at = pose.inverse_transform_point(&contact.point);
            let on_uphill_half = match direction {
                TiltDirection::Forward => at.x < self.x,
                TiltDirection::Backward => at.x > self.x,
                TiltDirection::Sideways => at.y > self.y,
            };
            total += contact.normal_force;
            if on_uphill_half {
                uphill += contact.normal_force;
            }
        }
        if total > 0.0 {
            uphill / total
        } else {
            0.0
        }
    }
}

/// Lets a robot settle: 1 s, then on until its hull has turned slower than
/// 0.005 rad/s for 0.5 s without a break (a robot whose centre of mass lies near the end of
/// its footprint rocks on its end wheels for seconds after it is set down, and passes through
/// rest at every turn), at most 20 s in all.
pub fn settle_calm(sim: &mut Simulation, id: RobotId) {
    sim.run_for(SETTLE);
    let end = sim.time() + MAX_SETTLE - SETTLE;
    let mut calm_since = sim.time();
    while sim.time() < end && sim.time() - calm_since < CALM_TIME {
        sim.step();
        if sim.body_state(id).angvel.norm() > CALM_SPIN {
            calm_since = sim.time();
        }
    }
}

/// Ways of meeting a slope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlopeTask {
    /// Parked (belts held), facing uphill.
    HoldUp,
    /// Parked, side on to the slope.
    HoldAcross,
    /// Driving up at half top speed.
    DriveUp,
    /// Driving down at 0.3 m/s.
    DriveDown,
    /// Driving across at 0.3 m/s.
    DriveAcross,
}

impl SlopeTask {
    /// Every slope task, in sheet order.
    pub const ALL: [SlopeTask; 5] = [
        SlopeTask::HoldUp,
        SlopeTask::HoldAcross,
        SlopeTask::DriveUp,
        SlopeTask::DriveDown,
        SlopeTask::DriveAcross,
    ];

    /// Label on the sheet.
    pub fn label(self) -> &'static str {
        match self {
            SlopeTask::HoldUp => "slope, parked facing uphill",
            SlopeTask::HoldAcross => "slope, parked side on",
            SlopeTask::DriveUp => "slope, driving up",
            SlopeTask::DriveDown => "slope, driving down at 0.3 m/s",
            SlopeTask::DriveAcross => "slope, driving across at 0.3 m/s",
        }
    }
}

/// One slope trial at `angle` (rad) on the lanes' surface (μ [`LANE_FRICTION`]): the pad with
/// gravity turned from the first step.
/// - Parked: drift under 2 cm in 5 s after settling, upright.
/// - Up: 1 m gained uphill within 1 m at the commanded speed plus 5 s.
/// - Down: 1 m down under control (never faster over the ground than 1.5 × the command
///   + 0.05 m/s: the belts hold it, it does not toboggan).
/// - Across: 1.5 m along the contour with under 0.3 m slip downhill.
pub fn slope(
    spec: &RobotSpec,
    config: &SimConfig,
    task: SlopeTask,
    angle: f64,
) -> Result<Outcome, EnvelopeError> {
    let (mut sim, id) = start(lanes::flat_pad(LANE_FRICTION)?, spec, config)?;
    // The robot faces +x; the slope falls towards `down`.
    let down = match task {
        SlopeTask::HoldUp | SlopeTask::DriveUp => Vector2::new(-1.0, 0.0),
        SlopeTask::DriveDown => Vector2::new(1.0, 0.0),
        SlopeTask::HoldAcross | SlopeTask::DriveAcross => Vector2::new(0.0, -1.0),
    };
    sim.set_gravity(slope_gravity(angle, down));
    sim.run_for(SETTLE);
    let p0 = sim.body_state(id).com.xy();
    let top = spec.slowest_motor(|m| m.max_speed);
    let (speed, distance, limit) = match task {
        SlopeTask::HoldUp | SlopeTask::HoldAcross => (0.0, 0.0, 5.0),
        SlopeTask::DriveUp => (0.5 * top, 1.0, 1.0 / (0.5 * top) + 5.0),
        SlopeTask::DriveDown => (0.3, 1.0, 1.0 / 0.3 + 5.0),
        SlopeTask::DriveAcross => (0.3, 1.5, 1.5 / 0.3 + 5.0),
    };
    sim.set_command(id, DriveCommand::belts(speed, speed));
    let t0 = sim.time();
    while sim.time() - t0 < limit {
        sim.step();
        let body = sim.body_state(id);
        if tipped(&body) {
            return Ok(Outcome::fail("tipped over"));
        }
        if let Some(failed) = failure_event(&sim) {
            return Ok(failed);
        }
        let moved = body.com.xy() - p0;
        let downhill = moved.dot(&down);
        match task {
            SlopeTask::HoldUp | SlopeTask::HoldAcross if moved.norm() > 0.02 => {
                return Ok(Outcome::fail(format!(
                    "slid {:.0} mm in {:.1} s",
                    moved.norm() * 1000.0,
                    sim.time() - t0
                )));
            }
            SlopeTask::DriveUp if -downhill >= distance => {
                return Ok(Outcome::pass(format!("{:.1} s", sim.time() - t0)));
            }
            SlopeTask::DriveDown => {
                if body.linvel.xy().norm() > 1.5 * speed + 0.05 {
                    return Ok(Outcome::fail(format!(
                        "ran away at {:.2} m/s",
                        body.linvel.xy().norm()
                    )));
                }
                if downhill >= distance {
                    return Ok(Outcome::pass(format!("{:.1} s", sim.time() - t0)));
                }
            }
            SlopeTask::DriveAcross => {
                if downhill > 0.3 {
                    return Ok(Outcome::fail(format!("slid {:.2} m downhill", downhill)));
                }
                if moved.x >= distance {
                    return Ok(Outcome::pass(format!(
                        "slipped {:.0} mm",
                        downhill.max(0.0) * 1000.0
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(match task {
        SlopeTask::HoldUp | SlopeTask::HoldAcross => Outcome::pass("held"),
        _ => Outcome::fail("too slow (stalled or slipping)"),
    })
}

/// Drives `goal` with the autopilot on `scene` until `arrived` says the robot is where the
/// trial wants it (pass), it tips over, an event ends it, it stalls ([`STALL_PROGRESS`] in
/// [`STALL_TIME`] along +x) or `limit` s pass. `flipper` overrides the autopilot's flipper
/// command (the strategy without flippers).
fn drive_lane(
    scene: Scene,
    spec: &RobotSpec,
    config: &SimConfig,
    goal: Goal,
    flipper: Option<f64>,
    limit: f64,
    arrived: impl Fn(&BodyState) -> bool,
) -> Result<Outcome, EnvelopeError> {
    let (mut sim, id) = start(scene, spec, config)?;
    sim.run_for(SETTLE);
    let z0 = sim.body_state(id).com.z;
    // Flippers held stowed touch nothing: the strategy plans as for a robot without them
    // (its approach, its forward tip angle going down), not for flippers it does not have.
    let mut pilot = if flipper.is_some() {
        let stowed = RobotSpec {
            flippers: Vec::new(),
            ..spec.clone()
        };
        Autopilot::new(&stowed, vec![goal])
    } else {
        Autopilot::new(spec, vec![goal])
    };
    let mut sensor = spec
        .range_sensor
        .clone()
        .map(|s| RangeSensor::new(s, SENSOR_SEED));
    let dt = sim.config().dt;
    let t0 = sim.time();
    let (mut best, mut best_at) = (f64::NEG_INFINITY, t0);
    while sim.time() - t0 < limit {
        let body = sim.body_state(id);
        let scan = sensor.as_mut().map(|s| s.read(&sim, id));
        let mut command = pilot.command(&body, scan, dt);
        if flipper.is_some() {
            command.flipper = flipper;
        }
        sim.set_command(id, command);
        sim.step();
        let body = sim.body_state(id);
        if arrived(&body) {
            return Ok(Outcome::pass(format!("{:.1} s", sim.time() - t0)));
        }
        if tipped(&body) {
            return Ok(Outcome::fail(if body.com.z < z0 - 0.1 {
                "dropped off the edge"
            } else {
                "tipped over"
            }));
        }
        if let Some(failed) = failure_event(&sim) {
            return Ok(failed);
        }
        if let Some(why) = pilot.gave_up() {
            return Ok(Outcome::fail(why));
        }
        if body.com.x > best + STALL_PROGRESS {
            (best, best_at) = (body.com.x, sim.time());
        } else if sim.time() - best_at > STALL_TIME {
            return Ok(Outcome::fail(format!("stalled at x = {:.2} m", body.com.x)));
        }
    }
    Ok(Outcome::fail("timed out"))
}

/// Up a flight of [`STAIR_COUNT`] 0.20 m rises at `angle` (rad) along its centre line; passes
/// when the centre of mass is on the landing (0.3 m past the last nosing, less than 0.1 m
/// below its top). With flippers: the autopilot's climb strategy (`control::stair_climb`:
/// approach angle from the rise its range sensor reads, −12° on the flight, 0° on the
/// landing, backing off and retrying after a rear-up or stall); without: the same goal with
/// the flippers held stowed (a robot without flippers: the goal as it is).
pub fn stairs(
    spec: &RobotSpec,
    config: &SimConfig,
    angle: f64,
    use_flippers: bool,
) -> Result<Outcome, EnvelopeError> {
    let (scene, last_nosing) = lanes::stair_lane(angle)?;
    let top = STAIR_RISE * f64::from(STAIR_COUNT);
    let from = Vector2::new(-1.5, 0.0);
    let to = Vector2::new(last_nosing + 1.2, 0.0);
    let goal = Goal::Climb {
        from,
        to,
        speed: OBSTACLE_SPEED,
        tolerance: 0.2,
    };
    // Without flippers the strategy's speed, watchdogs and retries still hold; its flipper
    // angles are overridden to stowed.
    let flipper = (!use_flippers).then_some(STOWED);
    drive_lane(scene, spec, config, goal, flipper, 90.0, |b| {
        b.com.x > last_nosing + 0.3 && b.com.z > top - 0.1
    })
}

/// The building-stair family at `angle` (rad), up or `down`, with the autopilot's stair goal
/// (flippers as its strategy sets them, or held stowed unless `use_flippers`): passes when it
/// arrives on every flight of [`lanes::family_flights`] — up, on the landing 0.3 m past the
/// last nosing; down, on the floor 0.3 m past the foot's riser; the reason names the first
/// flight it fails on.
pub fn stair_family(
    spec: &RobotSpec,
    config: &SimConfig,
    angle: f64,
    down: bool,
    use_flippers: bool,
) -> Result<Outcome, EnvelopeError> {
    let flights = lanes::family_flights(angle);
    let mut slowest: f64 = 0.0;
    for flight in &flights {
        let outcome = stair_flight(spec, config, flight, down, use_flippers)?;
        if !outcome.pass {
            return Ok(Outcome::fail(format!(
                "{}: {}",
                flight.describe(),
                outcome.reason
            )));
        }
        slowest = slowest.max(outcome.reason.trim_end_matches(" s").parse().unwrap_or(0.0));
    }
    Ok(Outcome::pass(format!(
        "{} flights, slowest {slowest:.1} s",
        flights.len()
    )))
}

/// One flight of [`lanes::flight_lane`], up or `down`, with the stair goal (the flippers held
/// stowed unless `use_flippers`, as [`stairs`]): passes when the robot arrives (up, on the
/// landing 0.3 m past the last nosing; down, on the floor 0.3 m past the foot's riser), the
/// reason its time in s.
pub fn stair_flight(
    spec: &RobotSpec,
    config: &SimConfig,
    flight: &lanes::Flight,
    down: bool,
    use_flippers: bool,
) -> Result<Outcome, EnvelopeError> {
    let (scene, end) = lanes::flight_lane(flight, down)?;
    let top = f64::from(lanes::FAMILY_STEPS) * flight.rise;
    let (from, to) = (Vector2::new(-1.5, 0.0), Vector2::new(end + 1.2, 0.0));
    let goal = if down {
        Goal::Descend {
            from,
            to,
            speed: OBSTACLE_SPEED,
            tolerance: 0.2,
        }
    } else {
        Goal::Climb {
            from,
            to,
            speed: OBSTACLE_SPEED,
            tolerance: 0.2,
        }
    };
    let flipper = (!use_flippers).then_some(STOWED);
    drive_lane(scene, spec, config, goal, flipper, 120.0, |b| {
        if down {
            b.com.x > end + 0.3 && b.com.z < 0.3
        } else {
            b.com.x > end + 0.3 && b.com.z > top - 0.1
        }
    })
}

/// Onto a single step `height` m high with the climb strategy; passes when the centre of
/// mass is 0.4 m onto the platform, on top of it.
pub fn step(spec: &RobotSpec, config: &SimConfig, height: f64) -> Result<Outcome, EnvelopeError> {
    let goal = Goal::Climb {
        from: Vector2::new(-1.5, 0.0),
        to: Vector2::new(1.5, 0.0),
        speed: OBSTACLE_SPEED,
        tolerance: 0.2,
    };
    drive_lane(
        lanes::step_lane(height)?,
        spec,
        config,
        goal,
        None,
        45.0,
        |b| b.com.x > 0.4 && b.com.z > height,
    )
}

/// Across a gap `width` m wide between raised platforms, flippers level (0°, reaching ahead)
/// at the approach speed; passes when the centre of mass is 0.4 m onto the far platform, on
/// top of it.
pub fn gap(spec: &RobotSpec, config: &SimConfig, width: f64) -> Result<Outcome, EnvelopeError> {
    let goal = Goal::Line {
        from: Vector2::new(-1.5, 0.0),
        to: Vector2::new(width + 1.5, 0.0),
        speed: OBSTACLE_SPEED,
        tolerance: 0.2,
    };
    drive_lane(
        lanes::gap_lane(width)?,
        spec,
        config,
        goal,
        Some(0.0),
        45.0,
        |b| b.com.x > width + 0.4 && b.com.z > GAP_DEPTH,
    )
}

/// On the flat pad, settled, with the belts at `left` and `right` times the slowest motor's
/// top speed for 4 s: the simulation with the robot in its steady state, 2 s still to measure.
fn steady_on_pad(
    spec: &RobotSpec,
    config: &SimConfig,
    left: f64,
    right: f64,
) -> Result<(Simulation, RobotId), EnvelopeError> {
    let v = spec.slowest_motor(|m| m.max_speed);
    let (mut sim, id) = start(lanes::flat_pad(LANE_FRICTION)?, spec, config)?;
    sim.run_for(SETTLE);
    sim.set_command(id, DriveCommand::belts(left * v, right * v));
    sim.run_for(4.0);
    Ok((sim, id))
}

/// Top speed on the flat pad: both belts commanded to the slowest motor's top speed for 6 s;
/// the mean forward speed over the last 2 s, m/s.
pub fn top_speed(spec: &RobotSpec, config: &SimConfig) -> Result<f64, EnvelopeError> {
    let (mut sim, id) = steady_on_pad(spec, config, 1.0, 1.0)?;
    let x0 = sim.body_state(id).com.xy();
    sim.run_for(2.0);
    Ok((sim.body_state(id).com.xy() - x0).norm() / 2.0)
}

/// Turning on the spot on the flat pad: belts at ∓ the top speed for 6 s; the mean yaw rate
/// over the last 2 s, rad/s.
pub fn pivot_rate(spec: &RobotSpec, config: &SimConfig) -> Result<f64, EnvelopeError> {
    let (mut sim, id) = steady_on_pad(spec, config, -1.0, 1.0)?;
    let steps = (2.0 / sim.config().dt).round() as usize;
    let mut sum = 0.0;
    for _ in 0..steps {
        sim.step();
        sum += sim.body_state(id).angvel.z;
    }
    Ok(sum / steps as f64)
}
