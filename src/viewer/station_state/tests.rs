//! The station's instructor and trainee rules, exercised without a window: the scout (views
//! front, rear, mast, chase, free) on a floor, driven through [`StationState`].

use std::path::Path;

use super::*;
use crate::config::SourceFile;
use crate::input::MappingConfig;
use crate::link::LinkChange;
use crate::session::testing::{free, scout};
use crate::session::{DriveScript, ScriptDriver};

/// The scout's views, by index.
const FRONT: usize = 0;
const REAR: usize = 1;
const MAST: usize = 2;
const CHASE: usize = 3;

fn mapper() -> InputMapper {
    let mut mapper = InputMapper::new(MappingConfig::default()).expect("default mapping");
    sync_flippers(&mut mapper, &scout());
    mapper
}

/// A station on a free session of the scout, in trainee mode or not, with default views.
fn station(source: InputSource, trainee: bool) -> (StationState, Session) {
    let session = free();
    let state = StationState::new(&session, mapper(), source, trainee, None, None);
    (state, session)
}

fn clicks(f: impl FnOnce(&mut UiRequests)) -> FrameActions {
    let mut actions = FrameActions::default();
    f(&mut actions.clicks);
    actions
}

fn mapped(f: impl FnOnce(&mut Actions)) -> FrameActions {
    let mut actions = FrameActions::default();
    f(&mut actions.mapped);
    actions
}

/// Applies `actions` and carries the effects out; returns the effects.
fn act(
    state: &mut StationState,
    session: &mut Session,
    actions: &FrameActions,
) -> Vec<StationEffect> {
    let effects = state.apply(actions, session.view());
    state
        .carry_out(effects.clone(), session, &RawInput::new())
        .expect("carry out");
    effects
}

/// Runs the station's physics for `wall` s of frame time with the sticks at rest.
fn run(state: &mut StationState, session: &mut Session, wall: f64) -> u64 {
    state
        .run_physics(session, &RawInput::new(), wall, 0.0)
        .steps
}

#[test]
fn default_views_are_the_first_camera_and_the_rear_one_beside_it() {
    let (state, _) = station(InputSource::Operator, false);
    assert_eq!((state.views.main, state.views.pip), (FRONT, Some(REAR)));
    let session = free();
    let named = StationState::new(
        &session,
        mapper(),
        InputSource::Operator,
        false,
        Some("chase"),
        Some("off"),
    );
    assert_eq!((named.views.main, named.views.pip), (CHASE, None));
    // Trainee mode replaces a third-person view asked for by name.
    let trainee = StationState::new(
        &session,
        mapper(),
        InputSource::Operator,
        true,
        Some("chase"),
        None,
    );
    assert_eq!(trainee.views.main, FRONT);
}

#[test]
fn trainee_mode_refuses_a_third_person_view_and_the_autopilot() {
    let (mut state, mut session) = station(InputSource::Operator, true);
    let effects = act(
        &mut state,
        &mut session,
        &clicks(|c| c.main_view = Some(CHASE)),
    );
    assert_eq!(state.views.main, FRONT, "the chase view is refused");
    assert!(effects.is_empty(), "{effects:?}");
    let effects = act(&mut state, &mut session, &clicks(|c| c.autopilot = true));
    assert!(!state.source.is_autopilot());
    assert!(effects.is_empty(), "{effects:?}");
    // The lock holds: the trainee cannot switch trainee mode off.
    act(
        &mut state,
        &mut session,
        &mapped(|a| a.toggle_trainee_view = true),
    );
    assert!(state.views.trainee);
    // An onboard view is the trainee's to choose, and the session learns of it.
    let effects = act(
        &mut state,
        &mut session,
        &clicks(|c| c.main_view = Some(MAST)),
    );
    assert_eq!(state.views.main, MAST);
    assert_eq!(effects, [StationEffect::Input(Input::View("mast".into()))]);
    assert_eq!(session.view(), "mast");
}

#[test]
fn the_instructor_hands_the_robot_to_the_autopilot_and_takes_it_back_stopped() {
    let (mut state, mut session) = station(InputSource::Operator, false);
    let effects = act(&mut state, &mut session, &clicks(|c| c.autopilot = true));
    assert_eq!(effects, [StationEffect::HandOver]);
    assert!(state.source.is_autopilot());
    session.apply(Input::Drive(DriveCommand {
        left: 0.3,
        right: 0.3,
        ..DriveCommand::STOP
    }));
    act(&mut state, &mut session, &clicks(|c| c.autopilot = true));
    assert!(!state.source.is_autopilot());
    let command = session.operator_command();
    assert_eq!(
        (command.left, command.right),
        (0.0, 0.0),
        "stopped on hand-back"
    );
    assert_eq!(command.flipper, state.mapper.flipper_target());
}

#[test]
fn reset_stops_the_robot_and_resends_the_scripts_current_command() {
    let text = "[[command]]\nat = 0.0\nleft = 0.4\nright = 0.4\n";
    let file = SourceFile::from_text(Path::new("forward.toml"), text.into());
    let forward = DriveScript::from_source(&file).expect("script");
    let (mut state, mut session) = station(
        InputSource::Script(Box::new(ScriptDriver::new(forward, false))),
        false,
    );
    assert!(run(&mut state, &mut session, 0.5) > 0);
    assert_eq!(session.operator_command().left, 0.4);
    let effects = act(&mut state, &mut session, &mapped(|a| a.reset = true));
    assert_eq!(
        effects,
        [
            StationEffect::Input(Input::Reset),
            StationEffect::ResetControls,
            StationEffect::RecentreChase
        ]
    );
    assert_eq!(
        session.operator_command().left,
        0.0,
        "a reset stops the robot"
    );
    // The script's command in force goes out again before the next step.
    assert!(run(&mut state, &mut session, 0.1) > 0);
    assert_eq!(session.operator_command().left, 0.4);
}

#[test]
fn pause_freezes_the_clock_and_the_link() {
    let (mut state, mut session) = station(InputSource::Operator, false);
    session.apply(Input::Link(LinkChange::CommandLatency(0.1)));
    let effects = act(&mut state, &mut session, &mapped(|a| a.toggle_pause = true));
    assert_eq!(effects, [StationEffect::Input(Input::Pause(true))]);
    assert!(state.pacer.is_paused() && session.is_paused());
    let forward = DriveCommand {
        left: 0.4,
        right: 0.4,
        ..DriveCommand::STOP
    };
    session.apply(Input::Drive(forward));
    let (t, id) = (session.sim().time(), session.robot());
    assert_eq!(run(&mut state, &mut session, 1.0), 0);
    assert_eq!(session.sim().time(), t, "the clock stands");
    // Resumed, the command still takes the link's whole latency to reach the robot.
    act(&mut state, &mut session, &mapped(|a| a.toggle_pause = true));
    let dt = session.sim().config().dt;
    let latency_steps = (0.1 / dt).round() as u32;
    for _ in 0..latency_steps - 1 {
        session.step();
    }
    assert_eq!(
        session.sim().robot(id).command().left,
        0.0,
        "still in the link"
    );
    for _ in 0..2 {
        session.step();
    }
    assert_eq!(
        session.sim().robot(id).command().left,
        0.4,
        "through the link"
    );
}

#[test]
fn a_single_step_of_a_paused_session_advances_one_step_and_stays_paused() {
    let (mut state, mut session) = station(InputSource::Operator, false);
    act(&mut state, &mut session, &mapped(|a| a.toggle_pause = true));
    let t = session.sim().time();
    let effects = state.apply(&mapped(|a| a.single_step = true), session.view());
    assert_eq!(effects, [StationEffect::SingleStep]);
    let steps = state
        .carry_out(effects, &mut session, &RawInput::new())
        .expect("step");
    assert_eq!(steps, 1);
    assert!((session.sim().time() - t - session.sim().config().dt).abs() < 1e-12);
    assert!(session.is_paused());
    // Running, a single step asks for nothing.
    act(&mut state, &mut session, &mapped(|a| a.toggle_pause = true));
    assert!(state
        .apply(&mapped(|a| a.single_step = true), session.view())
        .is_empty());
}

#[test]
fn speed_is_the_instructors_and_is_logged() {
    let (mut state, mut session) = station(InputSource::Operator, true);
    let mut faster = FrameActions::default();
    faster.keys.speed_step = Some(true);
    assert!(act(&mut state, &mut session, &faster).is_empty());
    assert_eq!(state.pacer.speed(), 1.0, "not in trainee mode");
    let (mut state, mut session) = station(InputSource::Operator, false);
    let effects = act(&mut state, &mut session, &faster);
    assert_eq!(effects, [StationEffect::Input(Input::Speed(2.0))]);
    let effects = act(&mut state, &mut session, &clicks(|c| c.slower = true));
    assert_eq!(effects, [StationEffect::Input(Input::Speed(1.0))]);
}

/// Regression (issue: in trainee mode, cycling the cameras front → rear → mast lost the
/// picture-in-picture for good).
#[test]
fn cycling_cameras_in_trainee_mode_keeps_the_picture_in_picture() {
    let (mut state, mut session) = station(InputSource::Operator, true);
    assert_eq!((state.views.main, state.views.pip), (FRONT, Some(REAR)));
    let next = mapped(|a| a.next_camera = true);
    let mut seen = Vec::new();
    for _ in 0..6 {
        act(&mut state, &mut session, &next);
        seen.push((state.views.main, state.views.pip));
    }
    assert_eq!(
        seen,
        [
            (REAR, Some(MAST)),
            (MAST, Some(FRONT)),
            (FRONT, Some(REAR)),
            (REAR, Some(MAST)),
            (MAST, Some(FRONT)),
            (FRONT, Some(REAR)),
        ]
    );
}

#[test]
fn switching_to_trainee_mode_leaves_the_third_person_views() {
    let session = free();
    let mut state = StationState::new(
        &session,
        mapper(),
        InputSource::Operator,
        false,
        Some("chase"),
        Some("free"),
    );
    let mut session = session;
    session.apply(Input::View("chase".into()));
    let effects = act(&mut state, &mut session, &clicks(|c| c.trainee = true));
    assert!(state.views.trainee);
    assert_eq!(state.views.main, FRONT);
    assert_eq!(state.views.pip, Some(REAR));
    assert_eq!(effects, [StationEffect::Input(Input::View("front".into()))]);
}

/// Regression: replaying the log of a trainee-mode trial from the chase view showed `FAIL:
/// forbidden view 'chase' in trainee mode` at 0.0 s, the station having told the replayed
/// session which view the instructor watched. A replay never applies the trainee's view rule.
#[test]
fn replaying_a_trainee_trial_from_the_chase_view_keeps_the_recorded_result() {
    use crate::launch::{launch, open, Launch, LaunchOptions, LogTarget};
    use crate::viewer::replay::ReplayCursor;

    let exercise = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/exercises/curb_climb.toml");
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("trainee.mcap");
    let options = LaunchOptions {
        log: LogTarget::At(log.clone()),
        program: "run",
        script: None,
    };
    let mut recorded = launch(
        &Launch::Exercise {
            exercise,
            robot: None,
        },
        &options,
    )
    .expect("launch");
    assert!(recorded
        .exercise
        .as_ref()
        .is_some_and(|e| e.spec.rules.trainee));
    let mut writer = recorded.log.take().expect("a log");
    let mut session = recorded.session;
    session.apply(Input::View("front".into()));
    for _ in 0..500 {
        session.step();
        writer.record(&mut session).expect("record");
    }
    writer.finish(&mut session).expect("finish");

    let replay = open(&Launch::Replay { log }).expect("open the log");
    let mut session = replay.session;
    let cursor = ReplayCursor::new(replay.replayed.expect("the log"));
    let mut state = StationState::new(
        &session,
        mapper(),
        InputSource::Replay(Box::new(cursor)),
        false,
        Some("chase"),
        None,
    );
    assert_eq!(state.views.views[state.views.main].name, "chase");
    // As the station starts: the session hears of the opening view, if at all.
    if let Some(view) = state.opening_view() {
        session.apply(view);
    }
    for _ in 0..20 {
        run(&mut state, &mut session, 0.1);
        act(&mut state, &mut session, &FrameActions::default());
    }
    assert!(
        session.sim().time() > 0.9,
        "the replay ran: {}",
        session.sim().time()
    );
    let result = session.trial().expect("a trial").result();
    assert_eq!(result.faults, 0, "{result:?}");
    assert!(result.reason.is_empty(), "{}", result.reason);
}

#[test]
fn a_class_seats_trainee_cannot_pause_or_single_step_the_instructors_clock() {
    let (mut state, mut session) = station(InputSource::Operator, true);
    state.remote_pause = true;
    let effects = act(&mut state, &mut session, &mapped(|m| m.toggle_pause = true));
    assert!(!state.pacer.is_paused(), "the trainee's pause is ignored");
    assert!(
        !effects.contains(&StationEffect::Input(Input::Pause(true))),
        "{effects:?}"
    );
    // Paused by the instructor (the seat pauses the pacer): no single step from the trainee.
    state.pacer.set_paused(true);
    let t = session.sim().time();
    let effects = act(&mut state, &mut session, &mapped(|m| m.single_step = true));
    assert!(!effects.contains(&StationEffect::SingleStep), "{effects:?}");
    assert_eq!(session.sim().time(), t);
    // The station's own instructor still pauses a station of its own.
    state.remote_pause = false;
    state.pacer.set_paused(false);
    act(&mut state, &mut session, &mapped(|m| m.toggle_pause = true));
    assert!(state.pacer.is_paused());
}

#[cfg(feature = "classroom")]
#[test]
fn another_exercise_keeps_the_trainee_lock_and_takes_the_new_robots_views() {
    let (mut state, session) = station(InputSource::Operator, true);
    state.remote_pause = true;
    state.views.main = REAR;
    let scene = crate::session::testing::floor();
    let spawn = scene.spawns[0].clone();
    let robot = crate::vehicle::robot_file::test_preset("scout_eod");
    let other =
        Session::free(scene, robot, spawn, crate::sim::SimConfig::default()).expect("session");
    state.show_exercise(&other, InputSource::Operator);
    assert!(state.views.locked && state.views.trainee);
    assert!(state.remote_pause);
    // The armed robot's views, its gripper camera among them; the first onboard one shown.
    let names = &state.views.view_names;
    assert_eq!(
        names,
        &["front", "rear", "mast", "gripper", "chase", "free"]
    );
    assert_eq!(state.views.main, FRONT);
    drop(session);
}

/// A goal script drives the station's robot as `treadsim run` does (the autopilot to the
/// point), and the station's reset leaves it steering from the spawn again.
#[test]
fn a_goal_script_drives_the_station_and_resumes_after_a_reset() {
    let text = "[[goal]]\ntype = \"point\"\nat = [3.0, 0.0]\nspeed = 0.4\n";
    let file = SourceFile::from_text(Path::new("goals.toml"), text.into());
    let driver = crate::session::script_driver(&file, &scout(), false).expect("goals");
    let (mut state, mut session) = station(InputSource::Script(driver), false);
    let x0 = session.sim().body_state(session.robot()).pose.translation.x;
    // Frames of 0.25 s: the pacer catches up at most a second of physics per frame.
    for _ in 0..12 {
        run(&mut state, &mut session, 0.25);
    }
    let moved = session.sim().body_state(session.robot()).pose.translation.x - x0;
    assert!(
        moved > 0.5,
        "the autopilot drove {moved} m towards the goal"
    );
    act(&mut state, &mut session, &mapped(|a| a.reset = true));
    let back = session.sim().body_state(session.robot()).pose.translation.x - x0;
    assert!(back.abs() < 0.05, "reset to the spawn, {back} m off");
    for _ in 0..8 {
        run(&mut state, &mut session, 0.25);
    }
    let again = session.sim().body_state(session.robot()).pose.translation.x - x0;
    assert!(again > 0.2, "after the reset it drives on: {again} m");
}
