//! The troll: plain steps, pulls and throws (RULES.md §3, Troll).
//!
//! - **Pull** (optional): stepping from X to an empty Y in direction d, the
//!   troll may drag a rock from X−d onto X. **[choice]** Pulling needs an
//!   empty Y, so a step cannot both pull and throw.
//! - **Throw**: stepping onto a rock, the troll must throw it in one of the
//!   four directions. The rock flies from the troll's square and looks at
//!   each next square: off the board, a troll or a rock stops it where it is;
//!   a sorcerer (any colour, the thrower's own too) is hit — the rock lands
//!   there and that sorcerer's whole team leaves; an empty square or a dwarf
//!   lets it fly on. A rock landing on a dwarf crushes it (SPLUT!). A throw
//!   ends the turn.
//! - **[choice] No zero-distance throw**: a direction whose first square is
//!   off the board, a troll or a rock is not legal. The square the troll came
//!   from is empty, so some direction is always legal.

use super::bitboard::Bitboard;
use super::board::{Direction, PADDED, Square};
use super::make::Undo;
use super::piece::{Kind, Seat};
use super::position::Position;
use super::step::{Step, StepKind};

impl Position {
    /// Squares a thrown rock can fly into first, once the troll has left `x`.
    #[inline]
    fn throw_openings(&self, x: Square) -> Bitboard {
        !(self.rocks | self.kinds[Kind::Troll.index()]) | x.bb()
    }

    /// Calls `f` with each legal step of the troll on `x`; whether there was one.
    #[inline(always)]
    pub(super) fn troll_steps(&self, x: Square, empty: Bitboard, f: &mut impl FnMut(Step)) -> bool {
        let mut any = false;
        let open = self.throw_openings(x);
        Direction::each(
            #[inline(always)]
            |d| {
                let y = x.neighbour_bb(d);
                if (y & empty).any() {
                    let y = y.single();
                    any = true;
                    f(Step::plain(StepKind::Troll, x, y, d));
                    let behind = x.neighbour_bb(d.opposite()) & self.rocks;
                    if behind.any() {
                        f(Step::pull(x, y, d, behind.single()));
                    }
                } else if (y & self.rocks).any() {
                    let y = y.single();
                    for e in Direction::ALL {
                        if (y.neighbour_bb(e) & open).any() {
                            any = true;
                            f(Step::throw(x, y, d, e));
                        }
                    }
                }
            },
        );
        any
    }
}

/// The number of steps of the troll on square index `x` (none for 64, no
/// square), given the empty squares, the rocks and the trolls (a parent's,
/// where perft counts a child from its parent): a step to each empty
/// neighbour, a pull where the square opposite holds a rock, and a throw
/// for each open square around each neighbouring rock.
#[inline(always)]
pub(super) fn troll_step_count(
    x: usize,
    empty: Bitboard,
    rocks: Bitboard,
    trolls: Bitboard,
) -> u32 {
    let (rocks, empty) = (rocks.0, empty.0);
    let near = &PADDED.neighbour_bb[x];
    let adjacent = PADDED.adjacent[x];
    // Steps and pulls: `&`, not `&&`, to keep the branches out.
    let pull = |d: usize| (near[d] & empty != 0) & (near[(d + 2) & 3] & rocks != 0);
    let mut n = (adjacent & empty).count_ones()
        + pull(0) as u32
        + pull(1) as u32
        + pull(2) as u32
        + pull(3) as u32;
    // Throws: a rock next to the troll is rare, so a loop over them
    // costs less than four counts.
    let open = !(rocks | trolls.0) | PADDED.bit[x];
    let mut near_rocks = adjacent & rocks;
    while near_rocks != 0 {
        let y = near_rocks.trailing_zeros() as usize;
        n += (PADDED.adjacent[y] & open).count_ones();
        near_rocks &= near_rocks - 1;
    }
    n
}

impl Position {
    /// Where a rock thrown from `from` towards `e` lands, and whether it hits
    /// a sorcerer there. The thrower already stands on `from`.
    #[inline]
    pub fn throw_landing(&self, from: Square, e: Direction) -> (Square, bool) {
        let sorcerers = self.kinds[Kind::Sorcerer.index()];
        let stoppers = self.rocks | sorcerers | self.kinds[Kind::Troll.index()];
        match (from.ray(e) & stoppers).first_towards(e) {
            None => (from.ray_end(e), false),
            Some(b) if sorcerers.has(b) => (b, true),
            Some(b) => (b.neighbour_bb(e.opposite()).single(), false),
        }
    }

    /// The seat whose sorcerer a throw step would hit, if any (the
    /// thrower's own included). `None` for other steps.
    pub fn throw_victim(&self, step: Step) -> Option<Seat> {
        let e = step.throw_direction()?;
        let (from, to) = (step.from(), step.to());
        let sorcerers = self.kinds[Kind::Sorcerer.index()];
        // The troll has left `from`, which may lie on the way back.
        let stoppers = self.rocks | sorcerers | (self.kinds[Kind::Troll.index()] & !from.bb());
        let hit = (to.ray(e) & stoppers).first_towards(e)?;
        if sorcerers.has(hit) {
            self.seat_at(hit)
        } else {
            None
        }
    }

    /// The rock on `from` (where the troll now stands) flies towards `e`;
    /// where it lands and whom it removes go into `undo`.
    pub(super) fn throw_rock<const H: bool>(
        &mut self,
        from: Square,
        e: Direction,
        undo: &mut Undo,
    ) {
        let (landing, hit) = self.throw_landing(from, e);
        undo.aux = landing.index() as u8;
        // A team piece where the rock lands is the hit sorcerer, or else a
        // dwarf right before an obstacle (trolls stop the rock before them).
        if let Some(seat) = self.seat_at(landing) {
            undo.victim = seat as u8;
            if hit {
                undo.removed = self.eliminate::<H>(seat);
            } else {
                debug_assert!(self.kinds[Kind::Dwarf.index()].has(landing));
                self.remove_team_piece::<H>(seat, Kind::Dwarf, landing);
                undo.removed[Kind::Dwarf.index()] = landing.index() as u8;
            }
        }
        self.move_rock::<H>(from, landing);
    }
}

#[cfg(test)]
mod tests {
    use crate::Seat;
    use crate::testkit::*;

    /// Red troll e5 above a rock on e4; green dwarf e8 below the rock on e9,
    /// green troll h4, red dwarf e2.
    const THROWS: &str = "R/1gDgS/5/7/R3rT3R/3R2gT/5/rSrD1/1 r 3 10 - - -";

    #[test]
    fn troll_steps_pulls_and_throws() {
        assert_eq!(
            legal_from(&pos(THROWS), "e5"),
            sorted("e5e6 e5e6^e4 e5f5 e5d5 e5e4*n e5e4*e e5e4*s e5e4*w")
        );
    }

    #[test]
    fn pull_is_optional_and_drags_the_rock_in_line_onto_the_square_left() {
        let p = pos(THROWS);
        assert_eq!(
            play(&p, "e5e6").to_spn(),
            "R/1gDgS/5/3rT3/R7R/3R2gT/5/rSrD1/1 r 2 10 - - -"
        );
        assert_eq!(
            play(&p, "e5e6^e4").to_spn(),
            "R/1gDgS/5/3rT3/R3R3R/6gT/5/rSrD1/1 r 2 10 - - e5"
        );
        // Only the rock directly behind, in line with the step.
        assert!(!is_legal(&p, "e5f5^e4"));
        assert!(!is_legal(&p, "e5d5^e4"));
    }

    #[test]
    fn splut_on_a_dwarf_before_an_obstacle() {
        // North: over e5-e7, the green dwarf e8 has the rock e9 behind it.
        let q = play(&pos(THROWS), "e5e4*n");
        assert_eq!(q.to_spn(), "R/1RgS/5/7/R7R/3rT2gT/5/rSrD1/1 g 3 11 - e8 -");
        assert!(q.in_game(Seat::Green));
    }

    #[test]
    fn thrown_rock_stops_before_trolls_and_at_the_edge_and_flies_over_dwarves() {
        let p = pos(THROWS);
        // East: stops before the green troll on h4.
        assert_eq!(
            play(&p, "e5e4*e").to_spn(),
            "R/1gDgS/5/7/R7R/3rT1RgT/5/rSrD1/1 g 3 11 - g4 -"
        );
        // West: stops at the edge, b4.
        assert_eq!(
            play(&p, "e5e4*w").to_spn(),
            "R/1gDgS/5/7/R7R/R2rT2gT/5/rSrD1/1 g 3 11 - b4 -"
        );
        // South: over the red dwarf on e2 to the tip e1; the dwarf lives.
        assert_eq!(
            play(&p, "e5e4*s").to_spn(),
            "R/1gDgS/5/7/R7R/3rT2gT/5/rSrD1/R g 3 11 - e1 -"
        );
    }

    #[test]
    fn a_dwarf_then_a_sorcerer_the_sorcerer_dies_with_its_team() {
        // e3 troll onto the rock e4, north: over the green dwarf e5, onto the
        // green sorcerer e7. Green's whole team leaves; red has won.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        let q = play(&p, "e3e4*n");
        assert_eq!(q.to_spn(), "R/3/2R2/7/R7R/rS2rT3/rD4/3/1 r 3 11 - e7 -");
        assert_eq!(q.winner(), Some(Seat::Red));
        assert!(q.legal_step_vec().is_empty());
        assert_eq!(q.legal_step_count(), 0);
    }

    #[test]
    fn thrown_rock_kills_the_throwers_own_sorcerer() {
        let p = pos("R/gTgDgS/5/3rS3/R7R/3R3/rD1rT2/3/1 r 3 10 - - -");
        let q = play(&p, "e3e4*n");
        assert_eq!(q.to_spn(), "R/gTgDgS/5/3R3/R7R/7/5/3/1 g 3 11 - e6 -");
        assert_eq!(q.winner(), Some(Seat::Green));
    }

    #[test]
    fn no_zero_distance_throws() {
        // Onto e4: d4 holds a rock, f4 the green troll; only north (the square
        // the troll left) and south are open.
        let p = pos("R/1gDgS/5/7/R3rT4/2RRgT2/5/rSrD1/1 r 3 10 - - -");
        assert_eq!(
            legal_from(&p, "e5"),
            sorted("e5e6 e5e6^e4 e5d5 e5f5 e5e4*n e5e4*s")
        );
        // Onto the tip e1: only back north.
        let tip = pos("R/gTgDgS/5/7/R7R/7/5/rSrT1/R r 3 10 - - -");
        assert_eq!(legal_from(&tip, "e2"), sorted("e2e3 e2e3^e1 e2f2 e2e1*n"));
    }

    #[test]
    fn no_pull_and_throw_in_one_step() {
        // Rocks on e6 and e4 around the troll on e5: stepping onto either
        // throws it; the other cannot be dragged along.
        let p = pos("R/gTgDgS/5/3R3/R3rT4/3R3/5/rSrD1/1 r 3 10 - - -");
        assert!(legal(&p).iter().all(|s| !s.contains('^')));
        assert!(!is_legal(&p, "e5e6^e4"));
        assert!(is_legal(&p, "e5e6*s"));
        assert!(is_legal(&p, "e5e4*n"));
    }

    #[test]
    fn a_throw_ends_the_turn_and_steps_left_are_lost() {
        let p = pos(THROWS);
        assert_eq!(p.steps_left(), 3);
        let q = play(&p, "e5e4*w");
        assert_eq!(
            (q.side_to_move(), q.steps_left(), q.turn()),
            (Seat::Green, 3, 11)
        );
    }
}

#[cfg(test)]
mod victim_tests {
    use crate::Seat;
    use crate::testkit::*;

    #[test]
    fn throw_victim_names_the_hit_sorcerer() {
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        let victim = |t: &str| p.throw_victim(p.parse_step(t).unwrap());
        assert_eq!(victim("e3e4*n"), Some(Seat::Green));
        assert_eq!(victim("e3e4*w"), Some(Seat::Red));
        assert_eq!(victim("e3e4*s"), None);
        assert_eq!(victim("e3f3"), None);
    }
}
