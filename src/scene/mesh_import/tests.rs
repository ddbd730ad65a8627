//! Tests of the mesh importer: every format, validation, limits and hostile files.

use nalgebra::Vector3;
use serde_json::{json, Value};

use super::gltf::{decode_base64, percent_decode};
use super::*;

// ---- helpers ------------------------------------------------------------------------

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/assets/meshes")
        .join(name)
}

/// A scratch folder under the system temp dir, removed on drop (`tempfile`, as the scenario
/// tests use), with files written into it.
struct TempDir(tempfile::TempDir);

impl TempDir {
    fn new() -> Self {
        TempDir(tempfile::tempdir().unwrap())
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

fn load(path: &Path) -> ImportReport {
    match load_mesh(path, &MeshLimits::default()) {
        Ok(r) => r,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

/// Loads and expects an error; checks the message names the file and returns it.
fn load_err_with(path: &Path, limits: &MeshLimits) -> String {
    let msg = match load_mesh(path, limits) {
        Ok(r) => panic!(
            "expected an error, got {} triangles",
            r.mesh.num_triangles()
        ),
        Err(e) => e.to_string(),
    };
    let named = format!("mesh file '{}'", path.display());
    assert!(
        msg.starts_with(&named),
        "message '{msg}' does not name {named}"
    );
    msg
}

fn load_err(path: &Path) -> String {
    load_err_with(path, &MeshLimits::default())
}

fn assert_contains(msg: &str, part: &str) {
    assert!(msg.contains(part), "message '{msg}' lacks '{part}'");
}

/// Unit cube [0,1]³: vertex index = x + 2y + 4z, 12 triangles counter-clockwise from outside.
fn cube() -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let v = (0..8)
        .map(|i| [(i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32])
        .collect();
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let t = quads
        .iter()
        .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
        .collect();
    (v, t)
}

fn bounds(mesh: &MeshData) -> (Point3<f64>, Point3<f64>) {
    let mut lo = Point3::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut hi = Point3::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for v in &mesh.vertices {
        lo = lo.inf(v);
        hi = hi.sup(v);
    }
    (lo, hi)
}

/// 12 triangles spanning the box `lo..hi`, every normal pointing away from its centre.
fn assert_box(report: &ImportReport, lo: [f64; 3], hi: [f64; 3]) {
    let mesh = &report.mesh;
    assert_eq!(mesh.num_triangles(), 12);
    assert_eq!(report.dropped_degenerate, 0);
    let (min, max) = bounds(mesh);
    for k in 0..3 {
        assert!((min[k] - lo[k]).abs() < 1e-6, "min {min} != {lo:?}");
        assert!((max[k] - hi[k]).abs() < 1e-6, "max {max} != {hi:?}");
    }
    let centre = Point3::from((Vector3::from(lo) + Vector3::from(hi)) / 2.0);
    for i in 0..mesh.num_triangles() {
        let n = mesh.triangle_normal(i).expect("non-degenerate");
        let [a, b, c] = mesh.triangles[i].map(|k| mesh.vertices[k as usize]);
        let centroid = Point3::from((a.coords + b.coords + c.coords) / 3.0);
        assert!(
            (centroid - centre).dot(&n) > 0.0,
            "triangle {i} faces inwards"
        );
    }
}

fn assert_unit_cube(report: &ImportReport) {
    assert_box(report, [0.0; 3], [1.0; 3]);
}

fn binary_stl(header: &[u8; 80], tris: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut out = header.to_vec();
    out.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for t in tris {
        out.extend_from_slice(&[0u8; 12]);
        for c in t.iter().flatten() {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&[0u8; 2]);
    }
    out
}

fn cube_corners() -> Vec<[[f32; 3]; 3]> {
    let (v, t) = cube();
    t.iter().map(|t| t.map(|i| v[i as usize])).collect()
}

fn encode_base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                s.push(A[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Builds glTF documents with one buffer.
#[derive(Default)]
struct Gltf {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Gltf {
    fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.views.push(json!({
            "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()
        }));
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    fn positions(&mut self, p: &[[f32; 3]]) -> usize {
        let bytes: Vec<u8> = p.iter().flatten().flat_map(|c| c.to_le_bytes()).collect();
        let view = self.view(&bytes);
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        for v in p {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        self.accessors.push(json!({
            "bufferView": view, "componentType": 5126, "count": p.len(), "type": "VEC3",
            "min": lo, "max": hi
        }));
        self.accessors.len() - 1
    }

    fn indices(&mut self, i: &[u32]) -> usize {
        let bytes: Vec<u8> = i.iter().flat_map(|c| c.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessors.push(json!({
            "bufferView": view, "componentType": 5125, "count": i.len(), "type": "SCALAR"
        }));
        self.accessors.len() - 1
    }

    /// The cube as one indexed primitive; returns (positions, indices) accessors.
    fn cube(&mut self) -> (usize, usize) {
        let (v, t) = cube();
        let p = self.positions(&v);
        let i = self.indices(&t.concat());
        (p, i)
    }

    /// The document; `uri` None means the GLB binary chunk. `rest` holds meshes, nodes...
    fn json(&self, uri: Option<&str>, rest: Value) -> String {
        let mut doc = rest;
        doc["asset"] = json!({"version": "2.0"});
        let mut buffer = json!({"byteLength": self.bin.len()});
        if let Some(uri) = uri {
            buffer["uri"] = json!(uri);
        }
        doc["buffers"] = json!([buffer]);
        doc["bufferViews"] = json!(self.views);
        doc["accessors"] = json!(self.accessors);
        doc.to_string()
    }

    fn data_uri(&self) -> String {
        format!(
            "data:application/octet-stream;base64,{}",
            encode_base64(&self.bin)
        )
    }

    fn glb(&self, rest: Value) -> Vec<u8> {
        let mut json = self.json(None, rest).into_bytes();
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + 8 + bin.len();
        let mut out = b"glTF".to_vec();
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }
}

/// One node holding mesh 0, made of the given primitives.
fn one_node(primitives: Value) -> Value {
    json!({
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": primitives}]
    })
}

fn prim(positions: usize, indices: Option<usize>, mode: u32) -> Value {
    let mut p = json!({"attributes": {"POSITION": positions}, "mode": mode});
    if let Some(i) = indices {
        p["indices"] = json!(i);
    }
    p
}

// ---- formats ------------------------------------------------------------------------

#[test]
fn format_from_extension_is_case_insensitive() {
    let f = |s: &str| MeshFormat::from_path(Path::new(s));
    assert_eq!(f("a/b.obj"), Some(MeshFormat::Obj));
    assert_eq!(f("a/b.OBJ"), Some(MeshFormat::Obj));
    assert_eq!(f("b.Stl"), Some(MeshFormat::Stl));
    assert_eq!(f("b.gltf"), Some(MeshFormat::Gltf));
    assert_eq!(f("b.GLB"), Some(MeshFormat::Gltf));
    assert_eq!(f("b.ply"), None);
    assert_eq!(f("obj"), None);
    assert_eq!(f("b.obj.bak"), None);
}

#[test]
fn default_limits() {
    let l = MeshLimits::default();
    assert_eq!(l.max_triangles, 2_000_000);
    assert_eq!(l.max_file_bytes, 256 * 1024 * 1024);
}

#[test]
fn obj_cube_of_quads_in_two_objects_without_its_mtl() {
    let r = load(&asset("cube_quads.obj"));
    assert_unit_cube(&r);
}

#[test]
fn obj_polygon_is_fan_triangulated() {
    let dir = TempDir::new();
    let p = dir.write(
        "pentagon.obj",
        "v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\nf 1 2 3 4 5\n",
    );
    let r = load(&p);
    assert_eq!(r.mesh.num_triangles(), 3);
    for i in 0..3 {
        let n = r.mesh.triangle_normal(i).unwrap();
        assert!((n.z - 1.0).abs() < 1e-12);
    }
}

#[test]
fn stl_ascii_cube() {
    let r = load(&asset("cube_ascii.stl"));
    assert_unit_cube(&r);
    assert_eq!(r.mesh.vertices.len(), 8, "corners are shared");
}

#[test]
fn stl_ascii_nameless_solid() {
    let dir = TempDir::new();
    let p = dir.write(
        "tri.stl",
        "solid\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n\
         endloop\nendfacet\nendsolid\n",
    );
    assert_eq!(load(&p).mesh.num_triangles(), 1);
}

#[test]
fn stl_binary_cube() {
    let dir = TempDir::new();
    let p = dir.write("cube.stl", binary_stl(&[b' '; 80], &cube_corners()));
    let r = load(&p);
    assert_unit_cube(&r);
    assert_eq!(r.mesh.vertices.len(), 8, "corners are shared");
}

#[test]
fn stl_binary_whose_header_starts_with_solid() {
    let mut header = [b' '; 80];
    header[..11].copy_from_slice(b"solid cube ");
    let dir = TempDir::new();
    let p = dir.write("cube.STL", binary_stl(&header, &cube_corners()));
    assert_unit_cube(&load(&p));
}

#[test]
fn gltf_cube_with_base64_data_uri() {
    assert_unit_cube(&load(&asset("cube_embedded.gltf")));
}

#[test]
fn gltf_cube_with_external_bin() {
    assert_unit_cube(&load(&asset("cube_external.gltf")));
}

#[test]
fn glb_cube() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    let dir = TempDir::new();
    let path = dir.write("cube.glb", g.glb(one_node(json!([prim(p, Some(i), 4)]))));
    assert_unit_cube(&load(&path));
}

#[test]
fn gltf_node_translation_and_scale_are_applied() {
    // Parent translates by (1, 2, 3), child scales by (2, 3, 4).
    let r = load(&asset("cube_nodes.gltf"));
    assert_box(&r, [1.0, 2.0, 3.0], [3.0, 5.0, 7.0]);
}

#[test]
fn gltf_mirroring_matrix_keeps_normals_outward() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    // Column-major: x mirrored, then translated by (10, 0, 0); no default scene.
    let rest = json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "matrix": [-1,0,0,0, 0,1,0,0, 0,0,1,0, 10,0,0,1]}],
        "meshes": [{"primitives": [prim(p, Some(i), 4)]}]
    });
    let dir = TempDir::new();
    let path = dir.write("mirror.gltf", g.json(Some(&g.data_uri()), rest));
    assert_box(&load(&path), [9.0, 0.0, 0.0], [10.0, 1.0, 1.0]);
}

#[test]
fn gltf_rotation_is_applied_in_f64() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    // 90° about z: (x, y) -> (-y, x).
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let rest = json!({
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "rotation": [0.0, 0.0, h, h]}],
        "meshes": [{"primitives": [prim(p, Some(i), 4)]}]
    });
    let dir = TempDir::new();
    let path = dir.write("rot.gltf", g.json(Some(&g.data_uri()), rest));
    assert_box(&load(&path), [-1.0, 0.0, 0.0], [0.0, 1.0, 1.0]);
}

#[test]
fn gltf_non_indexed_primitive_and_skipped_lines() {
    let mut g = Gltf::default();
    let tris = g.positions(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [0.0, 1.0, 1.0],
    ]);
    let lines = g.positions(&[[0.0, 0.0, 0.0], [5.0, 5.0, 5.0]]);
    let rest = one_node(json!([prim(lines, None, 1), prim(tris, None, 4)]));
    let dir = TempDir::new();
    let path = dir.write("two.gltf", g.json(Some(&g.data_uri()), rest));
    let r = load(&path);
    assert_eq!(r.mesh.num_triangles(), 2);
    let (_, hi) = bounds(&r.mesh);
    assert_eq!(
        hi,
        Point3::new(1.0, 1.0, 1.0),
        "the lines primitive is skipped"
    );
}

#[test]
fn gltf_sparse_positions() {
    let mut g = Gltf::default();
    let p = g.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let idx = g.view(&2u8.to_le_bytes());
    let val = g.view(&[0.0f32, 3.0, 0.0].map(f32::to_le_bytes).concat());
    g.accessors[p]["sparse"] = json!({
        "count": 1,
        "indices": {"bufferView": idx, "componentType": 5121},
        "values": {"bufferView": val}
    });
    g.accessors[p]["max"] = json!([1.0, 3.0, 0.0]);
    let dir = TempDir::new();
    let path = dir.write(
        "sparse.gltf",
        g.json(Some(&g.data_uri()), one_node(json!([prim(p, None, 4)]))),
    );
    let r = load(&path);
    assert_eq!(r.mesh.num_triangles(), 1);
    assert_eq!(bounds(&r.mesh).1, Point3::new(1.0, 3.0, 0.0));
}

#[test]
fn gltf_node_cycle_does_not_hang() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    // Invalid glTF (a node is its own grandchild) that the gltf crate does not reject.
    let rest = json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "children": [1]}, {"children": [0]}],
        "meshes": [{"primitives": [prim(p, Some(i), 4)]}]
    });
    let dir = TempDir::new();
    let path = dir.write("cycle.gltf", g.json(Some(&g.data_uri()), rest));
    // Each node is visited once: the cube comes out once, with no hang or stack overflow.
    assert_unit_cube(&load(&path));
}

// ---- validation ---------------------------------------------------------------------

#[test]
fn obj_nan_vertex_names_the_triangle() {
    let dir = TempDir::new();
    let p = dir.write(
        "nan.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv NaN 0 1\nf 1 2 3\nf 1 2 4\n",
    );
    let msg = load_err(&p);
    assert_contains(&msg, "triangle 1 has a non-finite vertex");
}

#[test]
fn stl_binary_infinite_vertex_names_the_triangle() {
    let mut tris = cube_corners();
    tris[5][2][1] = f32::INFINITY;
    let dir = TempDir::new();
    let p = dir.write("inf.stl", binary_stl(&[0; 80], &tris));
    assert_contains(&load_err(&p), "triangle 5 has a non-finite vertex");
}

#[test]
fn unused_non_finite_vertex_is_removed() {
    let dir = TempDir::new();
    let p = dir.write(
        "unused.obj",
        "v 0 0 0\nv inf 0 0\nv 1 0 0\nv 0 1 0\nf 1 3 4\n",
    );
    let r = load(&p);
    assert_eq!(r.mesh.num_triangles(), 1);
    assert_eq!(r.mesh.vertices.len(), 3);
    assert!(r
        .mesh
        .vertices
        .iter()
        .all(|v| v.coords.iter().all(|c| c.is_finite())));
}

#[test]
fn gltf_index_out_of_range() {
    let mut g = Gltf::default();
    let p = g.positions(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ]);
    let i = g.indices(&[0, 1, 2, 1, 3, 9]);
    let dir = TempDir::new();
    let path = dir.write(
        "oob.gltf",
        g.json(Some(&g.data_uri()), one_node(json!([prim(p, Some(i), 4)]))),
    );
    assert_contains(
        &load_err(&path),
        "triangle 1 references vertex 9 but there are only 4 vertices",
    );
}

#[test]
fn obj_index_out_of_range() {
    let dir = TempDir::new();
    let p = dir.write("oob.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
    let msg = load_err(&p);
    assert_contains(&msg, "parse error");
    assert_contains(&msg, "face vertex index out of bounds");
}

#[test]
fn obj_hostile_texture_and_normal_indices_do_not_panic() {
    let dir = TempDir::new();
    let p = dir.write(
        "hostile.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
         f 1/-9223372036854775807/-99999999999 2/0/0 3/99999999999999/-1\n\
         f 0 1 2\n",
    );
    // The first face is fine once texture/normal indices are ignored; the second uses the
    // invalid index 0.
    assert_contains(&load_err(&p), "face vertex index out of bounds");
}

#[test]
fn degenerate_triangles_are_dropped_and_counted() {
    let dir = TempDir::new();
    let p = dir.write(
        "degenerate.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nv 1e-7 0 0\nv 0 1e-7 0\n\
         f 1 2 3\nf 1 2 4\nf 1 1 3\nf 1 5 6\n",
    );
    let r = load(&p);
    assert_eq!(r.mesh.num_triangles(), 1);
    assert_eq!(r.dropped_degenerate, 3);
    assert_eq!(
        r.mesh.vertices.len(),
        3,
        "vertices of dropped triangles are removed"
    );
}

#[test]
fn all_degenerate_is_an_error() {
    let dir = TempDir::new();
    let p = dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\n");
    assert_contains(&load_err(&p), "all triangles are degenerate (2 dropped)");
}

#[test]
fn empty_files_are_errors() {
    let dir = TempDir::new();
    for name in ["empty.obj", "empty.stl", "empty.glb", "empty.gltf"] {
        let p = dir.write(name, "");
        assert_contains(&load_err(&p), "the file is empty");
    }
    let p = dir.write("comments.obj", "# nothing here\nv 0 0 0\n");
    assert_contains(&load_err(&p), "contains no triangles");
}

#[test]
fn gltf_with_only_lines_has_no_triangles() {
    let mut g = Gltf::default();
    let p = g.positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]);
    let dir = TempDir::new();
    let path = dir.write(
        "lines.gltf",
        g.json(Some(&g.data_uri()), one_node(json!([prim(p, None, 1)]))),
    );
    assert_contains(&load_err(&path), "contains no triangles");
}

#[test]
fn missing_file_names_the_path() {
    let p = asset("does_not_exist.obj");
    let msg = load_err(&p);
    assert_contains(&msg, "cannot read");
    assert_contains(&msg, "No such file or directory");
}

#[test]
fn unsupported_extension() {
    let msg = load_err(Path::new("x/y.ply"));
    assert_eq!(
        msg,
        "mesh file 'x/y.ply': unsupported extension 'ply' (expected obj, stl, gltf or glb)"
    );
    assert_contains(&load_err(Path::new("x/noext")), "unsupported extension ''");
}

#[test]
fn truncated_binary_stl_is_an_error() {
    let mut bytes = binary_stl(&[0; 80], &cube_corners());
    bytes.truncate(84 + 50 * 5 + 17);
    let dir = TempDir::new();
    let p = dir.write("cut.stl", &bytes);
    let msg = load_err(&p);
    assert_contains(&msg, "parse error: binary STL is truncated");
    assert_contains(&msg, "declares 12 triangles");

    let p = dir.write("tiny.stl", [7u8; 40]);
    assert_contains(&load_err(&p), "shorter than its 84-byte header");
}

#[test]
fn bad_ascii_stl_is_a_parse_error() {
    let dir = TempDir::new();
    let p = dir.write(
        "bad.stl",
        "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n",
    );
    assert_contains(&load_err(&p), "parse error: ASCII STL, facet 0");
}

#[test]
fn garbage_glb_is_an_error() {
    let dir = TempDir::new();
    let garbage: Vec<u8> = (0..997u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let p = dir.write("garbage.glb", &garbage);
    assert_contains(&load_err(&p), "parse error: glTF");

    // Right magic, header length below the header size (would underflow inside gltf).
    let mut bad = b"glTF".to_vec();
    bad.extend_from_slice(&2u32.to_le_bytes());
    bad.extend_from_slice(&4u32.to_le_bytes());
    let p = dir.write("short.glb", &bad);
    assert_contains(&load_err(&p), "GLB header declares a length of 4 bytes");

    let p = dir.write("cut.glb", b"glTF\x02\x00");
    assert_contains(&load_err(&p), "shorter than its 12-byte header");

    // A valid GLB cut in the middle.
    let mut g = Gltf::default();
    let (pa, ia) = g.cube();
    let mut glb = g.glb(one_node(json!([prim(pa, Some(ia), 4)])));
    glb.truncate(glb.len() - 40);
    let p = dir.write("cube_cut.glb", &glb);
    assert_contains(&load_err(&p), "parse error");
}

#[test]
fn gltf_accessor_outside_its_buffer_is_an_error() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    g.accessors[i]["count"] = json!(3000);
    let dir = TempDir::new();
    let path = dir.write(
        "overrun.gltf",
        g.json(Some(&g.data_uri()), one_node(json!([prim(p, Some(i), 4)]))),
    );
    assert_contains(&load_err(&path), "accessor 1: 3000 elements");
}

#[test]
fn triangle_limit() {
    let small = MeshLimits {
        max_triangles: 11,
        ..MeshLimits::default()
    };
    for name in ["cube_quads.obj", "cube_ascii.stl", "cube_embedded.gltf"] {
        let msg = load_err_with(&asset(name), &small);
        assert_contains(&msg, "12 triangles exceed the limit of 11");
    }
    // A binary STL header declaring too many triangles is refused before anything else.
    let mut bytes = vec![0u8; 80];
    bytes.extend_from_slice(&3_000_001u32.to_le_bytes());
    let dir = TempDir::new();
    let p = dir.write("huge.stl", &bytes);
    assert_contains(
        &load_err(&p),
        "3000001 triangles exceed the limit of 2000000",
    );
}

#[test]
fn file_size_limit() {
    let limits = MeshLimits {
        max_file_bytes: 100,
        ..MeshLimits::default()
    };
    let p = asset("cube_ascii.stl");
    let size = std::fs::metadata(&p).unwrap().len();
    let msg = load_err_with(&p, &limits);
    assert_contains(
        &msg,
        &format!("{size} bytes exceed the file size limit of 100 bytes"),
    );
}

#[test]
fn unsafe_buffer_uris_are_refused() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    let rest = one_node(json!([prim(p, Some(i), 4)]));
    let dir = TempDir::new();
    dir.write("outside.bin", &g.bin);
    let cases = [
        ("../outside.bin", "contains a '..' component"),
        ("sub/../../outside.bin", "contains a '..' component"),
        ("%2E%2E/outside.bin", "contains a '..' component"),
        ("/etc/passwd", "is absolute"),
        ("file:///etc/passwd", "has a scheme"),
        ("http://example.com/x.bin", "has a scheme"),
    ];
    for (k, (uri, reason)) in cases.iter().enumerate() {
        let path = dir.write(&format!("inner/m{k}.gltf"), g.json(Some(uri), rest.clone()));
        let msg = load_err(&path);
        assert_contains(&msg, &format!("buffer URI '{uri}' {reason}"));
    }
}

#[test]
fn missing_buffer_file_names_the_uri() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    let dir = TempDir::new();
    let path = dir.write(
        "m.gltf",
        g.json(Some("nope.bin"), one_node(json!([prim(p, Some(i), 4)]))),
    );
    let msg = load_err(&path);
    assert_contains(&msg, "cannot read buffer 'nope.bin'");
}

#[test]
fn percent_encoded_buffer_file_name() {
    let mut g = Gltf::default();
    let (p, i) = g.cube();
    let dir = TempDir::new();
    dir.write("sub dir/cube data.bin", &g.bin);
    let path = dir.write(
        "m.gltf",
        g.json(
            Some("./sub%20dir/cube%20data.bin"),
            one_node(json!([prim(p, Some(i), 4)])),
        ),
    );
    assert_unit_cube(&load(&path));
}

#[test]
fn base64_and_percent_decoding() {
    for n in 0..10u8 {
        let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(77)).collect();
        let enc = encode_base64(&data);
        assert_eq!(decode_base64(&enc).as_deref(), Some(&data[..]));
        assert_eq!(
            decode_base64(enc.trim_end_matches('=')).as_deref(),
            Some(&data[..])
        );
    }
    assert_eq!(decode_base64("A"), None);
    assert_eq!(decode_base64("AB*D"), None);
    assert_eq!(percent_decode("a%20b").as_deref(), Some(&b"a b"[..]));
    assert_eq!(percent_decode("a%2"), None);
    assert_eq!(percent_decode("a%zz"), None);
}
