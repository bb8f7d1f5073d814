//! The commands to an engine, typed once: each line a client sends
//! (`ugi`, `isready`, `setoption`, `position`, `go`, `stop`, …) is a
//! [`Command`] that prints it ([`std::fmt::Display`], the bytes a client
//! writes) and reads it back ([`Command::parse`], the engine's reader).
//!
//! Reading is the engine's (protocol.md): strict. Words are split by
//! spaces and tabs only ([`input::words`]); a command given words it does
//! not take is an error; every error's text (`Display`) is the engine's
//! error line for it, saying what is wrong and where.

mod go;
mod position;

pub use go::{Go, GoCommandError, MAX_MS, SeatClock};
pub use position::{PositionCommand, PositionCommandError, Start};

use crate::input::{self, ControlCharacter, echo};
use std::fmt;

/// The deepest `perft` the protocol counts: depth 13 from a start takes
/// days.
pub const PERFT_MAX_DEPTH: u32 = 12;

/// A question of `query` (protocol.md, `query`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `p1turn`: whether p1 is to move and the game goes on.
    P1Turn,
    /// `gameover`: whether one sorcerer is left.
    GameOver,
    /// `result`: `p1win`, `p2win` or `none`.
    Result,
    /// `turn`: the seat to move.
    Turn,
    /// `winner`: the winning seat, or `none`.
    Winner,
    /// `steps`: steps left in the current turn.
    Steps,
    /// `legal`: every legal step.
    Legal,
    /// `spn`: the position in SPN.
    Spn,
    /// `fen`: `spn`'s synonym.
    Fen,
}

impl Query {
    /// Every question, as `query` takes them.
    pub const ALL: [Query; 9] = [
        Query::P1Turn,
        Query::GameOver,
        Query::Result,
        Query::Turn,
        Query::Winner,
        Query::Steps,
        Query::Legal,
        Query::Spn,
        Query::Fen,
    ];

    /// The question's word.
    pub fn word(self) -> &'static str {
        match self {
            Query::P1Turn => "p1turn",
            Query::GameOver => "gameover",
            Query::Result => "result",
            Query::Turn => "turn",
            Query::Winner => "winner",
            Query::Steps => "steps",
            Query::Legal => "legal",
            Query::Spn => "spn",
            Query::Fen => "fen",
        }
    }
}

/// `setoption name <name> value <value>`: the name and the value are
/// their words joined by single spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption {
    /// The option's name, as given (names are case-insensitive).
    pub name: String,
    /// The value, as given.
    pub value: String,
}

impl SetOption {
    /// `setoption name <name> value <value>`.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> SetOption {
        SetOption {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// Why a `setoption` command was refused (before the option itself is
/// checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOptionCommandError {
    /// It does not start with `name`.
    ExpectedName,
    /// No words between `name` and `value`.
    MissingName,
    /// No words after `value` (or no `value`).
    MissingValue {
        /// The option's name as given.
        name: String,
    },
}

impl fmt::Display for SetOptionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ExpectedName => write!(f, "setoption: expected 'name <option> value <value>'"),
            Self::MissingName => write!(f, "setoption: the option name is missing"),
            Self::MissingValue { name } => write!(f, "setoption {name}: the value is missing"),
        }
    }
}

impl std::error::Error for SetOptionCommandError {}

/// Parses the words after `setoption`: `name <name…> value <value…>`.
pub fn parse_setoption(words: &[&str]) -> Result<SetOption, SetOptionCommandError> {
    if words.first() != Some(&"name") {
        return Err(SetOptionCommandError::ExpectedName);
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(SetOptionCommandError::MissingName);
    }
    let value = match value_at {
        Some(v) if v + 1 < words.len() => words[v + 1..].join(" "),
        _ => {
            return Err(SetOptionCommandError::MissingValue {
                name: name_words.join(" "),
            });
        }
    };
    Ok(SetOption::new(name_words.join(" "), value))
}

/// One line to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi`: the engine's identity and options, then `ugiok`.
    Ugi,
    /// `uci`: as `ugi`, ending with `uciok`.
    Uci,
    /// `isready`: answered with `readyok`.
    IsReady,
    /// `setoption name <name> value <value>`.
    SetOption(SetOption),
    /// `uginewgame`: a new game.
    UgiNewGame,
    /// `ucinewgame`: `uginewgame`'s synonym.
    UciNewGame,
    /// `position …`: the game to search.
    Position(PositionCommand),
    /// `go …`: search, within these limits (boxed: its clocks make it
    /// the largest command by far).
    Go(Box<Go>),
    /// `stop`: end the running search.
    Stop,
    /// `ponderhit`: the pondered guess came true.
    PonderHit,
    /// `query <question>`: answered with `response <answer>`.
    Query(Query),
    /// `d`: the board as text.
    D,
    /// `perft <depth>`: the step tree's leaves counted.
    Perft(u32),
    /// `help`: the commands, as `info string` lines.
    Help,
    /// `quit`: exit.
    Quit,
}

/// The commands that take no words after them, with their values.
const PLAIN: [(&str, Command); 10] = [
    ("ugi", Command::Ugi),
    ("uci", Command::Uci),
    ("isready", Command::IsReady),
    ("uginewgame", Command::UgiNewGame),
    ("ucinewgame", Command::UciNewGame),
    ("stop", Command::Stop),
    ("ponderhit", Command::PonderHit),
    ("d", Command::D),
    ("help", Command::Help),
    ("quit", Command::Quit),
];

/// Why a line is not a command the engine carries out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The line holds a control character other than a space or a tab.
    ControlCharacter(ControlCharacter),
    /// Words after a command that takes none.
    TakesNoArguments {
        /// The command.
        command: &'static str,
        /// Its words, joined by single spaces.
        found: String,
    },
    /// A first word that is no command.
    Unknown {
        /// The word.
        word: String,
    },
    /// A `position` that does not read.
    Position(PositionCommandError),
    /// A `go` that does not read.
    Go(GoCommandError),
    /// A `setoption` that does not read.
    SetOption(SetOptionCommandError),
    /// A `query` of no question it knows.
    Query {
        /// Its words, joined by single spaces.
        found: String,
    },
    /// A `perft` without one depth 0..=[`PERFT_MAX_DEPTH`].
    Perft,
}

impl CommandError {
    /// The command whose words did not read, for the commands that need
    /// an idle engine (`position`, `go`, `setoption`, `perft`): an engine
    /// that searches refuses them for that before reading their words.
    pub fn needs_idle(&self) -> Option<&'static str> {
        match self {
            CommandError::Position(_) => Some("position"),
            CommandError::Go(_) => Some("go"),
            CommandError::SetOption(_) => Some("setoption"),
            CommandError::Perft => Some("perft"),
            _ => None,
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ControlCharacter(e) => e.fmt(f),
            Self::TakesNoArguments { command, found } => write!(
                f,
                "'{command}' takes no arguments, found '{}'; the line is ignored",
                echo(found)
            ),
            Self::Unknown { word } => write!(f, "unknown command '{}'", echo(word)),
            Self::Position(e) => e.fmt(f),
            Self::Go(e) => e.fmt(f),
            Self::SetOption(e) => e.fmt(f),
            Self::Query { found } => write!(
                f,
                "query: expected one of p1turn, gameover, result, turn, winner, steps, legal, spn; found '{}'",
                echo(found)
            ),
            Self::Perft => write!(f, "perft: expected a depth 0..={PERFT_MAX_DEPTH}"),
        }
    }
}

impl std::error::Error for CommandError {}

impl Command {
    /// Reads one line (its end of line removed): `Ok(None)` for a line
    /// with no words.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let words = input::words(line).map_err(CommandError::ControlCharacter)?;
        match words.split_first() {
            None => Ok(None),
            Some((&first, args)) => Command::from_words(first, args).map(Some),
        }
    }

    /// The command `first` with the words after it, `args`.
    pub fn from_words(first: &str, args: &[&str]) -> Result<Command, CommandError> {
        if let Some((command, plain)) = PLAIN.iter().find(|(w, _)| *w == first) {
            if !args.is_empty() {
                return Err(CommandError::TakesNoArguments {
                    command,
                    found: args.join(" "),
                });
            }
            return Ok(plain.clone());
        }
        match first {
            "setoption" => parse_setoption(args)
                .map(Command::SetOption)
                .map_err(CommandError::SetOption),
            "position" => PositionCommand::parse(args)
                .map(Command::Position)
                .map_err(CommandError::Position),
            "go" => Go::parse(args)
                .map(|go| Command::Go(Box::new(go)))
                .map_err(CommandError::Go),
            "query" => match args {
                [q] => Query::ALL
                    .into_iter()
                    .find(|x| x.word() == *q)
                    .map(Command::Query)
                    .ok_or_else(|| CommandError::Query {
                        found: q.to_string(),
                    }),
                _ => Err(CommandError::Query {
                    found: args.join(" "),
                }),
            },
            "perft" => match args {
                [d] => d
                    .parse::<u32>()
                    .ok()
                    .filter(|&d| d <= PERFT_MAX_DEPTH)
                    .map(Command::Perft)
                    .ok_or(CommandError::Perft),
                _ => Err(CommandError::Perft),
            },
            _ => Err(CommandError::Unknown {
                word: first.to_string(),
            }),
        }
    }

    /// The command's first word.
    pub fn word(&self) -> &'static str {
        match self {
            Command::SetOption(_) => "setoption",
            Command::Position(_) => "position",
            Command::Go(_) => "go",
            Command::Query(_) => "query",
            Command::Perft(_) => "perft",
            plain => PLAIN
                .iter()
                .find(|(_, c)| c == plain)
                .map_or("", |(w, _)| w),
        }
    }

    /// Whether an engine refuses it while a search (or a perft) runs
    /// (protocol.md, "Commands that need an idle engine").
    pub fn needs_idle(&self) -> bool {
        matches!(
            self,
            Command::Position(_)
                | Command::Go(_)
                | Command::SetOption(_)
                | Command::UgiNewGame
                | Command::UciNewGame
                | Command::Perft(_)
        )
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::SetOption(o) => write!(f, "setoption name {} value {}", o.name, o.value),
            Command::Position(p) => p.fmt(f),
            Command::Go(g) => g.fmt(f),
            Command::Query(q) => write!(f, "query {}", q.word()),
            Command::Perft(d) => write!(f, "perft {d}"),
            plain => f.write_str(plain.word()),
        }
    }
}

impl From<Go> for Command {
    fn from(go: Go) -> Command {
        Command::Go(Box::new(go))
    }
}

impl From<PositionCommand> for Command {
    fn from(p: PositionCommand) -> Command {
        Command::Position(p)
    }
}

impl From<SetOption> for Command {
    fn from(o: SetOption) -> Command {
        Command::SetOption(o)
    }
}

#[cfg(test)]
mod tests;
