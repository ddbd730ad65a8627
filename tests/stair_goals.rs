//! The autopilot's `climb` and `descend` goals against an open-loop operator on stair flights
//! drawn from what buildings have (rise 0.15–0.22 m, run 0.22–0.35 m, nosing 0–32 mm as
//! building codes allow, 4–16 steps, side walls or none; concrete μ 0.8), for every tracked
//! preset, up and down: a goal succeeds on every flight where the operator's script does
//! (and gets down without going past the robot's static forward tip angle: a script the
//! flight caught past it sets no standard), never tips the robot over, and where it does not
//! succeed it has stopped and said why.
//!
//! The operator's open-loop scripts (what a trainee is taught, no sensing):
//! - up, robots with flippers: from 1.5 m before the first riser, 0.3 m/s with the flippers
//!   at 35° for 9 s, then 0.25 m/s with them at −12° (the script for the scout);
//!   without flippers: 0.3 m/s straight;
//! - down: facing down from the top landing at 0.1 m/s, flippers level (0°).
//!
//! A run that tips the robot over has failed, the script's too (`TipWatch`: on its back, past
//! 80°, or going down past its static forward tip angle for half a second, as a trial scores
//! a tip-over).
//!
//! `cargo test --test stair_goals` runs 10 flights; the full table of 40 is
//! `cargo test --release --test stair_goals -- --ignored --nocapture`.

mod common;
use common::*;

use nalgebra::Vector2;
use treadsim::control::autopilot::{Autopilot, Goal, SENSOR_SEED};
use treadsim::control::climb_geometry::ClimbGeometry;
use treadsim::exercise::trial::TIP_HOLD;
use treadsim::scene::Spawn;
use treadsim::sim::ranging::RangeSensor;
use treadsim::sim::{RobotId, Simulation};
use treadsim::vehicle::stability::Tilt;
use treadsim::vehicle::DriveCommand;

/// One flight of the family.
#[derive(Debug, Clone, Copy)]
struct Flight {
    rise: f64,
    run: f64,
    nosing: f64,
    steps: u32,
    width: f64,
    walls: bool,
}

impl Flight {
    /// The flight drawn from `seed` (splitmix64).
    fn draw(seed: u64) -> Self {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        };
        Self {
            rise: 0.15 + 0.07 * next(),
            run: 0.22 + 0.13 * next(),
            nosing: if next() < 0.3 { 0.0 } else { 0.032 * next() },
            steps: 4 + (next() * 12.99) as u32,
            width: 1.0 + 0.6 * next(),
            walls: next() < 0.5,
        }
    }

    /// Height of the top landing, m.
    fn top(&self) -> f64 {
        f64::from(self.steps) * self.rise
    }

    /// x of the top edge (the last nosing), m.
    fn top_edge(&self) -> f64 {
        f64::from(self.steps - 1) * self.run - self.nosing
    }

    /// The scene: floor, flight from x = 0, 3 m top landing, walls if any; spawns `foot` 1.5
    /// m before the first riser facing up and `top` 1.5 m before the top edge facing down.
    fn scene(&self) -> treadsim::scene::Scene {
        let Flight {
            rise,
            run,
            nosing,
            steps,
            width,
            ..
        } = *self;
        let thickness = 0.03f64.min(rise - 0.05);
        let mut text = format!(
            "[[material]]\nname = \"concrete\"\nfriction = 0.8\n\
             [[element]]\ntype = \"box\"\nmaterial = \"concrete\"\nsize = [30, 8, 0.3]\nposition = [4, 0, -0.3]\n\
             [[element]]\ntype = \"stairs\"\nmaterial = \"concrete\"\nrise = {rise}\nrun = {run}\n\
             count = {steps}\nwidth = {width}\nnosing = {nosing}\nnosing_thickness = {thickness}\n\
             landing = 3\nposition = [0, 0, 0]\n\
             [[spawn]]\nname = \"foot\"\nposition = [-1.5, 0, 0]\n\
             [[spawn]]\nname = \"top\"\nposition = [{}, 0, {}]\nyaw_deg = 180\n",
            self.top_edge() + 1.5,
            self.top()
        );
        if self.walls {
            let length = f64::from(steps) * run + 3.5;
            for side in [-1.0, 1.0] {
                text += &format!(
                    "[[element]]\ntype = \"box\"\nmaterial = \"concrete\"\nsize = [{length}, 0.2, {}]\n\
                     position = [{}, {}, 0]\n",
                    self.top() + 1.2,
                    length / 2.0 - 0.5,
                    side * (width / 2.0 + 0.1)
                );
            }
        }
        scene_text(&text)
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
enum End {
    /// At the far end of the flight, s.
    Arrived(f64),
    /// At the far end, s, having gone past the robot's static forward tip angle on the way
    /// down (for less than [`TIP_HOLD`]: the flight caught it).
    ArrivedPastTip(f64),
    /// Tipped over (pitch or roll past 80°, or on its back).
    Tipped,
    /// The autopilot stopped, saying why.
    GaveUp(String),
    /// None of those within the time.
    TimedOut,
}

/// Whether the robot is at the far end: up, on the landing 0.3 m past the top edge; down, on
/// the floor 0.3 m before the first riser.
fn arrived(flight: &Flight, up: bool, sim: &Simulation, id: RobotId) -> bool {
    let com = sim.body_state(id).com;
    if up {
        com.x > flight.top_edge() + 0.3 && com.z > flight.top() - 0.05
    } else {
        com.x < -0.3 && com.z < 0.4
    }
}

/// Tipped over: on its back or past 80° of pitch or roll at any moment; and going down, nose
/// down past the robot's static forward tip angle in its descent pose (flippers laid ahead:
/// [`ClimbGeometry::tip_forward`], the angle the `descend` goal refuses flights by) for
/// [`TIP_HOLD`] s, as a trial scores a tip-over. A robot standing on its nose at 72–80° down
/// a 38–40° flight (tracker55's open-loop descent; its forward limit is 55°) has tipped over
/// even if the flight catches it and it slides to the foot.
struct TipWatch {
    /// Static forward tip angle in the descent pose, rad; `None` climbing.
    forward: Option<f64>,
    /// How long the robot has been past it, s.
    past: f64,
    /// Whether it has been past it at all.
    passed: bool,
}

impl TipWatch {
    fn new(spec: &treadsim::vehicle::RobotSpec, up: bool) -> Self {
        Self {
            forward: (!up).then(|| ClimbGeometry::of(spec).tip_forward),
            past: 0.0,
            passed: false,
        }
    }

    /// Whether the robot has tipped over by the step just taken.
    fn tipped(&mut self, sim: &Simulation, id: RobotId) -> bool {
        let tilt = Tilt::of(&sim.body_state(id).pose);
        let over = tilt.upside_down
            || tilt.nose_up.abs() > 80f64.to_radians()
            || tilt.left_up.abs() > 80f64.to_radians();
        self.past = match self.forward {
            Some(limit) if -tilt.nose_up > limit => self.past + sim.config().dt,
            _ => 0.0,
        };
        self.passed |= self.past > 0.0;
        over || self.past >= TIP_HOLD
    }
}

/// Runs `name` on `flight` up or down with the autopilot (or the operator's script), its
/// range sensor's noise drawn from the autopilot's own seed.
fn run(flight: &Flight, name: &str, up: bool, autopilot: bool) -> End {
    run_sensing(flight, name, up, autopilot, SENSOR_SEED)
}

/// [`run`] with the range sensor's noise drawn from `sensor_seed`.
fn run_sensing(flight: &Flight, name: &str, up: bool, autopilot: bool, sensor_seed: u64) -> End {
    let scene = flight.scene();
    let spawn: Spawn = scene
        .spawn(if up { "foot" } else { "top" })
        .expect("spawn")
        .clone();
    let spec = robot(name);
    let (mut sim, id) = sim_with(scene, spec.clone(), Some(&spawn.name));
    sim.run_for(0.5);
    let (foot, landing) = (
        Vector2::new(-1.5, 0.0),
        Vector2::new(flight.top_edge() + 1.2, 0.0),
    );
    let goal = if up {
        Goal::Climb {
            from: foot,
            to: landing,
            speed: 0.3,
            tolerance: 0.2,
        }
    } else {
        Goal::Descend {
            from: landing,
            to: foot,
            speed: 0.3,
            tolerance: 0.2,
        }
    };
    let mut pilot = Autopilot::new(&spec, vec![goal]);
    let mut sensor = spec
        .range_sensor
        .clone()
        .map(|s| RangeSensor::new(s, sensor_seed));
    let flippers = !spec.flippers.is_empty();
    let mut watch = TipWatch::new(&spec, up);
    let dt = sim.config().dt;
    let t0 = sim.time();
    let limit = if autopilot {
        60.0 + 6.0 * f64::from(flight.steps)
    } else {
        40.0 + 3.0 * f64::from(flight.steps)
    };
    while sim.time() - t0 < limit {
        let t = sim.time() - t0;
        let command = if autopilot {
            let scan = sensor.as_mut().map(|s| s.read(&sim, id));
            pilot.command(&sim.body_state(id), scan, dt)
        } else if up {
            let (speed, flipper) = if !flippers {
                (0.3, 0.0)
            } else if t < 9.0 {
                (0.3, 35.0)
            } else {
                (0.25, -12.0)
            };
            DriveCommand {
                left: speed,
                right: speed,
                flipper: Some(f64::to_radians(flipper)),
                steer: None,
            }
        } else {
            DriveCommand {
                left: 0.1,
                right: 0.1,
                flipper: Some(0.0),
                steer: None,
            }
        };
        sim.set_command(id, command);
        sim.step();
        if watch.tipped(&sim, id) {
            return End::Tipped;
        }
        if arrived(flight, up, &sim, id) {
            let time = sim.time() - t0;
            return if watch.passed {
                End::ArrivedPastTip(time)
            } else {
                End::Arrived(time)
            };
        }
        if let Some(why) = pilot.gave_up().map(str::to_string) {
            // Stopped where it gave up: it must stay upright there.
            for _ in 0..(5.0 / dt) as usize {
                let scan = sensor.as_mut().map(|s| s.read(&sim, id));
                let command = pilot.command(&sim.body_state(id), scan, dt);
                sim.set_command(id, command);
                sim.step();
                if watch.tipped(&sim, id) {
                    return End::Tipped;
                }
            }
            return End::GaveUp(why);
        }
    }
    End::TimedOut
}

/// The table over flights `seeds`: prints each row and returns the rows that break a rule
/// (the goal tipped the robot, or neither arrived nor gave up; and with `strict`, did not
/// arrive where the script did).
fn table(seeds: std::ops::Range<u64>, strict: bool) -> Vec<String> {
    let mut broken = Vec::new();
    let rows: Vec<(u64, &str, bool)> = seeds
        .flat_map(|s| {
            PRESETS
                .iter()
                .flat_map(move |&n| [(s, n, true), (s, n, false)])
        })
        .collect();
    let results: Vec<(u64, &str, bool, End, End)> = std::thread::scope(|scope| {
        let chunks: Vec<_> = rows
            .chunks(rows.len().div_ceil(2).max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(s, n, up)| {
                            let f = Flight::draw(s);
                            (s, n, up, run(&f, n, up, false), run(&f, n, up, true))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        chunks
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    for (seed, name, up, script, goal) in results {
        let f = Flight::draw(seed);
        let row = format!(
            "flight {seed:2} ({:.3}/{:.3} m, nosing {:2.0} mm, {:2} steps, {:.0}°, walls {}) {name:11} {}: script {script:?}, goal {goal:?}",
            f.rise, f.run, f.nosing * 1000.0, f.steps, f.rise.atan2(f.run).to_degrees(), f.walls,
            if up { "up  " } else { "down" }
        );
        println!("{row}");
        // A script that got down only after going past the robot's tip angle was caught by
        // the flight: no standard the goal must meet.
        let script_ok = matches!(script, End::Arrived(_));
        let rule = match &goal {
            End::Tipped => Some("the goal tipped the robot over"),
            End::TimedOut => Some("the goal neither arrived nor gave up"),
            _ if strict
                && script_ok
                && !matches!(goal, End::Arrived(_) | End::ArrivedPastTip(_)) =>
            {
                Some("the script arrived where the goal did not")
            }
            _ => None,
        };
        if let Some(rule) = rule {
            broken.push(format!("{rule}: {row}"));
        }
    }
    broken
}

/// Ten flights of the family, every tracked preset, up and down (runs in `make test`): the
/// goals never tip a robot over and, where they do not arrive, stop and say why.
#[test]
fn stair_goals_never_tip_a_robot_on_ten_flights() {
    let broken = table(0..10, false);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The whole table: 40 flights, and the goals arrive wherever the operator's script does
/// (the acceptance; 25 s in a release build).
#[test]
#[ignore]
fn stair_goals_match_an_operator_on_forty_flights() {
    let broken = table(0..40, true);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The descent goal's refusal must not hang on one draw of the range sensor's noise. Flight 6
/// (rise 0.184 m, run 0.239 m: 37.6°) tips tracker55 (no flippers, raised idler; forward tip
/// angle 55°) over going down facing down: the operator's script tips there. Judged on one
/// reading against the 39° of `DIVE_MARGIN` (readings 37.4–38.9°), the goal went down and
/// tipped it for 7 of 12 draws of the noise (sensor seeds 1–12, measured 2026-12-02). Traced
/// with the script (0.1 m/s, a 1.3 m wide flight of this rise, run and nosing): the nose does
/// not pivot down over the top edge quasi-statically but falls, at 2.7 rad/s by 43° (a body
/// pivoting on the edge from rest: ω² = 2·m·g·h_c·(1 − cos θ)/I_edge gives 3.1 rad/s at 48°);
/// the front run strikes the next nosing at 46.7° (1.9 kN for one step) and the robot turns
/// on about it at 0.9 rad/s, lifting its rear off the top edge; alone on that nosing, it
/// slides down its axis at up to 0.8 m/s (belts at 0.1 m/s) while it turns, which carries the
/// centre of mass over the nosing (from 8 cm behind to 6 cm ahead) until the nose lands on
/// the tread below at 72°; it is past its 55° tip angle for 0.8 s. The goal now refuses it
/// for that fall (`ClimbGeometry::fall_over_edge`: 72 % of the energy that turns it over the
/// struck nosing, against at most `FALL_ENERGY_SHARE`, 50 %), judged on the mean of ten
/// readings.
#[test]
fn the_descent_goal_refuses_flight_six_for_tracker55_whatever_the_sensor_noise() {
    let flight = Flight::draw(6);
    let tipped: Vec<u64> = (1..=12)
        .filter(|&seed| {
            matches!(
                run_sensing(&flight, "tracker55", false, true, seed),
                End::Tipped
            )
        })
        .collect();
    assert!(tipped.is_empty(), "tipped with sensor seeds {tipped:?}");
}
