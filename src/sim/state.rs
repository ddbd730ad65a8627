//! State snapshots for checking determinism: every quantity that evolves, by name, exactly as
//! it is stored (rapier's `f32` pose and velocities widened to `f64` without rounding), so two
//! runs agree bit for bit exactly when their snapshots do, and the first quantity that differs
//! says where a replay diverged.
//!
//! A snapshot is not a restore point: rapier's contact caches and solver warm starts are not
//! in it. It names what a replay must reproduce.

use std::fmt;

use rapier3d::prelude::RigidBody;

use super::{RobotId, Simulation};
use crate::vehicle::{DriveCommand, Drivetrain};

/// Every evolving quantity of a simulation (and of the trial scored on it) at one step.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StateSnapshot {
    /// Simulation steps taken.
    pub step: u64,
    /// Simulation time, s.
    pub time: f64,
    /// Quantity names (`robot0.pose.x`, `robot0.belt_speed[1]`, `trial.clock`), in a fixed
    /// order.
    pub names: Vec<String>,
    /// Values, in the order of `names` (units as the quantity's source documents them).
    pub values: Vec<f64>,
}

/// Where two snapshots first differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Simulation time of the snapshots, s.
    pub time: f64,
    /// The quantity that differs (or what differs in the snapshots' layout).
    pub quantity: String,
    /// Its value in the expected (recorded) snapshot.
    pub expected: f64,
    /// Its value in the actual (replayed) one.
    pub actual: f64,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at {:.3} s: {} was {:?} when recorded, {:?} in the replay",
            self.time, self.quantity, self.expected, self.actual
        )
    }
}

impl StateSnapshot {
    /// An empty snapshot of step `step` at `time` s.
    pub fn new(step: u64, time: f64) -> Self {
        Self {
            step,
            time,
            names: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Adds one quantity.
    pub fn push(&mut self, name: impl Into<String>, value: f64) {
        self.names.push(name.into());
        self.values.push(value);
    }

    /// Adds a list of quantities named `prefix[i]`.
    pub fn push_all(&mut self, prefix: &str, values: impl IntoIterator<Item = f64>) {
        for (i, v) in values.into_iter().enumerate() {
            self.push(format!("{prefix}[{i}]"), v);
        }
    }

    /// The first difference from `expected` (`None`: identical bit for bit; NaN equals a NaN
    /// of the same bits).
    pub fn first_difference(&self, expected: &StateSnapshot) -> Option<Divergence> {
        let time = expected.time;
        let at = |quantity: String, want: f64, got: f64| Divergence {
            time,
            quantity,
            expected: want,
            actual: got,
        };
        if self.step != expected.step {
            return Some(at("step".into(), expected.step as f64, self.step as f64));
        }
        if self.time.to_bits() != expected.time.to_bits() {
            return Some(at("time".into(), expected.time, self.time));
        }
        for (i, (name, want)) in expected.names.iter().zip(&expected.values).enumerate() {
            match (self.names.get(i), self.values.get(i)) {
                (Some(n), Some(v)) if n == name => {
                    if v.to_bits() != want.to_bits() {
                        return Some(at(name.clone(), *want, *v));
                    }
                }
                (Some(n), _) => {
                    return Some(at(
                        format!("quantity #{i}: '{name}' recorded, '{n}' replayed"),
                        *want,
                        f64::NAN,
                    ))
                }
                (None, _) => {
                    return Some(at(
                        format!("quantity #{i} '{name}' is missing in the replay"),
                        *want,
                        f64::NAN,
                    ))
                }
            }
        }
        if self.names.len() > expected.names.len() {
            let extra = &self.names[expected.names.len()];
            return Some(at(
                format!("the replay has more quantities, from '{extra}'"),
                f64::NAN,
                self.values[expected.names.len()],
            ));
        }
        None
    }

    /// The snapshot as JSON: numbers as numbers (shortest round-trip form, so they read back
    /// bit for bit), non-finite ones as the strings `"NaN"`, `"inf"`, `"-inf"`.
    pub fn to_json(&self) -> serde_json::Value {
        let values: Vec<serde_json::Value> = self.values.iter().map(|v| json_f64(*v)).collect();
        serde_json::json!({
            "step": self.step,
            "time": json_f64(self.time),
            "names": self.names,
            "values": values,
        })
    }

    /// Reads [`StateSnapshot::to_json`]'s form; `Err` names what is wrong.
    pub fn from_json(value: &serde_json::Value) -> Result<Self, String> {
        let step = value
            .get("step")
            .and_then(|s| s.as_u64())
            .ok_or("'step' is not a whole number")?;
        let time = value
            .get("time")
            .and_then(f64_of_json)
            .ok_or("'time' is not a number")?;
        let names: Vec<String> = value
            .get("names")
            .and_then(|n| n.as_array())
            .ok_or("'names' is not a list")?
            .iter()
            .map(|n| n.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or("'names' holds something other than text")?;
        let values: Vec<f64> = value
            .get("values")
            .and_then(|n| n.as_array())
            .ok_or("'values' is not a list")?
            .iter()
            .map(f64_of_json)
            .collect::<Option<_>>()
            .ok_or("'values' holds something other than numbers")?;
        if names.len() != values.len() {
            return Err(format!("{} names but {} values", names.len(), values.len()));
        }
        Ok(Self {
            step,
            time,
            names,
            values,
        })
    }
}

/// A number as JSON, exactly: non-finite values as strings.
pub fn json_f64(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else if v.is_nan() {
        "NaN".into()
    } else if v > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// Reads a number written by [`json_f64`].
pub fn f64_of_json(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// A body's pose and velocities exactly as rapier stores them, widened to `f64`: position
/// (m), rotation quaternion (x, y, z, w), linear (m/s) and angular (rad/s) velocity, world
/// frame.
pub(super) fn body_values(body: &RigidBody) -> [f64; 13] {
    let pose = body.position();
    let (t, q) = (pose.translation, pose.rotation);
    let (v, w) = (body.linvel(), body.angvel());
    [
        t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z,
    ]
    .map(f64::from)
}

impl Simulation {
    /// Adds every evolving quantity of robot `id` to `out`, named `robot<i>.…`: its status,
    /// the hull's pose and velocities as rapier stores them (world frame, m, m/s, rad/s;
    /// rotation as a quaternion), the drive train (belt speeds m/s, flipper angles and targets
    /// rad, friction bristle deflections m; or wheel speeds m/s, suspension compressions m,
    /// steering angle and target rad, tyre deflections m) and the command in force.
    pub fn capture_state(&self, id: RobotId, out: &mut StateSnapshot) {
        let r = &self.robots[id.0];
        let p = format!("robot{}", id.0);
        out.push(format!("{p}.status"), r.status.code() as f64);
        if let Some(body) = self.world.bodies.get(r.body) {
            let names = [
                "pose.x", "pose.y", "pose.z", "pose.qx", "pose.qy", "pose.qz", "pose.qw",
                "linvel.x", "linvel.y", "linvel.z", "angvel.x", "angvel.y", "angvel.z",
            ];
            for (name, value) in names.iter().zip(body_values(body)) {
                out.push(format!("{p}.{name}"), value);
            }
        }
        match &r.model {
            Drivetrain::Tracked(model) => {
                let drive = model.drive_state();
                out.push_all(&format!("{p}.belt_speed"), drive.belt_speed.iter().copied());
                out.push_all(
                    &format!("{p}.flipper_angle"),
                    drive.flipper_angle.iter().copied(),
                );
                out.push_all(
                    &format!("{p}.flipper_target"),
                    drive.flipper_target.iter().copied(),
                );
                out.push_all(
                    &format!("{p}.bristle"),
                    drive.bristle_deflections().iter().flat_map(|b| [b.x, b.y]),
                );
            }
            Drivetrain::Wheeled(model) => {
                let drive = model.drive_state();
                out.push_all(
                    &format!("{p}.wheel_speed"),
                    drive.wheel_speed.iter().copied(),
                );
                out.push_all(
                    &format!("{p}.compression"),
                    drive.compression.iter().copied(),
                );
                out.push(format!("{p}.steer"), drive.steer);
                out.push(format!("{p}.steer_target"), drive.steer_target);
                out.push_all(
                    &format!("{p}.deflection"),
                    drive.deflection.iter().flat_map(|z| [z.x, z.y]),
                );
            }
        }
        let DriveCommand {
            left,
            right,
            flipper,
            steer,
        } = r.model.command();
        out.push(format!("{p}.command.left"), left);
        out.push(format!("{p}.command.right"), right);
        out.push(format!("{p}.command.flipper"), flipper.unwrap_or(f64::NAN));
        out.push(format!("{p}.command.steer"), steer.unwrap_or(f64::NAN));
        self.capture_arm(id, &p, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(values: &[f64]) -> StateSnapshot {
        let mut s = StateSnapshot::new(500, 1.0);
        for (i, v) in values.iter().enumerate() {
            s.push(format!("q{i}"), *v);
        }
        s
    }

    #[test]
    fn identical_snapshots_have_no_difference_and_one_bit_is_found() {
        let a = snapshot(&[1.0, f64::NAN, -0.0]);
        assert_eq!(a.first_difference(&a.clone()), None);
        let mut b = a.clone();
        b.values[0] = f64::from_bits(1.0f64.to_bits() + 1);
        let d = b.first_difference(&a).unwrap();
        assert_eq!((d.quantity.as_str(), d.expected), ("q0", 1.0));
        // -0.0 and 0.0 are different bits.
        let mut c = a.clone();
        c.values[2] = 0.0;
        assert_eq!(c.first_difference(&a).unwrap().quantity, "q2");
        let mut short = a.clone();
        short.names.pop();
        short.values.pop();
        assert!(short
            .first_difference(&a)
            .unwrap()
            .quantity
            .contains("missing"));
    }

    #[test]
    fn json_round_trip_is_exact_for_every_kind_of_number() {
        let a = snapshot(&[
            0.1 + 0.2,
            1e-310,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            f32::MAX as f64,
            std::f64::consts::PI,
        ]);
        let text = a.to_json().to_string();
        let back = StateSnapshot::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back.first_difference(&a), None);
    }

    #[test]
    fn malformed_json_is_refused_with_a_reason() {
        for (text, want) in [
            (r#"{"time":1,"names":[],"values":[]}"#, "step"),
            (r#"{"step":1,"time":"x","names":[],"values":[]}"#, "time"),
            (
                r#"{"step":1,"time":1,"names":["a"],"values":[]}"#,
                "names but",
            ),
            (r#"{"step":1,"time":1,"names":[1],"values":[1]}"#, "names"),
        ] {
            let e = StateSnapshot::from_json(&serde_json::from_str(text).unwrap()).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
