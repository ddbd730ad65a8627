//! The scene graph a station or a headless shot renders: lights, terrain and one robot.

use kiss3d::color::Color;
use kiss3d::context::Context;
use kiss3d::glamx::Vec3;
use kiss3d::light::Light;
use kiss3d::scene::SceneNode3d;
use kiss3d::window::Window;

use super::robot_view::RobotView;
use super::scene_mesh::{add_terrain, grid_texture, TerrainView};
use crate::sim::{RobotId, Simulation};

/// Background (sky) colour: a neutral overcast grey-blue, darker than any tread so the
/// horizon and a stair's top edge stand out.
pub const SKY: Color = Color::new(0.52, 0.58, 0.66, 1.0);
/// Ambient light: enough that faces turned away from the sun keep their colour class.
pub const AMBIENT: f32 = 0.35;

/// Applies the station's background and ambient light to a window or an off-screen
/// surface's window.
pub fn configure(window: &mut Window) {
    window.set_background_color(SKY);
    window.set_ambient(AMBIENT);
}

/// Whether kiss3d's GPU adapter is a CPU (software) renderer such as Mesa's llvmpipe or
/// lavapipe, where every shaded pixel costs CPU time.
pub fn software_renderer() -> bool {
    Context::is_initialized()
        && Context::get().adapter.get_info().device_type == wgpu::DeviceType::Cpu
}

/// Everything drawn: a root node holding the lights, the terrain and the robot.
pub struct ViewScene {
    /// Root of the scene graph, passed to `render_3d`.
    pub root: SceneNode3d,
    /// The robot's nodes.
    pub robot: RobotView,
    /// The terrain's nodes.
    pub terrain: TerrainView,
}

impl ViewScene {
    /// Builds the scene of `sim` with robot `id`. Needs kiss3d's GPU context: create the
    /// window or off-screen surface first.
    pub fn new(sim: &Simulation, id: RobotId) -> Self {
        let mut root = SceneNode3d::empty();
        // Sun high and from beyond the default scenes' stairs (+x, where exercises lead), so
        // treads are lit and risers facing an approaching robot stay in shade: each step
        // edge reads as a light/dark boundary. A weak fill from the other side keeps the
        // shaded faces' colours readable.
        root.add_light(
            Light::directional(Vec3::new(-0.4, -0.3, -1.0).normalize())
                .with_color(Color::new(1.0, 0.97, 0.9, 1.0))
                .with_intensity(2.0),
        );
        root.add_light(
            Light::directional(Vec3::new(0.5, 0.6, -0.5).normalize())
                .with_color(Color::new(0.75, 0.82, 1.0, 1.0))
                .with_intensity(0.5)
                .with_casts_shadows(false),
        );
        // Anisotropic filtering keeps the far floor's grid sharp; on a CPU renderer it
        // multiplies the cost of every textured pixel.
        let anisotropy = if software_renderer() { 1 } else { 8 };
        let terrain = add_terrain(
            &mut root,
            &sim.scene().terrain,
            Some(grid_texture(anisotropy)),
        );
        let mut robot = RobotView::new(&mut root, sim.robot(id));
        robot.update(&sim.body_state(id), sim.robot(id), 0.0);
        Self {
            root,
            robot,
            terrain,
        }
    }

    /// Moves the robot's nodes to the simulation's current state; `dt` is the simulated time
    /// since the last update.
    pub fn update(&mut self, sim: &Simulation, id: RobotId, dt: f64) {
        self.robot.update(&sim.body_state(id), sim.robot(id), dt);
    }
}
