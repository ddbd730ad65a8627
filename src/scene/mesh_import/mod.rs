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

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use nalgebra::Point3;

use crate::scene::MeshData;

mod gltf;
mod obj;
mod stl;

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
        MeshFormat::Obj => obj::load_obj(path, &bytes, limits)?,
        MeshFormat::Stl => stl::load_stl(path, &bytes, limits)?,
        MeshFormat::Gltf => gltf::load_gltf(path, &bytes, limits)?,
    };
    finish(path, raw)
}

// ---------------------------------------------------------------------------------------------
// Common parts (the format modules use these)

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

#[cfg(test)]
mod tests;
