//! The `treadsim` command line: the operator station and the headless tools. Each command's
//! arguments and body live in `src/cli/`; this file only parses and dispatches.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Generate scenes: `treadsim scene generate building --floors N --seed S --out FILE`.
    Scene(cli::scene::SceneArgs),
    /// List the library: its exercises, robots and scenes, each with the name to give
    /// (`--exercise stairs_35`), a line about it and its file.
    List(cli::list::ListArgs),
    /// Measure the per-step cost of the full robot against a bare rapier hull (same scene mesh,
    /// same dt, no track model), in one process; prints µs/step, their ratio and the
    /// real-time factor.
    Bench(cli::bench::BenchArgs),
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
    Soak(cli::soak::SoakArgs),
    /// Measure a robot's capability envelope headless and print its spec sheet: static
    /// tip-over angles (formula and tilt table), slope limits parked and driving (up, down,
    /// across), the steepest stairs with and without flippers, the highest step, the widest
    /// gap, top speed and turning rate on the spot — standard sweeps on generated test lanes
    /// with a documented driving strategy each (src/envelope/).
    Envelope(cli::check::EnvelopeArgs),
    /// Seed 002's traffic headless: the scene's [[traffic]] groups, or --agents N over an
    /// area, for --seconds; prints collisions (agent pairs that began to overlap), edge holds,
    /// agents outside their area and the controller's cost per step.
    Traffic(cli::traffic::TrafficArgs),
    /// Check the model against analytic and independent references (rest, drop, straight
    /// driving against seed 000, steady turns against a Coulomb equilibrium on the model's
    /// contact loads, slope hold and slide, tilt table, gap crossing, Ackermann circle against
    /// seed 001) at --dt; prints one row per case with model value, reference, tolerance and
    /// pass/fail, writes validation.md into --out, exits non-zero on any failure.
    Validate(cli::validate::ValidateArgs),
    /// Fit a robot file's turning-related parameters (belt lateral friction, rolling
    /// resistance, motor limits) to a real robot's recorded drive (CSV: time, pose, track
    /// speeds): replays the drive on a flat floor, prints the fitted values with their
    /// standard errors and the yaw-rate and speed residuals before and after, and writes the
    /// calibrated robot file.
    Calibrate(cli::calibrate::CalibrateArgs),
    /// A seat of the class without a window: joins the class network, runs the exercises the
    /// instructor assigns (or --exercise at once) with a drive or goal script as its
    /// operator, publishes its status at 10 Hz and delivers each result until acknowledged.
    #[cfg(feature = "classroom")]
    Seat(cli::class::SeatArgs),
    /// The instructor: opens (or creates and migrates) the records database, joins the class
    /// network, stores every seat's results once and prints the class.
    #[cfg(feature = "classroom")]
    Instructor(cli::class::InstructorArgs),
    /// The class's records from the command line: list, one trainee's history and standing,
    /// export (CSV, JSON), delete a trainee's data.
    #[cfg(feature = "classroom")]
    Records(cli::records::RecordsArgs),
    /// Open the operator station: drive the robot with a gamepad or the keyboard through its
    /// onboard cameras, with an instrument panel (needs a display; see `shot` without one).
    #[cfg(feature = "viewer")]
    Station(Box<cli::station::StationArgs>),
    /// Render what a camera sees, headless (no display needed), after simulating up to
    /// --at seconds with an optional drive script; writes a PNG.
    #[cfg(feature = "viewer")]
    Shot(cli::station::ShotCommandArgs),
}

fn main() -> ExitCode {
    cli::string_functions::prefer_256_bit_string_functions();
    cli::runtime_dir::ensure_runtime_dir();
    cli::broken_pipe::end_quietly_on_a_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { scenes } => cli::check::check(&scenes),
        Command::List(args) => cli::list::list_command(&args),
        Command::Scene(args) => cli::scene::scene_command(&args),
        Command::Bench(args) => cli::bench::bench_command(&args),
        Command::Run(args) if args.exercise.is_some() => return verdict(run_exercise(&args)),
        Command::Run(args) => run(&args),
        Command::Report(args) => report_command(&args),
        Command::Replay(args) => return verdict(replay_command(&args)),
        Command::Soak(args) => cli::soak::soak_command(&args),
        Command::Envelope(args) => cli::check::envelope_command(&args),
        Command::Traffic(args) => cli::traffic::traffic_command(&args),
        Command::Validate(args) => cli::validate::validate_command(&args),
        Command::Calibrate(args) => cli::calibrate::calibrate_command(&args),
        #[cfg(feature = "classroom")]
        Command::Seat(args) => cli::class::seat_command(&args),
        #[cfg(feature = "classroom")]
        Command::Instructor(args) => cli::class::instructor_command(&args),
        #[cfg(feature = "classroom")]
        Command::Records(args) => cli::records::records_command(&args),
        #[cfg(feature = "viewer")]
        Command::Station(args) => cli::station::station_command(*args),
        #[cfg(feature = "viewer")]
        Command::Shot(args) => cli::station::shot_command(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            exit_code(&e)
        }
    }
}

/// Exit status of a command that passes or fails (a trial, a verified replay): 0 passed, 1
/// failed, 2 when it could not run.
fn verdict(result: anyhow::Result<bool>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

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
