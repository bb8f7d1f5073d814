//! Static evaluation for 2–4 players.
//!
//! Every search asks the same question: how well is each seat doing? The
//! answer is one score per seat ([`seat_scores`]), built from the terms of
//! [`EvalParams`]. Two-player and paranoid searches then look from one seat
//! ([`evaluate`]: its score against the average of its opponents'), max-n
//! turns the scores into shares of a fixed total ([`evaluate_shares`]).
//!
//! Splut! is won by throwing rocks at sorcerers, so the terms that matter
//! most are about throws: who can kill whom before the victim can react.

pub mod threats;

use crate::game::{Kind, Position, Seat};
use threats::{exposed_lines, steps_to_kill, troll_steps_to_rock};

/// The evaluation's weights, in centi-units (a dwarf is worth about 150).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    /// Having one's dwarf: it pushes rocks and pieces, blocks lines and
    /// shields the sorcerer (thrown rocks fly over it, levitated ones do not).
    pub dwarf: i32,
    /// Charged to a seat whose sorcerer the side to move can hit within the
    /// steps it has left this turn: it is as good as dead. A throw ends the
    /// turn, so only one such seat is charged (the one scoring best, the
    /// likeliest target); any other the side to move could reach gets its
    /// turn to react and is charged `threat`.
    pub kill_now: i32,
    /// Charged to a seat whose sorcerer another seat, moving before it, can
    /// hit within a full turn (3 steps): the victim cannot react in time.
    pub threat_unanswered: i32,
    /// Charged to a seat whose sorcerer another seat can hit within a full
    /// turn, when the victim moves first and may still parry.
    pub threat: i32,
    /// Added to `threat` for the side to move per step it has already
    /// spent this turn (fewer steps left to parry).
    pub threat_per_spent_step: i32,
    /// Sorcerer safety: charged per rock lined up with one's sorcerer over
    /// empty squares and dwarves (a throw waiting for a troll).
    pub exposed_line: i32,
    /// Sorcerer safety: per empty square next to one's sorcerer (room to
    /// step out of a line).
    pub sorcerer_freedom: i32,
    /// Rock control: by the steps one's troll needs to stand next to a rock
    /// (index 0 to 3; farther is worth nothing).
    pub troll_near_rock: [i32; 4],
    /// Mobility: per empty square next to one of one's pieces.
    pub mobility: i32,
    /// Paranoid view: per opponent eliminated since the search's root (in
    /// 3-4 player games each elimination brings the win closer).
    pub eliminated_opponent: i32,
}

/// The weights the engine plays with.
pub const DEFAULT_PARAMS: EvalParams = EvalParams {
    dwarf: 150,
    kill_now: 5000,
    threat_unanswered: 3000,
    threat: 250,
    threat_per_spent_step: 150,
    exposed_line: 30,
    sorcerer_freedom: 10,
    troll_near_rock: [60, 40, 20, 10],
    mobility: 3,
    eliminated_opponent: 5000,
};

impl Default for EvalParams {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}

/// Total of the max-n shares ([`evaluate_shares`]).
pub const SHARES_TOTAL: i32 = 10_000;

/// Positional terms of one seat still in the game.
fn positional(pos: &Position, seat: Seat, p: &EvalParams) -> i32 {
    let mine = pos.seat_bb(seat);
    let empty = pos.empty();
    let mut score = 0;
    if (mine & pos.kind_bb(Kind::Dwarf)).any() {
        score += p.dwarf;
    }
    let sorcerer = mine & pos.kind_bb(Kind::Sorcerer);
    score -= p.exposed_line * exposed_lines(pos, seat) as i32;
    score += p.sorcerer_freedom * (sorcerer.neighbours() & empty).count() as i32;
    if let Some(d) = troll_steps_to_rock(pos, seat, 3) {
        score += p.troll_near_rock[d as usize];
    }
    let mut free = 0;
    for sq in mine {
        free += (sq.adjacent() & empty).count();
    }
    score + p.mobility * free as i32
}

/// Each seat's score (0 for seats out of the game); higher is better for
/// that seat.
pub fn seat_scores(pos: &Position, p: &EvalParams) -> [i32; 4] {
    let mut score = [0; 4];
    let stm = pos.side_to_move();
    // Seats in the order they move from now: the side to move first.
    let mut order = [Seat::Red; 4];
    let mut n = 0;
    for i in 0..4 {
        let s = Seat::from_index(stm as u8 + i);
        if pos.in_game(s) {
            order[n] = s;
            n += 1;
        }
    }
    let order = &order[..n];
    for &s in order {
        score[s.index()] = positional(pos, s, p);
    }
    let positional_score = score;
    let mut doomed: Option<Seat> = None;
    for (ia, &attacker) in order.iter().enumerate() {
        let steps = if ia == 0 { pos.steps_left() } else { 3 };
        for (iv, &victim) in order.iter().enumerate() {
            if iv == ia || steps_to_kill(pos, attacker, victim, steps).is_none() {
                continue;
            }
            if ia == 0 {
                // The side to move kills one victim at most this turn.
                let better =
                    |v: Seat| positional_score[v.index()] > positional_score[victim.index()];
                if doomed.is_none_or(|d| !better(d)) {
                    if let Some(d) = doomed {
                        score[d.index()] += p.kill_now - p.threat;
                    }
                    doomed = Some(victim);
                    score[victim.index()] -= p.kill_now;
                } else {
                    score[victim.index()] -= p.threat;
                }
                continue;
            }
            score[victim.index()] -= if ia < iv {
                p.threat_unanswered
            } else if iv == 0 {
                p.threat + p.threat_per_spent_step * (3 - pos.steps_left() as i32)
            } else {
                p.threat
            };
        }
    }
    score
}

/// The position from `root`'s side: its score against the average of its
/// opponents' (2 players: against the opponent's), plus a bonus per opponent
/// eliminated since the search began with `players_at_root` seats in the
/// game. Used by the two-player and paranoid searches.
pub fn evaluate(pos: &Position, root: Seat, players_at_root: u32, p: &EvalParams) -> i32 {
    let score = seat_scores(pos, p);
    let mut sum = 0;
    let mut opponents = 0;
    for s in pos.seats_in_game() {
        if s != root {
            sum += score[s.index()];
            opponents += 1;
        }
    }
    let out = players_at_root.saturating_sub(pos.players_left()) as i32;
    let against = if opponents > 0 { sum / opponents } else { 0 };
    score[root.index()] - against + p.eliminated_opponent * out
}

/// Max-n scores: each seat's share of [`SHARES_TOTAL`] (0 for seats out of
/// the game; the winner takes all). Shares never go negative and always sum
/// to the total, which max-n's shallow pruning relies on.
pub fn evaluate_shares(pos: &Position, p: &EvalParams) -> [i32; 4] {
    let mut shares = [0; 4];
    if let Some(w) = pos.winner() {
        shares[w.index()] = SHARES_TOTAL;
        return shares;
    }
    let score = seat_scores(pos, p);
    // Strength above a floor just under a doomed seat's score, so a seat
    // about to be killed keeps only a sliver.
    let mut weight = [0i64; 4];
    let mut total = 0i64;
    for s in pos.seats_in_game() {
        let w = (i64::from(score[s.index()]) + i64::from(p.kill_now) + 1000).max(50);
        weight[s.index()] = w;
        total += w;
    }
    let mut given = 0;
    let mut last = None;
    for s in pos.seats_in_game() {
        let share = (weight[s.index()] * i64::from(SHARES_TOTAL) / total) as i32;
        shares[s.index()] = share;
        given += share;
        last = Some(s);
    }
    if let Some(s) = last {
        shares[s.index()] += SHARES_TOTAL - given;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(spn: &str) -> Position {
        Position::from_spn(spn).unwrap()
    }

    #[test]
    fn start_positions_are_balanced() {
        let p = Position::start(2).unwrap();
        let s = seat_scores(&p, &DEFAULT_PARAMS);
        assert_eq!(s[Seat::Red.index()], s[Seat::Green.index()]);
        let p4 = Position::start(4).unwrap();
        let s4 = seat_scores(&p4, &DEFAULT_PARAMS);
        assert!(s4.iter().all(|&x| x == s4[0]));
        let shares = evaluate_shares(&p4, &DEFAULT_PARAMS);
        assert_eq!(shares.iter().sum::<i32>(), SHARES_TOTAL);
    }

    #[test]
    fn a_kill_this_turn_dominates() {
        // Red to move can throw e4 onto the green sorcerer.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert!(evaluate(&p, Seat::Red, 2, &DEFAULT_PARAMS) > 4000);
        assert!(evaluate(&p, Seat::Green, 2, &DEFAULT_PARAMS) < -4000);
        // The same board with green to move: green must parry, red's threat
        // still weighs but far less.
        let q = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 g 3 10 - - -");
        let e = evaluate(&q, Seat::Green, 2, &DEFAULT_PARAMS);
        assert!((-1000..0).contains(&e), "{e}");
    }

    #[test]
    fn losing_the_dwarf_costs() {
        let with = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        let without = pos("R/gT1gS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        let e = |p: &Position| evaluate(p, Seat::Red, 2, &DEFAULT_PARAMS);
        assert!(e(&without) > e(&with) + 50, "{} {}", e(&without), e(&with));
    }

    #[test]
    fn shares_sum_to_the_total_and_favour_the_killer() {
        let p = pos("R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R r 3 10 - - -");
        let s = evaluate_shares(&p, &DEFAULT_PARAMS);
        assert_eq!(s.iter().sum::<i32>(), SHARES_TOTAL);
        assert_eq!(s[Seat::Blue.index()], 0);
        // Red kills yellow now: red's share beats yellow's by far.
        let k = pos("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -");
        let s = evaluate_shares(&k, &DEFAULT_PARAMS);
        assert!(s[Seat::Red.index()] > 3 * s[Seat::Yellow.index()], "{s:?}");
    }
}
