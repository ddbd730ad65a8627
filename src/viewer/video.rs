//! The link's video conditions on the station's screen: a dead camera shows NO SIGNAL, a
//! frame-rate cap or a dropout holds the picture (the station renders a new frame only when
//! the link delivers one, see [`VideoFeed`]), video latency shows the robot's surroundings as
//! they were when the frame was captured ([`DelayLine`]), noise speckles the picture and a
//! dirty lens dims and smudges it.

use std::collections::VecDeque;

use kiss3d::egui::{self, Align2, Color32, FontId, Pos2, Rect, Vec2};

use super::cameras::{View, ViewKind};
use crate::link::{LinkConditions, VideoFeed};
use crate::vehicle::{BodyState, Drivetrain};

/// The robot's recent states, so an onboard camera with video latency shows the world as it
/// was when its frame was captured (the scene is static; only the robot moves).
#[derive(Default)]
pub struct DelayLine {
    /// `(simulation time s, hull state, track model)`, oldest first.
    states: VecDeque<(f64, BodyState, Drivetrain)>,
}

impl DelayLine {
    /// Keeps the state at `t` (s), forgetting what is more than `keep` s older than the
    /// newest state still needed (the newest at or before `t − keep`).
    pub fn push(&mut self, t: f64, body: BodyState, robot: &Drivetrain, keep: f64) {
        if self.states.back().is_some_and(|s| s.0 >= t) {
            // Paused or seeking back: start over from here.
            self.states.clear();
        }
        self.states.push_back((t, body, robot.clone()));
        while self.states.len() > 1 && self.states[1].0 <= t - keep {
            self.states.pop_front();
        }
    }

    /// The newest state at or before `capture` (s).
    pub fn at(&self, capture: f64) -> Option<(&BodyState, &Drivetrain)> {
        self.states
            .iter()
            .rev()
            .find(|s| s.0 <= capture)
            .map(|s| (&s.1, &s.2))
    }

    /// Forgets every state.
    pub fn clear(&mut self) {
        self.states.clear();
    }

    /// States kept.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether none are kept.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// A live picture, not through the link (a third-person view): rendered every frame.
pub const LIVE: VideoFeed = VideoFeed::Frame {
    capture: f64::NAN,
    frozen: false,
    noise: 0.0,
    dirt: 0.0,
};

/// What `view` shows at `t` (s): an onboard camera's feed through the link, or [`LIVE`].
pub fn view_feed(view: &View, link: &LinkConditions, t: f64) -> VideoFeed {
    match view.kind {
        ViewKind::Onboard(_) | ViewKind::Gripper => link.feed(&view.name, t),
        _ => LIVE,
    }
}

/// Whether the feed needs a new render: a live picture always; a link's frame when it is a
/// new one, or for another view or size.
pub fn needs_render(
    feed: &VideoFeed,
    key: (usize, (u32, u32)),
    last: &mut Option<(f64, usize, (u32, u32))>,
) -> bool {
    match *feed {
        VideoFeed::Frame { capture, .. } if capture.is_nan() => {
            *last = None;
            true
        }
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

/// Paints the feed's condition over `rect` (the main view or the picture-in-picture) with
/// `painter`, after the picture.
pub fn paint(painter: &egui::Painter, rect: Rect, feed: &VideoFeed, frame: u64) {
    let size = (rect.height() / 8.0).clamp(12.0, 48.0);
    let banner = |text: &str, color: Color32| {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(size),
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
                // As dense on a small picture as on the full screen.
                let count = (noise * 4000.0 * f64::from(rect.area()) / (1280.0 * 720.0)) as u64;
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
                    rect.center_top() + Vec2::new(0.0, rect.height() / 6.0),
                    Align2::CENTER_CENTER,
                    "LINK LOST — picture frozen, robot stopped",
                    FontId::proportional(size / 2.0),
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
    fn the_delay_line_gives_the_state_of_the_capture_time_and_forgets_older_ones() {
        let robot = Drivetrain::new(
            crate::vehicle::robot_file::load_robot(std::path::Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scenes/robots/scout.toml"
            )))
            .expect("scout"),
        )
        .expect("model");
        let body = |x: f64| BodyState {
            pose: nalgebra::Isometry3::translation(x, 0.0, 0.0),
            com: nalgebra::Point3::new(x, 0.0, 0.1),
            linvel: nalgebra::Vector3::zeros(),
            angvel: nalgebra::Vector3::zeros(),
        };
        let mut line = DelayLine::default();
        for k in 0..100 {
            let t = k as f64 * 0.1;
            line.push(t, body(t), &robot, 0.5);
        }
        // 9.9 s now, 0.5 s late: the state of 9.4 s (the newest at or before 9.4).
        let (b, _) = line.at(9.9 - 0.5).expect("kept");
        assert!((b.pose.translation.x - 9.4).abs() < 1e-9);
        assert!(line.len() <= 7, "{} states kept", line.len());
        assert!(line.at(1.0).is_none(), "forgotten");
        // Time going backwards (a replay seeking) starts over.
        line.push(2.0, body(2.0), &robot, 0.5);
        assert_eq!(line.len(), 1);
    }

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
        // A live picture renders every time.
        assert!(needs_render(&LIVE, (1, (800, 450)), &mut last));
        assert!(needs_render(&LIVE, (1, (800, 450)), &mut last));
    }

    /// Every shape egui would draw, nested lists flattened.
    fn painted(view: Rect, feed: &VideoFeed) -> Vec<egui::Shape> {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(view),
            ..Default::default()
        };
        let full = ctx.run_ui(input, |ui| {
            paint(
                &ui.ctx().layer_painter(egui::LayerId::background()),
                view,
                feed,
                0,
            );
        });
        let mut flat = Vec::new();
        let mut stack: Vec<egui::Shape> = full.shapes.iter().map(|c| c.shape.clone()).collect();
        while let Some(shape) = stack.pop() {
            match shape {
                egui::Shape::Vec(inner) => stack.extend(inner),
                other => flat.push(other),
            }
        }
        full.drop_without_applying_deltas();
        flat
    }

    /// Issue 8's check, headless from the link to the painted screen: a dead front camera's
    /// feed is no signal (the chase view stays live), and no signal paints the whole view
    /// near-black with a red NO SIGNAL in its middle; a live picture gets no such card.
    #[test]
    fn a_dead_camera_renders_as_no_signal() {
        use crate::link::{CameraFault, CameraFaultKind};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/robots/scout.toml");
        let spec =
            crate::vehicle::robot_file::load_robot(std::path::Path::new(path)).expect("scout");
        let views = super::super::cameras::views(&spec);
        let view = |name: &str| views.iter().find(|v| v.name == name).expect("view");
        let link = LinkConditions {
            camera_faults: vec![CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Dead,
                start: 1.0,
            }],
            ..Default::default()
        };
        assert!(matches!(
            view_feed(view("front"), &link, 0.5),
            VideoFeed::Frame { .. }
        ));
        let feed = view_feed(view("front"), &link, 1.5);
        assert_eq!(feed, VideoFeed::NoSignal);
        assert!(matches!(
            view_feed(view("chase"), &link, 1.5),
            VideoFeed::Frame { capture, .. } if capture.is_nan()
        ));

        let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(640.0, 360.0));
        let shapes = painted(screen, &feed);
        let card = shapes.iter().any(|s| {
            matches!(s, egui::Shape::Rect(r)
                if r.rect == screen && r.fill == Color32::from_rgb(8, 8, 10))
        });
        assert!(card, "no black card over the view: {shapes:?}");
        let banner = shapes.iter().find_map(|s| match s {
            egui::Shape::Text(t) if t.galley.text() == "NO SIGNAL" => Some(t),
            _ => None,
        });
        let banner = banner.expect("no NO SIGNAL text");
        let centre = banner.visual_bounding_rect().center();
        assert!((centre - screen.center()).length() < 2.0, "{centre:?}");
        let colour = banner.galley.job.sections[0].format.color;
        assert_eq!(colour, Color32::from_rgb(230, 60, 50));

        let live = painted(screen, &LIVE);
        assert!(
            live.iter()
                .all(|s| !matches!(s, egui::Shape::Rect(_) | egui::Shape::Text(_))),
            "a live picture is painted over: {live:?}"
        );
    }
}
