//! The robot as scene nodes: hull, belts (wheels, runs, moving cleats), flippers, cameras.
//!
//! Every node is created once by [`RobotView::new`]; [`RobotView::update`] only moves them,
//! so a frame allocates nothing. Belts are drawn from the track model's own posed outlines
//! ([`TrackedRobot::plane_outline`]): each circle becomes a wheel (a cylinder of the circle's
//! radius, the belt wrapped on it), each run a thin box, and cleats travel along the loop at
//! the belt speed so the trainee sees a slipping or stalled track. Flippers are belts whose
//! outlines the track model has already rotated, so they turn with no extra code.

use std::cell::RefCell;
use std::f64::consts::TAU;
use std::rc::Rc;

use kiss3d::color::Color;
use kiss3d::glamx::{Quat, Vec3};
use kiss3d::light::Light;
use kiss3d::resource::Material3d;
use kiss3d::scene::SceneNode3d;
use nalgebra::{Isometry3, Point2, UnitQuaternion, Vector2};

use super::{point3, pose3};
use crate::track::outline::BeltOutline;
use crate::vehicle::spec::HullShape;
pub use crate::vehicle::tracked::belts::{belt_refs, BeltRef};
use crate::vehicle::{BodyState, Drivetrain, RobotSpec, TrackedRobot, WheeledRobot};

/// Belt thickness as drawn, m.
const BELT_THICKNESS: f64 = 0.008;
/// Cleat pitch along the belt, m.
const CLEAT_PITCH: f64 = 0.05;
/// Most cleats drawn on one belt.
const MAX_CLEATS: usize = 80;

const HULL_COLOR: Color = Color::new(0.78, 0.47, 0.12, 1.0);
const HULL_TOP_COLOR: Color = Color::new(0.62, 0.38, 0.10, 1.0);
const BELT_COLOR: Color = Color::new(0.07, 0.07, 0.07, 1.0);
const CLEAT_COLOR: Color = Color::new(0.22, 0.22, 0.22, 1.0);
const HUB_COLOR: Color = Color::new(0.55, 0.56, 0.6, 1.0);
const FLIPPER_HUB_COLOR: Color = Color::new(0.95, 0.78, 0.1, 1.0);
const CAMERA_COLOR: Color = Color::new(0.1, 0.1, 0.12, 1.0);
const MARK_COLOR: Color = Color::new(0.95, 0.95, 0.9, 1.0);

/// Point and unit tangent (counter-clockwise) at arc length `s` ∈ [0, belt length) along the
/// loop, starting at the first run's start; body `(x, z)`.
pub fn point_on_belt(outline: &BeltOutline, s: f64) -> (Point2<f64>, Vector2<f64>) {
    let runs = outline.runs();
    let circles = outline.circles();
    let n = runs.len();
    let Some(first) = runs.first() else {
        return (Point2::origin(), Vector2::x());
    };
    let mut s = s.max(0.0);
    for k in 0..n {
        let run = &runs[k];
        if s <= run.length {
            let d = if run.length > 0.0 {
                (run.end - run.start) / run.length
            } else {
                Vector2::new(-run.outward.y, run.outward.x)
            };
            return (run.start + d * s, d);
        }
        s -= run.length;
        let next = &runs[(k + 1) % n];
        let c = circles[next.from];
        let (a, b) = (run.outward, next.outward);
        let turn = (a.x * b.y - a.y * b.x).atan2(a.dot(&b)).rem_euclid(TAU);
        let arc = c.radius * turn;
        if s <= arc {
            let angle = a.y.atan2(a.x) + s / c.radius;
            let (sin, cos) = angle.sin_cos();
            return (
                c.center + Vector2::new(cos, sin) * c.radius,
                Vector2::new(-sin, cos),
            );
        }
        s -= arc;
    }
    // Rounding past the end: the loop closes where it started.
    (first.start, Vector2::new(-first.outward.y, first.outward.x))
}

/// Rotation about body y that turns local x onto the (x, z) direction `d`.
fn rotation_along(d: &Vector2<f64>) -> Quat {
    Quat::from_rotation_y((-d.y).atan2(d.x) as f32)
}

/// The nodes of one belt.
struct BeltView {
    r: BeltRef,
    wheels: Vec<SceneNode3d>,
    hubs: Vec<SceneNode3d>,
    runs: Vec<SceneNode3d>,
    cleats: Vec<SceneNode3d>,
    /// Distance the belt has travelled, m (wrapped to the loop length).
    phase: f64,
}

/// One wheel of a wheeled robot: a group at the wheel's posed mid-plane holding the tyre, the
/// hub and a spoke that turns with the wheel (so a spinning or locked wheel shows).
struct WheelView {
    group: SceneNode3d,
    spin: SceneNode3d,
    /// Angle the wheel has turned, rad.
    phase: f64,
}

/// The robot's scene nodes.
pub struct RobotView {
    root: SceneNode3d,
    belts: Vec<BeltView>,
    wheels: Vec<WheelView>,
}

impl RobotView {
    /// Mounts a light on the robot at `pose` (body frame; the light shines along the pose's
    /// x axis, as a camera looks), switched off; returns its node.
    pub fn add_lamp(&mut self, light: Light, pose: &Isometry3<f64>) -> SceneNode3d {
        // kiss3d's spot lights shine along their node's −z: turn −z onto the pose's x.
        let turn = Isometry3::rotation(nalgebra::Vector3::y() * -std::f64::consts::FRAC_PI_2);
        let mut node = self.root.add_group();
        node.set_pose(pose3(&(pose * turn)));
        node.set_light(Some(light.with_enabled(false)));
        node
    }

    /// Builds the robot's nodes under `parent` from its spec and its current outlines or
    /// wheel poses.
    pub fn new(parent: &mut SceneNode3d, robot: &Drivetrain) -> Self {
        let spec = robot.spec();
        let mut root = parent.add_group();
        let top = add_hull(&mut root, spec);
        add_cameras(&mut root, spec, top);
        let wheels = match robot {
            Drivetrain::Wheeled(r) => add_wheels(&mut root, r),
            Drivetrain::Tracked(_) => Vec::new(),
        };
        let Drivetrain::Tracked(robot) = robot else {
            let mut view = Self {
                root,
                belts: Vec::new(),
                wheels,
            };
            view.place_wheels(robot, 0.0);
            return view;
        };
        let belts = belt_refs(robot)
            .into_iter()
            .map(|r| add_belt(&mut root, robot, r))
            .collect();
        let mut view = Self {
            root,
            belts,
            wheels,
        };
        view.place_belts(robot);
        view
    }

    /// Moves every node to the robot's current state; `dt` is the simulated time since the
    /// last update (moves the cleats by belt speed × dt).
    pub fn update(&mut self, body: &BodyState, robot: &Drivetrain, dt: f64) {
        self.root.set_pose(pose3(&body.pose));
        let Drivetrain::Tracked(robot) = robot else {
            self.place_wheels(robot, dt);
            return;
        };
        let speeds = &robot.drive_state().belt_speed;
        for b in &mut self.belts {
            let v = speeds.get(b.r.track).copied().unwrap_or(0.0);
            // Forward drive moves the ground side of the loop backwards: clockwise in (x, z),
            // against the outline's counter-clockwise arc length.
            if v.is_finite() {
                b.phase -= v * dt;
            }
        }
        self.place_belts(robot);
    }

    /// Draws every node of the robot with `material`.
    pub fn set_material(&mut self, material: Rc<RefCell<Box<dyn Material3d + 'static>>>) {
        self.root.set_material_recursive(material);
    }

    /// Shows or hides the whole robot.
    pub fn set_visible(&mut self, visible: bool) {
        self.root.set_visible(visible);
    }

    /// Poses each wheel (steering, suspension) and turns it by its surface speed × `dt`.
    fn place_wheels(&mut self, robot: &Drivetrain, dt: f64) {
        let Drivetrain::Wheeled(robot) = robot else {
            return;
        };
        for (w, view) in self.wheels.iter_mut().enumerate() {
            let radius = robot.spec().wheels[w].radius;
            let v = robot.drive_state().wheel_speed[w];
            if v.is_finite() {
                view.phase = (view.phase + v * dt / radius).rem_euclid(TAU);
            }
            view.group.set_pose(pose3(&robot.wheel_pose(w)));
            // Rolling forward turns the wheel about its axle (body y) by +angle.
            view.spin
                .set_rotation(Quat::from_rotation_y(view.phase as f32));
        }
    }

    fn place_belts(&mut self, robot: &TrackedRobot) {
        for b in &mut self.belts {
            if b.r.plane >= robot.plane_count() {
                continue;
            }
            let (outline, _) = robot.plane_outline(b.r.plane);
            for ((c, wheel), hub) in outline.circles().iter().zip(&mut b.wheels).zip(&mut b.hubs) {
                let p = Vec3::new(c.center.x as f32, 0.0, c.center.y as f32);
                wheel.set_position(p);
                hub.set_position(p);
            }
            for (run, node) in outline.runs().iter().zip(&mut b.runs) {
                let mid =
                    nalgebra::center(&run.start, &run.end) - run.outward * (BELT_THICKNESS / 2.0);
                let d = if run.length > 0.0 {
                    (run.end - run.start) / run.length
                } else {
                    Vector2::new(1.0, 0.0)
                };
                node.set_local_scale(
                    run.length.max(1e-4) as f32,
                    b.r.width as f32,
                    BELT_THICKNESS as f32,
                );
                node.set_rotation(rotation_along(&d));
                node.set_position(Vec3::new(mid.x as f32, 0.0, mid.y as f32));
            }
            let length = outline.belt_length();
            if !(length.is_finite() && length > 0.0) {
                continue;
            }
            b.phase = b.phase.rem_euclid(length);
            let pitch = length / b.cleats.len() as f64;
            for (i, node) in b.cleats.iter_mut().enumerate() {
                let s = (b.phase + i as f64 * pitch).rem_euclid(length);
                let (p, d) = point_on_belt(outline, s);
                // Outward normal of a counter-clockwise loop: the tangent turned clockwise.
                let out = Vector2::new(d.y, -d.x);
                let q = p + out * 0.002;
                node.set_rotation(rotation_along(&d));
                node.set_position(Vec3::new(q.x as f32, 0.0, q.y as f32));
            }
        }
    }
}

/// The hull under `root`, with a darker top plate and a light stripe on the front edge so the
/// heading reads at a glance from the chase and free views; returns the height of its top, m
/// (body frame).
fn add_hull(root: &mut SceneNode3d, spec: &RobotSpec) -> f64 {
    // Hull, with a darker top plate and a light stripe on the front edge so the
    // heading reads at a glance from the chase and free views.
    // The collision box usually spans the tracks (so a rolled robot lies on it); drawn
    // like that it would hide the upper half of every belt. Draw the body between the
    // tracks instead, under a deck plate the size of the collision box's top.
    let HullShape::Box { size, center } = spec.hull;
    let top = center.z + size.z / 2.0;
    let inner = spec
        .tracks
        .iter()
        .map(|t| t.y.abs() - t.belt.width / 2.0 - 0.005)
        .fold(size.y / 2.0, f64::min);
    let body_width = if inner > 0.2 * size.y {
        2.0 * inner
    } else {
        size.y
    };
    root.add_cube(size.x as f32, body_width as f32, size.z as f32)
        .set_position(point3(&center))
        .set_color(HULL_COLOR)
        .set_roughness(0.6);
    if body_width < size.y {
        root.add_cube(size.x as f32, size.y as f32, 0.012)
            .set_position(Vec3::new(
                center.x as f32,
                center.y as f32,
                top as f32 - 0.006,
            ))
            .set_color(HULL_COLOR)
            .set_roughness(0.6);
    }
    root.add_cube((size.x * 0.9) as f32, (size.y * 0.9) as f32, 0.004)
        .set_position(Vec3::new(
            center.x as f32,
            center.y as f32,
            top as f32 + 0.002,
        ))
        .set_color(HULL_TOP_COLOR);
    root.add_cube(0.02, (size.y * 0.8) as f32, 0.012)
        .set_position(Vec3::new(
            (center.x + size.x / 2.0) as f32 - 0.008,
            center.y as f32,
            top as f32 - 0.004,
        ))
        .set_color(MARK_COLOR);

    top
}

/// Cameras: a small housing just behind each lens (so the camera never sees its own
/// housing), and a mast for cameras well above the hull's `top` (m).
fn add_cameras(root: &mut SceneNode3d, spec: &RobotSpec, top: f64) {
    for cam in &spec.cameras {
        let rot = UnitQuaternion::from_euler_angles(cam.rpy.x, cam.rpy.y, cam.rpy.z);
        let back = cam.position - rot * nalgebra::Vector3::x() * 0.03;
        let q = rot.quaternion();
        root.add_cube(0.045, 0.06, 0.04)
            .set_position(point3(&back))
            .set_rotation(Quat::from_xyzw(
                q.i as f32, q.j as f32, q.k as f32, q.w as f32,
            ))
            .set_color(CAMERA_COLOR);
        if cam.position.z > top + 0.05 {
            let h = cam.position.z - 0.02 - top;
            root.add_cylinder(0.012, h as f32)
                .set_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                .set_position(Vec3::new(
                    back.x as f32,
                    back.y as f32,
                    (top + h / 2.0) as f32,
                ))
                .set_color(HUB_COLOR);
        }
    }
}

/// One belt's nodes in a group at its lateral offset: a wheel and a hub for each circle of
/// its outline, a box for each run, and cleats along the loop.
fn add_belt(root: &mut SceneNode3d, robot: &TrackedRobot, r: BeltRef) -> BeltView {
    let (outline, _) = robot.plane_outline(r.plane);
    let mut group = root.add_group();
    group.set_position(Vec3::new(0.0, r.y as f32, 0.0));
    let w = r.width as f32;
    let hub_color = if r.flipper {
        FLIPPER_HUB_COLOR
    } else {
        HUB_COLOR
    };
    let mut wheels = Vec::new();
    let mut hubs = Vec::new();
    for c in outline.circles() {
        // kiss3d's cylinder axis is its local y: the body's lateral axis already.
        wheels.push(
            group
                .add_cylinder(c.radius as f32, w)
                .set_color(BELT_COLOR)
                .set_roughness(0.95),
        );
        hubs.push(
            group
                .add_cylinder((c.radius * 0.6) as f32, w + 0.006)
                .set_color(hub_color)
                .set_metallic(0.3),
        );
    }
    let runs = outline
        .runs()
        .iter()
        .map(|_| {
            group
                .add_cube(1.0, 1.0, 1.0)
                .set_color(BELT_COLOR)
                .set_roughness(0.95)
        })
        .collect();
    let count = ((outline.belt_length() / CLEAT_PITCH).round() as usize).clamp(4, MAX_CLEATS);
    let cleats = (0..count)
        .map(|_| {
            group
                .add_cube(0.012, w * 1.02, 0.007)
                .set_color(CLEAT_COLOR)
        })
        .collect();
    BeltView {
        r,
        wheels,
        hubs,
        runs,
        cleats,
        phase: 0.0,
    }
}

/// The nodes of a wheeled robot's wheels: tyre, hub and a light spoke on the outer face.
fn add_wheels(root: &mut SceneNode3d, robot: &WheeledRobot) -> Vec<WheelView> {
    robot
        .spec()
        .wheels
        .iter()
        .map(|wheel| {
            let mut group = root.add_group();
            let mut spin = group.add_group();
            let (r, w) = (wheel.radius as f32, wheel.width as f32);
            // kiss3d's cylinder axis is its local y: the wheel's axle already.
            spin.add_cylinder(r, w)
                .set_color(BELT_COLOR)
                .set_roughness(0.95);
            spin.add_cylinder(r * 0.6, w + 0.006)
                .set_color(HUB_COLOR)
                .set_metallic(0.3);
            let side = if wheel.center.y >= 0.0 { 1.0 } else { -1.0 };
            spin.add_cube(r * 1.1, 0.004, r * 0.12)
                .set_position(Vec3::new(0.0, side * (w / 2.0 + 0.004), 0.0))
                .set_color(MARK_COLOR);
            WheelView {
                group,
                spin,
                phase: 0.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::outline::Circle;

    fn two_wheels() -> BeltOutline {
        BeltOutline::new(vec![
            Circle {
                center: Point2::new(-0.2, 0.1),
                radius: 0.1,
            },
            Circle {
                center: Point2::new(0.2, 0.1),
                radius: 0.1,
            },
        ])
        .expect("valid outline")
    }

    #[test]
    fn walking_the_belt_visits_runs_and_arcs_continuously() {
        let o = two_wheels();
        let len = o.belt_length();
        assert!((len - (0.8 + TAU * 0.1)).abs() < 1e-9, "{len}");
        let mut prev = point_on_belt(&o, 0.0).0;
        let n = 400;
        for i in 1..=n {
            let (p, d) = point_on_belt(&o, len * i as f64 / n as f64 - 1e-12);
            assert!((d.norm() - 1.0).abs() < 1e-9);
            let step = (p - prev).norm();
            assert!(step <= len / n as f64 + 1e-9, "jump of {step} at {i}");
            // Every point lies on the loop: on a run (z = 0 or 0.2) or on an end arc.
            let on_run = (p.y.abs() < 1e-9 || (p.y - 0.2).abs() < 1e-9) && p.x.abs() <= 0.2 + 1e-9;
            let on_arc = ((p - Point2::new(-0.2, 0.1)).norm() - 0.1).abs() < 1e-9
                || ((p - Point2::new(0.2, 0.1)).norm() - 0.1).abs() < 1e-9;
            assert!(on_run || on_arc, "{p:?}");
            prev = p;
        }
    }

    #[test]
    fn the_loop_starts_on_the_ground_run_going_forward() {
        let (p, d) = point_on_belt(&two_wheels(), 0.1);
        assert!(p.y.abs() < 1e-12 && d.x > 0.99);
    }
}
