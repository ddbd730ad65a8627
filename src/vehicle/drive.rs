//! Drive commands and the torque-limited motor that turns a commanded belt speed into the
//! belt's actual speed.

use super::spec::MotorSpec;

/// What the operator (or a script, or an agent) asks one robot to do.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DriveCommand {
    /// Commanded belt speed of the left track(s) (body y > 0), m/s; positive drives forward.
    pub left: f64,
    /// Commanded belt speed of the right track(s) (body y < 0), m/s.
    pub right: f64,
    /// Target flipper angle for all flippers, rad (positive raises the tips); `None` keeps
    /// the current targets.
    pub flipper: Option<f64>,
    /// Steering angle of an Ackermann robot's outer front wheel, rad, positive turning left
    /// (seed 001's α; the inner wheel turns further). `None`: the robot steers to the path
    /// curvature that `left` and `right` would give a skid-steered robot of its track width.
    /// Tracked and skid-steered robots ignore it.
    pub steer: Option<f64>,
}

impl DriveCommand {
    /// Both belts at rest, flippers unchanged.
    pub const STOP: DriveCommand = DriveCommand {
        left: 0.0,
        right: 0.0,
        flipper: None,
        steer: None,
    };

    /// Belts at `left` and `right` m/s (see the fields), flippers and steering left to the
    /// robot: a skid-steered drive.
    pub const fn belts(left: f64, right: f64) -> Self {
        DriveCommand {
            left,
            right,
            flipper: None,
            steer: None,
        }
    }

    /// This command if every value is finite, else a stop: the one rule for what a drive
    /// train accepts.
    pub fn or_stop(self) -> Self {
        if self.is_finite() {
            self
        } else {
            DriveCommand::STOP
        }
    }

    /// Whether every value is finite.
    pub fn is_finite(&self) -> bool {
        self.left.is_finite()
            && self.right.is_finite()
            && self.flipper.is_none_or(f64::is_finite)
            && self.steer.is_none_or(f64::is_finite)
    }
}

/// One step of a belt's drive, solved implicitly in the belt speed.
///
/// The belt (with motor, gearbox and sprocket inertia reflected as `belt_inertia`, kg) obeys
/// `m_b·dv/dt = F_motor + F_ground(v)`, where `F_ground` is the ground's friction on the belt
/// along its direction of travel. Friction is stiff in `v` while contacts stick, so the step
/// uses its linearisation `F_ground(v') ≈ f0 − d·(v' − v)` (seed 004 §3.1: implicit
/// integration with analytic Jacobians keeps the step large). The motor controller asks for
/// the force that reaches the commanded speed within its acceleration limit; the torque limit
/// caps it, which is how a robot stalls against an obstacle it cannot climb.
///
/// Returns `(new belt speed m/s, motor force on the belt N)`.
pub fn step_belt(
    motor: &MotorSpec,
    sprocket_radius: f64,
    v: f64,
    command: f64,
    f0: f64,
    d: f64,
    dt: f64,
) -> (f64, f64) {
    let m = motor.belt_inertia;
    let cmd = command.clamp(-motor.max_speed, motor.max_speed);
    let dv_max = motor.max_acceleration * dt;
    let target = v + (cmd - v).clamp(-dv_max, dv_max);
    let needed = m * (target - v) / dt - f0 + d * (target - v);
    let f_max = motor.max_torque / sprocket_radius;
    let force = needed.clamp(-f_max, f_max);
    (speed_after(m, v, force, f0, d, dt), force)
}

/// The belt's (or tyre surface's) speed after a step of `dt` s under the motor force `force`
/// (N), implicit in the ground's linearised pull `f0 − d·(v' − v)` on the equivalent mass `m`
/// (kg): `v' = v + dt·(force + f0) / (m + dt·d)`, m/s.
pub fn speed_after(m: f64, v: f64, force: f64, f0: f64, d: f64, dt: f64) -> f64 {
    v + dt * (force + f0) / (m + dt * d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOTOR: MotorSpec = MotorSpec {
        max_speed: 1.0,
        max_torque: 10.0,
        max_acceleration: 2.0,
        belt_inertia: 0.5,
    };

    #[test]
    fn free_belt_accelerates_at_the_limit_and_holds_the_command() {
        let (mut v, dt) = (0.0, 0.002);
        for _ in 0..250 {
            v = step_belt(&MOTOR, 0.05, v, 5.0, 0.0, 0.0, dt).0;
        }
        assert!(
            (v - 1.0).abs() < 1e-9,
            "0.5 s at 2 m/s² reaches the 1 m/s limit: {v}"
        );
    }

    #[test]
    fn torque_limit_stalls_against_a_stiff_load() {
        // Ground holds the belt like a stiff spring-damper (d large): the motor can push at
        // most 10 N·m / 0.05 m = 200 N.
        let (v, f) = step_belt(&MOTOR, 0.05, 0.0, 1.0, 0.0, 1.0e6, 0.002);
        assert!((f - 200.0).abs() < 1e-9);
        assert!(v > 0.0 && v < 1e-3);
        // Against a constant load larger than the motor can give, the belt runs backwards.
        let (v, f) = step_belt(&MOTOR, 0.05, 0.0, 1.0, -300.0, 0.0, 0.002);
        assert_eq!(f, 200.0);
        assert!(v < 0.0);
    }

    #[test]
    fn zero_command_brakes_the_belt() {
        let (v, _) = step_belt(&MOTOR, 0.05, 0.0, 0.0, -50.0, 0.0, 0.002);
        assert!(v.abs() < 1e-12, "the motor holds 50 N at standstill");
    }
}
