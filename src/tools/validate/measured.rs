//! Cases against measurements of real tracked robots on hard floors (issue 40): how fast a
//! robot turns for given belt speeds, and how the two tracks' slips share a turn.
//!
//! Unlike the steady-turn rows of [`super::cases`], which check the model against an
//! equilibrium solved on its own contact loads, these compare it with what real robots did:
//! a trainee who learns how far a stick turns the robot carries that to the real machine.
//! The robot files stand in for the measured robots' geometry and mass (their headers say
//! which figures are the maker's and which are estimates), the surfaces' μ are estimates.
//!
//! Not in `treadsim validate`'s table yet: the default law misses them (slip-ratio exponent
//! 0.96–0.98 against 0.48/0.62, the Flipper 36 % fast) and the law that meets them on the scout
//! and the Flipper (`FrictionConfig::wheel_patch_renewal`) stalls robots on stairs, so
//! `tests/turning.rs` runs them as ignored acceptance tests until a law meets both.

use crate::envelope::{lanes, trials};
use crate::sim::SimConfig;
use crate::vehicle::{DriveCommand, RobotSpec};

use super::{Check, Row, ValidateError};

/// Settling time on the pad before the belts are commanded, s.
const SETTLE: f64 = 0.5;
/// Time from the command to the measured second, s: the turn is steady by then.
const TO_STEADY: f64 = 3.0;
/// Time the steady turn is averaged over, s.
const MEASURED: f64 = 1.0;

/// A robot's steady turn on a flat pad: belt speeds as the model reached them (m/s, left
/// and right drives), yaw rate (rad/s, world z) and forward speed (m/s, body x), each the
/// mean over the measured second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SteadyTurn {
    /// The left and right belts' speeds, m/s.
    pub belts: [f64; 2],
    /// Yaw rate, rad/s (positive turns left).
    pub yaw_rate: f64,
    /// Forward speed, m/s, body x.
    pub forward: f64,
}

/// `spec` on a flat pad of friction `mu` with its belts commanded to `left` / `right` m/s:
/// half a second at rest, 3 s to a steady turn, then the mean over 1 s.
pub fn steady_turn(
    spec: &RobotSpec,
    config: &SimConfig,
    mu: f64,
    (left, right): (f64, f64),
) -> Result<SteadyTurn, ValidateError> {
    let (mut sim, id) = trials::start(lanes::flat_pad(mu)?, spec, config)?;
    sim.run_for(SETTLE);
    sim.set_command(id, DriveCommand::belts(left, right));
    sim.run_for(TO_STEADY);
    let steps = (MEASURED / config.dt).round().max(1.0) as usize;
    let share = 1.0 / steps as f64;
    let mut turn = SteadyTurn {
        belts: [0.0; 2],
        yaw_rate: 0.0,
        forward: 0.0,
    };
    for _ in 0..steps {
        sim.step();
        let body = sim.body_state(id);
        turn.yaw_rate += body.angvel.z * share;
        turn.forward += (body.pose.rotation.inverse() * body.linvel).x * share;
        for (drive, belt) in turn.belts.iter_mut().enumerate() {
            *belt += sim.robot(id).drive_speed(drive) * share;
        }
    }
    Ok(turn)
}

/// Belt-speed ratios v_l / v_r of the exponent fit, right belt at [`EXPONENT_BELT`]: from a
/// pivot to a gentle turn, as Endo et al. drove.
pub const EXPONENT_RATIOS: [f64; 7] = [-1.0, -0.5, -0.25, 0.1, 0.25, 0.5, 0.75];
/// The right belt's speed in the exponent fit, m/s.
pub const EXPONENT_BELT: f64 = 0.5;

/// The exponent n of Endo et al.'s fit |s_l / s_r| = |v_r / v_l|^n of the two main tracks'
/// slip ratios s = (v_belt − v_ground)/v_belt, `spec` on friction `mu`: least squares on the
/// logarithms over [`EXPONENT_RATIOS`]. Any friction law of the slip speed alone gives a
/// symmetric robot n = 1 (equal and opposite longitudinal forces need equal and opposite
/// slip speeds); measured robots have n ≈ 0.5.
pub fn slip_exponent(spec: &RobotSpec, config: &SimConfig, mu: f64) -> Result<f64, ValidateError> {
    let (y_left, y_right) = (spec.tracks[0].y, spec.tracks[1].y);
    let mut points = Vec::with_capacity(EXPONENT_RATIOS.len());
    for ratio in EXPONENT_RATIOS {
        let turn = steady_turn(spec, config, mu, (EXPONENT_BELT * ratio, EXPONENT_BELT))?;
        let [left, right] = turn.belts;
        let slip = |belt: f64, y: f64| (belt - (turn.forward - turn.yaw_rate * y)) / belt;
        let ratio_of_slips = slip(left, y_left) / slip(right, y_right);
        points.push(((right / left).abs().ln(), ratio_of_slips.abs().ln()));
    }
    Ok(least_squares_slope(&points))
}

/// The slope of the least-squares line through `points` (x, y).
fn least_squares_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let covariance: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let variance: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    covariance / variance
}

/// Endo et al.'s surfaces: name, our estimate of its μ against a rubber track, and the
/// measured slip-ratio exponent.
pub const ENDO_SURFACES: [(&str, f64, f64); 2] = [("P-tile", 0.6, 0.48), ("plywood", 0.8, 0.62)];
/// How far the model's exponent may lie from the measured one (issue 40).
pub const EXPONENT_TOLERANCE: f64 = 0.15;

/// The slip-ratio exponent rows: `spec` (a stand-in for Endo et al.'s 25 kg robot, whose
/// geometry we do not have) on each of [`ENDO_SURFACES`].
pub fn exponent_rows(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let mut rows = Vec::new();
    for (surface, mu, measured) in ENDO_SURFACES {
        let n = slip_exponent(spec, config, mu)?;
        rows.push(Row::new(
            "measured robots",
            &spec.name,
            format!("slip-ratio exponent n on {surface} (μ {mu}, an estimate)"),
            "",
            (n, measured),
            Check::Absolute(EXPONENT_TOLERANCE),
            "endo",
        ));
    }
    Ok(rows)
}

/// The belt speeds Rover Robotics' driver sends its Flipper for 0.5 m/s and 0.5 rad/s, m/s
/// (left, right).
#[allow(clippy::approx_constant)] // 0.318 m/s is the driver's figure, not 1/π
pub const FLIPPER_BELTS: (f64, f64) = (0.318, 0.682);
/// The maker's odometry for the Flipper: yaw rate = 0.75 (`ODOM_TRACTION_FACTOR_F`) ×
/// 0.5 / 10.75 in (`ODOM_ANGULAR_COEF_F`) × (v_r − v_l), rad/s per m/s.
pub const FLIPPER_ODOMETRY_GAIN: f64 = 0.75 * 0.5 / (10.75 * 0.0254);
/// How far the model's yaw rate may lie from the maker's, as a share (issue 40).
pub const FLIPPER_TOLERANCE: f64 = 0.15;

/// The Flipper circle: `spec` (flipper11) at [`FLIPPER_BELTS`] on a hard floor (the lanes'
/// μ 0.8), its steady yaw rate against the maker's tuned odometry.
pub fn flipper_rows(spec: &RobotSpec, config: &SimConfig) -> Result<Vec<Row>, ValidateError> {
    let (left, right) = FLIPPER_BELTS;
    let turn = steady_turn(spec, config, lanes::LANE_FRICTION, FLIPPER_BELTS)?;
    Ok(vec![Row::new(
        "measured robots",
        &spec.name,
        format!("yaw rate, belts {left}/{right} m/s (μ 0.8)"),
        "rad/s",
        (turn.yaw_rate, FLIPPER_ODOMETRY_GAIN * (right - left)),
        Check::Relative(FLIPPER_TOLERANCE),
        "roverodom",
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_squares_slope_of_a_power_law_is_its_exponent() {
        // |s_l/s_r| = |v_r/v_l|^0.5 exactly: the fit returns 0.5.
        let points: Vec<(f64, f64)> = [0.2f64, 0.5, 1.0, 2.0, 3.0]
            .iter()
            .map(|x| (x.ln(), 0.5 * x.ln() + 0.1))
            .collect();
        assert!((least_squares_slope(&points) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_makers_odometry_gives_half_a_radian_a_second_for_its_own_command() {
        // The driver turned 0.5 m/s and 0.5 rad/s into 0.318 / 0.682 m/s with the same gain.
        let (left, right) = FLIPPER_BELTS;
        let yaw = FLIPPER_ODOMETRY_GAIN * (right - left);
        assert!((yaw - 0.5).abs() < 0.001, "{yaw}");
    }
}
