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
//! crosses the belt line between two wheels (seed 004's *factitious irregularity*): the part
//! of the terrain polyline inside the run's quad (tangent points to wheel centres), with each
//! point's depth taken as the smaller of its depth past the run line and its distance outside
//! either end wheel (inside a wheel the terrain is that wheel's), less the end wheels' own
//! sinkage interpolated along the run (the belt between two wheels lies on the line through
//! their contacts: their rubber gives under the wheels, not under the run, so flat ground
//! under two sunk wheels loads no run and a run carries only terrain that rises above that
//! line — a nosing, a kerb's edge), averaged along the run
//! weighted by depth (mean depth δ̄ = ∫d²/∫d, so terrain entering with no depth changes
//! nothing), makes a virtual bump at its depth-weighted position `s`, which the run's
//! end wheels press with the wheel law `F = κ·w(s)·S_R(δ̄)` (`S_R` the circular segment of the
//! wheels' radius). The stiffness factor `w` is 1 at either wheel and `run_stiffness_mid`
//! half-way (the belt is softest mid-run). As a nosing reaches a wheel its depth outside the
//! disk thins to nothing, so the run's force fades as the wheel's grows.
//!
//! Directions: a wheel is pushed along each terrain segment's normal (seed 004); a run is
//! pushed along its own inward normal, because there the belt is the smooth surface and the
//! terrain (a nosing, a corner) pokes into it — this is what lets an inclined front run ride
//! up onto a step edge. On flat ground under a bottom run both directions coincide.

mod run;
#[cfg(test)]
mod tests;
mod wheel;

use nalgebra::{Point2, Vector2};

use super::grouser::Grousers;
use super::load::ElementLoad;
use super::outline::{BeltOutline, Circle};
use crate::terrain::{CullLine, CutSegment, SurfaceMaterial};
use run::add_run_loads;
pub use run::run_stiffness_factor;
use wheel::add_wheel_loads;
pub use wheel::{facing_weight, solid_thickness, wheel_contact, WheelContact};

/// In-plane fraction of a face's normal below which the face pushes nothing (within ≈ 3° of
/// parallel to the plane) ...
const MIN_IN_PLANE: f64 = 0.05;
/// ... and above which it pushes fully (≈ 17° and more); in between its force fades in
/// smoothly. A face nearly parallel to a plane is ill-conditioned in a plane cut (its trace
/// sweeps along the plane far faster than the belt moves across it); the strip split
/// (`vehicle::tracked::strip`) carries such faces' profiles across the belt's width instead.
const FULL_IN_PLANE: f64 = 0.3;

/// Weight of a face whose normal lies the fraction `in_plane` in the plane.
fn in_plane_weight(in_plane: f64) -> f64 {
    let t = ((in_plane - MIN_IN_PLANE) / (FULL_IN_PLANE - MIN_IN_PLANE)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Contact parameters of one track plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneStiffness {
    /// κ of this plane (the belt's κ divided among its planes), N/m².
    pub kappa: f64,
    /// Run stiffness at mid-run as a fraction of κ, in (0, 1].
    pub run_mid: f64,
    /// The belt's grousers: they hook convex terrain edges inside a contact
    /// (`track::grouser`); zeros for a smooth belt.
    pub grousers: Grousers,
}

/// Combined stiffness of the belt plane in series with a surface, N/m².
fn series(kappa: f64, surface: Option<f64>) -> f64 {
    match surface {
        Some(k) => kappa * k / (kappa + k),
        None => kappa,
    }
}

/// Evaluates one plane: `loads` gets one entry per circle of `outline` followed by one per
/// run (so it must have `circles + runs` entries); segments are the terrain cut in the same
/// plane frame; `materials` is the terrain's material table.
///
/// `culled` are the lines beyond which the cut left faces out (`SlabTriangles::cull`; empty
/// when it is complete). No element reaches beyond them, but the grouser rule looks at the
/// faces meeting a segment's end point near a wheel's contact, and such an end point may lie
/// just outside the belt. Returns whether every point looked at was short of every line, so
/// that the loads are those of the complete cut; if not, the caller evaluates the complete cut.
pub fn evaluate_plane(
    outline: &BeltOutline,
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
    culled: &[CullLine],
) -> bool {
    let mut written = WrittenLoads::ALL;
    evaluate_plane_reusing(
        outline,
        stiffness,
        segments,
        materials,
        loads,
        culled,
        &mut written,
    )
}

/// [`evaluate_plane`] into loads that an evaluation of the same plane filled before:
/// `written` says which of `loads` that one wrote (every other load must be the default), and
/// only those are reset; on return it says which this one wrote. A track plane has a dozen
/// elements of which two or three touch the terrain, and resetting every load (88 bytes each)
/// of six planes every step cost the scout's step about 0.1 µs.
pub fn evaluate_plane_reusing(
    outline: &BeltOutline,
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
    culled: &[CullLine],
    written: &mut WrittenLoads,
) -> bool {
    let circles = outline.circles();
    debug_assert_eq!(loads.len(), circles.len() + outline.runs().len());
    written.reset(loads);
    if segments.is_empty() {
        // Nothing to touch (a flipper held clear of the ground): no element loaded, nothing
        // looked at beyond the culling lines.
        *written = WrittenLoads::NONE.with(WrittenLoads::NONE, circles.len(), loads.len());
        return true;
    }
    let (complete, by_wheels) = add_wheel_loads(
        circles,
        stiffness,
        segments,
        materials,
        &mut loads[..circles.len()],
        culled,
    );
    let (wheel_loads, run_loads) = loads.split_at_mut(circles.len());
    let by_runs = add_run_loads(
        outline,
        stiffness,
        segments,
        materials,
        wheel_loads,
        run_loads,
    );
    *written = by_wheels.with(by_runs, circles.len(), loads.len());
    written.for_each(loads, ElementLoad::finish);
    complete
}

/// Evaluates wheels alone: `loads` gets one finished entry per circle of `circles` (plane
/// frame) from the terrain cut `segments` in the same plane. A wheeled robot's wheel is one
/// circle in its mid-plane; the law is the track planes' wheel law ([`evaluate_plane`]).
pub fn evaluate_wheels(
    circles: &[Circle],
    stiffness: PlaneStiffness,
    segments: &[CutSegment],
    materials: &[SurfaceMaterial],
    loads: &mut [ElementLoad],
) {
    debug_assert_eq!(loads.len(), circles.len());
    for l in loads.iter_mut() {
        *l = ElementLoad::default();
    }
    // The wheels' cuts are complete: nothing was culled.
    add_wheel_loads(circles, stiffness, segments, materials, loads, &[]);
    for l in loads.iter_mut() {
        l.finish();
    }
}

/// Which loads of a plane an evaluation wrote (bit `i`: load `i`, circles then runs), so that
/// the next evaluation into the same loads resets only those. [`WrittenLoads::ALL`] (before
/// the first evaluation, or for a plane of more than 64 elements) stands for every load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenLoads(u64);

impl WrittenLoads {
    /// Every load.
    pub const ALL: Self = Self(u64::MAX);
    /// No load.
    const NONE: Self = Self(0);

    /// Marks load `i` written (past 64 loads, the plane is taken whole: see [`Self::with`]).
    fn mark(&mut self, i: usize) {
        if i < 64 {
            self.0 |= 1 << i;
        }
    }

    /// These loads (of the circles) with `runs`, the loads of the runs after `circles`
    /// circles, of `len` loads in all: every load when there are more than 64.
    fn with(self, runs: Self, circles: usize, len: usize) -> Self {
        if len > 64 {
            Self::ALL
        } else {
            Self(self.0 | runs.0.checked_shl(circles as u32).unwrap_or(0))
        }
    }

    /// Applies `f` to each of `loads` these name.
    fn for_each(self, loads: &mut [ElementLoad], mut f: impl FnMut(&mut ElementLoad)) {
        if self == Self::ALL {
            loads.iter_mut().for_each(f);
            return;
        }
        let mut bits = self.0;
        while bits != 0 {
            if let Some(load) = loads.get_mut(bits.trailing_zeros() as usize) {
                f(load);
            }
            bits &= bits - 1;
        }
    }

    /// Resets the loads these name to the default.
    fn reset(self, loads: &mut [ElementLoad]) {
        self.for_each(loads, |load| *load = ElementLoad::default());
    }
}

/// An axis-aligned box in the plane, m: the cheap test that skips element–segment pairs too
/// far apart to touch before any contact law is evaluated.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: Point2<f64>,
    max: Point2<f64>,
}

impl Bounds {
    /// Whether the box around the segment `a → b` meets this box.
    fn meets_segment(&self, seg: &CutSegment) -> bool {
        let (lo, hi) = seg.bounds();
        // `&`, not `&&`: four compares are cheaper than the branches between them.
        (hi.x >= self.min.x) & (lo.x <= self.max.x) & (hi.y >= self.min.y) & (lo.y <= self.max.y)
    }

    /// Whether this box meets the box around the disk `c`.
    fn meets_disk(&self, c: &Circle) -> bool {
        (self.max.x >= c.center.x - c.radius)
            & (self.min.x <= c.center.x + c.radius)
            & (self.max.y >= c.center.y - c.radius)
            & (self.min.y <= c.center.y + c.radius)
    }
}

/// Sine of the smallest turn between two segments that makes their shared vertex an edge.
const EDGE_TURN_SIN: f64 = 0.17; // 10°

/// The two faces leaving `p` if it is a convex corner of the terrain cut (the boundary turns
/// toward the solid there, like a stair nosing or a curb edge): unit directions along each
/// face away from `p`. An open end of the cut (one face only) is a corner too, its one face
/// given twice.
pub fn convex_edge_faces(
    p: Point2<f64>,
    segments: &[CutSegment],
) -> Option<(Vector2<f64>, Vector2<f64>)> {
    const SAME: f64 = 1e-9;
    let arriving = segments
        .iter()
        .find(|s| (s.b - p).norm_squared() <= SAME * SAME);
    let leaving = segments
        .iter()
        .find(|s| (s.a - p).norm_squared() <= SAME * SAME);
    match (arriving, leaving) {
        (Some(i), Some(o)) => {
            let (di, do_) = (i.direction(), o.direction());
            // Solid on the right: a clockwise turn (negative cross) goes round a convex corner.
            (di.x * do_.y - di.y * do_.x < -EDGE_TURN_SIN).then_some((-di, do_))
        }
        (Some(i), None) => Some((-i.direction(), -i.direction())),
        (None, Some(o)) => Some((o.direction(), o.direction())),
        (None, None) => None,
    }
}

/// Whether `p` is a convex corner of the terrain cut, or an open end of it (see
/// [`convex_edge_faces`]).
pub fn is_convex_vertex(p: Point2<f64>, segments: &[CutSegment]) -> bool {
    convex_edge_faces(p, segments).is_some()
}
