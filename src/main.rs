//! The `treadsim` command line: the operator station and the headless tools.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use treadsim::exercise::Exercise;
use treadsim::scene::Scene;
use treadsim::tools::soak;
use treadsim::vehicle::robot_file::load_robot;

mod cli;
use cli::log::{replay_command, report_command, ReplayArgs, ReportArgs};
use cli::run::{run, run_exercise, RunArgs};

/// Real-time simulator for training the operators of tracked and wheeled mobile robots.
#[derive(Parser)]
#[command(name = "treadsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate scene and exercise files and print what they contain (a scene: elements,
    /// triangles, bounds, BVH depth, load time; an exercise: its scene, robot, goals and
    /// rules). Exits non-zero on the first invalid file.
    Check {
        /// Scene or exercise files (TOML; an exercise file has an [exercise] table).
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
    },
    /// Measure the per-step cost of the full robot against a bare rapier hull (same scene mesh,
    /// same dt, no track model), in one process; prints µs/step, their ratio and the
    /// real-time factor.
    Bench {
        /// Scene file [default: scenes/public_stairs.toml for one robot,
        /// scenes/bench_field.toml (ten flights, room for 100 robots) for more].
        #[arg(long)]
        scene: Option<PathBuf>,
        /// Robot file.
        #[arg(long, default_value = "scenes/robots/scout.toml")]
        robot: PathBuf,
        /// Robots in the scene.
        #[arg(long, default_value_t = 1)]
        robots: usize,
        /// Steps per measured round.
        #[arg(long, default_value_t = 2000)]
        steps: usize,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Instead of timing: drive the full world alone for --steps steps from the start and
        /// print a digest of every robot's pose after every step (a fixed workload to profile,
        /// e.g. under `valgrind --tool=callgrind`; equal digests mean bit-identical
        /// trajectories).
        #[arg(long)]
        digest: bool,
    },
    /// Run a robot headless on a scene with a drive script and write telemetry as CSV; prints
    /// every event (blow-ups, resets, out of bounds, falls). Writes a log (MCAP) unless
    /// --no-log.
    Run(RunArgs),
    /// Re-simulate a log from its recorded inputs; with --verify compare every state
    /// snapshot bit for bit and report the first divergence (time and quantity). Exits 1 on a
    /// divergence, 2 when the log cannot be replayed.
    Replay(ReplayArgs),
    /// Write the after-action report of one or more logs into a folder: index.html with the
    /// path from above over the scene, pitch and roll with the tip-over limits, belt speeds
    /// and motor loads (PNG and SVG), the score table and the timeline of events; several
    /// logs of one exercise are compared attempt by attempt.
    Report(ReportArgs),
    /// Seeded random aggressive driving over scenes x robots for N simulated minutes each;
    /// prints blow-ups, out-of-bounds and fall events, max speed, spin and normal-force jump
    /// per combination, writes the drive script of every failing combination (replay it with
    /// `treadsim run --auto-reset`), and exits non-zero on any blow-up.
    Soak(SoakArgs),
    /// Measure a robot's capability envelope headless and print its spec sheet: static
    /// tip-over angles (formula and tilt table), slope limits parked and driving (up, down,
    /// across), the steepest stairs with and without flippers, the highest step, the widest
    /// gap, top speed and turning rate on the spot — standard sweeps on generated test lanes
    /// with a documented driving strategy each (src/envelope/).
    Envelope {
        /// Robot file.
        #[arg(long, default_value = "scenes/robots/scout.toml")]
        robot: PathBuf,
        /// Print one JSON object (every trial with its outcome) instead of the sheet.
        #[arg(long)]
        json: bool,
        /// Threads to run trials on (0: one per core); the sheet is the same for any count.
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Seed 002's traffic headless: the scene's [[traffic]] groups, or --agents N over an
    /// area, for --seconds; prints collisions (agent pairs that began to overlap), edge holds,
    /// agents outside their area and the controller's cost per step.
    Traffic(cli::traffic::TrafficArgs),
    /// Open the operator station: drive the robot with a gamepad or the keyboard through its
    /// onboard cameras, with an instrument panel (needs a display; see `shot` without one).
    #[cfg(feature = "viewer")]
    Station {
        /// Scene file (TOML) [default: scenes/public_stairs.toml].
        #[arg(long)]
        scene: Option<PathBuf>,
        /// Robot file (TOML) [default: scenes/robots/scout.toml].
        #[arg(long)]
        robot: Option<PathBuf>,
        /// Spawn point name (default: the scene's first).
        #[arg(long)]
        spawn: Option<String>,
        /// Run an exercise as a scored trial (its scene, robot and spawn): the goal's
        /// direction and distance over the view, repetitions, faults, clock, penalties, and
        /// the result at the end.
        #[arg(long, conflicts_with_all = ["scene", "robot", "spawn"])]
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
        /// Trainee mode, locked: onboard cameras only, no instructor controls.
        #[arg(long)]
        trainee: bool,
        /// Drive from a script instead of the sticks (demonstrations).
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
        #[arg(long)]
        quit_after: Option<f64>,
        /// Save the whole window (view and panel) as PNG when closing.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// 3D resolution relative to the window, (0, 1] [default: 1 on a GPU, 0.5 on a
        /// software renderer].
        #[arg(long)]
        render_scale: Option<f64>,
        /// How the 3D views are drawn: "full" (PBR shading and shadows) or "fast" (flat
        /// Lambert shading, no shadows) [default: fast on a software renderer, full on a GPU].
        #[arg(long)]
        render_path: Option<treadsim::viewer::render_path::RenderPath>,
    },
    /// Render what a camera sees, headless (no display needed), after simulating up to
    /// --at seconds with an optional drive script; writes a PNG.
    #[cfg(feature = "viewer")]
    Shot {
        /// Scene file (TOML) [default: scenes/public_stairs.toml].
        #[arg(long)]
        scene: Option<PathBuf>,
        /// Robot file (TOML) [default: scenes/robots/scout.toml].
        #[arg(long)]
        robot: Option<PathBuf>,
        /// View: a camera of the robot file (e.g. front, rear, mast), chase or free.
        #[arg(long, default_value = "front")]
        camera: String,
        /// Output image (PNG).
        #[arg(long)]
        out: PathBuf,
        /// Drive script followed until --at (default: the robot stands still).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Simulated time before the picture, s (1 s lets the robot settle on its tracks).
        #[arg(long, default_value_t = 1.0)]
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
        render_path: treadsim::viewer::render_path::RenderPath,
    },
}

fn main() -> ExitCode {
    cli::string_functions::prefer_256_bit_string_functions();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { scenes } => check(&scenes),
        Command::Bench {
            scene,
            robot,
            robots,
            steps,
            json,
            digest,
        } => bench(scene.as_deref(), &robot, robots, steps, json, digest),
        Command::Run(args) if args.exercise.is_some() => {
            return match run_exercise(&args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Run(args) => run(&args),
        Command::Report(args) => report_command(&args),
        Command::Replay(args) => {
            return match replay_command(&args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Soak(args) => soak_command(&args),
        Command::Envelope {
            robot,
            json,
            threads,
        } => envelope_command(&robot, json, threads),
        Command::Traffic(args) => cli::traffic::traffic_command(&args),
        #[cfg(feature = "viewer")]
        Command::Station {
            scene,
            robot,
            spawn,
            exercise,
            log,
            no_log,
            replay,
            mapping,
            trainee,
            script,
            view,
            pip,
            width,
            height,
            quit_after,
            screenshot,
            render_scale,
            render_path,
        } => station(treadsim::viewer::station::StationOptions {
            scene: scene.unwrap_or_else(|| default_asset(DEFAULT_SCENE)),
            robot: robot.unwrap_or_else(|| default_asset(DEFAULT_ROBOT)),
            spawn,
            exercise,
            log,
            no_log,
            replay,
            mapping,
            trainee,
            script,
            width,
            height,
            quit_after,
            screenshot,
            view,
            pip,
            render_scale,
            render_path,
        }),
        #[cfg(feature = "viewer")]
        Command::Shot {
            scene,
            robot,
            camera,
            out,
            script,
            at,
            width,
            height,
            spawn,
            render_path,
        } => shot(treadsim::viewer::shot::ShotArgs {
            scene: scene.unwrap_or_else(|| default_asset(DEFAULT_SCENE)),
            robot: robot.unwrap_or_else(|| default_asset(DEFAULT_ROBOT)),
            spawn,
            camera,
            out,
            script,
            at,
            width,
            height,
            render_path,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            exit_code(&e)
        }
    }
}

fn check(paths: &[PathBuf]) -> anyhow::Result<()> {
    for path in paths {
        let start = Instant::now();
        if treadsim::exercise::is_exercise_file(path)? {
            let exercise = Exercise::load(path)?;
            print!("{}", treadsim::exercise::summary(&exercise));
            continue;
        }
        let scene = Scene::load(path)?;
        let load_ms = start.elapsed().as_secs_f64() * 1e3;
        print!("{}", treadsim::scene::summary(&scene, load_ms));
    }
    Ok(())
}

/// Arguments of `treadsim soak`.
#[derive(clap::Args)]
struct SoakArgs {
    /// Scene files [default: scenes/*.toml].
    #[arg(long, num_args = 1..)]
    scenes: Vec<PathBuf>,
    /// Robot files [default: scenes/robots/*.toml].
    #[arg(long, num_args = 1..)]
    robots: Vec<PathBuf>,
    /// Simulated minutes per combination.
    #[arg(long, default_value_t = 2.0)]
    minutes: f64,
    /// Seed of the random driving (mixed with the scene and robot names per combination).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder for the drive scripts of failing combinations.
    #[arg(long, default_value = "target/soak")]
    out: PathBuf,
    /// Print one JSON object per combination instead of the table.
    #[arg(long)]
    json: bool,
}

/// The `.toml` files directly in `dir`, sorted.
fn toml_files(dir: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {dir}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    out.sort();
    Ok(out)
}

fn soak_command(a: &SoakArgs) -> anyhow::Result<()> {
    if !(a.minutes.is_finite() && a.minutes > 0.0 && a.minutes <= 1440.0) {
        bail!("--minutes must be between 0 and 1440, got {}", a.minutes);
    }
    let scenes = if a.scenes.is_empty() {
        toml_files("scenes")?
    } else {
        a.scenes.clone()
    };
    let robots = if a.robots.is_empty() {
        toml_files("scenes/robots")?
    } else {
        a.robots.clone()
    };
    if scenes.is_empty() || robots.is_empty() {
        bail!("no scenes or no robots to soak");
    }
    let duration = a.minutes * 60.0;
    if !a.json {
        println!(
            "soak: {} scene(s) x {} robot(s), {:.1} simulated min each, seed {}",
            scenes.len(),
            robots.len(),
            a.minutes,
            a.seed
        );
        println!(
            "{:<22} {:<11} {:>8} {:>7} {:>6} {:>5} {:>5} {:>4} {:>8} {:>8} {:>10}",
            "scene",
            "robot",
            "sim s",
            "wall s",
            "blowup",
            "oob",
            "fell",
            "nan",
            "v m/s",
            "w rad/s",
            "max dN N"
        );
    }
    let mut total = soak::SoakStats {
        scene: "total".into(),
        robot: String::new(),
        seed: a.seed,
        sim_seconds: 0.0,
        wall_seconds: 0.0,
        blow_ups: 0,
        escalations: 0,
        out_of_bounds: 0,
        falls: 0,
        nan: 0,
        max_speed: 0.0,
        max_spin: 0.0,
        max_normal_jump: 0.0,
        max_normal_jump_time: 0.0,
        events: Vec::new(),
    };
    let mut failures = Vec::new();
    for scene_path in &scenes {
        for robot_path in &robots {
            let scene = Scene::load(scene_path)?;
            let spec = load_robot(robot_path)?;
            let stem = |p: &PathBuf| {
                p.file_stem()
                    .map_or("x".into(), |s| s.to_string_lossy().into_owned())
            };
            let seed = soak::combination_seed(a.seed, &stem(scene_path), &stem(robot_path));
            let script = soak::random_script(&spec, duration, seed);
            let s = soak::soak(scene, spec, script.clone(), seed, duration)?;
            if a.json {
                println!("{}", s.to_json());
            } else {
                println!(
                    "{:<22} {:<11} {:>8.1} {:>7.1} {:>6} {:>5} {:>5} {:>4} {:>8.2} {:>8.2} {:>10.0}",
                    stem(scene_path),
                    stem(robot_path),
                    s.sim_seconds,
                    s.wall_seconds,
                    s.blow_ups,
                    s.out_of_bounds,
                    s.falls,
                    s.nan,
                    s.max_speed,
                    s.max_spin,
                    s.max_normal_jump
                );
            }
            if s.failed() {
                std::fs::create_dir_all(&a.out)
                    .with_context(|| format!("cannot create {}", a.out.display()))?;
                let file = a.out.join(format!(
                    "soak-{}-{}-{}.toml",
                    stem(scene_path),
                    stem(robot_path),
                    a.seed
                ));
                std::fs::write(&file, script.to_toml())
                    .with_context(|| format!("cannot write {}", file.display()))?;
                let mut report = format!(
                    "{} x {}: {} blow-up(s), {} non-finite; replay: treadsim run --scene {} \
                     --robot {} --script {} --duration {} --auto-reset --out {}",
                    stem(scene_path),
                    stem(robot_path),
                    s.blow_ups,
                    s.nan,
                    scene_path.display(),
                    robot_path.display(),
                    file.display(),
                    duration,
                    file.with_extension("csv").display()
                );
                for e in s.events.iter().filter(|e| {
                    e.contains("blow-up") || e.contains("reset to spawn") || e.contains("disabled")
                }) {
                    report.push_str("\n    ");
                    report.push_str(e);
                }
                failures.push(report);
            }
            total.sim_seconds += s.sim_seconds;
            total.wall_seconds += s.wall_seconds;
            total.blow_ups += s.blow_ups;
            total.escalations += s.escalations;
            total.out_of_bounds += s.out_of_bounds;
            total.falls += s.falls;
            total.nan += s.nan;
            total.max_speed = total.max_speed.max(s.max_speed);
            total.max_spin = total.max_spin.max(s.max_spin);
            total.max_normal_jump = total.max_normal_jump.max(s.max_normal_jump);
        }
    }
    if a.json {
        println!("{}", total.to_json());
    } else {
        println!(
            "{:<22} {:<11} {:>8.1} {:>7.1} {:>6} {:>5} {:>5} {:>4} {:>8.2} {:>8.2} {:>10.0}",
            "total",
            "",
            total.sim_seconds,
            total.wall_seconds,
            total.blow_ups,
            total.out_of_bounds,
            total.falls,
            total.nan,
            total.max_speed,
            total.max_spin,
            total.max_normal_jump
        );
    }
    for f in &failures {
        eprintln!("failed: {f}");
    }
    if total.failed() {
        bail!(
            "{} blow-up(s), {} non-finite state(s) in {} combination(s)",
            total.blow_ups,
            total.nan,
            failures.len()
        );
    }
    Ok(())
}

fn envelope_command(robot: &std::path::Path, json: bool, threads: usize) -> anyhow::Result<()> {
    let spec = load_robot(robot)?;
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let started = Instant::now();
    let sheet = treadsim::envelope::measure(&spec, threads)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&sheet)?);
    } else {
        print!("{sheet}");
        println!(
            "({} trials on {threads} threads in {:.1} s)",
            sheet.sweeps().map(|s| s.points.len()).sum::<usize>() + 5,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn bench(
    scene: Option<&std::path::Path>,
    robot: &std::path::Path,
    robots: usize,
    steps: usize,
    json: bool,
    digest: bool,
) -> anyhow::Result<()> {
    if !(1..=256).contains(&robots) {
        bail!("--robots must be between 1 and 256, got {robots}");
    }
    if !(100..=10_000_000).contains(&steps) {
        bail!("--steps must be between 100 and 10000000, got {steps}");
    }
    let scene = match scene {
        Some(path) => path.to_path_buf(),
        None if robots == 1 => PathBuf::from(DEFAULT_SCENE),
        None => PathBuf::from(BENCH_FIELD_SCENE),
    };
    let scene = Scene::load(&scene)?;
    let spec = load_robot(robot)?;
    if digest {
        let driver = treadsim::tools::bench::StairDriver::default();
        let d = treadsim::tools::bench::trace_digest(scene, &spec, robots, steps, driver)?;
        if json {
            println!(
                "{{\"digest\":\"{:016x}\",\"steps\":{},\"lowest_robot_z\":{:.4}}}",
                d.digest, d.steps, d.lowest_robot_z
            );
        } else {
            println!(
                "digest {:016x} after {} steps of {} robot(s) '{}'; the lowest ended at z = {:.4} m",
                d.digest, d.steps, robots, spec.name, d.lowest_robot_z
            );
        }
        return Ok(());
    }
    let config = treadsim::tools::bench::BenchConfig {
        robots,
        steps,
        ..Default::default()
    };
    let r = treadsim::tools::bench::run_bench(scene, &spec, &config)?;
    if json {
        println!("{}", r.to_json());
    } else {
        println!(
            "{} robot(s) '{}' on {} triangles, dt {:.1} ms, median of {} rounds x {} steps",
            r.robots,
            spec.name,
            r.triangles,
            r.dt * 1e3,
            config.rounds,
            config.steps
        );
        println!("  full step (track model + rapier): {:8.2} us", r.full_us);
        println!("  bare rapier step (same hulls):    {:8.2} us", r.bare_us);
        println!("  ratio full / bare:                {:8.2}", r.ratio);
        println!(
            "  real-time factor:                 {:8.0}x ({} contacts in the last step)",
            r.real_time_factor, r.contacts
        );
        println!(
            "  the lowest robot ended at z = {:.2} m after {:.0} s of climbing; {} of {} on the ground; {} thread(s)",
            r.lowest_robot_z,
            (config.warmup + config.rounds * config.steps) as f64 * r.dt,
            r.robots_on_ground,
            r.robots,
            r.threads
        );
    }
    Ok(())
}

/// The default training exercise (the 20 kg robot at the foot of the public stairs), and
/// the one-robot bench's scene.
const DEFAULT_SCENE: &str = "scenes/public_stairs.toml";

/// The many-robot bench's scene: ten flights side by side, spawns for 100 robots.
const BENCH_FIELD_SCENE: &str = "scenes/bench_field.toml";

#[cfg(feature = "viewer")]
const DEFAULT_ROBOT: &str = "scenes/robots/scout.toml";

#[cfg(feature = "viewer")]
use treadsim::viewer::default_asset;

/// Exit status for an error: 3 when the station found no display (so `make run` can fall
/// back to a headless picture), 1 otherwise.
fn exit_code(e: &anyhow::Error) -> ExitCode {
    #[cfg(feature = "viewer")]
    if matches!(
        e.downcast_ref::<treadsim::viewer::ViewerError>(),
        Some(treadsim::viewer::ViewerError::NoDisplay)
    ) {
        return ExitCode::from(NO_DISPLAY_EXIT);
    }
    let _ = e;
    ExitCode::FAILURE
}

/// Exit status of `treadsim station` without a display.
#[cfg(feature = "viewer")]
const NO_DISPLAY_EXIT: u8 = 3;

#[cfg(feature = "viewer")]
fn station(options: treadsim::viewer::station::StationOptions) -> anyhow::Result<()> {
    let r = treadsim::viewer::station::run_station(&options)?;
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
    if let Some(p) = r.screenshot {
        println!("screenshot: {}", p.display());
    }
    if let Some(result) = &r.result {
        print!("{}", treadsim::exercise::report::score_table(result));
    }
    if let Some(p) = r.log {
        println!("log: {}", p.display());
    }
    Ok(())
}

#[cfg(feature = "viewer")]
fn shot(args: treadsim::viewer::shot::ShotArgs) -> anyhow::Result<()> {
    let s = treadsim::viewer::shot::shot(&args)?;
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
