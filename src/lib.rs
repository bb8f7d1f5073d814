//! Splut! engine library.
//!
//! - [`game`]: the rules core (no dependencies): positions, steps, SPN, perft.
//! - [`eval`]: static evaluation for 2–4 players.
//! - [`search`]: alpha-beta (2 players, paranoid), max-n, time, threads.
//! - [`parallel_perft`]: perft split over threads with rayon.
//! - [`options`]: the engine's options, one table for the protocol and the
//!   tournament.
//! - [`protocol`]: the UGI-based text protocol (`protocol.md`).
//! - [`play`]: what any game between players needs: the protocol client,
//!   the judge, game records, openings.
//! - [`tournament`]: self-play tournaments with statistics.
//! - [`datagen`]: training positions from self-play, and their reader.
//! - [`system`]: what the machine has (available memory).
//! - [`train`]: `splut train`, the NNUE trainer.
//! - [`mod@bench`]: the `splut bench` search benchmark.
//! - [`gui`]: `splut gui`, the local web board.
//! - [`winprob`]: win probabilities from a search score (`info … winprob`).
//! - [`cli`]: the `splut` command line.

// No unsafe code but the calls of the network's AVX2 kernels, allowed
// where they are (`eval::nnue::accumulator`), each behind a CPU check.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod cli;
pub mod datagen;
pub mod eval;
#[cfg(test)]
mod floors;
pub mod game;
pub mod gui;
pub mod options;
pub mod parallel_perft;
pub mod play;
pub mod protocol;
pub mod search;
pub mod system;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod winprob;
