#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! - [`engine`]: [`Engine`], the engine as one object, and its errors.
//! - [`eval`]: static evaluation for 2–4 players, hand-written and NNUE.
//! - [`search`]: alpha-beta (2 players, paranoid), max-n, best-reply
//!   search, MCTS, time, threads.
//! - [`options`]: the engine's options, one table for the protocol and the
//!   tournament.
//! - [`protocol`]: the engine's side of the UGI-based text protocol
//!   (`protocol.md`); its lines are typed once in `splut-protocol`
//!   ([`protocol::words`], [`splut_protocol::command`]).
//! - [`winprob`]: win probabilities from a search score (`info … winprob`),
//!   the protocol crate's.
//! - [`system`]: what the machine has (available memory).
//! - [`clock`]: the engine's clock (the host's on WebAssembly).
//! - [`mod@bench`]: the `splut bench` search benchmark.
//! - `parallel_perft`: perft split over threads (feature `parallel`).

// No unsafe code but the calls of the network's AVX2 kernels, allowed
// where they are (`eval::nnue::accumulator`), each behind a CPU check.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod clock;
pub mod engine;
pub mod eval;
pub mod options;
#[cfg(feature = "parallel")]
pub mod parallel_perft;
pub mod protocol;
pub mod search;
pub mod system;
pub use splut_protocol::winprob;

pub use engine::{Engine, EngineError, GoError, PreparedSearch, Report};
pub use search::{Algorithm, Info, Limits};
