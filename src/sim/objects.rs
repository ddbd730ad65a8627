//! The scene's movable objects ([`crate::scene::ObjectSpec`]) as dynamic rapier bodies: they
//! fall, slide and tumble under gravity and contact, robots push them with hulls and belt
//! guards and grasp them with arms, and at rest they sleep (rapier skips a sleeping body, so
//! a scene full of debris costs nothing until something touches it).

use nalgebra::{Isometry3, Point3};
use rapier3d::prelude::*;

use super::proximity::BodySphere;
use super::state::body_values;
use super::{isometry_of, pose_of, v64, Simulation, StateSnapshot};
use crate::scene::{ObjectShape, ObjectSpec};

/// An object's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObjectState {
    /// Pose of its centre, world frame.
    pub pose: Isometry3<f64>,
    /// Linear velocity, m/s, world frame.
    pub linvel: nalgebra::Vector3<f64>,
    /// Whether rapier has put it to sleep (at rest, costing nothing).
    pub sleeping: bool,
}

/// Inserts `spec` as a dynamic body at its initial pose, at rest.
pub(crate) fn insert_object(world: &mut PhysicsWorld, spec: &ObjectSpec) -> RigidBodyHandle {
    let body = world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .pose(pose_of(&spec.pose))
            .build(),
    );
    let shape = match spec.shape {
        ObjectShape::Box { size } => ColliderBuilder::cuboid(
            size.x as f32 / 2.0,
            size.y as f32 / 2.0,
            size.z as f32 / 2.0,
        ),
        ObjectShape::Cylinder { radius, length } => {
            // rapier's cylinders stand along y; the object's axis is its z.
            ColliderBuilder::cylinder(length as f32 / 2.0, radius as f32).rotation(Vector::new(
                std::f32::consts::FRAC_PI_2,
                0.0,
                0.0,
            ))
        }
        ObjectShape::Sphere { radius } => ColliderBuilder::ball(radius as f32),
    };
    let collider = shape
        .mass(spec.mass as f32)
        .friction(spec.friction as f32)
        .restitution(0.0)
        .build();
    world
        .colliders
        .insert_with_parent(collider, body, &mut world.bodies);
    body
}

impl Simulation {
    /// The scene's objects' states, in scene order.
    pub fn object_states(&self) -> impl Iterator<Item = ObjectState> + '_ {
        (0..self.objects.len()).filter_map(|i| self.object_state(i))
    }

    /// Object `i`'s state (scene order), if it exists.
    pub fn object_state(&self, i: usize) -> Option<ObjectState> {
        let body = self.world.bodies.get(*self.objects.get(i)?)?;
        Some(ObjectState {
            pose: isometry_of(body.position()),
            linvel: v64(body.linvel()),
            sleeping: body.is_sleeping(),
        })
    }

    /// The rapier body of object `i` (scene order), for the viewer.
    pub fn object_body(&self, i: usize) -> Option<RigidBodyHandle> {
        self.objects.get(i).copied()
    }

    /// Puts every object back at its initial pose, at rest, every valve at its starting
    /// opening and every door at its starting angle (the instructor's reset).
    pub fn reset_objects(&mut self) {
        // A held object leaves the gripper first (its collider is on the hull while held).
        for r in &mut self.robots {
            if let Some(rig) = r.arm.as_mut() {
                rig.release(&mut self.world);
            }
        }
        for (o, spec) in self.objects.iter().zip(&self.scene.objects) {
            if let Some(body) = self.world.bodies.get_mut(*o) {
                body.set_position(pose_of(&spec.pose), true);
                body.set_linvel(Vector::ZERO, true);
                body.set_angvel(Vector::ZERO, true);
            }
        }
        self.reset_valves();
        self.reset_doors();
    }

    /// Adds every object's pose and velocities as rapier stores them to a state snapshot,
    /// named `object.<name>.…`, every valve's opening ([`Simulation::capture_valves`]) and every
    /// door's leaf, handle and latch ([`Simulation::capture_doors`]).
    pub fn capture_objects(&self, out: &mut StateSnapshot) {
        for (o, spec) in self.objects.iter().zip(&self.scene.objects) {
            let Some(body) = self.world.bodies.get(*o) else {
                continue;
            };
            out.push_all(&format!("object.{}", spec.name), body_values(body));
        }
        self.capture_valves(out);
        self.capture_doors(out);
    }
}

/// Pushes the objects' proximity spheres (robot `None`) onto `spheres`: each object's
/// bounding sphere swollen by how far it moves in a step of `dt` s.
pub(super) fn push_spheres(
    world: &PhysicsWorld,
    objects: &[RigidBodyHandle],
    specs: &[ObjectSpec],
    dt: f64,
    spheres: &mut Vec<BodySphere>,
) {
    for (o, spec) in objects.iter().zip(specs) {
        if let Some(body) = world.bodies.get(*o) {
            spheres.push(BodySphere {
                centre: Point3::from(v64(body.translation())),
                radius: spec.shape.bounding_radius() + v64(body.linvel()).norm() * dt,
                robot: None,
            });
        }
    }
}
