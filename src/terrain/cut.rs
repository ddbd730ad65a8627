//! Plane cuts: a plane pose and a rectangular region in it, and the terrain segments found there.

use nalgebra::{Isometry3, Point2, Point3, Vector2, Vector3};
use parry3d::math::Vector as PVec;

use super::MaterialId;

/// Segments shorter than this (m) are a plane touching a triangle at a vertex; they are dropped.
const MIN_SEGMENT_LENGTH: f64 = 1e-12;
/// Slack added to box tests (m) so `f64` arithmetic in the test itself never prunes a box that
/// touches the plane.
const BOX_TEST_SLACK: f64 = 1e-9;

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
        let d = p - self.origin;
        Point2::new(d.dot(&self.x_axis), d.dot(&self.z_axis))
    }

    /// World point of plane coordinates `(x, z)`, m.
    pub fn to_world(&self, q: &Point2<f64>) -> Point3<f64> {
        self.origin + self.x_axis * q.x + self.z_axis * q.y
    }

    /// World direction of a plane-frame direction `(x, z)`.
    pub fn vector_to_world(&self, v: &Vector2<f64>) -> Vector3<f64> {
        self.x_axis * v.x + self.z_axis * v.y
    }

    /// Conservative test: can the axis-aligned box `[mins, maxs]` (world, m) contain a point of
    /// the plane inside the region? Separating axes: the plane normal and the two in-plane axes.
    pub(crate) fn may_meet_box(&self, mins: PVec, maxs: PVec) -> bool {
        let lo = Vector3::new(mins.x as f64, mins.y as f64, mins.z as f64);
        let hi = Vector3::new(maxs.x as f64, maxs.y as f64, maxs.z as f64);
        let c = (lo + hi) * 0.5 - self.origin.coords;
        let e = (hi - lo) * 0.5;
        let reach = |axis: &Vector3<f64>| e.dot(&axis.abs()) + BOX_TEST_SLACK;
        if self.normal.dot(&c).abs() > reach(&self.normal) {
            return false;
        }
        let (cx, rx) = (self.x_axis.dot(&c), reach(&self.x_axis));
        if cx + rx < self.region.min.x || cx - rx > self.region.max.x {
            return false;
        }
        let (cz, rz) = (self.z_axis.dot(&c), reach(&self.z_axis));
        !(cz + rz < self.region.min.y || cz - rz > self.region.max.y)
    }

    /// Cuts one triangle (world points, outward unit normal). Returns the segment `(a, b)` in
    /// plane coordinates, oriented so that the solid lies on its right (walking from `a` to
    /// `b`), and its outward unit normal (the left perpendicular), clipped to the region.
    ///
    /// Vertices exactly on the plane count as being on its positive side. So a triangle that
    /// lies in the plane gives nothing, one that only touches it at a vertex gives nothing, and
    /// an edge lying in the plane is reported once, by the triangle on the negative side.
    pub(crate) fn cut_triangle(
        &self,
        p: &[Point3<f64>; 3],
        normal: &Vector3<f64>,
    ) -> Option<(Point2<f64>, Point2<f64>, Vector2<f64>)> {
        let d = [
            (p[0] - self.origin).dot(&self.normal),
            (p[1] - self.origin).dot(&self.normal),
            (p[2] - self.origin).dot(&self.normal),
        ];
        let above = [d[0] >= 0.0, d[1] >= 0.0, d[2] >= 0.0];
        // The vertex alone on its side of the plane.
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
        let (j, k) = ((lone + 1) % 3, (lone + 2) % 3);
        // d[lone] and d[j] have opposite "sides", so d[lone] - d[j] is never zero.
        let cross = |other: usize| {
            let t = d[lone] / (d[lone] - d[other]);
            p[lone] + (p[other] - p[lone]) * t
        };
        let (qa, qb) = (self.to_plane(&cross(j)), self.to_plane(&cross(k)));
        let dir = qb - qa;
        let len = dir.norm();
        if len.is_nan() || len < MIN_SEGMENT_LENGTH {
            return None;
        }
        let left = Vector2::new(-dir.y, dir.x) / len;
        let projected = Vector2::new(normal.dot(&self.x_axis), normal.dot(&self.z_axis));
        let (a, b, n) = if left.dot(&projected) >= 0.0 {
            (qa, qb, left)
        } else {
            (qb, qa, -left)
        };
        let (a, b) = clip_to_region(a, b, &self.region)?;
        ((b - a).norm() >= MIN_SEGMENT_LENGTH).then_some((a, b, n))
    }
}

/// Liang–Barsky clip of segment `a → b` to the rectangle; `None` if nothing remains.
fn clip_to_region(
    a: Point2<f64>,
    b: Point2<f64>,
    r: &CutRegion,
) -> Option<(Point2<f64>, Point2<f64>)> {
    if a.x >= r.min.x
        && a.x <= r.max.x
        && b.x >= r.min.x
        && b.x <= r.max.x
        && a.y >= r.min.y
        && a.y <= r.max.y
        && b.y >= r.min.y
        && b.y <= r.max.y
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

/// One piece of the terrain's intersection with a plane, in plane coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CutSegment {
    /// Start point `(x, z)`, plane frame, m.
    pub a: Point2<f64>,
    /// End point `(x, z)`, plane frame, m. Walking from `a` to `b`, the solid is on the right.
    pub b: Point2<f64>,
    /// Outward unit normal `(x, z)` of the surface, plane frame: points out of the solid.
    pub normal: Vector2<f64>,
    /// Surface material of the triangle.
    pub material: MaterialId,
    /// Index of the triangle in the terrain.
    pub triangle: u32,
}
