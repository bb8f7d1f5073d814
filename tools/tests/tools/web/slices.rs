//! Every search and perft of the WebAssembly engine runs in slices, so
//! that it reads its input while it thinks: the sequences that lost the
//! engine before (an MCTS search without limits, `go depth 30`, `perft
//! 12`, the end of input during `go infinite` or `go ponder`) give the
//! native engine's lines under Node, `isready` is answered during each,
//! `stop` ends each within a second, and the end of input within the 5 s
//! protocol.md allows. Every wait has a deadline: an engine that does not
//! answer fails the test, it never hangs it.

use super::{node_engine, web_dir};
use crate::support::engine::Engine;
use splut_engine::protocol::words::Info;
use splut_rules::StepText;
use std::time::{Duration, Instant};

/// The longest a test waits for an answer.
const DEADLINE: Duration = Duration::from_secs(10);

/// One step of a sequence.
#[derive(Clone, Copy)]
enum Do {
    /// Send a line and go on at once.
    Send(&'static str),
    /// Send a line and read up to the line that starts with the prefix.
    Ask(&'static str, &'static str),
    /// Let the engine think.
    Wait(u64),
    /// Close the input and read up to the line that starts with the
    /// prefix.
    End(&'static str),
}

/// `line` as the comparison sees it: `None` for a search's report (when
/// it comes and what it says are the clock's; it is checked to read as
/// one), the turn chosen as `bestturn …` / `bestmove …` once it is seen
/// to be steps.
fn shape(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split(' ').collect();
    match words[0] {
        "info" if words.get(1) == Some(&"depth") => {
            assert!(line.parse::<Info>().is_ok(), "{line}");
            None
        }
        "bestturn" | "bestmove" => {
            assert!(words.len() >= 2, "{line}");
            for step in &words[1..] {
                assert!(StepText::parse(step).is_ok(), "{line}");
            }
            Some(format!("{} …", words[0]))
        }
        _ => Some(line.to_string()),
    }
}

/// What `engine` answers to `sequence`, shaped ([`shape`]), and how long
/// each answer read took from its line.
fn transcript(mut engine: Engine, sequence: &[Do], who: &str) -> (Vec<String>, Vec<Duration>) {
    let (mut all, mut took) = (Vec::new(), Vec::new());
    engine.send("isready");
    assert!(
        engine.read_until_within("readyok", DEADLINE).is_some(),
        "{who}: not started"
    );
    for &step in sequence {
        let (said, until) = match step {
            Do::Send(line) => {
                engine.send(line);
                (format!("> {line}"), None)
            }
            Do::Ask(line, until) => {
                engine.send(line);
                (format!("> {line}"), Some(until))
            }
            Do::Wait(ms) => {
                std::thread::sleep(Duration::from_millis(ms));
                continue;
            }
            Do::End(until) => {
                engine.close_input();
                ("> (end of input)".into(), Some(until))
            }
        };
        all.push(said.clone());
        let Some(until) = until else { continue };
        let start = Instant::now();
        let Some(lines) = engine.read_until_within(until, DEADLINE) else {
            panic!(
                "{who}: no '{until}' {DEADLINE:?} after {said}; saw {:?}",
                engine.seen
            );
        };
        took.push(start.elapsed());
        all.extend(lines.iter().filter_map(|l| shape(l)));
    }
    if matches!(sequence.last(), Some(Do::End(_))) {
        assert!(
            engine.wait_exit(DEADLINE).is_some(),
            "{who}: no exit after the end of input"
        );
    }
    (all, took)
}

/// The sequence through the native engine and the WebAssembly engine:
/// the same shaped lines; the times each took to answer, native's first.
fn both(sequence: &[Do]) -> Option<(Vec<Duration>, Vec<Duration>)> {
    let dir = web_dir()?;
    let (native, native_took) = transcript(Engine::spawn(), sequence, "native");
    let (wasm, wasm_took) = transcript(node_engine(&dir), sequence, "WebAssembly");
    assert_eq!(native, wasm, "the WebAssembly engine's lines differ");
    Some((native_took, wasm_took))
}

/// The sequence of a search or perft (`setup`) that `isready`, `query`
/// and `stop` interrupt, `last` beginning its last line after `stop`,
/// through both engines; the times `isready` and `stop` took are shown.
fn stopped(setup: &[&'static str], last: &'static str) {
    let mut sequence: Vec<Do> = setup.iter().map(|l| Do::Send(l)).collect();
    sequence.extend([
        Do::Wait(300),
        Do::Ask("isready", "readyok"),
        Do::Ask("query turn", "response"),
        Do::Wait(200),
        Do::Ask("stop", last),
        Do::Ask("isready", "readyok"),
    ]);
    let Some((native, wasm)) = both(&sequence) else {
        return;
    };
    let stop = (native[2], wasm[2]);
    eprintln!(
        "{setup:?}: stop answered in {:?} natively, {:?} under Node",
        stop.0, stop.1
    );
    eprintln!(
        "  isready in {:?} natively, {:?} under Node",
        native[0], wasm[0]
    );
    assert!(wasm[0] < Duration::from_secs(1), "isready: {:?}", wasm[0]);
    assert!(stop.1 < Duration::from_secs(1), "stop: {:?}", stop.1);
}

#[test]
fn stop_ends_an_mcts_search_without_limits() {
    stopped(
        &[
            "setoption name Algorithm value mcts",
            "position startpos",
            "go",
        ],
        "bestmove",
    );
}

#[test]
fn stop_ends_a_search_limited_by_depth_or_nodes() {
    stopped(&["position startpos", "go depth 30"], "bestmove");
    stopped(
        &["position startpos players 3", "go nodes 1000000000"],
        "bestmove",
    );
}

#[test]
fn stop_ends_perft_12() {
    stopped(&["perft 12"], "info string perft stopped");
}

#[test]
fn the_end_of_input_answers_an_infinite_or_pondering_search_at_once() {
    for go in ["go infinite", "go ponder movetime 1000"] {
        let sequence = [
            Do::Send("position startpos players 3"),
            Do::Send(go),
            Do::Wait(300),
            Do::Ask("isready", "readyok"),
            Do::End("bestmove"),
        ];
        let Some((native, wasm)) = both(&sequence) else {
            return;
        };
        let end = (native[1], wasm[1]);
        eprintln!(
            "{go}: the end of input answered in {:?} natively, {:?} under Node",
            end.0, end.1
        );
        assert!(end.1 < Duration::from_secs(5), "{go}: {:?}", end.1);
    }
}
