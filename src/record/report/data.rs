//! What a report shows of one log, taken out of it: time series from the telemetry, the
//! events, the result, and the scene, robot and exercise rebuilt from the files' text the log
//! carries (so a report needs nothing but the log).

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use serde_json::Value;

use crate::config::SourceFile;
use crate::exercise::{Exercise, ExerciseSpec};
use crate::record::reader::LogEvent;
use crate::record::Log;
use crate::scene::Scene;
use crate::sim::f64_of_json;
use crate::vehicle::robot_file::robot_from_source;
use crate::vehicle::stability::{Tilt, TipLimits};
use crate::vehicle::RobotSpec;

/// One track's series.
#[derive(Debug, Clone, Default)]
pub struct TrackSeries {
    /// Track name.
    pub name: String,
    /// Belt speed, m/s.
    pub belt_speed: Vec<f64>,
    /// Commanded belt speed (after the link, within the motor's limit), m/s.
    pub commanded: Vec<f64>,
    /// Motor torque, N·m.
    pub torque: Vec<f64>,
    /// Sum of normal forces, N.
    pub normal: Vec<f64>,
}

/// Time series of one run, one entry per telemetry sample.
#[derive(Debug, Clone, Default)]
pub struct Series {
    /// Simulation time, s.
    pub time: Vec<f64>,
    /// Body origin, world x, m.
    pub x: Vec<f64>,
    /// Body origin, world y, m.
    pub y: Vec<f64>,
    /// Nose-up tilt against gravity, rad ([`Tilt`]).
    pub nose_up: Vec<f64>,
    /// Left-side-up tilt against gravity, rad.
    pub left_up: Vec<f64>,
    /// Per track.
    pub tracks: Vec<TrackSeries>,
}

impl Series {
    /// The series of a log's telemetry (samples that cannot be read are skipped).
    pub fn of(log: &Log) -> Self {
        let mut s = Series {
            tracks: log
                .header
                .tracks
                .iter()
                .map(|name| TrackSeries {
                    name: name.clone(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let num = |v: &Value, path: &[&str]| -> Option<f64> {
            path.iter()
                .try_fold(v, |v, k| v.get(k))
                .and_then(f64_of_json)
        };
        for sample in &log.telemetry {
            let (Some(t), Some(x), Some(y), Some(z), Some(roll), Some(pitch), Some(yaw)) = (
                num(sample, &["time"]),
                num(sample, &["position", "x"]),
                num(sample, &["position", "y"]),
                num(sample, &["position", "z"]),
                num(sample, &["roll"]),
                num(sample, &["pitch"]),
                num(sample, &["yaw"]),
            ) else {
                continue;
            };
            let pose = Isometry3::from_parts(
                Translation3::new(x, y, z),
                UnitQuaternion::from_euler_angles(roll, pitch, yaw),
            );
            let tilt = Tilt::of(&pose);
            s.time.push(t);
            s.x.push(x);
            s.y.push(y);
            s.nose_up.push(tilt.nose_up);
            s.left_up.push(tilt.left_up);
            for track in &mut s.tracks {
                let get =
                    |key: &str| num(sample, &["tracks", &track.name, key]).unwrap_or(f64::NAN);
                track.belt_speed.push(get("belt_speed"));
                track.commanded.push(get("commanded_speed"));
                track.torque.push(get("motor_torque"));
                track.normal.push(get("normal_force"));
            }
        }
        s
    }

    /// The robot's position (world x, y, m) at the last sample at or before `t` (s).
    pub fn position_at(&self, t: f64) -> Option<(f64, f64)> {
        let i = self.time.partition_point(|s| *s <= t).checked_sub(1)?;
        Some((self.x[i], self.y[i]))
    }
}

/// Everything a report shows of one log.
#[derive(Debug, Clone)]
pub struct RunData {
    /// The log's file name.
    pub name: String,
    /// The log.
    pub log: Log,
    /// Its time series.
    pub series: Series,
    /// The scene, rebuilt from the log (`None` if its text no longer reads).
    pub scene: Option<Scene>,
    /// The robot, rebuilt from the log.
    pub robot: Option<RobotSpec>,
    /// The exercise, rebuilt from the log, for a trial.
    pub exercise: Option<Exercise>,
    /// The robot's static tip-over limits.
    pub tip: Option<TipLimits>,
    /// Problems rebuilding the scene, robot or exercise (shown in the report).
    pub notes: Vec<String>,
}

impl RunData {
    /// Takes a log apart for the report.
    pub fn of(log: Log) -> Self {
        let mut notes = Vec::new();
        let header = &log.header;
        let source = |role: &str| {
            header
                .file(role)
                .map(|f| SourceFile::from_text(&f.path, f.text.clone()))
        };
        let scene = source("scene").and_then(|f| {
            Scene::from_source(&f)
                .map_err(|e| notes.push(format!("scene not drawn: {e}")))
                .ok()
        });
        let robot = source("robot").and_then(|f| {
            robot_from_source(&f)
                .map_err(|e| notes.push(format!("robot not read: {e}")))
                .ok()
        });
        let exercise = match (source("exercise"), &scene, &robot) {
            (Some(f), Some(scene), Some(robot)) => ExerciseSpec::from_source(&f)
                .and_then(|spec| Exercise::resolve(spec, scene.clone(), robot.clone()))
                .map_err(|e| notes.push(format!("exercise not read: {e}")))
                .ok(),
            _ => None,
        };
        let tip = robot.as_ref().map(TipLimits::from_spec);
        let name = log
            .path
            .file_name()
            .map_or_else(|| "log".into(), |n| n.to_string_lossy().into_owned());
        let series = Series::of(&log);
        Self {
            name,
            series,
            scene,
            robot,
            exercise,
            tip,
            notes,
            log,
        }
    }

    /// Events of the exercise and the simulation, in order.
    pub fn events(&self) -> &[LogEvent] {
        &self.log.events
    }

    /// A number of the trial's logged result (`score`, `faults`, …).
    pub fn result_number(&self, key: &str) -> Option<f64> {
        self.log
            .end
            .as_ref()?
            .result
            .as_ref()?
            .get(key)
            .and_then(Value::as_f64)
    }

    /// What the run is, for headings: the exercise's name, or robot on scene.
    pub fn title(&self) -> String {
        let h = &self.log.header;
        match &h.exercise_name {
            Some(e) => e.clone(),
            None => format!("{} on {}", h.robot_name, h.scene_name),
        }
    }
}
