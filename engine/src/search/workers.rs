//! The engine's search threads, kept from one search to the next: the
//! helper threads (Lazy SMP's helpers and parallel MCTS run on them, so a
//! search starts no thread of its own) and every search thread's own
//! [`Worker`], the calling thread's included.
//!
//! With the feature `parallel` (the default) the helpers are a rayon pool
//! of `threads - 1` threads, the search's own thread being the first.
//! Without it there are none and every search runs on the calling thread
//! alone (targets without threads, such as `wasm32-unknown-unknown`), on
//! the one worker there is.

use super::thread::Worker;
use std::sync::{Arc, Mutex, MutexGuard};

/// A search's threads: the helpers (none, or a pool kept between
/// searches) and one [`Worker`] per search thread, the calling thread's
/// first, kept between searches. Cloning shares them.
#[derive(Clone)]
pub struct Workers {
    #[cfg(feature = "parallel")]
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The calling thread's worker, then helper `i`'s at `i`. Each is
    /// locked by its thread for the length of a search (one search runs
    /// at a time: the locks are never contended).
    workers: Arc<[Mutex<Worker>]>,
}

impl Default for Workers {
    fn default() -> Self {
        Workers::none()
    }
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({} helpers)", self.helpers())
    }
}

/// `worker`, locked: a search that panicked leaves its tables as they
/// were, which the next search readies as any other.
fn lock(worker: &Mutex<Worker>) -> MutexGuard<'_, Worker> {
    worker.lock().unwrap_or_else(|p| p.into_inner())
}

impl Workers {
    /// No helpers: searches run on the calling thread alone, on one
    /// worker.
    pub fn none() -> Workers {
        Workers {
            #[cfg(feature = "parallel")]
            pool: None,
            workers: Arc::new([Mutex::new(Worker::new())]),
        }
    }

    /// Helpers for searches of `threads` threads (the caller's among
    /// them), at most [`super::cores`]: `threads - 1` of them, and a
    /// worker for each thread. Where the machine cannot start them (or
    /// without the feature `parallel`) there are none, and searches run on
    /// one thread.
    pub fn for_threads(threads: usize) -> Workers {
        let helpers = threads.clamp(1, super::cores()) - 1;
        #[cfg(feature = "parallel")]
        if helpers > 0 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(helpers)
                .thread_name(|i| format!("splut-helper-{i}"))
                .build()
                .ok()
                .map(Arc::new);
            let threads = pool.as_ref().map_or(1, |p| p.current_num_threads() + 1);
            return Workers {
                pool,
                workers: (0..threads).map(|_| Mutex::new(Worker::new())).collect(),
            };
        }
        let _ = helpers;
        Workers::none()
    }

    /// [`Self::for_threads`], keeping the workers of `old` (their caches
    /// and tables) for the threads both have.
    pub fn for_threads_from(threads: usize, old: &Workers) -> Workers {
        let new = Workers::for_threads(threads);
        for (kept, fresh) in old.workers.iter().zip(new.workers.iter()) {
            std::mem::swap(&mut *lock(kept), &mut *lock(fresh));
        }
        new
    }

    /// How many helpers there are.
    pub fn helpers(&self) -> usize {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.pool {
            return pool.current_num_threads();
        }
        0
    }

    /// The calling thread's worker (the main thread's), locked until the
    /// guard is dropped.
    pub fn main(&self) -> MutexGuard<'_, Worker> {
        lock(&self.workers[0])
    }

    /// Runs `helper(i, worker)` for `i` in `1..threads` on the helpers,
    /// each on its own worker, and `main` on this thread and the main
    /// worker, and returns `main`'s result once every helper has returned.
    /// Threads beyond the helpers there are do not run (a search asks for
    /// at most [`Self::helpers`] `+ 1`).
    pub fn run<R>(
        &self,
        threads: usize,
        helper: &(dyn Fn(usize, &mut Worker) + Sync),
        main: impl FnOnce(&mut Worker) -> R,
    ) -> R {
        let extra = threads.saturating_sub(1).min(self.helpers());
        #[cfg(feature = "parallel")]
        if let Some(pool) = self.pool.as_ref().filter(|_| extra > 0) {
            return pool.in_place_scope(|scope| {
                for (i, worker) in self.workers.iter().enumerate().take(extra + 1).skip(1) {
                    scope.spawn(move |_| helper(i, &mut lock(worker)));
                }
                main(&mut self.main())
            });
        }
        let _ = (extra, helper);
        main(&mut self.main())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{DEFAULT_PARAMS, EvalCaches, EvalState};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    #[test]
    fn every_helper_runs_once_and_main_on_the_caller() {
        let workers = Workers::for_threads(3);
        let expected = 3.min(crate::search::cores()) - 1;
        assert_eq!(workers.helpers(), expected);
        for _ in 0..3 {
            let ran = AtomicUsize::new(0);
            let caller = std::thread::current().id();
            let on = workers.run(3, &|_, _| _ = ran.fetch_add(1, Relaxed), |_| {
                std::thread::current().id()
            });
            assert_eq!(on, caller);
            assert_eq!(ran.load(Relaxed), expected);
        }
        let none = Workers::none();
        assert_eq!(none.run(4, &|_, _| panic!("no helper"), |_| 7), 7);
    }

    /// Each thread searches on its own worker, the same one search after
    /// search, and the workers outlive a change of the thread count.
    #[test]
    fn each_thread_keeps_its_own_worker() {
        let address = |w: &mut Worker| w as *const Worker as usize;
        let workers = Workers::for_threads(3);
        let threads = workers.helpers() + 1;
        let seen = Mutex::new(vec![0; threads]);
        let mut first = Vec::new();
        for round in 0..3 {
            let main = workers.run(threads, &|i, w| seen.lock().unwrap()[i] = address(w), |w| {
                address(w)
            });
            let mut all = seen.lock().unwrap().clone();
            all[0] = main;
            let mut distinct = all.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), threads, "{all:?}");
            if round == 0 {
                first = all;
            } else {
                assert_eq!(all, first);
            }
        }
        // The main worker's evaluation state survives a change of the
        // thread count.
        let hand = |w: &Workers| matches!(w.main().eval, EvalState::Hand { .. });
        workers
            .main()
            .eval
            .use_hand(&DEFAULT_PARAMS, &EvalCaches::new());
        let fewer = Workers::for_threads_from(1, &workers);
        assert_eq!(fewer.helpers(), 0);
        assert!(hand(&fewer) && !hand(&workers));
        let more = Workers::for_threads_from(3, &fewer);
        assert!(hand(&more));
    }
}
