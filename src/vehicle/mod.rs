//! Robots: description files, the track model at run time, drive motors and flippers.

pub mod body;
mod candidates;
pub mod drive;
pub mod robot_file;
pub mod spec;
pub mod stability;
pub mod stall;
pub mod tracked;

pub use body::{BodyState, Wrench};
pub use drive::DriveCommand;
pub use tracked::TrackedRobot;
pub use spec::RobotSpec;
