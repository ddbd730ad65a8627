//! The log's header: what a replay needs to set the run up again and to refuse a log it
//! cannot reproduce (another program version, changed input files, other settings).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::LogError;
use crate::session::Session;
use crate::sim::SimConfig;

/// This program's version, as logs record it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// An input file of the run, carried whole in the header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedFile {
    /// `exercise`, `scene`, `robot`, `mesh` (a mesh file the scene reads) or `script`.
    pub role: String,
    /// Its path as the run named it (relative to the working folder of the run).
    pub path: PathBuf,
    /// SHA-256 of its bytes, hex.
    pub sha256: String,
    /// Its text.
    pub text: String,
}

impl LoggedFile {
    /// Reads the file at `path` for the header.
    pub fn read(role: &str, path: &Path, log: &Path) -> Result<Self, LogError> {
        let bytes = std::fs::read(path).map_err(|e| LogError::Setup {
            path: log.to_path_buf(),
            message: format!("cannot read the {role} file {}: {e}", path.display()),
        })?;
        Ok(Self {
            role: role.to_owned(),
            path: path.to_path_buf(),
            sha256: sha256_hex(&bytes),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }

    /// Whether the file on disk is still the one recorded; `Err` says how it is not.
    pub fn check(&self, log: &Path) -> Result<(), LogError> {
        let changed = |problem: String| LogError::FileChanged {
            path: log.to_path_buf(),
            role: self.role.clone(),
            file: self.path.clone(),
            problem,
        };
        let bytes = std::fs::read(&self.path).map_err(|e| {
            changed(format!(
                "cannot be read ({e}); replay from the folder the run was recorded in"
            ))
        })?;
        let now = sha256_hex(&bytes);
        if now != self.sha256 {
            return Err(changed(format!(
                "has changed since the recording (SHA-256 {} recorded, {} now)",
                &self.sha256[..12.min(self.sha256.len())],
                &now[..12]
            )));
        }
        Ok(())
    }
}

/// SHA-256 of `bytes` as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The simulation settings as a header records them (every field, exactly).
pub fn config_text(config: &SimConfig) -> String {
    format!("{config:?}")
}

/// The log's first message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogHeader {
    /// `treadsim`.
    pub program: String,
    /// The program's version ([`VERSION`]).
    pub version: String,
    /// What wrote it: `run` (headless) or `station`.
    pub kind: String,
    /// When the recording began, s since the Unix epoch.
    pub created_unix_s: u64,
    /// The run's input files (exercise, scene, robot; a script if one drove it).
    pub files: Vec<LoggedFile>,
    /// Spawn name of a free session (an exercise names its own).
    pub spawn: Option<String>,
    /// The simulation settings ([`config_text`]).
    pub config: String,
    /// Fixed time step, s.
    pub dt: f64,
    /// Whether the track contacts were solved implicitly ([`SimConfig::implicit_contacts`]);
    /// a log written before the header had the field was explicit.
    #[serde(default)]
    pub implicit_contacts: bool,
    /// Scene name.
    pub scene_name: String,
    /// Robot name.
    pub robot_name: String,
    /// Exercise name, for a trial.
    pub exercise_name: Option<String>,
    /// Drive names in the robot's order (telemetry keys under `tracks`): its main tracks, or
    /// its wheels (whose `belt_speed` is the tyre's surface speed).
    pub tracks: Vec<String>,
    /// Flipper names, in the robot's order.
    pub flippers: Vec<String>,
}

impl LogHeader {
    /// The header of `session`, whose input files are `files` (`(role, path)`: `exercise`,
    /// `scene`, `robot`, and `script` if a script drives it); `log` names the log for errors.
    pub fn new(
        session: &Session,
        kind: &str,
        files: &[(&str, &Path)],
        log: &Path,
    ) -> Result<Self, LogError> {
        let sim = session.sim();
        let spec = sim.robot(session.robot()).spec();
        let (tracks, flippers) = crate::session::TelemetrySample::names(spec);
        // The scene's mesh files too: a changed mesh changes the terrain.
        let meshes = sim.scene().mesh_files.iter().map(|p| ("mesh", p.as_path()));
        let files = files
            .iter()
            .copied()
            .chain(meshes)
            .map(|(role, path)| LoggedFile::read(role, path, log))
            .collect::<Result<Vec<_>, _>>()?;
        let created_unix_s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Ok(Self {
            program: "treadsim".into(),
            version: VERSION.into(),
            kind: kind.into(),
            created_unix_s,
            spawn: session
                .trial()
                .is_none()
                .then(|| session.spawn().name.clone()),
            config: config_text(sim.config()),
            dt: sim.config().dt,
            implicit_contacts: sim.config().implicit_contacts,
            scene_name: sim.scene().name.clone(),
            robot_name: spec.name.clone(),
            exercise_name: session.trial().map(|t| t.spec().name.clone()),
            tracks,
            flippers,
            files,
        })
    }

    /// The file of a role, if the run had one.
    pub fn file(&self, role: &str) -> Option<&LoggedFile> {
        self.files.iter().find(|f| f.role == role)
    }

    /// The settings the log was recorded with, so that a log replays at its own step and
    /// contact solve whatever the default is now (every other setting is the default's;
    /// [`Self::check_reproducible`] refuses a log whose settings text then differs).
    pub fn sim_config(&self) -> SimConfig {
        SimConfig {
            dt: self.dt,
            implicit_contacts: self.implicit_contacts,
            ..SimConfig::default()
        }
    }

    /// Refuses a log this program cannot reproduce: another version, other simulation
    /// settings, or a scene, robot or exercise file changed since.
    pub fn check_reproducible(&self, log: &Path, config: &SimConfig) -> Result<(), LogError> {
        if self.version != VERSION {
            return Err(LogError::Version {
                path: log.to_path_buf(),
                recorded: self.version.clone(),
                running: VERSION.into(),
            });
        }
        if self.config != config_text(config) {
            return Err(LogError::Setup {
                path: log.to_path_buf(),
                message: format!(
                    "recorded with other simulation settings ({}) than this program uses ({})",
                    self.config,
                    config_text(config)
                ),
            });
        }
        for file in self.files.iter().filter(|f| f.role != "script") {
            file.check(log)?;
        }
        Ok(())
    }
}
