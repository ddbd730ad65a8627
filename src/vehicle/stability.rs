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

use crate::vehicle::geometry::{flipper_circles_at, track_circles};
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
        let (y_left, y_right) = spec.track_lines();
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

    /// The static nose-up tip-over angle of the robot of `spec`, centre of mass `com` (m, body
    /// frame), with its flippers at `angle` (rad), rad: at least [`TipLimits::backward`]
    /// (these limits must be `spec`'s at `com`). Pitching back about the rear of its footprint,
    /// the robot comes down on a rear flipper's circle if the circle reaches the ground before
    /// the centre of mass passes over the footprint's end; it then pivots on that circle
    /// (tipping once the centre of mass passes over the circle's centre), and so on to the
    /// rear-most circle it reaches. Raised rear flippers thus hold a robot reared up far past
    /// its footprint's angle (heavy250 with its flippers at 35°: 46° on its footprint, 98° on
    /// its rear flippers' tips), as they do climbing a flight.
    pub fn backward_with_flippers(&self, spec: &RobotSpec, com: &Point3<f64>, angle: f64) -> f64 {
        let circles: Vec<_> = spec
            .flippers
            .iter()
            .flat_map(|f| flipper_circles_at(f, angle))
            .collect();
        // The pivot: its centre (x, z, body frame, m) and radius, m; first the footprint's rear
        // end on the ground, a point.
        let mut pivot = (self.footprint.0, com.z - self.com_height, 0.0);
        let mut pitch = 0.0;
        loop {
            let tip = (com.x - pivot.0).max(0.0).atan2(com.z - pivot.1);
            let next = circles
                .iter()
                .filter(|c| c.x < pivot.0)
                .filter_map(|c| {
                    let reach = (c.x - pivot.0, c.z - pivot.1);
                    touch_pitch(reach, c.radius - pivot.2, pitch).map(|at| (at, c))
                })
                .filter(|&(at, _)| at <= tip)
                .min_by(|a, b| a.0.total_cmp(&b.0));
            match next {
                Some((at, c)) => {
                    pivot = (c.x, c.z, c.radius);
                    pitch = at;
                }
                None => return tip,
            }
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

/// The first nose-up pitch from `from` on (rad, up to half a turn) at which a circle whose
/// centre lies `reach` (x, z, m, body frame) from a pivot's centre reaches the ground plane
/// under the pivot, its radius less the pivot's being `clearance` m: where the height of its
/// centre above the pivot's, `reach`·up with up = (sin θ, cos θ) in the body, falls to
/// `clearance`. `None` if it does not within the half turn.
fn touch_pitch(reach: (f64, f64), clearance: f64, from: f64) -> Option<f64> {
    let length = reach.0.hypot(reach.1);
    if length <= clearance {
        return Some(from); // reaches it at any pitch
    }
    // reach·up = length·cos(θ − β): at most `clearance` for θ − β within ±(2π − α) of α.
    let beta = reach.0.atan2(reach.1);
    let alpha = (clearance / length).clamp(-1.0, 1.0).acos();
    let (first, last) = (beta + alpha, beta + std::f64::consts::TAU - alpha);
    if from > last {
        None
    } else {
        Some(from.max(first)).filter(|&at| at <= std::f64::consts::PI)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::robot_file::test_preset;

    const DEG: f64 = std::f64::consts::PI / 180.0;

    /// The nose-up tip angle found the other way round: pitching back in 0.01° steps, the
    /// robot rests on whichever of the footprint's rear end and the flippers' circles behind
    /// it is lowest, and tips once its centre of mass is no longer ahead of that support.
    fn tipped_by_sweep(spec: &RobotSpec, angle: f64) -> f64 {
        let com = spec.center_of_mass;
        let limits = TipLimits::from_spec(spec);
        let rear = (limits.footprint.0, com.z - limits.com_height, 0.0);
        let supports: Vec<(f64, f64, f64)> = std::iter::once(rear)
            .chain(
                spec.flippers
                    .iter()
                    .flat_map(|f| flipper_circles_at(f, angle))
                    .map(|c| (c.x, c.z, c.radius))
                    // Ahead of the footprint's end (front flippers) a support is ahead of
                    // the pivot: it holds nothing back.
                    .filter(|c| c.0 < rear.0),
            )
            .collect();
        let mut pitch = 0.0;
        while pitch < 180.0 * DEG {
            let (up, ahead) = ((pitch.sin(), pitch.cos()), (pitch.cos(), -pitch.sin()));
            let lowest = supports
                .iter()
                .min_by(|a, b| {
                    let h = |s: &&(f64, f64, f64)| s.0 * up.0 + s.1 * up.1 - s.2;
                    h(a).total_cmp(&h(b))
                })
                .expect("the footprint");
            if (com.x - lowest.0) * ahead.0 + (com.z - lowest.1) * ahead.1 <= 0.0 {
                return pitch;
            }
            pitch += 0.01 * DEG;
        }
        pitch
    }

    /// Without flippers reaching the ground before the footprint's angle, the limit is the
    /// footprint's; heavy250's rear flippers, raised 35° (the climbing script's) or pressed
    /// 12° down (the stair strategy's on a flight), hold it reared up far past its
    /// footprint's 46°. Every preset with flippers, at flipper angles from −20° to 90°, agrees
    /// with the sweep within 0.02°.
    #[test]
    fn rear_flippers_hold_a_robot_reared_up_past_its_footprint() {
        for name in ["tracker55", "scout", "heavy250", "selfright20"] {
            let spec = test_preset(name);
            let limits = TipLimits::from_spec(&spec);
            for deg in [-20.0, -12.0, 0.0, 35.0, 60.0, 90.0] {
                let angle = deg * DEG;
                let tip = limits.backward_with_flippers(&spec, &spec.center_of_mass, angle);
                assert!(tip >= limits.backward, "{name} {deg}°");
                let swept = tipped_by_sweep(&spec, angle);
                assert!(
                    (tip - swept).abs() < 0.02 * DEG,
                    "{name} at {deg}°: {:.2}° vs swept {:.2}°",
                    tip / DEG,
                    swept / DEG
                );
            }
        }
        let spec = test_preset("heavy250");
        let limits = TipLimits::from_spec(&spec);
        let at = |deg: f64| limits.backward_with_flippers(&spec, &spec.center_of_mass, deg * DEG);
        assert!((limits.backward / DEG - 46.3).abs() < 0.1);
        assert!(at(35.0) > 80.0 * DEG, "{:.1}°", at(35.0) / DEG);
        assert!(at(-12.0) > 55.0 * DEG, "{:.1}°", at(-12.0) / DEG);
        // A robot without flippers: its footprint's.
        let tracker = test_preset("tracker55");
        let limits = TipLimits::from_spec(&tracker);
        let tip = limits.backward_with_flippers(&tracker, &tracker.center_of_mass, 0.3);
        assert_eq!(tip, limits.backward);
    }
}
