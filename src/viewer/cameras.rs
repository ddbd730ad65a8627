//! The views a station offers and the one kiss3d camera that renders any of them.
//!
//! Views, in cycling order: the robot file's onboard cameras (what a real operator unit
//! shows), then `chase` (behind and above the robot, level, following its heading) and `free`
//! (the instructor's orbit camera: left drag turns, right drag pans, wheel zooms; it follows
//! the robot). The last two are third-person views, hidden in trainee mode.
//!
//! Onboard cameras use the robot file's convention: the camera looks along its own x, with y
//! left and z up, posed by `position` and roll-pitch-yaw in the body frame (pitch > 0 looks
//! down). kiss3d wants an OpenGL view (looking along −z, y up), so [`StationCamera`] turns the
//! pose once per frame; the world stays Z-up.

use kiss3d::camera::{Camera3d, OrbitCamera3d};
use kiss3d::event::WindowEvent;
use kiss3d::glamx::glam::camera::rh::proj::opengl;
use kiss3d::glamx::{Mat4, Pose3, Vec3};
use kiss3d::window::Canvas;
use nalgebra::{Isometry3, Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};

use super::{point3, pose3};
use crate::vehicle::spec::{CameraSpec, HullShape};
use crate::vehicle::RobotSpec;

/// Near clipping distance given to the projection, m. kiss3d uses an OpenGL-style projection
/// with wgpu's [0, 1] depth range, which clips at about twice this: 2 cm, close enough for
/// a camera mounted flush with the hull.
const Z_NEAR: f32 = 0.01;
/// Far clipping distance, m.
const Z_FAR: f32 = 400.0;

/// What a view looks from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// The robot file's camera with this index.
    Onboard(usize),
    /// The camera on the arm's gripper (an onboard view that moves with the arm).
    Gripper,
    /// Behind and above the robot, level, following its heading.
    Chase,
    /// The instructor's orbit camera.
    Free,
}

impl ViewKind {
    /// Whether the view shows the robot from outside (hidden from trainees).
    pub fn is_third_person(self) -> bool {
        !matches!(self, ViewKind::Onboard(_) | ViewKind::Gripper)
    }
}

/// One entry of the view list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// Name shown on the HUD and accepted by `treadsim shot --camera`.
    pub name: String,
    /// What it looks from.
    pub kind: ViewKind,
}

/// The views of a robot: its onboard cameras in file order, its gripper camera (armed
/// robots), then `chase` and `free`.
pub fn views(spec: &RobotSpec) -> Vec<View> {
    let gripper = spec
        .arm
        .as_ref()
        .and_then(|a| a.gripper.camera.as_ref())
        .map(|c| View {
            name: c.name.clone(),
            kind: ViewKind::Gripper,
        });
    spec.cameras
        .iter()
        .enumerate()
        .map(|(i, c)| View {
            name: c.name.clone(),
            kind: ViewKind::Onboard(i),
        })
        .chain(gripper)
        .chain([
            View {
                name: "chase".into(),
                kind: ViewKind::Chase,
            },
            View {
                name: "free".into(),
                kind: ViewKind::Free,
            },
        ])
        .collect()
}

/// The view `step` places after `current` (negative: before), skipping third-person views
/// when `trainee` is set. Returns `current` if no other view is allowed.
pub fn cycle(views: &[View], current: usize, step: i32, trainee: bool) -> usize {
    let n = views.len();
    if n == 0 {
        return current;
    }
    let mut i = current.min(n - 1);
    for _ in 0..n {
        i = if step >= 0 {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        };
        if !(trainee && views[i].kind.is_third_person()) {
            return i;
        }
    }
    current
}

/// World pose and vertical field of view (rad) of robot `id`'s gripper camera, where its
/// arm has it now (`None`: no arm or no gripper camera).
pub fn gripper_camera(
    sim: &crate::sim::Simulation,
    id: crate::sim::RobotId,
) -> Option<(Isometry3<f64>, f64)> {
    let camera = sim.robot(id).spec().arm.as_ref()?.gripper.camera.as_ref()?;
    let arm = sim.arm_state(id)?;
    Some((camera.world_pose(&arm.gripper), camera.fov))
}

/// World pose of an onboard camera (x forward, y left, z up) on a body at `body`.
pub fn onboard_pose(body: &Isometry3<f64>, cam: &CameraSpec) -> Isometry3<f64> {
    cam.world_pose(body)
}

/// Where the chase camera sits for a robot of this size: distance behind the body origin and
/// height above it, m, and the height of the point it looks at.
pub fn chase_offsets(spec: &RobotSpec) -> (f64, f64, f64) {
    let HullShape::Box { size, center } = spec.hull;
    let length = size.x.max(size.y).max(0.2);
    let back = (3.0 * length).max(1.2);
    (back, 0.5 * back, center.z + size.z / 2.0)
}

/// Eye and target of the chase camera for a body at `body` whose heading the camera follows
/// as `yaw` (rad; the station smooths it so the view does not jerk when the robot spins).
pub fn chase_eye(spec: &RobotSpec, body: &Isometry3<f64>, yaw: f64) -> (Point3<f64>, Point3<f64>) {
    let (back, up, look) = chase_offsets(spec);
    let origin = Point3::from(body.translation.vector);
    let dir = Vector3::new(yaw.cos(), yaw.sin(), 0.0);
    let target = origin + Vector3::z() * look;
    (origin - dir * back + Vector3::z() * up, target)
}

/// Heading (yaw about world z) of a body: where its x axis points, projected on the ground.
pub fn heading(body: &Isometry3<f64>) -> f64 {
    let x = body.rotation * Vector3::x();
    x.y.atan2(x.x)
}

/// Rotation from an OpenGL camera frame (x right, y up, looking along −z) to a robot-file
/// camera frame (x forward, y left, z up): columns are the GL axes in camera coordinates.
fn gl_from_camera_axes() -> UnitQuaternion<f64> {
    UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(Matrix3::new(
        0.0, 0.0, -1.0, //
        -1.0, 0.0, 0.0, //
        0.0, 1.0, 0.0,
    )))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Posed,
    Orbit,
}

/// One kiss3d camera for every view: posed from a robot-file camera pose or a look-at, or
/// handing over to an orbit camera for the free view.
#[derive(Debug, Clone)]
pub struct StationCamera {
    mode: Mode,
    eye: Vec3,
    view: Pose3,
    fov: f32,
    size: (u32, u32),
    proj: Mat4,
    proj_view: Mat4,
    inverse_proj_view: Mat4,
    orbit: OrbitCamera3d,
}

impl Default for StationCamera {
    fn default() -> Self {
        Self::new()
    }
}

impl StationCamera {
    /// A posed camera at the origin looking along world x, 60° field of view.
    pub fn new() -> Self {
        let mut orbit = OrbitCamera3d::new_with_frustum(
            1.0,
            Z_NEAR,
            Z_FAR,
            Vec3::new(-3.0, -3.0, 2.0),
            Vec3::ZERO,
        );
        orbit.set_up_axis(Vec3::Z);
        // Return is the orbit camera's "look at the origin" key by default; keys belong to
        // the input mapping here.
        orbit.rebind_reset_key(None);
        let mut cam = Self {
            mode: Mode::Posed,
            eye: Vec3::ZERO,
            view: Pose3::IDENTITY,
            fov: 60f32.to_radians(),
            size: (800, 600),
            proj: Mat4::IDENTITY,
            proj_view: Mat4::IDENTITY,
            inverse_proj_view: Mat4::IDENTITY,
            orbit,
        };
        cam.set_pose(&Isometry3::identity(), 60f64.to_radians());
        cam
    }

    /// Looks from a robot-file style camera pose (x forward, y left, z up, world) with
    /// vertical field of view `fov` rad.
    pub fn set_pose(&mut self, pose: &Isometry3<f64>, fov: f64) {
        self.mode = Mode::Posed;
        let gl = Isometry3::from_parts(pose.translation, pose.rotation * gl_from_camera_axes());
        self.eye = point3(&Point3::from(pose.translation.vector));
        self.view = pose3(&gl.inverse());
        self.fov = fov.clamp(0.05, 3.0) as f32;
        self.update_matrices();
    }

    /// Looks from `eye` at `target` with world z up.
    pub fn look_at(&mut self, eye: &Point3<f64>, target: &Point3<f64>, fov: f64) {
        let dir = target - eye;
        let rot = if dir.norm() > 1e-9 {
            // A robot-file camera frame whose x points at the target, z as close to world z
            // as possible.
            UnitQuaternion::face_towards(&dir, &Vector3::z())
                * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), -std::f64::consts::FRAC_PI_2)
                * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -std::f64::consts::FRAC_PI_2)
        } else {
            UnitQuaternion::identity()
        };
        self.set_pose(&Isometry3::from_parts(eye.coords.into(), rot), fov);
    }

    /// Hands over to the orbit camera (true) for the free view.
    pub fn set_free(&mut self, free: bool) {
        self.mode = if free { Mode::Orbit } else { Mode::Posed };
    }

    /// Whether the orbit camera is active.
    pub fn is_free(&self) -> bool {
        self.mode == Mode::Orbit
    }

    /// The orbit camera of the free view.
    pub fn orbit(&self) -> &OrbitCamera3d {
        &self.orbit
    }

    /// The orbit camera of the free view, to place it.
    pub fn orbit_mut(&mut self) -> &mut OrbitCamera3d {
        &mut self.orbit
    }

    fn update_matrices(&mut self) {
        let aspect = self.size.0.max(1) as f32 / self.size.1.max(1) as f32;
        self.proj = opengl::perspective(self.fov, aspect, Z_NEAR, Z_FAR);
        self.proj_view = self.proj * self.view.to_mat4();
        self.inverse_proj_view = self.proj_view.inverse();
    }
}

impl Camera3d for StationCamera {
    fn handle_event(&mut self, canvas: &Canvas, event: &WindowEvent) {
        // The orbit camera always learns the framebuffer size, but only takes the mouse
        // while the free view is showing.
        if self.mode == Mode::Orbit || matches!(event, WindowEvent::FramebufferSize(..)) {
            self.orbit.handle_event(canvas, event);
        }
    }

    fn eye(&self) -> Vec3 {
        match self.mode {
            Mode::Posed => self.eye,
            Mode::Orbit => self.orbit.eye(),
        }
    }

    fn view_transform(&self) -> Pose3 {
        match self.mode {
            Mode::Posed => self.view,
            Mode::Orbit => self.orbit.view_transform(),
        }
    }

    fn transformation(&self) -> Mat4 {
        match self.mode {
            Mode::Posed => self.proj_view,
            Mode::Orbit => self.orbit.transformation(),
        }
    }

    fn inverse_transformation(&self) -> Mat4 {
        match self.mode {
            Mode::Posed => self.inverse_proj_view,
            Mode::Orbit => self.orbit.inverse_transformation(),
        }
    }

    fn clip_planes(&self) -> (f32, f32) {
        (Z_NEAR, Z_FAR)
    }

    fn update(&mut self, canvas: &Canvas) {
        // Off-screen surfaces send no resize events: take the size from the canvas itself.
        let size = canvas.size();
        if size != self.size {
            self.size = size;
            self.update_matrices();
            self.orbit
                .handle_event(canvas, &WindowEvent::FramebufferSize(size.0, size.1));
        }
        if self.mode == Mode::Orbit {
            self.orbit.update(canvas);
        }
    }

    fn view_transform_pair(&self, pass: usize) -> (Pose3, Mat4) {
        match self.mode {
            Mode::Posed => (self.view, self.proj),
            Mode::Orbit => self.orbit.view_transform_pair(pass),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_camera_looks_along_its_x() {
        let mut cam = StationCamera::new();
        let pose = Isometry3::translation(1.0, 2.0, 0.5);
        cam.set_pose(&pose, 1.0);
        // A point 3 m ahead (world +x) is straight ahead in view space: −z, centred.
        let p = cam
            .view_transform()
            .transform_point(Vec3::new(4.0, 2.0, 0.5));
        assert!(
            p.x.abs() < 1e-5 && p.y.abs() < 1e-5 && (p.z + 3.0).abs() < 1e-5,
            "{p:?}"
        );
        // World up is view up; world left (+y) is view left (−x).
        let up = cam
            .view_transform()
            .transform_point(Vec3::new(4.0, 2.0, 1.5));
        assert!(up.y > 0.9, "{up:?}");
        let left = cam
            .view_transform()
            .transform_point(Vec3::new(4.0, 3.0, 0.5));
        assert!(left.x < -0.9, "{left:?}");
    }

    #[test]
    fn look_at_centres_the_target_and_keeps_z_up() {
        let mut cam = StationCamera::new();
        let (eye, target) = (Point3::new(-2.0, 1.0, 1.5), Point3::new(0.5, -0.3, 0.2));
        cam.look_at(&eye, &target, 1.0);
        let p = cam.view_transform().transform_point(point3(&target));
        assert!(p.x.abs() < 1e-4 && p.y.abs() < 1e-4 && p.z < 0.0, "{p:?}");
        let above = cam
            .view_transform()
            .transform_point(point3(&(target + Vector3::z())));
        assert!(above.y > 0.0 && above.x.abs() < 1e-4, "{above:?}");
    }
}
