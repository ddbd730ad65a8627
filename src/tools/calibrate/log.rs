//! A robot's recorded drive, as `treadsim calibrate` reads it: CSV with a header line (below),
//! or a ROS 2 bag in MCAP ([`super::bag`]).
//!
//! Columns (any order, others ignored, so the simulator's own telemetry is a valid log):
//! - `t`: time, s, strictly increasing;
//! - `x`, `y`: the robot's position on the floor, m, in any fixed world frame (motion capture,
//!   or odometry good enough for the purpose);
//! - `yaw`: its heading in that frame, rad, counter-clockwise (unwrapped or wrapped: steps over
//!   π between rows are taken as wraps);
//! - per main track of the robot file, by its name: `<track>_command`, the belt speed the
//!   operator or controller commanded, m/s — or, where commands were not recorded,
//!   `<track>_belt_speed`, the measured belt speed (encoders), m/s. With commands the motor's
//!   limits can be fitted too; with measured speeds the motor is driven to what was measured.
//!
//! The log should begin with the robot standing still: the simulation starts from rest.

use std::path::Path;

use crate::config::ConfigError;
use crate::control::agent::wrap_pi;
use crate::control::kinematic::PlanarPose;
use crate::vehicle::RobotSpec;

/// Largest log read, bytes (an hour at 100 Hz with every telemetry column is about 40 MB).
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// Fewest rows a log must have to fit anything.
pub const MIN_ROWS: usize = 20;

/// What a log's track columns hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackInput {
    /// `<track>_command`: commanded belt speeds.
    Commanded,
    /// `<track>_belt_speed`: measured belt speeds.
    Measured,
}

/// A recorded drive: per row the time, the pose and each main track's speed.
#[derive(Debug, Clone, PartialEq)]
pub struct DriveLog {
    /// Times, s, strictly increasing.
    pub times: Vec<f64>,
    /// Poses on the floor, world frame of the log (m, rad; yaw unwrapped).
    pub poses: Vec<PlanarPose>,
    /// Per row, the belt speed of each main track in the robot file's order, m/s.
    pub speeds: Vec<Vec<f64>>,
    /// Whether the speeds were commanded or measured.
    pub input: TrackInput,
}

impl DriveLog {
    /// Reads the log at `path` for the robot `spec`: a ROS 2 bag in MCAP ([`super::bag`]) or
    /// CSV ([`DriveLog::parse`]), told apart by the file's first bytes.
    pub fn read(path: &Path, spec: &RobotSpec) -> Result<Self, ConfigError> {
        let whole = |message: String| ConfigError::whole_file(path, message);
        let size = std::fs::metadata(path)
            .map_err(|e| whole(format!("cannot read: {e}")))?
            .len();
        if size > MAX_LOG_BYTES {
            return Err(whole(format!(
                "{size} bytes, more than the {MAX_LOG_BYTES} a log may have"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| whole(format!("cannot read: {e}")))?;
        if super::bag::is_mcap(&bytes) {
            return super::bag::read_bag(path, &bytes, spec);
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| whole(format!("neither an MCAP bag nor CSV text ({e})")))?;
        let tracks: Vec<String> = spec.tracks.iter().map(|t| t.name.clone()).collect();
        Self::parse(path, &text, &tracks)
    }

    /// Parses log text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str, tracks: &[String]) -> Result<Self, ConfigError> {
        let mut lines = text.lines().enumerate();
        let Some((_, header)) = lines.next() else {
            return Err(located(path, 1, 1, "", "empty log: no header line".into()));
        };
        let columns = Columns::of(path, header, tracks)?;
        let mut log = DriveLog {
            times: Vec::new(),
            poses: Vec::new(),
            speeds: Vec::new(),
            input: columns.input,
        };
        for (index, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let row = columns.row(path, index + 1, line)?;
            if let Some(&before) = log.times.last() {
                if row.t <= before {
                    return Err(located(
                        path,
                        index + 1,
                        row.t_column,
                        "t",
                        format!(
                            "time {} s does not follow {before} s (times must increase)",
                            row.t
                        ),
                    ));
                }
            }
            log.times.push(row.t);
            log.poses.push(row.pose);
            log.speeds.push(row.speeds);
        }
        if log.times.len() < MIN_ROWS {
            let message = format!(
                "{} rows of data, fewer than the {MIN_ROWS} a fit needs",
                log.times.len()
            );
            return Err(ConfigError::whole_file(path, message));
        }
        unwrap_yaw(&mut log.poses);
        Ok(log)
    }

    /// Duration from the first row to the last, s.
    pub fn duration(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0) - self.times.first().copied().unwrap_or(0.0)
    }
}

/// Makes a sequence of headings continuous: a step of more than π between neighbours is a
/// wrap of the angle (recorded or the body's Euler yaw, both wrap at ±π).
pub fn unwrap_yaw(poses: &mut [PlanarPose]) {
    for k in 1..poses.len() {
        let step = wrap_pi(poses[k].yaw - poses[k - 1].yaw);
        poses[k].yaw = poses[k - 1].yaw + step;
    }
}

/// An error at `line`, `column` (1-based; 0, 0: the whole file) of the log at `path`.
fn located(path: &Path, line: usize, column: usize, field: &str, message: String) -> ConfigError {
    ConfigError {
        path: path.to_path_buf(),
        line,
        column,
        field: field.to_string(),
        message,
    }
}

/// Where a log's header puts the columns the fit reads.
struct Columns<'h> {
    names: Vec<&'h str>,
    t: usize,
    x: usize,
    y: usize,
    yaw: usize,
    tracks: Vec<usize>,
    input: TrackInput,
}

/// One data row as read (yaw as recorded, not yet unwrapped).
struct Row {
    t: f64,
    /// 1-based character column of the time cell.
    t_column: usize,
    pose: PlanarPose,
    speeds: Vec<f64>,
}

impl<'h> Columns<'h> {
    /// The columns of `header`, for a robot whose main tracks are named `tracks`.
    fn of(path: &Path, header: &'h str, tracks: &[String]) -> Result<Self, ConfigError> {
        let names: Vec<&str> = header.split(',').map(str::trim).collect();
        let require = |name: &str| {
            names.iter().position(|n| *n == name).ok_or_else(|| {
                let message =
                    format!("no column '{name}' in the header (see `treadsim calibrate --help`)");
                located(path, 1, 1, name, message)
            })
        };
        let (t, x, y, yaw) = (require("t")?, require("x")?, require("y")?, require("yaw")?);
        let (input, track_cols) =
            track_columns(&names, tracks).map_err(|message| located(path, 1, 1, "", message))?;
        Ok(Self {
            names,
            t,
            x,
            y,
            yaw,
            tracks: track_cols,
            input,
        })
    }

    /// Reads data line `line` (its 1-based number `number`).
    fn row(&self, path: &Path, number: usize, line: &str) -> Result<Row, ConfigError> {
        let cells = split_cells(line);
        let cell = |col: usize| -> Result<f64, ConfigError> {
            let name = self.names[col];
            let Some(&(start, text)) = cells.get(col) else {
                let end = line.chars().count() + 1;
                return Err(located(path, number, end, name, "missing value".into()));
            };
            let text = text.trim();
            match text.parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(value),
                Ok(value) => Err(located(
                    path,
                    number,
                    start + 1,
                    name,
                    format!("{value} is not finite"),
                )),
                Err(_) => Err(located(
                    path,
                    number,
                    start + 1,
                    name,
                    format!("'{text}' is not a number"),
                )),
            }
        };
        Ok(Row {
            t: cell(self.t)?,
            t_column: cells.get(self.t).map_or(1, |c| c.0 + 1),
            pose: PlanarPose {
                x: cell(self.x)?,
                y: cell(self.y)?,
                yaw: cell(self.yaw)?,
            },
            speeds: self
                .tracks
                .iter()
                .map(|&c| cell(c))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// The cells of a CSV line with their character columns (0-based). No quoting: a log's
/// cells are numbers.
fn split_cells(line: &str) -> Vec<(usize, &str)> {
    let mut cells = Vec::new();
    let mut column = 0;
    for cell in line.split(',') {
        cells.push((column, cell));
        column += cell.chars().count() + 1;
    }
    cells
}

/// The column of each track's speed and what they hold: every track's `_command` column if all
/// are there, else every track's `_belt_speed`.
fn track_columns(names: &[&str], tracks: &[String]) -> Result<(TrackInput, Vec<usize>), String> {
    let find = |suffix: &str| -> Option<Vec<usize>> {
        tracks
            .iter()
            .map(|t| names.iter().position(|n| *n == format!("{t}_{suffix}")))
            .collect()
    };
    if let Some(cols) = find("command") {
        return Ok((TrackInput::Commanded, cols));
    }
    if let Some(cols) = find("belt_speed") {
        return Ok((TrackInput::Measured, cols));
    }
    let wanted: Vec<String> = tracks.iter().map(|t| format!("{t}_command")).collect();
    Err(format!(
        "no track speeds: the header needs {} (commanded, m/s) or the same with _belt_speed \
         (measured, m/s)",
        wanted.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracks() -> Vec<String> {
        vec!["left".into(), "right".into()]
    }

    fn rows(n: usize) -> String {
        let mut s = String::from("t,x,y,yaw,left_command,right_command\n");
        for i in 0..n {
            let t = i as f64 * 0.1;
            s.push_str(&format!("{t},{},{},0.1,0.5,0.5\n", 0.5 * t, 0.0));
        }
        s
    }

    #[test]
    fn reads_commands_and_poses() {
        let log = DriveLog::parse(Path::new("a.csv"), &rows(30), &tracks()).unwrap();
        assert_eq!(log.input, TrackInput::Commanded);
        assert_eq!(log.times.len(), 30);
        assert_eq!(log.speeds[3], vec![0.5, 0.5]);
        assert!((log.duration() - 2.9).abs() < 1e-12);
    }

    #[test]
    fn yaw_is_unwrapped_across_pi() {
        let mut s = String::from("t,x,y,yaw,left_belt_speed,right_belt_speed\n");
        for i in 0..30 {
            let yaw = 3.0 + 0.1 * i as f64;
            let wrapped = (yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                - std::f64::consts::PI;
            s.push_str(&format!("{},0,0,{wrapped},0.1,-0.1\n", i as f64 * 0.1));
        }
        let log = DriveLog::parse(Path::new("a.csv"), &s, &tracks()).unwrap();
        assert_eq!(log.input, TrackInput::Measured);
        let last = log.poses.last().unwrap().yaw;
        assert!((last - 5.9).abs() < 1e-9, "{last}");
    }

    /// Bad logs name the file, line, column and field.
    #[test]
    fn bad_logs_are_located() {
        let good = rows(30);
        let cases: [(&str, String, &str); 5] = [
            (
                "missing column",
                good.replace("yaw,", "heading,"),
                "a.csv:1:1: yaw: no column",
            ),
            (
                "no tracks",
                good.replace("left_command", "l"),
                "a.csv:1:1: no track speeds: the header needs left_command, right_command",
            ),
            (
                "not a number",
                good.replace("0.30000000000000004,0.15000000000000002", "0.3,abc"),
                "a.csv:5:5: x: 'abc' is not a number",
            ),
            (
                "time backwards",
                good.replace("\n0.5,", "\n0.1,"),
                "a.csv:7:1: t: time 0.1 s does not follow 0.4 s",
            ),
            (
                "too short",
                rows(5),
                "a.csv: 5 rows of data, fewer than the 20",
            ),
        ];
        for (what, text, want) in cases {
            let e = DriveLog::parse(Path::new("a.csv"), &text, &tracks()).unwrap_err();
            assert!(e.to_string().starts_with(want), "{what}: {e}");
        }
    }
}
