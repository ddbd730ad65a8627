//! The `--foxglove` options a seat or the station takes: serving the session live to Foxglove.

use treadsim::interop::foxglove::{FoxgloveOptions, DEFAULT_ADDRESS};

/// How to serve the session to Foxglove.
#[derive(clap::Args, Clone, Debug)]
pub struct FoxgloveArgs {
    /// Serve the session live to Foxglove (its WebSocket protocol) on ADDR [default:
    /// 127.0.0.1:8765, loopback only; give 0.0.0.0:8765 for other machines]: the robot in 3D,
    /// its cameras, telemetry and events.
    #[arg(long, num_args = 0..=1, default_missing_value = DEFAULT_ADDRESS, value_name = "ADDR")]
    pub foxglove: Option<String>,
    /// Let Foxglove clients drive (Foxglove's Teleop panel on /cmd_vel; /flippers/target,
    /// /enable): off unless given.
    #[arg(long, requires = "foxglove")]
    pub foxglove_teleop: bool,
    /// A teleoperation command older than this stops the robot, s.
    #[arg(long, default_value_t = 1.0, requires = "foxglove_teleop")]
    pub foxglove_timeout: f64,
    /// Onboard camera pictures per second for Foxglove (JPEG, 320×240, through the link's rate
    /// cap, latency and faults; rendered off-screen, beside a station's own views); 0: none.
    #[arg(long, default_value_t = 10.0, requires = "foxglove")]
    pub foxglove_camera_fps: f64,
}

impl FoxgloveArgs {
    /// The server's options, if `--foxglove` was given.
    pub fn options(&self) -> anyhow::Result<Option<FoxgloveOptions>> {
        let Some(address) = &self.foxglove else {
            return Ok(None);
        };
        if !(self.foxglove_timeout.is_finite()
            && self.foxglove_timeout > 0.0
            && self.foxglove_timeout <= 10.0)
        {
            anyhow::bail!(
                "--foxglove-timeout must be more than 0 and at most 10 s, got {}",
                self.foxglove_timeout
            );
        }
        if !(self.foxglove_camera_fps.is_finite()
            && (0.0..=60.0).contains(&self.foxglove_camera_fps))
        {
            anyhow::bail!(
                "--foxglove-camera-fps must be 0 to 60, got {}",
                self.foxglove_camera_fps
            );
        }
        let mut options = FoxgloveOptions::at(address)?;
        options.teleop = self.foxglove_teleop;
        options.command_timeout = self.foxglove_timeout;
        Ok(Some(options))
    }
}
