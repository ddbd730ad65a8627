//! The instrument panel drawn over the camera view, like a real robot's operator control unit.
//!
//! [`HudData`] is what the panel shows, updated in place every frame from the simulation
//! (no GPU, no egui: unit-tested); [`draw`] paints it with egui and returns what the
//! instructor clicked ([`UiRequests`]).
//!
//! Shown: belt speed per track (actual, with the commanded speed as a marker), motor load
//! with a stall warning, ground speed, pitch and roll inclinometers with the static tip-over
//! limits and a warning as the margin shrinks, flipper angle, active camera, elapsed time,
//! frame and physics rates, and the gamepad's state.

use kiss3d::egui::{self, Align2, Color32, Pos2, Rect, TextureId, Vec2};

use crate::input::{PadState, Source, Status};
use crate::sim::{RobotId, Simulation};
use crate::vehicle::stability::{tip_level, Margins, Tilt, TipLevel, TipLimits};
use crate::vehicle::stall::{is_stalling, STALL_HOLD, STALL_TORQUE_FRACTION};
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
        self.margins = self.limits.margins(&self.tilt);
        self.level = tip_level(self.margins.least().0, self.tilt.upside_down);
        self.time = sim.time();
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

/// What the instructor clicked this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UiRequests {
    /// Pause or resume.
    pub toggle_pause: bool,
    /// One physics step.
    pub single_step: bool,
    /// Reset to spawn.
    pub reset: bool,
    /// Halve the simulation speed.
    pub slower: bool,
    /// Double the simulation speed.
    pub faster: bool,
    /// Show this view in the main window.
    pub main_view: Option<usize>,
    /// Show this view in the picture-in-picture (`Some(None)`: turn it off).
    pub pip_view: Option<Option<usize>>,
    /// Switch to trainee mode.
    pub trainee: bool,
    /// Hand the robot to the autopilot, or take it back.
    pub autopilot: bool,
}

/// The picture-in-picture image to show.
#[derive(Debug, Clone, Copy)]
pub struct Pip<'a> {
    /// egui texture of the off-screen surface.
    pub texture: TextureId,
    /// Displayed size, points.
    pub size: [f32; 2],
    /// Its view's name.
    pub name: &'a str,
    /// What the link delivers of it (an onboard camera's faults; a live frame otherwise).
    pub feed: crate::link::VideoFeed,
    /// Frame counter, for the noise pattern.
    pub frame: u64,
}

/// What the panel needs besides [`HudData`].
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    /// The main camera's image, drawn under everything to fill the window.
    pub feed: Option<TextureId>,
    /// The main view's name.
    pub view: &'a str,
    /// The picture-in-picture, if shown.
    pub pip: Option<Pip<'a>>,
    /// Trainee mode: no instructor controls.
    pub trainee: bool,
    /// Whether trainee mode is locked (`--trainee`).
    pub locked: bool,
    /// Every view name, for the instructor's selectors.
    pub views: &'a [String],
    /// Index of the main view.
    pub main_index: usize,
    /// Index of the picture-in-picture view.
    pub pip_index: Option<usize>,
    /// Show the key help.
    pub help: bool,
    /// An exercise's goal and trial panels occupy the top centre: warnings go below them.
    pub exercise: bool,
    /// Whether the autopilot drives (the instructor's demonstration).
    pub autopilot: bool,
}

/// Top offset of the warnings, px: under the exercise's goal and trial panels when they
/// are shown (`exercise_hud` puts them at 10 and 80 px), else at the top.
const WARNINGS_TOP: f32 = 12.0;
const WARNINGS_TOP_IN_EXERCISE: f32 = 190.0;

pub(super) const GREEN: Color32 = Color32::from_rgb(70, 210, 110);
pub(super) const AMBER: Color32 = Color32::from_rgb(255, 176, 32);
pub(super) const RED: Color32 = Color32::from_rgb(255, 70, 60);
pub(super) const TEXT: Color32 = Color32::from_rgb(230, 232, 235);
pub(super) const DIM: Color32 = Color32::from_rgb(150, 155, 160);
pub(super) const PANEL: Color32 = Color32::from_rgba_premultiplied(12, 14, 18, 200);

pub(super) fn level_color(level: TipLevel) -> Color32 {
    match level {
        TipLevel::Safe => GREEN,
        TipLevel::Caution => AMBER,
        TipLevel::Danger | TipLevel::Over => RED,
    }
}

pub(super) fn load_color(load: f64) -> Color32 {
    if load >= STALL_TORQUE_FRACTION {
        RED
    } else if load >= 0.7 {
        AMBER
    } else {
        GREEN
    }
}

/// Panels never wrap their text: a wrapped readout jumps around as its numbers change.
fn no_wrap(ctx: &egui::Context) {
    if ctx.global_style().wrap_mode != Some(egui::TextWrapMode::Extend) {
        ctx.all_styles_mut(|s| s.wrap_mode = Some(egui::TextWrapMode::Extend));
    }
}

pub(super) fn panel() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .inner_margin(8.0)
        .corner_radius(6.0)
}

pub(super) fn deg(r: f64) -> f64 {
    r.to_degrees()
}

/// Paints the panel; returns the instructor's clicks. `warnings` is scratch.
pub fn draw(
    ctx: &egui::Context,
    hud: &HudData,
    frame: &Frame<'_>,
    warnings: &mut Vec<Warning>,
) -> UiRequests {
    let mut req = UiRequests::default();
    no_wrap(ctx);
    if let Some(feed) = frame.feed {
        // The background layer takes no input, so the free camera still gets the mouse.
        ctx.layer_painter(egui::LayerId::background()).image(
            feed,
            ctx.viewport_rect(),
            Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
            Color32::WHITE,
        );
    }
    draw_status(ctx, hud, frame);
    let top = if frame.exercise {
        WARNINGS_TOP_IN_EXERCISE
    } else {
        WARNINGS_TOP
    };
    draw_warnings(ctx, hud, warnings, top);
    super::instruments::draw_instruments(ctx, hud);
    if let Some(pip) = frame.pip {
        egui::Area::new(egui::Id::new("pip"))
            .anchor(Align2::RIGHT_TOP, Vec2::new(-10.0, 10.0))
            .interactable(false)
            .show(ctx, |ui| {
                panel().inner_margin(4.0).show(ui, |ui| {
                    let shown = ui.image((pip.texture, Vec2::new(pip.size[0], pip.size[1])));
                    super::video::paint(ui.painter(), shown.rect, &pip.feed, pip.frame);
                    ui.label(
                        egui::RichText::new(pip.name.to_uppercase())
                            .color(TEXT)
                            .strong(),
                    );
                });
            });
    }
    if !frame.trainee {
        draw_instructor(ctx, hud, frame, &mut req);
    }
    if frame.help {
        draw_help(ctx, frame);
    }
    req
}

fn draw_status(ctx: &egui::Context, hud: &HudData, frame: &Frame<'_>) {
    egui::Area::new(egui::Id::new("status"))
        .anchor(Align2::LEFT_TOP, Vec2::new(10.0, 10.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let (mode, color) = if frame.trainee {
                        ("TRAINEE", GREEN)
                    } else {
                        ("INSTRUCTOR", AMBER)
                    };
                    ui.label(egui::RichText::new(mode).color(color).strong());
                    ui.label(
                        egui::RichText::new(format!("CAM {}", frame.view.to_uppercase()))
                            .color(TEXT)
                            .strong()
                            .size(16.0),
                    );
                });
                let minutes = (hud.time / 60.0).floor();
                ui.label(
                    egui::RichText::new(format!(
                        "{:02.0}:{:05.2}{}",
                        minutes,
                        hud.time - 60.0 * minutes,
                        if (hud.speed - 1.0).abs() > 1e-9 {
                            format!("   ×{:.2}", hud.speed)
                        } else {
                            String::new()
                        }
                    ))
                    .color(TEXT)
                    .monospace()
                    .size(18.0),
                );
                ui.label(
                    egui::RichText::new(format!(
                        "{:.0} fps {:.0} ms  physics {:.0} Hz ×{:.2}",
                        hud.fps,
                        hud.frame_ms,
                        hud.physics_hz,
                        hud.physics_hz * hud.dt
                    ))
                    .color(DIM)
                    .monospace(),
                );
                let (pad, color) = match hud.input.pad {
                    PadState::Absent if hud.pad_seen => ("pad LOST", RED),
                    PadState::Absent => ("no pad: keyboard", DIM),
                    PadState::WaitingForCentre => ("pad: centre sticks", AMBER),
                    PadState::DeadmanReleased => ("pad: dead-man released", AMBER),
                    PadState::Ready => ("pad ready", GREEN),
                };
                let source = match hud.input.source {
                    Source::None => "",
                    Source::Gamepad => "  ◀ pad drives",
                    Source::Keyboard => "  ◀ keys drive",
                };
                ui.label(
                    egui::RichText::new(format!(
                        "{pad}{source}{}",
                        if hud.input.slow { "  SLOW" } else { "" }
                    ))
                    .color(color)
                    .monospace(),
                );
            });
        });
}

fn draw_warnings(ctx: &egui::Context, hud: &HudData, warnings: &mut Vec<Warning>, top: f32) {
    hud.warnings(warnings);
    if warnings.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::new("warnings"))
        .anchor(Align2::CENTER_TOP, Vec2::new(0.0, top))
        .interactable(false)
        .show(ctx, |ui| {
            for w in warnings.iter() {
                let (text, color) = match *w {
                    Warning::RolledOver => ("ROLLED OVER".to_string(), RED),
                    Warning::Tip {
                        level,
                        direction,
                        margin,
                    } => (
                        if level == TipLevel::Over {
                            format!("TIPPING OVER {}", direction.to_uppercase())
                        } else {
                            format!(
                                "TIP-OVER RISK {}: {:.0}° left",
                                direction.to_uppercase(),
                                deg(margin)
                            )
                        },
                        level_color(level),
                    ),
                    Warning::Stall(i) => (
                        format!(
                            "{} MOTOR STALLED",
                            hud.tracks
                                .get(i)
                                .map_or("?".into(), |t| t.name.to_uppercase())
                        ),
                        RED,
                    ),
                    Warning::PadLost => ("GAMEPAD LOST: ROBOT STOPPED".into(), RED),
                    Warning::PadCentre => ("GAMEPAD: CENTRE THE STICKS".into(), AMBER),
                    Warning::Deadman => ("DEAD-MAN RELEASED".into(), AMBER),
                    Warning::Halted(status) => (halted_text(&status), RED),
                    Warning::BlowUp => ("PHYSICS RESET (blow-up recovered)".into(), AMBER),
                    Warning::Paused => ("PAUSED".into(), AMBER),
                };
                panel().show(ui, |ui| {
                    ui.label(egui::RichText::new(text).color(color).strong().size(22.0));
                });
            }
        });
}

/// The banner of a halted robot.
pub fn halted_text(status: &crate::sim::RobotStatus) -> String {
    use crate::sim::RobotStatus;
    match status {
        RobotStatus::Active => String::new(),
        RobotStatus::OutOfBounds { .. } => "OUT OF BOUNDS: ROBOT STOPPED (press reset)".into(),
        RobotStatus::Fell {
            below_scene: true, ..
        } => "FELL OFF THE SCENE: ROBOT STOPPED (press reset)".into(),
        RobotStatus::Fell { .. } => "ROBOT FELL: STOPPED (press reset)".into(),
        RobotStatus::Disabled { .. } => {
            "PHYSICS FAILED REPEATEDLY: ROBOT DISABLED (press reset)".into()
        }
    }
}

fn draw_instructor(ctx: &egui::Context, hud: &HudData, frame: &Frame<'_>, req: &mut UiRequests) {
    egui::Area::new(egui::Id::new("instructor"))
        .anchor(Align2::LEFT_TOP, Vec2::new(10.0, 150.0))
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.label(egui::RichText::new("INSTRUCTOR").color(AMBER).small());
                ui.horizontal(|ui| {
                    let pause = if hud.paused {
                        "▶ Resume"
                    } else {
                        "⏸ Pause"
                    };
                    req.toggle_pause |= ui.button(pause).clicked();
                    req.single_step |= ui
                        .add_enabled(hud.paused, egui::Button::new("Step"))
                        .clicked();
                    req.reset |= ui.button("Reset").clicked();
                });
                ui.horizontal(|ui| {
                    req.slower |= ui.button("−").clicked();
                    ui.label(egui::RichText::new(format!("×{:.2}", hud.speed)).monospace());
                    req.faster |= ui.button("+").clicked();
                });
                ui.label(egui::RichText::new("Main view").color(DIM).small());
                ui.horizontal_wrapped(|ui| {
                    for (i, name) in frame.views.iter().enumerate() {
                        if ui.selectable_label(i == frame.main_index, name).clicked() {
                            req.main_view = Some(i);
                        }
                    }
                });
                ui.label(egui::RichText::new("Picture-in-picture").color(DIM).small());
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .selectable_label(frame.pip_index.is_none(), "off")
                        .clicked()
                    {
                        req.pip_view = Some(None);
                    }
                    for (i, name) in frame.views.iter().enumerate() {
                        if ui
                            .selectable_label(frame.pip_index == Some(i), name)
                            .clicked()
                        {
                            req.pip_view = Some(Some(i));
                        }
                    }
                });
                if frame.exercise {
                    // The instructor's demonstration: the autopilot drives the route.
                    let label = if frame.autopilot {
                        "Take back the robot"
                    } else {
                        "Autopilot demo"
                    };
                    req.autopilot |= ui.button(label).clicked();
                }
                if !frame.locked {
                    req.trainee |= ui.button("Trainee view").clicked();
                }
            });
        });
}

fn draw_help(ctx: &egui::Context, frame: &Frame<'_>) {
    egui::Area::new(egui::Id::new("help"))
        .anchor(Align2::RIGHT_BOTTOM, Vec2::new(-10.0, -160.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                let mut lines = vec![
                    "Keys of the default mapping:",
                    "W/S ↑/↓ drive   A/D ←/→ turn   Shift slow",
                    "E/Q PgUp/PgDn flipper   C/Tab X camera",
                    "P/Space pause   N step   Backspace reset",
                    "F2 picture-in-picture   F1 this help",
                ];
                if !frame.trainee {
                    lines.push("F3/F4 slower/faster   V trainee view");
                    lines.push("free view: drag to turn, right-drag to pan, wheel to zoom");
                }
                for l in lines {
                    ui.label(egui::RichText::new(l).color(TEXT).monospace());
                }
            });
        });
}
