//! The station's frame statistics: frame times (mean past the first frames, median and 95th
//! percentile of the last ones), wall time per phase of a frame, and the frame and physics
//! rates the panel shows. Fed wall times, so the rules are unit-tested without a window.

use crate::session::pacing::RateMeter;

/// Frames kept for the frame-time statistics.
const FRAME_HISTORY: usize = 4096;

/// Frames left out of the mean: the first ones compile shaders and fill caches.
const WARM_UP_FRAMES: u64 = 10;

/// The parts of a frame timed separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Input mapping and physics steps.
    Physics = 0,
    /// The main view's off-screen render.
    MainView = 1,
    /// The picture-in-picture's render.
    PictureInPicture = 2,
    /// The panel, composition and present.
    Window = 3,
}

/// Names of the phases, in [`Phase`] order, as the exit summary prints them.
const PHASE_NAMES: [&str; 4] = ["physics", "main view", "picture-in-picture", "window"];

/// Frame times and rates over a station session.
#[derive(Debug, Clone)]
pub(super) struct FrameStats {
    /// The last frame times, ms, a ring of [`FRAME_HISTORY`].
    history: Vec<f32>,
    /// Frames finished.
    frames: u64,
    /// Sum of the counted frame times, ms, and how many were counted.
    sum_ms: f64,
    counted: u64,
    /// Wall time per phase, s, summed.
    phases: [f64; 4],
    /// Physics steps run, all stages together.
    pub(super) steps: u64,
    /// Frames per second, for the panel.
    frame_rate: RateMeter,
    /// Physics steps per second, for the panel.
    step_rate: RateMeter,
}

impl Default for FrameStats {
    fn default() -> Self {
        Self {
            history: vec![0.0; FRAME_HISTORY],
            frames: 0,
            sum_ms: 0.0,
            counted: 0,
            phases: [0.0; 4],
            steps: 0,
            frame_rate: RateMeter::default(),
            step_rate: RateMeter::default(),
        }
    }
}

impl FrameStats {
    /// A new frame begins `wall` s after the last began: that is the last frame's time.
    pub(super) fn begin_frame(&mut self, wall: f64) {
        if self.frames > 0 {
            self.history[(self.frames as usize - 1) % FRAME_HISTORY] = (wall * 1e3) as f32;
            if self.frames > WARM_UP_FRAMES {
                self.sum_ms += wall * 1e3;
                self.counted += 1;
            }
        }
    }

    /// `seconds` of wall time went to `phase` this frame.
    pub(super) fn add_phase(&mut self, phase: Phase, seconds: f64) {
        self.phases[phase as usize] += seconds;
    }

    /// A frame of `wall` s that advanced the simulation by `steps` steps, for the rates.
    pub(super) fn count_rates(&mut self, steps: f64, wall: f64) {
        self.frame_rate.add(1.0, wall);
        self.step_rate.add(steps, wall);
    }

    /// The frame is done.
    pub(super) fn end_frame(&mut self) {
        self.frames += 1;
    }

    /// Frames finished.
    pub(super) fn frames(&self) -> u64 {
        self.frames
    }

    /// Frames per second lately.
    pub(super) fn frame_rate(&self) -> f64 {
        self.frame_rate.rate()
    }

    /// Physics steps per second lately.
    pub(super) fn step_rate(&self) -> f64 {
        self.step_rate.rate()
    }

    /// Mean frame time, ms, past the warm-up frames (0 before any).
    pub(super) fn mean_ms(&self) -> f64 {
        if self.counted > 0 {
            self.sum_ms / self.counted as f64
        } else {
            0.0
        }
    }

    /// Median and 95th percentile of the kept frame times, ms.
    pub(super) fn percentiles_ms(&self) -> (f64, f64) {
        let kept = (self.frames.saturating_sub(1) as usize).min(FRAME_HISTORY);
        let mut recent: Vec<f32> = self.history[..kept].to_vec();
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

    /// Mean wall time per frame of each phase, ms, named.
    pub(super) fn phases_ms(&self) -> [(&'static str, f64); 4] {
        let per = |x: f64| 1e3 * x / self.frames.max(1) as f64;
        std::array::from_fn(|i| (PHASE_NAMES[i], per(self.phases[i])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `walls` (s) through the statistics as frame times, as the station's loop does: a
    /// frame's time is known when the next begins, and the last frame ends the session.
    fn frames(walls: &[f64]) -> FrameStats {
        let mut stats = FrameStats::default();
        stats.begin_frame(0.0);
        for &wall in walls {
            stats.end_frame();
            stats.begin_frame(wall);
        }
        stats.end_frame();
        stats
    }

    #[test]
    fn the_mean_leaves_out_the_warm_up_frames() {
        // Ten slow frames (shader compilation), then twenty of 20 ms.
        let mut walls = vec![0.5; 10];
        walls.extend([0.02; 20]);
        let stats = frames(&walls);
        assert!((stats.mean_ms() - 20.0).abs() < 1e-4, "{}", stats.mean_ms());
        assert_eq!(FrameStats::default().mean_ms(), 0.0);
    }

    #[test]
    fn percentiles_are_of_the_frame_times() {
        // 1 … 100 ms: median 50.5 rounds to the 51st, the 95th percentile to the 95th.
        let walls: Vec<f64> = (1..=100).map(|k| f64::from(k) * 1e-3).collect();
        let (median, p95) = frames(&walls).percentiles_ms();
        assert!((median - 51.0).abs() < 1e-3, "{median}");
        assert!((p95 - 95.0).abs() < 1e-3, "{p95}");
        assert_eq!(FrameStats::default().percentiles_ms(), (0.0, 0.0));
    }

    #[test]
    fn phases_are_per_frame() {
        let mut stats = FrameStats::default();
        for _ in 0..4 {
            stats.end_frame();
        }
        stats.add_phase(Phase::Physics, 0.004);
        stats.add_phase(Phase::Window, 0.04);
        let phases = stats.phases_ms();
        assert_eq!(phases[0].0, "physics");
        assert!((phases[0].1 - 1.0).abs() < 1e-9, "{phases:?}");
        assert!((phases[3].1 - 10.0).abs() < 1e-9, "{phases:?}");
        assert_eq!(phases[1].1, 0.0);
    }
}
