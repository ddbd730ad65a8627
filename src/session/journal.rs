//! What a session keeps for a recorder between two drains: inputs at their steps, telemetry
//! samples, state snapshots and events. A front end may take many steps per frame; the
//! journal holds each step's share, so the log has every sample at its own step.

use serde_json::{json, Value};

use crate::exercise::report::{event_json, event_text};
use crate::exercise::Trial;
use crate::sim::{json_f64, RobotId, Simulation, StateSnapshot, TelemetryRow};
use crate::vehicle::DriveCommand;

use super::StepInput;

/// Telemetry samples per simulated second.
pub const TELEMETRY_RATE: f64 = 100.0;
/// Simulated time between state snapshots, s.
pub const SNAPSHOT_INTERVAL: f64 = 1.0;

/// One telemetry sample: the robot's state, the commands and the trial's clock.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetrySample {
    /// The robot's state (pose, velocities, per-track belt speed, motor torque and normal
    /// force, flipper angles and torques).
    pub row: TelemetryRow,
    /// Speed each drive's (track's or wheel's) command asks for after the link, within the
    /// motor's limit, m/s.
    pub commanded: Vec<f64>,
    /// The operator's command (before the link).
    pub operator: DriveCommand,
    /// The robot's status code ([`RobotStatus::code`](crate::sim::RobotStatus::code)).
    pub status: u8,
    /// The exercise clock, s (trials only).
    pub clock: Option<f64>,
}

impl TelemetrySample {
    /// Samples robot `id` of `sim` now.
    pub fn capture(sim: &Simulation, id: RobotId, operator: DriveCommand) -> Self {
        let robot = sim.robot(id);
        Self {
            row: sim.telemetry(id),
            commanded: (0..robot.drive_count())
                .map(|t| robot.commanded_speed(t))
                .collect(),
            operator,
            status: sim.robot_status(id).code(),
            clock: None,
        }
    }

    /// The names `robot`'s telemetry JSON is keyed by: its drives (main tracks, or wheels),
    /// then its flippers, in the robot file's order.
    pub fn names(robot: &crate::vehicle::RobotSpec) -> (Vec<String>, Vec<String>) {
        (
            robot.drive_names().iter().map(|n| n.to_string()).collect(),
            robot.flippers.iter().map(|f| f.name.clone()).collect(),
        )
    }

    /// The JSON form logged on the telemetry channel (world frame, SI units, radians).
    pub fn to_json(&self, track_names: &[String], flipper_names: &[String]) -> Value {
        let r = &self.row;
        let tracks: serde_json::Map<String, Value> = track_names
            .iter()
            .zip(&r.tracks)
            .zip(&self.commanded)
            .map(|((name, [speed, torque, normal]), commanded)| {
                (
                    name.clone(),
                    json!({
                        "belt_speed": json_f64(*speed),
                        "commanded_speed": json_f64(*commanded),
                        "motor_torque": json_f64(*torque),
                        "normal_force": json_f64(*normal),
                    }),
                )
            })
            .collect();
        let flippers: serde_json::Map<String, Value> = flipper_names
            .iter()
            .zip(r.flippers.iter().zip(&r.flipper_torques))
            .map(|(name, (angle, torque))| {
                (
                    name.clone(),
                    json!({"angle": json_f64(*angle), "torque": json_f64(*torque)}),
                )
            })
            .collect();
        let xyz =
            |v: &[f64; 3]| json!({"x": json_f64(v[0]), "y": json_f64(v[1]), "z": json_f64(v[2])});
        json!({
            "time": json_f64(r.t),
            "position": xyz(&r.position),
            "roll": json_f64(r.rpy[0]),
            "pitch": json_f64(r.rpy[1]),
            "yaw": json_f64(r.rpy[2]),
            "linvel": xyz(&r.linvel),
            "angvel": xyz(&r.angvel),
            "tracks": tracks,
            "flippers": flippers,
            "operator": {
                "left": json_f64(self.operator.left),
                "right": json_f64(self.operator.right),
            },
            "status": self.status,
            "clock": self.clock.map(json_f64),
            "steer": r.steer.map(json_f64),
        })
    }
}

/// Something that happened, for the log's event channel and the report's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEvent {
    /// Simulation time, s.
    pub time: f64,
    /// `sim` (blow-ups, out of bounds, falls, resets) or `exercise` (goals, repetitions,
    /// faults, penalties, the end).
    pub source: &'static str,
    /// One line for people.
    pub text: String,
    /// The event's fields as JSON.
    pub detail: Value,
}

impl LoggedEvent {
    /// The JSON form logged on the event channel.
    pub fn to_json(&self) -> Value {
        json!({
            "time": json_f64(self.time),
            "source": self.source,
            "text": self.text,
            "detail": self.detail,
        })
    }
}

/// What a session keeps for a recorder (see the module docs).
#[derive(Debug, Clone)]
pub struct Journal {
    /// Inputs applied, in order.
    pub inputs: Vec<StepInput>,
    /// Telemetry samples, every `1 / TELEMETRY_RATE` s.
    pub telemetry: Vec<TelemetrySample>,
    /// State snapshots, every [`SNAPSHOT_INTERVAL`] s (and one at the start).
    pub snapshots: Vec<StateSnapshot>,
    /// Events of the simulation and the trial, in order.
    pub events: Vec<LoggedEvent>,
    telemetry_every: u64,
    snapshot_every: u64,
    events_seen: EventCursor,
}

/// Which of a session's events a reader has taken: the simulation's and the trial's, counted
/// apart (a new trial's events start again from 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventCursor {
    sim: usize,
    trial: usize,
}

impl EventCursor {
    /// A cursor past the simulation's first `sim_events_seen` events and no trial event.
    pub fn after(sim_events_seen: usize) -> Self {
        Self {
            sim: sim_events_seen,
            trial: 0,
        }
    }

    /// Appends the events of `sim` and `trial` not taken yet to `out`, in the log's form.
    pub fn take(&mut self, sim: &Simulation, trial: Option<&Trial>, out: &mut Vec<LoggedEvent>) {
        for e in &sim.events()[self.sim.min(sim.events().len())..] {
            out.push(LoggedEvent {
                time: e.time(),
                source: "sim",
                text: e.to_string(),
                detail: json!({"type": e.kind_name(), "text": e.to_string()}),
            });
        }
        self.sim = sim.events().len();
        if let Some(trial) = trial {
            let events = trial.events();
            for e in &events[self.trial.min(events.len())..] {
                let detail = event_json(e);
                out.push(LoggedEvent {
                    time: detail["time_s"].as_f64().unwrap_or(sim.time()),
                    source: "exercise",
                    text: event_text(e),
                    detail,
                });
            }
            self.trial = events.len();
        }
    }
}

impl Journal {
    /// An empty journal for a simulation stepping `dt` s that has already emitted
    /// `sim_events_seen` events.
    pub fn new(dt: f64, sim_events_seen: usize) -> Self {
        let every = |interval: f64| ((interval / dt).round() as u64).max(1);
        Self {
            inputs: Vec::new(),
            telemetry: Vec::new(),
            snapshots: Vec::new(),
            events: Vec::new(),
            telemetry_every: every(1.0 / TELEMETRY_RATE),
            snapshot_every: every(SNAPSHOT_INTERVAL),
            events_seen: EventCursor::after(sim_events_seen),
        }
    }

    /// Steps between snapshots.
    pub fn snapshot_every(&self) -> u64 {
        self.snapshot_every
    }

    /// Whether the step count `steps` takes a telemetry sample.
    pub fn telemetry_due(&self, steps: u64) -> bool {
        steps.is_multiple_of(self.telemetry_every)
    }

    /// Whether the step count `steps` takes a snapshot.
    pub fn snapshot_due(&self, steps: u64) -> bool {
        steps.is_multiple_of(self.snapshot_every)
    }

    /// Moves the simulation's and the trial's new events in.
    pub(super) fn take_events(&mut self, sim: &Simulation, trial: Option<&Trial>) {
        self.events_seen.take(sim, trial, &mut self.events);
    }

    /// Whether nothing is waiting to be drained.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
            && self.telemetry.is_empty()
            && self.snapshots.is_empty()
            && self.events.is_empty()
    }

    /// Empties it (keeping its buffers), after a recorder has written it out.
    pub fn clear(&mut self) {
        self.inputs.clear();
        self.telemetry.clear();
        self.snapshots.clear();
        self.events.clear();
    }
}
