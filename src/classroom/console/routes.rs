//! The console's routes: each request checked (login, CSRF), answered from the instructor's
//! view and records, or passed to a seat as a command.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response};

use super::auth::{self, form_field, same_token, session_cookie, verify_password, CSRF_HEADER};
use super::{body_text, ConsoleState};
use crate::classroom::bundle::Bundle;
use crate::classroom::instructor::{InstructorError, SeatView};
use crate::classroom::protocol::{check_name, unix_now, Command, ProficiencyStandard};
use crate::classroom::records::RecordsError;
use crate::record::header::sha256_hex;

/// Events per seat sent to the page (the latest).
const EVENTS_SHOWN: usize = 20;

/// How often the live stream sends the class.
const STREAM_EVERY: Duration = Duration::from_millis(200);

/// The page.
const PAGE: &str = include_str!("page.html");

type Reply = Response<std::io::Cursor<Vec<u8>>>;

/// `reply` with the header `name: value` (ours, ASCII: it always parses; one that did not
/// would be left out, never a panic).
fn with(mut reply: Reply, name: &str, value: &str) -> Reply {
    if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        reply.add_header(h);
    }
    reply
}

/// Security headers on every answer: no sniffing, no framing, scripts only from the page.
fn secured(mut reply: Reply) -> Reply {
    for (name, value) in [
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
        ),
    ] {
        reply = with(reply, name, value);
    }
    reply
}

/// A plain-text answer.
pub fn text(status: u16, body: &str) -> Reply {
    secured(with(
        Response::from_string(body).with_status_code(status),
        "Content-Type",
        "text/plain; charset=utf-8",
    ))
}

fn json_reply(status: u16, value: &Value) -> Reply {
    secured(with(
        Response::from_string(value.to_string()).with_status_code(status),
        "Content-Type",
        "application/json",
    ))
}

fn error(status: u16, message: &str) -> Reply {
    json_reply(status, &json!({ "error": message }))
}

fn header_value<'r>(request: &'r Request, name: &'static str) -> Option<&'r str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// The login's CSRF token, if the request carries a current session cookie.
fn logged_in(request: &Request, state: &ConsoleState) -> Option<String> {
    let cookie = header_value(request, "Cookie")?;
    state.sessions.check(session_cookie(cookie)?)
}

/// Whether a state-changing request is the page's own: its CSRF header matches the login's,
/// and an `Origin`, if sent, is this host.
fn same_site(request: &Request, csrf: &str) -> bool {
    let token_ok = header_value(request, CSRF_HEADER).is_some_and(|t| same_token(t, csrf));
    let origin_ok = match (
        header_value(request, "Origin"),
        header_value(request, "Host"),
    ) {
        (Some(origin), Some(host)) => {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                == Some(host)
        }
        (Some(_), None) => false,
        (None, _) => true,
    };
    token_ok && origin_ok
}

/// Answers one request.
pub fn handle(mut request: Request, state: &ConsoleState, stop: &AtomicBool) {
    let url = request.url().to_owned();
    let path = url.split('?').next().unwrap_or("").to_owned();
    let method = request.method().clone();
    let reply = match (&method, path.as_str()) {
        (Method::Get, "/") => secured(with(
            Response::from_string(PAGE),
            "Content-Type",
            "text/html; charset=utf-8",
        )),
        (Method::Post, "/login") => login(&mut request, state),
        (Method::Get, "/api/session") => json_reply(
            200,
            &match logged_in(&request, state) {
                Some(csrf) => json!({"logged_in": true, "csrf": csrf, "class": state.class}),
                None => json!({"logged_in": false, "class": state.class}),
            },
        ),
        _ => {
            let Some(csrf) = logged_in(&request, state) else {
                let _ = request.respond(error(401, "log in first"));
                return;
            };
            if method == Method::Post && !same_site(&request, &csrf) {
                let _ = request.respond(error(403, "missing or wrong CSRF token"));
                return;
            }
            if method == Method::Get && path == "/api/stream" {
                stream(request, state, stop);
                return;
            }
            authorised(&mut request, &method, &path, state)
        }
    };
    let _ = request.respond(reply);
}

/// The routes behind the login.
fn authorised(request: &mut Request, method: &Method, path: &str, state: &ConsoleState) -> Reply {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        (Method::Post, ["logout"]) => {
            if let Some(token) = header_value(request, "Cookie").and_then(session_cookie) {
                state.sessions.close(token);
            }
            with(
                json_reply(200, &json!({"logged_out": true})),
                "Set-Cookie",
                &auth::logout_cookie(),
            )
        }
        (Method::Get, ["api", "class"]) => json_reply(200, &class_json(state)),
        (Method::Get, ["api", "exercises"]) => exercises(state),
        (Method::Post, ["api", "seat", seat, "command"]) => {
            let seat = (*seat).to_owned();
            command(request, &seat, state)
        }
        (Method::Get, ["api", "trainees"]) => trainees(state),
        (Method::Get, ["api", "thresholds"]) => thresholds(state),
        (Method::Post, ["api", "exercise", exercise, "threshold"]) => {
            let exercise = (*exercise).to_owned();
            set_threshold(request, &exercise, state)
        }
        (Method::Get, ["api", "trainee", id]) => trainee(id, state),
        (Method::Get, ["api", "attempt", id]) => attempt(id, state),
        (Method::Get, ["report", attempt, file]) => report_file(attempt, file, state),
        _ => error(404, "no such page"),
    }
}

/// `POST /login`: the password checked against its hash; a session and its cookie.
fn login(request: &mut Request, state: &ConsoleState) -> Reply {
    let password = body_text(request)
        .and_then(|body| form_field(&body, "password"))
        .unwrap_or_default();
    if !verify_password(&password, &state.password_hash) {
        // Slows guessing further (the hash is slow already).
        std::thread::sleep(Duration::from_millis(500));
        return error(401, "wrong password");
    }
    match state.sessions.open() {
        Ok((token, csrf)) => with(
            json_reply(200, &json!({"logged_in": true, "csrf": csrf})),
            "Set-Cookie",
            &auth::login_cookie(&token, state.tls),
        ),
        Err(e) => error(500, &e.to_string()),
    }
}

/// One seat for the page.
fn seat_json(name: &str, view: &SeatView) -> Value {
    let events: Vec<&Value> = view
        .events
        .iter()
        .skip(view.events.len().saturating_sub(EVENTS_SHOWN))
        .collect();
    json!({
        "name": name,
        "online": view.online,
        "rate_hz": view.status_rate(),
        "offline_for_s": view.offline_since.map(|t| t.elapsed().as_secs_f64()),
        "status": view.status,
        "events": events,
    })
}

/// The class now: seats, counters.
fn class_json(state: &ConsoleState) -> Value {
    let seats: Vec<Value> = state
        .instructor
        .seats()
        .iter()
        .map(|(name, view)| seat_json(name, view))
        .collect();
    let c = state.instructor.counters();
    json!({
        "class": state.class,
        "now_unix_s": unix_now(),
        "seats": seats,
        "counters": {"stored": c.stored, "duplicates": c.duplicates, "unfinished": c.unfinished,
                     "malformed": c.malformed, "store_errors": c.store_errors},
    })
}

/// `GET /api/stream`: the class as server-sent events until the page goes away.
fn stream(request: Request, state: &ConsoleState, stop: &AtomicBool) {
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let frame = format!("data: {}\n\n", class_json(state));
        if out
            .write_all(frame.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
        std::thread::sleep(STREAM_EVERY.saturating_sub(started.elapsed()));
    }
}

/// The exercise files in the instructor's folder: name and SHA-256.
fn exercise_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .filter_map(|p| Some((p.file_stem()?.to_str()?.to_owned(), p)))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn exercises(state: &ConsoleState) -> Reply {
    let list: Vec<Value> = exercise_files(&state.exercises)
        .into_iter()
        .map(|(name, path)| {
            let sha = std::fs::read(&path)
                .map(|b| sha256_hex(&b))
                .unwrap_or_default();
            json!({"name": name, "sha256": sha})
        })
        .collect();
    json_reply(200, &Value::Array(list))
}

/// `POST /api/seat/<seat>/command`: the command to the seat, its answer back. An assignment
/// carries the instructor's hash of the exercise, so a seat with another version refuses it.
fn command(request: &mut Request, seat: &str, state: &ConsoleState) -> Reply {
    if check_name("seat", seat).is_err() {
        return error(400, "bad seat name");
    }
    let Some(body) = body_text(request) else {
        return error(400, "the body is too long or not text");
    };
    let mut command: Command = match serde_json::from_str(&body) {
        Ok(c) => c,
        Err(e) => return error(400, &format!("not a command: {e}")),
    };
    // An assignment carries the instructor's copy of the exercise and its files, so a seat
    // that lacks them, or has another version, runs exactly this one.
    if let Command::Assign {
        exercise,
        sha256,
        bundle,
        ..
    } = &mut command
    {
        if check_name("exercise", exercise).is_err() {
            return error(400, "bad exercise name");
        }
        let file = state.exercises.join(format!("{exercise}.toml"));
        match Bundle::of(&file) {
            Ok(b) => {
                *sha256 = b.exercise_sha256().map(str::to_owned);
                *bundle = Some(b);
            }
            Err(e) => return error(404, &format!("exercise '{exercise}': {e}")),
        }
    }
    match state.instructor.command(seat, command) {
        Ok(answer) => json_reply(
            200,
            &json!({"accepted": answer.accepted, "reason": answer.reason}),
        ),
        Err(e @ InstructorError::UnknownSeat(_)) => error(404, &e.to_string()),
        Err(e @ InstructorError::Offline(_)) => error(409, &e.to_string()),
        Err(e @ InstructorError::NoAnswer(..)) => error(504, &e.to_string()),
        Err(e) => error(500, &e.to_string()),
    }
}

fn trainees(state: &ConsoleState) -> Reply {
    let listed = state.instructor.with_records(|r| {
        let ids = r.trainees()?;
        let mut out = Vec::new();
        for id in ids {
            let attempts = r.attempts(Some(&id))?;
            let standing = r.proficiency(&id)?;
            out.push(json!({
                "id": id,
                "attempts": attempts.len(),
                "passed": attempts.iter().filter(|a| a.status == "passed").count(),
                "last_unix_s": attempts.last().map(|a| a.started_unix_s),
                "qualified": standing.iter().filter(|p| p.qualified).map(|p| p.exercise.clone()).collect::<Vec<_>>(),
            }));
        }
        Ok::<_, crate::classroom::records::RecordsError>(out)
    });
    match listed {
        Ok(list) => json_reply(200, &Value::Array(list)),
        Err(e) => error(500, &e.to_string()),
    }
}

fn trainee(id: &str, state: &ConsoleState) -> Reply {
    let found = state.instructor.with_records(|r| {
        Ok::<_, crate::classroom::records::RecordsError>((
            r.attempts(Some(id))?,
            r.proficiency(id)?,
        ))
    });
    match found {
        Ok((attempts, _)) if attempts.is_empty() => error(404, "no attempts for this trainee"),
        Ok((attempts, proficiency)) => json_reply(
            200,
            &json!({"trainee": id, "attempts": attempts, "proficiency": proficiency}),
        ),
        Err(e) => error(500, &e.to_string()),
    }
}

/// `GET /api/thresholds`: every exercise's proficiency threshold.
fn thresholds(state: &ConsoleState) -> Reply {
    match state.instructor.with_records(|r| r.thresholds()) {
        Ok(rows) => json_reply(200, &json!({"thresholds": rows})),
        Err(e) => error(500, &e.to_string()),
    }
}

/// `POST /api/exercise/NAME/threshold`: `{"pass_rate": R, "reps_per_min": X, "window": N}` sets
/// the instructor's threshold; `{"file": true}` gives it back to the exercise file.
fn set_threshold(request: &mut Request, exercise: &str, state: &ConsoleState) -> Reply {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Asked {
        pass_rate: Option<f64>,
        reps_per_min: Option<f64>,
        window: Option<u32>,
        #[serde(default)]
        file: bool,
    }
    let Some(body) = body_text(request) else {
        return error(400, "the body is too long or not text");
    };
    let asked: Asked = match serde_json::from_str(&body) {
        Ok(a) => a,
        Err(e) => return error(400, &format!("not a threshold: {e}")),
    };
    let threshold = match (asked.file, asked.pass_rate) {
        (true, _) => None,
        (false, Some(pass_rate)) => Some(ProficiencyStandard {
            pass_rate,
            reps_per_min: asked.reps_per_min.unwrap_or(0.0),
            window: asked.window.unwrap_or(5),
        }),
        (false, None) => return error(400, "give pass_rate (and reps_per_min, window), or file"),
    };
    match state
        .instructor
        .with_records(|r| r.set_threshold(exercise, threshold, unix_now()))
    {
        Ok(()) => json_reply(200, &json!({"set": true})),
        Err(e @ RecordsError::Threshold { .. }) => error(400, &e.to_string()),
        Err(e) => error(500, &e.to_string()),
    }
}

fn attempt(id: &str, state: &ConsoleState) -> Reply {
    let found = state.instructor.with_records(|r| {
        let row = r.attempts(None)?.into_iter().find(|a| a.id == id);
        Ok::<_, crate::classroom::records::RecordsError>(row.map(|row| (row, r.attempt_result(id))))
    });
    match found {
        Ok(Some((row, result))) => {
            // A log on this machine, or one its seat can send.
            let has_report = row.log_path.is_some();
            json_reply(
                200,
                &json!({"attempt": row, "result": result.ok().flatten(), "report": has_report}),
            )
        }
        Ok(None) => error(404, "no such attempt"),
        Err(e) => error(500, &e.to_string()),
    }
}

/// The content type of a report file.
fn content_type(file: &str) -> &'static str {
    match Path::new(file).extension().and_then(|x| x.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// `GET /report/<attempt>/<file>`: the attempt's after-action report, made from its log on
/// first request (the log must be on this machine and have the hash the seat reported).
fn report_file(attempt: &str, file: &str, state: &ConsoleState) -> Reply {
    if check_name("attempt", attempt).is_err() || check_name("file", file).is_err() {
        return error(400, "bad name");
    }
    let dir = state.reports.join(attempt);
    if !dir.join("index.html").is_file() {
        if let Err(e) = make_report(attempt, &dir, state) {
            return error(404, &e);
        }
    }
    match std::fs::read(dir.join(file)) {
        Ok(bytes) => secured(with(
            Response::from_data(bytes),
            "Content-Type",
            content_type(file),
        )),
        Err(_) => error(404, "no such report file"),
    }
}

fn make_report(attempt: &str, dir: &Path, state: &ConsoleState) -> Result<(), String> {
    let row = state
        .instructor
        .with_records(|r| r.attempts(None))
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|a| a.id == attempt)
        .ok_or("no such attempt")?;
    let log = row.log_path.ok_or("the attempt has no log")?;
    let bytes =
        std::fs::read(&log).map_err(|e| format!("log {log} is not on this machine: {e}"))?;
    if row.log_sha256.as_deref() != Some(sha256_hex(&bytes).as_str()) {
        return Err(format!(
            "log {log} is not the one the seat reported (SHA-256 differs)"
        ));
    }
    let read = crate::record::Log::read(Path::new(&log)).map_err(|e| e.to_string())?;
    crate::record::report::write_report(vec![read], dir, |_| {}).map_err(|e| e.to_string())?;
    Ok(())
}
