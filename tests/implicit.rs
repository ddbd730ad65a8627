//! The implicit contact step (`vehicle::implicit`): its stiffness Jacobian against finite
//! differences of the track model's wrench, and what it buys at a larger step — the
//! validation rows of rest, the drop, straight driving, steady turns, slopes and the tilt
//! table hold at 10 ms with it, and not without.

mod common;
use common::*;

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use treadsim::envelope::{lanes, trials};
use treadsim::sim::SimConfig;
use treadsim::vehicle::implicit::StepSettings;
use treadsim::vehicle::BodyState;

/// The pose `body` moved by `step` along twist component `k` (0–2 translation, m; 3–5
/// rotation about the centre of mass, rad), at rest.
fn moved(body: &BodyState, k: usize, step: f64) -> BodyState {
    let mut axis = Vector3::zeros();
    axis[k % 3] = 1.0;
    let motion = if k < 3 {
        Isometry3::from_parts(Translation3::from(axis * step), UnitQuaternion::identity())
    } else {
        let c = body.com.coords;
        Isometry3::translation(c.x, c.y, c.z)
            * Isometry3::from_parts(
                Translation3::identity(),
                UnitQuaternion::from_scaled_axis(axis * step),
            )
            * Isometry3::translation(-c.x, -c.y, -c.z)
    };
    BodyState {
        pose: motion * body.pose,
        com: motion * body.com,
        linvel: Vector3::zeros(),
        angvel: Vector3::zeros(),
    }
}

/// Each preset resting on the pad (and pitched 3° so that the runs and the end wheels load
/// unevenly): the stiffness K = −∂F/∂x that the implicit step assembles matches central
/// differences of the model's wrench in heave, roll and pitch (the normal law's terms; the
/// friction terms act through the velocity) within 4 % of the heave stiffness level, 20 %
/// pitched.
#[test]
fn the_stiffness_jacobian_matches_finite_differences() {
    for name in PRESETS {
        let spec = robot(name);
        let config = SimConfig::default();
        let (mut sim, id) =
            trials::start(lanes::flat_pad(0.8).expect("pad"), &spec, &config).expect("sim");
        sim.run_for(1.0);
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
                .linearisation()
                .stiffness();
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
