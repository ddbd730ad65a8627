//! Telemetry: one row per sample of a robot's state, written as CSV.
//!
//! Columns: `t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz` (world frame, SI, radians; position
//! of the body origin = footprint centre; velocity of the centre of mass), then the drive
//! train's: for each track `<name>_belt_speed` (m/s), `<name>_motor_torque` (N·m),
//! `<name>_normal_force` (N), then for each flipper `<name>_angle` (rad) and `<name>_torque`
//! (N·m, the flipper drive's torque about its axis, positive raising the tip; see
//! `TrackedRobot::flipper_torque`); for each wheel `<name>_wheel_speed` (m/s, the tyre's
//! surface speed), `<name>_motor_torque` (N·m), `<name>_normal_force` (N), then for an
//! Ackermann robot `steer_angle` (rad, the outer front wheel's, positive left).
//! Numbers are printed in Rust's shortest
//! round-trip form, so equal files mean bit-identical states.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::vehicle::{BodyState, Drivetrain};

/// One sample of a robot's state.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryRow {
    /// Simulation time, s.
    pub t: f64,
    /// Body origin, world, m.
    pub position: [f64; 3],
    /// Roll, pitch, yaw (rotation about x, then y, then z applied as z·y·x), rad.
    pub rpy: [f64; 3],
    /// Linear velocity of the centre of mass, world, m/s.
    pub linvel: [f64; 3],
    /// Angular velocity, world, rad/s.
    pub angvel: [f64; 3],
    /// Per drive (main track, or wheel): belt or tyre surface speed m/s, motor torque N·m,
    /// sum of normal forces N.
    pub tracks: Vec<[f64; 3]>,
    /// Flipper angles, rad.
    pub flippers: Vec<f64>,
    /// Flipper drive torques about their axes (body y), N·m, positive raising the tip.
    pub flipper_torques: Vec<f64>,
    /// Steering angle of an Ackermann robot's outer front wheel, rad, positive left.
    pub steer: Option<f64>,
}

impl TelemetryRow {
    /// Samples a robot.
    pub fn capture(t: f64, body: &BodyState, robot: &Drivetrain) -> Self {
        let p = body.pose.translation.vector;
        let (roll, pitch, yaw) = body.pose.rotation.euler_angles();
        let (flippers, flipper_torques) = match robot.as_tracked() {
            Some(r) => (
                r.drive_state().flipper_angle.clone(),
                (0..r.spec().flippers.len())
                    .map(|f| r.flipper_torque(f))
                    .collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        Self {
            t,
            position: [p.x, p.y, p.z],
            rpy: [roll, pitch, yaw],
            linvel: [body.linvel.x, body.linvel.y, body.linvel.z],
            angvel: [body.angvel.x, body.angvel.y, body.angvel.z],
            tracks: (0..robot.drive_count())
                .map(|i| {
                    [
                        robot.drive_speed(i),
                        robot.motor_torque(i),
                        robot.drive_normal_force(i),
                    ]
                })
                .collect(),
            flippers,
            flipper_torques,
            steer: robot.steering_angle(),
        }
    }
}

/// Writes telemetry rows as CSV.
pub struct TelemetryWriter<W: Write> {
    out: W,
    line: String,
}

impl<W: Write> TelemetryWriter<W> {
    /// Writes the header for `robot`'s drives, flippers and steering.
    pub fn new(mut out: W, robot: &Drivetrain) -> io::Result<Self> {
        let mut header = String::from("t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz");
        let speed = if robot.spec().is_wheeled() {
            "wheel_speed"
        } else {
            "belt_speed"
        };
        for n in robot.spec().drive_names() {
            let _ = write!(header, ",{n}_{speed},{n}_motor_torque,{n}_normal_force");
        }
        for f in &robot.spec().flippers {
            let _ = write!(header, ",{n}_angle,{n}_torque", n = f.name);
        }
        if robot.steering_angle().is_some() {
            header.push_str(",steer_angle");
        }
        writeln!(out, "{header}")?;
        Ok(Self {
            out,
            line: String::with_capacity(512),
        })
    }

    /// Appends one row.
    pub fn write(&mut self, row: &TelemetryRow) -> io::Result<()> {
        self.line.clear();
        let _ = write!(self.line, "{}", row.t);
        let values = row
            .position
            .iter()
            .chain(&row.rpy)
            .chain(&row.linvel)
            .chain(&row.angvel)
            .chain(row.tracks.iter().flatten());
        for v in values {
            let _ = write!(self.line, ",{v}");
        }
        for (a, t) in row.flippers.iter().zip(&row.flipper_torques) {
            let _ = write!(self.line, ",{a},{t}");
        }
        if let Some(steer) = row.steer {
            let _ = write!(self.line, ",{steer}");
        }
        self.line.push('\n');
        self.out.write_all(self.line.as_bytes())
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
