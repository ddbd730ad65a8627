//! The `treadsim` command line: the operator station and the headless tools.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use treadsim::scene::Scene;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { scenes } => check(&scenes),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
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
