//! Scenario tests of the track model driving a rapier hull: scenes are built, robots driven
//! headless, and the physics checked against closed forms and DESIGN.md's reference list.
//! Each test states its tolerance.

use std::path::Path;

use nalgebra::{Isometry3, Vector3};
use treadsim::config::SourceFile;
use treadsim::sim::{DriveScript, RobotId, Simulation, TelemetryWriter};
use treadsim::track::area::circular_segment_area;
use treadsim::vehicle::DriveCommand;

mod common;
use common::*;

/// Rest on flat ground: Σ normal forces = m·g within 0.5 %, and each road wheel's force equals
/// the paper's law κ_plane·S(δ) for its geometric sinkage δ (from the hull pose) within 1 %.
#[test]
fn rest_on_flat_ground_carries_the_weight_and_sinks_by_the_force_law() {
    for name in ["scout", "tracker55", "heavy250"] {
        let spec = robot(name);
        let (mut sim, id) = sim_with(scene_file("flat"), spec.clone(), None);
        sim.run_for(3.0);
        let weight = spec.mass * G;
        let n = total_normal(&sim, id);
        assert!(
            (n - weight).abs() < 0.005 * weight,
            "{name}: Σ N = {n:.2} N vs m·g = {weight:.2} N"
        );
        // Wheel contacts: check F = κ·S(δ) with δ from the pose.
        let body = sim.body_state(id);
        let model = sim.robot(id);
        let mut checked = 0;
        for c in model.contacts() {
            let (outline, y) = model.plane_outline(c.plane);
            let Some(circle) = outline.circles().get(c.element) else {
                continue; // a run
            };
            let centre = body.pose * nalgebra::Point3::new(circle.center.x, y, circle.center.y);
            let delta = circle.radius - centre.z;
            let track = &spec.tracks[c.track];
            let kappa = track.belt.stiffness / track.belt.planes as f64;
            let expect = kappa * circular_segment_area(circle.radius, delta);
            assert!(
                (c.normal_force - expect).abs() < 0.01 * expect,
                "{name}: wheel {} plane {}: {} N vs κS(δ={delta:.6}) = {expect} N",
                c.element,
                c.plane,
                c.normal_force
            );
            checked += 1;
        }
        assert!(checked >= 4, "{name}: only {checked} wheel contacts");
        assert!(sim.events().is_empty());
    }
}

/// Drop from 0.2 m: mechanical energy (kinetic, gravitational and the contacts' elastic energy)
/// never rises by more than 1 % of m·g·0.2 in a step — the explicit integration of the stiff
/// contact through an impact moves energy by up to ~0.5 %, damping removes far more — it ends
/// below the start less the drop's energy, and the robot is at rest within 2 s
/// (|v| < 5 mm/s, |ω| < 0.02 rad/s).
#[test]
fn drop_from_20_cm_settles_within_2_s_and_never_gains_energy() {
    for name in ["scout", "tracker55"] {
        let spec = robot(name);
        let m = spec.mass;
        let (mut sim, id) = sim_with(scene_file("flat"), spec, None);
        sim.teleport(id, &Isometry3::translation(0.0, 0.0, 0.2));
        sim.step();
        let e_start = sim.mechanical_energy(id);
        let mut e_prev = e_start;
        let slack = 1e-2 * m * G * 0.2;
        for _ in 0..1000 {
            sim.step();
            let e = sim.mechanical_energy(id);
            assert!(
                e <= e_prev + slack,
                "{name}: energy grew from {e_prev} to {e} J at t = {}",
                sim.time()
            );
            e_prev = e;
        }
        let b = sim.body_state(id);
        assert!(
            b.linvel.norm() < 0.005 && b.angvel.norm() < 0.02,
            "{name}: still moving at 2 s: {b:?}"
        );
        assert!(sim.events().is_empty());
    }
}

/// Straight drive on μ = 0.8 at equal belt speeds: ground speed within 3 % of belt speed,
/// heading drift under 1° per 10 m.
#[test]
fn straight_drive_matches_belt_speed_and_holds_heading() {
    for (name, v) in [("scout", 0.8), ("tracker55", 1.2)] {
        let (mut sim, id) = sim_with(scene_file("flat"), robot(name), None);
        sim.set_command(
            id,
            DriveCommand {
                left: v,
                right: v,
                flipper: None,
            },
        );
        sim.run_for(2.0);
        let p0 = sim.body_state(id).pose;
        let t0 = sim.time();
        sim.run_for(10.0 / v);
        let p1 = sim.body_state(id).pose;
        let dist = (p1.translation.vector - p0.translation.vector).norm();
        let speed = dist / (sim.time() - t0);
        assert!(
            (speed - v).abs() < 0.03 * v,
            "{name}: {speed} m/s vs belt {v} m/s"
        );
        let drift = (p1.rotation * p0.rotation.inverse()).angle().to_degrees();
        assert!(
            drift < 1.0 * dist / 10.0,
            "{name}: heading drift {drift}° over {dist} m"
        );
    }
}

/// Pivot turn with opposite belt speeds: the robot turns in place (centre within 5 cm) and its
/// yaw rate is below the no-slip value 2v/B (skid steering must slip), but above a quarter of it.
#[test]
fn pivot_turn_turns_in_place_slower_than_no_slip() {
    let spec = robot("scout");
    let gauge = (spec.tracks[0].y - spec.tracks[1].y).abs();
    let v = 0.5;
    let (mut sim, id) = sim_with(scene_file("flat"), spec, None);
    sim.set_command(
        id,
        DriveCommand {
            left: v,
            right: -v,
            flipper: None,
        },
    );
    sim.run_for(1.0);
    let y0 = sim.telemetry(id).rpy[2];
    let c0 = sim.body_state(id).com;
    sim.run_for(0.5);
    let y1 = sim.telemetry(id).rpy[2];
    let rate = ((y1 - y0 + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
        - std::f64::consts::PI)
        / 0.5;
    let no_slip = 2.0 * v / gauge;
    assert!(
        rate < 0.0,
        "left forward, right back turns clockwise: {rate}"
    );
    assert!(
        rate.abs() < no_slip && rate.abs() > 0.25 * no_slip,
        "yaw rate {rate} rad/s vs 2v/B = {no_slip}"
    );
    sim.run_for(4.0);
    let c1 = sim.body_state(id).com;
    assert!(
        (c1 - c0).xy().norm() < 0.05,
        "centre wandered {} m",
        (c1 - c0).xy().norm()
    );
}

/// Parked (zero command) on a slope 5° below atan(μ): drift under 1 cm in 60 s (stick–slip
/// friction holds). 5° above atan(μ): slides (over 0.5 m in 3 s).
#[test]
fn parked_on_a_slope_holds_below_atan_mu_and_slides_above() {
    let mu: f64 = 0.8;
    let limit = mu.atan().to_degrees();
    for (angle, holds) in [(limit - 5.0, true), (limit + 5.0, false)] {
        let (scene, r) = tilted_plane(0.0, angle, mu);
        let (mut sim, id) = sim_with(scene, robot("scout"), None);
        place_on_plane(&mut sim, id, r);
        sim.run_for(1.0);
        let p0 = sim.body_state(id).pose.translation.vector;
        if holds {
            sim.run_for(60.0);
            let d = (sim.body_state(id).pose.translation.vector - p0).norm();
            assert!(d < 0.01, "{angle:.1}°: drifted {d} m in 60 s");
        } else {
            sim.run_for(3.0);
            let d = (sim.body_state(id).pose.translation.vector - p0).norm();
            assert!(d > 0.5, "{angle:.1}°: moved only {d} m in 3 s");
        }
        assert!(sim.events().is_empty());
    }
}

/// Tilt table: gravity is tilted sideways at 1.5°/s (quasi-static) with the robot on flat
/// ground of μ = 2 (so it cannot slide first). It tips — its roll relative to the ground
/// passes 5° — within 2° of the static angle atan((B/2)/h_cg), B/2 measured to the outermost
/// track plane (the model's support line) and h_cg the height of the centre of mass.
#[test]
fn tilt_table_tips_sideways_near_the_static_angle() {
    for name in ["tracker55", "scout"] {
        let spec = robot(name);
        let half = spec
            .tracks
            .iter()
            .map(|t| t.y.abs() + t.belt.width * (0.5 - 0.5 / t.belt.planes as f64))
            .fold(0.0, f64::max);
        let expect = (half / spec.center_of_mass.z).atan().to_degrees();
        let (scene, _) = tilted_plane(0.0, 0.0, 2.0);
        let (mut sim, id) = sim_with(scene, spec, None);
        sim.run_for(1.0);
        let rate = 1.5f64.to_radians(); // rad/s
        let mut tipped_at = None;
        while sim.time() < 1.0 + 80f64.to_radians() / rate {
            let angle = (sim.time() - 1.0) * rate;
            sim.set_gravity(Vector3::new(0.0, -G * angle.sin(), -G * angle.cos()));
            sim.step();
            let roll = sim.telemetry(id).rpy[0].to_degrees().abs();
            if roll > 5.0 {
                tipped_at = Some(angle.to_degrees());
                break;
            }
        }
        let at = tipped_at.unwrap_or_else(|| panic!("{name} never tipped"));
        assert!(
            (at - expect).abs() < 2.0,
            "{name}: tipped at {at:.2}°, static limit {expect:.2}°"
        );
    }
}

/// The 55 kg preset climbs a 0.15 m curb, and stalls at a 0.40 m wall: upright, in front of
/// the wall's face, without a blow-up.
#[test]
fn tracker55_climbs_a_15_cm_curb_and_stalls_at_a_40_cm_wall() {
    let forward = DriveCommand {
        left: 0.5,
        right: 0.5,
        flipper: None,
    };
    let (mut sim, id) = sim_with(scene_file("curbs"), robot("tracker55"), Some("curb15"));
    sim.set_command(id, forward);
    sim.run_for(8.0);
    let x = sim.body_state(id).pose.translation.x;
    assert!(
        x > 1.0,
        "did not get over the curb (front face at x = 0, back at 1.0): x = {x}"
    );
    assert!(sim.events().is_empty());

    let (mut sim, id) = sim_with(scene_file("curbs"), robot("tracker55"), Some("wall"));
    sim.set_command(id, forward);
    sim.run_for(10.0);
    let t = sim.telemetry(id);
    let wall_face = -0.15;
    assert!(
        t.position[0] < wall_face,
        "went through or over the wall: x = {}",
        t.position[0]
    );
    assert!(
        t.rpy[0].abs() < 0.3 && t.rpy[1].abs() < 0.5,
        "not upright: {:?}",
        t.rpy
    );
    let moving = t.linvel.iter().map(|v| v * v).sum::<f64>().sqrt();
    assert!(moving < 0.05, "should be stalled, moving at {moving} m/s");
    assert!(sim.events().is_empty());
}

/// Drives the scout as an operator climbs a flight: creeping at `speed` m/s with the flippers
/// raised to 35° until they have lifted the nose 12°, then lowered to `flipper_on_flight` deg
/// for the flight. Returns the time the `top` checkpoint was reached, if within `limit` s.
fn climb(
    scene: &str,
    speed: f64,
    flipper_on_flight: f64,
    limit: f64,
) -> (Option<f64>, Simulation, RobotId) {
    let scene = scene_file(scene);
    let top = scene.checkpoint("top").expect("top checkpoint").clone();
    let (mut sim, id) = sim_with(scene, robot("scout"), None);
    let mut on_flight = false;
    while sim.time() < limit {
        let t = sim.telemetry(id);
        on_flight |= -t.rpy[1] > 12f64.to_radians();
        let flipper = if on_flight { flipper_on_flight } else { 35.0 };
        sim.set_command(
            id,
            DriveCommand {
                left: speed,
                right: speed,
                flipper: Some(flipper.to_radians()),
            },
        );
        sim.step();
        if top.contains(&sim.body_state(id).com) {
            return (Some(sim.time()), sim, id);
        }
    }
    (None, sim, id)
}

/// The 20 kg flipper robot climbs public stairs (12 steps of 180/280 mm, 32.7°) and
/// residential stairs (14 of 196/254 mm, 37.7°) to the top landing, upright and without a
/// blow-up.
#[test]
fn scout_climbs_public_and_residential_stairs_with_its_flippers() {
    for (scene, speed, flipper) in [
        ("public_stairs", 0.15, -12.0),
        ("residential_stairs", 0.18, -8.0),
    ] {
        let (reached, sim, id) = climb(scene, speed, flipper, 80.0);
        let t = sim.telemetry(id);
        assert!(
            reached.is_some(),
            "{scene}: did not reach the top landing: at {:?}, pitch {:.1}°",
            t.position,
            t.rpy[1].to_degrees()
        );
        assert!(
            t.rpy[0].abs() < 0.2,
            "{scene}: not upright: roll {}",
            t.rpy[0]
        );
        assert!(sim.events().is_empty(), "{scene}: {:?}", sim.events());
    }
}

/// A blow-up (here a non-finite pose forced into the body) is detected within one step,
/// reported as an event, and the robot is put back at rest, command stopped, at its newest
/// snapshot that is at least one snapshot interval (0.5 s) old — never the one taken just
/// before the blow-up; the simulation carries on without NaN and the robot drives again when
/// commanded.
#[test]
fn a_blow_up_is_reported_and_the_robot_restored() {
    use treadsim::sim::SimEvent;
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    sim.set_command(
        id,
        DriveCommand {
            left: 0.5,
            right: 0.5,
            flipper: None,
        },
    );
    // Snapshots every 0.5 s: the newest at 1.0 s is only 0.2 s old, so 0.5 s is restored.
    sim.run_for(1.2);
    let good = sim.body_state(id).pose;
    sim.teleport(id, &Isometry3::translation(f64::NAN, 0.0, 0.0));
    sim.step();
    assert_eq!(sim.events().len(), 1, "{:?}", sim.events());
    let SimEvent::BlowUp {
        restored_to,
        reason,
        ..
    } = &sim.events()[0]
    else {
        panic!("not a blow-up: {:?}", sim.events());
    };
    assert!(
        (restored_to - 0.5).abs() < 1e-9 && reason.contains("non-finite"),
        "{reason} {restored_to}"
    );
    let b = sim.body_state(id);
    assert!(b.linvel.norm() == 0.0 && b.angvel.norm() == 0.0);
    assert_eq!(sim.robot(id).command(), DriveCommand::STOP);
    // Restored to the 0.5 s snapshot, 0.35 m (0.7 s at 0.5 m/s) behind where it was.
    let back = good.translation.x - b.pose.translation.x;
    assert!((back - 0.35).abs() < 0.02, "moved back {back} m");
    sim.set_command(
        id,
        DriveCommand {
            left: 0.5,
            right: 0.5,
            flipper: None,
        },
    );
    sim.run_for(1.0);
    let t = sim.telemetry(id);
    assert!(t.position.iter().chain(&t.linvel).all(|x| x.is_finite()));
    assert!(
        t.linvel[0] > 0.4,
        "drives on after recovery: {:?}",
        t.linvel
    );
}

/// Reset to spawn restores the pose, stops the belts and returns the flippers at once; after
/// it the robot behaves as a freshly added one (same telemetry a second later).
#[test]
fn reset_to_spawn_is_a_fresh_start() {
    let scene = scene_file("flat");
    let spawn = scene.spawns[0].clone();
    let (mut fresh, a) = sim_with(scene.clone(), robot("scout"), None);
    let (mut used, b) = sim_with(scene, robot("scout"), None);
    used.set_command(
        b,
        DriveCommand {
            left: 0.8,
            right: 0.2,
            flipper: Some(1.0),
        },
    );
    used.run_for(2.0);
    used.reset_robot(b, &spawn);
    assert_eq!(used.robot(b).drive_state().flipper_angle, vec![0.0, 0.0]);
    assert!(used
        .robot(b)
        .drive_state()
        .belt_speed
        .iter()
        .all(|&v| v == 0.0));
    fresh.run_for(1.0);
    used.run_for(1.0);
    let (x, y) = (fresh.telemetry(a), used.telemetry(b));
    for k in 0..3 {
        assert!(
            (x.position[k] - y.position[k]).abs() < 1e-4,
            "{:?} vs {:?}",
            x.position,
            y.position
        );
    }
}

/// Same script, same scene, same robot → the same telemetry file, byte for byte.
#[test]
fn two_runs_of_the_same_script_give_identical_telemetry() {
    let script = DriveScript::from_source(&SourceFile::from_text(
        Path::new("s.toml"),
        "[[command]]\nat = 0\nleft = 0.6\nright = 0.6\nflipper_deg = 30\n\
         [[command]]\nat = 2\nleft = 0.6\nright = -0.2\n\
         [[command]]\nat = 3\nleft = 0.4\nright = 0.4\nflipper_deg = -10\n"
            .into(),
    ))
    .unwrap();
    let run = || {
        let (mut sim, id) = sim_with(scene_file("rubble"), robot("scout"), None);
        let mut out = TelemetryWriter::new(Vec::new(), sim.robot(id)).unwrap();
        for _ in 0..2500 {
            sim.set_command(id, script.command_at(sim.time()));
            sim.step();
            out.write(&sim.telemetry(id)).unwrap();
        }
        out.finish().unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.len() > 100_000);
    assert!(a == b, "telemetry differs between two identical runs");
}
