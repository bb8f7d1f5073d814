//! One engine run: random actions, each followed by `query spn` and
//! `isready`, and the checks of what comes back.
//!
//! Every single action is sent as `<line>\nquery spn\nisready\n`: the
//! answer to `isready` closes the action's window (its errors and
//! responses), and `query spn` gives the state after it. Search output
//! (`info`, `bestturn`, `bestmove`) may arrive in any window; searches are
//! matched first-in first-out, which is sound because a new search only
//! starts after the previous one printed `bestmove`.

use super::check;
use super::config::{Config, HUGE_TURN, MAX_ERROR_LINE};
use super::driver::{Driver, escape};
use super::make::{self, Action, Expect, Kind, OptionDecl};
use super::rng::Rng;
use splut::game::Position;
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
    /// `bestmove` lines checked.
    pub bestmoves: u64,
    /// `info string error` lines received.
    pub errors: u64,
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

/// A search the engine owes a `bestmove` for.
struct Pending {
    /// The `go` line, escaped.
    go: String,
    /// Positions it may have searched (one, except after a burst).
    roots: Vec<String>,
    /// Must end by then (after its limit or a `stop`).
    deadline: Option<Instant>,
    /// A plain `go infinite`.
    infinite_pure: bool,
    /// A `stop` (or something that may be one) was sent since.
    stopped: bool,
    /// Its window has not closed yet: it may still be refused.
    tentative: bool,
    /// Action number that sent it.
    action: u64,
    /// When the fuzzer stops it if it has no limit.
    stop_at: Instant,
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
    bestmoves: usize,
}

/// One engine process under test.
pub struct Session<'a> {
    cfg: &'a Config,
    rng: Rng,
    /// The engine.
    pub driver: Driver,
    decls: Vec<OptionDecl>,
    spn: String,
    pending: VecDeque<Pending>,
    bestturn: Option<String>,
    /// Inside a burst: searches nobody tracks may answer, from these roots.
    burst_roots: Option<Vec<String>>,
    window: Window,
    action: u64,
    stats: &'a mut Stats,
    /// Failures that leave the engine usable, the first of each kind in
    /// this session, with the transcript up to them; the session goes on.
    pub soft: Vec<(Failure, String)>,
}

const READY_MS: u64 = 2000;
const STOP_MS: u64 = 1000;
const QUIT_MS: u64 = 2000;

impl<'a> Session<'a> {
    /// Starts an engine and does the `ugi` handshake.
    pub fn start(
        cfg: &'a Config,
        seed: u64,
        stats: &'a mut Stats,
    ) -> Result<Session<'a>, Box<(Driver, Failure)>> {
        stats.sessions += 1;
        let mut s = Session {
            cfg,
            rng: Rng::new(seed),
            driver: Driver::spawn(),
            decls: Vec::new(),
            spn: String::new(),
            pending: VecDeque::new(),
            bestturn: None,
            burst_roots: None,
            window: Window::default(),
            action: 0,
            stats,
            soft: Vec::new(),
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

    fn handshake(&mut self) -> Result<(), Failure> {
        self.send(b"ugi\nquery spn\nisready\n");
        // A cold start allocates the default table: more time than usual.
        let w = self.window(Some((1, 1)), self.cfg.margin(5 * READY_MS))?;
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
    }

    fn model(&self) -> Result<Position, Failure> {
        Position::from_spn(&self.spn).or_else(|e| {
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

    /// Reads and handles one line; `Ok(false)` if `until` passed first.
    /// Fails when a search is past its deadline or the engine is gone.
    fn pump(&mut self, until: Instant) -> Result<bool, Failure> {
        loop {
            let now = Instant::now();
            if let Some(p) = self
                .pending
                .iter()
                .find(|p| p.deadline.is_some_and(|d| now > d))
            {
                let kind = if p.stopped {
                    "stop-not-obeyed"
                } else {
                    "search-overran"
                };
                return fail(
                    kind,
                    format!(
                        "no bestmove for '{}' by its deadline ({} since the go)",
                        p.go,
                        if p.stopped {
                            "stop sent; 1 s after the stop"
                        } else {
                            "limit + margin"
                        }
                    ),
                );
            }
            if now >= until {
                return Ok(false);
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
                    return Ok(true);
                }
                Ok(None) => {}
                Err(()) => return Err(self.death()),
            }
        }
    }

    fn on_line(&mut self, raw: Vec<u8>) -> Result<(), Failure> {
        let Ok(text) = String::from_utf8(raw.clone()) else {
            return fail(
                "output-not-utf8",
                format!("line is not UTF-8: {}", escape(&raw, 200)),
            );
        };
        if text.starts_with("info string error") {
            self.stats.errors += 1;
            if self.cfg.check_error_lines {
                if raw.len() > MAX_ERROR_LINE {
                    self.soft(fail(
                        "error-line-too-long",
                        format!("error line of {} bytes: {}", raw.len(), escape(&raw, 200)),
                    ))?;
                } else if let Some(b) = check::control_byte(&raw) {
                    self.soft(fail(
                        "error-line-control-byte",
                        format!("raw byte 0x{b:02x} in: {}", escape(&raw, 300)),
                    ))?;
                }
            }
            self.window.errors.push(text);
            return Ok(());
        }
        if let Some(b) = check::control_byte(&raw) {
            self.soft(fail(
                "output-control-byte",
                format!("raw byte 0x{b:02x} in: {}", escape(&raw, 300)),
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
        } else if text.starts_with("info ") {
            if self.pending.is_empty()
                && self.burst_roots.is_none()
                && !text.starts_with("info string")
            {
                // A search nobody knew of: it ends on `stop`.
                self.pending.push_back(Pending {
                    go: "(a line that started a search unexpectedly)".into(),
                    roots: vec![self.spn.clone()],
                    deadline: None,
                    infinite_pure: false,
                    stopped: false,
                    tentative: false,
                    action: self.action,
                    stop_at: Instant::now(),
                });
            }
        } else {
            self.window.other.push(text);
        }
        Ok(())
    }

    fn on_bestmove(&mut self, text: &str) -> Result<(), Failure> {
        self.window.bestmoves += 1;
        self.stats.bestmoves += 1;
        let Some(turn_line) = self.bestturn.take() else {
            return fail(
                "bestmove-without-bestturn",
                format!("'{text}' with no bestturn before it"),
            );
        };
        let turn: Vec<&str> = turn_line["bestturn".len()..].split_whitespace().collect();
        let best = text["bestmove".len()..].trim();
        let (go, roots, infinite_early) = match self.pending.pop_front() {
            Some(p) => {
                if let Some(d) = p.deadline
                    && Instant::now() > d
                {
                    return fail(
                        "search-overran",
                        format!("bestmove for '{}' came after its deadline", p.go),
                    );
                }
                let early = p.infinite_pure && !p.stopped;
                (p.go, p.roots, early)
            }
            None => match &self.burst_roots {
                Some(r) => ("(a go in a burst)".to_string(), r.clone(), false),
                None => {
                    return fail(
                        "unsolicited-bestmove",
                        format!("'{text}' with no search running"),
                    );
                }
            },
        };
        let verdict = self.judge(&go, &roots, infinite_early, &turn, best, text);
        self.soft(verdict)
    }

    /// Checks a search's answer against the positions it may have searched.
    fn judge(
        &self,
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
            let pos = Position::from_spn(root)
                .or_else(|e| fail("spn-unparseable", format!("{root}: {e}")))?;
            if infinite_early && self.cfg.infinite_waits && !pos.is_game_over() {
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
        self.finish()
    }

    fn step(&mut self) -> Result<(), Failure> {
        self.action += 1;
        self.stats.actions += 1;
        let now = Instant::now();
        if self
            .pending
            .front()
            .is_some_and(|p| p.deadline.is_none() && !p.stopped && now >= p.stop_at)
        {
            return self.single(make::Action {
                line: b"stop".to_vec(),
                kind: Kind::Stop,
                expect: Expect::Ok,
                mutated: false,
            });
        }
        let cfg = self.cfg;
        let rng = &mut self.rng;
        let action = match rng.weighted(&[14, 14, 10, 6, 3, 10, 7, 4, 18, 6, 2]) {
            0 => make::go(rng, cfg, false),
            1 => {
                let (line, spn) = make::position(rng, cfg);
                Action {
                    line: line.into_bytes(),
                    kind: Kind::Position(spn),
                    expect: Expect::Ok,
                    mutated: false,
                }
            }
            2 => make::query(rng),
            3 => make::perft(rng),
            4 => make::simple(rng),
            5 => make::setoption(rng, cfg, &self.decls),
            6 => make::simple(rng),
            7 => return self.wait_search(),
            8 => {
                let base = match rng.below(6) {
                    0 => make::go(rng, cfg, false),
                    1 => {
                        let (line, _) = make::position(rng, cfg);
                        Action {
                            line: line.into_bytes(),
                            kind: Kind::Other,
                            expect: Expect::Any,
                            mutated: false,
                        }
                    }
                    2 => make::setoption(rng, cfg, &self.decls),
                    3 => make::query(rng),
                    4 => make::perft(rng),
                    _ => make::simple(rng),
                };
                let line = make::mutate(rng, &base.line);
                Action {
                    line,
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
            _ => return self.burst(),
        };
        self.single(action)
    }

    /// Whether `go` must not be sent now: without `huge_turns`, positions
    /// whose turn number is near `u32::MAX` are not searched.
    fn go_gated(&self) -> bool {
        !self.cfg.huge_turns && Position::from_spn(&self.spn).is_ok_and(|p| p.turn() >= HUGE_TURN)
    }

    fn fresh_position(&mut self) -> Action {
        let (line, spn) = make::position(&mut self.rng, self.cfg);
        Action {
            line: line.into_bytes(),
            kind: Kind::Position(spn),
            expect: Expect::Ok,
            mutated: false,
        }
    }

    fn single(&mut self, mut a: Action) -> Result<(), Failure> {
        if make::is_unsafe(&a.line, self.cfg) {
            a = make::simple(&mut self.rng);
            a.line = b"isready".to_vec();
            a.kind = Kind::Other;
            a.expect = Expect::Ok;
        }
        let is_go = matches!(a.kind, Kind::Go(_)) || make::maybe_command(&a.line, "go");
        if is_go && self.go_gated() {
            a = self.fresh_position();
        }
        let is_go = matches!(a.kind, Kind::Go(_)) || make::maybe_command(&a.line, "go");
        let needs_idle = [
            "position",
            "go",
            "setoption",
            "uginewgame",
            "ucinewgame",
            "perft",
        ]
        .iter()
        .any(|w| make::maybe_command(&a.line, w));
        let before = self.spn.clone();
        let busy_before = !self.pending.is_empty();
        let now = Instant::now();
        if is_go {
            let (deadline, infinite_pure) = match &a.kind {
                Kind::Go(spec) => (spec.bound.map(|b| now + b), spec.infinite_pure),
                _ => (None, false),
            };
            let stop_at = now + Duration::from_millis(self.rng.range(0, 600));
            self.pending.push_back(Pending {
                go: escape(&a.line, 200),
                roots: vec![self.spn.clone()],
                deadline,
                infinite_pure,
                stopped: false,
                tentative: true,
                action: self.action,
                stop_at,
            });
        }
        if matches!(a.kind, Kind::Stop) {
            let d = now + self.cfg.margin(STOP_MS);
            for p in &mut self.pending {
                p.stopped = true;
                p.deadline = Some(p.deadline.map_or(d, |x| x.min(d)));
            }
        } else if a.mutated && make::maybe_command(&a.line, "stop") {
            for p in &mut self.pending {
                p.stopped = true;
            }
        }
        let mut bytes = a.line.clone();
        bytes.extend_from_slice(b"\nquery spn\nisready\n");
        self.send(&bytes);
        // Long lines take time to read, echo and parse.
        let extra = (a.line.len() as u64 / 1_000_000) * 1000;
        let count = if a.mutated {
            None
        } else {
            let ready = usize::from(a.line == b"isready") + 1;
            let resp = usize::from(matches!(a.kind, Kind::Query(_))) + 1;
            Some((ready, resp))
        };
        let w = self.window(count, self.cfg.margin(READY_MS + extra))?;
        // Settle the `go` sent in this window: refused, or a search.
        if is_go {
            let refused = !w.errors.is_empty();
            let idx = self
                .pending
                .iter()
                .position(|p| p.action == self.action && p.tentative);
            match idx {
                Some(i) if refused => {
                    self.pending.remove(i);
                }
                Some(i) => {
                    self.pending[i].tentative = false;
                    self.stats.searches += 1;
                }
                None => self.stats.searches += u64::from(!refused),
            }
        }
        if w.errors.len() > 1 {
            return fail(
                "several-error-lines",
                format!(
                    "{} error lines for one line: {:?}",
                    w.errors.len(),
                    w.errors
                ),
            );
        }
        self.take_spn(&w)?;
        let verdict = self.check_answer(&a, &w, &before, busy_before, is_go, needs_idle);
        self.soft(verdict)
    }

    /// Checks one action's answer: refusals, state, and the answers the
    /// rules library can predict.
    fn check_answer(
        &self,
        a: &Action,
        w: &Window,
        before: &str,
        busy_before: bool,
        is_go: bool,
        needs_idle: bool,
    ) -> Result<(), Failure> {
        let line = escape(&a.line, 200);
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
            let busy = busy_before || !self.pending.is_empty() || w.bestmoves > 0;
            let game_over_go = is_go && self.model()?.is_game_over();
            if a.expect == Expect::Ok && !(needs_idle && busy) && !game_over_go {
                return fail(
                    "valid-command-refused",
                    format!("'{line}' got '{}'", w.errors[0]),
                );
            }
            return Ok(());
        }
        if a.expect == Expect::Err {
            return fail("invalid-command-accepted", format!("'{line}' got no error"));
        }
        let pos = self.model()?;
        match &a.kind {
            Kind::Position(spn) if *spn != self.spn => fail(
                "position-mismatch",
                format!("'{line}' gave '{}', the rules give '{spn}'", self.spn),
            ),
            Kind::Query(what) => {
                let answer = w.responses.first().cloned().unwrap_or_default();
                if w.responses.len() != 2 {
                    return fail(
                        "query-answers",
                        format!("'{line}': responses {:?}", w.responses),
                    );
                }
                check::query_answer(&pos, what, &answer).or_else(|e| fail("query-wrong", e))
            }
            Kind::Perft(depth) => {
                let want = if *depth == 0 {
                    1
                } else {
                    splut::game::perft(&pos, *depth)
                };
                let got = w.other.iter().find_map(|l| l.strip_prefix("nodes "));
                if got != Some(want.to_string().as_str()) {
                    return fail(
                        "perft-wrong",
                        format!(
                            "'{line}' in {}: nodes {got:?}, the rules give {want}",
                            self.spn
                        ),
                    );
                }
                Ok(())
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

    /// Waits for the running searches to end (stopping those without a
    /// limit first).
    fn wait_search(&mut self) -> Result<(), Failure> {
        if self.pending.iter().any(|p| p.deadline.is_none()) {
            return self.single(Action {
                line: b"stop".to_vec(),
                kind: Kind::Stop,
                expect: Expect::Ok,
                mutated: false,
            });
        }
        // Every pending search has a deadline, which `pump` enforces.
        let until = Instant::now() + Duration::from_secs(120);
        while !self.pending.is_empty() {
            if !self.pump(until)? {
                return fail("search-overran", "waited 120 s for a bestmove");
            }
        }
        Ok(())
    }

    /// Several valid lines in one write, no `isready` between them, then
    /// `stop`: commands while a search runs, `go` after `go`.
    fn burst(&mut self) -> Result<(), Failure> {
        let mut roots = vec![self.spn.clone()];
        let mut bytes = Vec::new();
        let (mut ready, mut resp) = (1, 1);
        let huge = |spn: &str| Position::from_spn(spn).is_ok_and(|p| p.turn() >= HUGE_TURN);
        for _ in 0..2 + self.rng.below(6) {
            let rng = &mut self.rng;
            let line = match rng.below(8) {
                0..=2 if self.cfg.huge_turns || !roots.iter().any(|r| huge(r)) => {
                    make::go(rng, self.cfg, true).line
                }
                3 => {
                    let (line, spn) = make::position(rng, self.cfg);
                    roots.push(spn);
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
                _ => b"d".to_vec(),
            };
            bytes.extend_from_slice(&line);
            bytes.push(b'\n');
        }
        let d = Instant::now() + self.cfg.margin(STOP_MS);
        for p in &mut self.pending {
            p.stopped = true;
            p.deadline = Some(p.deadline.map_or(d, |x| x.min(d)));
        }
        self.burst_roots = Some(roots);
        bytes.extend_from_slice(b"stop\nquery spn\nisready\n");
        self.send(&bytes);
        let result = self.burst_rest(ready, resp);
        self.burst_roots = None;
        result
    }

    fn burst_rest(&mut self, ready: usize, resp: usize) -> Result<(), Failure> {
        let w = self.window(Some((ready, resp)), self.cfg.margin(READY_MS))?;
        self.take_spn(&w)?;
        // Searches the burst started were stopped: their last lines come
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

    /// Ends the session: `quit` (at once, or after stopping searches) or
    /// the end of input, and the exit within its deadline.
    fn finish(&mut self) -> Result<(), Failure> {
        let all_bounded = self.pending.iter().all(|p| p.deadline.is_some());
        let mode = self.rng.below(10);
        let deadline = if mode == 0 && all_bounded {
            let last = self.pending.iter().filter_map(|p| p.deadline).max();
            self.driver.close_input();
            let base = last.unwrap_or_else(Instant::now).max(Instant::now());
            base + self.cfg.margin(QUIT_MS)
        } else {
            if mode < 3 {
                self.wait_search()?;
                if !self.pending.is_empty() {
                    self.wait_search()?;
                }
            }
            self.send(b"quit\n");
            Instant::now() + self.cfg.margin(QUIT_MS)
        };
        // Lines may still come (a bounded search finishing at end of input).
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
                    return fail(
                        "quit-timeout",
                        "the engine did not exit in time after quit / end of input",
                    );
                }
                Err(()) => break,
            }
        }
        match self.driver.wait_exit(
            deadline.saturating_duration_since(Instant::now()) + Duration::from_millis(200),
        ) {
            Some(s) if s.success() => Ok(()),
            Some(s) => Err(Failure {
                kind: "bad-exit-status".into(),
                detail: format!(
                    "exit status {s} after quit; stderr: {}",
                    self.driver.stderr_tail()
                ),
            }),
            None => fail("quit-timeout", "stdout closed but the process did not exit"),
        }
    }
}
