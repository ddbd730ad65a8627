//! Faces: the unit the plane cut works on. A face is a terrain triangle, or two coplanar
//! triangles of one material that share an edge and together make a convex quad (a box's side,
//! a stair's tread or riser, a floor, a ramp).
//!
//! Why: a plane cuts a quad split into two triangles in two collinear segments joined where it
//! crosses the diagonal. Every contact law then tests each wheel and run against both halves,
//! and the joint is a vertex the laws must recognise as no edge (`vertex_is_covered`), placed
//! where the mesh happened to be triangulated. Cut as one convex polygon, the quad gives one
//! segment: scenes built of boxes, prisms and stairs are quads almost everywhere, so the cut and
//! the contact laws see about half the segments, and the joint is gone.
//!
//! A triangle is stored as the quad `[a, b, c, c]`: its fourth edge has zero length and the
//! closing edge is `c → a`, so one loop over four edges cuts both kinds.

use nalgebra::{Point3, Vector3};

use super::cut::{face_crossings, FaceCrossings};
use super::MaterialId;

/// Marks "no such triangle or vertex".
const NONE: u32 = u32::MAX;

/// Largest distance of a quad's fourth corner from its first triangle's plane, m: the two
/// triangles count as coplanar below it. Far below any contact depth that matters (the cut of
/// the quad and of its two triangles differ by about this much), far above the rounding of
/// coordinates (1e-12 m at 10 km).
const COPLANAR_DISTANCE: f64 = 1e-9;

/// Which face each terrain triangle belongs to, and each face's corners.
#[derive(Debug, Clone, Default)]
pub(super) struct FaceTable {
    /// Per triangle: the face's leading triangle (the lower index of a quad's two; a lone
    /// triangle leads its own face).
    leader: Vec<u32>,
    /// Per triangle: the other triangle of its quad, or [`NONE`].
    partner: Vec<u32>,
    /// Per leading triangle: the face's corners as vertex indices, counter-clockwise seen from
    /// outside the solid (a triangle's third corner repeated).
    corners: Vec<[u32; 4]>,
}

impl FaceTable {
    /// Pairs the triangles of a mesh (vertex indices, counter-clockwise seen from outside;
    /// `normals` their outward unit normals) into faces. Greedy in triangle order: each
    /// triangle takes the first neighbour, by its edges' order, that is unpaired, coplanar, of
    /// the same material, wound the same way and makes a convex quad with it. An edge shared by
    /// more than two triangles pairs none of them.
    pub(super) fn new(
        vertices: &[Point3<f64>],
        triangles: &[[u32; 3]],
        normals: &[Vector3<f64>],
        materials: &[MaterialId],
    ) -> Self {
        let neighbours = edge_neighbours(triangles);
        let count = triangles.len();
        let mut table = Self {
            leader: (0..count as u32).collect(),
            partner: vec![NONE; count],
            corners: triangles.iter().map(|t| [t[0], t[1], t[2], t[2]]).collect(),
        };
        for t in 0..count {
            if table.partner[t] != NONE {
                continue;
            }
            for (edge, &u) in neighbours[t].iter().enumerate() {
                let u = u as usize;
                if u == NONE as usize || u < t || table.partner[u] != NONE {
                    continue;
                }
                if materials[t] != materials[u] {
                    continue;
                }
                let Some(quad) =
                    convex_quad(vertices, triangles[t], edge, triangles[u], normals[t])
                else {
                    continue;
                };
                table.partner[t] = u as u32;
                table.partner[u] = t as u32;
                table.leader[u] = t as u32;
                table.corners[t] = quad;
                break;
            }
        }
        table
    }

    /// The leading triangle of triangle `t`'s face.
    pub(super) fn leader(&self, t: u32) -> u32 {
        self.leader[t as usize]
    }

    /// The other triangle of `t`'s quad, if `t` is half of one.
    pub(super) fn partner(&self, t: u32) -> Option<u32> {
        let p = self.partner[t as usize];
        (p != NONE).then_some(p)
    }

    /// The corners (vertex indices, counter-clockwise from outside) of the face led by `t`.
    pub(super) fn corners(&self, t: u32) -> [u32; 4] {
        self.corners[t as usize]
    }

    /// The pieces of the face led by `t` that a plane cuts, given its corners `points` (in any
    /// frame) at signed distances `depth` from the plane: `piece(triangle, points, depth,
    /// edges)` is called with the face itself when the plane crosses two of its edges, and
    /// with each of a quad's two triangles (its own id, its corners among the quad's, a
    /// triangle's third repeated) when the plane crosses all four ([`FaceCrossings::Four`]).
    /// One dispatch for the 3D cut and the slab's 2D cut.
    pub(super) fn cut_pieces<P: Copy>(
        &self,
        t: u32,
        points: &[P; 4],
        depth: &[f64; 4],
        mut piece: impl FnMut(u32, &[P; 4], &[f64; 4], [usize; 2]),
    ) {
        match face_crossings(depth) {
            FaceCrossings::None => {}
            FaceCrossings::Two(edges) => piece(t, points, depth, edges),
            FaceCrossings::Four => {
                for (triangle, corners) in self.split(t) {
                    let points = corners.map(|k| points[k]);
                    let depth = corners.map(|k| depth[k]);
                    if let FaceCrossings::Two(edges) = face_crossings(&depth) {
                        piece(triangle, &points, &depth, edges);
                    }
                }
            }
        }
    }

    /// The two triangles of the quad led by `t`, each as its own triangle id and its corners
    /// among the quad's (a triangle's third repeated): the leader `(0, 1, 3)`, the other
    /// `(1, 2, 3)` (the quad is the leader's corners with the other's far corner, 2, inserted).
    /// For a lone triangle (never needed: a plane crosses a triangle twice at most) its own
    /// corners, then a degenerate face of one corner that nothing cuts.
    fn split(&self, t: u32) -> [(u32, [usize; 4]); 2] {
        match self.partner(t) {
            Some(other) => [(t, [0, 1, 3, 3]), (other, [1, 2, 3, 3])],
            None => [(t, [0, 1, 2, 2]), (t, [2, 2, 2, 2])],
        }
    }

    /// Number of quads.
    pub(super) fn quads(&self) -> usize {
        self.partner.iter().filter(|&&p| p != NONE).count() / 2
    }
}

/// Per triangle, per edge `k` (corner `k` to corner `k + 1`): the one other triangle that has
/// that edge the opposite way round, or [`NONE`] (a boundary edge, an edge shared by more than
/// two triangles, or a neighbour wound the other way).
fn edge_neighbours(triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
    // (lower vertex, higher vertex, triangle, edge), sorted: the triangles of an edge are then
    // consecutive.
    let mut edges: Vec<(u32, u32, u32, u8)> = Vec::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            edges.push((a.min(b), a.max(b), t as u32, k as u8));
        }
    }
    edges.sort_unstable();
    let mut neighbours = vec![[NONE; 3]; triangles.len()];
    let mut start = 0;
    while start < edges.len() {
        let key = (edges[start].0, edges[start].1);
        let mut end = start + 1;
        while end < edges.len() && (edges[end].0, edges[end].1) == key {
            end += 1;
        }
        if end - start == 2 {
            let (t, k) = (edges[start].2 as usize, edges[start].3 as usize);
            let (u, j) = (edges[start + 1].2 as usize, edges[start + 1].3 as usize);
            // Wound the same way, the shared edge runs opposite ways in the two triangles.
            if t != u && triangles[t][k] == triangles[u][(j + 1) % 3] {
                neighbours[t][k] = u as u32;
                neighbours[u][j] = t as u32;
            }
        }
        start = end;
    }
    neighbours
}

/// The quad of triangle `t` and its neighbour `u` across `t`'s edge `edge`, counter-clockwise
/// from outside (`t`'s corners with `u`'s far corner inserted in that edge), if the two are
/// coplanar (`u`'s far corner within [`COPLANAR_DISTANCE`] of `t`'s plane, `normal` its unit
/// normal) and the quad is convex.
fn convex_quad(
    vertices: &[Point3<f64>],
    t: [u32; 3],
    edge: usize,
    u: [u32; 3],
    normal: Vector3<f64>,
) -> Option<[u32; 4]> {
    let (from, to) = (t[edge], t[(edge + 1) % 3]);
    let far = *u.iter().find(|&&v| v != from && v != to)?;
    let opposite = t[(edge + 2) % 3];
    let p = |v: u32| vertices[v as usize];
    if (p(far) - p(from)).dot(&normal).abs() > COPLANAR_DISTANCE {
        return None;
    }
    // Round the quad opposite → from → far → to; the triangles' own corners (at `opposite` and
    // `far`) turn left, so it is convex when the turns at `from` and `to` do too.
    let turn = |a: u32, b: u32, c: u32| (p(b) - p(a)).cross(&(p(c) - p(b))).dot(&normal);
    if turn(opposite, from, far) <= 0.0 || turn(far, to, opposite) <= 0.0 {
        return None;
    }
    Some([opposite, from, far, to])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal_of(v: &[Point3<f64>], t: [u32; 3]) -> Vector3<f64> {
        let p = t.map(|i| v[i as usize]);
        (p[1] - p[0]).cross(&(p[2] - p[0])).normalize()
    }

    fn table(v: &[Point3<f64>], tris: &[[u32; 3]], materials: &[u16]) -> FaceTable {
        let normals: Vec<_> = tris.iter().map(|&t| normal_of(v, t)).collect();
        let materials: Vec<_> = materials.iter().map(|&m| MaterialId(m)).collect();
        FaceTable::new(v, tris, &normals, &materials)
    }

    /// The unit square in z = 0 as (0, 1, 2), (0, 2, 3), both facing +z.
    fn square() -> Vec<Point3<f64>> {
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn a_split_square_is_one_quad_wound_as_its_triangles() {
        let faces = table(&square(), &[[0, 1, 2], [0, 2, 3]], &[0, 0]);
        assert_eq!(faces.quads(), 1);
        assert_eq!(faces.leader(1), 0);
        assert_eq!(faces.partner(0), Some(1));
        // Triangle 0's edge 2 → 0 takes corner 3: 1, 2, 3, 0 round the square.
        assert_eq!(faces.corners(0), [1, 2, 3, 0]);
    }

    #[test]
    fn triangles_that_must_not_pair_stay_alone() {
        let flat = square();
        // Different materials.
        assert_eq!(table(&flat, &[[0, 1, 2], [0, 2, 3]], &[0, 1]).quads(), 0);
        // Folded along the diagonal by 1 mm (a roof, not a face).
        let mut folded = square();
        folded[3].z = 1e-3;
        assert_eq!(table(&folded, &[[0, 1, 2], [0, 2, 3]], &[0, 0]).quads(), 0);
        // Within rounding of flat: still one face.
        folded[3].z = 1e-12;
        assert_eq!(table(&folded, &[[0, 1, 2], [0, 2, 3]], &[0, 0]).quads(), 1);
        // A concave quad: corner 3 moved out past the line of edge 1 → 2, so the quad turns
        // right at corner 2.
        let mut dart = square();
        dart[3] = Point3::new(1.5, 2.0, 0.0);
        assert_eq!(table(&dart, &[[0, 1, 2], [0, 2, 3]], &[0, 0]).quads(), 0);
        // The neighbour wound the other way (facing −z).
        assert_eq!(table(&flat, &[[0, 1, 2], [0, 3, 2]], &[0, 0]).quads(), 0);
        // An edge shared by three triangles (a fin on the diagonal).
        let mut fin = square();
        fin.push(Point3::new(0.5, 0.5, 1.0));
        assert_eq!(
            table(&fin, &[[0, 1, 2], [0, 2, 3], [2, 0, 4]], &[0, 0, 0]).quads(),
            0
        );
    }

    /// A strip of four triangles pairs greedily in triangle order: (0, 1) and (2, 3), never
    /// a triangle twice.
    #[test]
    fn a_strip_pairs_each_triangle_once() {
        let v: Vec<_> = (0..6)
            .map(|i| Point3::new((i / 2) as f64, (i % 2) as f64, 0.0))
            .collect();
        let tris = [[0, 2, 1], [1, 2, 3], [2, 4, 3], [3, 4, 5]];
        let faces = table(&v, &tris, &[0; 4]);
        assert_eq!(faces.quads(), 2);
        assert_eq!(faces.partner(0), Some(1));
        assert_eq!(faces.partner(2), Some(3));
        assert_eq!([0, 1, 2, 3].map(|t| faces.leader(t)), [0, 0, 2, 2]);
    }
}
