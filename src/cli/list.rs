//! `treadsim list [exercises|robots|scenes]`: what the library holds, one line each — the
//! name to give (`--exercise stairs_35`), a one-line description and the file.

use std::io::Write;
use std::path::Path;

use super::toml_files;
use treadsim::config::SourceFile;
use treadsim::launch::EXERCISE_FOLDER;

/// What to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ListKind {
    /// Exercise files (scored trials).
    Exercises,
    /// Robot files.
    Robots,
    /// Scene files.
    Scenes,
}

impl ListKind {
    /// The kind's name, plural, as the headings say it.
    fn name(self) -> &'static str {
        match self {
            ListKind::Exercises => "exercises",
            ListKind::Robots => "robots",
            ListKind::Scenes => "scenes",
        }
    }

    /// The library folder and the top-level table whose `description` describes a file.
    fn folder_and_table(self) -> (&'static str, &'static str) {
        match self {
            ListKind::Exercises => (EXERCISE_FOLDER, "exercise"),
            ListKind::Robots => ("scenes/robots", "robot"),
            ListKind::Scenes => ("scenes", "scene"),
        }
    }
}

/// Arguments of `treadsim list`.
#[derive(clap::Args)]
pub struct ListArgs {
    /// What to list [default: all three].
    kind: Option<ListKind>,
}

/// Longest description shown, characters.
const DESCRIPTION_WIDTH: usize = 72;

/// Runs `treadsim list`.
pub fn list_command(a: &ListArgs) -> anyhow::Result<()> {
    write_list(a, &mut std::io::stdout().lock())
}

fn write_list(a: &ListArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let kinds = match a.kind {
        Some(kind) => vec![kind],
        None => vec![ListKind::Exercises, ListKind::Robots, ListKind::Scenes],
    };
    for kind in kinds {
        let (folder, table) = kind.folder_and_table();
        writeln!(out, "{} in {folder}/:", kind.name())?;
        for file in toml_files(Path::new(folder))? {
            let name = file
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            let text = describe(&file, table);
            writeln!(
                out,
                "  {name:<22} {text:<width$}  {}",
                file.display(),
                width = DESCRIPTION_WIDTH
            )?;
        }
    }
    Ok(())
}

/// One line about a file: its `[table]`'s description, else its first comment line, cut to
/// [`DESCRIPTION_WIDTH`]; a file that does not parse says so.
fn describe(path: &Path, table: &str) -> String {
    let text = match SourceFile::read(path) {
        Ok(file) => match file.parse() {
            Ok(root) => root
                .opt_table(table)
                .ok()
                .flatten()
                .and_then(|t| t.opt_str("description").ok().flatten())
                .filter(|d| !d.trim().is_empty())
                .or_else(|| first_comment(&std::fs::read_to_string(path).unwrap_or_default())),
            Err(e) => Some(format!("(invalid: {})", e.message)),
        },
        Err(e) => Some(format!("(unreadable: {})", e.message)),
    };
    one_line(&text.unwrap_or_default(), DESCRIPTION_WIDTH)
}

/// The file's first comment line, without its `#`.
fn first_comment(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix('#'))
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
}

/// `text` on one line, at most `width` characters (cut with an ellipsis).
fn one_line(text: &str, width: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= width {
        return flat;
    }
    let cut: String = flat.chars().take(width - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_one_cut_line() {
        assert_eq!(one_line("a  b\nc", 10), "a b c");
        assert_eq!(one_line("abcdefghijkl", 6), "abcde…");
        assert_eq!(
            first_comment("\n# Public stairs: 32.7°\n# more\n[scene]\n"),
            Some("Public stairs: 32.7°".into())
        );
        assert_eq!(first_comment("[scene]\n"), None);
    }
}
