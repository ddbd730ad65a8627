//! `treadsim validate`: the fast form passes at the default step, the checks can fail (the
//! explicit step's energy gain at 5 ms is caught), `docs/validation.md` lists the rows a full
//! run gives, and the command writes the report and refuses a bad step.

mod common;
use common::{validation, validation_with};

use std::path::Path;
use std::process::Command;

use treadsim::sim::SimConfig;
use treadsim::tools::validate::REFERENCES;

/// Every case family the fast form must hold.
const CASES: [&str; 8] = [
    "rest on flat ground",
    "drop from 0.2 m",
    "straight",
    "steady turn",
    "slope, belts held",
    "tilt table",
    "gap",
    "Ackermann circle",
];

#[test]
fn the_fast_form_passes_at_the_default_step() {
    let config = SimConfig::default();
    let report = validation(true, config.dt, config.implicit_contacts);
    println!("{report}");
    assert!(report.passed, "{report}");
    for case in CASES {
        assert!(report.rows.iter().any(|r| r.case == case), "no {case} row");
    }
    // The Coulomb equilibrium on the model's own contact loads agrees far inside its
    // tolerance: a steady turn is the model's friction law and nothing else.
    for r in report
        .rows
        .iter()
        .filter(|r| r.quantity.contains("yaw rate"))
    {
        assert!(
            (r.model - r.reference).abs() < 0.005 * r.reference.abs(),
            "{r:?}"
        );
    }
    let markdown = report.markdown();
    for r in &report.rows {
        assert!(markdown.contains(&r.quantity), "{}", r.quantity);
        assert!(REFERENCES.iter().any(|s| s.key == r.source), "{}", r.source);
    }
}

/// With the wheels' bristles renewed by the belt's motion (issue 40's law, not the default
/// yet) the steady turns still agree with the equilibrium solve, which then takes each
/// contact's slip-ratio stiffness, within 0.5 % — and turn slower than the Coulomb solve
/// (2026-12-02: scout's skid turn 0.575 rad/s against 0.746; every other family passes but
/// the straight runs' miss of seed 000's no-slip path, which the renewed law's 1.2–2.5 %
/// slip against rolling resistance exceeds for selfright20).
#[test]
fn steady_turns_with_renewed_wheel_patches_agree_with_their_equilibrium() {
    let mut config = SimConfig::default();
    config.friction.wheel_patch_renewal = true;
    let renewed = validation_with(true, config);
    let plain = SimConfig::default();
    let coulomb = validation(true, plain.dt, plain.implicit_contacts);
    let mut turns = 0;
    for (r, c) in renewed.rows.iter().zip(&coulomb.rows) {
        assert_eq!(r.quantity, c.quantity);
        if r.case == "steady turn" && r.quantity.contains("yaw rate") {
            turns += 1;
            assert!(r.pass, "{r:?}");
            assert!(
                (r.model - r.reference).abs() < 0.005 * r.reference.abs(),
                "{r:?}"
            );
            assert!(r.model.abs() < c.model.abs(), "{r:?} vs {c:?}");
        } else if r.case != "straight" {
            assert!(r.pass, "{r:?}");
        }
    }
    assert!(turns >= 2, "{turns} yaw-rate rows");
}

/// The explicit contact step gains energy on impact at 5 ms (issue 35's starting point): the
/// drop rows see it, so the table is a test that can fail.
#[test]
fn the_drop_rows_catch_the_explicit_steps_energy_gain_at_5_ms() {
    let report = validation(true, 0.005, false);
    let drop = report
        .rows
        .iter()
        .find(|r| r.quantity.starts_with("largest energy rise"))
        .expect("drop row");
    assert!(!drop.pass, "{drop:?}");
    assert!(!report.passed);
}

/// The (case, robot, quantity, result) of each row of a markdown table.
fn doc_rows(markdown: &str) -> Vec<(String, String, String, String)> {
    markdown
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| case"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let cell = |i: usize| cells[i].trim_matches(|c| c == '|' || c == ' ').to_string();
            (cell(0), cell(1), cell(2), cell(6))
        })
        .collect()
}

/// `docs/validation.md` is the full form at the default step: the same rows, each with the
/// same result, as a run now (regenerate with `treadsim validate --out docs`).
#[test]
fn the_published_report_lists_what_a_full_run_gives() {
    let config = SimConfig::default();
    let report = validation(false, config.dt, config.implicit_contacts);
    let published = std::fs::read_to_string("docs/validation.md").expect("docs/validation.md");
    let step = format!("(step {} ms)", config.dt * 1000.0);
    assert!(published.contains(&step), "not the default step {step}");
    let (old, new) = (doc_rows(&published), doc_rows(&report.markdown()));
    let first = old.iter().zip(&new).position(|(a, b)| a != b);
    assert!(
        first.is_none() && old.len() == new.len(),
        "docs/validation.md is out of date (regenerate: treadsim validate --out docs): \
         {} rows published, {} now; first difference: {:?} vs {:?}",
        old.len(),
        new.len(),
        first.map(|i| &old[i]),
        first.map(|i| &new[i])
    );
    assert!(report.passed, "{report}");
}

fn treadsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_treadsim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("treadsim runs")
}

#[test]
fn the_command_writes_the_report_and_refuses_a_bad_step() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("validate_out");
    let _ = std::fs::remove_dir_all(&dir);
    let out = treadsim(&["validate", "--fast", "--out", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("0 failed"), "{stdout}");
    let md = std::fs::read_to_string(dir.join("validation.md")).expect("written");
    assert!(md.starts_with("# Validation report"));
    let out = treadsim(&["validate", "--fast", "--dt", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--dt must be from 0.0001 to 0.05 s, got 1"),
        "{stderr}"
    );
    // A failing row makes the exit status 1 and says how many failed (explicit contacts at
    // 5 ms fail rows whatever the default).
    let out = treadsim(&["validate", "--fast", "--explicit", "--dt", "0.005"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation rows failed"), "{stderr}");
}
