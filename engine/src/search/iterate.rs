//! Iterative deepening: one searcher searches the root one step deeper at a
//! time, reporting each completed iteration, until a limit, the target
//! depth or a proven result ends it.

use super::Info;
use super::control::{Control, Progress};
use super::score::{INFINITY, MATE_BOUND};
use super::thread::Searcher;
use super::tt::TranspositionTable;
use splut_rules::{Position, Step};
use std::sync::Mutex;
use std::time::Duration;

/// Where iterative deepening stands between two slices of a search run in
/// slices ([`Iteration::resume`]): the iteration to search next (the one a
/// pause cut short, searched again from its start with the table's help)
/// and what the completed ones found. The next slice goes on from there
/// instead of deepening from the first iteration again.
#[derive(Clone, Debug, Default)]
pub struct Resume {
    /// The iteration to search next (0: none searched yet).
    pub next_depth: u32,
    /// The value of the last completed iteration (its aspiration window's
    /// centre).
    pub last_value: Option<i32>,
    /// The report of the last completed iteration.
    pub best: Info,
    /// The aspiration window the paused iteration had come to, as
    /// `(alpha, beta, delta)`: it goes on with it rather than failing
    /// through the narrower ones again.
    pub window: Option<Window>,
}

/// An aspiration window and its next widening: `(alpha, beta, delta)`.
pub type Window = (i32, i32, i32);

/// What every thread of one alpha-beta-family search shares.
pub struct Iteration<'a> {
    /// The position searched.
    pub root: &'a Position,
    /// An analysis: keep deepening a proven result.
    pub infinite: bool,
    /// Stop flags, clock, node limit.
    pub control: &'a Control,
    /// Nodes counted by all threads.
    pub progress: &'a Progress,
    /// The shared table (for `hashfull`).
    pub tt: &'a TranspositionTable,
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Best turns to report (`MultiPV`).
    pub multi_pv: usize,
    /// Sample the table for `hashfull` ([`super::Settings::table_usage`]).
    pub table_usage: bool,
    /// A search run in slices: where the slices before left it, updated
    /// as iterations complete.
    pub resume: Option<&'a Mutex<Resume>>,
}

impl Iteration<'_> {
    /// The main thread's iterations: each completed one is reported; the
    /// last (or a cut-short one whose first root step was searched
    /// through) is returned. With `multi_pv` above 1 each iteration
    /// searches again for the next best turn, leaving out the turns found
    /// (a search that cannot leave turns out reports one).
    pub fn main(&self, w: &mut dyn Searcher, report: &mut dyn FnMut(&Info)) -> Info {
        let (control, soft) = (self.control, self.soft);
        let mut pos = *self.root;
        let lines = self.multi_pv.max(1);
        let mut state = self.resumed();
        let mut best = state.best.clone();
        let mut last_value = state.last_value;
        for depth in state.next_depth.max(1)..=self.max_depth {
            let from = state.window.take().filter(|_| state.next_depth == depth);
            state.next_depth = depth;
            let (value, window) = aspiration(w, &mut pos, depth as i32, last_value, from);
            let pv = w.root_pv();
            if w.stopped() {
                state.window = window;
                // A cut-short iteration still improves on the last one once
                // its first root step has been searched through.
                if depth > 1 && !pv.is_empty() {
                    best.pv = pv;
                }
                break;
            }
            last_value = Some(value);
            let multipv = u32::from(lines > 1);
            best = self.info(w, depth, value, pv, multipv);
            let more = if lines > 1 {
                self.more_lines(w, &mut pos, depth, &best, lines)
            } else {
                Vec::new()
            };
            report(&best);
            for info in &more {
                report(info);
            }
            state = Resume {
                next_depth: depth + 1,
                last_value,
                best: best.clone(),
                window: None,
            };
            let steps_left = u32::from(pos.steps_left());
            // An analysis (`infinite`) goes on deepening a proven result.
            if !self.infinite && best.score.is_decided() && depth >= steps_left {
                break;
            }
            if w.stopped() || soft.is_some_and(|s| control.past(s)) {
                break;
            }
        }
        if let Some(r) = self.resume
            && let Ok(mut r) = r.lock()
        {
            *r = state;
        }
        best
    }

    /// Where the slices before left the iterations (none: from the first).
    fn resumed(&self) -> Resume {
        self.resume
            .and_then(|r| r.lock().ok().map(|r| r.clone()))
            .unwrap_or_default()
    }

    /// The report of a completed search of `depth`.
    fn info(&self, w: &dyn Searcher, depth: u32, value: i32, pv: Vec<Step>, multipv: u32) -> Info {
        let nodes = self.progress.nodes() + w.nodes() % 1024;
        let ms = self.control.elapsed().as_millis() as u64;
        Info {
            depth,
            seldepth: w.seldepth() as u32,
            score: w.score(value),
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: if self.table_usage {
                self.tt.hashfull()
            } else {
                0
            },
            pv,
            multipv,
        }
    }

    /// `MultiPV`: the second to `lines`th best turns at `depth`, each
    /// searched with the turns before it left out, until none is left, the
    /// search is stopped or the searcher cannot leave turns out.
    fn more_lines(
        &self,
        w: &mut dyn Searcher,
        pos: &mut Position,
        depth: u32,
        first: &Info,
        lines: usize,
    ) -> Vec<Info> {
        let mut ends = vec![turn_end(pos, &first.pv)];
        let mut found = Vec::new();
        while found.len() + 1 < lines {
            if !w.exclude_turns(&ends) {
                break;
            }
            let value = w.search_root(pos, depth as i32);
            let pv = w.root_pv();
            if w.stopped() || value <= -INFINITY || pv.is_empty() {
                break;
            }
            ends.push(turn_end(pos, &pv));
            found.push((value, pv));
        }
        w.exclude_turns(&[]);
        // Each search leaves out the turns before it, but the table it
        // shares can let a later one score above an earlier: listed best
        // first, as a GUI expects (a stable sort keeps ties in search order).
        found.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
        found
            .into_iter()
            .enumerate()
            .map(|(i, (value, pv))| self.info(w, depth, value, pv, i as u32 + 2))
            .collect()
    }
}

/// First half-width of an aspiration window (centi-units; 100 and 300
/// measured no better: docs/results/strength.md).
const ASPIRATION_DELTA: i32 = 200;

/// Aspiration windows end once the half-width passes this: the full window.
const ASPIRATION_MAX: i32 = 4000;

/// One iteration of `depth`: from depth 4 on, first within a window
/// around the last iteration's value, widened on the failing side (twice
/// as wide each time) until the value falls inside. Proven results and
/// searchers without windows search the full window.
fn aspiration(
    w: &mut dyn Searcher,
    pos: &mut Position,
    depth: i32,
    last: Option<i32>,
    from: Option<Window>,
) -> (i32, Option<Window>) {
    let Some(last) = last.filter(|v| depth >= 4 && v.abs() < MATE_BOUND) else {
        return (w.search_root(pos, depth), None);
    };
    let (mut alpha, mut beta, mut delta) = from.unwrap_or((
        last - ASPIRATION_DELTA,
        last + ASPIRATION_DELTA,
        ASPIRATION_DELTA,
    ));
    loop {
        let Some(v) = w.search_root_window(pos, depth, alpha, beta) else {
            return (w.search_root(pos, depth), None);
        };
        if w.stopped() || (alpha <= -INFINITY && beta >= INFINITY) {
            return (v, Some((alpha, beta, delta)));
        }
        if v <= alpha {
            alpha = (v - delta).max(-INFINITY);
        } else if v >= beta {
            beta = (v + delta).min(INFINITY);
        } else {
            return (v, Some((alpha, beta, delta)));
        }
        delta = delta.saturating_mul(2);
        if delta > ASPIRATION_MAX {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// The hash of the position where `pv` ends the turn of `root`'s side to
/// move (or of where it stops, if it stops sooner).
fn turn_end(root: &Position, pv: &[Step]) -> u64 {
    super::complete_turn::turn_part(root, pv).1.hash()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::control::Progress;
    use crate::search::score::Score;
    use crate::search::thread::{ThreadState, Worker};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A searcher whose every search finds `value`, fail-soft within the
    /// window it is given, and that logs the windows.
    struct Fixed<'a> {
        value: i32,
        windows: Vec<(i32, i32)>,
        t: ThreadState<'a>,
    }

    impl Searcher for Fixed<'_> {
        fn search_root(&mut self, root: &mut Position, depth: i32) -> i32 {
            self.search_root_window(root, depth, -INFINITY, INFINITY)
                .unwrap()
        }
        fn search_root_window(&mut self, _: &mut Position, _: i32, a: i32, b: i32) -> Option<i32> {
            self.windows.push((a, b));
            // Fail-soft: a bound a little past the window's edge.
            Some(if self.value <= a {
                a - 7
            } else if self.value >= b {
                b + 7
            } else {
                self.value
            })
        }
        fn score(&self, value: i32) -> Score {
            crate::search::score::from_internal(value)
        }
        fn state(&self) -> &ThreadState<'_> {
            &self.t
        }
    }

    #[test]
    fn aspiration_windows_widen_until_the_value_is_inside() {
        let control = Control::new(Arc::new(AtomicBool::new(false)), None, None);
        let progress = Progress::default();
        let mut pos = Position::start(2).unwrap();
        let win = MATE_BOUND + 10;
        let mut worker = Worker::new();
        for (value, last, depth, searches) in [
            (30, Some(0), 5, 1),     // inside the first window
            (-1000, Some(0), 5, 4),  // fails low three times
            (2500, Some(100), 6, 5), // fails high four times
            (50_000, Some(0), 6, 6), // ends in the full window
            (win, Some(0), 6, 6),    // a proven win past every window
            (-win, Some(0), 6, 6),   // a proven loss
            (123, None, 6, 1),       // no last value: the full window
            (123, Some(0), 3, 1),    // shallow: the full window
            (123, Some(win), 6, 1),  // a proven last value: the full window
        ] {
            let mut w = Fixed {
                value,
                windows: Vec::new(),
                t: ThreadState::new(&mut worker, &control, &progress, true, false),
            };
            let (v, _) = aspiration(&mut w, &mut pos, depth, last, None);
            assert_eq!(v, value, "{value} from {last:?}: {:?}", w.windows);
            assert_eq!(
                w.windows.len(),
                searches,
                "{value} from {last:?}: {:?}",
                w.windows
            );
            let (a, b) = *w.windows.last().unwrap();
            assert!(a < value && value < b, "{:?}", w.windows);
        }
    }
}
