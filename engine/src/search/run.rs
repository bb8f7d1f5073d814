//! One search from start to answer: the time budget, the choice of search
//! for the algorithm, the fallback to best-reply search when paranoid
//! alpha-beta proves a loss, and the turn completed from its line.

use super::alphabeta::{AlphaBeta, Mode};
use super::complete_turn::complete_turn;
use super::control::{Control, Ponder, Progress, cores};
use super::iterate::Resume;
use super::maxn::MaxN;
use super::score::Score;
use super::smp::{Iteration, MakeSearcher, lazy_smp};
use super::thread::{Searcher, Shared};
use super::tt::TranspositionTable;
use super::workers::Workers;
use super::{Algorithm, Info, Limits, MAX_DEPTH, Outcome, Settings, mcts, reference, skill, time};
use crate::clock::Instant;
use crate::eval::{EvalCaches, EvalParams};
use splut_rules::Position;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Below this much time left, a proven loss is not searched again.
const FALLBACK_MIN_TIME: Duration = Duration::from_millis(5);

/// What a search run in slices keeps between them, so each slice goes on
/// where the one before paused: the iterations of its first search, that
/// search's outcome once it has ended (the slices after go on with its
/// fallback, [`Search::think`]), and the fallback's iterations.
#[derive(Debug, Default)]
pub(crate) struct Resumes {
    first: Mutex<Resume>,
    first_done: Mutex<Option<Outcome>>,
    fallback: Mutex<Resume>,
}

/// What a search works on: the root and the positions before it, the
/// limits and settings, and what the engine keeps between searches (the
/// table, the evaluation caches no thread holds, the search threads and
/// their workers). Built by the `Engine` (a floor up) once per `go`; each
/// search run on it (the first, a fallback) brings its own [`Control`].
pub(crate) struct Search<'a> {
    /// The position searched.
    pub(crate) root: &'a Position,
    /// Hashes of the game's earlier positions (repetitions).
    pub(crate) game_hashes: &'a [u64],
    /// What limits the search.
    pub(crate) limits: &'a Limits,
    /// How it searches.
    pub(crate) settings: &'a Settings,
    /// The table shared by every thread and search.
    pub(crate) tt: &'a TranspositionTable,
    /// Evaluation caches that no worker holds ([`EvalCaches`]).
    pub(crate) eval_caches: &'a EvalCaches,
    /// The helper threads, and every search thread's worker.
    pub(crate) workers: &'a Workers,
    /// Pondering (`go ponder`): the time limits count from its hit.
    pub(crate) ponder: Option<Arc<Ponder>>,
    /// The time left, instead of the limits' (a search run in slices).
    pub(crate) budget: Option<time::Budget>,
    /// When a search run in slices pauses, and the flag it then sets.
    pub(crate) pause: Option<(Duration, Arc<AtomicBool>)>,
    /// A later slice of a search run in slices: the table's entries are
    /// this search's own, not aged as a new search's would be.
    pub(crate) continues: bool,
    /// Where a search run in slices keeps its MCTS trees between them.
    pub(crate) mcts: Option<&'a mcts::Kept>,
    /// A search run in slices: where the slices before left it.
    pub(crate) resumes: Option<&'a Resumes>,
}

impl Search<'_> {
    /// Searches the root (reached after positions hashing to `game_hashes`)
    /// and returns the rest of the turn to play. `report` receives an [`Info`] after
    /// every iteration. `stop` may be set from another thread to end the search
    /// early. `infinite` obeys every other limit given; it only keeps
    /// deepening a proven result (holding the answer back until `stop` is the
    /// caller's business).
    ///
    /// With `Algorithm::Auto` and 3–4 players, paranoid alpha-beta may prove a
    /// loss: all the other seats together can kill the side to move. Real
    /// opponents do not play as one, and every turn then looks alike to
    /// paranoid (it may even pass up a kill), so the rest of the budget goes
    /// to best-reply search, which assumes only one opponent replies, and its
    /// turn is played.
    ///
    /// At a strength level below the top ([`Settings::skill`]) the search
    /// is [`skill::think`]'s.
    pub fn think(&self, stop: Arc<AtomicBool>, report: &mut dyn FnMut(&Info)) -> Outcome {
        if let Some(skill) = &self.settings.skill {
            return skill::think(self, skill, stop, report);
        }
        let (root, limits, settings) = (self.root, self.limits, self.settings);
        let start = Instant::now();
        let budget = self
            .budget
            .unwrap_or_else(|| time::budget(limits.movetime, limits.clock, settings.move_overhead));
        let (hard, soft) = (budget.hard, budget.soft);
        let algorithm = settings.algorithm.resolve(root.players_left());
        let control = Control::new(stop.clone(), hard, limits.nodes)
            .pondering_on(self.ponder.clone())
            .pausing(self.pause.clone());
        // A slice after the first search ended goes on with its fallback.
        let done = self
            .resumes
            .and_then(|r| r.first_done.lock().ok().and_then(|d| d.clone()));
        let fresh = done.is_none();
        let first = match done {
            Some(outcome) => outcome,
            None => {
                let resume = self.resumes.map(|r| &r.first);
                self.run(algorithm, &control, soft, report, resume)
            }
        };
        if self.paused() {
            return first;
        }
        if let Some(r) = self.resumes
            && let Ok(mut d) = r.first_done.lock()
        {
            *d = Some(first.clone());
        }
        // The first search's nodes, when counted in this slice.
        let first_nodes = if fresh { first.info.nodes } else { 0 };
        let paranoid_lost = settings.algorithm == Algorithm::Auto
            && algorithm == Algorithm::AlphaBeta
            && root.players_left() >= 3
            && matches!(first.info.score, Score::Loss(_));
        if !paranoid_lost || limits.infinite || control.stopped_from_outside() {
            return first;
        }
        let elapsed = control.clock_elapsed();
        let nodes_left = limits.nodes.map(|n| n.saturating_sub(first_nodes));
        let hard_left = hard.map(|h| h.saturating_sub(elapsed));
        if nodes_left == Some(0) || hard_left.is_some_and(|h| h < FALLBACK_MIN_TIME) {
            return first;
        }
        // A pondering search's clock runs from its hit, for the fallback
        // too: it keeps the whole budget, counted from there.
        let (hard, soft) = if self.ponder.is_some() {
            (hard, soft)
        } else {
            (hard_left, soft.map(|s| s.saturating_sub(elapsed)))
        };
        let control = Control::new(stop, hard, nodes_left)
            .pondering_on(self.ponder.clone())
            .pausing(self.pause.clone());
        let resume = self.resumes.map(|r| &r.fallback);
        let mut fallback = self.run(Algorithm::Brs, &control, soft, report, resume);
        if fallback.info.depth == 0 {
            // Not one iteration done: the paranoid turn is as good a guess.
            return first;
        }
        fallback.info.nodes += first_nodes;
        fallback.info.time_ms = start.elapsed().as_millis() as u64;
        fallback.info.nps = fallback.info.nodes * 1000 / fallback.info.time_ms.max(1);
        fallback
    }

    /// Whether this slice of a search run in slices has paused.
    fn paused(&self) -> bool {
        self.pause.as_ref().is_some_and(|(_, p)| p.load(SeqCst))
    }

    /// One search with `algorithm` under `control`; `soft` is when
    /// iterative deepening stops starting new iterations; `resume`, where
    /// the slices before left it (a search run in slices). A slice that
    /// pauses answers its line as it stands, the turn not completed
    /// ([`Search::complete_turn`] completes it at the end).
    fn run(
        &self,
        algorithm: Algorithm,
        control: &Control,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Info),
        resume: Option<&Mutex<Resume>>,
    ) -> Outcome {
        let (root, settings) = (self.root, self.settings);
        if !self.continues {
            self.tt.new_search();
        }
        if root.is_game_over() {
            return Outcome {
                turn: Vec::new(),
                info: Info::default(),
            };
        }
        let info = match algorithm {
            Algorithm::Random | Algorithm::Greedy => {
                let turn = if algorithm == Algorithm::Random {
                    reference::random_turn(root, settings.seed)
                } else {
                    reference::greedy_turn(root, settings.seed)
                };
                let info = Info {
                    depth: turn.len() as u32,
                    pv: turn.clone(),
                    time_ms: control.elapsed().as_millis() as u64,
                    ..Info::default()
                };
                report(&info);
                return Outcome { turn, info };
            }
            Algorithm::Mcts | Algorithm::UctPlain => self.mcts(algorithm, control, soft, report),
            _ => self.alpha_beta_family(algorithm, control, soft, report, resume),
        };
        if self.paused() {
            // Completing the turn would search, and reset the main
            // thread's killers the next slice goes on with.
            let turn = info.pv.clone();
            return Outcome { turn, info };
        }
        let turn = complete_turn(root, &info.pv, self, settings);
        Outcome { turn, info }
    }

    /// The rest of the turn `line` begins, completed by short searches
    /// where it stops short of the turn's end.
    pub(crate) fn complete_turn(&self, line: &[splut_rules::Step]) -> Vec<splut_rules::Step> {
        complete_turn(self.root, line, self, self.settings)
    }

    /// Search threads: one under a node limit (exact only on one thread).
    fn threads(&self) -> usize {
        if self.limits.nodes.is_some() {
            1
        } else {
            self.settings.threads.clamp(1, cores())
        }
    }

    /// The weights for the count of seats at the root.
    fn params(&self) -> &EvalParams {
        self.settings.params.for_players(self.root.players_left())
    }

    /// MCTS, or plain UCT.
    fn mcts(
        &self,
        algorithm: Algorithm,
        control: &Control,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Info),
    ) -> Info {
        let settings = self.settings;
        let cfg = if algorithm == Algorithm::Mcts {
            settings.mcts
        } else {
            mcts::MctsConfig {
                parallel: settings.mcts.parallel,
                ..mcts::UCT_PLAIN
            }
        };
        let run = mcts::MctsRun {
            cfg: &cfg,
            params: self.params(),
            net: settings.net_for(self.root, algorithm).map(|n| &**n),
            threads: self.threads(),
            workers: self.workers,
            seed: settings.seed,
            tree_mib: settings.tree_mib,
            control,
            soft,
            max_simulations: self.limits.nodes,
            max_depth: self.limits.depth,
            kept: self.mcts,
        };
        mcts::run(self.root, &run, report)
    }

    /// Alpha-beta, paranoid, best-reply or max-n, on Lazy SMP threads.
    fn alpha_beta_family(
        &self,
        algorithm: Algorithm,
        control: &Control,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Info),
        resume: Option<&Mutex<Resume>>,
    ) -> Info {
        let (root, tt) = (self.root, self.tt);
        let progress = Progress::default();
        let mode = match algorithm {
            Algorithm::Brs => Mode::Brs,
            Algorithm::BrsPlus => Mode::BrsPlus,
            _ => Mode::Paranoid,
        };
        let shared = Shared {
            tt,
            params: self.params(),
            control,
            progress: &progress,
            eval_caches: self.eval_caches,
            net: self.settings.net_for(root, algorithm),
            resumed: resume.is_some_and(|r| r.lock().is_ok_and(|r| r.next_depth > 0)),
        };
        let searcher: &MakeSearcher<'_> = &|shared, worker, is_main| -> Box<dyn Searcher + '_> {
            match algorithm {
                Algorithm::MaxN => Box::new(MaxN::new(root, shared, worker, is_main)),
                _ => Box::new(AlphaBeta::new(
                    root,
                    self.game_hashes,
                    shared,
                    worker,
                    is_main,
                    mode,
                )),
            }
        };
        let iteration = Iteration {
            root,
            infinite: self.limits.infinite,
            control,
            progress: &progress,
            tt,
            soft,
            max_depth: self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
            multi_pv: self.settings.multi_pv,
            table_usage: self.settings.table_usage,
            resume,
        };
        let threads = self.threads();
        lazy_smp(&iteration, shared, threads, self.workers, searcher, report)
    }
}
