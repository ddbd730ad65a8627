//! Control: kinematic models, control laws and agents (seed systems 000, 002, 003), drive
//! scripts and the autopilot. So far: seed 000's kinematic tracked vehicle ([`kinematic`]).

pub mod kinematic;
