//! An exercise sent to a seat that does not have it (or has another version): the exercise
//! file with its scene, robot and the scene's mesh files, each named by its path relative to
//! their common folder and verified by SHA-256. The seat installs a bundle inside its own
//! exercise folder (`received/<exercise>-<hash>/`), refusing any name that would leave it.

use std::path::{Component, Path, PathBuf};

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::exercise::Exercise;
use crate::record::header::sha256_hex;

/// Largest bundle sent or taken, bytes of file content.
pub const MAX_BUNDLE: usize = 32 * 1024 * 1024;

/// One file of a bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleFile {
    /// The path relative to the bundle's folder, `/`-separated (no `..`, not absolute).
    pub path: String,
    /// SHA-256 of the content (hex).
    pub sha256: String,
    /// The content, base64.
    pub base64: String,
}

/// An exercise and the files it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bundle {
    /// The exercise file's path within the bundle.
    pub exercise: String,
    /// The files, the exercise's among them.
    pub files: Vec<BundleFile>,
}

/// Why a bundle cannot be made or taken.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The exercise (or a file it names) cannot be read.
    #[error("{0}")]
    Read(String),
    /// A name that would leave the bundle's folder, or is not plain.
    #[error("refused file name '{0}': only plain relative names inside the exercise folder")]
    BadName(String),
    /// Content that does not match its hash, or is not base64.
    #[error("file '{0}' does not match its SHA-256")]
    Corrupt(String),
    /// Too large.
    #[error("the bundle is larger than {MAX_BUNDLE} bytes")]
    TooLarge,
    /// The exercise's own file is not in it.
    #[error("the bundle does not hold its exercise file '{0}'")]
    NoExercise(String),
    /// Writing it failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The deepest folder holding all of `paths`.
fn common_folder(paths: &[PathBuf]) -> PathBuf {
    let mut common: Option<PathBuf> = None;
    for path in paths {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        common = Some(match common {
            None => dir,
            Some(c) => c
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    common.unwrap_or_default()
}

/// Whether `name` is a plain relative `/`-separated path: each part letters, digits, `_`, `-`,
/// `.`, not `.` or `..` and not starting with `.`.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 512
        && name.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        })
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

impl Bundle {
    /// The bundle of the exercise file `file`: it, its scene, its robot and the scene's meshes.
    pub fn of(file: &Path) -> Result<Self, BundleError> {
        let exercise = Exercise::load(file).map_err(|e| BundleError::Read(e.to_string()))?;
        let mut paths = vec![
            file.to_path_buf(),
            exercise.spec.scene.clone(),
            exercise.spec.robot.clone(),
        ];
        paths.extend(exercise.scene.mesh_files.iter().cloned());
        let paths: Vec<PathBuf> = paths
            .iter()
            .map(|p| {
                p.canonicalize()
                    .map_err(|e| BundleError::Read(format!("{}: {e}", p.display())))
            })
            .collect::<Result<_, _>>()?;
        let root = common_folder(&paths);
        let mut files: Vec<BundleFile> = Vec::new();
        let mut total = 0;
        for path in &paths {
            let rel = path
                .strip_prefix(&root)
                .map_err(|_| BundleError::BadName(path.display().to_string()))?;
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if !plain(&name) {
                return Err(BundleError::BadName(name));
            }
            if files.iter().any(|f| f.path == name) {
                continue;
            }
            let bytes = std::fs::read(path)
                .map_err(|e| BundleError::Read(format!("{}: {e}", path.display())))?;
            total += bytes.len();
            if total > MAX_BUNDLE {
                return Err(BundleError::TooLarge);
            }
            files.push(BundleFile {
                path: name,
                sha256: sha256_hex(&bytes),
                base64: base64::engine::general_purpose::STANDARD.encode(&bytes),
            });
        }
        Ok(Self {
            exercise: files[0].path.clone(),
            files,
        })
    }

    /// SHA-256 of the exercise file in the bundle.
    pub fn exercise_sha256(&self) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == self.exercise)
            .map(|f| f.sha256.as_str())
    }

    /// Checks every name and hash, then writes the files under `folder` (made if missing;
    /// written whole, each through a `.part` file) and returns the exercise file's path there.
    /// Nothing is written when any file is refused.
    pub fn install(&self, folder: &Path) -> Result<PathBuf, BundleError> {
        let mut decoded = Vec::with_capacity(self.files.len());
        let mut total = 0;
        for file in &self.files {
            if !plain(&file.path) {
                return Err(BundleError::BadName(file.path.clone()));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&file.base64)
                .map_err(|_| BundleError::Corrupt(file.path.clone()))?;
            total += bytes.len();
            if total > MAX_BUNDLE {
                return Err(BundleError::TooLarge);
            }
            if sha256_hex(&bytes) != file.sha256 {
                return Err(BundleError::Corrupt(file.path.clone()));
            }
            decoded.push((folder.join(&file.path), bytes));
        }
        if !self.files.iter().any(|f| f.path == self.exercise) {
            return Err(BundleError::NoExercise(self.exercise.clone()));
        }
        for (path, bytes) in decoded {
            let io = |source| BundleError::Io {
                path: path.clone(),
                source,
            };
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            let part = path.with_extension("part");
            std::fs::write(&part, &bytes).map_err(io)?;
            std::fs::rename(&part, &path).map_err(io)?;
        }
        Ok(folder.join(&self.exercise))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(path: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    #[test]
    fn an_exercise_travels_with_its_scene_robot_and_meshes_and_loads_where_installed() {
        let bundle = Bundle::of(&library("scenes/exercises/building_corridor.toml")).unwrap();
        let names: Vec<&str> = bundle.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(bundle.exercise, "exercises/building_corridor.toml");
        assert!(
            names.contains(&"building.toml") && names.contains(&"robots/scout.toml"),
            "{names:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let installed = bundle.install(&dir.path().join("received/x")).unwrap();
        let loaded = Exercise::load(&installed).unwrap();
        assert_eq!(
            loaded.spec.name,
            "Building: corridor and doorway, round trip"
        );
    }

    #[test]
    fn names_that_leave_the_folder_and_wrong_hashes_are_refused_and_nothing_is_written() {
        let good = BundleFile {
            path: "exercises/x.toml".into(),
            sha256: sha256_hex(b"x"),
            base64: base64::engine::general_purpose::STANDARD.encode(b"x"),
        };
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("in");
        for bad in [
            "../../x",
            "/etc/passwd",
            "a/../../b",
            ".hidden",
            "a//b",
            "a\\b",
            "",
        ] {
            let bundle = Bundle {
                exercise: good.path.clone(),
                files: vec![
                    good.clone(),
                    BundleFile {
                        path: bad.into(),
                        ..good.clone()
                    },
                ],
            };
            assert!(
                matches!(bundle.install(&target), Err(BundleError::BadName(_))),
                "{bad:?}"
            );
        }
        let corrupt = Bundle {
            exercise: good.path.clone(),
            files: vec![BundleFile {
                sha256: sha256_hex(b"y"),
                ..good.clone()
            }],
        };
        assert!(matches!(
            corrupt.install(&target),
            Err(BundleError::Corrupt(_))
        ));
        assert!(!target.exists(), "nothing written");
    }
}
