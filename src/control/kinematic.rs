//! The kinematic tracked vehicle of seed 000: no dynamics, no slip, the exact arc per update.
//!
//! Each update the vehicle travels along a circle about its instantaneous centre of rotation:
//! with track travels `T1` (left) and `T2` (right) in one update and half the track gauge `d`,
//! it turns by `2g`, `g = (T1 − T2) / 4d`, and its reference point moves along the chord
//! `t = 2·d·(T1 + T2)·sin g / (T1 − T2)` at the mean heading `h + g`; with `T1 = T2` it moves
//! `T1` straight ahead. Use: cheap agents, and the no-slip reference the dynamic model is
//! compared with on flat ground.
//!
//! Frames: the seed measures the heading `h` clockwise from +y (`x' = x + t·sin(h + g)`,
//! `y' = y + t·cos(h + g)`), so a faster track 1 turns the vehicle clockwise: track 1 is the
//! left track. Our world is right-handed with z up and the yaw ψ counter-clockwise from +x
//! (DESIGN.md), so `ψ = π/2 − h`, and positions are the same x, y. [`SeedPose`] and
//! [`seed_update`] are the seed's own formulas; [`KinematicTracked`] works in our frame.

use std::f64::consts::FRAC_PI_2;

/// A pose in the seed's convention: position and heading `h`, rad clockwise from +y.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeedPose {
    /// x, m (or the seed's units).
    pub x: f64,
    /// y, m.
    pub y: f64,
    /// Heading, rad, clockwise from +y.
    pub h: f64,
}

/// One update of seed 000's exact arc model: track travels `t1` (left) and `t2` (right) in
/// this update, `d` half the distance between the tracks.
pub fn seed_update(pose: SeedPose, t1: f64, t2: f64, d: f64) -> SeedPose {
    let g = (t1 - t2) / (4.0 * d);
    // The seed's straight-line case avoids 0/0 (the chord's limit is the travel).
    let t = if t1 == t2 {
        t1
    } else {
        2.0 * d * (t1 + t2) * g.sin() / (t1 - t2)
    };
    let heading = pose.h + g;
    SeedPose {
        x: pose.x + t * heading.sin(),
        y: pose.y + t * heading.cos(),
        h: pose.h + 2.0 * g,
    }
}

/// The seed's first, approximate update: turn by `g` and move the mean travel `s` along the
/// heading `h + g` (a straight segment instead of the arc), heading `+ 2g` as the exact one.
pub fn seed_update_approximate(pose: SeedPose, t1: f64, t2: f64, d: f64) -> SeedPose {
    let g = (t1 - t2) / (4.0 * d);
    let s = 0.5 * (t1 + t2);
    SeedPose {
        x: pose.x + s * (pose.h + g).sin(),
        y: pose.y + s * (pose.h + g).cos(),
        h: pose.h + 2.0 * g,
    }
}

/// A planar pose in our world frame: position (m) and yaw ψ (rad, counter-clockwise from +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanarPose {
    /// x, m, world.
    pub x: f64,
    /// y, m, world.
    pub y: f64,
    /// Yaw, rad, counter-clockwise from world +x.
    pub yaw: f64,
}

impl PlanarPose {
    fn to_seed(self) -> SeedPose {
        SeedPose {
            x: self.x,
            y: self.y,
            h: FRAC_PI_2 - self.yaw,
        }
    }

    fn from_seed(p: SeedPose) -> Self {
        Self {
            x: p.x,
            y: p.y,
            yaw: FRAC_PI_2 - p.h,
        }
    }
}

/// A kinematic tracked vehicle in our frame: belts that never slip, gauge `gauge` m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KinematicTracked {
    /// Distance between the tracks' centre lines, m (the seed's 2d).
    pub gauge: f64,
}

impl KinematicTracked {
    /// The pose after `dt` s with belt speeds `left` and `right` (m/s): seed 000's exact arc.
    pub fn step(&self, pose: PlanarPose, left: f64, right: f64, dt: f64) -> PlanarPose {
        PlanarPose::from_seed(seed_update(
            pose.to_seed(),
            left * dt,
            right * dt,
            0.5 * self.gauge,
        ))
    }

    /// The same with the seed's approximate update (a straight segment per step).
    pub fn step_approximate(&self, pose: PlanarPose, left: f64, right: f64, dt: f64) -> PlanarPose {
        PlanarPose::from_seed(seed_update_approximate(
            pose.to_seed(),
            left * dt,
            right * dt,
            0.5 * self.gauge,
        ))
    }

    /// Yaw rate of belts `left`, `right` (m/s), rad/s (positive: counter-clockwise).
    pub fn yaw_rate(&self, left: f64, right: f64) -> f64 {
        (right - left) / self.gauge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000's worked example: T1 = 1, T2 = 0.5, d = 2, h = 2 from the origin gives
    /// x = 0.66072, y = −0.35387, h = 2.125 (the seed prints five decimals).
    #[test]
    fn the_seeds_worked_example() {
        let p = seed_update(
            SeedPose {
                x: 0.0,
                y: 0.0,
                h: 2.0,
            },
            1.0,
            0.5,
            2.0,
        );
        assert!((p.x - 0.66072).abs() < 1e-5, "{}", p.x);
        assert!((p.y + 0.35387).abs() < 1e-5, "{}", p.y);
        assert!((p.h - 2.125).abs() < 1e-12, "{}", p.h);
    }

    /// The exact update moves the reference point along a circle about the instantaneous
    /// centre: its radius `r + d = d·(T1 + T2)/(T1 − T2)` from the centre, before and after.
    /// Stepping a full turn closes the circle.
    #[test]
    fn the_exact_update_is_a_rotation_about_the_centre_and_a_circle_closes() {
        // 2g = 2π/40 a step: a full turn in exactly 40 steps.
        let d = 0.25;
        let (t2, t1) = (0.1, 0.1 + 4.0 * d * std::f64::consts::PI / 40.0);
        let radius = d * (t1 + t2) / (t1 - t2);
        let start = SeedPose {
            x: 1.0,
            y: -2.0,
            h: 0.4,
        };
        // The centre lies to the right of the heading (clockwise turn), at `radius`.
        let centre = (
            start.x + radius * (start.h + FRAC_PI_2).sin(),
            start.y + radius * (start.h + FRAC_PI_2).cos(),
        );
        let steps_per_turn = std::f64::consts::TAU / (2.0 * (t1 - t2) / (4.0 * d));
        let n = steps_per_turn.round() as usize;
        assert!((steps_per_turn - n as f64).abs() < 1e-9, "{steps_per_turn}");
        let mut p = start;
        for _ in 0..n {
            p = seed_update(p, t1, t2, d);
            let r = (p.x - centre.0).hypot(p.y - centre.1);
            assert!((r - radius).abs() < 1e-9, "{r} vs {radius}");
        }
        assert!((p.x - start.x).abs() < 1e-9 && (p.y - start.y).abs() < 1e-9);
        assert!((p.h - start.h - std::f64::consts::TAU).abs() < 1e-9);
    }

    /// The approximate update converges to the exact one as the step shrinks. It already
    /// moves along the mean heading `h + g`; it only takes the arc length `s` for the chord
    /// `t = s·sin g / g`, a relative error of g²/6 per step, so over the same 2 s arc halving
    /// the step quarters the end-point error (second order).
    #[test]
    fn the_approximate_update_converges_to_the_exact_one() {
        let v = KinematicTracked { gauge: 0.5 };
        let start = PlanarPose {
            x: 0.0,
            y: 0.0,
            yaw: 0.3,
        };
        let error = |dt: f64| {
            let n = (2.0 / dt).round() as usize;
            let (mut a, mut b) = (start, start);
            for _ in 0..n {
                a = v.step(a, 1.0, -0.6, dt);
                b = v.step_approximate(b, 1.0, -0.6, dt);
            }
            (a.x - b.x).hypot(a.y - b.y)
        };
        let (e1, e2, e3) = (error(0.1), error(0.05), error(0.025));
        assert!(e1 > 1e-6, "{e1}");
        assert!(
            (e1 / e2 - 4.0).abs() < 0.2 && (e2 / e3 - 4.0).abs() < 0.2,
            "{e1} {e2} {e3}"
        );
        // The exact update does not depend on the step.
        let exact = |dt: f64| {
            let mut a = start;
            for _ in 0..(2.0 / dt).round() as usize {
                a = v.step(a, 1.0, -0.6, dt);
            }
            a
        };
        let (a, b) = (exact(0.1), exact(0.01));
        assert!((a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9);
    }

    /// In our frame: equal belts drive straight along the yaw; a faster left belt turns the
    /// vehicle clockwise (yaw decreases) at (right − left)/gauge.
    #[test]
    fn our_frame_straight_and_turning() {
        let v = KinematicTracked { gauge: 0.4 };
        let start = PlanarPose {
            x: 1.0,
            y: 2.0,
            yaw: 0.5,
        };
        let p = v.step(start, 0.8, 0.8, 0.5);
        assert!((p.x - (1.0 + 0.4 * 0.5f64.cos())).abs() < 1e-12);
        assert!((p.y - (2.0 + 0.4 * 0.5f64.sin())).abs() < 1e-12);
        assert!((p.yaw - 0.5).abs() < 1e-12);
        let q = v.step(start, 1.0, 0.6, 0.1);
        let expected = 0.5 + v.yaw_rate(1.0, 0.6) * 0.1;
        assert!((q.yaw - expected).abs() < 1e-12 && q.yaw < 0.5);
    }
}
