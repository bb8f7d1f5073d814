//! The JSON API the page speaks: routes, request bodies and their checks.
//! Nothing here trusts the page: every field is checked, and a refused
//! request changes nothing.

use super::game::Session;
use super::store::{NewGame, Status, Store, StoredGame, unix_now};
use super::tables::{Access, Who};
use splut_board::session::Refusal;
use splut_board::session::analysis::{Analysis, Kind};
use splut_board::session::config::Config;
use splut_board::session::levels::Levels;
use splut_board::session::new_game::{self, MAX_SPN};
use splut_board::session::requests::{self, MOVETIME, PaceIn, StepIn};
use splut_board::session::view::Positions;
use splut_play::answer::option_choices;
use splut_play::client::Client;
use splut_rules::{Position, Seat};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod kept;
mod lobby;

/// Most games (each with one engine process) at once.
pub const MAX_GAMES: usize = 8;

/// Longest a long-poll waits for a change.
const LONG_POLL: Duration = Duration::from_secs(20);

/// Most hints and reviews running at once (each starts an engine).
const MAX_ANALYSES: usize = 2;

/// The page, embedded in the binary: splut-board's (`board/page/`), as
/// the static board copies it; this host's `host.js` is the empty one.
use splut_board::page::{FILES as PAGE_FILES, NATIVE_HOST_JS};

/// An answer: status, content type, body, and a file name for downloads.
#[derive(Debug)]
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
    /// `Retry-After`, in seconds (a client over its rate).
    pub retry_after: Option<u64>,
}

impl Reply {
    fn json(status: u16, v: serde_json::Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: v.to_string(),
            download: None,
            shutdown: false,
            retry_after: None,
        }
    }

    /// A refusal with this status: `{"error": message}` (the API's, and
    /// the server's own before a request reaches the API).
    pub(super) fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, serde_json::json!({ "error": message }))
    }

    fn text(content_type: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.to_string(),
            download: None,
            shutdown: false,
            retry_after: None,
        }
    }
}

/// The HTTP status of a refusal: the one place refusals become statuses.
pub fn status(r: &Refusal) -> u16 {
    match r {
        Refusal::BadRequest(_) => 400,
        Refusal::Forbidden(_) => 403,
        Refusal::NotFound(_) => 404,
        Refusal::NotPersonsTurn
        | Refusal::GameOver
        | Refusal::NothingToTakeBack
        | Refusal::NothingWaiting
        | Refusal::EngineDown(_)
        | Refusal::Taken(_) => 409,
        Refusal::TooLarge(_) => 413,
        Refusal::BadInput(_) | Refusal::IllegalStep(_) => 422,
        Refusal::TooManyGames(_) => 429,
        Refusal::EngineFailed(_) => 502,
        Refusal::Store(_) => 500,
        Refusal::Busy => 503,
    }
}

/// A refusal as the page gets it: its status and `{"error": message}`.
impl From<Refusal> for Reply {
    fn from(r: Refusal) -> Reply {
        Reply::error(status(&r), &r.to_string())
    }
}

/// Every game, the engine command and what the engine offers.
pub struct Games {
    sessions: Mutex<HashMap<u64, Arc<Session>>>,
    /// Each game's table: who may do what ([`super::tables`]).
    tables: Mutex<HashMap<u64, Access>>,
    /// When each invited seat's person was last seen, and their requests
    /// under way (a long-poll is someone there).
    presence: Mutex<HashMap<(u64, Seat), Presence>>,
    /// Held while a game is made, so the cap on games holds under
    /// concurrent requests.
    creating: Mutex<()>,
    next_id: AtomicU64,
    /// Live engine processes.
    pub live: Arc<AtomicUsize>,
    command: Vec<String>,
    /// Where the games' engines come from.
    engines: super::Engines,
    /// Most games at once.
    max_games: usize,
    algorithms: Vec<String>,
    /// The engine's level options.
    levels: Levels,
    /// Hints and reviews running (each with an engine of its own).
    analyses: AtomicUsize,
    /// Why the engine could not be started at launch, if it could not.
    engine_error: Option<String>,
    /// Pause between the steps of an engine's turn.
    step_pause: Duration,
    /// Where the games are kept.
    store: Arc<dyn Store>,
}

/// Counts an analysis engine while it runs.
struct AnalysisSlot<'a>(&'a AtomicUsize);

impl Drop for AnalysisSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Games {
    /// Probes the games' engine (from `engines`; `command` is the
    /// analyst's) once for its algorithms. Each game's engine
    /// waits `step_pause` between the steps of its turns; the games are
    /// kept in `store` (call [`Games::resume`] to play on its unfinished
    /// ones).
    pub fn new(
        command: Vec<String>,
        engines: super::Engines,
        step_pause: Duration,
        store: Arc<dyn Store>,
    ) -> Games {
        let live = Arc::new(AtomicUsize::new(0));
        let (algorithms, levels, engine_error) = match crate::engines::probe(&engines, &live) {
            Ok(ugi) => (
                option_choices(&ugi, "Algorithm"),
                Levels::from_ugi(&ugi),
                None,
            ),
            Err(e) => (Vec::new(), Levels::default(), Some(e)),
        };
        Games {
            sessions: Mutex::new(HashMap::new()),
            tables: Mutex::new(HashMap::new()),
            presence: Mutex::new(HashMap::new()),
            creating: Mutex::new(()),
            next_id: AtomicU64::new(1),
            live,
            command,
            engines,
            max_games: MAX_GAMES,
            algorithms,
            levels,
            engine_error,
            analyses: AtomicUsize::new(0),
            step_pause,
            store,
        }
    }

    /// At most `n` games at once (default [`MAX_GAMES`]).
    pub fn with_max_games(self, n: usize) -> Games {
        Games {
            max_games: n.max(1),
            ..self
        }
    }

    /// Why the engine could not be started at launch, if it could not.
    pub fn engine_error_text(&self) -> Option<String> {
        self.engine_error.clone()
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Access>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `id` and who `token` is at its table: a game that is not
    /// there is not found, a token that is not its own forbidden. An
    /// invited person is seen (for as long as the request lasts: the
    /// [`Seen`] kept), and given back their seat if the engine stood in.
    fn seated(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Session>, Who, Seen<'_>), Refusal> {
        let s = self.session(id)?;
        let who = self
            .tables()
            .get(&s.id)
            .ok_or_else(|| Refusal::NotFound("no such game".into()))?
            .check(token)?;
        let seen = match who {
            Who::Seat(seat) => {
                let seen = Seen::begin(self, (s.id, seat));
                let back = s
                    .seats()
                    .iter()
                    .any(|c| c.seat == seat && c.stand_in && !c.left);
                if back {
                    s.stand_in(seat, false, false)?;
                }
                seen
            }
            _ => Seen(None),
        };
        Ok((s, who, seen))
    }

    fn presence(&self) -> std::sync::MutexGuard<'_, HashMap<(u64, Seat), Presence>> {
        self.presence.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine stands in for each invited person away at their turn
    /// past their table's takeover time (called every half second).
    pub fn take_over(&self) {
        let tables: Vec<(u64, u64)> = self
            .tables()
            .iter()
            .filter_map(|(id, a)| a.takeover.map(|t| (*id, t)))
            .collect();
        for (id, after) in tables {
            let Some(s) = self.sessions().get(&id).cloned() else {
                continue;
            };
            let Some((side, seats)) = s.mover() else {
                continue;
            };
            let Some(c) = seats
                .iter()
                .find(|c| c.seat == side && c.invited && !c.stand_in)
            else {
                continue;
            };
            let away = self
                .presence()
                .entry((id, c.seat))
                .or_insert_with(Presence::new)
                .away_for();
            if away >= Duration::from_secs(after) {
                let _ = s.stand_in(c.seat, true, false);
            }
        }
    }

    /// The state as `who` sees it: who they are at the table and, for the
    /// host alone, the tokens its links are made of.
    fn seen_by(&self, id: u64, who: Who, mut state: serde_json::Value) -> serde_json::Value {
        state["you"] = who.view();
        if who == Who::Host
            && let Some(a) = self.tables().get(&id)
        {
            state["links"] = a.links();
        }
        state
    }

    fn session(&self, id: &str) -> Result<Arc<Session>, Refusal> {
        id.parse::<u64>()
            .ok()
            .and_then(|id| self.sessions().get(&id).cloned())
            .ok_or_else(|| Refusal::NotFound("no such game (it ended or was abandoned)".into()))
    }

    /// Closes the game and forgets it; the store keeps it as abandoned
    /// unless it is `kept` to be resumed (at shutdown).
    fn close(&self, id: u64, kept: bool) -> bool {
        let s = self.sessions().remove(&id);
        self.tables().remove(&id);
        self.presence().retain(|(game, _), _| *game != id);
        match s {
            Some(s) => {
                s.close();
                let abandoned = Status::Abandoned { at: unix_now() };
                if !kept && let Err(e) = self.store.end(id, &abandoned) {
                    eprintln!("warning: game {id}: {e}");
                }
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
            self.close(id, false);
        }
    }

    /// Closes every game (at shutdown); the store keeps them to resume.
    pub fn close_all(&self) {
        let ids: Vec<u64> = self.sessions().keys().copied().collect();
        for id in ids {
            self.close(id, true);
        }
    }

    /// Answers one request, which carries `token` (its `Authorization:
    /// Bearer` header) if any, from a client that `gone` tells has closed
    /// its connection (a long-poll then ends early: a closed tab is no
    /// longer a person present).
    pub fn handle(
        &self,
        method: &str,
        url: &str,
        body: &str,
        (token, gone): (Option<&str>, &dyn Fn() -> bool),
    ) -> Reply {
        self.route(method, url, body, (token, gone))
            .unwrap_or_else(Reply::from)
    }

    fn route(
        &self,
        method: &str,
        url: &str,
        body: &str,
        (token, gone): (Option<&str>, &dyn Fn() -> bool),
    ) -> Result<Reply, Refusal> {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        // A link the browser follows (a record's download) sends no
        // header: its token may come in the query instead.
        let in_query = match parts.as_slice() {
            ["api", "games", ..] if token.is_none() => query_value(query, "token")?,
            _ => None,
        };
        let token = token.or(in_query.as_deref());
        Ok(match (method, parts.as_slice()) {
            ("GET", [""]) => page_file("index.html"),
            ("GET", ["host.js"]) => Reply::text("text/javascript; charset=utf-8", NATIVE_HOST_JS),
            ("GET", [name]) if PAGE_FILES.iter().any(|f| f.0 == *name) => page_file(name),
            ("GET", ["api", "config"]) => {
                let config = Config::new(
                    (self.command.join(" "), self.engine_error.clone()),
                    self.algorithms.clone(),
                    self.levels,
                    (MOVETIME, requests::DEFAULT_MOVETIME),
                    self.step_pause,
                    self.max_games,
                );
                Reply::json(200, serde_json::to_value(config).unwrap_or_default())
            }
            ("GET", ["api", "status"]) => {
                let (searching, queued) = self.engines.searches();
                Reply::json(
                    200,
                    serde_json::json!({
                        "engines": self.live.load(Ordering::SeqCst),
                        "games": self.sessions().len(),
                        "searching": searching,
                        "queued": queued,
                    }),
                )
            }
            ("GET", ["api", "preview"]) => preview(query)?,
            ("GET", ["api", "threats"]) => threats(query)?,
            ("POST", ["api", "shutdown"]) => Reply {
                shutdown: true,
                ..Reply::json(200, serde_json::json!({ "stopping": true }))
            },
            ("POST", ["api", "games"]) => self.new_game(body, token)?,
            ("GET", ["api", "history"]) => self.history(query)?,
            ("GET", ["api", "lobby"]) => self.lobby(),
            ("POST", ["api", "lobby", id, "sit"]) => self.sit(id, body)?,
            ("GET", ["api", "history", id, "record"]) => self.history_record(id)?,
            ("GET", ["api", "games", id]) => {
                let (s, who, _seen) = self.seated(id, token)?;
                let state = match query_value(query, "since")? {
                    Some(v) => {
                        let v = v.parse::<u64>().map_err(|_| {
                            Refusal::BadRequest("since: expected a version number".into())
                        })?;
                        s.get(Some(v), LONG_POLL, gone)
                    }
                    None => s.get(None, Duration::ZERO, gone),
                };
                Reply::json(200, self.seen_by(s.id, who, state))
            }
            ("DELETE", ["api", "games", id]) => {
                let (s, who, _seen) = self.seated(id, token)?;
                who.host_only("close the game")?;
                self.close(s.id, false);
                Reply::json(200, serde_json::json!({ "closed": true }))
            }
            ("POST", ["api", "games", id, action]) => {
                let (s, who, _seen) = self.seated(id, token)?;
                let state = self.action(&s, who, action, body)?;
                Reply::json(200, self.seen_by(s.id, who, state))
            }
            ("GET", ["api", "games", id, "positions"]) => {
                let (_, game) = self.seated(id, token)?.0.game();
                let positions = Positions::of(&game);
                Reply::json(200, serde_json::to_value(positions).unwrap_or_default())
            }
            ("GET", ["api", "games", id, "record"]) => {
                let (s, _, _seen) = self.seated(id, token)?;
                Reply {
                    status: 200,
                    content_type: "text/plain; charset=utf-8",
                    body: s.record(),
                    download: Some(format!("splut-game-{id}.txt")),
                    shutdown: false,
                    retry_after: None,
                }
            }
            (_, ["api", ..]) => {
                return Err(Refusal::NotFound("no such API route or method".into()));
            }
            _ => return Err(Refusal::NotFound("not found".into())),
        })
    }

    /// `POST /api/games/<id>/<action>`, by `who`: a step or a hint for
    /// their own seat, a review by anyone seated, a name for an invited
    /// seat, and the host's take-back, restart, change of pace or next
    /// engine step.
    fn action(
        &self,
        s: &Session,
        who: Who,
        action: &str,
        body: &str,
    ) -> Result<serde_json::Value, Refusal> {
        match action {
            "step" => {
                let b: StepIn = requests::body(body)?;
                own_turn(s, who)?;
                s.step(&b.step)
            }
            "join" => {
                let b: JoinIn = requests::body(body)?;
                match who {
                    Who::Seat(seat) => s.set_name(seat, &b.name),
                    _ => Err(Refusal::Forbidden(
                        "only an invited seat's link takes a name".into(),
                    )),
                }
            }
            "leave" => match who {
                // For good: the engine plays the seat to the game's end.
                Who::Seat(seat) => s.stand_in(seat, true, true),
                _ => Err(Refusal::Forbidden(
                    "only an invited seat's link leaves the game".into(),
                )),
            },
            "takeback" => who.host_only("take back").and_then(|_| s.take_back()),
            "pace" => {
                let b: PaceIn = requests::body(body)?;
                who.host_only("change the pace")?;
                s.set_pace(b.pace)
            }
            "next" => who
                .host_only("show the next step")
                .and_then(|_| s.next_step()),
            "restart" => who
                .host_only("restart the engine")
                .and_then(|_| s.restart_engine()),
            "end" => who.host_only("end the game").and_then(|_| s.end_here()),
            _ => match Kind::named(action) {
                Some(Kind::Hint) => {
                    own_turn(s, who).and_then(|_| self.analyse(s, Kind::Hint, body))
                }
                Some(kind) if who != Who::Spectator => self.analyse(s, kind, body),
                Some(_) => Err(Refusal::Forbidden("spectators ask for no reviews".into())),
                None => Err(Refusal::NotFound("no such action".into())),
            },
        }
    }

    /// `POST /api/games`; a game it `replace`s is closed only when the
    /// request holds that game's host token (a guest's new game leaves
    /// the table playing).
    fn new_game(&self, body: &str, token: Option<&str>) -> Result<Reply, Refusal> {
        let mut req = requests::new_game(body)?;
        let (game, seats) = req.check(&self.algorithms, &self.levels, MOVETIME)?;
        let _creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        // The game replaced makes room, but is closed only once the new
        // one runs: a refused new game leaves the old one playing.
        let replaced = req.replace.filter(|old| {
            self.sessions().contains_key(old)
                && self.tables().get(old).and_then(|a| a.who(token)) == Some(Who::Host)
        });
        if self.sessions().len() - usize::from(replaced.is_some()) >= self.max_games {
            return Err(Refusal::TooManyGames(self.max_games));
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let mut access = Access::new(&seats, req.takeover)?;
        access.lobby = req.lobby;
        self.keep_new(id, &game, &seats, req.pace, &access)?;
        let session = Session::start(
            (id, game, seats),
            self.engines.clone(),
            self.live.clone(),
            (self.step_pause, self.levels, req.pace),
            self.store.clone(),
        )
        .inspect_err(|_| {
            let _ = self.store.end(id, &Status::Abandoned { at: unix_now() });
        })?;
        if let Some(old) = replaced {
            self.close(old, false);
        }
        if req.ended {
            // A kept game the host had ended ends there again (refused
            // only if it cannot: over already, or a person in it).
            let _ = session.end_here();
        }
        let state = session.get(None, Duration::ZERO, &|| false);
        self.sessions().insert(id, session);
        self.tables().insert(id, access);
        Ok(Reply::json(201, self.seen_by(id, Who::Host, state)))
    }
}

/// An invited person's comings and goings.
struct Presence {
    /// Their requests under way.
    in_flight: usize,
    /// When they were last seen (their last request's end, or the
    /// table's making).
    last: std::time::Instant,
}

impl Presence {
    fn new() -> Presence {
        Presence {
            in_flight: 0,
            last: std::time::Instant::now(),
        }
    }

    /// How long nobody has been there (zero while a request is).
    fn away_for(&self) -> Duration {
        if self.in_flight > 0 {
            Duration::ZERO
        } else {
            self.last.elapsed()
        }
    }
}

/// An invited person's request under way: seen until it ends.
struct Seen<'a>(Option<(&'a Games, (u64, Seat))>);

impl<'a> Seen<'a> {
    fn begin(games: &'a Games, key: (u64, Seat)) -> Seen<'a> {
        games
            .presence()
            .entry(key)
            .or_insert_with(Presence::new)
            .in_flight += 1;
        Seen(Some((games, key)))
    }
}

impl Drop for Seen<'_> {
    fn drop(&mut self) {
        if let Some((games, key)) = self.0 {
            let mut p = games.presence();
            let e = p.entry(key).or_insert_with(Presence::new);
            e.in_flight = e.in_flight.saturating_sub(1);
            e.last = std::time::Instant::now();
        }
    }
}

/// `POST /api/games/<id>/join`: the name an invited person gives.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinIn {
    name: String,
}

/// Refused when a person other than `who` is to move (a step or a hint
/// is the mover's alone); a spectator is refused always. The engine's
/// turn and a finished game are left to the game to refuse (409).
fn own_turn(s: &Session, who: Who) -> Result<(), Refusal> {
    let open = match s.mover() {
        Some((side, seats)) => {
            who.plays(side, &seats) || seats.iter().any(|c| c.seat == side && c.engine)
        }
        None => true,
    };
    if who != Who::Spectator && open {
        return Ok(());
    }
    Err(match who {
        Who::Spectator => Refusal::Forbidden("spectators play no seat".into()),
        _ => Refusal::Forbidden("not your seat: the side to move is another's".into()),
    })
}

/// One of the page's files by name; `index.html` for a name it lacks.
fn page_file(name: &str) -> Reply {
    let (_, kind, text) = PAGE_FILES
        .iter()
        .find(|f| f.0 == name)
        .unwrap_or(&PAGE_FILES[0]);
    Reply::text(kind, text)
}

/// At most `n` characters of `s`, control characters shown as `?`.
fn short(s: &str, n: usize) -> String {
    s.chars()
        .take(n)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `GET /api/threats?spn=…&seat=r`: the enemy throws that could kill the
/// seat's sorcerer before its next turn, and its own kills at hand
/// ([`super::threats`]).
fn threats(query: &str) -> Result<Reply, Refusal> {
    for (k, _) in query_pairs(query)? {
        if k != "spn" && k != "seat" {
            return Err(Refusal::BadRequest(format!(
                "unknown parameter '{}' (spn or seat)",
                short(&k, 20)
            )));
        }
    }
    let spn =
        query_value(query, "spn")?.ok_or_else(|| Refusal::BadRequest("spn: missing".into()))?;
    if spn.len() > MAX_SPN {
        return Err(Refusal::BadInput(format!(
            "bad SPN: over {MAX_SPN} characters"
        )));
    }
    let pos =
        Position::from_spn(spn.trim()).map_err(|e| Refusal::BadInput(format!("bad SPN: {e}")))?;
    let seat = splut_board::threats::seat_named(query_value(query, "seat")?.as_deref(), &pos)
        .map_err(Refusal::BadInput)?;
    let t = splut_board::threats::threats(&pos, seat).map_err(Refusal::BadInput)?;
    Ok(Reply::json(
        200,
        serde_json::to_value(t).unwrap_or_default(),
    ))
}

impl Games {
    /// An engine of its own for a hint or a review, spawned (the analysis
    /// does its handshake), while fewer than [`MAX_ANALYSES`] run; the
    /// slot is freed when dropped.
    fn analyst(&self) -> Result<(Client, AnalysisSlot<'_>), Refusal> {
        if self.analyses.fetch_add(1, Ordering::SeqCst) >= MAX_ANALYSES {
            self.analyses.fetch_sub(1, Ordering::SeqCst);
            return Err(Refusal::Busy);
        }
        let slot = AnalysisSlot(&self.analyses);
        let engine = crate::engines::spawn_engine(&self.command, &self.live)
            .map_err(Refusal::EngineFailed)?;
        Ok((engine, slot))
    }

    /// `POST /api/games/<id>/hint` (the engine's best turn for the side
    /// to move, not played) or `…/review` (every turn's drop in its
    /// mover's chance to win, the worst marked, with the engine's better
    /// turn): the board's [`Analysis`] run against an engine of its own.
    fn analyse(&self, s: &Session, kind: Kind, body: &str) -> Result<serde_json::Value, Refusal> {
        let (_, game) = s.game();
        // A fresh analyst each time: the analysis does its handshake.
        let mut analysis = Analysis::new(kind, &game, body, true)?;
        if !analysis.done() {
            let (mut engine, _slot) = self.analyst()?;
            super::analyst::run(&mut engine, &mut analysis);
            engine.quit(super::QUIT_GRACE);
        }
        analysis
            .outcome()
            .cloned()
            .unwrap_or_else(|| Err(Refusal::EngineFailed("the analysis did not end".into())))
    }
}

/// `GET /api/preview?players=N` or `?spn=…`: the position a new game
/// would start from, checked as `POST /api/games` checks it, for the page
/// to draw before Start (splut-board's `preview`, as the static board's).
fn preview(query: &str) -> Result<Reply, Refusal> {
    for (k, _) in query_pairs(query)? {
        if k != "players" && k != "spn" {
            return Err(Refusal::BadRequest(format!(
                "unknown parameter '{}' (players or spn)",
                k.chars().take(20).collect::<String>()
            )));
        }
    }
    let players = query_value(query, "players")?;
    let spn = query_value(query, "spn")?;
    let p = new_game::preview(players.as_deref(), spn.as_deref())?;
    Ok(Reply::json(
        200,
        serde_json::to_value(p).unwrap_or_default(),
    ))
}

/// The query's `key=value` pairs, percent-decoded (`+` is a space).
fn query_pairs(query: &str) -> Result<Vec<(String, String)>, Refusal> {
    query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            Ok((percent_decode(k)?, percent_decode(v)?))
        })
        .collect()
}

/// The value of `key` in the query; a key given twice is refused.
fn query_value(query: &str, key: &str) -> Result<Option<String>, Refusal> {
    let mut found = None;
    for (k, v) in query_pairs(query)? {
        if k == key {
            if found.is_some() {
                return Err(Refusal::BadRequest(format!("{key}: given twice")));
            }
            found = Some(v);
        }
    }
    Ok(found)
}

/// `%XX` escapes and `+` for a space, to UTF-8 text.
fn percent_decode(s: &str) -> Result<String, Refusal> {
    let bad = || Refusal::BadRequest("the query is not percent-encoded UTF-8".into());
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(r: &Reply) -> serde_json::Value {
        serde_json::from_str(&r.body).unwrap()
    }

    #[test]
    fn refusals_map_to_statuses_in_one_place() {
        let m = |s: &str| s.to_string();
        for (refusal, want, message) in [
            (Refusal::BadRequest(m("bad JSON: x")), 400, "bad JSON: x"),
            (Refusal::Forbidden(m("no")), 403, "no"),
            (Refusal::NotFound(m("no such game")), 404, "no such game"),
            (Refusal::NotPersonsTurn, 409, "it is the engine's turn"),
            (Refusal::GameOver, 409, "the game is over"),
            (Refusal::NothingToTakeBack, 409, "nothing to take back"),
            (
                Refusal::Taken(m("the seat 'y' is taken")),
                409,
                "the seat 'y' is taken",
            ),
            (
                Refusal::EngineDown(m("engine crashed")),
                409,
                "engine crashed",
            ),
            (
                Refusal::TooLarge(65536),
                413,
                "request body over 65536 bytes",
            ),
            (Refusal::BadInput(m("bad SPN: x")), 422, "bad SPN: x"),
            (
                Refusal::IllegalStep(m("'e2e4' is not a legal step here")),
                422,
                "'e2e4' is not a legal step here",
            ),
            (
                Refusal::TooManyGames(8),
                429,
                "at most 8 games at once: close one first",
            ),
            (
                Refusal::EngineFailed(m("cannot start")),
                502,
                "cannot start",
            ),
            (Refusal::Busy, 503, "too many requests at once"),
            (
                Refusal::Store(m("not saved: disk full")),
                500,
                "not saved: disk full",
            ),
        ] {
            assert_eq!(status(&refusal), want, "{refusal:?}");
            let reply = Reply::from(refusal.clone());
            assert_eq!(reply.status, want, "{refusal:?}");
            assert_eq!(reply.content_type, "application/json");
            assert_eq!(body(&reply), serde_json::json!({ "error": message }));
        }
    }

    #[test]
    fn queries_are_decoded_and_checked() {
        assert_eq!(percent_decode("a%2Fb+c%20d").unwrap(), "a/b c d");
        assert_eq!(percent_decode("%C3%A9").unwrap(), "é");
        for bad in ["%", "%4", "%zz", "%FF", "%C3"] {
            assert!(
                matches!(percent_decode(bad), Err(Refusal::BadRequest(_))),
                "{bad}"
            );
        }
        assert_eq!(
            query_value("players=3&x", "players").unwrap().as_deref(),
            Some("3")
        );
        assert_eq!(query_value("", "spn").unwrap(), None);
        assert!(query_value("spn=a&spn=b", "spn").is_err());
    }

    #[test]
    fn previews_are_checked_like_new_games() {
        let ok = |q: &str| {
            let r = preview(q).unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(r.status, 200);
            body(&r)
        };
        let two = ok("players=2");
        assert_eq!(two["spn"], "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
        assert_eq!(two["seats"], serde_json::json!(["r", "g"]));
        assert_eq!(two["board"]["spn"], two["spn"]);
        assert_eq!(two["board"]["pieces"]["d2"], "rS");
        assert_eq!(ok("players=3")["seats"], serde_json::json!(["r", "y", "g"]));
        assert_eq!(ok("players=4")["seats"].as_array().unwrap().len(), 4);
        let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
        let q = format!("spn={}", spn.replace('/', "%2F").replace(' ', "+"));
        assert_eq!(ok(&q)["spn"], spn);
        for (q, want) in [
            ("", 400),
            ("players=2&spn=x", 400),
            ("players=9", 422),
            ("players=-1", 422),
            ("players=2&players=3", 400),
            ("spn=junk", 422),
            ("spn=%ZZ", 400),
            ("cmd=sh", 400),
        ] {
            let r = preview(q).map(|_| ()).unwrap_err();
            assert_eq!(status(&r), want, "{q}: {r}");
        }
        let long = format!("spn={}", "R".repeat(MAX_SPN + 1));
        assert_eq!(status(&preview(&long).unwrap_err()), 422);
    }
}
