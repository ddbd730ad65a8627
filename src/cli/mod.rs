//! Commands of the `treadsim` binary that grew past a few lines: headless runs (`run.rs`),
//! logs (`log.rs`: replay and report) and traffic (`traffic.rs`), and the choice of glibc's
//! string functions the binary restarts with (`string_functions.rs`). Part of the binary, not
//! the library.

pub mod log;
pub mod run;
pub mod string_functions;
pub mod traffic;
