//! The after-action report: `treadsim report LOG... --out DIR` writes `DIR/index.html` with,
//! per log, the trajectory from above over the scene's plan (goals, faults and penalties
//! marked), pitch and roll over time with the tip-over limits, belt speeds commanded and
//! actual with the motor loads (each plot as PNG and SVG), the score table and a timeline of
//! events; given several logs of one exercise, a comparison of the attempts (score,
//! repetitions per minute, faults) so progress over a course is visible.
//!
//! - [`data`]: what the report takes out of a log.
//! - [`plots`]: the figures.

pub mod data;
pub mod plots;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::file_stem;
use super::Log;
use crate::exercise::report::{result_text, verdict};
use data::RunData;
use plots::{Figure, PlotError};

/// A report that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file or folder could not be written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said (in the message, not a separate source: said once).
        error: std::io::Error,
    },
    /// A plot failed.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// Nothing to report.
    #[error("no logs to report on")]
    Empty,
}

/// What a report wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFiles {
    /// The HTML page.
    pub index: PathBuf,
    /// Every figure, PNG and SVG.
    pub figures: Vec<PathBuf>,
}

/// Text made safe for HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `YYYY-MM-DD HH:MM UTC` of a Unix time, s.
fn date(unix_s: u64) -> String {
    let [year, month, day, hour, minute, _] = super::utc_date(unix_s);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

/// Writes the report on `logs` into the folder `out`; `progress` gets the fraction done.
pub fn write_report(
    logs: Vec<Log>,
    out: &Path,
    mut progress: impl FnMut(f64),
) -> Result<ReportFiles, ReportError> {
    if logs.is_empty() {
        return Err(ReportError::Empty);
    }
    std::fs::create_dir_all(out).map_err(|error| ReportError::Io {
        path: out.to_path_buf(),
        error,
    })?;
    let total = logs.len() as f64;
    let runs: Vec<RunData> = logs.into_iter().map(RunData::of).collect();
    let mut figures = Vec::new();
    let mut html = String::new();
    html += "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>treadsim after-action report</title>\n<style>\
        body{font-family:sans-serif;margin:2em;max-width:1000px}table{border-collapse:collapse;margin:1em 0}\
        td,th{border:1px solid #bbb;padding:3px 8px;text-align:left}th{background:#eee}\
        img{max-width:100%;border:1px solid #ddd;margin:0.5em 0}.pass{color:#070}.fail{color:#b00}.unfinished{color:#a60}\
        .note{color:#a60}</style></head><body>\n";
    let _ = writeln!(
        html,
        "<h1>After-action report</h1>\n<p>{} log(s), written by treadsim {}.</p>",
        runs.len(),
        esc(super::header::VERSION)
    );
    attempts_section(&runs, out, &mut html, &mut figures)?;
    for (i, run) in runs.iter().enumerate() {
        run_section(i, run, out, &mut html, &mut figures)?;
        progress((i + 1) as f64 / total);
    }
    html += "</body></html>\n";
    let index = out.join("index.html");
    std::fs::write(&index, html).map_err(|error| ReportError::Io {
        path: index.clone(),
        error,
    })?;
    Ok(ReportFiles { index, figures })
}

/// The attempts of each exercise compared (when any exercise has more than one log).
fn attempts_section(
    runs: &[RunData],
    out: &Path,
    html: &mut String,
    figures: &mut Vec<PathBuf>,
) -> Result<(), ReportError> {
    let mut titles: Vec<String> = Vec::new();
    for run in runs {
        if run.log.header.exercise_name.is_some() && !titles.contains(&run.title()) {
            titles.push(run.title());
        }
    }
    for (g, title) in titles.iter().enumerate() {
        let mut attempts: Vec<&RunData> = runs.iter().filter(|r| &r.title() == title).collect();
        if attempts.len() < 2 {
            continue;
        }
        attempts.sort_by_key(|r| r.log.header.created_unix_s);
        let _ = writeln!(
            html,
            "<h2>Attempts at “{}”</h2>\n<table><tr><th>attempt</th><th>recorded</th><th>log</th>\
             <th>result</th><th>score</th><th>repetitions</th><th>faults</th><th>rep/min</th>\
             <th>elapsed, s</th><th>penalties</th></tr>",
            esc(title)
        );
        let (mut scores, mut per_minute) = (Vec::new(), Vec::new());
        for (i, run) in attempts.iter().enumerate() {
            let n = |key: &str| run.result_number(key);
            let result = run.log.end.as_ref().and_then(|e| e.result.as_ref());
            let passed = result
                .and_then(|r| r.get("passed"))
                .and_then(Value::as_bool);
            let reason = result
                .and_then(|r| r.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("");
            scores.push(n("score").unwrap_or(0.0));
            per_minute.push(n("repetitions_per_minute").unwrap_or(0.0));
            let fmt =
                |v: Option<f64>, digits: usize| v.map_or("–".into(), |v| format!("{v:.digits$}"));
            let _ = writeln!(
                html,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} of {}</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                date(run.log.header.created_unix_s),
                esc(&run.name),
                match passed {
                    Some(passed) => {
                        let verdict = verdict(passed, reason);
                        format!(
                            "<span class=\"{}\">{verdict}</span>",
                            verdict.to_lowercase()
                        )
                    }
                    None => "cut short".to_owned(),
                },
                fmt(n("score"), 0),
                fmt(n("completed"), 0),
                fmt(n("required"), 0),
                fmt(n("faults"), 0),
                fmt(n("repetitions_per_minute"), 2),
                fmt(n("elapsed_s"), 1),
                fmt(n("penalty_points"), 0),
            );
        }
        html.push_str("</table>\n");
        let stem = format!("attempts-{}", g + 1);
        Figure::Progress(title, &scores, &per_minute).write(out, &stem)?;
        push_figure(
            html,
            figures,
            out,
            &stem,
            "score and repetitions per minute per attempt",
        );
    }
    Ok(())
}

fn push_figure(html: &mut String, figures: &mut Vec<PathBuf>, out: &Path, stem: &str, alt: &str) {
    let _ = writeln!(
        html,
        "<p><a href=\"{stem}.svg\"><img src=\"{stem}.png\" alt=\"{}\"></a></p>",
        esc(alt)
    );
    figures.push(out.join(format!("{stem}.png")));
    figures.push(out.join(format!("{stem}.svg")));
}

/// One log: what it is, the score table, the plots and the event timeline.
fn run_section(
    i: usize,
    run: &RunData,
    out: &Path,
    html: &mut String,
    figures: &mut Vec<PathBuf>,
) -> Result<(), ReportError> {
    let h = &run.log.header;
    let _ = writeln!(
        html,
        "<h2>{}. {}</h2>\n<p>{} on {}, recorded {} ({} log, {:.1} s simulated): <code>{}</code></p>",
        i + 1,
        esc(&run.title()),
        esc(&h.robot_name),
        esc(&h.scene_name),
        date(h.created_unix_s),
        esc(&h.kind),
        run.log.last_complete_time(),
        esc(&run.log.path.display().to_string())
    );
    if let Some(why) = &run.log.truncated {
        let _ = writeln!(
            html,
            "<p class=\"note\">The log is cut short ({}); shown up to {:.1} s.</p>",
            esc(why),
            run.log.last_complete_time()
        );
    }
    for note in &run.notes {
        let _ = writeln!(html, "<p class=\"note\">{}</p>", esc(note));
    }
    if let Some(result) = run.log.end.as_ref().and_then(|e| e.result.as_ref()) {
        score_table(result, html);
    }
    let stem = format!("{:02}-{}", i + 1, file_stem(&run.log.path));
    for (figure, kind, alt) in [
        (Figure::Trajectory(run), "trajectory", "the path from above"),
        (
            Figure::Attitude(run),
            "attitude",
            "pitch and roll with the tip-over limits",
        ),
        (Figure::Belts(run), "belts", "belt speeds and motor loads"),
    ] {
        let name = format!("{stem}-{kind}");
        figure.write(out, &name)?;
        push_figure(html, figures, out, &name, alt);
    }
    html.push_str("<h3>Timeline</h3>\n");
    if run.events().is_empty() {
        html.push_str("<p>No events.</p>\n");
    } else {
        html.push_str("<table><tr><th>time, s</th><th>from</th><th>what</th></tr>\n");
        for e in run.events() {
            let _ = writeln!(
                html,
                "<tr><td>{:.2}</td><td>{}</td><td>{}</td></tr>",
                e.time,
                esc(&e.source),
                esc(e.text.trim())
            );
        }
        html.push_str("</table>\n");
    }
    Ok(())
}

/// The trial's result as a table.
fn score_table(result: &Value, html: &mut String) {
    let n = |key: &str| result.get(key).and_then(Value::as_f64);
    let passed = result.get("passed").and_then(Value::as_bool) == Some(true);
    let reason = result.get("reason").and_then(Value::as_str).unwrap_or("");
    let rows = [
        (
            "repetitions",
            format!(
                "{} of {}",
                n("completed").unwrap_or(0.0),
                n("required").unwrap_or(0.0)
            ),
        ),
        ("faults", format!("{}", n("faults").unwrap_or(0.0))),
        ("elapsed", format!("{:.1} s", n("elapsed_s").unwrap_or(0.0))),
        (
            "repetitions/min",
            format!("{:.2}", n("repetitions_per_minute").unwrap_or(0.0)),
        ),
        (
            "penalties",
            format!("{:.0} points", n("penalty_points").unwrap_or(0.0)),
        ),
        ("score", format!("{:.0} / 100", n("score").unwrap_or(0.0))),
    ];
    let closest = result
        .get("closest_goal")
        .and_then(Value::as_str)
        .zip(n("closest_m"))
        .map(|(goal, m)| ("closest", format!("{m:.2} m from {goal}")));
    let link = result
        .get("link")
        .and_then(Value::as_str)
        .map(|l| ("link", l.to_string()));
    html.push_str("<table>\n");
    for (name, value) in rows.into_iter().chain(closest).chain(link) {
        let _ = writeln!(html, "<tr><th>{name}</th><td>{}</td></tr>", esc(&value));
    }
    let _ = writeln!(
        html,
        "<tr><th>result</th><td class=\"{}\">{}</td></tr>\n</table>",
        verdict(passed, reason).to_lowercase(),
        esc(&result_text(passed, reason))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a log of a station session closed mid-trial (not passed, no reason) showed
    /// `FAIL: ` with nothing after it, while the station said UNFINISHED.
    #[test]
    fn a_trial_cut_short_reads_unfinished_as_the_station_said() {
        let mut html = String::new();
        score_table(
            &serde_json::json!({"passed": false, "reason": ""}),
            &mut html,
        );
        assert!(html.contains(">UNFINISHED</td>"), "{html}");
        assert!(!html.contains("FAIL"), "{html}");
        html.clear();
        score_table(
            &serde_json::json!({"passed": false, "reason": "time limit reached"}),
            &mut html,
        );
        assert!(
            html.contains("class=\"fail\">FAIL: time limit reached<"),
            "{html}"
        );
        html.clear();
        score_table(
            &serde_json::json!({"passed": true, "reason": ""}),
            &mut html,
        );
        assert!(html.contains("class=\"pass\">PASS<"), "{html}");
    }

    #[test]
    fn dates_and_escapes() {
        assert_eq!(date(1_795_383_139), "2026-11-22 21:32 UTC");
        assert_eq!(esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
