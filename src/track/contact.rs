//! Normal contact of one track plane with the terrain cut (seed 004 §3.4).
//!
//! Support elements are the belt's circles (wheels, sprocket, idler, rollers) and its runs.
//! A wheel's load from a terrain segment is seed 004's `F = κ·S(δ)`, `S` the circular
//! segment of penetration δ, found from the segment's feature closest to the wheel centre:
//! where the centre projects inside the segment, δ = R − (height of the centre above the
//! segment's line) and the force is along the segment's normal, as in the paper; where it
//! projects beyond an end and is in front of the segment, the end point is the contact,
//! δ = R − distance, the force is radial and counts half, so the two faces meeting at a
//! convex corner (a nosing) make exactly one radial force and hand over to the tread
//! continuously. Summing over segments lets a wheel in a concave corner be pushed by both
//! faces. A run carries the terrain that
//! crosses the belt line between two wheels (seed 004's *factitious irregularity*): the
//! penetrating region is the quad from the run's tangent points to the two wheel centres,
//! minus both wheel disks (those parts are the wheels' own); its mean depth
//! δ̄ = area / extent-along-the-run makes a virtual bump at the region's centroid `s`, which
//! the run's end wheels press with the wheel law `F = κ·w(s)·S_R(δ̄)` (`S_R` the circular
//! segment of the wheels' radius). The stiffness factor `w` is 1 at either wheel and
//! `run_stiffness_mid` half-way (the belt is softest mid-run). As a nosing reaches a wheel the
//! region outside the disk thins to nothing, so the run's force fades as the wheel's grows.
//!
//! Directions: a wheel is pushed along each terrain segment's normal (seed 004); a run is
//! pushed along its own inward normal, because there the belt is the smooth surface and the
//! terrain (a nosing, a corner) pokes into it — this is what lets an inclined front run ride
//! up onto a step edge. On flat ground under a bottom run both directions coincide.

use nalgebra::{Point2, Vector2};

use super::area::{circular_segment_area, ConvexPolygon};
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

/// A wheel's contact with one terrain segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WheelContact {
    /// Effective penetration area `S(δ)` (already weighted), m².
    pub area: f64,
    /// Direction of the push on the wheel (unit, plane frame).
    pub normal: Vector2<f64>,
    /// Contact point on the terrain, plane frame, m.
    pub point: Point2<f64>,
    /// Penetration δ, m.
    pub depth: f64,
}

/// The closest-feature contact of a wheel (centre `c`, radius `r`) with segment `seg`
/// (unit direction `dir`, length `len`); see the module docs.
pub fn wheel_contact(
    c: Point2<f64>,
    r: f64,
    seg: &CutSegment,
    dir: Vector2<f64>,
    len: f64,
) -> Option<WheelContact> {
    let ac = c - seg.a;
    let v = ac.dot(&seg.normal);
    if v >= r {
        return None;
    }
    let u = ac.dot(&dir);
    if (0.0..=len).contains(&u) {
        let depth = r - v;
        let w = facing_weight(v, r);
        (w > 0.0).then(|| WheelContact {
            area: w * circular_segment_area(r, depth),
            normal: seg.normal,
            point: seg.a + dir * u,
            depth,
        })
    } else {
        if v <= 0.0 {
            return None; // beyond the end and not in front: the next face's business
        }
        let e = if u < 0.0 { seg.a } else { seg.b };
        let d = c - e;
        let dist = d.norm();
        if dist >= r || dist <= 0.0 {
            return None;
        }
        Some(WheelContact {
            area: 0.5 * circular_segment_area(r, r - dist),
            normal: d / dist,
            point: e,
            depth: r - dist,
        })
    }
}

/// How much a terrain face counts for a wheel whose centre is `v` m in front of the face's
/// line (negative: behind it, inside the solid): fully while the centre is in front, fading
/// to nothing once it is half a radius behind. A face the wheel is behind is the far side of
/// a thin solid (a nosing lip's underside seen from above it) and must not pull the wheel
/// through; the fade keeps the force continuous.
pub fn facing_weight(v: f64, radius: f64) -> f64 {
    ((v + 0.5 * radius) / (0.5 * radius)).clamp(0.0, 1.0)
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
    debug_assert!(runs.len() <= MAX_RUNS);
    for l in loads.iter_mut() {
        *l = ElementLoad::default();
    }
    let mut bumps = [Bump::default(); MAX_RUNS];
    for seg in segments {
        let mat = &materials[seg.material.0 as usize];
        let kappa = series(stiffness.kappa, mat.stiffness);
        let len = (seg.b - seg.a).norm();
        if len <= 0.0 {
            continue;
        }
        let dir = (seg.b - seg.a) / len;
        for (i, c) in circles.iter().enumerate() {
            if let Some(w) = wheel_contact(c.center, c.radius, seg, dir, len) {
                loads[i].add(kappa * w.area, w.normal, w.point, mat.friction, w.depth);
            }
        }
        for (j, run) in runs.iter().enumerate() {
            if seg.normal.dot(&run.outward) >= 0.0 {
                continue; // the face looks away from this run
            }
            if let Some(piece) = run_piece(outline, run, seg, dir) {
                let acc = &mut bumps[j.min(MAX_RUNS - 1)];
                acc.area += piece.area;
                acc.moment += piece.area * piece.along;
                acc.kappa += kappa * piece.area;
                acc.friction += mat.friction * piece.area;
                acc.depth_moment += piece.area * piece.mean_depth;
                acc.depth = acc.depth.max(piece.depth);
            }
        }
    }
    // Each run's bump, pressed by its end wheels through the belt.
    for (j, run) in runs.iter().enumerate().take(MAX_RUNS) {
        let b = bumps[j];
        if b.area <= 0.0 {
            continue;
        }
        // Area-weighted so that a piece entering the run with no area changes nothing.
        let mean_depth = b.depth_moment / b.area;
        let along = b.moment / b.area;
        let s = along / run.length;
        let (ra, rb) = (circles[run.from].radius, circles[run.to].radius);
        let radius = ra + (rb - ra) * s.clamp(0.0, 1.0);
        let kappa = b.kappa / b.area;
        let f = kappa
            * run_stiffness_factor(s, stiffness.run_mid)
            * circular_segment_area(radius, mean_depth);
        if f > 0.0 {
            let axis = (run.end - run.start) / run.length;
            let p = run.start + axis * along;
            loads[circles.len() + j].add(f, -run.outward, p, b.friction / b.area, b.depth);
        }
    }
    for l in loads.iter_mut() {
        l.finish();
    }
}

/// Most runs a belt loop may have (a loop of 32 circles has at most 32).
pub const MAX_RUNS: usize = 33;

/// What the terrain segments put into one run, summed: the factitious irregularity.
#[derive(Debug, Clone, Copy, Default)]
struct Bump {
    area: f64,
    moment: f64,
    kappa: f64,
    friction: f64,
    depth_moment: f64,
    depth: f64,
}

/// The part of one segment's solid inside a run's region, outside both end wheels.
#[derive(Debug, Clone, Copy)]
struct RunPiece {
    /// Area, m².
    area: f64,
    /// Centroid's distance along the run from its start, m.
    along: f64,
    /// Mean depth: area over extent along the run, m.
    mean_depth: f64,
    /// Deepest point past the run line, m.
    depth: f64,
}

fn run_piece(
    outline: &BeltOutline,
    run: &Run,
    seg: &CutSegment,
    dir: Vector2<f64>,
) -> Option<RunPiece> {
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
    let (whole, centroid) = p.area_centroid();
    if whole <= 0.0 {
        return None;
    }
    let area = whole
        - p.disk_intersection_area(ca.center, ca.radius)
        - p.disk_intersection_area(cb.center, cb.radius);
    // Relative threshold: what is left after subtracting the disks is round-off.
    if area <= 1e-12 * run.length * run.length {
        return None;
    }
    let axis = (run.end - run.start) / run.length;
    let (mut lo, mut hi, mut depth) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for v in p.vertices() {
        let d = v - run.start;
        lo = lo.min(d.dot(&axis));
        hi = hi.max(d.dot(&axis));
        depth = depth.max(-d.dot(&run.outward));
    }
    if hi <= lo {
        return None;
    }
    Some(RunPiece {
        area,
        along: (centroid - run.start).dot(&axis),
        mean_depth: area / (hi - lo),
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::MaterialId;
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
        // Bottom run between the two 4 cm road wheels (1–2, symmetric, 0.15 m long): the ground
        // fills the run's region to depth δ less each wheel's half circular segment, so the
        // bump's mean depth is (δ·0.15 − S(δ)) / 0.15 at mid-run (w = 0.3), pressed with R = 4 cm.
        let mean = (delta * 0.15 - circular_segment_area(0.04, delta)) / 0.15;
        let expect = STIFF.kappa * 0.3 * circular_segment_area(0.04, mean);
        let got = loads[5].magnitude;
        assert!(
            (got - expect).abs() < 1e-6 * expect,
            "run 1–2: {got} vs {expect}"
        );
        assert!(loads[4].is_active(), "run 0–1 carries too");
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
                if (f - p).norm() > 0.02 * static_load {
                    eprintln!("jump at x0={x0:.5}: {:?} -> {:?}", p, f);
                    for (k, l) in loads.iter().enumerate() {
                        if l.is_active() {
                            eprintln!("   el {k}: {:?} depth {:.5}", l.force, l.depth);
                        }
                    }
                }
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

    /// Regression: a flipper tip pushed into the front of a 2 cm nosing lip was pulled down
    /// by the lip's underside (whose solid is above it), and the robot nose-dived.
    #[test]
    fn the_far_side_of_a_thin_lip_does_not_pull_a_wheel_through() {
        let lip = vec![
            seg((-10.0, 0.0), (0.0, 0.0)),
            seg((0.0, 0.0), (0.0, 0.15)),
            seg((0.0, 0.15), (-0.02, 0.15)), // underside, normal −z
            seg((-0.02, 0.15), (-0.02, 0.18)),
            seg((-0.02, 0.18), (10.0, 0.18)),
        ];
        // A wheel of radius 3 cm centred 1 cm above the lip's front top corner, 1 cm into it.
        let o =
            BeltOutline::new(vec![circle(-0.01, 0.19, 0.03), circle(-0.5, 0.19, 0.03)]).unwrap();
        let mut loads = vec![ElementLoad::default(); o.circles().len() + o.runs().len()];
        evaluate_plane(&o, STIFF, &lip, &[SurfaceMaterial::default()], &mut loads);
        // The centre is over the tread (1 cm behind the lip's front face): straight up.
        assert!(
            loads[0].force.y > 0.0,
            "the lip lifts the wheel: {:?}",
            loads[0].force
        );
        assert!(loads[0].force.x.abs() < 1e-9 * loads[0].force.y);
        // In front of the lip, just under its bottom edge: pushed back from the corner, not
        // pulled down by the underside's whole strip.
        let o =
            BeltOutline::new(vec![circle(-0.045, 0.148, 0.03), circle(-0.5, 0.148, 0.03)]).unwrap();
        evaluate_plane(&o, STIFF, &lip, &[SurfaceMaterial::default()], &mut loads);
        let f = loads[0].force;
        assert!(f.x < 0.0 && f.y.abs() < 0.1 * f.x.abs(), "{f:?}");
        assert!((facing_weight(0.01, 0.03) - 1.0).abs() < 1e-15);
        assert_eq!(facing_weight(-0.015, 0.03), 0.0);
        assert!((facing_weight(-0.0075, 0.03) - 0.5).abs() < 1e-12);
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
            evaluate_plane(&o, STIFF, &terrain, &mats, &mut loads);
            loads[0].force
        };
        let max_jump = |n: usize| {
            let (x0, x1) = (-0.06, 0.25);
            let mut prev = force_at(x0);
            let mut worst: f64 = 0.0;
            for i in 1..=n {
                let f = force_at(x0 + (x1 - x0) * i as f64 / n as f64);
                worst = worst.max((f - prev).norm());
                prev = f;
            }
            worst
        };
        let (coarse, fine) = (max_jump(3_100), max_jump(31_000));
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
