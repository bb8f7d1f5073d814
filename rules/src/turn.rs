//! Turns, elimination and the end of the game (RULES.md §2 and §4).
//!
//! - A turn has 1 step in the game's first turn, 2 in its second, 3 after.
//!   All steps are mandatory; a throw or `pass` ends the turn at once.
//! - Play goes clockwise `r → y → g → b`, skipping seats no longer in the
//!   game; after a throw the next seat is the one after the thrower, also
//!   when the thrower killed its own sorcerer.
//! - A hit sorcerer's whole team leaves at once; the seat plays no more.
//! - The game ends when one sorcerer is left; its seat is then "to move" and
//!   has no legal step.
//! - **[choice]** When the side to move has no legal step, its only step is
//!   `pass`, which ends its turn; `pass` is never legal otherwise.
//! - Rocks moved during a turn are the next turn's cooling rocks.

use super::piece::{Kind, Seat};
use super::position::{LEV_NOT_STARTED, Position, next_seat, steps_in_turn};
use super::zobrist::KEYS;
use std::fmt;

/// Why [`Position::whole_turn_of`] has no whole turn to give.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WholeTurnError {
    /// The game is over: no seat moves again.
    GameOver,
    /// The seat asked for is out of the game.
    NotInGame {
        /// The seat.
        seat: Seat,
    },
}

impl fmt::Display for WholeTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WholeTurnError::GameOver => f.write_str("the game is over"),
            WholeTurnError::NotInGame { seat } => write!(f, "{} is not in the game", seat.name()),
        }
    }
}

impl std::error::Error for WholeTurnError {}

impl Position {
    /// One step of the turn is done.
    #[inline]
    pub(super) fn end_step<const H: bool>(&mut self) {
        if self.steps_left > 1 {
            self.steps_left -= 1;
        } else {
            self.end_turn::<H>();
        }
    }

    /// Hands the move to the next seat still in the game (`H`: keep the
    /// hash).
    pub(super) fn end_turn<const H: bool>(&mut self) {
        if H {
            for sq in self.cooling {
                self.board_hash ^= KEYS.cooling[sq.index()];
            }
            for sq in self.moved {
                self.board_hash ^= KEYS.cooling[sq.index()] ^ KEYS.moved[sq.index()];
            }
        }
        self.cooling = self.moved;
        self.moved = super::bitboard::Bitboard::EMPTY;
        self.lev = LEV_NOT_STARTED;
        // Positions read from text start at most at MAX_TURN, over three
        // billion turns below u32::MAX, more than any input can play (a
        // `position` line holds about 200,000 steps); saturating keeps the
        // library's own endless play from wrapping to turn 0 all the same.
        self.turn = self.turn.saturating_add(1);
        self.side = next_seat(self.side, self.in_game);
        self.steps_left = steps_in_turn(self.turn);
    }

    /// Removes a seat's whole team (its sorcerer was hit); returns the
    /// squares its sorcerer, dwarf and troll stood on.
    pub(super) fn eliminate<const H: bool>(&mut self, seat: Seat) -> [u8; 3] {
        let mut removed = [super::make::NONE; 3];
        for kind in Kind::ALL {
            if let Some(sq) = (self.seats[seat.index()] & self.kinds[kind.index()]).lowest() {
                self.remove_team_piece::<H>(seat, kind, sq);
                removed[kind.index()] = sq.index() as u8;
            }
        }
        self.in_game &= !(1 << seat as u8);
        removed
    }

    /// The seat that moved first in a game set up from this position (UGI's
    /// `p1`). At turn 1 it is the side to move; later, with 2 seats in the
    /// game, the seat whose turns are odd; with 3–4 the first seat in the
    /// game in the order r, y, g, b (the first mover of every standard game,
    /// red, when red plays).
    pub fn first_mover(&self) -> Seat {
        let side = self.side;
        if self.turn == 1 {
            return side;
        }
        let seats: Vec<Seat> = self.seats_in_game().collect();
        if seats.len() == 2 {
            let other = if seats[0] == side { seats[1] } else { seats[0] };
            return if self.turn % 2 == 1 { side } else { other };
        }
        seats.first().copied().unwrap_or(side)
    }

    /// Whether the side to move can, within the rest of its turn, put an
    /// opponent out of the game (exhaustive over its steps; stops at the
    /// first way found).
    pub fn can_kill_this_turn(&self) -> bool {
        // Only a throw kills, and any last step ends the turn: on the last
        // step only the troll's throws need be looked at, and not made.
        if self.steps_left() <= 1 {
            return self.can_kill_with_a_throw();
        }
        let mover = self.side;
        let opponents = self.players_left().saturating_sub(1);
        let mut list = super::movegen::StepList::new();
        self.legal_steps(&mut list);
        list.iter().any(|&s| {
            let next = self.after(s);
            let alive = next.seats_in_game().filter(|&o| o != mover).count() as u32;
            alive < opponents
                || (next.turn == self.turn && !next.is_game_over() && next.can_kill_this_turn())
        })
    }

    /// Whether one of the side to move's throws hits an opponent's
    /// sorcerer now (its troll's steps are the throws among the legal
    /// steps; the victim is known without making the throw).
    fn can_kill_with_a_throw(&self) -> bool {
        if self.is_game_over() {
            return false;
        }
        let Some(troll) = self.piece_square(self.side, Kind::Troll) else {
            return false;
        };
        let mut list = super::movegen::StepList::new();
        self.troll_steps(troll, self.empty(), &mut |s| list.push(s));
        list.iter().any(|&s| {
            self.throw_victim(s)
                .is_some_and(|victim| victim != self.side)
        })
    }

    /// This board with `seat` to move at the start of a whole turn of its
    /// own: three steps, no rock levitated, moved or cooling (so every
    /// levitation is open), the turn number kept but at least 3 (the first
    /// turn with three steps). A what-if, for questions such as "could this
    /// seat strike if it moved now"; an error if `seat` is out of the game
    /// or the game is over.
    pub fn whole_turn_of(&self, seat: Seat) -> Result<Position, WholeTurnError> {
        if self.is_game_over() {
            return Err(WholeTurnError::GameOver);
        }
        if !self.in_game(seat) {
            return Err(WholeTurnError::NotInGame { seat });
        }
        let mut p = *self;
        p.side = seat;
        p.turn = self.turn.max(3);
        p.steps_left = steps_in_turn(p.turn);
        p.lev = LEV_NOT_STARTED;
        p.cooling = super::bitboard::Bitboard::EMPTY;
        p.moved = super::bitboard::Bitboard::EMPTY;
        p.board_hash = p.compute_board_hash();
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use crate::{MAX_TURN, Position, Seat, WholeTurnError};

    #[test]
    fn opening_turns_have_one_then_two_then_three_steps() {
        for players in 2..=4 {
            let p = Position::start(players).unwrap();
            assert_eq!(
                (p.side_to_move(), p.steps_left(), p.turn()),
                (Seat::Red, 1, 1)
            );
            let p = play(&p, "e2e3");
            let second = if players == 2 {
                Seat::Green
            } else {
                Seat::Yellow
            };
            assert_eq!((p.side_to_move(), p.steps_left(), p.turn()), (second, 2, 2));
            let mut p = p;
            for _ in 0..2 {
                p = p.after(p.legal_step_vec()[0]);
            }
            assert_eq!(p.steps_left(), 3);
            assert_eq!(p.turn(), 3);
            for _ in 0..3 {
                p = p.after(p.legal_step_vec()[0]);
            }
            assert_eq!(p.turn(), 4);
        }
    }

    #[test]
    fn a_turn_at_max_turn_ends_like_any_other() {
        let p = pos(&format!(
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 {MAX_TURN} - - -"
        ));
        let q = play(&p, "e2e3 e3e4 d2d3");
        assert_eq!(
            (q.side_to_move(), q.steps_left(), q.turn()),
            (Seat::Green, 3, MAX_TURN + 1)
        );
        // A search looks far fewer steps ahead than this; every turn still
        // ends with the next seat and the next number.
        let mut r = q;
        for _ in 0..3000 {
            let Some(&step) = r.legal_step_vec().first() else {
                break;
            };
            let before = r;
            r.play(step);
            if r.side_to_move() != before.side_to_move() {
                assert_eq!(r.turn(), before.turn() + 1, "{before} {step}");
            } else {
                assert!(r.turn() == before.turn() || r.is_game_over());
            }
        }
        assert!(r.turn() > MAX_TURN);
    }

    #[test]
    fn the_turn_counter_stops_at_its_largest_value_never_wraps() {
        // Unreachable through any entry point (over three billion turns
        // past MAX_TURN), but the library's own play must not wrap or panic.
        let mut p = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        p.turn = u32::MAX - 1;
        let q = play(&p, "e2e3 e3e4 d2d3");
        assert_eq!((q.side_to_move(), q.turn()), (Seat::Green, u32::MAX));
        let r = play(&q, "e8e7 e7e6 f8f7");
        assert_eq!(
            (r.side_to_move(), r.turn(), r.steps_left()),
            (Seat::Red, u32::MAX, 3)
        );
    }

    #[test]
    fn play_goes_clockwise_skipping_empty_seats() {
        let order = |players| {
            let mut p = Position::start(players).unwrap();
            let mut seats = vec![];
            while seats.len() < 5 {
                if seats.last() != Some(&p.side_to_move()) {
                    seats.push(p.side_to_move());
                }
                p = p.after(p.legal_step_vec()[0]);
            }
            seats.iter().map(|s| s.letter()).collect::<String>()
        };
        assert_eq!(order(2), "rgrgr");
        assert_eq!(order(3), "rygry");
        assert_eq!(order(4), "rygbr");
    }

    #[test]
    fn a_killed_team_leaves_and_its_seat_is_skipped() {
        // 3 players: red throws e4 north onto the yellow sorcerer e6.
        let p = pos("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -");
        let q = play(&p, "e3e4*n");
        assert_eq!(
            q.to_spn(),
            "R/gTgDgS/5/3R3/R7R/3rT3/rD4/rS2/1 g 3 11 - e6 -"
        );
        assert!(!q.in_game(Seat::Yellow));
        assert_eq!(q.winner(), None);
        let r = play(&q, "d8d7 d7c7 c7c6");
        assert_eq!(r.side_to_move(), Seat::Red);
    }

    #[test]
    fn turn_order_after_a_self_kill_in_a_three_player_game() {
        // Yellow's troll throws the rock d5 north onto its own sorcerer d7.
        // The next turn is green's (clockwise after yellow), then red's.
        let p = pos("R/1gDgS/1yS3/6gT/RyD1R4R/2yT4/rD3rT/rS2/1 y 3 10 - - -");
        let q = play(&p, "d4d5*n");
        assert_eq!(
            q.to_spn(),
            "R/1gDgS/1R3/6gT/R7R/7/rD3rT/rS2/1 g 3 11 - d7 -"
        );
        let r = play(&q, "h6h5 h5h4 h4g4");
        assert_eq!(r.side_to_move(), Seat::Red);
        let s = play(&r, "d2d3 d3d4 d4d5");
        assert_eq!(s.side_to_move(), Seat::Green);
    }

    #[test]
    fn pass_only_when_nothing_else_is_legal_and_it_ends_the_turn() {
        // Red's sorcerer on the tip e1 is walled in by the green troll; red's
        // troll on the tip a5 faces the green sorcerer; no red dwarf.
        let p = pos("R/1gD1/5/7/rTgS6R/1R3R1/5/1gT1/rS r 2 10 - - -");
        assert_eq!(legal(&p), ["pass"]);
        assert_eq!(p.legal_step_count(), 1);
        let q = play(&p, "pass");
        assert_eq!(q.to_spn(), "R/1gD1/5/7/rTgS6R/1R3R1/5/1gT1/rS g 3 11 - - -");
        // Elsewhere pass is never legal.
        let start = Position::start(2).unwrap();
        let err = start.parse_step("pass").unwrap_err();
        assert!(
            err.to_string().contains("only legal when no other step is"),
            "{err}"
        );
    }

    #[test]
    fn the_game_ends_when_one_sorcerer_is_left() {
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        let q = play(&p, "e3e4*n");
        assert!(q.is_game_over());
        assert_eq!(q.winner(), Some(Seat::Red));
        assert_eq!(q.side_to_move(), Seat::Red);
        assert!(q.legal_step_vec().is_empty());
        let err = q.parse_step("b4b5").unwrap_err();
        assert!(err.to_string().contains("game is over"), "{err}");
    }

    #[test]
    fn the_first_mover_follows_the_turn_order() {
        for players in 2..=4 {
            assert_eq!(Position::start(players).unwrap().first_mover(), Seat::Red);
        }
        // 2 seats: the seat whose turns are odd.
        assert_eq!(
            pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 3 10 - - -").first_mover(),
            Seat::Red
        );
        assert_eq!(
            pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 3 11 - - -").first_mover(),
            Seat::Green
        );
        // Turn 1: whoever is to move.
        assert_eq!(
            pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 1 1 - - -").first_mover(),
            Seat::Green
        );
        // 3–4 seats: the first in the order r, y, g, b.
        assert_eq!(
            pos("R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R g 3 10 - - -").first_mover(),
            Seat::Red
        );
        assert_eq!(
            pos("R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/3/R b 3 10 - - -").first_mover(),
            Seat::Yellow
        );
    }

    #[test]
    fn a_kill_within_the_turn_is_found_exhaustively() {
        // Red can walk its troll round and throw e4 at green in 3 steps.
        let kill = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -");
        assert!(kill.can_kill_this_turn());
        // One step short of it.
        let short = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 2 10 - - -");
        assert!(!short.can_kill_this_turn());
        assert!(!Position::start(4).unwrap().can_kill_this_turn());
        // The throw that ends the game is a kill too.
        assert!(pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -").can_kill_this_turn());
    }

    /// [`Position::can_kill_this_turn`] making every step, as it was
    /// before it skipped the last step's non-throws and judged its throws
    /// without making them.
    fn can_kill_slowly(p: &Position) -> bool {
        let opponents = p.players_left().saturating_sub(1);
        p.legal_step_vec().into_iter().any(|s| {
            let next = p.after(s);
            let alive = next.seats_in_game().filter(|&o| o != p.side).count() as u32;
            alive < opponents
                || (next.turn == p.turn && !next.is_game_over() && can_kill_slowly(&next))
        })
    }

    #[test]
    fn the_kill_test_agrees_with_making_every_step() {
        // Random games of every size (the keys' SplitMix64: the rules core
        // has no dependencies, not even in tests).
        let mut x: u64 = 5;
        let (mut kills, mut positions) = (0, 0);
        for game in 0..24 {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 80 {
                let fast = p.can_kill_this_turn();
                assert_eq!(fast, can_kill_slowly(&p), "{}", p.to_spn());
                kills += usize::from(fast);
                positions += 1;
                let steps = p.legal_step_vec();
                let r = crate::splitmix64(&mut x);
                p = p.after(steps[(r % steps.len() as u64) as usize]);
            }
        }
        assert!(
            positions > 300 && kills > 10,
            "{positions} positions, {kills} kills"
        );
    }

    #[test]
    fn a_whole_turn_of_another_seat() {
        let p = play(&Position::start(4).unwrap(), "d2d3 b6c6 c6c5 e8e7");
        // Green to move; blue's own whole turn on this board.
        let b = p.whole_turn_of(Seat::Blue).unwrap();
        assert_eq!(
            (b.side_to_move(), b.steps_left(), b.turn()),
            (Seat::Blue, 3, 3)
        );
        assert_eq!(b.validate(), Ok(()));
        assert_eq!(b.hash(), b.compute_hash());
        assert_eq!(Position::from_spn(&b.to_spn()).unwrap(), b);
        // Blue can levitate i5 to h5 and throw it west onto yellow's
        // sorcerer before yellow has moved.
        assert!(!p.can_kill_this_turn());
        assert!(b.can_kill_this_turn());
        // Rocks moved or cooling are forgotten; the turn number is kept.
        let q = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        let q = play(&q, "e2e3 e3e4 d2d3@e1");
        assert!(q.cooling().any());
        let r = q.whole_turn_of(Seat::Red).unwrap();
        assert!(r.cooling().is_empty() && r.moved().is_empty());
        assert_eq!(r.turn(), q.turn());
        assert_eq!(r.validate(), Ok(()));
        // Refused: a seat out of the game, a game that is over.
        assert!(p.whole_turn_of(Seat::Red).is_ok());
        let three = Position::start(2).unwrap();
        let e = three.whole_turn_of(Seat::Yellow).unwrap_err();
        assert_eq!(e, WholeTurnError::NotInGame { seat: Seat::Yellow });
        assert_eq!(e.to_string(), "yellow is not in the game");
        let over = play(
            &pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -"),
            "e3e4*n",
        );
        let e = over.whole_turn_of(Seat::Red).unwrap_err();
        assert_eq!(e, WholeTurnError::GameOver);
        assert_eq!(e.to_string(), "the game is over");
    }

    #[test]
    fn moved_rocks_cool_for_exactly_one_turn() {
        let p = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        let q = play(&p, "e2e3 e3e4 d2d3@e1");
        assert_eq!(
            q.to_spn(),
            "R/gTgDgS/5/7/R7R/3rD3/1rS3/1RrT/1 g 3 11 - e2 -"
        );
        let r = play(&q, "d8d7 d7d6 d6d5");
        assert_eq!(r.side_to_move(), Seat::Red);
        assert!(r.cooling().is_empty());
    }
}
