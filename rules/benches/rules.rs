//! Rules-core speed: step generation, bulk counting, make/unmake and
//! copy-make, perft.
//!
//! `cargo bench --bench rules`; the perft figure README.md and
//! docs/results/speed.md quote is
//! `splut perft 8` (leaf nodes per second, median of runs).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use splut_rules::{Position, StepList, perft, perft_with};
use std::hint::black_box;

/// A spread of positions: the starts and middlegames with 2, 3 and 4 players.
fn positions() -> Vec<(&'static str, Position)> {
    [
        ("start2", "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -"),
        ("mid2", "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -"),
        (
            "mid2b",
            "1/1gD1/1gS3/1RgT4/1rSR6/2R3R/4rT/3/rD r 1 19 d4 h4 d4",
        ),
        (
            "mid3",
            "R/gD1gS/4gT/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -",
        ),
        (
            "mid4",
            "R/2gD/ySgTgS2/2yD3bT/1yT3bS1R1/R3rTbD1/1rS1rD1/1R1/1 g 2 15 - - -",
        ),
    ]
    .into_iter()
    .map(|(n, s)| (n, Position::from_spn(s).expect("bench SPN")))
    .collect()
}

fn generation(c: &mut Criterion) {
    let mut g = c.benchmark_group("generate");
    for (name, pos) in positions() {
        let mut list = StepList::new();
        g.bench_with_input(BenchmarkId::new("legal_steps", name), &pos, |b, p| {
            b.iter(|| {
                black_box(p).legal_steps(&mut list);
                list.len()
            })
        });
        g.bench_with_input(BenchmarkId::new("legal_step_count", name), &pos, |b, p| {
            b.iter(|| black_box(p).legal_step_count())
        });
        let steps = pos.legal_step_vec();
        g.bench_with_input(BenchmarkId::new("copy_make_all", name), &pos, |b, p| {
            b.iter(|| {
                for &s in &steps {
                    black_box(black_box(p).after(s));
                }
            })
        });
        let mut work = pos;
        g.bench_function(BenchmarkId::new("make_unmake_all", name), |b| {
            b.iter(|| {
                for &s in &steps {
                    let u = black_box(&mut work).make(s);
                    black_box(&mut work).unmake(s, &u);
                }
            })
        });
    }
    g.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(20);
    for (players, depth) in [(2usize, 8u32), (3, 8), (4, 9)] {
        let pos = Position::start(players).unwrap();
        g.throughput(Throughput::Elements(perft(&pos, depth)));
        g.bench_function(format!("bulk/{players}p/d{depth}"), |b| {
            b.iter(|| perft(black_box(&pos), depth))
        });
        g.throughput(Throughput::Elements(perft(&pos, depth - 1)));
        g.bench_function(format!("full/{players}p/d{}", depth - 1), |b| {
            b.iter(|| perft_with::<false>(black_box(&pos), depth - 1))
        });
    }
    g.finish();
}

/// The same perft with copy-make instead of make/unmake, to keep the choice
/// measured (RULES core uses make/unmake).
fn perft_copy_make(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.legal_step_count() as u64;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    list.iter()
        .map(|&s| perft_copy_make(&pos.after(s), depth - 1))
        .sum()
}

fn make_strategy(c: &mut Criterion) {
    let mut g = c.benchmark_group("strategy");
    g.sample_size(20);
    let pos = Position::start(2).unwrap();
    g.throughput(Throughput::Elements(perft(&pos, 8)));
    g.bench_function("make_unmake/2p/d8", |b| {
        b.iter(|| perft(black_box(&pos), 8))
    });
    g.bench_function("copy_make/2p/d8", |b| {
        b.iter(|| perft_copy_make(black_box(&pos), 8))
    });
    g.finish();
}

criterion_group!(benches, generation, perft_bench, make_strategy);
criterion_main!(benches);
