//! Shared by the GUI tests: the real `splut gui` on a loopback port, and a
//! tiny HTTP/1.1 client over `TcpStream` (no extra dev-dependency).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A response.
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a fresh connection (`Connection: close`).
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Resp> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    // A huge body may be refused before it is all sent.
    let _ = s.write_all(body);
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line '{line}'")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let n = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk)?;
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        // Some servers (chromedriver) keep the connection open anyway.
        body.resize(n, 0);
        r.read_exact(&mut body)?;
    } else {
        r.read_to_end(&mut body)?;
    }
    Ok(Resp {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Starts the real binary's `splut gui --port 0` with `args` (stdout
/// piped, stderr as given) and reads the port from its first line; the
/// rest of stdout is the caller's to drain.
pub fn spawn(args: &[&str], stderr: Stdio) -> (Child, u16, BufReader<ChildStdout>) {
    spawn_on(0, args, stderr)
}

/// [`spawn`] on this port (0: any free one).
pub fn spawn_on(port: u16, args: &[&str], stderr: Stdio) -> (Child, u16, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_splut"))
        .args(["gui", "--port", &port.to_string()])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start splut gui");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|x| x.strip_suffix('/'))
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line: '{line}'"));
    (child, port, out)
}

/// The host tokens of the games the tests made, by server port and game
/// id (kept across a restart on the same port).
static TOKENS: std::sync::Mutex<Vec<((u16, u64), String)>> = std::sync::Mutex::new(Vec::new());

/// Keeps `token` as the host token of game `id` on the server at `port`
/// (a game the page made: its token is the page's).
pub fn keep_token(port: u16, id: u64, token: &str) {
    TOKENS.lock().unwrap().push(((port, id), token.to_string()));
}

/// The id of the game a path is about (`/api/games/<id>…`), if any.
pub fn game_in_path(path: &str) -> Option<u64> {
    path.strip_prefix("/api/games/")?
        .split(['/', '?'])
        .next()?
        .parse()
        .ok()
}

/// The host token of the game `path` is about (`/api/games/<id>…`), if a
/// test made it on the server at `port`.
pub fn host_token(port: u16, path: &str) -> Option<String> {
    let id = game_in_path(path)?;
    TOKENS
        .lock()
        .unwrap()
        .iter()
        .rev()
        .find(|(k, _)| *k == (port, id))
        .map(|(_, t)| t.clone())
}

/// The real binary's `splut gui --port 0`.
pub struct Gui {
    pub child: Child,
    pub port: u16,
}

impl Gui {
    /// `splut gui --port 0` with `args`; the engine plays its steps with
    /// no pause between them (`--step-pause 0`) unless `args` set one.
    pub fn start(args: &[&str]) -> Gui {
        let full_speed: &[&str] = if args.contains(&"--step-pause") {
            &[]
        } else {
            &["--step-pause", "0"]
        };
        let args: Vec<&str> = full_speed.iter().chain(args).copied().collect();
        let (child, port, _) = spawn(&args, Stdio::inherit());
        Gui { child, port }
    }

    /// As [`Gui::start`], on this port (a restart where the links point).
    pub fn start_on(port: u16, args: &[&str]) -> Gui {
        let args: Vec<&str> = ["--step-pause", "0"].iter().chain(args).copied().collect();
        let (child, port, _) = spawn_on(port, &args, Stdio::inherit());
        Gui { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// GET `path`, as the game's host when it is a game's (the token
    /// its new game was answered with).
    pub fn get(&self, path: &str) -> Resp {
        self.get_as(path, host_token(self.port, path).as_deref())
    }

    /// GET `path` with this token (none: no `Authorization`).
    pub fn get_as(&self, path: &str, token: Option<&str>) -> Resp {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        request(self.port, "GET", path, &headers, b"").expect("GET")
    }

    /// POST `path`, as the game's host when it is a game's; a new game's
    /// host token is kept for the requests about it.
    pub fn post(&self, path: &str, body: &str) -> Resp {
        // A new game that replaces one: the host of that one asks.
        let replaced = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|b| b["replace"].as_u64())
            .filter(|_| path == "/api/games")
            .map(|id| format!("/api/games/{id}"));
        let about = replaced.as_deref().unwrap_or(path);
        let r = self.post_as(path, body, host_token(self.port, about).as_deref());
        if path == "/api/games"
            && r.status == 201
            && let (Some(id), Some(t)) =
                (r.json()["id"].as_u64(), r.json()["links"]["host"].as_str())
        {
            TOKENS
                .lock()
                .unwrap()
                .push(((self.port, id), t.to_string()));
        }
        r
    }

    /// The host tokens of the games a server on `port` made, for this
    /// one (restarted on the same database).
    pub fn adopt_tokens(&self, port: u16) {
        let mut t = TOKENS.lock().unwrap();
        let theirs: Vec<_> = t.iter().filter(|((p, _), _)| *p == port).cloned().collect();
        t.extend(
            theirs
                .into_iter()
                .map(|((_, id), tok)| ((self.port, id), tok)),
        );
    }

    /// POST `path` with this token (none: no `Authorization`).
    pub fn post_as(&self, path: &str, body: &str, token: Option<&str>) -> Resp {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("Content-Type", "application/json")];
        headers.extend(auth.iter().map(|a| ("Authorization", a.as_str())));
        request(self.port, "POST", path, &headers, body.as_bytes()).expect("POST")
    }

    pub fn delete(&self, path: &str) -> Resp {
        let auth = host_token(self.port, path).map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        request(self.port, "DELETE", path, &headers, b"").expect("DELETE")
    }

    /// A new game; panics unless it was made.
    pub fn new_game(&self, body: serde_json::Value) -> serde_json::Value {
        let r = self.post("/api/games", &body.to_string());
        assert_eq!(r.status, 201, "new game: {}", r.body);
        r.json()
    }

    pub fn state(&self, id: u64) -> serde_json::Value {
        let r = self.get(&format!("/api/games/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    /// Polls the game until `done` holds (or panics after `limit`).
    pub fn wait_for(
        &self,
        id: u64,
        limit: Duration,
        what: &str,
        done: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let t0 = Instant::now();
        let mut st = self.state(id);
        while !done(&st) {
            assert!(t0.elapsed() < limit, "timed out waiting for {what}: {st}");
            let v = st["version"].as_u64().unwrap();
            let r = self.get(&format!("/api/games/{id}?since={v}"));
            assert_eq!(r.status, 200, "{}", r.body);
            st = r.json();
        }
        st
    }

    /// Live engine processes, as the server counts them.
    pub fn engines(&self) -> u64 {
        self.get("/api/status").json()["engines"].as_u64().unwrap()
    }

    /// Waits until the server counts `n` engines.
    pub fn wait_engines(&self, n: u64, limit: Duration) {
        let t0 = Instant::now();
        while self.engines() != n {
            assert!(
                t0.elapsed() < limit,
                "expected {n} engines, the server counts {}",
                self.engines()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The children of the server process in /proc: (pid, state letter).
    pub fn children(&self) -> Vec<(u32, char)> {
        children_of(self.child.id())
    }

    /// The process ids of the server's children (its engines).
    pub fn child_pids(&self) -> Vec<u32> {
        self.children().into_iter().map(|c| c.0).collect()
    }

    /// Asks the server to stop and waits for it.
    pub fn shutdown(&mut self) {
        let _ = request(self.port, "POST", "/api/shutdown", &[], b"");
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the server did not exit after /api/shutdown");
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = request(self.port, "POST", "/api/shutdown", &[], b"");
            std::thread::sleep(Duration::from_millis(300));
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Processes whose parent is `pid`, with their state (`Z` = zombie).
pub fn children_of(pid: u32) -> Vec<(u32, char)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(p) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            continue;
        };
        // After the command's closing parenthesis: state, then ppid.
        let Some(rest) = stat.rsplit_once(')').map(|x| x.1) else {
            continue;
        };
        let mut w = rest.split_whitespace();
        let state = w.next().and_then(|s| s.chars().next()).unwrap_or('?');
        if w.next().and_then(|x| x.parse::<u32>().ok()) == Some(pid) {
            out.push((p, state));
        }
    }
    out
}

/// Whether process `pid` still exists and is not a zombie.
pub fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|x| x.1.split_whitespace().next())
            .is_some_and(|s| s != "Z" && s != "X"),
        Err(_) => false,
    }
}

/// `query <q>` of the engine after `position spn <start> moves <steps>`,
/// asked of a fresh `splut` (the protocol itself).
pub fn engine_query(start: &str, steps: &[String], q: &str) -> String {
    let mut e = super::Engine::spawn();
    let moves = if steps.is_empty() {
        String::new()
    } else {
        format!(" moves {}", steps.join(" "))
    };
    e.send(&format!("position spn {start}{moves}"));
    e.query(q)
}

/// All the steps of a state, in order.
pub fn steps_of(st: &serde_json::Value) -> Vec<String> {
    st["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["steps"].as_array().unwrap().iter())
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The engine's level options, as a sed pattern.
const LEVEL_OPTIONS: &str = r"\(UCI_LimitStrength\|UCI_Elo\|Skill Level\|UCI_ShowWinProb\)";

/// An engine command for `--engine`: this binary behind a shell script
/// that hides its own level options, as an engine without levels would
/// show itself.
pub fn no_levels_engine(group: &str) -> String {
    let script = super::temp(group, "no-levels-engine.sh");
    let text = format!(
        "#!/bin/sh\n'{}' | sed -u -e '/^option name {LEVEL_OPTIONS} /d'\n",
        super::SPLUT
    );
    std::fs::write(&script, text).unwrap();
    format!("sh '{}'", script.display())
}

/// An engine command for `--engine`: this binary behind a shell script
/// that advertises level options of another range than its own
/// (`UCI_LimitStrength`, `UCI_Elo` 800–2400, `Skill Level` 0–20,
/// `UCI_ShowWinProb`, in place of the engine's), drops its errors about
/// them, and appends every line the GUI sends it to `log`.
pub fn levels_engine(group: &str, log: &std::path::Path) -> String {
    let script = super::temp(group, "levels-engine.sh");
    let options = [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 800 max 2400",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_ShowWinProb type check default false",
    ]
    .join("\\n");
    let text = format!(
        "#!/bin/sh\ntee -a '{}' | '{}' | sed -u -e '/^option name {LEVEL_OPTIONS} /d' -e 's/^ugiok$/{options}\\nugiok/' -e '/^info string error/d'\n",
        log.display(),
        super::SPLUT
    );
    std::fs::write(&script, text).unwrap();
    format!("sh '{}'", script.display())
}

/// The paths a file server was asked for, in order.
pub type Asked = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// Serves the files of `dir` (a plain static file server, as any host
/// would be) on a free port; every path requested is kept. The static
/// board's host in the browser tests (gui_browser.rs, web.rs).
pub fn static_server(dir: std::path::PathBuf) -> (u16, Asked) {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    let asked = Asked::default();
    let seen = asked.clone();
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let path = request.url().split('?').next().unwrap_or("").to_string();
            seen.lock().unwrap().push(path.clone());
            let name = path.trim_start_matches('/');
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js" | "mjs") => "text/javascript",
                Some("wasm") => "application/wasm",
                Some("css") => "text/css",
                _ => "application/octet-stream",
            };
            let file = dir.join(name);
            let response = match std::fs::read(&file) {
                Ok(bytes) if !name.contains("..") => tiny_http::Response::from_data(bytes)
                    .with_header(tiny_http::Header::from_bytes("Content-Type", kind).unwrap()),
                _ => tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404),
            };
            // Each answer on its own thread: a client that does not read
            // its answer must not hold up the others (the page's load).
            std::thread::spawn(move || {
                let _ = request.respond(response);
            });
        }
    });
    (port, asked)
}
