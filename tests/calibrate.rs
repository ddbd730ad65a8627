//! `treadsim calibrate`: a drive logged by the simulator with known turning parameters is
//! fitted back from the preset's values.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use treadsim::envelope::{lanes, trials};
use treadsim::sim::SimConfig;
use treadsim::tools::calibrate::log::TrackInput;
use treadsim::tools::calibrate::{calibrate, CalibrateOptions, DriveLog, Parameter};
use treadsim::vehicle::{DriveCommand, RobotSpec};

/// The calibration drive (the README's recommended one, shortened): belt speeds (m/s, left,
/// right) held for a time (s) — straight, turns of several radii both ways, a pivot, stops
/// and a reversing turn.
const DRIVE: [(f64, f64, f64); 9] = [
    (0.0, 0.0, 0.5),
    (0.5, 0.5, 2.0),
    (0.7, 0.3, 3.0),
    (0.9, 0.1, 2.5),
    (-0.5, 0.5, 2.5),
    (0.0, 0.0, 1.0),
    (0.2, 0.8, 2.5),
    (-0.6, -0.3, 2.0),
    (0.0, 0.0, 1.0),
];

/// Sample rate of the log, Hz (a motion-capture system's).
const LOG_RATE: f64 = 100.0;

/// A log of `spec` driving [`DRIVE`] on a flat floor of friction 0.8, written as CSV by the
/// simulation loop itself (not the calibration's replay), in a world frame turned by 0.7 rad
/// and shifted, with ±0.5 mm and ±0.1° of seeded position and heading noise.
fn simulated_log(spec: &RobotSpec) -> String {
    let (mut sim, id) =
        trials::start(lanes::flat_pad(0.8).unwrap(), spec, &SimConfig::default()).unwrap();
    sim.run_for(1.0);
    let mut csv = String::from("t,x,y,yaw,left_command,right_command\n");
    let mut noise = 0x2545_f491_4f6c_dd1d_u64;
    let mut uniform = move || {
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        (noise >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let (turn, shift) = (0.7_f64, (3.0, -2.0));
    let start = sim.time();
    let mut row = 0usize;
    for (left, right, seconds) in DRIVE {
        let end = sim.time() + seconds;
        loop {
            let t = row as f64 / LOG_RATE;
            if start + t > end - 1e-9 {
                break;
            }
            while sim.time() + 0.5 * sim.config().dt < start + t {
                sim.step();
            }
            let pose = sim.body_state(id).pose;
            let (_, _, yaw) = pose.rotation.euler_angles();
            let (x, y) = (pose.translation.x, pose.translation.y);
            let wx = shift.0 + x * turn.cos() - y * turn.sin() + 0.0005 * uniform();
            let wy = shift.1 + x * turn.sin() + y * turn.cos() + 0.0005 * uniform();
            let wyaw = yaw + turn + 0.1_f64.to_radians() * uniform();
            writeln!(csv, "{t},{wx},{wy},{wyaw},{left},{right}").unwrap();
            sim.set_command(id, DriveCommand::belts(left, right));
            row += 1;
        }
    }
    csv
}

/// The parameters the simulated logs are fitted for, and their "real" values.
const PARAMETERS: [Parameter; 3] = [
    Parameter::LateralFriction,
    Parameter::RollingResistance,
    Parameter::MaxAcceleration,
];
const TRUTH: [f64; 3] = [1.35, 0.05, 1.4];

/// The scout with the "real" robot's values of [`PARAMETERS`].
fn real_scout() -> RobotSpec {
    let mut real = common::robot("scout");
    for (p, v) in PARAMETERS.iter().zip(TRUTH) {
        p.set(&mut real, v);
    }
    real
}

#[test]
fn known_turning_parameters_are_fitted_back_from_a_simulated_log() {
    let preset = common::robot("scout");
    let tracks: Vec<String> = preset.tracks.iter().map(|t| t.name.clone()).collect();
    let log = DriveLog::parse(
        Path::new("scout_drive.csv"),
        &simulated_log(&real_scout()),
        &tracks,
    )
    .unwrap();
    fitted_back(&preset, &log);
}

/// A real robot's drive as ROS 2 records it: the simulated log written by `rosbags` (a writer
/// we did not write, `tests/calibrate/ros2_bag.py`) as a ROS 2 bag in MCAP — odometry on
/// /odom, the diff-drive commands on /cmd_vel — is read row for row as the CSV and fitted
/// back within 5 % as from it.
#[test]
fn known_turning_parameters_are_fitted_back_from_a_ros2_bag() {
    let Some(python) = common::python::client_python("rosbags") else {
        return;
    };
    let preset = common::robot("scout");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("drive.csv");
    let text = simulated_log(&real_scout());
    std::fs::write(&csv, &text).unwrap();
    let gauge = preset.tracks[0].y - preset.tracks[1].y;
    let bag = ros2_bag(&python, &csv, "cmd_vel", gauge, &dir.path().join("bag"));
    let log = DriveLog::read(&bag, &preset).unwrap();
    let tracks: Vec<String> = preset.tracks.iter().map(|t| t.name.clone()).collect();
    let from_csv = DriveLog::parse(&csv, &text, &tracks).unwrap();
    assert_eq!(log.input, TrackInput::Commanded);
    assert_eq!(log.times.len(), from_csv.times.len());
    for k in 0..log.times.len() {
        // Log times in whole nanoseconds; the yaw through a quaternion and back.
        assert!((log.times[k] - from_csv.times[k]).abs() < 2e-9, "row {k}");
        let (a, b) = (log.poses[k], from_csv.poses[k]);
        assert!(
            (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12,
            "row {k}"
        );
        assert!(
            (a.yaw - b.yaw).abs() < 1e-9,
            "row {k}: {} vs {}",
            a.yaw,
            b.yaw
        );
        for (v, w) in log.speeds[k].iter().zip(&from_csv.speeds[k]) {
            assert!((v - w).abs() < 1e-12, "row {k}: {v} vs {w}");
        }
    }
    fitted_back(&preset, &log);
}

/// Fits [`PARAMETERS`] of `preset` to `log` and checks they come back within 5 % of
/// [`TRUTH`], and the yaw-rate residual falls to under a quarter.
fn fitted_back(preset: &RobotSpec, log: &DriveLog) {
    let (parameters, truth) = (PARAMETERS, TRUTH);
    let options = CalibrateOptions {
        parameters: parameters.to_vec(),
        mu: 0.8,
        config: SimConfig::default(),
    };
    let fit = calibrate(preset, log, &options).unwrap();
    println!("{fit}");
    for (f, want) in fit.fitted.iter().zip(truth) {
        assert!(f.determined, "{:?}", f);
        assert!(
            (f.after / want - 1.0).abs() < 0.05,
            "{}: fitted {} for {want}",
            f.parameter.key(),
            f.after
        );
    }
    assert!(
        fit.after.0 < 0.25 * fit.before.0,
        "yaw-rate residual {:?}",
        fit
    );
}

fn treadsim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_treadsim"))
        .args(args)
        .output()
        .unwrap()
}

/// `treadsim run` drives a "real" scout whose belts resist sliding sideways 1.3 times as much
/// as the preset's over docs/calibration_drive.toml (the README's worked example); returns its
/// telemetry, CSV in `dir`.
fn real_scout_telemetry(dir: &Path) -> std::path::PathBuf {
    let preset = std::fs::read_to_string("scenes/robots/scout.toml").unwrap();
    assert!(preset.contains("lateral_friction_scale = 1.0\n"));
    let real = dir.join("scout_real.toml");
    std::fs::write(
        &real,
        preset.replace(
            "lateral_friction_scale = 1.0\n",
            "lateral_friction_scale = 1.3\n",
        ),
    )
    .unwrap();
    let log = dir.join("drive.csv");
    let ran = treadsim(&[
        "run",
        "--scene",
        "scenes/flat.toml",
        "--robot",
        real.to_str().unwrap(),
        "--script",
        "docs/calibration_drive.toml",
        "--duration",
        "18",
        "--no-log",
        "--out",
        log.to_str().unwrap(),
    ]);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    log
}

/// `treadsim calibrate` fits the scout preset to `log`, writes `out` and the file loads and
/// holds the real robot's values within 5 %.
fn calibrates_to_the_real_scout(log: &Path, out: &Path) {
    let fitted = treadsim(&[
        "calibrate",
        "--robot",
        "scenes/robots/scout.toml",
        "--log",
        log.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let printed = String::from_utf8_lossy(&fitted.stdout);
    println!("{printed}");
    assert!(
        fitted.status.success(),
        "{}",
        String::from_utf8_lossy(&fitted.stderr)
    );
    assert!(printed.contains("residual RMS: yaw rate"), "{printed}");
    let spec = treadsim::vehicle::robot_file::load_robot(out).unwrap();
    let belt = spec.tracks[0].belt;
    assert!(
        (belt.lateral_friction_scale / 1.3 - 1.0).abs() < 0.05,
        "{belt:?}"
    );
    assert!(
        (belt.rolling_resistance / 0.03 - 1.0).abs() < 0.05,
        "{belt:?}"
    );
    assert!(std::fs::read_to_string(out)
        .unwrap()
        .starts_with("# Calibrated by `treadsim calibrate` from"));
}

/// The README's worked example: the real scout's telemetry (measured belt speeds) is the log
/// `treadsim calibrate` fits the preset to.
#[test]
fn calibrate_fits_a_run_telemetry_and_writes_a_loadable_robot_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = real_scout_telemetry(dir.path());
    calibrates_to_the_real_scout(&log, &dir.path().join("scout.calibrated.toml"));
}

/// The same drive recorded as a ROS 2 robot would have it without commands: odometry and the
/// sprockets' joint states (rad/s), written as a bag in MCAP by `rosbags`; `treadsim calibrate
/// --log bag.mcap` fits the same values.
#[test]
fn calibrate_fits_a_ros2_bag_of_sprocket_joint_states() {
    let Some(python) = common::python::client_python("rosbags") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let log = real_scout_telemetry(dir.path());
    let radius = common::robot("scout").tracks[0].sprocket.radius;
    let bag = ros2_bag(
        &python,
        &log,
        "joint_states",
        radius,
        &dir.path().join("bag"),
    );
    calibrates_to_the_real_scout(&bag, &dir.path().join("scout.calibrated.toml"));
}

/// `log` (CSV) written by `tests/calibrate/ros2_bag.py` as a ROS 2 bag in MCAP in `out`, the
/// tracks' speeds as `mode` ("cmd_vel": commands, `value` the gauge, m; "joint_states": the
/// sprockets' velocities, `value` their radius, m); returns the .mcap file.
fn ros2_bag(python: &Path, log: &Path, mode: &str, value: f64, out: &Path) -> std::path::PathBuf {
    let written = std::process::Command::new(python)
        .arg("tests/calibrate/ros2_bag.py")
        .arg(log)
        .arg(mode)
        .arg(value.to_string())
        .arg(out)
        .output()
        .unwrap();
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    std::path::PathBuf::from(String::from_utf8(written.stdout).unwrap().trim())
}

/// Bad input is refused with its reason and location, and nothing is written.
#[test]
fn calibrate_refuses_bad_input_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bad.csv");
    let out = dir.path().join("out.toml");
    let mut text = String::from("t,x,y,yaw,left_belt_speed,right_belt_speed\n");
    for i in 0..30 {
        text.push_str(&format!("{},0,0,0,0.1,0.1\n", f64::from(i) * 0.1));
    }
    let cases: [(&str, String, &[&str], &str); 4] = [
        (
            "a cell",
            text.replace("\n0.5,0,0,0,", "\n0.5,0,zero,0,"),
            &[],
            "bad.csv:7:7: y: 'zero' is not a number",
        ),
        (
            "unknown parameter",
            text.clone(),
            &["--fit", "grip"],
            "--fit: no parameter 'grip'",
        ),
        (
            "motor from measured speeds",
            text.clone(),
            &["--fit", "max_torque"],
            "max_torque needs the commanded speeds",
        ),
        (
            "floor friction",
            text.clone(),
            &["--mu", "-1"],
            "--mu must be above 0",
        ),
    ];
    for (what, csv, extra, want) in cases {
        std::fs::write(&log, csv).unwrap();
        let mut args = vec![
            "calibrate",
            "--robot",
            "scenes/robots/scout.toml",
            "--log",
            log.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let result = treadsim(&args);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{what}");
        assert!(stderr.contains(want), "{what}: {stderr}");
        assert!(!out.exists(), "{what}");
    }
}
