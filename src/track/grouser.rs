//! Grouser interlock: how the transverse bars moulded on a belt (grousers) hook a convex
//! terrain edge — a stair nosing, a curb's edge — and hold the belt harder than friction on
//! a flat surface would.
//!
//! The law is geometric. Where the belt lies over a convex edge, the edge presses into the
//! gap between two grousers; when the belt is pulled along, a grouser's tip bears on the
//! terrain's profile beside the edge. The contact there is inclined to the belt: its normal
//! makes the *bearing angle* φ with the belt's normal. A surface inclined at φ under a
//! friction coefficient μ holds a tangential load up to `N·tan(φ + atan μ)` (a wedge with
//! friction: Coulomb's friction cone tilted by φ), so the belt's longitudinal friction
//! coefficient at the edge is
//!
//! μ_edge = tan(min(φ + atan μ, [`SELF_LOCKING`])), never less than μ.
//!
//! φ comes from the edge's shape and the grousers' height `h` and pitch `p`:
//! - **A sharp edge** (radius 0): the grouser tips rest on the faces that meet at the edge, so
//!   φ is the angle by which a face falls away from the belt. Of the two faces the smaller
//!   angle counts (the belt may slide either way, and the law keeps no direction state): on a
//!   flight of stairs at θ with the belt along the nosing line, the tread falls away by θ and
//!   the riser by 90° − θ, so φ = min(θ, 90° − θ).
//! - **A rounded edge** of radius ρ: the edge is a cylinder that sinks into the gap until it
//!   rests on two grouser tips half a pitch from its apex, or until it bottoms at the
//!   grousers' height; the tips bear on it at `x* = min(p/2, √(2ρh − h²))` from the apex
//!   (`x* = ρ` once h ≥ ρ), where its surface is inclined by `asin(x*/ρ)`. The arc only spans
//!   the turn of the corner, so φ = min(asin(min(1, x*/ρ)), face angle). A large radius
//!   (a worn or bull-nosed step, a pipe) hooks little; a radius below the grouser height and
//!   half the pitch is as good as sharp.
//! - **A flat surface** (no convex vertex, or the joint of collinear pieces): φ = 0, μ_edge = μ.
//! - **A smooth belt** (`h = 0` or `p = 0`): no interlock anywhere.
//!
//! Grousers are transverse bars, so the interlock acts along the belt only; sliding across it
//! (skid steering) keeps the surface's μ. The edge's radius is a property of the surface
//! (`edge_radius` of a scene's material: meshes model corners sharp, the material says how
//! worn or rounded they are). Sources: the wedge-with-friction relation is textbook statics
//! (Meriam & Kraige, *Engineering Mechanics: Statics*, wedges); the engagement of a cylinder
//! between two supports half a pitch apart is the chord sagitta; building codes bound the
//! radius of a stair nosing's leading edge to 9/16 in = 14.3 mm (IBC 1011.5.5.1). See
//! `scenes/robots/README.md` for each preset's grousers.

use nalgebra::Vector2;

/// Bearing plus friction angle beyond which an interlock is self-locking (rad, 80°): no
/// tangential load the belt can carry slides it past the edge; the hold is capped here
/// (μ_edge = tan 80° = 5.7) so the friction cone stays finite. Only a grouser's strength
/// would limit it further, and rubber grousers (a few MPa in shear over a bar several
/// millimetres thick across the belt) carry hundreds of newtons per bar, more than these
/// robots put on one edge.
pub const SELF_LOCKING: f64 = 80.0 * std::f64::consts::PI / 180.0;

/// A belt's grousers, m; zeros for a smooth belt.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Grousers {
    /// Height of a grouser bar above the belt's base, m.
    pub height: f64,
    /// Distance between neighbouring grouser bars along the belt, m.
    pub pitch: f64,
}

impl Grousers {
    /// Whether the belt has grousers at all.
    pub fn hook(&self) -> bool {
        self.height > 0.0 && self.pitch > 0.0
    }

    /// sin φ of the bearing angle φ of these grousers on a convex edge of radius
    /// `edge_radius` (m, 0 = sharp) whose faces fall away from the belt by at least the angle
    /// whose sine is `face_sine`; see the module docs. The law in sines: every angle in it is
    /// an `asin` and only compared or fed to a tangent, so the contact loop needs no trigonometry.
    pub fn bearing_sine(&self, edge_radius: f64, face_sine: f64) -> f64 {
        if !self.hook() {
            return 0.0;
        }
        let face_sine = face_sine.clamp(0.0, 1.0);
        if edge_radius <= 0.0 {
            return face_sine;
        }
        let (h, rho) = (self.height, edge_radius);
        let bottoming = if h >= rho {
            rho
        } else {
            (2.0 * rho * h - h * h).sqrt()
        };
        let reach = (0.5 * self.pitch).min(bottoming);
        (reach / rho).min(1.0).min(face_sine)
    }

    /// The bearing angle φ (rad, in [0, π/2]) on an edge of radius `edge_radius` (m) whose
    /// faces fall away from the belt by at least `face_angle` (rad):
    /// [`Grousers::bearing_sine`] as an angle.
    pub fn bearing_angle(&self, edge_radius: f64, face_angle: f64) -> f64 {
        let face_angle = face_angle.clamp(0.0, std::f64::consts::FRAC_PI_2);
        self.bearing_sine(edge_radius, face_angle.sin()).asin()
    }

    /// sin φ of the bearing on a convex edge whose faces leave it along the unit directions
    /// `faces`, for the belt's unit normal `toward_belt` there ([`face_sine`],
    /// [`Grousers::bearing_sine`]).
    pub fn bearing_on(
        &self,
        faces: (Vector2<f64>, Vector2<f64>),
        toward_belt: Vector2<f64>,
        edge_radius: f64,
    ) -> f64 {
        self.bearing_sine(edge_radius, face_sine(faces.0, faces.1, toward_belt))
    }
}

/// sin, cos and tan of [`SELF_LOCKING`] (80°).
const SIN_SELF_LOCKING: f64 = 0.984_807_753_012_208;
const COS_SELF_LOCKING: f64 = 0.173_648_177_666_930_35;
const TAN_SELF_LOCKING: f64 = 5.671_281_819_617_709;

/// The longitudinal friction coefficient of a belt held by an edge at bearing angle
/// `bearing` (rad) on a surface of friction coefficient `mu`: tan(min(φ + atan μ,
/// [`SELF_LOCKING`])), and never less than μ (dimensionless).
pub fn interlock_friction(mu: f64, bearing: f64) -> f64 {
    if bearing <= 0.0 {
        return mu;
    }
    interlock_friction_sine(mu, bearing.min(std::f64::consts::FRAC_PI_2).sin())
}

/// [`interlock_friction`] for a bearing given by its sine `bearing_sine` (from
/// [`Grousers::bearing_on`]): with s = sin φ and c = cos φ = √(1 − s²), tan(φ + atan μ) =
/// (s + μc)/(c − μs) below the cap, which φ + atan μ reaches where sin φ = sin(80° − atan μ) =
/// (sin 80° − μ·cos 80°)/√(1 + μ²), compared squared. One root and one division: the contact
/// loop asks this of every wheel and run at a hooked edge.
pub fn interlock_friction_sine(mu: f64, bearing_sine: f64) -> f64 {
    if bearing_sine <= 0.0 {
        return mu;
    }
    let s = bearing_sine.min(1.0);
    // sin(80° − atan μ)·√(1 + μ²); not positive for μ ≥ tan 80°, whose cap φ = 0 any bearing
    // reaches.
    let edge = SIN_SELF_LOCKING - mu * COS_SELF_LOCKING;
    if edge <= 0.0 || s * s * (1.0 + mu * mu) >= edge * edge {
        return TAN_SELF_LOCKING.max(mu);
    }
    let c = (1.0 - s * s).sqrt();
    // Below the cap φ + atan μ < 80°, so c − μs = cos(φ + atan μ)·√(1 + μ²) > 0.
    ((s + mu * c) / (c - mu * s)).max(mu)
}

/// The sine of the smaller of the angles (in [0, π/2]) by which the two faces leaving a
/// convex vertex fall away from the belt, for faces along the unit directions `face_a` and
/// `face_b` pointing away from the vertex and the belt's unit normal `toward_belt` at the
/// vertex (pointing out of the terrain into the belt). A face that rises towards the belt
/// lies along it (angle 0): the belt rests on it and its grousers slide along it.
pub fn face_sine(face_a: Vector2<f64>, face_b: Vector2<f64>, toward_belt: Vector2<f64>) -> f64 {
    let fall = |f: Vector2<f64>| (-f.dot(&toward_belt)).clamp(0.0, 1.0);
    fall(face_a).min(fall(face_b))
}

/// [`face_sine`] as an angle, rad.
pub fn face_angle(face_a: Vector2<f64>, face_b: Vector2<f64>, toward_belt: Vector2<f64>) -> f64 {
    face_sine(face_a, face_b, toward_belt).asin()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEG: f64 = std::f64::consts::PI / 180.0;
    /// The scout's grousers (scenes/robots/scout.toml).
    const SCOUT: Grousers = Grousers {
        height: 0.008,
        pitch: 0.04,
    };

    /// A flight at θ with the belt along its nosing line: tread falls away by θ, riser by
    /// 90° − θ; the smaller counts.
    #[test]
    fn a_sharp_nosing_bears_on_the_face_that_falls_away_least() {
        for theta_deg in [20.0f64, 32.7, 37.7, 45.0, 55.0] {
            let theta = theta_deg * DEG;
            // Belt up the flight: direction (cos θ, sin θ), normal into the belt (−sin θ, cos θ).
            let n = Vector2::new(-theta.sin(), theta.cos());
            let tread = Vector2::new(1.0, 0.0); // from the nosing back along the tread
            let riser = Vector2::new(0.0, -1.0); // from the nosing down the riser
            let phi = face_angle(tread, riser, n);
            let expect = theta.min(90.0 * DEG - theta);
            assert!((phi - expect).abs() < 1e-12, "{theta_deg}°: {}", phi / DEG);
            assert!((SCOUT.bearing_angle(0.0, phi) - expect).abs() < 1e-12);
        }
    }

    /// On 45° steel (μ 0.55) a sharp nosing holds tan(45° + 28.8°) = 3.44 along the belt;
    /// plywood (μ 0.8) on a 20° edge: tan(20° + 38.66°) = 1.642.
    #[test]
    fn interlock_is_a_wedge_with_friction() {
        let steel = interlock_friction(0.55, 45.0 * DEG);
        assert!((steel - (45.0 * DEG + 0.55f64.atan()).tan()).abs() < 1e-12);
        assert!((steel - 3.444).abs() < 0.001, "{steel}");
        assert!((interlock_friction(0.8, 20.0 * DEG) - 1.642).abs() < 0.001);
        // Flat: the surface's μ; self-locking capped at tan 80°.
        assert_eq!(interlock_friction(0.8, 0.0), 0.8);
        assert!((interlock_friction(0.8, 70.0 * DEG) - (80.0 * DEG).tan()).abs() < 1e-12);
        // The surface still matters: more μ, more hold, at any bearing below the cap.
        for phi in [5.0, 15.0, 30.0] {
            assert!(interlock_friction(0.8, phi * DEG) > interlock_friction(0.5, phi * DEG));
        }
    }

    /// A rounded edge hooks by the inclination of its arc where the grouser tips touch it.
    #[test]
    fn a_rounded_edge_hooks_by_its_arc() {
        let square = 45.0 * DEG;
        // ρ = 14.3 mm (the code's largest nosing radius): the tips bottom at 8 mm,
        // x* = √(2·14.3·8 − 64) = 12.8 mm < p/2 = 20 mm → asin(12.8/14.3) = 63.9°, so the
        // square corner's 45° faces still count.
        assert!((SCOUT.bearing_angle(0.0143, square) - square).abs() < 1e-12);
        let x: f64 = (2.0 * 0.0143 * 0.008 - 0.008f64 * 0.008).sqrt();
        assert!(((x / 0.0143).asin() / DEG - 63.9).abs() < 0.1);
        // ρ = 0.1 m (a pipe, a bull-nosed step): tips half a pitch from the apex,
        // asin(0.02/0.1) = 11.5°.
        let pipe = SCOUT.bearing_angle(0.1, square);
        assert!((pipe - (0.2f64).asin()).abs() < 1e-12, "{}", pipe / DEG);
        // Below the grouser height and half the pitch a radius is as good as sharp.
        assert!((SCOUT.bearing_angle(0.005, square) - square).abs() < 1e-12);
        // Larger radius, less hook; taller grousers, more hook (up to the face angle).
        let mut last = f64::INFINITY;
        for rho in [0.01, 0.02, 0.05, 0.1, 0.3, 1.0] {
            let phi = SCOUT.bearing_angle(rho, square);
            assert!(phi <= last, "ρ {rho}");
            last = phi;
        }
        // Where the grousers' height limits the engagement (a wide pitch, 80 mm), taller
        // grousers hook more: h 8 mm reaches √(2·50·8 − 64) = 27 mm from the apex of a 50 mm
        // edge, h 20 mm the whole half pitch, 40 mm. Where the pitch limits it (40 mm),
        // height adds nothing.
        let wide = Grousers {
            pitch: 0.08,
            ..SCOUT
        };
        let tall = Grousers {
            height: 0.02,
            ..wide
        };
        let open = std::f64::consts::FRAC_PI_2;
        assert!((wide.bearing_angle(0.05, open) - (0.000736f64.sqrt() / 0.05).asin()).abs() < 1e-9);
        assert!((tall.bearing_angle(0.05, open) - 0.8f64.asin()).abs() < 1e-12);
        let tall_fine = Grousers {
            height: 0.02,
            ..SCOUT
        };
        assert_eq!(
            tall_fine.bearing_angle(0.05, square),
            SCOUT.bearing_angle(0.05, square)
        );
    }

    /// The constants are the functions of 80°, and the law in sines is the law in angles.
    #[test]
    fn interlock_in_sines_equals_the_angle_law() {
        assert!((SIN_SELF_LOCKING - SELF_LOCKING.sin()).abs() < 1e-15);
        assert!((COS_SELF_LOCKING - SELF_LOCKING.cos()).abs() < 1e-15);
        assert!((TAN_SELF_LOCKING - SELF_LOCKING.tan()).abs() < 1e-13);
        for mu in [0.0, 0.3, 0.55, 0.8, 1.2, 6.0] {
            for k in 0..=90 {
                let phi = k as f64 * DEG;
                let angle_law = if phi <= 0.0 {
                    mu
                } else {
                    (phi + f64::atan(mu)).min(SELF_LOCKING).tan().max(mu)
                };
                let sines = interlock_friction(mu, phi);
                assert!(
                    (sines - angle_law).abs() <= 1e-9 * angle_law.max(1.0),
                    "μ {mu}, φ {k}°: {sines} vs {angle_law}"
                );
            }
        }
    }

    #[test]
    fn a_smooth_belt_does_not_hook() {
        assert_eq!(Grousers::default().bearing_angle(0.0, 1.0), 0.0);
        let no_pitch = Grousers {
            height: 0.01,
            pitch: 0.0,
        };
        assert_eq!(no_pitch.bearing_angle(0.0, 1.0), 0.0);
    }

    /// A face rising towards the belt (the belt rests on it) falls away by nothing.
    #[test]
    fn a_face_the_belt_rests_on_does_not_hook() {
        let n = Vector2::new(0.0, 1.0);
        let flat = Vector2::new(1.0, 0.0);
        let riser = Vector2::new(0.0, -1.0);
        assert_eq!(face_angle(flat, riser, n), 0.0);
        let up = Vector2::new(0.6, 0.8);
        assert_eq!(face_angle(up, riser, n), 0.0);
    }
}
