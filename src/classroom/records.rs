//! The instructor's records: trainees, seats, exercises, attempts and instructor actions in one
//! SQLite file (default `records/treadsim.sqlite`), WAL journal so a write cut by kill -9
//! leaves the last committed state. The schema is versioned by `PRAGMA user_version` and
//! migrated in steps ([`MIGRATIONS`]); each attempt is stored once, in a transaction, under the
//! seat's attempt id, so a repeated delivery changes nothing. The file holds personal data: it
//! is created owner-only (0600) and one trainee's data can be exported and deleted.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::protocol::{AttemptReport, AttemptStatus};

/// The default records file.
pub const DEFAULT_RECORDS: &str = "records/treadsim.sqlite";

/// The schema, one step per version: version `n` is reached by running `MIGRATIONS[n - 1]`.
/// Never edit a step that has shipped; add one.
pub const MIGRATIONS: &[&str] = &[
    // 1: the class's records.
    "CREATE TABLE trainees (
        id TEXT PRIMARY KEY,
        name TEXT,
        created_unix_s REAL NOT NULL
    );
    CREATE TABLE seats (
        name TEXT PRIMARY KEY,
        first_seen_unix_s REAL NOT NULL,
        last_seen_unix_s REAL NOT NULL
    );
    CREATE TABLE exercises (
        name TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        threshold_pass_rate REAL NOT NULL DEFAULT 0.8,
        threshold_reps_per_min REAL NOT NULL DEFAULT 0.0,
        threshold_window INTEGER NOT NULL DEFAULT 5
    );
    CREATE TABLE attempts (
        id TEXT PRIMARY KEY,
        trainee TEXT REFERENCES trainees(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        exercise TEXT NOT NULL,
        exercise_sha256 TEXT NOT NULL,
        robot TEXT NOT NULL,
        started_unix_s REAL NOT NULL,
        duration_s REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'unfinished')),
        score REAL NOT NULL,
        completed INTEGER NOT NULL,
        required INTEGER NOT NULL,
        reps_per_min REAL NOT NULL,
        faults INTEGER NOT NULL,
        penalty_points REAL NOT NULL,
        reason TEXT NOT NULL,
        result_json TEXT NOT NULL,
        log_path TEXT,
        log_sha256 TEXT,
        received_unix_s REAL NOT NULL
    );
    CREATE INDEX attempts_by_trainee ON attempts (trainee, started_unix_s);
    CREATE TABLE instructor_actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at_unix_s REAL NOT NULL,
        seat TEXT NOT NULL,
        command TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        reason TEXT NOT NULL
    );",
    // 2: the instructor console's login (the password as an Argon2id PHC string).
    "CREATE TABLE instructor_accounts (
        name TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        set_unix_s REAL NOT NULL
    );",
    // 3: the instructor's own copy of an attempt's log, fetched from its seat.
    "ALTER TABLE attempts ADD COLUMN local_log TEXT;",
    // 4: a threshold the instructor set, which the exercise file's no longer replaces; the
    // file's kept beside it (as last reported), to go back to.
    "ALTER TABLE exercises ADD COLUMN threshold_by_instructor INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE exercises ADD COLUMN file_pass_rate REAL;
    ALTER TABLE exercises ADD COLUMN file_reps_per_min REAL;
    ALTER TABLE exercises ADD COLUMN file_window INTEGER;",
];

/// The schema version this program writes.
pub fn schema_version() -> u32 {
    MIGRATIONS.len() as u32
}

/// What went wrong with the records file.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// SQLite refused (a corrupt or locked file, a full disk).
    #[error("{path}: {source}")]
    Sqlite {
        /// The records file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The file or its folder cannot be made.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file of a newer schema than this program knows.
    #[error("{path}: records schema version {found} is newer than this program's {known}; use a newer treadsim")]
    Newer {
        /// The records file.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// This program's.
        known: u32,
    },
    /// A proficiency threshold out of range.
    #[error("threshold for {exercise}: {detail}")]
    Threshold {
        /// The exercise.
        exercise: String,
        /// What is out of range.
        detail: String,
    },
    /// A stored value that does not parse (a hand-edited file).
    #[error("{path}: attempt {attempt}: {detail}")]
    Corrupt {
        /// The records file.
        path: PathBuf,
        /// The attempt.
        attempt: String,
        /// What is wrong.
        detail: String,
    },
}

/// One stored attempt, as listed and exported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttemptRow {
    /// The attempt's id.
    pub id: String,
    /// The trainee.
    pub trainee: Option<String>,
    /// The seat.
    pub seat: String,
    /// The exercise as assigned.
    pub exercise: String,
    /// The robot's name.
    pub robot: String,
    /// Start, s since the Unix epoch.
    pub started_unix_s: f64,
    /// Trial clock at its end, s.
    pub duration_s: f64,
    /// `passed`, `failed` or `unfinished`.
    pub status: String,
    /// Score, 0–100.
    pub score: f64,
    /// Repetitions done.
    pub completed: u32,
    /// Repetitions asked for.
    pub required: u32,
    /// Repetitions per minute.
    pub reps_per_min: f64,
    /// Faults.
    pub faults: u32,
    /// Penalty points.
    pub penalty_points: f64,
    /// Why it ended.
    pub reason: String,
    /// The log file's name, if any.
    pub log_path: Option<String>,
    /// The log's SHA-256 (hex).
    pub log_sha256: Option<String>,
}

/// The open records file.
pub struct Records {
    path: PathBuf,
    db: Connection,
}

/// Creates `path` empty and owner-only (0600) if it does not exist, so no moment exists when
/// another user could read it.
fn create_private(path: &Path) -> Result<(), RecordsError> {
    let io = |source| RecordsError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| RecordsError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e)),
    }
}

impl Records {
    /// Opens `path` (creating it owner-only, and its folder), turns on WAL and foreign keys,
    /// and migrates it to [`schema_version`].
    pub fn open(path: &Path) -> Result<Self, RecordsError> {
        create_private(path)?;
        let sql = |source| RecordsError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        let db = Connection::open(path).map_err(sql)?;
        db.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        db.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
        db.pragma_update(None, "synchronous", "FULL").map_err(sql)?;
        db.pragma_update(None, "foreign_keys", "ON").map_err(sql)?;
        let mut records = Self {
            path: path.to_path_buf(),
            db,
        };
        records.migrate()?;
        Ok(records)
    }

    /// Opens an existing records file (as [`Records::open`]); a missing file is an error, not
    /// a new empty one (for the commands that only read or delete).
    pub fn open_existing(path: &Path) -> Result<Self, RecordsError> {
        if !path.is_file() {
            return Err(RecordsError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no records file here (the instructor makes it; --db names another)",
                ),
            });
        }
        Self::open(path)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sql(&self, source: rusqlite::Error) -> RecordsError {
        RecordsError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    /// The file's schema version.
    pub fn version(&self) -> Result<u32, RecordsError> {
        self.db
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.sql(e))
    }

    /// Runs the migrations the file has not had, each in its own transaction with its version.
    fn migrate(&mut self) -> Result<(), RecordsError> {
        let found = self.version()?;
        let known = schema_version();
        if found > known {
            return Err(RecordsError::Newer {
                path: self.path.clone(),
                found,
                known,
            });
        }
        for (index, step) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            let version = index as u32 + 1;
            let tx = self
                .db
                .transaction()
                .map_err(|source| RecordsError::Sqlite {
                    path: self.path.clone(),
                    source,
                })?;
            let done = tx
                .execute_batch(step)
                .and_then(|()| tx.pragma_update(None, "user_version", version))
                .and_then(|()| tx.commit());
            done.map_err(|e| self.sql(e))?;
        }
        Ok(())
    }

    /// Notes that seat `seat` was seen now.
    pub fn seat_seen(&self, seat: &str, now: f64) -> Result<(), RecordsError> {
        self.db
            .execute(
                "INSERT INTO seats (name, first_seen_unix_s, last_seen_unix_s) VALUES (?1, ?2, ?2)
                 ON CONFLICT (name) DO UPDATE SET last_seen_unix_s = ?2",
                params![seat, now],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// Stores an attempt once: `Ok(true)` when stored now, `Ok(false)` when it was already
    /// there (a repeated delivery). An attempt stored as unfinished (its seat went away) is
    /// replaced by the seat's finished report when that arrives. The trainee, the exercise and
    /// the attempt are written in one transaction.
    pub fn store_attempt(
        &mut self,
        report: &AttemptReport,
        now: f64,
    ) -> Result<bool, RecordsError> {
        let path = self.path.clone();
        let sql = |source| RecordsError::Sqlite {
            path: path.clone(),
            source,
        };
        let tx = self.db.transaction().map_err(sql)?;
        let existing: Option<String> = tx
            .query_row(
                "SELECT status FROM attempts WHERE id = ?1",
                params![report.attempt],
                |row| row.get(0),
            )
            .optional()
            .map_err(sql)?;
        let replaces_unfinished =
            existing.as_deref() == Some("unfinished") && report.status != AttemptStatus::Unfinished;
        if existing.is_some() && !replaces_unfinished {
            return Ok(false);
        }
        if let Some(trainee) = &report.trainee {
            tx.execute(
                "INSERT OR IGNORE INTO trainees (id, created_unix_s) VALUES (?1, ?2)",
                params![trainee, now],
            )
            .map_err(sql)?;
        }
        // The exercise file's standard, as the latest attempt reports it (the file may have
        // changed), unless the instructor set one; an unfinished attempt, reported by the
        // instructor itself, knows none.
        match report.proficiency {
            Some(p) => tx.execute(
                "INSERT INTO exercises (name, sha256, threshold_pass_rate, threshold_reps_per_min,
                    threshold_window, file_pass_rate, file_reps_per_min, file_window)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?3, ?4, ?5)
                 ON CONFLICT (name) DO UPDATE SET sha256 = ?2, file_pass_rate = ?3,
                    file_reps_per_min = ?4, file_window = ?5,
                    threshold_pass_rate = CASE WHEN threshold_by_instructor
                        THEN threshold_pass_rate ELSE ?3 END,
                    threshold_reps_per_min = CASE WHEN threshold_by_instructor
                        THEN threshold_reps_per_min ELSE ?4 END,
                    threshold_window = CASE WHEN threshold_by_instructor
                        THEN threshold_window ELSE ?5 END",
                params![report.exercise, report.exercise_sha256, p.pass_rate, p.reps_per_min, p.window],
            ),
            None => tx.execute(
                "INSERT INTO exercises (name, sha256) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
                params![report.exercise, report.exercise_sha256],
            ),
        }
        .map_err(sql)?;
        tx.execute(
            "INSERT OR REPLACE INTO attempts (id, trainee, seat, exercise, exercise_sha256, robot,
                started_unix_s, duration_s, status, score, completed, required, reps_per_min,
                faults, penalty_points, reason, result_json, log_path, log_sha256,
                received_unix_s)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                ?18, ?19, ?20)",
            params![
                report.attempt,
                report.trainee,
                report.seat,
                report.exercise,
                report.exercise_sha256,
                report.robot,
                report.started_unix_s,
                report.duration_s,
                report.status.name(),
                report.score,
                report.completed,
                report.required,
                report.repetitions_per_minute,
                report.faults,
                report.penalty_points,
                report.reason,
                report.result.to_string(),
                report.log,
                report.log_sha256,
                now,
            ],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(true)
    }

    /// SQLite's `PRAGMA integrity_check`: `ok`, or what is wrong with the file.
    pub fn integrity_check(&self) -> Result<String, RecordsError> {
        self.db
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .map_err(|e| self.sql(e))
    }

    /// The stored password hash of instructor account `name`, if one is set.
    pub fn password_hash(&self, name: &str) -> Result<Option<String>, RecordsError> {
        self.db
            .query_row(
                "SELECT password_hash FROM instructor_accounts WHERE name = ?1",
                params![name],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Sets instructor account `name`'s password hash (a PHC string, never the password).
    pub fn set_password_hash(&self, name: &str, hash: &str, now: f64) -> Result<(), RecordsError> {
        self.db
            .execute(
                "INSERT INTO instructor_accounts (name, password_hash, set_unix_s) VALUES (?1, ?2, ?3)
                 ON CONFLICT (name) DO UPDATE SET password_hash = ?2, set_unix_s = ?3",
                params![name, hash, now],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// The instructor's own copy of attempt `attempt`'s log, if it fetched one.
    pub fn local_log(&self, attempt: &str) -> Result<Option<String>, RecordsError> {
        self.db
            .query_row(
                "SELECT local_log FROM attempts WHERE id = ?1",
                params![attempt],
                |row| row.get(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(|e| self.sql(e))
    }

    /// Notes where the instructor keeps its copy of attempt `attempt`'s log.
    pub fn set_local_log(&self, attempt: &str, path: &str) -> Result<(), RecordsError> {
        self.db
            .execute(
                "UPDATE attempts SET local_log = ?2 WHERE id = ?1",
                params![attempt, path],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// Logs one instructor command and the seat's answer.
    pub fn log_action(
        &self,
        seat: &str,
        command: &str,
        accepted: bool,
        reason: &str,
        now: f64,
    ) -> Result<(), RecordsError> {
        self.db
            .execute(
                "INSERT INTO instructor_actions (at_unix_s, seat, command, accepted, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![now, seat, command, accepted, reason],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// The attempts, oldest first: all of them, or one trainee's.
    pub fn attempts(&self, trainee: Option<&str>) -> Result<Vec<AttemptRow>, RecordsError> {
        let mut statement = self
            .db
            .prepare(
                "SELECT id, trainee, seat, exercise, robot, started_unix_s, duration_s, status,
                    score, completed, required, reps_per_min, faults, penalty_points, reason,
                    log_path, log_sha256
                 FROM attempts WHERE (?1 IS NULL OR trainee = ?1)
                 ORDER BY started_unix_s, id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = statement
            .query_map(params![trainee], |row| {
                Ok(AttemptRow {
                    id: row.get(0)?,
                    trainee: row.get(1)?,
                    seat: row.get(2)?,
                    exercise: row.get(3)?,
                    robot: row.get(4)?,
                    started_unix_s: row.get(5)?,
                    duration_s: row.get(6)?,
                    status: row.get(7)?,
                    score: row.get(8)?,
                    completed: row.get(9)?,
                    required: row.get(10)?,
                    reps_per_min: row.get(11)?,
                    faults: row.get(12)?,
                    penalty_points: row.get(13)?,
                    reason: row.get(14)?,
                    log_path: row.get(15)?,
                    log_sha256: row.get(16)?,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.sql(e))
    }

    /// The stored score file of one attempt (score table and events).
    pub fn attempt_result(&self, id: &str) -> Result<Option<serde_json::Value>, RecordsError> {
        let text: Option<String> = self
            .db
            .query_row(
                "SELECT result_json FROM attempts WHERE id = ?1",
                params![id],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        text.map(|t| {
            serde_json::from_str(&t).map_err(|e| RecordsError::Corrupt {
                path: self.path.clone(),
                attempt: id.to_owned(),
                detail: format!("result_json: {e}"),
            })
        })
        .transpose()
    }

    /// The trainees, by id.
    pub fn trainees(&self) -> Result<Vec<String>, RecordsError> {
        let mut statement = self
            .db
            .prepare("SELECT id FROM trainees ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let rows = statement
            .query_map([], |row| row.get(0))
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.sql(e))
    }

    /// Deletes trainee `trainee` and all their attempts; returns the attempts deleted.
    pub fn delete_trainee(&mut self, trainee: &str) -> Result<usize, RecordsError> {
        let path = self.path.clone();
        let sql = |source| RecordsError::Sqlite {
            path: path.clone(),
            source,
        };
        let tx = self.db.transaction().map_err(sql)?;
        let attempts = tx
            .execute("DELETE FROM attempts WHERE trainee = ?1", params![trainee])
            .map_err(sql)?;
        tx.execute("DELETE FROM trainees WHERE id = ?1", params![trainee])
            .map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(attempts)
    }
}

mod proficiency;
pub use proficiency::{ExerciseThreshold, Proficiency};

#[cfg(test)]
mod tests;
