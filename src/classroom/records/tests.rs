//! The records against a real SQLite file: stored once, migrations, permissions, proficiency.
use super::*;
use crate::classroom::protocol::PROTOCOL_VERSION;

pub(crate) fn report(attempt: &str, trainee: &str, status: AttemptStatus) -> AttemptReport {
    AttemptReport {
        protocol: PROTOCOL_VERSION,
        attempt: attempt.into(),
        seat: "s1".into(),
        trainee: Some(trainee.into()),
        exercise: "stairs_35".into(),
        exercise_sha256: "ab".repeat(32),
        robot: "scout".into(),
        started_unix_s: 1000.0 + attempt.len() as f64,
        duration_s: 42.5,
        status,
        score: if status == AttemptStatus::Passed {
            100.0
        } else {
            0.0
        },
        completed: u32::from(status == AttemptStatus::Passed),
        required: 1,
        repetitions_per_minute: 1.4,
        faults: 0,
        penalty_points: 0.0,
        reason: "done".into(),
        result: serde_json::json!({"score": 100.0}),
        proficiency: None,
        log: Some("logs/x.mcap".into()),
        log_sha256: Some("cd".repeat(32)),
    }
}

#[test]
fn an_attempt_is_stored_once_and_an_unfinished_one_gives_way_to_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r/records.sqlite");
    let mut records = Records::open(&path).unwrap();
    assert_eq!(records.version().unwrap(), schema_version());
    assert!(records
        .store_attempt(&report("a1", "t1", AttemptStatus::Passed), 1.0)
        .unwrap());
    assert!(!records
        .store_attempt(&report("a1", "t1", AttemptStatus::Passed), 2.0)
        .unwrap());
    assert!(records
        .store_attempt(&report("a2", "t1", AttemptStatus::Unfinished), 3.0)
        .unwrap());
    assert!(records
        .store_attempt(&report("a2", "t1", AttemptStatus::Failed), 4.0)
        .unwrap());
    // A finished attempt is never turned back into an unfinished one.
    assert!(!records
        .store_attempt(&report("a2", "t1", AttemptStatus::Unfinished), 5.0)
        .unwrap());
    let rows = records.attempts(Some("t1")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].status, "failed");
    assert_eq!(records.trainees().unwrap(), vec!["t1".to_owned()]);
    assert_eq!(
        records.attempt_result("a1").unwrap(),
        Some(serde_json::json!({"score": 100.0}))
    );
}

#[test]
fn the_file_is_owner_only_and_reopening_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.sqlite");
    {
        let mut records = Records::open(&path).unwrap();
        records
            .store_attempt(&report("a1", "t1", AttemptStatus::Passed), 1.0)
            .unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let records = Records::open(&path).unwrap();
    assert_eq!(records.attempts(None).unwrap().len(), 1);
}

#[test]
fn every_version_migrates_to_the_last_and_a_newer_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for from in 0..=schema_version() {
        let path = dir.path().join(format!("v{from}.sqlite"));
        {
            let db = Connection::open(&path).unwrap();
            for (i, step) in MIGRATIONS.iter().take(from as usize).enumerate() {
                db.execute_batch(step).unwrap();
                db.pragma_update(None, "user_version", i as u32 + 1)
                    .unwrap();
            }
        }
        let mut records = Records::open(&path).unwrap();
        assert_eq!(records.version().unwrap(), schema_version(), "from {from}");
        assert!(records
            .store_attempt(&report("a1", "t1", AttemptStatus::Passed), 1.0)
            .unwrap());
    }
    let path = dir.path().join("newer.sqlite");
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", schema_version() + 1)
        .unwrap();
    let e = Records::open(&path).err().unwrap();
    assert!(e.to_string().contains("newer than this program"), "{e}");
}

#[test]
fn a_file_that_is_not_a_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.sqlite");
    std::fs::write(&path, b"this is not a database, just some text long enough").unwrap();
    let e = Records::open(&path).err().unwrap();
    assert!(e.to_string().contains("junk.sqlite"), "{e}");
}

#[test]
fn the_exercise_files_standard_is_the_one_applied() {
    use crate::classroom::protocol::ProficiencyStandard;
    let dir = tempfile::tempdir().unwrap();
    let mut records = Records::open(&dir.path().join("r.sqlite")).unwrap();
    let mut r = report("a1", "t1", AttemptStatus::Passed);
    r.proficiency = Some(ProficiencyStandard {
        pass_rate: 1.0,
        reps_per_min: 2.0,
        window: 1,
    });
    records.store_attempt(&r, 1.0).unwrap();
    let standing = records.proficiency("t1").unwrap();
    assert_eq!(
        (standing[0].window, standing[0].threshold_reps_per_min),
        (1, 2.0)
    );
    // One pass in a window of one, but 1.4 reps/min is under the 2.0 asked for.
    assert!(!standing[0].qualified);
}

#[test]
fn a_threshold_the_instructor_sets_outlasts_the_files_until_given_back() {
    use crate::classroom::protocol::ProficiencyStandard;
    let dir = tempfile::tempdir().unwrap();
    let mut records = Records::open(&dir.path().join("r.sqlite")).unwrap();
    let file = ProficiencyStandard {
        pass_rate: 1.0,
        reps_per_min: 2.0,
        window: 1,
    };
    let mut r = report("a1", "t1", AttemptStatus::Passed);
    r.proficiency = Some(file);
    records.store_attempt(&r, 1.0).unwrap();
    let exercise = r.exercise.clone();
    let easier = ProficiencyStandard {
        pass_rate: 1.0,
        reps_per_min: 1.0,
        window: 1,
    };
    records.set_threshold(&exercise, Some(easier), 2.0).unwrap();
    // 1.4 reps/min now meets the 1.0 the instructor asks for.
    assert!(records.proficiency("t1").unwrap()[0].qualified);
    // A later attempt reports the file's standard again: the instructor's stays.
    let mut later = report("a2", "t1", AttemptStatus::Passed);
    later.proficiency = Some(file);
    records.store_attempt(&later, 3.0).unwrap();
    let listed = records.thresholds().unwrap();
    assert_eq!(
        (listed[0].reps_per_min, listed[0].by_instructor),
        (1.0, true)
    );
    // Given back to the file: its standard, as last reported, applies at once.
    records.set_threshold(&exercise, None, 4.0).unwrap();
    let listed = records.thresholds().unwrap();
    assert_eq!(
        (listed[0].reps_per_min, listed[0].by_instructor),
        (2.0, false)
    );
    assert!(!records.proficiency("t1").unwrap()[0].qualified);
    // Out of range, or an exercise the records do not know: refused, nothing changed.
    for (exercise, pass_rate, reps_per_min, window, says) in [
        (exercise.as_str(), 1.5, 1.0, 5, "0 to 1"),
        (exercise.as_str(), 0.8, -1.0, 5, "0 or more"),
        (exercise.as_str(), 0.8, f64::NAN, 5, "0 or more"),
        (exercise.as_str(), 0.8, 1.0, 0, "1 to 100"),
        ("../x", 0.8, 1.0, 5, "exercise"),
    ] {
        let t = ProficiencyStandard {
            pass_rate,
            reps_per_min,
            window,
        };
        let e = records.set_threshold(exercise, Some(t), 6.0).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
    assert_eq!(records.thresholds().unwrap()[0].reps_per_min, 2.0);
    // A threshold may be set before anyone attempted the exercise; giving back one never set
    // names the exercise the records lack.
    let before = ProficiencyStandard {
        pass_rate: 0.6,
        reps_per_min: 0.5,
        window: 3,
    };
    records.set_threshold("new_one", Some(before), 7.0).unwrap();
    assert!(records
        .thresholds()
        .unwrap()
        .iter()
        .any(|t| t.exercise == "new_one"));
    let e = records.set_threshold("nowhere", None, 8.0).unwrap_err();
    assert!(e.to_string().contains("no such exercise"), "{e}");
}

#[test]
fn proficiency_counts_the_last_window_and_deleting_a_trainee_removes_their_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let mut records = Records::open(&dir.path().join("r.sqlite")).unwrap();
    for i in 0..5 {
        let status = if i == 0 {
            AttemptStatus::Failed
        } else {
            AttemptStatus::Passed
        };
        let mut r = report(&format!("a{i}"), "t1", status);
        r.started_unix_s = 100.0 + f64::from(i);
        records.store_attempt(&r, 1.0).unwrap();
    }
    let standing = records.proficiency("t1").unwrap();
    assert_eq!(standing.len(), 1);
    assert_eq!(standing[0].attempts, 5);
    assert!((standing[0].pass_rate - 0.8).abs() < 1e-12);
    assert!(standing[0].qualified);
    assert_eq!(records.delete_trainee("t1").unwrap(), 5);
    assert!(records.attempts(None).unwrap().is_empty());
    assert!(records.trainees().unwrap().is_empty());
}
