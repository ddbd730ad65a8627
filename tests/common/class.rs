//! Helpers shared by the classroom's scenario tests (`tests/classroom.rs`, `tests/console.rs`):
//! free loopback ports, child processes killed with the test, polling, the instructor's key.

use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use treadsim::classroom::authority::InstructorKey;

/// A path in the repository.
pub fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A free TCP port on loopback (bound and released), never one handed out before in this
/// process: the system may give a just-released port to the next probe, and two tests running
/// side by side on one port would reach each other's instructor (Zenoh's listener lets a second
/// one bind the same port).
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
}

/// The instructor's signing key in these tests: a fixed seed, so the seat processes can be given
/// its public key (`TREADSIM_INSTRUCTOR_KEY`) and an instructor process its key file.
pub fn signing() -> InstructorKey {
    InstructorKey::from_seed([7; 32])
}

/// A child process killed when the test ends, however it ends.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits up to `limit` for `done`, polling; returns whether it came.
pub fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}
