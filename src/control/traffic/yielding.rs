//! The robot's side of seed 002's traffic: how the trial pilot (the instructor's
//! demonstration) yields to the agents its cameras show.
//!
//! The agents avoid the robot by its velocity (stage 3 of the traffic step); an operator who
//! sees one coming helps them. The pilot keeps its heading (a robot that swerves is harder for
//! them to read) and chooses only its pace along it — on at the wanted speed, slowed, stopped
//! or backing off ([`PACES`]) — by the agents' own cost: how soon it would come within reach
//! of one of the agents it sees (the two circles and `YIELD_MARGIN`), with both velocities,
//! inside the horizon, plus the pace given up (the avoidance's `COST_SOON`, `COST_SLOW`). A
//! slower pace, once chosen, is held for [`HOLD`] before the robot speeds up again: the agent
//! it yields to needs that long to pass, and a robot surging and stopping by turns is the
//! unpredictable pace the exercise warns of.
//!
//! It sees only what the cameras show (`session::traffic`): an agent coming from the side is
//! left to the agent's own avoidance, as it is for an operator.

use nalgebra::Vector2;

use super::avoid::{time_to_contact, COST_SLOW, COST_SOON};
use super::{Obstacle, HORIZON, MARGIN};

/// The paces the robot chooses from, as shares of its wanted forward speed: on, slowed,
/// stopped, backing off. Tried in this order, so of equal costs the faster wins.
pub const PACES: [f64; 4] = [1.0, 0.4, 0.0, -0.4];

/// The clearance the robot keeps between its circle and an agent's, m: half the margin the
/// agents keep from it (`MARGIN`), so that it yields before an agent's own margin is reached
/// and both do not wait on each other. On the course's traffic crossing (scout, 25 seeds of
/// its carts), measured 2026-11: no clearance, 12 collisions in the first 13 seeds (the robot
/// yields only once it is inside the agents' margin); the agents' whole margin, 7 and one run
/// out of time (robot and cart each stopping for the other); half, 1 collision in 25 runs
/// (without yielding, 16 and 2 runs failed).
const YIELD_MARGIN: f64 = 0.5 * MARGIN;

/// How long a slower pace is held before the robot speeds up again, s.
pub const HOLD: f64 = 1.0;

/// What the yielding rule keeps between steps: the slowest pace chosen lately and until when
/// it holds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Yielding {
    /// The pace held (a share of [`PACES`]) and the time it holds until, s.
    held: Option<(f64, f64)>,
}

impl Yielding {
    /// The share of its wanted forward speed `speed` (m/s, along the unit `heading`, world
    /// x–y) the robot `robot` (its circle: position, velocity, radius; world, m, m/s) drives
    /// at now, `now` s, among the agents it sees, `seen` (their circles): the least costly of
    /// [`PACES`] (module docs), or the pace held from a slower choice while it holds.
    pub fn pace(
        &mut self,
        now: f64,
        robot: &Obstacle,
        heading: Vector2<f64>,
        speed: f64,
        seen: &[Obstacle],
    ) -> f64 {
        let chosen = least_costly(robot, heading, speed, seen);
        let held = self.held.filter(|&(_, until)| now < until);
        match held {
            Some((pace, _)) if pace <= chosen => pace,
            _ => {
                self.held = (chosen < 1.0).then_some((chosen, now + HOLD));
                chosen
            }
        }
    }
}

/// The pace of least cost (module docs) for `robot` driving at `speed` m/s along `heading`
/// among `seen`.
fn least_costly(robot: &Obstacle, heading: Vector2<f64>, speed: f64, seen: &[Obstacle]) -> f64 {
    let mut best = (f64::INFINITY, 1.0);
    for pace in PACES {
        let given_up = COST_SLOW * (1.0 - pace);
        if given_up >= best.0 {
            continue; // cannot win whatever its conflicts
        }
        let u = heading * (speed * pace);
        let (mut soonest, mut touching) = (HORIZON, HORIZON);
        for o in seen {
            let (offset, closing) = (o.position - robot.position, o.velocity - u);
            let touch = robot.radius + o.radius;
            soonest = soonest.min(time_to_contact(offset, closing, touch + YIELD_MARGIN));
            touching = touching.min(time_to_contact(offset, closing, touch));
        }
        // Within the margin of an agent already (one seen late, coming from the side), every
        // pace that still closes on it is "in conflict now" alike: how soon the two would
        // touch is what tells them apart (else the tie went to the fastest, on into it).
        let inside = if soonest <= 0.0 {
            COST_SOON * (1.0 / touching.max(1e-3) - 1.0 / HORIZON)
        } else {
            0.0
        };
        let cost = COST_SOON * (1.0 / soonest.max(1e-3) - 1.0 / HORIZON) + inside + given_up;
        if cost < best.0 {
            best = (cost, pace);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(x: f64, y: f64, vx: f64, vy: f64, radius: f64) -> Obstacle {
        Obstacle {
            position: Vector2::new(x, y),
            velocity: Vector2::new(vx, vy),
            radius,
        }
    }

    /// The robot (radius 0.45 m) at the origin driving +x at 0.3 m/s; agents of radius 0.43 m,
    /// so a reach of 1.03 m with the margin.
    fn pace_among(seen: &[Obstacle]) -> f64 {
        let robot = circle(0.0, 0.0, 0.3, 0.0, 0.45);
        least_costly(&robot, Vector2::x(), 0.3, seen)
    }

    /// Nothing seen, an agent keeping its distance, one crossing far ahead and one behind
    /// moving away: on at full speed.
    #[test]
    fn a_clear_way_keeps_the_wanted_speed() {
        assert_eq!(pace_among(&[]), 1.0);
        assert_eq!(pace_among(&[circle(3.0, 0.0, 0.3, 0.0, 0.43)]), 1.0);
        // Crossing 6 m ahead at 0.5 m/s: through the path long before the robot gets there.
        assert_eq!(pace_among(&[circle(6.0, -1.0, 0.0, 0.5, 0.43)]), 1.0);
        assert_eq!(pace_among(&[circle(-2.0, 0.0, -0.5, 0.0, 0.43)]), 1.0);
    }

    /// An agent 1.8 m ahead coming head-on at 0.6 m/s comes within reach in 0.86 s at full
    /// speed: the robot backs off (stopped, it would still in 1.28 s; backing at 0.12 m/s,
    /// 1.60 s — the least cost). One standing ahead: 1.5 m off, the robot creeps on slowed (at
    /// 0.12 m/s it would reach it only after the horizon); 1.2 m off, it stops (slowed, it
    /// would within 1.4 s).
    #[test]
    fn an_agent_in_the_way_slows_stops_or_backs_the_robot() {
        assert_eq!(pace_among(&[circle(1.8, 0.0, -0.6, 0.0, 0.43)]), -0.4);
        assert_eq!(pace_among(&[circle(1.5, 0.0, 0.0, 0.0, 0.43)]), 0.4);
        assert_eq!(pace_among(&[circle(1.2, 0.0, 0.0, 0.0, 0.43)]), 0.0);
    }

    /// An agent about to cross the path just ahead (1.0 m ahead, 1.3 m to the side, at
    /// 0.5 m/s): at full speed the two come within reach in 1.06 s; stopped, the agent passes
    /// clear in front. From 1.2 m ahead and 1.2 m to the side it passes in front of the
    /// robot slowed to 0.4 of its speed (within reach only after 1.8 s, against 1.2 s).
    #[test]
    fn an_agent_crossing_just_ahead_is_let_through() {
        assert_eq!(pace_among(&[circle(1.0, -1.3, 0.0, 0.5, 0.43)]), 0.0);
        assert_eq!(pace_among(&[circle(1.2, -1.2, 0.0, 0.5, 0.43)]), 0.4);
    }

    /// Seen late, already within the margin: an agent 0.95 m ahead and 0.3 m to the side
    /// (centres 1.00 m apart, reach 1.03 m) crossing at 0.65 m/s. Every pace closes on it, so
    /// every one is a conflict now; stopped (or backing off) the two do not touch (0.88 m:
    /// it crosses 0.95 m ahead), at full speed they would in 0.26 s: the robot stops (it used
    /// to drive on, the tie going to the fastest pace).
    #[test]
    fn an_agent_seen_within_the_margin_is_let_through() {
        assert_eq!(pace_among(&[circle(0.95, -0.3, 0.0, 0.65, 0.43)]), 0.0);
    }

    /// A slower pace holds for `HOLD` before the robot speeds up, however clear the way
    /// becomes; a still slower choice takes over at once.
    #[test]
    fn a_slower_pace_is_held_before_speeding_up() {
        let robot = circle(0.0, 0.0, 0.3, 0.0, 0.45);
        let ahead = [circle(1.2, 0.0, 0.0, 0.0, 0.43)];
        let mut rule = Yielding::default();
        assert_eq!(rule.pace(10.0, &robot, Vector2::x(), 0.3, &ahead), 0.0);
        // The agent gone: still stopped until the hold ends, then on.
        assert_eq!(
            rule.pace(10.0 + 0.9 * HOLD, &robot, Vector2::x(), 0.3, &[]),
            0.0
        );
        assert_eq!(
            rule.pace(10.0 + 1.1 * HOLD, &robot, Vector2::x(), 0.3, &[]),
            1.0
        );
        // Held slowed, a head-on agent makes it back off at once.
        rule.held = Some((0.4, 100.0));
        let head_on = [circle(1.8, 0.0, -0.6, 0.0, 0.43)];
        assert_eq!(rule.pace(20.0, &robot, Vector2::x(), 0.3, &head_on), -0.4);
    }
}
