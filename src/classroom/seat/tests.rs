//! The seat's rules without a network: commands in order and out of it, reports, logs that replay,
//! interrupted trials, external control.

use super::*;
use crate::record::{replay, Log};

fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn seat(dir: &Path, script: Option<&str>) -> Seat {
    Seat::new(SeatOptions {
        name: "s1".into(),
        trainee: Some("t1".into()),
        script: script.map(manifest),
        exercises: manifest("scenes/exercises"),
        logs: dir.join("logs"),
        outbox: dir.join("outbox"),
        speed: 1.0,
    })
    .unwrap()
}

/// Runs the seat for `seconds` of wall time in 20 ms ticks.
fn run_for(seat: &mut Seat, seconds: f64) -> Vec<SeatEvent> {
    let mut events = Vec::new();
    for _ in 0..(seconds / 0.02).round() as usize {
        events.extend(seat.advance(0.02).unwrap());
    }
    events
}

#[test]
fn commands_are_carried_out_in_order_refused_out_of_it_and_the_log_replays_bit_exact() {
    let dir = tempfile::tempdir().unwrap();
    let mut seat = seat(
        dir.path(),
        Some("scenes/exercises/scripts/curb_climb.pass.toml"),
    );
    assert!(seat
        .command(&Command::Start)
        .unwrap_err()
        .contains("no exercise"));
    let assign = Command::Assign {
        exercise: "curb_climb".into(),
        sha256: None,
        trainee: None,
        bundle: None,
    };
    seat.command(&assign).unwrap();
    assert_eq!(seat.state(), SeatState::Ready);
    assert!(seat.command(&Command::Pause).unwrap_err().contains("ready"));
    seat.command(&Command::Start).unwrap();
    run_for(&mut seat, 1.0);
    let clock = seat.status().clock_s;
    assert!((clock - 1.0).abs() < 0.05, "{clock}");
    seat.command(&Command::Pause).unwrap();
    run_for(&mut seat, 0.5);
    assert_eq!(seat.status().clock_s, clock, "paused: the clock stands");
    let latency = serde_json::json!({"change": "command_latency", "seconds": 0.2});
    let link = seat.command(&Command::Link { change: latency });
    // Darkness: the instructor turns the lights off, and on again.
    let dark = serde_json::json!({"change": "light", "level": 0.02});
    seat.command(&Command::Link { change: dark }).unwrap();
    let light = |seat: &Seat| seat.session().unwrap().link().ambient_light;
    assert_eq!(light(&seat), Some(0.02));
    let too_bright = serde_json::json!({"change": "light", "level": 2.0});
    let refused = seat.command(&Command::Link { change: too_bright });
    assert!(refused.unwrap_err().contains("0 to 1"));
    let day = serde_json::json!({"change": "light", "level": null});
    seat.command(&Command::Link { change: day }).unwrap();
    assert_eq!(light(&seat), None);
    seat.command(&Command::Resume).unwrap();
    seat.command(&Command::TakeOver).unwrap();
    assert!(seat.status().autopilot);
    run_for(&mut seat, 1.0);
    seat.command(&Command::HandBack).unwrap();
    assert!(seat.command(&Command::HandBack).is_err());
    seat.command(&Command::Reset).unwrap();
    run_for(&mut seat, 0.5);
    seat.command(&Command::End).unwrap();
    let events = run_for(&mut seat, 0.1);
    assert_eq!(seat.state(), SeatState::Finished);
    assert!(
        events.iter().any(|e| e.event["type"] == "finished"),
        "{events:?}"
    );
    let pending = seat.outbox().pending().unwrap();
    assert_eq!(pending.len(), 1);
    let report = pending[0].as_ref().unwrap();
    assert_eq!(report.status, AttemptStatus::Failed);
    assert_eq!(report.reason, crate::session::ENDED_BY_INSTRUCTOR);
    assert_eq!(report.faults, 1, "the reset is a fault");
    assert_eq!(report.trainee.as_deref(), Some("t1"));
    let log = report.log.as_ref().unwrap();
    let read = Log::read(Path::new(log)).unwrap();
    let outcome = replay(&read, true, |_| {}).unwrap();
    assert!(outcome.divergence.is_none(), "{:?}", outcome.divergence);
    assert_eq!(outcome.result_matches, Some(true));
    assert!(outcome.snapshots_checked > 0);
    // The link change was one the log's form knows (or its refusal says why).
    if let Err(why) = link {
        panic!("link change refused: {why}");
    }
}

#[test]
fn a_seat_that_stops_mid_trial_files_the_attempt_unfinished_at_its_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = seat(
        dir.path(),
        Some("scenes/exercises/scripts/curb_climb.pass.toml"),
    );
    let assign = Command::Assign {
        exercise: "curb_climb".into(),
        sha256: None,
        trainee: None,
        bundle: None,
    };
    first.command(&assign).unwrap();
    first.command(&Command::Start).unwrap();
    run_for(&mut first, 6.0);
    let attempt = first.attempt_id().unwrap().to_owned();
    // The seat's program ends here (killed: nothing more is written).
    drop(first);
    assert_eq!(
        Outbox::open(&dir.path().join("outbox"))
            .unwrap()
            .count()
            .unwrap(),
        0
    );
    let again = seat(dir.path(), None);
    let pending = again.outbox().pending().unwrap();
    assert_eq!(pending.len(), 1);
    let report = pending[0].as_ref().unwrap();
    assert_eq!(report.attempt, attempt);
    assert_eq!(report.status, AttemptStatus::Unfinished);
    assert_eq!(report.reason, super::super::outbox::INTERRUPTED);
    // Noted every 5 s of trial clock: it reached 5 s at least.
    assert!(report.duration_s >= 5.0, "{}", report.duration_s);
    assert_eq!(report.trainee.as_deref(), Some("t1"));
    // Once filed, a third start files nothing more.
    drop(again);
    assert_eq!(seat(dir.path(), None).outbox().count().unwrap(), 1);
}

/// An external operator that drives forward at 0.2 m/s.
struct Forward;

impl Driver for Forward {
    fn before_step(&mut self, session: &mut Session) {
        let forward = crate::vehicle::DriveCommand {
            left: 0.2,
            right: 0.2,
            ..crate::vehicle::DriveCommand::STOP
        };
        if session.operator_command() != forward {
            session.apply(Input::Drive(forward));
        }
    }
}

#[test]
fn the_instructor_sees_external_control_and_revokes_and_allows_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut plain = seat(dir.path(), None);
    let revoke = Command::External { allowed: false };
    assert!(plain
        .command(&revoke)
        .unwrap_err()
        .contains("no external control"));
    assert_eq!(plain.status().external, None);
    let mut seat = seat(&dir.path().join("ros"), None);
    seat.operate_with("ros2", Box::new(|_| Box::new(Forward)));
    let file = manifest("scenes/exercises/figure8.toml");
    seat.load("figure8", &file, None, None).unwrap();
    seat.command(&Command::Start).unwrap();
    run_for(&mut seat, 0.5);
    let speed = |seat: &Seat| seat.session().unwrap().operator_command().left;
    assert_eq!(speed(&seat), 0.2);
    let status = seat.status();
    assert!(status.operator_input);
    assert_eq!(
        status.external,
        Some(ExternalControl {
            kind: "ros2".into(),
            allowed: true
        })
    );
    // Revoked: the robot stops and stays stopped whatever the control unit sends.
    seat.command(&revoke).unwrap();
    run_for(&mut seat, 0.5);
    assert_eq!(speed(&seat), 0.0);
    assert!(!seat.status().external.unwrap().allowed);
    // Allowed again: it drives the robot once more.
    seat.command(&Command::External { allowed: true }).unwrap();
    run_for(&mut seat, 0.2);
    assert_eq!(speed(&seat), 0.2);
}

#[test]
fn a_passing_script_passes_and_a_new_assignment_waits_for_the_trial_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut seat = seat(
        dir.path(),
        Some("scenes/exercises/scripts/dexterity_inspect_rack.pass.toml"),
    );
    let file = manifest("scenes/exercises/dexterity_inspect_rack.toml");
    seat.load("rack", &file, None, Some("t2")).unwrap();
    seat.command(&Command::Start).unwrap();
    let again = seat.load("rack", &file, None, None);
    assert!(again.unwrap_err().contains("under way"));
    let mut wall = 0.0;
    while seat.state() == SeatState::Running && wall < 60.0 {
        seat.advance(0.5).unwrap();
        wall += 0.5;
    }
    let pending = seat.outbox().pending().unwrap();
    let report = pending[0].as_ref().unwrap();
    assert_eq!(report.status, AttemptStatus::Passed, "{}", report.reason);
    assert_eq!(report.trainee.as_deref(), Some("t2"));
    assert_eq!(report.exercise, "rack");
    // A finished seat takes the next assignment.
    seat.load("rack", &file, None, None).unwrap();
    assert_eq!(seat.state(), SeatState::Ready);
}
