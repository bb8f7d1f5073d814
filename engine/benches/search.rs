//! Search speed: fixed-depth searches (one thread, fresh table) of 2-, 3-
//! and 4-player positions with each algorithm, and the evaluation alone
//! (one call). `cargo bench --bench search`; `cargo bench --bench search --
//! eval/` for the evaluation only. `splut bench` gives the node-count
//! signature and nodes per second.

use criterion::{Criterion, criterion_group, criterion_main};
use splut_engine::engine::Engine;
use splut_engine::eval::{DEFAULT_PARAMS, evaluate, evaluate_shares};
use splut_engine::search::{Algorithm, Limits};
use splut_rules::{Game, Position};
use std::hint::black_box;

const CASES: [(&str, &str, u32, Algorithm); 5] = [
    (
        "2p-start",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "2p-mid",
        "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -",
        8,
        Algorithm::AlphaBeta,
    ),
    (
        "3p-mid",
        "R/gD1gS/4gT/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -",
        7,
        Algorithm::AlphaBeta,
    ),
    (
        "4p-mid",
        "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -",
        6,
        Algorithm::AlphaBeta,
    ),
    (
        "4p-maxn",
        "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -",
        5,
        Algorithm::MaxN,
    ),
];

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (name, spn, depth, algorithm) in CASES {
        let pos = Position::from_spn(spn).expect("bench SPN");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let game = Game::new(pos);
        g.bench_function(format!("{name}/d{depth}"), |b| {
            b.iter(|| {
                // A fresh engine: a new table and new evaluation caches.
                let engine =
                    Engine::with_options(&[("Hash", "16"), ("Algorithm", algorithm.name())])
                        .expect("bench options");
                engine.go(black_box(&game), &limits, |_| {})
            })
        });
    }
    g.finish();
}

/// Positions for the evaluation alone: the search cases and one where a
/// levitation sets up a throw (the levitation threat term's work).
const EVAL_CASES: [(&str, &str); 6] = [
    (CASES[0].0, CASES[0].1),
    (CASES[1].0, CASES[1].1),
    (CASES[2].0, CASES[2].1),
    (CASES[3].0, CASES[3].1),
    (
        "4p-start-late",
        "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 3 10 - - -",
    ),
    (
        "2p-levitation",
        "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 3 10 - - -",
    ),
];

fn evaluation(c: &mut Criterion) {
    let mut g = c.benchmark_group("eval");
    for (name, spn) in EVAL_CASES {
        let pos = Position::from_spn(spn).expect("bench SPN");
        let root = pos.side_to_move();
        g.bench_function(format!("evaluate/{name}"), |b| {
            b.iter(|| evaluate(black_box(&pos), root, 4, &DEFAULT_PARAMS))
        });
        g.bench_function(format!("shares/{name}"), |b| {
            b.iter(|| evaluate_shares(black_box(&pos), &DEFAULT_PARAMS))
        });
    }
    g.finish();
}

criterion_group!(benches, search, evaluation);
criterion_main!(benches);
