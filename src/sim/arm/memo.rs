//! What an arm's pose alone decides, worked out once per pose rather than every step: where
//! its parts sit, what their weight does to each joint under any gravity, whether the tool is
//! out beyond the drive reach, and the box round the parts. An arm held still (driving with
//! it stowed, carrying a load) keeps its pose for thousands of steps; before this, each step
//! ran its forward kinematics three times and summed every part's weight about every joint.
//!
//! A memo is a pure function of the joint positions and the finger gap it was made for (and
//! the arm's file): it is used only while those are bit for bit the ones the arm has, so a
//! cloned, restored or re-placed arm can never read a stale one, and a step gives the same
//! result whether its memo was made this step or a thousand steps ago.

use nalgebra::{Point3, Vector3};
use rapier3d::prelude::*;

use super::loads::JointLoads;
use super::parts::{part_poses, ArmParts, PartPoses};
use crate::vehicle::arm::kinematics::JointVector;
use crate::vehicle::arm::{ArmSpec, JointKind, MAX_ARM_JOINTS};

/// The weight of an arm's own parts (links, palm, fingers) at one pose, body frame.
///
/// A mass m at p on a link outboard of joint j (origin o, axis a) loads it with
/// ((p − o) × m·g)·a = g·(m·a × (p − o)) about a turning joint and m·g·a along a sliding
/// one: linear in gravity g, so the sum over the parts is one lever vector per joint and
/// each step's torque is the lever's dot product with the step's gravity in the body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OwnWeight {
    /// The joints' frames and the inertia of the parts outboard of each; no torque yet.
    unloaded: JointLoads,
    /// Each joint's lever: its torque (N·m) or force (N) is this · gravity (m/s², body
    /// frame); kg·m or kg.
    levers: [Vector3<f64>; MAX_ARM_JOINTS],
}

impl OwnWeight {
    /// The weight of `spec`'s parts at `poses`.
    pub fn new(spec: &ArmSpec, poses: &PartPoses) -> Self {
        let mut weight = Self {
            unloaded: JointLoads::new(spec, &poses.links),
            levers: [Vector3::zeros(); MAX_ARM_JOINTS],
        };
        let last = spec.joints.len() - 1;
        for (k, joint) in spec.joints.iter().enumerate() {
            let link = &joint.link;
            let centre = poses.links[k] * Point3::from(link.end / 2.0);
            let own = link.mass * link.end.norm_squared() / 12.0;
            weight.add(spec, k, &centre, link.mass, own);
        }
        let g = &spec.gripper;
        let palm = Point3::from(poses.palm.translation.vector);
        weight.add(spec, last, &palm, g.palm_mass, 0.0);
        for finger in &poses.fingers {
            let centre = Point3::from(finger.translation.vector);
            weight.add(spec, last, &centre, g.finger_mass, 0.0);
        }
        weight
    }

    /// Adds a mass (kg) at `point` on link `link` with its own inertia `own` (kg·m²).
    fn add(&mut self, spec: &ArmSpec, link: usize, point: &Point3<f64>, mass: f64, own: f64) {
        self.unloaded.add_inertia(link, point, mass, own);
        for (j, joint) in spec.joints.iter().enumerate().take(link + 1) {
            let axis = self.unloaded.axis(j);
            self.levers[j] += match joint.kind {
                JointKind::Prismatic => axis * mass,
                JointKind::Revolute => axis.cross(&(point - self.unloaded.origin(j))) * mass,
            };
        }
    }

    /// The joint loads of this weight under `gravity` (m/s², body frame).
    pub fn loads(&self, gravity: &Vector3<f64>) -> JointLoads {
        let mut loads = self.unloaded;
        for (torque, lever) in loads.torque.iter_mut().zip(&self.levers) {
            *torque = lever.dot(gravity);
        }
        loads
    }
}

/// What the pose `positions`, `gap` decides (see the module).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PoseMemo {
    /// The joint positions it was made for, rad or m.
    positions: JointVector,
    /// The finger gap it was made for, m.
    gap: f64,
    /// Where the parts sit, body frame.
    pub poses: PartPoses,
    /// The parts' weight on the joints.
    pub weight: OwnWeight,
    /// Whether the tool point is farther than the drive reach from the mount, horizontally.
    pub reaches_out: bool,
    /// The box round the parts (centre, half-extents, m, body frame), once asked for.
    bounds: Option<Option<(Point3<f64>, Vector3<f64>)>>,
}

impl PoseMemo {
    /// The memo of `spec`'s arm at `positions` with the pads `gap` m apart.
    pub fn new(spec: &ArmSpec, positions: &JointVector, gap: f64) -> Self {
        Self::with_poses(spec, positions, gap, part_poses(spec, positions, gap))
    }

    /// As [`PoseMemo::new`], the part poses already worked out (`poses`).
    pub fn with_poses(spec: &ArmSpec, positions: &JointVector, gap: f64, poses: PartPoses) -> Self {
        let tool = Point3::from(poses.pad.translation.vector);
        Self {
            positions: *positions,
            gap,
            weight: OwnWeight::new(spec, &poses),
            reaches_out: (tool - spec.mount).xy().norm() > spec.drive_reach,
            poses,
            bounds: None,
        }
    }

    /// Whether this is the memo of `positions` and `gap`, bit for bit.
    pub fn is_for(&self, positions: &JointVector, gap: f64) -> bool {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        same(self.gap, gap)
            && self
                .positions
                .iter()
                .zip(positions)
                .all(|(a, b)| same(*a, *b))
    }

    /// The box round `parts` (placed at this memo's pose in `world`), worked out the first
    /// time it is asked for ([`ArmParts::bounds`]).
    pub fn bounds(
        &mut self,
        parts: &ArmParts,
        world: &PhysicsWorld,
    ) -> Option<(Point3<f64>, Vector3<f64>)> {
        *self.bounds.get_or_insert_with(|| parts.bounds(world))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::robot_file::load_robot;
    use std::path::Path;

    fn arm(name: &str) -> ArmSpec {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/robots/{name}.toml"));
        load_robot(&path).expect("robot").arm.expect("arm")
    }

    /// The weight as one lever per joint gives each joint the torque of every part's weight
    /// summed about it (m·g at the part's centre, `JointLoads::add_mass`), for any gravity,
    /// and the same inertia, to rounding (1e-12 N·m, kg·m²).
    #[test]
    fn the_lever_per_joint_is_the_sum_of_the_parts_weights() {
        for name in ["scout_eod", "tracker55_eod", "heavy250_eod"] {
            let spec = arm(name);
            let mut q = [0.0; MAX_ARM_JOINTS];
            for (j, (qj, joint)) in q.iter_mut().zip(&spec.joints).enumerate() {
                *qj = joint.min + (joint.max - joint.min) * (0.2 + 0.13 * j as f64);
            }
            let poses = part_poses(&spec, &q, 0.03);
            let weight = OwnWeight::new(&spec, &poses);
            for gravity in [
                Vector3::new(0.0, 0.0, -9.81),
                Vector3::new(3.0, -2.0, -8.9),
                Vector3::new(-9.81, 0.0, 0.0),
            ] {
                let mut summed = JointLoads::new(&spec, &poses.links);
                let last = spec.joints.len() - 1;
                for (k, joint) in spec.joints.iter().enumerate() {
                    let link = &joint.link;
                    let centre = poses.links[k] * Point3::from(link.end / 2.0);
                    let own = link.mass * link.end.norm_squared() / 12.0;
                    summed.add_mass(k, &centre, link.mass, own, &gravity);
                }
                let g = &spec.gripper;
                let palm = Point3::from(poses.palm.translation.vector);
                summed.add_mass(last, &palm, g.palm_mass, 0.0, &gravity);
                for finger in &poses.fingers {
                    let centre = Point3::from(finger.translation.vector);
                    summed.add_mass(last, &centre, g.finger_mass, 0.0, &gravity);
                }
                let memo = weight.loads(&gravity);
                for j in 0..spec.joints.len() {
                    assert!(
                        (memo.torque[j] - summed.torque[j]).abs() < 1e-12,
                        "{name} {j}"
                    );
                    assert!(
                        (memo.inertia[j] - summed.inertia[j]).abs() < 1e-12,
                        "{name} {j}"
                    );
                }
                // Not a trivial check: the shoulder carries a real load.
                assert!(summed.torque[1].abs() > 0.1, "{name}: {:?}", summed.torque);
            }
        }
    }

    /// A memo answers only for the pose it was made for, bit for bit.
    #[test]
    fn a_memo_is_only_for_its_own_pose() {
        let spec = arm("scout_eod");
        let q = [0.1, -0.2, 0.3, 0.0, 0.5, 0.0, 0.0, 0.0];
        let memo = PoseMemo::new(&spec, &q, 0.04);
        assert!(memo.is_for(&q, 0.04));
        assert!(!memo.is_for(&q, 0.040_000_000_1));
        let mut moved = q;
        moved[4] = f64::from_bits(q[4].to_bits() + 1);
        assert!(!memo.is_for(&moved, 0.04));
        assert_eq!(memo.poses.pad, part_poses(&spec, &q, 0.04).pad);
    }
}
