//! Exercise files: what the trainee must do, under which rules, and how it is scored.
//!
//! ```toml
//! [exercise]
//! name = "Stairs 35°, up and back"
//! description = "ASTM E2804-style: onto the upper landing and back to START"
//! scene = "../course_stairs.toml"      # relative to this file
//! robot = "../robots/scout.toml"
//! spawn = "start"                      # optional: the scene's first spawn
//! repetitions = 2                      # route repetitions required
//! round_trip = true                    # after the last goal, back into the start zone
//! start_radius = 0.6                   # m, start zone (round trip), default 0.6
//! time_limit = 600                     # s of exercise clock
//! pass_mark = 60                       # score (0–100) needed to pass
//!
//! [rules]
//! trainee = true            # onboard cameras only (the station enforces it)
//! max_tilt_deg = 40         # penalty when |roll| or |pitch| exceeds it
//! speed_limit = 0.8         # m/s, penalty when exceeded
//! stall_limit = 5           # s a motor may stall before it is a fault
//!
//! [[rules.forbidden]]       # a zone the robot's centre must not enter (penalty)
//! name = "pit"
//! min = [2.0, -1.0]         # world x, y, m
//! max = [3.0, 1.0]
//!
//! [proficiency]             # when a trainee is qualified on it (the classroom's records)
//! pass_rate = 0.8           # share of the last `window` attempts passed, default 0.8
//! reps_per_min = 1.0        # mean repetitions per minute over them, default 0
//! window = 5                # attempts looked at, default 5
//!
//! [penalties]               # points off the score; defaults in `Penalties::default`
//! hull_collision = 2
//! traffic_collision = 10    # the hull hits a moving agent
//!
//! [[traffic]]               # moving agents on top of the scene's (see `scene::traffic`)
//!
//! [link]                    # the remote link (see `link`); all optional
//! command_latency_ms = 300  # operator → robot
//! video_latency_ms = 200    # robot → operator
//! video_fps = 10            # frame-rate cap
//! video_height = 360        # resolution cap, pixels
//! ambient_light = 0.1       # 0 dark … 1 daylight; the robot's lights show the near scene
//!
//! [[link.dropout]]          # link lost: the video freezes, the robot stops
//! at = 30                   # s
//! duration = 5              # s
//!
//! [[link.camera_fault]]
//! camera = "front"
//! kind = "dead"             # dead, noise or dirty (with level = 0..1)
//! at = 60                   # s, default 0
//!
//! [[goal]]                  # a zone: a scene checkpoint by name ...
//! checkpoint = "top"
//! dwell = 2                 # s to stay inside, default 0
//!
//! [[goal]]                  # ... or an inline vertical cylinder
//! name = "landing"
//! position = [4.0, 0.0, 2.4]
//! radius = 0.6
//! half_height = 0.5
//!
//! [[goal]]                  # a gate: pass between two posts ...
//! name = "gate 1"
//! gate = [1.0, -0.6, 1.0, 0.6]  # posts at world (x, y) = (1.0, -0.6) and (1.0, 0.6)
//! heading_deg = 0           # ... optionally heading this way (±tolerance_deg, default 30)
//!
//! [[goal]]                  # an observation target: an onboard camera sees it
//! name = "victim tag"
//! observe = [6.0, 1.5, 0.3] # world, m
//! range = 2.5               # m from the camera
//! angle_deg = 20            # off the camera's axis (and within its field of view)
//! ```

use std::path::{Path, PathBuf};

use nalgebra::{Point2, Point3};

use super::dexterity::{
    read_door_goal, read_object_goal, read_observe_view, read_valve_goal, DoorGoal, Facing,
    ObjectGoal, ValveGoal,
};
use crate::config::{ConfigError, SourceFile, TableReader};
use crate::link::{CameraFault, CameraFaultKind, Dropout, LinkConditions};
use crate::scene::ObjectSpec;

/// Largest number of goals in an exercise.
pub const MAX_GOALS: usize = 200;
/// Largest number of forbidden zones.
pub const MAX_FORBIDDEN: usize = 100;
/// Largest coordinate of a goal or zone, m.
pub const MAX_COORD: f64 = 1e5;

/// A vertical cylinder the robot's centre must be in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoneSpec {
    /// Centre, world, m.
    pub position: Point3<f64>,
    /// Horizontal radius, m.
    pub radius: f64,
    /// Half height, m.
    pub half_height: f64,
}

impl ZoneSpec {
    /// Whether the world point `p` lies inside.
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        let d = p - self.position;
        d.x.hypot(d.y) <= self.radius && d.z.abs() <= self.half_height
    }
}

/// What one goal asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum GoalKind {
    /// Reach a zone (a scene checkpoint or an inline one).
    Zone(ZoneSpec),
    /// Cross the segment between two posts (world x, y, m), optionally with the heading
    /// `(yaw, tolerance)` (rad, world, counter-clockwise from +x).
    Gate {
        /// One post.
        a: Point2<f64>,
        /// The other post.
        b: Point2<f64>,
        /// Required heading and its tolerance, rad.
        heading: Option<(f64, f64)>,
    },
    /// An onboard camera sees the point: within `range` of it and `angle` off its axis (and
    /// inside its field of view), with a clear line of sight.
    Observe {
        /// The target, world, m.
        target: Point3<f64>,
        /// Largest distance from the camera, m.
        range: f64,
        /// Largest angle off the camera's optical axis, rad.
        angle: f64,
        /// The camera that must see it (a hull camera or the gripper's; `None`: any hull
        /// camera).
        camera: Option<String>,
        /// The target's face, to be seen square on (`None`: from any side).
        facing: Option<Facing>,
    },
    /// Something done with one of the scene's movable objects ([`super::dexterity`]).
    Object(ObjectGoal),
    /// One of the scene's valves turned to an opening ([`super::dexterity`]).
    Valve(ValveGoal),
    /// One of the scene's doors opened so far ([`super::dexterity`]).
    Door(DoorGoal),
}

impl GoalKind {
    /// Where an object, valve or door goal is in `scene`, world, m ([`ObjectGoal::point`],
    /// [`ValveGoal::point`], [`DoorGoal::point`]); `None` for other goals.
    pub fn scene_point(&self, scene: &crate::scene::Scene) -> Option<Point3<f64>> {
        match self {
            GoalKind::Object(goal) => Some(goal.point(&scene.objects)),
            GoalKind::Valve(goal) => Some(goal.point(&scene.valves)),
            GoalKind::Door(goal) => Some(goal.point(&scene.doors)),
            _ => None,
        }
    }
}

/// One goal of the route.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalSpec {
    /// Name shown to the trainee.
    pub name: String,
    /// What it asks for.
    pub kind: GoalKind,
    /// Time the goal's condition must hold without a break, s.
    pub dwell: f64,
}

/// A horizontal rectangle the robot's centre must stay out of.
#[derive(Debug, Clone, PartialEq)]
pub struct ForbiddenZone {
    /// Name shown in the report.
    pub name: String,
    /// Smallest world x, y, m.
    pub min: Point2<f64>,
    /// Largest world x, y, m.
    pub max: Point2<f64>,
}

impl ForbiddenZone {
    /// Whether the world point `p` lies inside (x, y only).
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }
}

/// Rules of the exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseRules {
    /// Onboard cameras only (the station locks trainee mode).
    pub trainee: bool,
    /// Largest |roll| or |pitch| before a penalty, rad (`None`: no rule).
    pub max_tilt: Option<f64>,
    /// Largest ground speed before a penalty, m/s (`None`: no rule).
    pub speed_limit: Option<f64>,
    /// How long a drive motor may stall before it is a fault, s.
    pub stall_limit: f64,
    /// Zones the robot's centre must not enter.
    pub forbidden: Vec<ForbiddenZone>,
    /// Largest contact force of the arm or its load on the scene before a penalty, N
    /// (`None`: no rule).
    pub arm_force_limit: Option<f64>,
}

/// Points taken off the score, per occurrence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penalties {
    /// The hull's body touches the scene (a new contact after at least 0.5 s without one).
    pub hull_collision: f64,
    /// Tipped past a static tip-over limit (a fault).
    pub tip_over: f64,
    /// Rolled over onto the top (a fault).
    pub roll_over: f64,
    /// Fell or left the scene's bounds (a fault).
    pub fall: f64,
    /// A motor stalled longer than the stall limit (a fault).
    pub stall: f64,
    /// The trainee or instructor asked for a reset (a fault).
    pub reset: f64,
    /// The time limit ran out.
    pub time_over: f64,
    /// Entered a forbidden zone.
    pub forbidden_zone: f64,
    /// Exceeded the speed limit.
    pub speed: f64,
    /// Exceeded the tilt limit of the rules.
    pub tilt: f64,
    /// The hull touched a moving agent (`[[traffic]]`; a new contact after at least 0.5 s
    /// without one).
    pub traffic_collision: f64,
    /// The gripper lost an object it was closed on (a fault).
    pub dropped: f64,
    /// An arm joint at its torque limit longer than the stall limit (a fault).
    pub joint_overload: f64,
    /// The arm or its load hit the scene above the force limit.
    pub arm_collision: f64,
}

impl Default for Penalties {
    /// Faults cost more than slips: tip-over 15, roll-over 25, fall 25, stall 10, reset 10,
    /// a dropped object 15, an arm joint overload 10; time over 20; hull collision 2,
    /// forbidden zone 10, speeding 5, tilt 5; hitting a moving agent (a person, a vehicle)
    /// 10; the arm hitting the scene 5.
    fn default() -> Self {
        Self {
            hull_collision: 2.0,
            tip_over: 15.0,
            roll_over: 25.0,
            fall: 25.0,
            stall: 10.0,
            reset: 10.0,
            time_over: 20.0,
            forbidden_zone: 10.0,
            speed: 5.0,
            tilt: 5.0,
            traffic_collision: 10.0,
            dropped: 15.0,
            joint_overload: 10.0,
            arm_collision: 5.0,
        }
    }
}

/// An exercise as its file describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseSpec {
    /// The file it came from.
    pub path: PathBuf,
    /// Display name.
    pub name: String,
    /// What it trains.
    pub description: String,
    /// The scene file (resolved against the exercise file's folder).
    pub scene: PathBuf,
    /// The robot file (resolved against the exercise file's folder).
    pub robot: PathBuf,
    /// Where `scene` and `robot` are written: the location of the error when the file
    /// cannot be read.
    pub file_locations: [ConfigError; 2],
    /// The robot file the exercise names, when another robot runs it (`--robot`); `robot`
    /// is then that other robot's file.
    pub exercise_robot: Option<PathBuf>,
    /// Spawn name in the scene (`None`: the first), and where it is written: the location of
    /// the error if the scene has no such spawn.
    pub spawn: Option<(String, ConfigError)>,
    /// The route, in order.
    pub goals: Vec<GoalSpec>,
    /// Repetitions of the route required.
    pub repetitions: u32,
    /// Whether a repetition ends back in the start zone.
    pub round_trip: bool,
    /// Radius of the start zone around the spawn, m.
    pub start_radius: f64,
    /// Exercise clock limit, s.
    pub time_limit: f64,
    /// Score needed to pass, 0–100.
    pub pass_mark: f64,
    /// Rules.
    pub rules: ExerciseRules,
    /// Penalty points.
    pub penalties: Penalties,
    /// When a trainee counts as qualified on this exercise (`[proficiency]`).
    pub proficiency: Proficiency,
    /// Link and sensor conditions (`[link]`; a perfect link by default).
    pub link: LinkConditions,
    /// Moving traffic of the exercise (`[[traffic]]`, see [`crate::scene::traffic`]), on top
    /// of the scene's own.
    pub traffic: Vec<crate::scene::TrafficSpec>,
    /// Movable objects of the exercise (`[[object]]`, see [`crate::scene::ObjectSpec`]), on
    /// top of the scene's own.
    pub objects: Vec<ObjectSpec>,
    /// Goals that name a scene checkpoint: `(goal index, checkpoint name)`, resolved by
    /// [`crate::exercise::Exercise::load`].
    pub checkpoint_refs: Vec<(usize, String)>,
    /// Where each goal's place is written (its `checkpoint`, `position`, `gate` or `observe`):
    /// the location of errors found when the scene is loaded.
    pub goal_locations: Vec<ConfigError>,
}

impl ExerciseSpec {
    /// Reads an exercise file (scene and robot are not loaded here).
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        Self::from_source(&SourceFile::read(path)?)
    }

    /// Parses an exercise from text already read.
    pub fn from_source(file: &SourceFile) -> Result<Self, ConfigError> {
        let root = file.parse()?;
        let head = root
            .opt_table("exercise")?
            .ok_or_else(|| root.error("exercise", "missing required table [exercise]"))?;
        let name = head.str("name")?;
        if name.trim().is_empty() {
            return Err(head.error("name", "must not be empty"));
        }
        let description = head.opt_str("description")?.unwrap_or_default();
        let scene = file.dir().join(head.str("scene")?);
        let robot = file.dir().join(head.str("robot")?);
        let file_locations = [head.error("scene", ""), head.error("robot", "")];
        let spawn = head
            .opt_str("spawn")?
            .map(|name| (name, head.error("spawn", "")));
        let repetitions = head.opt_int("repetitions", 1, 1000)?.unwrap_or(1) as u32;
        let round_trip = head.opt_bool("round_trip")?.unwrap_or(false);
        let start_radius = head.opt_positive("start_radius", 100.0)?.unwrap_or(0.6);
        let time_limit = head.positive("time_limit", 86_400.0)?;
        let pass_mark = head.opt_f64("pass_mark", 0.0, 100.0)?.unwrap_or(50.0);
        head.finish()?;

        let rules = match root.opt_table("rules")? {
            Some(t) => read_rules(&t)?,
            None => ExerciseRules {
                trainee: false,
                max_tilt: None,
                speed_limit: None,
                stall_limit: DEFAULT_STALL_LIMIT,
                forbidden: Vec::new(),
                arm_force_limit: None,
            },
        };
        let penalties = match root.opt_table("penalties")? {
            Some(t) => read_penalties(&t)?,
            None => Penalties::default(),
        };
        let proficiency = match root.opt_table("proficiency")? {
            Some(t) => read_proficiency(&t)?,
            None => Proficiency::default(),
        };
        let link = match root.opt_table("link")? {
            Some(t) => read_link(&t)?,
            None => LinkConditions::default(),
        };
        let traffic = crate::scene::traffic::read_traffic(&root)?;
        // The exercise's own objects name no scene material: their surface is `friction` (the
        // default material's otherwise).
        let objects =
            crate::scene::read_objects(&root, &[crate::terrain::SurfaceMaterial::default()])?;
        let mut goals = Vec::new();
        let mut checkpoint_refs = Vec::new();
        let mut goal_locations = Vec::new();
        for (i, t) in root.tables("goal", MAX_GOALS)?.iter().enumerate() {
            let (goal, reference, location) = read_goal(t, i)?;
            if let Some(name) = reference {
                checkpoint_refs.push((i, name));
            }
            goals.push(goal);
            goal_locations.push(location);
        }
        if goals.is_empty() && !round_trip {
            return Err(root.table_error(
                "the exercise has no [[goal]] tables and no round trip: nothing to do",
            ));
        }
        root.finish()?;
        Ok(Self {
            path: file.path().to_path_buf(),
            name,
            description,
            scene,
            robot,
            file_locations,
            exercise_robot: None,
            spawn,
            goals,
            repetitions,
            round_trip,
            start_radius,
            time_limit,
            pass_mark,
            rules,
            penalties,
            proficiency,
            link,
            traffic,
            objects,
            checkpoint_refs,
            goal_locations,
        })
    }
}

/// When a trainee counts as qualified on an exercise: over their last `window` finished
/// attempts, at least `pass_rate` of them passed and `reps_per_min` repetitions per minute on
/// average (the instructor's proficiency standard; the records apply it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proficiency {
    /// Share of the attempts passed, 0–1.
    pub pass_rate: f64,
    /// Mean repetitions per minute.
    pub reps_per_min: f64,
    /// Attempts looked at (the latest), 1–100.
    pub window: u32,
}

impl Default for Proficiency {
    /// 4 passes in the last 5 attempts, at any pace.
    fn default() -> Self {
        Self {
            pass_rate: 0.8,
            reps_per_min: 0.0,
            window: 5,
        }
    }
}

fn read_proficiency(t: &TableReader<'_>) -> Result<Proficiency, ConfigError> {
    let d = Proficiency::default();
    let p = Proficiency {
        pass_rate: t.opt_f64("pass_rate", 0.0, 1.0)?.unwrap_or(d.pass_rate),
        reps_per_min: t
            .opt_f64("reps_per_min", 0.0, 1000.0)?
            .unwrap_or(d.reps_per_min),
        window: t.opt_int("window", 1, 100)?.map_or(d.window, |w| w as u32),
    };
    t.finish()?;
    Ok(p)
}

/// Stall time before a fault when the file does not say, s.
pub const DEFAULT_STALL_LIMIT: f64 = 10.0;

fn read_rules(t: &TableReader<'_>) -> Result<ExerciseRules, ConfigError> {
    let trainee = t.opt_bool("trainee")?.unwrap_or(false);
    let max_tilt = t
        .opt_positive("max_tilt_deg", 180.0)?
        .map(|d| d.to_radians());
    let speed_limit = t.opt_positive("speed_limit", 100.0)?;
    let arm_force_limit = t.opt_positive("arm_force_limit", 1e6)?;
    let stall_limit = t
        .opt_positive("stall_limit", 3600.0)?
        .unwrap_or(DEFAULT_STALL_LIMIT);
    let mut forbidden = Vec::new();
    for (i, z) in t.tables("forbidden", MAX_FORBIDDEN)?.iter().enumerate() {
        let name = z
            .opt_str("name")?
            .unwrap_or_else(|| format!("zone {}", i + 1));
        let [x0, y0] = z.array::<2>("min", -MAX_COORD, MAX_COORD)?;
        let [x1, y1] = z.array::<2>("max", -MAX_COORD, MAX_COORD)?;
        if x1 <= x0 || y1 <= y0 {
            return Err(z.error(
                "max",
                format!("must be greater than min in x and y: min [{x0}, {y0}], max [{x1}, {y1}]"),
            ));
        }
        z.finish()?;
        forbidden.push(ForbiddenZone {
            name,
            min: Point2::new(x0, y0),
            max: Point2::new(x1, y1),
        });
    }
    t.finish()?;
    Ok(ExerciseRules {
        trainee,
        max_tilt,
        speed_limit,
        stall_limit,
        forbidden,
        arm_force_limit,
    })
}

fn read_penalties(t: &TableReader<'_>) -> Result<Penalties, ConfigError> {
    let d = Penalties::default();
    let points = |key: &str, default: f64| -> Result<f64, ConfigError> {
        Ok(t.opt_f64(key, 0.0, 100.0)?.unwrap_or(default))
    };
    let p = Penalties {
        hull_collision: points("hull_collision", d.hull_collision)?,
        tip_over: points("tip_over", d.tip_over)?,
        roll_over: points("roll_over", d.roll_over)?,
        fall: points("fall", d.fall)?,
        stall: points("stall", d.stall)?,
        reset: points("reset", d.reset)?,
        time_over: points("time_over", d.time_over)?,
        forbidden_zone: points("forbidden_zone", d.forbidden_zone)?,
        speed: points("speed", d.speed)?,
        tilt: points("tilt", d.tilt)?,
        traffic_collision: points("traffic_collision", d.traffic_collision)?,
        dropped: points("dropped", d.dropped)?,
        joint_overload: points("joint_overload", d.joint_overload)?,
        arm_collision: points("arm_collision", d.arm_collision)?,
    };
    t.finish()?;
    Ok(p)
}

/// Largest number of dropouts or camera faults.
pub const MAX_LINK_EVENTS: usize = 1000;

fn read_link(t: &TableReader<'_>) -> Result<LinkConditions, ConfigError> {
    let ms = |key: &str| -> Result<f64, ConfigError> {
        Ok(t.opt_f64(key, 0.0, 60_000.0)?.unwrap_or(0.0) / 1000.0)
    };
    let command_latency = ms("command_latency_ms")?;
    let video_latency = ms("video_latency_ms")?;
    let video_fps = t.opt_positive("video_fps", 1000.0)?;
    let video_height = t.opt_int("video_height", 16, 16_384)?.map(|h| h as u32);
    let ambient_light = t.opt_f64("ambient_light", 0.0, 1.0)?;
    let mut dropouts = Vec::new();
    for d in t.tables("dropout", MAX_LINK_EVENTS)? {
        dropouts.push(Dropout {
            start: d.f64("at", 0.0, 1e7)?,
            duration: d.positive("duration", 1e7)?,
        });
        d.finish()?;
    }
    let mut camera_faults = Vec::new();
    for f in t.tables("camera_fault", MAX_LINK_EVENTS)? {
        let camera = f.str("camera")?;
        let start = f.opt_f64("at", 0.0, 1e7)?.unwrap_or(0.0);
        let level = f.opt_f64("level", 0.0, 1.0)?;
        let kind = match f.str("kind")?.as_str() {
            "dead" => CameraFaultKind::Dead,
            "noise" => CameraFaultKind::Noise(level.unwrap_or(0.3)),
            "dirty" => CameraFaultKind::Dirty(level.unwrap_or(0.5)),
            other => {
                return Err(f.error(
                    "kind",
                    format!("unknown camera fault '{other}' (dead, noise, dirty)"),
                ))
            }
        };
        f.finish()?;
        camera_faults.push(CameraFault {
            camera,
            kind,
            start,
        });
    }
    t.finish()?;
    Ok(LinkConditions {
        command_latency,
        video_latency,
        video_fps,
        video_height,
        dropouts,
        camera_faults,
        ambient_light,
    })
}

/// A goal, the scene checkpoint it names, and where its place is written.
type GoalAndReference = (GoalSpec, Option<String>, ConfigError);

fn read_goal(t: &TableReader<'_>, index: usize) -> Result<GoalAndReference, ConfigError> {
    let dwell = t.opt_f64("dwell", 0.0, 3600.0)?.unwrap_or(0.0);
    let kinds = [
        "checkpoint",
        "position",
        "gate",
        "observe",
        "hold",
        "place",
        "clear",
        "valve",
        "door",
    ];
    let with_zone = t.has("place") || t.has("clear");
    // A place or clear goal's zone is written with `position`.
    let given: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| t.has(k) && !(with_zone && *k == "position"))
        .collect();
    if given.len() != 1 {
        let message = if given.is_empty() {
            "a goal needs one of checkpoint, position (a zone), gate, observe, hold, place, \
             clear, valve or door"
                .to_string()
        } else {
            format!("give only one of {}", given.join(", "))
        };
        let key = given.get(1).copied().unwrap_or("");
        return Err(if key.is_empty() {
            t.table_error(message)
        } else {
            t.error(key, message)
        });
    }
    let mut reference = None;
    let (default_name, kind) = match given[0] {
        "checkpoint" => {
            let name = t.str("checkpoint")?;
            reference = Some(name.clone());
            // The zone is filled in from the scene when the exercise is loaded.
            let zone = ZoneSpec {
                position: Point3::origin(),
                radius: 1.0,
                half_height: 1.0,
            };
            (name, GoalKind::Zone(zone))
        }
        "position" => {
            let p = t.array::<3>("position", -MAX_COORD, MAX_COORD)?;
            let zone = ZoneSpec {
                position: Point3::from(p),
                radius: t.positive("radius", 1000.0)?,
                half_height: t.opt_positive("half_height", 1000.0)?.unwrap_or(1.0),
            };
            (format!("zone {}", index + 1), GoalKind::Zone(zone))
        }
        "gate" => {
            let [a, b] = read_gate(t)?;
            let heading = match t.opt_f64("heading_deg", -360.0, 360.0)? {
                Some(h) => {
                    let tol = t.opt_positive("tolerance_deg", 180.0)?.unwrap_or(30.0);
                    Some((h.to_radians(), tol.to_radians()))
                }
                None => None,
            };
            (
                format!("gate {}", index + 1),
                GoalKind::Gate { a, b, heading },
            )
        }
        kind @ ("hold" | "place" | "clear" | "valve" | "door") => read_dexterity_goal(t, kind)?,
        _ => {
            let target = Point3::from(t.array::<3>("observe", -MAX_COORD, MAX_COORD)?);
            let (camera, facing) = read_observe_view(t)?;
            let range = t.positive("range", 1000.0)?;
            let angle = t
                .opt_positive("angle_deg", 90.0)?
                .unwrap_or(30.0)
                .to_radians();
            (
                format!("target {}", index + 1),
                GoalKind::Observe {
                    target,
                    range,
                    angle,
                    camera,
                    facing,
                },
            )
        }
    };
    let location = t.error(given[0], "");
    let name = t.opt_str("name")?.unwrap_or(default_name);
    t.finish()?;
    Ok((GoalSpec { name, kind, dwell }, reference, location))
}

/// A goal about the scene's objects, valves or doors, by its `kind` key: its default name and
/// the goal.
fn read_dexterity_goal(t: &TableReader<'_>, kind: &str) -> Result<(String, GoalKind), ConfigError> {
    Ok(match kind {
        "valve" => {
            let (name, goal) = read_valve_goal(t)?;
            (name, GoalKind::Valve(goal))
        }
        "door" => {
            let (name, goal) = read_door_goal(t)?;
            (name, GoalKind::Door(goal))
        }
        _ => {
            let (name, goal) = read_object_goal(t, kind)?;
            (name, GoalKind::Object(goal))
        }
    })
}

/// The two posts of a gate: `gate = [x0, y0, x1, y1]`.
fn read_gate(t: &TableReader<'_>) -> Result<[Point2<f64>; 2], ConfigError> {
    let [x0, y0, x1, y1] = t.array::<4>("gate", -MAX_COORD, MAX_COORD)?;
    let (a, b) = (Point2::new(x0, y0), Point2::new(x1, y1));
    if (b - a).norm() < 0.1 {
        return Err(t.error("gate", "the two posts must be at least 0.1 m apart"));
    }
    Ok([a, b])
}
