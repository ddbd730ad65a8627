//! Bad exercise files get a clear error naming the file, line and field; never a panic.
//! Table-driven: each case is an exercise text, the line the error must point at (found by a
//! marker in the text), the field path and a fragment of the message.

mod common;
use common::assert_located_error;

use std::fs;
use std::path::{Path, PathBuf};

use treadsim::config::ConfigError;
use treadsim::exercise::Exercise;

/// A valid exercise on the flat scene; cases replace parts of it.
fn valid() -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    format!(
        "[exercise]\nname = \"Flat\"\nscene = \"{root}/scenes/flat.toml\"\n\
         robot = \"{root}/scenes/robots/scout.toml\"\ntime_limit = 60\n\n\
         [[goal]]\nname = \"ahead\"\nposition = [3.0, 0.0, 0.1]\nradius = 0.5\n"
    )
}

/// Writes `text` as an exercise file and loads it, expecting an error.
fn load_error(text: &str) -> (ConfigError, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("exercise.toml");
    fs::write(&path, text).expect("write");
    let e = Exercise::load(&path).expect_err("the exercise must be rejected");
    (e, path, dir)
}

/// 1-based line of the first line containing `marker`.
fn line_of(text: &str, marker: &str) -> usize {
    text.lines()
        .position(|l| l.contains(marker))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("marker {marker:?} not in text"))
}

/// One malformed file: the text, the marker of the line the error points at, the field and a
/// fragment of the message.
struct Case {
    name: &'static str,
    text: String,
    marker: &'static str,
    field: &'static str,
    message: &'static str,
}

fn case(
    name: &'static str,
    text: String,
    marker: &'static str,
    field: &'static str,
    message: &'static str,
) -> Case {
    Case {
        name,
        text,
        marker,
        field,
        message,
    }
}

fn with(extra: &str) -> String {
    format!("{}{extra}", valid())
}

fn replaced(from: &str, to: &str) -> String {
    let v = valid();
    assert!(v.contains(from), "{from}");
    v.replace(from, to)
}

#[test]
// A table of bad files, one case a row: its length is the number of cases.
#[allow(clippy::too_many_lines)]
fn malformed_exercise_files_get_located_errors() {
    let goal = "[[goal]]\nname = \"ahead\"\nposition = [3.0, 0.0, 0.1]\nradius = 0.5\n";
    let cases = vec![
        case(
            "syntax",
            with("[[goal]]\nname = \"unterminated\n"),
            "unterminated",
            "",
            "TOML syntax",
        ),
        case(
            "no exercise table",
            "[[goal]]\nname = \"g\"\nposition = [1, 0, 0]\nradius = 1\n".into(),
            "[[goal]]",
            "exercise",
            "missing required table [exercise]",
        ),
        case(
            "empty name",
            replaced("name = \"Flat\"", "name = \"  \""),
            "name = \"  \"",
            "exercise.name",
            "must not be empty",
        ),
        case(
            "name not a string",
            replaced("name = \"Flat\"", "name = 7"),
            "name = 7",
            "exercise.name",
            "string",
        ),
        case(
            "negative time limit",
            replaced("time_limit = 60", "time_limit = -5"),
            "time_limit = -5",
            "exercise.time_limit",
            "greater than 0",
        ),
        case(
            "NaN time limit",
            replaced("time_limit = 60", "time_limit = nan"),
            "time_limit = nan",
            "exercise.time_limit",
            "",
        ),
        case(
            "zero repetitions",
            replaced("time_limit = 60", "time_limit = 60\nrepetitions = 0"),
            "repetitions = 0",
            "exercise.repetitions",
            "",
        ),
        case(
            "pass mark over 100",
            replaced("time_limit = 60", "time_limit = 60\npass_mark = 150"),
            "pass_mark = 150",
            "exercise.pass_mark",
            "",
        ),
        case(
            "unknown field",
            replaced("time_limit = 60", "time_limit = 60\ntime_limt = 5"),
            "time_limt = 5",
            "exercise.time_limt",
            "unknown",
        ),
        case(
            "goal of no kind",
            with("[[goal]] # empty\nname = \"nothing\"\n"),
            "# empty",
            "goal[1]",
            "needs one of",
        ),
        case(
            "goal of two kinds",
            with("[[goal]]\ncheckpoint = \"x\"\nposition = [1, 0, 0]\nradius = 1\n"),
            "position = [1, 0, 0]",
            "goal[1].position",
            "only one of",
        ),
        case(
            "zone without radius",
            with("[[goal]] # zone\nposition = [1, 0, 0]\n"),
            "# zone",
            "goal[1].radius",
            "missing",
        ),
        case(
            "gate posts together",
            with("[[goal]]\ngate = [1, 0, 1, 0.05]\n"),
            "gate = [1, 0, 1, 0.05]",
            "goal[1].gate",
            "0.1 m apart",
        ),
        case(
            "gate of three numbers",
            with("[[goal]]\ngate = [1, 0, 1]\n"),
            "gate = [1, 0, 1]",
            "goal[1].gate",
            "4 numbers",
        ),
        case(
            "observation angle too wide",
            with("[[goal]]\nobserve = [1, 0, 0.2]\nrange = 2\nangle_deg = 120\n"),
            "angle_deg = 120",
            "goal[1].angle_deg",
            "",
        ),
        case(
            "forbidden zone inside out",
            with("[[rules.forbidden]]\nmin = [2, 2]\nmax = [1, 3]\n"),
            "max = [1, 3]",
            "rules.forbidden[0].max",
            "greater than min",
        ),
        case(
            "negative penalty",
            with("[penalties]\ntip_over = -3\n"),
            "tip_over = -3",
            "penalties.tip_over",
            "",
        ),
        case(
            "unknown penalty",
            with("[penalties]\ntipover = 3\n"),
            "tipover = 3",
            "penalties.tipover",
            "unknown",
        ),
        case(
            "pass rate over 1",
            with("[proficiency]\npass_rate = 80\n"),
            "pass_rate = 80",
            "proficiency.pass_rate",
            "",
        ),
        case(
            "zero window",
            with("[proficiency]\nwindow = 0\n"),
            "window = 0",
            "proficiency.window",
            "",
        ),
        case(
            "unknown proficiency key",
            with("[proficiency]\nreps = 2\n"),
            "reps = 2",
            "proficiency.reps",
            "unknown",
        ),
        case(
            "zero tilt limit",
            with("[rules]\nmax_tilt_deg = 0\n"),
            "max_tilt_deg = 0",
            "rules.max_tilt_deg",
            "greater than 0",
        ),
        case(
            "nothing to do",
            replaced(goal, ""),
            "[exercise]",
            "",
            "nothing to do",
        ),
        case(
            "spawn not in the scene",
            replaced("time_limit = 60", "time_limit = 60\nspawn = \"nowhere\""),
            "spawn = \"nowhere\"",
            "exercise.spawn",
            "no spawn 'nowhere'",
        ),
        case(
            "checkpoint not in the scene",
            with("[[goal]]\ncheckpoint = \"summit\"\n"),
            "checkpoint = \"summit\"",
            "goal[1].checkpoint",
            "no checkpoint 'summit'",
        ),
        case(
            "goal outside the scene",
            with("[[goal]]\nposition = [40, 0, 0]\nradius = 1\n"),
            "position = [40, 0, 0]",
            "goal[1].position",
            "outside the scene's bounds",
        ),
        case(
            "valve not in the scene",
            with("[[goal]]\nvalve = \"feed\"\nopen = 0\n"),
            "valve = \"feed\"",
            "goal[1].valve",
            "has no valve 'feed' (it has: none)",
        ),
        case(
            "valve goal without an opening",
            with("[[goal]] # the feed valve\nvalve = \"feed\"\n"),
            "# the feed valve",
            "goal[1].open",
            "missing",
        ),
        case(
            "valve goal with a negative opening",
            with("[[goal]]\nvalve = \"feed\"\nopen = -1\n"),
            "open = -1",
            "goal[1].open",
            "",
        ),
    ];
    assert!(cases.len() >= 15);
    for c in &cases {
        let (e, path, _dir) = load_error(&c.text);
        let line = line_of(&c.text, c.marker);
        let shown = e.to_string();
        assert!(
            e.path == path && e.line == line && e.field == c.field && e.message.contains(c.message),
            "case '{}': got {shown}\n(expected line {line}, field '{}', '{}')",
            c.name,
            c.field,
            c.message
        );
        assert_located_error(&e, &path, line, c.field, c.message);
    }
}

/// A scene or robot file that cannot be read is reported at the exercise's line that names
/// it (regression: it was `no_such_robot.toml:1:1: cannot read`, a fake position in a file
/// that does not exist, away from the line to fix); an error inside a file that was read
/// points into that file.
#[test]
fn errors_in_the_files_an_exercise_names_point_at_those_files() {
    for (role, from, to) in [
        ("scene", "scenes/flat.toml", "scenes/no_such_scene.toml"),
        (
            "robot",
            "scenes/robots/scout.toml",
            "scenes/robots/no_such_robot.toml",
        ),
    ] {
        let text = replaced(from, to);
        let (e, path, _dir) = load_error(&text);
        assert_eq!(e.path, path, "{e}");
        assert_eq!(e.line, line_of(&text, &format!("{role} =")), "{e}");
        assert_eq!(e.field, format!("exercise.{role}"), "{e}");
        assert!(
            e.message.contains(to) && e.message.contains("no such file"),
            "{e}"
        );
        assert!(!e.to_string().contains(":1:1"), "{e}");
    }

    let dir = tempfile::tempdir().expect("temp dir");
    let robot = dir.path().join("robot.toml");
    fs::write(&robot, "[robot]\nname = \"r\"\nmass = -1\n").expect("write");
    let text = valid().replace(
        &format!("{}/scenes/robots/scout.toml", env!("CARGO_MANIFEST_DIR")),
        "robot.toml",
    );
    let path = dir.path().join("exercise.toml");
    fs::write(&path, &text).expect("write");
    let e = Exercise::load(&path).expect_err("bad robot");
    assert_eq!(e.path, robot, "{e}");
    assert_eq!(e.line, 3, "{e}");
}

/// Every shipped exercise is valid.
#[test]
fn every_shipped_exercise_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/exercises");
    let mut n = 0;
    for entry in fs::read_dir(&dir).expect("scenes/exercises") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            Exercise::load(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 1);
}
