//! A seeded, bounded protocol fuzzer: drives the real `splut` binary through
//! pipes as a hostile GUI would and checks the protocol's invariants
//! (`protocol.md`). `tests/engine/fuzz_protocol.rs` runs it; `scripts/fuzz-protocol`
//! runs it for longer.
//!
//! - [`config`]: the run's settings (length, seed, big tables, slack).
//! - [`rng`]: a small seeded generator, stable across crate versions.
//! - [`driver`]: the child process, its pipes and the transcript.
//! - [`make`]: valid commands (from the rules library), mutations, garbage,
//!   and how `protocol.md` says a line is read.
//! - [`session`]: one engine run: sends actions, reads answers, checks.
//! - [`check`]: checks of whole answers against the rules library and
//!   `protocol.md`.
//! - [`twin`]: the native engine beside the WebAssembly one
//!   (`SPLUT_FUZZ_WASM`), and how their answers are compared.

pub mod check;
pub mod config;
pub mod driver;
pub mod make;
pub mod rng;
pub mod session;
pub mod twin;
