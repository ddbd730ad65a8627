//! Headless rendering (kiss3d `OffscreenSurface`, no display): the acceptance test of the
//! operator view — the front camera on the public stairs shows a real picture, and the
//! picture changes when the robot drives.
#![cfg(feature = "viewer")]

use std::path::Path;

use treadsim::scene::Scene;
use treadsim::sim::{RobotId, SimConfig, Simulation};
use treadsim::vehicle::robot_file::load_robot;
use treadsim::vehicle::DriveCommand;
use treadsim::viewer::render_path::RenderPath;
use treadsim::viewer::shot::{HeadlessRenderer, RgbImage};

fn asset(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn stairs_with_scout() -> (Simulation, RobotId) {
    let scene = Scene::load(&asset("scenes/public_stairs.toml")).expect("scene loads");
    let robot = load_robot(&asset("scenes/robots/scout.toml")).expect("robot loads");
    let spawn = scene.spawns[0].clone();
    let mut sim = Simulation::new(scene, SimConfig::default()).expect("simulation");
    let id = sim.add_robot(robot, &spawn).expect("robot fits");
    (sim, id)
}

/// Luminance variance (0..=255 scale) and the number of distinct colours quantised to 4 bits
/// per channel.
fn stats(img: &RgbImage) -> (f64, usize) {
    let px: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    let lum: Vec<f64> = px
        .iter()
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .collect();
    let mean = lum.iter().sum::<f64>() / lum.len() as f64;
    let var = lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64;
    let mut colours: Vec<u16> = px
        .iter()
        .map(|p| (u16::from(p[0] >> 4) << 8) | (u16::from(p[1] >> 4) << 4) | u16::from(p[2] >> 4))
        .collect();
    colours.sort_unstable();
    colours.dedup();
    (var, colours.len())
}

/// Mean absolute difference per channel, 0..=255.
fn difference(a: &RgbImage, b: &RgbImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

#[test]
fn front_camera_on_the_stairs_is_a_real_picture_that_changes_when_the_robot_drives() {
    let (mut sim, id) = stairs_with_scout();
    let mut r = HeadlessRenderer::new(&sim, id, 320, 180).expect("a GPU adapter (Mesa) exists");
    sim.run_for(1.0); // settle on the tracks
    let before = r.render(&sim, id, "front").expect("front camera exists");
    assert_eq!(before.dimensions(), (320, 180));
    let (var, colours) = stats(&before);
    eprintln!("before: luminance variance {var:.0}, {colours} colours");
    assert!(var > 150.0, "luminance variance {var:.1}: a flat image");
    assert!(colours >= 40, "{colours} distinct colours: not a scene");
    // Not all sky: the lower half is ground and stairs, darker than the sky above them.
    let sky = before.get_pixel(160, 2).0;
    let ground = before.get_pixel(160, 120).0;
    assert_ne!(sky, ground);

    // Same state, same picture (rendering is deterministic).
    let again = r.render(&sim, id, "front").expect("render");
    assert!(
        difference(&before, &again) < 0.5,
        "two renders of one state differ"
    );

    // Drive 0.5 m towards the stairs: the view must change.
    let x0 = sim.body_state(id).pose.translation.x;
    sim.set_command(id, DriveCommand::belts(0.5, 0.5));
    sim.run_for(1.5);
    let moved = sim.body_state(id).pose.translation.x - x0;
    assert!(moved > 0.3, "the robot drove {moved:.3} m");
    let after = r.render(&sim, id, "front").expect("render");
    let d = difference(&before, &after);
    eprintln!("after {moved:.2} m: mean change {d:.1} per channel");
    assert!(
        d > 3.0,
        "mean pixel change {d:.2} after driving {moved:.2} m"
    );
    let (var, colours) = stats(&after);
    assert!(var > 150.0 && colours >= 40);
}

#[test]
fn every_view_renders_and_they_differ() {
    let (mut sim, id) = stairs_with_scout();
    sim.run_for(0.5);
    let mut r = HeadlessRenderer::new(&sim, id, 160, 90).expect("a GPU adapter (Mesa) exists");
    let names: Vec<String> = r.views().iter().map(|v| v.name.clone()).collect();
    assert_eq!(names, ["front", "rear", "mast", "chase", "free"]);
    let images: Vec<RgbImage> = names
        .iter()
        .map(|n| r.render(&sim, id, n).expect("view renders"))
        .collect();
    for (i, a) in images.iter().enumerate() {
        let (var, _) = stats(a);
        assert!(var > 50.0, "{} is flat", names[i]);
        for (j, b) in images.iter().enumerate().skip(i + 1) {
            assert!(
                difference(a, b) > 2.0,
                "{} and {} look the same",
                names[i],
                names[j]
            );
        }
    }
    let err = r.render(&sim, id, "belly").expect_err("no such camera");
    assert!(
        err.to_string().contains("front, rear, mast, chase, free"),
        "{err}"
    );
}

/// Mean luminance, 0..=255.
fn mean_luminance(img: &RgbImage) -> f64 {
    let n = (img.width() * img.height()) as f64;
    img.pixels()
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .sum::<f64>()
        / n
}

#[test]
fn the_fast_path_shows_the_scene_the_full_path_shows() {
    let (mut sim, id) = stairs_with_scout();
    sim.run_for(1.0);
    let mut full = HeadlessRenderer::new(&sim, id, 320, 180).expect("a GPU adapter (Mesa) exists");
    let mut fast = HeadlessRenderer::with_path(&sim, id, 320, 180, RenderPath::Fast)
        .expect("a GPU adapter (Mesa) exists");
    for view in ["front", "chase"] {
        let a = full.render(&sim, id, view).expect("view renders");
        let b = fast.render(&sim, id, view).expect("view renders");
        let (var, colours) = stats(&b);
        let d = difference(&a, &b);
        let (la, lb) = (mean_luminance(&a), mean_luminance(&b));
        eprintln!(
            "{view}: fast path variance {var:.0}, {colours} colours; mean change {d:.1} \
             per channel from the full path; luminance {la:.0} full, {lb:.0} fast"
        );
        assert!(var > 150.0 && colours >= 40, "{view}: not a scene");
        // Same scene, same colours and brightness: only shadows (the robot's own, in front of
        // the front camera, is most of the difference) and highlights differ.
        assert!(d < 20.0, "{view}: mean change {d:.1} from the full path");
        assert!(
            (la - lb).abs() < 20.0,
            "{view}: luminance {la:.0} vs {lb:.0}"
        );
    }
}

/// A red floor, a square deck of steel grating `side` m wide 1 m above it (see-through or
/// not), the scout parked 1 m off its west edge, and `extra` (TOML tables: lights); loaded
/// from a temporary file.
fn grating_deck(see_through: bool, side: f64, extra: &str) -> (Simulation, RobotId) {
    let spawn_x = -side / 2.0 - 1.0;
    let text = format!(
        r#"
[scene]
name = "deck"

[[material]]
name = "floor"
color = [0.85, 0.08, 0.06]
texture = "concrete"
texture_variation = 0.0

[[material]]
name = "grating"
color = [0.55, 0.56, 0.58]
texture = "grating"
texture_variation = 0.0
see_through = {see_through}

[[element]]
type = "box"
name = "floor"
material = "floor"
size = [40.0, 40.0, 0.3]
position = [0.0, 0.0, -0.3]

[[element]]
type = "slab"
name = "deck"
material = "grating"
size = [{side}, {side}, 0.05]
position = [0.0, 0.0, 0.95]

[[spawn]]
name = "start"
position = [{spawn_x}, 0.0, 0.0]
yaw_deg = 0.0
{extra}
"#
    );
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("deck.toml");
    std::fs::write(&path, text).expect("scene written");
    let scene = Scene::load(&path).expect("scene loads");
    let robot = load_robot(&asset("scenes/robots/scout.toml")).expect("robot loads");
    let spawn = scene.spawns[0].clone();
    let mut sim = Simulation::new(scene, SimConfig::default()).expect("simulation");
    let id = sim.add_robot(robot, &spawn).expect("robot fits");
    (sim, id)
}

/// Fraction of a picture's pixels that are the floor's red.
fn red_fraction(img: &RgbImage) -> f64 {
    let red = img
        .pixels()
        .filter(|p| i32::from(p[0]) > i32::from(p[1]) + 40)
        .count();
    red as f64 / f64::from(img.width() * img.height())
}

#[test]
fn a_see_through_grating_shows_the_floor_below_up_close_and_closes_far_off() {
    // kiss3d's GPU context is per thread and a dropped surface's resources may be shared:
    // every renderer stays alive to the end of the test.
    let mut renderers = Vec::new();
    for path in [RenderPath::Fast, RenderPath::Full] {
        let mut red = Vec::new();
        for see_through in [true, false] {
            let (sim, id) = grating_deck(see_through, 12.0, "");
            renderers.push(
                HeadlessRenderer::with_path(&sim, id, 160, 120, path)
                    .expect("a GPU adapter (Mesa) exists"),
            );
            let r = renderers.last_mut().expect("just pushed");
            // Straight down from 0.6 m above the deck (a camera at its edge, 2.5 mm a
            // pixel), then from 100 m (5 × 6.7 m of the deck in view, a pixel spans 42 mm,
            // more than a bar pitch).
            let mut looking_down = |height: f64, fov: f64| {
                let eye = nalgebra::Point3::new(0.0, 0.0, height);
                let below = nalgebra::Point3::new(0.001, 0.0, 0.0);
                r.render_from(&sim, id, &eye, &below, fov).expect("renders")
            };
            let near = looking_down(1.6, 0.5);
            let far = looking_down(101.0, 0.05);
            red.push((red_fraction(&near), red_fraction(&far)));
        }
        eprintln!(
            "{path}: red seen through the deck (near, far): open {:?}, solid {:?}",
            red[0], red[1]
        );
        let ((open_near, open_far), (solid_near, solid_far)) = (red[0], red[1]);
        // Up close the gaps (about 80 % of the deck) show the red floor; a solid deck none.
        assert!(open_near > 0.5, "{path}: open deck near {open_near:.2}");
        assert!(solid_near < 0.01, "{path}: solid deck near {solid_near:.2}");
        // Far off the open grating closes: it looks as the solid one does.
        assert!(open_far < 0.05, "{path}: open deck far {open_far:.2}");
        assert!(solid_far < 0.01, "{path}: solid deck far {solid_far:.2}");
    }
}

#[test]
fn site_lights_cast_shadows_on_the_full_path_in_the_dark() {
    // A ceiling light 3 m over the floor beside the deck: the deck's shadow falls on the red
    // floor below it when the light casts one.
    let light = r#"
[[light]]
name = "ceiling"
position = [-2.5, 0.0, 3.0]
range = 12.0
intensity = 3.0
"#;
    let (sim, id) = grating_deck(false, 4.0, light);
    let mut r = HeadlessRenderer::new(&sim, id, 160, 120).expect("a GPU adapter (Mesa) exists");
    r.set_light_level(Some(0.05));
    let eye = nalgebra::Point3::new(-6.0, -6.0, 6.0);
    let target = nalgebra::Point3::new(1.0, 0.0, 0.0);
    let shadowed = r
        .render_from(&sim, id, &eye, &target, 0.9)
        .expect("renders");
    r.surface_mut().window_mut().set_shadows_enabled(false);
    let unshadowed = r
        .render_from(&sim, id, &eye, &target, 0.9)
        .expect("renders");
    let (a, b) = (mean_luminance(&shadowed), mean_luminance(&unshadowed));
    eprintln!(
        "dark deck lit by a ceiling light: mean luminance {a:.1} with shadows, {b:.1} without"
    );
    assert!(b - a > 2.0, "no shadow: {a:.1} vs {b:.1}");
}
