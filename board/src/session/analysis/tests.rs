//! The analysis machine against a scripted analyst: its lines out, the
//! events a host's reader makes of the analyst's lines in.

use super::*;
use crate::session::InfoView;
use serde_json::json;

const START: &str = "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -";

/// A 2-player game after `steps`.
fn game(steps: &str) -> Game {
    let mut g = Game::new(Position::start(2).unwrap());
    if !steps.is_empty() {
        g.play_all(steps).unwrap();
    }
    g
}

/// A finished game: red kills green's sorcerer.
fn finished() -> Game {
    let start = Position::from_spn("R/gTgD1/5/3gS3/R7R/3R3/2rT2/rSrD1/1 r 3 10 - - -").unwrap();
    let mut g = Game::new(start);
    g.play_all("e3e4*n").unwrap();
    g
}

/// An `info` line as a reader gives it: its score, and red's chance.
fn info(score: &str, red: f64) -> EngineEvent {
    let view = InfoView {
        depth: Some(3),
        score: Some(score.into()),
        ..InfoView::default()
    };
    EngineEvent::Info(view, Some(vec![(Seat::Red, red), (Seat::Green, 1.0 - red)]))
}

fn answer(steps: &[&str]) -> EngineEvent {
    EngineEvent::Answer(Ok(steps.iter().map(|s| s.to_string()).collect()))
}

/// The lines of the commands for the analyst now.
fn lines(a: &mut Analysis) -> Vec<String> {
    a.commands().iter().map(|c| c.to_string()).collect()
}

fn ok(a: &Analysis) -> Value {
    match a.outcome() {
        Some(Ok(v)) => v.clone(),
        other => panic!("not answered: {other:?}"),
    }
}

#[test]
fn a_hint_asks_once_and_answers_as_the_page_reads_it() {
    let g = game("e2e3");
    let mut a = Analysis::new(Kind::Hint, &g, "", true).unwrap();
    assert_eq!(a.movetime(), HINT_MS);
    // A fresh analyst: its handshake first, the search after `readyok`.
    assert_eq!(lines(&mut a), ["ugi"]);
    a.engine_line("option name UCI_ShowWinProb type check default false");
    a.engine_line("ugiok");
    assert_eq!(
        lines(&mut a),
        ["setoption name UCI_ShowWinProb value true", "isready"]
    );
    assert!(!a.handshaken());
    a.engine_line("readyok");
    assert!(a.handshaken());
    assert_eq!(
        lines(&mut a),
        [
            format!("position spn {START} moves e2e3"),
            format!("go movetime {HINT_MS}"),
        ]
    );
    assert_eq!(a.searched(), Some(g.position()));
    // A report without a score leaves the last scored one.
    a.engine_event(info("cp -20", 0.45));
    a.engine_event(EngineEvent::Info(InfoView::default(), None));
    assert!(!a.done());
    a.engine_event(answer(&["e8e7", "f8f7"]));
    assert!(lines(&mut a).is_empty());
    assert_eq!(a.searched(), None);
    let v = ok(&a);
    assert_eq!(v["step_count"], 1);
    assert_eq!(v["seat"], "g");
    assert_eq!(v["steps"], json!(["e8e7", "f8f7"]));
    assert_eq!(v["score"], "cp -20");
    assert_eq!(v["winprob"], json!({"r": 0.45, "g": 0.55}));
    assert_eq!(v["marks"].as_array().unwrap().len(), 2);
    // Later events change nothing.
    a.engine_event(answer(&["d8d7"]));
    assert_eq!(ok(&a), v);
}

#[test]
fn a_hint_without_a_score_or_a_step_still_answers() {
    let mut a = Analysis::new(Kind::Hint, &game(""), r#"{"movetime": 30}"#, false).unwrap();
    assert_eq!(
        lines(&mut a),
        [format!("position spn {START}"), "go movetime 30".into()]
    );
    a.engine_event(EngineEvent::Answer(Err(Forfeit::NoStep)));
    let v = ok(&a);
    assert_eq!(v["steps"], json!([]));
    assert_eq!(v["score"], Value::Null);
    assert_eq!(v["winprob"], json!({"r": 0.0, "g": 0.0}));
}

#[test]
fn refusals_come_before_any_engine() {
    let g = game("");
    for (body, want) in [
        (r#"{"movetime": 5}"#, "movetime must be 10 to 10000 ms"),
        (r#"{"movetime": 20000}"#, "movetime must be 10 to 10000 ms"),
    ] {
        for kind in [Kind::Hint, Kind::Review] {
            let e = Analysis::new(kind, &g, body, true).unwrap_err();
            assert_eq!(e, Refusal::BadInput(want.into()), "{body}");
        }
    }
    let e = Analysis::new(Kind::Review, &g, r#"{"turns": 3}"#, true).unwrap_err();
    assert!(matches!(e, Refusal::BadRequest(_)), "{e:?}");
    let e = Analysis::new(Kind::Hint, &finished(), "", true).unwrap_err();
    assert_eq!(e, Refusal::GameOver);
    assert_eq!(Kind::named("review"), Some(Kind::Review));
    assert_eq!(Kind::named("step"), None);
}

#[test]
fn a_review_evaluates_every_turn_and_judges_it() {
    let g = game("e2e3 e8e7 f8f7 e3e4 d2d3 f2f3");
    let mut a = Analysis::new(Kind::Review, &g, r#"{"movetime": 20}"#, false).unwrap();
    // Before each of the 3 turns, and after the last: one search at a time.
    let moves = [
        "",
        " moves e2e3",
        " moves e2e3 e8e7 f8f7",
        " moves e2e3 e8e7 f8f7 e3e4 d2d3 f2f3",
    ];
    let red = [0.5, 0.5, 0.45, 0.2];
    let best: [&[&str]; 4] = [&["e2e3"], &["d8d7", "d7d6"], &["e3e4"], &["e7e6"]];
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(
            lines(&mut a),
            [format!("position spn {START}{m}"), "go movetime 20".into()],
            "{i}"
        );
        assert_eq!(a.searched(), Some(&g.positions()[[0, 1, 3, 6][i]]));
        a.engine_event(info("cp 0", red[i]));
        assert!(!a.done());
        a.engine_event(answer(best[i]));
    }
    assert!(lines(&mut a).is_empty());
    let v = ok(&a);
    assert_eq!(v["movetime"], 20);
    assert_eq!(v["mistake"], MISTAKE_DROP);
    assert_eq!(v["blunder"], BLUNDER_DROP);
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3);
    // Red's first turn was the engine's own: no mark.
    assert_eq!(turns[0]["steps"], json!(["e2e3"]));
    assert_eq!(turns[0]["mark"], Value::Null);
    // Green's gained; red's last lost 0.25 of its chance: a blunder.
    assert_eq!(turns[1]["mark"], Value::Null);
    assert_eq!(turns[2]["seat"], "r");
    assert_eq!(turns[2]["first_step"], 3);
    assert_eq!(turns[2]["mark"], "blunder");
    assert_eq!(turns[2]["best"], json!(["e3e4"]));
    assert_eq!(turns[2]["winprob_after"], json!({"r": 0.2, "g": 0.8}));
}

#[test]
fn a_finished_game_needs_no_engine_for_its_end() {
    let g = finished();
    let mut a = Analysis::new(Kind::Review, &g, "", false).unwrap();
    let spn = g.start().to_spn();
    assert_eq!(
        lines(&mut a),
        [
            format!("position spn {spn}"),
            format!("go movetime {REVIEW_MS}")
        ]
    );
    a.engine_event(info("win 1", 0.9));
    a.engine_event(answer(&["e3e4*n"]));
    // The end, decided: red won, with no second search.
    assert!(lines(&mut a).is_empty());
    let v = ok(&a);
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0]["winprob_after"], json!({"r": 1.0, "g": 0.0}));
    assert_eq!(turns[0]["mark"], Value::Null);
}

#[test]
fn a_failing_analyst_fails_the_analysis() {
    let g = game("e2e3 e8e7 f8f7");
    let failed = |a: &Analysis| match a.outcome() {
        Some(Err(Refusal::EngineFailed(m))) => m.clone(),
        other => panic!("{other:?}"),
    };
    let mut a = Analysis::new(Kind::Review, &g, "", true).unwrap();
    lines(&mut a);
    a.engine_event(answer(&["e2e3"]));
    a.engine_gone("the engine exited");
    assert_eq!(
        failed(&a),
        "the engine failed the review: the engine exited"
    );
    assert!(lines(&mut a).is_empty());
    assert_eq!(a.searched(), None);
    let mut a = Analysis::new(Kind::Hint, &g, "", true).unwrap();
    a.engine_event(EngineEvent::Refused("the engine could not load: x".into()));
    assert_eq!(
        failed(&a),
        "the engine failed the hint: the engine could not load: x"
    );
    let mut a = Analysis::new(Kind::Hint, &g, "", true).unwrap();
    a.engine_event(EngineEvent::Answer(Err(Forfeit::IllegalStep {
        text: "zz".into(),
        why: "no".into(),
    })));
    assert!(failed(&a).starts_with("the engine failed the hint: "));
    assert_eq!(a.limit(), Duration::from_millis(HINT_MS) + HUNG_AFTER);
}

#[test]
fn an_analyst_that_refuses_its_handshake_fails_the_analysis() {
    let mut a = Analysis::new(Kind::Hint, &game(""), "", true).unwrap();
    assert_eq!(lines(&mut a), ["ugi"]);
    a.engine_line("ugiok");
    assert_eq!(lines(&mut a), ["isready"]);
    a.engine_line("info string error: not today");
    assert!(lines(&mut a).is_empty());
    assert_eq!(
        a.outcome(),
        Some(&Err(Refusal::EngineFailed(
            "the engine failed the hint: it refused its handshake: not today".into()
        )))
    );
    assert!(!a.handshaken());
}
