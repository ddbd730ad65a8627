//! The implicit contact step (`vehicle::implicit`): its stiffness Jacobian against finite
//! differences of the track model's wrench, and what it buys at a larger step — the
//! validation rows of rest, the drop, straight driving, steady turns, slopes and the tilt
//! table hold at 10 ms with it, and not without; impacts from up to a metre gain no energy.

mod common;
use common::*;

use nalgebra::Vector3;
use treadsim::envelope::{lanes, trials};
use treadsim::sim::SimConfig;
use treadsim::tools::validate::cases::{drop_from, DROP_RISE_SHARE};
use treadsim::vehicle::implicit::{predicted, StepSettings};
use treadsim::vehicle::BodyState;

/// Each preset resting on the pad (and pitched 3° so that the runs and the end wheels load
/// unevenly): the stiffness K = −∂F/∂x that the implicit step assembles matches central
/// differences of the model's wrench in heave, roll and pitch (the normal law's terms; the
/// friction terms act through the velocity) within 4 % of the heave stiffness level, 20 %
/// pitched.
#[test]
fn the_stiffness_jacobian_matches_finite_differences() {
    for name in PRESETS {
        let (sim, id, _) = settled_on_pad(name);
        let config = SimConfig::default();
        let terrain = sim.scene().terrain.clone();
        let rest = sim.body_state(id);
        // Level: 4 %. Pitched, the run law's own terms (the virtual bump moving along a run
        // whose stiffness varies, the contact points sliding) are left out of K: measured
        // 2026-11 up to 18 % on heave (selfright20), 7 % (scout).
        for (pitch, tolerance) in [(0.0f64, 0.04), (3.0, 0.20)] {
            let body = moved(&rest, 4, pitch.to_radians());
            let wrench = |b: &BodyState| {
                let mut model = sim.robot(id).clone();
                let mut segments = Vec::new();
                let w = model.step(
                    &terrain,
                    b,
                    &StepSettings::explicit(config.dt),
                    &mut segments,
                );
                [
                    w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z,
                ]
            };
            let mut model = sim.robot(id).clone();
            let implicit = StepSettings {
                implicit: true,
                ..StepSettings::explicit(config.dt)
            };
            model.step(&terrain, &body, &implicit, &mut Vec::new());
            let k = model
                .as_tracked()
                .expect("tracked")
                .stiffness_jacobian(&body.com);
            let scale = k[(2, 2)];
            assert!(scale > 0.0, "{name}: no heave stiffness");
            let h = 1e-6;
            for col in [2usize, 3, 4] {
                let (plus, minus) = (
                    wrench(&moved(&body, col, h)),
                    wrench(&moved(&body, col, -h)),
                );
                for row in [2usize, 3, 4] {
                    let numeric = -(plus[row] - minus[row]) / (2.0 * h);
                    // Rows 3–5 are torques: a metre of lever scales them like forces.
                    assert!(
                        (numeric - k[(row, col)]).abs() < tolerance * scale,
                        "{name} pitch {pitch}°: K[{row},{col}] = {:.4e}, differences {numeric:.4e} (heave {scale:.4e})",
                        k[(row, col)]
                    );
                }
            }
        }
    }
}

/// Under the implicit step the contacts a robot reports (telemetry, the station's force
/// arrows, the tracks' loads) are the forces the hull is handed, at the step's end: each
/// preset rising off the pad at 2 cm/s while driving at 0.4 m/s and yawing at 0.8 rad/s (the
/// step pulls it back, so every contact loads; some slide), their normal and friction forces add up to the step's wrench
/// within 1e-8 of its size (rounding: the solve sums in another order; measured 3e-9), and
/// the tracks' normal loads to the normal forces. The predicted pose's forces (what was
/// reported before) miss it by far more. (A contact that would pull at the step's end, one
/// lifting off, reports no force: the sum then differs by what the linear solve let it pull.)
#[test]
fn reported_contact_forces_add_up_to_the_wrench_the_hull_is_handed() {
    let config = SimConfig::default();
    for name in PRESETS {
        let spec = robot(name);
        let (mut sim, id) =
            trials::start(lanes::flat_pad(0.8).expect("pad"), &spec, &config).expect("sim");
        sim.run_for(1.0);
        let terrain = sim.scene().terrain.clone();
        let mut body = sim.body_state(id);
        let forward = body.pose.rotation * Vector3::x();
        body.linvel = forward * 0.4 + Vector3::z() * 0.02;
        body.angvel = Vector3::new(0.0, 0.0, 0.8);
        let settings = StepSettings {
            implicit: true,
            ..StepSettings::explicit(config.dt)
        };
        let mut model = sim.robot(id).clone();
        let handed = model.step(&terrain, &body, &settings, &mut Vec::new());
        let at = predicted(&body, config.dt);
        let sums = |contacts: &[treadsim::vehicle::tracked::ContactInfo]| {
            contacts.iter().fold(
                (Vector3::zeros(), Vector3::zeros()),
                |(force, torque), c| {
                    let f = c.normal * c.normal_force + c.friction;
                    (force + f, torque + (c.point - at.com).cross(&f))
                },
            )
        };
        let tracked = model.as_tracked().expect("tracked");
        let (force, torque) = sums(tracked.contacts());
        let size = handed.force.norm() + handed.torque.norm();
        assert!(
            (force - handed.force).norm() < 1e-8 * size
                && (torque - handed.torque).norm() < 1e-8 * size,
            "{name}: contacts {force:?} {torque:?}, handed {:?} {:?}",
            handed.force,
            handed.torque
        );
        let normal: f64 = tracked.contacts().iter().map(|c| c.normal_force).sum();
        let tracks: f64 = (0..spec.tracks.len())
            .map(|t| tracked.track_normal_force(t))
            .sum();
        assert!(
            (normal - tracks).abs() < 1e-9 * normal,
            "{name}: {normal} vs {tracks}"
        );
        // The predicted pose's forces, as an explicit step finds them there.
        let mut before = sim.robot(id).clone();
        before.step(
            &terrain,
            &at,
            &StepSettings::explicit(config.dt),
            &mut Vec::new(),
        );
        let (predicted_force, _) = sums(before.as_tracked().expect("tracked").contacts());
        assert!(
            (predicted_force - handed.force).norm() > 1e-3 * size,
            "{name}: the step changed nothing ({predicted_force:?})"
        );
    }
}

/// At 10 ms the explicit step fails rows of rest, the drop, straight driving, steady turns or
/// slopes; with the implicit contact step those cases all pass (the wheeled robot's contacts
/// and the grip are not yet covered: see issue 35's note).
#[test]
fn the_implicit_step_holds_rest_turns_and_slopes_at_10_ms() {
    let held = [
        "rest on flat ground",
        "drop from 0.2 m",
        "straight",
        "steady turn",
        "slope, belts held",
        "tilt table",
    ];
    let implicit = validation(true, 0.01, true);
    for r in implicit.rows.iter().filter(|r| held.contains(&r.case)) {
        assert!(r.pass, "implicit at 10 ms: {r:?}");
    }
    let explicit = validation(true, 0.01, false);
    assert!(
        explicit
            .rows
            .iter()
            .any(|r| held.contains(&r.case) && !r.pass),
        "the explicit step passes too at 10 ms: the test shows nothing"
    );
    // At the default step the implicit option passes every row of the fast form.
    let default = validation(true, SimConfig::default().dt, true);
    assert!(default.passed, "{default}");
}

/// Energy never grows at an impact (DESIGN.md's drop reference), beyond the validation row's
/// level 0.2 m drop: every preset, armed ones too, dropped at the default step from 0.2, 0.5
/// and 1.0 m level, and from 0.3–0.5 m rolled and pitched up to 0.3 rad so that one corner
/// lands first. The largest rise of mechanical energy in any step stays within the row's
/// [`DROP_RISE_SHARE`] (1 %) of m·g·h (measured at most 0.39 %: heavy250_eod's 1 m drop,
/// its first impact).
#[test]
fn impacts_from_up_to_a_metre_never_gain_energy() {
    let drops = [
        (0.2, 0.0, 0.0),
        (0.5, 0.0, 0.0),
        (1.0, 0.0, 0.0),
        (0.3, 0.15, 0.1),
        (0.5, 0.3, 0.2),
        (0.3, 0.0, -0.3),
    ];
    for name in PRESETS.iter().chain(&ARMED) {
        for &(height, roll, pitch) in &drops {
            let (mut sim, id, spec) = settled_on_pad(name);
            let rest = sim.body_state(id).pose;
            let pose = nalgebra::Isometry3::from_parts(
                (rest.translation.vector + Vector3::z() * height).into(),
                nalgebra::UnitQuaternion::from_euler_angles(roll, pitch, 0.0) * rest.rotation,
            );
            let drop = drop_from(&mut sim, id, &pose, 3.0);
            let worst = drop.worst_rise / (spec.mass * G * height);
            assert!(
                worst <= DROP_RISE_SHARE,
                "{name} dropped {height} m, roll {roll}, pitch {pitch}: energy rose {:.3} % of \
                 m·g·h in one step at t = {:.3} s",
                worst * 100.0,
                drop.worst_at
            );
        }
    }
}
