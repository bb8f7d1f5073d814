//! The JSON API the page speaks: routes, request bodies and their checks.
//! Nothing here trusts the page: every field is checked, and a refused
//! request changes nothing.

use super::session::{Refusal, SeatConfig, Session};
use crate::game::Position;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most games (each with one engine process) at once.
pub const MAX_GAMES: usize = 8;

/// Longest a long-poll waits for a change.
const LONG_POLL: Duration = Duration::from_secs(20);

/// Bounds on an engine's time per turn, in ms.
const MOVETIME: std::ops::RangeInclusive<u64> = 10..=600_000;

/// The page, embedded in the binary.
const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// An answer: status, content type, body, and a file name for downloads.
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
    /// `Content-Disposition: attachment` with this name.
    pub download: Option<String>,
    /// Stop every engine and exit once this is sent.
    pub shutdown: bool,
}

impl Reply {
    fn json(status: u16, v: serde_json::Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: v.to_string(),
            download: None,
            shutdown: false,
        }
    }

    /// A JSON error: `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, serde_json::json!({ "error": message }))
    }

    fn text(content_type: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.to_string(),
            download: None,
            shutdown: false,
        }
    }
}

impl From<Refusal> for Reply {
    fn from((status, message): Refusal) -> Reply {
        Reply::error(status, &message)
    }
}

/// Every game, the engine command and what the engine offers.
pub struct Games {
    sessions: Mutex<HashMap<u64, Arc<Session>>>,
    /// Held while a game is made, so the cap on games holds under
    /// concurrent requests.
    creating: Mutex<()>,
    next_id: AtomicU64,
    /// Live engine processes.
    pub live: Arc<AtomicUsize>,
    command: Vec<String>,
    algorithms: Vec<String>,
    /// Why the engine could not be started at launch, if it could not.
    engine_error: Option<String>,
}

/// A seat of a new game, as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatIn {
    engine: bool,
    algorithm: Option<String>,
    movetime: Option<u64>,
}

/// A new game, as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    players: Option<u8>,
    spn: Option<String>,
    seats: Vec<SeatIn>,
    /// The game this one replaces (it is closed).
    replace: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepIn {
    step: String,
}

impl Games {
    /// Probes the engine once for its algorithms.
    pub fn new(command: Vec<String>) -> Games {
        let live = Arc::new(AtomicUsize::new(0));
        let (algorithms, engine_error) = match super::start_engine(&command, &live) {
            Ok((e, algos)) => {
                e.quit(super::QUIT_GRACE);
                (algos, None)
            }
            Err(e) => (Vec::new(), Some(e)),
        };
        Games {
            sessions: Mutex::new(HashMap::new()),
            creating: Mutex::new(()),
            next_id: AtomicU64::new(1),
            live,
            command,
            algorithms,
            engine_error,
        }
    }

    /// Why the engine could not be started at launch, if it could not.
    pub fn engine_error_text(&self) -> Option<String> {
        self.engine_error.clone()
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn session(&self, id: &str) -> Result<Arc<Session>, Reply> {
        id.parse::<u64>()
            .ok()
            .and_then(|id| self.sessions().get(&id).cloned())
            .ok_or_else(|| Reply::error(404, "no such game (it ended or was abandoned)"))
    }

    /// Closes the game and forgets it.
    fn close(&self, id: u64) -> bool {
        let s = self.sessions().remove(&id);
        match s {
            Some(s) => {
                s.close();
                true
            }
            None => false,
        }
    }

    /// Closes every game not asked about for `after`.
    pub fn reap(&self, after: Duration) {
        // Not under the map's lock: a session may be busy with its engine.
        let all: Vec<Arc<Session>> = self.sessions().values().cloned().collect();
        let idle: Vec<u64> = all
            .iter()
            .filter(|s| s.idle_for() > after)
            .map(|s| s.id)
            .collect();
        for id in idle {
            self.close(id);
        }
    }

    /// Closes every game (at shutdown).
    pub fn close_all(&self) {
        let ids: Vec<u64> = self.sessions().keys().copied().collect();
        for id in ids {
            self.close(id);
        }
    }

    /// Answers one request. `body` is `None` when it was too large.
    pub fn handle(&self, method: &str, url: &str, body: &str) -> Reply {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", [""] | ["index.html"]) => Reply::text("text/html; charset=utf-8", INDEX_HTML),
            ("GET", ["app.js"]) => Reply::text("text/javascript; charset=utf-8", APP_JS),
            ("GET", ["style.css"]) => Reply::text("text/css; charset=utf-8", STYLE_CSS),
            ("GET", ["api", "config"]) => Reply::json(
                200,
                serde_json::json!({
                    "algorithms": self.algorithms,
                    "engine": self.command.join(" "),
                    "engine_error": self.engine_error,
                    "max_games": MAX_GAMES,
                    "movetime": { "min": MOVETIME.start(), "max": MOVETIME.end(), "default": 1000 },
                }),
            ),
            ("GET", ["api", "status"]) => Reply::json(
                200,
                serde_json::json!({
                    "engines": self.live.load(Ordering::SeqCst),
                    "games": self.sessions().len(),
                }),
            ),
            ("POST", ["api", "shutdown"]) => Reply {
                shutdown: true,
                ..Reply::json(200, serde_json::json!({ "stopping": true }))
            },
            ("POST", ["api", "games"]) => self.new_game(body).unwrap_or_else(|r| r),
            ("GET", ["api", "games", id]) => match self.session(id) {
                Ok(s) => {
                    let since = query
                        .split('&')
                        .find_map(|kv| kv.strip_prefix("since="))
                        .map(|v| v.parse::<u64>());
                    match since {
                        Some(Err(_)) => Reply::error(400, "since: expected a version number"),
                        Some(Ok(v)) => Reply::json(200, s.get(Some(v), LONG_POLL)),
                        None => Reply::json(200, s.get(None, Duration::ZERO)),
                    }
                }
                Err(r) => r,
            },
            ("DELETE", ["api", "games", id]) => {
                match id.parse().ok().filter(|&id| self.close(id)) {
                    Some(_) => Reply::json(200, serde_json::json!({ "closed": true })),
                    None => Reply::error(404, "no such game"),
                }
            }
            ("POST", ["api", "games", id, action]) => {
                let s = match self.session(id) {
                    Ok(s) => s,
                    Err(r) => return r,
                };
                let result = match *action {
                    "step" => match serde_json::from_str::<StepIn>(body) {
                        Ok(b) => s.step(&b.step),
                        Err(e) => Err((400, format!("bad JSON: {e}"))),
                    },
                    "takeback" => s.take_back(),
                    "restart" => s.restart_engine(),
                    _ => Err((404, "no such action".into())),
                };
                match result {
                    Ok(v) => Reply::json(200, v),
                    Err(r) => r.into(),
                }
            }
            ("GET", ["api", "games", id, "record"]) => match self.session(id) {
                Ok(s) => Reply {
                    status: 200,
                    content_type: "text/plain; charset=utf-8",
                    body: s.record(),
                    download: Some(format!("splut-game-{id}.txt")),
                    shutdown: false,
                },
                Err(r) => r,
            },
            (_, ["api", ..]) => Reply::error(404, "no such API route or method"),
            _ => Reply::error(404, "not found"),
        }
    }

    fn new_game(&self, body: &str) -> Result<Reply, Reply> {
        let req: NewGame =
            serde_json::from_str(body).map_err(|e| Reply::error(400, &format!("bad JSON: {e}")))?;
        let start = match (&req.spn, req.players) {
            (Some(spn), None) => Position::from_spn(spn.trim())
                .map_err(|e| Reply::error(422, &format!("bad SPN: {e}")))?,
            (None, Some(n)) => Position::start(usize::from(n))
                .ok_or_else(|| Reply::error(422, "players: expected 2, 3 or 4"))?,
            _ => return Err(Reply::error(400, "give either players or spn")),
        };
        if start.is_game_over() {
            return Err(Reply::error(422, "bad SPN: the game in it is already over"));
        }
        let letters: Vec<char> = start.seats_in_game().map(|s| s.letter()).collect();
        if req.seats.len() != letters.len() {
            return Err(Reply::error(
                422,
                &format!(
                    "seats: the game has {} seats ({}), {} given",
                    letters.len(),
                    letters.iter().collect::<String>(),
                    req.seats.len()
                ),
            ));
        }
        let mut seats = Vec::new();
        for (seat, s) in letters.iter().zip(&req.seats) {
            let algorithm = s.algorithm.clone().unwrap_or_else(|| "auto".into());
            let known = if self.algorithms.is_empty() {
                // An engine without the option: a plain word at most.
                algorithm.len() <= 32
                    && algorithm
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-')
            } else {
                self.algorithms.contains(&algorithm)
            };
            if s.engine && !known {
                return Err(Reply::error(422, "seats: unknown algorithm"));
            }
            let movetime = s.movetime.unwrap_or(1000);
            if !MOVETIME.contains(&movetime) {
                return Err(Reply::error(
                    422,
                    &format!(
                        "seats: movetime must be {} to {} ms",
                        MOVETIME.start(),
                        MOVETIME.end()
                    ),
                ));
            }
            seats.push(SeatConfig {
                seat: *seat,
                engine: s.engine,
                algorithm,
                movetime,
            });
        }
        let _creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        // The game replaced makes room, but is closed only once the new
        // one runs: a refused new game leaves the old one playing.
        let replaced = req.replace.filter(|old| self.sessions().contains_key(old));
        if self.sessions().len() - usize::from(replaced.is_some()) >= MAX_GAMES {
            return Err(Reply::error(
                429,
                &format!("at most {MAX_GAMES} games at once: close one first"),
            ));
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let session = Session::start(id, start, seats, self.command.clone(), self.live.clone())
            .map_err(Reply::from)?;
        if let Some(old) = replaced {
            self.close(old);
        }
        let state = session.get(None, Duration::ZERO);
        self.sessions().insert(id, session);
        Ok(Reply::json(201, state))
    }
}
