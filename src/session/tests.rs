//! Session tests: pause, reset, views in a trainee trial, the journal's cadence, determinism.

use super::testing::{free, trial};
use super::*;
use crate::exercise::FaultKind;

fn go(v: f64) -> Input {
    Input::Drive(DriveCommand::belts(v, v))
}

#[test]
fn a_paused_session_does_not_step_and_resumes_where_it_stopped() {
    let mut s = free();
    s.apply(go(0.5));
    for _ in 0..100 {
        assert!(s.step());
    }
    s.apply(Input::Pause(true));
    let before = s.snapshot();
    for _ in 0..50 {
        assert!(!s.step());
    }
    assert_eq!(s.snapshot().first_difference(&before), None);
    s.apply(Input::Pause(false));
    assert!(s.step());
    assert_eq!(s.sim().steps(), 101);
}

#[test]
fn a_reset_puts_a_free_robot_back_at_its_spawn_and_is_a_fault_in_a_trial() {
    let mut s = free();
    s.apply(go(0.5));
    for _ in 0..1000 {
        s.step();
    }
    let x = s.sim().body_state(s.robot()).pose.translation.x;
    assert!(x > 0.4, "drove {x} m");
    s.apply(Input::Reset);
    let x = s.sim().body_state(s.robot()).pose.translation.x;
    assert!(x.abs() < 1e-6, "back at the spawn: {x}");

    let mut t = trial("");
    t.apply(go(0.5));
    for _ in 0..500 {
        t.step();
    }
    t.apply(Input::Reset);
    let trial = t.trial().expect("trial");
    assert_eq!(trial.faults(), 1);
    assert!(
        trial.events().iter().any(|e| matches!(
            e,
            crate::exercise::ExerciseEvent::Fault {
                kind: FaultKind::Reset,
                ..
            }
        )),
        "{:?}",
        trial.events()
    );
}

#[test]
fn a_third_person_view_fails_a_trainee_trial_and_an_onboard_one_does_not() {
    let mut t = trial("[rules]\ntrainee = true\n");
    t.apply(Input::View("rear".into()));
    t.step();
    assert!(!t.trial_finished());
    t.apply(Input::View("chase".into()));
    let outcome = t.trial().and_then(|tr| tr.outcome()).expect("ended");
    assert!(
        !outcome.0 && outcome.1.contains("forbidden view 'chase'"),
        "{outcome:?}"
    );
    // Without the rule any view is fine.
    let mut free_view = trial("");
    free_view.apply(Input::View("chase".into()));
    assert!(!free_view.trial_finished());
}

#[test]
fn the_journal_keeps_inputs_at_their_steps_and_samples_on_its_cadence() {
    let mut s = free();
    // Two simulated seconds at whatever the step is: a snapshot each second, telemetry at
    // 100 Hz.
    let per_second = (1.0 / s.sim().config().dt).round() as u64;
    s.start_journal();
    s.apply(go(0.3));
    for _ in 0..2 * per_second {
        s.step();
    }
    s.apply(Input::Speed(100.0));
    let j = s.journal_mut().expect("journal");
    let steps: Vec<u64> = j.inputs.iter().map(|i| i.step).collect();
    assert_eq!(steps, [0, 2 * per_second]);
    // The speed is clamped to the station's range.
    assert_eq!(j.inputs[1].input, Input::Speed(100.0));
    let snapshot_steps: Vec<u64> = j.snapshots.iter().map(|s| s.step).collect();
    assert_eq!(snapshot_steps, [0, per_second, 2 * per_second]);
    assert_eq!(j.telemetry.len(), 200);
    assert!((j.telemetry[0].row.t - 0.01).abs() < 1e-12);
    j.clear();
    assert!(j.is_empty());
    assert_eq!(s.speed(), SPEED_RANGE.1);
}

#[test]
fn the_same_inputs_give_the_same_state_bit_for_bit_and_a_different_one_does_not() {
    let run = |v: f64| {
        let mut s = free();
        s.apply(Input::Drive(DriveCommand {
            left: v,
            right: 0.4,
            flipper: Some(0.3),
            steer: None,
        }));
        for _ in 0..1500 {
            s.step();
        }
        s.snapshot()
    };
    let a = run(0.5);
    assert_eq!(run(0.5).first_difference(&a), None);
    let d = run(f64::from_bits(0.5f64.to_bits() + 1))
        .first_difference(&a)
        .expect("one ulp of command changes the state");
    assert!(d.quantity.starts_with("robot0."), "{d}");
}

#[test]
fn an_instructor_dropout_stops_the_robot_within_one_step() {
    use crate::link::LinkChange;
    let mut s = free();
    s.apply(go(0.5));
    for _ in 0..500 {
        s.step();
    }
    assert_eq!(s.sim().robot(s.robot()).command().left, 0.5);
    s.apply(Input::Link(LinkChange::Dropout { duration: 1.0 }));
    s.step();
    assert_eq!(s.sim().robot(s.robot()).command(), DriveCommand::STOP);
    for _ in 0..600 {
        s.step();
    }
    assert_eq!(
        s.sim().robot(s.robot()).command().left,
        0.5,
        "driving again after 1 s"
    );
}
