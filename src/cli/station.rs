//! `treadsim station` (the operator station in a window) and `treadsim shot` (what a camera
//! sees, rendered headless): their command-line arguments and what they print.

use std::path::PathBuf;

use treadsim::viewer::default_asset;
use treadsim::viewer::render_path::RenderPath;
use treadsim::viewer::shot::{shot, ShotArgs};
use treadsim::viewer::station::{run_station, StationOptions};

/// The default training exercise's scene: the 20 kg robot at the foot of the public stairs.
const DEFAULT_SCENE: &str = "scenes/public_stairs.toml";

/// The default training exercise's robot.
const DEFAULT_ROBOT: &str = "scenes/robots/scout.toml";

/// The scene and robot files of a free session, each defaulting to the training exercise's.
#[derive(clap::Args)]
pub struct SceneAndRobot {
    /// Scene file (TOML) [default: scenes/public_stairs.toml].
    #[arg(long)]
    scene: Option<PathBuf>,
    /// Robot file (TOML) [default: scenes/robots/scout.toml].
    #[arg(long)]
    robot: Option<PathBuf>,
}

impl SceneAndRobot {
    /// The files asked for, or the defaults (found beside the binary when not in the working
    /// folder).
    fn or_defaults(self) -> (PathBuf, PathBuf) {
        (
            self.scene.unwrap_or_else(|| default_asset(DEFAULT_SCENE)),
            self.robot.unwrap_or_else(|| default_asset(DEFAULT_ROBOT)),
        )
    }
}

/// Arguments of `treadsim station`.
#[derive(clap::Args)]
pub struct StationArgs {
    #[command(flatten)]
    files: SceneAndRobot,
    /// Spawn point name (default: the scene's first).
    #[arg(long)]
    spawn: Option<String>,
    /// Run an exercise (a file or a library name) as a scored trial (its scene and spawn,
    /// and its robot unless --robot names another): the goal's direction and distance over
    /// the view, repetitions, faults, clock, penalties, and the result at the end.
    #[arg(long, conflicts_with_all = ["scene", "spawn"])]
    exercise: Option<PathBuf>,
    /// The session's log (MCAP) [default: logs/<exercise or scene>-<date>-<time>.mcap].
    #[arg(long, conflicts_with = "no_log")]
    log: Option<PathBuf>,
    /// Write no log.
    #[arg(long)]
    no_log: bool,
    /// Replay a log (MCAP) instead of driving: any view, play/pause (Space or the
    /// button), speed (F3/F4), seek on the timeline, reset restarts it.
    #[arg(long, conflicts_with_all = ["scene", "robot", "spawn", "exercise", "script", "trainee", "log"])]
    replay: Option<PathBuf>,
    /// Input mapping (TOML; default: scenes/input/default_mapping.toml, built in).
    #[arg(long)]
    mapping: Option<PathBuf>,
    /// Trainee mode, locked: onboard cameras only, no instructor controls; with --class, the
    /// trainee's ID may follow (`--trainee ID`).
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "ID")]
    trainee: Option<String>,
    /// Drive from a script instead of the sticks (demonstrations): timed commands, or goals for the autopilot (an exercise's scripts/<stem>.pass.toml), as `run` takes.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Main view at start: a camera of the robot file, chase or free.
    #[arg(long)]
    view: Option<String>,
    /// Picture-in-picture view at start, or "off" [default: rear].
    #[arg(long)]
    pip: Option<String>,
    /// Window width, pixels.
    #[arg(long, default_value_t = 1280)]
    width: u32,
    /// Window height, pixels.
    #[arg(long, default_value_t = 720)]
    height: u32,
    /// Close after this many seconds of wall time (measurements, screenshots).
    #[arg(long, allow_negative_numbers = true)]
    quit_after: Option<f64>,
    /// Save the whole window (view and panel) as PNG when closing.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// 3D resolution relative to the window, (0, 1] [default: 1 on a GPU, 0.5 on a
    /// software renderer].
    #[arg(long, allow_negative_numbers = true)]
    render_scale: Option<f64>,
    /// How the 3D views are drawn: "full" (PBR shading and shadows) or "fast" (flat
    /// Lambert shading, no shadows) [default: fast on a software renderer, full on a GPU].
    #[arg(long)]
    render_path: Option<RenderPath>,
    /// A seat of a class.
    #[cfg(feature = "classroom")]
    #[command(flatten)]
    class: super::class::StationClassArgs,
    /// A ROS 2 control unit as the operator; Foxglove live.
    #[cfg(all(any(feature = "ros2", feature = "foxglove"), feature = "classroom"))]
    #[command(flatten)]
    external: super::external::ExternalArgs,
}

impl StationArgs {
    /// The station's options, with the default scene and robot filled in.
    fn into_options(self) -> StationOptions {
        // With an exercise, --robot is another robot to run it with.
        let exercise_robot = self.exercise.as_ref().and(self.files.robot.clone());
        let (scene, robot) = self.files.or_defaults();
        StationOptions {
            scene,
            robot,
            spawn: self.spawn,
            exercise: self.exercise,
            exercise_robot,
            log: self.log,
            no_log: self.no_log,
            replay: self.replay,
            mapping: self.mapping,
            trainee: self.trainee.is_some(),
            script: self.script,
            view: self.view,
            pip: self.pip,
            width: self.width,
            height: self.height,
            quit_after: self.quit_after,
            screenshot: self.screenshot,
            render_scale: self.render_scale,
            render_path: self.render_path,
        }
    }
}

/// Arguments of `treadsim shot`.
#[derive(clap::Args)]
pub struct ShotCommandArgs {
    #[command(flatten)]
    files: SceneAndRobot,
    /// View: a camera of the robot file (e.g. front, rear, mast), chase or free.
    #[arg(long, default_value = "front")]
    camera: String,
    /// Output image (PNG).
    #[arg(long)]
    out: PathBuf,
    /// Drive script followed until --at, timed commands or goals for the autopilot (default: the robot stands still).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Simulated time before the picture, s (1 s lets the robot settle on its tracks).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1.0)]
    at: f64,
    /// Image width, pixels.
    #[arg(long, default_value_t = 1280)]
    width: u32,
    /// Image height, pixels.
    #[arg(long, default_value_t = 720)]
    height: u32,
    /// Spawn point name (default: the scene's first).
    #[arg(long)]
    spawn: Option<String>,
    /// How the picture is drawn: "full" (PBR shading and shadows, what a station on a
    /// GPU shows) or "fast" (flat Lambert shading, no shadows, what a station on a
    /// software renderer shows).
    #[arg(long, default_value = "full")]
    render_path: RenderPath,
}

impl ShotCommandArgs {
    /// The shot's arguments, with the default scene and robot filled in.
    fn into_args(self) -> ShotArgs {
        let (scene, robot) = self.files.or_defaults();
        ShotArgs {
            scene,
            robot,
            camera: self.camera,
            out: self.out,
            script: self.script,
            at: self.at,
            width: self.width,
            height: self.height,
            spawn: self.spawn,
            render_path: self.render_path,
        }
    }
}

/// Runs `treadsim station` (as a seat of a class with `--class`) and prints its frame
/// statistics, result and log.
pub fn station_command(a: StationArgs) -> anyhow::Result<()> {
    let trainee = a.trainee.clone().filter(|t| !t.is_empty());
    #[cfg(all(any(feature = "ros2", feature = "foxglove"), feature = "classroom"))]
    if a.class.class.is_some() && (a.external.start_asked()) {
        anyhow::bail!("--ros2 or --foxglove with --class: not yet (a headless seat takes them)");
    }
    // The cameras are rendered off-screen for ROS and Foxglove, beside the window's own.
    #[cfg(all(any(feature = "ros2", feature = "foxglove"), feature = "classroom"))]
    if let Some(mut peer) = a.external.start(true)? {
        for line in peer.started() {
            println!("station: {line}");
        }
        let r = treadsim::viewer::station::run_station_with(&a.into_options(), &mut peer)?;
        print_station_report(&r);
        for line in peer.summary("station") {
            println!("{line}");
        }
        peer.close();
        return Ok(());
    }
    #[cfg(feature = "classroom")]
    if let Some(join) = a.class.join(trainee.clone(), a.exercise.clone())? {
        let o = a.into_options();
        let r = treadsim::viewer::station::run_class_station(&o, &join)?;
        print_station_report(&r);
        if let Some(c) = &r.class {
            println!(
                "seat {}: {} statuses, {} commands carried out, {} refused ({} not the \
                 instructor's), {} malformed, {} results delivered",
                join.seat.name,
                c.statuses,
                c.commands_accepted,
                c.commands_refused,
                c.unauthorised,
                c.malformed,
                c.delivered
            );
        }
        return Ok(());
    }
    if trainee.is_some() {
        anyhow::bail!("--trainee ID names the trainee at a seat of a class: use it with --class");
    }
    let r = run_station(&a.into_options())?;
    print_station_report(&r);
    Ok(())
}

/// Prints what a station session did: frames, phases, screenshot, result and log.
fn print_station_report(r: &treadsim::viewer::station::StationReport) {
    println!(
        "station: {} frames in {:.1} s: mean {:.1} ms/frame ({:.1} fps), median {:.1} ms, \
         95th percentile {:.1} ms; simulated {:.2} s in {} steps ({:.2}x real time)",
        r.frames,
        r.wall,
        r.mean_frame_ms,
        if r.mean_frame_ms > 0.0 {
            1e3 / r.mean_frame_ms
        } else {
            0.0
        },
        r.median_frame_ms,
        r.p95_frame_ms,
        r.sim_time,
        r.steps,
        if r.wall > 0.0 {
            r.sim_time / r.wall
        } else {
            0.0
        }
    );
    let phases: Vec<String> = r
        .phases_ms
        .iter()
        .map(|(name, ms)| format!("{name} {ms:.1} ms"))
        .collect();
    println!(
        "per frame: {}; 3D at {:.2}x the window, {} render path{}",
        phases.join(", "),
        r.render_scale,
        r.render_path,
        if r.software_renderer {
            " (software renderer)"
        } else {
            ""
        }
    );
    if let Some(p) = &r.screenshot {
        println!("screenshot: {}", p.display());
    }
    if let Some(result) = &r.result {
        print!("{}", treadsim::exercise::report::score_table(result));
    }
    if let Some(p) = &r.log {
        println!("log: {}", p.display());
    }
}

/// Runs `treadsim shot` and prints what it rendered.
pub fn shot_command(a: ShotCommandArgs) -> anyhow::Result<()> {
    let args = a.into_args();
    let s = shot(&args)?;
    println!(
        "{}: '{}' at t = {:.2} s, robot at x {:.3} y {:.3} z {:.3} m; rendered {}x{} in {:.0} ms \
         (setup {:.0} ms)",
        s.out.display(),
        args.camera,
        s.time,
        s.position[0],
        s.position[1],
        s.position[2],
        args.width,
        args.height,
        s.render_seconds * 1e3,
        s.setup_seconds * 1e3
    );
    Ok(())
}
