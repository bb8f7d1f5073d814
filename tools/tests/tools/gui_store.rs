//! `splut gui --db FILE`: the games kept in SQLite. A step acknowledged is
//! never lost to `kill -9`, and a restart on the same file plays on.

use crate::support::gui::*;
use crate::support::temp;
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// A new database file: none there, nor its WAL.
fn fresh(name: &str) -> std::path::PathBuf {
    let db = temp("gui-store", name);
    let _ = std::fs::remove_file(format!("{}-wal", db.display()));
    db
}

fn on(db: &Path) -> Gui {
    Gui::start(&["--db", db.to_str().unwrap()])
}

/// `kill -9` (what `Child::kill` sends on Unix), and the server reaped.
fn kill_9(gui: &mut Gui) {
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();
}

/// The server on `db` again after `old` was killed, its games' host
/// tokens with it (the page keeps them).
fn again(db: &Path, old: &Gui) -> Gui {
    let gui = on(db);
    gui.adopt_tokens(old.port);
    gui
}

/// Red (a person) plays the first legal step until its turn is over;
/// the steps the last acknowledgement shows.
fn play_reds_turn(gui: &Gui, id: u64) -> Vec<String> {
    let mut st = gui.state(id);
    while st["side"] == "r" {
        let step = st["legal"][0].as_str().unwrap().to_string();
        let r = gui.post(
            &format!("/api/games/{id}/step"),
            &json!({ "step": step }).to_string(),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        st = r.json();
    }
    steps_of(&st)
}

/// Waits until the engine (green) has played and red is to move.
fn reds_turn_again(gui: &Gui, id: u64, after: usize) -> serde_json::Value {
    gui.wait_for(id, Duration::from_secs(30), "the engine's turn", |s| {
        s["side"] == "r" && s["thinking"].is_null() && steps_of(s).len() > after
    })
}

#[test]
fn kill_9_loses_no_acknowledged_step_and_the_engine_plays_on() {
    let db = fresh("games.db");
    let mut gui = on(&db);
    let st = gui.new_game(json!({
        "players": 2,
        "seats": [{"engine": false}, {"engine": true, "algorithm": "alphabeta", "movetime": 50}],
    }));
    let id = st["id"].as_u64().unwrap();
    let acked = play_reds_turn(&gui, id);
    reds_turn_again(&gui, id, acked.len());
    // Red's whole turn, then killed at once: the engine's turn was in
    // flight (or just played, unacknowledged).
    let acked = play_reds_turn(&gui, id);
    kill_9(&mut gui);

    let mut gui = again(&db, &gui);
    let st = gui.state(id);
    let kept = steps_of(&st);
    assert_eq!(kept[..acked.len()], acked[..], "{st}");
    // The engine's seat thinks again, and plays.
    let st = reds_turn_again(&gui, id, acked.len());
    assert_eq!(st["turns"].as_array().unwrap().len(), 4, "{st}");
    // New games take ids above the kept ones.
    let other =
        gui.new_game(json!({"players": 2, "seats": [{"engine": false}, {"engine": false}]}));
    assert!(other["id"].as_u64().unwrap() > id, "{other}");

    // A take-back is kept too: the engine's turn and red's go.
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let back = steps_of(&r.json());
    assert_eq!(back, acked[..back.len()]);
    assert!(back.len() < acked.len());
    kill_9(&mut gui);
    let gui = again(&db, &gui);
    assert_eq!(steps_of(&gui.state(id)), back);
    assert_eq!(gui.state(other["id"].as_u64().unwrap())["step_count"], 0);
}

#[test]
fn a_file_in_use_or_not_a_games_database_is_refused() {
    let db = fresh("busy.db");
    let _gui = on(&db);
    let run = |file: &Path| {
        std::process::Command::new(crate::support::SPLUT)
            .args(["gui", "--port", "0", "--db"])
            .arg(file)
            .output()
            .unwrap()
    };
    let out = run(&db);
    assert_eq!(out.status.code(), Some(2), "a second server on the file");
    let notes = temp("gui-store", "notes.txt");
    std::fs::write(&notes, "not a database\n".repeat(100)).unwrap();
    let out = run(&notes);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "not a database\n".repeat(100)
    );
}

/// Red steps its sorcerer into its own line of fire and throws: green
/// wins (as in gui_analysis.rs).
const THROW_SPN: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

#[test]
fn finished_games_are_listed_and_download_as_records_replay_accepts() {
    let db = fresh("history.db");
    let mut gui = on(&db);
    let st = gui.new_game(json!({
        "spn": THROW_SPN,
        "moves": "d2d3",
        "seats": [{"engine": false}, {"engine": false}],
    }));
    let id = st["id"].as_u64().unwrap();
    assert_eq!(gui.get("/api/history").json()["games"], json!([]));
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"f2f3*w"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["gameover"], true);
    kill_9(&mut gui);

    // Kept through the kill; over, so not resumed.
    let gui = on(&db);
    assert_eq!(gui.get(&format!("/api/games/{id}")).status, 404);
    let h = gui.get("/api/history").json();
    let games = h["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{h}");
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["result"], "g > r");
    assert_eq!(games[0]["steps"], 2);
    assert_eq!(games[0]["seats"][0]["who"], "person");
    assert_eq!(games[0]["seats"][0]["place"], 2);
    let r = gui.get(&format!("/api/history/{id}/record"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.header("Content-Disposition")
            .unwrap()
            .contains("attachment")
    );
    assert!(r.body.contains("[Result g > r]"), "{}", r.body);
    let file = temp("gui-store", "history-record.txt");
    std::fs::write(&file, &r.body).unwrap();
    let out = crate::support::splut(&["replay", file.to_str().unwrap()]);
    let stdout = crate::support::stdout(&out);
    assert!(
        out.status.success() && stdout.contains("1 games, 1 valid"),
        "{stdout}\n{}",
        r.body
    );
    for bad in ["999", "x", &format!("{}", id + 1)] {
        let r = gui.get(&format!("/api/history/{bad}/record"));
        assert_eq!(r.status, 404, "{bad}: {}", r.body);
    }
}

#[test]
fn with_db_sync_os_kill_9_still_loses_no_acknowledged_step() {
    let db = fresh("os-sync.db");
    let mut gui = Gui::start(&["--db", db.to_str().unwrap(), "--db-sync", "os"]);
    let st = gui.new_game(json!({
        "players": 2,
        "seats": [{"engine": false}, {"engine": false}],
    }));
    let id = st["id"].as_u64().unwrap();
    let acked = play_reds_turn(&gui, id);
    kill_9(&mut gui);
    let gui = again(&db, &gui);
    let kept = steps_of(&gui.state(id));
    assert_eq!(kept, acked);
}
