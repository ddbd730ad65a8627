//! STL, binary and ASCII: facets are triangles already; coincident corners are merged.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;

use nalgebra::Point3;

use super::{le_f32, le_u32, parse_err, too_many, MeshImportError, MeshLimits, RawMesh};

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

pub(super) fn load_stl(
    path: &Path,
    bytes: &[u8],
    limits: &MeshLimits,
) -> Result<RawMesh, MeshImportError> {
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
