//! The terrain faces near each belt (and near each hull box, `sim::clearance`): one BVH search
//! of a volume a little larger than the slab, reused while the slab stays inside it, and
//! whether any of them could meet the belt's side (which switches its side guard on).

use nalgebra::{Point2, Vector2};

use crate::terrain::{CutPlane, CutRegion, Terrain};

/// How far a belt may move before its cached candidate faces are searched again, m.
const CANDIDATE_MARGIN: f64 = 0.05;

/// The terrain faces near one belt, from a BVH search of a volume larger than the belt's
/// slab; reused while the slab stays inside that volume (the robot moves ~1 mm a step).
#[derive(Debug, Clone, Default)]
pub(crate) struct CandidateCache {
    /// The searched volume: this plane's region, ± `half` along its normal.
    volume: Option<(CutPlane, f64)>,
    /// The candidate faces (their leading triangles, sorted: [`Terrain::candidates`]).
    pub faces: Vec<u32>,
    /// Whether a candidate face could meet the belt's side: its normal within
    /// [`SIDE_NEAR_COS`] of the belt's across direction (then the belt's side guard is on).
    pub side_faces_near: bool,
}

/// A face whose normal is this close to a belt's across direction (|n · across| at least this,
/// ≈ 60° off it) counts as near the belt's side: wider than the guards' 45° so a belt turning
/// by a few degrees before its candidates are searched again is still covered.
const SIDE_NEAR_COS: f64 = 0.5;

impl CandidateCache {
    /// Whether the slab (`plane`'s region, ± `half` m along its normal) lies inside the
    /// searched volume: the slab is a box, so it does when its centre, widened along each of
    /// the volume's axes by the box's extent there (Σ |axis · volume axis| · half-size), stays
    /// inside — the test of its eight corners, without transforming them.
    fn covers(&self, plane: &CutPlane, half: f64) -> bool {
        let Some((v, vh)) = &self.volume else {
            return false;
        };
        let (r, vr) = (plane.region(), v.region());
        let centre = plane.to_world(&Point2::from((r.min.coords + r.max.coords) * 0.5));
        let size = (r.max - r.min) * 0.5;
        // The slab's half-axes in the volume's frame: (x, z) components and normal component.
        let half_axes = [
            plane.vector_to_world(&Vector2::new(size.x, 0.0)),
            plane.vector_to_world(&Vector2::new(0.0, size.y)),
            plane.normal() * half,
        ];
        let (mut reach, mut reach_across) = (Vector2::zeros(), 0.0);
        for a in &half_axes {
            reach += v.vector_to_plane(a).abs();
            reach_across += a.dot(&v.normal()).abs();
        }
        let offset = centre - v.origin();
        let q = v.offset_to_plane(&offset);
        let across = offset.dot(&v.normal());
        (q.x - reach.x >= vr.min.x)
            & (q.x + reach.x <= vr.max.x)
            & (q.y - reach.y >= vr.min.y)
            & (q.y + reach.y <= vr.max.y)
            & (across.abs() + reach_across <= *vh)
    }

    /// Makes `faces` the candidates for the slab, searching again only when it has left
    /// the volume; returns whether it searched (the list may have changed).
    pub fn refresh(&mut self, terrain: &Terrain, plane: &CutPlane, half: f64) -> bool {
        let stale = !self.covers(plane, half);
        if stale {
            let r = plane.region();
            let m = CANDIDATE_MARGIN;
            let grown = CutPlane::from_pose(
                &plane.pose(),
                CutRegion::new(r.min.x - m, r.max.x + m, r.min.y - m, r.max.y + m),
            );
            terrain.candidates(&grown, half + m, &mut self.faces);
            self.volume = Some((grown, half + m));
            let across = plane.normal();
            let normals = terrain.normals();
            self.side_faces_near = self.faces.iter().any(|&t| {
                normals
                    .get(t as usize)
                    .is_some_and(|n| n.dot(&across).abs() >= SIDE_NEAR_COS)
            });
        }
        stale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};

    /// The slab inside the volume by its eight corners, each taken to the volume's frame (the
    /// rule `covers` computes without the corners).
    fn corners_inside(v: &CutPlane, vh: f64, plane: &CutPlane, half: f64) -> bool {
        let (r, vr) = (plane.region(), v.region());
        [r.min.x, r.max.x].iter().all(|&x| {
            [r.min.y, r.max.y].iter().all(|&z| {
                [-half, half].iter().all(|&s| {
                    let p = plane.to_world(&Point2::new(x, z)) + plane.normal() * s;
                    let q = v.to_plane(&p);
                    let d = (p - v.origin()).dot(&v.normal());
                    q.x >= vr.min.x
                        && q.x <= vr.max.x
                        && q.y >= vr.min.y
                        && q.y <= vr.max.y
                        && d.abs() <= vh
                })
            })
        })
    }

    /// A slab moved and turned a little from the volume it was searched in: the box test
    /// agrees with the corner test, inside (small moves) and outside (large ones) alike.
    #[test]
    fn covers_is_the_corner_test() {
        let region = CutRegion::new(-0.4, 0.5, -0.1, 0.3);
        let start = Isometry3::from_parts(
            Translation3::new(2.0, -1.0, 0.4),
            UnitQuaternion::from_euler_angles(0.1, -0.3, 0.7),
        );
        let grown = CutRegion::new(-0.45, 0.55, -0.15, 0.35);
        let volume = CutPlane::from_pose(&start, grown);
        let cache = CandidateCache {
            volume: Some((volume, 0.08)),
            ..Default::default()
        };
        let (mut inside, mut outside) = (0, 0);
        // Poses round the start, deterministic: moves of up to 4 cm and 0.05 rad.
        let mut rng = SplitMix64(12345);
        let mut unit = || rng.range(-1.0, 1.0);
        for _ in 0..2000 {
            let moved = start
                * Isometry3::from_parts(
                    Translation3::new(0.04 * unit(), 0.04 * unit(), 0.04 * unit()),
                    UnitQuaternion::from_euler_angles(0.05 * unit(), 0.05 * unit(), 0.05 * unit()),
                );
            let plane = CutPlane::from_pose(&moved, region);
            let want = corners_inside(&volume, 0.08, &plane, 0.03);
            assert_eq!(cache.covers(&plane, 0.03), want, "{moved:?}");
            if want {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(
            inside > 100 && outside > 100,
            "{inside} inside, {outside} outside"
        );
    }
}
