//! The `treadsim` command line: the operator station and the headless tools.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use treadsim::scene::Scene;
use treadsim::sim::{DriveScript, SimConfig, SimEvent, Simulation, TelemetryWriter};
use treadsim::vehicle::robot_file::load_robot;

/// Real-time simulator for training the operators of tracked and wheeled mobile robots.
#[derive(Parser)]
#[command(name = "treadsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate scene files and print what they contain: elements, triangles, bounds,
    /// BVH depth, load time. Exits non-zero on the first invalid file.
    Check {
        /// Scene files (TOML).
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
    },
    /// Measure the per-step cost of the full robot against a bare rapier hull (same scene mesh,
    /// same dt, no track model), in one process; prints µs/step, their ratio and the
    /// real-time factor.
    Bench {
        /// Scene file.
        #[arg(long, default_value = "scenes/public_stairs.toml")]
        scene: PathBuf,
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
    },
    /// Run a robot headless on a scene with a drive script and write telemetry as CSV.
    Run(RunArgs),
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { scenes } => check(&scenes),
        Command::Bench {
            scene,
            robot,
            robots,
            steps,
            json,
        } => bench(&scene, &robot, robots, steps, json),
        Command::Run(args) => run(&args),
        #[cfg(feature = "viewer")]
        Command::Station {
            scene,
            robot,
            spawn,
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
        } => station(treadsim::viewer::station::StationOptions {
            scene: scene.unwrap_or_else(|| default_asset(DEFAULT_SCENE)),
            robot: robot.unwrap_or_else(|| default_asset(DEFAULT_ROBOT)),
            spawn,
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
        let scene = Scene::load(path)?;
        let load_ms = start.elapsed().as_secs_f64() * 1e3;
        print!("{}", treadsim::scene::summary(&scene, load_ms));
    }
    Ok(())
}

/// Arguments of `treadsim run`.
#[derive(clap::Args)]
struct RunArgs {
    /// Scene file (TOML).
    #[arg(long)]
    scene: PathBuf,
    /// Robot file (TOML), e.g. scenes/robots/scout.toml.
    #[arg(long)]
    robot: PathBuf,
    /// Drive script (TOML, `[[command]]` tables with at/left/right/flipper).
    #[arg(long)]
    script: PathBuf,
    /// Simulated time to run, s.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Telemetry output (CSV); written to FILE.part and renamed when complete.
    #[arg(long)]
    out: PathBuf,
    /// Spawn point name (default: the scene's first).
    #[arg(long)]
    spawn: Option<String>,
    /// Telemetry rows per simulated second (0 = every step).
    #[arg(long, default_value_t = 100.0)]
    rate: f64,
}

fn run(a: &RunArgs) -> anyhow::Result<()> {
    if !(a.duration.is_finite() && a.duration > 0.0 && a.duration <= 86_400.0) {
        bail!(
            "--duration must be between 0 and 86400 s, got {}",
            a.duration
        );
    }
    if !(a.rate.is_finite() && a.rate >= 0.0) {
        bail!("--rate must be a non-negative number, got {}", a.rate);
    }
    let scene = Scene::load(&a.scene)?;
    let robot = load_robot(&a.robot)?;
    let script = DriveScript::load(&a.script)?;
    let spawn = match &a.spawn {
        Some(name) => scene.spawn(name).cloned().with_context(|| {
            let names: Vec<&str> = scene.spawns.iter().map(|s| s.name.as_str()).collect();
            format!(
                "{}: no spawn named '{name}' (have: {})",
                a.scene.display(),
                names.join(", ")
            )
        })?,
        None => scene.spawns[0].clone(),
    };
    let mut sim = Simulation::new(scene, SimConfig::default())?;
    let id = sim.add_robot(robot, &spawn)?;
    let part = a.out.with_extension("csv.part");
    let file = std::fs::File::create(&part)
        .with_context(|| format!("cannot create {}", part.display()))?;
    let mut writer = TelemetryWriter::new(std::io::BufWriter::new(file), sim.robot(id))?;
    let dt = sim.config().dt;
    let steps = (a.duration / dt).round() as u64;
    let every = if a.rate > 0.0 {
        ((1.0 / a.rate) / dt).round().max(1.0) as u64
    } else {
        1
    };
    let start = Instant::now();
    writer.write(&sim.telemetry(id))?;
    let mut current = None;
    for i in 1..=steps {
        let t = sim.time();
        let k = script.index_at(t);
        if k != current {
            current = k;
            sim.set_command(id, script.command_at(t));
        }
        sim.step();
        if i % every == 0 {
            writer.write(&sim.telemetry(id))?;
        }
    }
    writer.finish()?;
    std::fs::rename(&part, &a.out)
        .with_context(|| format!("cannot move {} to {}", part.display(), a.out.display()))?;
    let wall = start.elapsed().as_secs_f64();
    let r = sim.telemetry(id);
    println!(
        "ran {:.2} s ({steps} steps of {:.1} ms) in {:.2} s wall: {:.0}x real time",
        sim.time(),
        dt * 1e3,
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
        match e {
            SimEvent::BlowUp {
                time,
                reason,
                restored_to,
                ..
            } => eprintln!("warning: blow-up at {time:.3} s ({reason}); restored the state of {restored_to:.3} s"),
        }
    }
    println!("telemetry: {}", a.out.display());
    Ok(())
}

fn bench(
    scene: &std::path::Path,
    robot: &std::path::Path,
    robots: usize,
    steps: usize,
    json: bool,
) -> anyhow::Result<()> {
    if !(1..=256).contains(&robots) {
        bail!("--robots must be between 1 and 256, got {robots}");
    }
    if !(100..=10_000_000).contains(&steps) {
        bail!("--steps must be between 100 and 10000000, got {steps}");
    }
    let scene = Scene::load(scene)?;
    let spec = load_robot(robot)?;
    let spawn = scene.spawns[0].clone();
    let config = treadsim::sim::bench::BenchConfig {
        robots,
        steps,
        ..Default::default()
    };
    let r = treadsim::sim::bench::run_bench(scene, &spec, &spawn, &config)?;
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
            "  the lowest robot ended at z = {:.2} m after {:.0} s of climbing",
            r.lowest_robot_z,
            (config.warmup + config.rounds * config.steps) as f64 * r.dt
        );
    }
    Ok(())
}

/// The default training exercise: the 20 kg robot at the foot of the public stairs.
#[cfg(feature = "viewer")]
const DEFAULT_SCENE: &str = "scenes/public_stairs.toml";
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
         95th percentile {:.1} ms; simulated {:.2} s in {} steps",
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
        r.steps
    );
    let phases: Vec<String> = r
        .phases_ms
        .iter()
        .map(|(name, ms)| format!("{name} {ms:.1} ms"))
        .collect();
    println!(
        "per frame: {}; 3D at {:.2}x the window{}",
        phases.join(", "),
        r.render_scale,
        if r.software_renderer {
            " (software renderer)"
        } else {
            ""
        }
    );
    if let Some(p) = r.screenshot {
        println!("screenshot: {}", p.display());
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
