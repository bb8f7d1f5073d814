//! Time limits are honoured: `movetime`, the UGI clocks and the per-seat
//! clocks. The bound is the generous one: a 1-second budget is never
//! exceeded by more than 100 ms. These tests run one at a time, in their own
//! test binary, so other tests do not compete for the CPU.

use crate::support::Engine;
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const MIDGAME_2P: &str = "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -";
const MIDGAME_4P: &str = "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 3 15 - - -";

fn timed_go(e: &mut Engine, go: &str) -> Duration {
    let t = Instant::now();
    e.go(go);
    t.elapsed()
}

#[test]
fn movetime_is_used_and_not_exceeded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDGAME_2P}"));
    let took = timed_go(&mut e, "movetime 1000");
    assert!(took <= Duration::from_millis(1100), "{took:?}");
    assert!(
        took >= Duration::from_millis(800),
        "movetime should be used: {took:?}"
    );
}

#[test]
fn a_one_second_clock_is_shared_out() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDGAME_2P}"));
    let took = timed_go(&mut e, "p1time 1000 p2time 1000");
    assert!(
        took <= Duration::from_millis(400),
        "a turn must not take most of the clock: {took:?}"
    );
    let took = timed_go(&mut e, "rtime 1000 gtime 60000");
    assert!(took <= Duration::from_millis(400), "{took:?}");
}

#[test]
fn per_seat_clocks_belong_to_the_side_to_move() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDGAME_4P}"));
    // Green is to move and has one second; the others' long clocks do not
    // count.
    let took = timed_go(&mut e, "rtime 600000 ytime 600000 gtime 1000 btime 600000");
    assert!(took <= Duration::from_millis(400), "{took:?}");
    // Nearly flagged: still answers in time.
    let took = timed_go(&mut e, "rtime 600000 ytime 600000 gtime 100 btime 600000");
    assert!(took <= Duration::from_millis(200), "{took:?}");
}

#[test]
fn move_overhead_is_kept_back() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut e = Engine::start();
    e.send("setoption name MoveOverhead value 500");
    e.send(&format!("position fen {MIDGAME_2P}"));
    let took = timed_go(&mut e, "movetime 1000");
    assert!(took <= Duration::from_millis(600), "{took:?}");
}
