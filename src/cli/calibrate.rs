//! `treadsim calibrate`: fits a robot file's turning-related parameters to a real robot's
//! recorded drive, prints the fit and writes the calibrated robot file.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use treadsim::config::SourceFile;
use treadsim::tools::calibrate::{calibrate, write, CalibrateOptions, DriveLog, Parameter};
use treadsim::vehicle::robot_file::robot_from_source;

/// Arguments of `treadsim calibrate`.
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// The robot file (TOML) to calibrate, e.g. scenes/robots/scout.toml.
    #[arg(long)]
    robot: PathBuf,
    /// The recorded drive, CSV with a header: t (s), x, y (m), yaw (rad) and per main track
    /// `<track>_command` (commanded belt speed, m/s) or `<track>_belt_speed` (measured);
    /// other columns are ignored, so `treadsim run`'s telemetry is a log too. Or a ROS 2 bag in
    /// MCAP (`ros2 bag record -s mcap`) with the robot's nav_msgs/msg/Odometry and the
    /// geometry_msgs/msg/Twist (or TwistStamped) commands its drive was given, or without them
    /// its sprockets' sensor_msgs/msg/JointState.
    #[arg(long)]
    log: PathBuf,
    /// Parameters to fit, comma-separated robot-file keys: lateral_friction_scale,
    /// rolling_resistance, max_acceleration, max_torque, max_speed [default: the first three
    /// with commanded speeds, the first two with measured].
    #[arg(long, value_delimiter = ',')]
    fit: Vec<String>,
    /// Friction coefficient of the floor the log was driven on.
    #[arg(long, default_value_t = 0.8, allow_negative_numbers = true)]
    mu: f64,
    /// Where to write the calibrated robot file [default: beside the log,
    /// `<robot>.calibrated.toml`].
    #[arg(long)]
    out: Option<PathBuf>,
    /// The physics step and contact solve of the replays.
    #[command(flatten)]
    step: super::StepArgs,
}

/// Runs `treadsim calibrate`.
pub fn calibrate_command(a: &CalibrateArgs) -> anyhow::Result<()> {
    if !(a.mu.is_finite() && a.mu > 0.0 && a.mu <= 5.0) {
        bail!("--mu must be above 0 and at most 5, got {}", a.mu);
    }
    let parameters = a
        .fit
        .iter()
        .map(|key| {
            Parameter::from_key(key.trim()).with_context(|| {
                let known: Vec<&str> = Parameter::ALL.iter().map(|p| p.key()).collect();
                format!("--fit: no parameter '{key}' (have: {})", known.join(", "))
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let source = SourceFile::read(&a.robot)?;
    let spec = robot_from_source(&source)?;
    let log = DriveLog::read(&a.log, &spec)?;
    let options = CalibrateOptions {
        parameters,
        mu: a.mu,
        config: a.step.sim_config()?,
    };
    let calibration = calibrate(&spec, &log, &options)?;
    print!("{calibration}");
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| default_out(&a.robot, &a.log));
    let text = write::calibrated_text(source.text(), &a.robot, &calibration, &a.log)?;
    std::fs::write(&out, text).with_context(|| format!("cannot write {}", out.display()))?;
    println!("calibrated robot file: {}", out.display());
    Ok(())
}

/// `<robot stem>.calibrated.toml` in the log's folder.
fn default_out(robot: &Path, log: &Path) -> PathBuf {
    let stem = robot
        .file_stem()
        .map_or_else(|| "robot".into(), |s| s.to_string_lossy().into_owned());
    log.parent()
        .unwrap_or(Path::new("."))
        .join(format!("{stem}.calibrated.toml"))
}
