//! Making and unmaking steps.
//!
//! [`Position::make`] applies a step in place and returns an [`Undo`];
//! [`Position::unmake`] takes it back exactly, hash included. The search
//! uses them. Perft copies the ~100-byte position for every child instead
//! (copy-make, as [`Position::after`] does) and makes its steps without the
//! hash: with its steps made as they are generated, that measured faster
//! (docs/results/speed.md, 2026-11-28).

use super::bitboard::Bitboard;
use super::board::Square;
use super::piece::{Kind, Seat};
use super::position::Position;
use super::step::{Step, StepKind};

/// "No square" / "no seat" in [`Undo`]'s byte fields.
pub(super) const NONE: u8 = 0xFF;

/// What [`Position::unmake`] needs to take a step back: the scalar state
/// before the step, and what the step did that its text does not say.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    board_hash: u64,
    cooling: Bitboard,
    moved: Bitboard,
    turn: u32,
    side: Seat,
    steps_left: u8,
    lev: u8,
    in_game: u8,
    /// Push: the empty square that ended the run (now filled). Throw: where
    /// the rock landed.
    pub(super) aux: u8,
    /// The seat whose pieces a throw removed.
    pub(super) victim: u8,
    /// Squares of the victim's removed sorcerer, dwarf and troll.
    pub(super) removed: [u8; 3],
}

impl Position {
    /// The position after `step`, which must be legal here (copy-make).
    #[inline]
    #[must_use]
    pub fn after(&self, step: Step) -> Position {
        let mut p = *self;
        p.play(step);
        p
    }

    /// Applies `step`, which must be one of this position's legal steps (use
    /// [`Self::parse_step`] or [`Self::legal_steps`] to get one). An illegal
    /// step leaves the position inconsistent.
    #[inline]
    pub fn play(&mut self, step: Step) {
        self.make(step);
    }

    /// Applies `step` (legal here) and returns what [`Self::unmake`] needs.
    #[inline(always)]
    pub fn make(&mut self, step: Step) -> Undo {
        self.make_with::<true>(step)
    }

    /// [`Self::make`] without the hash (`H = false`): the position's hash is
    /// stale until [`Self::unmake`] restores it. For perft, which never
    /// reads it.
    #[inline(always)]
    pub(super) fn make_with<const H: bool>(&mut self, step: Step) -> Undo {
        let mut u = Undo {
            board_hash: self.board_hash,
            cooling: self.cooling,
            moved: self.moved,
            turn: self.turn,
            side: self.side,
            steps_left: self.steps_left,
            lev: self.lev,
            in_game: self.in_game,
            aux: NONE,
            victim: NONE,
            removed: [NONE; 3],
        };
        let side = self.side;
        let (from, to, dir) = (step.from(), step.to(), step.direction());
        match step.kind() {
            StepKind::Sorcerer => {
                self.move_team_piece::<H>(side, Kind::Sorcerer, from, to);
                self.break_levitation();
                self.end_step::<H>();
            }
            StepKind::Troll => {
                self.move_team_piece::<H>(side, Kind::Troll, from, to);
                self.break_levitation();
                self.end_step::<H>();
            }
            StepKind::Dwarf => {
                if self.occupied().has(to) {
                    u.aux = self.push_run::<H>(from, dir);
                }
                self.move_team_piece::<H>(side, Kind::Dwarf, from, to);
                self.break_levitation();
                self.end_step::<H>();
            }
            StepKind::Pull => {
                self.move_team_piece::<H>(side, Kind::Troll, from, to);
                self.move_rock::<H>(step.rock().unwrap_or(from), from);
                self.break_levitation();
                self.end_step::<H>();
            }
            StepKind::Levitate => {
                self.move_team_piece::<H>(side, Kind::Sorcerer, from, to);
                self.levitate::<H>(step.rock().unwrap_or(from), dir);
                self.end_step::<H>();
            }
            StepKind::Throw => {
                self.move_team_piece::<H>(side, Kind::Troll, from, to);
                self.throw_rock::<H>(to, step.throw_direction().unwrap_or(dir), &mut u);
                self.end_turn::<H>();
            }
            StepKind::Pass => self.end_turn::<H>(),
        }
        u
    }

    /// Takes back `step`, which [`Self::make`] applied to reach this position
    /// and which returned `undo`. The position, hash included, is restored
    /// exactly.
    #[inline(always)]
    pub fn unmake(&mut self, step: Step, undo: &Undo) {
        let side = undo.side;
        let (from, to) = (step.from(), step.to());
        let there_and_back = from.bb() | to.bb();
        match step.kind() {
            StepKind::Sorcerer => self.toggle_team(side, Kind::Sorcerer, there_and_back),
            StepKind::Troll => self.toggle_team(side, Kind::Troll, there_and_back),
            StepKind::Dwarf => {
                self.toggle_team(side, Kind::Dwarf, there_and_back);
                if undo.aux != NONE {
                    // The run now fills to+d ..= end: move it back, nearest first.
                    let d = step.direction();
                    let end = Square::from_index_unchecked(undo.aux);
                    let mut sq = to;
                    while sq != end {
                        let next = sq.neighbour_bb(d).single();
                        self.toggle_any(next, next.bb() | sq.bb());
                        sq = next;
                    }
                }
            }
            StepKind::Pull => {
                self.toggle_team(side, Kind::Troll, there_and_back);
                self.rocks ^= from.bb() | step.rock().unwrap_or(from).bb();
            }
            StepKind::Levitate => {
                self.toggle_team(side, Kind::Sorcerer, there_and_back);
                let rock = step.rock().unwrap_or(from);
                self.rocks ^= rock.bb() | rock.neighbour_bb(step.direction());
            }
            StepKind::Throw => {
                let landing = Square::from_index_unchecked(undo.aux);
                self.rocks ^= landing.bb() | to.bb();
                if undo.victim != NONE {
                    let victim = Seat::from_index(undo.victim);
                    for kind in Kind::ALL {
                        if let Some(sq) = Square::new(undo.removed[kind.index()]) {
                            self.toggle_team(victim, kind, sq.bb());
                        }
                    }
                }
                self.toggle_team(side, Kind::Troll, there_and_back);
            }
            StepKind::Pass => {}
        }
        self.board_hash = undo.board_hash;
        self.cooling = undo.cooling;
        self.moved = undo.moved;
        self.turn = undo.turn;
        self.side = undo.side;
        self.steps_left = undo.steps_left;
        self.lev = undo.lev;
        self.in_game = undo.in_game;
    }

    /// Flips a team piece's bits (no hashing: unmake restores the hash).
    #[inline]
    fn toggle_team(&mut self, seat: Seat, kind: Kind, m: Bitboard) {
        self.kinds[kind.index()] ^= m;
        self.seats[seat.index()] ^= m;
    }

    /// Flips the bits of whatever stands on `sq` over `m`.
    #[inline]
    fn toggle_any(&mut self, sq: Square, m: Bitboard) {
        if self.rocks.has(sq) {
            self.rocks ^= m;
        } else if let Some(super::piece::Piece::Team(seat, kind)) = self.piece_at(sq) {
            self.toggle_team(seat, kind, m);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, splitmix64};

    /// Perft's make without the hash changes everything else exactly as
    /// `make` does, for every legal step along random games with 2, 3 and
    /// 4 seats (throws, pushes and eliminations included), and `unmake`
    /// then restores the hash as well.
    #[test]
    fn make_without_the_hash_differs_from_make_only_in_the_hash() {
        let mut rng = 7;
        for game in 0..60 {
            let mut p = Position::start(2 + game % 3).unwrap();
            for _ in 0..200 {
                let steps = p.legal_step_vec();
                if steps.is_empty() {
                    break;
                }
                for &s in &steps {
                    let (mut with, mut without) = (p, p);
                    let undo = with.make(s);
                    assert_eq!(without.make_with::<false>(s), undo, "{p} {s}");
                    without.board_hash = with.board_hash;
                    assert_eq!(without, with, "{p} {s}");
                    let mut back = p;
                    back.make_with::<false>(s);
                    back.unmake(s, &undo);
                    assert_eq!(back, p, "{p} {s}");
                }
                p.play(steps[(splitmix64(&mut rng) % steps.len() as u64) as usize]);
            }
        }
    }
}
