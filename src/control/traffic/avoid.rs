//! Stage 3 of the traffic step: how an agent avoids the others and the robots — ours, a
//! sampled choice of velocity by time to contact with both velocities, and seed 002's own rule
//! kept for comparison (see the parent module's docs).

use nalgebra::Vector2;

use super::agent::{self, AgentCommand};
use super::{Obstacle, Traffic, TrafficScratch, HORIZON, MARGIN, SEED_RANGE, SEED_TURN_RATE};
use crate::control::grid::Grid;

/// Headings tried each side of the wanted one, 22.5° apart (8: all the way round).
const HEADING_STEPS: i32 = 8;
/// Speeds tried, as shares of the cruise speed.
const SPEED_SHARES: [f64; 3] = [1.0, 0.4, 0.0];
/// Cost of a velocity: per 1/s of how soon it touches another (1/t − 1/horizon), per rad of
/// turn from the wanted heading, per share of speed given up. Velocities heading out of the
/// area are not considered (standing still always is).
pub(super) const COST_SOON: f64 = 4.0;
const COST_TURN: f64 = 0.6;
pub(super) const COST_SLOW: f64 = 0.8;

impl Traffic {
    /// Stage 3: the least costly velocity for agent `i` (see the module docs).
    pub(super) fn choose_velocity(
        &self,
        i: usize,
        wanted: &AgentCommand,
        obstacles: &[Obstacle],
        grid: &Grid,
        velocities: &[Vector2<f64>],
        near: &mut Vec<(Vector2<f64>, Vector2<f64>, f64)>,
    ) -> AgentCommand {
        let me = &self.agents[i].state;
        // Only neighbours that could come within reach inside the horizon at any of our
        // speeds are weighed.
        let fastest = wanted.speed.max(me.speed);
        near.clear();
        let mut keep = |p: Vector2<f64>, v: Vector2<f64>, reach: f64| {
            let rel = p - me.position;
            let far = reach + HORIZON * (v.norm() + fastest);
            if rel.norm_squared() <= far * far {
                near.push((rel, v, reach));
            }
        };
        grid.for_each_near(&me.position, |j| {
            if j != i {
                keep(
                    self.agents[j].state.position,
                    velocities[j],
                    2.0 * self.radius + MARGIN,
                );
            }
        });
        for o in obstacles {
            keep(o.position, o.velocity, self.radius + o.radius + MARGIN);
        }
        let lo = self.spec.area_min.coords + Vector2::repeat(self.radius);
        let hi = self.spec.area_max.coords - Vector2::repeat(self.radius);
        // How far the agent goes along a new heading before it could turn back: a U-turn and
        // the braking at the faster of its present and the new speed, a margin, and a second
        // at the new speed.
        let reach_at = |speed: f64| {
            let v = me.speed.max(speed).max(0.1);
            2.0 * self.limits.min_radius(v) + MARGIN + v * v / (2.0 * self.limits.decel_max) + speed
        };
        let mut best = (f64::INFINITY, *wanted);
        // Smallest turns first, so a clear way found early rules out every costlier one
        // without computing its conflicts: 0, +1, −1, +2, … steps, and ±180° once.
        for n in 0..2 * HEADING_STEPS {
            let k = if n % 2 == 1 { (n + 1) / 2 } else { -(n / 2) };
            let turn = f64::from(k) * std::f64::consts::PI / f64::from(HEADING_STEPS);
            let yaw = agent::wrap_pi(wanted.yaw + turn);
            let dir = Vector2::new(yaw.cos(), yaw.sin());
            for share in SPEED_SHARES {
                let speed = wanted.speed * share;
                let ahead = me.position + reach_at(speed) * dir;
                let out = ahead.x < lo.x || ahead.x > hi.x || ahead.y < lo.y || ahead.y > hi.y;
                // Never towards the edge: when every heading is, the edge rule's (`wanted`).
                if out {
                    continue;
                }
                let fixed = COST_TURN * turn.abs() + COST_SLOW * (1.0 - share);
                if fixed >= best.0 {
                    continue; // cannot win whatever its conflicts
                }
                let u = speed * dir;
                let soonest = near
                    .iter()
                    .map(|(rel, v, reach)| time_to_contact(*rel, v - u, *reach))
                    .fold(HORIZON, f64::min);
                let cost = COST_SOON * (1.0 / soonest.max(1e-3) - 1.0 / HORIZON) + fixed;
                if cost < best.0 {
                    best = (cost, AgentCommand { yaw, speed });
                }
            }
        }
        best.1
    }

    /// The seed's rule, from the positions at the start of the step (`scratch.before`):
    /// each agent with another on its line turns away by the seed's rate.
    pub(super) fn seed_turns(&mut self, obstacles: &[Obstacle], dt: f64, scratch: &TrafficScratch) {
        for i in 0..self.agents.len() {
            let p = scratch.before[i];
            let yaw = self.agents[i].state.yaw;
            let heading = Vector2::new(yaw.cos(), yaw.sin());
            let mut closest: Option<(f64, Vector2<f64>, Vector2<f64>)> = None;
            let mut look = |q: Vector2<f64>, reach: f64| {
                let d = (q - p).norm();
                let nearest = closest.map_or(SEED_RANGE, |c| c.0);
                if d > 0.0 && d < nearest {
                    let hit = p + d * heading;
                    if (hit - q).norm() < reach {
                        closest = Some((d, hit, q));
                    }
                }
            };
            scratch.grid.for_each_near(&p, |j| {
                if j != i {
                    look(scratch.before[j], 2.0 * self.radius);
                }
            });
            for o in obstacles {
                look(o.position, self.radius + o.radius);
            }
            if let Some((_, hit, other)) = closest {
                // The seed's sign test: (hit − p) × (other − p) > 0 puts the other on the
                // left of our heading (our hit point passes on its right): turn right, away.
                let side = (hit - p).perp(&(other - p));
                let turn = if side < 0.0 { 1.0 } else { -1.0 } * SEED_TURN_RATE * dt;
                let agent = &mut self.agents[i];
                agent.state.yaw = agent::wrap_pi(agent.state.yaw + turn);
                agent.wander_yaw = agent.state.yaw;
            }
        }
    }
}

/// Time until a circle at relative position `p` moving at relative velocity `w` comes within
/// `reach` (two radii and a margin), s, capped at the horizon: 0 if it is already within reach
/// and not moving away, the horizon if it never comes within reach.
pub(super) fn time_to_contact(p: Vector2<f64>, w: Vector2<f64>, reach: f64) -> f64 {
    let c = p.norm_squared() - reach * reach;
    let b = p.dot(&w);
    if c <= 0.0 {
        // Within reach: a conflict now unless moving apart.
        return if b >= 0.0 { HORIZON } else { 0.0 };
    }
    let a = w.norm_squared();
    if b >= 0.0 || a <= 1e-12 {
        return HORIZON; // moving apart or keeping station
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return HORIZON; // passes clear
    }
    ((-b - disc.sqrt()) / a).min(HORIZON)
}

#[cfg(test)]
mod tests {
    use super::super::{Avoidance, TrafficSpec};
    use super::*;
    use nalgebra::Point2;

    /// Time to contact with both velocities: head-on at 4 m closing at 2 m/s with a reach of
    /// 1 m touches after 1.5 s; crossing at right angles from (2, −2) at 1 m/s each comes within
    /// 1 m after 2 − 1/√2 = 1.293 s; a neighbour keeping station 2 m away, one moving away,
    /// and one that passes 1.5 m clear never do (the horizon); one within reach and closing
    /// is a conflict now.
    #[test]
    fn time_to_contact_uses_both_velocities() {
        let t = |p: (f64, f64), w: (f64, f64)| {
            time_to_contact(Vector2::new(p.0, p.1), Vector2::new(w.0, w.1), 1.0)
        };
        assert!((t((4.0, 0.0), (-2.0, 0.0)) - 1.5).abs() < 1e-12);
        assert!((t((2.0, -2.0), (-1.0, 1.0)) - (2.0 - 0.5f64.sqrt())).abs() < 1e-12);
        assert_eq!(t((0.0, 2.0), (0.0, 0.0)), HORIZON);
        assert_eq!(t((2.0, 0.0), (1.0, 0.0)), HORIZON);
        assert_eq!(t((3.0, 1.5), (-1.0, 0.0)), HORIZON);
        assert_eq!(t((0.5, 0.0), (-0.1, 0.0)), 0.0);
        assert_eq!(t((0.5, 0.0), (0.1, 0.0)), HORIZON);
        // Beyond the horizon: capped.
        assert_eq!(t((20.0, 0.0), (-1.0, 0.0)), HORIZON);
    }

    /// The seed's rule by its own numbers: an agent with another dead ahead within
    /// `SEED_RANGE` turns away by 0.5° per 1/60 s check, 30°/s, whatever the other does; with
    /// the other off its line it holds its heading.
    #[test]
    fn the_seed_rule_turns_half_a_degree_per_sixtieth_of_a_second() {
        let spec = TrafficSpec {
            name: "pair".into(),
            count: 2,
            area_min: Point2::new(-20.0, -20.0),
            area_max: Point2::new(20.0, 20.0),
            speed: (0.5, 0.5),
            seed: 1,
            size: [0.6, 0.4, 1.0],
        };
        let mut traffic = Traffic::new(&spec, Avoidance::Seed).expect("fits");
        // Agent 0 at the origin heading +x; agent 1 2 m ahead, slightly left, standing.
        for (k, (x, y, yaw)) in [(0.0, 0.0, 0.0), (2.0, 0.1, 0.0)].into_iter().enumerate() {
            let a = &mut traffic.agents[k];
            a.state.position = Vector2::new(x, y);
            a.state.yaw = yaw;
            a.wander_yaw = yaw;
            a.wander_until = 1e9;
        }
        traffic.agents[1].cruise = 0.0;
        traffic.agents[1].state.speed = 0.0;
        let mut scratch = TrafficScratch::default();
        let dt = 1.0 / 60.0;
        let before = traffic.agents[0].state.yaw;
        traffic.step(dt, &[], &mut scratch);
        let turned = traffic.agents[0].state.yaw - before;
        // The other is on the left: a turn right by exactly 0.5°.
        assert!(
            (turned + 0.5f64.to_radians()).abs() < 1e-9,
            "{}",
            turned.to_degrees()
        );
        // Off the line (3 m to the side): no turn.
        traffic.agents[1].state.position = Vector2::new(2.0, 3.0);
        let before = traffic.agents[0].state.yaw;
        traffic.step(dt, &[], &mut scratch);
        assert!((traffic.agents[0].state.yaw - before).abs() < 1e-9);
    }
}
