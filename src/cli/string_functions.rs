//! Which of glibc's string functions (`memset`, `memcpy`) the process uses: glibc's 256-bit
//! ones on a CPU with AVX-512, chosen by restarting the binary once with glibc's own tunable
//! `glibc.cpu.hwcaps=Prefer_No_AVX512` — the setting glibc makes by itself on the Skylake
//! server cores where 512-bit instructions lower the clock.
//!
//! Why: glibc picks its AVX-512 `memset` wherever the CPU has AVX-512, and every physics step
//! calls `memset`: rapier zeroes about 3 kB of solver bookkeeping (its interaction colouring)
//! after the track model has set the hull's force, and the track model clears small buffers.
//! On the 2-core Xeon with AVX-512 this project is developed on, those 512-bit stores
//! cost 5.6 % of the scout's whole step on the public stairs by themselves (`perf`), and the
//! step ran 7 % slower than with glibc's 256-bit functions (`treadsim bench`: full step
//! 4.33 → 4.02 µs, ratio to the bare rapier step 1.565 → 1.457, medians of 8 interleaved
//! pairs), with results bit for bit the same. The bare rapier step, which sets no force and so
//! rebuilds nothing, did not change.
//!
//! glibc reads its tunables only when a process starts, so the binary restarts itself once,
//! before doing anything, with the setting added to `GLIBC_TUNABLES`; a `GLIBC_TUNABLES` that
//! already says anything of `glibc.cpu.hwcaps` is left as it is, and so is `TREADSIM_AVX512=1`.
//! Elsewhere (not Linux with glibc on x86-64) there is nothing to choose.

/// glibc's tunable that makes it prefer its 256-bit string functions to its 512-bit ones.
#[cfg_attr(
    not(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu")),
    allow(dead_code)
)]
const PREFER_NO_AVX512: &str = "glibc.cpu.hwcaps=Prefer_No_AVX512";

/// The `GLIBC_TUNABLES` to restart with, given the one the process has (`None`: unset) and
/// whether `TREADSIM_AVX512=1` asks to keep glibc's choice; `None` when the process should
/// run as it is.
#[cfg_attr(
    not(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu")),
    allow(dead_code)
)]
fn tunables_to_restart_with(current: Option<&str>, keep_avx512: bool) -> Option<String> {
    if keep_avx512 {
        return None;
    }
    match current {
        None | Some("") => Some(PREFER_NO_AVX512.to_owned()),
        Some(t) if t.contains("glibc.cpu.hwcaps") => None,
        Some(t) => Some(format!("{t}:{PREFER_NO_AVX512}")),
    }
}

/// Restarts the binary with glibc's 256-bit string functions (see the module docs) unless it
/// runs with them already, another choice was made, or this is not glibc on x86-64. Returns
/// only when it does not restart (also when the restart itself fails: the process then runs
/// on as it is).
pub fn prefer_256_bit_string_functions() {
    #[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        if !std::arch::is_x86_feature_detected!("avx512f") {
            return;
        }
        let current = std::env::var("GLIBC_TUNABLES").ok();
        let keep = std::env::var("TREADSIM_AVX512").is_ok_and(|v| v == "1");
        let Some(tunables) = tunables_to_restart_with(current.as_deref(), keep) else {
            return;
        };
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        // `exec` returns only on failure; the process then simply runs on.
        let _ = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", tunables)
            .exec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unset or empty: the setting alone; other tunables: the setting added after them; a
    /// choice of `glibc.cpu.hwcaps` already made, or `TREADSIM_AVX512=1`: no restart (and so no
    /// restart loop, as the restarted process has the setting).
    #[test]
    fn the_setting_is_added_once_and_never_overrides_a_choice() {
        assert_eq!(
            tunables_to_restart_with(None, false).as_deref(),
            Some(PREFER_NO_AVX512)
        );
        assert_eq!(
            tunables_to_restart_with(Some(""), false).as_deref(),
            Some(PREFER_NO_AVX512)
        );
        assert_eq!(
            tunables_to_restart_with(Some("glibc.malloc.arena_max=2"), false).as_deref(),
            Some("glibc.malloc.arena_max=2:glibc.cpu.hwcaps=Prefer_No_AVX512")
        );
        assert_eq!(
            tunables_to_restart_with(Some(PREFER_NO_AVX512), false),
            None
        );
        assert_eq!(
            tunables_to_restart_with(Some("glibc.cpu.hwcaps=-AVX2"), false),
            None
        );
        assert_eq!(tunables_to_restart_with(None, true), None);
    }
}
