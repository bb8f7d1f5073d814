//! SPN, the Splut Position Notation (RULES.md §7): seven fields separated by
//! spaces — board, side to move, steps left, turn number, levitation, cooling
//! rocks, rocks moved this turn.
//!
//! `R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -` is the 2-player start.
//! Parsing checks that the position could occur in a game (four rocks, one
//! piece of each kind per seat at most, no team without its sorcerer, the
//! side to move in the game, steps left within the turn, listed rocks really
//! rocks, a turn's bookkeeping that some game reaches: see
//! `Position::unreachable_turn_state`) and says which field is wrong and why.
//!
//! Only the canonical text of a position is accepted, the one [`Position::to_spn`]
//! writes: one digit per run of empty squares, numbers without sign or
//! leading zero, square lists in alphabetical order without repeats. The turn
//! number [`Position::from_spn`] reads is at most [`MAX_TURN`], far from
//! the end of the turn counter. Play may go on past it: the SPN of such a
//! position, written with its true number, is refused by `from_spn` (a
//! game that far is given as its start position and its steps) and read
//! back by [`Position::from_written_spn`], for text this library wrote.

use super::bitboard::Bitboard;
use super::board::{Square, rank_width};
use super::piece::{Kind, Piece, Seat};
use super::position::{LEV_NOT_STARTED, LEV_OVER, MAX_TURN, Position, steps_in_turn};
use std::fmt;
use std::str::FromStr;

/// Why an SPN string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SpnError {
    /// 1-based field number (0 when the field count is wrong).
    pub field: usize,
    /// What is wrong.
    pub reason: String,
}

const FIELD_NAMES: [&str; 8] = [
    "SPN",
    "board",
    "side to move",
    "steps left",
    "turn number",
    "levitation",
    "cooling rocks",
    "moved rocks",
];

impl fmt::Display for SpnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field == 0 {
            write!(f, "invalid SPN: {}", self.reason)
        } else {
            write!(
                f,
                "invalid SPN field {} ({}): {}",
                self.field,
                FIELD_NAMES.get(self.field).unwrap_or(&"?"),
                self.reason
            )
        }
    }
}

impl std::error::Error for SpnError {}

fn err(field: usize, reason: impl Into<String>) -> SpnError {
    SpnError {
        field,
        reason: reason.into(),
    }
}

/// Squares in alphabetical order, comma separated, or `-`.
fn square_list(bb: Bitboard) -> String {
    if bb.is_empty() {
        return "-".to_string();
    }
    let mut v: Vec<Square> = bb.collect();
    v.sort_by_key(|s| (s.file(), s.rank()));
    v.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_square(field: usize, text: &str) -> Result<Square, SpnError> {
    Square::parse(text).ok_or_else(|| {
        err(
            field,
            format!("'{text}' is not a board square (a file a-i, a rank 1-9, on the diamond)"),
        )
    })
}

fn parse_square_list(field: usize, text: &str, rocks: Bitboard) -> Result<Bitboard, SpnError> {
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut bb = Bitboard::EMPTY;
    let mut previous: Option<Square> = None;
    for part in text.split(',') {
        let sq = parse_square(field, part)?;
        if bb.has(sq) {
            return Err(err(field, format!("{sq} is listed twice")));
        }
        // One text per position: the order `to_spn` writes.
        if let Some(prev) = previous.filter(|p| (p.file(), p.rank()) > (sq.file(), sq.rank())) {
            return Err(err(
                field,
                format!("{sq} comes after {prev}; squares are listed in alphabetical order"),
            ));
        }
        if !rocks.has(sq) {
            return Err(err(field, format!("{sq} holds no rock")));
        }
        bb |= sq.bb();
        previous = Some(sq);
    }
    Ok(bb)
}

/// The turn number: digits without sign or leading zero, 1 to `max`
/// ([`MAX_TURN`] for text from outside).
fn parse_turn(text: &str, max: u32) -> Result<u32, SpnError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) || text.starts_with('0') {
        return Err(err(
            4,
            format!("'{text}' is not a turn number 1 or more (digits, no sign, no leading zero)"),
        ));
    }
    // Too many digits for a u64 is also too large: refused, never wrapped.
    match text.parse::<u64>() {
        Ok(t) if t <= u64::from(max) => u32::try_from(t).map_err(|_| too_late(text, max)),
        _ => Err(too_late(text, max)),
    }
}

fn too_late(text: &str, max: u32) -> SpnError {
    let why = if max == MAX_TURN {
        format!(
            "turn {text} is more than {MAX_TURN}, the largest turn number (MAX_TURN) an SPN \
             may give; a game past it is given as its start position and its steps"
        )
    } else {
        format!("turn {text} is more than {max}, the largest turn number a position can have")
    };
    err(4, why)
}

fn parse_board(text: &str, p: &mut Position) -> Result<(), SpnError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(err(
            1,
            format!("{} ranks separated by '/', expected 9", ranks.len()),
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        parse_rank(8 - i as u8, rank_text, p)?;
    }
    check_board(p)
}

/// Places the pieces of one rank's text (`rank` from 0, the bottom).
fn parse_rank(rank: u8, rank_text: &str, p: &mut Position) -> Result<(), SpnError> {
    let width = rank_width(rank);
    let first_file = 4 - (width - 1) / 2;
    let mut file = 0u8; // squares consumed so far in this rank
    let mut chars = rank_text.chars();
    let mut after_digit = false;
    let at = |file: u8| format!("rank {} ('{rank_text}'), square {}", rank + 1, file + 1);
    let too_many = || {
        err(
            1,
            format!(
                "rank {} ('{rank_text}') has more than its {width} squares",
                rank + 1
            ),
        )
    };
    while let Some(c) = chars.next() {
        let piece = match c {
            '1'..='9' if after_digit => {
                return Err(err(
                    1,
                    format!(
                        "{}: a digit right after a digit; a run of empty squares \
                         is one digit, its length",
                        at(file)
                    ),
                ));
            }
            '1'..='9' => {
                after_digit = true;
                file += c as u8 - b'0';
                if file > width {
                    return Err(too_many());
                }
                continue;
            }
            'R' => Piece::Rock,
            _ => {
                let Some(seat) = Seat::from_letter(c) else {
                    return Err(err(
                        1,
                        format!(
                            "{}: '{c}' is not a digit 1-9, 'R' or a seat letter r/y/g/b",
                            at(file)
                        ),
                    ));
                };
                let kind = chars.next().and_then(Kind::from_letter).ok_or_else(|| {
                    err(
                        1,
                        format!(
                            "{}: seat letter '{c}' must be followed by S, D or T",
                            at(file)
                        ),
                    )
                })?;
                Piece::Team(seat, kind)
            }
        };
        after_digit = false;
        if file >= width {
            return Err(too_many());
        }
        let Some(sq) = Square::from_coords(first_file + file, rank) else {
            return Err(err(1, format!("{}: off the board", at(file))));
        };
        place(p, piece, sq)?;
        file += 1;
    }
    if file != width {
        return Err(err(
            1,
            format!(
                "rank {} ('{rank_text}') describes {file} squares, it has {width}",
                rank + 1
            ),
        ));
    }
    Ok(())
}

/// Puts `piece` on `sq`; a team has at most one piece of each kind.
fn place(p: &mut Position, piece: Piece, sq: Square) -> Result<(), SpnError> {
    match piece {
        Piece::Rock => p.rocks |= sq.bb(),
        Piece::Team(seat, kind) => {
            if p.piece_square(seat, kind).is_some() {
                return Err(err(
                    1,
                    format!("{} has a second {} on {sq}", seat.name(), kind.name()),
                ));
            }
            p.kinds[kind.index()] |= sq.bb();
            p.seats[seat.index()] |= sq.bb();
        }
    }
    Ok(())
}

/// The board as a whole: four rocks, every team with its sorcerer, and at
/// least one; marks the seats in the game.
fn check_board(p: &mut Position) -> Result<(), SpnError> {
    if p.rocks.count() != 4 {
        return Err(err(
            1,
            format!(
                "{} rocks; all four rocks are always on the board",
                p.rocks.count()
            ),
        ));
    }
    for seat in Seat::ALL {
        if p.piece_square(seat, Kind::Sorcerer).is_some() {
            p.in_game |= 1 << seat as u8;
        } else if let Some(sq) = p.seats[seat.index()].lowest() {
            return Err(err(
                1,
                format!(
                    "{} has a piece on {sq} but no sorcerer: a team leaves with its sorcerer",
                    seat.name()
                ),
            ));
        }
    }
    if p.in_game == 0 {
        return Err(err(1, "no sorcerer on the board"));
    }
    Ok(())
}

impl Position {
    /// Parses an SPN string; the error names the field and what is wrong.
    /// The turn number is at most [`MAX_TURN`]: this is the reader for
    /// positions given from outside (a user, a file, the protocol).
    pub fn from_spn(spn: &str) -> Result<Position, SpnError> {
        Position::parse_spn(spn, MAX_TURN)
    }

    /// Parses an SPN that [`Position::to_spn`] wrote, checked as
    /// [`Position::from_spn`] does but with any turn number a position can
    /// have: play goes on past [`MAX_TURN`], and the SPN of such a position
    /// (its true number) reads back with this. Not for text from outside.
    pub fn from_written_spn(spn: &str) -> Result<Position, SpnError> {
        Position::parse_spn(spn, u32::MAX)
    }

    /// Parses an SPN whose turn number is at most `max_turn`.
    fn parse_spn(spn: &str, max_turn: u32) -> Result<Position, SpnError> {
        let fields: Vec<&str> = spn.split_ascii_whitespace().collect();
        if fields.len() != 7 {
            return Err(err(
                0,
                format!(
                    "{} fields, expected 7: board, side, steps left, turn, levitation, cooling, moved",
                    fields.len()
                ),
            ));
        }
        let mut p = Position::blank();
        parse_board(fields[0], &mut p)?;

        let side = fields[1];
        let mut chars = side.chars();
        let seat = match (chars.next().and_then(Seat::from_letter), chars.next()) {
            (Some(s), None) => s,
            _ => {
                return Err(err(
                    2,
                    format!("'{side}' is not a seat letter r, y, g or b"),
                ));
            }
        };
        if !p.in_game(seat) {
            return Err(err(
                2,
                format!("{} has no sorcerer on the board", seat.name()),
            ));
        }
        p.side = seat;

        let turn = parse_turn(fields[3], max_turn)?;
        p.turn = turn;
        let max = steps_in_turn(turn);
        // Exactly one digit: `str::parse` would also take "+3" or "03".
        let steps: u8 = match fields[2] {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            t => return Err(err(3, format!("'{t}' is not 1, 2 or 3"))),
        };
        if steps > max {
            return Err(err(
                3,
                format!("{steps} steps left, but turn {turn} has only {max}"),
            ));
        }
        p.steps_left = steps;

        p.cooling = parse_square_list(6, fields[5], p.rocks)?;
        p.moved = parse_square_list(7, fields[6], p.rocks)?;
        p.lev = match fields[4] {
            "-" => LEV_NOT_STARTED,
            "x" => LEV_OVER,
            t => {
                let sq = parse_square(5, t)?;
                if !p.rocks.has(sq) {
                    return Err(err(5, format!("{sq} holds no rock")));
                }
                if p.cooling.has(sq) {
                    return Err(err(
                        5,
                        format!("{sq} is cooling, so it cannot be levitated"),
                    ));
                }
                if !p.moved.has(sq) {
                    return Err(err(
                        5,
                        format!("the levitated rock {sq} must be listed as moved this turn"),
                    ));
                }
                sq.index() as u8
            }
        };
        if let Some((field, reason)) = p.unreachable_turn_state() {
            return Err(err(field, reason));
        }
        p.board_hash = p.compute_board_hash();
        Ok(p)
    }

    /// The SPN of this position.
    pub fn to_spn(&self) -> String {
        self.to_string()
    }

    /// A text picture of the board (rank 9 at the top), then the SPN.
    pub fn board_art(&self) -> String {
        let mut out = String::new();
        for rank in (0..9u8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..9u8 {
                match Square::from_coords(file, rank) {
                    None => out.push_str("   "),
                    Some(sq) => match self.piece_at(sq) {
                        None => out.push_str("  ."),
                        Some(p) => out.push_str(&format!("{:>3}", p.to_string())),
                    },
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out.push_str("    a  b  c  d  e  f  g  h  i\n");
        out.push_str(&self.to_spn());
        out
    }
}

impl fmt::Display for Position {
    /// Writes the SPN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..9u8).rev() {
            let mut run = 0;
            for file in 0..9u8 {
                let Some(sq) = Square::from_coords(file, rank) else {
                    continue;
                };
                match self.piece_at(sq) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{p}")?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                write!(f, "/")?;
            }
        }
        let lev = match self.lev {
            LEV_NOT_STARTED => "-".to_string(),
            LEV_OVER => "x".to_string(),
            s => Square::from_index_unchecked(s).to_string(),
        };
        write!(
            f,
            " {} {} {} {} {} {}",
            self.side,
            self.steps_left,
            self.turn,
            lev,
            square_list(self.cooling),
            square_list(self.moved)
        )
    }
}

impl FromStr for Position {
    type Err = SpnError;
    fn from_str(s: &str) -> Result<Position, SpnError> {
        Position::from_spn(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STARTS: [&str; 3] = [
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
        "R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R r 1 1 - - -",
        "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -",
    ];

    #[test]
    fn start_positions_match_the_set_up_table() {
        let p = Position::from_spn(STARTS[2]).unwrap();
        let at = |s: &str| p.piece_at(Square::parse(s).unwrap());
        let team = |s, k| Some(Piece::Team(s, k));
        use Kind::*;
        use Seat::*;
        for (seat, rock, dwarf, troll, sorcerer) in [
            (Red, "e1", "e2", "f2", "d2"),
            (Yellow, "a5", "b5", "b4", "b6"),
            (Green, "e9", "e8", "d8", "f8"),
            (Blue, "i5", "h5", "h6", "h4"),
        ] {
            assert_eq!(at(rock), Some(Piece::Rock));
            assert_eq!(at(dwarf), team(seat, Dwarf));
            assert_eq!(at(troll), team(seat, Troll));
            assert_eq!(at(sorcerer), team(seat, Sorcerer));
        }
        for (n, spn) in STARTS.iter().enumerate() {
            let p = Position::start(n + 2).unwrap();
            assert_eq!(p.to_spn(), *spn);
            assert_eq!(p.players_left() as usize, n + 2);
        }
        assert!(Position::start(1).is_none());
        assert!(Position::start(5).is_none());
    }

    #[test]
    fn print_then_parse_is_the_identity_on_every_field() {
        for spn in [
            "1/1gD1/1gS3/1RgT4/1rSR6/2R3R/4rT/3/rD r 1 19 d4 h4 d4",
            "R/gTgD1/4gS/7/1R6R/2rS4/1rT3/1rD1/R r 1 7 x - b5",
            "1/1R1/gT1gD2/7/3rT3gSR/7/RrD1rS1/3/R r 1 27 x c3 e8",
            "R/1gDgS/gT4/yS5bT/1RyT4bDR/1yDrS4/4bS/rDrTR/1 y 2 10 - f2 -",
            "R/3/2R2/7/R7R/rS2rT3/rD4/3/1 r 3 11 - e7 -",
        ] {
            let p = Position::from_spn(spn).unwrap();
            assert_eq!(p.to_spn(), spn);
            assert_eq!(Position::from_spn(&p.to_spn()).unwrap(), p);
        }
    }

    #[test]
    fn lists_are_read_and_printed_in_alphabetical_order_only() {
        let spn = "R/3/5/7/R3R3R/7/5/rSgS1/1 r 1 9 x a5,i5 e5,e9";
        assert_eq!(Position::from_spn(spn).unwrap().to_spn(), spn);
        for (bad, field, text) in [
            (
                "R/3/5/7/R3R3R/7/5/rSgS1/1 r 2 9 - i5,a5 e5,e9",
                6,
                "a5 comes after i5",
            ),
            (
                "R/3/5/7/R3R3R/7/5/rSgS1/1 r 2 9 - a5,i5 e9,e5",
                7,
                "e5 comes after e9",
            ),
            (
                "R/3/5/7/R3R3R/7/5/rSgS1/1 r 2 9 - a5,i5,a5 -",
                6,
                "a5 is listed twice",
            ),
            (
                "R/3/5/7/R3R3R/7/5/rSgS1/1 r 2 9 - a5,a5 -",
                6,
                "a5 is listed twice",
            ),
        ] {
            let e = Position::from_spn(bad).unwrap_err();
            assert_eq!(e.field, field, "{bad}: {e}");
            assert!(e.to_string().contains(text), "{bad}: {e}");
        }
    }

    /// `U` in the brief: the 2-player start's board.
    const U: &str = "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R";

    fn refused(spn: &str, field: usize, text: &str) {
        let e = Position::from_spn(spn).unwrap_err();
        assert_eq!(e.field, field, "{spn}: {e}");
        assert!(e.to_string().contains(text), "{spn}: {e}");
    }

    #[test]
    fn turn_numbers_are_bounded_by_max_turn_never_wrapped() {
        let max = format!("{U} r 3 {MAX_TURN} - - -");
        assert_eq!(Position::from_spn(&max).unwrap().turn(), MAX_TURN);
        let bound = "more than 1000000000, the largest turn number";
        for turn in [
            "1000000001",
            "4294967295",
            "4294967296",
            "18446744073709551616",
            "99999999999999999999999999999",
        ] {
            refused(&format!("{U} r 3 {turn} - - -"), 4, bound);
        }
        for turn in ["0", "+9", "09", "-1", "9a", "1e3", "٣"] {
            refused(&format!("{U} r 1 {turn} - - -"), 4, "is not a turn number");
        }
        for steps in ["+3", "03", "0", "4", "-1", "3.0"] {
            refused(&format!("{U} r {steps} 9 - - -"), 3, "is not 1, 2 or 3");
        }
    }

    #[test]
    fn a_position_played_past_max_turn_is_written_and_read_back() {
        let p = Position::from_spn(&format!("{U} r 1 {MAX_TURN} - - -")).unwrap();
        let q = p.after(p.legal_step_vec()[0]);
        assert_eq!(q.turn(), MAX_TURN + 1);
        let spn = q.to_spn();
        assert!(spn.contains(" 1000000001 "), "{spn}");
        refused(&spn, 4, "its start position and its steps");
        assert_eq!(Position::from_written_spn(&spn), Ok(q));
        // Every number a turn counter can hold, and nothing more.
        let last = format!("{U} r 3 4294967295 - - -");
        assert_eq!(Position::from_written_spn(&last).unwrap().turn(), u32::MAX);
        let e = Position::from_written_spn(&format!("{U} r 3 4294967296 - - -")).unwrap_err();
        assert!(e.to_string().contains("more than 4294967295"), "{e}");
    }

    #[test]
    fn a_run_of_empty_squares_is_one_digit() {
        refused(
            "R/gTgDgS/23/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
            1,
            "rank 7 ('23'), square 3: a digit right after a digit",
        );
        refused(
            "R/gTgDgS/5/7/R43R/7/5/rSrDrT/R r 1 1 - - -",
            1,
            "a digit right after a digit",
        );
        refused(
            "R/gTgDgS/5/16/R7R/7/5/rSrDrT/R r 1 1 - - -",
            1,
            "a digit right after a digit",
        );
    }

    #[test]
    fn turn_states_no_game_reaches_are_refused() {
        for (rest, field, text) in [
            // Nothing is played yet this turn: no levitation, no moved rock.
            (
                "r 3 5 a5 - a5",
                5,
                "no step of turn 5 is played yet (3 of its 3",
            ),
            ("r 2 2 a5 - a5", 5, "no step of turn 2 is played yet"),
            ("r 3 5 - - a5", 7, "so no rock has moved this turn"),
            ("r 2 2 - a5 e1", 7, "so no rock has moved this turn"),
            // 'x' needs a levitating step and a later one, so two steps.
            ("r 3 5 x - -", 5, "but 0 of turn 5's 3 steps are played"),
            ("r 2 5 x - a5", 5, "but 1 of turn 5's 3 steps are played"),
            ("r 1 2 x - a5", 5, "but 1 of turn 2's 2 steps are played"),
            // ... and a levitated rock: moved and not cooling.
            ("r 1 5 x - -", 5, "needs a rock levitated this turn"),
            ("r 1 5 x a5 a5", 5, "needs a rock levitated this turn"),
            // The first turn has no previous turn.
            ("r 1 1 - a5 -", 6, "turn 1 has no previous turn"),
            // One step played, a levitation: it moved one rock.
            ("r 2 5 a5 - a5,e1", 7, "so a5 is the only rock moved"),
            ("r 1 2 e1 - e1,e9", 7, "so e1 is the only rock moved"),
        ] {
            refused(&format!("{U} {rest}"), field, text);
        }
        // A game ends only by a throw, which ends the turn.
        refused(
            "R/3/5/7/R7R/7/5/rS2/R r 2 9 - - -",
            3,
            "the game is over (one sorcerer left)",
        );
        // Their reachable neighbours are accepted and print back unchanged.
        for rest in [
            "r 2 5 a5 - a5",
            "r 1 2 a5 - a5",
            "r 2 5 - - a5",
            "r 1 5 x - a5",
            "r 1 5 x a5 a5,e1",
            "r 1 5 e1 - a5,e1",
            "r 2 2 - a5 -",
            "r 1 2 - a5,e1 e9",
            "r 1 1 - - -",
        ] {
            let spn = format!("{U} {rest}");
            let p = Position::from_spn(&spn).unwrap_or_else(|e| panic!("{spn}: {e}"));
            assert_eq!(p.to_spn(), spn);
            p.validate().unwrap();
        }
        // Without levitation only a dwarf or a troll moves rocks.
        refused(
            "R/gS2/5/7/R7R/7/5/rS2/R r 2 9 - - e1",
            7,
            "red has no dwarf or troll and levitated no rock this turn",
        );
        for rest in ["r 2 9 e1 - e1", "r 1 9 x - a5,e1", "r 3 9 - e1 -"] {
            let spn = format!("R/gS2/5/7/R7R/7/5/rS2/R {rest}");
            assert_eq!(Position::from_spn(&spn).unwrap().to_spn(), spn);
        }
        let over = "R/3/5/7/R7R/7/5/rS2/R r 3 9 - e1 -";
        assert_eq!(Position::from_spn(over).unwrap().to_spn(), over);
    }

    #[test]
    fn errors_name_the_field_and_the_problem() {
        let cases: [(&str, usize, &str); 24] = [
            ("", 0, "0 fields"),
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - -", 0, "6 fields"),
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT r 1 1 - - -", 1, "8 ranks"),
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R/1 r 1 1 - - -", 1, "10 ranks"),
            (
                "R/gTgDgS/5/7/R8R/7/5/rSrDrT/R r 1 1 - - -",
                1,
                "more than its 9",
            ),
            (
                "R/gTgDgS/5/7/R6R/7/5/rSrDrT/R r 1 1 - - -",
                1,
                "describes 8 squares",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrTR/R r 1 1 - - -",
                1,
                "more than its 3",
            ),
            ("R/gTgDgS/5/7/R7X/7/5/rSrDrT/R r 1 1 - - -", 1, "'X' is not"),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrx/R r 1 1 - - -",
                1,
                "followed by S, D or T",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDr/R r 1 1 - - -",
                1,
                "followed by S, D or T",
            ),
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/1 r 1 1 - - -", 1, "3 rocks"),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrSrT/R r 1 1 - - -",
                1,
                "second sorcerer",
            ),
            ("R/gTgD1/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -", 1, "no sorcerer"),
            (
                "R/3/5/7/R7R/7/5/3/R r 1 1 - - -",
                1,
                "no sorcerer on the board",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R y 1 1 - - -",
                2,
                "yellow has no sorcerer",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R rg 1 1 - - -",
                2,
                "not a seat letter",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 4 9 - - -",
                3,
                "not 1, 2 or 3",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 2 1 - - -",
                3,
                "turn 1 has only 1",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 0 - - -",
                4,
                "not a turn number",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 e5 - -",
                5,
                "e5 holds no rock",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 9 e1 - -",
                5,
                "must be listed as moved",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 9 - e1,e1 -",
                6,
                "listed twice",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 9 - a1 -",
                6,
                "'a1' is not a board square",
            ),
            (
                "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 9 - - e2",
                7,
                "e2 holds no rock",
            ),
        ];
        for (spn, field, text) in cases {
            let e = Position::from_spn(spn).unwrap_err();
            assert_eq!(e.field, field, "{spn}: {e}");
            assert!(e.to_string().contains(text), "{spn}: {e}");
        }
    }

    #[test]
    fn board_art_shows_every_piece() {
        let art = Position::start(4).unwrap().board_art();
        assert!(art.starts_with("9               R\n"), "{art}");
        assert!(art.contains("bT"));
        assert!(art.ends_with(STARTS[2]));
    }
}
