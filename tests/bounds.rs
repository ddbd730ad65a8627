//! Scene edges and falls: leaving the scene's bounds or falling is an event, emitted once,
//! and the robot stops until reset; blow-up recovery never restores a falling state and
//! escalates repeated blow-ups to one reset to the spawn, never a loop.

mod common;

use common::{robot, scene_file, scene_text, sim_with, PRESETS};
use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use treadsim::sim::{RobotStatus, SimConfig, SimEvent, Simulation};
use treadsim::vehicle::DriveCommand;

const AHEAD: DriveCommand = DriveCommand::belts(2.0, 2.0);

fn count(sim: &Simulation, f: impl Fn(&SimEvent) -> bool) -> usize {
    sim.events().iter().filter(|e| f(e)).count()
}

/// Driving off the edge of the flat scene's 30 × 30 m floor: exactly one out-of-bounds event,
/// when the centre of mass crosses x = 15 m (within 0.2 m), no blow-up and no fall event;
/// the robot is frozen where it left and ignores commands; `reset_robot` brings it back
/// driving.
#[test]
fn driving_off_the_flat_scene_edge_stops_the_robot_once() {
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    sim.teleport(id, &Isometry3::translation(13.5, 0.0, 0.005));
    sim.set_command(id, AHEAD);
    sim.run_for(8.0);
    let oob: Vec<&SimEvent> = sim
        .events()
        .iter()
        .filter(|e| matches!(e, SimEvent::OutOfBounds { .. }))
        .collect();
    assert_eq!(oob.len(), 1, "{:?}", sim.events());
    assert_eq!(
        sim.events().len(),
        1,
        "only the one event: {:?}",
        sim.events()
    );
    let SimEvent::OutOfBounds { position, .. } = oob[0] else {
        unreachable!()
    };
    assert!((position.x - 15.0).abs() < 0.2, "left at {position}");
    assert!(matches!(
        sim.robot_status(id),
        RobotStatus::OutOfBounds { .. }
    ));
    // Stopped and frozen: commands are ignored, nothing moves.
    let before = sim.body_state(id);
    sim.set_command(id, AHEAD);
    assert_eq!(sim.robot(id).command(), DriveCommand::STOP);
    sim.run_for(2.0);
    let after = sim.body_state(id);
    assert_eq!(before.pose, after.pose);
    assert!(after.linvel.norm() == 0.0 && after.angvel.norm() == 0.0);
    assert_eq!(sim.events().len(), 1, "no repeat: {:?}", sim.events());
    // The instructor's reset.
    let spawn = sim.spawn_of(id).clone();
    sim.reset_robot(id, &spawn);
    assert_eq!(sim.robot_status(id), RobotStatus::Active);
    sim.set_command(id, AHEAD);
    sim.run_for(1.0);
    let b = sim.body_state(id);
    assert!(b.linvel.x > 0.5, "drives again after reset: {:?}", b.linvel);
    assert!(b.pose.translation.vector.xy().norm() < 3.0);
}

/// A 1.2 m high, 4 × 4 m platform on a large floor: a robot driven off its edge drops more
/// than `fall_height` while falling: one Fell event (not below the scene), no
/// blow-up, no out-of-bounds; it lands on the floor and stays stopped (belts at rest within
/// 1 s of landing, hull below 0.5 m/s after 3 s).
#[test]
fn driving_off_a_landing_is_a_fall_and_stops_the_robot() {
    let scene = scene_text(
        "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.3]\nposition = [0, 0, -0.3]\n\
         [[element]]\nname = \"platform\"\ntype = \"landing\"\nlength = 4\nwidth = 4\nheight = 1.2\n\
         [[spawn]]\nname = \"top\"\nposition = [0, 0, 1.2]\n",
    );
    for name in PRESETS {
        let (mut sim, id) = sim_with(scene.clone(), robot(name), None);
        sim.run_for(0.5);
        sim.set_command(id, AHEAD);
        sim.run_for(6.0);
        let falls: Vec<&SimEvent> = sim
            .events()
            .iter()
            .filter(|e| matches!(e, SimEvent::Fell { .. }))
            .collect();
        assert_eq!(falls.len(), 1, "{name}: {:?}", sim.events());
        assert_eq!(sim.events().len(), 1, "{name}: {:?}", sim.events());
        let SimEvent::Fell {
            drop, below_scene, ..
        } = falls[0]
        else {
            unreachable!()
        };
        assert!(
            !below_scene && *drop > 0.5 && *drop < 1.2,
            "{name}: drop {drop}"
        );
        assert!(sim.robot_status(id).is_halted());
        sim.run_for(3.0);
        let b = sim.body_state(id);
        assert!(b.com.z < 0.6, "{name}: on the floor: {}", b.com);
        assert!(b.linvel.norm() < 0.5, "{name}: at rest: {:?}", b.linvel);
        let belts = &sim
            .robot(id)
            .as_tracked()
            .expect("tracked")
            .drive_state()
            .belt_speed;
        assert!(belts.iter().all(|v| v.abs() < 0.05), "{name}: {belts:?}");
        assert_eq!(sim.events().len(), 1, "{name}: {:?}", sim.events());
    }
}

/// Driving off the public stairs' top landing is not possible sideways (walls); with the
/// walls' help the robot stays in the scene. Off the ramps scene's 1 m back face (the 10°
/// ramp, driven over its top): a fall, no blow-up.
#[test]
fn driving_off_a_ramp_top_is_a_fall() {
    let scene = scene_file("ramps");
    let (mut sim, id) = sim_with(scene, robot("scout"), Some("ramp10"));
    sim.set_command(id, AHEAD);
    sim.run_for(12.0);
    assert_eq!(
        count(&sim, |e| matches!(e, SimEvent::Fell { .. })),
        1,
        "{:?}",
        sim.events()
    );
    assert_eq!(count(&sim, SimEvent::is_blow_up), 0, "{:?}", sim.events());
}

/// Regression for the teleport loop: with the fall checks switched off and bounds far
/// beyond a 6 × 6 m floor, a robot driven off the edge falls until it blows up. Recovery must
/// restore a state from before it left the floor (never one taken while falling), with the
/// command stopped, so it stays there: at most one blow-up in 20 s, not one every 0.5 s.
/// (The old recovery restored the falling snapshot: 30+ blow-ups.)
#[test]
fn recovery_never_restores_a_falling_state() {
    let scene = scene_text(
        "[[element]]\ntype = \"box\"\nsize = [6, 6, 0.3]\nposition = [0, 0, -0.3]\n\
         [bounds]\nmin = [-1000, -1000]\nmax = [1000, 1000]\n\
         [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n",
    );
    let config = SimConfig {
        fall_below: 1e6,
        fall_height: 1e6,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(scene, config).expect("sim");
    let id = sim
        .add_robot(robot("scout"), &common::scene_spawn(&sim, 0))
        .expect("robot");
    sim.set_command(id, AHEAD);
    let mut left_floor = f64::NAN;
    for _ in 0..10_000 {
        sim.step();
        if left_floor.is_nan() && sim.body_state(id).com.x > 3.0 {
            left_floor = sim.time();
        }
    }
    assert!(left_floor.is_finite(), "it drove off the floor");
    let blow_ups: Vec<&SimEvent> = sim.events().iter().filter(|e| e.is_blow_up()).collect();
    assert!(
        !blow_ups.is_empty() && blow_ups.len() <= 1,
        "{:?}",
        sim.events()
    );
    for e in &blow_ups {
        if let SimEvent::BlowUp { restored_to, .. } = e {
            assert!(
                *restored_to < left_floor,
                "restored {restored_to} s, left {left_floor} s"
            );
        }
    }
    let b = sim.body_state(id);
    assert!(
        b.com.z > -0.1 && b.com.z < 0.5,
        "back on the floor: {}",
        b.com
    );
}

/// A robot made to blow up again and again (a NaN pose forced in every 0.4 s): two recovered
/// blow-ups, then the third within the window resets it to its spawn — one Reset event, not
/// a BlowUp — and a robot that keeps blowing up after that is disabled (one event), never a
/// loop of restores.
#[test]
fn repeated_blow_ups_escalate_to_one_spawn_reset() {
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    sim.set_command(id, AHEAD);
    sim.run_for(3.0);
    let nan = Isometry3::from_parts(
        Translation3::new(f64::NAN, 0.0, 0.0),
        UnitQuaternion::identity(),
    );
    for _ in 0..3 {
        sim.teleport(id, &nan);
        sim.run_for(0.4);
    }
    let kinds: Vec<&str> = sim
        .events()
        .iter()
        .map(|e| match e {
            SimEvent::BlowUp { .. } => "blow-up",
            SimEvent::Reset { .. } => "reset",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["blow-up", "blow-up", "reset"], "{:?}", sim.events());
    let b = sim.body_state(id);
    assert!(
        b.pose.translation.vector.xy().norm() < 0.01,
        "at spawn: {}",
        b.com
    );
    assert_eq!(sim.robot_status(id), RobotStatus::Active);
    // Keeps blowing up right after the reset: disabled, once, and then nothing more.
    for _ in 0..6 {
        sim.teleport(id, &nan);
        sim.run_for(0.4);
    }
    assert_eq!(
        count(&sim, |e| matches!(e, SimEvent::Disabled { .. })),
        1,
        "{:?}",
        sim.events()
    );
    assert!(matches!(sim.robot_status(id), RobotStatus::Disabled { .. }));
    let n = sim.events().len();
    sim.run_for(2.0);
    assert_eq!(sim.events().len(), n);
    let spawn = sim.spawn_of(id).clone();
    sim.reset_robot(id, &spawn);
    sim.set_command(id, AHEAD);
    sim.run_for(1.0);
    assert!(sim.body_state(id).linvel.x > 0.5);
}

/// Blow-ups spread out in time (10 s apart) are each recovered from a snapshot, never
/// escalated.
#[test]
fn blow_ups_spread_out_do_not_escalate() {
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    let nan = Isometry3::translation(f64::NAN, 0.0, 0.0);
    for _ in 0..3 {
        sim.run_for(5.5);
        sim.teleport(id, &nan);
        sim.step();
    }
    assert_eq!(
        count(&sim, |e| matches!(e, SimEvent::BlowUp { .. })),
        3,
        "{:?}",
        sim.events()
    );
}
