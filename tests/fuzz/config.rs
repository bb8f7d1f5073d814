//! Settings of a fuzz run, read from the environment.
//!
//! Every check or input class that a known, not yet fixed engine bug fails
//! has a switch, off by default so that `cargo test` passes while the fixes
//! land. `SPLUT_FUZZ_STRICT=1` turns them all on but `SPLUT_FUZZ_BIG_HASH`
//! (memory); each can also be set on its own (`=1` on, `=0` off, which
//! wins over `STRICT`).

use std::time::Duration;

/// How a run is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long to fuzz.
    pub duration: Duration,
    /// Seed of the first session; session `i` uses `seed + i`.
    pub seed: u64,
    /// Error lines must be at most [`MAX_ERROR_LINE`] bytes and hold no
    /// control bytes (`SPLUT_FUZZ_ERROR_LINES`). Known bug: the engine
    /// echoes whole input lines, raw.
    pub check_error_lines: bool,
    /// Search positions whose turn number is near `u32::MAX`
    /// (`SPLUT_FUZZ_HUGE_TURNS`). Known bugs: a crash with `greedy`,
    /// over-long `bestturn`s.
    pub huge_turns: bool,
    /// Expect `go` with increments but no time (`go p1inc 100`) to end on
    /// its own or be refused (`SPLUT_FUZZ_INC_ONLY`). Known bug: it
    /// searches for ever; while off, such a `go` is stopped like `infinite`.
    pub inc_only_bounded: bool,
    /// A `bestmove` after a plain `go infinite` before `stop` is a failure
    /// (`SPLUT_FUZZ_INFINITE_WAITS`). Known bug: `random`/`greedy` end on
    /// their own.
    pub infinite_waits: bool,
    /// Send `Threads` up to the declared maximum (`SPLUT_FUZZ_MANY_THREADS`)
    /// instead of at most [`THREADS_CAP`]. Known bug: 256 threads overshoot
    /// `movetime`.
    pub many_threads: bool,
    /// Send `Hash` up to the declared maximum (`SPLUT_FUZZ_BIG_HASH`)
    /// instead of at most [`HASH_CAP`]. Known bug: a big table blocks
    /// `isready` for seconds (and it costs memory on a shared machine).
    pub big_hash: bool,
    /// Factor on every time margin (`SPLUT_FUZZ_SLACK`, default 1), for
    /// slow or loaded machines.
    pub slack: f64,
}

/// Longest acceptable error line, bytes.
pub const MAX_ERROR_LINE: usize = 1024;
/// Largest `Threads` sent unless [`Config::many_threads`].
pub const THREADS_CAP: u64 = 4;
/// Largest `Hash` (MiB) sent unless [`Config::big_hash`].
pub const HASH_CAP: u64 = 256;
/// Turn numbers from here on count as huge (see [`Config::huge_turns`]).
pub const HUGE_TURN: u32 = u32::MAX - 10_000;

fn flag(name: &str, strict: bool) -> bool {
    match std::env::var(name).ok().as_deref().map(str::trim) {
        Some("1") | Some("true") | Some("yes") | Some("on") => true,
        Some("0") | Some("false") | Some("no") | Some("off") => false,
        _ => strict,
    }
}

impl Config {
    /// The settings from the `SPLUT_FUZZ_*` variables; `default_secs` when
    /// `SPLUT_FUZZ_SECS` is unset.
    pub fn from_env(default_secs: f64) -> Config {
        let strict = flag("SPLUT_FUZZ_STRICT", false);
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
            check_error_lines: flag("SPLUT_FUZZ_ERROR_LINES", strict),
            huge_turns: flag("SPLUT_FUZZ_HUGE_TURNS", strict),
            inc_only_bounded: flag("SPLUT_FUZZ_INC_ONLY", strict),
            infinite_waits: flag("SPLUT_FUZZ_INFINITE_WAITS", strict),
            many_threads: flag("SPLUT_FUZZ_MANY_THREADS", strict),
            // Not part of STRICT: it may allocate tens of GiB.
            big_hash: flag("SPLUT_FUZZ_BIG_HASH", false),
            slack,
        }
    }

    /// A margin scaled by [`Config::slack`].
    pub fn margin(&self, ms: u64) -> Duration {
        Duration::from_secs_f64(ms as f64 * self.slack / 1000.0)
    }
}
