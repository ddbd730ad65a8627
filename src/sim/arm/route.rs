//! Collision-aware moves to a commanded pose (a stored pose, or joint targets): a straight
//! line in joint space when no part of the arm would pass through its own hull or belt guards
//! on the way, otherwise a dog-leg over the top — the wrist turned clear, the shoulder raised,
//! the rest of the arm moved while it is up, the shoulder lowered last — as real units' stow
//! and unstow moves do; where no dog-leg is clear, two of them through the arm raised straight
//! up (or stretched forward). Every leg is straight in joint space and checked before the
//! move; the route is planned once per command, not per step. While the arm moves, each step
//! is checked again ([`HullCheck::clear_step`]): servos lag a leg differently, and a joint
//! whose move would sink a part waits while the others move.

use rapier3d::prelude::*;

use super::parts::{meets_own_hull, part_poses, ArmParts, PartPoses};
use crate::vehicle::arm::kinematics::JointVector;
use crate::vehicle::arm::{ArmSpec, MAX_ARM_JOINTS};

/// Samples per leg when a leg is checked against the hull.
const LEG_SAMPLES: usize = 24;
/// Shoulder angles tried for the dog-leg, deg, most raised last (positive pitch points a link
/// down, so raised is negative).
const RAISES_DEG: [f64; 3] = [-45.0, -70.0, -90.0];
/// Wrist angles tried while the shoulder rises, deg (besides where it is and where it goes).
const WRIST_DEG: [f64; 3] = [90.0, -90.0, 0.0];
/// Most legs in a route: two dog-legs.
const MAX_LEGS: usize = 2 * DOG_LEGS;

/// A route to a commanded pose: up to ten legs, straight in joint space.
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
    /// Where a step from `old` toward `new` may take the joints without sinking a part into
    /// its own hull or belt guards ([`meets_own_hull`]; `before`: the parts at `old`), and the
    /// parts' poses there: all of `new` when that is clear; else the joints whose move alone
    /// keeps clear, together, when that is clear; else `old` (the arm holds). A joint whose
    /// move would sink a part waits while the others move it clear — as a real unit's
    /// collision check stops only the axis that would collide — so an arm whose servos lag
    /// its planned route differently, one resting on its deck within the graze, still
    /// leaves.
    pub fn clear_step(
        &self,
        spec: &ArmSpec,
        before: &PartPoses,
        old: &JointVector,
        new: &JointVector,
    ) -> (JointVector, PartPoses) {
        let clear = |q: &JointVector| -> Option<PartPoses> {
            let after = part_poses(spec, q, self.gap);
            (!meets_own_hull(self.world, self.hull, self.parts, self.held, before, &after))
                .then_some(after)
        };
        if let Some(after) = clear(new) {
            return (*new, after);
        }
        let mut some = *old;
        for j in 0..spec.joints.len() {
            if new[j] == old[j] {
                continue;
            }
            let mut alone = *old;
            alone[j] = new[j];
            if clear(&alone).is_some() {
                some[j] = new[j];
            }
        }
        if some != *old {
            if let Some(after) = clear(&some) {
                return (some, after);
            }
        }
        (*old, part_poses(spec, old, self.gap))
    }

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
    /// Plans the route from `from` to `goal` (both within the joints' limits): straight when
    /// that is clear, else a dog-leg over the top ([`dog_leg`]), else two dog-legs through the
    /// arm raised straight up or stretched forward (a folded arm hanging in front of its turret
    /// has no dog-leg to its stowed pose, but it has one up and one down from there).
    pub fn plan(
        spec: &ArmSpec,
        check: &HullCheck<'_>,
        from: &JointVector,
        goal: &JointVector,
    ) -> Self {
        let mut route = Self {
            goal: *goal,
            legs: [*goal; MAX_LEGS],
            count: 1,
            next: 0,
        };
        if check.leg_clear(spec, from, goal) {
            return route;
        }
        if let Some(legs) = dog_leg(spec, check, from, goal) {
            route.legs[..DOG_LEGS].copy_from_slice(&legs);
            route.count = DOG_LEGS;
            return route;
        }
        for via in via_poses(spec) {
            let (Some(there), Some(back)) = (
                straight(spec, check, from, &via).or_else(|| dog_leg(spec, check, from, &via)),
                dog_leg(spec, check, &via, goal),
            ) else {
                continue;
            };
            route.legs[..DOG_LEGS].copy_from_slice(&there);
            route.legs[DOG_LEGS..].copy_from_slice(&back);
            route.count = MAX_LEGS;
            return route;
        }
        // No clear way found: go straight; the hull check stops the arm where it must.
        route
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

/// Legs in one dog-leg.
const DOG_LEGS: usize = 5;

/// A dog-leg from `from` to `goal` over the top, every leg checked clear: the wrist turned
/// clear and the shoulder raised; then, shortest first, the rest of the arm and the wrist
/// move together while the shoulder is up and the shoulder lowers; or the rest of the arm
/// moves with the wrist still clear, the wrist turns to its goal and the shoulder lowers
/// (unstowing past the deck); or the rest of the arm moves, the shoulder lowers and the wrist
/// turns last (stowing: a gripper folded back behind the shoulder would swing down into the
/// deck as the shoulder lowers). `None`: none is clear.
fn dog_leg(
    spec: &ArmSpec,
    check: &HullCheck<'_>,
    from: &JointVector,
    goal: &JointVector,
) -> Option<[JointVector; DOG_LEGS]> {
    let (shoulder, wrist) = pitch_joints(spec)?;
    let clamp = |j: usize, deg: f64| {
        deg.to_radians()
            .clamp(spec.joints[j].min, spec.joints[j].max)
    };
    let [a, b, c] = WRIST_DEG.map(|d| clamp(wrist, d));
    let wrists = [from[wrist], goal[wrist], a, b, c];
    // The shortest shape first (the rest of the arm and the wrist move together while the
    // shoulder is up), then the two that keep the wrist clear while the arm unfolds.
    for shape in 0..3 {
        for &w in &wrists {
            for raise in RAISES_DEG {
                let up = clamp(shoulder, raise);
                let mut turned = *from;
                turned[wrist] = w;
                let mut lifted = turned;
                lifted[shoulder] = up;
                let mut unfolded = *goal;
                unfolded[shoulder] = up;
                unfolded[wrist] = w;
                let mut moved = *goal;
                moved[shoulder] = up;
                let mut lowered = *goal;
                lowered[wrist] = w;
                let legs = match shape {
                    0 => [turned, lifted, moved, *goal, *goal],
                    1 => [turned, lifted, unfolded, moved, *goal],
                    _ => [turned, lifted, unfolded, lowered, *goal],
                };
                if clear_legs(spec, check, from, &legs) {
                    return Some(legs);
                }
            }
        }
    }
    None
}

/// The straight move from `from` to `goal` as a dog-leg's legs, if it is clear.
fn straight(
    spec: &ArmSpec,
    check: &HullCheck<'_>,
    from: &JointVector,
    goal: &JointVector,
) -> Option<[JointVector; DOG_LEGS]> {
    check
        .leg_clear(spec, from, goal)
        .then_some([*goal; DOG_LEGS])
}

/// Whether every leg from `from` through `legs` is clear.
fn clear_legs(
    spec: &ArmSpec,
    check: &HullCheck<'_>,
    from: &JointVector,
    legs: &[JointVector],
) -> bool {
    let mut start = *from;
    legs.iter().all(|end| {
        let ok = check.leg_clear(spec, &start, end);
        start = *end;
        ok
    })
}

/// The joints turning about the body y axis (pitch): the first lifts the arm (the shoulder),
/// the last turns the gripper (the wrist's pitch). `None`: no pitch joint.
fn pitch_joints(spec: &ArmSpec) -> Option<(usize, usize)> {
    let mut pitch = spec.revolute_about(1);
    let shoulder = pitch.next()?;
    let wrist = pitch.next_back().unwrap_or(shoulder);
    Some((shoulder, wrist))
}

/// The poses a route may pass through when no dog-leg is clear: the arm raised straight up
/// (the shoulder at its most raised, up to 90°, every other joint at 0) and stretched forward
/// (every joint at 0), clamped to the joints' limits.
fn via_poses(spec: &ArmSpec) -> [JointVector; 2] {
    let mut forward = [0.0; MAX_ARM_JOINTS];
    for (q, joint) in forward.iter_mut().zip(&spec.joints) {
        *q = 0.0_f64.clamp(joint.min, joint.max);
    }
    let mut up = forward;
    if let Some((shoulder, _)) = pitch_joints(spec) {
        let joint = &spec.joints[shoulder];
        up[shoulder] = (-std::f64::consts::FRAC_PI_2).clamp(joint.min, joint.max);
    }
    [up, forward]
}
