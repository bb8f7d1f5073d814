//! The errors of [`super::Engine`]'s calls.

use crate::eval::EvalFileError;
use crate::options::OptionError;
use crate::search::tt::TableError;
use splut_rules::Seat;

/// Why [`super::Engine::set_option`], [`super::Engine::new_game`] or
/// [`super::Engine::set_network`] changed nothing (or, for a new game or
/// [`super::Engine::ready`], what went wrong).
#[derive(Debug)]
pub enum EngineError {
    /// A search is running: stop it first.
    Busy,
    /// The option's name or value was refused.
    Option(OptionError),
    /// A table of the new `Hash` size does not fit; the old one is kept.
    Hash {
        /// Why.
        error: TableError,
        /// The size kept, MiB.
        kept_mib: usize,
    },
    /// The table could not be made at `Hash` (at a new game, `isready` or
    /// the first search after `Hash`); the table is now 1 MiB.
    Table(TableError),
    /// `EvalFile` could not be read; the weights and network in use are
    /// kept.
    EvalFile(EvalFileError),
    /// `EvalFileMulti` could not be read; the network in use with 3–4
    /// seats is kept.
    EvalFileMulti(EvalFileError),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Busy => write!(f, "the engine is searching; stop it first"),
            EngineError::Option(e) => write!(f, "{e}"),
            EngineError::Hash { error, kept_mib } => {
                write!(f, "option Hash: {error}; keeping {kept_mib} MiB")
            }
            EngineError::Table(e) => write!(f, "{e}; the table is now 1 MiB"),
            EngineError::EvalFile(e) => write!(
                f,
                "option EvalFile: {e}; the weights and network in use are kept"
            ),
            EngineError::EvalFileMulti(e) => write!(
                f,
                "option EvalFileMulti: {e}; the network in use with 3-4 seats is kept"
            ),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Option(e) => Some(e),
            EngineError::Hash { error, .. } | EngineError::Table(error) => Some(error),
            EngineError::EvalFile(e) | EngineError::EvalFileMulti(e) => Some(e),
            _ => None,
        }
    }
}

impl From<OptionError> for EngineError {
    fn from(e: OptionError) -> Self {
        EngineError::Option(e)
    }
}

/// Why [`super::Engine::go`] did not search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A search is running already.
    Busy,
    /// The game is over: nothing to search.
    GameOver {
        /// The seat that won, if one has.
        winner: Option<Seat>,
    },
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoError::Busy => write!(f, "a search is running; stop it first"),
            GoError::GameOver { winner } => {
                let w = winner.map_or('-', |s| s.letter());
                write!(f, "the game is over ({w} won); nothing to search")
            }
        }
    }
}

impl std::error::Error for GoError {}
