//! What the instrument panel shows ([`HudData`]), updated in place every frame from the
//! simulation: no GPU, no egui, so it is unit-tested; `hud` and `instruments` paint it.

use crate::input::{PadState, Status};
use crate::sim::{RobotId, Simulation};
use crate::vehicle::stability::{tip_level, Margins, Tilt, TipLevel, TipLimits};
use crate::vehicle::stall::{is_stalling, STALL_HOLD};
use crate::vehicle::RobotSpec;

/// Time constant of the ground speed readout's filter, s.
pub const GROUND_SPEED_LAG: f64 = 0.3;

/// One track's readout.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackReadout {
    /// Index of the drive (main track or wheel) it reads.
    pub drive: usize,
    /// Track or wheel name (`left`, `right`, `front_left`, …).
    pub name: String,
    /// Belt speed, m/s.
    pub belt_speed: f64,
    /// Commanded belt speed, m/s.
    pub commanded: f64,
    /// Motor speed limit, m/s.
    pub max_speed: f64,
    /// Motor torque at the sprocket, N·m.
    pub torque: f64,
    /// Motor torque limit, N·m.
    pub max_torque: f64,
    /// Time the stall condition has held, s.
    pub stall_time: f64,
}

impl TrackReadout {
    /// Motor load, |torque| / limit, 0..=1.
    pub fn load(&self) -> f64 {
        if self.max_torque > 0.0 {
            (self.torque.abs() / self.max_torque).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Whether the stall warning is on.
    pub fn stalled(&self) -> bool {
        self.stall_time >= STALL_HOLD
    }
}

/// Everything the panel shows.
#[derive(Debug, Clone, PartialEq)]
pub struct HudData {
    /// Simulated time, s.
    pub time: f64,
    /// Whether the simulation is paused.
    pub paused: bool,
    /// Simulation speed, × real time.
    pub speed: f64,
    /// Frames per second (window).
    pub fps: f64,
    /// Mean frame time, ms.
    pub frame_ms: f64,
    /// Physics steps per wall-clock second.
    pub physics_hz: f64,
    /// The physics step, s (physics_hz · dt is the real-time factor).
    pub dt: f64,
    /// Per driven track or wheel.
    pub tracks: Vec<TrackReadout>,
    /// Steering angle of an Ackermann robot's outer front wheel, rad, positive left.
    pub steer: Option<f64>,
    /// Its largest angle, rad (0 for a skid-steered or tracked robot).
    pub steer_max: f64,
    /// Speed over ground along the robot's heading, m/s (negative backwards), filtered.
    pub ground_speed: f64,
    /// The speed selector: the top speed full demand drives at (the exercise's limit, if it
    /// sets one), m/s; `None` shows nothing.
    pub speed_limit: Option<f64>,
    /// Mean flipper angle, rad, if the robot has flippers.
    pub flipper: Option<f64>,
    /// Flipper limits, rad.
    pub flipper_range: (f64, f64),
    /// The flipper drive torque of largest magnitude among the flippers, N·m (positive
    /// raising the tips; see `TrackedRobot::flipper_torque`).
    pub flipper_torque: f64,
    /// The smallest flipper motor torque limit, N·m (infinite without flippers).
    pub flipper_max_torque: f64,
    /// Whether any flipper stalled against the terrain in the last step.
    pub flipper_stalled: bool,
    /// Hull tilt relative to gravity.
    pub tilt: Tilt,
    /// Static tip-over limits.
    pub limits: TipLimits,
    /// Margins to the limits.
    pub margins: Margins,
    /// Warning level of the least margin.
    pub level: TipLevel,
    /// The input mapping's status (source, pad state, slow mode).
    pub input: Status,
    /// Whether a gamepad has been seen this session (so its absence is a loss, not normal).
    pub pad_seen: bool,
    /// Physics blow-ups recovered so far.
    pub blow_ups: usize,
    /// Simulated time of the last blow-up, s.
    pub last_blow_up: Option<f64>,
    /// Whether the robot drives, or why it is stopped until reset.
    pub status: crate::sim::RobotStatus,
    /// The arm panel's readout (armed robots).
    pub arm: Option<super::arm_panel::ArmReadout>,
    /// The terrain profile from the range sensor (robots that carry one).
    pub terrain: Option<super::terrain_panel::TerrainReadout>,
}

impl HudData {
    /// A panel for a robot, everything at rest.
    pub fn new(spec: &RobotSpec, input: Status) -> Self {
        let limits = TipLimits::from_spec(spec);
        let tilt = Tilt {
            nose_up: 0.0,
            left_up: 0.0,
            upside_down: false,
        };
        let margins = limits.margins(&tilt);
        let flipper_range = spec
            .flippers
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), f| {
                (a.min(f.min_angle), b.max(f.max_angle))
            });
        Self {
            time: 0.0,
            paused: false,
            speed: 1.0,
            fps: 0.0,
            frame_ms: 0.0,
            physics_hz: 0.0,
            dt: 0.002,
            tracks: spec
                .drive_names()
                .iter()
                .enumerate()
                .filter(|(i, _)| spec.drive_motor(*i).max_torque > 0.0)
                .map(|(i, name)| TrackReadout {
                    drive: i,
                    name: name.to_string(),
                    belt_speed: 0.0,
                    commanded: 0.0,
                    max_speed: spec.drive_motor(i).max_speed,
                    torque: 0.0,
                    max_torque: spec.drive_motor(i).max_torque,
                    stall_time: 0.0,
                })
                .collect(),
            steer: None,
            steer_max: match spec.steering {
                crate::vehicle::spec::Steering::Ackermann { max_angle, .. } => max_angle,
                crate::vehicle::spec::Steering::Skid => 0.0,
            },
            ground_speed: 0.0,
            speed_limit: None,
            flipper: None,
            flipper_range,
            flipper_torque: 0.0,
            flipper_max_torque: spec
                .flippers
                .iter()
                .map(|f| f.max_torque)
                .fold(f64::INFINITY, f64::min),
            flipper_stalled: false,
            tilt,
            limits,
            margins,
            level: TipLevel::Safe,
            input,
            pad_seen: false,
            blow_ups: 0,
            last_blow_up: None,
            status: crate::sim::RobotStatus::Active,
            arm: None,
            terrain: super::terrain_panel::TerrainReadout::new(spec),
        }
    }

    /// Reads robot `id` of `sim`; `dt` is the simulated time since the last update (for the
    /// stall timers).
    pub fn update(&mut self, sim: &Simulation, id: RobotId, dt: f64) {
        let robot = sim.robot(id);
        let body = sim.body_state(id);
        for t in self.tracks.iter_mut() {
            let i = t.drive;
            t.belt_speed = robot.drive_speed(i);
            t.commanded = robot.commanded_speed(i);
            t.torque = robot.motor_torque(i);
            t.stall_time = if is_stalling(t.torque, t.max_torque, t.belt_speed, t.commanded) {
                t.stall_time + dt
            } else {
                0.0
            };
        }
        let forward = body.pose.rotation * nalgebra::Vector3::x();
        // Filtered (time constant GROUND_SPEED_LAG): on stairs the hull bobs at every
        // nosing and the raw value jumps around the mean.
        let k = 1.0 - (-dt.max(0.0) / GROUND_SPEED_LAG).exp();
        self.ground_speed += (body.linvel.dot(&forward) - self.ground_speed) * k;
        let angles = robot.flipper_angles();
        let n = angles.len();
        self.flipper = (n > 0).then(|| angles.iter().sum::<f64>() / n as f64);
        if let Some(tracked) = robot.as_tracked() {
            self.flipper_torque = (0..n)
                .map(|f| tracked.flipper_torque(f))
                .fold(0.0, |a: f64, t| if t.abs() > a.abs() { t } else { a });
            self.flipper_stalled = (0..n).any(|f| tracked.flipper_stalled(f));
        }
        self.steer = robot.steering_angle();
        self.tilt = Tilt::of(&body.pose);
        if sim.arm_command(id).is_some() {
            // An arm's pose and load move the centre of mass, and with it the limits.
            self.limits = sim.tip_limits(id);
        }
        self.margins = self.limits.margins(&self.tilt);
        self.level = tip_level(self.margins.least().0, self.tilt.upside_down);
        self.time = sim.time();
        self.arm = super::arm_panel::ArmReadout::of(sim, id);
        if let Some(terrain) = &mut self.terrain {
            terrain.update(sim, id);
        }
        // Events only ever grow: count the blow-ups of this robot (recovered or escalated).
        let mut mine = sim
            .events()
            .iter()
            .filter(|e| e.robot() == id && e.is_blow_up());
        self.blow_ups = mine.clone().count();
        self.last_blow_up = mine.next_back().map(|e| e.time());
        self.status = sim.robot_status(id);
    }

    /// Records the input status; remembers that a pad was connected once.
    pub fn set_input(&mut self, status: Status) {
        self.pad_seen |= status.pad != PadState::Absent;
        self.input = status;
    }

    /// The warnings to show now, most urgent first, into `out` (cleared first).
    pub fn warnings(&self, out: &mut Vec<Warning>) {
        out.clear();
        if self.status.is_halted() {
            out.push(Warning::Halted(self.status));
        }
        if self.tilt.upside_down {
            out.push(Warning::RolledOver);
        } else if self.level >= TipLevel::Caution {
            let (margin, direction) = self.margins.least();
            out.push(Warning::Tip {
                level: self.level,
                direction,
                margin,
            });
        }
        for (i, t) in self.tracks.iter().enumerate() {
            if t.stalled() {
                out.push(Warning::Stall(i));
            }
        }
        match self.input.pad {
            PadState::Absent if self.pad_seen => out.push(Warning::PadLost),
            PadState::WaitingForCentre => out.push(Warning::PadCentre),
            PadState::DeadmanReleased => out.push(Warning::Deadman),
            _ => {}
        }
        if let Some(t) = self.last_blow_up {
            if self.time - t < 3.0 {
                out.push(Warning::BlowUp);
            }
        }
        if self.paused {
            out.push(Warning::Paused);
        }
    }
}

/// A warning line of the panel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Warning {
    /// The hull is upside down.
    RolledOver,
    /// Tip-over margin below the caution level.
    Tip {
        /// How close.
        level: TipLevel,
        /// Towards where.
        direction: &'static str,
        /// Margin left, rad.
        margin: f64,
    },
    /// Track `i` is stalled.
    Stall(usize),
    /// The gamepad was lost: the robot has been stopped.
    PadLost,
    /// The gamepad waits for its sticks to be centred.
    PadCentre,
    /// The gamepad's dead-man is released.
    Deadman,
    /// The robot left the scene, fell or was disabled: stopped until the instructor resets.
    Halted(crate::sim::RobotStatus),
    /// The physics blew up and was restored.
    BlowUp,
    /// The simulation is paused.
    Paused,
}
