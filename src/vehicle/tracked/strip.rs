//! Side contact: a track plane stands for a strip of its belt, and where a steep terrain face
//! (a curb's side, a wall, a stair's side wall, a rock's flank) crosses that strip, the strip
//! is split at the face.
//!
//! Why: a plane cut samples the terrain at one lateral position, so a plane sliding sideways
//! across a curb's side face would see the curb appear under every wheel at once — a force
//! step of the whole curb height (seen: 100 N → 6 kN for the 20 kg robot, 2.5 MN for the
//! 250 kg one). A real belt moves onto the curb across its width: the part of the belt over
//! the curb carries the curb, the rest carries the ground.
//!
//! How: each plane at lateral position `y` stands for the strip `y ± h` of its belt
//! (`h = width / 2·planes`). When the candidate triangles of the belt include a side face
//! (|n · plane normal| ≥ [`SIDE_FACE_MIN_COS`]) inside the strip, the terrain is also cut at
//! the strip's two edges `y − h` and `y + h`. For each support element whose two edge loads
//! differ, a lateral ray from inside the more loaded edge's penetration (half its depth into
//! the terrain) towards the other edge finds the face at distance `s`; the strip is then a
//! fraction `f = s / 2h` over the loaded profile and `1 − f` over the other, and the element
//! carries `f·L_in + (1 − f)·L_out`, applied at the load-weighted lateral centroid of the two
//! parts. As the face sweeps across the strip `f` runs continuously from 0 to 1, so the load
//! phases in with how far the belt has moved over the obstacle. Faces between 45° and 60° from
//! the plane blend smoothly from the centre cut (continuous for them anyway: their profile
//! moves at most `tan θ` times the lateral speed) to the split.
//!
//! Limits: one face per element (the nearest to the loaded edge) — a strip crossed by two
//! parallel faces (a rail narrower than the strip) takes the nearer; the split is per element,
//! so a face that crosses the strip obliquely is resolved at each wheel's own position along
//! the belt; where the ray finds no face (the loaded edge's penetration is not over the face,
//! e.g. a face that ends within the wheel's contact patch) the centre cut is kept. The
//! split gives no force across the plane: a belt pressed sideways against a wall, or against a
//! curb higher than its support radius, is stopped by its side guard ([`super::guard`], a
//! collider on the hull in `sim`), not by these loads.
//!
//! Within its strip a plane's load also lies where the penetration is deepest
//! ([`slope_shift`]): on ground tilted across the belt (a robot rolled on a tilt table, a
//! camber) the strip's downhill half presses harder than its uphill half, so the load's
//! centroid moves off the plane's centre line towards the belt's lower edge. Without it a belt
//! of `n` planes stood on `n` lines: it had only `1 − 1/n²` of a continuous belt's roll
//! stiffness `k·w²/12` and no support outboard of its outermost plane, and a robot resting
//! on one belt rolled off it early (the scout on the tilt table: the last 2° before its
//! support-polygon limit).

use nalgebra::Vector3;

use crate::terrain::{CutPlane, Terrain, SIDE_FACE_MIN_COS};
use crate::track::load::ElementLoad;

/// The cosine from which a side face is split exactly (faces steeper than 60° from the plane);
/// between [`SIDE_FACE_MIN_COS`] and this the split blends in.
const SPLIT_FULL_COS: f64 = 0.87;

/// Where one support element's load comes from across its strip.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StripLoads<'a> {
    /// Load from the cut through the strip's centre line.
    pub centre: &'a ElementLoad,
    /// Load from the cut at the strip's edge `y − h`.
    pub low: &'a ElementLoad,
    /// Load from the cut at the strip's edge `y + h`.
    pub high: &'a ElementLoad,
    /// Whether the element is a wheel (its penetration lies behind its contact point) rather
    /// than a run (its penetration lies inside the belt, ahead of the run line).
    pub wheel: bool,
}

/// The element's load over the strip split by the nearest side face in `faces`, and the
/// lateral offset of its point of application from the plane's centre line (m, along the
/// plane normal); `None` keeps the centre cut's load (no face splits the strip at this
/// element). `low` is the plane of the strip's `y − h` edge; `half` is `h`, m.
pub(crate) fn split_load(
    loads: StripLoads<'_>,
    terrain: &Terrain,
    faces: &[u32],
    low: &CutPlane,
    half: f64,
) -> Option<(ElementLoad, f64)> {
    let (lo, hi) = (loads.low, loads.high);
    if !lo.is_active() && !hi.is_active() {
        return None;
    }
    if lo == hi {
        return None;
    }
    // `sign` = +1 when the loaded side is the high edge.
    let (inner, outer, sign) = if hi.magnitude >= lo.magnitude {
        (hi, lo, 1.0)
    } else {
        (lo, hi, -1.0)
    };
    let fnorm = inner.force.norm();
    if fnorm <= 0.0 {
        return None;
    }
    let n2 = inner.force / fnorm;
    // A point inside the loaded edge's penetration (inside the terrain solid there).
    let into = if loads.wheel { -n2 } else { n2 };
    let q = inner.point + into * (0.5 * inner.depth);
    let normal: Vector3<f64> = low.normal();
    let width = 2.0 * half;
    let inner_plane = if sign > 0.0 { low.shifted(width) } else { *low };
    let origin = inner_plane.to_world(&q);
    let crossing = terrain.lateral_crossing(faces, &origin, &(-normal * sign), width)?;
    let f_in = (crossing.distance / width).clamp(0.0, 1.0);
    let inner = push_out(inner, &crossing.normal, low, f_in * width);
    let split = ElementLoad::blend(&inner, f_in, outer, 1.0 - f_in);
    // Lateral centroids of the two parts, from the plane's centre line.
    let (c_in, c_out) = (sign * half * (1.0 - f_in), -sign * half * f_in);
    let (m_in, m_out) = (inner.magnitude * f_in, outer.magnitude * (1.0 - f_in));
    let split_offset = if m_in + m_out > 0.0 {
        (m_in * c_in + m_out * c_out) / (m_in + m_out)
    } else {
        0.0
    };
    let t =
        ((crossing.cos - SIDE_FACE_MIN_COS) / (SPLIT_FULL_COS - SIDE_FACE_MIN_COS)).clamp(0.0, 1.0);
    let w = t * t * (3.0 - 2.0 * t);
    let load = ElementLoad::blend(&split, w, loads.centre, 1.0 - w);
    let (ms, mc) = (split.magnitude * w, loads.centre.magnitude * (1.0 - w));
    let offset = if ms + mc > 0.0 {
        ms * split_offset / (ms + mc)
    } else {
        0.0
    };
    Some((load, offset))
}

/// The loaded part's push, turned toward the side face by minimum penetration: a belt that has
/// slid `overlap` m sideways past a face while sunk `inner.depth` m into the profile beyond it
/// (a wheel whose centre is below a curb's top, moved against the curb's side) is pushed back
/// out across the face, not lifted; one that rides on the profile (sunk mm, overlapping cm) is
/// pushed by the profile. The direction is the weighted mean `(overlap·n_profile +
/// depth·n_face) / (overlap + depth)`; the magnitude is the profile's.
fn push_out(
    inner: &ElementLoad,
    face_normal: &Vector3<f64>,
    plane: &CutPlane,
    overlap: f64,
) -> ElementLoad {
    let depth = inner.depth.max(0.0);
    if depth + overlap <= 0.0 {
        return *inner;
    }
    let (w_profile, w_face) = (overlap / (depth + overlap), depth / (depth + overlap));
    let push = Vector3::new(inner.force.x, inner.force.y, inner.lateral);
    let size = push.norm();
    if size <= 0.0 {
        return *inner;
    }
    // The face normal in the plane frame: (x, z) in the plane, then along its normal.
    let origin = plane.origin();
    let q = plane.to_plane(&(origin + face_normal)) - plane.to_plane(&origin);
    let face = Vector3::new(q.x, q.y, face_normal.dot(&plane.normal()));
    let direction = push / size * w_profile + face * w_face;
    let n = direction.norm();
    if n <= 0.0 {
        return *inner;
    }
    let direction = direction / n * size;
    ElementLoad {
        force: nalgebra::Vector2::new(direction.x, direction.y),
        lateral: direction.z,
        ..*inner
    }
}

/// Where a plane's load lies across its strip (`±half`, m) when the face under it is tilted
/// across the belt: the lateral offset of the load's centroid from the plane's centre line,
/// m (positive along the plane's normal).
///
/// The element's load `force` (N) with tangent stiffness `stiffness` (N/m) is the whole
/// strip's, taken at the centre line; across the strip the penetration runs
/// `δ(s) = δ_c + g·s` with `g = slope` (`ElementLoad::slope / magnitude`). Linearised about
/// the centre, the load density is `(F + k·g·s)/2h`: its centroid is `k·g·h²/(3F)`, and the
/// moment it adds per unit `g` is `k·h²/3 = k·(2h)²/12`, the strip's own roll stiffness.
/// Where that density would go negative at the upper edge (`|g|·h > F/k`), that part of the
/// strip has lifted: the density is a triangle from the zero at `−F/(k·g)` to the lower edge,
/// centroid a third of its length in from that edge. The two forms meet at `h/3`; the
/// centroid never passes `2h/3` (the centre line is always in contact while the plane has a
/// load). The load's size stays the centre cut's.
pub(crate) fn slope_shift(force: f64, stiffness: f64, slope: f64, half: f64) -> f64 {
    if force <= 0.0 || stiffness <= 0.0 || slope == 0.0 || !slope.is_finite() {
        return 0.0;
    }
    // The centre line's penetration of a linear law with the element's force and stiffness.
    let depth = force / stiffness;
    let reach = slope.abs() * half;
    if reach <= depth {
        slope * half * half / (3.0 * depth)
    } else {
        let length = half + depth / slope.abs();
        (half - length / 3.0).copysign(slope)
    }
}

#[cfg(test)]
mod tests {
    use super::slope_shift;

    /// The centroid (m from the centre line) of the load density `max(0, δ + g·s)` over
    /// `s ∈ [−h, h]`, by the midpoint rule on 20 000 slices: the strip's linear law, written out.
    fn centroid(depth: f64, slope: f64, half: f64) -> f64 {
        let n = 20_000;
        let (mut load, mut moment) = (0.0, 0.0);
        for i in 0..n {
            let s = -half + (i as f64 + 0.5) * 2.0 * half / n as f64;
            let density = (depth + slope * s).max(0.0);
            load += density;
            moment += density * s;
        }
        moment / load
    }

    /// Against the linear law integrated across the strip, on both sides of the point where
    /// the upper edge lifts (`|g|·h = F/k`), both signs: within 0.1 % of the half-width.
    #[test]
    fn the_shift_is_the_centroid_of_the_strips_load() {
        let (force, stiffness, half) = (50.0, 40_000.0, 0.0175);
        let depth = force / stiffness;
        for ratio in [0.01, 0.3, 0.99, 1.0, 1.01, 2.0, 10.0, 1000.0] {
            for sign in [1.0, -1.0] {
                let slope = sign * ratio * depth / half;
                let shift = slope_shift(force, stiffness, slope, half);
                let exact = centroid(depth, slope, half);
                assert!(
                    (shift - exact).abs() < 1e-3 * half,
                    "g·h/δ = {ratio}, sign {sign}: {shift} vs {exact}"
                );
                assert!(shift * sign > 0.0 && shift.abs() < 2.0 * half / 3.0 + 1e-12);
            }
        }
    }

    /// The moment the shift adds per unit slope at level ground is the strip's own roll
    /// stiffness k·(2h)²/12; no slope, no load or no stiffness shifts nothing.
    #[test]
    fn at_level_the_shift_adds_the_strips_roll_stiffness() {
        let (force, stiffness, half) = (80.0, 60_000.0, 0.02);
        let g = 1e-6;
        let moment_rate = force * slope_shift(force, stiffness, g, half) / g;
        let strip = stiffness * (2.0 * half).powi(2) / 12.0;
        assert!(
            (moment_rate / strip - 1.0).abs() < 1e-9,
            "{moment_rate} vs {strip}"
        );
        assert_eq!(slope_shift(force, stiffness, 0.0, half), 0.0);
        assert_eq!(slope_shift(0.0, stiffness, 0.1, half), 0.0);
        assert_eq!(slope_shift(force, 0.0, 0.1, half), 0.0);
        assert_eq!(slope_shift(force, stiffness, f64::NAN, half), 0.0);
    }
}
