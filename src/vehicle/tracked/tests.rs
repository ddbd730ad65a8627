//! Unit tests of the track model at run time.

use super::*;

/// The flipper planes' posed outlines always match the flipper angles, though a parked
/// flipper is not turned again: restoring a state with another angle turns them (as a
/// robot built at that state has them), restoring the first state turns them back.
#[test]
fn flipper_outlines_follow_the_angle_through_restores() {
    let spec = crate::vehicle::robot_file::test_preset("scout");
    let mut robot = TrackedRobot::new(spec.clone()).expect("robot");
    let flipper_planes: Vec<usize> = (0..robot.plane_count())
        .filter(|&i| robot.planes[i].flipper.is_some())
        .collect();
    assert!(!flipper_planes.is_empty());
    let first = robot.drive_state().clone();
    let outlines = |r: &TrackedRobot| -> Vec<BeltOutline> {
        flipper_planes
            .iter()
            .map(|&i| r.plane_outline(i).0.clone())
            .collect()
    };
    let at_first = outlines(&robot);
    let mut raised = first.clone();
    raised.flipper_angle.iter_mut().for_each(|a| *a += 0.5);
    robot.restore(&raised);
    let mut fresh = TrackedRobot::new(spec).expect("robot");
    fresh.restore(&raised);
    assert_eq!(outlines(&robot), outlines(&fresh));
    assert_ne!(outlines(&robot), at_first);
    robot.restore(&first);
    assert_eq!(outlines(&robot), at_first);
}
