//! The robot description: everything a robot file says, in SI units and the body frame
//! (x forward, y left, z up; origin at the hull reference point, see DESIGN.md).

use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use crate::track::grouser::Grousers;

/// A circle of a track in the track plane: body-frame `(x, z)` of its centre and its radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CircleSpec {
    /// Centre x, m, body frame.
    pub x: f64,
    /// Centre z, m, body frame.
    pub z: f64,
    /// Radius, m.
    pub radius: f64,
}

/// Contact and belt properties shared by main tracks and flipper tracks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeltSpec {
    /// Belt width, m.
    pub width: f64,
    /// Number of parallel track planes that represent the belt (≥ 1), spread evenly across
    /// the width; each carries `1/planes` of the stiffness.
    pub planes: u32,
    /// Contact stiffness κ of the whole belt width, N/m² (force per penetration area of the
    /// plane model, seed 004 eq. 1).
    pub stiffness: f64,
    /// Hunt–Crossley damping β, s/m: the normal force is κ·S·max(0, 1 + β·δ̇) (plus the
    /// rubber's viscous term, [`BeltSpec::relaxation_time`]).
    pub damping: f64,
    /// Kelvin–Voigt relaxation time τ of the belt's rubber, s: the normal force gains
    /// τ·k·δ̇ (k = dF/dδ, the contact's tangent stiffness), damping every contact
    /// vibration at ζ = ω·τ/2 whatever its load (see `track::load::normal_damping_factor`).
    pub relaxation_time: f64,
    /// Run stiffness at mid-run as a fraction of κ (0 < f ≤ 1): the belt between two wheels
    /// is softest half-way (seed 004 §3.4, Fig. 8–9).
    pub run_stiffness_mid: f64,
    /// Multiplies the surface's μ for sliding across the belt (lateral), dimensionless.
    pub lateral_friction_scale: f64,
    /// Motion resistance coefficient f_r of the belt on the ground, dimensionless.
    pub rolling_resistance: f64,
    /// The transverse bars moulded on the belt, m (height and pitch): they hook convex
    /// terrain edges (a stair nosing, a curb edge) by the edge's shape and the surface's μ
    /// (`track::grouser`); zeros for a smooth belt (the default).
    pub grousers: Grousers,
}

impl BeltSpec {
    /// Lateral offset of track plane `i` (0 ≤ i < planes) from the belt's centre line, m:
    /// the planes are spread evenly over the width, each at the middle of its strip.
    pub fn plane_offset(&self, i: u32) -> f64 {
        let n = self.planes.max(1);
        self.width * ((f64::from(i) + 0.5) / f64::from(n) - 0.5)
    }

    /// Offset of the outermost plane from the centre line, m (the model's support line on a
    /// tilt table).
    pub fn outermost_plane_offset(&self) -> f64 {
        self.plane_offset(self.planes.max(1) - 1)
    }
}

/// One main track: its belt, circles and drive motor.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackSpec {
    /// Name (`left`, `right`): used by scripts, telemetry columns and flippers.
    pub name: String,
    /// Lateral position of the belt's centre line, m, body y.
    pub y: f64,
    /// Belt properties.
    pub belt: BeltSpec,
    /// Driven wheel.
    pub sprocket: CircleSpec,
    /// Free wheel at the other end.
    pub idler: CircleSpec,
    /// Road wheels (any order).
    pub road_wheels: Vec<CircleSpec>,
    /// Support rollers on the return run (any order).
    pub rollers: Vec<CircleSpec>,
    /// The motor that drives the sprocket.
    pub motor: MotorSpec,
}

/// A torque- and speed-limited drive motor (reflected to the belt through the sprocket).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotorSpec {
    /// Largest belt speed, m/s.
    pub max_speed: f64,
    /// Largest torque at the sprocket, N·m.
    pub max_torque: f64,
    /// Largest belt acceleration the motor controller commands, m/s².
    pub max_acceleration: f64,
    /// Rotating inertia of motor, gearbox, sprocket and belt reflected to the belt as an
    /// equivalent mass, kg.
    pub belt_inertia: f64,
}

/// A flipper: a short driven track that rotates about a lateral axis on the hull.
#[derive(Debug, Clone, PartialEq)]
pub struct FlipperSpec {
    /// Name used by scripts and telemetry.
    pub name: String,
    /// The main track whose belt speed drives this flipper's belt.
    pub track: String,
    /// Lateral position of the flipper belt's centre line, m, body y.
    pub y: f64,
    /// Pivot `(x, z)` in the body frame, m.
    pub axis_x: f64,
    /// Pivot z, m, body frame.
    pub axis_z: f64,
    /// Circles in the body frame at angle 0 (the pivot wheel is usually one of them).
    pub circles: Vec<CircleSpec>,
    /// Belt properties.
    pub belt: BeltSpec,
    /// Lowest angle, rad (positive raises the flipper tip, front or rear).
    pub min_angle: f64,
    /// Highest angle, rad.
    pub max_angle: f64,
    /// Largest angular speed, rad/s: the flipper motor's no-load speed.
    pub max_rate: f64,
    /// Largest torque the flipper motor applies about the flipper axis (body y), N·m; against
    /// a larger resisting torque from the terrain the flipper stalls. The gear is
    /// self-locking: a stalled or parked flipper is not driven back by the terrain.
    pub max_torque: f64,
    /// Angle at spawn, rad.
    pub initial_angle: f64,
}

/// The tyre of a wheel: its contact stiffness and damping (the belts' penetration-area law in
/// the wheel's mid-plane) and its tread's shear stiffness (the brush model, `vehicle::wheeled::tyre`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TyreSpec {
    /// Contact stiffness κ over the tyre's whole width, N/m²: the normal force is κ·S, S the
    /// area of the wheel circle below the terrain in its mid-plane (seed 004 eq. 1).
    pub stiffness: f64,
    /// Hunt–Crossley damping β, s/m (as [`BeltSpec::damping`]).
    pub damping: f64,
    /// Kelvin–Voigt relaxation time of the rubber, s (as [`BeltSpec::relaxation_time`]).
    pub relaxation_time: f64,
    /// Shear stiffness of the tread per unit length of the contact patch, N/m² (the brush
    /// model's c_p, Pacejka 2006 §3.2): cornering and longitudinal slip stiffness are
    /// 2·c_p·a², a the patch's half-length.
    pub tread_stiffness: f64,
    /// Rolling resistance coefficient f_r, dimensionless.
    pub rolling_resistance: f64,
}

/// A wheel's suspension: a spring and damper along body z between the hull and the wheel
/// centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SuspensionSpec {
    /// How far the wheel can rise from its free position before the bump stop, m.
    pub travel: f64,
    /// Spring rate, N/m (the spring is unloaded with the wheel at its free position).
    pub stiffness: f64,
    /// Damper rate, N·s/m.
    pub damping: f64,
}

/// One wheel of a wheeled robot.
#[derive(Debug, Clone, PartialEq)]
pub struct WheelSpec {
    /// Name (`front_left`, …): used by telemetry columns.
    pub name: String,
    /// Centre with the suspension at its free position (fully extended), m, body frame.
    pub center: Point3<f64>,
    /// Radius, m.
    pub radius: f64,
    /// Width of the tyre, m.
    pub width: f64,
    /// Whether the steering turns this wheel (Ackermann robots' front wheels).
    pub steered: bool,
    /// Whether a motor drives this wheel; an undriven wheel rolls freely.
    pub driven: bool,
    /// Suspension.
    pub suspension: SuspensionSpec,
    /// Tyre.
    pub tyre: TyreSpec,
    /// The wheel's motor (reflected to the tyre's surface through the radius); of an undriven
    /// wheel only `belt_inertia` counts (the wheel's own inertia as a mass at its rim).
    pub motor: MotorSpec,
}

impl WheelSpec {
    /// The wheel as a circle of the body's x–z plane at its free position.
    pub fn circle(&self) -> CircleSpec {
        CircleSpec {
            x: self.center.x,
            z: self.center.z,
            radius: self.radius,
        }
    }
}

/// How a wheeled robot turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Steering {
    /// By driving its left and right wheels at different speeds (the tyres slide sideways).
    Skid,
    /// By turning its steered front wheels about vertical axes, the inner one more, so that
    /// every wheel's axis meets at one centre (seed 001).
    Ackermann {
        /// Largest angle of the outer front wheel, rad.
        max_angle: f64,
        /// Largest steering rate of the actuator, rad/s.
        max_rate: f64,
    },
}

/// How a wheeled robot's driven wheels share the drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Differential {
    /// Each driven wheel has its own speed-controlled motor, commanded the wheel's kinematic
    /// speed (its side's speed for skid steering; its share of the turn about the centre for
    /// Ackermann): hub motors, an electronic differential.
    Electronic,
    /// One speed controller drives every driven wheel with the same torque and lets their
    /// speeds differ (a motor through open differentials): no yaw moment from the drive.
    Open,
}

/// The hull's collision shape, body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HullShape {
    /// A box with these full sizes (x, y, z), m, centred at `center`.
    Box {
        /// Full extents, m.
        size: Vector3<f64>,
        /// Centre, m, body frame.
        center: Point3<f64>,
    },
}

/// An onboard camera for the operator station.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraSpec {
    /// Name shown on the HUD and used by `treadsim shot --camera`.
    pub name: String,
    /// Position, m, body frame.
    pub position: Point3<f64>,
    /// Orientation as roll, pitch, yaw, rad, body frame (pitch > 0 looks down).
    pub rpy: Vector3<f64>,
    /// Vertical field of view, rad.
    pub fov: f64,
}

impl CameraSpec {
    /// World pose of the camera (x along its optical axis, y left, z up) on a body at
    /// `body`, world frame.
    pub fn world_pose(&self, body: &Isometry3<f64>) -> Isometry3<f64> {
        body * Isometry3::from_parts(
            self.position.coords.into(),
            UnitQuaternion::from_euler_angles(self.rpy.x, self.rpy.y, self.rpy.z),
        )
    }
}

/// A whole robot as described by its file: a tracked robot has `tracks` (and perhaps
/// `flippers`), a wheeled robot has `wheels`.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotSpec {
    /// Display name.
    pub name: String,
    /// Total mass (hull, tracks, flippers), kg.
    pub mass: f64,
    /// Centre of mass, m, body frame.
    pub center_of_mass: Point3<f64>,
    /// Principal moments of inertia about the centre of mass along body x, y, z, kg·m².
    pub inertia: Vector3<f64>,
    /// Collision shape of the hull against the scene.
    pub hull: HullShape,
    /// Main tracks (usually `left` and `right`).
    pub tracks: Vec<TrackSpec>,
    /// Flippers.
    pub flippers: Vec<FlipperSpec>,
    /// Wheels of a wheeled robot (then `tracks` and `flippers` are empty).
    pub wheels: Vec<WheelSpec>,
    /// How a wheeled robot steers (`Skid` for a tracked robot).
    pub steering: Steering,
    /// How a wheeled robot's driven wheels share the drive (`Electronic` for a tracked one).
    pub differential: Differential,
    /// Cameras.
    pub cameras: Vec<CameraSpec>,
    /// The manipulator arm, if the robot carries one (its mass is not in `mass`).
    pub arm: Option<super::arm::ArmSpec>,
    /// The terrain-profiling range sensor, if the robot carries one.
    pub range_sensor: Option<super::range_sensor::RangeSensorSpec>,
}

impl RobotSpec {
    /// Whether the robot runs on wheels rather than tracks.
    pub fn is_wheeled(&self) -> bool {
        !self.wheels.is_empty()
    }

    /// Number of drives: main tracks, or wheels.
    pub fn drive_count(&self) -> usize {
        if self.is_wheeled() {
            self.wheels.len()
        } else {
            self.tracks.len()
        }
    }

    /// The motor of drive `i` (main track `i`, or wheel `i`; an undriven wheel's motor has no
    /// torque).
    pub fn drive_motor(&self, i: usize) -> &MotorSpec {
        if self.is_wheeled() {
            &self.wheels[i].motor
        } else {
            &self.tracks[i].motor
        }
    }

    /// Names of the robot's drives: its main tracks, or its wheels (telemetry columns and
    /// per-drive readings follow this order).
    pub fn drive_names(&self) -> Vec<&str> {
        if self.is_wheeled() {
            self.wheels.iter().map(|w| w.name.as_str()).collect()
        } else {
            self.tracks.iter().map(|t| t.name.as_str()).collect()
        }
    }
}
