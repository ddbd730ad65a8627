//! The mapping configuration ([`MappingConfig`]), its documented default and its rules
//! ([`MappingConfig::validate`]); `mapping_file` reads it from TOML. `scenes/input/default_mapping.toml` spells out the default and
//! `scenes/input/README.md` explains every field.

use super::raw::{Button, Key};

/// How the gamepad's sticks drive the tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriveMode {
    /// One stick per track: left stick y drives the left track, right stick y the right one.
    Tank,
    /// One stick: y is the speed, x the turn (right +), mixed into the two tracks.
    Arcade,
}

/// Which stick drives in arcade mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stick {
    /// The left stick.
    Left,
    /// The right stick.
    Right,
}

/// How the speed-limit ("slow") binding works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlowMode {
    /// Slow while the binding is held (the default: releasing it can never leave the robot
    /// unexpectedly fast or slow).
    Hold,
    /// Each press switches slow mode on or off.
    Toggle,
}

/// The operator actions that buttons and keys can be bound to (driving keys aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Speed limit: scales the drive output by [`DriveConfig::slow_speed_factor`].
    Slow,
    /// Raise the flipper target at [`FlipperConfig::rate`] while held.
    FlipperUp,
    /// Lower the flipper target at [`FlipperConfig::rate`] while held.
    FlipperDown,
    /// Next onboard camera (one-shot).
    CameraNext,
    /// Previous onboard camera (one-shot).
    CameraPrev,
    /// Pause / resume the simulation (one-shot).
    Pause,
    /// Reset the exercise (one-shot).
    Reset,
    /// Advance one physics step while paused (one-shot).
    SingleStep,
    /// Switch between the trainee's camera view and the instructor's view (one-shot).
    TraineeView,
    /// Switch the sticks between driving and the arm (one-shot), as real control units'
    /// mode switch does.
    ArmMode,
    /// In arm mode, switch joint-by-joint control to flying the tool point in the body frame,
    /// then in the gripper camera's frame, then back (one-shot).
    ArmFrame,
    /// Close the gripper with [`ArmInputConfig::grip_force`] while held.
    GripClose,
    /// Open the gripper while held.
    GripOpen,
    /// Move the arm to its stored pose `stow` (one-shot; collision-aware).
    ArmStow,
    /// Move the arm to its stored pose `reach_forward` (one-shot; collision-aware).
    ArmDeploy,
}

impl Action {
    /// Every action, in binding order.
    pub const ALL: [Action; 15] = [
        Action::Slow,
        Action::FlipperUp,
        Action::FlipperDown,
        Action::CameraNext,
        Action::CameraPrev,
        Action::Pause,
        Action::Reset,
        Action::SingleStep,
        Action::TraineeView,
        Action::ArmMode,
        Action::ArmFrame,
        Action::GripClose,
        Action::GripOpen,
        Action::ArmStow,
        Action::ArmDeploy,
    ];

    /// Number of actions.
    pub const COUNT: usize = Self::ALL.len();

    /// The field name in mapping files.
    pub fn name(self) -> &'static str {
        match self {
            Action::Slow => "slow",
            Action::FlipperUp => "flipper_up",
            Action::FlipperDown => "flipper_down",
            Action::CameraNext => "camera_next",
            Action::CameraPrev => "camera_prev",
            Action::Pause => "pause",
            Action::Reset => "reset",
            Action::SingleStep => "single_step",
            Action::TraineeView => "trainee_view",
            Action::ArmMode => "arm_mode",
            Action::ArmFrame => "arm_frame",
            Action::GripClose => "grip_close",
            Action::GripOpen => "grip_open",
            Action::ArmStow => "arm_stow",
            Action::ArmDeploy => "arm_deploy",
        }
    }

    /// Position in [`Action::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What each action is bound to: any of the listed buttons (or keys) triggers it; an empty
/// list leaves the action unbound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bindings<T> {
    map: [Vec<T>; Action::COUNT],
}

impl<T> Default for Bindings<T> {
    fn default() -> Self {
        Self {
            map: std::array::from_fn(|_| Vec::new()),
        }
    }
}

impl<T: Copy + PartialEq> Bindings<T> {
    /// The inputs bound to `action`.
    pub fn get(&self, action: Action) -> &[T] {
        &self.map[action.index()]
    }

    /// Binds `action` to exactly `inputs` (empty: unbound).
    pub fn set(&mut self, action: Action, inputs: Vec<T>) {
        self.map[action.index()] = inputs;
    }

    /// Builder form of [`Bindings::set`].
    pub fn with(mut self, action: Action, inputs: &[T]) -> Self {
        self.set(action, inputs.to_vec());
        self
    }

    /// The action `input` is bound to, if any.
    pub fn action_of(&self, input: T) -> Option<Action> {
        Action::ALL
            .into_iter()
            .find(|a| self.get(*a).contains(&input))
    }
}

/// Drive output settings shared by gamepad and keyboard.
#[derive(Debug, Clone, PartialEq)]
pub struct DriveConfig {
    /// Belt speed at full demand, m/s (the robot's motors limit it further). Default 1.0.
    pub max_speed: f64,
    /// Factor applied to the output while slow mode is on, (0, 1]. Default 0.25.
    pub slow_speed_factor: f64,
    /// Hold or toggle. Default [`SlowMode::Hold`].
    pub slow_mode: SlowMode,
    /// A stopped track starts only when its demand (fraction of full, after dead zone, curve
    /// and mixing) exceeds this. (0, 0.5], default 0.03.
    pub start_threshold: f64,
    /// A moving track stops when its demand falls below this. [0, start_threshold),
    /// default 0.015.
    pub stop_threshold: f64,
}

/// Flipper target control.
#[derive(Debug, Clone, PartialEq)]
pub struct FlipperConfig {
    /// Rate the target moves at while a flipper binding is held, rad/s (file:
    /// `rate_deg`, deg/s). Default 30°/s; keep it at or below the robot's flipper rate.
    pub rate: f64,
    /// Lowest target, rad (file: `min_angle_deg`). Default −90°.
    pub min_angle: f64,
    /// Highest target, rad (file: `max_angle_deg`). Default 180°.
    pub max_angle: f64,
}

/// Arm control from the sticks and keys (arm mode).
#[derive(Debug, Clone, PartialEq)]
pub struct ArmInputConfig {
    /// Joint speed at full stick, rad/s (file: `joint_rate_deg`, deg/s); each joint's own
    /// top speed limits it further. Default 30°/s.
    pub joint_rate: f64,
    /// Tool-point speed at full stick when flying the gripper, m/s. Default 0.1.
    pub tool_speed: f64,
    /// Force each finger closes with while the grip binding is held, N; the gripper's own
    /// limit caps it. Default 40.
    pub grip_force: f64,
}

impl Default for ArmInputConfig {
    fn default() -> Self {
        Self {
            joint_rate: 30f64.to_radians(),
            tool_speed: 0.1,
            grip_force: 40.0,
        }
    }
}

/// Gamepad settings.
#[derive(Debug, Clone, PartialEq)]
pub struct GamepadConfig {
    /// Tank or arcade. Default arcade.
    pub mode: DriveMode,
    /// The stick that drives in arcade mode. Default left.
    pub arcade_stick: Stick,
    /// Dead zone, fraction of stick travel: per axis in tank mode, radial in arcade mode.
    /// [0, 0.9], default 0.15.
    pub dead_zone: f64,
    /// Outer saturation: stick travel at and beyond which the demand is full.
    /// (dead_zone, 1], default 0.95.
    pub saturation: f64,
    /// Response curve exponent `e`: demand = sign·u^e, u = travel past the dead zone
    /// rescaled to [0, 1]. [1, 5], default 1.5.
    pub curve: f64,
    /// Arcade: turn demand per unit of stick x. (0, 2], default 1.0.
    pub turn_gain: f64,
    /// Dead-man button: when set, the pad drives only while it is held. Default none.
    pub deadman: Option<Button>,
    /// How long the sticks must be seen centred before a pad that (re)connected may drive,
    /// s. [0, 5], default 0.2. Longer than zero because a pad's state is not known at once:
    /// gilrs reports a stick already held when a pad appears only once the stick moves.
    pub rearm_time: f64,
    /// Action bindings.
    pub buttons: Bindings<Button>,
}

/// Keyboard settings.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyboardConfig {
    /// Time for a held driving key to ramp its demand from 0 to full, s. Releasing or
    /// reversing is immediate. [0, 10], default 0.5.
    pub ramp_time: f64,
    /// Turn demand of a turn key (arcade mixing). (0, 2], default 0.5.
    pub turn_gain: f64,
    /// Dead-man key: when set, the keyboard drives only while it is held. Default none.
    pub deadman: Option<Key>,
    /// Keys driving forward. Default W, Up.
    pub forward: Vec<Key>,
    /// Keys driving backward. Default S, Down.
    pub backward: Vec<Key>,
    /// Keys turning left (counter-clockwise seen from above). Default A, Left.
    pub left: Vec<Key>,
    /// Keys turning right. Default D, Right.
    pub right: Vec<Key>,
    /// Action bindings.
    pub keys: Bindings<Key>,
}

/// The whole input mapping: what `scenes/input/default_mapping.toml` holds.
#[derive(Debug, Clone, PartialEq)]
pub struct MappingConfig {
    /// `[drive]`.
    pub drive: DriveConfig,
    /// `[flipper]`.
    pub flipper: FlipperConfig,
    /// `[gamepad]` and `[gamepad.buttons]`.
    pub gamepad: GamepadConfig,
    /// `[keyboard]` and `[keyboard.keys]`.
    pub keyboard: KeyboardConfig,
    /// `[arm]`.
    pub arm: ArmInputConfig,
}

impl Default for DriveConfig {
    fn default() -> Self {
        Self {
            max_speed: 1.0,
            slow_speed_factor: 0.25,
            slow_mode: SlowMode::Hold,
            start_threshold: 0.03,
            stop_threshold: 0.015,
        }
    }
}

impl Default for FlipperConfig {
    fn default() -> Self {
        Self {
            rate: 30f64.to_radians(),
            min_angle: (-90f64).to_radians(),
            max_angle: 180f64.to_radians(),
        }
    }
}

impl Default for GamepadConfig {
    fn default() -> Self {
        use Button as B;
        Self {
            mode: DriveMode::Arcade,
            arcade_stick: Stick::Left,
            dead_zone: 0.15,
            saturation: 0.95,
            curve: 1.5,
            turn_gain: 1.0,
            deadman: None,
            rearm_time: 0.2,
            buttons: Bindings::default()
                .with(Action::Slow, &[B::RightBumper])
                .with(Action::FlipperUp, &[B::DPadUp])
                .with(Action::FlipperDown, &[B::DPadDown])
                .with(Action::CameraNext, &[B::DPadRight])
                .with(Action::CameraPrev, &[B::DPadLeft])
                .with(Action::Pause, &[B::Start])
                .with(Action::Reset, &[B::Select])
                .with(Action::SingleStep, &[B::West])
                .with(Action::TraineeView, &[B::North])
                .with(Action::ArmMode, &[B::South])
                .with(Action::ArmFrame, &[B::East])
                .with(Action::GripClose, &[B::RightTrigger])
                .with(Action::GripOpen, &[B::LeftTrigger])
                .with(Action::ArmStow, &[B::LeftStick])
                .with(Action::ArmDeploy, &[B::RightStick]),
        }
    }
}

impl Default for KeyboardConfig {
    fn default() -> Self {
        use Key as K;
        Self {
            ramp_time: 0.5,
            turn_gain: 0.5,
            deadman: None,
            forward: vec![K::W, K::Up],
            backward: vec![K::S, K::Down],
            left: vec![K::A, K::Left],
            right: vec![K::D, K::Right],
            keys: Bindings::default()
                .with(Action::Slow, &[K::LShift, K::RShift])
                .with(Action::FlipperUp, &[K::E, K::PageUp])
                .with(Action::FlipperDown, &[K::Q, K::PageDown])
                .with(Action::CameraNext, &[K::C, K::Tab])
                .with(Action::CameraPrev, &[K::X])
                .with(Action::Pause, &[K::P, K::Space])
                .with(Action::Reset, &[K::Backspace])
                .with(Action::SingleStep, &[K::N])
                .with(Action::TraineeView, &[K::V])
                .with(Action::ArmMode, &[K::R])
                .with(Action::ArmFrame, &[K::F])
                .with(Action::GripClose, &[K::G])
                .with(Action::GripOpen, &[K::H])
                .with(Action::ArmStow, &[K::Digit1])
                .with(Action::ArmDeploy, &[K::Digit2]),
        }
    }
}

impl Default for MappingConfig {
    /// The documented default, identical to `scenes/input/default_mapping.toml`.
    fn default() -> Self {
        Self {
            drive: DriveConfig::default(),
            flipper: FlipperConfig::default(),
            gamepad: GamepadConfig::default(),
            keyboard: KeyboardConfig::default(),
            arm: ArmInputConfig::default(),
        }
    }
}

/// A mapping that cannot be used, with the dotted path of the field at fault
/// (`gamepad.saturation`, `keyboard.keys.forward`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct MappingError {
    /// Dotted field path, as in the mapping file.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

// Accepted ranges (also the loader's): (min, max, min excluded).
pub(super) const MAX_SPEED: (f64, f64, bool) = (0.0, 20.0, true);
pub(super) const SLOW_FACTOR: (f64, f64, bool) = (0.0, 1.0, true);
pub(super) const START: (f64, f64, bool) = (0.0, 0.5, true);
pub(super) const STOP: (f64, f64, bool) = (0.0, 0.5, false);
pub(super) const RATE_DEG: (f64, f64, bool) = (0.0, 720.0, true);
pub(super) const TOOL_SPEED: (f64, f64, bool) = (0.0, 5.0, true);
pub(super) const GRIP_FORCE: (f64, f64, bool) = (0.0, 1e5, true);
pub(super) const ANGLE_DEG: (f64, f64, bool) = (-360.0, 360.0, false);
pub(super) const DEAD_ZONE: (f64, f64, bool) = (0.0, 0.9, false);
pub(super) const SATURATION: (f64, f64, bool) = (0.0, 1.0, true);
pub(super) const CURVE: (f64, f64, bool) = (1.0, 5.0, false);
pub(super) const TURN_GAIN: (f64, f64, bool) = (0.0, 2.0, true);
pub(super) const RAMP_TIME: (f64, f64, bool) = (0.0, 10.0, false);
pub(super) const REARM_TIME: (f64, f64, bool) = (0.0, 5.0, false);

fn check_range(field: &str, x: f64, (lo, hi, open): (f64, f64, bool)) -> Result<(), MappingError> {
    let ok = x.is_finite() && x <= hi && if open { x > lo } else { x >= lo };
    if ok {
        Ok(())
    } else {
        let lower = if open { "greater than" } else { "at least" };
        Err(err(
            field,
            format!("must be {lower} {lo} and at most {hi}, got {x}"),
        ))
    }
}

/// Radians as degrees for messages, without the round-trip noise of the conversion.
fn deg(rad: f64) -> f64 {
    (rad.to_degrees() * 1e9).round() / 1e9
}

fn err(field: &str, message: impl Into<String>) -> MappingError {
    MappingError {
        field: field.to_string(),
        message: message.into(),
    }
}

/// Fails if one input appears in two bindings (or twice in one), naming the later field.
fn check_unique<T: Copy + PartialEq + std::fmt::Display>(
    bindings: &[(String, &[T])],
) -> Result<(), MappingError> {
    let mut seen: Vec<(T, &str)> = Vec::new();
    for (field, inputs) in bindings {
        for input in inputs.iter() {
            if let Some((_, first)) = seen.iter().find(|(s, _)| s == input) {
                return Err(err(
                    field,
                    format!("'{input}' is already bound to {first}: one input, one job"),
                ));
            }
            seen.push((*input, field));
        }
    }
    Ok(())
}

impl MappingConfig {
    /// Checks every range and cross-field rule; the loader reports the same rules with the
    /// file position of the field.
    pub fn validate(&self) -> Result<(), MappingError> {
        let d = &self.drive;
        check_range("drive.max_speed", d.max_speed, MAX_SPEED)?;
        check_range("drive.slow_speed_factor", d.slow_speed_factor, SLOW_FACTOR)?;
        check_range("drive.start_threshold", d.start_threshold, START)?;
        check_range("drive.stop_threshold", d.stop_threshold, STOP)?;
        if d.stop_threshold >= d.start_threshold {
            return Err(err(
                "drive.stop_threshold",
                format!(
                    "must be less than start_threshold ({}), got {}: without the gap there is no \
                     hysteresis",
                    d.start_threshold, d.stop_threshold
                ),
            ));
        }
        let f = &self.flipper;
        check_range("flipper.rate_deg", deg(f.rate), RATE_DEG)?;
        check_range("flipper.min_angle_deg", deg(f.min_angle), ANGLE_DEG)?;
        check_range("flipper.max_angle_deg", deg(f.max_angle), ANGLE_DEG)?;
        if f.max_angle <= f.min_angle {
            return Err(err(
                "flipper.max_angle_deg",
                format!(
                    "must be greater than min_angle_deg ({}), got {}",
                    deg(f.min_angle),
                    deg(f.max_angle)
                ),
            ));
        }
        let g = &self.gamepad;
        check_range("gamepad.dead_zone", g.dead_zone, DEAD_ZONE)?;
        check_range("gamepad.saturation", g.saturation, SATURATION)?;
        if g.saturation <= g.dead_zone {
            return Err(err(
                "gamepad.saturation",
                format!(
                    "must be greater than dead_zone ({}), got {}",
                    g.dead_zone, g.saturation
                ),
            ));
        }
        check_range("gamepad.curve", g.curve, CURVE)?;
        check_range("gamepad.turn_gain", g.turn_gain, TURN_GAIN)?;
        check_range("gamepad.rearm_time", g.rearm_time, REARM_TIME)?;
        let mut pad: Vec<(String, &[Button])> = Vec::new();
        if let Some(b) = &g.deadman {
            pad.push(("gamepad.deadman".into(), std::slice::from_ref(b)));
        }
        for a in Action::ALL {
            pad.push((format!("gamepad.buttons.{}", a.name()), g.buttons.get(a)));
        }
        check_unique(&pad)?;
        let k = &self.keyboard;
        check_range("keyboard.ramp_time", k.ramp_time, RAMP_TIME)?;
        check_range("keyboard.turn_gain", k.turn_gain, TURN_GAIN)?;
        let mut keys: Vec<(String, &[Key])> = Vec::new();
        if let Some(key) = &k.deadman {
            keys.push(("keyboard.deadman".into(), std::slice::from_ref(key)));
        }
        for (name, list) in [
            ("forward", &k.forward),
            ("backward", &k.backward),
            ("left", &k.left),
            ("right", &k.right),
        ] {
            keys.push((format!("keyboard.keys.{name}"), list));
        }
        for a in Action::ALL {
            keys.push((format!("keyboard.keys.{}", a.name()), k.keys.get(a)));
        }
        check_unique(&keys)
    }
}
