// treadsim's flat material: Lambert diffuse from the scene's lights plus a flat ambient term,
// optionally multiplied by a texture. No specular, no shadows, no image-based lighting: every
// fragment costs a few dozen instructions, which is what a CPU (software) renderer can afford
// at the station's frame rate. Written into kiss3d's HDR film like kiss3d's own materials, so
// the window's tonemap pass treats both render paths alike.

struct Light {
    // xyz: world position; w: type (0 directional, 1 point, 2 spot).
    pos_type: vec4<f32>,
    // xyz: world direction the light shines along; w: 1 / attenuation radius², 1/m².
    dir_radius: vec4<f32>,
    // rgb: colour × intensity / π (the Lambert lobe's normalisation); w: unused.
    color: vec4<f32>,
    // x: cos(outer cone); y: 1 / (cos(inner cone) − cos(outer cone)).
    outer: vec4<f32>,
}

struct Frame {
    view_proj: mat4x4<f32>,
    // rgb: ambient colour × intensity; w: number of lights.
    ambient: vec4<f32>,
    lights: array<Light, 16>,
}

struct Object {
    // World transform with the node's scale folded in.
    model: mat4x4<f32>,
    // Normal matrix (rotation × inverse scale), columns padded to vec4.
    normal0: vec4<f32>,
    normal1: vec4<f32>,
    normal2: vec4<f32>,
    // rgb: the node's colour; w: a cut-out node's alpha cutoff (`fs_cutout`).
    color: vec4<f32>,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@group(2) @binding(0) var t_albedo: texture_2d<f32>;
@group(2) @binding(1) var s_albedo: sampler;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

fn transform(position: vec3<f32>, normal: vec3<f32>) -> Out {
    var out: Out;
    let world = object.model * vec4<f32>(position, 1.0);
    out.clip = frame.view_proj * world;
    out.world = world.xyz;
    out.normal = mat3x3<f32>(object.normal0.xyz, object.normal1.xyz, object.normal2.xyz) * normal;
    out.uv = vec2<f32>(0.0);
    return out;
}

@vertex
fn vs_plain(@location(0) position: vec3<f32>, @location(1) normal: vec3<f32>) -> Out {
    return transform(position, normal);
}

@vertex
fn vs_textured(
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
) -> Out {
    var out = transform(position, normal);
    out.uv = uv;
    return out;
}

// Irradiance (already divided by π) reaching a surface with unit normal `n` at `p`.
fn irradiance(n: vec3<f32>, p: vec3<f32>) -> vec3<f32> {
    var sum = frame.ambient.rgb;
    let count = min(u32(frame.ambient.w), 16u);
    for (var i = 0u; i < count; i = i + 1u) {
        let l = frame.lights[i];
        var to_light = -l.dir_radius.xyz;
        var k = 1.0;
        if l.pos_type.w > 0.5 {
            // Every light costs every pixel on a CPU renderer: one inverse square root, no
            // division (the frame carries 1/radius² and the cone's 1/(cos inner − cos outer)).
            let v = l.pos_type.xyz - p;
            let d2 = max(dot(v, v), 1e-8);
            to_light = v * inverseSqrt(d2);
            // (1 − (d/r)²)², nothing beyond the attenuation radius.
            let fall = 1.0 - min(d2 * l.dir_radius.w, 1.0);
            k = fall * fall;
            if l.pos_type.w > 1.5 {
                let c = dot(-to_light, l.dir_radius.xyz);
                let a = clamp((c - l.outer.x) * l.outer.y, 0.0, 1.0);
                k = k * a * a;
            }
        }
        sum = sum + l.color.rgb * (k * max(dot(n, to_light), 0.0));
    }
    return sum;
}

@fragment
fn fs_plain(in: Out) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    return vec4<f32>(object.color.rgb * irradiance(n, in.world), 1.0);
}

@fragment
fn fs_textured(in: Out) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let albedo = object.color.rgb * textureSample(t_albedo, s_albedo, in.uv).rgb;
    return vec4<f32>(albedo * irradiance(n, in.world), 1.0);
}

// A see-through surface (an open grating): texels whose alpha is below the node's cutoff are
// not drawn, so the eye sees what lies beyond the gaps.
@fragment
fn fs_cutout(in: Out) -> @location(0) vec4<f32> {
    let texel = textureSample(t_albedo, s_albedo, in.uv);
    if texel.a < object.color.a {
        discard;
    }
    let n = normalize(in.normal);
    return vec4<f32>(object.color.rgb * texel.rgb * irradiance(n, in.world), 1.0);
}
