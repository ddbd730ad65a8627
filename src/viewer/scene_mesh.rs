//! The scene's terrain as kiss3d meshes.
//!
//! kiss3d has no per-vertex colours, so the terrain is split into one mesh per
//! (material, face orientation) and each mesh gets one colour: the material's, scaled by
//! [`FaceClass::shade`]. Treads and floors (faces pointing up) keep the full colour, risers
//! and walls are darker, overhangs darker still, so a step edge is a sharp light/dark
//! boundary in any light — the cue an operator judges a step's height by through a small
//! camera. Every triangle gets its own three vertices (no shared normals), so edges stay
//! sharp instead of being smoothed away.
//!
//! A world-aligned texture multiplies the colour — each material's own (its look: concrete,
//! tiles, grating, brick..., `viewer::surface_texture`), a 0.5 m grid by default: without it a
//! large untextured floor gives no sense of speed or distance, which is exactly what an
//! operator watching a camera needs.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use kiss3d::color::Color;
use kiss3d::glamx::{Vec2, Vec3};
use kiss3d::resource::{GpuMesh3d, Texture};
use kiss3d::scene::{AlphaMode, SceneNode3d};
use nalgebra::Vector3;

use super::surface_texture::{texture_pixels, SEE_THROUGH_CUTOFF, TEXTURE_SIZE};
use crate::terrain::{SurfaceLook, Terrain, TextureKind};

/// Orientation class of a terrain face, from its unit normal's vertical component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaceClass {
    /// Walkable, facing up (n_z > 0.9, slopes under 26°): treads, floors, landings.
    Up,
    /// Steep, facing up (0.3 < n_z ≤ 0.9): ramps, rubble flanks.
    Slope,
    /// Near vertical (|n_z| ≤ 0.3): risers, curb faces, walls.
    Wall,
    /// Facing down (n_z < -0.3): nosing undersides, ceilings.
    Down,
}

impl FaceClass {
    /// Every class, lightest first.
    pub const ALL: [FaceClass; 4] = [
        FaceClass::Up,
        FaceClass::Slope,
        FaceClass::Wall,
        FaceClass::Down,
    ];

    /// The class of a face with unit normal `n`.
    pub fn of(n: &Vector3<f64>) -> FaceClass {
        if n.z > 0.9 {
            FaceClass::Up
        } else if n.z > 0.3 {
            FaceClass::Slope
        } else if n.z >= -0.3 {
            FaceClass::Wall
        } else {
            FaceClass::Down
        }
    }

    /// Brightness factor applied to the material colour. Up faces stay at 1 and vertical
    /// ones drop to 0.6: about the contrast of a lit tread against its riser, kept even where
    /// the light falls flat.
    pub fn shade(self) -> f32 {
        match self {
            FaceClass::Up => 1.0,
            FaceClass::Slope => 0.82,
            FaceClass::Wall => 0.6,
            FaceClass::Down => 0.45,
        }
    }
}

/// Display colour of a face of material colour `base` (linear RGB, 0..=1) and class `class`.
pub fn face_color(base: [f32; 3], class: FaceClass) -> Color {
    let k = class.shade();
    Color::new(
        (base[0] * k).clamp(0.0, 1.0),
        (base[1] * k).clamp(0.0, 1.0),
        (base[2] * k).clamp(0.0, 1.0),
        1.0,
    )
}

/// Texture coordinates of a terrain point: the world coordinates across the face's dominant
/// normal axis, in metres (the texture repeats every metre), so the grid is continuous
/// across faces and the same size everywhere.
pub fn world_uv(p: &Vector3<f64>, n: &Vector3<f64>) -> Vec2 {
    let (ax, ay, az) = (n.x.abs(), n.y.abs(), n.z.abs());
    let (u, v) = if az >= ax && az >= ay {
        (p.x, p.y)
    } else if ax >= ay {
        (p.y, p.z)
    } else {
        (p.x, p.z)
    };
    Vec2::new(u as f32, v as f32)
}

/// The terrain's scene nodes.
pub struct TerrainView {
    /// Parent of all terrain meshes.
    pub group: SceneNode3d,
    /// Number of meshes (material × face class groups).
    pub meshes: usize,
    /// Number of triangles drawn.
    pub triangles: usize,
}

/// One (material, class) group being collected.
struct Group {
    material: usize,
    class: FaceClass,
    coords: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
}

/// Adds the terrain under `parent`, each material textured by its look
/// (`viewer::surface_texture`) with `anisotropy` (1..=16) filtering.
pub fn add_terrain(parent: &mut SceneNode3d, terrain: &Terrain, anisotropy: u16) -> TerrainView {
    let materials = terrain.materials();
    let mut groups: Vec<Group> = Vec::new();
    let vertices = terrain.vertices();
    for ((tri, n), m) in terrain
        .triangles()
        .iter()
        .zip(terrain.normals())
        .zip(terrain.triangle_materials())
    {
        let class = FaceClass::of(n);
        let material = usize::from(m.0);
        let k = match groups
            .iter()
            .position(|g| g.material == material && g.class == class)
        {
            Some(k) => k,
            None => {
                groups.push(Group {
                    material,
                    class,
                    coords: Vec::new(),
                    normals: Vec::new(),
                    uvs: Vec::new(),
                });
                groups.len() - 1
            }
        };
        let g = &mut groups[k];
        let normal = Vec3::new(n.x as f32, n.y as f32, n.z as f32);
        let tile = materials.get(material).map_or(1.0, |m| m.look.scale) as f32;
        for &i in tri {
            let p = vertices[i as usize].coords;
            g.coords.push(Vec3::new(p.x as f32, p.y as f32, p.z as f32));
            g.normals.push(normal);
            g.uvs.push(world_uv(&p, n) / tile);
        }
    }
    // A fixed order, so draw order is the same from run to run.
    groups.sort_by_key(|g| (g.material, g.class));

    let mut group = parent.add_group();
    let mut triangles = 0;
    let meshes = groups.len();
    let mut textures: Vec<(TextureKey, Arc<Texture>)> = Vec::new();
    for g in groups {
        let count = g.coords.len() / 3;
        triangles += count;
        let faces: Vec<[u32; 3]> = (0..count as u32)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect();
        let (base, look) = materials
            .get(g.material)
            .map_or(([0.6, 0.6, 0.6], SurfaceLook::default()), |m| {
                (m.color, m.look)
            });
        let key = texture_key(&look);
        let texture = match textures.iter().find(|(k, _)| *k == key) {
            Some((_, t)) => t.clone(),
            None => {
                let t = gpu_texture(key, anisotropy);
                textures.push((key, t.clone()));
                t
            }
        };
        let mesh = GpuMesh3d::new(g.coords, faces, Some(g.normals), Some(g.uvs), false);
        let mut node = group.add_mesh(Rc::new(RefCell::new(mesh)), Vec3::ONE);
        node.set_color(face_color(base, g.class));
        node.set_roughness(0.9);
        node.set_texture(texture);
        if look.see_through {
            // Cut out where the texture's gaps are (both render paths read the mode).
            node.set_alpha_mode(AlphaMode::Mask(SEE_THROUGH_CUTOFF));
        }
    }
    TerrainView {
        group,
        meshes,
        triangles,
    }
}

/// A texture's identity: its kind, its colour variation's bits and whether it is see-through.
type TextureKey = (TextureKind, u64, bool);

/// The key of a look's texture.
fn texture_key(look: &SurfaceLook) -> TextureKey {
    (look.texture, look.variation.to_bits(), look.see_through)
}

/// A look's texture on the GPU (needs kiss3d's GPU context: create a window or an off-screen
/// surface first), mipmapped, repeating, with `anisotropy` (1..=16) filtering.
fn gpu_texture(key: TextureKey, anisotropy: u16) -> Arc<Texture> {
    Texture::new(
        TEXTURE_SIZE,
        TEXTURE_SIZE,
        &texture_pixels(key.0, f64::from_bits(key.1), key.2),
        wgpu::TextureFormat::Rgba8UnormSrgb,
        wgpu::AddressMode::Repeat,
        wgpu::FilterMode::Linear,
        true,
        anisotropy,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_normal() {
        assert_eq!(FaceClass::of(&Vector3::z()), FaceClass::Up);
        assert_eq!(FaceClass::of(&Vector3::x()), FaceClass::Wall);
        assert_eq!(FaceClass::of(&-Vector3::z()), FaceClass::Down);
        let ramp = Vector3::new(0.0, -0.5, 0.866);
        assert_eq!(FaceClass::of(&ramp), FaceClass::Slope);
    }

    #[test]
    fn treads_are_lighter_than_risers() {
        let up = face_color([0.8, 0.76, 0.62], FaceClass::Up);
        let wall = face_color([0.8, 0.76, 0.62], FaceClass::Wall);
        assert!(up.r > wall.r + 0.2 && up.g > wall.g + 0.2);
    }
}
