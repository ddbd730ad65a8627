//! The library's layers hold (ARCHITECTURE.md, "Layers"): every `crate::` reference in `src/`
//! — in code, `use` lines and intra-doc links alike — points to a module of the same layer or a
//! lower one, and the top-level modules import each other in no loop.
//!
//! The test reads the source as text, so it needs no build of what it checks. A module missing
//! from [`LAYERS`] fails too: a new top-level module must be given its layer.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, layer by layer from the bottom (index 0 = core).
const LAYERS: [(&str, &[&str]); 4] = [
    (
        "core",
        &[
            "config", "digest", "rng", "terrain", "scene", "track", "vehicle", "sim",
        ],
    ),
    ("behaviour", &["control", "link", "exercise"]),
    ("session", &["session", "record", "launch"]),
    (
        "front end",
        &[
            "input",
            "envelope",
            "tools",
            "viewer",
            "classroom",
            "interop",
        ],
    ),
];

/// One `crate::` reference: where it stands and which top-level module it names.
#[derive(Debug, Clone)]
struct Reference {
    /// The file, relative to the crate root.
    file: PathBuf,
    /// 1-based line number.
    line: usize,
    /// The referring file's top-level module.
    from: String,
    /// The named top-level module.
    to: String,
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// The top-level module a library file belongs to (`src/sim/hull.rs` → `sim`), or `None` for
/// the binary (`main.rs`, `cli/`) and `lib.rs`.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "main" | "cli" | "lib" => None,
        _ => Some(name.to_string()),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module names that follow `crate::` on one line, including each name of a
/// group (`crate::{sim::Simulation, vehicle::DriveCommand}`).
fn named_modules(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        // `treadsim::crate::` does not occur; `$crate::` in a macro is the crate itself.
        let after = &rest[at + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.push(name);
                }
            }
        } else {
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.push(name);
            }
        }
        rest = after;
    }
    names
}

/// Every `crate::` reference from one library module to another.
fn references(root: &Path) -> Vec<Reference> {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&src).expect("under src").to_path_buf();
        let Some(from) = module_of(&relative) else {
            continue;
        };
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (index, line) in text.lines().enumerate() {
            for to in named_modules(line) {
                if to != from {
                    found.push(Reference {
                        file: Path::new("src").join(&relative),
                        line: index + 1,
                        from: from.clone(),
                        to,
                    });
                }
            }
        }
    }
    found
}

/// One message per reference that climbs a layer or names a module without one.
fn layer_violations(found: &[Reference]) -> Vec<String> {
    let mut messages = Vec::new();
    for reference in found {
        let from = layer_of(&reference.from);
        let to = layer_of(&reference.to);
        let place = format!("{}:{}", reference.file.display(), reference.line);
        match (from, to) {
            (None, _) => messages.push(format!(
                "{place}: module `{}` has no layer in tests/layers.rs",
                reference.from
            )),
            (_, None) => messages.push(format!(
                "{place}: `crate::{}` names a module with no layer in tests/layers.rs",
                reference.to
            )),
            (Some(from_layer), Some(to_layer)) if to_layer > from_layer => {
                messages.push(format!(
                    "{place}: `{}` ({}) uses `crate::{}` ({}), a higher layer",
                    reference.from, LAYERS[from_layer].0, reference.to, LAYERS[to_layer].0
                ));
            }
            _ => {}
        }
    }
    messages
}

/// The loops among top-level modules, each as its modules in order with one reference per edge.
fn module_cycles(found: &[Reference]) -> Vec<String> {
    let mut edges: BTreeMap<&str, BTreeMap<&str, &Reference>> = BTreeMap::new();
    for reference in found {
        edges
            .entry(reference.from.as_str())
            .or_default()
            .entry(reference.to.as_str())
            .or_insert(reference);
    }
    let mut messages = Vec::new();
    let mut reported: BTreeSet<Vec<&str>> = BTreeSet::new();
    for &start in edges.keys() {
        // Depth-first search for a path back to `start`.
        let mut stack: Vec<(&str, Vec<&str>)> = vec![(start, vec![start])];
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for &next in edges.get(node).map(|m| m.keys()).into_iter().flatten() {
                if next == start {
                    let mut key = path.clone();
                    key.sort_unstable();
                    if reported.insert(key) {
                        let mut text = String::from("module cycle:");
                        let mut ring = path.clone();
                        ring.push(start);
                        for pair in ring.windows(2) {
                            let reference = edges[pair[0]][pair[1]];
                            text.push_str(&format!(
                                "\n  {} -> {} at {}:{}",
                                pair[0],
                                pair[1],
                                reference.file.display(),
                                reference.line
                            ));
                        }
                        messages.push(text);
                    }
                } else if seen.insert(next) {
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push((next, longer));
                }
            }
        }
    }
    messages
}

#[test]
fn no_reference_climbs_a_layer_and_no_modules_form_a_loop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = references(root);
    let mut messages = layer_violations(&found);
    messages.extend(module_cycles(&found));
    assert!(
        messages.is_empty(),
        "{} layer problem(s):\n{}",
        messages.len(),
        messages.join("\n")
    );
}

#[test]
fn every_library_module_has_a_layer_and_lib_rs_lists_them_by_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let declared: Vec<String> = lib
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            Some(rest.split(';').next().unwrap_or(rest).trim().to_string())
        })
        .collect();
    for module in &declared {
        assert!(
            layer_of(module).is_some(),
            "src/lib.rs declares `{module}`, which has no layer in tests/layers.rs"
        );
    }
    let layers: Vec<usize> = declared.iter().filter_map(|m| layer_of(m)).collect();
    assert!(
        layers.windows(2).all(|pair| pair[0] <= pair[1]),
        "src/lib.rs must list its modules layer by layer, core first: {declared:?}"
    );
}

#[test]
fn the_checker_finds_a_climb_a_group_and_a_loop() {
    assert_eq!(
        named_modules("use crate::{sim::Simulation, vehicle::DriveCommand}; // crate::session"),
        ["sim", "vehicle", "session"]
    );
    let reference = |from: &str, to: &str| Reference {
        file: PathBuf::from("src/x.rs"),
        line: 1,
        from: from.to_string(),
        to: to.to_string(),
    };
    assert_eq!(layer_violations(&[reference("sim", "session")]).len(), 1);
    assert!(layer_violations(&[reference("session", "sim")]).is_empty());
    assert_eq!(
        module_cycles(&[reference("scene", "terrain"), reference("terrain", "scene")]).len(),
        1
    );
    assert!(module_cycles(&[reference("scene", "terrain")]).is_empty());
}
