//! wgpu rendering context management.

pub use self::context::*;
mod context;
