//! The simulated world: the scene's terrain as a rapier collider, the robots' hulls as rapier
//! bodies driven by the track model, a fixed step, blow-up recovery, and telemetry.
//!
//! [`Simulation::step`] runs these stages, in this order, every step:
//! 1. **Read** each robot's hull state from rapier (pose, centre of mass, velocities).
//! 2. **Track model** per robot ([`TrackedRobot::step`]): move flippers toward their targets
//!    (torque-limited motors loaded by the last step's flipper contacts),
//!    cut the terrain with every track plane, compute wheel and run loads, update belt speeds
//!    implicitly against the ground's friction, finish stick–slip friction.
//! 3. **Apply** the resulting wrench to the hull (rapier forces persist, so they are reset
//!    first).
//! 4. **Integrate**: one rapier step (gravity, the hull collider's contacts with the terrain
//!    mesh, integration).
//! 5. **Check** every robot for a blow-up (non-finite or runaway state); a robot that blew up
//!    is put back to its last good snapshot at rest and a [`SimEvent`] records it. Good states
//!    are snapshotted every [`SimConfig::snapshot_interval`] steps.
//! 6. **Advance** time.
//!
//! Everything runs in a fixed order on one thread, so the same inputs give the same outputs
//! bit for bit.

pub mod bench;
mod script;
mod telemetry;

pub use script::DriveScript;

pub use telemetry::{TelemetryRow, TelemetryWriter};

use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use crate::scene::{Scene, Spawn};
use crate::terrain::CutSegment;
use crate::track::friction::FrictionConfig;
use crate::track::outline::OutlineError;
use crate::vehicle::robot::DriveState;
use crate::vehicle::spec::HullShape;
use crate::vehicle::{BodyState, DriveCommand, RobotSpec, TrackedRobot};

/// Simulation settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimConfig {
    /// Fixed time step, s.
    pub dt: f64,
    /// Stick–slip friction parameters of the belts.
    pub friction: FrictionConfig,
    /// Friction coefficient of the hull's body against the scene (belly, sides, top).
    pub hull_friction: f64,
    /// A robot moving faster than this has blown up, m/s.
    pub max_speed: f64,
    /// A robot spinning faster than this has blown up, rad/s.
    pub max_spin: f64,
    /// Steps between snapshots of good state for blow-up recovery.
    pub snapshot_interval: u32,
}

impl Default for SimConfig {
    /// `dt` = 2 ms (500 Hz): the stiffest mode of the presets (the 20 kg robot bouncing on its
    /// wheels, ≈ 90 rad/s, and the friction stick mode, ≈ 63 rad/s) sits at ω·dt ≤ 0.2,
    /// ten times inside the explicit stability limit of 2, and a 0.1 m stair nosing passes
    /// under a wheel at 1 m/s in 50 steps. Hull friction 0.5 (plastic or aluminium on
    /// concrete). Blow-up thresholds far beyond anything a ground robot does: 30 m/s, 60 rad/s.
    fn default() -> Self {
        Self {
            dt: 0.002,
            friction: FrictionConfig::default(),
            hull_friction: 0.5,
            max_speed: 30.0,
            max_spin: 60.0,
            snapshot_interval: 250,
        }
    }
}

/// Something that happened during a step that the operator or instructor should know.
#[derive(Debug, Clone, PartialEq)]
pub enum SimEvent {
    /// A robot's state became non-finite or ran away; it was restored to its snapshot from
    /// `restored_to` s, at rest.
    BlowUp {
        /// Simulation time of the detection, s.
        time: f64,
        /// Which robot.
        robot: RobotId,
        /// What was wrong.
        reason: String,
        /// Time of the snapshot it was restored to, s.
        restored_to: f64,
    },
}

/// Why a simulation or robot could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// The robot's belt geometry is impossible.
    #[error("robot '{robot}': {source}")]
    Outline {
        /// Robot name.
        robot: String,
        /// The geometry problem.
        source: OutlineError,
    },
    /// The terrain could not become a collider.
    #[error("terrain collider: {0}")]
    Collider(String),
    /// The time step is not usable.
    #[error("time step {0} s is outside 0.0001..=0.02 s")]
    TimeStep(f64),
}

/// Handle to a robot in a [`Simulation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotId(pub usize);

#[derive(Debug, Clone)]
struct Snapshot {
    time: f64,
    pose: Pose,
    drive: DriveState,
}

#[derive(Debug, Clone)]
struct RobotSlot {
    model: TrackedRobot,
    body: RigidBodyHandle,
    snapshot: Snapshot,
    /// Kinetic + gravitational + contact elastic energy of the state the last step began
    /// from, J.
    energy: f64,
}

/// The world: a scene, its robots and the physics.
pub struct Simulation {
    scene: Scene,
    config: SimConfig,
    world: PhysicsWorld,
    robots: Vec<RobotSlot>,
    time: f64,
    steps: u64,
    segments: Vec<CutSegment>,
    events: Vec<SimEvent>,
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

/// `f64` nalgebra pose of a rapier pose.
pub fn isometry_of(p: &Pose) -> Isometry3<f64> {
    let (t, q) = (p.translation, p.rotation);
    Isometry3::from_parts(
        Translation3::new(t.x as f64, t.y as f64, t.z as f64),
        UnitQuaternion::from_quaternion(Quaternion::new(
            q.w as f64, q.x as f64, q.y as f64, q.z as f64,
        )),
    )
}

/// rapier pose of an `f64` nalgebra pose.
pub fn pose_of(p: &Isometry3<f64>) -> Pose {
    let (t, q) = (p.translation.vector, p.rotation.quaternion());
    Pose::from_parts(
        Vector::new(t.x as f32, t.y as f32, t.z as f32),
        Rotation::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize(),
    )
}

fn v64(v: Vector) -> Vector3<f64> {
    Vector3::new(v.x as f64, v.y as f64, v.z as f64)
}

fn v32(v: &Vector3<f64>) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
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
        world.colliders.insert(collider);
        Ok(Self {
            scene,
            config,
            world,
            robots: Vec::new(),
            time: 0.0,
            steps: 0,
            segments: Vec::with_capacity(256),
            events: Vec::new(),
        })
    }

    /// Puts a robot on the scene at `spawn`: its footprint centre at the spawn point, heading
    /// `spawn.yaw`, at rest, 5 mm above the ground so it settles onto its tracks.
    pub fn add_robot(&mut self, spec: RobotSpec, spawn: &Spawn) -> Result<RobotId, SimError> {
        let model = TrackedRobot::new(spec.clone()).map_err(|source| SimError::Outline {
            robot: spec.name.clone(),
            source,
        })?;
        let pose = Isometry3::from_parts(
            Translation3::from(spawn.position.coords + Vector3::z() * 0.005),
            UnitQuaternion::from_euler_angles(0.0, 0.0, spawn.yaw),
        );
        let handle = insert_hull(
            &mut self.world,
            &spec,
            pose_of(&pose),
            self.config.hull_friction,
        );
        let snapshot = Snapshot {
            time: self.time,
            pose: pose_of(&pose),
            drive: model.drive_state().clone(),
        };
        self.robots.push(RobotSlot {
            model,
            body: handle,
            snapshot,
            energy: f64::NAN,
        });
        Ok(RobotId(self.robots.len() - 1))
    }

    /// Sets a robot's drive command; it holds until changed.
    pub fn set_command(&mut self, id: RobotId, command: DriveCommand) {
        if let Some(r) = self.robots.get_mut(id.0) {
            r.model.set_command(command);
        }
    }

    /// Advances the world by one fixed step (see the module docs for the stage order).
    pub fn step(&mut self) {
        let dt = self.config.dt;
        // 1–3: read, track model, apply.
        for r in &mut self.robots {
            let Some(body) = self.world.bodies.get_mut(r.body) else {
                continue;
            };
            let state = body_state(body);
            let wrench = r.model.step(
                &self.scene.terrain,
                &state,
                &self.config.friction,
                dt,
                &mut self.segments,
            );
            r.energy = rigid_energy(&state, r.model.spec()) + r.model.elastic_energy();
            body.reset_forces(false);
            body.reset_torques(false);
            if wrench
                .force
                .iter()
                .chain(wrench.torque.iter())
                .all(|x| x.is_finite())
            {
                body.add_force(v32(&wrench.force), true);
                body.add_torque(v32(&wrench.torque), true);
            }
        }
        // 4: integrate.
        self.world.step();
        self.steps += 1;
        // A product, not a running sum: no drift over long runs.
        self.time = self.steps as f64 * dt;
        // 5: check, snapshot or recover.
        let snapshot_due = self
            .steps
            .is_multiple_of(self.config.snapshot_interval.max(1) as u64);
        for (i, r) in self.robots.iter_mut().enumerate() {
            let Some(body) = self.world.bodies.get_mut(r.body) else {
                continue;
            };
            match blow_up_reason(body, &r.model, &self.config) {
                None => {
                    if snapshot_due {
                        r.snapshot = Snapshot {
                            time: self.time,
                            pose: *body.position(),
                            drive: r.model.drive_state().clone(),
                        };
                    }
                }
                Some(reason) => {
                    // A non-finite step can leave rapier's own state for the body (mass
                    // properties, islands, broad phase) unusable, so the hull is rebuilt
                    // rather than repaired, at its last good pose and at rest.
                    self.world.remove_body(r.body);
                    r.body = insert_hull(
                        &mut self.world,
                        r.model.spec(),
                        r.snapshot.pose,
                        self.config.hull_friction,
                    );
                    r.model.restore(&r.snapshot.drive);
                    self.events.push(SimEvent::BlowUp {
                        time: self.time,
                        robot: RobotId(i),
                        reason,
                        restored_to: r.snapshot.time,
                    });
                }
            }
        }
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

    /// Events since the start (blow-ups).
    pub fn events(&self) -> &[SimEvent] {
        &self.events
    }

    /// Robot ids.
    pub fn robot_ids(&self) -> impl Iterator<Item = RobotId> {
        (0..self.robots.len()).map(RobotId)
    }

    /// A robot's track model (belt speeds, motor torques, flipper angles, outlines).
    pub fn robot(&self, id: RobotId) -> &TrackedRobot {
        &self.robots[id.0].model
    }

    /// A robot's hull state.
    pub fn body_state(&self, id: RobotId) -> BodyState {
        body_state(&self.world.bodies[self.robots[id.0].body])
    }

    /// Total mechanical energy of a robot, J: kinetic, gravitational (zero at z = 0) and the
    /// elastic energy stored in its track contacts, all of the state the last step began from
    /// (the state its contact forces were computed from); NaN before the first step.
    pub fn mechanical_energy(&self, id: RobotId) -> f64 {
        self.robots[id.0].energy
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
    /// belts stopped, flippers at their initial angles, command stop (the station's reset).
    pub fn reset_robot(&mut self, id: RobotId, spawn: &Spawn) {
        let pose = Isometry3::from_parts(
            Translation3::from(spawn.position.coords + Vector3::z() * 0.005),
            UnitQuaternion::from_euler_angles(0.0, 0.0, spawn.yaw),
        );
        self.teleport(id, &pose);
        if let Some(r) = self.robots.get_mut(id.0) {
            r.model.reset();
        }
    }

    /// Places a robot at a pose, at rest (for the station's reset and for tests).
    pub fn teleport(&mut self, id: RobotId, pose: &Isometry3<f64>) {
        let r = &mut self.robots[id.0];
        if let Some(body) = self.world.bodies.get_mut(r.body) {
            body.set_position(pose_of(pose), true);
            body.set_linvel(Vector::ZERO, true);
            body.set_angvel(Vector::ZERO, true);
        }
        r.model.halt();
    }

    /// The rapier world, for the viewer and benchmarks.
    pub fn physics(&self) -> &PhysicsWorld {
        &self.world
    }
}

/// The scene's terrain as a rapier trimesh collider (internal edges fixed so bodies slide
/// over triangle seams).
pub(crate) fn terrain_collider(
    terrain: &crate::terrain::Terrain,
    friction: f64,
) -> Result<Collider, SimError> {
    let vertices: Vec<Vector> = terrain
        .vertices()
        .iter()
        .map(|p| Vector::new(p.x as f32, p.y as f32, p.z as f32))
        .collect();
    Ok(ColliderBuilder::trimesh_with_flags(
        vertices,
        terrain.triangles().to_vec(),
        TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .map_err(|e| SimError::Collider(e.to_string()))?
    .friction(friction as f32)
    .restitution(0.0)
    .build())
}

/// Inserts a robot's hull as a rapier body at `pose`, at rest: the mass properties of the
/// robot file on a massless box collider.
fn insert_hull(
    world: &mut PhysicsWorld,
    spec: &RobotSpec,
    pose: Pose,
    friction: f64,
) -> RigidBodyHandle {
    let com = spec.center_of_mass;
    let body = RigidBodyBuilder::dynamic()
        .pose(pose)
        .additional_mass_properties(MassProperties::new(
            Vector::new(com.x as f32, com.y as f32, com.z as f32),
            spec.mass as f32,
            v32(&spec.inertia),
        ))
        .can_sleep(false)
        .build();
    let handle = world.bodies.insert(body);
    let HullShape::Box { size, center } = spec.hull;
    let collider = ColliderBuilder::cuboid(
        size.x as f32 / 2.0,
        size.y as f32 / 2.0,
        size.z as f32 / 2.0,
    )
    .translation(Vector::new(
        center.x as f32,
        center.y as f32,
        center.z as f32,
    ))
    .density(0.0)
    .friction(friction as f32)
    .restitution(0.0)
    .build();
    world
        .colliders
        .insert_with_parent(collider, handle, &mut world.bodies);
    handle
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

fn body_state(body: &RigidBody) -> BodyState {
    let pose = isometry_of(body.position());
    let com = body.center_of_mass();
    BodyState {
        pose,
        com: Point3::new(com.x as f64, com.y as f64, com.z as f64),
        linvel: v64(body.linvel()),
        angvel: v64(body.angvel()),
    }
}

fn blow_up_reason(body: &RigidBody, model: &TrackedRobot, config: &SimConfig) -> Option<String> {
    let p = body.position();
    let finite = [p.translation.x, p.translation.y, p.translation.z]
        .iter()
        .chain([p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w].iter())
        .all(|x| x.is_finite());
    let (v, w) = (v64(body.linvel()), v64(body.angvel()));
    if !finite || !v.iter().chain(w.iter()).all(|x| x.is_finite()) {
        return Some("non-finite pose or velocity".into());
    }
    if model
        .drive_state()
        .belt_speed
        .iter()
        .any(|x| !x.is_finite())
    {
        return Some("non-finite belt speed".into());
    }
    if v.norm() > config.max_speed {
        return Some(format!(
            "speed {:.1} m/s exceeds {} m/s",
            v.norm(),
            config.max_speed
        ));
    }
    if w.norm() > config.max_spin {
        return Some(format!(
            "spin {:.1} rad/s exceeds {} rad/s",
            w.norm(),
            config.max_spin
        ));
    }
    None
}
