//! The scene graph a station or a headless shot renders: lights, terrain, one robot (with its
//! arm), the scene's movable objects and its moving traffic.

use kiss3d::builtin::MAX_SHADOW_VIEWS;
use kiss3d::color::Color;
use kiss3d::context::Context;
use kiss3d::glamx::Vec3;
use kiss3d::light::Light;
use kiss3d::scene::SceneNode3d;
use kiss3d::window::Window;
use nalgebra::{Isometry3, Point3, UnitQuaternion};

use super::body_nodes::BodyNodes;
use super::flat_material::{FlatMaterial, MAX_FLAT_LIGHTS};
use super::pose3;
use super::render_path::RenderPath;
use super::robot_view::RobotView;
use super::scene_mesh::{add_terrain, TerrainView};
use super::site_lights::SiteLights;
use crate::sim::{MoverId, RobotId, Simulation};

/// Colour of traffic agents: safety orange, as site vehicles and hi-vis vests are.
const TRAFFIC_COLOR: Color = Color::new(0.95, 0.45, 0.08, 1.0);

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
    /// The sun and the fill light, dimmed in the dark.
    daylight: [SceneNode3d; 2],
    /// The robot's own lights, one at each onboard camera, on in the dark.
    lamps: Vec<SceneNode3d>,
    /// The site's own lights (`[[light]]`), on when the daylight is dimmed.
    site_lights: SiteLights,
    /// Whether the views are drawn on the fast (CPU) path.
    fast_path: bool,
    /// Most lights the render path shades with (the sun, the fill, lamps and site lights).
    max_lights: usize,
    /// The light level last set (`None`: daylight).
    level: Option<f64>,
    /// One box per moving obstacle (traffic agent), in the simulation's mover order.
    movers: Vec<SceneNode3d>,
    /// The robot's arm and the scene's movable objects, following their colliders.
    bodies: BodyNodes,
}

/// Intensities of the sun and the fill light in daylight.
const DAYLIGHT: [f32; 2] = [2.0, 0.5];
/// Most lights the fast (CPU) path shades with at once: sun, fill and six of the site's own
/// in dimmed daylight; in the dark the sun, three lamps and the four of the site's nearest
/// the robot (each light costs every pixel there, some 1.5 ms of the main view at 1280×720:
/// the dark plant ran at 13.6 fps with 10, 14.0–14.6 with 8 or 7, within the runs' noise).
/// Of these, each view shades only those whose reach it shows (`flat_material::frame_rows`).
const FAST_PATH_LIGHTS: usize = 8;
/// Below this fraction of daylight the robot's lights are on.
pub const LAMPS_ON_BELOW: f64 = 0.5;
/// Shadow-atlas views the sun's shadow takes on the full path: one per cascade (kiss3d's
/// default, 4). Of the atlas's [`MAX_SHADOW_VIEWS`] the work lights take one each (spot
/// lights) and the site's lights the rest (`site_lights::shadow_casters`).
const SUN_SHADOW_VIEWS: usize = 4;

/// Sets a window's or off-screen surface's sky and ambient term for a light level (`None`:
/// daylight, else a fraction of it).
pub fn configure_light(window: &mut Window, level: Option<f64>) {
    let k = level.map_or(1.0, |l| l.clamp(0.0, 1.0) as f32);
    window.set_background_color(Color::new(SKY.r * k, SKY.g * k, SKY.b * k, 1.0));
    window.set_ambient(AMBIENT * k.max(0.02));
}

impl ViewScene {
    /// Builds the scene of `sim` with robot `id`, drawn by `path`'s materials. Needs kiss3d's
    /// GPU context: create the window or off-screen surface first.
    pub fn new(sim: &Simulation, id: RobotId, path: RenderPath) -> Self {
        let mut root = SceneNode3d::empty();
        // Sun high and from beyond the default scenes' stairs (+x, where exercises lead), so
        // treads are lit and risers facing an approaching robot stay in shade: each step
        // edge reads as a light/dark boundary. A weak fill from the other side keeps the
        // shaded faces' colours readable.
        let sun = root.add_light(
            Light::directional(Vec3::new(-0.4, -0.3, -1.0).normalize())
                .with_color(Color::new(1.0, 0.97, 0.9, 1.0))
                .with_intensity(DAYLIGHT[0]),
        );
        let fill = root.add_light(
            Light::directional(Vec3::new(0.5, 0.6, -0.5).normalize())
                .with_color(Color::new(0.75, 0.82, 1.0, 1.0))
                .with_intensity(DAYLIGHT[1])
                .with_casts_shadows(false),
        );
        // Anisotropic filtering keeps the far floor's grid sharp; on a CPU renderer it
        // multiplies the cost of every textured pixel.
        let anisotropy = if software_renderer() { 1 } else { 8 };
        let terrain = add_terrain(&mut root, &sim.scene().terrain, anisotropy);
        let mut robot = RobotView::new(&mut root, sim.robot(id));
        robot.update(&sim.body_state(id), sim.robot(id), 0.0);
        // Work lights beside each camera: a 60° cone reaching 12 m, as on EOD robots.
        let lamps = sim
            .robot(id)
            .spec()
            .cameras
            .iter()
            .map(|c| {
                let pose = Isometry3::from_parts(
                    c.position.coords.into(),
                    UnitQuaternion::from_euler_angles(c.rpy.x, c.rpy.y, c.rpy.z),
                );
                robot.add_lamp(
                    Light::spot(0.35, 0.55, 12.0)
                        .with_color(Color::new(1.0, 0.96, 0.88, 1.0))
                        .with_intensity(3.0)
                        .with_casts_shadows(path == RenderPath::Full),
                    &pose,
                )
            })
            .collect();
        let movers = (0..sim.mover_count())
            .filter_map(|k| {
                let size = sim.mover_size(MoverId(k))?;
                let mut node = root
                    .add_cube(size[0] as f32, size[1] as f32, size[2] as f32)
                    .set_color(TRAFFIC_COLOR);
                if let Some(pose) = sim.mover_pose(MoverId(k)) {
                    node.set_pose(pose3(&pose));
                }
                Some(node)
            })
            .collect();
        let bodies = BodyNodes::new(&mut root, sim, id);
        let site_lights = SiteLights::new(&mut root, &sim.scene().lights);
        // On the CPU path every light costs every pixel: the sun, the fill (not in the dark),
        // the lamps and the site lights nearest the robot (measured: 16 lights in the dark
        // plant doubled the main view's time); a GPU shades kiss3d's full 8.
        let max_lights = match path {
            RenderPath::Fast => FAST_PATH_LIGHTS.min(MAX_FLAT_LIGHTS),
            RenderPath::Full => kiss3d::light::MAX_LIGHTS,
        };
        let mut scene = Self {
            bodies,
            root,
            robot,
            terrain,
            daylight: [sun, fill],
            lamps,
            site_lights,
            fast_path: path == RenderPath::Fast,
            max_lights,
            level: None,
            movers,
        };
        if path == RenderPath::Fast {
            // Every drawn node gets the flat material: the terrain's multiplied by each mesh's
            // texture (its material's look; one pipeline for all), the rest plain. The lights
            // stay where they are; the material reads them.
            let textured = FlatMaterial::new(true).register();
            scene.terrain.group.set_material_recursive(textured);
            let plain = FlatMaterial::new(false).register();
            scene.robot.set_material(plain.clone());
            for node in &mut scene.movers {
                node.set_material(plain.clone());
            }
            scene.bodies.set_material(&plain);
        }
        scene
    }

    /// Sets the light level: `None` daylight, else a fraction of it (the link's
    /// `ambient_light`); the robot's lights come on below [`LAMPS_ON_BELOW`], the site's own
    /// lights whenever the daylight is dimmed (as many as the render path has room for).
    pub fn set_light_level(&mut self, level: Option<f64>) {
        if level == self.level {
            return;
        }
        self.level = level;
        let k = level.map_or(1.0, |l| l.clamp(0.0, 1.0) as f32);
        let on = level.is_some_and(|l| l < LAMPS_ON_BELOW);
        // In the dark on the CPU path the fill light (a sky bounce, at most a quarter of its
        // daylight strength there) gives its place to a site light: each costs every pixel.
        let fill_on = !(on && self.fast_path);
        // On the full path the sun's shadows hold while it is the main light; in the dark
        // its cascades' atlas views go to the work lights and the site's lights instead.
        let sun_shadows = !self.fast_path && !on;
        for (i, (node, full)) in self.daylight.iter_mut().zip(DAYLIGHT).enumerate() {
            node.modify_light(|l| {
                l.intensity = full * k;
                l.enabled = i == 0 || fill_on;
                if i == 0 {
                    l.casts_shadows = sun_shadows;
                }
            });
        }
        for lamp in &mut self.lamps {
            lamp.modify_light(|l| l.enabled = on);
        }
        let daylight = if fill_on { self.daylight.len() } else { 1 };
        let lamps_on = if on { self.lamps.len() } else { 0 };
        let built_in = daylight + lamps_on;
        let shadow_budget = if self.fast_path {
            0
        } else {
            let sun = if sun_shadows { SUN_SHADOW_VIEWS } else { 0 };
            MAX_SHADOW_VIEWS.saturating_sub(sun + lamps_on)
        };
        self.site_lights.set(
            level.is_some_and(|l| l < 1.0),
            self.max_lights.saturating_sub(built_in),
            shadow_budget,
        );
    }

    /// Moves the robot's nodes to the simulation's current state; `dt` is the simulated time
    /// since the last update.
    pub fn update(&mut self, sim: &Simulation, id: RobotId, dt: f64) {
        let body = sim.body_state(id);
        self.site_lights
            .update(&Point3::from(body.pose.translation.vector));
        self.robot.update(&body, sim.robot(id), dt);
        self.bodies.update(sim);
        for (k, node) in self.movers.iter_mut().enumerate() {
            if let Some(pose) = sim.mover_pose(MoverId(k)) {
                node.set_pose(pose3(&pose));
            }
        }
    }
}
