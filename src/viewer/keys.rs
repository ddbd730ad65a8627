//! kiss3d window events → [`InputEvent`]s of the input module.
//!
//! Only keys the mapping can name are translated; everything else (mouse, numpad, media keys)
//! is the window's business. Losing focus releases every key, because the key-up of a key let
//! go in another window never arrives and the robot would keep driving.

use kiss3d::event::{Action, Key as K, WindowEvent};

use crate::input::{InputEvent, Key};

/// The input module's key for a kiss3d key code, if it has one.
pub fn translate_key(key: K) -> Option<Key> {
    Some(match key {
        K::A => Key::A,
        K::B => Key::B,
        K::C => Key::C,
        K::D => Key::D,
        K::E => Key::E,
        K::F => Key::F,
        K::G => Key::G,
        K::H => Key::H,
        K::I => Key::I,
        K::J => Key::J,
        K::K => Key::K,
        K::L => Key::L,
        K::M => Key::M,
        K::N => Key::N,
        K::O => Key::O,
        K::P => Key::P,
        K::Q => Key::Q,
        K::R => Key::R,
        K::S => Key::S,
        K::T => Key::T,
        K::U => Key::U,
        K::V => Key::V,
        K::W => Key::W,
        K::X => Key::X,
        K::Y => Key::Y,
        K::Z => Key::Z,
        K::Key0 => Key::Digit0,
        K::Key1 => Key::Digit1,
        K::Key2 => Key::Digit2,
        K::Key3 => Key::Digit3,
        K::Key4 => Key::Digit4,
        K::Key5 => Key::Digit5,
        K::Key6 => Key::Digit6,
        K::Key7 => Key::Digit7,
        K::Key8 => Key::Digit8,
        K::Key9 => Key::Digit9,
        K::Space => Key::Space,
        K::Tab => Key::Tab,
        K::Return | K::NumpadEnter => Key::Enter,
        K::Escape => Key::Escape,
        K::Back => Key::Backspace,
        K::Insert => Key::Insert,
        K::Delete => Key::Delete,
        K::Home => Key::Home,
        K::End => Key::End,
        K::PageUp => Key::PageUp,
        K::PageDown => Key::PageDown,
        K::Up => Key::Up,
        K::Down => Key::Down,
        K::Left => Key::Left,
        K::Right => Key::Right,
        K::LShift => Key::LShift,
        K::RShift => Key::RShift,
        K::LControl => Key::LControl,
        K::RControl => Key::RControl,
        K::LAlt => Key::LAlt,
        K::RAlt => Key::RAlt,
        K::Minus => Key::Minus,
        K::Equals => Key::Equals,
        K::Comma => Key::Comma,
        K::Period => Key::Period,
        K::Slash => Key::Slash,
        K::Semicolon => Key::Semicolon,
        K::F1 => Key::F1,
        K::F2 => Key::F2,
        K::F3 => Key::F3,
        K::F4 => Key::F4,
        K::F5 => Key::F5,
        K::F6 => Key::F6,
        K::F7 => Key::F7,
        K::F8 => Key::F8,
        K::F9 => Key::F9,
        K::F10 => Key::F10,
        K::F11 => Key::F11,
        K::F12 => Key::F12,
        _ => return None,
    })
}

/// The input event of a window event, if it is one the mapping cares about: key presses and
/// releases, and focus loss (→ [`InputEvent::AllKeysUp`]).
pub fn translate_event(event: &WindowEvent) -> Option<InputEvent> {
    match *event {
        WindowEvent::Key(key, Action::Press, _) => translate_key(key).map(InputEvent::KeyDown),
        WindowEvent::Key(key, Action::Release, _) => translate_key(key).map(InputEvent::KeyUp),
        WindowEvent::Focus(false) => Some(InputEvent::AllKeysUp),
        _ => None,
    }
}
