//! Text rendering.

pub use crate::text::font::Font;
pub use crate::text::glyph::Glyph;
pub use crate::text::renderer::TextRenderer;

mod font;
mod glyph;
mod renderer;
