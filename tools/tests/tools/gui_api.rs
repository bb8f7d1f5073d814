//! `splut gui`'s HTTP API against the real server on a loopback port.

use crate::support::gui::*;
use serde_json::json;
use std::time::Duration;

const START2: &str = "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -";

/// `splut gui` with an engine process per game (`--engine`, this
/// program), and `args`: the tests that count or kill engine processes.
fn with_processes(args: &[&str]) -> Gui {
    let splut = format!("'{}'", env!("CARGO_BIN_EXE_splut"));
    let all: Vec<&str> = ["--engine", splut.as_str()]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    Gui::start(&all)
}

fn person_vs_engine(gui: &Gui) -> u64 {
    let st = gui.new_game(json!({
        "players": 2,
        "seats": [{"engine": false}, {"engine": true, "algorithm": "alphabeta", "movetime": 50}],
    }));
    st["id"].as_u64().unwrap()
}

#[test]
fn a_person_plays_and_the_engine_replies() {
    let gui = Gui::start(&[]);
    let config = gui.get("/api/config").json();
    assert!(
        config["algorithms"]
            .as_array()
            .unwrap()
            .contains(&json!("alphabeta"))
    );
    let id = person_vs_engine(&gui);
    let st = gui.state(id);
    assert_eq!(st["spn"], START2);
    assert_eq!(st["side"], "r");
    assert_eq!(st["steps_left"], 1);
    assert_eq!(st["legal"], json!(["d2d3", "e2e3", "f2f3"]));

    // Illegal or malformed steps: 4xx, nothing changes.
    for bad in [
        r#"{"step":"e2e4"}"#,
        r#"{"step":"e8e7"}"#,
        r#"{"step":"pass"}"#,
        r#"{"step":""}"#,
        r#"{"step":"e2e3\nquit"}"#,
        r#"{"step":"e2e3 e3e4"}"#,
        r#"{"step":7}"#,
        r#"{"steps":"e2e3"}"#,
        "not json",
    ] {
        let r = gui.post(&format!("/api/games/{id}/step"), bad);
        assert!(
            (400..500).contains(&r.status),
            "{bad}: {} {}",
            r.status,
            r.body
        );
        assert!(r.json()["error"].is_string(), "{bad}: {}", r.body);
    }
    let after = gui.state(id);
    assert_eq!(after["version"], st["version"]);
    assert_eq!(after["spn"], START2);

    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["last_step"], "e2e3");
    // The person may not play the engine's turn.
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e8e7"}"#);
    assert_eq!(r.status, 409, "{}", r.body);

    // The engine replies with its 2-step turn; the board is the engine's.
    let st = gui.wait_for(id, Duration::from_secs(20), "the engine's reply", |s| {
        s["side"] == "r" && s["thinking"].is_null()
    });
    let steps = steps_of(&st);
    assert_eq!(steps.len(), 3, "{st}");
    assert_eq!(st["turns"][1]["seat"], "g");
    assert_eq!(st["steps_left"], 3);
    assert_eq!(st["spn"], engine_query(START2, &steps, "spn"));
    let legal = engine_query(START2, &steps, "legal");
    assert_eq!(
        st["legal"],
        json!(legal.split_whitespace().collect::<Vec<_>>())
    );

    // One step of the person's 3-step turn, then take back: the part-turn
    // goes first.
    let first = st["legal"][0].as_str().unwrap().to_string();
    let r = gui.post(
        &format!("/api/games/{id}/step"),
        &json!({ "step": first }).to_string(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let tb = r.json();
    assert_eq!(tb["spn"], st["spn"]);
    assert_eq!(steps_of(&tb), steps);
    // Then whole turns, back to the person's: the engine's and red's.
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let tb = r.json();
    assert_eq!(tb["spn"], START2);
    assert_eq!(tb["step_count"], 0);
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 409, "{}", r.body);
    // Red is to move: the engine stays quiet.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.state(id)["step_count"], 0);
}

#[test]
fn records_replay() {
    let gui = with_processes(&[]);
    let dir = std::env::temp_dir().join(format!("splut-gui-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let replay = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_splut"))
            .arg("replay")
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success() && stdout.contains("1 games, 1 valid"),
            "{name}: {stdout}\n{text}"
        );
    };

    // An unfinished game, cut in the middle of a turn.
    let id = person_vs_engine(&gui);
    gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e2e3"}"#);
    let st = gui.wait_for(id, Duration::from_secs(20), "the reply", |s| {
        s["side"] == "r" && s["thinking"].is_null()
    });
    let step = st["legal"][0].as_str().unwrap().to_string();
    gui.post(
        &format!("/api/games/{id}/step"),
        &json!({ "step": step }).to_string(),
    );
    let r = gui.get(&format!("/api/games/{id}/record"));
    assert_eq!(r.status, 200);
    assert!(
        r.header("Content-Disposition")
            .unwrap()
            .contains("attachment")
    );
    assert!(r.body.contains("[Reason turn limit 2]"), "{}", r.body);
    replay("unfinished.txt", &r.body);

    // A whole engine game, from an SPN, with 4 players.
    let st = gui.new_game(json!({
        "spn": "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -",
        "seats": [
            {"engine": true, "algorithm": "greedy", "movetime": 20},
            {"engine": true, "algorithm": "alphabeta", "movetime": 20},
            {"engine": true, "algorithm": "random", "movetime": 20},
            {"engine": true, "algorithm": "greedy", "movetime": 20},
        ],
    }));
    let id = st["id"].as_u64().unwrap();
    let st = gui.wait_for(id, Duration::from_secs(240), "the game's end", |s| {
        s["gameover"] == true
    });
    let winner = st["winner"].as_str().unwrap().to_string();
    let r = gui.get(&format!("/api/games/{id}/record"));
    assert!(
        r.body.contains("[Reason last sorcerer standing]"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(&format!("[Result {winner} >")),
        "{}",
        r.body
    );
    replay("finished.txt", &r.body);
    // The finished game needs no engine (the unfinished one keeps its
    // own); a take-back starts one again.
    gui.wait_engines(1, Duration::from_secs(5));
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let st = r.json();
    assert_eq!(st["gameover"], false);
    assert!(!st["legal"].as_array().unwrap().is_empty());
    assert_eq!(gui.delete(&format!("/api/games/{id}")).status, 200);
    gui.wait_engines(1, Duration::from_secs(5));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_and_hostile_requests_change_nothing() {
    let gui = Gui::start(&[]);
    let id = person_vs_engine(&gui);
    let before = gui.state(id);
    let port = gui.port;
    let step = br#"{"step":"e2e3"}"#;
    let path = format!("/api/games/{id}/step");

    // DNS rebinding: a Host that is not this server's.
    for host in [
        "evil.example:80",
        &format!("evil.example:{port}"),
        "127.0.0.1:1",
    ] {
        let r = request(port, "GET", "/api/status", &[("Host", host)], b"").unwrap();
        assert_eq!(r.status, 403, "{host}");
        let r = request(port, "POST", &path, &[("Host", host)], step).unwrap();
        assert_eq!(r.status, 403, "{host}");
    }
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        let r = request(port, "GET", "/api/status", &[("Host", &host)], b"").unwrap();
        assert_eq!(r.status, 200, "{host}");
    }
    // Another site's page may not change anything.
    for origin in [
        "http://evil.example",
        "null",
        &format!("http://localhost:{port}"),
    ] {
        let r = request(port, "POST", &path, &[("Origin", origin)], step).unwrap();
        assert_eq!(r.status, 403, "{origin}: {}", r.body);
        let r = request(
            port,
            "DELETE",
            &format!("/api/games/{id}"),
            &[("Origin", origin)],
            b"",
        )
        .unwrap();
        assert_eq!(r.status, 403, "{origin}");
    }
    // Too big.
    let huge = vec![b'x'; 100 * 1024];
    let r = request(port, "POST", "/api/games", &[], &huge).unwrap();
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].is_string());
    // Bad new games.
    for (body, status) in [
        ("{", 400),
        ("[]", 400),
        (r#"{"players":5,"seats":[]}"#, 422),
        (r#"{"seats":[]}"#, 400),
        (r#"{"players":2,"spn":"x","seats":[]}"#, 400),
        (r#"{"players":2,"seats":[{"engine":true}]}"#, 422),
        (
            r#"{"players":2,"seats":[{"engine":true},{"engine":true,"movetime":0}]}"#,
            422,
        ),
        (
            r#"{"players":2,"seats":[{"engine":true},{"engine":true,"algorithm":"rm -rf"}]}"#,
            422,
        ),
        (
            r#"{"players":2,"seats":[{"engine":true},{"engine":true}],"cmd":"sh"}"#,
            400,
        ),
        (
            r#"{"spn":"R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - -","seats":[]}"#,
            422,
        ),
        (
            r#"{"spn":"R/gTgDgS/5/7/R7R/7/5/rSrDrX/R r 1 1 - - -","seats":[]}"#,
            422,
        ),
    ] {
        let r = gui.post("/api/games", body);
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.json()["error"].is_string(), "{body}");
    }
    let r = gui.post("/api/games", r#"{"spn":"junk","seats":[]}"#);
    assert!(r.json()["error"].as_str().unwrap().starts_with("bad SPN"));
    // A refused game does not replace the one it was to replace.
    let r = gui.post(
        "/api/games",
        &json!({"spn": "junk", "seats": [], "replace": id}).to_string(),
    );
    assert_eq!(r.status, 422);
    // Unknown games, routes and parameters.
    assert_eq!(gui.get("/api/games/999").status, 404);
    assert_eq!(gui.get("/api/games/abc").status, 404);
    assert_eq!(gui.post("/api/games/999/step", "{}").status, 404);
    assert_eq!(gui.post(&format!("/api/games/{id}/fly"), "{}").status, 404);
    assert_eq!(gui.get(&format!("/api/games/{id}?since=x")).status, 400);
    assert_eq!(gui.get("/api/nothing").status, 404);
    assert_eq!(gui.get("/../../etc/passwd").status, 404);
    // Garbage on the socket does not stop the server.
    {
        use std::io::Write;
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let _ = s.write_all(b"\x00\x01GARBAGE\r\n\r\n");
    }
    let after = gui.state(id);
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["spn"], before["spn"]);
    assert_eq!(gui.get("/api/status").json()["games"], 1);
    // The page is served, with a policy that keeps other scripts out.
    let page = gui.get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg id=\"board\""));
    assert!(
        page.header("Content-Security-Policy")
            .unwrap()
            .contains("default-src 'self'")
    );
    // Every file of the page, each with its type: a module runs only
    // with a script's.
    for (name, kind, _) in splut_board::page::FILES {
        let r = gui.get(&format!("/{name}"));
        assert_eq!(r.status, 200, "{name}");
        assert_eq!(r.header("Content-Type"), Some(kind), "{name}");
    }
    assert_eq!(gui.get("/style.css").status, 200);
    assert!(
        gui.get("/main.js")
            .header("Content-Type")
            .is_some_and(|t| t.starts_with("text/javascript"))
    );
}

#[test]
fn engine_processes_end_with_their_games() {
    let mut gui = with_processes(&["--abandon-after", "3"]);
    assert_eq!(gui.engines(), 0);
    let a = person_vs_engine(&gui);
    let b = person_vs_engine(&gui);
    let c = person_vs_engine(&gui);
    assert_eq!(gui.engines(), 3);
    // Closed.
    assert_eq!(gui.delete(&format!("/api/games/{a}")).status, 200);
    gui.wait_engines(2, Duration::from_secs(3));
    assert_eq!(gui.get(&format!("/api/games/{a}")).status, 404);
    // Replaced.
    let d = gui.new_game(json!({
        "players": 2, "replace": b,
        "seats": [{"engine": true, "movetime": 20}, {"engine": true, "movetime": 20}],
    }))["id"]
        .as_u64()
        .unwrap();
    gui.wait_engines(2, Duration::from_secs(3));
    // An engine game keeps playing while someone watches (polls) it.
    let st = gui.wait_for(d, Duration::from_secs(10), "some steps", |s| {
        s["step_count"].as_u64().unwrap() >= 3
    });
    assert!(st["error"].is_null());
    // Abandoned: nobody asks about c or d for 3 s.
    let _ = c;
    gui.wait_engines(0, Duration::from_secs(12));
    // The reaper closes the idle games one after another: a game whose
    // engine has already quit (d may have ended) can outlive the last
    // engine by a moment.
    let t0 = std::time::Instant::now();
    while gui.get("/api/status").json()["games"] != 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "games left after the reaper"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let zombies: Vec<_> = gui.children().into_iter().filter(|c| c.1 == 'Z').collect();
    assert!(zombies.is_empty(), "zombies: {zombies:?}");
    assert!(gui.children().is_empty(), "{:?}", gui.children());

    // A cap on games at once.
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(person_vs_engine(&gui));
    }
    let r = gui.post(
        "/api/games",
        &json!({"players": 2, "seats": [{"engine": false}, {"engine": false}]}).to_string(),
    );
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(gui.engines(), 8);
    // Shutdown stops them all.
    let pids = gui.child_pids();
    assert_eq!(pids.len(), 8, "{pids:?}");
    gui.shutdown();
    for p in pids {
        assert!(!running(p), "engine {p} outlived the server");
    }
}

#[test]
fn ctrl_c_stops_the_engines() {
    let mut gui = with_processes(&[]);
    person_vs_engine(&gui);
    person_vs_engine(&gui);
    let pids = gui.child_pids();
    assert_eq!(pids.len(), 2);
    let ok = std::process::Command::new("kill")
        .args(["-INT", &gui.child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let t0 = std::time::Instant::now();
    while gui.child.try_wait().unwrap().is_none() {
        assert!(t0.elapsed() < Duration::from_secs(10), "no exit on SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    }
    for p in pids {
        assert!(!running(p), "engine {p} outlived the server");
    }
}

#[test]
fn a_crashed_engine_is_reported_and_restarted() {
    let gui = with_processes(&[]);
    let id = person_vs_engine(&gui);
    let pid = gui.children()[0].0;
    std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    let st = gui.wait_for(id, Duration::from_secs(5), "the crash", |s| {
        s["error"].is_string()
    });
    assert!(
        st["error"].as_str().unwrap().contains("engine crashed"),
        "{st}"
    );
    assert_eq!(st["engine_running"], false);
    assert_eq!(gui.engines(), 0);
    assert!(
        gui.children().is_empty(),
        "not reaped: {:?}",
        gui.children()
    );
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 409, "{}", r.body);
    let r = gui.post(&format!("/api/games/{id}/restart"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["error"].is_null());
    assert_eq!(gui.engines(), 1);
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 200, "{}", r.body);

    // An engine command that is not an engine: the page is told.
    let bad = Gui::start(&["--engine", "/nonexistent/engine"]);
    let cfg = bad.get("/api/config").json();
    assert!(
        cfg["engine_error"]
            .as_str()
            .unwrap()
            .contains("cannot start")
    );
    let r = bad.post(
        "/api/games",
        &json!({"players": 2, "seats": [{"engine": false}, {"engine": false}]}).to_string(),
    );
    assert_eq!(r.status, 502, "{}", r.body);
    assert_eq!(bad.engines(), 0);
}

#[test]
fn engines_end_even_when_the_server_is_killed() {
    // No chance to clean up: the engines see the end of their input and
    // quit by themselves (protocol.md).
    let mut gui = with_processes(&[]);
    person_vs_engine(&gui);
    person_vs_engine(&gui);
    let pids = gui.child_pids();
    assert_eq!(pids.len(), 2);
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();
    let t0 = std::time::Instant::now();
    while pids.iter().any(|&p| running(p)) {
        assert!(
            t0.elapsed() < Duration::from_secs(8),
            "engines outlived a killed server"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_preview_is_the_start_a_new_game_gets() {
    let gui = Gui::start(&[]);
    for (players, seats) in [
        (2, json!(["r", "g"])),
        (3, json!(["r", "y", "g"])),
        (4, json!(["r", "y", "g", "b"])),
    ] {
        let r = gui.get(&format!("/api/preview?players={players}"));
        assert_eq!(r.status, 200, "{}", r.body);
        let p = r.json();
        assert_eq!(p["seats"], seats);
        assert_eq!(p["side"], "r");
        let engines: Vec<_> = (0..players).map(|_| json!({"engine": false})).collect();
        let st = gui.new_game(json!({ "players": players, "seats": engines }));
        assert_eq!(p["spn"], st["start"], "{players} players");
        assert_eq!(p["spn"], st["spn"]);
        gui.delete(&format!("/api/games/{}", st["id"]));
    }
    // An SPN as the page sends it (encodeURIComponent), and as a form would.
    let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
    for q in [
        spn.replace('/', "%2F").replace(' ', "%20"),
        spn.replace(' ', "+"),
    ] {
        let r = gui.get(&format!("/api/preview?spn={q}"));
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        assert_eq!(r.json()["spn"], spn);
        assert_eq!(r.json()["seats"], json!(["r", "g"]));
    }
    // Checked like a new game; a preview starts no game and no engine.
    for (q, status) in [
        ("", 400),
        ("players=5", 422),
        ("players=two", 422),
        ("players=2&spn=R", 400),
        ("spn=junk", 422),
        (
            "spn=R%2FgTgDgS%2F5%2F7%2FR7R%2F7%2F5%2FrSrDrX%2FR%20r%201%201%20-%20-%20-",
            422,
        ),
        ("spn=%E2%28", 400),
        ("engine=sh", 400),
    ] {
        let r = gui.get(&format!("/api/preview?{q}"));
        assert_eq!(r.status, status, "{q}: {}", r.body);
        assert!(r.json()["error"].is_string(), "{q}: {}", r.body);
    }
    let r = gui.get("/api/preview?spn=junk");
    assert!(r.json()["error"].as_str().unwrap().starts_with("bad SPN"));
    assert_eq!(gui.post("/api/preview", "{}").status, 404);
    let status = gui.get("/api/status").json();
    assert_eq!(
        (status["games"].as_u64(), status["engines"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn the_engine_pauses_between_its_steps_as_told() {
    // The tests' servers play at full speed.
    assert_eq!(Gui::start(&[]).get("/api/config").json()["step_pause"], 0);
    // Bounds: 0 to 5000 ms.
    for bad in ["5001", "-1", "x"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_splut"))
            .args(["gui", "--port", "0", &format!("--step-pause={bad}")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--step-pause {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--step-pause"));
    }

    let pause = 600;
    let gui = Gui::start(&["--step-pause", &pause.to_string()]);
    assert_eq!(gui.get("/api/config").json()["step_pause"], pause);
    let id = person_vs_engine(&gui);
    let r = gui.post(&format!("/api/games/{id}/step"), r#"{"step":"e2e3"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    // Green's 2-step turn: when each step is first seen.
    let seen = when_seen(&gui, id, [2, 3]);
    let gap = seen[1] - seen[0];
    // The pause, less what a busy machine may take from the first
    // step's long-poll answer.
    assert!(
        gap >= Duration::from_millis(pause * 3 / 4),
        "{} ms between the engine's steps, {pause} ms asked",
        gap.as_millis()
    );
    println!(
        "engine steps {} ms apart with --step-pause {pause}",
        gap.as_millis()
    );
    // Engines only: the pause comes before the first step of a turn too
    // (Red's 1-step turn, then Green's first step), so the turns do not
    // run together.
    let id = engines_game(&gui, "normal");
    let seen = when_seen(&gui, id, [1, 2]);
    let gap = seen[1] - seen[0];
    assert!(
        gap >= Duration::from_millis(pause * 3 / 4),
        "{} ms between two engines' turns, {pause} ms asked",
        gap.as_millis()
    );
}

/// When the game `id` was first seen with at least each of `counts` steps
/// played (long-polling its state).
fn when_seen<const N: usize>(gui: &Gui, id: u64, counts: [u64; N]) -> [std::time::Instant; N] {
    let t0 = std::time::Instant::now();
    let mut seen = [None; N];
    let mut st = gui.state(id);
    loop {
        let n = st["step_count"].as_u64().unwrap();
        for (k, want) in counts.iter().enumerate() {
            if n >= *want && seen[k].is_none() {
                seen[k] = Some(std::time::Instant::now());
            }
        }
        if seen.iter().all(Option::is_some) {
            return seen.map(Option::unwrap);
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no reply: {st}");
        let v = st["version"].as_u64().unwrap();
        st = gui.get(&format!("/api/games/{id}?since={v}")).json();
    }
}

/// An engines-only 2-player game at `pace`.
fn engines_game(gui: &Gui, pace: &str) -> u64 {
    let seat = json!({"engine": true, "algorithm": "alphabeta", "movetime": 20});
    let st = gui.new_game(json!({"players": 2, "seats": [seat, seat], "pace": pace}));
    st["id"].as_u64().unwrap()
}

#[test]
fn the_pace_of_the_engines_steps_is_set_per_game() {
    let gui = Gui::start(&[]);
    // Step by step: nothing is played until `next`, then one step each.
    let id = engines_game(&gui, "step");
    let st = gui.wait_for(id, Duration::from_secs(10), "a step waiting", |s| {
        s["waiting"] == true
    });
    assert_eq!(st["pace"], "step");
    assert_eq!(st["step_count"], 0);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.state(id)["step_count"], 0, "played without next");
    for n in 1..=3 {
        let r = gui.post(&format!("/api/games/{id}/next"), "");
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["step_count"], n, "{}", r.body);
        gui.wait_for(id, Duration::from_secs(10), "the next step waiting", |s| {
            s["waiting"] == true
        });
        assert_eq!(gui.state(id)["step_count"], n);
    }
    // A take-back while a step waits: the game goes back, the engine
    // plays on from there (waiting again).
    let r = gui.post(&format!("/api/games/{id}/takeback"), "");
    assert_eq!(r.status, 200, "{}", r.body);
    let st = gui.wait_for(id, Duration::from_secs(10), "waiting again", |s| {
        s["waiting"] == true
    });
    assert!(st["step_count"].as_u64().unwrap() < 3, "{st}");
    // No pause: the game runs on at once.
    let r = gui.post(&format!("/api/games/{id}/pace"), r#"{"pace": "none"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["pace"], "none");
    gui.wait_for(id, Duration::from_secs(20), "the game running on", |s| {
        s["step_count"].as_u64().unwrap() >= 6
    });
    assert_eq!(gui.state(id)["waiting"], false);
    // `next` with nothing waiting is a conflict; bad paces are refused.
    let r = gui.post(&format!("/api/games/{id}/next"), "");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("no engine step is waiting"), "{}", r.body);
    for (body, status) in [
        (r#"{"pace": "fast"}"#, 400),
        (r#"{"pace": 3}"#, 400),
        ("{}", 400),
        ("x", 400),
        (r#"{"pace": "slow", "x": 1}"#, 400),
    ] {
        let r = gui.post(&format!("/api/games/{id}/pace"), body);
        assert_eq!(r.status, status, "{body}: {}", r.body);
    }
    let r = gui.post("/api/games/999/pace", r#"{"pace": "slow"}"#);
    assert_eq!(r.status, 404, "{}", r.body);
    // The default pace, and a bad one at the start.
    let id = person_vs_engine(&gui);
    assert_eq!(gui.state(id)["pace"], "normal");
    let r = gui.post(
        "/api/games",
        r#"{"players": 2, "seats": [{"engine": false}, {"engine": true}], "pace": "warp"}"#,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    // Slow: at least 1.2 s before each engine step but the game's first
    // (Red's turn, then Green's two steps).
    let id = engines_game(&gui, "slow");
    let t0 = std::time::Instant::now();
    gui.wait_for(id, Duration::from_secs(20), "three steps", |s| {
        s["step_count"].as_u64().unwrap() >= 3
    });
    assert!(
        t0.elapsed() >= Duration::from_millis(2400),
        "{:?}",
        t0.elapsed()
    );
}
