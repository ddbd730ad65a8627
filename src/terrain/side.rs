//! Side faces: terrain faces that a track plane meets edge-on (a curb's side, a wall, a stair's
//! side wall, a rock's flank) and where along the plane's normal they lie.
//!
//! A plane cut samples the terrain at one lateral position. Where a steep face runs nearly
//! parallel to the plane, the cut's profile changes all at once as the plane crosses that face;
//! the track model uses these queries to find such faces inside the strip of belt a plane
//! stands for, and the lateral position where a face splits it (see `vehicle::tracked::strip`).

use nalgebra::{Isometry3, Point3, Vector3};
use parry3d::math::Vector as PVec;
use parry3d::query::Ray;

use super::Terrain;

/// The cosine, between a face's normal and a plane's normal, from which the face counts as a
/// side face (the face is steeper than ≈ 45° relative to the plane's own direction).
pub const SIDE_FACE_MIN_COS: f64 = 0.7;

/// A crossing of a lateral ray with a side face.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideCrossing {
    /// Distance from the ray's origin to the face, m.
    pub distance: f64,
    /// |cosine| between the face's normal and the ray (1: the face is square to the ray).
    pub cos: f64,
    /// The face's outward unit normal, world frame.
    pub normal: Vector3<f64>,
}

impl Terrain {
    /// Clears `out` and fills it with those `candidates` (faces by their leading triangles)
    /// that are side faces of `plane` (|n · plane normal| ≥ [`SIDE_FACE_MIN_COS`]), reach into
    /// the slab of half-thickness `half` m around it, and overlap its region (plane
    /// coordinates). Does not allocate once `out` has grown to the largest list seen. The 3D
    /// reference that [`super::SlabTriangles::side_faces`] (what the track model uses) is
    /// tested against.
    #[cfg(test)]
    pub(crate) fn side_faces(
        &self,
        plane: &super::CutPlane,
        half: f64,
        candidates: &[u32],
        out: &mut Vec<u32>,
    ) {
        out.clear();
        let normal = plane.normal();
        let region = plane.region();
        for &t in candidates {
            let i = t as usize;
            if i >= self.triangles.len() || self.normals[i].dot(&normal).abs() < SIDE_FACE_MIN_COS {
                continue;
            }
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            let (mut x0, mut x1, mut z0, mut z1) = (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            );
            for v in &self.face_points(t) {
                let d = (v - plane.origin()).dot(&normal);
                lo = lo.min(d);
                hi = hi.max(d);
                let q = plane.to_plane(v);
                x0 = x0.min(q.x);
                x1 = x1.max(q.x);
                z0 = z0.min(q.y);
                z1 = z1.max(q.y);
            }
            let in_slab = lo <= half && hi >= -half;
            let in_region = x0 <= region.max.x
                && x1 >= region.min.x
                && z0 <= region.max.y
                && z1 >= region.min.y;
            if in_slab && in_region {
                out.push(t);
            }
        }
    }

    /// The nearest crossing of the ray `origin + s·direction`, 0 ≤ s ≤ `length` m (`direction`
    /// a unit vector, world frame), with one of the faces `faces` (by their leading triangles);
    /// `None` if it meets none.
    pub fn lateral_crossing(
        &self,
        faces: &[u32],
        origin: &Point3<f64>,
        direction: &Vector3<f64>,
        length: f64,
    ) -> Option<SideCrossing> {
        let mut best: Option<SideCrossing> = None;
        let triangles = faces
            .iter()
            .filter(|&&t| (t as usize) < self.triangles.len())
            .flat_map(|&t| self.face_triangles(t));
        for t in triangles {
            let i = t as usize;
            let [a, b, c] = self.triangle_points(i);
            let Some(s) = ray_triangle(origin, direction, &a, &b, &c) else {
                continue;
            };
            if (0.0..=length).contains(&s) && best.is_none_or(|x| s < x.distance) {
                best = Some(SideCrossing {
                    distance: s,
                    cos: self.normals[i].dot(direction).abs(),
                    normal: self.normals[i],
                });
            }
        }
        best
    }
}

impl Terrain {
    /// Whether the straight line from `from` to `to` (world, m) meets no terrain triangle
    /// (the BVH prunes the search to the boxes the segment passes through). End points on a
    /// surface do not block: the 1 mm at either end is not tested.
    pub fn line_of_sight(&self, from: &Point3<f64>, to: &Point3<f64>) -> bool {
        const END_CLEARANCE: f64 = 1e-3;
        let d = to - from;
        let length = d.norm();
        if length.is_nan() || length <= 2.0 * END_CLEARANCE {
            return true;
        }
        self.first_hit(from, &(d / length), END_CLEARANCE, length - END_CLEARANCE)
            .is_none()
    }

    /// Whether a camera at `pose` (world; x along its optical axis) with vertical field of
    /// view `fov` (rad) sees `target` (world, m) within `range` m and `angle` rad of its axis
    /// (and inside half its field), with a clear line of sight over the terrain: an
    /// observation goal's test, and what the trial pilot plans its vantage points by.
    pub fn camera_sees(
        &self,
        pose: &Isometry3<f64>,
        fov: f64,
        target: &Point3<f64>,
        range: f64,
        angle: f64,
    ) -> bool {
        let eye = Point3::from(pose.translation.vector);
        let to = target - eye;
        let distance = to.norm();
        let axis = pose.rotation * Vector3::x();
        let off = (axis.dot(&to) / distance.max(1e-9)).clamp(-1.0, 1.0).acos();
        distance <= range && off <= angle.min(0.5 * fov) && self.line_of_sight(&eye, target)
    }

    /// Height of the highest terrain surface below `from` (world, m), searching down to
    /// `depth` m below it; `None` over a hole.
    pub fn ground_below(&self, from: &Point3<f64>, depth: f64) -> Option<f64> {
        self.first_hit(from, &-Vector3::z(), 0.0, depth)
            .map(|s| from.z - s)
    }

    /// Distance along the unit ray `from + s·dir` (world, m) to the first terrain surface it
    /// meets within `range` m, if any: what a range sensor's ray returns.
    pub fn ray_distance(&self, from: &Point3<f64>, dir: &Vector3<f64>, range: f64) -> Option<f64> {
        self.first_hit(from, dir, 0.0, range)
    }

    /// Distance `s` in `near..=far` along the unit ray `from + s·dir` to the first terrain
    /// triangle it meets (the BVH prunes the search), if any.
    fn first_hit(
        &self,
        from: &Point3<f64>,
        dir: &Vector3<f64>,
        near: f64,
        far: f64,
    ) -> Option<f64> {
        let ray = Ray::new(
            PVec::new(from.x as f32, from.y as f32, from.z as f32),
            PVec::new(dir.x as f32, dir.y as f32, dir.z as f32),
        );
        let hit = self.bvh().cast_ray(&ray, far as f32, |leaf, _best| {
            let [a, b, c] = self.triangle_points(leaf as usize);
            ray_triangle(from, dir, &a, &b, &c)
                .filter(|s| (near..=far).contains(s))
                .map(|s| s as f32)
        });
        hit.map(|(_, s)| f64::from(s))
    }
}

/// Parameter `s` at which the line `origin + s·direction` meets triangle `(a, b, c)`
/// (Möller–Trumbore, edges included); `None` when the line is parallel to it or misses.
fn ray_triangle(
    origin: &Point3<f64>,
    direction: &Vector3<f64>,
    a: &Point3<f64>,
    b: &Point3<f64>,
    c: &Point3<f64>,
) -> Option<f64> {
    let (e1, e2) = (b - a, c - a);
    let p = direction.cross(&e2);
    let det = e1.dot(&p);
    if det.abs() < 1e-15 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - a;
    let u = s.dot(&p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(&e1);
    let v = direction.dot(&q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some(e2.dot(&q) * inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_meets_a_triangle_at_its_plane_and_misses_outside() {
        let (a, b, c) = (
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 1.0),
        );
        let o = Point3::new(0.2, 0.0, 0.2);
        let s = ray_triangle(&o, &Vector3::y(), &a, &b, &c).expect("hit");
        assert!((s - 1.0).abs() < 1e-12);
        let s = ray_triangle(&o, &-Vector3::y(), &a, &b, &c).expect("line meets behind");
        assert!((s + 1.0).abs() < 1e-12);
        assert!(ray_triangle(&Point3::new(0.8, 0.0, 0.8), &Vector3::y(), &a, &b, &c).is_none());
        assert!(
            ray_triangle(&o, &Vector3::x(), &a, &b, &c).is_none(),
            "parallel"
        );
    }
}
