//! The fit: the recorded drive replayed on a flat pad by the simulator with trial parameters,
//! its motion compared with the log's, and the parameters moved by Levenberg–Marquardt steps
//! until the comparison stops improving.
//!
//! The comparison is of *rates*, not positions: over windows of the log (0.25 s, half
//! overlapping) the yaw rate and the forward speed (body frame) of the log and of the
//! simulation. A position error would grow with the drive's length and weigh its end more
//! than its start; rates weigh every part of the drive alike. The yaw rate enters times half
//! the track gauge, so both residuals are belt-scale speeds, m/s.
//!
//! Parameters are searched as logarithms of their ratio to the robot file's value (all are
//! positive scale-like quantities), within the robot file's limits; the Jacobian by forward
//! differences of 2 % (a simulation per parameter per iteration, run on threads).

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use super::log::{unwrap_yaw, DriveLog, TrackInput};
use super::{CalibrateError, Parameter};
use crate::control::kinematic::PlanarPose;
use crate::envelope::{lanes, trials};
use crate::sim::SimConfig;
use crate::vehicle::{DriveCommand, RobotSpec};

/// Length of a comparison window, s.
pub const WINDOW: f64 = 0.25;
/// Time the robot settles on the pad before the log starts, s.
const SETTLE: f64 = 1.0;
/// Step of the forward differences, in log-parameter units (2 %).
const DIFFERENCE: f64 = 0.02;
/// Most Levenberg–Marquardt iterations.
const MAX_ITERATIONS: usize = 25;
/// The fit stops when an accepted step improves the cost by less than this share.
const CONVERGED: f64 = 1e-5;

/// The windows a log is compared over: pairs of row indices `(start, end)`, each spanning at
/// least [`WINDOW`], starting every half window.
pub fn windows(times: &[f64]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut start = 0;
    while start < times.len() {
        let Some(end) = (start..times.len()).find(|&j| times[j] >= times[start] + WINDOW) else {
            break;
        };
        pairs.push((start, end));
        let next = (start..times.len()).find(|&j| times[j] >= times[start] + 0.5 * WINDOW);
        start = next.unwrap_or(times.len()).max(start + 1);
    }
    pairs
}

/// Yaw rate (rad/s) and forward speed (m/s, along the mean heading) over each window.
pub fn rates(times: &[f64], poses: &[PlanarPose], windows: &[(usize, usize)]) -> Vec<(f64, f64)> {
    windows
        .iter()
        .map(|&(i, j)| {
            let (a, b) = (poses[i], poses[j]);
            let dt = times[j] - times[i];
            let heading = 0.5 * (a.yaw + b.yaw);
            let forward = (b.x - a.x) * heading.cos() + (b.y - a.y) * heading.sin();
            ((b.yaw - a.yaw) / dt, forward / dt)
        })
        .collect()
}

/// The log's drive replayed by `spec` on a flat pad of friction `mu`: the simulated pose at
/// each row's time, in the frame of the robot's start.
pub fn replay(
    spec: &RobotSpec,
    log: &DriveLog,
    config: &SimConfig,
    mu: f64,
) -> Result<Vec<PlanarPose>, CalibrateError> {
    let (mut sim, id) = trials::start(lanes::flat_pad(mu)?, spec, config)?;
    sim.run_for(SETTLE);
    let sides: Vec<bool> = spec.tracks.iter().map(|t| t.y >= 0.0).collect();
    let start = sim.time() - log.times[0];
    let half_step = 0.5 * sim.config().dt;
    // Measured belt speeds are where the belts must *be* at each row: over a row's interval
    // the motor is commanded the next row's speed, which it reaches by the interval's end
    // (commanded speeds are held from their row on, as the robot's controller held them).
    let lead = usize::from(log.input == TrackInput::Measured);
    let mut poses = Vec::with_capacity(log.times.len());
    for (k, t) in log.times.iter().enumerate() {
        let speeds = &log.speeds[(k + lead).min(log.speeds.len() - 1)];
        while sim.time() + half_step < start + t {
            sim.step();
        }
        let pose = sim.body_state(id).pose;
        let (_, _, yaw) = pose.rotation.euler_angles();
        poses.push(PlanarPose {
            x: pose.translation.x,
            y: pose.translation.y,
            yaw,
        });
        sim.set_command(id, side_command(&sides, speeds));
    }
    unwrap_yaw(&mut poses);
    Ok(poses)
}

/// The command of one row: the mean speed of the tracks on each side.
fn side_command(left_side: &[bool], speeds: &[f64]) -> DriveCommand {
    let mean = |left: bool| {
        let (sum, n) = left_side
            .iter()
            .zip(speeds)
            .filter(|(side, _)| **side == left)
            .fold((0.0, 0.0), |(s, n), (_, v)| (s + v, n + 1.0));
        if n > 0.0 {
            sum / n
        } else {
            0.0
        }
    };
    DriveCommand::belts(mean(true), mean(false))
}

/// What the fit compares: the log's rates over its windows, and the robot's half gauge
/// that turns a yaw rate into a belt-scale speed.
pub struct Target<'a> {
    /// The recorded drive.
    pub log: &'a DriveLog,
    /// The comparison windows.
    pub windows: Vec<(usize, usize)>,
    /// The log's yaw rate and forward speed per window.
    pub rates: Vec<(f64, f64)>,
    /// Half the track gauge, m.
    pub half_gauge: f64,
    /// Step and contact settings of the replays.
    pub config: SimConfig,
    /// Friction coefficient of the floor.
    pub mu: f64,
}

impl<'a> Target<'a> {
    /// The target of `log` for a robot of track gauge `gauge`, m.
    pub fn new(log: &'a DriveLog, gauge: f64, config: SimConfig, mu: f64) -> Self {
        let windows = windows(&log.times);
        let rates = rates(&log.times, &log.poses, &windows);
        Self {
            log,
            windows,
            rates,
            half_gauge: 0.5 * gauge,
            config,
            mu,
        }
    }

    /// Residuals of `spec` (m/s): per window, the yaw-rate error times the half gauge, then
    /// the forward-speed error.
    pub fn residuals(&self, spec: &RobotSpec) -> Result<DVector<f64>, CalibrateError> {
        let poses = replay(spec, self.log, &self.config, self.mu)?;
        let model = rates(&self.log.times, &poses, &self.windows);
        let mut r = DVector::zeros(2 * model.len());
        for (k, (m, l)) in model.iter().zip(&self.rates).enumerate() {
            r[2 * k] = (m.0 - l.0) * self.half_gauge;
            r[2 * k + 1] = m.1 - l.1;
        }
        if r.iter().all(|v| v.is_finite()) {
            Ok(r)
        } else {
            Err(CalibrateError::Diverged)
        }
    }

    /// Root mean square of the yaw-rate errors (rad/s) and of the speed errors (m/s).
    pub fn rms(&self, r: &DVector<f64>) -> (f64, f64) {
        let n = (r.len() / 2).max(1) as f64;
        let (mut yaw, mut speed) = (0.0, 0.0);
        for k in 0..r.len() / 2 {
            yaw += (r[2 * k] / self.half_gauge).powi(2);
            speed += r[2 * k + 1].powi(2);
        }
        ((yaw / n).sqrt(), (speed / n).sqrt())
    }
}

/// A fitted parameter set: values, their relative standard errors and the final residuals.
pub struct Solution {
    /// Fitted values, in the order asked.
    pub values: Vec<f64>,
    /// Relative standard error of each value (from the residuals' scatter and the Jacobian).
    pub relative_error: Vec<f64>,
    /// Residuals at the fitted values.
    pub residuals: DVector<f64>,
    /// Iterations taken.
    pub iterations: usize,
}

/// `spec` with `parameters` at `values`.
pub fn with_values(spec: &RobotSpec, parameters: &[Parameter], values: &[f64]) -> RobotSpec {
    let mut s = spec.clone();
    for (p, v) in parameters.iter().zip(values) {
        p.set(&mut s, *v);
    }
    s
}

/// Levenberg–Marquardt over `u = ln(value / start)`, each within its parameter's bounds.
pub fn solve(
    target: &Target<'_>,
    spec: &RobotSpec,
    parameters: &[Parameter],
) -> Result<Solution, CalibrateError> {
    let start: Vec<f64> = parameters.iter().map(|p| p.get(spec)).collect();
    let bounds: Vec<(f64, f64)> = parameters
        .iter()
        .zip(&start)
        .map(|(p, s)| {
            let (lo, hi) = p.bounds();
            ((lo / s).ln(), (hi / s).ln())
        })
        .collect();
    let values = |u: &DVector<f64>| -> Vec<f64> {
        start
            .iter()
            .zip(u.iter())
            .map(|(s, u)| s * u.exp())
            .collect()
    };
    let evaluate = |u: &DVector<f64>| target.residuals(&with_values(spec, parameters, &values(u)));
    let n = parameters.len();
    let mut u = DVector::zeros(n);
    let mut r = evaluate(&u)?;
    let mut cost = r.norm_squared();
    let mut lambda = 1e-2;
    let mut jacobian = DMatrix::zeros(r.len(), n);
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        jacobian = jacobian_at(&u, &r, &bounds, &evaluate)?;
        let normal = jacobian.transpose() * &jacobian;
        let gradient = jacobian.transpose() * &r;
        let mut improved = false;
        for _ in 0..8 {
            let mut damped = normal.clone();
            for k in 0..n {
                damped[(k, k)] += lambda * normal[(k, k)].max(1e-12);
            }
            let Some(step) = damped.lu().solve(&(-&gradient)) else {
                lambda *= 4.0;
                continue;
            };
            let trial = clamp(&(&u + step), &bounds);
            let trial_r = evaluate(&trial)?;
            let trial_cost = trial_r.norm_squared();
            if trial_cost < cost {
                let gain = (cost - trial_cost) / cost.max(f64::MIN_POSITIVE);
                u = trial;
                r = trial_r;
                cost = trial_cost;
                lambda = (lambda / 3.0).max(1e-6);
                improved = gain >= CONVERGED;
                break;
            }
            lambda *= 4.0;
        }
        if !improved {
            break;
        }
    }
    let relative_error = standard_errors(&jacobian, &r);
    Ok(Solution {
        values: values(&u),
        relative_error,
        residuals: r,
        iterations,
    })
}

/// Forward-difference Jacobian of the residuals at `u` (one replay per parameter, on
/// threads; a parameter at its upper bound is differenced downwards).
fn jacobian_at<F>(
    u: &DVector<f64>,
    r: &DVector<f64>,
    bounds: &[(f64, f64)],
    evaluate: &F,
) -> Result<DMatrix<f64>, CalibrateError>
where
    F: Fn(&DVector<f64>) -> Result<DVector<f64>, CalibrateError> + Sync,
{
    let columns: Vec<Result<DVector<f64>, CalibrateError>> = (0..u.len())
        .into_par_iter()
        .map(|k| {
            let h = if u[k] + DIFFERENCE > bounds[k].1 {
                -DIFFERENCE
            } else {
                DIFFERENCE
            };
            let mut shifted = u.clone();
            shifted[k] += h;
            Ok((evaluate(&shifted)? - r) / h)
        })
        .collect();
    let mut jacobian = DMatrix::zeros(r.len(), u.len());
    for (k, column) in columns.into_iter().enumerate() {
        jacobian.set_column(k, &column?);
    }
    Ok(jacobian)
}

fn clamp(u: &DVector<f64>, bounds: &[(f64, f64)]) -> DVector<f64> {
    DVector::from_iterator(
        u.len(),
        u.iter().zip(bounds).map(|(v, (lo, hi))| v.clamp(*lo, *hi)),
    )
}

/// Relative standard error of each parameter: the square root of the diagonal of
/// σ²·(JᵀJ)⁻¹ with σ² the residuals' variance (as u is a logarithm, its error is relative).
/// A parameter the log does not determine (a singular JᵀJ) gets infinity.
fn standard_errors(jacobian: &DMatrix<f64>, r: &DVector<f64>) -> Vec<f64> {
    let n = jacobian.ncols();
    let dof = (r.len().saturating_sub(n)).max(1) as f64;
    let variance = r.norm_squared() / dof;
    let normal = jacobian.transpose() * jacobian;
    match normal.clone().try_inverse() {
        Some(inverse) => (0..n)
            .map(|k| {
                let v = variance * inverse[(k, k)];
                if v.is_finite() && v >= 0.0 && normal[(k, k)] > 0.0 {
                    v.sqrt()
                } else {
                    f64::INFINITY
                }
            })
            .collect(),
        None => vec![f64::INFINITY; n],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_span_a_quarter_second_every_eighth() {
        let times: Vec<f64> = (0..101).map(|i| i as f64 * 0.01).collect();
        let w = windows(&times);
        assert_eq!(w[0], (0, 25));
        assert_eq!(w[1].0, 13);
        assert!(w
            .iter()
            .all(|&(i, j)| times[j] - times[i] >= WINDOW - 1e-12));
        // The tail after the last window's start is shorter than a window.
        assert!(times[100] - times[w.last().unwrap().0] < WINDOW + 0.125);
    }

    #[test]
    fn rates_of_a_circle_are_its_yaw_rate_and_speed() {
        // 0.5 m/s on a 1 m radius circle: 0.5 rad/s.
        let times: Vec<f64> = (0..201).map(|i| i as f64 * 0.01).collect();
        let poses: Vec<PlanarPose> = times
            .iter()
            .map(|t| PlanarPose {
                x: (0.5 * t).sin(),
                y: 1.0 - (0.5 * t).cos(),
                yaw: 0.5 * t,
            })
            .collect();
        for (w, v) in rates(&times, &poses, &windows(&times)) {
            assert!((w - 0.5).abs() < 1e-9, "{w}");
            // The chord of a 0.125 rad arc is shorter than the arc by 0.07 %.
            assert!((v - 0.5).abs() < 0.5 * 1e-3, "{v}");
        }
    }
}
