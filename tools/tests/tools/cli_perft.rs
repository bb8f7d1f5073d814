//! `splut perft` driven as a user would.

use crate::support::{splut, stdout};

#[test]
fn perft_prints_nodes_last_and_speed_on_stderr() {
    let o = splut(&["perft", "5"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "nodes 5597\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nodes/s"), "{err}");
}

#[test]
fn divide_lists_every_root_step_sorted_then_the_total() {
    let o = splut(&["perft", "4", "--players", "3", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"nodes 219"));
    let rows: Vec<(&str, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let (s, n) = l.split_once(' ').unwrap();
            (s, n.parse().unwrap())
        })
        .collect();
    let steps: Vec<&str> = rows.iter().map(|r| r.0).collect();
    assert_eq!(steps, ["d2d3", "e2e3", "f2f3"]);
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 219);
}

#[test]
fn threads_give_the_same_divide() {
    let spn = "R/gD1gS/1gT3/3yS1bT1/RyDyT3bDR1/2rS2bS1/5/1rDrT/R g 2 7 - - -";
    let one = splut(&["perft", "4", "--spn", spn, "--divide"]);
    let two = splut(&["perft", "4", "--spn", spn, "--divide", "--threads", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
    assert!(stdout(&one).ends_with("nodes 11575\n"));
}

#[test]
fn depth_zero_counts_the_root() {
    assert_eq!(stdout(&splut(&["perft", "0"])), "nodes 1\n");
}

#[test]
fn bad_input_is_an_error_not_a_crash() {
    for args in [
        vec![
            "perft",
            "3",
            "--spn",
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT r 1 1 - - -",
        ],
        vec!["perft", "3", "--spn", "garbage"],
        vec!["perft", "3", "--players", "5"],
        vec!["perft", "-1"],
        vec!["perft", "x"],
        vec![
            "perft",
            "3",
            "--players",
            "3",
            "--spn",
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
        ],
        vec!["frobnicate"],
    ] {
        let o = splut(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let o = splut(&[
        "perft",
        "3",
        "--spn",
        "R/gTgDgS/5/7/R7R/7/5/rSrDrT r 1 1 - - -",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid SPN field 1 (board): 8 ranks"));
}

#[test]
fn thread_counts_and_depths_are_bounded() {
    for (args, says) in [
        (
            vec!["perft", "3", "--threads", "100000"],
            "100000 is not in 0..=256",
        ),
        (
            vec!["perft", "3", "--threads", "257"],
            "257 is not in 0..=256",
        ),
        (vec!["perft", "100000"], "100000 is not in 0..=64"),
        (vec!["perft", "65"], "65 is not in 0..=64"),
        (vec!["perft", "99999999999"], "invalid value"),
        (
            vec!["bench", "--threads", "100000"],
            "100000 is not in 1..=256",
        ),
        (vec!["bench", "--threads", "0"], "0 is not in 1..=256"),
        (vec!["bench", "--depth", "101"], "101 is not in 1..=100"),
        (vec!["bench", "--depth", "0"], "0 is not in 1..=100"),
    ] {
        let o = splut(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error: invalid value"), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // The largest allowed thread count runs.
    let o = splut(&["perft", "3", "--threads", "256"]);
    assert_eq!(stdout(&o), "nodes 79\n");
}
