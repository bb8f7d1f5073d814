//! Parsing the commands that carry arguments: `position`, `go`, `setoption`.
//! Each returns a value or an error message saying what is wrong and where;
//! nothing here touches the engine's state.

use super::input::echo;
use crate::game::{Game, Position, Seat};
use crate::search::time::Clock;
use crate::search::{Limits, MAX_DEPTH};

/// A parsed `position` command: the game it describes and the seat that
/// moved first (`p1` in UGI terms).
pub struct PositionCommand {
    /// Start position and steps played.
    pub game: Game,
    /// The seat UGI calls p1.
    pub p1: Seat,
}

/// Parses the words after `position`.
pub fn parse_position(words: &[&str]) -> Result<PositionCommand, String> {
    let (start, rest) = match words.first().copied() {
        Some("startpos") => {
            let mut players = 2;
            let mut rest = &words[1..];
            if rest.first() == Some(&"players") {
                players = match rest.get(1).and_then(|n| n.parse::<usize>().ok()) {
                    Some(n @ 2..=4) => n,
                    _ => {
                        return Err(format!(
                            "position startpos players: expected 2, 3 or 4, found '{}'",
                            rest.get(1).unwrap_or(&"")
                        ));
                    }
                };
                rest = &rest[2..];
            }
            let start = Position::start(players).ok_or("position startpos: no such start")?;
            (start, rest)
        }
        Some("fen") | Some("spn") => {
            let end = words
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(words.len());
            let fields = &words[1..end];
            if fields.len() != 7 {
                return Err(format!(
                    "position {}: an SPN has 7 fields, found {}",
                    words[0],
                    fields.len()
                ));
            }
            let start =
                Position::from_spn(&fields.join(" ")).map_err(|e| format!("position: {e}"))?;
            (start, &words[end..])
        }
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos', 'fen' or 'spn', found '{other}'"
            ));
        }
        None => return Err("position: expected 'startpos', 'fen' or 'spn'".into()),
    };
    let mut game = Game::new(start);
    match rest.first().copied() {
        None => {}
        Some("moves") => {
            for (i, text) in rest[1..].iter().enumerate() {
                game.play_text(text)
                    .map_err(|e| format!("position: moves, step {}: {e}", i + 1))?;
            }
        }
        Some(other) => return Err(format!("position: expected 'moves', found '{other}'")),
    }
    Ok(PositionCommand {
        p1: start.first_mover(),
        game,
    })
}

/// Largest time in milliseconds `go` takes (about 31 years): anything
/// larger is refused rather than overflow the time arithmetic.
pub const MAX_MS: u64 = 1_000_000_000_000;

/// Parses the words after `go` for a game whose p1 is `p1`, with `side`
/// to move.
pub fn parse_go(words: &[&str], p1: Seat, side: Seat) -> Result<Limits, String> {
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
        let value = || -> Result<u64, String> {
            let v = words
                .get(i + 1)
                .ok_or_else(|| format!("go: '{}' needs a value", echo(key)))?;
            v.parse::<u64>().map_err(|_| {
                format!(
                    "go: '{key}' needs a whole number 0..={}, found '{}'",
                    u64::MAX,
                    echo(v)
                )
            })
        };
        // Milliseconds are bounded here so that no time arithmetic can overflow.
        let ms = || -> Result<u64, String> {
            let v = value()?;
            if v > MAX_MS {
                return Err(format!("go: {key} {v} is over the maximum {MAX_MS} ms"));
            }
            Ok(v)
        };
        match key {
            "depth" => {
                let d = value()?;
                if d == 0 {
                    return Err("go: depth must be at least 1".into());
                }
                limits.depth = Some(d.min(u64::from(MAX_DEPTH)) as u32);
            }
            "nodes" => {
                let n = value()?;
                if n == 0 {
                    return Err("go: nodes must be at least 1".into());
                }
                limits.nodes = Some(n);
            }
            "movetime" => limits.movetime = Some(ms()?),
            "p1time" => p_time[0] = Some(ms()?),
            "p2time" => p_time[1] = Some(ms()?),
            "p1inc" => p_inc[0] = Some(ms()?),
            "p2inc" => p_inc[1] = Some(ms()?),
            _ => {
                let seat = key
                    .strip_suffix("time")
                    .map(|s| (s, true))
                    .or_else(|| key.strip_suffix("inc").map(|s| (s, false)))
                    .and_then(|(s, is_time)| {
                        let mut c = s.chars();
                        match (c.next().and_then(Seat::from_letter), c.next()) {
                            (Some(seat), None) => Some((seat, is_time)),
                            _ => None,
                        }
                    });
                match seat {
                    Some((seat, true)) => seat_time[seat.index()] = Some(ms()?),
                    Some((seat, false)) => seat_inc[seat.index()] = Some(ms()?),
                    None => return Err(format!("go: unknown parameter '{}'", echo(key))),
                }
            }
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
        return Err(format!(
            "go: clocks given, but no time for the side to move ({}: {}time, or p{}time)",
            side.name(),
            side.letter(),
            mine + 1
        ));
    }
    limits.clock = time.map(|time| Clock { time, inc });
    Ok(limits)
}

/// Parses the words after `setoption`: `name <name…> value <value…>`.
pub fn parse_setoption(words: &[&str]) -> Result<(String, String), String> {
    if words.first() != Some(&"name") {
        return Err("setoption: expected 'name <option> value <value>'".into());
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let value = match value_at {
        Some(v) if v + 1 < words.len() => words[v + 1..].join(" "),
        _ => {
            return Err(format!(
                "setoption {}: the value is missing",
                name_words.join(" ")
            ));
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
            let e = parse_position(&w(text)).err().unwrap_or_default();
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
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn setoption_takes_names_and_values_with_spaces() {
        assert_eq!(
            parse_setoption(&w("name Hash value 128")).unwrap(),
            ("Hash".into(), "128".into())
        );
        assert!(
            parse_setoption(&w("name Hash"))
                .unwrap_err()
                .contains("value is missing")
        );
        assert!(parse_setoption(&w("Hash 128")).is_err());
        assert!(
            parse_setoption(&w("name value 3"))
                .unwrap_err()
                .contains("name is missing")
        );
    }
}
