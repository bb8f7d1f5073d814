//! The native engine beside the WebAssembly one (`SPLUT_FUZZ_WASM`): it
//! gets every byte the engine under test gets, at the same moments, and
//! its answers are compared with that engine's where `protocol.md` fixes
//! them.
//!
//! An engine's output is two streams, each in a fixed order: the answers to
//! commands (errors, `response`, `readyok`, `id`/`option`/`ugiok`, `d`'s
//! board) come in the order of the lines that asked; a job's lines
//! (`info …`, `bestturn`/`bestmove`, perft rows and `nodes`) come in the
//! order of the jobs, but interleave with the answers wherever the job's
//! thread (or slice) happens to be. The answers are compared action by
//! action, line for line; the jobs one by one, in full where the search is
//! the same on both (limited by depth or nodes, one thread, the same
//! table: [`timeless`] takes the clock's words out) and only for their
//! shape otherwise.

use super::driver::{Driver, escape};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Whether an output line belongs to a job (a search or a perft) rather
/// than to the answer of a command.
pub fn is_job_line(line: &str) -> bool {
    (line.starts_with("info ") && !line.starts_with("info string"))
        || line == "info string perft stopped; no count"
        || line == "info string continuing the planned turn"
        || line.starts_with("bestturn")
        || line.starts_with("bestmove")
        || is_job_end(line)
        || is_perft_row(line)
}

/// Whether an output line is a job's last: `bestmove`, `nodes <n>` or a
/// stopped perft's note.
pub fn is_job_end(line: &str) -> bool {
    line.starts_with("bestmove")
        || line == "info string perft stopped; no count"
        || line
            .strip_prefix("nodes ")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether an output line is a perft row, `<step> <count>`.
pub fn is_perft_row(line: &str) -> bool {
    let mut words = line.split(' ');
    let (Some(step), Some(n), None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    let b = step.as_bytes();
    let step_like =
        step == "pass" || (b.len() >= 4 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit());
    step_like && !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())
}

/// A job line without the words that depend on the clock (`time`, `nps`,
/// `hashfull` and their values).
pub fn timeless(line: &str) -> String {
    if !line.starts_with("info ") || line.starts_with("info string") {
        return line.to_string();
    }
    let words: Vec<&str> = line.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(words[i], "time" | "nps" | "hashfull") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// An answer as compared: the operating system's words in an `EvalFile`
/// error taken out. WebAssembly (`wasm32-unknown-unknown`) has no files,
/// so `setoption name EvalFile value x` fails there with "operation not
/// supported on this platform" where the native engine names why it could
/// not open `x` ("No such file or directory (os error 2)"); the rest of
/// the line is the same.
pub fn comparable(line: &str) -> String {
    let Some((head, rest)) = line.split_once("cannot read '") else {
        return line.to_string();
    };
    let Some((path, reason)) = rest.split_once("': ") else {
        return line.to_string();
    };
    let tail = reason.find("; the weights").map_or("", |i| &reason[i..]);
    format!("{head}cannot read '{path}': (the system's reason){tail}")
}

/// The native engine as a twin.
pub struct Twin {
    /// Its process.
    pub driver: Driver,
    /// The lines of the job running now.
    job: Vec<String>,
    /// Jobs ended and not yet compared, their lines in order.
    pub jobs: VecDeque<Vec<String>>,
    /// Jobs ended in all.
    pub ended: u64,
    /// Answers read and not yet compared.
    answers: Vec<String>,
    readyoks: usize,
}

impl Twin {
    /// Starts the native binary.
    pub fn spawn() -> Twin {
        Twin {
            driver: Driver::spawn(),
            job: Vec::new(),
            jobs: VecDeque::new(),
            ended: 0,
            answers: Vec::new(),
            readyoks: 0,
        }
    }

    /// Reads one line if one comes by `until`; false on timeout or when
    /// the output ended.
    fn pump(&mut self, until: Instant) -> bool {
        let wait = until.saturating_duration_since(Instant::now());
        let Ok(Some(raw)) = self.driver.recv(wait.max(Duration::from_millis(1))) else {
            return false;
        };
        let text = String::from_utf8_lossy(&raw).into_owned();
        if is_job_line(&text) {
            let end = is_job_end(&text);
            self.job.push(text);
            if end {
                self.ended += 1;
                self.jobs.push_back(std::mem::take(&mut self.job));
            }
        } else {
            if text == "readyok" {
                self.readyoks += 1;
            }
            self.answers.push(text);
        }
        true
    }

    /// The answers up to the `readyoks`-th `readyok` since the last
    /// window; `Err` with what came if it does not come within `timeout`.
    pub fn window(
        &mut self,
        readyoks: usize,
        timeout: Duration,
    ) -> Result<Vec<String>, Vec<String>> {
        let until = Instant::now() + timeout;
        while self.readyoks < readyoks {
            if !self.pump(until) {
                self.readyoks = 0;
                return Err(std::mem::take(&mut self.answers));
            }
        }
        self.readyoks = 0;
        Ok(std::mem::take(&mut self.answers))
    }

    /// Waits until `ended` jobs have ended (as many as the engine under
    /// test has ended: the two then start the next line equally idle).
    pub fn settle(&mut self, ended: u64, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        while self.ended < ended {
            if !self.pump(until) {
                return false;
            }
        }
        true
    }

    /// The end of its transcript, for a report.
    pub fn tail(&self, n: usize) -> String {
        let t = &self.driver.transcript;
        let from = t.len().saturating_sub(n);
        t.iter().skip(from).cloned().collect::<Vec<_>>().join("\n")
    }
}

/// Lines for a report: escaped, at most `n`.
pub fn show(lines: &[String], n: usize) -> String {
    let mut s: Vec<String> = lines
        .iter()
        .take(n)
        .map(|l| escape(l.as_bytes(), 200))
        .collect();
    if lines.len() > n {
        s.push(format!("… ({} lines in all)", lines.len()));
    }
    s.join(" | ")
}
