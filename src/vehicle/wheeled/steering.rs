//! Ackermann steering geometry (seed 001): a car with a steered front axle and a fixed rear
//! axle turns about one centre on the rear axle's line where every wheel's axis meets. Given
//! the outer front wheel's angle α, the centre is `l·cot α` from the outer rear wheel across
//! the body (l the wheelbase) and the inner front wheel turns by β with
//! `tan β = l / (l·cot α − w)` (w the front track).
//!
//! Body frame, x forward, y left; angles positive turning left (counter-clockwise seen from
//! above), so for α > 0 the outer wheels are the right ones.

use nalgebra::Point2;

use crate::vehicle::spec::WheelSpec;

/// The steering geometry of an Ackermann robot, m, body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckermannGeometry {
    /// x of the rear (unsteered) axle, m.
    pub rear_x: f64,
    /// x of the steered front axle, m.
    pub front_x: f64,
    /// y of the left steered wheel's pivot, m (> 0).
    pub front_left_y: f64,
    /// y of the right steered wheel's pivot, m (< 0).
    pub front_right_y: f64,
}

impl AckermannGeometry {
    /// The geometry of `wheels` (body frame): the steered wheels' axle and their outermost
    /// pivots on each side, the rearmost unsteered axle. `None` without steered wheels on
    /// both sides or without an unsteered wheel (the loader accepts no such Ackermann robot).
    pub fn of_wheels(wheels: &[WheelSpec]) -> Option<Self> {
        let steered = || wheels.iter().filter(|w| w.steered);
        let front = steered().next()?;
        let rear_x = wheels
            .iter()
            .filter(|w| !w.steered)
            .map(|w| w.center.x)
            .reduce(f64::min)?;
        let ys = || steered().map(|w| w.center.y);
        let geometry = Self {
            rear_x,
            front_x: front.center.x,
            front_left_y: ys().fold(f64::NEG_INFINITY, f64::max),
            front_right_y: ys().fold(f64::INFINITY, f64::min),
        };
        (geometry.front_left_y > 0.0 && geometry.front_right_y < 0.0).then_some(geometry)
    }

    /// The wheelbase l, m.
    pub fn wheelbase(&self) -> f64 {
        self.front_x - self.rear_x
    }

    /// The front track w, m.
    pub fn track(&self) -> f64 {
        self.front_left_y - self.front_right_y
    }

    /// The largest outer angle the geometry allows, rad: beyond it the turn centre falls
    /// between the front wheels and the inner wheel would turn past square.
    pub fn outer_limit(&self) -> f64 {
        (self.wheelbase() / self.track()).atan()
    }

    /// The turn centre for the outer wheel's angle `outer` (rad, signed), body frame, m:
    /// on the rear axle's line, `l·cot|α|` across from the outer front wheel's pivot
    /// (the seed's `p^r + l·cot α·d⊥` with the outer rear wheel in line with it). `None`
    /// driving straight.
    pub fn centre(&self, outer: f64) -> Option<Point2<f64>> {
        if outer == 0.0 || !outer.is_finite() {
            return None;
        }
        let s = outer.signum();
        let outer_y = if s > 0.0 {
            self.front_right_y
        } else {
            self.front_left_y
        };
        let across = self.wheelbase() / outer.abs().tan();
        Some(Point2::new(self.rear_x, outer_y + s * across))
    }

    /// Steering angles `(left, right)` of the two front wheels for the outer angle `outer`
    /// (rad, signed): the outer wheel at `outer`, the inner one pointing square to the line
    /// from the turn centre, so that all axes meet there.
    pub fn wheel_angles(&self, outer: f64) -> (f64, f64) {
        let Some(c) = self.centre(outer) else {
            return (0.0, 0.0);
        };
        let angle_at = |y: f64| {
            // The wheel's heading is square to the line from the centre to its pivot.
            let r = Point2::new(self.front_x, y) - c;
            let s = outer.signum();
            (s * r.x).atan2(s * -r.y)
        };
        (angle_at(self.front_left_y), angle_at(self.front_right_y))
    }

    /// The inner front wheel's angle β for the outer angle α (rad, both signed alike):
    /// `atan(l / (l·cot α − w))`.
    pub fn inner_angle(&self, outer: f64) -> f64 {
        let (left, right) = self.wheel_angles(outer);
        if outer > 0.0 {
            left
        } else {
            right
        }
    }

    /// Yaw rate for the body point `reference` (body frame) moving at `speed` (m/s, signed)
    /// with the outer angle `outer`: `ω = v / |reference − centre|`, positive turning left
    /// when moving forward, rad/s.
    pub fn yaw_rate(&self, outer: f64, reference: Point2<f64>, speed: f64) -> f64 {
        match self.centre(outer) {
            None => 0.0,
            Some(c) => outer.signum() * speed / (reference - c).norm(),
        }
    }

    /// The speed of body point `point` when `reference` moves at `speed` (rescaled by their
    /// distances from the turn centre), m/s, signed.
    pub fn point_speed(
        &self,
        outer: f64,
        reference: Point2<f64>,
        point: Point2<f64>,
        speed: f64,
    ) -> f64 {
        match self.centre(outer) {
            None => speed,
            Some(c) => speed * (point - c).norm() / (reference - c).norm(),
        }
    }

    /// The outer angle that drives the rear axle's centre on a path of curvature
    /// `curvature` (1/m, positive turning left), rad: the outer rear wheel is
    /// `1/|κ| + w/2` from the centre, so `α = atan(l / (1/|κ| + w/2))`.
    pub fn outer_for_curvature(&self, curvature: f64) -> f64 {
        if curvature == 0.0 || !curvature.is_finite() {
            return if curvature.is_infinite() {
                curvature.signum() * self.outer_limit()
            } else {
                0.0
            };
        }
        let across = 1.0 / curvature.abs() + 0.5 * self.track();
        curvature.signum() * (self.wheelbase() / across).atan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    /// The unit heading of a wheel steered by `angle` (rad), body frame `(x, y)`.
    fn heading(angle: f64) -> Vector2<f64> {
        Vector2::new(angle.cos(), angle.sin())
    }

    fn car() -> AckermannGeometry {
        AckermannGeometry {
            rear_x: -0.25,
            front_x: 0.25,
            front_left_y: 0.22,
            front_right_y: -0.22,
        }
    }

    /// The seed's inner angle: tan β = l / (l·cot α − w), for left and right turns.
    #[test]
    fn inner_angle_is_the_seeds() {
        let g = car();
        for deg in [1.0, 10.0, 15.0, 30.0, 40.0] {
            let a = f64::to_radians(deg);
            let (l, w) = (g.wheelbase(), g.track());
            let want = (l / (l / a.tan() - w)).atan();
            assert!((g.inner_angle(a) - want).abs() < 1e-12, "{deg}°");
            assert!((g.inner_angle(-a) + want).abs() < 1e-12, "-{deg}°");
            let (left, right) = g.wheel_angles(a);
            assert!((right - a).abs() < 1e-12 && left > right);
        }
    }

    /// Every wheel's axis (the line square to its heading through its pivot) passes through
    /// the centre, within 1e-9 m.
    #[test]
    fn all_wheel_axes_meet_in_the_centre() {
        let g = car();
        for deg in [-40.0, -15.0, -2.0, 3.0, 15.0, 40.0] {
            let a = f64::to_radians(deg);
            let c = g.centre(a).unwrap();
            let (left, right) = g.wheel_angles(a);
            let wheels = [
                (Point2::new(g.front_x, g.front_left_y), left),
                (Point2::new(g.front_x, g.front_right_y), right),
                (Point2::new(g.rear_x, 0.2), 0.0),
                (Point2::new(g.rear_x, -0.2), 0.0),
            ];
            for (p, angle) in wheels {
                // Distance of c from the axis line = |(c − p)·heading|.
                let off = (c - p).dot(&heading(angle));
                assert!(off.abs() < 1e-9, "{deg}°: axis misses by {off}");
            }
        }
    }

    #[test]
    fn curvature_round_trip_and_straight() {
        let g = car();
        assert_eq!(g.centre(0.0), None);
        assert_eq!(g.wheel_angles(0.0), (0.0, 0.0));
        for k in [-2.0, -0.5, 0.3, 1.5] {
            let a = g.outer_for_curvature(k);
            let c = g.centre(a).unwrap();
            // The rear axle's centre is 1/|κ| from the turn centre.
            assert!(((c - Point2::new(g.rear_x, 0.0)).norm() - 1.0 / f64::abs(k)).abs() < 1e-12);
            assert_eq!(a.signum(), k.signum());
        }
    }
}
