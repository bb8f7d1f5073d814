//! What every search thread keeps, whatever its algorithm: node count and
//! time checks, the principal variation table, killers and history — and the
//! [`Worker`] interface the iterative deepening drives.

use super::ordering::{History, Killers, MAX_PLY};
use super::score::Score;
use super::tt::TranspositionTable;
use super::{Control, Progress};
use crate::eval::nnue::Network;
use crate::eval::{EvalCaches, EvalParams, Evaluator};
use splut_rules::{Position, Step};

/// What every thread of one search shares: the table, the weights, the
/// limits and the node count, and the evaluation caches kept between
/// searches.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// The weights for the count of seats at the root.
    pub params: &'a EvalParams,
    /// Stop flags, clock and node limit.
    pub control: &'a Control,
    /// Nodes searched by every thread.
    pub progress: &'a Progress,
    /// Where a thread takes its evaluation cache and gives it back.
    pub eval_caches: &'a EvalCaches,
    /// The network, when it evaluates (else the weights do).
    pub net: Option<&'a Network>,
}

impl<'a> Shared<'a> {
    /// The evaluation these threads use.
    pub fn evaluator(&self) -> Evaluator<'a> {
        Evaluator {
            params: self.params,
            net: self.net,
        }
    }
}

thread_local! {
    /// The PV table of this thread's last search, for its next one: a
    /// table is 64 KiB, and zeroing a new one for each of datagen's
    /// searches of a few hundred nodes is about 1% of its time. Its
    /// contents need no clearing (`pv_len` says what is valid).
    static SPARE_PV: std::cell::Cell<Option<Vec<[Step; MAX_PLY]>>> =
        const { std::cell::Cell::new(None) };
}

/// One thread's bookkeeping.
pub struct ThreadState<'a> {
    control: &'a Control,
    progress: &'a Progress,
    /// The thread that keeps time and node limits.
    is_main: bool,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Set once the search must stop; results after that are discarded.
    pub stopped: bool,
    /// Quiet steps that cut off, per ply.
    pub killers: Killers,
    /// Cut-off statistics per step.
    pub history: History,
    pv: Vec<[Step; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl Drop for ThreadState<'_> {
    fn drop(&mut self) {
        SPARE_PV.set(Some(std::mem::take(&mut self.pv)));
    }
}

impl<'a> ThreadState<'a> {
    /// Fresh state for one search thread.
    pub fn new(control: &'a Control, progress: &'a Progress, is_main: bool) -> ThreadState<'a> {
        ThreadState {
            control,
            progress,
            is_main,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            killers: Killers::new(),
            history: History::new(),
            pv: SPARE_PV
                .take()
                .unwrap_or_else(|| vec![[Step::PASS; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        }
    }

    /// Starts an iteration.
    pub fn new_iteration(&mut self) {
        self.seldepth = 0;
        self.history.age();
    }

    /// Counts a node at `ply`; now and then publishes the count and (main
    /// thread) checks the clock; sets `stopped` once the search must stop.
    #[inline]
    pub fn node(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.is_main && self.control.node_limit_reached(self.nodes) {
            self.control.stop();
        }
        if self.nodes & 1023 == 0 {
            self.progress.add_nodes(1024);
            if self.is_main {
                self.control.check_time();
            }
        }
        if self.control.stopped() {
            self.stopped = true;
        }
    }

    /// Empties the variation of `ply` (on entering a node).
    #[inline]
    pub fn clear_pv(&mut self, ply: usize) {
        self.pv_len[ply] = 0;
    }

    /// `step` is the best at `ply` so far: its variation is `step` then the
    /// child's.
    pub fn update_pv(&mut self, ply: usize, step: Step) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = step;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The node at `ply` took no step of its own (best-reply search choosing
    /// a replying opponent): its variation is the child's.
    pub fn adopt_child_pv(&mut self, ply: usize) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][..child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// The principal variation from the root.
    pub fn root_pv(&self) -> &[Step] {
        &self.pv[0][..self.pv_len[0]]
    }
}

/// A search thread as the iterative deepening sees it.
pub trait Worker {
    /// Searches the root to `depth` steps; the value is the root side's.
    fn search_root(&mut self, root: &mut Position, depth: i32) -> i32;
    /// [`Self::search_root`] within the window `(alpha, beta)`: a value at
    /// or below `alpha` (at or above `beta`) is only a bound. None for a
    /// search that only searches the full window.
    fn search_root_window(
        &mut self,
        root: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let _ = (root, depth, alpha, beta);
        None
    }
    /// Leaves out of the next searches every line whose root turn ends in
    /// a position hashing to one of `ends` (`MultiPV`: the turns already
    /// reported); an empty list leaves out nothing. False for a search
    /// that cannot.
    fn exclude_turns(&mut self, ends: &[u64]) -> bool {
        let _ = ends;
        false
    }
    /// The value as the protocol shows it.
    fn score(&self, value: i32) -> Score;
    /// The thread's bookkeeping.
    fn state(&self) -> &ThreadState<'_>;

    /// The principal variation of the last iteration.
    fn root_pv(&self) -> Vec<Step> {
        self.state().root_pv().to_vec()
    }
    /// Nodes searched.
    fn nodes(&self) -> u64 {
        self.state().nodes
    }
    /// Deepest ply of the last iteration.
    fn seldepth(&self) -> usize {
        self.state().seldepth
    }
    /// Whether the last iteration was cut short.
    fn stopped(&self) -> bool {
        self.state().stopped
    }
}
