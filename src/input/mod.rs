//! Operator input: gamepad and keyboard → a pure mapping →
//! [`DriveCommand`](crate::vehicle::DriveCommand).
//!
//! Data flows one way:
//!
//! ```text
//! devices ──(adapter / viewer)──▶ InputEvent ──RawInput::apply──▶ RawInput
//!     ──InputMapper::update(raw, dt)──▶ MappedInput { drive, actions, status }
//! ```
//!
//! - [`raw`]: the devices as plain data — [`Button`], [`Key`], [`AxisId`], the snapshot
//!   [`RawInput`] and the [`InputEvent`]s that change it.
//! - [`mapping`]: the pure mapping — dead zones, response curve, tank/arcade mixing,
//!   hysteresis, keyboard ramps, speed limit, flipper target, dead-man and disconnect rules,
//!   edge-triggered one-shot [`Actions`]. No device, no clock: tests script events.
//! - [`settings`]: [`MappingConfig`], its documented default and its rules.
//! - [`mapping_file`]: [`load_mapping`] for `scenes/input/*.toml` (see
//!   `scenes/input/README.md`).
//! - `gamepad` (feature `viewer`): `GamepadAdapter`, the only code that touches gilrs; it
//!   turns gilrs events into [`InputEvent`]s and holds no mapping logic.
//!
//! Units: stick axes in [-1, 1] (x right +, y up/forward +), triggers in [0, 1]; the output
//! belt speeds in m/s (positive forward) and the flipper target in rad (positive raises the
//! tips). The station calls [`InputMapper::update`] once per physics step, which is what makes
//! "a lost pad or a released dead-man stops the robot within one step" hold.

pub mod arm_mapping;
#[cfg(feature = "viewer")]
pub mod gamepad;
pub mod mapping;
pub mod mapping_file;
pub mod raw;
pub mod settings;

pub use arm_mapping::{ArmRequest, ArmRequestMotion, ControlMode};
#[cfg(feature = "viewer")]
pub use gamepad::GamepadAdapter;
pub use mapping::{
    hysteresis, mix_arcade, pad_demand, ramp_toward, shape_axis, shape_stick, Actions, InputMapper,
    MappedInput, PadState, Source, Status,
};
pub use mapping_file::{load_mapping, mapping_from_source};
pub use raw::{
    AxisId, Button, ButtonSet, InputEvent, InputSet, Key, KeySet, RawInput, SetMember,
    TRIGGER_PRESSED,
};
pub use settings::{
    Action, ArmInputConfig, Bindings, DriveConfig, DriveMode, FlipperConfig, GamepadConfig,
    KeyboardConfig, MappingConfig, MappingError, SlowMode, Stick,
};
