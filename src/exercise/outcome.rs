//! What a trial records and ends with: the faults that void a repetition, the events in order
//! (for the log, the station and the report), and the result.

/// Why a repetition was voided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Past a static tip-over limit for the trial's `TIP_HOLD` s.
    TipOver,
    /// Upside down.
    RollOver,
    /// Fell (off a ledge or out of the scene).
    Fell,
    /// Left the scene's bounds.
    OutOfBounds,
    /// A drive motor stalled longer than the stall limit.
    Stall,
    /// A reset was asked for.
    Reset,
    /// The gripper lost an object it was closed on (it slid out or was knocked out).
    Dropped,
    /// An arm joint was held at its torque limit longer than the stall limit.
    JointOverload,
}

impl FaultKind {
    /// A short name for tables and logs.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::TipOver => "tip-over",
            FaultKind::RollOver => "roll-over",
            FaultKind::Fell => "fall",
            FaultKind::OutOfBounds => "out of bounds",
            FaultKind::Stall => "motor stall",
            FaultKind::Reset => "reset",
            FaultKind::Dropped => "dropped object",
            FaultKind::JointOverload => "arm joint overload",
        }
    }
}

/// Something the trial decided, with the simulation time `time` (s) and the exercise clock
/// `clock` (s) at which it happened.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseEvent {
    /// A goal of the route was reached.
    GoalReached {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// Repetition under way (1-based).
        repetition: u32,
        /// Goal index in the route.
        goal: usize,
        /// Goal name.
        name: String,
    },
    /// A repetition was completed.
    RepetitionDone {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// Repetitions completed so far.
        completed: u32,
        /// Clock time the repetition took, s.
        duration: f64,
    },
    /// The robot, started off its tracks (on its back or side), stood on them within its
    /// tip-over limits for the trial's `TIP_HOLD`: from now on tilt faults and hull contacts count.
    Righted {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// Repetition under way (1-based).
        repetition: u32,
    },
    /// A fault voided the repetition under way; the robot went back to the start.
    Fault {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// What happened.
        kind: FaultKind,
        /// Repetition voided (1-based).
        repetition: u32,
    },
    /// Points taken off the score.
    Penalty {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// What for.
        reason: String,
        /// Points.
        points: f64,
    },
    /// The trial ended.
    Finished {
        /// Simulation time, s.
        time: f64,
        /// Exercise clock, s.
        clock: f64,
        /// Whether it passed.
        passed: bool,
        /// Why it passed or failed.
        reason: String,
    },
}

/// The trial's results.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrialResult {
    /// Exercise name.
    pub exercise: String,
    /// Repetitions completed.
    pub completed: u32,
    /// Repetitions required.
    pub required: u32,
    /// Faults (voided repetitions).
    pub faults: u32,
    /// Exercise clock at the end, s.
    pub elapsed: f64,
    /// Completed repetitions per minute of clock time.
    pub repetitions_per_minute: f64,
    /// Penalty points in all.
    pub penalty_points: f64,
    /// Final score, 0–100.
    pub score: f64,
    /// Whether the trial passed (`false` while it runs).
    pub passed: bool,
    /// Why it passed or failed (empty while it runs).
    pub reason: String,
    /// Unless it passed: the goal it was on (the one it missed) and how near the robot's
    /// centre came to it, m (to a zone's edge or a gate's segment, horizontally).
    pub closest: Option<(String, f64)>,
    /// The link conditions it ran under, in words (`None`: a perfect link).
    pub link: Option<String>,
    /// When another robot than the exercise names ran it: which, instead of which.
    pub robot: Option<String>,
    /// Every event, in order.
    pub events: Vec<ExerciseEvent>,
}
