//! The pixels of a surface's procedural texture ([`TextureKind`]), generated at load time: no
//! image files, the same pixels on every machine. Each texture is one tile, [`TEXTURE_SIZE`]
//! pixels square, periodic so it repeats without seams, and grey, mostly light: it multiplies
//! the material's colour and the face's shade (treads lighter than risers,
//! `scene_mesh::FaceClass`), which keep the step-edge cue.
//!
//! What each kind holds in one tile (the material's `texture_scale` is the tile's side):
//! grid — a line every half tile; concrete — mottling, speckle and a saw-cut joint on the
//! tile's edge; tiles — 2 × 2 tiles in grout; asphalt — aggregate speckle; grating — 8 load
//! bars and 2 cross bars with dark gaps; painted metal — faint streaks; wood — 4 boards with
//! grain; brick — 6 courses of bricks half a tile long in running bond.

use crate::terrain::TextureKind;

/// Side of every surface texture, pixels (one tile).
pub const TEXTURE_SIZE: u32 = 256;

/// Side of a texture, pixels, as a float for the pattern arithmetic.
const SIDE: f64 = TEXTURE_SIZE as f64;

/// Alpha of a see-through grating's gaps, 0..=1: below [`SEE_THROUGH_CUTOFF`], so up close a
/// gap is cut out and the eye sees through it; yet the bars (alpha 1, about a sixth of the
/// tile) lift a mip level's average above the cutoff once a pixel spans a whole bar pitch,
/// so far off, or seen at a glancing angle, the grating turns solid, as the depth of real
/// bars (25–40 mm) closes the view through it.
const GAP_ALPHA: f64 = 0.45;

/// Alpha below which a see-through surface's fragment is not drawn (kiss3d's
/// `AlphaMode::Mask` cutoff, and the flat material's).
pub const SEE_THROUGH_CUTOFF: f32 = 0.5;

/// RGBA8 pixels of one tile of `kind` with colour variation `variation` (0..=1), row by row;
/// `see_through` (a grating's only): the gaps between the bars carry [`GAP_ALPHA`], the
/// rest is opaque.
pub fn texture_pixels(kind: TextureKind, variation: f64, see_through: bool) -> Vec<u8> {
    let v = variation.clamp(0.0, 1.0);
    let n = TEXTURE_SIZE as usize;
    let gap_alpha = (GAP_ALPHA * 255.0).round() as u8;
    let mut out = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let (px, py) = (x as f64, y as f64);
            let b = brightness(kind, v, px, py).clamp(0.0, 1.0);
            let c = (b * 255.0).round() as u8;
            let open = see_through && kind == TextureKind::Grating && grating_bar(px, py).is_none();
            out.extend_from_slice(&[c, c, c, if open { gap_alpha } else { 255 }]);
        }
    }
    out
}

/// Brightness of the pixel at `(x, y)` of one tile of `kind`, 0..=1.
fn brightness(kind: TextureKind, v: f64, x: f64, y: f64) -> f64 {
    match kind {
        TextureKind::Grid => grid(x, y),
        TextureKind::Concrete => concrete(v, x, y),
        TextureKind::Tiles => tiles(v, x, y),
        TextureKind::Asphalt => asphalt(v, x, y),
        TextureKind::Grating => grating(x, y),
        TextureKind::PaintedMetal => painted_metal(v, x, y),
        TextureKind::Wood => wood(v, x, y),
        TextureKind::Brick => brick(v, x, y),
    }
}

/// The measuring grid: faint mottling, a 3 px line every half tile.
fn grid(x: f64, y: f64) -> f64 {
    let b = 0.9 + 0.1 * noise(x, y, 16.0, 0);
    let half = SIDE / 2.0;
    if x % half < 3.0 || y % half < 3.0 {
        b * 0.72
    } else {
        b
    }
}

/// Cast concrete: two octaves of mottling, fine dark speckle, a joint round the tile.
fn concrete(v: f64, x: f64, y: f64) -> f64 {
    let mottle = 0.6 * noise(x, y, 8.0, 1) + 0.4 * noise(x, y, 32.0, 2) - 0.5;
    let speckle = (noise(x, y, 128.0, 3) - 0.5).min(0.0);
    let mut b = 0.86 + 0.5 * v * mottle + 0.25 * speckle;
    if x < 2.0 || y < 2.0 {
        b *= 0.7;
    }
    b
}

/// Tiles or flags: 2 × 2 per tile, each its own shade, grout lines 2 % of a tile wide.
fn tiles(v: f64, x: f64, y: f64) -> f64 {
    let cell = SIDE / 2.0;
    let (i, j) = ((x / cell) as u32, (y / cell) as u32);
    let shade = 0.88 + 0.5 * v * (hash(i, j, 4) - 0.5);
    let b = shade + 0.15 * v * (noise(x, y, 32.0, 5) - 0.5);
    let grout = 0.02 * cell;
    if x % cell < grout || y % cell < grout {
        0.62
    } else {
        b
    }
}

/// Asphalt: fine mottling and dense aggregate: stones a few pixels across, light and dark.
fn asphalt(v: f64, x: f64, y: f64) -> f64 {
    let stones = noise(x, y, 96.0, 7) - 0.5;
    0.8 + 0.45 * stones + 0.3 * v * (noise(x, y, 16.0, 6) - 0.5)
}

/// Bar grating: 8 load bars along y (5 px), 2 cross bars along x (3 px), dark between.
fn grating(x: f64, y: f64) -> f64 {
    grating_bar(x, y).unwrap_or(0.22)
}

/// The brightness of the grating's bar at `(x, y)`, or `None` in a gap between bars.
fn grating_bar(x: f64, y: f64) -> Option<f64> {
    let load_pitch = SIDE / 8.0;
    let cross_pitch = SIDE / 2.0;
    if x % load_pitch < 5.0 {
        Some(0.95)
    } else if y % cross_pitch < 3.0 {
        Some(0.85)
    } else {
        None
    }
}

/// Painted metal: nearly even, faint streaks along x.
fn painted_metal(v: f64, x: f64, y: f64) -> f64 {
    let streak = noise2(x, y, [4.0, 64.0], 8);
    0.93 + 0.25 * v * (streak - 0.5)
}

/// Wood: 4 boards along x per tile, each its own shade, a grain of wavy lines, dark joints.
fn wood(v: f64, x: f64, y: f64) -> f64 {
    let board = SIDE / 4.0;
    let k = (y / board) as u32;
    if y % board < 2.0 {
        return 0.55;
    }
    let shade = 0.85 + 0.4 * v * (hash(k, 0, 9) - 0.5);
    let wobble = 6.0 * noise(x, y, 8.0, 10);
    let grain = ((y + wobble) * std::f64::consts::TAU / 9.0).sin();
    shade + 0.06 * grain
}

/// Brick: 6 courses per tile, bricks half a tile long, every other course offset a quarter
/// tile (running bond), 4 px mortar joints (lighter than the brick).
fn brick(v: f64, x: f64, y: f64) -> f64 {
    let course = SIDE / 6.0;
    let length = SIDE / 2.0;
    let row = (y / course) as u32;
    let offset = if row % 2 == 1 { length / 2.0 } else { 0.0 };
    let xs = (x + offset) % SIDE;
    if y % course < 4.0 || xs % length < 4.0 {
        return 1.0;
    }
    let column = (xs / length) as u32;
    let shade = 0.8 + 0.5 * v * (hash(column, row, 11) - 0.5);
    shade + 0.08 * v * (noise(x, y, 32.0, 12) - 0.5)
}

/// Deterministic hash of a lattice point to 0..1.
fn hash(i: u32, j: u32, salt: u32) -> f64 {
    let mut h = i
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add(j.wrapping_mul(0x85EB_CA77))
        .wrapping_add(salt.wrapping_mul(0xC2B2_AE3D));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297A_2D39);
    h ^= h >> 15;
    f64::from(h & 0xFFFF) / 65535.0
}

/// Value noise in 0..1 on a lattice of `cells` cells across the tile, wrapping at its edges
/// (so the texture tiles), bilinear between lattice points.
fn noise(x: f64, y: f64, cells: f64, salt: u32) -> f64 {
    noise2(x, y, [cells, cells], salt)
}

/// Value noise with `cells[0]` cells across the tile in x and `cells[1]` in y (streaks where
/// they differ), wrapping at the tile's edges, bilinear between lattice points.
fn noise2(x: f64, y: f64, cells: [f64; 2], salt: u32) -> f64 {
    let (gx, gy) = (x * cells[0] / SIDE, y * cells[1] / SIDE);
    let (i, j) = (gx.floor(), gy.floor());
    let (fx, fy) = (gx - i, gy - j);
    let (nx, ny) = (cells[0] as u32, cells[1] as u32);
    let (i, j) = (i as u32 % nx, j as u32 % ny);
    let (i1, j1) = ((i + 1) % nx, (j + 1) % ny);
    let a = hash(i, j, salt) * (1.0 - fx) + hash(i1, j, salt) * fx;
    let b = hash(i, j1, salt) * (1.0 - fx) + hash(i1, j1, salt) * fx;
    a * (1.0 - fy) + b * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(px: &[u8]) -> f64 {
        px.chunks(4).map(|p| f64::from(p[0])).sum::<f64>() / (px.len() / 4) as f64
    }

    /// Mean absolute difference between two columns (or rows) of a texture, 0..255.
    fn seam(px: &[u8], a: usize, b: usize, columns: bool) -> f64 {
        let n = TEXTURE_SIZE as usize;
        let at = |k: usize, l: usize| {
            let (x, y) = if columns { (k, l) } else { (l, k) };
            f64::from(px[4 * (y * n + x)])
        };
        (0..n).map(|l| (at(a, l) - at(b, l)).abs()).sum::<f64>() / n as f64
    }

    #[test]
    fn every_kind_is_light_enough_to_keep_the_material_colour() {
        for kind in TextureKind::ALL {
            let px = texture_pixels(kind, 0.3, false);
            assert_eq!(px.len(), (TEXTURE_SIZE * TEXTURE_SIZE * 4) as usize);
            let m = mean(&px);
            // The grating is mostly gap, drawn dark; every other kind stays near white.
            let least = if kind == TextureKind::Grating {
                80.0
            } else {
                180.0
            };
            assert!(m > least && m < 255.0, "{}: mean {m}", kind.name());
        }
    }

    #[test]
    fn textures_tile_without_a_seam() {
        // Across the wrap (last column to first) the pixels change no more than between
        // neighbours inside the tile, for the kinds without a joint on the tile's edge.
        for kind in [
            TextureKind::Asphalt,
            TextureKind::PaintedMetal,
            TextureKind::Wood,
        ] {
            let px = texture_pixels(kind, 0.5, false);
            let n = TEXTURE_SIZE as usize;
            for columns in [true, false] {
                let wrap = seam(&px, n - 1, 0, columns);
                let inside = (1..n - 1)
                    .map(|k| seam(&px, k, k + 1, columns))
                    .fold(0.0, f64::max);
                assert!(
                    wrap <= inside + 1.0,
                    "{}: seam {wrap} vs {inside}",
                    kind.name()
                );
            }
        }
    }

    #[test]
    fn variation_varies_and_kinds_differ() {
        let even = texture_pixels(TextureKind::Tiles, 0.0, false);
        let varied = texture_pixels(TextureKind::Tiles, 1.0, false);
        // Tile shades: the four tiles' centres are all alike without variation, not with it.
        let n = TEXTURE_SIZE as usize;
        let centre =
            |px: &[u8], i: usize, j: usize| px[4 * ((j * n / 2 + n / 4) * n + i * n / 2 + n / 4)];
        let shades = |px: &[u8]| {
            [
                centre(px, 0, 0),
                centre(px, 1, 0),
                centre(px, 0, 1),
                centre(px, 1, 1),
            ]
        };
        let (a, b) = (shades(&even), shades(&varied));
        assert!(a.iter().all(|&s| s.abs_diff(a[0]) <= 2), "{a:?}");
        assert!(b.iter().any(|&s| s.abs_diff(b[0]) > 10), "{b:?}");
        for (i, k) in TextureKind::ALL.iter().enumerate() {
            for l in &TextureKind::ALL[i + 1..] {
                assert_ne!(
                    texture_pixels(*k, 0.3, false),
                    texture_pixels(*l, 0.3, false)
                );
            }
        }
        assert_eq!(
            texture_pixels(TextureKind::Brick, 0.4, false),
            texture_pixels(TextureKind::Brick, 0.4, false)
        );
    }

    #[test]
    fn grating_bars_repeat_every_eighth_of_a_tile() {
        let px = texture_pixels(TextureKind::Grating, 0.0, false);
        let n = TEXTURE_SIZE as usize;
        let row = n / 4 + 10; // between the cross bars
        let bright: Vec<usize> = (0..n)
            .filter(|&x| {
                px[4 * (row * n + x)] > 200 && (x == 0 || px[4 * (row * n + x - 1)] <= 200)
            })
            .collect();
        assert_eq!(bright.len(), 8, "{bright:?}");
        assert!(bright.windows(2).all(|w| w[1] - w[0] == n / 8));
    }

    #[test]
    fn a_see_through_grating_opens_its_gaps_up_close_and_closes_far_off() {
        let cutoff = f64::from(SEE_THROUGH_CUTOFF) * 255.0;
        let open = texture_pixels(TextureKind::Grating, 0.0, true);
        let solid = texture_pixels(TextureKind::Grating, 0.0, false);
        // The same colours; only the alpha differs, and only in the gaps (the dark pixels).
        let mut gaps = 0;
        for (o, s) in open.chunks_exact(4).zip(solid.chunks_exact(4)) {
            assert_eq!(o[..3], s[..3]);
            assert_eq!(s[3], 255);
            if s[0] < 100 {
                gaps += 1;
                assert!(f64::from(o[3]) < cutoff, "a gap is cut out up close");
            } else {
                assert_eq!(o[3], 255, "a bar is opaque");
            }
        }
        let pixels = open.len() / 4;
        assert!(gaps > pixels * 3 / 4, "mostly open: {gaps} of {pixels}");
        // A mip level whose texel spans a whole bar pitch averages the tile: above the cutoff
        // by a margin, so a far grating is drawn solid rather than vanishing.
        let mean_alpha = open.chunks_exact(4).map(|p| f64::from(p[3])).sum::<f64>() / pixels as f64;
        assert!(
            mean_alpha > cutoff + 10.0,
            "mean alpha {mean_alpha} vs cutoff {cutoff}"
        );
        // Every other kind ignores the flag: it has no gaps to see through.
        for kind in TextureKind::ALL {
            if kind != TextureKind::Grating {
                assert_eq!(
                    texture_pixels(kind, 0.2, true),
                    texture_pixels(kind, 0.2, false)
                );
            }
        }
    }
}
