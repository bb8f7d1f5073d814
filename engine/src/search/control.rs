//! Search control: the stop flags, the clock and the node limit shared by
//! the threads of one search, their node counts, and how many threads the
//! machine can run.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

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
    /// A pondering search: its clock starts at the `ponderhit`.
    ponder: Option<Arc<Ponder>>,
    /// A search run in slices ([`Control::pausing`]): when it pauses,
    /// and the flag that says it did.
    pause: Option<(Duration, Arc<AtomicBool>)>,
}

/// A search that ponders (`go ponder`): it thinks on a guessed position
/// with no time limit until the guess comes true (`ponderhit`); from then
/// on its time limits count, from the moment of the hit, and it goes on
/// with everything it has found.
#[derive(Debug, Default)]
pub struct Ponder {
    hit: OnceLock<Instant>,
}

impl Ponder {
    /// A pondering search's handle, not hit yet.
    pub fn new() -> Arc<Ponder> {
        Arc::new(Ponder::default())
    }

    /// The guess came true: the clock starts now (a second hit changes
    /// nothing here; the protocol refuses it as an error).
    pub fn hit(&self) {
        let _ = self.hit.set(Instant::now());
    }

    /// When the guess came true, if it has.
    pub fn hit_at(&self) -> Option<Instant> {
        self.hit.get().copied()
    }
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
            ponder: None,
            pause: None,
        }
    }

    /// This control, pausing after `pause` if given: the search stops as
    /// if told to, and sets the flag, so that a host with one thread can
    /// read its input and run the search again (`PreparedSearch::run_slice`).
    pub fn pausing(mut self, pause: Option<(Duration, Arc<AtomicBool>)>) -> Control {
        self.pause = pause;
        self
    }

    /// This control, pondering on `ponder` if given: no time limit until
    /// it is hit, then the limits count from the hit.
    pub fn pondering_on(mut self, ponder: Option<Arc<Ponder>>) -> Control {
        self.ponder = ponder;
        self
    }

    /// When the clock started: at the start, or at the ponder hit (`None`
    /// while pondering).
    fn clock_start(&self) -> Option<Instant> {
        match &self.ponder {
            None => Some(self.start),
            Some(p) => p.hit_at(),
        }
    }

    /// Whether `limit` has passed on the clock (never while pondering).
    pub fn past(&self, limit: Duration) -> bool {
        self.clock_start().is_some_and(|t| t.elapsed() >= limit)
    }

    /// Time on the clock: since the start, or since the ponder hit (zero
    /// while pondering).
    pub fn clock_elapsed(&self) -> Duration {
        self.clock_start().map_or(Duration::ZERO, |t| t.elapsed())
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

    /// Stops the search if the hard time limit has passed, or pauses it
    /// if its slice has.
    pub fn check_time(&self) {
        if self.hard.is_some_and(|h| self.past(h)) {
            self.stop();
        }
        if let Some((pause, paused)) = &self.pause
            && self.elapsed() >= *pause
        {
            paused.store(true, Relaxed);
            self.stop();
        }
    }

    /// Whether the search paused at the end of its slice
    /// ([`Control::pausing`]) rather than ended.
    pub fn paused(&self) -> bool {
        self.pause.as_ref().is_some_and(|(_, p)| p.load(Relaxed))
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
/// Without the feature `parallel` the engine runs one thread: 1.
pub fn cores() -> usize {
    if !cfg!(feature = "parallel") {
        return 1;
    }
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
