//! The perft reference suite: every position and count of
//! `tests/data/perft.txt` (copied from the rules' reference file).

use splut::game::{Position, perft, perft_with};
use splut::parallel_perft::perft_parallel;

struct Case {
    spn: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
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
                perft_parallel(&pos, depth, 2).unwrap()
            } else {
                perft(&pos, depth)
            };
            assert_eq!(got, want, "{} depth {depth}", case.spn);
        }
    }
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
