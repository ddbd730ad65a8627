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
use crate::vehicle::spec::HullShape;

/// Size of each view, pixels.
const VIEW: Vec2 = Vec2::new(160.0, 140.0);
/// Space kept free round the drawing in each view, pixels.
const MARGIN: f32 = 6.0;

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
    /// How far the tool point can get from the mount, m: the links, the gripper and every
    /// slide fully out (`ArmSpec::reach`). The views are scaled to it, so a 2 m arm fits as a
    /// 1 m one does.
    pub reach: f64,
    /// The hull's extent ahead and behind (x), across (y) and its top (z), m, body frame:
    /// `(x_min, x_max, y_half, z_top)`, drawn under the arm.
    pub hull: (f64, f64, f64, f64),
}

/// The pixels per metre at which `reach` (m) round a mount `mount_height` m above the ground
/// fits both views: the top view reach either way across and along; the side view reach
/// either way along, and from the ground to reach above the mount.
fn view_scale(reach: f64, mount_height: f64) -> f32 {
    let (w, h) = (VIEW.x - 2.0 * MARGIN, VIEW.y - 2.0 * MARGIN);
    let reach = reach.max(0.1) as f32;
    let tall = mount_height.max(0.0) as f32 + reach;
    (w / (2.0 * reach)).min(h / (2.0 * reach)).min(h / tall)
}

impl ArmReadout {
    /// The readout of robot `id`'s arm (`None`: no arm).
    pub fn of(sim: &Simulation, id: RobotId) -> Option<Self> {
        let robot = sim.robot(id).spec();
        let spec = robot.arm.as_ref()?;
        let HullShape::Box { size, center } = robot.hull;
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
            reach: spec.reach(),
            hull: (
                center.x - 0.5 * size.x,
                center.x + 0.5 * size.x,
                0.5 * size.y,
                center.z + 0.5 * size.z,
            ),
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
                    draw_view(ui, arm, View::Side);
                    draw_view(ui, arm, View::Top);
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

/// The two views of the arm panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    /// From the robot's left: body x to the right, z up, the ground at the bottom.
    Side,
    /// From above: body x to the right, y up, the mount in the middle.
    Top,
}

impl View {
    /// The two body-frame coordinates drawn (to the right, up), m.
    fn project(self, p: &Point3<f64>) -> (f64, f64) {
        match self {
            View::Side => (p.x, p.z),
            View::Top => (p.x, p.y),
        }
    }

    /// Where `arm`'s point `p` lands in a view occupying `rect`, at `scale` px/m: the mount
    /// centred along x, and the ground at the bottom of the side view or the mount centred
    /// across in the top view.
    fn to_screen(self, arm: &ArmReadout, rect: egui::Rect, scale: f32, p: &Point3<f64>) -> Pos2 {
        let mount = arm.chain.first().copied().unwrap_or_else(Point3::origin);
        let (a, b) = self.project(p);
        let (ma, mb) = self.project(&mount);
        let x = rect.center().x + (a - ma) as f32 * scale;
        let y = match self {
            View::Side => rect.bottom() - MARGIN - b as f32 * scale,
            View::Top => rect.center().y - (b - mb) as f32 * scale,
        };
        Pos2::new(x, y)
    }
}

/// One view of the arm: the hull's outline (side: its deck line; top: its footprint), the
/// chain from the mount to the tool point, the tool ringed green while it holds; scaled so the
/// arm's whole reach fits ([`view_scale`]).
fn draw_view(ui: &mut egui::Ui, arm: &ArmReadout, view: View) {
    let (rect, _) = ui.allocate_exact_size(VIEW, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let mount_height = arm.chain.first().map_or(0.0, |m| m.z);
    let scale = view_scale(arm.reach, mount_height);
    let at = |p: &Point3<f64>| view.to_screen(arm, rect, scale, p);
    let (x0, x1, half, top) = arm.hull;
    let hull = match view {
        View::Side => vec![Point3::new(x0, 0.0, top), Point3::new(x1, 0.0, top)],
        View::Top => vec![
            Point3::new(x0, -half, 0.0),
            Point3::new(x1, -half, 0.0),
            Point3::new(x1, half, 0.0),
            Point3::new(x0, half, 0.0),
            Point3::new(x0, -half, 0.0),
        ],
    };
    painter.add(egui::Shape::line(
        hull.iter().map(at).collect(),
        Stroke::new(1.0, DIM),
    ));
    if view == View::Side {
        // The ground.
        let ground = rect.bottom() - MARGIN;
        painter.line_segment(
            [
                Pos2::new(rect.left(), ground),
                Pos2::new(rect.right(), ground),
            ],
            Stroke::new(1.0, DIM),
        );
    }
    let points: Vec<Pos2> = arm.chain.iter().map(at).collect();
    painter.add(egui::Shape::line(points.clone(), Stroke::new(3.0, AMBER)));
    for p in &points {
        painter.circle_filled(*p, 2.5, TEXT);
    }
    if let Some(tool) = points.last() {
        let color = if arm.holding { GREEN } else { Color32::WHITE };
        painter.circle_stroke(*tool, 5.0, Stroke::new(1.5, color));
    }
    let label = match view {
        View::Side => "side",
        View::Top => "top",
    };
    painter.text(
        rect.left_top() + Vec2::new(2.0, 2.0),
        Align2::LEFT_TOP,
        label,
        egui::FontId::monospace(11.0),
        DIM,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vehicle::robot_file::load_robot;
    use std::path::Path;

    /// Every armed preset's arm, at any of its joints' limits and stretched every way, stays
    /// inside both views: the whole reach round the mount fits (regression: at a fixed
    /// 110 px/m heavy250_eod's 2 m arm ran off the panel).
    #[test]
    fn every_armed_presets_reach_fits_both_views() {
        for name in ["scout_eod", "tracker55_eod", "heavy250_eod"] {
            let spec =
                load_robot(Path::new(&format!("scenes/robots/{name}.toml"))).expect("preset");
            let arm = spec.arm.as_ref().expect("arm");
            let reach = arm.reach();
            let mount = arm.mount;
            let scale = view_scale(reach, mount.z);
            let rect = egui::Rect::from_min_size(Pos2::ZERO, VIEW);
            let readout = ArmReadout {
                joints: Vec::new(),
                chain: vec![mount],
                tool_height: None,
                grip_force: 0.0,
                finger_gap: 0.0,
                holding: false,
                reaching_out: false,
                reach,
                hull: (-0.3, 0.3, 0.2, 0.2),
            };
            // Points at the reach from the mount in every direction (above the ground).
            for k in 0..72 {
                let angle = f64::from(k) * 5f64.to_radians();
                let (c, s) = (angle.cos(), angle.sin());
                for (view, p) in [
                    (
                        View::Side,
                        mount + nalgebra::Vector3::new(reach * c, 0.0, reach * s),
                    ),
                    (
                        View::Top,
                        mount + nalgebra::Vector3::new(reach * c, reach * s, 0.0),
                    ),
                ] {
                    if view == View::Side && p.z < 0.0 {
                        continue;
                    }
                    let at = view.to_screen(&readout, rect, scale, &p);
                    assert!(
                        rect.expand(0.5).contains(at),
                        "{name}, {view:?}: {p:?} at {at:?} outside {rect:?} (scale {scale})"
                    );
                }
            }
            // And the views are not needlessly small: the reach spans over half a view.
            assert!(
                f64::from(scale) * reach > 0.45 * f64::from(VIEW.y),
                "{name}: {scale}"
            );
        }
    }
}
