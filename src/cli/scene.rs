//! `treadsim scene generate …`: scene generators (a compact description → a scene file).

use std::path::PathBuf;

use anyhow::Context;
use treadsim::scene::generate::building::{self, BuildingSpec};

/// `treadsim scene`.
#[derive(clap::Args)]
pub struct SceneArgs {
    #[command(subcommand)]
    command: SceneCommand,
}

#[derive(clap::Subcommand)]
enum SceneCommand {
    /// Generate a scene file from a compact description, deterministic by seed.
    Generate {
        #[command(subcommand)]
        family: Family,
    },
}

#[derive(clap::Subcommand)]
enum Family {
    /// An office building: a corridor with rooms on every floor and a half-turn stair core
    /// (risers, goings, widths and landings per the International Building Code), e.g.
    /// `treadsim scene generate building --floors 3 --seed 7 --out office.toml`.
    Building {
        /// Floors, the ground floor included (2 to 8).
        #[arg(long, default_value_t = 3)]
        floors: u32,
        /// Seed of every drawn dimension: the same seed gives the same building.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Loose bricks on the ground floor's first flight.
        #[arg(long)]
        debris: bool,
        /// A door in every room's doorway, each open, shut by a closer or latched (its lever
        /// handle turned with an arm), drawn from the seed.
        #[arg(long)]
        doors: bool,
        /// The scene file to write (its folder is made); `-` for standard output.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs `treadsim scene`.
pub fn scene_command(a: &SceneArgs) -> anyhow::Result<()> {
    let SceneCommand::Generate { family } = &a.command;
    let Family::Building {
        floors,
        seed,
        debris,
        doors,
        out,
    } = family;
    let text = building::generate(BuildingSpec {
        floors: *floors,
        seed: *seed,
        debris: *debris,
        doors: *doors,
    })?;
    if out.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
