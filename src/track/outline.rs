//! The belt's path in the track plane: the convex hull of the track's circles, made of arcs
//! on the circles and straight *runs* between them (seed 004 Fig. 5).

use nalgebra::{Point2, Vector2};

use crate::terrain::CullLine;

/// A circle in the track plane: centre `(x, z)` and radius, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    /// Centre `(x, z)`, m, plane (body) frame.
    pub center: Point2<f64>,
    /// Radius, m.
    pub radius: f64,
}

/// A straight piece of belt between two consecutive circles of the hull, counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Index of the circle the run leaves.
    pub from: usize,
    /// Index of the circle the run reaches.
    pub to: usize,
    /// Tangent point on `from`, m.
    pub start: Point2<f64>,
    /// Tangent point on `to`, m.
    pub end: Point2<f64>,
    /// Unit normal pointing out of the belt loop.
    pub outward: Vector2<f64>,
    /// Length `|end − start|`, m.
    pub length: f64,
}

/// The region a run carries terrain in (seed 004's factitious irregularity): the quad from
/// its tangent points to its end wheels' centres, with what the contact law needs of it
/// computed once per pose of the outline instead of once per terrain segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunRegion {
    /// Corners, counter-clockwise: the run's start and end, the centre of the circle it
    /// reaches, the centre of the circle it leaves, m.
    pub corners: [Point2<f64>; 4],
    /// Per edge `corners[i] → corners[i + 1]`: its right-hand normal (outside the quad), as
    /// long as the edge, m.
    pub edge_outward: [Vector2<f64>; 4],
    /// Lower corner of the quad's bounding box, m.
    pub min: Point2<f64>,
    /// Upper corner of the quad's bounding box, m.
    pub max: Point2<f64>,
    /// Unit direction from the run's start to its end (NaN for a run of zero length, which
    /// carries nothing).
    pub axis: Vector2<f64>,
    /// Radius of the circle the run leaves, m.
    pub from_radius: f64,
    /// Radius of the circle the run reaches, m.
    pub to_radius: f64,
}

impl RunRegion {
    /// The region of `run` between its circles `from` and `to`.
    fn new(run: &Run, from: &Circle, to: &Circle) -> Self {
        let corners = [run.start, run.end, to.center, from.center];
        let edge_outward = std::array::from_fn(|i| {
            let e = corners[(i + 1) % 4] - corners[i];
            Vector2::new(e.y, -e.x)
        });
        let (mut min, mut max) = (corners[0], corners[0]);
        for p in &corners[1..] {
            min = min.inf(p);
            max = max.sup(p);
        }
        Self {
            corners,
            edge_outward,
            min,
            max,
            axis: (run.end - run.start) / run.length,
            from_radius: from.radius,
            to_radius: to.radius,
        }
    }
}

/// Why a set of circles is not a belt.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OutlineError {
    /// Fewer than two circles.
    #[error("a belt needs at least two circles, got {0}")]
    TooFewCircles(usize),
    /// A radius or position is not finite or a radius is not positive.
    #[error("circle {0} has a non-finite position or a non-positive radius")]
    BadCircle(usize),
    /// The hull could not be closed (circles inside each other only).
    #[error("the circles do not form a belt loop (one circle contains all others?)")]
    NoLoop,
}

/// Slack for "inside the hull" tests, m.
const HULL_EPS: f64 = 1e-9;

/// The belt loop: its circles and its runs, counter-clockwise in `(x, z)`.
#[derive(Debug, Clone, PartialEq)]
pub struct BeltOutline {
    circles: Vec<Circle>,
    runs: Vec<Run>,
    /// One per run, derived from the circles and runs (kept in step by every pose change).
    regions: Vec<RunRegion>,
    /// `(x_min, x_max, z_min, z_max)` of the circles, m (kept in step likewise).
    bounds: (f64, f64, f64, f64),
    on_hull: Vec<bool>,
}

impl BeltOutline {
    /// Builds the loop around `circles` (any order). Circles strictly inside the hull are
    /// kept (they still touch terrain that reaches them) but no run ends on them.
    pub fn new(circles: Vec<Circle>) -> Result<Self, OutlineError> {
        if circles.len() < 2 {
            return Err(OutlineError::TooFewCircles(circles.len()));
        }
        for (i, c) in circles.iter().enumerate() {
            if !(c.center.x.is_finite() && c.center.y.is_finite() && c.radius.is_finite())
                || c.radius <= 0.0
            {
                return Err(OutlineError::BadCircle(i));
            }
        }
        // Start from the circle reaching lowest (ties: rearmost), then gift-wrap
        // counter-clockwise: from circle i take the tangent with every other circle inside,
        // the nearest one on ties (collinear wheels give one run per gap).
        let start = (0..circles.len())
            .min_by(|&a, &b| {
                let (ca, cb) = (circles[a], circles[b]);
                (ca.center.y - ca.radius)
                    .total_cmp(&(cb.center.y - cb.radius))
                    .then(ca.center.x.total_cmp(&cb.center.x))
            })
            .ok_or(OutlineError::NoLoop)?;
        let mut runs = Vec::new();
        let mut on_hull = vec![false; circles.len()];
        let mut i = start;
        for _ in 0..=circles.len() {
            on_hull[i] = true;
            let mut best: Option<(usize, Run)> = None;
            for j in 0..circles.len() {
                if j == i {
                    continue;
                }
                let Some(run) = tangent_run(&circles, i, j) else {
                    continue;
                };
                let all_inside = circles.iter().enumerate().all(|(k, c)| {
                    k == i
                        || k == j
                        || (c.center - run.start).dot(&run.outward) + c.radius <= HULL_EPS
                });
                if !all_inside {
                    continue;
                }
                let better = match &best {
                    None => true,
                    Some((_, b)) => run.length < b.length,
                };
                if better {
                    best = Some((j, run));
                }
            }
            let (j, run) = best.ok_or(OutlineError::NoLoop)?;
            runs.push(run);
            if j == start {
                let mut outline = Self {
                    regions: Vec::with_capacity(runs.len()),
                    bounds: (0.0, 0.0, 0.0, 0.0),
                    circles,
                    runs,
                    on_hull,
                };
                outline.derive();
                return Ok(outline);
            }
            i = j;
        }
        Err(OutlineError::NoLoop)
    }

    /// All circles, in the order given.
    pub fn circles(&self) -> &[Circle] {
        &self.circles
    }

    /// The runs, counter-clockwise starting from the lowest circle.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The region of each run (same order as [`Self::runs`]).
    pub fn run_regions(&self) -> &[RunRegion] {
        &self.regions
    }

    /// Each run's line moved `margin` m outward, as a line beyond which nothing of the loop
    /// reaches (the loop is convex: it lies inside every run's half-plane); for culling the
    /// terrain faces a belt's planes cut (`SlabTriangles::cull`).
    pub fn cull_lines(&self, margin: f64) -> impl Iterator<Item = CullLine> + '_ {
        self.runs.iter().map(move |run| CullLine {
            normal: run.outward,
            offset: run.start.coords.dot(&run.outward) + margin,
        })
    }

    /// Recomputes what is derived from the circles and runs (run regions, bounds) after they
    /// were built or moved; no allocation once the regions have their length.
    fn derive(&mut self) {
        self.regions.clear();
        let (circles, runs) = (&self.circles, &self.runs);
        self.regions.extend(
            runs.iter()
                .map(|r| RunRegion::new(r, &circles[r.from], &circles[r.to])),
        );
        self.bounds = circle_bounds(circles);
    }

    /// Whether circle `i` is on the belt's hull.
    pub fn is_on_hull(&self, i: usize) -> bool {
        self.on_hull[i]
    }

    /// Total belt length (runs plus arcs), m.
    pub fn belt_length(&self) -> f64 {
        let mut len: f64 = self.runs.iter().map(|r| r.length).sum();
        let n = self.runs.len();
        for k in 0..n {
            let (prev, next) = (&self.runs[k], &self.runs[(k + 1) % n]);
            let c = self.circles[next.from];
            let (a, b) = (prev.outward, next.outward);
            let turn = (a.x * b.y - a.y * b.x)
                .atan2(a.dot(&b))
                .rem_euclid(std::f64::consts::TAU);
            len += c.radius * turn;
        }
        len
    }

    /// Lowest point of the loop (z of the lowest circle bottom), m.
    pub fn bottom(&self) -> f64 {
        self.circles
            .iter()
            .map(|c| c.center.y - c.radius)
            .fold(f64::INFINITY, f64::min)
    }

    /// `(x_min, x_max, z_min, z_max)` of the loop, m.
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        self.bounds
    }

    /// The same loop moved rigidly: every point `p` becomes `rotation·(p − pivot) + pivot`
    /// with `rotation` counter-clockwise by `angle` rad in `(x, z)`. Writes into `out`
    /// (which must have been cloned from `self`) without allocating.
    pub fn rotated_into(&self, pivot: Point2<f64>, angle: f64, out: &mut BeltOutline) {
        let (s, c) = angle.sin_cos();
        let rot = |v: Vector2<f64>| Vector2::new(c * v.x - s * v.y, s * v.x + c * v.y);
        let mv = |p: Point2<f64>| pivot + rot(p - pivot);
        for (o, i) in out.circles.iter_mut().zip(&self.circles) {
            o.center = mv(i.center);
        }
        for (o, i) in out.runs.iter_mut().zip(&self.runs) {
            o.start = mv(i.start);
            o.end = mv(i.end);
            o.outward = rot(i.outward);
        }
        out.derive();
    }
}

/// `(x_min, x_max, z_min, z_max)` of `circles`, m.
fn circle_bounds(circles: &[Circle]) -> (f64, f64, f64, f64) {
    circles.iter().fold(
        (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ),
        |(x0, x1, z0, z1), c| {
            (
                x0.min(c.center.x - c.radius),
                x1.max(c.center.x + c.radius),
                z0.min(c.center.y - c.radius),
                z1.max(c.center.y + c.radius),
            )
        },
    )
}

/// The outer tangent from circle `i` to circle `j` with the loop on its left (the outward
/// normal on its right), or `None` when one circle contains the other.
fn tangent_run(circles: &[Circle], i: usize, j: usize) -> Option<Run> {
    let (ci, cj) = (circles[i], circles[j]);
    let d = cj.center - ci.center;
    let dist = d.norm();
    if dist <= (ci.radius - cj.radius).abs() + 1e-12 {
        return None;
    }
    let e = d / dist;
    let right = Vector2::new(e.y, -e.x);
    let alpha = (ci.radius - cj.radius) / dist;
    let outward = e * alpha + right * (1.0 - alpha * alpha).max(0.0).sqrt();
    let start = ci.center + outward * ci.radius;
    let end = cj.center + outward * cj.radius;
    Some(Run {
        from: i,
        to: j,
        start,
        end,
        outward,
        length: (end - start).norm(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn c(x: f64, z: f64, r: f64) -> Circle {
        Circle {
            center: Point2::new(x, z),
            radius: r,
        }
    }

    #[test]
    fn two_equal_wheels_make_a_stadium() {
        let o = BeltOutline::new(vec![c(0.3, 0.1, 0.1), c(-0.3, 0.1, 0.1)]).unwrap();
        assert_eq!(o.runs().len(), 2);
        let bottom = o.runs()[0];
        assert_eq!(
            (bottom.from, bottom.to),
            (1, 0),
            "bottom run goes rear → front"
        );
        assert!((bottom.start - Point2::new(-0.3, 0.0)).norm() < 1e-12);
        assert!((bottom.end - Point2::new(0.3, 0.0)).norm() < 1e-12);
        assert!((bottom.outward - Vector2::new(0.0, -1.0)).norm() < 1e-12);
        assert!((o.belt_length() - (1.2 + 2.0 * PI * 0.1)).abs() < 1e-12);
    }

    #[test]
    fn collinear_road_wheels_give_one_run_per_gap_and_raised_idler_an_inclined_run() {
        // Sprocket at the rear, three road wheels on the ground, raised idler at the front.
        let o = BeltOutline::new(vec![
            c(-0.3, 0.08, 0.08),
            c(-0.1, 0.04, 0.04),
            c(0.0, 0.04, 0.04),
            c(0.1, 0.04, 0.04),
            c(0.3, 0.10, 0.06),
        ])
        .unwrap();
        let pairs: Vec<(usize, usize)> = o.runs().iter().map(|r| (r.from, r.to)).collect();
        // Starts at the rearmost of the lowest circles (the sprocket touches the ground line).
        assert_eq!(pairs, vec![(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        let front = o.runs()[3];
        assert!(
            front.outward.x > 0.0 && front.outward.y < 0.0,
            "front run faces forward-down"
        );
        // Tangency: distance from each centre to the run line equals its radius.
        for r in o.runs() {
            for (k, rad) in [
                (r.from, o.circles()[r.from].radius),
                (r.to, o.circles()[r.to].radius),
            ] {
                let d = (o.circles()[k].center - r.start).dot(&r.outward);
                assert!((d + rad).abs() < 1e-12);
            }
        }
        assert!((0..5).all(|i| o.is_on_hull(i)));
    }

    #[test]
    fn inner_circles_are_kept_off_the_hull_and_bad_input_is_refused() {
        let o = BeltOutline::new(vec![
            c(-0.3, 0.1, 0.1),
            c(0.3, 0.1, 0.1),
            c(0.0, 0.15, 0.02),
        ])
        .unwrap();
        assert_eq!(o.runs().len(), 2);
        assert!(!o.is_on_hull(2));
        assert_eq!(
            BeltOutline::new(vec![c(0.0, 0.0, 0.1)]),
            Err(OutlineError::TooFewCircles(1))
        );
        assert_eq!(
            BeltOutline::new(vec![c(0.0, 0.0, 0.1), c(0.0, f64::NAN, 0.1)]),
            Err(OutlineError::BadCircle(1))
        );
        assert_eq!(
            BeltOutline::new(vec![c(0.0, 0.0, 0.1), c(0.01, 0.0, 0.02)]),
            Err(OutlineError::NoLoop)
        );
    }

    /// The run regions and bounds follow the circles through a rotation: each region is
    /// the quad from the run's tangent points to its wheels' centres, its edge normals point
    /// out of it, and the bounds hold every circle.
    #[test]
    fn derived_geometry_follows_a_rotation() {
        let o = BeltOutline::new(vec![
            c(-0.2, 0.06, 0.06),
            c(0.0, 0.04, 0.04),
            c(0.25, 0.08, 0.03),
        ])
        .unwrap();
        let mut r = o.clone();
        o.rotated_into(Point2::new(-0.2, 0.06), 0.7, &mut r);
        for outline in [&o, &r] {
            assert_eq!(outline.run_regions().len(), outline.runs().len());
            for (run, region) in outline.runs().iter().zip(outline.run_regions()) {
                let (from, to) = (outline.circles()[run.from], outline.circles()[run.to]);
                assert_eq!(region.corners, [run.start, run.end, to.center, from.center]);
                assert_eq!(
                    (region.from_radius, region.to_radius),
                    (from.radius, to.radius)
                );
                assert!((region.axis - (run.end - run.start) / run.length).norm() < 1e-15);
                let middle = region
                    .corners
                    .iter()
                    .fold(Vector2::zeros(), |m, p| m + p.coords)
                    / 4.0;
                for (corner, out) in region.corners.iter().zip(&region.edge_outward) {
                    assert!(
                        (middle - corner.coords).dot(out) < 0.0,
                        "edge normal points in"
                    );
                }
            }
            let (x0, x1, z0, z1) = outline.bounds();
            for k in outline.circles() {
                assert!(k.center.x - k.radius >= x0 && k.center.x + k.radius <= x1);
                assert!(k.center.y - k.radius >= z0 && k.center.y + k.radius <= z1);
            }
            let lowest = outline.circles().iter().map(|k| k.center.y - k.radius);
            assert_eq!(lowest.fold(f64::INFINITY, f64::min), z0);
        }
        assert_ne!(o.bounds(), r.bounds());
    }

    #[test]
    fn rotation_moves_the_loop_rigidly() {
        let o = BeltOutline::new(vec![c(0.0, 0.06, 0.06), c(0.25, 0.05, 0.03)]).unwrap();
        let mut r = o.clone();
        o.rotated_into(Point2::new(0.0, 0.06), PI / 2.0, &mut r);
        assert!((r.circles()[1].center - Point2::new(0.01, 0.31)).norm() < 1e-12);
        assert!((r.belt_length() - o.belt_length()).abs() < 1e-12);
        for run in r.runs() {
            let d = (r.circles()[run.from].center - run.start).dot(&run.outward);
            assert!((d + r.circles()[run.from].radius).abs() < 1e-12);
        }
    }
}
