//! The primitives' meshes: closed, outward-wound, of the sizes asked for.

use super::*;
use std::collections::HashMap;

fn assert_non_degenerate(m: &MeshData) {
    for (i, t) in m.triangles.iter().enumerate() {
        for &k in t {
            assert!(
                (k as usize) < m.vertices.len(),
                "triangle {i} index out of range"
            );
        }
        let [a, b, c] = t.map(|k| m.vertices[k as usize]);
        let area = 0.5 * (b - a).cross(&(c - a)).norm();
        assert!(area > 1e-12, "triangle {i} degenerate: area {area}");
        assert!(m.triangle_normal(i).is_some());
    }
}

/// Every undirected edge is used by exactly two triangles, in opposite directions.
fn assert_closed(m: &MeshData) {
    let mut directed: HashMap<(u32, u32), usize> = HashMap::new();
    for t in &m.triangles {
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &directed {
        assert_eq!(n, 1, "directed edge {a}->{b} used {n} times");
        assert_eq!(
            directed.get(&(b, a)),
            Some(&1),
            "edge {a}->{b} has no opposite"
        );
    }
    assert!(!m.triangles.is_empty());
}

fn volume(m: &MeshData) -> f64 {
    m.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|k| m.vertices[k as usize].coords);
            a.dot(&b.cross(&c)) / 6.0
        })
        .sum()
}

fn assert_rel(actual: f64, expected: f64, rel: f64) {
    assert!(
        (actual - expected).abs() <= rel * expected.abs(),
        "got {actual}, expected {expected}"
    );
}

fn check_watertight(m: &MeshData, expected_volume: f64) {
    assert_non_degenerate(m);
    assert_closed(m);
    assert_rel(volume(m), expected_volume, 1e-9);
}

fn polygon_area(poly: &[[f64; 2]]) -> f64 {
    0.5 * signed_area2(poly).abs()
}

fn regular_polygon_area(r: f64, s: u32) -> f64 {
    0.5 * f64::from(s) * r * r * (TAU / f64::from(s)).sin()
}

/// A comb: a base of height `b` with `teeth` unit-wide teeth of height `h` and unit gaps,
/// counter-clockwise in (x, z).
fn comb(teeth: u32, b: f64, h: f64) -> (Vec<[f64; 2]>, f64) {
    let w = f64::from(2 * teeth - 1);
    let mut p = vec![[0.0, 0.0], [w, 0.0]];
    for i in (0..teeth).rev() {
        let x = f64::from(2 * i);
        p.push([x + 1.0, b + h]);
        p.push([x, b + h]);
        if i > 0 {
            p.push([x, b]);
            p.push([x - 1.0, b]);
        }
    }
    (p, w * b + f64::from(teeth) * h)
}

/// Cap triangles are outward: normal −y on the y = −w/2 cap, +y on the y = +w/2 cap.
fn assert_caps_outward(m: &MeshData, width: f64) {
    for (i, t) in m.triangles.iter().enumerate() {
        let ys = t.map(|k| m.vertices[k as usize].y);
        if ys.iter().all(|&y| y == ys[0]) {
            let n = m.triangle_normal(i).expect("non-degenerate");
            let expect = if ys[0] > 0.0 { 1.0 } else { -1.0 };
            assert!(
                (n.y - expect).abs() < 1e-12,
                "cap triangle {i} normal {n:?}"
            );
            assert!((ys[0].abs() - 0.5 * width).abs() < 1e-15);
        }
    }
}

#[test]
fn prism_square_both_orientations() {
    let ccw = [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]];
    let mut cw = ccw;
    cw.reverse();
    for p in [ccw, cw] {
        let m = prism_xz(&p, 3.0);
        assert_eq!(m.vertices.len(), 8);
        assert_eq!(m.num_triangles(), 12);
        check_watertight(&m, 6.0);
        assert_caps_outward(&m, 3.0);
    }
}

#[test]
fn prism_comb_20_teeth_cw_and_ccw() {
    let (ccw, area) = comb(20, 1.0, 3.0);
    let mut cw = ccw.clone();
    cw.reverse();
    let m1 = prism_xz(&ccw, 0.5);
    let m2 = prism_xz(&cw, 0.5);
    for m in [&m1, &m2] {
        check_watertight(m, area * 0.5);
        assert_caps_outward(m, 0.5);
        assert_eq!(m.vertices.len(), 2 * ccw.len());
        assert_eq!(m.num_triangles(), 4 * ccw.len() - 4);
    }
    assert_rel(volume(&m1), volume(&m2), 1e-12);
}

#[test]
fn prism_removes_duplicates_and_collinear_points() {
    // A 2 × 1 rectangle with extra points on every edge, a duplicate and a split corner.
    let p = [
        [0.0, 0.0],
        [0.5, 0.0],
        [0.5, 0.0],
        [1.0, 0.0],
        [2.0, 0.0],
        [2.0, 0.25],
        [2.0, 1.0],
        [1.0, 1.0],
        [0.0, 1.0],
        [0.0, 0.5],
        [0.0, 0.0],
    ];
    let m = prism_xz(&p, 1.0);
    assert_eq!(m.vertices.len(), 8);
    check_watertight(&m, 2.0);
    // The start point is itself collinear (mid-edge) here.
    let p2 = [[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0], [0.0, 0.0]];
    let m2 = prism_xz(&p2, 1.0);
    assert_eq!(m2.vertices.len(), 8);
    check_watertight(&m2, 2.0);
}

#[test]
fn prism_degenerate_profiles_are_empty() {
    assert!(prism_xz(&[], 1.0).vertices.is_empty());
    assert!(prism_xz(&[[0.0, 0.0], [1.0, 0.0]], 1.0).vertices.is_empty());
    assert!(prism_xz(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], 1.0)
        .vertices
        .is_empty());
    assert!(prism_xz(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], 0.0)
        .vertices
        .is_empty());
    assert!(prism_xz(&[[0.0, 0.0], [f64::NAN, 0.0], [1.0, 1.0]], 1.0)
        .vertices
        .is_empty());
}

/// Non-simple input is outside the contract but must not panic or loop forever.
#[test]
fn prism_non_simple_input_does_not_panic() {
    let bow_tie = [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]];
    let _ = prism_xz(&bow_tie, 1.0);
    let overlapping = [
        [0.0, 0.0],
        [3.0, 0.0],
        [3.0, 1.0],
        [-1.0, 1.0],
        [-1.0, 0.5],
        [2.0, 0.5],
        [2.0, 2.0],
        [0.0, 2.0],
    ];
    let m = prism_xz(&overlapping, 1.0);
    assert_non_degenerate(&m);
    let spike = [
        [0.0, 0.0],
        [1.0, 0.0],
        [1.0, 1.0],
        [1.0, 3.0],
        [1.0, 1.0],
        [0.0, 1.0],
    ];
    let m = prism_xz(&spike, 1.0);
    check_watertight(&m, 1.0);
}

/// Random star-shaped (hence simple) polygons with many reflex vertices.
#[test]
fn prism_random_star_polygons() {
    let mut rng = SplitMix64(7);
    for _ in 0..50 {
        let n = 3 + (rng.next_u64() % 60) as usize;
        let mut angles: Vec<f64> = (0..n).map(|_| TAU * rng.next_f64()).collect();
        angles.sort_by(f64::total_cmp);
        let poly: Vec<[f64; 2]> = angles
            .iter()
            .map(|&a| {
                let r = 0.2 + 2.0 * rng.next_f64();
                [3.0 + r * a.cos(), 1.0 + r * a.sin()]
            })
            .collect();
        let clean = clean_polygon(&poly);
        let m = prism_xz(&poly, 0.7);
        check_watertight(&m, polygon_area(&clean) * 0.7);
        assert_caps_outward(&m, 0.7);
    }
}

#[test]
fn prism_large_comb_is_fast_and_valid() {
    let (p, area) = comb(500, 0.5, 2.0);
    let start = std::time::Instant::now();
    let m = prism_xz(&p, 1.0);
    assert!(start.elapsed().as_secs_f64() < 10.0);
    check_watertight(&m, area);
}

#[test]
fn cuboid_closed_with_exact_bounds() {
    let m = cuboid([2.0, 3.0, 0.5]);
    assert_eq!(m.num_triangles(), 12);
    check_watertight(&m, 3.0);
    let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
    for v in &m.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    assert_eq!(lo, [-1.0, -1.5, 0.0]);
    assert_eq!(hi, [1.0, 1.5, 0.5]);
}

#[test]
fn ramp_volumes() {
    for (l, a, w, t) in [
        (2.0, 0.3, 1.5, 0.0),
        (2.0, 0.3, 1.5, 1.0),
        (0.5, 1.2, 0.8, 0.25),
    ] {
        let m = ramp(l, a, w, t);
        let tan: f64 = a.tan();
        check_watertight(&m, w * (l * l * tan / 2.0 + t * l * tan));
        assert_eq!(m.vertices.len(), if t == 0.0 { 6 } else { 8 });
    }
}

fn stairs_volume(g: &StairsGeometry) -> f64 {
    let n = f64::from(g.count);
    let lips = if g.nosing > 0.0 {
        n * g.nosing * g.nosing_thickness
    } else {
        0.0
    };
    let area = g.run * g.rise * n * (n + 1.0) / 2.0 + g.landing * n * g.rise + lips;
    area * g.width
}

/// The expected profile corners, written independently of `stairs_profile`.
fn expected_stair_corners(g: &StairsGeometry) -> Vec<[f64; 2]> {
    let (r, u, n, t) = (g.rise, g.run, g.nosing, g.nosing_thickness);
    let c = g.count;
    let mut v = vec![[0.0, 0.0]];
    for i in 0..c {
        let fi = f64::from(i);
        if n > 0.0 {
            if i > 0 {
                v.push([fi * u, fi * r]);
            }
            v.push([fi * u, (fi + 1.0) * r - t]);
            v.push([fi * u - n, (fi + 1.0) * r - t]);
            v.push([fi * u - n, (fi + 1.0) * r]);
        } else {
            v.push([fi * u, (fi + 1.0) * r]);
            if i + 1 < c {
                v.push([(fi + 1.0) * u, (fi + 1.0) * r]);
            }
        }
    }
    let end = f64::from(c) * u + g.landing;
    v.push([end, f64::from(c) * r]);
    v.push([end, 0.0]);
    v
}

fn check_stairs(g: &StairsGeometry) {
    let m = stairs(g);
    check_watertight(&m, stairs_volume(g));
    assert_caps_outward(&m, g.width);
    let side: Vec<[f64; 2]> = m
        .vertices
        .iter()
        .filter(|v| (v.y - 0.5 * g.width).abs() < 1e-12)
        .map(|v| [v.x, v.z])
        .collect();
    let expected = expected_stair_corners(g);
    assert_eq!(side.len(), expected.len());
    let near = |a: &[f64; 2], b: &[f64; 2]| dist(*a, *b) < 1e-12;
    for e in &expected {
        assert!(side.iter().any(|s| near(s, e)), "missing corner {e:?}");
    }
    for s in &side {
        assert!(expected.iter().any(|e| near(s, e)), "extra corner {s:?}");
    }
    let nos = stairs_nosings(g);
    assert_eq!(nos.len(), g.count as usize);
    for (i, p) in nos.iter().enumerate() {
        let q = [i as f64 * g.run - g.nosing, (i + 1) as f64 * g.rise];
        assert!(near(p, &q));
        assert!(side.iter().any(|s| near(s, p)), "nosing {p:?} not a corner");
    }
}

const STAIRS: StairsGeometry = StairsGeometry {
    rise: 0.18,
    run: 0.28,
    width: 1.2,
    count: 12,
    nosing: 0.02,
    nosing_thickness: 0.03,
    landing: 1.0,
};

#[test]
fn stairs_with_nosing() {
    check_stairs(&STAIRS);
}

#[test]
fn stairs_without_nosing() {
    check_stairs(&StairsGeometry {
        nosing: 0.0,
        ..STAIRS
    });
}

#[test]
fn stairs_other_shapes() {
    check_stairs(&StairsGeometry {
        count: 1,
        landing: 0.0,
        ..STAIRS
    });
    check_stairs(&StairsGeometry {
        count: 1,
        nosing: 0.0,
        landing: 0.0,
        ..STAIRS
    });
    check_stairs(&StairsGeometry {
        rise: 0.2,
        run: 0.2,
        count: 40,
        nosing: 0.05,
        nosing_thickness: 0.2 - 1e-3,
        landing: 0.0,
        width: 0.9,
    });
    check_stairs(&StairsGeometry {
        rise: 0.15,
        run: 0.3,
        count: 30,
        nosing: 0.0,
        nosing_thickness: 0.0,
        landing: 0.3,
        width: 2.0,
    });
    assert!(stairs(&StairsGeometry { count: 0, ..STAIRS })
        .vertices
        .is_empty());
}

#[test]
fn cylinder_volumes() {
    for s in [3, 4, 7, 32] {
        let m = cylinder(0.4, 1.5, s);
        check_watertight(&m, regular_polygon_area(0.4, s) * 1.5);
        assert!((m.vertices[0] - Point3::new(0.4, 0.0, 0.0)).norm() < 1e-15);
    }
    // Clamped segment count.
    check_watertight(&cylinder(1.0, 1.0, 0), regular_polygon_area(1.0, 3));
}

#[test]
fn pipe_volumes_and_placement() {
    for s in [3, 5, 24] {
        let (ro, ri, l) = (0.5, 0.4, 2.0);
        let m = pipe(ro, ri, l, s);
        let area = regular_polygon_area(ro, s) - regular_polygon_area(ri, s);
        check_watertight(&m, area * l);
        let zmin = m.vertices.iter().map(|v| v.z).fold(f64::MAX, f64::min);
        assert!(zmin >= -1e-12);
        // Inner-surface normals point toward the axis (y axis at z = ro).
        for (i, t) in m.triangles.iter().enumerate() {
            if t.iter().all(|&k| k >= 2 * s) {
                let c = t
                    .iter()
                    .map(|&k| m.vertices[k as usize].coords)
                    .sum::<nalgebra::Vector3<f64>>()
                    / 3.0;
                let n = m.triangle_normal(i).expect("non-degenerate");
                if n.y.abs() < 0.5 {
                    let to_axis = nalgebra::Vector3::new(-c.x, 0.0, ro - c.z);
                    assert!(n.dot(&to_axis) > 0.0);
                }
            }
        }
    }
    assert!(pipe(0.5, 0.5, 1.0, 8).vertices.is_empty());
}

const RUBBLE: RubbleConfig = RubbleConfig {
    seed: 42,
    count: 40,
    area: [6.0, 4.0],
    min_size: 0.05,
    max_size: 0.4,
};

#[test]
fn rubble_volume_and_extent() {
    let m = rubble(&RUBBLE);
    assert_eq!(m.num_triangles(), 12 * RUBBLE.count as usize);
    assert_non_degenerate(&m);
    let expected: f64 = rocks(&RUBBLE)
        .iter()
        .map(|r| r.size[0] * r.size[1] * r.size[2])
        .sum();
    let v = volume(&m);
    assert!(v > 0.0);
    assert_rel(v, expected, 1e-9);
    let pad = RUBBLE.max_size * 3f64.sqrt();
    for p in &m.vertices {
        assert!(p.x.abs() <= RUBBLE.area[0] / 2.0 + pad);
        assert!(p.y.abs() <= RUBBLE.area[1] / 2.0 + pad);
    }
    for r in rocks(&RUBBLE) {
        for d in r.size {
            assert!((RUBBLE.min_size..=RUBBLE.max_size).contains(&d));
        }
        assert!(r.ypr[1].abs() <= 20f64.to_radians() + 1e-12);
        assert!(r.ypr[2].abs() <= 20f64.to_radians() + 1e-12);
        assert!((0.0..TAU).contains(&r.ypr[0]));
    }
    // Each rock is a closed box of its own.
    for k in 0..RUBBLE.count as usize {
        let rock = MeshData {
            vertices: m.vertices[8 * k..8 * k + 8].to_vec(),
            triangles: m.triangles[12 * k..12 * k + 12]
                .iter()
                .map(|t| t.map(|i| i - 8 * k as u32))
                .collect(),
        };
        assert_closed(&rock);
    }
}

#[test]
fn rubble_is_deterministic() {
    let a = rubble(&RUBBLE);
    let b = rubble(&RUBBLE);
    assert_eq!(a, b);
    let bits = |m: &MeshData| -> Vec<u64> {
        m.vertices
            .iter()
            .flat_map(|v| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()])
            .collect()
    };
    assert_eq!(bits(&a), bits(&b));
    let c = rubble(&RubbleConfig { seed: 43, ..RUBBLE });
    assert_ne!(bits(&a), bits(&c));
    assert!(rubble(&RubbleConfig { count: 0, ..RUBBLE })
        .vertices
        .is_empty());
}

#[test]
fn rubble_golden_first_value() {
    // splitmix64 reference output for seed 0 (from the published algorithm).
    let mut r = SplitMix64(0);
    assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
}

#[test]
fn det_sin_cos_matches_std() {
    let mut x = -7.0;
    while x < 7.0 {
        let (s, c) = det_sin_cos(x);
        assert!((s - x.sin()).abs() < 4e-16, "sin({x}): {s} vs {}", x.sin());
        assert!((c - x.cos()).abs() < 4e-16, "cos({x}): {c} vs {}", x.cos());
        x += 0.0137;
    }
}

#[test]
fn slab_with_hole_volumes() {
    let size = [4.0, 3.0, 0.2];
    let cases: [([f64; 2], [f64; 2], f64); 6] = [
        // Interior hole: 4 pieces.
        ([-1.0, -0.5], [0.5, 1.0], 1.5 * 1.5),
        // Hole touching/crossing the +x edge: clipped.
        ([1.0, -0.5], [3.0, 0.5], 1.0 * 1.0),
        // Hole spanning the full y range: 2 pieces.
        ([-0.5, -2.0], [0.5, 2.0], 1.0 * 3.0),
        // Corner hole given with swapped corners.
        ([-1.0, -1.0], [-3.0, -3.0], 1.0 * 0.5),
        // Hole outside the slab: plain slab.
        ([5.0, 5.0], [6.0, 6.0], 0.0),
        // Hole covering everything: empty.
        ([-3.0, -3.0], [3.0, 3.0], 12.0),
    ];
    for (lo, hi, hole_area) in cases {
        let m = slab_with_hole(size, lo, hi);
        let expected = (12.0 - hole_area) * 0.2;
        if expected == 0.0 {
            assert!(m.vertices.is_empty());
            continue;
        }
        assert_non_degenerate(&m);
        assert_rel(volume(&m), expected, 1e-9);
        for k in 0..m.num_triangles() / 12 {
            let piece = MeshData {
                vertices: m.vertices[8 * k..8 * k + 8].to_vec(),
                triangles: m.triangles[12 * k..12 * k + 12]
                    .iter()
                    .map(|t| t.map(|i| i - 8 * k as u32))
                    .collect(),
            };
            assert_closed(&piece);
        }
        for v in &m.vertices {
            assert!(v.x.abs() <= 2.0 && v.y.abs() <= 1.5 && (0.0..=0.2).contains(&v.z));
        }
    }
    assert_eq!(
        slab_with_hole(size, [-1.0, -0.5], [0.5, 1.0]).num_triangles(),
        48
    );
}
