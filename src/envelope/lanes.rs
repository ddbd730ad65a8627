//! The envelope's test lanes, generated as scene files (so they load, cut and render like
//! any library scene): a flat pad for the tilt table and the slopes (tilted by turning
//! gravity, which on an unbounded plane is the same as tilting the plane), a flight of stairs
//! at a given angle with 0.20 m rises, a single step of a given height, and a gap of a given
//! width between two raised platforms. Modelled on the standard test methods for response
//! robots (ASTM E2803 inclined planes, E2804 stairs, E2801 gaps; DESIGN.md).

use std::path::Path;

use crate::config::{ConfigError, SourceFile};
use crate::scene::Scene;

/// Friction coefficient of the lanes' surface: plywood like the course's apparatus and the
/// standard test methods' (rubber on dry plywood or concrete, μ ≈ 0.8).
pub const LANE_FRICTION: f64 = 0.8;
/// Radius of the lanes' edges, m: cut plywood, not worn (2 mm, as the test stairs of Endo &
/// Nagatani's stair-climbing experiments).
pub const LANE_EDGE_RADIUS: f64 = 0.002;
/// Rise of every stair of the stair lanes, m (the standard test's 0.20 m).
pub const STAIR_RISE: f64 = 0.20;
/// Steps of a stair lane: 1.2 m up to its landing.
pub const STAIR_COUNT: u32 = 6;
/// Length of a stair lane's top landing, m.
pub const STAIR_LANDING: f64 = 2.5;
/// Height of the gap lane's platforms above the floor, m: a robot that drops into the gap
/// cannot climb out.
pub const GAP_DEPTH: f64 = 0.6;
/// Friction coefficient of the tilt table's pad: high, so a robot tips before it slides
/// wherever its static tip-over angle is below atan 3 = 71.6°.
pub const TILT_TABLE_FRICTION: f64 = 3.0;

/// The lanes' surface material, as a scene `[[material]]` table.
fn plywood(friction: f64) -> String {
    format!(
        "[[material]]\nname = \"plywood\"\nfriction = {friction}\nedge_radius = {LANE_EDGE_RADIUS}\n\
         color = [0.72, 0.58, 0.38]\n"
    )
}

/// A scene from generated text, reported as `envelope/NAME.toml`.
pub fn scene_from(name: &str, text: String) -> Result<Scene, ConfigError> {
    let path = format!("envelope/{name}.toml");
    Scene::from_source(&SourceFile::from_text(Path::new(&path), text))
}

/// The text of [`flat_pad`]: a scene other tables can be appended to.
pub fn flat_pad_text(friction: f64) -> String {
    format!(
        "[scene]\nname = \"envelope pad\"\n{}\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [40, 40, 0.5]\n\
         position = [0, 0, -0.5]\n\
         [[spawn]]\nname = \"start\"\nposition = [0, 0, 0]\n",
        plywood(friction)
    )
}

/// A flat 40 × 40 m pad, top at z = 0, of friction `friction`; spawn `start` at the origin
/// facing +x.
pub fn flat_pad(friction: f64) -> Result<Scene, ConfigError> {
    scene_from("pad", flat_pad_text(friction))
}

/// Run of a flight of [`STAIR_RISE`] rises at `angle` (rad): rise / tan θ, m.
pub fn stair_run(angle: f64) -> f64 {
    STAIR_RISE / angle.tan()
}

/// A flight of [`STAIR_COUNT`] steps at `angle` (rad), 1.2 m wide, rising along +x from its
/// first riser at x = 0, with a [`STAIR_LANDING`] landing; spawn `start` 1.5 m before the
/// first riser. Returns the scene and the x of the last nosing, m.
pub fn stair_lane(angle: f64) -> Result<(Scene, f64), ConfigError> {
    let run = stair_run(angle);
    let text = format!(
        "[scene]\nname = \"envelope stairs {:.1} deg\"\n{}\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [30, 8, 0.3]\n\
         position = [3, 0, -0.3]\n\
         [[element]]\ntype = \"stairs\"\nmaterial = \"plywood\"\nrise = {STAIR_RISE}\n\
         run = {run}\ncount = {STAIR_COUNT}\nwidth = 1.2\nlanding = {STAIR_LANDING}\n\
         position = [0, 0, 0]\n\
         [[spawn]]\nname = \"start\"\nposition = [-1.5, 0, 0]\n",
        angle.to_degrees(),
        plywood(LANE_FRICTION)
    );
    let last_nosing = run * f64::from(STAIR_COUNT - 1);
    Ok((scene_from("stairs", text)?, last_nosing))
}

/// Rises of the building-stair family the sheet's stair claims hold over, m (building codes:
/// 0.15–0.22 m; the ends and the middle).
pub const FAMILY_RISES: [f64; 3] = [0.15, 0.18, 0.22];
/// Shortest and longest run of the family, m (building codes: 0.22–0.35 m).
pub const FAMILY_RUNS: (f64, f64) = (0.22, 0.35);
/// Nosings of the family, m (none, and the 32 mm building codes allow; 30 mm thick lips).
pub const FAMILY_NOSINGS: [f64; 2] = [0.0, 0.032];
/// Steps of a family flight.
pub const FAMILY_STEPS: u32 = 6;

/// One flight of the building-stair family, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flight {
    /// Rise, m.
    pub rise: f64,
    /// Run (going), m.
    pub run: f64,
    /// Nosing, m.
    pub nosing: f64,
}

impl Flight {
    /// The flight in words: "0.18/0.28 m, 32 mm nosing".
    pub fn describe(&self) -> String {
        format!(
            "{:.2}/{:.2} m, {:.0} mm nosing",
            self.rise,
            self.run,
            self.nosing * 1000.0
        )
    }
}

/// The family's flights at `angle` (rad): each of [`FAMILY_RISES`] whose run at that angle
/// lies within [`FAMILY_RUNS`], with each of [`FAMILY_NOSINGS`].
pub fn family_flights(angle: f64) -> Vec<Flight> {
    FAMILY_RISES
        .iter()
        .map(|&rise| (rise, rise / angle.tan()))
        .filter(|&(_, run)| run >= FAMILY_RUNS.0 - 1e-9 && run <= FAMILY_RUNS.1 + 1e-9)
        .flat_map(|(rise, run)| {
            FAMILY_NOSINGS
                .iter()
                .map(move |&nosing| Flight { rise, run, nosing })
        })
        .collect()
}

/// A [`FAMILY_STEPS`]-step flight 1.2 m wide with a 2.5 m landing. Up: rising along +x from
/// its first riser at x = 0, spawn `start` 1.5 m before it facing +x; returns the x of the
/// last nosing. Down: the same flight turned round, its top edge at x = 0 and the landing
/// behind it, spawn `start` on the landing 1.5 m before the edge facing +x, down the flight;
/// returns the x of the foot's riser.
pub fn flight_lane(flight: &Flight, down: bool) -> Result<(Scene, f64), ConfigError> {
    let Flight { rise, run, nosing } = *flight;
    let count = FAMILY_STEPS;
    let steps = f64::from(count);
    let lip = if nosing > 0.0 { 0.03 } else { 0.0 };
    let nosing_lines = if nosing > 0.0 {
        format!("nosing = {nosing}\nnosing_thickness = {lip}\n")
    } else {
        String::new()
    };
    let (position, yaw, spawn, end) = if down {
        // Turned round: the last nosing of the up flight is at x = (count−1)·run − nosing.
        let foot = (steps - 1.0) * run - nosing;
        (foot, 180.0, [-1.5, 0.0, steps * rise], foot)
    } else {
        (0.0, 0.0, [-1.5, 0.0, 0.0], (steps - 1.0) * run - nosing)
    };
    let text = format!(
        "[scene]\nname = \"envelope flight {}\"\n{}\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [40, 8, 0.3]\n\
         position = [0, 0, -0.3]\n\
         [[element]]\ntype = \"stairs\"\nmaterial = \"plywood\"\nrise = {rise}\n\
         run = {run}\ncount = {count}\nwidth = 1.2\nlanding = {STAIR_LANDING}\n{nosing_lines}\
         position = [{position}, 0, 0]\nyaw_deg = {yaw}\n\
         [[spawn]]\nname = \"start\"\nposition = [{}, {}, {}]\n",
        flight.describe(),
        plywood(LANE_FRICTION),
        spawn[0],
        spawn[1],
        spawn[2]
    );
    Ok((scene_from("flight", text)?, end))
}

/// A single step `height` m high: a 2.4 m wide, 3 m deep platform whose front face is at
/// x = 0; spawn `start` 1.5 m before it.
pub fn step_lane(height: f64) -> Result<Scene, ConfigError> {
    let text = format!(
        "[scene]\nname = \"envelope step {:.0} mm\"\n{}\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [30, 8, 0.3]\n\
         position = [0, 0, -0.3]\n\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [3, 2.4, {height}]\n\
         position = [1.5, 0, 0]\n\
         [[spawn]]\nname = \"start\"\nposition = [-1.5, 0, 0]\n",
        height * 1000.0,
        plywood(LANE_FRICTION)
    );
    scene_from("step", text)
}

/// A gap `width` m wide between two 2.4 m wide platforms [`GAP_DEPTH`] high: the near one
/// ends at x = 0, the far one starts at x = width and is 3 m deep; spawn `start` on the near
/// platform 1.5 m before its edge.
pub fn gap_lane(width: f64) -> Result<Scene, ConfigError> {
    let text = format!(
        "[scene]\nname = \"envelope gap {:.0} mm\"\n{}\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [30, 8, 0.3]\n\
         position = [0, 0, -0.3]\n\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [4, 2.4, {GAP_DEPTH}]\n\
         position = [-2, 0, 0]\n\
         [[element]]\ntype = \"box\"\nmaterial = \"plywood\"\nsize = [3, 2.4, {GAP_DEPTH}]\n\
         position = [{}, 0, 0]\n\
         [[spawn]]\nname = \"start\"\nposition = [-1.5, 0, {GAP_DEPTH}]\n",
        width * 1000.0,
        plywood(LANE_FRICTION),
        width + 1.5
    );
    scene_from("gap", text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_loads() {
        flat_pad(TILT_TABLE_FRICTION).unwrap();
        for deg in [25.0f64, 45.0, 60.0] {
            let (s, last) = stair_lane(deg.to_radians()).unwrap();
            let run = stair_run(deg.to_radians());
            assert!((last - 5.0 * run).abs() < 1e-12);
            let plywood = s.terrain.material(crate::terrain::MaterialId(0));
            assert!((plywood.edge_radius - LANE_EDGE_RADIUS).abs() < 1e-15);
        }
        step_lane(0.3).unwrap();
        gap_lane(0.4).unwrap();
        for deg in [25.0f64, 45.0] {
            let flights = family_flights(deg.to_radians());
            assert!(!flights.is_empty(), "{deg}");
            for f in &flights {
                assert!((f.rise.atan2(f.run).to_degrees() - deg).abs() < 1e-9);
                flight_lane(f, false).unwrap();
                flight_lane(f, true).unwrap();
            }
        }
    }
}
