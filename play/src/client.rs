//! The protocol client: a program that speaks the protocol (protocol.md),
//! started as a child process and driven over its pipes. The tournament's
//! participants and the GUI's engine are each a [`Client`], and tests can
//! drive an engine with it too.
//!
//! A thread reads the program's output into a channel, so every read has a
//! deadline ([`Client::recv`], [`Client::read_until`]) and a program that
//! hangs never blocks its caller. Dropping a client kills the process if
//! it still runs and reaps it, so no zombie is left.
//!
//! Its lines are read by the engine's own parser, [`words`]: an answer's
//! `info`, `bestturn` and `bestmove` lines and an `info string error` are
//! read here as the engine prints them, and as every other reader of them
//! reads them.
//!
//! ```no_run
//! use splut_play::client::Client;
//! use std::time::Duration;
//!
//! let mut engine = Client::spawn(&["splut"])?.with_timeout(Duration::from_secs(5));
//! engine.handshake(&[("Algorithm".into(), "greedy".into())])?;
//! let answer = engine.think("position startpos", "go nodes 1000", Duration::from_secs(5))?;
//! println!("{:?}", answer.steps());
//! engine.quit(Duration::from_millis(500));
//! # Ok::<(), splut_play::client::ClientError>(())
//! ```

use crate::judge::Forfeit;
use splut_rules::{Game, StepText};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a client waits for an answer that no search limits (the
/// handshake, `isready`, `query`) unless [`Client::with_timeout`] says
/// otherwise: a minute.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// When the program's output closes, how long to wait for it to exit, so
/// the error can give its exit status.
const EXIT_WAIT: Duration = Duration::from_millis(100);

/// What went wrong with a program. `Display` words it for a person
/// ("the engine exited (exit status: 1)"); a tournament classifies the
/// variants into its forfeits and words them for its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The command was empty.
    NoCommand,
    /// The program could not be started.
    Start {
        /// The program, as given.
        program: String,
        /// Why.
        why: String,
    },
    /// A line could not be written: its input is closed.
    Write {
        /// The write's error.
        why: String,
        /// Its exit status, if it had exited.
        status: Option<ExitStatus>,
    },
    /// Its output closed (it exited, or closed it).
    Closed {
        /// Its exit status, if it exited.
        status: Option<ExitStatus>,
    },
    /// No line starting with `prefix` came within `limit`.
    Timeout {
        /// The line waited for.
        prefix: String,
        /// How long it was given.
        limit: Duration,
    },
    /// It answered with an error (`info string error…`): the whole line.
    Refused(String),
    /// An answer that does not say what the protocol says it must.
    Garbled(String),
}

/// The words of the protocol's output lines, typed once
/// ([`splut_engine::protocol::words`]): [`words::Line`] reads any line a
/// program writes, [`words::Info`] an `info` line (its [`words::Score`]
/// among them), [`words::InfoString`] free text and errors,
/// [`words::BestTurn`] and [`words::BestMove`] an answer.
pub mod words {
    pub use splut_engine::protocol::words::*;
    pub use splut_engine::search::score::Score;
}

/// How a program's end reads: its exit status, or a closed output.
fn exit_text(status: &Option<ExitStatus>) -> String {
    match status {
        Some(s) => format!("the engine exited ({s})"),
        None => "the engine closed its output".into(),
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NoCommand => write!(f, "empty engine command"),
            ClientError::Start { program, why } => {
                write!(f, "cannot start the engine '{program}': {why}")
            }
            ClientError::Write { status, .. } | ClientError::Closed { status } => {
                write!(f, "{}", exit_text(status))
            }
            ClientError::Timeout { prefix, limit } => write!(
                f,
                "the engine did not answer '{prefix}' within {} ms",
                limit.as_millis()
            ),
            ClientError::Refused(line) => write!(f, "the engine refused it: {}", error_text(line)),
            ClientError::Garbled(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// The error as a person reads it (its `Display`), for callers whose
/// errors are text.
impl From<ClientError> for String {
    fn from(e: ClientError) -> String {
        e.to_string()
    }
}

/// Why the program refused, if `line` is `info string error: <why>`.
fn refusal(line: &str) -> Option<String> {
    let text = words::InfoString::parse(line).ok()?;
    text.error_message().map(str::to_string)
}

/// The message of an `info string error: …` line; any other line as it is.
fn error_text(line: &str) -> String {
    refusal(line).unwrap_or_else(|| line.to_string())
}

/// Whether `line` ends an answer: its first word is `bestmove`, whether
/// the rest reads or not ([`words::BestMove`]).
pub fn ends_answer(line: &str) -> bool {
    !matches!(
        words::BestMove::parse(line),
        Err(words::ParseError::WrongKind { .. })
    )
}

/// A running program that speaks the protocol.
pub struct Client {
    child: Child,
    /// `None` once closed ([`Client::close_input`]).
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
    /// The options set through [`Client::set_option`] or the handshake,
    /// with their last values.
    options: Vec<(String, String)>,
    /// The count of live processes this one is in, if any.
    live: Option<Arc<AtomicUsize>>,
}

impl Client {
    /// Starts `command` (the program, then its arguments) with its error
    /// output discarded. No handshake: see [`Client::handshake`].
    pub fn spawn<S: AsRef<OsStr>>(command: &[S]) -> Result<Client, ClientError> {
        let (program, args) = command.split_first().ok_or(ClientError::NoCommand)?;
        let mut cmd = Command::new(program);
        cmd.args(args).stderr(Stdio::null());
        Client::spawn_command(cmd)
    }

    /// Starts a command prepared by the caller (arguments, environment,
    /// error output as it says); its input and output become the
    /// client's pipes.
    pub fn spawn_command(mut cmd: Command) -> Result<Client, ClientError> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| ClientError::Start {
                program: program.clone(),
                why: e.to_string(),
            })?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Start {
                program,
                why: "its pipes could not be opened".into(),
            });
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Client {
            child,
            stdin: Some(stdin),
            lines: rx,
            timeout: DEFAULT_TIMEOUT,
            options: Vec::new(),
            live: None,
        })
    }

    /// Sets how long an answer no search limits may take (the handshake,
    /// `isready`, `query`, a cancelled ponder search).
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// Counts the process in `live` until it is reaped (the GUI shows how
    /// many engines run).
    pub fn count_in(mut self, live: &Arc<AtomicUsize>) -> Client {
        live.fetch_add(1, Ordering::SeqCst);
        self.live = Some(live.clone());
        self
    }

    /// The timeout of [`Client::with_timeout`].
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// Sends bytes as they are (part of a line, or anything at all).
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "its input is closed",
            )),
        };
        written.map_err(|e| ClientError::Write {
            why: e.to_string(),
            status: self.child.try_wait().ok().flatten(),
        })
    }

    /// Closes the program's input (it sees the end of its input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, waiting at most `wait`: `Ok(None)` when none came.
    pub fn recv(&mut self, wait: Duration) -> Result<Option<String>, ClientError> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Closed {
                status: self.wait_exit(EXIT_WAIT),
            }),
        }
    }

    /// Lines up to and including the first that starts with `prefix`,
    /// waiting at most `limit` in all.
    pub fn read_until(
        &mut self,
        prefix: &str,
        limit: Duration,
    ) -> Result<Vec<String>, ClientError> {
        self.read_to(prefix, |line| line.starts_with(prefix), limit)
    }

    /// The lines of an answer, up to and including its `bestmove` line
    /// ([`ends_answer`]), waiting at most `limit` in all.
    fn read_answer(&mut self, limit: Duration) -> Result<Vec<String>, ClientError> {
        self.read_to("bestmove", ends_answer, limit)
    }

    /// Lines up to and including the first that is `last`, waiting at
    /// most `limit` in all; a timeout names the line as `what`.
    fn read_to(
        &mut self,
        what: &str,
        last: impl Fn(&str) -> bool,
        limit: Duration,
    ) -> Result<Vec<String>, ClientError> {
        // No deadline this far off is reachable; `None` waits for ever.
        let deadline = Instant::now().checked_add(limit);
        let mut out = Vec::new();
        loop {
            let left = deadline.map_or(Duration::MAX, |d| {
                d.saturating_duration_since(Instant::now())
            });
            match self.recv(left)? {
                Some(line) => {
                    let done = last(&line);
                    out.push(line);
                    if done {
                        return Ok(out);
                    }
                }
                None => {
                    return Err(ClientError::Timeout {
                        prefix: what.to_string(),
                        limit,
                    });
                }
            }
        }
    }

    /// The first line starting with `prefix` within `limit` (the lines
    /// before it are dropped).
    pub fn expect(&mut self, prefix: &str, limit: Duration) -> Result<String, ClientError> {
        let mut lines = self.read_until(prefix, limit)?;
        Ok(lines.pop().unwrap_or_default())
    }

    /// The handshake: `ugi` … `ugiok`, `setoption` for each of `options`,
    /// `isready` … `readyok`. An `info string error` line before
    /// `readyok` (an option refused) is [`ClientError::Refused`]. Returns
    /// the lines up to `ugiok` (its `id` and `option` lines: see
    /// [`option_choices`]).
    pub fn handshake(&mut self, options: &[(String, String)]) -> Result<Vec<String>, ClientError> {
        self.send("ugi")?;
        let ugi = self.read_until("ugiok", self.timeout)?;
        for (name, value) in options {
            self.set_option(name, value)?;
        }
        self.send("isready")?;
        let lines = self.read_until("readyok", self.timeout)?;
        if let Some(e) = lines.iter().find(|l| refusal(l).is_some()) {
            return Err(ClientError::Refused(e.clone()));
        }
        Ok(ugi)
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self) -> Result<(), ClientError> {
        self.send("isready")?;
        self.read_until("readyok", self.timeout).map(|_| ())
    }

    /// `setoption name <name> value <value>`; the value is remembered
    /// ([`Client::option`]).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!("setoption name {name} value {value}"))?;
        match self
            .options
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(o) => o.1 = value.to_string(),
            None => self.options.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// The value last set for option `name` by this client (names compare
    /// without case, as the protocol's do).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `query <what>`: the answer after `response`. An error line before
    /// it (a refused `position`, say) is [`ClientError::Refused`].
    pub fn query(&mut self, what: &str) -> Result<String, ClientError> {
        self.send(&format!("query {what}"))?;
        let lines = self.read_until("response", self.timeout)?;
        if let Some(e) = lines.iter().find(|l| refusal(l).is_some()) {
            return Err(ClientError::Refused(e.clone()));
        }
        let last = lines.last().map_or("", |l| l.as_str());
        Ok(last
            .strip_prefix("response")
            .unwrap_or("")
            .trim()
            .to_string())
    }

    /// Sets up `position spn <start> moves <steps>` and asks what the
    /// program says about it (`query spn`, `legal`, `steps`, `turn`,
    /// `gameover`, `winner`).
    pub fn sync(&mut self, start: &str, steps: &[String]) -> Result<Snapshot, ClientError> {
        let mut cmd = format!("position spn {start}");
        if !steps.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&steps.join(" "));
        }
        self.send(&cmd)?;
        let spn = self.query("spn")?;
        let legal = self.query("legal")?;
        let steps_left = self.query("steps")?;
        let side = self.query("turn")?;
        let gameover = self.query("gameover")?;
        let winner = self.query("winner")?;
        Ok(Snapshot {
            spn,
            side,
            steps_left: steps_left.parse().map_err(|_| {
                ClientError::Garbled(format!(
                    "the engine answered 'query steps' with '{steps_left}'"
                ))
            })?,
            gameover: gameover == "true",
            winner: Some(winner).filter(|w| w != "none" && !w.is_empty()),
            legal: legal.split_whitespace().map(String::from).collect(),
        })
    }

    /// Asks for the next step or turn: sends the game (a `position`
    /// command) and `go …`, and waits up to `limit` for `bestmove`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
    ) -> Result<Answer, ClientError> {
        self.ask(&[position, go], limit)
    }

    /// Sends `commands` and reads the answer up to `bestmove`, timed from
    /// the first command sent.
    fn ask(&mut self, commands: &[&str], limit: Duration) -> Result<Answer, ClientError> {
        let t0 = Instant::now();
        for c in commands {
            self.send(c)?;
        }
        let lines = self.read_answer(limit)?;
        Ok(Answer {
            lines,
            elapsed: t0.elapsed(),
        })
    }

    /// Starts a ponder search (`go ponder`) on `position` with the limits
    /// of `go` (a `go …` command); no answer is read.
    pub fn ponder(&mut self, position: &str, go: &str) -> Result<(), ClientError> {
        self.send(position)?;
        let limits = go.strip_prefix("go").unwrap_or(go);
        self.send(&format!("go ponder{limits}"))
    }

    /// The guess came true: `ponderhit`, then its answer (timed from the
    /// hit, as a clock counts it).
    pub fn ponderhit(&mut self, limit: Duration) -> Result<Answer, ClientError> {
        self.ask(&["ponderhit"], limit)
    }

    /// The guess was wrong: `stop`, and its answer read and dropped.
    pub fn cancel_ponder(&mut self) -> Result<(), ClientError> {
        self.stop()?;
        self.read_answer(self.timeout).map(|_| ())
    }

    /// `stop`: a running search answers at once (its answer is left to
    /// be read).
    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.send("stop")
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `wait` for the process to exit: its status, `None` if
    /// it still runs (or cannot be waited for).
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    /// Ends the program politely: `quit`, and a kill if it has not exited
    /// within `grace`. Its exit status if it exited by itself.
    pub fn quit(mut self, grace: Duration) -> Option<ExitStatus> {
        let _ = self.send("quit");
        self.wait_exit(grace)
        // The drop kills it if it still runs, and reaps it.
    }

    /// Ends the program at once.
    pub fn kill(self) {}
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        // Reaped either way, so no zombie is left.
        let _ = self.child.wait();
        if let Some(live) = &self.live {
            live.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The choices of a combo option, from the handshake's lines
/// (`option name Algorithm type combo default auto var alphabeta var …`):
/// empty if there is no such option.
pub fn option_choices(ugi_lines: &[String], name: &str) -> Vec<String> {
    let head = format!("option name {name} ");
    ugi_lines
        .iter()
        .find(|l| l.starts_with(&head))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The `position` command for a game: `startpos` (with its player count)
/// or the start's SPN (`position fen`, as UGI has it), then every step
/// played.
pub fn position_command(game: &Game, from_startpos: bool) -> String {
    let mut cmd = if from_startpos {
        format!("position startpos players {}", game.start().players_left())
    } else {
        format!("position fen {}", game.start().to_spn())
    };
    if !game.steps().is_empty() {
        cmd.push_str(" moves");
        for s in game.steps() {
            let _ = write!(cmd, " {s}");
        }
    }
    cmd
}

/// A program's answer to `go` (or `ponderhit`).
#[derive(Clone, Debug)]
pub struct Answer {
    /// The lines it wrote, the `bestmove` line last.
    pub lines: Vec<String>,
    /// From sending the first command to reading `bestmove`.
    pub elapsed: Duration,
}

impl Answer {
    /// Its `info` lines that read ([`words::Info::parse`]), in order;
    /// `info string` lines and lines that do not read are left out.
    pub fn infos(&self) -> impl DoubleEndedIterator<Item = words::Info> + '_ {
        self.lines.iter().filter_map(|l| words::Info::parse(l).ok())
    }

    /// The principal variation of its last `info` line with one.
    pub fn pv(&self) -> Vec<String> {
        self.infos()
            .rev()
            .find(|i| !i.pv.is_empty())
            .map(|i| i.pv.iter().map(StepText::to_string).collect())
            .unwrap_or_default()
    }

    /// The steps it plays, as it wrote them: its `bestturn` (the whole
    /// rest of its turn, which `bestmove` must begin), or else its
    /// `bestmove` alone (a plain UGI engine, asked again for each step).
    /// No step (`bestmove (none)`, or none at all) is
    /// [`Forfeit::NoStep`]; a step that does not read is
    /// [`Forfeit::IllegalStep`].
    pub fn steps(&self) -> Result<Vec<String>, Forfeit> {
        let best = match self.lines.last().map(|l| words::BestMove::parse(l)) {
            Some(Ok(words::BestMove(best))) => best,
            Some(Err(e @ words::ParseError::Unreadable { .. })) => return Err(garbled(e)),
            // `bestmove` alone, or no answer line at all.
            _ => None,
        };
        let turn = self
            .lines
            .iter()
            .rev()
            .find_map(|l| match words::BestTurn::parse(l) {
                Err(words::ParseError::WrongKind { .. }) => None,
                read => Some(read),
            });
        let turn = match turn {
            None => return best.map(|s| vec![s.to_string()]).ok_or(Forfeit::NoStep),
            Some(read) => read.map_err(garbled)?.0,
        };
        let text = |steps: &[StepText]| match steps {
            [] => "(none)".to_string(),
            _ => steps
                .iter()
                .map(StepText::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        };
        match turn.first() {
            first if first != best.as_ref() => Err(Forfeit::BestMoveNotInTurn {
                best: text(best.as_slice()),
                turn: text(&turn),
            }),
            None => Err(Forfeit::NoStep),
            Some(_) => Ok(turn.iter().map(StepText::to_string).collect()),
        }
    }
}

/// An answer's line that does not read, as a forfeit: a step that does
/// not read is an illegal step (with the rules' reason, as playing it
/// would give), anything else the parser's words.
fn garbled(e: words::ParseError) -> Forfeit {
    match e {
        words::ParseError::Unreadable { found, .. } => {
            let why = StepText::parse(&found)
                .err()
                .map_or_else(|| "not a step".to_string(), |e| e.reason);
            Forfeit::IllegalStep { text: found, why }
        }
        e => Forfeit::Other(e.to_string()),
    }
}

/// What a program says about the current position ([`Client::sync`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// `query spn`.
    pub spn: String,
    /// `query turn`: the seat to move (the winner after the game).
    pub side: String,
    /// `query steps`.
    pub steps_left: u32,
    /// `query gameover`.
    pub gameover: bool,
    /// `query winner`, if any.
    pub winner: Option<String>,
    /// `query legal`.
    pub legal: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(lines: &[&str]) -> Answer {
        Answer {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            elapsed: Duration::ZERO,
        }
    }

    /// Steps as their text.
    fn texts(steps: &[StepText]) -> Vec<String> {
        steps.iter().map(StepText::to_string).collect()
    }

    #[test]
    fn an_answers_info_lines_are_read_as_the_engines_words_read_them() {
        // Other engines' words, a pv cut short by them, winprob after the
        // pv, free text, a line that does not read, and a line without a pv.
        let lines = [
            "info depth 3 currmove e2e3 score cp 10 lowerbound nodes 5 tbhits 0 \
             pv e2e3 f8f7 refutation e2e3 winprob g 0.4 r 0.6",
            "info depth 4 score win 2 pv d2d3@e1 e3e4 winprob r 0.7 g 0.3",
            "info depth x pv c4c5^c3",
            "info string pv b5c5 e8e7",
            "info nodes 900 hashfull 3",
            "bestturn d2d3@e1",
            "bestmove d2d3@e1",
        ];
        let a = answer(&lines);
        let words: Vec<words::Info> = lines
            .iter()
            .filter_map(|l| words::Info::parse(l).ok())
            .collect();
        assert_eq!(a.infos().collect::<Vec<_>>(), words);
        assert_eq!(
            words.len(),
            3,
            "the free text and the unreadable line are left out"
        );
        assert_eq!(
            words[0].pv,
            [
                StepText::parse("e2e3").unwrap(),
                StepText::parse("f8f7").unwrap()
            ]
        );
        assert_eq!(words[0].score, Some(words::Score::Cp(10)));
        assert_eq!(
            words[0].winprob,
            [
                (splut_rules::Seat::Green, 0.4),
                (splut_rules::Seat::Red, 0.6)
            ],
            "in the line's order"
        );
        // The pv is the last line's with one, and stops at the first word
        // that is not a step.
        assert_eq!(a.pv(), texts(&words[1].pv));
        assert_eq!(a.pv(), ["d2d3@e1", "e3e4"]);
        assert_eq!(answer(&lines[..1]).pv(), ["e2e3", "f8f7"]);
        // `info string` is free text: its words are no pv.
        assert!(answer(&lines[3..]).pv().is_empty());
        assert_eq!(a.steps(), Ok(vec!["d2d3@e1".to_string()]));
    }

    #[test]
    fn answers_give_their_steps_and_line() {
        let a = answer(&[
            "info depth 2 score cp 3 pv e2e3 e8e7 f8f7",
            "bestturn e2e3",
            "bestmove e2e3",
        ]);
        assert_eq!(a.steps(), Ok(vec!["e2e3".to_string()]));
        assert_eq!(a.pv(), ["e2e3", "e8e7", "f8f7"]);
        assert_eq!(answer(&["bestmove d2d3"]).steps(), Ok(vec!["d2d3".into()]));
        assert_eq!(answer(&["bestmove"]).steps(), Err(Forfeit::NoStep));
        assert!(matches!(
            answer(&["bestturn e2e3", "bestmove d2d3"]).steps(),
            Err(Forfeit::BestMoveNotInTurn { .. })
        ));
        // As the engine's words read them: `ponder` after the step, and
        // `(none)`, are no steps.
        let a = answer(&["bestturn  e2e3 e3e4", "bestmove e2e3 ponder f8f7"]);
        assert_eq!(a.steps(), Ok(vec!["e2e3".into(), "e3e4".into()]));
        let over = answer(&["bestturn (none)", "bestmove (none)"]);
        assert_eq!(over.steps(), Err(Forfeit::NoStep));
        assert_eq!(answer(&["bestmove (none)"]).steps(), Err(Forfeit::NoStep));
        assert_eq!(
            answer(&["bestturn (none)", "bestmove e2e3"]).steps(),
            Err(Forfeit::BestMoveNotInTurn {
                best: "e2e3".into(),
                turn: "(none)".into()
            })
        );
        // A step that does not read is illegal, with the rules' reason.
        let illegal = |text: &str| Forfeit::IllegalStep {
            text: text.into(),
            why: StepText::parse(text).unwrap_err().reason,
        };
        let garbled = answer(&["bestturn e2e3 x", "bestmove e2e3"]);
        assert_eq!(garbled.steps(), Err(illegal("x")));
        assert_eq!(answer(&["bestmove e2e9"]).steps(), Err(illegal("e2e9")));
        assert_eq!(
            answer(&["bestturn", "bestmove e2e3"]).steps(),
            Err(Forfeit::Other("'bestturn' without its value".into()))
        );
        assert!(ends_answer("bestmove  (none)") && ends_answer("bestmove"));
        assert!(!ends_answer("bestmoves e2e3") && !ends_answer("bestturn e2e3"));
    }

    #[test]
    fn combo_choices_and_error_texts() {
        let lines = vec![
            "id name splut".to_string(),
            "option name Algorithm type combo default auto var auto var maxn".to_string(),
            "ugiok".to_string(),
        ];
        assert_eq!(option_choices(&lines, "Algorithm"), ["auto", "maxn"]);
        assert!(option_choices(&lines, "Hash").is_empty());
        let refused = ClientError::Refused("info string error: no such position".into());
        assert_eq!(
            refused.to_string(),
            "the engine refused it: no such position"
        );
        // As the engine's words read `info string`: spaces between the
        // words, and only `error:` is an error.
        assert_eq!(
            refusal("info  string error: the game is over").as_deref(),
            Some("the game is over")
        );
        assert_eq!(refusal("info string errors: none"), None);
        assert_eq!(refusal("info depth 3 string error: x"), None);
        assert_eq!(error_text("readyok"), "readyok");
        let timeout = ClientError::Timeout {
            prefix: "readyok".into(),
            limit: Duration::from_millis(1500),
        };
        assert_eq!(
            timeout.to_string(),
            "the engine did not answer 'readyok' within 1500 ms"
        );
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        assert_eq!(
            Client::spawn::<&str>(&[]).err(),
            Some(ClientError::NoCommand)
        );
        let e = Client::spawn(&["/nonexistent/splut-engine"]).err().unwrap();
        assert!(matches!(e, ClientError::Start { .. }), "{e:?}");
        assert!(e.to_string().starts_with("cannot start the engine"), "{e}");
    }
}
