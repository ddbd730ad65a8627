//! The terrain of a scene: one triangle mesh with a material per triangle, indexed by parry's
//! BVH, and the plane cut that turns it into 2D segments in a track plane (seed 004, §3.2–3.3).
//! The cut works on faces: a triangle, or two coplanar triangles making a convex quad
//! (`faces`), so a mesh's quads cut in one segment each.
//!
//! Geometry is kept in `f64` so that cut vertices are exact to well below 1e-5 m anywhere in a
//! scene; the BVH stores `f32` boxes rounded outward, so pruning is conservative.

mod buried;
mod cut;
mod faces;
mod look;
mod side;
mod slab;

pub use buried::buried_triangles;
pub use cut::{CutPlane, CutRegion, CutSegment};
pub use look::{SurfaceLook, TextureKind};
pub use side::{SideCrossing, SIDE_FACE_MIN_COS};
pub use slab::{CullLine, SlabTriangles};

use nalgebra::{Point3, Vector3};
use parry3d::bounding_volume::Aabb;
use parry3d::math::Vector as PVec;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};

use faces::FaceTable;

/// Index of a [`SurfaceMaterial`] in [`Terrain::materials`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct MaterialId(pub u16);

/// What a surface is made of, as far as the track model and the viewer care.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceMaterial {
    /// Name used by scene files to refer to it.
    pub name: String,
    /// Coulomb friction coefficient μ of a rubber track on this surface (dimensionless).
    pub friction: f64,
    /// Ground contact stiffness per unit penetration area of the plane track model, N/m²;
    /// `None` for a surface much stiffer than the belt (concrete, steel), which then sets the
    /// contact stiffness alone.
    pub stiffness: Option<f64>,
    /// Radius to which this surface's corners are rounded or worn, m: meshes model corners
    /// sharp, and a belt's grousers hook an edge according to its radius (0: sharp; a stair
    /// nosing's leading edge is at most 14.3 mm by building codes; see `track::grouser`).
    pub edge_radius: f64,
    /// Display colour, linear RGB in 0..=1.
    pub color: [f32; 3],
    /// Display texture: its kind, tile size and colour variation (the viewer draws it).
    pub look: SurfaceLook,
}

impl Default for SurfaceMaterial {
    /// Concrete: μ = 0.8 (rubber on dry concrete), rigid, mid grey.
    fn default() -> Self {
        Self {
            name: "concrete".into(),
            friction: 0.8,
            stiffness: None,
            edge_radius: 0.0,
            color: [0.62, 0.62, 0.60],
            look: SurfaceLook::default(),
        }
    }
}

/// Why a triangle set cannot become a [`Terrain`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TerrainError {
    /// The mesh has no triangles.
    #[error("the terrain has no triangles")]
    Empty,
    /// A triangle refers to a vertex that does not exist.
    #[error("triangle {triangle} refers to vertex {vertex}, but there are only {count} vertices")]
    IndexOutOfRange {
        /// Triangle index.
        triangle: usize,
        /// The bad vertex index.
        vertex: u32,
        /// Number of vertices.
        count: usize,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("triangle {triangle} has a non-finite vertex")]
    NonFinite {
        /// Triangle index.
        triangle: usize,
    },
    /// A triangle has (almost) zero area, so it has no normal.
    #[error("triangle {triangle} is degenerate (zero area)")]
    Degenerate {
        /// Triangle index.
        triangle: usize,
    },
    /// A triangle names a material that is not in the table.
    #[error("triangle {triangle} uses material #{material}, but only {count} materials exist")]
    UnknownMaterial {
        /// Triangle index.
        triangle: usize,
        /// The bad material index.
        material: u16,
        /// Number of materials.
        count: usize,
    },
    /// More triangles than a `u32` index can hold.
    #[error("{0} triangles exceed the terrain limit")]
    TooLarge(usize),
}

/// The whole scene as one indexed triangle mesh (world frame, m) with per-triangle materials,
/// a BVH over the triangles, and the faces (triangles and convex quads) the plane cut works on.
/// A face is named by its *leading* triangle, the lower index of a quad's two.
#[derive(Debug, Clone)]
pub struct Terrain {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
    normals: Vec<Vector3<f64>>,
    triangle_materials: Vec<MaterialId>,
    materials: Vec<SurfaceMaterial>,
    bvh: Bvh,
    faces: FaceTable,
}

impl Terrain {
    /// Largest number of triangles a terrain may hold.
    pub const MAX_TRIANGLES: usize = 20_000_000;

    /// Builds the terrain and its BVH. Triangles must be wound counter-clockwise seen from
    /// outside the solid; `triangle_materials[i]` indexes `materials`.
    pub fn new(
        vertices: Vec<Point3<f64>>,
        triangles: Vec<[u32; 3]>,
        triangle_materials: Vec<MaterialId>,
        materials: Vec<SurfaceMaterial>,
    ) -> Result<Self, TerrainError> {
        if triangles.is_empty() {
            return Err(TerrainError::Empty);
        }
        if triangles.len() > Self::MAX_TRIANGLES {
            return Err(TerrainError::TooLarge(triangles.len()));
        }
        debug_assert_eq!(triangles.len(), triangle_materials.len());
        let mut normals = Vec::with_capacity(triangles.len());
        let mut leaves = Vec::with_capacity(triangles.len());
        for (i, tri) in triangles.iter().enumerate() {
            let mut p = [Point3::origin(); 3];
            for (k, &vi) in tri.iter().enumerate() {
                p[k] = *vertices
                    .get(vi as usize)
                    .ok_or(TerrainError::IndexOutOfRange {
                        triangle: i,
                        vertex: vi,
                        count: vertices.len(),
                    })?;
                if !p[k].coords.iter().all(|c| c.is_finite()) {
                    return Err(TerrainError::NonFinite { triangle: i });
                }
            }
            let m = triangle_materials.get(i).copied().unwrap_or_default();
            if m.0 as usize >= materials.len() {
                return Err(TerrainError::UnknownMaterial {
                    triangle: i,
                    material: m.0,
                    count: materials.len(),
                });
            }
            let n = (p[1] - p[0]).cross(&(p[2] - p[0]));
            let len = n.norm();
            if len <= 2e-12 {
                return Err(TerrainError::Degenerate { triangle: i });
            }
            normals.push(n / len);
            leaves.push(outward_aabb(&p));
        }
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        let faces = FaceTable::new(&vertices, &triangles, &normals, &triangle_materials);
        Ok(Self {
            vertices,
            triangles,
            normals,
            triangle_materials,
            materials,
            bvh,
            faces,
        })
    }

    /// Vertex positions, world frame, m.
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }

    /// Triangles as vertex indices (counter-clockwise seen from outside).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Outward unit normal of every triangle, world frame.
    pub fn normals(&self) -> &[Vector3<f64>] {
        &self.normals
    }

    /// Material of every triangle.
    pub fn triangle_materials(&self) -> &[MaterialId] {
        &self.triangle_materials
    }

    /// The material table.
    pub fn materials(&self) -> &[SurfaceMaterial] {
        &self.materials
    }

    /// The material with this id.
    pub fn material(&self, id: MaterialId) -> &SurfaceMaterial {
        &self.materials[id.0 as usize]
    }

    /// Number of triangles.
    pub fn num_triangles(&self) -> usize {
        self.triangles.len()
    }

    /// Number of faces the cut works on: triangles, less one for each pair of them making a
    /// convex quad.
    pub fn num_faces(&self) -> usize {
        self.triangles.len() - self.faces.quads()
    }

    /// The triangles of the face led by triangle `t`: `t`, and its quad's other triangle.
    pub fn face_triangles(&self, t: u32) -> impl Iterator<Item = u32> {
        std::iter::once(t).chain(self.faces.partner(t))
    }

    /// Whether the face led by triangle `t` is a quad (two triangles), not a lone triangle.
    pub fn is_quad(&self, t: u32) -> bool {
        self.faces.partner(t).is_some()
    }

    /// The corners of the face led by triangle `t`, counter-clockwise seen from outside,
    /// world frame, m (a lone triangle's third corner repeated).
    pub fn face_points(&self, t: u32) -> [Point3<f64>; 4] {
        self.faces.corners(t).map(|v| self.vertices[v as usize])
    }

    /// The BVH over the triangles (leaf `i` is triangle `i`).
    pub fn bvh(&self) -> &Bvh {
        &self.bvh
    }

    /// Depth of the BVH (1 for a single leaf).
    pub fn bvh_depth(&self) -> u32 {
        self.bvh.subtree_depth(0)
    }

    /// World-frame bounds `(min, max)` of all vertices used by triangles, m.
    pub fn bounds(&self) -> (Point3<f64>, Point3<f64>) {
        let mut lo = Point3::from([f64::INFINITY; 3]);
        let mut hi = Point3::from([f64::NEG_INFINITY; 3]);
        for tri in &self.triangles {
            for &v in tri {
                let p = self.vertices[v as usize];
                lo = lo.inf(&p);
                hi = hi.sup(&p);
            }
        }
        (lo, hi)
    }

    /// The three corners of triangle `i`, world frame, m.
    pub fn triangle_points(&self, i: usize) -> [Point3<f64>; 3] {
        let t = self.triangles[i];
        [
            self.vertices[t[0] as usize],
            self.vertices[t[1] as usize],
            self.vertices[t[2] as usize],
        ]
    }

    /// Cuts the terrain with a plane, keeping what lies in `plane`'s region: clears `out` and
    /// fills it with segments in plane coordinates, one per face cut, sorted by the faces'
    /// leading triangles. Only BVH nodes whose boxes meet the plane and the region are
    /// visited. Does not allocate once `out` has grown to the largest cut seen.
    pub fn cut(&self, plane: &CutPlane, out: &mut Vec<CutSegment>) {
        out.clear();
        if self.bvh.is_empty() {
            return;
        }
        let filter = plane.box_filter(0.0);
        self.bvh.traverse(|node| {
            if !filter.may_meet(node.mins(), node.maxs()) {
                return parry3d::partitioning::TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data() {
                self.cut_face(plane, self.faces.leader(leaf), out);
            }
            parry3d::partitioning::TraversalAction::Continue
        });
        // Both triangles of a quad may be visited: their face's (identical) cuts are adjacent
        // once sorted.
        out.sort_unstable_by_key(|s| s.triangle);
        out.dedup_by_key(|s| s.triangle);
    }

    /// The faces (their leading triangles, sorted, each once) that may meet the slab of
    /// half-thickness `half_thickness` m around `plane` inside its region (a superset of those
    /// any parallel plane within the slab cuts): one search serves all the parallel planes of
    /// a belt. Clears `out` first.
    pub fn candidates(&self, plane: &CutPlane, half_thickness: f64, out: &mut Vec<u32>) {
        out.clear();
        if self.bvh.is_empty() {
            return;
        }
        let filter = plane.box_filter(half_thickness.max(0.0));
        self.bvh.traverse(|node| {
            if !filter.may_meet(node.mins(), node.maxs()) {
                return parry3d::partitioning::TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data() {
                out.push(self.faces.leader(leaf));
            }
            parry3d::partitioning::TraversalAction::Continue
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Cuts only the given faces (leading triangles, from [`Terrain::candidates`] of a slab
    /// holding `plane`): clears `out` and fills it as [`Terrain::cut`] would, in the
    /// candidates' order.
    pub fn cut_candidates(&self, plane: &CutPlane, candidates: &[u32], out: &mut Vec<CutSegment>) {
        out.clear();
        for &t in candidates {
            if (t as usize) < self.triangles.len() {
                self.cut_face(plane, t, out);
            }
        }
    }

    /// The same result as [`Terrain::cut`], computed by testing every face. The reference for
    /// tests; O(n).
    pub fn cut_brute_force(&self, plane: &CutPlane, out: &mut Vec<CutSegment>) {
        out.clear();
        for t in 0..self.triangles.len() as u32 {
            if self.faces.leader(t) == t {
                self.cut_face(plane, t, out);
            }
        }
    }

    /// Appends the cut of the face led by triangle `t` (one segment, or none). A quad whose
    /// corners the plane separates four times (a plane within rounding of a quad that is only
    /// nearly flat) is cut as its two triangles.
    fn cut_face(&self, plane: &CutPlane, t: u32, out: &mut Vec<CutSegment>) {
        if !self.is_quad(t) {
            // A lone triangle: its own rule, cheaper than the four-corner loop (rubble and
            // height fields are all triangles).
            let i = t as usize;
            let normal = &self.normals[i];
            if let Some((a, b, n)) = plane.cut_triangle(&self.triangle_points(i), normal) {
                out.push(CutSegment::new(
                    a,
                    b,
                    n,
                    normal.dot(&plane.normal()).clamp(-1.0, 1.0),
                    self.triangle_materials[i],
                    t,
                ));
            }
            return;
        }
        let points = self.face_points(t);
        let depth = points.map(|p| (p - plane.origin()).dot(&plane.normal()));
        self.faces
            .cut_pieces(t, &points, &depth, |triangle, points, depth, edges| {
                self.push_face_cut(plane, t, triangle, points, depth, edges, out);
            });
    }

    /// Appends the cut of the face led by triangle `face` (or of its triangle `triangle`, when
    /// a quad is cut in two) with corners `points` at `depth` from the plane, crossing `edges`,
    /// if any of it lies in the region. The segment carries `triangle`'s id and the face's
    /// normal and material.
    #[allow(clippy::too_many_arguments)]
    fn push_face_cut(
        &self,
        plane: &CutPlane,
        face: u32,
        triangle: u32,
        points: &[Point3<f64>; 4],
        depth: &[f64; 4],
        edges: [usize; 2],
        out: &mut Vec<CutSegment>,
    ) {
        let i = face as usize;
        let normal = &self.normals[i];
        if let Some((a, b, n)) = plane.cut_face(points, depth, edges, normal) {
            out.push(CutSegment::new(
                a,
                b,
                n,
                normal.dot(&plane.normal()).clamp(-1.0, 1.0),
                self.triangle_materials[i],
                triangle,
            ));
        }
    }
}

/// The triangle's bounding box in `f32`, rounded outward so it contains the `f64` triangle.
fn outward_aabb(p: &[Point3<f64>; 3]) -> Aabb {
    let lo = p[0].inf(&p[1]).inf(&p[2]);
    let hi = p[0].sup(&p[1]).sup(&p[2]);
    let down = |x: f64| {
        let f = x as f32;
        if f as f64 > x {
            f.next_down()
        } else {
            f
        }
    };
    let up = |x: f64| {
        let f = x as f32;
        if (f as f64) < x {
            f.next_up()
        } else {
            f
        }
    };
    Aabb::new(
        PVec::new(down(lo.x), down(lo.y), down(lo.z)),
        PVec::new(up(hi.x), up(hi.y), up(hi.z)),
    )
}

#[cfg(test)]
mod tests;
