//! What running a search in slices costs: the nodes of one search to a
//! fixed depth run in slices of a few milliseconds (as the WebAssembly
//! engine runs it, reading its input between slices) against the same
//! search run in one go, each on a fresh engine (one thread, an empty
//! table).
//!
//! ```text
//! cargo run --release -p splut-engine --example sliced_nodes -- [depth] [players] [slice ms…]
//! ```
//!
//! Defaults: depth 13, 3 players, slices of 50, 20 and 10 ms (shorter
//! slices stand for a loaded machine, where a slice gets less done);
//! `SPLUT_HASH=<MiB>` sets the table's size (default the engine's),
//! `SPLUT_ALGORITHM=<name>` the `Algorithm` option (e.g. `maxn`).
//! Prints one line per way of running it: nodes, time, and nodes against
//! the search in one go.

use splut_engine::engine::SliceEnd;
use splut_engine::{Engine, Limits};
use splut_rules::{Game, Position};
use std::time::{Duration, Instant};

/// A fresh engine, with `SPLUT_HASH` MiB of table and the algorithm
/// `SPLUT_ALGORITHM` if set.
fn engine() -> Engine {
    let engine = Engine::new();
    if let Ok(mib) = std::env::var("SPLUT_HASH") {
        engine.set_option("Hash", &mib).expect("a Hash size");
    }
    if let Ok(name) = std::env::var("SPLUT_ALGORITHM") {
        engine.set_option("Algorithm", &name).expect("an algorithm");
    }
    engine
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(13);
    let players: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut slices: Vec<u64> = args.iter().skip(2).filter_map(|a| a.parse().ok()).collect();
    if slices.is_empty() {
        slices = vec![50, 20, 10];
    }
    let Some(start) = Position::start(players) else {
        eprintln!("players must be 2, 3 or 4");
        std::process::exit(2);
    };
    let game = Game::new(start);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let t = Instant::now();
    let whole = engine()
        .prepare(&game, &limits)
        .expect("a search")
        .run(&mut |_| {});
    let base = whole.info.nodes;
    println!(
        "depth {depth}, {players} players, one go:   nodes {base:>10} time {:>6} ms",
        t.elapsed().as_millis()
    );
    for ms in slices {
        let t = Instant::now();
        let mut search = engine().prepare(&game, &limits).expect("a search");
        let mut count = 0;
        let report = loop {
            count += 1;
            if let SliceEnd::Done(r) = search.run_slice(Duration::from_millis(ms), &mut |_| {}) {
                break r;
            }
        };
        let nodes = report.info.nodes;
        println!(
            "depth {depth}, {players} players, {ms:>3} ms slices: nodes {nodes:>10} time {:>6} ms, {count} slices, {:.3}x the nodes of one go (depth {})",
            t.elapsed().as_millis(),
            nodes as f64 / base as f64,
            report.info.depth
        );
    }
}
