//! A robot's shape worked out from its [`RobotSpec`] (body frame, m, rad): where a flipper's
//! circles are at an angle (the one flipper-geometry rule), the main tracks' footprint and
//! gauge, the lowest point at a turn, the radius seen from above, the motors that drive it.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::spec::{CircleSpec, FlipperSpec, HullShape, MotorSpec, RobotSpec, TrackSpec, WheelSpec};

/// Circles whose bottom is within this of the lowest bottom belong to the footprint, m.
pub const FOOTPRINT_TOLERANCE: f64 = 0.005;

impl RobotSpec {
    /// The smallest value of `field` over the main tracks' motors, or the driven wheels'
    /// (the robot drives straight only within the slowest motor's figures).
    pub fn slowest_motor(&self, field: fn(&MotorSpec) -> f64) -> f64 {
        self.drive_motors().map(field).fold(f64::INFINITY, f64::min)
    }

    /// The motors that drive the robot: the main tracks', or the driven wheels'.
    pub fn drive_motors(&self) -> impl Iterator<Item = &MotorSpec> {
        let wheels = self.wheels.iter().filter(|w| w.driven).map(|w| &w.motor);
        self.tracks.iter().map(|t| &t.motor).chain(wheels)
    }

    /// Lowest z, m, of the robot's collision outline turned by `rotation` about the body
    /// origin: every main-track circle and every flipper circle at its initial angle (as
    /// discs of their belt's width) and the hull's corners. A spawn puts this point on the ground, so an upright robot stands on
    /// its lowest circles and one spawned on its back lies on its hull.
    pub fn lowest_point(&self, rotation: &UnitQuaternion<f64>) -> f64 {
        // A belt circle is a disc of the belt's width parallel to the body's x–z plane; its
        // lowest point is its centre's height, less the radius times the length of the world
        // z axis projected onto that plane, less half the width times the body y axis' tilt.
        let along_x = (rotation * Vector3::x()).z;
        let along_y = (rotation * Vector3::y()).z.abs();
        let along_z = (rotation * Vector3::z()).z;
        let reach = along_x.hypot(along_z);
        let disc_bottom = |y: f64, width: f64, c: &CircleSpec| {
            (rotation * Point3::new(c.x, y, c.z)).z - c.radius * reach - width / 2.0 * along_y
        };
        let tracks = self
            .tracks
            .iter()
            .flat_map(|t| track_circles(t).map(move |c| disc_bottom(t.y, t.belt.width, c)));
        let flippers = self.flippers.iter().flat_map(|f| {
            flipper_circles_at(f, f.initial_angle)
                .into_iter()
                .map(move |c| disc_bottom(f.y, f.belt.width, &c))
        });
        let wheels = self.wheels.iter().map(|w| {
            let c = w.circle();
            disc_bottom(w.center.y, w.width, &c)
        });
        let HullShape::Box { size, center } = self.hull;
        let hull = (0..8).map(|corner| {
            let sign = |bit: usize| if corner & bit == 0 { -0.5 } else { 0.5 };
            let p = center + Vector3::new(sign(1) * size.x, sign(2) * size.y, sign(4) * size.z);
            (rotation * p).z
        });
        tracks
            .chain(flippers)
            .chain(wheels)
            .chain(hull)
            .fold(f64::INFINITY, f64::min)
    }

    /// Radius of the smallest vertical cylinder about the body origin's z axis that holds
    /// the tracks, the flippers at their initial angles, the wheels and the hull, seen from
    /// above, m:
    /// the circle other traffic keeps clear of.
    pub fn footprint_radius(&self) -> f64 {
        let corner = |x: f64, y: f64| x.hypot(y);
        let tracks = self.tracks.iter().flat_map(|t| {
            let y = t.y.abs() + t.belt.width / 2.0;
            track_circles(t).map(move |c| corner(c.x.abs() + c.radius, y))
        });
        let flippers = self.flippers.iter().flat_map(|f| {
            let y = f.y.abs() + f.belt.width / 2.0;
            flipper_circles_at(f, f.initial_angle)
                .into_iter()
                .map(move |c| corner(c.x.abs() + c.radius, y))
        });
        let wheels = self.wheels.iter().map(|w| {
            corner(
                w.center.x.abs() + w.radius,
                w.center.y.abs() + w.width / 2.0,
            )
        });
        let HullShape::Box { size, center } = self.hull;
        let hull = corner(center.x.abs() + size.x / 2.0, center.y.abs() + size.y / 2.0);
        tracks.chain(flippers).chain(wheels).fold(hull, f64::max)
    }

    /// Half the robot's width, m: the farthest side of its tracks, flippers, wheels or hull
    /// from the body's x axis (what a path must keep clear either side of the robot).
    pub fn half_width(&self) -> f64 {
        let tracks = self.tracks.iter().map(|t| t.y.abs() + t.belt.width / 2.0);
        let flippers = self.flippers.iter().map(|f| f.y.abs() + f.belt.width / 2.0);
        let wheels = self.wheels.iter().map(|w| w.center.y.abs() + w.width / 2.0);
        let HullShape::Box { size, center } = self.hull;
        let hull = center.y.abs() + size.y / 2.0;
        tracks.chain(flippers).chain(wheels).fold(hull, f64::max)
    }

    /// Index of the main track with this name.
    pub fn track_index(&self, name: &str) -> Option<usize> {
        self.tracks.iter().position(|t| t.name == name)
    }

    /// The ground contact of the main tracks along body x: `(rear_x, front_x)`, m, the x of
    /// the rearmost and the frontmost centres of the main-track circles (sprockets, idlers,
    /// road wheels, rollers) whose bottom is within [`FOOTPRINT_TOLERANCE`] of the lowest
    /// bottom. Flippers are not counted. Its length is [`RobotSpec::footprint_length`]. For a
    /// wheeled robot: the rearmost and frontmost wheel axles.
    pub fn footprint(&self) -> (f64, f64) {
        let wheels: Vec<CircleSpec> = self.wheels.iter().map(WheelSpec::circle).collect();
        let circles = || self.tracks.iter().flat_map(track_circles).chain(&wheels);
        let lowest = circles()
            .map(|c| c.z - c.radius)
            .fold(f64::INFINITY, f64::min);
        circles()
            .filter(|c| c.z - c.radius <= lowest + FOOTPRINT_TOLERANCE)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
                (lo.min(c.x), hi.max(c.x))
            })
    }

    /// Length of the main tracks' ground contact, m: `front_x - rear_x` of
    /// [`RobotSpec::footprint`] (l in the skid-steering and stair formulas).
    pub fn footprint_length(&self) -> f64 {
        let (rear, front) = self.footprint();
        front - rear
    }

    /// Distance between the centre lines of the leftmost and rightmost main tracks (or
    /// wheels), m (B in DESIGN.md's tip-over and skid-steering formulas); 0 for a single track.
    pub fn track_gauge(&self) -> f64 {
        let (left, right) = self.track_lines();
        if left >= right {
            left - right
        } else {
            0.0
        }
    }

    /// Body y of the leftmost and the rightmost main track's centre line (or wheel mid-plane),
    /// m: `(left, right)`; `(−∞, +∞)` for a robot with neither.
    pub fn track_lines(&self) -> (f64, f64) {
        self.tracks
            .iter()
            .map(|t| t.y)
            .chain(self.wheels.iter().map(|w| w.center.y))
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(l, r), y| {
                (l.max(y), r.min(y))
            })
    }
}

/// Every circle of a main track: sprocket, idler, road wheels, rollers.
pub fn track_circles(t: &TrackSpec) -> impl Iterator<Item = &CircleSpec> {
    [&t.sprocket, &t.idler]
        .into_iter()
        .chain(t.road_wheels.iter())
        .chain(t.rollers.iter())
}

/// `+1.0` for a front flipper (at angle 0 its circles lie, on average, ahead of the axis),
/// `-1.0` for a rear flipper (behind it). The same rule as `vehicle::robot`; the loader
/// refuses a flipper whose circles' mean x is within [`MIN_WHEELBASE`](super::file_limits::MIN_WHEELBASE) of the axis.
pub fn flipper_direction(f: &FlipperSpec) -> f64 {
    if flipper_reach(f) < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// Sum over the flipper's circles of `x − axis_x` at angle 0, m.
fn flipper_reach(f: &FlipperSpec) -> f64 {
    f.circles.iter().map(|c| c.x - f.axis_x).sum()
}

/// The rigid motion that takes flipper `f` from angle 0 (its circles as the robot file gives
/// them) to `angle` (rad), body frame: a turn about the flipper's axis (parallel to body y).
/// Positive angles raise the tip for front and rear flippers alike: a front flipper turns by
/// `-angle` about body +y, a rear flipper by `+angle`.
pub fn flipper_motion(f: &FlipperSpec, angle: f64) -> Isometry3<f64> {
    // Counter-clockwise rotation in the (x, z) plane, i.e. −θ about body +y.
    let theta = flipper_direction(f) * angle;
    let axis = Vector3::new(f.axis_x, 0.0, f.axis_z);
    let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), -theta);
    Isometry3::from_parts(Translation3::from(axis - turn * axis), turn)
}

/// The flipper's circles in the body frame at `angle` (rad) (see [`flipper_motion`]).
pub fn flipper_circles_at(f: &FlipperSpec, angle: f64) -> Vec<CircleSpec> {
    let motion = flipper_motion(f, angle);
    f.circles
        .iter()
        .map(|k| {
            let p = motion * Point3::new(k.x, 0.0, k.z);
            CircleSpec {
                x: p.x,
                z: p.z,
                radius: k.radius,
            }
        })
        .collect()
}
