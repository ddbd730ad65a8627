//! Headless rendering: what a camera sees, with no display (kiss3d's `OffscreenSurface`,
//! which needs only Mesa's EGL or Vulkan software renderer), for `treadsim shot`, tests and
//! README screenshots.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kiss3d::window::OffscreenSurface;
use nalgebra::Point3;

use super::cameras::{chase_eye, heading, onboard_pose, views, StationCamera, View, ViewKind};
use super::render_path::RenderPath;
use super::view_scene::{configure, ViewScene};
use super::{catch_quietly, ViewerError};
use crate::config::SourceFile;
use crate::launch::{open, Launch};
use crate::session::{drive, script_driver, DriveScript, ScriptDriver};
use crate::sim::{RobotId, Simulation};

/// An 8-bit RGB image, row-major, top row first.
pub type RgbImage = image::RgbImage;

/// Largest image side accepted, pixels.
pub const MAX_SIZE: u32 = 8192;

/// Renders views of one robot of a simulation into images, without a display.
pub struct HeadlessRenderer {
    surface: OffscreenSurface,
    scene: ViewScene,
    camera: StationCamera,
    views: Vec<View>,
    last_time: f64,
}

impl std::fmt::Debug for HeadlessRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeadlessRenderer")
            .field("size", &(self.surface.width(), self.surface.height()))
            .field("views", &self.views)
            .finish()
    }
}

impl HeadlessRenderer {
    /// An off-screen surface of `width` × `height` pixels and the scene of `sim` with robot
    /// `id`, drawn by the full render path (as a GPU shows it, on any adapter). Fails with
    /// [`ViewerError::Gpu`] when no GPU adapter (not even a software one) exists.
    pub fn new(
        sim: &Simulation,
        id: RobotId,
        width: u32,
        height: u32,
    ) -> Result<Self, ViewerError> {
        Self::with_path(sim, id, width, height, RenderPath::Full)
    }

    /// As [`HeadlessRenderer::new`], drawn by `path` (the fast path has no shadows).
    pub fn with_path(
        sim: &Simulation,
        id: RobotId,
        width: u32,
        height: u32,
        path: RenderPath,
    ) -> Result<Self, ViewerError> {
        check_size(width, height)?;
        let mut surface =
            catch_quietly(|| kiss3d::pollster::block_on(OffscreenSurface::new(width, height)))
                .map_err(ViewerError::Gpu)?;
        configure(surface.window_mut());
        path.configure(surface.window_mut());
        let scene = ViewScene::new(sim, id, path);
        Ok(Self {
            surface,
            scene,
            camera: StationCamera::new(),
            views: views(sim.robot(id).spec()),
            last_time: sim.time(),
        })
    }

    /// The off-screen surface, for render settings (shadows, exposure, ...).
    pub fn surface_mut(&mut self) -> &mut OffscreenSurface {
        &mut self.surface
    }

    /// Sets the scene's light: `None` daylight, else a fraction of it (the robot's lamps come
    /// on in the dark), as the station follows the link's `ambient_light`.
    pub fn set_light_level(&mut self, level: Option<f64>) {
        self.scene.set_light_level(level);
        super::view_scene::configure_light(self.surface.window_mut(), level);
    }

    /// The views this renderer accepts: the robot's cameras, `chase`, `free`.
    pub fn views(&self) -> &[View] {
        &self.views
    }

    /// Renders the view called `view` of the simulation's current state.
    pub fn render(
        &mut self,
        sim: &Simulation,
        id: RobotId,
        view: &str,
    ) -> Result<RgbImage, ViewerError> {
        let kind = self
            .views
            .iter()
            .find(|v| v.name == view)
            .map(|v| v.kind)
            .ok_or_else(|| ViewerError::UnknownCamera {
                robot: sim.robot(id).spec().name.clone(),
                name: view.into(),
                have: self
                    .views
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        self.sync(sim, id);
        place_camera(&mut self.camera, sim, id, kind);
        Ok(self.draw())
    }

    /// Renders the simulation's current state from `eye` looking at `target` (world, Z up)
    /// with vertical field of view `fov` rad: for documentation pictures and debugging.
    pub fn render_from(
        &mut self,
        sim: &Simulation,
        id: RobotId,
        eye: &Point3<f64>,
        target: &Point3<f64>,
        fov: f64,
    ) -> Result<RgbImage, ViewerError> {
        self.sync(sim, id);
        self.camera.look_at(eye, target, fov);
        Ok(self.draw())
    }

    fn sync(&mut self, sim: &Simulation, id: RobotId) {
        let dt = (sim.time() - self.last_time).max(0.0);
        self.last_time = sim.time();
        self.scene.update(sim, id, dt);
    }

    fn draw(&mut self) -> RgbImage {
        kiss3d::pollster::block_on(
            self.surface
                .render_3d(&mut self.scene.root, &mut self.camera),
        );
        self.surface.snap_image()
    }
}

/// Poses `camera` for a view of robot `id` without history (the chase camera takes the
/// robot's heading as it is; the free view is a fixed overview from behind and to the left).
pub fn place_camera(camera: &mut StationCamera, sim: &Simulation, id: RobotId, kind: ViewKind) {
    let body = sim.body_state(id).pose;
    let spec = sim.robot(id).spec();
    match kind {
        ViewKind::Onboard(i) => {
            if let Some(cam) = spec.cameras.get(i) {
                camera.set_pose(&onboard_pose(&body, cam), cam.fov);
            }
        }
        ViewKind::Gripper => {
            if let Some((pose, fov)) = super::cameras::gripper_camera(sim, id) {
                camera.set_pose(&pose, fov);
            }
        }
        ViewKind::Chase => {
            let (eye, target) = chase_eye(spec, &body, heading(&body));
            camera.look_at(&eye, &target, 60f64.to_radians());
        }
        ViewKind::Free => {
            let (eye, target) = chase_eye(spec, &body, heading(&body) - 0.8);
            let eye = target + (eye - target) * 1.8;
            camera.look_at(&eye, &Point3::from(target.coords), 55f64.to_radians());
        }
    }
}

fn check_size(width: u32, height: u32) -> Result<(), ViewerError> {
    if !(16..=MAX_SIZE).contains(&width) || !(16..=MAX_SIZE).contains(&height) {
        return Err(ViewerError::Argument(format!(
            "image size must be 16..={MAX_SIZE} pixels per side, got {width}x{height}"
        )));
    }
    Ok(())
}

/// What `treadsim shot` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotArgs {
    /// Scene file.
    pub scene: PathBuf,
    /// Robot file.
    pub robot: PathBuf,
    /// Spawn name (default: the scene's first).
    pub spawn: Option<String>,
    /// View name: a camera of the robot file, `chase` or `free`.
    pub camera: String,
    /// Output PNG.
    pub out: PathBuf,
    /// Drive script followed until `at`: timed commands or goals (default: stand still).
    pub script: Option<PathBuf>,
    /// Simulated time before the picture, s (the robot settles on its tracks in about 1 s).
    pub at: f64,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// How the picture is drawn: [`RenderPath::Full`] shows what a GPU station shows,
    /// [`RenderPath::Fast`] what a station on a software renderer shows.
    pub render_path: RenderPath,
}

/// What a shot did.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotSummary {
    /// Simulated time of the picture, s.
    pub time: f64,
    /// Robot body origin, world, m.
    pub position: [f64; 3],
    /// Wall time to set up the off-screen surface and scene, s.
    pub setup_seconds: f64,
    /// Wall time of the rendering (one frame plus read-back), s.
    pub render_seconds: f64,
    /// The file written.
    pub out: PathBuf,
}

/// `treadsim shot`: simulate, render one view headless, write a PNG.
pub fn shot(a: &ShotArgs) -> Result<ShotSummary, ViewerError> {
    if !(a.at.is_finite() && (0.0..=3600.0).contains(&a.at)) {
        return Err(ViewerError::Argument(format!(
            "--at must be between 0 and 3600 s, got {}",
            a.at
        )));
    }
    check_size(a.width, a.height)?;
    let script = a.script.as_deref().map(SourceFile::read).transpose()?;
    let mut session = open(&Launch::Free {
        scene: a.scene.clone(),
        robot: a.robot.clone(),
        spawn: a.spawn.clone(),
    })?
    .session;
    // Refuse a bad camera name before simulating.
    let robot = session.sim().robot(session.robot()).spec();
    let names = views(robot);
    if !names.iter().any(|v| v.name == a.camera) {
        return Err(ViewerError::UnknownCamera {
            robot: robot.name.clone(),
            name: a.camera.clone(),
            have: names
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let id = session.robot();
    let start = Instant::now();
    let mut renderer =
        HeadlessRenderer::with_path(session.sim(), id, a.width, a.height, a.render_path)?;
    let setup_seconds = start.elapsed().as_secs_f64();
    // The robot follows the script (stands still without one) up to `at`, as `treadsim run`.
    let steps = (a.at / session.sim().config().dt).round().max(0.0) as u64;
    let mut driver = match &script {
        Some(file) => script_driver(file, session.sim().robot(id).spec(), false)?,
        None => Box::new(ScriptDriver::new(DriveScript::default(), false)),
    };
    drive(&mut session, driver.as_mut(), steps, |_| true);
    let sim = session.sim();
    let start = Instant::now();
    let image = renderer.render(sim, id, &a.camera)?;
    let render_seconds = start.elapsed().as_secs_f64();
    save_png(&image, &a.out)?;
    let p = sim.body_state(id).pose.translation.vector;
    Ok(ShotSummary {
        time: sim.time(),
        position: [p.x, p.y, p.z],
        setup_seconds,
        render_seconds,
        out: a.out.clone(),
    })
}

/// Writes an image as PNG.
pub fn save_png(image: &RgbImage, path: &Path) -> Result<(), ViewerError> {
    image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| ViewerError::Image {
            path: path.display().to_string(),
            message: e.to_string(),
        })
}
