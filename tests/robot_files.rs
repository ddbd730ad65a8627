//! Robot description files: the presets in `scenes/robots/` load and are the robots they claim
//! to be (mass, size, flippers, ground clearance, climbing torque, sinkage), and every
//! validation rule refuses a bad file with the right line and field path, never a panic.

mod common;

use std::f64::consts::PI;
use std::fs;
use std::path::{Path, PathBuf};

use treadsim::config::{ConfigError, SourceFile};
use treadsim::vehicle::geometry::{flipper_circles_at, flipper_direction, track_circles};
use treadsim::vehicle::robot_file::{load_robot, robot_from_source};
use treadsim::vehicle::spec::{CircleSpec, HullShape, RobotSpec};
use treadsim::vehicle::stability::TipLimits;

const G: f64 = 9.81;

fn robots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/robots")
}

fn preset(name: &str) -> RobotSpec {
    let path = robots_dir().join(format!("{name}.toml"));
    load_robot(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn preset_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(robots_dir())
        .expect("scenes/robots/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

fn hull_box(r: &RobotSpec) -> ([f64; 3], [f64; 3]) {
    let HullShape::Box { size, center } = r.hull;
    (
        [
            center.x - size.x / 2.0,
            center.y - size.y / 2.0,
            center.z - size.z / 2.0,
        ],
        [
            center.x + size.x / 2.0,
            center.y + size.y / 2.0,
            center.z + size.z / 2.0,
        ],
    )
}

/// Every circle of the robot with the flippers at 0°.
fn all_circles(r: &RobotSpec) -> Vec<CircleSpec> {
    let mut out: Vec<CircleSpec> = r.tracks.iter().flat_map(track_circles).copied().collect();
    for f in &r.flippers {
        out.extend(flipper_circles_at(f, 0.0));
    }
    out
}

/// Overall x extent with the flippers at 0°: tracks, flippers and hull.
fn overall_length(r: &RobotSpec) -> f64 {
    let (lo, hi) = hull_box(r);
    let circles = all_circles(r);
    let min = circles.iter().map(|c| c.x - c.radius).fold(lo[0], f64::min);
    let max = circles.iter().map(|c| c.x + c.radius).fold(hi[0], f64::max);
    max - min
}

/// The belt force per track needed to climb `deg` degrees with rolling resistance `f_r`, N.
fn climb_force(r: &RobotSpec, deg: f64) -> f64 {
    let f_r = r.tracks[0].belt.rolling_resistance;
    let th = deg.to_radians();
    r.mass * G * (th.sin() + f_r * th.cos()) / r.tracks.len() as f64
}

/// How far `p` lies inside the convex hull of `circles` in the x–z plane (the belt outline),
/// m; negative outside. Uses the support function over 3600 directions.
fn depth_inside_outline(circles: &[CircleSpec], p: (f64, f64)) -> f64 {
    (0..3600)
        .map(|i| {
            let a = 2.0 * PI * i as f64 / 3600.0;
            let (nx, nz) = (a.cos(), a.sin());
            let support = circles
                .iter()
                .map(|c| nx * c.x + nz * c.z + c.radius)
                .fold(f64::NEG_INFINITY, f64::max);
            support - (nx * p.0 + nz * p.1)
        })
        .fold(f64::INFINITY, f64::min)
}

// ---------------------------------------------------------------------------------------------
// The presets

#[test]
fn every_preset_loads() {
    let files = preset_files();
    assert!(files.len() >= 3, "{files:?}");
    for f in &files {
        let r = load_robot(f).unwrap_or_else(|e| panic!("{e}"));
        assert!(!r.name.is_empty());
        assert_eq!(
            Some(r.name.as_str()),
            f.file_stem().and_then(|s| s.to_str()),
            "a preset's name is its file name"
        );
        assert!(
            r.tracks.len() >= 2 || r.wheels.len() >= 4,
            "{}",
            f.display()
        );
        let names: Vec<&str> = r.cameras.iter().map(|c| c.name.as_str()).collect();
        // A mast is optional: selfright20 has none (it would be under the robot on its back).
        for cam in ["front", "rear"] {
            assert!(names.contains(&cam), "{}: no {cam} camera", f.display());
        }
    }
}

/// The scenario tests' lists of presets (`common::PRESETS`, tracked, and `common::WHEELED`)
/// are every file in scenes/robots, and each list holds robots of its kind.
#[test]
fn the_test_preset_list_is_complete() {
    let mut stems: Vec<String> = preset_files()
        .iter()
        .filter_map(|f| f.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    stems.sort();
    let mut listed: Vec<String> = common::PRESETS
        .iter()
        .chain(&common::WHEELED)
        .chain(&common::ARMED)
        .chain(&common::MEASURED)
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    assert_eq!(stems, listed);
    for name in common::PRESETS {
        assert!(!common::robot(name).is_wheeled(), "{name}");
    }
    for name in common::WHEELED {
        assert!(common::robot(name).is_wheeled(), "{name}");
    }
    for name in common::ARMED {
        assert!(common::robot(name).arm.is_some(), "{name}");
    }
    for name in common::MEASURED {
        assert!(!common::robot(name).is_wheeled(), "{name}");
    }
}

#[test]
fn preset_masses() {
    for (name, mass, tol) in [
        ("scout", 20.0, 2.0),
        ("selfright20", 20.0, 2.0),
        ("tracker55", 55.0, 3.0),
        ("heavy250", 250.0, 15.0),
        ("rover30", 30.0, 3.0),
        ("wheeler300", 300.0, 30.0),
    ] {
        let r = preset(name);
        assert!((r.mass - mass).abs() <= tol, "{name}: {} kg", r.mass);
    }
}

#[test]
fn preset_flipper_counts() {
    assert_eq!(preset("scout").flippers.len(), 2);
    assert_eq!(preset("selfright20").flippers.len(), 2);
    assert_eq!(preset("tracker55").flippers.len(), 0);
    let heavy = preset("heavy250");
    assert_eq!(heavy.flippers.len(), 4);
    let front = heavy.flippers.iter().filter(|f| flipper_direction(f) > 0.0);
    assert_eq!(front.count(), 2, "two front and two rear flippers");
    for r in [preset("scout"), heavy] {
        for f in &r.flippers {
            assert!(r.track_index(&f.track).is_some());
        }
    }
}

#[test]
fn scout_is_about_0_7_m_long_with_flippers_stowed() {
    let r = preset("scout");
    // Flippers forward (0°) it is 0.885 m; stowed along the tracks it is the track length.
    let l = overall_length(&r);
    assert!(
        (l - 0.885).abs() <= 0.01,
        "scout is {l} m long with flippers forward"
    );
    // The main track spans two nosings of public stairs, 2·√(0.18² + 0.28²) = 0.666 m.
    let tracks_only = r
        .tracks
        .iter()
        .flat_map(track_circles)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c.x - c.radius), hi.max(c.x + c.radius))
        });
    let t = tracks_only.1 - tracks_only.0;
    assert!((0.67..=0.75).contains(&t), "{t}");
    // Width and height about 0.4 and 0.2 m.
    let (lo, hi) = hull_box(&r);
    let half_width = r
        .flippers
        .iter()
        .map(|f| f.y.abs() + f.belt.width / 2.0)
        .fold(hi[1], f64::max);
    assert!((2.0 * half_width - 0.45).abs() <= 0.05, "{half_width}");
    assert!((hi[2] - 0.2).abs() <= 0.02 && lo[2] > 0.0);
}

/// selfright20's header: lying on its back, its flipper tips can press below the hull top
/// (lift the body) while behind the centre of mass (so the body tips over its nose), which needs
/// a reach of at least √((x_axis − x_com)² + (z_top − z_axis)²) = 0.17 m; the scout's 0.23 m
/// flippers fall short of the 0.24 m its rear CoM needs.
#[test]
fn selfright20_flippers_reach_behind_the_centre_of_mass_below_the_hull_top() {
    let needed_and_reach = |r: &RobotSpec| {
        let f = &r.flippers[0];
        let tip = f.circles.last().expect("tip circle");
        let reach = (tip.x - f.axis_x).hypot(tip.z - f.axis_z) + tip.radius;
        let (_, hi) = hull_box(r);
        let needed = (f.axis_x - r.center_of_mass.x).hypot(hi[2] - f.axis_z);
        (needed, reach)
    };
    let (needed, reach) = needed_and_reach(&preset("selfright20"));
    assert!((needed - 0.166).abs() < 0.002, "{needed}");
    assert!(
        (reach - 0.31).abs() < 1e-9 && reach > needed + 0.1,
        "{reach}"
    );
    let (needed, reach) = needed_and_reach(&preset("scout"));
    assert!(reach < needed, "scout: reach {reach} needed {needed}");
    // Nose-heavy, yet it stands on its road wheels: forward static tip-over angle
    // atan((0.24 − 0.18)/0.09) = 33.7°.
    let tip = TipLimits::from_spec(&preset("selfright20"));
    assert!(
        (tip.forward.to_degrees() - 33.69).abs() < 0.05,
        "{}",
        tip.forward.to_degrees()
    );
}

/// The spawn rule's lowest point: an upright preset's lowest circles are on z = 0 exactly (so
/// spawning is unchanged by the rule), on its back the hull top is lowest, and on its side the
/// outermost belt or flipper edge.
#[test]
fn lowest_point_of_every_preset_upright_inverted_and_on_its_side() {
    use nalgebra::UnitQuaternion;
    use std::f64::consts::FRAC_PI_2;
    for f in preset_files() {
        let r = load_robot(&f).expect("preset");
        for yaw in [0.0, 0.7, PI] {
            let upright = r.lowest_point(&UnitQuaternion::from_euler_angles(0.0, 0.0, yaw));
            assert_eq!(upright, 0.0, "{}: upright at yaw {yaw}", r.name);
        }
        let (_, hi) = hull_box(&r);
        let inverted = r.lowest_point(&UnitQuaternion::from_euler_angles(PI, 0.0, 0.3));
        let circles_top = all_circles(&r)
            .iter()
            .map(|c| c.z + c.radius)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            (inverted + hi[2].max(circles_top)).abs() < 1e-9,
            "{}: inverted {inverted}, hull top {}",
            r.name,
            hi[2]
        );
        // Rolled 90° onto its right side: the body's −y extent is lowest.
        let side = r.lowest_point(&UnitQuaternion::from_euler_angles(FRAC_PI_2, 0.0, 0.0));
        let (lo, _) = hull_box(&r);
        let outer = r
            .tracks
            .iter()
            .map(|t| t.y - t.belt.width / 2.0)
            .chain(r.flippers.iter().map(|f| f.y - f.belt.width / 2.0))
            .chain(r.wheels.iter().map(|w| w.center.y - w.width / 2.0))
            .fold(lo[1], f64::min);
        assert!(
            (side - outer).abs() < 1e-9,
            "{}: side {side} outer {outer}",
            r.name
        );
    }
}

#[test]
fn preset_sizes() {
    for (name, length, width, height) in
        [("tracker55", 0.9, 0.55, 0.3), ("heavy250", 1.3, 0.8, 0.5)]
    {
        let r = preset(name);
        let (_, hi) = hull_box(&r);
        let l = overall_length(&r);
        let half_width = r
            .tracks
            .iter()
            .map(|t| t.y.abs() + t.belt.width / 2.0)
            .chain(r.flippers.iter().map(|f| f.y.abs() + f.belt.width / 2.0))
            .fold(hi[1], f64::max);
        assert!((l - length).abs() <= 0.1 * length, "{name}: length {l}");
        assert!(
            (2.0 * half_width - width).abs() <= 0.1 * width,
            "{name}: width {}",
            2.0 * half_width
        );
        assert!(
            (hi[2] - height).abs() <= 0.1 * height,
            "{name}: height {}",
            hi[2]
        );
    }
}

#[test]
fn preset_hulls_clear_the_ground_and_stay_inside_the_belt_outline() {
    for f in preset_files() {
        let r = load_robot(&f).unwrap();
        let (lo, hi) = hull_box(&r);
        assert!(lo[2] >= 0.03, "{}: hull bottom at {}", r.name, lo[2]);
        // The belt, not the hull, must meet a step first: the hull's lower front and rear
        // edges lie inside every main track's outline.
        for t in &r.tracks {
            let circles: Vec<CircleSpec> = track_circles(t).copied().collect();
            for x in [lo[0], hi[0]] {
                let d = depth_inside_outline(&circles, (x, lo[2]));
                assert!(d >= 0.015, "{}: hull edge x={x} is {d} m inside", r.name);
            }
        }
    }
}

#[test]
fn presets_follow_the_origin_convention() {
    for f in preset_files() {
        let r = load_robot(&f).unwrap();
        let lowest = r
            .tracks
            .iter()
            .flat_map(track_circles)
            .map(|c| c.z - c.radius)
            .chain(r.wheels.iter().map(|w| w.center.z - w.radius))
            .fold(f64::INFINITY, f64::min);
        assert!(lowest.abs() < 1e-9, "{}: lowest bottom {lowest}", r.name);
        let (rear, front) = r.footprint();
        assert!(
            ((rear + front) / 2.0).abs() <= 0.005,
            "{}: footprint {rear}..{front} is not centred on the origin",
            r.name
        );
        // Symmetric left/right, CoM over the footprint.
        assert!(r.tracks.iter().map(|t| t.y).sum::<f64>().abs() < 1e-9);
        let c = r.center_of_mass;
        assert!(rear < c.x && c.x < front && c.y.abs() < r.track_gauge() / 2.0);
        // The flippers do not touch flat ground at rest.
        for fl in &r.flippers {
            let circles = flipper_circles_at(fl, fl.initial_angle);
            assert!(circles.iter().all(|k| k.z - k.radius > 0.01), "{}", fl.name);
        }
    }
}

#[test]
fn motors_can_climb_35_degrees_with_a_margin() {
    for f in preset_files() {
        let r = load_robot(&f).unwrap();
        for t in &r.tracks {
            let need = 1.5 * climb_force(&r, 35.0) * t.sprocket.radius;
            assert!(
                t.motor.max_torque >= need,
                "{} {}: {} N·m < {need} N·m",
                r.name,
                t.name,
                t.motor.max_torque
            );
        }
    }
    // The brief's check for the scout, spelt out: m·g·sin 35°/2 · r · 1.5.
    let s = preset("scout");
    let bare = s.mass * G * 35f64.to_radians().sin() / 2.0 * s.tracks[0].sprocket.radius * 1.5;
    assert!(s.tracks[0].motor.max_torque >= bare);
}

#[test]
fn preset_speeds() {
    for (name, v) in [("scout", 1.0), ("tracker55", 1.5), ("heavy250", 1.0)] {
        for t in &preset(name).tracks {
            assert!((t.motor.max_speed - v).abs() < 1e-9, "{name}");
        }
    }
}

#[test]
fn helpers_on_the_scout() {
    let r = preset("scout");
    assert_eq!(r.track_index("left"), Some(0));
    assert_eq!(r.track_index("right"), Some(1));
    assert_eq!(r.track_index("front_left"), None);
    let (rear, front) = r.footprint();
    assert!((rear + 0.21).abs() < 1e-9 && (front - 0.21).abs() < 1e-9);
    assert!((r.footprint_length() - 0.42).abs() < 1e-9);
    assert!((r.track_gauge() - 0.30).abs() < 1e-9);
    // tracker55's rear sprocket is on the ground, so it belongs to the footprint.
    let t = preset("tracker55");
    let (rear, front) = t.footprint();
    assert!((rear + 0.30).abs() < 1e-9 && (front - 0.30).abs() < 1e-9);
}

#[test]
fn flipper_angles_raise_the_tip_front_and_rear() {
    let r = preset("heavy250");
    for f in &r.flippers {
        let at0 = flipper_circles_at(f, 0.0);
        assert_eq!(at0, f.circles);
        let dir = flipper_direction(f);
        let up = flipper_circles_at(f, 30f64.to_radians());
        let down = flipper_circles_at(f, -30f64.to_radians());
        let tip = 1; // the small wheel
        assert!(up[tip].z > at0[tip].z + 0.1 && down[tip].z < at0[tip].z - 0.1);
        // The tip stays on its side of the axis, at the same distance.
        assert!(dir * (up[tip].x - f.axis_x) > 0.0);
        let l0 = (at0[tip].x - f.axis_x).hypot(at0[tip].z - f.axis_z);
        let l1 = (up[tip].x - f.axis_x).hypot(up[tip].z - f.axis_z);
        assert!((l0 - l1).abs() < 1e-12);
        // 180° folds it back along the main track, at the same height.
        let folded = flipper_circles_at(f, PI);
        assert!(dir * (folded[tip].x - f.axis_x) < 0.0);
        assert!((folded[tip].z - at0[tip].z).abs() < 1e-12);
        // The pivot wheel sits on the axis and does not move.
        assert!((up[0].x - at0[0].x).abs() < 1e-12 && (up[0].z - at0[0].z).abs() < 1e-12);
    }
}

#[test]
fn degrees_in_the_file_are_radians_in_the_spec() {
    let r = preset("scout");
    let f = &r.flippers[0];
    assert!((f.min_angle + PI / 2.0).abs() < 1e-12);
    assert!((f.max_angle - PI).abs() < 1e-12);
    assert!((f.max_rate - PI / 2.0).abs() < 1e-12);
    assert_eq!(f.initial_angle, 0.0);
    assert_eq!(f.max_torque, 25.0);
    let front = &r.cameras[0];
    assert!((front.fov - 70f64.to_radians()).abs() < 1e-12);
    assert!((front.rpy.y - 10f64.to_radians()).abs() < 1e-12);
    let rear = r.cameras.iter().find(|c| c.name == "rear").unwrap();
    assert!((rear.rpy.z - PI).abs() < 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Format details on a small robot

const MINI: &str = r#"# a minimal robot used by the tests
[robot]
name = "mini"
description = "test robot"
mass = 10.0
center_of_mass = [0.0, 0.0, 0.1]
inertia = [0.2, 0.3, 0.4]

[hull]
size = [0.4, 0.3, 0.1]
center = [0.0, 0.0, 0.1]

[belt_defaults]
width = 0.05
stiffness = 1.0e5
planes = 2
damping = 4.0
run_stiffness_mid = 0.3

[[track]]
name = "left"
y = 0.12
sprocket = { x = -0.2, z = 0.05, radius = 0.05 }
idler = { x = 0.2, z = 0.05, radius = 0.05 }
road_wheels = [
  { x = -0.1, z = 0.03, radius = 0.03 },
  { x = 0.1, z = 0.03, radius = 0.03 },
]
motor = { max_speed = 1.0, max_torque = 5.0, max_acceleration = 2.0, belt_inertia = 1.0 }

[[track]]
name = "right"
y = -0.12
sprocket = { x = -0.2, z = 0.05, radius = 0.05 }
idler = { x = 0.2, z = 0.05, radius = 0.05 }
road_wheels = [
  { x = -0.1, z = 0.03, radius = 0.03 },
  { x = 0.1, z = 0.03, radius = 0.03 },
]
rollers = [{ x = 0.0, z = 0.08, radius = 0.02 }]
motor = { max_speed = 1.0, max_torque = 5.0, max_acceleration = 2.0, belt_inertia = 1.0 }
belt = { width = 0.06 }

[[flipper]]
name = "front_left"
track = "left"
y = 0.17
axis = [0.2, 0.05]
circles = [
  { x = 0.2, z = 0.05, radius = 0.05 },
  { x = 0.35, z = 0.05, radius = 0.02 },
]
min_angle_deg = -60
max_angle_deg = 90
max_rate_deg = 60
initial_angle_deg = 10
belt = { width = 0.03, planes = 1 }

[[camera]]
name = "front"
position = [0.2, 0.0, 0.15]
rpy_deg = [0, 10, 0]
fov_deg = 70
"#;

fn mini(text: &str) -> Result<RobotSpec, ConfigError> {
    robot_from_source(&SourceFile::from_text(
        Path::new("mini.toml"),
        text.to_string(),
    ))
}

#[test]
fn the_minimal_robot_loads_and_merges_belts_field_by_field() {
    let r = mini(MINI).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.name, "mini");
    assert_eq!(r.tracks.len(), 2);
    let left = r.tracks[0].belt;
    assert_eq!((left.width, left.planes, left.stiffness), (0.05, 2, 1.0e5));
    // Not in [belt_defaults]: the built-in defaults.
    assert_eq!(left.lateral_friction_scale, 1.0);
    assert_eq!(left.rolling_resistance, 0.03);
    // The right track overrides the width only.
    let right = r.tracks[1].belt;
    assert_eq!(
        (right.width, right.planes, right.stiffness),
        (0.06, 2, 1.0e5)
    );
    assert_eq!(r.tracks[1].rollers.len(), 1);
    let fb = r.flippers[0].belt;
    assert_eq!(
        (fb.width, fb.planes, fb.stiffness, fb.damping),
        (0.03, 1, 1.0e5, 4.0)
    );
    assert!((r.flippers[0].initial_angle - 10f64.to_radians()).abs() < 1e-12);
    assert_eq!(r.inertia.as_slice(), &[0.2, 0.3, 0.4]);
    // All four road wheels and both sprockets/idlers touch z = 0: footprint -0.2..0.2.
    assert_eq!(r.footprint(), (-0.2, 0.2));
    assert!((r.track_gauge() - 0.24).abs() < 1e-12);
}

#[test]
fn inertia_defaults_to_a_solid_box_of_the_hull() {
    let r = mini(&MINI.replace("inertia = [0.2, 0.3, 0.4]\n", "")).unwrap();
    let (a, b, c) = (0.4f64, 0.3f64, 0.1f64);
    let m = 10.0 / 12.0;
    let want = [
        m * (b * b + c * c),
        m * (a * a + c * c),
        m * (a * a + b * b),
    ];
    for (got, want) in r.inertia.iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{:?}", r.inertia);
    }
}

#[test]
fn optional_parts_can_be_left_out() {
    // No belt_defaults: every track gives width and stiffness itself; no flippers or cameras.
    let text = r#"
[robot]
name = "bare"
mass = 5
center_of_mass = [0, 0, 0.05]
[hull]
size = [0.3, 0.2, 0.05]
center = [0, 0, 0.06]
[[track]]
name = "only"
y = 0
sprocket = { x = -0.1, z = 0.02, radius = 0.02 }
idler = { x = 0.1, z = 0.02, radius = 0.02 }
motor = { max_speed = 0.5, max_torque = 1, max_acceleration = 1, belt_inertia = 0.2 }
belt = { width = 0.2, stiffness = 1e5 }
[[camera]]
name = "eye"
position = [0.1, 0, 0.1]
"#;
    let r = mini(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.track_gauge(), 0.0);
    assert!(r.tracks[0].road_wheels.is_empty() && r.flippers.is_empty());
    assert_eq!(r.tracks[0].belt.planes, 2);
    assert_eq!(r.tracks[0].belt.damping, 4.0);
    assert_eq!(r.tracks[0].belt.run_stiffness_mid, 0.3);
    assert!((r.cameras[0].fov - 60f64.to_radians()).abs() < 1e-12);
    assert_eq!(r.cameras[0].rpy, nalgebra::Vector3::zeros());
}

// ---------------------------------------------------------------------------------------------
// Bad files: every rule, with its line and field path

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("'{needle}' not in the text"))
        + 1
}

/// `MINI` with the first `from` replaced by `to`.
fn edit(from: &str, to: &str) -> String {
    assert!(MINI.contains(from), "'{from}' not in MINI");
    MINI.replacen(from, to, 1)
}

/// Loads `text` from a real file and checks the error's file, line, field and message.
fn expect_error(text: &str, line: usize, field: &str, what: &str) -> ConfigError {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("robot.toml");
    fs::write(&path, text).unwrap();
    let e = load_robot(&path).expect_err("the robot must be rejected");
    let shown = e.to_string();
    assert_eq!(e.path, path, "{shown}");
    assert_eq!(e.field, field, "{shown}");
    assert_eq!(e.line, line, "{shown}");
    assert!(e.message.contains(what), "expected '{what}' in: {shown}");
    assert!(
        shown.starts_with(&format!("{}:{line}:", path.display())),
        "{shown}"
    );
    if !field.is_empty() {
        assert!(shown.contains(&format!(": {field}: ")), "{shown}");
    }
    e
}

/// Replaces `from` by `to` in MINI and expects the error on the line containing `needle`.
fn case(from: &str, to: &str, needle: &str, field: &str, what: &str) {
    let text = edit(from, to);
    let line = line_of(&text, needle);
    expect_error(&text, line, field, what);
}

#[test]
fn syntax_errors_and_missing_file() {
    let text = edit("mass = 10.0", "mass = 10.0.0");
    let e = load_robot(Path::new("/nonexistent/robot.toml")).unwrap_err();
    assert!(e.message.contains("cannot read"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("robot.toml");
    fs::write(&path, &text).unwrap();
    let e = load_robot(&path).unwrap_err();
    assert!(e.message.contains("TOML syntax"), "{e}");
    assert_eq!(e.line, line_of(&text, "mass = 10.0.0"), "{e}");
}

#[test]
fn robot_table_rules() {
    let no_robot = MINI.replace("[robot]", "[robut]");
    let e = mini(&no_robot).unwrap_err();
    assert_eq!(e.field, "robot", "{e}");
    case(
        "mass = 10.0",
        "mass = 0",
        "mass = 0",
        "robot.mass",
        "greater than 0",
    );
    case(
        "mass = 10.0",
        "mass = -3",
        "mass = -3",
        "robot.mass",
        "greater than 0",
    );
    case(
        "mass = 10.0",
        "mass = \"heavy\"",
        "mass =",
        "robot.mass",
        "expected a number",
    );
    case(
        "name = \"mini\"",
        "name = \"  \"",
        "name =",
        "robot.name",
        "empty",
    );
    case(
        "inertia = [0.2, 0.3, 0.4]",
        "inertia = [0.2, 0.0, 0.4]",
        "inertia",
        "robot.inertia[1]",
        "greater than 0",
    );
    case(
        "inertia = [0.2, 0.3, 0.4]",
        "inertia = [0.1, 0.1, 0.5]",
        "inertia",
        "robot.inertia",
        "Ixx + Iyy",
    );
    case(
        "inertia = [0.2, 0.3, 0.4]",
        "inertia = [0.9, 0.3, 0.4]",
        "inertia",
        "robot.inertia",
        "Iyy + Izz",
    );
    case(
        "center_of_mass = [0.0, 0.0, 0.1]",
        "center_of_mass = [0.0, 0.0, 0.5]",
        "center_of_mass",
        "robot.center_of_mass",
        "outside the hull box",
    );
    case(
        "center_of_mass = [0.0, 0.0, 0.1]",
        "center_of_mass = [-0.41, 0.0, 0.1]",
        "center_of_mass",
        "robot.center_of_mass",
        "outside the hull box",
    );
    case(
        "description = \"test robot\"",
        "descripton = \"test robot\"",
        "descripton",
        "robot.descripton",
        "unknown field",
    );
    case(
        "[hull]",
        "[wheels]\ncount = 4\n\n[hull]",
        "[wheels]",
        "wheels",
        "unknown field",
    );
}

#[test]
fn hull_rules() {
    case(
        "size = [0.4, 0.3, 0.1]",
        "size = [0.4, -0.3, 0.1]",
        "size",
        "hull.size[1]",
        "greater than 0",
    );
    case(
        "size = [0.4, 0.3, 0.1]",
        "size = [0.4, 0.3]",
        "size",
        "hull.size",
        "3 numbers",
    );
    case(
        "center = [0.0, 0.0, 0.1]",
        "center = [0.0, 0.0, 0.04]",
        "center = [0.0, 0.0, 0.04]",
        "hull.center",
        "below the ground plane",
    );
    // A misspelt required field is named as the typo, not as the field missing.
    let e = mini(&MINI.replace("[hull]\nsize", "[hull]\nsise")).unwrap_err();
    assert_eq!(e.field, "hull.sise", "{e}");
    assert_eq!(
        e.message, "unknown field `sise` (did you mean `size`?)",
        "{e}"
    );
    let e = mini(&MINI.replace("[hull]\nsize", "[hull]\nwhatever")).unwrap_err();
    assert_eq!(e.field, "hull.size", "{e}");
    assert!(e.message.contains("missing"), "{e}");
    let e = mini(&MINI.replace("[hull]", "[hul]")).unwrap_err();
    assert_eq!(e.field, "hull", "{e}");
}

#[test]
fn belt_rules() {
    case(
        "planes = 2",
        "planes = 0",
        "planes = 0",
        "belt_defaults.planes",
        "between 1 and 8",
    );
    case(
        "planes = 2",
        "planes = 9",
        "planes = 9",
        "belt_defaults.planes",
        "between 1 and 8",
    );
    case(
        "planes = 2",
        "planes = 1.5",
        "planes = 1.5",
        "belt_defaults.planes",
        "integer",
    );
    case(
        "belt = { width = 0.06 }",
        "belt = { width = 0.06, planes = 12 }",
        "planes = 12",
        "track[1].belt.planes",
        "between 1 and 8",
    );
    case(
        "run_stiffness_mid = 0.3",
        "run_stiffness_mid = 0.0",
        "run_stiffness_mid",
        "belt_defaults.run_stiffness_mid",
        "greater than 0",
    );
    case(
        "run_stiffness_mid = 0.3",
        "run_stiffness_mid = 1.2",
        "run_stiffness_mid",
        "belt_defaults.run_stiffness_mid",
        "between",
    );
    case(
        "damping = 4.0",
        "damping = -1.0",
        "damping",
        "belt_defaults.damping",
        "between 0",
    );
    case(
        "stiffness = 1.0e5",
        "stiffness = 0.0",
        "stiffness",
        "belt_defaults.stiffness",
        "greater than 0",
    );
    case(
        "width = 0.05",
        "width = -0.05",
        "width = -0.05",
        "belt_defaults.width",
        "greater than 0",
    );
    case(
        "belt = { width = 0.06 }",
        "belt = { width = 0.06, widht = 1 }",
        "widht",
        "track[1].belt.widht",
        "unknown field",
    );
    case(
        "belt = { width = 0.03, planes = 1 }",
        "belt = { width = 0.0, planes = 1 }",
        "width = 0.0, planes",
        "flipper[0].belt.width",
        "greater than 0",
    );
    // No width anywhere for the left track: reported at that track.
    let text = edit("width = 0.05\n", "");
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "track[0].belt.width", "{e}");
    assert!(e.message.contains("belt_defaults"), "{e}");
    // A missing value is located at its table: the `[[track]]` line.
    assert_eq!(e.line, line_of(&text, "[[track]]"), "{e}");
}

#[test]
fn track_rules() {
    let no_tracks: String = {
        let start = MINI.find("[[track]]").unwrap();
        let end = MINI.find("[[flipper]]").unwrap();
        format!("{}{}", &MINI[..start], &MINI[end..])
    };
    let e = mini(&no_tracks).unwrap_err();
    assert_eq!(e.field, "track", "{e}");
    assert!(e.message.contains("at least one"), "{e}");
    let e = mini(&MINI.replace("[[track]]", "[[trak]]")).unwrap_err();
    assert_eq!(e.field, "track", "{e}");

    let text = edit("name = \"right\"", "name = \"left\"");
    let line = line_of(&text, "y = -0.12") - 1;
    expect_error(&text, line, "track[1].name", "already used");
    case(
        "sprocket = { x = -0.2, z = 0.05, radius = 0.05 }",
        "sprocket = { x = -0.2, z = 0.05, radius = 0.0 }",
        "radius = 0.0 }",
        "track[0].sprocket.radius",
        "greater than 0",
    );
    case(
        "  { x = 0.1, z = 0.03, radius = 0.03 },",
        "  { x = 0.1, z = 0.03, radius = -0.03 },",
        "radius = -0.03",
        "track[0].road_wheels[1].radius",
        "greater than 0",
    );
    case(
        "rollers = [{ x = 0.0, z = 0.08, radius = 0.02 }]",
        "rollers = [{ x = 0.0, z = 0.08, radius = 0.02, width = 1 }]",
        "rollers",
        "track[1].rollers[0].width",
        "unknown field",
    );
    case(
        "idler = { x = 0.2, z = 0.05, radius = 0.05 }",
        "idler = { x = -0.2, z = 0.05, radius = 0.05 }",
        "idler = { x = -0.2",
        "track[0].idler.x",
        "sprocket's x",
    );
    case(
        "idler = { x = 0.2, z = 0.05, radius = 0.05 }",
        "idler = { x = 0.2, radius = 0.05 }",
        "idler = { x = 0.2, radius",
        "track[0].idler.z",
        "missing",
    );
    let e = mini(&edit(
        "  { x = 0.1, z = 0.03, radius = 0.03 },\n]\nmotor",
        "  { x = 0.1, z = 0.03, radius = 0.03 },\n]\nmotr",
    ))
    .unwrap_err();
    assert_eq!(e.field, "track[0].motor", "{e}");
    assert!(e.message.contains("missing"), "{e}");
    case(
        "motor = { max_speed = 1.0, max_torque = 5.0,",
        "motor = { max_speed = 1.0, max_torque = 0.0,",
        "max_torque = 0.0",
        "track[0].motor.max_torque",
        "greater than 0",
    );
    case(
        "max_acceleration = 2.0, belt_inertia = 1.0 }",
        "max_acceleration = 2.0 }",
        "max_acceleration = 2.0 }",
        "track[0].motor.belt_inertia",
        "missing",
    );
    case(
        "y = 0.12",
        "y = \"left\"",
        "y = \"left\"",
        "track[0].y",
        "expected a number",
    );
}

#[test]
fn the_origin_must_be_on_the_ground_under_the_tracks() {
    // The left sprocket reaches 2 cm below z = 0.
    case(
        "sprocket = { x = -0.2, z = 0.05, radius = 0.05 }",
        "sprocket = { x = -0.2, z = 0.03, radius = 0.05 }",
        "z = 0.03, radius = 0.05",
        "track[0].sprocket.z",
        "shift every z by 0.0200",
    );
    // Every circle 10 cm up: the first lowest circle is named.
    let text = MINI
        .replace("z = 0.05, radius = 0.05", "z = 0.15, radius = 0.05")
        .replace("z = 0.03, radius", "z = 0.13, radius")
        .replace("z = 0.08, radius = 0.02", "z = 0.18, radius = 0.02");
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "track[0].sprocket.z", "{e}");
    assert_eq!(e.line, line_of(&text, "sprocket"), "{e}");
    assert!(e.message.contains("ground plane"), "{e}");
    // Within 5 mm is accepted.
    let text = MINI.replace("z = 0.03, radius", "z = 0.027, radius");
    mini(&text).unwrap_or_else(|e| panic!("{e}"));
}

/// A flipper without `max_torque` gets one that carries the robot's whole weight at its tip
/// held level: MINI (10 kg) has its tip circle 0.15 m from the axis, radius 0.02 m:
/// 10 · 9.81 · 0.17 = 16.677 N·m.
#[test]
fn flipper_torque_defaults_to_the_weight_at_the_tip() {
    let r = mini(MINI).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        (r.flippers[0].max_torque - 16.677).abs() < 1e-9,
        "{}",
        r.flippers[0].max_torque
    );
    let r = mini(&edit(
        "max_rate_deg = 60",
        "max_rate_deg = 60\nmax_torque = 7.5",
    ))
    .unwrap();
    assert_eq!(r.flippers[0].max_torque, 7.5);
}

#[test]
fn flipper_rules() {
    case(
        "track = \"left\"",
        "track = \"middle\"",
        "track = \"middle\"",
        "flipper[0].track",
        "no main track is named 'middle' (tracks: left, right)",
    );
    let text = edit("name = \"front_left\"", "name = \"right\"");
    let line = line_of(&text, "[[flipper]]") + 1;
    expect_error(&text, line, "flipper[0].name", "already used");
    case(
        "max_angle_deg = 90",
        "max_angle_deg = -60",
        "max_angle_deg",
        "flipper[0].max_angle_deg",
        "greater than min_angle_deg",
    );
    case(
        "initial_angle_deg = 10",
        "initial_angle_deg = 95",
        "initial_angle_deg",
        "flipper[0].initial_angle_deg",
        "outside",
    );
    case(
        "min_angle_deg = -60",
        "min_angle_deg = -400",
        "min_angle_deg",
        "flipper[0].min_angle_deg",
        "between -360 and 360",
    );
    case(
        "max_rate_deg = 60",
        "max_rate_deg = 0",
        "max_rate_deg",
        "flipper[0].max_rate_deg",
        "greater than 0",
    );
    case(
        "max_rate_deg = 60",
        "max_rate_deg = 60\nmax_torque = 0",
        "max_torque = 0",
        "flipper[0].max_torque",
        "greater than 0",
    );
    case(
        "max_rate_deg = 60",
        "max_rate_deg = 60\nmax_torque = -3",
        "max_torque = -3",
        "flipper[0].max_torque",
        "greater than 0",
    );
    case(
        "max_rate_deg = 60",
        "max_rate_deg = 60\nmax_torque = 1e9",
        "max_torque = 1e9",
        "flipper[0].max_torque",
        "between",
    );
    case(
        "max_rate_deg = 60",
        "max_rate_deg = 60\nmax_torque = \"strong\"",
        "max_torque = \"strong\"",
        "flipper[0].max_torque",
        "",
    );
    case(
        "  { x = 0.35, z = 0.05, radius = 0.02 },",
        "  { x = 0.2, z = 0.25, radius = 0.02 },",
        "circles = [",
        "flipper[0].circles",
        "ahead of the axis",
    );
    case(
        "  { x = 0.35, z = 0.05, radius = 0.02 },",
        "  { x = 0.35, z = 0.05, radius = 0 },",
        "radius = 0 }",
        "flipper[0].circles[1].radius",
        "greater than 0",
    );
    case(
        "axis = [0.2, 0.05]",
        "axis = [0.2]",
        "axis = [0.2]",
        "flipper[0].axis",
        "2 numbers",
    );
    let start = MINI.find("circles = [").unwrap();
    let end = MINI.find("min_angle_deg").unwrap();
    let text = format!("{}circles = []\n{}", &MINI[..start], &MINI[end..]);
    expect_error(
        &text,
        line_of(&text, "circles = []"),
        "flipper[0].circles",
        "at least one circle",
    );
    // Initial angle absent: 0 must be in range.
    let text =
        edit("min_angle_deg = -60", "min_angle_deg = 5").replace("initial_angle_deg = 10\n", "");
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "flipper[0].initial_angle_deg", "{e}");
}

#[test]
fn camera_rules() {
    case(
        "fov_deg = 70",
        "fov_deg = 0",
        "fov_deg",
        "camera[0].fov_deg",
        "greater than 0",
    );
    case(
        "fov_deg = 70",
        "fov_deg = 180",
        "fov_deg",
        "camera[0].fov_deg",
        "between",
    );
    case(
        "rpy_deg = [0, 10, 0]",
        "rpy_deg = [0, 10, 720]",
        "rpy_deg",
        "camera[0].rpy_deg[2]",
        "between -360 and 360",
    );
    let text = format!("{MINI}\n[[camera]]\nname = \"front\"\nposition = [0, 0, 0.2]\n");
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "camera[1].name", "{e}");
    assert!(e.message.contains("twice"), "{e}");
    assert_eq!(e.line, text.lines().count() - 1, "{e}");
}

fn repeat_table(header: &str, body: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("{header}\n{}\n", body.replace("{i}", &i.to_string())))
        .collect()
}

#[test]
fn limits_on_counts() {
    // 17 tracks.
    let body = "name = \"t{i}\"\ny = 0\nsprocket = { x = -0.1, z = 0.02, radius = 0.02 }\n\
                idler = { x = 0.1, z = 0.02, radius = 0.02 }\n\
                motor = { max_speed = 1, max_torque = 1, max_acceleration = 1, belt_inertia = 1 }";
    let head = "[robot]\nname = \"many\"\nmass = 5\ncenter_of_mass = [0, 0, 0.05]\n\
                [hull]\nsize = [0.3, 0.2, 0.05]\ncenter = [0, 0, 0.06]\n\
                [belt_defaults]\nwidth = 0.05\nstiffness = 1e5\n";
    let ok = format!("{head}{}", repeat_table("[[track]]", body, 16));
    mini(&ok).unwrap_or_else(|e| panic!("{e}"));
    let e = mini(&format!("{head}{}", repeat_table("[[track]]", body, 17))).unwrap_err();
    assert_eq!(e.field, "track", "{e}");
    assert!(e.message.contains("limit of 16"), "{e}");

    // 17 flippers, 17 cameras.
    let flipper = "name = \"f{i}\"\ntrack = \"left\"\ny = 0.2\naxis = [0.2, 0.05]\n\
                   circles = [{ x = 0.3, z = 0.05, radius = 0.02 }]\n\
                   min_angle_deg = -10\nmax_angle_deg = 10\nmax_rate_deg = 10";
    let text = format!("{MINI}\n{}", repeat_table("[[flipper]]", flipper, 16));
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "flipper", "{e}");
    assert!(e.message.contains("limit of 16"), "{e}");
    let camera = "name = \"c{i}\"\nposition = [0, 0, 0.2]";
    let text = format!("{MINI}\n{}", repeat_table("[[camera]]", camera, 16));
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "camera", "{e}");
    assert!(e.message.contains("limit of 16"), "{e}");

    // 32 circles per track: 30 road wheels are fine, 31 are not, nor 25 + 6 rollers.
    let wheels = |n: usize| {
        (0..n)
            .map(|i| {
                format!(
                    "  {{ x = {:.3}, z = 0.03, radius = 0.03 }},\n",
                    -0.15 + 0.01 * i as f64
                )
            })
            .collect::<String>()
    };
    let road = "road_wheels = [\n  { x = -0.1, z = 0.03, radius = 0.03 },\n  { x = 0.1, z = 0.03, radius = 0.03 },\n]";
    let text = MINI.replacen(road, &format!("road_wheels = [\n{}]", wheels(30)), 1);
    mini(&text).unwrap_or_else(|e| panic!("{e}"));
    let text = MINI.replacen(road, &format!("road_wheels = [\n{}]", wheels(31)), 1);
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "track[0].road_wheels", "{e}");
    assert_eq!(e.line, line_of(&text, "road_wheels = ["), "{e}");
    assert!(e.message.contains("limit of 30"), "{e}");
    let rollers = "rollers = [{ x = 0.0, z = 0.08, radius = 0.02 }]";
    let many_rollers = format!(
        "rollers = [{}]",
        ["{ x = 0.0, z = 0.08, radius = 0.02 }"; 6].join(", ")
    );
    let text = MINI
        .replacen(road, &format!("road_wheels = [\n{}]", wheels(25)), 2)
        .replace(rollers, &many_rollers);
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "track[1].rollers", "{e}");
    assert!(e.message.contains("at most 32 circles"), "{e}");
    // A flipper has at most 32 circles.
    let flipper_circles = "circles = [\n  { x = 0.2, z = 0.05, radius = 0.05 },\n  { x = 0.35, z = 0.05, radius = 0.02 },\n]";
    let text = MINI.replace(
        flipper_circles,
        &format!(
            "circles = [\n{}]",
            wheels(33).replace("z = 0.03", "z = 0.05")
        ),
    );
    let e = mini(&text).unwrap_err();
    assert_eq!(e.field, "flipper[0].circles", "{e}");
    assert!(e.message.contains("limit of 32"), "{e}");
}

#[test]
fn unknown_fields_are_rejected_everywhere() {
    for (from, to, field) in [
        ("[hull]\n", "[hull]\ncolour = 1\n", "hull.colour"),
        (
            "[belt_defaults]\n",
            "[belt_defaults]\ngrousers = 1\n",
            "belt_defaults.grousers",
        ),
        ("y = 0.12\n", "y = 0.12\nx = 0\n", "track[0].x"),
        (
            "motor = { max_speed = 1.0,",
            "motor = { rpm = 1, max_speed = 1.0,",
            "track[0].motor.rpm",
        ),
        (
            "axis = [0.2, 0.05]\n",
            "axis = [0.2, 0.05]\nlength = 1\n",
            "flipper[0].length",
        ),
        (
            "fov_deg = 70\n",
            "fov_deg = 70\nzoom = 2\n",
            "camera[0].zoom",
        ),
    ] {
        let text = edit(from, to);
        let e = mini(&text).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains("unknown field"), "{e}");
        let key = field.rsplit('.').next().unwrap();
        let line = text
            .lines()
            .position(|l| l.contains(&format!("{key} =")))
            .unwrap()
            + 1;
        assert_eq!(e.line, line, "{e}");
    }
}

/// Prints the numbers of the presets table in `scenes/robots/README.md`:
/// `cargo test --no-default-features --test robot_files -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_preset_table() {
    for f in preset_files() {
        let r = load_robot(&f).unwrap();
        let (lo, hi) = hull_box(&r);
        let half_width = r
            .tracks
            .iter()
            .map(|t| t.y.abs() + t.belt.width / 2.0)
            .chain(r.flippers.iter().map(|f| f.y.abs() + f.belt.width / 2.0))
            .fold(hi[1], f64::max);
        let (rear, front) = r.footprint();
        let h = r.center_of_mass.z;
        let t = &r.tracks[0];
        let margin = r
            .tracks
            .iter()
            .flat_map(|t| {
                let c: Vec<CircleSpec> = track_circles(t).copied().collect();
                [lo[0], hi[0]].map(|x| depth_inside_outline(&c, (x, lo[2])))
            })
            .fold(f64::INFINITY, f64::min);
        println!(
            "{}: {} kg, {:.2} x {:.2} x {:.2} m, footprint {:.2} ({rear}..{front}), gauge {:.2}, \
             CoM z {h}, hull clearance {:.3}, hull inside outline by {:.3}, {} m/s, {} N·m \
             (35° needs 1.5 x {:.1}), belt force {:.0} N, flippers {}, \
             tip sideways {:.1}°, backwards {:.1}°, forwards {:.1}°, l/B {:.2}",
            r.name,
            r.mass,
            overall_length(&r),
            2.0 * half_width,
            hi[2],
            front - rear,
            r.track_gauge(),
            lo[2],
            margin,
            t.motor.max_speed,
            t.motor.max_torque,
            climb_force(&r, 35.0) * t.sprocket.radius,
            t.motor.max_torque / t.sprocket.radius,
            r.flippers.len(),
            (r.track_gauge() / 2.0 / h).atan().to_degrees(),
            ((r.center_of_mass.x - rear) / h).atan().to_degrees(),
            ((front - r.center_of_mass.x) / h).atan().to_degrees(),
            (front - rear) / r.track_gauge(),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Wheeled robots

const MINI_WHEELS: &str = r#"
[robot]
name = "cart"
mass = 12.0
center_of_mass = [0.0, 0.0, 0.1]

[hull]
size = [0.4, 0.2, 0.1]
center = [0.0, 0.0, 0.12]

[drivetrain]
kind = "ackermann"
max_steer_deg = 30
steer_rate_deg = 90

[wheel_defaults]
radius = 0.06
width = 0.04
tyre_stiffness = 5e5
tread_stiffness = 4e5
suspension_travel = 0.02
suspension_stiffness = 8000
suspension_damping = 100
max_speed = 1.0
max_torque = 3.0
max_acceleration = 2.0
inertia = 0.001

[[wheel]]
name = "front_left"
x = 0.15
y = 0.13
z = 0.06
steered = true

[[wheel]]
name = "front_right"
x = 0.15
y = -0.13
z = 0.06
steered = true

[[wheel]]
name = "rear_left"
x = -0.15
y = 0.13
z = 0.06
driven = true

[[wheel]]
name = "rear_right"
x = -0.15
y = -0.13
z = 0.06
driven = true
"#;

/// `MINI_WHEELS` with the first `from` replaced by `to`.
fn wheels_edit(from: &str, to: &str) -> String {
    assert!(MINI_WHEELS.contains(from), "'{from}' not in MINI_WHEELS");
    MINI_WHEELS.replacen(from, to, 1)
}

#[test]
fn the_minimal_wheeled_robot_loads_with_its_defaults() {
    let r = mini(&wheels_edit("", "")).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.is_wheeled() && r.tracks.is_empty());
    assert_eq!(r.wheels.len(), 4);
    let w = &r.wheels[2];
    assert_eq!(
        (w.radius, w.width, w.driven, w.steered),
        (0.06, 0.04, true, false)
    );
    assert_eq!(w.tyre.rolling_resistance, 0.03);
    assert!((w.motor.belt_inertia - 0.001 / 0.0036).abs() < 1e-12);
    // An undriven wheel's motor has no torque.
    assert_eq!(r.wheels[0].motor.max_torque, 0.0);
    assert_eq!(r.drive_count(), 4);
    assert_eq!(r.drive_names()[3], "rear_right");
    assert!((r.track_gauge() - 0.26).abs() < 1e-12);
    assert_eq!(r.footprint(), (-0.15, 0.15));
}

/// Every wheel rule, with its line and field path (table-driven).
#[test]
fn wheeled_robot_rules() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        // (replace, with, the text where the error is located, field, message)
        (
            "kind = \"ackermann\"",
            "kind = \"tank\"",
            "kind = \"tank\"",
            "drivetrain.kind",
            "unknown drivetrain",
        ),
        (
            "max_steer_deg = 30",
            "max_steer_deg = 59",
            "max_steer_deg = 59",
            "drivetrain.max_steer_deg",
            "limit atan(l/w)",
        ),
        (
            "steer_rate_deg = 90",
            "steer_rate_deg = 90\ndifferential = \"slippy\"",
            "differential",
            "drivetrain.differential",
            "unknown differential",
        ),
        (
            "radius = 0.06\n",
            "",
            "[[wheel]]",
            "wheel[0].radius",
            "missing",
        ),
        (
            "radius = 0.06",
            "radius = 0.05",
            "z = 0.06",
            "wheel[0].z",
            "shift every z",
        ),
        (
            "name = \"front_right\"",
            "name = \"front_left\"",
            "name = \"front_left\"\nx = 0.15\ny = -0.13",
            "wheel[1].name",
            "defined twice",
        ),
        (
            "x = -0.15\ny = 0.13\nz = 0.06\ndriven = true",
            "x = -0.15\ny = 0.13\nz = 0.06\ndriven = true\nsteered = true",
            "[[wheel]]",
            "wheel",
            "exactly two steered wheels",
        ),
        (
            "x = -0.15\ny = 0.13",
            "x = 0.25\ny = 0.13",
            "x = 0.25",
            "wheel[2].x",
            "behind the steered front axle",
        ),
        (
            "x = -0.15\ny = -0.13",
            "x = 0.05\ny = -0.13",
            "x = 0.05",
            "wheel[3].x",
            "one rear axle",
        ),
        (
            "tyre_stiffness = 5e5",
            "tyre_stiffness = -1",
            "tyre_stiffness = -1",
            "wheel_defaults.tyre_stiffness",
            "",
        ),
    ];
    for &(from, to, needle, field, what) in cases {
        let text = wheels_edit(from, to);
        let at = text.find(needle).expect("needle in the text");
        let line = text[..at].matches('\n').count() + 1;
        expect_error(&text, line, field, what);
    }
}

#[test]
fn skid_robots_take_no_open_differential_and_no_tracks_with_wheels() {
    let skid = wheels_edit(
        "kind = \"ackermann\"\nmax_steer_deg = 30\nsteer_rate_deg = 90",
        "kind = \"skid\"\ndifferential = \"open\"",
    );
    let e = mini(&skid).unwrap_err();
    assert_eq!(e.field, "drivetrain.differential", "{e}");
    let both = format!(
        "{}\n[[track]]\nname = \"t\"\ny = 0\nsprocket = {{ x = -0.1, z = 0.02, radius = 0.02 }}\n\
         idler = {{ x = 0.1, z = 0.02, radius = 0.02 }}\n\
         motor = {{ max_speed = 0.5, max_torque = 1, max_acceleration = 1, belt_inertia = 0.2 }}\n\
         belt = {{ width = 0.2, stiffness = 1e5 }}\n",
        wheels_edit("", "")
    );
    let e = mini(&both).unwrap_err();
    assert!(e.message.contains("not both"), "{e}");
    let idle = wheels_edit("", "").replace("driven = true", "driven = false");
    let e = mini(&idle).unwrap_err();
    assert!(e.message.contains("no wheel is driven"), "{e}");
}
