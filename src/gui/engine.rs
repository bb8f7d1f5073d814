//! The GUI's protocol client: one engine process, spoken to over pipes
//! (protocol.md). Every process started here is counted while it lives, so
//! `/api/status` can show that games which end leave no engine behind.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long the handshake and a query may take: a local engine answers in
/// milliseconds, so this only catches a program that does not speak the
/// protocol.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long `quit` is given before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Its process id (reported by `/api/status`).
    pub pid: u32,
    live: Arc<AtomicUsize>,
    /// The `Algorithm` last set, so it is only sent when it changes.
    pub algorithm: Option<String>,
}

/// What the engine says about the current position (`query …`).
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

impl Engine {
    /// Starts `command` (program and arguments) and does the handshake;
    /// returns the engine and the `Algorithm` choices it offers (empty if
    /// it has no such option).
    pub fn start(
        command: &[String],
        live: &Arc<AtomicUsize>,
    ) -> Result<(Engine, Vec<String>), String> {
        let (program, args) = command.split_first().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine '{program}': {e}"))?;
        live.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = channel();
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let pid = child.id();
        let mut engine = match (stdout, stdin) {
            (Some(stdout), Some(stdin)) => {
                std::thread::spawn(move || {
                    for line in BufReader::new(stdout).lines() {
                        let Ok(line) = line else { break };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                });
                Engine {
                    child,
                    stdin,
                    lines: rx,
                    pid,
                    live: live.clone(),
                    algorithm: None,
                }
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                live.fetch_sub(1, Ordering::SeqCst);
                return Err("the engine's pipes could not be opened".into());
            }
        };
        engine.send("ugi")?;
        let lines = engine.read_until("ugiok", ANSWER_TIMEOUT)?;
        let algorithms = lines
            .iter()
            .find(|l| l.starts_with("option name Algorithm "))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect()
            })
            .unwrap_or_default();
        engine.send("isready")?;
        engine.read_until("readyok", ANSWER_TIMEOUT)?;
        Ok((engine, algorithms))
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.exit_text())
    }

    /// What to say when the engine is gone.
    fn exit_text(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("the engine exited ({status})"),
            _ => "the engine closed its output".into(),
        }
    }

    /// The next line, waiting at most `timeout`: `Ok(None)` when none came.
    pub fn recv(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(Some(l)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                // Give the process a moment to be reaped so the status is known.
                let _ = self.wait_exit(Duration::from_millis(100));
                Err(self.exit_text())
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left)? {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    out.push(line);
                    if done {
                        return Ok(out);
                    }
                }
                None => {
                    return Err(format!(
                        "the engine did not answer '{prefix}' within {} ms",
                        timeout.as_millis()
                    ));
                }
            }
        }
    }

    /// `query <q>`: the answer after `response `. An error line before it
    /// (a refused `position`, say) is the error.
    pub fn query(&mut self, q: &str) -> Result<String, String> {
        self.send(&format!("query {q}"))?;
        let lines = self.read_until("response", ANSWER_TIMEOUT)?;
        if let Some(e) = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string error: "))
        {
            return Err(format!("the engine refused it: {e}"));
        }
        let last = lines.last().map_or("", |l| l.as_str());
        Ok(last
            .strip_prefix("response")
            .unwrap_or("")
            .trim()
            .to_string())
    }

    /// Sets up `position spn <start> moves <steps>` and asks the engine
    /// everything the page shows about it.
    pub fn sync(&mut self, start: &str, steps: &[String]) -> Result<Snapshot, String> {
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
            steps_left: steps_left
                .parse()
                .map_err(|_| format!("the engine answered 'query steps' with '{steps_left}'"))?,
            gameover: gameover == "true",
            winner: Some(winner).filter(|w| w != "none" && !w.is_empty()),
            legal: legal.split_whitespace().map(String::from).collect(),
        })
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `timeout` for the process to exit.
    fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Ends the process: `quit`, then a kill if it has not exited within
    /// half a second; the drop reaps it.
    pub fn stop(mut self) {
        let _ = self.send("quit");
        self.wait_exit(QUIT_GRACE);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        // Reaped either way, so no zombie is left.
        let _ = self.child.wait();
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One `info` line of a search, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u64>,
    /// `score`, e.g. `cp 14` or `win 3`.
    pub score: Option<String>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `time` in ms.
    pub time: Option<u64>,
    /// `pv`, the steps.
    pub pv: Vec<String>,
}

impl Info {
    /// Reads `info depth … pv …`; `None` for other lines (`info string`).
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        let mut any = false;
        while let Some(w) = words.next() {
            match w {
                "string" => return None,
                "depth" => info.depth = words.next().and_then(|x| x.parse().ok()),
                "nodes" => info.nodes = words.next().and_then(|x| x.parse().ok()),
                "time" => info.time = words.next().and_then(|x| x.parse().ok()),
                "score" => {
                    let kind = words.next().unwrap_or("");
                    let value = words.next().unwrap_or("");
                    info.score = Some(format!("{kind} {value}"));
                }
                "pv" => {
                    info.pv = words.by_ref().map(String::from).collect();
                }
                _ => continue,
            }
            any = true;
        }
        any.then_some(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let i = Info::parse(
            "info depth 3 seldepth 4 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 pv d2d3@e1 e3e4",
        )
        .unwrap();
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.score.as_deref(), Some("cp -14"));
        assert_eq!(i.nodes, Some(120));
        assert_eq!(i.time, Some(5));
        assert_eq!(i.pv, vec!["d2d3@e1", "e3e4"]);
        assert_eq!(Info::parse("info string continuing the planned turn"), None);
        assert_eq!(Info::parse("bestmove e2e3"), None);
    }
}
