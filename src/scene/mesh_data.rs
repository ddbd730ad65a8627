//! Indexed triangle geometry as produced by primitives and mesh importers, before it is merged
//! into the scene's terrain.

use nalgebra::{Isometry3, Point3, Vector3};

/// An indexed triangle mesh in some local frame (metres), triangles wound counter-clockwise
/// seen from outside the solid, so the right-hand normal `(b - a) × (c - a)` points out of it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions, m.
    pub vertices: Vec<Point3<f64>>,
    /// Triangles as indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

impl MeshData {
    /// An empty mesh.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of triangles.
    pub fn num_triangles(&self) -> usize {
        self.triangles.len()
    }

    /// Appends a vertex and returns its index.
    pub fn push_vertex(&mut self, p: Point3<f64>) -> u32 {
        self.vertices.push(p);
        (self.vertices.len() - 1) as u32
    }

    /// Appends a triangle (indices into `vertices`, counter-clockwise seen from outside).
    pub fn push_triangle(&mut self, a: u32, b: u32, c: u32) {
        self.triangles.push([a, b, c]);
    }

    /// Appends a planar quad `a, b, c, d` (counter-clockwise seen from outside) as two triangles.
    pub fn push_quad(&mut self, a: u32, b: u32, c: u32, d: u32) {
        self.triangles.push([a, b, c]);
        self.triangles.push([a, c, d]);
    }

    /// Appends all of `other`, re-indexing its triangles.
    pub fn append(&mut self, other: &MeshData) {
        let base = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&other.vertices);
        self.triangles.extend(
            other
                .triangles
                .iter()
                .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
        );
    }

    /// Scales every vertex component-wise about the local origin. A scale with an odd number
    /// of negative components mirrors the mesh, so the winding is flipped to keep normals outward.
    pub fn scale(&mut self, s: Vector3<f64>) {
        for v in &mut self.vertices {
            v.coords.component_mul_assign(&s);
        }
        if s.x * s.y * s.z < 0.0 {
            for t in &mut self.triangles {
                t.swap(1, 2);
            }
        }
    }

    /// Moves every vertex by the rigid transform `pose` (local → parent frame).
    pub fn transform(&mut self, pose: &Isometry3<f64>) {
        for v in &mut self.vertices {
            *v = pose * *v;
        }
    }

    /// Outward unit normal of triangle `i`, or `None` when the triangle is degenerate
    /// (area below 1e-12 m²) or not finite.
    pub fn triangle_normal(&self, i: usize) -> Option<Vector3<f64>> {
        let [a, b, c] = self.triangles[i];
        let (a, b, c) = (
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        );
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        (len.is_finite() && len > 2e-12).then(|| n / len)
    }
}
