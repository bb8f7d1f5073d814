//! The board's HTTP API fuzzer: the real `splut gui` on a free loopback
//! port, its engine seats played by the real engine at fast settings,
//! driven by a few seeded client threads as hostile browsers would drive
//! it (`fuzz_gui/`: hostile requests, slow, dropped and pipelined
//! connections, junk, between legal games played deep). Checks: no 5xx
//! (but a 505 to a request of another HTTP version than 1.0 and 1.1, and the documented 503 of
//! a third hint or review at once), no panic on the server's stderr, a
//! health request answered after every hostile one, every answer
//! well-formed (status line, framing, JSON where the API promises it),
//! the server's memory within [`RSS_GROWTH_MIB`] of its start, its
//! threads and open files at most [`MAX_THREADS`] and [`MAX_FDS`], its child
//! processes (engines) at most [`MAX_CHILDREN`] and never a zombie for
//! long, none left once every game is closed, none alive after the
//! shutdown request (sent once, at the end).
//!
//! `cargo test` runs it for [`DEFAULT_SECS`] seconds with seed 1;
//! `SPLUT_GUI_FUZZ_SECS` and `SPLUT_GUI_FUZZ_SEED` set them (or
//! `scripts/fuzz-gui <seconds> [seed]`). A failure writes a report (seed,
//! the worker's last requests and answers, the server's stderr) under
//! `target/fuzz/`.

#[path = "../engine/fuzz/rng.rs"]
#[allow(dead_code)]
mod rng;

mod make;
mod play;
mod watch;
mod wire;

use play::{Failure, Pool, Shared, Stats, Worker};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use watch::Server;

/// Seconds of fuzzing under a plain `cargo test`.
const DEFAULT_SECS: f64 = 5.0;
/// Client threads.
const WORKERS: usize = 3;
/// Most the server's RSS may grow over its first sample, in MiB.
pub const RSS_GROWTH_MIB: u64 = 96;
/// Most child processes at once: 8 games' engines (the server's cap), 2
/// hints or reviews, and engines of closed games still quitting.
pub const MAX_CHILDREN: usize = 16;
/// Most threads of the server at once: one per open connection (the
/// clients keep a few), per game and per engine's pipes, with room to
/// spare; a thread lost per request (as tiny_http's on HTTP/2.0) passes it
/// in seconds.
pub const MAX_THREADS: u64 = 200;
/// Most open file descriptors of the server at once, likewise.
pub const MAX_FDS: usize = 400;
/// Full reports printed per failure kind (all are written to files).
const PRINTED_PER_KIND: usize = 1;

fn env_num(name: &str) -> Option<f64> {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
}

fn report_dir() -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().map_or(tmp.clone(), |t| t.join("fuzz"))
}

fn file_name(kind: &str) -> String {
    kind.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect()
}

/// Writes a failure's report; its text and path.
fn report(seed: u64, secs: f64, f: &Failure, stderr: &str, samples: &str) -> (String, PathBuf) {
    let mut text = format!(
        "splut gui fuzz failure: {}\n{}\n\nseed {seed}, worker {} (rerun: SPLUT_GUI_FUZZ_SEED={seed} \
         SPLUT_GUI_FUZZ_SECS={secs} cargo test --release --test tools fuzz_gui -- --nocapture; \
         the workers race each other and the engines, so a rerun may take another path)\n{samples}\n\n\
         the worker's last requests (>) and answers (<):\n",
        f.kind, f.detail, f.worker
    );
    for l in &f.log {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str("\nserver stderr (its end):\n");
    let lines: Vec<&str> = stderr.lines().collect();
    text.push_str(&lines[lines.len().saturating_sub(200)..].join("\n"));
    text.push('\n');
    let dir = report_dir();
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("gui-{}-seed{seed}.txt", file_name(&f.kind)));
    let _ = std::fs::write(&path, &text);
    (text, path)
}

fn failure(kind: &str, detail: String) -> Failure {
    Failure {
        kind: kind.to_string(),
        detail,
        worker: 0,
        log: Vec::new(),
    }
}

/// Watches the server while the workers run: alive, no panic, memory and
/// children within their bounds, no zombie kept.
fn watch(server: &mut Server, sh: &Shared, done: &AtomicBool) {
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(200));
        let mut found = Vec::new();
        if !server.alive() {
            found.push(failure(
                "server exited",
                format!(
                    "the server exited during the run: {:?}",
                    server.child.try_wait()
                ),
            ));
        }
        if server.stderr().contains("panicked") {
            found.push(failure("panic", "the server's stderr shows a panic".into()));
        }
        {
            let s = server.samples.lock().unwrap();
            if s.rss_peak_kib > s.rss_first_kib + RSS_GROWTH_MIB * 1024 {
                found.push(failure(
                    "memory",
                    format!(
                        "RSS grew from {} to {} KiB (bound: {RSS_GROWTH_MIB} MiB more)",
                        s.rss_first_kib, s.rss_peak_kib
                    ),
                ));
            }
            if s.children_peak > MAX_CHILDREN {
                found.push(failure(
                    "too many engines",
                    format!(
                        "{} child processes at once (bound {MAX_CHILDREN})",
                        s.children_peak
                    ),
                ));
            }
            if s.threads_peak > MAX_THREADS || s.fds_peak > MAX_FDS {
                found.push(failure(
                    "threads or files",
                    format!(
                        "{} threads and {} open files at most (bounds {MAX_THREADS} and {MAX_FDS})",
                        s.threads_peak, s.fds_peak
                    ),
                ));
            }
            if !s.stale_zombies.is_empty() {
                found.push(failure(
                    "zombie",
                    format!("children left unreaped: {:?}", s.stale_zombies),
                ));
            }
        }
        if !found.is_empty() {
            sh.failures.lock().unwrap().extend(found);
            sh.stop.store(true, Ordering::SeqCst);
            return;
        }
    }
}

/// After the run: every game closed, then no engine left, then the
/// shutdown; the engines must all be gone with the server.
fn wind_down(server: &mut Server, sh: &Shared) -> Vec<Failure> {
    let port = server.port;
    let mut out = Vec::new();
    let call = |m: &str, t: &str| support_request(port, m, t);
    let max_id = sh.pool.lock().unwrap().max_id;
    // Games whose creation was cut off have ids past the last one seen.
    for id in 1..=max_id + 16 {
        call("DELETE", &format!("/api/games/{id}"));
    }
    let t0 = Instant::now();
    loop {
        let st = call("GET", "/api/status");
        let counts = st
            .as_ref()
            .and_then(|(_, v)| Some((v["engines"].as_u64()?, v["games"].as_u64()?)));
        let kids = server.children();
        if counts == Some((0, 0)) && kids.is_empty() {
            break;
        }
        if t0.elapsed() > Duration::from_secs(15) {
            out.push(failure(
                "engines left",
                format!(
                    "15 s after every game was closed: (engines, games) = {counts:?}, children {kids:?}"
                ),
            ));
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let pids = server.samples.lock().unwrap().pids.clone();
    server.stop_sampling();
    call("POST", "/api/shutdown");
    let t0 = Instant::now();
    loop {
        match server.child.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    out.push(failure(
                        "exit status",
                        format!("the server exited with {status}"),
                    ));
                }
                break;
            }
            _ if t0.elapsed() > Duration::from_secs(10) => {
                out.push(failure(
                    "no exit",
                    "no exit 10 s after /api/shutdown".into(),
                ));
                break;
            }
            _ => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    let alive: Vec<u32> = pids
        .into_iter()
        .filter(|&(p, t)| watch::still_running(p, t))
        .map(|(p, _)| p)
        .collect();
    if !alive.is_empty() {
        out.push(failure(
            "orphan engines",
            format!("engines alive after the server exited: {alive:?}"),
        ));
    }
    out
}

/// The strings in a JSON array (none if it is not one).
fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the workers, each with its own seed drawn from `seed`, and the
/// watcher of the server until they are all done.
fn run_workers(server: &mut Server, sh: &Arc<Shared>, seed: u64) {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..WORKERS)
            .map(|i| {
                let sh = sh.clone();
                let s = seed
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(i as u64);
                scope.spawn(move || Worker::new(i, s, sh).run())
            })
            .collect();
        let watcher = scope.spawn(|| watch(server, sh, &done));
        for h in handles {
            h.join().expect("a fuzz worker panicked");
        }
        done.store(true, Ordering::SeqCst);
        watcher.join().unwrap();
    });
}

/// The server's samples (memory, threads, files, engines) in one line.
fn samples_line(server: &Server) -> String {
    let s = server.samples.lock().unwrap();
    format!(
        "server RSS {} KiB at start, {} KiB at most; {} threads and {} files at most; {} child processes at most, {} engines in all",
        s.rss_first_kib,
        s.rss_peak_kib,
        s.threads_peak,
        s.fds_peak,
        s.children_peak,
        s.pids.len()
    )
}

/// Writes a report per failure and prints the first few of each kind;
/// per kind, the count and the first report's path.
fn report_failures(
    seed: u64,
    secs: f64,
    failures: &[Failure],
    stderr: &str,
    samples: &str,
) -> BTreeMap<String, (usize, PathBuf)> {
    let mut kinds: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
    for f in failures {
        let (text, path) = report(seed, secs, f, stderr, samples);
        let e = kinds.entry(f.kind.clone()).or_insert((0, path.clone()));
        e.0 += 1;
        if e.0 <= PRINTED_PER_KIND {
            let lines: Vec<&str> = text.lines().collect();
            let cut = lines.len().saturating_sub(40);
            eprintln!(
                "\n=== gui fuzz failure: {} (report: {})\n{}\n...\n{}\n",
                f.kind,
                path.display(),
                lines[..6.min(lines.len())].join("\n"),
                lines[cut.max(6)..].join("\n")
            );
        }
    }
    kinds
}

/// Prints the run's one-line summary: the counters, the samples, the
/// number of failures.
fn print_summary(st: &Stats, samples: &str, failures: usize, fuzz_secs: f64, seed: u64) {
    let n = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed);
    println!(
        "gui fuzz summary: {} requests, {} connections ({:.0}/s), {} answered 2xx, {} refused 4xx, {} busy, {} unanswered, {} hostile, {} slow, {} dropped, {} pipelined, {} junk, {} games, {} steps, {} take-backs, {} hints, {} reviews, {} restarts, {} games over, {} lobbies and history pages read, {} seats taken from the lobby, {} without the host's token, {samples}, {} failures in {:.1} s (seed {seed})",
        n(&st.requests),
        n(&st.connections),
        n(&st.connections) as f64 / fuzz_secs,
        n(&st.ok),
        n(&st.refused),
        n(&st.busy),
        n(&st.no_answer),
        n(&st.hostile),
        n(&st.slow),
        n(&st.dropped),
        n(&st.pipelined),
        n(&st.junk),
        n(&st.games),
        n(&st.steps),
        n(&st.takebacks),
        n(&st.hints),
        n(&st.reviews),
        n(&st.restarts),
        n(&st.gameovers),
        n(&st.tables_seen),
        n(&st.sat),
        n(&st.refused_tokens),
        failures,
        fuzz_secs,
    );
}

/// A plain request; its status and JSON body.
fn support_request(port: u16, method: &str, target: &str) -> Option<(u16, serde_json::Value)> {
    let r = crate::support::gui::request(port, method, target, &[], b"").ok()?;
    let v = serde_json::from_str(&r.body).unwrap_or(serde_json::Value::Null);
    Some((r.status, v))
}

#[test]
fn fuzz_gui() {
    let secs = env_num("SPLUT_GUI_FUZZ_SECS").unwrap_or(DEFAULT_SECS);
    let seed = env_num("SPLUT_GUI_FUZZ_SEED").map_or(1, |s| s as u64);
    let mut server = Server::start(&["--step-pause", "5", "--abandon-after", "8"]);
    let (_, config) = support_request(server.port, "GET", "/api/config").expect("config");
    let algorithms = strings(&config["algorithms"]);
    let start = Instant::now();
    let sh = Arc::new(Shared {
        port: server.port,
        deadline: start + Duration::from_secs_f64(secs),
        pool: Mutex::new(Pool::default()),
        algorithms,
        levels: config["levels"].clone(),
        stats: Stats::default(),
        failures: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
    });
    run_workers(&mut server, &sh, seed);
    let fuzz_secs = start.elapsed().as_secs_f64();
    let end_failures = if server.alive() {
        wind_down(&mut server, &sh)
    } else {
        Vec::new()
    };
    let stderr = server.stderr();
    let mut failures = std::mem::take(&mut *sh.failures.lock().unwrap());
    failures.extend(end_failures);
    if stderr.contains("panicked") && !failures.iter().any(|f| f.kind == "panic") {
        failures.push(failure("panic", "the server's stderr shows a panic".into()));
    }
    let samples = samples_line(&server);
    let kinds = report_failures(seed, secs, &failures, &stderr, &samples);
    print_summary(&sh.stats, &samples, failures.len(), fuzz_secs, seed);
    for (kind, (count, path)) in &kinds {
        println!(
            "gui fuzz failure: {count} x {kind} (first report: {})",
            path.display()
        );
    }
    assert!(
        failures.is_empty(),
        "{} gui fuzz failures: {:?}",
        failures.len(),
        kinds.keys().collect::<Vec<_>>()
    );
}

/// The server's threads now (`Threads:` in /proc).
fn threads(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Raw bytes on one connection; the answers.
fn raw(port: u16, bytes: &[u8], end: wire::End, timeout: Duration) -> wire::Outcome {
    wire::exchange(
        port,
        &wire::Plan {
            bytes: bytes.to_vec(),
            pacing: wire::Pacing::Whole,
            end,
            answers: 1,
            head: vec![Some(false)],
            timeout,
        },
    )
}

/// What the fuzzer found, each seen failing before its fix (the server
/// was on tiny_http then; server/src/http.rs now reads requests itself).
#[test]
fn fuzz_gui_findings() {
    let mut gui = crate::support::gui::Gui::start(&[]);
    let port = gui.port;
    let pid = gui.child.id();
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    // A request line of HTTP/2.0 deadlocked its connection's thread for
    // good: no answer, the connection never closed, a thread and a socket
    // lost each time. Now: 505, and nothing is kept.
    let before = threads(pid);
    for _ in 0..20 {
        let req = format!("GET /api/status HTTP/2.0\r\n{host}\r\n");
        let out = raw(
            port,
            req.as_bytes(),
            wire::End::HalfClose,
            Duration::from_secs(5),
        );
        assert!(!out.timed_out, "no answer to HTTP/2.0, and no close");
        assert_eq!(out.answers.first().map(|a| a.status), Some(505));
    }
    let t0 = Instant::now();
    while threads(pid) > before + 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(3),
            "threads kept: {} before, {} after",
            before,
            threads(pid)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A header line with no end was buffered whole, at any length. Now it
    // is refused (431) once over the bound on a line.
    let mut req = format!("GET /api/status HTTP/1.1\r\n{host}X-Big: ").into_bytes();
    req.extend(std::iter::repeat_n(b'a', 60 * 1024));
    let out = raw(port, &req, wire::End::Read, Duration::from_secs(5));
    assert_eq!(out.answers.first().map(|a| a.status), Some(431), "{out:?}");
    // `Connection: Upgrade` made the server read the socket to its end as
    // the body: a client that kept it open got no answer (and held one of
    // the 64 requests at once). Now the body is the Content-Length's.
    let body = r#"{"step":"e2e3"}"#;
    let req = format!(
        "POST /api/games/1/step HTTP/1.1\r\n{host}Connection: Upgrade\r\nUpgrade: websocket\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let out = raw(
        port,
        req.as_bytes(),
        wire::End::Read,
        Duration::from_secs(5),
    );
    assert_eq!(out.answers.first().map(|a| a.status), Some(404), "{out:?}");
    // The server still answers.
    assert_eq!(gui.get("/api/status").status, 200);
    gui.shutdown();
}
