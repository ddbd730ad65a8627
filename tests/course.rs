//! The graded course: every shipped exercise passes with its passing drive script and fails,
//! for the reason its failing script states, with the other.
//!
//! Convention: `scenes/exercises/<stem>.toml` has `scenes/exercises/scripts/<stem>.pass.toml`
//! and `<stem>.fail.toml`, each timed commands or goals for the autopilot. The failing script's
//! first line is `# expect: <text>`, a fragment of the reason the trial fails for (`time over`,
//! `below the pass mark`) — what the score table's result line says — with `a | b` where the
//! script's comment explains why either may happen.
//! A second line `# faults: <a>, <b>` may name the faults the mistake causes on the way
//! (`tip-over`, `roll-over`, `fall`, `out of bounds`, `motor stall`); each must happen.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use treadsim::exercise::{Exercise, ExerciseEvent};
use treadsim::sim::SimConfig;

fn exercises() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/exercises");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("scenes/exercises")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn script_path(exercise: &Path, kind: &str) -> PathBuf {
    let stem = exercise.file_stem().expect("stem").to_string_lossy();
    exercise
        .parent()
        .expect("dir")
        .join("scripts")
        .join(format!("{stem}.{kind}.toml"))
}

/// A trial of `exercise` driven by the script file at `path`: timed commands, or goals for the
/// autopilot (as `treadsim run --exercise --script` takes either).
fn run_script(exercise: &Exercise, path: &Path) -> treadsim::session::headless::HeadlessRun {
    let file = treadsim::config::SourceFile::read(path).unwrap_or_else(|e| panic!("{e}"));
    let mut driver = treadsim::session::script_driver(&file, &exercise.robot, false)
        .unwrap_or_else(|e| panic!("{e}"));
    let session = treadsim::session::Session::exercise(exercise, SimConfig::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    treadsim::session::headless::run_trial_with(session, driver.as_mut(), |_| {})
}

#[test]
fn every_exercise_passes_with_its_script_and_fails_for_its_stated_reason() {
    let files = exercises();
    assert!(
        files.len() >= 12,
        "the course has {} exercises",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let exercise = Exercise::load(path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display();
        let run = run_script(&exercise, &script_path(path, "pass"));
        if !run.result.passed {
            failures.push(format!(
                "{name}: the passing script failed: {}\n{}",
                run.result.reason,
                treadsim::exercise::report::score_table(&run.result)
            ));
        }
        let fail_path = script_path(path, "fail");
        let text = fs::read_to_string(&fail_path)
            .unwrap_or_else(|e| panic!("{}: {e}", fail_path.display()));
        let header = |key: &str, line: usize| {
            text.lines()
                .nth(line)
                .and_then(|l| l.strip_prefix(key))
                .map(str::trim)
        };
        let expect = header("# expect:", 0).unwrap_or_else(|| {
            panic!(
                "{}: first line must be '# expect: ...'",
                fail_path.display()
            )
        });
        let faults: Vec<&str> = header("# faults:", 1)
            .map(|l| l.split(',').map(str::trim).collect())
            .unwrap_or_default();
        let run = run_script(&exercise, &fail_path);
        // `a | b`: the script's comment names either outcome (a chaotic run such as weaving
        // through traffic may end either way; each must be a failure the script explains).
        let expected = expect
            .split('|')
            .map(str::trim)
            .any(|e| run.result.reason.contains(e));
        if run.result.passed || !expected {
            failures.push(format!(
                "{name}: the failing script should fail for '{expect}': {}\n{}",
                run.result.reason,
                treadsim::exercise::report::score_table(&run.result)
            ));
        }
        for fault in faults {
            let happened =
                run.result.events.iter().any(
                    |e| matches!(e, ExerciseEvent::Fault { kind, .. } if kind.name() == fault),
                );
            if !happened {
                failures.push(format!(
                    "{name}: the failing script names the fault '{fault}', which did not happen\n{}",
                    treadsim::exercise::report::score_table(&run.result)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
