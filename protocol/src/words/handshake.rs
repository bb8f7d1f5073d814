//! The lines of the handshake and of `query`: `id name …`, `id author …`,
//! `option name … type …`, and `response …`.

use super::{ParseError, expect_kind};
use std::fmt;

/// An `id` line of the answer to `ugi`: `id name <name>` or
/// `id author <author>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    /// `id name <name>`: the engine's name and version.
    Name(String),
    /// `id author <author>`.
    Author(String),
}

impl Id {
    /// Reads `id name <text>` or `id author <text>`; the text is its words
    /// joined by single spaces.
    pub fn parse(line: &str) -> Result<Id, ParseError> {
        let mut w = expect_kind(line, "id")?;
        let kind = w.next().ok_or(ParseError::Missing { word: "id" })?;
        let text = w.collect::<Vec<_>>().join(" ");
        match kind {
            "name" => Ok(Id::Name(text)),
            "author" => Ok(Id::Author(text)),
            other => Err(ParseError::Unreadable {
                word: "id",
                found: other.to_string(),
            }),
        }
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Name(n) => write!(f, "id name {n}"),
            Id::Author(a) => write!(f, "id author {a}"),
        }
    }
}

/// What an option is and its values, as its `option` line declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin default <n> min <n> max <n>`: a whole number.
    Spin {
        /// The value before any `setoption`.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo default <v> var <v>…`: one of a list.
    Combo {
        /// The value before any `setoption`.
        default: String,
        /// Every value it takes, in order.
        vars: Vec<String>,
    },
    /// `type string default <text>` (`<empty>` for none).
    Text {
        /// The value before any `setoption`.
        default: String,
    },
    /// `type check default true|false`.
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
    /// `type button`: an action with no value.
    Button,
}

/// One `option name <name> type <kind> …` line of the answer to `ugi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    /// The option's name (it may hold spaces: `Skill Level`).
    pub name: String,
    /// Its kind and values.
    pub kind: OptionKind,
}

/// The option line's keywords: each ends the text before it.
const KEYWORDS: [&str; 5] = ["type", "default", "min", "max", "var"];

/// The words after `key` up to the next keyword, joined by single spaces;
/// `None` when `key` is not there.
fn after(words: &[&str], key: &str) -> Option<String> {
    let at = words.iter().position(|w| *w == key)?;
    let rest = &words[at + 1..];
    let end = rest
        .iter()
        .position(|w| KEYWORDS.contains(w))
        .unwrap_or(rest.len());
    Some(rest[..end].join(" "))
}

impl OptionLine {
    /// Whether this option is `name`: option names are case-insensitive
    /// (protocol.md, `setoption`).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// Reads an `option` line. The name runs from `name` to `type`; a
    /// spin's three numbers, a check's default and a kind it knows are
    /// needed, the rest is read as it is.
    pub fn parse(line: &str) -> Result<OptionLine, ParseError> {
        let words: Vec<&str> = expect_kind(line, "option")?.collect();
        if words.first() != Some(&"name") {
            return Err(ParseError::Missing { word: "name" });
        }
        let type_at = words
            .iter()
            .position(|w| *w == "type")
            .ok_or(ParseError::Missing { word: "type" })?;
        let name = words[1..type_at].join(" ");
        if name.is_empty() {
            return Err(ParseError::Missing { word: "name" });
        }
        let rest = &words[type_at..];
        let kind = rest.get(1).ok_or(ParseError::Missing { word: "type" })?;
        let number = |key: &'static str| -> Result<i64, ParseError> {
            let text = after(rest, key).ok_or(ParseError::Missing { word: key })?;
            text.parse().map_err(|_| ParseError::Unreadable {
                word: key,
                found: text,
            })
        };
        let default = after(rest, "default").unwrap_or_default();
        let kind = match *kind {
            "spin" => OptionKind::Spin {
                default: number("default")?,
                min: number("min")?,
                max: number("max")?,
            },
            "combo" => OptionKind::Combo {
                default,
                vars: rest
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w == "var")
                    .filter_map(|(i, _)| after(&rest[i..], "var"))
                    .collect(),
            },
            "string" => OptionKind::Text { default },
            "check" => OptionKind::Check {
                default: match default.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(ParseError::Unreadable {
                            word: "default",
                            found: default,
                        });
                    }
                },
            },
            "button" => OptionKind::Button,
            other => {
                return Err(ParseError::Unreadable {
                    word: "type",
                    found: other.to_string(),
                });
            }
        };
        Ok(OptionLine { name, kind })
    }
}

impl fmt::Display for OptionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Text { default } => write!(f, "string default {default}"),
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

/// The options of a handshake's lines (those that read), in order.
pub fn options<S: AsRef<str>>(lines: &[S]) -> impl Iterator<Item = OptionLine> + '_ {
    lines
        .iter()
        .filter_map(|l| OptionLine::parse(l.as_ref()).ok())
}

/// The option `name` among a handshake's lines (names compare without
/// case).
pub fn find_option<S: AsRef<str>>(lines: &[S], name: &str) -> Option<OptionLine> {
    options(lines).find(|o| o.is(name))
}

/// Whether a handshake's lines declare option `name` (a line that reads
/// as its declaration; names compare without case).
pub fn has_option<S: AsRef<str>>(lines: &[S], name: &str) -> bool {
    find_option(lines, name).is_some()
}

/// The answer to `query <question>`: `response <answer>`, the answer
/// being the rest of the line as it is (`query legal` in a finished game
/// answers `response ` with nothing after it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response(pub String);

impl Response {
    /// Reads `response <answer>`: the answer is the rest of the line after
    /// the one space or tab that follows `response`.
    pub fn parse(line: &str) -> Result<Response, ParseError> {
        let space = |c: char| c == ' ' || c == '\t';
        let wrong = ParseError::WrongKind {
            expected: "response",
        };
        let rest = line
            .trim_start_matches(space)
            .strip_prefix("response")
            .ok_or(wrong.clone())?;
        let mut chars = rest.chars();
        match chars.next() {
            None => Ok(Response(String::new())),
            Some(c) if space(c) => Ok(Response(chars.as_str().to_string())),
            Some(_) => Err(wrong),
        }
    }

    /// The answer with the spaces around it trimmed, as a client compares it.
    pub fn answer(&self) -> &str {
        self.0.trim()
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "response {}", self.0)
    }
}
