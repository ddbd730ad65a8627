//! The hull box and the terrain: rapier pairs them only while the terrain comes within its
//! contact reach of the box (`sim/clearance.rs`), and a hull that does meet the terrain rests
//! on it.

mod common;
use common::*;

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use treadsim::tools::bench::StairDriver;
use treadsim::vehicle::DriveCommand;

const FLOOR: &str = "[[element]]\ntype = \"box\"\nsize = [8, 8, 0.2]\nposition = [0, 0, -0.2]\n\
    [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n";

/// The scout's hull box rides 5 cm above the ground (scout.toml), farther than rapier's
/// 2 cm contact reach: on its tracks it is not paired with the floor. Put on its back, the hull
/// is what meets the floor: paired, touching, and resting with the box's top (body z 0.20 m)
/// on the floor within rapier's allowed penetration (1 mm) and 1 mm more.
#[test]
fn a_hull_clear_of_the_floor_is_left_out_and_one_on_its_back_rests_on_it() {
    let (mut sim, id) = sim_with(scene_text(FLOOR), robot("scout"), None);
    sim.run_for(1.0);
    assert!(!sim.hull_meets_terrain(id), "on its tracks, 5 cm clear");
    assert!(!sim.hull_touches_scene(id));
    let over = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.21),
        UnitQuaternion::from_euler_angles(std::f64::consts::PI, 0.0, 0.0),
    );
    sim.teleport(id, &over);
    sim.run_for(1.0);
    assert!(sim.hull_meets_terrain(id), "on its back");
    assert!(sim.hull_touches_scene(id));
    let z = sim.body_state(id).pose.translation.z;
    assert!(
        (z - 0.20).abs() < 0.002,
        "body origin at {z} m, hull top at 0.20 m"
    );
}

/// Climbing the public stairs with its flippers (the bench's driver), the scout's tracks carry
/// it over the nosings with the hull clear: the hull is paired with the stairs in under 5 % of
/// the steps (54 of 15 000 when measured), and never touches them.
#[test]
fn a_stair_climb_mostly_leaves_the_hull_out() {
    let scene = scene_file("public_stairs");
    let (mut sim, id) = sim_with(scene, robot("scout"), None);
    let driver = StairDriver::default();
    let (mut on_flight, mut paired, mut touched) = (false, 0, 0);
    let steps = 15_000;
    for _ in 0..steps {
        let rotation = sim.body_state(id).pose.rotation;
        let command: DriveCommand = driver.command_at(&rotation, &mut on_flight);
        sim.set_command(id, command);
        sim.step();
        paired += usize::from(sim.hull_meets_terrain(id));
        touched += usize::from(sim.hull_touches_scene(id));
    }
    let z = sim.body_state(id).pose.translation.z;
    assert!(z > 1.0, "climbed to {z} m");
    assert!(paired * 20 < steps, "paired in {paired} of {steps} steps");
    assert_eq!(touched, 0);
}

/// Alone on a floor, nothing can reach the scout's hull box, so it is switched off; a mover
/// driven at it switches it on before they meet (`sim/proximity.rs`), hits the hull and
/// shoves the robot back instead of passing through it. The mover is a 0.8 m cube, its centre
/// 0.4 m from its face; the hull's front is 0.26 m ahead of the body origin (scout.toml), so
/// the two centres stay at least 0.66 m apart, less rapier's allowed penetration.
#[test]
fn a_mover_driven_at_a_lone_robot_switches_its_hull_on_and_shoves_it() {
    let (mut sim, id) = sim_with(scene_text(FLOOR), robot("scout"), None);
    sim.run_for(1.0);
    assert!(!sim.hull_switched_on(id), "nothing near");
    let start_x = sim.body_state(id).pose.translation.x;
    let at = |x: f64| Isometry3::translation(x, 0.0, 0.4);
    let mover = sim.add_mover([0.8, 0.8, 0.8], &at(2.5));
    let (mut x, mut first_on, mut first_touch) = (2.5_f64, None, None);
    for step in 0..2500 {
        // 0.5 m/s toward the robot, from 2.5 m to 0.3 m (4.4 s), then held there.
        x = (x - 0.5 * 0.002).max(0.3);
        sim.move_mover(mover, &at(x));
        sim.step();
        if sim.hull_switched_on(id) {
            first_on.get_or_insert(step);
        }
        if sim.hull_touches_mover(id) {
            first_touch.get_or_insert(step);
        }
        let gap = sim.mover_pose(mover).expect("mover").translation.x
            - sim.body_state(id).pose.translation.x;
        assert!(gap > 0.66 - 0.005, "step {step}: centres {gap} m apart");
    }
    let (on, touch) = (first_on.expect("switched on"), first_touch.expect("met"));
    assert!(on < touch, "switched on at step {on}, met at {touch}");
    // Left alone the mover would stop with its centre 0.3 m ahead of the start, 0.3 − start_x
    // from the origin, closer than the 0.66 m the hull allows: the robot has been shoved back
    // by the difference.
    let pushed = start_x - sim.body_state(id).pose.translation.x;
    let needed = 0.66 - (0.3 - start_x) - 0.005;
    assert!(
        needed > 0.1,
        "the mover reaches the hull (start x {start_x} m)"
    );
    assert!(pushed > needed, "shoved back {pushed} m, {needed} m needed");
}

/// Two scouts driven head-on into each other meet hull to hull: neither hull is switched off
/// while the other may reach it, so their origins never come closer than the two hull halves
/// in front of them (2 × 0.26 m, scout.toml), less rapier's allowed penetration.
#[test]
fn two_robots_driven_head_on_meet_hull_to_hull() {
    let floor = "[[element]]\ntype = \"box\"\nsize = [8, 8, 0.2]\nposition = [0, 0, -0.2]\n\
        [[spawn]]\nname = \"west\"\nposition = [-0.8, 0, 0]\n\
        [[spawn]]\nname = \"east\"\nposition = [0.8, 0, 0]\nyaw_deg = 180\n";
    let scene = scene_text(floor);
    let (west, east) = (scene.spawns[0].clone(), scene.spawns[1].clone());
    let mut sim =
        treadsim::sim::Simulation::new(scene, treadsim::sim::SimConfig::default()).expect("sim");
    let a = sim.add_robot(robot("scout"), &west).expect("west");
    let b = sim.add_robot(robot("scout"), &east).expect("east");
    let forward = DriveCommand::belts(0.3, 0.3);
    let mut closest = f64::INFINITY;
    for _ in 0..3000 {
        sim.set_command(a, forward);
        sim.set_command(b, forward);
        sim.step();
        let apart = (sim.body_state(a).pose.translation.vector
            - sim.body_state(b).pose.translation.vector)
            .norm();
        closest = closest.min(apart);
    }
    assert!(closest > 0.52 - 0.005, "origins {closest} m apart");
    assert!(closest < 0.6, "they met: closest {closest} m");
}

/// A mover whose heading wraps through ±π (a traffic agent turning past due west) turns the
/// short way: its box's angular velocity is its real turn rate, not the nearly 2π per step
/// rapier would take from the quaternion's other sign (the street soak's blow-ups: a car
/// turning beside the robot flung it at 278 m/s).
#[test]
fn a_mover_turning_through_west_turns_the_short_way() {
    let (mut sim, _id) = sim_with(scene_text(FLOOR), robot("scout"), None);
    let at = |yaw: f64| {
        Isometry3::from_parts(
            nalgebra::Translation3::new(3.0, 3.0, 0.5),
            nalgebra::UnitQuaternion::from_euler_angles(0.0, 0.0, yaw),
        )
    };
    let rate = 1.5; // rad/s, a car turning
    let mut yaw = std::f64::consts::PI - 0.02;
    let mover = sim.add_mover([3.8, 1.7, 1.0], &at(yaw));
    let mut fastest: f64 = 0.0;
    for _ in 0..40 {
        yaw += rate * 0.002;
        let wrapped =
            (yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        sim.move_mover(mover, &at(wrapped));
        sim.step();
        let before = sim.mover_pose(mover).expect("mover").rotation;
        fastest = fastest.max(sim.mover_angular_speed(mover).expect("mover"));
        assert!((before.angle_to(&at(wrapped).rotation)) < 1e-5);
    }
    assert!(
        fastest < rate * 1.01,
        "turned at {fastest} rad/s, driven at {rate}"
    );
}
