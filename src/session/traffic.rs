//! The scene's traffic in a session (seed 002): each `[[traffic]]` group's controller
//! ([`crate::control::traffic`]) moves its agents every step, before the physics, avoiding the
//! session's robot; the agents ride in the simulation as kinematic boxes
//! ([`Simulation::add_mover`]) standing on the ground under them, so the robot can bump into
//! them.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector2};

use crate::control::traffic::{Avoidance, Obstacle, Traffic, TrafficScratch};
use crate::digest::BitDigest;
use crate::scene::TrafficSpec;
use crate::sim::{MoverId, RobotId, SimError, Simulation, StateSnapshot};

/// How far an agent moves before the ground under it is looked up again, m.
const GROUND_RESAMPLE: f64 = 0.1;
/// The ground is searched from this far above the agent's last ground, m (lower than any
/// ceiling over a roaming area, higher than a step an agent could meet).
const GROUND_SEARCH_ABOVE: f64 = 0.5;

/// One group and its bodies.
#[derive(Debug, Clone)]
struct Group {
    traffic: Traffic,
    movers: Vec<MoverId>,
    /// Per agent: where the ground was last looked up (x, y) and its height there, m.
    ground: Vec<(Vector2<f64>, f64)>,
}

/// Every traffic group of a session.
#[derive(Debug, Clone, Default)]
pub struct SessionTraffic {
    groups: Vec<Group>,
    scratch: TrafficScratch,
    obstacles: Vec<Obstacle>,
    /// Radius of the circle the agents keep the robot in (its footprint's), m.
    robot_radius: f64,
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
            });
        }
        Ok(Self {
            groups,
            robot_radius,
            ..Default::default()
        })
    }

    /// Moves every agent one step of `sim` ahead, avoiding `robot`, and tells the simulation
    /// where their boxes are at the end of the step. Call before [`Simulation::step`].
    pub fn step(&mut self, sim: &mut Simulation, robot: RobotId) {
        if self.groups.is_empty() {
            return;
        }
        let dt = sim.config().dt;
        let body = sim.body_state(robot);
        self.obstacles.clear();
        self.obstacles.push(Obstacle {
            position: body.pose.translation.vector.xy(),
            velocity: body.linvel.xy(),
            radius: self.robot_radius,
        });
        for group in &mut self.groups {
            group.traffic.step(dt, &self.obstacles, &mut self.scratch);
            let size = group.traffic.spec().size;
            for (k, agent) in group.traffic.agents().iter().enumerate() {
                let p = agent.state.position;
                let (at, z) = group.ground[k];
                let z = if (p - at).norm() > GROUND_RESAMPLE {
                    let z = ground_at(sim, p, z + GROUND_SEARCH_ABOVE);
                    group.ground[k] = (p, z);
                    z
                } else {
                    z
                };
                sim.move_mover(group.movers[k], &box_pose(size, p, agent.state.yaw, z));
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
