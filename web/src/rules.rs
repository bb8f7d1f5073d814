//! The rules for a page: a game replayed from its start and its steps,
//! answered in JSON (docs/web.md has the fields). Stateless: the page
//! keeps the steps and asks again after each (a few hundred steps replay
//! in well under a millisecond), so a take-back is one step fewer.

use splut_rules::{Game, Position, Seat};

/// The game from `start` (`2`, `3` or `4` for the start position with that
/// many players, or an SPN) after `steps` (step texts separated by spaces),
/// as a JSON object: `spn`, `side`, `turn`, `stepsLeft`, `seats` (in the
/// game, in turn order), `over`, `winner`, `places` (the seats whose place
/// is known: the winner's, and every seat that went out during these
/// steps), `legal` (the side to move's steps), `steps` (how many were
/// played). A bad start or step gives `{"error": …, "step": i}` instead,
/// `i` the index of the refused step (`null` for the start).
pub fn game_json(start: &str, steps: &str) -> String {
    match replay(start, steps) {
        Ok(game) => describe(&game),
        Err(e) => e,
    }
}

/// The positions of the game from `start` after `steps` ([`game_json`]'s
/// arguments), as a JSON object: `spns` (the start's and each step's
/// after it, one more than the steps), `movers` and `turns` (before each
/// step: the seat to move and the turn's number), `out` (the seats that
/// went out, first out first). A bad start or step gives [`game_json`]'s
/// error.
pub fn history_json(start: &str, steps: &str) -> String {
    let game = match replay(start, steps) {
        Ok(g) => g,
        Err(e) => return e,
    };
    let ps = game.positions();
    let spns: Vec<String> = ps.iter().map(|p| quote(&p.to_spn())).collect();
    let before = &ps[..ps.len() - 1];
    let movers: Vec<String> = before
        .iter()
        .map(|p| format!("\"{}\"", p.side_to_move().letter()))
        .collect();
    let turns: Vec<String> = before.iter().map(|p| p.turn().to_string()).collect();
    let out: Vec<String> = game
        .eliminations()
        .iter()
        .map(|s| format!("\"{}\"", s.letter()))
        .collect();
    format!(
        "{{\"spns\":[{}],\"movers\":[{}],\"turns\":[{}],\"out\":[{}]}}",
        spns.join(","),
        movers.join(","),
        turns.join(","),
        out.join(",")
    )
}

/// The game from `start` after `steps`, or [`game_json`]'s error object.
pub(crate) fn replay(start: &str, steps: &str) -> Result<Game, String> {
    let start = start.trim();
    let position = match start {
        "2" | "3" | "4" | "" => {
            Position::start(start.parse().unwrap_or(2)).ok_or_else(|| "no such start".to_string())
        }
        spn => Position::from_spn(spn).map_err(|e| e.to_string()),
    };
    let mut game = match position {
        Ok(p) => Game::new(p),
        Err(e) => return Err(format!("{{\"error\":{},\"step\":null}}", quote(&e))),
    };
    for (i, text) in steps.split_whitespace().enumerate() {
        if let Err(e) = game.play_text(text) {
            return Err(format!(
                "{{\"error\":{},\"step\":{i}}}",
                quote(&e.to_string())
            ));
        }
    }
    Ok(game)
}

/// The JSON object of `game` ([`game_json`]).
fn describe(game: &Game) -> String {
    let pos = game.position();
    let letter = |s: Seat| format!("\"{}\"", s.letter());
    let seats: Vec<String> = pos.seats_in_game().map(letter).collect();
    let legal: Vec<String> = pos
        .legal_step_vec()
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect();
    let winner = pos.winner().map_or("null".to_string(), letter);
    let places: Vec<String> = places(game)
        .iter()
        .map(|(s, p)| format!("\"{}\":{p}", s.letter()))
        .collect();
    format!(
        "{{\"spn\":{},\"side\":{},\"turn\":{},\"stepsLeft\":{},\"seats\":[{}],\"over\":{},\"winner\":{},\"places\":{{{}}},\"legal\":[{}],\"steps\":{}}}",
        quote(&pos.to_spn()),
        letter(pos.side_to_move()),
        pos.turn(),
        pos.steps_left(),
        seats.join(","),
        pos.is_game_over(),
        winner,
        places.join(","),
        legal.join(","),
        game.steps().len()
    )
}

/// The places known in `game`, as the rules decide them
/// ([`Game::places`], [`splut_rules::Places::decided`]): the winner
/// first; a seat that went out during the game takes the last place not
/// taken (the first out of `k` seats is `k`th). Seats out before the
/// game's start have none.
fn places(game: &Game) -> Vec<(Seat, usize)> {
    game.places().decided().collect()
}

/// `text` as a JSON string.
fn quote(text: &str) -> String {
    let mut q = String::with_capacity(text.len() + 2);
    q.push('"');
    for c in text.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if (c as u32) < 0x20 => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_replayed_and_described() {
        let j = game_json("3", "e2e3");
        assert!(j.starts_with("{\"spn\":\""), "{j}");
        assert!(
            j.contains("\"side\":\"y\",\"turn\":2,\"stepsLeft\":2"),
            "{j}"
        );
        assert!(j.contains("\"seats\":[\"r\",\"y\",\"g\"]"), "{j}");
        assert!(
            j.contains("\"over\":false,\"winner\":null,\"places\":{}"),
            "{j}"
        );
        assert!(j.contains("\"steps\":1"), "{j}");
        let spn = Game::new(Position::start(3).unwrap()).position().to_spn();
        assert_eq!(game_json(&spn, ""), game_json("3", ""));
    }

    #[test]
    fn bad_starts_and_steps_say_why_and_where() {
        assert!(game_json("9", "").starts_with("{\"error\":"));
        assert!(game_json("nonsense", "").ends_with("\"step\":null}"));
        let j = game_json("2", "e2e3 e2e3");
        assert!(
            j.starts_with("{\"error\":\"") && j.ends_with("\"step\":1}"),
            "{j}"
        );
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }

    #[test]
    fn the_history_has_every_position_mover_and_turn() {
        let j = history_json("3", "e2e3 b5c5 b6c6");
        let start = Game::new(Position::start(3).unwrap()).position().to_spn();
        assert!(
            j.starts_with(&format!("{{\"spns\":[{}", quote(&start))),
            "{j}"
        );
        assert!(
            j.contains("\"movers\":[\"r\",\"y\",\"y\"],\"turns\":[1,2,2],\"out\":[]"),
            "{j}"
        );
        assert_eq!(j.matches("/R ").count(), 4, "{j}");
        assert!(history_json("3", "e2e3 zz").ends_with("\"step\":1}"));
    }

    #[test]
    fn places_follow_the_order_of_going_out() {
        // A 3-player game where green's sorcerer is crushed: green third.
        let mut game = Game::new(Position::start(3).unwrap());
        let mut seed = 5u64;
        while !game.position().is_game_over() {
            let legal = game.position().legal_step_vec();
            let k = (splut_rules::splitmix64(&mut seed) % legal.len() as u64) as usize;
            game.play(legal[k]).unwrap();
        }
        let p = places(&game);
        assert_eq!(p.len(), 3);
        assert_eq!(p[0], (game.position().winner().unwrap(), 1));
        assert_eq!(p[2].0, game.eliminations()[0]);
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        let j = game_json("3", &steps.join(" "));
        assert!(j.contains("\"over\":true"), "{j}");
        assert!(j.contains(&format!("\"{}\":3", p[2].0.letter())), "{j}");
    }
}
