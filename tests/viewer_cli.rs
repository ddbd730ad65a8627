//! The viewer's command line: `treadsim station` without a display says so and exits with
//! status 3 (no panic); `treadsim shot` writes a PNG headless and refuses bad arguments.
#![cfg(feature = "viewer")]

use std::path::Path;
use std::process::Command;

fn treadsim() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_treadsim"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn station_without_a_display_says_so_and_points_to_the_headless_tools() {
    let out = treadsim()
        .arg("station")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("no display"), "{err}");
    assert!(
        err.contains("treadsim shot") && err.contains("treadsim run"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Regression: on a machine without a display or a runtime folder, a headless shot printed
/// libwayland's `error: XDG_RUNTIME_DIR is invalid or not set` twice and then succeeded.
#[test]
fn shot_without_a_display_or_runtime_folder_prints_no_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_png = dir.path().join("front.png");
    let out = treadsim()
        .args([
            "shot", "--width", "200", "--height", "120", "--at", "0.1", "--out",
        ])
        .arg(&out_png)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .env("TMPDIR", dir.path())
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("error"), "{err}");
    assert!(out_png.exists());
}

#[test]
fn station_checks_its_files_before_looking_for_a_display() {
    let out = treadsim()
        .args(["station", "--robot", "scenes/robots/nope.toml"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("nope.toml"), "{err}");
}

/// Runs `treadsim shot ARGS --script <script> --out <dir>/<png>` without a display, the
/// script written into `dir` first; returns the output and the picture's path.
fn shot_with_script(
    dir: &Path,
    script: &str,
    png: &str,
    args: &[&str],
) -> (std::process::Output, std::path::PathBuf) {
    let out_png = dir.join(png);
    let script_path = dir.join("drive.toml");
    std::fs::write(&script_path, script).expect("script written");
    let out = treadsim()
        .arg("shot")
        .args(args)
        .arg("--script")
        .arg(&script_path)
        .arg("--out")
        .arg(&out_png)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("treadsim runs");
    (out, out_png)
}

#[test]
fn shot_writes_a_png_without_a_display() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (out, out_png) = shot_with_script(
        dir.path(),
        "[[command]]\nat = 0.0\nleft = 0.4\nright = 0.4\nflipper_deg = -20\n",
        "mast.png",
        &[
            "--camera", "mast", "--width", "200", "--height", "120", "--at", "1.5",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("'mast' at t = 1.50 s"), "{text}");
    let img = image::open(&out_png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (200, 120));
}

/// `shot --script` takes goals for the autopilot as `run` does: the robot has driven towards
/// the point when the picture is taken.
#[test]
fn shot_follows_a_goal_script() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (out, _) = shot_with_script(
        dir.path(),
        "[[goal]]\ntype = \"point\"\nat = [2.0, 0.0]\nspeed = 0.5\n",
        "front.png",
        &[
            "--scene",
            "scenes/flat.toml",
            "--width",
            "160",
            "--height",
            "90",
            "--at",
            "3",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let x: f64 = text
        .split("robot at x ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(x > 0.8, "the robot drove to x {x} m: {text}");
}

#[test]
fn shot_refuses_unknown_cameras_and_bad_sizes() {
    let out = treadsim()
        .args(["shot", "--camera", "belly", "--out"])
        .arg(Path::new("/nonexistent/x.png"))
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no camera 'belly'") && err.contains("chase"),
        "{err}"
    );
    let out = treadsim()
        .args(["shot", "--width", "5", "--out", "x.png"])
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("16..="), "{err}");
}

/// `--render-path fast` draws the picture a station on a software renderer shows; an unknown
/// path is refused, naming the ones there are.
#[test]
fn shot_draws_by_the_render_path_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_png = dir.path().join("fast.png");
    let out = treadsim()
        .args([
            "shot",
            "--camera",
            "chase",
            "--width",
            "160",
            "--height",
            "90",
            "--render-path",
            "fast",
            "--out",
        ])
        .arg(&out_png)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("treadsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&out_png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (160, 90));
    let out = treadsim()
        .args(["shot", "--render-path", "shiny", "--out", "x.png"])
        .output()
        .expect("treadsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("'shiny'") && err.contains("full or fast"),
        "{err}"
    );
}

/// The station's window shows the panel over the main view's picture, and the picture is the
/// scene, not the window's own background: the window draws no HDR film of its own
/// (`Window::set_film_enabled(false)`, the patch in vendor/kiss3d), so what egui puts on the
/// cleared output is all there is. On a virtual display with Mesa's software renderer.
#[test]
fn the_station_window_shows_its_views_under_the_panel() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("station.png");
    let out = Command::new("xvfb-run")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_treadsim"))
        .args([
            "station",
            "--exercise",
            "public_stairs_up",
            "--script",
            "scenes/exercises/scripts/public_stairs_up.pass.toml",
            "--width",
            "640",
            "--height",
            "360",
            "--quit-after",
            "4",
        ])
        .arg("--logs")
        .arg(dir.path().join("logs"))
        .arg("--screenshot")
        .arg(&png)
        .output()
        .expect("xvfb-run (make test installs xvfb)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let img = image::open(&png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (640, 360));
    // The ground ahead in the middle of the main view: many colours (stairs, shading), none
    // of them the uniform clear of an empty frame.
    let mut colours = std::collections::HashSet::new();
    for y in 200..260 {
        for x in 220..420 {
            colours.insert(img.get_pixel(x, y).0);
        }
    }
    assert!(
        colours.len() > 50,
        "{} colours in the middle of the view: the picture is missing ({err})",
        colours.len()
    );
    // The panel's top-left box (trainee, camera, clock) is drawn over it: light text on a
    // dark box, so both dark and light pixels there.
    let corner: Vec<f64> = (10..40)
        .flat_map(|y| (10..120).map(move |x| (x, y)))
        .map(|(x, y)| {
            let p = img.get_pixel(x, y).0;
            (f64::from(p[0]) + f64::from(p[1]) + f64::from(p[2])) / 3.0
        })
        .collect();
    let dark = corner.iter().filter(|&&l| l < 60.0).count();
    let light = corner.iter().filter(|&&l| l > 150.0).count();
    assert!(
        dark > 100 && light > 20,
        "panel box: {dark} dark, {light} light pixels"
    );
}
