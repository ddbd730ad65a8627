//! The arm's per-step control, stage 3 of [`Simulation::step`](crate::sim::Simulation::step)
//! for a robot's arm: the joints answer the last step's loads and the command (the geared
//! servo model of the module above), the fingers close, grasp or let go, a held valve or
//! handle turns with the gripper, and the arm's colliders are placed for the coming step.

use nalgebra::{Isometry3, Vector3};
use rapier3d::prelude::*;

use super::grasp::{pressed_between, Grasp, HullMotion};
use super::loads::{contact_force, JointLoads};
use super::memo::{OwnWeight, PoseMemo};
use super::parts::{part_poses, PartPoses};
use super::route::{HullCheck, PoseRoute};
use super::turn::{clear_of, pressed_valve, PadsNow, ValveHold};
use super::{grip_limit, ArmRig, CLEAR_OPENING, FINGER_MIN, MAX_LAG, RAMP_TIME, SERVO_GAIN};
use crate::sim::valves::ValveRig;
use crate::sim::{isometry_of, v64, PhysicsWorld};
use crate::vehicle::arm::kinematics::{gripper_frame, resolved_rate, JointVector};
use crate::vehicle::arm::{ArmMotion, ToolFrame, MAX_ARM_JOINTS};

impl ArmRig {
    /// The collision check of the arm's parts against its own hull, as the arm is now.
    fn hull_check<'w>(&'w self, world: &'w PhysicsWorld) -> HullCheck<'w> {
        HullCheck {
            world,
            hull: self.hull,
            parts: &self.parts,
            held: self.grasp.map(|g| g.collider()),
            gap: self.finger_gap,
        }
    }

    /// Stage 3 for the arm: the joints answer the last step's loads and the command, the
    /// fingers close, grasp or open, a held valve turns with the gripper, and the arm's
    /// colliders and grasp joint are set for the coming step. `valves` are the scene's valves;
    /// `dt` is the step, s.
    pub fn control(&mut self, world: &mut PhysicsWorld, valves: &mut [ValveRig], dt: f64) {
        let Some(hull_pose) = world
            .bodies
            .get(self.hull)
            .map(|b| isometry_of(b.position()))
        else {
            return;
        };
        let memo = *self.pose_memo();
        let before = memo.poses;
        let (mut loads, scene_force) = self.loads(world, &hull_pose, &memo.weight, &before, dt);
        self.scene_force = scene_force;
        if let Some((hold, valve)) = self.held_valve(valves) {
            let now = self.pads_now(&hull_pose, &before.pad);
            let capacity = hold.capacity(valve, &now, &self.spec.gripper);
            hold.resist(valve, capacity, &self.spec, &hull_pose, &mut loads);
        }
        let (old_positions, old_gap) = (self.positions, self.finger_gap);
        self.plan_route(world);
        self.move_joints(&loads, dt);
        // The forward kinematics run again only for a pose that changed (an arm at rest costs
        // one pass a step).
        let moved = self.positions != old_positions;
        let mut after = if moved {
            part_poses(&self.spec, &self.positions, self.finger_gap)
        } else {
            before
        };
        self.grip(world, valves, &hull_pose, &after.pad, dt);
        if self.finger_gap != old_gap {
            after = part_poses(&self.spec, &self.positions, self.finger_gap);
        }
        if moved {
            let check = self.hull_check(world);
            let (allowed, poses) =
                check.clear_step(&self.spec, &before, &old_positions, &self.positions);
            for (rate, (a, p)) in self
                .rates
                .iter_mut()
                .zip(allowed.iter().zip(&self.positions))
            {
                if a != p {
                    *rate = 0.0;
                }
            }
            self.positions = allowed;
            after = poses;
        }
        if self.positions != old_positions || self.finger_gap != old_gap {
            self.place_parts(world, &after);
            self.memo = PoseMemo::with_poses(&self.spec, &self.positions, self.finger_gap, after);
        }
        self.hold(world, &after.pad, dt);
        self.turn_valve(world, valves, &hull_pose, &after.pad);
    }

    /// The pads at `pad` (body frame) on the hull at `hull`, world frame, and their force.
    fn pads_now(&self, hull: &Isometry3<f64>, pad: &Isometry3<f64>) -> PadsNow {
        PadsNow {
            pads: hull * pad,
            gap: self.finger_gap,
            force: self.closing.unwrap_or(0.0).min(self.spec.gripper.max_force),
        }
    }

    /// A held valve turns with the gripper, the pads now at `pad` (body frame) on the hull at
    /// `hull` ([`ValveHold::follow`]); pads that slid off it let go.
    fn turn_valve(
        &mut self,
        world: &mut PhysicsWorld,
        valves: &mut [ValveRig],
        hull: &Isometry3<f64>,
        pad: &Isometry3<f64>,
    ) {
        let now = self.pads_now(hull, pad);
        let Some(hold) = self.turning.as_mut() else {
            return;
        };
        let Some(valve) = valves.get_mut(hold.valve) else {
            return;
        };
        if !hold.follow(world, valve, &now, &self.spec.gripper) {
            // Slid off: the pads are beside what they held, maybe still round part of it (a
            // lever swung away between them); it stays clear of the arm until no part of the
            // arm is in it, as when the grip opens, rather than be thrown out by contacts.
            self.letting_go = Some((hold.body, 0.0));
            self.turning = None;
        }
    }

    /// Coulomb's law at the pads for a held object, one step of `dt` s ([`Grasp::slide`]),
    /// the pads at `pad` (body frame).
    fn hold(&mut self, world: &mut PhysicsWorld, pad: &Isometry3<f64>, dt: f64) {
        let Some(grasp) = self.grasp.as_mut() else {
            return;
        };
        let Some(hull) = HullMotion::of(world, self.hull) else {
            return;
        };
        let contact = contact_force(world, grasp.collider(), dt);
        let force = self.closing.unwrap_or(0.0).min(self.spec.gripper.max_force);
        let limit = grip_limit(force, grasp.friction);
        let gravity = v64(world.gravity);
        grasp.slide(world, &hull, pad, &gravity, &contact, limit, dt);
    }

    /// After rapier's step: a held object's resting body goes where its collider went.
    pub fn after_step(&mut self, world: &mut PhysicsWorld) {
        if let Some(grasp) = self.grasp.as_mut() {
            grasp.follow(world);
        }
    }

    /// The loads on the joints from the last step: the weight of the links, palm and fingers
    /// (`weight`, at `poses`; gravity taken into the body frame), the contact forces on every
    /// part, and what a held object pulls with; and the largest contact force on any part or
    /// the held object, N (what the arm hit the scene with), over the last step of `dt` s.
    fn loads(
        &self,
        world: &PhysicsWorld,
        hull: &Isometry3<f64>,
        weight: &OwnWeight,
        poses: &PartPoses,
        dt: f64,
    ) -> (JointLoads, f64) {
        let gravity = hull.rotation.inverse() * v64(world.gravity);
        let mut loads = weight.loads(&gravity);
        let to_body = hull.inverse();
        let last = self.spec.joints.len() - 1;
        let g = &self.spec.gripper;
        let mut hit = 0.0_f64;
        for (collider, link, _) in self.parts.each(poses) {
            let mut force = loads.add_contacts(world, collider, link, &to_body, dt);
            // Closing pads pressing what they close on grip it, with at most the finger
            // mechanism's force (rapier's squeeze of a part between them, one step before the
            // hold takes it, can be far more): that is no hit.
            if self.closing.is_some() && self.parts.fingers.contains(&collider) {
                force = force.min(g.max_force);
            }
            hit = hit.max(force);
        }
        if let Some(grasp) = &self.grasp {
            let centre = grasp.center_in_body(&poses.pad);
            loads.add_mass(last, &centre, grasp.mass, 0.0, &gravity);
            hit = hit.max(loads.add_contacts(world, grasp.collider(), last, &to_body, dt));
        }
        (loads, hit)
    }

    /// Plans the route of a new pose command (joint targets) from where the joints are.
    fn plan_route(&mut self, world: &PhysicsWorld) {
        let ArmMotion::JointTargets(goal) = self.command.motion else {
            return;
        };
        let mut clamped = goal;
        for (g, joint) in clamped.iter_mut().zip(&self.spec.joints) {
            *g = g.clamp(joint.min, joint.max);
        }
        if self.route.leads_to(&clamped) {
            return;
        }
        let check = self.hull_check(world);
        self.route = PoseRoute::plan(&self.spec, &check, &self.positions, &clamped);
    }

    /// Moves every joint one step of `dt` s: toward its servo target at the speed the command
    /// asks for, ramped ([`RAMP_TIME`]), while the torque that takes stays within the motor's
    /// limit; past it the motor gives its limit and the joint's inertia takes the rest of the
    /// load (it sags, stalls or is knocked back, and the motor brings it back at full torque).
    fn move_joints(&mut self, loads: &JointLoads, dt: f64) {
        let wanted = self.commanded_rates(dt);
        for (j, joint) in self.spec.joints.iter().enumerate() {
            let q = self.positions[j];
            let target = (self.targets[j] + wanted[j] * dt)
                .clamp(joint.min, joint.max)
                .clamp(q - MAX_LAG, q + MAX_LAG);
            self.targets[j] = target;
            let top = joint.max_speed;
            let acceleration = top / RAMP_TIME;
            // The position loop asks for no more speed than the ramp can take off again
            // before the target (√(2·a·e)), so the ramped servo settles without overshoot.
            let error = target - q;
            let catch_up = (SERVO_GAIN * error.abs()).min((acceleration * error.abs()).sqrt());
            let ramp = acceleration * dt;
            let desired = (wanted[j] + catch_up.copysign(error))
                .clamp(-top, top)
                .clamp(self.profile[j] - ramp, self.profile[j] + ramp);
            self.profile[j] = desired;
            let (inertia, load) = (loads.inertia[j], loads.torque[j]);
            let (plus, minus) = (loads.resist_plus[j], loads.resist_minus[j]);
            // The motor also works through the friction against the way it is asked to go.
            let friction = if desired > 0.0 {
                plus
            } else if desired < 0.0 {
                -minus
            } else {
                0.0
            };
            let needed = inertia * (desired - self.rates[j]) / dt - load + friction;
            let effort = needed.clamp(-joint.max_effort, joint.max_effort);
            let free = self.rates[j] + (effort + load) / inertia * dt;
            // A back-driven gear train turns no faster than its motor's top speed.
            let rate = JointLoads::after_friction(free, inertia, plus, minus, dt).clamp(-top, top);
            let moved = q + rate * dt;
            let stopped = moved.clamp(joint.min, joint.max);
            self.rates[j] = if stopped == moved { rate } else { 0.0 };
            self.positions[j] = stopped;
            self.efforts[j] = effort;
        }
    }

    /// The fingers for one step of `dt` s: opening lets go and opens; closing keeps a held
    /// object while both pads touch it, takes one both pads touch (the pads' frame now at
    /// `pad`, body frame), and otherwise closes on.
    fn grip(
        &mut self,
        world: &mut PhysicsWorld,
        valves: &mut [ValveRig],
        hull: &Isometry3<f64>,
        pad: &Isometry3<f64>,
        dt: f64,
    ) {
        let Some(_) = self.closing else {
            // Opening on a wheel: the pads let go of it as they open.
            if let Some(hold) = self.turning.take() {
                self.letting_go = Some((hold.body, self.finger_gap));
            }
            self.release_object(world);
            let g = &self.spec.gripper;
            self.finger_gap = (self.finger_gap + 2.0 * g.finger_speed * dt).min(g.opening);
            self.clear_away(world, hull);
            return;
        };
        self.clear_away(world, hull);
        let gripper = &self.spec.gripper;
        if self.grasp.is_some_and(|g| !g.between_pads(gripper)) {
            // It slid off the pads: it falls.
            self.release(world);
        }
        if self.grasp.is_some() || self.turning.is_some() {
            return;
        }
        let g = &self.spec.gripper;
        if let Some((collider, friction)) = pressed_between(world, self.parts.fingers) {
            let friction = friction.min(g.friction);
            self.grasp = Grasp::take(world, self.hull, collider, pad, friction);
        } else if let Some((index, friction)) = pressed_valve(world, self.parts.fingers, valves) {
            let friction = friction.min(g.friction);
            let pads = hull * pad;
            let poses = part_poses(&self.spec, &self.positions, self.finger_gap);
            let fingers = [0, 1].map(|k| (hull * poses.fingers[k], self.parts.fingers[k]));
            self.turning = valves
                .get_mut(index)
                .map(|v| ValveHold::take(world, v, index, &pads, &fingers, friction));
        } else {
            self.finger_gap = (self.finger_gap - 2.0 * g.finger_speed * dt).max(2.0 * FINGER_MIN);
        }
    }

    /// A wheel or handle let go of meets the arm again once the pads have opened
    /// [`CLEAR_OPENING`] wider than when they let go and no part of the arm (on the hull at
    /// `hull`) is in it.
    fn clear_away(&mut self, world: &mut PhysicsWorld, hull: &Isometry3<f64>) {
        let Some((body, gap)) = self.letting_go else {
            return;
        };
        let g = &self.spec.gripper;
        let poses = part_poses(&self.spec, &self.positions, self.finger_gap);
        let opened = self.finger_gap >= (gap + CLEAR_OPENING).min(g.opening);
        if opened && clear_of(world, body, hull, self.parts.each(&poses)) {
            ValveRig::set_held(world, body, false);
            self.letting_go = None;
        }
    }

    /// The joint speeds the command asks for now, rad/s or m/s (before the position loop).
    fn commanded_rates(&mut self, dt: f64) -> JointVector {
        let spec = &self.spec;
        let n = spec.joints.len();
        let mut rates = [0.0; MAX_ARM_JOINTS];
        match self.command.motion {
            ArmMotion::Hold => {}
            ArmMotion::JointRates(wanted) => {
                for j in 0..n {
                    let top = spec.joints[j].max_speed;
                    rates[j] = wanted[j].clamp(-top, top);
                }
            }
            ArmMotion::JointTargets(_) => {
                // Along the planned route; on each leg all joints arrive together, at the
                // slowest joint's top speed.
                let goal = self.route.waypoint(&self.targets, n);
                let mut time = 0.0_f64;
                for (j, joint) in spec.joints.iter().enumerate() {
                    let distance = goal[j].clamp(joint.min, joint.max) - self.targets[j];
                    time = time.max(distance.abs() / joint.max_speed);
                }
                let time = time.max(dt);
                for (j, joint) in spec.joints.iter().enumerate() {
                    rates[j] = (goal[j].clamp(joint.min, joint.max) - self.targets[j]) / time;
                }
            }
            ArmMotion::ToolVelocity { velocity, frame } => {
                let v = Vector3::from(velocity);
                // The Jacobian is in the body frame: turn the velocity into it.
                let in_body = match frame {
                    ToolFrame::Body => v,
                    ToolFrame::Gripper => gripper_frame(spec, &self.positions).rotation * v,
                };
                rates = resolved_rate(spec, &self.positions, &in_body);
            }
        }
        rates
    }
}
