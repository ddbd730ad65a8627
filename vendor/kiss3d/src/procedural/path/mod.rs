//! Path generation.

pub use super::path::arrowhead_cap::ArrowheadCap;
pub use super::path::no_cap::NoCap;
pub use super::path::path::{CurveSampler, PathSample, StrokePattern};
pub use super::path::polyline_path::PolylinePath;
pub use super::path::polyline_pattern::{PolylineCompatibleCap, PolylinePattern};

mod arrowhead_cap;
mod no_cap;
mod path;
mod polyline_path;
mod polyline_pattern;
