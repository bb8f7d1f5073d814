//! The module's exports: plain functions over its memory. Text goes in
//! through one input buffer (`input(len)` returns where to write `len`
//! bytes of UTF-8) and comes out through one result buffer (a function
//! that answers text returns its length in bytes, to be read at
//! `result()`). One engine per module instance; calls never overlap (one
//! thread). The one import is `splut.now_ms`, the host's clock.
#![allow(unsafe_code)]

use crate::board_session::BoardSession;
use crate::{Protocol, Status};
use std::cell::RefCell;
use std::time::Duration;

#[link(wasm_import_module = "splut")]
unsafe extern "C" {
    /// Milliseconds on the host's monotonic clock (`performance.now()`).
    fn now_ms() -> f64;
}

fn host_now() -> f64 {
    // SAFETY: an import taking nothing and returning a number.
    unsafe { now_ms() }
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ENGINE: RefCell<Option<Protocol>> = const { RefCell::new(None) };
    static BOARD: RefCell<Option<BoardSession>> = const { RefCell::new(None) };
}

/// The input text of the current call (its invalid UTF-8 replaced).
fn input_text() -> String {
    INPUT.with_borrow(|b| String::from_utf8_lossy(b).into_owned())
}

/// Leaves `text` in the result buffer; returns its length.
fn answer(text: String) -> usize {
    answer_text(text)
}

/// As [`answer`].
fn answer_text(text: String) -> usize {
    RESULT.with_borrow_mut(|r| {
        *r = text.into_bytes();
        r.len()
    })
}

/// Where to write `len` bytes of input for the next call.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|b| {
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// Where the last answer is (its length was returned).
#[unsafe(no_mangle)]
pub extern "C" fn result() -> *const u8 {
    RESULT.with_borrow(|r| r.as_ptr())
}

fn with_engine(f: impl FnOnce(&mut Protocol) -> Status) -> u32 {
    splut_engine::clock::set_source(host_now);
    ENGINE.with_borrow_mut(|e| f(e.get_or_insert_with(Protocol::new))) as u32
}

/// The engine reads the input buffer's bytes as one protocol line (the
/// bytes before its `\n`, read as natively: `Protocol::read`): 0 idle, 1
/// thinking (call `engine_resume` after reading any input), 2 quit.
#[unsafe(no_mangle)]
pub extern "C" fn engine_line() -> u32 {
    let line = INPUT.with_borrow_mut(std::mem::take);
    with_engine(|e| e.read(&line))
}

/// The next slice of the engine's search: as `engine_line`.
#[unsafe(no_mangle)]
pub extern "C" fn engine_resume() -> u32 {
    with_engine(Protocol::resume)
}

/// The end of input (a search gets what a native engine's gets).
#[unsafe(no_mangle)]
pub extern "C" fn engine_end() {
    with_engine(|e| {
        e.end();
        Status::Idle
    });
}

/// The engine's lines since the last call, into the result buffer.
#[unsafe(no_mangle)]
pub extern "C" fn engine_output() -> usize {
    let text = ENGINE.with_borrow_mut(|e| e.as_mut().map(Protocol::take_output));
    answer(text.unwrap_or_default())
}

/// The rules: the input is the start (`2`..`4` or an SPN), a newline, and
/// the steps; the answer is `rules::game_json`'s.
#[unsafe(no_mangle)]
pub extern "C" fn rules_game() -> usize {
    let (start, steps) = two_lines();
    answer(crate::rules::game_json(&start, &steps))
}

/// The rules: as `rules_game`, the answer `rules::history_json`'s.
#[unsafe(no_mangle)]
pub extern "C" fn rules_history() -> usize {
    let (start, steps) = two_lines();
    answer(crate::rules::history_json(&start, &steps))
}

/// The input's two lines, or the whole input and nothing.
fn two_lines() -> (String, String) {
    let text = input_text();
    match text.split_once('\n') {
        Some((a, b)) => (a.to_string(), b.to_string()),
        None => (text, String::new()),
    }
}

/// The board: the input is an SPN and a seat letter on two lines; the
/// answer `board::threats_json`'s.
#[unsafe(no_mangle)]
pub extern "C" fn board_threats() -> usize {
    let (spn, seat) = two_lines();
    answer(crate::board::threats_json(&spn, &seat))
}

/// The board: a start and steps on two lines (as `rules_game`);
/// `board::events_json`'s answer.
#[unsafe(no_mangle)]
pub extern "C" fn board_events() -> usize {
    let (start, steps) = two_lines();
    answer(crate::board::events_json(&start, &steps))
}

/// The match: a game on the board as its record (`play::record_json`):
/// the input is its JSON (`start`, `steps`, `seats`), the answer
/// `{"record": text}` or `{"error": why}`.
#[unsafe(no_mangle)]
pub extern "C" fn play_record() -> usize {
    answer(crate::play::record_json(&input_text()))
}

/// The match: a records file's text; the answer `play::read_record_json`'s
/// (the first game's start and steps, or the board's refusal).
#[unsafe(no_mangle)]
pub extern "C" fn play_read_record() -> usize {
    answer(crate::play::read_record_json(&input_text()))
}

/// The match: one engine line; the answer `play::info_json`'s (a search's
/// report as the board shows it, or `null`).
#[unsafe(no_mangle)]
pub extern "C" fn play_info() -> usize {
    answer(crate::play::info_json(&input_text()))
}

/// The static board's session (`board_session::BoardSession::call`):
/// the input is three lines, what is called (`new_game`, `step`,
/// `engine_line`, `commands`, …), the game's id and the body (the rest,
/// which may hold newlines); `now_ms` is the host's clock. The answer is
/// `{"ok": value}` or `{"error": why}`.
#[unsafe(no_mangle)]
pub extern "C" fn board_session(now_ms: f64) -> usize {
    let text = input_text();
    let mut parts = text.splitn(3, '\n');
    let (what, id, body) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    // A clock that is not a number reads as its start.
    let now = Duration::try_from_secs_f64(now_ms.max(0.0) / 1000.0).unwrap_or_default();
    splut_engine::clock::set_source(host_now);
    let answer = BOARD.with_borrow_mut(|b| {
        b.get_or_insert_with(BoardSession::new)
            .call(what, id, body, now)
    });
    answer_text(answer)
}

/// `splut bench` with the input's arguments (`--depth d`, `--eval e`).
#[unsafe(no_mangle)]
pub extern "C" fn bench() -> usize {
    splut_engine::clock::set_source(host_now);
    answer(crate::bench(&input_text()))
}

/// The network kernels against the portable loops (`crate::selftest`).
#[unsafe(no_mangle)]
pub extern "C" fn selftest() -> usize {
    answer(crate::selftest())
}
