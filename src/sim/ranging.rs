//! The range sensor at run time: the fan of a robot's [`RangeSensorSpec`] cast against the
//! scene's terrain at the sensor's rate, each range blurred by its Gaussian noise, and the
//! returns laid out as a terrain profile in the vertical plane of the robot's heading — what
//! the autopilot reads stairs from and the HUD draws.
//!
//! The rays meet the terrain mesh only (not other robots, traffic or movable objects). The
//! noise comes from the crate's one PRNG, seeded per sensor, so a scan sequence is the same
//! on every run; the sensor is read by drivers outside `Simulation::step` and its readings
//! reach the robot only as the driver's logged commands, so replay does not depend on it.

use nalgebra::{Point3, Vector3};

use super::{RobotId, Simulation};
use crate::rng::SplitMix64;
use crate::vehicle::range_sensor::RangeSensorSpec;
use crate::vehicle::BodyState;

/// One return of a scan, in the vertical plane of the robot's heading through its body
/// origin: `ahead` m along the heading (horizontal), `height` m above the body origin
/// (world z). The body origin is the footprint's centre on the ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProfilePoint {
    /// Index of the ray in the fan.
    pub ray: usize,
    /// Horizontal distance ahead of the body origin along the heading, m.
    pub ahead: f64,
    /// Height above the body origin, m (world z).
    pub height: f64,
}

/// The latest scan of a range sensor.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RangeScan {
    /// Simulation time of the scan, s.
    pub time: f64,
    /// The returns, in ray order (rays that met nothing within range are left out).
    pub points: Vec<ProfilePoint>,
}

/// A robot's range sensor: its fan, the time of the next scan and the noise generator.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeSensor {
    spec: RangeSensorSpec,
    rng: SplitMix64,
    next: f64,
    scan: RangeScan,
}

impl RangeSensor {
    /// A sensor with the fan of `spec`, its noise drawn from `seed`; the first call to
    /// [`RangeSensor::read`] scans.
    pub fn new(spec: RangeSensorSpec, seed: u64) -> Self {
        Self {
            spec,
            rng: SplitMix64(seed),
            next: f64::NEG_INFINITY,
            scan: RangeScan::default(),
        }
    }

    /// The sensor's description.
    pub fn spec(&self) -> &RangeSensorSpec {
        &self.spec
    }

    /// The latest scan of robot `id`'s surroundings in `sim`, scanning anew when a period
    /// (1/rate) has passed since the last one.
    pub fn read(&mut self, sim: &Simulation, id: RobotId) -> &RangeScan {
        let now = sim.time();
        if now >= self.next {
            let body = sim.body_state(id);
            self.scan_now(sim, &body, now);
            // On the sensor's own clock: a scan every period, not drifting with the step.
            let period = 1.0 / self.spec.rate;
            self.next = if self.next.is_finite() {
                (self.next + period).max(now + 0.5 * period)
            } else {
                now + period
            };
        }
        &self.scan
    }

    /// Casts every ray of the fan from the hull at `body` now.
    fn scan_now(&mut self, sim: &Simulation, body: &BodyState, now: f64) {
        let terrain = &sim.scene().terrain;
        let forward = body.pose.rotation * Vector3::x();
        let heading = Vector3::new(forward.x, forward.y, 0.0)
            .try_normalize(1e-9)
            .unwrap_or_else(Vector3::x);
        let base: Point3<f64> = body.pose.translation.vector.into();
        self.scan.time = now;
        self.scan.points.clear();
        for i in 0..self.spec.rays {
            let (from, dir) = self.spec.world_ray(&body.pose, i);
            let noise = self.spec.noise * self.gaussian();
            let Some(range) = terrain.ray_distance(&from, &dir, self.spec.range) else {
                continue;
            };
            let hit = from + dir * (range + noise).max(0.0);
            let offset = hit - base;
            self.scan.points.push(ProfilePoint {
                ray: i,
                ahead: offset.dot(&heading),
                height: offset.z,
            });
        }
    }

    /// A standard normal sample (Box–Muller on two uniforms).
    fn gaussian(&mut self) -> f64 {
        let u = self.rng.next_f64().max(f64::MIN_POSITIVE);
        let v = self.rng.next_f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SourceFile;
    use crate::scene::Scene;
    use crate::sim::SimConfig;
    use crate::vehicle::robot_file::load_robot;
    use std::path::Path;

    fn on_flat(noise: f64) -> (Simulation, RobotId, RangeSensorSpec) {
        let text = "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.5]\nposition = [0, 0, -0.5]\n\
                    [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n";
        let scene = Scene::from_source(&SourceFile::from_text(Path::new("t.toml"), text.into()))
            .expect("scene");
        let spec = load_robot(Path::new("scenes/robots/scout.toml")).expect("scout");
        let mut sensor = spec.range_sensor.clone().expect("the scout has a sensor");
        sensor.noise = noise;
        let spawn = scene.spawns[0].clone();
        let mut sim = Simulation::new(scene, SimConfig::default()).expect("sim");
        let id = sim.add_robot(spec, &spawn).expect("robot");
        sim.run_for(0.5);
        (sim, id, sensor)
    }

    /// On flat ground every return lies on the floor, at the distance the ray's angle and
    /// the mount height give (within the robot's settling, 5 mm).
    #[test]
    fn returns_on_flat_ground_lie_on_the_floor() {
        let (sim, id, spec) = on_flat(0.0);
        let mut sensor = RangeSensor::new(spec.clone(), 1);
        let scan = sensor.read(&sim, id).clone();
        assert!(!scan.points.is_empty());
        for p in &scan.points {
            assert!(p.height.abs() < 0.005, "{p:?}");
        }
        // The steepest ray meets the floor below the mount, at mount height / tan(angle).
        let nearest = scan
            .points
            .iter()
            .map(|p| p.ahead)
            .fold(f64::INFINITY, f64::min);
        let expected = spec.position.x + spec.position.z / spec.fan.1.tan();
        assert!((nearest - expected).abs() < 0.01, "{nearest} vs {expected}");
    }

    /// The noise has the stated spread, the scan keeps its rate, and the same seed gives the
    /// same scan.
    #[test]
    fn noise_has_its_spread_and_scans_keep_their_rate() {
        let (mut sim, id, spec) = on_flat(0.02);
        let mut sensor = RangeSensor::new(spec.clone(), 7);
        let first = sensor.read(&sim, id).clone();
        let mut again = RangeSensor::new(spec.clone(), 7);
        assert_eq!(again.read(&sim, id), &first);
        // Ranges blur along the ray: the heights scatter by noise · sin(angle); their spread
        // over a scan is within 30 % of the expected.
        let mut sum = 0.0;
        let mut expected = 0.0;
        for p in &first.points {
            let below = -spec.ray_direction(p.ray).z;
            sum += p.height * p.height;
            expected += (spec.noise * below).powi(2);
        }
        let ratio = (sum / expected).sqrt();
        assert!((0.7..1.3).contains(&ratio), "spread ratio {ratio}");
        let mut times = vec![first.time];
        for _ in 0..(1.0 / sim.config().dt) as usize {
            sim.step();
            let t = sensor.read(&sim, id).time;
            if t != *times.last().expect("one") {
                times.push(t);
            }
        }
        let expected = (spec.rate + 1.0) as usize;
        assert!(
            times.len().abs_diff(expected) <= 1,
            "{} scans in 1 s",
            times.len()
        );
    }
}
