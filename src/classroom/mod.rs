//! The training classroom (seed 004's training centres): one instructor over many seats, on
//! Zenoh, with the trainees' records in SQLite. A front end: nothing below it knows of it.
//!
//! - [`protocol`]: key expressions and message schemas (no network code);
//! - [`authority`]: the instructor's signature on commands and acknowledgements;
//! - [`bundle`]: an exercise's files sent to a seat that lacks them (SHA-256, no traversal);
//! - [`network`]: joining the class's Zenoh network (endpoints, multicast, the class key);
//! - [`seat`]: a seat's state — its exercise, trial, commands, status and reports;
//! - [`seat_node`]: a seat on the network (status at 10 Hz, commands, outbox delivery);
//! - [`outbox`]: a seat's results kept on disk until acknowledged;
//! - [`instructor`]: the instructor on the network (seats' view, results stored, commands);
//! - [`console`]: the instructor's web console (login, live seats, commands, records);
//! - [`records`]: the SQLite records (schema migrations, attempts stored once, proficiency).

pub mod authority;
pub mod bundle;
pub mod console;
pub mod instructor;
pub mod network;
pub mod outbox;
pub mod protocol;
pub mod records;
pub mod seat;
pub mod seat_node;
