//! The terrain triangles near each belt: one BVH search of a volume a little larger than the
//! belt's slab, reused while the belt stays inside it, and whether any of them could meet the
//! belt's side (which switches its side guard on).

use nalgebra::Point2;

use crate::terrain::{CutPlane, CutRegion, Terrain};

/// How far a belt may move before its cached candidate triangles are searched again, m.
const CANDIDATE_MARGIN: f64 = 0.05;

/// The terrain triangles near one belt, from a BVH search of a volume larger than the belt's
/// slab; reused while the slab stays inside that volume (the robot moves ~1 mm a step).
#[derive(Debug, Clone, Default)]
pub(crate) struct CandidateCache {
    /// The searched volume: this plane's region, ± `half` along its normal.
    volume: Option<(CutPlane, f64)>,
    /// The candidate triangles (indices into the terrain).
    pub triangles: Vec<u32>,
    /// Whether a candidate face could meet the belt's side: its normal within
    /// [`SIDE_NEAR_COS`] of the belt's across direction (then the belt's side guard is on).
    pub side_faces_near: bool,
}

/// A face whose normal is this close to a belt's across direction (|n · across| at least this,
/// ≈ 60° off it) counts as near the belt's side: wider than the guards' 45° so a belt turning
/// by a few degrees before its candidates are searched again is still covered.
const SIDE_NEAR_COS: f64 = 0.5;

impl CandidateCache {
    /// Whether the slab (`plane`'s region, ± `half`) lies inside the searched volume.
    fn covers(&self, plane: &CutPlane, half: f64) -> bool {
        let Some((v, vh)) = &self.volume else {
            return false;
        };
        let (r, vr) = (plane.region(), v.region());
        [
            (r.min.x, r.min.y),
            (r.max.x, r.min.y),
            (r.min.x, r.max.y),
            (r.max.x, r.max.y),
        ]
        .iter()
        .all(|&(x, z)| {
            [-half, half].iter().all(|&s| {
                let p = plane.to_world(&Point2::new(x, z)) + plane.normal() * s;
                let q = v.to_plane(&p);
                let d = (p - v.origin()).dot(&v.normal());
                q.x >= vr.min.x
                    && q.x <= vr.max.x
                    && q.y >= vr.min.y
                    && q.y <= vr.max.y
                    && d.abs() <= *vh
            })
        })
    }

    /// The candidates for the slab, searching again only when it has left the volume.
    pub fn refresh(&mut self, terrain: &Terrain, plane: &CutPlane, half: f64) -> &[u32] {
        if !self.covers(plane, half) {
            let r = plane.region();
            let m = CANDIDATE_MARGIN;
            let grown = CutPlane::from_pose(
                &plane.pose(),
                CutRegion::new(r.min.x - m, r.max.x + m, r.min.y - m, r.max.y + m),
            );
            terrain.candidates(&grown, half + m, &mut self.triangles);
            self.volume = Some((grown, half + m));
            let across = plane.normal();
            let normals = terrain.normals();
            self.side_faces_near = self.triangles.iter().any(|&t| {
                normals
                    .get(t as usize)
                    .is_some_and(|n| n.dot(&across).abs() >= SIDE_NEAR_COS)
            });
        }
        &self.triangles
    }
}
