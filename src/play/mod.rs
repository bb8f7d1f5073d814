//! What any game between players needs, whoever plays it (the tournament,
//! the GUI, data generation): it depends on the rules core ([`crate::game`])
//! alone.
//!
//! - [`client`]: the protocol client, a program that speaks the protocol
//!   driven over pipes (handshake, reads with deadlines, `go`, `query`,
//!   `stop`, `quit`).
//! - [`judge`]: when a game ends, why, and the places.
//! - [`record`]: the game-record format, the one constructor of a record
//!   from a [`crate::game::Game`], its reader and `splut replay`'s
//!   validation.
//! - [`openings`]: seeded random openings and opening files, with their
//!   limits.

pub mod client;
pub mod judge;
pub mod openings;
pub mod record;
