//! The mapping configuration ([`MappingConfig`]), its documented default and the TOML
//! loader ([`load_mapping`]). `scenes/input/default_mapping.toml` spells out the default and
//! `scenes/input/README.md` explains every field.

use std::path::Path;

use super::raw::{Button, Key};
use crate::config::{ConfigError, SourceFile, TableReader};

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
}

impl Action {
    /// Every action, in binding order.
    pub const ALL: [Action; 9] = [
        Action::Slow,
        Action::FlipperUp,
        Action::FlipperDown,
        Action::CameraNext,
        Action::CameraPrev,
        Action::Pause,
        Action::Reset,
        Action::SingleStep,
        Action::TraineeView,
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
                .with(Action::TraineeView, &[B::North]),
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
                .with(Action::TraineeView, &[K::V]),
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
const MAX_SPEED: (f64, f64, bool) = (0.0, 20.0, true);
const SLOW_FACTOR: (f64, f64, bool) = (0.0, 1.0, true);
const START: (f64, f64, bool) = (0.0, 0.5, true);
const STOP: (f64, f64, bool) = (0.0, 0.5, false);
const RATE_DEG: (f64, f64, bool) = (0.0, 720.0, true);
const ANGLE_DEG: (f64, f64, bool) = (-360.0, 360.0, false);
const DEAD_ZONE: (f64, f64, bool) = (0.0, 0.9, false);
const SATURATION: (f64, f64, bool) = (0.0, 1.0, true);
const CURVE: (f64, f64, bool) = (1.0, 5.0, false);
const TURN_GAIN: (f64, f64, bool) = (0.0, 2.0, true);
const RAMP_TIME: (f64, f64, bool) = (0.0, 10.0, false);
const REARM_TIME: (f64, f64, bool) = (0.0, 5.0, false);

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

/// Reads a mapping file. Every field is optional (absent fields keep the default of
/// [`MappingConfig::default`]); unknown fields, bad names and broken rules are errors located
/// at `file:line:column: field`.
pub fn load_mapping(path: &Path) -> Result<MappingConfig, ConfigError> {
    let file = SourceFile::read(path)?;
    mapping_from_source(&file)
}

/// [`load_mapping`] for text already in memory.
pub fn mapping_from_source(file: &SourceFile) -> Result<MappingConfig, ConfigError> {
    let root = file.parse()?;
    let mut cfg = MappingConfig::default();
    // Every table read, by dotted path, to locate the errors of `validate`.
    let mut tables: Vec<(String, TableReader<'_>)> = Vec::new();
    read_drive_table(&root, &mut cfg.drive, &mut tables)?;
    read_flipper_table(&root, &mut cfg.flipper, &mut tables)?;
    read_gamepad_table(&root, &mut cfg.gamepad, &mut tables)?;
    read_keyboard_table(&root, &mut cfg.keyboard, &mut tables)?;
    root.finish()?;
    cfg.validate().map_err(|e| locate(&root, &tables, e))?;
    Ok(cfg)
}

/// The `[drive]` table, if any.
fn read_drive_table<'f>(
    root: &TableReader<'f>,
    d: &mut DriveConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("drive")? {
        read_f64(&t, "max_speed", MAX_SPEED, &mut d.max_speed)?;
        read_f64(
            &t,
            "slow_speed_factor",
            SLOW_FACTOR,
            &mut d.slow_speed_factor,
        )?;
        if let Some(m) = read_choice(
            &t,
            "slow_mode",
            &[("hold", SlowMode::Hold), ("toggle", SlowMode::Toggle)],
        )? {
            d.slow_mode = m;
        }
        read_f64(&t, "start_threshold", START, &mut d.start_threshold)?;
        read_f64(&t, "stop_threshold", STOP, &mut d.stop_threshold)?;
        t.finish()?;
        tables.push(("drive".into(), t));
    }
    Ok(())
}

/// The `[flipper]` table, if any.
fn read_flipper_table<'f>(
    root: &TableReader<'f>,
    f: &mut FlipperConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("flipper")? {
        read_deg(&t, "rate_deg", RATE_DEG, &mut f.rate)?;
        read_deg(&t, "min_angle_deg", ANGLE_DEG, &mut f.min_angle)?;
        read_deg(&t, "max_angle_deg", ANGLE_DEG, &mut f.max_angle)?;
        t.finish()?;
        tables.push(("flipper".into(), t));
    }
    Ok(())
}

/// The `[gamepad]` table and its `buttons`, if any.
fn read_gamepad_table<'f>(
    root: &TableReader<'f>,
    g: &mut GamepadConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("gamepad")? {
        if let Some(m) = read_choice(
            &t,
            "mode",
            &[("tank", DriveMode::Tank), ("arcade", DriveMode::Arcade)],
        )? {
            g.mode = m;
        }
        if let Some(s) = read_choice(
            &t,
            "arcade_stick",
            &[("left", Stick::Left), ("right", Stick::Right)],
        )? {
            g.arcade_stick = s;
        }
        read_f64(&t, "dead_zone", DEAD_ZONE, &mut g.dead_zone)?;
        read_f64(&t, "saturation", SATURATION, &mut g.saturation)?;
        read_f64(&t, "curve", CURVE, &mut g.curve)?;
        read_f64(&t, "turn_gain", TURN_GAIN, &mut g.turn_gain)?;
        read_f64(&t, "rearm_time", REARM_TIME, &mut g.rearm_time)?;
        if let Some(list) = read_list(&t, "deadman", Button::parse, "button", Button::valid_names)?
        {
            g.deadman = single(&t, "deadman", list)?;
        }
        if let Some(b) = t.opt_table("buttons")? {
            for a in Action::ALL {
                if let Some(list) =
                    read_list(&b, a.name(), Button::parse, "button", Button::valid_names)?
                {
                    g.buttons.set(a, list);
                }
            }
            b.finish()?;
            tables.push(("gamepad.buttons".into(), b));
        }
        t.finish()?;
        tables.push(("gamepad".into(), t));
    }
    Ok(())
}

/// The `[keyboard]` table and its `keys`, if any.
fn read_keyboard_table<'f>(
    root: &TableReader<'f>,
    k: &mut KeyboardConfig,
    tables: &mut Vec<(String, TableReader<'f>)>,
) -> Result<(), ConfigError> {
    if let Some(t) = root.opt_table("keyboard")? {
        read_f64(&t, "ramp_time", RAMP_TIME, &mut k.ramp_time)?;
        read_f64(&t, "turn_gain", TURN_GAIN, &mut k.turn_gain)?;
        if let Some(list) = read_list(&t, "deadman", Key::parse, "key", Key::valid_names)? {
            k.deadman = single(&t, "deadman", list)?;
        }
        if let Some(keys) = t.opt_table("keys")? {
            for (name, slot) in [
                ("forward", &mut k.forward),
                ("backward", &mut k.backward),
                ("left", &mut k.left),
                ("right", &mut k.right),
            ] {
                if let Some(list) = read_list(&keys, name, Key::parse, "key", Key::valid_names)? {
                    *slot = list;
                }
            }
            for a in Action::ALL {
                if let Some(list) = read_list(&keys, a.name(), Key::parse, "key", Key::valid_names)?
                {
                    k.keys.set(a, list);
                }
            }
            keys.finish()?;
            tables.push(("keyboard.keys".into(), keys));
        }
        t.finish()?;
        tables.push(("keyboard".into(), t));
    }
    Ok(())
}

/// A rule `validate` found broken, located at its field's table, or — the table absent
/// (defaulted) — at the nearest enclosing table the file has, or the file's start, naming the
/// field.
fn locate(
    root: &TableReader<'_>,
    tables: &[(String, TableReader<'_>)],
    e: MappingError,
) -> ConfigError {
    let (section, key) = e.field.rsplit_once('.').unwrap_or(("", e.field.as_str()));
    if let Some((_, t)) = tables.iter().find(|(p, _)| p == section) {
        return t.error(key, e.message);
    }
    // The field's table is absent (defaulted): point at the nearest enclosing table the
    // file has, or the file's start, and name the field.
    let mut at = section;
    let mut located = loop {
        match at.rsplit_once('.') {
            Some((parent, _)) => at = parent,
            None => break root.table_error(e.message.clone()),
        }
        if let Some((_, t)) = tables.iter().find(|(p, _)| p == at) {
            break t.table_error(e.message.clone());
        }
    };
    located.field = e.field.clone();
    located
}

fn read_f64(
    t: &TableReader<'_>,
    key: &str,
    (lo, hi, open): (f64, f64, bool),
    out: &mut f64,
) -> Result<(), ConfigError> {
    let x = if open {
        t.opt_f64(key, f64::NEG_INFINITY, hi)?
    } else {
        t.opt_f64(key, lo, hi)?
    };
    if let Some(x) = x {
        if open && x <= lo {
            return Err(t.error(
                key,
                format!("must be greater than {lo} and at most {hi}, got {x}"),
            ));
        }
        *out = x;
    }
    Ok(())
}

fn read_deg(
    t: &TableReader<'_>,
    key: &str,
    range: (f64, f64, bool),
    out_rad: &mut f64,
) -> Result<(), ConfigError> {
    let mut deg = out_rad.to_degrees();
    read_f64(t, key, range, &mut deg)?;
    if t.has(key) {
        *out_rad = deg.to_radians();
    }
    Ok(())
}

fn read_choice<T: Copy>(
    t: &TableReader<'_>,
    key: &str,
    choices: &[(&str, T)],
) -> Result<Option<T>, ConfigError> {
    let Some(s) = t.opt_str(key)? else {
        return Ok(None);
    };
    match choices
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s.trim()))
    {
        Some((_, v)) => Ok(Some(*v)),
        None => {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            Err(t.error(
                key,
                format!("unknown value \"{s}\" (expected {})", names.join(" or ")),
            ))
        }
    }
}

/// A binding: one string naming inputs separated by commas (`"W, Up"`); `""` or `"none"`
/// binds nothing.
fn read_list<T>(
    t: &TableReader<'_>,
    key: &str,
    parse: fn(&str) -> Option<T>,
    what: &str,
    valid: fn() -> String,
) -> Result<Option<Vec<T>>, ConfigError> {
    if t.is_array(key) {
        return Err(t.error(
            key,
            "expected a string: write alternatives in one string separated by commas, \
             e.g. \"W, Up\"",
        ));
    }
    let Some(s) = t.opt_str(key)? else {
        return Ok(None);
    };
    if s.trim().is_empty() || s.trim().eq_ignore_ascii_case("none") {
        return Ok(Some(Vec::new()));
    }
    let mut out = Vec::new();
    for name in s.split(',') {
        let name = name.trim();
        if name.is_empty() {
            return Err(t.error(key, format!("empty {what} name in \"{s}\"")));
        }
        match parse(name) {
            Some(v) => out.push(v),
            None => {
                return Err(t.error(
                    key,
                    format!(
                        "unknown {what} \"{name}\"; valid {what}s: {}, or \"none\"",
                        valid()
                    ),
                ))
            }
        }
    }
    Ok(Some(out))
}

fn single<T>(t: &TableReader<'_>, key: &str, mut list: Vec<T>) -> Result<Option<T>, ConfigError> {
    if list.len() > 1 {
        return Err(t.error(key, "a dead-man is one input, or \"none\""));
    }
    Ok(list.pop())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MappingConfig, ConfigError> {
        mapping_from_source(&SourceFile::from_text(
            Path::new("m.toml"),
            text.to_string(),
        ))
    }

    #[test]
    fn the_default_is_valid_and_an_empty_file_is_the_default() {
        MappingConfig::default().validate().unwrap();
        assert_eq!(parse("").unwrap(), MappingConfig::default());
    }

    #[test]
    fn lists_aliases_none_and_degrees_are_read() {
        let cfg = parse(
            "[gamepad]\nmode = \"Tank\"\ndeadman = \"LB\"\n[gamepad.buttons]\ncamera_next = \
             \"RB, DPadRight\"\nslow = \"none\"\n[flipper]\nrate_deg = 90\n",
        )
        .unwrap();
        assert_eq!(cfg.gamepad.mode, DriveMode::Tank);
        assert_eq!(cfg.gamepad.deadman, Some(Button::LeftBumper));
        assert_eq!(
            cfg.gamepad.buttons.get(Action::CameraNext),
            [Button::RightBumper, Button::DPadRight]
        );
        assert!(cfg.gamepad.buttons.get(Action::Slow).is_empty());
        assert!((cfg.flipper.rate - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        // Untouched fields keep the default.
        assert_eq!(cfg.flipper.max_angle, FlipperConfig::default().max_angle);
    }

    #[test]
    fn rules_broken_by_a_defaulted_section_name_the_field() {
        let mut cfg = MappingConfig::default();
        cfg.drive.stop_threshold = cfg.drive.start_threshold;
        let e = cfg.validate().unwrap_err();
        assert_eq!(e.field, "drive.stop_threshold");
        // Binding the dead-man to the slow button is refused.
        let e = parse("[gamepad]\ndeadman = \"RightBumper\"\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (1, "gamepad.buttons.slow"));
        assert!(
            e.message.contains("already bound to gamepad.deadman"),
            "{e}"
        );
    }
}
