//! Issue 40's turning measurements of real robots, kept as ignored acceptance tests so the
//! work that changes the contact law can run them
//! (`cargo test --release --no-default-features --test turning -- --ignored --nocapture`).
//! They pass only with the wheel patches renewed by the belt's motion
//! (`FrictionConfig::wheel_patch_renewal`), which is not the default: with it the scout cannot
//! climb the residential stairs (see that field's doc).

mod common;

use common::{operator_climb, robot};
use treadsim::sim::SimConfig;
use treadsim::tools::validate::measured::{
    flipper_rows, slip_exponent, ENDO_SURFACES, EXPONENT_TOLERANCE,
};

/// The simulator's settings with the wheel-patch renewal `on` or off.
fn with_renewal(on: bool) -> SimConfig {
    let mut config = SimConfig::default();
    config.friction.wheel_patch_renewal = on;
    config
}

/// Endo, Okada, Nagatani & Yoshida (IROS 2007, a 25 kg tracked robot under motion capture) fit
/// the ratio of the two tracks' slip ratios as −sgn(v_l·v_r)·|v_r/v_l|^n: n = 0.48 on
/// P-tile and 0.62 on plywood (read from secondary sources; the paper's own text could not be
/// read here; the surfaces' μ are estimates). Issue 40 asks for n within 0.15 of each.
///
/// Any friction law that depends only on how fast the belt slides over the ground gives a
/// symmetric robot n = 1 (equal and opposite longitudinal forces need equal and opposite slip
/// speeds, whatever the lateral slip), and rolling resistance lowers it a little: scout 0.96
/// (μ 0.6) and 0.98 (μ 0.8), tracker55 0.94 and 0.96. With the wheel patches renewed
/// (shear displacement s·x under each wheel, `track::friction`), measured 2026-12-02: scout
/// 0.58 / 0.48, tracker55 0.83 / 0.72 (tracker55's 14 mm patches against the scout's 6.5 mm
/// reach the friction limit at a smaller slip ratio). This test asserts the renewal law.
#[test]
#[ignore = "issue 40: not the default law; with it tracker55 on P-tile gives n = 0.83 against 0.48"]
fn slip_ratio_exponent_matches_endo_et_al_on_tile_and_plywood() {
    let mut misses = Vec::new();
    for name in ["scout", "tracker55"] {
        let spec = robot(name);
        for (surface, mu, measured) in ENDO_SURFACES {
            let plain = slip_exponent(&spec, &with_renewal(false), mu).expect("runs");
            let n = slip_exponent(&spec, &with_renewal(true), mu).expect("runs");
            println!(
                "{name} on {surface} (μ {mu}): n = {n:.3} with wheel patches renewed, \
                 {plain:.3} without; Endo et al. {measured}"
            );
            if (n - measured).abs() > EXPONENT_TOLERANCE {
                misses.push(format!("{name} {surface}: {n:.3} vs {measured}"));
            }
        }
    }
    assert!(misses.is_empty(), "beyond {EXPONENT_TOLERANCE}: {misses:?}");
}

/// Rover Robotics' Flipper (flipper11: its mass and track separation on the scout's running
/// gear) at the belt speeds its driver sends for 0.5 m/s and 0.5 rad/s turns at 0.5 rad/s by
/// the maker's tuned odometry; issue 40 asks for its yaw rate within 15 %.
#[test]
#[ignore = "issue 40: not the default law"]
fn the_flipper_turns_as_its_makers_odometry_says() {
    let spec = robot("flipper11");
    let renewed = flipper_rows(&spec, &with_renewal(true)).expect("runs");
    let plain = flipper_rows(&spec, &with_renewal(false)).expect("runs");
    for (label, rows) in [("renewed", &renewed), ("without renewal", &plain)] {
        for r in rows {
            println!(
                "{label}: {} {:.3} rad/s against {:.3} ({})",
                r.quantity,
                r.model,
                r.reference,
                if r.pass { "pass" } else { "FAIL" }
            );
        }
    }
    assert!(renewed.iter().all(|r| r.pass), "{renewed:?}");
}

/// Why the renewal is not the default: a renewed bristle settles at slip ratio × ℓ (ℓ half
/// the chord of the wheel's patch), so a wheel spinning in place (slip ratio 1) pulls at most
/// σ₀·ℓ, and σ₀ is one stiffness for every contact of the robot (sized for its weight spread
/// over its flat-ground contacts) while ℓ grows only as the cube root of the load. Where the
/// load gathers on a few circles, as on a stair's first nosing, σ₀·ℓ falls below μ·N and the
/// robot stalls with its belts spinning. Measured 2026-12-02 (the operator's drive of
/// tests/physics.rs, `common::operator_climb`, 0.18 m/s, flippers at 35° then −8°): the scout
/// stops 0.23 m before the residential stairs' first riser, pitched 24° nose up, its most
/// loaded contact (47 N; a flat-ground contact carries 10–20 N) needing a slip ratio of 2.4 to
/// reach μ·N (11 at the run's worst instant); without the renewal it climbs
/// (tests/physics.rs).
#[test]
#[ignore = "issue 40: with the renewal the scout stalls on the residential stairs' first nosing"]
fn renewed_wheel_patches_let_the_scout_mount_the_residential_stairs() {
    let mut worst_needed: f64 = 0.0;
    let (reached, sim, id) = operator_climb(
        "residential_stairs",
        with_renewal(true),
        0.18,
        -8.0,
        80.0,
        |sim, id| {
            // The slip ratio each renewed contact needs to reach its friction limit.
            for c in sim.robot(id).contacts() {
                if c.normal_force > 0.0 && c.slip_ratio_stiffness.is_finite() {
                    let needed = c.mu.x * c.normal_force / c.slip_ratio_stiffness;
                    worst_needed = worst_needed.max(needed);
                }
            }
        },
    );
    let t = sim.telemetry(id);
    assert!(
        reached.is_some(),
        "stalled at {:?}, pitch {:.1}°; a contact needed a slip ratio of {worst_needed:.2} \
         to reach μ·N",
        t.position,
        t.rpy[1].to_degrees()
    );
}
