//! Search control: the stop flags, the clock and the node limit shared by
//! the threads of one search, their node counts, and how many threads the
//! machine can run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Stop flags, clock and node limit, shared by the threads of one search.
pub struct Control {
    /// Set by the search itself (time or nodes up, target depth reached).
    stop: AtomicBool,
    /// Set from outside (`stop`, `quit`); never written by the search, so
    /// a search can tell its own end from an order to stop.
    outer: Arc<AtomicBool>,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
}

impl Control {
    /// Control for a search starting now; `outer` is set from outside to
    /// stop it.
    pub fn new(outer: Arc<AtomicBool>, hard: Option<Duration>, node_limit: Option<u64>) -> Control {
        Control {
            stop: AtomicBool::new(false),
            outer,
            start: Instant::now(),
            hard,
            node_limit,
        }
    }

    /// Asks every thread to stop.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Whether the search must stop.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.outer.load(Relaxed)
    }

    /// Whether the search was told to stop from outside.
    pub fn stopped_from_outside(&self) -> bool {
        self.outer.load(Relaxed)
    }

    /// Stops the search if the hard time limit has passed.
    pub fn check_time(&self) {
        if self.hard.is_some_and(|h| self.start.elapsed() >= h) {
            self.stop();
        }
    }

    /// Whether `nodes` reached the node limit.
    #[inline]
    pub fn node_limit_reached(&self, nodes: u64) -> bool {
        self.node_limit.is_some_and(|n| nodes >= n)
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Nodes searched by helper threads (added in batches).
#[derive(Default)]
pub struct Progress {
    nodes: AtomicU64,
}

impl Progress {
    /// Adds nodes.
    #[inline]
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }

    /// Nodes added so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// Logical cores of the machine: a search never runs more threads than
/// this. More would gain nothing and starve the thread that keeps the clock
/// (256 threads on 2 cores overran a 100 ms limit by seconds).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
