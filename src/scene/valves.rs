//! Handwheel valves in a scene (`[[valve]]`): a wheel on a fixed stem that a robot's gripper
//! takes hold of and turns, against the valve's friction torque, between its closed and fully
//! open stops (seed 004's nuclear plants; the valve-turning task of manipulator trials).
//!
//! ```toml
//! [[valve]]
//! name = "feed"
//! position = [4.0, 1.2, 0.55]  # the hub's centre, world, m
//! axis = [-1, 0, 0]            # the stem, out of the wheel's face toward the operator
//! radius = 0.12                # the rim's centre line, m
//! torque = 1.5                 # friction torque to turn it, N·m
//! travel = 4                   # turns from closed to fully open
//! open = 4                     # where it starts, turns open (0: closed)
//! ```
//!
//! Turning the wheel clockwise as its operator faces it (a negative turn about `axis`) closes
//! it: "righty-tighty", as valves are made.

use nalgebra::{Point3, Unit, Vector3};

use super::load::{read_surface, MAX_EXTENT};
use crate::config::{ConfigError, TableReader};
use crate::terrain::SurfaceMaterial;

/// Most `[[valve]]` tables in one scene.
pub const MAX_VALVES: usize = 200;
/// Largest handwheel accepted, rim radius, m.
pub const MAX_VALVE_RADIUS: f64 = 1.0;
/// Stiffest valve accepted, friction torque, N·m.
pub const MAX_VALVE_TORQUE: f64 = 2000.0;
/// Longest travel accepted, turns.
pub const MAX_VALVE_TRAVEL: f64 = 100.0;

/// One handwheel valve as the scene file places it.
#[derive(Debug, Clone, PartialEq)]
pub struct ValveSpec {
    /// Name, unique among the scene's valves (exercises and logs refer to it).
    pub name: String,
    /// The hub's centre, m, world frame.
    pub centre: Point3<f64>,
    /// The stem's axis, out of the wheel's face toward the operator, world frame.
    pub axis: Unit<Vector3<f64>>,
    /// Radius of the rim's centre line, m.
    pub radius: f64,
    /// Radius of the rim's and spokes' section, m.
    pub rim: f64,
    /// Number of spokes (2–8).
    pub spokes: u32,
    /// The wheel's mass, kg (default: solid steel, [`steel_wheel_mass`]).
    pub mass: f64,
    /// Friction torque the stem's packing and thread resist turning with, N·m (Coulomb:
    /// the same at any speed, and at rest up to it).
    pub torque: f64,
    /// Turns from closed to fully open.
    pub travel: f64,
    /// Where it starts, turns open (0: closed, `travel`: fully open).
    pub open: f64,
    /// Friction coefficient μ of the rim and spokes.
    pub friction: f64,
    /// Display colour, linear RGB in 0..=1.
    pub color: [f32; 3],
}

impl ValveSpec {
    /// Radius of a sphere about the hub that holds the wheel, m.
    pub fn bounding_radius(&self) -> f64 {
        self.radius + self.rim
    }
}

/// Density of a handwheel's steel, kg/m³.
const STEEL_DENSITY: f64 = 7850.0;

/// The hub's radius of a wheel of rim radius `radius` and rim section `rim`, m: the larger of
/// twice the rim's section and a fifth of the wheel; the hub is as long as its radius.
pub fn hub_radius(radius: f64, rim: f64) -> f64 {
    (2.0 * rim).max(0.2 * radius)
}

/// The mass of a solid steel handwheel, kg: its rim (a ring of section radius `rim` round a
/// centre line of radius `radius`), `spokes` spokes of 0.8 × that section from the hub to the
/// rim, and the hub ([`hub_radius`]).
pub fn steel_wheel_mass(radius: f64, rim: f64, spokes: u32) -> f64 {
    use std::f64::consts::PI;
    let hub = hub_radius(radius, rim);
    let ring = PI * rim * rim * 2.0 * PI * radius;
    let spoke = PI * (0.8 * rim).powi(2) * (radius - hub).max(0.0);
    let boss = PI * hub * hub * hub;
    STEEL_DENSITY * (ring + spokes as f64 * spoke + boss)
}

/// Reads the `[[valve]]` tables.
pub(crate) fn read_valves(
    root: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<Vec<ValveSpec>, ConfigError> {
    root.named_tables(
        "valve",
        MAX_VALVES,
        "valve",
        |t| read_valve(t, materials),
        |v| &v.name,
    )
}

fn read_valve(
    t: &TableReader<'_>,
    materials: &[SurfaceMaterial],
) -> Result<ValveSpec, ConfigError> {
    let name = t.str("name")?;
    if name.trim().is_empty() {
        return Err(t.error("name", "must not be empty"));
    }
    let centre = Point3::from(t.array::<3>("position", -MAX_EXTENT, MAX_EXTENT)?);
    let axis = Vector3::from(t.array::<3>("axis", -1e3, 1e3)?);
    let axis =
        Unit::try_new(axis, 1e-6).ok_or_else(|| t.error("axis", "must not be the zero vector"))?;
    let radius = t.positive("radius", MAX_VALVE_RADIUS)?;
    if radius < 0.03 {
        return Err(t.error("radius", "a handwheel is at least 0.03 m in radius"));
    }
    let rim = t.opt_positive("rim", 0.1)?.unwrap_or(0.01);
    if rim > 0.3 * radius {
        return Err(t.error(
            "rim",
            format!("the rim's section must be at most 0.3 x the radius ({radius} m)"),
        ));
    }
    let spokes = t.opt_int("spokes", 2, 8)?.unwrap_or(3) as u32;
    let mass = t
        .opt_positive("mass", 1000.0)?
        .unwrap_or_else(|| steel_wheel_mass(radius, rim, spokes));
    let torque = t.positive("torque", MAX_VALVE_TORQUE)?;
    let travel = t.positive("travel", MAX_VALVE_TRAVEL)?;
    let open = t.opt_f64("open", 0.0, travel)?.unwrap_or(travel);
    // Handwheels are painted red (shut-off) by most plant colour codes.
    let (friction, color) = read_surface(t, materials, Some([0.7, 0.08, 0.06]))?;
    t.finish()?;
    Ok(ValveSpec {
        name,
        centre,
        axis,
        radius,
        rim,
        spokes,
        mass,
        torque,
        travel,
        open,
        friction,
        color,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::SourceFile;

    fn read(text: &str) -> Result<Vec<ValveSpec>, ConfigError> {
        let file = SourceFile::from_text(Path::new("valves.toml"), text.to_string());
        let root = file.parse()?;
        read_valves(&root, &[SurfaceMaterial::default()])
    }

    const GOOD: &str = "[[valve]]\nname = \"feed\"\nposition = [1, 2, 0.5]\naxis = [-2, 0, 0]\n\
                        radius = 0.12\ntorque = 1.5\ntravel = 4\n";

    #[test]
    fn a_valve_reads_with_its_defaults() {
        let valves = read(GOOD).unwrap();
        let v = &valves[0];
        assert_eq!(v.name, "feed");
        assert_eq!(v.axis.into_inner(), Vector3::new(-1.0, 0.0, 0.0));
        assert_eq!((v.spokes, v.open, v.travel), (3, 4.0, 4.0));
        assert!((v.bounding_radius() - 0.13).abs() < 1e-12);
        // A 240 mm wheel of 10 mm section: rim π·0.01²·2π·0.12 = 2.37e-4 m³, three spokes
        // π·0.008²·0.096 = 1.93e-5 m³ each, hub π·0.024³ = 4.34e-5 m³; at 7850 kg/m³, 2.655 kg.
        assert!((v.mass - 2.655).abs() < 0.002, "{}", v.mass);
    }

    #[test]
    fn bad_valves_are_refused_with_file_line_and_field() {
        let cases: &[(&str, &str, &str)] = &[
            ("axis = [-2, 0, 0]", "axis = [0, 0, 0]", "valve[0].axis"),
            ("radius = 0.12", "radius = 0.01", "valve[0].radius"),
            ("torque = 1.5", "torque = -1", "valve[0].torque"),
            ("travel = 4", "travel = 4\nopen = 5", "valve[0].open"),
            ("travel = 4", "travel = 4\nspokes = 12", "valve[0].spokes"),
            ("travel = 4", "travel = 4\nrim = 0.05", "valve[0].rim"),
            ("travel = 4", "travel = 4\ncolour = 1", "colour"),
            (
                "travel = 4",
                "travel = 4\nmaterial = \"brass\"",
                "valve[0].material",
            ),
        ];
        for (old, new, field) in cases {
            let text = GOOD.replace(old, new);
            let message = read(&text).unwrap_err().to_string();
            assert!(
                message.contains("valves.toml") && message.contains(field),
                "{new}: {message}"
            );
        }
        let twice = format!("{GOOD}{GOOD}");
        let message = read(&twice).unwrap_err().to_string();
        assert!(message.contains("defined twice"), "{message}");
    }
}
