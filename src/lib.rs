//! The Splut! tools: the `splut` command line and the arena (games between
//! players), on the engine ([`splut_engine`]) and the rules
//! ([`splut_rules`]), whose modules are re-exported here under the names
//! they have always had.
//!
//! - [`game`]: the rules core (the `splut-rules` crate, no dependencies).
//! - [`eval`], [`search`], [`options`], [`protocol`], [`winprob`],
//!   [`system`], [`mod@bench`], [`parallel_perft`]: the engine (the
//!   `splut-engine` crate).
//! - [`play`]: what any game between players needs: the protocol client,
//!   the judge, game records, openings.
//! - [`tournament`]: self-play tournaments with statistics.
//! - [`datagen`]: training positions from self-play, and their reader.
//! - [`train`]: `splut train`, the NNUE trainer.
//! - [`tune`]: `splut tune`, the evaluation's tuner.
//! - [`gui`]: `splut gui`, the local web board.
//! - [`cli`]: the `splut` command line.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub use splut_engine::{
    bench, clock, engine, eval, options, parallel_perft, protocol, search, system, winprob,
};
pub use splut_rules as game;

pub mod cli;
pub mod datagen;
#[cfg(test)]
mod floors;
pub mod gui;
pub mod play;
pub mod tournament;
pub mod train;
pub mod tune;
