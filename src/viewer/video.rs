//! The link's video conditions on the station's screen: a dead camera shows NO SIGNAL, a
//! frame-rate cap or a dropout holds the picture (the station renders a new frame only when
//! the link delivers one, see [`VideoFeed`]), noise speckles the picture and a dirty lens dims
//! and smudges it.

use kiss3d::egui::{self, Align2, Color32, FontId, Pos2, Rect, Vec2};

use crate::sim::link::VideoFeed;

/// Whether the feed needs a new render: a new frame delivered, or another view or size.
pub fn needs_render(
    feed: &VideoFeed,
    key: (usize, (u32, u32)),
    last: &mut Option<(f64, usize, (u32, u32))>,
) -> bool {
    match *feed {
        VideoFeed::Frame { capture, .. } => {
            let now = (capture, key.0, key.1);
            if last
                .is_some_and(|l| l.0.to_bits() == now.0.to_bits() && l.1 == now.1 && l.2 == now.2)
            {
                false
            } else {
                *last = Some(now);
                true
            }
        }
        VideoFeed::Waiting | VideoFeed::NoSignal => {
            *last = None;
            false
        }
    }
}

/// A small deterministic hash for speckle positions.
fn hash(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// Paints the feed's condition over `rect` (the main view): called after the picture.
pub fn paint(ctx: &egui::Context, rect: Rect, feed: &VideoFeed, frame: u64) {
    let painter = ctx.layer_painter(egui::LayerId::background());
    let banner = |text: &str, color: Color32| {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(48.0),
            color,
        );
    };
    match *feed {
        VideoFeed::NoSignal => {
            painter.rect_filled(rect, 0.0, Color32::from_rgb(8, 8, 10));
            banner("NO SIGNAL", Color32::from_rgb(230, 60, 50));
        }
        VideoFeed::Waiting => {
            painter.rect_filled(rect, 0.0, Color32::from_rgb(8, 8, 10));
            banner("NO VIDEO YET", Color32::from_gray(180));
        }
        VideoFeed::Frame {
            frozen,
            noise,
            dirt,
            ..
        } => {
            if dirt > 0.0 {
                // Dimmed, with smudges fixed on the lens.
                painter.rect_filled(
                    rect,
                    0.0,
                    Color32::from_rgba_unmultiplied(40, 32, 20, (dirt * 110.0) as u8),
                );
                for k in 0..9u64 {
                    let h = hash(k + 17);
                    let x = rect.left() + (h % 1000) as f32 / 1000.0 * rect.width();
                    let y = rect.top() + ((h >> 20) % 1000) as f32 / 1000.0 * rect.height();
                    let r = (0.05 + ((h >> 40) % 100) as f32 / 1000.0) * rect.width();
                    painter.circle_filled(
                        Pos2::new(x, y),
                        r,
                        Color32::from_rgba_unmultiplied(70, 55, 35, (dirt * 150.0) as u8),
                    );
                }
            }
            if noise > 0.0 {
                // Speckles that change every frame, as sensor noise does.
                let count = (noise * 4000.0) as u64;
                for k in 0..count {
                    let h = hash(frame.wrapping_mul(1_000_003).wrapping_add(k));
                    let x = rect.left() + (h % 10_000) as f32 / 10_000.0 * rect.width();
                    let y = rect.top() + ((h >> 16) % 10_000) as f32 / 10_000.0 * rect.height();
                    let g = ((h >> 40) % 256) as u8;
                    painter.rect_filled(
                        Rect::from_min_size(Pos2::new(x, y), Vec2::splat(3.0)),
                        0.0,
                        Color32::from_rgba_unmultiplied(g, g, g, (noise * 255.0) as u8),
                    );
                }
            }
            if frozen {
                painter.text(
                    rect.center_top() + Vec2::new(0.0, 120.0),
                    Align2::CENTER_CENTER,
                    "LINK LOST — picture frozen, robot stopped",
                    FontId::proportional(24.0),
                    Color32::from_rgb(255, 176, 32),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_renders_once_and_again_for_a_new_frame_view_or_size() {
        let frame = |capture| VideoFeed::Frame {
            capture,
            frozen: false,
            noise: 0.0,
            dirt: 0.0,
        };
        let mut last = None;
        assert!(needs_render(&frame(1.0), (0, (640, 360)), &mut last));
        assert!(!needs_render(&frame(1.0), (0, (640, 360)), &mut last));
        assert!(needs_render(&frame(1.1), (0, (640, 360)), &mut last));
        assert!(needs_render(&frame(1.1), (1, (640, 360)), &mut last));
        assert!(needs_render(&frame(1.1), (1, (800, 450)), &mut last));
        assert!(!needs_render(
            &VideoFeed::NoSignal,
            (1, (800, 450)),
            &mut last
        ));
        // After no signal the next frame renders even if it is the same capture.
        assert!(needs_render(&frame(1.1), (1, (800, 450)), &mut last));
    }
}
