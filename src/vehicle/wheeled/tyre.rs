//! The tyre's force in its contact plane: the brush model with a first-order lag, so that
//! one law covers rolling with slip, cornering and standing still on a slope.
//!
//! **Steady state: the brush model** (Pacejka, *Tire and Vehicle Dynamics*, 2nd ed. 2006,
//! §3.2, isotropic tread, equal stiffness both ways). The tread is a row of bristles of shear
//! stiffness `c_p` per metre of contact length ([`TyreSpec::tread_stiffness`](crate::vehicle::spec::TyreSpec::tread_stiffness)) over a patch of
//! half-length `a`. At the theoretical slip `σ` (longitudinal `κ` and `tan α`) the force is
//!
//!   `F = μN·(3λ − 3λ² + λ³)` for `λ = θ|σ| < 1`, else `μN`, with `θ = 2c_p a² / (3μN)`,
//!
//! opposite to the slip: `C = 2c_p a²` is the cornering and the longitudinal slip stiffness.
//! Here `a` is the half-chord of the wheel circle under the terrain (the penetration-area
//! law's contact): as the load grows the patch lengthens and `C` grows as `N^(2/3)` on a flat
//! floor (N ∝ δ^1.5, a² ≈ 2Rδ), less than in proportion — the tyre's load sensitivity, which
//! makes a nose-heavy car understeer.
//!
//! **Transient: a stretched deflection with relaxation length `a`** (Pacejka §7.2's
//! first-order string model): the patch's mean deflection `z` (m, along and across the wheel)
//! obeys `ż = v_s − (|v_x|/a)·z` with `v_s` the tread's sliding velocity over the ground and
//! `v_x` the wheel's rolling speed; the slip is `σ = z/a`. Rolling steadily, `z/a` is the
//! practical slip `v_s/|v_x|`; standing still the deflection is a spring of stiffness
//! `2c_p·a` (the patch's shear stiffness) that holds a parked robot on a slope without creep,
//! with a damper `2c_p·a·τ` on its rate (τ the friction's stick damping time) that damps the
//! parked robot's sway and vanishes in steady rolling. Sliding, the deflection stays at the
//! limit.

use nalgebra::Vector2;

/// The tyre force of one step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TyreForce {
    /// Force on the tyre from the ground, N, `(along the wheel's heading, across it)` in the
    /// contact plane (`y` to the wheel's left).
    pub force: Vector2<f64>,
    /// The contact patch's deflection after the step, m.
    pub deflection: Vector2<f64>,
    /// Whether the whole patch slides (the force is at μN).
    pub sliding: bool,
    /// `∂force.x/∂V`, N·s/m, V the tyre's surface speed: how fast the forward force grows as
    /// the wheel turns faster (0 while sliding). The wheel's motor step uses it to update
    /// the wheel speed implicitly.
    pub longitudinal_damping: f64,
}

/// The contact of one tyre in one step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TyreContact {
    /// Normal force, N (> 0).
    pub normal: f64,
    /// Friction coefficient of the surface.
    pub mu: f64,
    /// Half-length of the contact patch, m (> 0).
    pub half_length: f64,
    /// Velocity of the tread over the ground, m/s, `(along the heading, across it)`:
    /// the wheel centre's velocity less the tyre surface's speed along the heading.
    pub sliding_velocity: Vector2<f64>,
    /// Rolling speed |v_x| of the wheel over the ground, m/s.
    pub rolling_speed: f64,
}

/// The brush model's force magnitude over μN at the slip `lambda = θ|σ|` (< 1).
fn brush(lambda: f64) -> f64 {
    3.0 * lambda - 3.0 * lambda * lambda + lambda * lambda * lambda
}

/// The tyre's force over a step of `dt` s: `tread_stiffness` is c_p (N/m²),
/// `damping_time` τ (s), `deflection` the patch's deflection at the start of the step (m).
pub fn tyre_force(
    contact: &TyreContact,
    tread_stiffness: f64,
    damping_time: f64,
    deflection: Vector2<f64>,
    dt: f64,
) -> TyreForce {
    let TyreContact {
        normal,
        mu,
        half_length: a,
        sliding_velocity,
        rolling_speed,
    } = *contact;
    if normal <= 0.0 || mu <= 0.0 || a <= 0.0 {
        return TyreForce {
            force: Vector2::zeros(),
            deflection: Vector2::zeros(),
            sliding: false,
            longitudinal_damping: 0.0,
        };
    }
    // Implicit in the relaxation term: stable for any rolling speed.
    let relax = 1.0 / (1.0 + rolling_speed.abs() * dt / a);
    let z = (deflection + sliding_velocity * dt) * relax;
    let rate = (z - deflection) / dt;
    // Elastic deflection plus the damper's share, as the slip the brush law sees.
    let k = 2.0 * tread_stiffness * a;
    let equivalent = z + rate * damping_time;
    let cornering = k * a; // C = 2 c_p a²
    let theta = cornering / (3.0 * mu * normal);
    let slip = equivalent / a;
    let lambda = theta * slip.norm();
    if lambda < 1.0 {
        let magnitude = mu * normal * brush(lambda);
        let force = if lambda > 0.0 {
            -slip * (magnitude / slip.norm())
        } else {
            Vector2::zeros()
        };
        // ∂F_x/∂e_x: the brush's tangent k(1 − λ)² along the slip, its secant μN·g/|e|
        // across it; ∂e_x/∂V = −relax·(dt + τ).
        let tangent = k * (1.0 - lambda) * (1.0 - lambda);
        let (secant, along) = if lambda > 0.0 {
            let e = equivalent.norm();
            (magnitude / e, (equivalent.x / e).powi(2))
        } else {
            (k, 1.0)
        };
        let stiffness_x = tangent * along + secant * (1.0 - along);
        TyreForce {
            force,
            deflection: z,
            sliding: false,
            longitudinal_damping: stiffness_x * relax * (dt + damping_time),
        }
    } else {
        let direction = slip / slip.norm();
        // Sliding: the deflection rests at the limit's slip 1/θ.
        TyreForce {
            force: -direction * (mu * normal),
            deflection: direction * (a / theta),
            sliding: true,
            longitudinal_damping: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f64 = 0.002;
    const CP: f64 = 5.0e5;
    const TAU: f64 = 0.02;

    fn contact(v_slide: Vector2<f64>, rolling: f64) -> TyreContact {
        TyreContact {
            normal: 100.0,
            mu: 0.8,
            half_length: 0.025,
            sliding_velocity: v_slide,
            rolling_speed: rolling,
        }
    }

    /// Rolling at 1 m/s with a steady slip angle, the force settles at the brush model's
    /// steady-state value `μN(3λ − 3λ² + λ³)`, λ = θ·tan α (relative error 1e-6).
    #[test]
    fn steady_cornering_force_is_the_brush_models() {
        let theta = 2.0 * CP * 0.025 * 0.025 / (3.0 * 0.8 * 100.0);
        for deg in [0.5f64, 2.0, 5.0] {
            let tan = deg.to_radians().tan();
            let c = contact(Vector2::new(0.0, tan * 1.0), 1.0);
            let mut z = Vector2::zeros();
            let mut f = tyre_force(&c, CP, TAU, z, DT);
            for _ in 0..5000 {
                f = tyre_force(&c, CP, TAU, z, DT);
                z = f.deflection;
            }
            let lambda = theta * tan;
            let want = if lambda < 1.0 {
                80.0 * brush(lambda)
            } else {
                80.0
            };
            assert!(
                (f.force.y + want).abs() < 1e-6 * want,
                "{deg}°: {} vs {want}",
                f.force.y
            );
            assert!(f.force.x.abs() < 1e-12);
        }
    }

    /// Small slip: the cornering stiffness is 2·c_p·a² per radian.
    #[test]
    fn cornering_stiffness_is_two_cp_a_squared() {
        let tan = 1e-4;
        let c = contact(Vector2::new(0.0, tan), 1.0);
        let mut z = Vector2::zeros();
        let mut fy = 0.0;
        for _ in 0..5000 {
            let f = tyre_force(&c, CP, TAU, z, DT);
            z = f.deflection;
            fy = f.force.y;
        }
        let stiffness = -fy / tan;
        let want = 2.0 * CP * 0.025 * 0.025;
        assert!(
            (stiffness - want).abs() < 1e-3 * want,
            "{stiffness} vs {want}"
        );
    }

    /// Beyond the brush's full-slide slip the force is μN against the slip.
    #[test]
    fn large_slip_slides_at_mu_n() {
        let c = contact(Vector2::new(-0.6, 0.8), 0.2);
        let mut z = Vector2::zeros();
        let mut f = tyre_force(&c, CP, TAU, z, DT);
        for _ in 0..200 {
            f = tyre_force(&c, CP, TAU, z, DT);
            z = f.deflection;
        }
        assert!(f.sliding);
        assert!((f.force.norm() - 80.0).abs() < 1e-9);
        assert!((f.force.normalize() + Vector2::new(-0.6, 0.8)).norm() < 1e-9);
    }

    /// A block of 40 kg on four such tyres, parked on a slope 5° below atan μ: the patch
    /// deflection holds it (no creep beyond the deflection itself, no oscillation left).
    #[test]
    fn a_parked_load_below_the_limit_does_not_creep() {
        let (m, g, mu) = (40.0, 9.81, 0.8);
        let slope = f64::atan(mu) - 5f64.to_radians();
        let n = m * g * slope.cos() / 4.0;
        let (mut x, mut v, mut z) = (0.0, 0.0, Vector2::zeros());
        for _ in 0..30_000 {
            let c = TyreContact {
                normal: n,
                mu,
                half_length: 0.02,
                sliding_velocity: Vector2::new(v, 0.0),
                rolling_speed: 0.0,
            };
            let f = tyre_force(&c, CP, TAU, z, DT);
            z = f.deflection;
            v += (4.0 * f.force.x - m * g * slope.sin()) / m * DT;
            x += v * DT;
        }
        assert!(x.abs() < 0.01, "crept {x} m");
        assert!(v.abs() < 1e-9, "still moving at {v} m/s");
    }

    /// The linearisation the wheel's motor uses matches a finite difference in the wheel's
    /// surface speed.
    #[test]
    fn longitudinal_damping_is_the_derivative() {
        let z0 = Vector2::new(0.0004, -0.0002);
        let at = |vs: f64| tyre_force(&contact(Vector2::new(vs, 0.01), 0.5), CP, TAU, z0, DT);
        let (vs, h) = (0.002, 1e-7);
        // V up by h ⇒ the tread slides h slower forward.
        let numeric = (at(vs - h).force.x - at(vs + h).force.x) / (2.0 * h);
        let analytic = at(vs).longitudinal_damping;
        assert!(
            (numeric - analytic).abs() < 0.02 * analytic,
            "{numeric} vs {analytic}"
        );
    }
}
