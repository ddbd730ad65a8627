//! Scene files: the TOML format, procedural primitives, mesh import, spawn poses, checkpoints
//! and surface materials. A loaded scene becomes one [`crate::terrain::Terrain`].

pub mod mesh_data;
pub mod mesh_import;
pub mod primitives;

pub use mesh_data::MeshData;
