//! Tables (issue 53): every game is a table, and each request about it
//! carries a token. The host plays the people at its screen, an invited
//! person their own seat only, a spectator nothing; a refused request
//! changes nothing, and no answer shows a token to anyone but the host.

use crate::support::gui::*;
use crate::support::temp;
use serde_json::{Value, json};
use std::time::Duration;

/// A 3-player table: red the host's person, yellow invited, green the
/// engine. Its id and links (`host`, `spectator`, `seats.y`).
fn three_at_a_table(gui: &Gui) -> (u64, Value) {
    let st = gui.new_game(json!({
        "players": 3,
        "seats": [
            {"engine": false},
            {"engine": false, "invite": true},
            {"engine": true, "algorithm": "random", "movetime": 20},
        ],
    }));
    let id = st["id"].as_u64().unwrap();
    assert_eq!(st["you"], json!({"role": "host"}));
    (id, st["links"].clone())
}

fn token<'a>(links: &'a Value, which: &str) -> &'a str {
    let v = if which.len() == 1 {
        &links["seats"][which]
    } else {
        &links[which]
    };
    v.as_str()
        .unwrap_or_else(|| panic!("no {which} token in {links}"))
}

/// Plays `who`'s first legal steps until the side to move changes.
fn play_turn(gui: &Gui, id: u64, tok: &str) -> Value {
    let path = format!("/api/games/{id}");
    let mut st = gui.get_as(&path, Some(tok)).json();
    let side = st["side"].clone();
    while st["side"] == side && st["gameover"] == false {
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

#[test]
fn each_seat_is_played_by_its_own_link_only() {
    let gui = Gui::start(&[]);
    let (id, links) = three_at_a_table(&gui);
    let (host, guest, watcher) = (
        token(&links, "host"),
        token(&links, "y"),
        token(&links, "spectator"),
    );
    let path = format!("/api/games/{id}");

    // No token, a made-up one, or one of another table: forbidden.
    let (_, other) = three_at_a_table(&gui);
    for t in [
        None,
        Some("0123456789abcdef0123456789abcdef"),
        Some(token(&other, "host")),
    ] {
        assert_eq!(gui.get_as(&path, t).status, 403, "{t:?}");
        let r = gui.post_as(&format!("{path}/step"), r#"{"step":"e2e3"}"#, t);
        assert_eq!(r.status, 403, "{t:?}: {}", r.body);
    }

    // Who each one is; the tokens are the host's alone to see.
    let seen = |t: &str| gui.get_as(&path, Some(t));
    assert_eq!(
        seen(guest).json()["you"],
        json!({"role": "seat", "seat": "y"})
    );
    assert_eq!(seen(watcher).json()["you"], json!({"role": "spectator"}));
    for t in [guest, watcher] {
        let body = seen(t).body;
        for secret in [host, guest, watcher] {
            assert!(!body.contains(secret), "a token in another's state: {body}");
        }
    }
    let st = seen(host).json();
    assert_eq!(st["links"], links);
    assert_eq!(st["seats"][1]["invited"], true);
    assert_eq!(st["seats"][0]["invited"], false);

    // Red's turn is the host's: not the guest's, not the spectator's.
    let v = st["version"].clone();
    for t in [guest, watcher] {
        let r = gui.post_as(&format!("{path}/step"), r#"{"step":"e2e3"}"#, Some(t));
        assert_eq!(r.status, 403, "{}", r.body);
    }
    assert_eq!(
        seen(host).json()["version"],
        v,
        "a refusal changed the game"
    );
    let st = play_turn(&gui, id, host);
    assert_eq!(st["side"], "y");

    // Yellow's turn is the guest's alone.
    let step = json!({ "step": st["legal"][0] }).to_string();
    for t in [host, watcher] {
        let r = gui.post_as(&format!("{path}/step"), &step, Some(t));
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(
            r.body.contains("not your seat") || r.body.contains("spectator"),
            "{}",
            r.body
        );
        let r = gui.post_as(&format!("{path}/hint"), "", Some(t));
        assert_eq!(r.status, 403, "{}", r.body);
    }
    assert_eq!(seen(host).json()["step_count"], st["step_count"]);
    let st = play_turn(&gui, id, guest);
    assert_eq!(st["you"], json!({"role": "seat", "seat": "y"}));
    assert!(st.get("links").is_none(), "{st}");

    // The host's own: take-backs, the pace, closing the table.
    for (method, action) in [("POST", "takeback"), ("POST", "restart"), ("DELETE", "")] {
        for t in [guest, watcher] {
            let r = match method {
                "POST" => gui.post_as(&format!("{path}/{action}"), "", Some(t)),
                _ => request(
                    gui.port,
                    "DELETE",
                    &path,
                    &[("Authorization", &format!("Bearer {t}"))],
                    b"",
                )
                .unwrap(),
            };
            assert_eq!(r.status, 403, "{method} {action}: {}", r.body);
        }
    }
    let r = gui.post_as(&format!("{path}/pace"), r#"{"pace":"slow"}"#, Some(guest));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = gui.post_as(&format!("{path}/review"), "", Some(watcher));
    assert_eq!(r.status, 403, "{}", r.body);
    // The engine (green) plays; the game is still there for everyone.
    gui.wait_for(id, Duration::from_secs(30), "green's turn", |s| {
        s["side"] == "r"
    });
    assert_eq!(seen(watcher).status, 200);
    // A guest's new game that names the table to replace leaves it
    // playing: only its host closes it.
    let body =
        json!({"players": 2, "seats": [{"engine": false}, {"engine": false}], "replace": id});
    let r = gui.post_as("/api/games", &body.to_string(), Some(guest));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(seen(watcher).status, 200, "a guest closed the table");
    let r = gui.post_as("/api/games", &body.to_string(), Some(host));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        seen(watcher).status,
        404,
        "the host's replacing game closes it"
    );
}

#[test]
fn an_invited_person_names_their_seat_and_everyone_sees_it_as_text() {
    let gui = Gui::start(&[]);
    let (id, links) = three_at_a_table(&gui);
    let path = format!("/api/games/{id}");
    let guest = token(&links, "y");
    let st = gui.get_as(&path, Some(guest)).json();
    let since = st["version"].as_u64().unwrap();
    // A spectator waiting for a change sees the name come.
    let watcher = token(&links, "spectator").to_string();
    let port = gui.port;
    let poll = std::thread::spawn(move || {
        let auth = format!("Bearer {watcher}");
        request(
            port,
            "GET",
            &format!("/api/games/{id}?since={since}"),
            &[("Authorization", &auth)],
            b"",
        )
        .unwrap()
        .json()
    });
    let name = "<img src=x onerror=f()>";
    let r = gui.post_as(
        &format!("{path}/join"),
        &json!({ "name": format!("  {name}  ") }).to_string(),
        Some(guest),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let seen = poll.join().unwrap();
    assert_eq!(seen["seats"][1]["name"], name, "{seen}");
    assert_eq!(gui.state(id)["seats"][1]["name"], name);
    // Bad names, and names for seats that are not the link's: refused.
    for bad in [
        json!({"name": ""}),
        json!({"name": "x".repeat(25)}),
        json!({"name": "a\u{1b}b"}),
        json!({"nom": "x"}),
    ] {
        let r = gui.post_as(&format!("{path}/join"), &bad.to_string(), Some(guest));
        assert!(
            r.status == 422 || r.status == 400,
            "{bad}: {} {}",
            r.status,
            r.body
        );
    }
    for t in [token(&links, "host"), token(&links, "spectator")] {
        let r = gui.post_as(&format!("{path}/join"), r#"{"name":"Eve"}"#, Some(t));
        assert_eq!(r.status, 403, "{}", r.body);
    }
    assert_eq!(gui.state(id)["seats"][1]["name"], name);
}

#[test]
fn a_seats_link_comes_back_after_kill_9_with_its_name_and_game() {
    let db = temp("gui-tables", "table.db");
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(format!("{}-wal", db.display()));
    let mut gui = Gui::start(&["--db", db.to_str().unwrap()]);
    let (id, links) = three_at_a_table(&gui);
    let guest = token(&links, "y");
    let r = gui.post_as(
        &format!("/api/games/{id}/join"),
        r#"{"name":"Yan"}"#,
        Some(guest),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    play_turn(&gui, id, token(&links, "host"));
    let st = play_turn(&gui, id, guest);
    let kept = steps_of(&st);
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();

    // The same links open the same seats of the same game.
    let gui = Gui::start(&["--db", db.to_str().unwrap()]);
    let path = format!("/api/games/{id}");
    let st = gui.get_as(&path, Some(guest)).json();
    assert_eq!(st["you"], json!({"role": "seat", "seat": "y"}), "{st}");
    assert_eq!(st["seats"][1]["name"], "Yan");
    assert_eq!(steps_of(&st)[..kept.len()], kept[..]);
    let st = gui.get_as(&path, Some(token(&links, "host"))).json();
    assert_eq!(st["links"], links);
    assert_eq!(
        gui.get_as(&path, Some(token(&links, "spectator"))).status,
        200
    );
    assert_eq!(gui.get_as(&path, None).status, 403);
}

/// A 2-player table: red at the host's screen, green a friend's seat
/// the engine (random, 50 ms) takes over after `takeover` s away; its
/// id, the host's token and the friend's.
fn friend_at_green(gui: &Gui, takeover: u64) -> (u64, String, String) {
    let st = gui.new_game(json!({
        "players": 2,
        "takeover": takeover,
        "seats": [
            {"engine": false},
            {"engine": false, "invite": true, "algorithm": "random", "movetime": 50},
        ],
    }));
    let link = |key: &str| {
        st["links"]
            .pointer(key)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    };
    (st["id"].as_u64().unwrap(), link("/host"), link("/seats/g"))
}

/// Waits (polling as the host) until `done` holds for game `id`.
fn until(gui: &Gui, id: u64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    gui.wait_for(id, Duration::from_secs(30), what, done)
}

#[test]
fn the_engine_stands_in_for_an_away_friend_until_they_come_back_or_leave() {
    let gui = Gui::start(&[]);
    let (id, host, guest) = friend_at_green(&gui, 2);
    let path = format!("/api/games/{id}");

    // Red plays; green's friend is not there: after 2 s the engine plays
    // green's turn, and red is to move again.
    play_turn(&gui, id, &host);
    let st = until(&gui, id, "the engine's turn for green", |s| {
        s["side"] == "r"
    });
    assert_eq!(st["seats"][1]["stand_in"], true, "{st}");
    assert_eq!(st["seats"][1]["stood_in"], json!([2]));
    let record = gui.get(&format!("{path}/record")).body;
    assert!(record.contains("g=person-unrated(engine:2)"), "{record}");

    // The friend comes back (any request of theirs), and plays their turn.
    let st = gui.get_as(&path, Some(&guest)).json();
    assert_eq!(st["seats"][1]["stand_in"], false, "{st}");
    play_turn(&gui, id, &host);
    let st = play_turn(&gui, id, &guest);
    assert_eq!(st["side"], "r");
    assert_eq!(
        st["seats"][1]["stood_in"],
        json!([2]),
        "the friend's own turn is theirs"
    );

    // Another's link cannot leave for the friend; the friend leaves for
    // good: the engine plays green to the end, whatever they ask.
    let r = gui.post_as(&format!("{path}/leave"), "", Some(&host));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = gui.post_as(&format!("{path}/leave"), "", Some(&guest));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["seats"][1]["left"], true);
    play_turn(&gui, id, &host);
    let st = gui.get_as(&path, Some(&guest)).json();
    assert_eq!(
        st["seats"][1]["stand_in"], true,
        "a friend who left is not back: {st}"
    );
    until(&gui, id, "the engine's turn after leaving", |s| {
        s["side"] == "r"
    });
    // Out of bounds: refused.
    let bad = json!({"players": 2, "takeover": 0, "seats": [{"engine": false}, {"engine": false}]});
    assert_eq!(gui.post("/api/games", &bad.to_string()).status, 422);
}

#[test]
fn a_friend_whose_tab_closes_during_a_long_poll_is_away_at_once() {
    use std::io::Write;
    let gui = Gui::start(&[]);
    let (id, host, guest) = friend_at_green(&gui, 1);
    let st = play_turn(&gui, id, &host);
    assert_eq!(st["side"], "g");
    // The friend's page waits for the next change (a long-poll of up
    // to 20 s), and its tab is closed.
    let mut tab = std::net::TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    write!(
        tab,
        "GET /api/games/{id}?since={} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
         Authorization: Bearer {guest}\r\n\r\n",
        st["version"], gui.port
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let closed = std::time::Instant::now();
    drop(tab);
    // Away from the close, not from the long-poll's end: the engine
    // plays green's turn after the table's 1 s (the server looks at a
    // waiting long-poll's connection every second).
    until(&gui, id, "the engine's turn for green", |s| {
        s["side"] == "r"
    });
    let took = closed.elapsed();
    assert!(took < Duration::from_secs(12), "taken over after {took:?}");
    assert_eq!(gui.state(id)["seats"][1]["stood_in"], json!([2]));
}
