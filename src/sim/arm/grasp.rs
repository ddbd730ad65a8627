//! Grasping by contact and friction. An object both finger pads touch while the gripper
//! closes is *held*: its collider moves onto the hull body at the pads, so its weight and
//! every contact it meets reach the robot as rapier's own forces (its body rests, disabled,
//! and follows the collider). Whether the pads can hold it is Coulomb's law at the pads,
//! integrated here every step ([`Grasp::slide`]):
//!
//! - the force the pads must give the object to carry it with the gripper is its mass times
//!   its acceleration, less its weight and the contact forces on it;
//! - its part along the pads (the pad plane, gripper x and z) is bounded by 2·μ·F — each of
//!   the two pads presses with the grip force F at friction μ, the lower of the pad's and the
//!   object's;
//! - within the bound the object sticks; beyond it the object slides along the pads,
//!   accelerated by the excess and braked by kinetic friction 2·μ·F (taken equal to static),
//!   and sticks again when its sliding stops;
//! - an object that slides off the pads falls: its collider goes back to its body, which
//!   carries on with the velocity it had.
//!
//! Along the finger axis the pads' own plates hold it, as strong as the finger mechanism.
//! What the law leaves out: twisting and tilting in the grip (the object turns with the
//! gripper), and a held object's collision with its own robot.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use rapier3d::prelude::*;

use super::super::{isometry_of, pose_of, v32, v64};
use super::parts::{attach_to_hull, set_filter};
use crate::sim::hull::TERRAIN_GROUP;
use crate::vehicle::arm::GripperSpec;

/// A contact point this close, m, counts as a pad touching an object.
const TOUCH: f32 = 0.001;

/// What a grip holds along the pads by Coulomb's law: 2·μ·F, N, for two pads each pressing
/// with `force` N at friction `friction`.
pub fn grip_limit(force: f64, friction: f64) -> f64 {
    2.0 * friction * force
}

/// The hull's pose and motion, world frame, as a grasp needs them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HullMotion {
    /// The hull body.
    pub handle: RigidBodyHandle,
    /// Body pose.
    pub pose: Isometry3<f64>,
    /// Centre of mass, m.
    pub com: Point3<f64>,
    /// Velocity of the centre of mass, m/s.
    pub linvel: Vector3<f64>,
    /// Angular velocity, rad/s.
    pub angvel: Vector3<f64>,
}

impl HullMotion {
    /// The hull `hull` of `world` now.
    pub fn of(world: &PhysicsWorld, hull: RigidBodyHandle) -> Option<Self> {
        let body = world.bodies.get(hull)?;
        Some(Self {
            handle: hull,
            pose: isometry_of(body.position()),
            com: Point3::from(v64(body.center_of_mass())),
            linvel: v64(body.linvel()),
            angvel: v64(body.angvel()),
        })
    }

    /// The velocity of the point `p` (world) carried by the hull, m/s.
    pub fn velocity_at(&self, p: &Point3<f64>) -> Vector3<f64> {
        self.linvel + self.angvel.cross(&(p - self.com))
    }
}

/// A held object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grasp {
    /// The object's body (disabled while held).
    pub object: RigidBodyHandle,
    /// Its collider, on the hull while held.
    collider: ColliderHandle,
    /// The collider's pose on its own body (restored on release).
    on_body: Isometry3<f64>,
    /// The collider's pose in the pads' frame where it was taken, m.
    held: Isometry3<f64>,
    /// How far it has slid along the pads since, m, pads' frame.
    slid: Vector3<f64>,
    /// Its sliding speed along the pads, m/s, pads' frame (zero: sticking).
    sliding: Vector3<f64>,
    /// Its centre's velocity in the last step, m/s, world frame.
    last_velocity: Vector3<f64>,
    /// Its body's last finite pose, world frame (where a blow-up of the hull leaves it).
    last_pose: Isometry3<f64>,
    /// Half its extent along the pads (x and z of the pads' frame), m: it falls once it has
    /// slid this far plus half a pad.
    half_size: [f64; 2],
    /// Friction at the pads: the lower of the pad's and the object's μ.
    pub friction: f64,
    /// The object's mass, kg.
    pub mass: f64,
    /// Its collider's own collision groups (restored on release; while held the terrain may
    /// be left out of their filter, [`Grasp::set_terrain`]).
    groups: InteractionGroups,
}

/// Recomputes a body's mass properties from its colliders now: rapier would only at the
/// body's next change, and a collider that moved between bodies must count at once (a held
/// load moves the hull's centre of mass).
fn recompute_mass(world: &mut PhysicsWorld, body: RigidBodyHandle) {
    if let Some(b) = world.bodies.get_mut(body) {
        b.recompute_mass_properties_from_colliders(&world.colliders);
    }
}

/// The colliders the pad `finger` touches (last step's contacts).
pub(crate) fn touched_by(
    world: &PhysicsWorld,
    finger: ColliderHandle,
) -> impl Iterator<Item = ColliderHandle> + '_ {
    world
        .narrow_phase
        .contact_pairs_with(finger)
        .filter(|pair| {
            pair.solver_manifolds()
                .iter()
                .flat_map(|m| &m.points)
                .any(|p| p.dist <= TOUCH)
        })
        .map(move |pair| {
            if pair.collider1 == finger {
                pair.collider2
            } else {
                pair.collider1
            }
        })
}

/// The dynamic, free body both pads touch (last step's contacts), with its collider's μ.
pub(crate) fn pressed_between(
    world: &PhysicsWorld,
    fingers: [ColliderHandle; 2],
) -> Option<(ColliderHandle, f64)> {
    let touched = |finger: ColliderHandle| touched_by(world, finger);
    touched(fingers[0])
        .find(|c| touched(fingers[1]).any(|other| other == *c))
        .and_then(|c| {
            let collider = world.colliders.get(c)?;
            let body = world.bodies.get(collider.parent()?)?;
            // A body on a joint (a door, a valve) cannot leave it for the hull.
            let free = world
                .impulse_joints
                .attached_joints(collider.parent()?)
                .next()
                .is_none();
            (body.is_dynamic() && free && body.colliders().len() == 1)
                .then_some((c, collider.friction() as f64))
        })
}

impl Grasp {
    /// Takes the object whose collider is `collider` onto the hull `hull` with the pads'
    /// frame at `pad` (body frame), at friction `friction`; `None` if anything is gone.
    pub fn take(
        world: &mut PhysicsWorld,
        hull: RigidBodyHandle,
        collider: ColliderHandle,
        pad: &Isometry3<f64>,
        friction: f64,
    ) -> Option<Self> {
        let hull_body = world.bodies.get(hull)?;
        let hull_pose = isometry_of(hull_body.position());
        let c = world.colliders.get(collider)?;
        let object = c.parent()?;
        let on_body = isometry_of(c.position_wrt_parent()?);
        let world_pose = isometry_of(c.position());
        let mass = c.mass() as f64;
        let groups = c.collision_groups();
        let held = pad.inverse() * hull_pose.inverse() * world_pose;
        let local = c.shape().compute_aabb(&pose_of(&held));
        let half = local.half_extents();
        let velocity = world
            .bodies
            .get(object)
            .map_or(Vector3::zeros(), |b| v64(b.linvel()));
        attach_to_hull(world, collider, hull);
        if let Some(c) = world.colliders.get_mut(collider) {
            c.set_position_wrt_parent(pose_of(&(pad * held)));
        }
        if let Some(b) = world.bodies.get_mut(object) {
            b.set_enabled(false);
        }
        recompute_mass(world, hull);
        Some(Self {
            object,
            collider,
            on_body,
            held,
            slid: Vector3::zeros(),
            sliding: Vector3::zeros(),
            last_velocity: velocity,
            last_pose: world_pose * on_body.inverse(),
            half_size: [half.x as f64, half.z as f64],
            friction,
            mass,
            groups,
        })
    }

    /// Lets go: the collider back on its body, which carries on from where it is with the
    /// velocity it had (the hull's at its centre plus its sliding); `pad` is the pads' frame
    /// (body frame) on the hull moving as `hull`.
    pub fn release(&self, world: &mut PhysicsWorld, hull: &HullMotion, pad: &Isometry3<f64>) {
        let mut world_pose = hull.pose * pad * self.holding_pose();
        let centre = Point3::from(world_pose.translation.vector);
        let mut velocity =
            hull.velocity_at(&centre) + hull.pose.rotation * (pad.rotation * self.sliding);
        // A hull that blew up hands over nothing non-finite: the object stays where it last
        // was, at rest.
        let finite = world_pose.translation.vector.iter().all(|x| x.is_finite())
            && world_pose.rotation.coords.iter().all(|x| x.is_finite())
            && velocity.iter().all(|x| x.is_finite());
        if !finite {
            world_pose = self.last_pose * self.on_body;
            velocity = Vector3::zeros();
        }
        world
            .colliders
            .set_parent(self.collider, Some(self.object), &mut world.bodies);
        if let Some(c) = world.colliders.get_mut(self.collider) {
            c.set_position_wrt_parent(pose_of(&self.on_body));
            c.set_collision_groups(self.groups);
        }
        if let Some(b) = world.bodies.get_mut(self.object) {
            b.set_enabled(true);
            b.set_position(pose_of(&(world_pose * self.on_body.inverse())), true);
            b.set_linvel(v32(&velocity), true);
            let spin = if finite {
                hull.angvel
            } else {
                Vector3::zeros()
            };
            b.set_angvel(v32(&spin), true);
        }
        recompute_mass(world, hull.handle);
        recompute_mass(world, self.object);
    }

    /// Where the collider is held now, pads' frame: where it was taken, slid along the pads.
    fn holding_pose(&self) -> Isometry3<f64> {
        Translation3::from(self.slid) * self.held
    }

    /// Whether the object is still between the pads: it has not slid off them.
    pub fn between_pads(&self, gripper: &GripperSpec) -> bool {
        let [length, height] = gripper.pad;
        self.slid.x.abs() < 0.5 * length + self.half_size[0]
            && self.slid.z.abs() < 0.5 * height + self.half_size[1]
    }

    /// The object's centre now, m, world frame, with the hull at `hull` and the pads at `pad`.
    fn centre(&self, hull: &Isometry3<f64>, pad: &Isometry3<f64>) -> Point3<f64> {
        Point3::from((hull * pad * self.holding_pose()).translation.vector)
    }

    /// One step of Coulomb's law at the pads: `gravity` (m/s²) and the contact forces on the
    /// object in the last step `contact` (N), both world frame, with the hull moving as `hull`
    /// and the pads at `pad` (body frame); `limit` is what the grip holds along the pads, N
    /// ([`grip_limit`]), and `dt` the step, s. Moves the object along the pads when it slides
    /// and puts its collider and body where they now are.
    #[allow(clippy::too_many_arguments)]
    pub fn slide(
        &mut self,
        world: &mut PhysicsWorld,
        hull: &HullMotion,
        pad: &Isometry3<f64>,
        gravity: &Vector3<f64>,
        contact: &Vector3<f64>,
        limit: f64,
        dt: f64,
    ) {
        let centre = self.centre(&hull.pose, pad);
        let velocity = hull.velocity_at(&centre);
        let acceleration = (velocity - self.last_velocity) / dt;
        self.last_velocity = velocity;
        // What the pads must give: m·a = F_pads + m·g + F_contact.
        let needed = self.mass * (acceleration - gravity) - contact;
        let to_pads = (hull.pose.rotation * pad.rotation).inverse();
        let mut along = to_pads * needed;
        along.y = 0.0;
        let mass = self.mass.max(1e-6);
        if self.sliding.norm() == 0.0 && along.norm() <= limit {
            return self.place(world, pad);
        }
        // Sliding: friction opposes the sliding (or, starting, the pull), at the bound.
        let direction = if self.sliding.norm() > 0.0 {
            self.sliding.normalize()
        } else {
            -along.normalize()
        };
        let relative = (-direction * limit - along) / mass;
        let next = self.sliding + relative * dt;
        // Friction stops a slide; it does not reverse it.
        self.sliding = if next.dot(&self.sliding) < 0.0 && along.norm() <= limit {
            Vector3::zeros()
        } else {
            next
        };
        self.slid += self.sliding * dt;
        self.place(world, pad);
    }

    /// Puts the collider at the pads (`pad`, body frame) where it is held. Its resting body
    /// follows after the step ([`Grasp::follow`]).
    fn place(&self, world: &mut PhysicsWorld, pad: &Isometry3<f64>) {
        let pose = pose_of(&(pad * self.holding_pose()));
        // Touched only when it moves: a collider moved on its body makes rapier recompute the
        // body's mass properties.
        let moved = world
            .colliders
            .get(self.collider)
            .is_some_and(|c| c.position_wrt_parent() != Some(&pose));
        if let Some(c) = world.colliders.get_mut(self.collider).filter(|_| moved) {
            c.set_position_wrt_parent(pose);
        }
    }

    /// Puts the resting body where the collider went in the step just taken, moving at the
    /// hull's velocity there (so that the object's state reads where it is and how it moves,
    /// not where it was); once a step, as rapier takes any change to a body as work for its
    /// next step.
    pub fn follow(&mut self, world: &mut PhysicsWorld) {
        let Some(pose) = world
            .colliders
            .get(self.collider)
            .map(|c| isometry_of(c.position()))
        else {
            return;
        };
        let body_pose = pose * self.on_body.inverse();
        if body_pose.translation.vector.iter().all(|x| x.is_finite()) {
            self.last_pose = body_pose;
        }
        if let Some(b) = world.bodies.get_mut(self.object) {
            b.set_position(pose_of(&body_pose), false);
            b.set_linvel(v32(&self.last_velocity), false);
        }
    }

    /// How far (m) and how fast (m/s) it has slid along the pads, pads' frame: x, y, z of
    /// each (for state snapshots).
    pub fn slide_state(&self) -> [f64; 6] {
        let (a, b) = (self.slid, self.sliding);
        [a.x, a.y, a.z, b.x, b.y, b.z]
    }

    /// Puts the terrain in the held collider's filter (`near`: some terrain face may come
    /// within rapier's contact reach of it) or leaves it out, as for the arm's parts
    /// ([`super::ArmRig::clear_terrain`]); touched only when the filter changes.
    pub fn set_terrain(&self, world: &mut PhysicsWorld, near: bool) {
        let filter = if near {
            self.groups.filter
        } else {
            self.groups.filter.difference(TERRAIN_GROUP)
        };
        set_filter(world, self.collider, filter);
    }

    /// The box round the held collider on the hull: its least and greatest corners, m, body
    /// frame.
    pub fn bounds(&self, world: &PhysicsWorld) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let c = world.colliders.get(self.collider)?;
        let aabb = c.shape().compute_aabb(c.position_wrt_parent()?);
        Some((v64(aabb.mins), v64(aabb.maxs)))
    }

    /// The object's collider (on the hull while held).
    pub fn collider(&self) -> ColliderHandle {
        self.collider
    }

    /// Its centre of mass now, m, body frame, with the pads at `pad`.
    pub fn center_in_body(&self, pad: &Isometry3<f64>) -> Point3<f64> {
        Point3::from((pad * self.holding_pose()).translation.vector)
    }
}
