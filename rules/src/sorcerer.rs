//! The sorcerer: plain steps and levitation (RULES.md §3, Sorcerer).
//!
//! When the sorcerer steps from X to an empty X+d, one rock R anywhere on the
//! board may move to R+d in the same step, if:
//! - R+d is on the board and empty before the step **[choice]** (so a rock
//!   directly behind the sorcerer cannot follow it into X, and dwarves,
//!   trolls and sorcerers block levitated rocks: they never kill or throw);
//! - R did not move during the previous turn (it is not cooling), even if it
//!   was pushed or pulled since **[choice]**;
//! - no other rock was levitated this turn, and the levitation run was not
//!   broken by another step since the last levitating step.

use super::bitboard::Bitboard;
use super::board::{Direction, PADDED, Square};
use super::position::{LEV_NOT_STARTED, LEV_OVER, Position};
use super::step::{Step, StepKind};

impl Position {
    /// Rocks the sorcerer may levitate with its next step.
    #[inline]
    pub fn levitatable_rocks(&self) -> Bitboard {
        match self.lev {
            LEV_NOT_STARTED => self.rocks & !self.cooling,
            LEV_OVER => Bitboard::EMPTY,
            q => Square::from_index_unchecked(q).bb(),
        }
    }

    /// Calls `f` with each legal step of the sorcerer on `x`; whether there was one.
    #[inline(always)]
    pub(super) fn sorcerer_steps(
        &self,
        x: Square,
        empty: Bitboard,
        f: &mut impl FnMut(Step),
    ) -> bool {
        let mut any = false;
        let lev = self.levitatable_rocks();
        Direction::each(
            #[inline(always)]
            |d| {
                let y = x.neighbour_bb(d) & empty;
                if y.is_empty() {
                    return;
                }
                let y = y.single();
                any = true;
                f(Step::plain(StepKind::Sorcerer, x, y, d));
                // The rocks that can follow, by where they land: one branch
                // per levitation, none per rock that cannot follow.
                for to in lev.shift(d) & empty {
                    let r = to.index() as i8 - d.index_offset();
                    f(Step::levitate(
                        x,
                        y,
                        d,
                        Square::from_index_unchecked(r as u8),
                    ));
                }
            },
        );
        any
    }

    /// The rocks a sorcerer may levitate when the levitation is at `lev`
    /// (a rock's square, [`LEV_NOT_STARTED`] or [`LEV_OVER`]), without
    /// branches: all free ones before the first levitation, the levitated
    /// one during a run, none after it (its code is past the board's bits,
    /// so the shift adds nothing).
    #[inline(always)]
    pub(super) fn levitatable_for_count(&self, lev: u8) -> Bitboard {
        let q = lev as u32;
        let run = Bitboard(1u64 << (q & 63) & Bitboard::ALL.0);
        let all = Bitboard(0u64.wrapping_sub((q == LEV_NOT_STARTED as u32) as u64));
        run | (self.rocks & !self.cooling & all)
    }
}

/// The number of steps of the sorcerer on square index `x` (none for 64,
/// no square), given the empty squares and the rocks it may levitate
/// (a parent's squares, where perft counts a child from its parent):
/// without branches, each open direction is a step, and one more for
/// each levitatable rock that can follow that way.
#[inline(always)]
pub(super) fn sorcerer_step_count(x: usize, empty: Bitboard, lev: Bitboard) -> u32 {
    let mut n = 0;
    for d in Direction::ALL {
        let open = (PADDED.neighbour_bb[x][d.index()] & empty.0 != 0) as u32;
        n += open * (1 + (lev.shift(d) & empty).count());
    }
    n
}

impl Position {
    /// Moves the levitated rock along with the sorcerer (already moved).
    pub(super) fn levitate<const H: bool>(&mut self, rock: Square, d: Direction) {
        let to = (rock.neighbour_bb(d)).single();
        self.move_rock::<H>(rock, to);
        self.lev = to.index() as u8;
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use crate::{Levitation, Square};

    /// Red sorcerer e4 in the open, the four rocks on the tips.
    const OPEN: &str = "R/gD1gT/2gS2/7/R7R/3rS3/rD3rT/3/R r 3 10 - - -";

    #[test]
    fn plain_steps_go_to_empty_adjacent_squares() {
        let p = pos(OPEN);
        let plain: Vec<String> = legal_from(&p, "e4")
            .into_iter()
            .filter(|s| s.len() == 4)
            .collect();
        assert_eq!(plain, sorted("e4e5 e4f4 e4e3 e4d4"));
    }

    #[test]
    fn levitates_a_remote_rock_the_same_way() {
        let p = pos(OPEN);
        assert_eq!(
            legal_from(&p, "e4"),
            sorted("e4e5 e4e5@e1 e4f4 e4f4@a5 e4e3 e4e3@e9 e4d4 e4d4@i5")
        );
        let q = play(&p, "e4e5@e1");
        assert_eq!(
            q.to_spn(),
            "R/gD1gT/2gS2/7/R3rS3R/7/rD3rT/1R1/1 r 2 10 e2 - e2"
        );
        assert_eq!(
            q.levitation(),
            Levitation::Rock(Square::parse("e2").unwrap())
        );
    }

    #[test]
    fn levitated_rocks_need_an_empty_destination() {
        // e1's way north is the red dwarf, a5's way east the green troll,
        // i5's way west the green dwarf, e9's way south the green sorcerer:
        // levitated rocks never push, throw or kill.
        let p = pos("R/1gS1/5/7/RgT5gDR/3rS3/4rT/1rD1/R r 3 10 - - -");
        assert_eq!(legal_from(&p, "e4"), sorted("e4e5 e4f4 e4e3 e4d4"));
    }

    #[test]
    fn rock_behind_the_sorcerer_cannot_follow_and_rocks_block_the_sorcerer() {
        // [choice] both destinations empty before the step: e3 cannot follow
        // the sorcerer from e4 to e5, d4 cannot move into e4 either; the
        // sorcerer cannot step onto the rocks on d4 and e3.
        let p = pos("R/gD1gT/2gS2/7/R8/2RrS3/rD1R1rT/3/1 r 3 10 - - -");
        assert_eq!(
            legal_from(&p, "e4"),
            sorted("e4e5 e4e5@d4 e4f4 e4f4@a5 e4f4@e3")
        );
    }

    #[test]
    fn cooling_rock_cannot_be_levitated() {
        let p = pos("R/gD1gT/2gS2/7/R7R/3rS3/rD3rT/3/R r 3 10 - e1 -");
        assert!(!is_legal(&p, "e4e5@e1"));
        assert!(is_legal(&p, "e4f4@a5"));
    }

    /// Red dwarf b4 can push the rock on c4 to d4, then the sorcerer on f6
    /// steps north and may try to levitate it.
    const PUSH_THEN_LEVITATE: &str = "R/gD1gT/2gS2/4rS2/R7R/rDR5/4rT/3/1 r 3 10 - - -";

    #[test]
    fn rock_pushed_this_turn_may_be_levitated() {
        let p = play(&pos(PUSH_THEN_LEVITATE), "b4c4");
        assert_eq!(
            p.to_spn(),
            "R/gD1gT/2gS2/4rS2/R7R/1rDR4/4rT/3/1 r 2 10 - - d4"
        );
        let q = play(&p, "f6f7@d4");
        assert_eq!(
            q.to_spn(),
            "R/gD1gT/2gSrS1/7/R2R4R/1rD5/4rT/3/1 r 1 10 d5 - d5"
        );
    }

    #[test]
    fn cooling_rock_stays_forbidden_after_being_pushed() {
        // [choice] the rock moved in the previous turn; pushing it does not
        // make it levitatable, and it stays cooling on its new square.
        let start = PUSH_THEN_LEVITATE.replace("- - -", "- c4 -");
        let p = play(&pos(&start), "b4c4");
        assert_eq!(
            p.to_spn(),
            "R/gD1gT/2gS2/4rS2/R7R/1rDR4/4rT/3/1 r 2 10 - d4 d4"
        );
        assert!(!is_legal(&p, "f6f7@d4"));
        assert!(is_legal(&p, "f6f7"));
    }

    #[test]
    fn rock_pulled_this_turn_may_be_levitated() {
        // The troll on e3 steps north, dragging the rock on e2 onto e3; the
        // sorcerer on f6 may then levitate that rock east.
        let p = pos("R/gD1gT/2gS2/4rS2/R7R/7/rD1rT2/1R1/1 r 3 10 - - -");
        let q = play(&p, "e3e4^e2");
        assert_eq!(
            q.to_spn(),
            "R/gD1gT/2gS2/4rS2/R7R/3rT3/rD1R2/3/1 r 2 10 - - e3"
        );
        assert!(is_legal(&q, "f6g6@e3"));
    }

    #[test]
    fn only_the_levitated_rock_may_follow_again() {
        let p = play(&pos(OPEN), "e4e5@e1");
        // a5 could go east to b5, but one rock per turn.
        assert_eq!(
            legal_from(&p, "e5"),
            sorted("e5e6 e5e6@e2 e5f5 e5f5@e2 e5e4 e5e4@e2 e5d5 e5d5@e2")
        );
        let q = play(&p, "e5f5@e2");
        assert_eq!(
            q.levitation(),
            Levitation::Rock(Square::parse("f2").unwrap())
        );
    }

    #[test]
    fn levitation_interrupted_is_not_resumable() {
        let p = play(&pos(OPEN), "e4e5@e1");
        // Another piece steps: the run is broken for the rest of the turn.
        let q = play(&p, "g3g4");
        assert_eq!(q.levitation(), Levitation::Over);
        assert_eq!(
            q.to_spn(),
            "R/gD1gT/2gS2/7/R3rS3R/5rT1/rD4/1R1/1 r 1 10 x - e2"
        );
        assert!(legal_from(&q, "e5").iter().all(|s| !s.contains('@')));
        // The sorcerer stepping without the rock breaks it too.
        let r = play(&p, "e5e6");
        assert_eq!(r.levitation(), Levitation::Over);
        assert!(legal_from(&r, "e6").iter().all(|s| !s.contains('@')));
    }

    #[test]
    fn plain_steps_before_the_first_levitation_do_not_prevent_it() {
        let p = play(&pos(OPEN), "g3g4 e4e3");
        assert_eq!(p.levitation(), Levitation::NotStarted);
        assert!(is_legal(&p, "e3e2@e9"));
    }

    #[test]
    fn levitation_resets_next_turn_and_the_rock_then_cools() {
        let p = play(&pos(OPEN), "e4e5@e1 e5e6@e2 g3g4");
        assert_eq!(p.side_to_move(), crate::Seat::Green);
        assert_eq!(p.levitation(), Levitation::NotStarted);
        assert_eq!(
            p.to_spn(),
            "R/gD1gT/2gS2/3rS3/R7R/5rT1/rD1R2/3/1 g 3 11 - e3 -"
        );
    }
}
