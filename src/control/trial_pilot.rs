//! The trial pilot: the autopilot taking over an exercise trial (the instructor's
//! demonstration and the course tables). It turns what the trial asks now into the
//! autopilot's goals ([`super::autopilot`]) — a point, a gate crossed at its heading, a climb
//! or descent, a vantage point to see a target from ([`super::vantage`]) — takes steps on the
//! way with the stair strategy, and rights the robot when it lies on its back.

use nalgebra::Vector2;

use super::agent::wrap_pi;
use super::autopilot::{Autopilot, Channels, Goal, SENSOR_SEED};
use super::stair_reading::{read_stairs, StairDirection};
use super::traffic::yielding::Yielding;
use super::traffic::Obstacle;
use super::vantage::{plan_view, View, ViewPlan};
use crate::sim::ranging::{RangeScan, RangeSensor};
use crate::terrain::Terrain;
use crate::vehicle::spec::CameraSpec;
use crate::vehicle::{BodyState, DriveCommand, RobotSpec};

/// The autopilot taking over an exercise trial — the instructor's demonstration: it drives to
/// the trial's current goal (a zone's centre, a gate's middle, the start on the way back),
/// backing to it where a car-steered robot would have to turn round, climbing with the stair
/// strategy when the goal lies more than [`CLIMB_RISE`] above the robot and descending when it
/// lies that far below (and over a step or flight rising on its
/// way), righting the robot with the self-righting routine when it is on its back, seeing a
/// target it must observe from a vantage point it plans round what hides it
/// ([`super::vantage`], [`TrialPilot::plan_view`]), yielding to the traffic its cameras show
/// ([`super::traffic::yielding`], [`TrialPilot::traffic_seen`]), and holds still when the
/// trial is over or there is none.
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
    /// Radius of the circle round the robot's footprint, m (what the traffic keeps clear of).
    footprint_radius: f64,
    /// The traffic agents the robot's cameras show now (world frame).
    seen: Vec<Obstacle>,
    /// The pace it yields to them at.
    yielding: Yielding,
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

/// A car-steered robot backs to a target more than this off its heading, rad (120°).
const BACK_BEARING: f64 = 2.0 * std::f64::consts::FRAC_PI_3;

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
            footprint_radius: spec.footprint_radius(),
            seen: Vec::new(),
            yielding: Yielding::default(),
        }
    }

    /// The traffic agents the robot's cameras show now, as circles with their velocities
    /// (world frame): the session fills it before each [`TrialPilot::command`], and the pilot
    /// yields to them off stair flights.
    pub fn traffic_seen(&mut self) -> &mut Vec<Obstacle> {
        &mut self.seen
    }

    /// `command` with its forward speed scaled to the pace that yields to the traffic seen
    /// ([`super::traffic::yielding`]): its turn kept, the robot at `body`.
    fn yield_to_traffic(&mut self, body: &BodyState, command: DriveCommand) -> DriveCommand {
        let speed = 0.5 * (command.left + command.right);
        let state = Autopilot::planar(body);
        let robot = Obstacle {
            position: state.position,
            velocity: body.linvel.xy(),
            radius: self.footprint_radius,
        };
        let heading = Vector2::new(state.yaw.cos(), state.yaw.sin());
        let pace = self
            .yielding
            .pace(self.clock, &robot, heading, speed, &self.seen);
        let cut = (1.0 - pace) * speed;
        DriveCommand {
            left: command.left - cut,
            right: command.right - cut,
            ..command
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

    /// Whether the robot backs to `target` rather than turning round: a car-steered robot
    /// (it cannot turn on the spot, and a ramp or a corridor leaves it no room to turn on its
    /// smallest circle) with the target more than [`BACK_BEARING`] off its heading.
    fn backs_to(&self, body: &BodyState, target: &nalgebra::Point3<f64>) -> bool {
        let state = Autopilot::planar(body);
        let to = target.coords.xy() - state.position;
        self.channels.ackermann.is_some()
            && wrap_pi(to.y.atan2(to.x) - state.yaw).abs() > BACK_BEARING
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
            } else if self.backs_to(body, &target) {
                Goal::Reverse {
                    at: target.coords.xy(),
                    speed: self.speed,
                    tolerance: 0.1,
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
        let (command, on_flight) = match &mut self.pilot {
            // Past a goal's tolerance the trial moves the target on; until then keep
            // heading for it (a zone's dwell holds the robot there).
            Some(pilot) if !pilot.is_done() => {
                (pilot.command(body, scan, dt), pilot.stairs().is_some())
            }
            _ => return DriveCommand::STOP,
        };
        // On a flight the stair strategy keeps its own pace (stopping on one is a watchdog's
        // decision); elsewhere the pilot yields to the traffic it sees.
        if on_flight {
            command
        } else {
            self.yield_to_traffic(body, command)
        }
    }
}
