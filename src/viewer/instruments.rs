//! The panel's instruments in the bottom corners: belt speed and motor load bars, ground
//! speed, the terrain profile ahead from the range sensor, pitch and roll inclinometers with
//! the tip-over limits, the flipper's angle and load.

use kiss3d::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};

use crate::vehicle::stability::tip_level;

use super::hud_data::HudData;
use super::palette::{deg, level_color, load_color, panel, AMBER, DIM, GREEN, RED, TEXT};

/// Two clusters in the bottom corners, so the middle of the picture's lower edge — where the
/// tracks meet the step ahead — stays clear.
pub(super) fn draw_instruments(ctx: &egui::Context, hud: &HudData) {
    egui::Area::new(egui::Id::new("drive"))
        .anchor(Align2::LEFT_BOTTOM, Vec2::new(10.0, -10.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.horizontal(|ui| {
                    belts(ui, hud);
                    ui.separator();
                    speed(ui, hud);
                });
            });
        });
    egui::Area::new(egui::Id::new("attitude"))
        .anchor(Align2::RIGHT_BOTTOM, Vec2::new(-10.0, -10.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.horizontal(|ui| {
                    if let Some(terrain) = &hud.terrain {
                        super::terrain_panel::draw_profile(ui, terrain);
                        ui.separator();
                    }
                    inclinometer(ui, hud, true);
                    inclinometer(ui, hud, false);
                    if hud.flipper.is_some() {
                        ui.separator();
                        flipper(ui, hud);
                    }
                    if hud.steer.is_some() {
                        ui.separator();
                        steering(ui, hud);
                    }
                });
            });
        });
}

/// A drive's label: the initials of its name's words (`front_left` → `FL`, `left` → `L`).
fn short_name(name: &str) -> String {
    name.split(['_', ' ', '-'])
        .filter_map(|w| w.chars().next())
        .collect::<String>()
        .to_uppercase()
}

/// Belt speed bars (actual filled, commanded as a white tick) and motor load bars.
fn belts(ui: &mut egui::Ui, hud: &HudData) {
    let n = hud.tracks.len().max(1) as f32;
    let (_, p) = ui.allocate_painter(Vec2::new(34.0 * n + 10.0, 120.0), Sense::hover());
    let r = p.clip_rect();
    for (i, t) in hud.tracks.iter().enumerate() {
        let x0 = r.left() + 6.0 + 34.0 * i as f32;
        let bar = Rect::from_min_size(Pos2::new(x0, r.top() + 16.0), Vec2::new(14.0, 70.0));
        p.rect_filled(bar, 2.0, Color32::from_gray(40));
        let mid = bar.center().y;
        let scale = bar.height() / 2.0 / t.max_speed.max(1e-6) as f32;
        let v = (t.belt_speed as f32 * scale).clamp(-bar.height() / 2.0, bar.height() / 2.0);
        let fill = Rect::from_two_pos(Pos2::new(bar.left(), mid), Pos2::new(bar.right(), mid - v));
        p.rect_filled(fill, 0.0, if t.stalled() { RED } else { GREEN });
        let c = mid - (t.commanded as f32 * scale).clamp(-bar.height() / 2.0, bar.height() / 2.0);
        p.line_segment(
            [
                Pos2::new(bar.left() - 3.0, c),
                Pos2::new(bar.right() + 3.0, c),
            ],
            Stroke::new(2.0, Color32::WHITE),
        );
        p.line_segment(
            [Pos2::new(bar.left(), mid), Pos2::new(bar.right(), mid)],
            Stroke::new(1.0, DIM),
        );
        // Motor load, bottom: a short horizontal bar.
        let load = t.load() as f32;
        let lb = Rect::from_min_size(
            Pos2::new(x0 - 4.0, bar.bottom() + 6.0),
            Vec2::new(22.0, 6.0),
        );
        p.rect_filled(lb, 1.0, Color32::from_gray(40));
        p.rect_filled(
            Rect::from_min_size(lb.min, Vec2::new(22.0 * load, 6.0)),
            1.0,
            load_color(t.load()),
        );
        let label = short_name(&t.name);
        p.text(
            Pos2::new(bar.center().x, r.top() + 2.0),
            Align2::CENTER_TOP,
            label,
            FontId::proportional(12.0),
            TEXT,
        );
        p.text(
            Pos2::new(bar.center().x, lb.bottom() + 3.0),
            Align2::CENTER_TOP,
            format!("{:+.2}", t.belt_speed),
            FontId::monospace(10.0),
            DIM,
        );
    }
}

fn speed(ui: &mut egui::Ui, hud: &HudData) {
    ui.vertical(|ui| {
        ui.set_width(96.0);
        ui.label(egui::RichText::new("GROUND").color(DIM).small());
        ui.label(
            egui::RichText::new(format!("{:+.2}", hud.ground_speed))
                .color(TEXT)
                .monospace()
                .size(26.0),
        );
        ui.label(egui::RichText::new("m/s").color(DIM));
        if let Some(limit) = hud.speed_limit {
            let over = hud.ground_speed.abs() > limit;
            ui.label(
                egui::RichText::new(format!("limit {limit:.2}"))
                    .color(if over { AMBER } else { DIM })
                    .monospace(),
            );
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new("MOTOR LOAD").color(DIM).small());
        for t in &hud.tracks {
            ui.label(
                egui::RichText::new(format!(
                    "{:<5} {:>3.0}%",
                    short_name(&t.name),
                    100.0 * t.load()
                ))
                .color(load_color(t.load()))
                .monospace(),
            );
        }
    });
}

/// Pitch (side view, nose right) or roll (rear view, left side left) dial: the robot
/// silhouette tilts against a level scale; red ticks mark the static tip-over limits.
fn inclinometer(ui: &mut egui::Ui, hud: &HudData, pitch: bool) {
    let (_, p) = ui.allocate_painter(Vec2::new(120.0, 120.0), Sense::hover());
    let r = p.clip_rect();
    let c = Pos2::new(r.center().x, r.top() + 58.0);
    let radius = 46.0;
    // The silhouette turns on screen by `angle`, counter-clockwise positive. Pitch is seen
    // from the right side (nose right): nose up is counter-clockwise. Roll is seen from
    // behind (left side left): left side up is clockwise. The limits are the screen angles
    // at which the robot tips, counter-clockwise first.
    let (angle, lim_ccw, lim_cw, margin) = if pitch {
        (
            hud.tilt.nose_up,
            hud.limits.backward,
            hud.limits.forward,
            hud.margins.backward.min(hud.margins.forward),
        )
    } else {
        (
            -hud.tilt.left_up,
            hud.limits.left,
            hud.limits.right,
            hud.margins.left.min(hud.margins.right),
        )
    };
    let level = tip_level(margin, hud.tilt.upside_down);
    let color = level_color(level);
    p.circle_filled(c, radius, Color32::from_gray(28));
    p.circle_stroke(c, radius, Stroke::new(1.5, DIM));
    // Screen y points down: a positive (counter-clockwise) angle is −y.
    let at = |a: f64, r1: f32| {
        let a = a as f32;
        Pos2::new(c.x + r1 * a.cos(), c.y - r1 * a.sin())
    };
    for d in [-60.0f64, -45.0, -30.0, -15.0, 0.0, 15.0, 30.0, 45.0, 60.0] {
        let a = d.to_radians();
        for side in [0.0, std::f64::consts::PI] {
            p.line_segment(
                [at(a + side, radius - 6.0), at(a + side, radius)],
                Stroke::new(1.0, DIM),
            );
        }
    }
    // Both ends of the silhouette reach a limit mark together.
    for (a, side) in [
        (lim_ccw, 0.0),
        (-lim_cw, 0.0),
        (lim_ccw, std::f64::consts::PI),
        (-lim_cw, std::f64::consts::PI),
    ] {
        p.line_segment(
            [at(a + side, radius - 12.0), at(a + side, radius)],
            Stroke::new(3.0, RED),
        );
    }
    // The robot: a body and its tracks, tilted by `angle`.
    let (s, k) = (angle as f32).sin_cos();
    let rot = |x: f32, y: f32| Pos2::new(c.x + x * k - y * s, c.y - (x * s + y * k));
    let (w, h) = if pitch { (32.0, 10.0) } else { (26.0, 12.0) };
    let body = vec![rot(-w, -2.0), rot(w, -2.0), rot(w, h), rot(-w, h)];
    p.add(egui::Shape::convex_polygon(body, color, Stroke::NONE));
    p.line_segment(
        [rot(-w - 4.0, -6.0), rot(w + 4.0, -6.0)],
        Stroke::new(4.0, Color32::from_gray(200)),
    );
    if pitch {
        // Nose marker.
        p.circle_filled(rot(w - 4.0, h + 4.0), 3.0, Color32::WHITE);
    }
    p.line_segment(
        [at(0.0, radius), at(std::f64::consts::PI, radius)],
        Stroke::new(1.0, Color32::from_gray(90)),
    );
    let label = if pitch {
        format!("PITCH {:+.0}°", deg(hud.tilt.nose_up))
    } else {
        format!("ROLL {:+.0}°", deg(hud.tilt.left_up))
    };
    p.text(
        Pos2::new(c.x, r.bottom() - 2.0),
        Align2::CENTER_BOTTOM,
        label,
        FontId::monospace(12.0),
        color,
    );
}

/// The front wheels seen from above at the outer wheel's steering angle, with the limits.
fn steering(ui: &mut egui::Ui, hud: &HudData) {
    let Some(angle) = hud.steer else {
        return;
    };
    let (_, p) = ui.allocate_painter(Vec2::new(110.0, 134.0), Sense::hover());
    let r = p.clip_rect();
    let hub = Pos2::new(r.center().x, r.top() + 58.0);
    // Up the screen is forward; a left turn (positive) leans the wheel to the left.
    let along = |a: f32, len: f32| Vec2::new(-len * a.sin(), -len * a.cos());
    for limit in [-hud.steer_max, hud.steer_max] {
        let a = limit as f32;
        p.line_segment([hub, hub + along(a, 44.0)], Stroke::new(1.0, DIM));
    }
    let a = angle as f32;
    p.line_segment(
        [hub - along(a, 30.0), hub + along(a, 30.0)],
        Stroke::new(10.0, Color32::from_gray(40)),
    );
    p.line_segment(
        [hub - along(a, 30.0), hub + along(a, 30.0)],
        Stroke::new(2.0, Color32::from_rgb(240, 200, 30)),
    );
    p.circle_filled(hub, 4.0, Color32::WHITE);
    let side = if angle > 0.0 {
        "L"
    } else if angle < 0.0 {
        "R"
    } else {
        ""
    };
    p.text(
        Pos2::new(r.center().x, r.bottom() - 16.0),
        Align2::CENTER_BOTTOM,
        format!("STEER {:.0}°{side}", deg(angle.abs())),
        FontId::monospace(12.0),
        TEXT,
    );
}

fn flipper(ui: &mut egui::Ui, hud: &HudData) {
    let Some(angle) = hud.flipper else {
        return;
    };
    let (_, p) = ui.allocate_painter(Vec2::new(120.0, 134.0), Sense::hover());
    let r = p.clip_rect();
    let pivot = Pos2::new(r.left() + 46.0, r.top() + 58.0);
    // Main track behind the pivot, flipper ahead of it at its angle (up = counter-clockwise).
    p.line_segment(
        [Pos2::new(pivot.x - 40.0, pivot.y), pivot],
        Stroke::new(8.0, Color32::from_gray(120)),
    );
    let (lo, hi) = hud.flipper_range;
    for a in [lo, hi] {
        if a.is_finite() {
            let a = a as f32;
            p.line_segment(
                [
                    pivot,
                    Pos2::new(pivot.x + 44.0 * a.cos(), pivot.y - 44.0 * a.sin()),
                ],
                Stroke::new(1.0, DIM),
            );
        }
    }
    let a = angle as f32;
    let tip = Pos2::new(pivot.x + 40.0 * a.cos(), pivot.y - 40.0 * a.sin());
    p.line_segment(
        [pivot, tip],
        Stroke::new(7.0, Color32::from_rgb(240, 200, 30)),
    );
    p.circle_filled(pivot, 5.0, Color32::WHITE);
    p.text(
        Pos2::new(r.center().x, r.bottom() - 16.0),
        Align2::CENTER_BOTTOM,
        format!("FLIPPER {:+.0}°", deg(angle)),
        FontId::monospace(12.0),
        TEXT,
    );
    // Drive torque (largest of the flippers) and a stall flag next to the angle.
    let (label, color) = if hud.flipper_stalled {
        (format!("{:+.0} N·m STALL", hud.flipper_torque), RED)
    } else if hud.flipper_torque.abs() > 0.8 * hud.flipper_max_torque {
        (format!("{:+.0} N·m", hud.flipper_torque), AMBER)
    } else {
        (format!("{:+.0} N·m", hud.flipper_torque), DIM)
    };
    p.text(
        Pos2::new(r.center().x, r.bottom() - 2.0),
        Align2::CENTER_BOTTOM,
        label,
        FontId::monospace(11.0),
        color,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drive_labels_are_the_initials_of_their_names() {
        assert_eq!(short_name("left"), "L");
        assert_eq!(short_name("front_left"), "FL");
        assert_eq!(short_name("middle_right"), "MR");
    }
}
