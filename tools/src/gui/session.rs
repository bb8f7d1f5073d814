//! One game in the GUI: its seats, its steps, its engine process and the
//! thread that plays the engine's turns. The engine is the only judge of
//! legality the page sees (`query legal`); the rules core keeps the step
//! list in turns for the move list, take-backs and the record.

use super::levels::{Level, Levels};
use super::refusal::Refusal;
use super::review::{WinProb, info_win_probabilities};
use super::{QUIT_GRACE, start_engine};
use serde::{Deserialize, Serialize};
use splut_play::client::words::{self, Line};
use splut_play::client::{Answer, Client, Snapshot, ends_answer};
use splut_play::judge::Forfeit;
use splut_play::record::{Participant, Strength, board_record};
use splut_rules::{Game, Seat};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatConfig {
    /// `r`, `y`, `g` or `b`.
    pub seat: char,
    /// A person (clicks on the page) or the engine.
    pub engine: bool,
    /// The engine's `Algorithm`.
    pub algorithm: String,
    /// The engine's time per turn in ms.
    pub movetime: u64,
    /// The engine's level (full strength if none).
    pub level: Option<Level>,
}

/// How fast an engine's steps are shown to the people watching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    /// No pause: each step as soon as it is known.
    None,
    /// The server's `--step-pause` between the steps of a turn (and
    /// before its first step when an engine's turn came before it).
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

/// Win probabilities as JSON: `{"r": 0.6, "g": 0.4}`, as the board's
/// values spell them ([`splut_board::letters::probabilities`]).
pub fn winprob_json(w: &WinProb) -> serde_json::Value {
    splut_board::letters::probabilities(w, serde_json::value::Serializer)
        .unwrap_or(serde_json::Value::Null)
}

/// A search's report as the page reads it (app.js's `infoText`, as
/// `info` of web/js/splut.mjs gives it for the local board, web/src/play.rs):
/// `{"depth": 3, "score": "cp 14", "nodes": 120, "time": 5, "pv":
/// ["d2d3@e1", …]}`, each field `null` (`[]`) when the line has none;
/// from the line as [`words::Info::parse`] reads it.
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

impl From<&words::Info> for InfoView {
    fn from(i: &words::Info) -> InfoView {
        InfoView {
            depth: i.depth,
            score: i.score.map(|s| s.to_string()),
            nodes: i.nodes,
            time: i.time_ms,
            pv: i.pv.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// What the engine thought of the game at one of its turns.
#[derive(Clone, Debug, Serialize)]
pub struct EvalPoint {
    /// Steps played when it began thinking.
    pub step: usize,
    /// The seat it thought for.
    pub seat: char,
    /// Its last score.
    pub score: Option<String>,
    /// Each seat's chance to win (`{"r": 0.6, …}`).
    pub winprob: serde_json::Value,
}

/// What the engine is thinking, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct Thinking {
    /// The seat it thinks for.
    pub seat: char,
    /// The last `info` line with any of the page's fields.
    pub info: Option<InfoView>,
    /// Each seat's chance to win by it (`{"r": 0.6, …}`), if it reads.
    pub winprob: Option<serde_json::Value>,
}

/// A game's mutable state, behind the session's mutex.
struct State {
    /// Bumped on every change the page should see (long-polls wait on it).
    version: u64,
    /// Bumped when the game is changed under a running engine turn, whose
    /// result is then dropped.
    generation: u64,
    start_spn: String,
    game: Game,
    seats: Vec<SeatConfig>,
    snapshot: Option<Snapshot>,
    /// `None` while the worker has it, or after a crash.
    engine: Option<Client>,
    busy: bool,
    stop: bool,
    thinking: Option<Thinking>,
    error: Option<String>,
    closed: bool,
    last_seen: Instant,
    last_step: Option<String>,
    /// The engine's view at each of its turns, in order.
    evals: Vec<EvalPoint>,
    /// How fast the engine's steps are shown.
    pace: Pace,
    /// An engine step waits for `next` (step-by-step pace).
    waiting: bool,
    /// `next` was asked for the waiting step.
    advance: bool,
}

/// A game and its engine.
pub struct Session {
    /// Its id in the API.
    pub id: u64,
    state: Mutex<State>,
    changed: Condvar,
    command: Vec<String>,
    live: Arc<AtomicUsize>,
    /// Pause between the steps of an engine's turn, so each can be seen.
    step_pause: Duration,
    /// The engine's level options.
    levels: Levels,
}

impl Session {
    /// Starts a game from `start` with these seats (one per seat in the
    /// game, in seat order), its engine and the thread that plays its
    /// turns, which shows an engine's steps at `pace` (`step_pause` the
    /// normal pause between them) and sets each seat's level through
    /// `levels` before its turn.
    pub fn start(
        id: u64,
        game: Game,
        seats: Vec<SeatConfig>,
        command: Vec<String>,
        live: Arc<AtomicUsize>,
        (step_pause, levels, pace): (Duration, Levels, Pace),
    ) -> Result<Arc<Session>, Refusal> {
        let start_spn = game.start().to_spn();
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        let (mut engine, _) = start_engine(&command, &live).map_err(Refusal::EngineFailed)?;
        let snapshot = engine
            .sync(&start_spn, &steps)
            .map_err(|e| Refusal::BadInput(format!("the engine refused the position: {e}")))?;
        let session = Arc::new(Session {
            id,
            state: Mutex::new(State {
                version: 1,
                generation: 0,
                start_spn,
                game,
                seats,
                snapshot: Some(snapshot),
                engine: Some(engine),
                busy: false,
                stop: false,
                thinking: None,
                error: None,
                closed: false,
                last_seen: Instant::now(),
                last_step: None,
                evals: Vec::new(),
                pace,
                waiting: false,
                advance: false,
            }),
            changed: Condvar::new(),
            command,
            live,
            step_pause,
            levels,
        });
        let s = session.clone();
        std::thread::spawn(move || s.worker());
        Ok(session)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not take the server down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for changes while `busy` holds, at most `timeout`; the state
    /// after (a poisoned lock is taken as it is).
    fn wait_while<'a>(
        &'a self,
        st: MutexGuard<'a, State>,
        timeout: Duration,
        mut busy: impl FnMut(&State) -> bool,
    ) -> MutexGuard<'a, State> {
        self.changed
            .wait_timeout_while(st, timeout, |st| busy(st))
            .map(|r| r.0)
            .unwrap_or_else(|e| e.into_inner().0)
    }

    /// Waits for one change, at most `timeout`.
    fn wait_changed<'a>(
        &'a self,
        st: MutexGuard<'a, State>,
        timeout: Duration,
    ) -> MutexGuard<'a, State> {
        self.changed
            .wait_timeout(st, timeout)
            .map(|r| r.0)
            .unwrap_or_else(|e| e.into_inner().0)
    }

    fn bump(&self, st: &mut State) {
        st.version += 1;
        self.changed.notify_all();
    }

    /// The game's start (SPN) and its steps so far.
    pub fn game(&self) -> (String, Game) {
        let st = self.lock();
        (st.start_spn.clone(), st.game.clone())
    }

    /// Time since the page last asked about this game.
    pub fn idle_for(&self) -> Duration {
        self.lock().last_seen.elapsed()
    }

    /// Ends the game: the worker stops its engine and exits.
    pub fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        st.stop = true;
        st.generation += 1;
        if let Some(e) = st.engine.take() {
            drop(st);
            e.quit(QUIT_GRACE);
            st = self.lock();
        }
        self.bump(&mut st);
    }

    /// Whether the seat to move is the engine's and it should play.
    fn engine_to_move(st: &State) -> Option<SeatConfig> {
        let snap = st.snapshot.as_ref()?;
        if snap.gameover || st.error.is_some() || st.closed {
            return None;
        }
        st.seats
            .iter()
            .find(|s| s.seat.to_string() == snap.side && s.engine)
            .cloned()
    }

    /// Plays the engine's turns until the game is closed.
    fn worker(self: Arc<Self>) {
        loop {
            let mut st = self.lock();
            let (mut engine, seat, generation) = loop {
                if st.closed {
                    if let Some(e) = st.engine.take() {
                        drop(st);
                        e.quit(QUIT_GRACE);
                    }
                    return;
                }
                if let Some(e) = st.engine.as_mut()
                    && !e.alive()
                {
                    let msg = e.recv(Duration::ZERO).err().map(|e| e.to_string());
                    st.engine = None;
                    st.error = Some(format!(
                        "engine crashed: {}",
                        msg.unwrap_or_else(|| "the engine exited".into())
                    ));
                    self.bump(&mut st);
                }
                // A finished game needs no engine: it is stopped, and a
                // take-back starts another.
                if !st.busy
                    && st.snapshot.as_ref().is_some_and(|s| s.gameover)
                    && let Some(e) = st.engine.take()
                {
                    drop(st);
                    e.quit(QUIT_GRACE);
                    st = self.lock();
                    self.bump(&mut st);
                    continue;
                }
                if !st.busy
                    && st.engine.is_some()
                    && let Some(seat) = Self::engine_to_move(&st)
                    && let Some(e) = st.engine.take()
                {
                    break (e, seat, st.generation);
                }
                st = self.wait_changed(st, Duration::from_millis(300));
            };
            st.busy = true;
            st.stop = false;
            st.thinking = Some(Thinking {
                seat: seat.seat,
                info: None,
                winprob: None,
            });
            let start = st.start_spn.clone();
            let game = st.game.clone();
            self.bump(&mut st);
            drop(st);
            let result = self.play_turn(&mut engine, &seat, &start, game, generation);
            let mut st = self.lock();
            st.busy = false;
            st.thinking = None;
            match result {
                Ok(()) => {
                    st.engine = Some(engine);
                    // The game changed under the turn: the engine follows.
                    if st.generation != generation {
                        self.resync(&mut st);
                    }
                }
                Err(e) => {
                    st.error = Some(format!("engine crashed: {e}"));
                    drop(st);
                    drop(engine);
                    st = self.lock();
                }
            }
            self.bump(&mut st);
        }
    }

    /// One engine turn: `go`, the info lines to the page, then the steps
    /// of `bestturn` one by one. Stops early (with `Ok`) when the game
    /// changes under it.
    fn play_turn(
        &self,
        engine: &mut Client,
        seat: &SeatConfig,
        start: &str,
        game: Game,
        generation: u64,
    ) -> Result<(), String> {
        self.configure(engine, seat)?;
        match self.think(engine, seat, start, &game, generation)? {
            Some(turn) => self.show_turn(engine, start, game, &turn, generation),
            None => Ok(()),
        }
    }

    /// The engine's search for `seat` from `game`: its `info` lines go to
    /// the page; its turn's steps, or `None` when it was stopped (the game
    /// changed under it) or has no turn to play.
    fn think(
        &self,
        engine: &mut Client,
        seat: &SeatConfig,
        start: &str,
        game: &Game,
        generation: u64,
    ) -> Result<Option<Vec<String>>, String> {
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        let mut cmd = format!("position spn {start}");
        if !steps.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&steps.join(" "));
        }
        engine.send(&cmd)?;
        engine.send(&format!("go movetime {}", seat.movetime))?;
        // An engine silent this long past its time is hung.
        let deadline =
            Instant::now() + Duration::from_millis(seat.movetime) + Duration::from_secs(10);
        let mut stopped = false;
        let mut lines: Vec<String> = Vec::new();
        loop {
            if Instant::now() > deadline {
                return Err(format!("no bestmove within {} ms", seat.movetime + 10_000));
            }
            match engine.recv(Duration::from_millis(20))? {
                Some(line) => {
                    let end = ends_answer(&line);
                    if !end {
                        self.engine_says(&line, game, generation);
                    }
                    lines.push(line);
                    if end {
                        break;
                    }
                }
                None => {
                    let st = self.lock();
                    if !stopped && (st.stop || st.generation != generation) {
                        drop(st);
                        engine.send("stop")?;
                        stopped = true;
                    }
                }
            }
        }
        self.thought_done(generation, game.steps().len());
        if stopped {
            return Ok(None);
        }
        // Its `bestturn` and `bestmove`, read as the tournament reads them.
        let answer = Answer {
            lines,
            elapsed: Duration::ZERO,
        };
        match answer.steps() {
            Ok(turn) => Ok(Some(turn)),
            // `bestmove (none)`: the game is over.
            Err(Forfeit::NoStep) => Ok(None),
            Err(e) => {
                let mut st = self.lock();
                st.error = Some(format!("the engine answered wrongly: {e}"));
                self.bump(&mut st);
                Ok(None)
            }
        }
    }

    /// A line from the engine while it thinks about `game`, read by the
    /// engine's words: an `info` line (with its win probabilities) for the
    /// page, or an error. A report with none of the page's fields (`info
    /// currmove …`) leaves the last one shown.
    fn engine_says(&self, line: &str, game: &Game, generation: u64) {
        match Line::parse(line) {
            Ok(Line::Info(info)) => {
                let view = InfoView::from(&info);
                if view == InfoView::default() {
                    return;
                }
                let winprob = info_win_probabilities(&info, game.position());
                let mut st = self.lock();
                if st.generation == generation
                    && let Some(t) = st.thinking.as_mut()
                {
                    t.info = Some(view);
                    if let Some(w) = winprob {
                        t.winprob = Some(winprob_json(&w));
                    }
                    self.bump(&mut st);
                }
            }
            Ok(Line::InfoString(text)) => {
                if let Some(e) = text.error_message() {
                    let mut st = self.lock();
                    st.error = Some(format!("the engine refused to play: {e}"));
                    self.bump(&mut st);
                }
            }
            _ => {}
        }
    }

    /// Plays the engine's `turn` on `game` one step at a time, each when
    /// the pace lets it be shown. Stops early (with `Ok`) when the game
    /// changes under it.
    fn show_turn(
        &self,
        engine: &mut Client,
        start: &str,
        mut game: Game,
        turn: &[String],
        generation: u64,
    ) -> Result<(), String> {
        let mut steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        for (i, text) in turn.iter().enumerate() {
            if !self.wait_to_show(generation, i) {
                return Ok(());
            }
            if let Err(e) = game.play_text(text) {
                let mut st = self.lock();
                st.error = Some(format!("the engine played an illegal step: {e}"));
                self.bump(&mut st);
                return Ok(());
            }
            steps.push(text.clone());
            let snap = engine.sync(start, &steps)?;
            let mut st = self.lock();
            if st.generation != generation {
                return Ok(());
            }
            st.game = game.clone();
            st.snapshot = Some(snap);
            st.last_step = Some(text.clone());
            self.bump(&mut st);
        }
        Ok(())
    }

    /// Whether the game's last step was an engine seat's (so an engine's
    /// turn that follows is paused before its first step too).
    fn after_engine_step(st: &State) -> bool {
        let positions = st.game.positions();
        positions
            .len()
            .checked_sub(2)
            .map(|i| positions[i].side_to_move().letter())
            .is_some_and(|c| st.seats.iter().any(|s| s.engine && s.seat == c))
    }

    /// Waits as the pace asks before an engine's step `i` of its turn (0
    /// first); `false` if the game changed or closed meanwhile (the turn is
    /// dropped). A change of pace ends a pause or a wait at once.
    fn wait_to_show(&self, generation: u64, i: usize) -> bool {
        let start = Instant::now();
        let mut st = self.lock();
        loop {
            if st.generation != generation || st.closed {
                if st.waiting {
                    st.waiting = false;
                    self.bump(&mut st);
                }
                return false;
            }
            // Between the steps of a turn, and before the first one when
            // an engine's turn came before it.
            let paused = i > 0 || Self::after_engine_step(&st);
            let pause = match st.pace {
                Pace::None => Duration::ZERO,
                Pace::Normal | Pace::Slow if !paused => Duration::ZERO,
                Pace::Normal => self.step_pause,
                Pace::Slow => slow_pause(self.step_pause),
                Pace::Step => {
                    if st.advance {
                        st.advance = false;
                        st.waiting = false;
                        self.bump(&mut st);
                        return true;
                    }
                    if !st.waiting {
                        st.waiting = true;
                        self.bump(&mut st);
                    }
                    // Until `next`, a change of pace, or the game's end.
                    st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
                    continue;
                }
            };
            let left = pause.saturating_sub(start.elapsed());
            if left.is_zero() {
                if st.waiting {
                    st.waiting = false;
                    self.bump(&mut st);
                }
                return true;
            }
            st = self.wait_changed(st, left);
        }
    }

    /// Changes the pace of the engine's steps, at once (a pause or a wait
    /// in progress follows it); the state.
    pub fn set_pace(&self, pace: Pace) -> serde_json::Value {
        let mut st = self.lock();
        st.pace = pace;
        if pace != Pace::Step {
            st.advance = false;
        }
        self.bump(&mut st);
        self.json(&st)
    }

    /// Lets the waiting engine step be played (step-by-step pace); the
    /// state after it. Refused when no step waits.
    pub fn next_step(&self) -> Result<serde_json::Value, Refusal> {
        let mut st = self.lock();
        if !st.waiting || st.advance {
            return Err(Refusal::NothingWaiting);
        }
        st.advance = true;
        self.bump(&mut st);
        // The step follows at once: answer with the state once it is played.
        let steps = st.game.steps().len();
        let st = self.wait_while(st, Duration::from_secs(2), |st| {
            st.game.steps().len() == steps && !st.closed
        });
        Ok(self.json(&st))
    }

    /// Sets the engine's `Algorithm` and level options for `seat`, those
    /// that changed.
    fn configure(&self, engine: &mut Client, seat: &SeatConfig) -> Result<(), String> {
        if engine.option("Algorithm") != Some(seat.algorithm.as_str()) {
            engine.set_option("Algorithm", &seat.algorithm)?;
        }
        for (name, value) in self.levels.options(seat.level) {
            if engine.option(name) != Some(value.as_str()) {
                engine.set_option(name, &value)?;
            }
        }
        Ok(())
    }

    /// The engine's thought is over: its last view of the game is kept
    /// (at `step`, the steps played when it began), and what follows is
    /// the turn being shown.
    fn thought_done(&self, generation: u64, step: usize) {
        let mut st = self.lock();
        if st.generation == generation
            && let Some(t) = st.thinking.take()
            && let Some(winprob) = t.winprob
        {
            st.evals.retain(|e| e.step < step);
            st.evals.push(EvalPoint {
                step,
                seat: t.seat,
                score: t.info.and_then(|i| i.score),
                winprob,
            });
        }
        st.thinking = None;
        self.bump(&mut st);
    }

    /// Sets the engine to the game's position and reads it back.
    fn resync(&self, st: &mut State) {
        let steps: Vec<String> = st.game.steps().iter().map(|s| s.to_string()).collect();
        let Some(engine) = st.engine.as_mut() else {
            return;
        };
        match engine.sync(&st.start_spn, &steps) {
            Ok(s) => st.snapshot = Some(s),
            Err(e) => {
                st.error = Some(format!("engine crashed: {e}"));
                st.engine = None;
            }
        }
    }

    /// Waits until no engine turn runs, asking a running one to stop; the
    /// request that asked counts as the page's activity, and engine turns
    /// may run again once it is done.
    fn idle(&self) -> MutexGuard<'_, State> {
        let mut st = self.lock();
        let deadline = Instant::now() + Duration::from_secs(5);
        while st.busy && Instant::now() < deadline {
            st.stop = true;
            st.generation += 1;
            // Wakes an engine turn pausing or waiting for `next`.
            self.changed.notify_all();
            st = self.wait_changed(st, Duration::from_millis(50));
        }
        st.last_seen = Instant::now();
        st.stop = false;
        st
    }

    /// A person's step.
    pub fn step(&self, text: &str) -> Result<serde_json::Value, Refusal> {
        let mut st = self.lock();
        st.last_seen = Instant::now();
        if st.busy || Self::engine_to_move(&st).is_some() {
            return Err(Refusal::NotPersonsTurn);
        }
        if let Some(e) = &st.error {
            return Err(Refusal::EngineDown(format!(
                "{e} (restart the engine first)"
            )));
        }
        let Some(snap) = st.snapshot.as_ref() else {
            return Err(Refusal::EngineDown("the game is not ready".into()));
        };
        if snap.gameover {
            return Err(Refusal::GameOver);
        }
        if !snap.legal.iter().any(|s| s == text) {
            return Err(Refusal::IllegalStep(format!(
                "'{}' is not a legal step here",
                short(text)
            )));
        }
        let mut game = st.game.clone();
        if let Err(e) = game.play_text(text) {
            return Err(Refusal::IllegalStep(format!(
                "the rules core refused '{}': {e}",
                short(text)
            )));
        }
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        let start = st.start_spn.clone();
        let Some(engine) = st.engine.as_mut() else {
            return Err(Refusal::EngineDown(
                "the engine is not running (restart it)".into(),
            ));
        };
        match engine.sync(&start, &steps) {
            Ok(snap) => {
                st.game = game;
                st.snapshot = Some(snap);
                st.last_step = Some(text.to_string());
            }
            Err(e) => {
                st.error = Some(format!("engine crashed: {e}"));
                st.engine = None;
            }
        }
        self.bump(&mut st);
        Ok(self.json(&st))
    }

    /// Takes back the current part-turn, or else the last whole turn; then
    /// more whole turns until a person is to move (if any seat is one).
    pub fn take_back(&self) -> Result<serde_json::Value, Refusal> {
        let mut st = self.idle();
        if st.game.steps().is_empty() {
            return Err(Refusal::NothingToTakeBack);
        }
        let any_person = st.seats.iter().any(|s| !s.engine);
        let mut game = st.game.clone();
        undo_turn(&mut game);
        while any_person
            && !game.steps().is_empty()
            && st
                .seats
                .iter()
                .any(|s| s.engine && s.seat == game.position().side_to_move().letter())
        {
            undo_turn(&mut game);
        }
        if st.engine.is_none() && st.error.is_none() {
            // Stopped when the game ended: the game goes on again.
            let (engine, _) =
                start_engine(&self.command, &self.live).map_err(Refusal::EngineFailed)?;
            st.engine = Some(engine);
        }
        let left = game.steps().len();
        st.evals.retain(|e| e.step <= left);
        st.game = game;
        st.generation += 1;
        st.last_step = None;
        if st.engine.is_some() {
            st.error = None;
        }
        self.resync(&mut st);
        self.bump(&mut st);
        Ok(self.json(&st))
    }

    /// Starts a new engine process after a crash (or any time).
    pub fn restart_engine(&self) -> Result<serde_json::Value, Refusal> {
        let mut st = self.idle();
        if let Some(e) = st.engine.take() {
            e.quit(QUIT_GRACE);
        }
        let (engine, _) = start_engine(&self.command, &self.live).map_err(Refusal::EngineFailed)?;
        st.engine = Some(engine);
        st.error = None;
        st.generation += 1;
        self.resync(&mut st);
        self.bump(&mut st);
        Ok(self.json(&st))
    }

    /// The state, at once or (with `since` equal to the current version)
    /// when it changes, waiting at most `wait`.
    pub fn get(&self, since: Option<u64>, wait: Duration) -> serde_json::Value {
        let mut st = self.lock();
        st.last_seen = Instant::now();
        let mut st = self.wait_while(st, wait, |st| since == Some(st.version) && !st.closed);
        st.last_seen = Instant::now();
        self.json(&st)
    }

    /// The state as the page reads it.
    fn json(&self, st: &State) -> serde_json::Value {
        // What each step did, as the rules played it (splut-board's
        // events): the page words and draws them and replays nothing.
        let events = splut_board::events::turn_events(&st.game);
        let turns: Vec<serde_json::Value> = st
            .game
            .turns()
            .into_iter()
            .zip(events)
            .map(|((seat, steps), events)| {
                serde_json::json!({
                    "seat": seat.letter().to_string(),
                    "steps": steps.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    "events": events,
                })
            })
            .collect();
        let snap = st.snapshot.as_ref();
        // What each step the engine offers would do, for choosing one.
        let legal_events = snap
            .and_then(|s| {
                let pos = splut_rules::Position::from_spn(&s.spn).ok()?;
                Some(splut_board::events::choice_events(&pos, &s.legal))
            })
            .unwrap_or_default();
        // The places decided so far, as the rules give them: each seat out,
        // and the winner once the game is over.
        let places: serde_json::Map<String, serde_json::Value> = st
            .game
            .places()
            .decided()
            .map(|(seat, place)| (seat.to_string(), place.into()))
            .collect();
        serde_json::json!({
            "id": self.id,
            "version": st.version,
            "start": st.start_spn,
            "seats": st.seats,
            "spn": snap.map(|s| s.spn.clone()),
            "side": snap.map(|s| s.side.clone()),
            "steps_left": snap.map(|s| s.steps_left),
            "gameover": snap.is_some_and(|s| s.gameover),
            "winner": snap.and_then(|s| s.winner.clone()),
            "legal": snap.map(|s| s.legal.clone()).unwrap_or_default(),
            "legal_events": legal_events,
            "step_count": st.game.steps().len(),
            "turn": st.game.position().turn(),
            "turns": turns,
            "places": places,
            "last_step": st.last_step,
            "thinking": st.thinking,
            "evals": st.evals,
            "pace": st.pace,
            "waiting": st.waiting,
            "error": st.error,
            "engine_running": st.engine.is_some() || st.busy,
            "closed": st.closed,
        })
    }

    /// The game in the tournament records format (`splut replay` reads
    /// it), as the static web board writes it too
    /// ([`splut_play::record::board_record`]): an unfinished game is cut to
    /// its last whole turn and recorded as a draw by a turn limit at that
    /// turn, the only ending the format has for a game nobody won.
    pub fn record(&self) -> String {
        let st = self.lock();
        let seats: Vec<(Seat, Participant)> = st
            .seats
            .iter()
            .filter_map(|c| Seat::from_letter(c.seat).map(|s| (s, participant(c))))
            .collect();
        board_record(&st.game, &seats).to_text()
    }
}

/// Who plays a seat, as its record names it.
fn participant(c: &SeatConfig) -> Participant {
    if !c.engine {
        return Participant::Person;
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
fn short(s: &str) -> String {
    s.chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The page's view of `line`, as JSON.
    fn view(line: &str) -> serde_json::Value {
        let info = words::Info::parse(line).unwrap();
        serde_json::to_value(InfoView::from(&info)).unwrap()
    }

    #[test]
    fn the_page_sees_info_lines_as_the_engines_words_read_them() {
        // The engine's own line: the JSON the page has always read.
        assert_eq!(
            view(
                "info depth 3 seldepth 4 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 \
                 pv d2d3@e1 e3e4 winprob r 0.61 g 0.39"
            ),
            json!({"depth": 3, "score": "cp -14", "nodes": 120, "time": 5,
                   "pv": ["d2d3@e1", "e3e4"]})
        );
        // Other engines' words skipped, the pv ending at the first word
        // that is no step, the score as the words print it.
        let line = "info currmove e2e3 depth 2 score win 3 lowerbound pv e2e3 f8f7 \
                    refutation e2e3 tbhits 0 nodes 7";
        let info = words::Info::parse(line).unwrap();
        assert_eq!(info.pv.len(), 2);
        assert_eq!(
            view(line),
            json!({"depth": 2, "score": "win 3", "nodes": 7, "time": null,
                   "pv": ["e2e3", "f8f7"]})
        );
        // None of the page's fields: an empty view, which the session
        // does not show over the last one.
        let info = words::Info::parse("info currmove e2e3 hashfull 3").unwrap();
        assert_eq!(InfoView::from(&info), InfoView::default());
    }
}
