//! Drive-motor stall detection: a track (or driven wheel) commanded to move whose motor sits at
//! its torque limit while the belt (or tyre) stands still. The station's stall warning and the exercises' stall faults use
//! this one rule.

use super::Drivetrain;

/// A track whose belt speed stays under this while commanded harder is stalled, m/s.
pub const STALL_SPEED: f64 = 0.05;
/// Fraction of the motor's torque limit that counts as "at the limit".
pub const STALL_TORQUE_FRACTION: f64 = 0.9;
/// How long the stall condition must hold before the station warns, s (a motor briefly
/// saturates when it starts the robot).
pub const STALL_HOLD: f64 = 0.3;

/// Whether one track is stalling right now: commanded to move (m/s), at its torque limit
/// (N·m), and not moving (belt speed, m/s).
pub fn is_stalling(torque: f64, max_torque: f64, belt_speed: f64, commanded: f64) -> bool {
    commanded.abs() > STALL_SPEED
        && belt_speed.abs() < STALL_SPEED
        && torque.abs() >= STALL_TORQUE_FRACTION * max_torque
}

/// How long each track of a robot has been stalling without a break, s.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StallMonitor {
    times: Vec<f64>,
}

impl StallMonitor {
    /// A monitor for a robot with `tracks` drives (main tracks or wheels), none stalling.
    pub fn new(tracks: usize) -> Self {
        Self {
            times: vec![0.0; tracks],
        }
    }

    /// Reads the robot after a step of `dt` s.
    pub fn update(&mut self, robot: &Drivetrain, dt: f64) {
        let drives = robot.drive_count();
        for (t, time) in self.times.iter_mut().enumerate().take(drives) {
            let stalling = is_stalling(
                robot.motor_torque(t),
                robot.max_torque(t),
                robot.drive_speed(t),
                robot.commanded_speed(t),
            );
            *time = if stalling { *time + dt } else { 0.0 };
        }
    }

    /// How long track `t` has been stalling, s.
    pub fn time(&self, t: usize) -> f64 {
        self.times.get(t).copied().unwrap_or(0.0)
    }

    /// The longest stall of any track, s.
    pub fn longest(&self) -> f64 {
        self.times.iter().copied().fold(0.0, f64::max)
    }

    /// Forgets every stall (the robot was put back at rest).
    pub fn clear(&mut self) {
        self.times.iter_mut().for_each(|t| *t = 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stalling_needs_a_command_the_torque_limit_and_a_standing_belt() {
        assert!(is_stalling(5.9, 6.0, 0.0, 0.5));
        assert!(!is_stalling(5.0, 6.0, 0.0, 0.5), "below 90 % of the limit");
        assert!(!is_stalling(6.0, 6.0, 0.2, 0.5), "the belt moves");
        assert!(!is_stalling(6.0, 6.0, 0.0, 0.0), "not commanded");
    }
}
