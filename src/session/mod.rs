//! A driving session: one robot on a scene — free driving, or a scored exercise trial —
//! advanced one fixed step at a time from the operator's inputs. This is the one driver loop:
//! the station, `treadsim run`, `treadsim soak`, headless trials and replay all feed
//! [`Input`]s to a [`Session`] and call [`Session::step`], so a recorded input sequence
//! replays through exactly the code that produced it.
//!
//! Each step: the operator's command in force enters the link ([`CommandLink`]: latency,
//! dropouts) and what comes out reaches the robot; the scene's traffic moves (avoiding the
//! robot, [`traffic`]); the simulation steps; the trial (if any) scores the step. With a [`Journal`] switched on, the session also keeps what a recorder
//! logs: the inputs at their steps, telemetry at [`TELEMETRY_RATE`], a [`StateSnapshot`] every
//! simulated second and the events of the simulation and the trial.
//!
//! - [`input`]: the inputs and their JSON form.
//! - [`driver`]: a drive script as a source of inputs.
//! - [`headless`]: a trial run to its end without the station.
//! - [`pilot`]: the autopilot as a driver.
//! - [`pacing`]: fixed-step pacing for real-time front ends.
//! - [`script`]: drive scripts (timed commands).
//! - [`traffic`]: the scene's moving agents (seed 002).

pub mod driver;
pub mod headless;
pub mod input;
mod journal;
pub mod pacing;
pub mod pilot;
pub mod script;
pub mod script_arm;
pub mod traffic;

pub use driver::{drive, Driver, ScriptDriver};
pub use input::{Input, InputError, StepInput};
pub use journal::{
    EventCursor, Journal, LoggedEvent, TelemetrySample, SNAPSHOT_INTERVAL, TELEMETRY_RATE,
};
pub use pilot::{script_driver, AutopilotDriver};
pub use script::DriveScript;

use crate::control::traffic::Avoidance;
use crate::exercise::{Exercise, Trial};
use crate::link::{CommandLink, LinkConditions};
use crate::scene::{Scene, Spawn};
use crate::sim::{RobotId, SimConfig, SimError, Simulation, StateSnapshot};
use crate::vehicle::arm::ArmCommand;
use crate::vehicle::{DriveCommand, RobotSpec};
use traffic::SessionTraffic;

/// The reason a trial ended by [`Input::EndTrial`] gives.
pub const ENDED_BY_INSTRUCTOR: &str = "ended by the instructor";

/// Slowest and fastest real-time factors the station runs at (the pacer's).
pub const SPEED_RANGE: (f64, f64) = (pacing::MIN_SPEED, pacing::MAX_SPEED);

/// One robot on a scene, driven by inputs; optionally a trial of an exercise.
#[derive(Debug)]
pub struct Session {
    sim: Simulation,
    robot: RobotId,
    /// Where a reset puts the robot (outside a trial).
    spawn: Spawn,
    trial: Option<Trial>,
    link: CommandLink,
    /// The operator's command in force (before the link).
    operator: DriveCommand,
    /// The operator's arm command in force (before the link).
    arm_operator: ArmCommand,
    paused: bool,
    /// Real-time factor the front end runs at (no effect on the physics).
    speed: f64,
    /// The view the operator sees (a camera name, `chase` or `free`).
    view: String,
    /// What a recorder logs, when switched on.
    journal: Option<Journal>,
    /// The scene's moving agents.
    traffic: SessionTraffic,
}

impl Session {
    /// Free driving: `robot` at `spawn` on `scene`, a perfect link, no trial.
    pub fn free(
        scene: Scene,
        robot: RobotSpec,
        spawn: Spawn,
        config: SimConfig,
    ) -> Result<Self, SimError> {
        Self::build(scene, robot, spawn, None, LinkConditions::default(), config)
    }

    /// A trial of `exercise`: its scene, robot and spawn, its link conditions, scored.
    pub fn exercise(exercise: &Exercise, config: SimConfig) -> Result<Self, SimError> {
        Self::build(
            exercise.scene.clone(),
            exercise.robot.clone(),
            exercise.spawn.clone(),
            Some(exercise),
            exercise.spec.link.clone(),
            config,
        )
    }

    fn build(
        scene: Scene,
        robot: RobotSpec,
        spawn: Spawn,
        exercise: Option<&Exercise>,
        link: LinkConditions,
        config: SimConfig,
    ) -> Result<Self, SimError> {
        let view = robot
            .cameras
            .first()
            .map_or_else(|| "chase".to_owned(), |c| c.name.clone());
        let specs = scene.traffic.clone();
        let mut sim = Simulation::new(scene, config)?;
        let id = sim.add_robot(robot, &spawn)?;
        let traffic = SessionTraffic::new(&mut sim, id, &specs, Avoidance::Predictive)?;
        let trial = exercise.map(|e| Trial::new(e, &mut sim, id));
        Ok(Self {
            sim,
            robot: id,
            spawn,
            trial,
            link: CommandLink::new(link, config.dt),
            operator: DriveCommand::STOP,
            arm_operator: ArmCommand::HOLD,
            paused: false,
            speed: 1.0,
            view,
            journal: None,
            traffic,
        })
    }

    /// Starts keeping a [`Journal`] (for a recorder), beginning with a snapshot of the
    /// current state.
    pub fn start_journal(&mut self) {
        let mut journal = Journal::new(self.sim.config().dt, self.sim.events().len());
        journal.snapshots.push(self.snapshot());
        self.journal = Some(journal);
    }

    /// The robot's telemetry now, with the trial's clock: what the log's telemetry channel
    /// holds at each sample.
    pub fn telemetry_sample(&self) -> TelemetrySample {
        let mut sample = TelemetrySample::capture(&self.sim, self.robot, self.operator);
        sample.clock = self.trial.as_ref().map(Trial::clock);
        sample
    }

    /// The journal, if kept.
    pub fn journal(&self) -> Option<&Journal> {
        self.journal.as_ref()
    }

    /// The journal, if kept; a recorder drains it.
    pub fn journal_mut(&mut self) -> Option<&mut Journal> {
        self.journal.as_mut()
    }

    /// Applies one input before the next step.
    pub fn apply(&mut self, input: Input) {
        match &input {
            Input::Drive(command) => {
                self.operator = if command.is_finite() {
                    *command
                } else {
                    DriveCommand::STOP
                }
            }
            Input::Arm(command) => {
                self.arm_operator = if command.is_finite() {
                    *command
                } else {
                    ArmCommand::HOLD
                }
            }
            Input::Reset => match &mut self.trial {
                Some(trial) if !trial.is_finished() => {
                    trial.request_reset(&mut self.sim, self.robot)
                }
                _ => {
                    // The instructor's reset: the robot back at its spawn and the scene's
                    // movable objects where they began.
                    self.sim.reset_robot(self.robot, &self.spawn);
                    self.sim.reset_objects();
                }
            },
            Input::EndTrial => {
                if let Some(trial) = &mut self.trial {
                    trial.end(&self.sim, ENDED_BY_INSTRUCTOR);
                }
            }
            Input::Pause(paused) => self.paused = *paused,
            Input::Speed(speed) => {
                if speed.is_finite() {
                    self.speed = speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1);
                }
            }
            Input::View(view) => {
                let spec = self.sim.robot(self.robot).spec();
                let gripper = spec.arm.as_ref().and_then(|a| a.gripper.camera.as_ref());
                let onboard = spec.cameras.iter().chain(gripper).any(|c| &c.name == view);
                if let Some(trial) = &mut self.trial {
                    if !onboard {
                        trial.forbidden_view(&self.sim, view);
                    }
                }
                self.view.clone_from(view);
            }
            Input::Link(change) => self.link.change(self.sim.time(), change),
        }
        if let Some(journal) = &mut self.journal {
            journal.inputs.push(StepInput {
                step: self.sim.steps(),
                time: self.sim.time(),
                input,
            });
        }
        self.journal_events();
    }

    /// Advances one fixed step unless paused; returns whether it stepped.
    pub fn step(&mut self) -> bool {
        if self.paused {
            return false;
        }
        let (command, arm) =
            self.link
                .transmit_with_arm(self.sim.time(), self.operator, self.arm_operator);
        self.sim.set_command(self.robot, command);
        self.sim.set_arm_command(self.robot, arm);
        self.traffic.step(&mut self.sim, self.robot);
        self.sim.step();
        if let Some(trial) = &mut self.trial {
            trial.update(&mut self.sim, self.robot);
        }
        let steps = self.sim.steps();
        let (telemetry_due, snapshot_due) = match &self.journal {
            Some(j) => (j.telemetry_due(steps), j.snapshot_due(steps)),
            None => (false, false),
        };
        if telemetry_due {
            let sample = self.telemetry_sample();
            if let Some(j) = &mut self.journal {
                j.telemetry.push(sample);
            }
        }
        self.journal_events();
        if snapshot_due {
            let snapshot = self.snapshot();
            if let Some(j) = &mut self.journal {
                j.snapshots.push(snapshot);
            }
        }
        true
    }

    /// Moves new simulation and trial events into the journal.
    fn journal_events(&mut self) {
        if let Some(journal) = &mut self.journal {
            journal.take_events(&self.sim, self.trial.as_ref());
        }
    }

    /// Every evolving quantity of the session now: the robot's and the trial's.
    pub fn snapshot(&self) -> StateSnapshot {
        let mut out = StateSnapshot::new(self.sim.steps(), self.sim.time());
        self.sim.capture_state(self.robot, &mut out);
        self.sim.capture_objects(&mut out);
        self.traffic.capture_state(&mut out);
        if let Some(trial) = &self.trial {
            trial.capture_state(&mut out);
        }
        out
    }

    /// The scene's moving agents.
    pub fn traffic(&self) -> &SessionTraffic {
        &self.traffic
    }

    /// The simulation.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The robot.
    pub fn robot(&self) -> RobotId {
        self.robot
    }

    /// Where a reset puts the robot outside a trial.
    pub fn spawn(&self) -> &Spawn {
        &self.spawn
    }

    /// The trial, if this session is one.
    pub fn trial(&self) -> Option<&Trial> {
        self.trial.as_ref()
    }

    /// Whether a trial has ended (`false` for free driving).
    pub fn trial_finished(&self) -> bool {
        self.trial.as_ref().is_some_and(Trial::is_finished)
    }

    /// The link's conditions.
    pub fn link(&self) -> &LinkConditions {
        self.link.conditions()
    }

    /// The operator's command in force (before the link).
    pub fn operator_command(&self) -> DriveCommand {
        self.operator
    }

    /// The operator's arm command in force (before the link).
    pub fn operator_arm_command(&self) -> ArmCommand {
        self.arm_operator
    }

    /// Whether the session is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Real-time factor the front end runs at.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// The view the operator sees.
    pub fn view(&self) -> &str {
        &self.view
    }

    /// Ends the session, returning the simulation and the trial.
    pub fn into_parts(self) -> (Simulation, RobotId, Option<Trial>) {
        (self.sim, self.robot, self.trial)
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
