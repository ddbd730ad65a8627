//! Scene generators: a compact description and a seed → a scene file (TOML text) in the
//! library's format, deterministic by seed, its dimensions drawn within the codes real places
//! are built to. The text is what `treadsim scene generate` writes; it loads like any scene.

pub mod building;
