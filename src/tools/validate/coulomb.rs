//! The steady-state reference for skid steering on hard ground: rigid-body statics with
//! Coulomb friction at given contact loads (Wong, *Theory of Ground Vehicles*, 4th ed.,
//! §7.2: the kinetics of skid-steering with Coulomb friction under the tracks).
//!
//! A robot turning steadily on level ground is in equilibrium in the ground plane: the
//! friction and motion resistance of all its contacts sum to zero force and zero moment about
//! its centre of mass, less the centripetal force m·ω×v its circle needs. Each contact
//! slides at the belt's surface speed over the ground, `s = v_p + V·τ` (hull point velocity
//! plus the belt's motion relative to the hull), and the ground pushes back with the full
//! friction force against that slip: `F = −N·s / √((s_τ/μ_τ)² + (s_⊥/μ_⊥)²)` (the elliptic
//! limit, on the slip direction, as the track model's sliding law), plus motion resistance
//! `f_r·N` against the contact's travel along the belt. Given the loads and the belt speeds,
//! the unknowns are the hull's planar twist (v_x, v_y, ω); [`steady_twist`] finds it by
//! Newton's method on the three equilibrium equations, starting from the no-slip twist.
//!
//! Where the belt renews a wheel's bristle (`FrictionConfig::wheel_patch_renewal`) a steady
//! slip below the limit pulls with σ₀·ℓ·slip/|V| (the slip ratio times the contact's
//! `slip_ratio_stiffness`; Janosi–Hanamoto's shear displacement lumped over the wheel's
//! patch, Wong & Chiang 2001 for skid steering with shear displacement): the force is the
//! smaller of that and the Coulomb force on the same direction.
//!
//! This is the model the track model must reduce to in a steady turn on hard ground, solved
//! independently of it: it shares only the contact loads and coefficients the model reports.

use nalgebra::{Matrix3, Vector2, Vector3};

/// Slip speed below which the friction direction is smoothed, m/s: far below any slip of a
/// turn (≥ cm/s), so the smoothing moves the solution by less than the tolerance it is
/// checked with.
const SMOOTHING: f64 = 1e-5;
/// Newton iterations at most.
const MAX_ITERATIONS: usize = 200;

/// One contact of the solve, body frame (x forward, y left), relative to the centre of mass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanarContact {
    /// Where the contact is, m, relative to the centre of mass in the ground plane.
    pub point: Vector2<f64>,
    /// Unit direction the belt surface moves relative to the hull for a positive belt speed.
    pub along: Vector2<f64>,
    /// Normal load, N.
    pub load: f64,
    /// Friction coefficients `(along the belt, across it)`.
    pub mu: Vector2<f64>,
    /// Motion-resistance coefficient.
    pub rolling_resistance: f64,
    /// Below the friction limit, the force per unit of slip ratio (slip over belt speed), N,
    /// of a contact whose bristle the belt renews (`track::friction`); infinite for plain
    /// Coulomb friction.
    pub slip_ratio_stiffness: f64,
    /// Which belt (drive) carries it.
    pub drive: usize,
}

/// A planar twist of the hull: velocity of the centre of mass (body frame, m/s) and yaw
/// rate (rad/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Twist {
    /// Forward speed, m/s.
    pub vx: f64,
    /// Leftward speed, m/s.
    pub vy: f64,
    /// Yaw rate, rad/s, counter-clockwise seen from above.
    pub yaw_rate: f64,
}

impl Twist {
    #[cfg(test)]
    fn vector(&self) -> Vector3<f64> {
        Vector3::new(self.vx, self.vy, self.yaw_rate)
    }

    fn from_vector(v: &Vector3<f64>) -> Self {
        Self {
            vx: v.x,
            vy: v.y,
            yaw_rate: v.z,
        }
    }
}

/// Why the steady state could not be found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SteadyStateError {
    /// No contact carries load.
    #[error("no loaded contacts")]
    NoContacts,
    /// Newton's method stalled.
    #[error("the equilibrium solve did not converge (residual {0:.3e} N)")]
    NoConvergence(f64),
}

/// `x / √(x² + ε²)`: the sign of `x`, smoothed within [`SMOOTHING`].
fn soft_sign(x: f64) -> f64 {
    x / x.hypot(SMOOTHING)
}

/// Planar force (x, y, N) and moment about the centre of mass (z, N·m) of all contacts on a
/// hull of `mass` kg at `twist` (vx, vy, ω) with belt speeds `speeds`, less what its steady
/// circle needs (`m·ω × v`): zero in the steady state.
pub fn residual(
    contacts: &[PlanarContact],
    speeds: &[f64],
    twist: &Vector3<f64>,
    mass: f64,
) -> Vector3<f64> {
    // Body-frame acceleration of the centre of mass in a steady turn: ω × v.
    let mut sum = Vector3::new(mass * twist.z * twist.y, -mass * twist.z * twist.x, 0.0);
    for c in contacts {
        let v = Vector2::new(twist.x - twist.z * c.point.y, twist.y + twist.z * c.point.x);
        let across = Vector2::new(-c.along.y, c.along.x);
        let speed = speeds.get(c.drive).copied().unwrap_or(0.0);
        let slip = Vector2::new(v.dot(&c.along) + speed, v.dot(&across));
        let scaled = Vector2::new(slip.x / c.mu.x, slip.y / c.mu.y);
        let size = scaled.norm().hypot(SMOOTHING);
        // Coulomb on the slip's direction, or less while a renewed bristle's pull σ₀·ℓ·slip /
        // |V| stays inside the limit (the steady state of `track::friction`'s renewal).
        let coulomb = c.load / size;
        let per_slip = if c.slip_ratio_stiffness.is_finite() && speed != 0.0 {
            coulomb.min(c.slip_ratio_stiffness / speed.abs())
        } else {
            coulomb
        };
        let friction = -slip * per_slip;
        // Resistance against the contact's travel over the ground along the belt.
        let travel = -v.dot(&c.along);
        let resistance = c.rolling_resistance * c.load * soft_sign(travel);
        let force = c.along * (friction.x + resistance) + across * friction.y;
        sum += Vector3::new(force.x, force.y, c.point.x * force.y - c.point.y * force.x);
    }
    sum
}

/// The twist at which the contacts' slip makes no belt slide along itself: the least-squares
/// fit of `v_p·τ = −V` over the contacts (with a small weight keeping `v_y` at zero when the
/// belts do not fix it).
fn no_slip_twist(contacts: &[PlanarContact], speeds: &[f64]) -> Vector3<f64> {
    let mut normal = Matrix3::identity() * 1e-9;
    let mut rhs = Vector3::zeros();
    for c in contacts {
        // v_p·τ = (vx − ω·y)·τx + (vy + ω·x)·τy.
        let row = Vector3::new(
            c.along.x,
            c.along.y,
            -c.point.y * c.along.x + c.point.x * c.along.y,
        );
        let speed = speeds.get(c.drive).copied().unwrap_or(0.0);
        normal += row * row.transpose();
        rhs += row * -speed;
    }
    normal.lu().solve(&rhs).unwrap_or_else(Vector3::zeros)
}

/// The steady planar twist of a hull of `mass` kg on `contacts` with belt speeds `speeds`
/// (m/s, per drive): the twist at which everything sums to zero, found by damped Newton iterations
/// from the no-slip twist with a central-difference Jacobian. Converged when the residual is
/// below 10⁻⁷ of the total load.
pub fn steady_twist(
    contacts: &[PlanarContact],
    speeds: &[f64],
    mass: f64,
) -> Result<Twist, SteadyStateError> {
    let total: f64 = contacts.iter().map(|c| c.load).sum();
    if contacts.is_empty() || total <= 0.0 {
        return Err(SteadyStateError::NoContacts);
    }
    let f = |t: &Vector3<f64>| residual(contacts, speeds, t, mass);
    let mut twist = no_slip_twist(contacts, speeds);
    let mut r = f(&twist);
    let tolerance = 1e-7 * total;
    for _ in 0..MAX_ITERATIONS {
        if r.norm() < tolerance {
            return Ok(Twist::from_vector(&twist));
        }
        let mut jacobian = Matrix3::zeros();
        for k in 0..3 {
            let mut step = Vector3::zeros();
            step[k] = 1e-7;
            let column = (f(&(twist + step)) - f(&(twist - step))) / 2e-7;
            jacobian.set_column(k, &column);
        }
        let Some(delta) = jacobian.lu().solve(&-r) else {
            break;
        };
        // Halve the step until the residual falls (the friction law is nearly a sign).
        let mut scale = 1.0;
        loop {
            let next = twist + delta * scale;
            let rn = f(&next);
            if rn.norm() < r.norm() || scale < 1e-6 {
                twist = next;
                r = rn;
                break;
            }
            scale *= 0.5;
        }
    }
    if r.norm() < tolerance {
        Ok(Twist::from_vector(&twist))
    } else {
        Err(SteadyStateError::NoConvergence(r.norm()))
    }
}

/// The power the contacts dissipate at `twist` (isotropic friction), W: Coulomb's steady
/// state minimises it, which the tests use as an independent check of the solve.
#[cfg(test)]
fn dissipation(contacts: &[PlanarContact], speeds: &[f64], twist: &Vector3<f64>) -> f64 {
    contacts
        .iter()
        .map(|c| {
            let v = Vector2::new(twist.x - twist.z * c.point.y, twist.y + twist.z * c.point.x);
            let across = Vector2::new(-c.along.y, c.along.x);
            let slip = Vector2::new(v.dot(&c.along) + speeds[c.drive], v.dot(&across));
            c.load * (c.mu.x * slip.norm() + c.rolling_resistance * v.dot(&c.along).abs())
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tracks of `n` contacts each, length `length`, gauge `gauge`, uniform load; belts
    /// move backwards relative to the hull (along = −x) for forward drive.
    fn tracks(
        n: usize,
        length: f64,
        gauge: f64,
        load: f64,
        mu: f64,
        f_r: f64,
    ) -> Vec<PlanarContact> {
        let mut out = Vec::new();
        for (drive, y) in [(0, gauge / 2.0), (1, -gauge / 2.0)] {
            for i in 0..n {
                let x = -length / 2.0 + length * (i as f64 + 0.5) / n as f64;
                out.push(PlanarContact {
                    point: Vector2::new(x, y),
                    along: Vector2::new(-1.0, 0.0),
                    load: load / (2 * n) as f64,
                    mu: Vector2::new(mu, mu),
                    rolling_resistance: f_r,
                    slip_ratio_stiffness: f64::INFINITY,
                    drive,
                });
            }
        }
        out
    }

    #[test]
    fn equal_belts_drive_straight_at_belt_speed() {
        let c = tracks(10, 0.6, 0.4, 200.0, 0.8, 0.0);
        let t = steady_twist(&c, &[0.5, 0.5], 0.0).unwrap();
        assert!((t.vx - 0.5).abs() < 1e-4, "{t:?}");
        assert!(t.vy.abs() < 1e-6 && t.yaw_rate.abs() < 1e-6, "{t:?}");
    }

    #[test]
    fn a_symmetric_pivot_turns_in_place_slower_than_no_slip() {
        let c = tracks(20, 0.6, 0.4, 200.0, 0.8, 0.05);
        let t = steady_twist(&c, &[-0.5, 0.5], 0.0).unwrap();
        assert!(t.vx.abs() < 1e-6 && t.vy.abs() < 1e-6, "{t:?}");
        // Left belt backwards, right forwards: counter-clockwise, slower than 2V/B = 2.5 rad/s.
        assert!(t.yaw_rate > 0.0 && t.yaw_rate < 2.5, "{t:?}");
    }

    /// Coulomb's steady state is where the dissipated power is least (isotropic friction and
    /// motion resistance are both convex in the twist): no nearby twist dissipates less.
    #[test]
    fn the_solution_minimises_the_dissipated_power() {
        let c = tracks(15, 0.7, 0.45, 300.0, 0.7, 0.04);
        for speeds in [[0.5, 0.2], [0.5, -0.5], [0.3, 0.0], [-0.2, 0.6]] {
            let t = steady_twist(&c, &speeds, 0.0).unwrap().vector();
            let d0 = dissipation(&c, &speeds, &t);
            for k in 0..3 {
                for s in [-1e-3, 1e-3] {
                    let mut p = t;
                    p[k] += s;
                    assert!(
                        dissipation(&c, &speeds, &p) >= d0 - 1e-6,
                        "{speeds:?} {k} {s}"
                    );
                }
            }
        }
    }

    /// Renewed bristles driving straight against rolling resistance: each contact pulls
    /// S·slip/V = f_r·N, so the robot runs slower than its belts by f_r·N·V/S.
    #[test]
    fn renewed_contacts_slip_by_the_rolling_resistance_over_their_stiffness() {
        let mut c = tracks(10, 0.6, 0.4, 200.0, 0.8, 0.03);
        let stiffness = 400.0;
        c.iter_mut()
            .for_each(|c| c.slip_ratio_stiffness = stiffness);
        let t = steady_twist(&c, &[0.5, 0.5], 0.0).unwrap();
        let slip = 0.03 * (200.0 / 20.0) * 0.5 / stiffness;
        assert!(
            (t.vx - (0.5 - slip)).abs() < 1e-6,
            "{} vs {}",
            t.vx,
            0.5 - slip
        );
        // Plain Coulomb contacts roll at the belts' speed (the resistance is below the limit).
        let coulomb = tracks(10, 0.6, 0.4, 200.0, 0.8, 0.03);
        let t = steady_twist(&coulomb, &[0.5, 0.5], 0.0).unwrap();
        assert!((t.vx - 0.5).abs() < 1e-4, "{}", t.vx);
    }

    #[test]
    fn no_load_is_an_error() {
        assert_eq!(
            steady_twist(&[], &[0.0], 0.0),
            Err(SteadyStateError::NoContacts)
        );
    }
}
