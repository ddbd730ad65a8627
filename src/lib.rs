//! treadsim: a real-time simulator for training the operators of tracked and wheeled mobile
//! robots. See `ARCHITECTURE.md` for the map. Modules are listed by layer, each using only its
//! own layer or those above it in this list (`tests/layers.rs` keeps it so).

// Every public item says what it is, with units and frame (clippy denies warnings in CI).
#![warn(missing_docs)]

// Core: the simulated world.
pub mod config;
mod digest;
mod rng;
pub mod scene;
pub mod sim;
pub mod terrain;
pub mod track;
pub mod vehicle;

// Behaviour: control laws, the operator's link, exercise rules and scoring.
pub mod control;
pub mod exercise;
pub mod link;

// Session: one robot driven by inputs, one step at a time; its recording and replay; the one
// way to start one.
pub mod launch;
pub mod record;
pub mod session;

// Front ends: input mapping, measuring tools, the capability envelope, the station.
pub mod envelope;
pub mod input;
pub mod tools;
#[cfg(feature = "viewer")]
pub mod viewer;
