//! Reference players to measure the engine against.
//!
//! - `random`: every step uniformly at random among the legal steps.
//! - `greedy`: looks one turn deep. It tries every way to play the rest of
//!   its turn and takes, in order of preference: a win; the most opponents
//!   killed; a position where no opponent can hit its sorcerer within a
//!   turn (the evaluation's throw-threat test); at random among the rest.
//!   Its own death is last.
//!
//! Both are seeded, so a game between them is replayable.

use super::SmallRng;
use crate::eval::threats::steps_to_kill_with;
use rand::{Rng, SeedableRng};
use splut_rules::{Position, Step, StepList};
use std::collections::HashSet;

/// A random rest of the turn.
pub fn random_turn(root: &Position, seed: u64) -> Vec<Step> {
    let mut rng = SmallRng::seed_from_u64(seed ^ root.hash());
    let mut pos = *root;
    let mut turn = Vec::new();
    let mut list = StepList::new();
    while pos.turn() == root.turn() && !pos.is_game_over() {
        pos.legal_steps(&mut list);
        let s = list[rng.random_range(0..list.len())];
        turn.push(s);
        pos.play(s);
    }
    turn
}

/// Every distinct position the rest of the turn can end in, with one way
/// to get there.
fn turn_ends(root: &Position) -> Vec<(Position, Vec<Step>)> {
    fn walk(
        pos: &Position,
        turn: u32,
        steps: &mut Vec<Step>,
        seen: &mut HashSet<u64>,
        out: &mut Vec<(Position, Vec<Step>)>,
    ) {
        if pos.turn() != turn || pos.is_game_over() {
            if seen.insert(pos.hash()) {
                out.push((*pos, steps.clone()));
            }
            return;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &s in list.iter() {
            steps.push(s);
            walk(&pos.after(s), turn, steps, seen, out);
            steps.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        root,
        root.turn(),
        &mut Vec::new(),
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// The greedy player's rest of the turn.
pub fn greedy_turn(root: &Position, seed: u64) -> Vec<Step> {
    let me = root.side_to_move();
    let mut rng = SmallRng::seed_from_u64(seed ^ root.hash());
    let before = root.players_left();
    let rank = |pos: &Position, rng: &mut SmallRng| -> (bool, bool, u32, bool, u32) {
        let alive = pos.in_game(me);
        let won = pos.winner() == Some(me);
        let kills = before - pos.players_left() - u32::from(!alive);
        // Plain throws only (no pulls): the greedy player stays as measured.
        let safe = alive
            && pos
                .seats_in_game()
                .filter(|&o| o != me)
                .all(|o| steps_to_kill_with(pos, o, me, 3, false).is_none());
        (won, alive, kills, safe, rng.random())
    };
    turn_ends(root)
        .into_iter()
        .map(|(p, steps)| (rank(&p, &mut rng), steps))
        .max_by_key(|(r, _)| *r)
        .map(|(_, steps)| steps)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::Seat;

    #[test]
    fn random_turns_are_whole_legal_turns_and_seeded() {
        let p = Position::start(3)
            .unwrap()
            .after(Position::start(3).unwrap().legal_step_vec()[0]);
        let t = random_turn(&p, 7);
        assert_eq!(t.len(), 2);
        assert_eq!(t, random_turn(&p, 7));
        let mut q = p;
        for s in &t {
            assert!(q.is_legal(*s));
            q.play(*s);
        }
        assert_ne!(q.turn(), p.turn());
    }

    #[test]
    fn greedy_kills_when_it_can_and_dodges_otherwise() {
        // Red can walk its troll round and throw e4 at green (3 steps).
        let kill = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -").unwrap();
        let mut p = kill;
        for s in greedy_turn(&kill, 1) {
            p.play(s);
        }
        assert_eq!(p.winner(), Some(Seat::Red));
        // Green to move on the same board must get out of the threat.
        let dodge = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 g 3 10 - - -").unwrap();
        let mut p = dodge;
        for s in greedy_turn(&dodge, 1) {
            p.play(s);
        }
        assert!(steps_to_kill_with(&p, Seat::Red, Seat::Green, 3, false).is_none());
    }

    #[test]
    fn a_kill_this_turn_is_found_exhaustively() {
        let kill = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -").unwrap();
        assert!(kill.can_kill_this_turn());
        // One step short of it.
        let short = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 2 10 - - -").unwrap();
        assert!(!short.can_kill_this_turn());
        assert!(!Position::start(4).unwrap().can_kill_this_turn());
    }
}
