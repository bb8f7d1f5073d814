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

use super::ordering::{History, Killers, MAX_PLY, ThrowClass, order};
use super::score::Score;
use super::tt::{Bound, TranspositionTable};
use super::{Control, Progress};
use crate::eval::{EvalParams, SHARES_TOTAL, evaluate_shares};
use crate::game::{Position, Seat, Step, StepKind, StepList};

/// Keeps max-n's table entries apart from alpha-beta's.
const MAXN_SALT: u64 = 0x4D41_584E_5F53_414C;

type Shares = [i32; 4];

/// One thread's max-n search.
pub struct MaxN<'a> {
    tt: &'a TranspositionTable,
    params: &'a EvalParams,
    control: &'a Control,
    progress: &'a Progress,
    root_seat: Seat,
    players_at_root: u32,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the last iteration.
    pub seldepth: usize,
    /// Set once the search must stop.
    pub stopped: bool,
    is_main: bool,
    killers: Killers,
    history: History,
    pv: Vec<[Step; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl<'a> MaxN<'a> {
    /// A searcher for `root`.
    pub fn new(
        root: &Position,
        tt: &'a TranspositionTable,
        params: &'a EvalParams,
        control: &'a Control,
        progress: &'a Progress,
        is_main: bool,
    ) -> MaxN<'a> {
        MaxN {
            tt,
            params,
            control,
            progress,
            root_seat: root.side_to_move(),
            players_at_root: root.players_left(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            is_main,
            killers: Killers::new(),
            history: History::new(),
            pv: vec![[Step::PASS; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        }
    }

    /// Searches the root to `depth` steps; returns the root seat's share.
    pub fn search_root(&mut self, root: &mut Position, depth: i32) -> i32 {
        self.seldepth = 0;
        self.history.age();
        let v = self.search(root, depth, 0, None);
        v[self.root_seat.index()]
    }

    /// The principal variation of the last search.
    pub fn root_pv(&self) -> &[Step] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// A root share as a displayed score: its excess over an even split.
    pub fn score(&self, share: i32) -> Score {
        Score::Cp(share - SHARES_TOTAL / self.players_at_root.max(1) as i32)
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
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
        self.pv_len[ply] = 0;
        if pos.is_game_over() {
            return evaluate_shares(pos, self.params);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, ply);
        }
        self.count_node();
        if self.stopped {
            return [0; 4];
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.hash() ^ MAXN_SALT;
        let tt_step = self.tt.probe(key).and_then(|e| e.step);
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let me = pos.side_to_move();
        {
            let board = &*pos;
            order(
                &mut list,
                me,
                tt_step,
                &self.killers,
                &self.history,
                ply,
                |s| Self::classify(board, s, me),
            );
        }
        let mut best: Option<Shares> = None;
        let mut best_step = None;
        for (i, &step) in list.iter().enumerate() {
            let undo = pos.make(step);
            let child_bound = if pos.side_to_move() == me {
                bound
            } else {
                best.map(|b| (me, b[me.index()]))
            };
            let v = self.search(pos, depth - 1, ply + 1, child_bound);
            pos.unmake(step, &undo);
            if self.stopped {
                return [0; 4];
            }
            if best.is_none_or(|b| v[me.index()] > b[me.index()]) {
                best = Some(v);
                best_step = Some(step);
                self.update_pv(ply, step);
            }
            let mine = best.map_or(0, |b| b[me.index()]);
            if let Some((seat, had)) = bound
                && seat != me
                && SHARES_TOTAL - mine <= had
            {
                if step.kind() != StepKind::Throw {
                    self.killers.add(ply, step);
                    self.history.reward(me, step, depth);
                }
                for &tried in &list[..i] {
                    self.history.punish(me, tried, depth);
                }
                break;
            }
        }
        self.tt
            .store(key, best_step, 0, depth.clamp(0, 255) as u8, Bound::None);
        best.unwrap_or_else(|| evaluate_shares(pos, self.params))
    }

    /// Stand pat on the evaluation, or take a throw that kills another
    /// seat's sorcerer.
    fn quiesce(&mut self, pos: &mut Position, ply: usize) -> Shares {
        self.count_node();
        if self.stopped {
            return [0; 4];
        }
        self.seldepth = self.seldepth.max(ply);
        let mut best = evaluate_shares(pos, self.params);
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
            let undo = pos.make(step);
            let v = self.search(pos, 0, ply + 1, None);
            pos.unmake(step, &undo);
            if self.stopped {
                return [0; 4];
            }
            if v[me.index()] > best[me.index()] {
                best = v;
                self.update_pv(ply, step);
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, step: Step) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = step;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }
}
