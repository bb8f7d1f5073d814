//! One engine run: random actions, each followed by `query spn` and
//! `isready`, and the checks of what comes back.
//!
//! Every single action is sent as `<line>\nquery spn\nisready\n`: the
//! `readyok` that follows the answer to `query spn` closes the action's
//! window, whose errors, responses and `readyok`s are counted exactly, and
//! `query spn` gives the state after it. Jobs (searches and perfts) run on
//! the engine's own thread: their output (`info`, `bestturn`, `bestmove`;
//! perft rows and `nodes`) may arrive in any window. A job is only started
//! once the previous one printed its result (until then `go` and `perft`
//! are refused), so results are matched to the `go`s and `perft`s that
//! started them first-in first-out.

use super::check;
use super::driver::{Driver, escape};
use super::make::{self, Action, Expect, Kind, OptionDecl, Read};
use super::rng::Rng;
use super::twin::{self, Twin};
use splut_engine::protocol::SLICE;
use splut_rules::{Position, Seat, perft};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Counters over a whole run.
#[derive(Default, Debug, Clone)]
pub struct Stats {
    /// Fuzz actions (one line, or a burst of lines).
    pub actions: u64,
    /// Lines sent, the `query spn`/`isready` after each action included.
    pub lines: u64,
    /// Engine processes started.
    pub sessions: u64,
    /// Searches started (`go` not refused).
    pub searches: u64,
    /// Perfts started (`perft` not refused).
    pub perfts: u64,
    /// `bestmove` lines checked.
    pub bestmoves: u64,
    /// `info string error` lines received.
    pub errors: u64,
    /// Actions whose answers were compared with the native twin's
    /// (WebAssembly mode).
    pub compared: u64,
    /// Jobs (searches limited by depth or nodes, perfts) whose every line
    /// was compared with the native twin's (WebAssembly mode).
    pub jobs_compared: u64,
    /// Searches started under an MCTS algorithm, a skill level or a
    /// limited strength ([`make::Varied`]).
    pub varied_searches: u64,
    /// Perfts deeper than the fuzzer waits for, so ended by `stop` unless
    /// they counted to the end first.
    pub deep_perfts: u64,
    /// Sessions whose input ended while a job ran.
    pub eof_jobs: u64,
}

/// A broken invariant.
#[derive(Debug, Clone)]
pub struct Failure {
    /// A short class name, for grouping the same bug.
    pub kind: String,
    /// What happened.
    pub detail: String,
}

fn fail<T>(kind: impl Into<String>, detail: impl Into<String>) -> Result<T, Failure> {
    Err(Failure {
        kind: kind.into(),
        detail: detail.into(),
    })
}

/// What a job is.
enum Job {
    /// `go`; `infinite`: no answer before `stop`.
    Search { infinite: bool },
    /// `perft`, its depth if known, and the rows so far.
    Perft {
        depth: Option<u32>,
        rows: Vec<String>,
    },
}

/// A job the engine owes a result for.
struct Pending {
    /// The line that started it, escaped.
    line: String,
    job: Job,
    /// The position it runs on.
    root: String,
    /// Must end by then (after its limit, a `stop` or the end of input).
    deadline: Option<Instant>,
    /// What the deadline is, for the report.
    why: &'static str,
    /// A `stop` was sent since (or the input ended).
    stopped: bool,
    /// Its window has not closed yet: it may still be refused.
    tentative: bool,
    /// Action number that sent it.
    action: u64,
    /// When the fuzzer stops it if it has no deadline.
    stop_at: Instant,
    /// Its lines must be the native twin's, time aside: a search limited
    /// by depth or nodes on the same table as the twin's, with no option
    /// set that varies searches ([`make::Varied`]). (A perft's are
    /// compared whenever it counts to the end on both.)
    comparable: bool,
    /// When its line was sent.
    sent: Instant,
}

impl Pending {
    fn is_search(&self) -> bool {
        matches!(self.job, Job::Search { .. })
    }

    fn is_perft(&self) -> bool {
        matches!(self.job, Job::Perft { .. })
    }

    fn is_infinite(&self) -> bool {
        matches!(self.job, Job::Search { infinite: true })
    }

    fn limit(&mut self, d: Instant, why: &'static str) {
        if self.deadline.is_none_or(|x| x > d) {
            self.deadline = Some(d);
            self.why = why;
        }
    }
}

/// Output of jobs a burst may have started, which nobody tracks.
struct Burst {
    /// Positions they may have run on.
    roots: Vec<String>,
    /// The depth of the burst's `perft` lines.
    perft_depth: u32,
    /// Perft rows so far.
    rows: Vec<String>,
}

/// What one action's window collected.
#[derive(Default)]
struct Window {
    errors: Vec<String>,
    responses: Vec<String>,
    readyoks: usize,
    /// A `readyok` came after a `response`.
    closed_after_response: bool,
    other: Vec<String>,
    /// Job results (`bestmove`, perft `nodes` or "stopped").
    ends: usize,
    /// Every line that is not a job's (`twin::is_job_line`), in order.
    answers: Vec<String>,
}

/// What reading one line gave.
enum Pumped {
    Line,
    Timeout,
    Closed,
}

/// One engine process under test.
pub struct Session<'a> {
    cfg: &'a super::config::Config,
    rng: Rng,
    /// The engine.
    pub driver: Driver,
    decls: Vec<OptionDecl>,
    spn: String,
    /// The referee's p1, while the fuzzer knows it.
    p1: Option<Seat>,
    pending: VecDeque<Pending>,
    bestturn: Option<String>,
    burst: Option<Burst>,
    window: Window,
    action: u64,
    stats: &'a mut Stats,
    /// Failures that leave the engine usable, the first of each kind in
    /// this session, with the transcript up to them; the session goes on.
    pub soft: Vec<(Failure, String)>,
    /// WebAssembly mode: the native engine, given the same bytes.
    twin: Option<Twin>,
    /// The lines of the job running now.
    job_lines: Vec<String>,
    /// Jobs ended and not yet compared with the twin's.
    jobs: VecDeque<Ended>,
    /// Jobs ended in all.
    ended: u64,
    /// A search since the last `uginewgame` was not the same on both
    /// engines (timed, stopped, infinite), so their tables, plans and
    /// histories differ: searches are not compared line for line.
    tainted: bool,
    /// The options set that make searches differ between hosts (MCTS,
    /// skill levels): searches are not compared line for line.
    varied: make::Varied,
}

/// A job ended on the engine under test, to compare with the twin's.
struct Ended {
    /// A search whose lines must be the twin's, time aside (a perft's
    /// are compared whenever both counted to the end).
    same: bool,
    /// A `stop` or the end of input came while it ran: a perft may have
    /// counted to the end on one engine and stopped on the other.
    stopped: bool,
    /// The line that started it.
    go: String,
    /// Its lines.
    lines: Vec<String>,
}

const READY_MS: u64 = 2000;
const STOP_MS: u64 = 1000;
const QUIT_MS: u64 = 2000;
/// How long a search may go on after the end of input (`protocol.md`).
const END_GRACE: Duration = Duration::from_secs(5);
/// Perfts up to this depth must end on their own, within [`PERFT_MS`].
const PERFT_BOUNDED: u32 = 5;
const PERFT_MS: u64 = 10_000;

impl<'a> Session<'a> {
    /// Starts an engine and does the `ugi` handshake.
    pub fn start(
        cfg: &'a super::config::Config,
        seed: u64,
        stats: &'a mut Stats,
    ) -> Result<Session<'a>, Box<(Driver, Failure)>> {
        stats.sessions += 1;
        let (driver, twin) = match &cfg.wasm {
            Some(script) => (Driver::spawn_node(script), Some(Twin::spawn())),
            None => (Driver::spawn(), None),
        };
        let mut s = Session {
            cfg,
            rng: Rng::new(seed),
            driver,
            decls: Vec::new(),
            spn: String::new(),
            p1: Some(Seat::Red),
            pending: VecDeque::new(),
            bestturn: None,
            burst: None,
            window: Window::default(),
            action: 0,
            stats,
            soft: Vec::new(),
            twin,
            job_lines: Vec::new(),
            jobs: VecDeque::new(),
            ended: 0,
            tainted: false,
            varied: make::Varied::default(),
        };
        match s.handshake() {
            Ok(()) => Ok(s),
            Err(f) => Err(Box::new((s.into_driver(), f))),
        }
    }

    /// Gives the driver back (for the report), ending the session.
    pub fn into_driver(self) -> Driver {
        self.driver
    }

    /// The end of the native twin's transcript, in WebAssembly mode.
    pub fn twin_tail(&self) -> Option<String> {
        self.twin.as_ref().map(|t| t.tail(60))
    }

    fn handshake(&mut self) -> Result<(), Failure> {
        self.send(b"ugi\nquery spn\nisready\n");
        // A cold start allocates the default table: more time than usual.
        let w = self.window(Some((1, 1)), self.cfg.margin(5 * READY_MS))?;
        self.twin_check(&w, b"ugi")?;
        if !w.other.iter().any(|l| l == "ugiok") {
            return fail(
                "ugi-no-ugiok",
                format!("'ugi' answered without 'ugiok': {:?}", w.other),
            );
        }
        for l in w.other.iter().filter(|l| l.starts_with("option ")) {
            match make::parse_option(l) {
                Some(d) => self.decls.push(d),
                None => return fail("ugi-bad-option-line", format!("cannot parse '{l}'")),
            }
        }
        self.take_spn(&w)?;
        Ok(())
    }

    /// Records a failure that leaves the engine usable and goes on.
    fn soft(&mut self, r: Result<(), Failure>) -> Result<(), Failure> {
        if let Err(f) = r
            && !self.soft.iter().any(|(g, _)| g.kind == f.kind)
        {
            let t: Vec<&str> = self.driver.transcript.iter().map(String::as_str).collect();
            self.soft.push((f, t.join("\n")));
        }
        Ok(())
    }

    fn send(&mut self, bytes: &[u8]) {
        self.driver.send(bytes);
        if let Some(t) = &mut self.twin {
            t.driver.send(bytes);
        }
    }

    // ----- the native twin (WebAssembly mode) -----

    /// Waits until the twin has ended as many jobs as the engine under
    /// test, so that both read the next line equally idle (a native search
    /// runs on its own thread, the WebAssembly engine's in slices between
    /// the lines it reads).
    fn twin_settle(&mut self) -> Result<(), Failure> {
        let ended = self.ended;
        let timeout = self.cfg.margin(PERFT_MS + STOP_MS);
        let Some(t) = &mut self.twin else {
            return Ok(());
        };
        if t.settle(ended, timeout) {
            return Ok(());
        }
        fail(
            "wasm-differs-jobs",
            format!(
                "the WebAssembly engine ended {ended} jobs, the native engine {}; native:\n{}",
                t.ended,
                t.tail(40)
            ),
        )
    }

    /// Compares the twin's answers to the bytes sent since the last window
    /// with this window's, line for line, and the jobs both have ended.
    fn twin_check(&mut self, w: &Window, line: &[u8]) -> Result<(), Failure> {
        let Some(t) = &mut self.twin else {
            return Ok(());
        };
        let what = make::command(line)
            .filter(|c| make::COMMANDS.contains(&c.as_str()))
            .unwrap_or_else(|| "other".into());
        let shown = escape(line, 120);
        let timeout = self.cfg.margin(READY_MS + PERFT_MS);
        let answers = match t.window(w.readyoks, timeout) {
            Ok(a) => a,
            Err(a) => {
                return fail(
                    format!("wasm-differs-{what}"),
                    format!(
                        "after '{shown}' the WebAssembly engine answered [{}], the native engine [{}] and no more in {} ms; native:\n{}",
                        twin::show(&w.answers, 12),
                        twin::show(&a, 12),
                        timeout.as_millis(),
                        t.tail(40)
                    ),
                );
            }
        };
        self.stats.compared += 1;
        let same = |a: &[String], b: &[String]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x == y || twin::comparable(x) == twin::comparable(y))
        };
        if !same(&answers, &w.answers) {
            return fail(
                format!("wasm-differs-{what}"),
                format!(
                    "after '{shown}' the WebAssembly engine answered [{}], the native engine [{}]; native:\n{}",
                    twin::show(&w.answers, 12),
                    twin::show(&answers, 12),
                    t.tail(40)
                ),
            );
        }
        while !self.jobs.is_empty() && !t.jobs.is_empty() {
            let Ended {
                same,
                stopped,
                go,
                lines: mine,
            } = self.jobs.pop_front().expect("not empty");
            let theirs = t.jobs.pop_front().expect("not empty");
            let last = |l: &[String]| {
                l.last()
                    .and_then(|x| x.split(' ').next())
                    .unwrap_or("")
                    .to_string()
            };
            let perft_end = |w: &str| w == "nodes" || w == "info";
            if last(&mine) != last(&theirs) {
                if stopped && perft_end(&last(&mine)) && perft_end(&last(&theirs)) {
                    // A perft the `stop` (or the end of input) caught on
                    // one engine and not on the other: a race.
                    continue;
                }
                return fail(
                    "wasm-differs-job-kind",
                    format!(
                        "a job ('{go}') ended with [{}] on the WebAssembly engine, [{}] natively",
                        twin::show(&mine, 4),
                        twin::show(&theirs, 4)
                    ),
                );
            }
            // A perft is compared whenever both counted to the end.
            let perft_done = last(&mine) == "nodes";
            if !same && !perft_done {
                continue;
            }
            let a: Vec<String> = mine.iter().map(|l| twin::timeless(l)).collect();
            let b: Vec<String> = theirs.iter().map(|l| twin::timeless(l)).collect();
            if a != b {
                let kind = if last(&mine) == "bestmove" {
                    "wasm-differs-search"
                } else {
                    "wasm-differs-perft"
                };
                let at = a
                    .iter()
                    .zip(&b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len()));
                return fail(
                    kind,
                    format!(
                        "'{go}': line {at} differs (time aside): WebAssembly [{}], native [{}]",
                        twin::show(&a[at.min(a.len())..], 6),
                        twin::show(&b[at.min(b.len())..], 6)
                    ),
                );
            }
            self.stats.jobs_compared += 1;
        }
        Ok(())
    }

    /// A job ended: its lines are kept for the twin, and the tables
    /// differ from now on unless it was a search the same on both.
    fn job_ended(&mut self, same: bool, stopped: bool, search: bool, go: &str) {
        self.ended += 1;
        if search && !same {
            self.tainted = true;
        }
        let lines = std::mem::take(&mut self.job_lines);
        if self.twin.is_some() {
            self.jobs.push_back(Ended {
                same: same && search,
                stopped,
                go: go.to_string(),
                lines,
            });
        }
    }

    fn model(&self) -> Result<Position, Failure> {
        Position::from_written_spn(&self.spn).or_else(|e| {
            fail(
                "spn-unparseable",
                format!(
                    "'query spn' answered '{}', which the rules library refuses: {e}",
                    self.spn
                ),
            )
        })
    }

    fn take_spn(&mut self, w: &Window) -> Result<(), Failure> {
        let Some(spn) = w.responses.last() else {
            return fail("query-spn-unanswered", "no 'response' to 'query spn'");
        };
        self.spn = spn.clone();
        self.model().map(|_| ())
    }

    // ----- reading -----

    /// Why the engine is gone: exit status and the end of stderr.
    fn death(&mut self) -> Failure {
        let status = self.driver.wait_exit(Duration::from_millis(500));
        let stderr = self.driver.stderr_tail();
        let place = stderr
            .lines()
            .find_map(|l| l.split("panicked at ").nth(1))
            .map(|p| p.trim_end_matches(':').to_string());
        let kind = match &place {
            Some(p) => format!("engine-panicked at {p}"),
            None => "engine-died".to_string(),
        };
        let tail: String = stderr
            .lines()
            .rev()
            .take(15)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n");
        Failure {
            kind,
            detail: format!(
                "the engine exited before 'quit' (status {status:?}); stderr ends:\n{tail}"
            ),
        }
    }

    /// Reads and handles one line, unless `until` passes first or the
    /// output ends. Fails when a job is past its deadline.
    fn pump_raw(&mut self, until: Instant) -> Result<Pumped, Failure> {
        loop {
            let now = Instant::now();
            if self
                .pending
                .iter()
                .any(|p| p.deadline.is_some_and(|d| now > d))
            {
                // The result may be waiting in the pipe while the fuzzer
                // was busy: take what has arrived before judging.
                match self.driver.recv(Duration::from_millis(20)) {
                    Ok(Some(line)) => {
                        self.on_line(line)?;
                        return Ok(Pumped::Line);
                    }
                    Ok(None) => {}
                    Err(()) => return Ok(Pumped::Closed),
                }
            }
            if let Some(p) = self
                .pending
                .iter()
                .find(|p| p.deadline.is_some_and(|d| now > d))
            {
                let kind = match (p.stopped, p.is_search()) {
                    (true, _) => "stop-not-obeyed",
                    (false, true) => "search-overran",
                    (false, false) => "perft-overran",
                };
                return fail(
                    kind,
                    format!("no result for '{}' by its deadline ({})", p.line, p.why),
                );
            }
            let now = Instant::now();
            if now >= until {
                return Ok(Pumped::Timeout);
            }
            let wake = self
                .pending
                .iter()
                .filter_map(|p| p.deadline)
                .fold(until, Instant::min)
                .max(now + Duration::from_millis(1));
            match self.driver.recv(wake - now) {
                Ok(Some(line)) => {
                    self.on_line(line)?;
                    return Ok(Pumped::Line);
                }
                Ok(None) => {}
                Err(()) => return Ok(Pumped::Closed),
            }
        }
    }

    /// [`Self::pump_raw`] while the engine must stay up: `Ok(false)` if
    /// `until` passed first.
    fn pump(&mut self, until: Instant) -> Result<bool, Failure> {
        match self.pump_raw(until)? {
            Pumped::Line => Ok(true),
            Pumped::Timeout => Ok(false),
            Pumped::Closed => Err(self.death()),
        }
    }

    fn on_line(&mut self, raw: Vec<u8>) -> Result<(), Failure> {
        let Ok(text) = String::from_utf8(raw.clone()) else {
            return fail(
                "output-not-utf8",
                format!("line is not UTF-8: {}", escape(&raw, 200)),
            );
        };
        if twin::is_job_line(&text) {
            self.job_lines.push(text.clone());
        } else {
            self.window.answers.push(text.clone());
        }
        if text.starts_with("info string error") {
            self.stats.errors += 1;
            if let Some((kind, detail)) = check::error_line_problem(&text) {
                self.soft(fail(kind, detail))?;
            }
            self.window.errors.push(text);
            return Ok(());
        }
        if let Some(c) = check::unsafe_in(&text) {
            self.soft(fail(
                "output-control-char",
                format!("raw U+{:04X} in: {}", c as u32, escape(&raw, 300)),
            ))?;
        }
        if text == "readyok" {
            self.window.readyoks += 1;
            if !self.window.responses.is_empty() {
                self.window.closed_after_response = true;
            }
        } else if let Some(r) = text.strip_prefix("response") {
            self.window
                .responses
                .push(r.strip_prefix(' ').unwrap_or(r).to_string());
        } else if text.starts_with("bestturn") {
            if let Some(prev) = self.bestturn.replace(text.clone()) {
                return fail(
                    "bestturn-twice",
                    format!("'{prev}' then '{text}' with no bestmove between"),
                );
            }
        } else if text.starts_with("bestmove") {
            self.on_bestmove(&text)?;
        } else if text == "info string perft stopped; no count" {
            self.on_perft_end(None, &text)?;
        } else if let Some(n) = text
            .strip_prefix("nodes ")
            .and_then(|n| n.parse::<u64>().ok())
        {
            self.on_perft_end(Some(n), &text)?;
        } else if text.starts_with("info ") {
            if !self.pending.iter().any(Pending::is_search)
                && self.burst.is_none()
                && !text.starts_with("info string")
            {
                // A search nobody knew of: it ends on `stop`.
                self.pending.push_back(Pending {
                    line: "(a line that started a search unexpectedly)".into(),
                    job: Job::Search { infinite: false },
                    root: self.spn.clone(),
                    deadline: None,
                    why: "",
                    stopped: false,
                    tentative: false,
                    action: self.action,
                    stop_at: Instant::now(),
                    comparable: false,
                    sent: Instant::now(),
                });
            }
        } else if twin::is_perft_row(&text)
            && let Some(rows) = self.perft_rows()
        {
            rows.push(text);
        } else {
            self.window.other.push(text);
        }
        Ok(())
    }

    /// Where the next perft row goes: the oldest perft running, or a
    /// burst's.
    fn perft_rows(&mut self) -> Option<&mut Vec<String>> {
        if let Some(p) = self.pending.iter_mut().find(|p| p.is_perft()) {
            return match &mut p.job {
                Job::Perft { rows, .. } => Some(rows),
                Job::Search { .. } => None,
            };
        }
        self.burst.as_mut().map(|b| &mut b.rows)
    }

    fn on_perft_end(&mut self, total: Option<u64>, text: &str) -> Result<(), Failure> {
        self.window.ends += 1;
        if let Some(i) = self.pending.iter().position(Pending::is_perft) {
            let p = self.pending.remove(i).expect("index from position");
            self.job_ended(false, p.stopped, false, &p.line);
            if let Some(d) = p.deadline
                && self.driver.arrived > d
            {
                return fail(
                    if p.stopped {
                        "stop-not-obeyed"
                    } else {
                        "perft-overran"
                    },
                    format!(
                        "'{text}' for '{}' came after its deadline ({})",
                        p.line, p.why
                    ),
                );
            }
            let Job::Perft { depth, rows } = p.job else {
                unreachable!("found as a perft")
            };
            let verdict = match (total, depth) {
                (None, _) if p.stopped => Ok(()),
                (None, _) => fail(
                    "perft-stopped-without-stop",
                    format!("'{}' answered '{text}' with no stop sent", p.line),
                ),
                (Some(n), Some(d)) if d <= check::PERFT_CHECKED => {
                    let pos = Position::from_written_spn(&p.root)
                        .or_else(|e| fail("spn-unparseable", format!("{}: {e}", p.root)))?;
                    check::perft_answer(&pos, d, &rows, n)
                        .or_else(|e| fail("perft-wrong", format!("'{}': {e}", p.line)))
                }
                _ => Ok(()),
            };
            return self.soft(verdict);
        }
        self.job_ended(false, true, false, "(a perft nobody started)");
        if let Some(b) = &mut self.burst {
            let (depth, roots) = (b.perft_depth, b.roots.clone());
            b.rows.clear();
            if let Some(n) = total {
                let counts: Vec<u64> = roots
                    .iter()
                    .filter_map(|r| Position::from_written_spn(r).ok())
                    .map(|p| perft(&p, depth))
                    .collect();
                if !counts.contains(&n) {
                    return self.soft(fail(
                        "perft-wrong",
                        format!(
                            "'{text}' for a 'perft {depth}' in a burst; the rules give {counts:?} for its positions {roots:?}"
                        ),
                    ));
                }
            }
            return Ok(());
        }
        self.soft(fail(
            "unsolicited-perft-output",
            format!("'{text}' with no perft running"),
        ))
    }

    fn on_bestmove(&mut self, text: &str) -> Result<(), Failure> {
        self.window.ends += 1;
        self.stats.bestmoves += 1;
        let Some(turn_line) = self.bestturn.take() else {
            return fail(
                "bestmove-without-bestturn",
                format!("'{text}' with no bestturn before it"),
            );
        };
        let turn: Vec<&str> = turn_line["bestturn".len()..].split_whitespace().collect();
        let best = text["bestmove".len()..].trim();
        let (go, roots, infinite_early) = match self.pending.iter().position(Pending::is_search) {
            Some(i) => {
                let p = self.pending.remove(i).expect("index from position");
                if let Some(d) = p.deadline
                    && self.driver.arrived > d
                {
                    return fail(
                        if p.stopped {
                            "stop-not-obeyed"
                        } else {
                            "search-overran"
                        },
                        format!(
                            "bestmove for '{}' came after its deadline ({})",
                            p.line, p.why
                        ),
                    );
                }
                let early = p.is_infinite() && !p.stopped;
                // The WebAssembly engine's search that outgrew its first
                // slice went on in the next from where it paused, but its
                // node counts (and so its lines and table) are not the
                // native ones.
                let sliced = self.twin.is_some()
                    && self.driver.arrived.saturating_duration_since(p.sent) >= SLICE;
                self.job_ended(
                    p.comparable && !p.stopped && !sliced,
                    p.stopped,
                    true,
                    &p.line,
                );
                (p.line, vec![p.root], early)
            }
            None => match &self.burst {
                Some(b) => {
                    let roots = b.roots.clone();
                    self.job_ended(false, true, true, "(a go in a burst)");
                    ("(a go in a burst)".to_string(), roots, false)
                }
                None => {
                    self.job_ended(false, false, true, "(no go)");
                    return fail(
                        "unsolicited-bestmove",
                        format!("'{text}' with no search running"),
                    );
                }
            },
        };
        let verdict = judge(&go, &roots, infinite_early, &turn, best, text);
        self.soft(verdict)
    }

    /// Reads until the window closes: `count` = (readyoks, responses) the
    /// sent lines must produce, or `None` for "the first readyok after a
    /// response" (the line sent may itself be an `isready` or a `query`).
    fn window(
        &mut self,
        count: Option<(usize, usize)>,
        timeout: Duration,
    ) -> Result<Window, Failure> {
        self.window = Window::default();
        let until = Instant::now() + timeout;
        loop {
            let done = match count {
                Some((r, q)) => self.window.readyoks >= r && self.window.responses.len() >= q,
                None => self.window.closed_after_response,
            };
            if done {
                break;
            }
            if !self.pump(until)? {
                let kind = if self.window.readyoks == 0 {
                    "isready-timeout"
                } else {
                    "query-spn-unanswered"
                };
                return fail(
                    kind,
                    format!(
                        "no readyok within {} ms ({} readyok, {} responses so far)",
                        timeout.as_millis(),
                        self.window.readyoks,
                        self.window.responses.len()
                    ),
                );
            }
        }
        Ok(std::mem::take(&mut self.window))
    }

    // ----- acting -----

    /// Runs actions until `n` are done or `until` passes, then ends the
    /// engine and checks it exits.
    pub fn run(&mut self, n: usize, until: Instant) -> Result<(), Failure> {
        for _ in 0..n {
            if Instant::now() >= until {
                break;
            }
            self.step()?;
        }
        self.finish(until)
    }

    fn stop_action() -> Action {
        Action {
            line: b"stop".to_vec(),
            kind: Kind::Stop,
            expect: Expect::Ok,
            mutated: false,
        }
    }

    fn step(&mut self) -> Result<(), Failure> {
        self.action += 1;
        self.stats.actions += 1;
        let now = Instant::now();
        if self
            .pending
            .iter()
            .any(|p| p.deadline.is_none() && !p.stopped && now >= p.stop_at)
        {
            return self.single(Self::stop_action());
        }
        let cfg = self.cfg;
        if self.action == 1 && self.rng.chance(30) {
            // Now and then a session that searches the other ways from
            // its start (a random `setoption` reaches them rarely).
            let action = make::search_style(&mut self.rng);
            return self.single(action);
        }
        let rng = &mut self.rng;
        let action = match rng.weighted(&[14, 14, 10, 6, 3, 10, 7, 4, 18, 6, 2]) {
            0 => make::go(rng, cfg, false),
            1 => {
                let (line, result) = make::position(rng);
                match result {
                    Some((spn, p1)) => Action {
                        line: line.into_bytes(),
                        kind: Kind::Position(spn, p1),
                        expect: Expect::Ok,
                        mutated: false,
                    },
                    None => Action {
                        line: line.into_bytes(),
                        kind: Kind::Other,
                        expect: Expect::Err,
                        mutated: false,
                    },
                }
            }
            2 => make::query(rng),
            3 => make::perft(rng, cfg),
            4 => make::simple(rng),
            5 => make::setoption(rng, cfg, &self.decls),
            6 => make::simple(rng),
            7 => return self.wait_jobs(),
            8 => {
                let base = match rng.below(6) {
                    0 => make::go(rng, cfg, false).line,
                    1 => make::position(rng).0.into_bytes(),
                    2 => make::setoption(rng, cfg, &self.decls).line,
                    3 => make::query(rng).line,
                    4 => make::perft(rng, cfg).line,
                    _ => make::simple(rng).line,
                };
                Action {
                    line: make::mutate(rng, &base),
                    kind: Kind::Other,
                    expect: Expect::Any,
                    mutated: true,
                }
            }
            9 => Action {
                line: make::garbage(rng),
                kind: Kind::Other,
                expect: Expect::Any,
                mutated: true,
            },
            _ if self.twin.is_some() => return self.burst_wasm(),
            _ => return self.burst(),
        };
        if self.twin.is_some()
            && self.tainted
            && make::fixed_search(&action.line)
            && self.rng.chance(75)
        {
            // A new game first, so that the search is compared line for
            // line with the native engine's.
            self.single(Action {
                line: b"uginewgame".to_vec(),
                kind: Kind::Other,
                expect: Expect::Ok,
                mutated: false,
            })?;
        }
        self.single(action)
    }

    /// Sends one action, with `query spn` and `isready` behind it, and
    /// checks what comes back: the job it may start, the number of each
    /// kind of answer line, the state, and the rules' predictions.
    fn single(&mut self, a: Action) -> Result<(), Failure> {
        let mut a = self.sanitize(a);
        let cmd = make::command(&a.line);
        let needs_idle = cmd
            .as_deref()
            .is_some_and(|c| make::NEEDS_IDLE.contains(&c));
        if self.twin.is_some() {
            self.twin_before(&a.line)?;
        }
        let pos = self.model()?;
        if let Kind::Go(_) = a.kind {
            let words = make::words(&a.line).unwrap_or_default();
            let args: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
            let two = pos.players_left() == 2 && self.p1.is_some_and(|p| pos.in_game(p));
            a.expect = check::go_expect(&args, pos.side_to_move(), self.p1, two);
        }
        // An infinite search that was not stopped is running for sure:
        // whatever needs an idle engine must be refused.
        let surely_busy = self.pending.iter().any(|p| p.is_infinite() && !p.stopped);
        if surely_busy && needs_idle {
            a.expect = Expect::Err;
        }
        let before = self.spn.clone();
        let busy_before = !self.pending.is_empty();
        let now = Instant::now();
        // Whether the line may start a job: conservative, so that a deep
        // perft or a search the engine did start is tracked and stopped.
        let maybe_go = matches!(a.kind, Kind::Go(_)) || make::maybe_command(&a.line, "go");
        let maybe_perft = matches!(a.kind, Kind::Perft(_)) || make::maybe_command(&a.line, "perft");
        if maybe_go || maybe_perft {
            self.track_job(&a, cmd.as_deref(), maybe_go, now);
        }
        if matches!(a.kind, Kind::Stop) {
            let d = now + self.cfg.margin(STOP_MS);
            for p in &mut self.pending {
                p.stopped = true;
                p.limit(d, "1 s after stop");
            }
        }
        let w = self.exchange(&a.line)?;
        let refused = !w.errors.is_empty();
        self.settle_job(&a.line, refused, maybe_go || maybe_perft, cmd.as_deref());
        if !refused && (make::bare(&a.line, "uginewgame") || make::bare(&a.line, "ucinewgame")) {
            // A new table, no plan: searches are the same again.
            self.tainted = false;
        }
        if !refused {
            self.varied = self.varied.after(&a.line);
        }
        self.check_counts(&a.line, &w)?;
        self.take_spn(&w)?;
        let verdict = self.check_answer(&a, &w, &before, busy_before, needs_idle, surely_busy);
        self.soft(verdict)?;
        if !refused {
            match &a.kind {
                Kind::Position(_, p1) => self.p1 = Some(*p1),
                // A mutated `position` was taken: its start is unknown.
                _ if make::maybe_command(&a.line, "position") => self.p1 = None,
                _ => {}
            }
        }
        Ok(())
    }

    /// The action as sent: `isready` in place of a line unsafe to send,
    /// and for a mutated line what protocol.md makes certain about it.
    fn sanitize(&self, mut a: Action) -> Action {
        if make::is_unsafe(&a.line, self.cfg) {
            a = Action {
                line: b"isready".to_vec(),
                kind: Kind::Other,
                expect: Expect::Ok,
                mutated: false,
            };
        }
        if a.mutated {
            // What protocol.md makes certain about any line.
            a.expect = make::spec_expect(&a.line);
            a.kind = make::spec_kind(&a.line);
        }
        a
    }

    /// Before a line to both engines: whether a timed search has ended
    /// when the next `go` or `position` comes is a race the two engines
    /// need not run alike, so such lines wait for it (an infinite one
    /// runs on both until `stop`, so they are refused on both); then the
    /// two are settled.
    fn twin_before(&mut self, line: &[u8]) -> Result<(), Failure> {
        let may_need_idle = make::NEEDS_IDLE
            .iter()
            .any(|c| make::maybe_command(line, c));
        if may_need_idle && self.pending.iter().any(|p| !p.is_infinite()) {
            self.wait_jobs()?;
        }
        self.twin_settle()
    }

    /// Tracks the job (search or perft) that the line may start, until
    /// its answer says whether it did; draws when to stop it.
    fn track_job(&mut self, a: &Action, cmd: Option<&str>, maybe_go: bool, now: Instant) {
        let is_perft = match cmd {
            Some("perft") => true,
            Some("go") => false,
            _ => !maybe_go,
        };
        let (job, bound) = if is_perft {
            let depth = match a.kind {
                Kind::Perft(d) => Some(d),
                _ => None,
            };
            let bounded = if self.twin.is_some() {
                make::WASM_PERFT_BOUNDED
            } else {
                PERFT_BOUNDED
            };
            let bound = depth
                .filter(|&d| d <= bounded)
                .map(|_| self.cfg.margin(PERFT_MS));
            (
                Job::Perft {
                    depth,
                    rows: Vec::new(),
                },
                bound,
            )
        } else {
            match &a.kind {
                Kind::Go(spec) => (
                    Job::Search {
                        infinite: spec.infinite,
                    },
                    spec.bound,
                ),
                _ => (Job::Search { infinite: false }, None),
            }
        };
        let stop_at = now + Duration::from_millis(self.rng.range(0, 600));
        let comparable =
            !is_perft && make::fixed_search(&a.line) && !self.tainted && !self.varied.any();
        self.pending.push_back(Pending {
            line: escape(&a.line, 200),
            job,
            root: self.spn.clone(),
            deadline: bound.map(|b| now + b),
            why: "its limit + margin",
            stopped: false,
            tentative: true,
            action: self.action,
            stop_at,
            comparable,
            sent: now,
        });
    }

    /// Sends the line with `query spn` and `isready` behind it and reads
    /// the answers up to the last `readyok` (checked against the native
    /// engine's with a twin).
    fn exchange(&mut self, line: &[u8]) -> Result<Window, Failure> {
        let mut bytes = line.to_vec();
        bytes.extend_from_slice(b"\nquery spn\nisready\n");
        self.send(&bytes);
        // Long lines take time to read and parse.
        // (The WebAssembly engine runs every search and perft in 50 ms
        // slices and answers `query` and `isready` between them: a line
        // that starts a job gets no more time than any other.)
        let extra = (line.len() as u64 / 1_000_000) * 1000;
        let w = self.window(None, self.cfg.margin(READY_MS + extra))?;
        self.twin_check(&w, line)?;
        Ok(w)
    }

    /// Settles the job this line may have started: refused (no longer
    /// tracked), or running, or answered within the window; counts it.
    fn settle_job(&mut self, line: &[u8], refused: bool, maybe_job: bool, cmd: Option<&str>) {
        let started = match self
            .pending
            .iter()
            .position(|p| p.action == self.action && p.tentative)
        {
            Some(i) if refused => {
                self.pending.remove(i);
                None
            }
            Some(i) => {
                self.pending[i].tentative = false;
                Some(self.pending[i].is_perft())
            }
            // Answered within the window.
            None if maybe_job && !refused => Some(cmd == Some("perft")),
            None => None,
        };
        match started {
            Some(true) => {
                self.stats.perfts += 1;
                let bounded = if self.twin.is_some() {
                    make::WASM_PERFT_BOUNDED
                } else {
                    PERFT_BOUNDED
                };
                if make::perft_depth(line).is_some_and(|d| d > bounded) {
                    self.stats.deep_perfts += 1;
                }
            }
            Some(false) => {
                self.stats.searches += 1;
                if self.varied.any() {
                    self.stats.varied_searches += 1;
                }
            }
            None => {}
        }
    }

    /// Checks the number of error lines, `readyok`s and `response`s to
    /// the line with `query spn` and `isready` behind it.
    fn check_counts(&mut self, sent: &[u8], w: &Window) -> Result<(), Failure> {
        let line = escape(sent, 200);
        if w.errors.len() > 1 {
            self.soft(fail(
                "several-error-lines",
                format!(
                    "{} error lines for '{line}': {:?}",
                    w.errors.len(),
                    w.errors
                ),
            ))?;
        }
        // `isready` gets one `readyok`, a valid `query` one `response`;
        // the same words with anything else added get neither.
        let want = (
            1 + usize::from(make::bare(sent, "isready")),
            1 + usize::from(make::valid_query(sent)),
        );
        if w.readyoks != want.0 {
            self.soft(fail(
                "readyok-count",
                format!(
                    "'{line}' then 'query spn' and 'isready' gave {} readyok, expected {} (errors {:?})",
                    w.readyoks, want.0, w.errors
                ),
            ))?;
        }
        if w.responses.len() != want.1 {
            self.soft(fail(
                "response-count",
                format!(
                    "'{line}' then 'query spn' gave responses {:?}, expected {} (errors {:?})",
                    w.responses, want.1, w.errors
                ),
            ))?;
        }
        Ok(())
    }

    /// Checks one action's answer: refusals, state, and the answers the
    /// rules library can predict.
    fn check_answer(
        &self,
        a: &Action,
        w: &Window,
        before: &str,
        busy_before: bool,
        needs_idle: bool,
        surely_busy: bool,
    ) -> Result<(), Failure> {
        let line = escape(&a.line, 200);
        let read = make::read(&a.line);
        let cmd = make::command(&a.line);
        if !w.errors.is_empty() {
            if self.spn != before {
                return fail(
                    "rejected-command-changed-state",
                    format!(
                        "'{line}' got '{}' but the position went from '{before}' to '{}'",
                        w.errors[0], self.spn
                    ),
                );
            }
            if read == Read::TooLong && !w.errors[0].starts_with("info string error: line too long")
            {
                return fail(
                    "too-long-line-error-text",
                    format!("a line of {} bytes got '{}'", a.line.len(), w.errors[0]),
                );
            }
            if !w.other.is_empty() {
                return fail(
                    "refused-line-printed-output",
                    format!("'{line}' got '{}' and printed {:?}", w.errors[0], w.other),
                );
            }
            let busy = busy_before || !self.pending.is_empty() || w.ends > 0;
            let game_over_go = cmd.as_deref() == Some("go") && self.model()?.is_game_over();
            if a.expect == Expect::Ok && !(needs_idle && busy) && !game_over_go {
                return fail(
                    "valid-command-refused",
                    format!("'{line}' got '{}'", w.errors[0]),
                );
            }
            return Ok(());
        }
        if a.expect == Expect::Err {
            let kind = match (&read, cmd.as_deref()) {
                (Read::TooLong, _) => "too-long-line-accepted".to_string(),
                (Read::Control, _) => "control-char-line-accepted".to_string(),
                _ if surely_busy && needs_idle => "busy-command-accepted".to_string(),
                (_, Some(c)) if make::COMMANDS.contains(&c) => format!("invalid-{c}-accepted"),
                _ => "unknown-command-accepted".to_string(),
            };
            return fail(kind, format!("'{line}' got no error"));
        }
        let pos = self.model()?;
        match &a.kind {
            Kind::Position(spn, _) if *spn != self.spn => fail(
                "position-mismatch",
                format!("'{line}' gave '{}', the rules give '{spn}'", self.spn),
            ),
            Kind::Query(what) if w.responses.len() == 2 => {
                check::query_answer(&pos, self.p1, what, &w.responses[0])
                    .or_else(|e| fail("query-wrong", e))
            }
            Kind::Display if !w.other.iter().any(|l| l.contains(self.spn.as_str())) => fail(
                "d-without-spn",
                format!("'d' printed no '{}': {:?}", self.spn, w.other),
            ),
            Kind::Ugi(ok) if !w.other.iter().any(|l| l == ok) => {
                fail("ugi-no-ugiok", format!("'{line}' answered without '{ok}'"))
            }
            _ => Ok(()),
        }
    }

    /// Waits for the running jobs to end (stopping those without a limit
    /// first).
    fn wait_jobs(&mut self) -> Result<(), Failure> {
        if self.pending.iter().any(|p| p.deadline.is_none()) {
            return self.single(Self::stop_action());
        }
        // Every pending job has a deadline, which `pump` enforces.
        let until = Instant::now() + Duration::from_secs(120);
        while !self.pending.is_empty() {
            if !self.pump(until)? {
                return fail("search-overran", "waited 120 s for a result");
            }
        }
        Ok(())
    }

    /// Several valid lines in one write, no `isready` between them, then
    /// `stop`: commands while a job runs, `go` after `go`, `perft` after
    /// `go`.
    fn burst(&mut self) -> Result<(), Failure> {
        let mut roots = vec![self.spn.clone()];
        let mut bytes = Vec::new();
        let (mut ready, mut resp) = (1, 1);
        let perft_depth = 1 + self.rng.below(2) as u32;
        for _ in 0..2 + self.rng.below(6) {
            let rng = &mut self.rng;
            let line = match rng.below(9) {
                0..=2 => make::go(rng, self.cfg, true).line,
                3 => {
                    let (line, result) = make::position(rng);
                    if let Some((spn, _)) = result {
                        roots.push(spn);
                    }
                    // Which positions were taken is unknown.
                    self.p1 = None;
                    line.into_bytes()
                }
                4 => {
                    resp += 1;
                    format!("query {}", rng.pick(&["spn", "legal", "steps", "turn"])).into_bytes()
                }
                5 => {
                    ready += 1;
                    b"isready".to_vec()
                }
                6 => b"stop".to_vec(),
                7 => format!("perft {perft_depth}").into_bytes(),
                _ => b"d".to_vec(),
            };
            bytes.extend_from_slice(&line);
            bytes.push(b'\n');
        }
        let d = Instant::now() + self.cfg.margin(STOP_MS);
        for p in &mut self.pending {
            p.stopped = true;
            p.limit(d, "1 s after the stop ending a burst");
        }
        self.burst = Some(Burst {
            roots,
            perft_depth,
            rows: Vec::new(),
        });
        bytes.extend_from_slice(b"stop\nquery spn\nisready\n");
        self.send(&bytes);
        let result = self.burst_rest(ready, resp);
        self.burst = None;
        result
    }

    /// A burst whose every answer is the same on any engine (WebAssembly
    /// mode): nothing runs before it, and it holds positions, queries,
    /// `isready`, `d` and at most one search that waits for `stop` (every
    /// `position` after it refused on both), then `stop`. A burst with
    /// searches that end by themselves races the native engine's search
    /// thread against the lines after it, which the one-thread engine
    /// does not.
    fn burst_wasm(&mut self) -> Result<(), Failure> {
        if !self.pending.is_empty() {
            self.wait_jobs()?;
        }
        self.twin_settle()?;
        let mut roots = vec![self.spn.clone()];
        let mut bytes = Vec::new();
        let (mut ready, mut resp) = (1, 1);
        let n = 2 + self.rng.below(6);
        let go_at = self.rng.chance(50).then(|| self.rng.below(n));
        for i in 0..n {
            let rng = &mut self.rng;
            let line = if go_at == Some(i) {
                let word = if rng.chance(25) { "ponder" } else { "infinite" };
                let depth = if rng.chance(30) { " depth 2" } else { "" };
                format!("go {word}{depth}").into_bytes()
            } else {
                match rng.below(4) {
                    0 => {
                        let (line, result) = make::position(rng);
                        if let Some((spn, _)) = result {
                            roots.push(spn);
                        }
                        self.p1 = None;
                        line.into_bytes()
                    }
                    1 => {
                        resp += 1;
                        format!("query {}", rng.pick(make::QUESTIONS)).into_bytes()
                    }
                    2 => {
                        ready += 1;
                        b"isready".to_vec()
                    }
                    _ => b"d".to_vec(),
                }
            };
            bytes.extend_from_slice(&line);
            bytes.push(b'\n');
        }
        self.burst = Some(Burst {
            roots,
            perft_depth: 1,
            rows: Vec::new(),
        });
        bytes.extend_from_slice(b"stop\nquery spn\nisready\n");
        self.send(&bytes);
        let result = self.burst_rest(ready, resp);
        self.burst = None;
        result
    }

    fn burst_rest(&mut self, ready: usize, resp: usize) -> Result<(), Failure> {
        let w = self.window(Some((ready, resp)), self.cfg.margin(READY_MS))?;
        self.twin_check(&w, b"(burst)")?;
        self.take_spn(&w)?;
        // Jobs the burst started were stopped: their last lines come
        // within milliseconds. Wait for a quiet spell.
        let quiet = self.cfg.margin(150);
        let give_up = Instant::now() + self.cfg.margin(3000);
        loop {
            let until = (Instant::now() + quiet).min(give_up);
            if !self.pump(until)? {
                break;
            }
        }
        if self.bestturn.is_some() {
            return fail(
                "bestmove-missing",
                "a bestturn was not followed by its bestmove",
            );
        }
        Ok(())
    }

    /// Ends the session: `quit` (at once, or after the jobs end) or the
    /// end of input, and the exit within its deadline. Past `until`, only
    /// ways that end quickly.
    fn finish(&mut self, until: Instant) -> Result<(), Failure> {
        // Now and then a job for the end of input to catch running.
        let mut for_eof = false;
        if self.pending.is_empty() && self.rng.chance(20) {
            let long = Instant::now() + END_GRACE + Duration::from_secs(2) <= until;
            let action = make::eof_job(&mut self.rng, self.cfg, long);
            self.single(action)?;
            for_eof = true;
        }
        let now = Instant::now();
        // What the end of input costs: a running job gets up to 5 s more
        // (an infinite search none).
        let eof_cost = self
            .pending
            .iter()
            .map(|p| match (p.is_infinite(), p.deadline) {
                (true, _) => Duration::ZERO,
                (false, Some(d)) => d.saturating_duration_since(now).min(END_GRACE),
                (false, None) => END_GRACE,
            })
            .max()
            .unwrap_or_default();
        let eof_fits = now + eof_cost + Duration::from_secs(1) <= until
            || eof_cost <= Duration::from_millis(300);
        let mode = self.rng.below(10);
        if (mode < 3 || for_eof) && eof_fits {
            return self.finish_eof();
        }
        if mode < 5 && now < until {
            self.wait_jobs()?;
            if !self.pending.is_empty() {
                self.wait_jobs()?;
            }
        }
        self.send(b"quit\n");
        let deadline = Instant::now() + self.cfg.margin(QUIT_MS);
        // `quit` exits at once: what a running job may still print is not
        // judged.
        loop {
            if self.driver.eof {
                break;
            }
            match self
                .driver
                .recv(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Some(_)) => {}
                Ok(None) => {
                    return fail("quit-timeout", "the engine did not exit in time after quit");
                }
                Err(()) => break,
            }
        }
        self.exit_status(deadline)
    }

    /// The end of input: every running job must print its result (a
    /// search within 5 s, an infinite one at once), then the engine exits.
    fn finish_eof(&mut self) -> Result<(), Failure> {
        if !self.pending.is_empty() {
            self.stats.eof_jobs += 1;
        }
        self.driver.close_input();
        let now = Instant::now();
        let stop = self.cfg.margin(STOP_MS);
        for p in &mut self.pending {
            // Ended by the end of input: it may end without a count, and
            // an infinite search answers.
            p.stopped = true;
            if p.is_infinite() {
                p.limit(now + stop, "1 s after the end of input (infinite)");
            } else {
                p.limit(now + END_GRACE + stop, "5 s + 1 s after the end of input");
            }
        }
        let give_up = now + END_GRACE + stop + self.cfg.margin(QUIT_MS);
        loop {
            match self.pump_raw(give_up)? {
                Pumped::Line => {}
                Pumped::Timeout => {
                    return fail(
                        "quit-timeout",
                        "the engine did not exit in time after the end of input",
                    );
                }
                Pumped::Closed => break,
            }
        }
        if let Some(p) = self.pending.front() {
            return fail(
                "eof-job-unanswered",
                format!(
                    "'{}' printed no result before the engine exited at the end of input",
                    p.line
                ),
            );
        }
        if self.bestturn.is_some() {
            return fail(
                "bestmove-missing",
                "a bestturn was not followed by its bestmove",
            );
        }
        self.exit_status(Instant::now() + self.cfg.margin(QUIT_MS))
    }

    fn exit_status(&mut self, deadline: Instant) -> Result<(), Failure> {
        match self.driver.wait_exit(
            deadline.saturating_duration_since(Instant::now()) + Duration::from_millis(200),
        ) {
            Some(s) if s.success() => Ok(()),
            Some(s) => Err(Failure {
                kind: "bad-exit-status".into(),
                detail: format!(
                    "exit status {s} after quit / end of input; stderr: {}",
                    self.driver.stderr_tail()
                ),
            }),
            None => fail("quit-timeout", "stdout closed but the process did not exit"),
        }
    }
}

/// Checks a search's answer against the positions it may have searched.
fn judge(
    go: &str,
    roots: &[String],
    infinite_early: bool,
    turn: &[&str],
    best: &str,
    text: &str,
) -> Result<(), Failure> {
    // The last root is the likeliest (the burst's latest position).
    let mut first_err = None;
    for root in roots.iter().rev() {
        let pos = Position::from_written_spn(root)
            .or_else(|e| fail("spn-unparseable", format!("{root}: {e}")))?;
        if infinite_early && !pos.is_game_over() {
            return fail(
                "infinite-ended-without-stop",
                format!("'{go}' answered '{text}' before any stop"),
            );
        }
        match check::bestturn(&pos, turn, best) {
            Ok(()) => return Ok(()),
            Err(e) => {
                first_err.get_or_insert((e, root.clone()));
            }
        }
    }
    let ((kind, msg), root) = first_err.expect("at least one root");
    fail(kind, format!("after '{go}' from position '{root}': {msg}"))
}
