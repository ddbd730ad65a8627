//! The station's views: which one is the main view and which the picture-in-picture, trainee
//! mode's onboard-only rule, and posing a camera for a view.

use nalgebra::Point3;

use super::cameras::{
    chase_eye, cycle, gripper_camera, heading, onboard_pose, StationCamera, View, ViewKind,
};
use super::point3;
use crate::sim::{RobotId, Simulation};

/// The session's mutable state besides the simulation.
pub(super) struct Station {
    pub(super) views: Vec<View>,
    pub(super) view_names: Vec<String>,
    pub(super) main: usize,
    pub(super) pip: Option<usize>,
    pub(super) trainee: bool,
    pub(super) locked: bool,
    pub(super) help: bool,
    pub(super) chase_yaw: f64,
    pub(super) free_anchor: Option<Point3<f64>>,
}

impl Station {
    fn allowed(&self, i: usize) -> bool {
        !(self.trainee && self.views[i].kind.is_third_person())
    }

    pub(super) fn first_onboard(&self) -> usize {
        self.views
            .iter()
            .position(|v| !v.kind.is_third_person())
            .unwrap_or(0)
    }

    /// Applies trainee mode: third-person views are replaced by onboard ones.
    pub(super) fn enforce_mode(&mut self) {
        if !self.allowed(self.main) {
            self.main = self.first_onboard();
        }
        if let Some(p) = self.pip {
            if !self.allowed(p) {
                self.pip = Some(cycle(&self.views, self.main, 1, true)).filter(|&q| q != self.main);
            }
        }
    }

    /// After the main view changed: a picture-in-picture that now shows the same view moves to
    /// the next allowed view after it, wrapping round (off only when no other is allowed), so
    /// cycling the cameras never loses it.
    pub(super) fn move_pip_off_main(&mut self) {
        if self.pip != Some(self.main) {
            return;
        }
        let n = self.views.len();
        self.pip = (1..n)
            .map(|k| (self.main + k) % n)
            .find(|&i| self.allowed(i));
    }

    /// F2: the picture-in-picture off → each allowed view other than the main one → off.
    pub(super) fn cycle_pip(&mut self) {
        // Off → each allowed view other than the main one → off.
        let n = self.views.len();
        let start = self.pip.map_or(0, |p| p + 1);
        self.pip = (start..n).find(|&i| i != self.main && self.allowed(i));
    }
}

/// Poses `cam` for a view of kind `kind` of robot `id`: an onboard camera on the hull, the
/// chase camera behind it at `chase_yaw`, or the free camera orbiting, following the robot.
pub(super) fn place(
    cam: &mut StationCamera,
    kind: ViewKind,
    sim: &Simulation,
    id: RobotId,
    chase_yaw: f64,
    free_anchor: &mut Option<Point3<f64>>,
) {
    let body = sim.body_state(id).pose;
    let spec = sim.robot(id).spec();
    match kind {
        ViewKind::Onboard(i) => {
            if let Some(c) = spec.cameras.get(i) {
                cam.set_pose(&onboard_pose(&body, c), c.fov);
            }
        }
        ViewKind::Gripper => {
            if let Some((pose, fov)) = gripper_camera(sim, id) {
                cam.set_pose(&pose, fov);
            }
        }
        ViewKind::Chase => {
            let (eye, target) = chase_eye(spec, &body, chase_yaw);
            cam.look_at(&eye, &target, 60f64.to_radians());
        }
        ViewKind::Free => {
            let robot = Point3::from(body.translation.vector);
            if !cam.is_free() {
                // Entering the free view: start from an overview behind and to the left,
                // then let the instructor orbit; the camera follows the robot's moves.
                let (eye, target) = chase_eye(spec, &body, heading(&body) - 0.8);
                let eye = target + (eye - target) * 1.8;
                cam.orbit_mut().look_at(point3(&eye), point3(&target));
                cam.set_free(true);
            } else if let Some(anchor) = *free_anchor {
                let at = cam.orbit().at() + point3(&Point3::from(robot - anchor));
                cam.orbit_mut().set_at(at);
            }
            *free_anchor = Some(robot);
            return;
        }
    }
    cam.set_free(false);
    *free_anchor = None;
}
