//! The instructor's link panel: drop the link, kill or degrade a camera, set the command
//! latency, the video frame rate and the light (darkness), live. Each click becomes a session input, so the log
//! holds it and a replay makes it at the same step.

use kiss3d::egui::{self, Align2, Vec2};

use super::palette::{panel, AMBER, DIM, TEXT};

use crate::link::{CameraFaultKind, LinkChange, LinkConditions};

/// Command latencies offered, s.
const LATENCIES: [f64; 4] = [0.0, 0.25, 0.5, 1.0];
/// Video frame-rate caps offered, frames/s (`None`: no cap).
const FRAME_RATES: [Option<f64>; 4] = [None, Some(15.0), Some(5.0), Some(2.0)];
/// Light levels offered, fractions of daylight (`None`: daylight): dusk, and dark enough that
/// only the robot's lamps show the scene.
const LIGHTS: [(&str, Option<f64>); 3] =
    [("day", None), ("dusk", Some(0.25)), ("dark", Some(0.02))];
/// Dropout lengths offered, s.
const DROPOUTS: [f64; 2] = [3.0, 10.0];
/// Noise and dirt levels an instructor sets.
const LEVEL: f64 = 0.5;

/// Paints the panel for `link` at simulation time `t` (s) and appends what the instructor
/// clicked to `out`.
pub fn draw(
    ctx: &egui::Context,
    cameras: &[String],
    link: &LinkConditions,
    t: f64,
    out: &mut Vec<LinkChange>,
) {
    egui::Area::new(egui::Id::new("link panel"))
        .anchor(Align2::LEFT_CENTER, Vec2::new(10.0, 40.0))
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                let up = link.link_up(t);
                ui.label(
                    egui::RichText::new(if up { "LINK up" } else { "LINK DOWN" })
                        .color(if up { TEXT } else { AMBER })
                        .strong(),
                );
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("drop").color(DIM));
                    for d in DROPOUTS {
                        if ui.button(format!("{d:.0} s")).clicked() {
                            out.push(LinkChange::Dropout { duration: d });
                        }
                    }
                });
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("command lag").color(DIM));
                    for l in LATENCIES {
                        let on = (link.command_latency - l).abs() < 1e-9;
                        if ui
                            .selectable_label(on, format!("{:.0} ms", l * 1e3))
                            .clicked()
                            && !on
                        {
                            out.push(LinkChange::CommandLatency(l));
                        }
                    }
                });
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("video").color(DIM));
                    for f in FRAME_RATES {
                        let on = link.video_fps == f;
                        let label = f.map_or("full".to_owned(), |f| format!("{f:.0} fps"));
                        if ui.selectable_label(on, label).clicked() && !on {
                            out.push(LinkChange::VideoFps(f));
                        }
                    }
                });
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("light").color(DIM));
                    for (name, level) in LIGHTS {
                        let on = link.ambient_light == level;
                        if ui.selectable_label(on, name).clicked() && !on {
                            out.push(LinkChange::AmbientLight(level));
                        }
                    }
                });
                for camera in cameras {
                    ui.horizontal(|ui| {
                        ui.label(egui::RichText::new(camera).color(DIM));
                        let now = link.camera_fault(camera, t);
                        for (name, kind) in [
                            ("ok", CameraFaultKind::Clear),
                            ("dead", CameraFaultKind::Dead),
                            ("noise", CameraFaultKind::Noise(LEVEL)),
                            ("dirty", CameraFaultKind::Dirty(LEVEL)),
                        ] {
                            let on = match (now, kind) {
                                (None, CameraFaultKind::Clear) => true,
                                (Some(a), b) => {
                                    std::mem::discriminant(&a) == std::mem::discriminant(&b)
                                }
                                _ => false,
                            };
                            if ui.selectable_label(on, name).clicked() && !on {
                                out.push(LinkChange::CameraFault {
                                    camera: camera.clone(),
                                    kind,
                                });
                            }
                        }
                    });
                }
            });
        });
}
