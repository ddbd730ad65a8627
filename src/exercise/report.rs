//! A trial's result for people (a score table) and for programs (JSON, `<out>.score.json`).

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::trial::{ExerciseEvent, TrialResult};

/// A trial's verdict: `PASS`, `FAIL`, or `UNFINISHED` for a trial stopped before it ended (the
/// station closed mid-trial: not passed, and no reason). The station, the score table and the
/// report all say it by this rule.
pub fn verdict(passed: bool, reason: &str) -> &'static str {
    if passed {
        "PASS"
    } else if reason.is_empty() {
        "UNFINISHED"
    } else {
        "FAIL"
    }
}

/// A trial's result in words: the verdict, then the reason after a colon when there is one
/// (`FAIL: tipped over`, `UNFINISHED`).
pub fn result_text(passed: bool, reason: &str) -> String {
    let verdict = verdict(passed, reason);
    if reason.is_empty() {
        verdict.to_owned()
    } else {
        format!("{verdict}: {reason}")
    }
}

/// The score table printed at the end of a trial.
pub fn score_table(result: &TrialResult) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "exercise: {}", result.exercise);
    let rows = [
        (
            "repetitions",
            format!("{} of {}", result.completed, result.required),
        ),
        ("faults", result.faults.to_string()),
        ("elapsed", format!("{:.1} s", result.elapsed)),
        (
            "repetitions/min",
            format!("{:.2}", result.repetitions_per_minute),
        ),
        ("penalties", format!("{:.0} points", result.penalty_points)),
        ("score", format!("{:.0} / 100", result.score)),
        ("result", result_text(result.passed, &result.reason)),
    ];
    let closest = result
        .closest
        .as_ref()
        .map(|(goal, m)| ("closest", format!("{m:.2} m from {goal}")));
    let link = result.link.clone().map(|l| ("link", l));
    let robot = result.robot.clone().map(|r| ("robot", r));
    for (name, value) in rows.into_iter().chain(robot).chain(closest).chain(link) {
        let _ = writeln!(out, "  {name:<16} {value}");
    }
    let events: Vec<String> = result.events.iter().filter_map(event_line).collect();
    if !events.is_empty() {
        let _ = writeln!(out, "events:");
        for e in events {
            let _ = writeln!(out, "  {e}");
        }
    }
    out
}

/// One line for an event in the table (`None` for the final one, shown as the result).
fn event_line(event: &ExerciseEvent) -> Option<String> {
    match event {
        ExerciseEvent::Finished { .. } => None,
        _ => Some(event_text(event)),
    }
}

/// One line for an event: the clock and what happened.
pub fn event_text(event: &ExerciseEvent) -> String {
    match event {
        ExerciseEvent::GoalReached {
            clock,
            repetition,
            name,
            ..
        } => format!("{clock:7.1} s  repetition {repetition}: reached {name}"),
        ExerciseEvent::RepetitionDone {
            clock,
            completed,
            duration,
            ..
        } => format!("{clock:7.1} s  repetition {completed} done in {duration:.1} s"),
        ExerciseEvent::Righted {
            clock, repetition, ..
        } => format!("{clock:7.1} s  repetition {repetition}: righted, on its tracks"),
        ExerciseEvent::Fault {
            clock,
            kind,
            repetition,
            ..
        } => format!(
            "{clock:7.1} s  FAULT: {} (repetition {repetition} voided, back to the start)",
            kind.name()
        ),
        ExerciseEvent::Penalty {
            clock,
            reason,
            points,
            ..
        } => format!("{clock:7.1} s  penalty {points:.0}: {reason}"),
        ExerciseEvent::Finished {
            clock,
            passed,
            reason,
            ..
        } => format!(
            "{clock:7.1} s  {}: {reason}",
            if *passed { "PASS" } else { "FAIL" }
        ),
    }
}

/// One event as JSON.
pub fn event_json(event: &ExerciseEvent) -> Value {
    match event {
        ExerciseEvent::GoalReached {
            time,
            clock,
            repetition,
            goal,
            name,
        } => json!({"type": "goal", "time_s": time, "clock_s": clock,
                    "repetition": repetition, "goal": goal, "name": name}),
        ExerciseEvent::RepetitionDone {
            time,
            clock,
            completed,
            duration,
        } => json!({"type": "repetition", "time_s": time, "clock_s": clock,
                    "completed": completed, "duration_s": duration}),
        ExerciseEvent::Righted {
            time,
            clock,
            repetition,
        } => json!({"type": "righted", "time_s": time, "clock_s": clock,
                    "repetition": repetition}),
        ExerciseEvent::Fault {
            time,
            clock,
            kind,
            repetition,
        } => json!({"type": "fault", "time_s": time, "clock_s": clock,
                    "kind": kind.name(), "repetition": repetition}),
        ExerciseEvent::Penalty {
            time,
            clock,
            reason,
            points,
        } => json!({"type": "penalty", "time_s": time, "clock_s": clock,
                    "reason": reason, "points": points}),
        ExerciseEvent::Finished {
            time,
            clock,
            passed,
            reason,
        } => json!({"type": "finished", "time_s": time, "clock_s": clock,
                    "passed": passed, "reason": reason}),
    }
}

/// The whole result as JSON (`<out>.score.json`).
pub fn result_json(result: &TrialResult) -> Value {
    json!({
        "exercise": result.exercise,
        "completed": result.completed,
        "required": result.required,
        "faults": result.faults,
        "elapsed_s": result.elapsed,
        "repetitions_per_minute": result.repetitions_per_minute,
        "penalty_points": result.penalty_points,
        "score": result.score,
        "passed": result.passed,
        "reason": result.reason,
        "closest_goal": result.closest.as_ref().map(|c| c.0.clone()),
        "closest_m": result.closest.as_ref().map(|c| c.1),
        "link": result.link,
        "robot": result.robot,
        "events": result.events.iter().map(event_json).collect::<Vec<_>>(),
    })
}
