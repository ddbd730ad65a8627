//! The HUD's terrain profile: what the robot's range sensor sees ahead in the vertical plane
//! of its heading — the ground, a step, a flight up or down — with the flight as the
//! autopilot reads it (rise, run, nosing, distance), as the profile displays of real
//! operator control units show it. Robots without a sensor show none.

use kiss3d::egui::{self, Align2, Pos2, Sense, Stroke, Vec2};

use super::palette::{AMBER, DIM, GREEN, TEXT};
use crate::control::stair_reading::{read_stairs, StairDirection, StairReading};
use crate::sim::ranging::RangeSensor;
use crate::sim::{RobotId, Simulation};
use crate::vehicle::RobotSpec;

/// How far ahead the panel shows, m.
const AHEAD: f64 = 3.0;
/// Height span shown, m, from `-HEIGHT/2` to `+HEIGHT/2` about the body origin.
const HEIGHT: f64 = 2.0;
/// Plot size, pixels.
const PLOT: Vec2 = Vec2::new(180.0, 120.0);

/// What the profile panel shows: the latest scan's returns and the flight read from them.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainReadout {
    /// The sensor (its scans at its own rate).
    sensor: RangeSensor,
    /// Returns `(ahead, height)`, m, in the vertical plane of the heading from the body
    /// origin.
    pub points: Vec<(f64, f64)>,
    /// The flight read, if the profile shows one.
    pub reading: Option<StairReading>,
    /// Time of the scan shown, s.
    pub time: f64,
}

impl TerrainReadout {
    /// A readout for the robot of `spec` (`None`: it carries no range sensor).
    pub fn new(spec: &RobotSpec) -> Option<Self> {
        let sensor = RangeSensor::new(spec.range_sensor.clone()?, 1);
        Some(Self {
            sensor,
            points: Vec::new(),
            reading: None,
            time: f64::NEG_INFINITY,
        })
    }

    /// Reads robot `id`'s sensor in `sim`; the profile changes when a new scan comes.
    pub fn update(&mut self, sim: &Simulation, id: RobotId) {
        let scan = self.sensor.read(sim, id);
        if scan.time != self.time {
            self.time = scan.time;
            self.points.clear();
            self.points
                .extend(scan.points.iter().map(|p| (p.ahead, p.height)));
            self.reading = read_stairs(&scan.points, AHEAD);
        }
    }

    /// The reading as a line of text.
    pub fn summary(&self) -> String {
        match &self.reading {
            None => "no step ahead".to_string(),
            Some(r) => {
                let way = match r.direction {
                    StairDirection::Up => "up",
                    StairDirection::Down => "down",
                };
                let run = r.run.map_or("step".to_string(), |run| {
                    format!("run {run:.2} {:.0}°", r.angle().to_degrees())
                });
                format!(
                    "{way} {:.2} m: rise {:.2} {run} nosing {:.0} mm",
                    r.first_edge,
                    r.rise,
                    r.nosing * 1000.0
                )
            }
        }
    }
}

/// Draws the profile in `ui`: the returns as dots, the robot's ground line, the reading
/// underneath.
pub(super) fn draw_profile(ui: &mut egui::Ui, terrain: &TerrainReadout) {
    ui.vertical(|ui| {
        let (rect, _) = ui.allocate_exact_size(PLOT, Sense::hover());
        let painter = ui.painter_at(rect);
        let per_metre = (PLOT.x as f64 / AHEAD).min(PLOT.y as f64 / HEIGHT) as f32;
        let origin = Pos2::new(rect.left() + 4.0, rect.center().y);
        let to_screen = |ahead: f64, height: f64| {
            origin + Vec2::new(ahead as f32, -(height as f32)) * per_metre
        };
        painter.line_segment(
            [to_screen(-0.1, 0.0), to_screen(0.4, 0.0)],
            Stroke::new(3.0, TEXT),
        );
        for metre in 1..=(AHEAD as i32) {
            let x = to_screen(f64::from(metre), 0.0).x;
            painter.line_segment(
                [
                    Pos2::new(x, rect.bottom() - 4.0),
                    Pos2::new(x, rect.bottom()),
                ],
                Stroke::new(1.0, DIM),
            );
        }
        let color = if terrain.reading.is_some() {
            AMBER
        } else {
            GREEN
        };
        for &(ahead, height) in &terrain.points {
            if ahead <= AHEAD && height.abs() <= HEIGHT / 2.0 {
                painter.circle_filled(to_screen(ahead, height), 1.5, color);
            }
        }
        painter.text(
            rect.left_top() + Vec2::new(2.0, 2.0),
            Align2::LEFT_TOP,
            "terrain ahead",
            egui::FontId::monospace(11.0),
            DIM,
        );
        ui.label(
            egui::RichText::new(terrain.summary())
                .color(if terrain.reading.is_some() {
                    AMBER
                } else {
                    DIM
                })
                .monospace()
                .size(11.0),
        );
    });
}
