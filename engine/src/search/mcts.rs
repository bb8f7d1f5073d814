//! Monte Carlo tree search for 2–4 players, and plain UCT.
//!
//! - The tree is over steps (the side to move changes only between turns);
//!   every node keeps one reward sum per seat and the seat to move picks the
//!   child best for itself (UCT with max-n style reward vectors).
//! - Playouts follow a cheap policy — take a throw that kills an opponent's
//!   sorcerer when there is one, otherwise a random step — and stop after a
//!   bounded number of steps, where the evaluation's shares score them.
//! - MCTS-Solver: a finished game is a proven result; a node whose seat to
//!   move has a proven winning child is won for it, and a node whose children
//!   are all proven wins for one seat is won for that seat.
//! - Progressive history: the average reward a step earned for its seat,
//!   anywhere in the tree, biases the choice among rarely tried children.
//! - Implicit minimax (`minimax_weight`, the `MctsMinimax` option): every
//!   node also keeps the evaluation backed up max-n style through its
//!   children, mixed into the selection value. Measured weaker than
//!   without (docs/results/strength.md, "MCTS"), so off by default.
//! - Parallel on rayon, two ways: *tree* parallelism (all threads share one
//!   tree; a visit counts as soon as a thread goes down a node, the "virtual
//!   loss" that spreads threads apart) and *root* parallelism (one tree per
//!   thread, their counts summed at the end).
//! - `uct-plain` is the same tree with every heuristic off: random playouts
//!   to the end of the game, rewards 1 for the winner and 0 otherwise.
//!
//! The whole turn comes from one tree: the most visited path while it
//! stays in the root's turn.

use super::SmallRng;
use super::score::Score;
use super::thread::Worker;
use super::workers::Workers;
use super::{Control, Info};
use crate::clock::Instant;
use crate::eval::nnue::Network;
use crate::eval::{EvalParams, Evaluator, SHARES_TOTAL};
use rand::{Rng, SeedableRng};
use splut_rules::{Position, Seat, Step, StepKind, StepList};
use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed,
};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// How threads share the work.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Parallel {
    /// One shared tree.
    Tree,
    /// One tree per thread, merged at the end.
    Root,
}

/// The knobs that tell MCTS from plain UCT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCT exploration constant.
    pub exploration: f64,
    /// Playout length in steps (0: the leaf itself is scored).
    pub playout_steps: u32,
    /// Score a playout that has not ended the game with the evaluation's
    /// shares; without it, such a playout is an even split among the seats
    /// left.
    pub use_eval: bool,
    /// Take a throw that kills an opponent when there is one, in playouts
    /// and in the tree (a node with such throws has only them as children:
    /// "decisive moves").
    pub kill_policy: bool,
    /// Prove wins and losses.
    pub solver: bool,
    /// Weight of progressive history (0: off).
    pub history_weight: f64,
    /// Weight of the implicit minimax value against the mean reward in
    /// the selection (0: off).
    pub minimax_weight: f64,
    /// How threads share the work.
    pub parallel: Parallel,
}

/// The engine's MCTS.
pub const MCTS: MctsConfig = MctsConfig {
    exploration: 0.3,
    playout_steps: 6,
    use_eval: true,
    kill_policy: true,
    solver: true,
    history_weight: 1.0,
    minimax_weight: 0.0,
    parallel: Parallel::Tree,
};

/// Plain UCT: the generic game-playing baseline.
pub const UCT_PLAIN: MctsConfig = MctsConfig {
    exploration: std::f64::consts::SQRT_2,
    playout_steps: PLAYOUT_CAP,
    use_eval: false,
    kill_policy: false,
    solver: false,
    history_weight: 0.0,
    minimax_weight: 0.0,
    parallel: Parallel::Tree,
};

/// Plain UCT's playouts: to the end of the game, or this many steps.
pub const PLAYOUT_CAP: u32 = 600;

const NONE: u8 = u8::MAX;
const NO_VALUE: u64 = u64::MAX;
const UNEXPANDED: u64 = u64::MAX;
/// Rewards are summed as fixed point.
const SCALE: f64 = 1_000_000.0;
const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

// One cache line each (64 bytes either way), so a node never spans two
// lines that threads write.
#[repr(align(64))]
struct Node {
    step: AtomicU32,
    /// First child index (low 32 bits) and child count (high 32), or
    /// `UNEXPANDED`.
    children: AtomicU64,
    state: AtomicU8,
    /// Proven winner, or `NONE`.
    proven: AtomicU8,
    /// The children are only the killing throws (decisive moves), so they
    /// cannot prove a loss for the seat to move.
    partial: AtomicBool,
    visits: AtomicU32,
    reward: [AtomicU64; 4],
    /// Implicit minimax value: the evaluation's shares (4 × u16) backed
    /// up max-n style through the visited children, or `NO_VALUE`.
    minimax: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Node>() == 64);

impl Node {
    fn new() -> Node {
        Node {
            step: AtomicU32::new(0),
            children: AtomicU64::new(UNEXPANDED),
            state: AtomicU8::new(LEAF),
            proven: AtomicU8::new(NONE),
            partial: AtomicBool::new(false),
            visits: AtomicU32::new(0),
            reward: std::array::from_fn(|_| AtomicU64::new(0)),
            minimax: AtomicU64::new(NO_VALUE),
        }
    }

    fn children(&self) -> Option<(usize, usize)> {
        let c = self.children.load(std::sync::atomic::Ordering::Acquire);
        (c != UNEXPANDED).then_some(((c & 0xFFFF_FFFF) as usize, (c >> 32) as usize))
    }

    fn mean(&self, seat: Seat) -> f64 {
        let n = self.visits.load(Relaxed);
        if n == 0 {
            return 0.0;
        }
        self.reward[seat.index()].load(Relaxed) as f64 / SCALE / f64::from(n)
    }

    fn minimax(&self) -> Option<u64> {
        let v = self.minimax.load(Relaxed);
        (v != NO_VALUE).then_some(v)
    }

    fn proven(&self) -> Option<Seat> {
        let p = self.proven.load(Relaxed);
        (p != NONE).then(|| Seat::from_index(p))
    }
}

/// Progressive history: reward sums and counts per (seat, step). Each
/// thread keeps its own: a shared table took an atomic add per tree level
/// on lines every thread writes, and cost tree parallelism its speed.
struct HistoryTable {
    sum: Vec<u64>,
    count: Vec<u32>,
}

impl HistoryTable {
    fn new() -> HistoryTable {
        let n = 4 * 41 * 4 * 8;
        HistoryTable {
            sum: vec![0; n],
            count: vec![0; n],
        }
    }

    fn index(seat: Seat, step: Step) -> usize {
        ((seat.index() * 41 + step.from().index()) * 4 + step.direction().index()) * 8
            + step.kind() as usize
    }

    fn add(&mut self, seat: Seat, step: Step, reward: f64) {
        let i = Self::index(seat, step);
        self.sum[i] += (reward * SCALE) as u64;
        self.count[i] += 1;
    }

    fn mean(&self, seat: Seat, step: Step) -> f64 {
        let i = Self::index(seat, step);
        let n = self.count[i];
        if n == 0 {
            0.5
        } else {
            self.sum[i] as f64 / SCALE / f64::from(n)
        }
    }
}

/// Nodes per arena chunk (1 MiB): chunks are allocated when first used,
/// so a search pays only for the tree it grows.
const CHUNK_BITS: usize = 14;
const CHUNK: usize = 1 << CHUNK_BITS;

/// One search tree in a fixed-capacity arena.
pub struct Tree {
    chunks: Vec<OnceLock<Box<[Node]>>>,
    capacity: usize,
    next: AtomicUsize,
    root: Position,
    /// Simulations run.
    pub simulations: AtomicU64,
    max_depth: AtomicU32,
}

/// The seat a reward goes to when a game is scored: winner takes all, or
/// evaluation shares, or an even split of a cut-off game.
fn rewards(pos: &Position, eval: Evaluator<'_>, use_eval: bool) -> [f64; 4] {
    let mut r = [0.0; 4];
    if let Some(w) = pos.winner() {
        r[w.index()] = 1.0;
    } else if use_eval {
        let shares = eval.shares(pos);
        for (ri, s) in r.iter_mut().zip(shares) {
            *ri = f64::from(s) / f64::from(SHARES_TOTAL);
        }
    } else {
        let n = f64::from(pos.players_left());
        for s in pos.seats_in_game() {
            r[s.index()] = 1.0 / n;
        }
    }
    r
}

/// Shares (each within 0..=`SHARES_TOTAL`) packed 16 bits a seat.
fn pack(shares: [i32; 4]) -> u64 {
    shares.iter().enumerate().fold(0, |acc, (i, &v)| {
        acc | (v.clamp(0, SHARES_TOTAL) as u64) << (16 * i)
    })
}

/// The shares of a game `w` has won.
fn won_by(w: Seat) -> [i32; 4] {
    let mut shares = [0; 4];
    shares[w.index()] = SHARES_TOTAL;
    shares
}

/// One seat's share of a packed value, as a fraction.
fn share_of(packed: u64, seat: Seat) -> f64 {
    ((packed >> (16 * seat.index())) & 0xFFFF) as f64 / f64::from(SHARES_TOTAL)
}

fn kills_opponent(pos: &Position, step: Step) -> bool {
    step.kind() == StepKind::Throw
        && pos
            .throw_victim(step)
            .is_some_and(|v| v != pos.side_to_move())
}

impl Tree {
    /// A tree for `root` with room for `capacity` nodes.
    pub fn new(root: &Position, capacity: usize) -> Tree {
        let capacity = capacity.max(CHUNK);
        Tree {
            chunks: (0..capacity.div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            next: AtomicUsize::new(1),
            root: *root,
            simulations: AtomicU64::new(0),
            max_depth: AtomicU32::new(0),
        }
    }

    #[inline]
    fn node(&self, i: usize) -> &Node {
        let chunk =
            self.chunks[i >> CHUNK_BITS].get_or_init(|| (0..CHUNK).map(|_| Node::new()).collect());
        &chunk[i & (CHUNK - 1)]
    }

    /// Arena use, permille.
    fn used_permille(&self) -> u32 {
        (self.next.load(Relaxed).min(self.capacity) * 1000 / self.capacity) as u32
    }

    /// Node count that fits in `mib` mebibytes.
    pub fn capacity_for(mib: usize) -> usize {
        mib.max(1) * (1 << 20) / std::mem::size_of::<Node>()
    }

    /// Creates the children of `n`: all legal steps of `pos` shuffled,
    /// killing throws first — or, with the kill policy, the killing throws
    /// alone when there are any. Returns false if another thread is doing
    /// it or the arena is full.
    fn expand(&self, n: usize, pos: &Position, rng: &mut SmallRng, cfg: &MctsConfig) -> bool {
        let node = self.node(n);
        if node
            .state
            .compare_exchange(LEAF, EXPANDING, Relaxed, Relaxed)
            .is_err()
        {
            return false;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let steps = list.as_mut_slice();
        // Fisher-Yates, then stable partition of the killing throws.
        for i in (1..steps.len()).rev() {
            let j = rng.random_range(0..=i);
            steps.swap(i, j);
        }
        steps.sort_by_key(|&s| !kills_opponent(pos, s));
        let kills = steps
            .iter()
            .take_while(|&&s| kills_opponent(pos, s))
            .count();
        let count = if cfg.kill_policy && kills > 0 {
            kills
        } else {
            steps.len()
        };
        let first = self.next.fetch_add(count, Relaxed);
        if first + count > self.capacity {
            // Full: stay a leaf for good.
            node.state.store(EXPANDED, Relaxed);
            return false;
        }
        for (i, &s) in steps.iter().take(count).enumerate() {
            self.node(first + i).step.store(s.to_bits(), Relaxed);
        }
        node.partial.store(count < steps.len(), Relaxed);
        node.children.store(
            first as u64 | (count as u64) << 32,
            std::sync::atomic::Ordering::Release,
        );
        node.state.store(EXPANDED, Relaxed);
        true
    }

    fn select(
        &self,
        n: usize,
        pos: &Position,
        cfg: &MctsConfig,
        history: &HistoryTable,
    ) -> Option<usize> {
        let (first, count) = self.node(n).children()?;
        let me = pos.side_to_move();
        let parent_visits = f64::from(self.node(n).visits.load(Relaxed).max(1));
        let log_n = parent_visits.ln();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for c in first..first + count {
            let child = self.node(c);
            if cfg.solver && child.proven() == Some(me) {
                return Some(c);
            }
            let visits = child.visits.load(Relaxed);
            let value = if visits == 0 {
                // Untried children first, in their shuffled order.
                1e9 - (c - first) as f64
            } else {
                // A child proven won by another seat is worth nothing to me.
                let q = match child.proven() {
                    Some(_) if cfg.solver => 0.0,
                    _ => match child.minimax() {
                        Some(m) if cfg.minimax_weight > 0.0 => {
                            (1.0 - cfg.minimax_weight) * child.mean(me)
                                + cfg.minimax_weight * share_of(m, me)
                        }
                        _ => child.mean(me),
                    },
                };
                let n = f64::from(visits);
                let mut v = q + cfg.exploration * (log_n / n).sqrt();
                if cfg.history_weight > 0.0 {
                    let step = Step::from_bits(child.step.load(Relaxed)).unwrap_or(Step::PASS);
                    let h = history.mean(me, step);
                    v += cfg.history_weight * h / (n * (1.0 - q) + 1.0);
                }
                v
            };
            if value > best_value {
                best_value = value;
                best = Some(c);
            }
        }
        best
    }

    /// Marks `n` proven if its children decide it.
    fn try_prove(&self, n: usize, pos: &Position) {
        let Some((first, count)) = self.node(n).children() else {
            return;
        };
        let me = pos.side_to_move();
        let kids = || (first..first + count).map(|c| self.node(c).proven());
        // A winning step for the seat to move decides the node...
        if kids().any(|p| p == Some(me)) {
            self.node(n).proven.store(me as u8, Relaxed);
            return;
        }
        // ...and so do children all won by one and the same seat, when
        // they are all the steps there are.
        if self.node(n).partial.load(Relaxed) {
            return;
        }
        let first_winner = kids().next().flatten();
        if let Some(w) = first_winner
            && kids().all(|p| p == Some(w))
        {
            self.node(n).proven.store(w as u8, Relaxed);
        }
    }

    /// One simulation: select, expand, play out, back up.
    fn simulate(
        &self,
        cfg: &MctsConfig,
        eval: Evaluator<'_>,
        rng: &mut SmallRng,
        path: &mut Vec<(usize, Position)>,
        history: &mut HistoryTable,
    ) {
        path.clear();
        let mut n = 0;
        let mut pos = self.root;
        self.node(0).visits.fetch_add(1, Relaxed);
        loop {
            path.push((n, pos));
            if pos.is_game_over() {
                if cfg.solver
                    && let Some(w) = pos.winner()
                {
                    self.node(n).proven.store(w as u8, Relaxed);
                }
                break;
            }
            if cfg.solver && self.node(n).proven().is_some() {
                break;
            }
            if self.node(n).state.load(Relaxed) != EXPANDED {
                // A leaf: expand it on its second visit (or at the root).
                if self.node(n).visits.load(Relaxed) > 1 || n == 0 {
                    self.expand(n, &pos, rng, cfg);
                }
                if self.node(n).children().is_none() {
                    break;
                }
            }
            let Some(c) = self.select(n, &pos, cfg, history) else {
                break;
            };
            // Counting the visit now is the virtual loss other threads see.
            self.node(c).visits.fetch_add(1, Relaxed);
            let step = Step::from_bits(self.node(c).step.load(Relaxed)).unwrap_or(Step::PASS);
            pos.play(step);
            n = c;
        }
        // A plain load first: an unconditional read-modify-write here
        // would bounce the cache line between threads every simulation.
        let depth = path.len() as u32 - 1;
        if depth > self.max_depth.load(Relaxed) {
            self.max_depth.fetch_max(depth, Relaxed);
        }
        let leaf = pos;
        let reward = match self.node(n).proven() {
            Some(w) => {
                let mut r = [0.0; 4];
                r[w.index()] = 1.0;
                r
            }
            None => self.playout(leaf, cfg, eval, rng),
        };
        if cfg.minimax_weight > 0.0 && self.node(n).minimax().is_none() {
            let value = match self.node(n).proven() {
                Some(w) => won_by(w),
                None => eval.shares(&leaf),
            };
            self.node(n).minimax.store(pack(value), Relaxed);
        }
        for i in (0..path.len()).rev() {
            let (node, ref before) = path[i];
            for (s, &r) in reward.iter().enumerate() {
                if r > 0.0 {
                    self.node(node).reward[s].fetch_add((r * SCALE) as u64, Relaxed);
                }
            }
            if i > 0 {
                let (_, parent_pos) = &path[i - 1];
                let mover = parent_pos.side_to_move();
                if cfg.history_weight > 0.0 {
                    let step =
                        Step::from_bits(self.node(node).step.load(Relaxed)).unwrap_or(Step::PASS);
                    history.add(mover, step, reward[mover.index()]);
                }
            }
            if cfg.solver && self.node(node).proven().is_none() {
                self.try_prove(node, before);
            }
            if cfg.minimax_weight > 0.0 && i + 1 < path.len() {
                self.back_up_minimax(node, before);
            }
        }
    }

    /// Sets the implicit minimax value of `n` from its children: the one
    /// best for the seat to move (max-n), once they all have a value — a
    /// maximum over some of them would say more about which were tried
    /// than about the node, so until then `n` keeps its own evaluation.
    fn back_up_minimax(&self, n: usize, pos: &Position) {
        let Some((first, count)) = self.node(n).children() else {
            return;
        };
        let me = pos.side_to_move();
        let mut best: Option<u64> = None;
        for c in first..first + count {
            let child = self.node(c);
            let Some(v) = child.proven().map(|w| pack(won_by(w))).or(child.minimax()) else {
                return;
            };
            if best.is_none_or(|b| share_of(v, me) > share_of(b, me)) {
                best = Some(v);
            }
        }
        if let Some(v) = best {
            self.node(n).minimax.store(v, Relaxed);
        }
    }

    fn playout(
        &self,
        mut pos: Position,
        cfg: &MctsConfig,
        eval: Evaluator<'_>,
        rng: &mut SmallRng,
    ) -> [f64; 4] {
        let mut list = StepList::new();
        for _ in 0..cfg.playout_steps {
            if pos.is_game_over() {
                break;
            }
            pos.legal_steps(&mut list);
            let step = if cfg.kill_policy {
                list.iter().copied().find(|&s| kills_opponent(&pos, s))
            } else {
                None
            }
            .unwrap_or_else(|| list[rng.random_range(0..list.len())]);
            pos.play(step);
        }
        rewards(&pos, eval, cfg.use_eval)
    }

    /// Visit counts of the children of the node reached by `path` from the
    /// root, by step (`None` if the path leaves the expanded tree).
    fn children_along(&self, path: &[Step]) -> Option<Vec<ChildStats>> {
        let mut n = 0;
        let mut pos = self.root;
        for &s in path {
            let (first, count) = self.node(n).children()?;
            n = (first..first + count).find(|&c| self.node(c).step.load(Relaxed) == s.to_bits())?;
            pos.play(s);
        }
        let (first, count) = self.node(n).children()?;
        let me = pos.side_to_move();
        Some(
            (first..first + count)
                .map(|c| {
                    let node = self.node(c);
                    let step = Step::from_bits(node.step.load(Relaxed)).unwrap_or(Step::PASS);
                    ChildStats {
                        step,
                        visits: u64::from(node.visits.load(Relaxed)),
                        proven: node.proven(),
                        mean: node.mean(me),
                    }
                })
                .collect(),
        )
    }
}

/// What the line choice needs to know about a child.
#[derive(Clone, Copy)]
struct ChildStats {
    step: Step,
    visits: u64,
    proven: Option<Seat>,
    /// Mean reward for the seat to move at the parent.
    mean: f64,
}

/// The most visited line through all `trees` (visits summed by step), as
/// long as some tree has visited it; with the root's value.
fn best_line(trees: &[Tree], root: &Position, solver: bool) -> (Vec<Step>, f64, Option<Seat>) {
    let mut line = Vec::new();
    let mut pos = *root;
    let mut root_q = 0.0;
    let mut root_proven = None;
    while !pos.is_game_over() && line.len() < 64 {
        let mut sums: Vec<ChildStats> = Vec::new();
        for t in trees {
            for c in t.children_along(&line).unwrap_or_default() {
                match sums.iter_mut().find(|e| e.step == c.step) {
                    Some(e) => {
                        let n = (e.visits + c.visits).max(1) as f64;
                        e.mean = (e.mean * e.visits as f64 + c.mean * c.visits as f64) / n;
                        e.visits += c.visits;
                        e.proven = e.proven.or(c.proven);
                    }
                    None => sums.push(c),
                }
            }
        }
        let me = pos.side_to_move();
        // A proven win is played at once; otherwise the most visited.
        let pick = sums
            .iter()
            .find(|e| solver && e.proven == Some(me))
            .or_else(|| {
                sums.iter()
                    .filter(|e| e.visits > 0)
                    .max_by_key(|e| e.visits)
            });
        let Some(&c) = pick else {
            break;
        };
        if line.is_empty() {
            root_q = c.mean;
            root_proven = c.proven;
        }
        line.push(c.step);
        pos.play(c.step);
    }
    (line, root_q, root_proven)
}

/// Whether playing `line` from `root` ends the game.
fn ends_the_game(root: &Position, line: &[Step]) -> bool {
    let mut pos = *root;
    for &s in line {
        if pos.is_game_over() || !pos.is_legal(s) {
            return false;
        }
        pos.play(s);
    }
    !line.is_empty() && pos.is_game_over()
}

/// One MCTS (or plain UCT) search: its configuration, threads and limits.
pub struct MctsRun<'a> {
    /// The search's constants.
    pub cfg: &'a MctsConfig,
    /// The evaluation's weights (playouts are scored by them)...
    pub params: &'a EvalParams,
    /// ...or by the network, when it evaluates.
    pub net: Option<&'a Network>,
    /// Threads (at least 1; this one and `threads - 1` of `workers`).
    pub threads: usize,
    /// The engine's helper threads.
    pub workers: &'a Workers,
    /// Seed of the first thread's random numbers.
    pub seed: u64,
    /// Memory for the tree(s), MiB.
    pub tree_mib: usize,
    /// Stop flags and clock.
    pub control: &'a Control,
    /// When no more simulations are started.
    pub soft: Option<Duration>,
    /// Most simulations (`go nodes`).
    pub max_simulations: Option<u64>,
    /// Stop once the best line is this deep (`go depth`).
    pub max_depth: Option<u32>,
    /// Where a search run in slices keeps its trees between them; `None`:
    /// the trees are this run's alone.
    pub kept: Option<&'a Kept>,
}

/// The trees of a search run in slices (`PreparedSearch::run_slice`),
/// kept from one slice to the next with each thread's random numbers and
/// progressive history, so that every slice goes on growing the same
/// tree: with one thread and a simulation cap, the slices grow exactly
/// the tree one run grows. Empty until the first slice.
#[derive(Default)]
pub struct Kept(Mutex<Option<Forest>>);

/// What one search's threads work on: its trees and each thread's state.
struct Forest {
    trees: Vec<Tree>,
    /// Each thread's random numbers and history (index 0 the main one).
    threads: Vec<Mutex<Walker>>,
    /// When the main thread last reported.
    last_report: Instant,
}

/// The main thread's reports: where they go, and when it last made one.
type Reporting<'a> = (&'a mut dyn FnMut(&Info), &'a mut Instant);

/// One thread's own state.
struct Walker {
    rng: SmallRng,
    history: HistoryTable,
}

impl Forest {
    /// Fresh trees for `root` and states for `threads` threads.
    fn new(root: &Position, run: &MctsRun, threads: usize) -> Forest {
        let trees = match run.cfg.parallel {
            Parallel::Tree => vec![Tree::new(root, Tree::capacity_for(run.tree_mib))],
            Parallel::Root => (0..threads)
                .map(|_| Tree::new(root, Tree::capacity_for(run.tree_mib) / threads))
                .collect(),
        };
        let threads = (0..threads)
            .map(|i| {
                Mutex::new(Walker {
                    rng: SmallRng::seed_from_u64(run.seed.wrapping_add(i as u64 * 0x9E37_79B9)),
                    history: HistoryTable::new(),
                })
            })
            .collect();
        Forest {
            trees,
            threads,
            last_report: Instant::now(),
        }
    }
}

/// Runs MCTS (or plain UCT) on `root` as `run` says; returns the final
/// report. Reproducible with one thread, a seed and a simulation cap.
/// With [`MctsRun::kept`] it goes on with the trees kept there (a slice
/// of a longer search): its report counts this run's simulations, and a
/// run that pauses ([`Control::paused`]) reports nothing at its end.
pub fn run(root: &Position, run: &MctsRun, report: &mut dyn FnMut(&Info)) -> Info {
    let threads = run.threads.clamp(1, run.workers.helpers() + 1);
    let mut kept = run
        .kept
        .map(|k| k.0.lock().unwrap_or_else(|p| p.into_inner()));
    let mut own = None;
    let forest: &mut Forest = match kept.as_deref_mut() {
        Some(slot) => slot.get_or_insert_with(|| Forest::new(root, run, threads)),
        None => own.insert(Forest::new(root, run, threads)),
    };
    let threads = threads.min(forest.threads.len());
    let base = MctsRun::total(&forest.trees);
    let (trees, walkers) = (&forest.trees, &forest.threads);
    let last_report = &mut forest.last_report;
    let tree_of = |i: usize| match run.cfg.parallel {
        Parallel::Tree => &trees[0],
        Parallel::Root => &trees[i],
    };
    let work = |i: usize, report: Option<Reporting<'_>>| {
        let mut walker = walkers[i].lock().unwrap_or_else(|p| p.into_inner());
        run.work(trees, tree_of(i), root, base, &mut walker, report)
    };
    // MCTS keeps its state in the trees: the threads' workers are unused.
    let helper = |i: usize, _: &mut Worker| work(i, None);
    run.workers
        .run(threads, &helper, |_| work(0, Some((report, last_report))));
    let info = run.summary(trees, root, base);
    if !run.control.paused() {
        report(&info);
    }
    info
}

impl MctsRun<'_> {
    /// Simulations in all the trees.
    fn total(trees: &[Tree]) -> u64 {
        trees.iter().map(|t| t.simulations.load(Relaxed)).sum()
    }

    /// Whether a thread working on `t` stops: `local` is its simulations,
    /// `pending` those of them not yet added to the tree's count; the
    /// clock and the depth are read now and then.
    /// `base` simulations were run before this run.
    fn done(
        &self,
        trees: &[Tree],
        t: &Tree,
        root: &Position,
        base: u64,
        local: u64,
        pending: u64,
    ) -> bool {
        let control = self.control;
        if control.stopped() {
            return true;
        }
        if self
            .max_simulations
            .is_some_and(|m| Self::total(trees) - base + pending >= m)
        {
            return true;
        }
        if self.cfg.solver && t.node(0).proven().is_some() {
            return true;
        }
        if local.is_multiple_of(64) {
            control.check_time();
            if self.soft.is_some_and(|s| control.past(s)) {
                return true;
            }
            if let Some(d) = self.max_depth {
                let (line, _, _) = best_line(std::slice::from_ref(t), root, self.cfg.solver);
                // A line that ends the game cannot grow: it is as deep as
                // it gets (plain UCT has no solver to prove it).
                if line.len() as u32 >= d || ends_the_game(root, &line) {
                    return true;
                }
            }
        }
        false
    }

    /// The report on the search so far, counting the simulations after
    /// the first `base`.
    fn summary(&self, trees: &[Tree], root: &Position, base: u64) -> Info {
        let (pv, q, proven) = best_line(trees, root, self.cfg.solver);
        let me = root.side_to_move();
        let score = match proven {
            Some(w) if w == me => Score::Win(turns_of(root, &pv)),
            Some(_) => Score::Loss(turns_of(root, &pv)),
            None => Score::Cp(
                (q * f64::from(SHARES_TOTAL)) as i32
                    - SHARES_TOTAL / root.players_left().max(1) as i32,
            ),
        };
        let sims = Self::total(trees) - base;
        let ms = self.control.elapsed().as_millis() as u64;
        Info {
            depth: pv.len() as u32,
            seldepth: trees
                .iter()
                .map(|t| t.max_depth.load(Relaxed))
                .max()
                .unwrap_or(0),
            score,
            nodes: sims,
            nps: sims * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: trees.iter().map(Tree::used_permille).max().unwrap_or(0),
            pv,
            multipv: 0,
        }
    }

    /// One thread's simulations on `tree` with its `walker`; the main
    /// thread (with `report`, and when it last reported) reports every
    /// second and stops the others when it is done. Counts are added to
    /// the shared total in batches, to spare the cache line.
    fn work(
        &self,
        trees: &[Tree],
        tree: &Tree,
        root: &Position,
        base: u64,
        walker: &mut Walker,
        mut report: Option<Reporting<'_>>,
    ) {
        const BATCH: u64 = 16;
        let Walker { rng, history } = walker;
        let mut path = Vec::new();
        let (mut local, mut added) = (0, 0);
        while !self.done(trees, tree, root, base, local, local - added) {
            let eval = Evaluator {
                params: self.params,
                net: self.net,
            };
            tree.simulate(self.cfg, eval, rng, &mut path, history);
            local += 1;
            if local - added == BATCH {
                tree.simulations.fetch_add(BATCH, Relaxed);
                added = local;
                if let Some((report, last_report)) = report.as_mut()
                    && last_report.elapsed() >= Duration::from_secs(1)
                {
                    report(&self.summary(trees, root, base));
                    **last_report = Instant::now();
                }
            }
        }
        tree.simulations.fetch_add(local - added, Relaxed);
        if report.is_some() {
            self.control.stop();
        }
    }
}

/// Game turns from `root` to the end of `line`, counting the current one.
fn turns_of(root: &Position, line: &[Step]) -> u32 {
    let mut pos = *root;
    for &s in line {
        if pos.is_game_over() {
            break;
        }
        pos.play(s);
    }
    pos.turn().saturating_sub(root.turn()).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simulations(tree: &Tree, cfg: &MctsConfig, n: usize) {
        let params = EvalParams::default();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut path = Vec::new();
        let mut history = HistoryTable::new();
        for _ in 0..n {
            let eval = Evaluator {
                params: &params,
                net: None,
            };
            tree.simulate(cfg, eval, &mut rng, &mut path, &mut history);
        }
    }

    /// Every node of the subtree under `n` (position `pos`) whose children
    /// all have a value holds the best of them for its seat to move.
    fn check_minimax(tree: &Tree, n: usize, pos: &Position, checked: &mut usize) {
        let Some((first, count)) = tree.node(n).children() else {
            return;
        };
        let me = pos.side_to_move();
        let values: Option<Vec<u64>> = (first..first + count)
            .map(|c| {
                let child = tree.node(c);
                child.proven().map(|w| pack(won_by(w))).or(child.minimax())
            })
            .collect();
        if let Some(values) = values
            && tree.node(n).proven().is_none()
        {
            let best = values
                .iter()
                .map(|&v| share_of(v, me))
                .fold(f64::NEG_INFINITY, f64::max);
            let mine = tree.node(n).minimax().map(|v| share_of(v, me));
            assert_eq!(mine, Some(best), "node {n} at {}", pos.to_spn());
            *checked += 1;
        }
        for c in first..first + count {
            let step = Step::from_bits(tree.node(c).step.load(Relaxed)).unwrap();
            assert!(pos.is_legal(step));
            check_minimax(tree, c, &pos.after(step), checked);
        }
    }

    #[test]
    fn implicit_minimax_values_are_the_max_n_backup_of_the_children() {
        for players in [2, 3, 4] {
            let root = Position::start(players).unwrap();
            let cfg = MctsConfig {
                minimax_weight: 0.5,
                ..MCTS
            };
            let tree = Tree::new(&root, 1 << 20);
            simulations(&tree, &cfg, 3000);
            let mut checked = 0;
            check_minimax(&tree, 0, &root, &mut checked);
            assert!(checked > 10, "{players} players: {checked} nodes checked");
        }
    }

    #[test]
    fn decisive_moves_make_only_the_kills_children() {
        // Red can throw at green this turn: the root's children are the
        // killing throws alone, and the root is proven won at once.
        let start = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -").unwrap();
        let turn = super::super::reference::greedy_turn(&start, 1);
        let mut root = start;
        for &s in &turn[..turn.len() - 1] {
            root.play(s);
        }
        assert!(kills_opponent(&root, turn[turn.len() - 1]));
        let tree = Tree::new(&root, CHUNK);
        simulations(&tree, &MCTS, 50);
        let (first, count) = tree.node(0).children().unwrap();
        assert!(count < root.legal_step_vec().len());
        for c in first..first + count {
            let step = Step::from_bits(tree.node(c).step.load(Relaxed)).unwrap();
            assert!(kills_opponent(&root, step), "{step}");
        }
        assert_eq!(tree.node(0).proven(), Some(Seat::Red));
    }

    #[test]
    fn a_full_tree_stops_growing_and_goes_on() {
        let root = Position::start(4).unwrap();
        let tree = Tree::new(&root, 0);
        simulations(&tree, &MCTS, 20_000);
        assert_eq!(tree.used_permille(), 1000);
        let mut checked = 0;
        check_minimax(&tree, 0, &root, &mut checked);
    }
}
