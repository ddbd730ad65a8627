//! Replay in the station (`treadsim station --replay LOG`): the logged session re-simulated
//! from its inputs while the instructor watches from any camera — play, pause, 0.25–8×, seek
//! on a timeline with the events marked, the panel as it was.
//!
//! Seeking backwards rebuilds the session from the log's header and re-simulates to the
//! target (the replay is deterministic, so it arrives at the logged state; about 100× real
//! time); seeking forwards re-simulates from where it is.

use kiss3d::egui::{self, Align2, Color32, Stroke, Vec2};

use super::palette::{panel, AMBER, GREEN, RED};
use super::ViewerError;
use crate::record::reader::LogEvent;
use crate::record::replay::{apply_logged_inputs, session_from_log};
use crate::record::Log;
use crate::session::{drive, Driver, Session};

/// A log being replayed: where its inputs stand.
pub struct ReplayCursor {
    log: Log,
    /// Index of the next input to apply.
    next: usize,
    /// Last step of the log.
    end: u64,
}

/// What the instructor asked of the timeline this frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TimelineRequest {
    /// Go to this simulation time, s.
    pub seek: Option<f64>,
    /// Play or pause.
    pub toggle_play: bool,
}

impl ReplayCursor {
    /// A cursor at the start of `log` (its session set up by the launcher).
    pub fn new(log: Log) -> Self {
        let end = log.last_complete_step();
        Self { log, next: 0, end }
    }

    /// The log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Whether the session has reached the log's end.
    pub fn at_end(&self, session: &Session) -> bool {
        session.sim().steps() >= self.end
    }

    /// Simulation time of the log's end, s.
    pub fn duration(&self) -> f64 {
        self.log.last_complete_time()
    }

    /// Takes the session to the step nearest `time` (s) within the log: from the start again
    /// when that lies behind it.
    pub fn seek(&mut self, session: &mut Session, time: f64) -> Result<(), ViewerError> {
        let dt = session.sim().config().dt;
        let target = ((time.max(0.0) / dt).round() as u64).min(self.end);
        if target < session.sim().steps() {
            *session = session_from_log(&self.log)?;
            self.next = 0;
        }
        let steps = target.saturating_sub(session.sim().steps());
        drive(session, self, steps, |_| true);
        self.before_step(session);
        Ok(())
    }

    /// The events, in order.
    pub fn events(&self) -> &[LogEvent] {
        &self.log.events
    }
}

impl Driver for ReplayCursor {
    /// Applies the logged inputs of the session's current step.
    fn before_step(&mut self, session: &mut Session) {
        apply_logged_inputs(&self.log, &mut self.next, session);
    }
}

/// Colour of an event's mark on the timeline.
fn event_colour(e: &LogEvent) -> Color32 {
    match e.detail.get("type").and_then(|t| t.as_str()) {
        Some("fault") => RED,
        Some("penalty") => AMBER,
        Some("goal") | Some("repetition") | Some("righted") => GREEN,
        Some("finished") => Color32::WHITE,
        _ => Color32::from_rgb(255, 220, 0),
    }
}

/// Paints the timeline (play/pause, time, a seek bar with the events marked, the latest
/// events) and returns what the instructor asked.
pub fn draw_timeline(
    ctx: &egui::Context,
    cursor: &ReplayCursor,
    now: f64,
    playing: bool,
    speed: f64,
) -> TimelineRequest {
    let mut req = TimelineRequest::default();
    let duration = cursor.duration().max(1e-3);
    egui::Area::new(egui::Id::new("timeline"))
        .anchor(Align2::CENTER_BOTTOM, Vec2::new(0.0, -160.0))
        .show(ctx, |ui| {
            panel()
                // A little more opaque than the panel: it is read while the picture moves.
                .fill(Color32::from_rgba_premultiplied(12, 14, 18, 220))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        if ui
                            .button(if playing { "⏸ pause" } else { "▶ play" })
                            .clicked()
                        {
                            req.toggle_play = true;
                        }
                        ui.label(
                            egui::RichText::new(format!(
                                "REPLAY {:6.1} / {:.1} s  ×{speed:.2}",
                                now, duration
                            ))
                            .color(Color32::WHITE)
                            .monospace(),
                        );
                    });
                    let width = 520.0;
                    let (response, painter) =
                        ui.allocate_painter(Vec2::new(width, 26.0), egui::Sense::click_and_drag());
                    let r = response.rect;
                    painter.rect_filled(
                        r.shrink2(Vec2::new(0.0, 9.0)),
                        3.0,
                        Color32::from_gray(70),
                    );
                    let x_of =
                        |t: f64| r.left() + (t / duration).clamp(0.0, 1.0) as f32 * r.width();
                    painter.rect_filled(
                        egui::Rect::from_min_max(
                            egui::pos2(r.left(), r.top() + 9.0),
                            egui::pos2(x_of(now), r.bottom() - 9.0),
                        ),
                        3.0,
                        Color32::from_rgb(31, 119, 180),
                    );
                    for e in cursor.events() {
                        let x = x_of(e.time);
                        painter.line_segment(
                            [egui::pos2(x, r.top()), egui::pos2(x, r.bottom())],
                            Stroke::new(2.0, event_colour(e)),
                        );
                    }
                    if let Some(p) = response.interact_pointer_pos() {
                        if response.clicked() || response.drag_stopped() {
                            let t = f64::from((p.x - r.left()) / r.width()) * duration;
                            req.seek = Some(t.clamp(0.0, duration));
                        }
                    }
                    for e in cursor
                        .events()
                        .iter()
                        .filter(|e| e.time <= now)
                        .rev()
                        .take(3)
                    {
                        ui.label(
                            egui::RichText::new(format!("{:7.1} s  {}", e.time, e.text.trim()))
                                .color(event_colour(e))
                                .monospace(),
                        );
                    }
                });
        });
    req
}
