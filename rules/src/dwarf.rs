//! The dwarf: plain steps and pushes (RULES.md §3, Dwarf).
//!
//! A dwarf stepping into an occupied square pushes the unbroken run of pieces
//! starting there (any colours, rocks included) one square along. The step is
//! legal only if the square after the run is on the board and empty: nothing
//! is ever pushed off. So a dwarf may step in direction d exactly when some
//! square beyond it in that direction is empty — the first such square ends
//! the run. Pushing never kills; pushed rocks count as moved.

use super::bitboard::Bitboard;
use super::board::{Direction, PADDED, Square};
use super::position::Position;
use super::step::{Step, StepKind};

impl Position {
    /// Calls `f` with each legal step of the dwarf on `x`; whether there was one.
    #[inline(always)]
    pub(super) fn dwarf_steps(&self, x: Square, empty: Bitboard, f: &mut impl FnMut(Step)) -> bool {
        let mut any = false;
        Direction::each(
            #[inline(always)]
            |d| {
                if (x.ray(d) & empty).any() {
                    any = true;
                    f(Step::plain(
                        StepKind::Dwarf,
                        x,
                        x.neighbour_bb(d).single(),
                        d,
                    ));
                }
            },
        );
        any
    }

    /// Moves the run in front of the dwarf on `x` one square along `d`,
    /// farthest piece first so every destination is empty when filled.
    /// Returns the index of the empty square that ended the run.
    pub(super) fn push_run<const H: bool>(&mut self, x: Square, d: Direction) -> u8 {
        let Some((_, end)) = push_span(x, d, self.empty()) else {
            return super::make::NONE;
        };
        let mut to = end;
        let back = d.opposite();
        while let Some(from) = to.neighbour(back) {
            if from == x {
                break;
            }
            self.move_any_piece::<H>(from, to);
            to = from;
        }
        end.index() as u8
    }
}

/// What the dwarf on `x` pushes along `d`, given the empty squares: the
/// run (the squares from the dwarf's neighbour up to the first empty one,
/// that one left out) and that empty square, which ends it; `None` where
/// no square beyond is empty (no step that way).
#[inline(always)]
pub(super) fn push_span(x: Square, d: Direction, empty: Bitboard) -> Option<(Bitboard, Square)> {
    let ray = x.ray(d);
    let end = (ray & empty).first_towards(d)?;
    Some((ray ^ end.ray(d) ^ end.bb(), end))
}

/// The number of steps of the dwarf on square index `x` (none for 64, no
/// square), given the empty squares (a parent's, where perft counts a
/// child from its parent): a direction with an empty square somewhere
/// beyond.
#[inline(always)]
pub(super) fn dwarf_step_count(x: usize, empty: Bitboard) -> u32 {
    let ray = &PADDED.ray[x];
    (ray[0] & empty.0 != 0) as u32
        + (ray[1] & empty.0 != 0) as u32
        + (ray[2] & empty.0 != 0) as u32
        + (ray[3] & empty.0 != 0) as u32
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use crate::{Seat, Square};

    #[test]
    fn push_chain_with_two_rocks_both_cool_next_turn() {
        // Red's last step: the dwarf on e2 pushes the rocks on e3 and e4.
        let p = pos("1/gTgDgS/5/7/R7R/3R3/2R2/rSrDrT/1 r 1 10 - - -");
        let q = play(&p, "e2e3");
        assert_eq!(
            q.to_spn(),
            "1/gTgDgS/5/7/R3R3R/3R3/2rD2/rS1rT/1 g 3 11 - e4,e5 -"
        );
        let e4 = Square::parse("e4").unwrap();
        let e5 = Square::parse("e5").unwrap();
        assert!(!q.levitatable_rocks().has(e4));
        assert!(!q.levitatable_rocks().has(e5));
        // Green moves no rock: they are free again for red.
        let r = play(&q, "d8d7 d7c7 e8d8");
        assert_eq!(r.side_to_move(), Seat::Red);
        assert!(r.cooling().is_empty());
        assert!(r.levitatable_rocks().has(e4) && r.levitatable_rocks().has(e5));
    }

    #[test]
    fn push_moves_pieces_of_any_colour_and_never_kills() {
        // c5 dwarf pushes green troll d5, rock e5, green sorcerer f5 east;
        // the sorcerer is pushed along, not killed.
        let p = pos("R/1gD1/5/7/R1rDgTRgS3/7/5/rS1rT/R r 3 10 - - -");
        let q = play(&p, "c5d5");
        assert_eq!(
            q.to_spn(),
            "R/1gD1/5/7/R2rDgTRgS2/7/5/rS1rT/R r 2 10 - - f5"
        );
        assert!(q.in_game(Seat::Green));
    }

    #[test]
    fn nothing_is_pushed_off_the_board() {
        // f5 east: rock g5, sorcerer h5, rock i5, then the edge.
        let p = pos("R/gTgD1/5/7/R4rDRgSR/7/5/rS1rT/1 r 3 10 - - -");
        assert_eq!(legal_from(&p, "f5"), sorted("f5f6 f5f4 f5e5"));
        assert!(!is_legal(&p, "f5g5"));
    }

    #[test]
    fn dwarf_steps_one_square_orthogonally_onto_the_board() {
        // The start position's dwarf: only north is free (d2/f2 hold its own
        // team with the edge behind, e1 a rock with the edge behind).
        let p = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
        assert_eq!(legal_from(&p, "e2"), sorted("e2e3"));
        assert!(!is_legal(&p, "e2d3"));
    }
}
