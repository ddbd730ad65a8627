//! The station as a seat of a class, for real: `treadsim station --class` in a window on a
//! virtual display (`xvfb-run`, Mesa's software renderer) joins an instructor over Zenoh on
//! `tcp/127.0.0.1` (multicast off), waits in its lobby, is assigned an exercise, started,
//! paused and resumed by the instructor's signed commands while its operator (a drive script)
//! drives; the attempt reaches the records once, with the trainee given on its command line,
//! and its log replays bit-exact. And a station with `--ros2` driven by the ROS 2 client we did
//! not write (`tests/ros2/ros2_client.py`).
#![cfg(all(feature = "classroom", feature = "viewer"))]

mod common;
use common::class::{free_port, manifest, signing, wait_for};

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use treadsim::classroom::instructor::Instructor;
use treadsim::classroom::network::ClassNetwork;
use treadsim::classroom::protocol::{Command as SeatCommand, SeatState, SeatStatus};
use treadsim::classroom::records::Records;
use treadsim::record::{replay, Log};

const KEY: &str = "station-class-key-0123456789abcdef";
const CLASS: &str = "station-class";

/// A process group (xvfb-run, its X server and the station) killed with the test.
struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the group this test started; no memory is touched.
        unsafe {
            libc::kill(-(self.0.id() as i32), libc::SIGKILL);
        }
        let _ = self.0.wait();
    }
}

/// `xvfb-run treadsim station --class` as seat `win1` for trainee `t9`, its operator the
/// incline's passing drive script, connecting to `port`; output in `dir`.
fn station(dir: &Path, port: u16) -> Group {
    let out = std::fs::File::create(dir.join("station.out")).unwrap();
    let mut command = Command::new("xvfb-run");
    command
        .current_dir(manifest(""))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("TREADSIM_CLASS_KEY", KEY)
        .env("TREADSIM_INSTRUCTOR_KEY", signing().public().to_hex())
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_treadsim"))
        .args([
            "station",
            "--class",
            CLASS,
            "--seat",
            "win1",
            "--trainee",
            "t9",
        ])
        .args([
            "--no-multicast",
            "--connect",
            &format!("tcp/127.0.0.1:{port}"),
        ])
        .arg("--script")
        .arg(manifest("scenes/exercises/scripts/incline_35.pass.toml"))
        .arg("--logs")
        .arg(dir.join("logs"))
        .arg("--outbox")
        .arg(dir.join("outbox"))
        .args(["--width", "640", "--height", "360", "--quit-after", "300"])
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out))
        .process_group(0);
    Group(command.spawn().expect("xvfb-run (make test installs xvfb)"))
}

fn status(instructor: &Instructor) -> Option<SeatStatus> {
    instructor
        .seats()
        .get("win1")
        .and_then(|v| v.status.clone())
}

fn output(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("station.out")).unwrap_or_default()
}

#[test]
fn a_station_in_a_window_is_assigned_started_paused_and_its_passed_attempt_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let db = dir.path().join("records.sqlite");
    let network = ClassNetwork {
        class: CLASS.into(),
        listen: Some(vec![format!("tcp/127.0.0.1:{port}")]),
        connect: vec![],
        multicast: false,
        key: KEY.into(),
    };
    let instructor = Instructor::start(&network, Records::open(&db).unwrap(), signing()).unwrap();
    let _station = station(dir.path(), port);
    // The window opens on a software renderer: allow it time.
    assert!(
        wait_for(Duration::from_secs(90), || status(&instructor).is_some()),
        "the station never joined: {}",
        output(dir.path())
    );
    let lobby = status(&instructor).unwrap();
    assert_eq!(
        lobby.state,
        SeatState::Idle,
        "the lobby before an assignment"
    );
    assert_eq!(lobby.trainee.as_deref(), Some("t9"));
    assert!(lobby.operator_input, "the script is the operator");
    let assign = SeatCommand::Assign {
        exercise: "incline_35".into(),
        sha256: None,
        trainee: None,
        bundle: None,
    };
    let reply = instructor.command("win1", assign).unwrap();
    assert!(reply.accepted, "{}", reply.reason);
    std::thread::sleep(Duration::from_secs(1));
    let ready = status(&instructor).unwrap();
    assert_eq!(ready.state, SeatState::Ready);
    assert_eq!(
        ready.clock_s, 0.0,
        "the clock stands until the instructor starts"
    );
    assert!(
        instructor
            .command("win1", SeatCommand::Start)
            .unwrap()
            .accepted
    );
    assert!(
        wait_for(Duration::from_secs(30), || status(&instructor)
            .is_some_and(|s| s.clock_s >= 3.0)),
        "the trial's clock never ran: {}",
        output(dir.path())
    );
    // Paused by the instructor: the clock stands (the trainee cannot resume it).
    assert!(
        instructor
            .command("win1", SeatCommand::Pause)
            .unwrap()
            .accepted
    );
    std::thread::sleep(Duration::from_millis(500));
    let paused = status(&instructor).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let later = status(&instructor).unwrap();
    assert_eq!(paused.state, SeatState::Paused);
    assert_eq!(later.clock_s, paused.clock_s, "paused: the clock stands");
    assert!(
        instructor
            .command("win1", SeatCommand::Resume)
            .unwrap()
            .accepted
    );
    assert!(
        wait_for(Duration::from_secs(120), || instructor.counters().stored
            == 1),
        "no result: {:?}\n{}",
        instructor.counters(),
        output(dir.path())
    );
    let rate = instructor.seats()["win1"].status_rate();
    assert!(rate >= 9.0, "status at {rate:.1} Hz");
    let rows = instructor.with_records(|r| r.attempts(None).unwrap());
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        (
            row.seat.as_str(),
            row.exercise.as_str(),
            row.trainee.as_deref()
        ),
        ("win1", "incline_35", Some("t9"))
    );
    assert_eq!(row.status, "passed", "{}", row.reason);
    // The attempt's log — the operator's script, the instructor's pause and resume, frame by
    // frame — replays bit-exact to the same result.
    let log = Log::read(Path::new(row.log_path.as_ref().unwrap())).unwrap();
    let outcome = replay(&log, true, |_| {}).unwrap();
    assert!(outcome.divergence.is_none(), "{:?}", outcome.divergence);
    assert_eq!(outcome.result_matches, Some(true));
    instructor.close();
}

#[cfg(feature = "ros2")]
#[test]
fn a_station_window_is_driven_by_a_ros2_client_we_did_not_write() {
    let Some(python) = common::python::client_python("the ROS 2 client") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let out = std::fs::File::create(dir.path().join("station.out")).unwrap();
    let mut command = Command::new("xvfb-run");
    command
        .current_dir(manifest(""))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_treadsim"))
        .args(["station", "--no-log", "--scene"])
        .arg(manifest("scenes/course_figure8.toml"))
        .args(["--ros2", "--ros-router", &endpoint, "--quit-after", "120"])
        .args(["--width", "640", "--height", "360"])
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out))
        .process_group(0);
    let _station = Group(command.spawn().expect("xvfb-run"));
    let client = Command::new(&python)
        .arg(manifest("tests/ros2/ros2_client.py"))
        .args([endpoint.as_str(), "0.3", "4"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&client.stdout);
    assert!(
        client.status.success(),
        "{said}{}\n{}",
        String::from_utf8_lossy(&client.stderr),
        output(dir.path())
    );
    let seen: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    assert_eq!(seen["nodes"], serde_json::json!(["/treadsim"]));
    assert_eq!(seen["attachments_bad"], 0);
    let (start, end) = (
        seen["drive_started"].as_f64().unwrap(),
        seen["drive_ended"].as_f64().unwrap(),
    );
    let mean = |from, to| common::ros2::mean_vx(&seen["odom"], from, to);
    let cruise = mean(start + 2.0, end);
    println!("station driven over ROS 2: cruise {cruise:.4} m/s for 0.3 commanded");
    assert!((cruise - 0.3).abs() < 0.015, "cruise {cruise} m/s");
    assert!(mean(end + 1.0, end + 1.5).abs() < 0.01, "still moving");
    // The front camera too, rendered off-screen beside the window's own views.
    let images = seen["images"].as_array().unwrap();
    let during = images
        .iter()
        .filter(|i| (start..end).contains(&i["t"].as_f64().unwrap()))
        .count();
    println!("{during} front camera frames in {:.1} s", end - start);
    assert!(during >= 10, "{during} camera frames");
    assert_eq!(images[0]["size"], serde_json::json!([320, 240]));
}
