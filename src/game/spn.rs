//! SPN, the Splut Position Notation (RULES.md §7): seven fields separated by
//! spaces — board, side to move, steps left, turn number, levitation, cooling
//! rocks, rocks moved this turn.
//!
//! `R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -` is the 2-player start.
//! Parsing checks that the position could occur in a game (four rocks, one
//! piece of each kind per seat at most, no team without its sorcerer, the
//! side to move in the game, steps left within the turn, listed rocks really
//! rocks) and says which field is wrong and why.

use super::bitboard::Bitboard;
use super::board::{Square, rank_width};
use super::piece::{Kind, Piece, Seat};
use super::position::{LEV_NOT_STARTED, LEV_OVER, Position, steps_in_turn};
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
    for part in text.split(',') {
        let sq = parse_square(field, part)?;
        if bb.has(sq) {
            return Err(err(field, format!("{sq} is listed twice")));
        }
        if !rocks.has(sq) {
            return Err(err(field, format!("{sq} holds no rock")));
        }
        bb |= sq.bb();
    }
    Ok(bb)
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
        let rank = 8 - i as u8;
        let width = rank_width(rank);
        let first_file = 4 - (width - 1) / 2;
        let mut file = 0u8; // squares consumed so far in this rank
        let mut chars = rank_text.chars().peekable();
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
                '1'..='9' => {
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
            if file >= width {
                return Err(too_many());
            }
            let Some(sq) = Square::from_coords(first_file + file, rank) else {
                return Err(err(1, format!("{}: off the board", at(file))));
            };
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
    }
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
    pub fn from_spn(spn: &str) -> Result<Position, SpnError> {
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

        let turn: u32 = fields[3]
            .parse()
            .ok()
            .filter(|&t| t >= 1)
            .ok_or_else(|| err(4, format!("'{}' is not a turn number 1 or more", fields[3])))?;
        p.turn = turn;
        let max = steps_in_turn(turn);
        let steps: u8 = fields[2]
            .parse()
            .ok()
            .filter(|&s| (1..=3).contains(&s))
            .ok_or_else(|| err(3, format!("'{}' is not 1, 2 or 3", fields[2])))?;
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
    fn lists_are_printed_alphabetically_and_read_in_any_order() {
        let p = Position::from_spn("R/3/5/7/R3R3R/7/5/rSgS1/1 r 3 9 - i5,a5 e5,e9").unwrap();
        assert_eq!(p.to_spn(), "R/3/5/7/R3R3R/7/5/rSgS1/1 r 3 9 - a5,i5 e5,e9");
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
