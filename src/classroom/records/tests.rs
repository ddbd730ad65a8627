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
