//! A robot's manipulator arm in the rapier world: each link a dynamic body on an impulse
//! joint to its parent (the hull for the first), the gripper's palm on the last link and its
//! two fingers on prismatic joints, and the servo controller that turns an [`ArmCommand`]
//! into joint motor targets every step (stage 3 of [`Simulation::step`]).
//!
//! **Why impulse joints, not rapier's multibodies.** The hull stays the ordinary rigid body
//! the track model pushes; the arm's weight, its payload and every reaction reach the hull
//! through the joint constraints, so the tracks' loads, the centre of mass and the tip-over
//! limits follow the arm's pose and load without any bookkeeping of ours. Each link is an
//! ordinary body that recovery, teleports and resets can place directly, and rapier's open
//! issue #656 (a multibody link that does not react to angular momentum changes) cannot bite
//! an arm on a pitching hull. The price is joint drift, which the solver keeps to fractions
//! of a millimetre at our step (tested).
//!
//! **Joint servos.** Each joint's motor is a velocity motor with rapier's hard setting (a
//! damping so large the velocity constraint is met exactly) whose force is capped at the
//! joint's [`max_effort`](crate::vehicle::arm::ArmJointSpec::max_effort): like a geared
//! servo it holds any load below that torque without sag and sags or stalls above it,
//! never exceeding it. The commanded velocity is the operator's rate plus a position loop
//! on the servo target ([`SERVO_GAIN`]); the target never runs more than [`MAX_LAG`] ahead
//! of a stalled joint, so a joint that frees itself does not leap.
//!
//! **Grip.** Each finger's motor closes at the gripper's finger speed with its force capped
//! at the commanded grip force: pressed against an object the motor saturates and the pad
//! presses with exactly that force, N. What holds the object is rapier's Coulomb friction at
//! the pads (μ = the lower of the pad's and the object's), so an object stays while
//! 2·μ·F ≥ the force holding it needs and slips when not — no attachment, no teleport.
//!
//! Arm colliders are in [`ARM_GROUP`] and filter it out: arms do not collide with arms (a
//! chain's neighbours share a joint; a wrist's short links overlap by design), but they do
//! with the scene, objects, their own hull and belt guards, and other robots' hulls.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use rapier3d::prelude::*;

use super::state::body_values;
use super::{isometry_of, pose_of, v32, v64, RobotId, Simulation, StateSnapshot};
use crate::vehicle::arm::kinematics::{gripper_frame, link_frames, resolved_rate, JointVector};
use crate::vehicle::arm::{
    ArmCommand, ArmMotion, ArmSpec, GripCommand, GripperSpec, JointKind, ToolFrame, MAX_ARM_JOINTS,
};

/// Collision group of every arm collider, and the one group arm colliders filter out.
pub(crate) const ARM_GROUP: Group = Group::GROUP_2;

/// Position-loop gain of the joint servos, 1/s: a joint closes 1/e of its distance to its
/// target in 50 ms.
pub const SERVO_GAIN: f64 = 20.0;
/// Integral gain of the joint servos, 1/s²: rapier's iterative solver leaves a small steady
/// velocity error under load (a loaded shoulder settled 0.5° below its target with the
/// position loop alone); the integral takes it out within about a second.
pub const SERVO_INTEGRAL_GAIN: f64 = 60.0;
/// The integral term's share of a joint's top speed, at most.
const INTEGRAL_SHARE: f64 = 0.2;
/// Farthest a joint's servo target runs ahead of the joint, rad or m.
pub const MAX_LAG: f64 = 0.1;
/// Motor damping of rapier's velocity motors: large enough that the velocity constraint is
/// met exactly (rapier's softness term 1/(dt·damping) ≈ 5e-4 at 2 ms) until the force cap.
const HARD_MOTOR: f32 = 1.0e6;
/// rapier's Gauss–Seidel iterations per substep in a world with an arm (its default is 1).
/// An arm is a chain of light links on a heavy hull, and an impulse propagates one joint per
/// iteration: with 1, commanding one joint at 0.2 rad/s dragged its neighbours at up to
/// 0.06 rad/s and a loaded shoulder did not follow its command at all; with 4 the cross-talk
/// is at most 0.03 rad/s while a joint moves and nothing drifts at rest (the position loop
/// takes up the rest). Worlds without arms keep rapier's default, bit for bit.
pub const ARM_SOLVER_ITERATIONS: usize = 4;

/// Natural frequency of rapier's soft contacts between moving bodies in a world with an arm,
/// Hz (rapier's default is 30). rapier's contact stiffness scales with the bodies' masses: at
/// 30 Hz the 50 g fingers of a 20 N grip sank 15 mm into the object they held (and passed
/// through a 6 cm box at 40 N); at 300 Hz they sink 0.3 mm. Contacts with the fixed scene
/// keep rapier's own (stiffer) setting.
pub const ARM_CONTACT_FREQUENCY: f32 = 300.0;

/// Sets the solver iterations and contact stiffness a world with an arm needs
/// ([`ARM_SOLVER_ITERATIONS`], [`ARM_CONTACT_FREQUENCY`]).
fn converge_chains(world: &mut PhysicsWorld) {
    let parameters = &mut world.integration_parameters;
    parameters.num_internal_pgs_iterations = parameters
        .num_internal_pgs_iterations
        .max(ARM_SOLVER_ITERATIONS);
    parameters.contact_softness.natural_frequency = ARM_CONTACT_FREQUENCY;
}

/// Closest the finger pads come to the centre line, m (each): closed empty fingers stop 4 mm
/// apart rather than rubbing.
const FINGER_MIN: f64 = 0.002;

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
    /// Mean force of the two finger motors, N (the grip force on a held object).
    pub grip_force: f64,
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

/// An arm's rapier handles and its controller's state.
#[derive(Debug, Clone)]
pub(crate) struct ArmRig {
    /// The arm's description (a copy of the robot file's).
    spec: ArmSpec,
    /// The hull body it is mounted on.
    hull: RigidBodyHandle,
    /// One body per joint's link.
    links: Vec<RigidBodyHandle>,
    /// The joint of each link to its parent.
    joints: Vec<ImpulseJointHandle>,
    /// Left (+y) and right finger bodies.
    fingers: [RigidBodyHandle; 2],
    finger_joints: [ImpulseJointHandle; 2],
    /// Servo targets, rad or m.
    targets: JointVector,
    /// The servos' integral terms, rad/s or m/s.
    integral: JointVector,
    /// The command in force.
    command: ArmCommand,
    /// Whether the fingers close, and with what force, N (`None`: open).
    closing: Option<f64>,
}

/// A finger's side: +1 for the left finger (gripper +y), −1 for the right.
const FINGER_SIDES: [f64; 2] = [1.0, -1.0];

/// The pad-centre point on the gripper's centre line, m, last link's frame.
fn finger_anchor(spec: &ArmSpec) -> Vector3<f64> {
    let last = &spec.joints[spec.joints.len() - 1].link;
    last.end
        + Vector3::new(
            spec.gripper.palm_length + 0.5 * spec.gripper.pad[0],
            0.0,
            0.0,
        )
}

fn arm_collider(shape: ColliderBuilder, friction: f64, mass: f64) -> ColliderBuilder {
    shape
        .mass(mass as f32)
        .friction(friction as f32)
        .restitution(0.0)
        .collision_groups(InteractionGroups::new(
            ARM_GROUP,
            Group::ALL.difference(ARM_GROUP),
            InteractionTestMode::And,
        ))
}

fn dynamic_body(world: &mut PhysicsWorld, pose: &Isometry3<f64>) -> RigidBodyHandle {
    world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .pose(pose_of(pose))
            .can_sleep(false)
            .build(),
    )
}

/// The world poses of every link and of both fingers of an arm at `posture` on a hull at
/// `hull`.
fn posed_bodies(
    spec: &ArmSpec,
    hull: &Isometry3<f64>,
    posture: &ArmPosture,
) -> ([Isometry3<f64>; MAX_ARM_JOINTS], [Isometry3<f64>; 2]) {
    let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
    link_frames(spec, &posture.positions, &mut frames);
    for f in frames.iter_mut().take(spec.joints.len()) {
        *f = hull * *f;
    }
    let last = frames[spec.joints.len() - 1];
    let half_gap = (0.5 * posture.finger_gap).clamp(FINGER_MIN, 0.5 * spec.gripper.opening);
    let fingers = FINGER_SIDES.map(|side| {
        last * Translation3::from(finger_anchor(spec) + Vector3::y() * (side * half_gap))
    });
    (frames, fingers)
}

impl ArmRig {
    /// Builds the arm of `spec` on the hull body `hull` (now at `hull_pose`) at `posture`,
    /// at rest, and gives the world the solver settings an arm needs
    /// ([`ARM_SOLVER_ITERATIONS`], [`ARM_CONTACT_FREQUENCY`]); `friction` is the links' and
    /// palm's μ against the scene.
    pub fn insert(
        world: &mut PhysicsWorld,
        spec: &ArmSpec,
        hull: RigidBodyHandle,
        hull_pose: &Isometry3<f64>,
        posture: &ArmPosture,
        friction: f64,
    ) -> Self {
        converge_chains(world);
        let (frames, finger_poses) = posed_bodies(spec, hull_pose, posture);
        let mut links = Vec::with_capacity(spec.joints.len());
        let mut joints = Vec::with_capacity(spec.joints.len());
        let (mut parent, mut anchor) = (hull, spec.mount.coords);
        for (j, joint) in spec.joints.iter().enumerate() {
            let body = dynamic_body(world, &frames[j]);
            let shape = if joint.link.end.norm() < 1e-6 {
                ColliderBuilder::ball(joint.link.radius as f32)
            } else {
                ColliderBuilder::capsule_from_endpoints(
                    Vector::ZERO,
                    v32(&joint.link.end),
                    joint.link.radius as f32,
                )
            };
            let collider = arm_collider(shape, friction, joint.link.mass).build();
            world
                .colliders
                .insert_with_parent(collider, body, &mut world.bodies);
            let (locked, free) = joint_axes(joint.kind);
            let data = GenericJointBuilder::new(locked)
                .local_axis1(v32(&joint.axis))
                .local_axis2(v32(&joint.axis))
                .local_anchor1(v32(&anchor))
                .local_anchor2(Vector::ZERO)
                .contacts_enabled(false)
                .limits(free, [joint.min as f32, joint.max as f32])
                .motor_velocity(free, 0.0, HARD_MOTOR)
                .motor_max_force(free, joint.max_effort as f32)
                .build();
            joints.push(world.impulse_joints.insert(parent, body, data, true));
            links.push(body);
            parent = body;
            anchor = joint.link.end;
        }
        let last = parent;
        insert_palm(world, spec, last, friction);
        let fingers =
            [0, 1].map(|i| insert_finger(world, &spec.gripper, &finger_poses[i], FINGER_SIDES[i]));
        let finger_joints = [0, 1].map(|i| {
            let data = PrismaticJointBuilder::new(v32(&(Vector3::y() * FINGER_SIDES[i])))
                .local_anchor1(v32(&finger_anchor(spec)))
                .local_anchor2(Vector::ZERO)
                .contacts_enabled(false)
                .limits([FINGER_MIN as f32, (0.5 * spec.gripper.opening) as f32])
                .motor_velocity(0.0, HARD_MOTOR)
                .motor_max_force(spec.gripper.max_force as f32)
                .build();
            world.impulse_joints.insert(last, fingers[i], data, true)
        });
        Self {
            spec: spec.clone(),
            hull,
            links,
            joints,
            fingers,
            finger_joints,
            targets: posture.positions,
            integral: [0.0; MAX_ARM_JOINTS],
            command: ArmCommand::HOLD,
            closing: None,
        }
    }

    /// Removes the arm's bodies, colliders and joints from `world`.
    pub fn remove(&self, world: &mut PhysicsWorld) {
        for body in self.bodies() {
            world.remove_body(body);
        }
    }

    /// Every body of the arm: links, then fingers.
    pub fn bodies(&self) -> impl Iterator<Item = RigidBodyHandle> + '_ {
        self.links.iter().chain(&self.fingers).copied()
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

    /// The command in force.
    pub fn command(&self) -> ArmCommand {
        self.command
    }

    /// Stops every joint where it is (the servo targets at the joints' positions) and opens
    /// nothing: what a halt, a reset or a recovery leaves.
    pub fn halt(&mut self, world: &PhysicsWorld) {
        let state = self.read(world, 1.0);
        self.targets = state.positions;
        self.integral = [0.0; MAX_ARM_JOINTS];
        self.command = ArmCommand::HOLD;
    }

    /// Puts the arm at `posture` on a hull now at `hull_pose`, at rest, targets there.
    pub fn place(
        &mut self,
        world: &mut PhysicsWorld,
        hull_pose: &Isometry3<f64>,
        posture: &ArmPosture,
    ) {
        let (frames, fingers) = posed_bodies(&self.spec, hull_pose, posture);
        let poses = frames.iter().take(self.links.len()).chain(&fingers);
        for (handle, pose) in self.bodies().zip(poses) {
            if let Some(body) = world.bodies.get_mut(handle) {
                body.set_position(pose_of(pose), true);
                body.set_linvel(Vector::ZERO, true);
                body.set_angvel(Vector::ZERO, true);
            }
        }
        self.targets = posture.positions;
        self.integral = [0.0; MAX_ARM_JOINTS];
        self.command = ArmCommand::HOLD;
    }

    /// The arm's posture now (for recovery snapshots).
    pub fn posture(&self, world: &PhysicsWorld) -> ArmPosture {
        let state = self.read(world, 1.0);
        ArmPosture {
            positions: state.positions,
            finger_gap: state.finger_gap,
        }
    }

    /// Reads joint positions, speeds and motor efforts, the fingers and the tool from the
    /// world; `dt` is the last step's length, s (efforts are its motor impulses over it).
    pub fn read(&self, world: &PhysicsWorld, dt: f64) -> ArmState {
        let (spec, hull) = (&self.spec, self.hull);
        let mut state = ArmState {
            targets: self.targets,
            ..ArmState::default()
        };
        let pose_of_body =
            |h: RigidBodyHandle| world.bodies.get(h).map(|b| (isometry_of(b.position()), b));
        let Some((mut parent_pose, mut parent)) = pose_of_body(hull) else {
            return state;
        };
        // rapier solves a step in substeps; a motor's impulse is that of the last one.
        let substep = dt / world.integration_parameters.num_solver_iterations.max(1) as f64;
        let mut anchor = spec.mount.coords;
        for (j, joint) in spec.joints.iter().enumerate() {
            let Some((pose, body)) = pose_of_body(self.links[j]) else {
                return state;
            };
            let joint_origin = parent_pose * Translation3::from(anchor);
            let motion = joint_origin.inverse() * pose;
            let axis_world = joint_origin.rotation * joint.axis.into_inner();
            let (position, rate) = match joint.kind {
                JointKind::Revolute => {
                    let q = motion.rotation.quaternion();
                    let s = q.imag().dot(&joint.axis);
                    let angle = 2.0 * s.atan2(q.w);
                    let wrapped = (angle + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                        - std::f64::consts::PI;
                    let rate = (v64(body.angvel()) - v64(parent.angvel())).dot(&axis_world);
                    (wrapped, rate)
                }
                JointKind::Prismatic => {
                    let slide = motion.translation.vector.dot(&joint.axis);
                    let origin = Point3::from(pose.translation.vector);
                    let carried = parent.velocity_at_point(v32(&origin.coords));
                    let rate = (v64(body.linvel()) - v64(carried)).dot(&axis_world);
                    (slide, rate)
                }
            };
            state.positions[j] = position;
            state.rates[j] = rate;
            state.efforts[j] =
                motor_impulse(world, self.joints[j], joint_axes(joint.kind).1) / substep;
            parent_pose = pose;
            parent = body;
            anchor = joint.link.end;
        }
        let gripper = parent_pose * Translation3::from(anchor);
        state.gripper = gripper;
        state.tool = gripper * spec.gripper.tool_point();
        let pad_centre = parent_pose * Point3::from(finger_anchor(spec));
        let mut force = 0.0;
        let fingers = self
            .fingers
            .iter()
            .zip(&self.finger_joints)
            .zip(FINGER_SIDES);
        for ((finger, joint), side) in fingers {
            if let Some((pose, _)) = pose_of_body(*finger) {
                let out = parent_pose.rotation * (Vector3::y() * side);
                state.finger_gap += (Point3::from(pose.translation.vector) - pad_centre).dot(&out);
            }
            force += motor_impulse(world, *joint, JointAxis::LinX).abs() / substep;
        }
        state.grip_force = 0.5 * force;
        state
    }

    /// Stage 3 for the arm: moves the servo targets by the command and sets every motor.
    pub fn control(&mut self, world: &mut PhysicsWorld, dt: f64) {
        let state = self.read(world, dt);
        let rates = self.commanded_rates(&state, dt);
        for (j, joint) in self.spec.joints.iter().enumerate() {
            let q = state.positions[j];
            let target = (self.targets[j] + rates[j] * dt)
                .clamp(joint.min, joint.max)
                .clamp(q - MAX_LAG, q + MAX_LAG);
            self.targets[j] = target;
            let bound = INTEGRAL_SHARE * joint.max_speed;
            self.integral[j] =
                (self.integral[j] + SERVO_INTEGRAL_GAIN * (target - q) * dt).clamp(-bound, bound);
            let velocity = (rates[j] + SERVO_GAIN * (target - q) + self.integral[j])
                .clamp(-joint.max_speed, joint.max_speed);
            let (_, axis) = joint_axes(joint.kind);
            if let Some(j) = world.impulse_joints.get_mut(self.joints[j], false) {
                j.data.set_motor_velocity(axis, velocity as f32, HARD_MOTOR);
            }
        }
        let gripper = &self.spec.gripper;
        let (speed, force) = match self.closing {
            Some(force) => (-gripper.finger_speed, force.min(gripper.max_force)),
            None => (gripper.finger_speed, gripper.max_force),
        };
        for handle in self.finger_joints {
            if let Some(j) = world.impulse_joints.get_mut(handle, false) {
                j.data
                    .set_motor_velocity(JointAxis::LinX, speed as f32, HARD_MOTOR)
                    .set_motor_max_force(JointAxis::LinX, force as f32);
            }
        }
    }

    /// The joint speeds the command asks for now, rad/s or m/s (before the position loop).
    fn commanded_rates(&self, state: &ArmState, dt: f64) -> JointVector {
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
            ArmMotion::JointTargets(goal) => {
                // All joints arrive together, at the slowest joint's top speed.
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
                    ToolFrame::Gripper => gripper_frame(spec, &state.positions).rotation * v,
                };
                rates = resolved_rate(spec, &state.positions, &in_body);
            }
        }
        rates
    }

    /// Why the arm blew up, if it did: a non-finite or runaway body.
    pub fn blow_up_reason(
        &self,
        world: &PhysicsWorld,
        max_speed: f64,
        max_spin: f64,
    ) -> Option<String> {
        let names = self
            .spec
            .joints
            .iter()
            .map(|j| j.name.as_str())
            .chain(["left finger", "right finger"]);
        for (handle, name) in self.bodies().zip(names) {
            let Some(body) = world.bodies.get(handle) else {
                continue;
            };
            let pose = isometry_of(body.position());
            let (v, w) = (v64(body.linvel()), v64(body.angvel()));
            let finite = pose.translation.vector.iter().all(|x| x.is_finite())
                && pose.rotation.coords.iter().all(|x| x.is_finite())
                && v.iter().chain(w.iter()).all(|x| x.is_finite());
            if !finite {
                return Some(format!("arm: {name} has a non-finite pose or velocity"));
            }
            if v.norm() > max_speed {
                return Some(format!("arm: {name} moves at {:.1} m/s", v.norm()));
            }
            if w.norm() > max_spin {
                return Some(format!("arm: {name} spins at {:.1} rad/s", w.norm()));
            }
        }
        None
    }
}

/// A joint's locked axes and its free (motor) axis, as rapier's revolute and prismatic
/// builders set them: every axis but the free one locked, the joint's axis as both frames' x.
fn joint_axes(kind: JointKind) -> (JointAxesMask, JointAxis) {
    match kind {
        JointKind::Revolute => (JointAxesMask::LOCKED_REVOLUTE_AXES, JointAxis::AngX),
        JointKind::Prismatic => (JointAxesMask::LOCKED_PRISMATIC_AXES, JointAxis::LinX),
    }
}

/// The last step's impulse of a joint's motor on its free `axis`, N·s or N·m·s.
fn motor_impulse(world: &PhysicsWorld, handle: ImpulseJointHandle, axis: JointAxis) -> f64 {
    world
        .impulse_joints
        .get(handle)
        .and_then(|j| j.data.motor(axis))
        .map_or(0.0, |m| m.impulse as f64)
}

/// The palm: a box on the last link from its end to the fingers' base, as wide as the full
/// opening plus the fingers.
fn insert_palm(world: &mut PhysicsWorld, spec: &ArmSpec, last: RigidBodyHandle, friction: f64) {
    let g = &spec.gripper;
    let end = spec.joints[spec.joints.len() - 1].link.end;
    let half = Vector3::new(
        0.5 * g.palm_length,
        0.5 * g.opening + g.finger_thickness(),
        0.5 * g.pad[1],
    );
    let collider = arm_collider(
        ColliderBuilder::cuboid(half.x as f32, half.y as f32, half.z as f32)
            .translation(v32(&(end + Vector3::x() * half.x))),
        friction,
        g.palm_mass,
    )
    .build();
    world
        .colliders
        .insert_with_parent(collider, last, &mut world.bodies);
}

/// One finger at `pose`, on `side` (+1 left, −1 right): a pad plate whose body origin is
/// the pad's inner face centre, the plate lying outward of it.
fn insert_finger(
    world: &mut PhysicsWorld,
    gripper: &GripperSpec,
    pose: &Isometry3<f64>,
    side: f64,
) -> RigidBodyHandle {
    let body = dynamic_body(world, pose);
    let t = gripper.finger_thickness();
    let collider = arm_collider(
        ColliderBuilder::cuboid(
            (0.5 * gripper.pad[0]) as f32,
            (0.5 * t) as f32,
            (0.5 * gripper.pad[1]) as f32,
        )
        .translation(Vector::new(0.0, (0.5 * t * side) as f32, 0.0)),
        gripper.friction,
        gripper.finger_mass,
    )
    .friction_combine_rule(CoefficientCombineRule::Min)
    .build();
    world
        .colliders
        .insert_with_parent(collider, body, &mut world.bodies);
    body
}

impl Simulation {
    /// Sets robot `id`'s arm command; it holds until changed. A halted robot's arm
    /// ([`crate::sim::RobotStatus::is_halted`]) ignores it and holds; a robot without an arm
    /// ignores it.
    pub fn set_arm_command(&mut self, id: RobotId, command: ArmCommand) {
        if let Some(r) = self.robots.get_mut(id.0) {
            if let Some(rig) = r.arm.as_mut().filter(|_| !r.status.is_halted()) {
                rig.set_command(command);
            }
        }
    }

    /// Robot `id`'s arm as the last step left it (`None`: no arm).
    pub fn arm_state(&self, id: RobotId) -> Option<ArmState> {
        let r = self.robots.get(id.0)?;
        Some(r.arm.as_ref()?.read(&self.world, self.config.dt))
    }

    /// Puts robot `id`'s arm at joint positions `positions` (rad or m, joint order; clamped to
    /// the limits) with the finger pads `finger_gap` m apart, at rest, holding there (for
    /// tests, tools and the envelope). No effect without an arm.
    pub fn pose_arm(&mut self, id: RobotId, positions: &[f64], finger_gap: f64) {
        let Some(r) = self.robots.get_mut(id.0) else {
            return;
        };
        let Some(rig) = r.arm.as_mut() else {
            return;
        };
        let Some(hull) = self.world.bodies.get(r.body) else {
            return;
        };
        let hull_pose = isometry_of(hull.position());
        let mut posture = ArmPosture {
            positions: [0.0; MAX_ARM_JOINTS],
            finger_gap,
        };
        for ((p, q), joint) in posture
            .positions
            .iter_mut()
            .zip(positions)
            .zip(&rig.spec.joints)
        {
            *p = q.clamp(joint.min, joint.max);
        }
        rig.place(&mut self.world, &hull_pose, &posture);
    }

    /// Robot `id`'s arm command in force (`None`: no arm).
    pub fn arm_command(&self, id: RobotId) -> Option<ArmCommand> {
        Some(self.robots.get(id.0)?.arm.as_ref()?.command())
    }

    /// The rapier bodies of robot `id`'s arm, links then the two fingers (empty: no arm), for
    /// the viewer.
    pub fn arm_bodies(&self, id: RobotId) -> Vec<RigidBodyHandle> {
        self.robots
            .get(id.0)
            .and_then(|r| r.arm.as_ref())
            .map(|rig| rig.bodies().collect())
            .unwrap_or_default()
    }

    /// Adds robot `id`'s arm to a state snapshot: every arm body's pose and velocities as
    /// rapier stores them, the servo targets (rad or m) and whether the fingers close.
    pub(super) fn capture_arm(&self, id: RobotId, prefix: &str, out: &mut StateSnapshot) {
        let Some(rig) = self.robots[id.0].arm.as_ref() else {
            return;
        };
        for (k, handle) in rig.bodies().enumerate() {
            let Some(body) = self.world.bodies.get(handle) else {
                continue;
            };
            out.push_all(&format!("{prefix}.arm_body{k}"), body_values(body));
        }
        out.push_all(&format!("{prefix}.arm_target"), rig.targets.iter().copied());
        out.push(format!("{prefix}.arm_closing"), rig.closing.unwrap_or(-1.0));
    }
}
