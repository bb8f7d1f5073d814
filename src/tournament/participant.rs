//! Tournament participants: programs that speak the protocol, driven over
//! pipes. A built-in engine is this program itself started with the options
//! that select its algorithm; an external one is any command line.
//!
//! This is the tournament's whole protocol client: the handshake, the
//! `position` and `go` commands, reading with a deadline and reading
//! `bestturn` / `bestmove` back (protocol.md).

use super::judge::Forfeit;
use crate::game::{Game, Seat};
use crate::options::{self, Id, Kind, OPTIONS, Spec};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a participant may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Milliseconds per turn.
    Movetime(u64),
    /// Nodes per turn.
    Nodes(u64),
    /// Depth (steps) per turn.
    Depth(u32),
    /// A clock: milliseconds for the game plus an increment per turn.
    Clock {
        /// Time for the game.
        time_ms: u64,
        /// Added after every turn.
        inc_ms: u64,
    },
}

impl TimeControl {
    /// Parses `movetime=100`, `nodes=5000`, `depth=6` or `clock=60+0.5`
    /// (seconds and increment in seconds; `60+0.5` alone also works).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (kind, value) = s.split_once('=').unwrap_or(("clock", s));
        let number = |v: &str, max: u64, unit: &str| {
            let n = v
                .parse::<u64>()
                .map_err(|_| format!("time control '{s}': '{v}' is not a whole number"))?;
            if n > max {
                return Err(format!("time control '{s}': at most {max}{unit}"));
            }
            Ok(n)
        };
        // Checked before converting, so a huge number is an error rather
        // than a saturated clock.
        let seconds = |v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("time control '{s}': '{v}' is not a number of seconds"))
                .and_then(|x| {
                    if x * 1000.0 > MAX_TIME_MS as f64 {
                        Err(format!(
                            "time control '{s}': at most {} s",
                            MAX_TIME_MS / 1000
                        ))
                    } else {
                        Ok((x * 1000.0).round() as u64)
                    }
                })
        };
        match kind {
            "movetime" => Ok(TimeControl::Movetime(
                number(value, MAX_TIME_MS, " ms (a day)")?.max(1),
            )),
            "nodes" => Ok(TimeControl::Nodes(
                number(value, MAX_NODES, " nodes")?.max(1),
            )),
            "depth" => {
                let d = number(value, MAX_DEPTH, " steps")?;
                if d == 0 {
                    return Err(format!("time control '{s}': the depth must be at least 1"));
                }
                Ok(TimeControl::Depth(d as u32))
            }
            "clock" => {
                let (t, i) = value.split_once('+').unwrap_or((value, "0"));
                let time_ms = seconds(t)?;
                if time_ms == 0 {
                    return Err(format!("time control '{s}': the clock needs some time"));
                }
                Ok(TimeControl::Clock {
                    time_ms,
                    inc_ms: seconds(i)?,
                })
            }
            _ => Err(format!(
                "time control '{s}': expected movetime=<ms>, nodes=<n>, depth=<steps> or clock=<s>+<inc s>"
            )),
        }
    }
}

/// Longest movetime, clock time or increment: a day, which keeps every
/// clock sum of a game far from overflowing.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Most nodes per turn (`nodes=`): a trillion, hours of search.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// Deepest `go depth` (`depth=`): the engine's deepest iteration, 100
/// steps (protocol.md, `go depth`).
pub const MAX_DEPTH: u64 = 100;

/// The built-in engine's default `Hash`, in MiB (protocol.md, options).
pub const BUILTIN_HASH_MIB: usize = match OPTIONS[Id::Hash as usize].kind {
    Kind::Spin { default, .. } => default as usize,
    _ => 64,
};

/// Checks a participant's `hash=`, `threads=`, `option.Hash=` or
/// `option.Threads=` setting (`word` as written) against the engine's
/// option table: the tournament sums tables and counts threads, so these
/// are bounded for any program. Other names pass here
/// ([`ParticipantSpec::check_options`] checks them for the built-in
/// engine).
pub fn check_resource_option(word: &str, name: &str, value: &str) -> Result<(), String> {
    match options::find(name) {
        Some(spec) if matches!(spec.id, Id::Hash | Id::Threads) => check_option(word, spec, value),
        _ => Ok(()),
    }
}

/// Checks one value against its row of the option table; a spin's error
/// gives its bounds.
fn check_option(word: &str, spec: &Spec, value: &str) -> Result<(), String> {
    spec.parse(value).map(|_| ()).map_err(|e| match spec.kind {
        Kind::Spin { min, max, unit, .. } => {
            format!("engine setting '{word}': expected {min} to {max}{unit}")
        }
        _ => format!("engine setting '{word}': {e}"),
    })
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Movetime(m) => write!(f, "movetime={m}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Clock { time_ms, inc_ms } => {
                write!(
                    f,
                    "clock={}+{}",
                    *time_ms as f64 / 1000.0,
                    *inc_ms as f64 / 1000.0
                )
            }
        }
    }
}

/// How to start a participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// This program with `Algorithm` set.
    Builtin {
        /// The `Algorithm` option value.
        algorithm: String,
    },
    /// Any program speaking the protocol.
    External {
        /// Program and arguments.
        command: Vec<String>,
    },
}

/// A participant as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParticipantSpec {
    /// Name in standings and records.
    pub name: String,
    /// What to run.
    pub program: Program,
    /// `setoption` name/value pairs sent after the handshake.
    pub options: Vec<(String, String)>,
    /// Time control.
    pub tc: TimeControl,
    /// How long it may take to answer when no clock or movetime says so:
    /// the handshake (`ugiok`, `readyok`) and a turn under `nodes` or
    /// `depth`. Missing it forfeits the game.
    pub timeout: Duration,
    /// Think on the other seats' time (`go ponder` on the turns its last
    /// line guessed, `ponderhit` when they come true).
    pub ponder: bool,
}

impl ParticipantSpec {
    /// Checks the `setoption` pairs of a built-in participant against the
    /// engine's option table (an unknown name or a bad value is an error:
    /// the engine would only answer it with an error line nobody reads).
    /// An external program's options are its own and pass.
    pub fn check_options(&self) -> Result<(), String> {
        if let Program::Builtin { .. } = self.program {
            for (name, value) in &self.options {
                let word = format!("option.{name}={value}");
                let spec = options::find(name).ok_or_else(|| {
                    let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                    format!(
                        "engine setting '{word}': this engine has no option '{name}' (options: {})",
                        names.join(", ")
                    )
                })?;
                check_option(&word, spec, value)?;
            }
        }
        Ok(())
    }
}

/// The default [`ParticipantSpec::timeout`]: a minute per answer, far
/// beyond any sensible node or depth limit, yet a hung engine costs a
/// minute, not the tournament.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// The longest [`ParticipantSpec::timeout`] that may be asked for: a day.
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// Why a participant failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or its pipes closed.
    Crashed(String),
    /// No answer in time.
    Timeout(String),
    /// It refused an option it was given (an `info string error` line
    /// before `readyok`): it would play with settings other than asked.
    Refused(String),
}

impl From<Failure> for Forfeit {
    fn from(f: Failure) -> Forfeit {
        match f {
            Failure::Crashed(s) => Forfeit::Crashed(s),
            Failure::Timeout(s) => Forfeit::TimedOut(s),
            Failure::Refused(s) => Forfeit::Crashed(s),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(s) => write!(f, "crashed ({s})"),
            Failure::Timeout(s) => write!(f, "timed out ({s})"),
            Failure::Refused(s) => write!(f, "refused ({s})"),
        }
    }
}

/// A running participant.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Process {
    /// Starts a participant and does the handshake (`ugi` … `ugiok`, its
    /// options, `isready` … `readyok`).
    pub fn start(spec: &ParticipantSpec) -> Result<Process, Failure> {
        let (program, args, mut options) = match &spec.program {
            Program::Builtin { algorithm } => {
                let exe = std::env::current_exe()
                    .map_err(|e| Failure::Crashed(format!("cannot find this program: {e}")))?;
                let mut options = vec![("Algorithm".to_string(), algorithm.clone())];
                options.extend(spec.options.iter().cloned());
                (exe.into_os_string(), Vec::new(), options)
            }
            Program::External { command } => {
                let (first, rest) = command
                    .split_first()
                    .ok_or_else(|| Failure::Crashed("empty command".into()))?;
                (first.into(), rest.to_vec(), spec.options.clone())
            }
        };
        let mut child = Command::new(&program)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                Failure::Crashed(format!("cannot start {}: {e}", program.to_string_lossy()))
            })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Failure::Crashed("no stdout".into()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| Failure::Crashed("no stdin".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Process {
            child,
            stdin,
            lines: rx,
            timeout: spec.timeout,
        };
        p.send("ugi")?;
        p.read_until("ugiok", spec.timeout)?;
        for (name, value) in options.drain(..) {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        p.send("isready")?;
        let lines = p.read_until("readyok", p.timeout)?;
        if let Some(e) = lines.iter().find(|l| l.starts_with("info string error")) {
            return Err(Failure::Refused(format!("it refused an option: {e}")));
        }
        Ok(p)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crashed(format!("cannot write: {e}")))
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.read_until("readyok", self.timeout).map(|_| ())
    }

    /// Its [`ParticipantSpec::timeout`].
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Lines up to and including the first starting with `prefix`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, Failure> {
        // No deadline this far off is reachable; `None` waits for ever.
        let deadline = Instant::now().checked_add(timeout);
        let mut out = Vec::new();
        loop {
            let left = deadline.map_or(Duration::MAX, |d| {
                d.saturating_duration_since(Instant::now())
            });
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    out.push(line);
                    if done {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::Timeout(format!(
                        "no '{prefix}' within {} ms",
                        timeout.as_millis()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .try_wait()
                        .ok()
                        .flatten()
                        .map_or("output closed".to_string(), |s| s.to_string());
                    return Err(Failure::Crashed(status));
                }
            }
        }
    }

    /// Asks for the next step or turn: sends the game (`position …`) and
    /// `go …`, and waits up to `limit` for `bestmove`.
    pub fn think(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, Failure> {
        self.ask(&[position, go], limit)
    }

    /// Sends `commands` and reads the answer up to `bestmove`, timed from
    /// the first command sent.
    fn ask(&mut self, commands: &[&str], limit: Duration) -> Result<Answer, Failure> {
        let t0 = Instant::now();
        for c in commands {
            self.send(c)?;
        }
        let lines = self.read_until("bestmove", limit)?;
        Ok(Answer {
            lines,
            elapsed: t0.elapsed(),
        })
    }

    /// Starts a ponder search (`go ponder`) on `position` with the limits
    /// of `go` (a `go …` command); no answer is read.
    pub fn ponder(&mut self, position: &str, go: &str) -> Result<(), Failure> {
        self.send(position)?;
        let limits = go.strip_prefix("go").unwrap_or(go);
        self.send(&format!("go ponder{limits}"))
    }

    /// The guess came true: `ponderhit`, then its answer (timed from the
    /// hit, as the clock counts it).
    pub fn ponderhit(&mut self, limit: Duration) -> Result<Answer, Failure> {
        self.ask(&["ponderhit"], limit)
    }

    /// The guess was wrong: `stop`, and its answer read and dropped.
    pub fn cancel_ponder(&mut self) -> Result<(), Failure> {
        self.send("stop")?;
        self.read_until("bestmove", self.timeout).map(|_| ())
    }

    /// Ends the process (politely, then for sure).
    pub fn stop(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A participant's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The lines it wrote, the `bestmove` line last.
    lines: Vec<String>,
    /// From sending the game to reading `bestmove`.
    pub elapsed: Duration,
}

impl Answer {
    /// The principal variation of its last `info … pv …` line.
    pub fn pv(&self) -> Vec<String> {
        self.lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info ") && l.contains(" pv "))
            .and_then(|l| l.split_once(" pv "))
            .map(|(_, pv)| pv.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }

    /// The steps it plays, as it wrote them: its `bestturn` (the whole
    /// rest of its turn, which `bestmove` must begin), or else its
    /// `bestmove` alone (a plain UGI engine, asked again for each step).
    pub fn steps(&self) -> Result<Vec<String>, Forfeit> {
        let best = self
            .lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("");
        let turn: Vec<&str> = self
            .lines
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("bestturn "))
            .map(|t| t.split_whitespace().collect())
            .unwrap_or_default();
        match turn.first() {
            Some(&first) if first != best => Err(Forfeit::BestMoveNotInTurn {
                best: best.to_string(),
                turn: turn.join(" "),
            }),
            Some(_) => Ok(turn.into_iter().map(String::from).collect()),
            None if best.is_empty() => Err(Forfeit::NoStep),
            None => Ok(vec![best.to_string()]),
        }
    }
}

/// A seat's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The seat.
    pub seat: Seat,
    /// Milliseconds left.
    pub left_ms: u64,
    /// Milliseconds added after each of its turns.
    pub inc_ms: u64,
}

/// The `position` command for a game: `startpos` (with its player count)
/// or the start's SPN, then every step played.
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

/// The `go` command for a time control: the clocks of every seat that has
/// one, and for 2 players also as UGI's p1/p2 (`p1` is the first mover).
pub fn go_command(tc: TimeControl, clocks: &[Clock], p1: Seat) -> String {
    match tc {
        TimeControl::Movetime(m) => format!("go movetime {m}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Clock { .. } => {
            let mut cmd = String::from("go");
            for c in clocks {
                let l = c.seat.letter();
                let _ = write!(cmd, " {l}time {} {l}inc {}", c.left_ms, c.inc_ms);
            }
            // Plain UGI engines only know p1/p2 clocks (2 players).
            if let [a, b] = clocks {
                let (p1c, p2c) = if a.seat == p1 { (a, b) } else { (b, a) };
                let _ = write!(
                    cmd,
                    " p1time {} p2time {} p1inc {} p2inc {}",
                    p1c.left_ms, p2c.left_ms, p1c.inc_ms, p2c.inc_ms
                );
            }
            cmd
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        for (text, tc) in [
            ("movetime=100", TimeControl::Movetime(100)),
            ("nodes=5000", TimeControl::Nodes(5000)),
            ("depth=6", TimeControl::Depth(6)),
            (
                "clock=60+0.5",
                TimeControl::Clock {
                    time_ms: 60_000,
                    inc_ms: 500,
                },
            ),
            (
                "10+0.1",
                TimeControl::Clock {
                    time_ms: 10_000,
                    inc_ms: 100,
                },
            ),
            (
                "clock=5",
                TimeControl::Clock {
                    time_ms: 5_000,
                    inc_ms: 0,
                },
            ),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(tc), "{text}");
        }
        assert_eq!(
            TimeControl::Clock {
                time_ms: 60_000,
                inc_ms: 500
            }
            .to_string(),
            "clock=60+0.5"
        );
        for bad in [
            "movetime=x",
            "speed=3",
            "clock=0",
            "clock=-1+0",
            "nodes=",
            "movetime=86400001",
            "nodes=1000000000001",
            "depth=0",
            "depth=101",
            "clock=1e300",
            "clock=60+86401",
            "clock=inf",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_options_are_checked_by_the_table() {
        assert_eq!(check_resource_option("hash=16", "Hash", "16"), Ok(()));
        assert_eq!(
            check_resource_option("hash=0", "Hash", "0"),
            Err("engine setting 'hash=0': expected 1 to 65536 MiB".into())
        );
        assert!(
            check_resource_option("option.threads=300", "threads", "300")
                .unwrap_err()
                .contains("expected 1 to 256 threads")
        );
        // Other names are the program's own business here.
        assert_eq!(check_resource_option("option.Foo=x", "Foo", "x"), Ok(()));
        let mut spec = ParticipantSpec {
            name: "a".into(),
            program: Program::Builtin {
                algorithm: "greedy".into(),
            },
            options: vec![("evalfile".into(), "w.txt".into())],
            tc: TimeControl::Depth(1),
            timeout: Duration::from_secs(1),
            ponder: false,
        };
        assert_eq!(spec.check_options(), Ok(()));
        spec.options.push(("MctsParallel".into(), "leaf".into()));
        assert!(spec.check_options().unwrap_err().contains(
            "'option.MctsParallel=leaf': option MctsParallel: 'leaf' is not one of tree, root"
        ));
        spec.options = vec![("Ponder".into(), "true".into())];
        assert!(
            spec.check_options()
                .unwrap_err()
                .contains("no option 'Ponder'")
        );
        spec.program = Program::External {
            command: vec!["other".into()],
        };
        assert_eq!(spec.check_options(), Ok(()));
    }
}
