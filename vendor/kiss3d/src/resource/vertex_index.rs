/// The type used for vertex indices.
pub type VertexIndex = u32;
/// The wgpu IndexFormat for the vertex index type.
pub const VERTEX_INDEX_FORMAT: wgpu::IndexFormat = wgpu::IndexFormat::Uint32;
