//! The `treadsim` binary's commands, one file each: `check.rs` (check, envelope), `bench.rs`,
//! `soak.rs`, headless runs (`run.rs`), logs (`log.rs`: replay and report), traffic
//! (`traffic.rs`) and the station and headless shots (`station.rs`), and the choice of glibc's
//! string functions the binary restarts with (`string_functions.rs`). Part of the binary, not
//! the library.

pub mod bench;
pub mod check;
pub mod log;
pub mod run;
pub mod soak;
#[cfg(feature = "viewer")]
pub mod station;
pub mod string_functions;
pub mod traffic;
