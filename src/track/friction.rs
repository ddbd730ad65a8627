//! Belt–ground friction with stick–slip.
//!
//! Plain regularised Coulomb friction lets a parked robot creep down any slope. Each support
//! element instead carries a *bristle*: a tangential deflection `z` (along the belt, across
//! it) that stretches while the contact sticks and pulls the contact back; when the force
//! needed exceeds μN the contact slides and the bristle stays at its limit. A robot on a slope
//! its friction can hold sits still with its bristles slightly stretched.
//!
//! As in the LuGre model the bristle stiffness σ₀ is fixed and μN is only the limit: a
//! stiffness proportional to N would let a stretched bristle push harder whenever the load
//! grows, without moving, and so create energy (seen as a rocking robot gaining energy).

use nalgebra::Vector2;

/// Parameters of the stick–slip friction law.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionConfig {
    /// Tangential deflection at which a robot's contacts hold its whole weight at μ = 0.8, m.
    /// Sets each robot's bristle stiffness σ₀ (see [`bristle_stiffness`]).
    pub stick_length: f64,
    /// Damping of the stick spring as a time constant, s: damping = stiffness × this.
    pub stick_damping_time: f64,
}

impl Default for FrictionConfig {
    /// 2 mm of stick deflection (about a rubber pad's shear before it slips) and 20 ms
    /// damping: for μ = 0.8 the stick mode of a parked robot is at √(μg/2 mm) ≈ 63 rad/s,
    /// damped at ζ ≈ 0.6, far below the step's stability limit.
    fn default() -> Self {
        Self {
            stick_length: 0.002,
            stick_damping_time: 0.02,
        }
    }
}

/// The friction force of one contact for one step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionForce {
    /// Force on the belt from the ground, N, `(along the belt direction τ, lateral)`.
    pub force: Vector2<f64>,
    /// Bristle deflection after the step, m.
    pub bristle: Vector2<f64>,
    /// Whether the contact sticks (the force is below the friction limit).
    pub sticking: bool,
    /// `−∂force.x/∂slip.x`, N·s/m: how fast the longitudinal force falls as the belt slips
    /// faster (0 while sliding). The drive uses it to update the belt speed implicitly.
    pub longitudinal_damping: f64,
}

/// Bristle stiffness σ₀ of each contact of a robot of `mass` kg whose weight rests on
/// `contacts` support elements on flat ground, N/m: together they reach μ = 0.8 of the weight
/// at `stick_length` of deflection. The stick mode then sits at √(0.8·g / stick_length).
pub fn bristle_stiffness(config: &FrictionConfig, mass: f64, contacts: usize) -> f64 {
    0.8 * mass * 9.81 / (config.stick_length * contacts.max(1) as f64)
}

/// Friction of one contact over a step of `dt` s.
///
/// `stiffness` is the bristle stiffness σ₀, N/m; `normal` the normal force (N ≥ 0); `mu` the
/// friction coefficients `(along the belt, across it)`; `slip` the velocity of the belt
/// surface over the ground `(along τ, lateral)`, m/s; `bristle` the deflection at the start of
/// the step, m.
pub fn friction(
    config: &FrictionConfig,
    stiffness: f64,
    normal: f64,
    mu: Vector2<f64>,
    slip: Vector2<f64>,
    bristle: Vector2<f64>,
    dt: f64,
) -> FrictionForce {
    let limit = mu * normal;
    // μx N · μy N: the limit test below is scaled by its square. A load so small that the
    // square underflows (N below ≈ 1e-77 N) carries no friction, as no load does.
    let reach = limit.x * limit.y;
    if normal <= 0.0 || mu.x <= 0.0 || mu.y <= 0.0 || reach * reach < f64::MIN_POSITIVE {
        return FrictionForce {
            force: Vector2::zeros(),
            bristle: Vector2::zeros(),
            sticking: false,
            longitudinal_damping: 0.0,
        };
    }
    let k = stiffness;
    let c = k * config.stick_damping_time;
    let z = bristle + slip * dt;
    let trial = -(z * k + slip * c);
    // Elliptic friction limit: (Fx/μx N)² + (Fy/μy N)² ≤ 1, tested multiplied through by
    // (μx N · μy N)² so a sticking contact (the common case) costs no division or root.
    let scaled = Vector2::new(trial.x * limit.y, trial.y * limit.x);
    let excess = scaled.norm_squared();
    if excess <= reach * reach {
        FrictionForce {
            force: trial,
            bristle: z,
            sticking: true,
            longitudinal_damping: k * dt + c,
        }
    } else {
        let scale = reach / excess.sqrt();
        // The bristle rests at the deflection that the sliding force stretches it to,
        // −force/k = (z + slip·c/k)·scale with c/k the damping time: no second division.
        FrictionForce {
            force: trial * scale,
            bristle: (z + slip * config.stick_damping_time) * scale,
            sticking: false,
            longitudinal_damping: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 0.002;
    /// Stick stiffness of a 100 N contact with μ = 0.8 reaching the limit at 2 mm.
    const K: f64 = 0.8 * 100.0 / 0.002;

    #[test]
    fn sliding_force_is_coulomb_and_opposes_slip() {
        let cfg = FrictionConfig::default();
        let f = friction(
            &cfg,
            K,
            100.0,
            Vector2::new(0.8, 0.8),
            Vector2::new(0.3, -0.4),
            Vector2::zeros(),
            DT,
        );
        assert!(!f.sticking);
        assert!((f.force.norm() - 80.0).abs() < 1e-9);
        // Opposes the slip direction (isotropic μ).
        let dir = -Vector2::new(0.3, -0.4).normalize();
        assert!((f.force.normalize() - dir).norm() < 0.05);
        assert_eq!(f.longitudinal_damping, 0.0);
    }

    /// Regression: with σ₀ ∝ N a stretched bristle pushed harder when the load grew, doing
    /// work without motion. With a fixed σ₀ the force at a fixed deflection does not depend on
    /// the load (until the limit), and a falling load makes the contact slip.
    #[test]
    fn bristle_force_does_not_grow_with_load_at_a_fixed_deflection() {
        let cfg = FrictionConfig::default();
        let z = Vector2::new(0.001, 0.0);
        let mu = Vector2::new(0.8, 0.8);
        let a = friction(&cfg, K, 100.0, mu, Vector2::zeros(), z, DT);
        let b = friction(&cfg, K, 200.0, mu, Vector2::zeros(), z, DT);
        assert!(a.sticking && b.sticking);
        assert_eq!(a.force, b.force);
        let c = friction(&cfg, K, 20.0, mu, Vector2::zeros(), z, DT);
        assert!(!c.sticking && (c.force.norm() - 16.0).abs() < 1e-9);
    }

    /// The limit test is scaled to need no division: a load whose scale underflows gives no
    /// force (never NaN), and a trial force just inside or just outside the ellipse sticks or
    /// slides as the unscaled test `(Fx/μxN)² + (Fy/μyN)² ≤ 1` says.
    #[test]
    fn limit_test_without_division_matches_the_ellipse() {
        let cfg = FrictionConfig::default();
        let mu = Vector2::new(0.8, 0.4);
        let tiny = friction(
            &cfg,
            K,
            1e-100,
            mu,
            Vector2::new(1.0, 0.0),
            Vector2::zeros(),
            DT,
        );
        assert_eq!(tiny.force, Vector2::zeros());
        assert!(!tiny.sticking);
        // A still contact (no slip) whose bristle pulls at 99.9 % and 100.1 % of the limit
        // along the ellipse direction (0.6, 0.8) in units of μN.
        let n = 100.0;
        for (scale, sticks) in [(0.999, true), (1.001, false)] {
            let want = Vector2::new(0.6 * mu.x * n, 0.8 * mu.y * n) * scale;
            let f = friction(&cfg, K, n, mu, Vector2::zeros(), -want / K, DT);
            assert_eq!(f.sticking, sticks, "{scale}");
            let on_ellipse = (f.force.x / (mu.x * n)).hypot(f.force.y / (mu.y * n));
            assert!(
                (on_ellipse - scale.min(1.0)).abs() < 1e-12,
                "{scale}: {on_ellipse}"
            );
        }
    }

    #[test]
    fn anisotropic_limit_is_an_ellipse() {
        let cfg = FrictionConfig::default();
        let f = friction(
            &cfg,
            K,
            100.0,
            Vector2::new(0.8, 0.4),
            Vector2::new(0.0, 1.0),
            Vector2::zeros(),
            DT,
        );
        assert!(
            (f.force.y + 40.0).abs() < 1e-9,
            "lateral sliding limited to μ_lat·N"
        );
    }

    /// A contact held by a constant tangential load below μN settles with zero slip: the
    /// bristle carries the load (no creep). Simulated as a block of mass m on a slope.
    #[test]
    fn a_block_held_below_the_friction_limit_does_not_creep() {
        let cfg = FrictionConfig::default();
        let (m, g, mu) = (20.0, 9.81, 0.8);
        let theta = f64::atan(mu) - 5f64.to_radians();
        let n = m * g * theta.cos();
        let k = bristle_stiffness(&cfg, m, 1);
        let (mut x, mut v, mut z) = (0.0, 0.0, Vector2::zeros());
        for _ in 0..30_000 {
            // 60 s
            let f = friction(
                &cfg,
                k,
                n,
                Vector2::new(mu, mu),
                Vector2::new(v, 0.0),
                z,
                DT,
            );
            z = f.bristle;
            let a = (f.force.x - m * g * theta.sin()) / m;
            v += a * DT;
            x += v * DT;
        }
        assert!(
            x.abs() < 0.003,
            "moved {x} m (the stick deflection is ≤ 2 mm)"
        );
        assert!(v.abs() < 1e-9);
    }

    #[test]
    fn a_block_above_the_friction_limit_slides_at_the_coulomb_rate() {
        let cfg = FrictionConfig::default();
        let (m, g, mu) = (20.0, 9.81, 0.8);
        let theta = f64::atan(mu) + 5f64.to_radians();
        let n = m * g * theta.cos();
        let k = bristle_stiffness(&cfg, m, 1);
        let (mut v, mut z) = (0.0, Vector2::zeros());
        for _ in 0..500 {
            let f = friction(
                &cfg,
                k,
                n,
                Vector2::new(mu, mu),
                Vector2::new(v, 0.0),
                z,
                DT,
            );
            z = f.bristle;
            v += (f.force.x - m * g * theta.sin()) / m * DT;
        }
        // After 1 s: v ≈ −g(sinθ − μcosθ)·t (downhill is negative here).
        let expect = -g * (theta.sin() - mu * theta.cos()) * 1.0;
        assert!((v - expect).abs() < 0.05 * expect.abs(), "{v} vs {expect}");
    }
}
