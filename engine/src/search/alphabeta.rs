//! Alpha-beta over steps: principal variation search for 2 players, and the
//! paranoid reduction for 3–4 players (every seat but the root is one
//! opposing side). It is one negamax: a score is from the view of the side
//! the seat to move belongs to, and it changes sign only when the next step
//! belongs to the other side — consecutive steps of one player (or of two
//! opponents in a row, in paranoid) keep the window as it is.
//!
//! Around the horizon, a quiescence search tries the throws that kill a
//! sorcerer of the other side (they end the turn, so the next side may
//! answer in kind), and the evaluation charges kills the side to move can
//! reach within its remaining steps.
//!
//! **Best-reply search** (BRS, 3–4 players) is a mode of the same search:
//! after the root seat's turn, only one opponent plays a turn — whichever
//! hurts the root most, as the minimum over the opponents — and the others
//! pass (BRS) or play the first step their move ordering gives (BRS+), so
//! the root moves again sooner and the search sees deeper into its own plans.

use super::ordering::{MAX_PLY, ThrowClass, order};
use super::score::{DRAW, INFINITY, Score, from_tt, to_tt, win_in_turn};
use super::thread::{PausedNode, Searcher, Shared, ThreadState, Worker};
use super::tt::{Bound, TranspositionTable};
use crate::eval::{EvalParams, from_root};
use splut_rules::{Position, Seat, Step, StepKind, StepList, Undo};

/// Salt for the paranoid table keys: the scores depend on the root seat.
const ROOT_SALT: [u64; 4] = [
    0,
    0x6C8E_9CF5_7093_2BD5,
    0x2545_F491_4F6C_DD1D,
    0x9E37_79B9_7F4A_7C15,
];

/// How far back repetitions are looked for (steps).
const REPETITION_WINDOW: usize = 64;

/// Slots of [`AlphaBeta::path_bits`] (a power of two).
const PATH_BITS: usize = 1024;

/// `hash`'s slot in [`AlphaBeta::path_bits`].
#[inline]
fn path_slot(hash: u64) -> usize {
    hash as usize & (PATH_BITS - 1)
}

/// Salt for best-reply search: its values differ from paranoid ones.
const BRS_SALT: u64 = 0x4252_535F_5341_4C54;

/// How the seats other than the root play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Two players, or paranoid: every opponent plays every turn.
    Paranoid,
    /// Best-reply search: one opponent replies, the others pass.
    Brs,
    /// BRS+: the others play their first-ordered steps instead of passing.
    BrsPlus,
}

/// Where a node stands in best-reply search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// An ordinary node (paranoid, or the root seat's turn).
    Normal,
    /// The root's turn just ended: pick the opponent who replies.
    Choose,
    /// That opponent's turn.
    Reply(Seat),
}

/// How a child node is reached: from `ply`, by a step of the same side as
/// the parent's (`same`: the window is kept) or of the other, into `phase`.
#[derive(Clone, Copy)]
struct Edge {
    ply: usize,
    same: bool,
    phase: Phase,
}

/// One thread's alpha-beta search, on the thread's [`Worker`].
pub struct AlphaBeta<'a> {
    tt: &'a TranspositionTable,
    params: &'a EvalParams,
    root_seat: Seat,
    root_turn: u32,
    players_at_root: u32,
    salt: u64,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    /// How many of `path`'s hashes end in each value of their low bits:
    /// most nodes repeat nothing, and this says so without scanning the
    /// window (2% of a datagen's instructions).
    path_bits: Box<[u16; PATH_BITS]>,
    mode: Mode,
    /// `MultiPV`: where the turns already reported end (hashes); lines
    /// that reach one of them in the root's turn are left out.
    excluded: Vec<u64>,
    /// The search of a step taken up where a slice paused starts at this
    /// stage of the scout ([`PausedNode::stage`]); 0 otherwise.
    resume_stage: u8,
    /// Node count, and the worker: variation, killers, history and the
    /// evaluation's state (its cache, or the network's accumulators).
    pub t: ThreadState<'a>,
}

impl Searcher for AlphaBeta<'_> {
    fn search_root(&mut self, root: &mut Position, depth: i32) -> i32 {
        self.t.new_iteration();
        self.refresh(root);
        self.search(root, depth, -INFINITY, INFINITY, 0, Phase::Normal)
    }

    /// Two players only (where aspiration windows were measured to gain),
    /// and not while turns are left out (`MultiPV`).
    fn search_root_window(
        &mut self,
        root: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if self.players_at_root != 2 || self.mode != Mode::Paranoid || !self.excluded.is_empty() {
            return None;
        }
        self.t.new_iteration();
        self.refresh(root);
        Some(self.search(root, depth, alpha, beta, 0, Phase::Normal))
    }

    fn exclude_turns(&mut self, ends: &[u64]) -> bool {
        self.excluded = ends.to_vec();
        true
    }

    fn score(&self, value: i32) -> Score {
        super::score::from_internal(value)
    }

    fn state(&self) -> &ThreadState<'_> {
        &self.t
    }
}

impl<'a> AlphaBeta<'a> {
    /// A searcher for `root` on `worker` (the main thread's or not), after
    /// a game whose earlier positions hashed to `game_hashes` (for
    /// repetitions). Best-reply modes apply with 3–4 players only; with 2
    /// they are plain alpha-beta.
    pub fn new(
        root: &Position,
        game_hashes: &[u64],
        shared: Shared<'a>,
        worker: &'a mut Worker,
        is_main: bool,
        mode: Mode,
    ) -> AlphaBeta<'a> {
        let root_seat = root.side_to_move();
        let players = root.players_left();
        let start = game_hashes.len().saturating_sub(REPETITION_WINDOW);
        let mut path = game_hashes[start..].to_vec();
        path.push(root.hash());
        let mut path_bits = Box::new([0u16; PATH_BITS]);
        for &h in &path {
            path_bits[path_slot(h)] += 1;
        }
        let mode = if players > 2 { mode } else { Mode::Paranoid };
        let mode_salt = if mode == Mode::Paranoid { 0 } else { BRS_SALT };
        match shared.net {
            Some(net) => worker.eval.use_network(net, root, shared.eval_caches),
            None => worker.eval.use_hand(shared.params, shared.eval_caches),
        }
        AlphaBeta {
            tt: shared.tt,
            params: shared.params,
            root_seat,
            root_turn: root.turn(),
            players_at_root: players,
            salt: if players > 2 {
                ROOT_SALT[root_seat.index()] ^ mode_salt
            } else {
                0
            },
            path,
            path_bits,
            mode,
            excluded: Vec::new(),
            resume_stage: 0,
            t: ThreadState::new(
                worker,
                shared.control,
                shared.progress,
                is_main,
                shared.resumed,
            ),
        }
    }

    /// Builds the accumulators' root entry from `root`.
    fn refresh(&mut self, root: &Position) {
        if let Some(acc) = self.t.worker.eval.network() {
            acc.refresh(root);
        }
    }

    /// The accumulators' entry for `pos`, reached from the top entry's
    /// position by the steps just made.
    #[inline]
    fn push(&mut self, pos: &Position) {
        if let Some(acc) = self.t.worker.eval.network() {
            acc.push(pos);
        }
    }

    /// Back to the parent entry.
    #[inline]
    fn pop(&mut self) {
        if let Some(acc) = self.t.worker.eval.network() {
            acc.pop();
        }
    }

    #[inline]
    fn sign(&self, seat: Seat) -> i32 {
        if seat == self.root_seat { 1 } else { -1 }
    }

    /// The value of a finished game (or, in paranoid, of the root's
    /// elimination), from the view of the side to move.
    fn terminal_value(&self, pos: &Position) -> Option<i32> {
        let decided_in = pos.turn().saturating_sub(1);
        let root_value = if !pos.in_game(self.root_seat) {
            -win_in_turn(decided_in, self.root_turn)
        } else if pos.is_game_over() {
            win_in_turn(decided_in, self.root_turn)
        } else {
            return None;
        };
        Some(root_value * self.sign(pos.side_to_move()))
    }

    /// Whether `step`, in the root's turn, leads where a line already
    /// reported ends its part of that turn (`MultiPV`): the end of the turn,
    /// or the end of a line too short to finish it.
    fn ends_an_excluded_turn(&self, pos: &mut Position, step: Step) -> bool {
        if self.excluded.is_empty() || pos.turn() != self.root_turn {
            return false;
        }
        let undo = pos.make(step);
        let hit = self.excluded.contains(&pos.hash());
        pos.unmake(step, &undo);
        hit
    }

    fn is_repetition(&self, hash: u64) -> bool {
        // The current position is the path's last hash: counted once.
        if self.path_bits[path_slot(hash)] < 2 {
            return false;
        }
        let n = self.path.len();
        let lo = n.saturating_sub(REPETITION_WINDOW);
        n >= 2 && self.path[lo..n - 1].contains(&hash)
    }

    fn static_eval(&mut self, pos: &Position) -> i32 {
        let scores = self.t.worker.eval.seat_scores(pos, self.params);
        self.sign(pos.side_to_move())
            * from_root(
                pos,
                &scores,
                self.root_seat,
                self.players_at_root,
                self.params,
            )
    }

    fn classify(&self, pos: &Position, step: Step, my_sign: i32) -> ThrowClass {
        match pos.throw_victim(step) {
            None => ThrowClass::Quiet,
            Some(v) if self.sign(v) == my_sign => ThrowClass::KillsOwnSide,
            Some(_) => ThrowClass::Kills,
        }
    }

    /// Makes `step`, and in best-reply search whatever the skipped seats
    /// do after it; runs `f` on the child (told whether the child's seat is
    /// on the mover's side, and the child's phase); unmakes it all.
    #[inline]
    fn visit<R>(
        &mut self,
        pos: &mut Position,
        step: Step,
        my_sign: i32,
        phase: Phase,
        f: impl FnOnce(&mut Self, &mut Position, bool, Phase) -> R,
    ) -> R {
        let undo = pos.make(step);
        self.tt.prefetch(pos.hash() ^ self.salt);
        let mut skipped = Vec::new();
        let child_phase = match (self.mode, phase) {
            (Mode::Paranoid, _) => Phase::Normal,
            (_, Phase::Reply(o)) if pos.side_to_move() == o => phase,
            (_, Phase::Reply(_)) => {
                // The replying opponent's turn is over: on to the root.
                self.skip_to(pos, self.root_seat, &mut skipped);
                Phase::Normal
            }
            _ if pos.side_to_move() == self.root_seat => Phase::Normal,
            _ => Phase::Choose,
        };
        self.push(pos);
        let hash = pos.hash();
        self.path.push(hash);
        self.path_bits[path_slot(hash)] += 1;
        let same = self.sign(pos.side_to_move()) == my_sign;
        let r = f(self, pos, same, child_phase);
        self.path_bits[path_slot(hash)] -= 1;
        self.path.pop();
        self.pop();
        for (s, u) in skipped.iter().rev() {
            pos.unmake(*s, u);
        }
        pos.unmake(step, &undo);
        r
    }

    /// Lets the seats before `seat` pass their turns (BRS) or play their
    /// first-ordered steps (BRS+), recording what was made. Stops early if
    /// those steps put `seat` or the root out of the game: in BRS+ a
    /// skipped seat's first step may be a killing throw, and waiting for a
    /// seat that is gone would skip turns forever.
    fn skip_to(&mut self, pos: &mut Position, seat: Seat, made: &mut Vec<(Step, Undo)>) {
        while pos.side_to_move() != seat
            && pos.in_game(seat)
            && pos.in_game(self.root_seat)
            && !pos.is_game_over()
        {
            let step = if self.mode == Mode::BrsPlus {
                self.first_ordered(pos)
            } else {
                Step::PASS
            };
            made.push((step, pos.make(step)));
        }
    }

    /// The step move ordering puts first here (BRS+).
    fn first_ordered(&self, pos: &Position) -> Step {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let me = pos.side_to_move();
        let my_sign = self.sign(me);
        let tt_step = self.tt.probe(pos.hash() ^ self.salt).and_then(|e| e.step);
        order(
            &mut list,
            me,
            tt_step,
            &self.t.worker.killers,
            &self.t.worker.history,
            0,
            |s| self.classify(pos, s, my_sign),
        );
        list.first().copied().unwrap_or(Step::PASS)
    }

    /// Best-reply search: the root's turn is over; the opponent whose turn
    /// is worst for the root replies (the others are skipped).
    fn choose(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let opponents: Vec<Seat> = (0..4)
            .map(|i| Seat::from_index(pos.side_to_move() as u8 + i))
            .filter(|&s| s != self.root_seat && pos.in_game(s))
            .collect();
        let mut best = -INFINITY;
        for o in opponents {
            let mut skipped = Vec::new();
            self.skip_to(pos, o, &mut skipped);
            if !skipped.is_empty() {
                self.push(pos);
            }
            let mover = pos.side_to_move();
            let value = if mover == o {
                // Opponents are one side: no sign change, no step spent.
                self.search(pos, depth, alpha, beta, ply + 1, Phase::Reply(o))
            } else {
                // The skipped steps put `o` (or the root) out of the game:
                // go on from there, from the seat to move now.
                let phase = if mover == self.root_seat {
                    Phase::Normal
                } else {
                    Phase::Reply(mover)
                };
                let same = self.sign(mover) == self.sign(o);
                self.child(pos, depth, alpha, beta, Edge { ply, same, phase })
            };
            if !skipped.is_empty() {
                self.pop();
            }
            for (s, u) in skipped.iter().rev() {
                pos.unmake(*s, u);
            }
            if self.t.stopped {
                return 0;
            }
            if value > best {
                best = value;
                self.t.adopt_child_pv(ply);
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches a child already made on `pos`, reached by `edge`: the same
    /// side keeps the window, the other side negates it.
    #[inline]
    fn child(&mut self, pos: &mut Position, depth: i32, alpha: i32, beta: i32, edge: Edge) -> i32 {
        let (ply, phase) = (edge.ply + 1, edge.phase);
        if edge.same {
            self.search(pos, depth, alpha, beta, ply, phase)
        } else {
            -self.search(pos, depth, -beta, -alpha, ply, phase)
        }
    }

    /// Searches a child already made on `pos`, reached by `edge`, that is
    /// not its parent's first: with a null window at `alpha` first,
    /// `reduction` steps shallower than `depth`, then at `depth` if it
    /// beat `alpha` reduced, then in the full window `(alpha, beta)` if it
    /// beat `alpha` there too (principal variation search).
    #[inline]
    fn scout(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        reduction: i32,
        edge: Edge,
    ) -> i32 {
        // (An aborted child's 0 is no fail-high: no re-search then.) A
        // step taken up where a slice paused skips the searches it had
        // passed, each of which had failed high.
        let stage = std::mem::take(&mut self.resume_stage);
        let mut v = alpha + 1;
        if stage == 0 {
            v = self.child(pos, depth - reduction, alpha, alpha + 1, edge);
        }
        if v > alpha && reduction > 0 && stage <= 1 && !self.t.stopped {
            v = self.child(pos, depth, alpha, alpha + 1, edge);
        }
        if v > alpha && v < beta && !self.t.stopped {
            v = self.child(pos, depth, alpha, beta, edge);
        }
        v
    }

    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        phase: Phase,
    ) -> i32 {
        self.t.clear_pv(ply);
        if let Some(v) = self.settled(pos, depth, alpha, beta, ply, phase) {
            return v;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash() ^ self.salt;
        let resume = if self.t.worker.paused.is_empty() {
            None
        } else {
            self.t.resume_here(key, depth, (alpha, beta))
        };
        let turns_from_root = pos.turn() - self.root_turn;
        // With turns left out (`MultiPV`), values in the root's turn are
        // not those of the game: neither read nor written in the table.
        let excluding = !self.excluded.is_empty() && turns_from_root == 0;
        let (tt_step, tt_value) = self.probe(key, turns_from_root, depth, alpha, beta);
        if let Some(v) = tt_value
            && ply > 0
            && !pv_node
            && !excluding
            && resume.is_none()
        {
            return v;
        }
        let me = pos.side_to_move();
        let my_sign = self.sign(me);
        let mut list = self.ordered_steps(pos, tt_step, ply);
        let alpha0 = alpha;
        let (mut best, mut best_step, mut searched, mut first) = (-INFINITY, None, 0, 0);
        if let Some(node) = resume {
            (alpha, best, best_step, searched, first) = self.take_up(&mut list, ply, node);
        }
        for (i, &step) in list.iter().enumerate().skip(first) {
            if excluding && self.ends_an_excluded_turn(pos, step) {
                continue;
            }
            // Steps searched before this one (steps left out not counted).
            let n = searched;
            searched += 1;
            let quiet = step.kind() != StepKind::Throw;
            let window = alpha;
            let value = self.visit(pos, step, my_sign, phase, |this, pos, same, next| {
                let edge = Edge {
                    ply,
                    same,
                    phase: next,
                };
                if n == 0 {
                    return this.child(pos, depth - 1, window, beta, edge);
                }
                // Late quiet steps are searched a step shallower first.
                let reduction = i32::from(depth >= 3 && n >= 4 && quiet && !pv_node);
                this.scout(pos, depth - 1, window, beta, reduction, edge)
            });
            if self.t.stopped {
                if self.t.paused() {
                    let entered = (key, depth, alpha0, beta);
                    let searching = (n, &list[..], i, quiet && !pv_node);
                    self.leave_paused(ply, entered, (alpha, best, best_step), searching);
                }
                return 0;
            }
            if value > best {
                best = value;
                best_step = Some(step);
                if value > alpha {
                    alpha = value;
                    self.t.update_pv(ply, step);
                    if value >= beta {
                        if quiet {
                            self.reward_cutoff(me, step, &list[..i], depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        if !excluding {
            self.store(
                key,
                depth,
                (alpha0, beta),
                (best, best_step),
                turns_from_root,
            );
        }
        best
    }

    /// Writes a searched node's result to the table: its best value, as a
    /// bound of the window `(alpha0, beta)` it was searched with, and step.
    fn store(
        &self,
        key: u64,
        depth: i32,
        (alpha0, beta): (i32, i32),
        (best, best_step): (i32, Option<Step>),
        turns_from_root: u32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored = to_tt(best, turns_from_root);
        self.tt
            .store(key, best_step, stored, depth.clamp(0, 255) as u8, bound);
    }

    /// Leaves the node at `ply` on the way a paused slice took, root
    /// first ([`PausedNode`]): its key, depth and window as `entered`,
    /// what it had found, and the step it was `searching` (the `n`th, the
    /// `i`th of its `steps`, reducible or not).
    #[cold]
    fn leave_paused(
        &mut self,
        ply: usize,
        (key, depth, alpha0, beta): (u64, i32, i32, i32),
        (alpha, best, best_step): (i32, i32, Option<Step>),
        (n, steps, i, reducible): (usize, &[Step], usize, bool),
    ) {
        let node = PausedNode {
            key,
            depth,
            alpha0,
            beta,
            alpha,
            best,
            shares: [0; 4],
            best_step,
            searched: n,
            steps: steps.to_vec(),
            index: i,
            stage: self.scout_stage(depth, n, reducible),
            pv: Vec::new(),
        };
        self.t.leave_paused(ply, node);
    }

    /// A node taken up where a slice paused ([`PausedNode`]): its steps
    /// in the order it searched them, and its window's lower end, best
    /// value and step, count of steps searched and the place of the step
    /// it was searching, as they were; its variation put back.
    #[cold]
    fn take_up(
        &mut self,
        list: &mut StepList,
        ply: usize,
        node: PausedNode,
    ) -> (i32, i32, Option<Step>, usize, usize) {
        self.t.take_up(list, ply, &node);
        self.resume_stage = node.stage;
        let PausedNode {
            alpha,
            best,
            best_step,
            searched,
            index,
            ..
        } = node;
        (alpha, best, best_step, searched, index)
    }

    /// Which of the scout's searches of the step being searched (the
    /// `n`th, at `depth`, `reducible` if quiet off the principal variation)
    /// was under way when the slice paused, read from the node the child
    /// left on the way: its depth and whether its window was null.
    fn scout_stage(&self, depth: i32, n: usize, reducible: bool) -> u8 {
        let Some(child) = self.t.worker.paused.first() else {
            return 0;
        };
        // The first step is searched once, with the whole window.
        if n == 0 {
            return 0;
        }
        let reduced = depth >= 3 && n >= 4 && reducible;
        if child.beta - child.alpha0 > 1 {
            2
        } else if reduced && child.depth == depth - 1 {
            1
        } else {
            0
        }
    }

    /// The value of a node settled before any step is tried: a finished
    /// game, a repetition, the horizon (quiescence), best-reply's choice
    /// of the seat that replies, or a stopped search (0). Counts the node
    /// otherwise.
    #[inline]
    fn settled(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        phase: Phase,
    ) -> Option<i32> {
        if let Some(v) = self.terminal_value(pos) {
            return Some(v);
        }
        if ply > 0 && self.is_repetition(pos.hash()) {
            return Some(DRAW);
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return Some(self.quiesce(pos, alpha, beta, ply));
        }
        if phase == Phase::Choose {
            return Some(self.choose(pos, depth, alpha, beta, ply));
        }
        self.t.node(ply);
        self.t.stopped.then_some(0)
    }

    /// The table's step for `key`, and its value when the entry is deep
    /// enough and its bound settles the window.
    #[inline]
    fn probe(
        &self,
        key: u64,
        turns_from_root: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> (Option<Step>, Option<i32>) {
        let Some(e) = self.tt.probe(key) else {
            return (None, None);
        };
        if i32::from(e.depth) < depth {
            return (e.step, None);
        }
        let v = from_tt(e.score, turns_from_root);
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
            Bound::None => false,
        };
        (e.step, usable.then_some(v))
    }

    /// The legal steps of `pos`, best first: the table's step, killing
    /// throws, killers, history.
    #[inline]
    fn ordered_steps(&self, pos: &Position, tt_step: Option<Step>, ply: usize) -> StepList {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let me = pos.side_to_move();
        let my_sign = self.sign(me);
        let (killers, history) = (&self.t.worker.killers, &self.t.worker.history);
        order(&mut list, me, tt_step, killers, history, ply, |s| {
            self.classify(pos, s, my_sign)
        });
        list
    }

    /// A quiet `step` of `me` cut off: it becomes a killer, and its history
    /// rises while the quiet steps `tried` before it fall.
    fn reward_cutoff(&mut self, me: Seat, step: Step, tried: &[Step], depth: i32, ply: usize) {
        let w = &mut *self.t.worker;
        w.killers.add(ply, step);
        w.history.reward(me, step, depth);
        for &t in tried {
            if t.kind() != StepKind::Throw {
                w.history.punish(me, t, depth);
            }
        }
    }

    /// Stand pat on the evaluation, or take a throw that kills a sorcerer of
    /// the other side.
    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.t.node(ply);
        if self.t.stopped {
            return 0;
        }
        let stand = self.static_eval(pos);
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let my_sign = self.sign(pos.side_to_move());
        for &step in list.iter() {
            if step.kind() != StepKind::Throw
                || !matches!(self.classify(pos, step, my_sign), ThrowClass::Kills)
                || self.ends_an_excluded_turn(pos, step)
            {
                continue;
            }
            let window = alpha;
            // A killing throw ends the turn; in best-reply search the seats
            // after it are skipped like after any turn.
            let phase = if pos.side_to_move() == self.root_seat {
                Phase::Normal
            } else {
                Phase::Reply(pos.side_to_move())
            };
            let value = self.visit(pos, step, my_sign, phase, |this, pos, same, next| {
                let next = if next == Phase::Choose {
                    Phase::Normal
                } else {
                    next
                };
                this.child(
                    pos,
                    0,
                    window,
                    beta,
                    Edge {
                        ply,
                        same,
                        phase: next,
                    },
                )
            });
            if self.t.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.t.update_pv(ply, step);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
