//! Grasping by contact and friction. An object both finger pads touch while the gripper
//! closes is held by a *grasp joint* between the hull and the object, every one of whose
//! forces is bounded by Coulomb's law at the pads ([`GraspLimits`]): the joint holds the
//! object still in the gripper while what holding it needs stays within the law, and lets it
//! slide (at the bounding force, as kinetic friction would) the moment it does not. Nothing
//! teleports: the object stays a dynamic body, its weight and every push on it reach the hull
//! through the joint, and it leaves the grip when it slides off the pads or the gripper opens.
//!
//! Along the finger axis the joint stands for the finger mechanism (a linkage that keeps the
//! fingers symmetric), as strong as both fingers' motors together. The held object does not
//! touch its own robot's colliders while held: every force between them is the joint's, so the
//! arm's joints see exactly what the object pulls with (a palm contact fighting the joint
//! inside one solver step would otherwise add loads that are not there).

use nalgebra::{Isometry3, Vector3};
use rapier3d::parry::query::distance;
use rapier3d::prelude::*;

use super::super::{isometry_of, pose_of};
use crate::vehicle::arm::GripperSpec;

/// A contact point this close, m, counts as a pad touching an object.
const TOUCH: f32 = 0.001;
/// A held object stays held while both pads have contact points this close, m (a sliding
/// object's contacts flicker by fractions of a millimetre).
const HOLD_REACH: f32 = 0.003;
/// Rate at which the grasp joint pulls a held object back to where the gripper holds it,
/// 1/s (the joint is a velocity constraint; this takes out the solver's drift).
const GRASP_GAIN: f32 = 20.0;
/// Damping of the grasp joint's motors: large enough that each is a hard constraint below
/// its force bound (rapier's softness 1/(dt·damping)).
const HARD: f32 = 1.0e6;
/// A motor whose last impulse reached this share of its bound was sliding.
const SLIDING: f32 = 0.98;

/// The joint axes the grasp bounds, in rapier's order, with what bounds each.
const AXES: [JointAxis; 6] = [
    JointAxis::LinX,
    JointAxis::LinY,
    JointAxis::LinZ,
    JointAxis::AngX,
    JointAxis::AngY,
    JointAxis::AngZ,
];

/// What a grip can hold, by Coulomb's law at two pads each pressing with force F, N, at
/// friction μ (the lower of the pad's and the object's), in the pad frame (the gripper frame
/// at the tool point: x along the palm, y the finger axis, z across).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraspLimits {
    /// Force along the pads (x and z), N: 2·μ·F, each pad giving μ·F.
    pub slide: f64,
    /// Torque about the finger axis, N·m: 2·μ·F times the mean radius of a pad's pressure
    /// (a third of the pad's shorter side, a uniformly pressed disc's 2/3 of its radius).
    pub twist: f64,
    /// Torque about x, N·m: each pad's pressure moving to one end of its height, F·h.
    pub tilt_x: f64,
    /// Torque about z, N·m: the same along the pad's length, F·l.
    pub tilt_z: f64,
    /// Force along the finger axis, N: the finger mechanism, both motors' largest force.
    pub across: f64,
}

impl GraspLimits {
    /// The limits of a grip of `force` N per pad at friction `friction` with `gripper`'s pads.
    pub fn new(gripper: &GripperSpec, force: f64, friction: f64) -> Self {
        let slide = 2.0 * friction * force;
        let [length, height] = gripper.pad;
        Self {
            slide,
            twist: slide * length.min(height) / 3.0,
            tilt_x: force * height,
            tilt_z: force * length,
            across: 2.0 * gripper.max_force,
        }
    }

    /// The bound of each of [`AXES`], N or N·m.
    fn bounds(&self) -> [f64; 6] {
        [
            self.slide,
            self.across,
            self.slide,
            self.tilt_x,
            self.twist,
            self.tilt_z,
        ]
    }
}

/// A held object and its grasp joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grasp {
    /// The object's body.
    pub object: RigidBodyHandle,
    /// The grasp joint (hull first, object second).
    joint: ImpulseJointHandle,
    /// Friction at the pads: the lower of the pad's and the object's μ.
    pub friction: f64,
    /// The object's mass, kg.
    pub mass: f64,
}

/// The dynamic bodies a finger's pad touches (last step's contacts), with their surfaces' μ.
fn touched(
    world: &PhysicsWorld,
    finger: ColliderHandle,
    reach: f32,
) -> impl Iterator<Item = (RigidBodyHandle, f64)> + '_ {
    world
        .narrow_phase
        .contact_pairs_with(finger)
        .filter(move |pair| {
            pair.solver_manifolds()
                .iter()
                .flat_map(|m| &m.points)
                .any(|p| p.dist <= reach)
        })
        .filter_map(move |pair| {
            let other = if pair.collider1 == finger {
                pair.collider2
            } else {
                pair.collider1
            };
            let collider = world.colliders.get(other)?;
            let body = collider.parent()?;
            world
                .bodies
                .get(body)
                .filter(|b| b.is_dynamic())
                .map(|_| (body, collider.friction() as f64))
        })
}

/// The object both pads touch, with its surface μ, if there is one.
pub(crate) fn pressed_between(
    world: &PhysicsWorld,
    fingers: [ColliderHandle; 2],
) -> Option<(RigidBodyHandle, f64)> {
    touched(world, fingers[0], TOUCH)
        .find(|(body, _)| touched(world, fingers[1], TOUCH).any(|(other, _)| other == *body))
}

impl Grasp {
    /// Grasps `object` with the pads' frame at `pad` (body frame) on `hull`, at friction
    /// `friction`; `None` if either body is gone.
    pub fn take(
        world: &mut PhysicsWorld,
        hull: RigidBodyHandle,
        object: RigidBodyHandle,
        pad: &Isometry3<f64>,
        friction: f64,
    ) -> Option<Self> {
        let hull_pose = isometry_of(world.bodies.get(hull)?.position());
        let body = world.bodies.get(object)?;
        let mass = body.mass() as f64;
        let held = isometry_of(body.position()).inverse() * hull_pose * pad;
        let data = GenericJointBuilder::new(JointAxesMask::empty())
            .local_frame1(pose_of(pad))
            .local_frame2(pose_of(&held))
            .contacts_enabled(false)
            .build();
        let joint = world.impulse_joints.insert(hull, object, data, true);
        Some(Self {
            object,
            joint,
            friction,
            mass,
        })
    }

    /// Lets go of the object.
    pub fn release(&self, world: &mut PhysicsWorld) {
        world.impulse_joints.remove(self.joint, true);
    }

    /// Whether both pads still touch the object (within [`HOLD_REACH`]): measured between the
    /// shapes, as the held object has no contacts with its own robot.
    pub fn still_held(&self, world: &PhysicsWorld, fingers: [ColliderHandle; 2]) -> bool {
        let Some(body) = world.bodies.get(self.object) else {
            return false;
        };
        fingers.iter().all(|f| {
            let Some(pad) = world.colliders.get(*f) else {
                return false;
            };
            body.colliders()
                .iter()
                .filter_map(|h| world.colliders.get(*h))
                .any(|c| {
                    distance(pad.position(), pad.shape(), c.position(), c.shape())
                        .is_ok_and(|d| d.distance <= HOLD_REACH)
                })
        })
    }

    /// Sets the joint for the coming step: the pads' frame now at `pad` (body frame), moving
    /// relative to the hull at `linear` m/s and `angular` rad/s (pad frame), bounded by
    /// `limits`. An object that slid in the last step is held where it slid to.
    pub fn hold(
        &self,
        world: &mut PhysicsWorld,
        hull: RigidBodyHandle,
        pad: &Isometry3<f64>,
        motion: (&Vector3<f64>, &Vector3<f64>),
        limits: &GraspLimits,
        substep: f64,
    ) {
        let hull_pose = world.bodies.get(hull).map(|b| isometry_of(b.position()));
        let object_pose = world
            .bodies
            .get(self.object)
            .map(|b| isometry_of(b.position()));
        let Some(joint) = world.impulse_joints.get_mut(self.joint, false) else {
            return;
        };
        let bounds = limits.bounds();
        let slid = AXES.iter().zip(bounds).any(|(axis, bound)| {
            joint.data.motor(*axis).is_some_and(|m| {
                m.impulse.abs() >= SLIDING * (bound * substep) as f32 && bound > 0.0
            })
        });
        if let (true, Some(hull_pose), Some(object_pose)) = (slid, hull_pose, object_pose) {
            joint
                .data
                .set_local_frame2(pose_of(&(object_pose.inverse() * hull_pose * pad)));
        }
        joint.data.set_local_frame1(pose_of(pad));
        let (linear, angular) = motion;
        let velocity = [
            linear.x, linear.y, linear.z, angular.x, angular.y, angular.z,
        ];
        for ((axis, bound), v) in AXES.iter().zip(bounds).zip(velocity) {
            joint
                .data
                .set_motor(*axis, 0.0, v as f32, GRASP_GAIN * HARD, HARD)
                .set_motor_max_force(*axis, bound as f32);
        }
    }

    /// The force (N) and torque (N·m) the held object puts on the gripper through the joint in
    /// the last step, body frame, at the pads' frame `pad`; `substep` is the length of the
    /// solver substep whose impulses the joint keeps, s.
    pub fn reaction(
        &self,
        world: &PhysicsWorld,
        pad: &Isometry3<f64>,
        substep: f64,
    ) -> (Vector3<f64>, Vector3<f64>) {
        let Some(joint) = world.impulse_joints.get(self.joint) else {
            return (Vector3::zeros(), Vector3::zeros());
        };
        let impulse = |axis: JointAxis| joint.data.motor(axis).map_or(0.0, |m| m.impulse as f64);
        let linear = Vector3::new(
            impulse(JointAxis::LinX),
            impulse(JointAxis::LinY),
            impulse(JointAxis::LinZ),
        );
        let angular = Vector3::new(
            impulse(JointAxis::AngX),
            impulse(JointAxis::AngY),
            impulse(JointAxis::AngZ),
        );
        // rapier's joint rows push body 1 (the hull) by +impulse along their axes and body 2
        // (the object) by −impulse.
        (
            (pad.rotation * linear) / substep,
            (pad.rotation * angular) / substep,
        )
    }
}
