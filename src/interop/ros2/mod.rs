//! ROS 2 through Zenoh, speaking rmw_zenoh's conventions (ROS 2 Jazzy and later): CDR messages
//! ([`crate::record::cdr`], [`msgs`]), their type descriptions and RIHS01 hashes ([`types`]), rmw_zenoh's key
//! expressions, liveliness tokens and attachments ([`names`]), the node itself ([`node`]) and its diagnostics ([`diagnostics`]); the
//! cameras' frames come from `viewer::camera_feeds`.

pub mod diagnostics;
pub mod msgs;
pub mod names;
pub mod node;
pub mod types;

pub use node::{RosCounters, RosError, RosNode, RosOptions, DEFAULT_ROUTER};
