//! A robot's manipulator arm in the rapier world, and the joint controller that runs it in
//! stage 3 of [`Simulation::step`].
//!
//! **The model: a geared arm, rigid on its hull between steps.** The arm's links, palm and
//! finger pads are colliders on the hull body, each carrying its mass, so rapier sees one
//! rigid body: the arm's weight, what it holds and every push on it reach the hull, and the
//! tracks' loads, the centre of mass and the tip-over limits follow the arm's pose and load
//! with no bookkeeping. The joints are integrated here, in `f64`, as the geared servos of
//! real EOD arms are: each joint follows its command ([`SERVO_GAIN`]) while the torque that
//! needs stays within its [`max_effort`](crate::vehicle::arm::ArmJointSpec::max_effort);
//! past it the motor gives just its limit and the joint moves the way the load pushes it
//! (a shoulder overloaded sags, an arm driven into the floor stalls and is pushed back),
//! never faster than its top speed. The load on each joint is the weight of everything
//! outboard, the contact forces rapier put on its links in the last step, and what a held
//! object pulls with ([`loads`]). A joint move that would put a link into its own hull or belt
//! guards is refused for that step, as a real unit's collision check refuses it.
//!
//! **Why not links as rapier bodies on joints.** We built that first (links on impulse joints,
//! torque-capped motors): a chain of light links on a heavy hull needed four Gauss–Seidel
//! iterations to converge, cost 13× a bare rapier step (the issue allows 1.3×), and rolled
//! over onto its back a robot pinned its 50 g fingers between hull and ground, where rapier's
//! iterative solver did not converge and the fingers spun up until the blow-up check caught
//! them (1–2 per 17-scene soak). A rigid arm on the hull has no chain to converge. What it
//! leaves out: the reaction of the arm's own swing on the hull (its links' accelerations;
//! at the preset arms' top speeds under 2 % of the hull's weight) and a link's velocity in
//! contacts (a moving link pushes what it meets by rapier's position correction).
//!
//! **Grip.** The fingers close at their speed until both pads touch one object; it is then held
//! by a joint whose every force is bounded by Coulomb's law at the pads ([`grasp`]), so it
//! stays while 2·μ·F covers what holding it needs and slides when not.
//!
//! **Valves.** A valve's wheel both pads touch is held the same way and turns with the gripper's
//! own turn about its stem, the valve's friction loading the joints as Coulomb friction and the
//! grip bounded by the same law at the pads ([`turn`]).
//!
//! Arm colliders are in [`ARM_GROUP`] and filter it out: arms do not collide with arms, but
//! they do with the scene, objects and other robots' hulls. The terrain stays out of their
//! filter while no terrain face comes within rapier's contact reach of the box round them
//! ([`ArmRig::clear_terrain`], the hull box's test): rapier could find no contact there, and a
//! stowed arm over a flight of stairs cost a narrow phase against every tread under it.

mod control;
mod grasp;
mod loads;
mod memo;
mod parts;
mod route;
mod simulation;
mod turn;

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use rapier3d::prelude::*;

pub use grasp::grip_limit;
use grasp::{Grasp, HullMotion};
use memo::PoseMemo;
use parts::{insert_parts, part_poses, ArmParts, PartPoses};
use route::PoseRoute;
use turn::ValveHold;
pub use turn::{grip_torque, twist_about, PadLevers, SLIP_RELEASE, SLIP_SWEEP_SINK};

use super::clearance::HullClearance;
use super::valves::ValveRig;
use super::{isometry_of, pose_of, StateSnapshot};
use crate::terrain::Terrain;
use crate::vehicle::arm::kinematics::{gripper_frame, tool_point, JointVector};
use crate::vehicle::arm::{ArmCommand, ArmSpec, GripCommand, MAX_ARM_JOINTS};
use crate::vehicle::DriveCommand;

/// A gripper's hold on something that turns, as [`ArmRig::hold_on`] gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HoldOn {
    /// The rig held, by index in the simulation's turning rigs.
    pub rig: usize,
    /// The robot's hull body.
    pub hull: RigidBodyHandle,
    /// The pads' centre, m, world frame.
    pub pads: Point3<f64>,
    /// Where the pads took hold, turned and moved with what they hold, m, world frame.
    pub held: Point3<f64>,
    /// The most the grip passes on along the pads, N.
    pub limit: f64,
}

/// Collision group of every arm collider, and the one group arm colliders filter out.
pub(crate) const ARM_GROUP: Group = Group::GROUP_2;

/// Position-loop gain of the joint servos, 1/s: a joint closes 1/e of its distance to its
/// target in 50 ms.
pub const SERVO_GAIN: f64 = 20.0;
/// Farthest a joint's servo target runs ahead of the joint, rad or m.
pub const MAX_LAG: f64 = 0.1;
/// Time a joint's servo takes to reach its top speed from rest, s: real arm controllers ramp
/// their speed (trapezoidal profiles) so that a held object is not jerked out of the grip.
pub const RAMP_TIME: f64 = 0.5;

/// Share of the drive motors' top speed the tracks or wheels may run at while the arm is out
/// beyond its [`drive_reach`](crate::vehicle::arm::ArmSpec::drive_reach): real units slow
/// driving with the arm deployed, so that a lurch does not swing a load or tip the robot.
pub const ARM_OUT_SPEED_SHARE: f64 = 0.3;

/// How much wider than when they let go of a valve's wheel the pads open before they meet it
/// again, m.
const CLEAR_OPENING: f64 = 0.01;

/// Closest the finger pads come to the centre line, m (each): closed empty fingers stop 4 mm
/// apart rather than rubbing.
const FINGER_MIN: f64 = 0.002;

/// A finger's side: +1 for the left finger (gripper +y), −1 for the right.
const FINGER_SIDES: [f64; 2] = [1.0, -1.0];

/// Whether a collider is part of an arm.
pub(crate) fn is_arm_part(collider: &Collider) -> bool {
    collider.collision_groups().memberships == ARM_GROUP
}

/// The state of an arm and its gripper as the last step left it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmState {
    /// Joint positions, rad or m, in joint order.
    pub positions: JointVector,
    /// Joint speeds, rad/s or m/s.
    pub rates: JointVector,
    /// Torque (N·m) or force (N) each joint's motor gave in the last step.
    pub efforts: JointVector,
    /// The servo targets, rad or m.
    pub targets: JointVector,
    /// Gap between the finger pads, m.
    pub finger_gap: f64,
    /// Force each pad presses a held object with, N (0 when holding nothing).
    pub grip_force: f64,
    /// Whether the gripper holds an object.
    pub holding: bool,
    /// The object it holds, by index in the scene's objects.
    pub held: Option<usize>,
    /// The valve whose wheel it holds, by index in the scene's valves.
    pub turning: Option<usize>,
    /// Whether the fingers are closing (or closed) rather than opening (or open).
    pub closing: bool,
    /// The largest contact force on the arm's links, palm, fingers or held object in the last
    /// step, N: what the arm (or its load) hit the scene with.
    pub scene_force: f64,
    /// Whether the tool point is out beyond the drive reach: driving is slowed
    /// ([`ARM_OUT_SPEED_SHARE`]).
    pub reaching_out: bool,
    /// The gripper frame, world frame.
    pub gripper: Isometry3<f64>,
    /// The tool point, m, world frame.
    pub tool: Point3<f64>,
}

/// What recovery and resets put an arm back to: joint positions and the finger gap.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct ArmPosture {
    /// Joint positions, rad or m.
    pub positions: JointVector,
    /// Gap between the finger pads, m.
    pub finger_gap: f64,
}

impl ArmPosture {
    /// The arm as its file stows it, fingers open.
    pub fn initial(spec: &ArmSpec) -> Self {
        let mut positions = [0.0; MAX_ARM_JOINTS];
        for (p, j) in positions.iter_mut().zip(&spec.joints) {
            *p = j.initial;
        }
        Self {
            positions,
            finger_gap: spec.gripper.opening,
        }
    }
}

/// The box (centre, half-extents, m) round the box `parts` (centre, half-extents) and the box
/// `held` (least and greatest corners), either of which may be missing.
fn merged(
    parts: Option<(Point3<f64>, Vector3<f64>)>,
    held: Option<(Vector3<f64>, Vector3<f64>)>,
) -> Option<(Point3<f64>, Vector3<f64>)> {
    let corners = parts.map(|(c, h)| (c.coords - h, c.coords + h));
    let (lo, hi) = match (corners, held) {
        (Some((a, b)), Some((c, d))) => (a.inf(&c), b.sup(&d)),
        (Some(box_), None) | (None, Some(box_)) => box_,
        (None, None) => return None,
    };
    Some((Point3::from((lo + hi) * 0.5), (hi - lo) * 0.5))
}

/// An arm's colliders, joint state and controller.
#[derive(Debug, Clone)]
pub(crate) struct ArmRig {
    /// The arm's description (a copy of the robot file's).
    spec: ArmSpec,
    /// The hull body it is mounted on.
    hull: RigidBodyHandle,
    /// Its colliders on the hull.
    parts: ArmParts,
    /// Joint positions, rad or m.
    positions: JointVector,
    /// Joint speeds, rad/s or m/s.
    rates: JointVector,
    /// Torque or force each motor gave in the last step.
    efforts: JointVector,
    /// Servo targets, rad or m.
    targets: JointVector,
    /// The servos' ramped speed set-points, rad/s or m/s: what each motor drives its joint at
    /// while its torque allows.
    profile: JointVector,
    /// Gap between the pads, m.
    finger_gap: f64,
    /// The command in force.
    command: ArmCommand,
    /// Whether the fingers close, and with what force, N (`None`: open).
    closing: Option<f64>,
    /// The object held, if any.
    grasp: Option<Grasp>,
    /// The valve's wheel held, if any.
    turning: Option<ValveHold>,
    /// A wheel or handle just let go of, and the finger gap then (m; 0 when the pads slid off
    /// it): the arm passes through it until the pads have opened [`CLEAR_OPENING`] wider and
    /// no part of the arm is in it, so that letting go is not a knock.
    letting_go: Option<(RigidBodyHandle, f64)>,
    /// The largest contact force on the arm or its load in the last step, N.
    scene_force: f64,
    /// The route of a pose command ([`PoseRoute`]).
    route: PoseRoute,
    /// The drive command the operator gave the robot, before the interlock slows it.
    drive_command: DriveCommand,
    /// What the pose decides, kept while the arm holds it ([`PoseMemo`]; used only while it
    /// is the memo of the pose the arm has).
    memo: PoseMemo,
}

impl ArmRig {
    /// After [`ArmRig::control`]: lets rapier pair the arm's parts with the terrain only while
    /// some terrain face may come within `reach` m (rapier's contact reach) of the box round
    /// them where the joints have put them, on the hull at `hull` (body → world), tested with
    /// `clearance` as the hull box is (`clearance.rs`).
    pub(crate) fn clear_terrain(
        &mut self,
        world: &mut PhysicsWorld,
        terrain: &Terrain,
        hull: &Isometry3<f64>,
        clearance: &mut HullClearance,
        reach: f64,
    ) {
        self.pose_memo();
        let parts = self.memo.bounds(&self.parts, world);
        let held = self.grasp.and_then(|g| g.bounds(world));
        let near = merged(parts, held).is_none_or(|(centre, half)| {
            let box_pose = hull * Translation3::from(centre.coords);
            clearance.box_near(terrain, &box_pose, &half, reach)
        });
        self.set_terrain_near(world, near);
    }

    /// Lets rapier pair the arm's parts with the terrain (`near`: some terrain face may come
    /// within its contact reach of them) or not: farther off it could find no contact, so
    /// the narrow phase it would run is left out (as for the hull box, `clearance.rs`).
    pub(crate) fn set_terrain_near(&self, world: &mut PhysicsWorld, near: bool) {
        self.parts.set_terrain(world, near);
        if let Some(grasp) = &self.grasp {
            grasp.set_terrain(world, near);
        }
    }

    /// Builds the arm of `spec` on the hull body `hull` at `posture`, at rest; `friction` is
    /// the links' and palm's μ against the scene.
    pub fn insert(
        world: &mut PhysicsWorld,
        spec: &ArmSpec,
        hull: RigidBodyHandle,
        posture: &ArmPosture,
        friction: f64,
    ) -> Self {
        let gap = posture
            .finger_gap
            .clamp(2.0 * FINGER_MIN, spec.gripper.opening);
        let poses = part_poses(spec, &posture.positions, gap);
        let parts = insert_parts(world, spec, hull, &poses, friction);
        let memo = PoseMemo::with_poses(spec, &posture.positions, gap, poses);
        Self {
            spec: spec.clone(),
            hull,
            parts,
            positions: posture.positions,
            rates: [0.0; MAX_ARM_JOINTS],
            efforts: [0.0; MAX_ARM_JOINTS],
            targets: posture.positions,
            profile: [0.0; MAX_ARM_JOINTS],
            finger_gap: gap,
            command: ArmCommand::HOLD,
            closing: None,
            grasp: None,
            turning: None,
            letting_go: None,
            scene_force: 0.0,
            route: PoseRoute::default(),
            drive_command: DriveCommand::STOP,
            memo,
        }
    }

    /// The memo of the arm's pose now, made again if the pose changed since it was made.
    fn pose_memo(&mut self) -> &mut PoseMemo {
        if !self.memo.is_for(&self.positions, self.finger_gap) {
            self.memo = PoseMemo::new(&self.spec, &self.positions, self.finger_gap);
        }
        &mut self.memo
    }

    /// The arm's colliders: links, palm, then the left and right fingers.
    pub fn colliders(&self) -> impl Iterator<Item = ColliderHandle> + '_ {
        let p = &self.parts;
        p.links.iter().copied().chain([p.palm]).chain(p.fingers)
    }

    /// Sets the command; a command with a non-finite number holds instead.
    pub fn set_command(&mut self, command: ArmCommand) {
        self.command = if command.is_finite() {
            command
        } else {
            ArmCommand::HOLD
        };
        match self.command.grip {
            GripCommand::Keep => {}
            GripCommand::Open => self.closing = None,
            GripCommand::Close(force) => self.closing = Some(force.max(0.0)),
        }
    }

    /// Keeps the operator's drive command for the interlock.
    pub fn set_drive_command(&mut self, command: DriveCommand) {
        self.drive_command = command;
    }

    /// The command in force.
    pub fn command(&self) -> ArmCommand {
        self.command
    }

    /// Stops every joint where it is (the servo targets at the joints' positions) and opens
    /// nothing: what a halt, a reset or a recovery leaves.
    pub fn halt(&mut self) {
        self.targets = self.positions;
        self.rates = [0.0; MAX_ARM_JOINTS];
        self.profile = [0.0; MAX_ARM_JOINTS];
        self.command = ArmCommand::HOLD;
        self.drive_command = DriveCommand::STOP;
    }

    /// Puts the arm at `posture`, at rest, targets there, letting go of what it held.
    pub fn place(&mut self, world: &mut PhysicsWorld, posture: &ArmPosture) {
        self.release(world);
        self.positions = posture.positions;
        self.finger_gap = posture
            .finger_gap
            .clamp(2.0 * FINGER_MIN, self.spec.gripper.opening);
        self.halt();
        let poses = part_poses(&self.spec, &self.positions, self.finger_gap);
        self.place_parts(world, &poses);
    }

    /// Lets go of a held object or valve.
    pub fn release(&mut self, world: &mut PhysicsWorld) {
        if let Some(hold) = self.turning.take() {
            hold.release(world);
        }
        if let Some((body, _)) = self.letting_go.take() {
            ValveRig::set_held(world, body, false);
        }
        self.release_object(world);
    }

    /// Lets go of a held object.
    fn release_object(&mut self, world: &mut PhysicsWorld) {
        let Some(grasp) = self.grasp.take() else {
            return;
        };
        if let Some(hull) = HullMotion::of(world, self.hull) {
            let pad = part_poses(&self.spec, &self.positions, self.finger_gap).pad;
            grasp.release(world, &hull, &pad);
        }
    }

    /// The arm's posture now (for recovery snapshots).
    pub fn posture(&self) -> ArmPosture {
        ArmPosture {
            positions: self.positions,
            finger_gap: self.finger_gap,
        }
    }

    /// The arm's state, its frames placed on the hull where the world has it.
    pub fn read(&self, world: &PhysicsWorld) -> ArmState {
        let hull = world
            .bodies
            .get(self.hull)
            .map_or(Isometry3::identity(), |b| isometry_of(b.position()));
        let gripper = hull * gripper_frame(&self.spec, &self.positions);
        ArmState {
            positions: self.positions,
            rates: self.rates,
            efforts: self.efforts,
            targets: self.targets,
            finger_gap: self.finger_gap,
            grip_force: match (self.grasp.is_some() || self.turning.is_some(), self.closing) {
                (true, Some(force)) => force.min(self.spec.gripper.max_force),
                _ => 0.0,
            },
            holding: self.grasp.is_some(),
            held: None,
            turning: self.turning(),
            closing: self.closing.is_some(),
            scene_force: self.scene_force,
            reaching_out: self.reaches_out(),
            gripper,
            tool: gripper * self.spec.gripper.tool_point(),
        }
    }

    /// The valve whose wheel the gripper holds, by index in the scene's valves.
    pub fn turning(&self) -> Option<usize> {
        self.turning.map(|t| t.valve)
    }

    /// The held valve's hold and the valve, if the gripper holds one.
    fn held_valve<'v>(&self, valves: &'v [ValveRig]) -> Option<(ValveHold, &'v ValveRig)> {
        let hold = self.turning?;
        Some((hold, valves.get(hold.valve)?))
    }

    /// How the gripper holds a handle on a door's leaf, for the leaf's pull
    /// (`sim/doors.rs`): the rig it holds (index in `valves`), the pads' centre now and where
    /// they took hold as it is now (world, m), and the most the grip passes on along the pads
    /// by Coulomb's law (2·μ·F, N).
    pub fn hold_on(&self, valves: &[ValveRig]) -> Option<HoldOn> {
        let (hold, valve) = self.held_valve(valves)?;
        let force = self.closing.unwrap_or(0.0).min(self.spec.gripper.max_force);
        Some(HoldOn {
            rig: hold.valve,
            hull: self.hull,
            pads: hold.pads,
            held: hold.held_point(valve),
            limit: grip_limit(force, hold.friction),
        })
    }

    /// Whether the tool point is farther than the drive reach from the mount, horizontally.
    pub fn reaches_out(&self) -> bool {
        if self.memo.is_for(&self.positions, self.finger_gap) {
            return self.memo.reaches_out;
        }
        let tool = tool_point(&self.spec, &self.positions);
        (tool - self.spec.mount).xy().norm() > self.spec.drive_reach
    }

    /// The drive command `command` through the interlock: while the arm reaches out, each
    /// side's speed is held to [`ARM_OUT_SPEED_SHARE`] of `top_speed` (m/s), turning kept.
    pub fn interlocked(&self, command: DriveCommand, top_speed: f64) -> DriveCommand {
        let fastest = command.left.abs().max(command.right.abs());
        let cap = ARM_OUT_SPEED_SHARE * top_speed;
        if !self.reaches_out() || fastest <= cap {
            return command;
        }
        let k = cap / fastest;
        DriveCommand {
            left: command.left * k,
            right: command.right * k,
            ..command
        }
    }

    /// Moves the arm's colliders to `poses` on the hull.
    fn place_parts(&self, world: &mut PhysicsWorld, poses: &PartPoses) {
        for (handle, _, pose) in self.parts.each(poses) {
            if let Some(c) = world.colliders.get_mut(handle) {
                c.set_position_wrt_parent(pose_of(pose));
            }
        }
    }

    /// Why the arm's state is broken, if it is: a non-finite joint position or speed.
    pub fn blow_up_reason(&self) -> Option<String> {
        let finite = self
            .positions
            .iter()
            .chain(&self.rates)
            .chain([&self.finger_gap])
            .all(|x| x.is_finite());
        (!finite).then(|| "arm: a joint's position or speed is not finite".to_string())
    }

    /// Adds the arm's state to a snapshot: joint positions, speeds, efforts and targets, the
    /// finger gap, the grip command and the held object's body (−1: none).
    fn capture(&self, prefix: &str, out: &mut StateSnapshot) {
        out.push_all(&format!("{prefix}.arm_position"), self.positions);
        out.push_all(&format!("{prefix}.arm_rate"), self.rates);
        out.push_all(&format!("{prefix}.arm_effort"), self.efforts);
        out.push_all(&format!("{prefix}.arm_target"), self.targets);
        out.push_all(&format!("{prefix}.arm_profile"), self.profile);
        out.push(format!("{prefix}.arm_gap"), self.finger_gap);
        out.push(
            format!("{prefix}.arm_closing"),
            self.closing.unwrap_or(-1.0),
        );
        let held = self
            .grasp
            .map_or(-1.0, |g| g.object.into_raw_parts().0 as f64);
        out.push(format!("{prefix}.arm_held"), held);
        if let Some(g) = &self.grasp {
            out.push_all(&format!("{prefix}.arm_slid"), g.slide_state());
        }
        if let Some(t) = &self.turning {
            out.push(format!("{prefix}.arm_valve"), t.valve as f64);
            out.push_all(&format!("{prefix}.arm_valve_hold"), t.state());
        }
        if let Some((_, gap)) = self.letting_go {
            out.push(format!("{prefix}.arm_letting_go"), gap);
        }
    }
}
