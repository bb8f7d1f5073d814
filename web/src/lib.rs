//! The Splut! rules and engine for WebAssembly (`wasm32-unknown-unknown`):
//! the crate behind `splut.wasm` and its JavaScript in `web/js/`
//! (docs/web.md).
//!
//! Two faces, as stockfish.js and ffish.js have:
//! - [`Protocol`]: the engine, speaking the protocol of `protocol.md` a
//!   line at a time on one thread ([`splut_engine::protocol::Session::cooperative`]):
//!   every search and perft runs in slices and the host reads its input
//!   between them;
//! - [`rules::game_json`]: the rules for a page: a game replayed from its
//!   start and steps, answered with the position, the legal steps, whether
//!   it is over, the winner and the places, or why a step is refused.
//!
//! Beside them, for the static board: [`board`] (what the board shows, as
//! `splut gui`'s server shows it) and [`play`] (the game's record written
//! and read as the server writes and reads it, and an engine's `info`
//! line read by the protocol's own reader), and [`board_session`]: the
//! board's game itself, `splut gui`'s session machine
//! ([`splut_board::session`]) answering the page's API, its engine's lines
//! read by the session's reader ([`splut_board::session::reader`], which
//! `splut gui` reads them with too). Every line is typed by the protocol
//! crate ([`splut_protocol`]).
//!
//! The exports (`exports`, WebAssembly only) are plain functions over the
//! module's memory; the one import is the host's clock, `splut.now_ms`.

pub mod board;
pub mod board_session;
pub mod play;
pub mod rules;

#[cfg(target_arch = "wasm32")]
mod exports;

use splut_engine::Engine;
use splut_engine::protocol::{Flow, Output, Session};
use splut_protocol::input::{self, Line};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// What the host does after a call of [`Protocol::line`] or
/// [`Protocol::resume`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Status {
    /// Nothing runs: wait for the next line.
    Idle = 0,
    /// A search or perft runs in slices: read any input that came, then call
    /// [`Protocol::resume`].
    Thinking = 1,
    /// `quit` was read.
    Quit = 2,
}

/// The lines the engine wrote since they were last taken.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut v) => v.extend_from_slice(b),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(b),
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The engine as the protocol speaks it, on one thread.
pub struct Protocol {
    session: Session,
    lines: Lines,
    quit: bool,
}

impl Default for Protocol {
    fn default() -> Self {
        Protocol::new()
    }
}

impl Protocol {
    /// A new engine at the 2-player start position.
    pub fn new() -> Protocol {
        let lines = Lines::default();
        let out = Output::new(Box::new(lines.clone()));
        Protocol {
            session: Session::cooperative(out, Arc::new(Engine::new())),
            lines,
            quit: false,
        }
    }

    /// Handles one input line (without its `\n`); the lines it writes
    /// wait in [`Protocol::take_output`]. As [`Protocol::read`] reads its
    /// UTF-8 bytes.
    pub fn line(&mut self, text: &str) -> Status {
        self.read(text.as_bytes())
    }

    /// Handles one input line given as the bytes that came before its
    /// `\n`, read as the native engine reads stdin (`input::line_of`: a
    /// line over `MAX_LINE` bytes refused whole, one trailing `\r`
    /// dropped, bytes that are not UTF-8 read as U+FFFD, a byte-order mark
    /// part of the first word).
    pub fn read(&mut self, bytes: &[u8]) -> Status {
        if self.quit {
            return Status::Quit;
        }
        let text = match input::line_of(bytes) {
            Line::Text(text) => text,
            Line::TooLong { bytes } => {
                self.session.too_long(bytes);
                return self.status();
            }
            // Bytes are a line, never the end of the input.
            Line::End => return self.status(),
        };
        if self.session.handle(&text) == Flow::Quit {
            self.session.quit_now();
            self.quit = true;
            return Status::Quit;
        }
        self.status()
    }

    /// Runs the next slice of the search, if one runs.
    pub fn resume(&mut self) -> Status {
        if self.quit {
            return Status::Quit;
        }
        if self.session.resume() {
            Status::Thinking
        } else {
            Status::Idle
        }
    }

    /// The end of input: a search gets what a native engine's gets
    /// (`protocol::END_OF_INPUT_GRACE`), an infinite one is stopped.
    pub fn end(&mut self) {
        self.session.shutdown();
    }

    /// Whether a search waits for [`Protocol::resume`].
    fn status(&self) -> Status {
        if self.session.thinking() {
            Status::Thinking
        } else {
            Status::Idle
        }
    }

    /// The lines written since the last call, each ending in `\n`.
    pub fn take_output(&mut self) -> String {
        let bytes = match self.lines.0.lock() {
            Ok(mut v) => std::mem::take(&mut *v),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// `splut bench`'s lines, run in this module (one thread, 16 MiB table).
pub fn bench(args: &str) -> String {
    let mut words = args.split_whitespace();
    let mut depth = None;
    let mut eval = "auto".to_string();
    let mut out = Vec::new();
    while let Some(w) = words.next() {
        match (w, words.next()) {
            ("--depth", Some(d)) => match d.parse() {
                Ok(d) => depth = Some(d),
                Err(_) => return format!("error: bench: --depth takes a number, found '{d}'\n"),
            },
            ("--eval", Some(e)) if ["auto", "hand", "nnue"].contains(&e) => eval = e.into(),
            _ => {
                return format!(
                    "error: bench: expected --depth <d> and --eval auto|hand|nnue, found '{w}'\n"
                );
            }
        }
    }
    let mut err = Vec::new();
    splut_engine::bench::run_to(&mut out, &mut err, depth, 1, &eval);
    out.extend_from_slice(&err);
    String::from_utf8_lossy(&out).into_owned()
}

/// The network kernels of this build against the portable loops:
/// `ok simd128` or `ok portable`, or the first difference.
pub fn selftest() -> String {
    let kind = if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        "simd128"
    } else {
        "portable"
    };
    match splut_engine::eval::nnue::check_base_kernels(2000) {
        Ok(()) => format!("ok {kind}"),
        Err(e) => format!("error {kind}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_protocol::input::MAX_LINE;

    #[test]
    fn lines_in_lines_out() {
        let mut p = Protocol::new();
        assert_eq!(p.line("isready"), Status::Idle);
        assert_eq!(p.take_output(), "readyok\n");
        assert_eq!(p.line("go nodes 500"), Status::Idle);
        assert!(p.take_output().contains("\nbestmove "));
        assert_eq!(p.line("go infinite"), Status::Thinking);
        assert_eq!(p.resume(), Status::Thinking);
        assert_eq!(p.line("stop"), Status::Idle);
        assert!(p.take_output().contains("\nbestmove "));
        assert_eq!(p.line(&"x".repeat(MAX_LINE + 1)), Status::Idle);
        assert!(
            p.take_output()
                .starts_with("info string error: line too long")
        );
        // Bytes as the native engine reads them: one trailing '\r' off,
        // the length counted before it and before U+FFFD replaces bad bytes.
        assert_eq!(p.read(b"isready\r"), Status::Idle);
        assert_eq!(p.take_output(), "readyok\n");
        assert_eq!(p.read(b"isready\r\r"), Status::Idle);
        assert!(p.take_output().starts_with("info string error: control"));
        assert_eq!(p.read("\u{feff}isready".as_bytes()), Status::Idle);
        assert!(p.take_output().starts_with("info string error: unknown"));
        let mut full = vec![0xff; MAX_LINE];
        assert_eq!(p.read(&full), Status::Idle);
        assert!(p.take_output().starts_with("info string error: unknown"));
        full.push(b'\r');
        assert_eq!(p.read(&full), Status::Idle);
        assert!(
            p.take_output()
                .starts_with("info string error: line too long (1048577 bytes")
        );
        assert_eq!(p.line("quit"), Status::Quit);
        assert_eq!(p.line("isready"), Status::Quit);
    }

    #[test]
    fn the_kernels_check_and_bench_answers() {
        assert_eq!(selftest(), "ok portable");
        assert!(bench("--depth x").starts_with("error: bench"));
        assert!(bench("--eval nope").starts_with("error: bench"));
    }
}
