//! `treadsim soak`: seeded random aggressive driving over scenes × robots, one table row per
//! combination, the drive script of every failing combination written for replay, and a
//! non-zero exit on any blow-up.

use std::path::{Path, PathBuf};

use super::toml_files;
use anyhow::{bail, Context};
use treadsim::record::progress::Progress;
use treadsim::scene::Scene;
use treadsim::session::Session;
use treadsim::sim::SimConfig;
use treadsim::tools::soak::{self, SoakStats};
use treadsim::vehicle::robot_file::load_robot;

/// Arguments of `treadsim soak`.
#[derive(clap::Args)]
pub struct SoakArgs {
    /// Scene files [default: scenes/*.toml].
    #[arg(long, num_args = 1..)]
    scenes: Vec<PathBuf>,
    /// Robot files [default: scenes/robots/*.toml].
    #[arg(long, num_args = 1..)]
    robots: Vec<PathBuf>,
    /// Simulated minutes per combination.
    #[arg(long, allow_negative_numbers = true, default_value_t = 2.0)]
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
    /// The physics step and contact solve.
    #[command(flatten)]
    step: super::StepArgs,
}

/// A file's stem, for table rows and file names.
fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or("x".into(), |s| s.to_string_lossy().into_owned())
}

/// The scenes and robots to soak: those named, or every file in the library's folders.
fn combinations(a: &SoakArgs) -> anyhow::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    if !(a.minutes.is_finite() && a.minutes > 0.0 && a.minutes <= 1440.0) {
        bail!(
            "--minutes must be greater than 0 and at most 1440, got {}",
            a.minutes
        );
    }
    let scenes = if a.scenes.is_empty() {
        toml_files(Path::new("scenes"))?
    } else {
        a.scenes.clone()
    };
    let robots = if a.robots.is_empty() {
        toml_files(Path::new("scenes/robots"))?
    } else {
        a.robots.clone()
    };
    if scenes.is_empty() || robots.is_empty() {
        bail!("no scenes or no robots to soak");
    }
    Ok((scenes, robots))
}

fn print_header(a: &SoakArgs, scenes: usize, robots: usize) {
    println!(
        "soak: {scenes} scene(s) x {robots} robot(s), {:.1} simulated min each, seed {}",
        a.minutes, a.seed
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

/// One table row (or JSON object) for `stats`.
fn print_row(json: bool, scene: &str, robot: &str, stats: &SoakStats) {
    if json {
        println!("{}", stats.to_json());
        return;
    }
    println!(
        "{:<22} {:<11} {:>8.1} {:>7.1} {:>6} {:>5} {:>5} {:>4} {:>8.2} {:>8.2} {:>10.0}",
        scene,
        robot,
        stats.sim_seconds,
        stats.wall_seconds,
        stats.blow_ups,
        stats.out_of_bounds,
        stats.falls,
        stats.nan,
        stats.max_speed,
        stats.max_spin,
        stats.max_normal_jump
    );
}

/// Writes the failing combination's drive script and returns the line that says how to replay
/// it, with the blow-up, reset and disabling events under it.
fn write_failure(
    a: &SoakArgs,
    scene_path: &Path,
    robot_path: &Path,
    script: &treadsim::session::DriveScript,
    stats: &SoakStats,
) -> anyhow::Result<String> {
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
        stats.blow_ups,
        stats.nan,
        scene_path.display(),
        robot_path.display(),
        file.display(),
        a.minutes * 60.0,
        file.with_extension("csv").display()
    );
    for e in stats
        .events
        .iter()
        .filter(|e| e.contains("blow-up") || e.contains("reset to spawn") || e.contains("disabled"))
    {
        report.push_str("\n    ");
        report.push_str(e);
    }
    Ok(report)
}

/// A free session of the robot file at the scene file's first spawn, with `config`.
fn free_session(scene: &Path, robot: &Path, config: &SimConfig) -> anyhow::Result<Session> {
    let scene_file = Scene::load(scene)?;
    let robot_file = load_robot(robot)?;
    let at = scene_file.spawn_named(None)?.clone();
    Ok(Session::free(scene_file, robot_file, at, *config)?)
}

/// Runs `treadsim soak`.
pub fn soak_command(a: &SoakArgs) -> anyhow::Result<()> {
    let (scenes, robots) = combinations(a)?;
    let config = a.step.sim_config()?;
    let duration = a.minutes * 60.0;
    if !a.json {
        print_header(a, scenes.len(), robots.len());
    }
    let mut total = SoakStats::total(a.seed);
    let mut failures = Vec::new();
    let mut bar = Progress::new("soak");
    let combinations = (scenes.len() * robots.len()) as f64;
    for scene_path in &scenes {
        for robot_path in &robots {
            let session = free_session(scene_path, robot_path, &config)?;
            let seed = soak::combination_seed(a.seed, &stem(scene_path), &stem(robot_path));
            let robot = session.sim().robot(session.robot()).spec().clone();
            let script = soak::random_script(&robot, duration, seed);
            let stats = soak::soak(session, script.clone(), seed, duration);
            bar.clear();
            print_row(a.json, &stem(scene_path), &stem(robot_path), &stats);
            if stats.failed() {
                failures.push(write_failure(a, scene_path, robot_path, &script, &stats)?);
            }
            total.add(&stats);
            bar.set(total.sim_seconds / (duration * combinations));
        }
    }
    bar.clear();
    print_row(a.json, "total", "", &total);
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
