//! Scene files: the TOML format, procedural primitives, mesh import, spawn poses, checkpoints,
//! surface materials, the site's own lights, movable objects, handwheel valves, hinged doors and moving traffic. A loaded scene becomes one [`crate::terrain::Terrain`].

pub mod doors;
pub mod generate;
pub mod lights;
mod load;
pub mod mesh_data;
pub mod mesh_import;
pub mod objects;
pub mod primitives;
mod summary;
pub mod traffic;
pub mod valves;

pub use doors::DoorSpec;
pub use lights::{LightKind, SceneLight};
pub use load::{
    resolve_inside, Checkpoint, ElementInfo, ElementKind, Scene, SceneBounds, Spawn, UnknownSpawn,
    MAX_ELEMENTS, MAX_EXTENT, MAX_ROCKS, MAX_SCENE_TRIANGLES, MAX_SEGMENTS, MAX_STEPS,
};
pub use mesh_data::MeshData;
pub(crate) use objects::read_objects;
pub use objects::{ObjectShape, ObjectSpec};
pub use summary::summary;
pub use traffic::TrafficSpec;
pub use valves::ValveSpec;
