//! What every drivetrain shares about the hull: its rigid-body state and the wrench the
//! ground puts on it (world frame), the mass a contact pushes, and the share of a contact's
//! force that keeps the explicit step stable.

use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use super::spec::RobotSpec;

/// Largest ω·dt one contact may give the hull's motion along its normal (see
/// [`stable_share`]): a quarter of the explicit limit of 2, so even a few contacts pressing
/// the same way (a flipper pinched in a corner by two faces) stay stable.
pub(crate) const CONTACT_OMEGA_DT: f64 = 0.5;

/// Largest c·dt/m one contact's damping c may reach on the effective mass m it pushes (see
/// [`normal_damping_factor`]'s cap): an explicit step damps a mode stably only below 2, and
/// the Hunt–Crossley coefficient β·F grows with the load, to thousands of N·s/m in a deep
/// contact.
pub(crate) const CONTACT_DAMPING_DT: f64 = 0.5;

/// The cap on one contact's damping coefficient, N·s/m: [`CONTACT_DAMPING_DT`]·m/dt for the
/// effective mass `mass` kg it pushes at step `dt` s. Written as a product with
/// `CONTACT_DAMPING_DT / dt`, which a contact loop works out once.
#[inline]
pub(crate) fn contact_damping_limit(mass: f64, dt: f64) -> f64 {
    mass * (CONTACT_DAMPING_DT / dt)
}

/// The hull's rigid-body state, world frame, in `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyState {
    /// Body pose (body origin = footprint centre on the ground).
    pub pose: Isometry3<f64>,
    /// Centre of mass, world, m.
    pub com: Point3<f64>,
    /// Linear velocity of the centre of mass, world, m/s.
    pub linvel: Vector3<f64>,
    /// Angular velocity, world, rad/s.
    pub angvel: Vector3<f64>,
}

impl BodyState {
    /// Velocity of the body point that is at world position `p`, m/s.
    pub fn point_velocity(&self, p: &Point3<f64>) -> Vector3<f64> {
        self.linvel + self.angvel.cross(&(p - self.com))
    }
}

/// Force and torque on the hull, world frame: torque about the centre of mass.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Wrench {
    /// Force, N.
    pub force: Vector3<f64>,
    /// Torque about the centre of mass, N·m.
    pub torque: Vector3<f64>,
}

/// The hull's resistance to a push, world frame, for one pose: inverse mass and inverse
/// inertia tensor about the centre of mass. Built once per step, it gives each contact's
/// [`HullInertia::effective_mass`] with one division (the contact loop asks for dozens).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HullInertia {
    /// Centre of mass, world, m.
    com: Point3<f64>,
    /// 1/m, 1/kg.
    inverse_mass: f64,
    /// R·diag(1/I)·Rᵀ, world frame, 1/(kg·m²).
    inverse_inertia: Matrix3<f64>,
}

impl HullInertia {
    /// The hull of `spec` at `body`'s pose (principal moments along body x, y, z).
    pub fn new(spec: &RobotSpec, body: &BodyState) -> Self {
        let rotation = body.pose.rotation.to_rotation_matrix().into_inner();
        let inverse = Matrix3::from_diagonal(&Vector3::new(
            1.0 / spec.inertia.x.max(1e-9),
            1.0 / spec.inertia.y.max(1e-9),
            1.0 / spec.inertia.z.max(1e-9),
        ));
        Self {
            com: body.com,
            inverse_mass: 1.0 / spec.mass.max(1e-9),
            inverse_inertia: rotation * inverse * rotation.transpose(),
        }
    }

    /// Mass the hull presents to a force along the unit `normal` at `point` (world), kg:
    /// 1/(1/m + (r×n)ᵀ·I⁻¹·(r×n)) with r from the centre of mass — small for a push far from
    /// the centre of mass that mostly turns the hull (a flipper tip with the robot on end).
    pub fn effective_mass(&self, point: &Point3<f64>, normal: &Vector3<f64>) -> f64 {
        let arm = (point - self.com).cross(normal);
        1.0 / (self.inverse_mass + arm.dot(&(self.inverse_inertia * arm)))
    }
}

/// The share of a contact's force (elastic and viscous alike) that keeps the explicit step
/// stable: 1 while its tangent stiffness `stiffness` (N/m) on the effective mass `mass` (kg)
/// oscillates at ω·dt ≤ `CONTACT_OMEGA_DT`, else the share that brings the contact's
/// stiffness down to that limit, `CONTACT_OMEGA_DT²·m/dt²`.
///
/// The force law F = κ·S(δ) stiffens as a contact deepens (dF/dδ = κ·chord). In ordinary
/// driving every contact sits far below the limit — the stiffest whole-body mode of the
/// presets is at ω·dt ≈ 0.2 (`SimConfig::default`) — so the share is 1 and nothing changes.
/// It bites only where a deep contact acts on a small effective mass: a thin flipper pinched
/// between a floor and a wall face with the robot on end, where both faces push with ever
/// stiffer opposing forces and an explicit step would rattle between them with growing
/// amplitude (the blow-ups `treadsim soak` found with selfright20). Softened there, the
/// contact sinks a little deeper instead.
pub fn stable_share(stiffness: f64, mass: f64, dt: f64) -> f64 {
    // Compared as k·dt² against the limit times dt², so the common case (no cap) costs no
    // division.
    let limit_dt2 = CONTACT_OMEGA_DT * CONTACT_OMEGA_DT * mass;
    let stiffness_dt2 = stiffness * (dt * dt);
    if stiffness_dt2 > limit_dt2 && stiffness.is_finite() && limit_dt2 > 0.0 {
        limit_dt2 / stiffness_dt2
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    fn scout() -> RobotSpec {
        crate::vehicle::robot_file::test_preset("scout")
    }

    /// A push through the centre of mass meets the whole mass; one at a lever r square to a
    /// principal axis meets 1/(1/m + r²/I), whatever the hull's orientation.
    #[test]
    fn effective_mass_of_a_push_through_and_beside_the_centre_of_mass() {
        let spec = scout();
        let pose = Isometry3::from_parts(
            Translation3::new(1.0, 2.0, 0.3),
            UnitQuaternion::from_euler_angles(0.4, -0.2, 1.1),
        );
        let body = BodyState {
            pose,
            com: pose * Point3::from(spec.center_of_mass.coords),
            linvel: Vector3::zeros(),
            angvel: Vector3::zeros(),
        };
        let up = pose.rotation * Vector3::z();
        let hull = HullInertia::new(&spec, &body);
        let through = hull.effective_mass(&body.com, &up);
        assert!((through - spec.mass).abs() < 1e-9, "{through}");
        // 0.3 m ahead along body x, pushed along body z: turns the hull about body y.
        let ahead = body.com + pose.rotation * Vector3::new(0.3, 0.0, 0.0);
        let expected = 1.0 / (1.0 / spec.mass + 0.09 / spec.inertia.y);
        let beside = hull.effective_mass(&ahead, &up);
        assert!((beside - expected).abs() < 1e-9, "{beside} vs {expected}");
    }

    /// The stiffness share is exactly 1 up to ω·dt = 0.5 and brings a stiffer contact down to
    /// that limit.
    #[test]
    fn stable_share_is_one_below_the_limit_and_caps_above_it() {
        let (m, dt) = (6.0, 0.002);
        let limit = 0.25 * m / (dt * dt);
        assert_eq!(stable_share(0.99 * limit, m, dt), 1.0);
        assert_eq!(stable_share(1.2e4, m, dt), 1.0);
        let share = stable_share(4.0 * limit, m, dt);
        assert!((share - 0.25).abs() < 1e-12);
        assert_eq!(stable_share(f64::NAN, m, dt), 1.0);
    }
}
