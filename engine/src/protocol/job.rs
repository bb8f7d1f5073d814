//! A running search or perft, in one shape whichever way it is driven: by
//! a thread of its own to its end ([`Job::step`] without a slice), or, in
//! a host with one thread ([`Session::cooperative`]), a slice at a time
//! from [`Session::resume`], the host reading its input between slices.
//! Either way the input loop's orders reach it through the same
//! [`Orders`] (`stop`, `ponderhit`), and it writes the same lines.

use super::{
    Output, PERFT_STOPPED, Plan, Session, best_lines, conclude, perft_lines, report_line, reporter,
};
use crate::clock::Instant;
use crate::engine::{PreparedSearch, Report, SliceEnd};
use crate::search::Info;
use crate::search::control::Ponder;
use splut_protocol::words::InfoString;
use splut_rules::{PerftWalk, Position};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest a cooperative session's search runs before the host reads
/// its input again.
pub const SLICE: Duration = Duration::from_millis(50);

/// What the input loop tells a running job, and what it reads of it.
pub(super) struct Orders {
    /// `stop` (for a search the engine's flag for it, which it watches).
    stop: Arc<AtomicBool>,
    /// `go infinite`: the answer waits for `stop`, whatever ends the
    /// search (a limit, a proof, a search that cannot go on).
    infinite: bool,
    /// A ponder search's handle (`ponderhit` hits it): until the hit its
    /// answer waits like an infinite one's, then it is an ordinary limited
    /// search.
    ponder: Option<Arc<Ponder>>,
    /// Cleared just before the job's last lines, so that a command that
    /// needs an idle engine, sent once they are read, is taken.
    busy: AtomicBool,
}

impl Orders {
    /// Whether the job is running (its last lines not yet being written).
    pub(super) fn busy(&self) -> bool {
        self.busy.load(SeqCst)
    }

    /// Tells the job to end: a search answers with its best so far, a
    /// perft with no count.
    pub(super) fn stop(&self) {
        self.stop.store(true, SeqCst);
    }

    fn stopped(&self) -> bool {
        self.stop.load(SeqCst)
    }

    /// Whether the answer waits for an order from outside (`stop`, or the
    /// `ponderhit` of a ponder search not hit yet): nothing but that
    /// order ends it, so the end of input stops it at once.
    pub(super) fn waits_for_order(&self) -> bool {
        self.infinite || self.ponder.as_ref().is_some_and(|p| p.hit_at().is_none())
    }

    /// The handle of a search still pondering: not hit yet and running.
    pub(super) fn pondering(&self) -> Option<&Arc<Ponder>> {
        self.ponder
            .as_ref()
            .filter(|p| p.hit_at().is_none() && self.busy())
    }
}

/// Where a job stands after a [`Job::step`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Progress {
    /// It goes on: step it again (after reading the input).
    Runs,
    /// The search has ended, its answer waiting for an order (`stop`, or
    /// the hit): step it again once one came.
    Holds,
    /// Its last lines are written.
    Ended,
}

/// A running search or perft, and where its lines go.
pub(super) struct Job {
    work: Work,
    orders: Arc<Orders>,
    out: Output,
}

enum Work {
    Search(Box<Thinking>),
    Perft(Box<PerftWalk>),
}

/// A search and what its lines need.
struct Thinking {
    search: PreparedSearch,
    root: Position,
    show_win_prob: bool,
    /// Where its turn is kept once it ends.
    plan: Arc<Mutex<Option<Plan>>>,
    /// The last `info` of the best line shown.
    reported: Option<Info>,
    /// The search's answer, once it has ended, while it waits for an
    /// order.
    held: Option<Report>,
}

impl Job {
    /// A job for `search` (`infinite` when `go infinite`), its lines
    /// (with win probabilities when `show_win_prob`) written to `out`,
    /// its turn kept in `plan`.
    pub(super) fn search(
        search: PreparedSearch,
        infinite: bool,
        show_win_prob: bool,
        out: Output,
        plan: Arc<Mutex<Option<Plan>>>,
    ) -> Job {
        let orders = Orders {
            stop: search.stop_flag(),
            infinite,
            ponder: search.ponder(),
            busy: AtomicBool::new(true),
        };
        let thinking = Thinking {
            root: *search.root(),
            search,
            show_win_prob,
            plan,
            reported: None,
            held: None,
        };
        Job {
            work: Work::Search(Box::new(thinking)),
            orders: Arc::new(orders),
            out,
        }
    }

    /// A job counting the perft of `pos` to `depth`.
    pub(super) fn perft(pos: &Position, depth: u32, out: Output) -> Job {
        let orders = Orders {
            stop: Arc::new(AtomicBool::new(false)),
            infinite: false,
            ponder: None,
            busy: AtomicBool::new(true),
        };
        Job {
            work: Work::Perft(Box::new(PerftWalk::new(pos, depth))),
            orders: Arc::new(orders),
            out,
        }
    }

    /// The job's orders, shared with the input loop.
    pub(super) fn orders(&self) -> &Arc<Orders> {
        &self.orders
    }

    /// Whether the job holds its answer until an order.
    pub(super) fn holds(&self) -> bool {
        matches!(&self.work, Work::Search(t) if t.held.is_some())
    }

    /// Runs the job for at most `slice` (without one, to its end or its
    /// hold), writing its lines, and says where it stands.
    pub(super) fn step(&mut self, slice: Option<Duration>) -> Progress {
        match &mut self.work {
            Work::Perft(walk) => {
                let (stop, end) = (&self.orders.stop, slice.map(|s| Instant::now() + s));
                let mut go_on = || !stop.load(SeqCst) && end.is_none_or(|e| Instant::now() < e);
                let lines = if walk.run(&mut go_on) {
                    perft_lines(walk.divide(), walk.total())
                } else if self.orders.stopped() {
                    vec![InfoString::new(PERFT_STOPPED).to_string()]
                } else {
                    return Progress::Runs;
                };
                self.end(&lines)
            }
            Work::Search(t) => {
                let report = match t.held.take() {
                    Some(held) => held,
                    None => match Self::think(t, slice, self.orders.stopped(), &self.out) {
                        Some(report) => {
                            self.conclude(&report);
                            report
                        }
                        None => return Progress::Runs,
                    },
                };
                if self.orders.waits_for_order() && !self.orders.stopped() {
                    if let Work::Search(t) = &mut self.work {
                        t.held = Some(report);
                    }
                    return Progress::Holds;
                }
                self.end(&best_lines(&report.turn))
            }
        }
    }

    /// Searches on for `slice` (to the end without one), or ends the
    /// search at once when `stopped` and sliced; the report once it ended.
    fn think(
        t: &mut Thinking,
        slice: Option<Duration>,
        stopped: bool,
        out: &Output,
    ) -> Option<Report> {
        let (root, wp) = (t.root, t.show_win_prob);
        let line = |i: &Info| report_line(&root, i, wp);
        let mut on_info = reporter(out, &line, &mut t.reported);
        match slice {
            None => Some(t.search.run(&mut on_info)),
            Some(_) if stopped => Some(t.search.finish()),
            Some(slice) => match t.search.run_slice(slice, &mut on_info) {
                SliceEnd::Paused => None,
                SliceEnd::Done(report) => Some(report),
            },
        }
    }

    /// The search ended with `report`: its turn becomes the plan, and the
    /// totals are written unless its last report had them.
    fn conclude(&self, report: &Report) {
        let Work::Search(t) = &self.work else {
            return;
        };
        let line = |i: &Info| report_line(&t.root, i, t.show_win_prob);
        if let Some(totals) = conclude(report, t.reported.as_ref(), &t.plan, t.root, &line) {
            self.out.line(&totals);
        }
    }

    /// The job's last lines: written once it is no longer busy.
    fn end(&self, lines: &[String]) -> Progress {
        self.orders.busy.store(false, SeqCst);
        for line in lines {
            self.out.line(line);
        }
        Progress::Ended
    }
}

/// How a session's job is driven.
pub(super) enum Driver {
    /// On the session's search thread; the receiver closes once the job
    /// has written its last lines and is dropped.
    Thread(std::sync::mpsc::Receiver<()>),
    /// A slice at a time, by [`Session::resume`].
    Slices(Box<Job>),
}

/// The session's running job: its orders, and how it is driven.
pub(super) struct Running {
    pub(super) orders: Arc<Orders>,
    pub(super) driver: Driver,
}

impl Session {
    /// Whether a cooperative session's search or perft wants
    /// [`Session::resume`]: it runs, and its answer is not being held.
    pub fn thinking(&self) -> bool {
        matches!(
            &self.running,
            Some(Running { driver: Driver::Slices(job), .. }) if !job.holds()
        )
    }

    /// Runs the next slice of a cooperative session's search or perft (or
    /// gives a held answer an order has released); returns whether the
    /// host should call again, after reading any input that came.
    pub fn resume(&mut self) -> bool {
        let Some(Running {
            driver: Driver::Slices(job),
            ..
        }) = &mut self.running
        else {
            return false;
        };
        match job.step(Some(SLICE)) {
            Progress::Runs => true,
            Progress::Holds => false,
            Progress::Ended => {
                self.running = None;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests;
