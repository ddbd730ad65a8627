//! The station's exercise mode on screen: the current goal's direction and distance over the
//! onboard view, the trial's readout (repetitions, faults, clock — paused during a fault —,
//! penalties, score) and the result screen when the trial ends.

use kiss3d::egui::{self, Align2, Color32, Stroke, Vec2};

use super::palette::{panel, AMBER, GREEN, RED, TEXT};
use nalgebra::Point3;

use crate::exercise::report::score_table;
use crate::exercise::Trial;
use crate::sim::{RobotId, Simulation};

/// What the exercise panel shows, read from the trial after each frame's steps.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseReadout {
    /// Exercise name.
    pub name: String,
    /// Current goal: its number (1-based) of how many, and name (`start` on the way back).
    pub goal: Option<(usize, usize, String)>,
    /// Horizontal distance to the goal, m.
    pub distance: f64,
    /// Bearing of the goal from the robot's heading, rad (positive: to the left).
    pub bearing: f64,
    /// Repetitions completed and required.
    pub repetitions: (u32, u32),
    /// Faults so far.
    pub faults: u32,
    /// Exercise clock and limit, s.
    pub clock: (f64, f64),
    /// Whether the clock is paused (a fault's reset).
    pub clock_paused: bool,
    /// Whether the robot still has to be righted (a trial started on its back).
    pub needs_righting: bool,
    /// Penalty points so far.
    pub penalties: f64,
    /// Score so far, 0–100.
    pub score: f64,
    /// The score table once the trial has ended.
    pub result: Option<(bool, String)>,
}

impl ExerciseReadout {
    /// Reads the trial and where the robot stands.
    pub fn of(trial: &Trial, sim: &Simulation, id: RobotId) -> Self {
        let spec = trial.spec();
        let pose = sim.body_state(id).pose;
        let (distance, bearing) = trial
            .current_target(sim)
            .map_or((0.0, 0.0), |target| goal_direction(&pose, &target));
        let goals = spec.goals.len() + usize::from(spec.round_trip);
        Self {
            name: spec.name.clone(),
            goal: trial
                .current_goal()
                .map(|(i, name)| (i + 1, goals, name.to_owned())),
            distance,
            bearing,
            repetitions: (trial.completed(), spec.repetitions),
            faults: trial.faults(),
            clock: (trial.clock(), spec.time_limit),
            clock_paused: trial.is_paused(),
            needs_righting: !trial.is_on_tracks(),
            penalties: trial.penalty_points(),
            score: trial.score(),
            result: trial
                .outcome()
                .map(|(passed, _)| (passed, score_table(&trial.result()))),
        }
    }
}

/// Horizontal distance (m) and bearing (rad, positive to the left of the heading) of
/// `target` from a robot at `pose`.
pub fn goal_direction(pose: &nalgebra::Isometry3<f64>, target: &Point3<f64>) -> (f64, f64) {
    let local = pose.inverse_transform_point(target);
    let d = local.coords.xy();
    (
        (target - Point3::from(pose.translation.vector)).xy().norm(),
        d.y.atan2(d.x),
    )
}

fn clock_text(t: f64) -> String {
    let m = (t / 60.0).floor();
    format!("{m:02.0}:{:04.1}", t - 60.0 * m)
}

/// Paints the goal indicator, the readout and (at the end) the result screen.
pub fn draw(ctx: &egui::Context, r: &ExerciseReadout) {
    if let (Some(goal), None) = (&r.goal, &r.result) {
        draw_goal(ctx, goal, r.bearing, r.distance);
    }
    draw_trial(ctx, r);
    if let Some((passed, table)) = &r.result {
        draw_result(ctx, *passed, table);
    }
}

/// A line under the top-left readout (clear of the goal, the trial and the instruments): a
/// class seat's name and what it waits for.
pub fn draw_banner(ctx: &egui::Context, text: &str) {
    egui::Area::new(egui::Id::new("class-banner"))
        .anchor(Align2::LEFT_TOP, Vec2::new(10.0, 112.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.label(egui::RichText::new(text).color(TEXT).size(16.0));
            });
        });
}

/// The goal's direction over the onboard view: an arrow in a ring (up: straight ahead), the
/// goal's number and name, and its distance (m) and bearing (rad, positive to the left).
fn draw_goal(
    ctx: &egui::Context,
    (n, of, name): &(usize, usize, String),
    bearing: f64,
    distance: f64,
) {
    egui::Area::new(egui::Id::new("goal"))
        .anchor(Align2::CENTER_TOP, Vec2::new(0.0, 10.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let (rect, painter) =
                        ui.allocate_painter(Vec2::splat(44.0), egui::Sense::hover());
                    let c = rect.rect.center();
                    painter.circle_stroke(c, 19.0, Stroke::new(2.0, TEXT));
                    // Screen y grows downwards; a goal to the left turns the arrow left.
                    let a = bearing as f32;
                    let dir = Vec2::new(-a.sin(), -a.cos());
                    let tip = c + dir * 16.0;
                    let side = Vec2::new(-dir.y, dir.x);
                    painter.line_segment([c - dir * 10.0, tip], Stroke::new(3.0, GREEN));
                    painter.add(egui::Shape::convex_polygon(
                        vec![
                            tip,
                            tip - dir * 8.0 + side * 6.0,
                            tip - dir * 8.0 - side * 6.0,
                        ],
                        GREEN,
                        Stroke::NONE,
                    ));
                    let turn = bearing.to_degrees();
                    let side_text = if turn.abs() < 5.0 {
                        "ahead".to_owned()
                    } else if turn.abs() > 150.0 {
                        "behind".to_owned()
                    } else if turn > 0.0 {
                        format!("{:.0}° left", turn.abs())
                    } else {
                        format!("{:.0}° right", turn.abs())
                    };
                    ui.vertical(|ui| {
                        ui.label(
                            egui::RichText::new(format!("GOAL {n}/{of}: {name}"))
                                .color(TEXT)
                                .strong()
                                .size(16.0),
                        );
                        ui.label(
                            egui::RichText::new(format!("{:.1} m  {side_text}", distance))
                                .color(GREEN)
                                .monospace()
                                .size(16.0),
                        );
                    });
                });
            });
        });
}

/// The trial's readout: name, clock, a warning when the robot must be righted, repetitions,
/// faults, penalties and score.
fn draw_trial(ctx: &egui::Context, r: &ExerciseReadout) {
    egui::Area::new(egui::Id::new("trial"))
        .anchor(Align2::CENTER_TOP, Vec2::new(0.0, 80.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.label(egui::RichText::new(&r.name).color(TEXT).strong());
                let over = r.clock.0 > r.clock.1;
                ui.label(
                    egui::RichText::new(format!(
                        "{} / {}{}",
                        clock_text(r.clock.0),
                        clock_text(r.clock.1),
                        if r.clock_paused {
                            "  PAUSED (fault)"
                        } else {
                            ""
                        }
                    ))
                    .color(if over { RED } else { TEXT })
                    .monospace()
                    .size(18.0),
                );
                if r.needs_righting {
                    ui.label(
                        egui::RichText::new("ON ITS BACK: right it with the flippers")
                            .color(AMBER)
                            .strong(),
                    );
                }
                ui.label(
                    egui::RichText::new(format!(
                        "reps {} of {}   faults {}   penalties {:.0}   score {:.0}",
                        r.repetitions.0, r.repetitions.1, r.faults, r.penalties, r.score
                    ))
                    .color(if r.faults > 0 { AMBER } else { TEXT })
                    .monospace(),
                );
            });
        });
}

/// The result screen: PASS or FAIL over the score table.
fn draw_result(ctx: &egui::Context, passed: bool, table: &str) {
    egui::Area::new(egui::Id::new("result"))
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(Color32::from_rgba_premultiplied(8, 10, 14, 235))
                .inner_margin(16.0)
                .corner_radius(8.0)
                .show(ui, |ui| {
                    ui.label(
                        egui::RichText::new(if passed { "PASS" } else { "FAIL" })
                            .color(if passed { GREEN } else { RED })
                            .strong()
                            .size(32.0),
                    );
                    ui.label(egui::RichText::new(table).color(TEXT).monospace());
                });
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};

    #[test]
    fn goals_to_the_left_have_positive_bearings() {
        // Robot at the origin facing +y: a target at +x is 90° to its right.
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 0.0),
            UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2),
        );
        let (d, b) = goal_direction(&pose, &Point3::new(3.0, 0.0, 1.0));
        assert!((d - 3.0).abs() < 1e-12);
        assert!((b + std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let (_, ahead) = goal_direction(&pose, &Point3::new(0.0, 5.0, 0.0));
        assert!(ahead.abs() < 1e-12);
    }
}
