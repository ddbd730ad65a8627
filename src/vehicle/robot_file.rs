//! Reading robot description files (`scenes/robots/*.toml`) into a [`RobotSpec`].
//!
//! The format is documented field by field in `scenes/robots/README.md`. Every value goes
//! through [`TableReader`], so each error — syntax, type, range, unknown field, and the
//! cross-field checks below — is reported as `file:line:column: field.path: message`.
//!
//! Conventions (DESIGN.md): SI units, body frame x forward, y left, z up. The body origin is
//! the centre of the robot's footprint on the ground plane under the tracks: z = 0 is the
//! plane touching the lowest main-track circles, so a robot spawned with its origin on a
//! ground point stands on the ground. Angles are `*_deg` in files and radians in the spec.
//!
//! Only clearly impossible descriptions are refused (negative sizes, an inertia no body can
//! have, a flipper on a track that does not exist, …); plausibility is the author's business.

use std::path::Path;

use nalgebra::{Point3, Vector3};

use super::arm::read_arm;
use super::file_limits::*;
use super::range_sensor::read_range_sensor;
use super::spec::{
    BeltSpec, CameraSpec, CircleSpec, Differential, FlipperSpec, HullShape, MotorSpec, RobotSpec,
    Steering, TrackSpec, WheelSpec,
};
use super::wheel_file::read_wheels;
use crate::config::{ConfigError, SourceFile, TableReader};
use crate::track::grouser::Grousers;

/// Gravity used for the default flipper torque, m/s².
const STANDARD_GRAVITY: f64 = 9.81;
/// Belt fields that have a built-in default (width and stiffness have none).
const DEFAULT_PLANES: u32 = 2;
const DEFAULT_DAMPING: f64 = 4.0;
/// Tread rubber has a loss factor tan δ ≈ 0.1–0.2 at 10–20 Hz (the contact modes of a
/// parked robot); a Kelvin–Voigt solid has tan δ = ω·τ, so τ ≈ 0.15 / (2π·12 Hz) ≈ 2 ms.
const DEFAULT_RELAXATION_TIME: f64 = 0.002;
const DEFAULT_RUN_STIFFNESS_MID: f64 = 0.3;
const DEFAULT_LATERAL_FRICTION_SCALE: f64 = 1.0;
const DEFAULT_ROLLING_RESISTANCE: f64 = 0.03;
/// Largest grouser height or pitch accepted, m (bulldozer grousers are ~0.07 m high).
const MAX_GROUSER: f64 = 0.2;

/// Reads and validates the robot file at `path`.
pub fn load_robot(path: &Path) -> Result<RobotSpec, ConfigError> {
    let file = SourceFile::read(path)?;
    robot_from_source(&file)
}

/// The robot preset `scenes/robots/<name>.toml`: what unit tests drive.
#[cfg(test)]
pub(crate) fn test_preset(name: &str) -> RobotSpec {
    let path = format!("{}/scenes/robots/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    load_robot(Path::new(&path)).expect("robot preset")
}

/// Builds a robot from file text already in memory.
pub fn robot_from_source(file: &SourceFile) -> Result<RobotSpec, ConfigError> {
    let root = file.parse()?;
    let body = read_body(&root)?;
    let belt_defaults = match root.opt_table("belt_defaults")? {
        Some(t) => {
            let b = PartialBelt::read(&t)?;
            t.finish()?;
            b
        }
        None => PartialBelt::default(),
    };
    let mut names: Vec<String> = Vec::new();
    let running = read_running_gear(&root, &belt_defaults, &mut names)?;
    let mut flippers = Vec::new();
    for t in root.tables("flipper", MAX_FLIPPERS)? {
        flippers.push(read_flipper(
            &t,
            &running.tracks,
            &belt_defaults,
            body.mass,
            &mut names,
        )?);
    }
    let cameras = read_cameras(&root)?;
    let arm = read_arm(&root)?;
    let range_sensor = read_range_sensor(&root)?;
    root.finish()?;
    Ok(RobotSpec {
        name: body.name,
        mass: body.mass,
        center_of_mass: body.center_of_mass,
        inertia: body.inertia,
        hull: body.hull,
        tracks: running.tracks,
        flippers,
        wheels: running.wheels,
        steering: running.steering,
        differential: running.differential,
        cameras,
        arm,
        range_sensor,
    })
}

/// The `[robot]` and `[hull]` tables: the rigid body (body frame, SI units).
struct Body {
    name: String,
    /// kg.
    mass: f64,
    /// m, body frame.
    center_of_mass: Point3<f64>,
    /// Principal moments, kg·m² (a solid box of the hull's size when the file gives none).
    inertia: Vector3<f64>,
    hull: HullShape,
}

/// Reads `[robot]` and `[hull]`: the hull must stand above the tracks' ground plane and hold
/// the centre of mass (within [`COM_MARGIN`]).
fn read_body(root: &TableReader<'_>) -> Result<Body, ConfigError> {
    let robot = root
        .opt_table("robot")?
        .ok_or_else(|| root.error("robot", "missing required table [robot]"))?;
    let name = non_empty_str(&robot, "name")?;
    // Free text for people and file browsers; the spec has no field for it.
    let _description = robot.opt_str("description")?;
    let mass = robot.positive("mass", MAX_MASS)?;
    let com = robot.array::<3>("center_of_mass", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let inertia = if robot.has("inertia") {
        let i = robot.positive_array::<3>("inertia", MAX_INERTIA)?;
        check_triangle_inequality(i).map_err(|m| robot.error("inertia", m))?;
        Some(Vector3::from(i))
    } else {
        None
    };
    robot.finish()?;

    let hull = root
        .opt_table("hull")?
        .ok_or_else(|| root.error("hull", "missing required table [hull]"))?;
    let size = Vector3::from(hull.positive_array::<3>("size", MAX_ROBOT_EXTENT)?);
    let center = Point3::from(hull.array::<3>("center", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?);
    hull.finish()?;
    let bottom = center.z - size.z / 2.0;
    if bottom < 0.0 {
        return Err(hull.error(
            "center",
            format!(
                "the hull box reaches down to z = {bottom:.4} m, below the ground plane of the \
                 tracks (z = 0); it would rest on the ground instead of the tracks"
            ),
        ));
    }
    let half = size / 2.0 + Vector3::repeat(COM_MARGIN);
    let d = Point3::from(com) - center;
    if d.x.abs() > half.x || d.y.abs() > half.y || d.z.abs() > half.z {
        return Err(robot.error(
            "center_of_mass",
            format!(
                "the centre of mass is outside the hull box grown by {COM_MARGIN} m \
                 (hull centre [{}, {}, {}], size [{}, {}, {}])",
                center.x, center.y, center.z, size.x, size.y, size.z
            ),
        ));
    }
    // Default: a solid box of the hull's size.
    let inertia = inertia.unwrap_or_else(|| {
        let (a, b, c) = (size.x * size.x, size.y * size.y, size.z * size.z);
        Vector3::new(b + c, a + c, a + b) * (mass / 12.0)
    });
    Ok(Body {
        name,
        mass,
        center_of_mass: Point3::from(com),
        inertia,
        hull: HullShape::Box { size, center },
    })
}

/// What the robot runs on: main tracks, or wheels with their steering and differential.
struct RunningGear {
    tracks: Vec<TrackSpec>,
    wheels: Vec<WheelSpec>,
    steering: Steering,
    differential: Differential,
}

/// Reads the `[[track]]` or `[[wheel]]` tables (one kind, at least one table); the lowest
/// main-track circle must touch the ground plane z = 0 (within [`GROUND_TOLERANCE`]).
fn read_running_gear(
    root: &TableReader<'_>,
    belt_defaults: &PartialBelt,
    names: &mut Vec<String>,
) -> Result<RunningGear, ConfigError> {
    let track_tables = root.tables("track", MAX_TRACKS)?;
    let wheel_tables = root.tables("wheel", MAX_WHEELS)?;
    if track_tables.is_empty() && wheel_tables.is_empty() {
        return Err(root.error(
            "track",
            "a robot needs at least one [[track]] (tracked) or [[wheel]] (wheeled)",
        ));
    }
    if !track_tables.is_empty() && !wheel_tables.is_empty() {
        return Err(wheel_tables[0]
            .table_error("a robot has [[track]] tables or [[wheel]] tables, not both"));
    }
    let (wheels, steering, differential) = if wheel_tables.is_empty() {
        (Vec::new(), Steering::Skid, Differential::Electronic)
    } else {
        read_wheels(root, &wheel_tables)?
    };
    let mut tracks = Vec::with_capacity(track_tables.len());
    let mut lowest: Option<(f64, ConfigError)> = None;
    for t in &track_tables {
        let track = read_track(t, belt_defaults, names, &mut lowest)?;
        tracks.push(track);
    }
    if let Some((bottom, at)) = lowest {
        if bottom.abs() > GROUND_TOLERANCE {
            return Err(ConfigError {
                message: format!(
                    "the lowest main-track circle has its bottom at z = {bottom:.4} m; the body \
                     origin must be on the ground plane under the tracks (z = 0 at the bottom \
                     of the lowest wheels, within {GROUND_TOLERANCE} m): shift every z by \
                     {:.4} m",
                    -bottom
                ),
                ..at
            });
        }
    }
    Ok(RunningGear {
        tracks,
        wheels,
        steering,
        differential,
    })
}

/// Reads the `[[camera]]` tables; names must differ.
fn read_cameras(root: &TableReader<'_>) -> Result<Vec<CameraSpec>, ConfigError> {
    root.named_tables(
        "camera",
        MAX_CAMERAS,
        "camera",
        |t| read_camera(t, None),
        |c| &c.name,
    )
}

/// A text field that must not be blank.
pub(in crate::vehicle) fn non_empty_str(
    t: &TableReader<'_>,
    key: &str,
) -> Result<String, ConfigError> {
    let s = t.str(key)?;
    if s.trim().is_empty() {
        return Err(t.error(key, "must not be empty"));
    }
    Ok(s)
}

/// Principal moments of a real body obey Ixx + Iyy ≥ Izz and its two rotations.
fn check_triangle_inequality(i: [f64; 3]) -> Result<(), String> {
    let names = ["Ixx", "Iyy", "Izz"];
    for k in 0..3 {
        let (a, b, c) = ((k + 1) % 3, (k + 2) % 3, k);
        // Equality is a flat plate or a thin rod; allow rounding in the file.
        if i[a] + i[b] < i[c] * (1.0 - 1e-9) {
            return Err(format!(
                "no rigid body has these principal moments: {} + {} = {} is less than {} = {} \
                 (each moment must be at most the sum of the other two)",
                names[a],
                names[b],
                i[a] + i[b],
                names[c],
                i[c]
            ));
        }
    }
    Ok(())
}

/// Belt fields as read from `[belt_defaults]` or a `belt` table, before merging.
#[derive(Debug, Clone, Copy, Default)]
struct PartialBelt {
    width: Option<f64>,
    planes: Option<u32>,
    stiffness: Option<f64>,
    damping: Option<f64>,
    relaxation_time: Option<f64>,
    run_stiffness_mid: Option<f64>,
    lateral_friction_scale: Option<f64>,
    rolling_resistance: Option<f64>,
    grouser_height: Option<f64>,
    grouser_pitch: Option<f64>,
}

impl PartialBelt {
    fn read(t: &TableReader<'_>) -> Result<Self, ConfigError> {
        if t.has("grouser_friction") {
            return Err(t.error(
                "grouser_friction",
                "replaced by `grouser_height` and `grouser_pitch` (m): grousers now hook an \
                 edge by its shape and the surface's μ (see scenes/robots/README.md)",
            ));
        }
        Ok(Self {
            width: t.opt_positive("width", MAX_ROBOT_EXTENT)?,
            planes: t.opt_int("planes", 1, MAX_PLANES)?.map(|n| n as u32),
            stiffness: t.opt_positive("stiffness", MAX_STIFFNESS)?,
            damping: t.opt_f64("damping", 0.0, 1000.0)?,
            relaxation_time: t.opt_f64("relaxation_time", 0.0, 1.0)?,
            run_stiffness_mid: t.opt_positive("run_stiffness_mid", 1.0)?,
            lateral_friction_scale: t.opt_f64("lateral_friction_scale", 0.0, 10.0)?,
            rolling_resistance: t.opt_f64("rolling_resistance", 0.0, 1.0)?,
            grouser_height: t.opt_f64("grouser_height", 0.0, MAX_GROUSER)?,
            grouser_pitch: t.opt_f64("grouser_pitch", 0.0, MAX_GROUSER)?,
        })
    }

    /// Fields of `self` where given, else those of `under`.
    fn over(self, under: &Self) -> Self {
        Self {
            width: self.width.or(under.width),
            planes: self.planes.or(under.planes),
            stiffness: self.stiffness.or(under.stiffness),
            damping: self.damping.or(under.damping),
            relaxation_time: self.relaxation_time.or(under.relaxation_time),
            run_stiffness_mid: self.run_stiffness_mid.or(under.run_stiffness_mid),
            lateral_friction_scale: self.lateral_friction_scale.or(under.lateral_friction_scale),
            rolling_resistance: self.rolling_resistance.or(under.rolling_resistance),
            grouser_height: self.grouser_height.or(under.grouser_height),
            grouser_pitch: self.grouser_pitch.or(under.grouser_pitch),
        }
    }

    /// The merged belt of the track or flipper `owner`, which reports missing fields.
    fn complete(self, owner: &TableReader<'_>) -> Result<BeltSpec, ConfigError> {
        let missing = |key: &str| {
            owner.error(
                &format!("belt.{key}"),
                format!("missing: give `{key}` in [belt_defaults] or in this belt table"),
            )
        };
        let grousers = Grousers {
            height: self.grouser_height.unwrap_or(0.0),
            pitch: self.grouser_pitch.unwrap_or(0.0),
        };
        if (grousers.height > 0.0) != (grousers.pitch > 0.0) {
            return Err(owner.error(
                "belt.grouser_pitch",
                "give both `grouser_height` and `grouser_pitch` (> 0) for a belt with \
                 grousers, or neither for a smooth belt",
            ));
        }
        Ok(BeltSpec {
            width: self.width.ok_or_else(|| missing("width"))?,
            planes: self.planes.unwrap_or(DEFAULT_PLANES),
            stiffness: self.stiffness.ok_or_else(|| missing("stiffness"))?,
            damping: self.damping.unwrap_or(DEFAULT_DAMPING),
            relaxation_time: self.relaxation_time.unwrap_or(DEFAULT_RELAXATION_TIME),
            run_stiffness_mid: self.run_stiffness_mid.unwrap_or(DEFAULT_RUN_STIFFNESS_MID),
            lateral_friction_scale: self
                .lateral_friction_scale
                .unwrap_or(DEFAULT_LATERAL_FRICTION_SCALE),
            rolling_resistance: self
                .rolling_resistance
                .unwrap_or(DEFAULT_ROLLING_RESISTANCE),
            grousers,
        })
    }
}

/// The belt of a track or flipper: its optional `belt` table over the defaults.
fn read_belt(owner: &TableReader<'_>, defaults: &PartialBelt) -> Result<BeltSpec, ConfigError> {
    let own = match owner.opt_table("belt")? {
        Some(t) => {
            let b = PartialBelt::read(&t)?;
            t.finish()?;
            b
        }
        None => PartialBelt::default(),
    };
    own.over(defaults).complete(owner)
}

/// A circle table `{ x, z, radius }`, and an error template located at its `z`.
fn read_circle(t: &TableReader<'_>) -> Result<(CircleSpec, ConfigError), ConfigError> {
    let x = t.f64("x", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let z = t.f64("z", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let radius = t.positive("radius", MAX_ROBOT_EXTENT)?;
    t.finish()?;
    Ok((CircleSpec { x, z, radius }, t.error("z", "")))
}

fn required_table<'f>(t: &TableReader<'f>, key: &str) -> Result<TableReader<'f>, ConfigError> {
    t.opt_table(key)?
        .ok_or_else(|| t.error(key, "missing required field"))
}

/// A track's or flipper's name: non-empty and unique among tracks and flippers.
fn unique_name(t: &TableReader<'_>, names: &mut Vec<String>) -> Result<String, ConfigError> {
    let name = non_empty_str(t, "name")?;
    if names.contains(&name) {
        return Err(t.error(
            "name",
            format!("the name '{name}' is already used by another track or flipper"),
        ));
    }
    names.push(name.clone());
    Ok(name)
}

fn read_track(
    t: &TableReader<'_>,
    belt_defaults: &PartialBelt,
    names: &mut Vec<String>,
    lowest: &mut Option<(f64, ConfigError)>,
) -> Result<TrackSpec, ConfigError> {
    let name = unique_name(t, names)?;
    let y = t.f64("y", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let mut note_lowest = |(c, at): (CircleSpec, ConfigError)| {
        let bottom = c.z - c.radius;
        if lowest.as_ref().is_none_or(|(b, _)| bottom < *b) {
            *lowest = Some((bottom, at));
        }
        c
    };
    let sprocket = note_lowest(read_circle(&required_table(t, "sprocket")?)?);
    let idler_table = required_table(t, "idler")?;
    let idler = note_lowest(read_circle(&idler_table)?);
    if (idler.x - sprocket.x).abs() < MIN_WHEELBASE {
        return Err(idler_table.error(
            "x",
            format!(
                "the idler must not be at the sprocket's x ({}): they are the two ends of the \
                 track",
                sprocket.x
            ),
        ));
    }
    let mut road_wheels = Vec::new();
    for c in t.tables("road_wheels", MAX_CIRCLES - 2)? {
        road_wheels.push(note_lowest(read_circle(&c)?));
    }
    let roller_tables = t.tables("rollers", MAX_CIRCLES - 2)?;
    if road_wheels.len() + roller_tables.len() > MAX_CIRCLES - 2 {
        return Err(t.error(
            "rollers",
            format!(
                "a track has at most {MAX_CIRCLES} circles: the sprocket, the idler, {} road \
                 wheels and {} rollers are {}",
                road_wheels.len(),
                roller_tables.len(),
                road_wheels.len() + roller_tables.len() + 2
            ),
        ));
    }
    let mut rollers = Vec::new();
    for c in roller_tables {
        rollers.push(note_lowest(read_circle(&c)?));
    }
    let m = required_table(t, "motor")?;
    let motor = MotorSpec {
        max_speed: m.positive("max_speed", 100.0)?,
        max_torque: m.positive("max_torque", 1.0e6)?,
        max_acceleration: m.positive("max_acceleration", 1000.0)?,
        belt_inertia: m.positive("belt_inertia", 1.0e5)?,
    };
    m.finish()?;
    let belt = read_belt(t, belt_defaults)?;
    t.finish()?;
    Ok(TrackSpec {
        name,
        y,
        belt,
        sprocket,
        idler,
        road_wheels,
        rollers,
        motor,
    })
}

fn read_flipper(
    t: &TableReader<'_>,
    tracks: &[TrackSpec],
    belt_defaults: &PartialBelt,
    mass: f64,
    names: &mut Vec<String>,
) -> Result<FlipperSpec, ConfigError> {
    let name = unique_name(t, names)?;
    let track = t.str("track")?;
    if !tracks.iter().any(|k| k.name == track) {
        let known: Vec<&str> = tracks.iter().map(|k| k.name.as_str()).collect();
        return Err(t.error(
            "track",
            format!(
                "no main track is named '{track}' (tracks: {})",
                known.join(", ")
            ),
        ));
    }
    let y = t.f64("y", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let [axis_x, axis_z] = t.array::<2>("axis", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let circle_tables = t.tables("circles", MAX_CIRCLES)?;
    if circle_tables.is_empty() {
        return Err(t.error("circles", "a flipper needs at least one circle"));
    }
    let mut circles = Vec::with_capacity(circle_tables.len());
    for c in &circle_tables {
        circles.push(read_circle(c)?.0);
    }
    let mean_x = circles.iter().map(|c| c.x - axis_x).sum::<f64>() / circles.len() as f64;
    if mean_x.abs() < MIN_WHEELBASE {
        return Err(t.error(
            "circles",
            "at angle 0 the circles must lie, on average, ahead of the axis (a front flipper) \
             or behind it (a rear flipper)",
        ));
    }
    let min = t.f64("min_angle_deg", -360.0, 360.0)?;
    let max = t.f64("max_angle_deg", -360.0, 360.0)?;
    if max <= min {
        return Err(t.error(
            "max_angle_deg",
            format!("must be greater than min_angle_deg ({min})"),
        ));
    }
    let max_rate = t.positive("max_rate_deg", 3600.0)?;
    let max_torque = t.opt_positive("max_torque", MAX_FLIPPER_TORQUE)?;
    let initial = t
        .opt_f64("initial_angle_deg", -360.0, 360.0)?
        .unwrap_or(0.0);
    if initial < min || initial > max {
        return Err(t.error(
            "initial_angle_deg",
            format!("{initial} is outside [min_angle_deg, max_angle_deg] = [{min}, {max}]"),
        ));
    }
    let belt = read_belt(t, belt_defaults)?;
    t.finish()?;
    // Default: the flipper alone can carry the robot's whole weight at its tip held level.
    let reach = circles
        .iter()
        .map(|c| (c.x - axis_x).hypot(c.z - axis_z) + c.radius)
        .fold(0.0, f64::max);
    let max_torque = max_torque.unwrap_or(mass * STANDARD_GRAVITY * reach);
    Ok(FlipperSpec {
        name,
        track,
        y,
        axis_x,
        axis_z,
        circles,
        belt,
        min_angle: min.to_radians(),
        max_angle: max.to_radians(),
        max_rate: max_rate.to_radians(),
        max_torque,
        initial_angle: initial.to_radians(),
    })
}

/// A `[[camera]]` table, or a camera table inside another (the gripper's), whose `name` may
/// then be left out for `default_name`.
pub(in crate::vehicle) fn read_camera(
    t: &TableReader<'_>,
    default_name: Option<&str>,
) -> Result<CameraSpec, ConfigError> {
    let name = match default_name {
        Some(default) if !t.has("name") => default.to_string(),
        _ => non_empty_str(t, "name")?,
    };
    let position = t.array::<3>("position", -MAX_ROBOT_EXTENT, MAX_ROBOT_EXTENT)?;
    let rpy = t
        .opt_array::<3>("rpy_deg", -360.0, 360.0)?
        .unwrap_or([0.0; 3]);
    let fov = t.opt_positive("fov_deg", 179.0)?.unwrap_or(DEFAULT_FOV_DEG);
    t.finish()?;
    Ok(CameraSpec {
        name,
        position: Point3::from(position),
        rpy: Vector3::from(rpy.map(f64::to_radians)),
        fov: fov.to_radians(),
    })
}
