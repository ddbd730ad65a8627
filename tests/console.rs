//! The instructor console over real HTTP: what an unauthenticated or cross-site request gets
//! (refused, nothing changed), and — in a real headless Chromium driven through WebDriver —
//! an instructor logging in, seeing four live seats, assigning and starting an exercise with
//! clicks, seeing its result arrive and opening the trainee's progress chart.
#![cfg(feature = "classroom")]

mod common;
use common::class::{free_port, manifest, signing, wait_for, Proc};

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use treadsim::classroom::console::auth::{hash_password, Sessions};
use treadsim::classroom::console::{Console, ConsoleState};
use treadsim::classroom::instructor::Instructor;
use treadsim::classroom::network::ClassNetwork;
use treadsim::classroom::records::Records;

const KEY: &str = "console-class-key-0123456789abcdef";
const PASSWORD: &str = "instructor password 1";

/// An instructor with its console on a free loopback port, and its class's port.
struct Class {
    console: Console,
    instructor: Arc<Instructor>,
    port: u16,
    name: String,
    _dir: tempfile::TempDir,
    dir: PathBuf,
}

fn class(name: &str) -> Class {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let port = free_port();
    let network = ClassNetwork {
        class: name.into(),
        listen: Some(vec![format!("tcp/127.0.0.1:{port}")]),
        connect: vec![],
        multicast: false,
        key: KEY.into(),
    };
    let records = Records::open(&path.join("records.sqlite")).unwrap();
    let instructor = Arc::new(Instructor::start(&network, records, signing()).unwrap());
    let console = Console::serve(
        "127.0.0.1:0",
        ConsoleState {
            instructor: Arc::clone(&instructor),
            sessions: Sessions::default(),
            password_hash: hash_password(PASSWORD).unwrap(),
            exercises: manifest("scenes/exercises"),
            reports: path.join("reports"),
            class: name.into(),
            tls: false,
        },
        None,
    )
    .unwrap();
    Class {
        console,
        instructor,
        port,
        name: name.into(),
        _dir: dir,
        dir: path,
    }
}

fn seat(class: &Class, name: &str, extra: &[&str]) -> Proc {
    let mut command = Command::new(env!("CARGO_BIN_EXE_treadsim"));
    command
        .current_dir(manifest(""))
        .env("TREADSIM_CLASS_KEY", KEY)
        .env("TREADSIM_INSTRUCTOR_KEY", signing().public().to_hex())
        .args(["seat", "--headless", "--seat", name, "--no-multicast"])
        .args(["--class", &class.name])
        .args(["--connect", &format!("tcp/127.0.0.1:{}", class.port)])
        .arg("--logs")
        .arg(class.dir.join("logs"))
        .arg("--outbox")
        .arg(class.dir.join("outbox").join(name))
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    Proc(command.spawn().unwrap())
}

/// One HTTP/1.1 request; returns the status, the headers (lower-case names) and the body.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += "\r\n";
    request += body;
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap_or("")
        .split(' ')
        .nth(1)
        .unwrap_or("0")
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

#[test]
fn requests_without_a_login_or_without_the_csrf_token_are_refused_and_change_nothing() {
    let class = class("console-http");
    let _s = seat(&class, "h1", &[]);
    assert!(wait_for(Duration::from_secs(30), || class
        .instructor
        .seats()
        .get("h1")
        .is_some_and(|v| v.online)));
    let addr = class.console.addr();
    let assign = r#"{"command":"assign","exercise":"curb_climb","sha256":null,"trainee":null}"#;
    let json = [("Content-Type", "application/json")];

    // No login: 401 on the API and on a command; the seat stays idle.
    for (method, path, body) in [
        ("GET", "/api/class", ""),
        ("GET", "/api/trainees", ""),
        ("POST", "/api/seat/h1/command", assign),
        ("GET", "/report/x/index.html", ""),
    ] {
        let (status, _, _) = http(addr, method, path, &json, body);
        assert_eq!(status, 401, "{method} {path}");
    }
    // A forged session cookie is no login either.
    let (status, _, _) = http(
        addr,
        "POST",
        "/api/seat/h1/command",
        &[("Cookie", "treadsim_session=forged")],
        assign,
    );
    assert_eq!(status, 401);
    // A wrong password: 401, no cookie.
    let (status, headers, _) = http(addr, "POST", "/login", &[], "password=wrong");
    assert_eq!(status, 401);
    assert!(!headers.iter().any(|(n, _)| n == "set-cookie"));

    // The right one: an HttpOnly, SameSite=Strict cookie and the CSRF token.
    let form = format!("password={}", PASSWORD.replace(' ', "+"));
    let (status, headers, body) = http(addr, "POST", "/login", &[], &form);
    assert_eq!(status, 200, "{body}");
    let cookie = headers
        .iter()
        .find(|(n, _)| n == "set-cookie")
        .unwrap()
        .1
        .clone();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let token = cookie.split(';').next().unwrap().to_owned();
    let csrf = serde_json::from_str::<serde_json::Value>(&body).unwrap()["csrf"]
        .as_str()
        .unwrap()
        .to_owned();

    // Logged in but without (or with a wrong) CSRF token, or from another site: 403.
    for extra in [
        vec![],
        vec![("X-Treadsim-Csrf", "0000")],
        vec![
            ("X-Treadsim-Csrf", csrf.as_str()),
            ("Origin", "http://evil.example"),
        ],
    ] {
        let mut h = vec![
            ("Cookie", token.as_str()),
            ("Content-Type", "application/json"),
        ];
        h.extend(extra);
        let (status, _, _) = http(addr, "POST", "/api/seat/h1/command", &h, assign);
        assert_eq!(status, 403);
    }
    std::thread::sleep(Duration::from_millis(500));
    let state = class.instructor.seats()["h1"]
        .status
        .as_ref()
        .map(|s| s.state);
    assert_eq!(
        state,
        Some(treadsim::classroom::protocol::SeatState::Idle),
        "nothing changed"
    );

    // The page's own request goes through; an unknown seat is a 404 with a reason.
    let h = [
        ("Cookie", token.as_str()),
        ("X-Treadsim-Csrf", csrf.as_str()),
        ("Content-Type", "application/json"),
    ];
    let (status, _, body) = http(addr, "POST", "/api/seat/h1/command", &h, assign);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"accepted\":true"), "{body}");
    let (status, _, body) = http(addr, "POST", "/api/seat/nobody/command", &h, assign);
    assert_eq!(status, 404, "{body}");
    let (status, _, body) = http(addr, "POST", "/api/seat/h1/command", &h, "{not json");
    assert_eq!(status, 400, "{body}");
    assert!(wait_for(Duration::from_secs(5), || {
        let (status, _, body) = http(addr, "GET", "/api/class", &[("Cookie", token.as_str())], "");
        status == 200 && body.contains("\"state\":\"ready\"")
    }));

    thresholds_need_the_login_and_refuse_bad_values(addr, &token, &csrf);
    class.instructor.close();
}

/// The console's threshold route: no login 401, no CSRF 403, out of range 400 with the reason,
/// then set, and listed as the instructor's.
fn thresholds_need_the_login_and_refuse_bad_values(addr: SocketAddr, token: &str, csrf: &str) {
    let json = [("Content-Type", "application/json")];
    let h = [
        ("Cookie", token),
        ("X-Treadsim-Csrf", csrf),
        ("Content-Type", "application/json"),
    ];
    let threshold = r#"{"pass_rate":0.6,"reps_per_min":1.5,"window":3}"#;
    let path = "/api/exercise/curb_climb/threshold";
    let (status, _, _) = http(addr, "POST", path, &json, threshold);
    assert_eq!(status, 401);
    let (status, _, _) = http(addr, "POST", path, &[("Cookie", token)], threshold);
    assert_eq!(status, 403);
    let (status, _, body) = http(addr, "POST", path, &h, r#"{"pass_rate":1.6}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("0 to 1"), "{body}");
    let (status, _, body) = http(addr, "POST", path, &h, threshold);
    assert_eq!(status, 200, "{body}");
    let (_, _, body) = http(addr, "GET", "/api/thresholds", &[("Cookie", token)], "");
    let listed: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        listed["thresholds"][0],
        serde_json::json!({"exercise": "curb_climb", "pass_rate": 0.6, "reps_per_min": 1.5,
            "window": 3, "by_instructor": true}),
        "{body}"
    );
}

/// The browser test's Python (a virtual environment with Selenium, made by `make test`).
fn browser_python() -> PathBuf {
    manifest("target/venv-browser/bin/python")
}

#[test]
#[ignore = "needs Chromium, chromium-driver and Selenium: `make test` installs them and runs it"]
fn an_instructor_assigns_and_follows_an_exercise_in_a_real_browser() {
    let python = browser_python();
    assert!(
        python.is_file() && Path::new("/usr/bin/chromedriver").is_file(),
        "run `make test`: it installs chromium, chromium-driver and Selenium ({})",
        python.display()
    );
    let class = class("console-browser");
    let script = manifest("scenes/exercises/scripts/dexterity_inspect_rack.pass.toml");
    let script = script.to_str().unwrap();
    let _seats: Vec<Proc> = (0..4)
        .map(|i| {
            seat(
                &class,
                &format!("b{i}"),
                &["--script", script, "--speed", "2"],
            )
        })
        .collect();
    assert!(wait_for(Duration::from_secs(30), || {
        let seats = class.instructor.seats();
        seats.len() == 4 && seats.values().all(|v| v.online)
    }));
    let shots = manifest("target/console-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let out = Command::new(python)
        .arg(manifest("tests/browser/console.py"))
        .args(["--url", &format!("http://{}/", class.console.addr())])
        .args(["--password", PASSWORD, "--seats", "4", "--seat", "b2"])
        .args([
            "--exercise",
            "dexterity_inspect_rack",
            "--trainee",
            "browser_trainee",
        ])
        .arg("--shots")
        .arg(&shots)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{said}");
    assert!(out.status.success(), "{said}");
    let rows = class
        .instructor
        .with_records(|r| r.attempts(Some("browser_trainee")).unwrap());
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, "passed", "{}", rows[0].reason);
    assert_eq!(rows[0].seat, "b2");
    // The threshold set with the page's form is the records'.
    let thresholds = class.instructor.with_records(|r| r.thresholds().unwrap());
    let set = thresholds
        .iter()
        .find(|t| t.exercise == "dexterity_inspect_rack")
        .unwrap();
    assert_eq!(
        (set.reps_per_min, set.by_instructor),
        (0.5, true),
        "{set:?}"
    );
    class.instructor.close();
}

#[test]
fn the_console_over_tls_is_reached_by_pythons_https_client_and_its_cookie_is_secure() {
    let dir = tempfile::tempdir().unwrap();
    let (http_port, class_port) = (free_port(), free_port());
    let password_file = dir.path().join("password");
    std::fs::write(&password_file, format!("{PASSWORD}\n")).unwrap();
    let tls = manifest("tests/data/console_tls");
    let _instructor = Proc(
        Command::new(env!("CARGO_BIN_EXE_treadsim"))
            .current_dir(dir.path())
            .env("TREADSIM_CLASS_KEY", KEY)
            .args(["instructor", "--class", "console-tls", "--no-multicast"])
            .args(["--every", "0", "--http", &format!("127.0.0.1:{http_port}")])
            .args(["--listen", &format!("tcp/127.0.0.1:{class_port}")])
            .arg("--tls-cert")
            .arg(tls.join("cert.pem"))
            .arg("--tls-key")
            .arg(tls.join("key.pem"))
            .arg("--password-file")
            .arg(&password_file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let addr: SocketAddr = format!("127.0.0.1:{http_port}").parse().unwrap();
    assert!(wait_for(Duration::from_secs(30), || {
        std::net::TcpStream::connect(addr).is_ok()
    }));
    let out = Command::new("python3")
        .arg(manifest("tests/browser/tls_client.py"))
        .arg(http_port.to_string())
        .arg(tls.join("cert.pem"))
        .arg(PASSWORD)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    assert!(seen["tls"].as_str().unwrap().starts_with("TLS"), "{seen}");
    assert_eq!(seen["page_status"], 200, "{seen}");
    assert_eq!(seen["page_has_login"], true, "{seen}");
    assert_eq!(seen["login_status"], 200, "{seen}");
    let cookie = seen["cookie"].as_str().unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    assert!(
        cookie.contains("; Secure"),
        "over TLS the cookie is Secure: {cookie}"
    );
    // Plain HTTP on the TLS port gets no page.
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(
        !String::from_utf8_lossy(&answer).contains("HTTP/1.1 200"),
        "plain HTTP served"
    );
}
