//! Drivers: whatever gives a session its inputs step by step — a drive script, a replayed
//! log, the station's input mapping (later the autopilot) — and [`drive`], the one loop that
//! runs a session with one.

use super::DriveScript;
use super::{Input, Session};

/// Anything that gives a session the inputs of its next step.
pub trait Driver {
    /// Applies the inputs of the session's next step (called before each step).
    fn before_step(&mut self, session: &mut Session);

    /// How many times it put the robot back at its spawn (a script's auto-reset).
    fn resets(&self) -> u32 {
        0
    }

    /// Why it stopped short of its goal, if it gave up (the autopilot's stair goals, a
    /// robot it could not right).
    fn gave_up(&self) -> Option<&str> {
        None
    }

    /// The robot was put back from outside (the station's reset): command again what it
    /// commands now, before the next step. Goals need nothing: they steer from where the
    /// robot is.
    fn after_reset(&mut self) {}
}

/// The one driver loop: before each step `driver` gives the session its inputs; after it
/// `each_step` sees the session and says whether to go on. Runs at most `steps` steps; returns
/// how many it ran (fewer if `each_step` stopped it or the session is paused).
pub fn drive(
    session: &mut Session,
    driver: &mut dyn Driver,
    steps: u64,
    mut each_step: impl FnMut(&mut Session) -> bool,
) -> u64 {
    for k in 0..steps {
        driver.before_step(session);
        if !session.step() || !each_step(session) {
            return k + u64::from(!session.is_paused());
        }
    }
    steps
}

/// Follows a [`DriveScript`] for a session's robot: applies a [`Input::Drive`] when the
/// script's command in force changes (and an [`Input::Arm`] when its arm step does), and with `auto_reset` an [`Input::Reset`] whenever the
/// robot is halted (out of bounds, fell, disabled), as an instructor would.
#[derive(Debug, Clone)]
pub struct ScriptDriver {
    script: DriveScript,
    auto_reset: bool,
    /// Index of the command last applied.
    current: Option<usize>,
    /// Index of the arm step last applied.
    current_arm: Option<usize>,
    resets: u32,
}

impl ScriptDriver {
    /// A driver at the start of `script`.
    pub fn new(script: DriveScript, auto_reset: bool) -> Self {
        Self {
            script,
            auto_reset,
            current: None,
            current_arm: None,
            resets: 0,
        }
    }

    /// Applies the script's command in force again before the next step (after the station
    /// reset the robot, which stops it).
    pub fn resend(&mut self) {
        self.current = None;
        self.current_arm = None;
    }

    /// The script.
    pub fn script(&self) -> &DriveScript {
        &self.script
    }
}

impl Driver for ScriptDriver {
    fn resets(&self) -> u32 {
        self.resets
    }

    fn after_reset(&mut self) {
        self.resend();
    }

    fn before_step(&mut self, session: &mut Session) {
        if self.auto_reset && session.sim().robot_status(session.robot()).is_halted() {
            session.apply(Input::Reset);
            self.resets += 1;
        }
        let t = session.sim().time();
        let k = self.script.index_at(t);
        if k != self.current {
            self.current = k;
            session.apply(Input::Drive(self.script.command_at(t)));
        }
        let a = self.script.arm_index_at(t);
        if a != self.current_arm {
            self.current_arm = a;
            let arm = session.sim().robot(session.robot()).spec().arm.as_ref();
            if let (Some(arm), Some(a)) = (arm, a) {
                let command = self.script.arm[a].1.command(arm);
                session.apply(Input::Arm(command));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A driver that counts its calls.
    struct Counter(u64);

    impl Driver for Counter {
        fn before_step(&mut self, _: &mut Session) {
            self.0 += 1;
        }
    }

    #[test]
    fn the_loop_runs_its_steps_stops_when_told_and_on_a_pause() {
        let scene = crate::scene::Scene::from_source(&crate::config::SourceFile::from_text(
            std::path::Path::new("f.toml"),
            "[[element]]\ntype = \"box\"\nsize = [4, 4, 0.2]\nposition = [0, 0, -0.2]\n\
             [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n"
                .into(),
        ))
        .expect("scene");
        let robot = crate::vehicle::robot_file::load_robot(std::path::Path::new(
            "scenes/robots/scout.toml",
        ))
        .expect("robot");
        let spawn = scene.spawns[0].clone();
        let mut s =
            Session::free(scene, robot, spawn, crate::sim::SimConfig::default()).expect("session");
        let mut counter = Counter(0);
        assert_eq!(drive(&mut s, &mut counter, 10, |_| true), 10);
        assert_eq!((counter.0, s.sim().steps()), (10, 10));
        assert_eq!(drive(&mut s, &mut counter, 10, |s| s.sim().steps() < 13), 3);
        assert_eq!(s.sim().steps(), 13);
        s.apply(Input::Pause(true));
        assert_eq!(drive(&mut s, &mut counter, 10, |_| true), 0);
        assert_eq!(s.sim().steps(), 13);
    }
}
