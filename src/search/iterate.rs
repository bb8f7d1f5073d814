//! Iterative deepening: one worker searches the root one step deeper at a
//! time, reporting each completed iteration, until a limit, the target
//! depth or a proven result ends it.

use super::Info;
use super::control::{Control, Progress};
use super::thread::Worker;
use super::tt::TranspositionTable;
use crate::game::Position;
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
}

impl Iteration<'_> {
    /// The main thread's iterations: each completed one is reported; the
    /// last (or a cut-short one whose first root step was searched
    /// through) is returned.
    pub fn main(&self, w: &mut dyn Worker, report: &mut dyn FnMut(&Info)) -> Info {
        let (control, soft) = (self.control, self.soft);
        let mut pos = *self.root;
        let mut best = Info::default();
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
            let nodes = self.progress.nodes() + w.nodes() % 1024;
            let ms = control.elapsed().as_millis() as u64;
            best = Info {
                depth,
                seldepth: w.seldepth() as u32,
                score: w.score(value),
                nodes,
                nps: nodes * 1000 / ms.max(1),
                time_ms: ms,
                hashfull: self.tt.hashfull(),
                pv,
            };
            report(&best);
            let steps_left = u32::from(pos.steps_left());
            // An analysis (`infinite`) goes on deepening a proven result.
            if !self.infinite && best.score.is_decided() && depth >= steps_left {
                break;
            }
            if soft.is_some_and(|s| control.elapsed() >= s) {
                break;
            }
        }
        best
    }
}
