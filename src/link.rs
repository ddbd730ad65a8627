//! The remote link between the operator's control unit and the robot, as training
//! competitions emulate it (World Robot Summit tunnel tasks): command latency, video latency,
//! a video frame-rate cap, dropouts, camera faults and darkness.
//!
//! Commands: every step the operator's command enters the link and comes out at the robot
//! `command_latency` later (a queue of whole steps, so the delay is exact to one step). While
//! the link is down (a dropout) the robot gets no commands and stops, as a real robot's link
//! watchdog stops it; the queue is emptied, so when the link comes back the robot waits for
//! fresh commands that have crossed it.
//!
//! Video: the picture the operator sees at time `t` is the frame captured at the latest frame
//! time `≤ t − video_latency` (frames every `1 / video_fps`), and during a dropout the picture
//! freezes on the last frame received before it. Camera faults and darkness are data here; the
//! station renders them (a dead camera shows NO SIGNAL).

use std::collections::VecDeque;

use crate::vehicle::arm::ArmCommand;
use crate::vehicle::DriveCommand;

/// A stretch of time with the link down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dropout {
    /// Start, s (simulation time).
    pub start: f64,
    /// Length, s.
    pub duration: f64,
}

impl Dropout {
    /// Whether the link is down at `t` (s).
    pub fn covers(&self, t: f64) -> bool {
        t >= self.start && t < self.start + self.duration
    }
}

/// What is wrong with a camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CameraFaultKind {
    /// No picture at all.
    Dead,
    /// Noise over the picture, 0..1 of full scale.
    Noise(f64),
    /// A dirty lens: the picture blurred and dimmed, 0..1.
    Dirty(f64),
    /// Working again (an instructor cleared an earlier fault).
    Clear,
}

/// A camera fault from a time on.
#[derive(Debug, Clone, PartialEq)]
pub struct CameraFault {
    /// Camera name (as in the robot file).
    pub camera: String,
    /// The fault.
    pub kind: CameraFaultKind,
    /// From when, s (simulation time).
    pub start: f64,
}

/// The link's conditions (all off by default: a perfect link).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinkConditions {
    /// Delay of the operator's commands to the robot, s.
    pub command_latency: f64,
    /// Delay of the video to the operator, s.
    pub video_latency: f64,
    /// Video frame-rate cap, frames/s (`None`: every rendered frame).
    pub video_fps: Option<f64>,
    /// Video resolution cap: largest picture height, pixels (`None`: the window's).
    pub video_height: Option<u32>,
    /// Times the link is down.
    pub dropouts: Vec<Dropout>,
    /// Camera faults.
    pub camera_faults: Vec<CameraFault>,
    /// Ambient light as a fraction of daylight, 0..1 (`None`: daylight); in the dark only
    /// the robot's own lights show the scene near it.
    pub ambient_light: Option<f64>,
}

impl LinkConditions {
    /// The conditions in words, for score tables and summaries (`command lag 200 ms, video 10
    /// fps, 1 dropout`); `None` for a perfect link.
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.command_latency > 0.0 {
            parts.push(format!("command lag {:.0} ms", self.command_latency * 1e3));
        }
        if self.video_latency > 0.0 {
            parts.push(format!("video lag {:.0} ms", self.video_latency * 1e3));
        }
        if let Some(fps) = self.video_fps {
            parts.push(format!("video {fps:.0} fps"));
        }
        if let Some(height) = self.video_height {
            parts.push(format!("video {height} lines"));
        }
        if let Some(light) = self.ambient_light {
            parts.push(format!("light {:.0} % of daylight", light * 100.0));
        }
        if !self.dropouts.is_empty() {
            parts.push(format!("{} dropout(s)", self.dropouts.len()));
        }
        if !self.camera_faults.is_empty() {
            parts.push(format!("{} camera fault(s)", self.camera_faults.len()));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Whether the link is up at `t` (s).
    pub fn link_up(&self, t: f64) -> bool {
        !self.dropouts.iter().any(|d| d.covers(t))
    }

    /// The capture time of the video frame the operator sees at `t` (s), or `None` before the
    /// first frame has arrived. Frames are captured every `1 / video_fps` s (every instant
    /// without a cap), arrive `video_latency` later, and a dropout freezes the picture on the
    /// last frame that arrived before it.
    pub fn video_frame_time(&self, t: f64) -> Option<f64> {
        // While the link is down, the picture is the one that arrived before the dropout began.
        let seen_at = self
            .dropouts
            .iter()
            .filter(|d| d.covers(t))
            .map(|d| d.start)
            .fold(t, f64::min);
        let captured = seen_at - self.video_latency;
        if captured < 0.0 {
            return None;
        }
        Some(match self.video_fps {
            Some(fps) if fps > 0.0 => (captured * fps).floor() / fps,
            _ => captured,
        })
    }

    /// The fault of camera `name` at `t` (s), if any (the latest one that has started; of two
    /// that started together, the later in the list).
    pub fn camera_fault(&self, name: &str, t: f64) -> Option<CameraFaultKind> {
        self.camera_faults
            .iter()
            .filter(|f| f.camera == name && f.start <= t)
            .fold(None::<&CameraFault>, |best, f| match best {
                Some(b) if b.start > f.start => Some(b),
                _ => Some(f),
            })
            .map(|f| f.kind)
            .filter(|k| *k != CameraFaultKind::Clear)
    }

    /// Applies an instructor's change at `t` (s, simulation time).
    pub fn change(&mut self, t: f64, change: &LinkChange) {
        match change {
            LinkChange::Dropout { duration } => self.dropouts.push(Dropout {
                start: t,
                duration: duration.max(0.0),
            }),
            LinkChange::CameraFault { camera, kind } => self.camera_faults.push(CameraFault {
                camera: camera.clone(),
                kind: *kind,
                start: t,
            }),
            LinkChange::CommandLatency(s) => self.command_latency = s.max(0.0),
            LinkChange::VideoLatency(s) => self.video_latency = s.max(0.0),
            LinkChange::VideoFps(fps) => self.video_fps = fps.filter(|f| *f > 0.0),
            LinkChange::AmbientLight(level) => {
                self.ambient_light = level.filter(|l| l.is_finite()).map(|l| l.clamp(0.0, 1.0));
            }
        }
    }
}

/// A change an instructor makes to the link during a session (logged as an input, so a
/// replay makes it at the same step).
#[derive(Debug, Clone, PartialEq)]
pub enum LinkChange {
    /// The link drops now for `duration` s.
    Dropout {
        /// Length, s.
        duration: f64,
    },
    /// A camera gets a fault from now on (or [`CameraFaultKind::Clear`]: works again).
    CameraFault {
        /// Camera name.
        camera: String,
        /// The fault.
        kind: CameraFaultKind,
    },
    /// The command latency from now on, s.
    CommandLatency(f64),
    /// The video latency from now on, s.
    VideoLatency(f64),
    /// The video frame-rate cap from now on (`None`: none), frames/s.
    VideoFps(Option<f64>),
    /// The light from now on, a fraction of daylight 0..1 (`None`: daylight): the instructor
    /// turns the lights off (the robot's own lamps come on in the dark).
    AmbientLight(Option<f64>),
}

/// What the operator's screen shows of one onboard camera at one time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VideoFeed {
    /// No frame has arrived yet (the video latency at the start).
    Waiting,
    /// The camera is dead: no signal.
    NoSignal,
    /// A picture.
    Frame {
        /// When the frame shown was captured, s (simulation time).
        capture: f64,
        /// Whether the link is down and the picture frozen.
        frozen: bool,
        /// Noise over the picture, 0..1 of full scale.
        noise: f64,
        /// Dirt on the lens: blur and dimming, 0..1.
        dirt: f64,
    },
}

impl LinkConditions {
    /// What camera `name`'s feed shows at `t` (s): a dead camera shows no signal whatever
    /// the link does; otherwise the frame of [`LinkConditions::video_frame_time`] with the
    /// camera's noise or dirt.
    pub fn feed(&self, name: &str, t: f64) -> VideoFeed {
        let fault = self.camera_fault(name, t);
        if fault == Some(CameraFaultKind::Dead) {
            return VideoFeed::NoSignal;
        }
        let Some(capture) = self.video_frame_time(t) else {
            return VideoFeed::Waiting;
        };
        VideoFeed::Frame {
            capture,
            frozen: !self.link_up(t),
            noise: match fault {
                Some(CameraFaultKind::Noise(level)) => level.clamp(0.0, 1.0),
                _ => 0.0,
            },
            dirt: match fault {
                Some(CameraFaultKind::Dirty(level)) => level.clamp(0.0, 1.0),
                _ => 0.0,
            },
        }
    }
}

/// A latency (s) in whole steps of `dt` s, to the nearest step.
fn delay_steps(latency: f64, dt: f64) -> usize {
    if dt > 0.0 {
        (latency.max(0.0) / dt).round() as usize
    } else {
        0
    }
}

/// The command path through the link for one robot.
#[derive(Debug, Clone)]
pub struct CommandLink {
    conditions: LinkConditions,
    /// Commands in flight (drive and arm), oldest first; holds exactly `delay` of them once
    /// filled.
    queue: VecDeque<(DriveCommand, ArmCommand)>,
    /// Latency in whole steps.
    delay: usize,
    /// Step, s.
    dt: f64,
}

impl CommandLink {
    /// A link with `conditions` for a simulation stepping `dt` s.
    pub fn new(conditions: LinkConditions, dt: f64) -> Self {
        let delay = delay_steps(conditions.command_latency, dt);
        Self {
            conditions,
            queue: VecDeque::with_capacity(delay + 1),
            delay,
            dt,
        }
    }

    /// The conditions.
    pub fn conditions(&self) -> &LinkConditions {
        &self.conditions
    }

    /// Applies an instructor's change at `t` (s). A new command latency takes effect for
    /// the commands sent from now: a longer one leaves the robot without fresh commands (it
    /// holds a stop) until the first sent under it arrives, a shorter one drops the oldest
    /// commands in flight.
    pub fn change(&mut self, t: f64, change: &LinkChange) {
        self.conditions.change(t, change);
        if let LinkChange::CommandLatency(_) = change {
            self.delay = delay_steps(self.conditions.command_latency, self.dt);
            while self.queue.len() > self.delay {
                self.queue.pop_front();
            }
        }
    }

    /// The operator sends `command` at `t` (s); returns what reaches the robot in this step:
    /// the command sent `command_latency` ago (a stop until the first one arrives), or a stop
    /// while the link is down.
    pub fn transmit(&mut self, t: f64, command: DriveCommand) -> DriveCommand {
        self.transmit_with_arm(t, command, ArmCommand::HOLD).0
    }

    /// [`CommandLink::transmit`] for a drive command and an arm command sent together: they
    /// travel as one packet, and while the link is down the tracks stop and the arm holds
    /// (its gripper as it is), as a real unit's failsafe does.
    pub fn transmit_with_arm(
        &mut self,
        t: f64,
        command: DriveCommand,
        arm: ArmCommand,
    ) -> (DriveCommand, ArmCommand) {
        let idle = (DriveCommand::STOP, ArmCommand::HOLD);
        if !self.conditions.link_up(t) {
            self.queue.clear();
            return idle;
        }
        self.queue.push_back((command, arm));
        if self.queue.len() > self.delay {
            self.queue.pop_front().unwrap_or(idle)
        } else {
            idle
        }
    }
}

#[cfg(test)]
mod arm_tests {
    use super::*;
    use crate::vehicle::arm::{ArmMotion, GripCommand, MAX_ARM_JOINTS};

    /// The dead-man rule for the arm: while the link is down the arm holds (its gripper as it
    /// is) as the tracks stop, and an arm command crosses the link with the drive command.
    #[test]
    fn a_dropout_holds_the_arm_and_commands_cross_together() {
        let conditions = LinkConditions {
            command_latency: 0.1,
            dropouts: vec![Dropout {
                start: 1.0,
                duration: 0.5,
            }],
            ..LinkConditions::default()
        };
        let mut link = CommandLink::new(conditions, 0.05);
        let arm = ArmCommand {
            motion: ArmMotion::JointRates([0.2; MAX_ARM_JOINTS]),
            grip: GripCommand::Close(20.0),
        };
        let go = DriveCommand::belts(0.5, 0.5);
        let mut got = Vec::new();
        for k in 0..40 {
            let t = k as f64 * 0.05;
            got.push((t, link.transmit_with_arm(t, go, arm)));
        }
        for (t, (drive, a)) in got {
            if (1.0..1.5).contains(&t) {
                assert_eq!((drive, a), (DriveCommand::STOP, ArmCommand::HOLD), "at {t}");
            } else if (0.1..0.9).contains(&t) {
                assert_eq!((drive, a), (go, arm), "at {t}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go() -> DriveCommand {
        DriveCommand::belts(0.5, 0.5)
    }

    #[test]
    fn commands_arrive_after_the_latency_to_the_step() {
        let dt = 0.002;
        let conditions = LinkConditions {
            command_latency: 0.5,
            ..Default::default()
        };
        let mut link = CommandLink::new(conditions, dt);
        let mut first = None;
        for k in 0..1000 {
            let t = k as f64 * dt;
            let out = link.transmit(t, if t >= 0.2 { go() } else { DriveCommand::STOP });
            if first.is_none() && out == go() {
                first = Some(t);
            }
        }
        let arrived = first.expect("arrived");
        assert!((arrived - 0.7).abs() <= dt, "{arrived}");
    }

    #[test]
    fn a_dropout_stops_the_robot_at_once_and_needs_fresh_commands_after() {
        let dt = 0.002;
        let conditions = LinkConditions {
            command_latency: 0.1,
            dropouts: vec![Dropout {
                start: 1.0,
                duration: 0.5,
            }],
            ..Default::default()
        };
        let mut link = CommandLink::new(conditions, dt);
        let mut outputs = Vec::new();
        for k in 0..1000 {
            let t = k as f64 * dt;
            outputs.push((t, link.transmit(t, go())));
        }
        for (t, out) in &outputs {
            let expected_go = (*t >= 0.1 - 1e-9 && *t < 1.0) || *t >= 1.6 - 1e-9;
            assert_eq!(*out == go(), expected_go, "at {t}");
        }
    }

    #[test]
    fn video_is_late_capped_and_frozen_in_a_dropout() {
        let conditions = LinkConditions {
            video_latency: 0.2,
            video_fps: Some(10.0),
            dropouts: vec![Dropout {
                start: 2.0,
                duration: 1.0,
            }],
            ..Default::default()
        };
        assert_eq!(conditions.video_frame_time(0.1), None);
        let f = conditions.video_frame_time(1.26).expect("frame");
        assert!((f - 1.0).abs() < 1e-9, "{f}");
        // Frozen on what had arrived when the link went down at 2.0 s: captured at 1.8 s.
        let f = conditions.video_frame_time(2.9).expect("frame");
        assert!((f - 1.8).abs() < 1e-9, "{f}");
        let f = conditions.video_frame_time(3.25).expect("frame");
        assert!((f - 3.0).abs() < 1e-9, "{f}");
    }

    #[test]
    fn a_dead_camera_shows_no_signal_and_a_dropout_freezes_the_others() {
        let conditions = LinkConditions {
            video_fps: Some(10.0),
            dropouts: vec![Dropout {
                start: 2.0,
                duration: 1.0,
            }],
            camera_faults: vec![
                CameraFault {
                    camera: "front".into(),
                    kind: CameraFaultKind::Dead,
                    start: 1.0,
                },
                CameraFault {
                    camera: "rear".into(),
                    kind: CameraFaultKind::Noise(0.4),
                    start: 0.5,
                },
            ],
            ..Default::default()
        };
        assert!(matches!(
            conditions.feed("front", 0.95),
            VideoFeed::Frame { frozen: false, .. }
        ));
        assert_eq!(conditions.feed("front", 1.0), VideoFeed::NoSignal);
        assert_eq!(conditions.feed("front", 2.5), VideoFeed::NoSignal);
        assert_eq!(
            conditions.feed("rear", 2.5),
            VideoFeed::Frame {
                capture: 2.0,
                frozen: true,
                noise: 0.4,
                dirt: 0.0
            }
        );
        assert!(matches!(
            conditions.feed("mast", 3.05),
            VideoFeed::Frame { capture, frozen: false, noise, .. } if capture == 3.0 && noise == 0.0
        ));
        let late = LinkConditions {
            video_latency: 0.3,
            ..Default::default()
        };
        assert_eq!(late.feed("front", 0.1), VideoFeed::Waiting);
    }

    #[test]
    fn instructor_changes_take_effect_from_their_time() {
        let dt = 0.002;
        let mut link = CommandLink::new(LinkConditions::default(), dt);
        assert_eq!(link.transmit(0.0, go()), go());
        link.change(1.0, &LinkChange::Dropout { duration: 0.5 });
        assert_eq!(link.transmit(1.0, go()), DriveCommand::STOP, "down at once");
        assert_eq!(link.transmit(1.6, go()), go(), "back after it");
        link.change(
            2.0,
            &LinkChange::CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Dead,
            },
        );
        assert_eq!(link.conditions().feed("front", 2.0), VideoFeed::NoSignal);
        link.change(
            3.0,
            &LinkChange::CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Clear,
            },
        );
        assert_eq!(link.conditions().camera_fault("front", 3.0), None);
        assert_eq!(
            link.conditions().camera_fault("front", 2.5),
            Some(CameraFaultKind::Dead)
        );
        // A latency of 0.1 s: the robot holds a stop until the first command sent under it
        // arrives 50 steps later.
        link.change(4.0, &LinkChange::CommandLatency(0.1));
        let arrived = (0..100)
            .position(|k| link.transmit(4.0 + k as f64 * dt, go()) == go())
            .expect("arrives");
        assert_eq!(arrived, 50);
        link.change(5.0, &LinkChange::CommandLatency(0.0));
        assert_eq!(link.transmit(5.0, DriveCommand::STOP), DriveCommand::STOP);
        assert_eq!(link.transmit(5.002, go()), go(), "no delay any more");
    }

    #[test]
    fn camera_faults_start_at_their_time() {
        let conditions = LinkConditions {
            camera_faults: vec![CameraFault {
                camera: "front".into(),
                kind: CameraFaultKind::Dead,
                start: 5.0,
            }],
            ..Default::default()
        };
        assert_eq!(conditions.camera_fault("front", 4.9), None);
        assert_eq!(
            conditions.camera_fault("front", 5.0),
            Some(CameraFaultKind::Dead)
        );
        assert_eq!(conditions.camera_fault("rear", 6.0), None);
    }
}
