pub mod robot_file;
pub mod spec;
