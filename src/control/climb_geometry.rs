//! What the autopilot's stair strategy (`stair_climb`) knows of a robot's shape, worked out
//! once from its spec: how high its front flippers' tips reach at each angle (to clear the
//! first nosing going up), its static tip-over angles — backward on the footprint and with
//! the flippers where a try puts them, forward with the front flippers laid ahead — and the
//! lower outline ahead of its centre of mass, from which the nose's dive over a down
//! flight's edge follows.

use crate::vehicle::arm::kinematics::stowed_rigid_body;
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
    /// Height of the centre of mass, m, body frame.
    com_height: f64,
    /// Pitch moment of inertia about the centre of mass over the mass, m² (the radius of
    /// gyration squared).
    pitch_gyration: f64,
}

/// A robot's fall over a down flight's top edge facing down ([`ClimbGeometry::fall_over_edge`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeFall {
    /// Nose-down pitch at which it strikes the flight below the edge, rad
    /// ([`ClimbGeometry::dive_pitch`]).
    pub pitch: f64,
    /// Kinetic energy of its turn about the struck point just after the blow over the
    /// potential energy that would turn it over that point (dimensionless; 1 or more: the
    /// fall alone carries it over; infinite where the pitch leaves the centre of mass ahead
    /// of the struck point already).
    pub energy_share: f64,
    /// Whether nothing of the outline ahead of the struck point reaches the flight again
    /// short of the vertical if the robot turns over that point (the front end short of the
    /// next nosing and of the tread below): turned over it, the robot stands on its nose.
    /// Where the outline reaches on (front flippers laid along the flight), turning over the
    /// struck nosing lays it on the next one instead.
    pub nose_unsupported: bool,
}

/// Where the robot's lower outline strikes the flight below a top edge, going over it facing
/// down.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Strike {
    /// Nose-down pitch then, rad.
    pitch: f64,
    /// The struck point of the outline, `(x, z)` body frame, m; `None`: it turns to the
    /// vertical without striking.
    point: Option<(f64, f64)>,
}

/// Samples of [`ClimbGeometry`]'s lower outline.
pub const OUTLINE_POINTS: usize = 64;

impl ClimbGeometry {
    /// The geometry of the robot in `spec`, an armed one with its arm stowed
    /// ([`stowed_rigid_body`]).
    pub fn of(spec: &RobotSpec) -> Self {
        // An armed robot goes up and down stairs with its arm stowed, and its weight moves
        // the centre of mass: judged as the hull alone, tracker55_eod's forward tip angle is
        // tracker55's 55.0° where with its arm it is 50.9°.
        let spec = &stowed_rigid_body(spec);
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
            com_height: com.z,
            pitch_gyration: spec.inertia.y / spec.mass.max(1e-9),
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
        self.strike(angle, spacing, rise).pitch
    }

    /// The robot's fall over the top edge of the flight of [`ClimbGeometry::dive_pitch`]'s
    /// `angle`, `spacing` and `rise`, facing down. Its centre of mass crosses the edge at
    /// rest, straight above the outline's point on it; it turns about the edge, falling the
    /// centre of mass's height h above that point by `1 − cos θ`, until it strikes at the
    /// dive pitch θ: rate² = 2·g·h·(1 − cos θ)/(k² + h²), k its pitch radius of gyration. The
    /// blow at the struck point Q keeps its angular momentum about Q (the edge lets go):
    /// ω' = (k²·ω + r_GQ × v_G)/(k² + |r_GQ|²), and it goes on turning about Q with
    /// ½·(k² + |r_GQ|²)·ω'², against the g·(|r_GQ| − z_GQ) (per unit mass) that lifts the
    /// centre of mass over Q. g and the mass cancel in the share. A rigid estimate: the
    /// belts' slip down the struck nosing while the blow unloads them, which the share leaves
    /// out, carries the robot further (tests/stair_goals.rs, flight 6).
    pub fn fall_over_edge(&self, angle: f64, spacing: f64, rise: f64) -> EdgeFall {
        let strike = self.strike(angle, spacing, rise);
        let theta = strike.pitch;
        let Some((qx, qz)) = strike.point else {
            return EdgeFall {
                pitch: theta,
                energy_share: f64::INFINITY,
                nose_unsupported: true,
            };
        };
        let nose_unsupported = self
            .strike_from((qx, qz), angle, spacing, rise)
            .point
            .is_none();
        let (x0, pivot) = self.edge_point();
        let h = (self.com_height - pivot).max(1e-3);
        let k2 = self.pitch_gyration;
        // Body (x, z) to the flight's vertical plane (x along the descent, z up) at the pitch.
        let (sin, cos) = theta.sin_cos();
        let world = |x: f64, z: f64| (x * cos + z * sin, -x * sin + z * cos);
        // Nose down is clockwise in that plane: a negative rate (unit gravity).
        let rate = -(2.0 * h * (1.0 - cos) / (k2 + h * h)).sqrt();
        let from_edge = world(0.0, h);
        let from_strike = world(x0 - qx, self.com_height - qz);
        let com_velocity = (-rate * from_edge.1, rate * from_edge.0);
        let arm = from_strike.0 * from_strike.0 + from_strike.1 * from_strike.1;
        let momentum =
            k2 * rate + (from_strike.0 * com_velocity.1 - from_strike.1 * com_velocity.0);
        let after = (momentum / (k2 + arm)).min(0.0);
        let energy = 0.5 * (k2 + arm) * after * after;
        let lift = arm.sqrt() - from_strike.1;
        EdgeFall {
            pitch: theta,
            energy_share: if lift > 1e-9 {
                energy / lift
            } else {
                f64::INFINITY
            },
            nose_unsupported,
        }
    }

    /// Where the lower outline strikes the flight going over its top edge
    /// ([`ClimbGeometry::dive_pitch`]).
    fn strike(&self, angle: f64, spacing: f64, rise: f64) -> Strike {
        self.strike_from(self.edge_point(), angle, spacing, rise)
    }

    /// The outline's point on a down flight's top edge as the robot goes over it, `(x, z)`
    /// body frame, m: its rear-most sample, about which the nose turns down.
    fn edge_point(&self) -> (f64, f64) {
        (self.outline_span.0, self.outline[0])
    }

    /// Where the lower outline strikes the flight turning nose down about its point `pivot`
    /// (`(x, z)` body frame, m) on a nosing ([`ClimbGeometry::dive_pitch`]'s flight).
    fn strike_from(&self, pivot: (f64, f64), angle: f64, spacing: f64, rise: f64) -> Strike {
        let (x0, x1) = self.outline_span;
        let (px, pivot) = pivot;
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
        // The nosing at `spacing` along a line through the pivot at φ above the body's
        // x axis: it touches when it reaches the outline.
        let on_nosing = (0..=90).map(|deg| f64::from(deg) * DEG).find_map(|phi| {
            let x = px + spacing * phi.cos();
            height_at(x)
                .filter(|&h| pivot + spacing * phi.sin() >= h)
                .map(|h| Strike {
                    pitch: angle + phi,
                    point: Some((x, h)),
                })
        });
        // Short of the next nosing, the front end lands on the tread below the edge, `rise`
        // under it: the nose drops until the front end is that far down — if it is then
        // short of the next nosing (`run` ahead of the edge); beyond it, the nosing is struck
        // first.
        let (reach, lift) = (x1 - px, self.outline[OUTLINE_POINTS - 1] - pivot);
        let run = (spacing * spacing - rise * rise).max(0.0).sqrt();
        let on_tread = (0..=900)
            .map(|k| f64::from(k) * 0.1 * DEG)
            .find(|&theta| reach * theta.sin() - lift * theta.cos() >= rise)
            .filter(|&theta| reach * theta.cos() + lift * theta.sin() < run)
            .map(|theta| Strike {
                pitch: theta,
                point: Some((x1, self.outline[OUTLINE_POINTS - 1])),
            });
        let upright = Strike {
            pitch: std::f64::consts::FRAC_PI_2,
            point: None,
        };
        [on_nosing, on_tread, Some(upright)]
            .into_iter()
            .flatten()
            .min_by(|a, b| a.pitch.total_cmp(&b.pitch))
            .unwrap_or(upright)
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

    /// The fall over a 0.184/0.239 m flight's edge facing down (tests/stair_goals.rs flight
    /// 6, 37.6°): tracker55's nose strikes the next nosing on its raised front run, with
    /// nothing ahead of that to catch it, bringing more than half the energy that turns it
    /// over onto its nose (its script tips there); on a 0.151/0.245 m flight (32°), where it
    /// gets down, less. The flipper robots' flippers laid ahead strike it with a few per cent
    /// (scout, selfright20) or reach on past it (heavy250).
    #[test]
    fn a_nose_heavy_robot_without_flippers_falls_hard_over_a_short_tread() {
        let fall = |name: &str, rise: f64, run: f64| {
            geometry(name).fall_over_edge(rise.atan2(run), rise.hypot(run), rise)
        };
        let steep = fall("tracker55", 0.184, 0.239);
        assert!(
            steep.nose_unsupported && steep.energy_share > 0.6,
            "{steep:?}"
        );
        let gentle = fall("tracker55", 0.151, 0.245);
        assert!(
            gentle.nose_unsupported && gentle.energy_share < 0.45,
            "{gentle:?}"
        );
        for name in ["scout", "selfright20"] {
            let f = fall(name, 0.184, 0.239);
            assert!(f.energy_share < 0.2, "{name}: {f:?}");
        }
        assert!(!fall("heavy250", 0.184, 0.239).nose_unsupported);
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

    /// An armed robot is judged with its stowed arm's weight: tracker55_eod's forward tip
    /// angle is the combined centre of mass's (the envelope's stowed formula, 50.9°), not its
    /// hull's (tracker55's 55.0°); its centre of mass and pitch inertia include the arm's.
    #[test]
    fn an_armed_robot_is_judged_with_its_stowed_arm() {
        let armed = geometry("tracker55_eod");
        let bare = geometry("tracker55");
        println!(
            "tip forward {:.2} vs {:.2}; com height {:.4} vs {:.4}; k² {:.5} vs {:.5}",
            armed.tip_forward / DEG,
            bare.tip_forward / DEG,
            armed.com_height,
            bare.com_height,
            armed.pitch_gyration,
            bare.pitch_gyration
        );
        assert!((bare.tip_forward / DEG - 55.0).abs() < 0.1);
        assert!((armed.tip_forward / DEG - 50.9).abs() < 0.1);
        assert!(armed.com_height > bare.com_height);
    }
}
