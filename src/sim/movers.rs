//! Moving obstacles — the traffic agents of seed 002 — as kinematic boxes in rapier's world, so
//! a robot's hull bumps into them like into any solid that will not give way. Their motion
//! comes from outside (the session runs the traffic controller); the simulation only
//! carries them: a pose set before a step is where the box is at its end, and rapier gives the
//! box the velocity that takes it there, so contacts see it move.

use nalgebra::Isometry3;
use rapier3d::prelude::*;

use super::{isometry_of, pose_of, RobotId, Simulation};

/// `next` with its rotation's quaternion on the same side as `now`'s. q and −q are one
/// rotation, but rapier gives a kinematic body the angular velocity of next · now⁻¹ without
/// taking the short way round: a heading wrapping through ±π (yaw −3.141 to +3.136) would be a
/// turn of nearly 2π in one step — thousands of rad/s, flinging a robot the box touches (found
/// by the soak on the street, cars turning beside the robot).
fn short_way_round(now: &Pose, mut next: Pose) -> Pose {
    if next.rotation.dot(now.rotation) < 0.0 {
        next.rotation = -next.rotation;
    }
    next
}

/// Index of a moving obstacle in its simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoverId(pub usize);

impl Simulation {
    /// Adds a kinematic box of full size `size` (length, width, height, m, along its own x, y,
    /// z) with its centre at `pose` (world).
    pub fn add_mover(&mut self, size: [f64; 3], pose: &Isometry3<f64>) -> MoverId {
        let body = RigidBodyBuilder::kinematic_position_based()
            .pose(pose_of(pose))
            .build();
        let handle = self.world.bodies.insert(body);
        let collider = ColliderBuilder::cuboid(
            (size[0] / 2.0) as f32,
            (size[1] / 2.0) as f32,
            (size[2] / 2.0) as f32,
        )
        .friction(self.config.hull_friction as f32)
        .build();
        let PhysicsWorld {
            colliders, bodies, ..
        } = &mut self.world;
        colliders.insert_with_parent(collider, handle, bodies);
        self.movers.push((handle, size));
        MoverId(self.movers.len() - 1)
    }

    /// Where mover `id` is at the end of the next step (world, centre of its box).
    pub fn move_mover(&mut self, id: MoverId, pose: &Isometry3<f64>) {
        if let Some(body) = self
            .movers
            .get(id.0)
            .and_then(|(h, _)| self.world.bodies.get_mut(*h))
        {
            body.set_next_kinematic_position(short_way_round(body.position(), pose_of(pose)));
        }
    }

    /// Pose of mover `id` now (world, centre of its box); `None` for an unknown id.
    pub fn mover_pose(&self, id: MoverId) -> Option<Isometry3<f64>> {
        let (handle, _) = self.movers.get(id.0)?;
        self.world
            .bodies
            .get(*handle)
            .map(|b| isometry_of(b.position()))
    }

    /// Angular speed of mover `id`'s box, rad/s: what rapier gave it to reach the pose set for
    /// the last step (contacts see the box turning at this rate); `None` for an unknown id.
    pub fn mover_angular_speed(&self, id: MoverId) -> Option<f64> {
        let (handle, _) = self.movers.get(id.0)?;
        self.world
            .bodies
            .get(*handle)
            .map(|b| f64::from(b.angvel().length()))
    }

    /// Full size of mover `id`'s box (length, width, height, m); `None` for an unknown id.
    pub fn mover_size(&self, id: MoverId) -> Option<[f64; 3]> {
        self.movers.get(id.0).map(|(_, size)| *size)
    }

    /// Whether robot `id`'s hull touched any mover in the last step (a collision with
    /// traffic, which exercises penalise).
    pub fn hull_touches_mover(&self, id: RobotId) -> bool {
        let Some(body) = self
            .robots
            .get(id.0)
            .and_then(|r| self.world.bodies.get(r.body))
        else {
            return false;
        };
        let is_mover = |c: ColliderHandle| {
            self.world
                .colliders
                .get(c)
                .and_then(|c| c.parent())
                .is_some_and(|b| self.movers.iter().any(|(mover, _)| *mover == b))
        };
        body.colliders().iter().any(|own| {
            self.world
                .narrow_phase
                .contact_pairs_with(*own)
                .filter(|pair| pair.has_any_active_contact())
                .any(|pair| {
                    let other = if pair.collider1 == *own {
                        pair.collider2
                    } else {
                        pair.collider1
                    };
                    is_mover(other)
                })
        })
    }

    /// Number of moving obstacles.
    pub fn mover_count(&self) -> usize {
        self.movers.len()
    }
}
