//! What the board shows about a game, for the web board without a server:
//! `splut gui`'s threats, step marks and review judgement (the crate
//! `splut-board`), answered in the same JSON as its API.

use splut_board::events::{step_event, turn_events};
use splut_board::marks::step_marks;
use splut_board::review::{Evaluation, judge};
use splut_board::threats::{seat_named, threats};
use splut_rules::{Game, Position, Seat, StepText};

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

/// How `steps` (step texts separated by spaces) are drawn, played one
/// after another from the position `spn`.
pub fn marks_json(spn: &str, steps: &str) -> String {
    let pos = match Position::from_spn(spn.trim()) {
        Ok(p) => p,
        Err(e) => return error(&format!("bad SPN: {e}")),
    };
    // A step that does not read ends the list, as one not legal does.
    let steps: Vec<StepText> = steps
        .split_whitespace()
        .map_while(|s| StepText::parse(s).ok())
        .collect();
    serde_json::to_string(&step_marks(&pos, &steps)).unwrap_or_else(|e| error(&e.to_string()))
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

/// A review's turns (`POST /api/games/<id>/review`'s `turns`): the input
/// is `{"start": SPN, "steps": [...], "evals": [{"score", "winprob":
/// {"r": p, …}, "best": [...]}, …]}`, the engine's views at each turn's
/// start and after the last step.
pub fn review_json(input: &str) -> String {
    let v: serde_json::Value = match serde_json::from_str(input) {
        Ok(v) => v,
        Err(e) => return error(&format!("bad JSON: {e}")),
    };
    let start = match Position::from_spn(v["start"].as_str().unwrap_or("")) {
        Ok(p) => p,
        Err(e) => return error(&format!("bad SPN: {e}")),
    };
    let mut game = Game::new(start);
    for s in v["steps"].as_array().into_iter().flatten() {
        if let Err(e) = game.play_text(s.as_str().unwrap_or("")) {
            return error(&format!("steps: {e}"));
        }
    }
    let evals: Vec<Evaluation> = v["evals"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| Evaluation {
            score: e["score"].as_str().map(String::from),
            winprob: e["winprob"]
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, p)| Some((Seat::from_letter(k.chars().next()?)?, p.as_f64()?)))
                .collect(),
            best: e["best"]
                .as_array()
                .into_iter()
                .flatten()
                .map_while(|s| StepText::parse(s.as_str()?).ok())
                .collect(),
        })
        .collect();
    if evals.len() != game.turns().len() + 1 {
        return error("evals: one per turn and one after the last");
    }
    serde_json::to_string(&judge(&game, &evals)).unwrap_or_else(|e| error(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threats_marks_and_a_review_answer_as_the_server_does() {
        let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
        let t = threats_json(spn, "r");
        assert!(t.starts_with("{\"seat\":\"r\",\"threats\":["), "{t}");
        assert!(threats_json(spn, "x").contains("error"));
        assert!(threats_json("nonsense", "r").contains("bad SPN"));
        let m = marks_json(spn, "d2d3@f3 f2f3 f3f4*n");
        assert!(m.contains("\"flight\":[\"f5\""), "{m}");
        let review = serde_json::json!({
            "start": Position::start(2).unwrap().to_spn(),
            "steps": ["e2e3"],
            "evals": [
                { "score": "cp 0", "winprob": { "r": 0.5, "g": 0.5 }, "best": ["d2d3"] },
                { "score": "cp 0", "winprob": { "r": 0.2, "g": 0.8 }, "best": [] },
            ],
        });
        let r: serde_json::Value = serde_json::from_str(&review_json(&review.to_string())).unwrap();
        assert_eq!(r[0]["mark"], "blunder");
        assert_eq!(r[0]["winprob_after"]["g"], 0.8);
        assert!(review_json("{}").contains("error"));
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
