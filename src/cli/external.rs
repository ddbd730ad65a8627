//! The programs beside a seat or the station: a ROS 2 node (`--ros2`) and a Foxglove server
//! (`--foxglove`). Either may operate the robot (ROS 2 always; Foxglove with
//! `--foxglove-teleop`; one operator at a time), and both see the session after every tick or
//! frame to publish its state and the onboard cameras' pictures.

#[cfg(feature = "ros2")]
use std::sync::{Arc, Mutex};
#[cfg(feature = "foxglove")]
use treadsim::interop::foxglove::FoxgloveServer;
#[cfg(feature = "ros2")]
use treadsim::interop::ros2::RosNode;

use treadsim::session::{Driver, Session};
use treadsim::vehicle::RobotSpec;

/// Makes the external operator's driver for each session of a robot (sent to the seat's
/// trials).
pub type OperatorMaker = Box<dyn Fn(&RobotSpec) -> Box<dyn Driver> + Send>;

#[cfg(feature = "ros2")]
fn lock(node: &Mutex<RosNode>) -> std::sync::MutexGuard<'_, RosNode> {
    node.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The `--ros2` and `--foxglove` options.
#[derive(clap::Args, Clone, Debug)]
pub struct ExternalArgs {
    /// A ROS 2 control unit as the operator.
    #[cfg(feature = "ros2")]
    #[command(flatten)]
    pub ros: super::ros2::RosArgs,
    /// Foxglove, live.
    #[cfg(feature = "foxglove")]
    #[command(flatten)]
    pub foxglove: super::foxglove::FoxgloveArgs,
}

impl ExternalArgs {
    /// Whether `--ros2` or `--foxglove` was given.
    #[cfg(feature = "viewer")]
    pub fn start_asked(&self) -> bool {
        let asked = false;
        #[cfg(feature = "ros2")]
        let asked = asked || self.ros.ros2;
        #[cfg(feature = "foxglove")]
        let asked = asked || self.foxglove.foxglove.is_some();
        asked
    }

    /// Starts what the options ask for (`None`: neither); `cameras` false sends no camera
    /// pictures whatever the options say.
    pub fn start(&self, cameras: bool) -> anyhow::Result<Option<External>> {
        let mut external = External::default();
        #[cfg(feature = "ros2")]
        if let Some(mut options) = self.ros.options()? {
            options.cameras = options.cameras && cameras;
            let fps = if options.cameras {
                self.ros.ros_camera_fps
            } else {
                0.0
            };
            let node = Arc::new(Mutex::new(RosNode::start(&options)?));
            external.ros = Some((node, Cameras::new(fps)));
            external.lines.push(format!(
                "ROS 2 node /treadsim, domain {}, {}",
                options.domain,
                if options.router {
                    format!("Zenoh router on {}", options.listen.join(", "))
                } else {
                    format!("router {}", options.connect.join(", "))
                }
            ));
        }
        #[cfg(feature = "foxglove")]
        if let Some(options) = self.foxglove.options()? {
            if options.teleop && external.operator().is_some() {
                anyhow::bail!(
                    "--foxglove-teleop and --ros2 together: one external operator at a time \
                     (Foxglove can still watch: leave out --foxglove-teleop)"
                );
            }
            let fps = if cameras {
                self.foxglove.foxglove_camera_fps
            } else {
                0.0
            };
            let server = FoxgloveServer::start(&options)?;
            external.lines.push(format!(
                "Foxglove: ws://{}:{} (teleoperation {})",
                options.host,
                server.port(),
                if options.teleop { "on" } else { "off" }
            ));
            external.foxglove = Some((server, Cameras::new(fps)));
        }
        let any = external.lines.is_empty();
        Ok((!any).then_some(external))
    }
}

/// The ROS 2 node and the Foxglove server beside a session, each with its cameras' feed.
#[derive(Default)]
pub struct External {
    /// Shared with the operators it makes (they declare the robot's camera topics).
    #[cfg(feature = "ros2")]
    ros: Option<(Arc<Mutex<RosNode>>, Cameras)>,
    #[cfg(feature = "foxglove")]
    foxglove: Option<(FoxgloveServer, Cameras)>,
    /// What was started, a line each.
    lines: Vec<String>,
}

impl External {
    /// What was started, a line each (for the start of the session).
    pub fn started(&self) -> &[String] {
        &self.lines
    }

    /// Who operates the robot, if a program does (`ros2` or `foxglove`), and the maker of
    /// its driver for each session; `None`: the sticks or the script do.
    pub fn operator(&self) -> Option<(&'static str, OperatorMaker)> {
        #[cfg(feature = "ros2")]
        if let Some((node, _)) = &self.ros {
            let node = Arc::clone(node);
            return Some((
                "ros2",
                Box::new(move |robot| Box::new(lock(&node).driver(robot))),
            ));
        }
        #[cfg(feature = "foxglove")]
        if let Some(maker) = self.foxglove.as_ref().and_then(|(s, _)| s.driver_maker()) {
            return Some(("foxglove", Box::new(move |robot| Box::new(maker(robot)))));
        }
        None
    }

    /// Publishes `session`'s state and the pictures the link delivers now.
    pub fn after_tick(&mut self, session: &Session) {
        #[cfg(feature = "ros2")]
        if let Some((node, cameras)) = self.ros.as_mut() {
            let frames = cameras.frames(session);
            let mut node = lock(node);
            node.publish(session);
            node.publish_images(&Cameras::list(&frames));
        }
        #[cfg(feature = "foxglove")]
        if let Some((server, cameras)) = self.foxglove.as_mut() {
            server.publish(session);
            let frames = cameras.frames(session);
            server.publish_images(&Cameras::list(&frames));
        }
        let _ = session;
    }

    /// What each counted, a line each, for the end of the session of `who`.
    pub fn summary(&self, who: &str) -> Vec<String> {
        let mut lines = Vec::new();
        #[cfg(feature = "ros2")]
        if let Some((node, cameras)) = &self.ros {
            lines.push(format!("{who}: ROS 2: {}", lock(node).counters()));
            lines.extend(cameras.report(&format!("{who}: ROS 2")));
        }
        #[cfg(feature = "foxglove")]
        if let Some((server, cameras)) = &self.foxglove {
            lines.push(format!("{who}: Foxglove: {}", server.counters()));
            lines.extend(cameras.report(&format!("{who}: Foxglove")));
        }
        let _ = who;
        lines
    }

    /// Leaves the ROS graph and stops serving Foxglove.
    pub fn close(self) {
        #[cfg(feature = "ros2")]
        if let Some((node, _)) = self.ros {
            // While an operator maker still holds it, it closes when they are all dropped.
            if let Ok(node) = Arc::try_unwrap(node) {
                node.into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .close();
            }
        }
        #[cfg(feature = "foxglove")]
        if let Some((server, _)) = self.foxglove {
            server.close();
        }
    }
}

#[cfg(feature = "viewer")]
impl treadsim::viewer::station::Peer for External {
    fn operator(&mut self, robot: &RobotSpec) -> Option<Box<dyn Driver>> {
        External::operator(self).map(|(_, make)| make(robot))
    }

    fn after_frame(&mut self, session: &Session) {
        self.after_tick(session);
    }
}

/// One consumer's camera pictures (with the viewer's renderer), and what they cost.
struct Cameras {
    #[cfg(feature = "viewer")]
    feeds: Option<treadsim::viewer::camera_feeds::CameraFeeds>,
    frames: u64,
    work: f64,
    work_max: f64,
    size: (u32, u32),
}

/// A picture: camera name, capture time (s, simulated), JPEG.
type Picture = (String, f64, Vec<u8>);

impl Cameras {
    /// Pictures at `fps` (0: none; without the viewer feature: none).
    fn new(fps: f64) -> Self {
        let _ = fps;
        Self {
            #[cfg(feature = "viewer")]
            feeds: (fps > 0.0)
                .then(|| treadsim::viewer::camera_feeds::CameraFeeds::new(320, 240, fps)),
            frames: 0,
            work: 0.0,
            work_max: 0.0,
            size: (0, 0),
        }
    }

    /// The pictures the link delivers now.
    fn frames(&mut self, session: &Session) -> Vec<Picture> {
        #[cfg(feature = "viewer")]
        if let Some(feeds) = self.feeds.as_mut() {
            return feeds
                .frames(session)
                .into_iter()
                .map(|f| {
                    self.frames += 1;
                    self.work += f.work;
                    self.work_max = self.work_max.max(f.work);
                    self.size = f.size;
                    (f.camera, f.captured, f.jpeg)
                })
                .collect();
        }
        let _ = session;
        Vec::new()
    }

    /// `pictures` as the publishers take them.
    fn list(pictures: &[Picture]) -> Vec<(String, f64, &[u8])> {
        pictures
            .iter()
            .map(|(camera, captured, jpeg)| (camera.clone(), *captured, jpeg.as_slice()))
            .collect()
    }

    /// What the cameras did, a line each.
    fn report(&self, who: &str) -> Vec<String> {
        let mut lines = Vec::new();
        #[cfg(feature = "viewer")]
        if let Some(why) = self.feeds.as_ref().and_then(|f| f.failed()) {
            lines.push(format!("{who}: no camera frames: {why}"));
        }
        if self.frames > 0 {
            lines.push(format!(
                "{who}: {} camera frames ({}x{} JPEG), rendered and encoded in {:.1} ms mean, \
                 {:.1} ms max before publication",
                self.frames,
                self.size.0,
                self.size.1,
                1e3 * self.work / self.frames as f64,
                1e3 * self.work_max
            ));
        }
        lines
    }
}
