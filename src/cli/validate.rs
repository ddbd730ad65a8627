//! `treadsim validate`: the model against analytic and independent references, printed as a
//! table (or JSON), written as `validation.md` into `--out`, exiting non-zero on any failed
//! row.

use std::path::PathBuf;

use anyhow::{bail, Context};
use treadsim::tools::validate::{validate, ValidateOptions};

/// Arguments of `treadsim validate`.
#[derive(clap::Args)]
pub struct ValidateArgs {
    /// The physics step and contact solve.
    #[command(flatten)]
    step: super::StepArgs,
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
    /// Folder of the robot presets.
    #[arg(long, default_value = "scenes/robots")]
    robots: PathBuf,
}

/// Runs `treadsim validate`; an error (and exit status 1) when any row fails.
pub fn validate_command(a: &ValidateArgs) -> anyhow::Result<()> {
    let options = ValidateOptions {
        config: a.step.sim_config()?,
        fast: a.fast,
        threads: super::threads_or_cores(a.threads),
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
