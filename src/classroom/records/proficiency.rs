//! Proficiency in the records: each exercise's threshold (the exercise file's, or one the
//! instructor set) and a trainee's standing against it over their last attempts.

use rusqlite::params;
use serde::Serialize;

use super::{Records, RecordsError};
use crate::classroom::protocol::ProficiencyStandard;

/// An exercise's proficiency threshold in the records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExerciseThreshold {
    /// The exercise.
    pub exercise: String,
    /// Share of the window's attempts passed, 0–1.
    pub pass_rate: f64,
    /// Mean repetitions per minute over the window.
    pub reps_per_min: f64,
    /// Attempts looked at.
    pub window: u32,
    /// Whether the instructor set it (else: the exercise file's, as last reported).
    pub by_instructor: bool,
}

/// A trainee's standing on one exercise: the last attempts against its proficiency threshold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proficiency {
    /// The exercise.
    pub exercise: String,
    /// Attempts counted (the last `window`, or fewer).
    pub attempts: u32,
    /// The window the threshold looks at.
    pub window: u32,
    /// Passed share of the counted attempts, 0–1.
    pub pass_rate: f64,
    /// Mean repetitions per minute of the counted attempts.
    pub reps_per_min: f64,
    /// Required pass rate, 0–1.
    pub threshold_pass_rate: f64,
    /// Required repetitions per minute.
    pub threshold_reps_per_min: f64,
    /// Whether a full window meets both thresholds.
    pub qualified: bool,
}

impl Records {
    /// Sets exercise `exercise`'s proficiency threshold (the exercise file's no longer replaces
    /// it), or with `None` gives it back to the exercise file (its standard as last reported,
    /// or from the next attempt reported if none was); logged as an instructor action. Out-of-range values are refused:
    /// a pass rate outside 0–1, a negative or non-finite rate, a window outside 1–100.
    pub fn set_threshold(
        &self,
        exercise: &str,
        threshold: Option<ProficiencyStandard>,
        now: f64,
    ) -> Result<(), RecordsError> {
        let refuse = |detail: &str| RecordsError::Threshold {
            exercise: exercise.to_owned(),
            detail: detail.to_owned(),
        };
        crate::classroom::protocol::check_name("exercise", exercise)
            .map_err(|e| refuse(&e.to_string()))?;
        let (command, changed) = match threshold {
            Some(t) => {
                if !(0.0..=1.0).contains(&t.pass_rate) {
                    return Err(refuse("the pass rate must be 0 to 1"));
                }
                if !(t.reps_per_min.is_finite() && t.reps_per_min >= 0.0) {
                    return Err(refuse("repetitions per minute must be 0 or more"));
                }
                if !(1..=100).contains(&t.window) {
                    return Err(refuse("the window must be 1 to 100 attempts"));
                }
                let changed = self
                    .db
                    .execute(
                        "INSERT INTO exercises (name, sha256, threshold_pass_rate,
                            threshold_reps_per_min, threshold_window, threshold_by_instructor)
                         VALUES (?1, '', ?2, ?3, ?4, 1)
                         ON CONFLICT (name) DO UPDATE SET threshold_pass_rate = ?2,
                            threshold_reps_per_min = ?3, threshold_window = ?4,
                            threshold_by_instructor = 1",
                        params![exercise, t.pass_rate, t.reps_per_min, t.window],
                    )
                    .map_err(|e| self.sql(e))?;
                let command = format!(
                    "threshold {exercise}: pass rate {:.2}, {:.2} reps/min over {}",
                    t.pass_rate, t.reps_per_min, t.window
                );
                (command, changed)
            }
            None => {
                let changed = self
                    .db
                    .execute(
                        "UPDATE exercises SET threshold_by_instructor = 0,
                            threshold_pass_rate = coalesce(file_pass_rate, threshold_pass_rate),
                            threshold_reps_per_min =
                                coalesce(file_reps_per_min, threshold_reps_per_min),
                            threshold_window = coalesce(file_window, threshold_window)
                         WHERE name = ?1",
                        params![exercise],
                    )
                    .map_err(|e| self.sql(e))?;
                (
                    format!("threshold {exercise}: the exercise file's"),
                    changed,
                )
            }
        };
        if changed == 0 {
            return Err(refuse("no such exercise in the records"));
        }
        self.log_action("-", &command, true, "", now)
    }

    /// Every exercise in the records with its proficiency threshold, by name.
    pub fn thresholds(&self) -> Result<Vec<ExerciseThreshold>, RecordsError> {
        let mut statement = self
            .db
            .prepare(
                "SELECT name, threshold_pass_rate, threshold_reps_per_min, threshold_window,
                    threshold_by_instructor FROM exercises ORDER BY name",
            )
            .map_err(|e| self.sql(e))?;
        let rows = statement
            .query_map([], |row| {
                Ok(ExerciseThreshold {
                    exercise: row.get(0)?,
                    pass_rate: row.get(1)?,
                    reps_per_min: row.get(2)?,
                    window: row.get(3)?,
                    by_instructor: row.get(4)?,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.sql(e))
    }

    /// Trainee `trainee`'s standing on each exercise they attempted: their last `window`
    /// finished attempts against the exercise's thresholds (an unfinished attempt is not
    /// counted: the trainee did not get to finish it).
    pub fn proficiency(&self, trainee: &str) -> Result<Vec<Proficiency>, RecordsError> {
        let mut statement = self
            .db
            .prepare(
                "SELECT e.name, e.threshold_pass_rate, e.threshold_reps_per_min, e.threshold_window
                 FROM exercises e WHERE e.name IN
                    (SELECT exercise FROM attempts WHERE trainee = ?1) ORDER BY e.name",
            )
            .map_err(|e| self.sql(e))?;
        let exercises = statement
            .query_map(params![trainee], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, f64>(1)?,
                    row.get::<_, f64>(2)?,
                    row.get::<_, u32>(3)?,
                ))
            })
            .map_err(|e| self.sql(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.sql(e))?;
        exercises
            .into_iter()
            .map(|(exercise, pass, reps, window)| {
                self.standing(trainee, exercise, pass, reps, window)
            })
            .collect()
    }

    fn standing(
        &self,
        trainee: &str,
        exercise: String,
        threshold_pass_rate: f64,
        threshold_reps_per_min: f64,
        window: u32,
    ) -> Result<Proficiency, RecordsError> {
        let mut statement = self
            .db
            .prepare(
                "SELECT status, reps_per_min FROM attempts
                 WHERE trainee = ?1 AND exercise = ?2 AND status != 'unfinished'
                 ORDER BY started_unix_s DESC, id DESC LIMIT ?3",
            )
            .map_err(|e| self.sql(e))?;
        let last = statement
            .query_map(params![trainee, exercise, window], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, f64>(1)?))
            })
            .map_err(|e| self.sql(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.sql(e))?;
        let attempts = last.len() as u32;
        let count = f64::from(attempts.max(1));
        let pass_rate = last.iter().filter(|(s, _)| s == "passed").count() as f64 / count;
        let reps_per_min = last.iter().map(|(_, r)| r).sum::<f64>() / count;
        Ok(Proficiency {
            exercise,
            attempts,
            window,
            pass_rate,
            reps_per_min,
            threshold_pass_rate,
            threshold_reps_per_min,
            qualified: attempts >= window
                && pass_rate >= threshold_pass_rate
                && reps_per_min >= threshold_reps_per_min,
        })
    }
}
