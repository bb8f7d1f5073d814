//! The engine's lines read back by the protocol's words: a session's
//! answers, each line printing back to its bytes, and a search's reports
//! read back into their values.

use super::sink::Sink;
use super::words::*;
use super::{Flow, Output, Session};
use crate::engine::Engine;
use crate::search::Limits;
use crate::search::score::Score;
use splut_rules::{Game, Position, Seat};
use std::sync::Arc;

#[test]
fn a_search_report_becomes_its_line() {
    let root = Position::start(2).unwrap();
    let s = root.legal_step_vec();
    let report = crate::search::Info {
        depth: 2,
        seldepth: 3,
        score: Score::Cp(-14),
        nodes: 120,
        nps: 1000,
        time_ms: 5,
        hashfull: 0,
        pv: vec![s[0]],
        multipv: 0,
    };
    let line = super::report(&report);
    assert_eq!(line.multipv, None, "0: one line, no word");
    assert_eq!(line.pv, vec![s[0].text()]);
    let text = format!(
        "info depth 2 seldepth 3 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 pv {}",
        s[0]
    );
    assert_eq!(line.to_string(), text);
    let line = super::report(&crate::search::Info {
        multipv: 3,
        ..report
    });
    assert_eq!(line.multipv, Some(3));
}

/// A cooperative session (a search limited by depth or nodes runs to its
/// end within `go`), and what it writes.
fn session() -> (Session, Sink) {
    let sink = Sink::default();
    let out = Output::new(Box::new(sink.clone()));
    (Session::cooperative(out, Arc::new(Engine::new())), sink)
}

/// Every line `commands` make the session write, read; each prints back
/// to its bytes.
fn read_session(s: &mut Session, sink: &Sink, commands: &[&str]) -> Vec<Line> {
    for c in commands {
        assert_eq!(s.handle(c), Flow::Continue);
    }
    sink.take()
        .iter()
        .map(|text| {
            let line = Line::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(&line.to_string(), text);
            line
        })
        .collect()
}

/// A search's lines: its reports, then `bestturn` and `bestmove`, the
/// second the first's first step.
fn search_lines(lines: &[Line]) -> (Vec<Info>, BestTurn) {
    let [reports @ .., Line::BestTurn(turn), Line::BestMove(first)] = lines else {
        panic!("{lines:?}");
    };
    assert_eq!(turn.best_move(), *first);
    let infos = reports
        .iter()
        .map(|l| match l {
            Line::Info(i) => i.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    (infos, turn.clone())
}

#[test]
fn the_sessions_lines_read_back() {
    for (players, multipv) in [(2, 1), (3, 3), (4, 2)] {
        let (mut s, sink) = session();
        let mv = format!("setoption name MultiPV value {multipv}");
        let pos = format!("position startpos players {players}");
        let commands = [
            "setoption name UCI_ShowWinProb value true",
            &mv,
            &pos,
            "go depth 3",
        ];
        let (infos, turn) = search_lines(&read_session(&mut s, &sink, &commands));
        assert!(!turn.0.is_empty());
        let in_game: Vec<Seat> = Position::start(players).unwrap().seats_in_game().collect();
        for i in &infos {
            assert!(i.depth.is_some() && i.seldepth.is_some() && i.score.is_some());
            assert!(i.nodes.is_some() && i.nps.is_some() && i.time_ms.is_some());
            assert!(i.hashfull.is_some() && !i.pv.is_empty());
            assert_eq!(i.multipv.is_some(), multipv > 1);
            let seats: Vec<Seat> = i.winprob.iter().map(|&(s, _)| s).collect();
            assert_eq!(seats, in_game);
            let sum: f64 = i.winprob.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() <= 0.005 * players as f64, "{sum}");
        }
        assert_eq!(infos.last().unwrap().depth, Some(3));
    }
}

#[test]
fn a_won_position_its_planned_turn_and_the_games_end_read_back() {
    // Red throws at green's sorcerer within its 3 steps (search/reference.rs).
    let kill = "R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -";
    let (mut s, sink) = session();
    let pos = format!("position fen {kill}");
    let (infos, turn) = search_lines(&read_session(&mut s, &sink, &[&pos, "go depth 4"]));
    assert_eq!(infos.last().unwrap().score, Some(Score::Win(1)));
    assert!(turn.0.len() >= 2, "{turn}");
    // One step of it played: the rest, without a search.
    let pos = format!("position fen {kill} moves {}", turn.0[0]);
    let lines = read_session(&mut s, &sink, &[&pos, "go depth 4"]);
    assert_eq!(
        lines,
        vec![
            Line::InfoString(InfoString::new("continuing the planned turn")),
            Line::BestTurn(BestTurn(turn.0[1..].to_vec())),
            Line::BestMove(BestMove(Some(turn.0[1]))),
        ]
    );
    // All of it played: the game is over.
    let all: Vec<String> = turn.0.iter().map(|t| t.to_string()).collect();
    let pos = format!("position fen {kill} moves {}", all.join(" "));
    let lines = read_session(&mut s, &sink, &[&pos, "go depth 4"]);
    let [Line::InfoString(e), Line::BestTurn(t), Line::BestMove(m)] = &lines[..] else {
        panic!("{lines:?}");
    };
    assert!(
        e.error_message().unwrap().contains("the game is over"),
        "{e}"
    );
    assert_eq!((t, m), (&BestTurn::default(), &BestMove(None)));
}

#[test]
fn an_engines_reports_read_back_into_their_values() {
    let engine = Engine::new();
    let root = Position::start(3).unwrap();
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut search = engine.prepare(&Game::new(root), &limits).unwrap();
    let mut reports = Vec::new();
    search.run(&mut |i| reports.push(i.clone()));
    assert!(!reports.is_empty());
    for r in &reports {
        let mut line = super::report(r);
        line.winprob = crate::engine::win_probabilities(&root, r);
        let read = Info::parse(&line.to_string()).unwrap();
        assert_eq!(read.depth, Some(r.depth));
        assert_eq!(read.score, Some(r.score));
        assert_eq!(read.nodes, Some(r.nodes));
        assert_eq!(read.time_ms, Some(r.time_ms));
        // The pv's text resolves to the search's steps in its positions.
        let mut p = root;
        for (t, &step) in read.pv.iter().zip(&r.pv) {
            assert_eq!(p.parse_step(&t.to_string()), Ok(step));
            p = p.after(step);
        }
        for ((s, p), (s2, p2)) in read.winprob.iter().zip(&line.winprob) {
            assert_eq!(s, s2);
            assert!((p - p2).abs() <= 0.005 + 1e-12, "{p} {p2}");
        }
    }
}
