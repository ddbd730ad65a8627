//! The instructor on the class network: every seat's status and events as they arrive, which
//! seats are online (their liveliness tokens), each attempt's report stored once in the
//! records and acknowledged, and commands to a seat answered by it. Zenoh's callbacks update
//! the shared view from its own threads; the console and the command line read it and send
//! commands from theirs.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;
use zenoh::query::Query;
use zenoh::sample::{Sample, SampleKind};
use zenoh::Wait;

use super::authority::InstructorKey;
use super::network::{ClassNetwork, NetworkError};
use super::protocol::{
    decode, encode, unix_now, AttemptReport, AttemptStatus, Command, CommandReply, CommandRequest,
    Keys, ResultAck, SeatEvent, SeatState, SeatStatus, PROTOCOL_VERSION,
};
use super::records::{Records, RecordsError};
use crate::record::header::sha256_hex;

/// How long the instructor waits for a seat to answer a command.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(3);

/// Events kept per seat for its detail view (the latest).
pub const EVENTS_KEPT: usize = 200;

/// Latency samples kept per seat (the latest).
const LATENCIES_KEPT: usize = 4096;

/// Why an instructor could not start or a command could not be sent.
#[derive(Debug, thiserror::Error)]
pub enum InstructorError {
    /// The network could not be joined.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// The records could not be opened or written.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// Zenoh refused a declaration or a query.
    #[error("class network: {0}")]
    Zenoh(String),
    /// No seat of that name has been seen in the class.
    #[error("no seat named '{0}' in the class")]
    UnknownSeat(String),
    /// The seat is offline.
    #[error("seat '{0}' is offline")]
    Offline(String),
    /// The seat did not answer in time.
    #[error("seat '{0}' did not answer within {1:?}")]
    NoAnswer(String, Duration),
    /// The seat's answer could not be read.
    #[error("seat '{seat}': {detail}")]
    BadAnswer {
        /// The seat.
        seat: String,
        /// What was wrong.
        detail: String,
    },
}

/// One seat as the instructor sees it.
#[derive(Debug, Clone)]
pub struct SeatView {
    /// Its latest status (`None` before the first).
    pub status: Option<SeatStatus>,
    /// Whether its liveliness token is present.
    pub online: bool,
    /// When its last status arrived.
    pub last_heard: Option<Instant>,
    /// When it went offline, if it is.
    pub offline_since: Option<Instant>,
    /// Statuses received.
    pub statuses: u64,
    /// When the first status arrived.
    pub first_heard: Option<Instant>,
    /// Its latest exercise events (JSON as the score file writes them), oldest first.
    pub events: VecDeque<Value>,
    /// End-to-end latencies of its latest statuses, s (sent → received, wall clocks).
    pub latencies: VecDeque<f64>,
}

impl SeatView {
    fn new() -> Self {
        Self {
            status: None,
            online: false,
            last_heard: None,
            offline_since: None,
            statuses: 0,
            first_heard: None,
            events: VecDeque::new(),
            latencies: VecDeque::new(),
        }
    }

    /// Statuses per second since the first arrived.
    pub fn status_rate(&self) -> f64 {
        match (self.first_heard, self.last_heard) {
            (Some(first), Some(last)) if self.statuses > 1 => {
                (self.statuses - 1) as f64 / last.duration_since(first).as_secs_f64().max(1e-9)
            }
            _ => 0.0,
        }
    }
}

/// What the instructor has counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstructorCounters {
    /// Messages refused (malformed, another protocol version, a seat name that does not match
    /// its key).
    pub malformed: u64,
    /// Attempts stored.
    pub stored: u64,
    /// Reports that were already stored (a repeated delivery).
    pub duplicates: u64,
    /// Attempts marked unfinished because their seat went offline.
    pub unfinished: u64,
    /// Storing a report failed (the records refused it; the seat sends it again).
    pub store_errors: u64,
}

/// The state the network callbacks and the console share.
struct Shared {
    keys: Keys,
    signing: InstructorKey,
    seats: Mutex<BTreeMap<String, SeatView>>,
    records: Mutex<Records>,
    counters: Mutex<InstructorCounters>,
}

/// Locks a mutex, taking the data even if a thread panicked holding it (the view is plain
/// data; a half-updated seat view is still better than a dead console).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The instructor: joined to the class, its records open. Dropping it leaves the class.
pub struct Instructor {
    shared: Arc<Shared>,
    session: zenoh::Session,
    next_id: Mutex<u64>,
    last_issued_ms: Mutex<u64>,
    _token: zenoh::liveliness::LivelinessToken,
    _subscribers: Vec<zenoh::pubsub::Subscriber<()>>,
    _results: zenoh::query::Queryable<()>,
}

impl Instructor {
    /// Joins the class on `network` with `records` (opened by the caller), signing its
    /// commands and acknowledgements with `signing`.
    pub fn start(
        network: &ClassNetwork,
        records: Records,
        signing: InstructorKey,
    ) -> Result<Self, InstructorError> {
        let keys = network.keys()?;
        network.check_listeners_free()?;
        let session = network.open()?;
        let zerr = |e: zenoh::Error| InstructorError::Zenoh(e.to_string());
        let shared = Arc::new(Shared {
            keys: keys.clone(),
            signing,
            seats: Mutex::new(BTreeMap::new()),
            records: Mutex::new(records),
            counters: Mutex::new(InstructorCounters::default()),
        });
        let on_result = Arc::clone(&shared);
        let results = session
            .declare_queryable(keys.results())
            .callback(move |query| store_report(&on_result, &query))
            .wait()
            .map_err(zerr)?;
        let on_status = Arc::clone(&shared);
        let statuses = session
            .declare_subscriber(keys.every_seat("status"))
            .callback(move |sample| take_status(&on_status, &sample))
            .wait()
            .map_err(zerr)?;
        let on_event = Arc::clone(&shared);
        let events = session
            .declare_subscriber(keys.every_seat("event"))
            .callback(move |sample| take_event(&on_event, &sample))
            .wait()
            .map_err(zerr)?;
        let on_alive = Arc::clone(&shared);
        let alive = session
            .liveliness()
            .declare_subscriber(keys.every_seat("alive"))
            .history(true)
            .callback(move |sample| take_liveliness(&on_alive, &sample))
            .wait()
            .map_err(zerr)?;
        let token = session
            .liveliness()
            .declare_token(keys.instructor_alive())
            .wait()
            .map_err(zerr)?;
        Ok(Self {
            shared,
            session,
            next_id: Mutex::new(1),
            last_issued_ms: Mutex::new(0),
            _token: token,
            _subscribers: vec![statuses, events, alive],
            _results: results,
        })
    }

    /// The seats seen, by name.
    pub fn seats(&self) -> BTreeMap<String, SeatView> {
        lock(&self.shared.seats).clone()
    }

    /// What the instructor has counted.
    pub fn counters(&self) -> InstructorCounters {
        lock(&self.shared.counters).clone()
    }

    /// Runs `f` with the records (for the console's and the command line's reads).
    pub fn with_records<T>(&self, f: impl FnOnce(&mut Records) -> T) -> T {
        f(&mut lock(&self.shared.records))
    }

    /// Sends `command` to seat `seat` and waits for its answer (up to [`COMMAND_TIMEOUT`]);
    /// the command and the answer go into the records' instructor actions.
    pub fn command(&self, seat: &str, command: Command) -> Result<CommandReply, InstructorError> {
        match lock(&self.shared.seats).get(seat) {
            None => return Err(InstructorError::UnknownSeat(seat.to_owned())),
            Some(view) if !view.online => return Err(InstructorError::Offline(seat.to_owned())),
            Some(_) => {}
        }
        let id = {
            let mut next = lock(&self.next_id);
            *next += 1;
            *next
        };
        let mut request = CommandRequest {
            protocol: PROTOCOL_VERSION,
            id,
            seat: seat.to_owned(),
            issued_unix_ms: self.issue_time(),
            command,
            signature: String::new(),
        };
        request.signature = self.shared.signing.sign(&request);
        let replies = self
            .session
            .get(self.shared.keys.command(seat))
            .payload(encode(&request))
            .timeout(COMMAND_TIMEOUT)
            .wait()
            .map_err(|e| InstructorError::Zenoh(e.to_string()))?;
        let reply = replies
            .recv_timeout(COMMAND_TIMEOUT)
            .ok()
            .flatten()
            .ok_or_else(|| InstructorError::NoAnswer(seat.to_owned(), COMMAND_TIMEOUT))?;
        let bad = |detail: String| InstructorError::BadAnswer {
            seat: seat.to_owned(),
            detail,
        };
        let sample = reply
            .result()
            .map_err(|e| bad(format!("error reply: {e:?}")))?;
        let answer: CommandReply = decode("command reply", &sample.payload().to_bytes())
            .map_err(|e| bad(e.to_string()))?;
        let text = serde_json::to_string(&request.command).unwrap_or_default();
        lock(&self.shared.records).log_action(
            seat,
            &text,
            answer.accepted,
            &answer.reason,
            unix_now(),
        )?;
        Ok(answer)
    }

    /// The instructor's copy of attempt `attempt`'s log: the one it has, or the log fetched
    /// from its seat now ([`Command::SendLog`]), checked against the SHA-256 the seat reported
    /// and kept in `logs/` beside the records.
    pub fn fetch_log(&self, attempt: &str) -> Result<std::path::PathBuf, InstructorError> {
        let bad = |seat: &str, detail: String| InstructorError::BadAnswer {
            seat: seat.to_owned(),
            detail,
        };
        let (row, local, dir) = self.with_records(|r| {
            let row = r.attempts(None)?.into_iter().find(|a| a.id == attempt);
            let local = r.local_log(attempt)?;
            let dir = r
                .path()
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join("logs");
            Ok::<_, RecordsError>((row, local, dir))
        })?;
        let row = row.ok_or_else(|| bad("-", format!("no attempt {attempt}")))?;
        if let Some(path) = local.map(std::path::PathBuf::from).filter(|p| p.is_file()) {
            return Ok(path);
        }
        let command = Command::SendLog {
            attempt: attempt.to_owned(),
        };
        let reply = self.command(&row.seat, command)?;
        if !reply.accepted {
            return Err(bad(&row.seat, reply.reason));
        }
        let bytes = reply
            .log_base64
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .ok_or_else(|| bad(&row.seat, "the reply holds no log".into()))?;
        if row.log_sha256.as_deref() != Some(sha256_hex(&bytes).as_str()) {
            return Err(bad(
                &row.seat,
                "the log is not the one reported (SHA-256 differs)".into(),
            ));
        }
        let io = |e: std::io::Error| bad(&row.seat, format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(io)?;
        let path = dir.join(format!("{attempt}.mcap"));
        std::fs::write(&path, &bytes).map_err(io)?;
        let text = path.display().to_string();
        self.with_records(|r| r.set_local_log(attempt, &text))?;
        Ok(path)
    }

    /// The issue time of a new command, ms since the Unix epoch: now, or one more than the last
    /// (commands issued within one millisecond stay ordered).
    fn issue_time(&self) -> u64 {
        let mut last = lock(&self.last_issued_ms);
        *last = ((unix_now() * 1000.0) as u64).max(*last + 1);
        *last
    }

    /// Leaves the class.
    pub fn close(&self) {
        let _ = self.session.close().wait();
    }
}

/// The seat a sample's key names, or the refusal counted.
fn seat_of(shared: &Shared, key: &str) -> Option<String> {
    let seat = shared.keys.seat_of(key).map(str::to_owned);
    if seat.is_none() {
        lock(&shared.counters).malformed += 1;
    }
    seat
}

fn take_status(shared: &Shared, sample: &Sample) {
    let Some(seat) = seat_of(shared, sample.key_expr().as_str()) else {
        return;
    };
    let status = match decode::<SeatStatus>("seat status", &sample.payload().to_bytes()) {
        Ok(s) if s.seat == seat => s,
        _ => {
            lock(&shared.counters).malformed += 1;
            return;
        }
    };
    let now = Instant::now();
    let latency = unix_now() - status.sent_unix_s;
    let mut seats = lock(&shared.seats);
    let view = seats.entry(seat.clone()).or_insert_with(SeatView::new);
    if view.status.as_ref().and_then(|s| s.attempt.as_ref()) != status.attempt.as_ref() {
        view.events.clear();
    }
    view.status = Some(status);
    view.statuses += 1;
    view.first_heard.get_or_insert(now);
    view.last_heard = Some(now);
    view.latencies.push_back(latency);
    if view.latencies.len() > LATENCIES_KEPT {
        view.latencies.pop_front();
    }
    let first = view.statuses == 1;
    drop(seats);
    if first {
        let _ = lock(&shared.records).seat_seen(&seat, unix_now());
    }
}

fn take_event(shared: &Shared, sample: &Sample) {
    let Some(seat) = seat_of(shared, sample.key_expr().as_str()) else {
        return;
    };
    match decode::<SeatEvent>("seat event", &sample.payload().to_bytes()) {
        Ok(event) if event.seat == seat => {
            let mut seats = lock(&shared.seats);
            let view = seats.entry(seat).or_insert_with(SeatView::new);
            view.events.push_back(event.event);
            if view.events.len() > EVENTS_KEPT {
                view.events.pop_front();
            }
        }
        _ => lock(&shared.counters).malformed += 1,
    }
}

fn take_liveliness(shared: &Shared, sample: &Sample) {
    let Some(seat) = seat_of(shared, sample.key_expr().as_str()) else {
        return;
    };
    let online = sample.kind() == SampleKind::Put;
    let unfinished = {
        let mut seats = lock(&shared.seats);
        let view = seats.entry(seat.clone()).or_insert_with(SeatView::new);
        view.online = online;
        view.offline_since = if online { None } else { Some(Instant::now()) };
        if online {
            None
        } else {
            view.status.as_ref().and_then(unfinished_report)
        }
    };
    if let Some(report) = unfinished {
        let stored = lock(&shared.records).store_attempt(&report, unix_now());
        let mut counters = lock(&shared.counters);
        match stored {
            Ok(true) => counters.unfinished += 1,
            Ok(false) => {}
            Err(e) => {
                counters.store_errors += 1;
                eprintln!("instructor: {e}");
            }
        }
    }
}

/// The record of an attempt whose seat went away mid-trial, from its last status.
fn unfinished_report(status: &SeatStatus) -> Option<AttemptReport> {
    if !matches!(status.state, SeatState::Running | SeatState::Paused) {
        return None;
    }
    Some(AttemptReport {
        protocol: PROTOCOL_VERSION,
        attempt: status.attempt.clone()?,
        seat: status.seat.clone(),
        trainee: status.trainee.clone(),
        exercise: status.exercise.clone()?,
        exercise_sha256: String::new(),
        robot: status.robot.clone().unwrap_or_default(),
        started_unix_s: status.started_unix_s.unwrap_or(status.sent_unix_s),
        duration_s: status.clock_s,
        status: AttemptStatus::Unfinished,
        score: status.score,
        completed: status.completed,
        required: status.required,
        repetitions_per_minute: 0.0,
        faults: status.faults,
        penalty_points: status.penalty_points,
        reason: "the seat went offline during the trial".into(),
        result: Value::Null,
        proficiency: None,
        log: None,
        log_sha256: None,
    })
}

/// Stores a seat's report (once) and acknowledges it; a report that cannot be read or stored
/// gets no acknowledgement, so the seat keeps it and sends it again.
fn store_report(shared: &Shared, query: &Query) {
    let bytes = query
        .payload()
        .map(|p| p.to_bytes().into_owned())
        .unwrap_or_default();
    let report = match decode::<AttemptReport>("attempt report", &bytes) {
        Ok(r) if shared.keys.seat_of(&shared.keys.status(&r.seat)).is_some() => r,
        Ok(_) | Err(_) => {
            lock(&shared.counters).malformed += 1;
            return;
        }
    };
    let stored = lock(&shared.records).store_attempt(&report, unix_now());
    let newly_stored = match stored {
        Ok(n) => n,
        Err(e) => {
            lock(&shared.counters).store_errors += 1;
            eprintln!("instructor: {e}");
            return;
        }
    };
    {
        let mut counters = lock(&shared.counters);
        if newly_stored {
            counters.stored += 1;
        } else {
            counters.duplicates += 1;
        }
    }
    let mut ack = ResultAck {
        protocol: PROTOCOL_VERSION,
        attempt: report.attempt,
        newly_stored,
        signature: String::new(),
    };
    ack.signature = shared.signing.sign(&ack);
    let _ = query.reply(query.key_expr().clone(), encode(&ack)).wait();
}
