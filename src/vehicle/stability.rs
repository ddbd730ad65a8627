//! Static tip-over limits of a robot and its live margins: the HUD's inclinometer and the
//! exercises' tip-over faults use the same rule.
//!
//! A robot standing on a plane that tilts tips over when the vertical through its centre of
//! mass leaves its support polygon (DESIGN.md, "tilt table"): sideways at
//! tan θ = (B/2 ∓ y_cg)/h_cg with B the track gauge (centre line to centre line, the usual
//! convention; the belt's outer edge gives a little more), forwards and backwards at
//! tan θ = a/h_cg with a the distance from the centre of mass to the end of the footprint
//! (the wheels that touch flat ground). The limits come from the robot file once; the margins
//! compare them with the hull's tilt relative to gravity, measured in the body's own vertical
//! planes — the same angles a tilt table sets, whatever the heading.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::vehicle::geometry::track_circles;
use crate::vehicle::RobotSpec;

/// Static tip-over angles of a robot on a tilting plane, rad (all positive).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TipLimits {
    /// Nose down.
    pub forward: f64,
    /// Nose up (the one that matters climbing stairs).
    pub backward: f64,
    /// Over onto the left side (right side up).
    pub left: f64,
    /// Over onto the right side (left side up).
    pub right: f64,
    /// Footprint of the main tracks on flat ground, body x, m: `(rear, front)`.
    pub footprint: (f64, f64),
    /// Height of the centre of mass above the footprint, m.
    pub com_height: f64,
}

impl TipLimits {
    /// The limits of a robot from its description (main tracks only; flippers at their
    /// initial angle usually do not touch flat ground). A wheeled robot stands on its wheels'
    /// mid-planes: the support polygon runs through the wheel centres' x and y.
    pub fn from_spec(spec: &RobotSpec) -> Self {
        Self::with_center_of_mass(spec, &spec.center_of_mass)
    }

    /// The limits of a robot of `spec` whose centre of mass is at `com` (m, body frame): an
    /// armed robot's moves with its arm's pose and what the arm holds.
    pub fn with_center_of_mass(spec: &RobotSpec, com: &Point3<f64>) -> Self {
        let wheel_bottoms = spec.wheels.iter().map(|w| w.center.z - w.radius);
        let bottom = spec
            .tracks
            .iter()
            .flat_map(track_circles)
            .map(|c| c.z - c.radius)
            .chain(wheel_bottoms)
            .fold(f64::INFINITY, f64::min);
        let (rear, front) = spec.footprint();
        let (y_left, y_right) = spec
            .tracks
            .iter()
            .map(|t| t.y)
            .chain(spec.wheels.iter().map(|w| w.center.y))
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(l, r), y| {
                (l.max(y), r.min(y))
            });
        let ground = if bottom.is_finite() { bottom } else { 0.0 };
        let h = (com.z - ground).max(1e-3);
        let angle = |a: f64| {
            if a.is_finite() {
                a.max(0.0).atan2(h)
            } else {
                0.0
            }
        };
        Self {
            forward: angle(front - com.x),
            backward: angle(com.x - rear),
            left: angle(y_left - com.y),
            right: angle(com.y - y_right),
            footprint: (rear, front),
            com_height: h,
        }
    }

    /// How far the robot is from tipping at `tilt`, per direction.
    pub fn margins(&self, tilt: &Tilt) -> Margins {
        Margins {
            forward: self.forward + tilt.nose_up,
            backward: self.backward - tilt.nose_up,
            left: self.left + tilt.left_up,
            right: self.right - tilt.left_up,
        }
    }
}

/// The hull's tilt relative to gravity in its own vertical planes, rad.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tilt {
    /// Nose-up angle in the body's x–z plane (negative: nose down).
    pub nose_up: f64,
    /// Left-side-up angle in the body's y–z plane (negative: right side up).
    pub left_up: f64,
    /// The hull's top faces the ground.
    pub upside_down: bool,
}

impl Tilt {
    /// The tilt of a body at `pose` (world Z up).
    pub fn of(pose: &Isometry3<f64>) -> Self {
        let g = pose.rotation.inverse() * Vector3::new(0.0, 0.0, -1.0);
        Self {
            nose_up: (-g.x).atan2(-g.z),
            left_up: (-g.y).atan2(-g.z),
            upside_down: g.z > 0.0,
        }
    }
}

/// Remaining tilt before tipping, per direction, rad (negative: past the static limit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    /// Before tipping nose down.
    pub forward: f64,
    /// Before tipping over backwards.
    pub backward: f64,
    /// Before rolling onto the left side.
    pub left: f64,
    /// Before rolling onto the right side.
    pub right: f64,
}

impl Margins {
    /// The smallest margin and its direction's name.
    pub fn least(&self) -> (f64, &'static str) {
        [
            (self.forward, "forward"),
            (self.backward, "backward"),
            (self.left, "left"),
            (self.right, "right"),
        ]
        .into_iter()
        .fold(
            (f64::INFINITY, "forward"),
            |a, b| if b.0 < a.0 { b } else { a },
        )
    }
}

/// How close to tipping, for the HUD's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TipLevel {
    /// More than [`CAUTION_MARGIN`] left.
    Safe,
    /// Less than [`CAUTION_MARGIN`] left.
    Caution,
    /// Less than [`DANGER_MARGIN`] left.
    Danger,
    /// Past the static limit, or upside down.
    Over,
}

/// Margin below which the HUD warns, rad (15°).
pub const CAUTION_MARGIN: f64 = 15.0 * std::f64::consts::PI / 180.0;
/// Margin below which the HUD warns loudly, rad (7°).
pub const DANGER_MARGIN: f64 = 7.0 * std::f64::consts::PI / 180.0;

/// The warning level for a margin (rad) and whether the robot is upside down.
pub fn tip_level(least_margin: f64, upside_down: bool) -> TipLevel {
    if upside_down || least_margin < 0.0 {
        TipLevel::Over
    } else if least_margin < DANGER_MARGIN {
        TipLevel::Danger
    } else if least_margin < CAUTION_MARGIN {
        TipLevel::Caution
    } else {
        TipLevel::Safe
    }
}
