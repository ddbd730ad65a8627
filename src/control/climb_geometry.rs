//! What the autopilot's stair strategy (`stair_climb`) knows of a robot's shape, worked out
//! once from its spec: how high its front flippers' tips reach at each angle (to clear the
//! first nosing going up), its static tip-over angles — backward on the footprint and with
//! the flippers where a try puts them, forward with the front flippers laid ahead — and the
//! lower outline ahead of its centre of mass, from which the nose's dive over a down
//! flight's edge follows.

use crate::vehicle::geometry::flipper_circles_at;
use crate::vehicle::stability::TipLimits;
use crate::vehicle::RobotSpec;

use super::stair_climb::{DEG, LIP_CLEARANCE, MAX_APPROACH_FLIPPERS};

/// What the stair strategy needs of the robot: its front flippers' reach at each angle and
/// its static tip-over angles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClimbGeometry {
    /// Height above the ground of the front-most point's centre circle at flipper angles
    /// 0°, 1°, … 90°, m (robot level on flat ground); `None` without front flippers.
    tips: Option<[f64; 91]>,
    /// Static backward (nose-up) tip-over angle on the main tracks' footprint, rad.
    pub tip_backward: f64,
    /// Static backward tip-over angle with the flippers at −90°, −89°, … 90°, rad: rear
    /// flippers reaching the ground behind the footprint hold the robot reared up further
    /// ([`TipLimits::backward_with_flippers`]).
    tip_backward_flippers: [f64; 181],
    /// Length of the main tracks' ground contact, m.
    pub footprint: f64,
    /// Static forward (nose-down) tip-over angle with the front flippers laid along the
    /// ground ahead (as the robot goes down a flight: they carry the front of the support),
    /// rad.
    pub tip_forward: f64,
    /// Flipper angle going down a flight: laid along the ground ahead of the tracks, rad.
    pub descent_flippers: f64,
    /// The lower outline of the tracks and front flippers (descending) ahead of the centre of
    /// mass: heights above the ground plane, m, at [`OUTLINE_POINTS`] even steps from the
    /// centre of mass's x to the front-most point, body frame.
    outline: [f64; OUTLINE_POINTS],
    /// Body x of the centre of mass and of the front-most point, m.
    outline_span: (f64, f64),
}

/// Samples of [`ClimbGeometry`]'s lower outline.
pub const OUTLINE_POINTS: usize = 64;

impl ClimbGeometry {
    /// The geometry of the robot in `spec`.
    pub fn of(spec: &RobotSpec) -> Self {
        let limits = TipLimits::from_spec(spec);
        let front: Vec<_> = spec
            .flippers
            .iter()
            .filter(|f| crate::vehicle::geometry::flipper_direction(f) > 0.0)
            .collect();
        let tips = (!front.is_empty()).then(|| {
            std::array::from_fn(|deg| {
                let angle = deg as f64 * DEG;
                // The front-most point of all the front flippers' circles is at the height of
                // the circle that reaches furthest ahead.
                front
                    .iter()
                    .flat_map(|f| flipper_circles_at(f, angle))
                    .max_by(|a, b| (a.x + a.radius).total_cmp(&(b.x + b.radius)))
                    .map_or(0.0, |c| c.z)
            })
        });
        let descent_flippers = descent_flipper_angle(spec);
        let circles = running_circles(spec, descent_flippers);
        let hull = lower_hull(&circles);
        let (outline, outline_span, tip_forward) = outline_ahead(spec, &circles, &hull);
        let com = spec.center_of_mass;
        let tip_backward_flippers = std::array::from_fn(|k| {
            let angle = (k as f64 - 90.0) * DEG;
            limits.backward_with_flippers(spec, &com, angle)
        });
        Self {
            tips,
            descent_flippers,
            tip_backward: limits.backward,
            tip_backward_flippers,
            footprint: spec.footprint_length().max(0.05),
            tip_forward,
            outline,
            outline_span,
        }
    }

    /// Nose-down pitch the robot reaches going over the top edge of a flight of `angle` rad
    /// whose nosings are `spacing` m apart along its slope and `rise` m apart in height,
    /// facing down with the flippers laid ahead, rad: pivoting on the edge under its centre
    /// of mass, the nose drops until the lower outline meets the next nosing — at the
    /// flight's angle if the outline runs flat that far ahead, steeper by the angle at which
    /// a raised front (an idler above the ground) reaches it — or until its front end lands
    /// on the tread below the edge, whichever comes first.
    pub fn dive_pitch(&self, angle: f64, spacing: f64, rise: f64) -> f64 {
        let (x0, x1) = self.outline_span;
        let step = (x1 - x0) / (OUTLINE_POINTS - 1) as f64;
        let height_at = |x: f64| -> Option<f64> {
            let at = (x - x0) / step;
            if !(0.0..=(OUTLINE_POINTS - 1) as f64).contains(&at) {
                return None;
            }
            let i = (at.floor() as usize).min(OUTLINE_POINTS - 2);
            let f = at - i as f64;
            Some(self.outline[i] * (1.0 - f) + self.outline[i + 1] * f)
        };
        let pivot = self.outline[0];
        // The nosing at `spacing` along a line through the pivot at φ above the body's
        // x axis: it touches when it reaches the outline.
        let on_nosing = (0..=90)
            .map(|deg| f64::from(deg) * DEG)
            .find(|&phi| {
                let x = x0 + spacing * phi.cos();
                height_at(x).is_some_and(|h| pivot + spacing * phi.sin() >= h)
            })
            .map_or(std::f64::consts::FRAC_PI_2, |phi| angle + phi);
        // Short of the next nosing, the front end lands on the tread below the edge, `rise`
        // under it: the nose drops until the front end is that far down.
        let (reach, lift) = (x1 - x0, self.outline[OUTLINE_POINTS - 1] - pivot);
        let on_tread = (0..=900)
            .map(|k| f64::from(k) * 0.1 * DEG)
            .find(|&theta| reach * theta.sin() - lift * theta.cos() >= rise)
            .unwrap_or(std::f64::consts::FRAC_PI_2);
        on_nosing.min(on_tread)
    }

    /// Whether the robot has front flippers.
    pub fn has_flippers(&self) -> bool {
        self.tips.is_some()
    }

    /// Height of the front flippers' front-most circle centre at `angle` (rad), m.
    pub fn tip_height(&self, angle: f64) -> Option<f64> {
        let tips = self.tips.as_ref()?;
        let deg = (angle / DEG).round().clamp(0.0, 90.0) as usize;
        Some(tips[deg])
    }

    /// Static backward tip-over angle with the flippers at `angle` (rad), rad: the lesser of
    /// the whole degrees either side of it (clamped to ±90°).
    pub fn tip_backward_at(&self, angle: f64) -> f64 {
        let degrees = (angle / DEG).clamp(-90.0, 90.0) + 90.0;
        let table = &self.tip_backward_flippers;
        table[degrees.floor() as usize].min(table[degrees.ceil() as usize])
    }

    /// The smallest flipper angle whose front-most point clears a step of `rise` m by
    /// [`LIP_CLEARANCE`] (capped at 60°), rad; `None` without flippers.
    pub fn approach_angle(&self, rise: f64) -> Option<f64> {
        let tips = self.tips.as_ref()?;
        let need = rise + LIP_CLEARANCE;
        let max = (MAX_APPROACH_FLIPPERS / DEG).round() as usize;
        let deg = (0..=max).find(|&d| tips[d] >= need).unwrap_or(max);
        Some(deg as f64 * DEG)
    }
}

/// The angle that lays the front flippers along the ground ahead of the tracks, rad: the
/// highest angle from 0° down to −45° at which their lowest point is within 5 mm of the
/// ground plane (0° for flippers that touch it level; 0° without flippers).
fn descent_flipper_angle(spec: &RobotSpec) -> f64 {
    let front: Vec<_> = spec
        .flippers
        .iter()
        .filter(|f| crate::vehicle::geometry::flipper_direction(f) > 0.0)
        .collect();
    if front.is_empty() {
        return 0.0;
    }
    (0..=45)
        .map(|deg| -f64::from(deg) * DEG)
        .find(|&angle| {
            front
                .iter()
                .flat_map(|f| flipper_circles_at(f, angle))
                .any(|c| c.z - c.radius <= 0.005)
        })
        .unwrap_or(0.0)
}

/// The circles of the robot's tracks and of its front flippers at `flippers` rad, body frame.
fn running_circles(spec: &RobotSpec, flippers: f64) -> Vec<crate::vehicle::spec::CircleSpec> {
    let mut circles: Vec<crate::vehicle::spec::CircleSpec> = spec
        .tracks
        .iter()
        .flat_map(crate::vehicle::geometry::track_circles)
        .copied()
        .collect();
    for f in &spec.flippers {
        if crate::vehicle::geometry::flipper_direction(f) > 0.0 {
            circles.extend(flipper_circles_at(f, flippers));
        }
    }
    circles
}

/// The lower convex hull of `circles`, as points `(x, z)` in the body frame from rear to
/// front.
fn lower_hull(circles: &[crate::vehicle::spec::CircleSpec]) -> Vec<(f64, f64)> {
    // Points around each circle's lower half, then their lower convex hull (monotone chain).
    let mut points: Vec<(f64, f64)> = circles
        .iter()
        .flat_map(|c| {
            (0..=16).map(move |k| {
                let a = std::f64::consts::PI * (1.0 + f64::from(k) / 16.0);
                (c.x + c.radius * a.cos(), c.z + c.radius * a.sin())
            })
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for p in points {
        while hull.len() >= 2 {
            let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            // Drop b if it lies on or above the segment a–p.
            if (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) <= 0.0 {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(p);
    }
    hull
}

/// The hull's lower outline from the centre of mass's x to the front-most point, sampled (see
/// [`ClimbGeometry`]), and the forward tip angle on the support the `circles` give: the centre
/// of mass over the front-most circle that touches the ground (within 5 mm; its centre's x, as
/// `TipLimits` takes the wheels'), rad.
fn outline_ahead(
    spec: &RobotSpec,
    circles: &[crate::vehicle::spec::CircleSpec],
    hull: &[(f64, f64)],
) -> ([f64; OUTLINE_POINTS], (f64, f64), f64) {
    let com = spec.center_of_mass;
    let x0 = com.x;
    let x1 = hull.last().map_or(x0 + 0.1, |p| p.0).max(x0 + 0.01);
    let height = |x: f64| {
        hull.windows(2)
            .find(|w| w[0].0 <= x && x <= w[1].0)
            .map_or(0.0, |w| {
                let f = if w[1].0 > w[0].0 {
                    (x - w[0].0) / (w[1].0 - w[0].0)
                } else {
                    0.0
                };
                w[0].1 + f * (w[1].1 - w[0].1)
            })
    };
    let step = (x1 - x0) / (OUTLINE_POINTS - 1) as f64;
    let front = circles
        .iter()
        .filter(|c| c.z - c.radius <= 0.005)
        .map(|c| c.x)
        .fold(x0, f64::max);
    let tip = (front - com.x).max(0.0).atan2(com.z.max(1e-3));
    (
        std::array::from_fn(|i| height(x0 + i as f64 * step)),
        (x0, x1),
        tip,
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::vehicle::robot_file::load_robot;
    use std::path::Path;

    /// The climb geometry of the preset robot file `name` (also the stair strategy's tests').
    pub(in crate::control) fn geometry(name: &str) -> ClimbGeometry {
        ClimbGeometry::of(
            &load_robot(Path::new(&format!("scenes/robots/{name}.toml"))).expect("preset"),
        )
    }

    /// Going over a 38.7° edge (0.20/0.25 m) the flipper robots' level flippers reach the next
    /// nosing (or their ends the tread below the edge) within 10° of the flight's angle
    /// (laid along the ground ahead); tracker55's
    /// raised idler, 0.10 m above the ground at its bottom, reaches it only 11–23° later
    /// (≈ atan(0.10/0.33) = 17°).
    #[test]
    fn dive_over_an_edge_follows_the_outline() {
        let angle = 0.2f64.atan2(0.25);
        let spacing = 0.2f64.hypot(0.25);
        let dive_pitch = |g: &ClimbGeometry| g.dive_pitch(angle, spacing, 0.2);
        for name in ["scout", "heavy250"] {
            let g = geometry(name);
            let dive = dive_pitch(&g);
            assert!(dive < angle + 10.0 * DEG, "{name}: {:.1}°", dive / DEG);
            assert!(dive < g.tip_forward, "{name}: {:.1}°", dive / DEG);
        }
        let g = geometry("tracker55");
        let dive = dive_pitch(&g);
        assert!(
            (dive - angle - 17.0 * DEG).abs() < 6.0 * DEG,
            "tracker55: {:.1}°",
            dive / DEG
        );
    }

    /// The approach angle puts the flipper tips above the step by the lip clearance; without
    /// flippers there is none.
    #[test]
    fn approach_flippers_clear_the_first_nosing() {
        let g = geometry("scout");
        for deg in (0..=90).step_by(5) {
            eprintln!(
                "{deg}° {:.3}",
                g.tip_height(f64::from(deg) * DEG).unwrap_or(0.0)
            );
        }
        for rise in [0.15, 0.18, 0.20] {
            let a = g.approach_angle(rise).expect("flippers");
            let tip = g.tip_height(a).expect("flippers");
            let lower = g.tip_height(a - DEG).expect("flippers");
            assert!(
                tip >= rise + LIP_CLEARANCE && lower < rise + LIP_CLEARANCE,
                "{rise}: {:.0}°",
                a / DEG
            );
        }
        assert_eq!(geometry("tracker55").approach_angle(0.2), None);
    }
}
