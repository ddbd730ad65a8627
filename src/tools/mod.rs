//! Tools that measure the simulator rather than train with it: the benchmark of the full step
//! against a bare rapier step ([`bench`](mod@bench)) and the soak of seeded random aggressive driving
//! ([`soak`]), and the model against analytic and independent references ([`validate`]). The
//! command line's `bench`, `soak` and `validate` commands print what they return.

pub mod bench;
pub mod soak;
pub mod validate;
