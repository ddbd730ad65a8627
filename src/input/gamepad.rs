//! The gilrs adapter: the only code in treadsim that touches gilrs. It turns gilrs events of
//! one active gamepad into [`InputEvent`]s and does nothing else; all decisions (dead zones,
//! disconnect stop, re-arming) belong to the pure mapping.
//!
//! - `Gilrs::new()` failing (no udev, unsupported platform) is normal: the adapter says so
//!   once on stderr and reports no events; the keyboard still drives.
//! - Pads already plugged in at start produce no gilrs `Connected` event: the adapter
//!   enumerates them once and reports `Connected` plus the active pad's current state on the
//!   first [`GamepadAdapter::poll`].
//! - One pad is active at a time: the first connected one. When it disconnects the adapter
//!   reports `Disconnected` and switches to another connected pad if there is one (reported as
//!   `Connected` + its state: the mapping then waits for its sticks to be centred).
//! - "Its state" is gilrs's cached state, which is empty (all centred, nothing pressed) for a
//!   pad that has not reported anything yet: gilrs does not read a freshly opened pad's axes,
//!   so a stick held at start shows up with its first movement (a held stick jitters within
//!   milliseconds). The mapping's `rearm_time` covers that gap.

use gilrs::{Axis, EventType, GamepadId, Gilrs};

use super::raw::{AxisId, Button, InputEvent};

/// gilrs, the active pad, and the events waiting to be reported.
pub struct GamepadAdapter {
    gilrs: Option<Gilrs>,
    active: Option<GamepadId>,
    pending: Vec<InputEvent>,
}

impl std::fmt::Debug for GamepadAdapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GamepadAdapter")
            .field("available", &self.gilrs.is_some())
            .field("active", &self.active)
            .finish()
    }
}

impl Default for GamepadAdapter {
    fn default() -> Self {
        Self::new()
    }
}

impl GamepadAdapter {
    /// Opens gilrs and picks the first pad already connected, if any.
    pub fn new() -> Self {
        let gilrs = match Gilrs::new() {
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("treadsim: no gamepad support ({e}); keyboard only");
                None
            }
        };
        let mut adapter = Self {
            gilrs,
            active: None,
            pending: Vec::new(),
        };
        adapter.activate_any();
        adapter
    }

    /// Whether gilrs is running (false: keyboard only).
    pub fn is_available(&self) -> bool {
        self.gilrs.is_some()
    }

    /// Name of the active pad, if one is connected.
    pub fn active_name(&self) -> Option<String> {
        let (g, id) = (self.gilrs.as_ref()?, self.active?);
        Some(g.gamepad(id).name().to_string())
    }

    /// Appends the events since the last call to `out` (call it once per frame or step,
    /// before [`RawInput::apply`](super::RawInput::apply)).
    pub fn poll(&mut self, out: &mut Vec<InputEvent>) {
        out.append(&mut self.pending);
        let Some(gilrs) = self.gilrs.as_mut() else {
            return;
        };
        let mut lost_active = false;
        while let Some(ev) = gilrs.next_event() {
            if self.active.is_none() && ev.event == EventType::Connected {
                self.active = Some(ev.id);
                out.push(InputEvent::Connected);
                snapshot(gilrs, ev.id, out);
                continue;
            }
            if Some(ev.id) != self.active {
                continue;
            }
            match ev.event {
                EventType::Disconnected => {
                    out.push(InputEvent::Disconnected);
                    self.active = None;
                    lost_active = true;
                }
                EventType::AxisChanged(axis, v, _) => {
                    if let Some(id) = axis_id(axis) {
                        out.push(InputEvent::Axis(id, f64::from(v)));
                    }
                }
                EventType::ButtonChanged(b, v, _) => {
                    if let Some(id) = trigger_axis(b) {
                        out.push(InputEvent::Axis(id, f64::from(v)));
                    }
                }
                EventType::ButtonPressed(b, _) => {
                    if let Some(b) = button(b) {
                        out.push(InputEvent::ButtonDown(b));
                    }
                }
                EventType::ButtonReleased(b, _) => {
                    if let Some(b) = button(b) {
                        out.push(InputEvent::ButtonUp(b));
                    }
                }
                _ => {}
            }
        }
        if lost_active {
            self.activate_any();
            out.append(&mut self.pending);
        }
    }

    /// Makes the first connected pad active and queues `Connected` + its state.
    fn activate_any(&mut self) {
        let Some(gilrs) = self.gilrs.as_ref() else {
            return;
        };
        if let Some((id, _)) = gilrs.gamepads().next() {
            self.active = Some(id);
            self.pending.push(InputEvent::Connected);
            snapshot(gilrs, id, &mut self.pending);
        }
    }
}

/// The pad's current axes and held buttons as events.
fn snapshot(gilrs: &Gilrs, id: GamepadId, out: &mut Vec<InputEvent>) {
    let pad = gilrs.gamepad(id);
    for axis in [
        Axis::LeftStickX,
        Axis::LeftStickY,
        Axis::RightStickX,
        Axis::RightStickY,
    ] {
        if let Some(a) = axis_id(axis) {
            out.push(InputEvent::Axis(a, f64::from(pad.value(axis))));
        }
    }
    for b in [gilrs::Button::LeftTrigger2, gilrs::Button::RightTrigger2] {
        if let (Some(a), Some(data)) = (trigger_axis(b), pad.button_data(b)) {
            out.push(InputEvent::Axis(a, f64::from(data.value())));
        }
    }
    for b in GILRS_BUTTONS {
        if pad.is_pressed(b) {
            if let Some(ours) = button(b) {
                out.push(InputEvent::ButtonDown(ours));
            }
        }
    }
}

const GILRS_BUTTONS: [gilrs::Button; 16] = [
    gilrs::Button::South,
    gilrs::Button::East,
    gilrs::Button::West,
    gilrs::Button::North,
    gilrs::Button::LeftTrigger,
    gilrs::Button::RightTrigger,
    gilrs::Button::LeftTrigger2,
    gilrs::Button::RightTrigger2,
    gilrs::Button::Select,
    gilrs::Button::Start,
    gilrs::Button::DPadUp,
    gilrs::Button::DPadDown,
    gilrs::Button::DPadLeft,
    gilrs::Button::DPadRight,
    gilrs::Button::LeftThumb,
    gilrs::Button::RightThumb,
];

fn axis_id(a: Axis) -> Option<AxisId> {
    match a {
        Axis::LeftStickX => Some(AxisId::LeftX),
        Axis::LeftStickY => Some(AxisId::LeftY),
        Axis::RightStickX => Some(AxisId::RightX),
        Axis::RightStickY => Some(AxisId::RightY),
        _ => None,
    }
}

/// gilrs reports analog triggers as buttons with a value.
fn trigger_axis(b: gilrs::Button) -> Option<AxisId> {
    match b {
        gilrs::Button::LeftTrigger2 => Some(AxisId::LeftTrigger),
        gilrs::Button::RightTrigger2 => Some(AxisId::RightTrigger),
        _ => None,
    }
}

/// gilrs names the bumpers `LeftTrigger`/`RightTrigger` and the triggers `…Trigger2`.
fn button(b: gilrs::Button) -> Option<Button> {
    use gilrs::Button as G;
    Some(match b {
        G::South => Button::South,
        G::East => Button::East,
        G::West => Button::West,
        G::North => Button::North,
        G::LeftTrigger => Button::LeftBumper,
        G::RightTrigger => Button::RightBumper,
        G::LeftTrigger2 => Button::LeftTrigger,
        G::RightTrigger2 => Button::RightTrigger,
        G::Select => Button::Select,
        G::Start => Button::Start,
        G::DPadUp => Button::DPadUp,
        G::DPadDown => Button::DPadDown,
        G::DPadLeft => Button::DPadLeft,
        G::DPadRight => Button::DPadRight,
        G::LeftThumb => Button::LeftStick,
        G::RightThumb => Button::RightStick,
        _ => return None,
    })
}
