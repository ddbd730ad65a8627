//! The fast render path's material: Lambert diffuse and a flat ambient term, no specular, no
//! shadows, no image-based lighting (`flat.wgsl`).
//!
//! kiss3d's own material is a full PBR shader (GGX specular, cascaded soft shadows with
//! 9-tap PCF, clustered lights, IBL hooks). On a GPU that costs nothing worth mentioning; on
//! Mesa's CPU rasterizer it cost ~1 µs per pixel of the station's front view, well over the
//! whole frame budget. This material keeps what an operator reads a scene by — each face's
//! colour, its brightness from the sun's angle (so treads stay lighter than risers) and the
//! terrain material's texture — for a few dozen instructions per pixel.
//!
//! One instance is shared by every node it is set on; kiss3d calls it through its global
//! material manager (`begin_frame`, `flush`), so [`FlatMaterial::register`] must put it there.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kiss3d::camera::Camera3d;
use kiss3d::context::Context;
use kiss3d::glamx::{Mat3, Mat4, Pose3, Vec3, Vec4};
use kiss3d::light::{LightCollection, LightType};
use kiss3d::resource::vertex_index::VERTEX_INDEX_FORMAT;
use kiss3d::resource::{
    multisample_state, DynamicUniformBuffer, GpuData, GpuMesh3d, Material3d, MaterialManager3d,
    PipelineCache, RenderContext, RenderPhase, Texture,
};
use kiss3d::scene::{AlphaMode, InstancesBuffer3d, ObjectData3d};

/// Most lights the shader reads: the sun, the fill light, a lamp per camera and the site's
/// lights nearest the robot (`viewer::site_lights`).
pub const MAX_FLAT_LIGHTS: usize = 16;

/// The shader's per-frame uniform, as `vec4` rows: view-projection (4), ambient (1), then
/// four rows per light (see `flat.wgsl`).
const FRAME_ROWS: usize = 5 + 4 * MAX_FLAT_LIGHTS;

/// The shader's per-object uniform: model matrix (4 rows), normal matrix (3), colour (1).
type ObjectUniform = [[f32; 4]; 8];

/// The four side planes of the view of `view_proj` (left, right, bottom, top), each as
/// `(n, w)` with the inside where `n·p + w ≥ 0` for a world point `p` (Gribb–Hartmann). They
/// meet at the eye and bound what the view shows ahead of it: a point behind the eye is
/// outside them.
fn side_planes(view_proj: &Mat4) -> [Vec4; 4] {
    let (r0, r1, r3) = (view_proj.row(0), view_proj.row(1), view_proj.row(3));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1]
}

/// Whether a light reaching `radius` m round `position` (world) can light anything in the view
/// bounded by `planes` ([`side_planes`]): its sphere is not wholly outside one of them. A point
/// or spot light's attenuation is exactly zero beyond its radius (`flat.wgsl`), so a light
/// that cannot changes no pixel, and the shader need not loop over it.
fn may_light_view(planes: &[Vec4; 4], position: Vec3, radius: f32) -> bool {
    planes.iter().all(|plane| {
        let normal = plane.truncate();
        normal.dot(position) + plane.w >= -radius * normal.length()
    })
}

/// The per-frame uniform's rows for a view-projection matrix and a light collection: pure,
/// so the light packing is testable without a GPU. Point and spot lights whose reach lies
/// wholly outside the view are left out (each light costs every pixel on a CPU renderer); of
/// the rest, lights past [`MAX_FLAT_LIGHTS`] are dropped (the station never has that many).
pub fn frame_rows(view_proj: &Mat4, lights: &LightCollection) -> [[f32; 4]; FRAME_ROWS] {
    let mut rows = [[0.0f32; 4]; FRAME_ROWS];
    rows[..4].copy_from_slice(&view_proj.to_cols_array_2d());
    let planes = side_planes(view_proj);
    let seen = lights
        .lights
        .iter()
        .filter(|l| match l.light_type {
            LightType::Directional(_) => true,
            LightType::Point { attenuation_radius }
            | LightType::Spot {
                attenuation_radius, ..
            } => may_light_view(&planes, l.world_position, attenuation_radius),
        })
        .take(MAX_FLAT_LIGHTS);
    let mut count = 0;
    for (k, l) in seen.enumerate() {
        count = k + 1;
        // The shader divides by nothing: it gets 1/radius² and 1/(cos inner − cos outer)
        // (each light costs every pixel on a CPU renderer, where a division or a square
        // root costs several multiplications).
        let (kind, inner, outer, radius) = match l.light_type {
            LightType::Directional(_) => (0.0, 1.0, 0.0, 0.0),
            LightType::Point { attenuation_radius } => (1.0, 1.0, 0.0, attenuation_radius),
            LightType::Spot {
                inner_cone_angle,
                outer_cone_angle,
                attenuation_radius,
            } => (
                2.0,
                inner_cone_angle.cos(),
                outer_cone_angle.cos(),
                attenuation_radius,
            ),
        };
        let d = l.world_direction.normalize_or(Vec3::NEG_Z);
        // The Lambert lobe is albedo/π × radiance × cos θ, as in kiss3d's own shader, so a
        // face keeps the brightness it has on the full path.
        let e = l.color * (l.intensity / std::f32::consts::PI);
        let p = l.world_position;
        let row = 5 + 4 * k;
        rows[row] = [p.x, p.y, p.z, kind];
        let inverse_radius_squared = 1.0 / radius.max(1e-4).powi(2);
        let inverse_cone = 1.0 / (inner - outer).max(1e-4);
        rows[row + 1] = [d.x, d.y, d.z, inverse_radius_squared];
        rows[row + 2] = [e.x, e.y, e.z, 0.0];
        rows[row + 3] = [outer, inverse_cone, 0.0, 0.0];
    }
    let a = lights.ambient;
    rows[4] = [
        lights.ambient_color.r * a,
        lights.ambient_color.g * a,
        lights.ambient_color.b * a,
        count as f32,
    ];
    rows
}

/// The per-object uniform of a node with world pose `pose`, scale `scale` and colour `rgba`.
fn object_uniform(pose: &Pose3, scale: Vec3, rgba: [f32; 4]) -> ObjectUniform {
    let model = pose.to_mat4() * Mat4::from_scale(scale);
    // Normals go through the inverse transpose of rotation × scale: rotation × 1/scale.
    let inv = Vec3::new(
        safe_inverse(scale.x),
        safe_inverse(scale.y),
        safe_inverse(scale.z),
    );
    let normal = Mat3::from_quat(pose.rotation) * Mat3::from_diagonal(inv);
    let m = model.to_cols_array_2d();
    let n = normal.to_cols_array_2d();
    [
        m[0],
        m[1],
        m[2],
        m[3],
        [n[0][0], n[0][1], n[0][2], 0.0],
        [n[1][0], n[1][1], n[1][2], 0.0],
        [n[2][0], n[2][1], n[2][2], 0.0],
        rgba,
    ]
}

/// 1/x, or 0 for a degenerate (zero) scale, which kiss3d uses to hide a node's thickness.
fn safe_inverse(x: f32) -> f32 {
    if x.abs() > 1e-12 {
        1.0 / x
    } else {
        0.0
    }
}

/// Per-node state: where this frame's object uniform sits in the shared buffer.
#[derive(Default)]
struct FlatGpuData {
    offset: Option<u32>,
}

impl GpuData for FlatGpuData {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Which fragment program a pipeline runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// The node's colour, shaded.
    Plain,
    /// The node's colour times its texture, shaded.
    Textured,
    /// As `Textured`, with the texels whose alpha is below the node's cutoff not drawn (a
    /// see-through grating: `AlphaMode::Mask`). A pipeline of its own, because a fragment
    /// program that may discard keeps a CPU rasterizer from testing depth early, and every
    /// other textured surface should keep that.
    Cutout,
}

impl Variant {
    /// The vertex and fragment entry points in `flat.wgsl`.
    fn entry_points(self) -> (&'static str, &'static str) {
        match self {
            Variant::Plain => ("vs_plain", "fs_plain"),
            Variant::Textured => ("vs_textured", "fs_textured"),
            Variant::Cutout => ("vs_textured", "fs_cutout"),
        }
    }
}

/// A variant's pipelines, with and without back-face culling, built per sample count.
struct Pipelines {
    cull: PipelineCache,
    no_cull: PipelineCache,
}

impl Pipelines {
    /// Pipelines of `variant` over `layout` and `shader`.
    fn new(
        layout: &Rc<wgpu::PipelineLayout>,
        shader: &Rc<wgpu::ShaderModule>,
        variant: Variant,
    ) -> Self {
        let build = {
            let (layout, shader) = (layout.clone(), shader.clone());
            Rc::new(move |cull_mode: Option<wgpu::Face>, samples: u32| {
                render_pipeline(&layout, &shader, variant, cull_mode, samples)
            })
        };
        let cull = PipelineCache::new({
            let build = build.clone();
            move |samples| build(Some(wgpu::Face::Back), samples)
        });
        let no_cull = PipelineCache::new(move |samples| build(None, samples));
        Self { cull, no_cull }
    }

    /// The pipeline culling back faces or not, at `samples` samples per pixel.
    fn get(&self, culled: bool, samples: u32) -> Rc<wgpu::RenderPipeline> {
        if culled {
            self.cull.get(samples)
        } else {
            self.no_cull.get(samples)
        }
    }
}

/// Lambert-shaded material, plain or multiplied by each node's own texture (a terrain
/// material's look): one pipeline for all the textures, a bind group per texture.
pub struct FlatMaterial {
    /// The plain or textured pipelines.
    pipelines: Pipelines,
    /// The textured variant's cut-out pipelines, for nodes whose alpha mode is a mask.
    cutout: Option<Pipelines>,
    frame_buffer: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    objects: DynamicUniformBuffer<ObjectUniform>,
    object_layout: wgpu::BindGroupLayout,
    object_group: wgpu::BindGroup,
    /// The textured variant's texture layout (`None`: the plain variant).
    texture_layout: Option<wgpu::BindGroupLayout>,
    /// The bind group of each texture drawn so far, by the texture (kept alive with it).
    texture_groups: Vec<(Arc<Texture>, wgpu::BindGroup)>,
    /// Frames begun, and the frame whose uniform was last written: the first node prepared
    /// in a frame writes the frame uniform.
    frame: u64,
    written: u64,
    /// The frame uniform's bytes, kept so a frame allocates nothing.
    frame_bytes: Vec<u8>,
}

impl FlatMaterial {
    /// The material; `textured`: multiplied by each node's texture (`SceneNode3d::set_texture`,
    /// needs the mesh's UVs). Needs kiss3d's GPU context: create a window or an off-screen
    /// surface first.
    pub fn new(textured: bool) -> Self {
        let ctxt = Context::get();
        let uniform_entry = |dynamic: bool| wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: dynamic,
                min_binding_size: None,
            },
            count: None,
        };
        let frame_layout = ctxt.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("treadsim_flat_frame_layout"),
            entries: &[uniform_entry(false)],
        });
        let object_layout = ctxt.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("treadsim_flat_object_layout"),
            entries: &[uniform_entry(true)],
        });
        let texture_layout = textured.then(texture_layout);
        let mut layouts = vec![Some(&frame_layout), Some(&object_layout)];
        if let Some(l) = &texture_layout {
            layouts.push(Some(l));
        }
        let pipeline_layout = ctxt.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("treadsim_flat_pipeline_layout"),
            bind_group_layouts: &layouts,
            immediate_size: 0,
        });
        let shader = Rc::new(
            ctxt.create_shader_module(Some("treadsim_flat_shader"), include_str!("flat.wgsl")),
        );
        let pipeline_layout = Rc::new(pipeline_layout);
        let variant = if textured {
            Variant::Textured
        } else {
            Variant::Plain
        };
        let pipelines = Pipelines::new(&pipeline_layout, &shader, variant);
        let cutout = textured.then(|| Pipelines::new(&pipeline_layout, &shader, Variant::Cutout));
        let frame_bytes = vec![0u8; FRAME_ROWS * 16];
        let frame_buffer = ctxt.create_buffer(&wgpu::BufferDescriptor {
            label: Some("treadsim_flat_frame"),
            size: frame_bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_group = ctxt.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("treadsim_flat_frame_group"),
            layout: &frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        let objects = DynamicUniformBuffer::new("treadsim_flat_objects");
        let object_group = object_group(&object_layout, &objects);
        Self {
            pipelines,
            cutout,
            frame_buffer,
            frame_group,
            objects,
            object_layout,
            object_group,
            texture_layout,
            texture_groups: Vec::new(),
            frame: 0,
            written: u64::MAX,
            frame_bytes,
        }
    }

    /// Puts the material in kiss3d's global material manager, which calls `begin_frame` and
    /// `flush` on the materials it knows; returns the shared handle to set on nodes.
    ///
    /// Each material gets its own name: the manager keeps one material per name, and a
    /// material it has forgotten would never upload its nodes' uniforms (two scenes in one
    /// thread, as in tests, would break the first).
    pub fn register(self) -> Rc<RefCell<Box<dyn Material3d + 'static>>> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let name = format!("treadsim_flat_{}", COUNT.fetch_add(1, Ordering::Relaxed));
        let material: Rc<RefCell<Box<dyn Material3d + 'static>>> =
            Rc::new(RefCell::new(Box::new(self)));
        MaterialManager3d::get_global_manager(|mm| mm.add(material.clone(), &name));
        material
    }
}

/// The textured variant's bind group layout: a filterable 2D texture and its sampler.
fn texture_layout() -> wgpu::BindGroupLayout {
    Context::get().create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("treadsim_flat_texture_layout"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

/// A texture's bind group (its view and sampler) in `layout`.
fn texture_group(layout: &wgpu::BindGroupLayout, texture: &Texture) -> wgpu::BindGroup {
    Context::get().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("treadsim_flat_texture_group"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&texture.view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&texture.sampler),
            },
        ],
    })
}

/// The flat material's render pipeline of `variant`, culling `cull_mode`, at `samples`
/// samples per pixel.
fn render_pipeline(
    pipeline_layout: &wgpu::PipelineLayout,
    shader: &wgpu::ShaderModule,
    variant: Variant,
    cull_mode: Option<wgpu::Face>,
    samples: u32,
) -> wgpu::RenderPipeline {
    let ctxt = Context::get();
    let buffers = [
        vertex_layout(12, &POSITION),
        vertex_layout(12, &NORMAL),
        vertex_layout(8, &UV),
    ];
    let (vs, fs) = variant.entry_points();
    let buffers = if variant == Variant::Plain {
        &buffers[..2]
    } else {
        &buffers[..]
    };
    ctxt.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("treadsim_flat_pipeline"),
        layout: Some(pipeline_layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some(vs),
            buffers,
            compilation_options: Default::default(),
        },
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some(fs),
            targets: &[Some(wgpu::ColorTargetState {
                format: Context::render_format(),
                blend: Some(wgpu::BlendState::REPLACE),
                write_mask: wgpu::ColorWrites::ALL,
            })],
            compilation_options: Default::default(),
        }),
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            strip_index_format: None,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode,
            polygon_mode: wgpu::PolygonMode::Fill,
            unclipped_depth: false,
            conservative: false,
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: Context::depth_format(),
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: multisample_state(samples),
        multiview_mask: None,
        cache: None,
    })
}

/// The vertex streams: one attribute per buffer, as kiss3d keeps them.
const POSITION: [wgpu::VertexAttribute; 1] = [wgpu::VertexAttribute {
    offset: 0,
    shader_location: 0,
    format: wgpu::VertexFormat::Float32x3,
}];
const NORMAL: [wgpu::VertexAttribute; 1] = [wgpu::VertexAttribute {
    offset: 0,
    shader_location: 1,
    format: wgpu::VertexFormat::Float32x3,
}];
const UV: [wgpu::VertexAttribute; 1] = [wgpu::VertexAttribute {
    offset: 0,
    shader_location: 2,
    format: wgpu::VertexFormat::Float32x2,
}];

/// A vertex buffer of `stride` bytes per vertex holding `attributes`.
fn vertex_layout(
    stride: u64,
    attributes: &'static [wgpu::VertexAttribute],
) -> Option<wgpu::VertexBufferLayout<'static>> {
    Some(wgpu::VertexBufferLayout {
        array_stride: stride,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes,
    })
}

/// The object bind group over the dynamic buffer's current GPU buffer.
fn object_group(
    layout: &wgpu::BindGroupLayout,
    objects: &DynamicUniformBuffer<ObjectUniform>,
) -> wgpu::BindGroup {
    Context::get().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("treadsim_flat_object_group"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: objects.buffer(),
                offset: 0,
                size: std::num::NonZeroU64::new(objects.aligned_size()),
            }),
        }],
    })
}

impl Material3d for FlatMaterial {
    fn create_gpu_data(&self) -> Box<dyn GpuData> {
        Box::new(FlatGpuData::default())
    }

    fn begin_frame(&mut self) {
        self.frame = self.frame.wrapping_add(1);
        self.objects.clear();
    }

    fn flush(&mut self) {
        if self.objects.flush() {
            // The buffer grew: the bind group must point at the new one.
            self.object_group = object_group(&self.object_layout, &self.objects);
        }
    }

    fn prepare(
        &mut self,
        pass: usize,
        transform: Pose3,
        scale: Vec3,
        camera: &mut dyn Camera3d,
        lights: &LightCollection,
        data: &ObjectData3d,
        gpu_data: &mut dyn GpuData,
        _viewport_width: u32,
        _viewport_height: u32,
    ) {
        if self.written != self.frame {
            self.written = self.frame;
            let (view, proj) = camera.view_transform_pair(pass);
            let rows = frame_rows(&(proj * view.to_mat4()), lights);
            for (chunk, v) in self
                .frame_bytes
                .chunks_exact_mut(4)
                .zip(rows.iter().flatten())
            {
                chunk.copy_from_slice(&v.to_ne_bytes());
            }
            Context::get().write_buffer(&self.frame_buffer, 0, &self.frame_bytes);
        }
        let c = data.color();
        // The shader draws every surface opaque; the colour's fourth component carries a
        // cut-out node's alpha cutoff instead (`fs_cutout`).
        let w = match data.alpha_mode() {
            AlphaMode::Mask(cutoff) => cutoff,
            _ => c.a,
        };
        let offset = self
            .objects
            .push(&object_uniform(&transform, scale, [c.r, c.g, c.b, w]));
        if let Some(g) = gpu_data.as_any_mut().downcast_mut::<FlatGpuData>() {
            g.offset = Some(offset);
        }
    }

    fn render(
        &mut self,
        _pass: usize,
        _transform: Pose3,
        _scale: Vec3,
        _camera: &mut dyn Camera3d,
        _lights: &LightCollection,
        data: &ObjectData3d,
        mesh: &mut GpuMesh3d,
        _instances: &mut InstancesBuffer3d,
        gpu_data: &mut dyn GpuData,
        render_pass: &mut wgpu::RenderPass<'_>,
        context: &RenderContext,
    ) {
        // Only the opaque pass: the station draws nothing transparent and runs no prepass.
        if context.phase != RenderPhase::Opaque || !data.surface_rendering_active() {
            return;
        }
        let Some(offset) = gpu_data
            .as_any()
            .downcast_ref::<FlatGpuData>()
            .and_then(|g| g.offset)
        else {
            return;
        };
        let textured = self.texture_layout.is_some();
        if let Ok(mut v) = mesh.coords().write() {
            v.load_to_gpu();
        }
        if let Ok(mut v) = mesh.normals().write() {
            v.load_to_gpu();
        }
        if let Ok(mut v) = mesh.faces().write() {
            v.load_to_gpu();
        }
        if textured {
            if let Ok(mut v) = mesh.uvs().write() {
                v.load_to_gpu();
            }
        }
        let (Some(coords), Some(normals), Some(faces)) = (
            mesh.coords_buffer(),
            mesh.normals_buffer(),
            mesh.faces_buffer(),
        ) else {
            return;
        };
        let culled = data.backface_culling_enabled() && !context.force_no_cull;
        let pipelines = match (&self.cutout, data.alpha_mode()) {
            (Some(cutout), AlphaMode::Mask(_)) => cutout,
            _ => &self.pipelines,
        };
        let pipeline = pipelines.get(culled, context.sample_count);
        render_pass.set_pipeline(&pipeline);
        render_pass.set_bind_group(0, &self.frame_group, &[]);
        render_pass.set_bind_group(1, &self.object_group, &[offset]);
        render_pass.set_vertex_buffer(0, coords.slice(..));
        render_pass.set_vertex_buffer(1, normals.slice(..));
        if let Some(layout) = &self.texture_layout {
            let Some(uvs) = mesh.uvs_buffer() else {
                return;
            };
            let texture = data.texture();
            let k = match self
                .texture_groups
                .iter()
                .position(|(t, _)| Arc::ptr_eq(t, texture))
            {
                Some(k) => k,
                None => {
                    let group = texture_group(layout, texture);
                    self.texture_groups.push((texture.clone(), group));
                    self.texture_groups.len() - 1
                }
            };
            render_pass.set_bind_group(2, &self.texture_groups[k].1, &[]);
            render_pass.set_vertex_buffer(2, uvs.slice(..));
        }
        render_pass.set_index_buffer(faces.slice(..), VERTEX_INDEX_FORMAT);
        render_pass.draw_indexed(0..mesh.num_indices(), 0, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiss3d::color::Color;
    use kiss3d::light::CollectedLight;

    fn light(light_type: LightType, intensity: f32) -> CollectedLight {
        CollectedLight {
            light_type,
            color: Vec3::ONE,
            intensity,
            world_position: Vec3::new(1.0, 2.0, 3.0),
            world_direction: Vec3::new(0.0, 0.0, -2.0),
            radius: 0.0,
            casts_shadows: false,
            layers: u32::MAX,
        }
    }

    #[test]
    fn frame_rows_pack_ambient_and_lights() {
        let mut lights = LightCollection::with_ambient(0.5);
        lights.ambient_color = Color::new(1.0, 0.5, 0.25, 1.0);
        lights.add(light(LightType::Directional(Vec3::NEG_Z), 2.0));
        lights.add(light(
            LightType::Spot {
                inner_cone_angle: 0.0,
                outer_cone_angle: std::f32::consts::FRAC_PI_2,
                attenuation_radius: 12.0,
            },
            std::f32::consts::PI,
        ));
        let rows = frame_rows(&Mat4::IDENTITY, &lights);
        assert_eq!(rows[0], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(rows[4], [0.5, 0.25, 0.125, 2.0]);
        // Directional: type 0, unit direction, intensity / π.
        assert_eq!(rows[5][3], 0.0);
        assert_eq!(&rows[6][..3], &[0.0, 0.0, -1.0]);
        assert!((rows[7][0] - 2.0 / std::f32::consts::PI).abs() < 1e-6);
        // Spot: type 2, position, 1/radius², the outer cone's cosine and
        // 1/(cos inner − cos outer); the colour row's w unused.
        assert_eq!(rows[9], [1.0, 2.0, 3.0, 2.0]);
        assert!((rows[10][3] - 1.0 / 144.0).abs() < 1e-9);
        assert!((rows[11][0] - 1.0).abs() < 1e-6 && rows[11][3] == 0.0);
        assert!(rows[12][0].abs() < 1e-6);
        assert!((rows[12][1] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn frame_rows_keep_at_most_the_shader_s_lights() {
        let mut lights = LightCollection::with_ambient(0.1);
        for _ in 0..MAX_FLAT_LIGHTS + 3 {
            lights.add(light(
                LightType::Point {
                    attenuation_radius: 1.0,
                },
                1.0,
            ));
        }
        let rows = frame_rows(&Mat4::IDENTITY, &lights);
        assert_eq!(rows[4][3], MAX_FLAT_LIGHTS as f32);
    }

    /// A camera at the origin looking along +x (z up), 60° vertical field of view, 16:9,
    /// 0.05–200 m: the station's views' kind of projection.
    fn view_along_x() -> Mat4 {
        use kiss3d::glamx::glam::camera::rh::{proj::opengl, view::look_at_mat4};
        let proj = opengl::perspective(60f32.to_radians(), 16.0 / 9.0, 0.05, 200.0);
        proj * look_at_mat4(Vec3::ZERO, Vec3::X, Vec3::Z)
    }

    fn point_at(position: Vec3, radius: f32) -> CollectedLight {
        CollectedLight {
            world_position: position,
            ..light(
                LightType::Point {
                    attenuation_radius: radius,
                },
                1.0,
            )
        }
    }

    /// Lights whose reach lies wholly outside the view are left out; the sun, a light ahead,
    /// one behind the eye whose reach covers it, and one just off to the side whose reach
    /// pokes into the view are kept, in order.
    #[test]
    fn lights_that_reach_nothing_in_view_are_left_out() {
        let mut lights = LightCollection::with_ambient(0.1);
        lights.add(light(LightType::Directional(Vec3::NEG_Z), 2.0));
        for (position, radius) in [
            (Vec3::new(10.0, 0.0, 0.0), 1.0),   // ahead: kept
            (Vec3::new(-5.0, 0.0, 0.0), 2.0),   // behind, out of reach: left out
            (Vec3::new(-1.0, 0.0, 0.0), 2.0),   // behind, its reach round the eye: kept
            (Vec3::new(0.0, 50.0, 0.0), 3.0),   // far to the left: left out
            (Vec3::new(10.0, 10.0, 0.0), 5.0),  // beside the view's edge, reaching in: kept
            (Vec3::new(10.0, 0.0, 30.0), 10.0), // high above: left out
        ] {
            lights.add(point_at(position, radius));
        }
        let rows = frame_rows(&view_along_x(), &lights);
        assert_eq!(rows[4][3], 4.0);
        assert_eq!(rows[5][3], 0.0, "the sun first");
        let kept: Vec<[f32; 3]> = (1..4)
            .map(|k| [rows[5 + 4 * k][0], rows[5 + 4 * k][1], rows[5 + 4 * k][2]])
            .collect();
        assert_eq!(
            kept,
            [[10.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [10.0, 10.0, 0.0]]
        );
    }

    /// A light left out reaches no point the view shows: random lights against random points
    /// of the view (any pixel, any depth to the far plane), none of them within the reach of
    /// a light left out.
    #[test]
    fn a_light_left_out_reaches_no_visible_point() {
        let view_proj = view_along_x();
        let planes = side_planes(&view_proj);
        let inverse = view_proj.inverse();
        let mut rng = crate::rng::SplitMix64(5);
        let mut r = |a: f64, b: f64| rng.range(a, b) as f32;
        let points: Vec<Vec3> = (0..4000)
            .map(|_| {
                let ndc = Vec4::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0), 1.0);
                let p = inverse * ndc;
                p.truncate() / p.w
            })
            .collect();
        let mut left_out = 0;
        for _ in 0..400 {
            let position = Vec3::new(r(-40.0, 60.0), r(-50.0, 50.0), r(-20.0, 20.0));
            let radius = r(0.5, 15.0);
            if may_light_view(&planes, position, radius) {
                continue;
            }
            left_out += 1;
            for p in &points {
                assert!(
                    p.distance(position) > radius,
                    "{position} (reach {radius} m) left out, yet {p} is in view"
                );
            }
        }
        assert!(left_out > 100, "{left_out} of 400 left out");
    }

    #[test]
    fn normals_of_a_stretched_box_stay_perpendicular() {
        // A box stretched 4× along x: a face normal along (1, 1, 0) in the unit box belongs
        // to a plane that, stretched, leans towards y.
        let u = object_uniform(&Pose3::IDENTITY, Vec3::new(4.0, 1.0, 1.0), [1.0; 4]);
        let n = Mat3::from_cols(
            Vec3::from_slice(&u[4][..3]),
            Vec3::from_slice(&u[5][..3]),
            Vec3::from_slice(&u[6][..3]),
        ) * Vec3::new(1.0, 1.0, 0.0);
        // Tangent of that face in the unit box, stretched.
        let t = Vec3::new(4.0, -1.0, 0.0);
        assert!(n.dot(t).abs() < 1e-6);
        assert_eq!(u[7], [1.0; 4]);
    }
}
