//! What each kind of goal asks, in one place: where it is (for the station's overlay and the
//! score table's "how close"), and whether a step met it.

use nalgebra::{Point2, Point3};

use super::dexterity::{observing_cameras, square_to};
use super::spec::GoalKind;
use crate::sim::{RobotId, Simulation};
use crate::vehicle::spec::CameraSpec;
use crate::vehicle::BodyState;

/// Where a goal is, world, m; a gate's middle at height `ground` (m).
pub(crate) fn goal_point(kind: &GoalKind, ground: f64, sim: &Simulation) -> Point3<f64> {
    match kind {
        GoalKind::Zone(z) => z.position,
        GoalKind::Gate { a, b, .. } => {
            let m = Point2::from((a.coords + b.coords) / 2.0);
            Point3::new(m.x, m.y, ground)
        }
        GoalKind::Observe { target, .. } => *target,
        GoalKind::Object(_) | GoalKind::Valve(_) | GoalKind::Door(_) => {
            kind.scene_point(sim.scene()).unwrap_or_default()
        }
    }
}

/// How far the robot's centre `at` (world, m) is from meeting a goal, m: 0 inside a zone,
/// from a gate's segment, beyond an observation's range, from an object goal's place.
pub(crate) fn goal_distance(kind: &GoalKind, at: &Point3<f64>, sim: &Simulation) -> f64 {
    let flat = |p: &Point3<f64>| Point2::new(p.x, p.y);
    let here = flat(at);
    match kind {
        GoalKind::Zone(z) => ((flat(&z.position) - here).norm() - z.radius).max(0.0),
        GoalKind::Gate { a, b, .. } => segment_distance(here, *a, *b),
        GoalKind::Observe { target, range, .. } => ((target - at).norm() - range).max(0.0),
        GoalKind::Object(_) | GoalKind::Valve(_) | GoalKind::Door(_) => {
            (flat(&kind.scene_point(sim.scene()).unwrap_or_default()) - here).norm()
        }
    }
}

/// The robot in one step, as the goals see it.
pub(crate) struct GoalCheck<'a> {
    /// The simulation after the step.
    pub sim: &'a Simulation,
    /// The robot.
    pub id: RobotId,
    /// Its hull now.
    pub body: &'a BodyState,
    /// Its centre before the step, world, m (`None`: the first step).
    pub previous: Option<Point3<f64>>,
    /// Its onboard (hull) cameras.
    pub cameras: &'a [CameraSpec],
}

impl GoalCheck<'_> {
    /// Whether the step met `kind`.
    pub fn met(&self, kind: &GoalKind) -> bool {
        let position = self.body.com;
        match kind {
            GoalKind::Zone(zone) => zone.contains(&position),
            GoalKind::Gate { a, b, heading } => self.previous.is_some_and(|p| {
                crosses(&p, &position, a, b)
                    && heading.is_none_or(|(yaw, tolerance)| {
                        let (_, _, robot_yaw) = self.body.pose.rotation.euler_angles();
                        angle_between(robot_yaw, yaw) <= tolerance
                    })
            }),
            GoalKind::Observe {
                target,
                range,
                angle,
                camera,
                facing,
            } => observing_cameras(self.sim, self.id, self.cameras, camera.as_deref())
                .iter()
                .any(|(pose, fov)| {
                    self.sim
                        .scene()
                        .terrain
                        .camera_sees(pose, *fov, target, *range, *angle)
                        && square_to(pose, target, facing.as_ref())
                }),
            GoalKind::Object(goal) => goal.met(self.sim, self.id),
            GoalKind::Valve(goal) => goal.met(self.sim, self.id),
            GoalKind::Door(goal) => goal.met(self.sim, self.id),
        }
    }
}

/// Horizontal distance from `p` to the segment `a`–`b`, m.
fn segment_distance(p: Point2<f64>, a: Point2<f64>, b: Point2<f64>) -> f64 {
    let ab = b - a;
    let along = if ab.norm_squared() > 0.0 {
        ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * along)).norm()
}

/// Whether the move from `p` to `q` crosses the segment `a`–`b` (x, y).
fn crosses(p: &Point3<f64>, q: &Point3<f64>, a: &Point2<f64>, b: &Point2<f64>) -> bool {
    let cross = |o: Point2<f64>, u: Point2<f64>, v: Point2<f64>| {
        (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x)
    };
    let (p, q) = (p.xy(), q.xy());
    let (d1, d2) = (cross(*a, *b, p), cross(*a, *b, q));
    let (d3, d4) = (cross(p, q, *a), cross(p, q, *b));
    d1 * d2 <= 0.0 && d1 != d2 && d3 * d4 <= 0.0
}

/// The absolute difference of two angles, rad, in 0..π.
fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    d.min(std::f64::consts::TAU - d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_a_gate_is_seen_from_either_side_and_a_miss_is_not() {
        let (a, b) = (Point2::new(1.0, -0.5), Point2::new(1.0, 0.5));
        let p = Point3::new(0.99, 0.0, 0.0);
        let q = Point3::new(1.01, 0.1, 0.0);
        assert!(crosses(&p, &q, &a, &b));
        assert!(crosses(&q, &p, &a, &b));
        let outside = Point3::new(1.01, 0.7, 0.0);
        assert!(!crosses(&Point3::new(0.99, 0.7, 0.0), &outside, &a, &b));
        assert!(!crosses(&p, &p, &a, &b), "standing still crosses nothing");
    }

    #[test]
    fn angles_wrap() {
        assert!((angle_between(3.1, -3.1) - (std::f64::consts::TAU - 6.2)).abs() < 1e-12);
        assert!((angle_between(0.2, -0.2) - 0.4).abs() < 1e-12);
    }
}
