//! treadsim among other robotics software (feature `ros2`): [`ros2`] makes a session a ROS 2
//! node over Zenoh, as rmw_zenoh nodes see one, so a real operator control unit or any ROS 2
//! tool drives the simulated robot and reads its state, with no ROS installation here.

pub mod ros2;
