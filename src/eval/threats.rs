//! Throw threats: which sorcerers a troll can hit within a number of steps.
//!
//! A troll kills by stepping onto a rock and throwing it along a line that
//! reaches a sorcerer over empty squares and dwarves only. So seat `a`
//! threatens seat `v` within `k` steps when a rock lined up with `v`'s
//! sorcerer is adjacent to a square `a`'s troll can walk to in `k − 1` steps
//! over empty squares. The rest of the board is assumed to stay still (no
//! pushes, pulls or levitations on the way); the search sees those.

use crate::game::{Bitboard, Direction, Kind, Position, Seat};

/// Squares the troll on `from` can stand on after at most `steps` plain
/// steps through `empty`, `from` included.
#[inline]
fn walk(from: Bitboard, empty: Bitboard, steps: u8) -> Bitboard {
    let mut reach = from;
    for _ in 0..steps {
        reach |= reach.neighbours() & empty;
    }
    reach
}

/// The rocks whose throw, by `attacker`'s troll once it stands on them,
/// would hit `victim`'s sorcerer: the first stopper met going out from the
/// sorcerer along each direction, when it is a rock. The attacker's troll
/// itself is not a stopper (it leaves its square to reach the rock).
#[inline]
fn lined_up_rocks(pos: &Position, attacker_troll: Bitboard, victim_sorcerer: Bitboard) -> Bitboard {
    let Some(s) = victim_sorcerer.lowest() else {
        return Bitboard::EMPTY;
    };
    let stoppers =
        pos.rocks() | pos.kind_bb(Kind::Sorcerer) | (pos.kind_bb(Kind::Troll) & !attacker_troll);
    let mut rocks = Bitboard::EMPTY;
    for d in Direction::ALL {
        if let Some(first) = (s.ray(d) & stoppers).first_towards(d) {
            rocks |= first.bb() & pos.rocks();
        }
    }
    rocks
}

/// The fewest steps (1..=`max_steps`) in which `attacker`'s troll can throw a
/// rock onto `victim`'s sorcerer, if it can within `max_steps`.
pub fn steps_to_kill(pos: &Position, attacker: Seat, victim: Seat, max_steps: u8) -> Option<u8> {
    let troll = pos.seat_bb(attacker) & pos.kind_bb(Kind::Troll);
    let sorcerer = pos.seat_bb(victim) & pos.kind_bb(Kind::Sorcerer);
    if troll.is_empty() || sorcerer.is_empty() || attacker == victim || max_steps == 0 {
        return None;
    }
    let targets = lined_up_rocks(pos, troll, sorcerer);
    if targets.is_empty() {
        return None;
    }
    let empty = pos.empty() | troll;
    let mut reach = troll;
    for k in 1..=max_steps {
        if (reach.neighbours() & targets).any() {
            return Some(k);
        }
        reach = walk(reach, empty, 1);
    }
    None
}

/// Rocks lined up with `seat`'s sorcerer over empty squares and dwarves,
/// whoever might throw them (every troll a stopper): its exposure.
pub fn exposed_lines(pos: &Position, seat: Seat) -> u32 {
    let sorcerer = pos.seat_bb(seat) & pos.kind_bb(Kind::Sorcerer);
    lined_up_rocks(pos, Bitboard::EMPTY, sorcerer).count()
}

/// Plain steps `seat`'s troll needs before it stands next to some rock
/// (0 when it already does), up to `max`; `None` beyond or without a troll.
pub fn troll_steps_to_rock(pos: &Position, seat: Seat, max: u8) -> Option<u8> {
    let troll = pos.seat_bb(seat) & pos.kind_bb(Kind::Troll);
    if troll.is_empty() {
        return None;
    }
    let next_to_rocks = pos.rocks().neighbours();
    let empty = pos.empty();
    let mut reach = troll;
    for k in 0..=max {
        if (reach & next_to_rocks).any() {
            return Some(k);
        }
        reach = walk(reach, empty, 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(spn: &str) -> Position {
        Position::from_spn(spn).unwrap()
    }

    #[test]
    fn a_troll_next_to_a_lined_up_rock_kills_in_one_step() {
        // Red troll e3 under the rock e4; over the green dwarf e5 to the
        // green sorcerer e7.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(1));
        // The rock e4 is lined up with the red sorcerer b4 too (west), but
        // the green troll d8 is far away.
        assert_eq!(steps_to_kill(&p, Seat::Green, Seat::Red, 3), None);
        assert_eq!(exposed_lines(&p, Seat::Red), 1);
        // e4 below (over the dwarf) and e9 above.
        assert_eq!(exposed_lines(&p, Seat::Green), 2);
    }

    #[test]
    fn walking_to_the_rock_counts_steps() {
        // Red troll g3 must walk to f4 (2 steps: g4, f4) or e3 (2 steps)
        // before stepping onto e4: 3 steps in all.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(3));
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 2), None);
        assert_eq!(troll_steps_to_rock(&p, Seat::Red, 3), Some(2));
    }

    #[test]
    fn the_attackers_own_troll_does_not_block_its_throw() {
        // Red troll e5 stands between the rock e4 and the green sorcerer
        // e7; it steps onto e4 and throws north over its old square.
        let p = pos("R/gT2/2gS2/7/R3rT3R/rS2R3/rD4/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 1), Some(1));
        assert!(
            p.legal_step_vec()
                .iter()
                .any(|&s| p.throw_victim(s) == Some(Seat::Green))
        );
    }

    #[test]
    fn another_troll_on_the_line_blocks_it() {
        let p = pos("R/3/2gS2/3gT3/R7R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), None);
    }
}
