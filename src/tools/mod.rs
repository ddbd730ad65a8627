//! Tools that measure the simulator rather than train with it: the benchmark of the full step
//! against a bare rapier step ([`bench`](mod@bench)) and the soak of seeded random aggressive driving
//! ([`soak`]). The command line's `bench` and `soak` commands print what they return.

pub mod bench;
pub mod soak;
