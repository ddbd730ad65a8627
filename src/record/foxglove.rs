//! Foxglove's well-known message types in a session's log, JSON-encoded beside treadsim's own
//! channels, so a log opened in Foxglove shows the robot moving over the scene in 3D:
//! - [`TOPIC_TRANSFORMS`] (`foxglove.FrameTransforms`): `world` → `base_link`, the robot's pose,
//!   at the telemetry rate;
//! - [`TOPIC_SCENE`] (`foxglove.SceneUpdate`), once at the start: the scene's terrain as a
//!   triangle list in `world` (scenes of up to [`MAX_SCENE_TRIANGLES`] triangles) and the hull
//!   as a cube and the main tracks' belts as line loops in `base_link` (they move with the
//!   transform);
//! - [`TOPIC_BODIES`] (`foxglove.SceneUpdate`), every [`BODIES_INTERVAL`] s while the scene has
//!   any: what moves on its own — the arm's links and fingers, the scene's movable objects,
//!   traffic — each as the primitive its collider is, posed in `world`, and the flippers'
//!   belts as line loops in `base_link`;
//! - camera pictures as `foxglove.CompressedImage` ([`compressed_image`]; the live server
//!   sends them, a log has none).
//!
//! Field names and shapes follow Foxglove's schemas (`foxglove/foxglove-sdk`, `schemas/`):
//! times as `{sec, nsec}`, vectors `{x, y, z}`, quaternions `{x, y, z, w}`, colours
//! `{r, g, b, a}` in 0..1. The JSON Schemas written with them describe those shapes. Replay
//! ignores these channels.

use nalgebra::{Point3, UnitQuaternion, Vector3};
use serde_json::{json, Value};

use crate::session::Session;
use crate::track::outline::BeltOutline;
use crate::vehicle::spec::HullShape;
use crate::vehicle::tracked::belts::belt_refs;

/// The robot's pose over time.
pub const TOPIC_TRANSFORMS: &str = "/foxglove/transforms";
/// The scene and the robot's body.
pub const TOPIC_SCENE: &str = "/foxglove/scene";

/// What moves on its own (arm, objects, traffic).
pub const TOPIC_BODIES: &str = "/foxglove/bodies";

/// Simulated time between two [`TOPIC_BODIES`] messages in a log, s.
pub const BODIES_INTERVAL: f64 = 0.1;

/// The topic of camera `camera`'s pictures.
pub fn image_topic(camera: &str) -> String {
    format!("/cameras/{camera}/compressed")
}

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

/// [`transforms`] of a telemetry row (its body origin and roll, pitch, yaw), stamped `t` s:
/// the pose a log and the live server both send.
pub fn row_transforms(t: f64, row: &crate::sim::TelemetryRow) -> Value {
    let [x, y, z] = row.position;
    let [roll, pitch, yaw] = row.rpy;
    let rotation = UnitQuaternion::from_euler_angles(roll, pitch, yaw);
    transforms(t, &Vector3::new(x, y, z), &rotation)
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

/// The `foxglove.SceneUpdate` of `session`'s fixed parts, stamped `t` s: its terrain (if small
/// enough) and its robot's hull.
pub fn scene(session: &Session, t: f64) -> Value {
    let sim = session.sim();
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
    if let Some(tracks) = belts(session, t, false) {
        entities.push(tracks);
    }
    json!({"deletions": [], "entities": entities})
}

/// Points along each arc between two runs, for a belt's loop.
const ARC_POINTS: usize = 4;

/// A belt's posed outline (body `(x, z)`) at `y` m as a `foxglove.LinePrimitive` loop in
/// `base_link`: each run and the arcs between them.
fn belt_loop(outline: &BeltOutline, y: f64) -> Value {
    let runs = outline.runs();
    let circles = outline.circles();
    let mut points = Vec::with_capacity(runs.len() * (ARC_POINTS + 1));
    let at = |x: f64, z: f64| json!({"x": x, "y": y, "z": z});
    for (k, run) in runs.iter().enumerate() {
        points.push(at(run.start.x, run.start.y));
        points.push(at(run.end.x, run.end.y));
        // Around the circle the run reaches, counter-clockwise to the next run's start.
        let (Some(circle), Some(next)) = (circles.get(run.to), runs.get((k + 1) % runs.len()))
        else {
            continue;
        };
        let c = circle.center;
        let from = (run.end.y - c.y).atan2(run.end.x - c.x);
        let to = (next.start.y - c.y).atan2(next.start.x - c.x);
        let sweep = (to - from).rem_euclid(std::f64::consts::TAU);
        for i in 1..ARC_POINTS {
            let a = from + sweep * i as f64 / ARC_POINTS as f64;
            points.push(at(
                c.x + circle.radius * a.cos(),
                c.y + circle.radius * a.sin(),
            ));
        }
    }
    json!({
        "type": 1,
        "pose": pose(&Vector3::zeros()),
        "thickness": 0.02,
        "scale_invariant": false,
        "points": points,
        "color": {"r": 0.1, "g": 0.1, "b": 0.1, "a": 1.0},
        "colors": [],
        "indices": [],
    })
}

/// The entity of `session`'s robot's belts in `base_link`, as the track model poses them:
/// its main tracks (`flippers` false: they never move on the hull) or its flippers (they turn);
/// `None` for a wheeled robot or one without flippers.
fn belts(session: &Session, t: f64, flippers: bool) -> Option<Value> {
    let robot = session.sim().robot(session.robot()).as_tracked()?;
    let lines: Vec<Value> = belt_refs(robot)
        .into_iter()
        .filter(|b| b.flipper == flippers)
        .map(|b| belt_loop(robot.plane_outline(b.plane).0, b.y))
        .collect();
    if lines.is_empty() {
        return None;
    }
    let id = if flippers { "flippers" } else { "tracks" };
    let mut e = entity(t, "base_link", id, Vec::new(), Vec::new());
    e["lines"] = json!(lines);
    Some(e)
}

/// A primitive of `collider`'s shape at its world pose, as (kind, Foxglove primitive):
/// `cubes`, `spheres` or `cylinders`; `None` for a shape drawn no other way (a mesh).
fn primitive(
    collider: &rapier3d::geometry::Collider,
    color: Value,
) -> Option<(&'static str, Value)> {
    let shape = collider.shape();
    let at = crate::sim::isometry_of(collider.position());
    let pose_of = |iso: &nalgebra::Isometry3<f64>| json!({"position": vector(&iso.translation.vector), "orientation": quaternion(&iso.rotation)});
    // Rapier's cylinders and capsules stand along y, Foxglove's cylinders along z.
    let upright = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -std::f64::consts::FRAC_PI_2);
    if let Some(c) = shape.as_cuboid() {
        let h = c.half_extents;
        let size = Vector3::new(
            2.0 * f64::from(h.x),
            2.0 * f64::from(h.y),
            2.0 * f64::from(h.z),
        );
        return Some((
            "cubes",
            json!({"pose": pose_of(&at), "size": vector(&size), "color": color}),
        ));
    }
    if let Some(b) = shape.as_ball() {
        let d = 2.0 * f64::from(b.radius);
        let size = Vector3::new(d, d, d);
        return Some((
            "spheres",
            json!({"pose": pose_of(&at), "size": vector(&size), "color": color}),
        ));
    }
    let (radius, length, iso) = if let Some(c) = shape.as_cylinder() {
        let (r, l) = (f64::from(c.radius), 2.0 * f64::from(c.half_height));
        (
            r,
            l,
            at * nalgebra::Isometry3::from_parts(nalgebra::Translation3::identity(), upright),
        )
    } else if let Some(c) = shape.as_capsule() {
        let p = |v: rapier3d::math::Vector| {
            Vector3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
        };
        let (a, b) = (p(c.segment.a), p(c.segment.b));
        let axis = b - a;
        let r = f64::from(c.radius);
        let turn = UnitQuaternion::rotation_between(&Vector3::z(), &axis)
            .unwrap_or_else(UnitQuaternion::identity);
        let middle = nalgebra::Translation3::from((a + b) / 2.0);
        (
            r,
            axis.norm() + 2.0 * r,
            at * nalgebra::Isometry3::from_parts(middle, turn),
        )
    } else {
        return None;
    };
    let size = Vector3::new(2.0 * radius, 2.0 * radius, length);
    Some((
        "cylinders",
        json!({"pose": pose_of(&iso), "size": vector(&size), "bottom_scale": 1.0,
               "top_scale": 1.0, "color": color}),
    ))
}

/// The `foxglove.SceneUpdate` of what moves on its own in `session` now, stamped `t` s: robot
/// arm parts, scene objects, valves' wheels, doors' leaves and traffic, each an entity in `world`, and the flippers' belts in
/// `base_link`, each replacing the last of its id; `None` when there are none.
pub fn bodies(session: &Session, t: f64) -> Option<Value> {
    let sim = session.sim();
    let world = sim.physics();
    let mut entities = Vec::new();
    // One entity per thing, with a primitive per collider of it.
    let mut push = |id: String, handles: &[rapier3d::geometry::ColliderHandle], color: Value| {
        let mut e = entity(t, "world", &id, Vec::new(), Vec::new());
        e["frame_locked"] = json!(false);
        let mut any = false;
        for collider in handles.iter().filter_map(|h| world.colliders.get(*h)) {
            if let Some((kind, p)) = primitive(collider, color.clone()) {
                match e[kind].as_array_mut() {
                    Some(list) => list.push(p),
                    None => e[kind] = json!([p]),
                }
                any = true;
            }
        }
        if any {
            entities.push(e);
        }
    };
    for (i, handle) in sim.arm_colliders(session.robot()).into_iter().enumerate() {
        push(
            format!("arm/{i}"),
            &[handle],
            json!({"r": 0.85, "g": 0.7, "b": 0.15, "a": 1.0}),
        );
    }
    let colour = |[r, g, b]: [f32; 3]| json!({"r": r, "g": g, "b": b, "a": 1.0});
    for (i, spec) in sim.scene().objects.iter().enumerate() {
        if let Some(body) = sim.object_body(i).and_then(|h| world.bodies.get(h)) {
            push(
                format!("object/{}", spec.name),
                body.colliders(),
                colour(spec.color),
            );
        }
    }
    for (i, spec) in sim.scene().valves.iter().enumerate() {
        if let Some(body) = sim.valve_body(i).and_then(|h| world.bodies.get(h)) {
            push(
                format!("valve/{}", spec.name),
                body.colliders(),
                colour(spec.color),
            );
        }
    }
    for (i, spec) in sim.scene().doors.iter().enumerate() {
        if let Some(body) = sim.door_body(i).and_then(|h| world.bodies.get(h)) {
            push(
                format!("door/{}", spec.name),
                body.colliders(),
                colour(spec.color),
            );
        }
    }
    if let Some(flippers) = belts(session, t, true) {
        entities.push(flippers);
    }
    for m in 0..sim.mover_count() {
        let id = crate::sim::MoverId(m);
        if let (Some(pose), Some(size)) = (sim.mover_pose(id), sim.mover_size(id)) {
            let cube = json!({"pose": {"position": vector(&pose.translation.vector),
                                       "orientation": quaternion(&pose.rotation)},
                              "size": {"x": size[0], "y": size[1], "z": size[2]},
                              "color": {"r": 0.2, "g": 0.35, "b": 0.75, "a": 1.0}});
            let mut e = entity(t, "world", &format!("traffic/{m}"), vec![cube], Vec::new());
            e["frame_locked"] = json!(false);
            entities.push(e);
        }
    }
    (!entities.is_empty()).then(|| json!({"deletions": [], "entities": entities}))
}

/// A scene update with every entity's timestamp left out: two such are equal when nothing in
/// them moved.
pub fn without_stamps(update: &Value) -> Value {
    let mut update = update.clone();
    if let Some(entities) = update["entities"].as_array_mut() {
        for e in entities {
            e["timestamp"] = Value::Null;
        }
    }
    update
}

/// A `foxglove.CompressedImage`: camera `camera`'s JPEG picture captured at `t` s (frame
/// `camera`).
pub fn compressed_image(t: f64, camera: &str, jpeg: &[u8]) -> Value {
    use base64::Engine as _;
    json!({
        "timestamp": time(t),
        "frame_id": camera,
        "data": base64::engine::general_purpose::STANDARD.encode(jpeg),
        "format": "jpeg",
    })
}

/// The JSON Schema of `foxglove.CompressedImage` (bytes as base64, as Foxglove's JSON encoding
/// has them).
pub fn compressed_image_schema() -> Vec<u8> {
    object(
        "foxglove.CompressedImage",
        json!({
            "timestamp": schema_time(),
            "frame_id": {"type": "string"},
            "data": {"type": "string", "contentEncoding": "base64"},
            "format": {"type": "string"},
        }),
    )
    .to_string()
    .into_bytes()
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
/// others as arrays): [`TOPIC_SCENE`]'s and [`TOPIC_BODIES`]'.
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
    let cylinder = object(
        "foxglove.CylinderPrimitive",
        json!({"pose": pose, "size": schema_vector("foxglove.Vector3", &["x", "y", "z"]),
               "bottom_scale": {"type": "number"}, "top_scale": {"type": "number"},
               "color": color}),
    );
    let sphere = object(
        "foxglove.SpherePrimitive",
        json!({"pose": pose, "size": schema_vector("foxglove.Vector3", &["x", "y", "z"]),
               "color": color}),
    );
    let line = object(
        "foxglove.LinePrimitive",
        json!({"type": {"type": "integer", "minimum": 0, "maximum": 2}, "pose": pose,
               "thickness": {"type": "number"}, "scale_invariant": {"type": "boolean"},
               "points": {"type": "array", "items": schema_vector("foxglove.Point3", &["x", "y", "z"])},
               "color": color,
               "colors": {"type": "array", "items": color},
               "indices": {"type": "array", "items": {"type": "integer", "minimum": 0}}}),
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
            "spheres": {"type": "array", "items": sphere},
            "cylinders": {"type": "array", "items": cylinder},
            "lines": {"type": "array", "items": line},
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
        let s = scene(&session, session.sim().time());
        let entities = s["entities"].as_array().unwrap();
        let terrain = &entities[0]["triangles"][0];
        let triangles = session.sim().scene().terrain.num_triangles();
        assert_eq!(terrain["indices"].as_array().unwrap().len(), 3 * triangles);
        assert_eq!(entities[1]["frame_id"], "base_link");
        let size = &entities[1]["cubes"][0]["size"];
        assert!(size["x"].as_f64().unwrap() > 0.1, "{size}");
        // The scout's two tracks as loops at their y, closed around their wheels: the loop's
        // lowest points on the belt's bottom, below the body origin.
        let tracks = &entities[2];
        assert_eq!(
            (tracks["id"].as_str(), tracks["frame_id"].as_str()),
            (Some("tracks"), Some("base_link"))
        );
        let lines = tracks["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 2);
        let robot = session.sim().robot(session.robot()).as_tracked().unwrap();
        for (line, track) in lines.iter().zip(&robot.spec().tracks) {
            let points = line["points"].as_array().unwrap();
            assert!(points.len() > 8);
            assert!(points.iter().all(|p| p["y"].as_f64() == Some(track.y)));
            let low = points
                .iter()
                .map(|p| p["z"].as_f64().unwrap())
                .fold(f64::MAX, f64::min);
            assert!(low.abs() < 0.02, "lowest belt point at z = {low}");
        }
        // On a floor, only the flippers move on their own: their two belts.
        let moving = bodies(&session, 0.0).unwrap();
        let ids: Vec<&str> = moving["entities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["flippers"]);
        assert_eq!(moving["entities"][0]["lines"].as_array().unwrap().len(), 2);
        // The schemas are JSON objects named as Foxglove names the types.
        for (schema, title) in [
            (transforms_schema(), "foxglove.FrameTransforms"),
            (scene_schema(), "foxglove.SceneUpdate"),
            (compressed_image_schema(), "foxglove.CompressedImage"),
        ] {
            let v: Value = serde_json::from_slice(&schema).unwrap();
            assert_eq!(v["title"], title);
        }
    }

    #[test]
    fn the_arm_and_the_objects_are_their_colliders_posed_in_the_world() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/exercises/dexterity_pick_place.toml");
        let exercise = crate::exercise::Exercise::load(&path).unwrap();
        let session = Session::exercise(&exercise, crate::sim::SimConfig::default()).unwrap();
        let m = bodies(&session, 2.5).unwrap();
        let entities = m["entities"].as_array().unwrap();
        let arm = session.sim().arm_colliders(session.robot()).len();
        assert!(arm >= 3, "{arm} arm colliders");
        let ids: Vec<&str> = entities.iter().map(|e| e["id"].as_str().unwrap()).collect();
        assert_eq!(
            ids.iter().filter(|i| i.starts_with("arm/")).count(),
            arm,
            "{ids:?}"
        );
        // The block: a cube of its file's size where its body is, stamped as asked.
        let block = entities.iter().find(|e| e["id"] == "object/block").unwrap();
        assert_eq!(block["frame_id"], "world");
        assert_eq!(block["timestamp"], json!({"sec": 2, "nsec": 500_000_000}));
        let cube = &block["cubes"][0];
        for (axis, size) in [("x", 0.04), ("y", 0.06), ("z", 0.064)] {
            let got = cube["size"][axis].as_f64().unwrap();
            assert!((got - size).abs() < 1e-6, "{axis}: {got}");
        }
        let state = session.sim().object_state(0).unwrap();
        let x = cube["pose"]["position"]["x"].as_f64().unwrap();
        let expected = state.pose.translation.x;
        assert!((x - expected).abs() < 1e-5, "{x} vs {expected}");
        // Every entity but the flippers', the valve's and the door's has exactly one primitive,
        // in the arrays Foxglove reads; the bench's valve is one entity of 16 rim segments, 4
        // spokes and a hub, its door one of the leaf, the handle's spindle and two levers.
        let primitives = |e: &Value| -> usize {
            ["cubes", "spheres", "cylinders"]
                .iter()
                .map(|k| e[*k].as_array().unwrap().len())
                .sum()
        };
        for e in entities.iter().filter(|e| e["id"] != "flippers") {
            let n = primitives(e);
            if e["id"] == "valve/isolation" {
                assert_eq!(n, 16 + 4 + 1, "{e}");
            } else if e["id"] == "door/bench_door" {
                assert_eq!(n, 1 + 3, "{e}");
            } else {
                assert_eq!(n, 1, "{e}");
            }
        }
    }

    #[test]
    fn a_picture_is_base64_jpeg_with_its_capture_time() {
        use base64::Engine as _;
        let jpeg = [0xff, 0xd8, 0xff, 0xe0, 1, 2, 3];
        let m = compressed_image(3.000_000_001, "front", &jpeg);
        assert_eq!(m["format"], "jpeg");
        assert_eq!(m["frame_id"], "front");
        assert_eq!(m["timestamp"], json!({"sec": 3, "nsec": 1}));
        let data = base64::engine::general_purpose::STANDARD
            .decode(m["data"].as_str().unwrap())
            .unwrap();
        assert_eq!(data, jpeg);
        assert_eq!(image_topic("front"), "/cameras/front/compressed");
    }
}
