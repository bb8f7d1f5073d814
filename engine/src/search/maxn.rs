//! Max-n for 3–4 players: every node returns one score per seat (the seat's
//! share of a fixed total, see [`crate::eval::evaluate_shares`]) and the seat
//! to move picks the child best for itself.
//!
//! Shallow pruning: since shares are never negative and always sum to
//! [`SHARES_TOTAL`], once the seat to move has found a child worth `x` to it,
//! the seat that moved before it can get at most `TOTAL − x` here; if that
//! is no better than what that seat already has elsewhere, the rest of the
//! children are skipped. Consecutive steps of one seat form one decision, so
//! the bound passes through them unchanged.
//!
//! The transposition table only orders steps here (scores are vectors).

use super::ordering::{MAX_PLY, ThrowClass, order};
use super::score::Score;
use super::thread::{PausedNode, Searcher, Shared, ThreadState, Worker};
use super::tt::{Bound, TranspositionTable};
use crate::eval::nnue::{self, AccumulatorStack};
use crate::eval::{EvalParams, SHARES_TOTAL, shares_of};
use splut_rules::{Position, Seat, Step, StepKind, StepList, Undo};

/// Keeps max-n's table entries apart from alpha-beta's.
const MAXN_SALT: u64 = 0x4D41_584E_5F53_414C;

type Shares = [i32; 4];

/// One thread's max-n search, on the thread's [`Worker`].
pub struct MaxN<'a> {
    tt: &'a TranspositionTable,
    params: &'a EvalParams,
    /// Whether the network evaluates (with the worker's accumulators);
    /// else the weights do, through the worker's cache of seat scores.
    nnue: bool,
    root_seat: Seat,
    players_at_root: u32,
    /// Node count, and the worker: variation, killers, history and the
    /// network's accumulators.
    pub t: ThreadState<'a>,
}

impl Searcher for MaxN<'_> {
    /// The root seat's share.
    fn search_root(&mut self, root: &mut Position, depth: i32) -> i32 {
        self.t.new_iteration();
        if let Some(acc) = self.acc() {
            acc.refresh(root);
        }
        let v = self.search(root, depth, 0, None);
        v[self.root_seat.index()]
    }

    /// A root share as a displayed score: its excess over an even split.
    fn score(&self, share: i32) -> Score {
        Score::Cp(share - SHARES_TOTAL / self.players_at_root.max(1) as i32)
    }

    fn state(&self) -> &ThreadState<'_> {
        &self.t
    }
}

impl<'a> MaxN<'a> {
    /// A searcher for `root` on `worker` (the main thread's or not).
    pub fn new(
        root: &Position,
        shared: Shared<'a>,
        worker: &'a mut Worker,
        is_main: bool,
    ) -> MaxN<'a> {
        match shared.net {
            Some(net) => worker.eval.use_network(net, root, shared.eval_caches),
            // The seat scores through the worker's cache, as alpha-beta's:
            // max-n evaluates every node it visits.
            None => worker.eval.use_hand(shared.params, shared.eval_caches),
        }
        MaxN {
            tt: shared.tt,
            params: shared.params,
            nnue: shared.net.is_some(),
            root_seat: root.side_to_move(),
            players_at_root: root.players_left(),
            t: ThreadState::new(
                worker,
                shared.control,
                shared.progress,
                is_main,
                shared.resumed,
            ),
        }
    }

    /// The network's accumulators along the path, when it evaluates.
    #[inline]
    fn acc(&mut self) -> Option<&mut AccumulatorStack> {
        if self.nnue {
            self.t.worker.eval.network()
        } else {
            None
        }
    }

    /// The shares of `pos`, the position of the accumulators' top entry.
    fn shares(&mut self, pos: &Position) -> Shares {
        match self.acc() {
            Some(acc) => nnue::shares(pos, &acc.values(pos), acc.network().scale),
            None => {
                let eval = &mut self.t.worker.eval;
                shares_of(pos, self.params, || eval.seat_scores(pos, self.params))
            }
        }
    }

    /// Makes `step` (and the accumulators' entry after it).
    fn make(&mut self, pos: &mut Position, step: Step) -> Undo {
        let undo = pos.make(step);
        if let Some(acc) = self.acc() {
            acc.push(pos);
        }
        undo
    }

    /// Unmakes `step`.
    fn unmake(&mut self, pos: &mut Position, step: Step, undo: &Undo) {
        pos.unmake(step, undo);
        if let Some(acc) = self.acc() {
            acc.pop();
        }
    }

    fn classify(pos: &Position, step: Step, me: Seat) -> ThrowClass {
        match pos.throw_victim(step) {
            None => ThrowClass::Quiet,
            Some(v) if v == me => ThrowClass::KillsOwnSide,
            Some(_) => ThrowClass::Kills,
        }
    }

    /// `bound`: the nearest earlier deciding seat and the share it already
    /// has elsewhere.
    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        bound: Option<(Seat, i32)>,
    ) -> Shares {
        self.t.clear_pv(ply);
        if pos.is_game_over() {
            return self.shares(pos);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, ply);
        }
        self.t.node(ply);
        if self.t.stopped {
            return [0; 4];
        }
        let key = pos.hash() ^ MAXN_SALT;
        let me = pos.side_to_move();
        let mut list = StepList::new();
        let (mut best, mut best_step, mut first) = (None, None, 0);
        let resume = if self.t.worker.paused.is_empty() {
            None
        } else {
            self.t.resume_here(key, depth, window(bound))
        };
        match resume {
            Some(node) => (best, best_step, first) = self.take_up(&mut list, ply, node),
            None => self.ordered_steps(pos, key, ply, &mut list),
        }
        for (i, &step) in list.iter().enumerate().skip(first) {
            let undo = self.make(pos, step);
            let child_bound = if pos.side_to_move() == me {
                bound
            } else {
                best.map(|b| (me, b[me.index()]))
            };
            let v = self.search(pos, depth - 1, ply + 1, child_bound);
            self.unmake(pos, step, &undo);
            if self.t.stopped {
                if self.t.paused() {
                    let entered = (key, depth, bound);
                    self.leave_paused(ply, entered, (best, best_step), (&list[..], i));
                }
                return [0; 4];
            }
            if best.is_none_or(|b| v[me.index()] > b[me.index()]) {
                best = Some(v);
                best_step = Some(step);
                self.t.update_pv(ply, step);
            }
            let mine = best.map_or(0, |b| b[me.index()]);
            if let Some((seat, had)) = bound
                && seat != me
                && SHARES_TOTAL - mine <= had
            {
                let w = &mut *self.t.worker;
                if step.kind() != StepKind::Throw {
                    w.killers.add(ply, step);
                    w.history.reward(me, step, depth);
                }
                for &tried in &list[..i] {
                    w.history.punish(me, tried, depth);
                }
                break;
            }
        }
        let depth_u8 = depth.clamp(0, 255) as u8;
        self.tt.store(key, best_step, 0, depth_u8, Bound::None);
        best.unwrap_or_else(|| self.shares(pos))
    }

    /// The legal steps of `pos` (its table key `key`, at `ply`) into
    /// `list`, in the order to search them.
    fn ordered_steps(&self, pos: &Position, key: u64, ply: usize, list: &mut StepList) {
        let tt_step = self.tt.probe(key).and_then(|e| e.step);
        pos.legal_steps(list);
        let me = pos.side_to_move();
        let (killers, history) = (&self.t.worker.killers, &self.t.worker.history);
        order(list, me, tt_step, killers, history, ply, |s| {
            Self::classify(pos, s, me)
        });
    }

    /// Leaves the node at `ply` on the way a paused slice took
    /// ([`PausedNode`]): its key, depth and bound as `entered`, what it
    /// had found, its steps and where it was among them.
    #[cold]
    fn leave_paused(
        &mut self,
        ply: usize,
        (key, depth, bound): (u64, i32, Option<(Seat, i32)>),
        (best, best_step): (Option<Shares>, Option<Step>),
        (steps, i): (&[Step], usize),
    ) {
        let (alpha0, beta) = window(bound);
        let node = PausedNode {
            key,
            depth,
            alpha0,
            beta,
            alpha: alpha0,
            best: 0,
            shares: best.unwrap_or_default(),
            best_step,
            searched: i,
            steps: steps.to_vec(),
            index: i,
            stage: 0,
            pv: Vec::new(),
        };
        self.t.leave_paused(ply, node);
    }

    /// A node taken up where a slice paused: its steps in the order it
    /// searched them into `list`, its variation put back; its best shares
    /// and step, and the place of the step it was searching.
    #[cold]
    fn take_up(
        &mut self,
        list: &mut StepList,
        ply: usize,
        node: PausedNode,
    ) -> (Option<Shares>, Option<Step>, usize) {
        self.t.take_up(list, ply, &node);
        let best = node.best_step.map(|_| node.shares);
        (best, node.best_step, node.index)
    }

    /// Stand pat on the evaluation, or take a throw that kills another
    /// seat's sorcerer.
    fn quiesce(&mut self, pos: &mut Position, ply: usize) -> Shares {
        self.t.node(ply);
        if self.t.stopped {
            return [0; 4];
        }
        let mut best = self.shares(pos);
        if ply >= MAX_PLY - 1 {
            return best;
        }
        let me = pos.side_to_move();
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &step in list.iter() {
            if step.kind() != StepKind::Throw
                || !matches!(Self::classify(pos, step, me), ThrowClass::Kills)
            {
                continue;
            }
            let undo = self.make(pos, step);
            let v = self.search(pos, 0, ply + 1, None);
            self.unmake(pos, step, &undo);
            if self.t.stopped {
                return [0; 4];
            }
            if v[me.index()] > best[me.index()] {
                best = v;
                self.t.update_pv(ply, step);
            }
        }
        best
    }
}

/// A bound as the window a [`PausedNode`] keeps: the seat's index and its
/// share, `(-1, 0)` for none.
fn window(bound: Option<(Seat, i32)>) -> (i32, i32) {
    bound.map_or((-1, 0), |(seat, share)| (seat.index() as i32, share))
}
