//! Recording and replay: a station-like session (drive commands, pause, reset, speed and view
//! changes, instructor link changes) is logged to MCAP and replays to identical snapshots; a log cut at any byte
//! replays up to its last complete second; logs that cannot be reproduced or read are refused
//! with a clear message; the MCAP file reads back with the `mcap` crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use treadsim::link::{CameraFaultKind, LinkChange};
use treadsim::record::header::VERSION;
use treadsim::record::{replay, Log, LogError, LogWriter};
use treadsim::scene::Scene;
use treadsim::session::{Input, Session};
use treadsim::sim::SimConfig;
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::DriveCommand;

/// A 20 × 20 m floor with a 0.10 m curb ahead of the spawn.
const SCENE: &str = "[scene]\nname = \"record test\"\n\
    [[element]]\ntype = \"box\"\nsize = [20, 20, 0.2]\nposition = [0, 0, -0.2]\n\
    [[element]]\ntype = \"box\"\nsize = [0.6, 4, 0.10]\nposition = [1.2, 0, 0]\n\
    [[spawn]]\nname = \"start\"\nposition = [0, 0, 0]\n";

/// Scene and robot files in a fresh folder.
struct Files {
    dir: tempfile::TempDir,
    scene: PathBuf,
    robot: PathBuf,
}

fn files() -> Files {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("scene.toml");
    let robot = dir.path().join("scout.toml");
    std::fs::write(&scene, SCENE).expect("write scene");
    std::fs::copy("scenes/robots/scout.toml", &robot).expect("copy robot");
    Files { dir, scene, robot }
}

fn session_with(f: &Files, config: SimConfig) -> Session {
    let scene = Scene::load(&f.scene).expect("scene");
    let robot = load_robot(&f.robot).expect("robot");
    let spawn = scene.spawns[0].clone();
    Session::free(scene, robot, spawn, config).expect("session")
}

fn go(left: f64, right: f64, flipper: Option<f64>) -> Input {
    Input::Drive(DriveCommand {
        left,
        right,
        flipper,
        steer: None,
    })
}

/// Steps of `seconds` s at the simulator's step.
fn steps_of(seconds: f64) -> u64 {
    steps_at(seconds, SimConfig::default().dt)
}

/// Steps of `seconds` s at a step of `dt` s.
fn steps_at(seconds: f64, dt: f64) -> u64 {
    (seconds / dt).round() as u64
}

/// Inputs as a station produces them, by the step they come before (several may share one,
/// and a pause holds the steps until the resume in the same list): planned in seconds, so the
/// session is the same drive at any step.
fn station_inputs(dt: f64) -> Vec<(u64, Vec<Input>)> {
    let plan = vec![
        (0.0, vec![go(0.5, 0.5, None), Input::Speed(2.0)]),
        (
            0.8,
            vec![
                Input::Pause(true),
                Input::View("chase".into()),
                Input::Speed(0.5),
                Input::Pause(false),
            ],
        ),
        (1.4, vec![go(0.6, -0.6, Some(0.4))]),
        (2.2, vec![Input::Reset, Input::View("front".into())]),
        (2.6, vec![go(0.4, 0.45, Some(0.0))]),
        (3.6, vec![Input::Pause(true), Input::Pause(false)]),
        (4.2, vec![go(-0.3, -0.3, None)]),
        (
            4.4,
            vec![Input::Link(LinkChange::Dropout { duration: 0.2 })],
        ),
        (
            4.5,
            vec![Input::Link(LinkChange::CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Dead,
            })],
        ),
        (4.7, vec![Input::Link(LinkChange::CommandLatency(0.25))]),
    ];
    plan.into_iter()
        .map(|(at, inputs)| (steps_at(at, dt), inputs))
        .collect()
}

/// Records a session of `seconds` s with the station-like inputs into `log`, draining the
/// journal every 8 steps as a station frame would; returns the inputs applied.
fn record(f: &Files, log: &Path, seconds: f64) -> usize {
    record_with(f, log, seconds, SimConfig::default())
}

/// [`record`] with the simulation settings `config`.
fn record_with(f: &Files, log: &Path, seconds: f64, config: SimConfig) -> usize {
    let steps = steps_at(seconds, config.dt);
    let mut s = session_with(f, config);
    let mut writer = LogWriter::start(
        &mut s,
        log,
        "station",
        &[("scene", f.scene.as_path()), ("robot", f.robot.as_path())],
    )
    .expect("start log");
    let plan = station_inputs(config.dt);
    let mut applied = 0;
    while s.sim().steps() < steps {
        let step = s.sim().steps();
        if let Some((_, inputs)) = plan.iter().find(|(at, _)| *at == step) {
            for input in inputs {
                s.apply(input.clone());
                applied += 1;
                // While paused the front end keeps calling step: nothing moves.
                if s.is_paused() {
                    assert!(!s.step());
                    assert_eq!(s.sim().steps(), step);
                }
            }
        }
        assert!(s.step());
        if step.is_multiple_of(8) {
            writer.record(&mut s).expect("record");
        }
    }
    writer.finish(&mut s).expect("finish");
    applied
}

#[test]
fn a_station_like_session_replays_to_identical_snapshots() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    let applied = record(&f, &path, 5.0);
    let log = Log::read(&path).expect("read");
    assert_eq!(log.truncated, None);
    assert_eq!(log.inputs.len(), applied);
    assert_eq!(log.header.version, VERSION);
    assert_eq!(log.header.tracks, ["left", "right"]);
    // A snapshot at the start and every simulated second: 0, 1, .., 5 s.
    let times: Vec<f64> = log.snapshots.iter().map(|s| s.time).collect();
    assert_eq!(log.snapshots.len(), 6, "{times:?}");
    assert_eq!(log.end.as_ref().map(|e| e.step), Some(steps_of(5.0)));
    // 100 Hz telemetry.
    assert_eq!(log.telemetry.len(), 500);
    // The reset shows as the robot back near the spawn in the telemetry.
    let x_at = |t: f64| {
        log.telemetry
            .iter()
            .find(|v| v["time"].as_f64().unwrap() >= t)
            .map(|v| v["position"]["x"].as_f64().unwrap())
            .unwrap()
    };
    assert!(x_at(2.19) > 0.3, "drove forward before the reset");
    assert!(x_at(2.21).abs() < 0.02, "back at the spawn after it");

    let outcome = replay(&log, true, |_| {}).expect("replay");
    assert_eq!(outcome.divergence, None);
    assert_eq!(outcome.snapshots_checked, 6);
    assert_eq!(outcome.steps, steps_of(5.0));
    assert!(outcome.reproduced());
}

/// A log keeps the step and contact solve it was written with and replays at them, bit for
/// bit, whatever the default is now: a log of the explicit 2 ms step (the default until issue
/// 35) and one of the implicit 5 ms step both verify.
#[test]
fn a_log_replays_at_its_own_step_and_contact_solve() {
    let f = files();
    for (dt, implicit) in [(0.002, false), (0.005, true)] {
        let config = SimConfig {
            dt,
            implicit_contacts: implicit,
            ..SimConfig::default()
        };
        let path = f.dir.path().join(format!("run-{dt}.mcap"));
        record_with(&f, &path, 3.0, config);
        let log = Log::read(&path).expect("read");
        assert_eq!(log.header.dt, dt);
        assert_eq!(log.header.implicit_contacts, implicit);
        assert_eq!(log.header.sim_config(), config);
        let outcome = replay(&log, true, |_| {}).expect("replay");
        assert_eq!(outcome.divergence, None, "{dt} s");
        assert_eq!(outcome.steps, steps_at(3.0, dt));
        assert_eq!(outcome.snapshots_checked, 4, "{dt} s");
        assert!(outcome.reproduced());
    }
}

#[test]
fn a_different_input_is_caught_as_a_divergence_naming_time_and_quantity() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    record(&f, &path, 3.0);
    let mut log = Log::read(&path).expect("read");
    // The right belt's command of the turn (1.4 s) changed in its last bit.
    let input = log
        .inputs
        .iter_mut()
        .find(|i| i.step == steps_of(1.4))
        .expect("the turn");
    let Input::Drive(c) = &mut input.input else {
        panic!("not a drive command")
    };
    c.right = f64::from_bits(c.right.to_bits() + 1);
    let outcome = replay(&log, true, |_| {}).expect("replay");
    let d = outcome.divergence.clone().expect("diverges");
    assert_eq!(
        d.time, 2.0,
        "the first snapshot after the turn is at 2 s: {d}"
    );
    assert!(d.quantity.starts_with("robot0."), "{d}");
    assert!(!outcome.reproduced());
}

/// splitmix64, for cut offsets.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn a_log_cut_at_any_byte_replays_up_to_its_last_complete_second() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    record(&f, &path, 5.0);
    let bytes = std::fs::read(&path).expect("read");
    let whole = Log::from_bytes(&path, &bytes).expect("whole");
    let mut seed = 7;
    let mut cuts: Vec<usize> = (0..120)
        .map(|_| (next(&mut seed) % bytes.len() as u64) as usize)
        .collect();
    cuts.extend([0, 1, 8, bytes.len() - 1]);
    cuts.sort_unstable();
    let (mut refused, mut replayed, mut last_snapshots) = (0, 0, 0);
    for cut in cuts {
        let log = match Log::from_bytes(&path, &bytes[..cut]) {
            Ok(log) => log,
            Err(LogError::Malformed { message, .. }) => {
                // Only before the header is whole (the first flush).
                assert!(
                    message.contains("is empty") || message.contains("before its header"),
                    "cut at {cut}: {message}"
                );
                assert_eq!(replayed, 0, "cut at {cut}: refused after a readable cut");
                refused += 1;
                continue;
            }
            Err(e) => panic!("cut at {cut}: {e}"),
        };
        let why = log.truncated.as_deref().expect("a cut log says it is cut");
        assert!(!why.is_empty());
        // Never more than the whole log, never fewer snapshots than a shorter cut.
        assert!(log.snapshots.len() <= whole.snapshots.len());
        assert!(log.snapshots.len() >= last_snapshots, "cut at {cut}");
        last_snapshots = log.snapshots.len();
        for (a, b) in log.snapshots.iter().zip(&whole.snapshots) {
            assert_eq!(a.first_difference(b), None, "cut at {cut}");
        }
        let outcome = replay(&log, true, |_| {}).expect("replay of a cut log");
        assert_eq!(outcome.divergence, None, "cut at {cut}");
        assert_eq!(outcome.steps, log.last_complete_step(), "cut at {cut}");
        assert_eq!(
            outcome.steps % steps_of(1.0),
            0,
            "a whole second, cut at {cut}"
        );
        assert_eq!(
            outcome.snapshots_checked,
            log.snapshots.len(),
            "cut at {cut}"
        );
        replayed += 1;
    }
    assert!(
        replayed >= 100,
        "{replayed} cuts replayed, {refused} refused"
    );
}

#[test]
fn a_changed_scene_file_or_another_version_is_refused() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    record(&f, &path, 1.2);
    let log = Log::read(&path).expect("read");
    std::fs::write(&f.scene, format!("{SCENE}# edited\n")).expect("edit scene");
    match replay(&log, true, |_| {}) {
        Err(e @ LogError::FileChanged { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("scene file") && text.contains("has changed"),
                "{text}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    std::fs::remove_file(&f.scene).expect("remove scene");
    let e = replay(&log, true, |_| {}).unwrap_err();
    assert!(e.to_string().contains("cannot be read"), "{e}");

    let mut old = log.clone();
    old.header.version = "0.0.1".into();
    let e = replay(&old, true, |_| {}).unwrap_err();
    assert!(matches!(e, LogError::Version { .. }), "{e}");
    assert!(e.to_string().contains("recorded by treadsim 0.0.1"), "{e}");
}

/// An MCAP file with the given `(topic, JSON text)` messages, in order.
fn mcap_with(messages: &[(&str, &str)]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut w = mcap::Writer::new(&mut out).expect("writer");
        let meta = BTreeMap::new();
        for (i, (topic, data)) in messages.iter().enumerate() {
            let channel = w.add_channel(0, topic, "json", &meta).expect("channel");
            w.write_to_known_channel(
                &mcap::records::MessageHeader {
                    channel_id: channel,
                    sequence: i as u32,
                    log_time: i as u64,
                    publish_time: i as u64,
                },
                data.as_bytes(),
            )
            .expect("write");
        }
        w.finish().expect("finish");
    }
    out.into_inner()
}

#[test]
fn malformed_logs_get_clear_errors() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    record(&f, &path, 0.02);
    let good = Log::read(&path).expect("read");
    let header = serde_json::to_string(&good.header).expect("header json");
    let input = r#"{"step":0,"time":0,"kind":"reset"}"#;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty file", vec![], "the file is empty"),
        ("text", b"hello, world".to_vec(), "not an MCAP file"),
        (
            "no header",
            mcap_with(&[("/input", input)]),
            "comes before the header",
        ),
        ("nothing", mcap_with(&[]), "no /header message"),
        (
            "header not JSON",
            mcap_with(&[("/header", "{oops")]),
            "not JSON",
        ),
        (
            "header of something else",
            mcap_with(&[("/header", r#"{"program":"other"}"#)]),
            "not a treadsim header",
        ),
        (
            "two headers",
            mcap_with(&[("/header", &header), ("/header", &header)]),
            "a second header",
        ),
        (
            "unknown input",
            mcap_with(&[
                ("/header", &header),
                ("/input", r#"{"step":0,"time":0,"kind":"jump"}"#),
            ]),
            "unknown kind 'jump'",
        ),
        (
            "snapshot without values",
            mcap_with(&[
                ("/header", &header),
                ("/snapshot", r#"{"step":0,"time":0,"names":["a"]}"#),
            ]),
            "'values' is not a list",
        ),
        (
            "snapshots out of order",
            mcap_with(&[
                ("/header", &header),
                ("/snapshot", r#"{"step":5,"time":0,"names":[],"values":[]}"#),
                ("/snapshot", r#"{"step":5,"time":0,"names":[],"values":[]}"#),
            ]),
            "out of order",
        ),
        (
            "event without text",
            mcap_with(&[
                ("/header", &header),
                ("/event", r#"{"time":1,"source":"sim"}"#),
            ]),
            "'text' is not text",
        ),
        (
            "message after the end",
            mcap_with(&[
                ("/header", &header),
                ("/end", r#"{"step":0,"time":0}"#),
                ("/input", input),
            ]),
            "after the end record",
        ),
    ];
    for (name, bytes, want) in cases {
        match Log::from_bytes(Path::new("bad.mcap"), &bytes) {
            Err(e) => {
                let text = e.to_string();
                assert!(text.starts_with("bad.mcap: "), "{name}: {text}");
                assert!(text.contains(want), "{name}: {text}");
            }
            Ok(_) => panic!("{name}: read without error"),
        }
    }
}

#[test]
fn the_mcap_file_reads_back_with_the_mcap_crate() {
    let f = files();
    let path = f.dir.path().join("run.mcap");
    let applied = record(&f, &path, 2.0);
    let bytes = std::fs::read(&path).expect("read");
    let summary = mcap::Summary::read(&bytes)
        .expect("summary")
        .expect("a finished log has a summary");
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let stats = summary.stats.as_ref().expect("statistics");
    for (id, channel) in &summary.channels {
        let schema = channel.schema.as_ref().expect("every channel has a schema");
        assert_eq!(schema.encoding, "jsonschema", "{}", channel.topic);
        assert_eq!(channel.message_encoding, "json", "{}", channel.topic);
        let schema_json: serde_json::Value =
            serde_json::from_slice(&schema.data).expect("schema is JSON");
        assert_eq!(schema_json["type"], "object");
        counts.insert(
            channel.topic.clone(),
            stats.channel_message_counts.get(id).copied().unwrap_or(0),
        );
    }
    let want: BTreeMap<String, u64> = [
        ("/header", 1),
        ("/input", applied as u64),
        ("/snapshot", 3),
        ("/telemetry", 200),
        ("/event", 0),
        ("/end", 1),
        // Foxglove's view of it: the scene once, the robot's pose with every telemetry row.
        ("/foxglove/scene", 1),
        ("/foxglove/transforms", 200),
    ]
    .into_iter()
    .map(|(t, n)| (t.to_owned(), n))
    .collect();
    // The flippers' belts: at the start, then only while they turn (the inputs move them once),
    // never more than every 0.1 s of the 2 s.
    let bodies = counts.remove("/foxglove/bodies").unwrap_or(0);
    assert!((2..=10).contains(&bodies), "{bodies} bodies messages");
    assert_eq!(counts, want);
    // Every message decodes as JSON, in log-time order within its channel.
    let mut last: BTreeMap<String, u64> = BTreeMap::new();
    for m in mcap::MessageStream::new(&bytes).expect("stream") {
        let m = m.expect("message");
        let _: serde_json::Value = serde_json::from_slice(&m.data).expect("JSON message");
        let prev = last
            .insert(m.channel.topic.clone(), m.log_time)
            .unwrap_or(0);
        assert!(m.log_time >= prev, "{}", m.channel.topic);
    }
}

/// Records a trial of a shipped exercise driven by one of its scripts, as `treadsim run
/// --exercise` does.
fn record_trial(stem: &str, script: &str, log: &Path) -> treadsim::exercise::TrialResult {
    use treadsim::exercise::Exercise;
    use treadsim::session::headless;
    let path = PathBuf::from(format!("scenes/exercises/{stem}.toml"));
    let exercise = Exercise::load(&path).expect("exercise");
    let script_path = PathBuf::from(format!("scenes/exercises/scripts/{stem}.{script}.toml"));
    let script = treadsim::session::DriveScript::load(&script_path).expect("script");
    let mut s = Session::exercise(&exercise, SimConfig::default()).expect("session");
    let mut writer = LogWriter::start(
        &mut s,
        log,
        "run",
        &[
            ("exercise", path.as_path()),
            ("scene", exercise.spec.scene.as_path()),
            ("robot", exercise.spec.robot.as_path()),
            ("script", script_path.as_path()),
        ],
    )
    .expect("start log");
    let mut run = headless::run_trial(s, Some(script), |s| writer.record(s).expect("record"));
    writer.finish(&mut run.session).expect("finish");
    run.result
}

/// Share of pixels that are not white, and the number of distinct colours, of a PNG.
fn ink(png: &Path) -> (f64, usize) {
    let img = image::open(png).expect("PNG decodes").to_rgb8();
    let mut colours = std::collections::BTreeSet::new();
    let mut inked = 0usize;
    for p in img.pixels() {
        if p.0 != [255, 255, 255] {
            inked += 1;
        }
        colours.insert(p.0);
    }
    (
        inked as f64 / (img.width() * img.height()) as f64,
        colours.len(),
    )
}

#[test]
fn a_trial_log_replays_with_its_result_and_a_report_renders_and_compares_attempts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fail_log = dir.path().join("attempt1.mcap");
    let pass_log = dir.path().join("attempt2.mcap");
    let failed = record_trial("curb_climb", "fail", &fail_log);
    let passed = record_trial("curb_climb", "pass", &pass_log);
    assert!(!failed.passed && passed.passed);
    let logs: Vec<Log> = [&fail_log, &pass_log]
        .iter()
        .map(|p| Log::read(p).expect("read"))
        .collect();
    // The trial replays to the same snapshots and the same result.
    let outcome = replay(&logs[1], true, |_| {}).expect("replay");
    assert!(outcome.reproduced(), "{outcome:?}");
    assert_eq!(outcome.result_matches, Some(true));
    // Exercise events are logged with the trial's own text.
    let goal_events = logs[1]
        .events
        .iter()
        .filter(|e| e.source == "exercise" && e.detail["type"] == "goal")
        .count();
    assert_eq!(goal_events, 2, "one goal per repetition, 2 repetitions");

    let out = dir.path().join("report");
    let mut fractions = Vec::new();
    let files =
        treadsim::record::report::write_report(logs, &out, |f| fractions.push(f)).expect("report");
    assert_eq!(fractions.last(), Some(&1.0));
    let html = std::fs::read_to_string(&files.index).expect("index");
    for want in [
        "Attempts at “Curb 0.20 m, up and back”",
        "<span class=\"fail\">FAIL</span>",
        "<span class=\"pass\">PASS</span>",
        "attempt1-trajectory.png",
        "attempt2-belts.svg",
        "Timeline",
        "reached whole robot on the curb",
    ] {
        assert!(html.contains(want), "index.html lacks {want}");
    }
    // Two runs x 3 figures + the comparison, each as PNG and SVG.
    assert_eq!(files.figures.len(), 14);
    for f in &files.figures {
        let bytes = std::fs::metadata(f).expect("figure written").len();
        assert!(bytes > 2_000, "{} is {bytes} bytes", f.display());
        if f.extension().is_some_and(|e| e == "png") {
            let (share, colours) = ink(f);
            assert!(
                share > 0.02 && colours > 8,
                "{} is blank: {share} inked, {colours} colours",
                f.display()
            );
        } else {
            let svg = std::fs::read_to_string(f).expect("svg");
            assert!(
                svg.starts_with("<svg") && svg.contains("<polyline"),
                "{}",
                f.display()
            );
        }
    }
}

#[test]
fn a_free_driving_log_reports_without_an_exercise() {
    let f = files();
    let path = f.dir.path().join("drive.mcap");
    record(&f, &path, 2.4);
    let out = f.dir.path().join("report");
    let files =
        treadsim::record::report::write_report(vec![Log::read(&path).expect("read")], &out, |_| {})
            .expect("report");
    let html = std::fs::read_to_string(&files.index).expect("index");
    assert!(html.contains("scout on record test"), "{html}");
    assert!(!html.contains("Attempts at"));
    assert_eq!(files.figures.len(), 6);
    let (share, _) = ink(&out.join("01-drive-trajectory.png"));
    assert!(share > 0.5, "the plan is shaded: {share}");
}

#[test]
fn a_changed_mesh_file_of_the_scene_is_refused() {
    let f = files();
    std::fs::copy(
        "scenes/meshes/jersey_barrier.obj",
        f.dir.path().join("barrier.obj"),
    )
    .expect("copy mesh");
    let scene_text = format!(
        "{SCENE}[[element]]\ntype = \"mesh\"\nfile = \"barrier.obj\"\nposition = [4, 0, 0]\n"
    );
    std::fs::write(&f.scene, &scene_text).expect("write scene");
    let path = f.dir.path().join("run.mcap");
    record(&f, &path, 1.2);
    let log = Log::read(&path).expect("read");
    let mesh = log.header.file("mesh").expect("the mesh is in the header");
    assert!(
        mesh.path.ends_with("barrier.obj"),
        "{}",
        mesh.path.display()
    );
    assert!(replay(&log, true, |_| {}).expect("replay").reproduced());
    let mut obj = std::fs::read_to_string(f.dir.path().join("barrier.obj")).expect("read mesh");
    obj.push_str("# edited\n");
    std::fs::write(f.dir.path().join("barrier.obj"), obj).expect("edit mesh");
    let e = replay(&log, true, |_| {}).unwrap_err();
    assert!(
        e.to_string().contains("mesh file") && e.to_string().contains("has changed"),
        "{e}"
    );
}

#[test]
fn a_missing_log_says_why_once() {
    // Regression: the I/O reason was both in the message and the error's source, so the
    // command line printed it twice.
    let e = Log::read(Path::new("no/such/log.mcap")).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("no/such/log.mcap: "), "{text}");
    assert!(std::error::Error::source(&e).is_none(), "{text}");
    assert_eq!(anyhow::Error::from(e).chain().count(), 1);
}
