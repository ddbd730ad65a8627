//! The operator's devices as plain data: buttons, keys, axes, a snapshot of them all
//! ([`RawInput`]) and the events that change it ([`InputEvent`]).
//!
//! Nothing here knows about gilrs or the window system: the gamepad adapter
//! (`input::gamepad`, feature `viewer`) and the viewer's keyboard handler translate their
//! events into [`InputEvent`]s, and tests script the same events without any device.

use std::marker::PhantomData;

use std::fmt;

/// Defines a fieldless enum with its list of variants and the names used in mapping files.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every variant, in declaration order (the order of the bit sets).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used in mapping files.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// Position in [`Self::ALL`].
            pub fn index(self) -> usize {
                self as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// A gamepad button, standard (Xbox-style) layout. Names follow the position, with the
    /// Xbox label in the docs: the mapping file also accepts the Xbox labels as aliases
    /// (see [`Button::parse`]).
    pub enum Button {
        /// Bottom face button: Xbox A.
        South = "South",
        /// Right face button: Xbox B.
        East = "East",
        /// Left face button: Xbox X.
        West = "West",
        /// Top face button: Xbox Y.
        North = "North",
        /// Left shoulder button: Xbox LB.
        LeftBumper = "LeftBumper",
        /// Right shoulder button: Xbox RB.
        RightBumper = "RightBumper",
        /// Left analog trigger used as a button: pressed when its axis is ≥
        /// [`TRIGGER_PRESSED`] (or when a `ButtonDown` says so). Xbox LT.
        LeftTrigger = "LeftTrigger",
        /// Right analog trigger used as a button. Xbox RT.
        RightTrigger = "RightTrigger",
        /// Left menu button: Xbox Back / View.
        Select = "Select",
        /// Right menu button: Xbox Start / Menu.
        Start = "Start",
        /// D-pad up.
        DPadUp = "DPadUp",
        /// D-pad down.
        DPadDown = "DPadDown",
        /// D-pad left.
        DPadLeft = "DPadLeft",
        /// D-pad right.
        DPadRight = "DPadRight",
        /// Left stick pressed in: Xbox LS.
        LeftStick = "LeftStick",
        /// Right stick pressed in: Xbox RS.
        RightStick = "RightStick",
    }
}

/// Trigger value at or above which an analog trigger counts as a pressed button.
pub const TRIGGER_PRESSED: f64 = 0.5;

impl Button {
    /// Xbox labels accepted as aliases in mapping files, with the button they name.
    pub const ALIASES: &'static [(&'static str, Button)] = &[
        ("A", Button::South),
        ("B", Button::East),
        ("X", Button::West),
        ("Y", Button::North),
        ("LB", Button::LeftBumper),
        ("RB", Button::RightBumper),
        ("LT", Button::LeftTrigger),
        ("RT", Button::RightTrigger),
        ("Back", Button::Select),
        ("View", Button::Select),
        ("Menu", Button::Start),
        ("LS", Button::LeftStick),
        ("RS", Button::RightStick),
    ];

    /// The button named `name` (a [`Button::name`] or an Xbox alias), ignoring case.
    pub fn parse(name: &str) -> Option<Button> {
        let name = name.trim();
        Self::ALL
            .iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
            .copied()
            .or_else(|| {
                Self::ALIASES
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(name))
                    .map(|(_, b)| *b)
            })
    }

    /// Every accepted name, for error messages: `South (A), East (B), …`.
    pub fn valid_names() -> String {
        Self::ALL
            .iter()
            .map(|b| {
                let aliases: Vec<&str> = Self::ALIASES
                    .iter()
                    .filter(|(_, a)| a == b)
                    .map(|(n, _)| *n)
                    .collect();
                if aliases.is_empty() {
                    b.name().to_string()
                } else {
                    format!("{} ({})", b.name(), aliases.join("/"))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

named_enum! {
    /// A keyboard key, by its position on a US layout (the viewer translates its key codes).
    // Each variant is the key it names.
    #[allow(missing_docs)]
    pub enum Key {
        A = "A", B = "B", C = "C", D = "D", E = "E", F = "F", G = "G", H = "H", I = "I",
        J = "J", K = "K", L = "L", M = "M", N = "N", O = "O", P = "P", Q = "Q", R = "R",
        S = "S", T = "T", U = "U", V = "V", W = "W", X = "X", Y = "Y", Z = "Z",
        /// Digit keys of the main row.
        Digit0 = "0", Digit1 = "1", Digit2 = "2", Digit3 = "3", Digit4 = "4",
        Digit5 = "5", Digit6 = "6", Digit7 = "7", Digit8 = "8", Digit9 = "9",
        Space = "Space", Tab = "Tab", Enter = "Enter", Escape = "Escape",
        Backspace = "Backspace", Insert = "Insert", Delete = "Delete", Home = "Home",
        End = "End", PageUp = "PageUp", PageDown = "PageDown",
        /// Arrow keys.
        Up = "Up", Down = "Down", Left = "Left", Right = "Right",
        LShift = "LShift", RShift = "RShift", LControl = "LControl", RControl = "RControl",
        LAlt = "LAlt", RAlt = "RAlt",
        Minus = "Minus", Equals = "Equals", Comma = "Comma", Period = "Period",
        Slash = "Slash", Semicolon = "Semicolon",
        F1 = "F1", F2 = "F2", F3 = "F3", F4 = "F4", F5 = "F5", F6 = "F6",
        F7 = "F7", F8 = "F8", F9 = "F9", F10 = "F10", F11 = "F11", F12 = "F12",
    }
}

impl Key {
    /// The key named `name` ([`Key::name`]), ignoring case.
    pub fn parse(name: &str) -> Option<Key> {
        let name = name.trim();
        Self::ALL
            .iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .copied()
    }

    /// Every accepted name, for error messages.
    pub fn valid_names() -> String {
        Self::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

const _: () = assert!(Button::ALL.len() <= 128 && Key::ALL.len() <= 128);

/// What an [`InputSet`] holds: gamepad buttons or keyboard keys, each with its index.
pub trait SetMember: Copy + 'static {
    /// Every member, in index order.
    const MEMBERS: &'static [Self];
    /// The member's bit, 0..128.
    fn bit(self) -> usize;
}

impl SetMember for Button {
    const MEMBERS: &'static [Self] = Button::ALL;
    fn bit(self) -> usize {
        self.index()
    }
}

impl SetMember for Key {
    const MEMBERS: &'static [Self] = Key::ALL;
    fn bit(self) -> usize {
        self.index()
    }
}

/// A set of buttons or of keys: the one bit set of the input code (`Copy`, no allocation).
pub struct InputSet<T> {
    bits: u128,
    of: PhantomData<T>,
}

/// A set of gamepad buttons.
pub type ButtonSet = InputSet<Button>;

/// A set of keyboard keys.
pub type KeySet = InputSet<Key>;

impl<T: SetMember> InputSet<T> {
    /// The empty set.
    pub const EMPTY: Self = Self {
        bits: 0,
        of: PhantomData,
    };

    /// Adds a member.
    pub fn insert(&mut self, m: T) {
        self.bits |= 1 << m.bit();
    }

    /// Removes a member.
    pub fn remove(&mut self, m: T) {
        self.bits &= !(1 << m.bit());
    }

    /// Whether the set holds `m`.
    pub fn contains(&self, m: T) -> bool {
        self.bits & (1 << m.bit()) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// The members in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        T::MEMBERS.iter().copied().filter(|m| self.contains(*m))
    }
}

// By hand, not derived: a derive would ask the members for each trait, and a set of them is
// `Copy`, comparable and hashable whatever they are.
impl<T> Clone for InputSet<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for InputSet<T> {}

impl<T> PartialEq for InputSet<T> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}

impl<T> Eq for InputSet<T> {}

impl<T> std::hash::Hash for InputSet<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}

impl<T: SetMember> Default for InputSet<T> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<T: SetMember + std::fmt::Debug> std::fmt::Debug for InputSet<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: SetMember> FromIterator<T> for InputSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = Self::EMPTY;
        for m in iter {
            s.insert(m);
        }
        s
    }
}

/// An analog axis of the gamepad.
///
/// Sticks are in [-1, 1] with **x positive to the right and y positive up (pushed away from
/// the operator)**; triggers are in [0, 1], 0 released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AxisId {
    /// Left stick, x (right +).
    LeftX,
    /// Left stick, y (up/forward +).
    LeftY,
    /// Right stick, x (right +).
    RightX,
    /// Right stick, y (up/forward +).
    RightY,
    /// Left trigger, 0..1.
    LeftTrigger,
    /// Right trigger, 0..1.
    RightTrigger,
}

impl AxisId {
    /// Every axis.
    pub const ALL: [AxisId; 6] = [
        AxisId::LeftX,
        AxisId::LeftY,
        AxisId::RightX,
        AxisId::RightY,
        AxisId::LeftTrigger,
        AxisId::RightTrigger,
    ];

    /// The range a value of this axis is clamped to.
    pub fn range(self) -> (f64, f64) {
        match self {
            AxisId::LeftTrigger | AxisId::RightTrigger => (0.0, 1.0),
            _ => (-1.0, 1.0),
        }
    }
}

/// Something that happened on the operator's devices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InputEvent {
    /// The gamepad became available (also sent once at start for a pad already plugged in).
    Connected,
    /// The gamepad went away: its axes and buttons read as released from now on.
    Disconnected,
    /// An axis moved to a new value (clamped to [`AxisId::range`]; NaN reads as 0).
    Axis(AxisId, f64),
    /// A gamepad button was pressed.
    ButtonDown(Button),
    /// A gamepad button was released.
    ButtonUp(Button),
    /// A key was pressed (repeats are harmless).
    KeyDown(Key),
    /// A key was released.
    KeyUp(Key),
    /// Every key reads as released: send it when the window loses focus, since the key-up
    /// events of keys released elsewhere never arrive.
    AllKeysUp,
}

/// A snapshot of the operator's devices: what is held and where the sticks are.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RawInput {
    /// Whether a gamepad is attached and in use. While false the pad's axes and buttons are
    /// ignored by the mapping, whatever they hold.
    pub connected: bool,
    /// Left stick x, [-1, 1], right +.
    pub left_x: f64,
    /// Left stick y, [-1, 1], up (forward) +.
    pub left_y: f64,
    /// Right stick x, [-1, 1], right +.
    pub right_x: f64,
    /// Right stick y, [-1, 1], up (forward) +.
    pub right_y: f64,
    /// Left trigger, [0, 1].
    pub left_trigger: f64,
    /// Right trigger, [0, 1].
    pub right_trigger: f64,
    /// Gamepad buttons held.
    pub buttons: ButtonSet,
    /// Keyboard keys held.
    pub keys: KeySet,
}

impl RawInput {
    /// No pad, nothing held.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of an axis.
    pub fn axis(&self, id: AxisId) -> f64 {
        match id {
            AxisId::LeftX => self.left_x,
            AxisId::LeftY => self.left_y,
            AxisId::RightX => self.right_x,
            AxisId::RightY => self.right_y,
            AxisId::LeftTrigger => self.left_trigger,
            AxisId::RightTrigger => self.right_trigger,
        }
    }

    /// Sets an axis, clamped to its range; NaN sets 0.
    pub fn set_axis(&mut self, id: AxisId, value: f64) {
        let (lo, hi) = id.range();
        let v = if value.is_nan() {
            0.0
        } else {
            value.clamp(lo, hi)
        };
        match id {
            AxisId::LeftX => self.left_x = v,
            AxisId::LeftY => self.left_y = v,
            AxisId::RightX => self.right_x = v,
            AxisId::RightY => self.right_y = v,
            AxisId::LeftTrigger => self.left_trigger = v,
            AxisId::RightTrigger => self.right_trigger = v,
        }
    }

    /// Whether a gamepad button is held: in the button set, or for a trigger also when its
    /// axis is at least [`TRIGGER_PRESSED`]. Ignores `connected`.
    pub fn button_down(&self, b: Button) -> bool {
        self.buttons.contains(b)
            || match b {
                Button::LeftTrigger => self.left_trigger >= TRIGGER_PRESSED,
                Button::RightTrigger => self.right_trigger >= TRIGGER_PRESSED,
                _ => false,
            }
    }

    /// Whether a key is held.
    pub fn key_down(&self, k: Key) -> bool {
        self.keys.contains(k)
    }

    /// Releases every pad axis and button (keys are kept).
    pub fn clear_pad(&mut self) {
        *self = RawInput {
            connected: self.connected,
            keys: self.keys,
            ..RawInput::default()
        };
    }

    /// Applies one event.
    pub fn apply(&mut self, event: &InputEvent) {
        match *event {
            InputEvent::Connected => self.connected = true,
            InputEvent::Disconnected => {
                self.connected = false;
                self.clear_pad();
            }
            InputEvent::Axis(id, v) => self.set_axis(id, v),
            InputEvent::ButtonDown(b) => self.buttons.insert(b),
            InputEvent::ButtonUp(b) => self.buttons.remove(b),
            InputEvent::KeyDown(k) => self.keys.insert(k),
            InputEvent::KeyUp(k) => self.keys.remove(k),
            InputEvent::AllKeysUp => self.keys = KeySet::EMPTY,
        }
    }

    /// Applies events in order.
    pub fn apply_all<'a>(&mut self, events: impl IntoIterator<Item = &'a InputEvent>) {
        for e in events {
            self.apply(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_resolve() {
        for b in Button::ALL {
            assert_eq!(Button::parse(b.name()), Some(*b));
        }
        for k in Key::ALL {
            assert_eq!(Key::parse(k.name()), Some(*k));
            assert_eq!(Key::parse(&k.name().to_lowercase()), Some(*k));
        }
        assert_eq!(Button::parse("a"), Some(Button::South));
        assert_eq!(Button::parse("RB"), Some(Button::RightBumper));
        assert_eq!(Button::parse("back"), Some(Button::Select));
        assert_eq!(Button::parse("Trigger"), None);
        assert_eq!(Key::parse("Shift"), None);
        assert!(Button::valid_names().starts_with("South (A), East (B)"));
    }

    #[test]
    fn sets_hold_every_member_independently() {
        let mut keys = KeySet::EMPTY;
        for k in Key::ALL {
            keys.insert(*k);
        }
        assert_eq!(keys.iter().count(), Key::ALL.len());
        keys.remove(Key::F12);
        assert!(!keys.contains(Key::F12) && keys.contains(Key::F11));
        let buttons: ButtonSet = [Button::South, Button::RightStick].into_iter().collect();
        assert_eq!(
            buttons.iter().collect::<Vec<_>>(),
            [Button::South, Button::RightStick]
        );
    }

    #[test]
    fn events_update_the_snapshot_and_disconnect_clears_the_pad() {
        let mut raw = RawInput::new();
        raw.apply_all(&[
            InputEvent::Connected,
            InputEvent::Axis(AxisId::LeftY, 1.7),
            InputEvent::Axis(AxisId::RightTrigger, -0.3),
            InputEvent::Axis(AxisId::RightX, f64::NAN),
            InputEvent::ButtonDown(Button::North),
            InputEvent::KeyDown(Key::W),
        ]);
        assert!(raw.connected);
        assert_eq!(raw.left_y, 1.0);
        assert_eq!(raw.right_trigger, 0.0);
        assert_eq!(raw.right_x, 0.0);
        assert!(raw.button_down(Button::North));
        raw.apply(&InputEvent::Axis(AxisId::LeftTrigger, 0.5));
        assert!(raw.button_down(Button::LeftTrigger));
        raw.apply(&InputEvent::Disconnected);
        assert!(!raw.connected);
        assert_eq!(raw.left_y, 0.0);
        assert!(raw.buttons.is_empty());
        assert!(raw.key_down(Key::W), "keys survive a pad disconnect");
        raw.apply(&InputEvent::AllKeysUp);
        assert!(raw.keys.is_empty());
    }
}
