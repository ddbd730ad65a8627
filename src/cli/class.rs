//! The classroom's commands: `seat --headless` (a seat without a window, driven by a script),
//! `instructor` (joins the class, stores results, prints the class) and `records` (the
//! records from the command line).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use treadsim::classroom::authority::InstructorKey;
use treadsim::classroom::console::auth::{hash_password, Sessions};
use treadsim::classroom::console::{Console, ConsoleState, TlsFiles};
use treadsim::classroom::instructor::{Instructor, SeatView};
use treadsim::classroom::network::{read_key, read_or_make_key, ClassNetwork, DEFAULT_KEY_FILE};
use treadsim::classroom::protocol::{unix_now, DEFAULT_CLASS};
use treadsim::classroom::records::{Records, DEFAULT_RECORDS};
use treadsim::classroom::seat::{Seat, SeatOptions};
#[cfg(any(feature = "ros2", feature = "foxglove"))]
use treadsim::classroom::seat_node::run_seat_with;
use treadsim::classroom::seat_node::{run_seat, StopWhen};
use treadsim::launch::EXERCISE_FOLDER;
#[cfg(feature = "viewer")]
use treadsim::viewer::station_seat::ClassJoin;

/// Set by SIGINT or SIGTERM: the seat or instructor leaves the class and ends.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::Relaxed);
}

/// Ctrl-C and `kill` end the program through [`STOP`], so it leaves the class cleanly.
fn stop_on_signals() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// How to join the class: the options a seat and the instructor share.
#[derive(clap::Args, Clone)]
pub struct NetworkArgs {
    /// The class's name (several classes can share a network).
    #[arg(long, default_value = DEFAULT_CLASS)]
    pub class: String,
    /// Endpoints, multicast and the class key.
    #[command(flatten)]
    pub endpoints: EndpointArgs,
}

/// Where the class is found and the key that opens it (the station's `--class` takes the
/// class's name itself).
#[derive(clap::Args, Clone)]
pub struct EndpointArgs {
    /// An endpoint to listen on (repeatable) [instructor default: tcp/0.0.0.0:7448; a seat:
    /// none].
    #[arg(long)]
    pub listen: Vec<String>,
    /// An endpoint to connect to, e.g. tcp/192.168.1.10:7448 or a zenohd router (repeatable)
    /// [seat default: tcp/127.0.0.1:7448, the instructor on the same machine].
    #[arg(long)]
    pub connect: Vec<String>,
    /// No multicast scouting: find the class only through --listen/--connect endpoints.
    #[arg(long)]
    pub no_multicast: bool,
    /// The class key file: the class key and the instructor's public key (made by the
    /// instructor at first start; copy it to each seat's machine; or set TREADSIM_CLASS_KEY and
    /// TREADSIM_INSTRUCTOR_KEY).
    #[arg(long, default_value = DEFAULT_KEY_FILE)]
    pub key_file: PathBuf,
}

/// The instructor's class endpoint when none is given: every interface, a known port (so seats
/// on the same machine find it without multicast, and seats elsewhere with `--connect`).
pub const INSTRUCTOR_LISTEN: &str = "tcp/0.0.0.0:7448";

/// Where a seat looks for the instructor when no `--connect` is given (besides multicast):
/// the same machine.
pub const SEAT_CONNECT: &str = "tcp/127.0.0.1:7448";

impl NetworkArgs {
    /// The network to join as the instructor (`instructor`) or a seat (see
    /// [`EndpointArgs::network`]).
    fn network(&self, key: String, instructor: bool) -> ClassNetwork {
        self.endpoints.network(&self.class, key, instructor)
    }
}

impl EndpointArgs {
    /// Class `class`'s network, joined as the instructor (`instructor`) or a seat: without
    /// endpoints, the instructor listens on [`INSTRUCTOR_LISTEN`] and a seat connects to
    /// [`SEAT_CONNECT`]; a seat listens on nothing unless told (it connects out).
    fn network(&self, class: &str, key: String, instructor: bool) -> ClassNetwork {
        let listen = match (instructor, self.listen.is_empty()) {
            (true, true) => vec![INSTRUCTOR_LISTEN.to_owned()],
            _ => self.listen.clone(),
        };
        let connect = match (instructor, self.connect.is_empty()) {
            (false, true) => vec![SEAT_CONNECT.to_owned()],
            _ => self.connect.clone(),
        };
        ClassNetwork {
            class: class.to_owned(),
            listen: Some(listen),
            connect,
            multicast: !self.no_multicast,
            key,
        }
    }

    /// The class key file's keys, warning when it names no instructor (the seat would obey no
    /// one).
    fn seat_key(&self) -> anyhow::Result<treadsim::classroom::network::ClassKey> {
        let key = read_key(&self.key_file)?;
        if key.instructor.is_none() {
            eprintln!(
                "warning: {} names no instructor key: this seat will obey no command (the \
                 instructor's class key file has an `instructor` line; or set \
                 TREADSIM_INSTRUCTOR_KEY)",
                self.key_file.display()
            );
        }
        Ok(key)
    }
}

/// A seat's folders: the exercises it may be assigned by name, its logs, its outbox.
#[derive(clap::Args, Clone)]
pub struct SeatFolders {
    /// The exercises the instructor may assign by name.
    #[arg(long, default_value = EXERCISE_FOLDER)]
    pub exercises: PathBuf,
    /// Where each attempt's log goes.
    #[arg(long, default_value = "logs")]
    pub logs: PathBuf,
    /// The seat's outbox [default: records/outbox/<seat>].
    #[arg(long)]
    pub outbox: Option<PathBuf>,
}

impl SeatFolders {
    /// The seat's options for seat `seat` with these folders.
    fn seat_options(
        &self,
        seat: &str,
        trainee: Option<String>,
        script: Option<PathBuf>,
        speed: f64,
    ) -> SeatOptions {
        SeatOptions {
            name: seat.to_owned(),
            trainee,
            script,
            exercises: self.exercises.clone(),
            logs: self.logs.clone(),
            outbox: self
                .outbox
                .clone()
                .unwrap_or_else(|| Path::new("records/outbox").join(seat)),
            speed,
        }
    }
}

/// Arguments of `treadsim seat`.
#[derive(clap::Args)]
pub struct SeatArgs {
    /// Without a window (the seat with a window is the station).
    #[arg(long, required = true)]
    pub headless: bool,
    /// The seat's name in the class.
    #[arg(long)]
    pub seat: String,
    /// The trainee at the seat.
    #[arg(long)]
    pub trainee: Option<String>,
    /// The drive or goal script the seat's operator follows in each trial.
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Start this exercise at once and report it as if the instructor had assigned it.
    #[arg(long)]
    pub exercise: Option<PathBuf>,
    /// End once the first trial is over and its result delivered.
    #[arg(long)]
    pub quit_after_trial: bool,
    /// Real-time factor (1: real time).
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// The seat's folders.
    #[command(flatten)]
    pub folders: SeatFolders,
    /// How to join the class.
    #[command(flatten)]
    pub network: NetworkArgs,
    /// A ROS 2 control unit as the seat's operator; Foxglove live.
    #[cfg(any(feature = "ros2", feature = "foxglove"))]
    #[command(flatten)]
    pub external: super::external::ExternalArgs,
}

/// `treadsim seat --headless`.
pub fn seat_command(a: &SeatArgs) -> anyhow::Result<()> {
    if !(a.speed.is_finite() && a.speed > 0.0 && a.speed <= 100.0) {
        bail!(
            "--speed must be greater than 0 and at most 100, got {}",
            a.speed
        );
    }
    let key = a.network.endpoints.seat_key()?;
    let network = a.network.network(key.secret, false);
    let options = a
        .folders
        .seat_options(&a.seat, a.trainee.clone(), a.script.clone(), a.speed);
    let mut seat = Seat::new(options)?;
    // The operator first: an exercise started at once is driven by it too.
    #[cfg(any(feature = "ros2", feature = "foxglove"))]
    let external = a.external.start(true)?;
    #[cfg(any(feature = "ros2", feature = "foxglove"))]
    if let Some((kind, make)) = external.as_ref().and_then(|e| e.operator()) {
        seat.operate_with(kind, make);
    }
    if let Some(exercise) = &a.exercise {
        seat.start_now(exercise)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("--exercise {}", exercise.display()))?;
    }
    stop_on_signals();
    let stop_when = if a.quit_after_trial {
        StopWhen::AfterTrial
    } else {
        StopWhen::Told
    };
    println!("seat {} joined class {}", a.seat, a.network.class);
    #[cfg(any(feature = "ros2", feature = "foxglove"))]
    if let Some(external) = external {
        return seat_with_external(&network, seat, key.instructor, stop_when, external);
    }
    let counters = run_seat(&network, seat, key.instructor, &STOP, stop_when)?;
    println!(
        "seat {}: {} statuses, {} commands carried out, {} refused ({} not the instructor's), {} malformed, {} results delivered",
        a.seat,
        counters.statuses,
        counters.commands_accepted,
        counters.commands_refused,
        counters.unauthorised,
        counters.malformed,
        counters.delivered
    );
    Ok(())
}

/// The station's options for joining a class as a seat (`treadsim station --class`).
#[cfg(feature = "viewer")]
#[derive(clap::Args)]
pub struct StationClassArgs {
    /// Join a class as a seat (the class's name [default: treadsim]): a locked trainee
    /// station that drives what the instructor assigns and reports each result.
    #[arg(long, num_args = 0..=1, default_missing_value = DEFAULT_CLASS, value_name = "NAME")]
    pub class: Option<String>,
    /// The seat's name in the class [default: this machine's name].
    #[arg(long, requires = "class")]
    pub seat: Option<String>,
    /// The seat's folders.
    #[command(flatten)]
    pub folders: SeatFolders,
    /// Where the class is found, and its key.
    #[command(flatten)]
    pub endpoints: EndpointArgs,
}

#[cfg(feature = "viewer")]
impl StationClassArgs {
    /// How the station joins its class, if `--class` was given: seat `--seat` (or this
    /// machine's name) for `trainee`, with `exercise` started at once if given.
    pub fn join(
        &self,
        trainee: Option<String>,
        exercise: Option<PathBuf>,
    ) -> anyhow::Result<Option<ClassJoin>> {
        let Some(class) = &self.class else {
            return Ok(None);
        };
        let key = self.endpoints.seat_key()?;
        let seat = self.seat.clone().unwrap_or_else(machine_name);
        Ok(Some(ClassJoin {
            network: self.endpoints.network(class, key.secret, false),
            instructor: key.instructor,
            seat: self.folders.seat_options(&seat, trainee, None, 1.0),
            exercise,
        }))
    }
}

/// This machine's name as a seat name (letters, digits, `_`, `-`, `.`; others become `-`), or
/// `station` if it has none.
#[cfg(feature = "viewer")]
fn machine_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "station".to_owned()
    } else {
        name
    }
}

/// The seat run with the programs beside it: they publish the session after each tick.
#[cfg(any(feature = "ros2", feature = "foxglove"))]
fn seat_with_external(
    network: &ClassNetwork,
    mut seat: Seat,
    instructor: Option<treadsim::classroom::authority::InstructorPublic>,
    stop_when: StopWhen,
    mut external: super::external::External,
) -> anyhow::Result<()> {
    for line in external.started() {
        println!("seat {}: {line}", seat.name());
    }
    let counters = run_seat_with(
        network,
        &mut seat,
        instructor,
        &STOP,
        stop_when,
        &mut |seat| {
            if let Some(session) = seat.session() {
                external.after_tick(session);
            }
        },
    )?;
    println!(
        "seat {}: {} statuses, {} results delivered",
        seat.name(),
        counters.statuses,
        counters.delivered
    );
    for line in external.summary(&format!("seat {}", seat.name())) {
        println!("{line}");
    }
    external.close();
    Ok(())
}

/// Arguments of `treadsim instructor`.
#[derive(clap::Args)]
pub struct InstructorArgs {
    /// The records file (made and migrated if needed, owner-only).
    #[arg(long, default_value = DEFAULT_RECORDS)]
    pub db: PathBuf,
    /// Where the console is served (HOST:PORT). Anything but a loopback address opens it to
    /// the network: use a strong password.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub http: String,
    /// Serve no console.
    #[arg(long, conflicts_with = "http")]
    pub no_http: bool,
    /// Serve the console over HTTPS with this certificate (PEM; with --tls-key): for a console
    /// open to the network.
    #[arg(long, requires = "tls_key", conflicts_with = "no_http")]
    pub tls_cert: Option<PathBuf>,
    /// The TLS certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// The exercises the console offers to assign.
    #[arg(long, default_value = EXERCISE_FOLDER)]
    pub exercises: PathBuf,
    /// A file whose first line is the console password, to set it at first start (or with
    /// --set-password); else TREADSIM_INSTRUCTOR_PASSWORD, else a prompt in the terminal.
    #[arg(long)]
    pub password_file: Option<PathBuf>,
    /// Set a new console password (from --password-file, the environment or a prompt).
    #[arg(long)]
    pub set_password: bool,
    /// Seconds between the class tables printed (0: none).
    #[arg(long, default_value_t = 2.0)]
    pub every: f64,
    /// How to join the class.
    #[command(flatten)]
    pub network: NetworkArgs,
}

/// One line of the class table.
fn seat_line(name: &str, view: &SeatView) -> String {
    let online = if view.online { "online" } else { "OFFLINE" };
    match &view.status {
        Some(s) => format!(
            "{name:<12} {online:<7} {:<9} {:<24} {:>6.1} s {:>3}/{:<3} faults {:<2} score {:>5.1} {:>5.1} Hz",
            format!("{:?}", s.state).to_lowercase(),
            s.exercise.as_deref().unwrap_or("-"),
            s.clock_s,
            s.completed,
            s.required,
            s.faults,
            s.score,
            view.status_rate(),
        ),
        None => format!("{name:<12} {online:<7} (no status yet)"),
    }
}

/// The environment variable that may hold the console password at first start.
const PASSWORD_ENV: &str = "TREADSIM_INSTRUCTOR_PASSWORD";

/// The instructor account the console's password belongs to.
const ACCOUNT: &str = "instructor";

/// Reads a password from the terminal without echoing it.
fn prompt_password(prompt: &str) -> anyhow::Result<String> {
    // SAFETY: isatty/tcgetattr/tcsetattr on standard input with a termios we own.
    unsafe {
        if libc::isatty(0) != 1 {
            bail!(
                "no console password set: run in a terminal, or give --password-file or {PASSWORD_ENV}"
            );
        }
        let mut term: libc::termios = std::mem::zeroed();
        libc::tcgetattr(0, &raw mut term);
        let echo_on = term;
        term.c_lflag &= !libc::ECHO;
        libc::tcsetattr(0, libc::TCSANOW, &raw const term);
        eprint!("{prompt}");
        let mut line = String::new();
        let read = std::io::stdin().read_line(&mut line);
        libc::tcsetattr(0, libc::TCSANOW, &raw const echo_on);
        eprintln!();
        read?;
        Ok(line.trim_end_matches(['\r', '\n']).to_owned())
    }
}

/// The password to set: from the file, the environment, or the terminal (asked twice).
fn new_password(a: &InstructorArgs) -> anyhow::Result<String> {
    if let Some(path) = &a.password_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(text.lines().next().unwrap_or("").to_owned());
    }
    if let Ok(password) = std::env::var(PASSWORD_ENV) {
        return Ok(password);
    }
    let first = prompt_password("new console password: ")?;
    if prompt_password("again: ")? != first {
        bail!("the two passwords differ");
    }
    Ok(first)
}

/// The console's password hash: the stored one, or a new one set now (first start or
/// --set-password).
fn console_password(a: &InstructorArgs, records: &Records) -> anyhow::Result<String> {
    if let Some(hash) = records.password_hash(ACCOUNT)?.filter(|_| !a.set_password) {
        return Ok(hash);
    }
    let hash = hash_password(&new_password(a)?)?;
    records.set_password_hash(ACCOUNT, &hash, unix_now())?;
    println!(
        "console password set (stored as an Argon2id hash in {})",
        a.db.display()
    );
    Ok(hash)
}

/// Serves the console for `instructor`, warning when it is open to the network.
fn start_console(
    a: &InstructorArgs,
    instructor: &Arc<Instructor>,
    password_hash: String,
) -> anyhow::Result<Console> {
    let tls = a
        .tls_cert
        .clone()
        .zip(a.tls_key.clone())
        .map(|(cert, key)| TlsFiles { cert, key });
    let console = Console::serve(
        &a.http,
        ConsoleState {
            instructor: Arc::clone(instructor),
            sessions: Sessions::default(),
            password_hash,
            exercises: a.exercises.clone(),
            reports: a.db.parent().unwrap_or(Path::new(".")).join("reports"),
            class: a.network.class.clone(),
            tls: false,
        },
        tls.as_ref(),
    )?;
    if !console.addr().ip().is_loopback() && tls.is_none() {
        eprintln!(
            "warning: the console at {} is open to the network without TLS: the password and \
             session cookie cross it in clear text; give it --tls-cert and --tls-key, or serve it \
             on 127.0.0.1 and reach it through an SSH tunnel",
            console.addr()
        );
    }
    let scheme = if tls.is_some() { "https" } else { "http" };
    println!("console: {scheme}://{}/", console.addr());
    Ok(console)
}

/// `treadsim instructor`.
pub fn instructor_command(a: &InstructorArgs) -> anyhow::Result<()> {
    let records = Records::open(&a.db)?;
    let password_hash = if a.no_http {
        None
    } else {
        Some(console_password(a, &records)?)
    };
    let signing_file =
        a.db.parent()
            .unwrap_or(Path::new("."))
            .join("instructor.key");
    let signing = InstructorKey::read_or_make(&signing_file)?;
    let key = read_or_make_key(&a.network.endpoints.key_file, &signing.public())?;
    let network = a.network.network(key.secret, true);
    let instructor = Arc::new(Instructor::start(&network, records, signing)?);
    stop_on_signals();
    println!(
        "instructor of class {}: records {}, class key {}",
        a.network.class,
        a.db.display(),
        a.network.endpoints.key_file.display()
    );
    let console = match password_hash {
        Some(hash) => Some(start_console(a, &instructor, hash)?),
        None => None,
    };
    let mut last = Instant::now();
    while !STOP.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if a.every > 0.0 && last.elapsed().as_secs_f64() >= a.every {
            last = Instant::now();
            let counters = instructor.counters();
            println!(
                "-- {:.1}: stored {} duplicates {} unfinished {} malformed {}",
                unix_now(),
                counters.stored,
                counters.duplicates,
                counters.unfinished,
                counters.malformed
            );
            for (name, view) in instructor.seats() {
                println!("{}", seat_line(&name, &view));
            }
        }
    }
    drop(console);
    instructor.close();
    Ok(())
}
