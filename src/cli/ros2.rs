//! The `--ros2` options a seat or the station takes: joining the ROS 2 graph over
//! Zenoh as rmw_zenoh nodes do.

use treadsim::interop::ros2::{RosOptions, DEFAULT_ROUTER};

/// How to join the ROS 2 graph.
#[derive(clap::Args, Clone, Debug)]
pub struct RosArgs {
    /// Be a ROS 2 node (rmw_zenoh's conventions, Jazzy and later): /cmd_vel,
    /// /flippers/target, /enable, /arm/joint_trajectory and /gripper/force drive the robot;
    /// /odom, /imu, /joint_states, /tf, /clock and /diagnostics are published.
    #[arg(long)]
    pub ros2: bool,
    /// ROS domain id.
    #[arg(long, default_value_t = 0, requires = "ros2")]
    pub ros_domain: u32,
    /// The Zenoh router ROS 2 nodes use (repeatable) [default: tcp/127.0.0.1:7447, as
    /// rmw_zenoh expects].
    #[arg(long, requires = "ros2")]
    pub ros_connect: Vec<String>,
    /// Run the Zenoh router here, listening on this endpoint (e.g. tcp/127.0.0.1:7447), for a
    /// machine without `zenohd` or `ros2 run rmw_zenoh_cpp rmw_zenohd`.
    #[arg(long, requires = "ros2")]
    pub ros_router: Option<String>,
    /// A velocity command older than this stops the robot, s.
    #[arg(long, default_value_t = 0.5, requires = "ros2")]
    pub ros_timeout: f64,
    /// A Zenoh configuration file (JSON5) for the ROS 2 session: TLS or user/password for a
    /// site router (docs/ros2.md); the options above are set over it.
    #[arg(long, requires = "ros2")]
    pub ros_zenoh_config: Option<std::path::PathBuf>,
    /// Onboard camera frames per second as /<camera>/image_raw/compressed (JPEG, 320×240,
    /// through the link's rate cap, latency and faults); 0: none.
    #[arg(long, default_value_t = 10.0, requires = "ros2")]
    pub ros_camera_fps: f64,
}

impl RosArgs {
    /// The node's options, if `--ros2` was given.
    pub fn options(&self) -> anyhow::Result<Option<RosOptions>> {
        if !self.ros2 {
            return Ok(None);
        }
        if !(self.ros_timeout.is_finite() && self.ros_timeout > 0.0 && self.ros_timeout <= 10.0) {
            anyhow::bail!(
                "--ros-timeout must be more than 0 and at most 10 s, got {}",
                self.ros_timeout
            );
        }
        if !(self.ros_camera_fps.is_finite() && (0.0..=60.0).contains(&self.ros_camera_fps)) {
            anyhow::bail!(
                "--ros-camera-fps must be 0 to 60, got {}",
                self.ros_camera_fps
            );
        }
        if self.ros_domain > 232 {
            anyhow::bail!("--ros-domain must be 0 to 232, got {}", self.ros_domain);
        }
        let mut options = RosOptions {
            domain: self.ros_domain,
            command_timeout: self.ros_timeout,
            // Frames need the viewer's renderer.
            cameras: cfg!(feature = "viewer") && self.ros_camera_fps > 0.0,
            zenoh_config: self.ros_zenoh_config.clone(),
            ..RosOptions::default()
        };
        match &self.ros_router {
            Some(listen) => {
                options.router = true;
                options.listen = vec![listen.clone()];
                options.connect = self.ros_connect.clone();
            }
            None if self.ros_connect.is_empty() => {
                options.connect = vec![DEFAULT_ROUTER.to_owned()];
            }
            None => options.connect = self.ros_connect.clone(),
        }
        Ok(Some(options))
    }
}
