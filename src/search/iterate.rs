//! Iterative deepening: one worker searches the root one step deeper at a
//! time, reporting each completed iteration, until a limit, the target
//! depth or a proven result ends it.

use super::Info;
use super::control::{Control, Progress};
use super::score::INFINITY;
use super::thread::Worker;
use super::tt::TranspositionTable;
use crate::game::{Position, Step};
use std::time::Duration;

/// What every thread of one alpha-beta-family search shares.
pub struct Iteration<'a> {
    /// The position searched.
    pub root: &'a Position,
    /// An analysis: keep deepening a proven result.
    pub infinite: bool,
    /// Stop flags, clock, node limit.
    pub control: &'a Control,
    /// Nodes counted by all threads.
    pub progress: &'a Progress,
    /// The shared table (for `hashfull`).
    pub tt: &'a TranspositionTable,
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Best turns to report (`MultiPV`).
    pub multi_pv: usize,
}

impl Iteration<'_> {
    /// The main thread's iterations: each completed one is reported; the
    /// last (or a cut-short one whose first root step was searched
    /// through) is returned. With `multi_pv` above 1 each iteration
    /// searches again for the next best turn, leaving out the turns found
    /// (a search that cannot leave turns out reports one).
    pub fn main(&self, w: &mut dyn Worker, report: &mut dyn FnMut(&Info)) -> Info {
        let (control, soft) = (self.control, self.soft);
        let mut pos = *self.root;
        let mut best = Info::default();
        let lines = self.multi_pv.max(1);
        for depth in 1..=self.max_depth {
            let value = w.search_root(&mut pos, depth as i32);
            let pv = w.root_pv();
            if w.stopped() {
                // A cut-short iteration still improves on the last one once
                // its first root step has been searched through.
                if depth > 1 && !pv.is_empty() {
                    best.pv = pv;
                }
                break;
            }
            let multipv = u32::from(lines > 1);
            best = self.info(w, depth, value, pv, multipv);
            let more = if lines > 1 {
                self.more_lines(w, &mut pos, depth, &best, lines)
            } else {
                Vec::new()
            };
            report(&best);
            for info in &more {
                report(info);
            }
            let steps_left = u32::from(pos.steps_left());
            // An analysis (`infinite`) goes on deepening a proven result.
            if !self.infinite && best.score.is_decided() && depth >= steps_left {
                break;
            }
            if w.stopped() || soft.is_some_and(|s| control.past(s)) {
                break;
            }
        }
        best
    }

    /// The report of a completed search of `depth`.
    fn info(&self, w: &dyn Worker, depth: u32, value: i32, pv: Vec<Step>, multipv: u32) -> Info {
        let nodes = self.progress.nodes() + w.nodes() % 1024;
        let ms = self.control.elapsed().as_millis() as u64;
        Info {
            depth,
            seldepth: w.seldepth() as u32,
            score: w.score(value),
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: self.tt.hashfull(),
            pv,
            multipv,
        }
    }

    /// `MultiPV`: the second to `lines`th best turns at `depth`, each
    /// searched with the turns before it left out, until none is left, the
    /// search is stopped or the worker cannot leave turns out.
    fn more_lines(
        &self,
        w: &mut dyn Worker,
        pos: &mut Position,
        depth: u32,
        first: &Info,
        lines: usize,
    ) -> Vec<Info> {
        let mut ends = vec![turn_end(pos, &first.pv)];
        let mut more = Vec::new();
        while more.len() + 1 < lines {
            if !w.exclude_turns(&ends) {
                break;
            }
            let value = w.search_root(pos, depth as i32);
            let pv = w.root_pv();
            if w.stopped() || value <= -INFINITY || pv.is_empty() {
                break;
            }
            ends.push(turn_end(pos, &pv));
            more.push(self.info(w, depth, value, pv, more.len() as u32 + 2));
        }
        w.exclude_turns(&[]);
        more
    }
}

/// The hash of the position where `pv` ends the turn of `root`'s side to
/// move (or of where it stops, if it stops sooner).
fn turn_end(root: &Position, pv: &[Step]) -> u64 {
    super::complete_turn::turn_part(root, pv).1.hash()
}
