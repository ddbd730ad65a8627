//! The autopilot: seed 003's control laws ([`super::laws`]) driving the dynamic tracked robot
//! through a list of goals — a point, a point reached in a direction, a line to follow, a point
//! to pass around, a point to stop at.
//!
//! The laws command an agent with separate speed and heading channels. A skid-steered robot
//! has them too, once its belt speeds are split into a forward speed `v` and a turn rate `ω`
//! (left = v − ω·B/2, right = v + ω·B/2 with B the track gauge): [`Channels::of`] identifies
//! them from the robot's file — top speed from its motors, the largest turn rate a pivot can
//! reach (2·v_max/B, less the belts' slip in a skid turn), the heading and speed lags of its
//! drive. Each step the autopilot reads the robot's planar state, asks the goal's law for a
//! heading and a speed, and turns them into belt speeds: a turn rate proportional to the
//! heading error (bounded), and a forward speed that falls to zero as the error reaches 90°, so
//! the robot pivots towards a goal behind it instead of driving away in an arc.

use nalgebra::Vector2;

use super::agent::{wrap_pi, AgentCommand, AgentState, EngineLimits};
use super::laws::{around_point, stop_at, toward_point, DirectedArrival, LineFollower};
use super::stair_climb::{ClimbGeometry, ClimbPhase, ClimbSense, StairClimb};
use super::stair_reading::{read_stairs, StairDirection, StairReading};
use super::vantage::{plan_view, View, ViewPlan};
use crate::sim::ranging::{RangeScan, RangeSensor};
use crate::terrain::Terrain;
use crate::vehicle::spec::CameraSpec;
use crate::vehicle::spec::Steering;
use crate::vehicle::wheeled::steering::AckermannGeometry;
use crate::vehicle::{BodyState, DriveCommand, RobotSpec};

/// Share of the belts' differential speed a skid turn turns into yaw on hard ground (the
/// rest is lateral slip; measured 0.6–0.8 for the presets on concrete, tests/control.rs).
const SKID_TURN_SHARE: f64 = 0.7;
/// Heading error → turn rate gain, 1/s.
const HEADING_GAIN: f64 = 3.0;
/// Least heading error a `Face` goal's pivot is commanded with, rad (turn rates of
/// `HEADING_GAIN` times these: 0.6–0.9 rad/s).
const FACE_MIN_ERROR: f64 = 0.2;
/// Most heading error a `Face` goal's pivot is commanded with, rad.
const FACE_MAX_ERROR: f64 = 0.3;
/// Share of the wanted speed an Ackermann robot keeps while turning toward a heading far off
/// its own: it cannot turn on the spot, so it turns on its smallest circle instead of stopping.
const ACKERMANN_CREEP: f64 = 0.5;
/// One goal of the autopilot, world frame (m, rad counter-clockwise from +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Goal {
    /// Drive to `at` at up to `speed` m/s; done within `tolerance` m.
    Point {
        /// Where, m.
        at: Vector2<f64>,
        /// Cruise speed, m/s.
        speed: f64,
        /// Done within this distance, m.
        tolerance: f64,
    },
    /// Arrive at `at` heading `yaw` (the F2 law); done within `tolerance` m.
    Heading {
        /// Where, m.
        at: Vector2<f64>,
        /// Heading on arrival, rad.
        yaw: f64,
        /// Cruise speed, m/s.
        speed: f64,
        /// Done within this distance, m.
        tolerance: f64,
    },
    /// Rally and follow the line `from` → `to`; done within `tolerance` m of `to`.
    Line {
        /// Start of the directed line, m.
        from: Vector2<f64>,
        /// End of the line, m.
        to: Vector2<f64>,
        /// Cruise speed, m/s.
        speed: f64,
        /// Done within this distance of `to`, m.
        tolerance: f64,
    },
    /// Pass around `centre` at `radius` with it on the left or right, until the robot has
    /// turned `sweep` rad about it.
    Around {
        /// The point, m.
        centre: Vector2<f64>,
        /// Passing distance, m.
        radius: f64,
        /// Whether the point stays on the robot's left.
        left: bool,
        /// Angle swept about the point before the goal is done, rad.
        sweep: f64,
        /// Cruise speed, m/s.
        speed: f64,
    },
    /// Climb a flight along the line `from` → `to` (`to` on the landing above) with the stair
    /// strategy ([`super::stair_climb`]): flippers set by the flight the range sensor reads,
    /// backing off and retrying after a rear-up or a stall, giving up after three tries.
    /// Done within `tolerance` m of `to`.
    Climb {
        /// Foot of the flight's centre line, m.
        from: Vector2<f64>,
        /// Point on the landing above, m.
        to: Vector2<f64>,
        /// Approach speed, m/s (half of it on the flight).
        speed: f64,
        /// Done within this distance of `to`, m.
        tolerance: f64,
    },
    /// Descend a flight facing down along the line `from` → `to` (`to` on the floor below)
    /// with the stair strategy: creep over the edge with the flippers level, down the flight
    /// at a speed its slope allows. Done within `tolerance` m of `to`.
    Descend {
        /// Point on the floor above, before the edge, m.
        from: Vector2<f64>,
        /// Point on the floor below, m.
        to: Vector2<f64>,
        /// Cruise speed, m/s (less on the flight).
        speed: f64,
        /// Done within this distance of `to`, m.
        tolerance: f64,
    },
    /// Turn on the spot to heading `yaw` (a pivot, belts opposed; an Ackermann robot creeps);
    /// done within `tolerance` rad of it. What an operator does on a landing before lining up
    /// on the next flight.
    Face {
        /// Heading, rad, counter-clockwise from world +x.
        yaw: f64,
        /// Done within this angle, rad.
        tolerance: f64,
    },
    /// Stop at `at`; done when stopped within `tolerance` m.
    StopAt {
        /// Where, m.
        at: Vector2<f64>,
        /// Cruise speed, m/s.
        speed: f64,
        /// Done within this distance, m.
        tolerance: f64,
    },
}

/// The robot's speed and heading channels, identified from its file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Channels {
    /// Track gauge B, m.
    pub gauge: f64,
    /// Top belt speed, m/s.
    pub speed_max: f64,
    /// The engine limits the laws plan with.
    pub limits: EngineLimits,
    /// An Ackermann robot's steering geometry and largest outer angle, rad: it turns by
    /// steering, at a yaw rate of at most its speed over its smallest turning radius.
    pub ackermann: Option<(AckermannGeometry, f64)>,
    /// What the stair strategy needs of the robot.
    pub climb: ClimbGeometry,
}

impl Channels {
    /// The channels of the robot in `spec`: top speed the slowest motor's, largest turn rate
    /// a pivot at that speed gives after skid slip, the drive's acceleration as the speed
    /// channel's bound, and a heading lag of 1/`HEADING_GAIN`.
    pub fn of(spec: &RobotSpec) -> Self {
        let gauge = spec.track_gauge().max(0.1);
        // The slowest motor's figure: the robot drives straight only within it.
        let slowest = |field| spec.slowest_motor(field).min(10.0);
        let speed_max = slowest(|m| m.max_speed);
        let accel = slowest(|m| m.max_acceleration);
        let ackermann = match spec.steering {
            Steering::Ackermann { max_angle, .. } => {
                AckermannGeometry::of_wheels(&spec.wheels).map(|g| (g, max_angle))
            }
            Steering::Skid => None,
        };
        let yaw_rate_max = match &ackermann {
            // ω = v / R at the rear axle's centre on the smallest circle.
            Some((g, max)) => g.yaw_rate(*max, nalgebra::Point2::new(g.rear_x, 0.0), speed_max),
            None => SKID_TURN_SHARE * 2.0 * speed_max / gauge,
        };
        Self {
            gauge,
            speed_max,
            ackermann,
            climb: ClimbGeometry::of(spec),
            limits: EngineLimits {
                yaw_gain: Some(HEADING_GAIN),
                speed_gain: None,
                yaw_rate_max,
                lateral_accel_max: 0.5 * 9.81 * 0.6,
                accel_max: accel,
                decel_max: accel,
            },
        }
    }

    /// Belt speeds for a wanted heading and speed from the present `state`.
    pub fn drive(&self, state: &AgentState, wanted: &AgentCommand) -> DriveCommand {
        let error = wrap_pi(wanted.yaw - state.yaw);
        let omega =
            (HEADING_GAIN * error).clamp(-self.limits.yaw_rate_max, self.limits.yaw_rate_max);
        let v = wanted.speed.clamp(0.0, self.speed_max) * error.cos().max(0.0);
        if let Some((geometry, max_angle)) = &self.ackermann {
            // Steer to the curvature ω/v, creeping on while the heading is far off.
            let v = v.max(ACKERMANN_CREEP * wanted.speed.clamp(0.0, self.speed_max));
            let steer = if v > 0.0 {
                geometry
                    .outer_for_curvature(omega / v)
                    .clamp(-max_angle, *max_angle)
            } else {
                0.0
            };
            return DriveCommand {
                left: v,
                right: v,
                flipper: None,
                steer: Some(steer),
            };
        }
        // The belts' difference turns at SKID_TURN_SHARE of its kinematic rate.
        let half = omega * self.gauge / (2.0 * SKID_TURN_SHARE);
        let (mut left, mut right) = (v - half, v + half);
        let peak = left.abs().max(right.abs());
        if peak > self.speed_max {
            // Keep the turn, give up forward speed.
            let k = self.speed_max / peak;
            left *= k;
            right *= k;
        }
        DriveCommand {
            left,
            right,
            flipper: None,
            steer: None,
        }
    }
}

/// Drives a robot through its goals in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Autopilot {
    goals: Vec<Goal>,
    next: usize,
    channels: Channels,
    line: LineFollower,
    arrival: DirectedArrival,
    /// Angle swept about the point of an `Around` goal so far, and the last bearing, rad.
    swept: Option<(f64, f64)>,
    /// The stair strategy of a `Climb` or `Descend` goal under way.
    stairs: Option<StairClimb>,
    /// The flight read from the latest range scan, and the scan's time (s).
    reading: Option<(f64, Option<StairReading>)>,
    /// Time driven, s.
    clock: f64,
}

/// Largest share of the forward speed the belts may differ by on a flight, each way: a
/// skid-steer turn on the nosings slews the robot across the flight and stalls it; a gentle
/// correction keeps it on the line.
const FLIGHT_STEER_SHARE: f64 = 0.25;

/// `command` with its turn limited to [`FLIGHT_STEER_SHARE`] of its forward speed (skid
/// steering; an Ackermann robot's steering is left as it is).
fn on_flight_steering(command: DriveCommand) -> DriveCommand {
    if command.steer.is_some() {
        return command;
    }
    let forward = 0.5 * (command.left + command.right);
    let limit = FLIGHT_STEER_SHARE * forward.abs();
    let half = (0.5 * (command.right - command.left)).clamp(-limit, limit);
    DriveCommand {
        left: forward - half,
        right: forward + half,
        ..command
    }
}

/// How far ahead the stair reading looks, m.
const READING_HORIZON: f64 = 3.0;

impl Autopilot {
    /// An autopilot for the robot of `spec` with `goals`.
    pub fn new(spec: &RobotSpec, goals: Vec<Goal>) -> Self {
        Self::with_channels(Channels::of(spec), goals)
    }

    /// An autopilot for a robot with `channels` with `goals`.
    pub fn with_channels(channels: Channels, goals: Vec<Goal>) -> Self {
        Self {
            goals,
            next: 0,
            channels,
            line: LineFollower {
                k_y: 0.5,
                max_intercept: std::f64::consts::FRAC_PI_3,
            },
            arrival: DirectedArrival { k: 2.0, stage: 1.0 },
            swept: None,
            stairs: None,
            reading: None,
            clock: 0.0,
        }
    }

    /// Index of the goal under way (= the number done).
    pub fn next_goal(&self) -> usize {
        self.next
    }

    /// Whether every goal is done.
    pub fn is_done(&self) -> bool {
        self.next >= self.goals.len()
    }

    /// Why the autopilot stopped short of its goal, if it gave up (a stair goal after its
    /// tries).
    pub fn gave_up(&self) -> Option<&str> {
        self.stairs.as_ref().and_then(StairClimb::gave_up)
    }

    /// The goal under way, if any.
    pub fn goal(&self) -> Option<&Goal> {
        self.goals.get(self.next)
    }

    /// The stair strategy under way, if a stair goal is.
    pub fn stairs(&self) -> Option<&StairClimb> {
        self.stairs.as_ref()
    }

    /// The robot's planar state from its hull state: position of the body origin, heading of
    /// its x axis, forward speed.
    pub fn planar(body: &BodyState) -> AgentState {
        let forward = body.pose.rotation * nalgebra::Vector3::x();
        let yaw = forward.y.atan2(forward.x);
        let along = Vector2::new(yaw.cos(), yaw.sin());
        AgentState {
            position: body.pose.translation.vector.xy(),
            yaw,
            speed: body.linvel.xy().dot(&along).max(0.0),
        }
    }

    /// The belt speeds for this step (`dt` s) for the robot in state `body` with the range
    /// sensor's latest `scan` (if it has one), moving on to the next goal when this one is
    /// done; stopped when all are, or when a stair goal gave up.
    pub fn command(&mut self, body: &BodyState, scan: Option<&RangeScan>, dt: f64) -> DriveCommand {
        self.clock += dt;
        let state = Self::planar(body);
        while let Some(&goal) = self.goals.get(self.next) {
            if !self.done(goal, &state) {
                break;
            }
            self.next += 1;
            self.swept = None;
            self.stairs = None;
        }
        let Some(&goal) = self.goals.get(self.next) else {
            return DriveCommand::STOP;
        };
        let limits = self.channels.limits;
        let wanted = match goal {
            Goal::Point { at, speed, .. } => toward_point(&state, &at, 1.0, speed),
            Goal::Heading { at, yaw, speed, .. } => self.arrival.command(&state, &at, yaw, speed),
            Goal::Line {
                from, to, speed, ..
            } => self.line.command(&state, &from, &to, speed, &limits, dt),
            Goal::Around {
                centre,
                radius,
                left,
                speed,
                ..
            } => around_point(&state, &centre, radius, left, speed),
            Goal::StopAt { at, speed, .. } => stop_at(&state, &at, speed, &limits, dt),
            Goal::Face { yaw, .. } => {
                // Asked for less than the least, a pivot stalls short of the heading (the
                // belts' difference below what breaks the tracks' sideways friction); for more
                // than the most, a heavy robot's spin coasts far past it once the belts stop.
                let error = wrap_pi(yaw - state.yaw);
                AgentCommand {
                    yaw: state.yaw
                        + error.signum() * error.abs().clamp(FACE_MIN_ERROR, FACE_MAX_ERROR),
                    speed: 0.0,
                }
            }
            Goal::Climb {
                from, to, speed, ..
            } => return self.stair_command(body, scan, StairDirection::Up, (from, to), speed, dt),
            Goal::Descend {
                from, to, speed, ..
            } => {
                return self.stair_command(body, scan, StairDirection::Down, (from, to), speed, dt)
            }
        };
        self.channels.drive(&state, &wanted)
    }

    /// The flight in the latest scan, read once per scan.
    fn read(&mut self, scan: Option<&RangeScan>) -> Option<StairReading> {
        let scan = scan?;
        match self.reading {
            Some((time, reading)) if time == scan.time => reading,
            _ => {
                let reading = read_stairs(&scan.points, READING_HORIZON);
                self.reading = Some((scan.time, reading));
                reading
            }
        }
    }

    /// A stair goal's command: the strategy's speed and flippers, steered along the line
    /// `from` → `to` going forwards, straight back when reversing.
    fn stair_command(
        &mut self,
        body: &BodyState,
        scan: Option<&RangeScan>,
        direction: StairDirection,
        (from, to): (Vector2<f64>, Vector2<f64>),
        speed: f64,
        dt: f64,
    ) -> DriveCommand {
        let state = Self::planar(body);
        let reading = self.read(scan);
        let along = (to - from).try_normalize(1e-9).unwrap_or_else(Vector2::x);
        let sense = ClimbSense {
            body,
            reading,
            progress: (state.position - from).dot(&along),
            time: self.clock,
        };
        let geometry = self.channels.climb;
        let action = self
            .stairs
            .get_or_insert_with(|| StairClimb::new(direction, speed))
            .step(&geometry, &sense);
        let on_flight = self
            .stairs
            .as_ref()
            .is_some_and(|s| matches!(s.phase(), ClimbPhase::Mount | ClimbPhase::Flight));
        let mut command = if action.speed >= 0.0 {
            let limits = self.channels.limits;
            let wanted = self
                .line
                .command(&state, &from, &to, action.speed, &limits, dt);
            let command = self.channels.drive(&state, &wanted);
            if on_flight {
                on_flight_steering(command)
            } else {
                command
            }
        } else {
            DriveCommand {
                left: action.speed,
                right: action.speed,
                flipper: None,
                steer: self.channels.ackermann.map(|_| 0.0),
            }
        };
        command.flipper = action.flipper;
        command
    }

    /// Whether `goal` is done at `state` (an `Around` goal counts the angle swept).
    fn done(&mut self, goal: Goal, state: &AgentState) -> bool {
        match goal {
            Goal::Point { at, tolerance, .. } | Goal::Heading { at, tolerance, .. } => {
                (state.position - at).norm() <= tolerance
            }
            Goal::Line { to, tolerance, .. }
            | Goal::Climb { to, tolerance, .. }
            | Goal::Descend { to, tolerance, .. } => (state.position - to).norm() <= tolerance,
            Goal::Face { yaw, tolerance } => wrap_pi(state.yaw - yaw).abs() <= tolerance,
            Goal::StopAt { at, tolerance, .. } => {
                (state.position - at).norm() <= tolerance && state.speed < 0.02
            }
            Goal::Around { centre, sweep, .. } => {
                let to = state.position - centre;
                let bearing = to.y.atan2(to.x);
                let (total, last) = self.swept.unwrap_or((0.0, bearing));
                let total = total + wrap_pi(bearing - last).abs();
                self.swept = Some((total, bearing));
                total >= sweep
            }
        }
    }
}

/// The autopilot taking over an exercise trial — the instructor's demonstration: it drives to
/// the trial's current goal (a zone's centre, a gate's middle, the start on the way back),
/// climbing with the stair strategy when the goal lies more than [`CLIMB_RISE`] above the
/// robot and descending when it lies that far below (and over a step or flight rising on its
/// way), righting the robot with the self-righting routine when it is on its back, seeing a
/// target it must observe from a vantage point it plans round what hides it
/// ([`super::vantage`], [`TrialPilot::plan_view`]), and holds still when the trial is over or
/// there is none.
#[derive(Debug, Clone)]
pub struct TrialPilot {
    channels: Channels,
    pilot: Option<Autopilot>,
    /// The target the pilot was built for, m.
    target: Option<nalgebra::Point3<f64>>,
    /// Cruise speed, m/s.
    pub speed: f64,
    /// The robot's range sensor, if it has one.
    pub sensor: Option<RangeSensor>,
    /// Time of the last scan looked at for a step on the way, s.
    scanned: f64,
    /// Self-righting under way: the flipper angle step and when it began (s of `clock`).
    righting: Option<(u32, f64)>,
    /// Why self-righting failed, if it did.
    righting_failed: Option<String>,
    /// Time driven, s.
    clock: f64,
    /// The robot's highest flipper angle, rad (`None` without flippers).
    flipper_max: Option<f64>,
    /// The robot's hull cameras, for planning where to look from.
    cameras: Vec<CameraSpec>,
    /// Half the robot's width, m.
    half_width: f64,
    /// The plan for the current target to see, made for that target (`None` in it: no place
    /// within reach sees it; the pilot then drives at the target).
    view_plan: Option<(nalgebra::Point3<f64>, Option<ViewPlan>)>,
    /// Whether the view plan is new since the pilot last took its goals from it.
    new_view: bool,
}

/// Self-righting: the flippers swing down through this angle first, rad ...
const RIGHTING_FIRST: f64 = 90.0 * std::f64::consts::PI / 180.0;
/// ... and on in steps of this, rad ...
const RIGHTING_STEP: f64 = 15.0 * std::f64::consts::PI / 180.0;
/// ... each held this long, s (a swing of 90° at a flipper's 90°/s and the roll over).
const RIGHTING_HOLD: f64 = 3.0;

/// Distance ahead within which a step rising on the way to a point makes the trial pilot
/// take it with the stair strategy, m.
const STEP_AHEAD: f64 = 1.2;

/// Seed of the noise of the autopilot's range sensor (any fixed value: the same scans on
/// every run).
pub const SENSOR_SEED: u64 = 0x5CA7_7E55;

/// What a trial asks of the robot now (world frame, m): its current target and, while that is
/// a gate, the gate's two ends and the heading it must be crossed at (rad, if any); while it
/// is a target to see with a hull camera, how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrialGoal {
    /// The point to reach, m (world frame).
    pub target: nalgebra::Point3<f64>,
    /// The gate being driven through: its ends and required heading.
    pub gate: Option<(nalgebra::Point2<f64>, nalgebra::Point2<f64>, Option<f64>)>,
    /// The target is to be seen with a hull camera, not reached: how close and square.
    pub view: Option<View>,
}

/// The instructor's autopilot demonstration's speed, m/s: slow enough for a trainee to follow
/// on the cameras.
pub const DEMO_SPEED: f64 = 0.3;

/// Height above (below) the robot past which a goal is climbed (descended) to, m.
pub const CLIMB_RISE: f64 = 0.3;

/// A waypoint on the way to a vantage point is passed within this, m.
const VIEW_LEG_TOLERANCE: f64 = 0.2;
/// The robot arrives this close to its vantage point, m: the plan's view holds from the
/// cells round it (`vantage`), so within a cell's diagonal. (At 0.1 m the scout at the 5 ms
/// step passed 0.11 m from its point at the plant's valve, went round for another pass and
/// circled there until the time ran out.)
const VIEW_STOP_TOLERANCE: f64 = crate::control::vantage::CELL * std::f64::consts::SQRT_2;
/// It turns to face the target within this, rad (3°; the view holds 5° either way).
const VIEW_FACE_TOLERANCE: f64 = 0.05;

impl TrialPilot {
    /// A pilot for the robot of `spec` at `speed` m/s, reading its range sensor if it has one.
    pub fn new(spec: &RobotSpec, speed: f64) -> Self {
        Self {
            channels: Channels::of(spec),
            pilot: None,
            target: None,
            speed,
            sensor: spec
                .range_sensor
                .clone()
                .map(|s| RangeSensor::new(s, SENSOR_SEED)),
            scanned: f64::NEG_INFINITY,
            righting: None,
            righting_failed: None,
            clock: 0.0,
            flipper_max: spec.flippers.iter().map(|f| f.max_angle).reduce(f64::min),
            cameras: spec.cameras.clone(),
            half_width: spec.half_width(),
            view_plan: None,
            new_view: false,
        }
    }

    /// Plans where to see the trial's target from, over `terrain`, when the target is one to
    /// see and the pilot has no plan for it yet ([`super::vantage`]); the robot is at `body`.
    /// Call it before [`TrialPilot::command`].
    pub fn plan_view(&mut self, terrain: &Terrain, goal: Option<&TrialGoal>, body: &BodyState) {
        let Some((goal, view)) = goal.and_then(|g| Some((g, g.view?))) else {
            self.view_plan = None;
            return;
        };
        if self
            .view_plan
            .as_ref()
            .is_some_and(|(t, _)| *t == goal.target)
        {
            return;
        }
        let plan = plan_view(
            terrain,
            &self.cameras,
            self.half_width,
            &body.pose,
            &goal.target,
            &view,
        );
        self.view_plan = Some((goal.target, plan));
        self.new_view = true;
    }

    /// The goals that take the robot to where it sees `target` and turn it to face it, if
    /// there is a plan for it: through the route's waypoints, stopping at the last, then
    /// turning on the spot.
    fn view_goals(&self, target: &nalgebra::Point3<f64>) -> Option<Vec<Goal>> {
        let (planned, Some(plan)) = self.view_plan.as_ref()? else {
            return None;
        };
        if planned != target {
            return None;
        }
        let (last, legs) = plan.waypoints.split_last()?;
        // Every leg a point to drive to (a step on the way is taken with the stair strategy,
        // [`Self::step_on_the_way`]); the vantage point reached already turned to the target
        // (a pivot there would swing the robot off it), then the last of the turn on the spot.
        let mut goals: Vec<Goal> = legs
            .iter()
            .map(|&at| Goal::Point {
                at,
                speed: self.speed,
                tolerance: VIEW_LEG_TOLERANCE,
            })
            .collect();
        goals.push(Goal::Heading {
            at: *last,
            yaw: plan.yaw,
            speed: self.speed,
            tolerance: VIEW_STOP_TOLERANCE,
        });
        goals.push(Goal::Face {
            yaw: plan.yaw,
            tolerance: VIEW_FACE_TOLERANCE,
        });
        Some(goals)
    }

    /// On its back, the self-righting routine an operator follows: belts stopped, the
    /// flippers swung down and on, from 90° in 15° steps held 3 s each, until the robot
    /// rolls onto its tracks (then flippers to 0° and the goals from there); past the
    /// flippers' reach, stopped, saying so. `None` while the robot is on its tracks.
    fn self_right(&mut self, body: &BodyState) -> Option<DriveCommand> {
        let tilt = crate::vehicle::stability::Tilt::of(&body.pose);
        let on_tracks = !tilt.upside_down
            && tilt.nose_up.abs() < std::f64::consts::FRAC_PI_4
            && tilt.left_up.abs() < std::f64::consts::FRAC_PI_4;
        if on_tracks {
            self.righting_failed = None;
            return self.righting.take().map(|_| {
                // Righted: flippers back, and the goal anew from where it landed.
                self.pilot = None;
                self.target = None;
                DriveCommand {
                    flipper: Some(0.0),
                    ..DriveCommand::STOP
                }
            });
        }
        if !tilt.upside_down && self.righting.is_none() {
            return None;
        }
        let Some(max) = self.flipper_max else {
            self.righting_failed = Some("on its back, and it has no flippers to right it".into());
            return Some(DriveCommand::STOP);
        };
        let (step, since) = *self.righting.get_or_insert((0, self.clock));
        let (step, since) = if self.clock - since > RIGHTING_HOLD {
            (step + 1, self.clock)
        } else {
            (step, since)
        };
        let angle = RIGHTING_FIRST + f64::from(step) * RIGHTING_STEP;
        if angle > max + 1e-9 {
            self.righting_failed = Some(format!(
                "on its back: the flippers swung to {:.0}° and did not right it",
                max.to_degrees()
            ));
            return Some(DriveCommand::STOP);
        }
        self.righting = Some((step, since));
        Some(DriveCommand {
            flipper: Some(angle),
            ..DriveCommand::STOP
        })
    }

    /// On the way to a point, a step or flight rising ahead within [`STEP_AHEAD`], short of
    /// the point and roughly where the robot heads (30°): from here, the stair strategy takes
    /// the robot over it to the point (flippers by the step's height).
    fn step_on_the_way(&mut self, body: &BodyState, scan: Option<&RangeScan>) {
        let Some(scan) = scan.filter(|s| s.time != self.scanned) else {
            return;
        };
        self.scanned = scan.time;
        let Some(pilot) = &self.pilot else {
            return;
        };
        let Some(&Goal::Point { at, .. }) = pilot.goal() else {
            return;
        };
        let state = Autopilot::planar(body);
        let to = at - state.position;
        let off_heading = wrap_pi(to.y.atan2(to.x) - state.yaw).abs();
        let step = read_stairs(&scan.points, STEP_AHEAD)
            .filter(|r| r.direction == StairDirection::Up && r.first_edge < to.norm());
        if step.is_some() && off_heading < std::f64::consts::FRAC_PI_6 {
            let climb = Goal::Climb {
                from: state.position,
                to: at,
                speed: self.speed.min(0.3),
                tolerance: 0.1,
            };
            self.pilot = Some(Autopilot::with_channels(self.channels, vec![climb]));
        }
    }

    /// Why the pilot stopped short of the trial's target, if it gave up on it.
    pub fn gave_up(&self) -> Option<&str> {
        self.righting_failed
            .as_deref()
            .or_else(|| self.pilot.as_ref().and_then(Autopilot::gave_up))
    }

    /// The command for this step, for the robot in state `body` with its range sensor's
    /// latest `scan`, stepping `dt` s: towards `goal`, the trial's current target (none: stop).
    pub fn command(
        &mut self,
        goal: Option<TrialGoal>,
        body: &BodyState,
        scan: Option<&RangeScan>,
        dt: f64,
    ) -> DriveCommand {
        self.clock += dt;
        let Some(TrialGoal { target, gate, .. }) = goal else {
            self.pilot = None;
            self.target = None;
            return DriveCommand::STOP;
        };
        if let Some(command) = self.self_right(body) {
            return command;
        }
        // A goal reached without the trial moving on (a gate crossed at the wrong heading, a
        // zone's dwell cut short): try again from here. A stair goal given up stays given
        // up (stopped, saying why) until the trial's target moves on.
        let stuck = self.pilot.as_ref().is_some_and(|p| p.is_done());
        if let Some(goals) = self.view_goals(&target) {
            if self.target != Some(target) || self.new_view {
                // To where the camera sees it, and face it; standing there, the trial moves on.
                self.pilot = Some(Autopilot::with_channels(self.channels, goals));
                self.target = Some(target);
                self.new_view = false;
            } else if stuck {
                // Done (or over a step on the way, which ends the route) and not yet seeing
                // it: plan again from here.
                self.view_plan = None;
            }
        } else if self.target != Some(target) || stuck {
            let here = body.pose.translation.vector.xy();
            let goal = if let Some((a, b, heading)) = gate {
                // Through the gate: arrive 0.6 m beyond its middle, heading across it (at the
                // required heading, or the way the robot comes).
                let middle = (a.coords + b.coords) / 2.0;
                let yaw = heading.unwrap_or_else(|| {
                    let across = middle - here;
                    across.y.atan2(across.x)
                });
                let dir = Vector2::new(yaw.cos(), yaw.sin());
                Goal::Heading {
                    at: middle + 0.6 * dir,
                    yaw,
                    speed: self.speed,
                    tolerance: 0.15,
                }
            } else if target.z > body.pose.translation.z + CLIMB_RISE {
                Goal::Climb {
                    from: here,
                    to: target.coords.xy(),
                    speed: self.speed.min(0.3),
                    tolerance: 0.1,
                }
            } else if target.z < body.pose.translation.z - CLIMB_RISE {
                Goal::Descend {
                    from: here,
                    to: target.coords.xy(),
                    speed: self.speed.min(0.3),
                    tolerance: 0.1,
                }
            } else {
                Goal::Point {
                    at: target.coords.xy(),
                    speed: self.speed,
                    tolerance: 0.1,
                }
            };
            self.pilot = Some(Autopilot::with_channels(self.channels, vec![goal]));
            self.target = Some(target);
        }
        self.step_on_the_way(body, scan);
        match &mut self.pilot {
            // Past a goal's tolerance the trial moves the target on; until then keep
            // heading for it (a zone's dwell holds the robot there).
            Some(pilot) if !pilot.is_done() => pilot.command(body, scan, dt),
            _ => DriveCommand::STOP,
        }
    }
}
