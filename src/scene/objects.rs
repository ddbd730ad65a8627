//! Movable things in a scene (`[[object]]`): rigid bodies a robot can push, grasp, carry and
//! drop — packages, bottles, pipes, bricks, debris. The track model sees only the static
//! terrain; objects meet the robots' hulls, belt guards and arms through rapier.

use nalgebra::{Isometry3, Vector3};

use super::load::{read_pose, read_surface, MAX_EXTENT};
use crate::config::{ConfigError, TableReader};
use crate::terrain::SurfaceMaterial;

/// Most `[[object]]` tables in one scene.
pub const MAX_OBJECTS: usize = 1000;
/// Heaviest object accepted, kg.
pub const MAX_OBJECT_MASS: f64 = 10_000.0;

/// An object's shape, in its own frame (centred on its origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ObjectShape {
    /// A box with these full sizes along x, y, z, m.
    Box {
        /// Full sizes, m.
        size: Vector3<f64>,
    },
    /// A cylinder along the object's z.
    Cylinder {
        /// Radius, m.
        radius: f64,
        /// Length, m.
        length: f64,
    },
    /// A ball.
    Sphere {
        /// Radius, m.
        radius: f64,
    },
}

impl ObjectShape {
    /// Radius of a sphere about the origin that holds the shape, m.
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            ObjectShape::Box { size } => size.norm() / 2.0,
            ObjectShape::Cylinder { radius, length } => radius.hypot(length / 2.0),
            ObjectShape::Sphere { radius } => radius,
        }
    }
}

/// One movable object as the scene file places it.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectSpec {
    /// Name, unique in the scene (exercises and logs refer to it).
    pub name: String,
    /// Shape.
    pub shape: ObjectShape,
    /// Mass, kg (uniform density).
    pub mass: f64,
    /// Friction coefficient μ of its surface.
    pub friction: f64,
    /// Display colour, linear RGB in 0..=1.
    pub color: [f32; 3],
    /// Initial pose of its centre, world frame.
    pub pose: Isometry3<f64>,
}

/// Reads the `[[object]]` tables (material and pose as for elements).
pub(crate) fn read_objects(
    root: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<Vec<ObjectSpec>, ConfigError> {
    root.named_tables(
        "object",
        MAX_OBJECTS,
        "object",
        |t| read_object(t, materials),
        |o| &o.name,
    )
}

fn read_object(
    t: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<ObjectSpec, ConfigError> {
    let name = t.str("name")?;
    if name.trim().is_empty() {
        return Err(t.error("name", "must not be empty"));
    }
    let shape = match t.str("shape")?.as_str() {
        "box" => ObjectShape::Box {
            size: Vector3::from(t.positive_array::<3>("size", MAX_EXTENT)?),
        },
        "cylinder" => ObjectShape::Cylinder {
            radius: t.positive("radius", MAX_EXTENT)?,
            length: t.positive("length", MAX_EXTENT)?,
        },
        "sphere" => ObjectShape::Sphere {
            radius: t.positive("radius", MAX_EXTENT)?,
        },
        other => {
            return Err(t.error(
                "shape",
                format!("unknown shape '{other}' (box, cylinder or sphere)"),
            ))
        }
    };
    let mass = t.positive("mass", MAX_OBJECT_MASS)?;
    let (friction, color) = read_surface(t, materials, None)?;
    let pose = read_pose(t)?;
    t.finish()?;
    Ok(ObjectSpec {
        name,
        shape,
        mass,
        friction,
        color,
        pose,
    })
}
