//! Everything related to the scene graph.

pub use self::animation::{AnimationChannel, AnimationClip, AnimationPlayer, Interpolation};
pub use self::object2d::{
    Blend2d, InstanceComputeBuffers2d, InstanceData2d, InstancesBuffer2d, Object2d, ObjectData2d,
    LINES_COLOR_USE_OBJECT_2D, LINES_WIDTH_USE_OBJECT_2D, POINTS_COLOR_USE_OBJECT_2D,
    POINTS_SIZE_USE_OBJECT_2D,
};
pub use self::object3d::{
    AlphaMode, Bsdf, InstanceComputeBuffers, InstanceData3d, InstancesBuffer3d, Object3d,
    ObjectData3d, ParallaxMethod, Skin3d, LINES_COLOR_USE_OBJECT, LINES_WIDTH_USE_OBJECT,
    POINTS_COLOR_USE_OBJECT, POINTS_SIZE_USE_OBJECT,
};
pub use self::scene_node2d::{SceneNode2d, SceneNodeData2d};
pub use self::scene_node3d::{GltfModel, SceneNode3d, SceneNodeData3d};
pub use self::sprite::{Border, SpriteSheet};
pub use self::tilemap::Tilemap;

mod animation;
mod object2d;
mod object3d;
mod scene_node2d;
mod scene_node3d;
mod sprite;
mod tilemap;
