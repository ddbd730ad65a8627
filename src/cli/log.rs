//! `treadsim replay` and `treadsim report`: what can be done with logs.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use treadsim::record::progress::Progress;
use treadsim::record::report::write_report;
use treadsim::record::{file_stem, replay, Log};

/// Arguments of `treadsim replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The log (MCAP) of a station session or a `treadsim run`.
    pub log: PathBuf,
    /// Compare every state snapshot with the recorded one, bit for bit; exits 1 at the first
    /// divergence and names its time and quantity.
    #[arg(long)]
    pub verify: bool,
}

/// `treadsim replay LOG [--verify]`; `Ok(false)` when the replay diverged.
pub fn replay_command(a: &ReplayArgs) -> anyhow::Result<bool> {
    let log = Log::read(&a.log)?;
    let h = &log.header;
    println!(
        "{}: {} log of treadsim {}: {} on {}{}, {} inputs, {} snapshots, {:.1} s",
        a.log.display(),
        h.kind,
        h.version,
        h.robot_name,
        h.scene_name,
        h.exercise_name
            .as_ref()
            .map_or(String::new(), |e| format!(", exercise '{e}'")),
        log.inputs.len(),
        log.snapshots.len(),
        log.last_complete_time()
    );
    if let Some(why) = &log.truncated {
        println!(
            "the log is cut short: {why}; replaying up to its last complete second, {:.3} s (step {})",
            log.last_complete_time(),
            log.last_complete_step()
        );
    }
    let mut bar = Progress::new(if a.verify { "verify" } else { "replay" });
    let start = Instant::now();
    let outcome = replay(&log, a.verify, |f| bar.set(f))?;
    let wall = start.elapsed().as_secs_f64();
    println!(
        "replayed {:.3} s ({} steps) in {wall:.1} s wall",
        outcome.time, outcome.steps
    );
    if !a.verify {
        return Ok(true);
    }
    if let Some(d) = &outcome.divergence {
        println!(
            "DIVERGED {d} (after {} identical snapshots)",
            outcome.snapshots_checked.saturating_sub(1)
        );
        return Ok(false);
    }
    if outcome.result_matches == Some(false) {
        println!("DIVERGED: the trial's result differs from the recorded one");
        return Ok(false);
    }
    if outcome.snapshots_checked == 0 {
        bail!("the log holds no snapshot to verify against");
    }
    println!(
        "identical: {} snapshots bit for bit{}",
        outcome.snapshots_checked,
        match outcome.result_matches {
            Some(true) => ", and the same trial result",
            _ => "",
        }
    );
    Ok(true)
}

/// Arguments of `treadsim report`.
#[derive(clap::Args)]
pub struct ReportArgs {
    /// Logs (MCAP) to report on; several logs of one exercise are compared.
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Folder for index.html and the plots (PNG and SVG) [default: reports/<first log's
    /// name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Where a report goes: `--out`, else `reports/<stem of the first log>/`.
fn report_folder(a: &ReportArgs) -> PathBuf {
    a.out.clone().unwrap_or_else(|| {
        let first = a.logs.first().map(|p| file_stem(p)).unwrap_or_default();
        PathBuf::from("reports").join(first)
    })
}

/// `treadsim report LOG... [--out DIR]`.
pub fn report_command(a: &ReportArgs) -> anyhow::Result<()> {
    let mut bar = Progress::new("report");
    let mut logs = Vec::new();
    let total = a.logs.len() as f64;
    for (i, path) in a.logs.iter().enumerate() {
        let log = Log::read(path)?;
        if let Some(why) = &log.truncated {
            eprintln!(
                "note: {} is cut short ({why}); reporting up to {:.1} s",
                path.display(),
                log.last_complete_time()
            );
        }
        logs.push(log);
        bar.set(0.5 * (i + 1) as f64 / total);
    }
    let files = write_report(logs, &report_folder(a), |f| bar.set(0.5 + 0.5 * f))?;
    println!(
        "report: {} ({} figures, PNG and SVG)",
        files.index.display(),
        files.figures.len() / 2
    );
    Ok(())
}
