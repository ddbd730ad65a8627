//! Running a trial without the station: the robot follows a drive script (or stands still)
//! until the trial ends.

use super::{drive, DriveScript, Driver, ScriptDriver, Session};
use crate::exercise::{Trial, TrialResult};

/// Simulated time a headless trial may run past the exercise's time limit before it is cut
/// off, s (the clock stops only for the one step of each fault's reset, so it never should).
pub const OVERRUN: f64 = 60.0;

/// A trial run to its end: the result, and the session as it ended (for telemetry and the
/// log's end record).
pub struct HeadlessRun {
    /// The trial's result.
    pub result: TrialResult,
    /// The session at the end.
    pub session: Session,
}

/// Runs the trial of `session` (made by [`Session::exercise`]) headless: the operator's
/// command follows `script` (times from the start of the trial; a stop without one) and
/// reaches the robot through the exercise's link every step, until the trial ends. After a
/// fault the robot is back at the start and the script goes on (the operator keeps driving).
/// `each_step` is called after every step (telemetry, recording). A session without a trial
/// returns at once.
pub fn run_trial(
    session: Session,
    script: Option<DriveScript>,
    each_step: impl FnMut(&mut Session),
) -> HeadlessRun {
    let mut driver = ScriptDriver::new(script.unwrap_or_default(), false);
    run_trial_with(session, &mut driver, each_step)
}

/// [`run_trial`] with any driver (the autopilot of a goal script, say).
pub fn run_trial_with(
    mut session: Session,
    driver: &mut dyn Driver,
    mut each_step: impl FnMut(&mut Session),
) -> HeadlessRun {
    let end = session
        .trial()
        .map_or(0.0, |t| t.spec().time_limit + OVERRUN);
    if session.trial().is_some_and(|t| !t.is_finished()) {
        drive(&mut session, driver, u64::MAX, |s| {
            each_step(s);
            !s.trial_finished() && s.sim().time() < end
        });
    }
    let result = session.trial().map(Trial::result).unwrap_or_default();
    HeadlessRun { result, session }
}
