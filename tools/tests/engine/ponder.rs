//! `go ponder` and `ponderhit`, through the real binary as a GUI drives
//! them: the engine thinks on a guessed position without a time limit,
//! answers only after `ponderhit` (then within its time) or `stop`.

use crate::support::Engine;
use std::time::{Duration, Instant};

const POSITION: &str = "position startpos moves e2e3 e8e7 f8f7";

/// Lines that arrive within `wait`, stopping at `bestmove`.
fn lines_within(e: &mut Engine, wait: Duration) -> Vec<String> {
    let end = Instant::now() + wait;
    let mut lines = Vec::new();
    while let Some(l) = e.next_line(end.saturating_duration_since(Instant::now())) {
        let done = l.starts_with("bestmove");
        lines.push(l);
        if done {
            break;
        }
    }
    lines
}

#[test]
fn a_ponder_search_answers_after_the_hit_within_its_time() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder movetime 200");
    // Far past its movetime, it is still thinking.
    let early = lines_within(&mut e, Duration::from_millis(800));
    assert!(
        early.iter().all(|l| !l.starts_with("best")),
        "answered while pondering: {early:?}"
    );
    assert!(
        early.iter().any(|l| l.starts_with("info depth")),
        "{early:?}"
    );
    let hit = Instant::now();
    e.send("ponderhit");
    let (lines, turn, best) = e.finish_search();
    let after = hit.elapsed();
    // The time counts from the hit (generous bounds: machines are shared).
    assert!(after >= Duration::from_millis(100), "{after:?}");
    assert!(after < Duration::from_secs(5), "{after:?}");
    assert_eq!(turn[0], best);
    // The search went on: its last report is deeper than any before the hit.
    let depth = |l: &String| -> u32 { l.split(' ').nth(2).unwrap().parse().unwrap() };
    let before = early
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(depth)
        .max();
    let last = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(depth)
        .max();
    assert!(last >= before, "{before:?} {last:?}");
    // A second hit, with nothing pondering, is an error.
    e.send("ponderhit");
    assert!(
        e.expect("info string error")
            .contains("no search is pondering")
    );
}

#[test]
fn stop_ends_a_ponder_search_at_once() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder p1time 60000 p2time 60000");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("stop");
    let (_, turn, _) = e.finish_search();
    assert!(!turn.is_empty());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // The engine is idle again and takes a new position and search.
    e.send(POSITION);
    e.go("depth 3");
}

#[test]
fn a_ponder_search_that_ends_by_itself_still_waits_for_the_hit() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder depth 3");
    let early = lines_within(&mut e, Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("best")), "{early:?}");
    e.send("isready");
    e.expect("readyok");
    // Commands that need an idle engine wait for the end of the ponder.
    e.send("position startpos");
    assert!(e.expect("info string error").contains("while searching"));
    e.send("ponderhit");
    let (_, turn, _) = e.finish_search();
    assert!(!turn.is_empty());
}

#[test]
fn ponderhit_without_a_ponder_search_is_an_error_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("ponderhit");
    assert!(
        e.expect("info string error")
            .contains("no search is pondering")
    );
    e.send("ponderhit now");
    assert!(e.expect("info string error").contains("ponderhit"));
    // During an ordinary search: an error, and the search goes on to its
    // own end.
    e.send(POSITION);
    e.send("go movetime 300");
    e.send("ponderhit");
    let (lines, _, _) = e.finish_search();
    assert!(
        lines.iter().any(|l| l.contains("no search is pondering")),
        "{lines:?}"
    );
}

#[test]
fn the_end_of_input_stops_a_ponder_search_at_once() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.close_input();
    let status = e.wait_exit(Duration::from_secs(3));
    assert!(status.is_some_and(|s| s.success()), "{:?}", t.elapsed());
}

/// Issue 26: a second `ponderhit` was accepted silently, while no search
/// is pondering after the first.
#[test]
fn a_second_ponderhit_is_an_error() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder movetime 5000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    // The error comes while the search still runs (its 5 s are far off).
    let error = e.read_until_within("info string error", Duration::from_secs(3));
    let lines = error.unwrap_or_else(|| panic!("no error line; saw {:?}", e.seen));
    assert!(
        lines.last().unwrap().contains("no search is pondering"),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.starts_with("best")), "{lines:?}");
    e.send("stop");
    let (_, turn, best) = e.finish_search();
    assert_eq!(turn[0], best);
}

/// Issue 26: the end of input right after `ponderhit` cut the search at
/// once. After the hit a ponder search is an ordinary limited one, and gets
/// the grace any search gets (its 2 s here, far less than 5 s).
#[test]
fn the_end_of_input_after_the_hit_leaves_the_search_its_time() {
    let mut e = Engine::start();
    e.send(POSITION);
    e.send("go ponder movetime 2000");
    std::thread::sleep(Duration::from_millis(200));
    let hit = Instant::now();
    e.send("ponderhit");
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    let (_, turn, best) = e.finish_search();
    let after = hit.elapsed();
    assert_eq!(turn[0], best);
    // Generous bounds: machines are shared.
    assert!(after >= Duration::from_millis(1500), "{after:?}");
    assert!(after < Duration::from_secs(8), "{after:?}");
    assert!(
        e.wait_exit(Duration::from_secs(5))
            .is_some_and(|s| s.success())
    );
}
