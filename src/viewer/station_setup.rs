//! What the station loads before its window opens (so file errors come out first and
//! clearly): the session — free driving, an exercise's trial, or a log to replay —, the input
//! mapper, a drive script and the session's log.

use std::path::PathBuf;

use super::cameras::views;
use super::render_path::RenderPath;
use super::replay::ReplayCursor;
use super::ViewerError;
use crate::config::SourceFile;
use crate::input::{load_mapping, InputMapper, MappingConfig};
use crate::launch::{open, Launch, LaunchOptions, LogTarget};
use crate::record::LogWriter;
use crate::session::{script_driver, Session};
use crate::vehicle::RobotSpec;

/// Default render scale on a software renderer.
pub const SOFTWARE_RENDER_SCALE: f64 = 0.5;

/// What `treadsim station` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct StationOptions {
    /// Scene file.
    pub scene: PathBuf,
    /// Robot file.
    pub robot: PathBuf,
    /// Spawn name (default: the scene's first).
    pub spawn: Option<String>,
    /// Input mapping file (default: the built-in mapping, `scenes/input/default_mapping.toml`).
    pub mapping: Option<PathBuf>,
    /// Start in trainee mode and lock it.
    pub trainee: bool,
    /// Drive from this script instead of the operator's sticks (demos, screenshots): timed
    /// commands or goals for the autopilot; station actions still work.
    pub script: Option<PathBuf>,
    /// Window size, pixels.
    pub width: u32,
    /// Window height, pixels.
    pub height: u32,
    /// Close after this much wall time, s (measurements, screenshots).
    pub quit_after: Option<f64>,
    /// Save the window (3D view and panel) to this PNG when closing.
    pub screenshot: Option<PathBuf>,
    /// Start with this view in the main window (default: the robot's first camera).
    pub view: Option<String>,
    /// Picture-in-picture view at start: a view name or `off` (default: `rear`, else the
    /// next view).
    pub pip: Option<String>,
    /// An exercise to run as a scored trial (its scene, robot and spawn replace the ones
    /// above; trainee-mode rules lock trainee mode).
    pub exercise: Option<PathBuf>,
    /// Another robot to run the exercise with (`--robot` with `--exercise`).
    pub exercise_robot: Option<PathBuf>,
    /// The session's log (MCAP); `None`: `logs/<exercise or scene>-<date>-<time>.mcap`.
    pub log: Option<PathBuf>,
    /// Write no log.
    pub no_log: bool,
    /// Replay this log instead of driving (any view; play, pause, speed, seek).
    pub replay: Option<PathBuf>,
    /// Resolution of the 3D views relative to the window, (0, 1]; `None`: 1 on a GPU,
    /// [`SOFTWARE_RENDER_SCALE`] on a software renderer (Mesa llvmpipe/lavapipe), where
    /// shading cost grows with the pixel count and a full-size view drops under 2 frames/s.
    pub render_scale: Option<f64>,
    /// How the 3D views are drawn; `None`: [`RenderPath::Fast`] on a software renderer,
    /// [`RenderPath::Full`] on a GPU (see [`RenderPath::for_device`]).
    pub render_path: Option<RenderPath>,
}

/// Everything loaded before a window opens, so file errors come out first and clearly.
pub(super) struct Setup {
    pub(super) session: Session,
    pub(super) mapper: InputMapper,
    /// The drive script (timed commands or goals), read and checked against the robot.
    pub(super) script: Option<SourceFile>,
    /// The session's log, started.
    pub(super) log: Option<LogWriter>,
    /// Trainee mode is required (by the options or the exercise's rules).
    pub(super) trainee: bool,
    /// The log being replayed (`--replay`).
    pub(super) replay: Option<ReplayCursor>,
}

/// Loads what the station needs, checking the options first: the session (through the one
/// launcher), the mapper, the script, the views asked for; the log starts last, so a refused
/// start leaves none behind.
pub(super) fn setup(o: &StationOptions) -> Result<Setup, ViewerError> {
    check_options(o)?;
    let what = match (&o.replay, &o.exercise) {
        (Some(log), _) => Launch::Replay { log: log.clone() },
        (None, Some(exercise)) => Launch::Exercise {
            exercise: exercise.clone(),
            robot: o.exercise_robot.clone(),
        },
        (None, None) => Launch::Free {
            scene: o.scene.clone(),
            robot: o.robot.clone(),
            spawn: o.spawn.clone(),
        },
    };
    let mut launched = open(&what)?;
    let robot = launched.robot().clone();
    if let Some(log) = launched.replayed.take() {
        // A replay is watched, not driven: any view, the built-in mapping, no log of its own.
        let mut mapper = InputMapper::new(MappingConfig::default())
            .map_err(|e| ViewerError::Mapping(e.to_string()))?;
        sync_flippers(&mut mapper, &robot);
        sync_steering(&mut mapper, &robot);
        return Ok(Setup {
            session: launched.session,
            mapper,
            script: None,
            log: None,
            trainee: false,
            replay: Some(ReplayCursor::new(log)),
        });
    }
    let trainee = o.trainee
        || launched
            .exercise
            .as_ref()
            .is_some_and(|e| e.spec.rules.trainee);
    let mapping = match &o.mapping {
        Some(p) => load_mapping(p)?,
        None => MappingConfig::default(),
    };
    let mut mapper = InputMapper::new(mapping).map_err(|e| ViewerError::Mapping(e.to_string()))?;
    // An exercise's speed limit is where the control unit's speed selector stands.
    mapper.set_speed_limit(
        launched
            .exercise
            .as_ref()
            .and_then(|e| e.spec.rules.speed_limit),
    );
    let script = o.script.as_deref().map(SourceFile::read).transpose()?;
    if let Some(file) = &script {
        // Checked now, so a bad script is refused before the window opens.
        script_driver(file, &robot, false)?;
    }
    check_views(o, &robot, trainee)?;
    sync_flippers(&mut mapper, &robot);
    sync_steering(&mut mapper, &robot);
    let options = LaunchOptions {
        log: LogTarget::from_options(o.log.as_deref(), o.no_log),
        program: "station",
        script: o.script.clone(),
    };
    launched.start_log(&what, &options)?;
    Ok(Setup {
        session: launched.session,
        mapper,
        script,
        log: launched.log,
        trainee,
        replay: None,
    })
}

/// The window size, render scale and closing time asked for are in range.
fn check_options(o: &StationOptions) -> Result<(), ViewerError> {
    if !(320..=7680).contains(&o.width) || !(240..=4320).contains(&o.height) {
        return Err(ViewerError::Argument(format!(
            "window size must be 320..=7680 x 240..=4320 pixels, got {}x{}",
            o.width, o.height
        )));
    }
    if let Some(r) = o.render_scale {
        if !(r.is_finite() && r > 0.0 && r <= 1.0) {
            return Err(ViewerError::Argument(format!(
                "--render-scale must be greater than 0 and at most 1, got {r}"
            )));
        }
    }
    if let Some(q) = o.quit_after {
        if !(q.is_finite() && q > 0.0) {
            return Err(ViewerError::Argument(format!(
                "--quit-after must be greater than 0 s, got {q}"
            )));
        }
    }
    Ok(())
}

/// The main and picture-in-picture views asked for exist, and neither is a third-person view
/// in trainee mode.
fn check_views(o: &StationOptions, robot: &RobotSpec, trainee: bool) -> Result<(), ViewerError> {
    let pip = o.pip.as_ref().filter(|p| p.as_str() != "off");
    let names = views(robot);
    for v in [o.view.as_ref(), pip].into_iter().flatten() {
        let Some(view) = names.iter().find(|n| &n.name == v) else {
            return Err(ViewerError::UnknownCamera {
                robot: robot.name.clone(),
                name: v.clone(),
                have: names
                    .iter()
                    .map(|n| n.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        if trainee && view.kind.is_third_person() {
            return Err(ViewerError::Argument(format!(
                "{v} is a third-person view, hidden in trainee mode"
            )));
        }
    }
    Ok(())
}

/// Tells the mapper how the robot steers: an Ackermann robot's stick turn becomes a steering
/// angle.
pub(super) fn sync_steering(mapper: &mut InputMapper, robot: &crate::vehicle::RobotSpec) {
    mapper.set_steering(match robot.steering {
        crate::vehicle::spec::Steering::Ackermann { max_angle, .. } => Some(max_angle),
        crate::vehicle::spec::Steering::Skid => None,
    });
}

/// Tells the mapper the robot's flipper range and starts its target at the robot's initial
/// angle, so the first press moves from where the flippers are.
pub(super) fn sync_flippers(mapper: &mut InputMapper, robot: &crate::vehicle::RobotSpec) {
    if robot.flippers.is_empty() {
        return;
    }
    let (lo, hi) = robot
        .flippers
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), f| {
            (a.min(f.min_angle), b.max(f.max_angle))
        });
    mapper.set_flipper_range(lo, hi);
    let initial =
        robot.flippers.iter().map(|f| f.initial_angle).sum::<f64>() / robot.flippers.len() as f64;
    mapper.set_flipper_target(Some(initial));
}
