//! ROS 2 through Zenoh, speaking rmw_zenoh's conventions (ROS 2 Jazzy and later): CDR messages
//! ([`cdr`], [`msgs`]), their type descriptions and RIHS01 hashes ([`types`]), rmw_zenoh's key
//! expressions, liveliness tokens and attachments ([`names`]), the node itself ([`node`]), and
//! the onboard cameras' frames through the link (`cameras`, with the `viewer` feature).

#[cfg(feature = "viewer")]
pub mod cameras;
pub mod cdr;
pub mod msgs;
pub mod names;
pub mod node;
pub mod types;

pub use node::{RosCounters, RosDriver, RosError, RosNode, RosOptions, DEFAULT_ROUTER};
