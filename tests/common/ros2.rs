//! Helpers of the tests that use the Python clients we did not write (`tests/ros2/`,
//! `tests/foxglove/`): the speed they saw and ending the seat they talk to (their Python is
//! `super::python`).

/// The mean forward speed (m/s, `base_link`) of the samples (`{"t": s, "vx": m/s}`: odometry,
/// telemetry) the client received between `from` and `to` (s since the Unix epoch); there must
/// be some.
pub fn mean_vx(samples: &serde_json::Value, from: f64, to: f64) -> f64 {
    let v: Vec<f64> = samples
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| (from..to).contains(&o["t"].as_f64().unwrap()))
        .map(|o| o["vx"].as_f64().unwrap())
        .collect();
    assert!(!v.is_empty(), "no odometry between {from} and {to}");
    v.iter().sum::<f64>() / v.len() as f64
}

/// Ends the seat as Ctrl-C would and waits (up to 20 s) for it to exit after its summary.
pub fn stop(seat: &super::class::Proc) {
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(seat.0.id() as i32, libc::SIGTERM);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", seat.0.id()));
        match stat {
            Ok(stat) if stat.contains(") Z ") => return,
            Ok(_) => std::thread::sleep(std::time::Duration::from_millis(100)),
            Err(_) => return,
        }
    }
}
