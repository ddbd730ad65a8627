//! `treadsim calibrate`: a robot file's turning-related parameters fitted to a real robot's
//! recorded drive.
//!
//! A trainee learns how far the robot turns for a given stick; the simulated robot must turn
//! as the real one does. How fast a skid-steered robot turns for given belt speeds is set by
//! its contact loads along the tracks (geometry and centre of mass, which are measured, not
//! fitted) and by what the belts meet sliding sideways and rolling, and what its motors
//! deliver. Those last are hard to measure directly and are what this fits:
//! - `lateral_friction_scale`: the belt's resistance to sliding sideways over sliding along,
//!   on the log's floor (a tread pattern or grousers resist sideways more);
//! - `rolling_resistance`: the belt's motion resistance coefficient f_r;
//! - `max_acceleration`, `max_torque`, `max_speed`: the drive motors' limits (only with
//!   commanded speeds in the log: measured belt speeds already include what the motor did).
//!
//! The log ([`log`]) is replayed by the simulator on a flat pad ([`fit`]), its yaw rate and
//! forward speed compared with the log's window by window, and the parameters fitted by
//! Levenberg–Marquardt; the result is written into a copy of the robot file ([`write`](mod@write)).
//! A parameter the log does not determine (its standard error above
//! [`UNDETERMINED`] of its value) keeps the file's value and is reported as such: drive turns
//! of several radii and a pivot to determine the friction, starts and stops for the
//! acceleration, full-stick pivots for the torque.

pub mod bag;
pub mod fit;
pub mod log;
pub mod write;

use std::fmt;
use std::path::PathBuf;

use crate::config::ConfigError;
use crate::envelope::EnvelopeError;
use crate::sim::{SimConfig, SimError};
use crate::vehicle::RobotSpec;

pub use log::{DriveLog, TrackInput};

/// A fitted parameter whose relative standard error exceeds this keeps the file's value.
pub const UNDETERMINED: f64 = 0.25;

/// A robot-file parameter `treadsim calibrate` can fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parameter {
    /// `lateral_friction_scale` of every belt (main tracks and flippers), dimensionless.
    LateralFriction,
    /// `rolling_resistance` of every belt, dimensionless.
    RollingResistance,
    /// `max_acceleration` of every main track's motor, m/s².
    MaxAcceleration,
    /// `max_torque` of every main track's motor, N·m.
    MaxTorque,
    /// `max_speed` of every main track's motor, m/s.
    MaxSpeed,
}

impl Parameter {
    /// Every parameter, in the order the report lists them.
    pub const ALL: [Parameter; 5] = [
        Parameter::LateralFriction,
        Parameter::RollingResistance,
        Parameter::MaxAcceleration,
        Parameter::MaxTorque,
        Parameter::MaxSpeed,
    ];

    /// The parameters fitted when none are named: the belts' two and the motor's
    /// acceleration (commanded logs) or the belts' two (measured).
    pub fn defaults(input: TrackInput) -> Vec<Parameter> {
        match input {
            TrackInput::Commanded => vec![
                Parameter::LateralFriction,
                Parameter::RollingResistance,
                Parameter::MaxAcceleration,
            ],
            TrackInput::Measured => vec![Parameter::LateralFriction, Parameter::RollingResistance],
        }
    }

    /// The robot file's key.
    pub fn key(self) -> &'static str {
        match self {
            Parameter::LateralFriction => "lateral_friction_scale",
            Parameter::RollingResistance => "rolling_resistance",
            Parameter::MaxAcceleration => "max_acceleration",
            Parameter::MaxTorque => "max_torque",
            Parameter::MaxSpeed => "max_speed",
        }
    }

    /// The parameter of robot-file key `key`.
    pub fn from_key(key: &str) -> Option<Parameter> {
        Parameter::ALL.into_iter().find(|p| p.key() == key)
    }

    /// Whether it belongs to the drive motors (else to the belts).
    pub fn is_motor(self) -> bool {
        matches!(
            self,
            Parameter::MaxAcceleration | Parameter::MaxTorque | Parameter::MaxSpeed
        )
    }

    /// The range searched: the robot file's limits, kept off zero (values are searched as
    /// logarithms).
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Parameter::LateralFriction => (0.05, 10.0),
            Parameter::RollingResistance => (1e-4, 1.0),
            Parameter::MaxAcceleration => (0.01, 1000.0),
            Parameter::MaxTorque => (1e-3, 1.0e6),
            Parameter::MaxSpeed => (1e-3, 100.0),
        }
    }

    /// The value in `spec`: its first main track's (the mean would hide a file whose tracks
    /// differ; the fit sets them all alike).
    pub fn get(self, spec: &RobotSpec) -> f64 {
        let Some(track) = spec.tracks.first() else {
            return 0.0;
        };
        match self {
            Parameter::LateralFriction => track.belt.lateral_friction_scale,
            Parameter::RollingResistance => track.belt.rolling_resistance,
            Parameter::MaxAcceleration => track.motor.max_acceleration,
            Parameter::MaxTorque => track.motor.max_torque,
            Parameter::MaxSpeed => track.motor.max_speed,
        }
    }

    /// Sets it on every main track (and, for a belt parameter, every flipper's belt: one belt
    /// material).
    pub fn set(self, spec: &mut RobotSpec, value: f64) {
        for track in &mut spec.tracks {
            match self {
                Parameter::LateralFriction => track.belt.lateral_friction_scale = value,
                Parameter::RollingResistance => track.belt.rolling_resistance = value,
                Parameter::MaxAcceleration => track.motor.max_acceleration = value,
                Parameter::MaxTorque => track.motor.max_torque = value,
                Parameter::MaxSpeed => track.motor.max_speed = value,
            }
        }
        for flipper in &mut spec.flippers {
            match self {
                Parameter::LateralFriction => flipper.belt.lateral_friction_scale = value,
                Parameter::RollingResistance => flipper.belt.rolling_resistance = value,
                _ => {}
            }
        }
    }
}

/// What went wrong in a calibration.
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    /// The robot file, the log or the generated pad did not load.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The simulation refused the robot.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The robot could not be put on the pad.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The robot is wheeled (calibration fits tracked robots).
    #[error("{0}: calibrate fits tracked robots; this one has wheels")]
    Wheeled(String),
    /// A parameter was named that the log cannot fit.
    #[error("{0}")]
    Parameter(String),
    /// A replay produced a non-finite motion (a parameter far outside what the robot holds).
    #[error("a replay of the log diverged (a parameter far out of range)")]
    Diverged,
    /// The calibrated file could not be written.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// What to calibrate and how.
#[derive(Debug, Clone)]
pub struct CalibrateOptions {
    /// The parameters to fit; empty: [`Parameter::defaults`] for the log.
    pub parameters: Vec<Parameter>,
    /// Friction coefficient of the floor the log was driven on.
    pub mu: f64,
    /// Step and contact settings of the replays.
    pub config: SimConfig,
}

/// One parameter's line of the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// Which.
    pub parameter: Parameter,
    /// The robot file's value.
    pub before: f64,
    /// The fitted value (the file's when undetermined).
    pub after: f64,
    /// Relative standard error of the fit.
    pub relative_error: f64,
    /// Whether the log determines it (error at most [`UNDETERMINED`]).
    pub determined: bool,
}

/// A calibration's result.
#[derive(Debug, Clone)]
pub struct Calibration {
    /// The robot file's name for it.
    pub robot: String,
    /// Rows of the log and the windows compared.
    pub rows: usize,
    /// Comparison windows.
    pub windows: usize,
    /// Log duration, s.
    pub duration: f64,
    /// The parameters.
    pub fitted: Vec<Fitted>,
    /// RMS yaw-rate error (rad/s) and speed error (m/s) with the file's values.
    pub before: (f64, f64),
    /// The same with the fitted values.
    pub after: (f64, f64),
    /// Levenberg–Marquardt iterations.
    pub iterations: usize,
    /// The robot with the fitted values.
    pub spec: RobotSpec,
}

/// Fits `options.parameters` of `spec` to `log`.
pub fn calibrate(
    spec: &RobotSpec,
    log: &DriveLog,
    options: &CalibrateOptions,
) -> Result<Calibration, CalibrateError> {
    if spec.is_wheeled() {
        return Err(CalibrateError::Wheeled(spec.name.clone()));
    }
    let parameters = if options.parameters.is_empty() {
        Parameter::defaults(log.input)
    } else {
        options.parameters.clone()
    };
    if log.input == TrackInput::Measured {
        if let Some(p) = parameters.iter().find(|p| p.is_motor()) {
            return Err(CalibrateError::Parameter(format!(
                "{} needs the commanded speeds (<track>_command columns): the log has measured \
                 belt speeds, which already include what the motor did",
                p.key()
            )));
        }
    }
    let target = fit::Target::new(log, spec.track_gauge(), options.config, options.mu);
    let before = target.rms(&target.residuals(spec)?);
    let solution = fit::solve(&target, spec, &parameters)?;
    let fitted: Vec<Fitted> = parameters
        .iter()
        .zip(solution.values.iter().zip(&solution.relative_error))
        .map(|(&parameter, (&value, &error))| {
            let determined = error <= UNDETERMINED;
            let before = parameter.get(spec);
            Fitted {
                parameter,
                before,
                after: if determined { value } else { before },
                relative_error: error,
                determined,
            }
        })
        .collect();
    let kept: Vec<f64> = fitted.iter().map(|f| f.after).collect();
    let calibrated = fit::with_values(spec, &parameters, &kept);
    let after_residuals = if kept == solution.values {
        solution.residuals.clone()
    } else {
        target.residuals(&calibrated)?
    };
    Ok(Calibration {
        robot: spec.name.clone(),
        rows: log.times.len(),
        windows: target.windows.len(),
        duration: log.duration(),
        fitted,
        before,
        after: target.rms(&after_residuals),
        iterations: solution.iterations,
        spec: calibrated,
    })
}

impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} rows, {:.1} s, {} windows of {} s; {} iterations",
            self.robot,
            self.rows,
            self.duration,
            self.windows,
            fit::WINDOW,
            self.iterations
        )?;
        writeln!(
            f,
            "{:<24} {:>12} {:>12} {:>10}",
            "parameter", "file", "fitted", "std error"
        )?;
        for p in &self.fitted {
            let note = if p.determined {
                ""
            } else {
                "  not determined by this log: kept"
            };
            writeln!(
                f,
                "{:<24} {:>12.5} {:>12.5} {:>9.1}%{note}",
                p.parameter.key(),
                p.before,
                p.after,
                100.0 * p.relative_error
            )?;
        }
        writeln!(
            f,
            "residual RMS: yaw rate {:.4} -> {:.4} rad/s, speed {:.4} -> {:.4} m/s",
            self.before.0, self.after.0, self.before.1, self.after.1
        )
    }
}
