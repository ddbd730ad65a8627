//! Reading a flight of stairs from a range sensor's terrain profile ([`ProfilePoint`]s in the
//! vertical plane of the robot's heading): which way it goes, the first edge's distance, the
//! rise, the run and the nosing — what an operator judges before committing to a flight, and
//! what the autopilot's stair strategy ([`super::stair_climb`]) sets its flippers and speed by.
//!
//! **Up.** Seen from the foot, each step shows its front: the nosing's face (or the riser's
//! top where there is no nosing) and, below a nosing's lip, the riser set back by the nosing's
//! depth; from a sensor above a tread the tread shows too. Walking the returns outwards, a
//! return more than [`MIN_RISE`] above the step in hand starts the next step: its *edge* is
//! that return's distance, its *top* the highest return within [`EDGE_WINDOW`] of it. The
//! rise is the median difference of the tops (the ground's from the returns before the first
//! edge), the run the median spacing of the edges, the nosing the median set-back of the
//! returns below a step's lip behind its edge.
//!
//! **Down.** From the top, the floor ends at the top nosing and the treads below show from
//! above (their risers face away): levels more than [`MIN_RISE`] below the last; the edge of
//! each level is the last return on it, the run the spacing of those ends.

use crate::sim::ranging::ProfilePoint;

/// Smallest height change read as a step, m (a 5 cm kerb is a step; floor noise is not).
pub const MIN_RISE: f64 = 0.05;
/// Largest rise a reading accepts between steps, m (more is a wall, not a stair).
pub const MAX_RISE: f64 = 0.40;
/// Distance beyond a step's edge within which its top is read, m.
pub const EDGE_WINDOW: f64 = 0.06;
/// Height band of one level (floor or tread) around its median, m.
const LEVEL_BAND: f64 = 0.03;
/// Deepest nosing read, m (building codes allow up to 32–38 mm).
const MAX_NOSING: f64 = 0.06;

/// Which way a flight goes from the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StairDirection {
    /// Up: the steps rise ahead.
    Up,
    /// Down: the floor ends at an edge with treads below.
    Down,
}

/// A flight read from a profile (m; distances ahead of the body origin along the heading).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StairReading {
    /// Up or down.
    pub direction: StairDirection,
    /// Distance to the first edge: up, the first step's front (its nosing); down, the edge
    /// the floor ends at, m.
    pub first_edge: f64,
    /// Height of a step, m (median over the steps seen).
    pub rise: f64,
    /// Going of a step, nosing to nosing, m (`None` when one step only was seen).
    pub run: Option<f64>,
    /// Depth of the nosing's overhang, m (0 when none was seen).
    pub nosing: f64,
    /// Steps seen.
    pub steps: usize,
}

impl StairReading {
    /// The flight's pitch, rad (`atan(rise/run)`; a single step reads as 90°).
    pub fn angle(&self) -> f64 {
        self.run
            .map_or(std::f64::consts::FRAC_PI_2, |run| self.rise.atan2(run))
    }
}

/// The median of `values` (sorted in place); `None` when empty.
fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    })
}

/// Median differences of consecutive values, or `None` for fewer than two.
fn median_step(values: &[f64]) -> Option<f64> {
    let mut d: Vec<f64> = values.windows(2).map(|w| w[1] - w[0]).collect();
    median(&mut d)
}

/// Reads the flight ahead from `points` looking no further than `horizon` m, or `None` when
/// the profile shows no step (level ground, a slope, a wall).
pub fn read_stairs(points: &[ProfilePoint], horizon: f64) -> Option<StairReading> {
    let mut ahead: Vec<ProfilePoint> = points
        .iter()
        .copied()
        .filter(|p| p.ahead > 0.0 && p.ahead <= horizon && p.height.is_finite())
        .collect();
    ahead.sort_by(|a, b| a.ahead.total_cmp(&b.ahead));
    let first = ahead.first()?;
    // The ground the robot stands on: the returns near the first one's height.
    let mut near: Vec<f64> = ahead
        .iter()
        .take_while(|p| (p.height - first.height).abs() < MIN_RISE)
        .map(|p| p.height)
        .collect();
    let ground = median(&mut near)?;
    // Returns that start a step away from the robot's own level (the body origin is on the
    // floor): right at a riser's foot, or already over an edge with the floor's end out of
    // the fan. The floor is then the robot's own level, ending before the first return.
    if ground < -MIN_RISE {
        return read_down(&ahead, 0.0, Some(first.ahead));
    }
    if ground > MIN_RISE {
        return read_up(&ahead, 0.0);
    }
    let next = ahead
        .iter()
        .find(|p| (p.height - ground).abs() >= MIN_RISE)?;
    if next.height > ground {
        read_up(&ahead, ground)
    } else {
        read_down(&ahead, ground, None)
    }
}

/// A flight rising ahead from `ground` (height, m), `ahead` sorted by distance.
fn read_up(ahead: &[ProfilePoint], ground: f64) -> Option<StairReading> {
    // (edge, top) of each step.
    let mut steps: Vec<(f64, f64)> = Vec::new();
    let mut top = ground;
    for p in ahead {
        match steps.last_mut() {
            // Near the edge of the step in hand: its face and lip, the highest is its top.
            Some(last) if p.ahead <= last.0 + EDGE_WINDOW => {
                let higher = p.height > last.1 && p.height < last.1 + MAX_RISE;
                last.1 = if higher { p.height } else { last.1 };
                top = last.1;
            }
            _ if p.height > top + MIN_RISE && p.height < top + MAX_RISE => {
                steps.push((p.ahead, p.height));
                top = p.height;
            }
            _ => {}
        }
    }
    let (first_edge, _) = *steps.first()?;
    let mut tops: Vec<f64> = vec![ground];
    tops.extend(steps.iter().map(|s| s.1));
    let rise = median_step(&tops)?;
    let edges: Vec<f64> = steps.iter().map(|s| s.0).collect();
    let run = median_step(&edges);
    let mut setbacks: Vec<f64> = Vec::new();
    for (i, &(edge, step_top)) in steps.iter().enumerate() {
        let below = if i == 0 { ground } else { steps[i - 1].1 };
        setbacks.extend(nosing_setback(ahead, edge, below, step_top));
    }
    let nosing = median(&mut setbacks).unwrap_or(0.0);
    Some(StairReading {
        direction: StairDirection::Up,
        first_edge,
        rise,
        run,
        nosing,
        steps: steps.len(),
    })
}

/// How far the riser under step's lip stands behind the lip's face, m: the median distance
/// of the returns from the face's upper 2.5 cm (the lip) against those from lower down (the
/// riser), both within a nosing's depth of the step's `edge`; `None` when either is not seen.
fn nosing_setback(ahead: &[ProfilePoint], edge: f64, below: f64, top: f64) -> Option<f64> {
    let near = |p: &&ProfilePoint| p.ahead > edge - 0.01 && p.ahead < edge + MAX_NOSING;
    let mut lip: Vec<f64> = ahead
        .iter()
        .filter(near)
        .filter(|p| p.height > top - 0.025 && p.ahead < edge + 0.02)
        .map(|p| p.ahead)
        .collect();
    let mut riser: Vec<f64> = ahead
        .iter()
        .filter(near)
        .filter(|p| p.height > below + 0.3 * (top - below) && p.height < top - 0.035)
        .map(|p| p.ahead)
        .collect();
    if lip.len() < 2 || riser.len() < 2 {
        return None;
    }
    Some((median(&mut riser)? - median(&mut lip)?).max(0.0))
}

/// A flight falling ahead from `ground` (height, m), `ahead` sorted by distance; `floor_end`
/// is where the floor ends when its returns are out of sight (m ahead).
fn read_down(ahead: &[ProfilePoint], ground: f64, floor_end: Option<f64>) -> Option<StairReading> {
    // (last distance, heights) of each level, the floor first.
    let mut levels: Vec<(f64, Vec<f64>)> = vec![(0.0, Vec::new())];
    if let Some(end) = floor_end {
        levels[0] = (end - EDGE_WINDOW, vec![ground]);
    }
    let mut level = ground;
    for p in ahead {
        if (p.height - level).abs() < LEVEL_BAND {
            if let Some(last) = levels.last_mut() {
                last.0 = p.ahead;
                last.1.push(p.height);
            }
        } else if p.height < level - MIN_RISE && p.height > level - MAX_RISE {
            levels.push((p.ahead, vec![p.height]));
            level = p.height;
        }
    }
    if levels.len() < 2 {
        return None;
    }
    let mut heights = Vec::with_capacity(levels.len());
    for (_, h) in &mut levels {
        heights.push(-median(h)?);
    }
    let rise = median_step(&heights)?;
    let ends: Vec<f64> = levels.iter().map(|l| l.0).collect();
    // The last level seen may run on out of sight: its end is no edge.
    let run = if ends.len() > 2 {
        median_step(&ends[..ends.len() - 1])
    } else {
        None
    };
    Some(StairReading {
        direction: StairDirection::Down,
        first_edge: ends[0],
        rise,
        run,
        nosing: 0.0,
        steps: levels.len() - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SourceFile;
    use crate::scene::{Scene, Spawn};
    use crate::sim::ranging::RangeSensor;
    use crate::sim::{SimConfig, Simulation};
    use crate::vehicle::robot_file::load_robot;
    use nalgebra::Point3;
    use std::path::Path;

    /// What the scout's sensor reads of a flight (`rise`, `run`, `nosing`, m; 8 steps from
    /// x = 0) standing `gap` m before its first edge facing up, or before its top edge
    /// facing down.
    fn reading(rise: f64, run: f64, nosing: f64, gap: f64, down: bool) -> Option<StairReading> {
        let count = 8.0;
        let text = format!(
            "[[element]]\ntype = \"box\"\nsize = [30, 6, 0.3]\nposition = [3, 0, -0.3]\n\
             [[element]]\ntype = \"stairs\"\nrise = {rise}\nrun = {run}\ncount = 8\nwidth = 1.5\n\
             nosing = {nosing}\nnosing_thickness = 0.03\nlanding = 3\nposition = [0, 0, 0]\n\
             [[spawn]]\nname = \"s\"\nposition = [-5, 0, 0]\n"
        );
        let scene =
            Scene::from_source(&SourceFile::from_text(Path::new("t.toml"), text)).expect("scene");
        let spec = load_robot(Path::new("scenes/robots/scout.toml")).expect("scout");
        let (position, yaw) = if down {
            let edge = (count - 1.0) * run - nosing;
            (
                Point3::new(edge + gap, 0.0, count * rise),
                std::f64::consts::PI,
            )
        } else {
            (Point3::new(-nosing - gap, 0.0, 0.0), 0.0)
        };
        let spawn = Spawn {
            name: "here".into(),
            position,
            yaw,
            roll: 0.0,
            pitch: 0.0,
        };
        let mut sim = Simulation::new(scene, SimConfig::default()).expect("sim");
        let id = sim.add_robot(spec.clone(), &spawn).expect("robot");
        sim.run_for(0.3);
        let mut sensor = RangeSensor::new(spec.range_sensor.expect("sensor"), 3);
        let points = sensor.read(&sim, id).points.clone();
        if std::env::var("DUMP").is_ok() {
            for p in &points {
                eprintln!("{:.3} {:.3}", p.ahead, p.height);
            }
        }
        read_stairs(&points, 3.0)
    }

    /// Flights of the building codes' range (from 0.8 m before the foot, 0.3 m before the
    /// top edge) read within 2 cm of rise, 3 cm of run and edge
    /// distance, and the nosing within 1.5 cm, up and down.
    #[test]
    fn flights_read_as_built() {
        for (rise, run, nosing) in [
            (0.18, 0.28, 0.02),
            (0.20, 0.25, 0.0),
            (0.15, 0.35, 0.032),
            (0.22, 0.22, 0.0),
        ] {
            for down in [false, true] {
                // Down a flight the treads show only once the sensor is near the edge.
                let gap = if down { 0.3 } else { 0.8 };
                let r = reading(rise, run, nosing, gap, down)
                    .unwrap_or_else(|| panic!("{rise}/{run}/{nosing} down {down}: no reading"));
                let what = format!("{rise}/{run}/{nosing} down {down}: {r:?}");
                let want = if down {
                    StairDirection::Down
                } else {
                    StairDirection::Up
                };
                assert_eq!(r.direction, want, "{what}");
                assert!((r.rise - rise).abs() < 0.02, "{what}");
                let read_run = r.run.unwrap_or_else(|| panic!("no run: {what}"));
                assert!((read_run - run).abs() < 0.03, "{what}");
                assert!((r.first_edge - gap).abs() < 0.03, "{what}");
                if !down {
                    assert!((r.nosing - nosing).abs() < 0.015, "{what}");
                }
            }
        }
    }

    /// Creeping to a down flight's edge the reading holds from 0.45 m before it to the
    /// edge itself (where the floor has left the fan: its end is then read as the first
    /// return's distance, an upper bound).
    #[test]
    fn a_descent_reads_all_the_way_to_the_edge() {
        for gap in [0.05, 0.15, 0.25, 0.35, 0.45] {
            let r = reading(0.187, 0.314, 0.0, gap, true).unwrap_or_else(|| panic!("{gap}: none"));
            let what = format!("{gap}: {r:?}");
            assert_eq!(r.direction, StairDirection::Down, "{what}");
            assert!((r.rise - 0.187).abs() < 0.02, "{what}");
            assert!(
                r.run.is_some_and(|run| (run - 0.314).abs() < 0.03),
                "{what}"
            );
            assert!(
                r.first_edge >= gap - 0.03 && r.first_edge < gap + 0.1,
                "{what}"
            );
        }
    }

    /// Level ground reads as no flight.
    #[test]
    fn level_ground_is_no_flight() {
        let points: Vec<ProfilePoint> = (0..100)
            .map(|i| ProfilePoint {
                ray: i,
                ahead: 0.3 + 0.03 * i as f64,
                height: 0.004 * ((i % 3) as f64 - 1.0),
            })
            .collect();
        assert_eq!(read_stairs(&points, 4.0), None);
    }
}
