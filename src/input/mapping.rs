//! The pure mapping from a [`RawInput`] snapshot to a [`DriveCommand`] and one-shot
//! [`Actions`]: dead zones, response curve, tank/arcade mixing, hysteresis, keyboard ramps,
//! speed limit, flipper target, dead-man and disconnect handling.
//!
//! [`InputMapper::update`] is called once per physics step with the current snapshot; it has
//! no clock of its own (time comes in as `dt`), touches no device and is deterministic.
//!
//! # Pipeline, per update
//! 1. **Source.** A held keyboard driving key (with its dead-man, if any) makes the keyboard
//!    drive; otherwise the gamepad drives if it is connected, *armed* (see 4) and its dead-man
//!    (if any) is held; otherwise nothing drives and the output is a stop.
//! 2. **Shaping** (gamepad). Tank: each stick's y through the per-axis [`shape_axis`]. Arcade:
//!    the driving stick through the radial [`shape_stick`], then [`mix_arcade`] of speed = y,
//!    turn = `turn_gain`·x. Keyboard: digital ±1 demands through [`ramp_toward`], then
//!    [`mix_arcade`]. Result: a demand per track in [-1, 1].
//! 3. **Hysteresis** per track ([`hysteresis`]): a stopped track starts only above
//!    `start_threshold`, a moving one stops below `stop_threshold`. Whenever nothing drives,
//!    both tracks are reset to stopped.
//! 4. **Disconnect and re-arm.** While the pad is disconnected it is disarmed. A disarmed pad
//!    re-arms once its sticks have been seen centred (both track demands at or below
//!    `stop_threshold`) for `rearm_time` without a break, so a pad that comes back (or is
//!    present at start) with a stick held does not lurch the robot, even when its first
//!    reported state is a stale "centred". Releasing the dead-man stops at once, but pressing
//!    it again resumes at once without re-centring: the operator holds both deliberately.
//! 5. **Output.** Demand × `max_speed` × (slow factor while slow mode is on) → m/s per track;
//!    the flipper target, once the operator has moved it, integrates `±rate·dt` within the
//!    limits.

use super::arm_mapping::{ArmButtons, ArmMapper, ArmRequest, ArmSticks, ControlMode};
use super::raw::{Button, Key, RawInput};
use super::settings::{Action, DriveMode, MappingConfig, MappingError, SlowMode, Stick};
use crate::vehicle::DriveCommand;

/// One-shot operator requests: each is true on exactly one update per press (the update on
/// which a bound button or key goes down), however long it is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Actions {
    /// Switch to the next onboard camera.
    pub next_camera: bool,
    /// Switch to the previous onboard camera.
    pub prev_camera: bool,
    /// Pause or resume the simulation.
    pub toggle_pause: bool,
    /// Reset the exercise.
    pub reset: bool,
    /// Advance one physics step (while paused).
    pub single_step: bool,
    /// Switch between the trainee's and the instructor's view.
    pub toggle_trainee_view: bool,
}

impl Actions {
    /// Whether any action fired.
    pub fn any(&self) -> bool {
        self.next_camera
            || self.prev_camera
            || self.toggle_pause
            || self.reset
            || self.single_step
            || self.toggle_trainee_view
    }
}

/// Which device the drive output came from on an update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Nothing drives: the output is a stop.
    None,
    /// The gamepad's sticks.
    Gamepad,
    /// The keyboard's driving keys.
    Keyboard,
}

/// The gamepad's state as the mapping sees it (for the HUD).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadState {
    /// No pad connected (normal: the keyboard still works).
    Absent,
    /// Connected but disarmed: waiting for the sticks to be centred.
    WaitingForCentre,
    /// Connected and armed, but the configured dead-man is not held.
    DeadmanReleased,
    /// Ready to drive.
    Ready,
}

/// What the HUD may show about the mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    /// Where this update's drive output came from.
    pub source: Source,
    /// The gamepad.
    pub pad: PadState,
    /// Whether slow mode (the speed limit) is on.
    pub slow: bool,
    /// What the sticks control: the tracks or the arm.
    pub mode: ControlMode,
}

/// The result of one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MappedInput {
    /// Belt speeds in m/s and the flipper target in rad (`None` until the operator first
    /// moves the flipper or [`InputMapper::set_flipper_target`] sets it).
    pub drive: DriveCommand,
    /// One-shot requests.
    pub actions: Actions,
    /// What the operator asks of the arm (a hold while driving, unless a stored-pose move is
    /// under way).
    pub arm: ArmRequest,
    /// State for the HUD.
    pub status: Status,
}

/// Dead zone, saturation and response curve on one axis value `v` ∈ [-1, 1].
///
/// `|v| ≤ dead_zone` gives exactly 0. Beyond it, `u = (min(|v|, saturation) − dead_zone) /
/// (saturation − dead_zone)` ∈ (0, 1] and the result is `sign(v)·u^curve`: continuous at the
/// dead-zone edge (→ 0) and full (±1) from `saturation` on. Requires `saturation >
/// dead_zone ≥ 0` and `curve ≥ 1`. NaN gives 0.
pub fn shape_axis(v: f64, dead_zone: f64, saturation: f64, curve: f64) -> f64 {
    let m = v.abs();
    if m.is_nan() || m <= dead_zone {
        return 0.0;
    }
    let u = (m.min(saturation) - dead_zone) / (saturation - dead_zone);
    u.powf(curve).copysign(v)
}

/// Radial dead zone, saturation and curve on a stick `(x, y)`: the magnitude goes through
/// [`shape_axis`], the direction is kept. A stick inside the dead-zone circle gives exactly
/// `(0, 0)`, whatever its direction; each component of the result is in [-1, 1].
pub fn shape_stick(x: f64, y: f64, dead_zone: f64, saturation: f64, curve: f64) -> (f64, f64) {
    let m = x.hypot(y);
    if m.is_nan() || m <= dead_zone {
        return (0.0, 0.0);
    }
    let s = shape_axis(m, dead_zone, saturation, curve) / m;
    ((x * s).clamp(-1.0, 1.0), (y * s).clamp(-1.0, 1.0))
}

/// Arcade mixing: `left = speed + turn`, `right = speed − turn` (turn > 0 turns right,
/// clockwise seen from above, whichever way the robot drives), then both divided by
/// `max(1, |left|, |right|)`. Scaling both sides (instead of clipping the one that overflows)
/// keeps the ratio of the tracks, so turning authority is kept at full speed: full forward
/// with full right turn gives `(1, 0)`, not `(1, 1)`.
pub fn mix_arcade(speed: f64, turn: f64) -> (f64, f64) {
    let (l, r) = (speed + turn, speed - turn);
    let k = l.abs().max(r.abs()).max(1.0);
    (l / k, r / k)
}

/// Hysteresis on one track's demand. `moving` is the track's latch: a stopped track outputs
/// exactly 0 until `|demand| > start`, a moving track passes the demand through until
/// `|demand| < stop` (then it stops and outputs 0). Requires `stop < start`.
pub fn hysteresis(moving: &mut bool, demand: f64, start: f64, stop: f64) -> f64 {
    let m = demand.abs();
    if m.is_nan() {
        *moving = false;
        return 0.0;
    }
    if *moving && m < stop || !*moving && m <= start {
        *moving = false;
        0.0
    } else {
        *moving = true;
        demand
    }
}

/// Keyboard ramp of one channel towards `target`, at most `max_step` per call in magnitude.
/// Only growth is ramped: a smaller demand, a release (`target == 0`) or a reversal drops to
/// the target (or to 0 before ramping the other way) at once, so letting go of a key always
/// stops at once.
pub fn ramp_toward(current: f64, target: f64, max_step: f64) -> f64 {
    let same_side = current == 0.0 || (current > 0.0) == (target > 0.0);
    let from = if target == 0.0 || !same_side {
        0.0
    } else {
        current
    };
    if from.abs() >= target.abs() {
        target
    } else {
        let step = max_step.max(0.0);
        if (target - from).abs() <= step {
            target
        } else {
            from + step.copysign(target)
        }
    }
}

/// The gamepad's per-track demands for a snapshot (shaping and mixing, no hysteresis).
pub fn pad_demand(cfg: &MappingConfig, raw: &RawInput) -> (f64, f64) {
    let g = &cfg.gamepad;
    match g.mode {
        DriveMode::Tank => (
            shape_axis(raw.left_y, g.dead_zone, g.saturation, g.curve),
            shape_axis(raw.right_y, g.dead_zone, g.saturation, g.curve),
        ),
        DriveMode::Arcade => {
            let (x, y) = match g.arcade_stick {
                Stick::Left => (raw.left_x, raw.left_y),
                Stick::Right => (raw.right_x, raw.right_y),
            };
            let (turn, speed) = shape_stick(x, y, g.dead_zone, g.saturation, g.curve);
            mix_arcade(speed, g.turn_gain * turn)
        }
    }
}

/// What the operator holds in one snapshot, read once per update: the pad's buttons (none
/// while it is disconnected), the keys, and whether each dead-man is held (one not bound
/// counts as held).
struct Held<'a> {
    raw: &'a RawInput,
    pad_deadman: bool,
    keyboard_deadman: bool,
}

impl<'a> Held<'a> {
    fn of(cfg: &MappingConfig, raw: &'a RawInput) -> Self {
        let mut held = Self {
            raw,
            pad_deadman: false,
            keyboard_deadman: cfg.keyboard.deadman.is_none_or(|k| raw.key_down(k)),
        };
        held.pad_deadman = cfg.gamepad.deadman.as_ref().is_none_or(|b| held.button(b));
        held
    }

    /// Whether the pad's button `b` is down.
    fn button(&self, b: &Button) -> bool {
        self.raw.connected && self.raw.button_down(*b)
    }

    /// Whether any of `keys` is down.
    fn any_key(&self, keys: &[Key]) -> bool {
        keys.iter().any(|k| self.raw.key_down(*k))
    }

    /// Whether a pad button bound to action `a` is down.
    fn pad_action(&self, cfg: &MappingConfig, a: Action) -> bool {
        cfg.gamepad.buttons.get(a).iter().any(|b| self.button(b))
    }

    /// Whether a key bound to action `a` is down.
    fn key_action(&self, cfg: &MappingConfig, a: Action) -> bool {
        self.any_key(cfg.keyboard.keys.get(a))
    }
}

/// The stateful mapper: hysteresis latches, keyboard ramps, flipper target, slow mode,
/// gamepad arming and the previous state of every action (for edge detection).
#[derive(Debug, Clone)]
pub struct InputMapper {
    config: MappingConfig,
    moving: [bool; 2],
    keyboard_speed: f64,
    keyboard_turn: f64,
    flipper_target: Option<f64>,
    flipper_min: f64,
    flipper_max: f64,
    /// The robot's largest steering angle, rad, for an Ackermann robot: the stick's turn then
    /// steers the front wheels instead of splitting the tracks' speeds.
    steer_max: Option<f64>,
    /// An exercise's speed limit, m/s: full demand drives at it instead of the mapping's
    /// `max_speed` (a real control unit's speed selector).
    speed_limit: Option<f64>,
    slow_toggled: bool,
    pad_armed: bool,
    centred_for: f64,
    was_down: [bool; Action::COUNT],
    /// The arm side: mode switch, sub-mode, a stored-pose move.
    arm: ArmMapper,
}

impl InputMapper {
    /// A mapper with nothing moving, the pad disarmed (it arms once seen centred) and no
    /// flipper target.
    pub fn new(config: MappingConfig) -> Result<Self, MappingError> {
        config.validate()?;
        Ok(Self {
            flipper_min: config.flipper.min_angle,
            flipper_max: config.flipper.max_angle,
            config,
            moving: [false; 2],
            keyboard_speed: 0.0,
            keyboard_turn: 0.0,
            flipper_target: None,
            slow_toggled: false,
            pad_armed: false,
            centred_for: 0.0,
            was_down: [false; Action::COUNT],
            steer_max: None,
            speed_limit: None,
            arm: ArmMapper::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &MappingConfig {
        &self.config
    }

    /// Narrows the flipper target's range to the robot's (rad), intersected with the
    /// mapping's own limits; the current target is clamped into it.
    pub fn set_flipper_range(&mut self, min: f64, max: f64) {
        let lo = min.max(self.config.flipper.min_angle);
        let hi = max.min(self.config.flipper.max_angle);
        if lo <= hi {
            self.flipper_min = lo;
            self.flipper_max = hi;
        }
        self.flipper_target = self
            .flipper_target
            .map(|t| t.clamp(self.flipper_min, self.flipper_max));
    }

    /// Sets the flipper target (rad), e.g. to the robot's angle at spawn, so the first press
    /// moves from there; `None` stops commanding the flipper until the next press.
    pub fn set_flipper_target(&mut self, target: Option<f64>) {
        self.flipper_target = target
            .filter(|t| t.is_finite())
            .map(|t| t.clamp(self.flipper_min, self.flipper_max));
    }

    /// The current flipper target, rad.
    pub fn flipper_target(&self) -> Option<f64> {
        self.flipper_target
    }

    /// Drives an Ackermann robot whose outer front wheel turns at most `max_angle` rad: the
    /// turn demand becomes a steering angle (full turn = full lock) and both sides get the
    /// speed demand; `None` splits the sides' speeds (tracks, skid steering).
    pub fn set_steering(&mut self, max_angle: Option<f64>) {
        self.steer_max = max_angle.filter(|a| a.is_finite() && *a > 0.0);
    }

    /// Caps the full-demand speed at an exercise's speed limit (m/s; `None`: the mapping's
    /// `max_speed`), as an operator sets a control unit's speed selector: full stick or a held
    /// key cruises at the limit, slow mode at its share of it.
    pub fn set_speed_limit(&mut self, limit: Option<f64>) {
        self.speed_limit = limit.filter(|v| v.is_finite() && *v > 0.0);
    }

    /// The full-demand speed, m/s: the mapping's `max_speed`, or the speed limit if lower.
    pub fn top_speed(&self) -> f64 {
        let max = self.config.drive.max_speed;
        self.speed_limit.map_or(max, |limit| limit.min(max))
    }

    /// Forgets all motion state after the robot was reset: both tracks stopped, keyboard
    /// ramps at 0, the pad disarmed until re-centred (for `rearm_time`), slow-mode toggle
    /// off, no flipper target. Held buttons stay "held", so a reset button still held fires
    /// nothing again.
    pub fn reset(&mut self) {
        self.moving = [false; 2];
        self.keyboard_speed = 0.0;
        self.keyboard_turn = 0.0;
        self.flipper_target = None;
        self.slow_toggled = false;
        self.pad_armed = false;
        self.centred_for = 0.0;
    }

    /// Maps one snapshot. Call it once per physics step with that step's `dt` (s): a
    /// disconnect, a released dead-man or released keys then stop the robot on the very
    /// step they are seen. A non-finite or negative `dt` counts as 0.
    pub fn update(&mut self, raw: &RawInput, dt: f64) -> MappedInput {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        let held = Held::of(&self.config, raw);
        let (actions, slow, arm_buttons) = self.action_edges(&held);
        let pad_wants = pad_demand(&self.config, raw);
        let pad_state = self.arm_pad(&held, dt, pad_wants);
        let keyboard_drives = self.ramp_keyboard(&held, dt);
        let arm = self.arm_request(&held, &arm_buttons, pad_state);
        let arm_mode = self.arm.mode() != ControlMode::Drive;
        let cfg = &self.config;
        // Source and demand.
        let (source, demand) = if keyboard_drives {
            (
                Source::Keyboard,
                mix_arcade(
                    self.keyboard_speed,
                    cfg.keyboard.turn_gain * self.keyboard_turn,
                ),
            )
        } else if pad_state == PadState::Ready {
            (Source::Gamepad, pad_wants)
        } else {
            (Source::None, (0.0, 0.0))
        };
        let (start, stop) = (cfg.drive.start_threshold, cfg.drive.stop_threshold);
        // In arm mode the sticks and keys work the arm: the tracks stop.
        let (left, right) = if source == Source::None || arm_mode {
            self.moving = [false; 2];
            (0.0, 0.0)
        } else {
            (
                hysteresis(&mut self.moving[0], demand.0, start, stop),
                hysteresis(&mut self.moving[1], demand.1, start, stop),
            )
        };
        let scale = self.top_speed()
            * if slow {
                cfg.drive.slow_speed_factor
            } else {
                1.0
            };
        if !arm_mode {
            self.move_flippers(&held, dt);
        }
        // Ackermann: speed from the mean demand, the turn demand as a steering angle.
        let (left, right, steer) = match self.steer_max {
            Some(max) => {
                let speed = 0.5 * (left + right);
                let turn = (0.5 * (right - left)).clamp(-1.0, 1.0);
                (speed, speed, Some(turn * max))
            }
            None => (left, right, None),
        };
        MappedInput {
            drive: DriveCommand {
                left: left * scale,
                right: right * scale,
                flipper: self.flipper_target,
                steer,
            },
            actions,
            arm,
            status: Status {
                source,
                pad: pad_state,
                slow,
                mode: self.arm.mode(),
            },
        }
    }

    /// The arm side of an update: its bindings, the sticks (or the driving and flipper keys)
    /// as arm demands, and whether the operator may move it (the pad's dead-man held, the pad
    /// not lost; a keyboard user always may).
    fn arm_request(&mut self, held: &Held<'_>, buttons: &ArmButtons, pad: PadState) -> ArmRequest {
        let cfg = &self.config;
        let g = &cfg.gamepad;
        let axis = |v: f64| shape_axis(v, g.dead_zone, g.saturation, g.curve);
        let key = |a: &[Key], b: &[Key]| {
            f64::from(u8::from(held.any_key(a))) - f64::from(u8::from(held.any_key(b)))
        };
        let kb = &cfg.keyboard;
        let keys_on = held.keyboard_deadman;
        let pad_on = pad == PadState::Ready;
        let pad_pitch = f64::from(u8::from(held.pad_action(cfg, Action::FlipperUp)))
            - f64::from(u8::from(held.pad_action(cfg, Action::FlipperDown)));
        let key_pitch = f64::from(u8::from(held.key_action(cfg, Action::FlipperUp)))
            - f64::from(u8::from(held.key_action(cfg, Action::FlipperDown)));
        let mut sticks = ArmSticks::default();
        if pad_on {
            let raw = held.raw;
            sticks = ArmSticks {
                left_x: axis(raw.left_x),
                left_y: axis(raw.left_y),
                right_x: axis(raw.right_x),
                right_y: axis(raw.right_y),
                pitch: pad_pitch,
            };
        }
        if keys_on {
            let keyboard = ArmSticks {
                left_x: key(&kb.right, &kb.left),
                left_y: key(&kb.forward, &kb.backward),
                right_x: 0.0,
                right_y: key_pitch,
                pitch: 0.0,
            };
            if keyboard.moved() {
                sticks = keyboard;
            }
        }
        let enabled = match pad {
            PadState::Absent | PadState::Ready => true,
            PadState::WaitingForCentre | PadState::DeadmanReleased => keys_on && sticks.moved(),
        };
        self.arm.update(&cfg.arm, buttons, &sticks, enabled)
    }

    /// The one-shot actions whose button or key went down since the last update, whether
    /// slow mode is on (held, or toggled by its action), and the arm's bindings.
    fn action_edges(&mut self, held: &Held<'_>) -> (Actions, bool, ArmButtons) {
        let cfg = &self.config;
        let mut down = [false; Action::COUNT];
        for a in Action::ALL {
            down[a.index()] = held.pad_action(cfg, a) || held.key_action(cfg, a);
        }
        let fired = |a: Action| down[a.index()] && !self.was_down[a.index()];
        let actions = Actions {
            next_camera: fired(Action::CameraNext),
            prev_camera: fired(Action::CameraPrev),
            toggle_pause: fired(Action::Pause),
            reset: fired(Action::Reset),
            single_step: fired(Action::SingleStep),
            toggle_trainee_view: fired(Action::TraineeView),
        };
        let slow = match cfg.drive.slow_mode {
            SlowMode::Hold => down[Action::Slow.index()],
            SlowMode::Toggle => {
                if fired(Action::Slow) {
                    self.slow_toggled = !self.slow_toggled;
                }
                self.slow_toggled
            }
        };
        let arm = ArmButtons {
            mode: fired(Action::ArmMode),
            frame: fired(Action::ArmFrame),
            stow: fired(Action::ArmStow),
            deploy: fired(Action::ArmDeploy),
            close: down[Action::GripClose.index()],
            open: down[Action::GripOpen.index()],
        };
        self.was_down = down;
        (actions, slow, arm)
    }

    /// The gamepad's state: a pad (re)connected drives only after its sticks have been
    /// centred for the re-arm time, and only while its dead-man is held.
    fn arm_pad(&mut self, held: &Held<'_>, dt: f64, pad_wants: (f64, f64)) -> PadState {
        let cfg = &self.config;
        let connected = held.raw.connected;
        let stop = cfg.drive.stop_threshold;
        if !connected {
            self.pad_armed = false;
            self.centred_for = 0.0;
        } else if !self.pad_armed {
            if pad_wants.0.abs() <= stop && pad_wants.1.abs() <= stop {
                // Counted from the first centred update, which itself counts as 0.
                let seen = self.centred_for;
                self.centred_for += dt;
                // 1e-9 s absorbs the rounding of summed steps.
                self.pad_armed = seen + 1e-9 >= cfg.gamepad.rearm_time;
            } else {
                self.centred_for = 0.0;
            }
        }
        if !connected {
            PadState::Absent
        } else if !self.pad_armed {
            PadState::WaitingForCentre
        } else if !held.pad_deadman {
            PadState::DeadmanReleased
        } else {
            PadState::Ready
        }
    }

    /// The keyboard's speed and turn ramped toward the keys held (with its dead-man, if
    /// any); returns whether the keyboard drives.
    fn ramp_keyboard(&mut self, held: &Held<'_>, dt: f64) -> bool {
        let kb = &self.config.keyboard;
        let (f, b, l, r) = (
            held.any_key(&kb.forward),
            held.any_key(&kb.backward),
            held.any_key(&kb.left),
            held.any_key(&kb.right),
        );
        let keyboard_drives = held.keyboard_deadman && (f || b || l || r);
        if keyboard_drives {
            let step = if kb.ramp_time > 0.0 {
                dt / kb.ramp_time
            } else {
                f64::INFINITY
            };
            let axis = |pos: bool, neg: bool| f64::from(u8::from(pos)) - f64::from(u8::from(neg));
            self.keyboard_speed = ramp_toward(self.keyboard_speed, axis(f, b), step);
            self.keyboard_turn = ramp_toward(self.keyboard_turn, axis(r, l), step);
        } else {
            self.keyboard_speed = 0.0;
            self.keyboard_turn = 0.0;
        }
        keyboard_drives
    }

    /// The flipper target moved at the flipper rate while its up or down action is held: the
    /// pad's buttons count while it is connected and its dead-man held, the keys with theirs.
    fn move_flippers(&mut self, held: &Held<'_>, dt: f64) {
        let cfg = &self.config;
        let flipper_held = |a: Action| {
            (held.pad_deadman && held.pad_action(cfg, a))
                || (held.keyboard_deadman && held.key_action(cfg, a))
        };
        let dir = f64::from(u8::from(flipper_held(Action::FlipperUp)))
            - f64::from(u8::from(flipper_held(Action::FlipperDown)));
        if dir != 0.0 {
            let from = self.flipper_target.unwrap_or(0.0);
            self.flipper_target = Some(
                (from + dir * cfg.flipper.rate * dt).clamp(self.flipper_min, self.flipper_max),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_axis_is_zero_inside_continuous_at_the_edge_and_full_at_saturation() {
        assert_eq!(shape_axis(0.15, 0.15, 0.95, 2.0), 0.0);
        assert_eq!(shape_axis(-0.1, 0.15, 0.95, 2.0), 0.0);
        let just_out = shape_axis(0.15 + 1e-6, 0.15, 0.95, 1.0);
        assert!(just_out > 0.0 && just_out < 2e-6, "{just_out}");
        assert_eq!(shape_axis(0.95, 0.15, 0.95, 3.0), 1.0);
        assert_eq!(shape_axis(-1.0, 0.15, 0.95, 3.0), -1.0);
        // Half way through the live range with curve 2: 0.5² = 0.25, sign kept.
        assert!((shape_axis(-0.55, 0.15, 0.95, 2.0) + 0.25).abs() < 1e-12);
        assert_eq!(shape_axis(f64::NAN, 0.1, 0.9, 1.0), 0.0);
    }

    #[test]
    fn shape_stick_is_radial_and_keeps_the_direction() {
        assert_eq!(shape_stick(0.1, 0.1, 0.15, 0.95, 1.0), (0.0, 0.0));
        let (x, y) = shape_stick(0.3, 0.4, 0.0, 1.0, 1.0);
        assert!((x - 0.3).abs() < 1e-12 && (y - 0.4).abs() < 1e-12);
        // A square-gate corner (1, 1) saturates at magnitude 1 in the 45° direction.
        let (x, y) = shape_stick(1.0, 1.0, 0.1, 0.9, 1.5);
        assert!((x - 0.5f64.sqrt()).abs() < 1e-12 && (y - x).abs() < 1e-15);
    }

    #[test]
    fn mixing_scales_both_sides_and_keeps_the_ratio() {
        assert_eq!(mix_arcade(1.0, 0.0), (1.0, 1.0));
        assert_eq!(mix_arcade(0.0, 1.0), (1.0, -1.0));
        assert_eq!(mix_arcade(1.0, 1.0), (1.0, 0.0));
        let (l, r) = mix_arcade(1.0, 0.5);
        assert!((l - 1.0).abs() < 1e-15 && (r - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(mix_arcade(0.3, 0.1), (0.4, 0.19999999999999998));
    }

    #[test]
    fn hysteresis_latches_between_the_thresholds() {
        let mut moving = false;
        assert_eq!(hysteresis(&mut moving, 0.05, 0.05, 0.02), 0.0);
        assert!(!moving);
        assert_eq!(hysteresis(&mut moving, -0.051, 0.05, 0.02), -0.051);
        assert!(moving);
        assert_eq!(hysteresis(&mut moving, 0.02, 0.05, 0.02), 0.02);
        assert_eq!(hysteresis(&mut moving, 0.0199, 0.05, 0.02), 0.0);
        assert!(!moving);
    }

    #[test]
    fn ramp_grows_at_the_rate_and_drops_at_once() {
        assert_eq!(ramp_toward(0.0, 1.0, 0.25), 0.25);
        assert_eq!(ramp_toward(0.9, 1.0, 0.25), 1.0);
        assert_eq!(ramp_toward(0.6, 0.0, 0.25), 0.0);
        assert_eq!(ramp_toward(0.6, -1.0, 0.25), -0.25);
        assert_eq!(ramp_toward(0.6, 0.5, 0.25), 0.5);
        assert_eq!(ramp_toward(0.0, -1.0, f64::INFINITY), -1.0);
    }
}
