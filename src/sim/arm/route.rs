//! Collision-aware moves to a commanded pose (a stored pose, or joint targets): a straight
//! line in joint space when no part of the arm would pass through its own hull or belt guards
//! on the way, otherwise a dog-leg over the top — the wrist turned clear, the shoulder raised,
//! the rest of the arm moved while it is up, the shoulder lowered last — as real units' stow
//! and unstow moves do. Every leg is straight in joint space and checked before the move; the
//! route is planned once per command, not per step.

use rapier3d::prelude::*;

use super::parts::{meets_own_hull, part_poses, ArmParts};
use crate::vehicle::arm::kinematics::JointVector;
use crate::vehicle::arm::{ArmSpec, JointKind};

/// Samples per leg when a leg is checked against the hull.
const LEG_SAMPLES: usize = 24;
/// Shoulder angles tried for the dog-leg, deg, most raised last (positive pitch points a link
/// down, so raised is negative).
const RAISES_DEG: [f64; 3] = [-45.0, -70.0, -90.0];
/// Wrist angles tried while the shoulder rises, deg (besides where it is and where it goes).
const WRIST_DEG: [f64; 3] = [90.0, -90.0, 0.0];
/// Most legs in a route.
const MAX_LEGS: usize = 4;

/// A route to a commanded pose: up to three legs, straight in joint space.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct PoseRoute {
    /// The pose it leads to.
    goal: JointVector,
    /// Each leg's end; the last is `goal`.
    legs: [JointVector; MAX_LEGS],
    /// Legs in use.
    count: usize,
    /// The leg under way.
    next: usize,
}

/// What a route is checked against: the arm's colliders on its hull.
pub(crate) struct HullCheck<'a> {
    /// The world.
    pub world: &'a PhysicsWorld,
    /// The hull body.
    pub hull: RigidBodyHandle,
    /// The arm's colliders.
    pub parts: &'a ArmParts,
    /// A held object's collider (on the hull, not part of it).
    pub held: Option<ColliderHandle>,
    /// The finger gap, m.
    pub gap: f64,
}

impl HullCheck<'_> {
    /// Whether the straight move from `from` to `to` keeps every part out of the hull.
    fn leg_clear(&self, spec: &ArmSpec, from: &JointVector, to: &JointVector) -> bool {
        let at = |k: usize| {
            let f = k as f64 / LEG_SAMPLES as f64;
            let mut q = *from;
            for (qj, (a, b)) in q.iter_mut().zip(from.iter().zip(to)) {
                *qj = a + (b - a) * f;
            }
            part_poses(spec, &q, self.gap)
        };
        let mut before = at(0);
        for k in 1..=LEG_SAMPLES {
            let after = at(k);
            if meets_own_hull(
                self.world, self.hull, self.parts, self.held, &before, &after,
            ) {
                return false;
            }
            before = after;
        }
        true
    }
}

impl PoseRoute {
    /// Plans the route from `from` to `goal` (both within the joints' limits).
    pub fn plan(
        spec: &ArmSpec,
        check: &HullCheck<'_>,
        from: &JointVector,
        goal: &JointVector,
    ) -> Self {
        let direct = Self {
            goal: *goal,
            legs: [*goal; MAX_LEGS],
            count: 1,
            next: 0,
        };
        if check.leg_clear(spec, from, goal) {
            return direct;
        }
        // The joints turning about the body y axis (pitch): the first lifts the arm (the shoulder), the
        // last turns the gripper (the wrist's pitch).
        let pitch: Vec<usize> = spec
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.kind == JointKind::Revolute && j.axis.y.abs() > 0.5)
            .map(|(i, _)| i)
            .collect();
        let (Some(&shoulder), Some(&wrist)) = (pitch.first(), pitch.last()) else {
            return direct;
        };
        let clamp = |j: usize, deg: f64| {
            deg.to_radians()
                .clamp(spec.joints[j].min, spec.joints[j].max)
        };
        let wrists = [from[wrist], goal[wrist]]
            .into_iter()
            .chain(WRIST_DEG.map(|d| clamp(wrist, d)));
        let mut tries = Vec::new();
        for w in wrists {
            for raise in RAISES_DEG {
                tries.push((w, clamp(shoulder, raise)));
            }
        }
        for (w, up) in tries {
            let mut turned = *from;
            turned[wrist] = w;
            let mut lifted = turned;
            lifted[shoulder] = up;
            let mut moved = *goal;
            moved[shoulder] = up;
            let legs = [turned, lifted, moved, *goal];
            let mut start = *from;
            let clear = legs.iter().all(|end| {
                let ok = check.leg_clear(spec, &start, end);
                start = *end;
                ok
            });
            if clear {
                return Self {
                    goal: *goal,
                    legs,
                    count: MAX_LEGS,
                    next: 0,
                };
            }
        }
        // No clear way found: go straight; the hull check stops the arm where it must.
        direct
    }

    /// Whether this route leads to `goal`.
    pub fn leads_to(&self, goal: &JointVector) -> bool {
        self.count > 0 && self.goal == *goal
    }

    /// The end of the leg under way, given the servo targets `targets` now: a leg the
    /// targets have reached gives way to the next.
    pub fn waypoint(&mut self, targets: &JointVector, joints: usize) -> JointVector {
        while self.next + 1 < self.count
            && (0..joints).all(|j| (targets[j] - self.legs[self.next][j]).abs() < 1e-6)
        {
            self.next += 1;
        }
        self.legs[self.next.min(self.count.saturating_sub(1))]
    }
}
