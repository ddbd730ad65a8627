//! Robots: description files, the track model at run time, drive motors and flippers.

mod candidates;
pub mod drive;
pub mod guard;
pub mod robot;
pub mod robot_file;
pub mod spec;
pub mod stability;
pub mod stall;
mod strip;

pub use drive::DriveCommand;
pub use robot::{BodyState, TrackedRobot, Wrench};
pub use spec::RobotSpec;
