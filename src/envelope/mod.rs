//! The capability envelope: a measured spec sheet of a robot, like the ones real robots
//! publish (maximum slope, stair angle, step height, gap, tip-over angles, speed, turning),
//! produced by standard sweeps on generated test lanes ([`lanes`]) with a documented driving
//! strategy per sweep ([`trials`]). `treadsim envelope --robot R` prints it;
//! `scenes/robots/README.md` shows each preset's.
//!
//! A sweep runs every setting, not only up to the first failure, so that its monotony (a
//! robot that fails 40° stairs also fails 45°) is a checked property of the model, not an
//! assumption; its limit is the last setting passed before the first failure. Slope limits
//! are refined by bisection to [`SLOPE_RESOLUTION`] between the last pass and the first
//! failure of a 5° grid. Trials are independent simulations, run on `threads` threads;
//! the sheet does not depend on the thread count.

pub mod arm;
pub mod lanes;
pub mod trials;

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use crate::config::ConfigError;
use crate::sim::{SimConfig, SimError};
use crate::vehicle::stability::TipLimits;
use crate::vehicle::RobotSpec;
pub use trials::{Outcome, SlopeTask, TiltDirection, TiltRate};

/// Why the envelope could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// A generated lane did not load (a bug: the lanes are fixed text).
    #[error("lane: {0}")]
    Lane(#[from] ConfigError),
    /// The robot could not be put on a lane.
    #[error("{0}")]
    Sim(#[from] SimError),
    /// A generated lane has no spawn (a bug).
    #[error("lane without a spawn")]
    NoSpawn,
    /// A trial did not report (its thread stopped).
    #[error("a trial did not finish")]
    Incomplete,
}

/// Slope angles are bisected down to this, deg.
pub const SLOPE_RESOLUTION: f64 = 0.625;
/// Coarse grid of the slope sweeps, deg.
pub const SLOPE_ANGLES: [f64; 13] = [
    0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 55.0, 60.0,
];
/// Stair angles swept (0.20 m rises), deg.
pub const STAIR_ANGLES: [f64; 8] = [25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 55.0, 60.0];
/// Angles of the building-stair family swept, deg (the family — rise 0.15–0.22 m, run
/// 0.22–0.35 m — spans 23.2° to 45°).
pub const FAMILY_ANGLES: [f64; 5] = [25.0, 30.0, 35.0, 40.0, 45.0];
/// Step heights swept, m.
pub const STEP_HEIGHTS: [f64; 10] = [0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50];
/// Gap widths swept, m.
pub const GAP_WIDTHS: [f64; 14] = [
    0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.70, 0.80,
];

/// One setting of a sweep and how the robot did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The setting (deg for angles, m for heights and widths).
    pub value: f64,
    /// How the trial ended.
    pub outcome: Outcome,
}

/// A sweep over increasing difficulty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sweep {
    /// What was swept and the strategy, for the sheet.
    pub label: String,
    /// Unit of the settings (`deg` or `m`).
    pub unit: &'static str,
    /// Every setting, in increasing order.
    pub points: Vec<SweepPoint>,
    /// The last setting passed before the first failure (`None`: the first failed).
    pub limit: Option<f64>,
}

impl Sweep {
    fn new(label: impl Into<String>, unit: &'static str, points: Vec<SweepPoint>) -> Self {
        let limit = points
            .iter()
            .take_while(|p| p.outcome.pass)
            .last()
            .map(|p| p.value);
        Self {
            label: label.into(),
            unit,
            points,
            limit,
        }
    }

    /// Whether no setting passes after one has failed.
    pub fn is_monotone(&self) -> bool {
        let first_fail = self.points.iter().position(|p| !p.outcome.pass);
        first_fail.is_none_or(|i| self.points[i..].iter().all(|p| !p.outcome.pass))
    }

    /// The first failure, if any.
    pub fn first_failure(&self) -> Option<&SweepPoint> {
        self.points.iter().find(|p| !p.outcome.pass)
    }
}

/// Static tip-over angles: from the formulas and measured on the tilt table, deg.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TipSheet {
    /// Formula (DESIGN.md): forwards tan θ = a/h to the front end of the footprint, deg.
    pub forward_formula: f64,
    /// Formula backwards (nose up), deg.
    pub backward_formula: f64,
    /// Formula sideways, tan θ = (B/2 − |y_cg|)/h with B/2 to the outermost track plane
    /// ([`support_half_width`]), deg.
    pub sideways_formula: f64,
    /// Measured forwards on the tilt table, deg (`None`: slid first or never tipped).
    pub forward: Option<f64>,
    /// Measured backwards, deg.
    pub backward: Option<f64>,
    /// Measured sideways, deg.
    pub sideways: Option<f64>,
}

/// The measured spec sheet of one robot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sheet {
    /// Robot name.
    pub robot: String,
    /// Mass, kg.
    pub mass: f64,
    /// Friction coefficient of the lanes' surface.
    pub surface_friction: f64,
    /// Tip-over angles.
    pub tip: TipSheet,
    /// Slope sweeps, one per [`SlopeTask`], deg (limits refined by bisection).
    pub slopes: Vec<Sweep>,
    /// Stairs with the flippers used (robots with flippers only), deg.
    pub stairs_with_flippers: Option<Sweep>,
    /// Stairs with the flippers stowed (or none), deg.
    pub stairs_without_flippers: Sweep,
    /// Building stairs up (the family of [`lanes::family_flights`]), the stair goal, deg.
    pub family_up: Sweep,
    /// Building stairs down, the descend goal, deg.
    pub family_down: Sweep,
    /// Building stairs up and down with the flippers held stowed (robots with flippers
    /// only; without, the two above are without flippers), deg.
    pub family_without_flippers: Option<(Sweep, Sweep)>,
    /// Single steps, m.
    pub steps: Sweep,
    /// Gaps, m.
    pub gaps: Sweep,
    /// Top speed on the flat, m/s.
    pub top_speed: f64,
    /// Turning rate on the spot, deg/s.
    pub pivot_rate: f64,
    /// The arm section (robots with an arm).
    pub arm: Option<arm::ArmSheet>,
}

impl Sheet {
    /// Every sweep of the sheet.
    pub fn sweeps(&self) -> impl Iterator<Item = &Sweep> {
        self.slopes
            .iter()
            .chain(self.stairs_with_flippers.iter())
            .chain([
                &self.stairs_without_flippers,
                &self.family_up,
                &self.family_down,
            ])
            .chain(
                self.family_without_flippers
                    .iter()
                    .flat_map(|(up, down)| [up, down]),
            )
            .chain([&self.steps, &self.gaps])
    }
}

/// A trial to run on some thread.
type Task<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs `jobs` on `threads` threads (at least one); results in job order.
fn run_parallel<T: Send>(jobs: Vec<Task<'_, T>>, threads: usize) -> Vec<T> {
    let count = jobs.len();
    let queue: Mutex<Vec<Option<Task<'_, T>>>> = Mutex::new(jobs.into_iter().map(Some).collect());
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let job = queue.lock().map(|mut q| q[i].take()).ok().flatten();
                if let Some(job) = job {
                    let out = job();
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(out);
                    }
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// A fallible trial.
type Job<'a, T> = Task<'a, Result<T, EnvelopeError>>;

/// Runs fallible jobs in parallel; the first error (in job order) wins.
fn run_all<T: Send>(jobs: Vec<Job<'_, T>>, threads: usize) -> Result<Vec<T>, EnvelopeError> {
    let count = jobs.len();
    let results = run_parallel(jobs, threads);
    if results.len() != count {
        return Err(EnvelopeError::Incomplete);
    }
    results.into_iter().collect()
}

/// How far either side of the body's x axis a robot stands on flat ground, m: the sideways
/// support line is a belt's outermost plane, or a wheel's mid-plane. A belt bears across its
/// width (each plane's load lies where its strip presses hardest, `vehicle::tracked::strip`),
/// so a rigid robot would tip over the belt's outer edge; the model's compliant belt rolls
/// onto that plane only as the uphill track lifts, and that roll carries the centre of mass
/// over before it is there (see [`sideways_bracket`]).
pub fn support_half_width(spec: &RobotSpec) -> f64 {
    spec.tracks
        .iter()
        .map(|t| t.y.abs() + t.belt.outermost_plane_offset())
        .chain(spec.wheels.iter().map(|w| w.center.y.abs()))
        .fold(0.0, f64::max)
}

/// How far either side of the body's x axis the belts' centre lines (or the wheels'
/// mid-planes) lie, m: the inner end of a compliant belt's sideways support
/// ([`sideways_bracket`]).
pub fn centre_line_half_width(spec: &RobotSpec) -> f64 {
    spec.tracks
        .iter()
        .map(|t| t.y.abs())
        .chain(spec.wheels.iter().map(|w| w.center.y.abs()))
        .fold(0.0, f64::max)
}

/// The sideways tip-over angles that bracket a compliant belt's, deg: `(centre line, outer
/// plane)`, the vertical through the centre of mass passing the downhill belt's centre line
/// and its outermost plane ([`support_half_width`]; a wheel's mid-plane for both). A rigid
/// belt tips over its outer plane; the model's, of two or more planes with their own
/// sinkage, rolls onto that plane only once the uphill track has lifted, and the roll that
/// loading that plane alone takes carries the centre of mass past it sooner: its rollover
/// threshold is lowered by roll compliance, as a suspended vehicle's is (Gillespie,
/// *Fundamentals of Vehicle Dynamics*, rollover). Measured on a quasi-static table
/// (selfright20, 2026-12-02): the uphill track lifts at 59.5°, the robot rolls 1.0° onto its
/// outer plane by 60.0° and tips near 60°, between this bracket's 59.0° and 61.75°.
pub fn sideways_bracket(spec: &RobotSpec) -> (f64, f64) {
    let h = TipLimits::from_spec(spec).com_height;
    let centre = centre_line_half_width(spec);
    let angle = |half: f64| {
        (half - spec.center_of_mass.y.abs())
            .max(0.0)
            .atan2(h)
            .to_degrees()
    };
    (angle(centre), angle(support_half_width(spec)))
}

/// The tip-over formulas of `spec`, deg: (forward, backward, sideways).
pub fn tip_formulas(spec: &RobotSpec) -> (f64, f64, f64) {
    let limits = TipLimits::from_spec(spec);
    let half = support_half_width(spec);
    let sideways = (half - spec.center_of_mass.y.abs())
        .max(0.0)
        .atan2(limits.com_height);
    (
        limits.forward.to_degrees(),
        limits.backward.to_degrees(),
        sideways.to_degrees(),
    )
}

/// The slope sweep of `task`: the coarse grid, then bisection between its last pass and
/// first failure.
fn slope_sweep(
    spec: &RobotSpec,
    config: &SimConfig,
    task: SlopeTask,
    threads: usize,
) -> Result<Sweep, EnvelopeError> {
    let jobs: Vec<Job<'_, Outcome>> = SLOPE_ANGLES
        .iter()
        .map(|&deg| -> Job<'_, Outcome> {
            Box::new(move || trials::slope(spec, config, task, deg.to_radians()))
        })
        .collect();
    let outcomes = run_all(jobs, threads)?;
    let mut points: Vec<SweepPoint> = SLOPE_ANGLES
        .iter()
        .zip(outcomes)
        .map(|(&value, outcome)| SweepPoint { value, outcome })
        .collect();
    if let Some(fail) = points.iter().position(|p| !p.outcome.pass) {
        if fail > 0 {
            let (mut lo, mut hi) = (points[fail - 1].value, points[fail].value);
            let mut refined = Vec::new();
            while hi - lo > SLOPE_RESOLUTION + 1e-9 {
                let mid = 0.5 * (lo + hi);
                let outcome = trials::slope(spec, config, task, mid.to_radians())?;
                if outcome.pass {
                    lo = mid;
                } else {
                    hi = mid;
                }
                refined.push(SweepPoint {
                    value: mid,
                    outcome,
                });
            }
            points.extend(refined);
            points.sort_by(|a, b| a.value.total_cmp(&b.value));
        }
    }
    Ok(Sweep::new(task.label(), "deg", points))
}

/// A sweep of `values` by `trial`.
fn sweep<'a>(
    label: &str,
    unit: &'static str,
    values: &[f64],
    threads: usize,
    trial: impl Fn(f64) -> Result<Outcome, EnvelopeError> + Sync + 'a,
) -> Result<Sweep, EnvelopeError> {
    let trial = &trial;
    let jobs: Vec<Job<'_, Outcome>> = values
        .iter()
        .map(|&v| -> Job<'_, Outcome> { Box::new(move || trial(v)) })
        .collect();
    let outcomes = run_all(jobs, threads)?;
    let points = values
        .iter()
        .zip(outcomes)
        .map(|(&value, outcome)| SweepPoint { value, outcome })
        .collect();
    Ok(Sweep::new(label, unit, points))
}

/// One of the sheet's sweeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepKind {
    /// A slope task over [`SLOPE_ANGLES`], refined by bisection.
    Slope(SlopeTask),
    /// Stairs over [`STAIR_ANGLES`] with the flippers used (robots with flippers).
    StairsWithFlippers,
    /// Stairs over [`STAIR_ANGLES`] with the flippers stowed (or none).
    StairsWithoutFlippers,
    /// The building-stair family over [`FAMILY_ANGLES`], up or down, with the stair goals.
    StairFamily {
        /// Down the flights (facing down) rather than up.
        down: bool,
        /// The flippers as the strategy sets them (robots with flippers), not held stowed.
        flippers: bool,
    },
    /// Single steps over [`STEP_HEIGHTS`].
    Steps,
    /// Gaps over [`GAP_WIDTHS`].
    Gaps,
}

/// Runs one sweep of `spec` on `threads` threads.
pub fn run_sweep(
    spec: &RobotSpec,
    config: &SimConfig,
    kind: SweepKind,
    threads: usize,
) -> Result<Sweep, EnvelopeError> {
    let has_flippers = !spec.flippers.is_empty();
    match kind {
        SweepKind::Slope(task) => slope_sweep(spec, config, task, threads),
        SweepKind::StairsWithFlippers => sweep(
            "stairs, 0.20 m rises, flippers used (autopilot: approach angle from the sensed rise, -12° on the flight)",
            "deg",
            &STAIR_ANGLES,
            threads,
            |d| trials::stairs(spec, config, d.to_radians(), true),
        ),
        SweepKind::StairsWithoutFlippers => sweep(
            if has_flippers {
                "stairs, 0.20 m rises, flippers stowed"
            } else {
                "stairs, 0.20 m rises (no flippers)"
            },
            "deg",
            &STAIR_ANGLES,
            threads,
            |d| trials::stairs(spec, config, d.to_radians(), false),
        ),
        SweepKind::StairFamily { down, flippers } => sweep(
            match (down, flippers || !has_flippers) {
                (true, true) => "building stairs down (rise 0.15-0.22 m, run 0.22-0.35 m, nosing 0/32 mm), descend goal",
                (false, true) => "building stairs up (rise 0.15-0.22 m, run 0.22-0.35 m, nosing 0/32 mm), climb goal",
                (true, false) => "building stairs down, flippers stowed, descend goal",
                (false, false) => "building stairs up, flippers stowed, climb goal",
            },
            "deg",
            &FAMILY_ANGLES,
            threads,
            move |d| trials::stair_family(spec, config, d.to_radians(), down, flippers),
        ),
        SweepKind::Steps => sweep(
            "single step, climb strategy",
            "m",
            &STEP_HEIGHTS,
            threads,
            |h| trials::step(spec, config, h),
        ),
        SweepKind::Gaps => sweep(
            "gap between raised platforms, flippers level",
            "m",
            &GAP_WIDTHS,
            threads,
            |w| trials::gap(spec, config, w),
        ),
    }
}

/// The tip-over angles of `spec`: formulas and the tilt table, on `threads` threads.
pub fn measure_tip(
    spec: &RobotSpec,
    config: &SimConfig,
    threads: usize,
) -> Result<TipSheet, EnvelopeError> {
    let (forward_formula, backward_formula, sideways_formula) = tip_formulas(spec);
    let tilts: Vec<Job<'_, Option<f64>>> = [
        TiltDirection::Forward,
        TiltDirection::Backward,
        TiltDirection::Sideways,
    ]
    .into_iter()
    .map(|d| -> Job<'_, Option<f64>> { Box::new(move || trials::tilt_table(spec, config, d)) })
    .collect();
    let tilt = run_all(tilts, threads)?;
    let deg = |a: &Option<f64>| a.map(f64::to_degrees);
    Ok(TipSheet {
        forward_formula,
        backward_formula,
        sideways_formula,
        forward: deg(&tilt[0]),
        backward: deg(&tilt[1]),
        sideways: deg(&tilt[2]),
    })
}

/// Measures the whole sheet of `spec` on `threads` threads.
pub fn measure(
    spec: &RobotSpec,
    config: &SimConfig,
    threads: usize,
) -> Result<Sheet, EnvelopeError> {
    measure_with(spec, config, threads, &mut |_| {})
}

/// [`measure`], telling `progress` the share of the sheet done (0..1) after each part.
pub fn measure_with(
    spec: &RobotSpec,
    config: &SimConfig,
    threads: usize,
    progress: &mut dyn FnMut(f64),
) -> Result<Sheet, EnvelopeError> {
    // Tip-over, the slopes, the flights with and without flippers, steps, gaps, top speed
    // and pivot rate.
    let parts = 1
        + SlopeTask::ALL.len()
        + 3 * usize::from(!spec.flippers.is_empty())
        + 7
        + usize::from(spec.arm.is_some());
    let mut done = 0usize;
    let mut part_done = |progress: &mut dyn FnMut(f64)| {
        done += 1;
        progress(done as f64 / parts as f64);
    };
    let tip = measure_tip(spec, config, threads)?;
    part_done(progress);
    let mut slopes = Vec::with_capacity(SlopeTask::ALL.len());
    for &task in SlopeTask::ALL.iter() {
        slopes.push(run_sweep(spec, config, SweepKind::Slope(task), threads)?);
        part_done(progress);
    }
    let stairs_with_flippers = if spec.flippers.is_empty() {
        None
    } else {
        let sweep = run_sweep(spec, config, SweepKind::StairsWithFlippers, threads)?;
        part_done(progress);
        Some(sweep)
    };
    let stairs_without_flippers =
        run_sweep(spec, config, SweepKind::StairsWithoutFlippers, threads)?;
    part_done(progress);
    let mut family = |down: bool, flippers: bool, progress: &mut dyn FnMut(f64)| {
        let sweep = run_sweep(
            spec,
            config,
            SweepKind::StairFamily { down, flippers },
            threads,
        );
        part_done(progress);
        sweep
    };
    let family_up = family(false, true, progress)?;
    let family_down = family(true, true, progress)?;
    let family_without_flippers = if spec.flippers.is_empty() {
        None
    } else {
        Some((
            family(false, false, progress)?,
            family(true, false, progress)?,
        ))
    };
    let steps = run_sweep(spec, config, SweepKind::Steps, threads)?;
    part_done(progress);
    let gaps = run_sweep(spec, config, SweepKind::Gaps, threads)?;
    part_done(progress);
    let top_speed = trials::top_speed(spec, config)?;
    part_done(progress);
    let pivot_rate = trials::pivot_rate(spec, config)?.to_degrees();
    part_done(progress);
    let arm = arm::measure_arm(spec, config)?;
    if arm.is_some() {
        part_done(progress);
    }
    Ok(Sheet {
        robot: spec.name.clone(),
        mass: spec.mass,
        surface_friction: lanes::LANE_FRICTION,
        tip,
        slopes,
        stairs_with_flippers,
        stairs_without_flippers,
        family_up,
        family_down,
        family_without_flippers,
        steps,
        gaps,
        top_speed,
        pivot_rate,
        arm,
    })
}

/// A limit for the sheet: `≥ last` when every setting passed.
fn limit_text(sweep: &Sweep) -> String {
    let fmt = |v: f64| {
        if sweep.unit == "deg" {
            format!("{v:.1}°")
        } else {
            format!("{:.2} m", v)
        }
    };
    let all_passed = sweep.points.iter().all(|p| p.outcome.pass);
    match (sweep.limit, sweep.first_failure()) {
        (Some(v), _) if all_passed => format!("≥ {}", fmt(v)),
        (Some(v), Some(f)) => format!("{} (fails {}: {})", fmt(v), fmt(f.value), f.outcome.reason),
        (None, Some(f)) => format!("none (fails {}: {})", fmt(f.value), f.outcome.reason),
        (_, None) => "no settings".into(),
    }
}

impl fmt::Display for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |a: Option<f64>| a.map_or("slides first".to_string(), |v| format!("{v:.1}°"));
        writeln!(
            f,
            "Capability envelope: {} ({:.0} kg)",
            self.robot, self.mass
        )?;
        writeln!(
            f,
            "lanes: plywood μ {:.2}, edges r {:.0} mm; stairs 0.20 m rises",
            self.surface_friction,
            lanes::LANE_EDGE_RADIUS * 1000.0
        )?;
        writeln!(f, "static tip-over      formula   tilt table")?;
        for (name, formula, measured) in [
            (
                "  forward (nose down)",
                self.tip.forward_formula,
                self.tip.forward,
            ),
            (
                "  backward (nose up) ",
                self.tip.backward_formula,
                self.tip.backward,
            ),
            (
                "  sideways           ",
                self.tip.sideways_formula,
                self.tip.sideways,
            ),
        ] {
            writeln!(f, "{name} {formula:>6.1}°   {}", opt(measured))?;
        }
        writeln!(
            f,
            "slope limits (atan μ = {:.1}°):",
            self.surface_friction.atan().to_degrees()
        )?;
        for s in &self.slopes {
            writeln!(f, "  {:<34} {}", s.label, limit_text(s))?;
        }
        let stowed = self
            .family_without_flippers
            .iter()
            .flat_map(|(up, down)| [up, down]);
        for s in self
            .stairs_with_flippers
            .iter()
            .chain([
                &self.stairs_without_flippers,
                &self.family_up,
                &self.family_down,
            ])
            .chain(stowed)
            .chain([&self.steps, &self.gaps])
        {
            writeln!(f, "{}: {}", s.label, limit_text(s))?;
        }
        writeln!(f, "top speed: {:.2} m/s", self.top_speed)?;
        writeln!(f, "turning on the spot: {:.0}°/s", self.pivot_rate.abs())?;
        if let Some(arm) = &self.arm {
            write!(f, "{arm}")?;
        }
        Ok(())
    }
}
