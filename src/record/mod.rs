//! Recording, deterministic replay and the after-action report.
//!
//! Every session can be logged to an MCAP file (the open robotics log format; Foxglove,
//! PlotJuggler and Rerun open it). Channels, all JSON with a JSON schema so Foxglove plots them
//! without plugins:
//!
//! | topic | what | when |
//! |---|---|---|
//! | `/header` | program version, the scene, robot and exercise files' text and SHA-256, the simulation settings, spawn | once, first |
//! | `/input` | every input at its step (drive commands, reset, pause, speed, view) | as applied |
//! | `/snapshot` | every evolving quantity, exactly ([`StateSnapshot`](crate::sim::StateSnapshot)) | every simulated second |
//! | `/telemetry` | pose, velocities, belt speeds commanded and actual, motor torques, per-track normal force, flippers | 100 Hz |
//! | `/event` | simulation events and exercise events (goals, faults, penalties, the end) | as they happen |
//! | `/end` | the last step and the trial's result | once, last |
//!
//! Log time is simulation time (ns). The file is written in chunks closed and flushed at
//! every snapshot, so a process killed at any moment leaves a file that reads up to its last
//! complete second ([`reader`] recovers truncated files).
//!
//! - [`header`]: the header and the files it carries.
//! - [`writer`]: the recorder draining a session's journal into the file.
//! - [`reader`]: reading a log back, truncated or not.
//! - [`replay`](mod@replay): re-simulating a log from its inputs and checking every snapshot.
//! - [`report`]: the after-action report (HTML with plots).
//! - [`progress`]: a progress bar on the terminal.

pub mod cdr;
pub mod foxglove;
pub mod header;
pub mod progress;
pub mod reader;
pub mod replay;
pub mod report;
pub mod writer;

pub use header::{LogHeader, LoggedFile};
pub use reader::Log;
pub use replay::{replay, ReplayOutcome};
pub use writer::LogWriter;

use std::path::PathBuf;

/// Topic of the header.
pub const TOPIC_HEADER: &str = "/header";
/// Topic of the inputs.
pub const TOPIC_INPUT: &str = "/input";
/// Topic of the state snapshots.
pub const TOPIC_SNAPSHOT: &str = "/snapshot";
/// Topic of the telemetry.
pub const TOPIC_TELEMETRY: &str = "/telemetry";
/// Topic of the events.
pub const TOPIC_EVENT: &str = "/event";
/// Topic of the end record.
pub const TOPIC_END: &str = "/end";

/// What can go wrong with a log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The log file.
        path: PathBuf,
        /// What the system said (in the message, not a separate source: said once).
        error: std::io::Error,
    },
    /// The MCAP layer refused to write.
    #[error("{path}: writing MCAP: {message}")]
    Write {
        /// The log file.
        path: PathBuf,
        /// What the `mcap` crate said.
        message: String,
    },
    /// The file is not a readable treadsim log.
    #[error("{path}: {message}")]
    Malformed {
        /// The log file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// The log was written by another version of the program, whose physics may differ.
    #[error("{path}: recorded by treadsim {recorded}, this is treadsim {running}: a replay would not reproduce it")]
    Version {
        /// The log file.
        path: PathBuf,
        /// Version that wrote it.
        recorded: String,
        /// This program's version.
        running: String,
    },
    /// An input file of the run has changed (or is gone) since it was recorded.
    #[error("{path}: the {role} file {file} {problem}")]
    FileChanged {
        /// The log file.
        path: PathBuf,
        /// Scene, robot or exercise.
        role: String,
        /// The input file as recorded.
        file: PathBuf,
        /// How it differs.
        problem: String,
    },
    /// The run cannot be set up again.
    #[error("{path}: {message}")]
    Setup {
        /// The log file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// The stem of a file's name (`scenes/stairs_35.toml` → `stairs_35`), or `log` if it has none:
/// logs are named after their exercise or scene, report files after their log.
pub fn file_stem(path: &std::path::Path) -> String {
    path.file_stem()
        .map_or_else(|| "log".into(), |s| s.to_string_lossy().into_owned())
}

/// Now, s since the Unix epoch (the wall clock).
pub fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Where the log of a session on `file` (its exercise, else its scene) goes by default:
/// `logs/<file stem>-<YYYYMMDD>-<HHMMSS>.mcap` (UTC now).
pub fn default_log_path(file: &std::path::Path) -> PathBuf {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let [year, month, day, hour, minute, second] = utc_date(now);
    PathBuf::from("logs").join(format!(
        "{}-{year:04}{month:02}{day:02}-{hour:02}{minute:02}{second:02}.mcap",
        file_stem(file)
    ))
}

/// The UTC calendar date and time of a Unix time (s): `[year, month, day, hour, minute,
/// second]` (Howard Hinnant's days-to-civil algorithm; logs are named and reports dated with
/// it without a calendar library).
pub fn utc_date(unix_s: u64) -> [i64; 6] {
    let days = (unix_s / 86_400) as i64;
    let secs = (unix_s % 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year, month, day, secs / 3600, secs / 60 % 60, secs % 60]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_are_civil_dates() {
        assert_eq!(utc_date(0), [1970, 1, 1, 0, 0, 0]);
        // 2026-11-22 21:32:19 UTC and a leap day.
        assert_eq!(utc_date(1_795_383_139), [2026, 11, 22, 21, 32, 19]);
        assert_eq!(utc_date(951_782_400), [2000, 2, 29, 0, 0, 0]);
    }
}
