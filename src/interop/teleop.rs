//! An external operator's commands on their way to a session: a ROS 2 control unit's
//! `/cmd_vel` or Foxglove's Teleop panel. Whatever carries them, the commands land in one
//! [`TeleopInbox`] (the latest velocity, flipper target and enable flag, with what was counted)
//! and one [`TeleopDriver`] turns them into `Input`s before each step, so the session's log
//! replays them bit-exact and every source obeys the same rules:
//! - a velocity (`v` m/s forward, `w` rad/s counter-clockwise, body frame) becomes belt speeds by
//!   the tracks' kinematics, `v ∓ w·B/2` (B the track gauge; an Ackermann robot steers to the same
//!   curvature), both scaled down together to the slowest motor's top speed;
//! - a command older than the timeout stops the robot, as a lost pad does;
//! - a message that does not decode, or with a NaN or an absurd value, is refused and counted,
//!   and a refused velocity stops the robot too (the operator's last word was garbage);
//! - `enable = false` stops the robot until `true` comes; the flipper target passes;
//! - an arm command names its joints ([`ArmRequest`]): positions move them there (the joints
//!   not named keep their targets) and hold; velocities move them until the command goes stale;
//!   a grip force closes the fingers pressing with it (0 opens them). A robot without an arm,
//!   or a joint it does not have, refuses the command (counted).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::session::{Driver, Input, Session};
use crate::vehicle::arm::{ArmCommand, ArmMotion, GripCommand, MAX_ARM_JOINTS};
use crate::vehicle::{DriveCommand, RobotSpec};

/// Largest speed a command may ask for, m/s, and turn rate, rad/s: beyond them it is not a
/// command but garbage.
pub const ABSURD_SPEED: f64 = 20.0;
/// See [`ABSURD_SPEED`], rad/s.
pub const ABSURD_TURN: f64 = 50.0;

/// Largest arm joint position or speed a command may give, rad, m, rad/s or m/s.
pub const ABSURD_JOINT: f64 = 100.0;
/// Largest grip force a command may ask for, N.
pub const ABSURD_GRIP: f64 = 10_000.0;

/// An arm command by joint name, as a control unit sends it.
#[derive(Debug, Clone, PartialEq)]
pub enum ArmRequest {
    /// Move the named joints to these positions, rad or m (the others keep their targets),
    /// and hold there.
    Positions(Vec<(String, f64)>),
    /// Move the named joints at these speeds, rad/s or m/s (the others hold), until the
    /// command goes stale.
    Velocities(Vec<(String, f64)>),
}

impl ArmRequest {
    /// What a trajectory point asks of the joints `names`: its positions if it has one per
    /// joint, else its velocities if it has those; `None` for no joint or counts that do not
    /// match (a `JointTrajectory`'s last point, from ROS 2's CDR or Foxglove's JSON).
    pub fn of_point(names: Vec<String>, positions: &[f64], velocities: &[f64]) -> Option<Self> {
        let pair = |values: &[f64]| names.iter().cloned().zip(values.iter().copied()).collect();
        if names.is_empty() {
            None
        } else if positions.len() == names.len() {
            Some(ArmRequest::Positions(pair(positions)))
        } else if velocities.len() == names.len() {
            Some(ArmRequest::Velocities(pair(velocities)))
        } else {
            None
        }
    }

    fn values(&self) -> &[(String, f64)] {
        match self {
            ArmRequest::Positions(v) | ArmRequest::Velocities(v) => v,
        }
    }
}

/// What an inbox and its drivers have counted.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TeleopCounters {
    /// Commands taken (all kinds).
    pub received: u64,
    /// Messages refused: malformed, NaN or absurd values.
    pub rejected: u64,
    /// Times a stale command stopped the robot.
    pub timeouts: u64,
    /// Velocity messages that reached a simulation step (the time from each one's arrival to
    /// the step it drove: sum and largest below, s of wall clock).
    pub applied: u64,
    /// Sum of those latencies, s.
    pub latency_sum: f64,
    /// The largest, s.
    pub latency_max: f64,
}

impl TeleopCounters {
    /// Mean time from a velocity message's arrival to the step it drove, s (0 before any).
    pub fn latency_mean(&self) -> f64 {
        if self.applied > 0 {
            self.latency_sum / self.applied as f64
        } else {
            0.0
        }
    }
}

/// The operator's latest commands, as the network's callbacks leave them.
#[derive(Debug, Default)]
struct Latest {
    /// The latest velocity command (m/s, rad/s) and when it came.
    velocity: Option<((f64, f64), Instant)>,
    /// The latest flipper target, rad.
    flipper: Option<f64>,
    /// `false` after the enable topic said so.
    disabled: bool,
    /// The latest arm command, when it came, and its number (1, 2, …).
    arm: Option<(ArmRequest, Instant, u64)>,
    /// The latest grip force, N (0: open), and its number.
    grip: Option<(f64, u64)>,
    /// Arm and grip commands taken so far.
    arm_commands: u64,
    counters: TeleopCounters,
}

/// The operator's latest commands, shared between the network's callbacks (which take them)
/// and the session's driver (which reads them before each step). Cloning shares.
#[derive(Debug, Clone, Default)]
pub struct TeleopInbox(Arc<Mutex<Latest>>);

impl TeleopInbox {
    fn lock(&self) -> std::sync::MutexGuard<'_, Latest> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a velocity command: `v` m/s forward, `w` rad/s counter-clockwise (body frame).
    /// A NaN or absurd one is refused (see [`TeleopInbox::refuse_velocity`]); returns whether
    /// it was taken.
    pub fn take_velocity(&self, v: f64, w: f64) -> bool {
        if !(v.is_finite() && w.is_finite() && v.abs() <= ABSURD_SPEED && w.abs() <= ABSURD_TURN) {
            self.refuse_velocity();
            return false;
        }
        let mut latest = self.lock();
        latest.velocity = Some(((v, w), Instant::now()));
        latest.counters.received += 1;
        true
    }

    /// Refuses a velocity message that did not decode or made no sense: counted, and the robot
    /// stops.
    pub fn refuse_velocity(&self) {
        let mut latest = self.lock();
        latest.velocity = Some(((0.0, 0.0), Instant::now()));
        latest.counters.rejected += 1;
    }

    /// Takes a flipper target, rad (refused beyond a full turn either way); returns whether it
    /// was taken.
    pub fn take_flipper(&self, angle: f64) -> bool {
        let mut latest = self.lock();
        if angle.is_finite() && angle.abs() <= 2.0 * std::f64::consts::PI {
            latest.flipper = Some(angle);
            latest.counters.received += 1;
            true
        } else {
            latest.counters.rejected += 1;
            false
        }
    }

    /// Takes an arm command (refused if a value is NaN or absurd, or it names no joint);
    /// returns whether it was taken.
    pub fn take_arm(&self, request: ArmRequest) -> bool {
        let values = request.values();
        let sane = !values.is_empty()
            && values.len() <= MAX_ARM_JOINTS
            && values
                .iter()
                .all(|(_, x)| x.is_finite() && x.abs() <= ABSURD_JOINT);
        let mut latest = self.lock();
        if !sane {
            latest.counters.rejected += 1;
            return false;
        }
        latest.arm_commands += 1;
        latest.arm = Some((request, Instant::now(), latest.arm_commands));
        latest.counters.received += 1;
        true
    }

    /// Takes a grip force, N: the fingers close pressing with it, 0 opens them (refused if
    /// negative, NaN or absurd); returns whether it was taken.
    pub fn take_grip(&self, force: f64) -> bool {
        let mut latest = self.lock();
        if !(force.is_finite() && (0.0..=ABSURD_GRIP).contains(&force)) {
            latest.counters.rejected += 1;
            return false;
        }
        latest.arm_commands += 1;
        latest.grip = Some((force, latest.arm_commands));
        latest.counters.received += 1;
        true
    }

    /// Takes the enable (dead-man) flag: `false` stops the robot until `true` comes.
    pub fn take_enable(&self, on: bool) {
        let mut latest = self.lock();
        latest.disabled = !on;
        latest.counters.received += 1;
    }

    /// Counts a message refused that carried no velocity (a malformed flipper or enable
    /// message): nothing else changes.
    pub fn refuse(&self) {
        self.lock().counters.rejected += 1;
    }

    /// What was counted.
    pub fn counters(&self) -> TeleopCounters {
        self.lock().counters
    }

    /// Makes the latest arm command `age` older (tests of the timeout).
    #[cfg(test)]
    pub(crate) fn age_arm(&self, age: std::time::Duration) {
        if let Some((_, at, _)) = self.lock().arm.as_mut() {
            *at -= age;
        }
    }

    /// Makes the latest velocity command `age` older (tests of the timeout).
    #[cfg(test)]
    pub(crate) fn age(&self, age: std::time::Duration) {
        if let Some((_, at)) = self.lock().velocity.as_mut() {
            *at -= age;
        }
    }
}

/// Gives an inbox's commands to a session before each step: a [`Driver`].
pub struct TeleopDriver {
    inbox: TeleopInbox,
    gauge: f64,
    speed_max: f64,
    timeout: f64,
    stale: bool,
    /// Arrival of the last velocity message that reached a step.
    last_taken: Option<Instant>,
    /// The arm command built from the latest arm and grip messages, and the numbers of the
    /// messages it was built from (`None` until the first).
    arm: Option<(ArmCommand, u64, u64)>,
}

impl TeleopDriver {
    /// A driver of `robot` reading `inbox`, a command older than `timeout` s stale.
    pub fn new(inbox: TeleopInbox, robot: &RobotSpec, timeout: f64) -> Self {
        // The robot's speed and heading channels, as the autopilot knows them.
        let channels = crate::control::autopilot::Channels::of(robot);
        Self {
            inbox,
            gauge: channels.gauge,
            speed_max: channels.speed_max,
            timeout,
            stale: false,
            last_taken: None,
            arm: None,
        }
    }

    /// The track gauge the kinematics use, m.
    pub fn gauge(&self) -> f64 {
        self.gauge
    }

    /// The top belt speed commands are scaled to, m/s.
    pub fn speed_max(&self) -> f64 {
        self.speed_max
    }

    /// Belt speeds for forward speed `v` (m/s) and turn rate `w` (rad/s, counter-clockwise):
    /// `v ∓ w·B/2`, both scaled down together to the top speed (the turn's curvature kept).
    pub fn belts(&self, v: f64, w: f64) -> (f64, f64) {
        let half = w * self.gauge / 2.0;
        let (left, right) = (v - half, v + half);
        let peak = left.abs().max(right.abs());
        let k = if peak > self.speed_max {
            self.speed_max / peak
        } else {
            1.0
        };
        (left * k, right * k)
    }
}

impl Driver for TeleopDriver {
    fn before_step(&mut self, session: &mut Session) {
        let now = Instant::now();
        let inbox = self.inbox.clone();
        let mut latest = inbox.lock();
        let fresh = latest
            .velocity
            .filter(|(_, at)| now.duration_since(*at).as_secs_f64() <= self.timeout);
        if latest.velocity.is_some() && fresh.is_none() && !self.stale {
            latest.counters.timeouts += 1;
        }
        self.stale = latest.velocity.is_some() && fresh.is_none();
        let (left, right) = match fresh {
            Some(((v, w), _)) if !latest.disabled => self.belts(v, w),
            _ => (0.0, 0.0),
        };
        let command = DriveCommand {
            left,
            right,
            flipper: latest.flipper.or(session.operator_command().flipper),
            steer: None,
        };
        // Each message's way from its arrival to the step it drives.
        if let Some((_, at)) = fresh.filter(|(_, at)| Some(*at) != self.last_taken) {
            self.last_taken = Some(at);
            let latency = now.duration_since(at).as_secs_f64();
            let c = &mut latest.counters;
            c.applied += 1;
            c.latency_sum += latency;
            c.latency_max = c.latency_max.max(latency);
        }
        let arm = self.arm_command(&mut latest, session, now);
        drop(latest);
        // Only a change is an input: the log holds each command once.
        if command != session.operator_command() {
            session.apply(Input::Drive(command));
        }
        if let Some(arm) = arm.filter(|a| *a != session.operator_arm_command()) {
            session.apply(Input::Arm(arm));
        }
    }
}

impl TeleopDriver {
    /// The arm command the latest arm and grip messages ask of `session`'s robot (`None`
    /// before any came): a new message is resolved against the robot's joints once (a robot
    /// without an arm, or an unknown joint, refuses it); velocities go stale.
    fn arm_command(
        &mut self,
        latest: &mut Latest,
        session: &Session,
        now: Instant,
    ) -> Option<ArmCommand> {
        let arm_number = latest.arm.as_ref().map_or(0, |(_, _, n)| *n);
        let grip_number = latest.grip.map_or(0, |(_, n)| n);
        if arm_number == 0 && grip_number == 0 {
            return None;
        }
        let (mut command, seen_arm, seen_grip) = self.arm.unwrap_or((ArmCommand::HOLD, 0, 0));
        if (arm_number, grip_number) != (seen_arm, seen_grip) {
            let spec = session.sim().robot(session.robot()).spec();
            let state = session.sim().arm_state(session.robot());
            match (spec.arm.as_ref(), state) {
                (Some(arm), Some(state)) => {
                    if arm_number != seen_arm {
                        if let Some((request, _, _)) = &latest.arm {
                            match motion_of(request, arm, &state.targets) {
                                Some(motion) => command.motion = motion,
                                None => latest.counters.rejected += 1,
                            }
                        }
                    }
                    if let Some((force, _)) = latest.grip.filter(|_| grip_number != seen_grip) {
                        command.grip = if force > 0.0 {
                            GripCommand::Close(force)
                        } else {
                            GripCommand::Open
                        };
                    }
                }
                // No arm to move: each new message refused.
                _ => {
                    latest.counters.rejected +=
                        u64::from(arm_number != seen_arm) + u64::from(grip_number != seen_grip);
                }
            }
        }
        // Joint speeds stop when their command is stale.
        let stale = latest.arm.as_ref().is_some_and(|(r, at, _)| {
            matches!(r, ArmRequest::Velocities(_))
                && now.duration_since(*at).as_secs_f64() > self.timeout
        });
        if stale && matches!(command.motion, ArmMotion::JointRates(_)) {
            command.motion = ArmMotion::Hold;
        }
        self.arm = Some((command, arm_number, grip_number));
        session.sim().robot(session.robot()).spec().arm.as_ref()?;
        Some(command)
    }
}

/// The motion `request` asks of `arm` whose joints' servo targets are `targets` (the joints it
/// does not name keep theirs); `None` if it names a joint the arm does not have.
fn motion_of(
    request: &ArmRequest,
    arm: &crate::vehicle::arm::ArmSpec,
    targets: &[f64; MAX_ARM_JOINTS],
) -> Option<ArmMotion> {
    let index = |name: &str| arm.joints.iter().position(|j| j.name == name);
    match request {
        ArmRequest::Positions(values) => {
            let mut to = *targets;
            for (name, x) in values {
                to[index(name)?] = *x;
            }
            Some(ArmMotion::JointTargets(to))
        }
        ArmRequest::Velocities(values) => {
            let mut rates = [0.0; MAX_ARM_JOINTS];
            for (name, x) in values {
                rates[index(name)?] = *x;
            }
            Some(ArmMotion::JointRates(rates))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::testing::{free, scout};

    #[test]
    fn commands_become_logged_belt_speeds_and_stale_or_bad_ones_stop_the_robot() {
        let inbox = TeleopInbox::default();
        let mut d = TeleopDriver::new(inbox.clone(), &scout(), 0.5);
        let mut session = free();
        session.start_journal();
        // Forward 0.3 m/s turning left 0.5 rad/s: v ∓ ω·B/2.
        assert!(inbox.take_velocity(0.3, 0.5));
        d.before_step(&mut session);
        let half = 0.5 * d.gauge() / 2.0;
        let c = session.operator_command();
        assert!((c.left - (0.3 - half)).abs() < 1e-12 && (c.right - (0.3 + half)).abs() < 1e-12);
        // Faster than the motors: both belts scaled down together, the curvature kept.
        assert!(inbox.take_velocity(50.0 / 4.0, 0.0));
        d.before_step(&mut session);
        assert!((session.operator_command().left - d.speed_max()).abs() < 1e-12);
        // NaN, an absurd speed and a refused message: counted, the robot stopped.
        for refuse in [
            |i: &TeleopInbox| assert!(!i.take_velocity(f64::NAN, 0.0)),
            |i: &TeleopInbox| assert!(!i.take_velocity(0.0, 1e6)),
            |i: &TeleopInbox| i.refuse_velocity(),
        ] {
            inbox.take_velocity(0.3, 0.0);
            refuse(&inbox);
            d.before_step(&mut session);
            let c = session.operator_command();
            assert_eq!((c.left, c.right), (0.0, 0.0));
        }
        assert_eq!(inbox.counters().rejected, 3);
        // A command older than the timeout stops the robot (once counted).
        inbox.take_velocity(0.3, 0.0);
        d.before_step(&mut session);
        assert_eq!(session.operator_command().left, 0.3);
        inbox.age(std::time::Duration::from_secs(1));
        d.before_step(&mut session);
        d.before_step(&mut session);
        assert_eq!(session.operator_command().left, 0.0);
        assert_eq!(inbox.counters().timeouts, 1);
        // Disabled: stopped whatever the command says; the flipper target passes; a flipper
        // target beyond a turn is refused.
        inbox.take_velocity(0.3, 0.0);
        inbox.take_enable(false);
        assert!(inbox.take_flipper(0.4));
        assert!(!inbox.take_flipper(f64::INFINITY));
        d.before_step(&mut session);
        let c = session.operator_command();
        assert_eq!((c.left, c.flipper), (0.0, Some(0.4)));
        assert_eq!(inbox.counters().rejected, 4);
        // Every change (and only a change) went in as an input, for the log: the turn, the
        // scaled run, the stop after a refusal, 0.3 m/s, the stale stop, the disabled stop.
        let logged = session.journal_mut().map_or(0, |j| j.inputs.len());
        assert_eq!(logged, 6);
        // Each velocity message that drove a step was timed.
        assert!(inbox.counters().applied >= 4 && inbox.counters().latency_mean() < 1.0);
    }

    fn armed() -> Session {
        let scene = crate::session::testing::floor();
        let spawn = scene.spawns[0].clone();
        let robot = crate::vehicle::robot_file::test_preset("scout_eod");
        Session::free(scene, robot, spawn, crate::sim::SimConfig::default()).expect("session")
    }

    fn joint(name: &str, x: f64) -> Vec<(String, f64)> {
        vec![(name.to_owned(), x)]
    }

    #[test]
    fn arm_commands_by_joint_name_move_the_named_joints_and_grip_by_force() {
        let mut session = armed();
        let inbox = TeleopInbox::default();
        let robot = session.sim().robot(session.robot()).spec().clone();
        let mut d = TeleopDriver::new(inbox.clone(), &robot, 0.5);
        let before = session.sim().arm_state(session.robot()).unwrap().targets;
        // Nothing asked: the arm is left alone (no input).
        d.before_step(&mut session);
        assert_eq!(session.operator_arm_command(), ArmCommand::HOLD);
        // The turret to 0.5 rad, the others where their targets are; it gets there.
        assert!(inbox.take_arm(ArmRequest::Positions(joint("turret", 0.5))));
        for _ in 0..1500 {
            d.before_step(&mut session);
            session.step();
        }
        let ArmMotion::JointTargets(to) = session.operator_arm_command().motion else {
            panic!("{:?}", session.operator_arm_command());
        };
        assert_eq!(to[0], 0.5);
        assert_eq!(to[1..], before[1..]);
        let turret = session.sim().arm_state(session.robot()).unwrap().positions[0];
        assert!((turret - 0.5).abs() < 0.01, "turret at {turret} rad");
        // A joint the arm does not have: refused, the command kept.
        assert!(inbox.take_arm(ArmRequest::Positions(joint("tail", 1.0))));
        d.before_step(&mut session);
        assert_eq!(inbox.counters().rejected, 1);
        assert!(matches!(
            session.operator_arm_command().motion,
            ArmMotion::JointTargets(_)
        ));
        // Grip by force; 0 opens; a negative force is refused.
        assert!(inbox.take_grip(20.0));
        d.before_step(&mut session);
        assert_eq!(
            session.operator_arm_command().grip,
            GripCommand::Close(20.0)
        );
        assert!(!inbox.take_grip(-1.0));
        assert!(inbox.take_grip(0.0));
        d.before_step(&mut session);
        assert_eq!(session.operator_arm_command().grip, GripCommand::Open);
        // Speeds move until they are stale, then the arm holds.
        assert!(inbox.take_arm(ArmRequest::Velocities(joint("elbow", -0.2))));
        d.before_step(&mut session);
        let ArmMotion::JointRates(rates) = session.operator_arm_command().motion else {
            panic!("{:?}", session.operator_arm_command());
        };
        assert_eq!((rates[1], rates[2]), (0.0, -0.2));
        inbox.age_arm(std::time::Duration::from_secs(1));
        d.before_step(&mut session);
        assert_eq!(session.operator_arm_command().motion, ArmMotion::Hold);
        // NaN and an empty command: refused before they reach a robot.
        assert!(!inbox.take_arm(ArmRequest::Positions(joint("turret", f64::NAN))));
        assert!(!inbox.take_arm(ArmRequest::Velocities(Vec::new())));
        assert_eq!(inbox.counters().rejected, 4);
    }

    #[test]
    fn a_robot_without_an_arm_refuses_arm_commands() {
        let mut session = free();
        session.start_journal();
        let inbox = TeleopInbox::default();
        let mut d = TeleopDriver::new(inbox.clone(), &scout(), 0.5);
        inbox.take_arm(ArmRequest::Positions(joint("turret", 0.5)));
        inbox.take_grip(10.0);
        d.before_step(&mut session);
        d.before_step(&mut session);
        assert_eq!(inbox.counters().rejected, 2);
        assert_eq!(session.journal_mut().map(|j| j.inputs.len()), Some(0));
    }
}
