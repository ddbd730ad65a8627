//! Seed 001's kinematic car: position `p` (the centre of the car) and unit heading `d`, moved
//! over a step `dt` by rotating about the instantaneous centre of rotation, exactly as the seed
//! describes: (1) the centre `c = p^r + l·cot α·d⊥` with the outer rear wheel
//! `p^r = p − (l/2)·d − (w/2)·d⊥`; (2) `ω = s / (l·cot α)` with `s` the outer rear wheel's
//! speed; (3) `d` and `r = p − c` rotated by `R(ω·dt)`, `p = c + R(ω·dt)·r`.
//!
//! In the seed `d⊥` points toward the turn (α > 0 turning left here; for α < 0 the outer
//! wheels are the left ones and `d⊥` the right-hand perpendicular). World frame x, y (m), yaw
//! counter-clockwise. The steering geometry (β, the centre in the body frame) is
//! `vehicle::wheeled::steering`, which the dynamic model uses.

use nalgebra::{Point2, Rotation2, Vector2};

/// A kinematic Ackermann car: wheelbase `l` and track `w`, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KinematicCar {
    /// Wheelbase l, m.
    pub wheelbase: f64,
    /// Track w, m (between left and right wheels).
    pub track: f64,
}

/// The car's state: its centre and unit heading, world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CarPose {
    /// Centre of the car (middle of the wheel rectangle), m.
    pub p: Point2<f64>,
    /// Unit vector along the car's body, forward.
    pub d: Vector2<f64>,
}

impl KinematicCar {
    /// The unit vector from the car's centre line toward the turn for outer angle `alpha`
    /// (the seed's d⊥, signed by the turn).
    fn toward_turn(d: &Vector2<f64>, alpha: f64) -> Vector2<f64> {
        Vector2::new(-d.y, d.x) * alpha.signum()
    }

    /// Centre of rotation for outer front wheel angle `alpha` (rad, signed), step 1 of the
    /// seed; `None` when driving straight.
    pub fn centre(&self, pose: &CarPose, alpha: f64) -> Option<Point2<f64>> {
        if alpha == 0.0 {
            return None;
        }
        let perp = Self::toward_turn(&pose.d, alpha);
        let outer_rear = pose.p - pose.d * (self.wheelbase / 2.0) - perp * (self.track / 2.0);
        Some(outer_rear + perp * (self.wheelbase / alpha.abs().tan()))
    }

    /// Angular velocity for outer angle `alpha` and outer rear wheel speed `s` (m/s), rad/s,
    /// positive counter-clockwise: step 2 of the seed, `ω = s / (l·cot α)`.
    pub fn angular_velocity(&self, alpha: f64, s: f64) -> f64 {
        if alpha == 0.0 {
            0.0
        } else {
            alpha.signum() * s / (self.wheelbase / alpha.abs().tan())
        }
    }

    /// The inner front wheel's angle β (same sign as α): tan β = l / (l·cot α − w).
    pub fn inner_angle(&self, alpha: f64) -> f64 {
        if alpha == 0.0 {
            return 0.0;
        }
        let across = self.wheelbase / alpha.abs().tan() - self.track;
        alpha.signum() * self.wheelbase.atan2(across)
    }

    /// One step of `dt` s at outer rear wheel speed `s` and outer angle `alpha`: step 3 of the
    /// seed (straight ahead when α = 0).
    pub fn step(&self, pose: &CarPose, alpha: f64, s: f64, dt: f64) -> CarPose {
        let Some(c) = self.centre(pose, alpha) else {
            return CarPose {
                p: pose.p + pose.d * (s * dt),
                d: pose.d,
            };
        };
        let turn = Rotation2::new(self.angular_velocity(alpha, s) * dt);
        CarPose {
            p: c + turn * (pose.p - c),
            d: turn * pose.d,
        }
    }

    /// World positions of the four wheels `[front left, front right, rear left, rear right]`.
    pub fn wheels(&self, pose: &CarPose) -> [Point2<f64>; 4] {
        let left = Vector2::new(-pose.d.y, pose.d.x);
        let (f, s) = (pose.d * (self.wheelbase / 2.0), left * (self.track / 2.0));
        [
            pose.p + f + s,
            pose.p + f - s,
            pose.p - f + s,
            pose.p - f - s,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAR: KinematicCar = KinematicCar {
        wheelbase: 0.5,
        track: 0.44,
    };

    fn start() -> CarPose {
        CarPose {
            p: Point2::new(1.0, -2.0),
            d: Vector2::new(0.6, 0.8),
        }
    }

    /// Every wheel's axis passes through the centre (1e-9 m): rear wheels square to d, front
    /// wheels turned by α (outer) and β (inner).
    #[test]
    fn the_four_wheel_axes_meet_in_the_centre() {
        for deg in [-35.0f64, -10.0, 5.0, 20.0, 35.0] {
            let alpha = deg.to_radians();
            let pose = start();
            let c = CAR.centre(&pose, alpha).expect("turning");
            let beta = CAR.inner_angle(alpha);
            let [fl, fr, rl, rr] = CAR.wheels(&pose);
            // Left turn: right wheels outer (α), left inner (β); right turn the other way.
            let (left_angle, right_angle) = if alpha > 0.0 {
                (beta, alpha)
            } else {
                (alpha, beta)
            };
            for (p, angle) in [(fl, left_angle), (fr, right_angle), (rl, 0.0), (rr, 0.0)] {
                let heading = Rotation2::new(angle) * pose.d;
                let miss = (c - p).dot(&heading);
                assert!(
                    miss.abs() < 1e-9,
                    "{deg}°: axis misses the centre by {miss}"
                );
            }
        }
    }

    /// The step is a rotation about the centre: distances to it are kept, and the heading
    /// turns by exactly ω·dt.
    #[test]
    fn the_update_is_a_rotation_about_the_centre() {
        let alpha = 0.3;
        let pose = start();
        let c = CAR.centre(&pose, alpha).expect("turning");
        let next = CAR.step(&pose, alpha, 1.2, 0.05);
        assert!(((next.p - c).norm() - (pose.p - c).norm()).abs() < 1e-12);
        let turned = pose.d.angle(&next.d);
        let omega = CAR.angular_velocity(alpha, 1.2);
        assert!((turned - omega * 0.05).abs() < 1e-12);
        // The outer rear wheel moved at s: its arc over dt is s·dt.
        let outer_rear = |q: &CarPose| CAR.wheels(q)[3];
        let arc = (outer_rear(&pose) - c).norm() * omega * 0.05;
        assert!((arc - 1.2 * 0.05).abs() < 1e-12);
        // Straight ahead is a translation.
        let straight = CAR.step(&pose, 0.0, 2.0, 0.5);
        assert!((straight.p - (pose.p + pose.d)).norm() < 1e-12);
    }

    /// Steps adding up to one full turn bring the car back where it started.
    #[test]
    fn a_full_circle_closes() {
        for alpha in [0.25f64, -0.4] {
            let (s, n) = (1.0, 1000);
            let omega = CAR.angular_velocity(alpha, s).abs();
            let dt = std::f64::consts::TAU / omega / n as f64;
            let mut pose = start();
            for _ in 0..n {
                pose = CAR.step(&pose, alpha, s, dt);
            }
            assert!((pose.p - start().p).norm() < 1e-9, "{:?}", pose.p);
            assert!((pose.d - start().d).norm() < 1e-9);
        }
    }
}
