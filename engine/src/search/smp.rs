//! Lazy SMP: with more than one thread, helper threads (the engine's
//! [`Workers`], kept between searches, each searching on its own
//! [`Worker`]) search the same tree and share the table. Every helper
//! publishes its completed iterations;
//! the deepest one is played, and a helper that completes the target depth
//! first ends the search.

use super::Info;
pub use super::iterate::Iteration;
use super::thread::{Searcher, Shared, Worker};
use super::workers::Workers;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How a search thread's [`Searcher`] is made: from what the threads
/// share, on the thread's worker (borrowed for the search), for the main
/// thread or not.
pub type MakeSearcher<'a> =
    dyn for<'w> Fn(Shared<'w>, &'w mut Worker, bool) -> Box<dyn Searcher + 'w> + Sync + 'a;

/// Runs `threads` searchers (made by `searcher(shared, worker, is_main)`
/// on each thread's worker) on `it`: the main thread (this one) iterates
/// and reports, helpers (on `workers`) publish; returns the best completed
/// iteration with every thread's nodes.
pub fn lazy_smp(
    it: &Iteration<'_>,
    shared: Shared<'_>,
    threads: usize,
    workers: &Workers,
    searcher: &MakeSearcher<'_>,
    report: &mut dyn FnMut(&Info),
) -> Info {
    let control = it.control;
    let helper_best: Mutex<Option<Info>> = Mutex::new(None);
    // Helpers add their last nodes, those not yet counted in batches.
    let helper_nodes = AtomicU64::new(0);
    let run_helper = |i: usize, worker: &mut Worker| {
        let mut s = searcher(shared, worker, false);
        helper(it, &mut *s, i, &helper_best);
        helper_nodes.fetch_add(s.nodes() % 1024, Relaxed);
    };
    let (mut last, main_nodes) = workers.run(threads, &run_helper, |worker| {
        let mut s = searcher(shared, worker, true);
        let last = it.main(&mut *s, report);
        control.stop();
        (last, s.nodes())
    });
    let total = it.progress.nodes() + main_nodes % 1024 + helper_nodes.load(Relaxed);
    // A helper that got deeper than the main thread has the better turn.
    let helper = helper_best.lock().ok().and_then(|mut h| h.take());
    if let Some(h) = helper.filter(|h| h.depth > last.depth && !h.pv.is_empty()) {
        last.depth = h.depth;
        last.seldepth = h.seldepth;
        last.score = h.score;
        last.pv = h.pv;
    }
    last.nodes = total;
    let ms = control.elapsed().as_millis() as u64;
    last.time_ms = ms;
    last.nps = total * 1000 / ms.max(1);
    last
}

/// A helper thread's iterations: published when complete; completing the
/// target depth ends the search.
fn helper(it: &Iteration<'_>, w: &mut dyn Searcher, index: usize, published: &Mutex<Option<Info>>) {
    let control = it.control;
    let mut pos = *it.root;
    // Odd helpers start one step deeper, so threads spread over depths.
    let mut depth = 1 + (index % 2) as u32;
    while !control.stopped() && depth <= it.max_depth {
        let value = w.search_root(&mut pos, depth as i32);
        if w.stopped() {
            break;
        }
        if let Ok(mut best) = published.lock()
            && best.as_ref().is_none_or(|b| b.depth < depth)
        {
            *best = Some(Info {
                depth,
                seldepth: w.seldepth() as u32,
                score: w.score(value),
                pv: w.root_pv(),
                ..Info::default()
            });
        }
        if depth == it.max_depth {
            control.stop();
        }
        depth += 1;
    }
}
