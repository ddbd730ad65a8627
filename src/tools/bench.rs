//! The per-step cost of the track model against a bare rapier step, measured in one process.
//!
//! Both worlds hold the same scene mesh as a rapier trimesh collider, step at the same dt, and
//! carry the same number of robots. The *full* world runs the track model (cuts, contacts,
//! drive, friction) and rapier; the *bare* world holds the same hulls as plain rapier bodies
//! (box collider, same mass properties) driven by nothing but gravity and their collider
//! contacts. Runs are interleaved in rounds and the median of each is reported, so background
//! load affects both alike.

use std::time::Instant;

use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use rapier3d::prelude::*;

use crate::digest::BitDigest;
use crate::scene::{ObjectShape, ObjectSpec, Scene, Spawn};
use crate::sim::{bare_world, spawn_pose, RobotId, RobotStatus, SimConfig, SimError, Simulation};
use crate::vehicle::arm::kinematics::tool_point;
use crate::vehicle::arm::{ArmCommand, ArmMotion, ArmSpec, GripCommand};
use crate::vehicle::{DriveCommand, RobotSpec};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Robots in the scene (placed by [`bench_spawn`]).
    pub robots: usize,
    /// Steps per measured run.
    pub steps: usize,
    /// Steps simulated before measuring (the robots settle and start driving).
    pub warmup: usize,
    /// Measured runs of each world; the median is reported.
    pub rounds: usize,
    /// How the robots are driven.
    pub driver: StairDriver,
    /// Armed robots carry a box of this mass, kg, gripped at the tool point with the arm
    /// in its `drive` pose (the armed case; `None`: the arm stays stowed and empty).
    pub held_load: Option<f64>,
    /// The physics settings of the full world (its step also sets the bare world's).
    pub sim: SimConfig,
}

/// Simulated time of one measured round, s.
pub const ROUND_TIME: f64 = 4.0;
/// Simulated time before the rounds, s: the robot has reached the flight.
pub const WARMUP_TIME: f64 = 10.0;

/// Whole steps of `dt` s in `time` s, at least one.
pub fn steps_for(time: f64, dt: f64) -> usize {
    (time / dt).round().max(1.0) as usize
}

impl Default for BenchConfig {
    /// One robot, 5 rounds of [`ROUND_TIME`] after [`WARMUP_TIME`] at the simulator's default
    /// step (2000 steps after 5000 at 2 ms), driven by [`StairDriver::default`]. In simulated
    /// time, so that the rounds measure the same part of the climb whatever the default step
    /// (in steps, a 5 ms default would have measured 10 s of a climb 25 s in, on the stairs:
    /// 34 contacts and 2.3× the bare step, not 8 contacts and 1.8×).
    fn default() -> Self {
        let sim = SimConfig::default();
        Self {
            robots: 1,
            steps: steps_for(ROUND_TIME, sim.dt),
            warmup: steps_for(WARMUP_TIME, sim.dt),
            held_load: None,
            sim,
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

    /// [`StairDriver::command`] for a robot whose hull is turned by `rotation` (world): its
    /// nose-up pitch is the negated pitch of the hull's roll–pitch–yaw angles.
    pub fn command_at(&self, rotation: &UnitQuaternion<f64>, on_flight: &mut bool) -> DriveCommand {
        self.command(nose_up_pitch(rotation), on_flight)
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
    /// Robots still active at the end and carried by their tracks (at least
    /// [`SUPPORT_FRACTION`](crate::sim::SUPPORT_FRACTION) of their weight).
    pub robots_on_ground: usize,
    /// Threads the drive trains could run on (rayon's pool; used from 4 robots up).
    pub threads: usize,
    /// Robots still holding their load at the end (armed case; 0 otherwise).
    pub holding: usize,
}

impl BenchReport {
    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"robots\":{},\"triangles\":{},\"dt\":{},\"full_us_per_step\":{:.3},\"bare_rapier_us_per_step\":{:.3},\"ratio\":{:.3},\"real_time_factor\":{:.1},\"contacts\":{},\"lowest_robot_z\":{:.3},\"robots_on_ground\":{},\"threads\":{},\"holding\":{}}}",
            self.robots, self.triangles, self.dt, self.full_us, self.bare_us, self.ratio, self.real_time_factor, self.contacts, self.lowest_robot_z, self.robots_on_ground, self.threads, self.holding
        )
    }
}

/// Side-by-side distance between robots sharing a spawn, m.
const SLOT_WIDTH: f64 = 1.0;

/// Where robot `i` of a bench starts: at spawn `i mod S` of the scene's `S` spawns, shifted
/// sideways (across its heading) by `SLOT_WIDTH` slots 0, +1, −1, +2, … for the first,
/// second, … robot there. `None` without spawns.
pub fn bench_spawn(spawns: &[Spawn], i: usize) -> Option<Spawn> {
    let spawn = spawns.get(i % spawns.len().max(1))?;
    let slot = i / spawns.len();
    let side = (slot as f64 + 1.0).div_euclid(2.0) * if slot % 2 == 1 { 1.0 } else { -1.0 };
    let offset = UnitQuaternion::from_euler_angles(0.0, 0.0, spawn.yaw)
        * Vector3::new(0.0, side * SLOT_WIDTH, 0.0);
    Some(Spawn {
        name: format!("{}#{i}", spawn.name),
        position: spawn.position + offset,
        ..spawn.clone()
    })
}

/// Highest a robot placed beside a spawn may find the ground above or below the spawn's
/// height, m (a wall or a drop there would measure a robot stuck in it or falling).
const LEVEL_TOLERANCE: f64 = 0.05;

/// The bench's start of every robot. A robot placed beside a spawn (not at it: the scene's
/// spawns are checked by the scene library's tests) must find the highest surface under its
/// start point, looking down from 5 m above, within [`LEVEL_TOLERANCE`] of the spawn's height:
/// not in a wall, not over a drop.
fn bench_spawns(scene: &Scene, robots: usize) -> Result<Vec<Spawn>, SimError> {
    (0..robots)
        .map(|i| {
            let spawn = bench_spawn(&scene.spawns, i)
                .ok_or_else(|| SimError::Bench(format!("scene '{}' has no spawn", scene.name)))?;
            if i < scene.spawns.len() {
                return Ok(spawn);
            }
            let probe = spawn.position + Vector3::z() * 5.0;
            let ground = scene.terrain.ground_below(&probe, 6.0);
            if !ground.is_some_and(|z| (z - spawn.position.z).abs() <= LEVEL_TOLERANCE) {
                return Err(SimError::Bench(format!(
                    "robot {i} would start at ({:.2}, {:.2}), where scene '{}' has {}: the \
                     scene has {} spawn(s) and robots beyond the first at each stand \
                     {SLOT_WIDTH} m apart sideways (scenes/bench_field.toml holds 100)",
                    spawn.position.x,
                    spawn.position.y,
                    scene.name,
                    match ground {
                        Some(z) => format!("ground at z = {z:.2} m, not level with its spawn"),
                        None => "no ground".to_owned(),
                    },
                    scene.spawns.len()
                )));
            }
            Ok(spawn)
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The full world of a bench: the robots at their bench spawns, each driven up its flight by
/// the bench's [`StairDriver`].
struct DrivenField {
    sim: Simulation,
    ids: Vec<RobotId>,
    on_flight: Vec<bool>,
    driver: StairDriver,
}

impl DrivenField {
    /// `robots` robots `spec` on `scene` at the bench's spawns ([`bench_spawn`]).
    fn new(
        mut scene: Scene,
        spec: &RobotSpec,
        spawns: &[Spawn],
        driver: StairDriver,
        held_load: Option<f64>,
        config: SimConfig,
    ) -> Result<Self, SimError> {
        let load = spec.arm.as_ref().zip(held_load.filter(|m| *m > 0.0));
        if let Some((arm, mass)) = load {
            scene
                .objects
                .extend(spawns.iter().map(|spawn| held_box(spec, arm, spawn, mass)));
        }
        let mut sim = Simulation::new(scene, config)?;
        let ids = spawns
            .iter()
            .map(|spawn| sim.add_robot(spec.clone(), spawn))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some((arm, _)) = load {
            let pose = carry_pose(arm);
            for &id in &ids {
                sim.pose_arm(id, &pose, CARRIED_WIDTH + 0.002);
                sim.set_arm_command(
                    id,
                    ArmCommand {
                        motion: ArmMotion::Hold,
                        grip: GripCommand::Close(arm.gripper.max_force),
                    },
                );
            }
        }
        Ok(Self {
            sim,
            on_flight: vec![false; ids.len()],
            ids,
            driver,
        })
    }

    /// Commands every robot from its pitch, then steps the world once.
    fn step(&mut self) {
        for (k, &id) in self.ids.iter().enumerate() {
            let rotation = self.sim.body_state(id).pose.rotation;
            let cmd = self.driver.command_at(&rotation, &mut self.on_flight[k]);
            self.sim.set_command(id, cmd);
        }
        self.sim.step();
    }

    /// Height of the lowest robot, m.
    fn lowest_z(&self) -> f64 {
        self.ids
            .iter()
            .map(|&id| self.sim.body_state(id).pose.translation.z)
            .fold(f64::INFINITY, f64::min)
    }
}

/// Width across the fingers of the box an armed robot carries in the bench, m.
const CARRIED_WIDTH: f64 = 0.06;

/// The arm pose the bench carries a load in: the file's `drive` pose, else its stow.
fn carry_pose(arm: &ArmSpec) -> Vec<f64> {
    arm.pose("drive")
        .or_else(|| arm.poses.first())
        .map(|p| p.joints.clone())
        .unwrap_or_default()
}

/// A box of `mass` kg at the tool point of a robot of `spec` at `spawn` with its arm in the
/// carry pose, to be gripped at the start.
fn held_box(spec: &RobotSpec, arm: &ArmSpec, spawn: &Spawn, mass: f64) -> ObjectSpec {
    let tool = spawn_pose(spawn, spec) * tool_point(arm, &carry_pose(arm));
    let g = &arm.gripper;
    ObjectSpec {
        name: format!("load_{}", spawn.name),
        shape: ObjectShape::Box {
            size: Vector3::new(g.pad[0], CARRIED_WIDTH.min(g.opening), g.pad[1]),
        },
        mass,
        friction: 1.0,
        color: [0.8, 0.5, 0.2],
        pose: Isometry3::translation(tool.x, tool.y, tool.z),
    }
}

/// Nose-up pitch of a body turned by `rotation`, rad: the negated pitch of its roll–pitch–yaw
/// angles (nalgebra's `euler_angles`, bit for bit), worked out alone. The driver needs neither
/// roll nor yaw, and their two `atan2`s, `cos` and four divisions cost the timed full step about
/// 0.1 µs, 2 % of it, which is not the simulation's cost.
fn nose_up_pitch(rotation: &UnitQuaternion<f64>) -> f64 {
    // `euler_angles`: pitch = −asin(R₂₀) between the poles, ∓π/2 at R₂₀ = ±1.
    let sin = rotation.to_rotation_matrix()[(2, 0)];
    if sin.abs() < 1.0 {
        sin.asin()
    } else if sin <= -1.0 {
        -std::f64::consts::FRAC_PI_2
    } else {
        std::f64::consts::FRAC_PI_2
    }
}

/// What [`trace_digest`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraceDigest {
    /// FNV-1a fingerprint (the crate's `BitDigest`) of the bits of every robot's pose (translation and rotation)
    /// after every step: equal digests mean bit-identical trajectories.
    pub digest: u64,
    /// Steps simulated.
    pub steps: usize,
    /// Height of the lowest robot at the end, m.
    pub lowest_robot_z: f64,
}

/// Drives the bench's full world alone, untimed, for `steps` steps from the start (no warm-up,
/// no bare world) with the settings `config` and hashes every robot's pose after every step;
/// with `held_load` (kg) each armed robot carries a box as in [`BenchConfig::held_load`]. A fixed workload to count
/// instructions under a profiler (timing on a shared machine is noisy), and the check that a
/// change meant to make the step faster leaves the simulation bit for bit the same.
pub fn trace_digest(
    scene: Scene,
    spec: &RobotSpec,
    robots: usize,
    steps: usize,
    driver: StairDriver,
    held_load: Option<f64>,
    config: SimConfig,
) -> Result<TraceDigest, SimError> {
    let spawns = bench_spawns(&scene, robots.max(1))?;
    let mut field = DrivenField::new(scene, spec, &spawns, driver, held_load, config)?;
    let mut digest = BitDigest::default();
    for _ in 0..steps {
        field.step();
        for &id in &field.ids {
            let pose = field.sim.body_state(id).pose;
            let (t, q) = (pose.translation.vector, pose.rotation.coords);
            t.iter().chain(q.iter()).for_each(|&v| digest.add(v));
        }
    }
    Ok(TraceDigest {
        digest: digest.value(),
        steps,
        lowest_robot_z: field.lowest_z(),
    })
}

/// Measures the full and the bare world for `config.robots` robots `spec` on `scene`, placed
/// by [`bench_spawn`].
///
/// Both worlds are stepped from one of rayon's threads, as a program stepping many robots
/// should (see [`Simulation::step`]): called from any other thread, each step of a world of
/// several robots hands its drive trains to rayon's threads and sleeps until they are done,
/// and the two wake-ups cost more than the robots' steps (10 scouts on one thread: 107 µs a
/// step from the main thread, 35 µs from rayon's).
pub fn run_bench(
    scene: Scene,
    spec: &RobotSpec,
    config: &BenchConfig,
) -> Result<BenchReport, SimError> {
    rayon::scope(|_| measure(scene, spec, config))
}

/// The body of [`run_bench`], on one of rayon's threads.
fn measure(scene: Scene, spec: &RobotSpec, config: &BenchConfig) -> Result<BenchReport, SimError> {
    let dt = config.sim.dt;
    let robots = config.robots.max(1);
    let triangles = scene.terrain.num_triangles();
    let spawns = bench_spawns(&scene, robots)?;
    let mut bare = bare_world(&scene, spec, &spawns, dt)?;
    let mut field = DrivenField::new(
        scene,
        spec,
        &spawns,
        config.driver,
        config.held_load,
        config.sim,
    )?;
    for _ in 0..config.warmup {
        field.step();
        bare.step();
    }
    let (mut full_times, mut bare_times) = (Vec::new(), Vec::new());
    for _ in 0..config.rounds.max(1) {
        let t0 = Instant::now();
        for _ in 0..config.steps {
            field.step();
        }
        full_times.push(t0.elapsed().as_secs_f64() * 1e6 / config.steps as f64);
        let t0 = Instant::now();
        for _ in 0..config.steps {
            bare.step();
        }
        bare_times.push(t0.elapsed().as_secs_f64() * 1e6 / config.steps as f64);
    }
    let (full_us, bare_us) = (median(full_times), median(bare_times));
    let (full, ids) = (&field.sim, &field.ids);
    let contacts = ids.iter().map(|&id| full.robot(id).contacts().len()).sum();
    let climbed = field.lowest_z();
    // On the ground: still active (no fall, not out of bounds) and carried by its tracks.
    let on_ground = ids
        .iter()
        .filter(|&&id| full.robot_status(id) == RobotStatus::Active && full.borne_by_drive(id))
        .count();
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
        robots_on_ground: on_ground,
        threads: rayon::current_num_threads(),
        holding: ids
            .iter()
            .filter(|&&id| full.arm_state(id).is_some_and(|a| a.holding))
            .count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn scene(name: &str) -> Scene {
        let path = format!("{}/scenes/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        Scene::load(Path::new(&path)).expect("scene")
    }

    /// The bench field takes 100 robots, ten abreast at each flight, every one on level
    /// ground and at least a slot apart from the others.
    #[test]
    fn the_bench_field_places_100_robots_on_level_ground() {
        let field = scene("bench_field");
        let spawns = bench_spawns(&field, 100).expect("100 robots fit");
        for (i, a) in spawns.iter().enumerate() {
            for b in &spawns[i + 1..] {
                let d = (a.position - b.position).norm();
                assert!(d >= SLOT_WIDTH - 1e-9, "{} and {}: {d}", a.name, b.name);
            }
        }
        let lateral = spawns
            .iter()
            .map(|s| s.position.y - (s.position.y / 12.0).round() * 12.0);
        assert!(lateral.fold(0.0f64, |m, y| m.max(y.abs())) <= 5.0);
    }

    /// The driver's pitch is the pitch of nalgebra's roll–pitch–yaw angles, negated, bit for
    /// bit: over random turns, and at the poles.
    #[test]
    fn nose_up_pitch_is_the_negated_euler_pitch() {
        let mut rng = crate::rng::SplitMix64(7);
        let mut turns: Vec<UnitQuaternion<f64>> = (0..5000)
            .map(|_| {
                UnitQuaternion::from_euler_angles(
                    rng.range(-3.2, 3.2),
                    rng.range(-1.6, 1.6),
                    rng.range(-3.2, 3.2),
                )
            })
            .collect();
        turns.push(UnitQuaternion::from_euler_angles(
            0.3,
            std::f64::consts::FRAC_PI_2,
            0.0,
        ));
        turns.push(UnitQuaternion::from_euler_angles(
            0.3,
            -std::f64::consts::FRAC_PI_2,
            0.0,
        ));
        for q in turns {
            let (_, pitch, _) = q.euler_angles();
            assert_eq!(nose_up_pitch(&q).to_bits(), (-pitch).to_bits(), "{q:?}");
        }
    }

    /// The default rounds are simulated time at the default step: 4 s after 10 s (a default
    /// counted in steps measured another part of the climb once the step changed).
    #[test]
    fn the_default_rounds_are_simulated_time() {
        let config = BenchConfig::default();
        let dt = SimConfig::default().dt;
        assert!((config.steps as f64 * dt - ROUND_TIME).abs() < dt);
        assert!((config.warmup as f64 * dt - WARMUP_TIME).abs() < dt);
        assert_eq!(steps_for(4.0, 0.005), 800);
        assert_eq!(steps_for(4.0, 0.002), 2000);
    }

    /// The trace digest is a fingerprint of the trajectory: the same drive gives the same
    /// digest bit for bit, a belt 1 mm/s slower a different one, and so does one step more.
    #[test]
    fn the_trace_digest_repeats_and_tells_trajectories_apart() {
        let path = format!("{}/scenes/robots/scout.toml", env!("CARGO_MANIFEST_DIR"));
        let spec = crate::vehicle::robot_file::load_robot(Path::new(&path)).expect("robot");
        let driver = StairDriver::default();
        let run = |steps, driver| {
            trace_digest(
                scene("public_stairs"),
                &spec,
                1,
                steps,
                driver,
                None,
                SimConfig::default(),
            )
            .expect("digest")
        };
        let first = run(400, driver);
        assert_eq!(first, run(400, driver));
        assert_eq!(first.steps, 400);
        let slower = StairDriver {
            speed: driver.speed - 0.001,
            ..driver
        };
        assert_ne!(first.digest, run(400, slower).digest);
        assert_ne!(first.digest, run(401, driver).digest);
        // Standing on the floor at the foot of the flight, not fallen through it.
        assert!(first.lowest_robot_z.abs() < 0.05, "{first:?}");
    }

    /// On the public stairs (one spawn, a 12 m wide floor) robots beside the spawn stand on
    /// the floor up to 6 m out; the 14th would stand beside the scene: the bench refuses,
    /// naming it.
    #[test]
    fn a_robot_placed_beside_the_scene_is_refused() {
        let stairs = scene("public_stairs");
        assert_eq!(bench_spawns(&stairs, 11).expect("eleven fit").len(), 11);
        let e = bench_spawns(&stairs, 14).expect_err("the 14th is off the floor");
        let text = e.to_string();
        assert!(
            ["robot 11 ", "robot 12 ", "robot 13 "]
                .iter()
                .any(|r| text.contains(r))
                && (text.contains("no ground") || text.contains("not level")),
            "{text}"
        );
    }
}
