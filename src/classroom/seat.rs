//! A seat of the class, without its network: the exercise it has loaded, the trial it runs in
//! real time, the instructor's commands it carries out, its status, and the report of each
//! finished attempt put in its outbox. [`super::seat_node`] connects it to the class network;
//! this part is plain state, so its rules are unit-tested without Zenoh.
//!
//! Every instructor command that changes the session (pause, resume, reset, end, link) enters
//! it as an [`Input`] and so is in the attempt's log, which replays bit-exact; the autopilot's
//! take-over drives through the same inputs.

use std::path::{Path, PathBuf};

use super::bundle::Bundle;
use super::outbox::{Outbox, OutboxError};
use super::protocol::{
    check_name, unix_now, AttemptReport, AttemptStatus, Command, ExternalControl, PlanPose,
    ProficiencyStandard, SeatEvent, SeatState, SeatStatus, PROTOCOL_VERSION,
};
use crate::config::SourceFile;
use crate::control::autopilot::Autopilot;
use crate::control::goal_script::{is_goal_script, read_goals};
use crate::control::trial_pilot::{TrialPilot, DEMO_SPEED};
use crate::exercise::report::{event_json, result_json};
use crate::launch::{exercise_file, open, Launch, LaunchOptions, LogTarget};
use crate::link::LinkChange;
use crate::record::header::sha256_hex;
use crate::record::LogWriter;
use crate::session::pacing::Pacer;
use crate::session::{AutopilotDriver, DriveScript, Driver, Input, ScriptDriver, Session};

/// How a seat runs.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatOptions {
    /// The seat's name (a key chunk: letters, digits, `_`, `-`, `.`).
    pub name: String,
    /// The trainee at the seat, if known.
    pub trainee: Option<String>,
    /// The drive or goal script a headless seat's operator follows in every trial (`None`: the
    /// robot stands still unless the instructor takes over).
    pub script: Option<PathBuf>,
    /// The folder of exercises the instructor may assign by name.
    pub exercises: PathBuf,
    /// Where each attempt's log goes (`<attempt>.mcap`).
    pub logs: PathBuf,
    /// The outbox folder.
    pub outbox: PathBuf,
    /// The real-time factor (1: real time; more for quick tests and demos).
    pub speed: f64,
}

/// Why a seat cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// Its outbox cannot be written: a result could be lost, so the seat stops.
    #[error("outbox: {0}")]
    Outbox(#[from] OutboxError),
    /// A bad seat or trainee name.
    #[error(transparent)]
    Name(#[from] super::protocol::ProtocolError),
}

/// The exercise loaded and its attempt.
struct Attempt {
    id: String,
    exercise: String,
    sha256: String,
    trainee: Option<String>,
    robot: String,
    session: Session,
    log: Option<LogWriter>,
    log_error: Option<String>,
    driver: Box<dyn Driver>,
    demo: Option<TrialPilot>,
    started_unix_s: Option<f64>,
    state: SeatState,
    events_sent: usize,
    pacer: Pacer,
    /// The trial clock when the trial under way was last noted in the outbox, s.
    noted_at: f64,
}

impl Attempt {
    /// The attempt's report as it stands, with `status` (no log: that is added when it is
    /// finished).
    fn report(&self, seat: &str, status: AttemptStatus) -> AttemptReport {
        let result = self
            .session
            .trial()
            .map(crate::exercise::Trial::result)
            .unwrap_or_default();
        AttemptReport {
            protocol: PROTOCOL_VERSION,
            attempt: self.id.clone(),
            seat: seat.to_owned(),
            trainee: self.trainee.clone(),
            exercise: self.exercise.clone(),
            exercise_sha256: self.sha256.clone(),
            robot: self.robot.clone(),
            started_unix_s: self.started_unix_s.unwrap_or_else(unix_now),
            duration_s: result.elapsed,
            status,
            score: result.score,
            completed: result.completed,
            required: result.required,
            repetitions_per_minute: result.repetitions_per_minute,
            faults: result.faults,
            penalty_points: result.penalty_points,
            reason: match status {
                AttemptStatus::Unfinished => super::outbox::INTERRUPTED.to_owned(),
                _ => result.reason.clone(),
            },
            result: result_json(&result),
            proficiency: self.session.trial().map(|t| {
                let p = t.spec().proficiency;
                ProficiencyStandard {
                    pass_rate: p.pass_rate,
                    reps_per_min: p.reps_per_min,
                    window: p.window,
                }
            }),
            log: None,
            log_sha256: None,
        }
    }
}

/// One seat: what it has loaded and runs, and its outbox.
pub struct Seat {
    options: SeatOptions,
    outbox: Outbox,
    attempt: Option<Attempt>,
    attempts_made: u32,
    status_seq: u64,
    operator_input: Option<bool>,
    operator: Option<OperatorFactory>,
    external: Option<ExternalControl>,
}

/// Makes the operator of each trial for its robot (a ROS 2 control unit, say) instead of the
/// seat's script.
pub type OperatorFactory = Box<dyn Fn(&crate::vehicle::RobotSpec) -> Box<dyn Driver> + Send>;

/// SHA-256 of a file (hex), or the read error.
fn file_sha256(path: &Path) -> Result<String, String> {
    std::fs::read(path)
        .map(|bytes| sha256_hex(&bytes))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The seat's operator for a trial: its script (a drive or goal script), or standing still.
fn operator_driver(script: Option<&Path>, session: &Session) -> Result<Box<dyn Driver>, String> {
    let Some(path) = script else {
        return Ok(Box::new(ScriptDriver::new(DriveScript::default(), false)));
    };
    let file = SourceFile::read(path).map_err(|e| e.to_string())?;
    let spec = session.sim().robot(session.robot()).spec();
    if is_goal_script(&file) {
        let goals = read_goals(&file).map_err(|e| e.to_string())?;
        return Ok(Box::new(AutopilotDriver::new(Autopilot::new(spec, goals))));
    }
    let script = DriveScript::from_source(&file).map_err(|e| e.to_string())?;
    script
        .check_arm(spec.arm.as_ref())
        .map_err(|e| e.to_string())?;
    Ok(Box::new(ScriptDriver::new(script, false)))
}

impl Seat {
    /// A seat with nothing loaded; its outbox opened (made if missing), a trial it left under
    /// way when it last stopped filed there as unfinished.
    pub fn new(options: SeatOptions) -> Result<Self, SeatError> {
        check_name("seat", &options.name)?;
        if let Some(trainee) = &options.trainee {
            check_name("trainee", trainee)?;
        }
        let outbox = Outbox::open(&options.outbox)?;
        if let Some(attempt) = outbox.file_interrupted()? {
            eprintln!(
                "seat {}: attempt {attempt} was under way when the seat stopped: it is sent to \
                 the instructor as unfinished",
                options.name
            );
        }
        Ok(Self {
            options,
            outbox,
            attempt: None,
            attempts_made: 0,
            status_seq: 0,
            operator_input: None,
            operator: None,
            external: None,
        })
    }

    /// The seat's name.
    pub fn name(&self) -> &str {
        &self.options.name
    }

    /// The outbox.
    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// What the seat is doing.
    pub fn state(&self) -> SeatState {
        self.attempt.as_ref().map_or(SeatState::Idle, |a| a.state)
    }

    /// The exercise file an assignment by name means: only a bare name of the seat's exercise
    /// folder (a seat never opens files outside it on the network's word).
    fn assigned_file(&self, exercise: &str) -> Result<PathBuf, String> {
        check_name("exercise", exercise).map_err(|e| e.to_string())?;
        let path = self.options.exercises.join(format!("{exercise}.toml"));
        if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "no exercise '{exercise}' in this seat's folder {}",
                self.options.exercises.display()
            ))
        }
    }

    /// Installs the instructor's `bundle` for `exercise` in the seat's folder
    /// (`received/<exercise>-<hash>/`) and returns its exercise file: every name checked (none
    /// may leave the folder), every file checked against its SHA-256.
    fn install(
        &self,
        exercise: &str,
        sha256: Option<&str>,
        bundle: &Bundle,
    ) -> Result<PathBuf, String> {
        check_name("exercise", exercise).map_err(|e| e.to_string())?;
        if self.state_is_busy() {
            return Err("a trial is under way: end it first".into());
        }
        let hash = bundle
            .exercise_sha256()
            .ok_or_else(|| "the bundle does not hold its exercise file".to_owned())?;
        if sha256.is_some_and(|s| !s.eq_ignore_ascii_case(hash)) {
            return Err(
                "the bundle's exercise file is not the one assigned (SHA-256 differs)".into(),
            );
        }
        let folder = self
            .options
            .exercises
            .join("received")
            .join(format!("{exercise}-{}", &hash[..hash.len().min(12)]));
        bundle.install(&folder).map_err(|e| e.to_string())
    }

    fn state_is_busy(&self) -> bool {
        matches!(self.state(), SeatState::Running | SeatState::Paused)
    }

    /// Loads exercise file `file` (named `exercise` in the records) for `trainee`: a new
    /// attempt, ready to start. Refused while a trial runs, or when the file's hash is not
    /// `sha256`.
    pub fn load(
        &mut self,
        exercise: &str,
        file: &Path,
        sha256: Option<&str>,
        trainee: Option<&str>,
    ) -> Result<(), String> {
        if self.state_is_busy() {
            return Err("a trial is under way: end it first".into());
        }
        if let Some(trainee) = trainee {
            check_name("trainee", trainee).map_err(|e| e.to_string())?;
        }
        let hash = file_sha256(file)?;
        if let Some(expected) = sha256.filter(|e| !e.eq_ignore_ascii_case(&hash)) {
            return Err(format!(
                "this seat's {} (sha256 {hash}) differs from the instructor's ({expected})",
                file.display()
            ));
        }
        let what = Launch::Exercise {
            exercise: exercise_file(file),
            robot: None,
        };
        let mut launched = open(&what).map_err(|e| e.to_string())?;
        let driver = match (&self.operator, self.external_allowed()) {
            (Some(make), true) => make(launched.robot()),
            (Some(_), false) => Box::new(ScriptDriver::new(DriveScript::default(), false)),
            (None, _) => operator_driver(self.options.script.as_deref(), &launched.session)?,
        };
        self.attempts_made += 1;
        let id = format!(
            "{}-{}-{}",
            self.options.name,
            (unix_now() * 1000.0) as u64,
            self.attempts_made
        );
        let options = LaunchOptions {
            log: LogTarget::At(self.options.logs.join(format!("{id}.mcap"))),
            program: "seat",
            script: self.options.script.clone(),
        };
        launched
            .start_log(&what, &options)
            .map_err(|e| e.to_string())?;
        let robot = launched.robot().name.clone();
        let mut pacer = Pacer::new(launched.session.sim().config().dt);
        pacer.set_speed(self.options.speed);
        self.attempt = Some(Attempt {
            id,
            exercise: exercise.to_owned(),
            sha256: hash,
            trainee: trainee
                .map(str::to_owned)
                .or_else(|| self.options.trainee.clone()),
            robot,
            session: launched.session,
            log: launched.log,
            log_error: None,
            driver,
            demo: None,
            started_unix_s: None,
            state: SeatState::Ready,
            events_sent: 0,
            pacer,
            noted_at: 0.0,
        });
        Ok(())
    }

    /// Loads `exercise` (an exercise file or a library name) and starts it at once, as if the
    /// instructor had assigned and started it; the records name it by its file's stem.
    pub fn start_now(&mut self, exercise: &Path) -> Result<(), String> {
        let name = exercise
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        self.load(&name, &exercise_file(exercise), None, None)?;
        self.command(&Command::Start)
    }

    /// Carries out an instructor's command; `Err` says why it was refused.
    pub fn command(&mut self, command: &Command) -> Result<(), String> {
        if let Command::Assign {
            exercise,
            sha256,
            trainee,
            bundle,
        } = command
        {
            let file = match bundle {
                Some(bundle) => self.install(exercise, sha256.as_deref(), bundle)?,
                None => self.assigned_file(exercise)?,
            };
            return self.load(exercise, &file, sha256.as_deref(), trainee.as_deref());
        }
        if let Command::SendLog { attempt } = command {
            return self.log_bytes(attempt).map(|_| ());
        }
        if let Command::External { allowed } = command {
            return self.allow_external(*allowed);
        }
        let attempt = self
            .attempt
            .as_mut()
            .ok_or_else(|| "no exercise loaded: assign one first".to_owned())?;
        let state = attempt.state;
        let refuse = |why: &str| Err(format!("{why} (the seat is {state:?})").to_lowercase());
        match command {
            Command::Assign { .. } | Command::SendLog { .. } | Command::External { .. } => {
                handled_before_the_attempt()
            }
            Command::Start if state == SeatState::Ready => {
                attempt.state = SeatState::Running;
                attempt.started_unix_s = Some(unix_now());
                let running = attempt.report(&self.options.name, AttemptStatus::Unfinished);
                self.outbox
                    .mark_running(&running)
                    .map_err(|e| format!("the seat cannot note the trial: {e}"))?;
                Ok(())
            }
            Command::Pause if state == SeatState::Running => {
                attempt.session.apply(Input::Pause(true));
                attempt.state = SeatState::Paused;
                Ok(())
            }
            Command::Resume if state == SeatState::Paused => {
                attempt.session.apply(Input::Pause(false));
                attempt.state = SeatState::Running;
                Ok(())
            }
            Command::Reset if matches!(state, SeatState::Running | SeatState::Paused) => {
                attempt.session.apply(Input::Reset);
                Ok(())
            }
            Command::End if matches!(state, SeatState::Running | SeatState::Paused) => {
                if state == SeatState::Paused {
                    attempt.session.apply(Input::Pause(false));
                    attempt.state = SeatState::Running;
                }
                attempt.session.apply(Input::EndTrial);
                Ok(())
            }
            Command::Link { change } => {
                let change = link_change(change)?;
                attempt.session.apply(Input::Link(change));
                Ok(())
            }
            Command::TakeOver if attempt.demo.is_none() => {
                let spec = attempt.session.sim().robot(attempt.session.robot()).spec();
                attempt.demo = Some(TrialPilot::new(spec, DEMO_SPEED));
                Ok(())
            }
            Command::HandBack if attempt.demo.is_some() => {
                attempt.demo = None;
                Ok(())
            }
            Command::Start => refuse("not ready to start"),
            Command::Pause => refuse("not running"),
            Command::Resume => refuse("not paused"),
            Command::Reset | Command::End => refuse("no trial under way"),
            Command::TakeOver => Err("the autopilot is driving already".into()),
            Command::HandBack => Err("the autopilot is not driving".into()),
        }
    }

    /// Runs the trial for `wall` s of wall-clock time (times the seat's speed) with the seat's
    /// own operator (its script, or the autopilot once the instructor took over); returns the
    /// exercise events that happened. When the trial ends its report goes into the outbox
    /// (on disk before this returns) and its log is finished. A windowed seat steps the
    /// session itself ([`Seat::session_mut`]) and calls [`Seat::after_steps`].
    pub fn advance(&mut self, wall: f64) -> Result<Vec<SeatEvent>, SeatError> {
        let Some(attempt) = self.attempt.as_mut() else {
            return Ok(Vec::new());
        };
        if attempt.state != SeatState::Running {
            return Ok(Vec::new());
        }
        let steps = attempt.pacer.advance(wall);
        for _ in 0..steps {
            match attempt.demo.as_mut() {
                Some(pilot) => pilot.before_step(&mut attempt.session),
                None => attempt.driver.before_step(&mut attempt.session),
            }
            attempt.session.step();
            if attempt.session.trial_finished() {
                break;
            }
        }
        self.after_steps()
    }

    /// After the attempt's session stepped: its log records what happened, the exercise events
    /// not yet sent are returned, and a trial that has ended is finished (its report in the
    /// outbox, on disk before this returns; its log closed).
    pub fn after_steps(&mut self) -> Result<Vec<SeatEvent>, SeatError> {
        let Some(attempt) = self.attempt.as_mut() else {
            return Ok(Vec::new());
        };
        if attempt.state == SeatState::Finished {
            return Ok(Vec::new());
        }
        if let (Some(log), None) = (&mut attempt.log, &attempt.log_error) {
            if let Err(e) = log.record(&mut attempt.session) {
                eprintln!("seat {}: the attempt's log stopped: {e}", self.options.name);
                attempt.log_error = Some(e.to_string());
            }
        }
        let events = new_events(&self.options.name, attempt);
        if attempt.session.trial_finished() {
            self.finish()?;
        } else if let Some(clock) = attempt.session.trial().map(crate::exercise::Trial::clock) {
            // The note of the trial under way keeps up, so an interrupted one is filed with
            // about the clock it reached.
            if clock - attempt.noted_at >= NOTE_EVERY {
                attempt.noted_at = clock;
                let running = attempt.report(&self.options.name, AttemptStatus::Unfinished);
                self.outbox.mark_running(&running)?;
            }
        }
        Ok(events)
    }

    /// The session of the exercise loaded (ready, under way or finished), if any: a windowed
    /// seat shows it.
    pub fn session(&self) -> Option<&Session> {
        self.attempt.as_ref().map(|a| &a.session)
    }

    /// The session of the exercise loaded, to drive (a windowed seat's operator): its runner
    /// steps it only while the seat's state is [`SeatState::Running`] (the instructor's start,
    /// pause and resume decide that) and calls [`Seat::after_steps`] after.
    pub fn session_mut(&mut self) -> Option<&mut Session> {
        self.attempt.as_mut().map(|a| &mut a.session)
    }

    /// The attempt loaded (its id), if any: a new one means a new exercise to show.
    pub fn attempt_id(&self) -> Option<&str> {
        self.attempt.as_ref().map(|a| a.id.as_str())
    }

    /// Whether the instructor's autopilot demonstration has the robot.
    pub fn autopilot(&self) -> bool {
        self.attempt.as_ref().is_some_and(|a| a.demo.is_some())
    }

    /// Has `make` make the operator of every trial from now on, instead of the seat's script:
    /// external control of kind `kind` (`ros2`), which the instructor sees in the status and
    /// can revoke; its input counts as present.
    pub fn operate_with(&mut self, kind: &str, make: OperatorFactory) {
        self.operator = Some(make);
        self.operator_input = Some(true);
        self.external = Some(ExternalControl {
            kind: kind.to_owned(),
            allowed: true,
        });
    }

    fn external_allowed(&self) -> bool {
        self.external.as_ref().is_some_and(|e| e.allowed)
    }

    /// The instructor allows or revokes the external control: revoked, the trial under way
    /// gets a standing-still operator (the robot stops); allowed again, a fresh one of the
    /// external kind.
    fn allow_external(&mut self, allowed: bool) -> Result<(), String> {
        let Some(external) = self.external.as_mut() else {
            return Err("this seat takes no external control".into());
        };
        external.allowed = allowed;
        self.operator_input = Some(allowed);
        let Some(attempt) = self.attempt.as_mut() else {
            return Ok(());
        };
        attempt.driver = match (&self.operator, allowed) {
            (Some(make), true) => make(attempt.session.sim().robot(attempt.session.robot()).spec()),
            _ => Box::new(ScriptDriver::new(DriveScript::default(), false)),
        };
        if !allowed {
            let flipper = attempt.session.operator_command().flipper;
            attempt
                .session
                .apply(Input::Drive(crate::vehicle::DriveCommand {
                    flipper,
                    ..crate::vehicle::DriveCommand::STOP
                }));
        }
        Ok(())
    }

    /// Tells the seat whether its operator's input is present (a windowed seat: the pad armed
    /// or the keys driving); `None`: judged from the script and the autopilot, as headless.
    pub fn set_operator_input(&mut self, present: Option<bool>) {
        self.operator_input = present;
    }

    /// The finished trial's report into the outbox, its log closed.
    fn finish(&mut self) -> Result<(), SeatError> {
        let Some(attempt) = self.attempt.as_mut() else {
            return Ok(());
        };
        attempt.state = SeatState::Finished;
        let (log, log_sha256) = match attempt.log.take() {
            Some(writer) => {
                let path = writer.path().to_path_buf();
                match writer.finish(&mut attempt.session) {
                    Ok(()) => (Some(path.display().to_string()), file_sha256(&path).ok()),
                    Err(e) => {
                        attempt.log_error = Some(e.to_string());
                        (None, None)
                    }
                }
            }
            None => (None, None),
        };
        let passed = attempt.session.trial().is_some_and(|t| t.result().passed);
        let status = if passed {
            AttemptStatus::Passed
        } else {
            AttemptStatus::Failed
        };
        let mut report = attempt.report(&self.options.name, status);
        report.log = log;
        report.log_sha256 = log_sha256;
        self.outbox.put(&report)?;
        self.outbox.clear_running()?;
        Ok(())
    }

    /// The log of this seat's finished attempt `attempt` (only files of its logs folder, by
    /// attempt id; not the attempt under way, whose log is still being written).
    pub fn log_bytes(&self, attempt: &str) -> Result<Vec<u8>, String> {
        check_name("attempt", attempt).map_err(|e| e.to_string())?;
        let running = self
            .attempt
            .as_ref()
            .is_some_and(|a| a.id == attempt && a.state != SeatState::Finished);
        if running {
            return Err(format!("attempt {attempt} is not finished"));
        }
        let path = self.options.logs.join(format!("{attempt}.mcap"));
        let size = std::fs::metadata(&path)
            .map_err(|e| format!("no log of attempt {attempt} here: {e}"))?
            .len();
        if size > MAX_LOG_SENT {
            return Err(format!("the log is {size} bytes, more than {MAX_LOG_SENT}"));
        }
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The seat's status now (each call counts one more in its sequence). An operator's input
    /// is present when the window's operator is ([`Seat::set_operator_input`]), or headless
    /// when the seat has a script to drive with; always while the autopilot has taken over.
    pub fn status(&mut self) -> SeatStatus {
        let operator_input = self.operator_input.unwrap_or(self.options.script.is_some())
            || self.attempt.as_ref().is_some_and(|a| a.demo.is_some());
        self.status_seq += 1;
        let mut status = SeatStatus {
            protocol: PROTOCOL_VERSION,
            seat: self.options.name.clone(),
            trainee: self.options.trainee.clone(),
            robot: None,
            exercise: None,
            attempt: None,
            started_unix_s: None,
            state: SeatState::Idle,
            clock_s: 0.0,
            completed: 0,
            required: 0,
            faults: 0,
            penalty_points: 0.0,
            score: 0.0,
            pose: None,
            plan: None,
            link: String::new(),
            operator_input,
            autopilot: false,
            external: self.external.clone(),
            outbox: self
                .outbox
                .count()
                .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX)),
            seq: self.status_seq,
            sent_unix_s: unix_now(),
        };
        if let Some(a) = &self.attempt {
            status.trainee.clone_from(&a.trainee);
            status.robot = Some(a.robot.clone());
            status.exercise = Some(a.exercise.clone());
            status.attempt = Some(a.id.clone());
            status.started_unix_s = a.started_unix_s;
            status.state = a.state;
            status.autopilot = a.demo.is_some();
            status.link = a.session.link().summary().unwrap_or_default();
            let pose = a.session.sim().body_state(a.session.robot()).pose;
            status.pose = Some(PlanPose {
                x: pose.translation.x,
                y: pose.translation.y,
                yaw: pose.rotation.euler_angles().2,
            });
            let bounds = &a.session.sim().scene().bounds;
            status.plan = Some([bounds.min[0], bounds.min[1], bounds.max[0], bounds.max[1]]);
            if let Some(trial) = a.session.trial() {
                status.clock_s = trial.clock();
                status.completed = trial.completed();
                status.required = trial.spec().repetitions;
                status.faults = trial.faults();
                status.penalty_points = trial.penalty_points();
                status.score = trial.score();
            }
        }
        status
    }
}

/// Never reached: an assignment or a log request is handled before the attempt is looked at.
fn handled_before_the_attempt() -> Result<(), String> {
    Err("internal: command not handled".into())
}

/// How often the note of the trial under way is brought up to date, s of trial clock.
const NOTE_EVERY: f64 = 5.0;

/// Largest log a seat sends, bytes.
pub const MAX_LOG_SENT: u64 = 64 * 1024 * 1024;

/// The events of `attempt` not yet sent, as messages.
fn new_events(seat: &str, attempt: &mut Attempt) -> Vec<SeatEvent> {
    let Some(trial) = attempt.session.trial() else {
        return Vec::new();
    };
    let events = trial.events();
    let fresh: Vec<SeatEvent> = events
        .iter()
        .skip(attempt.events_sent)
        .map(|e| SeatEvent {
            protocol: PROTOCOL_VERSION,
            seat: seat.to_owned(),
            attempt: attempt.id.clone(),
            event: event_json(e),
        })
        .collect();
    attempt.events_sent = events.len();
    fresh
}

/// A link change from its log JSON form (`{"kind": "link", …}` as the logs write it; the kind
/// may be left out).
fn link_change(change: &serde_json::Value) -> Result<LinkChange, String> {
    let mut v = change.clone();
    if let Some(map) = v.as_object_mut() {
        map.insert("kind".into(), "link".into());
        map.insert("step".into(), 0.into());
        map.insert("time".into(), 0.0.into());
    }
    match crate::session::StepInput::from_json(&v) {
        Ok(crate::session::StepInput {
            input: Input::Link(change),
            ..
        }) => Ok(change),
        Ok(_) => Err("not a link change".into()),
        Err(e) => Err(format!("link change: {e}")),
    }
}

#[cfg(test)]
mod tests;
