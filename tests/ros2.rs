//! treadsim as a ROS 2 node, tested with a client we did not write: Eclipse Zenoh's Python API
//! and the `rosbags` package (its CDR serializer and RIHS01 type hashes), speaking rmw_zenoh's
//! conventions (`tests/ros2/ros2_client.py`). A headless seat runs the figure-8 exercise with
//! `--ros2` and its own Zenoh router on loopback; the client lists the ROS graph from the
//! liveliness tokens, drives /cmd_vel at 0.3 m/s for 4 s, reads /odom and the front camera's
//! JPEG frames (decoded with Pillow), lets the command go stale, and sends garbage. `make test` installs the client's packages from PyPI into
//! `target/venv-ros2` (pinned); where PyPI cannot be reached the test says so and is skipped.
#![cfg(all(feature = "classroom", feature = "ros2"))]

mod common;
use common::class::{free_port, manifest, signing, wait_for, Proc};
use common::python::client_python;
use common::ros2::{mean_vx, stop};

use std::process::{Command, Stdio};
use std::time::Duration;

use treadsim::classroom::instructor::Instructor;
use treadsim::classroom::network::ClassNetwork;
use treadsim::classroom::protocol::{Command as SeatCommand, ExternalControl};
use treadsim::classroom::records::Records;

const KEY: &str = "ros2-test-class-key-0123456789";

#[test]
fn a_ros2_client_we_did_not_write_finds_the_node_drives_the_robot_and_reads_its_odometry() {
    let Some(python) = client_python("the ROS 2 client") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    // The class's instructor, to see and revoke the seat's external control.
    let class_port = free_port();
    let network = ClassNetwork {
        class: "ros2-test".into(),
        listen: Some(vec![format!("tcp/127.0.0.1:{class_port}")]),
        connect: vec![],
        multicast: false,
        key: KEY.into(),
    };
    let records = Records::open(&dir.path().join("records.sqlite")).unwrap();
    let instructor = Instructor::start(&network, records, signing()).unwrap();
    let out = dir.path().join("seat.out");
    let mut seat = Command::new(env!("CARGO_BIN_EXE_treadsim"));
    seat.current_dir(manifest(""))
        .env("TREADSIM_CLASS_KEY", KEY)
        .env("TREADSIM_INSTRUCTOR_KEY", signing().public().to_hex())
        .args([
            "seat",
            "--headless",
            "--seat",
            "ros1",
            "--class",
            "ros2-test",
        ])
        .args(["--no-multicast", "--connect"])
        .arg(format!("tcp/127.0.0.1:{class_port}"))
        .args(["--exercise", "figure8", "--ros2", "--ros-router", &endpoint])
        .arg("--logs")
        .arg(dir.path().join("logs"))
        .arg("--outbox")
        .arg(dir.path().join("outbox"))
        .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
        .stderr(Stdio::null());
    let seat = Proc(seat.spawn().unwrap());
    let client = Command::new(&python)
        .arg(manifest("tests/ros2/ros2_client.py"))
        .args([endpoint.as_str(), "0.3", "4"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&client.stdout);
    assert!(
        client.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&client.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    check_graph(&seen);
    check_driving(&seen);
    check_camera(&seen);
    check_diagnostics(&seen);
    // The instructor sees the seat's external control, and revokes it.
    let external = || {
        instructor
            .seats()
            .get("ros1")
            .and_then(|v| v.status.as_ref().and_then(|s| s.external.clone()))
    };
    let allowed = |allowed| {
        Some(ExternalControl {
            kind: "ros2".into(),
            allowed,
        })
    };
    assert!(
        wait_for(Duration::from_secs(10), || external() == allowed(true)),
        "seats seen: {:?}",
        instructor.seats().keys().collect::<Vec<_>>()
    );
    let reply = instructor
        .command("ros1", SeatCommand::External { allowed: false })
        .unwrap();
    assert!(reply.accepted, "{}", reply.reason);
    assert!(wait_for(Duration::from_secs(5), || external() == allowed(false)));
    instructor.close();
    // The seat's own count: the junk refused, the stale command a timeout.
    stop(&seat);
    let report = std::fs::read_to_string(&out).unwrap();
    println!("{report}");
    assert!(report.contains("3 refused"), "{report}");
    let timeouts: u32 = report
        .split(" timeouts")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(timeouts >= 1, "{report}");
}

#[test]
fn a_ros2_client_we_did_not_write_works_the_arm_by_joint_name_and_grips() {
    let Some(python) = client_python("the ROS 2 client") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let mut seat = Command::new(env!("CARGO_BIN_EXE_treadsim"));
    seat.current_dir(manifest(""))
        .env("TREADSIM_CLASS_KEY", KEY)
        .args([
            "seat",
            "--headless",
            "--seat",
            "arm1",
            "--class",
            "ros2-arm",
        ])
        .args(["--no-multicast", "--listen"])
        .arg(format!("tcp/127.0.0.1:{}", free_port()))
        .args(["--exercise", "dexterity_pick_place", "--ros2"])
        .args(["--ros-router", &endpoint, "--ros-camera-fps", "0"])
        .arg("--logs")
        .arg(dir.path().join("logs"))
        .arg("--outbox")
        .arg(dir.path().join("outbox"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let _seat = Proc(seat.spawn().unwrap());
    let client = Command::new(&python)
        .arg(manifest("tests/ros2/ros2_arm.py"))
        .args([endpoint.as_str(), "0.5", "-0.3", "20"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&client.stdout);
    assert!(
        client.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&client.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    println!("{seen}");
    let at = |when: &str, joint: &str| seen[when][joint][0].as_f64().unwrap();
    // scout_eod's arm in /joint_states by its file's names; the turret (60 deg/s, no load)
    // and the shoulder (45 deg/s, holding the arm up) reach the trajectory's end in 4 s.
    for joint in [
        "turret",
        "shoulder",
        "elbow",
        "wrist_pitch",
        "wrist_roll",
        "gripper",
    ] {
        assert!(seen["after"][joint].is_array(), "{joint}: {seen}");
    }
    assert!((at("after", "turret") - 0.5).abs() < 0.01, "{seen}");
    assert!((at("after", "shoulder") + 0.3).abs() < 0.02, "{seen}");
    // The other joints kept their targets.
    assert!(
        (at("after", "elbow") - at("before", "elbow")).abs() < 0.02,
        "{seen}"
    );
    // The fingers closed on nothing: the gap shrank.
    assert!(
        at("after", "gripper") < at("before", "gripper") - 0.01,
        "{seen}"
    );
}

/// The graph as `ros2 node list` and `ros2 topic list -t` would show it.
fn check_graph(seen: &serde_json::Value) {
    assert_eq!(seen["nodes"], serde_json::json!(["/treadsim"]), "{seen}");
    let topics = seen["topics"].as_array().unwrap();
    let mut listed: Vec<String> = topics
        .iter()
        .map(|t| format!("{} {} {}", t["kind"], t["topic"], t["type"]).replace('"', ""))
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        [
            "MP /clock rosgraph_msgs::msg::dds_::Clock_",
            "MP /diagnostics diagnostic_msgs::msg::dds_::DiagnosticArray_",
            "MP /front/image_raw/compressed sensor_msgs::msg::dds_::CompressedImage_",
            "MP /imu sensor_msgs::msg::dds_::Imu_",
            "MP /joint_states sensor_msgs::msg::dds_::JointState_",
            "MP /mast/image_raw/compressed sensor_msgs::msg::dds_::CompressedImage_",
            "MP /odom nav_msgs::msg::dds_::Odometry_",
            "MP /rear/image_raw/compressed sensor_msgs::msg::dds_::CompressedImage_",
            "MP /tf tf2_msgs::msg::dds_::TFMessage_",
            "MS /arm/joint_trajectory trajectory_msgs::msg::dds_::JointTrajectory_",
            "MS /cmd_vel geometry_msgs::msg::dds_::Twist_",
            "MS /enable std_msgs::msg::dds_::Bool_",
            "MS /flippers/target std_msgs::msg::dds_::Float64_",
            "MS /gripper/force std_msgs::msg::dds_::Float64_",
        ]
    );
}

/// The robot drove at the commanded speed, stopped once the command went stale, and the
/// odometry read with rosbags carried rmw_zenoh's attachment.
fn check_driving(seen: &serde_json::Value) {
    let odom = seen["odom"].as_array().unwrap();
    assert!(odom.len() > 100, "{} odometry messages", odom.len());
    assert_eq!(
        seen["attachments_bad"], 0,
        "every sample's attachment decodes"
    );
    let (start, end) = (
        seen["drive_started"].as_f64().unwrap(),
        seen["drive_ended"].as_f64().unwrap(),
    );
    let mean = |from, to| mean_vx(&seen["odom"], from, to);
    // Steady driving (after 2 s to get up to speed): within 5 % of 0.3 m/s.
    let cruise = mean(start + 2.0, end);
    println!("cruise {cruise:.4} m/s for 0.3 commanded");
    assert!((cruise - 0.3).abs() < 0.015, "cruise {cruise} m/s");
    // The command stale (timeout 0.5 s): stopped 1 s after the last one.
    let after = mean(end + 1.0, end + 1.5);
    assert!(after.abs() < 0.01, "still moving at {after} m/s");
    assert!(seen["still_after_junk"].as_f64().unwrap().abs() < 0.01);
    let first = &odom[0];
    assert_eq!(
        (first["frame"].as_str(), first["child"].as_str()),
        (Some("odom"), Some("base_link"))
    );
}

/// The exercise's state as ROS diagnostics (decoded with rosbags), once a second: the robot
/// driving, the figure-8 under way with its clock running, a perfect link.
fn check_diagnostics(seen: &serde_json::Value) {
    let all = seen["diagnostics"].as_array().unwrap();
    assert!(all.len() >= 5, "{} diagnostics", all.len());
    let last = &all[all.len() - 1]["status"];
    let names: Vec<&str> = last
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["treadsim: robot", "treadsim: exercise", "treadsim: link"]
    );
    assert_eq!(
        (last[0]["level"].as_u64(), last[0]["message"].as_str()),
        (Some(0), Some("driving"))
    );
    let exercise = &last[1];
    assert_eq!(exercise["message"], "under way", "{exercise}");
    assert_eq!(exercise["values"]["time_limit_s"], "120", "{exercise}");
    let clock = |d: &serde_json::Value| {
        d["status"][1]["values"]["clock_s"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let (first, latest) = (clock(&all[0]), clock(&all[all.len() - 1]));
    // One a second: the clock advanced about as many seconds as messages came.
    assert!(
        (latest - first - (all.len() - 1) as f64).abs() <= 1.5,
        "{first} .. {latest} in {} messages",
        all.len()
    );
    assert_eq!(last[2]["message"], "perfect");
}

/// The front camera's JPEG frames decoded (Pillow) to the feed's size, about 10 a second,
/// stamped with their capture time, not black.
fn check_camera(seen: &serde_json::Value) {
    let images = seen["images"].as_array().unwrap();
    let (start, end) = (
        seen["drive_started"].as_f64().unwrap(),
        seen["drive_ended"].as_f64().unwrap(),
    );
    let during = images
        .iter()
        .filter(|i| (start..end).contains(&i["t"].as_f64().unwrap()))
        .count() as f64;
    println!("{during} front camera frames in {:.1} s", end - start);
    assert!(during >= 0.6 * 10.0 * (end - start), "{during} frames");
    let first = &images[0];
    assert_eq!(first["format"], "jpeg");
    assert_eq!(first["frame"], "front_optical");
    assert_eq!(first["size"], serde_json::json!([320, 240]));
    assert!(
        first["mean"].as_f64().unwrap() > 20.0,
        "a black picture: {first}"
    );
    let late = first["t"].as_f64().unwrap() - first["stamp"].as_f64().unwrap();
    assert!(
        (-0.5..1.0).contains(&late),
        "stamped {late} s before arrival"
    );
}
