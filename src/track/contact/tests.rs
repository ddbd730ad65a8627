//! Unit tests of the wheel and run laws of a track plane.

use super::*;
use crate::terrain::MaterialId;
use crate::track::area::{circular_segment_area, circular_segment_area_integral};
use crate::track::load::normal_damping_factor;
use crate::track::outline::Circle;

fn circle(x: f64, z: f64, r: f64) -> Circle {
    Circle {
        center: Point2::new(x, z),
        radius: r,
    }
}

fn seg(a: (f64, f64), b: (f64, f64)) -> CutSegment {
    let (a, b) = (Point2::new(a.0, a.1), Point2::new(b.0, b.1));
    let d = (b - a).normalize();
    CutSegment::new(a, b, Vector2::new(-d.y, d.x), 0.0, MaterialId(0), 0)
}

/// Flat ground `z = h` from x = -10 to 10 (solid below).
fn ground(h: f64) -> Vec<CutSegment> {
    vec![seg((-10.0, h), (10.0, h))]
}

/// A step: lower floor z = 0 for x < x0, riser at x0 up to z = h, upper floor beyond.
fn step(x0: f64, h: f64) -> Vec<CutSegment> {
    vec![
        seg((-10.0, 0.0), (x0, 0.0)),
        seg((x0, 0.0), (x0, h)),
        seg((x0, h), (10.0, h)),
    ]
}

fn track() -> BeltOutline {
    BeltOutline::new(vec![
        circle(-0.25, 0.06, 0.06),
        circle(-0.1, 0.04, 0.04),
        circle(0.05, 0.04, 0.04),
        circle(0.25, 0.09, 0.05),
    ])
    .unwrap()
}

const STIFF: PlaneStiffness = PlaneStiffness {
    kappa: 1.0e6,
    run_mid: 0.3,
    grousers: Grousers {
        height: 0.0,
        pitch: 0.0,
    },
};

fn total(o: &BeltOutline, segs: &[CutSegment]) -> (Vector2<f64>, Vec<ElementLoad>) {
    let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
    evaluate_plane(
        o,
        STIFF,
        segs,
        &[SurfaceMaterial::default()],
        &mut loads,
        &[],
    );
    (loads.iter().map(|l| l.force).sum(), loads)
}

/// A wheel over a sliver 1 mm wide (a plane just past a curb's vertical edge) sinks no
/// deeper than the sliver is wide; over a 0.2 m thick floor the half-plane law holds.
#[test]
fn a_wheel_sinks_no_deeper_than_the_solid_is_thick() {
    let seg = |a: (f64, f64), b: (f64, f64), n: (f64, f64)| {
        CutSegment::new(
            Point2::new(a.0, a.1),
            Point2::new(b.0, b.1),
            Vector2::new(n.0, n.1),
            0.0,
            crate::terrain::MaterialId(0),
            0,
        )
    };
    let sliver = [
        seg((0.344, 0.04), (0.344, 0.15), (-1.0, 0.0)),
        seg((0.344, 0.15), (0.345, 0.15), (0.0, 1.0)),
        seg((0.345, 0.15), (0.345, 0.04), (1.0, 0.0)),
    ];
    let t = solid_thickness(Point2::new(0.345, 0.10), Vector2::new(-1.0, 0.0), &sliver);
    assert!((t - 0.001).abs() < 1e-9, "{t}");
    let floor = [
        seg((-1.0, 0.0), (1.0, 0.0), (0.0, 1.0)),
        seg((1.0, -0.2), (-1.0, -0.2), (0.0, -1.0)),
    ];
    let t = solid_thickness(Point2::new(0.1, 0.0), Vector2::new(0.0, -1.0), &floor);
    assert!((t - 0.2).abs() < 1e-12, "{t}");
    assert_eq!(
        solid_thickness(Point2::new(0.1, 0.0), Vector2::new(0.0, -1.0), &floor[..1]),
        f64::INFINITY
    );
}

/// Flat ground `z = h` with a ridge `height` m high on it, a triangle from x = −0.045 to
/// −0.005 (peak at −0.025: mid-way along the bottom run between [`track`]'s road wheels,
/// clear of both).
fn ground_with_ridge(h: f64, height: f64) -> Vec<CutSegment> {
    vec![
        seg((-10.0, h), (-0.045, h)),
        seg((-0.045, h), (-0.025, h + height)),
        seg((-0.025, h + height), (-0.005, h)),
        seg((-0.005, h), (10.0, h)),
    ]
}

/// Flat ground `z = h` with a flat-topped step `height` m high on it from x = −0.07 to 0.02
/// (under [`track`]'s bottom run between its road wheels, clear of both).
fn ground_with_plateau(h: f64, height: f64) -> Vec<CutSegment> {
    vec![
        seg((-10.0, h), (-0.07, h)),
        seg((-0.07, h), (-0.07, h + height)),
        seg((-0.07, h + height), (0.02, h + height)),
        seg((0.02, h + height), (0.02, h)),
        seg((0.02, h), (10.0, h)),
    ]
}

/// Each element's `stiffness` is the derivative of its force in its penetration (the
/// terrain raised): the wheels' on flat ground they sink into, the run's on a plateau rising
/// into it from ground just clear of the wheels (a flat top: the bump's mean depth rises as
/// the terrain does). The tangent stiffness that the rubber's viscous force scales with.
#[test]
fn element_stiffness_is_the_derivative_of_its_force() {
    let o = track();
    let h = 1e-8;
    let mut checked = 0;
    for terrain in [
        |raise: f64| ground(0.002 + raise),
        |raise: f64| ground_with_plateau(-0.0005 + raise, 0.003),
    ] {
        let (_, loads) = total(&o, &terrain(0.0));
        let (_, below) = total(&o, &terrain(-h));
        let (_, above) = total(&o, &terrain(h));
        // (A run whose end only grazes the ground carries micro-newtons: skipped.)
        let largest = loads.iter().map(|l| l.magnitude).fold(0.0, f64::max);
        for (i, l) in loads
            .iter()
            .enumerate()
            .filter(|(_, l)| l.magnitude > 1e-3 * largest)
        {
            let numeric = (above[i].magnitude - below[i].magnitude) / (2.0 * h);
            assert!(
                (l.stiffness - numeric).abs() < 1e-3 * numeric,
                "element {i}: {} vs {numeric} N/m",
                l.stiffness
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 4,
        "three wheels and the plateau's run: {checked}"
    );
}

/// The rubber's viscous force is τ·k·δ̇ whatever the load: a contact's damping coefficient
/// is τ times its stiffness (ζ = ω·τ/2), where Hunt–Crossley's β·F vanishes with the load.
#[test]
fn viscous_damping_follows_the_stiffness_not_the_load() {
    let o = track();
    let (tau, rate) = (0.002, 0.01);
    for delta in [1e-4, 2e-3] {
        let (_, loads) = total(&o, &ground(delta));
        let l = &loads[1];
        let hc =
            l.magnitude * (normal_damping_factor(l, 4.0, 0.0, rate, f64::INFINITY) - 1.0) / rate;
        let both =
            l.magnitude * (normal_damping_factor(l, 4.0, tau, rate, f64::INFINITY) - 1.0) / rate;
        assert!((hc - 4.0 * l.magnitude).abs() < 1e-9 * hc);
        assert!((both - hc - tau * l.stiffness).abs() < 1e-9 * both);
    }
    let l = &total(&o, &ground(2e-3)).1[1];
    assert_eq!(
        normal_damping_factor(l, 4.0, tau, -10.0, f64::INFINITY),
        0.0,
        "never pulls"
    );
    assert_eq!(
        normal_damping_factor(&ElementLoad::default(), 4.0, tau, 1.0, f64::INFINITY),
        1.0 + 4.0
    );
}

#[test]
fn sunk_into_flat_ground_wheels_carry_circular_segments_and_runs_nothing() {
    let o = track();
    let delta = 0.002;
    let (f, loads) = total(&o, &ground(delta));
    // Wheels: exact circular segments of the lowest three (sprocket bottom is at 0 too).
    let mut wheels = 0.0;
    for (i, r) in [(0, 0.06), (1, 0.04), (2, 0.04)] {
        let expect = STIFF.kappa * circular_segment_area(r, delta);
        assert!(
            (loads[i].magnitude - expect).abs() < 1e-9 * expect,
            "wheel {i}"
        );
        assert!((loads[i].force - Vector2::new(0.0, expect)).norm() < 1e-9 * expect);
        wheels += expect;
    }
    assert!(!loads[3].is_active(), "raised idler is off the ground");
    // The bottom runs lie on the line through their wheels' contacts: the ground there is no
    // deeper than the wheels' sinkage, so they carry nothing (rounding at most).
    for (i, l) in loads.iter().enumerate().skip(o.circles().len()) {
        assert!(l.magnitude <= 1e-9 * wheels, "run {i}: {} N", l.magnitude);
    }
    assert!(
        (f - Vector2::new(0.0, wheels)).norm() < 1e-6 * wheels,
        "{f:?}"
    );
}

/// A ridge between two sunk road wheels is carried by the run with its own height, not with
/// the wheels' sinkage as well: a triangle `H` high (depth linear on each flank, Simpson's
/// rule exact) makes a bump of mean depth ∫d²/∫d = 2H/3 at its peak, mid-run, which the end
/// wheels (R = 4 cm) press with κ·w(½)·S_R(2H/3), whatever the wheels' sinkage.
#[test]
fn a_run_carries_a_ridge_by_its_height_above_the_wheels_contact_line() {
    let o = track();
    let ridge = 0.003;
    let expect = STIFF.kappa
        * run_stiffness_factor(0.5, STIFF.run_mid)
        * circular_segment_area(0.04, 2.0 * ridge / 3.0);
    for delta in [0.0, 0.001, 0.002] {
        let (_, loads) = total(&o, &ground_with_ridge(delta, ridge));
        let run = &loads[5];
        assert!(
            (run.magnitude - expect).abs() < 1e-9 * expect,
            "sunk {delta}: run carries {} N, expected {expect}",
            run.magnitude
        );
        assert!(
            (run.point.x + 0.025).abs() < 1e-9,
            "at the peak: {}",
            run.point.x
        );
    }
}

#[test]
fn loads_never_pull_and_vanish_off_the_ground() {
    let o = track();
    let (f, loads) = total(&o, &ground(-0.001));
    assert_eq!(f, Vector2::zeros());
    assert!(loads.iter().all(|l| !l.is_active()));
}

/// Largest change of `f` between neighbouring samples of `[x0, x1]` split `n` times.
fn max_jump(f: impl Fn(f64) -> Vector2<f64>, x0: f64, x1: f64, n: usize) -> f64 {
    let mut prev = f(x0);
    let mut worst: f64 = 0.0;
    for i in 1..=n {
        let x = x0 + (x1 - x0) * i as f64 / n as f64;
        let v = f(x);
        worst = worst.max((v - prev).norm());
        prev = v;
    }
    worst
}

/// The total force as a step's nosing (12 mm into the belt) slides under the whole track,
/// from in front of the idler to behind the sprocket: wheel → run → wheel → … Continuity:
/// the largest change between neighbouring positions shrinks tenfold with the spacing (a
/// jump would not), and at 0.01 mm spacing it is below 1 % of the static load.
#[test]
fn force_is_continuous_as_a_nosing_moves_from_wheel_along_run_to_wheel() {
    let o = track();
    let h = 0.012;
    let static_load = total(&o, &ground(0.002)).0.y;
    let force = |x0: f64| total(&o, &step(x0, h)).0;
    let (coarse, fine) = (
        max_jump(force, -0.35, 0.25, 6_000),
        max_jump(force, -0.35, 0.25, 60_000),
    );
    assert!(
        fine < 0.2 * coarse,
        "jumps do not shrink: {coarse} → {fine} N"
    );
    assert!(
        fine < 0.01 * static_load,
        "jump {fine} N vs static {static_load} N"
    );
    // Somewhere only a run carries the nosing.
    let run_only = (0..600).any(|i| {
        let (_, loads) = total(&o, &step(-0.35 + 0.001 * i as f64, h));
        loads[4..].iter().any(|l| l.is_active()) && !loads[..4].iter().any(|l| l.is_active())
    });
    assert!(run_only);
}

/// A single wheel rolled over a convex nosing (tread → edge → down the riser side) and
/// into a concave corner (1 cm into the next riser) at 3 mm penetration. Continuity: the
/// largest change between neighbouring positions shrinks with the spacing (a jump would
/// not), and at 0.01 mm spacing it is below 1 % of the flat-ground load.
#[test]
fn wheel_force_is_continuous_over_a_nosing_and_into_a_corner() {
    let r = 0.04;
    let terrain = vec![
        seg((-1.0, 0.0), (0.0, 0.0)),
        seg((0.0, 0.0), (0.0, 0.18)),    // riser 1
        seg((0.0, 0.18), (0.28, 0.18)),  // tread
        seg((0.28, 0.18), (0.28, 0.36)), // riser 2 (concave corner at 0.28)
    ];
    let mats = [SurfaceMaterial::default()];
    let z = 0.18 + r - 0.003;
    let flat = STIFF.kappa * circular_segment_area(r, 0.003);
    let force_at = |x: f64| {
        let o = BeltOutline::new(vec![circle(x, z, r), circle(x - 1.0, z + 1.0, r)]).unwrap();
        let mut loads = vec![ElementLoad::default(); 4];
        evaluate_plane(&o, STIFF, &terrain, &mats, &mut loads, &[]);
        loads[0].force
    };
    let (coarse, fine) = (
        max_jump(force_at, -0.06, 0.25, 3_100),
        max_jump(force_at, -0.06, 0.25, 31_000),
    );
    assert!(
        fine < 0.2 * coarse,
        "jumps do not shrink: {coarse} → {fine} N"
    );
    assert!(fine < 0.01 * flat, "jump {fine} N vs flat load {flat} N");
    // In the corner both faces push: up and back.
    let f = force_at(0.28 - r + 0.002);
    assert!(f.x < 0.0 && f.y > 0.0);
    // Exactly over the edge the force is the flat one, straight up.
    let f = force_at(0.0);
    assert!(
        (f.y - flat).abs() < 1e-9 * flat && f.x.abs() < 1e-9 * flat,
        "{f:?}"
    );
}

/// Regression: a flat floor cut into two collinear segments pushed a wheel over their
/// joint 1.5 times (full from one face, half again from the other's end point).
#[test]
fn a_wheel_over_the_joint_of_collinear_segments_is_pushed_once() {
    let floor = vec![seg((-1.0, 0.0), (0.1, 0.0)), seg((0.1, 0.0), (1.0, 0.0))];
    let r = 0.04;
    for x in [0.09, 0.1, 0.11, 0.12, 0.15] {
        let o = BeltOutline::new(vec![circle(x, r - 0.002, r), circle(x - 1.0, 1.0, r)]).unwrap();
        let mut loads = vec![ElementLoad::default(); 4];
        evaluate_plane(
            &o,
            STIFF,
            &floor,
            &[SurfaceMaterial::default()],
            &mut loads,
            &[],
        );
        let expect = STIFF.kappa * circular_segment_area(r, 0.002);
        assert!(
            (loads[0].force.y - expect).abs() < 1e-9 * expect,
            "x={x}: {:?} vs {expect}",
            loads[0].force
        );
        let e = STIFF.kappa * circular_segment_area_integral(r, 0.002);
        assert!((loads[0].energy - e).abs() < 1e-9 * e);
    }
}

/// Grousers hook a nosing poking into a run (a convex terrain vertex inside the belt) or
/// a wheel resting on it, by the angle its faces fall away from the belt
/// (`track::grouser`), but not a flat surface or the joint of two collinear floor
/// segments; across the belt the surface's μ stays.
#[test]
fn grousers_hook_edges_only() {
    let o = track();
    let grip = PlaneStiffness {
        grousers: Grousers {
            height: 0.008,
            pitch: 0.04,
        },
        ..STIFF
    };
    let mats = [SurfaceMaterial::default()];
    let mu = mats[0].friction;
    let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
    // A nosing under the middle of the bottom run between road wheels 1 and 2: the run is
    // level, so the tread lies along the belt and the riser falls away square; the smaller
    // (0°) counts and the run holds by the surface's μ.
    evaluate_plane(&o, grip, &step(-0.025, 0.003), &mats, &mut loads, &[]);
    let run_index = |from: usize, to: usize| {
        o.circles().len()
            + o.runs()
                .iter()
                .position(|r| r.from == from && r.to == to)
                .unwrap()
    };
    let run = run_index(1, 2);
    assert!(loads[run].is_active());
    assert!((loads[run].grip - mu).abs() < 1e-12, "{}", loads[run].grip);
    // The same nosing under the inclined front run (idler 0.25/0.09 r 0.05, wheel
    // 0.05/0.04 r 0.04): both faces fall away, the tread by the run's slope γ.
    let front = run_index(2, 3);
    let r = &o.runs()[front - o.circles().len()];
    let gamma = ((r.end - r.start).y / (r.end - r.start).x).atan();
    let edge_x = 0.5 * (r.start.x + r.end.x);
    let h = 0.5 * (r.start.y + r.end.y) + 0.002;
    evaluate_plane(&o, grip, &step(edge_x, h), &mats, &mut loads, &[]);
    assert!(loads[front].is_active());
    let expect = (gamma + mu.atan()).tan();
    assert!(
        (loads[front].grip - expect).abs() < 1e-9,
        "{} vs tan({:.1}° + atan μ) = {expect}",
        loads[front].grip,
        gamma.to_degrees()
    );
    assert!((loads[front].friction - mu).abs() < 1e-12);
    // Flat ground, also when cut into collinear pieces: the surface's μ.
    evaluate_plane(&o, grip, &ground(0.002), &mats, &mut loads, &[]);
    assert!(loads
        .iter()
        .filter(|l| l.is_active())
        .all(|l| (l.grip - mu).abs() < 1e-12));
    let split = vec![
        seg((-10.0, 0.002), (-0.1, 0.002)),
        seg((-0.1, 0.002), (10.0, 0.002)),
    ];
    evaluate_plane(&o, grip, &split, &mats, &mut loads, &[]);
    assert!(loads
        .iter()
        .filter(|l| l.is_active())
        .all(|l| (l.grip - mu).abs() < 1e-12));
    // A wheel resting on a nosing from above at 30° (the belt along a flight's nosing
    // line): hooked by min(30°, 60°).
    let edge = step(-0.1, 0.04);
    let t = 30f64.to_radians();
    let rr = 0.04;
    let d = rr - 0.002;
    let wheel = BeltOutline::new(vec![
        circle(-0.1 - d * t.sin(), 0.04 + d * t.cos(), rr),
        circle(-1.0, 1.0, 0.04),
    ])
    .unwrap();
    let mut wl = vec![ElementLoad::default(); 4];
    evaluate_plane(&wheel, grip, &edge, &mats, &mut wl, &[]);
    let expect = (t + mu.atan()).tan();
    assert!((wl[0].grip - expect).abs() < 1e-9, "{}", wl[0].grip);
    // A rounded edge (ρ 0.1 m) hooks by its arc: asin(0.02/0.1).
    let rounded = [SurfaceMaterial {
        edge_radius: 0.1,
        ..SurfaceMaterial::default()
    }];
    evaluate_plane(&wheel, grip, &edge, &rounded, &mut wl, &[]);
    let expect = (0.2f64.asin() + mu.atan()).tan();
    assert!((wl[0].grip - expect).abs() < 1e-9, "{}", wl[0].grip);
    // A smooth belt does not hook.
    evaluate_plane(&wheel, STIFF, &edge, &mats, &mut wl, &[]);
    assert!((wl[0].grip - mu).abs() < 1e-12);
    assert!(is_convex_vertex(Point2::new(-0.1, 0.04), &edge));
    assert!(
        !is_convex_vertex(Point2::new(-0.1, 0.0), &edge),
        "the riser's foot is concave"
    );
}

#[test]
fn concave_corner_pushes_back_and_up() {
    // The track's front wheel against a wall: wheel 3 (idler) touches the riser.
    let o = track();
    let (f, loads) = total(&o, &step(0.295, 0.3));
    assert!(loads[3].is_active());
    assert!(loads[3].force.x < 0.0, "the wall pushes the idler back");
    assert!(f.x < 0.0);
}

#[test]
fn a_nosing_under_the_inclined_front_run_pushes_up_and_back_along_its_normal() {
    let o = track();
    // The front run goes from road wheel 2 (0.05, 0.04) r 0.04 to the idler (0.25, 0.09)
    // r 0.05; put a step nosing under its middle, poking 5 mm into it.
    let front = o
        .runs()
        .iter()
        .find(|r| r.from == 2 && r.to == 3)
        .copied()
        .unwrap();
    let mid = front.start + (front.end - front.start) * 0.5;
    let x0 = mid.x;
    let h = mid.y + 0.005;
    let (_, loads) = total(&o, &step(x0, h));
    let k = o.circles().len()
        + o.runs()
            .iter()
            .position(|r| r.from == 2 && r.to == 3)
            .unwrap();
    let l = loads[k];
    assert!(l.is_active());
    let dir = l.force / l.force.norm();
    assert!(
        (dir + front.outward).norm() < 1e-12,
        "along the run's inward normal: {dir:?}"
    );
    assert!(dir.y > 0.0 && dir.x < 0.0);
}

#[test]
fn run_stiffness_is_kappa_at_the_wheels_and_softest_mid_run() {
    assert_eq!(run_stiffness_factor(0.0, 0.3), 1.0);
    assert_eq!(run_stiffness_factor(1.0, 0.3), 1.0);
    assert!((run_stiffness_factor(0.5, 0.3) - 0.3).abs() < 1e-15);
    assert!(run_stiffness_factor(0.25, 0.3) > 0.3 && run_stiffness_factor(0.25, 0.3) < 1.0);
}

#[test]
fn a_soft_surface_acts_in_series_with_the_belt() {
    let o = track();
    let soft = SurfaceMaterial {
        stiffness: Some(1.0e6),
        ..SurfaceMaterial::default()
    };
    let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
    evaluate_plane(&o, STIFF, &ground(0.002), &[soft], &mut loads, &[]);
    let (_, rigid) = total(&o, &ground(0.002));
    assert!((loads[1].magnitude - 0.5 * rigid[1].magnitude).abs() < 1e-9);
}

/// A random rugged height field over 2 m × 2 m: 5 cm cells whose heights step by 1–3 cm
/// (edges, ridges and pits at the scale of a wheel), tilted by up to 0.4 rad.
fn rugged_terrain(rng: &mut crate::rng::SplitMix64) -> crate::terrain::Terrain {
    use nalgebra::{Point3, UnitQuaternion, Vector3};
    let n = 40;
    let tilt = UnitQuaternion::from_euler_angles(rng.range(-0.4, 0.4), rng.range(-0.4, 0.4), 0.0);
    let step = rng.range(0.01, 0.03);
    let heights: Vec<f64> = (0..(n + 1) * (n + 1))
        .map(|_| rng.below(4) as f64 * step)
        .collect();
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let p = Vector3::new(
                -1.0 + 0.05 * i as f64,
                -1.0 + 0.05 * j as f64,
                heights[j * (n + 1) + i],
            );
            vertices.push(Point3::from(tilt * p));
        }
    }
    let mut triangles = Vec::new();
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    let materials = vec![MaterialId(0); triangles.len()];
    crate::terrain::Terrain::new(
        vertices,
        triangles,
        materials,
        vec![SurfaceMaterial::default()],
    )
    .expect("height field")
}

/// A random pose of a belt over a [`rugged_terrain`] field: within ±0.5 m of its centre, from
/// 2 cm into the ground to 1 cm above it, rolled up to 0.3 rad, pitched up to 0.6 rad, any
/// heading.
fn random_pose_over(
    terrain: &crate::terrain::Terrain,
    rng: &mut crate::rng::SplitMix64,
) -> nalgebra::Isometry3<f64> {
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};
    let (x, y) = (rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
    let ground = terrain
        .ground_below(&nalgebra::Point3::new(x, y, 5.0), 10.0)
        .expect("over the field");
    Isometry3::from_parts(
        Translation3::new(x, y, ground + rng.range(-0.02, 0.01)),
        UnitQuaternion::from_euler_angles(
            rng.range(-0.3, 0.3),
            rng.range(-0.6, 0.6),
            rng.range(-3.2, 3.2),
        ),
    )
}

/// Culling is exact: with the faces wholly beyond the belt's runs (moved out by a margin) left
/// out of the cut, every plane that reports its loads complete has the loads of the complete
/// cut bit for bit, grousers and all. Random rugged terrain under a scout-like belt pressed
/// up to 2 cm into it at random poses; the test also checks that culling does leave faces out,
/// that contacts happen and that most planes are complete.
#[test]
fn a_culled_cut_gives_the_loads_of_the_complete_cut() {
    use crate::terrain::{CutPlane, CutRegion, SlabTriangles};
    let outline = scout_track();
    let grip = GRIP;
    let lines = outline.cull_lines(0.005).collect::<Vec<_>>();
    let mut rng = crate::rng::SplitMix64(2024);
    let elements = outline.circles().len() + outline.runs().len();
    let (mut full_loads, mut culled_loads) = (
        vec![ElementLoad::default(); elements],
        vec![ElementLoad::default(); elements],
    );
    let (mut slab, mut candidates, mut segments) = (SlabTriangles::default(), vec![], vec![]);
    let (mut planes, mut complete, mut touching, mut left_out) = (0, 0, 0, 0);
    for _ in 0..40 {
        let terrain = rugged_terrain(&mut rng);
        for _ in 0..25 {
            let pose = random_pose_over(&terrain, &mut rng);
            let (x0, x1, z0, z1) = outline.bounds();
            let region = CutRegion::new(x0 - 0.02, x1 + 0.02, z0 - 0.02, z1 + 0.02);
            let plane = CutPlane::from_pose(&pose, region);
            terrain.candidates(&plane, 0.05, &mut candidates);
            slab.project(&terrain, &plane, &candidates);
            slab.select(0.0, 0.05, region);
            slab.cut(&terrain, 0.0, &mut segments);
            let all = segments.len();
            evaluate_plane(
                &outline,
                grip,
                &segments,
                terrain.materials(),
                &mut full_loads,
                &[],
            );
            slab.cull(&lines);
            slab.cut(&terrain, 0.0, &mut segments);
            left_out += usize::from(segments.len() < all);
            let sure = evaluate_plane(
                &outline,
                grip,
                &segments,
                terrain.materials(),
                &mut culled_loads,
                &lines,
            );
            planes += 1;
            touching += usize::from(full_loads.iter().any(ElementLoad::is_active));
            if sure {
                complete += 1;
                assert_eq!(culled_loads, full_loads, "pose {pose:?}");
            }
        }
    }
    assert!(touching * 2 > planes, "{touching} of {planes} planes touch");
    assert!(
        left_out * 2 > planes,
        "culling left faces out of {left_out} of {planes}"
    );
    assert!(
        complete * 10 > planes * 9,
        "{complete} of {planes} complete"
    );
}

/// Evaluating into loads an evaluation of the same plane filled before resets only the loads
/// that one wrote, and gives the loads of a fresh evaluation bit for bit: a scout-like belt
/// (14 elements) and a belt of 40 small wheels with runs between them (80 elements, past what
/// the record of written loads holds) pressed into random rugged terrain one pose after another.
#[test]
fn reused_loads_give_the_loads_of_a_fresh_evaluation() {
    use crate::terrain::{CutPlane, CutRegion};
    let long = BeltOutline::new(
        [circle(-0.55, 0.05, 0.05), circle(0.55, 0.05, 0.05)]
            .into_iter()
            .chain((0..38).map(|i| circle(-0.4625 + 0.025 * i as f64, 0.01, 0.01)))
            .collect(),
    )
    .expect("long outline");
    let mut rng = crate::rng::SplitMix64(77);
    for outline in [scout_track(), long] {
        let elements = outline.circles().len() + outline.runs().len();
        let mut reused = vec![ElementLoad::default(); elements];
        let mut written = WrittenLoads::ALL;
        let (mut candidates, mut segments) = (vec![], vec![]);
        let (mut touching, mut left_behind) = (0, 0);
        for _ in 0..10 {
            let terrain = rugged_terrain(&mut rng);
            for _ in 0..30 {
                let pose = random_pose_over(&terrain, &mut rng);
                let (x0, x1, z0, z1) = outline.bounds();
                let plane = CutPlane::from_pose(
                    &pose,
                    CutRegion::new(x0 - 0.02, x1 + 0.02, z0 - 0.02, z1 + 0.02),
                );
                terrain.candidates(&plane, 0.05, &mut candidates);
                terrain.cut_candidates(&plane, &candidates, &mut segments);
                let mut fresh = vec![ElementLoad::default(); elements];
                evaluate_plane(
                    &outline,
                    GRIP,
                    &segments,
                    terrain.materials(),
                    &mut fresh,
                    &[],
                );
                let before = reused.iter().filter(|l| l.is_active()).count();
                evaluate_plane_reusing(
                    &outline,
                    GRIP,
                    &segments,
                    terrain.materials(),
                    &mut reused,
                    &[],
                    &mut written,
                );
                // Bit for bit, signed zeros included.
                assert_eq!(format!("{reused:?}"), format!("{fresh:?}"), "pose {pose:?}");
                let now = fresh.iter().filter(|l| l.is_active()).count();
                touching += usize::from(now > 0);
                left_behind += usize::from(before > 0 && now < before);
            }
        }
        assert!(
            touching > 150 && left_behind > 30,
            "{touching} touching, {left_behind} let go"
        );
    }
}

/// The scout's main belt outline (scenes/robots/scout.toml).
fn scout_track() -> BeltOutline {
    BeltOutline::new(vec![
        circle(-0.30, 0.085, 0.055),
        circle(0.30, 0.085, 0.055),
        circle(-0.21, 0.035, 0.035),
        circle(-0.105, 0.035, 0.035),
        circle(0.0, 0.035, 0.035),
        circle(0.105, 0.035, 0.035),
        circle(0.21, 0.035, 0.035),
    ])
    .unwrap()
}

/// Grousers of the scout's belt.
const GRIP: PlaneStiffness = PlaneStiffness {
    grousers: Grousers {
        height: 0.008,
        pitch: 0.04,
    },
    ..STIFF
};

/// A face sloping down at 60° under the middle road wheel, pressed `delta` m into it, ending
/// 0.95 of the wheel's half contact patch past the contact in a convex corner with a face
/// falling straight down. The grouser rule looks up that end point's faces: shallow, the end
/// point lies inside the belt, and the culled cut (a floor below the belt left out) is complete
/// with the same loads; 3 cm deep, it lies 5.2 mm below the bottom run, beyond the 5 mm
/// margin, the face falling from it is culled, and the plane reports that its loads need the
/// complete cut.
#[test]
fn a_contact_looking_beyond_the_culling_lines_asks_for_the_complete_cut() {
    let outline = scout_track();
    let lines = outline.cull_lines(0.005).collect::<Vec<_>>();
    let elements = outline.circles().len() + outline.runs().len();
    for (delta, complete) in [(0.005, true), (0.03, false)] {
        let phi = 60f64.to_radians();
        let dir = Vector2::new(phi.cos(), -phi.sin());
        let normal = Vector2::new(phi.sin(), phi.cos());
        let foot = Point2::new(0.0, 0.035) - normal * (0.035 - delta);
        let end = foot + dir * (0.95 * (2.0 * 0.035 * delta).sqrt());
        let start = foot - dir * 0.05;
        let below = end - Vector2::new(0.0, 0.03);
        // Also a floor 4 cm under the belt, wholly beyond its bottom run: culled either way.
        let full = vec![
            seg((start.x, start.y), (end.x, end.y)),
            seg((end.x, end.y), (below.x, below.y)),
            seg((0.05, -0.04), (0.3, -0.04)),
        ];
        let kept: Vec<CutSegment> = full
            .iter()
            .copied()
            .filter(|s| !lines.iter().any(|l| l.beyond(&s.a) && l.beyond(&s.b)))
            .collect();
        // Shallow, the face falling from the end point starts inside the belt and is kept.
        assert_eq!(kept.len(), if complete { 2 } else { 1 }, "depth {delta}");
        let mats = [SurfaceMaterial::default()];
        let (mut all, mut culled) = (
            vec![ElementLoad::default(); elements],
            vec![ElementLoad::default(); elements],
        );
        assert!(evaluate_plane(&outline, GRIP, &full, &mats, &mut all, &[]));
        let sure = evaluate_plane(&outline, GRIP, &kept, &mats, &mut culled, &lines);
        assert!(all[4].is_active(), "the middle wheel is pressed");
        assert_eq!(sure, complete, "depth {delta}");
        if sure {
            assert_eq!(culled, all);
        }
    }
}
