//! Robots: description files, the drive trains at run time — tracks with flippers
//! (`tracked/`) and wheels (`wheeled/`) side by side over the shared hull state (`body`),
//! motor step (`drive`) and terrain candidates — behind one [`Drivetrain`].

pub mod arm;
pub mod body;
pub(crate) mod candidates;
pub mod drive;
pub mod drivetrain;
pub mod file_limits;
pub mod geometry;
pub mod implicit;
pub mod range_sensor;
pub mod robot_file;
pub mod spec;
pub mod stability;
pub mod stall;
pub mod tracked;
pub mod wheel_file;
pub mod wheeled;

pub use arm::{ArmCommand, ArmSpec};
pub use body::{BodyState, Wrench};
pub use drive::DriveCommand;
pub use drivetrain::{Drivetrain, DrivetrainState};
pub use spec::RobotSpec;
pub use tracked::TrackedRobot;
pub use wheeled::WheeledRobot;
