//! Cost of one track-plane cut against terrains of growing size.
//!
//! The terrain is a rubble-like height field at a fixed density (0.1 m cells, random
//! heights), grown in area from 1e3 to 1e6 triangles, so the number of segments found near the
//! track stays the same and only the search cost changes. A BVH cut should grow like log n;
//! the brute-force scan (shown up to 1e5) grows like n. `belt_cuts`: a belt's six parallel
//! cuts (planes and strip edges) from its candidates, in 3D each or by one slab projection,
//! and by the projection less the faces wholly below the belt (culled).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector2, Vector3};
use treadsim::terrain::{
    CullLine, CutPlane, CutRegion, MaterialId, SlabTriangles, SurfaceMaterial, Terrain,
};

fn height_field(target_triangles: usize) -> Terrain {
    let n = ((target_triangles / 2) as f64).sqrt().round() as usize;
    let step = 0.1;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let half = n as f64 * step / 2.0;
    let mut v = Vec::with_capacity((n + 1) * (n + 1));
    for j in 0..=n {
        for i in 0..=n {
            v.push(Point3::new(
                i as f64 * step - half,
                j as f64 * step - half,
                0.05 * rnd(),
            ));
        }
    }
    let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut t = Vec::with_capacity(2 * n * n);
    for j in 0..n {
        for i in 0..n {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    let m = vec![MaterialId(0); t.len()];
    Terrain::new(v, t, m, vec![SurfaceMaterial::default()]).expect("valid bench terrain")
}

/// A track plane of a robot standing near the scene centre, slightly yawed so the plane is not
/// aligned with the grid; region = a 0.9 m × 0.5 m box around a track's outline.
fn track_plane() -> CutPlane {
    let pose = Isometry3::from_parts(
        Vector3::new(0.13, 0.21, 0.1).into(),
        UnitQuaternion::from_euler_angles(0.02, -0.05, 0.3),
    );
    CutPlane::from_pose(&pose, CutRegion::new(-0.45, 0.45, -0.3, 0.2))
}

fn bench_cut(c: &mut Criterion) {
    let plane = track_plane();
    let mut group = c.benchmark_group("plane_cut");
    for &n in &[1_000usize, 10_000, 100_000, 1_000_000] {
        let terrain = height_field(n);
        let mut out = Vec::with_capacity(256);
        group.bench_with_input(BenchmarkId::new("bvh", n), &terrain, |b, t| {
            b.iter(|| {
                t.cut(&plane, &mut out);
                out.len()
            })
        });
        if n <= 100_000 {
            group.bench_with_input(BenchmarkId::new("brute_force", n), &terrain, |b, t| {
                b.iter(|| {
                    t.cut_brute_force(&plane, &mut out);
                    out.len()
                })
            });
        }
    }
    group.finish();
}

/// One belt's two parallel planes and their four strip edges cut from one candidate search:
/// each plane cut in 3D from the candidates, against one slab projection and 2D cuts (what
/// the track model does every step).
fn bench_slab(c: &mut Criterion) {
    let plane = track_plane();
    let terrain = height_field(10_000);
    let mut candidates = Vec::new();
    terrain.candidates(&plane, 0.1, &mut candidates);
    let offsets = [-0.1, -0.05, 0.0, 0.05, 0.1, -0.075];
    let mut out = Vec::with_capacity(256);
    let mut group = c.benchmark_group("belt_cuts");
    group.bench_function("3d_per_plane", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &offsets {
                terrain.cut_candidates(&plane.shifted(o), &candidates, &mut out);
                n += out.len();
            }
            n
        })
    });
    let mut slab = SlabTriangles::default();
    group.bench_function("slab_projection", |b| {
        b.iter(|| {
            slab.fill(&terrain, &plane, 0.1, &candidates);
            let mut n = 0;
            for &o in &offsets {
                slab.cut(&terrain, o, &mut out);
                n += out.len();
            }
            n
        })
    });
    // The same with the faces wholly below a belt whose bottom run lies 7 cm under the plane's
    // origin (the rubble tops reach about 5 cm higher) left out, as the track model culls them
    // (its runs moved out by 5 mm); the culling is inside the timed loop, as it is every step.
    let lines = [CullLine {
        normal: Vector2::new(0.0, -1.0),
        offset: 0.07 + 0.005,
    }];
    group.bench_function("slab_projection_culled", |b| {
        b.iter(|| {
            slab.fill(&terrain, &plane, 0.1, &candidates);
            slab.cull(&lines);
            let mut n = 0;
            for &o in &offsets {
                slab.cut(&terrain, o, &mut out);
                n += out.len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_cut, bench_slab);
criterion_main!(benches);
