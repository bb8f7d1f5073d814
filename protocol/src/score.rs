//! The score a search reports, as the protocol shows it.

use crate::words::ParseError;
use std::fmt;
use std::str::FromStr;

/// A score as the protocol shows it, from the side to move at the root:
/// `cp <x>`, `win <turns>` or `loss <turns>` (protocol.md, `go`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Evaluation in centi-units.
    Cp(i32),
    /// Proven win, decided in this many game turns counting the current one.
    Win(u32),
    /// Proven loss, decided in this many game turns counting the current one.
    Loss(u32),
}

impl Score {
    /// Whether this is a proven result.
    pub fn is_decided(self) -> bool {
        matches!(self, Score::Win(_) | Score::Loss(_))
    }

    /// Reads a score's two words, `kind` (`cp`, `win`, `loss`) and `value`.
    pub(crate) fn read(kind: &str, value: &str) -> Result<Score, ParseError> {
        let unreadable = |found: &str| ParseError::Unreadable {
            word: "score",
            found: found.to_string(),
        };
        match kind {
            "cp" => value.parse().map(Score::Cp).map_err(|_| unreadable(value)),
            "win" => value.parse().map(Score::Win).map_err(|_| unreadable(value)),
            "loss" => value
                .parse()
                .map(Score::Loss)
                .map_err(|_| unreadable(value)),
            _ => Err(unreadable(kind)),
        }
    }
}

impl Default for Score {
    /// An even evaluation.
    fn default() -> Score {
        Score::Cp(0)
    }
}

/// The score's words, `cp <x>`, `win <turns>` or `loss <turns>`: the
/// protocol's (protocol.md) and the game records'.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Win(t) => write!(f, "win {t}"),
            Score::Loss(t) => write!(f, "loss {t}"),
        }
    }
}

/// Reads what [`Score`] displays: `cp -14`, `win 3`, `loss 2`.
impl FromStr for Score {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Score, ParseError> {
        let mut w = text.split_ascii_whitespace();
        let missing = ParseError::Missing { word: "score" };
        let kind = w.next().ok_or(missing.clone())?;
        let v = w.next().ok_or(missing)?;
        match w.next() {
            None => Score::read(kind, v),
            Some(more) => Err(ParseError::Unreadable {
                word: "score",
                found: more.to_string(),
            }),
        }
    }
}
