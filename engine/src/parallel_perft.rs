//! Perft split over threads with rayon.
//!
//! The tree is expanded breadth-first from the root until there are enough
//! subtrees to keep every thread busy (or the subtrees would be too shallow to
//! be worth a task); the subtrees are then counted in parallel with the
//! serial, bulk-counting perft and summed per root step.

use rayon::prelude::*;
use splut_rules::{Position, Step, divide_with, perft_interruptible, perft_with};
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest perft worth asking for (`splut perft`): beyond it a count
/// would never end, and the recursion (one step list per ply on the
/// stack) would overflow it.
pub const MAX_DEPTH: u32 = 64;

/// Tasks per thread to aim for: subtree sizes vary a lot, so many small
/// tasks balance better than one per thread.
const TASKS_PER_THREAD: usize = 64;

/// Subtrees shallower than this are not split further.
const MIN_TASK_DEPTH: u32 = 3;

/// The threads asked for could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    /// How many were asked for.
    pub threads: usize,
    /// The system's reason.
    pub reason: String,
}

impl std::fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start {} threads: {}", self.threads, self.reason)
    }
}

impl std::error::Error for ThreadsError {}

/// A subtree to count: the root step it is under (its index), its
/// position and the depth left.
type Task = (usize, Position, u32);

/// `tasks` expanded breadth-first until there are enough to keep
/// `threads` threads busy, or they would be too shallow to be worth a
/// task, or `go_on` answers `false`.
fn split(mut tasks: Vec<Task>, threads: usize, go_on: &dyn Fn() -> bool) -> Vec<Task> {
    while tasks.len() < TASKS_PER_THREAD * threads
        && tasks.iter().all(|t| t.2 > MIN_TASK_DEPTH)
        && go_on()
    {
        tasks = tasks
            .iter()
            .flat_map(|&(i, p, d)| {
                p.legal_step_vec()
                    .into_iter()
                    .map(move |s| (i, p.after(s), d - 1))
            })
            .collect();
    }
    tasks
}

/// A pool of `threads` threads.
fn pool(threads: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ThreadsError {
            threads,
            reason: e.to_string(),
        })
}

/// How the subtrees are counted.
fn count(pos: &Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        perft_with::<true>(pos, depth)
    } else {
        perft_with::<false>(pos, depth)
    }
}

/// The count below each legal root step (generation order), using `threads`
/// threads (1 runs serially on the calling thread). `bulk` counts the last
/// ply without making its steps.
pub fn divide(
    pos: &Position,
    depth: u32,
    threads: usize,
    bulk: bool,
) -> Result<Vec<(Step, u64)>, ThreadsError> {
    if threads <= 1 || depth == 0 {
        return Ok(if bulk {
            divide_with::<true>(pos, depth)
        } else {
            divide_with::<false>(pos, depth)
        });
    }
    let roots = pos.legal_step_vec();
    let tasks: Vec<Task> = roots
        .iter()
        .enumerate()
        .map(|(i, &s)| (i, pos.after(s), depth - 1))
        .collect();
    let tasks = split(tasks, threads, &|| true);
    let counts: Vec<(usize, u64)> = pool(threads)?.install(|| {
        tasks
            .par_iter()
            .map(|(i, p, d)| (*i, count(p, *d, bulk)))
            .collect()
    });
    let mut per_root = vec![0u64; roots.len()];
    for (i, n) in counts {
        per_root[i] += n;
    }
    Ok(roots.into_iter().zip(per_root).collect())
}

/// Perft on `threads` threads.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> Result<u64, ThreadsError> {
    if depth == 0 {
        return Ok(1);
    }
    Ok(divide(pos, depth, threads, true)?.iter().map(|x| x.1).sum())
}

/// [`perft_parallel`] that gives up (`Ok(None)`) once `stop` is set: every
/// subtree polls it every few thousand nodes ([`perft_interruptible`]) and
/// the subtrees not started by then are skipped. One thread, or a tree too
/// shallow to split, counts on the calling thread.
pub fn perft_parallel_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Option<u64>, ThreadsError> {
    let go_on = || !stop.load(Ordering::Relaxed);
    if threads <= 1 || depth <= MIN_TASK_DEPTH {
        return Ok(perft_interruptible(pos, depth, &mut { go_on }));
    }
    let tasks = split(vec![(0, *pos, depth)], threads, &go_on);
    let counts: Vec<Option<u64>> = pool(threads)?.install(|| {
        tasks
            .par_iter()
            .map(|(_, p, d)| go_on().then(|| perft_interruptible(p, *d, &mut { go_on }))?)
            .collect()
    });
    Ok(counts.into_iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_divide_equals_serial_divide() {
        for players in 2..=4 {
            let p = Position::start(players).unwrap();
            for depth in [1, 2, 5, 7] {
                let serial = splut_rules::divide(&p, depth);
                assert_eq!(divide(&p, depth, 1, true).unwrap(), serial);
                assert_eq!(
                    divide(&p, depth, 2, true).unwrap(),
                    serial,
                    "{players}p d{depth}"
                );
                assert_eq!(divide(&p, depth, 3, false).unwrap(), serial);
            }
        }
    }

    #[test]
    fn a_stoppable_perft_counts_as_perft_until_stopped() {
        let go = AtomicBool::new(false);
        for players in 2..=4 {
            let p = Position::start(players).unwrap();
            for (depth, threads) in [(0, 2), (3, 2), (5, 1), (6, 2), (6, 3)] {
                let n = perft_parallel_until(&p, depth, threads, &go).unwrap();
                assert_eq!(
                    n,
                    Some(splut_rules::perft(&p, depth)),
                    "{players}p d{depth}"
                );
            }
        }
        let stopped = AtomicBool::new(true);
        let p = Position::start(3).unwrap();
        // Deep enough that the serial count polls (every 4,096 interior
        // nodes) before it ends.
        assert_eq!(perft_parallel_until(&p, 9, 2, &stopped).unwrap(), None);
        assert_eq!(perft_parallel_until(&p, 9, 1, &stopped).unwrap(), None);
    }
}
