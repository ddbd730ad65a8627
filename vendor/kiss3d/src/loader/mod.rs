//! File loading.

pub mod gltf;
pub mod mtl;
pub mod obj;
