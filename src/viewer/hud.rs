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

pub use super::hud_data::*;
use super::palette::{deg, level_color, panel, AMBER, DIM, GREEN, RED, TEXT};
use crate::input::{ControlMode, PadState, Source};
use crate::vehicle::stability::TipLevel;

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
    /// Why the autopilot stopped, if it gave up.
    pub autopilot_gave_up: Option<&'a str>,
}

/// Top offset of the warnings, px: under the exercise's goal and trial panels when they
/// are shown (`exercise_hud` puts them at 10 and 80 px), else at the top.
const WARNINGS_TOP: f32 = 12.0;
const WARNINGS_TOP_IN_EXERCISE: f32 = 190.0;

/// Panels never wrap their text: a wrapped readout jumps around as its numbers change.
fn no_wrap(ctx: &egui::Context) {
    if ctx.global_style().wrap_mode != Some(egui::TextWrapMode::Extend) {
        ctx.all_styles_mut(|s| s.wrap_mode = Some(egui::TextWrapMode::Extend));
    }
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
    if let Some(arm) = &hud.arm {
        super::arm_panel::draw_arm_panel(ctx, arm);
    }
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
                if let Some(arm) = &hud.arm {
                    let mode = hud.input.mode;
                    let color = if mode == ControlMode::Drive {
                        DIM
                    } else {
                        AMBER
                    };
                    ui.label(
                        egui::RichText::new(format!(
                            "{}{}",
                            mode.label(),
                            if arm.reaching_out {
                                "  ARM OUT: DRIVE SLOW"
                            } else {
                                ""
                            }
                        ))
                        .color(color)
                        .monospace()
                        .size(16.0),
                    );
                }
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
                    if let Some(why) = frame.autopilot_gave_up {
                        ui.label(
                            egui::RichText::new(format!("autopilot stopped: {why}")).color(AMBER),
                        );
                    }
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
