//! `MultiPV`: an analysis reports the best turns, each with its score and
//! line, through the real binary as a GUI would ask for them.

use crate::support::Engine;
use splut_rules::Position;

/// A 2-player middle game: red to move, a whole turn (3 steps) to play.
const SPN: &str = "1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -";

/// One `info … multipv k …` line, read.
struct Line {
    depth: u32,
    k: u32,
    cp: Option<i32>,
    pv: Vec<String>,
}

fn parse(line: &str) -> Option<Line> {
    let words: Vec<&str> = line.split(' ').collect();
    let after = |key: &str| {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let k = after("multipv")?.parse().ok()?;
    let cp = (after("score") == Some("cp")).then(|| {
        let i = words.iter().position(|w| *w == "score").unwrap();
        words[i + 2].parse().unwrap()
    });
    let pv_at = words.iter().position(|w| *w == "pv")?;
    Some(Line {
        depth: after("depth")?.parse().ok()?,
        k,
        cp,
        pv: words[pv_at + 1..].iter().map(|s| s.to_string()).collect(),
    })
}

/// The `multipv` lines of the iteration of `depth`.
fn lines_at(lines: &[String], depth: u32) -> Vec<Line> {
    lines
        .iter()
        .filter_map(|l| parse(l))
        .filter(|l| l.depth == depth)
        .collect()
}

/// Where the side to move's turn ends after `pv`'s steps (its SPN).
fn turn_end(spn: &str, pv: &[String]) -> String {
    let mut pos = Position::from_spn(spn).unwrap();
    let turn = pos.turn();
    for s in pv {
        if pos.turn() != turn || pos.is_game_over() {
            break;
        }
        let step = pos.parse_step(s).unwrap();
        pos.play(step);
    }
    assert!(
        pos.turn() != turn || pos.is_game_over(),
        "{pv:?} does not finish the turn"
    );
    pos.to_spn()
}

#[test]
fn the_best_turns_each_with_its_score_and_line() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 4");
    e.send(&format!("position spn {SPN}"));
    let (lines, turn, best) = e.go("depth 5");
    let last = lines_at(&lines, 5);
    assert_eq!(
        last.iter().map(|l| l.k).collect::<Vec<_>>(),
        vec![1, 2, 3, 4],
        "{lines:?}"
    );
    // Four different turns, best first.
    let ends: Vec<String> = last.iter().map(|l| turn_end(SPN, &l.pv)).collect();
    for i in 0..ends.len() {
        for j in i + 1..ends.len() {
            assert_ne!(
                ends[i],
                ends[j],
                "lines {} and {} play one turn",
                i + 1,
                j + 1
            );
        }
    }
    let scores: Vec<i32> = last.iter().map(|l| l.cp.expect("a cp score")).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // The engine plays the first line's turn.
    assert_eq!(best, last[0].pv[0]);
    assert_eq!(turn[..], last[0].pv[..turn.len()]);

    // Each depth's lines come together, 1 to 4, and nothing after them.
    let infos: Vec<Line> = lines.iter().filter_map(|l| parse(l)).collect();
    let ks: Vec<u32> = infos.iter().map(|l| l.k).collect();
    assert_eq!(ks, [1, 2, 3, 4].repeat(5), "{lines:?}");

    // MultiPV 1: one line per depth, without the word.
    e.send("setoption name MultiPV value 1");
    e.send(&format!("position spn {SPN}"));
    let (single, _, _) = e.go("depth 5");
    assert!(single.iter().all(|l| !l.contains("multipv")), "{single:?}");
}

#[test]
fn more_lines_than_turns_reports_every_turn_once() {
    // The game's first turn: one step, three to choose from.
    let pos = Position::start(2).unwrap();
    let spn = &pos.to_spn();
    let turns: std::collections::HashSet<String> = pos
        .legal_step_vec()
        .into_iter()
        .map(|s| {
            let mut p = pos;
            p.play(s);
            p.to_spn()
        })
        .collect();
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 64");
    e.send("position startpos");
    let (lines, _, _) = e.go("depth 3");
    let last = lines_at(&lines, 3);
    let ends: std::collections::HashSet<String> =
        last.iter().map(|l| turn_end(spn, &l.pv)).collect();
    assert_eq!(ends.len(), last.len(), "a turn reported twice: {lines:?}");
    assert_eq!(ends, turns, "{lines:?}");
    assert_eq!(turns.len(), 3);
}

#[test]
fn searches_without_lines_report_one_and_bad_values_are_refused() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Algorithm value mcts");
    e.send(&format!("position spn {SPN}"));
    let (lines, _, _) = e.go("nodes 3000");
    assert!(lines.iter().all(|l| !l.contains("multipv")), "{lines:?}");
    for bad in ["0", "65", "two"] {
        e.send(&format!("setoption name MultiPV value {bad}"));
        let l = e.expect("info string error");
        assert!(l.contains("MultiPV"), "{l}");
    }
}
