//! Many robots in one scene: the drive trains run on rayon's threads (stage 2 of
//! `Simulation::step`), and the results must not depend on how many threads there are.

mod common;

use treadsim::sim::{SimConfig, Simulation, StateSnapshot};
use treadsim::tools::bench::bench_spawn;
use treadsim::vehicle::DriveCommand;

/// Eight robots of every tracked and wheeled preset on the bench field, each driven its own
/// way (speeds, turns, flipper moves changing every half second), for 3 s; the exact state of
/// every robot at the end, and how far each moved from its spawn (m, horizontal).
fn run(threads: usize) -> (Vec<StateSnapshot>, Vec<f64>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| {
        let scene = common::scene_file("bench_field");
        let spawns = scene.spawns.clone();
        let mut sim = Simulation::new(scene, SimConfig::default()).expect("simulation");
        let names = common::PRESETS.iter().chain(common::WHEELED.iter());
        let ids: Vec<_> = names
            .cycle()
            .take(8)
            .enumerate()
            .map(|(i, name)| {
                let spawn = bench_spawn(&spawns, i).expect("spawn");
                sim.add_robot(common::robot(name), &spawn).expect("robot")
            })
            .collect();
        for step in 0..1500usize {
            if step % 250 == 0 {
                let phase = (step / 250) as f64;
                for (k, &id) in ids.iter().enumerate() {
                    let k = k as f64;
                    sim.set_command(
                        id,
                        DriveCommand {
                            left: 0.4 * ((phase + k) * 0.7).sin() + 0.3,
                            right: 0.4 * ((phase - k) * 0.9).cos() + 0.2,
                            flipper: Some(0.6 * (phase * 0.5 + k).sin()),
                            steer: None,
                        },
                    );
                }
            }
            sim.step();
        }
        let states = ids
            .iter()
            .map(|&id| {
                let mut snapshot = StateSnapshot::new(sim.steps(), sim.time());
                sim.capture_state(id, &mut snapshot);
                snapshot
            })
            .collect();
        let moved = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let start = bench_spawn(&spawns, i).expect("spawn").position;
                let now = sim.body_state(id).pose.translation.vector;
                (now.xy() - start.coords.xy()).norm()
            })
            .collect();
        (states, moved)
    })
}

/// One, two and four threads give the same state of every robot, bit for bit.
#[test]
fn many_robots_give_the_same_state_for_any_thread_count() {
    let (one, moved) = run(1);
    assert_eq!(one.len(), 8);
    for threads in [2, 4] {
        let (other, _) = run(threads);
        for (k, (a, b)) in one.iter().zip(&other).enumerate() {
            assert!(
                b.first_difference(a).is_none(),
                "robot {k} with {threads} threads: {:?}",
                b.first_difference(a)
            );
        }
    }
    // And the robots did something: every one drove at least 20 cm from its spawn.
    for (k, d) in moved.iter().enumerate() {
        assert!(*d > 0.2, "robot {k} moved {d:.3} m");
    }
}
