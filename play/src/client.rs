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
//! Every line it writes is a [`Command`] of the protocol crate, printed
//! by its `Display`, and every line it reads is read by the protocol's
//! words ([`splut_protocol::words`], [`crate::answer`]): as the engine
//! prints them, and as every other reader of them reads them.
//!
//! ```no_run
//! use splut_play::client::Client;
//! use splut_protocol::command::{Go, PositionCommand};
//! use splut_rules::{Game, Position};
//! use std::time::Duration;
//!
//! let mut engine = Client::spawn(&["splut"])?.with_timeout(Duration::from_secs(5));
//! engine.handshake(&[("Algorithm".into(), "greedy".into())])?;
//! let game = Game::new(Position::start(2).unwrap());
//! let position = PositionCommand::of(&game, true);
//! let answer = engine.think(&position, &Go::nodes(1000), Duration::from_secs(5))?;
//! println!("{:?}", answer.steps());
//! engine.quit(Duration::from_millis(500));
//! # Ok::<(), splut_play::client::ClientError>(())
//! ```

use crate::answer::{Answer, ends_answer, error_text, refusal};
use splut_protocol::Command;
use splut_protocol::command::{Go, PositionCommand, Query, SetOption};
use splut_protocol::handshake::{Handshake, Progress};
use splut_protocol::words::{Line, Response};
use splut_rules::Game;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
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
        let mut cmd = std::process::Command::new(program);
        cmd.args(args).stderr(Stdio::null());
        Client::spawn_command(cmd)
    }

    /// Starts a command prepared by the caller (arguments, environment,
    /// error output as it says); its input and output become the
    /// client's pipes.
    pub fn spawn_command(mut cmd: std::process::Command) -> Result<Client, ClientError> {
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

    /// Sends one command.
    pub fn command(&mut self, command: &Command) -> Result<(), ClientError> {
        self.send(&command.to_string())
    }

    /// Sends one line as it is (a host carrying lines, a test).
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

    /// Lines up to and including the first that reads as a line `is`
    /// takes, waiting at most `limit` in all; a timeout names it `what`.
    fn read_until_line(
        &mut self,
        what: &str,
        is: impl Fn(&Line) -> bool,
        limit: Duration,
    ) -> Result<Vec<String>, ClientError> {
        self.read_to(what, |l| Line::parse(l).is_ok_and(|l| is(&l)), limit)
    }

    /// The first line starting with `prefix` within `limit` (the lines
    /// before it are dropped).
    pub fn expect(&mut self, prefix: &str, limit: Duration) -> Result<String, ClientError> {
        let mut lines = self.read_until(prefix, limit)?;
        Ok(lines.pop().unwrap_or_default())
    }

    /// The handshake ([`Handshake`], the protocol's machine, driven here
    /// with this client's pipes and clock): `ugi` … `ugiok`, `setoption`
    /// for each of `options`, `isready` … `readyok`, each line awaited at
    /// most [`Client::timeout`]. An `info string error` line before
    /// `readyok` (an option refused) is [`ClientError::Refused`]. Returns
    /// the lines before `ugiok` (its `id` and `option` lines: see
    /// [`crate::answer::option_choices`]).
    pub fn handshake(&mut self, options: &[(String, String)]) -> Result<Vec<String>, ClientError> {
        let start = Instant::now();
        let mut h = Handshake::new(Duration::ZERO, self.timeout)
            .with_options(options.iter().map(|(n, v)| SetOption::new(n, v)));
        loop {
            for command in h.commands() {
                self.command(&command)?;
            }
            let left = h
                .deadline()
                .map_or(Duration::MAX, |d| d.saturating_sub(start.elapsed()));
            let Some(line) = self.recv(left)? else {
                // Named before `overdue`, which ends the wait.
                let awaited = h.awaited().unwrap_or_default();
                if h.overdue(start.elapsed()).is_some() || left.is_zero() {
                    return Err(ClientError::Timeout {
                        prefix: awaited.to_string(),
                        limit: self.timeout,
                    });
                }
                continue;
            };
            match h.line(&line, start.elapsed()) {
                Progress::Waiting => {}
                Progress::Done => break,
                Progress::Failed(_) => return Err(ClientError::Refused(line)),
            }
        }
        for (name, value) in options {
            self.remember_option(name, value);
        }
        Ok(h.lines().to_vec())
    }

    /// The lines up to `readyok`.
    fn read_ready(&mut self) -> Result<Vec<String>, ClientError> {
        self.read_until_line("readyok", |l| *l == Line::ReadyOk, self.timeout)
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self) -> Result<(), ClientError> {
        self.command(&Command::IsReady)?;
        self.read_ready().map(|_| ())
    }

    /// `setoption name <name> value <value>`; the value is remembered
    /// ([`Client::option`]).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.command(&SetOption::new(name, value).into())?;
        self.remember_option(name, value);
        Ok(())
    }

    /// Keeps `value` as option `name`'s ([`Client::option`]).
    fn remember_option(&mut self, name: &str, value: &str) {
        match self
            .options
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(o) => o.1 = value.to_string(),
            None => self.options.push((name.to_string(), value.to_string())),
        }
    }

    /// The value last set for option `name` by this client (names compare
    /// without case, as the protocol's do).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `query <question>`: the answer after `response`, trimmed. An error
    /// line before it (a refused `position`, say) is
    /// [`ClientError::Refused`].
    pub fn query(&mut self, question: Query) -> Result<String, ClientError> {
        self.command(&Command::Query(question))?;
        let lines =
            self.read_until_line("response", |l| matches!(l, Line::Response(_)), self.timeout)?;
        if let Some(e) = lines.iter().find(|l| refusal(l).is_some()) {
            return Err(ClientError::Refused(e.clone()));
        }
        let last = lines.last().map_or("", |l| l.as_str());
        Ok(Response::parse(last)
            .map(|r| r.answer().to_string())
            .unwrap_or_default())
    }

    /// Sets up `game` (`position spn <start> moves <steps>`) and asks what
    /// the program says about it (`query spn`, `legal`, `steps`, `turn`,
    /// `gameover`, `winner`).
    pub fn sync(&mut self, game: &Game) -> Result<Snapshot, ClientError> {
        let position = PositionCommand::spn(game, game.steps().len());
        self.command(&position.into())?;
        let spn = self.query(Query::Spn)?;
        let legal = self.query(Query::Legal)?;
        let steps_left = self.query(Query::Steps)?;
        let side = self.query(Query::Turn)?;
        let gameover = self.query(Query::GameOver)?;
        let winner = self.query(Query::Winner)?;
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

    /// Asks for the next step or turn: sends the game (`position`) and
    /// `go`, and waits up to `limit` for `bestmove`.
    pub fn think(
        &mut self,
        position: &PositionCommand,
        go: &Go,
        limit: Duration,
    ) -> Result<Answer, ClientError> {
        self.ask(&[position.clone().into(), go.clone().into()], limit)
    }

    /// Sends `commands` and reads the answer up to `bestmove`, timed from
    /// the first command sent.
    fn ask(&mut self, commands: &[Command], limit: Duration) -> Result<Answer, ClientError> {
        let t0 = Instant::now();
        for c in commands {
            self.command(c)?;
        }
        let lines = self.read_answer(limit)?;
        Ok(Answer {
            lines,
            elapsed: t0.elapsed(),
        })
    }

    /// Starts a ponder search (`go ponder`) on `position` with the limits
    /// of `go`; no answer is read.
    pub fn ponder(&mut self, position: &PositionCommand, go: &Go) -> Result<(), ClientError> {
        self.command(&position.clone().into())?;
        let ponder = Go {
            ponder: true,
            ..go.clone()
        };
        self.command(&ponder.into())
    }

    /// The guess came true: `ponderhit`, then its answer (timed from the
    /// hit, as a clock counts it).
    pub fn ponderhit(&mut self, limit: Duration) -> Result<Answer, ClientError> {
        self.ask(&[Command::PonderHit], limit)
    }

    /// The guess was wrong: `stop`, and its answer read and dropped.
    pub fn cancel_ponder(&mut self) -> Result<(), ClientError> {
        self.stop()?;
        self.read_answer(self.timeout).map(|_| ())
    }

    /// `stop`: a running search answers at once (its answer is left to
    /// be read).
    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.command(&Command::Stop)
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
        let _ = self.command(&Command::Quit);
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

    #[test]
    fn errors_read_as_a_person_reads_them() {
        let refused = ClientError::Refused("info string error: no such position".into());
        assert_eq!(
            refused.to_string(),
            "the engine refused it: no such position"
        );
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
