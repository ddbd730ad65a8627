//! Commands of the `treadsim` binary that grew past a few lines: headless runs (`run.rs`)
//! and logs (`log.rs`: replay and report). Part of the binary, not the library.

pub mod log;
pub mod run;
