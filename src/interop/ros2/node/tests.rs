//! The ROS 2 driver's rules without a network: kinematics, refusals, staleness, what is logged.

use super::*;
use crate::session::testing::{free, scout};

fn driver(inbox: &Shared) -> RosDriver {
    RosDriver::new(Arc::clone(inbox), &scout(), 0.5)
}

fn twist(v: f64, w: f64) -> Vec<u8> {
    Twist {
        linear: [v, 0.0, 0.0],
        angular: [0.0, 0.0, w],
    }
    .encode()
}

#[test]
fn commands_become_logged_belt_speeds_and_stale_or_bad_ones_stop_the_robot() {
    let inbox: Shared = Arc::default();
    let mut d = driver(&inbox);
    let mut session = free();
    session.start_journal();
    // Forward 0.3 m/s turning left 0.5 rad/s: v ∓ ω·B/2.
    take(&inbox, Command::Velocity, &twist(0.3, 0.5));
    d.before_step(&mut session);
    let half = 0.5 * d.gauge / 2.0;
    let c = session.operator_command();
    assert!((c.left - (0.3 - half)).abs() < 1e-12 && (c.right - (0.3 + half)).abs() < 1e-12);
    // Faster than the motors: both belts scaled down together, the curvature kept.
    take(&inbox, Command::Velocity, &twist(50.0 / 4.0, 0.0));
    d.before_step(&mut session);
    assert!((session.operator_command().left - d.speed_max).abs() < 1e-12);
    // NaN, garbage and a cut message: refused, counted, the robot stopped.
    for junk in [
        twist(f64::NAN, 0.0),
        b"junk".to_vec(),
        twist(0.3, 0.0)[..30].to_vec(),
    ] {
        take(&inbox, Command::Velocity, &twist(0.3, 0.0));
        take(&inbox, Command::Velocity, &junk);
        d.before_step(&mut session);
        assert_eq!(
            (
                session.operator_command().left,
                session.operator_command().right
            ),
            (0.0, 0.0)
        );
    }
    assert_eq!(lock(&inbox).counters.rejected, 3);
    // A command older than the timeout stops the robot (once counted).
    take(&inbox, Command::Velocity, &twist(0.3, 0.0));
    d.before_step(&mut session);
    assert_eq!(session.operator_command().left, 0.3);
    if let Some((_, at)) = lock(&inbox).twist.as_mut() {
        *at -= std::time::Duration::from_secs(1);
    }
    d.before_step(&mut session);
    d.before_step(&mut session);
    assert_eq!(session.operator_command().left, 0.0);
    assert_eq!(lock(&inbox).counters.timeouts, 1);
    // Disabled: stopped whatever the command says; the flipper target passes.
    take(&inbox, Command::Velocity, &twist(0.3, 0.0));
    take(&inbox, Command::Enable, &{
        let mut w = super::super::cdr::CdrWriter::new();
        w.bool(false);
        w.finish()
    });
    take(
        &inbox,
        Command::Flipper,
        &super::super::msgs::encode_float64(0.4),
    );
    d.before_step(&mut session);
    let c = session.operator_command();
    assert_eq!((c.left, c.flipper), (0.0, Some(0.4)));
    // Every change (and only a change) went in as an input, for the log: the turn, the
    // scaled run, the stop after junk, 0.3 m/s, the stale stop, the disabled stop.
    let logged = session.journal_mut().map_or(0, |j| j.inputs.len());
    assert_eq!(logged, 6);
}
