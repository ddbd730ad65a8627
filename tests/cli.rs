//! The command line meets a newcomer halfway: out-of-range numbers get the range they must be
//! in, negative ones included (clap took `--duration -5` for an unknown flag: "unexpected
//! argument '-5'"), and `check` checks each kind of input file as what it is.

use std::process::Command;

/// `treadsim`, to run in `dir`.
fn treadsim_in(dir: impl AsRef<std::path::Path>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_treadsim"));
    command.current_dir(dir);
    command
}

/// `treadsim run` in `root` with `args`, logging to `log`: returns its exit code and output.
fn run_logged(
    root: &std::path::Path,
    args: &[&str],
    log: &std::path::Path,
) -> (Option<i32>, String) {
    let out = treadsim_in(root)
        .args(args)
        .arg("--log")
        .arg(log)
        .output()
        .expect("treadsim runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `treadsim replay --verify` of `log` in `root`: asserts it replays bit for bit with the same
/// trial result and returns what it said.
fn verifies(root: &std::path::Path, log: &std::path::Path) -> String {
    let replay = treadsim_in(root)
        .args(["replay", "--verify"])
        .arg(log)
        .output()
        .expect("treadsim runs");
    let said = String::from_utf8_lossy(&replay.stdout).into_owned();
    assert_eq!(replay.status.code(), Some(0), "{said}");
    assert!(said.contains("and the same trial result"), "{said}");
    said
}

/// `treadsim run` of the scout on `scene`, with a script and outputs it never reaches (the
/// command is refused first).
fn run_on(scene: &'static str) -> Vec<&'static str> {
    vec![
        "run",
        "--scene",
        scene,
        "--robot",
        "scenes/robots/scout.toml",
        "--script",
        "none.toml",
        "--out",
        "none.csv",
        "--no-log",
    ]
}

/// Runs `command`, which must succeed; returns its standard output.
fn succeeds(command: &mut Command) -> String {
    let out = command.output().expect("treadsim runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Runs `treadsim` in the repository with `args`; returns its exit code and standard error.
fn treadsim(args: &[&str]) -> (Option<i32>, String) {
    let out = treadsim_in(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("treadsim runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn negative_and_zero_numbers_get_the_range_they_must_be_in() {
    let run = run_on("scenes/flat.toml");
    let with = |base: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().chain(extra).copied().collect()
    };
    let cases: [(Vec<&str>, &str); 8] = [
        (
            with(&run, &["--duration", "-5"]),
            "--duration must be greater than 0 and at most 86400 s, got -5",
        ),
        (
            with(&run, &["--duration", "0"]),
            "--duration must be greater than 0 and at most 86400 s, got 0",
        ),
        (with(&run, &["--rate", "-1"]), "--rate must be 0 or greater"),
        (
            vec!["soak", "--minutes", "-1"],
            "--minutes must be greater than 0 and at most 1440, got -1",
        ),
        (
            vec!["traffic", "--scene", "scenes/flat.toml", "--seconds", "-3"],
            "--seconds must be greater than 0 and at most 3600, got -3",
        ),
        (
            vec!["traffic", "--scene", "scenes/flat.toml", "--dt", "-0.1"],
            "--dt must be from 0.0001 to 0.1 s, got -0.1",
        ),
        (
            vec!["soak", "--minutes", "0.1", "--dt", "0"],
            "--dt must be from 0.0001 to 0.05 s, got 0",
        ),
        (
            vec!["bench", "--dt", "-0.002"],
            "--dt must be from 0.0001 to 0.05 s, got -0.002",
        ),
    ];
    for (args, expected) in cases {
        let (code, err) = treadsim(&args);
        assert_ne!(code, Some(0), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// Regression: `treadsim check scenes/robots/scout.toml` said "the scene has no [[element]]
/// tables"; a robot file is checked as one, and a robot or exercise file given as a scene is
/// named for what it is.
#[test]
fn check_takes_each_kind_of_file_as_what_it_is() {
    let (code, err) = treadsim(&["check", "scenes/robots/scout.toml"]);
    assert_eq!(code, Some(0), "{err}");
    let armed = treadsim_in(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "scenes/robots/heavy250_eod.toml"])
        .output()
        .expect("treadsim runs");
    let text = String::from_utf8_lossy(&armed.stdout);
    assert!(
        text.contains("arm: 6 joint(s) (turret, shoulder, elbow, wrist_pitch, wrist_yaw, wrist_roll), 42.00 kg")
            && text.contains("poses: stow, drive, reach_forward, reach_down"),
        "{text}"
    );
    let out = treadsim_in(env!("CARGO_MANIFEST_DIR"))
        .args([
            "check",
            "scenes/robots/wheeler300.toml",
            "scenes/exercises/stairs_35.toml",
        ])
        .output()
        .expect("treadsim runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("robot 'wheeler300'") && text.contains("6 wheel(s)"),
        "{text}"
    );
    assert!(text.contains("exercise '"), "{text}");
    let (code, err) = treadsim(&run_on("scenes/exercises/stairs_35.toml"));
    assert_ne!(code, Some(0));
    assert!(
        err.contains("this is an exercise file, not a scene"),
        "{err}"
    );
    let (_, err) = treadsim(&run_on("scenes/robots/scout.toml"));
    assert!(err.contains("this is a robot file, not a scene"), "{err}");
}

/// `treadsim list` names what the library holds, a line each, and the name it gives is the one
/// `--exercise` takes.
#[test]
fn list_names_the_library_and_exercises_go_by_those_names() {
    let out = treadsim_in(env!("CARGO_MANIFEST_DIR"))
        .args(["list"])
        .output()
        .expect("treadsim runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for heading in [
        "exercises in scenes/exercises/:",
        "robots in scenes/robots/:",
        "scenes in scenes/:",
    ] {
        assert!(text.contains(heading), "{text}");
    }
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("stairs_35 "))
        .expect("stairs_35 is listed");
    assert!(
        line.contains("E2804") && line.ends_with("scenes/exercises/stairs_35.toml"),
        "{line}"
    );
    let (code, err) = treadsim(&[
        "run",
        "--exercise",
        "stairs_35",
        "--no-log",
        "--script",
        "scenes/exercises/scripts/stairs_35.pass.toml",
        "--out",
        "target/list-test",
    ]);
    assert_eq!(code, Some(0), "the passing script passes: {err}");
}

/// Each attempt keeps its own score file beside its log; a second attempt never overwrites the
/// first (they shared `logs/<exercise>.score.json`).
#[test]
fn every_attempt_has_its_own_score_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exercise = root.join("scenes/exercises/stairs_35.toml");
    for _ in 0..2 {
        let out = treadsim_in(dir.path())
            .args(["run", "--no-log", "--exercise"])
            .arg(&exercise)
            .output()
            .expect("treadsim runs");
        assert_eq!(out.status.code(), Some(1), "stands still: fails");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("score: logs/stairs_35-"), "{text}");
    }
    let mut scores: Vec<String> = std::fs::read_dir(dir.path().join("logs"))
        .expect("logs/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    scores.sort();
    assert_eq!(scores.len(), 2, "{scores:?}");
    assert!(scores
        .iter()
        .all(|s| s.starts_with("stairs_35-") && s.ends_with(".score.json")));
}

/// `report` without `--out` writes `reports/<log name>/` and says where the index is.
#[test]
fn a_report_goes_to_reports_by_default() {
    let dir = tempfile::tempdir().expect("temp dir");
    let exercise =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/exercises/curb_climb.toml");
    let run = treadsim_in(dir.path())
        .args(["run", "--log", "attempt.mcap", "--exercise"])
        .arg(&exercise)
        .output()
        .expect("treadsim runs");
    assert!(dir.path().join("attempt.mcap").exists(), "{run:?}");
    let text = succeeds(treadsim_in(dir.path()).args(["report", "attempt.mcap"]));
    assert!(
        text.contains("report: reports/attempt/index.html"),
        "{text}"
    );
    assert!(dir.path().join("reports/attempt/index.html").exists());
}

/// `--robot` with `--exercise` runs the exercise with another robot: the score table says so,
/// and the log replays bit for bit with that robot.
#[test]
fn an_exercise_runs_with_another_robot_and_replays_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = dir.path().join("heavy.mcap");
    let out = dir.path().join("heavy");
    let args = [
        "run",
        "--exercise",
        "curb_climb",
        "--robot",
        "scenes/robots/heavy250.toml",
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    let (_, text) = run_logged(root, &args, &log);
    assert!(
        text.contains("robot            heavy250, not the exercise's scout.toml"),
        "{text}"
    );
    let said = verifies(root, &log);
    assert!(said.contains("heavy250"), "{said}");
}

/// `traffic` on a scene without traffic runs a default group and says so (it refused).
#[test]
fn traffic_on_a_scene_without_any_runs_a_default_group() {
    let out = treadsim_in(env!("CARGO_MANIFEST_DIR"))
        .args(["traffic", "--scene", "scenes/ramps.toml", "--seconds", "2"])
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("has no [[traffic]] groups: running a default group of 20"),
        "{err}"
    );
    assert!(text.contains("20 agents"), "{text}");
}

/// Regression: `make run` without a display rendered its picture and then failed (`make: ***
/// Error 3`). Its recipe (`scripts/make-run.sh`), run on a stand-in for the binary: a station
/// without a display gives way to the headless picture, whose path is printed, and success;
/// any other failure stays a failure.
#[test]
fn make_run_without_a_display_renders_and_succeeds() {
    use std::os::unix::fs::PermissionsExt;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/make-run.sh");
    let dir = tempfile::tempdir().expect("temp dir");
    let stand_in = |station_status: i32| {
        let path = dir.path().join(format!("treadsim-{station_status}"));
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\ncase \"$1\" in\n  station) echo 'error: no display' >&2; exit {station_status};;\n  shot) echo \"$5: 'front' rendered\"; exit 0;;\nesac\nexit 9\n"
            ),
        )
        .expect("stand-in");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    };
    let run = |bin: &std::path::Path| {
        Command::new("bash")
            .arg(&script)
            .arg(bin)
            .current_dir(dir.path())
            .output()
            .expect("bash runs")
    };
    let out = run(&stand_in(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("target/make-run-front.png: 'front' rendered"),
        "{text}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .matches("no display")
            .count(),
        1
    );
    let out = run(&stand_in(1));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// A free `run` without `--out` writes its telemetry beside its log, named as it is.
#[test]
fn a_run_without_out_writes_its_telemetry_beside_its_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = dir.path().join("drive.toml");
    std::fs::write(&script, "[[command]]\nat = 0.0\nleft = 0.3\nright = 0.3\n").expect("script");
    let text = succeeds(
        treadsim_in(dir.path())
            .arg("run")
            .arg("--scene")
            .arg(root.join("scenes/flat.toml"))
            .arg("--robot")
            .arg(root.join("scenes/robots/scout.toml"))
            .arg("--script")
            .arg(&script)
            .args(["--duration", "0.5"]),
    );
    let mut files: Vec<String> = std::fs::read_dir(dir.path().join("logs"))
        .expect("logs/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let stem = files[0].strip_suffix(".csv").expect("a csv");
    assert!(stem.starts_with("flat-"), "{files:?}");
    assert_eq!(files[1], format!("{stem}.mcap"));
    assert!(
        text.contains(&format!("telemetry: logs/{stem}.csv")),
        "{text}"
    );
}

/// A dexterity exercise's log — arm commands, a grasp, an object carried and let go of —
/// replays bit for bit (`replay --verify`): the arm's joints, grip and held object are in every
/// state snapshot, and so is every object.
#[test]
fn a_logged_grasp_replays_bit_for_bit() {
    logged_exercise_replays("dexterity_pick_place");
}

/// A valve turned through regrips replays bit for bit: the hold on the wheel (where the pads
/// took it, their slip and free angle) and every valve's opening are in every state snapshot.
#[test]
fn a_logged_valve_turn_replays_bit_for_bit() {
    logged_exercise_replays("dexterity_valve");
}

/// A latched door opened with the arm and driven through replays bit for bit: the leaf's
/// body, its handle's turn and its latch, and the hold on the lever, are in every snapshot.
#[test]
fn a_logged_door_opening_replays_bit_for_bit() {
    logged_exercise_replays("dexterity_door");
}

/// Exercise `stem` run with its passing script and a log passes, and the log replays bit for
/// bit (`replay --verify`).
fn logged_exercise_replays(stem: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = dir.path().join(format!("{stem}.mcap"));
    let out = dir.path().join(stem);
    let script = format!("scenes/exercises/scripts/{stem}.pass.toml");
    let args = [
        "run",
        "--exercise",
        stem,
        "--script",
        &script,
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    let (code, text) = run_logged(root, &args, &log);
    assert_eq!(code, Some(0), "{text}");
    verifies(root, &log);
}
