//! The robot's onboard cameras as JPEG pictures for other programs and logs — ROS 2
//! (`sensor_msgs/msg/CompressedImage`), Foxglove and a log (`foxglove.CompressedImage`) — as
//! the operator's link delivers them: a frame every `1 / fps` s of simulated time (the link's video
//! frame-rate cap if lower), rendered off-screen by the headless renderer at the frame's
//! capture, and handed out the link's video latency later, stamped with the capture time. While
//! the link is down no frame comes (a viewer keeps the last one: frozen); a dead camera
//! sends nothing; noise and a dirty lens are painted into the picture; darkness is the scene's
//! light level. Needs the `viewer` feature (the renderer).

use std::collections::VecDeque;

use image::RgbImage;

use super::render_path::RenderPath;
use super::shot::HeadlessRenderer;
use crate::link::CameraFaultKind;
use crate::session::Session;

/// JPEG quality of the frames, 1–100.
const QUALITY: u8 = 80;

/// A frame ready to publish: the camera's name, its capture time (s, simulated), the JPEG.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraFrame {
    /// The robot file's camera name.
    pub camera: String,
    /// Capture time, s of simulated time.
    pub captured: f64,
    /// The picture, JPEG.
    pub jpeg: Vec<u8>,
    /// Its size, pixels.
    pub size: (u32, u32),
    /// Wall time spent rendering and encoding it, s.
    pub work: f64,
}

/// The cameras' frames on their way through the link.
pub struct CameraFeeds {
    renderer: Option<HeadlessRenderer>,
    width: u32,
    height: u32,
    fps: f64,
    /// When each camera (by its index in the robot file) captures next, s: staggered, so one
    /// frame is rendered per call and the caller's loop is never held up by all at once.
    next_capture: Vec<f64>,
    last_time: f64,
    on_the_way: VecDeque<(f64, CameraFrame)>,
    failed: Option<String>,
}

impl CameraFeeds {
    /// Frames of `width` × `height` pixels at up to `fps` frames/s of simulated time.
    pub fn new(width: u32, height: u32, fps: f64) -> Self {
        Self {
            renderer: None,
            width,
            height,
            fps,
            next_capture: Vec::new(),
            last_time: 0.0,
            on_the_way: VecDeque::new(),
            failed: None,
        }
    }

    /// Why no frame can be rendered (no GPU adapter, not even a software one), if so.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Captures the frames due at `session`'s time and returns those the link delivers now.
    pub fn frames(&mut self, session: &Session) -> Vec<CameraFrame> {
        let sim = session.sim();
        let t = sim.time();
        if t < self.last_time {
            // Another session (a new attempt): its own scene and clock.
            self.renderer = None;
            self.on_the_way.clear();
            self.next_capture.clear();
        }
        self.last_time = t;
        if self.failed.is_none() {
            self.capture(session);
        }
        let mut out = Vec::new();
        while self.on_the_way.front().is_some_and(|(due, _)| *due <= t) {
            if let Some((_, frame)) = self.on_the_way.pop_front() {
                out.push(frame);
            }
        }
        out
    }

    /// Renders the camera most overdue, if one is (and the link is up), and puts its frame
    /// on its way.
    fn capture(&mut self, session: &Session) {
        let sim = session.sim();
        let id = session.robot();
        let link = session.link();
        let t = sim.time();
        let cameras = &sim.robot(id).spec().cameras;
        let fps = link.video_fps.map_or(self.fps, |cap| cap.min(self.fps));
        let period = 1.0 / fps.max(0.1);
        if self.next_capture.len() != cameras.len() {
            let n = cameras.len().max(1) as f64;
            self.next_capture = (0..cameras.len())
                .map(|i| t + period * i as f64 / n)
                .collect();
        }
        let due = self
            .next_capture
            .iter()
            .enumerate()
            .filter(|(_, at)| **at <= t)
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i);
        let Some(index) = due else {
            return;
        };
        self.next_capture[index] +=
            period * ((t - self.next_capture[index]) / period).floor().max(0.0) + period;
        if !link.link_up(t) {
            return;
        }
        let camera = cameras[index].name.clone();
        let fault = link.camera_fault(&camera, t);
        if fault == Some(CameraFaultKind::Dead) {
            return;
        }
        if self.renderer.is_none() {
            let height = link
                .video_height
                .map_or(self.height, |h| h.min(self.height).max(48));
            let width = (u64::from(self.width) * u64::from(height) / u64::from(self.height)) as u32;
            match HeadlessRenderer::with_path(sim, id, width.max(64), height, RenderPath::Fast) {
                Ok(r) => self.renderer = Some(r),
                Err(e) => {
                    self.failed = Some(e.to_string());
                    return;
                }
            }
        }
        let Some(renderer) = self.renderer.as_mut() else {
            return;
        };
        renderer.set_light_level(link.ambient_light);
        let started = std::time::Instant::now();
        let Ok(mut picture) = renderer.render(sim, id, &camera) else {
            return;
        };
        degrade(&mut picture, fault, sim.steps());
        let size = picture.dimensions();
        let mut jpeg = Vec::with_capacity(32 * 1024);
        let encoded = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, QUALITY)
            .encode_image(&picture);
        if encoded.is_ok() {
            let frame = CameraFrame {
                camera,
                captured: t,
                jpeg,
                size,
                work: started.elapsed().as_secs_f64(),
            };
            self.on_the_way.push_back((t + link.video_latency, frame));
        }
    }
}

/// Paints a camera fault into `picture`: noise (a deterministic pattern per frame, `seed`), or
/// a dirty lens (dimmed and washed towards grey).
fn degrade(picture: &mut RgbImage, fault: Option<CameraFaultKind>, seed: u64) {
    match fault {
        Some(CameraFaultKind::Noise(level)) => {
            let mut rng = crate::rng::SplitMix64(seed);
            let amplitude = 255.0 * level.clamp(0.0, 1.0);
            for pixel in picture.pixels_mut() {
                let n = rng.range(-amplitude, amplitude);
                for c in &mut pixel.0 {
                    *c = (f64::from(*c) + n).clamp(0.0, 255.0) as u8;
                }
            }
        }
        Some(CameraFaultKind::Dirty(level)) => {
            let k = level.clamp(0.0, 1.0);
            for pixel in picture.pixels_mut() {
                for c in &mut pixel.0 {
                    let grey = 90.0;
                    *c = ((1.0 - k) * f64::from(*c) + k * grey) as u8;
                }
            }
        }
        _ => {}
    }
}
