//! The session's state as ROS diagnostics (`/diagnostics`, `diagnostic_msgs/msg/DiagnosticArray`,
//! once a simulated second), as `rqt_robot_monitor` or Foxglove's diagnostics panels show them:
//! - `treadsim: robot` — driving (OK) or halted (ERROR: out of bounds, fell, disabled), with
//!   the pitch and roll (deg) and the forward speed (m/s);
//! - `treadsim: exercise` — free driving (OK), a trial under way (OK; WARN once it has faults or
//!   penalties), passed (OK) or failed (ERROR), with its clock, time limit, repetitions, faults,
//!   penalty points, score and the goal ahead;
//! - `treadsim: link` — the operator's link conditions in words, WARN while it is down.

use super::msgs::{DiagnosticArray, DiagnosticLevel, DiagnosticStatus, Header};
use crate::session::Session;
use crate::sim::RobotStatus;

/// A value as text with `digits` decimals.
fn number(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// The robot's status.
fn robot(session: &Session) -> DiagnosticStatus {
    let sim = session.sim();
    let id = session.robot();
    let sample = session.telemetry_sample();
    let [roll, pitch, yaw] = sample.row.rpy;
    let v = sample.row.linvel;
    let forward = v[0] * yaw.cos() + v[1] * yaw.sin();
    let (level, message) = match sim.robot_status(id) {
        RobotStatus::Active => (DiagnosticLevel::Ok, "driving".to_owned()),
        RobotStatus::OutOfBounds { time } => (
            DiagnosticLevel::Error,
            format!("out of the scene's bounds since {time:.1} s: reset it"),
        ),
        RobotStatus::Fell { time, .. } => (
            DiagnosticLevel::Error,
            format!("fell at {time:.1} s: reset it"),
        ),
        RobotStatus::Disabled { time } => (
            DiagnosticLevel::Error,
            format!("disabled at {time:.1} s: reset it"),
        ),
    };
    DiagnosticStatus {
        level,
        name: "treadsim: robot".into(),
        message,
        hardware_id: sim.robot(id).spec().name.clone(),
        values: vec![
            ("pitch_deg".into(), number(pitch.to_degrees(), 1)),
            ("roll_deg".into(), number(roll.to_degrees(), 1)),
            ("speed_m_s".into(), number(forward, 3)),
        ],
    }
}

/// The exercise's status (free driving without a trial).
fn exercise(session: &Session) -> DiagnosticStatus {
    let Some(trial) = session.trial() else {
        return DiagnosticStatus {
            level: DiagnosticLevel::Ok,
            name: "treadsim: exercise".into(),
            message: "free driving".into(),
            hardware_id: session.sim().scene().name.clone(),
            values: Vec::new(),
        };
    };
    let spec = trial.spec();
    let (level, message) = match trial.outcome() {
        Some((true, why)) => (DiagnosticLevel::Ok, format!("passed: {why}")),
        Some((false, why)) => (DiagnosticLevel::Error, format!("failed: {why}")),
        None if trial.faults() > 0 || trial.penalty_points() > 0.0 => (
            DiagnosticLevel::Warn,
            format!(
                "under way: {} fault(s), {} penalty points",
                trial.faults(),
                trial.penalty_points()
            ),
        ),
        None => (DiagnosticLevel::Ok, "under way".to_owned()),
    };
    let mut values = vec![
        ("clock_s".into(), number(trial.clock(), 1)),
        ("time_limit_s".into(), number(spec.time_limit, 0)),
        (
            "repetitions".into(),
            format!("{}/{}", trial.completed(), spec.repetitions),
        ),
        ("faults".into(), trial.faults().to_string()),
        ("penalty_points".into(), number(trial.penalty_points(), 1)),
        ("score".into(), number(trial.score(), 1)),
    ];
    if let Some((_, goal)) = trial.current_goal() {
        values.push(("goal".into(), goal.to_owned()));
    }
    DiagnosticStatus {
        level,
        name: "treadsim: exercise".into(),
        message,
        hardware_id: spec.name.clone(),
        values,
    }
}

/// The operator's link.
fn link(session: &Session) -> DiagnosticStatus {
    let conditions = session.link();
    let up = conditions.link_up(session.sim().time());
    let words = conditions.summary().unwrap_or_else(|| "perfect".into());
    DiagnosticStatus {
        level: if up {
            DiagnosticLevel::Ok
        } else {
            DiagnosticLevel::Warn
        },
        name: "treadsim: link".into(),
        message: if up { words } else { format!("down ({words})") },
        hardware_id: "operator link".into(),
        values: vec![("up".into(), up.to_string())],
    }
}

/// The diagnostics of `session` now, with `header`.
pub fn diagnostics(session: &Session, header: Header) -> DiagnosticArray {
    DiagnosticArray {
        header,
        status: vec![robot(session), exercise(session), link(session)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::testing::{free, trial};

    #[test]
    fn a_trial_under_way_and_a_free_drive_read_as_an_operator_expects() {
        let d = diagnostics(&trial(""), Header::default());
        let names: Vec<&str> = d.status.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["treadsim: robot", "treadsim: exercise", "treadsim: link"]
        );
        assert!(d.status.iter().all(|s| s.level == DiagnosticLevel::Ok));
        let exercise = &d.status[1];
        assert_eq!(exercise.message, "under way");
        assert_eq!(exercise.hardware_id, "t");
        let value = |k: &str| {
            exercise
                .values
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(value("time_limit_s").as_deref(), Some("30"));
        assert_eq!(value("goal").as_deref(), Some("far"));
        assert_eq!(value("repetitions").as_deref(), Some("0/1"));
        let free = diagnostics(&free(), Header::default());
        assert_eq!(free.status[1].message, "free driving");
        assert_eq!(free.status[2].message, "perfect");
        // Its CDR: the header, 3 statuses, each level a single octet before its name.
        let bytes = d.encode();
        assert_eq!(&bytes[..4], &[0, 1, 0, 0]);
        assert!(bytes.len() > 200);
    }
}
