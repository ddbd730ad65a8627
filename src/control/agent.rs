//! Seed 003's agent model, the "BaseEngine": a mobile whose speed and heading are controlled
//! through two separate channels, each with a first-order lag and bounds — like a simplified
//! aircraft, or a tracked robot seen from above. Our frame: world x, y in m, heading `yaw` in
//! rad counter-clockwise from +x (the seed uses degrees in [0, 360); only the unit differs).
//!
//! Per step of `dt` s, in the seed's order (heading first, then speed, then position with the
//! new heading and speed):
//! - `Ek = 1 − exp(−k·dt)` (or 1 without a lag);
//! - yaw rate `Ek·wrap(yaw_cmd − yaw)/dt`, bounded by the yaw-rate limit and by the lateral
//!   acceleration limit over the speed;
//! - acceleration `Ek·(speed_cmd − speed)/dt`, bounded by the braking and acceleration limits;
//!   no reversing (the seed's "no backwards move");
//! - position += `dt·speed·(cos yaw, sin yaw)`.

use nalgebra::Vector2;

/// An angle wrapped into [−π, π), rad.
pub fn wrap_pi(a: f64) -> f64 {
    (a + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI
}

/// The engine's response and bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineLimits {
    /// Heading channel's rate, 1/s (`None`: the heading follows the command at once, the
    /// seed's `Ek_Yaw = 1`).
    pub yaw_gain: Option<f64>,
    /// Speed channel's rate, 1/s (`None`: at once, within the acceleration bounds).
    pub speed_gain: Option<f64>,
    /// Largest yaw rate, rad/s.
    pub yaw_rate_max: f64,
    /// Largest lateral (turning) acceleration, m/s².
    pub lateral_accel_max: f64,
    /// Largest forward acceleration, m/s².
    pub accel_max: f64,
    /// Largest braking deceleration (positive), m/s².
    pub decel_max: f64,
}

impl EngineLimits {
    /// The seed's test settings: heading lag `kYaw = 4`/s, speed lag 4/s, and bounds of a
    /// walking-pace ground robot (90°/s, 2 m/s² lateral, 1 m/s² forward, 2 m/s² braking).
    pub fn seed_tests() -> Self {
        Self {
            yaw_gain: Some(4.0),
            speed_gain: Some(4.0),
            yaw_rate_max: std::f64::consts::FRAC_PI_2,
            lateral_accel_max: 2.0,
            accel_max: 1.0,
            decel_max: 2.0,
        }
    }

    /// `Ek` of a channel with rate `gain` over `dt` s.
    fn ek(gain: Option<f64>, dt: f64) -> f64 {
        gain.map_or(1.0, |k| 1.0 - (-k * dt).exp())
    }

    /// The heading channel's `Ek` over `dt` s.
    pub fn yaw_ek(&self, dt: f64) -> f64 {
        Self::ek(self.yaw_gain, dt)
    }

    /// Smallest turning radius at `speed` (m/s): the larger of the yaw-rate and the
    /// lateral-acceleration limits' (the seed's `RadiusMin`), m.
    pub fn min_radius(&self, speed: f64) -> f64 {
        let v = speed.abs();
        (v / self.yaw_rate_max.max(1e-9)).max(v * v / self.lateral_accel_max.max(1e-9))
    }
}

/// Where a mobile is and how it moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentState {
    /// Position, world, m.
    pub position: Vector2<f64>,
    /// Heading of the velocity, rad, counter-clockwise from +x.
    pub yaw: f64,
    /// Speed (the velocity's modulus), m/s, never negative.
    pub speed: f64,
}

impl AgentState {
    /// Velocity, world, m/s.
    pub fn velocity(&self) -> Vector2<f64> {
        self.speed * Vector2::new(self.yaw.cos(), self.yaw.sin())
    }
}

/// What a control law asks of the engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentCommand {
    /// Heading wanted, rad.
    pub yaw: f64,
    /// Speed wanted, m/s (negative counts as 0).
    pub speed: f64,
}

/// Advances `state` by one step of `dt` s under `command` (see the module docs).
pub fn step(limits: &EngineLimits, state: &mut AgentState, command: &AgentCommand, dt: f64) {
    if dt <= 0.0 || !dt.is_finite() {
        return;
    }
    // Heading channel.
    let delta = wrap_pi(command.yaw - state.yaw);
    let mut rate = limits.yaw_ek(dt) * delta / dt;
    let mut rate_max = limits.yaw_rate_max;
    if state.speed > 0.0 {
        rate_max = rate_max.min(limits.lateral_accel_max / state.speed);
    }
    rate = rate.clamp(-rate_max, rate_max);
    state.yaw = wrap_pi(state.yaw + dt * rate);
    // Speed channel.
    let wanted = command.speed.max(0.0);
    let accel = (EngineLimits::ek(limits.speed_gain, dt) * (wanted - state.speed) / dt)
        .clamp(-limits.decel_max, limits.accel_max);
    state.speed = (state.speed + dt * accel).max(0.0);
    // Position.
    state.position += dt * state.velocity();
}

/// Distance the engine runs from `speed` (m/s) until it stands, when commanded to stop now
/// (the seed's open-loop stopping prediction, computed with the engine itself), m.
pub fn stopping_distance(limits: &EngineLimits, speed: f64, dt: f64) -> f64 {
    let mut state = AgentState {
        position: Vector2::zeros(),
        yaw: 0.0,
        speed,
    };
    let stop = AgentCommand {
        yaw: 0.0,
        speed: 0.0,
    };
    for _ in 0..100_000 {
        if state.speed <= 1e-6 {
            break;
        }
        step(limits, &mut state, &stop, dt);
    }
    state.position.x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_rest() -> AgentState {
        AgentState {
            position: Vector2::zeros(),
            yaw: 0.0,
            speed: 0.0,
        }
    }

    #[test]
    fn a_heading_step_is_followed_with_the_seeds_lag_and_bounds() {
        // kYaw = 4/s, no rate bound hit for a small step: after 1 s the error is e^-4 of it.
        let limits = EngineLimits {
            yaw_rate_max: 100.0,
            lateral_accel_max: 100.0,
            ..EngineLimits::seed_tests()
        };
        let mut s = at_rest();
        let cmd = AgentCommand {
            yaw: 0.2,
            speed: 0.0,
        };
        for _ in 0..500 {
            step(&limits, &mut s, &cmd, 0.002);
        }
        assert!(
            ((0.2 - s.yaw) / 0.2 - (-4.0f64).exp()).abs() < 1e-9,
            "{}",
            s.yaw
        );
        // A large step is rate-bounded: 90°/s at most.
        let mut s = at_rest();
        let cmd = AgentCommand {
            yaw: 3.0,
            speed: 0.0,
        };
        step(&EngineLimits::seed_tests(), &mut s, &cmd, 0.1);
        assert!((s.yaw - 0.1 * std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }

    #[test]
    fn speed_is_bounded_by_acceleration_and_braking_and_never_negative() {
        let limits = EngineLimits {
            speed_gain: None,
            ..EngineLimits::seed_tests()
        };
        let mut s = at_rest();
        let go = AgentCommand {
            yaw: 0.0,
            speed: 5.0,
        };
        for _ in 0..100 {
            step(&limits, &mut s, &go, 0.01);
        }
        assert!((s.speed - 1.0).abs() < 1e-12, "1 m/s² for 1 s: {}", s.speed);
        // 0.5 m run while accelerating uniformly (a = 1): 0.5·a·t² (+ the explicit update's
        // one-step bias, 0.5·a·t·dt).
        assert!((s.position.x - 0.505).abs() < 1e-9, "{}", s.position.x);
        let stop = AgentCommand {
            yaw: 0.0,
            speed: -3.0,
        };
        for _ in 0..100 {
            step(&limits, &mut s, &stop, 0.01);
        }
        assert_eq!(s.speed, 0.0);
        // Stopping distance from 1 m/s at 2 m/s² braking: v²/2a = 0.25 m (+ bias).
        let d = stopping_distance(&limits, 1.0, 0.001);
        assert!((d - 0.25).abs() < 0.002, "{d}");
    }

    #[test]
    fn turning_is_bounded_by_the_lateral_acceleration_at_speed() {
        let limits = EngineLimits::seed_tests();
        // At 2 m/s, 2 m/s² lateral allows 1 rad/s, below the 90°/s yaw-rate bound: radius 2 m.
        assert!((limits.min_radius(2.0) - 2.0).abs() < 1e-12);
        assert!((limits.min_radius(0.5) - 0.5 / std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let mut s = AgentState {
            speed: 2.0,
            ..at_rest()
        };
        let turn = AgentCommand {
            yaw: 3.0,
            speed: 2.0,
        };
        step(&limits, &mut s, &turn, 0.01);
        assert!((s.yaw - 0.01).abs() < 1e-12, "{}", s.yaw);
    }
}
