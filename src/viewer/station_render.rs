//! Stage 4 of a station frame, the views: the robot's nodes move to the new state, the main
//! camera and the picture-in-picture camera are posed, and each renders off-screen into a
//! surface the panel shows without a read-back — only when the link delivers a new frame, at
//! the link's resolution cap, late by its video latency, in its light level.

use kiss3d::egui::TextureId;
use kiss3d::scene::SceneNode3d;
use kiss3d::window::{CanvasSetup, NumSamples, OffscreenSurface, Window};
use nalgebra::Point3;

use super::cameras::{heading, onboard_pose, StationCamera, ViewKind};
use super::frame_stats::{FrameStats, Phase};
use super::render_path::RenderPath;
use super::station_setup::{StationOptions, SOFTWARE_RENDER_SCALE};
use super::station_state::StationState;
use super::station_views::{place, Station};
use super::video::{self, DelayLine};
use super::view_scene::{configure, configure_light, software_renderer, ViewScene};
use crate::link::VideoFeed;
use crate::session::Session;

/// Picture-in-picture size, pixels (16:9).
pub(super) const PIP_SIZE: (u32, u32) = (384, 216);
/// Picture-in-picture size on a software renderer, pixels: shading cost is per pixel there.
const PIP_SIZE_SOFTWARE: (u32, u32) = (320, 180);
/// Time constant of the chase camera's heading filter, s: slow enough that a spinning robot
/// does not whip the view around, fast enough to stay behind it in a turn.
const CHASE_LAG: f64 = 0.35;

/// Key of the last frame rendered into a surface: capture time, view, size.
type RenderedFrame = Option<(f64, usize, (u32, u32))>;

/// What the link delivers of the two views this frame.
#[derive(Debug, Clone, Copy)]
pub(super) struct Feeds {
    /// The main view's.
    pub(super) main: VideoFeed,
    /// The picture-in-picture's ([`video::LIVE`] when it is off).
    pub(super) pip: VideoFeed,
}

/// The station's 3D scene, cameras and off-screen surfaces.
pub(super) struct StationRender {
    /// The scene graph: terrain, robot, traffic, lights.
    pub(super) scene: ViewScene,
    /// How the 3D views are drawn.
    pub(super) path: RenderPath,
    /// Whether kiss3d runs on a software (CPU) renderer.
    pub(super) software: bool,
    /// The 3D views' resolution relative to the window.
    pub(super) scale: f64,
    feed: OffscreenSurface,
    /// The main view's surface, as an egui texture.
    pub(super) feed_texture: TextureId,
    feed_dims: (u32, u32),
    pip_surface: OffscreenSurface,
    /// The picture-in-picture's surface, as an egui texture.
    pub(super) pip_texture: TextureId,
    pip_size: (u32, u32),
    main_cam: StationCamera,
    pip_cam: StationCamera,
    pip_anchor: Option<Point3<f64>>,
    last_frame: RenderedFrame,
    last_pip_frame: RenderedFrame,
    light_level: Option<f64>,
    delay_line: DelayLine,
    /// The window renders this empty scene: its own pass only carries the panel.
    empty: SceneNode3d,
}

impl StationRender {
    /// The scene of `session`'s robot and the surfaces for `window`, drawn as `o` asks (render
    /// path and scale, or what the device suits).
    pub(super) async fn new(window: &mut Window, session: &Session, o: &StationOptions) -> Self {
        configure(window);
        // The window shows the panel over the views' pictures and draws no 3D scene of its
        // own: no HDR film, no full-size tonemap pass (22 of its 37 ms a frame at 1280×720
        // on a 2-core software renderer; the patch in vendor/kiss3d).
        window.set_film_enabled(false);
        let software = software_renderer();
        let path = RenderPath::or_detect(o.render_path);
        let scene = ViewScene::new(session.sim(), session.robot(), path);
        let scale = o
            .render_scale
            .unwrap_or(if software { SOFTWARE_RENDER_SCALE } else { 1.0 });
        // The main camera and the picture-in-picture render into off-screen surfaces that
        // share the window's GPU context and scene graph; egui shows them without a
        // read-back. This decouples the 3D resolution from the window's (`render_scale`).
        let feed_dims = feed_size(window, scale);
        let mut feed = OffscreenSurface::with_setup(
            feed_dims.0,
            feed_dims.1,
            CanvasSetup {
                // Antialiasing is cheap on a GPU and ruinous on a CPU.
                samples: if software {
                    NumSamples::One
                } else {
                    NumSamples::Four
                },
                ..CanvasSetup::default()
            },
        )
        .await;
        configure(feed.window_mut());
        path.configure(feed.window_mut());
        let feed_texture =
            window.register_egui_texture(&feed.output_view(), wgpu::FilterMode::Linear);
        let pip_size = if software {
            PIP_SIZE_SOFTWARE
        } else {
            PIP_SIZE
        };
        let mut pip_surface = OffscreenSurface::new(pip_size.0, pip_size.1).await;
        configure(pip_surface.window_mut());
        path.configure(pip_surface.window_mut());
        if software {
            // Shadow maps cost a fixed ~25 ms per view on a CPU; the small second view can
            // do without them even on the full path.
            pip_surface.window_mut().set_shadows_enabled(false);
        }
        let pip_texture =
            window.register_egui_texture(&pip_surface.output_view(), wgpu::FilterMode::Linear);
        Self {
            scene,
            path,
            software,
            scale,
            feed,
            feed_texture,
            feed_dims,
            pip_surface,
            pip_texture,
            pip_size,
            main_cam: StationCamera::new(),
            pip_cam: StationCamera::new(),
            pip_anchor: None,
            last_frame: None,
            last_pip_frame: None,
            light_level: None,
            delay_line: DelayLine::default(),
            empty: SceneNode3d::empty(),
        }
    }

    /// Shows `session` from now on (a class's instructor assigned another exercise): its scene
    /// and robot, in the light the surfaces are set to; the cameras, the delayed frames and the
    /// last rendered frames of the one before are forgotten. The surfaces stay.
    pub(super) fn show(&mut self, session: &Session) {
        self.scene = ViewScene::new(session.sim(), session.robot(), self.path);
        self.scene.set_light_level(self.light_level);
        self.main_cam = StationCamera::new();
        self.pip_cam = StationCamera::new();
        self.pip_anchor = None;
        self.last_frame = None;
        self.last_pip_frame = None;
        self.delay_line = DelayLine::default();
    }

    /// Stage 4: moves the scene to the session's state (`sim_dt` s simulated this frame of
    /// `wall` s), poses both cameras and renders what the link delivers; returns the feeds.
    pub(super) async fn draw_views(
        &mut self,
        window: &mut Window,
        state: &mut StationState,
        session: &Session,
        sim_dt: f64,
        wall: f64,
        stats: &mut FrameStats,
    ) -> Feeds {
        let sim = session.sim();
        let id = session.robot();
        self.scene.update(sim, id, sim_dt);
        follow_with_chase(&mut state.views, heading(&sim.body_state(id).pose), wall);
        let st = &mut state.views;
        place(
            &mut self.main_cam,
            st.views[st.main].kind,
            sim,
            id,
            st.chase_yaw,
            &mut st.free_anchor,
        );
        self.resize_feed(window, st, session);
        self.follow_light(session);
        let latency = session.link().video_latency;
        if latency > 0.0 {
            self.delay_line
                .push(sim.time(), sim.body_state(id), sim.robot(id), latency);
        } else if !self.delay_line.is_empty() {
            self.delay_line.clear();
        }
        // An onboard camera shows what the link delivers: a new render only for a new frame.
        let main = video::view_feed(&st.views[st.main], session.link(), sim.time());
        let started = std::time::Instant::now();
        self.render_main(st, session, &main, latency).await;
        stats.add_phase(Phase::MainView, started.elapsed().as_secs_f64());
        let pip = st.pip.map_or(video::LIVE, |p| {
            video::view_feed(&st.views[p], session.link(), sim.time())
        });
        if let Some(p) = st.pip {
            place(
                &mut self.pip_cam,
                st.views[p].kind,
                sim,
                id,
                st.chase_yaw,
                &mut self.pip_anchor,
            );
            let started = std::time::Instant::now();
            if video::needs_render(&pip, (p, self.pip_size), &mut self.last_pip_frame) {
                self.pip_surface
                    .render_3d(&mut self.scene.root, &mut self.pip_cam)
                    .await;
            }
            stats.add_phase(Phase::PictureInPicture, started.elapsed().as_secs_f64());
        }
        Feeds { main, pip }
    }

    /// The main view's surface at the window's size times the scale, no taller than the
    /// link's resolution cap for an onboard picture (shown stretched).
    fn resize_feed(&mut self, window: &mut Window, st: &Station, session: &Session) {
        let mut want = feed_size(window, self.scale);
        if let (ViewKind::Onboard(_) | ViewKind::Gripper, Some(cap)) =
            (st.views[st.main].kind, session.link().video_height)
        {
            if want.1 > cap.max(48) {
                let k = f64::from(cap.max(48)) / f64::from(want.1);
                want = (
                    ((f64::from(want.0) * k).round() as u32).max(64),
                    cap.max(48),
                );
            }
        }
        if want != self.feed_dims {
            self.feed.resize(want.0, want.1);
            window.unregister_egui_texture(self.feed_texture);
            self.feed_texture =
                window.register_egui_texture(&self.feed.output_view(), wgpu::FilterMode::Linear);
            self.feed_dims = want;
        }
    }

    /// Darkness: the scene's light level and the robot's lights follow the link's
    /// `ambient_light` (set per exercise).
    fn follow_light(&mut self, session: &Session) {
        let level = session.link().ambient_light;
        if level != self.light_level {
            self.light_level = level;
            self.scene.set_light_level(level);
            configure_light(self.feed.window_mut(), level);
            configure_light(self.pip_surface.window_mut(), level);
        }
    }

    /// Renders the main view if the link delivers a new frame; a late frame shows the robot
    /// (and so its camera) where it was at capture.
    async fn render_main(
        &mut self,
        st: &Station,
        session: &Session,
        feed: &VideoFeed,
        latency: f64,
    ) {
        if !video::needs_render(feed, (st.main, self.feed_dims), &mut self.last_frame) {
            return;
        }
        let spec = session.sim().robot(session.robot()).spec();
        let late = match (st.views[st.main].kind, feed) {
            (ViewKind::Onboard(c), VideoFeed::Frame { capture, .. }) if latency > 0.0 => {
                self.delay_line.at(*capture).zip(spec.cameras.get(c))
            }
            _ => None,
        };
        if let Some(((body, robot), camera)) = late {
            self.scene.robot.update(body, robot, 0.0);
            self.main_cam
                .set_pose(&onboard_pose(&body.pose, camera), camera.fov);
        }
        self.feed
            .render_3d(&mut self.scene.root, &mut self.main_cam)
            .await;
        if late.is_some() {
            self.scene.update(session.sim(), session.robot(), 0.0);
        }
    }

    /// The window's own pass (the panel over the feeds); the main camera goes along so it
    /// receives the window's events (free view: mouse). Returns whether the window is open.
    pub(super) async fn present(&mut self, window: &mut Window) -> bool {
        window.render_3d(&mut self.empty, &mut self.main_cam).await
    }
}

/// The main surface's size for `window` at `scale`, pixels (at least 64 × 48).
fn feed_size(window: &Window, scale: f64) -> (u32, u32) {
    (
        ((f64::from(window.width()) * scale).round() as u32).max(64),
        ((f64::from(window.height()) * scale).round() as u32).max(48),
    )
}

/// The chase camera's heading follows the robot's `target` heading (rad) with [`CHASE_LAG`]
/// over a frame of `wall` s, the short way round.
fn follow_with_chase(st: &mut Station, target: f64, wall: f64) {
    let k = 1.0 - (-wall / CHASE_LAG).exp();
    let diff = (target - st.chase_yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
        - std::f64::consts::PI;
    st.chase_yaw += diff * k;
}
