//! The scene library in `scenes/`: every file loads, and each scene's geometry is what its
//! exercise promises — stair angles and nosing spacing, ramp slopes, curb heights, ditch
//! widths, the building's floor-to-floor connection, spawns on clear level ground, goals that
//! a robot standing there is inside, and a rubble field that is the same on every load.

mod common;

use std::ops::Range;
use std::path::{Path, PathBuf};

use nalgebra::{Isometry3, Point3, Vector3};
use treadsim::scene::{ElementInfo, ElementKind, Scene, Spawn};
use treadsim::terrain::{CutPlane, CutRegion, CutSegment};

use common::scene_element;

/// Robot footprint used to check spawns: a little larger than the ~0.7 × 0.5 m robots, m.
const FOOTPRINT: (f64, f64) = (0.8, 0.6);
/// Free height a robot needs above its footprint, m.
const CLEARANCE: f64 = 0.6;

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

fn load(file: &str) -> Scene {
    let path = scenes_dir().join(file);
    Scene::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn spawn<'a>(scene: &'a Scene, name: &str) -> &'a Spawn {
    scene
        .spawn(name)
        .unwrap_or_else(|| panic!("{}: no spawn '{name}'", scene.path.display()))
}

/// Every `scenes/*.toml`, sorted.
fn scene_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .expect("scenes/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// Where the triangles `tris` cross the vertical line through `(x, y)`: `(z, normal z)` for
/// each. Triangles seen edge-on from above (walls' sides) are skipped; points on a shared edge
/// are reported by both triangles.
fn crossings(scene: &Scene, tris: Range<usize>, x: f64, y: f64) -> Vec<(f64, f64)> {
    let t = &scene.terrain;
    let mut out = Vec::new();
    for i in tris {
        let [a, b, c] = t.triangle_points(i);
        let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
        if det.abs() < 1e-12 {
            continue;
        }
        let wa = ((b.x - x) * (c.y - y) - (c.x - x) * (b.y - y)) / det;
        let wb = ((c.x - x) * (a.y - y) - (a.x - x) * (c.y - y)) / det;
        let wc = 1.0 - wa - wb;
        if wa >= -1e-9 && wb >= -1e-9 && wc >= -1e-9 {
            out.push((wa * a.z + wb * b.z + wc * c.z, t.normals()[i].z));
        }
    }
    out
}

fn all_triangles(scene: &Scene) -> Range<usize> {
    0..scene.terrain.num_triangles()
}

/// Height of the highest upward-facing surface at `(x, y)` that is not above `z_max`.
fn ground_below(scene: &Scene, x: f64, y: f64, z_max: f64) -> Option<f64> {
    crossings(scene, all_triangles(scene), x, y)
        .into_iter()
        .filter(|&(z, nz)| nz > 0.1 && z <= z_max + 1e-9)
        .map(|(z, _)| z)
        .reduce(f64::max)
}

/// Asserts that the vertical line at `(x, y)` is free of terrain from `z` to `z + height`:
/// no surface crosses it there, and the first surface above is not the top of a solid that
/// the point is inside (a wall taller than `height`).
fn assert_clear_above(scene: &Scene, x: f64, y: f64, z: f64, height: f64, what: &str) {
    let first_above = crossings(scene, all_triangles(scene), x, y)
        .into_iter()
        .filter(|&(zc, _)| zc > z + 1e-6)
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((zc, nz)) = first_above {
        assert!(
            zc >= z + height && nz < 0.0,
            "{}: {what}: terrain at z = {zc} (normal z {nz}) above ({x}, {y}, {z})",
            scene.path.display()
        );
    }
}

/// World z of the highest vertex of an element.
fn max_z(scene: &Scene, el: &ElementInfo) -> f64 {
    el.triangles
        .clone()
        .flat_map(|i| scene.terrain.triangle_points(i))
        .map(|p| p.z)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The element's local +x in the world (its "forward": the direction stairs and ramps rise).
fn forward(el: &ElementInfo) -> Vector3<f64> {
    el.pose.rotation * Vector3::x()
}

/// The pose of a vertical cut plane through `p` whose plane x axis points along `yaw`.
fn vertical_plane_pose(p: &Point3<f64>, yaw: f64) -> Isometry3<f64> {
    Isometry3::new(p.coords, Vector3::z() * yaw)
}

#[test]
fn every_scene_file_loads() {
    let files = scene_files();
    assert!(
        files.len() >= 9,
        "expected at least 9 scene files, found {files:?}"
    );
    for name in [
        "flat",
        "ramps",
        "public_stairs",
        "residential_stairs",
        "industrial_stairs",
        "curbs",
        "ditch",
        "rubble",
        "building",
    ] {
        let p = scenes_dir().join(format!("{name}.toml"));
        assert!(files.contains(&p), "missing {}", p.display());
    }
    for f in &files {
        let s = Scene::load(f).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.description.is_empty(), "{}: no description", f.display());
        assert!(!s.spawns.is_empty() && !s.checkpoints.is_empty());
        assert_eq!(s.dropped_triangles, 0, "{}", f.display());
        for m in s.terrain.materials() {
            assert!(
                (0.3..=1.2).contains(&m.friction),
                "{}: material {} has μ {}",
                f.display(),
                m.name,
                m.friction
            );
        }
    }
}

/// Every spawn stands on level ground at its own height, with the robot's whole footprint
/// supported and nothing above it.
#[test]
fn spawns_stand_on_clear_level_ground() {
    for f in scene_files() {
        let s = Scene::load(&f).unwrap_or_else(|e| panic!("{e}"));
        for sp in &s.spawns {
            let (c, sn) = (sp.yaw.cos(), sp.yaw.sin());
            for i in 0..=4 {
                for j in 0..=4 {
                    let u = (i as f64 / 4.0 - 0.5) * FOOTPRINT.0;
                    let v = (j as f64 / 4.0 - 0.5) * FOOTPRINT.1;
                    let (x, y) = (
                        sp.position.x + c * u - sn * v,
                        sp.position.y + sn * u + c * v,
                    );
                    let what = format!("spawn {}", sp.name);
                    let g = ground_below(&s, x, y, sp.position.z + CLEARANCE);
                    assert!(
                        g.is_some_and(|g| (g - sp.position.z).abs() < 1e-9),
                        "{}: {what}: ground at ({x}, {y}) is {g:?}, spawn z is {}",
                        f.display(),
                        sp.position.z
                    );
                    assert_clear_above(&s, x, y, sp.position.z, CLEARANCE, &what);
                }
            }
        }
    }
}

/// A robot standing on the ground under a checkpoint's centre is inside it, and has room.
#[test]
fn checkpoints_sit_on_reachable_ground() {
    for f in scene_files() {
        let s = Scene::load(&f).unwrap_or_else(|e| panic!("{e}"));
        for cp in &s.checkpoints {
            let p = cp.position;
            let g = ground_below(&s, p.x, p.y, p.z)
                .unwrap_or_else(|| panic!("{}: no ground under {}", f.display(), cp.name));
            for h in [0.1, 0.3] {
                assert!(
                    cp.contains(&Point3::new(p.x, p.y, g + h)),
                    "{}: checkpoint {} does not contain a point {h} m above its ground {g}",
                    f.display(),
                    cp.name
                );
            }
            assert_clear_above(&s, p.x, p.y, g, CLEARANCE, &cp.name);
        }
    }
}

struct Flight {
    file: &'static str,
    rise: f64,
    run: f64,
    count: usize,
    landing: f64,
    angle_deg: f64,
    angle_tol_deg: f64,
}

const FLIGHTS: [Flight; 3] = [
    Flight {
        file: "public_stairs.toml",
        rise: 0.18,
        run: 0.28,
        count: 12,
        landing: 2.0,
        angle_deg: 32.7,
        angle_tol_deg: 0.1,
    },
    Flight {
        file: "residential_stairs.toml",
        rise: 0.196,
        run: 0.254,
        count: 14,
        landing: 1.5,
        angle_deg: 37.7,
        angle_tol_deg: 0.1,
    },
    Flight {
        file: "industrial_stairs.toml",
        rise: 0.20,
        run: 0.20,
        count: 10,
        landing: 1.5,
        angle_deg: 45.0,
        angle_tol_deg: 1.0,
    },
];

/// Nosing spacing and stair angle, checked on the nosing points the loader reports.
fn check_nosings(file: &str, el: &ElementInfo, rise: f64, run: f64) -> f64 {
    for w in el.nosings.windows(2) {
        let d = w[1] - w[0];
        let horizontal = d.x.hypot(d.y);
        assert!(
            (horizontal - run).abs() < 1e-9 && (d.z - rise).abs() < 1e-9,
            "{file}: {}: nosings {} -> {} differ by ({horizontal}, {}), expected ({run}, {rise})",
            el.name,
            w[0],
            w[1],
            d.z
        );
        assert!(
            d.normalize().dot(&forward(el)) > 0.0,
            "{file}: flight runs backwards"
        );
    }
    let (first, last) = (el.nosings[0], el.nosings[el.nosings.len() - 1]);
    let d = last - first;
    d.z.atan2(d.x.hypot(d.y)).to_degrees()
}

#[test]
fn stair_scenes_have_their_nominal_geometry() {
    for fl in &FLIGHTS {
        let s = load(fl.file);
        let stairs: Vec<&ElementInfo> = s
            .elements
            .iter()
            .filter(|e| e.kind == ElementKind::Stairs)
            .collect();
        assert_eq!(stairs.len(), 1, "{}: one flight expected", fl.file);
        let el = stairs[0];
        assert_eq!(el.nosings.len(), fl.count, "{}", fl.file);
        assert!(fl.count >= 10, "{}", fl.file);
        let angle = check_nosings(fl.file, el, fl.rise, fl.run);
        assert!(
            (angle - fl.angle_deg).abs() <= fl.angle_tol_deg,
            "{}: stair angle {angle}°, expected {}° ± {}°",
            fl.file,
            fl.angle_deg,
            fl.angle_tol_deg
        );
        let nominal = fl.rise.atan2(fl.run).to_degrees();
        assert!((nominal - fl.angle_deg).abs() <= fl.angle_tol_deg);

        // The flight's top is its last tread, at count·rise.
        let top = el.pose.translation.z + fl.count as f64 * fl.rise;
        assert!((max_z(&s, el) - top).abs() < 1e-9, "{}", fl.file);
        assert!(
            (el.nosings[fl.count - 1].z - top).abs() < 1e-9,
            "{}",
            fl.file
        );

        // The spawn: on the floor, facing the flight, at least 1.5 m before the first nosing.
        let sp = spawn(&s, "start");
        assert!(
            sp.position.z.abs() < 1e-9,
            "{}: spawn z {}",
            fl.file,
            sp.position.z
        );
        let fwd = forward(el);
        let heading = Vector3::new(sp.yaw.cos(), sp.yaw.sin(), 0.0);
        assert!(
            heading.dot(&fwd) > 0.999,
            "{}: spawn does not face the flight",
            fl.file
        );
        let ahead = (el.nosings[0] - sp.position).dot(&fwd);
        assert!(
            ahead >= 1.5,
            "{}: spawn only {ahead} m before the first nosing",
            fl.file
        );

        // The `top` goal contains a point 0.1 m above the centre of the top landing, where
        // the terrain is the landing itself.
        let centre = el.pose
            * Point3::new(
                fl.count as f64 * fl.run + 0.5 * fl.landing,
                0.0,
                fl.count as f64 * fl.rise,
            );
        let g = ground_below(&s, centre.x, centre.y, centre.z + 1.0).unwrap();
        assert!((g - centre.z).abs() < 1e-9, "{}: landing at z {g}", fl.file);
        let cp = s.checkpoint("top").expect("checkpoint `top`");
        assert!(
            cp.contains(&(centre + Vector3::z() * 0.1)),
            "{}: `top` misses the landing centre {centre}",
            fl.file
        );
    }
}

#[test]
fn public_stairs_are_180_280_with_12_steps() {
    let s = load("public_stairs.toml");
    let el = scene_element(&s, "stairs");
    assert_eq!(el.kind, ElementKind::Stairs);
    assert_eq!(el.nosings.len(), 12);
    let angle = check_nosings("public_stairs.toml", el, 0.18, 0.28);
    assert!((angle - 32.7).abs() <= 0.1, "{angle}");
    assert!((0.18f64.atan2(0.28).to_degrees() - 32.7).abs() <= 0.1);
    // It is the default training scene: its first spawn is `start`.
    assert_eq!(s.spawns[0].name, "start");
}

#[test]
fn ramps_rise_at_their_nominal_angles() {
    let s = load("ramps.toml");
    let mut segs: Vec<CutSegment> = Vec::new();
    for angle in [10, 15, 20, 25, 30, 35, 40, 45] {
        let name = format!("ramp{angle}");
        let el = scene_element(&s, &name);
        assert_eq!(el.kind, ElementKind::Ramp);
        let nominal = f64::from(angle);
        let length = 1.0 / nominal.to_radians().tan();
        // The vertical plane along the ramp's centre line: the element's own x–z plane.
        let region = CutRegion::new(-0.5, length + 2.0, -0.5, 1.5);
        s.terrain
            .cut(&CutPlane::from_pose(&el.pose, region), &mut segs);
        let slope: Vec<&CutSegment> = segs
            .iter()
            .filter(|g| el.triangles.contains(&(g.triangle as usize)))
            .filter(|g| g.normal.x < -1e-6 && g.normal.y > 1e-6)
            .collect();
        assert!(!slope.is_empty(), "{name}: no slope in the cut");
        let (mut run, mut z_lo, mut z_hi) = (0.0, f64::INFINITY, f64::NEG_INFINITY);
        for g in &slope {
            let d = g.b - g.a;
            let a = d.y.atan2(d.x).to_degrees();
            assert!(
                (a - nominal).abs() < 0.01,
                "{name}: slope segment at {a}°, expected {nominal}°"
            );
            run += d.x.abs();
            z_lo = z_lo.min(g.a.y.min(g.b.y));
            z_hi = z_hi.max(g.a.y.max(g.b.y));
        }
        assert!(
            z_lo.abs() < 1e-9 && (z_hi - 1.0).abs() < 1e-9,
            "{name}: {z_lo}..{z_hi}"
        );
        assert!((run - length).abs() < 1e-9, "{name}: slope length {run}");
        // The top platform: 1.5 m at 1.0 m.
        let top: f64 = segs
            .iter()
            .filter(|g| el.triangles.contains(&(g.triangle as usize)))
            .filter(|g| g.normal.y > 0.999 && (g.a.y - 1.0).abs() < 1e-9)
            .map(|g| (g.b.x - g.a.x).abs())
            .sum();
        assert!((top - 1.5).abs() < 1e-9, "{name}: top platform {top} m");
        // Its spawn is in its lane, in front of the foot, facing up the slope.
        let sp = spawn(&s, &name);
        let local = el.pose.inverse() * sp.position;
        assert!(
            local.y.abs() < 1e-9 && local.x <= -1.5 - 0.35,
            "{name}: spawn at {local}"
        );
        assert!((sp.yaw - el.pose.rotation.euler_angles().2).abs() < 1e-9);
    }
}

#[test]
fn curbs_have_their_nominal_heights() {
    let s = load("curbs.toml");
    for (name, h) in [
        ("curb05", 0.05),
        ("curb10", 0.10),
        ("curb15", 0.15),
        ("curb20", 0.20),
        ("curb25", 0.25),
        ("curb30", 0.30),
        ("curb40", 0.40),
        ("wall", 0.40),
    ] {
        let el = scene_element(&s, name);
        assert_eq!(el.kind, ElementKind::Curb, "{name}");
        let top = max_z(&s, el);
        assert!((top - h).abs() < 1e-9, "{name}: top at {top}, expected {h}");
        // Depth along the path: 1.0 m so the robot fits on top; the wall is a 0.3 m block.
        let xs = el
            .triangles
            .clone()
            .flat_map(|i| s.terrain.triangle_points(i))
            .map(|p| (el.pose.inverse() * p).x);
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        let depth = if name == "wall" { 0.3 } else { 1.0 };
        assert!((hi - lo - depth).abs() < 1e-9, "{name}: depth {}", hi - lo);
        // The lane's spawn faces the curb's front face with at least 1.5 m run-up.
        let sp = spawn(&s, name);
        let local = el.pose.inverse() * sp.position;
        assert!(local.y.abs() < 1e-9, "{name}: spawn off the lane");
        assert!(
            lo - local.x >= 1.5 + 0.35,
            "{name}: run-up {}",
            lo - local.x
        );
    }
}

#[test]
fn ditches_are_0_35_and_0_8_m_wide_and_0_5_m_deep() {
    let s = load("ditch.toml");
    let mut segs: Vec<CutSegment> = Vec::new();
    for (lane, width, goal) in [
        ("narrow", 0.35, "narrow_beyond"),
        ("wide", 0.8, "wide_beyond"),
    ] {
        let sp = spawn(&s, lane);
        let plane = CutPlane::from_pose(
            &vertical_plane_pose(&sp.position, sp.yaw),
            CutRegion::new(0.0, 8.0, -1.0, 1.0),
        );
        s.terrain.cut(&plane, &mut segs);
        // Upward faces, as intervals along the lane, by height.
        let at = |z: f64| {
            let mut iv: Vec<(f64, f64)> = segs
                .iter()
                .filter(|g| g.normal.y > 0.999)
                .filter(|g| (g.a.y - z).abs() < 1e-9 && (g.b.y - z).abs() < 1e-9)
                .map(|g| (g.a.x.min(g.b.x), g.a.x.max(g.b.x)))
                .collect();
            iv.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut merged: Vec<(f64, f64)> = Vec::new();
            for (a, b) in iv {
                match merged.last_mut() {
                    Some(m) if a <= m.1 + 1e-9 => m.1 = m.1.max(b),
                    _ => merged.push((a, b)),
                }
            }
            merged
        };
        let floor = at(0.0);
        assert_eq!(floor.len(), 2, "{lane}: floor pieces {floor:?}");
        let (gap_lo, gap_hi) = (floor[0].1, floor[1].0);
        assert!(
            (gap_hi - gap_lo - width).abs() < 1e-9,
            "{lane}: gap {}",
            gap_hi - gap_lo
        );
        assert!(gap_lo >= 1.5 + 0.35, "{lane}: run-up {gap_lo}");
        let bottom = at(-0.5);
        assert!(
            bottom
                .iter()
                .any(|&(a, b)| a <= gap_lo + 1e-9 && b >= gap_hi - 1e-9),
            "{lane}: no ditch bottom at z = -0.5 under the gap: {bottom:?}"
        );
        // The goal is beyond the gap.
        let cp = s.checkpoint(goal).expect("goal");
        let beyond = plane.to_plane(&cp.position).x;
        assert!(beyond - cp.radius > gap_hi, "{goal} overlaps the ditch");
    }
}

#[test]
fn building_stair_connects_ground_floor_landing_and_upper_floor() {
    let s = load("building.toml");
    let f1 = scene_element(&s, "flight1");
    let f2 = scene_element(&s, "flight2");
    let landing = scene_element(&s, "mid_landing");
    let upper = scene_element(&s, "upper_floor");
    assert_eq!(
        (f1.kind, f2.kind),
        (ElementKind::Stairs, ElementKind::Stairs)
    );
    assert_eq!(upper.kind, ElementKind::Slab);
    assert_eq!((f1.nosings.len(), f2.nosings.len()), (8, 8));
    check_nosings("building.toml", f1, 0.1875, 0.28);
    check_nosings("building.toml", f2, 0.1875, 0.28);

    // Upper floor top at 3.0 m; flight2's last nosing there too.
    let upper_top = max_z(&s, upper);
    assert!(
        (upper_top - 3.0).abs() <= 0.005,
        "upper floor at {upper_top}"
    );
    let last = *f2.nosings.last().unwrap();
    assert!((last.z - 3.0).abs() <= 0.005, "flight2 ends at {}", last.z);

    // flight1 starts on the ground floor, its last tread is flush with the landing top, and
    // flight2's first riser stands on the landing top.
    let landing_top = max_z(&s, landing);
    assert!(f1.pose.translation.z.abs() < 1e-9);
    assert!((f1.nosings.last().unwrap().z - landing_top).abs() < 1e-9);
    assert!((f2.pose.translation.z - landing_top).abs() < 1e-9);
    // Just past the end of flight1's top tread is the landing; just in front of flight2's
    // first riser is the landing; just past flight2's top tread is the upper floor.
    let flight_end = |el: &ElementInfo, run: f64, beyond: f64| {
        el.pose * Point3::new(el.nosings.len() as f64 * run + beyond, 0.0, 0.0)
    };
    let p = flight_end(f1, 0.28, 0.05);
    let g = ground_below(&s, p.x, p.y, 10.0).unwrap();
    assert!((g - landing_top).abs() < 1e-9, "past flight1: {g}");
    let p = f2.pose * Point3::new(-0.05, 0.0, 0.0);
    let g = ground_below(&s, p.x, p.y, 10.0).unwrap();
    assert!((g - landing_top).abs() < 1e-9, "before flight2: {g}");
    let p = flight_end(f2, 0.28, 0.05);
    let g = ground_below(&s, p.x, p.y, 10.0).unwrap();
    assert!((g - upper_top).abs() < 1e-9, "past flight2: {g}");
    assert!(
        crossings(&s, upper.triangles.clone(), p.x, p.y)
            .iter()
            .any(|&(z, nz)| (z - upper_top).abs() < 1e-9 && nz > 0.999),
        "past flight2 is not the upper floor slab"
    );

    // The stairwell opening: above the middle of every tread of both flights and of the
    // landing there is no slab between 2.8 and 3.0 m, and 1.2 m of headroom over the tread.
    let mut treads: Vec<Point3<f64>> = Vec::new();
    for el in [f1, f2] {
        for n in &el.nosings {
            treads.push(n + forward(el) * 0.14);
        }
    }
    treads.push(landing.pose * Point3::new(0.0, 0.0, landing_top));
    for t in &treads {
        for (z, _) in crossings(&s, upper.triangles.clone(), t.x, t.y) {
            assert!(
                !(2.8 - 1e-9..=3.0 + 1e-9).contains(&z),
                "slab at z = {z} over the stair at ({}, {})",
                t.x,
                t.y
            );
        }
        assert_clear_above(&s, t.x, t.y, t.z, 1.2, "stair headroom");
    }
    // ... while the upper floor goal is on the slab.
    let cp = s.checkpoint("upper_floor").expect("upper_floor goal");
    let on_slab = crossings(&s, upper.triangles.clone(), cp.position.x, cp.position.y);
    assert!(on_slab
        .iter()
        .any(|&(z, nz)| (z - 3.0).abs() < 1e-9 && nz > 0.999));
    let cp = s.checkpoint("landing").expect("landing goal");
    assert!(cp.contains(&(landing.pose * Point3::new(0.0, 0.0, landing_top + 0.1))));

    // Spawn in the corridor, on the ground floor.
    let sp = spawn(&s, "start");
    assert!(sp.position.z.abs() < 1e-9);
    assert!(sp.position.x < -0.2 && sp.position.y.abs() < 0.75 - 0.3);
}

#[test]
fn building_doorway_is_0_9_by_2_1_m() {
    let s = load("building.toml");
    // Centre of the doorway, in the thickness of the wall (x -0.2..0).
    let (x, y) = (-0.1, 0.0);
    let above_floor: Vec<f64> = crossings(&s, all_triangles(&s), x, y)
        .into_iter()
        .map(|(z, _)| z)
        .filter(|&z| z > 1e-6)
        .collect();
    let head = above_floor.iter().copied().fold(f64::INFINITY, f64::min);
    assert!((head - 2.1).abs() < 1e-9, "door head at {head}");
    assert_eq!(ground_below(&s, x, y, 1.0), Some(0.0));
    // Clear just inside both jambs, wall just outside them.
    for side in [-1.0, 1.0] {
        assert_clear_above(&s, x, side * 0.449, 0.0, 2.099, "doorway");
        let wall = ground_below(&s, x, side * 0.451, 10.0).unwrap();
        assert!(wall > 2.1, "no jamb at y = {}", side * 0.451);
    }
}

#[test]
fn rubble_field_is_the_same_on_every_load() {
    let a = load("rubble.toml");
    let b = load("rubble.toml");
    let bits = |s: &Scene| -> Vec<[u64; 3]> {
        s.terrain
            .vertices()
            .iter()
            .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
            .collect()
    };
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.terrain.triangles(), b.terrain.triangles());
    assert_eq!(
        a.terrain.triangle_materials(),
        b.terrain.triangle_materials()
    );
    let field = scene_element(&a, "rubble_field");
    assert_eq!(field.kind, ElementKind::Rubble);
    assert_eq!(field.triangles.len(), 400 * 12);
    assert!(
        a.elements
            .iter()
            .filter(|e| e.kind == ElementKind::Pipe)
            .count()
            >= 2
    );
    assert!(
        a.elements
            .iter()
            .filter(|e| e.kind == ElementKind::Cylinder)
            .count()
            >= 2
    );
    // The road barriers come from an OBJ mesh: 0.81 m high, a closed solid of 0.9857 m³ wound
    // outward (positive signed volume), whichever way it is turned. OBJ coordinates are read
    // in single precision, hence the 1e-6 tolerances.
    for name in ["barrier_left", "barrier_right"] {
        let el = scene_element(&a, name);
        assert_eq!(el.kind, ElementKind::Mesh);
        assert!((max_z(&a, el) - 0.81).abs() < 1e-6, "{name}");
        let volume: f64 = el
            .triangles
            .clone()
            .map(|i| {
                let [p, q, r] = a.terrain.triangle_points(i);
                p.coords.dot(&q.coords.cross(&r.coords)) / 6.0
            })
            .sum();
        assert!((volume - 0.985_725).abs() < 1e-6, "{name}: volume {volume}");
    }
}
