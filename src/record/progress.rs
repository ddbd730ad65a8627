//! A progress bar on the terminal for long commands — replays, reports, soaks, envelopes —
//! drawn on standard error, and only when it is a terminal, at most ten times a second.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Width of the bar, characters.
const WIDTH: usize = 40;

/// A progress bar.
pub struct Progress {
    label: String,
    enabled: bool,
    last: Option<Instant>,
}

impl Progress {
    /// A bar labelled `label`, drawn if standard error is a terminal.
    pub fn new(label: &str) -> Self {
        Self {
            label: label.to_owned(),
            enabled: std::io::stderr().is_terminal(),
            last: None,
        }
    }

    /// The bar as text at `fraction` (0..1) done.
    pub fn line(&self, fraction: f64) -> String {
        let f = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let filled = (f * WIDTH as f64).round() as usize;
        format!(
            "{} [{}{}] {:3.0}%",
            self.label,
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            f * 100.0
        )
    }

    /// Takes the bar off the line, so other output can be written there (it comes back at
    /// the next [`set`](Self::set)).
    pub fn clear(&mut self) {
        if self.enabled && self.last.is_some() {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r{}\r", " ".repeat(self.line(0.0).chars().count()));
            let _ = err.flush();
            self.last = None;
        }
    }

    /// Shows `fraction` (0..1) done.
    pub fn set(&mut self, fraction: f64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(100) && fraction < 1.0)
        {
            return;
        }
        self.last = Some(now);
        let mut err = std::io::stderr();
        let _ = write!(err, "\r{}", self.line(fraction));
        if fraction >= 1.0 {
            let _ = writeln!(err);
            // The line is done: nothing left to clear.
            self.last = None;
        }
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_fraction_and_clamps() {
        let p = Progress::new("replay");
        assert!(p.line(0.0).contains(&"-".repeat(WIDTH)));
        assert!(p
            .line(0.5)
            .contains(&format!("{}{}", "#".repeat(20), "-".repeat(20))));
        assert!(p.line(2.0).ends_with("100%"));
        assert!(p.line(f64::NAN).ends_with("  0%"));
    }
}
