//! The short form of `treadsim soak` (the long one runs from the command line): seeded random
//! aggressive driving on two library scenes with two presets, no blow-ups and no NaN; the
//! drive script is a real script that reads back, and a run is repeatable bit for bit.

mod common;

use std::path::Path;

use common::robot;
use treadsim::config::SourceFile;
use treadsim::launch::{open, Launch};
use treadsim::session::{DriveScript, Session};
use treadsim::tools::soak::{combination_seed, random_script, soak, MAX_HOLD, MIN_HOLD};

/// The preset `robot` driving freely on the library scene `scene`, started as `treadsim soak`
/// starts it.
fn session(scene: &str, robot: &str) -> Session {
    open(&Launch::Free {
        scene: format!("scenes/{scene}.toml").into(),
        robot: format!("scenes/robots/{robot}.toml").into(),
        spawn: None,
    })
    .expect("launch")
    .session
}

/// 20 simulated seconds per combination (a few seconds of wall time in the test profile).
const SECONDS: f64 = 20.0;

#[test]
fn short_soak_has_no_blow_ups_and_no_nan() {
    for (scene, preset) in [("flat", "tracker55"), ("public_stairs", "scout")] {
        let spec = robot(preset);
        let seed = combination_seed(7, scene, preset);
        let script = random_script(&spec, SECONDS, seed);
        let s = soak(session(scene, preset), script, seed, SECONDS);
        assert!((s.sim_seconds - SECONDS).abs() < 1e-9);
        assert_eq!(s.blow_ups, 0, "{scene} x {preset}: {:?}", s.events);
        assert_eq!(s.nan, 0, "{scene} x {preset}: {:?}", s.events);
        // Aggressive but physical: no ground robot here goes faster than 5 m/s or spins
        // faster than 30 rad/s.
        assert!(s.max_speed > 0.5 && s.max_speed < 5.0, "{s:?}");
        assert!(s.max_spin < 30.0, "{s:?}");
        assert!(s.max_normal_jump.is_finite() && s.max_normal_jump > 0.0);
    }
}

/// The random script holds each command 0.3–3 s, drives at up to ± the motors' top speed,
/// covers the duration, sets flipper targets only for robots that have flippers and reads
/// back from its text exactly (so a failure's script replays).
#[test]
fn random_scripts_are_aggressive_real_scripts() {
    for preset in ["scout", "heavy250"] {
        let spec = robot(preset);
        let vmax = spec.tracks[0].motor.max_speed;
        let s = random_script(&spec, 120.0, 42);
        assert_eq!(s, random_script(&spec, 120.0, 42), "same seed, same script");
        assert_ne!(s, random_script(&spec, 120.0, 43));
        let times: Vec<f64> = s.commands.iter().map(|(t, _)| *t).collect();
        assert_eq!(times[0], 0.0);
        assert!(*times.last().unwrap() < 120.0);
        assert!(*times.last().unwrap() + MAX_HOLD >= 120.0);
        for w in times.windows(2) {
            let hold = w[1] - w[0];
            assert!(
                (MIN_HOLD - 1e-3..=MAX_HOLD + 1e-3).contains(&hold),
                "{hold}"
            );
        }
        let c: Vec<_> = s.commands.iter().map(|(_, c)| *c).collect();
        assert!(c
            .iter()
            .all(|c| c.left.abs() <= vmax && c.right.abs() <= vmax));
        assert!(
            c.iter().any(|c| c.left == vmax && c.right == vmax),
            "full ahead"
        );
        assert!(
            c.iter().any(|c| c.left == -vmax && c.right == -vmax),
            "full reverse"
        );
        assert!(
            c.iter().any(|c| c.left == -c.right && c.left != 0.0),
            "pivot"
        );
        assert!(c.iter().any(|c| c.left == 0.0 && c.right == 0.0), "stop");
        assert_eq!(
            c.iter().any(|c| c.flipper.is_some()),
            !spec.flippers.is_empty(),
            "{preset}"
        );
        let text = s.to_toml();
        let back =
            DriveScript::from_source(&SourceFile::from_text(Path::new("s.toml"), text)).unwrap();
        assert_eq!(back, s);
    }
}

/// The same combination soaked twice gives the same measurements bit for bit.
#[test]
fn soak_is_deterministic() {
    let spec = robot("heavy250");
    let run = || {
        let script = random_script(&spec, 5.0, 3);
        soak(session("ramps", "heavy250"), script, 3, 5.0)
    };
    let (a, b) = (run(), run());
    assert_eq!(
        (a.max_speed, a.max_spin, a.max_normal_jump, &a.events),
        (b.max_speed, b.max_spin, b.max_normal_jump, &b.events)
    );
}

/// The command lines: `treadsim soak` prints one JSON object per combination plus a total and
/// exits 0 without blow-ups; `treadsim run` reports a robot driven off the flat scene's edge
/// as an out-of-bounds event, once, and no blow-up.
#[test]
fn soak_and_run_command_lines_report_events() {
    let exe = env!("CARGO_BIN_EXE_treadsim");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(exe)
        .args([
            "soak",
            "--scenes",
            "scenes/flat.toml",
            "--robots",
            "scenes/robots/scout.toml",
            "--minutes",
            "0.1",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["robot"], "scout");
    assert_eq!(lines[0]["blow_ups"], 0);
    assert!((lines[0]["sim_s"].as_f64().unwrap() - 6.0).abs() < 1e-9);
    assert_eq!(lines[1]["scene"], "total");

    let script = dir.path().join("ahead.toml");
    std::fs::write(&script, "[[command]]\nat = 0\nleft = 2\nright = 2\n").expect("write");
    let out = std::process::Command::new(exe)
        .args([
            "run",
            "--scene",
            "scenes/flat.toml",
            "--robot",
            "scenes/robots/scout.toml",
            "--duration",
            "20",
            "--script",
        ])
        .arg(&script)
        .arg("--out")
        .arg(dir.path().join("run.csv"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}{err}");
    assert_eq!(text.matches("out of bounds").count(), 1, "{text}");
    assert!(text.contains("final status: OutOfBounds"), "{text}");
    assert!(!err.contains("blow-up"), "{err}");
}
