//! Replay: set a logged run up again from its header, feed it the logged inputs at their
//! steps through the same [`Session`], and compare every state snapshot bit for bit with the
//! logged one, stopping at the first divergence (its time and quantity).

use super::{Log, LogError};
use crate::exercise::report::result_json;
use crate::exercise::Exercise;
use crate::scene::Scene;
use crate::session::{drive, Driver, Session};
use crate::sim::{Divergence, StateSnapshot};
use crate::vehicle::robot_file::load_robot;

/// What a replay found.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayOutcome {
    /// Steps re-simulated.
    pub steps: u64,
    /// Simulation time reached, s.
    pub time: f64,
    /// Snapshots compared (all identical unless `divergence`).
    pub snapshots_checked: usize,
    /// The first difference from the log, if any.
    pub divergence: Option<Divergence>,
    /// Why the log stopped early, if it did (then the replay went to its last complete second).
    pub truncated: Option<String>,
    /// For a whole log of a trial: whether the replayed result equals the logged one.
    pub result_matches: Option<bool>,
}

impl ReplayOutcome {
    /// Whether the replay reproduced the log (no divergence, the same result).
    pub fn reproduced(&self) -> bool {
        self.divergence.is_none() && self.result_matches != Some(false)
    }
}

/// The session a log was recorded from, set up again at the log's own settings
/// ([`LogHeader::sim_config`](super::header::LogHeader::sim_config): its step and contact
/// solve); refused when this program cannot reproduce it: another version, other settings,
/// changed input files.
pub fn session_from_log(log: &Log) -> Result<Session, LogError> {
    let header = &log.header;
    let config = header.sim_config();
    header.check_reproducible(&log.path, &config)?;
    let setup = |message: String| LogError::Setup {
        path: log.path.clone(),
        message,
    };
    let session = if let Some(file) = header.file("exercise") {
        // Another robot than the exercise's (`--robot`) is the one the header names.
        let robot = header.file("robot").map(|f| f.path.as_path());
        let exercise =
            Exercise::load_with_robot(&file.path, robot).map_err(|e| setup(e.to_string()))?;
        Session::exercise(&exercise, config)
    } else {
        let (Some(scene), Some(robot)) = (header.file("scene"), header.file("robot")) else {
            return Err(setup("the header names no scene and robot files".into()));
        };
        let scene = Scene::load(&scene.path).map_err(|e| setup(e.to_string()))?;
        let robot = load_robot(&robot.path).map_err(|e| setup(e.to_string()))?;
        let spawn = scene
            .spawn_named(header.spawn.as_deref())
            .map_err(|e| setup(e.to_string()))?;
        Session::free(scene, robot, spawn, config)
    };
    session.map_err(|e| setup(e.to_string()))
}

/// Applies the inputs of `log` from index `*next` on whose step has come (at or before the
/// session's step count), advancing `*next`; for a log cut short, none at or past its last
/// complete step (they belong to the second it lost). The one way logged inputs reach a
/// session: [`replay`] and the station's replay both use it.
pub fn apply_logged_inputs(log: &Log, next: &mut usize, session: &mut Session) {
    let steps = session.sim().steps();
    let limit = if log.end.is_some() {
        u64::MAX
    } else {
        log.last_complete_step()
    };
    while let Some(input) = log.inputs.get(*next) {
        if input.step > steps || input.step >= limit {
            break;
        }
        session.apply(input.input.clone());
        *next += 1;
    }
}

/// A log's inputs as a [`Driver`].
struct LoggedInputs<'a> {
    log: &'a Log,
    next: usize,
}

impl Driver for LoggedInputs<'_> {
    fn before_step(&mut self, session: &mut Session) {
        apply_logged_inputs(self.log, &mut self.next, session);
    }
}

/// Compares the snapshots a replaying session journals with the logged ones.
struct SnapshotCheck<'a, I: Iterator<Item = &'a StateSnapshot>> {
    recorded: std::iter::Peekable<I>,
    verify: bool,
    checked: usize,
    divergence: Option<Divergence>,
}

impl<'a, I: Iterator<Item = &'a StateSnapshot>> SnapshotCheck<'a, I> {
    /// Checks (with `verify`) and drains the session's journal; `false` once diverged.
    fn check(&mut self, session: &mut Session) -> bool {
        let Some(journal) = session.journal_mut() else {
            return true;
        };
        if self.verify {
            for got in journal.snapshots.drain(..) {
                while self
                    .recorded
                    .peek()
                    .is_some_and(|want| want.step < got.step)
                {
                    self.recorded.next();
                }
                if let Some(want) = self.recorded.next_if(|want| want.step == got.step) {
                    self.checked += 1;
                    if self.divergence.is_none() {
                        self.divergence = got.first_difference(want);
                    }
                }
            }
        }
        journal.clear();
        self.divergence.is_none()
    }
}

/// Re-simulates `log` from its inputs to its last complete step (through the one driver loop,
/// [`drive`]); with `verify`, compares every snapshot and stops at the first divergence.
/// `progress` gets the fraction done (0..1) now and then.
pub fn replay(
    log: &Log,
    verify: bool,
    mut progress: impl FnMut(f64),
) -> Result<ReplayOutcome, LogError> {
    let mut session = session_from_log(log)?;
    session.start_journal();
    let end = log.last_complete_step();
    let mut check = SnapshotCheck {
        recorded: log.snapshots.iter().filter(|s| s.step <= end).peekable(),
        verify,
        checked: 0,
        divergence: None,
    };
    let mut inputs = LoggedInputs { log, next: 0 };
    let every = (end / 200).max(1);
    if check.check(&mut session) {
        drive(&mut session, &mut inputs, end, |s| {
            let steps = s.sim().steps();
            if steps % every == 0 {
                progress(steps as f64 / end.max(1) as f64);
            }
            check.check(s)
        });
    }
    if check.divergence.is_none() && session.sim().steps() < end {
        return Err(LogError::Malformed {
            path: log.path.clone(),
            message: format!(
                "the run is paused at step {} ({:.3} s) and no input resumes it before its end at step {end}",
                session.sim().steps(),
                session.sim().time()
            ),
        });
    }
    // The inputs after the last step (a reset before quitting) count for the result.
    inputs.before_step(&mut session);
    progress(1.0);
    let outcome = ReplayOutcome {
        steps: session.sim().steps(),
        time: session.sim().time(),
        snapshots_checked: check.checked,
        truncated: log.truncated.clone(),
        result_matches: match (&log.end, session.trial(), &check.divergence) {
            (Some(end), Some(trial), None) => {
                Some(end.result.as_ref() == Some(&result_json(&trial.result())))
            }
            _ => None,
        },
        divergence: check.divergence,
    };
    Ok(outcome)
}
