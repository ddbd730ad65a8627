//! The one boundary between our `f64` nalgebra numbers and rapier's `f32` glam types
//! (ARCHITECTURE.md: contact geometry and the track model are `f64`, rapier is `f32`).

use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use crate::vehicle::BodyState;

/// `f64` nalgebra pose of a rapier pose.
pub fn isometry_of(p: &Pose) -> Isometry3<f64> {
    let (t, q) = (p.translation, p.rotation);
    Isometry3::from_parts(
        Translation3::new(t.x as f64, t.y as f64, t.z as f64),
        UnitQuaternion::from_quaternion(Quaternion::new(
            q.w as f64, q.x as f64, q.y as f64, q.z as f64,
        )),
    )
}

/// rapier pose of an `f64` nalgebra pose.
pub fn pose_of(p: &Isometry3<f64>) -> Pose {
    let (t, q) = (p.translation.vector, p.rotation.quaternion());
    Pose::from_parts(
        Vector::new(t.x as f32, t.y as f32, t.z as f32),
        Rotation::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize(),
    )
}

/// `f64` vector of a rapier vector.
pub(crate) fn v64(v: Vector) -> Vector3<f64> {
    Vector3::new(v.x as f64, v.y as f64, v.z as f64)
}

/// rapier vector of an `f64` vector.
pub(crate) fn v32(v: &Vector3<f64>) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
}

/// A body's state as the track model reads it: pose, centre of mass and velocities, world frame.
pub(crate) fn body_state(body: &RigidBody) -> BodyState {
    let pose = isometry_of(body.position());
    let com = body.center_of_mass();
    BodyState {
        pose,
        com: Point3::new(com.x as f64, com.y as f64, com.z as f64),
        linvel: v64(body.linvel()),
        angvel: v64(body.angvel()),
    }
}

/// A body's mass and inertia about its centre of mass, world frame, as rapier has them (the
/// sum of its colliders' and additional mass properties).
pub(crate) fn hull_mass(body: &RigidBody) -> crate::vehicle::implicit::HullMass {
    let i = body.mass_properties().effective_angular_inertia();
    let (a, b, c, d, e, f) = (
        i.m11 as f64,
        i.m12 as f64,
        i.m13 as f64,
        i.m22 as f64,
        i.m23 as f64,
        i.m33 as f64,
    );
    crate::vehicle::implicit::HullMass {
        mass: body.mass() as f64,
        inertia: nalgebra::Matrix3::new(a, b, c, b, d, e, c, e, f),
    }
}
