//! Drives the real `splut` binary through the protocol, as a GUI would.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the engine and does the `ugi`/`isready` handshake.
    pub fn start() -> Engine {
        let mut e = Engine::spawn();
        e.send("ugi");
        e.expect("ugiok");
        e.send("isready");
        e.expect("readyok");
        e
    }

    /// Starts the engine without a handshake.
    pub fn spawn() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_splut"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start splut");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
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
            seen: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (half lines, garbage).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that starts with `prefix`;
    /// panics after 60 s.
    pub fn read_until(&mut self, prefix: &str) -> Vec<String> {
        self.read_until_within(prefix, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("no '{prefix}' line; saw {:?}", self.seen))
    }

    /// Like [`Self::read_until`], `None` if `timeout` passes first.
    pub fn read_until_within(&mut self, prefix: &str, timeout: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let line = self.next_line(left)?;
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return Some(out);
            }
        }
    }

    /// The first line starting with `prefix` (earlier lines are skipped).
    pub fn expect(&mut self, prefix: &str) -> String {
        self.read_until(prefix).pop().unwrap_or_default()
    }

    /// Sends a query and returns the answer after `response `.
    pub fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.expect("response ");
        line["response ".len()..].to_string()
    }

    /// Sends `go …` and returns (all lines, bestturn steps, bestmove).
    pub fn go(&mut self, args: &str) -> (Vec<String>, Vec<String>, String) {
        self.send(&format!("go {args}"));
        self.finish_search()
    }

    /// Reads a search's remaining lines up to `bestmove`.
    pub fn finish_search(&mut self) -> (Vec<String>, Vec<String>, String) {
        let lines = self.read_until("bestmove ");
        let n = lines.len();
        assert!(n >= 2, "{lines:?}");
        let turn_line = &lines[n - 2];
        assert!(
            turn_line.starts_with("bestturn "),
            "bestturn must come right before bestmove: {lines:?}"
        );
        let turn: Vec<String> = turn_line["bestturn ".len()..]
            .split(' ')
            .map(String::from)
            .collect();
        let best = lines[n - 1]["bestmove ".len()..].to_string();
        (lines, turn, best)
    }

    /// Waits up to `timeout` for the process to end by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `quit` and waits for the process to end.
    pub fn quit(mut self) -> std::process::ExitStatus {
        let _ = self.stdin.as_mut().map(|s| s.write_all(b"quit\n"));
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
