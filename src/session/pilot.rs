//! The autopilot as a session's [`Driver`]: its laws live in `control::autopilot`; here they
//! read the session's robot (and trial) before each step and send the command they choose as
//! the operator's.

use super::{Driver, Input, Session};
use crate::control::autopilot::{Autopilot, TrialGoal, TrialPilot};
use crate::vehicle::DriveCommand;

/// The autopilot as a session's [`Driver`]: before each step it reads the robot and sends the
/// belt speeds its goals ask for.
#[derive(Debug, Clone)]
pub struct AutopilotDriver {
    /// The autopilot.
    pub pilot: Autopilot,
}

impl AutopilotDriver {
    /// A driver with `pilot`.
    pub fn new(pilot: Autopilot) -> Self {
        Self { pilot }
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
        let body = session.sim().body_state(session.robot());
        let command = self.pilot.command(&body, session.sim().config().dt);
        send(session, command);
    }
}

/// What the session's trial asks of the robot now: none without a trial or once it is over.
pub fn trial_goal(session: &Session) -> Option<TrialGoal> {
    let trial = session.trial()?;
    Some(TrialGoal {
        target: trial.current_target(session.sim())?,
        gate: trial.current_gate(),
    })
}

impl Driver for TrialPilot {
    fn before_step(&mut self, session: &mut Session) {
        let body = session.sim().body_state(session.robot());
        let command = self.command(trial_goal(session), &body, session.sim().config().dt);
        send(session, command);
    }
}
