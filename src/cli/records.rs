//! `treadsim records`: the class's records from the command line — attempts, one trainee's
//! standing, exports, a trainee's data deleted, and the exercises' proficiency thresholds.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use treadsim::classroom::protocol::ProficiencyStandard;
use treadsim::classroom::records::{AttemptRow, Records, DEFAULT_RECORDS};

/// Arguments of `treadsim records`.
#[derive(clap::Args)]
pub struct RecordsArgs {
    /// The records file.
    #[arg(long, default_value = DEFAULT_RECORDS)]
    pub db: PathBuf,
    /// What to show or do.
    #[command(subcommand)]
    pub what: RecordsCommand,
}

/// `treadsim records` subcommands.
#[derive(clap::Subcommand)]
pub enum RecordsCommand {
    /// Every attempt, oldest first.
    List {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// One trainee's attempts and their standing on each exercise.
    Trainee {
        /// The trainee's id.
        id: String,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every attempt (or one trainee's) to a CSV or JSON file (`-` for standard output).
    Export {
        /// CSV file.
        #[arg(long, conflicts_with = "json", required_unless_present = "json")]
        csv: Option<PathBuf>,
        /// JSON file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Only this trainee's.
        #[arg(long)]
        trainee: Option<String>,
    },
    /// Delete one trainee and all their attempts (their personal data).
    Delete {
        /// The trainee's id.
        id: String,
        /// Confirm.
        #[arg(long, required = true)]
        yes: bool,
    },
    /// Every exercise's proficiency threshold (the exercise file's, or the instructor's).
    Thresholds {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Set an exercise's proficiency threshold (it outlasts the exercise file's), or give it
    /// back to the file with --file.
    Threshold {
        /// The exercise (as assigned: the file's name without .toml).
        exercise: String,
        /// Share of the last --window finished attempts passed, 0–1.
        #[arg(long, required_unless_present = "file", conflicts_with = "file")]
        pass_rate: Option<f64>,
        /// Mean repetitions per minute over them.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        reps_per_min: f64,
        /// Attempts looked at, 1–100.
        #[arg(long, default_value_t = 5)]
        window: u32,
        /// The exercise file's threshold again (as its last attempt reported it).
        #[arg(long)]
        file: bool,
    },
}

fn attempts_table(rows: &[AttemptRow]) -> String {
    let mut out = format!(
        "{:<28} {:<10} {:<8} {:<22} {:<10} {:>6} {:>7} {:>7}\n",
        "attempt", "trainee", "seat", "exercise", "status", "score", "time s", "reps/min"
    );
    for r in rows {
        out += &format!(
            "{:<28} {:<10} {:<8} {:<22} {:<10} {:>6.1} {:>7.1} {:>7.2}\n",
            r.id,
            r.trainee.as_deref().unwrap_or("-"),
            r.seat,
            r.exercise,
            r.status,
            r.score,
            r.duration_s,
            r.reps_per_min
        );
    }
    out
}

/// Quotes a CSV field when it must be (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn attempts_csv(rows: &[AttemptRow]) -> String {
    let mut out = String::from(
        "id,trainee,seat,exercise,robot,started_unix_s,duration_s,status,score,completed,required,reps_per_min,faults,penalty_points,reason,log_path,log_sha256\n",
    );
    for r in rows {
        let fields = [
            csv_field(&r.id),
            csv_field(r.trainee.as_deref().unwrap_or("")),
            csv_field(&r.seat),
            csv_field(&r.exercise),
            csv_field(&r.robot),
            format!("{}", r.started_unix_s),
            format!("{}", r.duration_s),
            csv_field(&r.status),
            format!("{}", r.score),
            r.completed.to_string(),
            r.required.to_string(),
            format!("{}", r.reps_per_min),
            r.faults.to_string(),
            format!("{}", r.penalty_points),
            csv_field(&r.reason),
            csv_field(r.log_path.as_deref().unwrap_or("")),
            csv_field(r.log_sha256.as_deref().unwrap_or("")),
        ];
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

fn write_out(path: &Path, text: &str) -> anyhow::Result<()> {
    if path == Path::new("-") {
        print!("{text}");
        return Ok(());
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// `treadsim records`.
pub fn records_command(a: &RecordsArgs) -> anyhow::Result<()> {
    let mut records = Records::open_existing(&a.db)?;
    match &a.what {
        RecordsCommand::List { json } => {
            let rows = records.attempts(None)?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                print!("{}", attempts_table(&rows));
            }
        }
        RecordsCommand::Trainee { id, json } => {
            let rows = records.attempts(Some(id))?;
            let standing = records.proficiency(id)?;
            if rows.is_empty() && !records.trainees()?.contains(id) {
                bail!("no trainee '{id}' in {}", a.db.display());
            }
            if *json {
                let v =
                    serde_json::json!({"trainee": id, "attempts": rows, "proficiency": standing});
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print!("{}", attempts_table(&rows));
                for p in standing {
                    println!(
                        "{}: last {} of {}: pass rate {:.0} % (needs {:.0} %), {:.2} reps/min (needs {:.2}): {}",
                        p.exercise,
                        p.attempts,
                        p.window,
                        p.pass_rate * 100.0,
                        p.threshold_pass_rate * 100.0,
                        p.reps_per_min,
                        p.threshold_reps_per_min,
                        if p.qualified { "qualified" } else { "not yet" }
                    );
                }
            }
        }
        RecordsCommand::Export { csv, json, trainee } => {
            let rows = records.attempts(trainee.as_deref())?;
            if let Some(path) = csv {
                write_out(path, &attempts_csv(&rows))?;
            }
            if let Some(path) = json {
                write_out(path, &(serde_json::to_string_pretty(&rows)? + "\n"))?;
            }
        }
        RecordsCommand::Delete { id, yes: _ } => {
            let n = records.delete_trainee(id)?;
            println!("deleted trainee {id} and {n} attempt(s)");
        }
        RecordsCommand::Thresholds { json } => {
            let rows = records.thresholds()?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for t in rows {
                    println!(
                        "{:<28} pass rate {:>3.0} %, {:.2} reps/min over the last {} ({})",
                        t.exercise,
                        t.pass_rate * 100.0,
                        t.reps_per_min,
                        t.window,
                        if t.by_instructor {
                            "the instructor's"
                        } else {
                            "the exercise file's"
                        }
                    );
                }
            }
        }
        RecordsCommand::Threshold {
            exercise,
            pass_rate,
            reps_per_min,
            window,
            file: _,
        } => {
            let threshold = pass_rate.map(|pass_rate| ProficiencyStandard {
                pass_rate,
                reps_per_min: *reps_per_min,
                window: *window,
            });
            records.set_threshold(
                exercise,
                threshold,
                treadsim::classroom::protocol::unix_now(),
            )?;
            match threshold {
                Some(_) => println!("{exercise}: the instructor's threshold set"),
                None => println!("{exercise}: the exercise file's threshold again"),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_with_commas_and_quotes_are_quoted() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
