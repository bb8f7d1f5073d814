//! The engine: the protocol through the real binary (handshake, limits,
//! clocks, pondering, MultiPV, hardening, the fuzzer), tactics, `EvalFile`,
//! `cargo test -p splut --test engine`; the searches in process on fixed
//! positions are in the engine crate (`engine/tests/search.rs`).

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
mod tactics;
