//! Helpers of the tests that use the Python clients we did not write (`tests/ros2/`): their
//! Python, the skip where PyPI could not be reached, and the odometry they received.

use std::path::PathBuf;

use super::class::manifest;

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

/// The mean forward speed (m/s, `base_link`) of the odometry the client received between
/// `from` and `to` (s since the Unix epoch); there must be some.
pub fn mean_vx(seen: &serde_json::Value, from: f64, to: f64) -> f64 {
    let v: Vec<f64> = seen["odom"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| (from..to).contains(&o["t"].as_f64().unwrap()))
        .map(|o| o["vx"].as_f64().unwrap())
        .collect();
    assert!(!v.is_empty(), "no odometry between {from} and {to}");
    v.iter().sum::<f64>() / v.len() as f64
}
