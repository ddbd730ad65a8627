//! The hull box and the terrain: rapier pairs them only while the terrain comes within its
//! contact reach of the box (`sim/clearance.rs`), and a hull that does meet the terrain rests
//! on it.

mod common;
use common::*;

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use treadsim::sim::bench::StairDriver;
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
        let pitch = -sim.body_state(id).pose.rotation.euler_angles().1;
        let command: DriveCommand = driver.command(pitch, &mut on_flight);
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
