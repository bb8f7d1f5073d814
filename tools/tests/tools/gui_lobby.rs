//! The tables as others see them (issue 53): the history of finished
//! games, a page at a time, and the lobby of open tables, where anyone
//! takes a friend's seat nobody took yet, once. Neither ever shows a
//! token but the one a seat taken answers with.

use crate::support::gui::*;
use crate::support::temp;
use serde_json::{Value, json};

/// Red steps its sorcerer into its own line of fire and throws: red is
/// crushed and green wins at once (as in gui_store.rs).
const THROW_SPN: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

/// Every token in a new game's `links`.
fn tokens_of(links: &Value) -> Vec<String> {
    let mut t = vec![
        links["host"].as_str().unwrap().to_string(),
        links["spectator"].as_str().unwrap().to_string(),
    ];
    for v in links["seats"].as_object().unwrap().values() {
        t.push(v.as_str().unwrap().to_string());
    }
    t
}

fn assert_no_token(body: &str, tokens: &[String]) {
    for t in tokens {
        assert!(!body.contains(t.as_str()), "a token in {body}");
    }
}

/// A 2-player game from [`THROW_SPN`], green a friend's seat (named
/// `name` when given), `lobby` as asked, played to its end by red; closed.
/// Its id and tokens.
fn finished_game(gui: &Gui, name: Option<&str>, lobby: bool) -> (u64, Vec<String>) {
    let st = gui.new_game(json!({
        "spn": THROW_SPN,
        "moves": "d2d3",
        "lobby": lobby,
        "seats": [{"engine": false}, {"engine": false, "invite": true}],
    }));
    let id = st["id"].as_u64().unwrap();
    let tokens = tokens_of(&st["links"]);
    if let Some(name) = name {
        let r = gui.post_as(
            &format!("/api/games/{id}/join"),
            &json!({ "name": name }).to_string(),
            st["links"]["seats"]["g"].as_str(),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"f2f3*w"}"#);
    assert_eq!(r.json()["gameover"], true, "{}", r.body);
    (id, tokens)
}

fn ids(v: &Value) -> Vec<u64> {
    v["games"]
        .as_array()
        .unwrap_or_else(|| panic!("no games in {v}"))
        .iter()
        .map(|g| g["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn the_history_comes_a_page_at_a_time_newest_first_without_tokens() {
    let gui = Gui::start(&[]);
    let mut made = Vec::new();
    let mut tokens = Vec::new();
    for i in 0..5 {
        let name = format!("Gil{i}");
        let (id, t) = finished_game(&gui, Some(&name), i % 2 == 0);
        assert_eq!(gui.delete(&format!("/api/games/{id}")).status, 200);
        made.push(id);
        tokens.extend(t);
    }
    // A game still being played is not in the history.
    let playing =
        gui.new_game(json!({"spn": THROW_SPN, "seats": [{"engine": false}, {"engine": false}]}));
    made.reverse();
    let all = gui.get_as("/api/history", None);
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(ids(&all.json()), made);
    assert!(!ids(&all.json()).contains(&playing["id"].as_u64().unwrap()));
    assert_no_token(&all.body, &tokens);
    assert!(!all.body.contains("token") && !all.body.contains("access"));
    let g = &all.json()["games"][0];
    assert_eq!(g["steps"], 2);
    assert_eq!(g["result"], "g > r");
    assert_eq!(
        g["seats"],
        json!([
            {"seat": "r", "who": "person", "name": null, "invited": false, "left": false,
             "stood_in": [], "place": 2},
            {"seat": "g", "who": "person", "name": "Gil4", "invited": true, "left": false,
             "stood_in": [], "place": 1},
        ])
    );
    assert!(g["created"].as_i64().unwrap() > 1_700_000_000);
    assert!(g["ended"].as_i64().unwrap() >= g["created"].as_i64().unwrap());

    // Two at a time, each page naming the next.
    let mut seen = Vec::new();
    let mut path = "/api/history?limit=2".to_string();
    loop {
        let page = gui.get(&path).json();
        let got = ids(&page);
        assert!(got.len() <= 2, "{page}");
        seen.extend(got);
        match page["next"].as_u64() {
            Some(next) => path = format!("/api/history?limit=2&before={next}"),
            None => break,
        }
    }
    assert_eq!(seen, made);
    // The last page says there is no next one (5 games: 2, 2, 1).
    let last = gui
        .get(&format!("/api/history?limit=2&before={}", made[3]))
        .json();
    assert_eq!(ids(&last), made[4..]);
    assert_eq!(last["next"], Value::Null);
    let full = gui
        .get(&format!("/api/history?limit=2&before={}", made[2]))
        .json();
    assert_eq!(ids(&full), made[3..]);
    assert_eq!(
        full["next"],
        Value::Null,
        "a full last page names no next one"
    );
    let page = gui.get(&format!("/api/history?before={}", made[1])).json();
    assert_eq!(ids(&page), made[2..]);
    assert_eq!(page["next"], Value::Null);
    // Over the cap: the cap; past every id: all of them.
    assert_eq!(ids(&gui.get("/api/history?limit=1000000").json()), made);
    let top = format!("/api/history?before={}", u64::MAX);
    assert_eq!(ids(&gui.get(&top).json()), made);
    for bad in [
        "limit=0",
        "limit=-1",
        "limit=two",
        "before=99999999999999999999999",
        "before=",
        "page=2",
        "limit=1&limit=2",
    ] {
        let r = gui.get(&format!("/api/history?{bad}"));
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.json()["error"].is_string(), "{bad}: {}", r.body);
    }
    // Each downloads as a record.
    let r = gui.get_as(&format!("/api/history/{}/record", made[0]), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("[Result g > r]"), "{}", r.body);
    assert_no_token(&r.body, &tokens);
    // Opened on the board again (a record loaded, over at its start), it
    // is not listed twice.
    let opened = gui.new_game(json!({ "record": r.body }));
    assert_eq!(opened["gameover"], true);
    let id = opened["id"].as_u64().unwrap();
    gui.wait_for(
        id,
        std::time::Duration::from_secs(5),
        "the loaded game",
        |s| s["gameover"] == true,
    );
    assert_eq!(ids(&gui.get("/api/history").json()), made);
}

/// A 3-player table: red the host's person, yellow a friend's seat,
/// green the engine (random, quick), listed in the lobby if `lobby`.
fn three(gui: &Gui, lobby: bool) -> (u64, Value) {
    let st = gui.new_game(json!({
        "players": 3,
        "lobby": lobby,
        "seats": [
            {"engine": false},
            {"engine": false, "invite": true},
            {"engine": true, "algorithm": "random", "movetime": 20},
        ],
    }));
    (st["id"].as_u64().unwrap(), st["links"].clone())
}

/// The ids the lobby lists.
fn listed(gui: &Gui) -> Vec<u64> {
    let r = gui.get_as("/api/lobby", None);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_u64().unwrap())
        .collect()
}

fn sit(gui: &Gui, id: u64, seat: &str, name: &str) -> Resp {
    gui.post_as(
        &format!("/api/lobby/{id}/sit"),
        &json!({ "seat": seat, "name": name }).to_string(),
        None,
    )
}

#[test]
fn a_lobby_seat_is_taken_once_and_only_listed_tables_are_offered() {
    let gui = Gui::start(&[]);
    let (a, links) = three(&gui, true);
    let (b, b_links) = three(&gui, false);
    // A table with no friend's seat is not listed.
    let r = gui.post(
        "/api/games",
        &json!({"players": 2, "lobby": true, "seats": [{"engine": false}, {"engine": false}]})
            .to_string(),
    );
    assert_eq!(r.status, 422, "{}", r.body);

    let lobby = gui.get_as("/api/lobby", None);
    assert_eq!(listed(&gui), vec![a], "{}", lobby.body);
    let mut secrets = tokens_of(&links);
    secrets.extend(tokens_of(&b_links));
    assert_no_token(&lobby.body, &secrets);
    let t = &lobby.json()["tables"][0];
    assert_eq!(t["players"], 3);
    assert!(t["created"].as_i64().unwrap() > 1_700_000_000);
    assert_eq!(
        t["seats"][0],
        json!({"seat": "r", "who": "person", "name": null, "invited": false, "left": false,
               "stood_in": []})
    );
    assert_eq!(t["seats"][1], json!({"seat": "y", "who": "open"}));
    assert_eq!(t["seats"][2]["who"], "engine");
    assert_eq!(t["seats"][2]["algorithm"], "random");

    // Refused, and nothing changed: bad bodies, seats that are no
    // friend's, tables not listed or not there.
    for (id, body, want) in [
        (a, json!({"seat": "y"}), 400),
        (a, json!({"seat": "y", "name": "Yan", "token": "x"}), 400),
        (a, json!({"seat": "yy", "name": "Yan"}), 422),
        (a, json!({"seat": "y", "name": ""}), 422),
        (a, json!({"seat": "y", "name": "x".repeat(25)}), 422),
        (a, json!({"seat": "r", "name": "Ann"}), 404),
        (a, json!({"seat": "b", "name": "Ann"}), 404),
        (b, json!({"seat": "y", "name": "Ann"}), 404),
        (999_999, json!({"seat": "y", "name": "Ann"}), 404),
    ] {
        let r = gui.post_as(&format!("/api/lobby/{id}/sit"), &body.to_string(), None);
        assert_eq!(r.status, want, "{body}: {}", r.body);
        assert!(r.json()["error"].is_string());
    }
    for bad in ["x", "99999999999999999999999", "-1"] {
        let r = gui.post_as(
            &format!("/api/lobby/{bad}/sit"),
            r#"{"seat":"y","name":"Ann"}"#,
            None,
        );
        assert_eq!(r.status, 404, "{bad}: {}", r.body);
    }
    let r = gui.post_as(&format!("/api/lobby/{a}/sit"), "{not json", None);
    assert_eq!(r.status, 400, "{}", r.body);
    // Another site's page may not take a seat.
    let r = request(
        gui.port,
        "POST",
        &format!("/api/lobby/{a}/sit"),
        &[
            ("Origin", "http://evil.example"),
            ("Content-Type", "application/json"),
        ],
        br#"{"seat":"y","name":"Eve"}"#,
    )
    .unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(gui.state(a)["seats"][1]["name"], Value::Null);
    assert_eq!(gui.state(b)["seats"][1]["name"], Value::Null);

    // Taken: the seat's own token, as its link has it; the table leaves
    // the lobby; a second taker is refused.
    let r = sit(&gui, a, "y", " Yan ");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({"id": a, "seat": "y", "token": links["seats"]["y"]})
    );
    let st = gui
        .get_as(&format!("/api/games/{a}"), links["seats"]["y"].as_str())
        .json();
    assert_eq!(st["you"], json!({"role": "seat", "seat": "y"}));
    assert_eq!(st["seats"][1]["name"], "Yan");
    assert_eq!(listed(&gui), Vec::<u64>::new());
    let r = sit(&gui, a, "y", "Eve");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.json()["error"].as_str().unwrap().contains("taken"),
        "{}",
        r.body
    );
    assert_eq!(gui.state(a)["seats"][1]["name"], "Yan");
}

#[test]
fn two_at_once_for_one_seat_one_sits() {
    let gui = Gui::start(&[]);
    for _ in 0..3 {
        let (id, _) = three(&gui, true);
        let port = gui.port;
        let takers: Vec<_> = ["Ann", "Bob", "Cid", "Dee"]
            .into_iter()
            .map(|name| {
                std::thread::spawn(move || {
                    let body = json!({"seat": "y", "name": name}).to_string();
                    let headers = [("Content-Type", "application/json")];
                    let path = format!("/api/lobby/{id}/sit");
                    let r = request(port, "POST", &path, &headers, body.as_bytes()).unwrap();
                    (r.status, name)
                })
            })
            .collect();
        let answers: Vec<(u16, &str)> = takers.into_iter().map(|t| t.join().unwrap()).collect();
        let sat: Vec<&str> = answers
            .iter()
            .filter(|(s, _)| *s == 200)
            .map(|a| a.1)
            .collect();
        assert_eq!(sat.len(), 1, "{answers:?}");
        assert!(
            answers.iter().all(|(s, _)| *s == 200 || *s == 409),
            "{answers:?}"
        );
        assert_eq!(gui.state(id)["seats"][1]["name"], sat[0]);
        assert_eq!(gui.delete(&format!("/api/games/{id}")).status, 200);
    }
}

#[test]
fn a_finished_table_leaves_the_lobby_and_a_listed_one_survives_kill_9() {
    let db = temp("gui-lobby", "lobby.db");
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(format!("{}-wal", db.display()));
    let mut gui = Gui::start(&["--db", db.to_str().unwrap()]);
    let (over, _) = finished_game(&gui, None, true);
    let (open, links) = three(&gui, true);
    assert_eq!(listed(&gui), vec![open], "the finished table is gone");
    let r = sit(&gui, over, "g", "Gil");
    assert_eq!(r.status, 409, "{}", r.body);
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();

    // Read back: still listed, its seat still open, its token the same.
    let gui = Gui::start(&["--db", db.to_str().unwrap()]);
    assert_eq!(listed(&gui), vec![open]);
    let r = sit(&gui, open, "y", "Yan");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["token"], links["seats"]["y"]);
    assert_eq!(listed(&gui), Vec::<u64>::new());
    let st = gui.get_as(&format!("/api/games/{open}"), links["seats"]["y"].as_str());
    assert_eq!(st.json()["seats"][1]["name"], "Yan");
    // And the finished one is in the history, once.
    assert_eq!(ids(&gui.get("/api/history").json()), vec![over]);
}

#[test]
fn a_game_the_host_ends_once_no_person_plays_is_kept_with_the_places_so_far() {
    let gui = Gui::start(&[]);
    // A person's game is not the host's to end.
    let person =
        gui.new_game(json!({"players": 2, "seats": [{"engine": false}, {"engine": true}]}));
    let r = gui.post(&format!("/api/games/{}/end", person["id"]), "{}");
    assert_eq!(r.status, 403, "{}", r.body);
    // The engines' own game, step by step so that it stays at its start.
    let st = gui.new_game(json!({
        "players": 2, "pace": "step",
        "seats": [{"engine": true, "movetime": 50}, {"engine": true, "movetime": 50}],
    }));
    let id = st["id"].as_u64().unwrap();
    let r = gui.post(&format!("/api/games/{id}/end"), "{}");
    assert_eq!(r.status, 200, "{}", r.body);
    let st = r.json();
    assert_eq!(
        (st["gameover"].clone(), st["ended_here"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(st["places"], json!({"r": 1, "g": 1}));
    let games = gui.get("/api/history").json();
    assert_eq!(ids(&games)[0], id);
    assert_eq!(games["games"][0]["result"], "r = g");
    let record = gui.get(&format!("/api/games/{id}/record")).body;
    assert!(record.contains("[Reason turn limit 0]"), "{record}");
}
