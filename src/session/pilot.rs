//! The autopilot as a session's [`Driver`]: its laws live in `control::autopilot`; here they
//! read the session's robot (and trial) before each step and send the command they choose as
//! the operator's.

use super::{Driver, Input, Session};
use crate::control::autopilot::{Autopilot, SENSOR_SEED};
use crate::control::trial_pilot::{TrialGoal, TrialPilot};
use crate::control::vantage::View;
use crate::sim::ranging::RangeSensor;
use crate::vehicle::DriveCommand;

/// The autopilot as a session's [`Driver`]: before each step it reads the robot and its range
/// sensor and sends the belt speeds its goals ask for.
#[derive(Debug, Clone)]
pub struct AutopilotDriver {
    /// The autopilot.
    pub pilot: Autopilot,
    /// The robot's range sensor, once the session's robot is known (none if it has none).
    sensor: Option<Option<RangeSensor>>,
}

impl AutopilotDriver {
    /// A driver with `pilot`.
    pub fn new(pilot: Autopilot) -> Self {
        Self {
            pilot,
            sensor: None,
        }
    }
}

/// Gives the session `command` as the operator's, unless it is the one in force already (so
/// a log holds each command once).
fn send(session: &mut Session, command: DriveCommand) {
    if command != session.operator_command() {
        session.apply(Input::Drive(command));
    }
}

impl Driver for AutopilotDriver {
    fn before_step(&mut self, session: &mut Session) {
        let (sim, id) = (session.sim(), session.robot());
        let sensor = self.sensor.get_or_insert_with(|| {
            let spec = sim.robot(id).spec().range_sensor.clone();
            spec.map(|s| RangeSensor::new(s, SENSOR_SEED))
        });
        let scan = sensor.as_mut().map(|s| s.read(sim, id));
        let command = self
            .pilot
            .command(&sim.body_state(id), scan, sim.config().dt);
        send(session, command);
    }
}

/// What the session's trial asks of the robot now: none without a trial or once it is over.
/// A target to see with a camera on the arm's gripper carries no view (the pilot does not
/// drive the arm).
pub fn trial_goal(session: &Session) -> Option<TrialGoal> {
    let trial = session.trial()?;
    let cameras = &session.sim().robot(session.robot()).spec().cameras;
    let view = trial.current_view().and_then(|(range, angle, named)| {
        let camera = match named {
            Some(name) => Some(cameras.iter().position(|c| c.name == name)?),
            None => None,
        };
        Some(View {
            range,
            angle,
            camera,
        })
    });
    Some(TrialGoal {
        target: trial.current_target(session.sim())?,
        gate: trial.current_gate(),
        view,
    })
}

impl Driver for TrialPilot {
    fn before_step(&mut self, session: &mut Session) {
        let (sim, id) = (session.sim(), session.robot());
        let body = sim.body_state(id);
        let goal = trial_goal(session);
        self.plan_view(&sim.scene().terrain, goal.as_ref(), &body);
        session.traffic().seen(sim, id, self.traffic_seen());
        let mut sensor = self.sensor.take();
        let scan = sensor.as_mut().map(|s| s.read(sim, id));
        let command = self.command(goal, &body, scan, sim.config().dt);
        self.sensor = sensor;
        send(session, command);
    }

    fn gave_up(&self) -> Option<&str> {
        TrialPilot::gave_up(self)
    }
}

/// The driver of a drive script file for a session of `robot`: the autopilot for a goal script
/// (`[[goal]]` tables), else the timed commands (`[[command]]` tables; `auto_reset` puts the
/// robot back at its spawn whenever it is halted). A script's arm pose the robot's arm does not
/// have is the script's error, named before any run.
pub fn script_driver(
    file: &crate::config::SourceFile,
    robot: &crate::vehicle::RobotSpec,
    auto_reset: bool,
) -> Result<Box<dyn Driver>, crate::config::ConfigError> {
    use crate::control::goal_script::{is_goal_script, read_goals};
    if is_goal_script(file) {
        let goals = read_goals(file)?;
        return Ok(Box::new(AutopilotDriver::new(Autopilot::new(robot, goals))));
    }
    let script = super::DriveScript::from_source(file)?;
    script.check_arm(robot.arm.as_ref())?;
    Ok(Box::new(super::ScriptDriver::new(script, auto_reset)))
}
