//! The engine's options as the protocol uses them: the values
//! [`crate::options`] checks and stores, read as the search's types.

use crate::eval::EvalSet;
use crate::options::{Id, Values};
use crate::search::Settings;

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

    /// The parameter file the evaluation's weights come from; empty for
    /// the compiled-in weights.
    pub fn eval_file(&self) -> &str {
        self.0.text(Id::EvalFile)
    }

    /// Whether `info` lines carry every seat's win probability
    /// (`UCI_ShowWinProb`).
    pub fn show_win_prob(&self) -> bool {
        self.0.check(Id::ShowWinProb)
    }

    /// The search's settings these options give, with the weights
    /// `params` ([`Settings::from_options`]).
    pub fn settings(&self, params: EvalSet) -> Settings {
        Settings::from_options(&self.0, params)
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
    use crate::search::Algorithm;
    use crate::search::mcts::{MCTS, Parallel};

    fn settings(o: &Options) -> Settings {
        o.settings(EvalSet::default())
    }

    #[test]
    fn set_checks_names_and_values() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", "16"), Ok(Id::Hash));
        assert_eq!(o.hash_mib(), 16);
        assert_eq!(o.set("Algorithm", "MaxN"), Ok(Id::Algorithm));
        assert_eq!(settings(&o).algorithm, Algorithm::MaxN);
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
        assert_eq!(settings(&o).mcts.parallel, Parallel::Root);
        assert!(o.set("MctsParallel", "leaf").is_err());
        assert_eq!(o.set("MctsMinimax", "25"), Ok(Id::MctsMinimax));
        assert_eq!(settings(&o).mcts.minimax_weight, 0.25);
        assert!(o.set("MctsMinimax", "101").is_err());
        assert_eq!(o.set("MctsExploration", "141"), Ok(Id::MctsExploration));
        assert_eq!(settings(&o).mcts.exploration, 1.41);
        assert_eq!(settings(&o).mcts.parallel, Parallel::Root);
        assert_eq!(settings(&o).multi_pv, 1);
        assert_eq!(o.set("multipv", "8"), Ok(Id::MultiPv));
        assert_eq!(settings(&o).multi_pv, 8);
        assert!(o.set("MultiPV", "0").is_err());
        assert_eq!(declarations().len(), 16);
    }

    #[test]
    fn strength_options_give_a_level() {
        let mut o = Options::default();
        assert_eq!(settings(&o).skill, None);
        o.set("Skill Level", "5").unwrap();
        assert_eq!(settings(&o).skill.map(|s| s.level), Some(5.0));
        // UCI_Elo wins over Skill Level once UCI_LimitStrength is on.
        o.set("UCI_Elo", "1440").unwrap();
        assert_eq!(settings(&o).skill.map(|s| s.level), Some(5.0));
        o.set("UCI_LimitStrength", "true").unwrap();
        let level = settings(&o).skill.map(|s| s.level).unwrap();
        assert!((level - 15.0).abs() < 1e-9, "{level}");
        o.set("UCI_Elo", &crate::options::ELO_MAX.to_string())
            .unwrap();
        assert_eq!(settings(&o).skill, None);
        assert!(o.set("Skill Level", "21").is_err());
        assert!(!o.show_win_prob());
        o.set("UCI_ShowWinProb", "true").unwrap();
        assert!(o.show_win_prob());
    }

    #[test]
    fn the_table_mirrors_the_search() {
        // Defaults: the table's numbers are the search's.
        let d = settings(&Options::default());
        assert_eq!(d, Settings::default());
        assert_eq!(d.mcts, MCTS);
        assert_eq!(d.algorithm, Algorithm::Auto);
        assert_eq!(
            (d.threads, d.move_overhead, d.seed, d.tree_mib, d.multi_pv),
            (1, 30, 0, 64, 1)
        );
        // Every algorithm by its name, in the search's order.
        assert_eq!(
            crate::options::ALGORITHMS.to_vec(),
            Algorithm::ALL.map(|a| a.name()).to_vec()
        );
        for a in Algorithm::ALL {
            let mut o = Options::default();
            o.set("Algorithm", a.name()).unwrap();
            assert_eq!(settings(&o).algorithm, a);
        }
    }
}
