//! The station's logic that needs no GPU: pacing, view cycling and trainee mode, tip-over
//! limits and margins, stall detection, HUD warnings, key translation, belt drawing refs.
#![cfg(feature = "viewer")]

use std::path::Path;

use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use treadsim::input::{InputEvent, Key, PadState, Source, Status};
use treadsim::session::pacing::{Pacer, MAX_CATCH_UP, MAX_SPEED, MIN_SPEED};
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::stability::{tip_level, Tilt, TipLevel, TipLimits};
use treadsim::vehicle::stall::{is_stalling, STALL_HOLD};
use treadsim::vehicle::{RobotSpec, TrackedRobot};
use treadsim::viewer::cameras::{cycle, views, ViewKind};
use treadsim::viewer::hud::{HudData, Warning};
use treadsim::viewer::keys::{translate_event, translate_key};
use treadsim::viewer::robot_view::belt_refs;

fn robot(name: &str) -> RobotSpec {
    load_robot(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/robots/{name}.toml")))
        .expect("robot file loads")
}

fn idle() -> Status {
    Status {
        source: Source::None,
        pad: PadState::Absent,
        slow: false,
        mode: treadsim::input::ControlMode::Drive,
    }
}

#[test]
fn pacer_tracks_real_time_at_any_frame_rate() {
    for fps in [7.0, 30.0, 60.0, 144.0, 1000.0] {
        let mut p = Pacer::new(0.002);
        let frames = (fps * 10.0) as usize;
        let steps: u64 = (0..frames).map(|_| u64::from(p.advance(1.0 / fps))).sum();
        // 10 s of wall time at 500 Hz: 5000 steps, the remainder waiting in the accumulator.
        assert!((4999..=5000).contains(&steps), "{fps} fps: {steps} steps");
    }
}

#[test]
fn pacer_speed_pause_and_catch_up_cap() {
    let mut p = Pacer::new(0.002);
    assert_eq!(p.set_speed(8.0), MAX_SPEED);
    assert_eq!(p.advance(0.1), 400, "0.1 s at 8x is 0.8 s of steps");
    assert_eq!(p.step_speed(true), MAX_SPEED, "speed is capped");
    p.set_speed(1.0);
    for _ in 0..4 {
        p.step_speed(false);
    }
    assert_eq!(p.speed(), MIN_SPEED);
    // A 5 s hitch adds only MAX_CATCH_UP of wall time.
    p.set_speed(1.0);
    let n = p.advance(5.0);
    assert_eq!(n as f64, (MAX_CATCH_UP / 0.002).round());
    // Paused: nothing, and nothing stored for later.
    p.set_paused(true);
    assert_eq!(p.advance(0.05), 0);
    p.set_paused(false);
    assert_eq!(p.advance(0.001), 0);
    assert_eq!(p.advance(0.001), 1);
}

#[test]
fn views_cycle_and_trainee_mode_hides_third_person_views() {
    let spec = robot("scout");
    let v = views(&spec);
    let names: Vec<&str> = v.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["front", "rear", "mast", "chase", "free"]);
    assert!(v[3].kind.is_third_person() && v[4].kind.is_third_person());
    assert_eq!(v[0].kind, ViewKind::Onboard(0));
    // Instructor: every view in turn, wrapping both ways.
    let mut i = 0;
    let mut seen = Vec::new();
    for _ in 0..5 {
        i = cycle(&v, i, 1, false);
        seen.push(i);
    }
    assert_eq!(seen, [1, 2, 3, 4, 0]);
    assert_eq!(cycle(&v, 0, -1, false), 4);
    // Trainee: onboard cameras only.
    let mut i = 0;
    for _ in 0..10 {
        i = cycle(&v, i, 1, true);
        assert!(!v[i].kind.is_third_person(), "trainee saw {}", v[i].name);
    }
    assert_eq!(cycle(&v, 0, -1, true), 2);
}

#[test]
fn static_tip_limits_follow_the_robot_file() {
    for name in ["scout", "tracker55", "heavy250"] {
        let spec = robot(name);
        let lim = TipLimits::from_spec(&spec);
        let com = spec.center_of_mass;
        let (yl, yr) = spec
            .tracks
            .iter()
            .fold((f64::MIN, f64::MAX), |(a, b), t| (a.max(t.y), b.min(t.y)));
        let h = lim.com_height;
        // Sideways: atan((gauge/2 ∓ y_cg) / h_cg).
        assert!(
            (lim.left - ((yl - com.y) / h).atan()).abs() < 1e-12,
            "{name}"
        );
        assert!(
            (lim.right - ((com.y - yr) / h).atan()).abs() < 1e-12,
            "{name}"
        );
        // Fore and aft: the footprint's ends against the CoM.
        let (rear, front) = lim.footprint;
        assert!(rear < com.x && com.x < front, "{name}: {rear} {front}");
        assert!((lim.backward - ((com.x - rear) / h).atan()).abs() < 1e-12);
        assert!((lim.forward - ((front - com.x) / h).atan()).abs() < 1e-12);
        for a in [lim.left, lim.right, lim.forward, lim.backward] {
            assert!(
                a > 10f64.to_radians() && a < 80f64.to_radians(),
                "{name}: {a}"
            );
        }
    }
}

#[test]
fn tilt_and_margins_use_the_body_planes() {
    let lim = TipLimits::from_spec(&robot("scout"));
    // Nose up 20° (pitch −20° about body y), at any heading.
    for yaw in [0.0, 1.0, -2.5] {
        let pose = Isometry3::from_parts(
            Vector3::new(1.0, 2.0, 0.3).into(),
            UnitQuaternion::from_euler_angles(0.0, -20f64.to_radians(), yaw),
        );
        let t = Tilt::of(&pose);
        assert!((t.nose_up - 20f64.to_radians()).abs() < 1e-9, "{t:?}");
        assert!(t.left_up.abs() < 1e-9 && !t.upside_down);
        let m = lim.margins(&t);
        assert!((m.backward - (lim.backward - 20f64.to_radians())).abs() < 1e-9);
        assert!((m.forward - (lim.forward + 20f64.to_radians())).abs() < 1e-9);
        assert_eq!(m.least().1, "backward");
    }
    // Left side up 30° (roll +30°): the right side is the one at risk.
    let pose = Isometry3::from_parts(
        Vector3::zeros().into(),
        UnitQuaternion::from_euler_angles(30f64.to_radians(), 0.0, 0.0),
    );
    let t = Tilt::of(&pose);
    assert!((t.left_up - 30f64.to_radians()).abs() < 1e-9);
    assert_eq!(lim.margins(&t).least().1, "right");
    // Upside down.
    let pose = Isometry3::from_parts(
        Vector3::zeros().into(),
        UnitQuaternion::from_euler_angles(std::f64::consts::PI, 0.0, 0.0),
    );
    let t = Tilt::of(&pose);
    assert!(t.upside_down);
    assert_eq!(tip_level(lim.margins(&t).least().0, true), TipLevel::Over);
    // Levels by margin.
    assert_eq!(tip_level(20f64.to_radians(), false), TipLevel::Safe);
    assert_eq!(tip_level(10f64.to_radians(), false), TipLevel::Caution);
    assert_eq!(tip_level(3f64.to_radians(), false), TipLevel::Danger);
    assert_eq!(tip_level(-0.01, false), TipLevel::Over);
}

#[test]
fn stall_needs_command_torque_limit_and_standstill() {
    assert!(is_stalling(5.9, 6.0, 0.0, 0.5));
    assert!(!is_stalling(5.9, 6.0, 0.3, 0.5), "moving");
    assert!(!is_stalling(2.0, 6.0, 0.0, 0.5), "not at the limit");
    assert!(
        !is_stalling(5.9, 6.0, 0.0, 0.0),
        "not commanded (holding on a slope)"
    );
    assert!(is_stalling(-6.0, 6.0, -0.01, -1.0), "backwards too");
}

#[test]
fn hud_warnings_in_order_of_urgency() {
    let spec = robot("scout");
    let mut hud = HudData::new(&spec, idle());
    let mut w = Vec::new();
    hud.warnings(&mut w);
    assert!(w.is_empty(), "{w:?}");
    // A stall shows only once it has held for STALL_HOLD.
    hud.tracks[0].stall_time = STALL_HOLD * 0.5;
    hud.warnings(&mut w);
    assert!(w.is_empty());
    hud.tracks[0].stall_time = STALL_HOLD;
    // Tipping backwards: 3° of margin left.
    hud.tilt = Tilt {
        nose_up: hud.limits.backward - 3f64.to_radians(),
        left_up: 0.0,
        upside_down: false,
    };
    hud.margins = hud.limits.margins(&hud.tilt);
    hud.level = tip_level(hud.margins.least().0, false);
    // A pad seen once and now gone.
    hud.set_input(Status {
        pad: PadState::Ready,
        ..idle()
    });
    hud.set_input(idle());
    hud.paused = true;
    hud.warnings(&mut w);
    assert!(matches!(
        w[0],
        Warning::Tip {
            level: TipLevel::Danger,
            direction: "backward",
            ..
        }
    ));
    assert_eq!(
        &w[1..],
        [Warning::Stall(0), Warning::PadLost, Warning::Paused]
    );
}

#[test]
fn keys_and_focus_loss_become_input_events() {
    use kiss3d::event::{Action, Key as K, Modifiers, WindowEvent};
    assert_eq!(translate_key(K::W), Some(Key::W));
    assert_eq!(translate_key(K::Back), Some(Key::Backspace));
    assert_eq!(translate_key(K::Return), Some(Key::Enter));
    assert_eq!(translate_key(K::Key7), Some(Key::Digit7));
    assert_eq!(translate_key(K::Numpad7), None);
    assert_eq!(
        translate_event(&WindowEvent::Key(
            K::Space,
            Action::Press,
            Modifiers::empty()
        )),
        Some(InputEvent::KeyDown(Key::Space))
    );
    assert_eq!(
        translate_event(&WindowEvent::Key(
            K::LShift,
            Action::Release,
            Modifiers::empty()
        )),
        Some(InputEvent::KeyUp(Key::LShift))
    );
    assert_eq!(
        translate_event(&WindowEvent::Focus(false)),
        Some(InputEvent::AllKeysUp)
    );
    assert_eq!(translate_event(&WindowEvent::Focus(true)), None);
    // Every key the mapping can name has a kiss3d key behind it (no dead bindings): the
    // translation covers all of them.
    let covered: Vec<Key> = ALL_KISS3D_KEYS
        .iter()
        .filter_map(|k| translate_key(*k))
        .collect();
    for k in Key::ALL {
        assert!(covered.contains(k), "no kiss3d key gives {k:?}");
    }
}

const ALL_KISS3D_KEYS: &[kiss3d::event::Key] = {
    use kiss3d::event::Key as K;
    &[
        K::A,
        K::B,
        K::C,
        K::D,
        K::E,
        K::F,
        K::G,
        K::H,
        K::I,
        K::J,
        K::K,
        K::L,
        K::M,
        K::N,
        K::O,
        K::P,
        K::Q,
        K::R,
        K::S,
        K::T,
        K::U,
        K::V,
        K::W,
        K::X,
        K::Y,
        K::Z,
        K::Key0,
        K::Key1,
        K::Key2,
        K::Key3,
        K::Key4,
        K::Key5,
        K::Key6,
        K::Key7,
        K::Key8,
        K::Key9,
        K::Space,
        K::Tab,
        K::Return,
        K::Escape,
        K::Back,
        K::Insert,
        K::Delete,
        K::Home,
        K::End,
        K::PageUp,
        K::PageDown,
        K::Up,
        K::Down,
        K::Left,
        K::Right,
        K::LShift,
        K::RShift,
        K::LControl,
        K::RControl,
        K::LAlt,
        K::RAlt,
        K::Minus,
        K::Equals,
        K::Comma,
        K::Period,
        K::Slash,
        K::Semicolon,
        K::F1,
        K::F2,
        K::F3,
        K::F4,
        K::F5,
        K::F6,
        K::F7,
        K::F8,
        K::F9,
        K::F10,
        K::F11,
        K::F12,
    ]
};

#[test]
fn one_belt_per_track_and_flipper() {
    for name in ["scout", "tracker55", "heavy250"] {
        let spec = robot(name);
        let model = TrackedRobot::new(spec.clone()).expect("valid robot");
        let refs = belt_refs(&model);
        assert_eq!(
            refs.len(),
            spec.tracks.len() + spec.flippers.len(),
            "{name}: {refs:?}"
        );
        for (r, t) in refs.iter().zip(&spec.tracks) {
            assert!(!r.flipper && r.y == t.y && r.width == t.belt.width);
        }
        for (r, f) in refs[spec.tracks.len()..].iter().zip(&spec.flippers) {
            assert!(r.flipper && r.y == f.y);
            assert_eq!(spec.tracks[r.track].name, f.track);
        }
    }
}

/// A robot driven off the flat scene's edge: the HUD's first warning is the out-of-bounds
/// banner, which asks for a reset, and the blow-up counter stays at 0 (the event is not a
/// blow-up); after `reset_robot` the banner is gone.
#[test]
fn out_of_bounds_shows_a_reset_banner_until_reset() {
    use treadsim::scene::Scene;
    use treadsim::sim::{RobotStatus, SimConfig, Simulation};
    use treadsim::vehicle::DriveCommand;
    use treadsim::viewer::hud::halted_text;
    let scene = Scene::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/flat.toml"))
        .expect("scene");
    let spawn = scene.spawns[0].clone();
    let spec = robot("scout");
    let mut sim = Simulation::new(scene, SimConfig::default()).expect("sim");
    let id = sim.add_robot(spec.clone(), &spawn).expect("robot");
    sim.teleport(id, &Isometry3::translation(14.0, 0.0, 0.005));
    sim.set_command(id, DriveCommand::belts(2.0, 2.0));
    sim.run_for(5.0);
    let mut hud = HudData::new(&spec, idle());
    hud.update(&sim, id, 0.002);
    let mut w = Vec::new();
    hud.warnings(&mut w);
    let status = sim.robot_status(id);
    assert!(matches!(status, RobotStatus::OutOfBounds { .. }));
    assert_eq!(w[0], Warning::Halted(status));
    assert!(
        halted_text(&status).contains("OUT OF BOUNDS") && halted_text(&status).contains("reset")
    );
    assert_eq!(hud.blow_ups, 0);
    sim.reset_robot(id, &spawn);
    sim.step();
    hud.update(&sim, id, 0.002);
    hud.warnings(&mut w);
    assert!(!w.iter().any(|x| matches!(x, Warning::Halted(_))), "{w:?}");
}

#[test]
fn a_station_replay_seeks_forwards_and_backwards_to_the_logged_state() {
    use treadsim::exercise::Exercise;
    use treadsim::record::LogWriter;
    use treadsim::session::headless;
    use treadsim::session::DriveScript;
    use treadsim::session::Session;
    use treadsim::sim::SimConfig;
    use treadsim::viewer::replay::ReplayCursor;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).expect("cd");
    let exercise_path = Path::new("scenes/exercises/curb_climb.toml");
    let exercise = Exercise::load(exercise_path).expect("exercise");
    let script = DriveScript::load(Path::new("scenes/exercises/scripts/curb_climb.pass.toml"))
        .expect("script");
    let dir = tempfile::tempdir().expect("temp dir");
    let log_path = dir.path().join("curb.mcap");
    let mut session = Session::exercise(&exercise, SimConfig::default()).expect("session");
    let mut writer = LogWriter::start(
        &mut session,
        &log_path,
        "run",
        &[
            ("exercise", exercise_path),
            ("scene", exercise.spec.scene.as_path()),
            ("robot", exercise.spec.robot.as_path()),
        ],
    )
    .expect("log");
    let mut run = headless::run_trial(session, Some(script), |s| writer.record(s).expect("record"));
    writer.finish(&mut run.session).expect("finish");

    let treadsim::launch::Launched {
        session: mut replayed,
        replayed: log,
        ..
    } = treadsim::launch::open(&treadsim::launch::Launch::Replay {
        log: log_path.clone(),
    })
    .expect("open");
    let mut cursor = ReplayCursor::new(log.expect("the log"));
    fn cursor_snapshot(path: &Path, t: f64) -> treadsim::sim::StateSnapshot {
        let log = treadsim::record::Log::read(path).expect("read");
        log.snapshots
            .into_iter()
            .find(|s| (s.time - t).abs() < 1e-9)
            .expect("a snapshot at that second")
    }
    for t in [20.0, 7.0, 31.0, 0.0] {
        cursor.seek(&mut replayed, t).expect("seek");
        assert_eq!(
            replayed
                .snapshot()
                .first_difference(&cursor_snapshot(&log_path, t)),
            None,
            "after seeking to {t} s"
        );
    }
    // Played to its end it stops there with the logged result.
    cursor.seek(&mut replayed, 1e9).expect("seek to the end");
    assert!(cursor.at_end(&replayed));
    assert_eq!(replayed.trial().map(|t| t.result().passed), Some(true));
    assert_eq!(cursor.events().len(), run.result.events.len());
}
