//! The `treadsim` binary's commands, one file each: `check.rs` (check, envelope), `list.rs`,
//! `bench.rs`,
//! `soak.rs`, headless runs (`run.rs`), logs (`log.rs`: replay and report), traffic
//! (`traffic.rs`), the classroom's seat and instructor (`class.rs`) and records (`records.rs`), the model's validation (`validate.rs`), the fit of a robot file to a real robot's log (`calibrate.rs`) and the station and headless shots (`station.rs`), and the choice of glibc's
//! string functions the binary restarts with (`string_functions.rs`), a private runtime
//! folder when the environment has none (`runtime_dir.rs`), and a quiet end when a reader
//! closes the pipe (`broken_pipe.rs`). Part of the binary, not
//! the library.

pub mod bench;
pub mod broken_pipe;
pub mod calibrate;
pub mod check;
#[cfg(feature = "classroom")]
pub mod class;
#[cfg(all(any(feature = "ros2", feature = "foxglove"), feature = "classroom"))]
pub mod external;
#[cfg(all(feature = "foxglove", feature = "classroom"))]
pub mod foxglove;
pub mod list;
pub mod log;
#[cfg(feature = "classroom")]
pub mod records;
#[cfg(all(feature = "ros2", feature = "classroom"))]
pub mod ros2;
pub mod run;
pub mod runtime_dir;
pub mod scene;
pub mod soak;
#[cfg(feature = "viewer")]
pub mod station;
pub mod string_functions;
pub mod traffic;
pub mod validate;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use treadsim::sim::SimConfig;

/// The `.toml` files directly in `dir`, sorted: the library's scenes, robots or exercises
/// (`soak`, `list`).
pub fn toml_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// The physics-step options the measuring commands share (`bench`, `soak`, `validate`).
#[derive(clap::Args)]
pub struct StepArgs {
    /// Physics step, s [default: the simulator's].
    #[arg(long, allow_negative_numbers = true)]
    dt: Option<f64>,
    /// Step the track contacts linearly implicitly (`vehicle::implicit`) [default: the
    /// simulator's choice].
    #[arg(long, conflicts_with = "explicit")]
    implicit: bool,
    /// Step the track contacts explicitly, with per-contact stability caps [default: the
    /// simulator's choice].
    #[arg(long)]
    explicit: bool,
    /// Renew each wheel's friction bristle as the belt moves through its patch
    /// (`FrictionConfig::wheel_patch_renewal`, issue 40) [default: off].
    #[arg(long)]
    wheel_patch_renewal: bool,
}

impl StepArgs {
    /// The simulator's settings with the step and contact solve asked for; an error naming
    /// the range when `--dt` is outside 0.0001–0.05 s.
    pub fn sim_config(&self) -> anyhow::Result<SimConfig> {
        let mut config = SimConfig::default();
        if self.implicit || self.explicit {
            config.implicit_contacts = self.implicit;
        }
        config.friction.wheel_patch_renewal |= self.wheel_patch_renewal;
        if let Some(dt) = self.dt {
            if !(dt.is_finite() && (0.0001..=0.05).contains(&dt)) {
                bail!("--dt must be from 0.0001 to 0.05 s, got {dt}");
            }
            config.dt = dt;
        }
        Ok(config)
    }
}

/// `--threads`: the number given, or one per core for 0.
pub fn threads_or_cores(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}
