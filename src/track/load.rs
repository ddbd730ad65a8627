//! The load one support element (a wheel or a run of a track plane) takes from the terrain,
//! how loads combine across a belt's width, and the damping law that turns the elastic load
//! into the normal force.

use nalgebra::{Point2, Vector2};

/// The elastic load one support element takes from the terrain, plane frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementLoad {
    /// Sum of the segments' forces `κ·S·n`, N (vector, plane `(x, z)`): the in-plane part.
    pub force: Vector2<f64>,
    /// Sum of the forces' components along the plane's normal, N: the push of faces oblique
    /// to the plane (a wall met at an angle) across the belt.
    pub lateral: f64,
    /// Sum of the force magnitudes `Σ κ·S`, N (≥ |force|; friction capacity uses it).
    pub magnitude: f64,
    /// Load-weighted point of application on the terrain, plane `(x, z)`, m.
    pub point: Point2<f64>,
    /// Load-weighted friction coefficient of the surfaces touched.
    pub friction: f64,
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
            magnitude: 0.0,
            point: Point2::origin(),
            friction: 0.0,
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
    /// part along the plane normal) at `p`.
    pub(crate) fn add(
        &mut self,
        f: f64,
        n: Vector2<f64>,
        lateral: f64,
        p: Point2<f64>,
        mu: f64,
        depth: f64,
    ) {
        self.force += n * f;
        self.lateral += lateral * f;
        self.point.coords += p.coords * f;
        self.friction += mu * f;
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
            magnitude,
            point: Point2::new(mean(a.point.x, b.point.x), mean(a.point.y, b.point.y)),
            friction: mean(a.friction, b.friction),
            depth: a.depth * wa + b.depth * wb,
            energy: a.energy * wa + b.energy * wb,
            stiffness: a.stiffness * wa + b.stiffness * wb,
        }
    }

    pub(crate) fn finish(&mut self) {
        if self.magnitude > 0.0 {
            self.point.coords /= self.magnitude;
            self.friction /= self.magnitude;
        }
    }
}

/// The factor by which a contact's damping scales its elastic force: the normal force is
/// `load.magnitude · normal_damping_factor(..)`, never negative (a contact does not pull).
///
/// `beta` is the Hunt–Crossley damping β, s/m; `relaxation_time` the Kelvin–Voigt time τ of
/// the belt's rubber, s; `rate` the penetration rate δ̇ (> 0 pressing in), m/s. With F = κ·S
/// the elastic force and k = κ·dS/dδ its tangent stiffness (`load.stiffness`), the force is
///
/// F·(1 + β·δ̇) + τ·k·δ̇.
///
/// The elastic law F = κ·S is a Winkler bed (force per penetrated area of the plane). If that
/// bed is Kelvin–Voigt rubber, pressure κ·(u + τ·u̇) at each point, its viscous force is
/// κ·τ·dS/dt = τ·k·δ̇: proportional to the contact's stiffness, so it damps every contact
/// vibration at ζ = ω·τ/2 whatever the load. The Hunt–Crossley term, proportional to the
/// load, fades as a contact unloads: a lightly loaded contact (the uphill track on a cross
/// slope) keeps almost none of it, and one landing again after lifting off is nearly elastic
/// at low speed.
pub fn normal_damping_factor(
    load: &ElementLoad,
    beta: f64,
    relaxation_time: f64,
    rate: f64,
) -> f64 {
    let viscous = if load.magnitude > 0.0 {
        relaxation_time * load.stiffness / load.magnitude
    } else {
        0.0
    };
    (1.0 + (beta + viscous) * rate).max(0.0)
}
