//! Search: iterative deepening over steps, a turn at a time.
//!
//! - [`alphabeta`]: principal variation search (2 players) and paranoid
//!   alpha-beta (3–4 players), with the transposition table ([`tt`]), step
//!   ordering ([`ordering`]) and a quiescence search on killing throws.
//! - [`maxn`]: max-n with shallow pruning for 3–4 players.
//! - Best-reply search (BRS, BRS+) for 3–4 players: a mode of alpha-beta.
//! - [`mcts`]: Monte Carlo tree search (and plain UCT), parallel on rayon.
//! - [`reference`]: the random and greedy reference players.
//! - [`time`]: how long a search may take.
//! - Lazy SMP: with `threads > 1`, helper threads search the same tree and
//!   share the table. Every thread publishes its completed iterations; the
//!   deepest one is played, and a helper that completes the target depth
//!   first ends the search.
//!
//! A search answers with the whole rest of the side to move's turn: the
//! principal variation's steps until the turn ends, completed by short
//! searches if the variation stops early.

pub mod alphabeta;
pub mod maxn;
pub mod mcts;
pub mod ordering;
pub mod reference;
pub mod score;
pub mod thread;
pub mod time;
pub mod tt;

use crate::eval::EvalParams;
use crate::game::{Position, Step};
use alphabeta::{AlphaBeta, Mode};
use maxn::MaxN;
use score::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thread::Worker;
use tt::TranspositionTable;

/// Deepest iteration, in steps.
pub const MAX_DEPTH: u32 = 100;

/// The searches this engine has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Algorithm {
    /// The default for the number of players in the game.
    Auto,
    /// Alpha-beta: PVS for 2 players, paranoid for 3–4.
    AlphaBeta,
    /// Max-n with shallow pruning (any number of players; meant for 3–4).
    MaxN,
    /// Best-reply search (3–4 players; alpha-beta with 2).
    Brs,
    /// BRS+: best-reply search where skipped opponents play their
    /// first-ordered step.
    BrsPlus,
    /// Monte Carlo tree search.
    Mcts,
    /// Plain UCT: random playouts, no evaluation (a baseline).
    UctPlain,
    /// Uniformly random steps (a baseline).
    Random,
    /// One turn deep: kill if possible, avoid dying if possible (a
    /// baseline).
    Greedy,
}

impl Algorithm {
    /// All algorithms, in the order the `Algorithm` option lists them.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Auto,
        Algorithm::AlphaBeta,
        Algorithm::MaxN,
        Algorithm::Brs,
        Algorithm::BrsPlus,
        Algorithm::Mcts,
        Algorithm::UctPlain,
        Algorithm::Random,
        Algorithm::Greedy,
    ];

    /// Parses an option value (case-insensitive); `paranoid` is accepted
    /// for `alphabeta`, which is paranoid alpha-beta with 3–4 players.
    pub fn parse(s: &str) -> Option<Algorithm> {
        let s = s.to_ascii_lowercase();
        if s == "paranoid" {
            return Some(Algorithm::AlphaBeta);
        }
        Algorithm::ALL.into_iter().find(|a| a.name() == s)
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::MaxN => "maxn",
            Algorithm::Brs => "brs",
            Algorithm::BrsPlus => "brsplus",
            Algorithm::Mcts => "mcts",
            Algorithm::UctPlain => "uct-plain",
            Algorithm::Random => "random",
            Algorithm::Greedy => "greedy",
        }
    }

    /// The search `Auto` stands for with this many players left: the one
    /// that scored best in the README's tournaments ("Strength"), which is
    /// alpha-beta (PVS with 2 players, paranoid with 3 and 4) for every
    /// player count; the count stays an argument so that a measurement
    /// that says otherwise changes only this function.
    pub fn resolve(self, _players: u32) -> Algorithm {
        match self {
            Algorithm::Auto => Algorithm::AlphaBeta,
            a => a,
        }
    }
}

/// What limits a search. Several may be given; the first reached stops it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in steps.
    pub depth: Option<u32>,
    /// Nodes to search (searched on one thread, so the count is exact).
    pub nodes: Option<u64>,
    /// Milliseconds to search.
    pub movetime: Option<u64>,
    /// The mover's clock.
    pub clock: Option<time::Clock>,
    /// Search until told to stop.
    pub infinite: bool,
}

/// How the engine searches (the protocol's options).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Which search.
    pub algorithm: Algorithm,
    /// Search threads (Lazy SMP for alpha-beta); at most [`cores`] run.
    pub threads: usize,
    /// Milliseconds lost between engine and referee per move.
    pub move_overhead: u64,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Seed of the randomised searches (MCTS, UCT, random, greedy).
    pub seed: u64,
    /// Memory for the MCTS tree, MiB.
    pub tree_mib: usize,
    /// The MCTS knobs (its `parallel` also serves plain UCT).
    pub mcts: mcts::MctsConfig,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::Auto,
            threads: 1,
            move_overhead: 30,
            params: EvalParams::default(),
            seed: 0,
            tree_mib: 64,
            mcts: mcts::MCTS,
        }
    }
}

/// One progress report (an `info` line).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Info {
    /// Iteration depth in steps.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// From the root side's view.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Table use, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Step>,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The rest of the side to move's turn (empty only when the game is
    /// over).
    pub turn: Vec<Step>,
    /// The last report.
    pub info: Info,
}

/// Stop flags, clock and node limit, shared by the threads of one search.
pub struct Control {
    /// Set by the search itself (time or nodes up, target depth reached).
    stop: AtomicBool,
    /// Set from outside (`stop`, `quit`); never written by the search, so
    /// a search can tell its own end from an order to stop.
    outer: Arc<AtomicBool>,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
}

impl Control {
    /// Control for a search starting now; `outer` is set from outside to
    /// stop it.
    pub fn new(outer: Arc<AtomicBool>, hard: Option<Duration>, node_limit: Option<u64>) -> Control {
        Control {
            stop: AtomicBool::new(false),
            outer,
            start: Instant::now(),
            hard,
            node_limit,
        }
    }

    /// Asks every thread to stop.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Whether the search must stop.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.outer.load(Relaxed)
    }

    /// Whether the search was told to stop from outside.
    pub fn stopped_from_outside(&self) -> bool {
        self.outer.load(Relaxed)
    }

    /// Stops the search if the hard time limit has passed.
    pub fn check_time(&self) {
        if self.hard.is_some_and(|h| self.start.elapsed() >= h) {
            self.stop();
        }
    }

    /// Whether `nodes` reached the node limit.
    #[inline]
    pub fn node_limit_reached(&self, nodes: u64) -> bool {
        self.node_limit.is_some_and(|n| nodes >= n)
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Nodes searched by helper threads (added in batches).
#[derive(Default)]
pub struct Progress {
    nodes: AtomicU64,
}

impl Progress {
    /// Adds nodes.
    #[inline]
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }

    /// Nodes added so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// Searches `root` (reached after positions hashing to `game_hashes`) and
/// returns the rest of the turn to play. `report` receives an [`Info`] after
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
pub fn think(
    root: &Position,
    game_hashes: &[u64],
    limits: &Limits,
    settings: &Settings,
    tt: &TranspositionTable,
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let start = Instant::now();
    let budget = time::budget(limits.movetime, limits.clock, settings.move_overhead);
    let (hard, soft) = (budget.hard, budget.soft);
    let algorithm = settings.algorithm.resolve(root.players_left());
    let mut search = |algorithm, control: &Control, soft| {
        search_with(
            algorithm,
            root,
            game_hashes,
            limits,
            settings,
            tt,
            control,
            soft,
            report,
        )
    };
    let control = Control::new(stop.clone(), hard, limits.nodes);
    let first = search(algorithm, &control, soft);
    let paranoid_lost = settings.algorithm == Algorithm::Auto
        && algorithm == Algorithm::AlphaBeta
        && root.players_left() >= 3
        && matches!(first.info.score, Score::Loss(_));
    if !paranoid_lost || limits.infinite || control.stopped_from_outside() {
        return first;
    }
    let elapsed = start.elapsed();
    let nodes_left = limits.nodes.map(|n| n.saturating_sub(first.info.nodes));
    let hard_left = hard.map(|h| h.saturating_sub(elapsed));
    if nodes_left == Some(0) || hard_left.is_some_and(|h| h < FALLBACK_MIN_TIME) {
        return first;
    }
    let control = Control::new(stop, hard_left, nodes_left);
    let mut fallback = search(
        Algorithm::Brs,
        &control,
        soft.map(|s| s.saturating_sub(elapsed)),
    );
    if fallback.info.depth == 0 {
        // Not one iteration done: the paranoid turn is as good a guess.
        return first;
    }
    fallback.info.nodes += first.info.nodes;
    fallback.info.time_ms = start.elapsed().as_millis() as u64;
    fallback.info.nps = fallback.info.nodes * 1000 / fallback.info.time_ms.max(1);
    fallback
}

/// Logical cores of the machine: a search never runs more threads than
/// this. More would gain nothing and starve the thread that keeps the clock
/// (256 threads on 2 cores overran a 100 ms limit by seconds).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Below this much time left, a proven loss is not searched again.
const FALLBACK_MIN_TIME: Duration = Duration::from_millis(5);

/// One search with `algorithm` under `control`; `soft` is when iterative
/// deepening stops starting new iterations.
#[allow(clippy::too_many_arguments)]
fn search_with(
    algorithm: Algorithm,
    root: &Position,
    game_hashes: &[u64],
    limits: &Limits,
    settings: &Settings,
    tt: &TranspositionTable,
    control: &Control,
    soft: Option<Duration>,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let progress = Progress::default();
    tt.new_search();
    // A node limit is exact only on one thread.
    let threads = if limits.nodes.is_some() {
        1
    } else {
        settings.threads.clamp(1, cores())
    };
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);

    let mut last = Info::default();
    if root.is_game_over() {
        return Outcome {
            turn: Vec::new(),
            info: last,
        };
    }

    let helper_best: Mutex<Option<Info>> = Mutex::new(None);
    match algorithm {
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
        Algorithm::Mcts | Algorithm::UctPlain => {
            let cfg = if algorithm == Algorithm::Mcts {
                settings.mcts
            } else {
                mcts::MctsConfig {
                    parallel: settings.mcts.parallel,
                    ..mcts::UCT_PLAIN
                }
            };
            let info = mcts::run(
                root,
                &cfg,
                &settings.params,
                threads,
                settings.seed,
                settings.tree_mib,
                control,
                soft,
                limits.nodes,
                limits.depth,
                report,
            );
            let turn = complete_turn(root, &info.pv, tt, settings);
            return Outcome { turn, info };
        }
        _ => {}
    }
    let mode = match algorithm {
        Algorithm::Brs => Mode::Brs,
        Algorithm::BrsPlus => Mode::BrsPlus,
        _ => Mode::Paranoid,
    };
    let worker = |is_main| -> Box<dyn Worker + '_> {
        match algorithm {
            Algorithm::MaxN => Box::new(MaxN::new(
                root,
                tt,
                &settings.params,
                control,
                &progress,
                is_main,
            )),
            _ => Box::new(AlphaBeta::new(
                root,
                game_hashes,
                tt,
                &settings.params,
                control,
                &progress,
                is_main,
                mode,
            )),
        }
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|i| {
                let (control, published, worker) = (&control, &helper_best, &worker);
                scope.spawn(move || {
                    let mut w = worker(false);
                    let mut pos = *root;
                    helper_loop(&mut *w, &mut pos, i, control, max_depth, published);
                    w.nodes() % 1024
                })
            })
            .collect();

        let mut w = worker(true);
        let mut pos = *root;
        last = iterate(
            &mut *w, &mut pos, limits, control, &progress, tt, soft, max_depth, report,
        );
        let main_nodes = w.nodes();
        control.stop();
        let mut total = progress.nodes() + main_nodes % 1024;
        for h in helpers {
            total += h.join().unwrap_or(0);
        }
        // A helper that got deeper than the main thread has the better turn.
        let helper = helper_best.lock().ok().and_then(|mut h| h.take());
        if let Some(h) = helper.filter(|h| h.depth > last.depth && !h.pv.is_empty()) {
            last.depth = h.depth;
            last.seldepth = h.seldepth;
            last.score = h.score;
            last.pv = h.pv;
        }
        last.nodes = total;
        let ms = control.elapsed().as_millis() as u64;
        last.time_ms = ms;
        last.nps = total * 1000 / ms.max(1);
    });

    let turn = complete_turn(root, &last.pv, tt, settings);
    Outcome { turn, info: last }
}

/// A helper thread's iterations: published when complete; completing the
/// target depth ends the search.
fn helper_loop(
    w: &mut dyn Worker,
    pos: &mut Position,
    index: usize,
    control: &Control,
    max_depth: u32,
    published: &Mutex<Option<Info>>,
) {
    // Odd helpers start one step deeper, so threads spread over depths.
    let mut depth = 1 + (index % 2) as u32;
    while !control.stopped() && depth <= max_depth {
        let value = w.search_root(pos, depth as i32);
        if w.stopped() {
            break;
        }
        if let Ok(mut best) = published.lock()
            && best.as_ref().is_none_or(|b| b.depth < depth)
        {
            *best = Some(Info {
                depth,
                seldepth: w.seldepth() as u32,
                score: w.score(value),
                pv: w.root_pv(),
                ..Info::default()
            });
        }
        if depth == max_depth {
            control.stop();
        }
        depth += 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn iterate(
    w: &mut dyn Worker,
    pos: &mut Position,
    limits: &Limits,
    control: &Control,
    progress: &Progress,
    tt: &TranspositionTable,
    soft: Option<Duration>,
    max_depth: u32,
    report: &mut dyn FnMut(&Info),
) -> Info {
    let mut best = Info::default();
    for depth in 1..=max_depth {
        let value = w.search_root(pos, depth as i32);
        let pv = w.root_pv();
        if w.stopped() {
            // A cut-short iteration still improves on the last one once its
            // first root step has been searched through.
            if depth > 1 && !pv.is_empty() {
                best.pv = pv;
            }
            break;
        }
        let nodes = progress.nodes() + w.nodes() % 1024;
        let ms = control.elapsed().as_millis() as u64;
        best = Info {
            depth,
            seldepth: w.seldepth() as u32,
            score: w.score(value),
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: tt.hashfull(),
            pv,
        };
        report(&best);
        let steps_left = u32::from(pos.steps_left());
        // An analysis (`infinite`) goes on deepening a proven result.
        if !limits.infinite && best.score.is_decided() && depth >= steps_left {
            break;
        }
        if soft.is_some_and(|s| control.elapsed() >= s) {
            break;
        }
    }
    best
}

/// The steps of the principal variation that belong to the root's turn,
/// completed with short searches if the variation ends before the turn.
fn complete_turn(
    root: &Position,
    pv: &[Step],
    tt: &TranspositionTable,
    settings: &Settings,
) -> Vec<Step> {
    let mut turn = Vec::new();
    let mut pos = *root;
    for &s in pv {
        if pos.turn() != root.turn() || pos.is_game_over() || !pos.is_legal(s) {
            break;
        }
        turn.push(s);
        pos.play(s);
    }
    while pos.turn() == root.turn() && !pos.is_game_over() {
        let step = quick_best_step(&pos, tt, settings);
        turn.push(step);
        pos.play(step);
    }
    turn
}

/// A short search for one step, ignoring the stopped main search: used to
/// finish a turn the main search did not reach the end of.
fn quick_best_step(pos: &Position, tt: &TranspositionTable, settings: &Settings) -> Step {
    let control = Control::new(Arc::new(AtomicBool::new(false)), None, Some(20_000));
    let progress = Progress::default();
    let mut w = AlphaBeta::new(
        pos,
        &[],
        tt,
        &settings.params,
        &control,
        &progress,
        true,
        Mode::Paranoid,
    );
    let mut p = *pos;
    let mut best = None;
    for depth in 1..=i32::from(pos.steps_left()) {
        w.search_root(&mut p, depth);
        if w.stopped() && best.is_some() {
            break;
        }
        if let Some(&s) = w.root_pv().first() {
            best = Some(s);
        }
    }
    best.filter(|&s| pos.is_legal(s))
        .unwrap_or_else(|| pos.legal_step_vec()[0])
}
