//! Belt side guards: the side walls of each belt as solids, so that a belt pushed sideways
//! against a wall, a high curb's side, a stair's side wall or a rock's flank is stopped there
//! instead of sliding into it.
//!
//! Why: the track model acts in track planes (seed 004). A plane has no extent across the
//! belt, so terrain that comes at the belt from the side (a face nearly parallel to the plane)
//! is met only when the plane itself has crossed into the solid, and then the cut reports the
//! solid's whole profile inside the belt loop: a thin flipper slid sideways into a rock ended
//! with the rock between its upper and lower runs, pushed up by one and down by the other in
//! alternate steps until it blew up (rubble, 20 kg robot, soak seed 1). The strip split
//! (`strip`) phases a low profile in across the belt's width; it cannot stop a belt.
//!
//! How: each belt (a main track, or a flipper, which turns with its angle) gets a convex solid:
//! its loop with every circle shrunk by the belt's *support radius* (the smallest road-wheel
//! radius of a track, the smallest circle of a flipper), but never below a quarter of its own
//! radius, across the belt's full width. Its side faces are flush with the belt's sides;
//! its bottom lies about one support radius above the belt's bottom. The simulation attaches
//! these solids to the hull as rapier colliders whose contacts are kept only where the contact
//! normal is within 45° of the body's y axis (`sim::hull`): lateral contact is the guards'
//! job, in-plane contact the track model's. A guard is switched on only while a face that
//! could meet its belt's side is among the belt's candidate triangles (`sim::hull`). So terrain
//! lower than about the support radius
//! beside a belt (a low curb, the lip of a plate) is still taken by the strip split and can be
//! climbed sideways, while anything that reaches higher up the belt's side blocks it, as the
//! rigid side of a real track does.
//!
//! Limits: the guard is a convex hull, so a concave belt loop (none of the presets) would be
//! filled in; the band below the guard's bottom has no lateral stiffness, so a belt can still
//! slide sideways over an edge lower than the support radius (that is the intent); a guard
//! contact has the hull's friction, not the belt's.

use nalgebra::Point3;

use crate::vehicle::geometry::track_circles;
use crate::vehicle::spec::{CircleSpec, RobotSpec};

/// Points sampled on each shrunk circle of a guard (per side of the belt).
const CIRCLE_SAMPLES: usize = 12;

/// The fraction of its radius a circle keeps at least when shrunk (so a guard never
/// degenerates to a flat sheet when every circle is as small as the support radius).
const MIN_KEPT: f64 = 0.25;

/// The side guard of one belt.
#[derive(Debug, Clone, PartialEq)]
pub struct BeltGuard {
    /// The points whose convex hull is the guard, m: body frame, a flipper's at angle 0 (its
    /// circles as the robot file gives them).
    pub points: Vec<Point3<f64>>,
    /// The flipper whose belt this is (the guard turns with it), or `None` for a main track.
    pub flipper: Option<usize>,
    /// How far the guard's circles are shrunk, m: the belt's support radius.
    pub inset: f64,
}

/// The guard of a belt loop made of `circles`, `width` m wide at lateral position `y`
/// (body frame), shrunk by `inset` m.
fn guard_of(circles: &[CircleSpec], y: f64, width: f64, inset: f64) -> Vec<Point3<f64>> {
    let mut points = Vec::with_capacity(circles.len() * CIRCLE_SAMPLES * 2);
    for c in circles {
        let r = (c.radius - inset).max(MIN_KEPT * c.radius);
        for k in 0..CIRCLE_SAMPLES {
            let a = std::f64::consts::TAU * k as f64 / CIRCLE_SAMPLES as f64;
            let (x, z) = (c.x + r * a.cos(), c.z + r * a.sin());
            for side in [-0.5, 0.5] {
                points.push(Point3::new(x, y + side * width, z));
            }
        }
    }
    points
}

/// The side guards of a robot's belts: one per main track, then one per flipper, in the
/// robot file's order.
pub fn belt_guards(spec: &RobotSpec) -> Vec<BeltGuard> {
    let smallest = |circles: &mut dyn Iterator<Item = &CircleSpec>| {
        circles.map(|c| c.radius).fold(f64::INFINITY, f64::min)
    };
    let tracks = spec.tracks.iter().map(|t| {
        let circles: Vec<CircleSpec> = track_circles(t).copied().collect();
        let inset = if t.road_wheels.is_empty() {
            smallest(&mut circles.iter())
        } else {
            smallest(&mut t.road_wheels.iter())
        };
        BeltGuard {
            points: guard_of(&circles, t.y, t.belt.width, inset),
            flipper: None,
            inset,
        }
    });
    let flippers = spec.flippers.iter().enumerate().map(|(f, flipper)| {
        let inset = smallest(&mut flipper.circles.iter());
        BeltGuard {
            points: guard_of(&flipper.circles, flipper.y, flipper.belt.width, inset),
            flipper: Some(f),
            inset,
        }
    });
    tracks.chain(flippers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SourceFile;
    use crate::vehicle::robot_file::{robot_from_source, test_preset};
    use std::path::Path;

    /// Every guard lies inside its belt: across the width flush with the belt's sides, and in
    /// the loop's plane at least `inset·(1 − MIN_KEPT)`… inside every circle it came from, so
    /// its bottom is about one support radius above the belt's bottom.
    #[test]
    fn guards_sit_inside_their_belts_with_flush_sides() {
        for name in ["scout", "tracker55", "heavy250"] {
            let spec = test_preset(name);
            let guards = belt_guards(&spec);
            assert_eq!(guards.len(), spec.tracks.len() + spec.flippers.len());
            for (t, track) in spec.tracks.iter().enumerate() {
                let g = &guards[t];
                let ys = g.points.iter().map(|p| p.y);
                let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
                    (a.min(y), b.max(y))
                });
                assert!(
                    (lo - (track.y - track.belt.width / 2.0)).abs() < 1e-12,
                    "{name}"
                );
                assert!(
                    (hi - (track.y + track.belt.width / 2.0)).abs() < 1e-12,
                    "{name}"
                );
                let bottom = g.points.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
                let belt_bottom = track_circles(track)
                    .map(|c| c.z - c.radius)
                    .fold(f64::INFINITY, f64::min);
                let wheel = track.road_wheels[0].radius;
                assert_eq!(g.inset, wheel, "{name}: support radius = road wheel radius");
                // Shrunk by the road wheel's radius, keeping a quarter: the bottom is 3/4 of a
                // wheel radius above the belt's bottom (road wheels are the lowest circles).
                let expect = belt_bottom + (1.0 - MIN_KEPT) * wheel;
                assert!(
                    (bottom - expect).abs() < 1e-9,
                    "{name}: guard bottom {bottom} vs {expect}"
                );
            }
        }
    }

    /// A track without road wheels takes its smallest circle as the support radius.
    #[test]
    fn a_track_without_road_wheels_uses_its_smallest_circle() {
        let text = "[robot]\nname = \"t\"\nmass = 10\ncenter_of_mass = [0, 0, 0.1]\n\
            inertia = [0.1, 0.2, 0.2]\n[hull]\nsize = [0.4, 0.2, 0.1]\ncenter = [0, 0, 0.15]\n\
            [belt_defaults]\nwidth = 0.05\nplanes = 1\nstiffness = 1e6\ndamping = 4\n\
            run_stiffness_mid = 0.5\nlateral_friction_scale = 1\nrolling_resistance = 0.03\n\
            [[track]]\nname = \"left\"\ny = 0.15\n\
            sprocket = { x = -0.2, z = 0.06, radius = 0.06 }\n\
            idler = { x = 0.2, z = 0.04, radius = 0.04 }\n\
            motor = { max_speed = 1, max_torque = 5, max_acceleration = 1, belt_inertia = 1 }\n\
            [[track]]\nname = \"right\"\ny = -0.15\n\
            sprocket = { x = -0.2, z = 0.06, radius = 0.06 }\n\
            idler = { x = 0.2, z = 0.04, radius = 0.04 }\n\
            motor = { max_speed = 1, max_torque = 5, max_acceleration = 1, belt_inertia = 1 }\n";
        let spec = robot_from_source(&SourceFile::from_text(Path::new("t.toml"), text.into()))
            .unwrap_or_else(|e| panic!("{e}"));
        let guards = belt_guards(&spec);
        assert_eq!(guards[0].inset, 0.04);
    }
}
