//! `splut gui` bound beyond loopback (`--host`), reached by a public name
//! (`--public-name`): no shutdown from the page, the public name answered
//! to and no other, a rate per client; and no route that lets the page
//! choose a program, an option or a file.

use crate::support::gui::*;
use serde_json::json;
use std::time::Duration;

/// A game of two engines, the new-game body.
fn engines_body() -> String {
    json!({"players": 2, "seats": [{"engine": true}, {"engine": true}]}).to_string()
}

#[test]
fn the_page_cannot_stop_a_server_bound_beyond_loopback() {
    let gui = Gui::start(&["--host", "0.0.0.0"]);
    let r = request(gui.port, "POST", "/api/shutdown", &[], b"").unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        r.json()["error"].as_str().unwrap().contains("Ctrl-C"),
        "{}",
        r.body
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.get("/api/status").status, 200, "still serving");
    // Nor one on loopback behind a proxy (given a public name).
    let proxied = Gui::start(&["--public-name", "splut.example.org"]);
    let r = request(proxied.port, "POST", "/api/shutdown", &[], b"").unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    // On loopback alone it still stops.
    let mut local = Gui::start(&[]);
    local.shutdown();
}

#[test]
fn a_public_name_is_answered_to_and_no_other() {
    let gui = Gui::start(&[
        "--host",
        "0.0.0.0",
        "--public-name",
        "splut.example.org",
        "--public-name",
        "play.example.net:443",
    ]);
    let port = gui.port;
    let with_port = format!("splut.example.org:{port}");
    for host in ["splut.example.org", &with_port, "play.example.net:443"] {
        let r = request(port, "GET", "/api/status", &[("Host", host)], b"").unwrap();
        assert_eq!(r.status, 200, "{host}");
    }
    for host in [
        "evil.example.org",
        "play.example.net",
        "splut.example.org:1",
    ] {
        let r = request(port, "GET", "/api/status", &[("Host", host)], b"").unwrap();
        assert_eq!(r.status, 403, "{host}");
    }
    let body = engines_body();
    for origin in ["https://splut.example.org", "http://splut.example.org"] {
        let h = [("Host", "splut.example.org"), ("Origin", origin)];
        let r = request(port, "POST", "/api/games", &h, body.as_bytes()).unwrap();
        assert!(r.status < 300, "{origin}: {} {}", r.status, r.body);
        let id = r.json()["id"].as_u64().unwrap();
        let auth = format!("Bearer {}", r.json()["links"]["host"].as_str().unwrap());
        let h = [
            ("Host", "splut.example.org"),
            ("Authorization", auth.as_str()),
        ];
        let r = request(port, "DELETE", &format!("/api/games/{id}"), &h, b"").unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    for origin in [
        "https://evil.example.org",
        "https://splut.example.org.evil.org",
    ] {
        let h = [("Host", "splut.example.org"), ("Origin", origin)];
        let r = request(port, "POST", "/api/games", &h, body.as_bytes()).unwrap();
        assert_eq!(r.status, 403, "{origin}: {}", r.body);
    }
    // A name that is not one is refused at the start.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_splut"))
        .args(["gui", "--port", "0", "--public-name", "https://x.org/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--public-name"));
}

/// Up to `n` requests for the status from 127.0.0.1, one after another,
/// until one is refused 429: their statuses and its `Retry-After`.
fn burst(port: u16, n: usize) -> (Vec<u16>, Option<String>) {
    let mut statuses = Vec::new();
    for _ in 0..n {
        let r = request(port, "GET", "/api/status", &[], b"").unwrap();
        statuses.push(r.status);
        if r.status == 429 {
            return (statuses, r.header("Retry-After").map(str::to_string));
        }
    }
    (statuses, None)
}

#[test]
fn a_client_over_its_rate_is_told_to_wait_and_others_are_served() {
    // Bound to `::` (both IPv4 and IPv6 where the system has them), so a
    // second client can come from another address ([::1]); else to
    // 0.0.0.0 with one client.
    let dual = std::net::TcpListener::bind("[::1]:0").is_ok()
        && std::net::TcpListener::bind("[::]:0").is_ok();
    let gui = Gui::start(&["--host", if dual { "::" } else { "0.0.0.0" }]);
    let (statuses, retry) = burst(gui.port, 300);
    let ok = statuses.iter().filter(|&&s| s == 200).count();
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 429),
        "{statuses:?}"
    );
    assert!((100..300).contains(&ok), "{ok} of 300 served");
    let wait: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((1..=5).contains(&wait), "Retry-After: {wait}");
    if dual {
        let mut s = std::net::TcpStream::connect(("::1", gui.port)).unwrap();
        use std::io::{Read, Write};
        let head = format!(
            "GET /api/status HTTP/1.1\r\nHost: [::1]:{}\r\nConnection: close\r\n\r\n",
            gui.port
        );
        s.write_all(head.as_bytes()).unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "another client: {answer}"
        );
    }
    // After the wait, the same client is served again.
    std::thread::sleep(Duration::from_secs(wait));
    assert_eq!(gui.get("/api/status").status, 200);
}

#[test]
fn on_loopback_a_burst_is_not_limited() {
    // The person's own machine: the browser tests and the page's polls
    // never meet the rate.
    let gui = Gui::start(&[]);
    let (statuses, _) = burst(gui.port, 400);
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
}

#[test]
fn the_page_cannot_set_a_program_an_option_or_a_file() {
    let gui = Gui::start(&[]);
    let seat = |extra: serde_json::Value| {
        let mut s = json!({"engine": true});
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({"players": 2, "seats": [{"engine": true}, s]}).to_string()
    };
    let mut bodies = vec![
        seat(json!({"command": "sh -c id"})),
        seat(json!({"engine_command": ["sh"]})),
        seat(json!({"EvalFile": "/etc/passwd"})),
        seat(json!({"options": {"EvalFile": "/etc/passwd"}})),
        seat(json!({"setoption": "name EvalFile value /etc/passwd"})),
        seat(json!({"path": "/tmp/x"})),
    ];
    for extra in [
        json!({"engine": "sh"}),
        json!({"EvalFile": "/etc/passwd"}),
        json!({"db": "/tmp/x.sqlite"}),
        json!({"options": {"EvalFile": "x"}}),
    ] {
        let mut b: serde_json::Value = serde_json::from_str(&engines_body()).unwrap();
        b.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        bodies.push(b.to_string());
    }
    for body in &bodies {
        let r = gui.post("/api/games", body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
    }
    // Nor on a game's requests, nor by the algorithm or level.
    let id =
        gui.new_game(json!({"players": 2, "seats": [{"engine": false}, {"engine": true}]}))["id"]
            .as_u64()
            .unwrap();
    for (action, body) in [
        ("hint", r#"{"movetime":100,"EvalFile":"/etc/passwd"}"#),
        ("review", r#"{"movetime":100,"command":"sh"}"#),
        ("pace", r#"{"pace":"normal","path":"/tmp"}"#),
    ] {
        let r = gui.post(&format!("/api/games/{id}/{action}"), body);
        assert_eq!(r.status, 400, "{action} {body}: {}", r.body);
    }
    for seat in [
        json!({"engine": true, "algorithm": "/bin/sh"}),
        json!({"engine": true, "level": {"option": "EvalFile"}}),
        json!({"engine": true, "level": "EvalFile"}),
    ] {
        let body = json!({"players": 2, "seats": [{"engine": true}, seat]}).to_string();
        let r = gui.post("/api/games", &body);
        assert!(
            matches!(r.status, 400 | 422),
            "{body}: {} {}",
            r.status,
            r.body
        );
    }
    assert!(gui.engines() <= 1, "only the game's engine runs");
}
