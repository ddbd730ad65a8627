//! Procedural training-scene primitives as closed triangle meshes.
//!
//! Every generator returns a [`MeshData`] in the element's LOCAL frame (right-handed, Z up,
//! x forward; metres, radians); the caller applies the element's position and rotation.
//! Triangles are wound counter-clockwise seen from outside the solid (right-hand normals point
//! out of the material). All generators except [`rubble`] and [`slab_with_hole`] return
//! watertight meshes: every undirected edge is shared by exactly two triangles, traversed in
//! opposite directions.
//!
//! The caller validates that sizes are finite and strictly positive; for other inputs the
//! generators do not panic but may return an empty or meaningless mesh.

use std::collections::VecDeque;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

use nalgebra::Point3;

use crate::scene::MeshData;

use crate::rng::SplitMix64;

/// Two consecutive profile edges whose turn has |sin| at or below this are treated as collinear.
const COLLINEAR_SIN: f64 = 1e-10;
/// Relative (to the profile's extent) distance below which two profile points coincide.
const SAME_POINT_REL: f64 = 1e-12;
/// Relative (to the profile's extent) distance tolerance of the ear-clipping containment test.
const INSIDE_REL: f64 = 1e-10;

/// Largest number of segments accepted by [`cylinder`] and [`pipe`]; larger values are clamped.
pub const MAX_SEGMENTS: u32 = 1 << 20;

// ---------------------------------------------------------------------------------------------
// 2D helpers
// ---------------------------------------------------------------------------------------------

/// Twice the signed area of triangle `a, b, c` (positive when counter-clockwise).
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    (dx * dx + dy * dy).sqrt()
}

/// `b` is (numerically) on the line through `a` and `c`, or coincides with a neighbour.
fn is_straight(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    orient(a, b, c).abs() <= COLLINEAR_SIN * dist(a, b) * dist(b, c)
}

/// `b` is a strictly convex corner of a counter-clockwise polygon (not straight).
fn is_convex(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    orient(a, b, c) > COLLINEAR_SIN * dist(a, b) * dist(b, c)
}

/// Twice the signed area of a polygon (shoelace; positive when counter-clockwise).
fn signed_area2(poly: &[[f64; 2]]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum()
}

/// Diagonal of the axis-aligned bounding box of `poly`.
fn extent(poly: &[[f64; 2]]) -> f64 {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in poly {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if poly.is_empty() {
        0.0
    } else {
        dist(lo, hi)
    }
}

/// Removes coincident consecutive points and straight (collinear or zero-angle spike) vertices,
/// including across the wrap-around, until none is left.
fn clean_polygon(profile: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let tol = SAME_POINT_REL * extent(profile);
    let mut out: VecDeque<[f64; 2]> = VecDeque::with_capacity(profile.len());
    for &p in profile {
        if out.back().is_some_and(|&q| dist(q, p) <= tol) {
            continue;
        }
        while out.len() >= 2 && is_straight(out[out.len() - 2], out[out.len() - 1], p) {
            out.pop_back();
        }
        out.push_back(p);
    }
    loop {
        let n = out.len();
        if n < 3 {
            return Vec::new();
        }
        if dist(out[n - 1], out[0]) <= tol || is_straight(out[n - 2], out[n - 1], out[0]) {
            out.pop_back();
        } else if is_straight(out[n - 1], out[0], out[1]) {
            out.pop_front();
        } else {
            break;
        }
    }
    out.into()
}

/// Ear-clipping triangulation of a simple, counter-clockwise polygon without coincident or
/// straight consecutive vertices. Returns counter-clockwise index triples.
///
/// O(n²): the ear flags are computed once (O(n) each) and only the two neighbours of a clipped
/// ear are re-evaluated; finding the next ear is a walk of at most the remaining vertices.
fn ear_clip(p: &[[f64; 2]]) -> Vec<[usize; 3]> {
    let n = p.len();
    let mut tris = Vec::with_capacity(n.saturating_sub(2));
    if n < 3 {
        return tris;
    }
    let tol = INSIDE_REL * extent(p);
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();

    // Point `q` inside the closed CCW triangle `a, b, c`, with a small outward tolerance so that
    // vertices lying exactly on a candidate diagonal block it.
    let inside = |a: [f64; 2], b: [f64; 2], c: [f64; 2], q: [f64; 2]| {
        orient(a, b, q) >= -tol * dist(a, b)
            && orient(b, c, q) >= -tol * dist(b, c)
            && orient(c, a, q) >= -tol * dist(c, a)
    };
    let is_ear = |v: usize, prev: &[usize], next: &[usize]| -> bool {
        let (a, c) = (prev[v], next[v]);
        if !is_convex(p[a], p[v], p[c]) {
            return false;
        }
        let mut q = next[c];
        while q != a {
            if inside(p[a], p[v], p[c], p[q]) {
                return false;
            }
            q = next[q];
        }
        true
    };

    let mut ear: Vec<bool> = (0..n).map(|v| is_ear(v, &prev, &next)).collect();
    let mut remaining = n;
    let mut cur = 0;
    while remaining > 3 {
        let mut pick = None;
        let mut v = cur;
        for _ in 0..remaining {
            if ear[v] {
                pick = Some(v);
                break;
            }
            v = next[v];
        }
        // Fallback (only reachable for non-simple input or extreme round-off): the most convex
        // corner, so that the loop always terminates with non-degenerate triangles.
        let pick = pick.or_else(|| {
            let mut best: Option<(usize, f64)> = None;
            let mut v = cur;
            for _ in 0..remaining {
                let (a, c) = (prev[v], next[v]);
                if is_convex(p[a], p[v], p[c]) {
                    let s = orient(p[a], p[v], p[c]) / (dist(p[a], p[v]) * dist(p[v], p[c]));
                    if best.is_none_or(|(_, bs)| s > bs) {
                        best = Some((v, s));
                    }
                }
                v = next[v];
            }
            best.map(|(v, _)| v)
        });
        let Some(v) = pick else { break };
        let (a, c) = (prev[v], next[v]);
        tris.push([a, v, c]);
        next[a] = c;
        prev[c] = a;
        remaining -= 1;
        ear[a] = is_ear(a, &prev, &next);
        ear[c] = is_ear(c, &prev, &next);
        cur = c;
    }
    if remaining == 3 {
        let (a, b) = (cur, next[cur]);
        let c = next[b];
        if is_convex(p[a], p[b], p[c]) {
            tris.push([a, b, c]);
        }
    }
    tris
}

// ---------------------------------------------------------------------------------------------
// Prism
// ---------------------------------------------------------------------------------------------

/// A right prism: the simple polygon `profile` (points `[x, z]` in metres, in the local x–z
/// plane: x forward, z up; clockwise or counter-clockwise, detected by signed area) extruded
/// along local y from y = −`width`/2 to +`width`/2 (metres).
///
/// Side faces get one quad per polygon edge; the two caps are triangulated by ear clipping
/// (O(n²), non-convex profiles such as stairs are fine). Coincident and collinear consecutive
/// points are removed first, so the cap vertices are exactly the polygon's corners. The result
/// is closed and outward-wound, with 2·n vertices (ring at y = −width/2 first, then the ring at
/// y = +width/2, both in the profile's counter-clockwise order) and 4·n − 4 triangles.
/// Returns an empty mesh for a degenerate profile (fewer than 3 corners, zero area) or a
/// non-finite / non-positive `width`. The profile must be simple (the caller guarantees it).
pub fn prism_xz(profile: &[[f64; 2]], width: f64) -> MeshData {
    let mut mesh = MeshData::new();
    let finite = profile.iter().all(|p| p[0].is_finite() && p[1].is_finite());
    if !finite || !width.is_finite() || width <= 0.0 {
        return mesh;
    }
    let mut poly = clean_polygon(profile);
    let area2 = signed_area2(&poly);
    if poly.len() < 3 || area2 == 0.0 || !area2.is_finite() {
        return mesh;
    }
    if area2 < 0.0 {
        poly.reverse();
    }
    let tris = ear_clip(&poly);
    let n = poly.len() as u32;
    let half = 0.5 * width;
    for p in &poly {
        mesh.push_vertex(Point3::new(p[0], -half, p[1]));
    }
    for p in &poly {
        mesh.push_vertex(Point3::new(p[0], half, p[1]));
    }
    // A CCW polygon in (x, z) has its right-hand normal along −y.
    for k in 0..n {
        let k1 = (k + 1) % n;
        mesh.push_quad(k, n + k, n + k1, k1);
    }
    for t in &tris {
        let [a, b, c] = t.map(|i| i as u32);
        mesh.push_triangle(a, b, c);
        mesh.push_triangle(n + a, n + c, n + b);
    }
    mesh
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// A box of `size = [x, y, z]` metres in its local frame: centred on the origin in x and y,
/// bottom face at z = 0, top face at z = `size[2]`. 8 vertices, 12 triangles.
pub fn cuboid(size: [f64; 3]) -> MeshData {
    let (hx, sz) = (0.5 * size[0], size[2]);
    prism_xz(&[[-hx, 0.0], [hx, 0.0], [hx, sz], [-hx, sz]], size[1])
}

/// An axis-aligned box between `lo` and `hi` (local frame, metres).
fn box_between(lo: [f64; 3], hi: [f64; 3]) -> MeshData {
    let mut m = cuboid([hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]]);
    let (cx, cy) = (0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]));
    for v in &mut m.vertices {
        v.x += cx;
        v.y += cy;
        v.z += lo[2];
    }
    m
}

/// A wedge rising along +x in its local frame (metres, radians): bottom face at z = 0 from
/// x = 0 to x = `length` + `top_length`; the slope runs from (x, z) = (0, 0) to
/// (`length`, `length`·tan(`angle`)), followed by a flat top of `top_length` (may be 0: the
/// profile is then a triangle) and a vertical back face down to z = 0. Spans y from
/// −`width`/2 to +`width`/2. `angle` in radians, 0 < angle < π/2.
pub fn ramp(length: f64, angle: f64, width: f64, top_length: f64) -> MeshData {
    let h = length * angle.tan();
    let back = length + top_length.max(0.0);
    prism_xz(&[[0.0, 0.0], [back, 0.0], [back, h], [length, h]], width)
}

/// Dimensions of a straight solid flight of stairs (metres); see [`stairs`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StairsGeometry {
    /// Height of each step, m.
    pub rise: f64,
    /// Horizontal depth of each step, riser to riser, m.
    pub run: f64,
    /// Width of the flight along local y, m.
    pub width: f64,
    /// Number of steps.
    pub count: u32,
    /// How far each tread overhangs the riser below it, m (0: plain square steps).
    pub nosing: f64,
    /// Vertical thickness of the nosing lip, m (ignored when `nosing` is 0).
    pub nosing_thickness: f64,
    /// Extra length of the top tread (the landing) beyond the last run, m.
    pub landing: f64,
}

/// The (x, z) corners of the stair profile in the local x–z plane (metres), going up the
/// flight from (0, 0) and back along the bottom (clockwise seen from +y).
fn stairs_profile(g: &StairsGeometry) -> Vec<[f64; 2]> {
    let mut pts = Vec::with_capacity(4 * g.count as usize + 2);
    pts.push([0.0, 0.0]);
    let lip = g.nosing > 0.0;
    for i in 0..g.count {
        let x = f64::from(i) * g.run;
        let z_top = f64::from(i + 1) * g.rise;
        if i > 0 {
            pts.push([x, f64::from(i) * g.rise]);
        }
        if lip {
            let z_lip = z_top - g.nosing_thickness;
            pts.push([x, z_lip]);
            pts.push([x - g.nosing, z_lip]);
            pts.push([x - g.nosing, z_top]);
        } else {
            pts.push([x, z_top]);
        }
    }
    let x_end = f64::from(g.count) * g.run + g.landing;
    let z_end = f64::from(g.count) * g.rise;
    pts.push([x_end, z_end]);
    pts.push([x_end, 0.0]);
    pts
}

/// A solid straight flight of stairs rising along +x in its local frame (metres), spanning y
/// from −width/2 to +width/2, built with [`prism_xz`].
///
/// First riser at x = 0 rising from z = 0. Step i (0 ≤ i < count) has its tread top at
/// z = (i+1)·rise, spanning x from i·run − nosing to (i+1)·run; riser i is the vertical face at
/// x = i·run from z = i·rise up to z = (i+1)·rise − nosing_thickness; the nosing lip has a
/// horizontal underside at that height from x = i·run back to x = i·run − nosing and a vertical
/// front face at x = i·run − nosing up to (i+1)·rise. With nosing == 0 the riser goes up to
/// (i+1)·rise and nosing_thickness is ignored. The last tread extends to
/// x = count·run + landing; then a vertical back face down to z = 0 and the bottom face at
/// z = 0 back to x = 0. Returns an empty mesh when `count` is 0.
pub fn stairs(g: &StairsGeometry) -> MeshData {
    if g.count == 0 {
        return MeshData::new();
    }
    prism_xz(&stairs_profile(g), g.width)
}

/// The (x, z) of each step's front top edge in the stairs' local frame (metres):
/// x = i·run − nosing, z = (i+1)·rise for i = 0..count (see [`stairs`]).
pub fn stairs_nosings(g: &StairsGeometry) -> Vec<[f64; 2]> {
    (0..g.count)
        .map(|i| {
            [
                f64::from(i) * g.run - g.nosing.max(0.0),
                f64::from(i + 1) * g.rise,
            ]
        })
        .collect()
}

/// A closed cylinder in its local frame (metres): axis along z, bottom face at z = 0, top face
/// at z = `height`; the cross-section is a regular `segments`-gon of circumradius `radius` with a
/// vertex at angle 0 (on +x). Caps are triangle fans around a centre vertex. `segments` is
/// clamped to 3..=[`MAX_SEGMENTS`].
pub fn cylinder(radius: f64, height: f64, segments: u32) -> MeshData {
    let s = segments.clamp(3, MAX_SEGMENTS);
    let mut m = MeshData::new();
    for z in [0.0, height] {
        for k in 0..s {
            let a = TAU * f64::from(k) / f64::from(s);
            m.push_vertex(Point3::new(radius * a.cos(), radius * a.sin(), z));
        }
    }
    let cb = m.push_vertex(Point3::new(0.0, 0.0, 0.0));
    let ct = m.push_vertex(Point3::new(0.0, 0.0, height));
    for k in 0..s {
        let k1 = (k + 1) % s;
        m.push_quad(k, k1, s + k1, s + k);
        m.push_triangle(cb, k1, k);
        m.push_triangle(ct, s + k, s + k1);
    }
    m
}

/// A hollow tube lying on the ground, in its local frame (metres): axis along y from
/// −`length`/2 to +`length`/2 at height z = `outer_radius` (so it rests on z = 0). Outer and
/// inner surfaces are regular `segments`-gons (circumradii `outer_radius`, `inner_radius`) in
/// the x–z plane with a vertex at angle 0 (on +x from the axis); the two annular end faces close
/// it. Inner-surface normals point toward the axis (out of the material). `segments` is clamped
/// to 3..=[`MAX_SEGMENTS`]. Requires 0 < inner_radius < outer_radius; otherwise returns an
/// empty mesh.
pub fn pipe(outer_radius: f64, inner_radius: f64, length: f64, segments: u32) -> MeshData {
    let mut m = MeshData::new();
    if !(inner_radius > 0.0 && inner_radius < outer_radius) {
        return m;
    }
    let s = segments.clamp(3, MAX_SEGMENTS);
    let half = 0.5 * length;
    // Rings: 0 outer at -y, 1 outer at +y, 2 inner at -y, 3 inner at +y.
    for (r, y) in [
        (outer_radius, -half),
        (outer_radius, half),
        (inner_radius, -half),
        (inner_radius, half),
    ] {
        for k in 0..s {
            let a = TAU * f64::from(k) / f64::from(s);
            m.push_vertex(Point3::new(r * a.cos(), y, outer_radius + r * a.sin()));
        }
    }
    let (o0, o1, i0, i1) = (0, s, 2 * s, 3 * s);
    for k in 0..s {
        let k1 = (k + 1) % s;
        // Angle grows counter-clockwise in (x, z), i.e. clockwise seen from +y.
        m.push_quad(o0 + k, o1 + k, o1 + k1, o0 + k1);
        m.push_quad(i0 + k1, i1 + k1, i1 + k, i0 + k);
        m.push_quad(o0 + k, o0 + k1, i0 + k1, i0 + k);
        m.push_quad(o1 + k, i1 + k, i1 + k1, o1 + k1);
    }
    m
}

/// Parameters of a rubble field (local frame, metres); see [`rubble`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RubbleConfig {
    /// PRNG seed; the same seed gives the same mesh bit for bit on every platform.
    pub seed: u64,
    /// Number of rocks.
    pub count: u32,
    /// Extent of the scatter rectangle along local x and y, m, centred on the origin.
    pub area: [f64; 2],
    /// Smallest rock dimension, m.
    pub min_size: f64,
    /// Largest rock dimension, m.
    pub max_size: f64,
}

/// sin and cos from basic IEEE operations only (+, −, ×, ÷, round), so that results are
/// bit-identical on every platform, unlike the platform libm. Cody–Waite reduction by π/2 and
/// Taylor polynomials on [−π/4, π/4]; accurate to about 1e-16 for |x| ≤ 1e3 (rubble uses
/// |x| ≤ 2π).
fn det_sin_cos(x: f64) -> (f64, f64) {
    // π/2 split into a 33-bit head (so k·HEAD is exact for |k| < 2^20) and a tail (fdlibm).
    const PIO2_HEAD: f64 = 1.570_796_326_734_125_6;
    const PIO2_TAIL: f64 = 6.077_100_506_506_192e-11;
    // Taylor coefficients of sin(r)/r and cos(r) in powers of r², highest first.
    const SIN: [f64; 8] = [
        -1.0 / 1_307_674_368_000.0,
        1.0 / 6_227_020_800.0,
        -1.0 / 39_916_800.0,
        1.0 / 362_880.0,
        -1.0 / 5_040.0,
        1.0 / 120.0,
        -1.0 / 6.0,
        1.0,
    ];
    const COS: [f64; 8] = [
        1.0 / 20_922_789_888_000.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 479_001_600.0,
        -1.0 / 3_628_800.0,
        1.0 / 40_320.0,
        -1.0 / 720.0,
        1.0 / 24.0,
        -0.5,
    ];
    let k = (x / FRAC_PI_2).round();
    let r = (x - k * PIO2_HEAD) - k * PIO2_TAIL;
    let r2 = r * r;
    let s = r * SIN.iter().fold(0.0, |acc, &c| acc * r2 + c);
    let c = 1.0 + r2 * COS.iter().fold(0.0, |acc, &c| acc * r2 + c);
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// One rubble rock: box dimensions, centre and orientation (yaw, pitch, roll), local frame.
#[derive(Debug, Clone, Copy)]
struct Rock {
    size: [f64; 3],
    centre: [f64; 3],
    /// Yaw about z, pitch about y, roll about x (rad); rotation = Rz(yaw)·Ry(pitch)·Rx(roll).
    ypr: [f64; 3],
}

/// Draws the rocks of `c`: exactly 8 random numbers per rock, in a fixed order.
fn rocks(c: &RubbleConfig) -> Vec<Rock> {
    let mut rng = SplitMix64(c.seed);
    let (lo, hi) = (c.min_size.min(c.max_size), c.min_size.max(c.max_size));
    let tilt = 20.0_f64 * (PI / 180.0);
    (0..c.count)
        .map(|_| {
            let mut size = [0.0; 3];
            for d in &mut size {
                *d = lo + (hi - lo) * rng.next_f64();
            }
            let x = (rng.next_f64() - 0.5) * c.area[0];
            let y = (rng.next_f64() - 0.5) * c.area[1];
            let yaw = TAU * rng.next_f64();
            let pitch = (2.0 * rng.next_f64() - 1.0) * tilt;
            let roll = (2.0 * rng.next_f64() - 1.0) * tilt;
            Rock {
                size,
                centre: [x, y, 0.3 * size[2]],
                ypr: [yaw, pitch, roll],
            }
        })
        .collect()
}

/// A field of `count` irregular, partially buried rocks in its local frame (metres), scattered
/// uniformly over x ∈ \[−`area[0]`/2, `area[0]`/2\], y ∈ \[−`area[1]`/2, `area[1]`/2\].
///
/// Each rock is a box with random dimensions in [min_size, max_size] per axis, random yaw in
/// [0, 2π) and random pitch and roll in ±20°, whose centre sits at z = 0.3·(its box height) above
/// the ground. Each rock is a closed box (8 vertices, 12 triangles, appended in order); rocks
/// may overlap each other, so the union is not a single closed surface. Deterministic: a
/// splitmix64 PRNG drawing 8 numbers per rock and platform-independent trigonometry give the
/// same mesh bit for bit for the same config on every platform.
pub fn rubble(c: &RubbleConfig) -> MeshData {
    let mut mesh = MeshData::new();
    for rock in rocks(c) {
        let [a, b, h] = rock.size;
        let mut m = cuboid([a, b, h]);
        let (sy, cy) = det_sin_cos(rock.ypr[0]);
        let (sp, cp) = det_sin_cos(rock.ypr[1]);
        let (sr, cr) = det_sin_cos(rock.ypr[2]);
        let r = [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ];
        let half_h = 0.5 * h;
        for v in &mut m.vertices {
            let p = [v.x, v.y, v.z - half_h];
            let q: [f64; 3] = std::array::from_fn(|i| {
                rock.centre[i] + (r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2])
            });
            *v = Point3::new(q[0], q[1], q[2]);
        }
        mesh.append(&m);
    }
    mesh
}

/// A floor slab like [`cuboid`] (local frame, metres: centred in x and y, z from 0 to `size[2]`)
/// with a rectangular through-hole (e.g. a stairwell opening) spanning `hole_min` to `hole_max`
/// in local (x, y). The hole is clipped to the slab; the slab is built from up to 4
/// non-overlapping boxes around it (closed individually, with T-junctions between them).
/// Returns the plain slab when the clipped hole is empty and an empty mesh when the hole
/// covers the whole slab. Pieces thinner than 1e-9 of the slab's largest dimension are dropped.
pub fn slab_with_hole(size: [f64; 3], hole_min: [f64; 2], hole_max: [f64; 2]) -> MeshData {
    let (hx, hy, sz) = (0.5 * size[0], 0.5 * size[1], size[2]);
    let x0 = hole_min[0].min(hole_max[0]).max(-hx);
    let x1 = hole_min[0].max(hole_max[0]).min(hx);
    let y0 = hole_min[1].min(hole_max[1]).max(-hy);
    let y1 = hole_min[1].max(hole_max[1]).min(hy);
    let tol = 1e-9 * size[0].max(size[1]).max(size[2]);
    if !(x1 - x0 > tol && y1 - y0 > tol) {
        return cuboid(size);
    }
    let mut mesh = MeshData::new();
    let pieces = [
        ([-hx, -hy], [x0, hy]),
        ([x1, -hy], [hx, hy]),
        ([x0, -hy], [x1, y0]),
        ([x0, y1], [x1, hy]),
    ];
    for (lo, hi) in pieces {
        if hi[0] - lo[0] > tol && hi[1] - lo[1] > tol {
            mesh.append(&box_between([lo[0], lo[1], 0.0], [hi[0], hi[1], sz]));
        }
    }
    mesh
}

#[cfg(test)]
mod tests;
