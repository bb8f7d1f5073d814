//! Settings of a fuzz run, read from the environment.
//!
//! Every check is always on. Two switches remain, for the machine rather
//! than the engine: `SPLUT_FUZZ_BIG_HASH` (send `Hash` up to its declared
//! maximum) and `SPLUT_FUZZ_SLACK` (widen every time margin). A third picks
//! what is fuzzed: `SPLUT_FUZZ_WASM=<path to splut-node.mjs>` fuzzes the
//! WebAssembly engine under Node, every answer compared with the native
//! engine's (`session`'s twin).

use std::path::PathBuf;
use std::time::Duration;

/// How a run is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long to fuzz.
    pub duration: Duration,
    /// Seed of the first session; session `i` uses `seed + i`.
    pub seed: u64,
    /// Send `Hash` up to the declared maximum (`SPLUT_FUZZ_BIG_HASH=1`)
    /// instead of at most [`HASH_CAP`]. Off by default: the engine maps a
    /// big table lazily, but a search then touches gigabytes on a shared
    /// machine.
    pub big_hash: bool,
    /// Factor on every time margin (`SPLUT_FUZZ_SLACK`, default 1), for
    /// slow or loaded machines.
    pub slack: f64,
    /// The WebAssembly engine's `splut-node.mjs` (`SPLUT_FUZZ_WASM`): run
    /// under `node`, with the native binary beside it as a twin that gets
    /// the same bytes and must give the same answers.
    pub wasm: Option<PathBuf>,
}

/// Longest acceptable error line, in characters: `info string error: `
/// (19), the message (at most 400, `protocol.md`) and the note of how much
/// was cut (`… (N more bytes)`, at most about 40).
pub const MAX_ERROR_CHARS: usize = 19 + 400 + 40;
/// Largest `Hash` (MiB) sent unless [`Config::big_hash`].
pub const HASH_CAP: u64 = 256;
/// Largest `Hash` (MiB) sent to the WebAssembly engine (its memory is at
/// most 4 GiB, and Node is slower at clearing a table).
pub const WASM_HASH_CAP: u64 = 32;

fn flag(name: &str) -> bool {
    matches!(
        std::env::var(name).ok().as_deref().map(str::trim),
        Some("1" | "true" | "yes" | "on")
    )
}

impl Config {
    /// The settings from the `SPLUT_FUZZ_*` variables; `default_secs` when
    /// `SPLUT_FUZZ_SECS` is unset.
    pub fn from_env(default_secs: f64) -> Config {
        let secs = std::env::var("SPLUT_FUZZ_SECS")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or(default_secs);
        let seed = std::env::var("SPLUT_FUZZ_SEED")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(1);
        let slack = std::env::var("SPLUT_FUZZ_SLACK")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .unwrap_or(1.0);
        Config {
            duration: Duration::from_secs_f64(secs),
            seed,
            big_hash: flag("SPLUT_FUZZ_BIG_HASH"),
            slack,
            wasm: std::env::var_os("SPLUT_FUZZ_WASM")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
        }
    }

    /// The largest `Hash` sent unless [`Config::big_hash`].
    pub fn hash_cap(&self) -> u64 {
        if self.wasm.is_some() {
            WASM_HASH_CAP
        } else {
            HASH_CAP
        }
    }

    /// A margin scaled by [`Config::slack`].
    pub fn margin(&self, ms: u64) -> Duration {
        Duration::from_secs_f64(ms as f64 * self.slack / 1000.0)
    }
}
