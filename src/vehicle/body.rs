//! What every drivetrain shares about the hull: its rigid-body state and the wrench the
//! ground puts on it (world frame), the mass a contact pushes, the share of a contact's
//! force that keeps the explicit step stable, and the cap on all its contacts' damping
//! together.

use nalgebra::{Isometry3, Matrix3, Matrix6, Point3, Vector3, Vector6};

use super::spec::RobotSpec;
use crate::track::load::NormalDamping;

/// Largest ω·dt one contact may give the hull's motion along its normal (see
/// [`stable_share`]): a quarter of the explicit limit of 2, so even a few contacts pressing
/// the same way (a flipper pinched in a corner by two faces) stay stable.
pub(crate) const CONTACT_OMEGA_DT: f64 = 0.5;

/// Largest c·dt/m one contact's damping c may reach on the effective mass m it pushes (see
/// [`normal_damping_factor`]'s cap): an explicit step damps a mode stably only below 2, and
/// the Hunt–Crossley coefficient β·F grows with the load, to thousands of N·s/m in a deep
/// contact.
pub(crate) const CONTACT_DAMPING_DT: f64 = 0.5;

/// Largest c·dt/m of the hull's most damped motion, all its contacts' dampers together (see
/// [`hull_damping_scale`]).
///
/// At 1 the damping stops that motion within one step; beyond 1 it would reverse it, which no
/// damper does, and beyond 2 the explicit step diverges. Each contact is held to
/// [`CONTACT_DAMPING_DT`] on its own, but a track that lands flat presses 30–40 contacts at
/// once along one normal: 10 mm deep, every tracked preset's heave was damped at
/// c·dt/m = 2.9–3.5, and under `treadsim soak` (seed 4) the 20 kg robot's contacts reached 3.3
/// in some mode. In ordinary driving the largest is far below 1 (a robot at rest: about 0.2).
pub(crate) const HULL_DAMPING_DT: f64 = 1.0;

/// One contact's normal damping as the hull's damping cap needs it: the damping law's terms,
/// the factor they made of the elastic force, and the contact's own c·dt/m.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContactDamping {
    damping: NormalDamping,
    factor: f64,
    dt_per_mass: f64,
}

impl ContactDamping {
    /// The damping `damping` of a contact whose elastic force is `elastic` N (after its
    /// stable share), on a hull whose inverse effective mass there is `per_mass` 1/kg, at step
    /// `dt` s; `None` when its factor is 0 (the contact lets go faster than its damping allows
    /// and pushes nothing).
    #[inline]
    pub(crate) fn new(
        damping: NormalDamping,
        elastic: f64,
        per_mass: f64,
        dt: f64,
    ) -> Option<Self> {
        let factor = damping.factor(1.0);
        if factor == 0.0 {
            return None;
        }
        Some(Self {
            damping,
            factor,
            // The damping coefficient c is the normal force's derivative in the rate.
            dt_per_mass: elastic * damping.per_load * dt * per_mass,
        })
    }

    /// The factor by which the damping multiplies the elastic force, > 0.
    #[inline]
    pub(crate) fn factor(&self) -> f64 {
        self.factor
    }

    /// The factor by which a contact's normal force changes when its damping is scaled by
    /// `scale` (≤ 1): positive, since the kept factor is, and a scale below 1 only brings it
    /// nearer 1.
    fn rescale(&self, scale: f64) -> f64 {
        self.damping.factor(scale) / self.factor
    }
}

/// One contact's normal force and the damping in it, as the hull's damping cap needs them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Damper {
    /// Where it acts, world, m.
    pub point: Point3<f64>,
    /// Unit normal along which it acts, world.
    pub normal: Vector3<f64>,
    /// The normal force, N: the elastic force times `damping.factor()`.
    pub force: f64,
    /// Its damping.
    pub damping: ContactDamping,
}

impl Damper {
    /// The damping coefficient, N·s/m: the normal force's derivative in the penetration rate,
    /// (elastic force)·`per_load`.
    pub(crate) fn coefficient(&self) -> f64 {
        self.force / self.damping.factor * self.damping.damping.per_load
    }
}

/// A drive train's contact as the hull's damping cap sees it.
pub(crate) trait DampedContact {
    /// Its normal force and damping.
    fn damper(&self) -> Damper;
    /// Multiplies its normal force (and whatever follows from it, such as friction) by
    /// `ratio`.
    fn scale_force(&mut self, ratio: f64);
}

/// Scales every contact's damping down together when the hull's most damped motion would
/// pass [`HULL_DAMPING_DT`] (see [`hull_damping_scale`]); in ordinary driving nothing
/// changes.
pub(crate) fn cap_hull_damping<C: DampedContact>(
    spec: &RobotSpec,
    body: &BodyState,
    dt: f64,
    contacts: &mut [C],
) {
    let trace_dt = contacts
        .iter()
        .fold(0.0, |sum, c| sum + c.damper().damping.dt_per_mass);
    let dampers = contacts.iter().map(DampedContact::damper);
    let scale = hull_damping_scale(spec, body, dt, trace_dt, dampers);
    if scale == 1.0 {
        return;
    }
    for contact in contacts {
        let ratio = contact.damper().damping.rescale(scale);
        contact.scale_force(ratio);
    }
}

/// The scale on every contact's damping that keeps the hull's most damped motion within
/// [`HULL_DAMPING_DT`]: 1 when it is within it (ordinary driving), else the share that brings
/// it down to it.
///
/// The contacts' dampers together damp the hull's motions by the matrix M⁻¹·Σ c·JᵀJ (J a
/// damper's unit normal at its point as a row over the hull's six velocities, M the hull's
/// mass and inertia); its largest eigenvalue λ times dt is what must stay within the limit.
/// Its trace is Σ c/m (m the effective mass at each damper, [`HullInertia::effective_mass`]),
/// which bounds λ from above and costs one addition a contact: `trace_dt` is Σ c·dt/m.
/// Only when the trace passes the limit is λ worked out from `dampers` (a 6×6 symmetric
/// eigenproblem), so contacts spread over a footprint, whose trace shares out over heave,
/// roll and pitch, are not scaled down for the sum alone.
fn hull_damping_scale(
    spec: &RobotSpec,
    body: &BodyState,
    dt: f64,
    trace_dt: f64,
    dampers: impl Iterator<Item = Damper>,
) -> f64 {
    if trace_dt <= HULL_DAMPING_DT {
        return 1.0;
    }
    let largest_dt = largest_damping_rate(spec, body, dampers) * dt;
    if largest_dt > HULL_DAMPING_DT {
        HULL_DAMPING_DT / largest_dt
    } else {
        1.0
    }
}

/// The largest eigenvalue of M⁻¹·Σ c·JᵀJ (see [`hull_damping_scale`]), 1/s, as that of the
/// symmetric M^(−½)·Σ c·JᵀJ·M^(−½), each J written in the hull's principal axes.
fn largest_damping_rate(
    spec: &RobotSpec,
    body: &BodyState,
    dampers: impl Iterator<Item = Damper>,
) -> f64 {
    let rotation = body.pose.rotation.to_rotation_matrix().into_inner();
    let per_root_mass = 1.0 / spec.mass.max(1e-9).sqrt();
    let per_root_moment = spec.inertia.map(|i| 1.0 / i.max(1e-9).sqrt());
    let mut damping = Matrix6::zeros();
    for damper in dampers {
        let arm = rotation.transpose() * (damper.point - body.com).cross(&damper.normal);
        let n = damper.normal * per_root_mass;
        let coefficient = damper.coefficient();
        let turn = arm.component_mul(&per_root_moment);
        let row = Vector6::new(n.x, n.y, n.z, turn.x, turn.y, turn.z);
        damping.syger(coefficient, &row, &row, 1.0);
    }
    damping
        .symmetric_eigenvalues()
        .iter()
        .fold(0.0_f64, |largest, &value| largest.max(value))
}

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
        1.0 / self.inverse_effective_mass(point, normal)
    }

    /// 1/[`HullInertia::effective_mass`], 1/kg: how much the hull's speed along the unit
    /// `normal` at `point` (world) changes per newton-second pushed there.
    pub fn inverse_effective_mass(&self, point: &Point3<f64>, normal: &Vector3<f64>) -> f64 {
        let arm = (point - self.com).cross(normal);
        self.inverse_mass + arm.dot(&(self.inverse_inertia * arm))
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

    /// A hull at rest at the origin, level, for the damping cap's tests.
    fn level(spec: &RobotSpec) -> BodyState {
        BodyState {
            pose: Isometry3::identity(),
            com: Point3::from(spec.center_of_mass.coords),
            linvel: Vector3::zeros(),
            angvel: Vector3::zeros(),
        }
    }

    impl DampedContact for Damper {
        fn damper(&self) -> Damper {
            *self
        }
        fn scale_force(&mut self, ratio: f64) {
            self.force *= ratio;
        }
    }

    /// A damper of coefficient `c` N·s/m pushing up at body `(x, y)` on the plane of the
    /// centre of mass of the level hull, pressed in at 1 m/s (unscaled factor 1 + c/F with
    /// F = 100 N), at step `dt` s.
    fn damper_at(spec: &RobotSpec, x: f64, y: f64, c: f64, dt: f64) -> Damper {
        let elastic = 100.0;
        let damping = NormalDamping {
            per_load: c / elastic,
            term: c / elastic,
        };
        let point = Point3::new(x, y, spec.center_of_mass.z);
        let normal = Vector3::z();
        let per_mass = HullInertia::new(spec, &level(spec)).inverse_effective_mass(&point, &normal);
        let damping = ContactDamping::new(damping, elastic, per_mass, dt).expect("pressing in");
        Damper {
            point,
            normal,
            force: elastic * damping.factor(),
            damping,
        }
    }

    /// Four dampers of coefficient `c` at the corners `(±x, ±y)` round the centre of mass.
    fn corners(spec: &RobotSpec, x: f64, y: f64, c: f64, dt: f64) -> Vec<Damper> {
        let com = spec.center_of_mass;
        [(x, y), (x, -y), (-x, y), (-x, -y)]
            .iter()
            .map(|&(dx, dy)| damper_at(spec, com.x + dx, com.y + dy, c, dt))
            .collect()
    }

    /// The damping rates, per N·s/m of each of the four [`corners`] dampers, of the hull's
    /// heave, roll and pitch, 1/kg (a rate in 1/s per N·s/m): 4/m, 4·y²/I_x, 4·x²/I_y.
    fn footprint_modes_per_c(spec: &RobotSpec, x: f64, y: f64) -> [f64; 3] {
        [
            4.0 / spec.mass,
            4.0 * y * y / spec.inertia.x,
            4.0 * x * x / spec.inertia.y,
        ]
    }

    /// The cap's eigenvalue against the hull's modes worked out by hand: four equal dampers
    /// at the corners of a footprint damp heave at 4c/m, roll at 4c·y²/I_x and pitch at
    /// 4c·x²/I_y; the largest is the cap's λ. One damper through the centre of mass: c/m.
    #[test]
    fn largest_damping_rate_is_the_stiffest_mode_of_the_footprint() {
        let spec = scout();
        let body = level(&spec);
        let com = spec.center_of_mass;
        let c = 300.0;
        let one = [damper_at(&spec, com.x, com.y, c, 0.002)];
        let rate = largest_damping_rate(&spec, &body, one.into_iter());
        assert!((rate - c / spec.mass).abs() < 1e-9 * rate, "{rate}");
        let (x, y) = (0.2, 0.15);
        let corners = corners(&spec, x, y, c, 0.002);
        let expected = c * footprint_modes_per_c(&spec, x, y)
            .iter()
            .fold(0.0_f64, |a, &b| a.max(b));
        let rate = largest_damping_rate(&spec, &body, corners.iter().copied());
        assert!(
            (rate - expected).abs() < 1e-9 * expected,
            "{rate} vs {expected}"
        );
        // The trace Σ c/m bounds it from above, and here by a wide margin.
        let hull = HullInertia::new(&spec, &body);
        let trace: f64 = corners
            .iter()
            .map(|d| c / hull.effective_mass(&d.point, &d.normal))
            .sum();
        assert!(trace > 1.5 * rate, "trace {trace} vs {rate}");
    }

    /// Dampers whose sum Σ c·dt/m passes the limit but whose modes stay within it are left
    /// alone; dampers that all push one mode past it are scaled to exactly the limit.
    #[test]
    fn hull_damping_scale_caps_the_mode_not_the_sum() {
        let spec = scout();
        let body = level(&spec);
        let com = spec.center_of_mass;
        let dt = 0.002;
        // Spread over a footprint: the stiffest of heave, roll and pitch at 0.9, their sum
        // (the trace) above 1.
        let (x, y) = (0.2, 0.15);
        let modes_per_c = footprint_modes_per_c(&spec, x, y);
        let stiffest = modes_per_c.iter().fold(0.0_f64, |a, &b| a.max(b));
        let c = 0.9 / (stiffest * dt);
        let trace_dt = modes_per_c.iter().sum::<f64>() * c * dt;
        assert!(trace_dt > 1.2 * HULL_DAMPING_DT, "{trace_dt}");
        let corners = corners(&spec, x, y, c, dt);
        let rate = largest_damping_rate(&spec, &body, corners.iter().copied());
        assert!((rate * dt - 0.9).abs() < 1e-9, "{}", rate * dt);
        let scale = hull_damping_scale(&spec, &body, dt, trace_dt, corners.iter().copied());
        assert_eq!(scale, 1.0);
        // Four dampers through the centre of mass, each at the single contact's cap: together
        // c·dt/m = 2, the explicit step's limit.
        let c = CONTACT_DAMPING_DT * spec.mass / dt;
        let stacked = [damper_at(&spec, com.x, com.y, c, dt); 4];
        let scale = hull_damping_scale(&spec, &body, dt, 2.0, stacked.iter().copied());
        assert!((scale - 0.5).abs() < 1e-12, "{scale}");
        // Within the limit by the trace, the eigenproblem is not even asked.
        assert_eq!(
            hull_damping_scale(&spec, &body, dt, 1.0, stacked.iter().copied()),
            1.0
        );
    }

    /// A heave stopped by stacked dampers, stepped explicitly as the simulation steps the
    /// hull: with their sum at the explicit limit (c·dt/m = 2) the speed flips sign every step
    /// and never decays; capped, the first step brings it to rest without reversing it.
    #[test]
    fn capped_damping_stops_a_landing_without_reversing_it() {
        let spec = scout();
        let body = level(&spec);
        let com = spec.center_of_mass;
        let dt = 0.002;
        let c = CONTACT_DAMPING_DT * spec.mass / dt;
        let mut contacts = [damper_at(&spec, com.x, com.y, c, dt); 4];
        // Each record carries its own c·dt/m, the cap's trace.
        let trace: f64 = contacts.iter().map(|d| d.damping.dt_per_mass).sum();
        assert!((trace - 2.0).abs() < 1e-12, "trace {trace}");
        let landing = -1.0; // m/s, up positive: the dampers' rate
        let damping_impulse = |contacts: &[Damper]| -> f64 {
            contacts
                .iter()
                .map(|d| d.coefficient() * -landing * dt)
                .sum::<f64>()
        };
        let uncapped = landing + damping_impulse(&contacts) / spec.mass;
        assert!((uncapped + landing).abs() < 1e-9, "uncapped {uncapped} m/s");
        let forces: Vec<f64> = contacts.iter().map(|d| d.force).collect();
        cap_hull_damping(&spec, &body, dt, &mut contacts);
        // The scaled forces are each elastic·(1 + scale·c/F·rate).
        for (d, before) in contacts.iter().zip(forces) {
            let elastic = before / d.damping.factor();
            let expected = elastic * d.damping.damping.factor(0.5);
            assert!(
                (d.force - expected).abs() < 1e-9 * expected,
                "{} vs {expected}",
                d.force
            );
        }
        let elastic: f64 = contacts
            .iter()
            .map(|d| d.force / d.damping.damping.factor(0.5))
            .sum();
        let total: f64 = contacts.iter().map(|d| d.force).sum();
        let capped = landing + (total - elastic) * dt / spec.mass;
        assert!(capped.abs() < 1e-9, "capped {capped} m/s");
    }
}
