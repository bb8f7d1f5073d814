//! Completing the turn: a search answers with the whole rest of the side
//! to move's turn, the principal variation's steps until the turn ends,
//! completed by short searches if the variation stops early.

use super::alphabeta::{AlphaBeta, Mode};
use super::control::{Control, Progress};
use super::thread::{Searcher, Shared};
use super::{Algorithm, Search, Settings};
use splut_rules::{Position, Step};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The steps of the principal variation that belong to the root's turn,
/// completed with short searches under `settings` (on `search`'s table and
/// main worker) if the variation ends before the turn.
pub(crate) fn complete_turn(
    root: &Position,
    pv: &[Step],
    search: &Search<'_>,
    settings: &Settings,
) -> Vec<Step> {
    let (mut turn, mut pos) = turn_part(root, pv);
    while pos.turn() == root.turn() && !pos.is_game_over() {
        let step = quick_best_step(&pos, search, settings);
        turn.push(step);
        pos.play(step);
    }
    turn
}

/// The steps of `pv` that belong to the turn of `root`'s side to move
/// (up to the first that does not, or is not legal), and where they lead.
pub fn turn_part(root: &Position, pv: &[Step]) -> (Vec<Step>, Position) {
    let mut turn = Vec::new();
    let mut pos = *root;
    for &s in pv {
        if pos.turn() != root.turn() || pos.is_game_over() || !pos.is_legal(s) {
            break;
        }
        turn.push(s);
        pos.play(s);
    }
    (turn, pos)
}

/// A short search for one step, ignoring the stopped main search: used to
/// finish a turn the main search did not reach the end of.
fn quick_best_step(pos: &Position, search: &Search<'_>, settings: &Settings) -> Step {
    let control = Control::new(Arc::new(AtomicBool::new(false)), None, Some(20_000));
    let progress = Progress::default();
    let shared = Shared {
        tt: search.tt,
        params: settings.params.for_players(pos.players_left()),
        control: &control,
        progress: &progress,
        eval_caches: search.eval_caches,
        net: settings.net_for(pos, Algorithm::AlphaBeta),
        resumed: false,
    };
    let mut worker = search.workers.main();
    let mut w = AlphaBeta::new(pos, &[], shared, &mut worker, true, Mode::Paranoid);
    let mut p = *pos;
    let mut best = None;
    for depth in 1..=i32::from(pos.steps_left()) {
        w.search_root(&mut p, depth);
        if w.stopped() && best.is_some() {
            break;
        }
        if let Some(&s) = w.root_pv().first() {
            best = Some(s);
        }
    }
    best.filter(|&s| pos.is_legal(s))
        .unwrap_or_else(|| pos.legal_step_vec()[0])
}
