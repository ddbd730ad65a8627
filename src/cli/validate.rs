//! `treadsim validate`: the model against analytic and independent references, printed as a
//! table (or JSON), written as `validation.md` into `--out`, exiting non-zero on any failed
//! row.

use std::path::PathBuf;

use anyhow::{bail, Context};
use treadsim::sim::SimConfig;
use treadsim::tools::validate::{validate, ValidateOptions};

/// Arguments of `treadsim validate`.
#[derive(clap::Args)]
pub struct ValidateArgs {
    /// Physics step, s [default: the simulator's default step].
    #[arg(long, allow_negative_numbers = true)]
    dt: Option<f64>,
    /// Print one JSON object (every row) instead of the table.
    #[arg(long)]
    json: bool,
    /// Folder to write `validation.md` into (e.g. `docs`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The fast form (`make test`): the scout and the wheeled rover only, fewer directions.
    #[arg(long)]
    fast: bool,
    /// Threads to run cases on (0: one per core); the rows are the same for any count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Step the track contacts linearly implicitly (seed 004's implicit step; see
    /// `vehicle::implicit`) instead of explicitly.
    #[arg(long)]
    implicit: bool,
    /// Folder of the robot presets.
    #[arg(long, default_value = "scenes/robots")]
    robots: PathBuf,
}

/// Runs `treadsim validate`; an error (and exit status 1) when any row fails.
pub fn validate_command(a: &ValidateArgs) -> anyhow::Result<()> {
    let mut config = SimConfig {
        implicit_contacts: a.implicit,
        ..SimConfig::default()
    };
    if let Some(dt) = a.dt {
        if !(dt.is_finite() && (0.0001..=0.05).contains(&dt)) {
            bail!("--dt must be from 0.0001 to 0.05 s, got {dt}");
        }
        config.dt = dt;
    }
    let threads = if a.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        a.threads
    };
    let options = ValidateOptions {
        config,
        fast: a.fast,
        threads,
        robots: a.robots.clone(),
    };
    let report = validate(&options)?;
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("{report}");
    }
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join("validation.md");
        std::fs::write(&path, report.markdown())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let failed = report.failures().count();
    if failed > 0 {
        bail!("{failed} of {} validation rows failed", report.rows.len());
    }
    Ok(())
}
