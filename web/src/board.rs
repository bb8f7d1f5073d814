//! What the board shows about a game, for the web board without a server:
//! `splut gui`'s threats and step events (the crate `splut-board`),
//! answered in the same JSON as its API. Hints and reviews are the
//! board's analysis machine, in [`crate::board_session`].

use splut_board::events::{step_event, turn_events};
use splut_board::threats::{seat_named, threats};
use splut_rules::Position;

fn error(e: &str) -> String {
    serde_json::json!({ "error": e }).to_string()
}

/// `GET /api/threats?spn=…&seat=…`'s answer: the threats against `seat`
/// (a letter; none, the side to move) and its kills at hand in the
/// position `spn`.
pub fn threats_json(spn: &str, seat: &str) -> String {
    let pos = match Position::from_spn(spn.trim()) {
        Ok(p) => p,
        Err(e) => return error(&format!("bad SPN: {e}")),
    };
    let named = Some(seat.trim()).filter(|s| !s.is_empty());
    let seat = match seat_named(named, &pos) {
        Ok(s) => s,
        Err(e) => return error(&e),
    };
    match threats(&pos, seat) {
        Ok(t) => serde_json::to_string(&t).unwrap_or_else(|e| error(&e.to_string())),
        Err(e) => error(&e),
    }
}

/// The events of the game from `start` (`2`, `3`, `4` or an SPN) after
/// `steps` (step texts separated by spaces), for the state the page
/// reads, as `splut gui`'s session gives them: `{"turns": [[event, …],
/// …], "legal": [event, …]}`, each turn's steps' events
/// ([`splut_board::events`]) and those of the side to move's legal steps.
/// A bad start or step gives the rules' error ([`crate::rules::game_json`]).
pub fn events_json(start: &str, steps: &str) -> String {
    let game = match crate::rules::replay(start, steps) {
        Ok(g) => g,
        Err(e) => return e,
    };
    let pos = game.position();
    let legal: Vec<_> = pos
        .legal_step_vec()
        .into_iter()
        .filter_map(|s| step_event(pos, s))
        .collect();
    serde_json::json!({ "turns": turn_events(&game), "legal": legal }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::Game;

    #[test]
    fn threats_answer_as_the_server_does() {
        let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
        let t = threats_json(spn, "r");
        assert!(t.starts_with("{\"seat\":\"r\",\"threats\":["), "{t}");
        assert!(threats_json(spn, "x").contains("error"));
        assert!(threats_json("nonsense", "r").contains("bad SPN"));
    }

    #[test]
    fn events_answer_each_turn_and_each_legal_step() {
        let e: serde_json::Value = serde_json::from_str(&events_json("2", "e2e3 e8e7")).unwrap();
        assert_eq!(e["turns"][0][0]["step"], "e2e3");
        assert_eq!(e["turns"][1][0]["seat"], "g");
        let legal = Game::new(Position::start(2).unwrap())
            .position()
            .legal_step_count();
        let start: serde_json::Value = serde_json::from_str(&events_json("2", "")).unwrap();
        assert_eq!(
            start["legal"].as_array().map(Vec::len),
            Some(legal as usize)
        );
        assert!(events_json("2", "e2e3 zz").contains("error"));
        assert!(events_json("nonsense", "").contains("error"));
    }
}
