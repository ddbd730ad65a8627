//! One way to start a session, for every front end (the station, `shot`, `run`, `replay`):
//! what to run — free driving, an exercise's trial, or a log set up again — and where its log
//! goes. The spawn comes from the scene's one rule ([`Scene::spawn_named`]); the log is named
//! by one rule (`logs/<exercise or scene>-<date>-<time>.mcap` unless a path is given); its
//! header names the input files in one place ([`Launched::input_files`]).

use std::path::{Path, PathBuf};

use crate::config::ConfigError;
use crate::exercise::Exercise;
use crate::record::replay::session_from_log;
use crate::record::{default_log_path, Log, LogError, LogWriter};
use crate::scene::{Scene, UnknownSpawn};
use crate::session::Session;
use crate::sim::{SimConfig, SimError};
use crate::vehicle::robot_file::load_robot;
use crate::vehicle::RobotSpec;

/// What session to start.
#[derive(Debug, Clone, PartialEq)]
pub enum Launch {
    /// Free driving: the robot file's robot on the scene file's scene, at the spawn called
    /// `spawn` (`None`: the scene's first).
    Free {
        /// Scene file.
        scene: PathBuf,
        /// Robot file.
        robot: PathBuf,
        /// Spawn name.
        spawn: Option<String>,
    },
    /// A scored trial of the exercise file's exercise (its scene and spawn, and its robot
    /// unless another is given).
    Exercise {
        /// Exercise file.
        exercise: PathBuf,
        /// Another robot file to run it with.
        robot: Option<PathBuf>,
    },
    /// The session a log was recorded from, set up again at its start to replay it (a replay
    /// is watched, never logged).
    Replay {
        /// The log (MCAP).
        log: PathBuf,
    },
}

/// Where a session's log goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LogTarget {
    /// No log.
    None,
    /// `logs/<exercise or scene>-<date>-<time>.mcap`.
    #[default]
    Default,
    /// This file.
    At(PathBuf),
}

impl LogTarget {
    /// The target of the command-line options `--log PATH` and `--no-log`.
    pub fn from_options(log: Option<&Path>, no_log: bool) -> Self {
        match (no_log, log) {
            (true, _) => LogTarget::None,
            (false, Some(path)) => LogTarget::At(path.to_path_buf()),
            (false, None) => LogTarget::Default,
        }
    }
}

/// How to start the session besides what it is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaunchOptions {
    /// Where the log goes (ignored for a replay).
    pub log: LogTarget,
    /// The program named in the log's header: `station` or `run`.
    pub program: &'static str,
    /// A drive script the session will follow, named among the log's input files.
    pub script: Option<PathBuf>,
}

/// A started session, with what it was started from.
pub struct Launched {
    /// The session, at its start.
    pub session: Session,
    /// Its log, started (none for a replay or when asked for none).
    pub log: Option<LogWriter>,
    /// The exercise, for a trial.
    pub exercise: Option<Exercise>,
    /// The log read back, for a replay.
    pub replayed: Option<Log>,
    /// The input files the log's header names, `(role, path)`: `exercise`, `scene`, `robot`,
    /// `script`.
    pub input_files: Vec<(&'static str, PathBuf)>,
}

/// Why a session could not be started.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// An input file is missing or wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The spawn asked for is not in the scene.
    #[error(transparent)]
    Spawn(#[from] UnknownSpawn),
    /// The simulation refused the robot or the scene.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The log could not be read or started.
    #[error(transparent)]
    Log(#[from] LogError),
}

/// Starts the session `what` asks for, with its log as `options` say.
pub fn launch(what: &Launch, options: &LaunchOptions) -> Result<Launched, LaunchError> {
    let mut launched = open(what)?;
    launched.start_log(what, options)?;
    Ok(launched)
}

/// Sets the session `what` asks for up at its start, with no log yet: a front end that has
/// more to check first (a mapping, the views asked for) starts the log after, so a refused
/// start leaves no log behind.
pub fn open(what: &Launch) -> Result<Launched, LaunchError> {
    let config = SimConfig::default();
    Ok(match what {
        Launch::Free {
            scene,
            robot,
            spawn,
        } => {
            let scene_file = Scene::load(scene)?;
            let robot_file = load_robot(robot)?;
            let at = scene_file.spawn_named(spawn.as_deref())?;
            Launched {
                session: Session::free(scene_file, robot_file, at, config)?,
                log: None,
                exercise: None,
                replayed: None,
                input_files: vec![("scene", scene.clone()), ("robot", robot.clone())],
            }
        }
        Launch::Exercise { exercise, robot } => {
            let exercise = exercise_file(exercise);
            let loaded = Exercise::load_with_robot(&exercise, robot.as_deref())?;
            let input_files = vec![
                ("exercise", exercise.clone()),
                ("scene", loaded.spec.scene.clone()),
                ("robot", loaded.spec.robot.clone()),
            ];
            Launched {
                session: Session::exercise(&loaded, config)?,
                log: None,
                exercise: Some(loaded),
                replayed: None,
                input_files,
            }
        }
        Launch::Replay { log } => {
            let read = Log::read(log)?;
            Launched {
                session: session_from_log(&read)?,
                log: None,
                exercise: None,
                replayed: Some(read),
                input_files: Vec::new(),
            }
        }
    })
}

impl Launched {
    /// The description of the session's robot.
    pub fn robot(&self) -> &RobotSpec {
        self.session.sim().robot(self.session.robot()).spec()
    }

    /// Starts the session's log as `options` say (none for a replay), its header naming the
    /// input files and the drive script, if any.
    pub fn start_log(&mut self, what: &Launch, options: &LaunchOptions) -> Result<(), LaunchError> {
        let Some(path) = log_path(what, &options.log) else {
            return Ok(());
        };
        if let Some(script) = &options.script {
            self.input_files.push(("script", script.clone()));
        }
        let named: Vec<(&str, &Path)> = self
            .input_files
            .iter()
            .map(|(role, path)| (*role, path.as_path()))
            .collect();
        self.log = Some(LogWriter::start(
            &mut self.session,
            &path,
            options.program,
            &named,
        )?);
        Ok(())
    }
}

/// The library's exercises, by name (`treadsim run --exercise stairs_35`).
pub const EXERCISE_FOLDER: &str = "scenes/exercises";

/// The exercise file `name` means: the file itself when it exists or names a folder or an
/// extension; else, a bare name, the library's `scenes/exercises/<name>.toml` (whose folder a
/// missing name's error then lists).
pub fn exercise_file(name: &Path) -> PathBuf {
    let bare = name.parent().is_none_or(|p| p.as_os_str().is_empty()) && name.extension().is_none();
    if name.exists() || !bare {
        return name.to_path_buf();
    }
    Path::new(EXERCISE_FOLDER).join(name).with_extension("toml")
}

/// The log file of a session: the one asked for, or by default one named after the exercise,
/// else the scene; none for a replay.
pub fn log_path(what: &Launch, target: &LogTarget) -> Option<PathBuf> {
    let named_after = match what {
        Launch::Free { scene, .. } => scene,
        Launch::Exercise { exercise, .. } => exercise,
        Launch::Replay { .. } => return None,
    };
    match target {
        LogTarget::None => None,
        LogTarget::Default => Some(default_log_path(named_after)),
        LogTarget::At(path) => Some(path.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(path: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    #[test]
    fn a_free_session_starts_at_the_named_spawn_or_the_first() {
        let free = |spawn: Option<&str>| Launch::Free {
            scene: asset("scenes/public_stairs.toml"),
            robot: asset("scenes/robots/scout.toml"),
            spawn: spawn.map(str::to_string),
        };
        let options = LaunchOptions {
            log: LogTarget::None,
            program: "run",
            script: None,
        };
        let first = launch(&free(None), &options).expect("launch");
        let scene = Scene::load(&asset("scenes/public_stairs.toml")).expect("scene");
        let expected = scene.spawns[0].position;
        let at = first
            .session
            .sim()
            .body_state(first.session.robot())
            .pose
            .translation;
        assert!((at.x - expected.x).abs() < 1e-9 && (at.y - expected.y).abs() < 1e-9);
        assert!(first.log.is_none());
        assert_eq!(
            first.input_files.iter().map(|f| f.0).collect::<Vec<_>>(),
            ["scene", "robot"]
        );
        let Err(LaunchError::Spawn(e)) = launch(&free(Some("nowhere")), &options) else {
            panic!("an unknown spawn is refused");
        };
        assert_eq!(e.name, "nowhere");
        assert!(e.to_string().contains("(have: "), "{e}");
    }

    /// A bare name is a library exercise; a missing one is reported without a position, with
    /// the library's exercises nearest the name.
    #[test]
    fn an_exercise_by_name_is_the_librarys_and_a_missing_one_lists_them() {
        assert_eq!(
            exercise_file(Path::new("stairs_35")),
            PathBuf::from("scenes/exercises/stairs_35.toml")
        );
        assert_eq!(
            exercise_file(Path::new("mine/stairs_35")),
            PathBuf::from("mine/stairs_35")
        );
        let launched = open(&Launch::Exercise {
            exercise: PathBuf::from("stairs_35"),
            robot: None,
        })
        .expect("the library's exercise");
        assert!(launched.exercise.is_some());
        assert_eq!(
            launched.input_files[0].1,
            PathBuf::from("scenes/exercises/stairs_35.toml")
        );
        let Err(e) = open(&Launch::Exercise {
            exercise: PathBuf::from("stairs_3"),
            robot: None,
        }) else {
            panic!("no such exercise");
        };
        let text = e.to_string();
        assert!(
            text.starts_with("scenes/exercises/stairs_3.toml: cannot read: no such file"),
            "{text}"
        );
        assert!(!text.contains(":1:1"), "{text}");
        assert!(
            text.contains("(scenes/exercises has: stairs_35.toml"),
            "{text}"
        );
    }

    #[test]
    fn logs_are_named_after_the_exercise_else_the_scene_unless_a_path_is_given() {
        let free = Launch::Free {
            scene: PathBuf::from("scenes/ramps.toml"),
            robot: PathBuf::from("scenes/robots/scout.toml"),
            spawn: None,
        };
        let exercise = Launch::Exercise {
            exercise: PathBuf::from("scenes/exercises/stairs_35.toml"),
            robot: None,
        };
        let default = |what: &Launch| {
            let path = log_path(what, &LogTarget::Default).expect("a log");
            let name = path
                .file_name()
                .expect("file")
                .to_string_lossy()
                .into_owned();
            (path.parent().map(Path::to_path_buf), name)
        };
        let (dir, name) = default(&free);
        assert_eq!(dir, Some(PathBuf::from("logs")));
        assert!(
            name.starts_with("ramps-") && name.ends_with(".mcap"),
            "{name}"
        );
        assert!(default(&exercise).1.starts_with("stairs_35-"));
        let at = LogTarget::At(PathBuf::from("mine.mcap"));
        assert_eq!(log_path(&free, &at), Some(PathBuf::from("mine.mcap")));
        assert_eq!(log_path(&free, &LogTarget::None), None);
        let replay = Launch::Replay {
            log: PathBuf::from("x.mcap"),
        };
        assert_eq!(log_path(&replay, &LogTarget::Default), None);
        assert_eq!(
            LogTarget::from_options(Some(Path::new("a.mcap")), false),
            LogTarget::At(PathBuf::from("a.mcap"))
        );
        assert_eq!(
            LogTarget::from_options(Some(Path::new("a.mcap")), true),
            LogTarget::None
        );
        assert_eq!(LogTarget::from_options(None, false), LogTarget::Default);
    }
}
