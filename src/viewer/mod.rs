//! The operator station (feature `viewer`): a kiss3d window in which the trainee drives a robot
//! through its onboard cameras, and the headless renderer behind `treadsim shot`.
//!
//! Data flows one way, as everywhere in treadsim: the viewer reads the [`Simulation`]
//! (poses, belt outlines, drive state) and writes nothing back but drive commands, resets
//! and teleports.
//!
//! - [`scene_mesh`]: the scene's terrain → kiss3d meshes, one per (material, face orientation),
//!   shaded so treads read lighter than risers, with a world-aligned texture per material
//!   (its look: concrete, tiles, grating, brick...; a 0.5 m grid by default) that gives the eye
//!   scale and motion; [`surface_texture`] generates the textures' pixels.
//! - [`robot_view`]: hull, wheels, belt runs, moving cleats and flippers, all as scene nodes
//!   created once and moved every frame from [`TrackedRobot::plane_outline`].
//! - [`cameras`]: the camera list (the robot file's onboard cameras, then `chase` and `free`)
//!   and [`cameras::StationCamera`], one `Camera3d` that can be any of them.
//! - [`view_scene`]: the scene graph (lights, terrain, robot) shared by the window and the
//!   headless renderer.
//! - [`render_path`]: kiss3d's full PBR pipeline on a GPU, or the fast path on a CPU
//!   (software) adapter, drawn with [`flat_material`] (Lambert shading, no shadows).
//! - [`hud`]: the instrument panel: what it shows ([`hud::HudData`], pure, tested) and how it is
//!   drawn (egui).
//! - [`keys`]: kiss3d key codes → [`crate::input::Key`].
//! - [`station`]: the window loop.
//! - [`shot`]: headless rendering ([`shot::HeadlessRenderer`], `treadsim shot`).
//!
//! Frames: kiss3d draws whatever world it is given, so the world stays Z-up and every
//! camera builds its view from Z-up poses; kiss3d's own Y-up conventions only matter for its
//! primitives (a cylinder's axis is its local y, which is the body's lateral axis: wheels need
//! no extra rotation).
//!
//! [`Simulation`]: crate::sim::Simulation
//! [`TrackedRobot::plane_outline`]: crate::vehicle::TrackedRobot::plane_outline

pub mod arm_panel;
mod body_nodes;
pub mod camera_feeds;
pub mod cameras;
pub mod conditions_panel;
pub mod exercise_hud;
pub mod flat_material;
mod frame_stats;
pub mod hud;
mod hud_data;
mod input_source;
mod instruments;
pub mod keys;
mod palette;
pub mod render_path;
pub mod replay;
pub mod robot_view;
pub mod scene_mesh;
pub mod shot;
pub mod site_lights;
pub mod station;
mod station_render;
pub mod station_seat;
mod station_setup;
mod station_state;
mod station_views;
pub mod surface_texture;
pub mod terrain_panel;
pub mod video;
pub mod view_scene;

use std::path::{Path, PathBuf};

use kiss3d::glamx::{Pose3, Quat, Vec3};
use nalgebra::{Isometry3, Point3, Vector3};

use crate::config::ConfigError;
use crate::sim::SimError;

/// Why the station or a headless shot could not run.
#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` is set: no window can open.
    #[error(
        "no display: the operator station needs a window, but neither DISPLAY nor \
         WAYLAND_DISPLAY is set.\n\
         Without a screen you can still:\n  \
         treadsim shot --camera front --out front.png   render what a camera sees (headless)\n  \
         treadsim run --scene S --robot R --script F --out t.csv   drive headless, telemetry as CSV\n  \
         xvfb-run -a treadsim station   run the station on a virtual display \
         (apt-get install xvfb mesa-vulkan-drivers libvulkan1)"
    )]
    NoDisplay,
    /// A display is set but the window (or its GPU surface) could not be created.
    #[error(
        "cannot open the station window: {0}\n\
         Check that the display is reachable and that a Vulkan or OpenGL driver is installed \
         (Debian: mesa-vulkan-drivers libvulkan1 libegl1 libgl1-mesa-dri); \
         `treadsim shot` renders without a window"
    )]
    Window(String),
    /// The window or its GPU surface failed while the station ran (e.g. the window was
    /// destroyed from outside).
    #[error("the station window stopped working: {0}")]
    WindowLost(String),
    /// No GPU adapter (not even Mesa's software renderer) for off-screen rendering.
    #[error(
        "cannot render: no GPU adapter ({0}); install Mesa (Debian: libegl1 libegl-mesa0 \
         libgl1-mesa-dri, or mesa-vulkan-drivers libvulkan1)"
    )]
    Gpu(String),
    /// A scene, robot, mapping or script file is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The simulation could not be set up.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The input mapping is inconsistent.
    #[error("input mapping: {0}")]
    Mapping(String),
    /// The session's log could not be written.
    #[error(transparent)]
    Log(#[from] crate::record::LogError),
    /// `--camera` names no camera of the robot.
    #[error("robot '{robot}' has no camera '{name}' (have: {have})")]
    UnknownCamera {
        /// Robot name.
        robot: String,
        /// The name asked for.
        name: String,
        /// Every valid name.
        have: String,
    },
    /// The session could not be started (a file, the spawn, the simulation or the log).
    #[error(transparent)]
    Launch(#[from] crate::launch::LaunchError),
    /// A command-line value is out of range.
    #[error("{0}")]
    Argument(String),
    /// The station could not join its class, or its seat failed (its outbox).
    #[error("class: {0}")]
    Class(String),
    /// Writing an image failed.
    #[error("cannot write {path}: {message}")]
    Image {
        /// Output file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// A default input file: `rel` under the working directory if it exists there, else under
/// the source tree the binary was built from (so `treadsim station` works from any
/// directory of a checkout).
pub fn default_asset(rel: &str) -> PathBuf {
    let here = Path::new(rel);
    if here.exists() {
        return here.to_path_buf();
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if built.exists() {
        built
    } else {
        here.to_path_buf()
    }
}

/// `f32` glam vector of an `f64` nalgebra vector.
pub fn vec3(v: &Vector3<f64>) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// `f32` glam vector of an `f64` nalgebra point.
pub fn point3(p: &Point3<f64>) -> Vec3 {
    Vec3::new(p.x as f32, p.y as f32, p.z as f32)
}

/// `f32` glam pose of an `f64` nalgebra isometry.
pub fn pose3(p: &Isometry3<f64>) -> Pose3 {
    let q = p.rotation.quaternion();
    Pose3::from_parts(
        vec3(&p.translation.vector),
        Quat::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize(),
    )
}

/// Runs `f`, turning a panic into an error message (with its source location) instead of a
/// backtrace: kiss3d reports a missing display or GPU, and a window destroyed under it, by
/// panicking (`expect`) inside window, device and surface code, and the station must say
/// what went wrong and exit cleanly. The panic hook is process-wide, so a panic on another
/// thread meanwhile is reported the same way.
pub(crate) fn catch_quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    use std::sync::Mutex;
    static LAST: Mutex<Option<String>> = Mutex::new(None);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown failure".into());
        let text = match info.location() {
            Some(l) => format!("{} (at {}:{})", message.trim(), l.file(), l.line()),
            None => message.trim().to_string(),
        };
        if let Ok(mut last) = LAST.lock() {
            *last = Some(text);
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.map_err(|_| {
        LAST.lock()
            .ok()
            .and_then(|mut l| l.take())
            .unwrap_or_else(|| "unknown failure".into())
    })
}
