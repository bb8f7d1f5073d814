//! Drives the real `splut` binary through the protocol, as a GUI would:
//! the protocol client of `splut_play` (the one the tournament and the
//! web board use), with the panics and the record of lines a test wants.
#![allow(dead_code)]

use splut_play::client::Client;
use std::time::{Duration, Instant};

/// A running engine.
pub struct Engine {
    client: Client,
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
        Engine::spawn_command(&[super::SPLUT])
    }

    /// Starts another program that speaks the protocol (`command`: the
    /// program and its arguments), without a handshake.
    pub fn spawn_command(command: &[&str]) -> Engine {
        Engine {
            client: Client::spawn(command).expect("start the engine"),
            seen: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.client.send(line).expect("write to engine");
    }

    /// Sends raw bytes (half lines, garbage).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.client.send_raw(bytes).expect("write to engine");
    }

    /// Closes the engine's input.
    pub fn close_input(&mut self) {
        self.client.close_input();
    }

    /// The next line, or `None` after `timeout` (or once the output is
    /// closed).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let line = self.client.recv(timeout).ok().flatten()?;
        self.seen.push(line.clone());
        Some(line)
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
        self.client.wait_exit(timeout)
    }

    /// Sends `quit` and waits for the process to end.
    pub fn quit(self) -> std::process::ExitStatus {
        self.client
            .quit(Duration::from_secs(10))
            .expect("engine did not quit")
    }
}
