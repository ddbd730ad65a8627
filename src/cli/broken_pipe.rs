//! A reader that stops early (`treadsim list | head`, `treadsim soak | less` quit) ends the
//! program quietly, as it ends any Unix tool.
//!
//! Why: Rust starts programs with SIGPIPE ignored, so a write to a closed pipe returns an
//! error, and `println!` panics on it ("failed printing to stdout: Broken pipe"). Restoring
//! the signal's default action lets the system end the process at that write instead.

/// Restores SIGPIPE's default action (call first thing in `main`).
pub fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with `SIG_DFL` only resets the disposition of SIGPIPE, before any other
    // thread exists; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
