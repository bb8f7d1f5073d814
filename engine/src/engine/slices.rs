//! A search run in slices, for a host with one thread: WebAssembly in a
//! Web Worker or under Node has no second thread to read `stop` while a
//! search runs, so the search pauses every few tens of milliseconds
//! ([`PreparedSearch::run_slice`]), the host reads its input, and the
//! search goes on in the next slice. Every search runs so, whatever
//! limits it:
//!
//! - alpha-beta, max-n and best-reply search start again where the table
//!   left them: the table keeps what the slices before found, so the
//!   iterations they completed are found again at once and the search
//!   goes on deepening;
//! - MCTS (and plain UCT) keeps its tree between slices
//!   ([`crate::search::mcts::Kept`]): each slice goes on growing the same
//!   tree, with the same random numbers and history;
//! - a strength level below the top runs its smaller search in slices and
//!   chooses among its lines once, at the end.
//!
//! The time limits count from the first slice (a pondering search's from
//! its hit), node limits over all slices, and each `info` line is passed
//! on once. A search that ends within its first slice is the search a
//! native engine runs, node for node.

use super::{PreparedSearch, Report, win_probabilities};
use crate::clock::Instant;
use crate::search::skill::{self, Lines, Skill};
use crate::search::time::{self, Budget};
use crate::search::{Algorithm, Info, Limits, Outcome, Resumes, Search, Settings, mcts};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::Duration;

/// What the slices of one search have found so far.
#[derive(Default)]
pub(super) struct Slices {
    /// When the first slice started.
    started: Option<Instant>,
    /// Nodes searched by the slices so far.
    nodes: u64,
    /// The deepest result so far (the latest of equal depth; with MCTS
    /// the latest).
    best: Option<Report>,
    /// The deepest `info` passed on: its depth and line (`multipv`).
    shown: (u32, u32),
    /// The MCTS trees, kept from one slice to the next.
    trees: mcts::Kept,
    /// A strength level's search, set up at the first slice.
    level: Option<Level>,
    /// Where the iterations stand, for the next slice to go on from.
    resumes: Resumes,
}

/// A strength level's search run in slices: its limits and settings
/// ([`Skill::limits`], [`Skill::settings`]), and the lines of the slice
/// that gave the best result so far, chosen among at the end.
struct Level {
    skill: Skill,
    limits: Limits,
    settings: Settings,
    lines: Lines,
}

/// How a slice ended.
#[derive(Debug)]
pub enum SliceEnd {
    /// The slice's time ran out: run another after reading the input.
    Paused,
    /// The search ended under its own limits (or proved its result).
    Done(Report),
}

impl PreparedSearch {
    /// Runs the search for at most `pause` of the clock (or to its end),
    /// calling `on_info` with each report not passed on before (nodes
    /// and time counted over all slices). Call it again after
    /// [`SliceEnd::Paused`]; [`PreparedSearch::finish`] ends the search
    /// at any point (`stop`). A search that ends within its first slice
    /// is [`PreparedSearch::run`]'s, node for node; one that pauses
    /// searches again from the table what its slices searched, and
    /// counts those nodes too (MCTS does not: its slices grow one tree,
    /// as one run does).
    pub fn run_slice(&mut self, pause: Duration, on_info: &mut dyn FnMut(&Info)) -> SliceEnd {
        let continues = self.slices.started.is_some();
        let started = *self.slices.started.get_or_insert_with(Instant::now);
        let Some(budget) = self.time_left(started) else {
            return SliceEnd::Done(self.finish());
        };
        if let (Some(skill), None) = (&self.settings.skill, &self.slices.level) {
            self.slices.level = Some(Level {
                limits: skill.limits(&self.limits),
                settings: skill.settings(&self.settings, &self.root),
                skill: skill.clone(),
                lines: Lines::default(),
            });
        }
        let Slices {
            nodes: before,
            shown,
            trees,
            level,
            resumes,
            ..
        } = &mut self.slices;
        let (limits, settings) = match level {
            Some(l) => (&l.limits, &l.settings),
            None => (&self.limits, &*self.settings),
        };
        let nodes_left = limits.nodes.map(|n| n.saturating_sub(*before));
        if nodes_left == Some(0) {
            return SliceEnd::Done(self.finish());
        }
        let limits = Limits {
            nodes: nodes_left,
            ..limits.clone()
        };
        let algorithm = settings.algorithm.resolve(self.root.players_left());
        let one_tree = matches!(algorithm, Algorithm::Mcts | Algorithm::UctPlain);
        let paused = Arc::new(AtomicBool::new(false));
        let search = Search {
            root: &self.root,
            game_hashes: &self.game_hashes,
            limits: &limits,
            settings,
            tt: &self.tt,
            eval_caches: &self.eval_caches,
            workers: &self.workers,
            ponder: None,
            budget: Some(budget),
            pause: Some((pause, paused.clone())),
            continues,
            mcts: Some(trees),
            resumes: Some(resumes),
        };
        let before = *before;
        let mut lines = Lines::default();
        // A slice reports again the iterations it searches again: each is
        // passed on once, and from the first new one on every report of
        // the slice, as the search makes them (a best-reply search after
        // paranoid's proven loss starts again at depth 1). MCTS reports
        // once a second (and at its end), never again.
        let mut new_ground = one_tree;
        let outcome = search.think(self.stop.clone(), &mut |i| {
            lines.add(i);
            let i = totals(i, before, started);
            new_ground = new_ground || (i.depth, i.multipv) > *shown;
            if new_ground {
                *shown = (*shown).max((i.depth, i.multipv));
                on_info(&i);
            }
        });
        self.slices.nodes += outcome.info.nodes;
        let better = one_tree
            || self
                .slices
                .best
                .as_ref()
                .is_none_or(|b| outcome.info.depth >= b.info.depth);
        if better && !outcome.turn.is_empty() {
            self.slices.best = Some(Report {
                win_probabilities: win_probabilities(&self.root, &outcome.info),
                turn: outcome.turn,
                info: outcome.info,
            });
            if let Some(level) = &mut self.slices.level {
                level.lines = lines;
            }
        }
        if paused.load(SeqCst) && !self.stop.load(SeqCst) {
            SliceEnd::Paused
        } else {
            SliceEnd::Done(self.finish())
        }
    }

    /// The best result of the slices so far, with the nodes and time of
    /// them all (`stop`): a search of one iteration if no slice finished
    /// one. A strength level chooses its turn here, once.
    pub fn finish(&mut self) -> Report {
        let started = *self.slices.started.get_or_insert_with(Instant::now);
        let level = self.slices.level.take();
        let report = match (self.slices.best.take(), level) {
            // A slice that paused left its line as it stood: the turn is
            // completed now (at once when the line already completes it).
            (Some(r), None) => Report {
                turn: self.search().complete_turn(&r.turn),
                ..r
            },
            (Some(r), Some(level)) => self.chosen(r, level),
            (None, _) => {
                let limits = Limits {
                    depth: Some(1),
                    ..Limits::default()
                };
                let search = Search {
                    limits: &limits,
                    budget: None,
                    ..self.search()
                };
                let outcome = search.think(Arc::new(AtomicBool::new(false)), &mut |_| {});
                self.slices.nodes += outcome.info.nodes;
                Report {
                    win_probabilities: win_probabilities(&self.root, &outcome.info),
                    turn: outcome.turn,
                    info: outcome.info,
                }
            }
        };
        // The nodes of every slice (the best report counts its own only).
        let others = self.slices.nodes.saturating_sub(report.info.nodes);
        let report = Report {
            info: totals(&report.info, others, started),
            ..report
        };
        self.slices.best = Some(report.clone());
        report
    }

    /// The turn a strength level plays after its slices found `best`.
    fn chosen(&self, best: Report, level: Level) -> Report {
        let Level {
            skill,
            settings,
            lines,
            ..
        } = level;
        // A slice that paused left its line as it stood (beyond the turn,
        // or short of its end): the turn is cut and completed first, as
        // without a level, whichever line the level then chooses.
        let outcome = Outcome {
            turn: self.search().complete_turn(&best.turn),
            info: best.info,
        };
        let outcome = skill::choose_turn(&self.search(), &skill, &settings, outcome, lines);
        Report {
            win_probabilities: win_probabilities(&self.root, &outcome.info),
            turn: outcome.turn,
            info: outcome.info,
        }
    }

    /// The time the search has left, counted from `started` (a pondering
    /// search's from its hit; no limit before it), or `None` when it is
    /// up: past the hard limit, or past the soft one with a result found.
    fn time_left(&self, started: Instant) -> Option<Budget> {
        let full = time::budget(
            self.limits.movetime,
            self.limits.clock,
            self.settings.move_overhead,
        );
        let from = match &self.ponder {
            None => Some(started),
            Some(p) => p.hit_at(),
        };
        let Some(from) = from else {
            return Some(Budget {
                soft: None,
                hard: None,
            });
        };
        let spent = from.elapsed();
        let found = self.slices.best.is_some();
        if full.hard.is_some_and(|h| spent >= h) || found && full.soft.is_some_and(|s| spent >= s) {
            return None;
        }
        Some(Budget {
            soft: full.soft.map(|s| s.saturating_sub(spent)),
            hard: full.hard.map(|h| h.saturating_sub(spent)),
        })
    }
}

/// `i` with the nodes of the slices before (`before`) added, the time
/// counted from `started`, and the speed of them both.
fn totals(i: &Info, before: u64, started: Instant) -> Info {
    let (nodes, time_ms) = (i.nodes + before, started.elapsed().as_millis() as u64);
    Info {
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
        ..i.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use splut_rules::{Game, Position};

    /// `limits`' search of `game` by `engine`, run in slices of `pause`:
    /// its report, the slices run and the reports passed on.
    fn in_slices(
        engine: &Engine,
        game: &Game,
        limits: &Limits,
        pause: Duration,
    ) -> (Report, usize, Vec<Info>) {
        let mut search = engine.prepare(game, limits).unwrap();
        let mut infos = Vec::new();
        for slices in 1.. {
            if let SliceEnd::Done(r) = search.run_slice(pause, &mut |i| infos.push(i.clone())) {
                return (r, slices, infos);
            }
        }
        unreachable!()
    }

    /// `i` without what the clock says.
    fn timeless(i: &Info) -> Info {
        Info {
            time_ms: 0,
            nps: 0,
            ..i.clone()
        }
    }

    #[test]
    fn mcts_in_slices_grows_one_tree_as_one_run_does() {
        for (algorithm, players, nodes) in [("mcts", 3, 40_000), ("uct-plain", 2, 4_000)] {
            let options = [("Algorithm", algorithm)];
            let game = Game::new(Position::start(players).unwrap());
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let one = Engine::with_options(&options).unwrap();
            let whole = one.go(&game, &limits, |_| {}).unwrap();
            let sliced = Engine::with_options(&options).unwrap();
            let pause = Duration::from_millis(1);
            let (parts, slices, infos) = in_slices(&sliced, &game, &limits, pause);
            assert!(slices >= 4, "{algorithm}: {slices} slices");
            // The simulations of every slice, and the tree one run grows:
            // the same line, score, depths and tree size.
            assert_eq!(parts.info.nodes, nodes, "{algorithm}");
            assert_eq!(timeless(&parts.info), timeless(&whole.info), "{algorithm}");
            assert_eq!(parts.turn, whole.turn, "{algorithm}");
            // A report a second and one at the end, never one a slice.
            assert!(infos.len() < slices, "{algorithm}: {}", infos.len());
            assert_eq!(infos.last().map(timeless), Some(timeless(&parts.info)));
        }
    }

    #[test]
    fn a_level_runs_its_search_in_slices_within_its_caps() {
        let options = [("Skill Level", "6")];
        let skill = Skill::at(6.0).unwrap();
        let game = Game::new(Position::start(3).unwrap());
        let limits = Limits::default();
        let whole = Engine::with_options(&options)
            .unwrap()
            .go(&game, &limits, |_| {})
            .unwrap();
        // A slice long enough for the whole search: the native search.
        let long = Duration::from_secs(600);
        let engine = Engine::with_options(&options).unwrap();
        let (one, slices, _) = in_slices(&engine, &game, &limits, long);
        assert_eq!(slices, 1);
        assert_eq!(
            (timeless(&one.info), &one.turn),
            (timeless(&whole.info), &whole.turn)
        );
        // Short slices: the caps count over them all, the lines are shown
        // once each, and the turn is whole and legal.
        let engine = Engine::with_options(&options).unwrap();
        let short = Duration::from_micros(200);
        let (parts, slices, infos) = in_slices(&engine, &game, &limits, short);
        assert!(slices > 1, "{slices}");
        assert!(parts.info.depth <= skill.depth);
        let nodes = parts.info.nodes;
        assert!(nodes <= skill.nodes + 100, "{nodes} of {}", skill.nodes);
        let shown: Vec<(u32, u32)> = infos.iter().map(|i| (i.depth, i.multipv)).collect();
        assert!(shown.windows(2).all(|w| w[0] < w[1]), "{shown:?}");
        assert!(infos.iter().any(|i| i.multipv == 2), "{shown:?}");
        let mut pos = *game.position();
        for &s in &parts.turn {
            assert!(pos.is_legal(s), "{:?}", parts.turn);
            pos.play(s);
        }
        assert_ne!(pos.side_to_move(), game.position().side_to_move());
    }

    /// A level stopped after slices that paused (`go ponder`, then `stop`,
    /// in WebAssembly) answers with its own turn: the paused line is cut
    /// where the turn ends (found by the protocol fuzzer: a 6-step
    /// `bestturn` for a seat with 1 step left).
    #[test]
    fn a_level_stopped_after_paused_slices_answers_its_turn_only() {
        let spn = "R/3/2gT2/4gS2/2R4gDR/3rS3/2rD2/2rT/R r 1 15 - e1 -";
        let game = Game::new(Position::from_spn(spn).unwrap());
        let limits = Limits {
            ponder: true,
            ..Limits::default()
        };
        for level in ["0", "6", "12", "19"] {
            for slices in 1..6 {
                let engine = Engine::with_options(&[("Skill Level", level)]).unwrap();
                let mut search = engine.prepare(&game, &limits).unwrap();
                let mut done = None;
                for _ in 0..slices {
                    if let SliceEnd::Done(r) =
                        search.run_slice(Duration::from_micros(300), &mut |_| {})
                    {
                        done = Some(r);
                        break;
                    }
                }
                // `stop`: the slices' best so far.
                let r = done.unwrap_or_else(|| search.finish());
                assert_eq!(
                    r.turn.len(),
                    1,
                    "level {level}, {slices} slices: {:?}",
                    r.turn
                );
                assert!(game.position().is_legal(r.turn[0]));
            }
        }
    }
}
