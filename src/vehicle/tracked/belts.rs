//! Which of a tracked robot's track planes draws each belt, for every front end that draws the
//! robot (the station, Foxglove's scene): the one rule that maps planes to belts.

use super::TrackedRobot;

/// A belt loop to draw: a main track or a flipper, and the track plane whose outline it uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeltRef {
    /// Index of the track plane whose posed outline is drawn.
    pub plane: usize,
    /// Main track (drive) whose belt speed moves this belt.
    pub track: usize,
    /// Centre line, body y, m.
    pub y: f64,
    /// Belt width, m.
    pub width: f64,
    /// Whether this is a flipper.
    pub flipper: bool,
}

/// Which track plane to draw for each belt.
///
/// [`TrackedRobot`] builds its planes track by track, then flipper by flipper, `belt.planes`
/// planes each, all of one belt sharing one outline. This relies on that order and checks it
/// (plane count and each outline's circle count); if the check fails, every plane is drawn as
/// its own narrow belt, which still shows the geometry right.
pub fn belt_refs(robot: &TrackedRobot) -> Vec<BeltRef> {
    let spec = robot.spec();
    let mut refs = Vec::new();
    let mut plane = 0;
    let mut ok = true;
    for (t, track) in spec.tracks.iter().enumerate() {
        let circles = 2 + track.road_wheels.len() + track.rollers.len();
        ok &=
            plane < robot.plane_count() && robot.plane_outline(plane).0.circles().len() == circles;
        refs.push(BeltRef {
            plane,
            track: t,
            y: track.y,
            width: track.belt.width,
            flipper: false,
        });
        plane += track.belt.planes.max(1) as usize;
    }
    for f in &spec.flippers {
        let track = spec
            .tracks
            .iter()
            .position(|t| t.name == f.track)
            .unwrap_or(0);
        ok &= plane < robot.plane_count()
            && robot.plane_outline(plane).0.circles().len() == f.circles.len();
        refs.push(BeltRef {
            plane,
            track,
            y: f.y,
            width: f.belt.width,
            flipper: true,
        });
        plane += f.belt.planes.max(1) as usize;
    }
    if ok && plane == robot.plane_count() {
        return refs;
    }
    (0..robot.plane_count())
        .map(|i| {
            let y = robot.plane_outline(i).1;
            let track = spec
                .tracks
                .iter()
                .position(|t| (t.y >= 0.0) == (y >= 0.0))
                .unwrap_or(0);
            BeltRef {
                plane: i,
                track,
                y,
                width: 0.02,
                flipper: false,
            }
        })
        .collect()
}
