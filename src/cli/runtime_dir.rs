//! A private runtime folder for a process started without one (a fresh machine, a CI job, an
//! ssh session without a login manager: no `XDG_RUNTIME_DIR`).
//!
//! Why: without a display, kiss3d's GPU set-up (wgpu through Mesa) still probes the Wayland
//! platform, and libwayland-client prints `error: XDG_RUNTIME_DIR is invalid or not set in the
//! environment.` to standard error for each probe — twice on a headless `treadsim shot` that
//! then succeeds. With a valid (empty) runtime folder the probe finds no Wayland socket and
//! says nothing. The folder is the XDG base-directory specification's kind: owned by the user,
//! mode 0700, under the system's temporary folder. A set `WAYLAND_DISPLAY` or a valid
//! `XDG_RUNTIME_DIR` is left as it is.

use std::path::{Path, PathBuf};

/// The runtime folder to use when the environment has none: `None` when `wayland_display` is
/// set or `current` names an existing folder; else `<temp>/treadsim-runtime-<uid>`.
fn replacement(
    current: Option<&Path>,
    wayland_display: bool,
    temp: &Path,
    uid: u32,
) -> Option<PathBuf> {
    if wayland_display || current.is_some_and(Path::is_dir) {
        return None;
    }
    Some(temp.join(format!("treadsim-runtime-{uid}")))
}

/// Gives the process a private runtime folder when it has none (call first thing, before any
/// thread starts: it sets an environment variable). Any failure leaves the environment as it
/// is: the only cost is the library's message.
pub fn ensure_runtime_dir() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
        let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
            return;
        };
        let current = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
        let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some_and(|v| !v.is_empty());
        let Some(dir) = replacement(current.as_deref(), wayland, &std::env::temp_dir(), uid) else {
            return;
        };
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        // Only a folder of ours that nobody else can enter.
        let ours = std::fs::symlink_metadata(&dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0);
        if ours {
            std::env::set_var("XDG_RUNTIME_DIR", &dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_folder_or_a_wayland_session_is_kept() {
        let temp = Path::new("/tmp");
        assert_eq!(replacement(Some(temp), false, temp, 7), None);
        assert_eq!(replacement(None, true, temp, 7), None);
        assert_eq!(
            replacement(None, false, temp, 7),
            Some(PathBuf::from("/tmp/treadsim-runtime-7"))
        );
        assert_eq!(
            replacement(Some(Path::new("/nonexistent/run")), false, temp, 7),
            Some(PathBuf::from("/tmp/treadsim-runtime-7"))
        );
    }
}
