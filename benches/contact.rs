//! Cost of the track model's pieces: one plane's contact evaluation on a stair profile, the
//! circular segment of a pressed-in wheel, the friction law, and the scout's track model and
//! whole step climbing the public stairs.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Point2, Vector2};
use treadsim::scene::Scene;
use treadsim::sim::{SimConfig, Simulation};
use treadsim::terrain::{CutSegment, MaterialId, SurfaceMaterial};
use treadsim::tools::bench::StairDriver;
use treadsim::track::area::CircularSegment;
use treadsim::track::contact::{evaluate_plane, PlaneStiffness};
use treadsim::track::friction::{friction, FrictionConfig};
use treadsim::track::grouser::Grousers;
use treadsim::track::load::ElementLoad;
use treadsim::track::outline::{BeltOutline, Circle};
use treadsim::vehicle::robot_file::load_robot;

fn seg(a: (f64, f64), b: (f64, f64)) -> CutSegment {
    let (a, b) = (Point2::new(a.0, a.1), Point2::new(b.0, b.1));
    let d = (b - a).normalize();
    CutSegment::new(a, b, Vector2::new(-d.y, d.x), 0.0, MaterialId(0), 0)
}

/// Four 180/280 mm steps with 2 cm nosing lips, in the plane of a track lying on them.
fn stairs() -> Vec<CutSegment> {
    let mut s = Vec::new();
    for i in 0..4 {
        let (x, z) = (i as f64 * 0.28, i as f64 * 0.18);
        s.push(seg((x, z), (x, z + 0.15)));
        s.push(seg((x, z + 0.15), (x - 0.02, z + 0.15)));
        s.push(seg((x - 0.02, z + 0.15), (x - 0.02, z + 0.18)));
        s.push(seg((x - 0.02, z + 0.18), (x + 0.28, z + 0.18)));
    }
    s
}

fn track_on_stairs() -> BeltOutline {
    // The scout's main track, tilted to the stair angle and resting on the nosings.
    let (s, c) = (0.18f64 / 0.28).atan().sin_cos();
    let place = |x: f64, z: f64| Point2::new(0.4 + x * c - z * s, 0.18 + x * s + z * c - 0.002);
    let mut circles = vec![
        Circle {
            center: place(-0.30, 0.085),
            radius: 0.055,
        },
        Circle {
            center: place(0.30, 0.085),
            radius: 0.055,
        },
    ];
    for x in [-0.21, -0.105, 0.0, 0.105, 0.21] {
        circles.push(Circle {
            center: place(x, 0.035),
            radius: 0.035,
        });
    }
    BeltOutline::new(circles).expect("belt")
}

fn bench(c: &mut Criterion) {
    let outline = track_on_stairs();
    let segments = stairs();
    let mats = [SurfaceMaterial::default()];
    let stiffness = PlaneStiffness {
        kappa: 9.0e5,
        run_mid: 0.5,
        grousers: Grousers {
            height: 0.008,
            pitch: 0.04,
        },
    };
    let mut loads = vec![ElementLoad::default(); outline.circles().len() + outline.runs().len()];
    c.bench_function(
        "evaluate_plane (7 circles, 7 runs, 16 stair segments)",
        |b| {
            b.iter(|| {
                evaluate_plane(&outline, stiffness, &segments, &mats, &mut loads, &[]);
                loads[0].magnitude
            })
        },
    );

    // A road wheel (r = 35 mm) at its static sinkage on concrete (0.6 mm: the series), and
    // pressed in by half its radius (the closed form with `acos`).
    for (name, depth) in [
        ("circular segment (35 mm wheel, 0.6 mm deep)", 0.0006),
        ("circular segment (35 mm wheel, 17.5 mm deep)", 0.0175),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let s = CircularSegment::new(0.035, std::hint::black_box(depth));
                s.area + s.chord + s.area_integral
            })
        });
    }

    let cfg = FrictionConfig::default();
    c.bench_function("friction (one contact)", |b| {
        b.iter(|| {
            friction(
                &cfg,
                4.0e4,
                80.0,
                Vector2::new(0.8, 0.8),
                Vector2::new(0.01, -0.002),
                Vector2::new(0.001, 0.0),
                0.0,
                0.002,
            )
            .force
        })
    });

    // The scout climbing the public stairs as `treadsim bench` drives it, 20 s in: half-way
    // through the bench's measured 10–30 s, mid-flight (z ≈ 0.55 m, about 9 contacts; at
    // 10 s it is still on the floor before the first step, 36 contacts). The track model alone
    // at that pose (cuts, contacts, drive and friction of one step: the part of
    // `Simulation::step` that is ours).
    let climb = Climb::after(MID_FLIGHT);
    let body = climb.sim.body_state(climb.id);
    let mut model = climb.sim.robot(climb.id).clone();
    let terrain = climb.sim.scene().terrain.clone();
    let settings = treadsim::vehicle::implicit::StepSettings {
        friction: SimConfig::default().friction,
        ..treadsim::vehicle::implicit::StepSettings::explicit(SimConfig::default().dt)
    };
    let mut segments = Vec::new();
    c.bench_function("track model step (scout on the public stairs)", |b| {
        b.iter(|| model.step(&terrain, &body, &settings, &mut segments))
    });
    // Whole steps over the window `treadsim bench` times (10–30 s: the flight), started again
    // from 10 s (untimed) whenever the climb reaches 30 s — not steps of a robot that has long
    // since reached the top and pushes against the end wall.
    let mut climb = Climb::after(WINDOW_START);
    c.bench_function("Simulation::step (scout climbing the public stairs)", |b| {
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let room = WINDOW_END.saturating_sub(climb.steps);
                if room == 0 {
                    climb = Climb::after(WINDOW_START);
                    continue;
                }
                let run = room.min(left);
                let t0 = Instant::now();
                for _ in 0..run {
                    climb.step();
                }
                timed += t0.elapsed();
                left -= run;
            }
            timed
        })
    });
}

/// Steps (2 ms) to where `treadsim bench` starts timing, to mid-flight, and to where it stops.
const WINDOW_START: u64 = 5_000;
const MID_FLIGHT: u64 = 10_000;
const WINDOW_END: u64 = 15_000;

/// The scout on the public stairs, driven by [`StairDriver::default`] as `treadsim bench`
/// drives it.
struct Climb {
    sim: Simulation,
    id: treadsim::sim::RobotId,
    on_flight: bool,
    steps: u64,
}

impl Climb {
    /// The climb after `steps` steps.
    fn after(steps: u64) -> Self {
        let scene = Scene::load(Path::new("scenes/public_stairs.toml")).expect("scene");
        let spawn = scene.spawns[0].clone();
        let mut sim = Simulation::new(scene, SimConfig::default()).expect("sim");
        let id = sim
            .add_robot(
                load_robot(Path::new("scenes/robots/scout.toml")).expect("robot"),
                &spawn,
            )
            .expect("add");
        let mut climb = Self {
            sim,
            id,
            on_flight: false,
            steps: 0,
        };
        for _ in 0..steps {
            climb.step();
        }
        climb
    }

    /// One step, the command set from the robot's pitch.
    fn step(&mut self) {
        let rotation = self.sim.body_state(self.id).pose.rotation;
        let command = StairDriver::default().command_at(&rotation, &mut self.on_flight);
        self.sim.set_command(self.id, command);
        self.sim.step();
        self.steps += 1;
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
