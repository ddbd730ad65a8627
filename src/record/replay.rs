//! Replay: set a logged run up again from its header, feed it the logged inputs at their
//! steps through the same [`Session`], and compare every state snapshot bit for bit with the
//! logged one, stopping at the first divergence (its time and quantity).

use super::{Log, LogError};
use crate::exercise::report::result_json;
use crate::exercise::Exercise;
use crate::scene::Scene;
use crate::session::Session;
use crate::sim::{Divergence, SimConfig};
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

/// The session a log was recorded from, set up again (refused when this program cannot
/// reproduce it: another version, other settings, changed input files).
pub fn session_from_log(log: &Log, config: SimConfig) -> Result<Session, LogError> {
    let header = &log.header;
    header.check_reproducible(&log.path, &config)?;
    let setup = |message: String| LogError::Setup {
        path: log.path.clone(),
        message,
    };
    let session = if let Some(file) = header.file("exercise") {
        let exercise = Exercise::load(&file.path).map_err(|e| setup(e.to_string()))?;
        Session::exercise(&exercise, config)
    } else {
        let (Some(scene), Some(robot)) = (header.file("scene"), header.file("robot")) else {
            return Err(setup("the header names no scene and robot files".into()));
        };
        let scene = Scene::load(&scene.path).map_err(|e| setup(e.to_string()))?;
        let robot = load_robot(&robot.path).map_err(|e| setup(e.to_string()))?;
        let spawn = match &header.spawn {
            Some(name) => scene
                .spawn(name)
                .cloned()
                .ok_or_else(|| setup(format!("the scene has no spawn '{name}'")))?,
            None => scene.spawns[0].clone(),
        };
        Session::free(scene, robot, spawn, config)
    };
    session.map_err(|e| setup(e.to_string()))
}

/// Re-simulates `log` from its inputs to its last complete step; with `verify`, compares
/// every snapshot and stops at the first divergence. `progress` gets the fraction done
/// (0..1) now and then.
pub fn replay(
    log: &Log,
    verify: bool,
    mut progress: impl FnMut(f64),
) -> Result<ReplayOutcome, LogError> {
    let mut session = session_from_log(log, SimConfig::default())?;
    session.start_journal();
    let end = log.last_complete_step();
    let mut recorded = log.snapshots.iter().filter(|s| s.step <= end).peekable();
    let mut outcome = ReplayOutcome {
        steps: 0,
        time: 0.0,
        snapshots_checked: 0,
        divergence: None,
        truncated: log.truncated.clone(),
        result_matches: None,
    };
    let mut inputs = log.inputs.iter().peekable();
    let every = (end / 200).max(1);
    loop {
        let steps = session.sim().steps();
        // Inputs of this step; for a log cut short, none past its last complete second.
        while let Some(input) =
            inputs.next_if(|i| i.step <= steps && (i.step < end || log.end.is_some()))
        {
            session.apply(input.input.clone());
        }
        if verify {
            if let Some(journal) = session.journal_mut() {
                for got in journal.snapshots.drain(..) {
                    while recorded.peek().is_some_and(|want| want.step < got.step) {
                        recorded.next();
                    }
                    if let Some(want) = recorded.next_if(|want| want.step == got.step) {
                        outcome.snapshots_checked += 1;
                        if let Some(d) = got.first_difference(want) {
                            outcome.divergence = Some(d);
                        }
                    }
                }
                journal.clear();
            }
            if outcome.divergence.is_some() {
                break;
            }
        } else if let Some(journal) = session.journal_mut() {
            journal.clear();
        }
        if steps >= end {
            break;
        }
        if !session.step() {
            return Err(LogError::Malformed {
                path: log.path.clone(),
                message: format!(
                    "the run is paused at step {steps} ({:.3} s) and no input resumes it before its end at step {end}",
                    session.sim().time()
                ),
            });
        }
        if steps % every == 0 {
            progress(steps as f64 / end.max(1) as f64);
        }
    }
    progress(1.0);
    outcome.steps = session.sim().steps();
    outcome.time = session.sim().time();
    if let (Some(end), Some(trial), None) = (&log.end, session.trial(), &outcome.divergence) {
        outcome.result_matches = Some(end.result.as_ref() == Some(&result_json(&trial.result())));
    }
    Ok(outcome)
}
