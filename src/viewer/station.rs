//! The operator station: one window, the trainee's camera view with a picture-in-picture of
//! a second camera, the instrument panel, gamepad and keyboard driving, and the instructor's
//! controls (pause, single step, reset, speed, any view).
//!
//! Each frame:
//! 1. **Input.** Window key events (and focus loss) and gamepad events update one
//!    [`RawInput`] snapshot.
//! 2. **Physics.** The [`Pacer`] turns the frame's wall time into whole fixed steps (all of a
//!    slow frame's, up to 1 s, while physics stays cheap: simulated time keeps up with wall
//!    time at any frame rate); before *each* step the input mapper runs once and its command
//!    goes to the robot, so a lost pad or a released key stops the robot on the very next
//!    step, however slow the rendering.
//!    Frames with no step still run the mapper (with `dt = 0`) so one-shot actions — pause,
//!    reset, camera — are never lost while paused.
//! 3. **Actions** (mapper one-shots, station keys, instructor clicks): pause, step, reset to
//!    spawn, camera cycling, trainee mode, speed.
//! 4. **Views.** Robot nodes move to the new state; the main camera and the
//!    picture-in-picture camera are posed; the picture-in-picture renders into an off-screen
//!    surface shown as an egui image (it never leaves the GPU). On a software renderer both
//!    are drawn by the fast [`RenderPath`] (flat shading, no shadows), at half the window's
//!    resolution.
//! 5. **Panel** ([`hud`](super::hud)) and the main render.
//!
//! Station keys (not part of the mapping, since they are the station's, not the robot's):
//! F1 help, F2 cycle the picture-in-picture, F3/F4 halve/double the simulation speed
//! (instructor only). Trainee mode shows onboard cameras only and hides the instructor's
//! controls; `--trainee` locks it.

use std::path::PathBuf;
use std::time::Instant;

use kiss3d::scene::SceneNode3d;
use kiss3d::window::{CanvasSetup, NumSamples, OffscreenSurface, Window};

use super::cameras::{cycle, heading, onboard_pose, views, StationCamera, ViewKind};
use super::conditions_panel;
use super::exercise_hud::{self, ExerciseReadout};
use super::hud::{self, HudData, UiRequests, Warning};
use super::input_source::{or_actions, InputSource};
use super::keys::translate_event;
use super::render_path::RenderPath;
use super::replay::{self, TimelineRequest};
use super::station_setup::{setup, sync_flippers, Setup};
use super::station_views::{place, Station};
use super::video;
use super::view_scene::{configure, configure_light, software_renderer, ViewScene};
use super::{catch_quietly, ViewerError};
use crate::control::autopilot::TrialPilot;
use crate::input::{Actions, ButtonSet, GamepadAdapter, InputEvent, Key, KeySet, RawInput};
use crate::session::{Input, ScriptDriver};
use crate::link::VideoFeed;
use crate::session::pacing::{Pacer, RateMeter};
use crate::vehicle::DriveCommand;

/// Picture-in-picture size, pixels (16:9).
const PIP_SIZE: (u32, u32) = (384, 216);
/// Cruise speed of the autopilot's demonstration, m/s (the course's steady climbing pace).
const DEMO_SPEED: f64 = 0.3;
/// Picture-in-picture size on a software renderer, pixels: shading cost is per pixel there.
const PIP_SIZE_SOFTWARE: (u32, u32) = (320, 180);
/// Time constant of the chase camera's heading filter, s: slow enough that a spinning robot
/// does not whip the view around, fast enough to stay behind it in a turn.
const CHASE_LAG: f64 = 0.35;
/// Frames kept for the frame-time statistics.
const FRAME_HISTORY: usize = 4096;
/// What `treadsim station` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct StationOptions {
    /// Scene file.
    pub scene: PathBuf,
    /// Robot file.
    pub robot: PathBuf,
    /// Spawn name (default: the scene's first).
    pub spawn: Option<String>,
    /// Input mapping file (default: the built-in mapping, `scenes/input/default_mapping.toml`).
    pub mapping: Option<PathBuf>,
    /// Start in trainee mode and lock it.
    pub trainee: bool,
    /// Drive from this script instead of the operator's sticks (demos, screenshots);
    /// station actions still work.
    pub script: Option<PathBuf>,
    /// Window size, pixels.
    pub width: u32,
    /// Window height, pixels.
    pub height: u32,
    /// Close after this much wall time, s (measurements, screenshots).
    pub quit_after: Option<f64>,
    /// Save the window (3D view and panel) to this PNG when closing.
    pub screenshot: Option<PathBuf>,
    /// Start with this view in the main window (default: the robot's first camera).
    pub view: Option<String>,
    /// Picture-in-picture view at start: a view name or `off` (default: `rear`, else the
    /// next view).
    pub pip: Option<String>,
    /// An exercise to run as a scored trial (its scene, robot and spawn replace the ones
    /// above; trainee-mode rules lock trainee mode).
    pub exercise: Option<PathBuf>,
    /// The session's log (MCAP); `None`: `logs/<exercise or scene>-<date>-<time>.mcap`.
    pub log: Option<PathBuf>,
    /// Write no log.
    pub no_log: bool,
    /// Replay this log instead of driving (any view; play, pause, speed, seek).
    pub replay: Option<PathBuf>,
    /// Resolution of the 3D views relative to the window, (0, 1]; `None`: 1 on a GPU,
    /// [`SOFTWARE_RENDER_SCALE`] on a software renderer (Mesa llvmpipe/lavapipe), where
    /// shading cost grows with the pixel count and a full-size view drops under 2 frames/s.
    pub render_scale: Option<f64>,
    /// How the 3D views are drawn; `None`: [`RenderPath::Fast`] on a software renderer,
    /// [`RenderPath::Full`] on a GPU (see [`RenderPath::for_device`]).
    pub render_path: Option<RenderPath>,
}

/// Default render scale on a software renderer.
pub const SOFTWARE_RENDER_SCALE: f64 = 0.5;

/// What a station session did, for the exit summary and measurements.
#[derive(Debug, Clone, PartialEq)]
pub struct StationReport {
    /// Frames rendered.
    pub frames: u64,
    /// Wall time, s.
    pub wall: f64,
    /// Mean frame time, ms (first frames excluded).
    pub mean_frame_ms: f64,
    /// Median frame time, ms (last frames).
    pub median_frame_ms: f64,
    /// 95th percentile frame time, ms (last frames).
    pub p95_frame_ms: f64,
    /// Simulated time reached, s.
    pub sim_time: f64,
    /// Physics steps run.
    pub steps: u64,
    /// The screenshot written, if any.
    pub screenshot: Option<PathBuf>,
    /// Mean wall time per frame of each phase, ms: physics (input mapping and steps), main
    /// view (off-screen render), picture-in-picture, window (panel, composition, present).
    pub phases_ms: [(&'static str, f64); 4],
    /// The 3D views' resolution relative to the window.
    pub render_scale: f64,
    /// Whether kiss3d runs on a software (CPU) renderer.
    pub software_renderer: bool,
    /// How the 3D views were drawn.
    pub render_path: RenderPath,
    /// The log written, if any.
    pub log: Option<PathBuf>,
    /// The trial's result, for an exercise.
    pub result: Option<crate::exercise::TrialResult>,
}

/// Whether a display server is configured (X11 or Wayland).
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Opens the station and runs it until the window closes (or `quit_after`).
///
/// Without a display this returns [`ViewerError::NoDisplay`] before touching any window
/// code; a display that cannot be used gives [`ViewerError::Window`]. Neither panics.
pub fn run_station(o: &StationOptions) -> Result<StationReport, ViewerError> {
    let s = setup(o)?;
    if !display_available() {
        return Err(ViewerError::NoDisplay);
    }
    let title = format!(
        "treadsim — {} — {}",
        s.session.sim().scene().name,
        s.session.sim().robot(s.session.robot()).spec().name
    );
    // The window itself only shows the panel over the camera image (rendered off-screen),
    // so it needs no multisampling.
    let setup = CanvasSetup {
        samples: NumSamples::One,
        ..CanvasSetup::default()
    };
    let window = catch_quietly(|| {
        kiss3d::pollster::block_on(Window::new_with_setup(&title, o.width, o.height, setup))
    })
    .map_err(ViewerError::Window)?;
    catch_quietly(|| kiss3d::pollster::block_on(station_loop(window, s, o)))
        .map_err(ViewerError::WindowLost)?
}

/// Median and 95th percentile of the kept frame times (ms) after `frames` frames.
fn frame_percentiles(history: &[f32], frames: u64) -> (f64, f64) {
    let kept = (frames.saturating_sub(1) as usize).min(FRAME_HISTORY);
    let mut recent: Vec<f32> = history[..kept.min(history.len())].to_vec();
    recent.sort_by(f32::total_cmp);
    let pick = |q: f64| -> f64 {
        if recent.is_empty() {
            0.0
        } else {
            f64::from(recent[((recent.len() - 1) as f64 * q).round() as usize])
        }
    };
    (pick(0.5), pick(0.95))
}

/// Station keys pressed this frame (F1 toggles the help at once).
struct StationKeys {
    /// F3 (slower) or F4 (faster).
    speed_step: Option<bool>,
    /// F2: cycle the picture-in-picture.
    pip_cycle: bool,
}

/// Stage 1 of a frame: the window's key events and the gamepad's events update `raw` (a tap
/// shorter than the frame has its release deferred to the next frame, so the mapper sees it
/// down); station keys act on the press, not on auto-repeat.
fn read_input(
    window: &Window,
    gamepad: &mut GamepadAdapter,
    raw: &mut RawInput,
    events: &mut Vec<InputEvent>,
    deferred: &mut Vec<InputEvent>,
    st: &mut Station,
) -> StationKeys {
    events.clear();
    events.append(deferred);
    let mut speed_step = None;
    let mut pip_cycle = false;
    let mut keys_now = KeySet::EMPTY;
    for event in window.events().iter() {
        if let Some(e) = translate_event(&event.value) {
            if let InputEvent::KeyDown(k) = e {
                if !raw.key_down(k) && !keys_now.contains(k) {
                    match k {
                        Key::F1 => st.help = !st.help,
                        Key::F2 => pip_cycle = true,
                        Key::F3 => speed_step = Some(false),
                        Key::F4 => speed_step = Some(true),
                        _ => {}
                    }
                }
                keys_now.insert(k);
            }
            events.push(e);
        }
    }
    gamepad.poll(events);
    // A key or button pressed and released within one frame (a quick tap on a slow frame)
    // would never be seen down by the mapper, and its one-shot action would be lost: its
    // release waits for the next frame.
    let mut buttons_now = ButtonSet::EMPTY;
    for e in events.iter() {
        match *e {
            InputEvent::ButtonDown(b) => buttons_now.insert(b),
            InputEvent::KeyUp(k) if keys_now.contains(k) => {
                deferred.push(*e);
                continue;
            }
            InputEvent::ButtonUp(b) if buttons_now.contains(b) => {
                deferred.push(*e);
                continue;
            }
            _ => {}
        }
        raw.apply(e);
    }
    StationKeys {
        speed_step,
        pip_cycle,
    }
}

async fn station_loop(
    mut window: Window,
    s: Setup,
    o: &StationOptions,
) -> Result<StationReport, ViewerError> {
    let Setup {
        mut session,
        mut mapper,
        script,
        mut log,
        trainee,
        replay,
    } = s;
    let id = session.robot();
    let mut source = match (replay, script) {
        (Some(cursor), _) => InputSource::Replay(Box::new(cursor)),
        (None, Some(sc)) => InputSource::Script(ScriptDriver::new(sc, false)),
        (None, None) => InputSource::Operator,
    };
    let mut log_error = None;
    configure(&mut window);
    let software = software_renderer();
    let path = RenderPath::or_detect(o.render_path);
    let mut scene = ViewScene::new(session.sim(), id, path);
    let scale = o
        .render_scale
        .unwrap_or(if software { SOFTWARE_RENDER_SCALE } else { 1.0 });
    // The main camera and the picture-in-picture render into off-screen surfaces that share
    // the window's GPU context and scene graph; egui shows them without a read-back. This
    // decouples the 3D resolution from the window's (see `render_scale`).
    let feed_size = |w: &Window| {
        (
            ((f64::from(w.width()) * scale).round() as u32).max(64),
            ((f64::from(w.height()) * scale).round() as u32).max(48),
        )
    };
    let mut feed_dims = feed_size(&window);
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
    let mut feed_texture =
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
        // Shadow maps cost a fixed ~25 ms per view on a CPU; the small second view can do
        // without them even on the full path.
        pip_surface.window_mut().set_shadows_enabled(false);
    }
    let pip_texture =
        window.register_egui_texture(&pip_surface.output_view(), wgpu::FilterMode::Linear);
    // The window renders this empty scene: its own pass only carries the panel.
    let mut empty = SceneNode3d::empty();

    let spec = session.sim().robot(id).spec().clone();
    let all_views = views(&spec);
    let mut st = Station {
        view_names: all_views.iter().map(|v| v.name.clone()).collect(),
        views: all_views,
        main: 0,
        pip: None,
        trainee,
        locked: trainee,
        help: false,
        chase_yaw: heading(&session.sim().body_state(id).pose),
        free_anchor: None,
    };
    st.main = o
        .view
        .as_ref()
        .and_then(|v| st.views.iter().position(|w| &w.name == v))
        .unwrap_or_else(|| st.first_onboard());
    // Default picture-in-picture: the rear camera when driving forward is what a real control
    // unit shows; otherwise the next allowed view.
    st.pip = match o.pip.as_deref() {
        Some("off") => None,
        Some(name) => st.views.iter().position(|v| v.name == name),
        None => st
            .views
            .iter()
            .position(|v| v.name == "rear")
            .filter(|&i| i != st.main)
            .or_else(|| Some(cycle(&st.views, st.main, 1, st.trainee)).filter(|&i| i != st.main)),
    };
    st.enforce_mode();

    let mut main_cam = StationCamera::new();
    let mut pip_cam = StationCamera::new();
    let mut pip_anchor = None;
    let mut gamepad = GamepadAdapter::new();
    let mut raw = RawInput::new();
    let mut events: Vec<InputEvent> = Vec::with_capacity(64);
    let mut deferred: Vec<InputEvent> = Vec::with_capacity(16);
    let mut warnings: Vec<Warning> = Vec::with_capacity(16);
    let mut pacer = Pacer::new(session.sim().config().dt);
    let dt = session.sim().config().dt;
    // The view the session (and its log, and a trainee-mode trial) knows the operator sees.
    session.apply(Input::View(st.views[st.main].name.clone()));
    let mut hud_data = HudData::new(&spec, mapper.update(&raw, 0.0).status);
    let mut frame_rate = RateMeter::default();
    let mut step_rate = RateMeter::default();
    let mut history = vec![0f32; FRAME_HISTORY];
    let (mut frames, mut steps_total, mut sum_ms, mut counted) = (0u64, 0u64, 0.0f64, 0u64);
    let mut requests = UiRequests::default();
    let mut timeline = TimelineRequest::default();
    let mut last_frame = None;
    let mut last_pip_frame = None;
    let mut light_level = None;
    let mut delay_line = video::DelayLine::default();
    let camera_names: Vec<String> = spec.cameras.iter().map(|c| c.name.clone()).collect();
    let mut link_changes = Vec::new();
    let start = Instant::now();
    let mut last = start;
    let mut screenshot = None;
    let mut phase = [0.0f64; 4];
    let mut physics_share = 0.0;

    loop {
        let now = Instant::now();
        let wall = (now - last).as_secs_f64();
        last = now;
        if frames > 0 {
            history[(frames as usize - 1) % FRAME_HISTORY] = (wall * 1e3) as f32;
            // The first frames compile shaders and fill caches: keep them out of the mean.
            if frames > 10 {
                sum_ms += wall * 1e3;
                counted += 1;
            }
        }

        // 1. Input.
        let StationKeys {
            speed_step,
            pip_cycle,
        } = read_input(
            &window,
            &mut gamepad,
            &mut raw,
            &mut events,
            &mut deferred,
            &mut st,
        );

        // 2. Physics: the mapper runs before every step.
        let t_physics = Instant::now();
        let n = pacer.advance_frame(wall, physics_share);
        let mut actions = Actions::default();
        let sim_before = session.sim().time();
        if n == 0 {
            let m = mapper.update(&raw, 0.0);
            or_actions(&mut actions, &m.actions);
            hud_data.set_input(m.status);
        }
        let n = match &source {
            InputSource::Replay(cursor) if cursor.at_end(&session) => {
                pacer.set_paused(true);
                0
            }
            _ => n,
        };
        for _ in 0..n {
            let m = source.before_step(&mut mapper, &raw, &mut session, dt);
            or_actions(&mut actions, &m.actions);
            hud_data.set_input(m.status);
            session.step();
            steps_total += 1;
            if m.actions.toggle_pause || source.replay().is_some_and(|c| c.at_end(&session)) {
                // Stop right where the operator asked (or where the log ends).
                break;
            }
        }

        let physics = t_physics.elapsed().as_secs_f64();
        phase[0] += physics;
        physics_share = if wall > 0.0 { physics / wall } else { 0.0 };

        // 3. Actions.
        let trainee_before = st.trainee;
        let replaying = source.replay().is_some();
        if actions.toggle_pause || requests.toggle_pause || timeline.toggle_play {
            pacer.set_paused(!pacer.is_paused());
            if !replaying {
                session.apply(Input::Pause(pacer.is_paused()));
            }
        }
        if let (InputSource::Replay(cursor), Some(t)) = (&mut source, timeline.seek) {
            cursor.seek(&mut session, t)?;
            st.chase_yaw = heading(&session.sim().body_state(id).pose);
        }
        if replaying {
            // Watching: the logged inputs drive; the instructor's own only steer the replay.
            if actions.reset || requests.reset {
                if let InputSource::Replay(cursor) = &mut source {
                    cursor.seek(&mut session, 0.0)?;
                }
            }
        } else if (actions.single_step || requests.single_step) && pacer.is_paused() {
            // One step of a paused session: resume, step, pause again (so the log replays it).
            session.apply(Input::Pause(false));
            source.before_step(&mut mapper, &raw, &mut session, dt);
            session.step();
            session.apply(Input::Pause(true));
            steps_total += 1;
        }
        if !replaying && (actions.reset || requests.reset) {
            // In a trial a reset is a fault: the trial puts the robot back at the start.
            session.apply(Input::Reset);
            mapper.reset();
            sync_flippers(&mut mapper, &spec);
            let initial = mapper.flipper_target();
            session.apply(Input::Drive(DriveCommand {
                flipper: initial,
                ..DriveCommand::STOP
            }));
            if let InputSource::Script(d) = &mut source {
                d.resend();
            }
            st.chase_yaw = heading(&session.sim().body_state(id).pose);
        }
        if requests.autopilot && !replaying {
            source = if source.is_autopilot() {
                // Back to the operator: the robot stops until the sticks say otherwise.
                session.apply(Input::Drive(DriveCommand {
                    flipper: mapper.flipper_target(),
                    ..DriveCommand::STOP
                }));
                InputSource::Operator
            } else {
                InputSource::Autopilot(Box::new(TrialPilot::new(&spec, DEMO_SPEED)))
            };
        }
        if actions.next_camera || actions.prev_camera {
            let step = if actions.next_camera { 1 } else { -1 };
            st.main = cycle(&st.views, st.main, step, st.trainee);
            if st.pip == Some(st.main) {
                st.cycle_pip();
            }
        }
        if let Some(v) = requests.main_view {
            st.main = v.min(st.views.len().saturating_sub(1));
        }
        if let Some(p) = requests.pip_view {
            st.pip = p;
        }
        if pip_cycle {
            st.cycle_pip();
        }
        if (actions.toggle_trainee_view || requests.trainee) && !st.locked {
            st.trainee = !st.trainee;
        }
        if st.trainee != trainee_before {
            st.enforce_mode();
        }
        if !st.trainee {
            let speed_before = pacer.speed();
            match speed_step {
                Some(up) => {
                    pacer.step_speed(up);
                }
                None if requests.faster => {
                    pacer.step_speed(true);
                }
                None if requests.slower => {
                    pacer.step_speed(false);
                }
                None => {}
            }
            if pacer.speed() != speed_before && !replaying {
                session.apply(Input::Speed(pacer.speed()));
            }
        }
        if !replaying && st.views[st.main].name != session.view() {
            session.apply(Input::View(st.views[st.main].name.clone()));
        }
        if let Some(writer) = &mut log {
            if let Err(e) = writer.record(&mut session) {
                // The drive goes on; the log stops here (it stays readable to this point).
                eprintln!("warning: the session log stopped: {e}");
                log_error = Some(e);
                log = None;
            }
        }

        // 4. Views.
        let sim = session.sim();
        let sim_dt = sim.time() - sim_before;
        scene.update(sim, id, sim_dt);
        let body = sim.body_state(id).pose;
        let target = heading(&body);
        let k = 1.0 - (-wall / CHASE_LAG).exp();
        let diff = (target - st.chase_yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        st.chase_yaw += diff * k;
        place(
            &mut main_cam,
            st.views[st.main].kind,
            sim,
            id,
            st.chase_yaw,
            &mut st.free_anchor,
        );
        let mut want = feed_size(&window);
        // The link's resolution cap: an onboard picture no taller than it (shown stretched).
        if let (ViewKind::Onboard(_), Some(cap)) =
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
        if want != feed_dims {
            feed.resize(want.0, want.1);
            window.unregister_egui_texture(feed_texture);
            feed_texture =
                window.register_egui_texture(&feed.output_view(), wgpu::FilterMode::Linear);
            feed_dims = want;
        }
        // An onboard camera shows what the link delivers: a new render only for a new frame.
        let main_feed = video::view_feed(&st.views[st.main], session.link(), sim.time());
        // Darkness: the scene's light level and the robot's lights follow the link's
        // `ambient_light` (set per exercise).
        let level = session.link().ambient_light;
        if level != light_level {
            light_level = level;
            scene.set_light_level(level);
            configure_light(feed.window_mut(), level);
            configure_light(pip_surface.window_mut(), level);
        }
        let latency = session.link().video_latency;
        if latency > 0.0 {
            delay_line.push(sim.time(), sim.body_state(id), sim.robot(id), latency);
        } else if !delay_line.is_empty() {
            delay_line.clear();
        }
        let t_feed = Instant::now();
        if video::needs_render(&main_feed, (st.main, feed_dims), &mut last_frame) {
            // A late frame shows the robot (and so its camera) where it was at capture.
            let late = match (st.views[st.main].kind, &main_feed) {
                (ViewKind::Onboard(c), VideoFeed::Frame { capture, .. }) if latency > 0.0 => {
                    delay_line.at(*capture).zip(spec.cameras.get(c))
                }
                _ => None,
            };
            if let Some(((body, robot), camera)) = late {
                scene.robot.update(body, robot, 0.0);
                main_cam.set_pose(&onboard_pose(&body.pose, camera), camera.fov);
            }
            feed.render_3d(&mut scene.root, &mut main_cam).await;
            if late.is_some() {
                scene.update(sim, id, 0.0);
            }
        }
        phase[1] += t_feed.elapsed().as_secs_f64();
        let pip_feed = st.pip.map_or(video::LIVE, |p| {
            video::view_feed(&st.views[p], session.link(), sim.time())
        });
        if let Some(p) = st.pip {
            place(
                &mut pip_cam,
                st.views[p].kind,
                sim,
                id,
                st.chase_yaw,
                &mut pip_anchor,
            );
            let t_pip = Instant::now();
            if video::needs_render(&pip_feed, (p, pip_size), &mut last_pip_frame) {
                pip_surface.render_3d(&mut scene.root, &mut pip_cam).await;
            }
            phase[2] += t_pip.elapsed().as_secs_f64();
        }

        // 5. Panel and main render.
        let t_window = Instant::now();
        frame_rate.add(1.0, wall);
        step_rate.add((sim_dt / dt).round(), wall);
        hud_data.update(sim, id, sim_dt);
        let readout = session.trial().map(|t| ExerciseReadout::of(t, sim, id));
        hud_data.paused = pacer.is_paused();
        hud_data.speed = pacer.speed();
        hud_data.fps = frame_rate.rate();
        hud_data.frame_ms = if hud_data.fps > 0.0 {
            1e3 / hud_data.fps
        } else {
            0.0
        };
        hud_data.physics_hz = step_rate.rate();
        hud_data.dt = dt;
        let frame = hud::Frame {
            feed: Some(feed_texture),
            view: &st.views[st.main].name,
            pip: st.pip.map(|p| hud::Pip {
                texture: pip_texture,
                // Shown at the full-size panel's size whatever it renders at.
                size: [PIP_SIZE.0 as f32, PIP_SIZE.1 as f32],
                name: &st.views[p].name,
                feed: pip_feed,
                frame: frames,
            }),
            trainee: st.trainee,
            locked: st.locked,
            views: &st.view_names,
            main_index: st.main,
            pip_index: st.pip,
            help: st.help,
            exercise: readout.is_some(),
            autopilot: source.is_autopilot(),
        };
        let mut req = UiRequests::default();
        let mut next_timeline = TimelineRequest::default();
        window.draw_ui(|ctx| {
            req = hud::draw(ctx, &hud_data, &frame, &mut warnings);
            video::paint(
                &ctx.layer_painter(kiss3d::egui::LayerId::background()),
                ctx.viewport_rect(),
                &main_feed,
                frames,
            );
            if let Some(r) = &readout {
                exercise_hud::draw(ctx, r);
            }
            if !frame.trainee && !replaying {
                conditions_panel::draw(
                    ctx,
                    &camera_names,
                    session.link(),
                    session.sim().time(),
                    &mut link_changes,
                );
            }
            if let Some(cursor) = source.replay() {
                next_timeline = replay::draw_timeline(
                    ctx,
                    cursor,
                    session.sim().time(),
                    !pacer.is_paused(),
                    pacer.speed(),
                );
            }
        });
        timeline = next_timeline;
        for change in link_changes.drain(..) {
            session.apply(Input::Link(change));
        }
        requests = req;
        // Trainee mode forbids third-person views, whoever asked.
        if st.trainee {
            if let Some(v) = requests.main_view {
                if st.views[v].kind.is_third_person() {
                    requests.main_view = None;
                }
            }
        }
        // The main camera goes along so it receives the window's events (free view: mouse).
        let open = window.render_3d(&mut empty, &mut main_cam).await;
        phase[3] += t_window.elapsed().as_secs_f64();
        frames += 1;
        let done = o
            .quit_after
            .is_some_and(|q| start.elapsed().as_secs_f64() >= q);
        if done {
            if let Some(path) = &o.screenshot {
                super::shot::save_png(&window.snap_image(), path)?;
                screenshot = Some(path.clone());
            }
        }
        if !open || done {
            break;
        }
    }

    let log_path = match log {
        Some(writer) => {
            let path = writer.path().to_path_buf();
            writer.finish(&mut session)?;
            Some(path)
        }
        None => None,
    };
    if let Some(e) = log_error {
        eprintln!("the session log is incomplete: {e}");
    }
    let (median_frame_ms, p95_frame_ms) = frame_percentiles(&history, frames);
    Ok(StationReport {
        frames,
        wall: start.elapsed().as_secs_f64(),
        mean_frame_ms: if counted > 0 {
            sum_ms / counted as f64
        } else {
            0.0
        },
        median_frame_ms,
        p95_frame_ms,
        sim_time: session.sim().time(),
        steps: steps_total,
        screenshot,
        phases_ms: {
            let per = |x: f64| 1e3 * x / frames.max(1) as f64;
            [
                ("physics", per(phase[0])),
                ("main view", per(phase[1])),
                ("picture-in-picture", per(phase[2])),
                ("window", per(phase[3])),
            ]
        },
        render_scale: scale,
        software_renderer: software,
        render_path: path,
        log: log_path,
        result: session.trial().map(crate::exercise::Trial::result),
    })
}
