//! The operator station: one window, the trainee's camera view with a picture-in-picture of
//! a second camera, the instrument panel, gamepad and keyboard driving, and the instructor's
//! controls (pause, single step, reset, speed, any view).
//!
//! The frame loop ([`run_station`]) reads as its stages, each a call:
//! 1. **Input** (`OperatorInput::read`). Window key events (and focus loss) and gamepad events
//!    update one [`RawInput`] snapshot.
//! 2. **Physics** (`StationState::run_physics`). The pacer turns the frame's wall time into
//!    whole fixed steps (all of a slow frame's, up to 1 s, while physics stays cheap: simulated
//!    time keeps up with wall time at any frame rate); before *each* step the input mapper runs
//!    once and its command goes to the robot, so a lost pad or a released key stops the robot
//!    on the very next step, however slow the rendering. Frames with no step still run the
//!    mapper (with `dt = 0`) so one-shot actions — pause, reset, camera — are never lost while
//!    paused.
//! 3. **Actions** (`StationState::apply`, then `carry_out`): mapper one-shots, station keys
//!    and the instructor's clicks become effects on the session in order — pause, step, reset
//!    to spawn, the autopilot, camera cycling, trainee mode, speed — under the instructor's
//!    rules (unit-tested in `station_state`). Then the log records the frame.
//! 4. **Views** (`StationRender::draw_views`). Robot nodes move to the new state; the main
//!    camera and the picture-in-picture camera are posed and render into off-screen surfaces
//!    shown as egui images (they never leave the GPU). On a software renderer both are drawn
//!    by the fast [`RenderPath`] (flat shading, no shadows), at half the window's resolution.
//! 5. **Panel** ([`hud`](super::hud), the exercise overlay, the link panel, the replay
//!    timeline) and the window's own pass. Frame statistics are kept by `FrameStats`.
//!
//! Station keys (not part of the mapping, since they are the station's, not the robot's):
//! F1 help, F2 cycle the picture-in-picture, F3/F4 halve/double the simulation speed
//! (instructor only). Trainee mode shows onboard cameras only and hides the instructor's
//! controls; `--trainee` locks it.

use std::path::PathBuf;
use std::time::Instant;

use kiss3d::window::{CanvasSetup, NumSamples, Window};

use super::exercise_hud::{self, ExerciseReadout};
use super::frame_stats::{FrameStats, Phase};
use super::hud::{self, HudData, UiRequests, Warning};
use super::input_source::InputSource;
use super::keys::translate_event;
use super::render_path::RenderPath;
use super::replay::{self, TimelineRequest};
use super::station_render::{Feeds, StationRender, PIP_SIZE};
use super::station_seat::Driven;
#[cfg(feature = "classroom")]
use super::station_seat::{ClassJoin, ClassSeat};
use super::station_setup::{setup, Setup};
pub use super::station_setup::{StationOptions, SOFTWARE_RENDER_SCALE};
use super::station_state::{FrameActions, StationKeys, StationState};
use super::station_views::Station;
use super::{catch_quietly, conditions_panel, video, ViewerError};
use crate::config::SourceFile;
use crate::input::{ButtonSet, GamepadAdapter, InputEvent, Key, KeySet, RawInput};
use crate::link::LinkChange;
use crate::record::{LogError, LogWriter};
use crate::session::{script_driver, Input, Session};

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
    /// The trial's result, for an exercise (a class seat: the last assignment's).
    pub result: Option<crate::exercise::TrialResult>,
    /// What a class seat counted (commands, results delivered), if the station was one.
    #[cfg(feature = "classroom")]
    pub class: Option<crate::classroom::seat_node::SeatCounters>,
}

/// Whether a display server is configured (X11 or Wayland).
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Another program beside the station (a ROS 2 node, a Foxglove server): it may operate the
/// robot instead of the sticks, and sees the session after every frame (to publish its state).
pub trait Peer {
    /// The operator of a session of `robot`, if the program operates it (else the sticks do).
    fn operator(
        &mut self,
        robot: &crate::vehicle::RobotSpec,
    ) -> Option<Box<dyn crate::session::Driver>>;
    /// After each frame's physics and actions.
    fn after_frame(&mut self, session: &Session);
}

/// Opens the station and runs it until the window closes (or `quit_after`).
///
/// Without a display this returns [`ViewerError::NoDisplay`] before touching any window
/// code; a display that cannot be used gives [`ViewerError::Window`]. Neither panics.
pub fn run_station(o: &StationOptions) -> Result<StationReport, ViewerError> {
    open_station(o, |session, _| Ok(Driven::Alone(Box::new(session))), None)
}

/// [`run_station`] with `peer` operating the robot (not for a replay) and seeing every frame.
pub fn run_station_with(
    o: &StationOptions,
    peer: &mut dyn Peer,
) -> Result<StationReport, ViewerError> {
    if o.replay.is_some() {
        return Err(ViewerError::Argument(
            "a replay is watched, not driven: no external operator".into(),
        ));
    }
    open_station(
        o,
        |session, _| Ok(Driven::Alone(Box::new(session))),
        Some(peer),
    )
}

/// Opens the station as a seat of a class (`treadsim station --class`) and runs it until the
/// window closes: the trainee's station, locked, driving what the class's instructor assigns
/// (`o`'s scene and robot are the lobby shown until then, driven unlogged). On closing, the
/// results not yet acknowledged are delivered for a few seconds (and stay in the seat's
/// outbox for its next start).
#[cfg(feature = "classroom")]
pub fn run_class_station(
    o: &StationOptions,
    class: &ClassJoin,
) -> Result<StationReport, ViewerError> {
    let lobby = StationOptions {
        trainee: true,
        no_log: true,
        log: None,
        exercise: None,
        exercise_robot: None,
        replay: None,
        ..o.clone()
    };
    open_station(
        &lobby,
        |session, script| {
            ClassSeat::join(class, session, script).map(|seat| Driven::Class(Box::new(seat)))
        },
        None,
    )
}

/// Loads what `o` asks for, makes the session to drive of it (`drive`: the station's own, or a
/// class seat's lobby, given the drive script), opens the window and runs the frame loop.
fn open_station(
    o: &StationOptions,
    drive: impl FnOnce(Session, Option<SourceFile>) -> Result<Driven, ViewerError>,
    mut peer: Option<&mut dyn Peer>,
) -> Result<StationReport, ViewerError> {
    let s = setup(o)?;
    if !display_available() {
        return Err(ViewerError::NoDisplay);
    }
    let script = s.script.clone();
    let (session, mut state, log) = start_state(s, o)?;
    if let Some(operator) = peer
        .as_mut()
        .and_then(|p| p.operator(session.sim().robot(session.robot()).spec()))
    {
        state.source = InputSource::External(operator);
    }
    let driven = drive(session, script)?;
    state.remote_pause = !matches!(driven, Driven::Alone(_));
    let title = match driven.banner() {
        Some(_) => format!(
            "treadsim — class seat — {}",
            driven.session().sim().scene().name
        ),
        None => format!(
            "treadsim — {} — {}",
            driven.session().sim().scene().name,
            driven
                .session()
                .sim()
                .robot(driven.session().robot())
                .spec()
                .name
        ),
    };
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
    let opened = Opened {
        driven,
        state,
        log,
        peer,
    };
    catch_quietly(|| kiss3d::pollster::block_on(station_loop(window, opened, o)))
        .map_err(ViewerError::WindowLost)?
}

/// What the frame loop starts from: the session to drive, the station's state, the log, and
/// a program beside it.
struct Opened<'p> {
    driven: Driven,
    state: StationState,
    log: SessionLog,
    peer: Option<&'p mut dyn Peer>,
}

/// The operator's devices: the gamepad, the raw input snapshot the mapper reads, and the
/// frame's events (with the releases deferred to the next frame).
struct OperatorInput {
    gamepad: GamepadAdapter,
    raw: RawInput,
    events: Vec<InputEvent>,
    deferred: Vec<InputEvent>,
}

impl OperatorInput {
    fn new() -> Self {
        Self {
            gamepad: GamepadAdapter::new(),
            raw: RawInput::new(),
            events: Vec::with_capacity(64),
            deferred: Vec::with_capacity(16),
        }
    }

    /// Stage 1 of a frame: the window's key events and the gamepad's events update `raw` (a tap
    /// shorter than the frame has its release deferred to the next frame, so the mapper sees it
    /// down); station keys act on the press, not on auto-repeat.
    fn read(&mut self, window: &Window, st: &mut Station) -> StationKeys {
        let Self {
            gamepad,
            raw,
            events,
            deferred,
        } = self;
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
}

/// The session's log: recording goes on until it fails once; the drive goes on regardless and
/// the log stays readable to that point.
struct SessionLog {
    writer: Option<LogWriter>,
    error: Option<LogError>,
}

impl SessionLog {
    /// Records the session's journal since the last call.
    fn record(&mut self, session: &mut Session) {
        if let Some(writer) = &mut self.writer {
            if let Err(e) = writer.record(session) {
                eprintln!("warning: the session log stopped: {e}");
                self.error = Some(e);
                self.writer = None;
            }
        }
    }

    /// Closes the log; returns its path, if one was written to the end.
    fn finish(self, session: &mut Session) -> Result<Option<PathBuf>, ViewerError> {
        let path = match self.writer {
            Some(writer) => {
                let path = writer.path().to_path_buf();
                writer.finish(session)?;
                Some(path)
            }
            None => None,
        };
        if let Some(e) = self.error {
            eprintln!("the session log is incomplete: {e}");
        }
        Ok(path)
    }
}

/// Stage 5's state: the instrument panel's readouts, and what the instructor clicked on it
/// (acted on next frame).
struct StationPanel {
    hud: HudData,
    warnings: Vec<Warning>,
    camera_names: Vec<String>,
    link_changes: Vec<LinkChange>,
    clicks: UiRequests,
    timeline: TimelineRequest,
}

/// What the panel shows of one frame besides the session and the station's state.
struct PanelFrame<'a> {
    render: &'a StationRender,
    feeds: Feeds,
    /// Simulated and wall time of the frame, s.
    sim_dt: f64,
    wall: f64,
    /// What a class seat says about the class (its name, what it waits for).
    banner: Option<&'a str>,
}

impl StationPanel {
    /// The panel of `session`'s robot, its input readout from the mapper at rest on `raw`.
    fn new(session: &Session, state: &mut StationState, raw: &RawInput) -> Self {
        let spec = session.sim().robot(session.robot()).spec();
        let mut hud = HudData::new(spec, state.mapper.update(raw, 0.0).status);
        hud.speed_limit = session.trial().and_then(|t| t.spec().rules.speed_limit);
        Self {
            hud,
            warnings: Vec::with_capacity(16),
            camera_names: spec.cameras.iter().map(|c| c.name.clone()).collect(),
            link_changes: Vec::new(),
            clicks: UiRequests::default(),
            timeline: TimelineRequest::default(),
        }
    }

    /// Stage 5: the readouts updated, the panel, the exercise overlay, the link panel and the
    /// replay's timeline drawn over the main feed; the instructor's link changes go to the
    /// session now, the other clicks to the next frame's actions.
    fn draw(
        &mut self,
        window: &mut Window,
        state: &StationState,
        session: &mut Session,
        shown: PanelFrame<'_>,
        stats: &mut FrameStats,
    ) {
        let dt = session.sim().config().dt;
        stats.count_rates((shown.sim_dt / dt).round(), shown.wall);
        let (sim, id) = (session.sim(), session.robot());
        self.hud.update(sim, id, shown.sim_dt);
        let readout = session.trial().map(|t| ExerciseReadout::of(t, sim, id));
        // A class seat's banner says why its clock stands (ready, paused, finished).
        self.hud.paused = state.pacer.is_paused() && shown.banner.is_none();
        self.hud.speed = state.pacer.speed();
        self.hud.fps = stats.frame_rate();
        self.hud.frame_ms = if self.hud.fps > 0.0 {
            1e3 / self.hud.fps
        } else {
            0.0
        };
        self.hud.physics_hz = stats.step_rate();
        self.hud.dt = dt;
        let st = &state.views;
        let frames = stats.frames();
        let frame = hud::Frame {
            feed: Some(shown.render.feed_texture),
            view: &st.views[st.main].name,
            pip: st.pip.map(|p| hud::Pip {
                texture: shown.render.pip_texture,
                // Shown at the full-size panel's size whatever it renders at.
                size: [PIP_SIZE.0 as f32, PIP_SIZE.1 as f32],
                name: &st.views[p].name,
                feed: shown.feeds.pip,
                frame: frames,
            }),
            trainee: st.trainee,
            locked: st.locked,
            views: &st.view_names,
            main_index: st.main,
            pip_index: st.pip,
            help: st.help,
            exercise: readout.is_some(),
            autopilot: state.source.is_autopilot(),
            autopilot_gave_up: state.source.autopilot_gave_up(),
        };
        let replaying = state.source.replay().is_some();
        let mut clicks = UiRequests::default();
        let mut timeline = TimelineRequest::default();
        window.draw_ui(|ctx| {
            clicks = hud::draw(ctx, &self.hud, &frame, &mut self.warnings);
            video::paint(
                &ctx.layer_painter(kiss3d::egui::LayerId::background()),
                ctx.viewport_rect(),
                &shown.feeds.main,
                frames,
            );
            if let Some(r) = &readout {
                exercise_hud::draw(ctx, r);
            }
            if let Some(text) = shown.banner {
                exercise_hud::draw_banner(ctx, text);
            }
            if !frame.trainee && !replaying {
                conditions_panel::draw(
                    ctx,
                    &self.camera_names,
                    session.link(),
                    session.sim().time(),
                    &mut self.link_changes,
                );
            }
            if let Some(cursor) = state.source.replay() {
                timeline = replay::draw_timeline(
                    ctx,
                    cursor,
                    session.sim().time(),
                    !state.pacer.is_paused(),
                    state.pacer.speed(),
                );
            }
        });
        self.clicks = clicks;
        self.timeline = timeline;
        for change in self.link_changes.drain(..) {
            session.apply(Input::Link(change));
        }
    }
}

/// The session from the setup, the station's state with the views `o` asks for, and the log;
/// the session learns which view the operator sees (its log, and a trainee-mode trial, need
/// it).
fn start_state(
    s: Setup,
    o: &StationOptions,
) -> Result<(Session, StationState, SessionLog), ViewerError> {
    let Setup {
        mut session,
        mapper,
        script,
        log,
        trainee,
        replay,
    } = s;
    let source = match (replay, script) {
        (Some(cursor), _) => InputSource::Replay(Box::new(cursor)),
        (None, Some(file)) => {
            let robot = session.sim().robot(session.robot()).spec();
            InputSource::Script(script_driver(&file, robot, false)?)
        }
        (None, None) => InputSource::Operator,
    };
    let state = StationState::new(
        &session,
        mapper,
        source,
        trainee,
        o.view.as_deref(),
        o.pip.as_deref(),
    );
    if let Some(view) = state.opening_view() {
        session.apply(view);
    }
    let log = SessionLog {
        writer: log,
        error: None,
    };
    Ok((session, state, log))
}

/// The station's frame loop, a stage a call: input, (a class's instructor), physics, actions
/// (and the logs), views, panel and present; then the report.
async fn station_loop(
    mut window: Window,
    opened: Opened<'_>,
    o: &StationOptions,
) -> Result<StationReport, ViewerError> {
    let Opened {
        mut driven,
        mut state,
        mut log,
        mut peer,
    } = opened;
    let mut render = StationRender::new(&mut window, driven.session(), o).await;
    let mut input = OperatorInput::new();
    let mut panel = StationPanel::new(driven.session(), &mut state, &input.raw);
    let mut stats = FrameStats::default();
    let start = Instant::now();
    let mut last = start;
    let mut physics_share = 0.0;
    let mut screenshot = None;
    loop {
        let now = Instant::now();
        let wall = (now - last).as_secs_f64();
        last = now;
        stats.begin_frame(wall);
        // 1. Input; 1b. a class's instructor: another exercise is shown at once.
        let keys = input.read(&window, &mut state.views);
        if driven.follow_instructor(&mut state, &input.raw)? {
            render.show(driven.session());
            panel = StationPanel::new(driven.session(), &mut state, &input.raw);
        }
        // 2. Physics: the input source runs before every step.
        let session = driven.session_mut();
        let sim_before = session.sim().time();
        let started = Instant::now();
        let physics = state.run_physics(session, &input.raw, wall, physics_share);
        let seconds = started.elapsed().as_secs_f64();
        stats.add_phase(Phase::Physics, seconds);
        physics_share = if wall > 0.0 { seconds / wall } else { 0.0 };
        stats.steps += physics.steps;
        if let Some(status) = physics.status {
            panel.hud.set_input(status);
        }
        // 3. Actions, then the logs (3b: a class seat's log, status and result).
        let actions = FrameActions {
            mapped: physics.actions,
            clicks: panel.clicks,
            timeline: panel.timeline,
            keys,
        };
        let effects = state.apply(&actions, session.view());
        stats.steps += state.carry_out(effects, session, &input.raw)?;
        log.record(session);
        driven.after_frame(physics.status)?;
        if let Some(peer) = peer.as_mut() {
            peer.after_frame(driven.session());
        }
        // 4. Views.
        let sim_dt = driven.session().sim().time() - sim_before;
        let feeds = render
            .draw_views(
                &mut window,
                &mut state,
                driven.session(),
                sim_dt,
                wall,
                &mut stats,
            )
            .await;
        // 5. Panel and the window's own pass.
        let started = Instant::now();
        let banner = driven.banner();
        let shown = PanelFrame {
            render: &render,
            feeds,
            sim_dt,
            wall,
            banner: banner.as_deref(),
        };
        panel.draw(&mut window, &state, driven.session_mut(), shown, &mut stats);
        let open = render.present(&mut window).await;
        stats.add_phase(Phase::Window, started.elapsed().as_secs_f64());
        stats.end_frame();
        let done = o
            .quit_after
            .is_some_and(|q| start.elapsed().as_secs_f64() >= q);
        if done {
            screenshot = save_screenshot(&window, o)?;
        }
        if !open || done {
            break;
        }
    }
    let log = log.finish(driven.session_mut())?;
    let mut report = report(&stats, start, &render, driven.session(), screenshot, log);
    driven.leave(&mut report);
    Ok(report)
}

/// Saves the window (3D view and panel) as the PNG `o` names, if any; returns its path.
fn save_screenshot(window: &Window, o: &StationOptions) -> Result<Option<PathBuf>, ViewerError> {
    let Some(path) = &o.screenshot else {
        return Ok(None);
    };
    super::shot::save_png(&window.snap_image(), path)?;
    Ok(Some(path.clone()))
}

/// What the session did, for the exit summary.
fn report(
    stats: &FrameStats,
    start: Instant,
    render: &StationRender,
    session: &Session,
    screenshot: Option<PathBuf>,
    log: Option<PathBuf>,
) -> StationReport {
    let (median_frame_ms, p95_frame_ms) = stats.percentiles_ms();
    StationReport {
        frames: stats.frames(),
        wall: start.elapsed().as_secs_f64(),
        mean_frame_ms: stats.mean_ms(),
        median_frame_ms,
        p95_frame_ms,
        sim_time: session.sim().time(),
        steps: stats.steps,
        screenshot,
        phases_ms: stats.phases_ms(),
        render_scale: render.scale,
        software_renderer: render.software,
        render_path: render.path,
        log,
        result: session.trial().map(crate::exercise::Trial::result),
        #[cfg(feature = "classroom")]
        class: None,
    }
}
