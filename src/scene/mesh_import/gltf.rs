//! glTF 2.0 (`.gltf` JSON or `.glb` binary): mesh primitives instanced by the scene's nodes,
//! with their transforms applied in `f64`; buffers from the GLB chunk, `data:` URIs or files.

use std::borrow::Cow;
use std::path::{Component, Path};

use nalgebra::{Matrix3, Matrix4, Point3, Quaternion, UnitQuaternion, Vector3};

use super::{
    le_f32, le_u16, le_u32, parse_err, read_limited, too_many, MeshImportError, MeshLimits,
    RawMesh, ReadError,
};

/// Reads a glTF or GLB file's triangles (see the parent module for what is taken): the
/// primitives instanced by the scene's nodes, counted against the limits before any accessor
/// is read, then placed in the file frame one by one.
pub(super) fn load_gltf(
    path: &Path,
    bytes: &[u8],
    limits: &MeshLimits,
) -> Result<RawMesh, MeshImportError> {
    check_glb_header(path, bytes)?;
    let gltf =
        ::gltf::Gltf::from_slice(bytes).map_err(|e| parse_err(path, format!("glTF: {e}")))?;
    let buffers = load_buffers(path, &gltf, limits)?;

    // Collect the primitive instances with their world transforms.
    let instances = collect_instances(path, &gltf)?;
    if instances.is_empty() {
        return Err(MeshImportError::NoTriangles {
            path: path.to_path_buf(),
        });
    }
    let (plans, total) = plan_primitives(path, instances)?;
    if total > limits.max_triangles {
        return Err(too_many(path, total, limits));
    }

    let max_elements = limits.max_triangles.saturating_mul(3);
    let mut raw = RawMesh {
        vertices: Vec::new(),
        triangles: Vec::with_capacity(total),
    };
    for plan in &plans {
        append_primitive(path, plan, &buffers, max_elements, &mut raw)?;
    }
    if raw.triangles.is_empty() {
        return Err(MeshImportError::NoTriangles {
            path: path.to_path_buf(),
        });
    }
    Ok(raw)
}

/// Refuses a GLB whose header declares a length shorter than the header itself: gltf 1.4
/// subtracts 12 from the declared length without checking it.
fn check_glb_header(path: &Path, bytes: &[u8]) -> Result<(), MeshImportError> {
    if !bytes.starts_with(b"glTF") {
        return Ok(());
    }
    match le_u32(bytes, 8) {
        None => Err(parse_err(path, "GLB file shorter than its 12-byte header")),
        Some(len) if len < 12 => Err(parse_err(
            path,
            format!("GLB header declares a length of {len} bytes, less than the header"),
        )),
        Some(_) => Ok(()),
    }
}

/// One primitive to read: its positions, its indices (if indexed) and its node's world
/// transform.
type Plan<'a> = (
    ::gltf::Accessor<'a>,
    Option<::gltf::Accessor<'a>>,
    Matrix4<f64>,
);

/// The primitives' accessors and the total triangle count, checked before any accessor is
/// read: every primitive has positions and a whole number of triangles.
fn plan_primitives<'a>(
    path: &Path,
    instances: Vec<Instance<'a>>,
) -> Result<(Vec<Plan<'a>>, usize), MeshImportError> {
    let mut total = 0usize;
    let mut plans = Vec::with_capacity(instances.len());
    for (mesh_index, prim, world) in instances {
        let Some(positions) = prim.get(&::gltf::Semantic::Positions) else {
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
    Ok((plans, total))
}

/// Reads one primitive and appends its vertices (placed by its node's transform) and its
/// triangles (indices range-checked, winding kept outward under a mirroring transform) to
/// `raw`.
fn append_primitive(
    path: &Path,
    (positions, indices, world): &Plan,
    buffers: &[Cow<[u8]>],
    max_elements: usize,
    raw: &mut RawMesh,
) -> Result<(), MeshImportError> {
    let local = read_positions(positions, buffers, max_elements).map_err(|e| parse_err(path, e))?;
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

    let local_tris: Vec<[u32; 3]> = match indices {
        Some(acc) => {
            let idx = read_indices(acc, buffers, max_elements).map_err(|e| parse_err(path, e))?;
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
    Ok(())
}

/// A mesh primitive placed in the file frame: (mesh index, primitive, node world transform).
type Instance<'a> = (usize, ::gltf::Primitive<'a>, Matrix4<f64>);

/// Primitives of mode TRIANGLES with their node's world transform.
fn collect_instances<'a>(
    path: &Path,
    gltf: &'a ::gltf::Gltf,
) -> Result<Vec<Instance<'a>>, MeshImportError> {
    let mut out = Vec::new();
    let push_mesh = |out: &mut Vec<Instance<'a>>, mesh: ::gltf::Mesh<'a>, world: Matrix4<f64>| {
        for prim in mesh.primitives() {
            if prim.mode() == ::gltf::mesh::Mode::Triangles {
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
    let roots: Vec<::gltf::Node<'a>> = if let Some(scene) = gltf.default_scene() {
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
    let mut stack: Vec<(::gltf::Node<'a>, Matrix4<f64>)> = roots
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
fn node_matrix(node: &::gltf::Node) -> Result<Matrix4<f64>, String> {
    match node.transform() {
        ::gltf::scene::Transform::Matrix { matrix } => {
            // Column-major: matrix[column][row].
            Ok(Matrix4::from_fn(|r, c| f64::from(matrix[c][r])))
        }
        ::gltf::scene::Transform::Decomposed {
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
    gltf: &'a ::gltf::Gltf,
    limits: &MeshLimits,
) -> Result<Vec<Cow<'a, [u8]>>, MeshImportError> {
    let mut out = Vec::with_capacity(gltf.buffers().len());
    for buffer in gltf.buffers() {
        let data: Cow<'a, [u8]> = match buffer.source() {
            ::gltf::buffer::Source::Bin => match gltf.blob.as_deref() {
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
            ::gltf::buffer::Source::Uri(uri) => Cow::Owned(load_uri(path, uri, limits)?),
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
pub(super) fn decode_base64(s: &str) -> Option<Vec<u8>> {
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
pub(super) fn percent_decode(s: &str) -> Option<Vec<u8>> {
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
fn view_bytes<'b>(
    view: &::gltf::buffer::View,
    buffers: &'b [Cow<[u8]>],
) -> Result<&'b [u8], String> {
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
    acc: &::gltf::Accessor,
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
            ::gltf::accessor::sparse::IndexType::U8 => 1,
            ::gltf::accessor::sparse::IndexType::U16 => 2,
            ::gltf::accessor::sparse::IndexType::U32 => 4,
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
    acc: &::gltf::Accessor,
    buffers: &[Cow<[u8]>],
    max_without_data: usize,
) -> Result<Vec<Point3<f64>>, String> {
    use ::gltf::accessor::{DataType, Dimensions};
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
    acc: &::gltf::Accessor,
    buffers: &[Cow<[u8]>],
    max_without_data: usize,
) -> Result<Vec<u32>, String> {
    use ::gltf::accessor::{DataType, Dimensions};
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
