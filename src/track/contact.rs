//! Normal contact of one track plane with the terrain cut (seed 004 §3.4).
//!
//! Support elements are the belt's circles (wheels, sprocket, idler, rollers) and its runs.
//! A wheel's load from a terrain segment is seed 004's `F = κ·S(δ)`, `S` the circular
//! segment of penetration δ, found from the segment's feature closest to the wheel centre:
//! where the centre projects inside the segment, δ = R − (height of the centre above the
//! segment's line) and the force is along the segment's normal, as in the paper; where it
//! projects beyond an end and is in front of the segment, the end point is the contact,
//! δ = R − distance, the force is radial and counts half, so the two faces meeting at a
//! convex corner (a nosing) make exactly one radial force and hand over to the tread
//! continuously. Summing over segments lets a wheel in a concave corner be pushed by both
//! faces. A run carries the terrain that
//! crosses the belt line between two wheels (seed 004's *factitious irregularity*): the part
//! of the terrain polyline inside the run's quad (tangent points to wheel centres), with each
//! point's depth taken as the smaller of its depth past the run line and its distance outside
//! either end wheel (inside a wheel the terrain is that wheel's), averaged along the run
//! weighted by depth (mean depth δ̄ = ∫d²/∫d, so terrain entering with no depth changes
//! nothing), makes a virtual bump at its depth-weighted position `s`, which the run's
//! end wheels press with the wheel law `F = κ·w(s)·S_R(δ̄)` (`S_R` the circular segment of the
//! wheels' radius). The stiffness factor `w` is 1 at either wheel and `run_stiffness_mid`
//! half-way (the belt is softest mid-run). As a nosing reaches a wheel its depth outside the
//! disk thins to nothing, so the run's force fades as the wheel's grows.
//!
//! Directions: a wheel is pushed along each terrain segment's normal (seed 004); a run is
//! pushed along its own inward normal, because there the belt is the smooth surface and the
//! terrain (a nosing, a corner) pokes into it — this is what lets an inclined front run ride
//! up onto a step edge. On flat ground under a bottom run both directions coincide.

use nalgebra::{Point2, Vector2};

use super::area::CircularSegment;
use super::outline::{BeltOutline, Circle, Run, RunRegion};
use crate::terrain::{CutSegment, SurfaceMaterial};

use super::grouser::{interlock_friction_sine, Grousers};
use super::load::{ContactFriction, ElementLoad};

/// In-plane fraction of a face's normal below which the face pushes nothing (within ≈ 3° of
/// parallel to the plane) ...
const MIN_IN_PLANE: f64 = 0.05;
/// ... and above which it pushes fully (≈ 17° and more); in between its force fades in
/// smoothly. A face nearly parallel to a plane is ill-conditioned in a plane cut (its trace
/// sweeps along the plane far faster than the belt moves across it); the strip split
/// (`vehicle::tracked::strip`) carries such faces' profiles across the belt's width instead.
const FULL_IN_PLANE: f64 = 0.3;

/// Weight of a face whose normal lies the fraction `in_plane` in the plane.
fn in_plane_weight(in_plane: f64) -> f64 {
    let t = ((in_plane - MIN_IN_PLANE) / (FULL_IN_PLANE - MIN_IN_PLANE)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Contact parameters of one track plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneStiffness {
    /// κ of this plane (the belt's κ divided among its planes), N/m².
    pub kappa: f64,
    /// Run stiffness at mid-run as a fraction of κ, in (0, 1].
    pub run_mid: f64,
    /// The belt's grousers: they hook convex terrain edges inside a contact
    /// (`track::grouser`); zeros for a smooth belt.
    pub grousers: Grousers,
}

/// Combined stiffness of the belt plane in series with a surface, N/m².
fn series(kappa: f64, surface: Option<f64>) -> f64 {
    match surface {
        Some(k) => kappa * k / (kappa + k),
        None => kappa,
    }
}

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

/// Run stiffness factor at fraction `s` ∈ [0, 1] along the run: 1 at either wheel,
/// `mid` half-way, smooth in between.
pub fn run_stiffness_factor(s: f64, mid: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    1.0 - (1.0 - mid) * 4.0 * s * (1.0 - s)
}

/// Evaluates one plane: `loads` gets one entry per circle of `outline` followed by one per
/// run (so it must have `circles + runs` entries); segments are the terrain cut in the same
/// plane frame; `materials` is the terrain's material table.
pub fn evaluate_plane(
    outline: &BeltOutline,
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
) {
    let circles = outline.circles();
    let runs = outline.runs();
    let grousers = stiffness.grousers;
    debug_assert_eq!(loads.len(), circles.len() + runs.len());
    for l in loads.iter_mut() {
        *l = ElementLoad::default();
    }
    add_wheel_loads(
        circles,
        stiffness,
        segments,
        materials,
        &mut loads[..circles.len()],
    );
    // Each run's bump (the factitious irregularity of the terrain crossing it), pressed by its
    // end wheels through the belt.
    for (j, (run, region)) in runs.iter().zip(outline.run_regions()).enumerate() {
        if run.length <= 1e-9 {
            continue;
        }
        let mut b = Bump::default();
        // The run's region (tangent points to wheel centres) bounds every piece it takes.
        let bounds = Bounds {
            min: region.min,
            max: region.max,
        };
        for seg in segments {
            if (seg.normal.dot(&run.outward) >= 0.0) | !bounds.meets_segment(seg) {
                continue; // the face looks away from this run, or lies beside it
            }
            let Some(piece) = run_piece(run, region, seg) else {
                continue;
            };
            // As for wheels: depth into an oblique face is the in-plane depth times this.
            let in_plane = seg.in_plane();
            let face_weight = in_plane_weight(in_plane);
            if face_weight <= 0.0 {
                continue;
            }
            let c = in_plane;
            let mat = &materials[seg.material.0 as usize];
            let kappa = series(stiffness.kappa, mat.stiffness);
            // Grousers hook a convex end of the segment poking into the run.
            let hook = |inside: bool, p: Point2<f64>| {
                (inside && grousers.hook())
                    .then(|| convex_edge_faces(p, segments))
                    .flatten()
                    .map_or(0.0, |faces| {
                        grousers.bearing_on(faces, -run.outward, mat.edge_radius)
                    })
            };
            let bearing = hook(piece.start_inside, seg.a).max(hook(piece.end_inside, seg.b));
            let along = interlock_friction_sine(mat.friction, bearing);
            b.depth_square_integral += piece.depth_square_integral * c * c;
            b.depth_integral += piece.depth_integral * c;
            b.moment += piece.moment * c;
            b.kappa += kappa * piece.depth_integral * c;
            b.friction += mat.friction * piece.depth_integral * c;
            b.grip += along * piece.depth_integral * c;
            b.fade += face_weight * piece.depth_integral * c;
            b.depth = b.depth.max(piece.depth * c);
        }
        if b.depth_integral <= 0.0 {
            continue;
        }
        // Depth-weighted, so terrain that enters the run with no depth changes nothing.
        let mean_depth = b.depth_square_integral / b.depth_integral;
        let along = b.moment / b.depth_integral;
        let s = along / run.length;
        let (ra, rb) = (region.from_radius, region.to_radius);
        let radius = ra + (rb - ra) * s.clamp(0.0, 1.0);
        let kappa = b.kappa / b.depth_integral;
        let fade = b.fade / b.depth_integral;
        let k = kappa * fade * run_stiffness_factor(s, stiffness.run_mid);
        let segment = CircularSegment::new(radius, mean_depth);
        let f = k * segment.area;
        if f > 0.0 {
            let p = run.start + region.axis * along;
            let mu = ContactFriction {
                surface: b.friction / b.depth_integral,
                along: b.grip / b.depth_integral,
            };
            let l = &mut loads[circles.len() + j];
            l.add(f, -run.outward, 0.0, p, mu, b.depth);
            l.energy += k * segment.area_integral;
            l.stiffness += k * segment.chord;
        }
    }
    for l in loads.iter_mut() {
        l.finish();
    }
}

/// The loads of wheels (`circles` in the plane frame) from the terrain cut `segments`: one
/// entry per circle, added to `loads` (the closest-feature law of the module docs, with
/// grousers hooking convex edges in the contact patch). Shared by the track planes' circles
/// and the wheels of wheeled robots, each in its own mid-plane.
fn add_wheel_loads(
    circles: &[Circle],
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
) {
    let grousers = stiffness.grousers;
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
                    .then(|| edge_in_patch(seg, dir, len, w.point, half_patch, segments))
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
                loads[i].add(
                    kappa * area,
                    w.normal * in_plane,
                    seg.lateral,
                    w.point,
                    mu,
                    depth,
                );
                loads[i].energy += kappa * weight * segment.area_integral;
                loads[i].stiffness += kappa * weight * segment.chord;
            }
        }
    }
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
        let len = (seg.b - seg.a).norm();
        if len <= 0.0 {
            return None;
        }
        let in_plane = seg.in_plane();
        let face_weight = in_plane_weight(in_plane);
        (face_weight > 0.0).then(|| Self {
            mat,
            kappa: series(stiffness.kappa, mat.stiffness),
            len,
            dir: (seg.b - seg.a) / len,
            in_plane,
            face_weight,
        })
    }
}

/// Evaluates wheels alone: `loads` gets one finished entry per circle of `circles` (plane
/// frame) from the terrain cut `segments` in the same plane. A wheeled robot's wheel is one
/// circle in its mid-plane; the law is the track planes' wheel law ([`evaluate_plane`]).
pub fn evaluate_wheels(
    circles: &[Circle],
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
) {
    debug_assert_eq!(loads.len(), circles.len());
    for l in loads.iter_mut() {
        *l = ElementLoad::default();
    }
    add_wheel_loads(circles, stiffness, segments, materials, loads);
    for l in loads.iter_mut() {
        l.finish();
    }
}

/// An axis-aligned box in the plane, m: the cheap test that skips element–segment pairs too
/// far apart to touch before any contact law is evaluated.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: Point2<f64>,
    max: Point2<f64>,
}

impl Bounds {
    /// Whether the box around the segment `a → b` meets this box.
    fn meets_segment(&self, seg: &CutSegment) -> bool {
        let (lo, hi) = seg.bounds();
        // `&`, not `&&`: four compares are cheaper than the branches between them.
        (hi.x >= self.min.x) & (lo.x <= self.max.x) & (hi.y >= self.min.y) & (lo.y <= self.max.y)
    }

    /// Whether this box meets the box around the disk `c`.
    fn meets_disk(&self, c: &Circle) -> bool {
        (self.max.x >= c.center.x - c.radius)
            & (self.min.x <= c.center.x + c.radius)
            & (self.max.y >= c.center.y - c.radius)
            & (self.min.y <= c.center.y + c.radius)
    }
}

/// What the terrain segments put into one run, summed: the factitious irregularity.
#[derive(Debug, Clone, Copy, Default)]
struct Bump {
    /// ∫ depth² d(along), m³.
    depth_square_integral: f64,
    /// ∫ depth d(along), m².
    depth_integral: f64,
    /// ∫ along·depth d(along), m³.
    moment: f64,
    kappa: f64,
    friction: f64,
    grip: f64,
    depth: f64,
    /// ∫ (face weight)·depth d(along), m²: the bump's force fades with its faces' weights.
    fade: f64,
}

/// The part of one terrain segment inside a run's region.
#[derive(Debug, Clone, Copy)]
struct RunPiece {
    /// ∫ depth² d(along), m³.
    depth_square_integral: f64,
    /// ∫ depth d(along), m².
    depth_integral: f64,
    /// ∫ along·depth d(along), m³.
    moment: f64,
    /// Deepest point past the run line, m.
    depth: f64,
    /// Whether the segment's start point lies inside the run region.
    start_inside: bool,
    /// Whether the segment's end point lies inside the run region.
    end_inside: bool,
}

/// Sine of the smallest turn between two segments that makes their shared vertex an edge.
const EDGE_TURN_SIN: f64 = 0.17; // 10°

/// The two faces leaving `p` if it is a convex corner of the terrain cut (the boundary turns
/// toward the solid there, like a stair nosing or a curb edge): unit directions along each
/// face away from `p`. An open end of the cut (one face only) is a corner too, its one face
/// given twice.
pub fn convex_edge_faces(
    p: Point2<f64>,
    segments: &[CutSegment],
) -> Option<(Vector2<f64>, Vector2<f64>)> {
    const SAME: f64 = 1e-9;
    let arriving = segments
        .iter()
        .find(|s| (s.b - p).norm_squared() <= SAME * SAME);
    let leaving = segments
        .iter()
        .find(|s| (s.a - p).norm_squared() <= SAME * SAME);
    let unit = |v: Vector2<f64>| v.try_normalize(0.0);
    match (arriving, leaving) {
        (Some(i), Some(o)) => {
            let (di, do_) = (unit(i.b - i.a)?, unit(o.b - o.a)?);
            // Solid on the right: a clockwise turn (negative cross) goes round a convex corner.
            (di.x * do_.y - di.y * do_.x < -EDGE_TURN_SIN).then_some((-di, do_))
        }
        (Some(i), None) => unit(i.a - i.b).map(|f| (f, f)),
        (None, Some(o)) => unit(o.b - o.a).map(|f| (f, f)),
        (None, None) => None,
    }
}

/// Whether `p` is a convex corner of the terrain cut, or an open end of it (see
/// [`convex_edge_faces`]).
pub fn is_convex_vertex(p: Point2<f64>, segments: &[CutSegment]) -> bool {
    convex_edge_faces(p, segments).is_some()
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
) -> Option<(Vector2<f64>, Vector2<f64>)> {
    let u = (at - seg.a).dot(&dir);
    let near_a = (u <= half_width).then(|| convex_edge_faces(seg.a, segments));
    let near_b = (len - u <= half_width).then(|| convex_edge_faces(seg.b, segments));
    near_a.flatten().or(near_b.flatten())
}

/// The piece of `seg` inside the region of `run` (of length > 0), if it reaches past the run
/// line.
fn run_piece(run: &Run, region: &RunRegion, seg: &CutSegment) -> Option<RunPiece> {
    let [_, _, cb, ca] = region.corners;
    // Quick reject: both segment ends outside the run line.
    let line_depth = |p: Point2<f64>| -(p - run.start).dot(&run.outward);
    if line_depth(seg.a) <= 0.0 && line_depth(seg.b) <= 0.0 {
        return None;
    }
    // Clip the segment to the quad (counter-clockwise) with Liang–Barsky.
    let d = seg.b - seg.a;
    // The parameter bounds t0 = n0/d0 and t1 = n1/d1 are kept as fractions with positive
    // denominators, compared by cross-multiplying and divided once at the end.
    let (mut n0, mut d0, mut n1, mut d1) = (0.0f64, 1.0f64, 1.0f64, 1.0f64);
    for (&p, out) in region.corners.iter().zip(&region.edge_outward) {
        let den = d.dot(out);
        let num = -(seg.a - p).dot(out); // inside when (x − p)·out ≤ 0
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else if den > 0.0 {
            // t ≤ num/den
            if num * d1 < n1 * den {
                (n1, d1) = (num, den);
            }
        } else if -num * d0 > n0 * -den {
            // t ≥ num/den = (−num)/(−den)
            (n0, d0) = (-num, -den);
        }
    }
    if n1 * d0 <= n0 * d1 {
        return None;
    }
    let (t0, t1) = (n0 / d0, n1 / d1);
    // min(depth past the run line, distance outside either end wheel), at least 0. Without
    // branches: both square roots cost less than mispredicting which one is needed.
    let depth_at = |p: Point2<f64>| {
        let beside_a = (p - ca).norm() - region.from_radius;
        let beside_b = (p - cb).norm() - region.to_radius;
        line_depth(p).min(beside_a).min(beside_b).max(0.0)
    };
    let axis = region.axis;
    let (p0, p1) = (seg.a + d * t0, seg.a + d * t1);
    let pm = Point2::from((p0.coords + p1.coords) * 0.5);
    let (x0, x1) = ((p0 - run.start).dot(&axis), (p1 - run.start).dot(&axis));
    let length = (x1 - x0).abs();
    let (d0, dm, d1) = (depth_at(p0), depth_at(pm), depth_at(p1));
    // Simpson's rule over the projection (depth is linear except near the wheels).
    let depth_integral = length / 6.0 * (d0 + 4.0 * dm + d1);
    if depth_integral <= 0.0 {
        return None;
    }
    let xm = 0.5 * (x0 + x1);
    let moment = length / 6.0 * (x0 * d0 + 4.0 * xm * dm + x1 * d1);
    Some(RunPiece {
        depth_square_integral: length / 6.0 * (d0 * d0 + 4.0 * dm * dm + d1 * d1),
        depth_integral,
        moment,
        depth: d0.max(dm).max(d1),
        start_inside: t0 == 0.0,
        end_inside: t1 == 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::MaterialId;
    use crate::track::area::{circular_segment_area, circular_segment_area_integral};
    use crate::track::load::normal_damping_factor;
    use crate::track::outline::Circle;

    fn circle(x: f64, z: f64, r: f64) -> Circle {
        Circle {
            center: Point2::new(x, z),
            radius: r,
        }
    }

    fn seg(a: (f64, f64), b: (f64, f64)) -> CutSegment {
        let (a, b) = (Point2::new(a.0, a.1), Point2::new(b.0, b.1));
        let d = (b - a).normalize();
        CutSegment::new(a, b, Vector2::new(-d.y, d.x), 0.0, MaterialId(0), 0)
    }

    /// Flat ground `z = h` from x = -10 to 10 (solid below).
    fn ground(h: f64) -> Vec<CutSegment> {
        vec![seg((-10.0, h), (10.0, h))]
    }

    /// A step: lower floor z = 0 for x < x0, riser at x0 up to z = h, upper floor beyond.
    fn step(x0: f64, h: f64) -> Vec<CutSegment> {
        vec![
            seg((-10.0, 0.0), (x0, 0.0)),
            seg((x0, 0.0), (x0, h)),
            seg((x0, h), (10.0, h)),
        ]
    }

    fn track() -> BeltOutline {
        BeltOutline::new(vec![
            circle(-0.25, 0.06, 0.06),
            circle(-0.1, 0.04, 0.04),
            circle(0.05, 0.04, 0.04),
            circle(0.25, 0.09, 0.05),
        ])
        .unwrap()
    }

    const STIFF: PlaneStiffness = PlaneStiffness {
        kappa: 1.0e6,
        run_mid: 0.3,
        grousers: Grousers {
            height: 0.0,
            pitch: 0.0,
        },
    };

    fn total(o: &BeltOutline, segs: &[CutSegment]) -> (Vector2<f64>, Vec<ElementLoad>) {
        let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
        evaluate_plane(o, STIFF, segs, &[SurfaceMaterial::default()], &mut loads);
        (loads.iter().map(|l| l.force).sum(), loads)
    }

    /// A wheel over a sliver 1 mm wide (a plane just past a curb's vertical edge) sinks no
    /// deeper than the sliver is wide; over a 0.2 m thick floor the half-plane law holds.
    #[test]
    fn a_wheel_sinks_no_deeper_than_the_solid_is_thick() {
        let seg = |a: (f64, f64), b: (f64, f64), n: (f64, f64)| {
            CutSegment::new(
                Point2::new(a.0, a.1),
                Point2::new(b.0, b.1),
                Vector2::new(n.0, n.1),
                0.0,
                crate::terrain::MaterialId(0),
                0,
            )
        };
        let sliver = [
            seg((0.344, 0.04), (0.344, 0.15), (-1.0, 0.0)),
            seg((0.344, 0.15), (0.345, 0.15), (0.0, 1.0)),
            seg((0.345, 0.15), (0.345, 0.04), (1.0, 0.0)),
        ];
        let t = solid_thickness(Point2::new(0.345, 0.10), Vector2::new(-1.0, 0.0), &sliver);
        assert!((t - 0.001).abs() < 1e-9, "{t}");
        let floor = [
            seg((-1.0, 0.0), (1.0, 0.0), (0.0, 1.0)),
            seg((1.0, -0.2), (-1.0, -0.2), (0.0, -1.0)),
        ];
        let t = solid_thickness(Point2::new(0.1, 0.0), Vector2::new(0.0, -1.0), &floor);
        assert!((t - 0.2).abs() < 1e-12, "{t}");
        assert_eq!(
            solid_thickness(Point2::new(0.1, 0.0), Vector2::new(0.0, -1.0), &floor[..1]),
            f64::INFINITY
        );
    }

    /// Each element's `stiffness` is the derivative of its force in the penetration (wheels
    /// and runs alike): the tangent stiffness that the rubber's viscous force scales with.
    #[test]
    fn element_stiffness_is_the_derivative_of_its_force() {
        let o = track();
        let (delta, h) = (0.002, 1e-8);
        let (_, loads) = total(&o, &ground(delta));
        let (_, below) = total(&o, &ground(delta - h));
        let (_, above) = total(&o, &ground(delta + h));
        let mut checked = 0;
        // (A run whose end only grazes the ground carries micro-newtons: skipped.)
        let largest = loads.iter().map(|l| l.magnitude).fold(0.0, f64::max);
        for (i, l) in loads
            .iter()
            .enumerate()
            .filter(|(_, l)| l.magnitude > 1e-3 * largest)
        {
            let numeric = (above[i].magnitude - below[i].magnitude) / (2.0 * h);
            assert!(
                (l.stiffness - numeric).abs() < 1e-3 * numeric,
                "element {i}: {} vs {numeric} N/m",
                l.stiffness
            );
            checked += 1;
        }
        assert!(checked >= 5, "wheels and runs: {checked}");
    }

    /// The rubber's viscous force is τ·k·δ̇ whatever the load: a contact's damping coefficient
    /// is τ times its stiffness (ζ = ω·τ/2), where Hunt–Crossley's β·F vanishes with the load.
    #[test]
    fn viscous_damping_follows_the_stiffness_not_the_load() {
        let o = track();
        let (tau, rate) = (0.002, 0.01);
        for delta in [1e-4, 2e-3] {
            let (_, loads) = total(&o, &ground(delta));
            let l = &loads[1];
            let hc = l.magnitude * (normal_damping_factor(l, 4.0, 0.0, rate, f64::INFINITY) - 1.0)
                / rate;
            let both = l.magnitude
                * (normal_damping_factor(l, 4.0, tau, rate, f64::INFINITY) - 1.0)
                / rate;
            assert!((hc - 4.0 * l.magnitude).abs() < 1e-9 * hc);
            assert!((both - hc - tau * l.stiffness).abs() < 1e-9 * both);
        }
        let l = &total(&o, &ground(2e-3)).1[1];
        assert_eq!(
            normal_damping_factor(l, 4.0, tau, -10.0, f64::INFINITY),
            0.0,
            "never pulls"
        );
        assert_eq!(
            normal_damping_factor(&ElementLoad::default(), 4.0, tau, 1.0, f64::INFINITY),
            1.0 + 4.0
        );
    }

    #[test]
    fn sunk_into_flat_ground_wheels_carry_circular_segments_and_runs_the_strip_between() {
        let o = track();
        let delta = 0.002;
        let (f, loads) = total(&o, &ground(delta));
        // Wheels: exact circular segments of the lowest three (sprocket bottom is at 0 too).
        for (i, r) in [(0, 0.06), (1, 0.04), (2, 0.04)] {
            let expect = STIFF.kappa * circular_segment_area(r, delta);
            assert!(
                (loads[i].magnitude - expect).abs() < 1e-9 * expect,
                "wheel {i}"
            );
            assert!((loads[i].force - Vector2::new(0.0, expect)).norm() < 1e-9 * expect);
        }
        assert!(!loads[3].is_active(), "raised idler is off the ground");
        // Bottom run between the two 4 cm road wheels (1–2, symmetric, 0.15 m long): the ground
        // lies δ past the run line over its whole length except where it is within a wheel
        // (|x| < √(4Rδ) from either tangent point, depth there ≤ x²/2R − δ), so the mean depth
        // is a little under δ, and the bump sits mid-run (w = 0.3), pressed with R = 4 cm.
        let upper = STIFF.kappa * 0.3 * circular_segment_area(0.04, delta);
        let lower = STIFF.kappa
            * 0.3
            * circular_segment_area(
                0.04,
                delta * (1.0 - 2.0 * (16.0f64 * 0.04 * delta).sqrt() / 0.15),
            );
        let got = loads[5].magnitude;
        assert!(
            got <= upper * (1.0 + 1e-12) && got >= lower,
            "run 1–2: {got} not in [{lower}, {upper}]"
        );
        assert!(loads[4].is_active(), "run 0–1 carries too");
        assert!(f.x.abs() < 1e-3 * f.y && f.y > 0.0, "{f:?}");
    }

    #[test]
    fn loads_never_pull_and_vanish_off_the_ground() {
        let o = track();
        let (f, loads) = total(&o, &ground(-0.001));
        assert_eq!(f, Vector2::zeros());
        assert!(loads.iter().all(|l| !l.is_active()));
    }

    /// Largest change of `f` between neighbouring samples of `[x0, x1]` split `n` times.
    fn max_jump(f: impl Fn(f64) -> Vector2<f64>, x0: f64, x1: f64, n: usize) -> f64 {
        let mut prev = f(x0);
        let mut worst: f64 = 0.0;
        for i in 1..=n {
            let x = x0 + (x1 - x0) * i as f64 / n as f64;
            let v = f(x);
            worst = worst.max((v - prev).norm());
            prev = v;
        }
        worst
    }

    /// The total force as a step's nosing (12 mm into the belt) slides under the whole track,
    /// from in front of the idler to behind the sprocket: wheel → run → wheel → … Continuity:
    /// the largest change between neighbouring positions shrinks tenfold with the spacing (a
    /// jump would not), and at 0.01 mm spacing it is below 1 % of the static load.
    #[test]
    fn force_is_continuous_as_a_nosing_moves_from_wheel_along_run_to_wheel() {
        let o = track();
        let h = 0.012;
        let static_load = total(&o, &ground(0.002)).0.y;
        let force = |x0: f64| total(&o, &step(x0, h)).0;
        let (coarse, fine) = (
            max_jump(force, -0.35, 0.25, 6_000),
            max_jump(force, -0.35, 0.25, 60_000),
        );
        assert!(
            fine < 0.2 * coarse,
            "jumps do not shrink: {coarse} → {fine} N"
        );
        assert!(
            fine < 0.01 * static_load,
            "jump {fine} N vs static {static_load} N"
        );
        // Somewhere only a run carries the nosing.
        let run_only = (0..600).any(|i| {
            let (_, loads) = total(&o, &step(-0.35 + 0.001 * i as f64, h));
            loads[4..].iter().any(|l| l.is_active()) && !loads[..4].iter().any(|l| l.is_active())
        });
        assert!(run_only);
    }

    /// A single wheel rolled over a convex nosing (tread → edge → down the riser side) and
    /// into a concave corner (1 cm into the next riser) at 3 mm penetration. Continuity: the
    /// largest change between neighbouring positions shrinks with the spacing (a jump would
    /// not), and at 0.01 mm spacing it is below 1 % of the flat-ground load.
    #[test]
    fn wheel_force_is_continuous_over_a_nosing_and_into_a_corner() {
        let r = 0.04;
        let terrain = vec![
            seg((-1.0, 0.0), (0.0, 0.0)),
            seg((0.0, 0.0), (0.0, 0.18)),    // riser 1
            seg((0.0, 0.18), (0.28, 0.18)),  // tread
            seg((0.28, 0.18), (0.28, 0.36)), // riser 2 (concave corner at 0.28)
        ];
        let mats = [SurfaceMaterial::default()];
        let z = 0.18 + r - 0.003;
        let flat = STIFF.kappa * circular_segment_area(r, 0.003);
        let force_at = |x: f64| {
            let o = BeltOutline::new(vec![circle(x, z, r), circle(x - 1.0, z + 1.0, r)]).unwrap();
            let mut loads = vec![ElementLoad::default(); 4];
            evaluate_plane(&o, STIFF, &terrain, &mats, &mut loads);
            loads[0].force
        };
        let (coarse, fine) = (
            max_jump(force_at, -0.06, 0.25, 3_100),
            max_jump(force_at, -0.06, 0.25, 31_000),
        );
        assert!(
            fine < 0.2 * coarse,
            "jumps do not shrink: {coarse} → {fine} N"
        );
        assert!(fine < 0.01 * flat, "jump {fine} N vs flat load {flat} N");
        // In the corner both faces push: up and back.
        let f = force_at(0.28 - r + 0.002);
        assert!(f.x < 0.0 && f.y > 0.0);
        // Exactly over the edge the force is the flat one, straight up.
        let f = force_at(0.0);
        assert!(
            (f.y - flat).abs() < 1e-9 * flat && f.x.abs() < 1e-9 * flat,
            "{f:?}"
        );
    }

    /// Regression: a flat floor cut into two collinear segments pushed a wheel over their
    /// joint 1.5 times (full from one face, half again from the other's end point).
    #[test]
    fn a_wheel_over_the_joint_of_collinear_segments_is_pushed_once() {
        let floor = vec![seg((-1.0, 0.0), (0.1, 0.0)), seg((0.1, 0.0), (1.0, 0.0))];
        let r = 0.04;
        for x in [0.09, 0.1, 0.11, 0.12, 0.15] {
            let o =
                BeltOutline::new(vec![circle(x, r - 0.002, r), circle(x - 1.0, 1.0, r)]).unwrap();
            let mut loads = vec![ElementLoad::default(); 4];
            evaluate_plane(&o, STIFF, &floor, &[SurfaceMaterial::default()], &mut loads);
            let expect = STIFF.kappa * circular_segment_area(r, 0.002);
            assert!(
                (loads[0].force.y - expect).abs() < 1e-9 * expect,
                "x={x}: {:?} vs {expect}",
                loads[0].force
            );
            let e = STIFF.kappa * circular_segment_area_integral(r, 0.002);
            assert!((loads[0].energy - e).abs() < 1e-9 * e);
        }
    }

    /// Grousers hook a nosing poking into a run (a convex terrain vertex inside the belt) or
    /// a wheel resting on it, by the angle its faces fall away from the belt
    /// (`track::grouser`), but not a flat surface or the joint of two collinear floor
    /// segments; across the belt the surface's μ stays.
    #[test]
    fn grousers_hook_edges_only() {
        let o = track();
        let grip = PlaneStiffness {
            grousers: Grousers {
                height: 0.008,
                pitch: 0.04,
            },
            ..STIFF
        };
        let mats = [SurfaceMaterial::default()];
        let mu = mats[0].friction;
        let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
        // A nosing under the middle of the bottom run between road wheels 1 and 2: the run is
        // level, so the tread lies along the belt and the riser falls away square; the smaller
        // (0°) counts and the run holds by the surface's μ.
        evaluate_plane(&o, grip, &step(-0.025, 0.003), &mats, &mut loads);
        let run_index = |from: usize, to: usize| {
            o.circles().len()
                + o.runs()
                    .iter()
                    .position(|r| r.from == from && r.to == to)
                    .unwrap()
        };
        let run = run_index(1, 2);
        assert!(loads[run].is_active());
        assert!((loads[run].grip - mu).abs() < 1e-12, "{}", loads[run].grip);
        // The same nosing under the inclined front run (idler 0.25/0.09 r 0.05, wheel
        // 0.05/0.04 r 0.04): both faces fall away, the tread by the run's slope γ.
        let front = run_index(2, 3);
        let r = &o.runs()[front - o.circles().len()];
        let gamma = ((r.end - r.start).y / (r.end - r.start).x).atan();
        let edge_x = 0.5 * (r.start.x + r.end.x);
        let h = 0.5 * (r.start.y + r.end.y) + 0.002;
        evaluate_plane(&o, grip, &step(edge_x, h), &mats, &mut loads);
        assert!(loads[front].is_active());
        let expect = (gamma + mu.atan()).tan();
        assert!(
            (loads[front].grip - expect).abs() < 1e-9,
            "{} vs tan({:.1}° + atan μ) = {expect}",
            loads[front].grip,
            gamma.to_degrees()
        );
        assert!((loads[front].friction - mu).abs() < 1e-12);
        // Flat ground, also when cut into collinear pieces: the surface's μ.
        evaluate_plane(&o, grip, &ground(0.002), &mats, &mut loads);
        assert!(loads
            .iter()
            .filter(|l| l.is_active())
            .all(|l| (l.grip - mu).abs() < 1e-12));
        let split = vec![
            seg((-10.0, 0.002), (-0.1, 0.002)),
            seg((-0.1, 0.002), (10.0, 0.002)),
        ];
        evaluate_plane(&o, grip, &split, &mats, &mut loads);
        assert!(loads
            .iter()
            .filter(|l| l.is_active())
            .all(|l| (l.grip - mu).abs() < 1e-12));
        // A wheel resting on a nosing from above at 30° (the belt along a flight's nosing
        // line): hooked by min(30°, 60°).
        let edge = step(-0.1, 0.04);
        let t = 30f64.to_radians();
        let rr = 0.04;
        let d = rr - 0.002;
        let wheel = BeltOutline::new(vec![
            circle(-0.1 - d * t.sin(), 0.04 + d * t.cos(), rr),
            circle(-1.0, 1.0, 0.04),
        ])
        .unwrap();
        let mut wl = vec![ElementLoad::default(); 4];
        evaluate_plane(&wheel, grip, &edge, &mats, &mut wl);
        let expect = (t + mu.atan()).tan();
        assert!((wl[0].grip - expect).abs() < 1e-9, "{}", wl[0].grip);
        // A rounded edge (ρ 0.1 m) hooks by its arc: asin(0.02/0.1).
        let rounded = [SurfaceMaterial {
            edge_radius: 0.1,
            ..SurfaceMaterial::default()
        }];
        evaluate_plane(&wheel, grip, &edge, &rounded, &mut wl);
        let expect = (0.2f64.asin() + mu.atan()).tan();
        assert!((wl[0].grip - expect).abs() < 1e-9, "{}", wl[0].grip);
        // A smooth belt does not hook.
        evaluate_plane(&wheel, STIFF, &edge, &mats, &mut wl);
        assert!((wl[0].grip - mu).abs() < 1e-12);
        assert!(is_convex_vertex(Point2::new(-0.1, 0.04), &edge));
        assert!(
            !is_convex_vertex(Point2::new(-0.1, 0.0), &edge),
            "the riser's foot is concave"
        );
    }

    #[test]
    fn concave_corner_pushes_back_and_up() {
        // The track's front wheel against a wall: wheel 3 (idler) touches the riser.
        let o = track();
        let (f, loads) = total(&o, &step(0.295, 0.3));
        assert!(loads[3].is_active());
        assert!(loads[3].force.x < 0.0, "the wall pushes the idler back");
        assert!(f.x < 0.0);
    }

    #[test]
    fn a_nosing_under_the_inclined_front_run_pushes_up_and_back_along_its_normal() {
        let o = track();
        // The front run goes from road wheel 2 (0.05, 0.04) r 0.04 to the idler (0.25, 0.09)
        // r 0.05; put a step nosing under its middle, poking 5 mm into it.
        let front = o
            .runs()
            .iter()
            .find(|r| r.from == 2 && r.to == 3)
            .copied()
            .unwrap();
        let mid = front.start + (front.end - front.start) * 0.5;
        let x0 = mid.x;
        let h = mid.y + 0.005;
        let (_, loads) = total(&o, &step(x0, h));
        let k = o.circles().len()
            + o.runs()
                .iter()
                .position(|r| r.from == 2 && r.to == 3)
                .unwrap();
        let l = loads[k];
        assert!(l.is_active());
        let dir = l.force / l.force.norm();
        assert!(
            (dir + front.outward).norm() < 1e-12,
            "along the run's inward normal: {dir:?}"
        );
        assert!(dir.y > 0.0 && dir.x < 0.0);
    }

    #[test]
    fn run_stiffness_is_kappa_at_the_wheels_and_softest_mid_run() {
        assert_eq!(run_stiffness_factor(0.0, 0.3), 1.0);
        assert_eq!(run_stiffness_factor(1.0, 0.3), 1.0);
        assert!((run_stiffness_factor(0.5, 0.3) - 0.3).abs() < 1e-15);
        assert!(run_stiffness_factor(0.25, 0.3) > 0.3 && run_stiffness_factor(0.25, 0.3) < 1.0);
    }

    #[test]
    fn a_soft_surface_acts_in_series_with_the_belt() {
        let o = track();
        let soft = SurfaceMaterial {
            stiffness: Some(1.0e6),
            ..SurfaceMaterial::default()
        };
        let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
        evaluate_plane(&o, STIFF, &ground(0.002), &[soft], &mut loads);
        let (_, rigid) = total(&o, &ground(0.002));
        assert!((loads[1].magnitude - 0.5 * rigid[1].magnitude).abs() < 1e-9);
    }
}
