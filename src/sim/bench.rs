//! The per-step cost of the track model against a bare rapier step, measured in one process.
//!
//! Both worlds hold the same scene mesh as a rapier trimesh collider, step at the same dt, and
//! carry the same number of robots. The *full* world runs the track model (cuts, contacts,
//! drive, friction) and rapier; the *bare* world holds the same hulls as plain rapier bodies
//! (box collider, same mass properties) driven by nothing but gravity and their collider
//! contacts. Runs are interleaved in rounds and the median of each is reported, so background
//! load affects both alike.

use std::time::Instant;

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use super::{insert_hull, pose_of, terrain_collider, SimConfig, SimError, Simulation};
use crate::scene::{Scene, Spawn};
use crate::vehicle::spec::HullShape;
use crate::vehicle::{DriveCommand, RobotSpec};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Robots in the scene (spread sideways from the spawn, 1.0 m apart).
    pub robots: usize,
    /// Steps per measured run.
    pub steps: usize,
    /// Steps simulated before measuring (the robots settle and start driving).
    pub warmup: usize,
    /// Measured runs of each world; the median is reported.
    pub rounds: usize,
    /// How the robots are driven.
    pub driver: StairDriver,
}

impl Default for BenchConfig {
    /// One robot, 5 rounds of 2000 steps after 5000 warm-up steps (10 s: the robot has reached
    /// the flight), driven by [`StairDriver::default`].
    fn default() -> Self {
        Self {
            robots: 1,
            steps: 2000,
            warmup: 5000,
            rounds: 5,
            driver: StairDriver::default(),
        }
    }
}

/// How an operator drives a flipper robot up a flight: creep with the flippers raised until
/// they have lifted the nose, then lower them in line with the tracks for the flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StairDriver {
    /// Belt speed, m/s.
    pub speed: f64,
    /// Flipper angle while approaching, rad.
    pub approach_flipper: f64,
    /// Flipper angle on the flight, rad.
    pub flight_flipper: f64,
    /// Nose-up pitch that switches from approach to flight, rad.
    pub switch_pitch: f64,
}

impl Default for StairDriver {
    /// 0.15 m/s, flippers at 35° until the nose is up 12°, then −12°: climbs the public stairs
    /// with the scout preset.
    fn default() -> Self {
        Self {
            speed: 0.15,
            approach_flipper: 35f64.to_radians(),
            flight_flipper: -12f64.to_radians(),
            switch_pitch: 12f64.to_radians(),
        }
    }
}

impl StairDriver {
    /// The command for a robot whose nose-up pitch is `pitch` rad, having `on_flight` already
    /// switched (updated).
    pub fn command(&self, pitch: f64, on_flight: &mut bool) -> DriveCommand {
        *on_flight |= pitch > self.switch_pitch;
        DriveCommand {
            left: self.speed,
            right: self.speed,
            flipper: Some(if *on_flight {
                self.flight_flipper
            } else {
                self.approach_flipper
            }),
            steer: None,
        }
    }
}

/// The measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// Robots per world.
    pub robots: usize,
    /// Terrain triangles.
    pub triangles: usize,
    /// Time step, s.
    pub dt: f64,
    /// Full step (track model + rapier), µs, median over rounds.
    pub full_us: f64,
    /// Bare rapier step, µs, median over rounds.
    pub bare_us: f64,
    /// `full_us / bare_us`.
    pub ratio: f64,
    /// Simulated time per wall time of the full world: `dt / full step`.
    pub real_time_factor: f64,
    /// Track-model contacts in the full world's last step.
    pub contacts: usize,
    /// Height of the lowest robot at the end, m (how far up the flight they got).
    pub lowest_robot_z: f64,
}

impl BenchReport {
    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"robots\":{},\"triangles\":{},\"dt\":{},\"full_us_per_step\":{:.3},\"bare_rapier_us_per_step\":{:.3},\"ratio\":{:.3},\"real_time_factor\":{:.1},\"contacts\":{},\"lowest_robot_z\":{:.3}}}",
            self.robots, self.triangles, self.dt, self.full_us, self.bare_us, self.ratio, self.real_time_factor, self.contacts, self.lowest_robot_z
        )
    }
}

fn spawn_for(spawn: &Spawn, i: usize) -> Spawn {
    let side = (i as f64 + 1.0).div_euclid(2.0) * if i % 2 == 1 { 1.0 } else { -1.0 };
    let offset =
        UnitQuaternion::from_euler_angles(0.0, 0.0, spawn.yaw) * Vector3::new(0.0, side, 0.0);
    Spawn {
        name: format!("{}#{i}", spawn.name),
        position: spawn.position + offset,
        ..spawn.clone()
    }
}

/// The bare world: the scene's trimesh and `n` hulls as plain rapier bodies.
fn bare_world(
    scene: &Scene,
    spec: &RobotSpec,
    spawn: &Spawn,
    n: usize,
    dt: f64,
) -> Result<PhysicsWorld, SimError> {
    let mut world = PhysicsWorld {
        gravity: Vector::new(0.0, 0.0, -9.81),
        ..Default::default()
    };
    world.integration_parameters.dt = dt as f32;
    world.colliders.insert(terrain_collider(
        &scene.terrain,
        SimConfig::default().hull_friction,
    )?);
    let HullShape::Box { size, center } = spec.hull;
    for i in 0..n {
        let sp = spawn_for(spawn, i);
        // The hull rests on its own box here (no tracks): lift it so the box bottom touches.
        let lift = (center.z - size.z / 2.0).max(0.0);
        let pose = Isometry3::from_parts(
            Translation3::from(sp.position.coords - Vector3::z() * lift + Vector3::z() * 0.005),
            UnitQuaternion::from_euler_angles(0.0, 0.0, sp.yaw),
        );
        insert_hull(
            &mut world,
            spec,
            pose_of(&pose),
            SimConfig::default().hull_friction,
        );
    }
    Ok(world)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Measures the full and the bare world for `spec` on `scene` from `spawn`.
pub fn run_bench(
    scene: Scene,
    spec: &RobotSpec,
    spawn: &Spawn,
    config: &BenchConfig,
) -> Result<BenchReport, SimError> {
    let sim_config = SimConfig::default();
    let dt = sim_config.dt;
    let robots = config.robots.max(1);
    let triangles = scene.terrain.num_triangles();
    let mut bare = bare_world(&scene, spec, spawn, robots, dt)?;
    let mut full = Simulation::new(scene, sim_config)?;
    let mut ids = Vec::with_capacity(robots);
    for i in 0..robots {
        ids.push(full.add_robot(spec.clone(), &spawn_for(spawn, i))?);
    }
    let mut on_flight = vec![false; robots];
    let mut drive = |sim: &mut Simulation| {
        for (k, &id) in ids.iter().enumerate() {
            let (_, pitch, _) = sim.body_state(id).pose.rotation.euler_angles();
            let cmd = config.driver.command(-pitch, &mut on_flight[k]);
            sim.set_command(id, cmd);
        }
        sim.step();
    };
    for _ in 0..config.warmup {
        drive(&mut full);
        bare.step();
    }
    let (mut full_times, mut bare_times) = (Vec::new(), Vec::new());
    for _ in 0..config.rounds.max(1) {
        let t0 = Instant::now();
        for _ in 0..config.steps {
            drive(&mut full);
        }
        full_times.push(t0.elapsed().as_secs_f64() * 1e6 / config.steps as f64);
        let t0 = Instant::now();
        for _ in 0..config.steps {
            bare.step();
        }
        bare_times.push(t0.elapsed().as_secs_f64() * 1e6 / config.steps as f64);
    }
    let (full_us, bare_us) = (median(full_times), median(bare_times));
    let contacts = ids.iter().map(|&id| full.robot(id).contacts().len()).sum();
    let climbed = ids
        .iter()
        .map(|&id| full.body_state(id).pose.translation.z)
        .fold(f64::INFINITY, f64::min);
    Ok(BenchReport {
        robots,
        triangles,
        dt,
        full_us,
        bare_us,
        ratio: full_us / bare_us,
        real_time_factor: dt * 1e6 / full_us,
        contacts,
        lowest_robot_z: climbed,
    })
}
