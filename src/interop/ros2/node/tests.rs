//! The ROS 2 node's decoding of commands without a network (the driver's rules are
//! `interop::teleop`'s tests).

use super::*;

fn twist(v: f64, w: f64) -> Vec<u8> {
    Twist {
        linear: [v, 0.0, 0.0],
        angular: [0.0, 0.0, w],
    }
    .encode()
}

#[test]
fn command_messages_are_decoded_into_the_inbox_and_bad_ones_refused() {
    let inbox = TeleopInbox::default();
    take(&inbox, Command::Velocity, &twist(0.3, 0.5));
    assert_eq!(inbox.counters().received, 1);
    // NaN, garbage and a cut message: refused and counted.
    for junk in [
        twist(f64::NAN, 0.0),
        b"junk".to_vec(),
        twist(0.3, 0.0)[..30].to_vec(),
    ] {
        take(&inbox, Command::Velocity, &junk);
    }
    assert_eq!(inbox.counters().rejected, 3);
    take(&inbox, Command::Enable, &{
        let mut w = crate::record::cdr::CdrWriter::new();
        w.bool(false);
        w.finish()
    });
    take(
        &inbox,
        Command::Flipper,
        &super::super::msgs::encode_float64(0.4),
    );
    take(&inbox, Command::Flipper, b"x");
    take(&inbox, Command::Enable, b"");
    let c = inbox.counters();
    assert_eq!((c.received, c.rejected), (3, 5));
}
