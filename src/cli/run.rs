//! `treadsim run`: a robot driven by a script on a scene (telemetry CSV), or a scored
//! exercise trial; both write a log unless told not to.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use treadsim::config::SourceFile;
use treadsim::exercise::report;
use treadsim::launch::{log_path, open, Launch, LaunchOptions, Launched, LogTarget};
use treadsim::record::{LogError, LogWriter};
use treadsim::session::{drive, headless, DriveScript, Driver, ScriptDriver, Session};
use treadsim::sim::TelemetryWriter;
use treadsim::vehicle::RobotSpec;

/// The driver of `--script` (none: a script of no commands, the robot standing).
fn script_driver(
    path: Option<&Path>,
    robot: &RobotSpec,
    auto_reset: bool,
) -> anyhow::Result<Box<dyn Driver>> {
    let Some(path) = path else {
        return Ok(Box::new(ScriptDriver::new(
            DriveScript::default(),
            auto_reset,
        )));
    };
    let file = SourceFile::read(path)?;
    Ok(treadsim::session::script_driver(&file, robot, auto_reset)?)
}

/// Arguments of `treadsim run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// An exercise file, or a library exercise's name (`treadsim list exercises`): run and
    /// score a trial (its scene, spawn and robot — or --robot's; the script is optional),
    /// print the score table, write its score file, exit 0 on pass, 1 on fail, 2 when it
    /// cannot run.
    #[arg(long, conflicts_with_all = ["scene", "spawn", "auto_reset", "duration"])]
    pub exercise: Option<PathBuf>,
    /// Scene file (TOML).
    #[arg(long, required_unless_present = "exercise")]
    pub scene: Option<PathBuf>,
    /// Robot file (TOML), e.g. scenes/robots/scout.toml; with --exercise, another robot to
    /// run the exercise with (the score table says so).
    #[arg(long, required_unless_present = "exercise")]
    pub robot: Option<PathBuf>,
    /// Drive script (TOML): `[[command]]` tables with at/left/right/flipper, or `[[goal]]`
    /// tables the autopilot drives to (see `control::goal_script`).
    #[arg(long, required_unless_present = "exercise")]
    pub script: Option<PathBuf>,
    /// Simulated time to run, s.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10.0)]
    pub duration: f64,
    /// Telemetry output (CSV) [default: beside the log, named as it is:
    /// logs/<scene>-<date>-<time>.csv]; written to FILE.part and renamed when complete.
    /// With --exercise: the base name of the score file [default: beside the log, one per
    /// attempt: logs/<exercise>-<date>-<time>.score.json].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Spawn point name (default: the scene's first).
    #[arg(long)]
    pub spawn: Option<String>,
    /// Telemetry rows per simulated second (0 = every step).
    #[arg(long, allow_negative_numbers = true, default_value_t = 100.0)]
    pub rate: f64,
    /// Reset the robot to its spawn whenever it goes out of bounds, falls or is disabled,
    /// and go on with the script (as `treadsim soak` does; for replaying its scripts).
    #[arg(long)]
    pub auto_reset: bool,
    /// The run's log (MCAP) [default: logs/<exercise or scene>-<date>-<time>.mcap].
    #[arg(long, conflicts_with = "no_log")]
    pub log: Option<PathBuf>,
    /// Write no log.
    #[arg(long)]
    pub no_log: bool,
    /// Onboard camera pictures per simulated second in the log (JPEG, 320×240, through the
    /// link's rate cap, latency and faults; Foxglove's CompressedImage, one channel per camera);
    /// 0: none. Pictures make a log large (about 15 kB each).
    #[cfg(feature = "viewer")]
    #[arg(long, default_value_t = 0.0, conflicts_with = "no_log")]
    pub log_images: f64,
}

/// The onboard cameras' pictures for the log (`--log-images`; with the viewer's renderer).
struct LogPictures {
    #[cfg(feature = "viewer")]
    feeds: Option<treadsim::viewer::camera_feeds::CameraFeeds>,
}

impl LogPictures {
    /// The pictures `a` asks for.
    fn of(a: &RunArgs) -> anyhow::Result<Self> {
        #[cfg(feature = "viewer")]
        {
            let fps = a.log_images;
            if !(fps.is_finite() && (0.0..=60.0).contains(&fps)) {
                bail!("--log-images must be 0 to 60 pictures a second, got {fps}");
            }
            Ok(Self {
                feeds: (fps > 0.0)
                    .then(|| treadsim::viewer::camera_feeds::CameraFeeds::new(320, 240, fps)),
            })
        }
        #[cfg(not(feature = "viewer"))]
        {
            let _ = a;
            Ok(Self {})
        }
    }

    /// Writes the pictures the link delivers now into `log`.
    fn record(&mut self, session: &Session, log: &mut LogWriter) -> Result<(), LogError> {
        #[cfg(feature = "viewer")]
        if let Some(feeds) = self.feeds.as_mut() {
            for frame in feeds.frames(session) {
                log.write_image(&frame.camera, frame.captured, &frame.jpeg)?;
            }
        }
        let _ = (session, log);
        Ok(())
    }

    /// Why no picture came, if the renderer failed.
    fn failed(&self) -> Option<String> {
        #[cfg(feature = "viewer")]
        if let Some(why) = self.feeds.as_ref().and_then(|f| f.failed()) {
            return Some(why.to_string());
        }
        None
    }
}

/// The launcher's options for a run: its log (`--log`, `--no-log`) and its script.
fn launch_options(a: &RunArgs) -> LaunchOptions {
    LaunchOptions {
        log: LogTarget::from_options(a.log.as_deref(), a.no_log),
        program: "run",
        script: a.script.clone(),
    }
}

/// A run's log, or where its log would have gone without `--no-log`: its other outputs
/// (telemetry, score) go beside it, named as it is.
fn log_or_its_place(what: &Launch, log: Option<&Path>) -> PathBuf {
    log.map(Path::to_path_buf)
        .or_else(|| log_path(what, &LogTarget::Default))
        .unwrap_or_else(|| PathBuf::from("logs/run"))
}

/// Where an attempt's score goes: `--out`'s name with `.score.json`; else beside its log, named
/// as it is (`logs/<exercise>-<date>-<time>.score.json`, one per attempt), and without a log
/// where the log would have gone; never over an earlier attempt's (`-2`, `-3`, … added).
fn score_path(a: &RunArgs, what: &Launch, log: Option<&Path>) -> PathBuf {
    if let Some(out) = &a.out {
        return PathBuf::from(format!("{}.score.json", out.display()));
    }
    let base = log_or_its_place(what, log).with_extension("");
    let mut path = base.with_extension("score.json");
    let mut n = 2;
    while path.exists() {
        path = PathBuf::from(format!("{}-{n}.score.json", base.display()));
        n += 1;
    }
    path
}

/// `treadsim run --exercise`: runs and scores a trial; `Ok(passed)`.
pub fn run_exercise(a: &RunArgs) -> anyhow::Result<bool> {
    let Some(path) = &a.exercise else {
        bail!("--exercise is missing");
    };
    let what = Launch::Exercise {
        exercise: path.clone(),
        robot: a.robot.clone(),
    };
    let mut launched = open(&what)?;
    let mut driver = script_driver(a.script.as_deref(), launched.robot(), false)?;
    launched.start_log(&what, &launch_options(a))?;
    let json_path = score_path(a, &what, launched.log.as_ref().map(LogWriter::path));
    let Launched {
        session, mut log, ..
    } = launched;
    let mut pictures = LogPictures::of(a)?;
    let start = Instant::now();
    let mut log_error = None;
    let mut run = headless::run_trial_with(session, driver.as_mut(), |session| {
        if let (Some(writer), None) = (&mut log, &log_error) {
            if let Err(e) = writer
                .record(session)
                .and_then(|()| pictures.record(session, writer))
            {
                log_error = Some(e);
            }
        }
    });
    if let Some(why) = pictures.failed() {
        println!("no camera pictures in the log: {why}");
    }
    let wall = start.elapsed().as_secs_f64();
    print!("{}", report::score_table(&run.result));
    println!(
        "simulated {:.1} s in {wall:.1} s wall ({:.0}x real time)",
        run.session.sim().time(),
        run.session.sim().time() / wall.max(1e-9)
    );
    if let Some(dir) = json_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&report::result_json(&run.result))?;
    std::fs::write(&json_path, text + "\n")
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    println!("score: {}", json_path.display());
    if let Some(e) = log_error {
        return Err(e.into());
    }
    if let Some(writer) = log {
        let file = writer.path().to_path_buf();
        writer.finish(&mut run.session)?;
        println!("log: {}", file.display());
    }
    Ok(run.result.passed)
}

/// `treadsim run` with a scene, a robot and a script.
pub fn run(a: &RunArgs) -> anyhow::Result<()> {
    if !(a.duration.is_finite() && a.duration > 0.0 && a.duration <= 86_400.0) {
        bail!(
            "--duration must be greater than 0 and at most 86400 s, got {}",
            a.duration
        );
    }
    if !(a.rate.is_finite() && a.rate >= 0.0) {
        bail!(
            "--rate must be 0 or greater (rows per simulated second; 0: every step), got {}",
            a.rate
        );
    }
    let (Some(scene), Some(robot), Some(script)) = (&a.scene, &a.robot, &a.script) else {
        bail!("run needs --scene, --robot and --script (or --exercise)");
    };
    let what = Launch::Free {
        scene: scene.clone(),
        robot: robot.clone(),
        spawn: a.spawn.clone(),
    };
    let mut launched = open(&what)?;
    let mut driver = script_driver(Some(script), launched.robot(), a.auto_reset)?;
    launched.start_log(&what, &launch_options(a))?;
    // The telemetry goes where --out says, else beside the log, named as it is.
    let out = &a.out.clone().unwrap_or_else(|| {
        log_or_its_place(&what, launched.log.as_ref().map(LogWriter::path)).with_extension("csv")
    });
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let Launched {
        mut session,
        mut log,
        ..
    } = launched;
    let mut pictures = LogPictures::of(a)?;
    let start = Instant::now();
    let steps = (a.duration / session.sim().config().dt).round() as u64;
    let logs = log.as_mut().map(|log| (log, &mut pictures));
    drive_with_telemetry(a, out, &mut session, driver.as_mut(), logs, steps)?;
    if let Some(why) = pictures.failed() {
        println!("no camera pictures in the log: {why}");
    }
    print_summary(&session, start.elapsed().as_secs_f64(), steps);
    if let Some(why) = driver.gave_up() {
        println!("autopilot stopped: {why}");
    }
    if driver.resets() > 0 {
        println!("auto-reset to the spawn {} time(s)", driver.resets());
    }
    println!("telemetry: {}", out.display());
    if let Some(log) = log {
        let file = log.path().to_path_buf();
        log.finish(&mut session)?;
        println!("log: {}", file.display());
    }
    Ok(())
}

/// Drives `session` `steps` steps with `driver`, writing telemetry at `--rate` to `out`
/// (through `out.csv.part`, renamed when complete) and recording the log with its camera
/// pictures, if any.
fn drive_with_telemetry(
    a: &RunArgs,
    out: &Path,
    session: &mut Session,
    driver: &mut dyn Driver,
    mut log: Option<(&mut LogWriter, &mut LogPictures)>,
    steps: u64,
) -> anyhow::Result<()> {
    let part = out.with_extension("csv.part");
    let file = std::fs::File::create(&part)
        .with_context(|| format!("cannot create {}", part.display()))?;
    let id = session.robot();
    let mut writer = TelemetryWriter::new(std::io::BufWriter::new(file), session.sim().robot(id))?;
    let dt = session.sim().config().dt;
    let every = if a.rate > 0.0 {
        ((1.0 / a.rate) / dt).round().max(1.0) as u64
    } else {
        1
    };
    writer.write(&session.sim().telemetry(id))?;
    let mut failure: Option<anyhow::Error> = None;
    drive(session, driver, steps, |s| {
        let step = s.sim().steps();
        let written = if step.is_multiple_of(every) {
            writer
                .write(&s.sim().telemetry(id))
                .map_err(anyhow::Error::from)
        } else {
            Ok(())
        };
        let logged = match &mut log {
            Some((log, pictures)) => log
                .record(s)
                .and_then(|()| pictures.record(s, log))
                .map_err(anyhow::Error::from),
            None => Ok(()),
        };
        match written.and(logged) {
            Ok(()) => true,
            Err(e) => {
                failure = Some(e);
                false
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    writer.finish()?;
    std::fs::rename(&part, out)
        .with_context(|| format!("cannot move {} to {}", part.display(), out.display()))?;
    Ok(())
}

/// The run's speed, where the robot ended, its events and its status.
fn print_summary(session: &Session, wall: f64, steps: u64) {
    let sim = session.sim();
    let id = session.robot();
    let r = sim.telemetry(id);
    println!(
        "ran {:.2} s ({steps} steps of {:.1} ms) in {:.2} s wall: {:.0}x real time",
        sim.time(),
        sim.config().dt * 1e3,
        wall,
        sim.time() / wall.max(1e-9)
    );
    println!(
        "final: x {:.3} y {:.3} z {:.3} m, roll {:.1} pitch {:.1} yaw {:.1} deg",
        r.position[0],
        r.position[1],
        r.position[2],
        r.rpy[0].to_degrees(),
        r.rpy[1].to_degrees(),
        r.rpy[2].to_degrees()
    );
    for e in sim.events() {
        if e.is_blow_up() {
            eprintln!("warning: {e}");
        } else {
            println!("event: {e}");
        }
    }
    let status = sim.robot_status(id);
    if status.is_halted() {
        println!("final status: {status:?} (stopped until reset)");
    }
}
