//! Hinged doors against their closer's arithmetic and the latch's rules: a closer shuts a door
//! from 90° in its close time (the damper's law, inertia small beside it), a latched door
//! holds against a robot driving into it and an unlatched one swings open to its stop before
//! it, a gripper turns the lever handle (drawing the latch) and pulls the door open, bounded
//! by the grip, and repeat runs are bit-identical.

mod common;

use common::{robot, scene_text};
use treadsim::sim::{RobotId, SimConfig, Simulation, StateSnapshot};
use treadsim::vehicle::arm::{ArmCommand, ArmMotion, GripCommand, MAX_ARM_JOINTS};
use treadsim::vehicle::DriveCommand;

/// A floor, a wall at x = 1.6 with a 0.92 m doorway, and a 0.9 × 2.0 m door hung on the
/// doorway's −y jamb opening away from a robot coming along +x (as `scenes/dexterity.toml`'s
/// station "door", moved to y = 0).
fn door_scene(spawn: [f64; 2], latch: bool, open_deg: f64, extra: &str) -> String {
    format!(
        "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.5]\nposition = [0, 0, -0.5]\n\
         [[element]]\ntype = \"box\"\nsize = [0.1, 3, 2.2]\nposition = [1.6, -1.99, 0]\n\
         [[element]]\ntype = \"box\"\nsize = [0.1, 3, 2.2]\nposition = [1.6, 1.96, 0]\n\
         [[spawn]]\nname = \"s\"\nposition = [{}, {}, 0]\n\
         [[door]]\nname = \"lab\"\nhinge = [1.6, -0.45, 0]\ntoward = 90\nwidth = 0.9\n\
         height = 2.0\nswing = -100\nlatch = {latch}\ncloser = 18\nopen = {open_deg}\n\
         handle_height = 0.9\n{extra}",
        spawn[0], spawn[1]
    )
}

fn drive(v: f64) -> DriveCommand {
    DriveCommand {
        left: v,
        right: v,
        flipper: Some(1.2),
        steer: None,
    }
}

fn joints(deg: &[f64]) -> [f64; MAX_ARM_JOINTS] {
    let mut j = [0.0; MAX_ARM_JOINTS];
    for (k, d) in deg.iter().enumerate() {
        j[k] = d.to_radians();
    }
    j
}

#[test]
fn a_closer_shuts_the_door_from_90_degrees_in_its_close_time_and_the_latch_catches() {
    for close_time in [3.0, 8.0] {
        let text = door_scene(
            [-3.0, 0.0],
            true,
            90.0,
            &format!("close_time = {close_time}\n"),
        );
        let mut sim = Simulation::new(scene_text(&text), SimConfig::default()).expect("sim");
        let mut shut = None;
        let mut fastest = 0.0_f64;
        while sim.time() < 2.0 * close_time {
            sim.step();
            let door = sim.door_state(0).expect("door");
            fastest = fastest.max(-door.rate);
            if shut.is_none() && door.latched {
                shut = Some(sim.time());
            }
        }
        // The damper's law: closer·(1 + θ/90°) = c·ω shuts from 90° in exactly close_time;
        // the leaf's 10.7 kg·m² against c = 18·t/(π/2·ln 2) adds its time constant I/c
        // (0.26 s at 3 s, 0.1 s at 8 s). 10 % either side.
        let shut = shut.expect("the door shut and latched");
        assert!(
            (shut - close_time).abs() < 0.1 * close_time,
            "close time {close_time} s: shut in {shut:.2} s"
        );
        // Its fastest, at 90°: 2·closer / c rad/s.
        let damping = 18.0 * close_time / (std::f64::consts::FRAC_PI_2 * std::f64::consts::LN_2);
        let top = 2.0 * 18.0 / damping;
        assert!(
            fastest < 1.05 * top && fastest > 0.8 * top,
            "fastest {fastest:.3} rad/s, the damper's {top:.3}"
        );
        let door = sim.door_state(0).expect("door");
        assert!(door.angle.abs() < 0.5_f64.to_radians(), "{:?}", door);
    }
}

/// A robot driving at a door at 0.3 m/s, flippers up: how far the door opened at most, deg,
/// the robot's x at the end, m, and the events.
fn drive_at_the_door(latch: bool) -> (f64, f64, Simulation) {
    let text = door_scene([0.0, 0.0], latch, 0.0, "");
    let mut sim = Simulation::new(scene_text(&text), SimConfig::default()).expect("sim");
    let spawn = sim.scene().spawns[0].clone();
    let id = sim.add_robot(robot("scout"), &spawn).expect("robot");
    sim.set_command(id, drive(0.3));
    let mut widest = 0.0_f64;
    while sim.time() < 14.0 {
        sim.step();
        let door = sim.door_state(0).expect("door");
        widest = widest.max(door.angle.to_degrees());
        assert!(door.rate.abs() < 3.0, "the leaf spun up: {door:?}");
    }
    let x = sim.body_state(id).pose.translation.x;
    (widest, x, sim)
}

#[test]
fn a_latched_door_holds_against_a_robot_and_an_unlatched_one_swings_open_before_it() {
    let (widest, x, sim) = drive_at_the_door(true);
    assert!(widest < 0.5, "the latched door opened {widest:.2}°");
    assert!(x < 1.6, "the robot got through a latched door: x {x:.2}");
    assert!(sim.events().is_empty(), "{:?}", sim.events());
    // Unlatched, the robot pushes it open to its stop. Its tracks, slipping as they push,
    // lose their side grip (the friction circle): the leaf turns the robot with it, flush
    // against its nose, as real ones are turned by a door they push square on.
    let (widest, x, sim) = drive_at_the_door(false);
    assert!(widest > 95.0, "the robot pushed it only {widest:.1}° open");
    assert!(x > 1.9, "the robot did not get into the doorway: x {x:.2}");
    assert!(sim.events().is_empty(), "{:?}", sim.events());
}

/// scout_eod at the door's handle (turret 20.6°, fingers across the lever 35 mm in from its
/// spindle), after `plan` of (time s, drive, arm command): the simulation and the robot.
fn work_the_handle(plan: &[(f64, f64, ArmCommand)], until: f64) -> (Simulation, RobotId) {
    let text = door_scene([0.9, 0.15], true, 0.0, "");
    let mut sim = Simulation::new(scene_text(&text), SimConfig::default()).expect("sim");
    let spawn = sim.scene().spawns[0].clone();
    let id = sim.add_robot(robot("scout_eod"), &spawn).expect("robot");
    let mut next = 0;
    while sim.time() < until {
        if let Some((at, speed, arm)) = plan.get(next) {
            if sim.time() >= *at {
                sim.set_command(id, drive(*speed));
                if *arm != ArmCommand::HOLD {
                    sim.set_arm_command(id, *arm);
                }
                next += 1;
            }
        }
        sim.step();
    }
    (sim, id)
}

fn handle_plan(roll_deg_s: f64) -> Vec<(f64, f64, ArmCommand)> {
    let arm = |motion, grip| ArmCommand { motion, grip };
    let pose = ArmMotion::JointTargets(joints(&[20.6, -55.0, 0.0, 55.0, 90.0]));
    let mut roll = [0.0; MAX_ARM_JOINTS];
    roll[4] = roll_deg_s.to_radians();
    vec![
        (0.0, 0.0, arm(pose, GripCommand::Open)),
        (4.0, 0.1, ArmCommand::HOLD),
        (5.9, 0.0, ArmCommand::HOLD),
        (6.9, 0.0, arm(ArmMotion::Hold, GripCommand::Close(60.0))),
        (
            8.9,
            0.0,
            arm(ArmMotion::JointRates(roll), GripCommand::Keep),
        ),
        (
            10.9,
            0.0,
            arm(
                ArmMotion::ToolVelocity {
                    velocity: [0.05, 0.0, 0.0],
                    frame: treadsim::vehicle::arm::ToolFrame::Body,
                },
                GripCommand::Keep,
            ),
        ),
    ]
}

#[test]
fn the_gripper_turns_the_lever_draws_the_latch_and_pulls_the_door_open() {
    // Rolled toward the lever's down stop: the handle turns, the latch is drawn, and the
    // held handle pulls the door open with the tool.
    let (sim, id) = work_the_handle(&handle_plan(30.0), 12.4);
    let door = sim.door_state(0).expect("door");
    assert!(door.held && !door.latched, "{door:?}");
    assert!(
        door.handle > 0.8,
        "handle at {:.2} of its travel",
        door.handle
    );
    assert!(door.angle > 1.0_f64.to_radians(), "{door:?}");
    let arm = sim.arm_state(id).expect("arm");
    assert!(arm.turning.is_some(), "{arm:?}");
    // The pull is bounded by 2·μ·F: nothing near the joints' limits beyond the arm's own.
    assert!(sim.events().is_empty(), "{:?}", sim.events());
    // Rolled the other way the lever stands at its rest stop: the latch holds.
    let (sim, _) = work_the_handle(&handle_plan(-30.0), 12.4);
    let door = sim.door_state(0).expect("door");
    assert!(door.latched, "{door:?}");
    assert!(door.angle.abs() < 0.5_f64.to_radians(), "{door:?}");
}

#[test]
fn a_door_worked_by_an_arm_repeats_bit_for_bit() {
    let capture = || {
        let (sim, _) = work_the_handle(&handle_plan(30.0), 11.5);
        let mut out = StateSnapshot::default();
        sim.capture_objects(&mut out);
        out
    };
    let (a, b) = (capture(), capture());
    assert!(
        a.names.iter().any(|n| n == "door.lab.handle"),
        "{:?}",
        a.names
    );
    assert_eq!(a, b);
}
