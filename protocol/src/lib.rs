#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! - [`command`]: the lines to an engine, [`Command`].
//! - [`words`]: the lines from an engine, [`Line`].
//! - [`handshake`]: a fresh engine's handshake, a machine with no I/O.
//! - [`input`]: bounded lines, words, error text safe to print.
//! - [`winprob`]: win chances from a reported [`Score`].

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod command;
pub mod handshake;
pub mod input;
mod score;
pub mod winprob;
pub mod words;

pub use command::Command;
pub use score::Score;
pub use words::Line;
