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
use super::climb_geometry::ClimbGeometry;
use super::laws::{around_point, stop_at, toward_point, DirectedArrival, LineFollower};
use super::stair_climb::{ClimbPhase, ClimbSense, StairClimb};
use super::stair_reading::{read_stairs, StairDirection, StairReading};
use crate::sim::ranging::RangeScan;
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
    /// Back to `at` in reverse at up to `speed` m/s, steering by the robot's rear; done within
    /// `tolerance` m. What an operator does where a car-steered robot cannot turn round (the
    /// way back of a round trip on a ramp or in a corridor).
    Reverse {
        /// Where, m.
        at: Vector2<f64>,
        /// Speed backwards, m/s.
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

    /// The command that drives the robot backwards as [`Channels::drive`] would drive it
    /// forwards were its rear its nose: `rear` is its planar state turned half round (its
    /// rear's heading, its speed backwards), `wanted` the heading and speed for the rear. The
    /// turn keeps its sense: a skid-steered robot's belts are swapped and reversed, a
    /// car-steered robot's steering is reversed (backing, a steering angle turns it the other
    /// way).
    pub fn drive_reversed(&self, rear: &AgentState, wanted: &AgentCommand) -> DriveCommand {
        let ahead = self.drive(rear, wanted);
        match ahead.steer {
            Some(steer) => DriveCommand {
                left: -ahead.left,
                right: -ahead.right,
                flipper: ahead.flipper,
                steer: Some(-steer),
            },
            None => DriveCommand {
                left: -ahead.right,
                right: -ahead.left,
                ..ahead
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
        DriveCommand::belts(left, right)
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
            Goal::Reverse { at, speed, .. } => {
                // The robot seen from behind: its rear is the nose it steers by.
                let rear = AgentState {
                    yaw: wrap_pi(state.yaw + std::f64::consts::PI),
                    speed: (-body
                        .linvel
                        .xy()
                        .dot(&Vector2::new(state.yaw.cos(), state.yaw.sin())))
                    .max(0.0),
                    ..state
                };
                let wanted = toward_point(&rear, &at, 1.0, speed);
                return self.channels.drive_reversed(&rear, &wanted);
            }
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
            Goal::Point { at, tolerance, .. }
            | Goal::Heading { at, tolerance, .. }
            | Goal::Reverse { at, tolerance, .. } => (state.position - at).norm() <= tolerance,
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

/// Seed of the noise of the autopilot's range sensor (any fixed value: the same scans on
/// every run).
pub const SENSOR_SEED: u64 = 0x5CA7_7E55;
