//! The panels' look, shared by the HUD, its instruments, the exercise overlay, the link panel
//! and the replay bar: colours for safe, caution and danger, and the panel frame.

use kiss3d::egui::{self, Color32};

use crate::vehicle::stability::TipLevel;
use crate::vehicle::stall::STALL_TORQUE_FRACTION;

/// Safe: within limits.
pub(super) const GREEN: Color32 = Color32::from_rgb(70, 210, 110);
/// Caution: nearing a limit.
pub(super) const AMBER: Color32 = Color32::from_rgb(255, 176, 32);
/// Danger: at or past a limit.
pub(super) const RED: Color32 = Color32::from_rgb(255, 70, 60);
/// Readouts.
pub(super) const TEXT: Color32 = Color32::from_rgb(230, 232, 235);
/// Labels and secondary text.
pub(super) const DIM: Color32 = Color32::from_rgb(150, 155, 160);
/// A panel's translucent background.
pub(super) const PANEL: Color32 = Color32::from_rgba_premultiplied(12, 14, 18, 200);

/// The colour of a tip-over warning level.
pub(super) fn level_color(level: TipLevel) -> Color32 {
    match level {
        TipLevel::Safe => GREEN,
        TipLevel::Caution => AMBER,
        TipLevel::Danger | TipLevel::Over => RED,
    }
}

/// The colour of a motor load (share of its stall torque).
pub(super) fn load_color(load: f64) -> Color32 {
    if load >= STALL_TORQUE_FRACTION {
        RED
    } else if load >= 0.7 {
        AMBER
    } else {
        GREEN
    }
}

/// A panel's frame: translucent, padded, rounded.
pub(super) fn panel() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .inner_margin(8.0)
        .corner_radius(6.0)
}

/// Radians to degrees, for readouts.
pub(super) fn deg(r: f64) -> f64 {
    r.to_degrees()
}
