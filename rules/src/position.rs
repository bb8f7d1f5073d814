//! The game state, and the low-level updates the rules use to change it.
//! Every field is updated incrementally, the Zobrist hash included; making and
//! unmaking whole steps is in `make.rs`.

use super::bitboard::Bitboard;
use super::board::Square;
use super::piece::{Kind, Piece, Seat};
use super::zobrist::KEYS;
use std::fmt;

/// Levitation encoding in [`Position::lev`]: 0..41 = the square of the rock
/// being levitated.
pub(super) const LEV_NOT_STARTED: u8 = 41;
pub(super) const LEV_OVER: u8 = 42;

/// The levitation state of the current turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Levitation {
    /// No rock levitated yet this turn: any non-cooling rock may be.
    NotStarted,
    /// The last step levitated the rock now on this square; only it may
    /// follow the sorcerer again.
    Rock(Square),
    /// A levitation run was broken: no more levitation this turn.
    Over,
}

impl Levitation {
    pub(super) fn from_code(c: u8) -> Levitation {
        match c {
            LEV_NOT_STARTED => Levitation::NotStarted,
            LEV_OVER => Levitation::Over,
            s => Levitation::Rock(Square::from_index_unchecked(s)),
        }
    }
}

/// Why [`Position::validate`] refused a position: the first problem found.
/// Its `Display` is a short English sentence fragment.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Two kinds of piece (sorcerer, dwarf, troll) are on one square.
    KindsShareSquare,
    /// A rock is on the square of a team piece.
    RockOnTeamPiece,
    /// Two seats claim one square.
    SeatsShareSquare,
    /// A seat has more than one piece of a kind.
    TwoOfAKind {
        /// The seat.
        seat: Seat,
        /// The kind it has several of.
        kind: Kind,
    },
    /// A seat in the game has no sorcerer, or a seat out of the game has
    /// pieces or a sorcerer.
    TeamAndSeatDisagree {
        /// The seat.
        seat: Seat,
    },
    /// A team piece belongs to no seat.
    PieceWithoutSeat,
    /// There are not exactly four rocks.
    RockCount {
        /// How many rocks there are.
        count: u32,
    },
    /// A square listed as cooling or moved holds no rock.
    CoolingOrMovedNotRock,
    /// The levitated rock's square is not a rock moved this turn and not
    /// cooling.
    BadLevitatedRock {
        /// The square the levitation names.
        square: Square,
    },
    /// The levitation state is not a square, "not started" or "over".
    BadLevitationCode {
        /// The raw code (0–40 a square, 41 not started, 42 over).
        code: u8,
    },
    /// The side to move is out of the game.
    SideOutOfGame {
        /// The side to move.
        side: Seat,
    },
    /// Steps left is not between 1 and the turn's number of steps.
    StepsLeft {
        /// Steps left in the turn.
        steps_left: u8,
        /// The turn number.
        turn: u32,
    },
    /// The turn's bookkeeping (steps left, levitation, cooling and moved
    /// rocks) is one no game reaches.
    UnreachableTurnState {
        /// The SPN field to blame (3 steps left, 5 levitation, 6 cooling
        /// rocks, 7 moved rocks).
        field: usize,
        /// Why no game reaches it.
        reason: String,
    },
    /// The incrementally kept hash differs from the one computed from
    /// scratch.
    HashMismatch {
        /// The squares' hash kept by the position.
        stored: u64,
        /// The squares' hash computed from scratch.
        computed: u64,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KindsShareSquare => f.write_str("two kinds of piece share a square"),
            PositionError::RockOnTeamPiece => {
                f.write_str("a rock shares a square with a team piece")
            }
            PositionError::SeatsShareSquare => f.write_str("two seats share a square"),
            PositionError::TwoOfAKind { seat, kind } => {
                write!(f, "{} has two {}s", seat.name(), kind.name())
            }
            PositionError::TeamAndSeatDisagree { seat } => {
                write!(f, "{}'s team and seat disagree", seat.name())
            }
            PositionError::PieceWithoutSeat => f.write_str("a team piece without a seat"),
            PositionError::RockCount { count } => write!(f, "{count} rocks"),
            PositionError::CoolingOrMovedNotRock => {
                f.write_str("a cooling or moved square holds no rock")
            }
            PositionError::BadLevitatedRock { .. } => {
                f.write_str("the levitated rock is not a moved, non-cooling rock")
            }
            PositionError::BadLevitationCode { .. } => f.write_str("bad levitation code"),
            PositionError::SideOutOfGame { .. } => {
                f.write_str("the side to move is out of the game")
            }
            PositionError::StepsLeft { steps_left, turn } => {
                write!(f, "{steps_left} steps left in turn {turn}")
            }
            PositionError::UnreachableTurnState { reason, .. } => f.write_str(reason),
            PositionError::HashMismatch { .. } => {
                f.write_str("incremental hash differs from the full recompute")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A Splut! position: everything that decides the legal steps and the future
/// of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(super) rocks: Bitboard,
    /// Pieces of each kind, all seats together.
    pub(super) kinds: [Bitboard; 3],
    /// Pieces of each seat, all kinds together.
    pub(super) seats: [Bitboard; 4],
    /// Rocks moved during the previous turn (they may not be levitated).
    pub(super) cooling: Bitboard,
    /// Rocks moved so far this turn (the next turn's cooling rocks).
    pub(super) moved: Bitboard,
    /// Zobrist hash of the squares: pieces, rocks, cooling and moved rocks,
    /// kept incrementally. [`Self::hash`] adds the few scalar keys.
    pub(super) board_hash: u64,
    pub(super) turn: u32,
    pub(super) side: Seat,
    pub(super) steps_left: u8,
    pub(super) lev: u8,
    /// Bit `s` set when seat `s` is still in the game.
    pub(super) in_game: u8,
}

/// The largest turn number a position read from text (SPN) may have. It
/// bounds the text only: play goes on past it, a turn at `MAX_TURN` ending
/// like any other (so every step the move generator offers is one a
/// [`super::Game`] takes). Far beyond any real game, and over three billion
/// turns below `u32::MAX`, far more than any input can play, so the turn
/// counter never reaches its end in practice (it saturates there rather
/// than wrap). [`Position::to_spn`] writes the true number, which
/// [`Position::from_spn`] refuses past this bound.
pub const MAX_TURN: u32 = 1_000_000_000;

/// Steps in the turn with this 1-based number: 1, then 2, then 3 for ever.
#[inline]
pub const fn steps_in_turn(turn: u32) -> u8 {
    if turn <= 2 { turn as u8 } else { 3 }
}

/// The next seat clockwise after `seat` among the seats in `mask` (which may
/// be `seat` itself when it is the only one left).
#[inline]
pub(super) fn next_seat(seat: Seat, mask: u8) -> Seat {
    let s = seat as u8;
    // Rotate the mask so the seat after `seat` is bit 0.
    let m = (mask as u32 | (mask as u32) << 4) >> (s + 1);
    Seat::from_index(s + 1 + m.trailing_zeros() as u8)
}

impl Position {
    /// The standard start position for 2, 3 or 4 players (RULES.md §7).
    pub fn start(players: usize) -> Option<Position> {
        let spn = match players {
            2 => "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
            3 => "R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R r 1 1 - - -",
            4 => "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -",
            _ => return None,
        };
        Position::from_spn(spn).ok()
    }

    /// An empty board with nothing set; callers fill it and rehash.
    pub(super) fn blank() -> Position {
        Position {
            rocks: Bitboard::EMPTY,
            kinds: [Bitboard::EMPTY; 3],
            seats: [Bitboard::EMPTY; 4],
            cooling: Bitboard::EMPTY,
            moved: Bitboard::EMPTY,
            board_hash: 0,
            turn: 1,
            side: Seat::Red,
            steps_left: 1,
            lev: LEV_NOT_STARTED,
            in_game: 0,
        }
    }

    // ----- reading the state -----

    /// The rocks.
    #[inline]
    pub fn rocks(&self) -> Bitboard {
        self.rocks
    }

    /// All pieces of one kind, every seat.
    #[inline]
    pub fn kind_bb(&self, kind: Kind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// All pieces of one seat.
    #[inline]
    pub fn seat_bb(&self, seat: Seat) -> Bitboard {
        self.seats[seat.index()]
    }

    /// The piece of this seat and kind, if it is on the board.
    #[inline]
    pub fn piece_square(&self, seat: Seat, kind: Kind) -> Option<Square> {
        (self.seats[seat.index()] & self.kinds[kind.index()]).lowest()
    }

    /// Every occupied square (rocks and team pieces).
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.rocks | self.kinds[0] | self.kinds[1] | self.kinds[2]
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// What stands on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.rocks.has(sq) {
            return Some(Piece::Rock);
        }
        let seat = self.seat_at(sq)?;
        let kind = Kind::ALL
            .into_iter()
            .find(|k| self.kinds[k.index()].has(sq))?;
        Some(Piece::Team(seat, kind))
    }

    /// The seat owning the team piece on `sq`.
    #[inline]
    pub(super) fn seat_at(&self, sq: Square) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].has(sq))
    }

    /// The seat to move (after the game ended: the winner).
    #[inline]
    pub fn side_to_move(&self) -> Seat {
        self.side
    }

    /// Steps left in the current turn (1..=3).
    #[inline]
    pub fn steps_left(&self) -> u8 {
        self.steps_left
    }

    /// 1-based number of the current turn in the game.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Levitation state of the current turn.
    #[inline]
    pub fn levitation(&self) -> Levitation {
        Levitation::from_code(self.lev)
    }

    /// Rocks moved during the previous turn.
    #[inline]
    pub fn cooling(&self) -> Bitboard {
        self.cooling
    }

    /// Rocks moved so far in this turn.
    #[inline]
    pub fn moved(&self) -> Bitboard {
        self.moved
    }

    /// The Zobrist hash of everything that decides the legal steps now and
    /// later. The squares' part is maintained incrementally; side to move,
    /// steps left, levitation and the first-turn flag are folded in here,
    /// which keeps them out of every make and unmake.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board_hash ^ self.scalar_keys()
    }

    #[inline]
    fn scalar_keys(&self) -> u64 {
        let first = if self.turn == 1 { KEYS.first_turn } else { 0 };
        KEYS.side[self.side.index()]
            ^ KEYS.steps[self.steps_left as usize]
            ^ KEYS.levitation[self.lev as usize]
            ^ first
    }

    /// Whether a seat is still in the game.
    #[inline]
    pub fn in_game(&self, seat: Seat) -> bool {
        self.in_game >> seat as u8 & 1 != 0
    }

    /// The seats still in the game, in clockwise order from red.
    pub fn seats_in_game(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|&s| self.in_game(s))
    }

    /// Number of seats still in the game.
    #[inline]
    pub fn players_left(&self) -> u32 {
        self.in_game.count_ones()
    }

    /// The winner, once only one sorcerer is left.
    #[inline]
    pub fn winner(&self) -> Option<Seat> {
        (self.players_left() == 1).then_some(self.side)
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.players_left() <= 1
    }

    /// The hash computed from scratch (tests compare it with [`Self::hash`]).
    pub fn compute_hash(&self) -> u64 {
        self.compute_board_hash() ^ self.scalar_keys()
    }

    /// The squares' part of the hash, from scratch.
    pub(super) fn compute_board_hash(&self) -> u64 {
        let mut h = 0;
        for seat in Seat::ALL {
            for kind in Kind::ALL {
                for sq in self.seats[seat.index()] & self.kinds[kind.index()] {
                    h ^= KEYS.piece[seat.index()][kind.index()][sq.index()];
                }
            }
        }
        for sq in self.rocks {
            h ^= KEYS.rock[sq.index()];
        }
        for sq in self.cooling {
            h ^= KEYS.cooling[sq.index()];
        }
        for sq in self.moved {
            h ^= KEYS.moved[sq.index()];
        }
        h
    }

    /// Checks that the bitboards describe a position that can occur: pieces
    /// on distinct squares, four rocks, at most one piece of each kind per
    /// seat, a sorcerer for every seat in the game, listed rocks are rocks,
    /// the turn's bookkeeping (steps left, levitation, cooling and moved
    /// rocks) is one a game reaches, and the hash matches. Used by tests and
    /// fuzzing; the error is the first problem found.
    pub fn validate(&self) -> Result<(), PositionError> {
        let k = &self.kinds;
        if (k[0] & k[1]).any() || (k[0] & k[2]).any() || (k[1] & k[2]).any() {
            return Err(PositionError::KindsShareSquare);
        }
        let team = k[0] | k[1] | k[2];
        if (team & self.rocks).any() {
            return Err(PositionError::RockOnTeamPiece);
        }
        let mut all_seats = Bitboard::EMPTY;
        for seat in Seat::ALL {
            let mine = self.seats[seat.index()];
            if (mine & all_seats).any() {
                return Err(PositionError::SeatsShareSquare);
            }
            all_seats |= mine;
            for kind in Kind::ALL {
                if (mine & k[kind.index()]).count() > 1 {
                    return Err(PositionError::TwoOfAKind { seat, kind });
                }
            }
            let has_sorcerer = (mine & k[Kind::Sorcerer.index()]).any();
            if has_sorcerer != self.in_game(seat) || (!has_sorcerer && mine.any()) {
                return Err(PositionError::TeamAndSeatDisagree { seat });
            }
        }
        if all_seats != team {
            return Err(PositionError::PieceWithoutSeat);
        }
        if self.rocks.count() != 4 {
            return Err(PositionError::RockCount {
                count: self.rocks.count(),
            });
        }
        if (self.cooling | self.moved) & !self.rocks != Bitboard::EMPTY {
            return Err(PositionError::CoolingOrMovedNotRock);
        }
        if self.lev < LEV_NOT_STARTED {
            let sq = Square::from_index_unchecked(self.lev);
            if !self.rocks.has(sq) || !self.moved.has(sq) || self.cooling.has(sq) {
                return Err(PositionError::BadLevitatedRock { square: sq });
            }
        }
        if self.lev > LEV_OVER {
            return Err(PositionError::BadLevitationCode { code: self.lev });
        }
        if !self.in_game(self.side) {
            return Err(PositionError::SideOutOfGame { side: self.side });
        }
        if !(1..=steps_in_turn(self.turn)).contains(&self.steps_left) {
            return Err(PositionError::StepsLeft {
                steps_left: self.steps_left,
                turn: self.turn,
            });
        }
        if let Some((field, reason)) = self.unreachable_turn_state() {
            return Err(PositionError::UnreachableTurnState { field, reason });
        }
        let computed = self.compute_board_hash();
        if self.board_hash != computed {
            return Err(PositionError::HashMismatch {
                stored: self.board_hash,
                computed,
            });
        }
        Ok(())
    }

    /// Why the turn's bookkeeping (steps left, levitation, cooling and moved
    /// rocks) cannot occur in a game, with the SPN field to blame; `None`
    /// when it can.
    ///
    /// What a game can reach: every turn starts with levitation not started
    /// and no rock moved; a rock is levitated only by a step, and a run is
    /// over only after a levitating step and a later one, and a levitating
    /// step moves one rock; other rocks move only by a push or a pull (a
    /// throw ends the turn), so a mover without dwarf and troll moves none;
    /// the first turn has no previous turn, so nothing cools; a game ends
    /// only by a throw, which ends the turn.
    pub(super) fn unreachable_turn_state(&self) -> Option<(usize, String)> {
        let max = steps_in_turn(self.turn);
        let Some(played) = max.checked_sub(self.steps_left) else {
            return Some((
                3,
                format!(
                    "{} steps left, but turn {} has only {max}",
                    self.steps_left, self.turn
                ),
            ));
        };
        let none_played = || {
            format!(
                "no step of turn {} is played yet ({} of its {max} steps left)",
                self.turn, self.steps_left
            )
        };
        if self.is_game_over() && played > 0 {
            return Some((
                3,
                format!(
                    "the game is over (one sorcerer left) and games end only by a throw, \
                     which ends the turn, so {max} steps must be left, not {}",
                    self.steps_left
                ),
            ));
        }
        match self.lev {
            LEV_NOT_STARTED => {}
            LEV_OVER if played < 2 => {
                return Some((
                    5,
                    format!(
                        "'x' (levitation over) needs a levitating step and a later step \
                         this turn, but {played} of turn {}'s {max} steps are played",
                        self.turn
                    ),
                ));
            }
            LEV_OVER if (self.moved & !self.cooling).is_empty() => {
                return Some((
                    5,
                    "'x' (levitation over) needs a rock levitated this turn, \
                     i.e. a moved rock that is not cooling"
                        .to_string(),
                ));
            }
            LEV_OVER => {}
            _ if played == 0 => {
                return Some((
                    5,
                    format!("{}, so no rock is being levitated", none_played()),
                ));
            }
            _ => {}
        }
        if self.turn == 1 && self.cooling.any() {
            return Some((
                6,
                "turn 1 has no previous turn, so no rock is cooling".to_string(),
            ));
        }
        if played == 0 && self.moved.any() {
            return Some((
                7,
                format!("{}, so no rock has moved this turn", none_played()),
            ));
        }
        if played == 1 && self.lev < LEV_NOT_STARTED {
            // The one step played is the levitation, which moves one rock.
            let sq = Square::from_index_unchecked(self.lev);
            if self.moved != sq.bb() {
                return Some((
                    7,
                    format!(
                        "the only step played this turn levitated {sq}, so {sq} is the only \
                         rock moved"
                    ),
                ));
            }
        }
        if self.lev == LEV_NOT_STARTED && self.moved.any() {
            // Without levitation only a push or a pull moves a rock, and the
            // mover loses no piece before its turn ends.
            let movers = self.kinds[Kind::Dwarf.index()] | self.kinds[Kind::Troll.index()];
            if (self.seats[self.side.index()] & movers).is_empty() {
                return Some((
                    7,
                    format!(
                        "{} has no dwarf or troll and levitated no rock this turn, so no \
                         rock has moved this turn",
                        self.side.name()
                    ),
                ));
            }
        }
        None
    }

    // ----- low-level updates shared by the rules -----

    // The updates below take `H`: whether to keep the Zobrist hash. Perft
    // makes steps with `H = false` (unmake restores the hash it saved), so
    // its make loads no keys; every other make keeps the hash.

    #[inline]
    pub(super) fn move_team_piece<const H: bool>(
        &mut self,
        seat: Seat,
        kind: Kind,
        from: Square,
        to: Square,
    ) {
        let m = from.bb() | to.bb();
        self.kinds[kind.index()] ^= m;
        self.seats[seat.index()] ^= m;
        if !H {
            return;
        }
        let keys = &KEYS.piece[seat.index()][kind.index()];
        self.board_hash ^= keys[from.index()] ^ keys[to.index()];
    }

    #[inline]
    pub(super) fn remove_team_piece<const H: bool>(&mut self, seat: Seat, kind: Kind, sq: Square) {
        self.kinds[kind.index()] ^= sq.bb();
        self.seats[seat.index()] ^= sq.bb();
        if H {
            self.board_hash ^= KEYS.piece[seat.index()][kind.index()][sq.index()];
        }
    }

    /// Moves a rock one square onto an empty square (push, pull, levitation).
    /// A cooling rock stays cooling wherever it goes; the rock counts as moved.
    #[inline]
    pub(super) fn move_rock<const H: bool>(&mut self, from: Square, to: Square) {
        let m = from.bb() | to.bb();
        self.rocks ^= m;
        if H {
            self.board_hash ^= KEYS.rock[from.index()] ^ KEYS.rock[to.index()];
        }
        if self.cooling.has(from) {
            self.cooling ^= m;
            if H {
                self.board_hash ^= KEYS.cooling[from.index()] ^ KEYS.cooling[to.index()];
            }
        }
        if self.moved.has(from) {
            self.moved ^= from.bb();
            if H {
                self.board_hash ^= KEYS.moved[from.index()];
            }
        }
        self.moved |= to.bb();
        if H {
            self.board_hash ^= KEYS.moved[to.index()];
        }
    }

    /// Moves whatever stands on `from` to the empty square `to`.
    pub(super) fn move_any_piece<const H: bool>(&mut self, from: Square, to: Square) {
        if self.rocks.has(from) {
            self.move_rock::<H>(from, to);
        } else if let Some(Piece::Team(seat, kind)) = self.piece_at(from) {
            self.move_team_piece::<H>(seat, kind, from, to);
        }
    }

    /// Any step that is not a levitating step of the same rock ends a
    /// levitation run for the rest of the turn (plain steps before the first
    /// levitation do not).
    #[inline]
    pub(super) fn break_levitation(&mut self) {
        if self.lev < LEV_NOT_STARTED {
            self.lev = LEV_OVER;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_seat_goes_clockwise_and_skips_missing_seats() {
        use Seat::*;
        assert_eq!(next_seat(Red, 0b1111), Yellow);
        assert_eq!(next_seat(Blue, 0b1111), Red);
        assert_eq!(next_seat(Red, 0b0101), Green);
        assert_eq!(next_seat(Green, 0b0101), Red);
        assert_eq!(next_seat(Red, 0b0111), Yellow);
        assert_eq!(next_seat(Green, 0b0111), Red);
        // The thrower eliminated itself: the next seat still in the game.
        assert_eq!(next_seat(Yellow, 0b0101), Green);
        // Only one seat left: it is the next seat, even if it just moved.
        assert_eq!(next_seat(Green, 0b0100), Green);
        assert_eq!(next_seat(Red, 0b0100), Green);
    }

    /// Each kind of invalid position is its own variant, and its message
    /// is the text `validate` has always given.
    #[test]
    fn validate_names_the_problem() {
        let start = Position::start(2).unwrap();
        assert_eq!(start.validate(), Ok(()));
        let check = |f: &dyn Fn(&mut Position), want: PositionError, text: &str| {
            let mut p = start;
            f(&mut p);
            let e = p.validate().unwrap_err();
            assert_eq!(e, want);
            assert_eq!(e.to_string(), text);
        };
        let e1 = Square::parse("e1").unwrap();
        check(
            &|p| {
                p.rocks ^= e1.bb();
                p.board_hash = p.compute_board_hash();
            },
            PositionError::RockCount { count: 3 },
            "3 rocks",
        );
        check(
            &|p| p.side = Seat::Yellow,
            PositionError::SideOutOfGame { side: Seat::Yellow },
            "the side to move is out of the game",
        );
        check(
            &|p| p.steps_left = 2,
            PositionError::StepsLeft {
                steps_left: 2,
                turn: 1,
            },
            "2 steps left in turn 1",
        );
        check(
            &|p| p.lev = 43,
            PositionError::BadLevitationCode { code: 43 },
            "bad levitation code",
        );
        let mut p = start;
        p.board_hash ^= 1;
        assert!(matches!(
            p.validate(),
            Err(PositionError::HashMismatch { .. })
        ));
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "incremental hash differs from the full recompute"
        );
    }

    #[test]
    fn steps_per_turn_are_one_two_then_three() {
        assert_eq!(
            (1..=5).map(steps_in_turn).collect::<Vec<_>>(),
            [1, 2, 3, 3, 3]
        );
    }
}
