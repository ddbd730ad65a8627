//! What the world does to an arm's joints: the torque about (or force along) each joint's
//! axis that gravity, contacts and a held object put on everything outboard of it, and the
//! inertia each joint moves. Everything here is in the hull's body frame; the controller
//! ([`super::ArmRig::control`]) builds one [`JointLoads`] a step and its joints answer it.

use nalgebra::{Isometry3, Point3, Vector3};
use rapier3d::prelude::*;

use super::super::{isometry_of, v64};
use crate::vehicle::arm::kinematics::JointVector;
use crate::vehicle::arm::{ArmSpec, JointKind, MAX_ARM_JOINTS};

/// Smallest inertia a joint is taken to move, kg·m² (or kg): keeps an unloaded wrist's
/// acceleration finite.
const MIN_INERTIA: f64 = 1.0e-4;

/// The loads on an arm's joints, body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct JointLoads {
    /// Number of joints.
    joints: usize,
    /// Each joint's origin, m.
    origins: [Point3<f64>; MAX_ARM_JOINTS],
    /// Each joint's axis, unit.
    axes: [Vector3<f64>; MAX_ARM_JOINTS],
    /// Whether each joint slides (prismatic) rather than turns.
    slides: [bool; MAX_ARM_JOINTS],
    /// Torque about (N·m) or force along (N) each joint's axis that the loads apply to the
    /// links outboard of it, in the joint's positive sense.
    pub torque: JointVector,
    /// Inertia about (kg·m²) or mass along (kg) each joint's axis of everything outboard.
    pub inertia: JointVector,
    /// Coulomb friction each joint meets turning (or sliding) the positive way, N·m or N: it
    /// opposes motion up to this and never drives it (a valve the gripper holds,
    /// `turn.rs`).
    pub resist_plus: JointVector,
    /// As `resist_plus`, the negative way.
    pub resist_minus: JointVector,
}

impl JointLoads {
    /// No loads yet on the arm of `spec` whose link frames are `frames` (body frame).
    pub fn new(spec: &ArmSpec, frames: &[Isometry3<f64>; MAX_ARM_JOINTS]) -> Self {
        let mut loads = Self {
            joints: spec.joints.len(),
            origins: [Point3::origin(); MAX_ARM_JOINTS],
            axes: [Vector3::zeros(); MAX_ARM_JOINTS],
            slides: [false; MAX_ARM_JOINTS],
            torque: [0.0; MAX_ARM_JOINTS],
            inertia: [MIN_INERTIA; MAX_ARM_JOINTS],
            resist_plus: [0.0; MAX_ARM_JOINTS],
            resist_minus: [0.0; MAX_ARM_JOINTS],
        };
        for (j, joint) in spec.joints.iter().enumerate() {
            loads.origins[j] = Point3::from(frames[j].translation.vector);
            loads.axes[j] = frames[j].rotation * joint.axis.into_inner();
            loads.slides[j] = joint.kind == JointKind::Prismatic;
        }
        loads
    }

    /// Joint `j`'s origin, m, body frame.
    pub fn origin(&self, j: usize) -> Point3<f64> {
        self.origins[j]
    }

    /// Joint `j`'s axis, body frame (unit).
    pub fn axis(&self, j: usize) -> Vector3<f64> {
        self.axes[j]
    }

    /// Adds Coulomb friction to joint `j`: `plus` against its positive motion and `minus`
    /// against its negative, N·m or N.
    pub fn add_resist(&mut self, j: usize, plus: f64, minus: f64) {
        self.resist_plus[j] += plus;
        self.resist_minus[j] += minus;
    }

    /// The speed a joint of inertia `inertia` reaches from `free` (its speed before friction,
    /// rad/s or m/s) in `dt` s against Coulomb friction `plus`/`minus` (N·m or N, against
    /// positive/negative motion): friction takes speed off up to stopping it, never
    /// reversing it.
    pub fn after_friction(free: f64, inertia: f64, plus: f64, minus: f64, dt: f64) -> f64 {
        let resist = if free > 0.0 { plus } else { minus };
        let loss = resist / inertia * dt;
        if free.abs() <= loss {
            0.0
        } else {
            free - loss.copysign(free)
        }
    }

    /// Adds a force (N) at `point` and a torque (N·m) on link `link` (or a part carried by
    /// it): a load on that link's joint and every joint inboard of it.
    pub fn add_force(
        &mut self,
        link: usize,
        point: &Point3<f64>,
        force: &Vector3<f64>,
        torque: &Vector3<f64>,
    ) {
        for j in 0..=link.min(self.joints - 1) {
            let axis = &self.axes[j];
            self.torque[j] += if self.slides[j] {
                force.dot(axis)
            } else {
                (point - self.origins[j]).cross(force).dot(axis) + torque.dot(axis)
            };
        }
    }

    /// Adds a point mass (kg) at `point` carried by link `link`, with its own inertia about
    /// any axis through it `own` (kg·m²), to the inertia each joint moves.
    pub fn add_inertia(&mut self, link: usize, point: &Point3<f64>, mass: f64, own: f64) {
        for j in 0..=link.min(self.joints - 1) {
            self.inertia[j] += if self.slides[j] {
                mass
            } else {
                mass * (point - self.origins[j])
                    .cross(&self.axes[j])
                    .norm_squared()
                    + own
            };
        }
    }

    /// Adds a mass (kg) at `point` on link `link` under `gravity` (m/s², body frame): its
    /// weight as a load and its inertia.
    pub fn add_mass(
        &mut self,
        link: usize,
        point: &Point3<f64>,
        mass: f64,
        own: f64,
        gravity: &Vector3<f64>,
    ) {
        self.add_force(link, point, &(gravity * mass), &Vector3::zeros());
        self.add_inertia(link, point, mass, own);
    }

    /// Adds the contact forces the last step put on `collider` (a part of link `link` on the
    /// hull whose world → body transform is `to_body`) over the step of `dt` s, see
    /// [`contact_forces`]; returns the magnitude of their sum, N.
    pub fn add_contacts(
        &mut self,
        world: &PhysicsWorld,
        collider: ColliderHandle,
        link: usize,
        to_body: &Isometry3<f64>,
        dt: f64,
    ) -> f64 {
        let mut total = Vector3::zeros();
        for (point, impulse) in contact_forces(world, collider) {
            let force = impulse / dt;
            total += force;
            self.add_force(
                link,
                &(to_body * point),
                &(to_body.rotation * force),
                &Vector3::zeros(),
            );
        }
        total.norm()
    }
}

/// The contact forces the last step put on `collider`, world frame: each contact's point (m)
/// and its normal impulse over the step, N·s. rapier keeps each contact's impulse summed over
/// the step's solver substeps (its `total_impulse`): the step's mean force is it over the
/// step, not over a substep (which read a 1 kg box resting on four points as 39 N).
pub(crate) fn contact_forces(
    world: &PhysicsWorld,
    collider: ColliderHandle,
) -> impl Iterator<Item = (Point3<f64>, Vector3<f64>)> + '_ {
    world
        .narrow_phase
        .contact_pairs_with(collider)
        .filter(|pair| pair.has_any_active_contact())
        .flat_map(move |pair| {
            // Looked up only for a collider in contact (most parts most steps are in none).
            let part_pose = world
                .colliders
                .get(collider)
                .map_or(Isometry3::identity(), |c| isometry_of(c.position()));
            // The solver pushes collider 1 along −n and collider 2 along +n; each side's
            // point is in its own collider's frame.
            let first = pair.collider1 == collider;
            let sign = if first { -1.0 } else { 1.0 };
            pair.solver_manifolds().iter().flat_map(move |manifold| {
                let normal = v64(manifold.data.normal);
                manifold
                    .points
                    .iter()
                    .filter(|c| c.data.impulse != 0.0)
                    .map(move |c| {
                        let local = if first { c.local_p1 } else { c.local_p2 };
                        let point = part_pose * Point3::from(v64(local));
                        (point, normal * (sign * c.data.impulse as f64))
                    })
            })
        })
}

/// The total contact force the last step, of `dt` s, put on `collider`, N, world frame (its
/// mean over the step).
pub(crate) fn contact_force(
    world: &PhysicsWorld,
    collider: ColliderHandle,
    dt: f64,
) -> Vector3<f64> {
    contact_forces(world, collider)
        .map(|(_, f)| f)
        .sum::<Vector3<f64>>()
        / dt
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 kg box resting on the ground on its four corners reads its weight, 9.81 N, within
    /// 1 %, at a 2 ms and a 5 ms step. Regression: the impulse rapier keeps is the step's sum
    /// over its four solver substeps, and read over one substep the box weighed 39 N, which
    /// made a held load resting on a pedestal slip in its grip when taken.
    #[test]
    fn a_resting_box_reads_its_weight() {
        for dt in [0.002, 0.005] {
            let mut world = PhysicsWorld {
                gravity: Vector::new(0.0, 0.0, -9.81),
                ..Default::default()
            };
            world.integration_parameters.dt = dt as f32;
            world.colliders.insert(
                ColliderBuilder::cuboid(5.0, 5.0, 0.5).translation(Vector::new(0.0, 0.0, -0.5)),
            );
            let body = world
                .bodies
                .insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.0, 0.021)));
            let collider = world.colliders.insert_with_parent(
                ColliderBuilder::cuboid(0.02, 0.03, 0.02).mass(1.0),
                body,
                &mut world.bodies,
            );
            for _ in 0..(1.0 / dt).round() as usize {
                world.step();
            }
            let force = contact_force(&world, collider, dt);
            assert!(
                (force.z - 9.81).abs() < 0.0981 && force.xy().norm() < 0.01,
                "dt {dt}: the box reads {force:?} N"
            );
        }
    }
}
