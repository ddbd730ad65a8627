//! The bare world a benchmark measures the full step against: the same scene mesh as a rapier
//! trimesh collider and the same hulls as plain rapier bodies (box collider, same mass
//! properties), driven by nothing but gravity and their collider contacts — no track model.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use super::{insert_hull, pose_of, terrain_collider, SimConfig, SimError};
use crate::scene::{Scene, Spawn};
use crate::vehicle::spec::HullShape;
use crate::vehicle::RobotSpec;

/// The bare world: the scene's trimesh and a hull `spec` at each of `spawns` as plain rapier
/// bodies, stepping `dt` s.
pub fn bare_world(
    scene: &Scene,
    spec: &RobotSpec,
    spawns: &[Spawn],
    dt: f64,
) -> Result<PhysicsWorld, SimError> {
    let mut world = PhysicsWorld {
        gravity: Vector::new(0.0, 0.0, -9.81),
        ..Default::default()
    };
    world.integration_parameters.dt = dt as f32;
    world.colliders.insert(terrain_collider(
        &scene.terrain,
        SimConfig::default().hull_friction,
    )?);
    let HullShape::Box { size, center } = spec.hull;
    for sp in spawns {
        // The hull rests on its own box here (no tracks): lift it so the box bottom touches.
        let lift = (center.z - size.z / 2.0).max(0.0);
        let pose = Isometry3::from_parts(
            Translation3::from(sp.position.coords - Vector3::z() * lift + Vector3::z() * 0.005),
            UnitQuaternion::from_euler_angles(0.0, 0.0, sp.yaw),
        );
        insert_hull(
            &mut world,
            spec,
            pose_of(&pose),
            SimConfig::default().hull_friction,
        );
    }
    Ok(world)
}
