//! Fixed-step physics decoupled from rendering.
//!
//! The physics always steps with the simulation's fixed `dt` (5 ms by default, a log's own
//! when one is replayed); the renderer runs at
//! whatever rate the machine gives. Each frame the wall time since the last one, times the
//! instructor's speed factor, goes into an accumulator that is paid out in whole steps; the
//! remainder waits for the next frame, so simulated time tracks wall time exactly on average.
//! A long frame (window dragged, machine busy) adds at most [`MAX_CATCH_UP`] of wall time:
//! the simulation then falls behind the clock instead of trying to catch up in one burst,
//! which would freeze the display and could spiral (every burst making the next frame longer).
//!
//! A front end calls [`Pacer::advance_frame`], which lifts the cap for frames up to
//! [`FULL_CATCH_UP`] while the physics costs under [`CATCH_UP_SHARE`] of the frame: then
//! catching up cannot spiral, and a slow renderer does not slow the robot down.
//!
//! The cap is 0.25 s rather than the more common 0.1 s because a software renderer draws the
//! station at about 4 frames/s: with 0.1 s the robot would drive at 40 % of its real speed
//! there, which trains the wrong reflexes. One frame's catch-up is then 50 steps of 5 ms
//! (125 of 2 ms), about 0.3 ms of physics for the 20 kg robot, far from any spiral.

/// Largest wall time one frame may add to the accumulator, s.
pub const MAX_CATCH_UP: f64 = 0.25;
/// Longest frame whose whole wall time [`Pacer::advance_frame`] catches up, s. The pacer
/// alone pays out at most [`MAX_CATCH_UP`] per frame, so every frame slower than that (a
/// software renderer on the full render path, a machine busy with other work) would slow the
/// simulation down and train the wrong reflexes; catching up costs little, since a physics
/// step takes tens of microseconds against the 2 ms it simulates.
pub const FULL_CATCH_UP: f64 = 1.0;
/// Largest share of a frame's wall time the previous frame's physics may have taken for
/// [`Pacer::advance_frame`] to catch up beyond [`MAX_CATCH_UP`]: below it each frame's physics
/// costs well under the time it simulates, so catching up cannot spiral.
pub const CATCH_UP_SHARE: f64 = 0.25;
/// Slowest simulation speed an instructor can choose (× real time).
pub const MIN_SPEED: f64 = 0.25;
/// Fastest simulation speed an instructor can choose (× real time).
pub const MAX_SPEED: f64 = 8.0;

/// The accumulator that turns frame times into a number of physics steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Pacer {
    dt: f64,
    speed: f64,
    acc: f64,
    paused: bool,
}

impl Pacer {
    /// A running pacer at real time for physics steps of `dt` s.
    pub fn new(dt: f64) -> Self {
        Self {
            dt,
            speed: 1.0,
            acc: 0.0,
            paused: false,
        }
    }

    /// Physics steps to run for a frame that took `wall` s. None while paused.
    pub fn advance(&mut self, wall: f64) -> u32 {
        if self.paused || !(wall.is_finite() && wall > 0.0) {
            return 0;
        }
        self.acc += wall.min(MAX_CATCH_UP) * self.speed;
        // Half a nanosecond of slack absorbs the rounding of a sum of frame times that
        // should land exactly on a step.
        let n = ((self.acc + 5e-10) / self.dt).floor().max(0.0);
        self.acc = (self.acc - n * self.dt).max(0.0);
        n as u32
    }

    /// Physics steps for a frame that took `wall` s, when the previous frame spent
    /// `physics_share` of its wall time in physics: [`Pacer::advance`] for up to
    /// [`FULL_CATCH_UP`] of wall time, paid out in slices of [`MAX_CATCH_UP`], as long as
    /// physics is cheap ([`CATCH_UP_SHARE`]); else [`Pacer::advance`]'s capped catch-up. What a
    /// front end calls once a frame, so simulated time keeps up with wall time at any frame
    /// rate.
    pub fn advance_frame(&mut self, wall: f64, physics_share: f64) -> u32 {
        if !(wall.is_finite() && wall > MAX_CATCH_UP && physics_share < CATCH_UP_SHARE) {
            return self.advance(wall);
        }
        let mut left = wall.min(FULL_CATCH_UP);
        let mut n = 0;
        while left > 0.0 {
            n += self.advance(left.min(MAX_CATCH_UP));
            left -= MAX_CATCH_UP;
        }
        n
    }

    /// Sets the speed factor, clamped to [`MIN_SPEED`]..=[`MAX_SPEED`]; returns it.
    pub fn set_speed(&mut self, speed: f64) -> f64 {
        self.speed = if speed.is_finite() {
            speed.clamp(MIN_SPEED, MAX_SPEED)
        } else {
            1.0
        };
        self.speed
    }

    /// The speed factor (× real time).
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Doubles (`up`) or halves the speed within the limits; returns it.
    pub fn step_speed(&mut self, up: bool) -> f64 {
        self.set_speed(if up {
            self.speed * 2.0
        } else {
            self.speed / 2.0
        })
    }

    /// Pauses or resumes. Resuming starts from an empty accumulator, so the time spent
    /// paused is not replayed.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        self.acc = 0.0;
    }

    /// Whether paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The physics step, s.
    pub fn dt(&self) -> f64 {
        self.dt
    }
}

/// A rate (events per second) averaged over windows of about half a second, for the HUD.
#[derive(Debug, Clone, PartialEq)]
pub struct RateMeter {
    window: f64,
    elapsed: f64,
    count: f64,
    rate: f64,
}

impl Default for RateMeter {
    fn default() -> Self {
        Self::new(0.5)
    }
}

impl RateMeter {
    /// A meter averaging over `window` s.
    pub fn new(window: f64) -> Self {
        Self {
            window,
            elapsed: 0.0,
            count: 0.0,
            rate: 0.0,
        }
    }

    /// Records `count` events in `wall` s.
    pub fn add(&mut self, count: f64, wall: f64) {
        self.count += count;
        self.elapsed += wall.max(0.0);
        if self.elapsed >= self.window {
            self.rate = self.count / self.elapsed;
            self.count = 0.0;
            self.elapsed = 0.0;
        }
    }

    /// The last full window's rate, per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_frames_are_caught_up_in_full_while_physics_is_cheap() {
        let mut p = Pacer::new(0.002);
        // 0.6 s: more than the pacer's 0.25 s cap, all of it simulated.
        assert_eq!(p.advance_frame(0.6, 0.01), 300);
        // Longer than FULL_CATCH_UP: one second of it.
        assert_eq!(p.advance_frame(3.0, 0.01), 500);
        // Fast frames are the pacer's own business.
        assert_eq!(p.advance_frame(0.1, 0.01), 50);
    }

    #[test]
    fn expensive_physics_or_odd_frame_times_keep_the_pacer_s_cap() {
        let mut p = Pacer::new(0.002);
        assert_eq!(p.advance_frame(0.6, 0.5), 125);
        assert_eq!(p.advance_frame(f64::NAN, 0.0), 0);
        assert_eq!(p.advance_frame(f64::INFINITY, 0.0), 0);
        assert_eq!(p.advance_frame(-1.0, 0.0), 0);
        p.set_paused(true);
        assert_eq!(p.advance_frame(0.6, 0.0), 0);
    }
}
