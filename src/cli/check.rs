//! `treadsim check` (scene, exercise and robot files validated and summarised) and `treadsim
//! envelope` (a robot's spec sheet).

use std::path::{Path, PathBuf};
use std::time::Instant;

use treadsim::config::SourceFile;
use treadsim::exercise::Exercise;
use treadsim::record::progress::Progress;
use treadsim::scene::Scene;
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::spec::HullShape;
use treadsim::vehicle::RobotSpec;

/// Arguments of `treadsim envelope`.
#[derive(clap::Args)]
pub struct EnvelopeArgs {
    /// Robot file.
    #[arg(long, default_value = "scenes/robots/scout.toml")]
    robot: PathBuf,
    /// Print one JSON object (every trial with its outcome) instead of the sheet.
    #[arg(long)]
    json: bool,
    /// Threads to run trials on (0: one per core); the sheet is the same for any count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// What kind of input file a path holds, by its top-level table.
enum FileKind {
    Exercise,
    Robot,
    Scene,
}

/// The kind of the file at `path`: an `[exercise]` or a `[robot]` table says so; anything else
/// is checked as a scene.
fn file_kind(path: &Path) -> anyhow::Result<FileKind> {
    let file = SourceFile::read(path)?;
    let root = file.parse()?;
    Ok(if root.has("exercise") {
        FileKind::Exercise
    } else if root.has("robot") {
        FileKind::Robot
    } else {
        FileKind::Scene
    })
}

/// Runs `treadsim check` on scene, exercise and robot files, each checked as what it is:
/// stops at the first invalid one.
pub fn check(paths: &[PathBuf]) -> anyhow::Result<()> {
    for path in paths {
        let start = Instant::now();
        match file_kind(path)? {
            FileKind::Exercise => {
                let exercise = Exercise::load(path)?;
                print!("{}", treadsim::exercise::summary(&exercise));
            }
            FileKind::Robot => print!("{}", robot_summary(path, &load_robot(path)?)),
            FileKind::Scene => {
                let scene = Scene::load(path)?;
                let load_ms = start.elapsed().as_secs_f64() * 1e3;
                print!("{}", treadsim::scene::summary(&scene, load_ms));
            }
        }
    }
    Ok(())
}

/// What `treadsim check` prints of a robot file: its mass and hull, what it runs on, its
/// footprint and gauge, its cameras, and its arm if it has one.
fn robot_summary(path: &Path, spec: &RobotSpec) -> String {
    let HullShape::Box { size, .. } = spec.hull;
    let running = if spec.wheels.is_empty() {
        format!(
            "{} track(s), {} flipper(s)",
            spec.tracks.len(),
            spec.flippers.len()
        )
    } else {
        format!(
            "{} wheel(s), {:?} steering",
            spec.wheels.len(),
            spec.steering
        )
    };
    let cameras: Vec<&str> = spec.cameras.iter().map(|c| c.name.as_str()).collect();
    let arm = spec.arm.as_ref().map_or(String::new(), |arm| {
        let joints: Vec<&str> = arm.joints.iter().map(|j| j.name.as_str()).collect();
        let g = &arm.gripper;
        format!(
            "  arm: {} joint(s) ({}), {:.2} kg; gripper {:.2} m opening, {:.0} N per finger, \
             μ {:.2}; poses: {}\n",
            joints.len(),
            joints.join(", "),
            arm.mass(),
            g.opening,
            g.max_force,
            g.friction,
            arm.poses
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    format!(
        "{}: robot '{}'\n  {:.1} kg, hull {:.2} x {:.2} x {:.2} m; {running}\n  footprint \
         {:.3} m long, gauge {:.3} m; cameras: {}\n{arm}",
        path.display(),
        spec.name,
        spec.mass,
        size.x,
        size.y,
        size.z,
        spec.footprint_length(),
        spec.track_gauge(),
        if cameras.is_empty() {
            "none".to_string()
        } else {
            cameras.join(", ")
        }
    )
}

/// Runs `treadsim envelope`.
pub fn envelope_command(a: &EnvelopeArgs) -> anyhow::Result<()> {
    let spec = load_robot(Path::new(&a.robot))?;
    let threads = super::threads_or_cores(a.threads);
    let started = Instant::now();
    let mut bar = Progress::new("envelope");
    let sheet = treadsim::envelope::measure_with(
        &spec,
        &treadsim::sim::SimConfig::default(),
        threads,
        &mut |f| bar.set(f),
    )?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&sheet)?);
    } else {
        print!("{sheet}");
        println!(
            "({} trials on {threads} threads in {:.1} s)",
            sheet.sweeps().map(|s| s.points.len()).sum::<usize>() + 5,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
