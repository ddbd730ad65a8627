//! The exercise README's complete example works as written: its files, taken from the README
//! into an empty folder with a copy of the robot, check clean and the passing script passes.

use std::path::Path;
use std::process::Command;

/// The README's example files: each code block after a `<!-- file: NAME -->` line.
fn example_files(readme: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut rest = readme;
    while let Some(at) = rest.find("<!-- file: ") {
        let after = &rest[at + "<!-- file: ".len()..];
        let name = after
            .split(" -->")
            .next()
            .expect("a name")
            .trim()
            .to_string();
        let block = after
            .split_once("```toml\n")
            .expect("a toml block after the marker")
            .1;
        let (text, tail) = block.split_once("```").expect("the block ends");
        files.push((name, text.to_string()));
        rest = tail;
    }
    files
}

#[test]
fn the_exercise_readme_example_passes_from_an_empty_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("scenes/exercises/README.md")).expect("README");
    let files = example_files(&readme);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["pad.toml", "first_lap.toml", "first_lap.pass.toml"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let course = dir.path().join("my_course");
    std::fs::create_dir(&course).expect("my_course/");
    std::fs::copy(
        root.join("scenes/robots/scout.toml"),
        course.join("scout.toml"),
    )
    .expect("cp");
    for (name, text) in &files {
        std::fs::write(course.join(name), text).expect("write");
    }
    let treadsim = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_treadsim"))
            .current_dir(dir.path())
            .args(args)
            .output()
            .expect("treadsim runs")
    };
    let check = treadsim(&["check", "my_course/first_lap.toml"]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let run = treadsim(&[
        "run",
        "--exercise",
        "my_course/first_lap.toml",
        "--script",
        "my_course/first_lap.pass.toml",
    ]);
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        out.contains("result           PASS: 1 of 1 repetitions, score 100 (pass mark 70)"),
        "{out}"
    );
    // The README's words about the result are the program's.
    assert!(readme.contains("`result PASS: 1 of 1 repetitions, score 100 (pass mark\n70)`"));
}
