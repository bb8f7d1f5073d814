//! `splut gui`'s engine seats in its own process: no process per game,
//! at most `--searches` searches at once, the others waiting their turn
//! with their full time from their start; `--engine` still starts a
//! process per game.

use crate::support::gui::*;
use serde_json::json;
use std::time::{Duration, Instant};

/// Searches running and waiting, as the server counts them.
fn searches(gui: &Gui) -> (u64, u64) {
    let st = gui.get("/api/status").json();
    (
        st["searching"].as_u64().unwrap(),
        st["queued"].as_u64().unwrap(),
    )
}

/// An engine-only 2-player game at `movetime` ms a turn.
fn engines_only(gui: &Gui, movetime: u64) -> u64 {
    let seat = json!({"engine": true, "algorithm": "alphabeta", "movetime": movetime});
    gui.new_game(json!({"players": 2, "seats": [seat, seat]}))["id"]
        .as_u64()
        .unwrap()
}

/// The server's resident memory in KiB (Linux).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Polls the status until `done` holds (or panics after `limit`).
fn wait_searches(gui: &Gui, limit: Duration, what: &str, done: impl Fn((u64, u64)) -> bool) {
    let t0 = Instant::now();
    loop {
        let s = searches(gui);
        if done(s) {
            return;
        }
        assert!(t0.elapsed() < limit, "timed out waiting for {what}: {s:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_hundred_engine_games_start_no_process_and_share_the_searches() {
    let gui = Gui::start(&["--max-games", "100", "--searches", "2"]);
    let ids: Vec<u64> = (0..100).map(|_| engines_only(&gui, 20)).collect();
    assert!(gui.children().is_empty(), "{:?}", gui.children());
    assert_eq!(gui.engines(), 0);
    // Every game plays (each engine seat moves at least once), never more
    // than 2 searches at once, the others queued.
    let (mut most, mut most_queued, mut rss_peak) = (0, 0, 0);
    let t0 = Instant::now();
    let mut left = ids.clone();
    while !left.is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(240),
            "games that did not play: {left:?}"
        );
        let (searching, queued) = searches(&gui);
        most = most.max(searching);
        most_queued = most_queued.max(queued);
        rss_peak = rss_peak.max(rss_kib(gui.child.id()));
        assert!(searching <= 2, "{searching} searches at once");
        left.retain(|&id| {
            let st = gui.state(id);
            assert!(st["error"].is_null(), "game {id}: {st}");
            st["step_count"].as_u64().unwrap() < 4
        });
    }
    assert!(gui.children().is_empty(), "{:?}", gui.children());
    assert_eq!(most, 2);
    assert!(most_queued > 10, "at most {most_queued} queued");
    let rss = rss_kib(gui.child.id());
    println!(
        "gui_pool: 100 engine games, 2 searches at once: RSS {} MiB (peak seen {} MiB), \
         at most {most_queued} queued",
        rss / 1024,
        rss_peak / 1024
    );
    assert!(rss_peak < 600 * 1024, "RSS {rss_peak} KiB");
    // A 101st game is refused; closing them empties the pool.
    let r = gui.post(
        "/api/games",
        &json!({"players": 2, "seats": [{"engine": false}, {"engine": false}]}).to_string(),
    );
    assert_eq!(r.status, 429, "{}", r.body);
    for id in ids {
        assert_eq!(gui.delete(&format!("/api/games/{id}")).status, 200);
    }
    wait_searches(&gui, Duration::from_secs(5), "an empty pool", |s| {
        s == (0, 0)
    });
}

#[test]
fn a_queued_search_gets_its_full_time_from_its_start() {
    // The first game's search holds the only slot for longer than the
    // board's watchdog gives a search past its time (10 s): the waiting
    // game's engine is not taken for hung, and its own time starts when
    // its search does.
    let gui = Gui::start(&["--searches", "1"]);
    let a = engines_only(&gui, 11_000);
    wait_searches(&gui, Duration::from_secs(5), "a's search", |s| s == (1, 0));
    let b = engines_only(&gui, 800);
    wait_searches(&gui, Duration::from_secs(5), "b queued", |s| s == (1, 1));
    let st = gui.state(b);
    assert_eq!(st["step_count"], 0);
    // a answers; b's search starts.
    gui.wait_for(a, Duration::from_secs(30), "a's step", |s| {
        s["step_count"].as_u64().unwrap() >= 1
    });
    let started = Instant::now();
    let st = gui.wait_for(b, Duration::from_secs(30), "b's step", |s| {
        s["step_count"].as_u64().unwrap() >= 1 || !s["error"].is_null()
    });
    let took = started.elapsed();
    assert!(st["error"].is_null(), "{st}");
    assert!(took >= Duration::from_millis(600), "b searched {took:?}");
    assert_eq!(gui.delete(&format!("/api/games/{a}")).status, 200);
    assert_eq!(gui.delete(&format!("/api/games/{b}")).status, 200);
    wait_searches(&gui, Duration::from_secs(5), "an empty pool", |s| {
        s == (0, 0)
    });
}

#[test]
fn a_queued_search_is_dropped_by_a_take_back_or_a_close() {
    let gui = Gui::start(&["--searches", "1"]);
    let a = engines_only(&gui, 5_000);
    wait_searches(&gui, Duration::from_secs(5), "a's search", |s| s == (1, 0));
    // A person's step: the engine's reply waits.
    let b = gui.new_game(json!({
        "players": 2,
        "seats": [{"engine": false}, {"engine": true, "movetime": 50}],
    }))["id"]
        .as_u64()
        .unwrap();
    let r = gui.post(&format!("/api/games/{b}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    wait_searches(&gui, Duration::from_secs(5), "b queued", |s| s == (1, 1));
    // Taken back while waiting: answered at once, nothing played.
    let r = gui.post(&format!("/api/games/{b}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    wait_searches(&gui, Duration::from_secs(2), "b out of the queue", |s| {
        s == (1, 0)
    });
    let st = gui.wait_for(b, Duration::from_secs(5), "b's turn back", |s| {
        s["searching"] != true && s["thinking"].is_null()
    });
    assert!(st["error"].is_null(), "{st}");
    assert_eq!(st["step_count"], 0);
    assert_eq!(st["side"], "r");
    // The person plays again; the reply waits again, and its game closes.
    let r = gui.post(&format!("/api/games/{b}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let c = engines_only(&gui, 50);
    wait_searches(&gui, Duration::from_secs(5), "b and c queued", |s| {
        s == (1, 2)
    });
    assert_eq!(gui.delete(&format!("/api/games/{b}")).status, 200);
    wait_searches(&gui, Duration::from_secs(2), "b's place freed", |s| {
        s == (1, 1)
    });
    // c is next when a's search ends.
    gui.wait_for(c, Duration::from_secs(20), "c's step", |s| {
        s["step_count"].as_u64().unwrap() >= 1
    });
    assert!(gui.state(a)["error"].is_null());
    assert!(gui.children().is_empty(), "{:?}", gui.children());
}

#[test]
fn the_engine_option_still_starts_a_process_per_game() {
    let splut = format!("'{}'", env!("CARGO_BIN_EXE_splut"));
    let mut gui = Gui::start(&["--engine", &splut]);
    let ids: Vec<u64> = (0..3).map(|_| engines_only(&gui, 20)).collect();
    assert_eq!(gui.engines(), 3);
    assert_eq!(gui.child_pids().len(), 3);
    let st = gui.get("/api/status").json();
    assert_eq!(
        (st["searching"].clone(), st["queued"].clone()),
        (json!(0), json!(0))
    );
    let st = gui.wait_for(ids[0], Duration::from_secs(20), "steps", |s| {
        s["step_count"].as_u64().unwrap() >= 4
    });
    assert!(st["error"].is_null(), "{st}");
    let pids = gui.child_pids();
    gui.shutdown();
    for p in pids {
        assert!(!running(p), "engine {p} outlived the server");
    }
    // --searches is for the in-process seats only.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_splut"))
        .args(["gui", "--port", "0", "--engine", &splut, "--searches", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
