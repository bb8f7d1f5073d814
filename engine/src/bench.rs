//! `splut bench`: a fixed set of positions searched to fixed depths on one
//! thread. The total node count is the search's signature (it changes only
//! when the search changes); nodes per second measure its speed.

use crate::clock::Instant;
use crate::engine::Engine;
use crate::options::THREADS_MAX;
use crate::search::{Algorithm, Limits};
use splut_rules::{Game, Position};
use std::io::Write;

/// The bench positions: SPN, depth in steps, search.
pub const POSITIONS: [(&str, u32, Algorithm); 10] = [
    (
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
        9,
        Algorithm::AlphaBeta,
    ),
    (
        "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "R/gTgD1/3gS1/7/1R6R/2rS4/1rT3/1rD1/R r 1 7 x - b5",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "R/2gD/3gT1/5R1/6R2/5gS1/3rDrT/1rS1/R r 3 27 - - -",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "1/gTR1/3gS1/2yD4/R1ySgD3R1/2yT4/5/3/R g 2 17 - - e8",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "R/gD1gS/4gT/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -",
        7,
        Algorithm::AlphaBeta,
    ),
    (
        "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -",
        7,
        Algorithm::AlphaBeta,
    ),
    (
        "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "R/gD1gS/1gT3/3yS1bT1/RyDyT3bDR1/2rS2bS1/5/1rDrT/R g 2 7 - - -",
        6,
        Algorithm::MaxN,
    ),
    (
        "R/1gDgS/gT4/yS5bT/1RyT4bDR/1yDrS4/4bS/rDrTR/1 y 2 10 - f2 -",
        6,
        Algorithm::MaxN,
    ),
];

/// Runs the bench with the evaluation `eval` (`auto`: the engine's
/// default, `nnue`: the compiled-in network, `hand`: the hand-written
/// evaluation), and prints the per-position lines and the totals; returns
/// the exit code.
pub fn run(depth: Option<u32>, threads: usize, eval: &str) -> i32 {
    run_to(
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
        depth,
        threads,
        eval,
    )
}

/// [`run`], writing its lines to `out` and its errors to `err` (a host
/// without standard output: WebAssembly).
pub fn run_to(
    out: &mut dyn Write,
    err: &mut dyn Write,
    depth: Option<u32>,
    threads: usize,
    eval: &str,
) -> i32 {
    // A closed pipe (`splut bench | head`) is no reason to crash.
    let mut total_nodes = 0u64;
    let start = Instant::now();
    // One engine's searches, one after another: the evaluation cache of
    // one search is taken by the next, as in a game; each position starts
    // with a cleared 16 MiB table.
    let use_nnue = match eval {
        "hand" => "false",
        "nnue" => "true",
        _ => "auto",
    };
    let threads = threads.clamp(1, THREADS_MAX as usize).to_string();
    let engine =
        match Engine::with_options(&[("Hash", "16"), ("Threads", &threads), ("UseNNUE", use_nnue)])
        {
            Ok(e) => e,
            Err(e) => {
                let _ = writeln!(err, "error: bench: {e}");
                return 1;
            }
        };
    for (i, &(spn, default_depth, algorithm)) in POSITIONS.iter().enumerate() {
        let pos = match Position::from_spn(spn) {
            Ok(p) => p,
            Err(e) => {
                let _ = writeln!(err, "error: bench position {}: {e}", i + 1);
                return 1;
            }
        };
        let set = engine
            .set_option("Algorithm", algorithm.name())
            .and_then(|()| engine.new_game());
        if let Err(e) = set {
            let _ = writeln!(err, "error: bench position {}: {e}", i + 1);
            return 1;
        }
        let limits = Limits {
            depth: Some(depth.unwrap_or(default_depth)),
            ..Limits::default()
        };
        let t = Instant::now();
        let outcome = match engine.go(&Game::new(pos), &limits, |_| {}) {
            Ok(report) => report,
            Err(e) => {
                let _ = writeln!(err, "error: bench position {}: {e}", i + 1);
                return 1;
            }
        };
        let turn: Vec<String> = outcome.turn.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            out,
            "position {:>2} {:<9} depth {:>2} nodes {:>9} time {:>5} ms score {} bestturn {}",
            i + 1,
            algorithm.name(),
            outcome.info.depth,
            outcome.info.nodes,
            t.elapsed().as_millis(),
            outcome.info.score,
            turn.join(" ")
        );
        total_nodes += outcome.info.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    let _ = writeln!(out, "time {ms} ms");
    let _ = writeln!(out, "nps {}", total_nodes * 1000 / ms);
    let _ = writeln!(out, "nodes {total_nodes}");
    0
}
