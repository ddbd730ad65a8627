//! Side contact: track planes that meet a solid sideways (curb sides, walls, stair side walls,
//! rocks) must not make force spikes, and the outcome must be credible (climbed or blocked).
//! Each test states its bound on the largest one-step change of a track's normal force.

mod common;
use common::*;

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use treadsim::vehicle::DriveCommand;
use treadsim::vehicle::RobotSpec;

/// Lateral position of the outermost belt edge on the left (tracks and flippers), m, body y.
fn outer_belt_edge(spec: &RobotSpec) -> f64 {
    let tracks = spec.tracks.iter().map(|t| t.y + t.belt.width / 2.0);
    let flippers = spec.flippers.iter().map(|f| f.y + f.belt.width / 2.0);
    tracks.chain(flippers).fold(0.0, f64::max)
}

/// Flat floor with a long curb of `height` whose side face runs along x at y = `side_y`
/// (the curb occupies y > side_y).
fn curb_beside(height: f64, side_y: f64) -> treadsim::scene::Scene {
    let w = 2.0;
    scene_text(&format!(
        "[[material]]\nname = \"c\"\nfriction = 0.8\n\
         [[element]]\ntype = \"box\"\nsize = [8, 8, 0.2]\nposition = [0, 0, -0.2]\n\
         [[element]]\ntype = \"box\"\nmaterial = \"c\"\nsize = [4, {w}, {height}]\nposition = [0, {}, 0]\n\
         [[spawn]]\nname = \"s\"\nposition = [0, 0, 0]\n",
        side_y + w / 2.0
    ))
}

/// Outcome of a pivot turn beside a curb.
struct PivotOutcome {
    /// Largest one-step change of a track's normal force, N.
    max_jump: f64,
    /// Largest track normal force, N.
    max_force: f64,
    /// Static sinkage on flat ground (−z of the footprint centre at rest), m.
    sinkage: f64,
    /// Largest |roll| or |pitch| during the turn, deg.
    max_tilt: f64,
    /// Events (blow-ups).
    events: usize,
}

/// Pivots `spec` at full belt speed for `seconds` on flat ground beside a curb of `height` m
/// whose side face runs 1 cm outside its outermost belt; `straddle` instead drops it with the
/// left track's centre line over the curb's side.
fn pivot_beside_curb(spec: &RobotSpec, height: f64, straddle: bool, seconds: f64) -> PivotOutcome {
    let side = if straddle {
        spec.tracks[0].y.abs()
    } else {
        outer_belt_edge(spec) + 0.01
    };
    let (mut sim, id) = sim_with(curb_beside(height, side), spec.clone(), None);
    if straddle {
        let lift = Translation3::new(0.0, 0.0, height + 0.02);
        sim.teleport(id, &Isometry3::from_parts(lift, UnitQuaternion::identity()));
    }
    sim.run_for(2.0);
    let sinkage = static_sinkage(spec);
    let v = spec.tracks[0].motor.max_speed;
    sim.set_command(
        id,
        DriveCommand {
            left: v,
            right: -v,
            flipper: None,
        },
    );
    let tracks = spec.tracks.len();
    let mut last: Vec<f64> = (0..tracks)
        .map(|t| sim.robot(id).track_normal_force(t))
        .collect();
    let (mut max_jump, mut max_force, mut max_tilt) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..(seconds / sim.config().dt).round() as usize {
        sim.step();
        for (t, prev) in last.iter_mut().enumerate() {
            let f = sim.robot(id).track_normal_force(t);
            max_jump = max_jump.max((f - *prev).abs());
            max_force = max_force.max(f);
            *prev = f;
        }
        let (roll, pitch, _) = sim.body_state(id).pose.rotation.euler_angles();
        max_tilt = max_tilt.max(roll.abs().max(pitch.abs()).to_degrees());
    }
    PivotOutcome {
        max_jump,
        max_force,
        sinkage,
        max_tilt,
        events: sim.events().len(),
    }
}

/// Static sinkage of a robot at rest on flat ground (−z of its footprint centre), m.
fn static_sinkage(spec: &RobotSpec) -> f64 {
    let (mut sim, id) = sim_with(curb_beside(0.05, 5.0), spec.clone(), None);
    sim.run_for(1.0);
    (-sim.body_state(id).pose.translation.z).max(1e-4)
}

/// The largest one-step change of a track's normal force that driving can cause: a wheel
/// meeting terrain at speed `v` deepens by at most `v·dt` a step, and near the static sinkage
/// δ₀ the force law `F ∝ δ^1.5` gives `dF/dδ = 1.5·F/δ₀`; with a track's largest static load
/// `F = m·g` (a robot leaning on one track, as when straddling a curb) that is
/// `1.5·m·g/δ₀·v·dt`, plus that load `m·g` moving to the other track in one step (a rocking
/// hull), as margin.
fn force_step_bound(spec: &RobotSpec, sinkage: f64, dt: f64) -> f64 {
    let share = spec.mass * G;
    let v = spec.tracks[0].motor.max_speed;
    1.5 * share / sinkage * v * dt + share
}

/// Pivot turns at full speed with one track beside a low curb (0.05 and 0.10 m) or straddling
/// a 0.05 m one: before the
/// side-contact model a track plane sliding over the curb's side saw the whole curb at once
/// (scout: 6.6 kN in one step at 0.05 m; tracker55: 15.6 kN straddling 0.05 m; heavy250:
/// 56 kN at 0.10 m). Now every one-step change stays within the bound derived from
/// stiffness and approach speed ([`force_step_bound`]), the robot stays upright (tilt < 30°)
/// and nothing blows up.
#[test]
fn pivot_beside_low_curbs_has_no_force_spike() {
    for name in ["scout", "tracker55", "heavy250"] {
        let spec = robot(name);
        for (height, straddle) in [(0.05, false), (0.10, false), (0.05, true)] {
            {
                let o = pivot_beside_curb(&spec, height, straddle, 3.0);
                let bound = force_step_bound(&spec, o.sinkage, 0.002);
                let case = format!("{name} h {height} straddle {straddle}");
                assert!(
                    o.max_jump <= bound,
                    "{case}: one-step change {:.0} N > bound {bound:.0} N (max {:.0} N)",
                    o.max_jump,
                    o.max_force
                );
                assert!(o.max_tilt < 30.0, "{case}: tilted {:.1}°", o.max_tilt);
                assert_eq!(o.events, 0, "{case}: blew up");
            }
        }
    }
}

/// The whole table (all presets, curbs 0.05–0.40 m, beside and straddling) with the bound:
/// `cargo test --release --no-default-features --test side_contact -- --ignored --nocapture`.
#[test]
#[ignore = "table for the notes; slow in debug"]
fn side_contact_table() {
    for name in ["scout", "tracker55", "heavy250"] {
        let spec = robot(name);
        for height in [0.05, 0.10, 0.20, 0.40] {
            for straddle in [false, true] {
                let o = pivot_beside_curb(&spec, height, straddle, 4.0);
                let bound = force_step_bound(&spec, o.sinkage, 0.002);
                println!(
                    "{name:9} curb {height:.2} {:8}: max dF/step {:10.0} N (bound {bound:5.0}) max F {:10.0} N tilt {:5.1}° events {}",
                    if straddle { "straddle" } else { "beside" },
                    o.max_jump,
                    o.max_force,
                    o.max_tilt,
                    o.events
                );
            }
        }
    }
}
