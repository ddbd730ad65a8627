//! `treadsim bench`: the full step (track model + rapier) timed against a bare rapier step in
//! one process, or with `--digest` a fingerprint of every robot's pose after every step.

use std::path::PathBuf;

use anyhow::bail;
use treadsim::scene::Scene;
use treadsim::tools::bench::{
    run_bench, steps_for, trace_digest, BenchConfig, BenchReport, StairDriver, ROUND_TIME,
    WARMUP_TIME,
};
use treadsim::vehicle::robot_file::load_robot;

/// The one-robot bench's scene (the default training exercise's).
const DEFAULT_SCENE: &str = "scenes/public_stairs.toml";

/// The many-robot bench's scene: ten flights side by side, spawns for 100 robots.
const BENCH_FIELD_SCENE: &str = "scenes/bench_field.toml";

/// Arguments of `treadsim bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
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
    /// Steps per measured round [default: 4 s of simulated time, 2000 steps at 2 ms, so the
    /// window is the same part of the climb at any --dt].
    #[arg(long)]
    steps: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Instead of timing: drive the full world alone for --steps steps from the start and
    /// print a digest of every robot's pose after every step (a fixed workload to profile,
    /// e.g. under `valgrind --tool=callgrind`; equal digests mean bit-identical
    /// trajectories).
    #[arg(long)]
    digest: bool,
    /// The armed case: an armed robot carries a box of this mass, kg, gripped with its arm in
    /// the `drive` pose for the whole climb.
    #[arg(long)]
    hold: Option<f64>,
    /// The physics step and contact solve.
    #[command(flatten)]
    step: super::StepArgs,
}

/// Runs `treadsim bench`.
pub fn bench_command(a: &BenchArgs) -> anyhow::Result<()> {
    if !(1..=256).contains(&a.robots) {
        bail!("--robots must be between 1 and 256, got {}", a.robots);
    }
    if let Some(steps) = a.steps.filter(|s| !(100..=10_000_000).contains(s)) {
        bail!("--steps must be between 100 and 10000000, got {steps}");
    }
    let scene = match &a.scene {
        Some(path) => path.clone(),
        None if a.robots == 1 => PathBuf::from(DEFAULT_SCENE),
        None => PathBuf::from(BENCH_FIELD_SCENE),
    };
    let scene = Scene::load(&scene)?;
    let spec = load_robot(&a.robot)?;
    if let Some(m) = a.hold {
        if !(m > 0.0 && m <= 1000.0) {
            bail!("--hold must be a mass in kg between 0 and 1000, got {m}");
        }
        if spec.arm.is_none() {
            bail!("--hold needs a robot with an arm; '{}' has none", spec.name);
        }
    }
    if a.digest {
        let config = a.step.sim_config()?;
        let steps = a.steps.unwrap_or_else(|| steps_for(ROUND_TIME, config.dt));
        let d = trace_digest(
            scene,
            &spec,
            a.robots,
            steps,
            StairDriver::default(),
            a.hold,
            config,
        )?;
        if a.json {
            println!(
                "{{\"digest\":\"{:016x}\",\"steps\":{},\"lowest_robot_z\":{:.4}}}",
                d.digest, d.steps, d.lowest_robot_z
            );
        } else {
            println!(
                "digest {:016x} after {} steps of {} robot(s) '{}'; the lowest ended at z = {:.4} m",
                d.digest, d.steps, a.robots, spec.name, d.lowest_robot_z
            );
        }
        return Ok(());
    }
    let sim = a.step.sim_config()?;
    // The same simulated time at any step: 10 s of warm-up, 4 s per round.
    let config = BenchConfig {
        robots: a.robots,
        steps: a.steps.unwrap_or_else(|| steps_for(ROUND_TIME, sim.dt)),
        held_load: a.hold,
        warmup: steps_for(WARMUP_TIME, sim.dt),
        sim,
        ..BenchConfig::default()
    };
    let report = run_bench(scene, &spec, &config)?;
    if a.json {
        println!("{}", report.to_json());
    } else {
        print_report(&report, &spec.name, &config);
    }
    Ok(())
}

/// The measurement as text.
fn print_report(r: &BenchReport, robot: &str, config: &BenchConfig) {
    println!(
        "{} robot(s) '{}' on {} triangles, dt {:.1} ms, median of {} rounds x {} steps",
        r.robots,
        robot,
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
    if let Some(m) = config.held_load {
        println!(
            "  carrying {m} kg in the gripper: {} of {} still holding at the end",
            r.holding, r.robots
        );
    }
}
