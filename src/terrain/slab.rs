//! A robot's candidate faces (triangles and convex quads, see `faces`) expressed once per step
//! in the frame its track planes share, so that each plane (and each edge of its strips) is
//! cut in 2D.
//!
//! Why: every track plane of a robot is square to the body's y axis — the parallel planes of
//! one belt, the other belt's, the flippers' (they turn about axes along body y) — so a
//! terrain vertex has the same plane coordinates `(x, z)` in all of them and only its distance
//! along the normal differs, by the plane's offset. Projecting every candidate vertex once per
//! step (three dot products) serves every belt: a belt's slab (its planes with their strips)
//! then picks the projected faces that reach into it and overlap its region, and each of
//! its planes is cut with one subtraction per vertex and 2D interpolation. The belts of a
//! robot mostly see the same faces (a stair tread spans both), so this replaces a
//! projection per belt, and the 3D cut of every face for every plane.

use nalgebra::{Point2, Vector2};

use super::cut::{in_plane_of, lone_vertex, oriented_segment, FaceTrace};
use super::{CutPlane, CutRegion, CutSegment, MaterialId, Terrain, SIDE_FACE_MIN_COS};

/// One candidate face in the shared frame.
#[derive(Debug, Clone, Copy)]
struct SlabFace {
    /// Corners in plane coordinates `(x, z)`, m (a triangle's third repeated).
    points: [Point2<f64>; 4],
    /// Signed distance of each corner from the frame's origin along its normal, m.
    depth: [f64; 4],
    /// The face's in-plane normal and its cuts' unit normal.
    face: FaceTrace,
    /// Component of the face's outward unit normal along the frame's normal.
    lateral: f64,
    /// `√(1 − lateral²)` ([`in_plane_of`]).
    in_plane: f64,
    /// Smallest and largest of `depth`, m.
    depth_range: (f64, f64),
    /// Lower and upper corner of the box round `points`, m.
    bounds: (Point2<f64>, Point2<f64>),
    material: MaterialId,
    /// The face's leading triangle.
    triangle: u32,
    /// Whether the face is a quad (else a lone triangle, cut by its own rule).
    quad: bool,
}

/// Candidate faces projected into a frame shared by parallel planes, and the slab of them
/// (one belt's planes) selected for cutting. Scratch owned by the caller: projected and
/// selected every step, no allocation once it has grown.
#[derive(Debug, Clone, Default)]
pub struct SlabTriangles {
    /// Every projected candidate.
    faces: Vec<SlabFace>,
    /// Indices into `faces` of those the selected slab holds.
    selected: Vec<u32>,
    /// The cut region of the selected slab's planes (plane coordinates); empty before the
    /// first selection.
    region: Option<CutRegion>,
    /// Offset of the selected slab's mid-plane from the frame's origin along its normal, m.
    mid: f64,
    /// Whether any selected triangle is a side face (most slabs have none: then
    /// [`Self::side_faces`] has nothing to look for).
    any_side_face: bool,
    /// The selected faces that no [`CullLine`] of the last [`Self::cull`] puts wholly beyond
    /// itself, in selection order.
    kept: Vec<u32>,
    /// Whether cuts take only `kept` (after [`Self::cull`]) or every selected face.
    culled: bool,
}

/// A line in plane coordinates `(x, z)` of a slab, and the side of it where no element of the
/// planes reaches: the points `p` with `p · normal > offset`. A face whose corners all lie there
/// cannot touch anything the planes carry (see [`SlabTriangles::cull`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CullLine {
    /// Unit normal pointing away from the elements, plane frame.
    pub normal: Vector2<f64>,
    /// The line's offset along `normal`, m.
    pub offset: f64,
}

impl CullLine {
    /// Whether `p` (plane coordinates, m) lies beyond the line.
    pub fn beyond(&self, p: &Point2<f64>) -> bool {
        p.coords.dot(&self.normal) > self.offset
    }
}

impl SlabTriangles {
    /// Projects `candidates` (faces of `terrain` by their leading triangles, as
    /// [`Terrain::candidates`] gives them; indices beyond it are skipped) into the frame of
    /// `frame` (its origin, axes and normal; its region is not used), and clears the selection.
    /// Every later slab is parallel to `frame`.
    pub fn project(&mut self, terrain: &Terrain, frame: &CutPlane, candidates: &[u32]) {
        self.faces.clear();
        self.selected.clear();
        self.culled = false;
        self.region = None;
        self.any_side_face = false;
        let normal = frame.normal();
        let origin = frame.origin();
        let normals = terrain.normals();
        let materials = terrain.triangle_materials();
        for &t in candidates {
            let i = t as usize;
            if i >= normals.len() {
                continue;
            }
            // Each corner relative to the frame's origin once, for its depth and its plane
            // coordinates alike; a lone triangle's third corner is copied, not projected again.
            let quad = terrain.is_quad(t);
            let (points, depth) = if quad {
                let rel = terrain.face_points(t).map(|p| p - origin);
                (
                    rel.map(|r| frame.offset_to_plane(&r)),
                    rel.map(|r| r.dot(&normal)),
                )
            } else {
                let rel = terrain.triangle_points(i).map(|p| p - origin);
                let points = rel.map(|r| frame.offset_to_plane(&r));
                let depth = rel.map(|r| r.dot(&normal));
                (
                    [points[0], points[1], points[2], points[2]],
                    [depth[0], depth[1], depth[2], depth[2]],
                )
            };
            let n = normals[i];
            let lateral = n.dot(&normal).clamp(-1.0, 1.0);
            self.faces.push(SlabFace {
                quad,
                points,
                depth,
                face: FaceTrace::new(frame.vector_to_plane(&n)),
                lateral,
                in_plane: in_plane_of(lateral),
                depth_range: (smallest(depth), largest(depth)),
                bounds: (
                    Point2::new(smallest(points.map(|p| p.x)), smallest(points.map(|p| p.y))),
                    Point2::new(largest(points.map(|p| p.x)), largest(points.map(|p| p.y))),
                ),
                material: materials[i],
                triangle: t,
            });
        }
    }

    /// Selects the slab of half-thickness `half` m around the plane `mid` m from the frame
    /// along its normal, limited to `region` (plane coordinates): the projected triangles
    /// that reach into it and overlap the region. Later cuts are planes within this slab.
    pub fn select(&mut self, mid: f64, half: f64, region: CutRegion) {
        self.selected.clear();
        self.culled = false;
        self.region = Some(region);
        self.mid = mid;
        self.any_side_face = false;
        for (k, t) in self.faces.iter().enumerate() {
            // Compares only: this runs for every candidate of every belt every step.
            let (lo, hi) = t.bounds;
            let apart = (t.depth_range.0 - mid > half)
                | (t.depth_range.1 - mid < -half)
                | (lo.x > region.max.x)
                | (hi.x < region.min.x)
                | (lo.y > region.max.y)
                | (hi.y < region.min.y);
            if apart {
                continue;
            }
            self.any_side_face |= t.lateral.abs() >= SIDE_FACE_MIN_COS;
            self.selected.push(k as u32);
        }
    }

    /// Projects those `candidates` that reach into the slab of half-thickness `half` m
    /// around `plane` and overlap its region: [`Self::project`] into `plane`'s frame, then
    /// [`Self::select`] the slab around it.
    pub fn fill(&mut self, terrain: &Terrain, plane: &CutPlane, half: f64, candidates: &[u32]) {
        self.project(terrain, plane, candidates);
        self.select(0.0, half, plane.region());
    }

    /// Leaves out of later cuts every selected face whose corners all lie beyond one of
    /// `lines` (the faces kept are listed in selection order), until [`Self::uncull`] or the
    /// next selection. Callers pass lines beyond which the planes
    /// carry nothing, so the faces left out are those no element can touch; a contact rule that
    /// also looks at neighbouring faces must check that the points it looks at are not beyond
    /// the lines ([`CullLine::beyond`]), or cut again without culling.
    pub fn cull(&mut self, lines: &[CullLine]) {
        self.kept.clear();
        for &k in &self.selected {
            let points = &self.faces[k as usize].points;
            let beyond = lines
                .iter()
                .any(|line| points.iter().all(|p| line.beyond(p)));
            if !beyond {
                self.kept.push(k);
            }
        }
        self.culled = true;
    }

    /// Makes later cuts take every selected face again (the faces [`Self::cull`] kept stay
    /// listed: [`Self::recull`] takes them up again).
    pub fn uncull(&mut self) {
        self.culled = false;
    }

    /// Makes later cuts take only the faces the last [`Self::cull`] of this selection kept.
    pub fn recull(&mut self) {
        self.culled = true;
    }

    /// The faces cuts take (the selected ones, or those culling kept), in projection order.
    fn slab(&self) -> impl Iterator<Item = &SlabFace> {
        self.listed(if self.culled {
            &self.kept
        } else {
            &self.selected
        })
    }

    /// The projected faces of `list` (indices into `faces`), in its order.
    fn listed<'a>(&'a self, list: &'a [u32]) -> impl Iterator<Item = &'a SlabFace> {
        list.iter().map(|&k| &self.faces[k as usize])
    }

    /// Cuts the selected faces (those kept, after [`Self::cull`]) with the plane `offset` m
    /// from the slab's mid-plane (within the slab; the mid-plane's `shifted(offset)`): clears
    /// `out` and fills it as [`Terrain::cut_candidates`] fills it for that plane (same
    /// segments and orientation, in projection order, up to rounding). `terrain` names the
    /// triangles of a quad cut in two.
    pub fn cut(&self, terrain: &Terrain, offset: f64, out: &mut Vec<CutSegment>) {
        out.clear();
        let Some(region) = self.region else {
            return;
        };
        let shift = self.mid + offset;
        for t in self.slab() {
            if !t.quad {
                if let Some((a, b, normal)) = cut_triangle(t, shift, &region) {
                    out.push(CutSegment::of_face(
                        a, b, normal, t.lateral, t.in_plane, t.material, t.triangle,
                    ));
                }
                continue;
            }
            let depth = t.depth.map(|d| d - shift);
            terrain.faces.cut_pieces(
                t.triangle,
                &t.points,
                &depth,
                |triangle, points, depth, edges| {
                    push_cut(t, triangle, points, depth, edges, &region, out);
                },
            );
        }
    }

    /// Clears `out` and fills it with the side faces (|n · normal| ≥ [`SIDE_FACE_MIN_COS`],
    /// by their leading triangles) among the selected faces that reach into the strip
    /// `offset ± half` m (from the slab's mid-plane): what `Terrain::side_faces` finds for the
    /// plane at `offset`. Culling does not apply: these faces are met by rays, not cuts.
    pub fn side_faces(&self, offset: f64, half: f64, out: &mut Vec<u32>) {
        out.clear();
        if !self.any_side_face {
            return;
        }
        let shift = self.mid + offset;
        for t in self.listed(&self.selected) {
            if t.lateral.abs() < SIDE_FACE_MIN_COS {
                continue;
            }
            let (lo, hi) = t.depth_range;
            if (lo - shift <= half) & (hi - shift >= -half) {
                out.push(t.triangle);
            }
        }
    }
}

/// The smallest of a face's four values (by compares: NaN-aware `f64::min` costs more, and a
/// NaN corner cuts nothing anyway).
fn smallest(v: [f64; 4]) -> f64 {
    let low = if v[1] < v[0] { v[1] } else { v[0] };
    let high = if v[3] < v[2] { v[3] } else { v[2] };
    if high < low {
        high
    } else {
        low
    }
}

/// The largest of a face's four values (by compares, as [`smallest`]).
fn largest(v: [f64; 4]) -> f64 {
    let high = if v[1] > v[0] { v[1] } else { v[0] };
    let low = if v[3] > v[2] { v[3] } else { v[2] };
    if low > high {
        low
    } else {
        high
    }
}

/// Appends the cut of the projected face `t` (or of its triangle `triangle`, corners
/// `points`) whose corners lie `depth` m from the plane, crossing `edges`: the rule of
/// [`CutPlane`]'s cut (solid on the segment's right, clipped to the region), in 2D.
fn push_cut(
    t: &SlabFace,
    triangle: u32,
    points: &[Point2<f64>; 4],
    depth: &[f64; 4],
    edges: [usize; 2],
    region: &CutRegion,
    out: &mut Vec<CutSegment>,
) {
    let crossing = |k: usize| {
        let next = (k + 1) % 4;
        let s = depth[k] / (depth[k] - depth[next]);
        points[k] + (points[next] - points[k]) * s
    };
    if let Some((a, b, normal)) =
        oriented_segment(crossing(edges[0]), crossing(edges[1]), &t.face, region)
    {
        out.push(CutSegment::of_face(
            a, b, normal, t.lateral, t.in_plane, t.material, triangle,
        ));
    }
}

/// The cut of a projected lone triangle by the plane `offset` m from the frame's origin: the
/// rule of [`CutPlane`]'s triangle cut (its lone vertex; vertices on the plane count as on its
/// positive side, solid on the segment's right, clipped to the region), in 2D.
fn cut_triangle(
    t: &SlabFace,
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
