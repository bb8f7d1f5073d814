//! The engine: the protocol through the real binary (handshake, limits,
//! clocks, pondering, MultiPV, hardening, the fuzzer), tactics, `EvalFile`,
//! and searches in process on fixed positions. `cargo test --test engine`.

#[path = "../support/mod.rs"]
mod support;

mod clocks;
mod eval_file;
mod fuzz;
mod fuzz_protocol;
mod hardening;
mod levels;
mod multipv;
mod ponder;
mod protocol;
mod search;
mod tactics;
