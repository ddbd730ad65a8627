//! Running a trial without the station: the robot follows a drive script (or stands still)
//! until the trial ends.

use super::{Exercise, Trial, TrialResult};
use crate::sim::soak::ScriptDriver;
use crate::sim::{DriveScript, RobotId, SimConfig, SimError, Simulation};

/// Simulated time a headless trial may run past the exercise's time limit before it is cut
/// off, s (the clock stops only for the one step of each fault's reset, so it never should).
pub const OVERRUN: f64 = 60.0;

/// A trial run to its end: the result, and the simulation as it ended (for telemetry).
pub struct HeadlessRun {
    /// The trial's result.
    pub result: TrialResult,
    /// The simulation at the end.
    pub sim: Simulation,
    /// The robot.
    pub robot: RobotId,
}

/// Runs a trial of `exercise` headless: the robot follows `script` (times from the start of
/// the trial), or stands still without one, until the trial ends. `each_step` is called after
/// every step (telemetry).
pub fn run_trial(
    exercise: &Exercise,
    script: Option<DriveScript>,
    config: SimConfig,
    mut each_step: impl FnMut(&Simulation, RobotId),
) -> Result<HeadlessRun, SimError> {
    let mut sim = Simulation::new(exercise.scene.clone(), config)?;
    let id = sim.add_robot(exercise.robot.clone(), &exercise.spawn)?;
    let mut trial = Trial::new(exercise, &mut sim, id);
    // Faults are the trial's business: the driver never resets the robot itself.
    let mut driver = script.map(|s| ScriptDriver::new(s, exercise.spawn.clone(), false));
    let end = exercise.spec.time_limit + OVERRUN;
    while !trial.is_finished() && sim.time() < end {
        if let Some(d) = driver.as_mut() {
            d.before_step(&mut sim, id);
        }
        sim.step();
        trial.update(&mut sim, id);
        each_step(&sim, id);
    }
    Ok(HeadlessRun {
        result: trial.result(),
        sim,
        robot: id,
    })
}
