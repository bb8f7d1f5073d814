//! Engine seats in the server's own process: each game's engine is a
//! [`splut_engine::protocol::Session`] of its own (its options, its game,
//! a small table) spoken to over the same protocol lines as a process, on
//! a thread of its own, so the board's session machine and its reader do
//! not know the difference. The searches of every game share one bounded
//! [`Pool`]: at most its limit search at once, the others wait their turn
//! in the order their `go` came. A `go` is handed to its engine only when
//! it gets its slot, so its time per turn counts from its start, and the
//! slot is freed at its `bestmove` (or a `stop` while it waits, or the
//! engine's end). The game's commands come typed ([`Command`]), the
//! handshake's among them (the board's session machine does it), and go
//! to the engine's session typed: no line is printed and read again here,
//! and the pool tells a `go`, a `stop` and a `quit` by their types.

use splut_engine::Engine;
use splut_engine::protocol::{Flow, Output, Session};
use splut_play::answer::ends_answer;
use splut_protocol::Command;
use splut_protocol::words::{BestMove, Line};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Each in-process engine's table (`Hash`, MiB): small, so a hundred
/// tables with engine seats stay within a few hundred MB (the engine's
/// default, 64 MiB, is for one engine on a machine).
pub const HASH_MIB: &str = "2";

/// How often an engine thread with nothing to read checks that the
/// search holding its slot still runs (one that ended without its
/// `bestmove` must not keep the slot).
const CHECK_EVERY: Duration = Duration::from_millis(100);

/// The nice value of the engine seats' threads (their searches inherit
/// it): below the server's, so a person's step is answered at once
/// however many searches run; a search then gets the cores the answers
/// leave it, its time per turn still counted by the clock.
pub const SEARCH_NICE: i32 = 10;

/// Lowers the calling thread's priority to [`SEARCH_NICE`] (Linux, where
/// the nice value is a thread's; elsewhere nothing changes). The threads
/// it starts inherit it.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    // SAFETY: plain system calls on this thread's own id; a failure (a
    // sandbox refusing it) leaves the priority as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, SEARCH_NICE);
    }
}

/// How long an ending engine's search is given to stop before its slot
/// is freed anyway.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// Locks `m`, also after a thread panicked holding it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long one game's searches have waited for a slot in all: the
/// game's clock stands still while its search waits, so the machine's
/// watchdog counts a search's time from its start, as the engine does.
#[derive(Debug, Default)]
pub struct Waited(Mutex<(Duration, Option<Instant>)>);

impl Waited {
    /// The time waited so far, the wait going on included.
    pub fn total(&self) -> Duration {
        let w = lock(&self.0);
        w.0 + w.1.map_or(Duration::ZERO, |t| t.elapsed())
    }

    fn start(&self) {
        let mut w = lock(&self.0);
        if w.1.is_none() {
            w.1 = Some(Instant::now());
        }
    }

    fn stop(&self) {
        let mut w = lock(&self.0);
        if let Some(t) = w.1.take() {
            w.0 += t.elapsed();
        }
    }
}

/// A game's thread's bell: rung when its engine writes a line (or a
/// request changes the game), so the thread reads at once instead of
/// polling. It stays rung until the thread has waited on it: no ring is
/// lost between the thread's last look and its wait.
#[derive(Debug, Default)]
pub struct Bell {
    rung: Mutex<bool>,
    ring: std::sync::Condvar,
}

impl Bell {
    /// Rings: the waiting thread wakes (or, if it is not waiting, does
    /// not wait at its next [`Bell::wait`]).
    pub fn ring(&self) {
        *lock(&self.rung) = true;
        self.ring.notify_one();
    }

    /// Waits until rung or for `timeout`, and silences the bell.
    pub fn wait(&self, timeout: Duration) {
        let rung = lock(&self.rung);
        let mut rung = self
            .ring
            .wait_timeout_while(rung, timeout, |r| !*r)
            .map(|r| r.0)
            .unwrap_or_else(|e| e.into_inner().0);
        *rung = false;
    }
}

/// What an engine thread is told.
#[derive(Debug)]
enum Msg {
    /// A command from the game.
    Order(Command),
    /// Its waiting `go` has its slot.
    Granted,
    /// The game let the engine go.
    Hangup,
}

/// One engine's place in the pool.
pub struct Place {
    /// Whether it holds a slot (a search running, or about to).
    held: AtomicBool,
    /// Where its game's waiting time is counted.
    waited: Arc<Waited>,
    /// Its thread, told when its slot comes.
    wake: Sender<Msg>,
}

/// The searches of every in-process engine: at most `limit` at once, the
/// others queued first come, first served.
#[derive(Clone)]
pub struct Pool(Arc<Shared>);

struct Shared {
    limit: usize,
    state: Mutex<Queue>,
}

#[derive(Default)]
struct Queue {
    searching: usize,
    waiting: VecDeque<Arc<Place>>,
}

impl Pool {
    /// A pool of at most `limit` searches at once (at least one).
    pub fn new(limit: usize) -> Pool {
        Pool(Arc::new(Shared {
            limit: limit.max(1),
            state: Mutex::new(Queue::default()),
        }))
    }

    /// The default limit: the machine's cores.
    pub fn cores() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// Most searches at once.
    pub fn limit(&self) -> usize {
        self.0.limit
    }

    /// Searches running and searches waiting now.
    pub fn counts(&self) -> (usize, usize) {
        let q = lock(&self.0.state);
        (q.searching, q.waiting.len())
    }

    /// A slot for `place`'s search: true if it has one now; else it waits
    /// behind the others and its thread is told [`Msg::Granted`].
    fn request(&self, place: &Arc<Place>) -> bool {
        let mut q = lock(&self.0.state);
        if place.held.load(Ordering::SeqCst) || q.waiting.iter().any(|p| Arc::ptr_eq(p, place)) {
            // One search at a time per engine: its engine refuses a
            // second `go` while searching anyway.
            return place.held.load(Ordering::SeqCst);
        }
        if q.searching < self.0.limit && q.waiting.is_empty() {
            q.searching += 1;
            place.held.store(true, Ordering::SeqCst);
            return true;
        }
        place.waited.start();
        q.waiting.push_back(place.clone());
        false
    }

    /// Takes `place` out of the queue: true if it was waiting (it gets no
    /// slot), false if it was not (its slot may be on its way).
    fn cancel(&self, place: &Arc<Place>) -> bool {
        let mut q = lock(&self.0.state);
        let Some(i) = q.waiting.iter().position(|p| Arc::ptr_eq(p, place)) else {
            return false;
        };
        q.waiting.remove(i);
        place.waited.stop();
        true
    }

    /// Frees `place`'s slot, if it holds one, for the first waiting.
    fn release(&self, place: &Place) {
        if !place.held.swap(false, Ordering::SeqCst) {
            return;
        }
        let mut q = lock(&self.0.state);
        q.searching = q.searching.saturating_sub(1);
        while q.searching < self.0.limit {
            let Some(next) = q.waiting.pop_front() else {
                break;
            };
            next.waited.stop();
            next.held.store(true, Ordering::SeqCst);
            q.searching += 1;
            if next.wake.send(Msg::Granted).is_err() {
                // Its engine is gone: the slot goes to the next.
                next.held.store(false, Ordering::SeqCst);
                q.searching -= 1;
            }
        }
    }
}

/// The engine's output: whole lines to the game, and each answer frees
/// the engine's slot.
struct Lines {
    partial: Vec<u8>,
    to_game: Sender<String>,
    /// Rung at each line for the game's thread.
    bell: Arc<Bell>,
    place: Arc<Place>,
    pool: Pool,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line).trim_end().to_string();
            if ends_answer(&line) {
                self.pool.release(&self.place);
            }
            // The game may be gone; the engine does not care.
            let _ = self.to_game.send(line);
            self.bell.ring();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An in-process engine, as its game holds it: lines in, lines out.
pub struct Seat {
    to_engine: Sender<Msg>,
    from_engine: Receiver<String>,
    /// False once its thread ended (`quit`, or a panic).
    alive: Arc<AtomicBool>,
}

impl Seat {
    /// Starts an engine with a small table ([`HASH_MIB`]) on a thread of
    /// its own, its searches in `pool`, its game's waiting counted in
    /// `waited`, `bell` rung at each of its lines.
    pub fn start(pool: &Pool, waited: &Arc<Waited>, bell: &Arc<Bell>) -> Result<Seat, String> {
        let engine = Engine::with_options(&[("Hash", HASH_MIB)]).map_err(|e| e.to_string())?;
        let (to_engine, inbox) = mpsc::channel();
        let (to_game, from_engine) = mpsc::channel();
        let place = Arc::new(Place {
            held: AtomicBool::new(false),
            waited: waited.clone(),
            wake: to_engine.clone(),
        });
        let alive = Arc::new(AtomicBool::new(true));
        let lines = Lines {
            partial: Vec::new(),
            to_game,
            bell: bell.clone(),
            place: place.clone(),
            pool: pool.clone(),
        };
        let out = Output::new(Box::new(lines));
        let engine = Arc::new(engine);
        let ending = Ending {
            place: place.clone(),
            pool: pool.clone(),
            engine: engine.clone(),
            alive: alive.clone(),
        };
        let pool = pool.clone();
        std::thread::Builder::new()
            .name("splut-seat".into())
            .spawn(move || {
                lower_priority();
                let session = Session::with_engine(out.clone(), engine.clone());
                let mut driver = Driver {
                    session,
                    out,
                    engine,
                    place,
                    pool,
                    waiting: None,
                    held_back: VecDeque::new(),
                    idle_checks: 0,
                };
                driver.run(&inbox);
                drop(ending);
            })
            .map_err(|e| format!("cannot start an engine thread: {e}"))?;
        Ok(Seat {
            to_engine,
            from_engine,
            alive,
        })
    }

    /// Sends one command; an error if the engine has ended.
    pub fn command(&self, command: Command) -> Result<(), String> {
        if !self.alive() {
            return Err("the engine ended".into());
        }
        self.to_engine
            .send(Msg::Order(command))
            .map_err(|_| "the engine ended".to_string())
    }

    /// The engine's next line, waiting at most `wait`.
    pub fn recv(&self, wait: Duration) -> Option<String> {
        if wait.is_zero() {
            self.from_engine.try_recv().ok()
        } else {
            self.from_engine.recv_timeout(wait).ok()
        }
    }

    /// Whether the engine's thread still runs.
    pub fn alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    /// Ends the engine: its search stops, its slot is freed.
    pub fn quit(self) {
        drop(self);
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        let _ = self.to_engine.send(Msg::Hangup);
    }
}

/// Run when an engine's thread ends, by `quit` or a panic: its place
/// leaves the queue, its search stops and its slot is freed.
struct Ending {
    place: Arc<Place>,
    pool: Pool,
    engine: Arc<Engine>,
    alive: Arc<AtomicBool>,
}

impl Drop for Ending {
    fn drop(&mut self) {
        self.alive.store(false, Ordering::SeqCst);
        self.pool.cancel(&self.place);
        self.engine.stop();
        let deadline = Instant::now() + STOP_GRACE;
        while self.engine.is_searching() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.pool.release(&self.place);
    }
}

/// An engine's thread: the protocol session, and the `go` waiting for
/// its slot with the lines that came after it.
struct Driver {
    session: Session,
    out: Output,
    engine: Arc<Engine>,
    place: Arc<Place>,
    pool: Pool,
    waiting: Option<Command>,
    held_back: VecDeque<Command>,
    /// Checks in a row that found the slot held and no search running.
    idle_checks: u32,
}

impl Driver {
    /// Reads the game's lines and the pool's grants until `quit` or the
    /// game lets go.
    fn run(&mut self, inbox: &Receiver<Msg>) {
        loop {
            let flow = match inbox.recv_timeout(CHECK_EVERY) {
                Ok(Msg::Order(order)) => self.line(order),
                Ok(Msg::Granted) => self.granted(),
                Ok(Msg::Hangup) | Err(RecvTimeoutError::Disconnected) => Flow::Quit,
                Err(RecvTimeoutError::Timeout) => {
                    self.check_slot();
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                return;
            }
        }
    }

    /// One command from the game: held back behind a waiting `go`, but a
    /// `stop` takes the waiting `go` out of the queue and answers for it.
    fn line(&mut self, order: Command) -> Flow {
        if self.waiting.is_none() {
            return self.deliver(order);
        }
        match order {
            Command::Quit => return Flow::Quit,
            Command::Stop if self.pool.cancel(&self.place) => {
                // Never started: no turn to give, as a search of a
                // finished game answers.
                self.waiting = None;
                self.out.line(&Line::from(BestMove(None)).to_string());
                return self.replay();
            }
            // Its slot is on the way: the stop follows the go.
            _ => self.held_back.push_back(order),
        }
        Flow::Continue
    }

    /// A command for the engine now; a `go` first waits for its slot.
    fn deliver(&mut self, order: Command) -> Flow {
        let go = match order {
            go @ Command::Go(_) => go,
            c => return self.session.command(c),
        };
        if self.pool.request(&self.place) {
            self.go(go);
        } else {
            self.waiting = Some(go);
        }
        Flow::Continue
    }

    /// The waiting `go` has its slot: it starts, then the lines after it.
    fn granted(&mut self) -> Flow {
        match self.waiting.take() {
            Some(go) => {
                self.go(go);
                self.replay()
            }
            None => {
                // Nothing waits (it was answered meanwhile).
                self.pool.release(&self.place);
                Flow::Continue
            }
        }
    }

    /// The lines held back behind a `go`, until one waits again.
    fn replay(&mut self) -> Flow {
        while self.waiting.is_none() {
            let Some(order) = self.held_back.pop_front() else {
                break;
            };
            if self.deliver(order) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Hands `go` to the engine; a go that started no search (refused,
    /// or answered at once) holds no slot.
    fn go(&mut self, go: Command) {
        self.session.command(go);
        if !self.engine.is_searching() {
            self.pool.release(&self.place);
        }
    }

    /// A slot held twice in a row with no search running was lost (its
    /// answer never came): freed.
    fn check_slot(&mut self) {
        if self.place.held.load(Ordering::SeqCst) && !self.engine.is_searching() {
            self.idle_checks += 1;
            if self.idle_checks >= 2 {
                self.pool.release(&self.place);
            }
        } else {
            self.idle_checks = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_protocol::command::{Go, PositionCommand};
    use splut_rules::{Game, Position};

    /// `position spn <the 2-player start>`.
    fn start() -> Command {
        PositionCommand::spn(&Game::new(Position::start(2).unwrap()), 0).into()
    }

    /// `go infinite`.
    fn infinite() -> Command {
        Go {
            infinite: true,
            ..Go::default()
        }
        .into()
    }

    /// An engine seat in `pool`, its game's waiting counted in `waited`.
    fn seat(pool: &Pool, waited: &Arc<Waited>) -> Seat {
        Seat::start(pool, waited, &Arc::default()).unwrap()
    }

    fn place() -> (Arc<Place>, Receiver<Msg>) {
        let (tx, rx) = mpsc::channel();
        let place = Arc::new(Place {
            held: AtomicBool::new(false),
            waited: Arc::new(Waited::default()),
            wake: tx,
        });
        (place, rx)
    }

    /// Waits (5 s at most) for the pool's counts to be `want`: the
    /// engine threads take the lines in their own time.
    fn counts_become(pool: &Pool, want: (usize, usize)) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool.counts() != want && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(pool.counts(), want);
    }

    fn granted(rx: &Receiver<Msg>) -> bool {
        matches!(rx.try_recv(), Ok(Msg::Granted))
    }

    #[test]
    fn searches_wait_their_turn_in_order() {
        let pool = Pool::new(2);
        let places: Vec<_> = (0..5).map(|_| place()).collect();
        let asked: Vec<bool> = places.iter().map(|(p, _)| pool.request(p)).collect();
        assert_eq!(asked, [true, true, false, false, false]);
        assert_eq!(pool.counts(), (2, 3));
        // Each freed slot goes to the first waiting, never more than 2.
        pool.release(&places[1].0);
        assert!(granted(&places[2].1));
        assert!(!granted(&places[3].1) && !granted(&places[4].1));
        assert_eq!(pool.counts(), (2, 2));
        pool.release(&places[0].0);
        assert!(granted(&places[3].1));
        assert_eq!(pool.counts(), (2, 1));
        // A slot is freed once, however often its end is told.
        pool.release(&places[0].0);
        assert_eq!(pool.counts(), (2, 1));
        pool.release(&places[2].0);
        assert!(granted(&places[4].1));
        for (p, _) in &places {
            pool.release(p);
        }
        assert_eq!(pool.counts(), (0, 0));
    }

    #[test]
    fn a_stopped_or_closed_wait_frees_its_place() {
        let pool = Pool::new(1);
        let (a, _ra) = place();
        let (b, rb) = place();
        let (c, rc) = place();
        let (d, rd) = place();
        assert!(pool.request(&a));
        assert!(!pool.request(&b) && !pool.request(&c) && !pool.request(&d));
        // Asking again keeps its place (no second entry).
        assert!(!pool.request(&c));
        assert_eq!(pool.counts(), (1, 3));
        // Stopped while waiting: out of the queue, no slot.
        assert!(pool.cancel(&b));
        assert!(!pool.cancel(&b));
        // Closed while waiting: its engine is gone, its turn is skipped.
        drop(rc);
        pool.release(&a);
        assert!(!granted(&rb));
        assert!(granted(&rd));
        assert!(!c.held.load(Ordering::SeqCst));
        assert_eq!(pool.counts(), (1, 0));
        pool.release(&d);
        assert_eq!(pool.counts(), (0, 0));
    }

    #[test]
    fn waiting_is_counted_until_the_slot_comes() {
        let pool = Pool::new(1);
        let (a, _ra) = place();
        let (b, rb) = place();
        assert!(pool.request(&a));
        assert!(!pool.request(&b));
        std::thread::sleep(Duration::from_millis(60));
        assert!(b.waited.total() >= Duration::from_millis(60));
        pool.release(&a);
        assert!(granted(&rb));
        let waited = b.waited.total();
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(b.waited.total(), waited, "the clock runs again");
        assert_eq!(a.waited.total(), Duration::ZERO);
    }

    /// The lines of `seat` until its answer (or `limit`).
    fn answer(seat: &Seat, limit: Duration) -> Vec<String> {
        let t0 = Instant::now();
        let mut lines = Vec::new();
        while t0.elapsed() < limit {
            if let Some(line) = seat.recv(Duration::from_millis(10)) {
                let done = ends_answer(&line);
                lines.push(line);
                if done {
                    break;
                }
            }
        }
        lines
    }

    #[test]
    fn in_process_engines_share_the_slots_and_count_from_their_start() {
        let pool = Pool::new(1);
        let waited = Arc::new(Waited::default());
        let a = seat(&pool, &Arc::default());
        let b = seat(&pool, &waited);
        let t0 = Instant::now();
        a.command(start()).unwrap();
        a.command(Go::movetime(300).into()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        b.command(start()).unwrap();
        b.command(Go::movetime(300).into()).unwrap();
        counts_become(&pool, (1, 1));
        assert!(
            answer(&a, Duration::from_secs(5))
                .last()
                .unwrap()
                .starts_with("bestmove")
        );
        let a_took = t0.elapsed();
        let lines = answer(&b, Duration::from_secs(5));
        assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
        // b waited for a's search, then had as long as a had.
        let b_took = t0.elapsed() - a_took;
        assert!(b_took >= a_took * 3 / 4, "a {a_took:?}, b {b_took:?}");
        assert!(waited.total() >= a_took / 2, "{:?}", waited.total());
        counts_become(&pool, (0, 0));
    }

    #[test]
    fn a_waiting_go_is_answered_at_a_stop_and_dropped_at_a_quit() {
        let pool = Pool::new(1);
        let t = Duration::from_secs(5);
        let a = seat(&pool, &Arc::default());
        let b = seat(&pool, &Arc::default());
        let c = seat(&pool, &Arc::default());
        // a's search first (the engines' threads take their lines in
        // their own order), then b and c wait.
        for (i, s) in [&a, &b, &c].into_iter().enumerate() {
            s.command(start()).unwrap();
            s.command(infinite()).unwrap();
            if i == 0 {
                counts_become(&pool, (1, 0));
            }
        }
        counts_become(&pool, (1, 2));
        // Stopped while waiting: answered at once, with no turn.
        b.command(Command::Stop).unwrap();
        assert_eq!(answer(&b, t), ["bestmove (none)"]);
        assert_eq!(pool.counts(), (1, 1));
        // The next search of b waits behind c.
        b.command(infinite()).unwrap();
        counts_become(&pool, (1, 2));
        // c's game closes while it waits: its place is freed.
        c.quit();
        counts_become(&pool, (1, 1));
        // a's search ends: b's starts.
        a.command(Command::Stop).unwrap();
        assert!(answer(&a, t).last().unwrap().starts_with("bestmove"));
        counts_become(&pool, (1, 0));
        b.command(Command::Stop).unwrap();
        let last = answer(&b, t).pop().unwrap();
        assert!(
            last.starts_with("bestmove ") && last != "bestmove (none)",
            "{last}"
        );
        drop(a);
        drop(b);
        counts_become(&pool, (0, 0));
    }

    #[test]
    fn a_bell_rung_before_the_wait_is_not_lost() {
        let bell = Bell::default();
        bell.ring();
        let t = Instant::now();
        bell.wait(Duration::from_secs(30));
        assert!(t.elapsed() < Duration::from_secs(10));
        // Silenced by that wait: the next one waits its time.
        let t = Instant::now();
        bell.wait(Duration::from_millis(30));
        assert!(t.elapsed() >= Duration::from_millis(30));
        // Rung from another thread while waiting.
        let bell = Arc::new(Bell::default());
        let ringer = bell.clone();
        let t = Instant::now();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            ringer.ring();
        });
        bell.wait(Duration::from_secs(30));
        assert!(t.elapsed() < Duration::from_secs(10));
    }
}
