//! `treadsim validate`: the model against analytic and independent references, one row per
//! case with the model's value, the reference, the tolerance and pass or fail, so that any
//! user can see how credible the simulator is and rerun the check at any step size.
//!
//! Each case ([`cases`]) builds its own scene and robot at the step size asked for, runs the
//! physics headless and compares one measured quantity with a reference that does not come
//! from the model: a closed form from a textbook or a standard, a seed's formula, or an
//! independent solve on the loads the model reports ([`coulomb`]). The references are cited
//! in [`REFERENCES`]; [`Report::markdown`] writes `docs/validation.md` (the table, the
//! references and the method). Cases are independent simulations and run on any number of
//! threads with the same results.

pub mod arm;
pub mod cases;
pub mod coulomb;
pub mod measured;
pub mod valve;

use std::fmt::{self, Write as _};

use serde::Serialize;

use crate::config::ConfigError;
use crate::envelope::EnvelopeError;
use crate::sim::{SimConfig, SimError};

/// How a model value is compared with its reference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Check {
    /// |model − reference| ≤ this, in the row's unit.
    Absolute(f64),
    /// |model − reference| ≤ this × |reference|.
    Relative(f64),
    /// model ≤ reference + this.
    AtMost(f64),
    /// model ≥ reference − this.
    AtLeast(f64),
}

impl Check {
    /// Whether `model` passes against `reference` (a non-finite model value never does).
    pub fn passes(self, model: f64, reference: f64) -> bool {
        model.is_finite()
            && match self {
                Check::Absolute(t) => (model - reference).abs() <= t,
                Check::Relative(t) => (model - reference).abs() <= t * reference.abs(),
                Check::AtMost(t) => model <= reference + t,
                Check::AtLeast(t) => model >= reference - t,
            }
    }

    /// The tolerance as the table shows it.
    fn describe(self, unit: &str) -> String {
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        match self {
            Check::Absolute(t) => format!("± {}{unit}", short(t)),
            Check::Relative(t) => format!("± {} %", short(100.0 * t)),
            Check::AtMost(0.0) => "≤ ref".to_string(),
            Check::AtMost(t) => format!("≤ ref + {}{unit}", short(t)),
            Check::AtLeast(0.0) => "≥ ref".to_string(),
            Check::AtLeast(t) => format!("≥ ref − {}{unit}", short(t)),
        }
    }
}

/// A number in 4 significant figures at most, without trailing zeros.
fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let text = format!("{x:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// One validation row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The case (a family of rows): "tilt table", "steady turn", …
    pub case: &'static str,
    /// The robot preset.
    pub robot: String,
    /// What is compared, with its setting: "sideways tip angle", "yaw rate, belts 0.5/0.2 m/s".
    pub quantity: String,
    /// Unit of `model` and `reference` ("" for a ratio).
    pub unit: &'static str,
    /// The model's value.
    pub model: f64,
    /// The reference value.
    pub reference: f64,
    /// How they are compared.
    pub check: Check,
    /// Whether the row passes.
    pub pass: bool,
    /// Key of the reference's source in [`REFERENCES`].
    pub source: &'static str,
}

impl Row {
    /// A row, judged.
    pub fn new(
        case: &'static str,
        robot: &str,
        quantity: impl Into<String>,
        unit: &'static str,
        (model, reference): (f64, f64),
        check: Check,
        source: &'static str,
    ) -> Self {
        Self {
            case,
            robot: robot.to_string(),
            quantity: quantity.into(),
            unit,
            model,
            reference,
            check,
            pass: check.passes(model, reference),
            source,
        }
    }
}

/// A cited source of references.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Reference {
    /// Short key the rows use.
    pub key: &'static str,
    /// The citation.
    pub citation: &'static str,
    /// What the rows take from it.
    pub used_for: &'static str,
}

/// Every source the rows cite.
pub const REFERENCES: [Reference; 10] = [
    Reference {
        key: "design",
        citation: "treadsim DESIGN.md, \"Reference results to test against\" (rest, drop, slope, tilt table)",
        used_for: "Σ normal force = m·g on flat ground; a drop's energy never grows and it settles within 2 s",
    },
    Reference {
        key: "wong",
        citation: "J. Y. Wong, Theory of Ground Vehicles, 4th ed., Wiley, 2008, ch. 7 (steering of tracked vehicles: skid steering with Coulomb friction under the tracks)",
        used_for: "steady turns: the twist at which the contacts' Coulomb friction and motion resistance are in equilibrium (solved by treadsim::tools::validate::coulomb on the model's contact loads)",
    },
    Reference {
        key: "coulomb",
        citation: "Coulomb's law of dry friction: a block holds on a plane below atan μ and slides above it",
        used_for: "parked on a slope, belts held: holds at atan μ − 3°, slides at atan μ + 3°, facing any way (a slope below the robot's tip-over angles)",
    },
    Reference {
        key: "tilt",
        citation: "SAE J2180, A Tilt Table Procedure for Measuring the Static Rollover Threshold for Heavy Trucks; static stability: tan θ = (B/2)/h (sideways), a/h (forward, backward)",
        used_for: "tilt-table tip angles (1.5°/s, 0.25°/s once the uphill side nears liftoff) against the support-polygon formula (envelope::tip_formulas); sideways between the downhill belt's centre line and outer plane (envelope::sideways_bracket: roll compliance)",
    },
    Reference {
        key: "seed000",
        citation: "seeds/000: kinematic tracked vehicle, exact arc per update",
        used_for: "the kinematic limit: driving straight the dynamic robot follows the no-slip path",
    },
    Reference {
        key: "seed001",
        citation: "seeds/001: car kinematics about the instantaneous centre of rotation (Ackermann)",
        used_for: "a steered wheeled robot's circle at low speed: centre l·cot α across from the outer wheel on the rear axle's line",
    },
    Reference {
        key: "torque",
        citation: "Statics of a serial arm: a joint holds while its torque limit exceeds the gravity moment Σ m·g·x of everything outboard of it",
        used_for: "the elbow holds at 1.05 × the gravity moment and sags at 0.95 ×, its motor never past the limit",
    },
    Reference {
        key: "grip",
        citation: "Coulomb's law at a two-finger grip: an object held by two pads pressed with F each holds while 2·μ·F ≥ m·g",
        used_for: "a 1 kg box holds at 2·μ·F = 1.25·m·g and slips at 0.8·m·g",
    },
    Reference {
        key: "valve",
        citation: "Coulomb's law at a two-finger pinch turning a shaft: the pads pass on at most 2·μ·F·ρ about it (each μ·F at the shaft's radius ρ); a joint turns against a friction torque only while its own limit exceeds it",
        used_for: "a handwheel turns with the wrist at 0.4 × the weaker of 2·μ·F·ρ and the wrist's limit; at 2.5 × 2·μ·F·ρ the pads slip round its hub, then push its spokes from the angle plane geometry gives; the wrist stalls at 1.25 × its limit",
    },
    Reference {
        key: "trench",
        citation: "Rigid-vehicle trench crossing (Bekker, Theory of Land Locomotion, 1956; Wong, ch. 7): a trench is crossed while the centre of mass stays over a supported span",
        used_for: "widest gap crossed with the flippers level: at least the shorter of the running gear's reach ahead of and behind the centre of mass, at most its length",
    },
];

/// Why validation could not run.
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    /// A preset or generated scene did not load.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The simulation refused the scene or robot.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// An envelope trial failed to run.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The thread pool could not start.
    #[error("cannot start {0} threads")]
    Threads(usize),
}

/// What to validate, and how.
#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// The physics settings (step size) every case runs with.
    pub config: SimConfig,
    /// The fast form (`make test`): the scout and one wheeled robot, fewer directions.
    pub fast: bool,
    /// Threads to run cases on (results do not depend on it).
    pub threads: usize,
    /// Folder of the robot presets (`scenes/robots`).
    pub robots: std::path::PathBuf,
}

/// The rows of a validation run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The step size, s.
    pub dt: f64,
    /// Whether the contacts were stepped implicitly.
    pub implicit: bool,
    /// Whether this was the fast form.
    pub fast: bool,
    /// Every row, in case order.
    pub rows: Vec<Row>,
    /// Every row passed.
    pub passed: bool,
}

/// Runs every case of `options`.
pub fn validate(options: &ValidateOptions) -> Result<Report, ValidateError> {
    let jobs = cases::jobs(options)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|_| ValidateError::Threads(options.threads))?;
    let results: Vec<Result<Vec<Row>, ValidateError>> = pool.install(|| {
        use rayon::prelude::*;
        jobs.par_iter().map(|job| job()).collect()
    });
    let mut rows = Vec::new();
    for r in results {
        rows.extend(r?);
    }
    let passed = rows.iter().all(|r| r.pass);
    Ok(Report {
        dt: options.config.dt,
        implicit: options.config.implicit_contacts,
        fast: options.fast,
        rows,
        passed,
    })
}

impl Report {
    /// The rows that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| !r.pass)
    }

    /// `docs/validation.md`: the method, the table and the references.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Validation report\n\n\
             Generated by `treadsim validate --out docs` (step {} ms{}); rerun it to check this \
             build.{} Each row runs the full physics headless (track model, rapier, the robot \
             preset) and compares one measured quantity with a reference that does not come \
             from the model; the command exits non-zero if any row fails.\n",
            short(self.dt * 1000.0),
            if self.fast { ", fast form" } else { "" },
            if self.implicit {
                " Contacts stepped implicitly (`--implicit`)."
            } else {
                ""
            }
        );
        let passed = self.rows.iter().filter(|r| r.pass).count();
        let _ = writeln!(
            out,
            "**{passed} of {} rows pass.**\n\n\
             | case | robot | quantity | model | reference | tolerance | result | source |\n\
             |---|---|---|---|---|---|---|---|",
            self.rows.len()
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | [{}](#{}) |",
                r.case,
                r.robot,
                r.quantity,
                with_unit(r.model, r.unit),
                with_unit(r.reference, r.unit),
                r.check.describe(r.unit),
                if r.pass { "pass" } else { "**FAIL**" },
                r.source,
                r.source
            );
        }
        let _ = writeln!(out, "\n## Method\n\n{}", cases::METHOD);
        let _ = writeln!(out, "\n## References\n");
        for reference in REFERENCES {
            let _ = writeln!(
                out,
                "- <a id=\"{}\"></a>**{}**: {}. Used for: {}.",
                reference.key, reference.key, reference.citation, reference.used_for
            );
        }
        out
    }
}

fn with_unit(x: f64, unit: &str) -> String {
    if unit.is_empty() {
        short(x)
    } else {
        format!("{} {unit}", short(x))
    }
}

impl fmt::Display for Report {
    /// The table for a terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "validation at dt = {} ms{}{}",
            short(self.dt * 1000.0),
            if self.implicit {
                ", implicit contacts"
            } else {
                ""
            },
            if self.fast { " (fast form)" } else { "" }
        )?;
        for r in &self.rows {
            writeln!(
                f,
                "{:4} {:22} {:11} {:44} model {:>12}  ref {:>12}  {:14} [{}]",
                if r.pass { "ok" } else { "FAIL" },
                r.case,
                r.robot,
                r.quantity,
                with_unit(r.model, r.unit),
                with_unit(r.reference, r.unit),
                r.check.describe(r.unit),
                r.source
            )?;
        }
        let failed = self.failures().count();
        write!(
            f,
            "{} rows, {} passed, {failed} failed",
            self.rows.len(),
            self.rows.len() - failed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_judge_both_ways() {
        assert!(Check::Absolute(0.1).passes(1.05, 1.0));
        assert!(!Check::Absolute(0.1).passes(1.15, 1.0));
        assert!(Check::Relative(0.01).passes(-99.5, -100.0));
        assert!(!Check::Relative(0.01).passes(-98.0, -100.0));
        assert!(Check::AtMost(0.0).passes(1.0, 1.0));
        assert!(!Check::AtMost(0.0).passes(1.01, 1.0));
        assert!(Check::AtLeast(0.5).passes(0.6, 1.0));
        assert!(!Check::AtLeast(0.5).passes(0.4, 1.0));
        assert!(!Check::Absolute(1.0).passes(f64::NAN, 0.0));
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(short(0.5), "0.5");
        assert_eq!(short(12.3456), "12.35");
        assert_eq!(short(0.0012346), "0.001235");
        assert_eq!(Check::Relative(0.005).describe(""), "± 0.5 %");
        assert_eq!(Check::Absolute(2.0).describe("deg"), "± 2 deg");
    }

    #[test]
    fn every_source_is_cited_once() {
        for (i, a) in REFERENCES.iter().enumerate() {
            assert!(
                REFERENCES[i + 1..].iter().all(|b| b.key != a.key),
                "{}",
                a.key
            );
        }
    }
}
