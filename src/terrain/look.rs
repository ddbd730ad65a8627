//! What a surface looks like, as the scene file describes it: a procedural texture kind, the
//! size one tile of it covers, and how much its colour varies. Only the front ends draw it
//! (the viewer generates the pixels at load time, `viewer::surface_texture`); the core keeps
//! the description with the material, so a scene file stays the one place a site is written.
//!
//! Texture is a cue, not decoration: an operator judges speed and distance through a small
//! camera by the floor's pattern going by, and tells a grating from a tiled floor (and so
//! its grip) by its look.

/// The procedural texture of a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum TextureKind {
    /// A thin line every half tile on faint mottling (the library's default: a plain
    /// measuring grid, 0.5 m squares at the default 1 m tile).
    #[default]
    Grid,
    /// Cast concrete: mottled, with fine speckle and a saw-cut joint round each tile.
    Concrete,
    /// Square tiles or paving flags, 2 × 2 in a tile, each its own shade, in grout lines.
    Tiles,
    /// Asphalt: dark aggregate speckle, no joints.
    Asphalt,
    /// Steel bar grating: load bars across the tile every 1/8 of it, cross bars every 1/2,
    /// dark gaps between them.
    Grating,
    /// Painted metal: smooth, with faint streaks along one direction.
    PaintedMetal,
    /// Wood boards: four boards a tile, grain along them.
    Wood,
    /// Brick in running bond: six courses a tile, each brick half a tile long.
    Brick,
}

impl TextureKind {
    /// Every kind, in the order scene files list them.
    pub const ALL: [TextureKind; 8] = [
        TextureKind::Grid,
        TextureKind::Concrete,
        TextureKind::Tiles,
        TextureKind::Asphalt,
        TextureKind::Grating,
        TextureKind::PaintedMetal,
        TextureKind::Wood,
        TextureKind::Brick,
    ];

    /// The name a scene file gives it (`texture = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            TextureKind::Grid => "grid",
            TextureKind::Concrete => "concrete",
            TextureKind::Tiles => "tiles",
            TextureKind::Asphalt => "asphalt",
            TextureKind::Grating => "grating",
            TextureKind::PaintedMetal => "painted_metal",
            TextureKind::Wood => "wood",
            TextureKind::Brick => "brick",
        }
    }

    /// The kind a scene file names, if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A surface's look: its texture kind, the side of one tile of it on the surface, m, and
/// its colour variation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceLook {
    /// The procedural texture.
    pub texture: TextureKind,
    /// Side of one texture tile on the surface, m (the pattern repeats this often).
    pub scale: f64,
    /// How much the colour varies across the texture (tile to tile, board to board, the
    /// mottling), 0 (even) to 1 (strong).
    pub variation: f64,
    /// Whether the eye sees through the surface between its bars: an open steel grating
    /// (floors, stair treads and mezzanines of plants), through which an operator sees the
    /// drop below an edge and what lies under a deck. Only a [`TextureKind::Grating`] can be
    /// see-through; its bars still hold the robot (the collider stays solid).
    pub see_through: bool,
}

impl SurfaceLook {
    /// Smallest and largest `scale`, m.
    pub const SCALE_RANGE: (f64, f64) = (0.01, 100.0);

    /// The default tile side for a kind, m: what one tile of it is in the real thing (2 × 2
    /// paving flags of 0.6 m, a grating's load bars 37.5 mm apart, 150 mm boards, six 75 mm
    /// brick courses of 225 mm bricks).
    pub fn default_scale(texture: TextureKind) -> f64 {
        match texture {
            TextureKind::Grid | TextureKind::Concrete | TextureKind::Asphalt => 1.0,
            TextureKind::Tiles => 1.2,
            TextureKind::Grating => 0.3,
            TextureKind::PaintedMetal => 1.0,
            TextureKind::Wood => 0.6,
            TextureKind::Brick => 0.45,
        }
    }

    /// The look of `texture` at its default scale and a variation of 0.1.
    pub fn of(texture: TextureKind) -> Self {
        Self {
            texture,
            scale: Self::default_scale(texture),
            variation: 0.1,
            see_through: false,
        }
    }
}

impl Default for SurfaceLook {
    /// The measuring grid at 1 m, variation 0.1 (the library's look before looks existed).
    fn default() -> Self {
        Self::of(TextureKind::Grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in TextureKind::ALL {
            assert_eq!(TextureKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(TextureKind::from_name("marble"), None);
    }

    #[test]
    fn default_scales_are_real_sizes() {
        assert_eq!(SurfaceLook::of(TextureKind::Tiles).scale, 1.2);
        assert_eq!(SurfaceLook::default().texture, TextureKind::Grid);
        for kind in TextureKind::ALL {
            let s = SurfaceLook::default_scale(kind);
            assert!(s >= SurfaceLook::SCALE_RANGE.0 && s <= SurfaceLook::SCALE_RANGE.1);
        }
    }
}
