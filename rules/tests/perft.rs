//! The perft reference suite: every position and count of
//! `tests/data/perft.txt` (copied from the rules' reference file).
//! `cargo test -p splut-rules --test perft`.

use splut_rules::{Position, perft, perft_with};

struct Case {
    spn: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (spn, counts) = l.split_once(';').expect("line has ';'");
            let words: Vec<&str> = counts.split_whitespace().collect();
            let counts = words
                .chunks(2)
                .map(|c| {
                    let d = c[0].strip_prefix('D').expect("D<depth>").parse().unwrap();
                    (d, c[1].parse().unwrap())
                })
                .collect();
            Case {
                spn: spn.trim().to_string(),
                counts,
            }
        })
        .collect()
}

fn check(max_depth: u32, only_starts: bool) {
    let all = cases();
    assert!(all.len() >= 23, "the data file lost positions");
    for case in all
        .iter()
        .filter(|c| !only_starts || c.spn.ends_with(" r 1 1 - - -"))
    {
        let pos = Position::from_spn(&case.spn).unwrap();
        assert_eq!(pos.to_spn(), case.spn);
        for &(depth, want) in case.counts.iter().filter(|c| c.0 <= max_depth) {
            let got = if depth >= 8 {
                perft_on_threads(&pos, depth)
            } else {
                perft(&pos, depth)
            };
            assert_eq!(got, want, "{} depth {depth}", case.spn);
        }
    }
}

/// Perft split over the machine's cores by the first step, with the rules
/// crate alone (the engine's `perft_parallel` splits deeper and better).
fn perft_on_threads(pos: &Position, depth: u32) -> u64 {
    let steps = pos.legal_step_vec();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = steps.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let parts: Vec<_> = steps
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&step| {
                            let mut child = *pos;
                            child.play(step);
                            perft(&child, depth - 1)
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        parts.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

#[test]
fn every_position_to_depth_4() {
    check(4, false);
}

#[test]
fn every_position_to_depth_4_making_every_leaf() {
    // No bulk counting: every leaf step is made, so make and generation are
    // checked together, not just the step counter.
    for case in cases() {
        let pos = Position::from_spn(&case.spn).unwrap();
        for &(depth, want) in case.counts.iter().filter(|c| c.0 <= 4) {
            assert_eq!(perft_with::<false>(&pos, depth), want, "{}", case.spn);
        }
    }
}

#[test]
fn start_positions_to_depth_7() {
    check(7, true);
}

/// Every count in the file, up to the 474 million leaves of the 2-player
/// start at depth 10: a couple of seconds with the optimised test profile.
#[test]
fn every_count_in_the_file() {
    check(u32::MAX, false);
}
