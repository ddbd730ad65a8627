//! The wheel law of a track plane (and of a wheeled robot's wheel): the closest-feature
//! contact of each circle with each terrain segment, seed 004's `F = κ·S(δ)` (see the
//! parent module's docs).

use nalgebra::{Point2, Vector2};

use super::{convex_edge_faces, in_plane_weight, series, Bounds, PlaneStiffness, WrittenLoads};
use crate::terrain::{CullLine, CutSegment, SurfaceMaterial};
use crate::track::area::CircularSegment;
use crate::track::grouser::interlock_friction_sine;
use crate::track::load::{ContactFriction, ElementLoad};
use crate::track::outline::Circle;

/// A wheel's contact with one terrain segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WheelContact {
    /// Direction of the push on the wheel (unit, plane frame).
    pub normal: Vector2<f64>,
    /// Contact point on the terrain, plane frame, m.
    pub point: Point2<f64>,
    /// Penetration δ, m.
    pub depth: f64,
    /// Weight applied to `S(δ)` (facing fade, or ½ at a vertex).
    pub weight: f64,
    /// Whether the contact is at one of the segment's end points.
    pub at_vertex: bool,
}

/// Whether the vertex `p` is an end of a segment over whose interior the wheel centre `c`
/// lies (in front of it): then that segment's face is the wheel's contact, and the vertex
/// (e.g. the joint of two collinear segments of one flat floor) must not push again.
fn vertex_is_covered(c: Point2<f64>, p: Point2<f64>, segments: &[CutSegment]) -> bool {
    const SAME: f64 = 1e-9;
    segments.iter().any(|s| {
        if (s.a - p).norm_squared() > SAME * SAME && (s.b - p).norm_squared() > SAME * SAME {
            return false;
        }
        let d = s.b - s.a;
        let len2 = d.norm_squared();
        let u = (c - s.a).dot(&d);
        u >= 0.0 && u < len2 && (c - s.a).dot(&s.normal) > 0.0
    })
}

/// The closest-feature contact of a wheel (centre `c`, radius `r`) with segment `seg`
/// (unit direction `dir`, length `len`); see the module docs.
pub fn wheel_contact(
    c: Point2<f64>,
    r: f64,
    seg: &CutSegment,
    dir: Vector2<f64>,
    len: f64,
) -> Option<WheelContact> {
    let ac = c - seg.a;
    let v = ac.dot(&seg.normal);
    if v >= r {
        return None;
    }
    let u = ac.dot(&dir);
    // Half-open, so a centre exactly over the joint of two segments belongs to one of them.
    if (0.0..len).contains(&u) {
        let depth = r - v;
        let w = facing_weight(v, r);
        (w > 0.0).then(|| WheelContact {
            normal: seg.normal,
            point: seg.a + dir * u,
            depth,
            weight: w,
            at_vertex: false,
        })
    } else {
        if v <= 0.0 {
            return None; // beyond the end and not in front: the next face's business
        }
        let e = if u < 0.0 { seg.a } else { seg.b };
        let d = c - e;
        let dist = d.norm();
        if dist >= r || dist <= 0.0 {
            return None;
        }
        Some(WheelContact {
            normal: d / dist,
            point: e,
            depth: r - dist,
            weight: 0.5,
            at_vertex: true,
        })
    }
}

/// How thick the solid is behind the terrain point `p` in the direction `inward` (a unit vector
/// into the solid, plane frame), m: the distance to the nearest other segment of the cut that
/// the ray from `p` crosses; infinite when it crosses none.
///
/// A wheel cannot sink deeper into a solid than the solid is thick. The wheel law treats the
/// solid behind a face as a half-plane, which holds for floors, treads and walls, but not
/// where a plane has just crossed a vertical edge of a solid sideways (a curb's corner met by
/// a flipper at 45°): the cut is then a sliver a millimetre wide and as tall as the curb, and
/// a half-plane behind its far face put a wheel 6 cm deep at once (a one-step jump of 321 kN
/// for the 250 kg robot). Limited by the sliver's width, the load grows with it, as fast as
/// the belt moves across the edge.
pub fn solid_thickness(p: Point2<f64>, inward: Vector2<f64>, segments: &[CutSegment]) -> f64 {
    const SAME_POINT: f64 = 1e-9;
    let mut nearest = f64::INFINITY;
    for seg in segments {
        let e = seg.b - seg.a;
        // Solve p + t·inward = a + u·e: t = t_num/det, u = u_num/det; tested with |det| and
        // signs, so only a crossing costs a division.
        let det = inward.x * (-e.y) - inward.y * (-e.x);
        if det.abs() < 1e-15 {
            continue;
        }
        let r = seg.a - p;
        let sign = det.signum();
        let (t_num, u_num) = (
            sign * (r.x * (-e.y) - r.y * (-e.x)),
            sign * (inward.x * r.y - inward.y * r.x),
        );
        let size = det.abs();
        if t_num > SAME_POINT * size && (0.0..=size).contains(&u_num) {
            nearest = nearest.min(t_num / size);
        }
    }
    nearest
}

/// How much a terrain face counts for a wheel whose centre is `v` m in front of the face's
/// line (negative: behind it, inside the solid): fully while the centre is in front, fading
/// to nothing once it is half a radius behind. A face the wheel is behind is the far side of
/// a thin solid (a nosing lip's underside seen from above it) and must not pull the wheel
/// through; the fade keeps the force continuous.
pub fn facing_weight(v: f64, radius: f64) -> f64 {
    ((v + 0.5 * radius) / (0.5 * radius)).clamp(0.0, 1.0)
}

/// The loads of wheels (`circles` in the plane frame) from the terrain cut `segments`: one
/// entry per circle, added to `loads` (the closest-feature law of the module docs, with
/// grousers hooking convex edges in the contact patch). Shared by the track planes' circles
/// and the wheels of wheeled robots, each in its own mid-plane. Returns whether every end
/// point the grouser rule looked at lies short of the `culled` lines (see
/// [`super::evaluate_plane`]), and the loads it wrote.
pub(super) fn add_wheel_loads(
    circles: &[Circle],
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
    culled: &[CullLine],
) -> (bool, WrittenLoads) {
    let grousers = stiffness.grousers;
    let mut complete = true;
    let mut written = WrittenLoads::NONE;
    for seg in segments {
        let (min, max) = seg.bounds();
        let reach = Bounds { min, max };
        // Worked out at the first wheel near the segment (most segments have none).
        let mut face = None;
        for (i, c) in circles.iter().enumerate() {
            // A wheel meets only what comes within its radius of its centre.
            if !reach.meets_disk(c) {
                continue;
            }
            let Some(WheelFace {
                mat,
                kappa,
                len,
                dir,
                in_plane,
                face_weight,
            }) = *face.get_or_insert_with(|| WheelFace::of(seg, stiffness, materials))
            else {
                break; // a face no wheel can be pushed by
            };
            if let Some(w) = wheel_contact(c.center, c.radius, seg, dir, len) {
                if w.at_vertex && vertex_is_covered(c.center, w.point, segments) {
                    continue;
                }
                // Grousers hook a convex edge inside the contact patch, as seen along the push.
                let half_patch = (2.0 * c.radius * w.depth).sqrt();
                let bearing = grousers
                    .hook()
                    .then(|| {
                        let edge = edge_in_patch(seg, dir, len, w.point, half_patch, segments);
                        complete &= edge
                            .looked_at
                            .iter()
                            .flatten()
                            .all(|p| culled.iter().all(|line| !line.beyond(p)));
                        edge.faces
                    })
                    .flatten()
                    .map_or(0.0, |faces| {
                        grousers.bearing_on(faces, w.normal, mat.edge_radius)
                    });
                let mu = ContactFriction {
                    surface: mat.friction,
                    along: interlock_friction_sine(mat.friction, bearing),
                };
                // Never deeper than the solid is thick behind the contact (see
                // `solid_thickness`).
                let depth = w.depth.min(solid_thickness(w.point, -w.normal, segments)) * in_plane;
                let weight = w.weight * face_weight;
                let segment = CircularSegment::new(c.radius, depth);
                let area = weight * segment.area;
                written.mark(i);
                loads[i].add(
                    kappa * area,
                    w.normal * in_plane,
                    seg.lateral,
                    w.point,
                    mu,
                    depth,
                );
                loads[i].slope += kappa * area * seg.across_slope();
                loads[i].energy += kappa * weight * segment.area_integral;
                loads[i].stiffness += kappa * weight * segment.chord;
            }
        }
    }
    (complete, written)
}

/// What the wheel law needs of one terrain segment, whichever wheel it meets.
#[derive(Clone, Copy)]
struct WheelFace<'a> {
    mat: &'a SurfaceMaterial,
    /// The plane's κ in series with the surface's, N/m².
    kappa: f64,
    /// Length, m.
    len: f64,
    /// Unit direction from `a` to `b`.
    dir: Vector2<f64>,
    /// A face oblique to the plane (normal partly along the plane normal) is met at a depth
    /// `in_plane` times the depth measured in the plane, and pushes along its own normal.
    in_plane: f64,
    /// [`in_plane_weight`] of `in_plane`.
    face_weight: f64,
}

impl<'a> WheelFace<'a> {
    /// The face of `seg`, or `None` for one of zero length or too nearly parallel to the plane
    /// to push.
    fn of(
        seg: &CutSegment,
        stiffness: PlaneStiffness,
        materials: &'a [SurfaceMaterial],
    ) -> Option<Self> {
        let mat = &materials[seg.material.0 as usize];
        let dir = seg.direction();
        let len = (seg.b - seg.a).dot(&dir);
        if len <= 0.0 {
            return None;
        }
        let in_plane = seg.in_plane();
        let face_weight = in_plane_weight(in_plane);
        (face_weight > 0.0).then(|| Self {
            mat,
            kappa: series(stiffness.kappa, mat.stiffness),
            len,
            dir,
            in_plane,
            face_weight,
        })
    }
}

/// What [`edge_in_patch`] found, and where it looked.
struct PatchEdge {
    /// The faces of the convex end point found, if any.
    faces: Option<(Vector2<f64>, Vector2<f64>)>,
    /// The end points whose faces it looked up.
    looked_at: [Option<Point2<f64>>; 2],
}

/// The faces of a convex end point of `seg` that lies within `half_width` of the contact
/// point `at` (inside the wheel's contact patch), if there is one.
fn edge_in_patch(
    seg: &CutSegment,
    dir: Vector2<f64>,
    len: f64,
    at: Point2<f64>,
    half_width: f64,
    segments: &[CutSegment],
) -> PatchEdge {
    let u = (at - seg.a).dot(&dir);
    let (look_a, look_b) = (u <= half_width, len - u <= half_width);
    let near_a = look_a.then(|| convex_edge_faces(seg.a, segments));
    let near_b = look_b.then(|| convex_edge_faces(seg.b, segments));
    PatchEdge {
        faces: near_a.flatten().or(near_b.flatten()),
        looked_at: [look_a.then_some(seg.a), look_b.then_some(seg.b)],
    }
}
