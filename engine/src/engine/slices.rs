//! A search run in slices, for a host with one thread: WebAssembly in a
//! Web Worker or under Node has no second thread to read `stop` while a
//! search runs, so the search pauses every few tens of milliseconds
//! ([`PreparedSearch::run_slice`]), the host reads its input, and the
//! search starts again where the table left it: the table keeps what the
//! slices before found, so the iterations they completed are found again
//! at once and the search goes on deepening. The time limits count from
//! the first slice (a pondering search's from its hit), node limits over
//! all slices, and each `info` line is passed on once.

use super::{PreparedSearch, Report, win_probabilities};
use crate::clock::Instant;
use crate::search::time::{self, Budget};
use crate::search::{Algorithm, Info, Limits, Resumes, Search};
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
    /// The deepest result so far (the latest of equal depth).
    best: Option<Report>,
    /// The last `info` passed on: its depth and line (`multipv`).
    shown: (u32, u32),
    /// Where the iterations stand, for the next slice to go on from.
    resumes: Resumes,
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
    /// calling `on_info` with each iteration not passed on before (nodes
    /// and time counted over all slices). Call it again after
    /// [`SliceEnd::Paused`]; [`PreparedSearch::finish`] ends the search
    /// at any point (`stop`). A search limited only by nodes or depth may
    /// also run in one go with [`PreparedSearch::run`], which counts
    /// exactly the nodes a native search counts.
    pub fn run_slice(&mut self, pause: Duration, on_info: &mut dyn FnMut(&Info)) -> SliceEnd {
        let continues = self.slices.started.is_some();
        let started = *self.slices.started.get_or_insert_with(Instant::now);
        let Some(budget) = self.time_left(started) else {
            return SliceEnd::Done(self.finish());
        };
        let nodes_left = self
            .limits
            .nodes
            .map(|n| n.saturating_sub(self.slices.nodes));
        if nodes_left == Some(0) {
            return SliceEnd::Done(self.finish());
        }
        let limits = Limits {
            nodes: nodes_left,
            ..self.limits.clone()
        };
        let paused = Arc::new(AtomicBool::new(false));
        let search = Search {
            root: &self.root,
            game_hashes: &self.game_hashes,
            limits: &limits,
            settings: &self.settings,
            tt: &self.tt,
            eval_caches: &self.eval_caches,
            workers: &self.workers,
            ponder: None,
            budget: Some(budget),
            pause: Some((pause, paused.clone())),
            continues,
            resumes: Some(&self.slices.resumes),
        };
        let (before, shown) = (self.slices.nodes, &mut self.slices.shown);
        let outcome = search.think(self.stop.clone(), &mut |i| {
            let i = totals(i, before, started);
            if (i.depth, i.multipv) > *shown {
                *shown = (i.depth, i.multipv);
                on_info(&i);
            }
        });
        self.slices.nodes += outcome.info.nodes;
        let deeper = self
            .slices
            .best
            .as_ref()
            .is_none_or(|b| outcome.info.depth >= b.info.depth);
        if deeper && !outcome.turn.is_empty() {
            self.slices.best = Some(Report {
                win_probabilities: win_probabilities(&self.root, &outcome.info),
                turn: outcome.turn,
                info: outcome.info,
            });
        }
        if paused.load(SeqCst) && !self.stop.load(SeqCst) {
            SliceEnd::Paused
        } else {
            SliceEnd::Done(self.finish())
        }
    }

    /// Whether the search keeps its work between slices in the table
    /// (alpha-beta, max-n, best-reply search): MCTS keeps a tree, which
    /// each slice would grow again from nothing, so a host runs a timed
    /// MCTS search in one go ([`PreparedSearch::run`]).
    pub fn resumes_from_the_table(&self) -> bool {
        let algorithm = self.settings.algorithm.resolve(self.root.players_left());
        !matches!(algorithm, Algorithm::Mcts | Algorithm::UctPlain)
    }

    /// The best result of the slices so far, with the nodes and time of
    /// them all (`stop`): a search of one iteration if no slice finished
    /// one.
    pub fn finish(&mut self) -> Report {
        let started = *self.slices.started.get_or_insert_with(Instant::now);
        let report = match self.slices.best.take() {
            // A slice that paused left its line as it stood: the turn is
            // completed now (at once when the line already completes it).
            Some(r) => Report {
                turn: self.search().complete_turn(&r.turn),
                ..r
            },
            None => {
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
