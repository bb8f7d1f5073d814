#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! - [`answer`]: an engine's answers read by the protocol's words
//!   (`splut-protocol`): an answer's steps and line, refusals, an option's
//!   choices; for the client and every host of the board's session.
//! - `client` (feature `process`): the protocol client, a program that
//!   speaks the protocol driven over pipes (handshake, reads with deadlines, `go`, `query`,
//!   `stop`, `quit`).
//! - [`judge`]: when a game ends, why, and the places.
//! - [`record`]: the game-record format, the one constructor of a record
//!   from a [`splut_rules::Game`], its reader and `splut replay`'s
//!   validation.
//! - [`openings`]: seeded random openings and opening files, with their
//!   limits.

pub mod answer;
#[cfg(feature = "process")]
pub mod client;
pub mod judge;
pub mod openings;
pub mod record;
