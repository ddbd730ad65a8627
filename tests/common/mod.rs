//! Helpers shared by the scenario tests: presets and library scenes by name, scenes from
//! text, a simulation with one robot, tilted planes.
#![allow(dead_code)] // each test binary uses its own subset

#[cfg(feature = "classroom")]
pub mod class;
pub mod python;
#[cfg(all(feature = "classroom", any(feature = "ros2", feature = "foxglove")))]
pub mod ros2;

use std::path::Path;

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use treadsim::config::{ConfigError, SourceFile};
use treadsim::scene::Scene;
use treadsim::sim::{RobotId, SimConfig, Simulation};
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::{BodyState, DriveCommand, RobotSpec};

/// Standard gravity, m/s².
pub const G: f64 = 9.81;
/// Every tracked preset in `scenes/robots/` (tests/robot_files.rs checks that this,
/// [`ARMED`], [`WHEELED`] and [`MEASURED`] list them all).
pub const PRESETS: [&str; 4] = ["scout", "selfright20", "tracker55", "heavy250"];
/// Every preset in `scenes/robots/` that carries an arm (tracked; its driving is its base
/// preset's, so the driving tests run on that).
pub const ARMED: [&str; 3] = ["scout_eod", "tracker55_eod", "heavy250_eod"];
/// Every wheeled preset in `scenes/robots/`.
pub const WHEELED: [&str; 2] = ["rover30", "wheeler300"];
/// The robot files in `scenes/robots/` that stand in for measured robots in the turning
/// cases (tracked; issue 40): not trainees' presets, so the scenario tests leave them out.
pub const MEASURED: [&str; 1] = ["flipper11"];
/// A preset robot from `scenes/robots/NAME.toml`.
pub fn robot(name: &str) -> RobotSpec {
    load_robot(Path::new(&format!("scenes/robots/{name}.toml"))).expect("preset loads")
}

/// A library scene from `scenes/NAME.toml`.
pub fn scene_file(name: &str) -> Scene {
    Scene::load(Path::new(&format!("scenes/{name}.toml"))).expect("scene loads")
}

/// The element named `name` of `scene` (panics naming the scene file if there is none).
pub fn scene_element<'a>(scene: &'a Scene, name: &str) -> &'a treadsim::scene::ElementInfo {
    scene
        .elements
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("{}: no element '{name}'", scene.path.display()))
}

/// A scene from TOML text (reported as `test.toml`).
pub fn scene_text(text: &str) -> Scene {
    Scene::from_source(&SourceFile::from_text(Path::new("test.toml"), text.into())).expect("scene")
}

/// A sim with one robot at the scene's spawn `spawn` (or the first).
pub fn sim_with(scene: Scene, spec: RobotSpec, spawn: Option<&str>) -> (Simulation, RobotId) {
    let sp = spawn.map_or_else(
        || scene.spawns[0].clone(),
        |n| scene.spawn(n).expect("spawn").clone(),
    );
    let mut sim = Simulation::new(scene, SimConfig::default()).expect("sim");
    let id = sim.add_robot(spec, &sp).expect("robot");
    (sim, id)
}

/// Drives the scout on library scene `scene` under `config` as an operator climbs a flight:
/// creeping at `speed` m/s with the flippers raised to 35° until they have lifted the nose
/// 12°, then lowered to `flipper_on_flight` deg for the flight; `observe` sees the simulation
/// after every step. Returns the time the `top` checkpoint was reached, if within `limit` s.
pub fn operator_climb(
    scene: &str,
    config: SimConfig,
    speed: f64,
    flipper_on_flight: f64,
    limit: f64,
    mut observe: impl FnMut(&Simulation, RobotId),
) -> (Option<f64>, Simulation, RobotId) {
    let scene = scene_file(scene);
    let top = scene.checkpoint("top").expect("top checkpoint").clone();
    let spawn = scene.spawns[0].clone();
    let mut sim = Simulation::new(scene, config).expect("sim");
    let id = sim.add_robot(robot("scout"), &spawn).expect("robot");
    let mut on_flight = false;
    while sim.time() < limit {
        let t = sim.telemetry(id);
        on_flight |= -t.rpy[1] > 12f64.to_radians();
        let flipper = if on_flight { flipper_on_flight } else { 35.0 };
        sim.set_command(
            id,
            DriveCommand {
                left: speed,
                right: speed,
                flipper: Some(flipper.to_radians()),
                steer: None,
            },
        );
        sim.step();
        observe(&sim, id);
        if top.contains(&sim.body_state(id).com) {
            return (Some(sim.time()), sim, id);
        }
    }
    (None, sim, id)
}

/// A large plane tilted by `roll` and `pitch` (deg) through the origin, friction `mu`.
pub fn tilted_plane(roll: f64, pitch: f64, mu: f64) -> (Scene, UnitQuaternion<f64>) {
    let r = UnitQuaternion::from_euler_angles(roll.to_radians(), pitch.to_radians(), 0.0);
    // The box's local origin is its bottom centre: put its top face through the world origin.
    let h = 0.5;
    let p = -(r * Vector3::new(0.0, 0.0, h));
    let text = format!(
        "[[material]]\nname = \"pad\"\nfriction = {mu}\n\
         [[element]]\ntype = \"box\"\nsize = [30, 30, {h}]\nposition = [{}, {}, {}]\nrotation_deg = [{roll}, {pitch}, 0]\n\
         [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n",
        p.x, p.y, p.z
    );
    (scene_text(&text), r)
}

/// Puts the robot on the tilted plane at the origin, its body aligned with the plane.
pub fn place_on_plane(sim: &mut Simulation, id: RobotId, r: UnitQuaternion<f64>) {
    let lift = r * Vector3::new(0.0, 0.0, 0.002);
    sim.teleport(id, &Isometry3::from_parts(Translation3::from(lift), r));
}

/// Sum of the normal forces on all of a robot's tracks in the last step, N.
pub fn total_normal(sim: &Simulation, id: RobotId) -> f64 {
    sim.robot(id).support_force()
}

/// Puts the robot on the tilted plane `r` at the origin, its body aligned with the plane and
/// turned by `yaw` (deg) about the plane's normal (on a plane pitched by `tilted_plane(0, p, ..)`
/// with p > 0, yaw 0 faces downhill, 180 uphill, 90 across the slope).
pub fn place_on_plane_turned(sim: &mut Simulation, id: RobotId, r: UnitQuaternion<f64>, yaw: f64) {
    let lift = r * Vector3::new(0.0, 0.0, 0.002);
    let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw.to_radians());
    sim.teleport(
        id,
        &Isometry3::from_parts(Translation3::from(lift), r * turn),
    );
}

/// Parks preset `name` (zero command) on a plane of friction `mu` pitched by `slope` deg, turned
/// `yaw` deg from facing downhill; lets it settle 1 s, then runs `secs` s. Returns how far the
/// body origin moved in those `secs` s (m) and whether the run had no events.
pub fn parked_drift(name: &str, slope: f64, yaw: f64, mu: f64, secs: f64) -> (f64, bool) {
    let (scene, r) = tilted_plane(0.0, slope, mu);
    let (mut sim, id) = sim_with(scene, robot(name), None);
    place_on_plane_turned(&mut sim, id, r, yaw);
    sim.run_for(1.0);
    let p0 = sim.body_state(id).pose.translation.vector;
    sim.run_for(secs);
    let d = (sim.body_state(id).pose.translation.vector - p0).norm();
    (d, sim.events().is_empty())
}

/// Spawn number `i` of the simulation's scene.
pub fn scene_spawn(sim: &Simulation, i: usize) -> treadsim::scene::Spawn {
    sim.scene().spawns[i].clone()
}

/// Checks that an input-file error names `file`, the 1-based `line` and the `field`, says
/// `what`, and prints as `file:line:column: field: message`.
pub fn assert_located_error(e: &ConfigError, file: &Path, line: usize, field: &str, what: &str) {
    let shown = e.to_string();
    assert_eq!(e.path, file, "{shown}");
    assert_eq!(e.line, line, "{shown}");
    assert_eq!(e.field, field, "{shown}");
    assert!(e.message.contains(what), "expected '{what}' in: {shown}");
    assert!(
        shown.starts_with(&format!("{}:{line}:", file.display())),
        "{shown}"
    );
}

/// Runs a trial of `exercise` headless (as `treadsim run --exercise` does), calling
/// `each_step` with the simulation and the robot after every step.
pub fn run_trial(
    exercise: &treadsim::exercise::Exercise,
    script: Option<treadsim::session::DriveScript>,
    config: treadsim::sim::SimConfig,
    mut each_step: impl FnMut(&treadsim::sim::Simulation, treadsim::sim::RobotId),
) -> Result<treadsim::session::headless::HeadlessRun, treadsim::sim::SimError> {
    let session = treadsim::session::Session::exercise(exercise, config)?;
    Ok(treadsim::session::headless::run_trial(
        session,
        script,
        |s| each_step(s.sim(), s.robot()),
    ))
}

/// `treadsim validate` on two threads with the library's presets: the fast form or the full
/// one, at step `dt` s, contacts implicit or not.
pub fn validation(fast: bool, dt: f64, implicit: bool) -> treadsim::tools::validate::Report {
    validation_with(
        fast,
        SimConfig {
            dt,
            implicit_contacts: implicit,
            ..SimConfig::default()
        },
    )
}

/// `treadsim validate` on two threads with the library's presets under `config`: the fast
/// form or the full one.
pub fn validation_with(fast: bool, config: SimConfig) -> treadsim::tools::validate::Report {
    let options = treadsim::tools::validate::ValidateOptions {
        config,
        fast,
        threads: 2,
        robots: "scenes/robots".into(),
    };
    treadsim::tools::validate::validate(&options).expect("validation runs")
}

/// The pose `body` moved by `step` along twist component `k` (0–2 translation, m; 3–5
/// rotation about the centre of mass, rad), at rest.
pub fn moved(body: &BodyState, k: usize, step: f64) -> BodyState {
    let mut axis = Vector3::zeros();
    axis[k % 3] = 1.0;
    let motion = if k < 3 {
        Isometry3::from_parts(Translation3::from(axis * step), UnitQuaternion::identity())
    } else {
        let c = body.com.coords;
        Isometry3::translation(c.x, c.y, c.z)
            * Isometry3::from_parts(
                Translation3::identity(),
                UnitQuaternion::from_scaled_axis(axis * step),
            )
            * Isometry3::translation(-c.x, -c.y, -c.z)
    };
    BodyState {
        pose: motion * body.pose,
        com: motion * body.com,
        linvel: Vector3::zeros(),
        angvel: Vector3::zeros(),
    }
}

/// Preset `name` settled for 1 s on the envelope's flat pad (μ 0.8) at the default settings:
/// the simulation, the robot and its description.
pub fn settled_on_pad(name: &str) -> (Simulation, RobotId, RobotSpec) {
    let spec = robot(name);
    let pad = treadsim::envelope::lanes::flat_pad(0.8).expect("pad");
    let (mut sim, id) =
        treadsim::envelope::trials::start(pad, &spec, &SimConfig::default()).expect("sim");
    sim.run_for(1.0);
    (sim, id, spec)
}
