//! Parsing the commands that carry arguments: `position`, `go`, `setoption`.
//! Each returns a value or a typed error whose text (`Display`) is the
//! protocol's error line, saying what is wrong and where; nothing here
//! touches the engine's state.

use super::input::echo;
use crate::search::time::Clock;
use crate::search::{Limits, MAX_DEPTH};
use splut_rules::{Game, Position, Seat, SpnError, StepError};
use std::fmt;

/// A parsed `position` command: the game it describes and the seat that
/// moved first (`p1` in UGI terms).
pub struct PositionCommand {
    /// Start position and steps played.
    pub game: Game,
    /// The seat UGI calls p1.
    pub p1: Seat,
}

/// Why a `position` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Neither `startpos`, `fen` nor `spn` (or nothing) after `position`.
    ExpectedStart {
        /// The word found instead, if any.
        found: Option<String>,
    },
    /// `startpos players` without 2, 3 or 4.
    Players {
        /// The word found instead.
        found: String,
    },
    /// An SPN of other than 7 fields.
    SpnFields {
        /// `fen` or `spn`.
        keyword: String,
        /// The fields found.
        found: usize,
    },
    /// The SPN is not a valid position.
    Spn(SpnError),
    /// A word other than `moves` after the position.
    ExpectedMoves {
        /// The word found.
        found: String,
    },
    /// A step of `moves` is not legal where it is played.
    Step {
        /// Which step, from 1.
        number: usize,
        /// Why.
        error: StepError,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ExpectedStart { found: None } => {
                write!(f, "position: expected 'startpos', 'fen' or 'spn'")
            }
            Self::ExpectedStart { found: Some(w) } => write!(
                f,
                "position: expected 'startpos', 'fen' or 'spn', found '{w}'"
            ),
            Self::Players { found } => write!(
                f,
                "position startpos players: expected 2, 3 or 4, found '{found}'"
            ),
            Self::SpnFields { keyword, found } => {
                write!(f, "position {keyword}: an SPN has 7 fields, found {found}")
            }
            Self::Spn(e) => write!(f, "position: {e}"),
            Self::ExpectedMoves { found } => {
                write!(f, "position: expected 'moves', found '{found}'")
            }
            Self::Step { number, error } => {
                write!(f, "position: moves, step {number}: {error}")
            }
        }
    }
}

impl std::error::Error for PositionCommandError {}

/// Parses the words after `position`.
pub fn parse_position(words: &[&str]) -> Result<PositionCommand, PositionCommandError> {
    let (start, rest) = match words.first().copied() {
        Some("startpos") => {
            let mut players = 2;
            let mut rest = &words[1..];
            if rest.first() == Some(&"players") {
                players = match rest.get(1).and_then(|n| n.parse::<usize>().ok()) {
                    Some(n @ 2..=4) => n,
                    _ => {
                        return Err(PositionCommandError::Players {
                            found: rest.get(1).unwrap_or(&"").to_string(),
                        });
                    }
                };
                rest = &rest[2..];
            }
            // 2..=4 players always have a start.
            let start = Position::start(players).ok_or(PositionCommandError::Players {
                found: players.to_string(),
            })?;
            (start, rest)
        }
        Some("fen") | Some("spn") => {
            let end = words
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(words.len());
            let fields = &words[1..end];
            if fields.len() != 7 {
                return Err(PositionCommandError::SpnFields {
                    keyword: words[0].to_string(),
                    found: fields.len(),
                });
            }
            let start = Position::from_spn(&fields.join(" ")).map_err(PositionCommandError::Spn)?;
            (start, &words[end..])
        }
        other => {
            return Err(PositionCommandError::ExpectedStart {
                found: other.map(str::to_string),
            });
        }
    };
    let mut game = Game::new(start);
    match rest.first().copied() {
        None => {}
        Some("moves") => {
            for (i, text) in rest[1..].iter().enumerate() {
                game.play_text(text)
                    .map_err(|error| PositionCommandError::Step {
                        number: i + 1,
                        error,
                    })?;
            }
        }
        Some(other) => {
            return Err(PositionCommandError::ExpectedMoves {
                found: other.to_string(),
            });
        }
    }
    Ok(PositionCommand {
        p1: start.first_mover(),
        game,
    })
}

/// Largest time in milliseconds `go` takes (about 31 years): anything
/// larger is refused rather than overflow the time arithmetic.
pub const MAX_MS: u64 = 1_000_000_000_000;

/// Why a `go` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommandError {
    /// A parameter without its value.
    MissingValue {
        /// The parameter.
        key: String,
    },
    /// A value that is not a whole number.
    NotANumber {
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
    },
    /// A time over [`MAX_MS`].
    TooLong {
        /// The parameter.
        key: String,
        /// The value given, ms.
        ms: u64,
    },
    /// `depth 0` or `nodes 0`.
    Zero {
        /// `depth` or `nodes`.
        key: &'static str,
    },
    /// A word `go` does not know.
    Unknown {
        /// The word.
        key: String,
    },
    /// Clock times or increments, but no time for the side to move.
    NoTimeForTheMover {
        /// The side to move.
        side: Seat,
        /// Its UGI number (1 for p1, 2 for the others).
        p: usize,
    },
}

impl fmt::Display for GoCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingValue { key } => write!(f, "go: '{}' needs a value", echo(key)),
            Self::NotANumber { key, value } => write!(
                f,
                "go: '{key}' needs a whole number 0..={}, found '{}'",
                u64::MAX,
                echo(value)
            ),
            Self::TooLong { key, ms } => {
                write!(f, "go: {key} {ms} is over the maximum {MAX_MS} ms")
            }
            Self::Zero { key } => write!(f, "go: {key} must be at least 1"),
            Self::Unknown { key } => write!(f, "go: unknown parameter '{}'", echo(key)),
            Self::NoTimeForTheMover { side, p } => write!(
                f,
                "go: clocks given, but no time for the side to move ({}: {}time, or p{p}time)",
                side.name(),
                side.letter(),
            ),
        }
    }
}

impl std::error::Error for GoCommandError {}

/// The seat a `go` parameter `<letter>time` (true) or `<letter>inc`
/// (false) is for.
fn seat_clock_key(key: &str) -> Option<(Seat, bool)> {
    let (letter, is_time) = key
        .strip_suffix("time")
        .map(|s| (s, true))
        .or_else(|| key.strip_suffix("inc").map(|s| (s, false)))?;
    let mut c = letter.chars();
    match (c.next().and_then(Seat::from_letter), c.next()) {
        (Some(seat), None) => Some((seat, is_time)),
        _ => None,
    }
}

/// Parses the words after `go` for a game whose p1 is `p1`, with `side`
/// to move.
pub fn parse_go(words: &[&str], p1: Seat, side: Seat) -> Result<Limits, GoCommandError> {
    let mut limits = Limits::default();
    let mut seat_time: [Option<u64>; 4] = [None; 4];
    let mut seat_inc: [Option<u64>; 4] = [None; 4];
    let (mut p_time, mut p_inc) = ([None, None], [None, None]);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" || key == "ponder" {
            if key == "ponder" {
                limits.ponder = true;
            } else {
                limits.infinite = true;
            }
            i += 1;
            continue;
        }
        let value = || -> Result<u64, GoCommandError> {
            let v = words
                .get(i + 1)
                .ok_or_else(|| GoCommandError::MissingValue {
                    key: key.to_string(),
                })?;
            v.parse::<u64>().map_err(|_| GoCommandError::NotANumber {
                key: key.to_string(),
                value: v.to_string(),
            })
        };
        // Milliseconds are bounded here so that no time arithmetic can overflow.
        let ms = || -> Result<u64, GoCommandError> {
            let v = value()?;
            if v > MAX_MS {
                return Err(GoCommandError::TooLong {
                    key: key.to_string(),
                    ms: v,
                });
            }
            Ok(v)
        };
        match key {
            "depth" => {
                let d = value()?;
                if d == 0 {
                    return Err(GoCommandError::Zero { key: "depth" });
                }
                limits.depth = Some(d.min(u64::from(MAX_DEPTH)) as u32);
            }
            "nodes" => {
                let n = value()?;
                if n == 0 {
                    return Err(GoCommandError::Zero { key: "nodes" });
                }
                limits.nodes = Some(n);
            }
            "movetime" => limits.movetime = Some(ms()?),
            "p1time" => p_time[0] = Some(ms()?),
            "p2time" => p_time[1] = Some(ms()?),
            "p1inc" => p_inc[0] = Some(ms()?),
            "p2inc" => p_inc[1] = Some(ms()?),
            _ => match seat_clock_key(key) {
                Some((seat, true)) => seat_time[seat.index()] = Some(ms()?),
                Some((seat, false)) => seat_inc[seat.index()] = Some(ms()?),
                None => {
                    return Err(GoCommandError::Unknown {
                        key: key.to_string(),
                    });
                }
            },
        }
        i += 2;
    }
    let mine = usize::from(side != p1);
    let time = seat_time[side.index()].or(p_time[mine]);
    let inc = seat_inc[side.index()].or(p_inc[mine]).unwrap_or(0);
    // An increment alone gives no time: without this the search would run
    // until `stop`.
    let some_clock = seat_time
        .iter()
        .chain(&p_time)
        .chain(&seat_inc)
        .chain(&p_inc)
        .any(Option::is_some);
    if time.is_none() && some_clock {
        return Err(GoCommandError::NoTimeForTheMover { side, p: mine + 1 });
    }
    limits.clock = time.map(|time| Clock { time, inc });
    Ok(limits)
}

/// Why a `setoption` command was refused (before the option itself is
/// checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOptionCommandError {
    /// It does not start with `name`.
    ExpectedName,
    /// No words between `name` and `value`.
    MissingName,
    /// No words after `value` (or no `value`).
    MissingValue {
        /// The option's name as given.
        name: String,
    },
}

impl fmt::Display for SetOptionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ExpectedName => write!(f, "setoption: expected 'name <option> value <value>'"),
            Self::MissingName => write!(f, "setoption: the option name is missing"),
            Self::MissingValue { name } => write!(f, "setoption {name}: the value is missing"),
        }
    }
}

impl std::error::Error for SetOptionCommandError {}

/// Parses the words after `setoption`: `name <name…> value <value…>`.
pub fn parse_setoption(words: &[&str]) -> Result<(String, String), SetOptionCommandError> {
    if words.first() != Some(&"name") {
        return Err(SetOptionCommandError::ExpectedName);
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(SetOptionCommandError::MissingName);
    }
    let value = match value_at {
        Some(v) if v + 1 < words.len() => words[v + 1..].join(" "),
        _ => {
            return Err(SetOptionCommandError::MissingValue {
                name: name_words.join(" "),
            });
        }
    };
    Ok((name_words.join(" "), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn positions_parse_with_steps() {
        let p = parse_position(&w("startpos moves e2e3 e8e7 f8f7")).unwrap();
        assert_eq!(p.game.steps().len(), 3);
        assert_eq!(p.p1, Seat::Red);
        let p = parse_position(&w("startpos players 4")).unwrap();
        assert_eq!(p.game.position().players_left(), 4);
        let p = parse_position(&w(
            "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - moves e2e3",
        ))
        .unwrap();
        assert_eq!(p.game.position().side_to_move(), Seat::Green);
        let p = parse_position(&w("spn R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 3 4 - - -")).unwrap();
        assert_eq!(
            p.p1,
            Seat::Red,
            "turn 4 is green's, so red has the odd turns"
        );
    }

    #[test]
    fn bad_positions_say_why() {
        for (text, says) in [
            ("", "expected 'startpos'"),
            ("startgame", "found 'startgame'"),
            ("startpos players 5", "expected 2, 3 or 4"),
            ("startpos players", "expected 2, 3 or 4"),
            ("startpos moves e2e4", "step 1"),
            ("startpos moves e2e3 e2e3", "step 2"),
            ("startpos e2e3", "expected 'moves'"),
            (
                "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - -",
                "7 fields, found 6",
            ),
            (
                "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - -",
                "7 fields, found 8",
            ),
            ("fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R x 1 1 - - -", "field 2"),
        ] {
            let e = parse_position(&w(text)).err().map(|e| e.to_string());
            let e = e.unwrap_or_default();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn go_reads_every_limit() {
        let l = parse_go(&w("depth 5 nodes 1000 movetime 200"), Seat::Red, Seat::Red).unwrap();
        assert_eq!(
            (l.depth, l.nodes, l.movetime),
            (Some(5), Some(1000), Some(200))
        );
        let l = parse_go(
            &w("p1time 1000 p2time 2000 p1inc 10 p2inc 20"),
            Seat::Red,
            Seat::Green,
        )
        .unwrap();
        assert_eq!(
            l.clock,
            Some(Clock {
                time: 2000,
                inc: 20
            })
        );
        let l = parse_go(
            &w("rtime 5 ytime 6 gtime 7 btime 8 binc 3"),
            Seat::Red,
            Seat::Blue,
        )
        .unwrap();
        assert_eq!(l.clock, Some(Clock { time: 8, inc: 3 }));
        assert!(
            parse_go(&w("infinite"), Seat::Red, Seat::Red)
                .unwrap()
                .infinite
        );
        let p = parse_go(&w("ponder movetime 50"), Seat::Red, Seat::Red).unwrap();
        assert!(p.ponder && !p.infinite && p.movetime == Some(50));
        assert_eq!(
            parse_go(&w("depth 0"), Seat::Red, Seat::Red),
            Err(GoCommandError::Zero { key: "depth" })
        );
        assert!(matches!(
            parse_go(&w("gtime 100"), Seat::Red, Seat::Red),
            Err(GoCommandError::NoTimeForTheMover {
                side: Seat::Red,
                p: 1
            })
        ));
        for (text, says) in [
            ("depth", "needs a value"),
            ("depth x", "whole number"),
            ("depth 0", "at least 1"),
            ("movetime -5", "whole number"),
            ("wtime 100", "unknown parameter 'wtime'"),
            ("pondr", "unknown parameter"),
            (
                "gtime 100",
                "no time for the side to move (red: rtime, or p1time)",
            ),
            ("p2time 100", "no time for the side to move"),
            ("p1inc 100", "no time for the side to move"),
            ("rinc 0", "no time for the side to move"),
            ("ginc 100", "no time for the side to move"),
            ("nodes 0", "at least 1"),
            ("movetime 1000000000001", "over the maximum"),
            ("rtime 18446744073709551615", "over the maximum"),
            ("depth 18446744073709551616", "whole number"),
        ] {
            let e = parse_go(&w(text), Seat::Red, Seat::Red).unwrap_err();
            assert!(e.to_string().contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn setoption_takes_names_and_values_with_spaces() {
        assert_eq!(
            parse_setoption(&w("name Hash value 128")).unwrap(),
            ("Hash".into(), "128".into())
        );
        let missing = parse_setoption(&w("name Hash")).unwrap_err();
        assert_eq!(
            missing,
            SetOptionCommandError::MissingValue {
                name: "Hash".into()
            }
        );
        assert!(missing.to_string().contains("value is missing"));
        assert_eq!(
            parse_setoption(&w("Hash 128")),
            Err(SetOptionCommandError::ExpectedName)
        );
        let no_name = parse_setoption(&w("name value 3")).unwrap_err();
        assert_eq!(no_name, SetOptionCommandError::MissingName);
        assert!(no_name.to_string().contains("name is missing"));
    }
}
