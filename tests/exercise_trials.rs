//! Trials scored headless on small scenes: repetitions and round trips, faults (tip-over,
//! roll-over, fall, reset) voiding a repetition, penalties, observation targets with line of
//! sight, gates with a heading, and the pass/fail reasons.

mod common;
use common::*;

use std::path::Path;

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use treadsim::config::SourceFile;
use treadsim::exercise::{Exercise, ExerciseEvent, ExerciseSpec, FaultKind, Trial};
use treadsim::session::DriveScript;
use treadsim::sim::{SimConfig, Simulation};

/// Flat 20 × 20 m floor (spawn at the origin facing +x) plus `extra` scene text.
fn flat_scene(extra: &str) -> treadsim::scene::Scene {
    scene_text(&format!(
        "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.2]\nposition = [0, 0, -0.2]\n\
         [[spawn]]\nname = \"start\"\nposition = [0, 0, 0]\n{extra}"
    ))
}

/// An exercise for the scout on `scene` from the exercise text `text` (its scene and robot
/// paths are not read).
fn exercise(scene: treadsim::scene::Scene, text: &str) -> Exercise {
    let head = "[exercise]\nname = \"test\"\nscene = \"unused.toml\"\nrobot = \"unused.toml\"\n";
    let file = SourceFile::from_text(Path::new("test-exercise.toml"), format!("{head}{text}"));
    let spec = ExerciseSpec::from_source(&file).unwrap_or_else(|e| panic!("{e}"));
    let spawn = scene.spawns[0].clone();
    Exercise {
        spec,
        scene,
        robot: robot("scout"),
        spawn,
    }
}

fn script(text: &str) -> DriveScript {
    DriveScript::from_source(&SourceFile::from_text(Path::new("s.toml"), text.into()))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn drive(at: f64, left: f64, right: f64) -> String {
    format!("[[command]]\nat = {at}\nleft = {left}\nright = {right}\n")
}

fn faults(events: &[ExerciseEvent]) -> Vec<FaultKind> {
    events
        .iter()
        .filter_map(|e| match e {
            ExerciseEvent::Fault { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect()
}

fn penalties(events: &[ExerciseEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            ExerciseEvent::Penalty { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

/// Two round trips to a zone 2 m ahead: forward 4 s at 0.6 m/s, back 4 s, twice. Both
/// repetitions count, the clock is the time taken, repetitions per minute follow from it.
#[test]
fn round_trips_count_repetitions_and_rate() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 60\nrepetitions = 2\nround_trip = true\nstart_radius = 0.5\n\
         [[goal]]\nname = \"far\"\nposition = [2.0, 0, 0.1]\nradius = 0.4\n",
    );
    let s = [
        drive(0.0, 0.6, 0.6),
        drive(4.5, -0.6, -0.6),
        drive(9.0, 0.6, 0.6),
        drive(13.5, -0.6, -0.6),
    ]
    .concat();
    let run = run_trial(&ex, Some(script(&s)), SimConfig::default(), |_, _| {}).expect("run");
    let r = &run.result;
    assert!(r.passed, "{r:?}");
    assert_eq!((r.completed, r.required, r.faults), (2, 2, 0));
    // Each leg of ~2 m at 0.6 m/s with the start zone 0.5 m: the second return ends the
    // trial between 13.5 s and 18 s.
    assert!((13.5..18.0).contains(&r.elapsed), "{}", r.elapsed);
    assert!((r.repetitions_per_minute - 120.0 / r.elapsed).abs() < 1e-9);
    assert_eq!(r.score, 100.0);
    let reached: Vec<_> = r
        .events
        .iter()
        .filter(|e| matches!(e, ExerciseEvent::GoalReached { .. }))
        .collect();
    assert_eq!(reached.len(), 2);
}

/// Standing still: the time limit runs out, the time-over penalty is taken and the trial
/// fails for that reason.
#[test]
fn standing_still_fails_on_time() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 3\n[[goal]]\nposition = [2.0, 0, 0.1]\nradius = 0.4\n",
    );
    let run = run_trial(&ex, None, SimConfig::default(), |_, _| {}).expect("run");
    let r = &run.result;
    assert!(!r.passed);
    assert!(r.reason.contains("time over"), "{}", r.reason);
    assert!((r.elapsed - 3.0).abs() < 0.01);
    assert_eq!(r.penalty_points, 20.0);
    // How close it came to the goal it missed: the robot's centre (its centre of mass, 0.10 m
    // ahead of the origin at the spawn) stayed 1.9 m from the zone's centre, 1.5 m from its
    // edge (within the few mm the scout settles by).
    let (goal, m) = r.closest.clone().expect("how close it came");
    assert_eq!(goal, "zone 1");
    assert!((m - 1.5).abs() < 0.01, "{m}");
    let table = treadsim::exercise::report::score_table(r);
    assert!(
        table.contains("closest          1.50 m from zone 1"),
        "{table}"
    );
    // A perfect link says nothing.
    assert_eq!(r.link, None);
    assert!(!table.contains("link"), "{table}");
}

/// The link conditions a trial ran under are in its result and score table.
#[test]
fn the_link_a_trial_ran_under_is_in_its_table() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 1
[[goal]]
position = [2.0, 0, 0.1]
radius = 0.4
         [link]
command_latency_ms = 250
video_fps = 5
         [[link.dropout]]
at = 0.5
duration = 0.2
",
    );
    let run = run_trial(&ex, None, SimConfig::default(), |_, _| {}).expect("run");
    let link = run.result.link.clone().expect("a degraded link");
    assert_eq!(link, "command lag 250 ms, video 5 fps, 1 dropout(s)");
    let table = treadsim::exercise::report::score_table(&run.result);
    assert!(
        table.contains(&format!("link             {link}")),
        "{table}"
    );
}

/// Driving off a 1 m platform's edge is a fall: the repetition is voided, the robot is back
/// at the start, standing, and the trial goes on.
#[test]
fn driving_off_a_platform_is_a_fall_fault() {
    let scene = scene_text(
        "[[element]]\ntype = \"box\"\nsize = [20, 20, 0.2]\nposition = [0, 0, -0.2]\n\
         [[element]]\ntype = \"box\"\nsize = [3, 3, 1.0]\nposition = [0, 0, 0]\n\
         [[spawn]]\nname = \"start\"\nposition = [0, 0, 1.0]\n",
    );
    let ex = exercise(
        scene,
        "time_limit = 8\n[[goal]]\nposition = [5.0, 0, 0.1]\nradius = 0.5\n",
    );
    let run = run_trial(
        &ex,
        Some(script(
            &[drive(0.0, 1.0, 1.0), drive(4.0, 0.0, 0.0)].concat(),
        )),
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    let r = &run.result;
    assert_eq!(faults(&r.events)[0], FaultKind::Fell, "{:?}", r.events);
    assert!(!r.passed && r.reason.contains("time over"), "{}", r.reason);
    // Back on the platform at the start after the fault, at rest (the script stopped at 4 s).
    let b = run.session.sim().body_state(run.session.robot());
    assert!(b.com.z > 1.0 && b.com.x.abs() < 1.6, "{:?}", b.com);
}

/// A robot lying on its side is past its sideways tip-over limit: after 0.5 s it is a
/// tip-over fault; upside down it is a roll-over at once. Both put it back at the start.
#[test]
fn tipped_and_rolled_robots_are_faults() {
    for (roll, expect) in [(80f64, FaultKind::TipOver), (180.0, FaultKind::RollOver)] {
        let ex = exercise(
            flat_scene(""),
            "time_limit = 30\n[[goal]]\nposition = [5.0, 0, 0.1]\nradius = 0.5\n",
        );
        let mut sim = Simulation::new(ex.scene.clone(), SimConfig::default()).expect("sim");
        let id = sim.add_robot(ex.robot.clone(), &ex.spawn).expect("robot");
        let mut trial = Trial::new(&ex, &mut sim, id);
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 0.3),
            UnitQuaternion::from_euler_angles(roll.to_radians(), 0.0, 0.0),
        );
        sim.teleport(id, &pose);
        for _ in 0..500 {
            sim.step();
            trial.update(&mut sim, id);
        }
        let r = trial.result();
        assert_eq!(
            faults(&r.events),
            vec![expect],
            "roll {roll}: {:?}",
            r.events
        );
        let (roll_now, pitch_now, _) = sim.body_state(id).pose.rotation.euler_angles();
        assert!(
            roll_now.abs() < 0.1 && pitch_now.abs() < 0.1,
            "back on its tracks"
        );
        if expect == FaultKind::TipOver {
            // It took TIP_HOLD (0.5 s) past the limit.
            let t = r
                .events
                .iter()
                .find_map(|e| match e {
                    ExerciseEvent::Fault { time, .. } => Some(*time),
                    _ => None,
                })
                .expect("fault");
            assert!((0.5..0.6).contains(&t), "{t}");
        }
    }
}

/// A reset asked for is a fault with its penalty; a forbidden view in trainee mode fails the
/// trial at once with that reason.
#[test]
fn reset_is_a_fault_and_a_forbidden_view_fails() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 30\n[rules]\ntrainee = true\n[penalties]\nreset = 7\n\
         [[goal]]\nposition = [5.0, 0, 0.1]\nradius = 0.5\n",
    );
    let mut sim = Simulation::new(ex.scene.clone(), SimConfig::default()).expect("sim");
    let id = sim.add_robot(ex.robot.clone(), &ex.spawn).expect("robot");
    let mut trial = Trial::new(&ex, &mut sim, id);
    sim.step();
    trial.update(&mut sim, id);
    trial.request_reset(&mut sim, id);
    assert_eq!(faults(trial.events()), vec![FaultKind::Reset]);
    assert_eq!(trial.result().penalty_points, 7.0);
    trial.forbidden_view(&sim, "chase");
    let r = trial.result();
    assert!(trial.is_finished() && !r.passed);
    assert!(r.reason.contains("forbidden view 'chase'"), "{}", r.reason);
}

/// Speeding, a forbidden zone and the tilt rule each cost their penalty once per entry.
#[test]
fn rule_penalties_count_once_per_entry() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 6\n[rules]\nspeed_limit = 0.5\n\
         [[rules.forbidden]]\nname = \"pit\"\nmin = [1.0, -1.0]\nmax = [1.5, 1.0]\n\
         [[goal]]\nposition = [3.0, 0, 0.1]\nradius = 0.4\n",
    );
    let run = run_trial(
        &ex,
        Some(script(&drive(0.0, 0.8, 0.8))),
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    let p = penalties(&run.result.events);
    assert_eq!(
        p.iter().filter(|r| r.starts_with("speed")).count(),
        1,
        "{p:?}"
    );
    assert_eq!(p.iter().filter(|r| r.contains("'pit'")).count(), 1, "{p:?}");
    // Regression: the text said "speed 0.50 m/s over the limit 0.5 m/s" — the speed at the
    // crossing, which is the limit. It says the highest speed of the episode, then the limit.
    let speeding = p
        .iter()
        .find(|r| r.starts_with("speed"))
        .expect("a speed penalty");
    let (speed, limit) = speeding
        .strip_prefix("speed ")
        .and_then(|rest| rest.split_once(" m/s, limit "))
        .expect("speed X m/s, limit Y m/s");
    let speed: f64 = speed.parse().expect("a speed");
    assert!((speed - 0.8).abs() < 0.08, "driven at 0.8 m/s: {speeding}");
    assert_eq!(limit, "0.50 m/s", "{speeding}");
    // Reached the goal: 100 − 5 (speed) − 10 (zone) = 85 ≥ the default pass mark 50.
    assert!(run.result.passed, "{:?}", run.result);
    assert_eq!(run.result.score, 85.0);
}

/// An observation target counts when a camera sees it within range and angle and nothing
/// stands between: the target behind a wall straight ahead is seen only once the wall is gone.
#[test]
fn observation_targets_need_range_angle_and_line_of_sight() {
    // The scout's front camera is 0.26 m ahead of the body origin at 0.16 m, pitched 10° down.
    let wall = "[[element]]\ntype = \"box\"\nsize = [0.2, 2.0, 1.0]\nposition = [3.0, 0.0, 0]\n";
    let goals = "time_limit = 2\n\
         [[goal]]\nname = \"visible\"\nobserve = [2.0, 0.0, 0.0]\nrange = 3\nangle_deg = 20\n\
         [[goal]]\nname = \"behind the wall\"\nobserve = [3.6, 0.0, 0.1]\nrange = 5\nangle_deg = 20\n";
    let reached = |scene| -> Vec<String> {
        let run = run_trial(
            &exercise(scene, goals),
            None,
            SimConfig::default(),
            |_, _| {},
        )
        .expect("run");
        run.result
            .events
            .iter()
            .filter_map(|e| match e {
                ExerciseEvent::GoalReached { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(reached(flat_scene(wall)), vec!["visible".to_string()]);
    assert_eq!(
        reached(flat_scene("")),
        vec!["visible".to_string(), "behind the wall".to_string()]
    );
    // Out of range or off the camera's axis: not seen.
    let far = "time_limit = 1\n[[goal]]\nobserve = [6.0, 0.0, 0.0]\nrange = 3\n";
    let run = run_trial(
        &exercise(flat_scene(""), far),
        None,
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    assert!(!run.result.passed);
    let aside = "time_limit = 1\n[[goal]]\nobserve = [0.3, 2.0, 0.1]\nrange = 3\nangle_deg = 30\n";
    let run = run_trial(
        &exercise(flat_scene(""), aside),
        None,
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    // The mast and rear cameras look elsewhere too: nothing sees a point 90° to the side.
    assert!(!run.result.passed);
}

/// A gate with a heading counts when the robot crosses it facing that way, not when it backs
/// through it.
#[test]
fn gates_with_a_heading_need_that_heading() {
    let text = "time_limit = 6\n[[goal]]\nname = \"g\"\ngate = [1.0, -0.8, 1.0, 0.8]\n\
                heading_deg = 0\ntolerance_deg = 20\n";
    let forward = run_trial(
        &exercise(flat_scene(""), text),
        Some(script(&drive(0.0, 0.6, 0.6))),
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    assert!(forward.result.passed, "{:?}", forward.result);
    // Turned round (yaw 180°) and backing through: the same crossing, the wrong heading.
    let mut scene = flat_scene("");
    scene.spawns[0].yaw = std::f64::consts::PI;
    let backward = run_trial(
        &exercise(scene, text),
        Some(script(&drive(0.0, -0.6, -0.6))),
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    assert!(!backward.result.passed, "{:?}", backward.result);
}

/// The exercise's link: with 500 ms of command latency the robot gets the operator's command
/// 500 ms (± one step) after it was given; a dropout stops it within one step and the belts
/// run down; once the link is back the command arrives again after the latency.
#[test]
fn link_latency_delays_commands_and_a_dropout_stops_the_robot() {
    let ex = exercise(
        flat_scene(""),
        "time_limit = 6\n[link]\ncommand_latency_ms = 500\n\
         [[link.dropout]]\nat = 3.0\nduration = 1.0\n\
         [[goal]]\nposition = [9.0, 0, 0.1]\nradius = 0.4\n",
    );
    let script = script(&[drive(0.0, 0.0, 0.0), drive(1.0, 0.5, 0.5)].concat());
    let dt = SimConfig::default().dt;
    let mut first_go = None;
    let mut stopped_at = None;
    let mut back_at = None;
    let mut belt_at_dropout_end = f64::NAN;
    run_trial(&ex, Some(script), SimConfig::default(), |sim, id| {
        // The command in force during the step just taken.
        let t = sim.time() - dt;
        let moving = sim.robot(id).command().left > 0.0;
        if moving && first_go.is_none() {
            first_go = Some(t);
        }
        if t >= 3.0 && !moving && stopped_at.is_none() {
            stopped_at = Some(t);
        }
        if t >= 4.0 && moving && back_at.is_none() {
            back_at = Some(t);
        }
        if (t - 3.99).abs() < 0.5 * dt {
            belt_at_dropout_end = sim.robot(id).drive_speed(0);
        }
    })
    .expect("run");
    let first_go = first_go.expect("command arrived");
    assert!((first_go - 1.5).abs() <= dt + 1e-9, "{first_go}");
    let stopped_at = stopped_at.expect("stopped");
    assert!(stopped_at - 3.0 <= dt + 1e-9, "{stopped_at}");
    assert!(belt_at_dropout_end.abs() < 0.05, "{belt_at_dropout_end}");
    let back_at = back_at.expect("back");
    assert!((back_at - 4.5).abs() <= dt + 1e-9, "{back_at}");
}

/// The scout driven at a wall (0.5 m/s, 12 s) on a floor of friction `mu` with a 3 s stall
/// limit: its faults.
fn drive_into_a_wall(mu: f64) -> Vec<FaultKind> {
    let scene = scene_text(&format!(
        "[[material]]\nname = \"floor\"\nfriction = {mu}\n\
         [[element]]\ntype = \"box\"\nmaterial = \"floor\"\nsize = [20, 20, 0.2]\nposition = [0, 0, -0.2]\n\
         [[element]]\ntype = \"box\"\nsize = [0.3, 4, 1.0]\nposition = [1.5, 0, 0]\n\
         [[spawn]]\nname = \"start\"\nposition = [0, 0, 0]\n"
    ));
    let ex = exercise(
        scene,
        "time_limit = 12\n[rules]\nstall_limit = 3\n\
         [[goal]]\nname = \"beyond\"\nposition = [4.0, 0, 0.1]\nradius = 0.5\n",
    );
    let run = run_trial(
        &ex,
        Some(script(&drive(0.0, 0.5, 0.5))),
        SimConfig::default(),
        |_, _| {},
    )
    .expect("run");
    faults(&run.result.events)
}

/// A motor stall is a fault where the belts cannot slip: the scout's drive motors push a belt
/// with at most 6 N·m / 0.055 m = 109 N, and each track carries half its 196 N weight. On a
/// grippy floor (μ 1.5: 147 N of grip a track) against a wall the belts stick and the motors
/// stall; on tiles (μ 0.6: 59 N) the belts spin at the wall instead — no stall, as on a
/// real robot whose motors out-pull its grip. (Measured, explicit 2 ms and implicit 5 ms
/// alike: stalls from μ 1.1 up; at μ 0.9–1.0 the flipper tips climb the wall and the robot
/// rolls over backwards; none at 0.6.)
#[test]
fn a_motor_stalls_at_a_wall_only_where_the_belts_cannot_slip() {
    let grippy = drive_into_a_wall(1.5);
    assert!(grippy.contains(&FaultKind::Stall), "{grippy:?}");
    let tiles = drive_into_a_wall(0.6);
    assert!(!tiles.contains(&FaultKind::Stall), "{tiles:?}");
}
