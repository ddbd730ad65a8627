//! The HUD's arm panel for an armed robot: a side view and a top view of the arm as it stands
//! (links drawn from the forward kinematics, body frame), each joint's angle against its
//! limits, the tool point's height above the ground, the grip and what it holds — what an
//! operator reads off a real control unit's arm display while the cameras show little of the
//! arm itself.

use kiss3d::egui::{self, Align2, Color32, Pos2, Stroke, Vec2};
use nalgebra::{Isometry3, Point3};

use super::palette::{panel, AMBER, DIM, GREEN, RED, TEXT};
use crate::sim::{RobotId, Simulation};
use crate::vehicle::arm::kinematics::link_frames;
use crate::vehicle::arm::{JointKind, MAX_ARM_JOINTS};

/// Side and top views are drawn this many pixels per metre.
const SCALE: f32 = 110.0;
/// Size of each view, pixels.
const VIEW: Vec2 = Vec2::new(150.0, 120.0);

/// One joint as the panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct JointReadout {
    /// Name.
    pub name: String,
    /// Position, rad or m.
    pub position: f64,
    /// Limits, rad or m.
    pub min: f64,
    /// See `min`.
    pub max: f64,
    /// Whether it turns (degrees on the panel) rather than slides.
    pub revolute: bool,
    /// Whether its motor gives at least 95 % of its torque limit.
    pub straining: bool,
}

/// What the arm panel shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmReadout {
    /// The joints, in order.
    pub joints: Vec<JointReadout>,
    /// The chain's points from the mount to the tool point, m, body frame.
    pub chain: Vec<Point3<f64>>,
    /// The tool point's height above the ground under it, m (`None`: no ground found).
    pub tool_height: Option<f64>,
    /// Force each finger presses a held object with, N (0: holding nothing).
    pub grip_force: f64,
    /// Gap between the finger pads, m.
    pub finger_gap: f64,
    /// Whether it holds an object.
    pub holding: bool,
    /// Whether the arm reaches out beyond the drive reach (driving slowed).
    pub reaching_out: bool,
}

impl ArmReadout {
    /// The readout of robot `id`'s arm (`None`: no arm).
    pub fn of(sim: &Simulation, id: RobotId) -> Option<Self> {
        let spec = sim.robot(id).spec().arm.as_ref()?;
        let state = sim.arm_state(id)?;
        let mut frames = [Isometry3::identity(); MAX_ARM_JOINTS];
        let gripper = link_frames(spec, &state.positions, &mut frames);
        let mut chain = vec![spec.mount];
        chain.extend(
            frames
                .iter()
                .zip(&spec.joints)
                .map(|(f, j)| f * Point3::from(j.link.end)),
        );
        chain.push(gripper * spec.gripper.tool_point());
        let joints = spec
            .joints
            .iter()
            .enumerate()
            .map(|(j, joint)| JointReadout {
                name: joint.name.clone(),
                position: state.positions[j],
                min: joint.min,
                max: joint.max,
                revolute: joint.kind == JointKind::Revolute,
                straining: state.efforts[j].abs() >= 0.95 * joint.max_effort,
            })
            .collect();
        let tool_height = sim
            .scene()
            .terrain
            .ground_below(&state.tool, 5.0)
            .map(|g| state.tool.z - g);
        Some(Self {
            joints,
            chain,
            tool_height,
            grip_force: state.grip_force,
            finger_gap: state.finger_gap,
            holding: state.holding,
            reaching_out: state.reaching_out,
        })
    }
}

/// Draws the arm panel at the left edge, below the status panel.
pub fn draw_arm_panel(ctx: &egui::Context, arm: &ArmReadout) {
    egui::Area::new(egui::Id::new("arm panel"))
        .anchor(Align2::LEFT_TOP, Vec2::new(10.0, 140.0))
        .interactable(false)
        .show(ctx, |ui| {
            panel().show(ui, |ui| {
                ui.horizontal(|ui| {
                    draw_view(ui, arm, "side", |p| (p.x, p.z));
                    draw_view(ui, arm, "top", |p| (p.x, p.y));
                });
                for j in &arm.joints {
                    let (value, range) = if j.revolute {
                        (
                            format!("{:+6.1}°", j.position.to_degrees()),
                            format!("{:.0}..{:.0}°", j.min.to_degrees(), j.max.to_degrees()),
                        )
                    } else {
                        (
                            format!("{:+6.3} m", j.position),
                            format!("{:.2}..{:.2} m", j.min, j.max),
                        )
                    };
                    let near_limit =
                        (j.position - j.min).min(j.max - j.position) < 0.05 * (j.max - j.min);
                    let color = if j.straining {
                        RED
                    } else if near_limit {
                        AMBER
                    } else {
                        TEXT
                    };
                    ui.label(
                        egui::RichText::new(format!("{:<12}{value} ({range})", j.name))
                            .color(color)
                            .monospace(),
                    );
                }
                let height = arm
                    .tool_height
                    .map_or("?".to_string(), |h| format!("{h:.2} m"));
                let grip = if arm.holding {
                    format!("holding, {:.0} N", arm.grip_force)
                } else {
                    format!("gap {:.0} mm", arm.finger_gap * 1000.0)
                };
                ui.label(
                    egui::RichText::new(format!("tool {height} up   grip {grip}"))
                        .color(if arm.holding { GREEN } else { DIM })
                        .monospace(),
                );
            });
        });
}

/// One view of the chain: `project` picks the two body-frame coordinates drawn (x to the
/// right, the other up), the mount at the view's lower third.
fn draw_view(
    ui: &mut egui::Ui,
    arm: &ArmReadout,
    label: &str,
    project: impl Fn(&Point3<f64>) -> (f64, f64),
) {
    let (rect, _) = ui.allocate_exact_size(VIEW, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let origin = Pos2::new(rect.left() + 0.3 * VIEW.x, rect.bottom() - 0.3 * VIEW.y);
    let to_screen = |p: &Point3<f64>| {
        let (a, b) = project(p);
        origin + Vec2::new(a as f32 * SCALE, -(b as f32) * SCALE)
    };
    // The hull's deck line and the mount.
    painter.line_segment(
        [
            origin + Vec2::new(-0.26 * SCALE, 0.0),
            origin + Vec2::new(0.26 * SCALE, 0.0),
        ],
        Stroke::new(1.0, DIM),
    );
    let points: Vec<Pos2> = arm.chain.iter().map(to_screen).collect();
    painter.add(egui::Shape::line(points.clone(), Stroke::new(3.0, AMBER)));
    for p in &points {
        painter.circle_filled(*p, 2.5, TEXT);
    }
    if let Some(tool) = points.last() {
        let color = if arm.holding { GREEN } else { Color32::WHITE };
        painter.circle_stroke(*tool, 5.0, Stroke::new(1.5, color));
    }
    painter.text(
        rect.left_top() + Vec2::new(2.0, 2.0),
        Align2::LEFT_TOP,
        label,
        egui::FontId::monospace(11.0),
        DIM,
    );
}
