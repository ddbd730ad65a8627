//! Plane cuts of stairs and ramps against their analytic profiles.
//!
//! Tolerances: cut vertices within 1e-5 m of the analytic profile (the bound; f64 gives
//! ~1e-12 here), normals within 1e-9 of the analytic outward normal, total length within 1e-9 m.

use nalgebra::{Isometry3, Point2, Translation3, UnitQuaternion, Vector2, Vector3};
use treadsim::scene::primitives::{self, StairsGeometry};
use treadsim::scene::MeshData;
use treadsim::terrain::{CutPlane, CutRegion, CutSegment, MaterialId, SurfaceMaterial, Terrain};

const VERTEX_TOL: f64 = 1e-5;

fn terrain(mut mesh: MeshData, pose: &Isometry3<f64>) -> Terrain {
    mesh.transform(pose);
    let n = mesh.triangles.len();
    Terrain::new(
        mesh.vertices,
        mesh.triangles,
        vec![MaterialId(0); n],
        vec![SurfaceMaterial::default()],
    )
    .unwrap()
}

/// Distance from `p` to segment `a–b`.
fn dist_to_edge(p: Point2<f64>, a: Point2<f64>, b: Point2<f64>) -> f64 {
    let d = b - a;
    let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
    (a + d * t - p).norm()
}

/// Checks that the cut is exactly the closed polygon `profile` (counter-clockwise): every cut
/// vertex lies on it, every corner is a cut vertex, normals are the edges' outward normals and
/// the lengths add up to the perimeter.
fn assert_cut_is_profile(segs: &[CutSegment], profile: &[Point2<f64>]) {
    let n = profile.len();
    let edges: Vec<(Point2<f64>, Point2<f64>)> =
        (0..n).map(|i| (profile[i], profile[(i + 1) % n])).collect();
    let mut length = 0.0;
    for s in segs {
        length += (s.b - s.a).norm();
        // The profile edge containing the whole segment.
        let (ea, eb) = edges
            .iter()
            .find(|(a, b)| {
                dist_to_edge(s.a, *a, *b) < VERTEX_TOL && dist_to_edge(s.b, *a, *b) < VERTEX_TOL
            })
            .unwrap_or_else(|| panic!("segment off the profile: {s:?}"));
        let d = (eb - ea).normalize();
        // Counter-clockwise polygon: outward normal is the right perpendicular.
        let outward = Vector2::new(d.y, -d.x);
        assert!(
            (s.normal - outward).norm() < 1e-9,
            "normal {:?} vs {outward:?}",
            s.normal
        );
        // Solid on the right of a → b means a → b runs clockwise: against the polygon's edges.
        assert!((s.b - s.a).dot(&d) < 0.0, "segment orientation {s:?}");
    }
    let perimeter: f64 = edges.iter().map(|(a, b)| (b - a).norm()).sum();
    assert!(
        (length - perimeter).abs() < 1e-9,
        "length {length} vs perimeter {perimeter}"
    );
    for c in profile {
        let hit = segs
            .iter()
            .any(|s| (s.a - c).norm() < VERTEX_TOL || (s.b - c).norm() < VERTEX_TOL);
        assert!(hit, "corner {c:?} is not a cut vertex");
    }
}

/// The stair profile written down from the geometry, counter-clockwise.
fn stair_profile(g: &StairsGeometry) -> Vec<Point2<f64>> {
    let mut p = vec![Point2::new(0.0, 0.0)];
    let n = g.count as usize;
    for i in 0..n {
        let x = i as f64 * g.run;
        let top = (i + 1) as f64 * g.rise;
        if g.nosing > 0.0 {
            p.push(Point2::new(x, top - g.nosing_thickness));
            p.push(Point2::new(x - g.nosing, top - g.nosing_thickness));
            p.push(Point2::new(x - g.nosing, top));
        } else {
            p.push(Point2::new(x, top));
        }
        if i + 1 < n {
            p.push(Point2::new(x + g.run, top));
        }
    }
    let end = n as f64 * g.run + g.landing;
    p.push(Point2::new(end, n as f64 * g.rise));
    p.push(Point2::new(end, 0.0));
    // Walked up the front then back along the bottom: that is clockwise; reverse it.
    p.reverse();
    p
}

fn posed(x: f64, y: f64, z: f64, yaw_deg: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_euler_angles(0.0, 0.0, yaw_deg.to_radians()),
    )
}

#[test]
fn public_and_residential_stairs_cut_to_their_profiles() {
    for g in [
        StairsGeometry {
            rise: 0.18,
            run: 0.28,
            width: 1.6,
            count: 12,
            nosing: 0.02,
            nosing_thickness: 0.03,
            landing: 2.0,
        },
        StairsGeometry {
            rise: 0.196,
            run: 0.254,
            width: 1.0,
            count: 14,
            nosing: 0.025,
            nosing_thickness: 0.03,
            landing: 1.5,
        },
        StairsGeometry {
            rise: 0.2,
            run: 0.2,
            width: 0.9,
            count: 10,
            nosing: 0.0,
            nosing_thickness: 0.0,
            landing: 1.0,
        },
    ] {
        // The flight placed somewhere in the world, yawed; the plane is the flight's local x–z
        // plane shifted across it (as a track plane driving straight up would be).
        let pose = posed(12.5, -3.25, 0.75, 33.0);
        let t = terrain(primitives::stairs(&g), &pose);
        for y in [-0.7 * g.width / 2.0, 0.0, 0.31 * g.width / 2.0] {
            let plane_pose = pose * Translation3::new(0.0, y, 0.0);
            let plane = CutPlane::from_pose(&plane_pose, CutRegion::new(-10.0, 20.0, -10.0, 20.0));
            let mut segs = Vec::new();
            t.cut(&plane, &mut segs);
            assert_cut_is_profile(&segs, &stair_profile(&g));
            let mut brute = Vec::new();
            t.cut_brute_force(&plane, &mut brute);
            assert_eq!(segs, brute);
        }
    }
}

#[test]
fn oblique_cut_of_a_ramp_sees_the_projected_slope() {
    // A plane yawed by psi against the ramp's rise direction sees the slope at
    // atan(tan(angle)·cos(psi)), and the outward normal of the slope leans back accordingly.
    let (length, width, top) = (3.0, 4.0, 1.0);
    for angle_deg in [10.0f64, 20.0, 30.0, 45.0] {
        let angle = angle_deg.to_radians();
        let pose = posed(-2.0, 5.0, 0.0, -70.0);
        let t = terrain(primitives::ramp(length, angle, width, top), &pose);
        for psi_deg in [0.0f64, 15.0, 40.0] {
            let psi = psi_deg.to_radians();
            let plane_pose = pose
                * Translation3::new(0.5, 0.1, 0.0)
                * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), psi);
            let plane = CutPlane::from_pose(&plane_pose, CutRegion::new(-0.4, 0.4, -1.0, 5.0));
            let mut segs = Vec::new();
            t.cut(&plane, &mut segs);
            let slope: Vec<&CutSegment> = segs
                .iter()
                .filter(|s| s.normal.x < -1e-6 && s.normal.y > 1e-6)
                .collect();
            assert!(
                !slope.is_empty(),
                "slope found at {angle_deg}° / {psi_deg}°"
            );
            let seen = (angle.tan() * psi.cos()).atan();
            for s in slope {
                let d = s.a - s.b; // solid on the right of a→b: slope runs downhill a→b
                let got = (d.y / d.x).atan();
                assert!((got - seen).abs() < 1e-9, "slope {got} vs {seen}");
                let expect_n = Vector2::new(-seen.sin(), seen.cos());
                assert!((s.normal - expect_n).norm() < 1e-9);
                // The slope passes through the plane origin's ground point: z = x_local·tan.
                let x_local = 0.5 + s.a.x * psi.cos();
                assert!((s.a.y - x_local * angle.tan()).abs() < VERTEX_TOL);
            }
        }
    }
}
