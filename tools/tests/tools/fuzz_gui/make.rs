//! Hostile requests: HTTP requests built as a hostile browser or client
//! would send them, from the API's own routes and bodies, then mutated at
//! every level (method, target, version, headers, framing, body). Each
//! request says whether it is still well-formed HTTP/1.1: a well-formed
//! one must get a well-formed answer, a broken one may only be refused or
//! have its connection closed.

use super::rng::Rng;

/// One request, as it goes on the wire.
#[derive(Clone, Debug)]
pub struct Req {
    pub method: Vec<u8>,
    pub target: Vec<u8>,
    pub version: Vec<u8>,
    /// Header lines, without their CRLF.
    pub headers: Vec<Vec<u8>>,
    /// The body as sent (already chunk-encoded if it is).
    pub body: Vec<u8>,
    /// Well-formed HTTP: an answer is owed, and a well-formed one.
    pub wellformed: bool,
    /// Its version is an HTTP version other than 1.0 and 1.1 (a 505 is
    /// the right answer).
    pub newer_http: bool,
    /// What was done to it, for the log.
    pub label: String,
}

/// The API's actions on a game.
pub const ACTIONS: [&str; 9] = [
    "step", "takeback", "restart", "hint", "review", "pace", "next", "join", "leave",
];

impl Req {
    /// A well-formed request to this server (`Host` its own, a
    /// `Content-Length` for a body, `Connection: close`).
    pub fn new(port: u16, method: &str, target: &str, body: &[u8]) -> Req {
        let mut headers = vec![
            format!("Host: 127.0.0.1:{port}").into_bytes(),
            b"Connection: close".to_vec(),
        ];
        if !body.is_empty() || method == "POST" {
            headers.push(b"Content-Type: application/json".to_vec());
            headers.push(format!("Content-Length: {}", body.len()).into_bytes());
        }
        Req {
            method: method.as_bytes().to_vec(),
            target: target.as_bytes().to_vec(),
            version: b"HTTP/1.1".to_vec(),
            headers,
            body: body.to_vec(),
            // A hostile id may hold a space or be empty.
            wellformed: !target.is_empty() && target.bytes().all(|b| b.is_ascii_graphic()),
            newer_http: false,
            label: String::new(),
        }
    }

    /// The bytes on the wire.
    pub fn bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.body.len() + 256);
        b.extend_from_slice(&self.method);
        b.push(b' ');
        b.extend_from_slice(&self.target);
        b.push(b' ');
        b.extend_from_slice(&self.version);
        b.extend_from_slice(b"\r\n");
        for h in &self.headers {
            b.extend_from_slice(h);
            b.extend_from_slice(b"\r\n");
        }
        b.extend_from_slice(b"\r\n");
        b.extend_from_slice(&self.body);
        b
    }

    /// Whether this is a HEAD request (no body in the answer).
    pub fn is_head(&self) -> bool {
        self.method.eq_ignore_ascii_case(b"HEAD")
    }

    fn drop_header(&mut self, name: &str) {
        self.headers.retain(|h| !starts_ci(h, name));
    }

    /// `Content-Length` set to the body's length again.
    pub fn set_length(&mut self) {
        self.drop_header("Content-Length:");
        self.headers
            .push(format!("Content-Length: {}", self.body.len()).into_bytes());
    }

    fn note(&mut self, what: &str) {
        if !self.label.is_empty() {
            self.label.push_str(", ");
        }
        self.label.push_str(what);
    }

    /// The request line and first headers, escaped, for the log.
    pub fn summary(&self) -> String {
        format!(
            "{} {} {} [{} headers, {} body bytes: {}]{}",
            super::wire::escape(&self.method, 24),
            super::wire::escape(&self.target, 120),
            super::wire::escape(&self.version, 16),
            self.headers.len(),
            self.body.len(),
            super::wire::escape(&self.body, 80),
            if self.label.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.label)
            }
        )
    }

    /// Whether the server would read this as the shutdown request (which
    /// the fuzzer sends only at the end).
    pub fn is_shutdown(&self) -> bool {
        let m = String::from_utf8_lossy(&self.method).to_ascii_uppercase();
        let t = String::from_utf8_lossy(&self.target);
        let path = t.split('?').next().unwrap_or("");
        m.trim() == "POST" && path.trim_start_matches('/').contains("shutdown")
    }
}

fn starts_ci(h: &[u8], prefix: &str) -> bool {
    h.len() >= prefix.len() && h[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// What the generators know of the server's state.
pub struct Known<'a> {
    pub ids: &'a [u64],
    pub max_id: u64,
    pub spns: &'a [String],
    pub records: &'a [String],
    pub algorithms: &'a [String],
}

impl Known<'_> {
    /// A game id: a known one, a near one, or a hostile one.
    pub fn id(&self, rng: &mut Rng) -> String {
        match rng.below(10) {
            0..=5 if !self.ids.is_empty() => rng.pick(self.ids).to_string(),
            0..=6 => rng.range(1, self.max_id + 3).to_string(),
            7 => rng
                .pick(&[
                    "0",
                    "-1",
                    "18446744073709551615",
                    "18446744073709551616",
                    "99999999999999999999999999",
                    "1e3",
                    "0x1",
                    "+1",
                    " 1",
                    "%31",
                    "1.0",
                    "",
                    "abc",
                    "..",
                    "%00",
                ])
                .to_string(),
            _ => format!("{}", rng.next_u64() % 1000),
        }
    }

    fn spn(&self, rng: &mut Rng) -> String {
        if self.spns.is_empty() || rng.chance(20) {
            return "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -".into();
        }
        rng.pick(self.spns).clone()
    }
}

/// `%XX` for every byte but unreserved ones.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A route of the API (never the shutdown), with a body that suits it.
pub fn route(rng: &mut Rng, k: &Known) -> (String, String, Vec<u8>) {
    let id = k.id(rng);
    match rng.below(16) {
        0 => ("GET".into(), "/".into(), vec![]),
        1 => (
            "GET".into(),
            rng.pick(&[
                "/index.html",
                "/app.js",
                "/narrate.js",
                "/style.css",
                "/host.js",
            ])
            .to_string(),
            vec![],
        ),
        2 => (
            "GET".into(),
            rng.pick(&["/api/config", "/api/status"]).to_string(),
            vec![],
        ),
        3 => {
            let q = if rng.chance(50) {
                format!("players={}", rng.below(6))
            } else {
                format!("spn={}", encode(&k.spn(rng)))
            };
            ("GET".into(), format!("/api/preview?{q}"), vec![])
        }
        4 => {
            let seat = rng.pick(&["r", "g", "y", "b", "x", ""]);
            (
                "GET".into(),
                format!("/api/threats?spn={}&seat={seat}", encode(&k.spn(rng))),
                vec![],
            )
        }
        5 | 6 => ("POST".into(), "/api/games".into(), new_game_body(rng, k)),
        7 => ("GET".into(), format!("/api/games/{id}"), vec![]),
        8 => (
            "GET".into(),
            format!("/api/games/{id}?since={}", rng.below(40)),
            vec![],
        ),
        9 if rng.chance(25) => {
            // The finished games kept (the store's history).
            let path = match rng.below(5) {
                0 => "/api/history".to_string(),
                1 => format!("/api/history/{id}/record"),
                2 => format!("/api/history/{id}"),
                3 => format!("/api/history?{}", history_query(rng, &id)),
                _ => format!("/api/history/{}/record", rng.below(1 << 20)),
            };
            ("GET".into(), path, vec![])
        }
        9 if rng.chance(35) => lobby_route(rng, &id),
        9 => (
            "GET".into(),
            format!(
                "/api/games/{id}/{}",
                rng.pick(&["positions", "record", "step", "x"])
            ),
            vec![],
        ),
        10 => ("DELETE".into(), format!("/api/games/{id}"), vec![]),
        // Near the shutdown, never it: another method, path or case.
        11 if rng.chance(20) => {
            let (m, p) = *rng.pick(&[
                ("GET", "/api/shutdown"),
                ("PUT", "/api/shutdown"),
                ("DELETE", "/api/shutdown"),
                ("GET", "/api/shutdown?now=1"),
            ]);
            (m.into(), p.into(), vec![])
        }
        _ => {
            let action = *rng.pick(&ACTIONS);
            let body = action_body(rng, action);
            ("POST".into(), format!("/api/games/{id}/{action}"), body)
        }
    }
}

/// A history page's query: `before` and `limit`, plausible or not.
fn history_query(rng: &mut Rng, id: &str) -> String {
    let number = |rng: &mut Rng| {
        rng.pick(&[
            "0",
            "1",
            "2",
            "50",
            "51",
            "-1",
            "x",
            "",
            "99999999999999999999999",
            "18446744073709551615",
        ])
        .to_string()
    };
    match rng.below(4) {
        0 => format!("limit={}", number(rng)),
        1 => format!("before={id}"),
        2 => format!("before={}&limit={}", number(rng), number(rng)),
        _ => format!("before={id}&limit={}&before=1", number(rng)),
    }
}

/// The lobby: its list, a seat taken (plausibly or not), or a table
/// listed in it (a friend's seat, the engine soon standing in).
fn lobby_route(rng: &mut Rng, id: &str) -> (String, String, Vec<u8>) {
    match rng.below(4) {
        0 => ("GET".into(), "/api/lobby".into(), vec![]),
        1 | 2 => {
            let seat = rng.pick(&["r", "y", "g", "b", "x", "", "yy"]);
            let name = rng.pick(&[
                "Ann",
                "",
                "<b>x</b>",
                "a\u{1b}b",
                "xxxxxxxxxxxxxxxxxxxxxxxxxx",
            ]);
            let body = serde_json::json!({ "seat": seat, "name": name });
            (
                "POST".into(),
                format!("/api/lobby/{id}/sit"),
                body.to_string().into_bytes(),
            )
        }
        _ => {
            let body = serde_json::json!({
                "players": 2,
                "lobby": true,
                "takeover": rng.range(1, 3),
                "pace": "none",
                "seats": [
                    {"engine": false, "invite": true, "algorithm": "random", "movetime": 10},
                    {"engine": true, "algorithm": "random", "movetime": 10},
                ],
            });
            (
                "POST".into(),
                "/api/games".into(),
                body.to_string().into_bytes(),
            )
        }
    }
}

/// A plausible body for a game action.
pub fn action_body(rng: &mut Rng, action: &str) -> Vec<u8> {
    match action {
        "step" => {
            let step = rng.pick(&[
                "e2e3",
                "d2d3",
                "f2f3",
                "e8e7",
                "pass",
                "a1a1",
                "e2e3^e4",
                "",
                "e2e3 e3e4",
            ]);
            serde_json::json!({ "step": step }).to_string().into_bytes()
        }
        "join" => {
            let name = rng.pick(&[
                "Ann",
                "",
                "<script>x</script>",
                "a\u{1b}b",
                "xxxxxxxxxxxxxxxxxxxxxxxxxx",
            ]);
            serde_json::json!({ "name": name }).to_string().into_bytes()
        }
        "pace" => {
            let p = rng.pick(&["none", "normal", "slow", "step", "fast", ""]);
            serde_json::json!({ "pace": p }).to_string().into_bytes()
        }
        "hint" | "review" => {
            if rng.chance(30) {
                Vec::new()
            } else {
                let ms = rng.pick(&[0u64, 9, 10, 20, 10_001, u64::MAX]);
                serde_json::json!({ "movetime": ms })
                    .to_string()
                    .into_bytes()
            }
        }
        _ => Vec::new(),
    }
}

/// A new game's body as the page sends it (its clock, when it has
/// one, sometimes just past its bounds: refused, 422).
pub fn new_game_body(rng: &mut Rng, k: &Known) -> Vec<u8> {
    let players = rng.range(2, 4);
    let seat = |rng: &mut Rng| {
        if rng.chance(50) {
            serde_json::json!({"engine": false})
        } else {
            let algo = if k.algorithms.is_empty() {
                "auto".to_string()
            } else {
                rng.pick(k.algorithms).clone()
            };
            serde_json::json!({"engine": true, "algorithm": algo, "movetime": rng.range(10, 30)})
        }
    };
    let seats: Vec<_> = (0..players).map(|_| seat(rng)).collect();
    let v = match rng.below(6) {
        0 if !k.records.is_empty() => serde_json::json!({"record": rng.pick(k.records)}),
        1 => serde_json::json!({"spn": k.spn(rng), "seats": seats}),
        2 => {
            // People on clocks (the engine finishes a turn whose clock ran
            // out); its numbers at and past their bounds.
            let base = rng.pick(&[10u64, 11, 60, 36_000, 9, 36_001]);
            let increment = rng.pick(&[0u64, 1, 600, 601]);
            serde_json::json!({"players": players, "seats": seats, "pace": "none",
                "clock": {"base": base, "increment": increment}})
        }
        _ => serde_json::json!({"players": players, "seats": seats, "pace": "none"}),
    };
    v.to_string().into_bytes()
}

/// A value a field should never hold.
pub fn hostile_value(rng: &mut Rng) -> serde_json::Value {
    use serde_json::json;
    match rng.below(16) {
        0 => json!(null),
        1 => json!(true),
        2 => json!(-1),
        3 => json!(u64::MAX),
        4 => json!(i64::MIN),
        5 => json!(1.5e300),
        6 => json!(-0.0),
        7 => json!("x".repeat(rng.range(1, 60_000) as usize)),
        8 => json!([]),
        9 => json!({}),
        10 => json!([[[[[[1]]]]]]),
        11 => json!("\u{0}\u{feff}\u{202e}e2e3\n"),
        12 => json!({"engine": true, "algorithm": "auto", "movetime": 10}),
        13 => json!(vec![json!({"engine": false}); rng.range(0, 2000) as usize]),
        14 => json!("e2e3 ".repeat(rng.range(1, 5000) as usize)),
        _ => json!(rng.next_u64() % 100_000),
    }
}

/// Mutates a JSON body: a field's value replaced, a field added or
/// dropped, or the text broken (cut, bytes flipped, invalid UTF-8, deep
/// nesting, huge numbers and strings).
pub fn mutate_body(rng: &mut Rng, body: &[u8]) -> (Vec<u8>, String) {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    match rng.below(14) {
        0..=3 if parsed.as_ref().is_some_and(|v| v.is_object()) => {
            edit_fields(rng, parsed.unwrap())
        }
        4 => {
            let n = rng.range(1, 120_000) as usize;
            let open = if rng.chance(50) { "[" } else { "{\"a\":" };
            (open.repeat(n).into_bytes(), format!("{n} deep"))
        }
        5 => {
            let n = rng.range(300, 70_000) as usize;
            let num = format!("{{\"players\": {}}}", "9".repeat(n));
            (num.into_bytes(), format!("{n}-digit number"))
        }
        k @ 6..=8 => broken_bytes(rng, body, k),
        k @ 9..=12 => odd_document(rng, body, k),
        _ => {
            let n = rng.range(1, 3000) as usize;
            let b: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            (b, "random bytes".into())
        }
    }
}

/// Edits a JSON object body's fields: one dropped, set, replaced (or a
/// seat's field set) or added; the body and what was done.
fn edit_fields(rng: &mut Rng, mut v: serde_json::Value) -> (Vec<u8>, String) {
    let o = v.as_object_mut().unwrap();
    let keys: Vec<String> = o.keys().cloned().collect();
    let what = match rng.below(4) {
        0 if !keys.is_empty() => {
            let key = rng.pick(&keys).clone();
            o.remove(&key);
            format!("field {key} dropped")
        }
        1 => {
            let key = rng
                .pick(&[
                    "players",
                    "spn",
                    "record",
                    "moves",
                    "seats",
                    "replace",
                    "pace",
                    "step",
                    "movetime",
                    "cmd",
                    "engine",
                    "__proto__",
                ])
                .to_string();
            o.insert(key.clone(), hostile_value(rng));
            format!("field {key} set")
        }
        _ if !keys.is_empty() => {
            let key = rng.pick(&keys).clone();
            // Inside the seats too.
            if key == "seats"
                && let Some(seats) = o.get_mut("seats").and_then(|s| s.as_array_mut())
                && !seats.is_empty()
            {
                edit_seat(rng, seats)
            } else {
                o.insert(key.clone(), hostile_value(rng));
                format!("field {key} replaced")
            }
        }
        _ => {
            o.insert("x".into(), hostile_value(rng));
            "field x added".into()
        }
    };
    (v.to_string().into_bytes(), what)
}

/// Sets a field of one seat of a body's `seats` to an odd or hostile
/// value; what was done.
fn edit_seat(rng: &mut Rng, seats: &mut [serde_json::Value]) -> String {
    let i = rng.below(seats.len());
    let f = rng
        .pick(&["engine", "algorithm", "movetime", "level", "x"])
        .to_string();
    let val = match rng.below(3) {
        0 => serde_json::json!({ "elo": rng.next_u64() as i64 }),
        1 => serde_json::json!({ "skill": -3, "elo": 1500 }),
        _ => hostile_value(rng),
    };
    if let Some(s) = seats[i].as_object_mut() {
        s.insert(f.clone(), val);
    }
    format!("seat {i} field {f} set")
}

/// Breaks a body's bytes: cut (6), invalid UTF-8 and escapes put in (7),
/// or bytes flipped (8); the bytes and what was done.
fn broken_bytes(rng: &mut Rng, body: &[u8], k: usize) -> (Vec<u8>, String) {
    match k {
        6 => {
            let mut b = body.to_vec();
            if !b.is_empty() {
                b.truncate(rng.below(b.len()));
            }
            (b, "cut".into())
        }
        7 => {
            let mut b = body.to_vec();
            let bad: &[u8] = rng.pick::<&[u8]>(&[
                &b"\xff"[..],
                &b"\xc3"[..],
                &b"\xc0\x80"[..],
                &b"\xed\xa0\x80"[..],
                &b"\xef\xbb\xbf"[..],
                &b"\x00"[..],
                &b"\\u0000"[..],
                &b"\\ud800"[..],
            ]);
            let at = rng.below(b.len() + 1);
            b.splice(at..at, bad.iter().copied());
            (b, "bad bytes".into())
        }
        _ => {
            let mut b = body.to_vec();
            for _ in 0..rng.range(1, 8) {
                if b.is_empty() {
                    break;
                }
                let i = rng.below(b.len());
                b[i] = rng.next_u64() as u8;
            }
            (b, "bytes flipped".into())
        }
    }
}

/// A body that is an odd document: duplicate keys or trailing text (9),
/// padded to the bound on a body or one past it (10), a huge string (11),
/// or a junk document (12); the bytes and what was done.
fn odd_document(rng: &mut Rng, body: &[u8], k: usize) -> (Vec<u8>, String) {
    match k {
        9 => {
            // Duplicate keys, trailing garbage, two documents.
            let t = String::from_utf8_lossy(body).into_owned();
            let s = match rng.below(3) {
                0 => t.replacen('{', "{\"players\":2,\"players\":3,", 1),
                1 => format!("{t}{t}"),
                _ => format!("{t} trailing"),
            };
            (s.into_bytes(), "duplicates or trailing".into())
        }
        10 => {
            let n = if rng.chance(50) {
                64 * 1024 - body.len().min(64 * 1024)
            } else {
                64 * 1024 + 1 - body.len().min(64 * 1024)
            };
            let mut b = vec![b' '; n];
            b.extend_from_slice(body);
            let what = format!("padded to {} bytes", b.len());
            (b, what)
        }
        11 => {
            let s = format!(
                "{{\"spn\": \"{}\", \"seats\": []}}",
                "R".repeat(rng.range(1, 60_000) as usize)
            );
            (s.into_bytes(), "huge string".into())
        }
        _ => {
            let s = rng.pick(&["", "null", "[]", "{}", "\"x\"", "0", "{\"\":1}", "{,}"]);
            (s.as_bytes().to_vec(), "junk document".into())
        }
    }
}

/// Mutates the request target: traversal, escapes, length, bytes.
pub fn mutate_target(rng: &mut Rng, r: &mut Req) {
    let t = String::from_utf8_lossy(&r.target).into_owned();
    let (new, keeps_http, what): (Vec<u8>, bool, &str) = match rng.below(12) {
        0 => (format!("/..{t}").into_bytes(), true, "traversal"),
        1 => (b"/../../../../etc/passwd".to_vec(), true, "traversal"),
        2 => (
            t.replace('/', "/%2e%2e/").into_bytes(),
            true,
            "encoded traversal",
        ),
        3 => (t.replace("api", "%61pi").into_bytes(), true, "escaped"),
        4 => {
            let n = rng.range(1000, 200_000) as usize;
            (format!("{t}/{}", "a".repeat(n)).into_bytes(), true, "long")
        }
        5 => {
            let n = rng.range(10, 5000) as usize;
            let q: Vec<String> = (0..n).map(|i| format!("p{i}={i}")).collect();
            (
                format!("{t}?{}", q.join("&")).into_bytes(),
                true,
                "many parameters",
            )
        }
        6 => (
            format!(
                "{t}{}",
                rng.pick(&[
                    "?%",
                    "?%ZZ",
                    "?spn=%FF",
                    "?since=%C3",
                    "?&&&",
                    "?=",
                    "??",
                    "#x"
                ])
            )
            .into_bytes(),
            true,
            "bad query",
        ),
        7 => {
            let mut b = t.into_bytes();
            let at = rng.below(b.len() + 1);
            let bad: &[u8] = rng.pick::<&[u8]>(&[
                &b"\xff"[..],
                &b"\xc3\xa9"[..],
                &b"\x00"[..],
                &b"\x7f"[..],
                &b"\t"[..],
            ]);
            b.splice(at..at, bad.iter().copied());
            (b, false, "raw bytes")
        }
        8 => (
            format!("http://127.0.0.1:{}{t}", 1).into_bytes(),
            true,
            "absolute form",
        ),
        9 => (b"*".to_vec(), true, "asterisk"),
        10 => (t.replace('/', "//").into_bytes(), true, "double slashes"),
        _ => (t.to_uppercase().into_bytes(), true, "upper case"),
    };
    // Over the server's bound on a line: refused, and the connection may
    // be cut before the refusal is read.
    r.wellformed &= keeps_http && new.len() < 15 * 1024;
    r.target = new;
    r.note(what);
}

/// Mutates the request line's method or version.
pub fn mutate_line(rng: &mut Rng, r: &mut Req) {
    if rng.chance(60) {
        let m = rng.pick(&[
            "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "CONNECT", "get",
            "post", "FOO",
        ]);
        r.method = m.as_bytes().to_vec();
        r.note(&format!("method {m}"));
        if rng.chance(10) {
            r.method = rng.pick(&[&b"G\x00T"[..], b"", b"\xffPOST"]).to_vec();
            r.wellformed = false;
            r.note("method garbage");
        }
        if rng.chance(5) {
            r.method = vec![b'A'; rng.range(100, 100_000) as usize];
            r.wellformed &= r.method.len() < 15 * 1024;
            r.note("long method");
        }
    } else {
        let v = *rng.pick(&[
            "HTTP/1.0",
            "HTTP/2.0",
            "HTTP/3.0",
            "HTTP/0.9",
            "HTTP/1.2",
            "http/1.1",
            "HTTP/1.1 x",
            "",
        ]);
        r.version = v.as_bytes().to_vec();
        r.newer_http = v.starts_with("HTTP/") && !v.contains(' ') && v != "HTTP/1.0";
        r.wellformed &= v == "HTTP/1.0";
        r.note(&format!("version '{v}'"));
    }
}

/// Mutates the headers: Host, Origin, lengths, chunking, size, bytes.
pub fn mutate_headers(rng: &mut Rng, r: &mut Req, port: u16) {
    match rng.below(14) {
        k @ 0..=1 => host_or_origin(rng, r, port, k),
        k @ 2..=4 => bad_length(rng, r, k),
        5 | 6 => chunked(rng, r),
        k @ 7..=8 => many_or_big(rng, r, k),
        k @ 9..=12 => odd_header(rng, r, k),
        _ => {
            r.headers.clear();
            r.wellformed = false;
            r.note("no headers");
        }
    }
}

/// A Host header dropped or changed (0), or an Origin header added (1).
fn host_or_origin(rng: &mut Rng, r: &mut Req, port: u16, k: usize) {
    match k {
        0 => {
            r.drop_header("Host:");
            if rng.chance(70) {
                let h = rng.pick(&[
                    "evil.example",
                    "127.0.0.1",
                    "localhost:1",
                    "",
                    "127.0.0.1:80\r\nX: y",
                ]);
                r.headers.push(format!("Host: {h}").into_bytes());
                r.wellformed &= !h.contains('\r');
            }
            r.note("Host");
        }
        _ => {
            let o = rng.pick(&[
                "null",
                "http://evil.example",
                "http://127.0.0.1",
                "file://",
                "",
            ]);
            let o = if rng.chance(30) {
                format!("http://127.0.0.1:{port}")
            } else {
                o.to_string()
            };
            r.headers.push(format!("Origin: {o}").into_bytes());
            r.note("Origin");
        }
    }
}

/// A Content-Length that is no number (2), that lies (3), or a second
/// one (4).
fn bad_length(rng: &mut Rng, r: &mut Req, k: usize) {
    match k {
        2 => {
            r.drop_header("Content-Length:");
            let v = rng.pick(&[
                "-1",
                "abc",
                "18446744073709551616",
                "99999999999999999999999",
                "1e3",
                " 5",
                "0x10",
                "",
            ]);
            r.headers.push(format!("Content-Length: {v}").into_bytes());
            r.wellformed = false;
            r.note("bad Content-Length");
        }
        3 => {
            // A length that lies: longer (the server waits, then the
            // input ends) or shorter (the rest reads as another request).
            r.drop_header("Content-Length:");
            let n = r.body.len() as u64;
            let v = if rng.chance(50) {
                n + rng.range(1, 100_000)
            } else {
                n.saturating_sub(rng.range(1, n.max(1)))
            };
            r.headers.push(format!("Content-Length: {v}").into_bytes());
            r.wellformed = false;
            r.note("Content-Length lies");
        }
        _ => {
            r.headers
                .push(format!("Content-Length: {}", rng.below(100)).into_bytes());
            r.wellformed = false;
            r.note("two Content-Lengths");
        }
    }
}

/// The body sent chunked: properly, or with odd sizes, extensions, no end.
fn chunked(rng: &mut Rng, r: &mut Req) {
    r.drop_header("Content-Length:");
    r.headers.push(b"Transfer-Encoding: chunked".to_vec());
    let body = std::mem::take(&mut r.body);
    let mut out = Vec::new();
    let mut ok = true;
    for piece in body.chunks(rng.range(1, 4096) as usize) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    match rng.below(6) {
        0 => {
            out.extend_from_slice(b"zz\r\n");
            ok = false;
        }
        1 => {
            out.extend_from_slice(b"ffffffffffffffffffff\r\nabc");
            ok = false;
        }
        2 => ok = false,
        3 => out.extend_from_slice(b"0;ext=1\r\nX-Trailer: 1\r\n\r\n"),
        4 => {
            out.extend_from_slice(b"7fffffff\r\n");
            ok = false;
        }
        _ => out.extend_from_slice(b"0\r\n\r\n"),
    }
    r.body = out;
    r.wellformed &= ok;
    r.note(if ok { "chunked" } else { "bad chunks" });
}

/// A header over the bound on a line or under it (7), or many headers
/// (8).
fn many_or_big(rng: &mut Rng, r: &mut Req, k: usize) {
    match k {
        7 => {
            let n = if rng.chance(50) {
                rng.range(1000, 15 * 1024)
            } else {
                rng.range(1000, 2 << 20)
            } as usize;
            r.headers
                .push(format!("X-Big: {}", "b".repeat(n)).into_bytes());
            // Over the server's bound on a line: refused, and the
            // connection may be cut before the refusal is read.
            r.wellformed &= n < 15 * 1024;
            r.note(&format!("{n}-byte header"));
        }
        _ => {
            let n = rng.range(100, 20_000) as usize;
            for i in 0..n {
                r.headers.push(format!("X-{i}: {i}").into_bytes());
            }
            r.note(&format!("{n} headers"));
        }
    }
}

/// A malformed header line (9), an Expect (10), a Connection with an
/// Upgrade (11), or another header the server does not act on (12).
fn odd_header(rng: &mut Rng, r: &mut Req, k: usize) {
    match k {
        9 => {
            let h: &[u8] = rng.pick::<&[u8]>(&[
                &b"no colon"[..],
                &b": empty name"[..],
                &b"X-\xff: v"[..],
                &b"X: \xc3\xa9"[..],
                &b" folded continuation"[..],
                &b"X Y: z"[..],
                &b"X:\x00"[..],
            ]);
            r.headers.push(h.to_vec());
            r.wellformed = false;
            r.note("bad header line");
        }
        10 => {
            let e = rng.pick(&["100-continue", "200-ok", "", "100-continue, x"]);
            r.headers.push(format!("Expect: {e}").into_bytes());
            r.wellformed &= *e == "100-continue";
            r.note("Expect");
        }
        11 => {
            r.drop_header("Connection:");
            let c = rng.pick(&["keep-alive", "upgrade", "Upgrade, close", "close", "x"]);
            r.headers.push(format!("Connection: {c}").into_bytes());
            r.headers.push(b"Upgrade: websocket".to_vec());
            // Valid HTTP: a server that does not upgrade answers as usual.
            r.note("Connection");
        }
        _ => {
            r.headers.push(
                rng.pick(&[
                    "Content-Type: text/plain",
                    "Content-Encoding: gzip",
                    "Transfer-Encoding: gzip",
                    "Accept: */*",
                    "Cookie: a=b",
                    "Range: bytes=0-1",
                ])
                .as_bytes()
                .to_vec(),
            );
            r.wellformed &= !r.headers.last().unwrap().starts_with(b"Transfer");
            r.note("extra header");
        }
    }
}

/// Raw junk on a socket: not HTTP at all.
pub fn junk(rng: &mut Rng) -> (Vec<u8>, String) {
    match rng.below(6) {
        0 => {
            let n = rng.range(1, 100_000) as usize;
            (
                (0..n).map(|_| rng.next_u64() as u8).collect(),
                format!("{n} random bytes"),
            )
        }
        1 => (b"\r\n\r\n\r\n".to_vec(), "empty lines".into()),
        2 => (
            vec![b'G'; rng.range(1000, 1 << 20) as usize],
            "a request line with no end".into(),
        ),
        3 => (
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03".to_vec(),
            "a TLS hello".into(),
        ),
        4 => (
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(),
            "an HTTP/2 preface".into(),
        ),
        _ => (b"GET /\r\n".to_vec(), "HTTP/0.9".into()),
    }
}
