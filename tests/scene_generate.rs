//! Generated buildings (`treadsim scene generate building`): twenty seeds check clean with the
//! command line, their stairs lie inside the scout's spec sheet, and the scout's autopilot
//! climbs the first storey of each — up flight 1, a U-turn on the mid landing, up flight 2 to
//! the first floor; with `--doors`, it pushes a shut door open and a latched one holds it.

mod common;

use std::path::Path;
use std::process::Command;

use treadsim::config::SourceFile;
use treadsim::control::autopilot::Autopilot;
use treadsim::control::goal_script::read_goals;
use treadsim::scene::generate::building::{BuildingPlan, BuildingSpec};
use treadsim::scene::Scene;
use treadsim::session::{drive, AutopilotDriver, Session};
use treadsim::sim::SimConfig;

fn spec(seed: u64) -> BuildingSpec {
    BuildingSpec {
        floors: 2 + (seed % 4) as u32,
        seed,
        debris: false,
        doors: false,
    }
}

#[test]
fn twenty_generated_buildings_check_clean() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for seed in 0..20 {
        let s = spec(seed);
        let out = dir.path().join(format!("building{seed}.toml"));
        let made = Command::new(env!("CARGO_BIN_EXE_treadsim"))
            .args(["scene", "generate", "building"])
            .args([
                "--floors",
                &s.floors.to_string(),
                "--seed",
                &seed.to_string(),
            ])
            // Every other one with doors in its doorways.
            .args(if seed % 2 == 1 { &["--doors"][..] } else { &[] })
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        files.push(out);
    }
    let check = Command::new(env!("CARGO_BIN_EXE_treadsim"))
        .arg("check")
        .args(&files)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert_eq!(said.matches("Office building,").count(), 20);
    // Bad input is refused with the limits.
    let bad = Command::new(env!("CARGO_BIN_EXE_treadsim"))
        .args(["scene", "generate", "building", "--floors", "12", "--out"])
        .arg(dir.path().join("bad.toml"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--floors must be 2 to 8"));
    assert!(!Path::new(&dir.path().join("bad.toml")).exists());
}

/// Every generated flight is within what the scout's spec sheet claims (README, `treadsim
/// envelope`: stairs up to 45° on the building-stair family, rise 0.15–0.22 m, nosings up to
/// 32 mm; single steps of 0.20 m at least): the generator's risers are 150–178 mm at 25–32.4°.
#[test]
fn every_generated_stair_is_inside_the_scouts_spec_sheet() {
    for seed in 0..20 {
        let plan = BuildingPlan::draw(spec(seed)).unwrap();
        assert!(
            plan.angle_deg() <= 45.0 - 10.0,
            "seed {seed}: {}°",
            plan.angle_deg()
        );
        assert!((0.15..=0.22).contains(&plan.rise) && plan.nosing <= 0.032);
        // The flights are wide enough for the scout (0.5 m) with 0.3 m each side, the landings
        // long enough to stand on (0.8 m) with room to turn.
        assert!(plan.stair_width >= 0.5 + 0.6 && plan.mid_landing >= 1.1);
    }
}

/// The autopilot's goals up the first storey of `plan`'s core (as the office exercise's
/// passing script, placed from the plan's dimensions).
fn first_storey(plan: &BuildingPlan) -> String {
    let (xc, xs, xm) = (plan.core_west(), plan.flights_start(), plan.flights_end());
    let y = plan.core_half() - plan.stair_width / 2.0;
    let goal = |kind: &str, body: String| format!("[[goal]]\ntype = \"{kind}\"\n{body}\n\n");
    // Each flight is lined up on square: turn on the spot, cross to its centre line (y = ∓y),
    // turn to face it, as an operator does on a landing.
    let face = |deg: f64| goal("face", format!("yaw_deg = {deg}"));
    let turn_point = xm + (0.5 * plan.mid_landing).min(0.55);
    [
        goal(
            "point",
            format!(
                "at = [{}, {}]\nspeed = 0.4\ntolerance = 0.2",
                xc + 0.55,
                -0.72 * y
            ),
        ),
        goal(
            "point",
            format!(
                "at = [{}, {}]\nspeed = 0.3\ntolerance = 0.15",
                xs - 0.72,
                -y
            ),
        ),
        face(0.0),
        goal(
            "climb",
            format!(
                "from = [{}, {}]\nto = [{}, {}]\nspeed = 0.3",
                xs - 1.0,
                -y,
                xm + 0.5,
                -y
            ),
        ),
        face(90.0),
        goal(
            "point",
            format!(
                "at = [{}, {}]\nspeed = 0.2\ntolerance = 0.15",
                turn_point, y
            ),
        ),
        face(180.0),
        goal(
            "climb",
            format!(
                "from = [{}, {}]\nto = [{}, {}]\nspeed = 0.3",
                xm + 0.7,
                y,
                xs - 0.72,
                y
            ),
        ),
        goal("stop", format!("at = [{}, {}]\nspeed = 0.2", xs - 0.72, y)),
    ]
    .concat()
}

/// The scout, driven by the autopilot along goals placed from each plan (`face` turns on the
/// landings), climbs the first storey of all 20 buildings without tilting past 45°: every stair
/// the generator draws is one the scout climbs, not only one the codes allow.
#[test]
fn the_scout_climbs_the_first_storey_of_every_generated_building() {
    let scout = common::robot("scout");
    let mut failed = Vec::new();
    for seed in 0..20 {
        let plan = BuildingPlan::draw(spec(seed)).unwrap();
        let scene = Scene::from_source(&SourceFile::from_text(
            Path::new("building.toml"),
            plan.to_toml(),
        ))
        .unwrap();
        let spawn = scene.spawn_named(Some("floor0_corridor")).unwrap();
        let mut session = Session::free(scene, scout.clone(), spawn, SimConfig::default()).unwrap();
        let goals = read_goals(&SourceFile::from_text(
            Path::new("up.toml"),
            first_storey(&plan),
        ))
        .unwrap();
        let mut driver = AutopilotDriver::new(Autopilot::new(&scout, goals));
        let mut max_tilt: f64 = 0.0;
        let steps = (150.0 / session.sim().config().dt) as u64;
        drive(&mut session, &mut driver, steps, |s| {
            let row = s.sim().telemetry(s.robot());
            max_tilt = max_tilt.max(row.rpy[0].abs().max(row.rpy[1].abs()));
            true
        });
        let end = session.sim().telemetry(session.robot());
        let on_floor1 = (end.position[2] - plan.floor_z(1)).abs() < 0.05;
        let upright = max_tilt.to_degrees() < 45.0;
        println!(
            "seed {seed}: {:.1}° {} risers of {:.0} mm, landings {:.2}/{:.2} m: ended at z {:.3} \
             (floor 1 at {:.3}), tilt at most {:.1}°; at x {:.2} y {:.2} (core {:.2}..{:.2}); {:?}",
            plan.angle_deg(),
            plan.risers,
            1000.0 * plan.rise,
            plan.floor_landing,
            plan.mid_landing,
            end.position[2],
            plan.floor_z(1),
            max_tilt.to_degrees(),
            end.position[0],
            end.position[1],
            plan.core_west(),
            plan.core_east(),
            treadsim::session::Driver::gave_up(&driver)
        );
        if !(on_floor1 && upright) {
            failed.push(seed);
        }
    }
    assert!(
        failed.is_empty(),
        "seeds where the scout did not reach floor 1: {failed:?}"
    );
}

/// A generated building with `--doors`: the scout, set square to a room's doorway in the
/// corridor on its latch side (as an operator lines up to push a door where it gives most),
/// drives straight at it. A door shut by its closer opens away from the corridor, so the scout
/// pushes it open and is in the room (its centre 0.6 m past the wall's face) within 12 s; a
/// latched door holds it in the corridor, still latched — only an arm turning the handle
/// opens that one.
#[test]
fn the_scout_pushes_a_shut_door_open_and_a_latched_one_holds_it() {
    use treadsim::scene::generate::building::DoorKind;
    use treadsim::vehicle::DriveCommand;
    let scout = common::robot("scout");
    for kind in [DoorKind::Shut, DoorKind::Latched] {
        let (plan, door) = (0..20)
            .find_map(|seed| {
                let plan = BuildingPlan::draw(BuildingSpec {
                    doors: true,
                    ..spec(seed)
                })
                .unwrap();
                let door = *plan.doors.iter().find(|d| d.kind == kind && d.floor == 0)?;
                Some((plan, door))
            })
            .expect("a ground-floor door of each kind in 20 seeds");
        let (hinge, _, _) = plan.door_hinge(&door);
        let sign = if door.north { 1.0 } else { -1.0 };
        let text = format!(
            "{}\n[[spawn]]\nname = \"at_door\"\nposition = [{:.3}, 0.0, 0.0]\nyaw_deg = {}\n",
            plan.to_toml(),
            hinge[0] + 0.62,
            90.0 * sign
        );
        let scene =
            Scene::from_source(&SourceFile::from_text(Path::new("doors.toml"), text)).unwrap();
        let spawn = scene.spawn_named(Some("at_door")).unwrap();
        let mut sim = treadsim::sim::Simulation::new(scene, SimConfig::default()).unwrap();
        let id = sim.add_robot(scout.clone(), &spawn).unwrap();
        sim.set_command(id, DriveCommand::belts(0.3, 0.3));
        sim.run_for(12.0);
        let y = sim.body_state(id).pose.translation.y * sign;
        let wall_face = hinge[1] * sign - 0.03;
        let index = sim.scene().doors.iter().position(|d| d.name == door.name());
        let state = index.and_then(|i| sim.door_state(i)).expect("the door");
        match kind {
            DoorKind::Shut => assert!(
                y > wall_face + 0.6 && state.angle.abs() > 0.5,
                "seed {}: the scout is at {y:.2} (wall face {wall_face:.2}), the door open \
                 {:.1}°",
                plan.spec.seed,
                state.angle.to_degrees()
            ),
            _ => assert!(
                y < wall_face && state.latched,
                "seed {}: the scout is at {y:.2} (wall face {wall_face:.2}); {state:?}",
                plan.spec.seed
            ),
        }
    }
}
