//! Tools that measure the simulator rather than train with it: the benchmark of the full step
//! against a bare rapier step ([`bench`](mod@bench)) and the soak of seeded random aggressive driving
//! ([`soak`]), the model against analytic and independent references ([`validate`]), and a
//! robot file's turning parameters fitted to a real robot's recorded drive ([`calibrate`]).
//! The command line's `bench`, `soak`, `validate` and `calibrate` commands print what they
//! return.

pub mod bench;
pub mod calibrate;
pub mod soak;
pub mod validate;
