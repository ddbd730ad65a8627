//! The scene's traffic in a session (seed 002): each `[[traffic]]` group's controller
//! ([`crate::control::traffic`]) moves its agents before each physics step, avoiding the
//! session's robot; the agents ride in the simulation as kinematic boxes
//! ([`Simulation::add_mover`]) standing on the ground under them, so the robot can bump into
//! them.
//!
//! The controllers run at their own fixed tick, [`TRAFFIC_TICK`], whatever the physics step:
//! they decide in ticks (an agent chooses its velocity every
//! [`crate::control::traffic::DECISION_STEPS`]-th), so run once per physics step they
//! reacted 2.5× slower at a 5 ms step than at 2 ms, and a crowd the scout drove through met
//! it twice instead of at most once. Before each physics step they tick until they reach its
//! end, and each box is put where its agent is at that moment, between its last two ticks.
//!
//! What the operator sees of the traffic ([`SessionTraffic::seen`]) is what the robot's hull
//! cameras show: agents within [`SIGHT_RANGE`], inside a camera's picture and not hidden by
//! the terrain — what the trial pilot yields to.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector2};

use crate::control::traffic::{Avoidance, Obstacle, Traffic, TrafficScratch};
use crate::digest::BitDigest;
use crate::scene::TrafficSpec;
use crate::sim::{MoverId, RobotId, SimError, Simulation, StateSnapshot};
use crate::vehicle::file_limits::MAX_CAMERAS;

/// How far an agent moves before the ground under it is looked up again, m.
const GROUND_RESAMPLE: f64 = 0.1;
/// The ground is searched from this far above the agent's last ground, m (lower than any
/// ceiling over a roaming area, higher than a step an agent could meet).
const GROUND_SEARCH_ABOVE: f64 = 0.5;

/// The traffic controllers' step, s: the default physics step they were written and tuned for
/// (one tick a step there, as before), a divisor of the larger steps (4, 5, 10 ms) that they
/// then meet at every other boundary.
pub const TRAFFIC_TICK: f64 = 0.002;

/// How far off an operator makes out a traffic agent on a hull camera's picture, m.
pub const SIGHT_RANGE: f64 = 8.0;

/// A hull camera's picture, width over height: 4:3, an analogue camera's (the robot files give
/// the vertical field of view; the station's wider windows show more, not less).
const PICTURE_ASPECT: f64 = 4.0 / 3.0;

/// One group and its bodies.
#[derive(Debug, Clone)]
struct Group {
    traffic: Traffic,
    movers: Vec<MoverId>,
    /// Per agent: where the ground was last looked up (x, y) and its height there, m.
    ground: Vec<(Vector2<f64>, f64)>,
    /// Per agent: where it was (x, y, m) and its heading (rad) a tick before its last.
    before: Vec<(Vector2<f64>, f64)>,
}

/// Every traffic group of a session.
#[derive(Debug, Clone, Default)]
pub struct SessionTraffic {
    groups: Vec<Group>,
    scratch: TrafficScratch,
    obstacles: Vec<Obstacle>,
    /// Radius of the circle the agents keep the robot in (its footprint's), m.
    robot_radius: f64,
    /// Ticks the controllers have made ([`TRAFFIC_TICK`] each).
    ticks: u64,
}

impl SessionTraffic {
    /// Places every group of `specs` in `sim` (kinematic boxes on the ground), avoiding by
    /// `avoidance` each other and `robot`.
    pub fn new(
        sim: &mut Simulation,
        robot: RobotId,
        specs: &[TrafficSpec],
        avoidance: Avoidance,
    ) -> Result<Self, SimError> {
        let robot_radius = sim.robot(robot).spec().footprint_radius();
        let top = sim.scene().terrain.bounds().1.z + 1.0;
        let mut groups = Vec::with_capacity(specs.len());
        for spec in specs {
            let traffic =
                Traffic::new(spec, avoidance).map_err(|e| SimError::Traffic(e.to_string()))?;
            let mut movers = Vec::with_capacity(spec.count);
            let mut ground = Vec::with_capacity(spec.count);
            let before = traffic
                .agents()
                .iter()
                .map(|a| (a.state.position, a.state.yaw))
                .collect();
            for agent in traffic.agents() {
                let p = agent.state.position;
                let z = ground_at(sim, p, top);
                movers.push(sim.add_mover(spec.size, &box_pose(spec.size, p, agent.state.yaw, z)));
                ground.push((p, z));
            }
            groups.push(Group {
                traffic,
                movers,
                ground,
                before,
            });
        }
        Ok(Self {
            groups,
            robot_radius,
            ..Default::default()
        })
    }

    /// Ticks every controller until the end of `sim`'s coming step, avoiding `robot` where it
    /// is now, and tells the simulation where the boxes are at the end of the step (module
    /// docs). Call before [`Simulation::step`].
    pub fn step(&mut self, sim: &mut Simulation, robot: RobotId) {
        if self.groups.is_empty() {
            return;
        }
        let body = sim.body_state(robot);
        let (position, velocity) = (body.pose.translation.vector.xy(), body.linvel.xy());
        // Whole ticks, counted: no drift over a long session.
        let start = sim.steps() as f64 * sim.config().dt;
        let end = (sim.steps() + 1) as f64 * sim.config().dt;
        while (self.ticks as f64) * TRAFFIC_TICK < end - TICK_ROUNDING {
            // The robot where it will be at the tick, at its present velocity: a robot held
            // still over several ticks would seem to touch an agent anew at each.
            let ahead = (self.ticks as f64) * TRAFFIC_TICK - start;
            self.obstacles.clear();
            self.obstacles.push(Obstacle {
                position: position + velocity * ahead.max(0.0),
                velocity,
                radius: self.robot_radius,
            });
            for group in &mut self.groups {
                for (before, agent) in group.before.iter_mut().zip(group.traffic.agents()) {
                    *before = (agent.state.position, agent.state.yaw);
                }
                group
                    .traffic
                    .step(TRAFFIC_TICK, &self.obstacles, &mut self.scratch);
            }
            self.ticks += 1;
        }
        // Where the step ends between the last two ticks: 1 at the last.
        let share = 1.0 - ((self.ticks as f64) * TRAFFIC_TICK - end) / TRAFFIC_TICK;
        for group in &mut self.groups {
            let size = group.traffic.spec().size;
            for (k, agent) in group.traffic.agents().iter().enumerate() {
                let (p, yaw) = between(group.before[k], agent, share);
                let (at, z) = group.ground[k];
                let z = if (p - at).norm() > GROUND_RESAMPLE {
                    let z = ground_at(sim, p, z + GROUND_SEARCH_ABOVE);
                    group.ground[k] = (p, z);
                    z
                } else {
                    z
                };
                sim.move_mover(group.movers[k], &box_pose(size, p, yaw, z));
            }
        }
    }

    /// The agents `robot`'s hull cameras show in `sim` now (module docs) into `out`, as the
    /// circles the agents keep apart by, with their velocities (world frame): an agent is
    /// seen when the middle of its box lies within [`SIGHT_RANGE`] and inside a camera's
    /// horizontal field of view of its axis, over a clear line of sight.
    pub fn seen(&self, sim: &Simulation, robot: RobotId, out: &mut Vec<Obstacle>) {
        out.clear();
        let pose = sim.body_state(robot).pose;
        let terrain = &sim.scene().terrain;
        // Each camera's world pose and horizontal half-field, once per call (on the stack: a
        // robot file has at most MAX_CAMERAS of them).
        let cameras = &sim.robot(robot).spec().cameras;
        let mut views = [(Isometry3::identity(), 0.0); MAX_CAMERAS];
        for (view, camera) in views.iter_mut().zip(cameras) {
            let half = ((0.5 * camera.fov).tan() * PICTURE_ASPECT).atan();
            *view = (camera.world_pose(&pose), half);
        }
        let views = &views[..cameras.len().min(MAX_CAMERAS)];
        for group in &self.groups {
            let height = group.traffic.spec().size[2];
            for (agent, &(_, ground)) in group.traffic.agents().iter().zip(&group.ground) {
                let p = agent.state.position;
                let middle = Point3::new(p.x, p.y, ground + 0.5 * height);
                let shown = views.iter().any(|(at, half)| {
                    terrain.camera_sees(at, 2.0 * half, &middle, SIGHT_RANGE, *half)
                });
                if shown {
                    let heading = Vector2::new(agent.state.yaw.cos(), agent.state.yaw.sin());
                    out.push(Obstacle {
                        position: p,
                        velocity: heading * agent.state.speed,
                        radius: group.traffic.radius(),
                    });
                }
            }
        }
    }

    /// The groups' controllers (agents, statistics).
    pub fn groups(&self) -> impl Iterator<Item = &Traffic> {
        self.groups.iter().map(|g| &g.traffic)
    }

    /// The boxes of group `g`, in agent order.
    pub fn movers(&self, g: usize) -> &[MoverId] {
        self.groups.get(g).map_or(&[], |group| &group.movers)
    }

    /// Adds the traffic's state to a snapshot: per group the agent count and a digest of every
    /// agent's position, heading and speed (bit-exact), so replay checks it without a
    /// thousand values per second in the log.
    pub fn capture_state(&self, out: &mut StateSnapshot) {
        for (g, group) in self.groups.iter().enumerate() {
            let mut fingerprint = BitDigest::default();
            for a in group.traffic.agents() {
                for x in [
                    a.state.position.x,
                    a.state.position.y,
                    a.state.yaw,
                    a.state.speed,
                ] {
                    fingerprint.add(x);
                }
            }
            let digest = fingerprint.value();
            out.push(format!("traffic{g}.agents"), group.movers.len() as f64);
            out.push(format!("traffic{g}.digest_hi"), (digest >> 32) as f64);
            out.push(
                format!("traffic{g}.digest_lo"),
                (digest & 0xffff_ffff) as f64,
            );
        }
    }
}

/// Step ends closer than this to a tick count as at it, s (the products of whole counts of
/// 2 and 5 ms differ from one another by rounding only).
const TICK_ROUNDING: f64 = 1e-9;

/// Where `agent` is, `share` of the way (0 ..= 1) from its state a tick before (`before`:
/// position, m, and heading, rad) to its state now: position and heading (the shorter way
/// round).
fn between(
    before: (Vector2<f64>, f64),
    agent: &crate::control::traffic::TrafficAgent,
    share: f64,
) -> (Vector2<f64>, f64) {
    let share = share.clamp(0.0, 1.0);
    let (from, from_yaw) = before;
    let (to, to_yaw) = (agent.state.position, agent.state.yaw);
    let turn = crate::control::agent::wrap_pi(to_yaw - from_yaw);
    (from + (to - from) * share, from_yaw + turn * share)
}

/// Height of the ground under `p`, searched down from `from_z` (0 over a hole).
fn ground_at(sim: &Simulation, p: Vector2<f64>, from_z: f64) -> f64 {
    sim.scene()
        .terrain
        .ground_below(&Point3::new(p.x, p.y, from_z), 1e3)
        .unwrap_or(0.0)
}

/// Pose of an agent's box of `size` (m): centred over `p` at heading `yaw`, its bottom on the
/// ground `z`.
fn box_pose(size: [f64; 3], p: Vector2<f64>, yaw: f64, z: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(p.x, p.y, z + size[2] / 2.0 + 1e-3),
        UnitQuaternion::from_euler_angles(0.0, 0.0, yaw),
    )
}

#[cfg(test)]
mod tests {
    use crate::config::SourceFile;
    use crate::scene::Scene;
    use crate::session::Session;
    use crate::sim::SimConfig;
    use crate::vehicle::robot_file::test_preset;
    use std::path::Path;

    /// A group of `count` carts roaming the rectangle `min`–`max` (x, y, m).
    fn group(name: &str, count: usize, min: (f64, f64), max: (f64, f64)) -> String {
        format!(
            "[[traffic]]\nname = \"{name}\"\ncount = {count}\narea_min = [{}, {}]\n\
             area_max = [{}, {}]\nspeed = [0.3, 0.5]\nseed = 3\nsize = [0.7, 0.5, 0.9]\n",
            min.0, min.1, max.0, max.1
        )
    }

    /// The scout at the origin facing +x on a 40 m pad, with `extra` scene text: the x of
    /// each agent its cameras show, m.
    fn seen_groups(extra: &str) -> Vec<f64> {
        let text = format!(
            "[[element]]\ntype = \"box\"\nsize = [40, 40, 0.5]\nposition = [0, 0, -0.5]\n\
             [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n{extra}"
        );
        let scene =
            Scene::from_source(&SourceFile::from_text(Path::new("t.toml"), text)).expect("scene");
        let spawn = scene.spawns[0].clone();
        let session = Session::free(scene, test_preset("scout"), spawn, SimConfig::default())
            .expect("session");
        let mut seen = Vec::new();
        session
            .traffic()
            .seen(session.sim(), session.robot(), &mut seen);
        seen.iter().map(|o| o.position.x).collect()
    }

    /// The scout's front and rear cameras (70° high, so 86° wide at 4:3) show carts ahead
    /// and behind within the sight range, not those beside it, nor those beyond 8 m, nor
    /// those a wall hides; each seen cart comes with its velocity and circle.
    #[test]
    fn the_cameras_show_the_carts_in_their_pictures_and_in_sight() {
        let ahead = group("ahead", 2, (3.0, -1.0), (6.0, 1.0));
        let behind = group("behind", 2, (-6.0, -1.0), (-3.0, 1.0));
        let beside = group("beside", 2, (-1.0, 3.0), (1.0, 6.0));
        let far = group("far", 2, (10.0, -1.0), (14.0, 1.0));
        let seen = seen_groups(&format!("{ahead}{behind}{beside}{far}"));
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert_eq!(seen.iter().filter(|&&x| x > 0.0).count(), 2, "{seen:?}");
        // A wall 2 m ahead, 1.5 m high, hides the carts ahead.
        let wall = "[[element]]\ntype = \"box\"\nsize = [0.2, 6, 1.5]\nposition = [2, 0, 0]\n";
        let seen = seen_groups(&format!("{ahead}{wall}"));
        assert!(seen.is_empty(), "{seen:?}");
    }
}
