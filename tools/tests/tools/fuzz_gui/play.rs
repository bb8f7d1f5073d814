//! One fuzzing client (a worker thread): legal API sequences that play
//! games deep (new games of 2–4 seats with fast engine seats, steps,
//! take-backs, restarts, hints, reviews, positions, records, paces),
//! interleaved with hostile requests, slow, dropped and pipelined
//! connections and junk; every answer is judged, and the server must
//! answer a health request after each hostile one.

use super::make::{self, Known, Req};
use super::rng::Rng;
use super::wire::{self, Answer, End, Outcome, Pacing, Plan};
use serde_json::{Value, json};
use std::collections::{BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Exchanges kept per worker for a failure report.
const LOG_KEEP: usize = 80;
/// Longest wait for an answer: a long-poll is 20 s.
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// Longest wait for the health request's answer.
const HEALTH_WAIT: Duration = Duration::from_secs(10);

/// What the run did.
#[derive(Default)]
pub struct Stats {
    pub requests: AtomicU64,
    pub connections: AtomicU64,
    pub ok: AtomicU64,
    pub refused: AtomicU64,
    pub busy: AtomicU64,
    pub no_answer: AtomicU64,
    pub hostile: AtomicU64,
    pub slow: AtomicU64,
    pub dropped: AtomicU64,
    pub pipelined: AtomicU64,
    pub junk: AtomicU64,
    pub games: AtomicU64,
    pub steps: AtomicU64,
    pub takebacks: AtomicU64,
    pub hints: AtomicU64,
    pub reviews: AtomicU64,
    pub restarts: AtomicU64,
    pub gameovers: AtomicU64,
    /// Lobbies and history pages read (checked for tokens and bounds).
    pub tables_seen: AtomicU64,
    /// Seats taken from the lobby.
    pub sat: AtomicU64,
    /// Requests about a game sent without its host token (and refused).
    pub refused_tokens: AtomicU64,
}

fn add(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// A failure: its kind (one line), what happened, and the worker's last
/// exchanges.
#[derive(Clone, Debug)]
pub struct Failure {
    pub kind: String,
    pub detail: String,
    pub worker: usize,
    pub log: Vec<String>,
}

/// What the workers know and share.
#[derive(Default)]
pub struct Pool {
    pub ids: Vec<u64>,
    /// Each game's host token (every worker plays as the host).
    pub tokens: std::collections::HashMap<u64, String>,
    pub max_id: u64,
    pub spns: Vec<String>,
    pub records: Vec<String>,
    pub over: BTreeSet<u64>,
}

/// Shared by every worker.
pub struct Shared {
    pub port: u16,
    pub deadline: Instant,
    pub pool: Mutex<Pool>,
    pub algorithms: Vec<String>,
    pub levels: Value,
    pub stats: Stats,
    pub failures: Mutex<Vec<Failure>>,
    pub stop: AtomicBool,
}

/// One client thread.
pub struct Worker {
    pub no: usize,
    rng: Rng,
    sh: Arc<Shared>,
    log: VecDeque<String>,
    game: Option<u64>,
}

impl Worker {
    pub fn new(no: usize, seed: u64, sh: Arc<Shared>) -> Worker {
        Worker {
            no,
            rng: Rng::new(seed),
            sh,
            log: VecDeque::new(),
            game: None,
        }
    }

    /// Runs until the deadline (or a failure stops the run).
    pub fn run(&mut self) {
        while Instant::now() < self.sh.deadline && !self.sh.stop.load(Ordering::SeqCst) {
            match self.rng.below(100) {
                0..=39 => self.legal(),
                40..=71 => {
                    self.hostile();
                    self.health();
                }
                72..=82 => {
                    self.dropped();
                    self.health();
                }
                83..=90 => {
                    self.slow();
                    self.health();
                }
                91..=95 => self.pipelined(),
                _ => {
                    self.junk();
                    self.health();
                }
            }
        }
    }

    fn fail(&mut self, kind: &str, detail: String) {
        let f = Failure {
            kind: kind.to_string(),
            detail,
            worker: self.no,
            log: self.log.iter().cloned().collect(),
        };
        self.sh.failures.lock().unwrap().push(f);
    }

    fn note(&mut self, line: String) {
        if self.log.len() >= LOG_KEEP {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Sends `reqs` on one connection and judges what came back.
    fn send(&mut self, reqs: &[Req], pacing: Pacing, end: End, timeout: Duration) -> Outcome {
        let mut bytes = Vec::new();
        for r in reqs {
            bytes.extend_from_slice(&r.bytes());
        }
        let plan = Plan {
            answers: reqs.len(),
            // A request line the server cannot read is refused with a
            // body, HEAD or not.
            head: reqs
                .iter()
                .map(|r| match (r.is_head(), r.wellformed) {
                    (false, _) => Some(false),
                    (true, true) => Some(true),
                    (true, false) => None,
                })
                .collect(),
            bytes,
            pacing: pacing.clone(),
            end,
            timeout,
        };
        add(&self.sh.stats.connections);
        for r in reqs {
            add(&self.sh.stats.requests);
            let how = match (&pacing, end) {
                (_, End::Cut(n)) => format!(" [cut after {n} bytes]"),
                (_, End::Drop) => " [closed unread]".to_string(),
                (Pacing::Slow { chunk, .. }, _) => format!(" [slow, {chunk} bytes at a time]"),
                _ => String::new(),
            };
            self.note(format!("> {}{how}", r.summary()));
        }
        let t0 = Instant::now();
        let out = wire::exchange(self.sh.port, &plan);
        let ms = t0.elapsed().as_millis();
        for a in &out.answers {
            self.note(format!(
                "< {} {} ({ms} ms)",
                a.status,
                wire::escape(&a.body, 160)
            ));
            match a.status {
                200..=299 => add(&self.sh.stats.ok),
                _ => add(&self.sh.stats.refused),
            }
        }
        if matches!(end, End::Read | End::HalfClose) && out.answers.len() < reqs.len() {
            add(&self.sh.stats.no_answer);
            self.note(format!(
                "< (no answer: {}, {ms} ms)",
                if out.timed_out {
                    "timed out"
                } else {
                    "connection closed"
                }
            ));
        }
        if let Err((kind, detail)) = judge(reqs, end, &out) {
            self.fail(kind, detail);
        }
        out
    }

    /// One well-formed request; its answer if it came, checked to be one
    /// of `allowed` statuses.
    fn call(&mut self, method: &str, target: &str, body: &[u8], allowed: &[u16]) -> Option<Answer> {
        let (req, allowed) = self.as_host(
            Req::new(self.sh.port, method, target, body),
            target,
            allowed,
        );
        let allowed = &allowed[..];
        let out = self.send(&[req], Pacing::Whole, End::Read, ANSWER_WAIT);
        let a = out.answers.into_iter().next()?;
        if a.status == 503 && is_busy(&a) {
            add(&self.sh.stats.busy);
            return None;
        }
        if !allowed.contains(&a.status) {
            self.fail(
                &format!(
                    "unexpected status {} for {method} {}",
                    a.status,
                    path_kind(target)
                ),
                format!(
                    "{method} {target} {} answered {} (expected one of {allowed:?}): {}",
                    String::from_utf8_lossy(body),
                    a.status,
                    a.body_text()
                ),
            );
        }
        Some(a)
    }

    /// `req` as the game's host (its token), mostly; sometimes with no
    /// token, a made-up one or the spectators', which must be refused
    /// (403) whatever it asks. A game whose token is not known may refuse
    /// too.
    fn as_host(&mut self, mut req: Req, target: &str, allowed: &[u16]) -> (Req, Vec<u16>) {
        let Some(id) = crate::support::gui::game_in_path(target) else {
            return (req, allowed.to_vec());
        };
        let known = self.sh.pool.lock().unwrap().tokens.get(&id).cloned();
        let Some(host_token) = known else {
            return (req, [allowed, &[403]].concat());
        };
        let token = match self.rng.below(40) {
            0 => None,
            1 => Some("0123456789abcdef0123456789abcdef".to_string()),
            2 => Some(format!("{host_token}x")),
            _ => Some(host_token.clone()),
        };
        let host = token.as_deref() == Some(host_token.as_str());
        if let Some(t) = token {
            req.headers
                .push(format!("Authorization: Bearer {t}").into_bytes());
        }
        if host {
            (req, allowed.to_vec())
        } else {
            add(&self.sh.stats.refused_tokens);
            // The game may have gone meanwhile.
            (req, vec![403, 404])
        }
    }

    /// The server answers `GET /api/status` at once, as JSON.
    fn health(&mut self) {
        let req = Req::new(self.sh.port, "GET", "/api/status", b"");
        let out = self.send(&[req], Pacing::Whole, End::Read, HEALTH_WAIT);
        let ok = out.answers.first().is_some_and(|a| {
            a.status == 200
                && serde_json::from_slice::<Value>(&a.body)
                    .is_ok_and(|v| v["engines"].is_u64() && v["games"].is_u64())
        });
        if !ok {
            self.fail(
                "no health answer",
                format!(
                    "GET /api/status after the last request: {:?}",
                    out.answers.first().map(|a| (a.status, a.body_text()))
                ),
            );
        }
    }

    fn known<T>(&mut self, f: impl FnOnce(&mut Rng, &Known) -> T) -> T {
        let pool = self.sh.pool.lock().unwrap();
        let k = Known {
            ids: &pool.ids,
            max_id: pool.max_id,
            spns: &pool.spns,
            records: &pool.records,
            algorithms: &self.sh.algorithms,
        };
        f(&mut self.rng, &k)
    }

    /// A hostile request: a route of the API, mutated.
    fn hostile(&mut self) {
        add(&self.sh.stats.hostile);
        let Some(req) = self.hostile_req() else {
            return;
        };
        let end = if req.wellformed && self.rng.chance(80) {
            End::Read
        } else {
            End::HalfClose
        };
        self.send(&[req], Pacing::Whole, end, ANSWER_WAIT);
    }

    fn hostile_req(&mut self) -> Option<Req> {
        let port = self.sh.port;
        let (m, t, body) = self.known(make::route);
        let mut req = Req::new(port, &m, &t, &body);
        if (m == "POST" || !body.is_empty()) && self.rng.chance(60) {
            let (b, what) = make::mutate_body(&mut self.rng, &body);
            req.body = b;
            req.set_length();
            req.label = format!("body: {what}");
        }
        if self.rng.chance(20) {
            make::mutate_target(&mut self.rng, &mut req);
        }
        if self.rng.chance(12) {
            make::mutate_line(&mut self.rng, &mut req);
        }
        for _ in 0..self.rng.below(3) {
            if self.rng.chance(50) {
                make::mutate_headers(&mut self.rng, &mut req, port);
            }
        }
        tame_analysis(&mut req);
        (!req.is_shutdown()).then_some(req)
    }

    /// A connection closed mid-request, mid-body, or before its answer
    /// is read.
    fn dropped(&mut self) {
        add(&self.sh.stats.dropped);
        let req = if self.rng.chance(50) {
            self.hostile_req()
        } else {
            // Work the server goes on with: a new game, a hint, a review.
            let id = self.game.unwrap_or(1);
            let (t, b) = match self.rng.below(3) {
                0 => ("/api/games".to_string(), self.known(make::new_game_body)),
                1 => (
                    format!("/api/games/{id}/hint"),
                    br#"{"movetime":20}"#.to_vec(),
                ),
                _ => (
                    format!("/api/games/{id}/review"),
                    br#"{"movetime":10}"#.to_vec(),
                ),
            };
            Some(Req::new(self.sh.port, "POST", &t, &b))
        };
        let Some(req) = req else { return };
        let len = req.bytes().len();
        let end = if self.rng.chance(50) {
            End::Cut(self.rng.below(len))
        } else {
            End::Drop
        };
        self.send(&[req], Pacing::Whole, end, ANSWER_WAIT);
    }

    /// A client that sends a few bytes at a time.
    fn slow(&mut self) {
        add(&self.sh.stats.slow);
        let req = if self.rng.chance(50) {
            self.hostile_req()
        } else {
            let (m, t, b) = self.known(make::route);
            let mut r = Req::new(self.sh.port, &m, &t, &b);
            tame_analysis(&mut r);
            Some(r)
        };
        let Some(req) = req else { return };
        let len = req.bytes().len();
        // At most about 400 writes.
        let chunk = (len / 400).max(1 + self.rng.below(3));
        let delay = Duration::from_millis(self.rng.range(0, 3));
        let end = if self.rng.chance(15) {
            End::Cut(self.rng.below(len))
        } else if req.wellformed {
            End::Read
        } else {
            End::HalfClose
        };
        self.send(&[req], Pacing::Slow { chunk, delay }, end, ANSWER_WAIT);
    }

    /// Several requests on one kept-alive connection, sent at once.
    fn pipelined(&mut self) {
        add(&self.sh.stats.pipelined);
        let port = self.sh.port;
        let n = self.rng.range(2, 4) as usize;
        let mut reqs = Vec::new();
        for i in 0..n {
            let id = self.known(|rng, k| k.id(rng));
            let t = match self.rng.below(5) {
                0 => "/api/status".to_string(),
                1 => "/api/config".to_string(),
                2 => "/api/preview?players=3".to_string(),
                3 => format!("/api/games/{id}/positions"),
                _ => format!("/api/games/{id}"),
            };
            let method = if self.rng.chance(15) { "HEAD" } else { "GET" };
            let mut r = Req::new(port, method, &t, b"");
            if i + 1 < n {
                r.headers.retain(|h| !h.starts_with(b"Connection"));
            }
            reqs.push(r);
        }
        self.send(&reqs, Pacing::Whole, End::Read, ANSWER_WAIT);
    }

    /// Bytes that are not HTTP.
    fn junk(&mut self) {
        add(&self.sh.stats.junk);
        let (bytes, what) = make::junk(&mut self.rng);
        let req = Req {
            method: Vec::new(),
            target: Vec::new(),
            version: Vec::new(),
            headers: Vec::new(),
            body: Vec::new(),
            wellformed: false,
            newer_http: true,
            label: what,
        };
        // Sent raw: the request line is the junk itself.
        let mut raw = req.clone();
        raw.method = bytes;
        raw.version.clear();
        let plan_req = RawReq(raw);
        plan_req.send(self);
    }

    // ---- Legal sequences ----

    /// One legal step of this worker's game (a new one if it has none).
    fn legal(&mut self) {
        let Some(id) = self.game else {
            self.new_game(None);
            return;
        };
        let Some(a) = self.call("GET", &format!("/api/games/{id}"), b"", &[200, 404]) else {
            return;
        };
        if a.status == 404 {
            self.game = None;
            return;
        }
        let Ok(st) = serde_json::from_slice::<Value>(&a.body) else {
            return;
        };
        self.learn(&st);
        let gameover = st["gameover"] == true;
        let side = st["side"].as_str().unwrap_or("").to_string();
        let engine_to_move = st["seats"].as_array().is_some_and(|s| {
            s.iter()
                .any(|c| c["seat"] == side.as_str() && c["engine"] == true)
        });
        let legal: Vec<String> = st["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let version = st["version"].as_u64().unwrap_or(0);
        let g = format!("/api/games/{id}");
        if st["error"].is_string() {
            add(&self.sh.stats.restarts);
            self.call("POST", &format!("{g}/restart"), b"", &[200, 404]);
            return;
        }
        if gameover {
            self.after_game_over(id);
            return;
        }
        if st["waiting"] == true && self.rng.chance(70) {
            self.call("POST", &format!("{g}/next"), b"", &[200, 404, 409]);
            return;
        }
        let r = self.rng.below(100);
        if !engine_to_move && !legal.is_empty() && r < 65 {
            let step = self.rng.pick(&legal).clone();
            let body = json!({ "step": step }).to_string();
            if let Some(a) = self.call(
                "POST",
                &format!("{g}/step"),
                body.as_bytes(),
                &[200, 404, 409, 422],
            ) && a.status == 200
            {
                add(&self.sh.stats.steps);
            }
            return;
        }
        if engine_to_move && st["pace"] != "step" && r < 60 {
            // A long-poll while the engine plays.
            self.call("GET", &format!("{g}?since={version}"), b"", &[200, 404]);
            return;
        }
        self.other_call(id, &st, &side);
    }

    /// After a game's end: a take-back, a review, its record or a new
    /// game.
    fn after_game_over(&mut self, id: u64) {
        let g = format!("/api/games/{id}");
        match self.rng.below(10) {
            0..=4 => self.take_back(id),
            5 => self.analysis(id, "review"),
            6 => {
                self.call("GET", &format!("{g}/record"), b"", &[200, 404]);
            }
            _ => self.new_game(Some(id)),
        }
    }

    /// Anything but a step in a game (state `st`, `side` to move): a
    /// take-back, analyses, its positions or record, its pace, a restart,
    /// threats, a preview, its end, or a new game.
    fn other_call(&mut self, id: u64, st: &Value, side: &str) {
        let g = format!("/api/games/{id}");
        match self.rng.below(100) {
            0..=19 => self.take_back(id),
            20..=31 => self.analysis(id, "hint"),
            32..=35 => self.analysis(id, "review"),
            36..=49 => {
                self.call("GET", &format!("{g}/positions"), b"", &[200, 404]);
            }
            50..=59 => {
                if let Some(a) = self.call("GET", &format!("{g}/record"), b"", &[200, 404])
                    && a.status == 200
                    && a.body.len() < 20_000
                {
                    let mut pool = self.sh.pool.lock().unwrap();
                    if pool.records.len() < 16 {
                        pool.records.push(a.body_text());
                    }
                }
            }
            60..=69 => {
                let pace = *self
                    .rng
                    .pick(&["none", "none", "none", "step", "normal", "slow"]);
                let body = json!({ "pace": pace }).to_string();
                self.call("POST", &format!("{g}/pace"), body.as_bytes(), &[200, 404]);
            }
            70..=73 => {
                add(&self.sh.stats.restarts);
                self.call("POST", &format!("{g}/restart"), b"", &[200, 404]);
            }
            74..=83 => {
                if let Some(spn) = st["spn"].as_str() {
                    let t = format!("/api/threats?spn={}&seat={side}", make::encode(spn));
                    self.call("GET", &t, b"", &[200, 422]);
                }
            }
            84..=89 => {
                if let Some(spn) = st["spn"].as_str() {
                    let t = format!("/api/preview?spn={}", make::encode(spn));
                    self.call("GET", &t, b"", &[200, 422]);
                }
            }
            90..=93 => {
                self.call("DELETE", &g, b"", &[200, 404]);
                self.game = None;
            }
            94..=96 => self.tables_seen(),
            _ => self.new_game(Some(id)),
        }
    }

    /// The lobby or a page of the history, as anyone sees them: bounded,
    /// and no token known to the workers in either; sometimes a seat
    /// taken from the lobby.
    fn tables_seen(&mut self) {
        let path = if self.rng.chance(50) {
            "/api/lobby".to_string()
        } else {
            format!("/api/history?limit={}", self.rng.range(1, 80))
        };
        let Some(a) = self.call("GET", &path, b"", &[200]) else {
            return;
        };
        add(&self.sh.stats.tables_seen);
        let text = a.body_text();
        let leaked = self
            .sh
            .pool
            .lock()
            .unwrap()
            .tokens
            .values()
            .any(|t| text.contains(t.as_str()));
        if leaked {
            self.fail("a token shown", format!("GET {path}: {text}"));
            return;
        }
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            return;
        };
        let (n, most) = match (v["tables"].as_array(), v["games"].as_array()) {
            (Some(t), _) => (t.len(), 100),
            (_, Some(g)) => (g.len(), 50),
            _ => (0, 0),
        };
        if n > most {
            self.fail("a list past its bound", format!("GET {path}: {n} entries"));
            return;
        }
        let Some(t) = v["tables"].as_array().and_then(|t| t.first()) else {
            return;
        };
        if !self.rng.chance(50) {
            return;
        }
        let seat = t["seats"]
            .as_array()
            .and_then(|s| s.iter().find(|c| c["who"] == "open"))
            .and_then(|c| c["seat"].as_str())
            .unwrap_or("y");
        let body = json!({ "seat": seat, "name": "Fuzz" }).to_string();
        let sit = format!("/api/lobby/{}/sit", t["id"]);
        if let Some(a) = self.call("POST", &sit, body.as_bytes(), &[200, 404, 409])
            && a.status == 200
        {
            add(&self.sh.stats.sat);
        }
    }

    fn take_back(&mut self, id: u64) {
        if let Some(a) = self.call(
            "POST",
            &format!("/api/games/{id}/takeback"),
            b"",
            &[200, 404, 409],
        ) && a.status == 200
        {
            add(&self.sh.stats.takebacks);
        }
    }

    fn analysis(&mut self, id: u64, what: &str) {
        let ms = if what == "hint" {
            self.rng.range(10, 40)
        } else {
            10
        };
        let body = json!({ "movetime": ms }).to_string();
        if let Some(a) = self.call(
            "POST",
            &format!("/api/games/{id}/{what}"),
            body.as_bytes(),
            &[200, 404, 409],
        ) && a.status == 200
        {
            add(if what == "hint" {
                &self.sh.stats.hints
            } else {
                &self.sh.stats.reviews
            });
        }
    }

    /// What a state tells: the game's id and its position.
    fn learn(&mut self, st: &Value) {
        let mut pool = self.sh.pool.lock().unwrap();
        if let Some(id) = st["id"].as_u64() {
            pool.max_id = pool.max_id.max(id);
            if let Some(t) = st["links"]["host"].as_str() {
                pool.tokens.insert(id, t.to_string());
            }
            if st["gameover"] == true && pool.over.insert(id) {
                add(&self.sh.stats.gameovers);
            }
        }
        if let Some(spn) = st["spn"].as_str() {
            if pool.spns.len() < 64 {
                pool.spns.push(spn.to_string());
            } else {
                let i = self.rng.below(64);
                pool.spns[i] = spn.to_string();
            }
        }
    }

    /// A new game (replacing `old` sometimes), made this worker's.
    fn new_game(&mut self, old: Option<u64>) {
        let mut body: Value = {
            let b = self.known(make::new_game_body);
            serde_json::from_slice(&b).unwrap()
        };
        if let Some(o) = body.as_object_mut() {
            if let Some(old) = old
                && self.rng.chance(50)
            {
                o.insert("replace".into(), json!(old));
            }
            if !o.contains_key("record") {
                let pace = *self
                    .rng
                    .pick(&["none", "none", "none", "none", "step", "normal"]);
                o.insert("pace".into(), json!(pace));
                self.levels(o);
            }
        }
        let Some(a) = self.call(
            "POST",
            "/api/games",
            body.to_string().as_bytes(),
            &[201, 422, 429],
        ) else {
            return;
        };
        match a.status {
            201 => {
                add(&self.sh.stats.games);
                if let Ok(st) = serde_json::from_slice::<Value>(&a.body) {
                    self.learn(&st);
                    if let Some(id) = st["id"].as_u64() {
                        self.game = Some(id);
                        let mut pool = self.sh.pool.lock().unwrap();
                        pool.ids.push(id);
                        if pool.ids.len() > 32 {
                            pool.ids.remove(0);
                        }
                    }
                }
            }
            429 => {
                // Room for the next one: close a game, any worker's.
                let id = self.known(|rng, k| rng.range(1, k.max_id.max(1)));
                self.call("DELETE", &format!("/api/games/{id}"), b"", &[200, 404]);
            }
            _ => {}
        }
    }

    /// Levels for some engine seats, within the engine's bounds.
    fn levels(&mut self, o: &mut serde_json::Map<String, Value>) {
        let elo = self.sh.levels["elo"].clone();
        let skill = self.sh.levels["skill"].clone();
        let Some(seats) = o.get_mut("seats").and_then(|s| s.as_array_mut()) else {
            return;
        };
        for s in seats.iter_mut() {
            if s["engine"] != true || !self.rng.chance(30) {
                continue;
            }
            let (key, spin) = if self.rng.chance(50) {
                ("elo", &elo)
            } else {
                ("skill", &skill)
            };
            let (Some(lo), Some(hi)) = (spin["min"].as_i64(), spin["max"].as_i64()) else {
                continue;
            };
            let v = lo + self.rng.below((hi - lo + 1).max(1) as usize) as i64;
            s["level"] = json!({ key: v });
        }
    }
}

/// Raw bytes sent as they are, half-closed: junk.
struct RawReq(Req);

impl RawReq {
    fn send(self, w: &mut Worker) {
        let plan = Plan {
            bytes: self.0.method.clone(),
            pacing: Pacing::Whole,
            end: End::HalfClose,
            answers: 1,
            head: vec![Some(false)],
            timeout: ANSWER_WAIT,
        };
        add(&w.sh.stats.connections);
        add(&w.sh.stats.requests);
        w.note(format!(
            "> junk: {} ({})",
            wire::escape(&self.0.method, 120),
            self.0.label
        ));
        let out = wire::exchange(w.sh.port, &plan);
        for a in &out.answers {
            w.note(format!("< {} {}", a.status, wire::escape(&a.body, 160)));
        }
        if let Err((kind, detail)) = judge(&[self.0], End::HalfClose, &out) {
            w.fail(kind, detail);
        }
    }
}

/// A hint's or review's body never asks for long thinking (a review of
/// 10 s a position would outlast any deadline, by design).
fn tame_analysis(r: &mut Req) {
    let t = String::from_utf8_lossy(&r.target);
    if !(t.contains("hint") || t.contains("review")) {
        return;
    }
    if let Ok(mut v) = serde_json::from_slice::<Value>(&r.body)
        && let Some(ms) = v["movetime"].as_u64()
        && (41..=10_000).contains(&ms)
    {
        v["movetime"] = json!(20);
        r.body = v.to_string().into_bytes();
        r.set_length();
    }
}

/// `{"error": "too many requests at once"}`: the analyses' cap.
fn is_busy(a: &Answer) -> bool {
    serde_json::from_slice::<Value>(&a.body)
        .is_ok_and(|v| v["error"] == "too many requests at once")
}

/// A target's route with ids and queries left out, to name a failure.
fn path_kind(t: &str) -> String {
    let path = t.split('?').next().unwrap_or("");
    path.split('/')
        .map(|p| if p.parse::<u64>().is_ok() { "<id>" } else { p })
        .collect::<Vec<_>>()
        .join("/")
}

/// The checks on one connection's answers.
fn judge(reqs: &[Req], end: End, out: &Outcome) -> Result<(), (&'static str, String)> {
    let first = reqs.first().map(Req::summary).unwrap_or_default();
    if !out.connected {
        return Err((
            "connection refused",
            format!("could not connect for {first}"),
        ));
    }
    if let Some(why) = &out.malformed {
        return Err(("malformed answer", format!("{why}, for {first}")));
    }
    let wellformed = reqs.iter().all(|r| r.wellformed);
    let newer = reqs.iter().any(|r| r.newer_http);
    let analysis = reqs.iter().any(|r| {
        let t = String::from_utf8_lossy(&r.target);
        t.contains("hint") || t.contains("review")
    });
    for (i, a) in out.answers.iter().enumerate() {
        let req = reqs.get(i);
        let what = req.map(Req::summary).unwrap_or_else(|| first.clone());
        judge_answer(a, req, &what, wellformed, newer, analysis)?;
    }
    if matches!(end, End::Read | End::HalfClose) && out.answers.len() < reqs.len() {
        if wellformed {
            return Err((
                "no answer",
                format!(
                    "{} of {} answers ({}) for {first}",
                    out.answers.len(),
                    reqs.len(),
                    if out.timed_out {
                        "timed out"
                    } else {
                        "connection closed"
                    }
                ),
            ));
        }
        if out.timed_out {
            return Err((
                "hang",
                format!("neither an answer nor a close after the input ended, for {first}"),
            ));
        }
    }
    Ok(())
}

/// The checks on one answer (`req` its request, if known, `what` named
/// in a failure): no server error, JSON where the server or the API
/// answers, a known content type.
fn judge_answer(
    a: &Answer,
    req: Option<&Req>,
    what: &str,
    wellformed: bool,
    newer: bool,
    analysis: bool,
) -> Result<(), (&'static str, String)> {
    let ok_5xx = (a.status == 505 && newer) || (a.status == 503 && analysis && is_busy(a));
    if a.status >= 500 && !ok_5xx {
        return Err((
            "server error",
            format!("{} {} for {what}", a.status, a.body_text()),
        ));
    }
    let head = req.is_some_and(Req::is_head);
    let ctype = a.header("Content-Type").unwrap_or("");
    if !head && ctype.starts_with("application/json") {
        let v: Value = serde_json::from_slice(&a.body).map_err(|e| {
            (
                "answer not JSON",
                format!("{e}: {} for {what}", wire::escape(&a.body, 300)),
            )
        })?;
        if a.status >= 400 && !v["error"].is_string() {
            return Err((
                "refusal without an error message",
                format!("{} {v} for {what}", a.status),
            ));
        }
    }
    // What the server itself answers (every request that reached it):
    // its refusals are JSON.
    if wellformed && !head && a.status >= 400 && !ctype.starts_with("application/json") {
        return Err((
            "refusal not JSON",
            format!("{} '{ctype}' {} for {what}", a.status, a.body_text()),
        ));
    }
    // The API's answers are JSON, but a record's (a text file).
    let api = req.is_some_and(|r| {
        let t = String::from_utf8_lossy(&r.target);
        let path = t.split('?').next().unwrap_or("");
        path.starts_with("/api/") && !path.ends_with("/record")
    });
    if wellformed && !head && a.status < 300 && api && !ctype.starts_with("application/json") {
        return Err((
            "API answer not JSON",
            format!("{} '{ctype}' {} for {what}", a.status, a.body_text()),
        ));
    }
    if wellformed && !head && a.status < 300 {
        let known = [
            "application/json",
            "text/html",
            "text/javascript",
            "text/css",
            "text/plain",
        ];
        if !known.iter().any(|k| ctype.starts_with(k)) {
            return Err((
                "unknown content type",
                format!("{} '{ctype}' for {what}", a.status),
            ));
        }
    }
    Ok(())
}
