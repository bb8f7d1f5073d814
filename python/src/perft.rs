//! `Position.perft` as a stoppable count: serial with
//! `splut_rules::perft_interruptible`, or split over a rayon pool the way
//! `splut_engine::parallel_perft` splits it, every subtree polling the same
//! stop flag, so Ctrl-C (`crate::interrupt`) ends either at once.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use splut_rules::{Position, perft_interruptible};

/// The deepest perft, as on the command line and in the protocol.
pub(crate) const MAX_DEPTH: u32 = 12;
/// The most threads a perft may use (the engine's `Threads` maximum).
pub(crate) const MAX_THREADS: usize = 256;
/// Subtrees per thread to aim for when splitting.
const TASKS_PER_THREAD: usize = 64;
/// Subtrees shallower than this are not split further.
const MIN_TASK_DEPTH: u32 = 3;

/// Leaves `depth` steps below `pos` (the last step counted in bulk) on
/// `threads` threads; `Ok(None)` once `stop` was set; `Err` when the
/// threads cannot be started.
pub(crate) fn perft(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Option<u64>, String> {
    let go_on = || !stop.load(Ordering::Relaxed);
    if threads <= 1 || depth <= MIN_TASK_DEPTH {
        return Ok(perft_interruptible(pos, depth, &mut { go_on }));
    }
    let mut tasks: Vec<(Position, u32)> = vec![(*pos, depth)];
    while tasks.len() < TASKS_PER_THREAD * threads && tasks.iter().all(|t| t.1 > MIN_TASK_DEPTH) {
        if !go_on() {
            return Ok(None);
        }
        tasks = tasks
            .iter()
            .flat_map(|&(p, d)| {
                p.legal_step_vec()
                    .into_iter()
                    .map(move |s| (p.after(s), d - 1))
            })
            .collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let counts: Vec<Option<u64>> = pool.install(|| {
        tasks
            .par_iter()
            // A subtree polls only after thousands of nodes: the ones not
            // started when the flag is set are skipped at once.
            .map(|(p, d)| go_on().then(|| perft_interruptible(p, *d, &mut { go_on }))?)
            .collect()
    });
    Ok(counts.into_iter().sum())
}
