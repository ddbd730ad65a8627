//! The station's state besides the simulation and the window — which views are shown, the
//! pacer, where the robot's inputs come from, the input mapper — and the rules that act on it
//! each frame. Nothing here touches kiss3d, so every rule is unit-tested.
//!
//! A frame's stages 2 and 3 live here:
//! - [`StationState::run_physics`]: the pacer's whole steps for the frame's wall time, with the
//!   input mapper (or script, autopilot, replay) run before each step;
//! - [`StationState::apply`]: what the operator and the instructor asked for this frame turned
//!   into [`StationEffect`]s in order — the instructor's rules (trainee mode refuses a
//!   third-person view and the autopilot, speed is the instructor's, a replay only steers the
//!   replay) decided without touching the session — and [`StationState::carry_out`], which
//!   gives them to the session.

use super::cameras::{cycle, heading, views};
use super::hud::UiRequests;
use super::input_source::{or_actions, InputSource};
use super::replay::TimelineRequest;
use super::station_setup::sync_flippers;
use super::station_views::Station;
use super::ViewerError;
use crate::control::trial_pilot::TrialPilot;
use crate::input::{Actions, InputMapper, RawInput, Status};
use crate::session::pacing::Pacer;
use crate::session::{Input, Session};
use crate::vehicle::{DriveCommand, RobotSpec};

// The autopilot demonstration's cruise speed, m/s (the course's steady climbing pace).
pub(super) use crate::control::trial_pilot::DEMO_SPEED;

/// Station keys pressed this frame (F1, the help, toggles at once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct StationKeys {
    /// F3 (slower, `false`) or F4 (faster, `true`).
    pub(super) speed_step: Option<bool>,
    /// F2: cycle the picture-in-picture.
    pub(super) pip_cycle: bool,
}

/// What the operator and the instructor asked for during one frame.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FrameActions {
    /// The input mapper's one-shot actions over the frame's steps (pause, reset, camera, …).
    pub(super) mapped: Actions,
    /// The instructor's clicks on the panel (drawn last frame).
    pub(super) clicks: UiRequests,
    /// The replay timeline's requests (play/pause, seek).
    pub(super) timeline: TimelineRequest,
    /// Station keys.
    pub(super) keys: StationKeys,
}

/// One thing a frame's actions do to the session, in the order they do it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum StationEffect {
    /// An input for the session (it is logged).
    Input(Input),
    /// One step of a paused session: resume, step, pause again (so a log replays it).
    SingleStep,
    /// The replay to this time, s.
    Seek(f64),
    /// After a reset: the mapper back to rest with its flippers at the robot's, the robot
    /// stopped, and a drive script's current command sent again.
    ResetControls,
    /// The robot handed to the autopilot, or back to the operator (who then has it stopped).
    HandOver,
    /// The chase camera straight behind the robot again (after a reset or a seek).
    RecentreChase,
}

/// The station's state besides the simulation and the window.
pub(super) struct StationState {
    /// Which views are shown and trainee mode.
    pub(super) views: Station,
    /// Fixed steps for wall time, speed, pause.
    pub(super) pacer: Pacer,
    /// Where the robot's inputs come from.
    pub(super) source: InputSource,
    /// The operator's input mapping.
    pub(super) mapper: InputMapper,
    /// The robot's description (flipper sync after a reset, the autopilot).
    spec: RobotSpec,
    /// Pause, resume and single steps are a class instructor's (the station is a seat of a
    /// class): the operator's own requests for them are ignored.
    pub(super) remote_pause: bool,
}

/// What the physics stage of a frame did.
#[derive(Debug, Clone, Copy)]
pub(super) struct PhysicsFrame {
    /// Steps run.
    pub(super) steps: u64,
    /// The mapper's one-shot actions over the frame.
    pub(super) actions: Actions,
    /// The mapper's last status (pad, keyboard), if it ran.
    pub(super) status: Option<Status>,
}

impl StationState {
    /// The station's state for `session`: views chosen by name (`view`; `pip`, or `off`) or
    /// by default — the first onboard camera, and the rear camera (what a real control unit
    /// shows when driving forward) or else the next allowed view in the picture-in-picture —,
    /// trainee mode applied.
    pub(super) fn new(
        session: &Session,
        mapper: InputMapper,
        source: InputSource,
        trainee: bool,
        view: Option<&str>,
        pip: Option<&str>,
    ) -> Self {
        let spec = session.sim().robot(session.robot()).spec().clone();
        let station = station_views(session, trainee, view, pip);
        Self {
            views: station,
            pacer: Pacer::new(session.sim().config().dt),
            source,
            mapper,
            spec,
            remote_pause: false,
        }
    }

    /// Shows another exercise's `session` (a class's instructor assigned it): the operator's
    /// mapping kept, set for the new robot (flippers, steering) and the exercise's speed limit;
    /// views chosen afresh under the same trainee lock; a fresh pacer; inputs from `source`.
    #[cfg(feature = "classroom")]
    pub(super) fn show_exercise(&mut self, session: &Session, source: InputSource) {
        let spec = session.sim().robot(session.robot()).spec();
        self.mapper.reset();
        sync_flippers(&mut self.mapper, spec);
        super::station_setup::sync_steering(&mut self.mapper, spec);
        self.mapper
            .set_speed_limit(session.trial().and_then(|t| t.spec().rules.speed_limit));
        let locked = self.views.locked;
        self.views = station_views(session, self.views.trainee || locked, None, None);
        self.views.locked = locked;
        self.pacer = Pacer::new(session.sim().config().dt);
        self.source = source;
        self.spec = spec.clone();
    }

    /// The input that tells the session which view the operator sees at the start (its log,
    /// and a trainee-mode trial, need it). None for a replay: the instructor watches it from
    /// any view, and the recorded session is never told (a trainee trial's view rule would
    /// otherwise fail it).
    pub(super) fn opening_view(&self) -> Option<Input> {
        if self.source.replay().is_some() {
            return None;
        }
        Some(Input::View(self.views.views[self.views.main].name.clone()))
    }

    /// Stage 2 of a frame: the pacer's whole steps for `wall` s of frame time (`physics_share`
    /// of the last frame went to physics), each after the input source gave the session its
    /// inputs. A frame with no step still runs the mapper (with `dt = 0`) so one-shot actions
    /// are never lost while paused; a replay at its end pauses.
    pub(super) fn run_physics(
        &mut self,
        session: &mut Session,
        raw: &RawInput,
        wall: f64,
        physics_share: f64,
    ) -> PhysicsFrame {
        let dt = session.sim().config().dt;
        let mut frame = PhysicsFrame {
            steps: 0,
            actions: Actions::default(),
            status: None,
        };
        let n = self.pacer.advance_frame(wall, physics_share);
        if n == 0 {
            let m = self.mapper.update(raw, 0.0);
            or_actions(&mut frame.actions, &m.actions);
            frame.status = Some(m.status);
        }
        let n = match &self.source {
            InputSource::Replay(cursor) if cursor.at_end(session) => {
                self.pacer.set_paused(true);
                0
            }
            _ => n,
        };
        for _ in 0..n {
            let m = self.source.before_step(&mut self.mapper, raw, session, dt);
            or_actions(&mut frame.actions, &m.actions);
            frame.status = Some(m.status);
            session.step();
            frame.steps += 1;
            let at_end = self.source.replay().is_some_and(|c| c.at_end(session));
            if (m.actions.toggle_pause && !self.remote_pause) || at_end {
                // Stop right where the operator asked (or where the log ends).
                break;
            }
        }
        frame
    }

    /// Stage 3 of a frame: the frame's actions as effects on the session, in order; the views,
    /// trainee mode and the pacer change here. `session_view` is the view the session has
    /// on record.
    pub(super) fn apply(&mut self, a: &FrameActions, session_view: &str) -> Vec<StationEffect> {
        let mut effects = Vec::new();
        let replaying = self.source.replay().is_some();
        self.pause_and_replay(a, replaying, &mut effects);
        if !replaying && (a.mapped.reset || a.clicks.reset) {
            // In a trial a reset is a fault: the trial puts the robot back at the start.
            effects.push(StationEffect::Input(Input::Reset));
            effects.push(StationEffect::ResetControls);
            effects.push(StationEffect::RecentreChase);
        }
        // The autopilot is the instructor's demonstration: never in trainee mode.
        if a.clicks.autopilot && !replaying && !self.views.trainee {
            effects.push(StationEffect::HandOver);
        }
        self.choose_views(a);
        if !self.views.trainee {
            self.change_speed(a, replaying, &mut effects);
        }
        let shown = &self.views.views[self.views.main].name;
        if !replaying && shown != session_view {
            effects.push(StationEffect::Input(Input::View(shown.clone())));
        }
        effects
    }

    /// Pause and resume (the session's clock and link with it, unless replaying), the replay's
    /// seek and restart, and the single step of a paused session.
    fn pause_and_replay(
        &mut self,
        a: &FrameActions,
        replaying: bool,
        out: &mut Vec<StationEffect>,
    ) {
        let asked = a.mapped.toggle_pause || a.clicks.toggle_pause || a.timeline.toggle_play;
        if asked && !self.remote_pause {
            self.pacer.set_paused(!self.pacer.is_paused());
            if !replaying {
                out.push(StationEffect::Input(Input::Pause(self.pacer.is_paused())));
            }
        }
        if let (true, Some(t)) = (replaying, a.timeline.seek) {
            out.push(StationEffect::Seek(t));
            out.push(StationEffect::RecentreChase);
        }
        if replaying {
            // Watching: the logged inputs drive; the instructor's own only steer the replay.
            if a.mapped.reset || a.clicks.reset {
                out.push(StationEffect::Seek(0.0));
            }
        } else if (a.mapped.single_step || a.clicks.single_step)
            && self.pacer.is_paused()
            && !self.remote_pause
        {
            out.push(StationEffect::SingleStep);
        }
    }

    /// Camera cycling, the instructor's view choices (a third-person one refused in trainee
    /// mode, whoever asked), the picture-in-picture key and trainee mode's toggle.
    fn choose_views(&mut self, a: &FrameActions) {
        let trainee_before = self.views.trainee;
        let station = &mut self.views;
        if a.mapped.next_camera || a.mapped.prev_camera {
            let step = if a.mapped.next_camera { 1 } else { -1 };
            station.main = cycle(&station.views, station.main, step, station.trainee);
            station.move_pip_off_main();
        }
        if let Some(v) = a.clicks.main_view {
            let v = v.min(station.views.len().saturating_sub(1));
            if !(station.trainee && station.views[v].kind.is_third_person()) {
                station.main = v;
            }
        }
        if let Some(p) = a.clicks.pip_view {
            station.pip = p;
        }
        if a.keys.pip_cycle {
            station.cycle_pip();
        }
        if (a.mapped.toggle_trainee_view || a.clicks.trainee) && !station.locked {
            station.trainee = !station.trainee;
        }
        if station.trainee != trainee_before {
            station.enforce_mode();
        }
    }

    /// The simulation speed (the instructor's: F3/F4 or the panel); a change is logged unless
    /// replaying.
    fn change_speed(&mut self, a: &FrameActions, replaying: bool, out: &mut Vec<StationEffect>) {
        let before = self.pacer.speed();
        match a.keys.speed_step {
            Some(up) => {
                self.pacer.step_speed(up);
            }
            None if a.clicks.faster => {
                self.pacer.step_speed(true);
            }
            None if a.clicks.slower => {
                self.pacer.step_speed(false);
            }
            None => {}
        }
        if self.pacer.speed() != before && !replaying {
            out.push(StationEffect::Input(Input::Speed(self.pacer.speed())));
        }
    }

    /// Gives `effects` to the session in order; `raw` is the operator's input (a single step
    /// runs the mapper once). Returns the steps run.
    pub(super) fn carry_out(
        &mut self,
        effects: Vec<StationEffect>,
        session: &mut Session,
        raw: &RawInput,
    ) -> Result<u64, ViewerError> {
        let mut steps = 0;
        for effect in effects {
            match effect {
                StationEffect::Input(input) => session.apply(input),
                StationEffect::SingleStep => {
                    let dt = session.sim().config().dt;
                    session.apply(Input::Pause(false));
                    self.source.before_step(&mut self.mapper, raw, session, dt);
                    session.step();
                    session.apply(Input::Pause(true));
                    steps += 1;
                }
                StationEffect::Seek(t) => {
                    if let InputSource::Replay(cursor) = &mut self.source {
                        cursor.seek(session, t)?;
                    }
                }
                StationEffect::ResetControls => self.reset_controls(session),
                StationEffect::HandOver => self.hand_over(session),
                StationEffect::RecentreChase => {
                    self.views.chase_yaw = heading(&session.sim().body_state(session.robot()).pose);
                }
            }
        }
        Ok(steps)
    }

    /// The controls after a reset: the mapper at rest with the robot's flippers, the robot
    /// stopped with them, a script's current command sent again before the next step.
    fn reset_controls(&mut self, session: &mut Session) {
        self.mapper.reset();
        sync_flippers(&mut self.mapper, &self.spec);
        session.apply(Input::Drive(DriveCommand {
            flipper: self.mapper.flipper_target(),
            ..DriveCommand::STOP
        }));
        if let InputSource::Script(driver) = &mut self.source {
            driver.after_reset();
        }
    }

    /// The robot to the autopilot, or back to the operator: the robot stops until the sticks
    /// say otherwise.
    fn hand_over(&mut self, session: &mut Session) {
        self.source = if self.source.is_autopilot() {
            session.apply(Input::Drive(DriveCommand {
                flipper: self.mapper.flipper_target(),
                ..DriveCommand::STOP
            }));
            InputSource::Operator
        } else {
            InputSource::Autopilot(Box::new(TrialPilot::new(&self.spec, DEMO_SPEED)))
        };
    }
}

/// The views of `session`'s robot, chosen by name (`view`; `pip`, or `off`) or by default —
/// the first onboard camera, and the rear camera (what a real control unit shows when driving
/// forward) or else the next allowed view in the picture-in-picture —, trainee mode applied.
fn station_views(
    session: &Session,
    trainee: bool,
    view: Option<&str>,
    pip: Option<&str>,
) -> Station {
    let id = session.robot();
    let spec = session.sim().robot(id).spec();
    let all_views = views(spec);
    let mut station = Station {
        view_names: all_views.iter().map(|v| v.name.clone()).collect(),
        views: all_views,
        main: 0,
        pip: None,
        trainee,
        locked: trainee,
        help: false,
        chase_yaw: heading(&session.sim().body_state(id).pose),
        free_anchor: None,
    };
    station.main = view
        .and_then(|v| station.views.iter().position(|w| w.name == v))
        .unwrap_or_else(|| station.first_onboard());
    station.pip = match pip {
        Some("off") => None,
        Some(name) => station.views.iter().position(|v| v.name == name),
        None => station
            .views
            .iter()
            .position(|v| v.name == "rear")
            .filter(|&i| i != station.main)
            .or_else(|| {
                Some(cycle(&station.views, station.main, 1, station.trainee))
                    .filter(|&i| i != station.main)
            }),
    };
    station.enforce_mode();
    station
}

#[cfg(test)]
mod tests;
