//! Issue 40's turning measurements that the model does not meet yet, kept as ignored
//! acceptance tests so the work that changes the contact law can run them
//! (`cargo test --release --no-default-features --test turning -- --ignored --nocapture`).

mod common;

use common::robot;
use treadsim::envelope::{lanes, trials};
use treadsim::sim::SimConfig;
use treadsim::vehicle::DriveCommand;

/// Steady belt speeds (m/s, left and right, measured), yaw rate (rad/s) and forward speed
/// (m/s, body x) of robot `name` on a flat pad of friction `mu` with the belts commanded to
/// `left` / `right` m/s: 3 s to steady state, then the mean over 1 s.
fn steady_turn(
    name: &str,
    mu: f64,
    (left, right): (f64, f64),
    config: &SimConfig,
) -> ([f64; 2], f64, f64) {
    let spec = robot(name);
    let (mut sim, id) =
        trials::start(lanes::flat_pad(mu).expect("pad"), &spec, config).expect("robot");
    sim.run_for(0.5);
    sim.set_command(id, DriveCommand::belts(left, right));
    sim.run_for(3.0);
    let steps = (1.0 / config.dt).round() as usize;
    let (mut belts, mut yaw_rate, mut forward) = ([0.0; 2], 0.0, 0.0);
    for _ in 0..steps {
        sim.step();
        let body = sim.body_state(id);
        yaw_rate += body.angvel.z / steps as f64;
        forward += (body.pose.rotation.inverse() * body.linvel).x / steps as f64;
        for (d, belt) in belts.iter_mut().enumerate() {
            *belt += sim.robot(id).drive_speed(d) / steps as f64;
        }
    }
    (belts, yaw_rate, forward)
}

/// The exponent n of Endo et al.'s fit |s_l / s_r| = |v_r / v_l|^n of the two tracks' slip
/// ratios s = (v_belt − v_ground)/v_belt, robot `name` on friction `mu` under `config`: least
/// squares on the logarithms over belt-speed ratios from pivoting to gentle turns, the right
/// belt at 0.5 m/s.
fn slip_exponent(name: &str, mu: f64, config: &SimConfig) -> f64 {
    let spec = robot(name);
    let (y_left, y_right) = (spec.tracks[0].y, spec.tracks[1].y);
    let points: Vec<(f64, f64)> = [-1.0, -0.5, -0.25, 0.1, 0.25, 0.5, 0.75]
        .iter()
        .map(|ratio| {
            let ([left, right], yaw_rate, forward) =
                steady_turn(name, mu, (0.5 * ratio, 0.5), config);
            let slip = |belt: f64, y: f64| (belt - (forward - yaw_rate * y)) / belt;
            let ratio_of_slips = slip(left, y_left) / slip(right, y_right);
            ((right / left).abs().ln(), ratio_of_slips.abs().ln())
        })
        .collect();
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let variance: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    covariance / variance
}

/// Endo, Okada, Nagatani & Yoshida (IROS 2007, a 25 kg tracked robot under motion capture) fit
/// the ratio of the two tracks' slip ratios as −sgn(v_l·v_r)·|v_r/v_l|^n: n = 0.48 on
/// P-tile and 0.62 on plywood (read from secondary sources; the paper's own text could not be
/// read here; the surfaces' μ below are estimates). Issue 40 asks for n within 0.15 of each.
///
/// Ignored because the default law misses it: any friction law that depends only on how fast
/// the belt slides over the ground gives a symmetric robot n = 1 (equal and opposite
/// longitudinal forces need equal and opposite slip speeds, whatever the lateral slip), and
/// rolling resistance lowers it a little: scout 0.96 (μ 0.6) and 0.98 (μ 0.8), tracker55 0.94
/// and 0.96. With the wheel patches renewed by the belt's motion (`FrictionConfig::
/// wheel_patch_renewal`, shear displacement s·x under each wheel, `track::friction`), measured
/// 2026-12-02: scout 0.58 / 0.48, tracker55 0.83 / 0.72; this test asserts that law.
#[test]
#[ignore = "issue 40: the default law gives n ≈ 0.94-0.98; the renewal law is not the default yet"]
fn slip_ratio_exponent_matches_endo_et_al_on_tile_and_plywood() {
    let coulomb = SimConfig::default();
    let mut renewal = SimConfig::default();
    renewal.friction.wheel_patch_renewal = true;
    let mut misses = Vec::new();
    for name in ["scout", "tracker55"] {
        for (surface, mu, measured) in [("P-tile", 0.6, 0.48), ("plywood", 0.8, 0.62)] {
            let plain = slip_exponent(name, mu, &coulomb);
            let n = slip_exponent(name, mu, &renewal);
            println!(
                "{name} on {surface} (μ {mu}): n = {n:.3} with wheel patches renewed, \
                 {plain:.3} without; Endo et al. {measured}"
            );
            if (n - measured).abs() > 0.15 {
                misses.push(format!("{name} {surface}: {n:.3} vs {measured}"));
            }
        }
    }
    assert!(misses.is_empty(), "beyond 0.15: {misses:?}");
}
