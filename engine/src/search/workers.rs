//! The engine's helper threads, kept from one search to the next: Lazy
//! SMP's helpers and parallel MCTS run on them, so a search starts no
//! thread of its own.
//!
//! With the feature `parallel` (the default) they are a rayon pool of
//! `threads - 1` threads, the search's own thread being the first. Without
//! it there are none and every search runs on the calling thread alone
//! (targets without threads, such as `wasm32-unknown-unknown`).

/// A search's helper threads: none, or a pool kept between searches.
/// Cloning shares the pool.
#[derive(Clone, Default)]
pub struct Workers {
    #[cfg(feature = "parallel")]
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({} helpers)", self.helpers())
    }
}

impl Workers {
    /// No helpers: searches run on the calling thread alone.
    pub fn none() -> Workers {
        Workers::default()
    }

    /// Helpers for searches of `threads` threads (the caller's among
    /// them), at most [`super::cores`]: `threads - 1` of them. Where the
    /// machine cannot start them (or without the feature `parallel`) there
    /// are none, and searches run on one thread.
    pub fn for_threads(threads: usize) -> Workers {
        let helpers = threads.clamp(1, super::cores()) - 1;
        #[cfg(feature = "parallel")]
        if helpers > 0 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(helpers)
                .thread_name(|i| format!("splut-helper-{i}"))
                .build()
                .ok();
            return Workers {
                pool: pool.map(std::sync::Arc::new),
            };
        }
        let _ = helpers;
        Workers::default()
    }

    /// How many helpers there are.
    pub fn helpers(&self) -> usize {
        #[cfg(feature = "parallel")]
        if let Some(pool) = &self.pool {
            return pool.current_num_threads();
        }
        0
    }

    /// Runs `helper(i)` for `i` in `1..threads` on the helpers and `main`
    /// on this thread, and returns `main`'s result once every helper has
    /// returned. Threads beyond the helpers there are do not run (a
    /// search asks for at most [`Self::helpers`] `+ 1`).
    pub fn run<R>(
        &self,
        threads: usize,
        helper: &(dyn Fn(usize) + Sync),
        main: impl FnOnce() -> R,
    ) -> R {
        let extra = threads.saturating_sub(1).min(self.helpers());
        #[cfg(feature = "parallel")]
        if let Some(pool) = self.pool.as_ref().filter(|_| extra > 0) {
            return pool.in_place_scope(|scope| {
                for i in 1..=extra {
                    scope.spawn(move |_| helper(i));
                }
                main()
            });
        }
        let _ = (extra, helper);
        main()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    #[test]
    fn every_helper_runs_once_and_main_on_the_caller() {
        let workers = Workers::for_threads(3);
        let expected = 3.min(crate::search::cores()) - 1;
        assert_eq!(workers.helpers(), expected);
        for _ in 0..3 {
            let ran = AtomicUsize::new(0);
            let caller = std::thread::current().id();
            let on = workers.run(3, &|_| _ = ran.fetch_add(1, Relaxed), || {
                std::thread::current().id()
            });
            assert_eq!(on, caller);
            assert_eq!(ran.load(Relaxed), expected);
        }
        assert_eq!(Workers::none().run(4, &|_| panic!("no helper"), || 7), 7);
    }
}
