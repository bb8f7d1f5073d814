//! Checks of the engine's answers against the rules library and
//! `protocol.md`.

use super::config::MAX_ERROR_CHARS;
use super::make::{Expect, MAX_MS};
use splut_rules::{Position, Seat, perft};

/// Whether the turn that `before` was in ended with the step that led to
/// `after` (a turn at `MAX_TURN`, the largest an SPN may give, ends like
/// any other: play goes on past it).
pub fn turn_ended(before: &Position, after: &Position) -> bool {
    after.is_game_over()
        || after.side_to_move() != before.side_to_move()
        || after.turn() != before.turn()
}

/// Checks a `bestturn` (its words) and `bestmove` answer for a search of
/// `root`: one whole legal turn, or `(none)` when the game is over.
pub fn bestturn(root: &Position, turn: &[&str], best: &str) -> Result<(), (&'static str, String)> {
    if root.is_game_over() {
        if turn == ["(none)"] && best == "(none)" {
            return Ok(());
        }
        return Err((
            "bestturn-after-game-over",
            format!(
                "the game is over, expected 'bestturn (none)' and 'bestmove (none)', got 'bestturn {}' and 'bestmove {best}'",
                turn.join(" ")
            ),
        ));
    }
    if turn.is_empty() || turn == ["(none)"] {
        return Err((
            "bestturn-empty",
            format!("the game goes on but bestturn is '{}'", turn.join(" ")),
        ));
    }
    let mut p = *root;
    let mut ended = false;
    for (i, text) in turn.iter().enumerate() {
        if ended {
            return Err((
                "bestturn-too-long",
                format!(
                    "bestturn '{}' goes on after the turn ended at step {i} ({} steps in all)",
                    turn.join(" "),
                    turn.len()
                ),
            ));
        }
        let step = p.parse_step(text).map_err(|e| {
            (
                "bestturn-illegal-step",
                format!(
                    "bestturn '{}': step {} '{text}' is not legal in {}: {e}",
                    turn.join(" "),
                    i + 1,
                    p.to_spn()
                ),
            )
        })?;
        let next = p.after(step);
        ended = turn_ended(&p, &next);
        p = next;
    }
    if !ended {
        return Err((
            "bestturn-incomplete",
            format!(
                "bestturn '{}' stops before the end of the turn ({} steps left in {})",
                turn.join(" "),
                p.steps_left(),
                p.to_spn()
            ),
        ));
    }
    if best != turn[0] {
        return Err((
            "bestmove-not-first-step",
            format!(
                "bestmove '{best}' is not the first step of bestturn '{}'",
                turn.join(" ")
            ),
        ));
    }
    Ok(())
}

/// Characters that must not reach a terminal raw (`protocol.md`: error
/// lines write "control characters" escaped, `\x1b`, `\u{202e}`): the
/// control characters (C0, DEL, C1) and the explicit bidirectional
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
/// reorder everything after them. The implicit marks (U+200E/F, U+061C)
/// only act like a letter of their direction and are not required.
pub fn unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first character of an output line that must not be printed raw.
pub fn unsafe_in(line: &str) -> Option<char> {
    line.chars().find(|&c| unsafe_char(c))
}

/// What is wrong with an error line, if anything: longer than
/// [`MAX_ERROR_CHARS`], or a character written raw that must be escaped.
pub fn error_line_problem(line: &str) -> Option<(&'static str, String)> {
    let n = line.chars().count();
    if n > MAX_ERROR_CHARS {
        let head: String = line.chars().take(120).collect();
        return Some((
            "error-line-too-long",
            format!("error line of {n} characters (at most {MAX_ERROR_CHARS}): {head}…"),
        ));
    }
    unsafe_in(line).map(|c| {
        (
            "error-line-unescaped",
            format!("raw U+{:04X} in: {}", c as u32, line.escape_debug()),
        )
    })
}

/// The referee's p1 after `position … <start> [moves …]` (`protocol.md`,
/// `position`): the side to move at turn 1; later, with two seats in the
/// game, the seat whose turns are odd; with 3–4 the first in r, y, g, b.
pub fn p1_of(start: &Position) -> Seat {
    let side = start.side_to_move();
    if start.turn() == 1 {
        return side;
    }
    let seats: Vec<Seat> = start.seats_in_game().collect();
    if seats.len() == 2 {
        let other = if seats[0] == side { seats[1] } else { seats[0] };
        return if start.turn() % 2 == 1 { side } else { other };
    }
    seats.first().copied().unwrap_or(side)
}

/// Whether `go <words>` (made by `make::go`) must be refused in a position
/// with `side` to move, `p1` the referee's p1 (if known) and `two` true if
/// exactly two seats are in the game, p1 among them. `protocol.md`: a
/// number that is not a whole 64-bit number, a time or increment over
/// 10^12 ms, `depth 0`, `nodes 0`, and clock parameters (any time or
/// increment) without a time for the side to move, whatever other limit is
/// given, are errors. p1/p2 clocks are UGI's, for two players: with more,
/// or p1 unknown, they may or may not give the side a time.
pub fn go_expect(words: &[&str], side: Seat, p1: Option<Seat>, two: bool) -> Expect {
    let mut seat_time = [false; 4];
    let mut p_time = [false; 2];
    let mut clock = false;
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" || key == "ponder" {
            i += 1;
            continue;
        }
        let Some(v) = words.get(i + 1).and_then(|v| v.parse::<u64>().ok()) else {
            return Expect::Err;
        };
        match key {
            "depth" | "nodes" if v == 0 => return Expect::Err,
            "depth" | "nodes" => {}
            _ if v > MAX_MS => return Expect::Err,
            "movetime" => {}
            _ => {
                let (who, is_time) = match (key.strip_suffix("time"), key.strip_suffix("inc")) {
                    (Some(w), _) => (w, true),
                    (None, Some(w)) => (w, false),
                    (None, None) => return Expect::Err,
                };
                match who {
                    "p1" => p_time[0] |= is_time,
                    "p2" => p_time[1] |= is_time,
                    _ => match Seat::from_letter(who.chars().next().unwrap_or('-')) {
                        Some(s) if who.len() == 1 => seat_time[s.index()] |= is_time,
                        _ => return Expect::Err,
                    },
                }
                clock = true;
            }
        }
        i += 2;
    }
    if !clock || seat_time[side.index()] {
        return Expect::Ok;
    }
    if !p_time[0] && !p_time[1] {
        return Expect::Err;
    }
    match p1 {
        Some(p1) if two => {
            if p_time[usize::from(side != p1)] {
                Expect::Ok
            } else {
                Expect::Err
            }
        }
        _ => Expect::Any,
    }
}

/// Deepest perft the fuzzer recounts with the rules library (a debug
/// build counts much slower).
pub const PERFT_CHECKED: u32 = if cfg!(debug_assertions) { 4 } else { 5 };

/// Checks a perft answer: `<step> <count>` rows for every legal step,
/// sorted, then `nodes <total>`.
pub fn perft_answer(pos: &Position, depth: u32, rows: &[String], total: u64) -> Result<(), String> {
    let want_total = perft(pos, depth);
    if total != want_total {
        return Err(format!(
            "perft {depth} in {}: nodes {total}, the rules give {want_total}",
            pos.to_spn()
        ));
    }
    if depth == 0 {
        return Ok(());
    }
    let mut want: Vec<String> = pos
        .legal_step_vec()
        .into_iter()
        .map(|s| format!("{s} {}", perft(&pos.after(s), depth - 1)))
        .collect();
    want.sort();
    if rows != want {
        let mut sorted = rows.to_vec();
        sorted.sort();
        if sorted == want {
            return Err(format!(
                "perft {depth} in {}: rows not sorted: {rows:?}",
                pos.to_spn()
            ));
        }
        let missing: Vec<&String> = want.iter().filter(|r| !rows.contains(r)).take(5).collect();
        let extra: Vec<&String> = rows.iter().filter(|r| !want.contains(r)).take(5).collect();
        return Err(format!(
            "perft {depth} in {}: rows differ from the rules (missing {missing:?}, unexpected {extra:?})",
            pos.to_spn()
        ));
    }
    Ok(())
}

/// Checks the answer to `query <what>` against the library's view of
/// `pos`; `p1turn` and `result` exactly when the referee's p1 is known.
pub fn query_answer(
    pos: &Position,
    p1: Option<Seat>,
    what: &str,
    answer: &str,
) -> Result<(), String> {
    let expected = match what {
        "gameover" => pos.is_game_over().to_string(),
        "turn" => pos.side_to_move().letter().to_string(),
        "winner" => pos
            .winner()
            .map_or("none".to_string(), |w| w.letter().to_string()),
        "steps" => pos.steps_left().to_string(),
        "legal" => {
            let mut want: Vec<String> =
                pos.legal_step_vec().iter().map(|s| s.to_string()).collect();
            let mut got: Vec<String> = answer.split_whitespace().map(String::from).collect();
            want.sort();
            got.sort();
            if want != got {
                return Err(format!(
                    "query legal: '{answer}', the rules give '{}'",
                    want.join(" ")
                ));
            }
            return Ok(());
        }
        "p1turn" => match p1 {
            Some(p1) => (pos.side_to_move() == p1 && !pos.is_game_over()).to_string(),
            None if answer == "true" || answer == "false" => return Ok(()),
            None => return Err(format!("query p1turn: '{answer}' is not true/false")),
        },
        "result" => match (pos.winner(), p1) {
            (None, _) => "none".to_string(),
            (Some(w), Some(p1)) if w == p1 => "p1win".to_string(),
            (Some(_), Some(_)) => "p2win".to_string(),
            (Some(_), None) if answer == "p1win" || answer == "p2win" => return Ok(()),
            (Some(_), None) => {
                return Err(format!("query result: '{answer}' in {}", pos.to_spn()));
            }
        },
        "spn" | "fen" => pos.to_spn(),
        _ => return Ok(()),
    };
    if answer != expected {
        return Err(format!(
            "query {what}: '{answer}', the rules give '{expected}' in {} (p1 {})",
            pos.to_spn(),
            p1.map_or('?', |s| s.letter())
        ));
    }
    Ok(())
}
