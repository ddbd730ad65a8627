//! A seat's outbox: every finished attempt's report kept on disk, one file per attempt, until
//! the instructor acknowledges it, so neither a lost instructor nor a restarted seat loses a
//! result. A report is written to `<id>.part`, flushed to disk and renamed, so the folder
//! never holds half a report; a `.part` left by a kill is ignored. The trial under way is
//! noted too (`running.trial`), so a seat that stops mid-trial files it as unfinished at its
//! next start.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::protocol::{check_name, decode, encode, AttemptReport, AttemptStatus};

/// The note of the trial under way (not a `.json` report: never sent as it is).
const RUNNING: &str = "running.trial";

/// Why an attempt filed from a trial left under way did not finish.
pub const INTERRUPTED: &str =
    "the seat stopped during the trial (its program ended or its machine went down)";

/// The outbox's errors.
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    /// The folder or a file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A report's attempt id cannot be a file name.
    #[error("attempt id '{0}' cannot name an outbox file")]
    BadId(String),
}

/// The reports waiting for the instructor, in one folder.
#[derive(Debug, Clone)]
pub struct Outbox {
    dir: PathBuf,
}

impl Outbox {
    /// The outbox in `dir` (made if missing).
    pub fn open(dir: &Path) -> Result<Self, OutboxError> {
        std::fs::create_dir_all(dir).map_err(|source| OutboxError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Self {
            dir: dir.to_path_buf(),
        })
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, attempt: &str) -> Result<PathBuf, OutboxError> {
        check_name("attempt", attempt).map_err(|_| OutboxError::BadId(attempt.to_owned()))?;
        Ok(self.dir.join(format!("{attempt}.json")))
    }

    /// Keeps `report` until [`Outbox::remove`]: written whole and on disk when this returns.
    pub fn put(&self, report: &AttemptReport) -> Result<(), OutboxError> {
        self.write_whole(&self.file(&report.attempt)?, &encode(report))
    }

    /// Writes `bytes` to `path` whole: to a `.part` file, flushed to disk, renamed.
    fn write_whole(&self, path: &Path, bytes: &[u8]) -> Result<(), OutboxError> {
        let part = path.with_extension("part");
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| OutboxError::Io { path: p, source }
        };
        let mut file = std::fs::File::create(&part).map_err(io(&part))?;
        file.write_all(bytes).map_err(io(&part))?;
        file.sync_all().map_err(io(&part))?;
        std::fs::rename(&part, path).map_err(io(path))?;
        // The rename itself reaches the disk with the folder's own sync.
        if let Ok(dir) = std::fs::File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// The note of the trial under way.
    fn running_file(&self) -> PathBuf {
        self.dir.join(RUNNING)
    }

    /// Notes the trial under way, as its report stands (status unfinished): if the seat's
    /// program ends before the trial does — killed, the machine down — its next start files it
    /// ([`Outbox::file_interrupted`]), so the attempt is in the records even when the
    /// instructor was not there to see the seat go. Not a report: never sent as it is.
    pub fn mark_running(&self, report: &AttemptReport) -> Result<(), OutboxError> {
        self.write_whole(&self.running_file(), &encode(report))
    }

    /// The trial is no longer under way (its report is in the outbox).
    pub fn clear_running(&self) -> Result<(), OutboxError> {
        let path = self.running_file();
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(OutboxError::Io { path, source }),
        }
    }

    /// A trial left under way by a seat that stopped: its note becomes a report in the
    /// outbox (sent like any other); returns its attempt id. A note that cannot be read is
    /// moved aside (`running.bad`), as a bad report is.
    pub fn file_interrupted(&self) -> Result<Option<String>, OutboxError> {
        let path = self.running_file();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(OutboxError::Io { path, source }),
        };
        let Ok(mut report) = decode::<AttemptReport>("trial under way", &bytes) else {
            let _ = std::fs::rename(&path, path.with_extension("bad"));
            return Ok(None);
        };
        report.status = AttemptStatus::Unfinished;
        report.reason = INTERRUPTED.into();
        self.put(&report)?;
        self.clear_running()?;
        Ok(Some(report.attempt))
    }

    /// The reports waiting, by attempt id; a file that cannot be read is returned once as its
    /// error (named) and moved aside to `<name>.bad` (kept for a person to look at, never sent),
    /// the others still listed.
    pub fn pending(&self) -> Result<Vec<Result<AttemptReport, String>>, OutboxError> {
        let files = self.files()?;
        Ok(files
            .into_iter()
            .map(|path| {
                let read = std::fs::read(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| {
                        decode::<AttemptReport>("attempt report", &bytes).map_err(|e| e.to_string())
                    });
                read.map_err(|e| {
                    let aside = path.with_extension("json.bad");
                    let _ = std::fs::rename(&path, &aside);
                    format!("{}: {e} (moved to {})", path.display(), aside.display())
                })
            })
            .collect())
    }

    /// How many reports are waiting (files counted, none read: for the 12 Hz status).
    pub fn count(&self) -> Result<usize, OutboxError> {
        self.files().map(|f| f.len())
    }

    /// The report files, sorted by name (attempt id).
    fn files(&self) -> Result<Vec<PathBuf>, OutboxError> {
        let entries = std::fs::read_dir(&self.dir).map_err(|source| OutboxError::Io {
            path: self.dir.clone(),
            source,
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        Ok(files)
    }

    /// Drops the report of `attempt` (acknowledged); nothing if it is not there.
    pub fn remove(&self, attempt: &str) -> Result<(), OutboxError> {
        let path = self.file(attempt)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(OutboxError::Io { path, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::protocol::PROTOCOL_VERSION;

    fn report(id: &str) -> AttemptReport {
        AttemptReport {
            protocol: PROTOCOL_VERSION,
            attempt: id.into(),
            seat: "s1".into(),
            trainee: None,
            exercise: "x".into(),
            exercise_sha256: String::new(),
            robot: "scout".into(),
            started_unix_s: 1.0,
            duration_s: 2.0,
            status: AttemptStatus::Failed,
            score: 0.0,
            completed: 0,
            required: 1,
            repetitions_per_minute: 0.0,
            faults: 0,
            penalty_points: 0.0,
            reason: String::new(),
            result: serde_json::Value::Null,
            proficiency: None,
            log: None,
            log_sha256: None,
        }
    }

    #[test]
    fn reports_survive_reopening_until_removed_and_half_written_ones_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(&dir.path().join("outbox")).unwrap();
        outbox.put(&report("s1-1-1")).unwrap();
        outbox.put(&report("s1-1-2")).unwrap();
        std::fs::write(outbox.dir().join("s1-1-3.part"), b"{\"protoc").unwrap();
        std::fs::write(outbox.dir().join("s1-1-4.json"), b"garbage").unwrap();
        let again = Outbox::open(outbox.dir()).unwrap();
        let pending = again.pending().unwrap();
        assert_eq!(pending.len(), 3);
        assert_eq!(pending[0].as_ref().unwrap().attempt, "s1-1-1");
        assert!(pending[2].as_ref().unwrap_err().contains("s1-1-4.json"));
        assert!(outbox.dir().join("s1-1-4.json.bad").exists());
        again.remove("s1-1-1").unwrap();
        again.remove("s1-1-1").unwrap();
        assert_eq!(again.pending().unwrap().len(), 1);
        assert_eq!(again.count().unwrap(), 1);
        assert!(matches!(
            again.put(&report("../x")),
            Err(OutboxError::BadId(_))
        ));
    }

    #[test]
    fn a_trial_left_under_way_is_filed_unfinished_once() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        assert_eq!(outbox.file_interrupted().unwrap(), None);
        let mut running = report("s1-2-1");
        running.duration_s = 5.0;
        outbox.mark_running(&running).unwrap();
        assert_eq!(outbox.count().unwrap(), 0, "a note is not a report");
        let again = Outbox::open(dir.path()).unwrap();
        assert_eq!(again.file_interrupted().unwrap().as_deref(), Some("s1-2-1"));
        assert_eq!(again.file_interrupted().unwrap(), None, "filed once");
        let pending = again.pending().unwrap();
        let filed = pending[0].as_ref().unwrap();
        assert_eq!(filed.status, AttemptStatus::Unfinished);
        assert_eq!(
            (filed.duration_s, filed.reason.as_str()),
            (5.0, INTERRUPTED)
        );
        // A trial that ended leaves no note.
        outbox.mark_running(&report("s1-2-2")).unwrap();
        outbox.clear_running().unwrap();
        assert_eq!(outbox.file_interrupted().unwrap(), None);
    }
}
