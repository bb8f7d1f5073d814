//! The engine's options as the protocol uses them: the values
//! [`crate::options`] checks and stores, read as the search's types.

use crate::options::{Id, Values};
use crate::search::Algorithm;
use crate::search::mcts::{MCTS, MctsConfig, Parallel};

pub use crate::options::declarations;

/// Option values, one per row of [`crate::options::OPTIONS`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options(Values);

impl Options {
    /// Transposition table size, MiB.
    pub fn hash_mib(&self) -> usize {
        self.0.spin(Id::Hash) as usize
    }

    /// Search threads.
    pub fn threads(&self) -> usize {
        self.0.spin(Id::Threads) as usize
    }

    /// Which search.
    pub fn algorithm(&self) -> Algorithm {
        Algorithm::parse(self.0.combo(Id::Algorithm)).unwrap_or(Algorithm::Auto)
    }

    /// Milliseconds kept back per move for the time lost in transit.
    pub fn move_overhead(&self) -> u64 {
        self.0.spin(Id::MoveOverhead)
    }

    /// Seed for the randomised searches (MCTS, UCT, random, greedy).
    pub fn seed(&self) -> u64 {
        self.0.spin(Id::Seed)
    }

    /// The parameter file the evaluation's weights come from; empty for
    /// the compiled-in weights.
    pub fn eval_file(&self) -> &str {
        self.0.text(Id::EvalFile)
    }

    /// Principal variations (best turns) an alpha-beta search reports.
    pub fn multi_pv(&self) -> usize {
        self.0.spin(Id::MultiPv) as usize
    }

    /// The engine's MCTS as these options tune it.
    pub fn mcts(&self) -> MctsConfig {
        MctsConfig {
            exploration: self.0.spin(Id::MctsExploration) as f64 / 100.0,
            playout_steps: self.0.spin(Id::MctsPlayout) as u32,
            minimax_weight: self.0.spin(Id::MctsMinimax) as f64 / 100.0,
            parallel: match self.0.combo(Id::MctsParallel) {
                "root" => Parallel::Root,
                _ => Parallel::Tree,
            },
            ..MCTS
        }
    }

    /// Sets an option by name (case-insensitive); the value is checked by
    /// the table and nothing changes on an error. Returns which option
    /// changed, so the engine can act (resize the table, load weights).
    pub fn set(&mut self, name: &str, value: &str) -> Result<Id, String> {
        self.0.set(name, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_names_and_values() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", "16"), Ok(Id::Hash));
        assert_eq!(o.hash_mib(), 16);
        assert_eq!(o.set("Algorithm", "MaxN"), Ok(Id::Algorithm));
        assert_eq!(o.algorithm(), Algorithm::MaxN);
        assert!(o.set("Threads", "0").unwrap_err().contains("outside"));
        assert!(
            o.set("Threads", "two")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            o.set("Algorithm", "minimax")
                .unwrap_err()
                .contains("not one of")
        );
        assert!(
            o.set("Ponder", "true")
                .unwrap_err()
                .contains("unknown option")
        );
        assert_eq!(o.hash_mib(), 16);
        assert_eq!(o.set("MctsParallel", "root"), Ok(Id::MctsParallel));
        assert_eq!(o.mcts().parallel, Parallel::Root);
        assert!(o.set("MctsParallel", "leaf").is_err());
        assert_eq!(o.set("MctsMinimax", "25"), Ok(Id::MctsMinimax));
        assert_eq!(o.mcts().minimax_weight, 0.25);
        assert!(o.set("MctsMinimax", "101").is_err());
        assert_eq!(o.set("MctsExploration", "141"), Ok(Id::MctsExploration));
        assert_eq!(o.mcts().exploration, 1.41);
        assert_eq!(o.mcts().parallel, Parallel::Root);
        assert_eq!(o.multi_pv(), 1);
        assert_eq!(o.set("multipv", "8"), Ok(Id::MultiPv));
        assert_eq!(o.multi_pv(), 8);
        assert!(o.set("MultiPV", "0").is_err());
        assert_eq!(declarations().len(), 11);
    }

    #[test]
    fn the_table_mirrors_the_search() {
        // Defaults: the table's numbers are the search's.
        let d = Options::default();
        assert_eq!(d.mcts(), MCTS);
        assert_eq!(d.algorithm(), Algorithm::Auto);
        assert_eq!(d.multi_pv(), crate::search::Settings::default().multi_pv);
        // Every algorithm by its name, in the search's order.
        assert_eq!(
            crate::options::ALGORITHMS.to_vec(),
            Algorithm::ALL.map(|a| a.name()).to_vec()
        );
        for a in Algorithm::ALL {
            let mut o = Options::default();
            o.set("Algorithm", a.name()).unwrap();
            assert_eq!(o.algorithm(), a);
        }
    }
}
