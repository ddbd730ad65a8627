//! A drive script as the operator: it gives a session its inputs.

use super::{Input, Session};
use crate::sim::DriveScript;

/// Follows a [`DriveScript`] for a session's robot: applies a [`Input::Drive`] when the
/// script's command in force changes, and with `auto_reset` an [`Input::Reset`] whenever the
/// robot is halted (out of bounds, fell, disabled), as an instructor would.
#[derive(Debug, Clone)]
pub struct ScriptDriver {
    script: DriveScript,
    auto_reset: bool,
    /// Index of the command last applied.
    current: Option<usize>,
    resets: u32,
}

impl ScriptDriver {
    /// A driver at the start of `script`.
    pub fn new(script: DriveScript, auto_reset: bool) -> Self {
        Self {
            script,
            auto_reset,
            current: None,
            resets: 0,
        }
    }

    /// Call before every [`Session::step`]; returns whether it reset the robot.
    pub fn before_step(&mut self, session: &mut Session) -> bool {
        let sim = session.sim();
        let mut reset = false;
        if self.auto_reset && sim.robot_status(session.robot()).is_halted() {
            session.apply(Input::Reset);
            self.resets += 1;
            reset = true;
        }
        let t = session.sim().time();
        let k = self.script.index_at(t);
        if k != self.current {
            self.current = k;
            session.apply(Input::Drive(self.script.command_at(t)));
        }
        reset
    }

    /// Applies the script's command in force again before the next step (after the station
    /// reset the robot, which stops it).
    pub fn resend(&mut self) {
        self.current = None;
    }

    /// How many times it reset the robot.
    pub fn resets(&self) -> u32 {
        self.resets
    }

    /// The script.
    pub fn script(&self) -> &DriveScript {
        &self.script
    }
}
