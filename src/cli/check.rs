//! `treadsim check` (scene and exercise files validated and summarised) and `treadsim
//! envelope` (a robot's spec sheet).

use std::path::{Path, PathBuf};
use std::time::Instant;

use treadsim::exercise::Exercise;
use treadsim::scene::Scene;
use treadsim::vehicle::robot_file::load_robot;

/// Arguments of `treadsim envelope`.
#[derive(clap::Args)]
pub struct EnvelopeArgs {
    /// Robot file.
    #[arg(long, default_value = "scenes/robots/scout.toml")]
    robot: PathBuf,
    /// Print one JSON object (every trial with its outcome) instead of the sheet.
    #[arg(long)]
    json: bool,
    /// Threads to run trials on (0: one per core); the sheet is the same for any count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Runs `treadsim check` on scene and exercise files: stops at the first invalid one.
pub fn check(paths: &[PathBuf]) -> anyhow::Result<()> {
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

/// Runs `treadsim envelope`.
pub fn envelope_command(a: &EnvelopeArgs) -> anyhow::Result<()> {
    let spec = load_robot(Path::new(&a.robot))?;
    let threads = if a.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        a.threads
    };
    let started = Instant::now();
    let sheet = treadsim::envelope::measure(&spec, threads)?;
    if a.json {
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
