//! Running a trial without the station: the robot follows a drive script (or stands still)
//! until the trial ends.

use super::{Exercise, Trial, TrialResult};
use crate::sim::link::CommandLink;
use crate::sim::{DriveScript, RobotId, SimConfig, SimError, Simulation};
use crate::vehicle::DriveCommand;

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

/// Runs a trial of `exercise` headless: the operator's command follows `script` (times from
/// the start of the trial; a stop without one) and reaches the robot through the exercise's
/// link ([`CommandLink`]: latency, dropouts) every step, until the trial ends. After a fault
/// the robot is back at the start and the script goes on (the operator keeps driving).
/// `each_step` is called after every step (telemetry).
pub fn run_trial(
    exercise: &Exercise,
    script: Option<DriveScript>,
    config: SimConfig,
    mut each_step: impl FnMut(&Simulation, RobotId),
) -> Result<HeadlessRun, SimError> {
    let mut sim = Simulation::new(exercise.scene.clone(), config)?;
    let id = sim.add_robot(exercise.robot.clone(), &exercise.spawn)?;
    let mut trial = Trial::new(exercise, &mut sim, id);
    let mut link = CommandLink::new(exercise.spec.link.clone(), config.dt);
    let end = exercise.spec.time_limit + OVERRUN;
    while !trial.is_finished() && sim.time() < end {
        let t = sim.time();
        let wanted = script
            .as_ref()
            .map_or(DriveCommand::STOP, |s| s.command_at(t));
        sim.set_command(id, link.transmit(t, wanted));
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
