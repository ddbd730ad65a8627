//! Foxglove's well-known message types in a session's log, JSON-encoded beside treadsim's own
//! channels, so a log opened in Foxglove shows the robot moving over the scene in 3D:
//! - [`TOPIC_TRANSFORMS`] (`foxglove.FrameTransforms`): `world` → `base_link`, the robot's pose,
//!   at the telemetry rate;
//! - [`TOPIC_SCENE`] (`foxglove.SceneUpdate`), once at the start: the scene's terrain as a
//!   triangle list in `world` (scenes of up to [`MAX_SCENE_TRIANGLES`] triangles) and the hull
//!   as a cube in `base_link` (it moves with the transform).
//!
//! Field names and shapes follow Foxglove's schemas (`foxglove/foxglove-sdk`, `schemas/`):
//! times as `{sec, nsec}`, vectors `{x, y, z}`, quaternions `{x, y, z, w}`, colours
//! `{r, g, b, a}` in 0..1. The JSON Schemas written with them describe those shapes. Replay
//! ignores these channels.

use nalgebra::{Point3, UnitQuaternion, Vector3};
use serde_json::{json, Value};

use crate::session::Session;
use crate::vehicle::spec::HullShape;

/// The robot's pose over time.
pub const TOPIC_TRANSFORMS: &str = "/foxglove/transforms";
/// The scene and the robot's body.
pub const TOPIC_SCENE: &str = "/foxglove/scene";

/// Largest terrain written into the scene message, triangles (a larger one is left out: the
/// transforms still show the robot moving).
pub const MAX_SCENE_TRIANGLES: usize = 100_000;

/// `{sec, nsec}` of `t` s (not negative).
fn time(t: f64) -> Value {
    let t = t.max(0.0);
    let sec = t.floor();
    json!({"sec": sec as u64, "nsec": (((t - sec) * 1e9).round() as u64).min(999_999_999)})
}

fn vector(v: &Vector3<f64>) -> Value {
    json!({"x": v.x, "y": v.y, "z": v.z})
}

fn quaternion(q: &UnitQuaternion<f64>) -> Value {
    json!({"x": q.i, "y": q.j, "z": q.k, "w": q.w})
}

fn point(p: &Point3<f64>) -> Value {
    json!({"x": p.x, "y": p.y, "z": p.z})
}

/// A `foxglove.FrameTransforms` message: `base_link` at `position` (m, world) turned by
/// `rotation`, at simulated time `t` s.
pub fn transforms(t: f64, position: &Vector3<f64>, rotation: &UnitQuaternion<f64>) -> Value {
    json!({"transforms": [{
        "timestamp": time(t),
        "parent_frame_id": "world",
        "child_frame_id": "base_link",
        "translation": vector(position),
        "rotation": quaternion(rotation),
    }]})
}

/// A scene entity with the fields Foxglove's `SceneEntity` has, its primitives given.
fn entity(t: f64, frame: &str, id: &str, cubes: Vec<Value>, triangles: Vec<Value>) -> Value {
    json!({
        "timestamp": time(t),
        "frame_id": frame,
        "id": id,
        "lifetime": {"sec": 0, "nsec": 0},
        "frame_locked": true,
        "metadata": [],
        "arrows": [],
        "cubes": cubes,
        "spheres": [],
        "cylinders": [],
        "lines": [],
        "triangles": triangles,
        "texts": [],
        "models": [],
    })
}

fn pose(position: &Vector3<f64>) -> Value {
    json!({"position": vector(position), "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}})
}

/// The `foxglove.SceneUpdate` of `session` now: its terrain (if small enough) and its robot's
/// hull.
pub fn scene(session: &Session) -> Value {
    let sim = session.sim();
    let t = sim.time();
    let mut entities = Vec::new();
    let terrain = &sim.scene().terrain;
    if terrain.num_triangles() <= MAX_SCENE_TRIANGLES {
        let points: Vec<Value> = terrain.vertices().iter().map(point).collect();
        let indices: Vec<u32> = terrain.triangles().iter().flatten().copied().collect();
        let triangles = json!({
            "pose": pose(&Vector3::zeros()),
            "points": points,
            "color": {"r": 0.62, "g": 0.62, "b": 0.60, "a": 1.0},
            "colors": [],
            "indices": indices,
        });
        entities.push(entity(t, "world", "terrain", Vec::new(), vec![triangles]));
    }
    let spec = sim.robot(session.robot()).spec();
    let HullShape::Box { size, center } = &spec.hull;
    let hull = json!({
        "pose": pose(&center.coords),
        "size": vector(size),
        "color": {"r": 0.85, "g": 0.55, "b": 0.10, "a": 1.0},
    });
    entities.push(entity(t, "base_link", "hull", vec![hull], Vec::new()));
    json!({"deletions": [], "entities": entities})
}

/// A JSON Schema object of `properties`.
fn object(title: &str, properties: Value) -> Value {
    json!({"title": title, "type": "object", "properties": properties})
}

fn schema_vector(title: &str, fields: &[&str]) -> Value {
    let mut p = serde_json::Map::new();
    for f in fields {
        p.insert((*f).to_owned(), json!({"type": "number"}));
    }
    object(title, Value::Object(p))
}

fn schema_time() -> Value {
    object(
        "time",
        json!({"sec": {"type": "integer", "minimum": 0},
               "nsec": {"type": "integer", "minimum": 0, "maximum": 999_999_999}}),
    )
}

/// The JSON Schema of `foxglove.FrameTransforms`.
pub fn transforms_schema() -> Vec<u8> {
    let transform = object(
        "foxglove.FrameTransform",
        json!({
            "timestamp": schema_time(),
            "parent_frame_id": {"type": "string"},
            "child_frame_id": {"type": "string"},
            "translation": schema_vector("foxglove.Vector3", &["x", "y", "z"]),
            "rotation": schema_vector("foxglove.Quaternion", &["x", "y", "z", "w"]),
        }),
    );
    object(
        "foxglove.FrameTransforms",
        json!({"transforms": {"type": "array", "items": transform}}),
    )
    .to_string()
    .into_bytes()
}

/// The JSON Schema of `foxglove.SceneUpdate` (the primitives treadsim writes described; the
/// others as arrays).
pub fn scene_schema() -> Vec<u8> {
    let pose = object(
        "foxglove.Pose",
        json!({"position": schema_vector("foxglove.Vector3", &["x", "y", "z"]),
               "orientation": schema_vector("foxglove.Quaternion", &["x", "y", "z", "w"])}),
    );
    let color = schema_vector("foxglove.Color", &["r", "g", "b", "a"]);
    let cube = object(
        "foxglove.CubePrimitive",
        json!({"pose": pose, "size": schema_vector("foxglove.Vector3", &["x", "y", "z"]),
               "color": color}),
    );
    let triangles = object(
        "foxglove.TriangleListPrimitive",
        json!({"pose": pose,
               "points": {"type": "array", "items": schema_vector("foxglove.Point3", &["x", "y", "z"])},
               "color": color,
               "colors": {"type": "array", "items": color},
               "indices": {"type": "array", "items": {"type": "integer", "minimum": 0}}}),
    );
    let entity = object(
        "foxglove.SceneEntity",
        json!({
            "timestamp": schema_time(),
            "frame_id": {"type": "string"},
            "id": {"type": "string"},
            "lifetime": schema_time(),
            "frame_locked": {"type": "boolean"},
            "metadata": {"type": "array"},
            "arrows": {"type": "array"},
            "cubes": {"type": "array", "items": cube},
            "spheres": {"type": "array"},
            "cylinders": {"type": "array"},
            "lines": {"type": "array"},
            "triangles": {"type": "array", "items": triangles},
            "texts": {"type": "array"},
            "models": {"type": "array"},
        }),
    );
    object(
        "foxglove.SceneUpdate",
        json!({"deletions": {"type": "array"}, "entities": {"type": "array", "items": entity}}),
    )
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::testing::free;

    #[test]
    fn transforms_and_the_scene_have_foxglove_shapes() {
        let q = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2);
        let m = transforms(1.25, &Vector3::new(1.0, 2.0, 0.1), &q);
        let t = &m["transforms"][0];
        assert_eq!(t["timestamp"], json!({"sec": 1, "nsec": 250_000_000}));
        assert_eq!(t["child_frame_id"], "base_link");
        assert!((t["rotation"]["z"].as_f64().unwrap() - (0.5f64).sqrt()).abs() < 1e-12);
        let session = free();
        let s = scene(&session);
        let entities = s["entities"].as_array().unwrap();
        let terrain = &entities[0]["triangles"][0];
        let triangles = session.sim().scene().terrain.num_triangles();
        assert_eq!(terrain["indices"].as_array().unwrap().len(), 3 * triangles);
        assert_eq!(entities[1]["frame_id"], "base_link");
        let size = &entities[1]["cubes"][0]["size"];
        assert!(size["x"].as_f64().unwrap() > 0.1, "{size}");
        // The schemas are JSON objects named as Foxglove names the types.
        for (schema, title) in [
            (transforms_schema(), "foxglove.FrameTransforms"),
            (scene_schema(), "foxglove.SceneUpdate"),
        ] {
            let v: Value = serde_json::from_slice(&schema).unwrap();
            assert_eq!(v["title"], title);
        }
    }
}
