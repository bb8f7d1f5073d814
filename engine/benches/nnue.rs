//! The network's speed: one incremental update of the accumulators (a push
//! after a step and its accumulators computed, every in-game seat's view,
//! as when the position is evaluated) and one evaluation (every in-game
//! seat's value), with 2 and 4 players.
//!
//! `cargo bench --bench nnue`.

use criterion::{Criterion, criterion_group, criterion_main};
use splut_engine::eval::nnue::{AccumulatorStack, Network};
use splut_rules::{Position, Seat};
use std::hint::black_box;
use std::sync::Arc;

/// Middlegames with 2 and 4 players (as in the rules bench).
const POSITIONS: [(&str, &str); 2] = [
    ("mid2", "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -"),
    (
        "mid4",
        "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -",
    ),
];

fn nnue(c: &mut Criterion) {
    // Any weights: the work does not depend on them.
    let net = Arc::new(Network::pseudo_random(1, 300));
    let mut g = c.benchmark_group("nnue");
    for (name, spn) in POSITIONS {
        let pos = Position::from_spn(spn).expect("bench SPN");
        let mut stack = AccumulatorStack::new(&net, &pos);
        // Every step of the position, one after another: a mix of the
        // one-piece moves that dominate and the pushes and throws.
        let children: Vec<Position> = pos.legal_step_vec().iter().map(|&s| pos.after(s)).collect();
        let mut i = 0;
        g.bench_function(format!("push/{name}"), |b| {
            b.iter(|| {
                i = (i + 1) % children.len();
                stack.push(black_box(&children[i]));
                // The push only records the boards: this computes.
                black_box(stack.accumulator(Seat::Red));
                stack.pop();
            })
        });
        g.bench_function(format!("values/{name}"), |b| {
            b.iter(|| black_box(stack.values(black_box(&pos))))
        });
    }
    g.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
