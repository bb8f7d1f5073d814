//! Searches in process, on fixed positions: no binary, no protocol, just
//! `splut::search::Search` as a program embedding the engine would call it.

use splut::eval::EvalCaches;
use splut::game::{Position, Step};
use splut::search::score::Score;
use splut::search::tt::TranspositionTable;
use splut::search::{Algorithm, Limits, Outcome, Search, Settings};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Red's troll throws the rock on e4 north-west into green's sorcerer.
const KILL: &str = "R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -";

fn search(spn: &str, algorithm: Algorithm, limits: Limits, caches: &EvalCaches) -> Outcome {
    let root = Position::from_spn(spn).unwrap();
    let tt = TranspositionTable::new(4);
    let settings = Settings {
        algorithm,
        ..Settings::default()
    };
    let search = Search {
        root: &root,
        game_hashes: &[],
        limits: &limits,
        settings: &settings,
        tt: &tt,
        eval_caches: caches,
        ponder: None,
    };
    search.think(Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Plays `turn` from `spn`; the position after it.
fn play(spn: &str, turn: &[Step]) -> Position {
    let mut pos = Position::from_spn(spn).unwrap();
    for &s in turn {
        assert!(pos.is_legal(s), "{s} in {}", pos.to_spn());
        pos.play(s);
    }
    pos
}

#[test]
fn every_alpha_beta_search_takes_a_kill_at_hand() {
    let caches = EvalCaches::new();
    for algorithm in [Algorithm::Auto, Algorithm::AlphaBeta, Algorithm::MaxN] {
        let out = search(KILL, algorithm, depth(4), &caches);
        let after = play(KILL, &out.turn);
        assert!(after.is_game_over(), "{algorithm:?}: {:?}", out.turn);
        // Max-n reports shares, not proven results.
        if algorithm != Algorithm::MaxN {
            assert!(matches!(out.info.score, Score::Win(1)), "{:?}", out.info);
        }
    }
}

/// A fixed depth on one thread is deterministic, and a cache kept from an
/// earlier search changes nothing but the time.
#[test]
fn a_fixed_depth_search_is_reproducible_and_caches_change_nothing() {
    let spn = "R/gD1gS/1gT3/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -";
    let caches = EvalCaches::new();
    let first = search(spn, Algorithm::AlphaBeta, depth(6), &caches);
    let again = search(spn, Algorithm::AlphaBeta, depth(6), &caches);
    let fresh = search(spn, Algorithm::AlphaBeta, depth(6), &EvalCaches::new());
    for other in [&again, &fresh] {
        assert_eq!(first.turn, other.turn);
        assert_eq!(first.info.nodes, other.info.nodes);
        assert_eq!(first.info.score, other.info.score);
    }
    assert!(first.info.nodes > 1000, "{:?}", first.info);
    // The answer is the whole rest of the side to move's turn.
    let after = play(spn, &first.turn);
    assert_ne!(
        after.side_to_move(),
        Position::from_spn(spn).unwrap().side_to_move()
    );
}

/// A node limit is exact on one thread; the answer is still a whole turn.
#[test]
fn a_node_limit_is_kept() {
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let start = Position::start(4).unwrap().to_spn();
    let out = search(&start, Algorithm::Auto, limits, &EvalCaches::new());
    assert!(out.info.nodes <= 5_000 + 64, "{:?}", out.info);
    assert_eq!(out.turn.len(), 1, "the first turn of the game is one step");
    play(&start, &out.turn);
}
