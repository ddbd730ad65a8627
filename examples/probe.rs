//! Scratch experiment (not shipped): drop a robot on a scene and print its state.
use std::path::Path;
use treadsim::scene::Scene;
use treadsim::sim::{SimConfig, Simulation};
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::DriveCommand;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene = Scene::load(Path::new(&args[1])).unwrap();
    let robot = load_robot(Path::new(&args[2])).unwrap();
    let left: f64 = args.get(3).map_or(0.0, |s| s.parse().unwrap());
    let right: f64 = args.get(4).map_or(left, |s| s.parse().unwrap());
    let dur: f64 = args.get(5).map_or(3.0, |s| s.parse().unwrap());
    let flip: Option<f64> = args.get(6).map(|s| s.parse::<f64>().unwrap().to_radians());
    let flip2: Option<(f64, f64)> = args.get(7).map(|s| {
        let v: Vec<f64> = s.split(':').map(|x| x.parse().unwrap()).collect();
        (v[0], v[1].to_radians())
    });
    let spawn = scene.spawns[0].clone();
    let mass = robot.mass;
    let mut sim = Simulation::new(scene, SimConfig::default()).unwrap();
    let id = sim.add_robot(robot, &spawn).unwrap();
    sim.set_command(
        id,
        DriveCommand {
            left,
            right,
            flipper: flip,
        },
    );
    let t0 = std::time::Instant::now();
    let n = (dur / 0.002) as usize;
    for i in 0..n {
        if let Some((t, a)) = flip2 {
            if (sim.time() - t).abs() < 1e-9 {
                sim.set_command(
                    id,
                    DriveCommand {
                        left,
                        right,
                        flipper: Some(a),
                    },
                );
            }
        }
        sim.step();
        if i % 250 == 249 {
            let r = sim.telemetry(id);
            let nsum: f64 = r.tracks.iter().map(|t| t[2]).sum();
            println!(
                "t={:.2} pos=({:.3},{:.3},{:.4}) rpy=({:.2},{:.2},{:.2})deg v=({:.3},{:.3},{:.3}) belts={:?} N/mg={:.4} E={:.3}",
                r.t, r.position[0], r.position[1], r.position[2],
                r.rpy[0].to_degrees(), r.rpy[1].to_degrees(), r.rpy[2].to_degrees(),
                r.linvel[0], r.linvel[1], r.linvel[2],
                r.tracks.iter().map(|t| (t[0] * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
                nsum / (mass * 9.81), sim.mechanical_energy(id)
            );
        }
    }
    let el = t0.elapsed().as_secs_f64();
    if let Ok(path) = std::env::var("DUMP") {
        use std::io::Write;
        let mut f = std::fs::File::create(path).unwrap();
        let st = sim.body_state(id);
        let robot = sim.robot(id);
        for i in 0..robot.plane_count() {
            let (o, y) = robot.plane_outline(i);
            for c in o.circles() {
                let w = st.pose * nalgebra::Point3::new(c.center.x, y, c.center.y);
                writeln!(f, "circle {} {} {} {}", i, w.x, w.z, c.radius).unwrap();
            }
            let pose = st.pose * nalgebra::Translation3::new(0.0, y, 0.0);
            let cut = treadsim::terrain::CutPlane::from_pose(
                &pose,
                treadsim::terrain::CutRegion::new(-1.0, 1.5, -1.0, 1.0),
            );
            let mut segs = Vec::new();
            sim.scene().terrain.cut(&cut, &mut segs);
            for sgm in &segs {
                let (a, b) = (cut.to_world(&sgm.a), cut.to_world(&sgm.b));
                writeln!(f, "seg {} {} {} {} {}", i, a.x, a.z, b.x, b.z).unwrap();
            }
        }
        for c in robot.contacts() {
            writeln!(
                f,
                "contact {} {} {} {} {} {}",
                c.plane,
                c.point.x,
                c.point.z,
                c.normal.x * c.normal_force,
                c.normal.z * c.normal_force,
                c.element
            )
            .unwrap();
        }
    }
    let st = sim.body_state(id);
    for c in sim.robot(id).contacts() {
        let p = st.pose.inverse() * c.point;
        let n = st.pose.rotation.inverse() * c.normal;
        let f = st.pose.rotation.inverse() * c.friction;
        println!("  tr{} pl{} el{:2} body p=({:.3},{:.3},{:.3}) n=({:.2},{:.2},{:.2}) N={:7.1} fric=({:6.1},{:6.1},{:6.1}) stick={}",
            c.track, c.plane, c.element, p.x, p.y, p.z, n.x, n.y, n.z, c.normal_force, f.x, f.y, f.z, c.sticking);
    }
    println!(
        "{} steps in {:.3}s: {:.1} us/step, RTF {:.0}, events {:?}",
        n,
        el,
        el / n as f64 * 1e6,
        dur / el,
        sim.events()
    );
}
