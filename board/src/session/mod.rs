//! One game on the board as a state machine with no I/O: no threads, no
//! processes, no clock. Its host (`splut gui`'s server, or the static
//! board) feeds it the page's requests, the engine's lines
//! ([`Session::engine_line`], read by the machine's own
//! [`reader::EngineReader`] into [`EngineEvent`]s), the engine's end and
//! timer wake-ups, each with the
//! time `now` since the host began; it answers with [`Command`]s for the
//! engine (spawn one, a protocol command, quit), the time it wants to be
//! woken at ([`Session::wake_at`]) and the state as the page reads it (its
//! `Serialize`, [`view`]). The machine speaks the protocol end to end: a
//! fresh engine's handshake ([`handshake`]) is its own, so a host only
//! spawns engines, moves lines and keeps the timer.
//!
//! Every engine search has an id; the engine answers its `go`s in order,
//! so each `bestmove` ends the oldest search still open. A search the game
//! moved away from (a take-back, a restart) is told to `stop` and its late
//! answer is dropped: an engine never plays a turn it was not asked for.

pub mod analysis;
pub mod clock;
pub mod config;
pub mod handshake;
pub mod levels;
pub mod limit;
pub mod new_game;
pub mod reader;
pub mod refusal;
pub mod requests;
pub mod view;

#[cfg(test)]
mod tests;

use clock::{Running, SeatClock};
use levels::{Level, Levels};
pub use refusal::Refusal;
use serde::{Deserialize, Serialize};
use splut_play::judge::{Forfeit, Reason};
use splut_play::record::{Participant, Strength, board_record_clocked, board_record_ended};
use splut_protocol::Command as EngineCommand;
use splut_protocol::command::{Go, PositionCommand, SetOption};
use splut_rules::{Game, Position, Seat};
use std::collections::VecDeque;
use std::time::Duration;

/// An engine silent this long past its time per turn is hung.
pub const HUNG_AFTER: Duration = Duration::from_secs(10);

/// The least time between two versions that differ only by the engine's
/// `info` (its thinking, on the page): an engine writes a line for each
/// depth, several in 100 ms, and each version wakes every page of the
/// game; a person reads no more than a few a second.
pub const INFO_EVERY: Duration = Duration::from_millis(250);

/// Who plays a seat (read back by a host that keeps its games).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatConfig {
    /// The seat: `r`, `y`, `g` or `b` in JSON.
    #[serde(
        serialize_with = "crate::letters::text",
        deserialize_with = "crate::letters::seat"
    )]
    pub seat: Seat,
    /// A person (clicks on the page) or the engine.
    pub engine: bool,
    /// The engine's `Algorithm`.
    pub algorithm: String,
    /// The engine's time per turn in ms.
    pub movetime: u64,
    /// The engine's level (full strength if none).
    pub level: Option<Level>,
    /// A person's seat that waits for someone invited to it (a table's
    /// open seat, `splut gui` only): that person plays it, from their own
    /// device.
    #[serde(default)]
    pub invited: bool,
    /// The name its person gave (none until then).
    #[serde(default)]
    pub name: Option<String>,
    /// A person's seat the engine plays for now: its person is away (a
    /// table's takeover) or left for good.
    #[serde(default)]
    pub stand_in: bool,
    /// Its person left for good: the engine plays it to the end.
    #[serde(default)]
    pub left: bool,
    /// The turns the engine played for this person (unrated for them).
    #[serde(default)]
    pub stood_in: Vec<u32>,
    /// A person's clock, if the game has clocks ([`clock`]).
    #[serde(default)]
    pub clock: Option<SeatClock>,
}

impl SeatConfig {
    /// Whether the engine plays this seat now (its own, or standing in:
    /// its person is away or left, or their clock ran out this turn).
    pub fn engine_plays(&self) -> bool {
        self.engine || self.stand_in || self.out_of_time()
    }

    /// Whether its person's clock ran out in the turn under way (the
    /// engine plays the rest of it, and gives it back at no request).
    pub fn out_of_time(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.out)
    }

    /// A friend's seat nobody took yet (no name given, not left): the
    /// lobby offers it to anyone.
    pub fn open(&self) -> bool {
        self.invited && self.name.is_none() && !self.left
    }
}

/// Longest name a person may give their seat, in characters.
pub const MAX_NAME: usize = 24;

/// A person's name for their seat, checked: 1 to [`MAX_NAME`] characters
/// once trimmed, none of them a control character. The page shows it as
/// text, never as markup.
pub fn seat_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME {
        return Err(Refusal::BadInput(format!(
            "name: 1 to {MAX_NAME} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(Refusal::BadInput("name: no control characters".into()));
    }
    Ok(name.to_string())
}

/// How fast an engine's steps are shown to the people watching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    /// No pause: each step as soon as it is known.
    None,
    /// The host's step pause between the steps of a turn (and before its
    /// first step when an engine's turn came before it).
    #[default]
    Normal,
    /// [`slow_pause`] where `Normal` pauses.
    Slow,
    /// Each step waits until the page asks for it (`next`).
    Step,
}

/// The slow pace's pause: 4 × the normal one, at least 1.2 s.
pub fn slow_pause(normal: Duration) -> Duration {
    (normal * 4).max(Duration::from_millis(1200))
}

/// A search's report as the page reads it (render.js's `infoText`):
/// `{"depth": 3, "score": "cp 14", "nodes": 120, "time": 5, "pv":
/// ["d2d3@e1", …]}`, each field `null` (`[]`) when the line has none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InfoView {
    /// `depth`.
    pub depth: Option<u32>,
    /// `score`, its words: `cp 14`, `win 3`, `loss 2`.
    pub score: Option<String>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `time`, in milliseconds.
    pub time: Option<u64>,
    /// `pv`: the steps' texts.
    pub pv: Vec<String>,
}

/// Each seat's chance to win, in seat order.
pub type WinProb = crate::review::WinProb;

/// What the engine said, read by the host with the engine's own words.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// An `info` line: the page's fields, and each seat's chance to win
    /// by it in the position searched ([`Session::searched`]), if it reads.
    Info(InfoView, Option<WinProb>),
    /// `info string error: <why>`: the engine refused to play.
    Refused(String),
    /// Its answer, `bestmove` (with the `bestturn` before it), read as
    /// the tournament reads it: the steps of its turn, or why none.
    Answer(Result<Vec<String>, Forfeit>),
}

/// What the host must do for the machine, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Spawn a fresh engine (quitting the one running, if any), and
    /// nothing more: the commands after it are its handshake. If it
    /// cannot, tell [`Session::engine_gone`].
    Spawn,
    /// Send this command to the engine (its line is its `Display`).
    Send(EngineCommand),
    /// Quit the engine: the game needs none now.
    Quit,
}

/// What the engine thought of the game at one of its turns.
#[derive(Clone, Debug, Serialize)]
pub struct EvalPoint {
    /// Steps played when it began thinking.
    pub step: usize,
    /// The seat it thought for (its letter in JSON).
    #[serde(serialize_with = "crate::letters::text")]
    pub seat: Seat,
    /// Its last score.
    pub score: Option<String>,
    /// Each seat's chance to win (`{"r": 0.6, …}`).
    #[serde(serialize_with = "crate::letters::probabilities")]
    pub winprob: WinProb,
}

/// What the engine is thinking, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct Thinking {
    /// The seat it thinks for (its letter in JSON).
    #[serde(serialize_with = "crate::letters::text")]
    pub seat: Seat,
    /// The last `info` line with any of the page's fields.
    pub info: Option<InfoView>,
    /// Each seat's chance to win by it (`{"r": 0.6, …}`), if it reads.
    #[serde(serialize_with = "view::probabilities_or_null")]
    pub winprob: Option<WinProb>,
}

/// The engine process, as far as the machine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// Started and not known to be gone.
    Up,
    /// Quit on purpose (the game is over, or closed).
    Stopped,
    /// Crashed, hung or could not start: the error says why.
    Down,
}

/// One `go` sent to the engine and not yet answered.
#[derive(Clone, Debug)]
struct Search {
    /// False once the game moved away from it (`stop` was sent).
    live: bool,
    /// Steps played when it began.
    step: usize,
    /// Past this, the engine is hung.
    deadline: Duration,
    /// The time it was given to answer, for the message.
    limit: Duration,
}

/// An engine's turn being shown, one step at a time.
#[derive(Clone, Debug)]
struct Showing {
    turn: Vec<String>,
    /// The next step to show.
    next: usize,
    /// When the last step (or the answer) was shown.
    since: Duration,
}

/// A game on the board: its seats, its steps, its engine's searches and
/// how the engine's steps are shown.
#[derive(Clone, Debug)]
pub struct Session {
    id: u64,
    /// Bumped on every change the page should see.
    version: u64,
    start_spn: String,
    game: Game,
    seats: Vec<SeatConfig>,
    levels: Levels,
    /// The engine's `Seed` for this game ([`levels::game_seed`]).
    seed: u64,
    step_pause: Duration,
    pace: Pace,
    engine: Engine,
    /// Reads the engine's lines into events; a fresh one for each engine.
    reader: reader::EngineReader,
    /// The running engine's handshake, while it is under way: no search
    /// is asked before its `readyok`.
    handshake: Option<handshake::Handshake>,
    /// Options sent to the running engine, so only changes are sent.
    options: Vec<(String, String)>,
    /// `go`s not yet answered, oldest first.
    searches: VecDeque<Search>,
    thinking: Option<Thinking>,
    showing: Option<Showing>,
    /// An engine step waits for `next` (step-by-step pace).
    waiting: bool,
    error: Option<String>,
    closed: bool,
    last_step: Option<String>,
    evals: Vec<EvalPoint>,
    out: VecDeque<Command>,
    /// When an `info` last made a version ([`INFO_EVERY`]).
    info_shown: Option<Duration>,
    /// An `info` arrived since the last version: shown at the next one.
    info_pending: bool,
    /// The clock of the turn under way, if its seat has one.
    running: Option<Running>,
    /// The latest time the machine was told (the clocks shown as of it).
    seen: Duration,
    /// The board's draw rules ended the game here ([`limit`]), or the
    /// host did ([`Session::end_here`]).
    drawn: Option<Reason>,
    /// The host ended the game with the places so far.
    ended_here: bool,
}

impl Session {
    /// A game `id` from `game` with these seats (one per seat in the game,
    /// in seat order), whose engine has `levels` and shows its steps at
    /// `pace` (`step_pause` the normal pause between them). Its first
    /// command starts the engine.
    pub fn new(
        id: u64,
        game: Game,
        seats: Vec<SeatConfig>,
        levels: Levels,
        step_pause: Duration,
        pace: Pace,
        now: Duration,
    ) -> Session {
        let mut s = Session {
            id,
            version: 1,
            start_spn: game.start().to_spn(),
            game,
            seats,
            levels,
            seed: levels::game_seed(id, now),
            step_pause,
            pace,
            engine: Engine::Up,
            reader: reader::EngineReader::new(),
            handshake: None,
            options: Vec::new(),
            searches: VecDeque::new(),
            thinking: None,
            showing: None,
            waiting: false,
            error: None,
            closed: false,
            last_step: None,
            evals: Vec::new(),
            out: VecDeque::new(),
            info_shown: None,
            info_pending: false,
            running: None,
            seen: now,
            drawn: None,
            ended_here: false,
        };
        s.start_engine(now);
        s.advance(now);
        s
    }

    /// The next command for the host to carry out, oldest first.
    pub fn command(&mut self) -> Option<Command> {
        self.out.pop_front()
    }

    /// When the machine wants [`Session::wake`] called: an engine step's
    /// pause ends, a search or the handshake is overdue, its held-back
    /// `info` is due, or the mover's clock runs out.
    pub fn wake_at(&self) -> Option<Duration> {
        let step = self.step_due().filter(|_| self.pace != Pace::Step);
        let hung = self.searches.front().map(|s| s.deadline);
        let handshake = self.handshake.as_ref().and_then(|h| h.deadline());
        step.into_iter()
            .chain(hung)
            .chain(handshake)
            .chain(self.info_due())
            .chain(self.clock_due())
            .min()
    }

    /// The clocks brought up to `now` before a request changes anything:
    /// one that ran out has the engine asked for its turn.
    fn clock_check(&mut self, now: Duration) {
        if self.clock_sync(now) {
            self.advance(now);
        }
    }

    /// When the `info` held back is shown, if one is.
    fn info_due(&self) -> Option<Duration> {
        self.info_pending
            .then(|| self.info_shown.map_or(Duration::ZERO, |t| t + INFO_EVERY))
    }

    /// A new `info` is shown at once if the last was [`INFO_EVERY`] ago,
    /// else at the next version (a step, or [`Session::wake`] when due).
    fn show_info(&mut self, now: Duration) {
        if self.info_shown.is_none_or(|t| now >= t + INFO_EVERY) {
            self.info_shown = Some(now);
            self.bump();
        } else {
            self.info_pending = true;
        }
    }

    /// The game's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The version of the state: bumped on every change the page sees.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Whether the game was closed.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The game's start (SPN).
    pub fn start_spn(&self) -> &str {
        &self.start_spn
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether a `go` is unanswered.
    pub fn searching(&self) -> bool {
        !self.searches.is_empty()
    }

    /// Whether the machine waits for the engine's lines: a `go`
    /// unanswered, or the handshake under way (the host reads the engine
    /// closely).
    pub fn awaiting_engine(&self) -> bool {
        self.searching() || self.handshake.is_some()
    }

    /// The position the engine's current search is about (its `info`
    /// lines' win probabilities are read in it), if one is live.
    pub fn searched(&self) -> Option<&Position> {
        let s = self.searches.front().filter(|s| s.live)?;
        self.game.positions().get(s.step)
    }

    /// Whether the game is over: by the rules, or drawn by the board's
    /// draw rules ([`limit`]).
    pub fn over(&self) -> bool {
        self.game.position().is_game_over() || self.drawn.is_some()
    }

    /// Why the board's draw rules ended the game, if they did.
    pub fn drawn(&self) -> Option<&Reason> {
        self.drawn.as_ref()
    }

    /// The places as the game ended, or so far: the seats still in share
    /// the first place they have not yet been given after a draw.
    pub fn places_text(&self) -> String {
        self.game.places().to_string()
    }

    /// Judges the game where it stands by the board's draw rules: a turn
    /// being shown is dropped when they end it.
    fn judge(&mut self) {
        let drawn = if self.ended_here {
            // An unfinished game's record's own ending (board_record).
            Some(Reason::TurnLimit(
                self.game.position().turn().saturating_sub(1),
            ))
        } else {
            limit::adjudicated(&self.game, &self.seats)
        };
        if drawn != self.drawn {
            self.drawn = drawn;
            if self.drawn.is_some() {
                self.showing = None;
                self.waiting = false;
            }
            self.bump();
        }
    }

    fn bump(&mut self) {
        self.version += 1;
        // Every version shows the engine's last `info`.
        self.info_pending = false;
    }

    /// The seat to move, if it is the engine's and it may play.
    fn engine_to_move(&self) -> Option<&SeatConfig> {
        let pos = self.game.position();
        if self.over() || self.error.is_some() || self.closed {
            return None;
        }
        let side = pos.side_to_move();
        self.seats
            .iter()
            .find(|s| s.seat == side && s.engine_plays())
    }

    /// Raises the version to at least `floor`: a game resumed by a
    /// restarted host counts on from above every version its pages saw
    /// before (they ignore an older one).
    pub fn lift_version(&mut self, floor: u64) {
        self.version = self.version.max(floor);
    }

    /// The seats, one per seat in the game, in seat order.
    pub fn seats(&self) -> &[SeatConfig] {
        &self.seats
    }

    /// A person names their seat (an invited one when they take it).
    pub fn set_name(&mut self, seat: Seat, name: &str) -> Result<(), Refusal> {
        let name = seat_name(name)?;
        let s = self
            .seats
            .iter_mut()
            .find(|s| s.seat == seat && !s.engine)
            .ok_or_else(|| Refusal::BadInput("name: not a person's seat".into()))?;
        if s.name.as_deref() != Some(name.as_str()) {
            s.name = Some(name);
            self.bump();
        }
        Ok(())
    }

    /// Someone from the lobby takes an open seat (see
    /// [`SeatConfig::open`]) under `name`: refused, and nothing changed,
    /// when the game is over, the seat is no friend's or another took it.
    pub fn sit(&mut self, seat: Seat, name: &str) -> Result<(), Refusal> {
        let name = seat_name(name)?;
        if self.over() {
            return Err(Refusal::GameOver);
        }
        let c = self
            .seats
            .iter()
            .find(|c| c.seat == seat && c.invited)
            .ok_or_else(|| Refusal::NotFound(format!("no friend's seat '{seat}' at this table")))?;
        if !c.open() {
            return Err(Refusal::Taken(format!(
                "the seat '{seat}' is taken: choose another"
            )));
        }
        self.set_name(seat, &name)
    }

    /// The engine plays a person's seat from now on (`on`: its person is
    /// away, or has `left` for good), or gives it back to its person (not
    /// after they left). A search or turn being shown for it when it is
    /// given back is dropped, and the person plays on from there.
    pub fn stand_in(
        &mut self,
        seat: Seat,
        (on, left): (bool, bool),
        now: Duration,
    ) -> Result<(), Refusal> {
        self.clock_check(now);
        let c = self
            .seats
            .iter_mut()
            .find(|c| c.seat == seat && !c.engine)
            .ok_or_else(|| Refusal::BadInput("not a person's seat".into()))?;
        if !on && c.left {
            return Err(Refusal::Forbidden(
                "this seat's person left the game".into(),
            ));
        }
        if c.stand_in == on && c.left == (on && (left || c.left)) {
            return Ok(());
        }
        c.stand_in = on;
        c.left = on && (left || c.left);
        // A clock that ran out keeps the engine on the turn to its end.
        let out = c.out_of_time();
        let to_move = self.game.position().side_to_move() == seat;
        if !on && to_move && !out {
            self.cancel(now);
        }
        self.bump();
        self.advance(now);
        Ok(())
    }

    /// A person's step.
    pub fn step(&mut self, text: &str, now: Duration) -> Result<(), Refusal> {
        self.clock_check(now);
        if self.searches.iter().any(|s| s.live)
            || self.showing.is_some()
            || self.engine_to_move().is_some()
        {
            return Err(Refusal::NotPersonsTurn);
        }
        if let Some(e) = &self.error {
            return Err(Refusal::EngineDown(format!(
                "{e} (restart the engine first)"
            )));
        }
        if self.over() {
            return Err(Refusal::GameOver);
        }
        let pos = self.game.position();
        if !pos.legal_step_vec().iter().any(|s| s.to_string() == text) {
            return Err(Refusal::IllegalStep(format!(
                "'{}' is not a legal step here",
                short(text)
            )));
        }
        if self.engine != Engine::Up {
            return Err(Refusal::EngineDown(
                "the engine is not running (restart it)".into(),
            ));
        }
        let mut game = self.game.clone();
        if let Err(e) = game.play_text(text) {
            return Err(Refusal::IllegalStep(format!(
                "the rules core refused '{}': {e}",
                short(text)
            )));
        }
        self.game = game;
        self.last_step = Some(text.to_string());
        self.bump();
        self.judge();
        self.advance(now);
        Ok(())
    }

    /// Takes back the current part-turn, or else the last whole turn; then
    /// more whole turns until a person is to move (if any seat is one). A
    /// search running is stopped and its answer dropped.
    pub fn take_back(&mut self, now: Duration) -> Result<(), Refusal> {
        if self.game.steps().is_empty() {
            return Err(Refusal::NothingToTakeBack);
        }
        self.clock_check(now);
        let any_person = self.seats.iter().any(|s| !s.engine);
        // The turns taken back had no clock run out.
        self.clocks_not_out();
        let mut game = self.game.clone();
        undo_turn(&mut game);
        while any_person
            && !game.steps().is_empty()
            && self
                .seats
                .iter()
                .any(|s| s.engine_plays() && s.seat == game.position().side_to_move())
        {
            undo_turn(&mut game);
        }
        self.cancel(now);
        self.ended_here = false;
        if self.engine == Engine::Stopped && self.error.is_none() {
            // Stopped when the game ended: the game goes on again.
            self.start_engine(now);
        }
        let left = game.steps().len();
        self.evals.retain(|e| e.step <= left);
        let turn = game.position().turn();
        for c in &mut self.seats {
            c.stood_in.retain(|&t| t < turn);
        }
        self.clocks_back_to(turn);
        self.game = game;
        self.last_step = None;
        if self.engine == Engine::Up {
            self.error = None;
        }
        self.bump();
        self.advance(now);
        Ok(())
    }

    /// The host ends the game with the places so far, once no person is
    /// left playing it: the turn under way is taken back (as the record of
    /// an unfinished game cuts it), the seats still in share the places
    /// not yet given, and the game is drawn by a turn limit at its last
    /// whole turn, as its record says. A take-back plays on.
    pub fn end_here(&mut self, now: Duration) -> Result<(), Refusal> {
        if self.over() {
            return Err(Refusal::GameOver);
        }
        if limit::person_playing(&self.game, &self.seats) {
            return Err(Refusal::Forbidden(
                "a person still plays this game: it ends only once every person is out".into(),
            ));
        }
        self.clock_check(now);
        self.cancel(now);
        let mut game = self.game.clone();
        splut_play::record::cut_to_whole_turns(&mut game);
        if game.steps().len() != self.game.steps().len() {
            self.game = game;
            self.last_step = None;
            let left = self.game.steps().len();
            self.evals.retain(|e| e.step <= left);
        }
        // The turns taken back were not played for anyone.
        let turn = self.game.position().turn();
        for c in &mut self.seats {
            c.stood_in.retain(|&t| t < turn);
        }
        self.ended_here = true;
        self.bump();
        self.advance(now);
        Ok(())
    }

    /// Starts a new engine after a crash (or any time).
    pub fn restart(&mut self, now: Duration) {
        self.clock_check(now);
        self.cancel(now);
        // The old process goes with its searches.
        self.searches.clear();
        self.start_engine(now);
        self.error = None;
        self.bump();
        self.advance(now);
    }

    /// Changes the pace of the engine's steps, at once (a pause or a wait
    /// in progress follows it).
    pub fn set_pace(&mut self, pace: Pace, now: Duration) {
        self.clock_check(now);
        self.pace = pace;
        if pace != Pace::Step {
            self.waiting = false;
        }
        self.bump();
        self.advance(now);
    }

    /// Plays the engine step waiting for it (step-by-step pace).
    pub fn next(&mut self, now: Duration) -> Result<(), Refusal> {
        self.clock_check(now);
        if !self.waiting {
            return Err(Refusal::NothingWaiting);
        }
        self.waiting = false;
        self.show_step(now);
        self.advance(now);
        Ok(())
    }

    /// Time passed: an engine step whose pause is over is shown, an
    /// overdue search makes the engine hung.
    pub fn wake(&mut self, now: Duration) {
        self.clock_check(now);
        if let Some(s) = self.searches.front()
            && now > s.deadline
        {
            let why = format!("no bestmove within {} ms", s.limit.as_millis());
            self.engine_gone(&why, now);
            self.out.push_back(Command::Quit);
            return;
        }
        if let Some(why) = self.handshake.as_mut().and_then(|h| h.overdue(now)) {
            self.engine_gone(&why, now);
            self.out.push_back(Command::Quit);
            return;
        }
        if self.info_due().is_some_and(|t| now >= t) {
            self.info_shown = Some(now);
            self.bump();
        }
        self.advance(now);
    }

    /// The engine exited, could not start, could not be written to, or is
    /// hung (`why`): the game waits for a restart.
    pub fn engine_gone(&mut self, why: &str, now: Duration) {
        if self.closed {
            return;
        }
        // Nothing is sent to an engine that is gone.
        self.searches.clear();
        self.handshake = None;
        self.cancel(now);
        self.engine = Engine::Down;
        self.error = Some(format!("engine crashed: {why}"));
        // The mover's clock stops while the game waits for a restart.
        self.clock_sync(now);
        self.bump();
    }

    /// Ends the game: its engine quits, nothing more is played.
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        self.searches.clear();
        self.handshake = None;
        self.thinking = None;
        self.showing = None;
        self.waiting = false;
        if self.engine == Engine::Up {
            self.quit_engine();
        }
        self.bump();
    }

    /// One line from the engine: its handshake's while that is under way,
    /// else read by the machine's reader (in the position of its live
    /// search, [`Session::searched`]).
    pub fn engine_line(&mut self, line: &str, now: Duration) {
        if let Some(h) = self.handshake.as_mut() {
            let progress = h.line(line, now);
            self.out.extend(h.commands().into_iter().map(Command::Send));
            match progress {
                handshake::Progress::Waiting => {}
                handshake::Progress::Done => {
                    self.handshake = None;
                    self.advance(now);
                }
                handshake::Progress::Failed(why) => {
                    self.engine_gone(&format!("the engine refused its handshake: {why}"), now);
                    self.out.push_back(Command::Quit);
                }
            }
            return;
        }
        let searched = self.searched().copied();
        if let Some(event) = self.reader.read(line, searched.as_ref()) {
            self.engine_event(event, now);
        }
    }

    /// What the engine said, read ([`Session::engine_line`] reads its
    /// lines into these).
    pub fn engine_event(&mut self, event: EngineEvent, now: Duration) {
        self.clock_check(now);
        let Some(front) = self.searches.front() else {
            // Nothing asked: nothing to read.
            return;
        };
        let live = front.live;
        match event {
            EngineEvent::Info(view, winprob) => {
                if !live || view == InfoView::default() {
                    return;
                }
                if let Some(t) = self.thinking.as_mut() {
                    t.info = Some(view);
                    if winprob.is_some() {
                        t.winprob = winprob;
                    }
                    self.show_info(now);
                }
            }
            EngineEvent::Refused(why) => {
                if live {
                    self.error = Some(format!("the engine refused to play: {why}"));
                    self.bump();
                }
            }
            EngineEvent::Answer(answer) => {
                let Some(search) = self.searches.pop_front() else {
                    return;
                };
                if search.live {
                    self.answered(&search, answer, now);
                } else {
                    // Dropped; the page sees no search owed any more.
                    self.bump();
                }
                self.advance(now);
            }
        }
    }

    /// A live search's answer: its last view of the game is kept, and its
    /// turn is shown.
    fn answered(&mut self, search: &Search, answer: Result<Vec<String>, Forfeit>, now: Duration) {
        if let Some(t) = self.thinking.take()
            && let Some(winprob) = t.winprob
        {
            self.evals.retain(|e| e.step < search.step);
            self.evals.push(EvalPoint {
                step: search.step,
                seat: t.seat,
                score: t.info.and_then(|i| i.score),
                winprob,
            });
        }
        match answer {
            Ok(turn) => {
                self.showing = Some(Showing {
                    turn,
                    next: 0,
                    since: now,
                })
            }
            // `bestmove (none)`: the game is over.
            Err(Forfeit::NoStep) => {}
            Err(e) => self.error = Some(format!("the engine answered wrongly: {e}")),
        }
        self.bump();
    }

    /// The engine's work is dropped: live searches are told to stop, the
    /// turn being shown is forgotten.
    fn cancel(&mut self, now: Duration) {
        for s in self.searches.iter_mut().filter(|s| s.live) {
            s.live = false;
            s.deadline = s.deadline.min(now + HUNG_AFTER);
            self.out.push_back(Command::Send(EngineCommand::Stop));
        }
        self.thinking = None;
        self.showing = None;
        self.waiting = false;
    }

    /// A fresh engine: spawned, then its handshake; no search is asked
    /// before it is ready.
    fn start_engine(&mut self, now: Duration) {
        self.out.push_back(Command::Spawn);
        let mut handshake = handshake::begin(now);
        self.out
            .extend(handshake.commands().into_iter().map(Command::Send));
        self.handshake = Some(handshake);
        // A fresh engine: no answer of the old one is read on.
        self.reader.reset();
        self.options.clear();
        self.engine = Engine::Up;
    }

    /// The engine quits on purpose, its handshake with it.
    fn quit_engine(&mut self) {
        self.out.push_back(Command::Quit);
        self.engine = Engine::Stopped;
        self.handshake = None;
    }

    /// When the next engine step of the turn shown may be shown.
    fn step_due(&self) -> Option<Duration> {
        let s = self.showing.as_ref()?;
        // Between the steps of a turn, and before the first one when an
        // engine's turn came before it.
        let paused = s.next > 0 || self.after_engine_step();
        let pause = match self.pace {
            Pace::None | Pace::Step => Duration::ZERO,
            Pace::Normal | Pace::Slow if !paused => Duration::ZERO,
            Pace::Normal => self.step_pause,
            Pace::Slow => slow_pause(self.step_pause),
        };
        Some(s.since + pause)
    }

    /// Whether the game's last step was an engine seat's.
    fn after_engine_step(&self) -> bool {
        let positions = self.game.positions();
        positions
            .len()
            .checked_sub(2)
            .map(|i| positions[i].side_to_move())
            .is_some_and(|c| self.seats.iter().any(|s| s.engine_plays() && s.seat == c))
    }

    /// Moves the game on as far as it may go now (the engine's steps whose
    /// time has come, then its next search, or its quit once the game is
    /// over), the clocks kept up with it: a turn that ends is charged, and
    /// a clock found run out has the engine asked for the rest of its turn.
    fn advance(&mut self, now: Duration) {
        self.judge();
        self.clock_sync(now);
        // Each pass plays at most one turn's end; a few are plenty.
        for _ in 0..4 {
            self.advance_engine(now);
            if !self.clock_sync(now) {
                return;
            }
        }
    }

    /// The engine's part of [`Session::advance`].
    fn advance_engine(&mut self, now: Duration) {
        while !self.closed && self.error.is_none() && self.engine == Engine::Up {
            if self.showing.is_some() {
                if self.pace == Pace::Step {
                    if !self.waiting {
                        self.waiting = true;
                        self.bump();
                    }
                    return;
                }
                if self.step_due().is_some_and(|due| due > now) {
                    return;
                }
                self.show_step(now);
                continue;
            }
            if !self.searches.is_empty() {
                // A stopped search's answer comes first.
                return;
            }
            if self.over() {
                // A finished game needs no engine; a take-back starts one.
                self.quit_engine();
                self.bump();
                return;
            }
            if self.handshake.is_some() {
                // Its `readyok` moves the game on.
                return;
            }
            if let Some(seat) = self.engine_to_move().cloned() {
                self.search(&seat, now);
            }
            return;
        }
    }

    /// Plays the next step of the turn shown.
    fn show_step(&mut self, now: Duration) {
        let Some(mut s) = self.showing.take() else {
            return;
        };
        let Some(text) = s.turn.get(s.next).cloned() else {
            return;
        };
        let (side, turn) = {
            let pos = self.game.position();
            (pos.side_to_move(), pos.turn())
        };
        if let Err(e) = self.game.play_text(&text) {
            self.error = Some(format!("the engine played an illegal step: {e}"));
            self.bump();
            return;
        }
        if let Some(c) = self
            .seats
            .iter_mut()
            .find(|c| c.seat == side && !c.engine && c.engine_plays())
            && c.stood_in.last() != Some(&turn)
        {
            c.stood_in.push(turn);
        }
        self.last_step = Some(text);
        s.next += 1;
        s.since = now;
        if s.next < s.turn.len() {
            self.showing = Some(s);
        }
        self.bump();
        self.judge();
    }

    /// Asks the engine for `seat`'s turn: its options, the game, `go`.
    fn search(&mut self, seat: &SeatConfig, now: Duration) {
        let mut options = vec![("Algorithm".to_string(), seat.algorithm.clone())];
        for (name, value) in self.levels.options(seat.level, self.seed) {
            options.push((name.to_string(), value));
        }
        for (name, value) in options {
            if self.option(&name) != Some(value.as_str()) {
                self.out
                    .push_back(Command::Send(SetOption::new(&name, &value).into()));
                self.options.retain(|(n, _)| *n != name);
                self.options.push((name, value));
            }
        }
        self.out.push_back(Command::Send(
            PositionCommand::spn(&self.game, self.game.steps().len()).into(),
        ));
        self.out
            .push_back(Command::Send(Go::movetime(seat.movetime).into()));
        let limit = Duration::from_millis(seat.movetime) + HUNG_AFTER;
        self.searches.push_back(Search {
            live: true,
            step: self.game.steps().len(),
            deadline: now + limit,
            limit,
        });
        self.thinking = Some(Thinking {
            seat: seat.seat,
            info: None,
            winprob: None,
        });
        self.bump();
    }

    /// The value last sent for option `name`.
    fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game in the tournament records format (`splut replay` reads
    /// it), as [`board_record_clocked`] writes it for both hosts: an unfinished
    /// game is cut to its last whole turn and recorded as a draw by a turn
    /// limit at that turn.
    pub fn record(&self) -> String {
        record_text(&self.game, &self.seats)
    }
}

/// A game with these seats in the tournament records format, as
/// [`Session::record`] writes it (for a host's kept games too).
pub fn record_text(game: &Game, config: &[SeatConfig]) -> String {
    let clock = config
        .iter()
        .find_map(|c| c.clock.as_ref())
        .map(|c| (c.base, c.increment));
    let seats: Vec<(Seat, Participant)> = config.iter().map(|c| (c.seat, participant(c))).collect();
    match limit::adjudicated(game, config) {
        Some(reason) => board_record_ended(game, &seats, clock, reason),
        None => board_record_clocked(game, &seats, clock),
    }
    .to_text()
}

/// Who plays a seat, as its record names it.
fn participant(c: &SeatConfig) -> Participant {
    if !c.engine && c.stood_in.is_empty() {
        return Participant::Person;
    }
    if !c.engine {
        return Participant::StoodIn {
            turns: c.stood_in.clone(),
        };
    }
    Participant::Engine {
        algorithm: c.algorithm.clone(),
        movetime: c.movetime,
        level: c.level.map(|l| match l {
            Level::Elo(v) => Strength::Elo(v),
            Level::Skill(v) => Strength::Skill(v),
        }),
    }
}

/// Takes back the last turn's steps (the current turn's, if it has begun).
fn undo_turn(game: &mut Game) {
    let n = game.positions().len();
    if n < 2 {
        return;
    }
    let turn = game.positions()[n - 2].turn();
    game.undo_turn(turn);
}

/// Text from the page as an error message may quote it.
pub fn short(s: &str) -> String {
    s.chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
