//! Scene nodes that follow rapier colliders: the robot's arm (links, palm, finger plates on the
//! hull), the scene's movable objects and its valves' handwheels. Each node is built once from its collider's shape
//! and posed from the collider's world pose every frame, so what is drawn is exactly what the
//! physics collides with (a held object follows the gripper because its collider does).

use std::cell::RefCell;
use std::rc::Rc;

use kiss3d::color::Color;
use kiss3d::resource::Material3d;
use kiss3d::scene::SceneNode3d;
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use super::pose3;
use crate::sim::{isometry_of, RobotId, Simulation};

/// Colour of the arm: the yellow of many EOD arms.
const ARM_COLOR: Color = Color::new(0.85, 0.7, 0.15, 1.0);
/// Colour of a door's lever handle (brushed steel).
const HANDLE_COLOR: Color = Color::new(0.62, 0.63, 0.65, 1.0);

/// One node following one collider.
struct ColliderNode {
    node: SceneNode3d,
    collider: ColliderHandle,
    /// The shape's pose in the collider's frame (a capsule drawn along its segment).
    offset: Isometry3<f64>,
}

/// The nodes of an arm's colliders and of the scene's objects.
pub struct BodyNodes {
    nodes: Vec<ColliderNode>,
}

/// Facets round a drawn ball or capsule (a valve's rim and spokes, an arm's links: small
/// parts, a few centimetres across on the screen).
const ROUND_SUBDIV: u32 = 16;
/// Facets along each of a drawn capsule's end caps. kiss3d's own capsule has 50 × 50 per cap
/// (some 10 000 triangles): the 19 capsules of each of the plant's two valve wheels then cost
/// a software renderer more than the whole site round them (the plant's main view 50 ms a
/// frame against the public stairs' 17).
const CAP_SUBDIV: u32 = 4;

/// A node for `collider`'s shape under `root`, coloured `color`, with the shape's offset in
/// the collider's frame; `None` for a shape not drawn.
fn shape_node(
    root: &mut SceneNode3d,
    collider: &Collider,
    color: Color,
) -> Option<(SceneNode3d, Isometry3<f64>)> {
    let shape = collider.shape();
    let (mut node, offset) = if let Some(c) = shape.as_cuboid() {
        let h = c.half_extents;
        (
            root.add_cube(2.0 * h.x, 2.0 * h.y, 2.0 * h.z),
            Isometry3::identity(),
        )
    } else if let Some(b) = shape.as_ball() {
        (
            root.add_sphere_with_subdiv(b.radius, ROUND_SUBDIV, ROUND_SUBDIV / 2),
            Isometry3::identity(),
        )
    } else if let Some(c) = shape.as_cylinder() {
        // kiss3d's cylinders and rapier's both stand along y.
        (
            root.add_cylinder(c.radius, 2.0 * c.half_height),
            Isometry3::identity(),
        )
    } else if let Some(c) = shape.as_capsule() {
        let v = |p: rapier3d::math::Vector| {
            Vector3::new(f64::from(p.x), f64::from(p.y), f64::from(p.z))
        };
        let (a, b) = (v(c.segment.a), v(c.segment.b));
        let along = b - a;
        let rotation = UnitQuaternion::rotation_between(&Vector3::y(), &along)
            .unwrap_or_else(UnitQuaternion::identity);
        let offset = Isometry3::from_parts(Translation3::from((a + b) / 2.0), rotation);
        let node =
            root.add_capsule_with_subdiv(c.radius, along.norm() as f32, ROUND_SUBDIV, CAP_SUBDIV);
        (node, offset)
    } else {
        return None;
    };
    Some((node.set_color(color), offset))
}

impl BodyNodes {
    /// Nodes for robot `id`'s arm and every scene object, valve wheel and door leaf (with its
    /// handle) of `sim`, under `root`.
    pub fn new(root: &mut SceneNode3d, sim: &Simulation, id: RobotId) -> Self {
        let world = sim.physics();
        let arm = sim.arm_colliders(id).into_iter().map(|h| (h, ARM_COLOR));
        let objects = (0..sim.scene().objects.len()).filter_map(|i| {
            let spec = &sim.scene().objects[i];
            let body = world.bodies.get(sim.object_body(i)?)?;
            let [r, g, b] = spec.color;
            Some((*body.colliders().first()?, Color::new(r, g, b, 1.0)))
        });
        // A valve's wheel: every collider of its body (rim segments, spokes, hub).
        let valves = (0..sim.scene().valves.len()).flat_map(|i| {
            let [r, g, b] = sim.scene().valves[i].color;
            let colliders = sim
                .valve_body(i)
                .and_then(|h| world.bodies.get(h))
                .map(|body| body.colliders().to_vec())
                .unwrap_or_default();
            colliders
                .into_iter()
                .map(move |c| (c, Color::new(r, g, b, 1.0)))
        });
        // A door's leaf in its colour, its lever handle's parts in brushed steel.
        let doors = (0..sim.scene().doors.len()).flat_map(|i| {
            let [r, g, b] = sim.scene().doors[i].color;
            let colliders = sim
                .door_body(i)
                .and_then(|h| world.bodies.get(h))
                .map(|body| body.colliders().to_vec())
                .unwrap_or_default();
            colliders.into_iter().enumerate().map(move |(k, c)| {
                let color = if k == 0 {
                    Color::new(r, g, b, 1.0)
                } else {
                    HANDLE_COLOR
                };
                (c, color)
            })
        });
        let nodes = arm
            .chain(objects)
            .chain(valves)
            .chain(doors)
            .filter_map(|(handle, color)| {
                let collider = world.colliders.get(handle)?;
                let (node, offset) = shape_node(root, collider, color)?;
                Some(ColliderNode {
                    node,
                    collider: handle,
                    offset,
                })
            })
            .collect();
        let mut nodes = Self { nodes };
        nodes.update(sim);
        nodes
    }

    /// Poses every node from its collider's world pose now.
    pub fn update(&mut self, sim: &Simulation) {
        let world = sim.physics();
        for n in &mut self.nodes {
            if let Some(c) = world.colliders.get(n.collider) {
                n.node
                    .set_pose(pose3(&(isometry_of(c.position()) * n.offset)));
            }
        }
    }

    /// Gives every node `material` (the fast render path's).
    pub fn set_material(&mut self, material: &Rc<RefCell<Box<dyn Material3d + 'static>>>) {
        for n in &mut self.nodes {
            n.node.set_material(material.clone());
        }
    }
}
