//! A seat on the class network: its liveliness token, its status at 12 Hz, its events as they
//! happen, the instructor's commands answered, and its outbox delivered until each report is
//! acknowledged ([`SeatLink`]). One thread runs a seat: each tick (the headless loop,
//! [`run_seat`]) or frame (the station's window) takes the commands that came in, runs the
//! trial for the wall time since the last one, publishes, and delivers.

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
    ResultAck, SeatEvent, SeatState, PROTOCOL_VERSION,
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

/// A seat's presence on the class network: its liveliness token, its status publisher (at
/// [`STATUS_HZ`], on a fixed cadence), its events, the instructor's commands, and the delivery
/// of its outbox. Whoever runs the seat's trial — the headless loop ([`run_seat`]) or the
/// station's frame loop — calls [`SeatLink::take_commands`] before it steps and
/// [`SeatLink::publish`] after.
pub struct SeatLink {
    session: zenoh::Session,
    _token: zenoh::liveliness::LivelinessToken,
    status: zenoh::pubsub::Publisher<'static>,
    events: zenoh::pubsub::Publisher<'static>,
    commands: zenoh::query::Queryable<FifoChannelHandler<Query>>,
    keys: Keys,
    obedience: Obedience,
    deliveries: BTreeMap<String, Delivery>,
    counters: SeatCounters,
    status_every: Duration,
    next_status: Instant,
    last_scan: Option<Instant>,
}

impl SeatLink {
    /// Joins `network` as seat `seat`, obeying `instructor`'s signed commands.
    pub fn join(
        network: &ClassNetwork,
        seat: &str,
        instructor: Option<InstructorPublic>,
    ) -> Result<Self, SeatNodeError> {
        let keys = network.keys()?;
        let session = network.open()?;
        let zerr = |e: zenoh::Error| SeatNodeError::Zenoh(e.to_string());
        let token = session
            .liveliness()
            .declare_token(keys.alive(seat))
            .wait()
            .map_err(zerr)?;
        let status = session
            .declare_publisher(keys.status(seat))
            .wait()
            .map_err(zerr)?;
        let events = session
            .declare_publisher(keys.event(seat))
            .wait()
            .map_err(zerr)?;
        let commands = session
            .declare_queryable(keys.command(seat))
            .wait()
            .map_err(zerr)?;
        Ok(Self {
            session,
            _token: token,
            status,
            events,
            commands,
            keys,
            obedience: Obedience::new(instructor),
            deliveries: BTreeMap::new(),
            counters: SeatCounters::default(),
            status_every: Duration::from_secs_f64(1.0 / STATUS_HZ),
            next_status: Instant::now(),
            last_scan: None,
        })
    }

    /// Answers the commands that came in: each the instructor's is carried out on `seat` (or
    /// refused with the reason), the rest refused and counted. Returns the commands carried
    /// out, in order (a station follows some with its own controls: a reset, a take-over).
    pub fn take_commands(&mut self, seat: &mut Seat) -> Vec<Command> {
        let mut carried_out = Vec::new();
        while let Ok(Some(query)) = self.commands.try_recv() {
            if let Some(command) = answer(seat, &query, &mut self.obedience, &mut self.counters) {
                carried_out.push(command);
            }
        }
        carried_out
    }

    /// Publishes `events` and, when due, the seat's status; takes the instructor's answers to
    /// reports on their way and (a few times a second) sends the outbox's others.
    pub fn publish(&mut self, seat: &mut Seat, events: &[SeatEvent]) {
        let now = Instant::now();
        for event in events {
            // A lost event is not a lost result: the report carries every event again.
            let _ = self.events.put(encode(event)).wait();
        }
        if now >= self.next_status {
            // The next one a period after this one was due, not after now: no drift; after a
            // stall, back on the cadence from now.
            self.next_status += self.status_every;
            if self.next_status < now {
                self.next_status = now + self.status_every;
            }
            if self.status.put(encode(&seat.status())).wait().is_ok() {
                self.counters.statuses += 1;
            }
        }
        take_answers(
            seat,
            &self.obedience,
            &mut self.deliveries,
            &mut self.counters,
        );
        // The outbox folder is read a few times a second, not every tick.
        if self
            .last_scan
            .is_none_or(|t| now.duration_since(t) >= OUTBOX_SCAN)
        {
            self.last_scan = Some(now);
            send_pending(&self.session, &self.keys, seat, &mut self.deliveries);
        }
    }

    /// Whether every report of `seat` has been acknowledged (none on its way, the outbox
    /// empty).
    pub fn delivered_all(&self, seat: &Seat) -> bool {
        self.deliveries.is_empty() && seat.outbox().count().is_ok_and(|n| n == 0)
    }

    /// What the seat has counted so far.
    pub fn counters(&self) -> &SeatCounters {
        &self.counters
    }

    /// Puts one last status (so the console sees the seat's end state), leaves the class, and
    /// returns what the seat counted.
    pub fn leave(self, seat: &mut Seat) -> SeatCounters {
        let _ = self.status.put(encode(&seat.status())).wait();
        let _ = self.session.close().wait();
        self.counters
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
    run_seat_with(network, &mut seat, instructor, stop, stop_when, &mut |_| {})
}

/// [`run_seat`] with `after_tick` called with the seat after each tick (a ROS 2 node
/// publishes the robot's state there).
pub fn run_seat_with(
    network: &ClassNetwork,
    seat: &mut Seat,
    instructor: Option<InstructorPublic>,
    stop: &AtomicBool,
    stop_when: StopWhen,
    after_tick: &mut dyn FnMut(&Seat),
) -> Result<SeatCounters, SeatNodeError> {
    let mut link = SeatLink::join(network, seat.name(), instructor)?;
    let mut last_tick = Instant::now();
    let mut had_trial = false;
    while !stop.load(Ordering::Relaxed) {
        link.take_commands(seat);
        let now = Instant::now();
        let wall = now.duration_since(last_tick).as_secs_f64();
        last_tick = now;
        let events = seat.advance(wall)?;
        link.publish(seat, &events);
        after_tick(seat);
        had_trial |= seat.state() == SeatState::Finished;
        if stop_when == StopWhen::AfterTrial && had_trial && link.delivered_all(seat) {
            break;
        }
        std::thread::sleep(TICK);
    }
    Ok(link.leave(seat))
}

/// Answers one command query: carried out, or refused with the reason (a command that is not
/// the instructor's is refused and counted, never carried out). Returns the command if it was
/// carried out.
fn answer(
    seat: &mut Seat,
    query: &Query,
    obedience: &mut Obedience,
    counters: &mut SeatCounters,
) -> Option<Command> {
    let bytes = query
        .payload()
        .map(|p| p.to_bytes().into_owned())
        .unwrap_or_default();
    let mut carried_out = None;
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
                carried_out = Some(without_files(&request.command));
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
    carried_out
}

/// A command as the seat's runner needs to know it: an assignment without the files it
/// carried (installed by then).
fn without_files(command: &Command) -> Command {
    match command {
        Command::Assign {
            exercise,
            sha256,
            trainee,
            bundle: _,
        } => Command::Assign {
            exercise: exercise.clone(),
            sha256: sha256.clone(),
            trainee: trainee.clone(),
            bundle: None,
        },
        other => other.clone(),
    }
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
