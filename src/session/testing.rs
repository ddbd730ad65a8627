//! Sessions that unit tests across the crate build alike: the scout on a 20 m floor, driving
//! freely or in a trial of an exercise whose one goal lies 5 m ahead.

use std::path::Path;

use super::Session;
use crate::config::SourceFile;
use crate::exercise::{Exercise, ExerciseSpec};
use crate::scene::Scene;
use crate::sim::SimConfig;
use crate::vehicle::RobotSpec;

/// A 20 m × 20 m floor with one spawn at the origin.
const FLOOR: &str = "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.2]\nposition = [0, 0, -0.2]\n\
    [[spawn]]\nname = \"start\"\nposition = [0, 0, 0]\n";

/// The scout preset.
pub(crate) fn scout() -> RobotSpec {
    crate::vehicle::robot_file::test_preset("scout")
}

/// The floor scene.
pub(crate) fn floor() -> Scene {
    Scene::from_source(&SourceFile::from_text(
        Path::new("floor.toml"),
        FLOOR.into(),
    ))
    .expect("scene")
}

/// The scout driving freely on the floor.
pub(crate) fn free() -> Session {
    let scene = floor();
    let spawn = scene.spawns[0].clone();
    Session::free(scene, scout(), spawn, SimConfig::default()).expect("session")
}

/// The scout in a trial on the floor: 30 s to reach a goal 5 m ahead; `extra` adds lines to
/// the exercise's `[exercise]` table (rules, link conditions).
pub(crate) fn trial(extra: &str) -> Session {
    let text = format!(
        "[exercise]\nname = \"t\"\nscene = \"floor.toml\"\nrobot = \"scout.toml\"\ntime_limit = 30\n{extra}\
         [[goal]]\nname = \"far\"\nposition = [5.0, 0, 0.1]\nradius = 0.5\n"
    );
    let spec = ExerciseSpec::from_source(&SourceFile::from_text(Path::new("t.toml"), text))
        .expect("exercise");
    let exercise = Exercise::resolve(spec, floor(), scout()).expect("resolve");
    Session::exercise(&exercise, SimConfig::default()).expect("session")
}
