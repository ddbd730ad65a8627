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
//!
//! **Renewal by the belt's motion** (`FrictionConfig::wheel_patch_renewal`). A bristle
//! stands for the belt under one wheel, and the belt moves through the wheel's patch: an
//! element of belt meets the ground at the patch's leading end unsheared and is sheared by the
//! slip for the time it spends under the wheel, j = slip·x/|v_belt| = s·x at x along the patch
//! (Janosi–Hanamoto's shear displacement, Wong, *Theory of Ground Vehicles*, §2.4), and lifts
//! off at its end, taking its deflection with it. Lumped over the patch (as the averaged
//! LuGre tyre model, Canudas de Wit, Tsiotras et al., 2003) the mean deflection obeys
//! ż = slip − (|v_belt|/ℓ)·z with ℓ half the patch's chord ([`relaxation_length`]): a steady
//! slip holds it at s·ℓ, so below the friction limit the force grows with the slip *ratio*
//! s, not the slip speed. That is what makes the faster track of a turn slip more: any law of
//! the slip speed alone gives a symmetric robot equal and opposite slip speeds (Endo et al.'s
//! slip-ratio exponent n = 1), the measured n is about 0.5. The damper then acts on ż (as
//! LuGre's σ₁), which a steady slip leaves at zero. A parked robot (belts still) renews
//! nothing: the stick and the slope hold are those above.

use nalgebra::Vector2;

/// Parameters of the stick–slip friction law.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionConfig {
    /// Tangential deflection at which a robot's contacts hold its whole weight at μ = 0.8, m.
    /// Sets each robot's bristle stiffness σ₀ (see [`bristle_stiffness`]).
    pub stick_length: f64,
    /// Damping of the stick spring as a time constant, s: damping = stiffness × this.
    pub stick_damping_time: f64,
    /// Whether a wheel's contact patch renews its bristle as the belt carries fresh belt under
    /// the wheel (shear displacement j = s·x over the patch, module docs). Off by default:
    /// a renewed bristle settles at slip ratio × ℓ, so a wheel spinning in place pulls at most
    /// σ₀·ℓ, which falls below μ·N where the load gathers on a few circles (σ₀ is one
    /// stiffness for every contact, ℓ grows as the cube root of the load): with it the scout
    /// stalls on the residential stairs' first nosing (`tests/turning.rs`, issue 40).
    pub wheel_patch_renewal: bool,
}

impl Default for FrictionConfig {
    /// 2 mm of stick deflection (about a rubber pad's shear before it slips) and 20 ms
    /// damping: for μ = 0.8 the stick mode of a parked robot is at √(μg/2 mm) ≈ 63 rad/s,
    /// damped at ζ ≈ 0.6, far below the step's stability limit.
    fn default() -> Self {
        Self {
            stick_length: 0.002,
            stick_damping_time: 0.02,
            wheel_patch_renewal: false,
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

/// Relaxation length of a wheel's contact patch, m: half the chord that a circle of `radius`
/// sunk `depth` into flat ground presses onto it, √(2Rδ − δ²). A belt element is sheared from
/// where it meets the ground under the wheel, j = s·x over the chord, so the patch's mean
/// deflection is the slip ratio s times half the chord; beyond it the belt lifts and the
/// element's deflection leaves with it. Infinite (nothing renews the contact) for no depth.
pub fn relaxation_length(radius: f64, depth: f64) -> f64 {
    let depth = depth.clamp(0.0, radius);
    let half_chord_squared = depth * (2.0 * radius - depth);
    if half_chord_squared > 0.0 {
        half_chord_squared.sqrt()
    } else {
        f64::INFINITY
    }
}

/// The bristle damper's time constant, s, for a contact renewed by `transport` over a step of
/// `dt` s (see [`friction`]). The damper acts on the bristle's mean deflection rate, which the
/// belt's renewal lowers: the contact dissipates c·ż² + λc·z·ż + λk·z² (λ = |v_belt|/ℓ),
/// positive for λc < 4k, so the damping time is held to 2/λ and a short patch at speed stays
/// passive.
pub fn damping_time(config: &FrictionConfig, transport: f64, dt: f64) -> f64 {
    if transport > 0.0 {
        config.stick_damping_time.min(2.0 * dt / transport)
    } else {
        config.stick_damping_time
    }
}

/// How fast a sticking contact's force changes with its slip, N·s/m, in every direction of
/// the contact plane: σ₀·(dt + τ_d)/(1 + transport) for bristle stiffness `stiffness`, with
/// τ_d from [`damping_time`] (the implicit step's friction Jacobian).
pub fn sticking_slope(config: &FrictionConfig, stiffness: f64, transport: f64, dt: f64) -> f64 {
    stiffness * (dt + damping_time(config, transport, dt)) / (1.0 + transport)
}

/// Friction of one contact over a step of `dt` s.
///
/// `stiffness` is the bristle stiffness σ₀, N/m; `normal` the normal force (N ≥ 0); `mu` the
/// friction coefficients `(along the belt, across it)`; `slip` the velocity of the belt
/// surface over the ground `(along τ, lateral)`, m/s; `bristle` the deflection at the start of
/// the step, m; `transport` the share of the contact's belt that the belt's motion renews over
/// the step, |v_belt|·dt / ℓ with ℓ the contact's relaxation length (0: no belt moves through
/// it, see [`relaxation_length`]).
#[allow(clippy::too_many_arguments)]
pub fn friction(
    config: &FrictionConfig,
    stiffness: f64,
    normal: f64,
    mu: Vector2<f64>,
    slip: Vector2<f64>,
    bristle: Vector2<f64>,
    transport: f64,
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
    let damping_time = damping_time(config, transport, dt);
    let c = k * damping_time;
    // Implicit in the transport: z' = (z + slip·dt)/(1 + transport), so a steady slip holds the
    // bristle at slip·ℓ/|v_belt| = slip ratio × ℓ (module docs), for any step. Without renewal
    // (a parked robot, a run, the law switched off) z' = z + slip·dt and ż = slip: no division.
    let (z, rate, renewed) = if transport > 0.0 {
        let renewed = 1.0 / (1.0 + transport);
        let z = (bristle + slip * dt) * renewed;
        (z, (z - bristle) / dt, renewed)
    } else {
        (bristle + slip * dt, slip, 1.0)
    };
    let trial = -(z * k + rate * c);
    // Elliptic friction limit: (Fx/μx N)² + (Fy/μy N)² ≤ 1, tested multiplied through by
    // (μx N · μy N)² so a sticking contact (the common case) costs no division or root.
    let scaled = Vector2::new(trial.x * limit.y, trial.y * limit.x);
    let excess = scaled.norm_squared();
    if excess <= reach * reach {
        FrictionForce {
            force: trial,
            bristle: z,
            sticking: true,
            longitudinal_damping: (k * dt + c) * renewed,
        }
    } else {
        let scale = reach / excess.sqrt();
        // The bristle rests at the deflection that the sliding force stretches it to,
        // −force/k = (z + slip·c/k)·scale with c/k the damping time: no second division.
        FrictionForce {
            force: trial * scale,
            bristle: (z + rate * damping_time) * scale,
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
            0.0,
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
        let a = friction(&cfg, K, 100.0, mu, Vector2::zeros(), z, 0.0, DT);
        let b = friction(&cfg, K, 200.0, mu, Vector2::zeros(), z, 0.0, DT);
        assert!(a.sticking && b.sticking);
        assert_eq!(a.force, b.force);
        let c = friction(&cfg, K, 20.0, mu, Vector2::zeros(), z, 0.0, DT);
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
            0.0,
            DT,
        );
        assert_eq!(tiny.force, Vector2::zeros());
        assert!(!tiny.sticking);
        // A still contact (no slip) whose bristle pulls at 99.9 % and 100.1 % of the limit
        // along the ellipse direction (0.6, 0.8) in units of μN.
        let n = 100.0;
        for (scale, sticks) in [(0.999, true), (1.001, false)] {
            let want = Vector2::new(0.6 * mu.x * n, 0.8 * mu.y * n) * scale;
            let f = friction(&cfg, K, n, mu, Vector2::zeros(), -want / K, 0.0, DT);
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
            0.0,
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
                0.0,
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
                0.0,
                DT,
            );
            z = f.bristle;
            v += (f.force.x - m * g * theta.sin()) / m * DT;
        }
        // After 1 s: v ≈ −g(sinθ − μcosθ)·t (downhill is negative here).
        let expect = -g * (theta.sin() - mu * theta.cos()) * 1.0;
        assert!((v - expect).abs() < 0.05 * expect.abs(), "{v} vs {expect}");
    }

    #[test]
    fn a_wheel_patch_is_half_the_chord_of_its_sinkage() {
        // 0.6 mm into a 35 mm wheel: √(2·0.035·0.0006 − 0.0006²) = 6.45 mm.
        let l = relaxation_length(0.035, 0.0006);
        assert!((l - (0.0006f64 * (0.07 - 0.0006)).sqrt()).abs() < 1e-15);
        assert!((l - 0.006454).abs() < 1e-5, "{l}");
        // Sunk past its centre the chord is the diameter; no depth renews nothing.
        assert_eq!(relaxation_length(0.035, 0.05), 0.035);
        assert_eq!(relaxation_length(0.035, 0.0), f64::INFINITY);
        assert_eq!(relaxation_length(0.035, -1.0), f64::INFINITY);
    }

    /// Under a steady slip a renewed bristle settles at the slip ratio times the relaxation
    /// length, z = slip·ℓ/|v_belt|, and pulls with σ₀·z (its damper idle): the force grows with
    /// the slip ratio, so twice the belt speed at the same slip speed halves it.
    #[test]
    fn a_renewed_bristle_settles_at_the_slip_ratio_times_its_length() {
        let cfg = FrictionConfig::default();
        let (n, mu, ell) = (100.0, Vector2::new(0.8, 0.8), 0.006);
        let slip = Vector2::new(0.002, 0.001);
        let mut pulls = Vec::new();
        for belt in [0.5, 1.0] {
            let transport = belt * DT / ell;
            let mut f = friction(&cfg, K, n, mu, slip, Vector2::zeros(), transport, DT);
            for _ in 0..2000 {
                f = friction(&cfg, K, n, mu, slip, f.bristle, transport, DT);
            }
            let want = slip * ell / belt;
            assert!(f.sticking);
            assert!(
                (f.bristle - want).norm() < 1e-12 * want.norm().max(1.0),
                "{belt}"
            );
            assert!((f.force + want * K).norm() < 1e-9, "{:?}", f.force);
            pulls.push(f.force.norm());
        }
        assert!((pulls[0] / pulls[1] - 2.0).abs() < 1e-9, "{pulls:?}");
        // Without renewal the same slip stretches the bristle without end: it slides.
        let mut f = friction(&cfg, K, n, mu, slip, Vector2::zeros(), 0.0, DT);
        for _ in 0..2000 {
            f = friction(&cfg, K, n, mu, slip, f.bristle, 0.0, DT);
        }
        assert!(!f.sticking && (f.force.norm() - 80.0).abs() < 1e-9);
    }

    /// Renewal off is the law without it, bit for bit (the default until issue 40's
    /// references follow), and a fast slip still slides at the Coulomb limit with it on.
    #[test]
    fn renewal_keeps_the_friction_limit() {
        let cfg = FrictionConfig::default();
        let mu = Vector2::new(0.8, 0.5);
        let slip = Vector2::new(0.3, -0.2);
        let z = Vector2::new(0.0005, -0.0002);
        let f = friction(&cfg, K, 100.0, mu, slip, z, 0.0, DT);
        assert_eq!(f, friction(&cfg, K, 100.0, mu, slip, z, 0.0, DT));
        let g = friction(&cfg, K, 100.0, mu, slip, z, 0.5 * DT / 0.006, DT);
        for h in [f, g] {
            assert!(!h.sticking);
            let on_ellipse = (h.force.x / 80.0).hypot(h.force.y / 50.0);
            assert!((on_ellipse - 1.0).abs() < 1e-12);
        }
    }

    /// A mass on a renewed bristle, released from a deflection, never gains energy and loses
    /// most of it within a second, however short the patch (the damper's time is held to 2/λ):
    /// no belt speed makes the contact a source.
    #[test]
    fn a_renewed_bristle_stays_passive_at_any_belt_speed() {
        let cfg = FrictionConfig::default();
        let (m, n, mu) = (20.0, 1e6, Vector2::new(0.8, 0.8));
        let energy = |v: f64, z: Vector2<f64>| 0.5 * m * v * v + 0.5 * K * z.norm_squared();
        for lambda in [0.0, 10.0, 100.0, 300.0, 1_000.0, 100_000.0] {
            let transport = lambda * DT;
            let (mut v, mut z) = (0.0, Vector2::new(0.001, 0.0));
            let start = energy(v, z);
            let mut most: f64 = 0.0;
            for _ in 0..500 {
                let f = friction(&cfg, K, n, mu, Vector2::new(v, 0.0), z, transport, DT);
                z = f.bristle;
                v += f.force.x / m * DT;
                most = most.max(energy(v, z));
            }
            let end = energy(v, z);
            assert!(most <= 1.05 * start, "λ {lambda}: {most} of {start}");
            assert!(
                end < 0.05 * start,
                "λ {lambda}: {end} of {start} left after 1 s"
            );
        }
    }

    /// The implicit step's sticking slope is the law's own: the central difference of the
    /// force in the slip, along the belt and across it, with and without renewal (a short
    /// patch at speed included, where the damper's time is held).
    #[test]
    fn the_sticking_slope_is_the_laws_derivative() {
        let cfg = FrictionConfig::default();
        let (mu, z) = (Vector2::new(0.8, 0.6), Vector2::new(0.0003, -0.0002));
        for transport in [0.0, 0.1, 0.5, 3.0] {
            let slope = sticking_slope(&cfg, K, transport, DT);
            for axis in [Vector2::x(), Vector2::y()] {
                let h = 1e-6;
                let slip = Vector2::new(0.004, -0.003);
                let at = |s: Vector2<f64>| friction(&cfg, K, 100.0, mu, s, z, transport, DT);
                let (plus, minus) = (at(slip + axis * h), at(slip - axis * h));
                assert!(plus.sticking && minus.sticking, "{transport}");
                let numeric = -(plus.force - minus.force).dot(&axis) / (2.0 * h);
                assert!(
                    (numeric - slope).abs() < 1e-6 * slope,
                    "{transport}: {numeric} vs {slope}"
                );
                if axis == Vector2::x() {
                    assert!((at(slip).longitudinal_damping - slope).abs() < 1e-9 * slope);
                }
            }
        }
    }
}
