//! The web board's analysis through its HTTP API: threats, positions,
//! hints, reviews, games loaded from records or steps, and levels.

use crate::support::gui::*;
use serde_json::{Value, json};
use splut_rules::{Position, Seat};
use std::time::Duration;

/// Red to move (3 steps): its troll on f2 throws the rock on f3 north at
/// green's sorcerer on f8 (`f2f3*n`).
const THROW_SPN: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

fn persons(gui: &Gui, body: Value) -> u64 {
    let mut body = body;
    body["seats"] = json!([{"engine": false}, {"engine": false}]);
    gui.new_game(body)["id"].as_u64().unwrap()
}

/// Plays `steps` from `spn`.
fn replay(spn: &str, steps: &[Value]) -> Position {
    let mut p = Position::from_spn(spn).unwrap();
    for s in steps {
        p.play(p.parse_step(s.as_str().unwrap()).unwrap());
    }
    p
}

#[test]
fn threats_and_kills_at_hand_are_served_for_any_position() {
    let gui = Gui::start(&[]);
    let q = |spn: &str, seat: &str| {
        let spn = spn.replace('/', "%2F").replace(' ', "+");
        gui.get(&format!("/api/threats?spn={spn}&seat={seat}"))
    };
    let red = q(THROW_SPN, "r");
    assert_eq!(red.status, 200, "{}", red.body);
    let red = red.json();
    assert_eq!(red["now"], true);
    let kill = red["kills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["steps"] == json!(["f2f3*n"]))
        .expect("the kill at hand");
    assert_eq!(kill["troll"], "f2");
    assert_eq!(kill["rock"], "f3");
    assert_eq!(kill["flight"], json!(["f4", "f5", "f6", "f7", "f8"]));
    // Each kill listed kills green when played.
    for k in red["kills"].as_array().unwrap() {
        assert!(!replay(THROW_SPN, k["steps"].as_array().unwrap()).in_game(Seat::Green));
    }
    // Seen from green: red's throw is a threat; the start has none.
    let green = q(THROW_SPN, "g").json();
    assert!(
        green["threats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["steps"] == json!(["f2f3*n"]) && k["attacker"] == "r")
    );
    let start = q(START2, "r").json();
    assert_eq!(
        (start["threats"].clone(), start["kills"].clone()),
        (json!([]), json!([]))
    );
    // Bad requests are refused plainly.
    for (path, want) in [
        ("/api/threats".to_string(), 400),
        ("/api/threats?spn=junk&seat=r".to_string(), 422),
        (
            "/api/threats?spn=R%2FgTgDgS%2F5%2F7%2FR7R%2F7%2F5%2FrSrDrT%2FR+r+1+1+-+-+-&seat=x"
                .into(),
            422,
        ),
        (
            "/api/threats?spn=R%2FgTgDgS%2F5%2F7%2FR7R%2F7%2F5%2FrSrDrT%2FR+r+1+1+-+-+-&seat=b"
                .into(),
            422,
        ),
        ("/api/threats?spn=a&cmd=1".into(), 400),
    ] {
        let r = gui.get(&path);
        assert_eq!(r.status, want, "{path}: {}", r.body);
        assert!(r.json()["error"].is_string());
    }
}

const START2: &str = "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -";

#[test]
fn a_hint_is_the_engines_turn_and_plays_nothing() {
    let gui = Gui::start(&[]);
    let id = persons(&gui, json!({ "spn": THROW_SPN }));
    let before = gui.state(id);
    let r = gui.post(&format!("/api/games/{id}/hint"), r#"{"movetime": 100}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let h = r.json();
    assert_eq!(h["seat"], "r");
    assert_eq!(h["step_count"], 0);
    // The engine's turn kills green: a throw, drawn with its flight.
    let steps = h["steps"].as_array().unwrap();
    assert!(!replay(THROW_SPN, steps).in_game(Seat::Green), "{h}");
    let marks = h["marks"].as_array().unwrap();
    assert_eq!(marks.len(), steps.len());
    assert_eq!(
        marks.last().unwrap()["flight"]
            .as_array()
            .unwrap()
            .last()
            .unwrap(),
        "f8"
    );
    assert!(
        (h["winprob"]["r"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "{h}"
    );
    // Nothing was played, and the hint's engine is gone.
    let after = gui.state(id);
    assert_eq!(after["step_count"], 0);
    assert_eq!(after["spn"], before["spn"]);
    // The game's engine is in the server's process: no process is left.
    gui.wait_engines(0, Duration::from_secs(5));
    // Bad bodies are refused.
    for (body, want) in [
        (r#"{"movetime": 0}"#, 422),
        (r#"{"ms": 5}"#, 400),
        ("x", 400),
    ] {
        let r = gui.post(&format!("/api/games/{id}/hint"), body);
        assert_eq!(r.status, want, "{body}: {}", r.body);
    }
    // No hint in a finished game.
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"f2f3*n"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = gui.post(&format!("/api/games/{id}/hint"), "");
    assert_eq!(r.status, 409, "{}", r.body);
}

#[test]
fn a_review_marks_the_blunder_and_gives_the_better_turn() {
    let gui = Gui::start(&[]);
    // Red steps its sorcerer into its own line of fire and throws: it
    // kills itself where it could have killed green.
    let id = persons(&gui, json!({ "spn": THROW_SPN, "moves": "d2d3 f2f3*w" }));
    let st = gui.state(id);
    assert_eq!(st["gameover"], true);
    assert_eq!(st["winner"], "g");
    let r = gui.post(&format!("/api/games/{id}/review"), r#"{"movetime": 100}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let review = r.json();
    let turns = review["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 1);
    let t = &turns[0];
    assert_eq!(t["seat"], "r");
    assert_eq!(t["steps"], json!(["d2d3", "f2f3*w"]));
    assert_eq!(t["first_step"], 0);
    assert_eq!(t["after"], 0.0);
    assert!(t["before"].as_f64().unwrap() > 0.9, "{t}");
    assert_eq!(t["mark"], "blunder");
    let best = t["best"].as_array().unwrap();
    assert!(!replay(THROW_SPN, best).in_game(Seat::Green), "{t}");
    assert_eq!(t["best_marks"].as_array().unwrap().len(), best.len());

    // A longer game: every turn reviewed, each drop its before less its
    // after, marked by the thresholds the config gives.
    let config = gui.get("/api/config").json();
    let (mistake, blunder) = (
        config["review"]["mistake"].as_f64().unwrap(),
        config["review"]["blunder"].as_f64().unwrap(),
    );
    let id = persons(
        &gui,
        json!({ "players": 2, "moves": "e2e3 e8e7 f8f7 e3e4 d2d3 f2f3" }),
    );
    let review = gui
        .post(&format!("/api/games/{id}/review"), r#"{"movetime": 20}"#)
        .json();
    let turns = review["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3);
    assert_eq!(
        turns
            .iter()
            .map(|t| t["first_step"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [0, 1, 3]
    );
    for t in turns {
        let (b, a, d) = (
            t["before"].as_f64().unwrap(),
            t["after"].as_f64().unwrap(),
            t["drop"].as_f64().unwrap(),
        );
        assert!((0.0..=1.0).contains(&b) && (0.0..=1.0).contains(&a), "{t}");
        assert!((b - a - d).abs() < 1e-9, "{t}");
        let want = if t["steps"] == t["best"] {
            Value::Null
        } else if d >= blunder {
            json!("blunder")
        } else if d >= mistake {
            json!("mistake")
        } else {
            Value::Null
        };
        assert_eq!(t["mark"], want, "{t}");
    }
    // Every position of the game, for browsing.
    let spns = gui.get(&format!("/api/games/{id}/positions")).json()["spns"].clone();
    let spns = spns.as_array().unwrap();
    assert_eq!(spns.len(), 7);
    assert_eq!(spns[0], START2);
    assert_eq!(spns[6], gui.state(id)["spn"]);
    assert_eq!(spns[1], replay(START2, &[json!("e2e3")]).to_spn());
    let r = gui.post(&format!("/api/games/{id}/review"), r#"{"movetime": 99999}"#);
    assert_eq!(r.status, 422, "{}", r.body);
}

/// Recorded 3- and 4-player games (`splut tournament`, nodes=3000) in
/// which a throw kills a sorcerer while three or four seats are left.
const KILL_GAMES: [(&str, &str); 2] = [
    ("3 players", include_str!("../data/review-3p-kill.games")),
    ("4 players", include_str!("../data/review-4p-kill.games")),
];

#[test]
fn a_review_of_3_and_4_player_games_with_kills_is_on_one_scale() {
    let gui = Gui::start(&[]);
    for (what, record) in KILL_GAMES {
        let r = gui.post("/api/games", &json!({ "record": record }).to_string());
        assert_eq!(r.status, 201, "{what}: {}", r.body);
        let id = r.json()["id"].as_u64().unwrap();
        let st = gui.state(id);
        let start = Position::from_spn(st["start"].as_str().unwrap()).unwrap();
        let r = gui.post(&format!("/api/games/{id}/review"), r#"{"movetime": 50}"#);
        assert_eq!(r.status, 200, "{what}: {}", r.body);
        let review = r.json();
        let turns = review["turns"].as_array().unwrap();
        assert_eq!(turns.len(), st["turns"].as_array().unwrap().len(), "{what}");
        let mut game = splut_rules::Game::new(start);
        // The places the page shows are the rules' (Game::places): every
        // seat out, and the winner of a finished game.
        let mut whole = game.clone();
        for t in st["turns"].as_array().unwrap() {
            for s in t["steps"].as_array().unwrap() {
                whole.play_text(s.as_str().unwrap()).unwrap();
            }
        }
        let places: serde_json::Map<String, Value> = whole
            .places()
            .decided()
            .map(|(seat, place)| (seat.to_string(), json!(place)))
            .collect();
        assert!(!places.is_empty(), "{what}: a seat went out");
        assert_eq!(st["places"], Value::Object(places), "{what}");
        let mut kills = 0;
        for t in turns {
            let (before, after) = (t["before"].as_f64().unwrap(), t["after"].as_f64().unwrap());
            assert!(
                (0.0..=1.0).contains(&before) && (0.0..=1.0).contains(&after),
                "{what}: {t}"
            );
            // The engine's own choice is never a mistake.
            if t["steps"] == t["best"] {
                assert_eq!(t["mark"], Value::Null, "{what}: {t}");
            }
            let seats_before = game.position().seats_in_game().count();
            let mover = game.position().side_to_move();
            for s in t["steps"].as_array().unwrap() {
                game.play_text(s.as_str().unwrap()).unwrap();
            }
            let seats_after = game.position().seats_in_game().count();
            // A throw that kills an opponent while 3 or 4 seats are left
            // (the thrower alive) is no drop of the thrower's score.
            if seats_after < seats_before && seats_before >= 3 && game.position().in_game(mover) {
                kills += 1;
                assert_eq!(
                    t["mark"],
                    Value::Null,
                    "{what}: the kill judged a mistake: {t}"
                );
                assert!(after >= before - 0.1, "{what}: {t}");
            }
        }
        assert!(kills >= 1, "{what}: no kill with 3 or more seats left");
    }
}

#[test]
fn a_game_loads_from_a_record_or_steps() {
    let gui = Gui::start(&[]);
    let id = persons(&gui, json!({ "players": 2, "moves": "e2e3 e8e7 f8f7" }));
    let record = gui.get(&format!("/api/games/{id}/record")).body;
    let r = gui.post("/api/games", &json!({ "record": record }).to_string());
    assert_eq!(r.status, 201, "{}", r.body);
    let st = r.json();
    assert_eq!(steps_of(&st), ["e2e3", "e8e7", "f8f7"]);
    assert!(
        st["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["engine"] == false)
    );
    for (body, want) in [
        (json!({"record": "junk"}), 422),
        (json!({"record": record, "players": 2}), 400),
        (
            json!({"players": 2, "moves": "e2e4", "seats": [{"engine": false}, {"engine": false}]}),
            422,
        ),
        (json!({"players": 2, "moves": 5, "seats": []}), 400),
    ] {
        let r = gui.post("/api/games", &body.to_string());
        assert_eq!(r.status, want, "{body}: {}", r.body);
    }
}

#[test]
fn levels_are_offered_only_when_the_engine_has_them_and_are_sent_to_it() {
    // An engine without level options: none offered, a level refused.
    let gui = Gui::start(&["--engine", &no_levels_engine("gui-analysis")]);
    let config = gui.get("/api/config").json();
    assert_eq!(config["levels"]["elo"], Value::Null);
    assert_eq!(config["levels"]["skill"], Value::Null);
    let r = gui.post(
        "/api/games",
        &json!({"players": 2, "seats": [{"engine": false}, {"engine": true, "level": {"elo": 1500}}]})
            .to_string(),
    );
    assert_eq!(r.status, 422, "{}", r.body);
    drop(gui);

    // One that advertises them.
    let log = crate::support::temp("gui-analysis", "levels.log");
    let engine = levels_engine("gui-analysis", &log);
    let gui = Gui::start(&["--engine", &engine]);
    let config = gui.get("/api/config").json();
    assert_eq!(
        config["levels"]["elo"],
        json!({"default": 1500, "min": 800, "max": 2400})
    );
    assert_eq!(
        config["levels"]["skill"],
        json!({"default": 20, "min": 0, "max": 20})
    );
    for level in [
        json!({"elo": 799}),
        json!({"skill": 21}),
        json!({"rank": 3}),
        json!("strong"),
    ] {
        let body =
            json!({"players": 2, "seats": [{"engine": false}, {"engine": true, "level": level}]});
        let r = gui.post("/api/games", &body.to_string());
        assert!(r.status == 422 || r.status == 400, "{level}: {}", r.body);
    }
    let st = gui.new_game(json!({"players": 2, "seats": [
        {"engine": true, "movetime": 20, "level": {"elo": 1200}},
        {"engine": true, "movetime": 20, "level": {"skill": 3}},
    ]}));
    assert_eq!(st["seats"][0]["level"], json!({"elo": 1200}));
    let id = st["id"].as_u64().unwrap();
    gui.wait_for(id, Duration::from_secs(20), "both engines' turns", |s| {
        s["step_count"].as_u64().unwrap() >= 3
    });
    // The record names each engine seat with its level.
    let record = gui.get(&format!("/api/games/{id}/record")).body;
    assert!(record.contains("auto-20ms-elo1200"), "{record}");
    assert!(record.contains("auto-20ms-skill3"), "{record}");
    let sent = std::fs::read_to_string(&log).unwrap();
    for line in [
        "setoption name UCI_ShowWinProb value true",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
        "setoption name UCI_LimitStrength value false",
        "setoption name Skill Level value 3",
    ] {
        assert!(
            sent.lines().any(|l| l == line),
            "'{line}' not sent:\n{sent}"
        );
    }
}
