//! treadsim: a real-time simulator for training the operators of tracked and wheeled mobile
//! robots. See `ARCHITECTURE.md` for the module map and the dependency rule.

// Every public item says what it is, with units and frame (clippy denies warnings in CI).
#![warn(missing_docs)]

pub mod config;
pub mod control;
mod digest;
pub mod envelope;
pub mod exercise;
pub mod input;
pub mod record;
mod rng;
pub mod scene;
pub mod session;
pub mod sim;
pub mod terrain;
pub mod track;
pub mod vehicle;
#[cfg(feature = "viewer")]
pub mod viewer;
