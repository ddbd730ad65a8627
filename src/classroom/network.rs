//! Joining the class network: a Zenoh session (peer mode) for a seat or the instructor.
//!
//! - **Discovery.** By default multicast scouting finds the class on the LAN with no flags
//!   (Zenoh's 224.0.0.224:7446), and a seat also tries the instructor on its own machine
//!   (`tcp/127.0.0.1:7448`, where the instructor listens by default). Where multicast is
//!   blocked (containers, CI, many corporate LANs) each seat `--connect tcp/INSTRUCTOR:7448`;
//!   across rooms, every member `--connect`s to a Zenoh router (`zenohd`).
//! - **The class key.** Every member presents the class key as Zenoh user/password
//!   authentication (user `treadsim-<class>`) and accepts only peers that present it, so a
//!   program without the key cannot join the class nor command a seat. The instructor makes
//!   the key at first start (`records/class.key`, owner-only); seats read the same file, or
//!   `TREADSIM_CLASS_KEY`.
//! - **Liveness.** The link lease is 2 s (Zenoh's default is 10 s), so a seat that vanishes
//!   without closing its connection is offline within 2 s; a killed process's connection closes
//!   at once.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use zenoh::Wait;

use super::authority::InstructorPublic;
use super::protocol::{check_name, Keys, ProtocolError, DEFAULT_CLASS};

/// The default class key file (made by the instructor, read by seats on the same machine).
pub const DEFAULT_KEY_FILE: &str = "records/class.key";

/// The environment variable that may hold the class key instead of a file.
pub const KEY_ENV: &str = "TREADSIM_CLASS_KEY";

/// Zenoh's link lease, ms: a silent peer is dropped after it.
pub const LEASE_MS: u64 = 2000;

/// Why the class network cannot be joined.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// A bad class or seat name.
    #[error(transparent)]
    Name(#[from] ProtocolError),
    /// An endpoint that does not parse (`tcp/HOST:PORT`).
    #[error("endpoint '{endpoint}': {detail}")]
    Endpoint {
        /// The endpoint given.
        endpoint: String,
        /// Zenoh's complaint.
        detail: String,
    },
    /// The class key file cannot be read or made.
    #[error("class key {path}: {detail}")]
    Key {
        /// The key file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// Zenoh refused the configuration or could not open the session.
    #[error("class network: {0}")]
    Zenoh(String),
    /// Something already listens on an endpoint this program is to listen on: most likely
    /// the class's instructor started a second time (two instructors would split the seats).
    #[error(
        "{endpoint} is in use: another program listens there (an instructor already running?); \
         stop it, or give this one another --listen endpoint"
    )]
    InUse {
        /// The endpoint.
        endpoint: String,
    },
}

/// How to join the class network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassNetwork {
    /// The class's name (several classes may share a network).
    pub class: String,
    /// Endpoints to listen on (`tcp/HOST:PORT`); `None`: Zenoh's peer default (every
    /// interface, a free port). The command line gives the instructor `tcp/0.0.0.0:7448` and a
    /// seat nothing (it connects out, so no seat is reachable from the LAN).
    pub listen: Option<Vec<String>>,
    /// Endpoints to connect to.
    pub connect: Vec<String>,
    /// Whether multicast scouting finds peers on the LAN.
    pub multicast: bool,
    /// The class key.
    pub key: String,
}

impl ClassNetwork {
    /// The class's key expressions.
    pub fn keys(&self) -> Result<Keys, NetworkError> {
        Ok(Keys::new(&self.class)?)
    }

    /// Checks that nothing listens on this network's TCP listen endpoints yet. Zenoh's
    /// listener lets a second process bind a port already listened on, so a second instructor
    /// started on the same machine would take half the seats' connections; a plain bind (no
    /// port sharing) finds the first.
    pub fn check_listeners_free(&self) -> Result<(), NetworkError> {
        for endpoint in self.listen.iter().flatten() {
            let Some(address) = endpoint.strip_prefix("tcp/") else {
                continue;
            };
            // Zenoh's endpoint may carry `?config` or `#metadata` after the address.
            let address = address.split(['?', '#']).next().unwrap_or(address);
            if let Err(e) = std::net::TcpListener::bind(address) {
                if e.kind() == std::io::ErrorKind::AddrInUse {
                    return Err(NetworkError::InUse {
                        endpoint: endpoint.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Opens a Zenoh session joined to the class (blocking until Zenoh is up; connecting to
    /// the endpoints goes on in the background, so a seat may start before the instructor).
    pub fn open(&self) -> Result<zenoh::Session, NetworkError> {
        check_name("class", &self.class)?;
        let config = self.config()?;
        zenoh::open(config)
            .wait()
            .map_err(|e| NetworkError::Zenoh(e.to_string()))
    }

    fn config(&self) -> Result<zenoh::Config, NetworkError> {
        let zerr = |e: Box<dyn std::error::Error + Send + Sync>| NetworkError::Zenoh(e.to_string());
        let mut config = zenoh::Config::default();
        let endpoints = |list: &[String]| -> Result<String, NetworkError> {
            for endpoint in list {
                endpoint.parse::<zenoh::config::EndPoint>().map_err(|e| {
                    NetworkError::Endpoint {
                        endpoint: endpoint.clone(),
                        detail: e.to_string(),
                    }
                })?;
            }
            serde_json::to_string(list).map_err(|e| NetworkError::Zenoh(e.to_string()))
        };
        config.insert_json5("mode", "\"peer\"").map_err(zerr)?;
        if let Some(listen) = &self.listen {
            config
                .insert_json5("listen/endpoints", &endpoints(listen)?)
                .map_err(zerr)?;
        }
        config
            .insert_json5("connect/endpoints", &endpoints(&self.connect)?)
            .map_err(zerr)?;
        // Keep retrying the endpoints: the instructor may start after its seats or restart.
        config
            .insert_json5("connect/timeout_ms", "-1")
            .map_err(zerr)?;
        config
            .insert_json5(
                "scouting/multicast/enabled",
                if self.multicast { "true" } else { "false" },
            )
            .map_err(zerr)?;
        config
            .insert_json5("transport/link/tx/lease", &LEASE_MS.to_string())
            .map_err(zerr)?;
        let user = format!("treadsim-{}", self.class);
        config
            .insert_json5(
                "transport/auth/usrpwd",
                &serde_json::json!({
                    "user": user,
                    "password": self.key,
                    "dictionary_file": self.dictionary(&user)?.to_string_lossy(),
                })
                .to_string(),
            )
            .map_err(zerr)?;
        Ok(config)
    }

    /// Writes the one-line user/password dictionary Zenoh checks peers against, owner-only,
    /// in the system's temporary folder, named by the key's hash (so no key is in the name).
    fn dictionary(&self, user: &str) -> Result<PathBuf, NetworkError> {
        let digest = Sha256::digest(format!("{user}:{}", self.key).as_bytes());
        let name: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        let path = std::env::temp_dir().join(format!("treadsim-class-{name}.dict"));
        write_private(&path, &format!("{user}:{}\n", self.key)).map_err(|detail| {
            NetworkError::Key {
                path: path.clone(),
                detail,
            }
        })?;
        Ok(path)
    }
}

/// Writes `text` to `path` readable by its owner only.
pub(crate) fn write_private(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| e.to_string())?;
    file.write_all(text.as_bytes()).map_err(|e| e.to_string())
}

/// A key's acceptable form: 16 to 256 printable ASCII characters without spaces or `:`.
fn check_key(key: &str) -> Result<(), String> {
    if (16..=256).contains(&key.len()) && key.chars().all(|c| c.is_ascii_graphic() && c != ':') {
        Ok(())
    } else {
        Err("a class key is 16 to 256 printable characters, no spaces or ':'".into())
    }
}

/// The environment variable that may hold the instructor's public key (hex) instead of the key
/// file's `instructor` line.
pub const INSTRUCTOR_KEY_ENV: &str = "TREADSIM_INSTRUCTOR_KEY";

/// What a member of the class knows: the class key, and the instructor's public key (a seat
/// without it obeys no command).
#[derive(Debug, Clone)]
pub struct ClassKey {
    /// The shared secret that admits a member.
    pub secret: String,
    /// The instructor's public key.
    pub instructor: Option<InstructorPublic>,
}

/// Reads the class key file: a line with the key (16–256 printable characters), and a line
/// `instructor <64 hex digits>` with the instructor's public key. `TREADSIM_CLASS_KEY` and
/// `TREADSIM_INSTRUCTOR_KEY`, where set, stand in for the lines.
pub fn read_key(path: &Path) -> Result<ClassKey, NetworkError> {
    let err = |detail: String| NetworkError::Key {
        path: path.to_path_buf(),
        detail,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) if std::env::var(KEY_ENV).is_ok() => String::new(),
        Err(e) => {
            return Err(err(format!(
                "{e} (the instructor makes it at first start; copy it to each seat's machine or set {KEY_ENV})"
            )))
        }
    };
    let mut secret = None;
    let mut instructor = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.strip_prefix("instructor ") {
            Some(hex) => {
                instructor = Some(
                    InstructorPublic::from_hex(hex)
                        .ok_or_else(|| err("the instructor line is not a public key".into()))?,
                );
            }
            None => secret = Some(line.to_owned()),
        }
    }
    if let Ok(key) = std::env::var(KEY_ENV) {
        secret = Some(key.trim().to_owned());
    }
    if let Ok(hex) = std::env::var(INSTRUCTOR_KEY_ENV) {
        instructor = Some(
            InstructorPublic::from_hex(&hex)
                .ok_or_else(|| err(format!("{INSTRUCTOR_KEY_ENV} is not a public key")))?,
        );
    }
    let secret = secret.ok_or_else(|| err("no class key in the file".into()))?;
    check_key(&secret).map_err(err)?;
    Ok(ClassKey { secret, instructor })
}

/// The instructor's class key file: read as [`read_key`] does, or, where it does not exist,
/// made (32 random bytes as hex) and written owner-only to `path`; either way it ends up
/// naming `public` as the instructor (seats copy the file and learn whose commands to obey).
pub fn read_or_make_key(path: &Path, public: &InstructorPublic) -> Result<ClassKey, NetworkError> {
    let err = |detail: String| NetworkError::Key {
        path: path.to_path_buf(),
        detail,
    };
    let secret = if std::env::var(KEY_ENV).is_ok() || path.exists() {
        read_key(path)?.secret
    } else {
        random_hex::<32>().map_err(|e| err(format!("no randomness for a new key: {e}")))?
    };
    if std::env::var(KEY_ENV).is_err() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
        }
        write_private(path, &format!("{secret}\ninstructor {}\n", public.to_hex())).map_err(err)?;
    }
    Ok(ClassKey {
        secret,
        instructor: Some(public.clone()),
    })
}

/// `N` bytes from the system's random source (keys, salts).
pub fn random_bytes<const N: usize>() -> std::io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))?;
    Ok(bytes)
}

/// `N` random bytes as hex (the class key, session tokens).
pub fn random_hex<const N: usize>() -> std::io::Result<String> {
    Ok(random_bytes::<N>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The class network's default for a program that names no class.
pub fn default_class() -> String {
    DEFAULT_CLASS.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_made_key_is_private_names_the_instructor_and_is_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k/class.key");
        let public = crate::classroom::authority::InstructorKey::generate()
            .unwrap()
            .public();
        let key = read_or_make_key(&path, &public).unwrap();
        assert_eq!(key.secret.len(), 64);
        let read = read_key(&path).unwrap();
        assert_eq!(read.secret, key.secret);
        assert_eq!(read.instructor, Some(public));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "short").unwrap();
        assert!(read_key(&path)
            .unwrap_err()
            .to_string()
            .contains("16 to 256"));
    }

    #[test]
    fn a_bad_endpoint_is_named() {
        let network = ClassNetwork {
            class: "c".into(),
            listen: Some(vec!["nonsense".into()]),
            connect: vec![],
            multicast: false,
            key: "0123456789abcdef".into(),
        };
        let e = network.config().err().unwrap();
        assert!(e.to_string().contains("nonsense"), "{e}");
    }
}
