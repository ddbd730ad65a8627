//! The Python of the clients and tools we did not write (`target/venv-ros2`, made by `make
//! test`: rosbags, mcap, the Foxglove SDK, zenoh, websockets, …), for every test binary.

use std::path::{Path, PathBuf};

/// A path in the crate's folder.
fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The clients' Python (`target/venv-ros2`, made by `make test`), or `None` where PyPI could
/// not be reached (the caller's test then says SKIPPED, naming `what`, and passes); missing
/// without that note is a failure: `make test` did not run.
pub fn client_python(what: &str) -> Option<PathBuf> {
    let python = manifest("target/venv-ros2/bin/python");
    if python.is_file() {
        return Some(python);
    }
    let unavailable = manifest("target/venv-ros2.unavailable");
    assert!(
        unavailable.is_file(),
        "run `make test`: it installs the Python clients into target/venv-ros2"
    );
    eprintln!(
        "SKIPPED: PyPI could not be reached to install {what} ({})",
        std::fs::read_to_string(unavailable)
            .unwrap_or_default()
            .trim()
    );
    None
}
