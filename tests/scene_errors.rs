//! Bad scene files get a clear error naming the file, line, column and field; never a panic.

mod common;
use common::assert_located_error;

use std::fs;
use std::path::{Path, PathBuf};

use treadsim::config::ConfigError;
use treadsim::scene::Scene;

const FLOOR: &str = r#"
[[element]]
type = "box"
size = [10, 10, 0.2]
position = [0, 0, -0.2]

[[spawn]]
name = "start"
position = [0, 0, 0]
"#;

struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Self {
        Case {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&p, bytes).unwrap();
        p
    }
    fn load(&self, text: &str) -> ConfigError {
        let p = self.write("scene.toml", text.as_bytes());
        Scene::load(&p).expect_err("the scene must be rejected")
    }
}

/// The error names the scene file, the 1-based line and the field, and says `what`.
fn assert_error(e: &ConfigError, file: &Path, line: usize, field: &str, what: &str) {
    assert_located_error(e, file, line, field, what);
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle in text")
        + 1
}

#[test]
fn malformed_toml_is_a_syntax_error_with_its_line() {
    let c = Case::new();
    let text = format!("{FLOOR}\n[[element]]\ntype = \"curb\nsize = [1, 1, 1]\n");
    let e = c.load(&text);
    assert_eq!(e.path, c.dir.path().join("scene.toml"));
    assert_eq!(e.line, line_of(&text, "type = \"curb"), "{e}");
    assert!(e.message.contains("TOML syntax"), "{e}");
}

#[test]
fn unknown_fields_are_rejected_where_they_are() {
    let c = Case::new();
    let text = format!("{FLOOR}\n[[element]]\ntype = \"stairs\"\nrise = 0.18\nrize = 0.2\nrun = 0.28\nwidth = 1\ncount = 3\n");
    let e = c.load(&text);
    let f = c.dir.path().join("scene.toml");
    assert_error(
        &e,
        &f,
        line_of(&text, "rize"),
        "element[1].rize",
        "unknown field",
    );
    assert!(e.message.contains("rise"), "lists the known fields: {e}");

    let text = format!("whatever = 3\n{FLOOR}");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "whatever"),
        "whatever",
        "unknown field",
    );
}

#[test]
fn zero_negative_nan_and_infinite_sizes_are_rejected() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    for (value, what) in [
        ("0", "greater than 0"),
        ("-0.5", "greater than 0"),
        ("nan", "finite"),
        ("inf", "finite"),
        ("\"tall\"", "expected a number"),
    ] {
        let text = format!("{FLOOR}\n[[element]]\ntype = \"curb\"\nwidth = 2\nheight = {value}\n");
        let e = c.load(&text);
        assert_error(
            &e,
            &f,
            line_of(&text, "height ="),
            "element[1].height",
            what,
        );
    }
    let text = format!("{FLOOR}\n[[element]]\ntype = \"box\"\nsize = [1, -1, 1]\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "size = [1, -1"),
        "element[1].size[1]",
        "greater than 0",
    );
    let text =
        format!("{FLOOR}\n[[element]]\ntype = \"box\"\nsize = [1, 1, 1]\nposition = [0, nan, 0]\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "nan"),
        "element[1].position[1]",
        "finite",
    );
}

#[test]
fn absurd_counts_are_rejected_before_building() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let text = format!("{FLOOR}\n[[element]]\ntype = \"stairs\"\nrise = 0.18\nrun = 0.28\nwidth = 1\ncount = 1000000000\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "count"),
        "element[1].count",
        "between 1 and 1000",
    );
    let text = format!("{FLOOR}\n[[element]]\ntype = \"rubble\"\nseed = 1\ncount = 99999999\narea = [5, 5]\nmin_size = 0.1\nmax_size = 0.2\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "count"),
        "element[1].count",
        "between 1 and 100000",
    );
    let text = format!(
        "{FLOOR}\n[[element]]\ntype = \"cylinder\"\nradius = 1\nheight = 1\nsegments = 100000\n"
    );
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "segments"),
        "element[1].segments",
        "between 3 and 1024",
    );
}

#[test]
fn mesh_files_missing_unreadable_or_outside_the_folder() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let mesh = |file: &str| format!("{FLOOR}\n[[element]]\ntype = \"mesh\"\nfile = \"{file}\"\n");

    let text = mesh("meshes/nothing.obj");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "file ="),
        "element[1].file",
        "nothing.obj",
    );

    // Escapes the scene folder through `..`, and by an absolute path.
    let outside = Case::new();
    outside.write("cube.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let rel = format!(
        "../{}/cube.obj",
        outside.dir.path().file_name().unwrap().to_string_lossy()
    );
    let text = mesh(&rel);
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "file ="),
        "element[1].file",
        "outside the scene's folder",
    );
    let abs = outside.dir.path().join("cube.obj");
    let text = mesh(&abs.to_string_lossy());
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "file ="),
        "element[1].file",
        "absolute",
    );

    // A folder where a file should be, and a file of garbage.
    fs::create_dir_all(c.dir.path().join("adir.obj")).unwrap();
    let text = mesh("adir.obj");
    let e = c.load(&text);
    assert_eq!(e.field, "element[1].file", "{e}");
    c.write("junk.stl", &[0xFFu8; 90]);
    let text = mesh("junk.stl");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "file ="),
        "element[1].file",
        "junk.stl",
    );
}

#[test]
fn meshes_with_degenerate_or_non_finite_triangles() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    c.write("flat.obj", b"v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n");
    let text = format!("{FLOOR}\n[[element]]\ntype = \"mesh\"\nfile = \"flat.obj\"\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "file ="),
        "element[1].file",
        "degenerate",
    );

    c.write("nan.obj", b"v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n");
    let text = format!("{FLOOR}\n[[element]]\ntype = \"mesh\"\nfile = \"nan.obj\"\n");
    let e = c.load(&text);
    assert_eq!(e.field, "element[1].file", "{e}");
    assert!(e.message.contains("nan.obj"), "{e}");

    // A good mesh with one degenerate triangle loads, and the drop is counted.
    c.write(
        "ok.obj",
        b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nf 1 2 3\nf 1 2 4\n",
    );
    let text = format!("{FLOOR}\n[[element]]\ntype = \"mesh\"\nfile = \"ok.obj\"\nscale = 2.0\n");
    let p = c.write("scene.toml", text.as_bytes());
    let s = Scene::load(&p).expect("loads");
    assert_eq!(s.elements[1].triangles.len(), 1);
    assert_eq!(s.dropped_triangles, 1);
}

#[test]
fn references_names_and_structure() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let text = format!("{FLOOR}\n[[element]]\ntype = \"pyramid\"\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "pyramid"),
        "element[1].type",
        "unknown element type",
    );

    let text = format!(
        "{FLOOR}\n[[element]]\ntype = \"curb\"\nwidth = 1\nheight = 0.1\nmaterial = \"lava\"\n"
    );
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "lava"),
        "element[1].material",
        "unknown material",
    );

    let text = format!("{FLOOR}\n[[spawn]]\nname = \"start\"\nposition = [1, 1, 0]\n");
    let e = c.load(&text);
    let line = line_of(&text, "position = [1, 1, 0]") - 1;
    assert_error(&e, &f, line, "spawn[1].name", "twice");

    let text = "[[element]]\ntype = \"box\"\nsize = [1, 1, 1]\n";
    let e = c.load(text);
    assert!(e.message.contains("no [[spawn]]"), "{e}");

    let e = c.load("");
    assert!(e.message.contains("no [[element]]"), "{e}");

    let text = format!("{FLOOR}\n[[element]]\ntype = \"ramp\"\nangle_deg = 20\nwidth = 1\n");
    let e = c.load(&text);
    assert!(e.message.contains("exactly one of `length`"), "{e}");
    assert_eq!(
        e.line,
        line_of(&text, "type = \"ramp\"") - 1,
        "at the [[element]] header: {e}"
    );

    let text = format!("{FLOOR}\n[[element]]\ntype = \"box\"\nsize = [1, 1, 1]\nyaw_deg = 10\nrotation_deg = [0, 0, 10]\n");
    let e = c.load(&text);
    assert!(e.message.contains("not both"), "{e}");

    let text = format!("{FLOOR}\n[[element]]\ntype = \"stairs\"\nrise = 0.18\nrun = 0.28\nwidth = 1\ncount = 3\nnosing_thickness = 0.3\n");
    let e = c.load(&text);
    assert_error(
        &e,
        &f,
        line_of(&text, "nosing_thickness"),
        "element[1].nosing_thickness",
        "less than `rise`",
    );
}

#[test]
fn unreadable_files() {
    let c = Case::new();
    let p = c.write("bad.toml", &[b'a', b' ', b'=', b' ', 0xC3, 0x28]);
    let e = Scene::load(&p).unwrap_err();
    assert!(e.message.contains("UTF-8"), "{e}");
    let e = Scene::load(&c.dir.path().join("absent.toml")).unwrap_err();
    assert!(e.message.contains("cannot read"), "{e}");
    assert!(e.to_string().contains("absent.toml"), "{e}");
}

/// `[bounds]`: both corners required, finite, within the extent limit, `max` beyond `min`,
/// the spawns inside, no unknown keys; each error at its line and field.
#[test]
fn bad_bounds_are_located() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    // (the [bounds] table, the text of the line the error is on, field, message)
    let cases: [(&str, &str, &str, &str); 9] = [
        ("min = [-5, -5]", "[bounds]", "bounds.max", "missing"),
        ("max = [5, 5]", "[bounds]", "bounds.min", "missing"),
        (
            "min = [-5, nan]\nmax = [5, 5]",
            "nan",
            "bounds.min[1]",
            "finite",
        ),
        (
            "min = [-5, -5]\nmax = [inf, 5]",
            "inf",
            "bounds.max[0]",
            "finite",
        ),
        (
            "min = [-5, -5]\nmax = [5, 5, 5]",
            "max = [5, 5, 5]",
            "bounds.max",
            "2",
        ),
        (
            "min = [-5, -5]\nmax = [-6, 5]",
            "max = [-6",
            "bounds.max",
            "greater than min",
        ),
        (
            "min = [-5, -5]\nmax = [5, -5]",
            "max = [5, -5]",
            "bounds.max",
            "greater than min",
        ),
        (
            "min = [-5, -5]\nmax = [5, 5]\nmargin = 1",
            "margin",
            "bounds.margin",
            "unknown field",
        ),
        (
            "min = [1, -5]\nmax = [5, 5]",
            "[bounds]",
            "bounds",
            "spawn 'start'",
        ),
    ];
    for (table, at, field, what) in cases {
        let text = format!("{FLOOR}\n[bounds]\n{table}\n");
        let e = c.load(&text);
        assert_error(&e, &f, line_of(&text, at), field, what);
    }
    let e = c.load(&format!("bounds = [1, 2]\n{FLOOR}"));
    assert!(e.message.contains("table"), "{e}");
    // A good table loads and replaces the terrain's extent.
    let p = c.write(
        "ok.toml",
        format!("{FLOOR}\n[bounds]\nmin = [-2, -3]\nmax = [4, 3.5]\n").as_bytes(),
    );
    let b = Scene::load(&p).expect("valid bounds").bounds;
    assert!(
        b.explicit && b.min == [-2.0, -3.0] && b.max == [4.0, 3.5],
        "{b:?}"
    );
    assert_eq!(b.lowest_z, -0.2);
}

/// `[[traffic]]` tables: every mistake is located at its line and field.
#[test]
fn bad_traffic_tables_are_located() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let good = "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]";
    for (body, needle, field, what) in [
        (
            "count = 0\narea_min = [-4, -4]\narea_max = [4, 4]",
            "count =",
            "traffic[0].count",
            "between",
        ),
        (
            "count = 10.5\narea_min = [-4, -4]\narea_max = [4, 4]",
            "count =",
            "traffic[0].count",
            "integer",
        ),
        (
            "area_min = [-4, -4]\narea_max = [4, 4]",
            "area_max =",
            "traffic[0].count",
            "missing",
        ),
        (
            "count = 10\narea_min = [4, -4]\narea_max = [-4, 4]",
            "area_max =",
            "traffic[0].area_max",
            "greater than area_min",
        ),
        (
            "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]\nspeed = [1.0, 0.5]",
            "speed =",
            "traffic[0].speed",
            "slowest ≤ fastest",
        ),
        (
            "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]\nspeed = [0.5, 9]",
            "speed =",
            "traffic[0].speed[1]",
            "between 0 and 5",
        ),
        (
            "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]\nsize = [0.5, 0, 1]",
            "size = [0.5",
            "traffic[0].size",
            "> 0",
        ),
        (
            "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]\nseed = -1",
            "seed =",
            "traffic[0].seed",
            "between",
        ),
        (
            "count = 500\narea_min = [-4, -4]\narea_max = [4, 4]",
            "count =",
            "traffic[0].count",
            "do not fit",
        ),
        (
            "count = 10\narea_min = [-4, -4]\narea_max = [4, 4]\nmass = 3",
            "mass =",
            "traffic[0].mass",
            "unknown",
        ),
    ] {
        let text = format!("{FLOOR}\n[[traffic]]\n{body}\n");
        let e = c.load(&text);
        let line = if what == "missing" {
            line_of(&text, "[[traffic]]")
        } else {
            line_of(&text, needle)
        };
        assert_error(&e, &f, line, field, what);
    }
    // Two groups of one name.
    let text = format!(
        "{FLOOR}\n[[traffic]]\nname = \"carts\"\n{good}\n[[traffic]]\nname = \"carts\"\n{good}\n"
    );
    let e = c.load(&text);
    let second = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("name = \"carts\""))
        .map(|(i, _)| i + 1)
        .last()
        .expect("second group");
    assert_error(&e, &f, second, "traffic[1].name", "defined twice");
}

/// A material's look: an unknown texture kind (the message lists the kinds), a tile size or
/// variation out of range, a see-through surface that is no grating, each located at its field.
#[test]
fn bad_material_looks_are_located() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let cases: [(&str, &str, &str); 5] = [
        (
            "texture = \"marble\"",
            "material[0].texture",
            "unknown texture 'marble' (one of grid, concrete",
        ),
        ("texture_scale = 0.0", "material[0].texture_scale", "0.01"),
        ("texture_scale = 1e6", "material[0].texture_scale", "100"),
        (
            "texture_variation = 1.5",
            "material[0].texture_variation",
            "1",
        ),
        (
            "see_through = true",
            "material[0].see_through",
            "only an open grating is see-through: set texture = \"grating\" (not 'grid')",
        ),
    ];
    for (line, field, what) in cases {
        let text = format!("[[material]]\nname = \"floor\"\n{line}\n{FLOOR}");
        let e = c.load(&text);
        assert_error(&e, &f, line_of(&text, line), field, what);
    }
    // A good look loads, with the kind's default tile.
    let text = format!(
        "[[material]]\nname = \"floor\"\ntexture = \"brick\"\ntexture_variation = 0.4\n{FLOOR}"
    );
    let path = c.write("good.toml", text.as_bytes());
    let scene = Scene::load(&path).expect("loads");
    let look = scene.terrain.materials()[0].look;
    assert_eq!(look.texture, treadsim::terrain::TextureKind::Brick);
    assert_eq!((look.scale, look.variation), (0.45, 0.4));
    assert!(!look.see_through);
    // An open grating is see-through when it says so.
    let text = format!(
        "[[material]]\nname = \"deck\"\ntexture = \"grating\"\nsee_through = true\n{FLOOR}"
    );
    let path = c.write("grating.toml", text.as_bytes());
    let scene = Scene::load(&path).expect("loads");
    assert!(scene.terrain.materials()[0].look.see_through);
}

/// `[[light]]` tables: an unknown kind, a spot's zero direction, a cone out of range, a spot's
/// field on a point light and a name used twice, each located at its field.
#[test]
fn bad_lights_are_located() {
    let c = Case::new();
    let f = c.dir.path().join("scene.toml");
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            "kind = \"laser\"",
            "kind = \"laser\"",
            "light[0].kind",
            "unknown light kind 'laser'",
        ),
        (
            "kind = \"spot\"\ndirection = [0, 0, 0]",
            "direction",
            "light[0].direction",
            "zero vector",
        ),
        (
            "kind = \"spot\"\ncone_deg = 200",
            "cone_deg",
            "light[0].cone_deg",
            "179",
        ),
        (
            "cone_deg = 60",
            "cone_deg",
            "light[0].cone_deg",
            "only a spot light",
        ),
        ("range = -1", "range", "light[0].range", "0.1"),
    ];
    for (fields, needle, field, what) in cases {
        let text = format!("{FLOOR}\n[[light]]\nposition = [0, 0, 3]\n{fields}\n");
        let e = c.load(&text);
        assert_error(&e, &f, line_of(&text, needle), field, what);
    }
    let text = format!(
        "{FLOOR}\n[[light]]\nname = \"lamp\"\nposition = [0, 0, 3]\n[[light]]\nname = \"lamp\"\nposition = [1, 0, 3]\n"
    );
    let e = c.load(&text);
    let second = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("name = \"lamp\""))
        .nth(1)
        .expect("two")
        .0
        + 1;
    assert_error(&e, &f, second, "light[1].name", "twice");
    // A good spot light: its direction normalised, half its cone.
    let text = format!(
        "{FLOOR}\n[[light]]\nkind = \"spot\"\nposition = [0, 0, 3]\ndirection = [0, 0, -2]\ncone_deg = 120\n"
    );
    let path = c.write("good.toml", text.as_bytes());
    let scene = Scene::load(&path).expect("loads");
    let light = &scene.lights[0];
    assert_eq!(light.name, "light#0");
    match light.kind {
        treadsim::scene::LightKind::Spot {
            direction,
            half_angle,
        } => {
            assert!((direction - nalgebra::Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-12);
            assert!((half_angle - 60f64.to_radians()).abs() < 1e-12);
        }
        treadsim::scene::LightKind::Point => panic!("a spot"),
    }
    assert_eq!((light.range, light.intensity), (8.0, 1.5));
}
