//! A seat on the class network: its liveliness token, its status at 10 Hz, its events as they
//! happen, the instructor's commands answered, and its outbox delivered until each report is
//! acknowledged. One thread: each tick takes the commands that came in, runs the trial for the
//! wall time since the last tick, publishes, and delivers.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use zenoh::handlers::FifoChannelHandler;
use zenoh::query::{Query, Reply};
use zenoh::Wait;

use super::authority::{InstructorPublic, FRESH_FOR};
use super::network::{ClassNetwork, NetworkError};
use super::protocol::{
    decode, encode, unix_now, AttemptReport, Command, CommandReply, CommandRequest, Keys,
    ResultAck, SeatState, PROTOCOL_VERSION,
};
use super::seat::{Seat, SeatError};

/// Status messages per second, on a fixed cadence (no drift: the console is promised 10 or
/// more).
pub const STATUS_HZ: f64 = 12.0;

/// How long a seat waits for the instructor to acknowledge a report before sending it again.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(3);

/// The seat loop's tick.
const TICK: Duration = Duration::from_millis(5);

/// How often the outbox is read for reports to send (answers are read every tick).
const OUTBOX_SCAN: Duration = Duration::from_millis(250);

/// Why a seat stopped.
#[derive(Debug, thiserror::Error)]
pub enum SeatNodeError {
    /// The network could not be joined.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// The seat itself (its outbox) failed.
    #[error(transparent)]
    Seat(#[from] SeatError),
    /// Zenoh refused a declaration.
    #[error("class network: {0}")]
    Zenoh(String),
}

/// What a seat has counted while it ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeatCounters {
    /// Statuses put.
    pub statuses: u64,
    /// Commands carried out.
    pub commands_accepted: u64,
    /// Commands refused (a reason replied).
    pub commands_refused: u64,
    /// Messages that could not be read (malformed, another protocol version): refused.
    pub malformed: u64,
    /// Commands and acknowledgements not signed by the class's instructor, for another seat,
    /// stale or played again: ignored.
    pub unauthorised: u64,
    /// Reports acknowledged by the instructor.
    pub delivered: u64,
}

/// When the seat stops by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopWhen {
    /// Only when told (Ctrl-C).
    Told,
    /// Once its first trial has ended and the outbox is empty.
    AfterTrial,
}

/// A report being delivered: the instructor's answers so far and when it was sent.
struct Delivery {
    replies: FifoChannelHandler<Reply>,
    sent: Instant,
}

/// Whose commands a seat obeys: the instructor's public key, and the commands taken within
/// the freshness window (by issue time and id: the same one is not taken twice).
pub struct Obedience {
    instructor: Option<InstructorPublic>,
    taken: std::collections::VecDeque<(u64, u64)>,
}

impl Obedience {
    /// Obeys the holder of `instructor`'s key (`None`: obeys no one).
    pub fn new(instructor: Option<InstructorPublic>) -> Self {
        Self {
            instructor,
            taken: std::collections::VecDeque::new(),
        }
    }

    /// Whether `request` is the instructor's, for seat `seat`, fresh, and not one taken
    /// before; if so it is noted as taken.
    fn admits(&mut self, request: &CommandRequest, seat: &str) -> Result<(), String> {
        let Some(key) = &self.instructor else {
            return Err("this seat knows no instructor key: it obeys no command".into());
        };
        if request.seat != seat {
            return Err(format!("the command is for seat '{}'", request.seat));
        }
        if !key.verifies(request) {
            return Err("not signed by this class's instructor".into());
        }
        let now = (unix_now() * 1000.0) as u64;
        if request.issued_unix_ms + FRESH_FOR < now || request.issued_unix_ms > now + FRESH_FOR {
            return Err("the command is stale (or the clocks differ by more than 30 s)".into());
        }
        // What is older than the window is refused as stale anyway.
        while self
            .taken
            .front()
            .is_some_and(|(issued, _)| issued + 2 * FRESH_FOR < now)
        {
            self.taken.pop_front();
        }
        let this = (request.issued_unix_ms, request.id);
        if self.taken.contains(&this) {
            return Err("the command was taken before (played again?)".into());
        }
        self.taken.push_back(this);
        Ok(())
    }
}

/// Runs `seat` on the class network until `stop` is set (or, with [`StopWhen::AfterTrial`],
/// its trial is over and delivered), obeying `instructor`'s signed commands; returns what it
/// counted.
pub fn run_seat(
    network: &ClassNetwork,
    mut seat: Seat,
    instructor: Option<InstructorPublic>,
    stop: &AtomicBool,
    stop_when: StopWhen,
) -> Result<SeatCounters, SeatNodeError> {
    let mut obedience = Obedience::new(instructor);
    let keys = network.keys()?;
    let session = network.open()?;
    let zerr = |e: zenoh::Error| SeatNodeError::Zenoh(e.to_string());
    let name = seat.name().to_owned();
    let _token = session
        .liveliness()
        .declare_token(keys.alive(&name))
        .wait()
        .map_err(zerr)?;
    let status = session
        .declare_publisher(keys.status(&name))
        .wait()
        .map_err(zerr)?;
    let events = session
        .declare_publisher(keys.event(&name))
        .wait()
        .map_err(zerr)?;
    let commands = session
        .declare_queryable(keys.command(&name))
        .wait()
        .map_err(zerr)?;
    let mut counters = SeatCounters::default();
    let mut deliveries: BTreeMap<String, Delivery> = BTreeMap::new();
    let status_every = Duration::from_secs_f64(1.0 / STATUS_HZ);
    let mut last_tick = Instant::now();
    let mut next_status = Instant::now();
    let mut had_trial = false;
    let mut last_scan: Option<Instant> = None;
    while !stop.load(Ordering::Relaxed) {
        while let Ok(Some(query)) = commands.try_recv() {
            answer(&mut seat, &query, &mut obedience, &mut counters);
        }
        let now = Instant::now();
        let wall = now.duration_since(last_tick).as_secs_f64();
        last_tick = now;
        for event in seat.advance(wall)? {
            // A lost event is not a lost result: the report carries every event again.
            let _ = events.put(encode(&event)).wait();
        }
        if now >= next_status {
            // The next one a period after this one was due, not after now: no drift; after a
            // stall, back on the cadence from now.
            next_status += status_every;
            if next_status < now {
                next_status = now + status_every;
            }
            let message = seat.status();
            if status.put(encode(&message)).wait().is_ok() {
                counters.statuses += 1;
            }
        }
        take_answers(&seat, &obedience, &mut deliveries, &mut counters);
        // The outbox folder is read a few times a second, not every tick.
        if last_scan.is_none_or(|t| now.duration_since(t) >= OUTBOX_SCAN) {
            last_scan = Some(now);
            send_pending(&session, &keys, &seat, &mut deliveries);
        }
        had_trial |= seat.state() == SeatState::Finished;
        if stop_when == StopWhen::AfterTrial && had_trial && deliveries.is_empty() {
            let pending = seat.outbox().count().unwrap_or(1);
            if pending == 0 {
                // One last status so the console sees the outbox empty.
                let _ = status.put(encode(&seat.status())).wait();
                break;
            }
        }
        std::thread::sleep(TICK);
    }
    let _ = session.close().wait();
    Ok(counters)
}

/// Answers one command query: carried out, or refused with the reason (a command that is not
/// the instructor's is refused and counted, never carried out).
fn answer(seat: &mut Seat, query: &Query, obedience: &mut Obedience, counters: &mut SeatCounters) {
    let bytes = query
        .payload()
        .map(|p| p.to_bytes().into_owned())
        .unwrap_or_default();
    let reply = match decode::<CommandRequest>("command", &bytes) {
        Ok(request) => {
            let admitted = obedience.admits(&request, seat.name());
            if let Err(why) = &admitted {
                counters.unauthorised += 1;
                eprintln!("seat {}: ignored a command: {why}", seat.name());
            }
            let outcome = admitted.and_then(|()| match &request.command {
                Command::SendLog { attempt } => seat.log_bytes(attempt).map(Some),
                command => seat.command(command).map(|()| None),
            });
            if outcome.is_ok() {
                counters.commands_accepted += 1;
            } else {
                counters.commands_refused += 1;
            }
            let (accepted, reason, log) = match outcome {
                Ok(log) => (true, String::new(), log),
                Err(why) => (false, why, None),
            };
            CommandReply {
                protocol: PROTOCOL_VERSION,
                id: request.id,
                accepted,
                reason,
                log_base64: log.map(|b| base64::engine::general_purpose::STANDARD.encode(b)),
            }
        }
        Err(e) => {
            counters.malformed += 1;
            eprintln!("seat {}: refused a command: {e}", seat.name());
            CommandReply {
                protocol: PROTOCOL_VERSION,
                id: 0,
                accepted: false,
                reason: e.to_string(),
                log_base64: None,
            }
        }
    };
    let _ = query.reply(query.key_expr().clone(), encode(&reply)).wait();
}

/// Reads the instructor's answers to the reports on their way and drops each acknowledged
/// report from the outbox; a report whose answer does not come within [`DELIVERY_TIMEOUT`] is
/// no longer on its way, so [`send_pending`] sends it again (the instructor stores it once).
fn take_answers(
    seat: &Seat,
    obedience: &Obedience,
    deliveries: &mut BTreeMap<String, Delivery>,
    counters: &mut SeatCounters,
) {
    let mut done = Vec::new();
    for (attempt, delivery) in deliveries.iter() {
        match delivery.replies.try_recv() {
            Ok(Some(reply)) => {
                let ack = reply
                    .result()
                    .ok()
                    .map(|s| s.payload().to_bytes().into_owned())
                    .and_then(|b| decode::<ResultAck>("result acknowledgement", &b).ok());
                // Only the instructor's signed acknowledgement lets the result go.
                let genuine = ack.as_ref().is_some_and(|a| {
                    &a.attempt == attempt
                        && obedience.instructor.as_ref().is_some_and(|k| k.verifies(a))
                });
                if ack.is_some() && !genuine {
                    counters.unauthorised += 1;
                }
                if genuine && seat.outbox().remove(attempt).is_ok() {
                    counters.delivered += 1;
                }
                done.push(attempt.clone());
            }
            Ok(None) if delivery.sent.elapsed() < DELIVERY_TIMEOUT => {}
            // No answer in time, or the query ended without one: send it again.
            Ok(None) | Err(_) => done.push(attempt.clone()),
        }
    }
    for attempt in done {
        deliveries.remove(&attempt);
    }
}

/// Sends each report in the outbox that is not on its way.
fn send_pending(
    session: &zenoh::Session,
    keys: &Keys,
    seat: &Seat,
    deliveries: &mut BTreeMap<String, Delivery>,
) {
    let Ok(pending) = seat.outbox().pending() else {
        return;
    };
    for report in pending {
        let report: AttemptReport = match report {
            Ok(r) => r,
            Err(e) => {
                eprintln!("seat {}: outbox: {e}", seat.name());
                continue;
            }
        };
        if deliveries.contains_key(&report.attempt) {
            continue;
        }
        let sent = session
            .get(keys.results())
            .payload(encode(&report))
            .timeout(DELIVERY_TIMEOUT)
            .wait();
        if let Ok(replies) = sent {
            deliveries.insert(
                report.attempt.clone(),
                Delivery {
                    replies,
                    sent: Instant::now(),
                },
            );
        }
    }
}
