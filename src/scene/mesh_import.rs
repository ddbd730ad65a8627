//! Loading triangle meshes from OBJ, STL and glTF/GLB files into [`MeshData`].
//!
//! The format comes from the file extension (see [`MeshFormat`]):
//! - **OBJ**: every object/group in the file is merged into one mesh, polygons are fan-triangulated,
//!   texture coordinates, normals, points, lines and materials are ignored (`.mtl` files are never
//!   opened, so a missing one is not an error).
//! - **STL**: binary and ASCII. Facets are triangles already; coincident corners are merged into
//!   shared vertices (bit-exact match). The stored facet normals are ignored: the winding decides
//!   which side is outside, as everywhere in [`MeshData`].
//! - **glTF 2.0** (`.gltf` JSON or `.glb` binary): every mesh primitive of mode `TRIANGLES`
//!   (indexed or not) instanced by a node of the default scene (all scenes when there is no
//!   default scene, all root nodes when there are no scenes, every mesh as-is when there are no
//!   nodes) is taken, with the node hierarchy's transforms applied in `f64`. Primitives of other
//!   modes (points, lines, strips, fans) are skipped. Buffers come from the GLB binary chunk,
//!   from `data:` URIs (base64 or percent-encoded), or from external files whose URI is a relative
//!   path below the glTF file's folder (no absolute path, no scheme, no `..` component). Only
//!   `FLOAT` `VEC3` positions are supported (no `KHR_mesh_quantization`).
//!
//! Units and frames: coordinates are taken as they are in the file and interpreted as metres in
//! the mesh's local frame; nothing is scaled or rotated here. In particular glTF is Y-up by
//! convention while our world is Z-up: this module does **not** convert, the caller's mesh
//! transform (scene file) is responsible for that.
//!
//! Validation: every triangle must reference existing vertices and only finite coordinates
//! (otherwise the load fails and names the triangle, counted from 0 in file order). Degenerate
//! triangles (a repeated vertex index, or an area not above [`MIN_TRIANGLE_AREA`]) are dropped
//! and counted in [`ImportReport::dropped_degenerate`]; vertices used by no kept triangle are
//! removed. [`MeshLimits`] bounds the file size and the triangle count; both are checked before
//! the bulk of the work. The loader never panics on malformed input.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Component, Path, PathBuf};

use nalgebra::{Matrix3, Matrix4, Point3, Quaternion, UnitQuaternion, Vector3};

use crate::scene::MeshData;

/// Triangles whose area (m²) is not above this are degenerate and dropped. It matches the
/// threshold of [`MeshData::triangle_normal`], so every imported triangle has a normal.
pub const MIN_TRIANGLE_AREA: f64 = 1e-12;

/// Mesh file formats recognised by their extension (case-insensitive): `.obj`, `.stl`,
/// `.gltf`, `.glb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshFormat {
    /// Wavefront OBJ (`.obj`), text.
    Obj,
    /// STereoLithography (`.stl`), binary or ASCII.
    Stl,
    /// glTF 2.0, JSON (`.gltf`) or binary (`.glb`).
    Gltf,
}

impl MeshFormat {
    /// The format named by the extension of `path` (case-insensitive), or `None` when the
    /// extension is missing or not one of `obj`, `stl`, `gltf`, `glb`.
    pub fn from_path(path: &Path) -> Option<MeshFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(MeshFormat::Obj),
            "stl" => Some(MeshFormat::Stl),
            "gltf" | "glb" => Some(MeshFormat::Gltf),
            _ => None,
        }
    }
}

/// Limits that protect the loader against absurd files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshLimits {
    /// Largest number of triangles a file may declare or contain, counted before degenerate
    /// triangles are dropped (and, for glTF, summed over every node instance). Default 2 000 000.
    pub max_triangles: usize,
    /// Largest size in bytes of the mesh file, and of each external glTF buffer file.
    /// Default 256 MiB.
    pub max_file_bytes: u64,
}

impl Default for MeshLimits {
    /// 2 000 000 triangles, 256 MiB per file.
    fn default() -> Self {
        MeshLimits {
            max_triangles: 2_000_000,
            max_file_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Why a mesh file could not be loaded. Every message starts with `mesh file '<path>':`.
#[derive(Debug, thiserror::Error)]
pub enum MeshImportError {
    /// The extension is not one of obj, stl, gltf, glb.
    #[error(
        "mesh file '{}': unsupported extension '{extension}' (expected obj, stl, gltf or glb)",
        path.display()
    )]
    UnsupportedExtension {
        /// The mesh file.
        path: PathBuf,
        /// The extension found (empty when there is none).
        extension: String,
    },
    /// The file could not be opened or read.
    #[error("mesh file '{}': cannot read: {source}", path.display())]
    Io {
        /// The mesh file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is bigger than [`MeshLimits::max_file_bytes`].
    #[error(
        "mesh file '{}': {size} bytes exceed the file size limit of {limit} bytes",
        path.display()
    )]
    FileTooLarge {
        /// The mesh file.
        path: PathBuf,
        /// Size of the file, bytes.
        size: u64,
        /// The limit, bytes.
        limit: u64,
    },
    /// The file is empty.
    #[error("mesh file '{}': the file is empty", path.display())]
    EmptyFile {
        /// The mesh file.
        path: PathBuf,
    },
    /// More triangles than [`MeshLimits::max_triangles`].
    #[error(
        "mesh file '{}': {count} triangles exceed the limit of {limit}",
        path.display()
    )]
    TooManyTriangles {
        /// The mesh file.
        path: PathBuf,
        /// Number of triangles declared or found so far.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The file is malformed.
    #[error("mesh file '{}': parse error: {detail}", path.display())]
    Parse {
        /// The mesh file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A glTF buffer URI is refused (absolute, `..`, unsupported scheme, bad encoding, too big).
    #[error("mesh file '{}': buffer URI '{uri}' {reason}", path.display())]
    BufferUri {
        /// The mesh file.
        path: PathBuf,
        /// The URI as written in the file.
        uri: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An external glTF buffer file could not be read.
    #[error("mesh file '{}': cannot read buffer '{uri}': {source}", path.display())]
    BufferRead {
        /// The mesh file.
        path: PathBuf,
        /// The URI as written in the file.
        uri: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No triangle was found (no faces, or only non-triangle glTF primitives).
    #[error("mesh file '{}': contains no triangles", path.display())]
    NoTriangles {
        /// The mesh file.
        path: PathBuf,
    },
    /// Every triangle was degenerate.
    #[error(
        "mesh file '{}': all triangles are degenerate ({count} dropped)",
        path.display()
    )]
    AllDegenerate {
        /// The mesh file.
        path: PathBuf,
        /// Number of triangles dropped.
        count: usize,
    },
    /// A triangle references a vertex with a NaN or infinite coordinate.
    #[error(
        "mesh file '{}': triangle {triangle} has a non-finite vertex",
        path.display()
    )]
    NonFiniteVertex {
        /// The mesh file.
        path: PathBuf,
        /// Index of the triangle in file order, from 0.
        triangle: usize,
    },
    /// A triangle references a vertex that does not exist.
    #[error(
        "mesh file '{}': triangle {triangle} references vertex {index} but there are only {vertex_count} vertices",
        path.display()
    )]
    IndexOutOfRange {
        /// The mesh file.
        path: PathBuf,
        /// Index of the triangle in file order, from 0.
        triangle: usize,
        /// The offending vertex index.
        index: u64,
        /// Number of vertices available to the triangle.
        vertex_count: usize,
    },
}

/// The result of a successful load.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportReport {
    /// The mesh, in the file's own frame and units taken as metres; every triangle has a
    /// non-degenerate, finite outward normal (as far as the file's winding is right).
    pub mesh: MeshData,
    /// Number of degenerate triangles dropped (repeated index or area ≤ [`MIN_TRIANGLE_AREA`] m²).
    pub dropped_degenerate: usize,
}

/// Loads a mesh file; the format comes from the extension (see [`MeshFormat`]). Coordinates
/// are returned unchanged, as metres, in the file's frame (glTF stays Y-up).
pub fn load_mesh(path: &Path, limits: &MeshLimits) -> Result<ImportReport, MeshImportError> {
    let format =
        MeshFormat::from_path(path).ok_or_else(|| MeshImportError::UnsupportedExtension {
            path: path.to_path_buf(),
            extension: path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default(),
        })?;
    let bytes = read_limited(path, limits.max_file_bytes).map_err(|e| match e {
        ReadError::Io(source) => MeshImportError::Io {
            path: path.to_path_buf(),
            source,
        },
        ReadError::TooLarge(size) => MeshImportError::FileTooLarge {
            path: path.to_path_buf(),
            size,
            limit: limits.max_file_bytes,
        },
    })?;
    if bytes.is_empty() {
        return Err(MeshImportError::EmptyFile {
            path: path.to_path_buf(),
        });
    }
    let raw = match format {
        MeshFormat::Obj => load_obj(path, &bytes, limits)?,
        MeshFormat::Stl => load_stl(path, &bytes, limits)?,
        MeshFormat::Gltf => load_gltf(path, &bytes, limits)?,
    };
    finish(path, raw)
}

// ---------------------------------------------------------------------------------------------
// Common parts

/// Vertices and triangles as read from a file, before validation.
#[derive(Default)]
struct RawMesh {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
}

enum ReadError {
    Io(std::io::Error),
    TooLarge(u64),
}

/// Reads a whole file, refusing (from its metadata, before reading) one above `limit` bytes.
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let file = File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // `take` guards against a file that grows between the metadata and the read.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

fn parse_err(path: &Path, detail: impl Into<String>) -> MeshImportError {
    MeshImportError::Parse {
        path: path.to_path_buf(),
        detail: detail.into(),
    }
}

fn too_many(path: &Path, count: usize, limits: &MeshLimits) -> MeshImportError {
    MeshImportError::TooManyTriangles {
        path: path.to_path_buf(),
        count,
        limit: limits.max_triangles,
    }
}

/// Twice the area below which a triangle is degenerate (the cross product's norm).
const MIN_CROSS_NORM: f64 = 2.0 * MIN_TRIANGLE_AREA;

/// Validates the triangles, drops degenerate ones and unused vertices.
fn finish(path: &Path, raw: RawMesh) -> Result<ImportReport, MeshImportError> {
    if raw.triangles.is_empty() {
        return Err(MeshImportError::NoTriangles {
            path: path.to_path_buf(),
        });
    }
    let vertex_count = raw.vertices.len();
    let mut remap = vec![u32::MAX; vertex_count];
    let mut mesh = MeshData {
        vertices: Vec::new(),
        triangles: Vec::with_capacity(raw.triangles.len()),
    };
    let mut dropped = 0usize;
    for (i, tri) in raw.triangles.iter().enumerate() {
        let mut p = [Point3::origin(); 3];
        for (corner, &index) in p.iter_mut().zip(tri) {
            *corner = *raw.vertices.get(index as usize).ok_or_else(|| {
                MeshImportError::IndexOutOfRange {
                    path: path.to_path_buf(),
                    triangle: i,
                    index: u64::from(index),
                    vertex_count,
                }
            })?;
        }
        if !p.iter().all(|q| q.coords.iter().all(|c| c.is_finite())) {
            return Err(MeshImportError::NonFiniteVertex {
                path: path.to_path_buf(),
                triangle: i,
            });
        }
        let repeated = tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2];
        // Written so that a NaN norm (impossible after the check above) also counts as degenerate.
        let big_enough = (p[1] - p[0]).cross(&(p[2] - p[0])).norm() > MIN_CROSS_NORM;
        if repeated || !big_enough {
            dropped += 1;
            continue;
        }
        let mut out = [0u32; 3];
        for ((o, &index), corner) in out.iter_mut().zip(tri).zip(&p) {
            // `index` was checked against `vertex_count` above.
            let slot = &mut remap[index as usize];
            if *slot == u32::MAX {
                *slot = mesh.vertices.len() as u32;
                mesh.vertices.push(*corner);
            }
            *o = *slot;
        }
        mesh.triangles.push(out);
    }
    if mesh.triangles.is_empty() {
        return Err(MeshImportError::AllDegenerate {
            path: path.to_path_buf(),
            count: dropped,
        });
    }
    mesh.vertices.shrink_to_fit();
    Ok(ImportReport {
        mesh,
        dropped_degenerate: dropped,
    })
}

fn le_u32(bytes: &[u8], offset: usize) -> Option<u32> {
    let b = bytes.get(offset..offset.checked_add(4)?)?;
    Some(u32::from_le_bytes(b.try_into().ok()?))
}

fn le_u16(bytes: &[u8], offset: usize) -> Option<u16> {
    let b = bytes.get(offset..offset.checked_add(2)?)?;
    Some(u16::from_le_bytes(b.try_into().ok()?))
}

fn le_f32(bytes: &[u8], offset: usize) -> Option<f32> {
    le_u32(bytes, offset).map(f32::from_bits)
}

// ---------------------------------------------------------------------------------------------
// OBJ

/// Keeps only what the mesh needs from an OBJ text: `v` lines, object/group statements and
/// faces reduced to their position indices. This keeps material libraries from being looked up
/// and texture/normal indices (which tobj does not range-check with overflow-safe arithmetic)
/// from reaching the parser. Returns the text and the number of triangles its faces will give.
fn sanitize_obj(bytes: &[u8]) -> (String, usize) {
    let mut out = String::with_capacity(bytes.len());
    let mut triangles = 0usize;
    for line in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let mut words = line.split_whitespace();
        match words.next() {
            Some("f") => {
                out.push('f');
                let mut corners = 0usize;
                for w in words {
                    out.push(' ');
                    out.push_str(w.split('/').next().unwrap_or(""));
                    corners += 1;
                }
                triangles = triangles.saturating_add(corners.saturating_sub(2));
            }
            // Texture coordinates, normals, parameter-space vertices, materials, points, lines.
            Some("vt" | "vn" | "vp" | "mtllib" | "usemtl" | "p" | "l") | None => {}
            Some(_) => out.push_str(line.trim_end()),
        }
        // One output line per input line.
        out.push('\n');
    }
    (out, triangles)
}

fn load_obj(path: &Path, bytes: &[u8], limits: &MeshLimits) -> Result<RawMesh, MeshImportError> {
    let (text, declared) = sanitize_obj(bytes);
    if declared > limits.max_triangles {
        return Err(too_many(path, declared, limits));
    }
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = text.as_bytes();
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Ok((Vec::new(), HashMap::new())))
            .map_err(|e| parse_err(path, format!("OBJ: {e}")))?;

    let total: usize = models.iter().map(|m| m.mesh.indices.len() / 3).sum();
    if total > limits.max_triangles {
        return Err(too_many(path, total, limits));
    }
    let mut raw = RawMesh {
        vertices: Vec::new(),
        triangles: Vec::with_capacity(total),
    };
    for model in &models {
        let mesh = &model.mesh;
        if !mesh.indices.len().is_multiple_of(3) {
            return Err(parse_err(
                path,
                format!("OBJ: object '{}' was not fully triangulated", model.name),
            ));
        }
        let base = u32::try_from(raw.vertices.len())
            .map_err(|_| parse_err(path, "more than 2^32 vertices"))?;
        raw.vertices.extend(
            mesh.positions
                .chunks_exact(3)
                .map(|c| Point3::new(c[0], c[1], c[2])),
        );
        for t in mesh.indices.chunks_exact(3) {
            let shift = |i: u32| {
                i.checked_add(base)
                    .ok_or_else(|| parse_err(path, "more than 2^32 vertices"))
            };
            raw.triangles
                .push([shift(t[0])?, shift(t[1])?, shift(t[2])?]);
        }
    }
    Ok(raw)
}

// ---------------------------------------------------------------------------------------------
// STL

const STL_HEADER: usize = 84;
const STL_RECORD: usize = 50;

/// Merges bit-identical corners (with -0.0 taken as 0.0) into shared vertices.
#[derive(Default)]
struct VertexDedup {
    map: HashMap<[u32; 3], u32>,
    raw: RawMesh,
}

impl VertexDedup {
    fn vertex(&mut self, v: [f32; 3]) -> Option<u32> {
        let v = v.map(|c| c + 0.0);
        let key = v.map(f32::to_bits);
        if let Some(&i) = self.map.get(&key) {
            return Some(i);
        }
        let i = u32::try_from(self.raw.vertices.len()).ok()?;
        self.raw.vertices.push(Point3::new(
            f64::from(v[0]),
            f64::from(v[1]),
            f64::from(v[2]),
        ));
        self.map.insert(key, i);
        Some(i)
    }

    fn triangle(&mut self, path: &Path, corners: [[f32; 3]; 3]) -> Result<(), MeshImportError> {
        let mut t = [0u32; 3];
        for (slot, c) in t.iter_mut().zip(corners) {
            *slot = self
                .vertex(c)
                .ok_or_else(|| parse_err(path, "more than 2^32 vertices"))?;
        }
        self.raw.triangles.push(t);
        Ok(())
    }
}

fn load_stl(path: &Path, bytes: &[u8], limits: &MeshLimits) -> Result<RawMesh, MeshImportError> {
    let declared = le_u32(bytes, 80).map(|n| n as usize);
    let exact_binary_size = declared.is_some_and(|n| {
        n.checked_mul(STL_RECORD)
            .and_then(|b| b.checked_add(STL_HEADER))
            == Some(bytes.len())
    });
    let text_start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let body = bytes.get(text_start..).unwrap_or_default();
    // Many binary exporters also start their 80-byte header with "solid": the exact binary size
    // decides for them.
    if body.starts_with(b"solid") && !exact_binary_size {
        load_ascii_stl(path, body, limits)
    } else {
        load_binary_stl(path, bytes, limits)
    }
}

fn load_binary_stl(
    path: &Path,
    bytes: &[u8],
    limits: &MeshLimits,
) -> Result<RawMesh, MeshImportError> {
    let Some(declared) = le_u32(bytes, 80) else {
        return Err(parse_err(
            path,
            format!(
                "binary STL of {} bytes is shorter than its {STL_HEADER}-byte header",
                bytes.len()
            ),
        ));
    };
    let declared = declared as usize;
    if declared > limits.max_triangles {
        return Err(too_many(path, declared, limits));
    }
    let needed = declared
        .checked_mul(STL_RECORD)
        .and_then(|b| b.checked_add(STL_HEADER));
    let records = match needed.and_then(|end| bytes.get(STL_HEADER..end)) {
        Some(r) => r,
        None => {
            return Err(parse_err(
                path,
                format!(
                    "binary STL is truncated: its header declares {declared} triangles \
                     ({} bytes) but the file has {} bytes",
                    STL_HEADER as u64 + STL_RECORD as u64 * declared as u64,
                    bytes.len()
                ),
            ))
        }
    };
    let mut dedup = VertexDedup::default();
    dedup.raw.triangles.reserve(declared);
    for record in records.chunks_exact(STL_RECORD) {
        let mut corners = [[0f32; 3]; 3];
        for (k, corner) in corners.iter_mut().enumerate() {
            for (j, c) in corner.iter_mut().enumerate() {
                // 12 bytes of normal, then 3 × 12 bytes of corners; in range by construction.
                *c = le_f32(record, 12 + 12 * k + 4 * j).unwrap_or(f32::NAN);
            }
        }
        dedup.triangle(path, corners)?;
    }
    Ok(dedup.raw)
}

fn load_ascii_stl(
    path: &Path,
    body: &[u8],
    limits: &MeshLimits,
) -> Result<RawMesh, MeshImportError> {
    // stl_io wants "solid " with a space; a nameless "solid" line is legal too.
    let text: Cow<[u8]> = if body.starts_with(b"solid ") {
        Cow::Borrowed(body)
    } else {
        let mut v = b"solid ".to_vec();
        v.extend_from_slice(body.get(5..).unwrap_or_default());
        Cow::Owned(v)
    };
    let mut cursor = Cursor::new(text.as_ref());
    let reader =
        stl_io::create_stl_reader(&mut cursor).map_err(|e| parse_err(path, format!("STL: {e}")))?;
    let mut dedup = VertexDedup::default();
    let mut count = 0usize;
    for facet in reader {
        match facet {
            Ok(facet) => {
                count += 1;
                if count <= limits.max_triangles {
                    dedup.triangle(path, facet.vertices.map(|v| v.0))?;
                }
            }
            Err(_) if count > limits.max_triangles => break,
            Err(e) => return Err(parse_err(path, format!("ASCII STL, facet {count}: {e}"))),
        }
    }
    if count > limits.max_triangles {
        return Err(too_many(path, count, limits));
    }
    Ok(dedup.raw)
}

// ---------------------------------------------------------------------------------------------
// glTF

fn load_gltf(path: &Path, bytes: &[u8], limits: &MeshLimits) -> Result<RawMesh, MeshImportError> {
    if bytes.starts_with(b"glTF") {
        // gltf 1.4 subtracts 12 from the declared length without checking it.
        match le_u32(bytes, 8) {
            None => return Err(parse_err(path, "GLB file shorter than its 12-byte header")),
            Some(len) if len < 12 => {
                return Err(parse_err(
                    path,
                    format!("GLB header declares a length of {len} bytes, less than the header"),
                ))
            }
            Some(_) => {}
        }
    }
    let gltf = gltf::Gltf::from_slice(bytes).map_err(|e| parse_err(path, format!("glTF: {e}")))?;
    let buffers = load_buffers(path, &gltf, limits)?;

    // Collect the primitive instances with their world transforms.
    let instances = collect_instances(path, &gltf)?;
    if instances.is_empty() {
        return Err(MeshImportError::NoTriangles {
            path: path.to_path_buf(),
        });
    }

    // Count the triangles before reading any accessor.
    let mut total = 0usize;
    let mut plans = Vec::with_capacity(instances.len());
    for (mesh_index, prim, world) in instances {
        let Some(positions) = prim.get(&gltf::Semantic::Positions) else {
            return Err(parse_err(
                path,
                format!(
                    "mesh {mesh_index} primitive {} has no POSITION attribute",
                    prim.index()
                ),
            ));
        };
        let indices = prim.indices();
        let corners = indices.as_ref().map_or(positions.count(), |a| a.count());
        if !corners.is_multiple_of(3) {
            return Err(parse_err(
                path,
                format!(
                    "accessor {}: {corners} triangle corners is not a multiple of 3",
                    indices.as_ref().map_or(positions.index(), |a| a.index())
                ),
            ));
        }
        total = total.saturating_add(corners / 3);
        plans.push((positions, indices, world));
    }
    if total > limits.max_triangles {
        return Err(too_many(path, total, limits));
    }

    let max_elements = limits.max_triangles.saturating_mul(3);
    let mut raw = RawMesh {
        vertices: Vec::new(),
        triangles: Vec::with_capacity(total),
    };
    for (positions, indices, world) in plans {
        let local =
            read_positions(&positions, &buffers, max_elements).map_err(|e| parse_err(path, e))?;
        let base = raw.vertices.len();
        if base.saturating_add(local.len()) > u32::MAX as usize {
            return Err(parse_err(path, "more than 2^32 vertices"));
        }
        // glTF node transforms are affine: the bottom row of the matrix is ignored.
        let linear: Matrix3<f64> = world.fixed_view::<3, 3>(0, 0).into_owned();
        let shift: Vector3<f64> = world.fixed_view::<3, 1>(0, 3).into_owned();
        raw.vertices.extend(
            local
                .iter()
                .map(|p| Point3::from(linear * p.coords + shift)),
        );
        // A mirroring transform turns the winding inside out (glTF 2.0 spec, 3.7.2.1).
        let mirrored = linear.determinant() < 0.0;

        let local_tris: Vec<[u32; 3]> = match &indices {
            Some(acc) => {
                let idx =
                    read_indices(acc, &buffers, max_elements).map_err(|e| parse_err(path, e))?;
                idx.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
            }
            None => (0..local.len() / 3)
                .map(|t| {
                    let t = t as u32 * 3;
                    [t, t + 1, t + 2]
                })
                .collect(),
        };
        for tri in local_tris {
            let triangle = raw.triangles.len();
            let mut out = [0u32; 3];
            for (o, &i) in out.iter_mut().zip(&tri) {
                if i as usize >= local.len() {
                    return Err(MeshImportError::IndexOutOfRange {
                        path: path.to_path_buf(),
                        triangle,
                        index: u64::from(i),
                        vertex_count: local.len(),
                    });
                }
                // Fits: base + local.len() <= u32::MAX was checked above.
                *o = (base + i as usize) as u32;
            }
            if mirrored {
                out.swap(1, 2);
            }
            raw.triangles.push(out);
        }
    }
    if raw.triangles.is_empty() {
        return Err(MeshImportError::NoTriangles {
            path: path.to_path_buf(),
        });
    }
    Ok(raw)
}

/// A mesh primitive placed in the file frame: (mesh index, primitive, node world transform).
type Instance<'a> = (usize, gltf::Primitive<'a>, Matrix4<f64>);

/// Primitives of mode TRIANGLES with their node's world transform.
fn collect_instances<'a>(
    path: &Path,
    gltf: &'a gltf::Gltf,
) -> Result<Vec<Instance<'a>>, MeshImportError> {
    let mut out = Vec::new();
    let push_mesh = |out: &mut Vec<Instance<'a>>, mesh: gltf::Mesh<'a>, world: Matrix4<f64>| {
        for prim in mesh.primitives() {
            if prim.mode() == gltf::mesh::Mode::Triangles {
                out.push((mesh.index(), prim, world));
            }
        }
    };
    let node_count = gltf.nodes().len();
    if node_count == 0 {
        for mesh in gltf.meshes() {
            push_mesh(&mut out, mesh, Matrix4::identity());
        }
        return Ok(out);
    }
    let roots: Vec<gltf::Node<'a>> = if let Some(scene) = gltf.default_scene() {
        scene.nodes().collect()
    } else if gltf.scenes().len() > 0 {
        gltf.scenes().flat_map(|s| s.nodes()).collect()
    } else {
        let mut has_parent = vec![false; node_count];
        for node in gltf.nodes() {
            for child in node.children() {
                if let Some(flag) = has_parent.get_mut(child.index()) {
                    *flag = true;
                }
            }
        }
        gltf.nodes()
            .filter(|n| !has_parent.get(n.index()).copied().unwrap_or(false))
            .collect()
    };
    // Depth-first in document order; each node is visited once, which also defuses cycles.
    let mut visited = vec![false; node_count];
    let mut stack: Vec<(gltf::Node<'a>, Matrix4<f64>)> = roots
        .into_iter()
        .rev()
        .map(|n| (n, Matrix4::identity()))
        .collect();
    while let Some((node, parent)) = stack.pop() {
        match visited.get_mut(node.index()) {
            Some(v) if !*v => *v = true,
            _ => continue,
        }
        let world = parent * node_matrix(&node).map_err(|e| parse_err(path, e))?;
        if !world.iter().all(|c| c.is_finite()) {
            return Err(parse_err(
                path,
                format!("node {} has a non-finite world transform", node.index()),
            ));
        }
        if let Some(mesh) = node.mesh() {
            push_mesh(&mut out, mesh, world);
        }
        let children: Vec<_> = node.children().collect();
        for child in children.into_iter().rev() {
            stack.push((child, world));
        }
    }
    Ok(out)
}

/// The node's local transform in f64 (translation · rotation · scale, or its matrix).
fn node_matrix(node: &gltf::Node) -> Result<Matrix4<f64>, String> {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            // Column-major: matrix[column][row].
            Ok(Matrix4::from_fn(|r, c| f64::from(matrix[c][r])))
        }
        gltf::scene::Transform::Decomposed {
            translation: t,
            rotation: q,
            scale: s,
        } => {
            let q = Quaternion::new(
                f64::from(q[3]),
                f64::from(q[0]),
                f64::from(q[1]),
                f64::from(q[2]),
            );
            let rotation = UnitQuaternion::try_new(q, 1e-12).ok_or_else(|| {
                format!(
                    "node {} has a zero-length rotation quaternion",
                    node.index()
                )
            })?;
            let translation = Vector3::new(f64::from(t[0]), f64::from(t[1]), f64::from(t[2]));
            let scale = Vector3::new(f64::from(s[0]), f64::from(s[1]), f64::from(s[2]));
            Ok(Matrix4::new_translation(&translation)
                * rotation.to_homogeneous()
                * Matrix4::new_nonuniform_scaling(&scale))
        }
    }
}

/// The bytes of every buffer, in document order.
fn load_buffers<'a>(
    path: &Path,
    gltf: &'a gltf::Gltf,
    limits: &MeshLimits,
) -> Result<Vec<Cow<'a, [u8]>>, MeshImportError> {
    let mut out = Vec::with_capacity(gltf.buffers().len());
    for buffer in gltf.buffers() {
        let data: Cow<'a, [u8]> = match buffer.source() {
            gltf::buffer::Source::Bin => match gltf.blob.as_deref() {
                Some(blob) => Cow::Borrowed(blob),
                None => {
                    return Err(parse_err(
                        path,
                        format!(
                            "buffer {} refers to the GLB binary chunk but there is none",
                            buffer.index()
                        ),
                    ))
                }
            },
            gltf::buffer::Source::Uri(uri) => Cow::Owned(load_uri(path, uri, limits)?),
        };
        if data.len() < buffer.length() {
            return Err(parse_err(
                path,
                format!(
                    "buffer {} declares {} bytes but its data has only {}",
                    buffer.index(),
                    buffer.length(),
                    data.len()
                ),
            ));
        }
        let data = match data {
            Cow::Borrowed(b) => Cow::Borrowed(b.get(..buffer.length()).unwrap_or(b)),
            Cow::Owned(mut v) => {
                v.truncate(buffer.length());
                Cow::Owned(v)
            }
        };
        out.push(data);
    }
    Ok(out)
}

/// The bytes behind a buffer URI: a `data:` URI, or a relative file path below the glTF's folder.
fn load_uri(path: &Path, uri: &str, limits: &MeshLimits) -> Result<Vec<u8>, MeshImportError> {
    let refuse = |reason: String| MeshImportError::BufferUri {
        path: path.to_path_buf(),
        uri: uri.to_string(),
        reason,
    };
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((header, payload)) = rest.split_once(',') else {
            return Err(refuse("is a data URI without a ','".into()));
        };
        let decoded = if header.ends_with(";base64") {
            decode_base64(payload)
        } else {
            percent_decode(payload)
        };
        let decoded = decoded.ok_or_else(|| refuse("has an invalid data payload".into()))?;
        if decoded.len() as u64 > limits.max_file_bytes {
            return Err(refuse(format!(
                "holds {} bytes, above the limit of {} bytes",
                decoded.len(),
                limits.max_file_bytes
            )));
        }
        return Ok(decoded);
    }
    let decoded = percent_decode(uri)
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(|| refuse("is not valid percent-encoded UTF-8".into()))?;
    if decoded.is_empty() {
        return Err(refuse("is empty".into()));
    }
    if decoded.starts_with('/') || decoded.starts_with('\\') || Path::new(&decoded).is_absolute() {
        return Err(refuse(
            "is absolute (must be relative to the glTF file)".into(),
        ));
    }
    if decoded.contains(':') {
        return Err(refuse(
            "has a scheme or drive (only relative file paths and data: URIs are supported)".into(),
        ));
    }
    if decoded.split(['/', '\\']).any(|seg| seg == "..")
        || Path::new(&decoded)
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(refuse(
            "contains a '..' component (must stay below the glTF file's folder)".into(),
        ));
    }
    let file = path.parent().unwrap_or(Path::new("")).join(&decoded);
    read_limited(&file, limits.max_file_bytes).map_err(|e| match e {
        ReadError::Io(source) => MeshImportError::BufferRead {
            path: path.to_path_buf(),
            uri: uri.to_string(),
            source,
        },
        ReadError::TooLarge(size) => refuse(format!(
            "names a file of {size} bytes, above the limit of {} bytes",
            limits.max_file_bytes
        )),
    })
}

/// Standard or URL-safe base64, padding optional.
fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// `%XX` escapes → bytes; `None` on a malformed escape.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Some(out)
}

/// The bytes of a buffer view, bounds-checked.
fn view_bytes<'b>(view: &gltf::buffer::View, buffers: &'b [Cow<[u8]>]) -> Result<&'b [u8], String> {
    let buffer = view.buffer().index();
    let data = buffers.get(buffer).ok_or_else(|| {
        format!(
            "buffer view {} names a missing buffer {buffer}",
            view.index()
        )
    })?;
    view.offset()
        .checked_add(view.length())
        .and_then(|end| data.get(view.offset()..end))
        .ok_or_else(|| {
            format!(
                "buffer view {} (offset {}, length {}) lies outside buffer {buffer} of {} bytes",
                view.index(),
                view.offset(),
                view.length(),
                data.len()
            )
        })
}

/// Reads `count` elements of `size` bytes, `stride` apart, from `offset` in `data`.
fn read_strided<T>(
    what: &str,
    data: &[u8],
    offset: usize,
    count: usize,
    size: usize,
    stride: usize,
    decode: impl Fn(&[u8]) -> Option<T>,
) -> Result<Vec<T>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if stride < size {
        return Err(format!(
            "{what}: byte stride {stride} is smaller than an element ({size} bytes)"
        ));
    }
    let end = (count - 1)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(offset))
        .and_then(|x| x.checked_add(size));
    if end.is_none_or(|end| end > data.len()) {
        return Err(format!(
            "{what}: {count} elements from byte {offset} do not fit in its {} bytes of data",
            data.len()
        ));
    }
    // From here every element lies within `data`.
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let start = offset + i * stride;
        let value = data
            .get(start..start + size)
            .and_then(&decode)
            .ok_or_else(|| format!("{what}: cannot decode element {i}"))?;
        out.push(value);
    }
    Ok(out)
}

/// Reads an accessor's elements (dense, sparse, or both); `size` is the element size in bytes.
fn read_accessor<T: Copy>(
    acc: &gltf::Accessor,
    buffers: &[Cow<[u8]>],
    size: usize,
    zero: T,
    max_without_data: usize,
    decode: impl Fn(&[u8]) -> Option<T>,
) -> Result<Vec<T>, String> {
    let what = format!("accessor {}", acc.index());
    let count = acc.count();
    let mut values = match acc.view() {
        Some(view) => {
            let data = view_bytes(&view, buffers)?;
            let stride = view.stride().unwrap_or(size);
            read_strided(&what, data, acc.offset(), count, size, stride, &decode)?
        }
        None => {
            if count > max_without_data {
                return Err(format!(
                    "{what}: {count} elements without a buffer view is more than the limit \
                     of {max_without_data}"
                ));
            }
            vec![zero; count]
        }
    };
    if let Some(sparse) = acc.sparse() {
        let n = sparse.count();
        let indices = sparse.indices();
        let index_size = match indices.index_type() {
            gltf::accessor::sparse::IndexType::U8 => 1,
            gltf::accessor::sparse::IndexType::U16 => 2,
            gltf::accessor::sparse::IndexType::U32 => 4,
        };
        let index_data = view_bytes(&indices.view(), buffers)?;
        let targets = read_strided(
            &format!("{what} sparse indices"),
            index_data,
            indices.offset(),
            n,
            index_size,
            index_size,
            |b| match b.len() {
                1 => b.first().map(|&x| u32::from(x)),
                2 => le_u16(b, 0).map(u32::from),
                _ => le_u32(b, 0),
            },
        )?;
        let vals = sparse.values();
        let value_data = view_bytes(&vals.view(), buffers)?;
        let replacements = read_strided(
            &format!("{what} sparse values"),
            value_data,
            vals.offset(),
            n,
            size,
            size,
            &decode,
        )?;
        for (target, value) in targets.into_iter().zip(replacements) {
            let slot = values.get_mut(target as usize).ok_or_else(|| {
                format!("{what}: sparse index {target} is out of range (count {count})")
            })?;
            *slot = value;
        }
    }
    Ok(values)
}

fn read_positions(
    acc: &gltf::Accessor,
    buffers: &[Cow<[u8]>],
    max_without_data: usize,
) -> Result<Vec<Point3<f64>>, String> {
    use gltf::accessor::{DataType, Dimensions};
    if acc.data_type() != DataType::F32 || acc.dimensions() != Dimensions::Vec3 {
        return Err(format!(
            "accessor {}: POSITION must be FLOAT VEC3, found {:?} {:?}",
            acc.index(),
            acc.data_type(),
            acc.dimensions()
        ));
    }
    read_accessor(acc, buffers, 12, Point3::origin(), max_without_data, |b| {
        Some(Point3::new(
            f64::from(le_f32(b, 0)?),
            f64::from(le_f32(b, 4)?),
            f64::from(le_f32(b, 8)?),
        ))
    })
}

fn read_indices(
    acc: &gltf::Accessor,
    buffers: &[Cow<[u8]>],
    max_without_data: usize,
) -> Result<Vec<u32>, String> {
    use gltf::accessor::{DataType, Dimensions};
    if acc.dimensions() != Dimensions::Scalar {
        return Err(format!(
            "accessor {}: indices must be SCALAR, found {:?}",
            acc.index(),
            acc.dimensions()
        ));
    }
    match acc.data_type() {
        DataType::U8 => read_accessor(acc, buffers, 1, 0, max_without_data, |b| {
            b.first().map(|&x| u32::from(x))
        }),
        DataType::U16 => read_accessor(acc, buffers, 2, 0, max_without_data, |b| {
            le_u16(b, 0).map(u32::from)
        }),
        DataType::U32 => read_accessor(acc, buffers, 4, 0, max_without_data, |b| le_u32(b, 0)),
        other => Err(format!(
            "accessor {}: indices must be unsigned integers, found {other:?}",
            acc.index()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use std::sync::atomic::{AtomicUsize, Ordering};

    // ---- helpers ------------------------------------------------------------------------

    fn asset(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/assets/meshes")
            .join(name)
    }

    /// A scratch folder under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> Self {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "treadsim_mesh_import_{}_{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
            let p = self.0.join(name);
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent).unwrap();
            }
            std::fs::write(&p, bytes).unwrap();
            p
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
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
}
