//! Where the station's robot gets its inputs: the operator's mapping, a drive script, the
//! autopilot (the instructor's demonstration of an exercise), another program's operator (a
//! ROS 2 control unit), or a log being replayed.

use super::replay::ReplayCursor;
use crate::control::trial_pilot::TrialPilot;
use crate::input::{Actions, InputMapper, MappedInput, RawInput};
use crate::session::{Driver, Input, Session};

/// Where the robot's inputs come from.
pub(super) enum InputSource {
    /// The operator's sticks and keys, through the mapper.
    Operator,
    /// A drive script — timed commands or goals for the autopilot (demonstrations, a
    /// course's scripts); station actions still work.
    Script(Box<dyn Driver>),
    /// The autopilot drives the exercise's route (the instructor handed it the robot).
    Autopilot(Box<TrialPilot>),
    /// A log being replayed (boxed: the log is large, the other sources small).
    Replay(Box<ReplayCursor>),
    /// Another program's operator (a ROS 2 control unit, through [`super::station::Peer`]);
    /// station actions still work.
    External(Box<dyn Driver>),
}

impl InputSource {
    /// Runs the mapper for a step of `dt` s (its actions — pause, camera, reset — count in
    /// every mode) and gives the session the inputs of its next step: the logged ones, the
    /// script's, or the mapper's command when it changes (so the log holds each once).
    pub(super) fn before_step(
        &mut self,
        mapper: &mut InputMapper,
        raw: &RawInput,
        session: &mut Session,
        dt: f64,
    ) -> MappedInput {
        let m = mapper.update(raw, dt);
        match self {
            InputSource::Replay(cursor) => cursor.before_step(session),
            InputSource::Script(driver) => {
                driver.before_step(session);
            }
            InputSource::External(driver) => driver.before_step(session),
            InputSource::Autopilot(pilot) => {
                pilot.before_step(session);
            }
            InputSource::Operator => {
                if m.drive != session.operator_command() {
                    session.apply(Input::Drive(m.drive));
                }
                // An armed robot's arm takes the mapper's arm request, logged when it changes.
                let spec = session.sim().robot(session.robot()).spec();
                if let Some(arm) = spec.arm.as_ref().map(|a| m.arm.command(a)) {
                    if arm != session.operator_arm_command() {
                        session.apply(Input::Arm(arm));
                    }
                }
            }
        }
        m
    }

    /// Whether the autopilot has the robot.
    pub(super) fn is_autopilot(&self) -> bool {
        matches!(self, InputSource::Autopilot(_))
    }

    /// Why the autopilot stopped short of the trial's target, if it has the robot and gave up.
    pub(super) fn autopilot_gave_up(&self) -> Option<&str> {
        match self {
            InputSource::Autopilot(pilot) => pilot.gave_up(),
            _ => None,
        }
    }

    /// The replay, if this is one.
    pub(super) fn replay(&self) -> Option<&ReplayCursor> {
        match self {
            InputSource::Replay(cursor) => Some(cursor),
            _ => None,
        }
    }
}

/// Merges the mapper's one-shot actions of several steps in a frame.
pub(super) fn or_actions(a: &mut Actions, b: &Actions) {
    a.next_camera |= b.next_camera;
    a.prev_camera |= b.prev_camera;
    a.toggle_pause |= b.toggle_pause;
    a.reset |= b.reset;
    a.single_step |= b.single_step;
    a.toggle_trainee_view |= b.toggle_trainee_view;
}
