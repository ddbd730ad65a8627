//! The simulated world: the scene's terrain as a rapier collider, the robots' hulls as rapier
//! bodies driven by the track model, a fixed step, scene bounds and falls, blow-up recovery,
//! and telemetry.
//!
//! [`Simulation::step`] runs these stages, in this order, every step:
//! 1. **Read** each robot's hull state from rapier (pose, centre of mass, velocities). A robot
//!    frozen by an out-of-bounds or fall-out event skips stages 1–3.
//!    An armed robot's drive command passes the arm interlock: slowed while the arm reaches
//!    out beyond its drive reach (`arm/`).
//! 2. **Drive train** per robot ([`Drivetrain::step`]): for tracks ([`crate::vehicle::TrackedRobot::step`]) move flippers toward their targets
//!    (torque-limited motors loaded by the last step's flipper contacts),
//!    cut the terrain with every track plane, compute wheel and run loads, update belt speeds
//!    implicitly against the ground's friction, finish stick–slip friction.
//! 3. **Apply** the resulting wrench to the hull in place of the last step's (rapier forces
//!    persist; set without rapier rebuilding its solver caches, `hull::apply_wrench`), turn
//!    the flippers' side guards to the new flipper angles, and let the hull box collide
//!    with the terrain only while some terrain face comes within rapier's contact reach of
//!    it (`clearance.rs`, tested in stage 2; rapier could find no contact otherwise),
//!    and switch it off while neither terrain nor another robot, mover or object can reach it
//!    (`proximity.rs`). An arm's joints answer their loads and command, its fingers close,
//!    grasp or open, a valve's wheel it holds turns with it (`valves.rs`), and its colliders
//!    on the hull move to the new pose (`arm/`).
//! 4. **Integrate**: one rapier step (gravity; the hull collider's contacts and the belts'
//!    side guards' lateral contacts with the terrain mesh, `hull.rs`; integration), a held
//!    object's resting body moved to where its collider went, and advance time.
//! 5. **Check** every robot for a blow-up (non-finite or runaway state of its hull or arm).
//!    A robot that blew up is put back, at rest and with its command stopped, to its newest
//!    snapshot that is at least one snapshot interval old (never one taken just before the
//!    blow-up); the
//!    [`SimConfig::escalate_after`]-th blow-up within [`SimConfig::escalate_window`] s resets
//!    it to its spawn instead ([`SimEvent::Reset`], once), and a robot that keeps blowing up
//!    after such a reset is disabled ([`SimEvent::Disabled`]) rather than looped.
//! 6. **Bounds and falls**: a robot whose centre of mass leaves the scene's
//!    [`SceneBounds`](crate::scene::SceneBounds) rectangle, or sinks more than
//!    [`SimConfig::fall_below`] below the lowest terrain, is frozen where it is
//!    ([`SimEvent::OutOfBounds`] / [`SimEvent::Fell`]); one that drops more than
//!    [`SimConfig::fall_height`] while falling (off a landing) is stopped
//!    ([`SimEvent::Fell`]) but still moves, so it can still leave the bounds or the scene
//!    (one more event, and frozen). Either way it ignores commands until
//!    [`Simulation::reset_robot`] ([`Simulation::robot_status`]). Each event is emitted once.
//! 7. **Snapshot** good states for recovery every [`SimConfig::snapshot_period`]:
//!    only of an active robot, calm (below half the blow-up speed and spin) and not falling
//!    (tracks carrying half the weight, or sinking slower than
//!    [`SimConfig::falling_speed`]); otherwise the snapshot waits for the next good step.
//!
//! Everything runs in a fixed order, so the same inputs give the same outputs bit for bit.
//! Stage 2 alone runs on rayon's threads when a scene holds several robots
//! (four or more): each robot's drive-train step reads only that robot's state and the
//! terrain and writes only its own, so the numbers do not depend on the thread count. A
//! program that steps such a scene should call [`Simulation::step`] from one of rayon's
//! threads (inside `rayon::scope`, as `treadsim bench` does): from any other thread each step
//! hands stage 2 to rayon's threads and sleeps until they finish, two thread wake-ups a step
//! (tens of µs on a loaded machine, more than ten robots' steps cost). Between one stage 2
//! and the next one of rayon's threads is kept spinning for at most half a millisecond
//! (`warm_pool.rs`), so that stage 2 does not wait for a sleeping thread to wake (100 robots
//! on two threads: 340 → 265 µs a step).

mod arm;
mod bare;
mod checks;
mod clearance;
mod config;
mod convert;
mod doors;
mod events;
mod hull;
mod movers;
mod objects;
mod proximity;
pub mod ranging;
mod valves;
mod warm_pool;
pub use config::SimConfig;
mod state;
mod telemetry;

pub use arm::{
    grip_torque, twist_about, ArmState, PadLevers, ARM_OUT_SPEED_SHARE, MAX_LAG, RAMP_TIME,
    SERVO_GAIN, SLIP_RELEASE, SLIP_SWEEP_SINK,
};
pub use bare::bare_world;
use convert::{body_state, hull_mass, v32, v64};
pub use convert::{isometry_of, pose_of};
pub use doors::{DoorState, LATCH_CATCH};
pub use events::{RobotStatus, SimEvent};
pub use movers::MoverId;
pub use objects::ObjectState;
pub use state::{f64_of_json, json_f64, Divergence, StateSnapshot};
pub use valves::ValveState;

pub use telemetry::{TelemetryRow, TelemetryWriter};

use arm::{ArmPosture, ArmRig};
use clearance::{HullClearance, REACH_SLACK};
use hull::{
    apply_wrench, collider_radius, hull_colliders, insert_robot_body, pose_guards, switch_hull,
    GuardCollider, GuardHook, HullReach,
};
pub(crate) use hull::{insert_hull, terrain_collider};
use proximity::{mark_robots_near_bodies, BodySphere};
use warm_pool::WarmPool;

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use crate::scene::{Scene, Spawn};
use crate::terrain::CutSegment;
use crate::vehicle::drivetrain::DrivetrainError;
use crate::vehicle::implicit::{HullMass, StepSettings};
use crate::vehicle::{BodyState, DriveCommand, Drivetrain, DrivetrainState, RobotSpec, Wrench};
use rayon::prelude::*;

/// A robot that escalates to a spawn reset again within this time of the previous
/// escalation is disabled instead, s.
pub const DISABLE_WINDOW: f64 = 60.0;

/// Fraction of its weight its tracks must carry for a robot sinking faster than
/// [`SimConfig::falling_speed`] to count as supported (driving down a 45° ramp: 0.71).
pub const SUPPORT_FRACTION: f64 = 0.5;

/// Largest [`SimConfig::escalate_after`]: the blow-up times kept per robot.
const MAX_ESCALATE: usize = 8;

/// Why a simulation or robot could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// The robot's belt or wheel geometry is impossible.
    #[error("robot '{robot}': {source}")]
    Outline {
        /// Robot name.
        robot: String,
        /// The geometry problem.
        source: DrivetrainError,
    },
    /// The terrain could not become a collider.
    #[error("terrain collider: {0}")]
    Collider(String),
    /// The time step is not usable.
    #[error("time step {0} s is outside 0.0001..=0.02 s")]
    TimeStep(f64),
    /// A traffic group cannot be placed.
    #[error("{0}")]
    Traffic(String),
    /// A bench cannot place its robots.
    #[error("bench: {0}")]
    Bench(String),
}

/// Handle to a robot in a [`Simulation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotId(pub usize);

#[derive(Debug, Clone)]
struct Snapshot {
    time: f64,
    pose: Pose,
    drive: DrivetrainState,
    /// The arm's joints and fingers (unused without an arm).
    arm: ArmPosture,
}

#[derive(Debug, Clone)]
struct RobotSlot {
    model: Drivetrain,
    body: RigidBodyHandle,
    /// The belts' side-guard colliders on the hull.
    guards: Vec<GuardCollider>,
    /// The manipulator arm's bodies and servo state, if the robot has an arm.
    arm: Option<ArmRig>,
    /// Where it was added: blow-up escalation resets it there.
    spawn: Spawn,
    /// The newest good state.
    snapshot: Snapshot,
    /// The good state before `snapshot`.
    older: Snapshot,
    /// Step count when `snapshot` was taken.
    snapshot_step: u64,
    /// Kinetic + gravitational + contact elastic energy of the state the last step began
    /// from, J.
    energy: f64,
    status: RobotStatus,
    /// Radius about the body origin of a sphere holding the robot's colliders, m
    /// ([`collider_radius`]).
    collider_radius: f64,
    /// Centre-of-mass z when the robot was last supported (tracks carrying half the weight,
    /// or not sinking fast), m; NaN right after a teleport.
    support_z: f64,
    /// Times of the latest blow-ups, s (a ring; NaN: none).
    blow_ups: [f64; MAX_ESCALATE],
    /// Next slot of `blow_ups` to write.
    blow_up_next: usize,
    /// Time of the last escalation to a spawn reset, s (−∞: none).
    last_escalation: f64,
}

/// The world: a scene, its robots and the physics.
pub struct Simulation {
    scene: Scene,
    config: SimConfig,
    world: PhysicsWorld,
    /// The terrain's collider.
    terrain: ColliderHandle,
    robots: Vec<RobotSlot>,
    /// Moving obstacles' kinematic bodies and box sizes (`movers.rs`).
    movers: Vec<(RigidBodyHandle, [f64; 3])>,
    /// The scene's movable objects' bodies, in scene order (`objects.rs`).
    objects: Vec<RigidBodyHandle>,
    /// The scene's handwheel valves, in scene order (`valves.rs`).
    valves: Vec<valves::ValveRig>,
    /// The scene's hinged doors, in scene order (`doors.rs`); their handles are in `valves`,
    /// after the scene's valves.
    doors: Vec<doors::DoorRig>,
    time: f64,
    steps: u64,
    /// Per-robot scratch of stages 1–3, in robot order (not state: never saved or restored).
    scratch: Vec<RobotScratch>,
    /// Stage 3's bodies as spheres (`proximity.rs`), and per robot whether another body may
    /// reach its hull: scratch, as `scratch`.
    spheres: Vec<BodySphere>,
    bodies_near: Vec<bool>,
    events: Vec<SimEvent>,
    /// Keeps one of rayon's threads awake for the next stage 2 (`warm_pool.rs`).
    warm_pool: WarmPool,
}

/// Robots from which stage 2 runs on rayon's threads; below, handing the work to threads
/// costs about what one robot's step does.
const PARALLEL_ROBOTS: usize = 4;

/// One robot's scratch for stages 1–3 of [`Simulation::step`].
#[derive(Debug, Clone, Default)]
struct RobotScratch {
    /// Whether the robot takes part in this step (not frozen, body present).
    active: bool,
    /// Hull state read in stage 1.
    body: BodyState,
    /// The hull body's mass and inertia read in stage 1 (with an arm and what it holds), for
    /// the implicit contact step.
    hull_mass: Option<HullMass>,
    /// The drive train's wrench from stage 2.
    wrench: Wrench,
    /// Terrain cut buffer of the drive train's step.
    segments: Vec<CutSegment>,
    /// The terrain faces near the hull box.
    clearance: HullClearance,
    /// Whether terrain comes within rapier's contact reach of the hull box (stage 2).
    hull_near: bool,
    /// The terrain faces near the box round the arm's parts (stage 3), for an armed robot.
    arm_clearance: HullClearance,
}

impl std::fmt::Debug for Simulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simulation")
            .field("scene", &self.scene.name)
            .field("time", &self.time)
            .field("robots", &self.robots.len())
            .finish()
    }
}

impl Simulation {
    /// A world with the scene's terrain and no robots.
    pub fn new(scene: Scene, config: SimConfig) -> Result<Self, SimError> {
        if !(config.dt.is_finite() && (1e-4..=0.02).contains(&config.dt)) {
            return Err(SimError::TimeStep(config.dt));
        }
        let mut world = PhysicsWorld {
            gravity: Vector::new(0.0, 0.0, -9.81),
            ..Default::default()
        };
        world.integration_parameters.dt = config.dt as f32;
        let collider = terrain_collider(&scene.terrain, config.hull_friction)?;
        let terrain = world.colliders.insert(collider);
        let objects = scene
            .objects
            .iter()
            .map(|o| objects::insert_object(&mut world, o))
            .collect();
        let mut valves: Vec<valves::ValveRig> = scene
            .valves
            .iter()
            .map(|v| valves::ValveRig::insert(&mut world, v))
            .collect();
        let doors = scene
            .doors
            .iter()
            .map(|d| {
                let (door, handle) = doors::DoorRig::insert(&mut world, d, valves.len());
                valves.push(handle);
                door
            })
            .collect();
        Ok(Self {
            scene,
            config,
            world,
            terrain,
            robots: Vec::new(),
            movers: Vec::new(),
            objects,
            valves,
            doors,
            time: 0.0,
            steps: 0,
            scratch: Vec::new(),
            spheres: Vec::new(),
            bodies_near: Vec::new(),
            events: Vec::new(),
            warm_pool: WarmPool::default(),
        })
    }

    /// Puts a robot on the scene at `spawn`: its footprint centre at the spawn point, heading
    /// `spawn.yaw`, at rest, 5 mm above the ground so it settles onto its tracks.
    pub fn add_robot(&mut self, spec: RobotSpec, spawn: &Spawn) -> Result<RobotId, SimError> {
        let model = Drivetrain::new(spec.clone()).map_err(|source| SimError::Outline {
            robot: spec.name.clone(),
            source,
        })?;
        let pose = spawn_pose(spawn, &spec);
        let mut guards = Vec::new();
        let posture = initial_posture(&spec);
        let (handle, arm) = insert_bodies(
            &mut self.world,
            &model,
            pose_of(&pose),
            &posture,
            self.config.hull_friction,
            &mut guards,
        );
        let snapshot = Snapshot {
            time: self.time,
            pose: pose_of(&pose),
            drive: model.state(),
            arm: posture,
        };
        self.robots.push(RobotSlot {
            model,
            body: handle,
            guards,
            arm,
            spawn: spawn.clone(),
            older: snapshot.clone(),
            snapshot,
            snapshot_step: self.steps,
            energy: f64::NAN,
            status: RobotStatus::Active,
            collider_radius: collider_radius(&spec),
            support_z: f64::NAN,
            blow_ups: [f64::NAN; MAX_ESCALATE],
            blow_up_next: 0,
            last_escalation: f64::NEG_INFINITY,
        });
        Ok(RobotId(self.robots.len() - 1))
    }

    /// Sets a robot's drive command; it holds until changed. A halted robot
    /// ([`RobotStatus::is_halted`]) ignores it and stays stopped until reset.
    pub fn set_command(&mut self, id: RobotId, command: DriveCommand) {
        if let Some(r) = self.robots.get_mut(id.0) {
            if !r.status.is_halted() {
                r.model.set_command(command);
                // An armed robot's command goes through the arm interlock every step.
                if let Some(rig) = r.arm.as_mut() {
                    rig.set_drive_command(command);
                }
            }
        }
    }

    /// Whether robot `id`'s tracks or wheels carry at least [`SUPPORT_FRACTION`] of its weight
    /// (last step): the support part of stage 6's falling rule.
    pub fn borne_by_drive(&self, id: RobotId) -> bool {
        borne_by_drive(&self.robots[id.0].model, gravity_of(&self.world))
    }

    /// Whether a robot drives or why it is stopped (out of bounds, fell, disabled).
    pub fn robot_status(&self, id: RobotId) -> RobotStatus {
        self.robots[id.0].status
    }

    /// The spawn a robot was added at (where escalation resets it).
    pub fn spawn_of(&self, id: RobotId) -> &Spawn {
        &self.robots[id.0].spawn
    }

    /// Advances the world by one fixed step (see the module docs for the stage order).
    pub fn step(&mut self) {
        let dt = self.config.dt;
        // 1: read.
        self.scratch
            .resize_with(self.robots.len(), RobotScratch::default);
        for (r, s) in self.robots.iter().zip(&mut self.scratch) {
            let body = self.world.bodies.get(r.body);
            s.active = !r.status.is_frozen() && body.is_some();
            if let Some(body) = body.filter(|_| s.active) {
                s.body = body_state(body);
                s.hull_mass = self.config.implicit_contacts.then(|| hull_mass(body));
            }
        }
        // 1½: an armed robot drives slowly with its arm out.
        self.arm_interlocks();
        // 2: drive trains. Each robot's step reads only its own state and the terrain, so
        // running them on threads gives the same numbers bit for bit, in any order.
        let terrain = &self.scene.terrain;
        let settings = StepSettings {
            friction: self.config.friction,
            dt,
            gravity: v64(self.world.gravity),
            implicit: self.config.implicit_contacts,
            hull: None,
        };
        // rapier makes contact points within its prediction distance of a triangle.
        let reach = self.world.integration_parameters.prediction_distance() as f64 + REACH_SLACK;
        let drive = |(r, s): (&mut RobotSlot, &mut RobotScratch)| {
            if s.active {
                let settings = StepSettings {
                    hull: s.hull_mass,
                    ..settings
                };
                // The flippers move in the drive train's step: their guards follow below.
                s.wrench = r.model.step(terrain, &s.body, &settings, &mut s.segments);
                s.hull_near =
                    s.clearance
                        .terrain_near(terrain, r.model.spec(), &s.body.pose, reach);
            }
        };
        if self.robots.len() >= PARALLEL_ROBOTS {
            self.warm_pool.release();
            self.robots
                .par_iter_mut()
                .zip(self.scratch.par_iter_mut())
                .for_each(drive);
            self.warm_pool.keep_warm();
        } else {
            self.robots
                .iter_mut()
                .zip(self.scratch.iter_mut())
                .for_each(drive);
        }
        // 3: apply.
        self.step_doors();
        self.mark_bodies_near(reach);
        let robots = self
            .robots
            .iter_mut()
            .zip(&mut self.scratch)
            .zip(&self.bodies_near);
        for ((r, s), &bodies) in robots {
            // A robot left out of the steps may still move (a fall): its hull meets the terrain.
            let hull_reach = HullReach {
                terrain: s.hull_near || !s.active,
                bodies,
            };
            switch_hull(&mut self.world, r.body, hull_reach);
            if !s.active {
                if let Some(rig) = &r.arm {
                    rig.set_terrain_near(&mut self.world, true);
                }
                continue;
            }
            r.energy = rigid_energy(&s.body, r.model.spec()) + r.model.elastic_energy();
            apply_wrench(&mut self.world, r.body, &s.wrench);
            pose_guards(&mut self.world, &r.model, &r.guards);
            if let Some(rig) = &mut r.arm {
                rig.control(&mut self.world, &mut self.valves, dt);
                let (terrain, hull) = (&self.scene.terrain, &s.body.pose);
                rig.clear_terrain(&mut self.world, terrain, hull, &mut s.arm_clearance, reach);
            }
        }
        self.pull_doors();
        // 4: integrate.
        self.world.step_with_events(&GuardHook, &());
        for rig in self.robots.iter_mut().filter_map(|r| r.arm.as_mut()) {
            rig.after_step(&mut self.world);
        }
        self.steps += 1;
        // A product, not a running sum: no drift over long runs.
        self.time = self.steps as f64 * dt;
        // 5–7: check and recover, bounds and falls, snapshot.
        for i in 0..self.robots.len() {
            self.check_robot(i);
        }
    }

    /// Stage 3's proximity test (`proximity.rs`): `bodies_near[i]` says whether another robot or
    /// a mover comes within `reach` m of robot `i`'s colliders.
    fn mark_bodies_near(&mut self, reach: f64) {
        self.spheres.clear();
        for (i, (r, s)) in self.robots.iter().zip(&self.scratch).enumerate() {
            // An active robot's pose was read in stage 1; a frozen one's is where it stays.
            let centre = if s.active {
                Some(Point3::from(s.body.pose.translation.vector))
            } else {
                self.world
                    .bodies
                    .get(r.body)
                    .map(|b| Point3::from(v64(b.translation())))
            };
            self.spheres.extend(centre.map(|centre| BodySphere {
                centre,
                radius: r.collider_radius,
                robot: Some(i),
            }));
        }
        for (handle, size) in &self.movers {
            let Some(body) = self.world.bodies.get(*handle) else {
                continue;
            };
            // The box at its pose now, swollen by how far it moves to the next one.
            let (now, next) = (body.translation(), body.next_position().translation);
            let half_diagonal = Vector3::from(*size).norm() / 2.0;
            self.spheres.push(BodySphere {
                centre: Point3::from(v64(now)),
                radius: half_diagonal + v64(next - now).norm(),
                robot: None,
            });
        }
        objects::push_spheres(
            &self.world,
            &self.objects,
            &self.scene.objects,
            self.config.dt,
            &mut self.spheres,
        );
        valves::push_spheres(&self.valves, &self.scene.valves, &mut self.spheres);
        doors::push_spheres(
            &self.world,
            &self.doors,
            &self.scene.doors,
            &mut self.spheres,
        );
        self.bodies_near.resize(self.robots.len(), false);
        mark_robots_near_bodies(&mut self.spheres, reach, &mut self.bodies_near);
    }

    /// Runs steps until `duration` s more have passed.
    pub fn run_for(&mut self, duration: f64) {
        let n = (duration / self.config.dt).round().max(0.0) as u64;
        for _ in 0..n {
            self.step();
        }
    }

    /// Simulation time, s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Number of steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The settings.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// The scene.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Events since the start (blow-ups, resets, out-of-bounds and falls), in order.
    pub fn events(&self) -> &[SimEvent] {
        &self.events
    }

    /// Robot ids.
    pub fn robot_ids(&self) -> impl Iterator<Item = RobotId> {
        (0..self.robots.len()).map(RobotId)
    }

    /// A robot's track model (belt speeds, motor torques, flipper angles, outlines).
    pub fn robot(&self, id: RobotId) -> &Drivetrain {
        &self.robots[id.0].model
    }

    /// A robot's hull state.
    pub fn body_state(&self, id: RobotId) -> BodyState {
        body_state(&self.world.bodies[self.robots[id.0].body])
    }

    /// Total mechanical energy of a robot, J: kinetic, gravitational (zero at z = 0) and the
    /// elastic energy stored in its track contacts, all of the state the last step began from
    /// (the state its contact forces were computed from); NaN before the first step. With
    /// implicit contacts (whose forces are evaluated at the predicted pose) the energy of the
    /// present state, its contacts cut anew.
    pub fn mechanical_energy(&self, id: RobotId) -> f64 {
        let r = &self.robots[id.0];
        if self.config.implicit_contacts {
            let body = self.body_state(id);
            rigid_energy(&body, r.model.spec()) + r.model.contact_energy(&self.scene.terrain, &body)
        } else {
            r.energy
        }
    }

    /// One telemetry row for a robot at the current time.
    pub fn telemetry(&self, id: RobotId) -> TelemetryRow {
        TelemetryRow::capture(self.time, &self.body_state(id), &self.robots[id.0].model)
    }

    /// Gravity, world frame, m/s².
    pub fn gravity(&self) -> Vector3<f64> {
        v64(self.world.gravity)
    }

    /// Sets gravity, world frame, m/s²: a tilted gravity is a tilt table without moving the
    /// scene. Energies are still reported against world z with g = 9.81 m/s².
    pub fn set_gravity(&mut self, gravity: Vector3<f64>) {
        if gravity.iter().all(|x| x.is_finite()) {
            self.world.gravity = v32(&gravity);
        }
    }

    /// Puts a robot back at a spawn as when it was added: at the spawn pose (5 mm up), at rest,
    /// belts stopped, flippers at their initial angles, command stop, driving again after an
    /// out-of-bounds, fall or disabling event, blow-up history and snapshots cleared (the
    /// instructor's reset). The hull is rebuilt, so a frozen robot moves again.
    pub fn reset_robot(&mut self, id: RobotId, spawn: &Spawn) {
        let Some(r) = self.robots.get_mut(id.0) else {
            return;
        };
        let pose = pose_of(&spawn_pose(spawn, r.model.spec()));
        r.model.reset();
        let posture = initial_posture(r.model.spec());
        r.rebuild(&mut self.world, pose, &posture, self.config.hull_friction);
        r.status = RobotStatus::Active;
        r.support_z = f64::NAN;
        r.blow_ups = [f64::NAN; MAX_ESCALATE];
        r.last_escalation = f64::NEG_INFINITY;
        r.snapshot = Snapshot {
            time: self.time,
            pose,
            drive: r.model.state(),
            arm: posture,
        };
        r.older.clone_from(&r.snapshot);
        r.snapshot_step = self.steps;
    }

    /// Places a robot at a pose, at rest (for tests and tools). Its status is unchanged; the
    /// fall height is counted from the new pose.
    pub fn teleport(&mut self, id: RobotId, pose: &Isometry3<f64>) {
        let r = &mut self.robots[id.0];
        if let Some(body) = self.world.bodies.get_mut(r.body) {
            body.set_position(pose_of(pose), true);
            body.set_linvel(Vector::ZERO, true);
            body.set_angvel(Vector::ZERO, true);
        }
        // The arm moves with the hull; what it held stays where it was.
        if let Some(rig) = &mut r.arm {
            rig.release(&mut self.world);
        }
        r.support_z = f64::NAN;
        r.model.halt();
    }

    /// Whether a robot's hull body (its box, not its belts) touched the scene in the last
    /// step: a hull collision, which exercises penalise.
    pub fn hull_touches_scene(&self, id: RobotId) -> bool {
        let Some(body) = self.world.bodies.get(self.robots[id.0].body) else {
            return false;
        };
        hull_colliders(&self.world.colliders, body).any(|(c, _)| {
            self.world
                .narrow_phase
                .contact_pair(self.terrain, c)
                .is_some_and(|pair| pair.has_any_active_contact())
        })
    }

    /// Whether a robot's hull box collides with the terrain in the coming rapier step: some
    /// terrain face came within rapier's contact reach of it when the last step began (see
    /// `clearance.rs`); otherwise rapier leaves the pair out, as it could find no contact.
    pub fn hull_meets_terrain(&self, id: RobotId) -> bool {
        let Some(body) = self.world.bodies.get(self.robots[id.0].body) else {
            return false;
        };
        hull_colliders(&self.world.colliders, body).any(|(_, c)| {
            c.is_enabled() && c.collision_groups().filter.contains(hull::TERRAIN_GROUP)
        })
    }

    /// Whether robot `id`'s hull box is switched on in rapier's world for the coming step:
    /// some terrain, another robot or a mover may come within rapier's contact reach of it
    /// (`proximity.rs`); while nothing may, rapier leaves it out altogether.
    pub fn hull_switched_on(&self, id: RobotId) -> bool {
        let Some(body) = self.world.bodies.get(self.robots[id.0].body) else {
            return false;
        };
        hull_colliders(&self.world.colliders, body).any(|(_, c)| c.is_enabled())
    }

    /// The rapier world, for the viewer and benchmarks.
    pub fn physics(&self) -> &PhysicsWorld {
        &self.world
    }
}

/// The pose [`Simulation::add_robot`] gives a robot of `spec` at `spawn`, world frame:
/// turned by the spawn's roll, pitch and yaw, with its lowest point
/// ([`RobotSpec::lowest_point`]) 5 mm above the spawn point. Upright, that is the footprint
/// centre 5 mm above the point; on its back, the hull lying on the ground.
pub fn spawn_pose(spawn: &Spawn, spec: &RobotSpec) -> Isometry3<f64> {
    let rotation = UnitQuaternion::from_euler_angles(spawn.roll, spawn.pitch, spawn.yaw);
    let lift = 0.005 - spec.lowest_point(&rotation);
    Isometry3::from_parts(
        Translation3::from(spawn.position.coords + Vector3::z() * lift),
        rotation,
    )
}

/// The arm posture a robot of `spec` starts and resets with (the default for a robot without
/// an arm).
fn initial_posture(spec: &RobotSpec) -> ArmPosture {
    spec.arm
        .as_ref()
        .map(ArmPosture::initial)
        .unwrap_or_default()
}

impl RobotSlot {
    /// Removes the robot's bodies (hull, guards, arm) from `world` and builds them again at
    /// `pose`, at rest, the arm at `posture`: a non-finite step can leave rapier's own state
    /// for a body unusable, so recovery and resets rebuild rather than repair.
    fn rebuild(
        &mut self,
        world: &mut PhysicsWorld,
        pose: Pose,
        posture: &ArmPosture,
        friction: f64,
    ) {
        // What the arm held goes back to its own body first: removing the hull removes every
        // collider on it (the arm's, and a held object's).
        if let Some(rig) = self.arm.as_mut() {
            rig.release(world);
        }
        world.remove_body(self.body);
        (self.body, self.arm) = insert_bodies(
            world,
            &self.model,
            pose,
            posture,
            friction,
            &mut self.guards,
        );
    }
}

/// Inserts a robot's bodies at `pose`, at rest: the hull with its belt guards (their handles
/// to `guards`) and, if it has one, its arm at `posture`.
fn insert_bodies(
    world: &mut PhysicsWorld,
    model: &Drivetrain,
    pose: Pose,
    posture: &ArmPosture,
    friction: f64,
    guards: &mut Vec<GuardCollider>,
) -> (RigidBodyHandle, Option<ArmRig>) {
    let hull = insert_robot_body(world, model, pose, friction, guards);
    let arm = model
        .spec()
        .arm
        .as_ref()
        .map(|spec| ArmRig::insert(world, spec, hull, posture, friction));
    (hull, arm)
}

/// Kinetic (translation + rotation) and gravitational energy, J.
fn rigid_energy(s: &BodyState, spec: &RobotSpec) -> f64 {
    let w_body = s.pose.rotation.inverse() * s.angvel;
    let rot = 0.5
        * spec
            .inertia
            .component_mul(&w_body.component_mul(&w_body))
            .sum();
    0.5 * spec.mass * s.linvel.norm_squared() + rot + spec.mass * 9.81 * s.com.z
}

/// The world's gravitational acceleration, m/s².
fn gravity_of(world: &PhysicsWorld) -> f64 {
    world.gravity.length() as f64
}

/// Whether `model`'s tracks or wheels carry at least [`SUPPORT_FRACTION`] of its weight under
/// gravity `g` m/s² (last step).
fn borne_by_drive(model: &Drivetrain, g: f64) -> bool {
    model.support_force() >= SUPPORT_FRACTION * model.spec().mass * g
}
