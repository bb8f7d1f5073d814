//! The Splut! tools: the `splut` command line, tournaments, data
//! generation, training and tuning (the web board's server is the crate
//! `splut-server`, which `splut gui` runs), on the engine
//! ([`splut_engine`]), the match ([`splut_play`]) and the rules
//! ([`splut_rules`]).
//!
//! - [`tournament`]: self-play tournaments with statistics.
//! - [`datagen`]: training positions from self-play, and their reader.
//! - [`train`]: `splut train`, the NNUE trainer.
//! - [`tune`]: `splut tune`, the evaluation's tuner.
//! - [`cli`]: the `splut` command line.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod datagen;
#[cfg(test)]
mod floors;
pub mod r#loop;
pub mod tournament;
pub mod train;
pub mod tune;
