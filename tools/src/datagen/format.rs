//! The data file: one line per position, written and read.
//!
//! ```text
//! <SPN> | <score> | <places> | <seed>:<game>[ | values <r> <y> <g> <b>]
//! ```
//!
//! - `<SPN>`: the position (its fields 2 and 4 are the side to move and the
//!   turn number);
//! - `<score>`: the search's score from the side to move's view: `cp <n>`
//!   (centi-units), `win <turns>` or `loss <turns>` (proven, decided within
//!   that many game turns counting the current one);
//! - `<places>`: how the game ended, first place to last as game records
//!   write it: `g > r`, `y > b > g > r`; `=` joins seats sharing a place
//!   (`r = g` is a draw);
//! - `<seed>:<game>`: which game the position comes from (positions of one
//!   game are correlated: split training and validation data by game);
//! - `values …` (optional): the search's value of each seat, red, yellow,
//!   green and blue, in [`VALUE_UNIT`]ths of a place point (0–250; `-` for
//!   a seat not in the game): what the searching engine expected each seat
//!   to score, at the end of its principal variation.
//!
//! A line takes about 76 bytes with 2 players, 84 with 3, 92 with 4 (a
//! million positions: 76–92 MB). Lines starting with `#` are comments. Every line ends with a newline;
//! a last line without one was cut short by a killed run and is skipped.

use splut_engine::search::score::{MATE_BOUND, Score};
use splut_rules::{Position, Seat};
use std::io::{BufRead, BufReader, Read};

/// A data file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line a position (`super::format`).
    Text,
    /// 32-byte records (`super::binary`).
    Binary,
}

/// Longest line read: a real line is about 80 bytes, so anything longer
/// is not a data file, and is refused before it fills the memory.
pub const MAX_LINE: usize = 4096;

/// Finishing places, first to last; seats in one group share the place.
pub type Places = Vec<Vec<Seat>>;

/// Each seat's value (red, yellow, green, blue) in [`VALUE_UNIT`]ths of
/// a place point, [`NO_VALUE`] for a seat not in the game.
pub type SeatValues = [u8; 4];

/// A place point in [`SeatValues`].
pub const VALUE_UNIT: u8 = 250;

/// A seat without a value in [`SeatValues`].
pub const NO_VALUE: u8 = 255;

/// One position of a self-play game, with what a tuner or trainer needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub position: Position,
    /// The search's score, from the side to move's view.
    pub score: Score,
    /// How the game ended: places, first to last.
    pub places: Places,
    /// The seed of the run that played the game.
    pub seed: u64,
    /// The game's number in that run (from 1).
    pub game: u64,
    /// The search's value of each seat in the game, if the run kept them.
    pub values: Option<SeatValues>,
}

impl Sample {
    /// The seat to move.
    pub fn side_to_move(&self) -> Seat {
        self.position.side_to_move()
    }

    /// The game turn.
    pub fn turn(&self) -> u32 {
        self.position.turn()
    }

    /// What `seat` scored in the game, as tournaments count places: 1 for
    /// first down to 0 for last in equal steps, seats sharing a place
    /// sharing its points (a 2-player draw is 0.5 each). `None` if the
    /// seat did not play. The rules' place points
    /// ([`splut_rules::Places::points_of`], +1 down to −1) on that scale.
    pub fn result_for(&self, seat: Seat) -> Option<f64> {
        let places = splut_rules::Places::from_groups(&self.places)?;
        Some((1.0 + places.points_of(seat)?) / 2.0)
    }

    /// The sample as a line of the data file, without the newline.
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{} | {} | {} | {}:{}",
            self.position.to_spn(),
            self.score,
            places_text(&self.places),
            self.seed,
            self.game
        );
        if let Some(v) = self.values {
            line += " | values";
            for x in v {
                line += &match x {
                    NO_VALUE => " -".to_string(),
                    x => format!(" {x}"),
                };
            }
        }
        line
    }

    /// Seat `seat`'s value (0–1) from the search, if the sample has one.
    pub fn value_for(&self, seat: Seat) -> Option<f64> {
        let x = self.values?[seat.index()];
        (x != NO_VALUE).then(|| f64::from(x) / f64::from(VALUE_UNIT))
    }

    /// Reads a line of the data file (without the newline).
    pub fn parse_line(line: &str) -> Result<Sample, String> {
        let fields: Vec<&str> = line.split(" | ").collect();
        let &[spn, score, places, id, ref rest @ ..] = &fields[..] else {
            return Err(format!(
                "expected 4 or 5 fields separated by ' | ', found {}",
                fields.len()
            ));
        };
        let values = match rest {
            [] => None,
            [v] => Some(*v),
            _ => {
                return Err(format!(
                    "expected 4 or 5 fields separated by ' | ', found {}",
                    fields.len()
                ));
            }
        };
        let position = Position::from_spn(spn).map_err(|e| e.to_string())?;
        let score = parse_score(score)?;
        let places = parse_places(places)?;
        places_cover(&position, &places)?;
        let (seed, game) = id
            .split_once(':')
            .and_then(|(s, g)| Some((number(s)?, number(g)?)))
            .filter(|&(_, g)| g >= 1)
            .ok_or_else(|| format!("game '{id}': expected <seed>:<game from 1>"))?;
        let values = values.map(|v| parse_values(&position, v)).transpose()?;
        Ok(Sample {
            position,
            score,
            places,
            seed,
            game,
            values,
        })
    }
}

/// `values <r> <y> <g> <b>`: a number from 0 to [`VALUE_UNIT`] for each
/// seat in the game of `position`, `-` for the others.
fn parse_values(position: &Position, s: &str) -> Result<SeatValues, String> {
    let bad = |why: &str| format!("values '{s}': {why}");
    let words: Vec<&str> = s
        .strip_prefix("values ")
        .ok_or_else(|| bad("expected 'values' and four numbers"))?
        .split(' ')
        .collect();
    if words.len() != 4 {
        return Err(bad("expected four, red to blue"));
    }
    let mut v = [NO_VALUE; 4];
    for seat in Seat::ALL {
        let in_game = position.seats_in_game().any(|x| x == seat);
        v[seat.index()] = match (words[seat.index()], in_game) {
            ("-", false) => NO_VALUE,
            (w, true) => number(w)
                .filter(|&x| x <= u64::from(VALUE_UNIT))
                .map(|x| x as u8)
                .ok_or_else(|| bad(&format!("{}: expected 0 to {VALUE_UNIT}", seat.name())))?,
            _ => {
                return Err(bad(&format!(
                    "{}: '-' is for seats out of the game",
                    seat.name()
                )));
            }
        };
    }
    Ok(v)
}

/// Every seat still in the game of `position` has a place.
pub(super) fn places_cover(position: &Position, places: &Places) -> Result<(), String> {
    match position
        .seats_in_game()
        .find(|seat| !places.iter().flatten().any(|s| s == seat))
    {
        Some(seat) => Err(format!(
            "places: {} is in the game but not in the places",
            seat.name()
        )),
        None => Ok(()),
    }
}

/// A whole number in canonical form (digits only, no leading zero).
fn number(s: &str) -> Option<u64> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    canonical.then(|| s.parse().ok()).flatten()
}

/// `cp <n>`, `win <turns>` or `loss <turns>`, as [`Score`] displays it.
fn parse_score(s: &str) -> Result<Score, String> {
    let bad = || format!("score '{s}': expected cp <n>, win <turns> or loss <turns>");
    let (kind, value) = s.split_once(' ').ok_or_else(bad)?;
    let turns = || {
        number(value)
            .filter(|&t| (1..=u64::from(u32::MAX)).contains(&t))
            .map(|t| t as u32)
            .ok_or_else(bad)
    };
    match kind {
        "cp" => {
            let magnitude = number(value.strip_prefix('-').unwrap_or(value));
            match magnitude {
                Some(m) if m <= MATE_BOUND as u64 && value != "-0" => {
                    let m = m as i32;
                    Ok(Score::Cp(if value.starts_with('-') { -m } else { m }))
                }
                _ => Err(bad()),
            }
        }
        "win" => Ok(Score::Win(turns()?)),
        "loss" => Ok(Score::Loss(turns()?)),
        _ => Err(bad()),
    }
}

/// The places as game records write them: `g > r = y > b` (the records'
/// own writer, so the two formats cannot drift apart).
pub use splut_play::judge::places_text;

/// Reads [`places_text`] with the rules' reader of places: 2 to 4
/// seats, each once, written exactly as the writer writes them (a line
/// reads back to itself).
fn parse_places(s: &str) -> Result<Places, String> {
    let places: splut_rules::Places = s.parse().map_err(|e| format!("places '{s}': {e}"))?;
    if places.len() < 2 {
        return Err(format!("places '{s}': a game has 2 to 4 seats"));
    }
    if places.to_string() != s {
        return Err(format!(
            "places '{s}': expected seat letters joined by ' > ' or ' = ', as '{places}'"
        ));
    }
    Ok(places.to_groups())
}

/// What reading found besides the samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadSummary {
    /// Files whose last line had no newline (a killed run) and was skipped.
    pub truncated: Vec<String>,
}

/// Reads one data source, line by line, handing each sample to `each`;
/// `name` names it in errors (`<name> line <n>: <why>`). Returns whether
/// a cut-short last line was skipped.
pub fn read_from(
    input: impl Read,
    name: &str,
    each: &mut dyn FnMut(Sample),
) -> Result<bool, String> {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    let mut n = 0u64;
    loop {
        buf.clear();
        n += 1;
        let at = |why: &dyn std::fmt::Display| format!("{name} line {n}: {why}");
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| at(&e))?;
        if read == 0 {
            return Ok(false);
        }
        let Some(line) = buf.strip_suffix(b"\n") else {
            if buf.len() > MAX_LINE {
                return Err(at(&format!("longer than {MAX_LINE} bytes")));
            }
            // No newline at the end of the input: cut short when written,
            // if it is text at all.
            let text = std::str::from_utf8(&buf)
                .is_ok_and(|t| !t.contains(|c: char| c.is_control() && c != '\r'));
            if !text {
                return Err(at(&"not text, nor a binary data file: not a data file"));
            }
            return Ok(true);
        };
        let line = std::str::from_utf8(line).map_err(|_| at(&"not UTF-8"))?;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        each(Sample::parse_line(line).map_err(|e| at(&e))?);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Sample {
        Sample {
            position: Position::start(3).unwrap(),
            score: Score::Cp(-42),
            places: vec![vec![Seat::Green], vec![Seat::Red, Seat::Yellow]],
            seed: 7,
            game: 12,
            values: None,
        }
    }

    #[test]
    fn lines_round_trip() {
        for score in [Score::Cp(-42), Score::Cp(0), Score::Win(3), Score::Loss(1)] {
            let s = Sample { score, ..sample() };
            let line = s.to_line();
            assert_eq!(Sample::parse_line(&line).unwrap(), s, "{line}");
        }
        assert!(sample().to_line().ends_with(" | cp -42 | g > r = y | 7:12"));
        let valued = Sample {
            values: Some([10, 250, 0, NO_VALUE]),
            ..sample()
        };
        let line = valued.to_line();
        assert!(line.ends_with(" | 7:12 | values 10 250 0 -"), "{line}");
        assert_eq!(Sample::parse_line(&line).unwrap(), valued);
        assert_eq!(valued.value_for(Seat::Yellow), Some(1.0));
        assert_eq!(valued.value_for(Seat::Blue), None);
    }

    #[test]
    fn results_count_places() {
        let s = sample();
        assert_eq!(s.result_for(Seat::Green), Some(1.0));
        assert_eq!(s.result_for(Seat::Red), Some(0.25));
        assert_eq!(s.result_for(Seat::Blue), None);
        let draw = Sample {
            places: vec![vec![Seat::Red, Seat::Green]],
            ..sample()
        };
        assert_eq!(draw.result_for(Seat::Red), Some(0.5));
    }

    #[test]
    fn malformed_lines_are_errors() {
        let good = sample().to_line();
        let (spn, _) = good.split_once(" | ").unwrap();
        for bad in [
            String::new(),
            "x".into(),
            format!("{spn} | cp 1 | g > r = y"),
            format!("{spn} | cp 01 | g > r = y | 1:1"),
            format!("{spn} | cp -0 | g > r = y | 1:1"),
            format!("{spn} | cp 99999999999 | g > r = y | 1:1"),
            format!("{spn} | win 0 | g > r = y | 1:1"),
            format!("{spn} | mate 2 | g > r = y | 1:1"),
            format!("{spn} | cp 1 | g > r > y > g | 1:1"),
            format!("{spn} | cp 1 | g > r | 1:1"),
            format!("{spn} | cp 1 | g >r = y | 1:1"),
            format!("{spn} | cp 1 | g > r = y | 1:0"),
            format!("{spn} | cp 1 | g > r = y | 1"),
            format!("{spn} | cp 1 | g > r = y | -1:2"),
            format!("x{spn} | cp 1 | g > r = y | 1:1"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | values 1 2 3"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | values 1 2 3 4"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | values 1 2 251 -"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | values - 2 3 -"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | 1 2 3 -"),
            format!("{spn} | cp 1 | g > r = y | 1:1 | values 1 2 3 - | x"),
        ] {
            assert!(Sample::parse_line(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reading_skips_comments_and_a_cut_last_line_and_names_bad_lines() {
        let line = sample().to_line();
        let text = format!("# run\n{line}\n\n{line}\n{}", &line[..20]);
        let mut got = Vec::new();
        let cut = read_from(text.as_bytes(), "f", &mut |s| got.push(s)).unwrap();
        assert!(cut);
        assert_eq!(got.len(), 2);
        let e = read_from(format!("{line}\nbad\n").as_bytes(), "f", &mut |_| {}).unwrap_err();
        assert!(e.starts_with("f line 2: "), "{e}");
        let e = read_from(&b"\xff\n"[..], "f", &mut |_| {}).unwrap_err();
        assert_eq!(e, "f line 1: not UTF-8");
        let long = vec![b'x'; MAX_LINE * 3];
        let e = read_from(&long[..], "f", &mut |_| {}).unwrap_err();
        assert!(e.contains("longer than"), "{e}");
    }
}
