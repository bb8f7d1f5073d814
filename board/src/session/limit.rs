//! The board's draw rules: the rules have no draw (RULES.md), so a game
//! between engines at low levels could wander without end. Once no person
//! is left playing it (every seat still in the game is the engine's, or
//! its person left for good), the board judges it as the tournaments do
//! ([`BOARD_ADJUDICATION`]): a position occurring a third time, or a new
//! turn past turn 200, ends it, and the seats still in share the places
//! not yet given. The end is read from the game and its seats alone, so
//! a host's kept game (its steps and seats) ends the same way again.

use super::SeatConfig;
use splut_play::judge::{Adjudication, Judge, Reason};
use splut_rules::Game;

/// The board's draw rules, the tournaments' default: 200 turns, threefold
/// repetition.
pub const BOARD_ADJUDICATION: Adjudication = Adjudication {
    max_turns: 200,
    repetitions: 3,
};

/// Whether a person still plays the game: a person's seat still in it
/// whose person has not left for good (one away may come back).
pub fn person_playing(game: &Game, seats: &[SeatConfig]) -> bool {
    let pos = game.position();
    pos.seats_in_game()
        .any(|s| seats.iter().any(|c| c.seat == s && !c.engine && !c.left))
}

/// How the board's draw rules end `game` where it stands, if they do: not
/// a game that is over by the rules, nor one a person still plays.
pub fn adjudicated(game: &Game, seats: &[SeatConfig]) -> Option<Reason> {
    let pos = game.position();
    if pos.is_game_over() || person_playing(game, seats) {
        return None;
    }
    let positions = game.positions();
    // The turn limit is judged before a turn, as the referee judges it.
    let turn_start = match positions.len().checked_sub(2) {
        None => true,
        Some(i) => positions[i].side_to_move() != pos.side_to_move(),
    };
    let judge = Judge::new(BOARD_ADJUDICATION);
    if turn_start && let Some(r) = judge.before_turn(pos) {
        return Some(r);
    }
    let mut judge = judge;
    let mut last = None;
    for p in &positions[1..] {
        last = judge.after_step(p);
    }
    last
}
