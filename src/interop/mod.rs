//! treadsim among other robotics software: [`ros2`] (feature `ros2`) makes a session a ROS 2
//! node over Zenoh, as rmw_zenoh nodes see one, so a real operator control unit or any ROS 2
//! tool drives the simulated robot and reads its state, with no ROS installation here;
//! [`foxglove`] (feature `foxglove`) serves the session live to Foxglove. An external
//! operator's commands from either reach the session through [`teleop`]; the onboard cameras'
//! pictures for either come from `viewer::camera_feeds` (with the `viewer` feature).

#[cfg(feature = "foxglove")]
pub mod foxglove;
#[cfg(feature = "ros2")]
pub mod ros2;
pub mod teleop;
