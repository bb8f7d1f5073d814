//! [`Engine`]: the engine as one object that owns what a search needs
//! between calls — the options, the evaluation's weights and network, the
//! transposition table, the evaluation caches and the helper threads — as
//! Stockfish's `Engine` does. The text protocol (`protocol.md`) is a thin
//! client of it; so are `splut bench`, data generation and any program
//! that links the engine.
//!
//! Every method takes `&self`: an `Engine` can be shared between threads
//! (`Arc<Engine>`), one searching while another calls [`Engine::stop`].
//! One search runs at a time; while it runs, calls that would change what
//! it uses ([`Engine::set_option`], [`Engine::new_game`], a second
//! [`Engine::go`]) are refused with [`EngineError::Busy`].

mod error;
mod slices;

pub use error::{EngineError, GoError};
pub use slices::SliceEnd;

use crate::eval::nnue::{Network, default_multi_network, default_network, read_network};
use crate::eval::{EvalCaches, EvalFile, EvalFileError, EvalSet};
use crate::options::{Id, Values};
use crate::search::control::{Ponder, cores};
use crate::search::score::Score;
use crate::search::tt::{TableError, TranspositionTable};
use crate::search::{Info, Limits, Search, Settings, Workers};
use crate::winprob::{self, Estimate};
use splut_rules::{Game, Position, Seat, Step};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex, MutexGuard};

/// Largest table (MiB) that [`Engine::new_game`] clears in place (a few
/// hundred milliseconds at most) rather than replacing with fresh memory.
const CLEAR_IN_PLACE_MIB: usize = 1024;

/// `EvalFileMulti`'s value for no network with 3–4 seats: `UseNNUE auto`
/// evaluates them by hand whatever the build has compiled in (the
/// hand-written opponent of the loop's first gate and of its reference
/// games, or a comparison).
pub const NO_MULTI_NETWORK: &str = "none";

/// A Splut! engine: options, table, caches, network and threads, kept from
/// one search to the next.
///
/// ```
/// use splut_engine::{Engine, Limits};
/// use splut_rules::{Game, Position};
///
/// let engine = Engine::new();
/// engine.set_option("Hash", "16").unwrap();
/// assert!(engine.set_option("Hash", "lots").is_err());
/// let game = Game::new(Position::start(2).unwrap());
/// let limits = Limits { depth: Some(3), ..Limits::default() };
/// let report = engine.go(&game, &limits, |info| println!("depth {}", info.depth)).unwrap();
/// assert!(!report.turn.is_empty());
/// println!("best turn {:?}, score {}", report.turn, report.info.score);
/// ```
pub struct Engine {
    state: Mutex<State>,
    /// The stop flag and ponder handle of the search prepared last.
    current: Mutex<Current>,
    /// Set while a search prepared by [`Engine::prepare`] is alive.
    busy: Arc<AtomicBool>,
}

/// What [`Engine::stop`] and [`Engine::ponderhit`] act on.
#[derive(Default)]
struct Current {
    stop: Arc<AtomicBool>,
    ponder: Option<Arc<Ponder>>,
}

/// What the engine keeps between searches.
struct State {
    values: Values,
    /// The evaluation's weights: compiled in, or from `EvalFile`.
    params: EvalSet,
    /// The network (with `UseNNUE`): compiled in, `EvalFile`'s, or
    /// [`Engine::set_network`]'s.
    net: Arc<Network>,
    /// The network for 3–4 seats: compiled in (if any), or
    /// `EvalFileMulti`'s.
    multi: Option<Arc<Network>>,
    /// The search's settings, read from the above after every change.
    settings: Arc<Settings>,
    /// The table, made at `Hash` when first needed ([`State::table`]):
    /// `None` until then and again after each `Hash`, which only records
    /// the size, as Stockfish does. In WebAssembly the allocator writes
    /// zeros over what it hands out, so a table made at every start and
    /// at every `Hash` cost the page tens of milliseconds.
    tt: Option<Arc<TranspositionTable>>,
    eval_caches: Arc<EvalCaches>,
    workers: Workers,
    table_usage: bool,
}

impl State {
    fn refresh(&mut self) {
        let mut settings = Settings::from_options(&self.values, self.params.clone())
            .with_network(&self.net)
            .with_multi_network(self.multi.as_ref());
        settings.table_usage = self.table_usage;
        self.settings = Arc::new(settings);
    }

    /// The table, made now at `Hash` if it is not made yet; if that size
    /// cannot be had, a 1 MiB table and the reason.
    fn table(&mut self) -> (Arc<TranspositionTable>, Result<(), TableError>) {
        if let Some(tt) = &self.tt {
            return (tt.clone(), Ok(()));
        }
        let (tt, made) = match TranspositionTable::try_new(self.values.spin(Id::Hash) as usize) {
            Ok(tt) => (tt, Ok(())),
            Err(e) => (TranspositionTable::new(1), Err(e)),
        };
        let tt = Arc::new(tt);
        self.tt = Some(tt.clone());
        (tt, made)
    }
}

/// A finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The rest of the side to move's turn, to be played step by step
    /// (empty only when the game is over).
    pub turn: Vec<Step>,
    /// The last report: depth, score, nodes, time and principal variation.
    pub info: Info,
    /// Every seat in the game's chance to win, from the score.
    pub win_probabilities: Vec<(Seat, f64)>,
}

impl Report {
    /// The step to play now (`bestmove`).
    pub fn best_step(&self) -> Option<Step> {
        self.turn.first().copied()
    }
}

/// Every seat in `root`'s game's chance to win, given a search's report
/// of `root` ([`crate::winprob`]).
pub fn win_probabilities(root: &Position, info: &Info) -> Vec<(Seat, f64)> {
    let estimate = match info.score {
        Score::Cp(v) => Estimate::Cp(v),
        Score::Win(_) => Estimate::Win,
        Score::Loss(_) => Estimate::Loss,
    };
    let seats: Vec<Seat> = root.seats_in_game().collect();
    winprob::win_probabilities(&seats, root.side_to_move(), estimate)
}

/// `EvalFileMulti`'s network: the compiled-in one for an empty value (or
/// `default`), none for `none` (the hand-written evaluation with 3–4 seats
/// under `UseNNUE auto`), else the network file at `path` (a weights file
/// is refused: the hand-written weights are `EvalFile`'s).
fn read_multi(path: &str) -> Result<Option<Arc<Network>>, EvalFileError> {
    if path.is_empty() || path.eq_ignore_ascii_case("default") {
        return Ok(default_multi_network());
    }
    if path.eq_ignore_ascii_case(NO_MULTI_NETWORK) {
        return Ok(None);
    }
    read_network(path).map(|net| Some(Arc::new(net)))
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with every option at its default (`ugi` lists them):
    /// a 64 MiB table (made at the first search, [`Engine::ready`] or
    /// [`Engine::new_game`]), one thread, the compiled-in weights and
    /// network.
    pub fn new() -> Engine {
        let values = Values::default();
        let mut state = State {
            tt: None,
            eval_caches: Arc::new(EvalCaches::new()),
            workers: Workers::for_threads(values.spin(Id::Threads) as usize),
            values,
            params: EvalSet::default(),
            net: default_network(),
            multi: default_multi_network(),
            settings: Arc::new(Settings::default()),
            table_usage: true,
        };
        state.refresh();
        Engine {
            state: Mutex::new(state),
            current: Mutex::new(Current::default()),
            busy: Arc::new(AtomicBool::new(false)),
        }
    }

    /// An engine with `options` set in order ([`Engine::set_option`]).
    pub fn with_options(options: &[(&str, &str)]) -> Result<Engine, EngineError> {
        let engine = Engine::new();
        for (name, value) in options {
            engine.set_option(name, value)?;
        }
        Ok(engine)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A search thread that panicked holds no lock on the state.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn current(&self) -> MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a search is running (prepared and not yet finished).
    pub fn is_searching(&self) -> bool {
        self.busy.load(SeqCst)
    }

    /// Sets an option by the protocol's name (case-insensitive) and value
    /// (protocol.md lists them). Nothing changes on an error: an unknown
    /// name, a value the option does not take, a table that does not fit,
    /// a file that cannot be read, or a search running. `Hash` records the
    /// size, once it is known to fit the memory available, and drops the
    /// table: a new one is made at the next search, [`Engine::ready`] or
    /// [`Engine::new_game`].
    pub fn set_option(&self, name: &str, value: &str) -> Result<(), EngineError> {
        let mut state = self.state();
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let before = state.values.clone();
        let id = state.values.set(name, value)?;
        match id {
            Id::Hash => {
                let mib = state.values.spin(Id::Hash) as usize;
                let freed = state.tt.as_ref().map_or(0, |tt| tt.mib());
                match TranspositionTable::fits(mib, freed) {
                    Ok(()) => state.tt = None,
                    Err(error) => {
                        state.values = before;
                        let kept_mib = state.values.spin(Id::Hash) as usize;
                        return Err(EngineError::Hash { error, kept_mib });
                    }
                }
            }
            Id::Threads => {
                let threads = state.values.spin(Id::Threads) as usize;
                state.workers = Workers::for_threads_from(threads, &state.workers);
            }
            Id::EvalFile => match EvalFile::read(state.values.text(Id::EvalFile)) {
                Ok(EvalFile::Default) => {
                    state.params = EvalSet::default();
                    state.net = default_network();
                }
                Ok(EvalFile::Weights(params)) => state.params = params,
                Ok(EvalFile::Network(net)) => state.net = Arc::new(net),
                Err(error) => {
                    state.values = before;
                    return Err(EngineError::EvalFile(error));
                }
            },
            Id::EvalFileMulti => match read_multi(state.values.text(Id::EvalFileMulti)) {
                Ok(multi) => state.multi = multi,
                Err(error) => {
                    state.values = before;
                    return Err(EngineError::EvalFileMulti(error));
                }
            },
            _ => {}
        }
        state.refresh();
        Ok(())
    }

    /// The options' values now.
    pub fn options(&self) -> Values {
        self.state().values.clone()
    }

    /// Evaluates with `net` where the network evaluates (`UseNNUE`), in
    /// place of the compiled-in one or `EvalFile`'s: for programs that
    /// hold a network rather than a file (data generation).
    pub fn set_network(&self, net: Arc<Network>) -> Result<(), EngineError> {
        let mut state = self.state();
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        state.net = net;
        state.refresh();
        Ok(())
    }

    /// Evaluates searches with 3–4 seats left with `multi` (or as if no
    /// network for 3–4 seats were set, with `None`), in place of
    /// `EvalFileMulti`'s: for programs that hold a network rather than a
    /// file (data generation).
    pub fn set_multi_network(&self, multi: Option<Arc<Network>>) -> Result<(), EngineError> {
        let mut state = self.state();
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        state.multi = multi;
        state.refresh();
        Ok(())
    }

    /// Whether each iteration's report samples the table's use
    /// (`hashfull`; on by default). Off where nobody reads the reports:
    /// the sample costs searches of a few hundred nodes a few percent.
    pub fn set_table_usage(&self, on: bool) {
        let mut state = self.state();
        state.table_usage = on;
        state.refresh();
    }

    /// Makes the table at `Hash` if it is not made yet (`isready`: so a
    /// search does not pay for it). On an error that size could not be
    /// had and the table is 1 MiB. Nothing to do while a search runs: it
    /// has its table.
    pub fn ready(&self) -> Result<(), EngineError> {
        let mut state = self.state();
        if self.is_searching() {
            return Ok(());
        }
        state.table().1.map_err(EngineError::Table)
    }

    /// A new game: the table is cleared (the evaluation caches, exact
    /// values, stay), made first at `Hash` if need be. On an error the
    /// table could not be made at its size and is now 1 MiB.
    pub fn new_game(&self) -> Result<(), EngineError> {
        let mut state = self.state();
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        let mib = state.values.spin(Id::Hash) as usize;
        // Clearing a table of many GiB would block for seconds; a fresh one
        // is instant but maps its pages during the search.
        let clear = mib <= CLEAR_IN_PLACE_MIB;
        let keep = state
            .tt
            .as_ref()
            .is_some_and(|tt| tt.mib() == mib && clear && Arc::strong_count(tt) == 1);
        let mut result = Ok(());
        if !keep {
            let freed = state.tt.take().map_or(0, |tt| tt.mib());
            let tt = TranspositionTable::try_replacing(mib, freed).unwrap_or_else(|e| {
                result = Err(EngineError::Table(e));
                TranspositionTable::new(1)
            });
            state.tt = Some(Arc::new(tt));
        }
        // Cleared (and its pages mapped) here, between games, rather than
        // page by page during the first searches.
        if clear {
            let threads = (state.values.spin(Id::Threads) as usize).min(cores());
            state.table().0.clear_with(threads);
        }
        result
    }

    /// Searches the game's position (its history counts for repetitions)
    /// within `limits`, calling `on_info` after every iteration, and
    /// returns the report. [`Engine::stop`] from another thread ends it
    /// early; `limits.infinite` and `limits.ponder` searches run until
    /// then (or, pondering, until [`Engine::ponderhit`] and the limits).
    pub fn go(
        &self,
        game: &Game,
        limits: &Limits,
        mut on_info: impl FnMut(&Info),
    ) -> Result<Report, GoError> {
        Ok(self.prepare(game, limits)?.run(&mut on_info))
    }

    /// [`Engine::go`] in two halves: the search is set up now (and
    /// [`Engine::stop`] applies to it from this moment), to be run by
    /// [`PreparedSearch::run`], on any thread. The protocol prepares on
    /// its input thread and runs on a search thread, so a `stop` read
    /// right after `go` is never lost.
    pub fn prepare(&self, game: &Game, limits: &Limits) -> Result<PreparedSearch, GoError> {
        let root = *game.position();
        if root.is_game_over() {
            return Err(GoError::GameOver {
                winner: root.winner(),
            });
        }
        let mut state = self.state();
        if self.busy.swap(true, SeqCst) {
            return Err(GoError::Busy);
        }
        // A table that cannot be had at `Hash` searches at 1 MiB; `ready`
        // says why, and the protocol calls it before every search.
        let (tt, _) = state.table();
        let positions = game.positions();
        let game_hashes = positions[..positions.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect();
        let stop = Arc::new(AtomicBool::new(false));
        let ponder = limits.ponder.then(Ponder::new);
        *self.current() = Current {
            stop: stop.clone(),
            ponder: ponder.clone(),
        };
        Ok(PreparedSearch {
            root,
            game_hashes,
            limits: limits.clone(),
            settings: state.settings.clone(),
            tt,
            eval_caches: state.eval_caches.clone(),
            workers: state.workers.clone(),
            stop,
            ponder,
            busy: self.busy.clone(),
            slices: slices::Slices::default(),
        })
    }

    /// Stops the search running now, if any: it returns its best turn so
    /// far at once (an infinite or pondering one too).
    pub fn stop(&self) {
        self.current().stop.store(true, SeqCst);
    }

    /// The pondered position came true (`ponderhit`): the pondering search
    /// goes on under its time limits, counted from now. False when no
    /// search is pondering (none runs, it was not `limits.ponder`, or it
    /// was hit already).
    pub fn ponderhit(&self) -> bool {
        let current = self.current();
        match &current.ponder {
            Some(p) if p.hit_at().is_none() && self.is_searching() => {
                p.hit();
                true
            }
            _ => false,
        }
    }
}

/// A search set up by [`Engine::prepare`], owning what it needs; the
/// engine counts as searching until it has run (or is dropped).
pub struct PreparedSearch {
    root: Position,
    game_hashes: Vec<u64>,
    limits: Limits,
    settings: Arc<Settings>,
    tt: Arc<TranspositionTable>,
    eval_caches: Arc<EvalCaches>,
    workers: Workers,
    stop: Arc<AtomicBool>,
    ponder: Option<Arc<Ponder>>,
    busy: Arc<AtomicBool>,
    /// What [`PreparedSearch::run_slice`]'s slices found so far.
    slices: slices::Slices,
}

impl PreparedSearch {
    /// The position to be searched.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Whether [`Engine::stop`] was called for this search.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(SeqCst)
    }

    /// A flag that reads whether [`Engine::stop`] was called for this
    /// search, for the caller to watch after [`PreparedSearch::run`] (the
    /// protocol holds an infinite search's answer back until then).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The pondering handle of a `limits.ponder` search, for a caller
    /// that waits for its hit after [`PreparedSearch::run`].
    pub fn ponder(&self) -> Option<Arc<Ponder>> {
        self.ponder.clone()
    }

    /// Runs the search to its end, calling `on_info` after every
    /// iteration, and returns its report: the driver for a search on a
    /// thread of its own ([`PreparedSearch::run_slice`] is the one for a
    /// host with one thread). The engine counts as searching until the
    /// search is dropped.
    pub fn run(&mut self, on_info: &mut dyn FnMut(&Info)) -> Report {
        let outcome = self.search().think(self.stop.clone(), on_info);
        Report {
            win_probabilities: win_probabilities(&self.root, &outcome.info),
            turn: outcome.turn,
            info: outcome.info,
        }
    }
}

impl PreparedSearch {
    /// The search this prepared, run in one go.
    fn search(&self) -> Search<'_> {
        Search {
            root: &self.root,
            game_hashes: &self.game_hashes,
            limits: &self.limits,
            settings: &self.settings,
            tt: &self.tt,
            eval_caches: &self.eval_caches,
            workers: &self.workers,
            ponder: self.ponder.clone(),
            budget: None,
            pause: None,
            continues: false,
            mcts: None,
            resumes: None,
        }
    }
}

impl Drop for PreparedSearch {
    fn drop(&mut self) {
        self.busy.store(false, SeqCst);
    }
}

#[cfg(test)]
mod tests;
