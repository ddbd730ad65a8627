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
