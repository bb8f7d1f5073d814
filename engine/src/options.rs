//! The engine's options, declared once: [`OPTIONS`] gives each one's name,
//! type, default and bounds or choices. The `ugi` answer lists them from it,
//! `setoption` checks and stores values with it ([`Values`]), and the
//! tournament checks a participant's `option.<Name>=` settings with it
//! ([`check`]) before any game starts.
//!
//! This module depends on nothing but the standard library and the
//! protocol's option lines ([`OptionLine`]), so that the tournament can
//! read the table without depending on the search. Values that name things of the search (the algorithms, the MCTS
//! defaults) are mirrored here by name and number; the protocol's tests
//! check that the mirror matches.

use splut_protocol::words::{OptionKind, OptionLine};

/// An option's type, with its default and what it accepts (UGI's `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number within `min..=max`; `unit` only words errors.
    Spin {
        /// The value before any `setoption`.
        default: u64,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// Unit for error messages (" MiB"), or "".
        unit: &'static str,
    },
    /// One of a fixed list of words (case-insensitive).
    Combo {
        /// The value before any `setoption`.
        default: &'static str,
        /// The choices, in the order `ugi` lists them.
        vars: &'static [&'static str],
        /// Other words accepted for a choice, unlisted: (alias, choice).
        aliases: &'static [(&'static str, &'static str)],
    },
    /// Any text (a file name, say); `<empty>` stands for the empty text.
    Text {
        /// The value before any `setoption`, as `ugi` shows it.
        default: &'static str,
    },
    /// `true` or `false`.
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
}

/// Which option: the index of its row in [`OPTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Id {
    /// Transposition table size, MiB.
    Hash,
    /// Search threads.
    Threads,
    /// Which search.
    Algorithm,
    /// Milliseconds kept back per move for the time lost in transit.
    MoveOverhead,
    /// Seed for the randomised searches.
    Seed,
    /// How MCTS threads share the work.
    MctsParallel,
    /// MCTS exploration constant, hundredths.
    MctsExploration,
    /// MCTS playout length, steps.
    MctsPlayout,
    /// Weight of the implicit minimax value in MCTS, percent.
    MctsMinimax,
    /// A file of evaluation weights.
    EvalFile,
    /// Principal variations reported (the best turns, each with its line).
    MultiPv,
    /// Evaluate with the network (else the hand-written evaluation).
    UseNnue,
    /// Play at a level below the full engine's (`UCI_Elo` sets it).
    LimitStrength,
    /// The level asked for as an Elo rating (with `UCI_LimitStrength`).
    Elo,
    /// The level asked for on the 0–20 scale (20: the full engine).
    SkillLevel,
    /// Win probabilities for every seat in the `info` lines.
    ShowWinProb,
    /// The GUI may send `go ponder` (UCI's standard check option; the
    /// engine ponders whenever asked, whatever its value).
    Ponder,
    /// A network for the searches with 3–4 seats left at the root.
    EvalFileMulti,
}

/// One option: its name as `ugi` shows it and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Which option (its row in [`OPTIONS`]).
    pub id: Id,
    /// The name `ugi` lists (`setoption` takes it in any case).
    pub name: &'static str,
    /// Type, default and bounds.
    pub kind: Kind,
}

/// The search algorithms' names, in the order `ugi` lists them (mirrors
/// `search::Algorithm::ALL`).
pub const ALGORITHMS: [&str; 9] = [
    "auto",
    "alphabeta",
    "maxn",
    "brs",
    "brsplus",
    "mcts",
    "uct-plain",
    "random",
    "greedy",
];

/// Largest `Hash`, MiB.
pub const HASH_MAX: u64 = 65_536;
/// Largest `Threads`.
pub const THREADS_MAX: u64 = 256;
/// Largest `MultiPV`.
pub const MULTI_PV_MAX: u64 = 64;

/// Lowest `UCI_Elo`: the measured Elo of level 0 (mirrors
/// `search::skill::LADDER`; a test checks the mirror).
pub const ELO_MIN: u64 = 1040;
/// Highest `UCI_Elo`: the measured Elo of level 19, the strongest level
/// below the full engine. Levels 19 to 20 play alike (node-capped, the
/// hand-written evaluation), and the full engine is far above them (2282
/// at 50000 nodes a turn, docs/results/levels.md, 2026-11-27), so no
/// rating between them could be played honestly: as in UCI, full strength
/// is `UCI_LimitStrength` off (or `Skill Level` 20), not a rating.
pub const ELO_MAX: u64 = 1970;
/// Highest `Skill Level`: the full engine.
pub const SKILL_MAX: u64 = 20;

/// The `EvalFile` value that stands for the compiled-in weights, as `ugi`
/// shows it (`default` and an empty value mean the same).
pub const EVAL_FILE_DEFAULT: &str = "<empty>";

/// Every option, in the order `ugi` lists them; row `i` has `id as usize
/// == i`. A new option is one row here (and an [`Id`]).
pub const OPTIONS: [Spec; 18] = [
    Spec {
        id: Id::Hash,
        name: "Hash",
        kind: Kind::Spin {
            default: 64,
            min: 1,
            max: HASH_MAX,
            unit: " MiB",
        },
    },
    Spec {
        id: Id::Threads,
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: THREADS_MAX,
            unit: " threads",
        },
    },
    Spec {
        id: Id::Algorithm,
        name: "Algorithm",
        kind: Kind::Combo {
            default: "auto",
            vars: &ALGORITHMS,
            // Paranoid alpha-beta is what alphabeta is with 3-4 players.
            aliases: &[("paranoid", "alphabeta")],
        },
    },
    Spec {
        id: Id::MoveOverhead,
        name: "MoveOverhead",
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 10_000,
            unit: " ms",
        },
    },
    Spec {
        id: Id::Seed,
        name: "Seed",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: u32::MAX as u64,
            unit: "",
        },
    },
    Spec {
        id: Id::MctsParallel,
        name: "MctsParallel",
        kind: Kind::Combo {
            default: "tree",
            vars: &["tree", "root"],
            aliases: &[],
        },
    },
    Spec {
        id: Id::MctsExploration,
        name: "MctsExploration",
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 1000,
            unit: "",
        },
    },
    Spec {
        id: Id::MctsPlayout,
        name: "MctsPlayout",
        kind: Kind::Spin {
            default: 6,
            min: 0,
            max: 200,
            unit: " steps",
        },
    },
    Spec {
        id: Id::MctsMinimax,
        name: "MctsMinimax",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 100,
            unit: "%",
        },
    },
    Spec {
        id: Id::EvalFile,
        name: "EvalFile",
        kind: Kind::Text {
            default: EVAL_FILE_DEFAULT,
        },
    },
    Spec {
        id: Id::MultiPv,
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MULTI_PV_MAX,
            unit: " lines",
        },
    },
    Spec {
        id: Id::UseNnue,
        name: "UseNNUE",
        kind: Kind::Combo {
            default: "auto",
            vars: &["auto", "true", "false"],
            aliases: &[],
        },
    },
    Spec {
        id: Id::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::Elo,
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: ELO_MAX,
            min: ELO_MIN,
            max: ELO_MAX,
            unit: " Elo",
        },
    },
    Spec {
        id: Id::SkillLevel,
        name: "Skill Level",
        kind: Kind::Spin {
            default: SKILL_MAX,
            min: 0,
            max: SKILL_MAX,
            unit: "",
        },
    },
    Spec {
        id: Id::ShowWinProb,
        name: "UCI_ShowWinProb",
        kind: Kind::Check { default: false },
    },
    // UCI GUIs look for this option before they ever send `go ponder`.
    Spec {
        id: Id::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::EvalFileMulti,
        name: "EvalFileMulti",
        kind: Kind::Text {
            default: EVAL_FILE_DEFAULT,
        },
    },
];

/// Longest `Text` value, bytes: a path, not a document.
pub const MAX_TEXT: usize = 4096;

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A `Spin` value.
    Spin(u64),
    /// A `Combo` value, spelt as in the table.
    Combo(&'static str),
    /// A `Text` value (`<empty>` read as "").
    Text(String),
    /// A `Check` value.
    Check(bool),
}

impl Spec {
    /// The option's row for `id`.
    pub fn of(id: Id) -> &'static Spec {
        &OPTIONS[id as usize]
    }

    /// The `option name … type …` line of the `ugi` answer.
    pub fn declaration(&self) -> OptionLine {
        // The table's bounds are far below i64's.
        let int = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let kind = match self.kind {
            Kind::Spin {
                default, min, max, ..
            } => OptionKind::Spin {
                default: int(default),
                min: int(min),
                max: int(max),
            },
            Kind::Combo { default, vars, .. } => OptionKind::Combo {
                default: default.to_string(),
                vars: vars.iter().map(|v| v.to_string()).collect(),
            },
            Kind::Text { default } => OptionKind::Text {
                default: default.to_string(),
            },
            Kind::Check { default } => OptionKind::Check { default },
        };
        OptionLine {
            name: self.name.to_string(),
            kind,
        }
    }

    /// The value before any `setoption`.
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Spin { default, .. } => Value::Spin(default),
            Kind::Combo { default, .. } => Value::Combo(default),
            Kind::Text { default } => Value::Text(text_value(default)),
            Kind::Check { default } => Value::Check(default),
        }
    }

    /// Checks a value given as text; the error names the option and says
    /// what it takes.
    pub fn parse(&self, value: &str) -> Result<Value, OptionError> {
        let option = self.name;
        match self.kind {
            Kind::Spin { min, max, unit, .. } => {
                let v: u64 = value.parse().map_err(|_| OptionError::NotANumber {
                    option,
                    value: value.to_string(),
                    min,
                    max,
                    unit,
                })?;
                if v < min || v > max {
                    return Err(OptionError::OutOfRange {
                        option,
                        value: v,
                        min,
                        max,
                    });
                }
                Ok(Value::Spin(v))
            }
            Kind::Combo { vars, aliases, .. } => vars
                .iter()
                .copied()
                .find(|v| v.eq_ignore_ascii_case(value))
                .or_else(|| {
                    aliases
                        .iter()
                        .find(|(a, _)| a.eq_ignore_ascii_case(value))
                        .map(|&(_, v)| v)
                })
                .map(Value::Combo)
                .ok_or_else(|| OptionError::NotAChoice {
                    option,
                    value: value.to_string(),
                    choices: vars,
                }),
            Kind::Text { .. } => {
                if value.len() > MAX_TEXT {
                    return Err(OptionError::TooLong {
                        option,
                        bytes: value.len(),
                    });
                }
                Ok(Value::Text(text_value(value)))
            }
            Kind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Check(true)),
                "false" => Ok(Value::Check(false)),
                _ => Err(OptionError::NotABool {
                    option,
                    value: value.to_string(),
                }),
            },
        }
    }
}

/// Why an option name or value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown {
        /// The name given.
        name: String,
    },
    /// A spin option's value is not a whole number.
    NotANumber {
        /// The option's name.
        option: &'static str,
        /// The value given.
        value: String,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// The unit the option counts in (" MiB"), or "".
        unit: &'static str,
    },
    /// A spin option's value is outside its bounds.
    OutOfRange {
        /// The option's name.
        option: &'static str,
        /// The value given.
        value: u64,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A combo option's value is none of its choices.
    NotAChoice {
        /// The option's name.
        option: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        choices: &'static [&'static str],
    },
    /// A text option's value is longer than [`MAX_TEXT`] bytes.
    TooLong {
        /// The option's name.
        option: &'static str,
        /// The value's length.
        bytes: usize,
    },
    /// A check option's value is neither `true` nor `false`.
    NotABool {
        /// The option's name.
        option: &'static str,
        /// The value given.
        value: String,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown { name } => {
                let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                write!(f, "unknown option '{name}' (options: {})", names.join(", "))
            }
            OptionError::NotANumber {
                option,
                value,
                min,
                max,
                unit,
            } => write!(
                f,
                "option {option}: '{value}' is not a whole number ({min} to {max}{unit})"
            ),
            OptionError::OutOfRange {
                option,
                value,
                min,
                max,
            } => write!(f, "option {option}: {value} is outside {min}..={max}"),
            OptionError::NotAChoice {
                option,
                value,
                choices,
            } => write!(
                f,
                "option {option}: '{value}' is not one of {}",
                choices.join(", ")
            ),
            OptionError::TooLong { option, bytes } => write!(
                f,
                "option {option}: the value is {bytes} bytes, at most {MAX_TEXT}"
            ),
            OptionError::NotABool { option, value } => {
                write!(f, "option {option}: '{value}' is not true or false")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A `Text` value as given: `<empty>` is the empty text.
fn text_value(value: &str) -> String {
    if value == EVAL_FILE_DEFAULT {
        String::new()
    } else {
        value.to_string()
    }
}

/// The option called `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static Spec> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The `option …` lines of the `ugi` answer.
pub fn declarations() -> Vec<OptionLine> {
    OPTIONS.iter().map(Spec::declaration).collect()
}

/// Checks `setoption name <name> value <value>` against the table: the
/// option and its checked value, or an error naming every option when the
/// name is unknown.
pub fn check(name: &str, value: &str) -> Result<(&'static Spec, Value), OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown {
        name: name.to_string(),
    })?;
    Ok((spec, spec.parse(value)?))
}

/// One value per option, each checked by its row of [`OPTIONS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values(Vec<Value>);

impl Default for Values {
    fn default() -> Self {
        Values(OPTIONS.iter().map(Spec::default_value).collect())
    }
}

impl Values {
    /// Sets an option by name (case-insensitive) after checking the value;
    /// on an error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Id, OptionError> {
        let (spec, v) = check(name, value)?;
        self.0[spec.id as usize] = v;
        Ok(spec.id)
    }

    /// Stores an already checked value (for an option whose effect must
    /// succeed first, such as loading a file).
    pub fn store(&mut self, id: Id, value: Value) {
        self.0[id as usize] = value;
    }

    /// A `Spin` option's value (0 if `id` is not a spin).
    pub fn spin(&self, id: Id) -> u64 {
        match self.0[id as usize] {
            Value::Spin(v) => v,
            _ => 0,
        }
    }

    /// A `Combo` option's value as spelt in the table ("" if not a combo).
    pub fn combo(&self, id: Id) -> &'static str {
        match self.0[id as usize] {
            Value::Combo(v) => v,
            _ => "",
        }
    }

    /// A `Check` option's value (false if not a check).
    pub fn check(&self, id: Id) -> bool {
        matches!(self.0[id as usize], Value::Check(true))
    }

    /// A `Text` option's value ("" if not a text).
    pub fn text(&self, id: Id) -> &str {
        match &self.0[id as usize] {
            Value::Text(v) => v,
            _ => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_id_order_and_defaults_pass_their_own_checks() {
        for (i, o) in OPTIONS.iter().enumerate() {
            assert_eq!(o.id as usize, i, "{}", o.name);
            assert_eq!(Spec::of(o.id), o);
            let shown = match o.kind {
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Combo { default, .. } => default.to_string(),
                Kind::Text { default } => default.to_string(),
                Kind::Check { default } => default.to_string(),
            };
            assert_eq!(o.parse(&shown), Ok(o.default_value()), "{}", o.name);
        }
    }

    #[test]
    fn values_are_checked_by_the_table() {
        let mut v = Values::default();
        assert_eq!(v.set("hash", "16"), Ok(Id::Hash));
        assert_eq!(v.spin(Id::Hash), 16);
        assert_eq!(v.set("ALGORITHM", "MaxN"), Ok(Id::Algorithm));
        assert_eq!(v.combo(Id::Algorithm), "maxn");
        v.set("Algorithm", "Paranoid").unwrap();
        assert_eq!(v.combo(Id::Algorithm), "alphabeta");
        let error = |v: &mut Values, name: &str, value: &str| v.set(name, value).unwrap_err();
        assert_eq!(
            error(&mut v, "Threads", "0"),
            OptionError::OutOfRange {
                option: "Threads",
                value: 0,
                min: 1,
                max: 256
            }
        );
        assert!(
            error(&mut v, "Threads", "0")
                .to_string()
                .contains("outside 1..=256")
        );
        assert!(
            error(&mut v, "Threads", "x")
                .to_string()
                .contains("whole number")
        );
        let unknown = error(&mut v, "Pondering", "1");
        assert_eq!(
            unknown,
            OptionError::Unknown {
                name: "Pondering".into()
            }
        );
        assert!(unknown.to_string().contains("EvalFile"));
        assert!(matches!(
            error(&mut v, "Algorithm", "minimax"),
            OptionError::NotAChoice { .. }
        ));
        assert!(matches!(
            error(&mut v, "UCI_ShowWinProb", "yes"),
            OptionError::NotABool { .. }
        ));
        assert_eq!(v.set("EvalFile", "my weights.txt"), Ok(Id::EvalFile));
        assert_eq!(v.text(Id::EvalFile), "my weights.txt");
        v.set("EvalFile", "<empty>").unwrap();
        assert_eq!(v.text(Id::EvalFile), "");
        assert!(matches!(
            error(&mut v, "EvalFile", &"x".repeat(MAX_TEXT + 1)),
            OptionError::TooLong { .. }
        ));
        assert_eq!(v.spin(Id::Hash), 16);
        let check = Spec {
            id: Id::Hash,
            name: "Flag",
            kind: Kind::Check { default: false },
        };
        assert_eq!(check.parse("TRUE"), Ok(Value::Check(true)));
        assert!(check.parse("yes").is_err());
        assert_eq!(
            check.declaration().to_string(),
            "option name Flag type check default false"
        );
    }
}
