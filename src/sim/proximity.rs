//! Whether another body — a robot or a moving obstacle — may come within rapier's contact reach
//! of a robot's hull: while neither that nor terrain can (`clearance`), the hull collider is
//! switched off (`hull::switch_hull`) and rapier neither bounds nor pairs it.
//!
//! Why: the tracks carry a robot, so most of the time nothing touches its hull box, yet rapier
//! refits the moving box's bounds in its broad phase and carries it every step: with the box
//! switched off while nothing can reach it, the scout's whole step on the public stairs is 3 %
//! faster (`treadsim bench` ratio 1.609 → 1.560, medians of 10 interleaved pairs).
//!
//! How: every body is held in a bounding sphere about its origin (a robot's from
//! [`super::hull::collider_radius`], a mover's box from its half-diagonal, swollen by how far
//! it moves this step), and two spheres closer than the reach make both bodies near. The
//! spheres are swept along the horizontal axis (x or y) over which their centres spread the
//! farthest, in order of their lowest coordinate on it, so a crowded scene costs about a sort
//! rather than every pair; the answer does not depend on the order or the axis. Along a fixed
//! axis a crowd standing abreast across it would cost every pair: the bench field's 100 robots
//! at the foot of their flights share one x, and the sweep along x took 25 µs of a step.

use nalgebra::Point3;

/// A body that may touch a robot's hull, held in a sphere (world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BodySphere {
    /// Centre, m.
    pub centre: Point3<f64>,
    /// Radius, m.
    pub radius: f64,
    /// The robot it is (its index), or `None` for a moving obstacle.
    pub robot: Option<usize>,
}

impl BodySphere {
    /// Lowest coordinate of the sphere along world axis `axis` (0: x, 1: y), m: the sweep's
    /// order.
    fn low(&self, axis: usize) -> f64 {
        self.centre[axis] - self.radius
    }

    /// Highest coordinate of the sphere along world axis `axis`, m.
    fn high(&self, axis: usize) -> f64 {
        self.centre[axis] + self.radius
    }
}

/// The horizontal world axis (0: x, 1: y) over which the centres of `spheres` spread the
/// farthest: the sweep's axis, along which the fewest spheres overlap.
fn sweep_axis(spheres: &[BodySphere]) -> usize {
    let spread = |axis: usize| {
        let (low, high) = spheres
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), s| {
                (l.min(s.centre[axis]), h.max(s.centre[axis]))
            });
        high - low
    };
    if spread(1) > spread(0) {
        1
    } else {
        0
    }
}

/// Sets `near[i]` for every robot `i` whose sphere comes within `reach` m of another body's
/// sphere in `spheres` (reordered; each robot at most once), and clears it for the others.
pub(crate) fn mark_robots_near_bodies(spheres: &mut [BodySphere], reach: f64, near: &mut [bool]) {
    near.iter_mut().for_each(|n| *n = false);
    // Two spheres are near when their centres are closer than the sum of radii and the reach;
    // sorted by lowest coordinate along the axis, a sphere meets none of those whose lowest
    // coordinate lies beyond its highest plus the reach.
    let axis = sweep_axis(spheres);
    // One comparison per axis, so that the sort's comparisons index no coordinate at run time
    // (the sort is most of this test's cost: a fifth of stage 3 with 100 robots).
    if axis == 0 {
        spheres.sort_unstable_by(|a, b| a.low(0).total_cmp(&b.low(0)));
    } else {
        spheres.sort_unstable_by(|a, b| a.low(1).total_cmp(&b.low(1)));
    }
    for (i, a) in spheres.iter().enumerate() {
        let high = a.high(axis) + reach;
        for b in spheres[i + 1..].iter().take_while(|b| b.low(axis) <= high) {
            let apart = a.radius + b.radius + reach;
            if (a.centre - b.centre).norm_squared() <= apart * apart {
                for robot in [a.robot, b.robot].into_iter().flatten() {
                    if let Some(n) = near.get_mut(robot) {
                        *n = true;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn sphere(x: f64, y: f64, z: f64, radius: f64, robot: Option<usize>) -> BodySphere {
        BodySphere {
            centre: Point3::new(x, y, z),
            radius,
            robot,
        }
    }

    /// The sweep finds exactly the pairs that testing every pair finds: random crowds of
    /// robots and movers, some touching, some a hair apart, in any order.
    #[test]
    fn the_sweep_marks_what_every_pair_marks() {
        let mut rng = SplitMix64(42);
        for case in 0..300 {
            let robots = 1 + rng.below(12);
            let movers = rng.below(5);
            let reach = rng.range(0.0, 0.05);
            // Crowds spread either way, a third lined up abreast along x or along y.
            let mut spread = [rng.range(0.5, 8.0), rng.range(0.5, 8.0)];
            if rng.below(3) == 0 {
                spread[rng.below(2)] = 0.0;
            }
            let mut spheres: Vec<BodySphere> = (0..robots + movers)
                .map(|k| {
                    sphere(
                        rng.range(-spread[0], spread[0]),
                        rng.range(-spread[1], spread[1]),
                        rng.range(-0.2, 0.2),
                        rng.range(0.1, 0.6),
                        (k < robots).then_some(k),
                    )
                })
                .collect();
            let mut every_pair = vec![false; robots];
            for (i, a) in spheres.iter().enumerate() {
                for b in &spheres[i + 1..] {
                    if (a.centre - b.centre).norm() <= a.radius + b.radius + reach {
                        for r in [a.robot, b.robot].into_iter().flatten() {
                            every_pair[r] = true;
                        }
                    }
                }
            }
            let mut near = vec![true; robots];
            mark_robots_near_bodies(&mut spheres, reach, &mut near);
            assert_eq!(near, every_pair, "case {case}");
        }
    }

    /// A crowd standing abreast is swept along its line: the bench field's robots at the foot
    /// of their flights (one x, 1 m apart in y) along y, the same crowd turned along x.
    #[test]
    fn a_crowd_abreast_is_swept_along_its_line() {
        let abreast: Vec<BodySphere> = (0..100)
            .map(|k| sphere(-2.0, f64::from(k), 0.0, 0.4, Some(k as usize)))
            .collect();
        assert_eq!(sweep_axis(&abreast), 1);
        let turned: Vec<BodySphere> = abreast
            .iter()
            .map(|s| sphere(s.centre.y, -2.0, 0.0, 0.4, s.robot))
            .collect();
        assert_eq!(sweep_axis(&turned), 0);
        let mut near = vec![true; 100];
        let mut crowd = abreast.clone();
        mark_robots_near_bodies(&mut crowd, 0.025, &mut near);
        assert!(near.iter().all(|n| !n), "1 m apart: none near");
    }

    /// Two robots whose spheres are as far apart as the reach are near; a millimetre more and
    /// they are not. A robot alone is never near; a mover beside it makes it near, and two
    /// movers touching each other make no robot near.
    #[test]
    fn spheres_within_the_reach_are_near() {
        let reach = 0.025;
        let mut near = [false; 2];
        let mut pair = [
            sphere(0.0, 0.0, 0.0, 0.4, Some(0)),
            sphere(0.4 + 0.4 + reach - 1e-9, 0.0, 0.0, 0.4, Some(1)),
        ];
        mark_robots_near_bodies(&mut pair, reach, &mut near);
        assert_eq!(near, [true, true]);
        let mut apart = [
            sphere(0.0, 0.0, 0.0, 0.4, Some(0)),
            sphere(0.0, 0.8 + reach + 0.001, 0.0, 0.4, Some(1)),
        ];
        mark_robots_near_bodies(&mut apart, reach, &mut near);
        assert_eq!(near, [false, false]);
        let mut alone = [sphere(1.0, 2.0, 0.0, 0.4, Some(0))];
        mark_robots_near_bodies(&mut alone, reach, &mut near[..1]);
        assert!(!near[0]);
        let mut movers = [
            sphere(5.0, 0.0, 0.0, 1.0, None),
            sphere(5.5, 0.0, 0.0, 1.0, None),
            sphere(0.0, 0.0, 0.0, 0.4, Some(0)),
        ];
        mark_robots_near_bodies(&mut movers, reach, &mut near[..1]);
        assert!(!near[0]);
        let mut beside = [
            sphere(0.0, 0.0, 0.0, 0.4, Some(0)),
            sphere(1.2, 0.0, 0.0, 0.8, None),
        ];
        mark_robots_near_bodies(&mut beside, reach, &mut near[..1]);
        assert!(near[0]);
    }
}
