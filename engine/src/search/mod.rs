//! Search: iterative deepening over steps, a turn at a time.
//!
//! - [`run`]: one search from start to answer (`Search::think`): the time
//!   budget, the search for the algorithm, the fallback to best-reply
//!   search when paranoid alpha-beta proves a loss.
//! - [`control`]: stop flags, clock and node limit shared by the threads.
//! - [`iterate`]: iterative deepening on one thread.
//! - [`smp`]: Lazy SMP: with `threads > 1`, helper threads search the same
//!   tree and share the table. Every thread publishes its completed
//!   iterations; the deepest one is played, and a helper that completes the
//!   target depth first ends the search.
//! - [`complete_turn`]: a search answers with the whole rest of the side to
//!   move's turn: the principal variation's steps until the turn ends,
//!   completed by short searches if the variation stops early.
//! - [`alphabeta`]: principal variation search (2 players) and paranoid
//!   alpha-beta (3–4 players), with the transposition table ([`tt`]), step
//!   ordering ([`ordering`]) and a quiescence search on killing throws.
//! - [`maxn`]: max-n with shallow pruning for 3–4 players.
//! - Best-reply search (BRS, BRS+) for 3–4 players: a mode of alpha-beta.
//! - [`mcts`]: Monte Carlo tree search (and plain UCT), parallel on rayon.
//! - [`mod@reference`]: the random and greedy reference players.
//! - [`time`]: how long a search may take.

pub mod alphabeta;
pub mod complete_turn;
pub mod control;
pub mod iterate;
pub mod maxn;
pub mod mcts;
pub mod ordering;
pub mod reference;
pub mod run;
pub mod score;
pub mod skill;
pub mod smp;
pub mod thread;
pub mod time;
pub mod tt;
pub mod workers;

pub use control::{Control, Progress, cores};
pub(crate) use run::{Resumes, Search};

/// The searches' random generator (MCTS, the reference players, the
/// strength levels): Xoshiro256++, `rand`'s `SmallRng` on 64-bit targets,
/// named so that a seed gives the same turns on 32-bit ones (WebAssembly).
pub type SmallRng = rand_xoshiro::Xoshiro256PlusPlus;
pub use thread::Worker;
pub use workers::Workers;

use crate::eval::EvalSet;
use crate::eval::nnue::{Network, default_multi_network, default_network};
use crate::options::{Id, Values};
use score::Score;
use splut_rules::{Position, Step};
use std::sync::Arc;

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
    /// that scored best in the tournaments (docs/results/strength.md), which is
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
    /// Ponder (`go ponder`): no time limit until the `ponderhit`.
    pub ponder: bool,
}

/// How the engine searches (the protocol's options).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Which search.
    pub algorithm: Algorithm,
    /// Search threads (Lazy SMP for alpha-beta); at most [`cores`] run.
    pub threads: usize,
    /// Milliseconds lost between engine and referee per move.
    pub move_overhead: u64,
    /// Evaluation weights, by count of seats in the game (the root's
    /// count is used).
    pub params: EvalSet,
    /// The network that evaluates (`UseNNUE`); `None`: the hand-written
    /// evaluation under `params`.
    pub net: Option<Arc<Network>>,
    /// `UseNNUE auto`: the network evaluates only where it measured
    /// stronger than the hand-written evaluation ([`Settings::net_for`]).
    pub net_auto: bool,
    /// The network for searches with 3–4 seats left at the root
    /// (`EvalFileMulti`, or the compiled-in one of [`default_multi_network`]),
    /// if there is one; `net` evaluates there otherwise.
    pub multi_net: Option<Arc<Network>>,
    /// Seed of the randomised searches (MCTS, UCT, random, greedy).
    pub seed: u64,
    /// Memory for the MCTS tree, MiB.
    pub tree_mib: usize,
    /// The MCTS knobs (its `parallel` also serves plain UCT).
    pub mcts: mcts::MctsConfig,
    /// Best turns an alpha-beta-family search reports (`MultiPV`).
    pub multi_pv: usize,
    /// A strength level below the full engine's (`Skill Level`,
    /// `UCI_Elo`); `None`: the full engine.
    pub skill: Option<skill::Skill>,
    /// Sample the table's use (`hashfull`) for every iteration's report.
    /// Off where no report is read (data generation): the sample reads a
    /// thousand slots, cold in the cache, after each iteration of
    /// searches of a few hundred nodes. Off, reports say 0.
    pub table_usage: bool,
}

impl Settings {
    /// The settings the engine's options give (the one place they are
    /// read as the search's types), with the weights `params` and, when
    /// `UseNNUE` is on, the compiled-in network ([`Settings::with_network`]
    /// replaces it).
    pub fn from_options(v: &Values, params: EvalSet) -> Settings {
        Settings {
            net: (v.combo(Id::UseNnue) != "false").then(default_network),
            net_auto: v.combo(Id::UseNnue) == "auto",
            multi_net: default_multi_network(),
            algorithm: Algorithm::parse(v.combo(Id::Algorithm)).unwrap_or(Algorithm::Auto),
            threads: v.spin(Id::Threads) as usize,
            move_overhead: v.spin(Id::MoveOverhead),
            params,
            seed: v.spin(Id::Seed),
            tree_mib: v.spin(Id::Hash) as usize,
            mcts: mcts::MctsConfig {
                exploration: v.spin(Id::MctsExploration) as f64 / 100.0,
                playout_steps: v.spin(Id::MctsPlayout) as u32,
                minimax_weight: v.spin(Id::MctsMinimax) as f64 / 100.0,
                parallel: match v.combo(Id::MctsParallel) {
                    "root" => mcts::Parallel::Root,
                    _ => mcts::Parallel::Tree,
                },
                ..mcts::MCTS
            },
            multi_pv: v.spin(Id::MultiPv) as usize,
            skill: skill::Skill::from_options(v),
            table_usage: true,
        }
    }
}

impl Settings {
    /// The network that evaluates `algorithm`'s search of `root`, if any.
    /// With `UseNNUE auto` that is alpha-beta's wherever 2 players are
    /// left, in a game of 2 and once a game of 3–4 is down to 2: there the
    /// network measured stronger than the hand-written evaluation
    /// (docs/results/networks.md); with 3–4 left, alpha-beta's with the
    /// network for 3–4 seats ([`Settings::multi_net`]: the compiled-in one,
    /// trained by `splut loop`, or `EvalFileMulti`'s; by hand with none),
    /// and never MCTS's value. With
    /// `UseNNUE true` every search's, the 3–4 seat network where there is
    /// one and 3–4 seats are left.
    pub fn net_for(&self, root: &Position, algorithm: Algorithm) -> Option<&Arc<Network>> {
        let net = self.net.as_ref()?;
        let players = root.players_left();
        // With 2 players BRS and BRS+ are alpha-beta too.
        let alpha_beta = matches!(
            algorithm,
            Algorithm::Auto | Algorithm::AlphaBeta | Algorithm::Brs | Algorithm::BrsPlus
        );
        if players >= 3
            && let Some(multi) = &self.multi_net
        {
            return (!self.net_auto || alpha_beta).then_some(multi);
        }
        (!self.net_auto || (alpha_beta && players == 2)).then_some(net)
    }

    /// These settings with `multi` as the network for 3–4 seats.
    pub fn with_multi_network(mut self, multi: Option<&Arc<Network>>) -> Settings {
        self.multi_net = multi.cloned();
        self
    }

    /// These settings with `net` as the network, if they evaluate with one
    /// (`UseNNUE` on); unchanged otherwise.
    pub fn with_network(mut self, net: &Arc<Network>) -> Settings {
        if self.net.is_some() {
            self.net = Some(net.clone());
        }
        self
    }
}

/// The option table's defaults ([`crate::options::OPTIONS`]) and the
/// compiled-in weights.
impl Default for Settings {
    fn default() -> Self {
        Settings::from_options(&Values::default(), EvalSet::default())
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
    /// Which of several variations this is (1 the best), with `MultiPV`
    /// above 1; 0 when only one is searched.
    pub multipv: u32,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_3_4_seat_network_use_nnue_auto_takes_the_network_only_for_alpha_beta_with_2_left()
    {
        let two = Position::start(2).unwrap();
        let four = Position::start(4).unwrap();
        // A game of 3 players after green's kill: red and yellow are left.
        let two_of_three =
            Position::from_spn("R/3/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -").unwrap();
        assert_eq!(two_of_three.players_left(), 2);
        // `EvalFileMulti none`.
        let with = |value: &str| {
            let mut v = Values::default();
            v.set("UseNNUE", value).unwrap();
            Settings::from_options(&v, EvalSet::default()).with_multi_network(None)
        };
        let uses = |s: &Settings, root: &Position, a: Algorithm| s.net_for(root, a).is_some();
        let auto = with("auto");
        assert!(uses(&auto, &two, Algorithm::Auto));
        assert!(uses(&auto, &two, Algorithm::AlphaBeta));
        assert!(uses(&auto, &two_of_three, Algorithm::Auto));
        assert!(uses(&auto, &two_of_three, Algorithm::Brs));
        assert!(!uses(&auto, &two, Algorithm::Mcts));
        assert!(!uses(&auto, &two_of_three, Algorithm::MaxN));
        assert!(!uses(&auto, &four, Algorithm::Auto));
        let always = with("true");
        assert!(uses(&always, &four, Algorithm::MaxN) && uses(&always, &two, Algorithm::Mcts));
        let never = with("false");
        assert!(!uses(&never, &two, Algorithm::Auto));
    }

    #[test]
    fn a_network_for_3_4_seats_evaluates_where_3_4_are_left() {
        let two = Position::start(2).unwrap();
        let three = Position::start(3).unwrap();
        let multi = Arc::new(Network::pseudo_random(3, 300));
        let with = |value: &str| {
            let mut v = Values::default();
            v.set("UseNNUE", value).unwrap();
            Settings::from_options(&v, EvalSet::default()).with_multi_network(Some(&multi))
        };
        let net = |s: &Settings, root: &Position, a: Algorithm| s.net_for(root, a).cloned();
        let auto = with("auto");
        assert_eq!(net(&auto, &three, Algorithm::Auto), Some(multi.clone()));
        assert_eq!(net(&auto, &three, Algorithm::BrsPlus), Some(multi.clone()));
        assert_eq!(net(&auto, &three, Algorithm::Mcts), None);
        assert_eq!(net(&auto, &two, Algorithm::Auto), Some(default_network()));
        let always = with("true");
        assert_eq!(net(&always, &three, Algorithm::MaxN), Some(multi.clone()));
        assert_eq!(net(&always, &two, Algorithm::MaxN), Some(default_network()));
        assert_eq!(net(&with("false"), &three, Algorithm::Auto), None);
        // The defaults: the compiled-in network for 3–4 seats.
        let defaults = Settings::default();
        let four = Position::start(4).unwrap();
        assert_eq!(
            net(&defaults, &four, Algorithm::Auto),
            default_multi_network()
        );
        assert_eq!(net(&defaults, &four, Algorithm::MaxN), None);
    }
}

#[cfg(test)]
mod rng_tests {
    use rand::{RngCore, SeedableRng};

    #[test]
    fn the_named_generator_is_small_rng_on_64_bit_targets() {
        #[cfg(target_pointer_width = "64")]
        for seed in [0, 1, 42, u64::MAX] {
            let mut a = super::SmallRng::seed_from_u64(seed);
            let mut b = rand::rngs::SmallRng::seed_from_u64(seed);
            for _ in 0..100 {
                assert_eq!(a.next_u64(), b.next_u64());
            }
        }
    }
}
