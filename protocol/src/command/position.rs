//! `position`: the game an engine is to search.

use splut_rules::{Game, Position, Seat, SpnError, StepError};
use std::fmt;

/// How a `position` command gives its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos [players <n>]`: the standard start (2 players when
    /// `players` is not given).
    StartPos {
        /// The `players` word's count, if given.
        players: Option<usize>,
    },
    /// `fen <SPN>` (UGI's word).
    Fen,
    /// `spn <SPN>`.
    Spn,
}

/// `position …`: a start and the steps played from it, read and checked
/// against the rules (so an engine that takes it has a legal game).
#[derive(Clone, Debug)]
pub struct PositionCommand {
    /// How the start is written.
    pub start: Start,
    /// The start position and the steps played.
    pub game: Game,
}

impl Eq for PositionCommand {}

impl PartialEq for PositionCommand {
    fn eq(&self, other: &PositionCommand) -> bool {
        self.start == other.start
            && self.game.start() == other.game.start()
            && self.game.steps() == other.game.steps()
    }
}

/// Why a `position` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Neither `startpos`, `fen` nor `spn` (or nothing) after `position`.
    ExpectedStart {
        /// The word found instead, if any.
        found: Option<String>,
    },
    /// `startpos players` without 2, 3 or 4.
    Players {
        /// The word found instead.
        found: String,
    },
    /// An SPN of other than 7 fields.
    SpnFields {
        /// `fen` or `spn`.
        keyword: String,
        /// The fields found.
        found: usize,
    },
    /// The SPN is not a valid position.
    Spn(SpnError),
    /// A word other than `moves` after the position.
    ExpectedMoves {
        /// The word found.
        found: String,
    },
    /// A step of `moves` is not legal where it is played.
    Step {
        /// Which step, from 1.
        number: usize,
        /// Why.
        error: StepError,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ExpectedStart { found: None } => {
                write!(f, "position: expected 'startpos', 'fen' or 'spn'")
            }
            Self::ExpectedStart { found: Some(w) } => write!(
                f,
                "position: expected 'startpos', 'fen' or 'spn', found '{w}'"
            ),
            Self::Players { found } => write!(
                f,
                "position startpos players: expected 2, 3 or 4, found '{found}'"
            ),
            Self::SpnFields { keyword, found } => {
                write!(f, "position {keyword}: an SPN has 7 fields, found {found}")
            }
            Self::Spn(e) => write!(f, "position: {e}"),
            Self::ExpectedMoves { found } => {
                write!(f, "position: expected 'moves', found '{found}'")
            }
            Self::Step { number, error } => {
                write!(f, "position: moves, step {number}: {error}")
            }
        }
    }
}

impl std::error::Error for PositionCommandError {}

/// The game's start and its first `upto` steps (all of them if fewer).
fn cut(game: &Game, upto: usize) -> Game {
    let mut g = Game::new(*game.start());
    for &s in game.steps().iter().take(upto) {
        // The steps were legal where the game played them.
        if g.play(s).is_err() {
            break;
        }
    }
    g
}

impl PositionCommand {
    /// `position spn <start> [moves …]`: `game` after its first `upto`
    /// steps.
    pub fn spn(game: &Game, upto: usize) -> PositionCommand {
        PositionCommand {
            start: Start::Spn,
            game: cut(game, upto),
        }
    }

    /// `position startpos players <n> [moves …]` (`from_startpos`, for a
    /// game from a standard start) or `position fen <start> [moves …]`,
    /// then every step played: as a UGI referee tells a game.
    pub fn of(game: &Game, from_startpos: bool) -> PositionCommand {
        let start = if from_startpos {
            Start::StartPos {
                players: Some(game.start().players_left() as usize),
            }
        } else {
            Start::Fen
        };
        PositionCommand {
            start,
            game: game.clone(),
        }
    }

    /// The seat UGI calls p1: the seat that moved first in the game
    /// (protocol.md, `position`).
    pub fn p1(&self) -> Seat {
        self.game.start().first_mover()
    }

    /// Parses the words after `position`; each step is checked where it
    /// is played.
    pub fn parse(words: &[&str]) -> Result<PositionCommand, PositionCommandError> {
        let (start, position, rest) = match words.first().copied() {
            Some("startpos") => {
                let mut players = None;
                let mut rest = &words[1..];
                if rest.first() == Some(&"players") {
                    players = match rest.get(1).and_then(|n| n.parse::<usize>().ok()) {
                        Some(n @ 2..=4) => Some(n),
                        _ => {
                            return Err(PositionCommandError::Players {
                                found: rest.get(1).unwrap_or(&"").to_string(),
                            });
                        }
                    };
                    rest = &rest[2..];
                }
                let n = players.unwrap_or(2);
                // 2..=4 players always have a start.
                let position = Position::start(n).ok_or(PositionCommandError::Players {
                    found: n.to_string(),
                })?;
                (Start::StartPos { players }, position, rest)
            }
            Some(keyword @ ("fen" | "spn")) => {
                let end = words
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(words.len());
                let fields = &words[1..end];
                if fields.len() != 7 {
                    return Err(PositionCommandError::SpnFields {
                        keyword: keyword.to_string(),
                        found: fields.len(),
                    });
                }
                let position =
                    Position::from_spn(&fields.join(" ")).map_err(PositionCommandError::Spn)?;
                let start = if keyword == "fen" {
                    Start::Fen
                } else {
                    Start::Spn
                };
                (start, position, &words[end..])
            }
            other => {
                return Err(PositionCommandError::ExpectedStart {
                    found: other.map(str::to_string),
                });
            }
        };
        let mut game = Game::new(position);
        match rest.first().copied() {
            None => {}
            Some("moves") => {
                for (i, text) in rest[1..].iter().enumerate() {
                    game.play_text(text)
                        .map_err(|error| PositionCommandError::Step {
                            number: i + 1,
                            error,
                        })?;
                }
            }
            Some(other) => {
                return Err(PositionCommandError::ExpectedMoves {
                    found: other.to_string(),
                });
            }
        }
        Ok(PositionCommand { start, game })
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("position ")?;
        match self.start {
            Start::StartPos { players: None } => f.write_str("startpos")?,
            Start::StartPos { players: Some(n) } => write!(f, "startpos players {n}")?,
            Start::Fen => write!(f, "fen {}", self.game.start().to_spn())?,
            Start::Spn => write!(f, "spn {}", self.game.start().to_spn())?,
        }
        if !self.game.steps().is_empty() {
            f.write_str(" moves")?;
            for s in self.game.steps() {
                write!(f, " {s}")?;
            }
        }
        Ok(())
    }
}
