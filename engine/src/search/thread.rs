//! What every search thread keeps, whatever its algorithm: its
//! [`Worker`] (the principal variation table, killers, history and the
//! evaluation's state, kept between searches), the bookkeeping of one
//! search on it ([`ThreadState`]: node count and time checks), what a
//! search's threads share ([`Shared`]) — and the [`Searcher`] interface the
//! iterative deepening drives.

use super::ordering::{History, Killers, MAX_PLY};
use super::score::Score;
use super::tt::TranspositionTable;
use super::{Control, Progress};
use crate::eval::nnue::Network;
use crate::eval::{EvalCaches, EvalParams, EvalState, Evaluator};
use splut_rules::{Position, Step, StepList};
use std::sync::Arc;

/// What every thread of one search shares: the table, the weights, the
/// network, the limits and the node count.
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
    /// Hand-written evaluation caches that no [`Worker`] holds (set aside
    /// while its thread evaluates with the network), for a worker that
    /// needs one ([`EvalState::use_hand`]).
    pub eval_caches: &'a EvalCaches,
    /// The network, when it evaluates (else the weights do).
    pub net: Option<&'a Arc<Network>>,
    /// A later slice of a search run in slices, taken up where the one
    /// before paused: the workers keep their killers and history.
    pub resumed: bool,
}

impl<'a> Shared<'a> {
    /// The evaluation these threads use.
    pub fn evaluator(&self) -> Evaluator<'a> {
        Evaluator {
            params: self.params,
            net: self.net.map(|n| &**n),
        }
    }
}

/// A node of the tree (alpha-beta's or max-n's) on the way to where a
/// slice paused: what it had found, and the step it was searching. The
/// next slice, meeting the same node (same position, depth and window),
/// takes it up there instead of searching its steps again.
#[derive(Clone, Debug)]
pub struct PausedNode {
    /// The node's table key.
    pub key: u64,
    /// Its depth and window as it was entered.
    pub depth: i32,
    /// Its window's lower end as it was entered (max-n: the index of the
    /// seat its bound is of, -1 for none).
    pub alpha0: i32,
    /// Its window's upper end (max-n: the share of its bound).
    pub beta: i32,
    /// Its window's lower end when it paused (raised by better steps).
    pub alpha: i32,
    /// The best value found (max-n: `shares`).
    pub best: i32,
    /// Max-n's best shares found (valid with a `best_step`).
    pub shares: [i32; 4],
    /// The step giving `best`.
    pub best_step: Option<Step>,
    /// Steps searched through, not counting the one being searched (those
    /// left out by `MultiPV` not counted).
    pub searched: usize,
    /// Its steps in the order it searched them, so it goes on in that
    /// order (and judges a cut-off by the same steps before it).
    pub steps: Vec<Step>,
    /// Where in `steps` the one being searched when it paused is.
    pub index: usize,
    /// Which of its searches of that step ([`super::alphabeta`]'s scout:
    /// 0 the first, 1 the full-depth null-window one after a reduced
    /// one, 2 the full-window one) was under way.
    pub stage: u8,
    /// The node's variation when it paused.
    pub pv: Vec<Step>,
}

/// One search thread's own state, kept by [`super::Workers`] from one
/// search to the next (and from one slice to the next of a search run in
/// slices): the principal variation table, killers, history and the
/// evaluation's state. A search borrows it for its length
/// ([`ThreadState::new`]); what must survive between slices or searches
/// of this thread belongs here, what one search shares with its other
/// threads in [`Shared`].
pub struct Worker {
    /// Variations per ply: the last search's, not cleared (`pv_len` says
    /// what is valid). Kept, since zeroing a new 64 KiB table for each of
    /// datagen's searches of a few hundred nodes is about 1% of its time.
    pv: Vec<[Step; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Quiet steps that cut off, per ply (emptied as each search begins).
    pub killers: Killers,
    /// Cut-off statistics per step (emptied as each search begins, halved
    /// as each iteration does).
    pub history: History,
    /// The hand-written evaluation's cache or the network's accumulators,
    /// whichever this thread's searches evaluate with ([`EvalState`]).
    pub eval: EvalState,
    /// Where a slice of a search run in slices paused: the nodes on the
    /// way from the root to the step being searched, root first, for the
    /// next slice to descend straight back to ([`PausedNode`]).
    pub paused: Vec<PausedNode>,
}

impl Default for Worker {
    fn default() -> Self {
        Worker::new()
    }
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let eval = match self.eval {
            EvalState::Empty => "none",
            EvalState::Hand { .. } => "hand",
            EvalState::Network(_) => "network",
        };
        write!(f, "Worker(evaluation: {eval})")
    }
}

impl Worker {
    /// A thread's state before its first search (its evaluation's state
    /// is made by the first search that evaluates).
    pub fn new() -> Worker {
        Worker {
            pv: vec![[Step::PASS; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            killers: Killers::new(),
            history: History::new(),
            eval: EvalState::Empty,
            paused: Vec::new(),
        }
    }

    /// Readies the tables for a new search: no variation, killers or
    /// history (the evaluation's state is readied by the search, which
    /// knows how it evaluates). A search taken up again where an earlier
    /// slice of it paused would keep them instead.
    pub fn new_search(&mut self) {
        self.paused.clear();
        self.pv_len = [0; MAX_PLY];
        self.killers.clear();
        self.history.clear();
    }
}

/// One thread's bookkeeping for one search: its [`Worker`], borrowed for
/// the search, and the search's counts.
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
    /// A resumed slice: its first iteration is the one the slice before
    /// paused in, whose start already aged the history.
    resumed: bool,
    /// The thread's own tables and evaluation state.
    pub worker: &'a mut Worker,
}

impl<'a> ThreadState<'a> {
    /// A new search on `worker`'s thread ([`Worker::new_search`]), or a
    /// later slice of one (`resumed`: the killers and history of the
    /// slices before are kept, the variation emptied).
    pub fn new(
        worker: &'a mut Worker,
        control: &'a Control,
        progress: &'a Progress,
        is_main: bool,
        resumed: bool,
    ) -> ThreadState<'a> {
        if resumed {
            worker.pv_len = [0; MAX_PLY];
        } else {
            worker.new_search();
        }
        ThreadState {
            control,
            progress,
            is_main,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            resumed,
            worker,
        }
    }

    /// Starts an iteration (or a search of the root again in one): the
    /// history ages, but for the iteration a resumed slice takes up.
    pub fn new_iteration(&mut self) {
        self.seldepth = 0;
        if std::mem::take(&mut self.resumed) {
            return;
        }
        self.worker.history.age();
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
        self.worker.pv_len[ply] = 0;
    }

    /// `step` is the best at `ply` so far: its variation is `step` then the
    /// child's.
    pub fn update_pv(&mut self, ply: usize, step: Step) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let w = &mut *self.worker;
        let child_len = w.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = w.pv.split_at_mut(ply + 1);
        head[ply][0] = step;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        w.pv_len[ply] = child_len + 1;
    }

    /// The node at `ply` took no step of its own (best-reply search choosing
    /// a replying opponent): its variation is the child's.
    pub fn adopt_child_pv(&mut self, ply: usize) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let w = &mut *self.worker;
        let child_len = w.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = w.pv.split_at_mut(ply + 1);
        head[ply][..child_len].copy_from_slice(&tail[0][..child_len]);
        w.pv_len[ply] = child_len;
    }

    /// Whether the search stopped because its slice paused.
    pub fn paused(&self) -> bool {
        self.control.paused()
    }

    /// The node the last slice paused at next on its way down, if this is
    /// it (the same key, depth and window `(low, high)`): taken off the
    /// way, to be taken up where it paused. Any other node on the way
    /// means the way is no longer this search's: it is forgotten.
    #[cold]
    pub fn resume_here(
        &mut self,
        key: u64,
        depth: i32,
        (low, high): (i32, i32),
    ) -> Option<PausedNode> {
        let paused = &mut self.worker.paused;
        let next = paused.first()?;
        if (next.key, next.depth, next.alpha0, next.beta) == (key, depth, low, high) {
            Some(paused.remove(0))
        } else {
            paused.clear();
            None
        }
    }

    /// Puts back a node taken up where a slice paused (at `ply`): its
    /// steps, in the order it searched them, into `list`, and its
    /// variation.
    #[cold]
    pub fn take_up(&mut self, list: &mut StepList, ply: usize, node: &PausedNode) {
        list.clear();
        for &s in &node.steps {
            list.push(s);
        }
        self.set_pv(ply, &node.pv);
    }

    /// Leaves `node` (at `ply`, its variation taken from there) on the
    /// way a paused slice took, in front of its children's.
    #[cold]
    pub fn leave_paused(&mut self, ply: usize, node: PausedNode) {
        let node = PausedNode {
            pv: self.pv_at(ply).to_vec(),
            ..node
        };
        self.worker.paused.insert(0, node);
    }

    /// The variation at `ply`.
    pub fn pv_at(&self, ply: usize) -> &[Step] {
        &self.worker.pv[ply][..self.worker.pv_len[ply]]
    }

    /// Sets the variation at `ply` (a node taken up where it paused).
    pub fn set_pv(&mut self, ply: usize, line: &[Step]) {
        let len = line.len().min(MAX_PLY);
        self.worker.pv[ply][..len].copy_from_slice(&line[..len]);
        self.worker.pv_len[ply] = len;
    }

    /// The principal variation from the root.
    pub fn root_pv(&self) -> &[Step] {
        &self.worker.pv[0][..self.worker.pv_len[0]]
    }
}

/// One search on a thread, as the iterative deepening sees it: alpha-beta
/// (and best-reply search) or max-n, on the thread's [`Worker`].
pub trait Searcher {
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
