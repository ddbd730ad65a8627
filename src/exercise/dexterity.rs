//! Manipulation (dexterity) in exercises, modelled on the ASTM E54.09 manipulator test methods
//! (E3408 "Dexterity: Inspect") and RoboCup Rescue's pick-and-place: goals about the scene's
//! movable objects (hold one, put one in a zone, clear one out of a zone), valves (turn one
//! to an opening) and doors (open one so far), the gripper
//! camera's part in observation goals (which camera, and how square to the target's face),
//! and the arm's faults and penalties (a dropped object, a joint held past its torque limit,
//! the arm or its load hitting the scene hard).
//!
//! ```toml
//! [[goal]]                  # the gripper holds an object
//! hold = "package"
//!
//! [[goal]]                  # an object let go of inside a zone, at rest
//! place = "package"
//! position = [2.0, 1.0, 0.2]
//! radius = 0.15
//! half_height = 0.2
//!
//! [[goal]]                  # an object moved out of a zone, at rest, let go of
//! clear = "debris"
//! position = [3.0, 0.0, 0.1]
//! radius = 0.5
//!
//! [[goal]]                  # a valve turned to an opening and let go of
//! valve = "feed"
//! open = 0                  # turns open (0: shut)
//! within = 0.05             # turns either side (default 0.05)
//!
//! [[goal]]                  # a door opened at least so far
//! door = "lab"
//! open_deg = 60
//!
//! [[goal]]                  # observe with a named camera, square to the target's face
//! observe = [1.2, 0.0, 0.4]
//! camera = "gripper"
//! range = 0.4
//! facing = [-1, 0, 0]       # the face's outward normal, world
//! square_deg = 25           # largest angle between the view and that normal (default 30)
//!
//! [rules]
//! arm_force_limit = 80      # N: the arm or its load hitting the scene harder is a penalty
//! ```

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use super::outcome::FaultKind;
use super::spec::{ExerciseRules, Penalties, ZoneSpec, MAX_COORD};
use crate::config::{ConfigError, TableReader};
use crate::sim::{RobotId, Simulation};
use crate::vehicle::arm::MAX_ARM_JOINTS;
use crate::vehicle::spec::CameraSpec;

/// An object counts as at rest below this speed, m/s.
pub const AT_REST: f64 = 0.05;
/// A joint gives at least this share of its torque limit when it counts as overloaded.
const OVERLOAD_SHARE: f64 = 0.999;
/// A new arm collision needs this long without one first, s.
const HIT_GAP: f64 = 0.5;

/// What an object goal asks.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectTask {
    /// The gripper holds it.
    Hold,
    /// It lies in the zone, let go of and at rest.
    Place(ZoneSpec),
    /// It lies outside the zone, let go of and at rest.
    Clear(ZoneSpec),
}

/// A goal about one of the scene's movable objects.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectGoal {
    /// The object's name.
    pub object: String,
    /// Its index in the scene's objects (filled in when the exercise is resolved).
    pub index: usize,
    /// What is asked of it.
    pub task: ObjectTask,
}

/// A goal about one of the scene's valves: turned to an opening and let go of.
#[derive(Debug, Clone, PartialEq)]
pub struct ValveGoal {
    /// The valve's name.
    pub valve: String,
    /// Its index in the scene's valves (filled in when the exercise is resolved).
    pub index: usize,
    /// The opening asked for, turns (0: shut).
    pub open: f64,
    /// How far either side of it counts, turns.
    pub within: f64,
}

/// Reads a valve goal from its table; returns its default name and the goal.
pub fn read_valve_goal(t: &TableReader<'_>) -> Result<(String, ValveGoal), ConfigError> {
    let valve = t.str("valve")?;
    let open = t.f64("open", 0.0, crate::scene::valves::MAX_VALVE_TRAVEL)?;
    let within = t.opt_positive("within", 10.0)?.unwrap_or(0.05);
    let name = if open == 0.0 {
        format!("shut {valve}")
    } else {
        format!("{valve} to {open} turns")
    };
    Ok((
        name,
        ValveGoal {
            valve,
            index: 0,
            open,
            within,
        },
    ))
}

impl ValveGoal {
    /// The goal in words.
    pub fn describe(&self) -> String {
        format!(
            "turn valve {} to {} ± {} turns open and let go",
            self.valve, self.open, self.within
        )
    }

    /// Where the goal is, world, m: the valve's hub.
    pub fn point(&self, valves: &[crate::scene::ValveSpec]) -> Point3<f64> {
        valves
            .get(self.index)
            .map_or(Point3::origin(), |v| v.centre)
    }

    /// Whether robot `id` has done it: the valve within the tolerance of the opening and no
    /// gripper holding it.
    pub fn met(&self, sim: &Simulation, _id: RobotId) -> bool {
        sim.valve_state(self.index)
            .is_some_and(|v| !v.held && (v.open - self.open).abs() <= self.within)
    }
}

/// A goal about one of the scene's doors: opened at least so far (a door a robot will drive
/// through; latched doors need their handle turned first).
#[derive(Debug, Clone, PartialEq)]
pub struct DoorGoal {
    /// The door's name.
    pub door: String,
    /// Its index in the scene's doors (filled in when the exercise is resolved).
    pub index: usize,
    /// How far open it must stand, rad.
    pub open: f64,
}

/// Reads a door goal from its table; returns its default name and the goal.
pub fn read_door_goal(t: &TableReader<'_>) -> Result<(String, DoorGoal), ConfigError> {
    let door = t.str("door")?;
    let open_deg = t.f64("open_deg", 1.0, 180.0)?;
    Ok((
        format!("open {door} {open_deg}°"),
        DoorGoal {
            door,
            index: 0,
            open: open_deg.to_radians(),
        },
    ))
}

impl DoorGoal {
    /// The goal in words.
    pub fn describe(&self) -> String {
        format!(
            "open door {} at least {:.0}°",
            self.door,
            self.open.to_degrees()
        )
    }

    /// Where the goal is, world, m: the shut leaf's centre at handle height.
    pub fn point(&self, doors: &[crate::scene::DoorSpec]) -> Point3<f64> {
        doors.get(self.index).map_or(Point3::origin(), |d| {
            d.leaf_pose(0.0) * Point3::new(0.5 * d.size[0], 0.0, d.handle_height)
        })
    }

    /// Whether it is done: the door stands open at least so far.
    pub fn met(&self, sim: &Simulation, _id: RobotId) -> bool {
        sim.door_state(self.index)
            .is_some_and(|d| d.angle >= self.open)
    }
}

/// The face of an observation target that must be seen square on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facing {
    /// The face's outward normal, world.
    pub normal: Unit<Vector3<f64>>,
    /// Largest angle between the camera's view of the target and the normal, rad.
    pub max_angle: f64,
}

/// Reads an object goal of kind `kind` (`hold`, `place` or `clear`) from its table; returns
/// its default name and the goal.
pub fn read_object_goal(
    t: &TableReader<'_>,
    kind: &str,
) -> Result<(String, ObjectGoal), ConfigError> {
    let object = t.str(kind)?;
    let zone = |t: &TableReader<'_>| -> Result<ZoneSpec, ConfigError> {
        Ok(ZoneSpec {
            position: Point3::from(t.array::<3>("position", -MAX_COORD, MAX_COORD)?),
            radius: t.positive("radius", 1000.0)?,
            half_height: t.opt_positive("half_height", 1000.0)?.unwrap_or(1.0),
        })
    };
    let task = match kind {
        "hold" => ObjectTask::Hold,
        "place" => ObjectTask::Place(zone(t)?),
        _ => ObjectTask::Clear(zone(t)?),
    };
    let name = format!("{kind} {object}");
    Ok((
        name,
        ObjectGoal {
            object,
            index: 0,
            task,
        },
    ))
}

/// Reads an observation goal's camera and facing (both optional).
pub fn read_observe_view(
    t: &TableReader<'_>,
) -> Result<(Option<String>, Option<Facing>), ConfigError> {
    let camera = t.opt_str("camera")?;
    let facing = match t.opt_array::<3>("facing", -1e3, 1e3)? {
        Some(n) => {
            let normal = Unit::try_new(Vector3::from(n), 1e-9)
                .ok_or_else(|| t.error("facing", "must not be the zero vector"))?;
            let max_angle = t
                .opt_positive("square_deg", 90.0)?
                .unwrap_or(30.0)
                .to_radians();
            Some(Facing { normal, max_angle })
        }
        None if t.has("square_deg") => {
            return Err(t.error("square_deg", "square_deg needs facing"));
        }
        None => None,
    };
    Ok((camera, facing))
}

impl ObjectGoal {
    /// The goal in words.
    pub fn describe(&self) -> String {
        match &self.task {
            ObjectTask::Hold => format!("hold {}", self.object),
            ObjectTask::Place(z) => format!(
                "place {} in the zone at ({:.2}, {:.2}, {:.2}) r {:.2} m",
                self.object, z.position.x, z.position.y, z.position.z, z.radius
            ),
            ObjectTask::Clear(z) => format!(
                "clear {} out of the zone at ({:.2}, {:.2}) r {:.2} m",
                self.object, z.position.x, z.position.y, z.radius
            ),
        }
    }

    /// Where the goal is, world, m: its zone's centre, or (hold) where the object started.
    pub fn point(&self, sim_objects: &[crate::scene::ObjectSpec]) -> Point3<f64> {
        match &self.task {
            ObjectTask::Place(z) | ObjectTask::Clear(z) => z.position,
            ObjectTask::Hold => sim_objects.get(self.index).map_or(Point3::origin(), |o| {
                Point3::from(o.pose.translation.vector)
            }),
        }
    }

    /// Whether robot `id` has done it.
    pub fn met(&self, sim: &Simulation, id: RobotId) -> bool {
        let held = sim.arm_state(id).and_then(|a| a.held);
        let Some(object) = sim.object_state(self.index) else {
            return false;
        };
        let here = Point3::from(object.pose.translation.vector);
        let settled = held != Some(self.index) && object.linvel.norm() < AT_REST;
        match &self.task {
            ObjectTask::Hold => held == Some(self.index),
            ObjectTask::Place(zone) => settled && zone.contains(&here),
            ObjectTask::Clear(zone) => settled && !zone.contains(&here),
        }
    }
}

/// The cameras an observation may use, world poses with their fields of view (rad): the one
/// named (a hull camera or the gripper's), or every hull camera.
pub fn observing_cameras(
    sim: &Simulation,
    id: RobotId,
    hull_cameras: &[CameraSpec],
    named: Option<&str>,
) -> Vec<(Isometry3<f64>, f64)> {
    let body = sim.body_state(id).pose;
    let mut out: Vec<(Isometry3<f64>, f64)> = hull_cameras
        .iter()
        .filter(|c| named.is_none_or(|n| n == c.name))
        .map(|c| (c.world_pose(&body), c.fov))
        .collect();
    let gripper_camera = sim
        .robot(id)
        .spec()
        .arm
        .as_ref()
        .and_then(|a| a.gripper.camera.clone());
    if let (Some(camera), Some(arm)) = (gripper_camera, sim.arm_state(id)) {
        if named == Some(camera.name.as_str()) {
            out.push((camera.world_pose(&arm.gripper), camera.fov));
        }
    }
    out
}

/// Whether a camera at `pose` sees `target` square enough to `facing`.
pub fn square_to(pose: &Isometry3<f64>, target: &Point3<f64>, facing: Option<&Facing>) -> bool {
    facing.is_none_or(|f| {
        let from_target = Point3::from(pose.translation.vector) - target;
        let n = from_target.norm();
        n > 1e-9 && (from_target.dot(&f.normal) / n).clamp(-1.0, 1.0).acos() <= f.max_angle
    })
}

/// What the arm watch found in a step.
#[derive(Debug, Clone, PartialEq)]
pub enum ArmFinding {
    /// A fault: the repetition is void.
    Fault(FaultKind),
    /// A penalty with its reason.
    Penalty(String),
}

/// Watches an armed robot for the arm's faults and penalties across steps.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArmWatch {
    /// The object held after the last step.
    held: Option<usize>,
    /// How long each joint has been at its torque limit, s.
    overloaded: [f64; MAX_ARM_JOINTS],
    /// Time since the arm last hit the scene above the force limit, s.
    since_hit: f64,
}

impl ArmWatch {
    /// A watch that has seen nothing yet.
    pub fn new() -> Self {
        Self {
            since_hit: f64::INFINITY,
            ..Self::default()
        }
    }

    /// Forgets what it saw (a restart at the start).
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// Looks at robot `id` after a step of `dt` s: a held object dropped while the gripper
    /// was closed on it, a joint at its torque limit for the rules' stall limit, the arm or
    /// its load hitting the scene above the rules' force limit (a new hit after
    /// half a second without one).
    pub fn update(
        &mut self,
        sim: &Simulation,
        id: RobotId,
        rules: &ExerciseRules,
        dt: f64,
    ) -> Option<ArmFinding> {
        let state = sim.arm_state(id)?;
        let arm = sim.robot(id).spec().arm.as_ref()?;
        let dropped = self.held.is_some() && state.held.is_none() && state.closing;
        self.held = state.held;
        if dropped {
            return Some(ArmFinding::Fault(FaultKind::Dropped));
        }
        for (j, joint) in arm.joints.iter().enumerate() {
            let at_limit = state.efforts[j].abs() >= OVERLOAD_SHARE * joint.max_effort;
            self.overloaded[j] = if at_limit {
                self.overloaded[j] + dt
            } else {
                0.0
            };
        }
        if self.overloaded.iter().any(|t| *t >= rules.stall_limit) {
            self.overloaded = [0.0; MAX_ARM_JOINTS];
            return Some(ArmFinding::Fault(FaultKind::JointOverload));
        }
        let limit = rules.arm_force_limit?;
        if state.scene_force > limit {
            let new = self.since_hit >= HIT_GAP;
            self.since_hit = 0.0;
            if new {
                return Some(ArmFinding::Penalty(format!(
                    "arm hit the scene with {:.0} N (limit {limit:.0} N)",
                    state.scene_force
                )));
            }
        } else {
            self.since_hit += dt;
        }
        None
    }

    /// Its state as numbers, for session snapshots.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        [self.held.map_or(-1.0, |i| i as f64), self.since_hit]
            .into_iter()
            .chain(self.overloaded)
    }
}

/// The penalty points of an arm finding.
pub fn finding_points(finding: &ArmFinding, penalties: &Penalties) -> f64 {
    match finding {
        ArmFinding::Fault(FaultKind::Dropped) => penalties.dropped,
        ArmFinding::Fault(FaultKind::JointOverload) => penalties.joint_overload,
        ArmFinding::Fault(_) => 0.0,
        ArmFinding::Penalty(_) => penalties.arm_collision,
    }
}
