//! The static board's session: `splut gui`'s game machine
//! ([`splut_board::session`]) in the module, answering the page's API as
//! the native server's `api.rs` answers it, with the same request bodies
//! ([`splut_board::session::requests`]); the machine reads its engine's
//! lines itself ([`Session::engine_line`]) and does its handshake. The
//! page's JavaScript (`board-local.js`) only carries: requests in, the
//! engine worker's lines in, the machine's [`Command`]s out to the worker
//! (spawn one, a line, end it), and one timer for
//! [`BoardSession::wake_at`]. Hints and reviews are the board's analysis
//! machine ([`splut_board::session::analysis`]), one at a time, whose
//! lines the page carries to a second engine worker (the analyst) and
//! back.
//!
//! Every answer is JSON: `{"ok": value}`, or `{"error": why}` for a
//! refused request (the page shows `why`).

use serde_json::{Value, json};
use splut_board::session::analysis::{Analysis, Kind};
use splut_board::session::config::Config;
use splut_board::session::handshake;
use splut_board::session::levels::Levels;
use splut_board::session::new_game;
use splut_board::session::requests::{self, DEFAULT_MOVETIME, MOVETIME, PaceIn, StepIn};
use splut_board::session::view::Positions;
use splut_board::session::{Command, Refusal, Session};
use splut_play::answer::option_choices;
use std::time::Duration;

/// The pause between the steps of an engine's turn, as `splut gui`'s
/// default.
pub const STEP_PAUSE: Duration = Duration::from_millis(350);

/// One game at a time on the static board, and what its engine offers.
pub struct BoardSession {
    game: Option<Session>,
    next_id: u64,
    algorithms: Vec<String>,
    levels: Levels,
    /// Commands of games closed, before the current game's.
    pending: Vec<Command>,
    /// The hint or review under way, if any.
    analysis: Option<Analysis>,
    /// Whether the page's analyst worker is kept ready (an analysis did
    /// its handshake, and none failed since: the page ends an analyst
    /// that failed).
    analyst_ready: bool,
}

impl Default for BoardSession {
    fn default() -> Self {
        BoardSession::new()
    }
}

/// A request's answer: a JSON value or a refusal.
type Answer = Result<Value, Refusal>;

/// `GET /api/preview`: the body is `{"players": "2"}` or `{"spn": …}`,
/// the query's values as given; the answer is `splut gui`'s
/// ([`new_game::preview`]).
fn preview(body: &str) -> Answer {
    let q: Value =
        serde_json::from_str(body).map_err(|e| Refusal::BadRequest(format!("bad JSON: {e}")))?;
    let p = new_game::preview(q["players"].as_str(), q["spn"].as_str())?;
    Ok(serde_json::to_value(p).unwrap_or(Value::Null))
}

impl BoardSession {
    /// No game yet; the engine's algorithms and levels from its own
    /// handshake (this module's engine answering `ugi`).
    pub fn new() -> BoardSession {
        let mut engine = crate::Protocol::new();
        let mut handshake = handshake::begin(Duration::ZERO);
        for command in handshake.commands() {
            engine.line(&command.to_string());
        }
        for line in engine.take_output().lines() {
            handshake.line(line, Duration::ZERO);
        }
        let ugi = handshake.lines().to_vec();
        let mut levels = Levels::from_ugi(&ugi);
        // Full strength was measured natively (docs/results/levels.md);
        // this engine searches 1.5-2.2 times slower, so no Elo is claimed
        // for it. The levels below full strength are node-capped: they
        // play as natively.
        levels.full_elo = None;
        BoardSession {
            game: None,
            next_id: 1,
            algorithms: option_choices(&ugi, "Algorithm"),
            levels,
            pending: Vec::new(),
            analysis: None,
            analyst_ready: false,
        }
    }

    /// Answers one call: `what` names it, `id` is the game's (for a
    /// game's request), `body` the request's body (or the engine's line,
    /// or why it is gone), `now` the host's clock.
    pub fn call(&mut self, what: &str, id: &str, body: &str, now: Duration) -> String {
        let answer = match what {
            "config" => Ok(self.config()),
            "preview" => preview(body),
            "new_game" => self.new_game(body, now),
            "version" => Ok(self.version()),
            "engine_line" => Ok(self.engine_line(body, now)),
            "engine_gone" => Ok(self.engine_gone(body, now)),
            "wake" => Ok(self.wake(now)),
            "wake_at" => Ok(json!(self.wake_at().map(|t| t.as_millis() as u64))),
            "commands" => Ok(self.take_commands()),
            "analysis_line" => self.analysis_line(body),
            "analysis_gone" => self.analysis_gone(body),
            _ => self.request(what, id, body, now),
        };
        match answer {
            Ok(v) => json!({ "ok": v }).to_string(),
            Err(r) => json!({ "error": r.to_string() }).to_string(),
        }
    }

    /// A request about the game `id`.
    fn request(&mut self, what: &str, id: &str, body: &str, now: Duration) -> Answer {
        if let Some(kind) = Kind::named(what) {
            return self.analysis_start(kind, id, body);
        }
        let g = self.game(id)?;
        match what {
            // The clocks' time left as of this answer.
            "state" => g.observe(now),
            "step" => {
                let b: StepIn = requests::body(body)?;
                g.step(&b.step, now)?;
            }
            "takeback" => g.take_back(now)?,
            "restart" => g.restart(now),
            "pace" => {
                let b: PaceIn = requests::body(body)?;
                g.set_pace(b.pace, now);
            }
            "next" => g.next(now)?,
            "end" => g.end_here(now)?,
            "close" => {
                self.close();
                return Ok(json!({ "closed": true }));
            }
            "record" => return Ok(json!(g.record())),
            "positions" => {
                return Ok(serde_json::to_value(Positions::of(g.game())).unwrap_or(Value::Null));
            }
            _ => return Err(Refusal::NotFound("no such API route or method".into())),
        }
        Ok(serde_json::to_value(&*g).unwrap_or(Value::Null))
    }

    /// `GET /api/config`: as `splut gui`'s, for this engine.
    fn config(&self) -> Value {
        let config = Config::new(
            ("splut (WebAssembly, in this page)".into(), None),
            self.algorithms.clone(),
            self.levels,
            (MOVETIME, DEFAULT_MOVETIME),
            STEP_PAUSE,
            1,
        );
        serde_json::to_value(config).unwrap_or(Value::Null)
    }

    /// The game `id`, if it is the one playing.
    fn game(&mut self, id: &str) -> Result<&mut Session, Refusal> {
        let id = id.parse::<u64>().ok();
        self.game
            .as_mut()
            .filter(|g| Some(g.id()) == id)
            .ok_or_else(|| Refusal::NotFound("no such game (it ended or was abandoned)".into()))
    }

    /// `POST /api/games`: a new game, checked as `splut gui` checks it;
    /// it replaces the game playing (one at a time here).
    pub fn new_game(&mut self, body: &str, now: Duration) -> Answer {
        let mut req = requests::new_game(body)?;
        let (game, seats) = req.check(&self.algorithms, &self.levels, MOVETIME)?;
        if seats.iter().any(|s| s.invited) {
            // One page, one device: a table with friends needs a server.
            return Err(Refusal::BadInput(
                "seats: invitations need a server (splut gui); here every person plays at this screen".into(),
            ));
        }
        self.close();
        let id = self.next_id;
        self.next_id += 1;
        let mut g = Session::new(id, game, seats, self.levels, STEP_PAUSE, req.pace, now);
        if req.ended {
            // Refused only if it cannot end (over already, a person in).
            let _ = g.end_here(now);
        }
        let state = serde_json::to_value(&g).unwrap_or(Value::Null);
        self.game = Some(g);
        Ok(state)
    }

    /// Closes the game playing, if any: its engine's quit waits in the
    /// commands.
    pub fn close(&mut self) {
        if let Some(mut g) = self.game.take() {
            g.close();
            while let Some(c) = g.command() {
                self.pending.push(c);
            }
        }
    }

    /// A line from the game's engine; the game's version after it
    /// (`[id, version]`).
    pub fn engine_line(&mut self, line: &str, now: Duration) -> Value {
        if let Some(g) = self.game.as_mut() {
            g.engine_line(line, now);
        }
        self.version()
    }

    /// The game's engine is gone (`why`); the game's version after it.
    pub fn engine_gone(&mut self, why: &str, now: Duration) -> Value {
        if let Some(g) = self.game.as_mut() {
            g.engine_gone(why, now);
        }
        self.version()
    }

    /// Time passed; the game's version after it.
    pub fn wake(&mut self, now: Duration) -> Value {
        if let Some(g) = self.game.as_mut() {
            g.wake(now);
        }
        self.version()
    }

    /// When [`BoardSession::wake`] is wanted, on the host's clock.
    pub fn wake_at(&self) -> Option<Duration> {
        self.game.as_ref().and_then(Session::wake_at)
    }

    /// The game playing and its version, `[id, version]`: it changes
    /// whenever the page should see a change; `null` with no game.
    fn version(&self) -> Value {
        json!(self.game.as_ref().map(|g| [g.id(), g.version()]))
    }

    /// `POST /api/games/<id>/hint` or `…/review`: the analysis of the
    /// game `id` begins (refused as `splut gui` refuses it), replacing any
    /// other (the page runs one at a time); its first lines for the
    /// analyst ([`BoardSession::analysis_step`]). The analyst is one the
    /// page keeps: the analysis does its handshake if it is not ready.
    fn analysis_start(&mut self, kind: Kind, id: &str, body: &str) -> Answer {
        let fresh = !self.analyst_ready;
        let analysis = Analysis::new(kind, self.game(id)?.game(), body, fresh)?;
        self.analysis = Some(analysis);
        self.analysis_step()
    }

    /// A line from the analyst, to the analysis under way.
    fn analysis_line(&mut self, line: &str) -> Answer {
        if let Some(a) = self.analysis.as_mut() {
            a.engine_line(line);
        }
        self.analysis_step()
    }

    /// The analyst is gone (`why`): the analysis fails.
    fn analysis_gone(&mut self, why: &str) -> Answer {
        if let Some(a) = self.analysis.as_mut() {
            a.engine_gone(why);
        }
        self.analysis_step()
    }

    /// The analysis's lines for the analyst, and its end: `{"commands":
    /// [line, …], "done": false}` while it runs, `{"commands": [], "done":
    /// true, "answer": …}` (the page's answer) once it is done, or its
    /// refusal if it failed; an analysis done is forgotten.
    fn analysis_step(&mut self) -> Answer {
        let Some(a) = self.analysis.as_mut() else {
            return Ok(json!({ "commands": [], "done": false }));
        };
        let commands: Vec<String> = a.commands().iter().map(|c| c.to_string()).collect();
        match a.outcome().cloned() {
            None => Ok(json!({ "commands": commands, "done": false })),
            Some(outcome) => {
                // A failed analyst is ended by the page; one that answered
                // is kept, ready.
                self.analyst_ready = outcome.is_ok() && (self.analyst_ready || a.handshaken());
                self.analysis = None;
                outcome.map(|answer| json!({ "commands": [], "done": true, "answer": answer }))
            }
        }
    }

    /// The engine commands to carry out, in order: `{"do": "spawn"}` (a
    /// fresh engine worker: the lines after it are its handshake),
    /// `{"do": "send", "line": …}`, `{"do": "quit"}`.
    pub fn take_commands(&mut self) -> Value {
        let mut out = std::mem::take(&mut self.pending);
        if let Some(g) = self.game.as_mut() {
            while let Some(c) = g.command() {
                out.push(c);
            }
        }
        let list: Vec<Value> = out
            .into_iter()
            .map(|c| match c {
                Command::Spawn => json!({ "do": "spawn" }),
                Command::Send(command) => json!({ "do": "send", "line": command.to_string() }),
                Command::Quit => json!({ "do": "quit" }),
            })
            .collect();
        Value::Array(list)
    }
}

#[cfg(test)]
mod tests;
