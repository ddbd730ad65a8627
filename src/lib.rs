//! treadsim: a real-time simulator for training the operators of tracked and wheeled mobile
//! robots. See `ARCHITECTURE.md` for the map. Modules are listed by layer, each using only its
//! own layer or those above it in this list (`tests/layers.rs` keeps it so).

// Every public item says what it is, with units and frame (clippy denies warnings in CI).
#![warn(missing_docs)]

// Core: the simulated world.
pub mod config; // TOML input files, errors at file:line:column: field
mod digest; // the one fingerprint of f64 values
mod rng; // the one PRNG (splitmix64)
pub mod scene; // scene files, primitives, mesh import, spawns, bounds
pub mod sim; // the rapier world and Simulation::step
pub mod terrain; // the scene as one f64 mesh: cuts, slabs, side faces
pub mod track; // the track model's pure 2D contact functions
pub mod vehicle; // robot files and geometry, the drive trains

// Behaviour: control laws, the operator's link, exercise rules and scoring.
pub mod control; // control laws, kinematics, autopilot laws, traffic
pub mod exercise; // exercise files and scoring a trial
pub mod link; // the operator's radio link

// Session: one robot driven by inputs, one step at a time; its recording and replay; the one
// way to start one.
pub mod launch; // the one way to start a session and its log
pub mod record; // MCAP logs, replay, the after-action report
pub mod session; // one robot stepped by inputs; the driver loop

// Front ends: input mapping, measuring tools, the capability envelope, the station, the
// classroom, ROS 2.
#[cfg(feature = "classroom")]
pub mod classroom; // seats and the instructor over Zenoh, records in SQLite
pub mod envelope; // a robot's capability envelope and spec sheet
pub mod input; // gamepad and keyboard mapped to drive commands
#[cfg(any(feature = "ros2", feature = "foxglove"))]
pub mod interop; // ROS 2 over Zenoh (rmw_zenoh's conventions), Foxglove live
pub mod tools; // bench and soak: measuring the simulator
#[cfg(feature = "viewer")]
pub mod viewer; // the operator station and headless shots
