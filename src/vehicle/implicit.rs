//! The linearly implicit contact step (seed 004: "implicit numerical methods along with
//! analytic expressions for Jacobian matrices of stiff forces"), as an option
//! ([`StepSettings::implicit`]).
//!
//! The track model's contact forces are stiff: a wheel pressed into the ground pushes back
//! with k = ∂F/∂δ of 10⁵–10⁶ N/m and a lossy rubber damping c = ∂F/∂δ̇. Handed to rapier as a
//! constant force over the step (explicit), they are stable only while ω·dt and c·dt/m stay
//! small, which is why today's default step is 2 ms and why each contact's force and damping
//! are capped where a deep contact meets a small effective mass.
//!
//! Linearly implicit (backward Euler with the forces linearised, as Baraff & Witkin, "Large
//! steps in cloth simulation", SIGGRAPH 1998): with the hull's twist v = (linear velocity,
//! angular velocity) at the centre of mass, world frame, its mass matrix M = diag(m·I₃, I),
//! the contacts' wrench F(x, v) and its Jacobians K = −∂F/∂x, D = −∂F/∂v (6×6), the forces
//! are evaluated and linearised at the *predicted* pose x̃ = x + h·v (where the hull would be
//! at the step's end with no change of velocity; [`predicted`]) and the step solves
//!
//! (M + h·D + h²·K)·Δv = h·(F(x̃, v) + m·g),
//!
//! the velocity change the step makes if the contact forces are those at its end
//! (x + h·(v + Δv) = x̃ + h·Δv, v + Δv), and hands rapier the force that makes it:
//! F* = F(x̃, v) − (h·K + D)·Δv. rapier then integrates gravity and its own hull-collider
//! contacts as before (x ← x + h·(v + Δv)). Linearising about x̃ rather than x matters where a
//! contact begins: a wheel that reaches the ground within the step pushes in that step
//! (at x its force and stiffness are still zero, and it would sink a step's travel before
//! pushing, storing elastic energy no force paid for). For forces linear in x the two are the
//! same step.
//!
//! A contact's own force at the step's end is its force at x̃ less (h·k + c)·J·Δv
//! ([`implicit_step`] returns Δv); the flippers' motors are loaded with those, the forces the
//! hull is handed, not with the ones at x̃, which lead the motion by a step (a flipper lifting
//! the hull pushed against a load that was not yet there, and self-righting slowed with h).
//!
//! Each contact adds rank-one terms along its directions u (unit, world) at its point p,
//! with the row J = (u, (p − c) × u) mapping the twist to the point's speed along u:
//! - normal: K += k·JᵀJ with k = ∂F_e/∂δ of its elastic law (the penetration-area law's
//!   κ·chord, the run law's stiffness), D += c·JᵀJ with c = ∂F/∂δ̇, the Hunt–Crossley and
//!   Kelvin–Voigt coefficient F_e·(β + τ·k/F_e). The law F = F_e(δ)·(1 + β·δ̇) + τ·k·δ̇ is
//!   bilinear in (δ, δ̇); K is its stiffness at the end-of-step rate, taken as zero, not at
//!   the present one: across a landing the rate falls from the approach speed to about zero
//!   within the step, and the cross term k·β·Δδ·Δδ̇ that a linearisation drops cancels the
//!   rate's share k·β·δ̇ of the stiffness at the step's start. (With that share in K, a 0.2 m
//!   drop gained 6 % of m·g·h in one step at 4 ms and 17 % at 5 ms; without it, nothing at
//!   4–10 ms.) The τ·δ̇·∂k/∂δ term is left out too: unbounded at first touch;
//! - friction, sticking: D += (σ₀·h + σ₁)·JᵀJ along the belt and across it (the bristle's
//!   stiffness over the step and its damping: the force's derivative in the slip), gathered
//!   for every sticking contact as the moments of their points ([`Linearisation`]);
//! - friction, sliding: D += (|F_t|/|s|)·JᵀJ along the tangent square to the slip s (the
//!   Coulomb force turns with the slip but keeps its size).
//!
//! Terms neglected (they are small or not symmetric): the friction limit's growth with the
//! normal load, the moving contact point, the belt speed's own (already implicit) update.

use nalgebra::{
    Isometry3, Matrix3, Matrix6, Point3, Translation3, UnitQuaternion, Vector3, Vector6,
};

use super::body::{BodyState, Wrench};
use super::spec::RobotSpec;
use crate::track::friction::FrictionConfig;

/// What a drive train's step needs besides the terrain and the hull's state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSettings {
    /// Belt–ground stick–slip friction.
    pub friction: FrictionConfig,
    /// Step, s.
    pub dt: f64,
    /// Gravity, world frame, m/s² (the known force of the implicit solve).
    pub gravity: Vector3<f64>,
    /// Solve the contact forces linearly implicitly (module docs) instead of handing them to
    /// rapier explicitly; the per-contact stability caps are then off.
    pub implicit: bool,
    /// The hull body's mass and inertia as the physics engine has them (with an arm and what
    /// it holds); `None`: the robot file's.
    pub hull: Option<HullMass>,
}

/// A rigid body's mass and its inertia about its centre of mass, world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HullMass {
    /// Mass, kg.
    pub mass: f64,
    /// Inertia tensor about the centre of mass, world frame, kg·m².
    pub inertia: Matrix3<f64>,
}

impl StepSettings {
    /// Explicit contact forces at step `dt` with default friction and standard gravity.
    pub fn explicit(dt: f64) -> Self {
        Self {
            friction: FrictionConfig::default(),
            dt,
            gravity: Vector3::new(0.0, 0.0, -9.81),
            implicit: false,
            hull: None,
        }
    }
}

/// The contacts' Jacobians of one step, K = −∂F/∂x and D = −∂F/∂v over the hull's twist
/// (linear, angular; world frame, about the centre of mass), as the one matrix the step uses,
/// A = D + h·K for the step h: the system is M + h·D + h²·K = M + h·A and the force handed on
/// F − (h·K + D)·Δv = F − A·Δv, so each contact adds its terms to A alone, (c + h·k)·JᵀJ (one
/// rank-one term where a K and a D took two). With h = 1 s and no damping it is K
/// ([`Linearisation::stiffness_only`]), which the finite difference tests check.
///
/// A contact's terms are gathered as the moments of its point, r = p − c weighted by w:
/// Σw, Σw·r, Σw·r·rᵀ (10 sums, where a rank-one term JᵀJ has 21 distinct entries), and the
/// matrix is made from the moments once a step ([`Linearisation::combined`]):
/// - along one direction u shared by many contacts (on a floor or a stair tread every wheel
///   is pushed along the same normal, every bottom run along the hull's own; up to
///   [`DIRECTION_GROUPS`] such directions, matched within [`SAME_DIRECTION`]), Σw·JᵀJ with
///   J = (u, r × u) is `[[Σw·u·uᵀ, u·((Σw·r) × u)ᵀ], [·ᵀ, [u]ₓ·S·[u]ₓᵀ]]`, S = Σw·r·rᵀ;
/// - a sticking contact's friction damps every direction of its contact plane alike, and the
///   sum of JᵀJ over any two unit directions square to each other and to n at a point is the
///   whole-space term less the normal's: so the friction of sticking contacts is gathered as
///   moments over every direction (`[[Σs·I, −[Σs·r]ₓ], [[Σs·r]ₓ, tr(S)·I − S]]`), and the
///   normal's share taken off its own direction's term.
///
/// A term along a direction that has no group left (a sliding contact's friction, which turns
/// with its slip) is added as its rank-one term to a lower triangle.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Linearisation {
    /// The step h the stiffness is weighted by, s.
    step: f64,
    /// Whether damping is left out (h = 1 s: the matrix is K).
    stiffness_only: bool,
    /// D + h·K of the terms outside the groups, N·s/m … blocks: lower triangle.
    combined: Matrix6<f64>,
    /// The sticking contacts' damping in every direction at their points.
    plane: PointMoments,
    /// Terms along shared directions: the first `directions` are in use.
    groups: [DirectionGroup; DIRECTION_GROUPS],
    /// How many of `groups` are in use.
    directions: usize,
}

/// How many shared directions a [`Linearisation`] gathers as moments (a floor's normal, the
/// hull's, a flipper's run's, a stair riser's); terms along any other go to the matrix.
pub const DIRECTION_GROUPS: usize = 4;

/// Two unit directions closer than this (|u − v|, rad) share a group: the contacts pushed
/// along one face differ only in rounding (their loads are summed and normalised per element),
/// and a rank-one term turned by 1e-9 rad changes the matrix by 1e-9 of its size, far below
/// anything the step resolves.
pub const SAME_DIRECTION: f64 = 1e-9;

/// Weighted moments of points r (from the centre of mass): Σw, Σw·r and Σw·r·rᵀ.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct PointMoments {
    /// Σ w (N·s/m for damping).
    weight: f64,
    /// Σ w·r.
    first: Vector3<f64>,
    /// Σ w·r·rᵀ: its six distinct entries (it is symmetric), xx, xy, xz, yy, yz, zz.
    second: [f64; 6],
}

/// The terms along one direction: its unit vector (world) and the moments of their points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct DirectionGroup {
    direction: Vector3<f64>,
    moments: PointMoments,
}

impl PointMoments {
    /// Adds the point `r` with weight `w`.
    fn add(&mut self, r: &Vector3<f64>, w: f64) {
        let weighted = r * w;
        self.weight += w;
        self.first += weighted;
        for (sum, term) in self.second.iter_mut().zip([
            weighted.x * r.x,
            weighted.x * r.y,
            weighted.x * r.z,
            weighted.y * r.y,
            weighted.y * r.z,
            weighted.z * r.z,
        ]) {
            *sum += term;
        }
    }

    /// S = Σw·r·rᵀ.
    fn second_matrix(&self) -> Matrix3<f64> {
        let [xx, xy, xz, yy, yz, zz] = self.second;
        Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz)
    }

    /// Adds Σ w·Σ_u JᵀJ (u over three orthonormal directions) to the lower triangle of `m`:
    /// `[[Σw·I, ·], [[Σw·r]ₓ, tr(S)·I − S]]`.
    fn add_to_lower_every_direction(&self, m: &mut Matrix6<f64>) {
        let cross = self.first.cross_matrix();
        let second = self.second_matrix();
        let trace = second.trace();
        for j in 0..3 {
            m[(j, j)] += self.weight;
            for i in 0..3 {
                m[(3 + i, j)] += cross[(i, j)];
            }
            for i in j..3 {
                let identity = if i == j { trace } else { 0.0 };
                m[(3 + i, 3 + j)] += identity - second[(i, j)];
            }
        }
    }

    /// Adds Σ w·JᵀJ with J = (u, r × u) along the unit `direction` u to the lower triangle of
    /// `m` (type docs of [`Linearisation`]).
    fn add_to_lower_along(&self, direction: &Vector3<f64>, m: &mut Matrix6<f64>) {
        let u = direction;
        let arm = self.first.cross(u);
        // r × u = −[u]ₓ·r, so Σw·(r × u)(r × u)ᵀ = [u]ₓ·S·[u]ₓᵀ.
        let cross = u.cross_matrix();
        let angular = cross * self.second_matrix() * cross.transpose();
        for j in 0..3 {
            let weighted = self.weight * u[j];
            for i in j..3 {
                m[(i, j)] += weighted * u[i];
                m[(3 + i, 3 + j)] += angular[(i, j)];
            }
            for i in 0..3 {
                m[(3 + i, j)] += arm[i] * u[j];
            }
        }
    }
}

/// Adds `scale`·rowᵀrow to the lower triangle of `m` (column-major storage): constant
/// bounds, so the compiler unrolls it without bounds checks.
fn add_lower(m: &mut Matrix6<f64>, row: &[f64; 6], scale: f64) {
    let Ok(data) = <&mut [f64; 36]>::try_from(m.as_mut_slice()) else {
        return;
    };
    for j in 0..6 {
        let s = scale * row[j];
        for i in j..6 {
            data[6 * j + i] += s * row[i];
        }
    }
}

/// A term's weight as the Jacobians take it: `weight` if positive and finite, else 0 (the term
/// is left out).
///
/// Written as `max` and one comparison: `weight > 0.0 && weight.is_finite()` is turned by LLVM
/// into a test of the float's class on its bits, a dozen integer instructions and branches,
/// which at three a contact cost the linearisation a third of its time.
fn usable(weight: f64) -> f64 {
    // `max` returns 0 for a NaN; +∞ fails the comparison.
    let positive = weight.max(0.0);
    if positive < f64::INFINITY {
        positive
    } else {
        0.0
    }
}

/// The symmetric matrix whose lower triangle is `lower`'s.
fn symmetric(lower: &Matrix6<f64>) -> Matrix6<f64> {
    let mut m = *lower;
    for j in 1..6 {
        for i in 0..j {
            m[(i, j)] = m[(j, i)];
        }
    }
    m
}

impl Linearisation {
    /// No contacts, for a step of `step` s.
    pub fn clear(&mut self, step: f64) {
        *self = Self {
            step,
            ..Self::default()
        };
    }

    /// No contacts, gathering K alone (damping left out, h = 1 s): what
    /// [`Linearisation::combined`] then gives is K, N/m, N, N·m/rad blocks.
    pub fn stiffness_only() -> Self {
        Self {
            step: 1.0,
            stiffness_only: true,
            ..Self::default()
        }
    }

    /// A = D + h·K, N·s/m … blocks (type docs).
    pub fn combined(&self) -> Matrix6<f64> {
        let mut lower = self.combined;
        if self.plane.weight != 0.0 {
            self.plane.add_to_lower_every_direction(&mut lower);
        }
        for group in &self.groups[..self.directions] {
            group
                .moments
                .add_to_lower_along(&group.direction, &mut lower);
        }
        symmetric(&lower)
    }

    /// The weight of a term of `stiffness` N/m and `damping` N·s/m in A (each left out unless
    /// positive and finite).
    fn weight(&self, stiffness: f64, damping: f64) -> f64 {
        let damping = if self.stiffness_only {
            0.0
        } else {
            usable(damping)
        };
        damping + self.step * usable(stiffness)
    }

    /// Adds `weight` along the unit `direction` at `point`, `r` = `point` − `com`: to the
    /// direction's group (a new one while there are fewer than [`DIRECTION_GROUPS`]), or as
    /// its rank-one term.
    #[inline]
    fn add_along(
        &mut self,
        (point, com): (&Point3<f64>, &Point3<f64>),
        r: &Vector3<f64>,
        direction: &Vector3<f64>,
        weight: f64,
    ) {
        let same = SAME_DIRECTION * SAME_DIRECTION;
        let used = &mut self.groups[..self.directions];
        if let Some(group) = used
            .iter_mut()
            .find(|g| (g.direction - direction).norm_squared() <= same)
        {
            group.moments.add(r, weight);
        } else if let Some(group) = self.groups.get_mut(self.directions) {
            *group = DirectionGroup {
                direction: *direction,
                moments: PointMoments::default(),
            };
            group.moments.add(r, weight);
            self.directions += 1;
        } else {
            add_lower(
                &mut self.combined,
                &jacobian_row(point, com, direction),
                weight,
            );
        }
    }

    /// A contact term along the unit `direction` at `point` (world), relative to the centre
    /// of mass `com`: `stiffness` N/m and `damping` N·s/m, both ≥ 0.
    #[inline]
    pub fn add(
        &mut self,
        point: &Point3<f64>,
        com: &Point3<f64>,
        direction: &Vector3<f64>,
        stiffness: f64,
        damping: f64,
    ) {
        let weight = self.weight(stiffness, damping);
        if weight > 0.0 {
            self.add_along((point, com), &(point - com), direction, weight);
        }
    }

    /// A sticking contact at `point` with unit `normal`: its normal `stiffness` and `damping`
    /// as [`Self::add`], and `friction` N·s/m of damping in every direction square to the
    /// normal (the bristle along and across the belt): the same sum as adding the normal and
    /// then the belt's two directions with `friction`.
    #[inline]
    pub fn add_sticking(
        &mut self,
        point: &Point3<f64>,
        com: &Point3<f64>,
        normal: &Vector3<f64>,
        (stiffness, damping): (f64, f64),
        friction: f64,
    ) {
        let friction = if self.stiffness_only {
            0.0
        } else {
            usable(friction)
        };
        if friction == 0.0 {
            self.add(point, com, normal, stiffness, damping);
            return;
        }
        let r = point - com;
        // Every direction, less the normal's share of the friction.
        let weight = self.weight(stiffness, damping) - friction;
        self.add_along((point, com), &r, normal, weight);
        self.plane.add(&r, friction);
    }
}

/// The row J = (u, (p − c) × u) that maps the hull's twist (linear, angular; world, about the
/// centre of mass `com` c) to the speed along the unit `direction` u of its point `point` p.
fn jacobian_row(point: &Point3<f64>, com: &Point3<f64>, direction: &Vector3<f64>) -> [f64; 6] {
    let arm = (point - com).cross(direction);
    [direction.x, direction.y, direction.z, arm.x, arm.y, arm.z]
}

/// How much the twist change `change` (linear, angular; world, m/s and rad/s, about the
/// centre of mass `com`) changes the velocity of the hull's point `point`, m/s, world:
/// Δv + Δω × (p − c). Its dot product with a unit direction u is J·Δv, the change of the
/// point's speed along u (J the row of [`Linearisation`]'s terms): a contact's speeds along its
/// normal, belt and cross directions take it once and three dot products.
pub fn point_velocity_change(
    point: &Point3<f64>,
    com: &Point3<f64>,
    change: &Vector6<f64>,
) -> Vector3<f64> {
    let linear = Vector3::new(change[0], change[1], change[2]);
    let angular = Vector3::new(change[3], change[4], change[5]);
    linear + angular.cross(&(point - com))
}

/// Where `body` would be after `h` s at its velocity: the centre of mass moved by h·v, the
/// pose turned by h·ω about it; velocities unchanged.
pub fn predicted(body: &BodyState, h: f64) -> BodyState {
    let turn = UnitQuaternion::from_scaled_axis(body.angvel * h);
    let com = body.com + body.linvel * h;
    let arm = body.pose.translation.vector - body.com.coords;
    BodyState {
        pose: Isometry3::from_parts(
            Translation3::from(com.coords + turn * arm),
            turn * body.pose.rotation,
        ),
        com,
        linvel: body.linvel,
        angvel: body.angvel,
    }
}

/// The hull's mass and world inertia: `hull` where given, else the robot file's principal
/// moments turned to `body`'s pose.
fn hull_mass(spec: &RobotSpec, body: &BodyState, hull: Option<&HullMass>) -> HullMass {
    hull.copied().unwrap_or_else(|| {
        let rotation = body.pose.rotation.to_rotation_matrix().into_inner();
        HullMass {
            mass: spec.mass,
            inertia: rotation * Matrix3::from_diagonal(&spec.inertia) * rotation.transpose(),
        }
    })
}

/// The mass matrix diag(m·I₃, I) of `hull`.
fn mass_matrix(hull: &HullMass) -> Matrix6<f64> {
    let mut m = Matrix6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(Matrix3::identity() * hull.mass));
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(&hull.inertia);
    m
}

/// The wrench to hand rapier for a step of `dt` s so that the hull's velocity changes as if
/// the contact forces `explicit` (evaluated at the predicted pose, [`predicted`]) were
/// evaluated at its end, linearised by `lin` (module docs), on a hull of mass `hull` (`None`: the robot file's).
/// Falls back to `explicit` if the system cannot be solved (it is symmetric positive definite
/// whenever the mass is positive).
/// Returns it with the twist change Δv (linear, angular; world, m/s and rad/s) it makes, zero
/// when it falls back: a contact's force at the step's end is its force at the predicted pose
/// less (h·k + c)·J·Δv.
pub fn implicit_step(
    explicit: &Wrench,
    lin: &Linearisation,
    spec: &RobotSpec,
    body: &BodyState,
    (gravity, hull): (&Vector3<f64>, Option<&HullMass>),
    dt: f64,
) -> (Wrench, Vector6<f64>) {
    let hull = hull_mass(spec, body, hull);
    let m = mass_matrix(&hull);
    let force = Vector6::new(
        explicit.force.x,
        explicit.force.y,
        explicit.force.z,
        explicit.torque.x,
        explicit.torque.y,
        explicit.torque.z,
    );
    let weight = gravity * hull.mass;
    let known = force + Vector6::new(weight.x, weight.y, weight.z, 0.0, 0.0, 0.0);
    debug_assert_eq!(lin.step, dt, "linearised for another step");
    let combined = lin.combined();
    let system = m + combined * dt;
    let rhs = known * dt;
    let Some(change) = system.cholesky().map(|c| c.solve(&rhs)) else {
        return (*explicit, Vector6::zeros());
    };
    let applied = force - combined * change;
    if applied.iter().all(|x| x.is_finite()) {
        let wrench = Wrench {
            force: Vector3::new(applied[0], applied[1], applied[2]),
            torque: Vector3::new(applied[3], applied[4], applied[5]),
        };
        (wrench, change)
    } else {
        (*explicit, Vector6::zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> RobotSpec {
        crate::vehicle::robot_file::test_preset("scout")
    }

    /// A sticking contact's terms gathered as moments of its point ([`Linearisation::
    /// add_sticking`]) are the normal's and the two friction directions' rank-one terms:
    /// several contacts at random points, normals and slopes, within 1e-12 of the size; the
    /// stiffness alone is the normal's.
    #[test]
    fn sticking_contacts_add_the_same_jacobians_as_three_directions() {
        let com = Point3::new(0.1, -0.05, 0.2);
        let (mut gathered, mut three) = (Linearisation::default(), Linearisation::default());
        gathered.clear(0.005);
        three.clear(0.005);
        let (mut gathered_k, mut three_k) = (
            Linearisation::stiffness_only(),
            Linearisation::stiffness_only(),
        );
        for i in 0..7 {
            let t = f64::from(i);
            let point = Point3::new(0.3 * t.sin(), 0.2 * (1.7 * t).cos(), 0.05 * t - 0.1);
            let normal = Vector3::new(0.3 * t.cos(), -0.2 + 0.1 * t.sin(), 1.0).normalize();
            let tau = normal.cross(&Vector3::new(0.2, 1.0, 0.1 * t)).normalize();
            let lateral = normal.cross(&tau);
            let (k, c, s) = (1e5 * (1.0 + t), 300.0 + 20.0 * t, 4000.0 / (1.0 + t));
            gathered.add_sticking(&point, &com, &normal, (k, c), s);
            gathered_k.add_sticking(&point, &com, &normal, (k, c), s);
            for (lin, damping) in [(&mut three, c), (&mut three_k, 0.0)] {
                lin.add(&point, &com, &normal, k, damping);
                lin.add(&point, &com, &tau, 0.0, s);
                lin.add(&point, &com, &lateral, 0.0, s);
            }
        }
        let (a, b) = (gathered.combined(), three.combined());
        assert!((a - b).norm() < 1e-12 * b.norm(), "{a} vs {b}");
        assert_eq!(gathered_k.combined(), three_k.combined());
    }

    /// Contacts along a few shared directions (a floor's normal to rounding, a run's) are
    /// gathered as their directions' moments; more directions than groups go to the matrix
    /// term by term. Either way the matrix is Σ w·JᵀJ summed directly, within 1e-12 of its
    /// size, and a term whose weight is NaN, negative or infinite is left out.
    #[test]
    fn terms_along_shared_directions_sum_to_their_rank_one_terms() {
        let com = Point3::new(0.05, 0.01, 0.12);
        let floor = Vector3::new(0.01, -0.02, 1.0).normalize();
        let run = Vector3::new(0.0, 0.0, 1.0);
        let mut lin = Linearisation::default();
        lin.clear(0.005);
        let mut direct = Matrix6::zeros();
        for i in 0..40 {
            let t = f64::from(i);
            let point = Point3::new(0.2 * (0.9 * t).sin(), 0.15 * (1.3 * t).cos(), -0.03 * t);
            // The floor's normal as a sum of loads leaves it: off by rounding only.
            let wobble = Vector3::new(1e-16 * t.sin(), -1e-16 * t.cos(), 0.0);
            let direction = match i % 4 {
                0 | 1 => (floor + wobble).normalize(),
                2 => run,
                // Ten others: two take the groups left, eight go to the matrix.
                _ => Vector3::new(0.3 * t.cos(), 0.4 * t.sin(), 1.0).normalize(),
            };
            let (k, c) = (1e5 + 1e4 * t, 200.0 + 10.0 * t);
            lin.add(&point, &com, &direction, k, c);
            let row = Vector6::from(jacobian_row(&point, &com, &direction));
            direct += row * row.transpose() * (c + 0.005 * k);
        }
        // Left out: they change nothing.
        for bad in [f64::NAN, -1.0, f64::INFINITY] {
            lin.add(&Point3::new(0.1, 0.0, 0.0), &com, &floor, bad, bad);
            lin.add_sticking(&Point3::new(0.1, 0.0, 0.0), &com, &floor, (0.0, 0.0), bad);
        }
        let got = lin.combined();
        assert!(
            (got - direct).norm() < 1e-12 * direct.norm(),
            "{got} vs {direct}"
        );
        assert_eq!(lin.directions, DIRECTION_GROUPS);
    }

    /// The one matrix is D + h·K: gathered at h = 5 ms, it is the damping alone (h = 0)
    /// plus h times the stiffness alone, within rounding (1e-12 of its size).
    #[test]
    fn the_combined_matrix_is_the_damping_plus_the_step_times_the_stiffness() {
        let com = Point3::new(0.0, 0.02, 0.15);
        let h = 0.005;
        let (mut combined, mut damping, mut stiffness) = (
            Linearisation::default(),
            Linearisation::default(),
            Linearisation::stiffness_only(),
        );
        combined.clear(h);
        damping.clear(0.0);
        for i in 0..9 {
            let t = f64::from(i);
            let point = Point3::new(0.4 * (0.7 * t).cos(), 0.25 * t.sin(), -0.05 * t);
            let normal = Vector3::new(0.2 * t.sin(), 0.1, 1.0).normalize();
            let (k, c, s) = (2e5 + 3e4 * t, 500.0 - 30.0 * t, 2500.0 + 100.0 * t);
            for lin in [&mut combined, &mut damping, &mut stiffness] {
                if i % 3 == 0 {
                    lin.add(&point, &com, &normal, k, c);
                } else {
                    lin.add_sticking(&point, &com, &normal, (k, c), s);
                }
            }
        }
        let expected = damping.combined() + stiffness.combined() * h;
        let got = combined.combined();
        assert!(
            (got - expected).norm() < 1e-12 * expected.norm(),
            "{got} vs {expected}"
        );
    }

    /// The point's velocity change is Δv + Δω × (p − c), and along u it is J·Δv with J the
    /// row the Jacobians' terms use.
    #[test]
    fn a_points_velocity_change_along_a_direction_is_the_row_times_the_twist_change() {
        let (point, com) = (Point3::new(0.3, -0.1, 0.0), Point3::new(0.0, 0.0, 0.1));
        let change = Vector6::new(0.2, -0.1, 0.05, 0.4, 0.3, -1.5);
        let (dv, dw) = (Vector3::new(0.2, -0.1, 0.05), Vector3::new(0.4, 0.3, -1.5));
        let at_point = dv + dw.cross(&(point - com));
        assert_eq!(point_velocity_change(&point, &com, &change), at_point);
        for u in [Vector3::x(), Vector3::y(), Vector3::new(0.6, 0.0, 0.8)] {
            let row = Vector6::from(jacobian_row(&point, &com, &u));
            let got = point_velocity_change(&point, &com, &change).dot(&u);
            assert!(
                (got - row.dot(&change)).abs() < 1e-12,
                "{got} vs {}",
                row.dot(&change)
            );
        }
    }

    /// A point spring k and damper c under the centre of mass, vertical: the solve's
    /// velocity change is backward Euler's for m·ẍ = −k·x − c·ẋ − m·g, to rounding.
    #[test]
    fn a_vertical_spring_steps_as_backward_euler() {
        let spec = spec();
        let (k, c, dt, m) = (2.0e5, 800.0, 0.01, spec.mass);
        let body = BodyState {
            pose: Isometry3::identity(),
            com: Point3::new(0.0, 0.0, 0.1),
            linvel: Vector3::new(0.0, 0.0, -1.0),
            angvel: Vector3::zeros(),
        };
        let x = -0.005; // compressed 5 mm
        let mut lin = Linearisation::default();
        lin.clear(dt);
        let under = Point3::new(0.0, 0.0, 0.0);
        lin.add(&under, &body.com, &Vector3::z(), k, c);
        // The spring evaluated at the predicted position x + dt·v (v = −1 m/s).
        let explicit = Wrench {
            force: Vector3::new(0.0, 0.0, -k * (x - dt) + c),
            torque: Vector3::zeros(),
        };
        let g = Vector3::new(0.0, 0.0, -9.81);
        let (w, _) = implicit_step(&explicit, &lin, &spec, &body, (&g, None), dt);
        let dv = (w.force.z + m * g.z) * dt / m;
        // Backward Euler: m·(v' − v) = dt·(−k·(x + dt·v') − c·v' + m·g).
        let v = -1.0;
        let expected = (m * v + dt * (-k * x + m * g.z)) / (m + dt * c + dt * dt * k);
        assert!(
            ((v + dv) - expected).abs() < 1e-9,
            "{} vs {expected}",
            v + dv
        );
        assert!(w.torque.norm() < 1e-9);
    }

    /// At a step 20 times past the explicit limit (ω·dt = 40) the implicit spring does not
    /// gain energy: an oscillation decays instead of blowing up.
    #[test]
    fn a_stiff_spring_at_a_large_step_loses_energy() {
        let spec = spec();
        let m = spec.mass;
        let k = 1600.0 * m * 1000.0; // ω = 1265 rad/s
        let dt = 0.03;
        let (mut x, mut v) = (0.01_f64, 0.0_f64);
        let energy = |x: f64, v: f64| 0.5 * k * x * x + 0.5 * m * v * v;
        let e0 = energy(x, v);
        for _ in 0..100 {
            let body = BodyState {
                pose: Isometry3::identity(),
                com: Point3::new(0.0, 0.0, x),
                linvel: Vector3::new(0.0, 0.0, v),
                angvel: Vector3::zeros(),
            };
            let mut lin = Linearisation::default();
            lin.clear(dt);
            lin.add(&Point3::new(0.0, 0.0, x), &body.com, &Vector3::z(), k, 0.0);
            let explicit = Wrench {
                force: Vector3::new(0.0, 0.0, -k * (x + dt * v)),
                torque: Vector3::zeros(),
            };
            let (w, _) =
                implicit_step(&explicit, &lin, &spec, &body, (&Vector3::zeros(), None), dt);
            v += w.force.z * dt / m;
            x += v * dt;
            assert!(energy(x, v) <= e0 * (1.0 + 1e-9), "energy grew");
        }
        assert!(energy(x, v) < 0.01 * e0);
    }

    #[test]
    fn an_off_centre_push_couples_turning() {
        let spec = spec();
        let body = BodyState {
            pose: Isometry3::identity(),
            com: Point3::origin(),
            linvel: Vector3::zeros(),
            angvel: Vector3::zeros(),
        };
        let mut lin = Linearisation::stiffness_only();
        lin.add(
            &Point3::new(0.3, 0.0, 0.0),
            &body.com,
            &Vector3::z(),
            1e5,
            0.0,
        );
        // A unit pitch rate moves the point at −0.3 m/s along z: the row is (0,0,1, 0,−0.3,0),
        // and both triangles hold it (the products K·v use the whole matrix).
        let k = lin.combined();
        assert!((k[(2, 4)] - -0.3e5).abs() < 1e-6);
        assert_eq!(k[(2, 4)], k[(4, 2)]);
        assert!((k[(4, 4)] - 0.09e5).abs() < 1e-6);
        let _ = spec;
    }
}
