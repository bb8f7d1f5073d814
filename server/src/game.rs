//! One game in the GUI: the host of its [`splut_board::session`] machine,
//! which makes every decision. Here are only its engine (a [`Link`]: a
//! process, or an engine in this process) and the thread that feeds the
//! machine the engine's lines and its timer wake-ups and carries out its
//! commands;
//! requests come in from `api.rs` under the same lock. Each change of the
//! game's steps is written to the store ([`super::store`]) under that
//! lock, before any answer shows it.

use super::pool::{Bell, Waited};
use super::store::{Status, Store, StoreError, unix_now};
use super::{Engines, Link, QUIT_GRACE};
use splut_board::session::levels::Levels;
use splut_board::session::{Command, Refusal};
pub use splut_board::session::{Pace, SeatConfig};
use splut_rules::{Game, Seat, Step};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a process engine is read while it searches (its lines come
/// in on the link's channel, which the thread cannot wait on; an engine in
/// this process rings the game's [`Bell`] instead).
const READ_EVERY: Duration = Duration::from_millis(10);

/// How often a long-poll looks whether its asker closed the connection.
pub const GONE_EVERY: Duration = Duration::from_secs(1);

/// How often an idle engine is checked for a crash.
const CHECK_EVERY: Duration = Duration::from_millis(100);

/// The machine, its engine and what the host keeps for them.
struct Inner {
    machine: splut_board::session::Session,
    engine: Option<Link>,
    /// Engines to quit once the lock is let go (they are given a grace).
    quitting: Vec<Link>,
    /// The machine's time last told it: it never goes back.
    told: Duration,
    last_seen: Instant,
    /// The steps as the store has them.
    saved: Vec<Step>,
    /// The seats as the store has them (names, stand-ins, their turns).
    saved_seats: Vec<SeatConfig>,
    /// Whether the store has the game's end.
    ended: bool,
    /// The last failure to write, reported once.
    save_error: Option<String>,
}

/// A game and its engine.
pub struct Session {
    /// Its id in the API.
    pub id: u64,
    inner: Mutex<Inner>,
    /// Notified when the state's version changes (or the game closes):
    /// the pages' long-polls wait on it.
    changed: Condvar,
    /// Wakes the game's thread: an engine line, a request.
    bell: Arc<Bell>,
    engines: Engines,
    live: Arc<AtomicUsize>,
    /// The machine's clock: time since this game began, less the time
    /// its searches waited for a slot in the pool.
    began: Instant,
    /// How long its searches waited for a slot.
    waited: Arc<Waited>,
    /// Where its steps are kept.
    store: Arc<dyn Store>,
}

impl Session {
    /// Starts a game from `start` with these seats (one per seat in the
    /// game, in seat order), its engine (from `engines`) and the thread that plays its
    /// turns, which shows an engine's steps at `pace` (`step_pause` the
    /// normal pause between them) and sets each seat's level through
    /// `levels` before its turn. The game is in `store` already, with the
    /// steps of `game`; later steps are written there as they are played.
    pub fn start(
        (id, game, seats): (u64, Game, Vec<SeatConfig>),
        engines: Engines,
        live: Arc<AtomicUsize>,
        (step_pause, levels, pace): (Duration, Levels, Pace),
        store: Arc<dyn Store>,
    ) -> Result<Arc<Session>, Refusal> {
        let saved = game.steps().to_vec();
        let saved_seats = seats.clone();
        // A game over at its start (a finished record loaded, or opened
        // from the history) was not played here: it is not written as
        // finished, and the history does not list it again, unless it is
        // taken back and played to an end.
        let over = game.position().is_game_over()
            || splut_board::session::limit::adjudicated(&game, &seats).is_some();
        let machine = splut_board::session::Session::new(
            id,
            game,
            seats,
            levels,
            step_pause,
            pace,
            Duration::ZERO,
        );
        let session = Arc::new(Session {
            id,
            inner: Mutex::new(Inner {
                machine,
                engine: None,
                quitting: Vec::new(),
                told: Duration::ZERO,
                last_seen: Instant::now(),
                saved,
                saved_seats,
                ended: over,
                save_error: None,
            }),
            changed: Condvar::new(),
            bell: Arc::default(),
            engines,
            live,
            began: Instant::now(),
            waited: Arc::new(Waited::default()),
            store,
        });
        {
            let mut g = session.lock();
            session.carry_out(&mut g)?;
        }
        let s = session.clone();
        std::thread::spawn(move || s.worker());
        Ok(session)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere must not take the server down with it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The machine's time. It stands still while the game's search
    /// waits for a slot, so the machine's watchdog (a search's time plus
    /// [`splut_board::session::HUNG_AFTER`]) counts from the search's
    /// start, as the engine's time does.
    fn now(&self, g: &mut Inner) -> Duration {
        let waited = self.waited.total();
        let now = self.began.elapsed().saturating_sub(waited).max(g.told);
        g.told = now;
        now
    }

    /// Carries out the machine's commands; a failed start is told to the
    /// machine and is the refusal of the request that asked for it.
    fn carry_out(&self, g: &mut Inner) -> Result<(), Refusal> {
        let mut failed = None;
        while let Some(c) = g.machine.command() {
            match c {
                Command::Spawn => {
                    g.quitting.extend(g.engine.take());
                    match self.engines.spawn(&self.live, (&self.waited, &self.bell)) {
                        Ok(e) => g.engine = Some(e),
                        Err(e) => {
                            let now = self.now(g);
                            g.machine.engine_gone(&e, now);
                            failed = Some(e);
                        }
                    }
                }
                Command::Send(command) => {
                    if let Some(e) = g.engine.as_mut()
                        && let Err(err) = e.command(&command)
                    {
                        g.engine = None;
                        let now = self.now(g);
                        g.machine.engine_gone(&err, now);
                    }
                }
                Command::Quit => g.quitting.extend(g.engine.take()),
            }
        }
        failed.map_or(Ok(()), |e| Err(Refusal::EngineFailed(e)))
    }

    /// Feeds the machine the engine's lines so far, and its end.
    fn read_engine(&self, g: &mut Inner) {
        let Some(engine) = g.engine.as_mut() else {
            return;
        };
        let mut lines = Vec::new();
        let gone = loop {
            match engine.recv(Duration::ZERO) {
                Ok(Some(line)) => lines.push(line),
                Ok(None) if engine.alive() => break None,
                Ok(None) => break Some("the engine exited".to_string()),
                Err(e) => break Some(e),
            }
        };
        for line in lines {
            self.engine_says(g, line);
        }
        if let Some(why) = gone {
            g.engine = None;
            let now = self.now(g);
            g.machine.engine_gone(&why, now);
        }
    }

    /// One line from the engine, to the machine (which reads it).
    fn engine_says(&self, g: &mut Inner, line: String) {
        let now = self.now(g);
        g.machine.engine_line(&line, now);
    }

    /// Feeds the machine the engine's lines and the time until the game
    /// is closed; between rounds it waits for its bell, the machine's next
    /// timer or a check, without the lock.
    fn worker(self: Arc<Self>) {
        while let Some(wait) = self.round() {
            self.bell.wait(wait);
        }
    }

    /// One round of the game's thread: the engine's lines read, the
    /// timers fired, the steps kept, the commands carried out; how long
    /// to wait for the next (none once the game is closed).
    fn round(&self) -> Option<Duration> {
        let mut g = self.lock();
        for e in g.quitting.drain(..) {
            std::thread::spawn(move || e.quit(QUIT_GRACE));
        }
        if g.machine.closed() {
            quit(g.engine.take());
            return None;
        }
        let version = g.machine.version();
        self.read_engine(&mut g);
        let now = self.now(&mut g);
        g.machine.wake(now);
        // The engine's steps are kept before anyone can see them; a
        // failure is tried again on the next round.
        if let Err(e) = self.save(&mut g) {
            self.report(&mut g, e);
        }
        let _ = self.carry_out(&mut g);
        self.tell_pages(&g, version);
        let polled = g.engine.as_ref().is_some_and(|e| !e.rings());
        let every = if g.machine.awaiting_engine() && polled {
            READ_EVERY
        } else {
            CHECK_EVERY
        };
        Some(
            g.machine
                .wake_at()
                .map_or(every, |t| t.saturating_sub(now).min(every)),
        )
    }

    /// Writes to the store what changed in the game since it last did:
    /// steps taken back are deleted, new steps appended, the end kept.
    fn save(&self, g: &mut Inner) -> Result<(), StoreError> {
        // Compared as steps, not text: this runs on every engine line.
        let game = g.machine.game();
        let now = game.steps();
        let same = g.saved.iter().zip(now).take_while(|(a, b)| a == b).count();
        if g.saved.len() > same {
            self.store.take_back(self.id, same)?;
            g.saved.truncate(same);
            g.ended = false;
        }
        if now.len() > same {
            let new: Vec<String> = now[same..].iter().map(|s| s.to_string()).collect();
            self.store.append(self.id, same, &new)?;
            g.saved.extend_from_slice(&now[same..]);
        }
        if g.machine.over() && !g.ended {
            let result = g.machine.places_text();
            let end = Status::Finished {
                result,
                at: unix_now(),
            };
            self.store.end(self.id, &end)?;
            g.ended = true;
        }
        if g.machine.seats() != g.saved_seats.as_slice() {
            let seats = serde_json::to_string(g.machine.seats()).unwrap_or_default();
            self.store.set_seats(self.id, &seats)?;
            g.saved_seats = g.machine.seats().to_vec();
        }
        g.save_error = None;
        Ok(())
    }

    /// A failure to write the engine's steps, on stderr once.
    fn report(&self, g: &mut Inner, e: StoreError) {
        if g.save_error.as_deref() != Some(e.0.as_str()) {
            eprintln!("warning: game {}: {e} (trying again)", self.id);
            g.save_error = Some(e.0);
        }
    }

    /// A request: `f` on the machine at this time, its commands carried
    /// out; the state after it.
    fn request(
        &self,
        f: impl FnOnce(&mut splut_board::session::Session, Duration) -> Result<(), Refusal>,
    ) -> Result<serde_json::Value, Refusal> {
        let mut g = self.lock();
        g.last_seen = Instant::now();
        let now = self.now(&mut g);
        let before = g.machine.clone();
        f(&mut g.machine, now)?;
        // Acknowledged only once kept: a change the store refused is
        // undone, and the request refused.
        if let Err(e) = self.save(&mut g) {
            g.machine = before;
            return Err(Refusal::Store(format!("not saved, nothing changed: {e}")));
        }
        let done = self.carry_out(&mut g).map(|_| json(&g));
        self.tell_pages(&g, before.version());
        // The game's thread looks at the machine's timers again.
        self.bell.ring();
        quit_all(g);
        done
    }

    /// The game's start (SPN) and its steps so far.
    pub fn game(&self) -> (String, Game) {
        let g = self.lock();
        (g.machine.start_spn().to_string(), g.machine.game().clone())
    }

    /// The seat to move and every seat, unless the game is over (read
    /// under one lock, the game not copied: the tables' checks).
    pub fn mover(&self) -> Option<(Seat, Vec<SeatConfig>)> {
        let g = self.lock();
        let pos = g.machine.game().position();
        (!g.machine.over()).then(|| (pos.side_to_move(), g.machine.seats().to_vec()))
    }

    /// Time since the page last asked about this game.
    pub fn idle_for(&self) -> Duration {
        self.lock().last_seen.elapsed()
    }

    /// Ends the game: its engine quits and the thread exits.
    pub fn close(&self) {
        let mut g = self.lock();
        g.machine.close();
        let _ = self.carry_out(&mut g);
        self.changed.notify_all();
        self.bell.ring();
        quit_all(g);
    }

    /// The pages' long-polls are woken if the state's version is no
    /// longer `version`.
    fn tell_pages(&self, g: &Inner, version: u64) {
        if g.machine.version() != version {
            self.changed.notify_all();
        }
    }

    /// A person's step.
    pub fn step(&self, text: &str) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| m.step(text, now))
    }

    /// Takes back the current part-turn, or else the last whole turn; then
    /// more whole turns until a person is to move (if any seat is one).
    pub fn take_back(&self) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| m.take_back(now))
    }

    /// Starts a new engine after a crash (or any time).
    pub fn restart_engine(&self) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| {
            m.restart(now);
            Ok(())
        })
    }

    /// Ends the game with the places so far, once no person is left
    /// playing it ([`splut_board::session::Session::end_here`]); the state.
    pub fn end_here(&self) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| m.end_here(now))
    }

    /// Changes the pace of the engine's steps, at once; the state.
    pub fn set_pace(&self, pace: Pace) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| {
            m.set_pace(pace, now);
            Ok(())
        })
    }

    /// Plays the waiting engine step (step-by-step pace); the state after
    /// it. Refused when no step waits.
    pub fn next_step(&self) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| m.next(now))
    }

    /// The state, at once or (with `since` equal to the current version)
    /// when it changes, waiting at most `wait`, or less if the asker is
    /// `gone` (looked at every [`GONE_EVERY`]).
    pub fn get(
        &self,
        since: Option<u64>,
        wait: Duration,
        gone: &dyn Fn() -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + wait;
        let mut g = self.lock();
        loop {
            g.last_seen = Instant::now();
            let left = deadline.saturating_duration_since(Instant::now());
            if since != Some(g.machine.version()) || g.machine.closed() || left.is_zero() || gone()
            {
                break;
            }
            g = self
                .changed
                .wait_timeout(g, left.min(GONE_EVERY))
                .map(|r| r.0)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        // The clocks' time left as of this answer.
        let now = self.now(&mut g);
        g.machine.observe(now);
        json(&g)
    }

    /// The game in the tournament records format (`splut replay` reads
    /// it), as the static web board writes it too.
    pub fn record(&self) -> String {
        self.lock().machine.record()
    }

    /// Raises the state's version to at least `floor` (a resumed game:
    /// above every version the pages saw before the restart).
    pub fn lift_version(&self, floor: u64) {
        self.lock().machine.lift_version(floor);
    }

    /// The seats, one per seat in the game, in seat order.
    pub fn seats(&self) -> Vec<SeatConfig> {
        self.lock().machine.seats().to_vec()
    }

    /// A person names their seat; the state after it. Kept before it is
    /// acknowledged, as a step is.
    pub fn set_name(&self, seat: Seat, name: &str) -> Result<serde_json::Value, Refusal> {
        self.request(|m, _| m.set_name(seat, name))
    }

    /// Someone from the lobby takes open seat `seat` under `name`: checked
    /// and named under the game's lock, so two cannot both take it; kept
    /// before it is acknowledged.
    pub fn sit(&self, seat: Seat, name: &str) -> Result<serde_json::Value, Refusal> {
        self.request(|m, _| m.sit(seat, name))
    }

    /// The engine plays a person's seat (`on`: away, or `left` for good)
    /// or gives it back; kept before it is acknowledged.
    pub fn stand_in(&self, seat: Seat, on: bool, left: bool) -> Result<serde_json::Value, Refusal> {
        self.request(|m, now| m.stand_in(seat, (on, left), now))
    }
}

/// The state as the page reads it.
fn json(g: &Inner) -> serde_json::Value {
    serde_json::to_value(&g.machine).unwrap_or(serde_json::Value::Null)
}

/// Quits an engine (given its grace).
fn quit(engine: Option<Link>) {
    if let Some(e) = engine {
        e.quit(QUIT_GRACE);
    }
}

/// Quits the engines the machine let go, once the lock is let go: the
/// request answers when they are gone.
fn quit_all(mut g: MutexGuard<'_, Inner>) {
    let quitting = std::mem::take(&mut g.quitting);
    drop(g);
    quitting.into_iter().for_each(|e| quit(Some(e)));
}
