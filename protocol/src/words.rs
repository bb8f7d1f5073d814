//! The words of the engine's answers, typed once: each line an engine
//! writes (`id …`, `option …`, `ugiok`, `readyok`, `info …`,
//! `info string …`, `bestturn …`, `bestmove …`, `response …`) is a
//! type here that both prints it ([`std::fmt::Display`], the bytes the
//! session writes) and reads it back (`parse`), so that the engine and its
//! clients cannot drift apart. [`Line::parse`] reads any line an engine
//! writes, for a client.
//!
//! Steps are [`StepText`]: what a step's text says, read without a
//! position (a client may not follow the game, and a principal variation
//! runs across turns the reader has not seen). Its text is a [`Step`]'s,
//! byte for byte; [`splut_rules::Position::parse_step`] turns it into a
//! step of a position.
//!
//! Reading is as tolerant as a GUI must be (UCI's rule): words it does not
//! know are skipped, every field is optional, and a `pv` ends at the first
//! word that is not a step. A word it knows with a missing or unreadable
//! value, or given twice, is an error; nothing panics.

use crate::Score;
use crate::input;
use splut_rules::{Seat, Step, StepText};
use std::fmt;
use std::str::FromStr;

/// Why a line did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line does not begin with `expected` (`info`, `info string`,
    /// `bestturn`, `bestmove`).
    WrongKind {
        /// The first word the line should have.
        expected: &'static str,
    },
    /// An `info string …` line (free text) where a search's report was
    /// expected.
    InfoString,
    /// `word` ends the line without the value it needs.
    Missing {
        /// The word whose value is missing.
        word: &'static str,
    },
    /// `word`'s value `found` does not read.
    Unreadable {
        /// The word whose value this is.
        word: &'static str,
        /// The value as the line has it.
        found: String,
    },
    /// `word` is given twice.
    Repeated {
        /// The repeated word.
        word: &'static str,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::WrongKind { expected } => write!(f, "not a '{expected}' line"),
            ParseError::InfoString => write!(f, "an 'info string' line is free text"),
            ParseError::Missing { word } => write!(f, "'{word}' without its value"),
            ParseError::Unreadable { word, found } => {
                write!(f, "'{word}': cannot read '{}'", input::echo(found))
            }
            ParseError::Repeated { word } => write!(f, "'{word}' given twice"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The words of a line: runs of ASCII whitespace separate them (a
/// trailing `\r` of a client that kept it is no word).
fn words(line: &str) -> std::iter::Peekable<std::str::SplitAsciiWhitespace<'_>> {
    line.split_ascii_whitespace().peekable()
}

/// The first word of `line` must be `kind`.
pub(crate) fn expect_kind<'a>(
    line: &'a str,
    kind: &'static str,
) -> Result<std::iter::Peekable<std::str::SplitAsciiWhitespace<'a>>, ParseError> {
    let mut w = words(line);
    match w.next() {
        Some(first) if first == kind => Ok(w),
        _ => Err(ParseError::WrongKind { expected: kind }),
    }
}

/// The next word, the value of `word`.
fn value<'a>(
    w: &mut impl Iterator<Item = &'a str>,
    word: &'static str,
) -> Result<&'a str, ParseError> {
    w.next().ok_or(ParseError::Missing { word })
}

/// `text` read as a `T`, the value of `word`.
fn read<T: FromStr>(text: &str, word: &'static str) -> Result<T, ParseError> {
    text.parse().map_err(|_| ParseError::Unreadable {
        word,
        found: text.to_string(),
    })
}

/// A step's text, the value of `word`.
fn step(text: &str, word: &'static str) -> Result<StepText, ParseError> {
    StepText::parse(text).map_err(|_| ParseError::Unreadable {
        word,
        found: text.to_string(),
    })
}

/// The seat a one-letter word names.
fn seat(text: &str) -> Option<Seat> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Seat::from_letter(c),
        _ => None,
    }
}

/// A search's report, one `info` line:
///
/// `info depth <d> seldepth <s> [multipv <k>] score cp <x>|win <t>|loss <t>
/// nodes <n> nps <n> time <ms> hashfull <permille> [pv <step>…]
/// [winprob <seat> <p>…]`
///
/// Each field is printed when it is there, in that order; the engine's
/// own lines have every one but `multipv` (with `MultiPV` 1), `pv` (an
/// empty line) and `winprob` (option `UCI_ShowWinProb` off).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// `depth`: the iteration's depth in steps.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv`: which of several lines this is, 1 the best.
    pub multipv: Option<u32>,
    /// `score`, from the side to move's view.
    pub score: Option<Score>,
    /// `nodes` searched so far.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `time` since the search began, in milliseconds.
    pub time_ms: Option<u64>,
    /// `hashfull`: the table's use, permille.
    pub hashfull: Option<u32>,
    /// `pv`: the principal variation, steps across turns; empty when the
    /// line has none.
    pub pv: Vec<StepText>,
    /// `winprob`: each seat's chance to win, printed to two decimals;
    /// empty when the line has none.
    pub winprob: Vec<(Seat, f64)>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time_ms),
            ("hashfull", self.hashfull.map(u64::from)),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for s in &self.pv {
                write!(f, " {s}")?;
            }
        }
        if !self.winprob.is_empty() {
            f.write_str(" winprob")?;
            for (seat, p) in &self.winprob {
                write!(f, " {} {p:.2}", seat.letter())?;
            }
        }
        Ok(())
    }
}

/// Sets a field read from the line, once.
fn set<T>(field: &mut Option<T>, word: &'static str, v: T) -> Result<(), ParseError> {
    match field.replace(v) {
        None => Ok(()),
        Some(_) => Err(ParseError::Repeated { word }),
    }
}

/// Reads the value of `word`, a number, into its field, once.
fn number<'a, T: FromStr>(
    w: &mut impl Iterator<Item = &'a str>,
    field: &mut Option<T>,
    word: &'static str,
) -> Result<(), ParseError> {
    let v = read(value(w, word)?, word)?;
    set(field, word, v)
}

impl Info {
    /// Reads an `info` line: what [`Info`]'s `Display` prints, and any
    /// engine's report in UCI's manner (unknown words skipped; `string`
    /// ends the fields, the rest being free text). An `info string …`
    /// line is [`ParseError::InfoString`] ([`InfoString::parse`] reads it).
    pub fn parse(line: &str) -> Result<Info, ParseError> {
        let mut w = expect_kind(line, "info")?;
        if w.peek() == Some(&"string") {
            return Err(ParseError::InfoString);
        }
        let mut info = Info::default();
        let (mut pv, mut winprob) = (false, false);
        while let Some(word) = w.next() {
            match word {
                "depth" => number(&mut w, &mut info.depth, "depth")?,
                "seldepth" => number(&mut w, &mut info.seldepth, "seldepth")?,
                "multipv" => number(&mut w, &mut info.multipv, "multipv")?,
                "score" => {
                    let kind = value(&mut w, "score")?;
                    let s = Score::read(kind, value(&mut w, "score")?)?;
                    set(&mut info.score, "score", s)?;
                }
                "nodes" => number(&mut w, &mut info.nodes, "nodes")?,
                "nps" => number(&mut w, &mut info.nps, "nps")?,
                "time" => number(&mut w, &mut info.time_ms, "time")?,
                "hashfull" => number(&mut w, &mut info.hashfull, "hashfull")?,
                "pv" if pv => return Err(ParseError::Repeated { word: "pv" }),
                "pv" => {
                    pv = true;
                    // UCI's pv runs to the next word that is not a move:
                    // here the words after it (`winprob`) are read again.
                    while let Some(s) = w.peek().and_then(|t| StepText::parse(t).ok()) {
                        info.pv.push(s);
                        w.next();
                    }
                }
                "winprob" if winprob => return Err(ParseError::Repeated { word: "winprob" }),
                "winprob" => {
                    winprob = true;
                    info.winprob = win_probabilities(&mut w)?;
                }
                "string" => break,
                _ => {}
            }
        }
        Ok(info)
    }
}

/// The `<seat> <p>` pairs after `winprob`: at least one, each seat once,
/// each chance within 0..=1.
fn win_probabilities<'a, I: Iterator<Item = &'a str>>(
    w: &mut std::iter::Peekable<I>,
) -> Result<Vec<(Seat, f64)>, ParseError> {
    let mut chances: Vec<(Seat, f64)> = Vec::new();
    while let Some(s) = w.peek().and_then(|t| seat(t)) {
        w.next();
        let text = value(w, "winprob")?;
        let p: f64 = read(text, "winprob")?;
        let unreadable = || ParseError::Unreadable {
            word: "winprob",
            found: text.to_string(),
        };
        if !(0.0..=1.0).contains(&p) {
            return Err(unreadable());
        }
        if chances.iter().any(|&(seen, _)| seen == s) {
            return Err(ParseError::Repeated { word: "winprob" });
        }
        chances.push((s, p));
    }
    if chances.is_empty() {
        return Err(match w.peek() {
            None => ParseError::Missing { word: "winprob" },
            Some(t) => ParseError::Unreadable {
                word: "winprob",
                found: t.to_string(),
            },
        });
    }
    Ok(chances)
}

/// A line of free text, `info string <text>`; the engine's refusals are
/// `info string error: <why>` ([`InfoString::error`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoString(pub String);

impl InfoString {
    /// The line of `text` (which must hold no line break).
    pub fn new(text: impl Into<String>) -> InfoString {
        InfoString(text.into())
    }

    /// The refusal `info string error: <why>`; `why` should already be
    /// made safe to print ([`input::error_text`]).
    pub fn error(why: &str) -> InfoString {
        InfoString(format!("error: {why}"))
    }

    /// Why the engine refused, if this is an error line.
    pub fn error_message(&self) -> Option<&str> {
        self.0.strip_prefix("error:").map(str::trim_start)
    }

    /// Reads `info string <text>`: the text is the rest of the line after
    /// the one space (or tab) that follows `string`, kept as it is.
    pub fn parse(line: &str) -> Result<InfoString, ParseError> {
        let space = |c: char| c.is_ascii_whitespace();
        let wrong = ParseError::WrongKind {
            expected: "info string",
        };
        let rest = line
            .trim_start_matches(space)
            .strip_prefix("info")
            .filter(|r| r.starts_with(space))
            .and_then(|r| r.trim_start_matches(space).strip_prefix("string"))
            .ok_or(wrong.clone())?;
        let mut chars = rest.chars();
        match chars.next() {
            None => Ok(InfoString(String::new())),
            Some(c) if space(c) => Ok(InfoString(chars.as_str().to_string())),
            // `info stringent …`: not the word `string`.
            Some(_) => Err(wrong),
        }
    }
}

impl fmt::Display for InfoString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info string {}", self.0)
    }
}

/// ` <step>…`, each step after a space, or ` (none)` for no step.
fn write_steps(f: &mut fmt::Formatter<'_>, steps: &[StepText]) -> fmt::Result {
    if steps.is_empty() {
        return f.write_str(" (none)");
    }
    steps.iter().try_for_each(|s| write!(f, " {s}"))
}

/// The answer of a search, first of its two last lines: `bestturn
/// <step>…`, the rest of the side to move's turn, or `bestturn (none)`
/// (the game is over).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestTurn(pub Vec<StepText>);

impl BestTurn {
    /// The answer of a search that chose `turn`.
    pub fn of(turn: &[Step]) -> BestTurn {
        BestTurn(turn.iter().map(|s| s.text()).collect())
    }

    /// The `bestmove` line that follows: the turn's first step.
    pub fn best_move(&self) -> BestMove {
        BestMove(self.0.first().copied())
    }

    /// Reads `bestturn <step>…` or `bestturn (none)`; every word after
    /// `bestturn` must be a step.
    pub fn parse(line: &str) -> Result<BestTurn, ParseError> {
        let w: Vec<&str> = expect_kind(line, "bestturn")?.collect();
        match w[..] {
            [] => Err(ParseError::Missing { word: "bestturn" }),
            ["(none)"] => Ok(BestTurn(Vec::new())),
            _ => w
                .iter()
                .map(|t| step(t, "bestturn"))
                .collect::<Result<_, _>>()
                .map(BestTurn),
        }
    }
}

impl fmt::Display for BestTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bestturn")?;
        write_steps(f, &self.0)
    }
}

/// The step to play now, the last line of a search: `bestmove <step>`,
/// or `bestmove (none)` (the game is over).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BestMove(pub Option<StepText>);

impl BestMove {
    /// Reads `bestmove <step>` or `bestmove (none)`; the words after the
    /// step are skipped (UCI's `ponder <move>`).
    pub fn parse(line: &str) -> Result<BestMove, ParseError> {
        let mut w = expect_kind(line, "bestmove")?;
        match value(&mut w, "bestmove")? {
            "(none)" => Ok(BestMove(None)),
            t => step(t, "bestmove").map(|s| BestMove(Some(s))),
        }
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bestmove")?;
        write_steps(f, self.0.as_slice())
    }
}

/// Any line an engine writes, as a client reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// `id name …` or `id author …` (the answer to `ugi`).
    Id(Id),
    /// `option name … type …` (the answer to `ugi`).
    Option(OptionLine),
    /// `ugiok`: the end of the answer to `ugi`.
    UgiOk,
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// A search's report.
    Info(Info),
    /// Free text, an error among them.
    InfoString(InfoString),
    /// The turn a search chose.
    BestTurn(BestTurn),
    /// The step to play now.
    BestMove(BestMove),
    /// The answer to `query`.
    Response(Response),
    /// Any other line (a board of `d`, a count of `perft`), as it is.
    Other(String),
}

impl Line {
    /// Reads a line by its first word: an error only for an `id`,
    /// `option`, `info`, `bestturn` or `bestmove` line that does not read.
    /// `ugiok`, `uciok` and `readyok` are read by their first word (words
    /// after it are skipped, as a GUI skips them).
    pub fn parse(line: &str) -> Result<Line, ParseError> {
        let mut w = words(line);
        match w.next() {
            Some("info") if w.peek() == Some(&"string") => {
                InfoString::parse(line).map(Line::InfoString)
            }
            Some("info") => Info::parse(line).map(Line::Info),
            Some("bestturn") => BestTurn::parse(line).map(Line::BestTurn),
            Some("bestmove") => BestMove::parse(line).map(Line::BestMove),
            Some("id") => Id::parse(line).map(Line::Id),
            Some("option") => OptionLine::parse(line).map(Line::Option),
            Some("ugiok") => Ok(Line::UgiOk),
            Some("uciok") => Ok(Line::UciOk),
            Some("readyok") => Ok(Line::ReadyOk),
            Some("response") => Response::parse(line).map(Line::Response),
            _ => Ok(Line::Other(line.to_string())),
        }
    }
}

/// Each line also reads with `str::parse`, as its `parse` reads it.
macro_rules! from_str {
    ($($t:ident),*) => {$(
        impl FromStr for $t {
            type Err = ParseError;

            fn from_str(line: &str) -> Result<$t, ParseError> {
                $t::parse(line)
            }
        }
    )*};
}

from_str!(
    Info, InfoString, BestTurn, BestMove, Line, Id, OptionLine, Response
);

/// Each line's type is a [`Line`].
macro_rules! into_line {
    ($($t:ident),*) => {$(
        impl From<$t> for Line {
            fn from(line: $t) -> Line {
                Line::$t(line)
            }
        }
    )*};
}

into_line!(Info, InfoString, BestTurn, BestMove, Id, Response);

impl From<OptionLine> for Line {
    fn from(line: OptionLine) -> Line {
        Line::Option(line)
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Info(i) => i.fmt(f),
            Line::InfoString(s) => s.fmt(f),
            Line::BestTurn(t) => t.fmt(f),
            Line::BestMove(m) => m.fmt(f),
            Line::Id(i) => i.fmt(f),
            Line::Option(o) => o.fmt(f),
            Line::UgiOk => f.write_str("ugiok"),
            Line::UciOk => f.write_str("uciok"),
            Line::ReadyOk => f.write_str("readyok"),
            Line::Response(r) => r.fmt(f),
            Line::Other(text) => f.write_str(text),
        }
    }
}

mod handshake;
pub use handshake::{Id, OptionKind, OptionLine, Response, find_option, has_option, options};

#[cfg(test)]
mod tests;
