//! The run law of a track plane: the terrain crossing a run between two wheels (seed 004's
//! factitious irregularity) as a virtual bump its end wheels press (see the parent module's
//! docs).

use nalgebra::Point2;

use super::{convex_edge_faces, in_plane_weight, series, Bounds, PlaneStiffness, WrittenLoads};
use crate::terrain::{CutSegment, SurfaceMaterial};
use crate::track::area::CircularSegment;
use crate::track::grouser::interlock_friction_sine;
use crate::track::load::{ContactFriction, ElementLoad};
use crate::track::outline::{BeltOutline, Run, RunRegion};

/// Run stiffness factor at fraction `s` ∈ [0, 1] along the run: 1 at either wheel,
/// `mid` half-way, smooth in between.
pub fn run_stiffness_factor(s: f64, mid: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    1.0 - (1.0 - mid) * 4.0 * s * (1.0 - s)
}

/// The loads of the runs of `outline` (plane frame) from the terrain cut `segments`: one entry
/// per run, added to `loads` (seed 004's factitious irregularity, see the module docs), given
/// `wheels`, the loads of the outline's circles already evaluated on the same cut (each one's
/// `depth` is that wheel's sinkage). Returns the loads it wrote.
pub(super) fn add_run_loads(
    outline: &BeltOutline,
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    wheels: &[ElementLoad],
    loads: &mut [ElementLoad],
) -> WrittenLoads {
    let grousers = stiffness.grousers;
    let mut written = WrittenLoads::NONE;
    // Each run's bump (the factitious irregularity of the terrain crossing it), pressed by its
    // end wheels through the belt.
    for (j, (run, region)) in outline.runs().iter().zip(outline.run_regions()).enumerate() {
        if run.length <= 1e-9 {
            continue;
        }
        let mut b = Bump::default();
        // The end wheels' sinkage into the terrain, m: the belt lies on the line through
        // their contacts, so the run takes only what rises past it. Counting the sinkage too
        // made flat ground under a nose-heavy robot's sunk front wheel load the run behind it
        // in a wedge whose load crept forward to that wheel as the robot pitched, leaving no
        // pitch stiffness: scout_eod with its rated load at full reach pitched over on a
        // 0.25°/s tilt table at 4.9° with its centre of mass 9 mm behind the front wheel
        // (statics: 8.85°).
        let sink = (
            sinkage(run, &wheels[run.from]),
            sinkage(run, &wheels[run.to]),
        );
        // The run's region (tangent points to wheel centres) bounds every piece it takes.
        let bounds = Bounds {
            min: region.min,
            max: region.max,
        };
        for seg in segments {
            if (seg.normal.dot(&run.outward) >= 0.0) | !bounds.meets_segment(seg) {
                continue; // the face looks away from this run, or lies beside it
            }
            // As for wheels: depth into an oblique face is the in-plane depth times this.
            let in_plane = seg.in_plane();
            let face_weight = in_plane_weight(in_plane);
            if face_weight <= 0.0 {
                continue;
            }
            // The wheels' sinkage is of that depth, and their force's share across the run
            // carries the factor once more: in the plane, it is their sinkage over its square.
            let per = 1.0 / (in_plane * in_plane);
            let Some(piece) = run_piece(run, region, seg, (sink.0 * per, sink.1 * per)) else {
                continue;
            };
            let c = in_plane;
            let mat = &materials[seg.material.0 as usize];
            let kappa = series(stiffness.kappa, mat.stiffness);
            // Grousers hook a convex end of the segment poking into the run.
            let hook = |inside: bool, p: Point2<f64>| {
                (inside && grousers.hook())
                    .then(|| convex_edge_faces(p, segments))
                    .flatten()
                    .map_or(0.0, |faces| {
                        grousers.bearing_on(faces, -run.outward, mat.edge_radius)
                    })
            };
            let bearing = hook(piece.start_inside, seg.a).max(hook(piece.end_inside, seg.b));
            let along = interlock_friction_sine(mat.friction, bearing);
            b.depth_square_integral += piece.depth_square_integral * c * c;
            b.depth_integral += piece.depth_integral * c;
            b.moment += piece.moment * c;
            b.kappa += kappa * piece.depth_integral * c;
            b.friction += mat.friction * piece.depth_integral * c;
            b.grip += along * piece.depth_integral * c;
            b.fade += face_weight * piece.depth_integral * c;
            b.slope += seg.across_slope() * piece.depth_integral * c;
            b.depth = b.depth.max(piece.depth * c);
        }
        if b.depth_integral <= 0.0 {
            continue;
        }
        // Depth-weighted, so terrain that enters the run with no depth changes nothing. The
        // means share one division.
        let per_depth = 1.0 / b.depth_integral;
        let mean_depth = b.depth_square_integral * per_depth;
        let along = b.moment * per_depth;
        let s = along / run.length;
        let (ra, rb) = (region.from_radius, region.to_radius);
        let radius = ra + (rb - ra) * s.clamp(0.0, 1.0);
        let kappa = b.kappa * per_depth;
        let fade = b.fade * per_depth;
        let k = kappa * fade * run_stiffness_factor(s, stiffness.run_mid);
        let segment = CircularSegment::new(radius, mean_depth);
        let f = k * segment.area;
        if f > 0.0 {
            let p = run.start + region.axis * along;
            let mu = ContactFriction {
                surface: b.friction * per_depth,
                along: b.grip * per_depth,
            };
            written.mark(j);
            let l = &mut loads[j];
            l.add(f, -run.outward, 0.0, p, mu, b.depth);
            l.slope += f * b.slope * per_depth;
            l.energy += k * segment.area_integral;
            l.stiffness += k * segment.chord;
        }
    }
    written
}

/// How far one of `run`'s end wheels has sunk past the run's line, m: its penetration depth
/// times the share of its load that presses it across the run (along the run's inward
/// normal), so that a wheel on the floor a level run lies on counts its whole sinkage and a
/// wheel pushed only from the side (a riser's face beside it) none.
fn sinkage(run: &Run, wheel: &ElementLoad) -> f64 {
    if wheel.magnitude <= 0.0 {
        return 0.0;
    }
    let across = -wheel.force.dot(&run.outward) / wheel.magnitude;
    wheel.depth * across.max(0.0)
}

/// What the terrain segments put into one run, summed: the factitious irregularity.
#[derive(Debug, Clone, Copy, Default)]
struct Bump {
    /// ∫ depth² d(along), m³.
    depth_square_integral: f64,
    /// ∫ depth d(along), m².
    depth_integral: f64,
    /// ∫ along·depth d(along), m³.
    moment: f64,
    kappa: f64,
    friction: f64,
    grip: f64,
    depth: f64,
    /// ∫ (face weight)·depth d(along), m²: the bump's force fades with its faces' weights.
    fade: f64,
    /// ∫ (across-slope)·depth d(along), m² (see `ElementLoad::slope`).
    slope: f64,
}

/// The part of one terrain segment inside a run's region.
#[derive(Debug, Clone, Copy)]
struct RunPiece {
    /// ∫ depth² d(along), m³.
    depth_square_integral: f64,
    /// ∫ depth d(along), m².
    depth_integral: f64,
    /// ∫ along·depth d(along), m³.
    moment: f64,
    /// Deepest point past the run line, m.
    depth: f64,
    /// Whether the segment's start point lies inside the run region.
    start_inside: bool,
    /// Whether the segment's end point lies inside the run region.
    end_inside: bool,
}

/// The distance of `p` outside the circle at `centre` of `radius` (m), where that is less than
/// `depth` (> 0, m); otherwise `depth` or more.
///
/// Most of a run lies far outside both its end wheels, so the square root is taken only when
/// the squared distance says the circle may be nearer than `depth`. The squared test has a
/// margin of 1e-12 (relative), far above its rounding, so that whenever the root could decide
/// `min(depth, |p − centre| − radius)` it is taken: the result is exactly that minimum.
#[inline]
fn outside_circle(p: Point2<f64>, centre: Point2<f64>, radius: f64, depth: f64) -> f64 {
    let reach = depth + radius;
    let distance_squared = (p - centre).norm_squared();
    if distance_squared <= reach * reach * (1.0 + 1e-12) {
        distance_squared.sqrt() - radius
    } else {
        depth
    }
}

/// The piece of `seg` inside the region of `run` (of length > 0), if it reaches past the run
/// line by more than the end wheels' sinkage `sink` (m, at the run's start and end wheels,
/// interpolated along it).
fn run_piece(
    run: &Run,
    region: &RunRegion,
    seg: &CutSegment,
    sink: (f64, f64),
) -> Option<RunPiece> {
    let [_, _, cb, ca] = region.corners;
    // Quick reject: both segment ends outside the run line.
    let line_depth = |p: Point2<f64>| -(p - run.start).dot(&run.outward);
    if line_depth(seg.a) <= 0.0 && line_depth(seg.b) <= 0.0 {
        return None;
    }
    // Clip the segment to the quad (counter-clockwise) with Liang–Barsky.
    let d = seg.b - seg.a;
    // The parameter bounds t0 = n0/d0 and t1 = n1/d1 are kept as fractions with positive
    // denominators, compared by cross-multiplying and divided once at the end.
    let (mut n0, mut d0, mut n1, mut d1) = (0.0f64, 1.0f64, 1.0f64, 1.0f64);
    for (&p, out) in region.corners.iter().zip(&region.edge_outward) {
        let den = d.dot(out);
        let num = -(seg.a - p).dot(out); // inside when (x − p)·out ≤ 0
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else if den > 0.0 {
            // t ≤ num/den
            if num * d1 < n1 * den {
                (n1, d1) = (num, den);
            }
        } else if -num * d0 > n0 * -den {
            // t ≥ num/den = (−num)/(−den)
            (n0, d0) = (-num, -den);
        }
    }
    if n1 * d0 <= n0 * d1 {
        return None;
    }
    let (t0, t1) = (n0 / d0, n1 / d1);
    // min(depth past the run line less the wheels' sinkage there, distance outside either end
    // wheel), at least 0.
    let axis = region.axis;
    let depth_at = |p: Point2<f64>| {
        let s = ((p - run.start).dot(&axis) / run.length).clamp(0.0, 1.0);
        let sunk = sink.0 + (sink.1 - sink.0) * s;
        let depth = line_depth(p) - sunk;
        // Flat ground under sunk wheels lies on the line to rounding (~1e-19 m for a 1 mm
        // sinkage): a depth within a billionth of the sinkage is none, or the run would carry
        // micro-newton loads whose friction limit every bristle exceeds.
        if depth <= sunk * 1e-9 {
            return 0.0;
        }
        depth
            .min(outside_circle(p, ca, region.from_radius, depth))
            .min(outside_circle(p, cb, region.to_radius, depth))
            .max(0.0)
    };
    let (p0, p1) = (seg.a + d * t0, seg.a + d * t1);
    let pm = Point2::from((p0.coords + p1.coords) * 0.5);
    let (x0, x1) = ((p0 - run.start).dot(&axis), (p1 - run.start).dot(&axis));
    let length = (x1 - x0).abs();
    let (d0, dm, d1) = (depth_at(p0), depth_at(pm), depth_at(p1));
    // Simpson's rule over the projection (depth is linear except near the wheels).
    let depth_integral = length / 6.0 * (d0 + 4.0 * dm + d1);
    if depth_integral <= 0.0 {
        return None;
    }
    let xm = 0.5 * (x0 + x1);
    let moment = length / 6.0 * (x0 * d0 + 4.0 * xm * dm + x1 * d1);
    Some(RunPiece {
        depth_square_integral: length / 6.0 * (d0 * d0 + 4.0 * dm * dm + d1 * d1),
        depth_integral,
        moment,
        depth: d0.max(dm).max(d1),
        start_inside: t0 == 0.0,
        end_inside: t1 == 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The root taken only when needed gives exactly `min(depth, |p − c| − r)`, the rule it
    /// replaces, bit for bit: for points far from the circle, near its rim (where the two
    /// candidates tie within rounding) and inside it.
    #[test]
    fn outside_circle_is_exactly_the_minimum_it_skips_roots_for() {
        let mut rng = SplitMix64(11);
        let centre = Point2::new(0.21, 0.035);
        for _ in 0..20_000 {
            let radius = rng.range(0.02, 0.06);
            let depth = rng.range(1e-6, 0.02);
            // Distances from inside the circle to well beyond `radius + depth`, with a third of
            // the points placed where the rim is exactly `depth` away (rounding decides).
            let distance = if rng.below(3) == 0 {
                (radius + depth) * (1.0 + rng.range(-1e-15, 1e-15))
            } else {
                rng.range(0.0, 2.0 * (radius + depth))
            };
            let angle = rng.range(0.0, std::f64::consts::TAU);
            let p = centre + nalgebra::Vector2::new(angle.cos(), angle.sin()) * distance;
            let rule = depth.min((p - centre).norm() - radius);
            let fast = depth.min(outside_circle(p, centre, radius, depth));
            assert_eq!(fast.to_bits(), rule.to_bits(), "{p} {radius} {depth}");
        }
    }
}
