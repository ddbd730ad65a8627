//! Whether the terrain comes within rapier's contact reach of a robot's hull box (or of the
//! box round an arm's parts, [`HullClearance::box_near`]): while it does not, the hull
//! collider (the arm's colliders) leaves the terrain out of its collision filter (`hull.rs`,
//! `arm/`), and rapier skips a narrow phase that could only find nothing.
//!
//! Why: the tracks carry the robot, so its hull box rides a few centimetres clear of the
//! ground, but on a flight of stairs the box's world AABB spans several steps and rapier ran the
//! box–triangle test (SAT, GJK support points) against every tread and riser in it, every
//! step, to find no contact: 0.75 µs of the scout's 7.9 µs step on the public stairs. rapier
//! makes a contact point only where the box comes within its prediction distance of a
//! triangle, so leaving out terrain that stays farther than that (plus a slack for `f32`
//! rounding) changes no contact and no result: the bench's digest is the same bit for bit.
//!
//! How: the faces that may meet the box grown by the reach come from one BVH search of a
//! volume a little larger, reused while the box stays inside it (the belts' candidate cache,
//! [`CandidateCache`]); every step each of them is tested against the grown box by separating
//! axes (the box's three, then the face's normal). The edge–edge axes are left out, so the
//! test may call a face near that is not (the hull then stays on for nothing), never the
//! other way round.
//!
//! Motion budget: a step that finds every face apart also keeps how far apart (each face's gap
//! along the axis that separated it, the smallest over the faces: a lower bound of the distance
//! from the grown box to any candidate face). While no point of the box has moved that far since
//! (its centre's displacement plus the turn times its half-diagonal) and the candidate faces
//! are the same, no face can have come near, and the test is skipped. On the scout's stair
//! climb the box rides about 2 cm clear of the reach, so the faces are tested about once every
//! few tens of steps instead of every step.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};

use crate::terrain::{CutPlane, CutRegion, Terrain};
use crate::vehicle::candidates::CandidateCache;
use crate::vehicle::spec::{HullShape, RobotSpec};

/// Added to rapier's contact reach, m: covers the `f32` rounding of rapier's poses, cuboid and
/// terrain vertices (about 1e-7 relative: 1 mm at the 10 km scene limit) several times over.
pub(crate) const REACH_SLACK: f64 = 0.005;

/// A robot's hull box and the terrain faces near it: scratch that only saves BVH searches and
/// face tests (the answer is the same with or without it).
#[derive(Debug, Clone, Default)]
pub(crate) struct HullClearance {
    cache: CandidateCache,
    /// Where the grown box was when every candidate face was last found apart, and by how
    /// much; `None` after a step that found a face near (or before the first test).
    budget: Option<MotionBudget>,
}

/// The grown hull box's pose (box → world) and half-extents (m) at a test that found every
/// candidate face apart, and the smallest gap found, m.
#[derive(Debug, Clone, Copy)]
struct MotionBudget {
    pose: Isometry3<f64>,
    half: Vector3<f64>,
    gap: f64,
}

impl MotionBudget {
    /// Whether the grown box of half-extents `half` at `pose` is still apart from every face
    /// the budget was measured against: no point of it has moved as far as the gap. A point
    /// `p` of the box (box frame, |p| ≤ |half|) moves by `(R₂ − R₁)·p + (t₂ − t₁)`, at most the
    /// turn angle times |half| plus the centre's displacement.
    fn still_apart(&self, pose: &Isometry3<f64>, half: &Vector3<f64>) -> bool {
        if *half != self.half {
            return false;
        }
        let shift = (pose.translation.vector - self.pose.translation.vector).norm();
        // |R₂ − R₁| = 2·sin(θ/2), θ the turn between the poses: twice the norm of the vector
        // part of the relative rotation's quaternion (no trigonometry).
        let turn = (self.pose.rotation.inverse() * pose.rotation)
            .quaternion()
            .imag()
            .norm();
        // The margin covers the rounding of the bound itself (a few 1e-16 of metres).
        shift + 2.0 * turn * half.norm() < self.gap - 1e-9
    }
}

impl HullClearance {
    /// Whether any terrain face may come within `reach` m of the hull box of `spec` at `pose`
    /// (body → world). `false` only when every face is farther than `reach`.
    pub(crate) fn terrain_near(
        &mut self,
        terrain: &Terrain,
        spec: &RobotSpec,
        pose: &Isometry3<f64>,
        reach: f64,
    ) -> bool {
        let HullShape::Box { size, center } = spec.hull;
        self.box_near(
            terrain,
            &(pose * Translation3::from(center.coords)),
            &(size * 0.5),
            reach,
        )
    }

    /// Whether any terrain face may come within `reach` m of the box of half-extents `half`
    /// (m) at `box_pose` (box → world): the hull's box, or the box round an arm's parts.
    /// `false` only when every face is farther than `reach`.
    pub(crate) fn box_near(
        &mut self,
        terrain: &Terrain,
        box_pose: &Isometry3<f64>,
        half: &Vector3<f64>,
        reach: f64,
    ) -> bool {
        let half = half + Vector3::repeat(reach);
        // The grown box as a slab: its x–z rectangle, ± its half-width along body y.
        let slab = CutPlane::from_pose(box_pose, CutRegion::new(-half.x, half.x, -half.z, half.z));
        let searched = self.cache.refresh(terrain, &slab, half.y);
        if !searched && self.budget.is_some_and(|b| b.still_apart(box_pose, &half)) {
            return false;
        }
        let grown = GrownBox::at(box_pose, half);
        let normals = terrain.normals();
        let mut gap = f64::INFINITY;
        for &t in &self.cache.faces {
            let Some(n) = normals.get(t as usize) else {
                continue;
            };
            match grown.separation(&terrain.face_points(t), n) {
                Some(g) => gap = gap.min(g),
                None => {
                    self.budget = None;
                    return true;
                }
            }
        }
        self.budget = Some(MotionBudget {
            pose: *box_pose,
            half,
            gap,
        });
        false
    }
}

/// An oriented box, world frame.
#[derive(Debug, Clone, Copy)]
struct GrownBox {
    centre: Point3<f64>,
    /// Unit axes, world.
    axes: [Vector3<f64>; 3],
    /// Half-extents along `axes`, m.
    half: Vector3<f64>,
}

impl GrownBox {
    /// The box at `pose` (box → world) with half-extents `half`, m.
    fn at(pose: &Isometry3<f64>, half: Vector3<f64>) -> Self {
        Self {
            centre: Point3::from(pose.translation.vector),
            axes: [
                pose.rotation * Vector3::x(),
                pose.rotation * Vector3::y(),
                pose.rotation * Vector3::z(),
            ],
            half,
        }
    }

    /// The gap between the box and the flat face with `corners` (world, m) and unit `normal`
    /// along the first separating axis found among the box's axes (body z first: terrain lies
    /// mostly below the hull) and the face's normal, m (> 0): a lower bound of their distance,
    /// as the projection on a unit axis moves no point farther. `None` when no axis separates
    /// them: the face may meet the box.
    fn separation(&self, corners: &[Point3<f64>; 4], normal: &Vector3<f64>) -> Option<f64> {
        let rel = corners.map(|p| p - self.centre);
        for k in [2, 0, 1] {
            let axis = &self.axes[k];
            let d = rel.map(|r| r.dot(axis));
            let (lo, hi) = (
                d[0].min(d[1]).min(d[2].min(d[3])),
                d[0].max(d[1]).max(d[2].max(d[3])),
            );
            if lo > self.half[k] {
                return Some(lo - self.half[k]);
            }
            if hi < -self.half[k] {
                return Some(-self.half[k] - hi);
            }
        }
        // The face's plane against the box's extent along its normal.
        let radius = (0..3)
            .map(|k| normal.dot(&self.axes[k]).abs() * self.half[k])
            .sum::<f64>();
        let distance = rel[0].dot(normal).abs();
        (distance > radius).then_some(distance - radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use nalgebra::UnitQuaternion;

    /// Distance from `p` to the box `b`, m (0 inside).
    fn distance_to_box(b: &GrownBox, p: &Point3<f64>) -> f64 {
        let r = p - b.centre;
        let outside = Vector3::from_fn(|k, _| (r.dot(&b.axes[k]).abs() - b.half[k]).max(0.0));
        outside.norm()
    }

    /// A random orientation of a test box.
    fn random_rotation(rng: &mut SplitMix64) -> UnitQuaternion<f64> {
        UnitQuaternion::from_euler_angles(
            rng.range(-3.2, 3.2),
            rng.range(-1.6, 1.6),
            rng.range(-3.2, 3.2),
        )
    }

    /// Random half-extents of a test box, m (hull-sized).
    fn random_half(rng: &mut SplitMix64) -> Vector3<f64> {
        Vector3::new(
            rng.range(0.05, 0.4),
            rng.range(0.05, 0.3),
            rng.range(0.02, 0.1),
        )
    }

    /// Random boxes and random triangles and quads near them: every face that has a point in
    /// the box (a sample of its surface) is called near, and so that the test cannot pass by
    /// calling everything near, faces far off along some axis are called apart.
    #[test]
    fn a_face_touching_the_box_is_never_called_apart() {
        let mut rng = SplitMix64(77);
        let (mut touching, mut apart) = (0, 0);
        for _ in 0..20_000 {
            let rotation = random_rotation(&mut rng);
            let b = GrownBox {
                centre: Point3::new(
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                ),
                axes: [
                    rotation * Vector3::x(),
                    rotation * Vector3::y(),
                    rotation * Vector3::z(),
                ],
                half: random_half(&mut rng),
            };
            // A parallelogram (quad) or triangle of random size and orientation near the box.
            let origin = b.centre
                + Vector3::new(
                    rng.range(-0.8, 0.8),
                    rng.range(-0.8, 0.8),
                    rng.range(-0.8, 0.8),
                );
            let u = Vector3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let v = Vector3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let Some(normal) = u.cross(&v).try_normalize(1e-6) else {
                continue;
            };
            let quad = rng.below(2) == 0;
            let corners = if quad {
                [origin, origin + u, origin + u + v, origin + v]
            } else {
                [origin, origin + u, origin + v, origin + v]
            };
            // Points of the face on a grid of barycentric-style coordinates.
            let mut inside = false;
            for i in 0..=20 {
                for j in 0..=20 {
                    let (s, t) = (i as f64 / 20.0, j as f64 / 20.0);
                    if !quad && s + t > 1.0 {
                        continue;
                    }
                    let p = origin + u * s + v * t;
                    inside |= distance_to_box(&b, &p) == 0.0;
                }
            }
            let near = b.separation(&corners, &normal).is_none();
            if inside {
                assert!(near, "{b:?} {corners:?}");
                touching += 1;
            }
            let far = corners
                .iter()
                .all(|p| (p - b.centre).dot(&b.axes[2]) > b.half.z + 1e-9);
            if far {
                assert!(!near, "{b:?} {corners:?}");
                apart += 1;
            }
        }
        assert!(
            touching > 1000 && apart > 1000,
            "{touching} touching, {apart} apart"
        );
    }

    /// The motion budget: a face found apart stays out of the grown box while the budget says
    /// so (a grid of points over the face, each outside the moved box), and a box moved by the
    /// gap or more (shifted alone, or turned alone) is tested again. Moves are drawn up to
    /// twice the gap, so both answers come up often.
    #[test]
    fn a_box_moved_within_its_budget_stays_apart() {
        let mut rng = SplitMix64(91);
        let (mut kept, mut retested) = (0, 0);
        for _ in 0..20_000 {
            let rotation = random_rotation(&mut rng);
            let half = random_half(&mut rng);
            let before = Isometry3::from_parts(
                Translation3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0),
                rotation,
            );
            let origin = before.translation.vector
                + Vector3::new(
                    rng.range(-0.6, 0.6),
                    rng.range(-0.6, 0.6),
                    rng.range(-0.6, 0.6),
                );
            let (u, v) = (
                Vector3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), 0.0),
                Vector3::new(
                    rng.range(-0.5, 0.5),
                    rng.range(-0.5, 0.5),
                    rng.range(-0.5, 0.5),
                ),
            );
            let Some(normal) = u.cross(&v).try_normalize(1e-6) else {
                continue;
            };
            let origin = Point3::from(origin);
            let corners = [origin, origin + u, origin + u + v, origin + v];
            let Some(gap) = GrownBox::at(&before, half).separation(&corners, &normal) else {
                continue;
            };
            let budget = MotionBudget {
                pose: before,
                half,
                gap,
            };
            // A shift and a turn, each up to twice the gap.
            let direction = Vector3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
            .normalize();
            let shift = direction * rng.range(0.0, 2.0 * gap);
            let turn = UnitQuaternion::from_scaled_axis(
                direction.yx().push(0.5).normalize() * rng.range(0.0, 2.0 * gap / half.norm()),
            );
            let after = Isometry3::from_parts(
                Translation3::from(before.translation.vector + shift),
                turn * rotation,
            );
            if budget.still_apart(&after, &half) {
                kept += 1;
                let moved = GrownBox::at(&after, half);
                for i in 0..=10 {
                    for j in 0..=10 {
                        let p = origin + u * (i as f64 / 10.0) + v * (j as f64 / 10.0);
                        assert!(distance_to_box(&moved, &p) > 0.0, "{moved:?} {p}");
                    }
                }
            } else {
                retested += 1;
            }
            // Moved by the gap itself, shifted or turned alone: never kept.
            let shifted = Isometry3::from_parts(
                Translation3::from(before.translation.vector + direction * gap),
                rotation,
            );
            assert!(!budget.still_apart(&shifted, &half));
            let quarter_turn = Isometry3::from_parts(
                before.translation,
                UnitQuaternion::from_scaled_axis(direction * std::f64::consts::FRAC_PI_2)
                    * rotation,
            );
            assert!(
                gap > std::f64::consts::SQRT_2 * half.norm()
                    || !budget.still_apart(&quarter_turn, &half)
            );
        }
        assert!(
            kept > 2000 && retested > 2000,
            "{kept} kept, {retested} retested"
        );
    }

    /// A floor face and a level box: near exactly while the grown box reaches the face's plane
    /// from above or from below (a box wholly under the face, inside the solid, meets no face
    /// of it: rapier's triangle contacts find none there either), within 0.1 mm of the exact
    /// gap.
    #[test]
    fn a_floor_is_near_exactly_when_the_grown_box_reaches_it() {
        let floor = [
            Point3::new(-5.0, -5.0, 0.0),
            Point3::new(5.0, -5.0, 0.0),
            Point3::new(5.0, 5.0, 0.0),
            Point3::new(-5.0, 5.0, 0.0),
        ];
        let up = Vector3::z();
        for (z, near) in [
            (0.0949, true),
            (0.0951, false),
            (-0.0949, true),
            (-0.0951, false),
            (1.0, false),
        ] {
            let b = GrownBox {
                centre: Point3::new(0.3, -0.2, z),
                axes: [Vector3::x(), Vector3::y(), Vector3::z()],
                half: Vector3::new(0.3, 0.2, 0.095),
            };
            assert_eq!(b.separation(&floor, &up).is_none(), near, "z {z}");
        }
    }
}
