//! The protocol driven a slice at a time, against a native session.

use super::super::{Flow, Output};
use super::*;
use crate::engine::Engine;
use crate::protocol::sink::Sink;

fn session(cooperative: bool) -> (Session, Sink) {
    let sink = Sink::default();
    let out = Output::new(Box::new(sink.clone()));
    let engine = Arc::new(Engine::new());
    let s = if cooperative {
        Session::cooperative(out, engine)
    } else {
        Session::with_engine(out, engine)
    };
    (s, sink)
}

/// The lines of `lines` fed to a session, waiting for each search's
/// answer (slices run as a host would run them), times removed.
fn transcript(cooperative: bool, lines: &[&str]) -> Vec<String> {
    let (mut s, sink) = session(cooperative);
    let mut all = Vec::new();
    for line in lines {
        assert_eq!(s.handle(line), Flow::Continue);
        while s.resume() {}
        if line.starts_with("go") || line.starts_with("perft") {
            while !all_lines(&sink, &mut all).contains("bestmove") && !line.starts_with("perft") {
                std::thread::sleep(Duration::from_millis(2));
            }
            s.shutdown();
        }
        all_lines(&sink, &mut all);
    }
    s.shutdown();
    all_lines(&sink, &mut all);
    all.iter().map(|l| without_times(l)).collect()
}

fn all_lines(sink: &Sink, all: &mut Vec<String>) -> String {
    all.extend(sink.take());
    all.join("\n")
}

/// `l` without its time-dependent words (`time`, `nps`).
fn without_times(l: &str) -> String {
    let w: Vec<&str> = l.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < w.len() {
        if (w[i] == "time" || w[i] == "nps") && l.starts_with("info depth") {
            i += 2;
        } else {
            kept.push(w[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

#[test]
fn node_and_depth_limited_searches_give_a_native_sessions_lines() {
    let lines = [
        "ugi",
        "isready",
        "go nodes 3000",
        "position startpos players 3 moves e2e3",
        "setoption name MultiPV value 2",
        "go depth 3",
        "setoption name MultiPV value 1",
        "go nodes 2000",
        "query legal",
        "perft 2",
        // Paranoid proves a loss, best-reply search starts again at
        // depth 1: every report is written, as natively.
        "uginewgame",
        "position spn R/gD1gS/2gT2/yS5bT/R1yD4bDR/1yT4bS/1rS3/1rDrT/R b 1 4 - - -",
        "go nodes 5000",
        "go wtime 1",
        "stop",
        "bogus words",
        "position fen nonsense",
    ];
    let native = transcript(false, &lines);
    let cooperative = transcript(true, &lines);
    // `go wtime 1` is timed: its lines may differ, its shape not.
    let cut = |t: &[String]| -> Vec<String> {
        t.iter()
            .filter(|l| !l.starts_with("info depth") && !l.starts_with("best"))
            .cloned()
            .collect()
    };
    let until_timed = |t: &[String]| -> Vec<String> {
        let bm: Vec<usize> = (0..t.len())
            .filter(|&i| t[i].starts_with("bestmove"))
            .collect();
        t[..=bm[3]].to_vec()
    };
    assert_eq!(until_timed(&native), until_timed(&cooperative));
    let proven = |t: &[String]| t.iter().any(|l| l.contains(" score loss "));
    assert!(proven(&cooperative), "{cooperative:?}");
    assert_eq!(cut(&native), cut(&cooperative));
    assert!(
        cooperative
            .iter()
            .any(|l| l.contains("error: unknown command"))
    );
}

#[test]
fn an_infinite_search_runs_in_slices_answers_between_them_and_stops() {
    let (mut s, sink) = session(true);
    s.handle("position startpos players 3");
    s.handle("go infinite");
    let start = Instant::now();
    let mut slices = 1;
    while start.elapsed() < Duration::from_millis(400) {
        assert!(s.resume(), "an infinite search goes on until stop");
        slices += 1;
    }
    assert!(slices >= 4, "{slices} slices of at most {SLICE:?}");
    s.handle("isready");
    s.handle("go depth 1");
    let mid = sink.take();
    assert!(mid.contains(&"readyok".to_string()), "{mid:?}");
    assert!(mid.iter().any(|l| l.contains("'go' while searching")));
    assert!(!mid.iter().any(|l| l.starts_with("best")));
    let depths: Vec<u32> = mid
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "each depth once: {depths:?}"
    );
    assert!(depths.len() >= 3, "{depths:?}");
    let nodes: Vec<u64> = mid
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        nodes.windows(2).all(|w| w[0] <= w[1]),
        "counted over slices: {nodes:?}"
    );
    s.handle("stop");
    let end = sink.take();
    assert!(end[end.len() - 2].starts_with("bestturn "), "{end:?}");
    assert!(end[end.len() - 1].starts_with("bestmove "), "{end:?}");
    assert!(!s.resume());
    s.handle("go nodes 100");
    assert!(sink.take().last().unwrap().starts_with("bestmove"));
}

#[test]
fn every_search_and_perft_runs_in_slices_and_stop_ends_it() {
    for (setup, last) in [
        (&["position startpos", "go depth 30"][..], "bestmove "),
        (
            &["position startpos players 3", "go nodes 100000000"],
            "bestmove ",
        ),
        (&["setoption name Algorithm value mcts", "go"], "bestmove "),
        (
            &[
                "setoption name Algorithm value uct-plain",
                "go nodes 100000000",
            ],
            "bestmove ",
        ),
        (
            &[
                "setoption name Algorithm value maxn",
                "position startpos players 4",
                "go",
            ],
            "bestmove ",
        ),
        (&["perft 12"], "info string perft stopped; no count"),
    ] {
        let (mut s, sink) = session(true);
        for line in setup {
            s.handle(line);
        }
        for _ in 0..3 {
            assert!(s.thinking() && s.resume(), "{setup:?}");
        }
        s.handle("isready");
        s.handle("query turn");
        s.handle("position startpos");
        let mid = sink.take();
        assert!(mid.contains(&"readyok".to_string()), "{setup:?}: {mid:?}");
        assert!(mid.contains(&"response r".to_string()), "{mid:?}");
        assert!(mid.iter().any(|l| l.contains("'position' while searching")));
        assert!(
            !mid.iter()
                .any(|l| l.starts_with("best") || l.starts_with("nodes"))
        );
        let start = Instant::now();
        s.handle("stop");
        let took = start.elapsed();
        let end = sink.take();
        assert!(end.last().unwrap().starts_with(last), "{setup:?}: {end:?}");
        assert!(took < Duration::from_millis(500), "{setup:?}: {took:?}");
        assert!(!s.thinking() && !s.resume());
        s.handle("isready");
        assert_eq!(sink.take(), ["readyok"]);
    }
}

#[test]
fn perft_in_slices_prints_a_native_sessions_lines() {
    let lines = [
        "perft 9",
        "position startpos players 3 moves e2e3",
        "perft 0",
        "perft 1",
        "perft 7",
    ];
    assert_eq!(transcript(false, &lines), transcript(true, &lines));
    // Deep enough to outlast a slice on any machine: perft 9 (44 M
    // leaves, its last two plies counted in bulk) took one 50 ms slice
    // on a fast one.
    let (mut s, sink) = session(true);
    s.handle("perft 10");
    let mut slices = 1;
    while s.resume() {
        slices += 1;
    }
    assert!(slices > 1, "{slices}: {:?}", sink.take());
    assert_eq!(sink.take().last().unwrap(), "nodes 474441809");
}

#[test]
fn the_end_of_input_answers_a_search_waiting_for_an_order_at_once() {
    for algorithm in ["auto", "mcts"] {
        for go in ["go infinite", "go ponder movetime 1000"] {
            let (mut s, sink) = session(true);
            s.handle(&format!("setoption name Algorithm value {algorithm}"));
            s.handle(go);
            assert!(s.resume());
            let start = Instant::now();
            s.shutdown();
            let took = start.elapsed();
            let end = sink.take();
            assert!(
                end.last().unwrap().starts_with("bestmove "),
                "{go}: {end:?}"
            );
            assert!(took < Duration::from_millis(500), "{go}: {took:?}");
        }
    }
}

#[test]
fn a_timed_search_ends_on_its_clock_and_pondering_waits_for_the_hit() {
    let (mut s, sink) = session(true);
    s.handle("position startpos");
    let start = Instant::now();
    s.handle("go movetime 300");
    while s.resume() {}
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(200), "{took:?}");
    assert!(sink.take().last().unwrap().starts_with("bestmove"));
    s.handle("setoption name MultiPV value 1");
    s.handle("go ponder movetime 100 depth 2");
    while s.resume() {}
    let held = sink.take();
    assert!(!held.iter().any(|l| l.starts_with("best")), "{held:?}");
    s.handle("ponderhit");
    while s.resume() {}
    assert!(sink.take().last().unwrap().starts_with("bestmove"));
    s.handle("ponderhit");
    assert!(sink.take()[0].contains("error: ponderhit"));
}
