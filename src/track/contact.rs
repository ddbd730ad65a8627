//! Normal contact of one track plane with the terrain cut (seed 004 §3.4).
//!
//! Support elements are the belt's circles (wheels, sprocket, idler, rollers) and its runs.
//! A wheel's load from a terrain segment is `κ·S` with `S` its disk's area inside the solid
//! under the segment, pushing along the segment's normal. A run carries the terrain that
//! crosses the belt line between two wheels: its region is the quad from the run's tangent
//! points to the two wheel centres, minus both wheel disks (those parts are the wheels'
//! own), so a nosing's area moves continuously from wheel to run to wheel. The run's stiffness
//! is κ at either wheel and falls to `run_stiffness_mid·κ` half-way (the belt is softest
//! mid-run), so the force is continuous across the hand-over too.
//!
//! Directions: a wheel is pushed along each terrain segment's normal (seed 004); a run is
//! pushed along its own inward normal, because there the belt is the smooth surface and the
//! terrain (a nosing, a corner) pokes into it — this is what lets an inclined front run ride
//! up onto a step edge. On flat ground under a bottom run both directions coincide.

use nalgebra::{Point2, Vector2};

use super::area::{disk_strip_area, ConvexPolygon};
use super::outline::{BeltOutline, Run};
use crate::terrain::{CutSegment, SurfaceMaterial};

/// The elastic load one support element takes from the terrain, plane frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementLoad {
    /// Sum of the segments' forces `κ·S·n`, N (vector, plane `(x, z)`).
    pub force: Vector2<f64>,
    /// Sum of the force magnitudes `Σ κ·S`, N (≥ |force|; friction capacity uses it).
    pub magnitude: f64,
    /// Load-weighted point of application on the terrain, plane `(x, z)`, m.
    pub point: Point2<f64>,
    /// Load-weighted friction coefficient of the surfaces touched.
    pub friction: f64,
    /// Largest penetration depth of any contributing segment, m.
    pub depth: f64,
}

impl Default for ElementLoad {
    fn default() -> Self {
        Self {
            force: Vector2::zeros(),
            magnitude: 0.0,
            point: Point2::origin(),
            friction: 0.0,
            depth: 0.0,
        }
    }
}

impl ElementLoad {
    /// Whether the element touches the terrain.
    pub fn is_active(&self) -> bool {
        self.magnitude > 0.0
    }

    fn add(&mut self, f: f64, n: Vector2<f64>, p: Point2<f64>, mu: f64, depth: f64) {
        self.force += n * f;
        self.point.coords += p.coords * f;
        self.friction += mu * f;
        self.magnitude += f;
        self.depth = self.depth.max(depth);
    }

    fn finish(&mut self) {
        if self.magnitude > 0.0 {
            self.point.coords /= self.magnitude;
            self.friction /= self.magnitude;
        }
    }
}

/// Stiffness parameters of one track plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneStiffness {
    /// κ of this plane (the belt's κ divided among its planes), N/m².
    pub kappa: f64,
    /// Run stiffness at mid-run as a fraction of κ, in (0, 1].
    pub run_mid: f64,
}

/// Combined stiffness of the belt plane in series with a surface, N/m².
fn series(kappa: f64, surface: Option<f64>) -> f64 {
    match surface {
        Some(k) => kappa * k / (kappa + k),
        None => kappa,
    }
}

/// Run stiffness factor at fraction `s` ∈ [0, 1] along the run: 1 at either wheel,
/// `mid` half-way, smooth in between.
pub fn run_stiffness_factor(s: f64, mid: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    1.0 - (1.0 - mid) * 4.0 * s * (1.0 - s)
}

/// Evaluates one plane: `loads` gets one entry per circle of `outline` followed by one per
/// run (so it must have `circles + runs` entries); segments are the terrain cut in the same
/// plane frame; `materials` is the terrain's material table.
pub fn evaluate_plane(
    outline: &BeltOutline,
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
) {
    let circles = outline.circles();
    let runs = outline.runs();
    debug_assert_eq!(loads.len(), circles.len() + runs.len());
    for l in loads.iter_mut() {
        *l = ElementLoad::default();
    }
    for seg in segments {
        let mat = &materials[seg.material.0 as usize];
        let kappa = series(stiffness.kappa, mat.stiffness);
        let len = (seg.b - seg.a).norm();
        if len <= 0.0 {
            continue;
        }
        let dir = (seg.b - seg.a) / len;
        for (i, c) in circles.iter().enumerate() {
            if let Some(s) = disk_strip_area(c.center, c.radius, seg.a, seg.b) {
                let p = seg.a + dir * s.along;
                loads[i].add(kappa * s.area, seg.normal, p, mat.friction, s.depth);
            }
        }
        for (j, run) in runs.iter().enumerate() {
            if let Some((weighted, centroid, depth)) =
                run_area(outline, run, seg, dir, stiffness.run_mid)
            {
                // The belt is the smooth body here and the terrain pokes into it (a nosing is
                // a corner), so the bump pushes along the run's normal, at the belt line.
                let axis = (run.end - run.start) / run.length;
                let p = run.start + axis * (centroid - run.start).dot(&axis);
                loads[circles.len() + j].add(
                    kappa * weighted,
                    -run.outward,
                    p,
                    mat.friction,
                    depth,
                );
            }
        }
    }
    for l in loads.iter_mut() {
        l.finish();
    }
}

/// Terrain (under `seg`) inside the run's region outside both end wheels: its area weighted
/// by the run stiffness factor `w(s)` (∫w dA, m²), its centroid and its depth past the run
/// line. `w` is quadratic in `s`, so ∫w dA over the clipped polygon is exact from its moments;
/// the wheel disks' parts, which lie at the run's ends where `w ≈ 1`, are removed with w = 1,
/// which is what makes the hand-over to a wheel (stiffness κ) continuous.
fn run_area(
    outline: &BeltOutline,
    run: &Run,
    seg: &CutSegment,
    dir: Vector2<f64>,
    run_mid: f64,
) -> Option<(f64, Point2<f64>, f64)> {
    if run.length <= 1e-9 {
        return None;
    }
    let (ca, cb) = (outline.circles()[run.from], outline.circles()[run.to]);
    // Quick reject: both segment ends outside the run line.
    let (da, db) = (
        (seg.a - run.start).dot(&run.outward),
        (seg.b - run.start).dot(&run.outward),
    );
    if da >= 0.0 && db >= 0.0 {
        return None;
    }
    let quad = ConvexPolygon::new(&[run.start, run.end, cb.center, ca.center]);
    let p = quad
        .clip(seg.a, seg.normal)
        .clip(seg.a, -dir)
        .clip(seg.b, dir);
    let axis = (run.end - run.start) / run.length;
    let (area, m1, m2) = p.moments_along(run.start, axis);
    if area <= 0.0 {
        return None;
    }
    let (l, c) = (run.length, 4.0 * (1.0 - run_mid));
    let weighted = area - c * m1 / l + c * m2 / (l * l)
        - p.disk_intersection_area(ca.center, ca.radius)
        - p.disk_intersection_area(cb.center, cb.radius);
    // Relative threshold: what is left after subtracting the disks is round-off.
    if weighted <= 1e-12 * l * l {
        return None;
    }
    let (_, centroid) = p.area_centroid();
    let depth = p
        .vertices()
        .iter()
        .map(|v| -(v - run.start).dot(&run.outward))
        .fold(0.0, f64::max);
    Some((weighted, centroid, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::MaterialId;
    use crate::track::area::circular_segment_area;
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
        CutSegment {
            a,
            b,
            normal: Vector2::new(-d.y, d.x),
            material: MaterialId(0),
            triangle: 0,
        }
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
    };

    fn total(o: &BeltOutline, segs: &[CutSegment]) -> (Vector2<f64>, Vec<ElementLoad>) {
        let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
        evaluate_plane(o, STIFF, segs, &[SurfaceMaterial::default()], &mut loads);
        (loads.iter().map(|l| l.force).sum(), loads)
    }

    #[test]
    fn sunk_into_flat_ground_wheels_carry_circular_segments_and_runs_the_strip_between() {
        let o = track();
        let delta = 0.002;
        let (f, loads) = total(&o, &ground(delta));
        // Wheels: exact circular segments of the lowest three (sprocket bottom is at 0 too).
        for (i, r) in [(0, 0.06), (1, 0.04), (2, 0.04)] {
            let expect = STIFF.kappa * circular_segment_area(r, delta);
            assert!(
                (loads[i].magnitude - expect).abs() < 1e-9 * expect,
                "wheel {i}"
            );
            assert!((loads[i].force - Vector2::new(0.0, expect)).norm() < 1e-9 * expect);
        }
        assert!(!loads[3].is_active(), "raised idler is off the ground");
        // Bottom runs: between wheels 0–1 and 1–2. The region is the slab of depth δ between
        // the tangent points (mean stiffness factor 1 − (1 − 0.3)·2/3) minus each wheel's
        // half circular segment. The slivers are removed at w = 1 although they reach ~10 % into
        // the run where w ≈ 0.75: that approximation is worth ≤ 5 % here.
        let avg_w = 1.0 - (1.0 - 0.3) * 2.0 / 3.0;
        for (k, (ra, rb)) in [(0.06, 0.04), (0.04, 0.04)].into_iter().enumerate() {
            let l = loads[4 + k];
            assert!(l.is_active());
            let slivers =
                0.5 * (circular_segment_area(ra, delta) + circular_segment_area(rb, delta));
            let expect = STIFF.kappa * (avg_w * delta * 0.15 - slivers);
            let got = l.magnitude;
            assert!(
                (got - expect).abs() < 0.05 * expect,
                "run {k}: {got} vs {expect}"
            );
        }
        // The front run's tangent point on the last road wheel sits a hair above its bottom, so
        // the ground also grazes that run, which pushes along the run's tilted normal.
        assert!(f.x.abs() < 1e-3 * f.y && f.y > 0.0, "{f:?}");
    }

    #[test]
    fn loads_never_pull_and_vanish_off_the_ground() {
        let o = track();
        let (f, loads) = total(&o, &ground(-0.001));
        assert_eq!(f, Vector2::zeros());
        assert!(loads.iter().all(|l| !l.is_active()));
    }

    /// The total force as a step's nosing slides under the track: no jump between two
    /// positions 0.1 mm apart may exceed 2 % of the static load at this sinkage.
    #[test]
    fn force_is_continuous_as_a_nosing_moves_from_wheel_along_run_to_wheel() {
        let o = track();
        let h = 0.012; // the upper floor reaches 12 mm into the belt
        let static_load = total(&o, &ground(0.002)).0.y;
        let mut prev: Option<Vector2<f64>> = None;
        let mut max_jump: f64 = 0.0;
        let mut saw_run_only = false;
        let steps = 6000;
        for i in 0..=steps {
            let x0 = -0.35 + 0.6 * i as f64 / steps as f64; // 0.1 mm apart
            let (f, loads) = total(&o, &step(x0, h));
            let runs_active = loads[4..].iter().any(|l| l.is_active());
            let wheels_active = loads[..4].iter().any(|l| l.is_active());
            saw_run_only |= runs_active && !wheels_active;
            if let Some(p) = prev {
                max_jump = max_jump.max((f - p).norm());
            }
            prev = Some(f);
        }
        assert!(saw_run_only, "somewhere only a run carries the nosing");
        assert!(
            max_jump < 0.02 * static_load,
            "jump {max_jump} N vs static {static_load} N"
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
        evaluate_plane(&o, STIFF, &ground(0.002), &[soft], &mut loads);
        let (_, rigid) = total(&o, &ground(0.002));
        assert!((loads[1].magnitude - 0.5 * rigid[1].magnitude).abs() < 1e-9);
    }
}
