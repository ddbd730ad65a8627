//! The instructor console: a web page any browser on the network can open (default
//! http://127.0.0.1:8080), served by the instructor process with no assets from the internet.
//! It shows a grid of seats live (server-sent events, five times a second), a seat's detail
//! with its events and commands, the roster, each trainee's history and progress chart, and
//! each attempt's after-action report.
//!
//! Routes (all but the page and the login need a login; every POST also the CSRF header):
//! - `GET /` the page; `POST /login` (form `password`), `POST /logout`;
//! - `GET /api/class` the class now (JSON), `GET /api/stream` the same as server-sent events;
//! - `GET /api/exercises` the exercises the instructor can assign (name and SHA-256);
//! - `POST /api/seat/<seat>/command` a [`Command`](super::protocol::Command) as JSON → the
//!   seat's answer;
//! - `GET /api/trainees`, `GET /api/trainee/<id>` the roster and one trainee's attempts and
//!   standing; `GET /api/attempt/<id>` one attempt's stored result;
//! - `GET /report/<attempt>/<file>` the after-action report of an attempt whose log is on this
//!   machine (made from the log once, then served).

pub mod auth;
mod routes;

use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use super::instructor::Instructor;
use auth::Sessions;

/// Most requests served at once (a server-sent event stream holds one for as long as the page
/// is open).
pub const MAX_CONCURRENT: usize = 64;

/// Largest request body read, bytes.
pub const MAX_BODY: u64 = 64 * 1024;

/// Why the console could not start.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// A TLS certificate or key file cannot be read.
    #[error("{path}: {detail}")]
    Tls {
        /// The file.
        path: PathBuf,
        /// Why.
        detail: String,
    },
    /// The address cannot be bound.
    #[error("console at {addr}: {detail}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// Why.
        detail: String,
    },
}

/// What the console serves from.
pub struct ConsoleState {
    /// The instructor (class view, records, commands).
    pub instructor: Arc<Instructor>,
    /// Logged-in browsers.
    pub sessions: Sessions,
    /// The stored password hash.
    pub password_hash: String,
    /// The exercises that can be assigned by name.
    pub exercises: PathBuf,
    /// Where after-action reports are made.
    pub reports: PathBuf,
    /// The class's name.
    pub class: String,
    /// Whether the console is served over TLS (cookies are then `Secure`); [`Console::serve`]
    /// sets it.
    pub tls: bool,
}

/// The console's TLS certificate and private key (PEM files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate (chain), PEM.
    pub cert: PathBuf,
    /// Its private key, PEM.
    pub key: PathBuf,
}

impl TlsFiles {
    /// The files' contents, for the server.
    fn read(&self) -> Result<tiny_http::SslConfig, ConsoleError> {
        let read = |path: &PathBuf| {
            std::fs::read(path).map_err(|e| ConsoleError::Tls {
                path: path.clone(),
                detail: e.to_string(),
            })
        };
        Ok(tiny_http::SslConfig {
            certificate: read(&self.cert)?,
            private_key: read(&self.key)?,
        })
    }
}

/// The running console: stops when dropped or told.
pub struct Console {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Console {
    /// Serves the console on `addr` (`HOST:PORT`; port 0 picks a free one), over TLS with
    /// `tls`'s certificate and key if given (HTTPS only then).
    pub fn serve(
        addr: &str,
        mut state: ConsoleState,
        tls: Option<&TlsFiles>,
    ) -> Result<Self, ConsoleError> {
        let bind = |e: Box<dyn std::error::Error + Send + Sync>| ConsoleError::Bind {
            addr: addr.to_owned(),
            detail: e.to_string(),
        };
        state.tls = tls.is_some();
        let server = match tls {
            Some(files) => tiny_http::Server::https(addr, files.read()?).map_err(bind)?,
            None => tiny_http::Server::http(addr).map_err(bind)?,
        };
        let bound = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| ConsoleError::Bind {
                addr: addr.to_owned(),
                detail: "not an IP address".into(),
            })?;
        let server = Arc::new(server);
        let stop = Arc::new(AtomicBool::new(false));
        let state = Arc::new(state);
        let thread = {
            let (server, stop) = (Arc::clone(&server), Arc::clone(&stop));
            std::thread::spawn(move || accept(&server, &state, &stop))
        };
        Ok(Self {
            addr: bound,
            stop,
            server,
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Takes requests until stopped, each on its own thread (at most [`MAX_CONCURRENT`]).
fn accept(server: &tiny_http::Server, state: &Arc<ConsoleState>, stop: &Arc<AtomicBool>) {
    let busy = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if busy.load(Ordering::Relaxed) >= MAX_CONCURRENT {
            let _ = request.respond(routes::text(503, "too many requests at once"));
            continue;
        }
        busy.fetch_add(1, Ordering::Relaxed);
        let (state, stop, busy) = (Arc::clone(state), Arc::clone(stop), Arc::clone(&busy));
        std::thread::spawn(move || {
            routes::handle(request, &state, &stop);
            busy.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// Reads a request body up to [`MAX_BODY`] bytes as text (`None`: too long or not UTF-8).
fn body_text(request: &mut tiny_http::Request) -> Option<String> {
    let mut body = String::new();
    let mut limited = request.as_reader().take(MAX_BODY + 1);
    limited.read_to_string(&mut body).ok()?;
    (body.len() as u64 <= MAX_BODY).then_some(body)
}
