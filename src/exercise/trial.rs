//! One trial of an exercise, scored as the standard test methods for response robots score
//! theirs (ASTM E54.09: E2801 gaps, E2802 hurdles, E2803 inclined planes, E2804
//! stairs/landings, E2826/E2827 pitch/roll ramps, E2828 stepfields, E2829 manoeuvring).
//!
//! A trial is a number of repetitions of a route (the exercise's goals in order, and back into
//! the start zone for a round trip). A *fault* — tipped past a static tip-over limit, rolled
//! over, fell or left the scene, a motor stalled past the stall limit, a reset asked for —
//! voids the repetition under way: it is logged with its time, the robot goes back to the
//! start, and the exercise clock is paused while it is put there. A completed one-way
//! repetition also puts the robot back at the start (the standard carries it back). The
//! results are the completed repetitions, faults, elapsed clock time, repetitions per minute
//! (the standards' operator-proficiency metric), penalties, a score and pass/fail with the
//! reason.
//!
//! Score: `100 · completed / required − penalty points`, clamped to 0..100. A trial passes
//! when every repetition is done within the time limit and the score reaches the pass mark.
//!
//! [`Trial::update`] runs after every simulation step; it reads the robot's state and the
//! simulation's events, and resets the robot itself on a fault. Everything it decides is an
//! [`ExerciseEvent`], in order, so a recorder can log it and a replay can show it.

use nalgebra::{Isometry3, Point2, Point3, Vector2, Vector3};

use super::dexterity::{ArmFinding, ArmWatch};
use super::goals::{goal_distance, goal_point, GoalCheck};
pub use super::outcome::{ExerciseEvent, FaultKind, TrialResult};
use super::spec::{ExerciseSpec, GoalKind, ZoneSpec};
use super::Exercise;
use crate::scene::Spawn;
use crate::sim::{RobotId, SimEvent, Simulation, StateSnapshot};
use crate::vehicle::stability::{Tilt, TipLimits};
use crate::vehicle::stall::StallMonitor;

/// A robot past a static tip-over limit for this long has tipped over, s (shorter excursions
/// are the dynamic rocking of a robot that recovers).
pub const TIP_HOLD: f64 = 0.5;
/// A hull contact with the scene counts again only after this long without one, s.
pub const HULL_CONTACT_GAP: f64 = 0.5;
/// Half height of the start zone, m.
pub const START_HALF_HEIGHT: f64 = 1.0;

/// The live state of one trial.
#[derive(Debug, Clone)]
pub struct Trial {
    /// The arm's faults and penalties (armed robots).
    arm_watch: ArmWatch,
    /// Whether the robot has an arm.
    armed: bool,
    /// The exercise: route, repetitions, limits, rules, penalties.
    spec: ExerciseSpec,
    /// Where the robot starts and is put back.
    start: Spawn,
    /// The zone a round trip ends in: around the start.
    start_zone: ZoneSpec,
    cameras: Vec<crate::vehicle::spec::CameraSpec>,
    tip: TipLimits,
    stall: StallMonitor,
    /// Exercise clock, s.
    clock: f64,
    /// Next goal of the route; `goals.len()`: returning to the start (round trip).
    next_goal: usize,
    /// Time the current goal's condition has held, s.
    dwell: f64,
    /// Whether the robot has left the start zone during this repetition.
    left_start: bool,
    /// Clock when the repetition under way began, s.
    repetition_start: f64,
    completed: u32,
    faults: u32,
    penalty_points: f64,
    events: Vec<ExerciseEvent>,
    /// Simulation events already looked at.
    sim_events_seen: usize,
    /// How near the robot's centre has come to the current goal: its index in the route and
    /// the distance, m (horizontal, to a zone's edge or a gate; to an observation target's
    /// range).
    closest: (usize, f64),
    /// Another robot than the exercise names runs it: which, instead of which.
    substitute: Option<String>,
    /// Per forbidden zone: whether the robot is inside.
    in_forbidden: Vec<bool>,
    /// While the robot is over the speed limit: the highest speed so far, m/s.
    speeding: Option<f64>,
    /// While the robot is over the tilt limit: the largest tilt so far, rad.
    over_tilt: Option<f64>,
    /// Time past a tip-over limit, s.
    tipping: f64,
    /// Time since the hull last touched the scene, s (∞: never).
    hull_free: f64,
    /// Time since the hull last touched a moving agent, s (∞: never).
    traffic_free: f64,
    /// Whether the robot has stood on its tracks since the (re)start. A trial may start with
    /// the robot on its back (a self-righting exercise): until it is righted, tip-over and
    /// roll-over faults, the tilt rule and hull-contact penalties do not count.
    on_tracks: bool,
    /// Time the robot has stood within its tip-over limits while not yet righted, s.
    righting: f64,
    /// The robot's centre in the last step (gates are crossings), m.
    last_position: Option<Point3<f64>>,
    /// Whether the clock is paused (the robot is being put back at the start).
    paused: bool,
    finished: Option<(bool, String)>,
}

impl Trial {
    /// A trial of `exercise` for the robot `id` of `sim`, at its start (the robot is put at the
    /// exercise's spawn).
    pub fn new(exercise: &Exercise, sim: &mut Simulation, id: RobotId) -> Self {
        let spec = &exercise.spec;
        sim.reset_robot(id, &exercise.spawn);
        let robot = sim.robot(id).spec().clone();
        let tip = TipLimits::from_spec(&robot);
        Self {
            arm_watch: ArmWatch::new(),
            armed: robot.arm.is_some(),
            spec: spec.clone(),
            start: exercise.spawn.clone(),
            start_zone: ZoneSpec {
                position: exercise.spawn.position,
                radius: spec.start_radius,
                half_height: START_HALF_HEIGHT,
            },
            cameras: robot.cameras.clone(),
            on_tracks: stands_on_tracks(&tip, &sim.body_state(id).pose),
            righting: 0.0,
            tip,
            stall: StallMonitor::new(robot.drive_count()),
            clock: 0.0,
            next_goal: 0,
            dwell: 0.0,
            left_start: false,
            repetition_start: 0.0,
            completed: 0,
            faults: 0,
            penalty_points: 0.0,
            events: Vec::new(),
            sim_events_seen: sim.events().len(),
            closest: (0, f64::INFINITY),
            substitute: spec.exercise_robot.as_ref().map(|own| {
                format!(
                    "{}, not the exercise's {}",
                    robot.name,
                    own.file_name().map_or(own.display().to_string(), |n| n
                        .to_string_lossy()
                        .into_owned())
                )
            }),
            in_forbidden: vec![false; spec.rules.forbidden.len()],
            speeding: None,
            over_tilt: None,
            tipping: 0.0,
            hull_free: f64::INFINITY,
            traffic_free: f64::INFINITY,
            last_position: None,
            paused: false,
            finished: None,
        }
    }

    /// The exercise.
    pub fn spec(&self) -> &ExerciseSpec {
        &self.spec
    }

    /// Whether the trial has ended.
    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// The exercise clock, s.
    pub fn clock(&self) -> f64 {
        self.clock
    }

    /// Repetitions completed so far.
    pub fn completed(&self) -> u32 {
        self.completed
    }

    /// Faults so far (voided repetitions).
    pub fn faults(&self) -> u32 {
        self.faults
    }

    /// Penalty points so far.
    pub fn penalty_points(&self) -> f64 {
        self.penalty_points
    }

    /// Whether the robot stands on its tracks since the (re)start; `false` while a robot
    /// started on its back has not been righted yet.
    pub fn is_on_tracks(&self) -> bool {
        self.on_tracks
    }

    /// Whether the clock is stopped while the robot is put back at the start.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// How the trial ended, once it has: passed, and why.
    pub fn outcome(&self) -> Option<(bool, &str)> {
        self.finished.as_ref().map(|(p, r)| (*p, r.as_str()))
    }

    /// The goal the robot is heading for, and its index (`None` once finished; the start
    /// zone's name is `"start"` on the way back of a round trip).
    pub fn current_goal(&self) -> Option<(usize, &str)> {
        if self.finished.is_some() {
            return None;
        }
        match self.spec.goals.get(self.next_goal) {
            Some(g) => Some((self.next_goal, g.name.as_str())),
            None => Some((self.next_goal, "start")),
        }
    }

    /// Where the current goal is (world, m), for the station's direction overlay; `sim` is the
    /// trial's simulation.
    pub fn current_target(&self, sim: &Simulation) -> Option<Point3<f64>> {
        if self.finished.is_some() {
            return None;
        }
        Some(match self.spec.goals.get(self.next_goal) {
            Some(g) => goal_point(&g.kind, self.start.position.z, sim),
            None => self.start.position,
        })
    }

    /// The current goal's gate, if it is one: its posts (world x, y, m) and the heading it
    /// must be crossed at (rad), if any.
    pub fn current_gate(&self) -> Option<(Point2<f64>, Point2<f64>, Option<f64>)> {
        if self.finished.is_some() {
            return None;
        }
        match self.spec.goals.get(self.next_goal).map(|g| &g.kind) {
            Some(GoalKind::Gate { a, b, heading }) => Some((*a, *b, heading.map(|h| h.0))),
            _ => None,
        }
    }

    /// The current goal's view, if it is a target to see: its range (m), the largest angle
    /// off the camera's axis (rad) and the camera named (if any).
    pub fn current_view(&self) -> Option<(f64, f64, Option<&str>)> {
        if self.finished.is_some() {
            return None;
        }
        match self.spec.goals.get(self.next_goal).map(|g| &g.kind) {
            Some(GoalKind::Observe {
                range,
                angle,
                camera,
                ..
            }) => Some((*range, *angle, camera.as_deref())),
            _ => None,
        }
    }

    /// Adds the trial's evolving quantities to a state snapshot, named `trial.…` (clock s,
    /// route progress, counts, penalty points, timers s).
    pub fn capture_state(&self, out: &mut StateSnapshot) {
        for (name, value) in [
            ("trial.clock", self.clock),
            ("trial.next_goal", self.next_goal as f64),
            ("trial.dwell", self.dwell),
            ("trial.left_start", f64::from(u8::from(self.left_start))),
            ("trial.repetition_start", self.repetition_start),
            ("trial.completed", f64::from(self.completed)),
            ("trial.faults", f64::from(self.faults)),
            ("trial.penalty_points", self.penalty_points),
            ("trial.events", self.events.len() as f64),
            ("trial.closest", self.closest.1),
            ("trial.tipping", self.tipping),
            ("trial.hull_free", self.hull_free),
            ("trial.traffic_free", self.traffic_free),
            ("trial.on_tracks", f64::from(u8::from(self.on_tracks))),
            ("trial.righting", self.righting),
            (
                "trial.finished",
                f64::from(u8::from(self.finished.is_some())),
            ),
        ] {
            out.push(name, value);
        }
        out.push("trial.stall", self.stall.longest());
        if self.armed {
            out.push_all("trial.arm_watch", self.arm_watch.values());
        }
    }

    /// The events so far.
    pub fn events(&self) -> &[ExerciseEvent] {
        &self.events
    }

    /// The trainee or instructor asks for a reset: a fault.
    pub fn request_reset(&mut self, sim: &mut Simulation, id: RobotId) {
        if self.finished.is_none() {
            self.fault(sim, id, FaultKind::Reset);
        }
    }

    /// The instructor ends the trial now: it fails, with `reason`. Nothing if it is over.
    pub fn end(&mut self, sim: &Simulation, reason: &str) {
        if self.finished.is_none() {
            self.finish(sim, false, reason.to_owned());
        }
    }

    /// The station showed a view other than an onboard camera while the rules allow only
    /// those: the trial fails at once.
    pub fn forbidden_view(&mut self, sim: &Simulation, view: &str) {
        if self.spec.rules.trainee && self.finished.is_none() {
            self.finish(
                sim,
                false,
                format!("forbidden view '{view}' in trainee mode"),
            );
        }
    }

    /// Scores the step the simulation has just taken (call after every [`Simulation::step`]).
    pub fn update(&mut self, sim: &mut Simulation, id: RobotId) {
        if self.finished.is_some() {
            return;
        }
        let dt = sim.config().dt;
        if sim.arm_command(id).is_some() {
            // An arm's pose and load move the centre of mass, and with it the limits.
            self.tip = sim.tip_limits(id);
        }
        if self.paused {
            self.paused = false;
        } else {
            self.clock += dt;
        }
        if let Some(kind) = self.sim_fault(sim, id) {
            self.fault(sim, id, kind);
            return;
        }
        let body = sim.body_state(id);
        let tilt = Tilt::of(&body.pose);
        if !self.on_tracks {
            self.watch_righting(sim, &tilt);
        }
        if let Some(kind) = self.tilt_fault(&tilt, dt) {
            self.fault(sim, id, kind);
            return;
        }
        // Stall.
        self.stall.update(sim.robot(id), dt);
        if self.stall.longest() >= self.spec.rules.stall_limit {
            self.fault(sim, id, FaultKind::Stall);
            return;
        }
        if let Some(finding) = self.arm_watch.update(sim, id, &self.spec.rules, dt) {
            match finding {
                ArmFinding::Fault(kind) => {
                    self.fault(sim, id, kind);
                    return;
                }
                ArmFinding::Penalty(reason) => {
                    let points = self.spec.penalties.arm_collision;
                    self.penalty(sim, reason, points);
                }
            }
        }
        self.rule_penalties(sim, id, &tilt);
        self.track_closest(sim, &body.com);
        self.route(sim, id);
        if self.finished.is_none() && self.clock >= self.spec.time_limit {
            self.penalty(sim, "time over".into(), self.spec.penalties.time_over);
            let reason = format!(
                "time over: {} of {} repetitions in {:.0} s",
                self.completed, self.spec.repetitions, self.spec.time_limit
            );
            self.finish(sim, false, reason);
        }
    }

    /// How near the robot's centre (`at`, world, m) has come to the current goal, kept for a
    /// failed trial's table: 0 inside it.
    fn track_closest(&mut self, sim: &Simulation, at: &Point3<f64>) {
        if self.closest.0 != self.next_goal {
            self.closest = (self.next_goal, f64::INFINITY);
        }
        let distance = match self.spec.goals.get(self.next_goal) {
            Some(g) => goal_distance(&g.kind, at, sim),
            None => {
                let d = Vector2::new(self.start.position.x - at.x, self.start.position.y - at.y);
                (d.norm() - self.spec.start_radius).max(0.0)
            }
        };
        self.closest.1 = self.closest.1.min(distance);
    }

    /// Roll-over (on its back) or tip-over (past a static limit for [`TIP_HOLD`]), once the
    /// robot stands on its tracks.
    fn tilt_fault(&mut self, tilt: &Tilt, dt: f64) -> Option<FaultKind> {
        if !self.on_tracks {
            self.tipping = 0.0;
            return None;
        }
        if tilt.upside_down {
            return Some(FaultKind::RollOver);
        }
        let (least, _) = self.tip.margins(tilt).least();
        self.tipping = if least < 0.0 { self.tipping + dt } else { 0.0 };
        (self.tipping >= TIP_HOLD).then_some(FaultKind::TipOver)
    }

    /// Counts the time a robot not yet righted stands within its limits; after
    /// [`TIP_HOLD`] it is righted (an event) and tilt faults and hull contacts count.
    fn watch_righting(&mut self, sim: &Simulation, tilt: &Tilt) {
        self.righting = if within_limits(&self.tip, tilt) {
            self.righting + sim.config().dt
        } else {
            0.0
        };
        if self.righting >= TIP_HOLD {
            self.on_tracks = true;
            self.righting = 0.0;
            self.events.push(ExerciseEvent::Righted {
                time: sim.time(),
                clock: self.clock,
                repetition: self.completed + 1,
            });
        }
    }

    /// A fault from the simulation's own events since the last update.
    fn sim_fault(&mut self, sim: &Simulation, id: RobotId) -> Option<FaultKind> {
        let new = &sim.events()[self.sim_events_seen..];
        self.sim_events_seen = sim.events().len();
        new.iter().find_map(|e| match e {
            SimEvent::OutOfBounds { robot, .. } if *robot == id => Some(FaultKind::OutOfBounds),
            SimEvent::Fell { robot, .. } if *robot == id => Some(FaultKind::Fell),
            _ => None,
        })
    }

    /// Penalties of the rules: hull contact, forbidden zones, speed, tilt. Each counts once
    /// per entry into its condition.
    fn rule_penalties(&mut self, sim: &Simulation, id: RobotId, tilt: &Tilt) {
        let dt = sim.config().dt;
        let body = sim.body_state(id);
        // A robot not yet righted lies on its hull: contact is the exercise, not a fault.
        let hull = self.on_tracks && sim.hull_touches_scene(id);
        if new_contact(&mut self.hull_free, hull, dt) {
            let points = self.spec.penalties.hull_collision;
            self.penalty(sim, "hull collision with the scene".into(), points);
        }
        // Hitting a moving agent counts whether or not the robot is on its tracks.
        if new_contact(&mut self.traffic_free, sim.hull_touches_mover(id), dt) {
            let points = self.spec.penalties.traffic_collision;
            self.penalty(sim, "collision with traffic".into(), points);
        }
        for i in 0..self.spec.rules.forbidden.len() {
            let inside = self.spec.rules.forbidden[i].contains(&body.com);
            if inside && !self.in_forbidden[i] {
                let reason = format!(
                    "entered forbidden zone '{}'",
                    self.spec.rules.forbidden[i].name
                );
                self.penalty(sim, reason, self.spec.penalties.forbidden_zone);
            }
            self.in_forbidden[i] = inside;
        }
        if let Some(limit) = self.spec.rules.speed_limit {
            let speed = Vector3::new(body.linvel.x, body.linvel.y, 0.0).norm();
            let points = self.spec.penalties.speed;
            let episode = self.speeding;
            self.speeding = self.follow_limit(sim, episode, speed, limit, points, speed_text);
        }
        if let Some(limit) = self.spec.rules.max_tilt.filter(|_| self.on_tracks) {
            let worst = tilt.nose_up.abs().max(tilt.left_up.abs());
            let points = self.spec.penalties.tilt;
            let episode = self.over_tilt;
            self.over_tilt = self.follow_limit(sim, episode, worst, limit, points, tilt_text);
        }
    }

    /// Follows a value against its rule's limit, once per entry: passing the limit costs
    /// `points` at once (the score counts it from that step); while over, the worst value is
    /// kept; back under it — or when the trial ends — the penalty's event says the worst
    /// value and the limit (`text`), so it reads "speed 1.00 m/s, limit 0.50 m/s", not the
    /// value at the crossing, which is the limit. Returns the episode's new state.
    fn follow_limit(
        &mut self,
        sim: &Simulation,
        episode: Option<f64>,
        value: f64,
        limit: f64,
        points: f64,
        text: fn(f64, f64) -> String,
    ) -> Option<f64> {
        match (episode, value > limit) {
            (None, true) => {
                self.penalty_points += points.max(0.0);
                Some(value)
            }
            (Some(worst), true) => Some(worst.max(value)),
            (Some(worst), false) => {
                self.penalty_event(sim, text(worst, limit), points);
                None
            }
            (None, false) => None,
        }
    }

    /// The events of the rules' episodes still open (the trial ends while the robot is over
    /// a limit).
    fn close_episodes(&mut self, sim: &Simulation) {
        let rules = &self.spec.rules;
        let open = [
            (
                self.speeding.take(),
                rules.speed_limit,
                self.spec.penalties.speed,
                speed_text as fn(f64, f64) -> String,
            ),
            (
                self.over_tilt.take(),
                rules.max_tilt,
                self.spec.penalties.tilt,
                tilt_text,
            ),
        ];
        for (worst, limit, points, text) in open {
            if let (Some(worst), Some(limit)) = (worst, limit) {
                self.penalty_event(sim, text(worst, limit), points);
            }
        }
    }

    /// Progress along the route.
    fn route(&mut self, sim: &mut Simulation, id: RobotId) {
        let dt = sim.config().dt;
        let body = sim.body_state(id);
        let position = body.com;
        let previous = self.last_position.replace(position);
        let start_zone = self.start_zone;
        if !start_zone.contains(&position) {
            self.left_start = true;
        }
        let check = GoalCheck {
            sim,
            id,
            body: &body,
            previous,
            cameras: &self.cameras,
        };
        let met = match self.spec.goals.get(self.next_goal) {
            Some(goal) => check.met(&goal.kind),
            // The way back of a round trip.
            None => self.left_start && start_zone.contains(&position),
        };
        let dwell = self.spec.goals.get(self.next_goal).map_or(0.0, |g| g.dwell);
        self.dwell = if met { self.dwell + dt } else { 0.0 };
        if !met || self.dwell + 0.5 * dt < dwell {
            return;
        }
        self.dwell = 0.0;
        if let Some(goal) = self.spec.goals.get(self.next_goal) {
            let event = ExerciseEvent::GoalReached {
                time: sim.time(),
                clock: self.clock,
                repetition: self.completed + 1,
                goal: self.next_goal,
                name: goal.name.clone(),
            };
            self.events.push(event);
            self.next_goal += 1;
            if self.next_goal < self.spec.goals.len() || self.spec.round_trip {
                return;
            }
        }
        self.repetition_done(sim, id);
    }

    fn repetition_done(&mut self, sim: &mut Simulation, id: RobotId) {
        self.completed += 1;
        self.events.push(ExerciseEvent::RepetitionDone {
            time: sim.time(),
            clock: self.clock,
            completed: self.completed,
            duration: self.clock - self.repetition_start,
        });
        if self.completed >= self.spec.repetitions {
            let score = self.score();
            let (passed, reason) = if score + 1e-9 >= self.spec.pass_mark {
                (
                    true,
                    format!(
                        "{} of {} repetitions, score {score:.0} (pass mark {:.0})",
                        self.completed, self.spec.repetitions, self.spec.pass_mark
                    ),
                )
            } else {
                (
                    false,
                    format!(
                        "score {score:.0} below the pass mark {:.0} ({} penalty points)",
                        self.spec.pass_mark, self.penalty_points
                    ),
                )
            };
            self.finish(sim, passed, reason);
            return;
        }
        self.restart_repetition();
        if !self.spec.round_trip {
            // One-way routes: the robot is carried back to the start, clock paused.
            self.back_to_start(sim, id);
        }
    }

    /// Puts the robot back at the start pose, clock paused for this step; a start off the
    /// tracks (on its back) has to be righted again.
    fn back_to_start(&mut self, sim: &mut Simulation, id: RobotId) {
        sim.reset_robot(id, &self.start);
        // A repetition starts over with the scene's objects where they began.
        sim.reset_objects();
        self.last_position = None;
        self.paused = true;
        self.on_tracks = stands_on_tracks(&self.tip, &sim.body_state(id).pose);
        self.righting = 0.0;
    }

    fn restart_repetition(&mut self) {
        self.arm_watch.clear();
        self.next_goal = 0;
        self.dwell = 0.0;
        self.left_start = false;
        self.repetition_start = self.clock;
        self.tipping = 0.0;
        self.stall.clear();
    }

    fn fault(&mut self, sim: &mut Simulation, id: RobotId, kind: FaultKind) {
        self.faults += 1;
        self.events.push(ExerciseEvent::Fault {
            time: sim.time(),
            clock: self.clock,
            kind,
            repetition: self.completed + 1,
        });
        let points = match kind {
            FaultKind::TipOver => self.spec.penalties.tip_over,
            FaultKind::RollOver => self.spec.penalties.roll_over,
            FaultKind::Fell | FaultKind::OutOfBounds => self.spec.penalties.fall,
            FaultKind::Stall => self.spec.penalties.stall,
            FaultKind::Reset => self.spec.penalties.reset,
            FaultKind::Dropped => self.spec.penalties.dropped,
            FaultKind::JointOverload => self.spec.penalties.joint_overload,
        };
        self.penalty(sim, kind.name().to_string(), points);
        self.back_to_start(sim, id);
        self.sim_events_seen = sim.events().len();
        self.restart_repetition();
        self.hull_free = f64::INFINITY;
        self.traffic_free = f64::INFINITY;
    }

    fn penalty(&mut self, sim: &Simulation, reason: String, points: f64) {
        if points <= 0.0 {
            return;
        }
        self.penalty_points += points;
        self.penalty_event(sim, reason, points);
    }

    /// The event of a penalty whose points are counted.
    fn penalty_event(&mut self, sim: &Simulation, reason: String, points: f64) {
        if points <= 0.0 {
            return;
        }
        self.events.push(ExerciseEvent::Penalty {
            time: sim.time(),
            clock: self.clock,
            reason,
            points,
        });
    }

    fn finish(&mut self, sim: &Simulation, passed: bool, reason: String) {
        self.close_episodes(sim);
        self.events.push(ExerciseEvent::Finished {
            time: sim.time(),
            clock: self.clock,
            passed,
            reason: reason.clone(),
        });
        self.finished = Some((passed, reason));
    }

    /// `100 · completed / required − penalty points`, within 0..100.
    pub fn score(&self) -> f64 {
        let base = 100.0 * f64::from(self.completed) / f64::from(self.spec.repetitions.max(1));
        (base - self.penalty_points).clamp(0.0, 100.0)
    }

    /// The results so far (final once [`Trial::is_finished`]).
    pub fn result(&self) -> TrialResult {
        let (passed, reason) = self.finished.clone().unwrap_or((false, String::new()));
        TrialResult {
            exercise: self.spec.name.clone(),
            completed: self.completed,
            required: self.spec.repetitions,
            faults: self.faults,
            elapsed: self.clock,
            repetitions_per_minute: if self.clock > 0.0 {
                f64::from(self.completed) * 60.0 / self.clock
            } else {
                0.0
            },
            penalty_points: self.penalty_points,
            score: self.score(),
            closest: (!passed && self.closest.1.is_finite()).then(|| {
                let goal = self.spec.goals.get(self.closest.0);
                (
                    goal.map_or("start", |g| g.name.as_str()).to_string(),
                    self.closest.1,
                )
            }),
            link: self.spec.link.summary(),
            robot: self.substitute.clone(),
            passed,
            reason,
            events: self.events.clone(),
        }
    }
}

/// Whether `touching` this step is a new contact — one after at least [`HULL_CONTACT_GAP`]
/// without any; `free` is the time since the last contact (s), kept up to date.
fn new_contact(free: &mut f64, touching: bool, dt: f64) -> bool {
    if touching {
        let new = *free >= HULL_CONTACT_GAP;
        *free = 0.0;
        new
    } else {
        *free += dt;
        false
    }
}

/// Whether a robot at `pose` stands on its tracks: not on its back and within every static
/// tip-over limit.
fn stands_on_tracks(tip: &TipLimits, pose: &Isometry3<f64>) -> bool {
    within_limits(tip, &Tilt::of(pose))
}

/// Whether `tilt` is on the tracks: not on the back and within every static tip-over limit.
fn within_limits(tip: &TipLimits, tilt: &Tilt) -> bool {
    !tilt.upside_down && tip.margins(tilt).least().0 >= 0.0
}

/// A speeding penalty's words: the highest speed and the limit, m/s.
fn speed_text(worst: f64, limit: f64) -> String {
    format!("speed {worst:.2} m/s, limit {limit:.2} m/s")
}

/// A tilt penalty's words: the largest tilt and the limit (rad), in degrees.
fn tilt_text(worst: f64, limit: f64) -> String {
    format!(
        "tilt {:.0}°, limit {:.0}°",
        worst.to_degrees(),
        limit.to_degrees()
    )
}
