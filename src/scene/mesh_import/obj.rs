//! Wavefront OBJ (text) through tobj: see the parent module for what is kept.

use std::collections::HashMap;
use std::path::Path;

use nalgebra::Point3;

use super::{parse_err, too_many, MeshImportError, MeshLimits, RawMesh};

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

pub(super) fn load_obj(
    path: &Path,
    bytes: &[u8],
    limits: &MeshLimits,
) -> Result<RawMesh, MeshImportError> {
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
