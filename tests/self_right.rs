//! Self-righting with flippers: a robot on its back rights itself when its flipper tips can
//! press on the ground behind its centre of mass (selfright20's header); the scout cannot.
//! Measured window and the exercise rules for a trial that starts on the robot's back.

mod common;
use common::{robot, scene_file, sim_with};

use treadsim::sim::{RobotId, SimConfig, Simulation};
use treadsim::vehicle::stability::Tilt;
use treadsim::vehicle::DriveCommand;

/// Holds the flippers at `angle_deg` (from 0.5 s) for a robot spawned on its back on the
/// self-righting pad; returns the time it first stood on its tracks (not upside down, pitch
/// and roll within 10°) for good (until the end of `secs`), and the largest nose-up angle.
fn hold_flippers(name: &str, angle_deg: f64, secs: f64) -> (Option<f64>, f64) {
    hold_flippers_with(SimConfig::default(), name, angle_deg, secs)
}

/// [`hold_flippers`] with the simulation settings `config`.
fn hold_flippers_with(
    config: SimConfig,
    name: &str,
    angle_deg: f64,
    secs: f64,
) -> (Option<f64>, f64) {
    let scene = scene_file("self_right");
    let spawn = scene
        .spawns
        .iter()
        .find(|s| s.name == "on_its_back")
        .expect("spawn")
        .clone();
    let mut sim = Simulation::new(scene, config).expect("sim");
    let id = sim.add_robot(robot(name), &spawn).expect("robot");
    let mut upright_since: Option<f64> = None;
    let mut max_lift = 0.0_f64;
    while sim.time() < secs {
        let target = if sim.time() < 0.5 { 0.0 } else { angle_deg };
        command(&mut sim, id, target);
        sim.step();
        let tilt = Tilt::of(&sim.body_state(id).pose);
        let level = !tilt.upside_down
            && tilt.nose_up.abs() < 10f64.to_radians()
            && tilt.left_up.abs() < 10f64.to_radians();
        upright_since = match (level, upright_since) {
            (true, None) => Some(sim.time()),
            (true, since) => since,
            (false, _) => None,
        };
        if tilt.upside_down {
            // On its back nose_up is measured from the inverted pose: 180° − |nose_up| is
            // how far the front is lifted off the ground.
            max_lift = max_lift.max(180.0 - tilt.nose_up.to_degrees().abs());
        }
    }
    (upright_since, max_lift)
}

fn command(sim: &mut Simulation, id: RobotId, flipper_deg: f64) {
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(flipper_deg.to_radians()),
            steer: None,
        },
    );
}

/// Spawned on its back, the robot lies on its hull: the hull top 5 mm above the floor at the
/// spawn, then at rest on it without a bounce or a drift.
#[test]
fn a_spawn_on_its_back_rests_on_the_hull() {
    let (mut sim, id) = sim_with(
        scene_file("self_right"),
        robot("selfright20"),
        Some("on_its_back"),
    );
    let start = sim.body_state(id).pose;
    assert!(Tilt::of(&start).upside_down);
    // Hull top 0.20 m above the body origin: the origin 0.205 m above the floor.
    assert!(
        (start.translation.z - 0.205).abs() < 1e-6,
        "{}",
        start.translation.z
    );
    sim.run_for(2.0);
    let rest = sim.body_state(id);
    assert!(
        (rest.pose.translation.z - 0.20).abs() < 0.003,
        "origin {} m above the floor",
        rest.pose.translation.z
    );
    let drift = (rest.pose.translation.vector - start.translation.vector)
        .xy()
        .norm();
    assert!(
        drift < 0.005 && rest.linvel.norm() < 0.01,
        "drift {drift} m"
    );
    assert!(sim.events().is_empty(), "{:?}", sim.events());
}

/// selfright20 rights itself with the flippers held at 135–140° within 3 s of reaching them
/// (measured 1.7–2.6 s over angles 0.002° apart: the swing over the nose and settling on the
/// tracks); 120° only lifts the front ~20° (the tips are still ahead of the centre of mass);
/// 160° and 180° take the tips too far back and the robot stays on its back: the window the
/// exercise teaches. The window's lower edge, 130–132°, is a balance point: there, angles
/// 0.002° apart right the robot after 1.8–3.2 s or leave it balanced past 8 s (nine angles
/// each, before and after the track model's speed-ups alike), so it is not asserted.
#[test]
fn selfright20_rights_itself_in_the_flipper_window_only() {
    for base in [135.0, 140.0] {
        // A spread of angles, not one: the outcome of one run near a balance point is
        // decided by rounding.
        for k in -2i32..=2 {
            let angle = base + k as f64 * 0.002;
            let (upright, _) = hold_flippers("selfright20", angle, 8.0);
            let at = upright.unwrap_or_else(|| panic!("{angle}°: still not on its tracks"));
            // Commanded at 0.5 s, reached at 90°/s.
            let reached = 0.5 + angle / 90.0;
            assert!(
                at < reached + 3.0,
                "{angle}°: on its tracks only at {at:.2} s"
            );
        }
    }
    let (upright, lift) = hold_flippers("selfright20", 120.0, 8.0);
    assert!(upright.is_none(), "120° righted it");
    assert!(
        (15.0..30.0).contains(&lift),
        "120° lifts the front {lift:.1}°"
    );
    for angle in [160.0, 180.0] {
        let (upright, lift) = hold_flippers("selfright20", angle, 8.0);
        assert!(upright.is_none(), "{angle}° righted it");
        assert!(lift > 15.0, "{angle}°: the front never lifted ({lift:.1}°)");
    }
}

/// Regression (issue 35): with implicit contacts the flippers' motors felt the contact forces
/// at the predicted pose (a step ahead of the motion), not those the hull was handed, and
/// righting slowed with the step: at 135° 4.1 s at 2 ms and 5.8 s at 5 ms against 3.7 s
/// explicitly (1, 2 and 3 ms agree within 0.1 s). With the end-of-step loads the implicit
/// step at 5 ms rights it within 0.3 s of the explicit one at 2 ms (measured 3.71 and 3.86 s
/// at 135° and 140°; at 10 ms 4.17 s at 135°, still slower).
#[test]
fn implicit_contacts_right_it_as_soon_as_explicit_ones() {
    for angle in [135.0, 140.0] {
        let (reference, _) = hold_flippers("selfright20", angle, 8.0);
        let reference = reference.expect("righted explicitly");
        let config = SimConfig {
            dt: 0.005,
            implicit_contacts: true,
            ..SimConfig::default()
        };
        let (at, _) = hold_flippers_with(config, "selfright20", angle, 8.0);
        let at = at.unwrap_or_else(|| panic!("{angle}° at 5 ms: not righted"));
        assert!(
            (at - reference).abs() < 0.3,
            "{angle}° at 5 ms: righted at {at:.2} s, explicitly at {reference:.2} s"
        );
    }
}

/// The scout's 0.23 m flippers cannot reach behind its centre of mass (0.20 m behind the
/// axis) below the hull top: at no flipper angle does it right itself. With the tips straight
/// down they reach 0.085 + 0.23 − 0.20 = 0.115 m past the hull top, and the body pivots on the
/// hull's rear edge 0.30 + 0.26 = 0.56 m behind the axis: the front lifts at most
/// asin(0.115/0.56) = 11.9° (measured 11.5–11.9°).
#[test]
fn the_scout_cannot_right_itself() {
    for angle in [90.0, 120.0, 135.0, 150.0, 180.0] {
        let (upright, lift) = hold_flippers("scout", angle, 6.0);
        assert!(upright.is_none(), "scout righted at {angle}°");
        assert!(lift < 11.9 + 0.3, "{angle}°: lifted {lift:.1}°");
    }
}

/// The scoring rules of a trial that starts on the robot's back: lying there is neither a
/// roll-over fault nor a hull collision; once righted (the `Righted` event) a roll-over is a
/// fault like anywhere — the repetition is void and the robot is back on its back, to be
/// righted again.
#[test]
fn a_trial_on_its_back_arms_tilt_faults_once_righted() {
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};
    use std::path::Path;
    use treadsim::exercise::{Exercise, ExerciseEvent, FaultKind, Trial};

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/exercises/self_right.toml");
    let exercise = Exercise::load(&path).expect("exercise");
    let mut sim = Simulation::new(exercise.scene.clone(), SimConfig::default()).expect("sim");
    let id = sim
        .add_robot(exercise.robot.clone(), &exercise.spawn)
        .expect("robot");
    let mut trial = Trial::new(&exercise, &mut sim, id);
    assert!(!trial.is_on_tracks());
    // 3 s on its back, flippers still: nothing counts.
    while sim.time() < 3.0 {
        command(&mut sim, id, 0.0);
        sim.step();
        trial.update(&mut sim, id);
    }
    assert_eq!((trial.faults(), trial.penalty_points()), (0, 0.0));
    assert!(trial.events().is_empty(), "{:?}", trial.events());
    // Right it: flippers to 135°.
    while sim.time() < 9.0 && !trial.is_on_tracks() {
        command(&mut sim, id, 135.0);
        sim.step();
        trial.update(&mut sim, id);
    }
    assert!(trial.is_on_tracks(), "not righted by 9 s");
    assert!(matches!(
        trial.events(),
        [ExerciseEvent::Righted { repetition: 1, .. }]
    ));
    assert_eq!((trial.faults(), trial.penalty_points()), (0, 0.0));
    // Rolled over again (put on its back by hand): a roll-over fault, back to the start.
    let pose = sim.body_state(id).pose;
    let over = Isometry3::from_parts(
        Translation3::new(pose.translation.x, pose.translation.y, 0.21),
        UnitQuaternion::from_euler_angles(std::f64::consts::PI, 0.0, 0.0),
    );
    sim.teleport(id, &over);
    sim.step();
    trial.update(&mut sim, id);
    assert!(
        trial.events().iter().any(|e| matches!(
            e,
            ExerciseEvent::Fault {
                kind: FaultKind::RollOver,
                repetition: 1,
                ..
            }
        )),
        "{:?}",
        trial.events()
    );
    assert_eq!(trial.faults(), 1);
    assert!(!trial.is_on_tracks(), "back at the start on its back");
    let start = sim.body_state(id).pose.translation.vector;
    assert!((start - exercise.spawn.position.coords).xy().norm() < 1e-6);
}
