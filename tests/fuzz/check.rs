//! Checks of the engine's answers against the rules library.

use splut::game::Position;

/// Whether the turn that `before` was in ended with the step that led to
/// `after`. The turn number saturates at `u32::MAX`, so the side to move
/// changing counts too (it always does when a turn ends and the game goes
/// on).
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

/// The first raw control byte (below 0x20, or 0x7f) of a line, if any.
pub fn control_byte(line: &[u8]) -> Option<u8> {
    line.iter().copied().find(|&b| b < 0x20 || b == 0x7f)
}

/// Checks the answer to `query <what>` (not `p1turn`/`result`, which need
/// the referee's p1) against the library's view of `pos`.
pub fn query_answer(pos: &Position, what: &str, answer: &str) -> Result<(), String> {
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
        "p1turn" => {
            if answer == "true" || answer == "false" {
                return Ok(());
            }
            return Err(format!("query p1turn: '{answer}' is not true/false"));
        }
        "result" => {
            let ok = match pos.winner() {
                None => answer == "none",
                Some(_) => answer == "p1win" || answer == "p2win",
            };
            if ok {
                return Ok(());
            }
            return Err(format!("query result: '{answer}' in {}", pos.to_spn()));
        }
        "spn" | "fen" => pos.to_spn(),
        _ => return Ok(()),
    };
    if answer != expected {
        return Err(format!(
            "query {what}: '{answer}', the rules give '{expected}' in {}",
            pos.to_spn()
        ));
    }
    Ok(())
}
