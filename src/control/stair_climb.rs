//! The autopilot's stair strategy: up or down a flight as a good operator takes it, from
//! what the robot senses — the flight read from its range sensor ([`StairReading`]), its
//! pitch and pitch rate, its progress along the flight.
//!
//! **Up.** A flight within [`STEEPEST_MARGIN`] of the robot's static backward tip angle, or
//! steeper than [`PITCH_MAX`] less [`ON_FLIGHT_MARGIN`], is refused with the reason once read
//! over [`FLIGHT_STEPS`] steps (two edges may be an obstacle's, not a flight's). *Approach*
//! with the front flippers raised to the smallest angle that puts their front-most point
//! ([`ClimbGeometry::tip_height`]) above the first nosing's lip, so the lip meets the
//! flippers' sloping underside and lifts the front (too low and the belt runs into the riser
//! under the lip and hooks there; too steep and the flipper is a wall). *Mount*
//! at the committed speed, flippers still up, until the robot lies along the flight (pitch
//! within [`ON_FLIGHT_MARGIN`] of the flight's angle: the main tracks are on the nosings) —
//! lowering them earlier, at the first nose-up, presses the front into the first riser and
//! stalls. *Flight*: flippers down to [`FLIGHT_FLIPPERS`] (weight forward, against rearing
//! over), same speed: slowing on the flight lets the tracks climb the next riser face and
//! rear the robot up. *Landing*: level again, flippers to 0°.
//!
//! **Down.** Once the flight is read near its edge ([`DESCENT_READINGS`] readings, their
//! mean rise and run), a robot whose nose would dive past its forward tip angle going over
//! the edge ([`ClimbGeometry::dive_pitch`]: a raised front idler with nothing reaching ahead
//! of it), whose nose would fall onto the next nosing with more than [`FALL_ENERGY_SHARE`]
//! of the energy that turns it over that nosing onto its nose
//! ([`ClimbGeometry::fall_over_edge`]), or whose forward tip angle the flight comes within
//! [`DIVE_MARGIN`] of (the nose overshoots the flight's angle by 5–14° going over the
//! edge, and lands on nosings it may slide on), stops and says so instead. *Approach* to the edge, flippers level (0°: reaching ahead, they meet the
//! tread below before the nose drops); within [`EDGE_SLOW`] of the edge creep at
//! [`CREEP_SPEED`]; on the flight the speed is limited by its slope
//! ([`descent_speed`]); *Landing* as up.
//!
//! **Watchdogs.** Climbing, a rear-up (nose up past the flight's angle — or a single step's
//! over the footprint, if steeper — by [`REAR_UP_MARGIN`], within [`TIP_MARGIN`] of the static
//! backward tip angle with the flippers where the try puts them (rear flippers on the ground
//! behind hold a robot reared up past its footprint's angle:
//! [`ClimbGeometry::tip_backward_at`]), or past [`PITCH_MAX`]) or a stall (less than [`STALL_PROGRESS`] along
//! the flight in [`STALL_TIME`]) makes the robot *back off*: reverse [`BACK_OFF`] m and until
//! level again (at most 6 s), then *retry* with the flippers 10° higher (approaching and on
//! the flight: a flipper tip jammed under a nosing on the flight comes free), after a stall
//! with 25 % more speed ([`STALL_RETRY_SPEED`]) and after a rear-up with half the speed
//! ([`REAR_UP_RETRY_SPEED`]), up to [`MAX_TRIES`] tries; then it *gives up*, stopped, and
//! says why. Going down, a stall stops it at once and it says why: reversing blind up a
//! flight is worse than stopping. The
//! nose's dive over a down flight's edge (5–14° past the flight's angle in a fraction of a
//! second) is too fast to catch and stopping in it is worse than going on: the checks before
//! the edge are what keep a robot from a bad one.

use crate::vehicle::stability::Tilt;
use crate::vehicle::BodyState;

use super::climb_geometry::ClimbGeometry;
use super::stair_reading::{StairDirection, StairReading};

/// Pitch within which of the flight's angle the robot lies along the flight, rad.
pub const ON_FLIGHT_MARGIN: f64 = 6.0 * DEG;
/// Flight angle assumed when the flight has not been read, rad (a public stair's 33°).
pub const DEFAULT_FLIGHT_ANGLE: f64 = 33.0 * DEG;
/// Flipper angle on an up flight, rad (−12°: pressing down ahead of the tracks).
pub const FLIGHT_FLIPPERS: f64 = -12.0 * DEG;
/// Flipper angle approaching when the first step has not been read, rad.
pub const DEFAULT_APPROACH_FLIPPERS: f64 = 35.0 * DEG;
/// Clearance of the flippers' front-most point above the first step, m: over a nosing's
/// lip (20–30 mm thick) with a margin.
pub const LIP_CLEARANCE: f64 = 0.04;
/// Pitch past the flight's angle that is a rear-up, rad (mounting the first riser of a
/// steep flight a flipperless robot overshoots it by up to 12–15° and settles).
pub const REAR_UP_MARGIN: f64 = 16.0 * DEG;
/// A flight steeper than the backward tip angle less this is refused climbing, rad.
pub const STEEPEST_MARGIN: f64 = 10.0 * DEG;
/// Margin kept from the static backward tip-over angle climbing, rad.
pub const TIP_MARGIN: f64 = 3.0 * DEG;
/// A flight steeper than the forward tip angle (flippers laid ahead) less this is refused
/// going down, rad: over the edge the nose overshoots the flight's angle by up to 14° (the
/// presets on the 40 flights of tests/stair_goals.rs) before the tracks settle on it.
pub const DIVE_MARGIN: f64 = 16.0 * DEG;
/// Largest share of the energy that would turn the robot over the next nosing onto its nose
/// that its fall over a down flight's edge may bring ([`ClimbGeometry::fall_over_edge`],
/// for a robot with nothing reaching ahead of the struck point): a factor of safety of 2 on
/// that rigid estimate, which leaves out the belts' slip down the struck nosing. On the 40
/// flights of tests/stair_goals.rs (their true rise and run) tracker55 has shares 0.11–0.43
/// on the 29 it goes down facing down at 0.1 m/s without passing its 55° tip angle, 0.41,
/// 0.54 and 0.55 on the 3 it gets down only past it (peaks 56.2°, 57.9°, 55.1°) and
/// 0.61–1.22 on the 8 it tips over on (2026-12-02). Carried on until the turn about the
/// struck nosing stops, the same estimate (written apart, in Python) put its peak nose-down
/// pitch within −0.6…+2.4° of the measured one on 17 of those flights (16 it gets down, one
/// it tips over on).
pub const FALL_ENERGY_SHARE: f64 = 0.5;
/// Readings from within [`EDGE_SLOW`] of a down flight's edge whose mean rise and run the
/// descent is judged on, before going over it (1 s of scans at 10 Hz, 0.1 m creeping).
pub const DESCENT_READINGS: u32 = 10;
/// Steps a reading must show before a climb is refused as too steep a flight.
pub const FLIGHT_STEPS: usize = 3;
/// Steepest nose-up pitch the strategy lets a robot reach, rad: steeper than any flight it
/// takes (building stairs are at most ~42°, ladders excepted) by a rear-up margin.
pub const PITCH_MAX: f64 = 55.0 * DEG;
/// Progress along the flight that is not a stall, m ...
pub const STALL_PROGRESS: f64 = 0.03;
/// ... within this time, s.
pub const STALL_TIME: f64 = 3.0;
/// Distance backed off before a retry, m.
pub const BACK_OFF: f64 = 0.4;
/// Speed backing off, m/s.
pub const BACK_OFF_SPEED: f64 = 0.2;
/// Tries before giving up.
pub const MAX_TRIES: u32 = 3;
/// Speed factor of the retry after a stall: more drive to carry it up the riser it stalled on.
pub const STALL_RETRY_SPEED: f64 = 1.25;
/// Speed factor of the retry after a rear-up. A robot rears up on a flight as its front
/// overhangs a nosing and drops: the pitch it overshoots the flight's angle by grows with the
/// pitching energy the climb gives it, and that with the square of the speed (half the speed,
/// a quarter of it). tracker55 (no flippers) open-loop up a 0.214/0.255 m flight (40°,
/// tests/stair_goals.rs flight 3) peaks at 45° nose up at 0.15 m/s, 54° at 0.2, 55.5° at
/// 0.3, and flips over backwards at 0.375 m/s (2026-12-02). Retried at the 25 % more speed
/// a stall wants, it reared up past the watchdog's limit on every try and gave up on a flight
/// its operator's script climbs at 0.3 m/s; retried at half speed it climbs it. Never slower
/// than [`CREEP_SPEED`].
pub const REAR_UP_RETRY_SPEED: f64 = 0.5;
/// Distance from a down flight's edge within which the robot creeps, m.
pub const EDGE_SLOW: f64 = 0.6;
/// Creeping speed over a down flight's edge, m/s.
pub const CREEP_SPEED: f64 = 0.1;
/// Nose-up pitch below which the robot is level again, rad.
pub const LEVEL: f64 = 5.0 * DEG;
/// Steepest flipper angle the approach uses, rad.
pub(super) const MAX_APPROACH_FLIPPERS: f64 = 60.0 * DEG;
pub(super) const DEG: f64 = std::f64::consts::PI / 180.0;

/// Speed on a down flight of `angle` rad for a cruise `speed` m/s: slower the steeper,
/// `speed·(1 − sin θ)²` (a quarter at 30°), never below [`CREEP_SPEED`].
pub fn descent_speed(speed: f64, angle: f64) -> f64 {
    (speed * (1.0 - angle.sin()).powi(2)).clamp(CREEP_SPEED.min(speed), speed)
}

/// Where a stair goal is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClimbPhase {
    /// Towards the flight.
    Approach,
    /// Up: onto the flight, flippers still raised. Down: over the edge.
    Mount,
    /// On the flight.
    Flight,
    /// Level again at the far end.
    Landing,
    /// Reversing from a failed try, since the given distance along the flight (m).
    BackOff {
        /// Progress along the flight when the try failed, m.
        from: f64,
        /// When it began, s.
        since: f64,
    },
    /// Stopped: the strategy failed [`MAX_TRIES`] times.
    GaveUp,
}

/// What the strategy asks for this step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClimbAction {
    /// Speed along the flight, m/s (negative: reversing straight back).
    pub speed: f64,
    /// Flipper angle, rad (`None`: leave them).
    pub flipper: Option<f64>,
}

/// One stair goal's strategy, its phase and its tries.
#[derive(Debug, Clone, PartialEq)]
pub struct StairClimb {
    direction: StairDirection,
    phase: ClimbPhase,
    /// Cruise speed asked for, m/s.
    speed: f64,
    /// Tries so far (1 on the first).
    tries: u32,
    /// Flipper angle approaching, rad (from the reading, raised on retries).
    approach_flippers: Option<f64>,
    /// Extra flipper angle and speed factor of the retries.
    retry_flippers: f64,
    retry_speed: f64,
    /// The flight read, once seen.
    reading: Option<StairReading>,
    /// Best progress along the flight and when it was made, (m, s).
    best: (f64, f64),
    /// Why it gave up.
    reason: Option<String>,
    /// Down: the sums of rise and run (m) of the readings from near the edge and their
    /// number ([`StairClimb::judge_descent`]).
    descent_readings: (f64, f64, u32),
}

/// Why a try failed, in words for the reason given up with.
#[derive(Debug, Clone, PartialEq)]
enum TryFailure {
    /// Nose up past the rear-up limit.
    RearUp(String),
    /// No progress along the flight.
    Stall(String),
}

/// What the strategy reads each step (m, s; `progress` along the goal's line).
#[derive(Debug, Clone, Copy)]
pub struct ClimbSense<'a> {
    /// The hull's state.
    pub body: &'a BodyState,
    /// The flight as the range sensor reads it now, if it shows one.
    pub reading: Option<StairReading>,
    /// Distance made along the goal's line from its start, m.
    pub progress: f64,
    /// Simulation time, s.
    pub time: f64,
}

impl StairClimb {
    /// A strategy going `direction` at up to `speed` m/s.
    pub fn new(direction: StairDirection, speed: f64) -> Self {
        Self {
            direction,
            phase: ClimbPhase::Approach,
            speed,
            tries: 1,
            approach_flippers: None,
            retry_flippers: 0.0,
            retry_speed: 1.0,
            reading: None,
            best: (f64::NEG_INFINITY, 0.0),
            reason: None,
            descent_readings: (0.0, 0.0, 0),
        }
    }

    /// The phase now.
    pub fn phase(&self) -> ClimbPhase {
        self.phase
    }

    /// Why the strategy gave up, once it has.
    pub fn gave_up(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The flight as last read before mounting it.
    pub fn reading(&self) -> Option<&StairReading> {
        self.reading.as_ref()
    }

    /// What the goal is up or down, in words: "a 34° flight", "a 0.25 m step" (one step
    /// read) or "the flight" (none read).
    fn what(&self) -> String {
        match self.reading {
            Some(r) if r.run.is_some() => format!("a {:.0}° flight", r.angle() / DEG),
            Some(r) => format!("a {:.2} m step", r.rise),
            None => "the flight".to_string(),
        }
    }

    /// Flight angle: the reading's, else the default, rad.
    fn flight_angle(&self) -> f64 {
        self.reading
            .filter(|r| r.run.is_some())
            .map_or(DEFAULT_FLIGHT_ANGLE, |r| r.angle())
    }

    /// The action for this step.
    pub fn step(&mut self, geometry: &ClimbGeometry, sense: &ClimbSense<'_>) -> ClimbAction {
        let pitch = Tilt::of(&sense.body.pose).nose_up;
        if matches!(self.phase, ClimbPhase::Approach) {
            self.read(geometry, sense.reading);
        }
        if let Some(failure) = self.watchdog(geometry, pitch, sense) {
            self.fail(failure, sense);
        }
        self.advance(pitch, sense);
        self.action(geometry, pitch)
    }

    /// Keeps the reading of a flight going this goal's way, the approach flippers it asks
    /// and, down, whether the robot can take it.
    fn read(&mut self, geometry: &ClimbGeometry, reading: Option<StairReading>) {
        let Some(reading) = reading.filter(|r| r.direction == self.direction) else {
            return;
        };
        // Up, keep the fullest reading (the most steps seen) of the flight ahead. Down, the
        // treads below show only near the edge: keep the latest reading from there.
        let keep = match self.direction {
            StairDirection::Up => self.reading.is_none_or(|old| reading.steps >= old.steps),
            StairDirection::Down => self.reading.is_none_or(|old| {
                reading.first_edge < EDGE_SLOW
                    && reading.run.is_some()
                    && (old.first_edge >= EDGE_SLOW
                        || old.run.is_none()
                        || reading.steps >= old.steps)
            }),
        };
        if keep {
            self.reading = Some(reading);
            if self.direction == StairDirection::Up {
                self.approach_flippers = geometry.approach_angle(reading.rise);
                // A flight steeper than the backward tip angle less the rear-up margin leaves
                // no room to see a rear-up coming; nor does one whose pitch on the flight
                // would reach the pitch limit. Judged on [`FLIGHT_STEPS`] steps seen or more:
                // two edges may be a block and a post of a stepfield or rubble (the scout
                // read a "55° flight" of 0.15 m rises 0.11 m apart at a stepfield's rim,
                // which it crosses), and a real flight shows its third step as the robot
                // comes closer; the watchdogs guard the try meanwhile.
                // On the footprint's tip angle, not the flippers' (`tip_backward`): rear
                // flippers hold heavy250 reared up to 80° and more, but let it try flights
                // steeper than 36° and heavy250_eod tipped over on a 45° one (the watchdog
                // stops a rear-up at the pitch limit, and the armed robot's went on over).
                let steepest =
                    (geometry.tip_backward - STEEPEST_MARGIN).min(PITCH_MAX - ON_FLIGHT_MARGIN);
                if reading.run.is_some()
                    && reading.steps >= FLIGHT_STEPS
                    && reading.angle() > steepest
                {
                    self.reason = Some(format!(
                        "will not climb: this {:.0}° flight (read {} step(s), rise {:.2} m, \
                         run {:.2} m) is steeper than {:.0}° (its backward tip angle {:.0}° \
                         less {:.0}°, at most {:.0}°)",
                        reading.angle() / DEG,
                        reading.steps,
                        reading.rise,
                        reading.run.unwrap_or(0.0),
                        steepest / DEG,
                        geometry.tip_backward / DEG,
                        STEEPEST_MARGIN / DEG,
                        (PITCH_MAX - ON_FLIGHT_MARGIN) / DEG
                    ));
                    self.phase = ClimbPhase::GaveUp;
                }
            }
        }
        if self.direction == StairDirection::Down {
            self.judge_descent(geometry, &reading);
        }
    }

    /// Down: whether the robot can go over the flight's edge facing down, judged on the mean
    /// rise and run of the readings from within [`EDGE_SLOW`] of it once there are
    /// [`DESCENT_READINGS`] (one scan's rise and run scatter by millimetres, and the fall's
    /// energy share by ±0.15 for ±5 mm of rise and ±10 mm of run); refuses it, saying why, if
    /// not.
    fn judge_descent(&mut self, geometry: &ClimbGeometry, reading: &StairReading) {
        let Some(run) = reading.run.filter(|_| reading.first_edge < EDGE_SLOW) else {
            return;
        };
        let (rise_sum, run_sum, count) = &mut self.descent_readings;
        *rise_sum += reading.rise;
        *run_sum += run;
        *count += 1;
        if *count < DESCENT_READINGS {
            return;
        }
        let (rise, run) = (*rise_sum / f64::from(*count), *run_sum / f64::from(*count));
        let angle = rise.atan2(run);
        let fall = geometry.fall_over_edge(angle, rise.hypot(run), rise);
        let why = if fall.pitch > geometry.tip_forward {
            Some(format!(
                "over its edge it would pitch to {:.0}° nose down",
                fall.pitch / DEG
            ))
        } else if fall.nose_unsupported && fall.energy_share > FALL_ENERGY_SHARE {
            Some(format!(
                "over its edge its nose would fall onto the next nosing with {:.0} % of the \
                 energy that turns it over that nosing onto its nose",
                100.0 * fall.energy_share.min(9.99)
            ))
        } else if angle > geometry.tip_forward - DIVE_MARGIN {
            Some(format!("it is within {:.0}° of that", DIVE_MARGIN / DEG))
        } else {
            None
        };
        if let Some(why) = why {
            self.reason = Some(format!(
                "will not go down this {:.0}° flight facing down (rise {rise:.3} m, run \
                 {run:.3} m, the mean of {count} readings): it tips over forwards at {:.0}° \
                 and {why}",
                angle / DEG,
                geometry.tip_forward / DEG
            ));
            self.phase = ClimbPhase::GaveUp;
        }
    }

    /// Why the try in progress fails now, if it does.
    fn watchdog(
        &mut self,
        g: &ClimbGeometry,
        pitch: f64,
        sense: &ClimbSense<'_>,
    ) -> Option<TryFailure> {
        if matches!(self.phase, ClimbPhase::BackOff { .. } | ClimbPhase::GaveUp) {
            self.best = (sense.progress, sense.time);
            return None;
        }
        let angle = self.flight_angle();
        let on_it = matches!(self.phase, ClimbPhase::Mount | ClimbPhase::Flight);
        if on_it && self.direction == StairDirection::Up {
            // Mounting a step tilts the robot by up to the step's angle over its footprint
            // (the first step of a shallow flight pitches it past the flight's angle).
            let rise = self.reading.map_or(0.2, |r| r.rise);
            let mount = ((rise + LIP_CLEARANCE) / g.footprint)
                .clamp(0.0, 1.0)
                .asin();
            let limit = (angle.max(mount) + REAR_UP_MARGIN)
                .min(self.tip_backward(g) - TIP_MARGIN)
                .min(PITCH_MAX);
            if pitch > limit {
                return Some(TryFailure::RearUp(format!(
                    "reared up to {:.0}° on {}",
                    pitch / DEG,
                    self.what()
                )));
            }
        }
        if sense.progress > self.best.0 + STALL_PROGRESS {
            self.best = (sense.progress, sense.time);
        } else if sense.time - self.best.1 > STALL_TIME {
            let at = if on_it {
                "along the flight"
            } else {
                "from the start"
            };
            return Some(TryFailure::Stall(format!(
                "stalled {:.1} m {at}",
                sense.progress
            )));
        }
        None
    }

    /// The static backward tip-over angle climbing, rad. On a flight (one read with its run):
    /// with the flippers where the phases of the try put them, mounting (the approach angle)
    /// and on the flight, the lesser of the two (the flippers swing from one to the other as
    /// the robot goes on the flight), as the rear flippers bear on the nosings behind. Over a
    /// single step (or a flight not read), the footprint's: with the flippers' angle heavy250
    /// reared up a 0.30 m step to the pitch limit fast enough to go on over backwards.
    fn tip_backward(&self, g: &ClimbGeometry) -> f64 {
        if self.reading.is_none_or(|r| r.run.is_none()) {
            return g.tip_backward;
        }
        let approach =
            self.approach_flippers.unwrap_or(DEFAULT_APPROACH_FLIPPERS) + self.retry_flippers;
        let flight = FLIGHT_FLIPPERS + self.retry_flippers;
        g.tip_backward_at(approach).min(g.tip_backward_at(flight))
    }

    /// Ends the try in progress: up, back off (or give up after [`MAX_TRIES`]) and set the
    /// retry's speed by why it failed; down, stop.
    fn fail(&mut self, failure: TryFailure, sense: &ClimbSense<'_>) {
        let (why, speed_factor) = match failure {
            TryFailure::RearUp(why) => (why, REAR_UP_RETRY_SPEED),
            TryFailure::Stall(why) => (why, STALL_RETRY_SPEED),
        };
        if self.direction == StairDirection::Down {
            // Going down there is nothing to retry from: reversing blind up a flight (or
            // out of a dive) is worse than stopping on it.
            self.reason = Some(format!("stopped: {why}"));
            self.phase = ClimbPhase::GaveUp;
        } else if self.tries >= MAX_TRIES {
            self.reason = Some(format!("gave up after {} tries: {why}", self.tries));
            self.phase = ClimbPhase::GaveUp;
        } else {
            self.reason = None;
            self.retry_speed *= speed_factor;
            self.phase = ClimbPhase::BackOff {
                from: sense.progress,
                since: sense.time,
            };
        }
    }

    /// Moves the phase on by pitch and progress.
    fn advance(&mut self, pitch: f64, sense: &ClimbSense<'_>) {
        let angle = self.flight_angle();
        let up = self.direction == StairDirection::Up;
        // Nose-up for a climb, nose-down for a descent.
        let along = if up { pitch } else { -pitch };
        self.phase = match self.phase {
            ClimbPhase::Approach if along > LEVEL.max(0.3 * angle) => ClimbPhase::Mount,
            ClimbPhase::Mount if along > angle - ON_FLIGHT_MARGIN => ClimbPhase::Flight,
            ClimbPhase::Flight if along < LEVEL => ClimbPhase::Landing,
            // Back far enough and level, or reversing for as long as the distance takes
            // and more (still on the flight after a rear-up high on it).
            ClimbPhase::BackOff { from, since }
                if (sense.progress < from - BACK_OFF && pitch.abs() < LEVEL)
                    || sense.time - since > BACK_OFF / BACK_OFF_SPEED + 4.0 =>
            {
                self.tries += 1;
                self.retry_flippers += 10.0 * DEG;
                self.best = (sense.progress, sense.time);
                ClimbPhase::Approach
            }
            phase => phase,
        };
    }

    /// The speed and flippers of the phase now.
    fn action(&self, geometry: &ClimbGeometry, pitch: f64) -> ClimbAction {
        let down_flippers = geometry.descent_flippers;
        // Retries after rear-ups slow down, never below a creep (or the speed asked).
        let speed = (self.speed * self.retry_speed).max(CREEP_SPEED.min(self.speed));
        let up = self.direction == StairDirection::Up;
        let approach =
            self.approach_flippers.unwrap_or(DEFAULT_APPROACH_FLIPPERS) + self.retry_flippers;
        let (speed, flipper) = match (self.phase, up) {
            (ClimbPhase::Approach | ClimbPhase::Mount, true) => (speed, approach),
            (ClimbPhase::Flight, true) => (speed, FLIGHT_FLIPPERS + self.retry_flippers),
            (ClimbPhase::Approach, false) => {
                let near = self.reading.is_some_and(|r| r.first_edge < EDGE_SLOW);
                (
                    if near { CREEP_SPEED.min(speed) } else { speed },
                    down_flippers,
                )
            }
            (ClimbPhase::Mount, false) => (CREEP_SPEED.min(speed), down_flippers),
            (ClimbPhase::Flight, false) => (
                descent_speed(self.speed, self.flight_angle()),
                down_flippers,
            ),
            (ClimbPhase::Landing, _) => (speed, 0.0),
            // Reversing: flippers down to bring the nose down off a riser.
            (ClimbPhase::BackOff { .. }, _) => {
                let flipper = if pitch > 0.0 { FLIGHT_FLIPPERS } else { 0.0 };
                (-BACK_OFF_SPEED, flipper)
            }
            (ClimbPhase::GaveUp, _) => {
                return ClimbAction {
                    speed: 0.0,
                    flipper: None,
                }
            }
        };
        ClimbAction {
            speed,
            flipper: Some(flipper),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::climb_geometry::tests::geometry;

    /// A robot at rest, level, its centre of mass `com_height` m above the origin.
    fn level_at_rest(com_height: f64) -> BodyState {
        BodyState {
            pose: nalgebra::Isometry3::identity(),
            com: nalgebra::Point3::new(0.1, 0.0, com_height),
            linvel: nalgebra::Vector3::zeros(),
            angvel: nalgebra::Vector3::zeros(),
        }
    }

    /// A climb is refused as too steep only on a reading of [`FLIGHT_STEPS`] steps or more:
    /// the scout reading two 0.15 m edges 0.11 m apart (54°; a stepfield's rim and post)
    /// goes on; the same rise and run over three steps is refused, naming the reading.
    #[test]
    fn too_steep_is_judged_on_a_flight_not_two_edges() {
        let g = geometry("scout");
        let body = level_at_rest(0.09);
        let sense = |steps: usize| ClimbSense {
            body: &body,
            reading: Some(StairReading {
                direction: StairDirection::Up,
                first_edge: 0.6,
                rise: 0.15,
                run: Some(0.11),
                nosing: 0.0,
                steps,
            }),
            progress: 0.0,
            time: 0.0,
        };
        let mut two = StairClimb::new(StairDirection::Up, 0.3);
        two.step(&g, &sense(2));
        assert_eq!(two.gave_up(), None);
        assert_eq!(two.phase(), ClimbPhase::Approach);
        let mut three = StairClimb::new(StairDirection::Up, 0.3);
        three.step(&g, &sense(3));
        let why = three.gave_up().expect("refused");
        assert!(
            why.contains("54° flight (read 3 step(s), rise 0.15 m, run 0.11 m)"),
            "{why}"
        );
    }

    /// Going down, tracker55 (no flippers, raised idler) is judged on the mean of
    /// [`DESCENT_READINGS`] readings near the edge: not before, and then refused over flight
    /// 6 of tests/stair_goals.rs (0.184/0.239 m, which tips it over) for its fall onto the
    /// next nosing, even read at 37° (under the 39° of [`DIVE_MARGIN`]); a 0.151/0.245 m
    /// flight (flight 16, 32°, which it goes down) is not refused.
    #[test]
    fn a_descent_is_refused_for_the_fall_over_the_edge_on_the_mean_reading() {
        let g = geometry("tracker55");
        let body = level_at_rest(0.14);
        let sense = |rise: f64, run: f64| ClimbSense {
            body: &body,
            reading: Some(StairReading {
                direction: StairDirection::Down,
                first_edge: 0.5,
                rise,
                run: Some(run),
                nosing: 0.0,
                steps: 3,
            }),
            progress: 0.0,
            time: 0.0,
        };
        let mut flight6 = StairClimb::new(StairDirection::Down, 0.3);
        // Read alternately 0.5° either side of 37.1°: the mean reads the flight at 37.1°.
        for k in 0..DESCENT_READINGS {
            assert_eq!(flight6.gave_up(), None, "judged after {k} readings");
            let run = if k % 2 == 0 { 0.239 } else { 0.251 };
            flight6.step(&g, &sense(0.184, run));
        }
        let why = flight6.gave_up().expect("refused");
        assert!(
            why.contains("37° flight") && why.contains("fall onto the next nosing"),
            "{why}"
        );
        let mut flight16 = StairClimb::new(StairDirection::Down, 0.3);
        for _ in 0..2 * DESCENT_READINGS {
            flight16.step(&g, &sense(0.151, 0.245));
        }
        assert_eq!(flight16.gave_up(), None);
    }

    /// A try stopped by a rear-up is retried at half the speed, one stopped by a stall at
    /// 25 % more (tracker55 reared up to 55° at 0.3 m/s on flight 3 of tests/stair_goals.rs,
    /// and the faster retry flips it over backwards there, 2026-12-02).
    #[test]
    fn a_retry_after_a_rear_up_is_slower_and_after_a_stall_faster() {
        let g = geometry("tracker55");
        let reading = StairReading {
            direction: StairDirection::Up,
            first_edge: 0.6,
            rise: 0.21,
            run: Some(0.27),
            nosing: 0.0,
            steps: 5,
        };
        let pitched = |deg: f64| {
            let mut body = level_at_rest(0.14);
            body.pose = nalgebra::Isometry3::rotation(nalgebra::Vector3::y() * -deg * DEG);
            assert!((Tilt::of(&body.pose).nose_up - deg * DEG).abs() < 1e-9);
            body
        };
        let step = |climb: &mut StairClimb, pitch: f64, progress: f64, time: f64| {
            let body = pitched(pitch);
            let sense = ClimbSense {
                body: &body,
                reading: Some(reading),
                progress,
                time,
            };
            climb.step(&g, &sense).speed
        };
        // Rear-up: on the flight's first riser, nose up to 60° on a 38° flight.
        let mut rear_up = StairClimb::new(StairDirection::Up, 0.3);
        assert_eq!(step(&mut rear_up, 0.0, 0.0, 0.0), 0.3);
        step(&mut rear_up, 20.0, 0.3, 1.0);
        assert_eq!(rear_up.phase(), ClimbPhase::Mount);
        assert_eq!(step(&mut rear_up, 60.0, 0.5, 1.5), -BACK_OFF_SPEED);
        assert_eq!(step(&mut rear_up, 0.0, 0.0, 4.0), 0.15);
        assert_eq!(rear_up.phase(), ClimbPhase::Approach);
        // Stall: no progress on the approach for longer than STALL_TIME.
        let mut stall = StairClimb::new(StairDirection::Up, 0.3);
        step(&mut stall, 0.0, 0.0, 0.0);
        assert_eq!(
            step(&mut stall, 0.0, 0.0, STALL_TIME + 0.1),
            -BACK_OFF_SPEED
        );
        assert_eq!(
            step(&mut stall, 0.0, -BACK_OFF - 0.01, 6.0),
            0.3 * STALL_RETRY_SPEED
        );
        assert!(stall.gave_up().is_none());
    }
}
