//! Training exercises: what the trainee must do on which scene with which robot, the rules,
//! and the scoring of a trial (headless; the station and `treadsim run --exercise` use it).
//!
//! - [`spec`]: the exercise file format (goals, repetitions, time limit, rules, penalties).
//! - [`trial`]: one trial scored as the ASTM E54.09 standard test methods score theirs:
//!   repetitions of a route, faults that void a repetition, repetitions per minute, penalties,
//!   score and pass/fail with the reason.
//! - [`outcome`]: faults, events and the result a trial records.
//! - [`report`]: the result as a table and as JSON.

pub mod dexterity;
mod goals;
pub mod outcome;
pub mod report;
pub mod spec;
pub mod trial;

use std::path::Path;

use nalgebra::Point3;

use crate::config::ConfigError;
use crate::scene::{Scene, Spawn};
use crate::vehicle::robot_file::load_robot;
use crate::vehicle::RobotSpec;

pub use spec::ExerciseSpec;
pub use trial::{ExerciseEvent, FaultKind, Trial, TrialResult};

/// What `treadsim check` prints for an exercise.
pub fn summary(exercise: &Exercise) -> String {
    let spec = &exercise.spec;
    let mut out = format!(
        "{}: exercise '{}'\n  scene {} ({}), robot {}, spawn '{}'\n",
        spec.path.display(),
        spec.name,
        spec.scene.display(),
        exercise.scene.name,
        exercise.robot.name,
        exercise.spawn.name
    );
    out += &format!(
        "  {} repetition(s){}, time limit {:.0} s, pass mark {:.0}\n",
        spec.repetitions,
        if spec.round_trip { " (round trip)" } else { "" },
        spec.time_limit,
        spec.pass_mark
    );
    for (i, goal) in spec.goals.iter().enumerate() {
        let what = match &goal.kind {
            spec::GoalKind::Zone(z) => format!(
                "zone at ({:.2}, {:.2}, {:.2}) r {:.2} m",
                z.position.x, z.position.y, z.position.z, z.radius
            ),
            spec::GoalKind::Gate { a, b, heading } => format!(
                "gate ({:.2}, {:.2})–({:.2}, {:.2}){}",
                a.x,
                a.y,
                b.x,
                b.y,
                heading.map_or(String::new(), |(h, _)| format!(
                    " heading {:.0}°",
                    h.to_degrees()
                ))
            ),
            spec::GoalKind::Observe {
                target,
                range,
                camera,
                ..
            } => format!(
                "observe ({:.2}, {:.2}, {:.2}) within {:.1} m{}",
                target.x,
                target.y,
                target.z,
                range,
                camera
                    .as_ref()
                    .map_or(String::new(), |c| format!(" with the {c} camera"))
            ),
            spec::GoalKind::Object(goal) => goal.describe(),
            spec::GoalKind::Valve(goal) => goal.describe(),
            spec::GoalKind::Door(goal) => goal.describe(),
        };
        out += &format!("  goal {}: {} — {what}\n", i + 1, goal.name);
    }
    let r = &spec.rules;
    out += &format!(
        "  rules: trainee {}, max tilt {}, speed limit {}, stall limit {:.0} s, {} forbidden zone(s)\n",
        r.trainee,
        r.max_tilt.map_or("none".into(), |t| format!("{:.0}°", t.to_degrees())),
        r.speed_limit.map_or("none".into(), |v| format!("{v} m/s")),
        r.stall_limit,
        r.forbidden.len()
    );
    out += &format!(
        "  link: {}\n",
        spec.link.summary().unwrap_or_else(|| "perfect".into())
    );
    out
}

/// The error `message` at the place `location` points to (a field of the exercise file).
fn located(location: &ConfigError, message: String) -> ConfigError {
    ConfigError {
        message,
        ..location.clone()
    }
}

/// A scene or robot file that cannot be read at all is reported at the exercise's line that
/// names it (`robot = "…"`); an error inside a file that was read stays that file's.
fn named_here(e: ConfigError, location: &ConfigError, role: &str) -> ConfigError {
    if e.line != 0 {
        return e;
    }
    located(
        location,
        format!("the {role} file {}: {}", e.path.display(), e.message),
    )
}

/// An exercise with its scene and robot loaded and its goals resolved.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// The exercise file's content.
    pub spec: ExerciseSpec,
    /// The scene.
    pub scene: Scene,
    /// The robot.
    pub robot: RobotSpec,
    /// Where the robot starts (and goes back to after a fault).
    pub spawn: Spawn,
}

impl Exercise {
    /// Reads an exercise file and the scene and robot files it names. Errors name the file,
    /// line and field: the exercise's own, or the scene's or robot's.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        Self::load_with_robot(path, None)
    }

    /// [`Exercise::load`] with another robot than the exercise names (`--robot`); the same
    /// robot file as the exercise's is no substitute.
    pub fn load_with_robot(path: &Path, robot: Option<&Path>) -> Result<Self, ConfigError> {
        let mut spec = ExerciseSpec::load(path)?;
        if let Some(robot) = robot.filter(|r| *r != spec.robot) {
            spec.exercise_robot = Some(std::mem::replace(&mut spec.robot, robot.to_path_buf()));
        }
        let [scene_at, robot_at] = &spec.file_locations;
        let scene = Scene::load(&spec.scene).map_err(|e| named_here(e, scene_at, "scene"))?;
        // Another robot (`--robot`) is not the exercise's line: its own error stands.
        let substituted = spec.exercise_robot.is_some();
        let robot = load_robot(&spec.robot).map_err(|e| {
            if substituted {
                e
            } else {
                named_here(e, robot_at, "robot")
            }
        })?;
        Self::resolve(spec, scene, robot)
    }

    /// An exercise from its file's content and the scene and robot it names, already read
    /// (a log's report reads them from the log): resolves the spawn and the checkpoint goals
    /// and checks that every goal lies within the scene's bounds.
    pub fn resolve(
        mut spec: ExerciseSpec,
        mut scene: Scene,
        robot: RobotSpec,
    ) -> Result<Self, ConfigError> {
        // The exercise's traffic joins the scene's (names must stay unique).
        for (i, group) in spec.traffic.iter().enumerate() {
            if scene.traffic.iter().any(|g| g.name == group.name) {
                return Err(ConfigError {
                    path: spec.path.clone(),
                    line: 1,
                    column: 1,
                    field: format!("traffic[{i}].name"),
                    message: format!("traffic '{}' is also defined by the scene", group.name),
                });
            }
            scene.traffic.push(group.clone());
        }
        resolve_objects(&mut spec, &mut scene)?;
        let spawn = match &spec.spawn {
            Some((name, location)) => scene.spawn(name).cloned().ok_or_else(|| {
                let names: Vec<&str> = scene.spawns.iter().map(|s| s.name.as_str()).collect();
                located(
                    location,
                    format!(
                        "the scene {} has no spawn '{name}' (it has: {})",
                        spec.scene.display(),
                        names.join(", ")
                    ),
                )
            })?,
            None => scene.spawns[0].clone(),
        };
        for (goal, name) in &spec.checkpoint_refs {
            let Some(checkpoint) = scene.checkpoint(name) else {
                let names: Vec<&str> = scene.checkpoints.iter().map(|c| c.name.as_str()).collect();
                return Err(located(
                    &spec.goal_locations[*goal],
                    format!(
                        "the scene {} has no checkpoint '{name}' (it has: {})",
                        spec.scene.display(),
                        if names.is_empty() {
                            "none".into()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            };
            spec.goals[*goal].kind = spec::GoalKind::Zone(spec::ZoneSpec {
                position: checkpoint.position,
                radius: checkpoint.radius,
                half_height: checkpoint.half_height,
            });
        }
        // Every goal must lie within the scene's bounds, where the robot may drive.
        for (i, goal) in spec.goals.iter().enumerate() {
            let points: Vec<Point3<f64>> = match &goal.kind {
                spec::GoalKind::Zone(z) => vec![z.position],
                spec::GoalKind::Gate { a, b, .. } => {
                    vec![Point3::new(a.x, a.y, 0.0), Point3::new(b.x, b.y, 0.0)]
                }
                spec::GoalKind::Observe { target, .. } => vec![*target],
                spec::GoalKind::Object(goal) => match &goal.task {
                    dexterity::ObjectTask::Place(z) | dexterity::ObjectTask::Clear(z) => {
                        vec![z.position]
                    }
                    dexterity::ObjectTask::Hold => Vec::new(),
                },
                spec::GoalKind::Valve(_) | spec::GoalKind::Door(_) => Vec::new(),
            };
            if let Some(p) = points.iter().find(|p| !scene.bounds.contains_xy(p)) {
                let b = &scene.bounds;
                return Err(located(
                    &spec.goal_locations[i],
                    format!(
                        "({:.2}, {:.2}) lies outside the scene's bounds x {:.2}..{:.2}, y {:.2}..{:.2}",
                        p.x, p.y, b.min[0], b.max[0], b.min[1], b.max[1]
                    ),
                ));
            }
        }
        Ok(Self {
            spec,
            scene,
            robot,
            spawn,
        })
    }
}

/// The exercise's objects join the scene's (names must stay unique), and each object goal
/// finds its object and each valve goal its valve.
fn resolve_objects(spec: &mut ExerciseSpec, scene: &mut Scene) -> Result<(), ConfigError> {
    for (i, object) in spec.objects.iter().enumerate() {
        if scene.objects.iter().any(|o| o.name == object.name) {
            return Err(ConfigError {
                path: spec.path.clone(),
                line: 1,
                column: 1,
                field: format!("object[{i}].name"),
                message: format!("object '{}' is also defined by the scene", object.name),
            });
        }
        scene.objects.push(object.clone());
    }
    for (goal, location) in spec.goals.iter_mut().zip(&spec.goal_locations) {
        let scene_path = spec.scene.display();
        match &mut goal.kind {
            spec::GoalKind::Door(door) => {
                let index = find_named(scene.doors.iter().map(|d| &d.name), &door.door).map_err(
                    |names| {
                        let message = format!(
                            "the scene {scene_path} has no door '{}' (it has: {names})",
                            door.door
                        );
                        located(location, message)
                    },
                )?;
                let swing = scene.doors[index].swing.abs();
                if door.open > swing {
                    let message = format!(
                        "open_deg {:.0} is beyond door '{}''s swing of {:.0}°",
                        door.open.to_degrees(),
                        door.door,
                        swing.to_degrees()
                    );
                    return Err(located(location, message));
                }
                door.index = index;
            }
            spec::GoalKind::Valve(valve) => {
                let index = find_named(scene.valves.iter().map(|v| &v.name), &valve.valve)
                    .map_err(|names| {
                        let message = format!(
                            "the scene {scene_path} has no valve '{}' (it has: {names})",
                            valve.valve
                        );
                        located(location, message)
                    })?;
                let travel = scene.valves[index].travel;
                if valve.open > travel {
                    let message = format!(
                        "open {} is beyond valve '{}''s travel of {travel} turns",
                        valve.open, valve.valve
                    );
                    return Err(located(location, message));
                }
                valve.index = index;
            }
            spec::GoalKind::Object(object) => {
                let index = find_named(scene.objects.iter().map(|o| &o.name), &object.object)
                    .map_err(|names| {
                        let message = format!(
                            "neither the scene {scene_path} nor the exercise has an object \
                             '{}' (they have: {names})",
                            object.object
                        );
                        located(location, message)
                    })?;
                object.index = index;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The index of `wanted` among `names`; if it is not there, every name joined with commas
/// (or `none`), for the error.
fn find_named<'a>(
    names: impl Iterator<Item = &'a String> + Clone,
    wanted: &str,
) -> Result<usize, String> {
    names.clone().position(|n| n == wanted).ok_or_else(|| {
        let names: Vec<&str> = names.map(String::as_str).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    })
}
