//! A robot file's `[arm]`: the preset's arm as read, and every rule of the arm tables with
//! the line and field path of its error (table-driven), as for the rest of the robot file.

mod common;

use std::path::Path;

use treadsim::config::SourceFile;
use treadsim::vehicle::arm::JointKind;
use treadsim::vehicle::robot_file::robot_from_source;

const PRESET: &str = "scenes/robots/scout_eod.toml";

fn preset_text() -> String {
    std::fs::read_to_string(PRESET).expect("preset")
}

#[test]
fn the_presets_arm_reads_as_written() {
    let spec = common::robot("scout_eod");
    let arm = spec.arm.expect("arm");
    let names: Vec<&str> = arm.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        ["turret", "shoulder", "elbow", "wrist_pitch", "wrist_roll"]
    );
    assert!(arm.joints.iter().all(|j| j.kind == JointKind::Revolute));
    assert!((arm.joints[1].max_effort - 40.0).abs() < 1e-12);
    assert!((arm.joints[2].initial - 170f64.to_radians()).abs() < 1e-12);
    // The mass the header adds up.
    assert!((arm.mass() - 2.85).abs() < 1e-9, "{}", arm.mass());
    let poses: Vec<&str> = arm.poses.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(poses, ["stow", "drive", "reach_forward", "reach_down"]);
    assert_eq!(
        arm.gripper.camera.as_ref().map(|c| c.name.as_str()),
        Some("gripper")
    );
}

/// Every arm rule: (replace, with, the text where the error is located, field, message).
#[allow(clippy::too_many_lines)] // a table of cases
#[test]
fn arm_rules_are_located() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "mount = [-0.12, 0.0, 0.20]",
            "mount = [-0.12, 0.0]",
            "mount = [-0.12, 0.0]",
            "arm.mount",
            "3 numbers",
        ),
        (
            "axis = \"z\"",
            "axis = \"w\"",
            "axis = \"w\"",
            "arm.joint[0].axis",
            "unknown axis",
        ),
        (
            "axis = \"z\"",
            "axis = [0, 0, 0]",
            "axis = [0, 0, 0]",
            "arm.joint[0].axis",
            "must not be zero",
        ),
        (
            "min_deg = -170",
            "min_deg = 171",
            "max_deg = 170",
            "arm.joint[0].max_deg",
            "greater than min_deg",
        ),
        (
            "max_deg = 170",
            "max_deg = 200",
            "max_deg = 200",
            "arm.joint[0].max_deg",
            "",
        ),
        (
            "initial_deg = 170",
            "initial_deg = 179",
            "initial_deg = 179",
            "arm.joint[2].initial_deg",
            "outside",
        ),
        (
            "max_torque = 40",
            "max_torque = -40",
            "max_torque = -40",
            "arm.joint[1].max_torque",
            "",
        ),
        (
            "name = \"elbow\"",
            "name = \"shoulder\"",
            "name = \"shoulder\"\naxis = \"y\"\nmin_deg = -10",
            "arm.joint[2].name",
            "defined twice",
        ),
        (
            "name = \"turret\"\naxis",
            "name = \"turret\"\ntype = \"ball\"\naxis",
            "type = \"ball\"",
            "arm.joint[0].type",
            "unknown joint type",
        ),
        (
            "radius = 0.04, mass = 0.8",
            "radius = 0.04, mass = 0.8, colour = 1",
            "link = { end = [0.0, 0.0, 0.08]",
            "arm.joint[0].link.colour",
            "unknown field",
        ),
        (
            "radius = 0.04, mass = 0.8",
            "radius = 0.04",
            "link = { end = [0.0, 0.0, 0.08]",
            "arm.joint[0].link.mass",
            "missing",
        ),
        (
            "opening = 0.10",
            "opening = 0",
            "opening = 0",
            "arm.gripper.opening",
            "",
        ),
        (
            "friction = 0.9",
            "friction = 5",
            "friction = 5",
            "arm.gripper.friction",
            "",
        ),
        (
            "pad = [0.05, 0.03]",
            "pad = [0.05]",
            "pad = [0.05]",
            "arm.gripper.pad",
            "2 numbers",
        ),
        (
            "positions = [0, -60, 150, -90, 0]",
            "positions = [0, -60, 150]",
            "positions = [0, -60, 150]",
            "arm.pose[0].positions",
            "3 positions for 5 joints",
        ),
        (
            "positions = [0, -60, 150, -90, 0]",
            "positions = [0, -60, 185, -90, 0]",
            "positions = [0, -60, 185",
            "arm.pose[0].positions",
            "outside its limits",
        ),
        (
            "name = \"drive\"",
            "name = \"stow\"",
            "name = \"stow\"",
            "arm.pose[0].name",
            "initial positions",
        ),
        (
            "name = \"reach_down\"",
            "name = \"drive\"",
            "name = \"drive\"\npositions = [0, -10",
            "arm.pose[2].name",
            "defined twice",
        ),
    ];
    let text = preset_text();
    for &(from, to, needle, field, what) in cases {
        assert!(text.contains(from), "case '{from}' is not in the preset");
        let edited = text.replacen(from, to, 1);
        let at = edited
            .find(needle)
            .unwrap_or_else(|| panic!("'{needle}' not in the edit"));
        let line = edited[..at].matches('\n').count() + 1;
        let e = robot_from_source(&SourceFile::from_text(
            Path::new("armed.toml"),
            edited.clone(),
        ))
        .expect_err(&format!("'{to}' must be refused"));
        assert_eq!(
            (e.line, e.field.as_str()),
            (line, field),
            "{from} -> {to}: {e}"
        );
        assert!(e.message.contains(what), "{from} -> {to}: {e}");
    }
}

#[test]
fn an_arm_needs_joints_and_a_gripper() {
    let text = preset_text();
    let start = text.find("[[arm.joint]]").unwrap();
    let end = text.find("[arm.gripper]").unwrap();
    let no_joints = format!("{}{}", &text[..start], &text[end..]);
    let e = robot_from_source(&SourceFile::from_text(Path::new("a.toml"), no_joints)).unwrap_err();
    assert!(e.message.contains("at least one [[arm.joint]]"), "{e}");
    let gripper_end = text.find("# Stored poses").unwrap();
    let no_gripper = format!("{}{}", &text[..end], &text[gripper_end..]);
    let e = robot_from_source(&SourceFile::from_text(Path::new("a.toml"), no_gripper)).unwrap_err();
    assert!(e.message.contains("[arm.gripper]"), "{e}");
}
