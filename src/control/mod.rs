//! Control: kinematic models, control laws and agents (seed systems 000, 002, 003), drive
//! scripts and the autopilot. So far: seed 000's kinematic tracked vehicle ([`kinematic`]),
//! seed 003's agent model ([`agent`], the BaseEngine) and its trajectory control laws
//! ([`laws`]), seed 002's roaming traffic ([`traffic`], over the neighbour grid [`grid`]),
//! and the [`autopilot`] that drives the dynamic robot with those laws.

pub mod ackermann;
pub mod agent;
pub mod autopilot;
pub mod climb_geometry;
pub mod goal_script;
pub mod grid;
pub mod kinematic;
pub mod laws;
pub mod stair_climb;
pub mod stair_reading;
pub mod traffic;
pub mod trial_pilot;
pub mod vantage;
