//! Clocks for the people's seats (issue 53): a person whose clock runs
//! out at their turn has the engine play the rest of it, recorded as the
//! engine's; their own requests meanwhile do not take it back; a clock
//! is kept with its seat, and a restarted server goes on from it.

use crate::support::gui::*;
use crate::support::temp;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Plays the first legal steps with `tok` until the side to move changes
/// (or only `n` steps).
fn play(gui: &Gui, id: u64, tok: &str, n: usize) -> Value {
    let path = format!("/api/games/{id}");
    let mut st = gui.get_as(&path, Some(tok)).json();
    let side = st["side"].clone();
    for _ in 0..n {
        if st["side"] != side || st["gameover"] == true {
            break;
        }
        let step = st["legal"][0].as_str().unwrap().to_string();
        let r = gui.post_as(
            &format!("{path}/step"),
            &json!({ "step": step }).to_string(),
            Some(tok),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        st = r.json();
    }
    st
}

/// Long-polls the game with `tok` until `done` holds (30 s at most).
fn poll_as(gui: &Gui, id: u64, tok: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    let path = format!("/api/games/{id}");
    let mut st = gui.get_as(&path, Some(tok)).json();
    while !done(&st) {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}: {st}"
        );
        let v = st["version"].as_u64().unwrap();
        let r = gui.get_as(&format!("{path}?since={v}"), Some(tok));
        assert_eq!(r.status, 200, "{}", r.body);
        st = r.json();
    }
    st
}

#[test]
fn a_friends_clock_runs_out_and_the_engine_finishes_their_turn() {
    let gui = Gui::start(&[]);
    // Out of bounds: refused, nothing made.
    for bad in [json!({"base": 5}), json!({"base": 60, "increment": 601})] {
        let body = json!({"players": 2, "clock": bad,
            "seats": [{"engine": false}, {"engine": false}]});
        let r = gui.post("/api/games", &body.to_string());
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body.contains("clock:"), "{}", r.body);
    }
    let st = gui.new_game(json!({
        "players": 2,
        "clock": {"base": 10, "increment": 0},
        "seats": [
            {"engine": false},
            // A search that takes its time (random would answer at once).
            {"engine": false, "invite": true, "algorithm": "alphabeta", "movetime": 1500},
        ],
    }));
    let id = st["id"].as_u64().unwrap();
    let host = st["links"]["host"].as_str().unwrap().to_string();
    let guest = st["links"]["seats"]["g"].as_str().unwrap().to_string();
    assert_eq!(st["clock"]["running"], "r", "{st}");
    assert_eq!(st["clock"]["base"], 10_000);

    // Red's turn; green's friend plays one step of two, then thinks on.
    let st = play(&gui, id, &host, 9);
    assert_eq!(st["side"], "g");
    assert_eq!(st["clock"]["running"], "g");
    let red_left = st["clock"]["left"]["r"].as_u64().unwrap();
    assert!((9_000..=10_000).contains(&red_left), "{st}");
    let t0 = Instant::now();
    play(&gui, id, &guest, 1);
    let st = poll_as(&gui, id, &guest, "green's clock to run out", |s| {
        s["seats"][1]["clock"]["out"] == true
    });
    assert!(t0.elapsed() >= Duration::from_millis(9_500), "{st}");
    assert_eq!(st["clock"]["left"]["g"], 0);
    assert_eq!(st["thinking"]["seat"], "g", "{st}");
    // The friend is here all along: their requests give nothing back, and
    // the engine's search (1.5 s) is not dropped.
    let step = st["legal"][0].as_str().unwrap().to_string();
    let r = gui.post_as(
        &format!("/api/games/{id}/step"),
        &json!({ "step": step }).to_string(),
        Some(&guest),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    let st = gui.get_as(&format!("/api/games/{id}"), Some(&guest)).json();
    assert_eq!(st["thinking"]["seat"], "g", "{st}");
    let st = poll_as(&gui, id, &guest, "the engine's end of green's turn", |s| {
        s["side"] == "r"
    });
    assert_eq!(st["seats"][1]["stood_in"], json!([2]), "{st}");
    assert_eq!(st["seats"][1]["clock"]["out"], false);
    assert_eq!(st["seats"][1]["stand_in"], false);
    // Red's clock stood still through green's turn (and runs now).
    assert_eq!(st["seats"][0]["clock"]["left"], red_left, "{st}");
    assert_eq!(st["clock"]["running"], "r");
    let record = gui.get(&format!("/api/games/{id}/record")).body;
    assert!(record.contains("g=person-unrated(engine:2)"), "{record}");
    assert!(record.contains("person=clock=10000+0"), "{record}");

    // No increment: the engine plays green's every turn from now on.
    play(&gui, id, &host, 9);
    let st = poll_as(&gui, id, &host, "green's next turn", |s| {
        s["side"] == "r" && s["turns"].as_array().unwrap().len() == 4
    });
    assert_eq!(st["seats"][1]["stood_in"], json!([2, 4]), "{st}");
}

#[test]
fn a_restarted_server_goes_on_from_the_clocks_kept() {
    let db = temp("gui-clocks", "games.db");
    let _ = std::fs::remove_file(format!("{}-wal", db.display()));
    let args = ["--db", db.to_str().unwrap()];
    let mut gui = Gui::start(&args);
    let st = gui.new_game(json!({
        "players": 2,
        "clock": {"base": 60, "increment": 5},
        "seats": [{"engine": false}, {"engine": true, "algorithm": "random", "movetime": 20}],
    }));
    let id = st["id"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    play(&gui, id, st["links"]["host"].as_str().unwrap(), 9);
    let st = gui.wait_for(id, Duration::from_secs(30), "red's turn", |s| {
        s["side"] == "r" && s["thinking"].is_null()
    });
    let kept = st["seats"][0]["clock"]["left"].as_u64().unwrap();
    assert!((64_000..=64_800).contains(&kept), "{st}");
    assert_eq!(st["seats"][0]["clock"]["turns"], json!([[1, 60000]]));
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();

    let old = gui;
    let gui = Gui::start(&args);
    gui.adopt_tokens(old.port);
    let st = gui.state(id);
    assert_eq!(st["seats"][0]["clock"]["left"], kept, "{st}");
    assert_eq!(st["seats"][0]["clock"]["turns"], json!([[1, 60000]]));
    let left = st["clock"]["left"]["r"].as_u64().unwrap();
    assert!(left <= kept && left + 2_000 > kept, "{st}");
    assert_eq!(st["clock"]["running"], "r");
}
