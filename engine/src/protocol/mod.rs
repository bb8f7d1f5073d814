//! The text protocol (documented in `protocol.md`): UGI, extended for 3–4
//! players and for whole turns.
//!
//! The input loop never blocks on a search: `go` (and `perft`) starts a
//! job (`job.rs`) on the session's search thread, or in a session on one
//! thread runs it a slice at a time between input lines; it prints `info`
//! lines and finally `bestturn …` and `bestmove …`, and meanwhile
//! `isready`, `stop`, `query`, `d` and `quit` are answered at once. Every malformed or unknown line gets one
//! `info string error: …` line and leaves the engine's state as it was.
//!
//! Every line is typed once, in the protocol crate
//! ([`splut_protocol`]): the commands are read by its parser
//! ([`Command::parse`]) and every answer is printed through its words
//! ([`words`]), which read them back too (for clients).

pub mod commands;
mod job;
#[cfg(test)]
mod lines;
#[cfg(test)]
mod sink;

pub use job::SLICE;
/// The deepest `perft` the protocol counts (also the Python package's
/// bound).
pub use splut_protocol::command::PERFT_MAX_DEPTH;
/// The protocol's input and error text, and its answers' words: the
/// protocol crate's, re-exported where the engine's users found them.
pub use splut_protocol::{input, words};

use crate::engine::{Engine, GoError, win_probabilities};
use crate::options::{Id, declarations};
use crate::search::{Info, Limits};
use job::{Driver, Job, Progress, Running};
use splut_protocol::Command;
use splut_protocol::command::{PositionCommand, Query, SetOption};
use splut_rules::{Game, Position, Seat, Step};
use std::io::{BufRead, Write};
use words::{BestTurn, InfoString};

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Where the engine's lines go: shared by the input loop and the search
/// thread, one whole line at a time, flushed after each.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to any writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes. Write errors (a closed pipe) are
    /// ignored: the engine must not crash because its reader left.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// The turn a finished search chose, kept so that a referee asking for one
/// step at a time gets the rest of it without a new search.
#[derive(Clone)]
struct Plan {
    root: Position,
    turn: Vec<Step>,
}

/// The answer to `help`: every command in a line, as `info string` lines
/// so that a GUI that sends it reads nothing it does not know.
const HELP: [&str; 16] = [
    "splut speaks the UGI-based protocol of protocol.md; its commands:",
    "ugi | uci                    the engine's name and options, then ugiok/uciok",
    "isready                      answered with readyok, even while searching",
    "setoption name <N> value <V> sets an option (ugi lists them)",
    "uginewgame | ucinewgame      a new game: the table is cleared",
    "position startpos|fen <SPN> [moves <steps>]   the position to search",
    "go [wtime.. | movetime <ms> | nodes <n> | depth <d> | infinite | ponder ...]   search",
    "stop                         ends the search: bestturn and bestmove follow",
    "ponderhit                    the pondered turn was played: search on the clock",
    "query <question>             p1turn, gameover, result, turn, winner, steps, legal, spn",
    "d                            the board as text",
    "perft <depth>                counts the step tree's leaves (depth 0..=12)",
    "quit                         ends the engine",
    "help                         this list",
    "example: position startpos, then go movetime 1000",
    "protocol.md has every command, option and bound",
];

/// Sets the planned turn, also after a thread panicked holding it.
fn set_plan(plan: &Mutex<Option<Plan>>, value: Option<Plan>) {
    match plan.lock() {
        Ok(mut p) => *p = value,
        Err(poisoned) => *poisoned.into_inner() = value,
    }
}

/// What the input loop should do after a line.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`.
    Quit,
}

/// One protocol session: the input loop's state around an [`Engine`]
/// (the game and its first mover, the planned turn, the running job).
pub struct Session {
    out: Output,
    game: Game,
    p1: Seat,
    /// The engine: options, table, caches, network, threads.
    engine: Arc<Engine>,
    plan: Arc<Mutex<Option<Plan>>>,
    /// The search or perft running, if any.
    running: Option<Running>,
    /// Where searches and perft run, kept from one `go` to the next.
    search_thread: SearchThread,
    /// Whether searches run on a thread of their own; false in a
    /// cooperative session ([`Session::cooperative`]).
    threads: bool,
}

/// Work for the search thread.
type Task = Box<dyn FnOnce() + Send>;

/// The thread the session's searches run on, so that the input loop never
/// blocks: started at the first job and kept for the next ones (short
/// searches, such as a GUI's hints or `go nodes 1`, then start no thread).
#[derive(Default)]
struct SearchThread(Option<mpsc::Sender<Task>>);

impl SearchThread {
    /// Runs `job` on the thread, starting it if there is none (or the last
    /// one ended, after a panic).
    fn run(&mut self, job: Task) {
        let job = match &self.0 {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        let (tx, rx) = mpsc::channel::<Task>();
        let started = std::thread::Builder::new()
            .name("splut-search".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            });
        match started {
            Ok(_) => match tx.send(job) {
                Ok(()) => self.0 = Some(tx),
                Err(mpsc::SendError(job)) => job(),
            },
            // No thread to be had: the job runs here, blocking the input
            // loop, rather than not at all.
            Err(_) => job(),
        }
    }
}

fn steps_text(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The engine's report as its line says it: every field but `winprob`,
/// which depends on the position ([`crate::engine::win_probabilities`]).
pub fn report(i: &Info) -> words::Info {
    words::Info {
        depth: Some(i.depth),
        seldepth: Some(i.seldepth),
        // 0: only one line is searched, and the word is left out.
        multipv: (i.multipv > 0).then_some(i.multipv),
        score: Some(i.score),
        nodes: Some(i.nodes),
        nps: Some(i.nps),
        time_ms: Some(i.time_ms),
        hashfull: Some(i.hashfull),
        pv: i.pv.iter().map(|s| s.text()).collect(),
        winprob: Vec::new(),
    }
}

/// The `info` line of a report of a search of `root`, with its `winprob`
/// words if asked for.
fn report_line(root: &Position, i: &Info, show_win_prob: bool) -> String {
    let mut line = report(i);
    if show_win_prob {
        line.winprob = win_probabilities(root, i);
    }
    line.to_string()
}

/// What a search's reports go to: each is written as its `line`, and the
/// best line's last (`MultiPV`'s first, or the only one) is kept in
/// `reported` for the totals [`conclude`] may add.
fn reporter<'a>(
    out: &'a Output,
    line: &'a dyn Fn(&Info) -> String,
    reported: &'a mut Option<Info>,
) -> impl FnMut(&Info) + 'a {
    move |i| {
        out.line(&line(i));
        if i.multipv <= 1 {
            *reported = Some(i.clone());
        }
    }
}

/// A search of `root` ended with `report`, the last `info` it reported
/// being `reported`: its turn becomes the session's plan, and the totals
/// of a search cut short are returned as a line, unless the last report
/// has them (with `MultiPV`, unless it reported this line: the other
/// lines' nodes are all that differ).
fn conclude(
    report: &crate::engine::Report,
    reported: Option<&Info>,
    plan: &Mutex<Option<Plan>>,
    root: Position,
    line: &dyn Fn(&Info) -> String,
) -> Option<String> {
    set_plan(
        plan,
        Some(Plan {
            root,
            turn: report.turn.clone(),
        }),
    );
    let o = &report.info;
    reported
        .is_none_or(|r| {
            r.nodes != o.nodes && (r.multipv == 0 || r.depth != o.depth || r.pv != o.pv)
        })
        .then(|| line(o))
}

/// What a perft stopped before its end answers (as an `info string`).
const PERFT_STOPPED: &str = "perft stopped; no count";

/// The answer of a perft that counted `rows` below the root steps and
/// `total` leaves: each step's count (sorted by its text), then the total.
fn perft_lines(rows: &[(Step, u64)], total: u64) -> Vec<String> {
    let mut rows: Vec<(String, u64)> = rows.iter().map(|(s, n)| (s.to_string(), *n)).collect();
    rows.sort();
    let mut lines: Vec<String> = rows.iter().map(|(s, n)| format!("{s} {n}")).collect();
    lines.push(format!("nodes {total}"));
    lines
}

/// The answer of a search: `bestturn` and `bestmove`.
fn best_lines(turn: &[Step]) -> Vec<String> {
    let turn = BestTurn::of(turn);
    vec![turn.to_string(), turn.best_move().to_string()]
}

impl Session {
    /// A session writing to `out`, set to the 2-player start position,
    /// with a new engine.
    pub fn new(out: Output) -> Session {
        Session::with_engine(out, Arc::new(Engine::new()))
    }

    /// A session of `engine`, writing to `out`, set to the 2-player start
    /// position.
    pub fn with_engine(out: Output, engine: Arc<Engine>) -> Session {
        Session {
            out,
            game: Game::new(Position::start(2).unwrap_or_else(|| unreachable!())),
            p1: Seat::Red,
            engine,
            plan: Arc::new(Mutex::new(None)),
            running: None,
            search_thread: SearchThread::default(),
            threads: true,
        }
    }

    /// A session for a host with one thread (WebAssembly): nothing runs on
    /// a thread of its own. Every search and every perft runs a slice of
    /// at most [`SLICE`] at a time, the first within the command: the
    /// host calls [`Session::resume`] while it returns true, reading its
    /// input between calls, so that `stop`, `isready` and the rest are
    /// answered while it thinks. A search that ends within its first
    /// slice writes a native session's lines.
    pub fn cooperative(out: Output, engine: Arc<Engine>) -> Session {
        Session {
            threads: false,
            ..Session::with_engine(out, engine)
        }
    }

    fn error(&self, what: &str) {
        self.say(InfoString::error(&input::error_text(what)));
    }

    /// Answers an input line over [`input::MAX_LINE`] (`bytes` long),
    /// which is not read: its error line.
    pub fn too_long(&self, bytes: u64) {
        self.error(&format!(
            "line too long ({bytes} bytes, at most {}); it is ignored",
            input::MAX_LINE
        ));
    }

    /// Whether a search or perft is still running; reaps a finished one.
    fn searching(&mut self) -> bool {
        let Some(r) = &self.running else {
            return false;
        };
        if r.orders.busy() {
            return true;
        }
        self.reap();
        false
    }

    /// Drops the running job, waiting for a thread's to be done with it
    /// (its last lines written, its search dropped).
    fn reap(&mut self) {
        if let Some(Running {
            driver: Driver::Thread(done),
            ..
        }) = self.running.take()
        {
            let _ = done.recv();
        }
    }

    /// Drives the running job once: a slice of a cooperative session's,
    /// a short wait for a thread's.
    fn drive(&mut self) {
        match &self.running {
            Some(Running {
                driver: Driver::Slices(_),
                ..
            }) => {
                self.resume();
            }
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(2)),
            None => {}
        }
    }

    /// Waits for a running job's last lines: a search that waits for an
    /// order (infinite, or pondering before the hit) is told to stop at
    /// once (nobody is left to send it), any other, a ponder search after
    /// its hit included, after [`END_OF_INPUT_GRACE`] at most.
    fn finish(&mut self) {
        let Some(r) = &self.running else {
            return;
        };
        if !r.orders.waits_for_order() {
            let deadline = crate::clock::Instant::now() + END_OF_INPUT_GRACE;
            while self.running.as_ref().is_some_and(|r| r.orders.busy())
                && crate::clock::Instant::now() < deadline
            {
                self.drive();
            }
        }
        self.stop();
        self.reap();
    }

    /// `stop`: the running search answers with its best so far, a perft
    /// with no count (a cooperative session's at once).
    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.orders.stop();
            self.resume();
        }
    }

    /// Handles one input line (its end of line removed).
    pub fn handle(&mut self, line: &str) -> Flow {
        // One rule for every command: words it does not take make the line
        // an error, and the command is not carried out. A command that
        // needs an idle engine is refused while one searches, before its
        // words are read.
        match Command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(c)) => self.command(c),
            Err(e) => {
                match e.needs_idle().filter(|_| self.searching()) {
                    Some(word) => self.busy(word),
                    None => self.error(&e.to_string()),
                }
                Flow::Continue
            }
        }
    }

    /// Carries out one command, as its line would be (a host in this
    /// process hands it over typed): one that needs an idle engine is
    /// refused while a search runs.
    pub fn command(&mut self, command: Command) -> Flow {
        if command.needs_idle() && self.searching() {
            self.busy(command.word());
            return Flow::Continue;
        }
        self.carry_out(command)
    }

    /// The refusal of `command` while a search (or a perft) runs.
    fn busy(&self, command: &str) {
        self.error(&format!("'{command}' while searching; send 'stop' first"));
    }

    /// Carries out one command.
    fn carry_out(&mut self, command: Command) -> Flow {
        match command {
            Command::Ugi | Command::Uci => self.ugi(command == Command::Ugi),
            Command::IsReady => {
                // The table is made here (or at the first search) at the
                // `Hash` set last, which only recorded the size.
                if let Err(e) = self.engine.ready() {
                    self.error(&format!("isready: {e}"));
                }
                self.say(words::Line::ReadyOk)
            }
            Command::UgiNewGame | Command::UciNewGame => {
                if let Err(e) = self.engine.new_game() {
                    self.error(&format!("uginewgame: {e}"));
                }
                set_plan(&self.plan, None);
            }
            Command::SetOption(o) => self.setoption(&o),
            Command::Position(p) => self.position(p),
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop(),
            // After its hit a search ponders no more: a second hit is an
            // error, as protocol.md says. A search that ended while
            // pondering answers now.
            Command::PonderHit => match self.running.as_ref().and_then(|r| r.orders.pondering()) {
                Some(p) => {
                    p.hit();
                    self.resume();
                }
                None => self.error("ponderhit: no search is pondering"),
            },
            Command::Query(q) => self.query(q),
            Command::D => {
                for l in self.game.position().board_art().lines() {
                    self.out.line(l);
                }
            }
            Command::Perft(depth) => self.perft(depth),
            Command::Quit => return Flow::Quit,
            Command::Help => HELP.iter().for_each(|l| self.say(InfoString::new(*l))),
        }
        Flow::Continue
    }

    /// Writes one line.
    fn say(&self, line: impl Into<words::Line>) {
        self.out.line(&line.into().to_string());
    }

    /// The answer to `ugi` (`uci`): the engine's identity, its options,
    /// `ugiok` (`uciok`).
    fn ugi(&self, ugi: bool) {
        let version = concat!("splut ", env!("CARGO_PKG_VERSION"));
        self.say(words::Id::Name(version.into()));
        self.say(words::Id::Author("the splut developers".into()));
        for o in declarations() {
            self.say(o);
        }
        self.say(if ugi {
            words::Line::UgiOk
        } else {
            words::Line::UciOk
        });
    }

    /// `position`: the game to search.
    fn position(&mut self, p: PositionCommand) {
        self.p1 = p.p1();
        self.game = p.game;
    }

    /// Starts `job` as the running one: on the session's search thread,
    /// or, in a cooperative session, its first slice now and the rest
    /// from [`Session::resume`].
    fn start(&mut self, mut job: Job) {
        let orders = job.orders().clone();
        if !self.threads {
            self.running = Some(Running {
                orders,
                driver: Driver::Slices(Box::new(job)),
            });
            self.resume();
            return;
        }
        let (done_tx, done) = mpsc::channel::<()>();
        self.search_thread.run(Box::new(move || {
            loop {
                match job.step(None) {
                    Progress::Runs => {}
                    Progress::Holds => std::thread::sleep(std::time::Duration::from_millis(1)),
                    Progress::Ended => break,
                }
            }
            // The search is dropped (the engine idle) before the session
            // hears that the job is done.
            drop(job);
            drop(done_tx);
        }));
        self.running = Some(Running {
            orders,
            driver: Driver::Thread(done),
        });
    }

    fn setoption(&mut self, o: &SetOption) {
        if let Err(e) = self.engine.set_option(&o.name, &o.value) {
            self.error(&e.to_string());
        }
    }

    fn query(&mut self, q: Query) {
        let pos = *self.game.position();
        let answer = match q {
            Query::P1Turn => (pos.side_to_move() == self.p1 && !pos.is_game_over()).to_string(),
            Query::GameOver => pos.is_game_over().to_string(),
            Query::Result => match pos.winner() {
                None => "none".into(),
                Some(w) if w == self.p1 => "p1win".into(),
                Some(_) => "p2win".into(),
            },
            Query::Turn => pos.side_to_move().letter().to_string(),
            Query::Winner => pos
                .winner()
                .map_or("none".into(), |w| w.letter().to_string()),
            Query::Steps => pos.steps_left().to_string(),
            Query::Legal => steps_text(&pos.legal_step_vec()),
            Query::Spn | Query::Fen => pos.to_spn(),
        };
        self.say(words::Response(answer));
    }

    fn perft(&mut self, depth: u32) {
        // Deep perft runs for hours: it runs like a search, on its own
        // thread (a cooperative session's in slices), and `stop` ends it.
        let pos = *self.game.position();
        self.start(Job::perft(&pos, depth, self.out.clone()));
    }

    /// The rest of the planned turn, if the current position continues it.
    fn planned_rest(&self) -> Option<Vec<Step>> {
        let plan = self.plan.lock().ok()?.clone()?;
        let now = *self.game.position();
        let mut p = plan.root;
        for k in 0..plan.turn.len() {
            if p == now && k > 0 {
                return Some(plan.turn[k..].to_vec());
            }
            p = p.after(plan.turn[k]);
        }
        None
    }

    fn go(&mut self, go: &splut_protocol::command::Go) {
        let pos = *self.game.position();
        let limits: Limits = match commands::limits(go, self.p1, pos.side_to_move()) {
            Ok(l) => l,
            Err(e) => {
                self.error(&e.to_string());
                return;
            }
        };
        if let Some(rest) = self
            .planned_rest()
            .filter(|_| !limits.infinite && !limits.ponder && !pos.is_game_over())
        {
            let planned = InfoString::new("continuing the planned turn");
            self.out.line(&planned.to_string());
            for line in best_lines(&rest) {
                self.out.line(&line);
            }
            return;
        }
        if let Err(e) = self.engine.ready() {
            self.error(&format!("go: {e}"));
        }
        let search = match self.engine.prepare(&self.game, &limits) {
            Ok(s) => s,
            Err(e @ GoError::GameOver { .. }) => {
                self.error(&e.to_string());
                for line in best_lines(&[]) {
                    self.out.line(&line);
                }
                return;
            }
            Err(e) => {
                self.error(&e.to_string());
                return;
            }
        };
        let show_win_prob = self.engine.options().check(Id::ShowWinProb);
        let (out, plan) = (self.out.clone(), self.plan.clone());
        self.start(Job::search(
            search,
            limits.infinite,
            show_win_prob,
            out,
            plan,
        ));
    }

    /// Ends the session at the end of input: a running search gets at most
    /// [`END_OF_INPUT_GRACE`] more (an infinite one none) and prints its
    /// result.
    pub fn shutdown(&mut self) {
        self.finish();
    }

    /// `quit` in a host that runs the session itself: the job running is
    /// stopped at once (not given the end of input's grace) and reaped.
    pub fn quit_now(&mut self) {
        self.stop();
        self.reap();
    }
}

/// How long a search may go on after the end of input: a GUI that died
/// must not leave an engine burning a core, and `echo "go depth 8" | splut`
/// should still print its answer.
pub const END_OF_INPUT_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the protocol on `input` until `quit` (returns [`Flow::Quit`] at
/// once, a search may still be running) or the end of input (a running
/// search gets at most [`END_OF_INPUT_GRACE`], an infinite one is stopped;
/// returns [`Flow::Continue`]).
pub fn run(mut reader: impl BufRead, out: Output) -> Flow {
    let mut engine = Session::new(out);
    let mut bytes = Vec::new();
    loop {
        // Bytes that are not UTF-8 become U+FFFD and fail as unknown words.
        let line = match input::read_line(&mut reader, &mut bytes) {
            input::Line::End => break,
            input::Line::TooLong { bytes } => {
                engine.too_long(bytes);
                continue;
            }
            input::Line::Text(t) => t,
        };
        if engine.handle(&line) == Flow::Quit {
            return Flow::Quit;
        }
    }
    engine.shutdown();
    Flow::Continue
}
