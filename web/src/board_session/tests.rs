use super::*;
use crate::{Protocol, Status};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn ok(answer: &str) -> Value {
    let v: Value = serde_json::from_str(answer).unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert!(v.get("error").is_none(), "{answer}");
    v["ok"].clone()
}

fn refused(answer: &str) -> String {
    let v: Value = serde_json::from_str(answer).unwrap();
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("not refused: {answer}"))
        .to_string()
}

/// The host's part, as board-local.js does it: the session's commands
/// carried out on `engine` (a fresh one at `spawn`, whose handshake is
/// the session's), and the engine's lines read back.
fn carry_out(s: &mut BoardSession, engine: &mut Option<Protocol>, now: Duration) {
    loop {
        let commands = ok(&s.call("commands", "", "", now));
        if commands.as_array().unwrap().is_empty() {
            return;
        }
        carry_out_these(&commands, engine);
        read_engine(s, engine, now);
    }
}

/// The session's `commands` carried out on `engine`.
fn carry_out_these(commands: &Value, engine: &mut Option<Protocol>) {
    for c in commands.as_array().unwrap() {
        match c["do"].as_str().unwrap() {
            "spawn" => *engine = Some(Protocol::new()),
            "send" => {
                if let Some(e) = engine.as_mut() {
                    e.line(c["line"].as_str().unwrap());
                }
            }
            "quit" => *engine = None,
            other => panic!("{other}"),
        }
    }
}

/// The engine's lines so far, to the session.
fn read_engine(s: &mut BoardSession, engine: &mut Option<Protocol>, now: Duration) {
    if let Some(e) = engine.as_mut() {
        for line in e.take_output().lines() {
            s.call("engine_line", "", line, now);
        }
    }
}

fn state(s: &mut BoardSession, id: u64) -> Value {
    ok(&s.call("state", &id.to_string(), "", ms(0)))
}

const GAME: &str = r#"{"players": 2, "pace": "none", "seats": [
    {"engine": false}, {"engine": true, "algorithm": "alphabeta", "movetime": 5000}]}"#;

#[test]
fn a_take_back_during_the_search_drops_its_answer() {
    let mut s = BoardSession::new();
    let mut engine = None;
    let st = ok(&s.call("new_game", "", GAME, ms(0)));
    let id = st["id"].as_u64().unwrap();
    carry_out(&mut s, &mut engine, ms(0));
    ok(&s.call("step", &id.to_string(), r#"{"step": "e2e3"}"#, ms(10)));
    carry_out(&mut s, &mut engine, ms(10));
    // Green's search runs: some slices of it, its reports read.
    let e = engine.as_mut().unwrap();
    for _ in 0..5 {
        assert_eq!(e.resume(), Status::Thinking);
    }
    read_engine(&mut s, &mut engine, ms(20));
    assert_eq!(state(&mut s, id)["thinking"]["seat"], "g");
    // The person takes back: the search is stopped, and its answer,
    // which comes after, plays nothing.
    let back = ok(&s.call("takeback", &id.to_string(), "", ms(30)));
    assert_eq!(back["step_count"], 0);
    carry_out(&mut s, &mut engine, ms(30));
    let e = engine.as_mut().unwrap();
    while e.resume() == Status::Thinking {}
    read_engine(&mut s, &mut engine, ms(40));
    for t in [50, 500, 5000] {
        s.call("wake", "", "", ms(t));
        carry_out(&mut s, &mut engine, ms(t));
    }
    let st = state(&mut s, id);
    assert_eq!(st["step_count"], 0, "{st}");
    assert_eq!(st["side"], "r");
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(st["error"], Value::Null);
    // The game goes on: red's step, then green's whole turn.
    ok(&s.call("step", &id.to_string(), r#"{"step": "e2e3"}"#, ms(6000)));
    carry_out(&mut s, &mut engine, ms(6000));
    ok(&s.call("pace", &id.to_string(), r#"{"pace": "none"}"#, ms(6000)));
    let e = engine.as_mut().unwrap();
    e.line("stop");
    read_engine(&mut s, &mut engine, ms(6010));
    s.call("wake", "", "", ms(6020));
    carry_out(&mut s, &mut engine, ms(6020));
    let st = state(&mut s, id);
    assert!(st["step_count"].as_u64().unwrap() > 1, "{st}");
    assert_eq!(st["turns"][1]["seat"], "g", "{st}");
}

#[test]
fn requests_are_checked_as_splut_gui_checks_them() {
    let mut s = BoardSession::new();
    let config = ok(&s.call("config", "", "", ms(0)));
    assert!(
        config["algorithms"]
            .as_array()
            .unwrap()
            .contains(&json!("alphabeta"))
    );
    assert_eq!(config["levels"]["full_elo"], Value::Null);
    assert!(config["levels"]["elo"]["max"].is_number(), "{config}");
    assert_eq!(config["max_games"], 1);
    assert_eq!(
        refused(&s.call("new_game", "", "{", ms(0))).get(..9),
        Some("bad JSON:")
    );
    assert!(refused(&s.call("new_game", "", r#"{"players": 9}"#, ms(0))).contains("players"));
    let bad_algo =
        r#"{"players": 2, "seats": [{"engine": true, "algorithm": "x"}, {"engine": false}]}"#;
    assert_eq!(
        refused(&s.call("new_game", "", bad_algo, ms(0))),
        "seats: unknown algorithm"
    );
    let st = ok(&s.call(
        "new_game",
        "",
        r#"{"players": 2, "seats": [{"engine": false}, {"engine": false}]}"#,
        ms(0),
    ));
    let id = st["id"].as_u64().unwrap().to_string();
    assert_eq!(
        ok(&s.call("commands", "", "", ms(0))),
        json!([{ "do": "spawn" }, { "do": "send", "line": "ugi" }])
    );
    assert_eq!(
        refused(&s.call("step", &id, "{}", ms(0))).get(..9),
        Some("bad JSON:")
    );
    assert!(
        refused(&s.call("step", &id, r#"{"step": "e2e9"}"#, ms(0))).contains("not a legal step")
    );
    assert_eq!(
        refused(&s.call("takeback", &id, "", ms(0))),
        "nothing to take back"
    );
    assert!(refused(&s.call("state", "99", "", ms(0))).starts_with("no such game"));
    assert!(refused(&s.call("nonsense", &id, "", ms(0))).starts_with("no such API route"));
    assert_eq!(
        ok(&s.call("step", &id, r#"{"step": "e2e3"}"#, ms(0)))["step_count"],
        1
    );
    let positions = ok(&s.call("positions", &id, "", ms(0)));
    assert_eq!(positions["spns"].as_array().unwrap().len(), 2);
    assert_eq!(positions["boards"][1]["spn"], positions["spns"][1]);
    assert_eq!(positions["boards"][1]["pieces"]["e3"], "rD");
    // The preview, as splut gui answers it.
    let two = ok(&s.call("preview", "", r#"{"players": "2"}"#, ms(0)));
    assert_eq!(two["seats"], json!(["r", "g"]));
    assert_eq!(two["board"]["spn"], two["spn"]);
    let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
    let p = ok(&s.call("preview", "", &json!({ "spn": spn }).to_string(), ms(0)));
    assert_eq!(p["board"]["pieces"]["f3"], "R");
    assert!(refused(&s.call("preview", "", r#"{"spn": "junk"}"#, ms(0))).starts_with("bad SPN"));
    assert_eq!(
        refused(&s.call("preview", "", r#"{"players": "9"}"#, ms(0))),
        "players: expected 2, 3 or 4"
    );
    assert!(
        ok(&s.call("record", &id, "", ms(0)))
            .as_str()
            .unwrap()
            .contains("[Seats "),
    );
    assert_eq!(
        ok(&s.call("close", &id, "", ms(0))),
        json!({ "closed": true })
    );
    assert_eq!(
        ok(&s.call("commands", "", "", ms(0))),
        json!([{ "do": "quit" }])
    );
    assert!(refused(&s.call("state", &id, "", ms(0))).starts_with("no such game"));
    assert_eq!(ok(&s.call("version", "", "", ms(0))), Value::Null);
}

/// The page's part in an analysis, as board-local.js does it: `start`'s
/// answer (`hint` or `review`), then the analysis's lines to `analyst`
/// and its lines back, until it answers; the answer (or the refusal).
fn analyse(s: &mut BoardSession, analyst: &mut Protocol, start: String) -> Result<Value, String> {
    let mut answer: Value = serde_json::from_str(&start).unwrap();
    loop {
        if let Some(e) = answer.get("error") {
            return Err(e.as_str().unwrap().to_string());
        }
        let a = &answer["ok"];
        if a["done"] == true {
            return Ok(a["answer"].clone());
        }
        for line in a["commands"].as_array().unwrap() {
            analyst.line(line.as_str().unwrap());
        }
        while analyst.resume() == Status::Thinking {}
        let lines = analyst.take_output();
        assert!(!lines.is_empty(), "the analyst said nothing");
        for line in lines.lines() {
            answer = serde_json::from_str(&s.call("analysis_line", "", line, ms(0))).unwrap();
            if answer.get("error").is_some() || answer["ok"]["done"] == true {
                break;
            }
        }
    }
}

#[test]
fn hints_and_reviews_are_the_boards_analysis_carried_to_an_analyst() {
    let mut s = BoardSession::new();
    let two_people = r#"{"players": 2, "seats": [{"engine": false}, {"engine": false}]}"#;
    let id = ok(&s.call("new_game", "", two_people, ms(0)))["id"].to_string();
    s.call("commands", "", "", ms(0));
    for step in ["e2e3", "e8e7", "f8f7"] {
        ok(&s.call("step", &id, &format!(r#"{{"step": "{step}"}}"#), ms(0)));
    }
    // One analyst worker, kept between analyses: the first analysis does
    // its handshake.
    let mut analyst = Protocol::new();
    let body = r#"{"movetime": 20}"#;
    let start = s.call("hint", &id, body, ms(0));
    let first = ok(&start);
    assert_eq!(first["done"], false);
    assert_eq!(first["commands"], json!(["ugi"]));
    let hint = analyse(&mut s, &mut analyst, start).unwrap();
    assert_eq!(hint["step_count"], 3);
    assert_eq!(hint["seat"], "r");
    assert_eq!(hint["steps"].as_array().unwrap().len(), 3, "{hint}");
    assert_eq!(hint["marks"].as_array().unwrap().len(), 3, "{hint}");
    assert!(hint["score"].is_string(), "{hint}");
    let sum: f64 = ["r", "g"]
        .iter()
        .map(|c| hint["winprob"][c].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 0.01, "{hint}");
    let start = s.call("review", &id, body, ms(0));
    assert!(
        ok(&start)["commands"][0]
            .as_str()
            .unwrap()
            .starts_with("position spn"),
        "the analyst kept is ready: {start}"
    );
    let review = analyse(&mut s, &mut analyst, start).unwrap();
    assert_eq!(review["movetime"], 20);
    assert_eq!(review["turns"].as_array().unwrap().len(), 2, "{review}");
    assert_eq!(review["turns"][1]["seat"], "g");
    // Refused as `splut gui` refuses; a failed analyst fails it.
    assert_eq!(
        refused(&s.call("hint", &id, r#"{"movetime": 1}"#, ms(0))),
        "movetime must be 10 to 10000 ms"
    );
    assert!(refused(&s.call("review", "99", "", ms(0))).starts_with("no such game"));
    ok(&s.call("hint", &id, "", ms(0)));
    let line = "info string error: the engine could not load: no wasm";
    assert_eq!(
        refused(&s.call("analysis_line", "", line, ms(0))),
        "the engine failed the hint: the engine could not load: no wasm"
    );
    // The failed analyst is ended: the next is a fresh one.
    let review = ok(&s.call("review", &id, "", ms(0)));
    assert_eq!(review["commands"], json!(["ugi"]));
    assert_eq!(
        refused(&s.call("analysis_gone", "", "the worker failed", ms(0))),
        "the engine failed the review: the worker failed"
    );
    // None under way: lines are dropped.
    let idle = ok(&s.call("analysis_line", "", "bestmove e2e3", ms(0)));
    assert_eq!(idle, json!({ "commands": [], "done": false }));
}

#[test]
fn a_clock_runs_out_on_the_static_board_too() {
    let mut s = BoardSession::new();
    let mut engine = None;
    let body = r#"{"players": 2, "pace": "none", "clock": {"base": 10, "increment": 1},
        "seats": [{"engine": false, "movetime": 50},
                  {"engine": true, "algorithm": "alphabeta", "movetime": 50}]}"#;
    let st = ok(&s.call("new_game", "", body, ms(0)));
    let id = st["id"].as_u64().unwrap();
    assert_eq!(st["clock"]["running"], "r", "{st}");
    carry_out(&mut s, &mut engine, ms(0));
    assert_eq!(ok(&s.call("wake_at", "", "", ms(0))), 10_000);
    assert_eq!(
        ok(&s.call("state", &id.to_string(), "", ms(4_000)))["clock"]["left"]["r"],
        6_000
    );
    // Red lets its clock run out: the engine plays its turn.
    s.call("wake", "", "", ms(10_000));
    carry_out(&mut s, &mut engine, ms(10_000));
    // (Its search may be done already: the engine answers in slices.)
    let e = engine.as_mut().unwrap();
    while e.resume() == Status::Thinking {}
    read_engine(&mut s, &mut engine, ms(10_100));
    carry_out(&mut s, &mut engine, ms(10_100));
    let st = state(&mut s, id);
    assert_eq!(st["seats"][0]["stood_in"], json!([1]), "{st}");
    assert_eq!(st["seats"][0]["clock"]["left"], 1_000, "{st}");
    let record = ok(&s.call("record", &id.to_string(), "", ms(10_200)));
    assert!(
        record.as_str().unwrap().contains("person=clock=10000+1000"),
        "{record}"
    );
}

#[test]
fn the_host_ends_the_engines_game_here_and_a_reload_ends_it_again() {
    let mut s = BoardSession::new();
    let engines = r#"{"players": 2, "pace": "step", "seats": [
        {"engine": true, "movetime": 50}, {"engine": true, "movetime": 50}]}"#;
    let id = ok(&s.call("new_game", "", engines, ms(0)))["id"]
        .as_u64()
        .unwrap();
    let st = ok(&s.call("end", &id.to_string(), "", ms(10)));
    assert_eq!(
        (st["gameover"].clone(), st["ended_here"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(st["drawn"], "turn limit 0");
    let record = ok(&s.call("record", &id.to_string(), "", ms(20)));
    assert!(
        record.as_str().unwrap().contains("[Reason turn limit 0]"),
        "{record}"
    );
    // The page's kept game, taken up again after a reload.
    let kept = r#"{"players": 2, "pace": "step", "ended": true, "seats": [
        {"engine": true, "movetime": 50}, {"engine": true, "movetime": 50}]}"#;
    let st = ok(&s.call("new_game", "", kept, ms(30)));
    assert_eq!(
        (st["gameover"].clone(), st["ended_here"].clone()),
        (json!(true), json!(true))
    );
    // Not while a person plays.
    let id = ok(&s.call("new_game", "", GAME, ms(40)))["id"]
        .as_u64()
        .unwrap();
    assert!(refused(&s.call("end", &id.to_string(), "", ms(50))).contains("person"));
}
