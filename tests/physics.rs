//! Scenario tests of the track model driving a rapier hull: scenes are built, robots driven
//! headless, and the physics checked against closed forms and DESIGN.md's reference list.
//! Each test states its tolerance.

use std::path::Path;

use nalgebra::{Isometry3, Vector3};
use treadsim::config::SourceFile;
use treadsim::session::DriveScript;
use treadsim::sim::{RobotId, SimConfig, Simulation, TelemetryWriter};
use treadsim::track::area::circular_segment_area;
use treadsim::vehicle::DriveCommand;

mod common;
use common::*;

/// Rest on flat ground: Σ normal forces = m·g within 0.5 %, and each road wheel's force equals
/// the paper's law κ_plane·S(δ) for its geometric sinkage δ (from the hull pose) within 1 %.
#[test]
fn rest_on_flat_ground_carries_the_weight_and_sinks_by_the_force_law() {
    for name in PRESETS {
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
        let model = sim.robot(id).as_tracked().expect("tracked");
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
    for name in ["scout", "selfright20", "tracker55"] {
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
        sim.set_command(id, DriveCommand::belts(v, v));
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
    sim.set_command(id, DriveCommand::belts(v, -v));
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
    let forward = DriveCommand::belts(0.5, 0.5);
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

/// The 20 kg flipper robot climbs public stairs (12 steps of 180/280 mm, 32.7°) and
/// residential stairs (14 of 196/254 mm, 37.7°) to the top landing, upright and without a
/// blow-up.
#[test]
fn scout_climbs_public_and_residential_stairs_with_its_flippers() {
    for (scene, speed, flipper) in [
        ("public_stairs", 0.15, -12.0),
        ("residential_stairs", 0.18, -8.0),
    ] {
        let (reached, sim, id) =
            operator_climb(scene, SimConfig::default(), speed, flipper, 80.0, |_, _| {});
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
    sim.set_command(id, DriveCommand::belts(0.5, 0.5));
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
    sim.set_command(id, DriveCommand::belts(0.5, 0.5));
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
            steer: None,
        },
    );
    used.run_for(2.0);
    used.reset_robot(b, &spawn);
    assert_eq!(
        used.robot(b)
            .as_tracked()
            .expect("tracked")
            .drive_state()
            .flipper_angle,
        vec![0.0, 0.0]
    );
    assert!(used
        .robot(b)
        .as_tracked()
        .expect("tracked")
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

/// The directions of the hold table: (name, yaw from facing downhill, deg).
const HOLD_DIRECTIONS: [(&str, f64); 4] = [
    ("nose down", 0.0),
    ("nose up", 180.0),
    ("sideways", 90.0),
    ("diagonal", 45.0),
];

/// Issue 7 part 4, one cell of the hold table: parked on μ = 0.8 at atan μ − 3° the preset
/// drifts under 1 cm in 60 s (after 1 s settling, no events); at atan μ + 3° it slides over
/// 0.3 m in 3 s (Coulomb: g·(sin θ − μ cos θ) = 0.66 m/s² gives ~1 m).
fn hold_cell(name: &str, yaw: f64) -> (f64, f64, bool) {
    let mu: f64 = 0.8;
    let limit = mu.atan().to_degrees();
    let (hold, ok_a) = parked_drift(name, limit - 3.0, yaw, mu, 60.0);
    let (slide, ok_b) = parked_drift(name, limit + 3.0, yaw, mu, 3.0);
    (hold, slide, ok_a && ok_b)
}

/// A representative part of the hold table in the normal suite (the full table is
/// `parked_hold_table_every_preset_every_direction`, ignored for its length): the 250 kg
/// preset nose up, diagonally and sideways, the 55 kg one sideways, each holding at
/// atan μ − 3° (drift under 1 cm in 60 s) and sliding at atan μ + 3° (over 0.3 m in 3 s),
/// without events.
///
/// Regression (issue 7 part 4): heavy250 sideways used to creep 2.1 m in 60 s. Landing from
/// the 2 mm placement it locked into a ~17 Hz roll–heave bounce, the uphill track (static
/// load 390 N of 1993 N) lifting off every cycle; the sliding friction's roll moment pumped
/// ~20 W into it, which the load-proportional Hunt–Crossley damping of the unloaded track
/// could not remove. The rubber's Kelvin–Voigt damping (proportional to the contact's
/// stiffness, `track::load::normal_damping_factor`) stops the bounce within 0.5 s.
#[test]
fn parked_hold_table_sample() {
    for (name, yaw) in [
        ("heavy250", 180.0),
        ("heavy250", 45.0),
        ("heavy250", 90.0),
        ("tracker55", 90.0),
    ] {
        let (hold, slide, quiet) = hold_cell(name, yaw);
        assert!(hold < 0.01, "{name} at {yaw}°: drifted {hold} m in 60 s");
        assert!(slide > 0.3, "{name} at {yaw}°: slid only {slide} m in 3 s");
        assert!(quiet, "{name} at {yaw}°: events");
    }
}

/// The 250 kg preset sideways on a slope its friction can hold, reached quasi-statically:
/// parked across 25.7° (μ = 0.8), then gravity turned by 9° more at 1.8°/s (to atan μ − 1°),
/// then held 10 s: it drifts under 1 cm over the whole ramp and hold. The statics of the cross
/// slope are sound (every contact sticks; the lightly loaded uphill track included); what
/// made the preset creep after the standard placement was dynamic (see
/// `parked_hold_table_sample`).
#[test]
fn heavy250_held_across_a_slope_reached_slowly() {
    let mu: f64 = 0.8;
    let start = mu.atan().to_degrees() - 10.0;
    let (scene, r) = tilted_plane(0.0, start, mu);
    let (mut sim, id) = sim_with(scene, robot("heavy250"), None);
    place_on_plane_turned(&mut sim, id, r, 90.0);
    sim.run_for(1.0);
    let p0 = sim.body_state(id).pose.translation.vector;
    let steps = 2500; // 5 s
    for k in 0..=steps {
        let d = (9.0 * k as f64 / steps as f64).to_radians();
        sim.set_gravity(Vector3::new(G * d.sin(), 0.0, -G * d.cos()));
        sim.step();
    }
    sim.run_for(10.0);
    let d = (sim.body_state(id).pose.translation.vector - p0).norm();
    assert!(d < 0.01, "drifted {d} m");
    assert!(sim.robot(id).contacts().iter().all(|c| c.sticking));
    assert!(sim.events().is_empty());
}

/// The full cross-slope hold table (24 runs, ~13 min of simulated time): every preset in every
/// direction. Prints the table; run with `--ignored --nocapture` (release is quick).
///
/// Issue 7 part 4: heavy250 sideways used to creep 2.1 m in 60 s here, a friction-fed
/// roll–heave bounce that the load-proportional Hunt–Crossley damping let live; the belt
/// rubber's Kelvin–Voigt damping removes it (see `parked_hold_table_sample`).
#[test]
#[ignore]
fn parked_hold_table_every_preset_every_direction() {
    let mut failures = Vec::new();
    println!("| preset | direction | drift in 60 s at atan μ − 3° (m) | travel in 3 s at atan μ + 3° (m) |");
    println!("|---|---|---:|---:|");
    for name in PRESETS {
        for (dir, yaw) in HOLD_DIRECTIONS {
            let (hold, slide, quiet) = hold_cell(name, yaw);
            println!("| {name} | {dir} | {hold:.5} | {slide:.3} |");
            if hold >= 0.01 || slide <= 0.3 || !quiet {
                failures.push(format!(
                    "{name} {dir}: hold {hold} m, slide {slide} m, quiet {quiet}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The ground's torque on flipper plane `plane`'s contacts about the flipper axis (body y
/// through `axis` = (x, z) body frame at the plane's y), N·m, from the contact list alone.
fn ground_torque_about_flipper_axis(
    sim: &Simulation,
    id: RobotId,
    plane: usize,
    axis: (f64, f64),
) -> f64 {
    let body = sim.body_state(id);
    let (_, y) = sim
        .robot(id)
        .as_tracked()
        .expect("tracked")
        .plane_outline(plane);
    let pivot = body.pose * nalgebra::Point3::new(axis.0, y, axis.1);
    let y_axis = body.pose.rotation * Vector3::y();
    sim.robot(id)
        .contacts()
        .iter()
        .filter(|c| c.plane == plane)
        .map(|c| {
            (c.point - pivot)
                .cross(&(c.normal * c.normal_force))
                .dot(&y_axis)
        })
        .sum()
}

/// Issue 7 part 3: a flipper commanded far down into flat floor stalls at its torque limit.
/// With 4 N·m per flipper the scout cannot lift its front (statics: the tips, 0.70 m ahead of
/// the rear road wheels, would need m·g·0.31/0.70 = 87 N, 8.4 N·m per flipper at the 16°
/// contact angle), so the flippers stop where the floor resists with 4 N·m: |torque| within
/// 5 % of the limit (reported, and recomputed from the contacts about the axis), the front
/// road wheels still on the ground and the hull's pitch within 0.3° of its rest pitch
/// (unloading the front wheels only undoes part of their sinkage), no blow-up. With the preset's 25 N·m the same command
/// lifts the front onto the flipper tips (the torque needed falls as the flippers turn down,
/// so they reach −90°), nose up by over 10°.
#[test]
fn a_flipper_pressed_into_the_floor_stalls_at_its_torque_limit() {
    let limit = 4.0;
    let mut spec = robot("scout");
    for f in &mut spec.flippers {
        f.max_torque = limit;
    }
    let axis = (spec.flippers[0].axis_x, spec.flippers[0].axis_z);
    let (mut sim, id) = sim_with(scene_file("flat"), spec, None);
    sim.run_for(2.0);
    let pitch0 = sim.telemetry(id).rpy[1];
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(-90f64.to_radians()),
            steer: None,
        },
    );
    sim.run_for(2.0);
    let r = sim.robot(id).as_tracked().expect("tracked");
    let first_flipper_plane = r.plane_count() - r.spec().flippers.len();
    for f in 0..2 {
        assert!(r.flipper_stalled(f), "flipper {f} not stalled");
        let t = r.flipper_torque(f);
        assert!(
            (t.abs() - limit).abs() < 0.05 * limit && t < 0.0,
            "flipper {f}: torque {t} N·m vs limit {limit}"
        );
        let ground = ground_torque_about_flipper_axis(&sim, id, first_flipper_plane + f, axis);
        assert!(
            (ground.abs() - limit).abs() < 0.05 * limit,
            "flipper {f}: the contacts' torque about the axis is {ground} N·m"
        );
        let angle = r.drive_state().flipper_angle[f].to_degrees();
        assert!(
            angle > -20.0,
            "flipper {f} pressed through the floor to {angle}°"
        );
    }
    let pitch = sim.telemetry(id).rpy[1];
    assert!(
        (pitch - pitch0).abs() < 0.3f64.to_radians(),
        "the front lifted: pitch {pitch} rad from {pitch0}"
    );
    // The front road wheels (element 6, x = 0.21 m) still carry load on every main plane.
    let front: Vec<f64> = (0..first_flipper_plane)
        .map(|p| {
            r.contacts()
                .iter()
                .filter(|c| c.plane == p && c.element == 6)
                .map(|c| c.normal_force)
                .sum()
        })
        .collect();
    assert!(
        front.iter().all(|&n| n > 1.0),
        "front wheels lifted: {front:?} N"
    );
    assert!(sim.events().is_empty());

    // The preset's motors lift the front.
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(-90f64.to_radians()),
            steer: None,
        },
    );
    sim.run_for(3.0);
    let t = sim.telemetry(id);
    assert!(
        t.rpy[1] < -10f64.to_radians(),
        "nose not lifted: pitch {}°",
        t.rpy[1].to_degrees()
    );
    assert!(t
        .flippers
        .iter()
        .all(|a| (a + std::f64::consts::FRAC_PI_2).abs() < 1e-9));
    assert!(sim.events().is_empty());
}

/// Issue 7 part 3: a flipper swung forward into a wall stalls at its torque limit. The scout
/// stands with its flippers up (90°) 0.12 m behind a wall face (0.42 m ahead of the origin;
/// the flipper axis is at x = 0.30, the tip circle at 0.20 m, r 0.03) and is commanded to 0°:
/// the tips meet the wall at acos((0.12 − 0.03)/0.20) = 63° and stop there, |torque| within
/// 5 % of the 4 N·m limit; the wall's push (≈ 4/0.18 = 22 N) does not move the robot (< 5 mm).
#[test]
fn a_flipper_swung_into_a_wall_stalls_at_its_torque_limit() {
    let limit = 4.0;
    let mut spec = robot("scout");
    for f in &mut spec.flippers {
        f.max_torque = limit;
        f.initial_angle = 90f64.to_radians();
    }
    let axis = (spec.flippers[0].axis_x, spec.flippers[0].axis_z);
    let scene = scene_text(
        "[[material]]\nname = \"pad\"\nfriction = 0.8\n\
         [[element]]\ntype = \"box\"\nsize = [10, 10, 0.5]\nposition = [0, 0, -0.5]\n\
         [[element]]\ntype = \"box\"\nsize = [0.2, 2, 0.6]\nposition = [0.52, 0, 0]\n\
         [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n",
    );
    let (mut sim, id) = sim_with(scene, spec, None);
    sim.run_for(0.5);
    let p0 = sim.body_state(id).pose.translation.vector;
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(0.0),
            steer: None,
        },
    );
    sim.run_for(2.0);
    let r = sim.robot(id).as_tracked().expect("tracked");
    let first_flipper_plane = r.plane_count() - r.spec().flippers.len();
    for f in 0..2 {
        assert!(r.flipper_stalled(f), "flipper {f} not stalled");
        let t = r.flipper_torque(f);
        assert!(
            (t.abs() - limit).abs() < 0.05 * limit,
            "flipper {f}: torque {t} N·m vs limit {limit}"
        );
        let ground = ground_torque_about_flipper_axis(&sim, id, first_flipper_plane + f, axis);
        assert!(
            (ground.abs() - limit).abs() < 0.05 * limit,
            "flipper {f}: the contacts' torque about the axis is {ground} N·m"
        );
        let angle = r.drive_state().flipper_angle[f].to_degrees();
        assert!(
            (angle - 63.3).abs() < 2.0,
            "flipper {f} stopped at {angle}°"
        );
    }
    let moved = (sim.body_state(id).pose.translation.vector - p0).norm();
    assert!(moved < 0.005, "pushed away by {moved} m");
    assert!(sim.events().is_empty());
}

/// Issue 7 part 3: a free flipper (nothing in its way) turns at its no-load speed: the
/// scout's flippers go from 0° to 90° at 90°/s in 1.0 s (within 5 %).
#[test]
fn a_free_flipper_reaches_its_target_at_max_rate() {
    let (mut sim, id) = sim_with(scene_file("flat"), robot("scout"), None);
    sim.run_for(0.5);
    let t0 = sim.time();
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(std::f64::consts::FRAC_PI_2),
            steer: None,
        },
    );
    let mut reached = None;
    while sim.time() < t0 + 3.0 {
        sim.step();
        let a = &sim
            .robot(id)
            .as_tracked()
            .expect("tracked")
            .drive_state()
            .flipper_angle;
        if a.iter()
            .all(|a| (a - std::f64::consts::FRAC_PI_2).abs() < 1e-9)
        {
            reached = Some(sim.time() - t0);
            break;
        }
    }
    let t = reached.expect("never reached 90°");
    assert!((t - 1.0).abs() < 0.05, "took {t} s");
    assert!(!sim
        .robot(id)
        .as_tracked()
        .expect("tracked")
        .flipper_stalled(0));
}

/// Telemetry has a `<name>_torque` column after each flipper's angle, holding
/// `TrackedRobot::flipper_torque` (here a flipper stalled on the floor at −4 N·m).
#[test]
fn telemetry_has_a_torque_column_per_flipper() {
    let mut spec = robot("scout");
    for f in &mut spec.flippers {
        f.max_torque = 4.0;
    }
    let (mut sim, id) = sim_with(scene_file("flat"), spec, None);
    sim.set_command(
        id,
        DriveCommand {
            left: 0.0,
            right: 0.0,
            flipper: Some(-1.5),
            steer: None,
        },
    );
    sim.run_for(1.5);
    let mut out = TelemetryWriter::new(Vec::new(), sim.robot(id)).unwrap();
    out.write(&sim.telemetry(id)).unwrap();
    let text = String::from_utf8(out.finish().unwrap()).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(header.len(), row.len());
    let n = header.len();
    assert_eq!(
        &header[n - 4..],
        &[
            "front_left_angle",
            "front_left_torque",
            "front_right_angle",
            "front_right_torque"
        ]
    );
    for (k, f) in [(n - 3, 0), (n - 1, 1)] {
        assert_eq!(
            row[k],
            sim.robot(id)
                .as_tracked()
                .expect("tracked")
                .flipper_torque(f)
        );
        assert!((row[k] + 4.0).abs() < 0.2, "{}", row[k]);
    }
}
