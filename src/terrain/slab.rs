//! One belt's candidate triangles expressed once per step in the frame of the slab that holds
//! its parallel track planes, so that each plane of the belt (and each edge of its strips) is
//! cut in 2D.
//!
//! Why: the planes of one belt are parallel and share their in-plane axes, so a terrain vertex
//! has the same plane coordinates `(x, z)` in all of them and only its distance along the
//! normal differs, by the plane's offset. Projecting every candidate vertex once (three dot
//! products) and cutting each plane with one subtraction per vertex and 2D interpolation
//! replaces the 3D cut of every triangle for every plane. Triangles that no plane of the slab
//! can meet, or that lie outside the cut region, are dropped while projecting.

use nalgebra::{Point2, Vector2};

use super::cut::{lone_vertex, oriented_segment, FaceTrace};
use super::{CutPlane, CutRegion, CutSegment, MaterialId, Terrain, SIDE_FACE_MIN_COS};

/// One candidate triangle in the slab's frame.
#[derive(Debug, Clone, Copy)]
struct SlabTriangle {
    /// Vertices in plane coordinates `(x, z)`, m.
    points: [Point2<f64>; 3],
    /// Signed distance of each vertex from the slab's mid-plane along its normal, m.
    depth: [f64; 3],
    /// The face's in-plane normal and its cuts' unit normal.
    face: FaceTrace,
    /// Component of the face's outward unit normal along the slab's normal.
    lateral: f64,
    material: MaterialId,
    triangle: u32,
}

/// The candidate triangles of one slab (a belt's parallel planes), projected into its frame.
/// Scratch owned by the caller: refilled every step, no allocation once it has grown.
#[derive(Debug, Clone, Default)]
pub struct SlabTriangles {
    /// The cut region of the slab's planes (plane coordinates); empty before the first fill.
    region: Option<CutRegion>,
    triangles: Vec<SlabTriangle>,
    /// Whether any projected triangle is a side face (most slabs have none: then
    /// [`Self::side_faces`] has nothing to look for).
    any_side_face: bool,
}

impl SlabTriangles {
    /// Projects those `candidates` (triangle indices of `terrain`) that reach into the slab of
    /// half-thickness `half` m around `plane` and overlap its region. `plane` is the slab's
    /// mid-plane; every later cut is a plane parallel to it, within the slab.
    pub fn fill(&mut self, terrain: &Terrain, plane: &CutPlane, half: f64, candidates: &[u32]) {
        self.triangles.clear();
        self.any_side_face = false;
        let region = plane.region();
        self.region = Some(region);
        let normal = plane.normal();
        let origin = plane.origin();
        let normals = terrain.normals();
        let materials = terrain.triangle_materials();
        for &t in candidates {
            let i = t as usize;
            if i >= normals.len() {
                continue;
            }
            // Each vertex relative to the plane's origin once, for its depth and its plane
            // coordinates alike.
            let p = terrain.triangle_points(i);
            let rel = [p[0] - origin, p[1] - origin, p[2] - origin];
            let depth = [
                rel[0].dot(&normal),
                rel[1].dot(&normal),
                rel[2].dot(&normal),
            ];
            if all_above(&depth, half) | all_below(&depth, -half) {
                continue;
            }
            let points = [
                plane.offset_to_plane(&rel[0]),
                plane.offset_to_plane(&rel[1]),
                plane.offset_to_plane(&rel[2]),
            ];
            if !overlaps(&points, &region) {
                continue;
            }
            let n = normals[i];
            let lateral = n.dot(&normal).clamp(-1.0, 1.0);
            self.any_side_face |= lateral.abs() >= SIDE_FACE_MIN_COS;
            self.triangles.push(SlabTriangle {
                points,
                depth,
                face: FaceTrace::new(plane.vector_to_plane(&n)),
                lateral,
                material: materials[i],
                triangle: t,
            });
        }
    }

    /// Cuts the projected triangles with the plane `offset` m from the mid-plane (within the
    /// slab; the mid-plane's `shifted(offset)`): clears `out` and fills it as
    /// [`Terrain::cut_candidates`] fills it for that plane (same segments, orientation and
    /// order, up to rounding).
    pub fn cut(&self, offset: f64, out: &mut Vec<CutSegment>) {
        out.clear();
        let Some(region) = self.region else {
            return;
        };
        for t in &self.triangles {
            if let Some((a, b, normal)) = cut_triangle(t, offset, &region) {
                out.push(CutSegment::new(
                    a, b, normal, t.lateral, t.material, t.triangle,
                ));
            }
        }
    }

    /// Clears `out` and fills it with the side faces (|n · normal| ≥ [`SIDE_FACE_MIN_COS`])
    /// among the projected triangles that reach into the strip `offset ± half` m and overlap
    /// the region: what `Terrain::side_faces` finds for the plane at `offset`.
    pub fn side_faces(&self, offset: f64, half: f64, out: &mut Vec<u32>) {
        out.clear();
        if !self.any_side_face {
            return;
        }
        for t in &self.triangles {
            if t.lateral.abs() < SIDE_FACE_MIN_COS {
                continue;
            }
            let d = t.depth.map(|d| d - offset);
            if !(all_above(&d, half) | all_below(&d, -half)) {
                out.push(t.triangle);
            }
        }
    }
}

/// Whether every value exceeds `limit`.
fn all_above(v: &[f64; 3], limit: f64) -> bool {
    (v[0] > limit) & (v[1] > limit) & (v[2] > limit)
}

/// Whether every value is below `limit`.
fn all_below(v: &[f64; 3], limit: f64) -> bool {
    (v[0] < limit) & (v[1] < limit) & (v[2] < limit)
}

/// Whether the triangle's bounding box in plane coordinates meets the region: no side of the
/// region has all three vertices beyond it. Compares only (a NaN-aware `min`/`max` costs
/// several instructions each, and this runs for every candidate triangle every step).
fn overlaps(points: &[Point2<f64>; 3], region: &CutRegion) -> bool {
    let xs = [points[0].x, points[1].x, points[2].x];
    let zs = [points[0].y, points[1].y, points[2].y];
    !(all_above(&xs, region.max.x)
        | all_below(&xs, region.min.x)
        | all_above(&zs, region.max.y)
        | all_below(&zs, region.min.y))
}

/// The cut of one projected triangle by the plane `offset` from the mid-plane: the rule of
/// [`CutPlane`]'s cut (vertices on the plane count as on its positive side, solid on the
/// segment's right, clipped to the region), in 2D.
fn cut_triangle(
    t: &SlabTriangle,
    offset: f64,
    region: &CutRegion,
) -> Option<(Point2<f64>, Point2<f64>, Vector2<f64>)> {
    let d = [
        t.depth[0] - offset,
        t.depth[1] - offset,
        t.depth[2] - offset,
    ];
    let (lone, j, k) = lone_vertex(&d)?;
    let p = &t.points;
    let cross = |other: usize| {
        let s = d[lone] / (d[lone] - d[other]);
        p[lone] + (p[other] - p[lone]) * s
    };
    oriented_segment(cross(j), cross(k), &t.face, region)
}
