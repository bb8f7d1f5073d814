//! The protocol on one thread ([`Session::cooperative`]): every search
//! and every perft runs a slice at a time ([`PreparedSearch::run_slice`],
//! [`PerftWalk`]) and the host reads its input between slices, so
//! `stop`, `ponderhit`, `isready` and `query` are answered while it
//! thinks, with the same lines as a native session's.

use super::{PERFT_STOPPED, Session, best_lines, conclude, perft_lines, report_line, reporter};
use crate::clock::Instant;
use crate::engine::{PreparedSearch, Report, SliceEnd};
use crate::protocol::words::InfoString;
use crate::search::control::Ponder;
use crate::search::{Info, Limits};
use splut_rules::{PerftWalk, Position};
use std::sync::Arc;
use std::time::Duration;

/// The longest a cooperative session's search runs before the host reads
/// its input again.
pub const SLICE: Duration = Duration::from_millis(50);

/// What a cooperative session runs in slices.
pub(super) enum Pending {
    /// A search.
    Search(Box<Thinking>),
    /// A perft.
    Perft(Box<PerftWalk>),
}

/// A cooperative session's search.
pub(super) struct Thinking {
    search: PreparedSearch,
    root: Position,
    /// `go infinite`: the answer waits for `stop`.
    infinite: bool,
    ponder: Option<Arc<Ponder>>,
    show_win_prob: bool,
    /// The last `info` of the best line shown.
    reported: Option<Info>,
    /// The search's answer, once it has ended, while it waits for `stop`
    /// (infinite) or the hit (ponder).
    held: Option<Report>,
}

impl Thinking {
    /// Whether its answer waits for an order: `stop` (infinite), or the
    /// hit (ponder, not hit yet).
    fn waits_for_order(&self) -> bool {
        self.infinite || self.ponder.as_ref().is_some_and(|p| p.hit_at().is_none())
    }
}

impl Session {
    /// `go` in a cooperative session: the search's first slice runs now,
    /// the rest from [`Session::resume`].
    pub(super) fn go_sliced(&mut self, search: PreparedSearch, limits: &Limits, wp: bool) {
        self.pending = Some(Pending::Search(Box::new(Thinking {
            root: *search.root(),
            ponder: search.ponder(),
            search,
            infinite: limits.infinite,
            show_win_prob: wp,
            reported: None,
            held: None,
        })));
        self.resume();
    }

    /// `perft` in a cooperative session: counted a slice at a time, its
    /// first now, the rest from [`Session::resume`].
    pub(super) fn perft_sliced(&mut self, pos: &Position, depth: u32) {
        self.pending = Some(Pending::Perft(Box::new(PerftWalk::new(pos, depth))));
        self.resume();
    }

    /// Whether a cooperative session's search or perft wants
    /// [`Session::resume`]: it runs, and its answer is not being held.
    pub fn thinking(&self) -> bool {
        match &self.pending {
            Some(Pending::Search(p)) => p.held.is_none(),
            Some(Pending::Perft(_)) => true,
            None => false,
        }
    }

    /// Runs the next slice of a cooperative session's search or perft, if
    /// one is running and its answer is not being held; returns whether
    /// the host should call again (after reading any input that came).
    pub fn resume(&mut self) -> bool {
        match self.pending.take() {
            None => false,
            Some(Pending::Search(p)) => self.resume_search(p),
            Some(Pending::Perft(mut walk)) => {
                let end = Instant::now() + SLICE;
                if walk.run(&mut || Instant::now() < end) {
                    for line in perft_lines(walk.divide(), walk.total()) {
                        self.out.line(&line);
                    }
                    false
                } else {
                    self.pending = Some(Pending::Perft(walk));
                    true
                }
            }
        }
    }

    /// The next slice of the search `p`.
    fn resume_search(&mut self, mut p: Box<Thinking>) -> bool {
        if p.held.is_some() {
            self.pending = Some(Pending::Search(p));
            return false;
        }
        let (root, wp) = (p.root, p.show_win_prob);
        let line = |i: &Info| report_line(&root, i, wp);
        let mut reported = p.reported.take();
        let end = p
            .search
            .run_slice(SLICE, &mut reporter(&self.out, &line, &mut reported));
        p.reported = reported;
        match end {
            SliceEnd::Paused => {
                self.pending = Some(Pending::Search(p));
                true
            }
            SliceEnd::Done(report) if p.waits_for_order() => {
                self.hold(&p, &report);
                p.held = Some(report);
                self.pending = Some(Pending::Search(p));
                false
            }
            SliceEnd::Done(report) => {
                self.answer(&p, &report);
                false
            }
        }
    }

    /// The search ended while its answer waits: the plan and the totals
    /// now, as a native session writes them.
    fn hold(&self, p: &Thinking, report: &Report) {
        let line = |i: &Info| report_line(&p.root, i, p.show_win_prob);
        if let Some(totals) = conclude(report, p.reported.as_ref(), &self.plan, p.root, &line) {
            self.out.line(&totals);
        }
    }

    /// The search's last lines: the totals (unless held, when they were
    /// written then), `bestturn` and `bestmove`.
    fn answer(&self, p: &Thinking, report: &Report) {
        if p.held.is_none() {
            self.hold(p, report);
        }
        for line in best_lines(&report.turn) {
            self.out.line(&line);
        }
    }

    /// `stop` in a cooperative session: the search's answer now, or the
    /// perft's end as a native session's (`perft stopped; no count`).
    pub(super) fn stop_sliced(&mut self) {
        match self.pending.take() {
            None => {}
            Some(Pending::Search(mut p)) => {
                let report = match p.held.clone() {
                    Some(r) => r,
                    None => p.search.finish(),
                };
                self.answer(&p, &report);
            }
            Some(Pending::Perft(_)) => {
                self.out.line(&InfoString::new(PERFT_STOPPED).to_string());
            }
        }
    }

    /// `ponderhit` in a cooperative session: the pondering search's clock
    /// starts now, or its held answer is given. False when none ponders.
    pub(super) fn ponderhit_sliced(&mut self) -> bool {
        let Some(Pending::Search(p)) = &self.pending else {
            return false;
        };
        match &p.ponder {
            Some(h) if h.hit_at().is_none() => h.hit(),
            _ => return false,
        }
        if !p.infinite && p.held.is_some() {
            self.stop_sliced();
        }
        true
    }

    /// The end of input in a cooperative session: a search waiting for an
    /// order is stopped at once, any other (and a perft) gets at most
    /// [`super::END_OF_INPUT_GRACE`] more.
    pub(super) fn finish_sliced(&mut self) {
        let waits = match &self.pending {
            None => return,
            Some(Pending::Search(p)) => p.waits_for_order(),
            Some(Pending::Perft(_)) => false,
        };
        if !waits {
            let deadline = Instant::now() + super::END_OF_INPUT_GRACE;
            while self.resume() && Instant::now() < deadline {}
        }
        self.stop_sliced();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Flow, Output};
    use super::*;
    use crate::engine::Engine;
    use crate::protocol::sink::Sink;

    fn session(cooperative: bool) -> (Session, Sink) {
        let sink = Sink::default();
        let out = Output::new(Box::new(sink.clone()));
        let engine = Arc::new(Engine::new());
        let s = if cooperative {
            Session::cooperative(out, engine)
        } else {
            Session::with_engine(out, engine)
        };
        (s, sink)
    }

    /// The lines of `lines` fed to a session, waiting for each search's
    /// answer (slices run as a host would run them), times removed.
    fn transcript(cooperative: bool, lines: &[&str]) -> Vec<String> {
        let (mut s, sink) = session(cooperative);
        let mut all = Vec::new();
        for line in lines {
            assert_eq!(s.handle(line), Flow::Continue);
            while s.resume() {}
            if line.starts_with("go") || line.starts_with("perft") {
                while !all_lines(&sink, &mut all).contains("bestmove") && !line.starts_with("perft")
                {
                    std::thread::sleep(Duration::from_millis(2));
                }
                s.shutdown();
            }
            all_lines(&sink, &mut all);
        }
        s.shutdown();
        all_lines(&sink, &mut all);
        all.iter().map(|l| without_times(l)).collect()
    }

    fn all_lines(sink: &Sink, all: &mut Vec<String>) -> String {
        all.extend(sink.take());
        all.join("\n")
    }

    /// `l` without its time-dependent words (`time`, `nps`).
    fn without_times(l: &str) -> String {
        let w: Vec<&str> = l.split(' ').collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < w.len() {
            if (w[i] == "time" || w[i] == "nps") && l.starts_with("info depth") {
                i += 2;
            } else {
                kept.push(w[i]);
                i += 1;
            }
        }
        kept.join(" ")
    }

    #[test]
    fn node_and_depth_limited_searches_give_a_native_sessions_lines() {
        let lines = [
            "ugi",
            "isready",
            "go nodes 3000",
            "position startpos players 3 moves e2e3",
            "setoption name MultiPV value 2",
            "go depth 3",
            "setoption name MultiPV value 1",
            "go nodes 2000",
            "query legal",
            "perft 2",
            // Paranoid proves a loss, best-reply search starts again at
            // depth 1: every report is written, as natively.
            "uginewgame",
            "position spn R/gD1gS/2gT2/yS5bT/R1yD4bDR/1yT4bS/1rS3/1rDrT/R b 1 4 - - -",
            "go nodes 5000",
            "go wtime 1",
            "stop",
            "bogus words",
            "position fen nonsense",
        ];
        let native = transcript(false, &lines);
        let cooperative = transcript(true, &lines);
        // `go wtime 1` is timed: its lines may differ, its shape not.
        let cut = |t: &[String]| -> Vec<String> {
            t.iter()
                .filter(|l| !l.starts_with("info depth") && !l.starts_with("best"))
                .cloned()
                .collect()
        };
        let until_timed = |t: &[String]| -> Vec<String> {
            let bm: Vec<usize> = (0..t.len())
                .filter(|&i| t[i].starts_with("bestmove"))
                .collect();
            t[..=bm[3]].to_vec()
        };
        assert_eq!(until_timed(&native), until_timed(&cooperative));
        let proven = |t: &[String]| t.iter().any(|l| l.contains(" score loss "));
        assert!(proven(&cooperative), "{cooperative:?}");
        assert_eq!(cut(&native), cut(&cooperative));
        assert!(
            cooperative
                .iter()
                .any(|l| l.contains("error: unknown command"))
        );
    }

    #[test]
    fn an_infinite_search_runs_in_slices_answers_between_them_and_stops() {
        let (mut s, sink) = session(true);
        s.handle("position startpos players 3");
        s.handle("go infinite");
        let start = Instant::now();
        let mut slices = 1;
        while start.elapsed() < Duration::from_millis(400) {
            assert!(s.resume(), "an infinite search goes on until stop");
            slices += 1;
        }
        assert!(slices >= 4, "{slices} slices of at most {SLICE:?}");
        s.handle("isready");
        s.handle("go depth 1");
        let mid = sink.take();
        assert!(mid.contains(&"readyok".to_string()), "{mid:?}");
        assert!(mid.iter().any(|l| l.contains("'go' while searching")));
        assert!(!mid.iter().any(|l| l.starts_with("best")));
        let depths: Vec<u32> = mid
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert!(
            depths.windows(2).all(|w| w[0] < w[1]),
            "each depth once: {depths:?}"
        );
        assert!(depths.len() >= 3, "{depths:?}");
        let nodes: Vec<u64> = mid
            .iter()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert!(
            nodes.windows(2).all(|w| w[0] <= w[1]),
            "counted over slices: {nodes:?}"
        );
        s.handle("stop");
        let end = sink.take();
        assert!(end[end.len() - 2].starts_with("bestturn "), "{end:?}");
        assert!(end[end.len() - 1].starts_with("bestmove "), "{end:?}");
        assert!(!s.resume());
        s.handle("go nodes 100");
        assert!(sink.take().last().unwrap().starts_with("bestmove"));
    }

    #[test]
    fn every_search_and_perft_runs_in_slices_and_stop_ends_it() {
        for (setup, last) in [
            (&["position startpos", "go depth 30"][..], "bestmove "),
            (
                &["position startpos players 3", "go nodes 100000000"],
                "bestmove ",
            ),
            (&["setoption name Algorithm value mcts", "go"], "bestmove "),
            (
                &[
                    "setoption name Algorithm value uct-plain",
                    "go nodes 100000000",
                ],
                "bestmove ",
            ),
            (
                &[
                    "setoption name Algorithm value maxn",
                    "position startpos players 4",
                    "go",
                ],
                "bestmove ",
            ),
            (&["perft 12"], "info string perft stopped; no count"),
        ] {
            let (mut s, sink) = session(true);
            for line in setup {
                s.handle(line);
            }
            for _ in 0..3 {
                assert!(s.thinking() && s.resume(), "{setup:?}");
            }
            s.handle("isready");
            s.handle("query turn");
            s.handle("position startpos");
            let mid = sink.take();
            assert!(mid.contains(&"readyok".to_string()), "{setup:?}: {mid:?}");
            assert!(mid.contains(&"response r".to_string()), "{mid:?}");
            assert!(mid.iter().any(|l| l.contains("'position' while searching")));
            assert!(
                !mid.iter()
                    .any(|l| l.starts_with("best") || l.starts_with("nodes"))
            );
            let start = Instant::now();
            s.handle("stop");
            let took = start.elapsed();
            let end = sink.take();
            assert!(end.last().unwrap().starts_with(last), "{setup:?}: {end:?}");
            assert!(took < Duration::from_millis(500), "{setup:?}: {took:?}");
            assert!(!s.thinking() && !s.resume());
            s.handle("isready");
            assert_eq!(sink.take(), ["readyok"]);
        }
    }

    #[test]
    fn perft_in_slices_prints_a_native_sessions_lines() {
        let lines = [
            "perft 9",
            "position startpos players 3 moves e2e3",
            "perft 0",
            "perft 1",
            "perft 7",
        ];
        assert_eq!(transcript(false, &lines), transcript(true, &lines));
        let (mut s, sink) = session(true);
        s.handle("perft 9");
        let mut slices = 1;
        while s.resume() {
            slices += 1;
        }
        assert!(slices > 1, "{slices}");
        assert_eq!(sink.take().last().unwrap(), "nodes 44299308");
    }

    #[test]
    fn the_end_of_input_answers_a_search_waiting_for_an_order_at_once() {
        for algorithm in ["auto", "mcts"] {
            for go in ["go infinite", "go ponder movetime 1000"] {
                let (mut s, sink) = session(true);
                s.handle(&format!("setoption name Algorithm value {algorithm}"));
                s.handle(go);
                assert!(s.resume());
                let start = Instant::now();
                s.shutdown();
                let took = start.elapsed();
                let end = sink.take();
                assert!(
                    end.last().unwrap().starts_with("bestmove "),
                    "{go}: {end:?}"
                );
                assert!(took < Duration::from_millis(500), "{go}: {took:?}");
            }
        }
    }

    #[test]
    fn a_timed_search_ends_on_its_clock_and_pondering_waits_for_the_hit() {
        let (mut s, sink) = session(true);
        s.handle("position startpos");
        let start = Instant::now();
        s.handle("go movetime 300");
        while s.resume() {}
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(200), "{took:?}");
        assert!(sink.take().last().unwrap().starts_with("bestmove"));
        s.handle("setoption name MultiPV value 1");
        s.handle("go ponder movetime 100 depth 2");
        while s.resume() {}
        let held = sink.take();
        assert!(!held.iter().any(|l| l.starts_with("best")), "{held:?}");
        s.handle("ponderhit");
        while s.resume() {}
        assert!(sink.take().last().unwrap().starts_with("bestmove"));
        s.handle("ponderhit");
        assert!(sink.take()[0].contains("error: ponderhit"));
    }
}
