//! The load one support element (a wheel or a run of a track plane) takes from the terrain,
//! how loads combine across a belt's width, and the damping law that turns the elastic load
//! into the normal force.

use nalgebra::{Point2, Vector2};

/// The friction coefficients of one terrain contact (dimensionless).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactFriction {
    /// The surface's μ (across the belt, and along it on a flat face).
    pub surface: f64,
    /// The hold along the belt: μ, or more where grousers hook a convex edge.
    pub along: f64,
}

impl ContactFriction {
    /// A flat surface of friction coefficient `mu`: the same along and across the belt.
    pub fn flat(mu: f64) -> Self {
        Self {
            surface: mu,
            along: mu,
        }
    }
}

/// The elastic load one support element takes from the terrain, plane frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementLoad {
    /// Sum of the segments' forces `κ·S·n`, N (vector, plane `(x, z)`): the in-plane part.
    pub force: Vector2<f64>,
    /// Sum of the forces' components along the plane's normal, N: the push of faces oblique
    /// to the plane (a wall met at an angle) across the belt.
    pub lateral: f64,
    /// Sum of the forces' magnitudes times the across-slope of their faces, `Σ κ·S·g`, N:
    /// `g = dδ/dy` is how fast the penetration grows per metre along the plane's normal (a
    /// face tilted across the belt: `CutSegment::across_slope`, −lateral of its unit normal,
    /// faded out for side faces), so
    /// `slope / magnitude` is the load's mean across-slope (see
    /// `vehicle::tracked::strip::slope_shift`, which puts the load where it lies across the
    /// strip the plane stands for).
    pub slope: f64,
    /// Sum of the force magnitudes `Σ κ·S`, N (≥ |force|; friction capacity uses it).
    pub magnitude: f64,
    /// Load-weighted point of application on the terrain, plane `(x, z)`, m.
    pub point: Point2<f64>,
    /// Load-weighted friction coefficient of the surfaces touched (across the belt, and
    /// along it where no grouser hooks an edge).
    pub friction: f64,
    /// Load-weighted friction coefficient along the belt: the surface's μ, or the grouser
    /// interlock's hold where the contact is at a convex edge (`track::grouser`).
    pub grip: f64,
    /// Largest penetration depth of any contributing segment, m.
    pub depth: f64,
    /// Elastic energy stored in the contact, J (∫ F dδ of the force law).
    pub energy: f64,
    /// Tangent stiffness of the contact, `Σ κ·dS/dδ`, N/m: how fast `magnitude` grows per
    /// metre of further penetration (sets the rubber's viscous force, see
    /// [`normal_damping_factor`]).
    pub stiffness: f64,
}

impl Default for ElementLoad {
    fn default() -> Self {
        Self {
            force: Vector2::zeros(),
            lateral: 0.0,
            slope: 0.0,
            magnitude: 0.0,
            point: Point2::origin(),
            friction: 0.0,
            grip: 0.0,
            depth: 0.0,
            energy: 0.0,
            stiffness: 0.0,
        }
    }
}

impl ElementLoad {
    /// Whether the element touches the terrain.
    pub fn is_active(&self) -> bool {
        self.magnitude > 0.0
    }

    /// Adds a force of magnitude `f` along the unit direction `(n, lateral)` (in-plane part,
    /// part along the plane normal) at `p`, with the surface's friction coefficient
    /// `mu.surface` and the hold along the belt `mu.along`.
    pub(crate) fn add(
        &mut self,
        f: f64,
        n: Vector2<f64>,
        lateral: f64,
        p: Point2<f64>,
        mu: ContactFriction,
        depth: f64,
    ) {
        self.force += n * f;
        self.lateral += lateral * f;
        self.point.coords += p.coords * f;
        self.friction += mu.surface * f;
        self.grip += mu.along * f;
        self.magnitude += f;
        self.depth = self.depth.max(depth);
    }

    /// The load `wa·a + wb·b` (weights ≥ 0): forces, magnitudes, depths, energies and
    /// stiffnesses add with their weights; point and friction stay load-weighted means. Used
    /// where one track plane stands for a strip of belt that is partly over one terrain
    /// profile and partly over another.
    pub fn blend(a: &ElementLoad, wa: f64, b: &ElementLoad, wb: f64) -> ElementLoad {
        let (ma, mb) = (a.magnitude * wa, b.magnitude * wb);
        let magnitude = ma + mb;
        let mean = |x: f64, y: f64| {
            if magnitude > 0.0 {
                (x * ma + y * mb) / magnitude
            } else {
                0.0
            }
        };
        ElementLoad {
            force: a.force * wa + b.force * wb,
            lateral: a.lateral * wa + b.lateral * wb,
            slope: a.slope * wa + b.slope * wb,
            magnitude,
            point: Point2::new(mean(a.point.x, b.point.x), mean(a.point.y, b.point.y)),
            friction: mean(a.friction, b.friction),
            grip: mean(a.grip, b.grip),
            depth: a.depth * wa + b.depth * wb,
            energy: a.energy * wa + b.energy * wb,
            stiffness: a.stiffness * wa + b.stiffness * wb,
        }
    }

    pub(crate) fn finish(&mut self) {
        if self.magnitude > 0.0 {
            self.point.coords /= self.magnitude;
            self.friction /= self.magnitude;
            self.grip /= self.magnitude;
        }
    }
}

/// The damping of one contact's normal force: the normal force is the elastic force F =
/// `load.magnitude` times [`NormalDamping::factor`], never negative (a contact does not pull).
///
/// With F = κ·S the elastic force and k = κ·dS/dδ its tangent stiffness (`load.stiffness`),
/// the force is
///
/// F·(1 + β·δ̇) + τ·k·δ̇,
///
/// β the Hunt–Crossley damping, s/m, τ the Kelvin–Voigt relaxation time of the belt's rubber,
/// s, and δ̇ the penetration rate (> 0 pressing in), m/s.
///
/// The elastic law F = κ·S is a Winkler bed (force per penetrated area of the plane). If that
/// bed is Kelvin–Voigt rubber, pressure κ·(u + τ·u̇) at each point, its viscous force is
/// κ·τ·dS/dt = τ·k·δ̇: proportional to the contact's stiffness, so it damps every contact
/// vibration at ζ = ω·τ/2 whatever the load. The Hunt–Crossley term, proportional to the
/// load, fades as a contact unloads: a lightly loaded contact (the uphill track on a cross
/// slope) keeps almost none of it, and one landing again after lifting off is nearly elastic
/// at low speed.
///
/// The damping coefficient c = β·F + τ·k (N·s/m) is capped at a `max_damping`: an explicit
/// step integrates a damper stably only while c·dt is below twice the mass it pushes, and
/// β·F grows with the load — a flipper pressed deep into a corner carries thousands of
/// newtons, c of ~10⁴ N·s/m, on a few kilograms of effective mass, and the step would
/// alternate between pushing and letting go with growing amplitude. In ordinary contacts c
/// is far below the cap and the factor is exactly as without it. The robot may scale the
/// damping of all its contacts down further (`vehicle::body::hull_damping_scale`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalDamping {
    /// c/F after the cap: the damping coefficient per newton of elastic force, s/m.
    pub per_load: f64,
    /// (c/F)·δ̇: the damping's force per newton of elastic force, dimensionless.
    pub term: f64,
}

impl NormalDamping {
    /// The damping of a contact carrying `load` and pressed in at `rate` m/s, with
    /// Hunt–Crossley `beta` (s/m), Kelvin–Voigt `relaxation_time` (s) and its coefficient
    /// capped at `max_damping` N·s/m.
    pub fn new(
        load: &ElementLoad,
        beta: f64,
        relaxation_time: f64,
        rate: f64,
        max_damping: f64,
    ) -> Self {
        let viscous = if load.magnitude > 0.0 {
            relaxation_time * load.stiffness / load.magnitude
        } else {
            0.0
        };
        let mut per_load = beta + viscous;
        if load.magnitude > 0.0 && per_load * load.magnitude > max_damping {
            per_load = max_damping.max(0.0) / load.magnitude;
        }
        Self {
            per_load,
            term: per_load * rate,
        }
    }

    /// The factor by which the damping, scaled by `scale` (1: as it is), multiplies the
    /// elastic force; never negative.
    #[inline]
    pub fn factor(&self, scale: f64) -> f64 {
        (1.0 + scale * self.term).max(0.0)
    }
}

/// The factor by which a contact's damping scales its elastic force ([`NormalDamping`]
/// unscaled): the normal force is `load.magnitude · normal_damping_factor(..)`.
pub fn normal_damping_factor(
    load: &ElementLoad,
    beta: f64,
    relaxation_time: f64,
    rate: f64,
    max_damping: f64,
) -> f64 {
    NormalDamping::new(load, beta, relaxation_time, rate, max_damping).factor(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Peak |velocity| over the last second of a 6 kg effective mass on a contact carrying
    /// 2600 N with a tangent stiffness of 1.4e5 N/m (the flipper pinched in the hurdle corner
    /// that blew up under `treadsim soak`), β = 4 s/m, τ = 2 ms, stepped explicitly at 2 ms
    /// from a 0.1 m/s disturbance, its damping capped at `max_damping`.
    fn ringing(max_damping: f64) -> f64 {
        let (m, dt, k, f0) = (6.0, 0.002, 1.4e5, 2600.0);
        let (mut x, mut v) = (0.0_f64, 0.1_f64); // x: extra penetration, m
        let mut peak = 0.0_f64;
        for step in 0..1000 {
            let load = ElementLoad {
                magnitude: (f0 + k * x).max(0.0),
                stiffness: k,
                ..Default::default()
            };
            let force = load.magnitude * normal_damping_factor(&load, 4.0, 0.002, v, max_damping);
            // The contact pushes back against penetration; f0 balances the rest.
            let a = (f0 - force) / m;
            v += a * dt;
            x += v * dt;
            if !v.is_finite() {
                return f64::INFINITY;
            }
            if step >= 500 {
                peak = peak.max(v.abs());
            }
        }
        peak
    }

    /// Without the cap the damper's c = β·F + τ·k ≈ 10 700 N·s/m gives c·dt/m ≈ 3.6, past
    /// the explicit limit of 2: the disturbance grows ninefold into a limit cycle in which the
    /// contact lets go every other step (the force never pulls, which bounds it here; in the
    /// robot the body's rotation took it on to a blow-up). Capped at c·dt/m = 0.5 (what the
    /// track model passes) it dies away.
    #[test]
    fn capped_damping_keeps_a_deep_contact_on_a_light_mass_stable() {
        let uncapped = ringing(f64::INFINITY);
        assert!(uncapped > 0.5, "uncapped peak {uncapped} m/s");
        let capped = ringing(0.5 * 6.0 / 0.002);
        assert!(capped < 1e-3, "capped peak {capped} m/s");
    }

    /// Below the cap the factor is exactly the uncapped one.
    #[test]
    fn below_the_cap_nothing_changes() {
        let load = ElementLoad {
            magnitude: 20.0,
            stiffness: 1.2e4,
            ..Default::default()
        };
        for rate in [-0.3, 0.0, 0.05, 0.4] {
            assert_eq!(
                normal_damping_factor(&load, 4.0, 0.002, rate, f64::INFINITY).to_bits(),
                normal_damping_factor(&load, 4.0, 0.002, rate, 1500.0).to_bits()
            );
        }
    }
}
