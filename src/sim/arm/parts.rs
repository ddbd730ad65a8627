//! An arm's colliders on its hull (links, palm, finger plates), where they sit at a posture,
//! and the own-hull collision test a joint move must pass.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use rapier3d::parry::bounding_volume::BoundingVolume;
use rapier3d::parry::query::contact;
use rapier3d::prelude::*;

use super::{is_arm_part, ARM_GROUP, FINGER_MIN, FINGER_SIDES};
use crate::sim::hull::TERRAIN_GROUP;
use crate::sim::{pose_of, v32, v64};
use crate::vehicle::arm::kinematics::{link_frames, JointVector};
use crate::vehicle::arm::{ArmSpec, GripperSpec, MAX_ARM_JOINTS};

/// Where each arm collider sits on the hull at a posture, body frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PartPoses {
    /// Each link's frame (its collider's pose).
    pub links: [Isometry3<f64>; MAX_ARM_JOINTS],
    /// The palm box's centre.
    pub palm: Isometry3<f64>,
    /// Each finger plate's centre (left, right).
    pub fingers: [Isometry3<f64>; 2],
    /// The pads' frame: the gripper frame moved to the tool point.
    pub pad: Isometry3<f64>,
}

/// The arm's part poses at joint positions `q` with the pads `gap` m apart.
pub(crate) fn part_poses(spec: &ArmSpec, q: &JointVector, gap: f64) -> PartPoses {
    let mut links = [Isometry3::identity(); MAX_ARM_JOINTS];
    let gripper = link_frames(spec, q, &mut links);
    let g = &spec.gripper;
    let tool = g.tool_point();
    let half_gap = (0.5 * gap).clamp(FINGER_MIN, 0.5 * g.opening);
    let plate = half_gap + 0.5 * g.finger_thickness();
    PartPoses {
        links,
        palm: gripper * Translation3::new(0.5 * g.palm_length, 0.0, 0.0),
        fingers: FINGER_SIDES.map(|side| gripper * Translation3::new(tool.x, side * plate, 0.0)),
        pad: gripper * Translation3::from(tool.coords),
    }
}

/// The arm's colliders on the hull body.
#[derive(Debug, Clone)]
pub(crate) struct ArmParts {
    /// One per joint's link.
    pub links: Vec<ColliderHandle>,
    /// The palm.
    pub palm: ColliderHandle,
    /// Left (+y) and right finger plates.
    pub fingers: [ColliderHandle; 2],
}

impl ArmParts {
    /// Every part with the link that carries it and its pose in `poses`.
    pub fn each<'a>(
        &'a self,
        poses: &'a PartPoses,
    ) -> impl Iterator<Item = (ColliderHandle, usize, &'a Isometry3<f64>)> + 'a {
        let last = self.links.len() - 1;
        let links = self
            .links
            .iter()
            .enumerate()
            .map(|(k, h)| (*h, k, &poses.links[k]));
        let palm = std::iter::once((self.palm, last, &poses.palm));
        let fingers = self
            .fingers
            .iter()
            .zip(&poses.fingers)
            .map(move |(h, p)| (*h, last, p));
        links.chain(palm).chain(fingers)
    }

    /// Every part's collider handle.
    fn handles(&self) -> impl Iterator<Item = ColliderHandle> + '_ {
        self.links
            .iter()
            .chain(std::iter::once(&self.palm))
            .chain(&self.fingers)
            .copied()
    }

    /// The box round every part where it sits on the hull now: its centre and half-extents,
    /// m, body frame (`None` if no part is in `world`).
    pub fn bounds(&self, world: &PhysicsWorld) -> Option<(Point3<f64>, Vector3<f64>)> {
        let mut bounds: Option<(Vector3<f64>, Vector3<f64>)> = None;
        for handle in self.handles() {
            let Some(c) = world.colliders.get(handle) else {
                continue;
            };
            let Some(pose) = c.position_wrt_parent() else {
                continue;
            };
            let aabb = c.shape().compute_aabb(pose);
            let (lo, hi) = (v64(aabb.mins), v64(aabb.maxs));
            bounds = Some(match bounds {
                None => (lo, hi),
                Some((a, b)) => (a.inf(&lo), b.sup(&hi)),
            });
        }
        bounds.map(|(lo, hi)| (Point3::from((lo + hi) * 0.5), (hi - lo) * 0.5))
    }

    /// Puts the terrain in the parts' collision filter (`near`) or leaves it out, touching a
    /// collider only when its filter changes (rapier then pairs it again).
    pub fn set_terrain(&self, world: &mut PhysicsWorld, near: bool) {
        let filter = if near {
            Group::ALL.difference(ARM_GROUP)
        } else {
            Group::ALL.difference(ARM_GROUP).difference(TERRAIN_GROUP)
        };
        for handle in self.handles() {
            // Looked at first, changed only if needed: `get_mut` marks a collider as changed.
            let changed = world
                .colliders
                .get(handle)
                .is_some_and(|c| c.collision_groups().filter != filter);
            if let Some(c) = world.colliders.get_mut(handle).filter(|_| changed) {
                c.set_collision_groups(c.collision_groups().with_filter(filter));
            }
        }
    }
}

/// A collider of `shape` for an arm part at `pose` (body frame) of `mass` kg.
fn arm_collider(
    shape: ColliderBuilder,
    pose: &Isometry3<f64>,
    friction: f64,
    mass: f64,
) -> ColliderBuilder {
    shape
        .position(pose_of(pose))
        .mass(mass as f32)
        .friction(friction as f32)
        .restitution(0.0)
        .collision_groups(InteractionGroups::new(
            ARM_GROUP,
            Group::ALL.difference(ARM_GROUP),
            InteractionTestMode::And,
        ))
}

/// Inserts the arm's colliders at `poses` on `hull`; `friction` is the links' and palm's μ.
pub(crate) fn insert_parts(
    world: &mut PhysicsWorld,
    spec: &ArmSpec,
    hull: RigidBodyHandle,
    poses: &PartPoses,
    friction: f64,
) -> ArmParts {
    let mut insert = |builder: ColliderBuilder| {
        world
            .colliders
            .insert_with_parent(builder.build(), hull, &mut world.bodies)
    };
    let links = spec
        .joints
        .iter()
        .zip(&poses.links)
        .map(|(joint, pose)| {
            let link = &joint.link;
            let shape = if link.end.norm() < 1e-6 {
                ColliderBuilder::ball(link.radius as f32)
            } else {
                ColliderBuilder::capsule_from_endpoints(
                    Vector::ZERO,
                    v32(&link.end),
                    link.radius as f32,
                )
            };
            insert(arm_collider(shape, pose, friction, link.mass))
        })
        .collect();
    let g: &GripperSpec = &spec.gripper;
    let palm = ColliderBuilder::cuboid(
        (0.5 * g.palm_length) as f32,
        (0.5 * g.opening + g.finger_thickness()) as f32,
        (0.5 * g.pad[1]) as f32,
    );
    let palm = insert(arm_collider(palm, &poses.palm, friction, g.palm_mass));
    let fingers = poses.fingers.map(|pose| {
        let plate = ColliderBuilder::cuboid(
            (0.5 * g.pad[0]) as f32,
            (0.5 * g.finger_thickness()) as f32,
            (0.5 * g.pad[1]) as f32,
        );
        insert(
            arm_collider(plate, &pose, g.friction, g.finger_mass)
                .friction_combine_rule(CoefficientCombineRule::Min),
        )
    });
    ArmParts {
        links,
        palm,
        fingers,
    }
}

/// How deep a part may sink into its own hull or a belt guard, m: the shapes are the hull's
/// outline, and a stowed arm rests on the deck within this.
const GRAZE: f32 = 0.005;
/// A part sinks deeper only by more than this, m.
const DEEPER: f32 = 1.0e-4;

/// Whether moving the arm's parts from `before` to `after` sinks one into its own hull or a
/// belt guard: deeper than [`GRAZE`] and deeper than it already was (a part may always move
/// out); `held` is a held object's collider, on the hull but not part of it.
pub(crate) fn meets_own_hull(
    world: &PhysicsWorld,
    hull: RigidBodyHandle,
    parts: &ArmParts,
    held: Option<ColliderHandle>,
    before: &PartPoses,
    after: &PartPoses,
) -> bool {
    let Some(body) = world.bodies.get(hull) else {
        return false;
    };
    // Signed distance between a part at `pose` and a hull collider, m (negative: sunk in).
    let depth = |shape: &dyn Shape, pose: &Pose, other: &Collider| -> f32 {
        let Some(at) = other.position_wrt_parent() else {
            return f32::INFINITY;
        };
        if !shape
            .compute_aabb(pose)
            .loosened(GRAZE)
            .intersects(&other.shape().compute_aabb(at))
        {
            return f32::INFINITY;
        }
        contact(pose, shape, at, other.shape(), 0.0)
            .ok()
            .flatten()
            .map_or(f32::INFINITY, |c| c.dist)
    };
    parts
        .each(after)
        .zip(parts.each(before))
        .any(|((handle, _, new), (_, _, old))| {
            let Some(part) = world.colliders.get(handle) else {
                return false;
            };
            let (new, old) = (pose_of(new), pose_of(old));
            body.colliders()
                .iter()
                .filter(|h| Some(**h) != held)
                .filter_map(|h| world.colliders.get(*h))
                .filter(|c| !is_arm_part(c))
                .any(|c| {
                    let now = depth(part.shape(), &new, c);
                    // (A part sunk in from the start, such as a turret on the deck, turns in
                    // place: its depth then changes only by rounding.)
                    now < -GRAZE && now < depth(part.shape(), &old, c) - DEEPER
                })
        })
}
