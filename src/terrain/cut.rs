//! Plane cuts: a plane pose and a rectangular region in it, and the terrain segments found there.

use nalgebra::{Isometry3, Point2, Point3, Vector2, Vector3};
use parry3d::math::Vector as PVec;

use super::MaterialId;

/// Segments shorter than this (m) are a plane touching a triangle at a vertex; they are dropped.
const MIN_SEGMENT_LENGTH: f64 = 1e-12;

/// A rectangle in plane coordinates `(x, z)`, m: the part of the plane a cut looks at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutRegion {
    /// Lower corner `(x_min, z_min)`, plane frame, m.
    pub min: Point2<f64>,
    /// Upper corner `(x_max, z_max)`, plane frame, m.
    pub max: Point2<f64>,
}

impl CutRegion {
    /// The region `[x_min, x_max] × [z_min, z_max]`, plane frame, m.
    pub fn new(x_min: f64, x_max: f64, z_min: f64, z_max: f64) -> Self {
        Self {
            min: Point2::new(x_min, z_min),
            max: Point2::new(x_max, z_max),
        }
    }
}

/// A cutting plane: a pose whose local x–z plane is the cut plane (the track plane: body x
/// forward, body z up, normal along body y) and the region of it that matters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutPlane {
    origin: Point3<f64>,
    x_axis: Vector3<f64>,
    z_axis: Vector3<f64>,
    normal: Vector3<f64>,
    region: CutRegion,
}

impl CutPlane {
    /// The plane `y = 0` of `pose` (plane frame → world frame), limited to `region`.
    pub fn from_pose(pose: &Isometry3<f64>, region: CutRegion) -> Self {
        let r = pose.rotation;
        Self {
            origin: Point3::from(pose.translation.vector),
            x_axis: r * Vector3::x(),
            z_axis: r * Vector3::z(),
            normal: r * Vector3::y(),
            region,
        }
    }

    /// The plane's pose (plane frame → world).
    pub fn pose(&self) -> Isometry3<f64> {
        let rot =
            nalgebra::Rotation3::from_basis_unchecked(&[self.x_axis, self.normal, self.z_axis]);
        Isometry3::from_parts(
            nalgebra::Translation3::from(self.origin.coords),
            nalgebra::UnitQuaternion::from_rotation_matrix(&rot),
        )
    }

    /// The same plane moved by `offset` m along its normal (a parallel track plane).
    pub fn shifted(&self, offset: f64) -> Self {
        Self {
            origin: self.origin + self.normal * offset,
            ..*self
        }
    }

    /// Origin of the plane frame, world, m.
    pub fn origin(&self) -> Point3<f64> {
        self.origin
    }

    /// Unit normal (plane y axis), world frame.
    pub fn normal(&self) -> Vector3<f64> {
        self.normal
    }

    /// The region of the plane that cuts look at.
    pub fn region(&self) -> CutRegion {
        self.region
    }

    /// Plane coordinates `(x, z)` of a world point, m (its distance from the plane is dropped).
    pub fn to_plane(&self, p: &Point3<f64>) -> Point2<f64> {
        self.offset_to_plane(&(p - self.origin))
    }

    /// Plane coordinates `(x, z)` of the world point `origin + offset`, m, given its `offset`
    /// from the plane's origin (world frame): for callers that also need its depth.
    pub fn offset_to_plane(&self, offset: &Vector3<f64>) -> Point2<f64> {
        Point2::new(offset.dot(&self.x_axis), offset.dot(&self.z_axis))
    }

    /// World point of plane coordinates `(x, z)`, m.
    pub fn to_world(&self, q: &Point2<f64>) -> Point3<f64> {
        self.origin + self.x_axis * q.x + self.z_axis * q.y
    }

    /// Plane components `(x, z)` of a world direction (its part along the normal is dropped).
    pub fn vector_to_plane(&self, v: &Vector3<f64>) -> Vector2<f64> {
        Vector2::new(v.dot(&self.x_axis), v.dot(&self.z_axis))
    }

    /// World direction of a plane-frame direction `(x, z)`.
    pub fn vector_to_world(&self, v: &Vector2<f64>) -> Vector3<f64> {
        self.x_axis * v.x + self.z_axis * v.y
    }

    /// A conservative box test for pruning a BVH, precomputed in `f32`, for the slab of
    /// half-thickness `half_thickness` m around this plane (0 for the plane itself) inside the
    /// region.
    pub(crate) fn box_filter(&self, half_thickness: f64) -> BoxFilter {
        let f = |v: Vector3<f64>| [v.x as f32, v.y as f32, v.z as f32];
        let r = &self.region;
        // World AABB of the region's rectangle, thickened along the normal.
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for (x, z) in [
            (r.min.x, r.min.y),
            (r.max.x, r.min.y),
            (r.min.x, r.max.y),
            (r.max.x, r.max.y),
        ] {
            for s in [-half_thickness, half_thickness] {
                let p = self.origin + self.x_axis * x + self.z_axis * z + self.normal * s;
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k] as f32 - FILTER_SLACK);
                    hi[k] = hi[k].max(p[k] as f32 + FILTER_SLACK);
                }
            }
        }
        BoxFilter {
            lo,
            hi,
            origin: f(self.origin.coords),
            normal: f(self.normal),
            x_axis: f(self.x_axis),
            z_axis: f(self.z_axis),
            half_thickness: half_thickness as f32 + FILTER_SLACK,
            x_range: [r.min.x as f32 - FILTER_SLACK, r.max.x as f32 + FILTER_SLACK],
            z_range: [r.min.y as f32 - FILTER_SLACK, r.max.y as f32 + FILTER_SLACK],
        }
    }

    /// Cuts one triangle (world points, outward unit normal): a face that is not a quad, cut
    /// by the triangle's own rule (its lone vertex), cheaper than the four-corner loop of
    /// [`CutPlane::cut_face`] and the same segment. Returns the segment `(a, b)` in plane
    /// coordinates, oriented so that the solid lies on its right (walking from `a` to `b`),
    /// and its outward unit normal (the left perpendicular), clipped to the region. Vertices on
    /// the plane count as on its positive side, as in [`face_crossings`].
    pub(super) fn cut_triangle(
        &self,
        p: &[Point3<f64>; 3],
        normal: &Vector3<f64>,
    ) -> Option<(Point2<f64>, Point2<f64>, Vector2<f64>)> {
        let d = [
            (p[0] - self.origin).dot(&self.normal),
            (p[1] - self.origin).dot(&self.normal),
            (p[2] - self.origin).dot(&self.normal),
        ];
        let (lone, j, k) = lone_vertex(&d)?;
        // d[lone] and d[j] have opposite "sides", so d[lone] - d[j] is never zero.
        let cross = |other: usize| {
            let t = d[lone] / (d[lone] - d[other]);
            p[lone] + (p[other] - p[lone]) * t
        };
        let (qa, qb) = (self.to_plane(&cross(j)), self.to_plane(&cross(k)));
        oriented_segment(
            qa,
            qb,
            &FaceTrace::new(self.vector_to_plane(normal)),
            &self.region,
        )
    }

    /// The segment where this plane crosses a face (corners `points`, world, m; outward unit
    /// `normal`) whose corners lie `depth` m from the plane along its normal, crossing the
    /// face's edges `edges` (from [`face_crossings`]): in plane coordinates, oriented so that
    /// the solid lies on its right (walking from `a` to `b`), with its outward unit normal (the
    /// left perpendicular), clipped to the region.
    pub(super) fn cut_face(
        &self,
        points: &[Point3<f64>; 4],
        depth: &[f64; 4],
        edges: [usize; 2],
        normal: &Vector3<f64>,
    ) -> Option<(Point2<f64>, Point2<f64>, Vector2<f64>)> {
        let crossing = |k: usize| {
            let next = (k + 1) % 4;
            // depth[k] and depth[next] lie on opposite sides, so their difference is not zero.
            let t = depth[k] / (depth[k] - depth[next]);
            self.to_plane(&(points[k] + (points[next] - points[k]) * t))
        };
        oriented_segment(
            crossing(edges[0]),
            crossing(edges[1]),
            &FaceTrace::new(self.vector_to_plane(normal)),
            &self.region,
        )
    }
}

/// The vertex alone on its side of a plane, for a triangle whose vertices lie at signed
/// distances `d` from it (a vertex on the plane counts as on its positive side), and the
/// other two in order: `None` when all three are on one side.
pub(super) fn lone_vertex(d: &[f64; 3]) -> Option<(usize, usize, usize)> {
    let above = [d[0] >= 0.0, d[1] >= 0.0, d[2] >= 0.0];
    let lone = if above[0] == above[1] {
        if above[1] == above[2] {
            return None;
        }
        2
    } else if above[0] == above[2] {
        1
    } else {
        0
    };
    Some((lone, (lone + 1) % 3, (lone + 2) % 3))
}

/// How a plane crosses the boundary of a face (four corners, a triangle's third repeated; edge
/// `k` runs from corner `k` to corner `k + 1`, the last back to the first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FaceCrossings {
    /// The face lies on one side of the plane.
    None,
    /// The plane crosses these two edges: the face's cut runs between them.
    Two([usize; 2]),
    /// The plane crosses all four edges: a quad not quite flat, met by a plane within rounding
    /// of its own (cut it as its two triangles). A flat convex face is crossed twice at most.
    Four,
}

/// The edges a plane crosses of a face whose corners lie at signed distances `depth` from it.
/// A corner exactly on the plane counts as on its positive side: so a face lying in the plane
/// gives nothing, one that only touches it at a corner gives nothing, and an edge lying in the
/// plane is reported once, by the face on the negative side.
pub(super) fn face_crossings(depth: &[f64; 4]) -> FaceCrossings {
    let above = depth.map(|d| d >= 0.0);
    let mut edges = [0; 2];
    let mut count = 0;
    for k in 0..4 {
        if above[k] != above[(k + 1) % 4] {
            if count < 2 {
                edges[count] = k;
            }
            count += 1;
        }
    }
    match count {
        0 => FaceCrossings::None,
        2 => FaceCrossings::Two(edges),
        _ => FaceCrossings::Four,
    }
}

/// In-plane length of a face normal below which the face counts as parallel to the plane: its
/// cuts' normals are then taken from the cut segments themselves.
const MIN_PROJECTED: f64 = 1e-6;

/// How a face meets a plane, and every plane parallel to it: the in-plane components of the
/// face's outward unit normal and, unless the face is parallel to the planes, their unit
/// vector — the outward normal of each of the face's cuts (a plane cuts a face along a line
/// square to that projection), computed once for all of them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct FaceTrace {
    /// In-plane components `(x, z)` of the face's outward unit normal.
    projected: Vector2<f64>,
    /// `projected` normalized; `None` when shorter than [`MIN_PROJECTED`].
    unit: Option<Vector2<f64>>,
}

impl FaceTrace {
    /// The trace of a face whose outward unit normal has in-plane components `projected`.
    pub(super) fn new(projected: Vector2<f64>) -> Self {
        let length = projected.norm();
        Self {
            projected,
            unit: (length >= MIN_PROJECTED).then(|| projected / length),
        }
    }
}

/// The segment between a triangle's two crossings `qa`, `qb` (plane coordinates), oriented
/// so that the solid lies on its right (its left normal, returned, points the way of the
/// face's in-plane normal), clipped to `region`; `None` if nothing longer than
/// [`MIN_SEGMENT_LENGTH`] remains.
#[inline]
pub(super) fn oriented_segment(
    qa: Point2<f64>,
    qb: Point2<f64>,
    face: &FaceTrace,
    region: &CutRegion,
) -> Option<(Point2<f64>, Point2<f64>, Vector2<f64>)> {
    const MIN_SQUARED: f64 = MIN_SEGMENT_LENGTH * MIN_SEGMENT_LENGTH;
    let dir = qb - qa;
    let length_squared = dir.norm_squared();
    if length_squared.is_nan() || length_squared < MIN_SQUARED {
        return None;
    }
    let left = Vector2::new(-dir.y, dir.x);
    let forward = left.dot(&face.projected) >= 0.0;
    let (a, b) = if forward { (qa, qb) } else { (qb, qa) };
    let n = face.unit.unwrap_or_else(|| {
        let unit = left / length_squared.sqrt();
        if forward {
            unit
        } else {
            -unit
        }
    });
    let (a, b) = clip_to_region(a, b, region)?;
    ((b - a).norm_squared() >= MIN_SQUARED).then_some((a, b, n))
}

/// `√(1 − lateral²)`: the in-plane length of a unit normal whose component along the plane's
/// normal is `lateral`.
pub(super) fn in_plane_of(lateral: f64) -> f64 {
    (1.0 - lateral * lateral).max(0.0).sqrt()
}

/// Liang–Barsky clip of segment `a → b` to the rectangle; `None` if nothing remains.
fn clip_to_region(
    a: Point2<f64>,
    b: Point2<f64>,
    r: &CutRegion,
) -> Option<(Point2<f64>, Point2<f64>)> {
    // `&`, not `&&`: the compares cost less than the branches between them.
    if (a.x >= r.min.x)
        & (a.x <= r.max.x)
        & (b.x >= r.min.x)
        & (b.x <= r.max.x)
        & (a.y >= r.min.y)
        & (a.y <= r.max.y)
        & (b.y >= r.min.y)
        & (b.y <= r.max.y)
    {
        return Some((a, b));
    }
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, a.x - r.min.x),
        (d.x, r.max.x - a.x),
        (-d.y, a.y - r.min.y),
        (d.y, r.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1).then(|| (a + d * t0, a + d * t1))
}

/// Slack of the `f32` box test, m: covers the rounding of `f32` coordinates up to the 10 km
/// scene limit, so pruning never drops a box the plane touches.
const FILTER_SLACK: f32 = 2e-3;

/// A precomputed box test for BVH pruning: separating axes are the world axes (the region's
/// AABB), the plane normal (the slab) and the two in-plane axes (the region's sides).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoxFilter {
    lo: [f32; 3],
    hi: [f32; 3],
    origin: [f32; 3],
    normal: [f32; 3],
    x_axis: [f32; 3],
    z_axis: [f32; 3],
    half_thickness: f32,
    x_range: [f32; 2],
    z_range: [f32; 2],
}

impl BoxFilter {
    /// Whether the box `[mins, maxs]` may hold a point of the slab inside the region.
    #[inline]
    pub(crate) fn may_meet(&self, mins: PVec, maxs: PVec) -> bool {
        let (mn, mx) = ([mins.x, mins.y, mins.z], [maxs.x, maxs.y, maxs.z]);
        for k in 0..3 {
            if mn[k] > self.hi[k] || mx[k] < self.lo[k] {
                return false;
            }
        }
        let c = [
            0.5 * (mn[0] + mx[0]) - self.origin[0],
            0.5 * (mn[1] + mx[1]) - self.origin[1],
            0.5 * (mn[2] + mx[2]) - self.origin[2],
        ];
        let e = [
            0.5 * (mx[0] - mn[0]),
            0.5 * (mx[1] - mn[1]),
            0.5 * (mx[2] - mn[2]),
        ];
        let proj = |a: &[f32; 3]| {
            (
                c[0] * a[0] + c[1] * a[1] + c[2] * a[2],
                e[0] * a[0].abs() + e[1] * a[1].abs() + e[2] * a[2].abs(),
            )
        };
        let (d, r) = proj(&self.normal);
        if d.abs() > r + self.half_thickness {
            return false;
        }
        let (d, r) = proj(&self.x_axis);
        if d + r < self.x_range[0] || d - r > self.x_range[1] {
            return false;
        }
        let (d, r) = proj(&self.z_axis);
        !(d + r < self.z_range[0] || d - r > self.z_range[1])
    }
}

/// One piece of the terrain's intersection with a plane, in plane coordinates.
///
/// Built by [`CutSegment::new`], which also derives what every contact law asks of a segment
/// (its in-plane factor and bounding box) once; build a new segment rather than changing one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutSegment {
    /// Start point `(x, z)`, plane frame, m.
    pub a: Point2<f64>,
    /// End point `(x, z)`, plane frame, m. Walking from `a` to `b`, the solid is on the right.
    pub b: Point2<f64>,
    /// Outward unit normal `(x, z)` of the surface, plane frame: points out of the solid.
    pub normal: Vector2<f64>,
    /// Component of the face's outward unit normal along the plane's normal: 0 where the face
    /// is square to the plane (the 2D profile is the whole story), towards ±1 where it runs
    /// nearly parallel to the plane (a curb's side seen by a plane alongside it). The in-plane
    /// part of the normal is `normal · √(1 − lateral²)`.
    pub lateral: f64,
    /// Surface material of the triangle.
    pub material: MaterialId,
    /// Index of the triangle in the terrain.
    pub triangle: u32,
    /// `√(1 − lateral²)`: the in-plane length of the face's unit normal.
    in_plane: f64,
    /// Lower corner of the segment's bounding box, plane frame, m.
    min: Point2<f64>,
    /// Upper corner of the segment's bounding box, plane frame, m.
    max: Point2<f64>,
}

impl CutSegment {
    /// The segment `a → b` (plane frame, m; solid on its right) of a face with outward unit
    /// normal `normal` in the plane and component `lateral` along the plane's normal, of
    /// `material`, from terrain triangle `triangle`.
    pub fn new(
        a: Point2<f64>,
        b: Point2<f64>,
        normal: Vector2<f64>,
        lateral: f64,
        material: MaterialId,
        triangle: u32,
    ) -> Self {
        Self::of_face(
            a,
            b,
            normal,
            lateral,
            in_plane_of(lateral),
            material,
            triangle,
        )
    }

    /// [`Self::new`] with the face's `in_plane` = [`in_plane_of`]`(lateral)` already known
    /// (worked out once per face, not once per cut).
    #[inline]
    pub(super) fn of_face(
        a: Point2<f64>,
        b: Point2<f64>,
        normal: Vector2<f64>,
        lateral: f64,
        in_plane: f64,
        material: MaterialId,
        triangle: u32,
    ) -> Self {
        Self {
            a,
            b,
            normal,
            lateral,
            material,
            triangle,
            in_plane,
            min: a.inf(&b),
            max: a.sup(&b),
        }
    }

    /// In-plane length of the face's unit normal, `√(1 − lateral²)`: a face oblique to the
    /// plane is met at this fraction of the depth measured in the plane.
    pub fn in_plane(&self) -> f64 {
        self.in_plane
    }

    /// How fast a penetration into the face (measured along its normal, as the contact laws
    /// do) grows per metre along the plane's normal, dimensionless: `−lateral`. A belt strip
    /// wider than a line meets a face tilted across it deeper on one side than at its centre
    /// (`vehicle::tracked::strip::slope_shift`). Only for ground the belt stands on: faded
    /// out linearly from 30° across the plane (`|lateral|` 0.5) to a side face's
    /// [`super::SIDE_FACE_MIN_COS`] (≈ 45°), where the face is a wall or a curb's side that
    /// the strip split (`vehicle::tracked::strip`) places instead.
    pub fn across_slope(&self) -> f64 {
        const FULL: f64 = 0.5;
        const PER_FADE: f64 = 1.0 / (super::SIDE_FACE_MIN_COS - FULL);
        let across = self.lateral.abs();
        if across <= FULL {
            return -self.lateral;
        }
        -self.lateral * ((super::SIDE_FACE_MIN_COS - across) * PER_FADE).max(0.0)
    }

    /// Lower and upper corners of the segment's bounding box, plane frame, m.
    pub fn bounds(&self) -> (Point2<f64>, Point2<f64>) {
        (self.min, self.max)
    }

    /// Unit direction from `a` to `b`, plane frame: `normal` turned a right angle clockwise
    /// (the solid lies on the right). The cut's normal is the face's, exact to rounding, so
    /// this costs no root and stays exact for the shortest segments, where `b − a` is mostly
    /// rounding.
    pub fn direction(&self) -> Vector2<f64> {
        Vector2::new(self.normal.y, -self.normal.x)
    }
}
