//! The robot's terrain-profiling range sensor, as its file describes it: a fan of rays in the
//! body's vertical x–z plane from a mount on the hull, like the planar laser scanners (Hokuyo
//! URG/UTM class) that response robots carry turned on their side to profile the ground ahead.
//! The scan itself (rays cast against the scene, noise, rate) is `sim::ranging`; what the
//! autopilot reads from it is `control::stair_reading`.
//!
//! ```toml
//! [range_sensor]
//! position = [0.30, 0.0, 0.22]   # mount, m, body frame
//! fan_deg = [-20, 70]            # first and last ray below the body's x axis, degrees
//! rays = 181                     # rays in the fan, evenly spaced
//! range = 4.0                    # farthest return, m
//! rate_hz = 10                   # scans per second
//! noise = 0.01                   # 1σ of each range, m
//! ```

use nalgebra::{Isometry3, Point3, Vector3};

use super::file_limits::MAX_ROBOT_EXTENT;
use crate::config::{ConfigError, TableReader};

/// Largest number of rays in a fan.
pub const MAX_RAYS: i64 = 2048;
/// Farthest range a sensor may claim, m.
pub const MAX_RANGE: f64 = 100.0;
/// Fastest scan rate accepted, Hz.
pub const MAX_RATE: f64 = 1000.0;
/// Largest 1σ range noise accepted, m.
pub const MAX_NOISE: f64 = 1.0;

/// A fan of range rays in the body's x–z plane.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeSensorSpec {
    /// Mount point, m, body frame.
    pub position: Point3<f64>,
    /// Angles of the first and last ray below the body's x axis, rad (negative: above it).
    pub fan: (f64, f64),
    /// Number of rays, evenly spaced over the fan (one ray: at the fan's first angle).
    pub rays: usize,
    /// Farthest return, m; a ray that meets nothing within it returns nothing.
    pub range: f64,
    /// Scans per second, Hz.
    pub rate: f64,
    /// Standard deviation of each range, m (Gaussian, along the ray).
    pub noise: f64,
}

impl RangeSensorSpec {
    /// Direction of ray `i`, body frame (unit; in the x–z plane, pointing ahead).
    pub fn ray_direction(&self, i: usize) -> Vector3<f64> {
        let share = if self.rays > 1 {
            i as f64 / (self.rays - 1) as f64
        } else {
            0.0
        };
        let below = self.fan.0 + share * (self.fan.1 - self.fan.0);
        Vector3::new(below.cos(), 0.0, -below.sin())
    }

    /// The mount's origin and ray `i`'s direction in the world, for a hull at `body`.
    pub fn world_ray(&self, body: &Isometry3<f64>, i: usize) -> (Point3<f64>, Vector3<f64>) {
        (body * self.position, body * self.ray_direction(i))
    }
}

/// Reads the optional `[range_sensor]` table of a robot file.
pub fn read_range_sensor(root: &TableReader<'_>) -> Result<Option<RangeSensorSpec>, ConfigError> {
    let Some(t) = root.opt_table("range_sensor")? else {
        return Ok(None);
    };
    let position = t.array::<3>("position", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let [first, last] = t.array::<2>("fan_deg", -90.0, 90.0)?;
    if last <= first {
        return Err(t.error(
            "fan_deg",
            format!("the last ray ({last}°) must lie below the first ({first}°)"),
        ));
    }
    let rays = t.int("rays", 1, MAX_RAYS)? as usize;
    let range = t.positive("range", MAX_RANGE)?;
    let rate = t.positive("rate_hz", MAX_RATE)?;
    let noise = t.opt_f64("noise", 0.0, MAX_NOISE)?.unwrap_or(0.0);
    t.finish()?;
    Ok(Some(RangeSensorSpec {
        position: Point3::from(position),
        fan: (first.to_radians(), last.to_radians()),
        rays,
        range,
        rate,
        noise,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SourceFile;
    use std::path::Path;

    fn read(text: &str) -> Result<Option<RangeSensorSpec>, ConfigError> {
        let file = SourceFile::from_text(Path::new("robot.toml"), text.into());
        let root = file.parse()?;
        read_range_sensor(&root)
    }

    #[test]
    fn a_fan_reads_and_its_rays_span_it() {
        let spec = read(
            "[range_sensor]\nposition = [0.3, 0, 0.2]\nfan_deg = [0, 90]\nrays = 3\n\
             range = 4\nrate_hz = 10\nnoise = 0.01\n",
        )
        .expect("reads")
        .expect("a sensor");
        assert_eq!(spec.rays, 3);
        assert!((spec.ray_direction(0) - Vector3::x()).norm() < 1e-12);
        let mid = spec.ray_direction(1);
        assert!(
            (mid.x - mid.z.abs()).abs() < 1e-12 && mid.z < 0.0,
            "{mid:?}"
        );
        assert!((spec.ray_direction(2) + Vector3::z()).norm() < 1e-12);
        assert_eq!(read("").expect("reads"), None);
    }

    #[test]
    fn bad_fans_are_located() {
        let base = "[range_sensor]\nposition = [0.3, 0, 0.2]\n";
        for (rest, field, what) in [
            (
                "fan_deg = [30, 10]\nrays = 3\nrange = 4\nrate_hz = 10\n",
                "fan_deg",
                "below the first",
            ),
            (
                "fan_deg = [0, 60]\nrays = 0\nrange = 4\nrate_hz = 10\n",
                "rays",
                "between 1",
            ),
            (
                "fan_deg = [0, 60]\nrays = 3\nrange = -4\nrate_hz = 10\n",
                "range",
                "greater than 0",
            ),
            (
                "fan_deg = [0, 60]\nrays = 3\nrange = 4\n",
                "rate_hz",
                "missing",
            ),
            (
                "fan_deg = [0, 60]\nrays = 3\nrange = 4\nrate_hz = 10\nbeam = 1\n",
                "beam",
                "unknown",
            ),
        ] {
            let e = read(&format!("{base}{rest}")).expect_err(rest);
            assert_eq!(e.field, format!("range_sensor.{field}"), "{e}");
            assert!(e.message.contains(what), "{e}");
        }
    }
}
