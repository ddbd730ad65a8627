//! An arm's colliders on its hull (links, palm, finger plates), where they sit at a posture,
//! and the own-hull collision test a joint move must pass.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use rapier3d::parry::bounding_volume::BoundingVolume;
use rapier3d::parry::query::contact;
use rapier3d::prelude::*;

use super::{is_arm_part, ARM_GROUP, FINGER_MIN, FINGER_SIDES};
use crate::sim::hull::TERRAIN_GROUP;
use crate::sim::{pose_of, v32, v64, PhysicsWorld};
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
            set_filter(world, handle, filter);
        }
    }
}

/// Sets collider `handle`'s collision filter to `filter` (its memberships kept), touching it
/// only if the filter changes: `get_mut` marks a collider as changed, and rapier then pairs it
/// again.
pub(crate) fn set_filter(world: &mut PhysicsWorld, handle: ColliderHandle, filter: Group) {
    let changed = world
        .colliders
        .get(handle)
        .is_some_and(|c| c.collision_groups().filter != filter);
    if let Some(c) = world.colliders.get_mut(handle).filter(|_| changed) {
        c.set_collision_groups(c.collision_groups().with_filter(filter));
    }
}

/// What rapier is shown of a part while it is attached to the hull: a ball thicker than any
/// hull (m), so that the hull's thickness for continuous collision detection stays that of its
/// own colliders.
///
/// Why: rapier 0.36 sweeps a dynamic body against the fixed scene in any step in which a point
/// of it moves more than half its thinnest collider (`ccd_thickness`, the minimum over the
/// colliders *as attached*), every collider of the body, about 180 000 instructions a sweep.
/// A gripper's pads (5 mm half-thickness on `scout_eod`) made the whole robot "fast" in one
/// climbing step in twenty, costing a third of the arm's overhead for nothing: the parts are
/// placed by the arm's servo model each step, which a sweep of the hull's motion does not
/// cover, and over the bench's 6000-step climb no sweep ever clamped the robot (the trace
/// digests with and without are bit-identical). The attached thickness is not recomputed
/// when a shape changes, so the part gets its true shape right after.
const STAND_IN_RADIUS: f32 = 10.0;

/// The stand-in shape of [`STAND_IN_RADIUS`].
fn stand_in() -> SharedShape {
    SharedShape::ball(STAND_IN_RADIUS)
}

/// Gives the attached collider `handle` back its true `shape` (its mass properties follow at
/// the next step, as for any change of shape).
fn restore_shape(world: &mut PhysicsWorld, handle: ColliderHandle, shape: SharedShape) {
    if let Some(c) = world.colliders.get_mut(handle) {
        c.set_shape(shape);
    }
}

/// Moves collider `handle` onto `hull` (a held object taken by the gripper) without thinning
/// the hull for continuous collision detection (see [`STAND_IN_RADIUS`]).
pub(crate) fn attach_to_hull(
    world: &mut PhysicsWorld,
    handle: ColliderHandle,
    hull: RigidBodyHandle,
) {
    let Some(c) = world.colliders.get_mut(handle) else {
        return;
    };
    let shape = c.shared_shape().clone();
    c.set_shape(stand_in());
    world
        .colliders
        .set_parent(handle, Some(hull), &mut world.bodies);
    restore_shape(world, handle, shape);
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
    let mut insert = |mut builder: ColliderBuilder| {
        let shape = std::mem::replace(&mut builder.shape, stand_in());
        let handle = world
            .colliders
            .insert_with_parent(builder.build(), hull, &mut world.bodies);
        restore_shape(world, handle, shape);
        handle
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::robot_file::load_robot;
    use std::path::Path;

    /// A world without gravity holding a hull box (0.6 × 0.4 × 0.2 m, so 0.1 m thick to
    /// rapier's continuous collision detection) moving along x at `speed` m/s.
    fn moving_hull(speed: f32) -> (PhysicsWorld, RigidBodyHandle) {
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::ZERO;
        let hull = world
            .bodies
            .insert(RigidBodyBuilder::dynamic().linvel(Vector::new(speed, 0.0, 0.0)));
        world.colliders.insert_with_parent(
            ColliderBuilder::cuboid(0.3, 0.2, 0.1).build(),
            hull,
            &mut world.bodies,
        );
        (world, hull)
    }

    /// Whether rapier sweeps `body` in the next step.
    fn swept(world: &mut PhysicsWorld, body: RigidBodyHandle) -> bool {
        world.step();
        world.bodies.get(body).is_some_and(|b| b.is_ccd_active())
    }

    /// A plate 2 mm thick.
    fn thin_plate() -> Collider {
        ColliderBuilder::cuboid(0.05, 0.001, 0.05).mass(0.1).build()
    }

    /// At 0.5 m/s a hull moves 8 mm in one of rapier's default 1/60 s steps: under half its
    /// own 0.1 m, over half a 5 mm pad or a 2 mm plate. Attached as they are, those make the
    /// whole robot a body rapier sweeps; the arm's parts and what it takes do not.
    #[test]
    fn the_arm_and_what_it_holds_leave_the_hull_unswept() {
        let (mut world, hull) = moving_hull(0.5);
        assert!(!swept(&mut world, hull), "the hull alone is thick enough");
        // The control: a thin plate attached as rapier does it.
        world
            .colliders
            .insert_with_parent(thin_plate(), hull, &mut world.bodies);
        assert!(swept(&mut world, hull), "a thin part thins the hull");

        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/robots/scout_eod.toml");
        let spec = load_robot(&path).expect("robot").arm.expect("arm");
        assert!(spec.gripper.finger_thickness() < 0.011);
        let (mut world, hull) = moving_hull(0.5);
        let poses = part_poses(&spec, &[0.0; MAX_ARM_JOINTS], spec.gripper.opening);
        let parts = insert_parts(&mut world, &spec, hull, &poses, 0.8);
        // The parts keep their true shapes.
        let pad = world.colliders.get(parts.fingers[0]).expect("pad");
        let half = pad.shape().as_cuboid().expect("a plate").half_extents;
        assert!((f64::from(half.y) - 0.5 * spec.gripper.finger_thickness()).abs() < 1e-6);
        // A thin object taken off its own body.
        let object = world
            .bodies
            .insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.0, 2.0)));
        let plate = world
            .colliders
            .insert_with_parent(thin_plate(), object, &mut world.bodies);
        attach_to_hull(&mut world, plate, hull);
        assert_eq!(
            world.colliders.get(plate).and_then(|c| c.parent()),
            Some(hull)
        );
        for _ in 0..10 {
            assert!(!swept(&mut world, hull));
        }
    }
}
