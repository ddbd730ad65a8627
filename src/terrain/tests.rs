use super::*;
use nalgebra::{Isometry3, Point2, Translation3, UnitQuaternion, Vector2, Vector3};
use proptest::prelude::*;

fn terrain_from(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> Terrain {
    let n = triangles.len();
    Terrain::new(
        vertices,
        triangles,
        vec![MaterialId(0); n],
        vec![SurfaceMaterial::default()],
    )
    .expect("valid terrain")
}

/// A height field z = h(x, y) on an `nx × ny` grid of spacing `step`, top surface only,
/// triangles counter-clockwise seen from above.
fn height_field(nx: usize, ny: usize, step: f64, h: impl Fn(f64, f64) -> f64) -> Terrain {
    let mut v = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            let (x, y) = (i as f64 * step, j as f64 * step - ny as f64 * step / 2.0);
            v.push(Point3::new(x, y, h(x, y)));
        }
    }
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut t = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    terrain_from(v, t)
}

fn vertical_plane_at_y(y: f64) -> CutPlane {
    CutPlane::from_pose(
        &Isometry3::translation(0.0, y, 0.0),
        CutRegion::new(-100.0, 100.0, -100.0, 100.0),
    )
}

fn total_length(segs: &[CutSegment]) -> f64 {
    segs.iter().map(|s| (s.b - s.a).norm()).sum()
}

#[test]
fn flat_ground_cut_through_grid_vertices_is_one_covering_with_no_duplicates() {
    // The plane y = 0 passes exactly through a row of grid vertices and along grid edges.
    let t = height_field(10, 4, 0.5, |_, _| 0.0);
    let mut segs = Vec::new();
    t.cut(&vertical_plane_at_y(0.0), &mut segs);
    assert!((total_length(&segs) - 5.0).abs() < 1e-12, "{segs:?}");
    for s in &segs {
        assert!((s.normal - Vector2::new(0.0, 1.0)).norm() < 1e-12);
        assert!(s.b.x > s.a.x, "ground runs +x with the solid below");
        assert!(s.a.y.abs() < 1e-12 && s.b.y.abs() < 1e-12);
    }
    // Off the vertex row the same ground gives the same length.
    t.cut(&vertical_plane_at_y(0.3), &mut segs);
    assert!((total_length(&segs) - 5.0).abs() < 1e-12);
}

#[test]
fn triangle_lying_in_the_plane_gives_nothing_and_vertex_touch_gives_nothing() {
    // A vertical triangle in the plane y = 0, and one touching it only at a vertex.
    let v = vec![
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(3.0, 1.0, 0.0),
        Point3::new(3.0, 1.0, 1.0),
    ];
    let t = terrain_from(v, vec![[0, 1, 2], [3, 4, 5]]);
    let mut segs = Vec::new();
    t.cut(&vertical_plane_at_y(0.0), &mut segs);
    assert!(segs.is_empty(), "{segs:?}");
}

#[test]
fn box_cut_gives_its_rectangle_with_outward_normals() {
    // Unit box [0,1]^3 as 12 outward triangles.
    let v: Vec<Point3<f64>> = (0..8)
        .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
        .collect();
    let tris = vec![
        [0, 2, 3],
        [0, 3, 1], // bottom z=0 (normal -z)
        [4, 5, 7],
        [4, 7, 6], // top z=1
        [0, 1, 5],
        [0, 5, 4], // y=0 face (normal -y)
        [2, 6, 7],
        [2, 7, 3], // y=1 face
        [0, 4, 6],
        [0, 6, 2], // x=0 face (normal -x)
        [1, 3, 7],
        [1, 7, 5], // x=1 face
    ];
    let t = terrain_from(v, tris);
    let mut segs = Vec::new();
    t.cut(&vertical_plane_at_y(0.5), &mut segs);
    assert!((total_length(&segs) - 4.0).abs() < 1e-12);
    let centre = Point2::new(0.5, 0.5);
    for s in &segs {
        let mid = Point2::from((s.a.coords + s.b.coords) * 0.5);
        assert!(
            s.normal.dot(&(mid - centre)) > 0.49,
            "normal points out: {s:?}"
        );
        // Solid on the right of a → b: the centre is on the right.
        let d = s.b - s.a;
        let right = Vector2::new(d.y, -d.x);
        assert!(right.dot(&(centre - s.a)) > 0.0);
    }
}

#[test]
fn region_clips_and_prunes() {
    let t = height_field(20, 2, 0.5, |x, _| 0.1 * x);
    let plane = CutPlane::from_pose(
        &Isometry3::translation(0.0, 0.1, 0.0),
        CutRegion::new(2.0, 3.0, -10.0, 10.0),
    );
    let mut segs = Vec::new();
    t.cut(&plane, &mut segs);
    let min_x = segs
        .iter()
        .map(|s| s.a.x.min(s.b.x))
        .fold(f64::MAX, f64::min);
    let max_x = segs
        .iter()
        .map(|s| s.a.x.max(s.b.x))
        .fold(f64::MIN, f64::max);
    assert!((min_x - 2.0).abs() < 1e-12 && (max_x - 3.0).abs() < 1e-12);
    assert!((total_length(&segs) - 1.0f64.hypot(0.1)).abs() < 1e-12);
}

/// A segment carries its box and in-plane factor from construction: for a wall at 60° to the
/// plane (lateral = sin 60°), the in-plane part of its normal is cos 60° = ½.
#[test]
fn cut_segment_derives_its_box_and_in_plane_factor() {
    let lateral = 60f64.to_radians().sin();
    let seg = CutSegment::new(
        Point2::new(0.4, -0.1),
        Point2::new(-0.2, 0.3),
        Vector2::new(0.0, 1.0),
        lateral,
        MaterialId(0),
        7,
    );
    assert_eq!(
        seg.bounds(),
        (Point2::new(-0.2, -0.1), Point2::new(0.4, 0.3))
    );
    assert!((seg.in_plane() - 0.5).abs() < 1e-15);
    // |lateral| = 1 (a face parallel to the plane): nothing of the normal is in the plane.
    let flat = CutSegment::new(seg.a, seg.b, seg.normal, -1.0, MaterialId(0), 7);
    assert_eq!(flat.in_plane(), 0.0);
}

#[test]
fn rejects_bad_triangles() {
    let v = vec![
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(f64::NAN, 0.0, 0.0),
    ];
    let mats = vec![SurfaceMaterial::default()];
    let err = |t: Vec<[u32; 3]>| {
        Terrain::new(
            v.clone(),
            t.clone(),
            vec![MaterialId(0); t.len()],
            mats.clone(),
        )
        .unwrap_err()
    };
    assert_eq!(err(vec![]), TerrainError::Empty);
    assert_eq!(
        err(vec![[0, 1, 2]]),
        TerrainError::Degenerate { triangle: 0 }
    );
    assert_eq!(
        err(vec![[0, 1, 3]]),
        TerrainError::NonFinite { triangle: 0 }
    );
    assert!(matches!(
        err(vec![[0, 1, 9]]),
        TerrainError::IndexOutOfRange { vertex: 9, .. }
    ));
}

fn arb_point(extent: f64) -> impl Strategy<Value = Point3<f64>> {
    (-extent..extent, -extent..extent, -extent..extent).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

/// A random triangle soup, or a random height field whose vertices sit on a coarse lattice so
/// that planes through lattice values hit vertices and edges exactly.
fn arb_terrain() -> impl Strategy<Value = Terrain> {
    let soup = prop::collection::vec((arb_point(5.0), arb_point(5.0), arb_point(5.0)), 1..300)
        .prop_filter_map("non-degenerate", |tris| {
            let mut v = Vec::new();
            let mut t = Vec::new();
            for (a, b, c) in tris {
                if (b - a).cross(&(c - a)).norm() > 1e-6 {
                    let base = v.len() as u32;
                    v.extend([a, b, c]);
                    t.push([base, base + 1, base + 2]);
                }
            }
            (!t.is_empty()).then(|| terrain_from(v, t))
        });
    let field =
        (2usize..30, 2usize..30, prop::collection::vec(0i32..4, 64)).prop_map(|(nx, ny, hs)| {
            height_field(nx, ny, 0.25, move |x, y| {
                let k = ((x * 4.0).round() as i64 * 7 + (y * 4.0).round() as i64 * 13)
                    .rem_euclid(64) as usize;
                hs[k] as f64 * 0.25
            })
        });
    prop_oneof![soup, field]
}

fn arb_plane() -> impl Strategy<Value = CutPlane> {
    let lattice = (-20i32..20, 0u8..3).prop_map(|(k, axis)| {
        // Axis-aligned planes through lattice values: exact vertex and edge hits.
        let o = k as f64 * 0.25;
        let (t, r) = match axis {
            0 => (Vector3::new(0.0, o, 0.0), UnitQuaternion::identity()),
            1 => (
                Vector3::new(o, 0.0, 0.0),
                UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
            ),
            _ => (
                Vector3::new(0.0, 0.0, o),
                UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2),
            ),
        };
        CutPlane::from_pose(
            &Isometry3::from_parts(Translation3::from(t), r),
            CutRegion::new(-50.0, 50.0, -50.0, 50.0),
        )
    });
    let random =
        (arb_point(4.0), arb_point(1.0), 0.1f64..6.0, 0.1f64..6.0).prop_map(|(o, axis, hx, hz)| {
            let rot = UnitQuaternion::from_scaled_axis(axis.coords * 3.0);
            CutPlane::from_pose(
                &Isometry3::from_parts(Translation3::from(o.coords), rot),
                CutRegion::new(-hx, hx, -hz, hz),
            )
        });
    prop_oneof![lattice, random]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// The BVH-pruned cut finds exactly the segments of a scan over every triangle.
    #[test]
    fn bvh_cut_equals_brute_force(t in arb_terrain(), plane in arb_plane()) {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        t.cut(&plane, &mut fast);
        t.cut_brute_force(&plane, &mut slow);
        prop_assert_eq!(fast, slow);
    }

    /// One slab search serves parallel planes: cutting only its candidates with a plane
    /// shifted anywhere inside the slab gives the brute-force segments.
    #[test]
    fn slab_candidates_serve_parallel_planes(t in arb_terrain(), plane in arb_plane(), shift in -0.3f64..0.3) {
        let mut cands = Vec::new();
        t.candidates(&plane, 0.3, &mut cands);
        let moved = plane.shifted(shift);
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        t.cut_candidates(&moved, &cands, &mut fast);
        fast.sort_by_key(|s| s.triangle);
        t.cut_brute_force(&moved, &mut slow);
        prop_assert_eq!(fast, slow);
    }
}

/// The segments of `cut` longer than 1 µm, for comparing cuts computed two ways (a plane
/// passing exactly through a vertex may give a zero-length piece one way and none the other).
fn long_segments(cut: &[CutSegment]) -> Vec<CutSegment> {
    cut.iter()
        .filter(|s| (s.b - s.a).norm() > 1e-6)
        .copied()
        .collect()
}

proptest! {
    /// The slab projection cuts every parallel plane inside the slab as the 3D cut does: same
    /// triangles, same orientation, points within 1e-9 m; and finds the same side faces.
    #[test]
    fn slab_projection_cuts_like_the_plane(t in arb_terrain(), plane in arb_plane(), shift in -0.25f64..0.25) {
        let mut cands = Vec::new();
        t.candidates(&plane, 0.3, &mut cands);
        let mut slab = SlabTriangles::default();
        slab.fill(&t, &plane, 0.3, &cands);
        let moved = plane.shifted(shift);
        let (mut projected, mut direct) = (Vec::new(), Vec::new());
        slab.cut(&t, shift, &mut projected);
        t.cut_candidates(&moved, &cands, &mut direct);
        let (projected, direct) = (long_segments(&projected), long_segments(&direct));
        prop_assert_eq!(projected.len(), direct.len());
        for (p, d) in projected.iter().zip(&direct) {
            prop_assert_eq!(p.triangle, d.triangle);
            prop_assert_eq!(p.material, d.material);
            prop_assert!((p.a - d.a).norm() < 1e-9 && (p.b - d.b).norm() < 1e-9, "{:?} vs {:?}", p, d);
            prop_assert!((p.normal - d.normal).norm() < 1e-9);
            prop_assert!((p.lateral - d.lateral).abs() < 1e-12);
        }
        let (mut faces, mut expected) = (Vec::new(), Vec::new());
        slab.side_faces(shift, 0.05, &mut faces);
        t.side_faces(&moved, 0.05, &cands, &mut expected);
        prop_assert_eq!(faces, expected);
    }
}

/// The same triangles with no vertex shared, so that none pair into quads: every face a
/// triangle.
fn unpaired(t: &Terrain) -> Terrain {
    let vertices = (0..t.num_triangles())
        .flat_map(|i| t.triangle_points(i))
        .collect();
    let triangles = (0..t.num_triangles() as u32)
        .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    let materials = t.triangle_materials().to_vec();
    Terrain::new(vertices, triangles, materials, t.materials().to_vec()).expect("valid terrain")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// A quad cuts as its two triangles do, joined: every segment of the paired terrain is
    /// covered, end to end, by the segments its triangles give when cut alone (same line,
    /// normal and material, lengths summing to its own within 1e-9 m), and nothing else is cut.
    #[test]
    fn a_face_cuts_as_its_triangles_joined(t in arb_terrain(), plane in arb_plane()) {
        let alone = unpaired(&t);
        let (mut faces, mut triangles) = (Vec::new(), Vec::new());
        t.cut(&plane, &mut faces);
        alone.cut(&plane, &mut triangles);
        let faces = long_segments(&faces);
        let mut covered = 0;
        for f in &faces {
            let mine: Vec<_> = t.face_triangles(f.triangle).collect();
            let parts: Vec<_> = triangles.iter().filter(|s| mine.contains(&s.triangle)).collect();
            let along = (f.b - f.a) / (f.b - f.a).norm();
            let mut length = 0.0;
            for p in &parts {
                for q in [p.a, p.b] {
                    let off = q - f.a;
                    prop_assert!((off.x * along.y - off.y * along.x).abs() < 1e-9, "{f:?} {p:?}");
                    let s = off.dot(&along);
                    prop_assert!(s > -1e-9 && s < (f.b - f.a).norm() + 1e-9, "{f:?} {p:?}");
                }
                prop_assert!((p.normal - f.normal).norm() < 1e-9);
                prop_assert_eq!(p.material, f.material);
                length += (p.b - p.a).norm();
            }
            prop_assert!((length - (f.b - f.a).norm()).abs() < 1e-9, "{f:?} {parts:?}");
            covered += parts.len();
        }
        let long = long_segments(&triangles);
        prop_assert!(covered >= long.len(), "{} of {} triangle cuts covered", covered, long.len());
    }
}

/// A quad flat only to within 1e-10 m (inside the pairing tolerance), met by a plane tilted
/// within rounding of its own so that the plane separates its corners four times: it is cut
/// as its two triangles, each under its own id, by the 3D cut and the slab alike.
#[test]
fn a_quad_crossed_four_times_is_cut_as_its_triangles() {
    let v = vec![
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(1.0, 1.0, 0.0),
        Point3::new(0.0, 1.0, -1e-10),
    ];
    let t = terrain_from(v.clone(), vec![[0, 1, 2], [0, 2, 3]]);
    assert_eq!(t.num_faces(), 1);
    // The plane z = −1e-11 + 5e-11·x − 6e-11·y leaves corners 0 and 2 above it, 1 and 3
    // below: all four edges cross. Its pose: plane y axis along its normal.
    let normal = Vector3::new(-5e-11, 6e-11, 1.0).normalize();
    let rot = UnitQuaternion::rotation_between(&Vector3::y(), &normal).expect("not opposite");
    let plane = CutPlane::from_pose(
        &Isometry3::from_parts(Translation3::new(0.0, 0.0, -1e-11), rot),
        CutRegion::new(-10.0, 10.0, -10.0, 10.0),
    );
    let depth = v.iter().map(|p| (p - plane.origin()).dot(&plane.normal()));
    let above: Vec<bool> = depth.map(|d| d >= 0.0).collect();
    assert_eq!(above, [true, false, true, false]);
    let mut segs = Vec::new();
    t.cut(&plane, &mut segs);
    let ids: Vec<u32> = segs.iter().map(|s| s.triangle).collect();
    assert_eq!(ids, [0, 1], "{segs:?}");
    let mut slab = SlabTriangles::default();
    slab.fill(&t, &plane, 0.1, &[0]);
    let mut projected = Vec::new();
    slab.cut(&t, 0.0, &mut projected);
    assert_eq!(projected.len(), 2);
    for (p, d) in projected.iter().zip(&segs) {
        assert_eq!(p.triangle, d.triangle);
        assert!((p.a - d.a).norm() < 1e-9 && (p.b - d.b).norm() < 1e-9);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// A cut's direction taken from its normal (what the contact laws use, no root) is the
    /// direction of `a → b` within 1e-9 for every segment longer than 1 mm.
    #[test]
    fn a_cut_runs_along_its_normal_turned_clockwise(t in arb_terrain(), plane in arb_plane()) {
        let mut segs = Vec::new();
        t.cut(&plane, &mut segs);
        for s in segs.iter().filter(|s| (s.b - s.a).norm() > 1e-3) {
            let along = (s.b - s.a) / (s.b - s.a).norm();
            prop_assert!((s.direction() - along).norm() < 1e-9, "{s:?}");
        }
    }
}
