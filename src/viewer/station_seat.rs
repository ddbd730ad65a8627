//! Whose session the station drives: its own (free driving, an exercise, a replay) or, as a
//! seat of a class (`treadsim station --class`), the one the class's instructor assigned.
//!
//! A seat of a class follows its instructor, in two stages of the station's frame:
//! - **1b, before the physics** ([`Driven::follow_instructor`]): the commands that came in are
//!   carried out on the [`Seat`] (each is an `Input` of the attempt's session, so it is in the
//!   log); the station follows the ones that touch its own controls — a reset puts the mapper
//!   at rest and the chase camera behind the robot, a take-over hands the robot to the
//!   autopilot and a hand-back returns it; the pacer runs only while the trial runs (the
//!   trainee cannot pause: the instructor does); a new assignment is shown at once (the window
//!   stays; its scene, robot and views change).
//! - **3b, after the frame's actions** ([`Driven::after_frame`]): the attempt's log records the
//!   frame, its events and the seat's status go out, and a finished trial's result goes into
//!   the seat's outbox (on disk) and on to the instructor until acknowledged.
//!
//! Before the first assignment the station shows its own scene (the lobby), where the trainee
//! may drive, unlogged.

#[cfg(feature = "classroom")]
pub use class::{ClassJoin, ClassSeat};

use super::station_state::StationState;
use super::ViewerError;
use crate::input::{RawInput, Status};
use crate::session::Session;

/// The session the station shows and drives.
pub(super) enum Driven {
    /// The station's own.
    Alone(Box<Session>),
    /// A seat of a class: the instructor's assignment, or the lobby.
    #[cfg(feature = "classroom")]
    Class(Box<ClassSeat>),
}

impl Driven {
    /// The session shown.
    pub(super) fn session(&self) -> &Session {
        match self {
            Driven::Alone(session) => session,
            #[cfg(feature = "classroom")]
            Driven::Class(class) => class.session(),
        }
    }

    /// The session driven.
    pub(super) fn session_mut(&mut self) -> &mut Session {
        match self {
            Driven::Alone(session) => session,
            #[cfg(feature = "classroom")]
            Driven::Class(class) => class.session_mut(),
        }
    }

    /// Stage 1b: a class's instructor's commands carried out and followed (`raw`: the
    /// operator's input, for a reset's controls). Returns whether another exercise is to be
    /// shown from now on (the views' scene and the panel are made anew).
    pub(super) fn follow_instructor(
        &mut self,
        state: &mut StationState,
        raw: &RawInput,
    ) -> Result<bool, ViewerError> {
        match self {
            Driven::Alone(_) => {
                let _ = (state, raw);
                Ok(false)
            }
            #[cfg(feature = "classroom")]
            Driven::Class(class) => class.follow_instructor(state, raw),
        }
    }

    /// Stage 3b: a class seat's log, events, status and result (`status`: the mapper's, when
    /// it ran this frame: whether the operator's input is present).
    pub(super) fn after_frame(&mut self, status: Option<Status>) -> Result<(), ViewerError> {
        match self {
            Driven::Alone(_) => {
                let _ = status;
                Ok(())
            }
            #[cfg(feature = "classroom")]
            Driven::Class(class) => class.after_frame(status),
        }
    }

    /// Ends the session: a class seat leaves its class (its last results delivered for a few
    /// seconds), its counters in `report`.
    pub(super) fn leave(self, report: &mut super::station::StationReport) {
        match self {
            Driven::Alone(_) => {
                let _ = report;
            }
            #[cfg(feature = "classroom")]
            Driven::Class(class) => report.class = Some(class.leave()),
        }
    }

    /// What the panel says about the class (the seat's name and what it waits for), if a seat.
    pub(super) fn banner(&self) -> Option<String> {
        match self {
            Driven::Alone(_) => None,
            #[cfg(feature = "classroom")]
            Driven::Class(class) => Some(class.banner()),
        }
    }
}

#[cfg(feature = "classroom")]
mod class {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use super::super::input_source::InputSource;
    use super::super::station_state::{StationEffect, StationState};
    use super::super::ViewerError;
    use crate::classroom::authority::InstructorPublic;
    use crate::classroom::network::ClassNetwork;
    use crate::classroom::protocol::{Command, SeatState};
    use crate::classroom::seat::{Seat, SeatOptions};
    use crate::classroom::seat_node::{SeatCounters, SeatLink};
    use crate::config::SourceFile;
    use crate::input::{PadState, RawInput, Source, Status};
    use crate::session::{script_driver, Session};

    /// How long a closing station keeps delivering results the instructor has not yet
    /// acknowledged (they stay in the outbox either way, for the next start).
    const LAST_DELIVERY: Duration = Duration::from_secs(3);

    /// How a station joins a class as a seat.
    #[derive(Debug, Clone)]
    pub struct ClassJoin {
        /// The class network.
        pub network: ClassNetwork,
        /// The instructor whose signed commands the seat obeys (`None`: none).
        pub instructor: Option<InstructorPublic>,
        /// The seat: name, trainee, exercise folder, logs, outbox (speed 1: real time).
        pub seat: SeatOptions,
        /// An exercise file started at once and reported as if the instructor had assigned
        /// it.
        pub exercise: Option<PathBuf>,
    }

    /// The station as a seat of a class: the seat (its attempt's session, log and outbox), its
    /// presence on the network, and the lobby shown before the first assignment.
    pub struct ClassSeat {
        seat: Seat,
        link: SeatLink,
        lobby: Session,
        /// The attempt the station shows (`None`: the lobby).
        shown: Option<String>,
        /// The drive script (timed commands or goals) followed in each trial
        /// (demonstrations, tests): a new driver of it for each.
        script: Option<SourceFile>,
    }

    impl ClassSeat {
        /// Joins the class as `join` says, with `lobby` shown until an assignment comes;
        /// `script` (if any) drives each trial. An exercise `join` names is loaded and started.
        pub(in crate::viewer) fn join(
            join: &ClassJoin,
            lobby: Session,
            script: Option<SourceFile>,
        ) -> Result<Self, ViewerError> {
            let class = |e: &dyn std::fmt::Display| ViewerError::Class(e.to_string());
            let mut seat = Seat::new(join.seat.clone()).map_err(|e| class(&e))?;
            if let Some(file) = &join.exercise {
                seat.start_now(file)
                    .map_err(|e| class(&format!("--exercise {}: {e}", file.display())))?;
            }
            let link = SeatLink::join(&join.network, seat.name(), join.instructor.clone())
                .map_err(|e| class(&e))?;
            Ok(Self {
                seat,
                link,
                lobby,
                shown: None,
                script,
            })
        }

        /// The assignment's session, or the lobby.
        pub(super) fn session(&self) -> &Session {
            self.seat.session().unwrap_or(&self.lobby)
        }

        /// The assignment's session, or the lobby.
        pub(super) fn session_mut(&mut self) -> &mut Session {
            let Self { seat, lobby, .. } = self;
            seat.session_mut().unwrap_or(lobby)
        }

        /// Stage 1b (see the module doc). Returns whether a new exercise is shown.
        pub(super) fn follow_instructor(
            &mut self,
            state: &mut StationState,
            raw: &RawInput,
        ) -> Result<bool, ViewerError> {
            let carried_out = self.link.take_commands(&mut self.seat);
            let new_exercise = self.seat.attempt_id() != self.shown.as_deref();
            if new_exercise {
                self.shown = self.seat.attempt_id().map(str::to_owned);
                let source = match &self.script {
                    Some(file) => {
                        let session = self.session();
                        let robot = session.sim().robot(session.robot()).spec();
                        InputSource::Script(script_driver(file, robot, false)?)
                    }
                    None => InputSource::Operator,
                };
                state.show_exercise(self.session(), source);
                if let Some(view) = state.opening_view() {
                    self.session_mut().apply(view);
                }
            }
            let effects = followed(&carried_out, self.seat.autopilot(), state);
            state.carry_out(effects, self.session_mut(), raw)?;
            // The lobby is free driving; an assignment's clock runs only while its trial does.
            let runs = self.shown.is_none() || self.seat.state() == SeatState::Running;
            state.pacer.set_paused(!runs);
            Ok(new_exercise)
        }

        /// Stage 3b (see the module doc).
        pub(super) fn after_frame(&mut self, status: Option<Status>) -> Result<(), ViewerError> {
            if let Some(status) = status {
                let present = self.script.is_some()
                    || status.pad == PadState::Ready
                    || status.source != Source::None;
                self.seat.set_operator_input(Some(present));
            }
            let events = self
                .seat
                .after_steps()
                .map_err(|e| ViewerError::Class(e.to_string()))?;
            self.link.publish(&mut self.seat, &events);
            Ok(())
        }

        /// The seat's name and what it waits for.
        pub(super) fn banner(&self) -> String {
            let name = self.seat.name();
            let waiting = match (self.shown.is_some(), self.seat.state()) {
                (false, _) | (_, SeatState::Idle) => {
                    "waiting for the instructor's assignment (free driving meanwhile)"
                }
                (true, SeatState::Ready) => "ready: the instructor starts the trial",
                (true, SeatState::Running) if self.seat.autopilot() => {
                    "the instructor's autopilot is driving"
                }
                (true, SeatState::Running) => "trial under way",
                (true, SeatState::Paused) => "paused by the instructor",
                (true, SeatState::Finished) => {
                    if self.seat.outbox().count().is_ok_and(|n| n > 0) {
                        "finished: sending the result to the instructor"
                    } else {
                        "finished: result delivered"
                    }
                }
            };
            format!("Seat {name}: {waiting}")
        }

        /// Leaves the class after delivering what the instructor has not acknowledged yet (for
        /// up to [`LAST_DELIVERY`]; the rest stays in the outbox for the next start); returns
        /// what the seat counted.
        pub fn leave(mut self) -> SeatCounters {
            let deadline = Instant::now() + LAST_DELIVERY;
            while !self.link.delivered_all(&self.seat) && Instant::now() < deadline {
                self.link.publish(&mut self.seat, &[]);
                std::thread::sleep(Duration::from_millis(20));
            }
            self.link.leave(&mut self.seat)
        }
    }

    /// What the station does itself after the instructor's `carried_out` commands, in order:
    /// after a reset, the controls at rest and the chase camera behind the robot; the robot
    /// handed over when the seat's autopilot (`autopilot`: the instructor took over) and the
    /// station's input source differ.
    pub(super) fn followed(
        carried_out: &[Command],
        autopilot: bool,
        state: &StationState,
    ) -> Vec<StationEffect> {
        let mut effects = Vec::new();
        for command in carried_out {
            if *command == Command::Reset {
                effects.push(StationEffect::ResetControls);
                effects.push(StationEffect::RecentreChase);
            }
        }
        if autopilot != state.source.is_autopilot() {
            effects.push(StationEffect::HandOver);
        }
        effects
    }
}

#[cfg(all(test, feature = "classroom"))]
mod tests {
    use super::super::input_source::InputSource;
    use super::super::station_state::{StationEffect, StationState};
    use super::class::followed;
    use crate::classroom::protocol::Command;
    use crate::input::{InputMapper, MappingConfig, RawInput};
    use crate::session::testing::free;

    #[test]
    fn the_station_follows_the_instructors_reset_and_take_over_with_its_own_controls() {
        let mut session = free();
        let mapper = InputMapper::new(MappingConfig::default()).expect("mapping");
        let mut state =
            StationState::new(&session, mapper, InputSource::Operator, true, None, None);
        assert_eq!(
            followed(&[Command::Reset, Command::Start], false, &state),
            [StationEffect::ResetControls, StationEffect::RecentreChase]
        );
        // The instructor took over: the robot goes to the autopilot, once.
        let effects = followed(&[Command::TakeOver], true, &state);
        assert_eq!(effects, [StationEffect::HandOver]);
        state
            .carry_out(effects, &mut session, &RawInput::new())
            .expect("carry out");
        assert!(state.source.is_autopilot());
        assert!(followed(&[], true, &state).is_empty());
        // And handed back: the operator has it again.
        let effects = followed(&[Command::HandBack], false, &state);
        state
            .carry_out(effects, &mut session, &RawInput::new())
            .expect("carry out");
        assert!(!state.source.is_autopilot());
    }
}
