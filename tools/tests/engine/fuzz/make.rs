//! What the fuzzer sends: valid commands built with the rules library
//! (legal steps, reachable positions, declared options), mutations of
//! them, and plain garbage; and how `protocol.md` says the engine reads a
//! line ([`read`], [`spec_expect`]), which predicts the answer to most
//! mutated lines too.

use super::check::p1_of;
use super::config::Config;
use super::rng::Rng;
use splut_rules::{MAX_TURN, Position, Seat};
use std::time::Duration;

/// An option as the engine's `ugi` answer declares it.
#[derive(Clone, Debug)]
pub enum OptionDecl {
    /// `type spin … min … max …`.
    Spin {
        /// Option name.
        name: String,
        /// Smallest value.
        min: i128,
        /// Largest value.
        max: i128,
    },
    /// `type combo … var …`.
    Combo {
        /// Option name.
        name: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// `type check`: `true` or `false`.
    Check {
        /// Option name.
        name: String,
    },
    /// Any other type: only its name is used.
    Other {
        /// Option name.
        name: String,
    },
}

/// Parses an `option name … type …` line.
pub fn parse_option(line: &str) -> Option<OptionDecl> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let ty = words.iter().position(|&w| w == "type")?;
    let name = words[2..ty].join(" ");
    let after = |key: &str| {
        words[ty..]
            .iter()
            .position(|&w| w == key)
            .and_then(|i| words.get(ty + i + 1))
    };
    Some(match words.get(ty + 1).copied() {
        Some("spin") => OptionDecl::Spin {
            name,
            min: after("min")?.parse().ok()?,
            max: after("max")?.parse().ok()?,
        },
        Some("combo") => OptionDecl::Combo {
            name,
            vars: words
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect(),
        },
        Some("check") => OptionDecl::Check { name },
        _ => OptionDecl::Other { name },
    })
}

/// Whether an answer is required to be an error, required not to be, or
/// either.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Expect {
    /// Must be accepted (unless refused because a search runs).
    Ok,
    /// Must be refused with an error.
    Err,
    /// Either.
    Any,
}

/// The limits of a `go`, as far as the fuzzer relies on them.
#[derive(Clone, Debug)]
pub struct GoSpec {
    /// The longest the search may take before `bestmove` (margin
    /// included); `None`: it only ends on `stop` (or after hours).
    pub bound: Option<Duration>,
    /// `go infinite`, with or without other limits: no answer before
    /// `stop`.
    pub infinite: bool,
}

/// What a line is, for checking its answer.
#[derive(Clone, Debug)]
pub enum Kind {
    /// `ugi` or `uci`; the word that must end the answer.
    Ugi(&'static str),
    /// A valid `position`: the SPN it must lead to and the referee's p1
    /// after it.
    Position(String, Seat),
    /// `go`.
    Go(GoSpec),
    /// `stop`.
    Stop,
    /// `query <what>`.
    Query(String),
    /// `perft <depth>`.
    Perft(u32),
    /// `d`.
    Display,
    /// Anything else.
    Other,
}

/// One line to send (without its `\n`) and what it is.
#[derive(Clone, Debug)]
pub struct Action {
    /// The bytes of the line.
    pub line: Vec<u8>,
    /// What it is (for mutated lines: what [`spec_kind`] makes of it).
    pub kind: Kind,
    /// Whether an error is expected.
    pub expect: Expect,
    /// Whether the line was mutated or is garbage: what the generator meant
    /// does not hold, only what [`spec_expect`] predicts.
    pub mutated: bool,
}

impl Action {
    fn valid(line: String, kind: Kind, expect: Expect) -> Action {
        Action {
            line: line.into_bytes(),
            kind,
            expect,
            mutated: false,
        }
    }
}

// ----- how the engine reads a line (protocol.md) -----

/// Longest input line, bytes without the newline (`protocol.md`, "Bounds").
pub const MAX_LINE: usize = 1 << 20;
/// Every command `protocol.md` lists.
pub const COMMANDS: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "uginewgame",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "query",
    "d",
    "perft",
    "quit",
];
/// Commands refused while a search or a perft runs.
pub const NEEDS_IDLE: &[&str] = &[
    "position",
    "go",
    "setoption",
    "uginewgame",
    "ucinewgame",
    "perft",
];
/// The questions `query` answers.
pub const QUESTIONS: &[&str] = &[
    "p1turn", "gameover", "result", "turn", "winner", "steps", "legal", "spn", "fen",
];
/// Deepest `perft` (`protocol.md`: 0–12).
pub const PERFT_MAX: u64 = 12;
/// Deepest `perft` the WebAssembly engine must end on its own: Node is
/// slower, and a deeper one (sent as often as to the native engine) is
/// ended by `stop`, which the engine reads between its 50 ms slices.
pub const WASM_PERFT_BOUNDED: u32 = 4;
/// Largest time in a `go`, ms (10^12).
pub const MAX_MS: u64 = 1_000_000_000_000;

/// A line as `protocol.md` says the engine reads it.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// Over [`MAX_LINE`] bytes: one error, ignored.
    TooLong,
    /// Holds a control character other than space and tab (a single
    /// trailing `\r` aside): one error, ignored.
    Control,
    /// Its words, split on runs of spaces and tabs only.
    Words(Vec<String>),
}

/// Reads a line (without its `\n`) the way `protocol.md` describes.
pub fn read(line: &[u8]) -> Read {
    if line.len() > MAX_LINE {
        return Read::TooLong;
    }
    let body = line.strip_suffix(b"\r").unwrap_or(line);
    let text = String::from_utf8_lossy(body);
    if text.chars().any(|c| c.is_control() && c != '\t') {
        return Read::Control;
    }
    Read::Words(
        text.split([' ', '\t'])
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect(),
    )
}

/// The line's words, if the engine gets as far as splitting it.
pub fn words(line: &[u8]) -> Option<Vec<String>> {
    match read(line) {
        Read::Words(w) => Some(w),
        _ => None,
    }
}

/// The command word of a line the engine splits into words.
pub fn command(line: &[u8]) -> Option<String> {
    words(line).and_then(|w| w.into_iter().next())
}

/// Whether the line is exactly `cmd` with no other word.
pub fn bare(line: &[u8], cmd: &str) -> bool {
    words(line).is_some_and(|w| w.len() == 1 && w[0] == cmd)
}

/// Whether the line is a `query` that must be answered.
pub fn valid_query(line: &[u8]) -> bool {
    words(line)
        .is_some_and(|w| w.len() == 2 && w[0] == "query" && QUESTIONS.contains(&w[1].as_str()))
}

/// The depth of a line that is `perft <digits>` with a depth the engine
/// takes.
pub fn perft_depth(line: &[u8]) -> Option<u32> {
    let w = words(line)?;
    match w.as_slice() {
        [p, d] if p == "perft" && !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => d
            .parse::<u64>()
            .ok()
            .filter(|&d| d <= PERFT_MAX)
            .map(|d| d as u32),
        _ => None,
    }
}

/// What `protocol.md` requires of the answer to any line: an error for
/// lines over 1 MiB, control characters, unknown commands, words a command
/// does not take, bad `query` and `perft` arguments; no error for the
/// argument-less commands sent bare and for blank lines. `go`,
/// `position` and `setoption` depend on their arguments: either.
pub fn spec_expect(line: &[u8]) -> Expect {
    let w = match read(line) {
        Read::TooLong | Read::Control => return Expect::Err,
        Read::Words(w) => w,
    };
    let Some((cmd, args)) = w.split_first() else {
        return Expect::Ok;
    };
    match cmd.as_str() {
        "setoption" | "position" | "go" => Expect::Any,
        "query" if valid_query(line) => Expect::Ok,
        "perft" if perft_depth(line).is_some() => Expect::Ok,
        // `+3` may or may not count as a number.
        "perft" if args.len() == 1 && args[0].starts_with('+') => Expect::Any,
        "query" | "perft" => Expect::Err,
        c if COMMANDS.contains(&c) && args.is_empty() => Expect::Ok,
        _ => Expect::Err,
    }
}

/// What a mutated line is, where `protocol.md` makes it certain.
pub fn spec_kind(line: &[u8]) -> Kind {
    let Some(w) = words(line) else {
        return Kind::Other;
    };
    match w.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["ugi"] => Kind::Ugi("ugiok"),
        ["uci"] => Kind::Ugi("uciok"),
        ["stop"] => Kind::Stop,
        ["d"] => Kind::Display,
        ["query", q] if QUESTIONS.contains(q) => Kind::Query(q.to_string()),
        ["perft", _] => perft_depth(line).map_or(Kind::Other, Kind::Perft),
        _ => Kind::Other,
    }
}

// ----- valid commands -----

/// Numbers that parsers choke on.
const NASTY_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "+1",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "1000000000000",
    "1000000000001",
    "1e30",
    "1.5",
    "0x10",
    "NaN",
    "",
];

/// Characters that look like spaces or hide, and are not a space or a
/// tab: the engine takes them as part of a word, or (the control ones:
/// NEL, VT, FF, CSI) refuses the line.
const ODD_CHARS: &[&str] = &[
    "\u{a0}", "\u{2003}", "\u{3000}", "\u{200b}", "\u{feff}", "\u{1680}", "\u{85}", "\u{2028}",
    "\u{b}", "\u{c}", "\u{9b}", "\u{202e}", "\u{2066}", "\u{61c}",
];

/// Bytes that are not UTF-8.
const BAD_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xc0\xaf",
    b"\xe2\x82",
];

/// Control bytes to slip into lines.
const CONTROL: &[u8] = &[0x00, 0x1b, b'\r', 0x7f, 0x01, 0x08, 0x07, 0x0b, 0x0c, b'\t'];

/// Plays up to `steps` random legal steps from `start` (fewer if the game
/// ends); returns their texts and the position reached. Play may go past
/// [`MAX_TURN`], which bounds only the turn number of an SPN given to the
/// engine.
pub fn random_play(rng: &mut Rng, start: Position, steps: usize) -> (Vec<String>, Position) {
    let mut p = start;
    let mut texts = Vec::new();
    for _ in 0..steps {
        let legal = p.legal_step_vec();
        if legal.is_empty() {
            break;
        }
        let s = *rng.pick(&legal);
        texts.push(s.to_string());
        p = p.after(s);
    }
    (texts, p)
}

/// The SPN of `spn` with every team but `keep`'s taken off the board: a
/// finished game.
fn only_one_team(spn: &str, keep: char) -> String {
    let mut fields: Vec<String> = spn.split_whitespace().map(String::from).collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut cells: Vec<String> = Vec::new();
            let mut chars = rank.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(n) = c.to_digit(10) {
                    cells.extend((0..n).map(|_| String::new()));
                } else if c == 'R' {
                    cells.push("R".into());
                } else {
                    let kind = chars.next().unwrap_or('S');
                    cells.push(if c == keep {
                        format!("{c}{kind}")
                    } else {
                        String::new()
                    });
                }
            }
            let mut out = String::new();
            let mut empty = 0;
            for c in cells {
                if c.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    fields[0] = ranks.join("/");
    fields[1] = keep.to_string();
    fields.join(" ")
}

/// Turn numbers past [`MAX_TURN`]: an SPN with one is refused (field 4).
const TOO_LATE: &[&str] = &[
    "1000000001",
    "2147483647",
    "2147483648",
    "4294967294",
    "4294967295",
    "4294967296",
    "10000000000",
    "18446744073709551616",
];

/// A start position for `position fen`: reached by random play, sometimes
/// with its turn number changed (to the last turns an SPN may give), or a
/// finished game; `Err` holds an SPN whose turn number is past
/// [`MAX_TURN`], which the engine must refuse.
fn fen_base(rng: &mut Rng) -> Result<Position, String> {
    let players = rng.range(2, 4) as usize;
    let start = Position::start(players).expect("start position");
    let n = rng.below(60);
    let (_, p) = random_play(rng, start, n);
    let spn = p.to_spn();
    let mut fields: Vec<String> = spn.split_whitespace().map(String::from).collect();
    match rng.below(12) {
        0 => {
            let turns = [3, 4, 100, 65_535, 1_000_000, MAX_TURN / 2];
            fields[3] = rng.pick(&turns).to_string();
        }
        1 | 2 => {
            fields[3] = rng
                .range(u64::from(MAX_TURN) - 10, u64::from(MAX_TURN))
                .to_string()
        }
        3 => {
            fields[3] = rng.pick(TOO_LATE).to_string();
            return Err(fields.join(" "));
        }
        4 if !p.is_game_over() => {
            let seats: Vec<char> = p.seats_in_game().map(|s| s.letter()).collect();
            return Ok(Position::from_spn(&only_one_team(&spn, *rng.pick(&seats))).unwrap_or(p));
        }
        _ => {}
    }
    // A changed turn number may not fit the rest (turn 1 has one step).
    Ok(Position::from_spn(&fields.join(" ")).unwrap_or(p))
}

/// A `position` command and, if the engine must take it, the SPN it leads
/// to and the referee's p1 after it (`None`: it must be refused).
pub fn position(rng: &mut Rng) -> (String, Option<(String, Seat)>) {
    let (mut line, base) = if rng.chance(50) {
        let players = rng.range(2, 4) as usize;
        let mut line = "position startpos".to_string();
        if players != 2 || rng.chance(30) {
            line.push_str(&format!(" players {players}"));
        }
        (line, Position::start(players).expect("start"))
    } else {
        let word = if rng.chance(80) { "fen" } else { "spn" };
        match fen_base(rng) {
            Ok(base) => (format!("position {word} {}", base.to_spn()), base),
            Err(spn) => {
                let mut line = format!("position {word} {spn}");
                if rng.chance(30) {
                    line.push_str(" moves");
                }
                return (line, None);
            }
        }
    };
    let n = match rng.below(10) {
        0 => 0,
        1 => rng.below(400),
        _ => rng.below(40),
    };
    // From the last turns an SPN may give, play often goes past them.
    let (steps, end) = random_play(rng, base, n);
    if !steps.is_empty() || rng.chance(10) {
        line.push_str(" moves");
        for s in &steps {
            line.push(' ');
            line.push_str(s);
        }
    }
    (line, Some((end.to_spn(), p1_of(&base))))
}

/// Bounds kept by the fuzzer: a limit above this many ms is no bound (the
/// fuzzer sends `stop` instead of waiting).
const LONGEST_BOUND_MS: u64 = 60_000;

/// A `go` command and the limits it sets; whether it must be refused
/// depends on the position (the clock rule) and is decided by
/// `check::go_expect`. With `burst`, only searches that end soon or on
/// `stop`.
pub fn go(rng: &mut Rng, cfg: &Config, burst: bool) -> Action {
    let mut parts: Vec<String> = Vec::new();
    // Per limit kind (depth, nodes, movetime, clocks), the longest it
    // allows, `u64::MAX` for no bound: whether the first or the last of a
    // repeated parameter wins is the engine's choice, and of the clocks
    // only the side to move's counts.
    let mut limits: [Option<u64>; 4] = [None; 4];
    let mut limit = |k: usize, ms: u64| limits[k] = Some(limits[k].map_or(ms, |x: u64| x.max(ms)));
    let mut infinite = false;
    let kinds = if burst { 1 } else { 1 + rng.below(3) };
    for _ in 0..kinds {
        match rng.weighted(&[25, 20, 25, 15, 8, 4, 5]) {
            0 => {
                let d = *rng.pick(&[1, 1, 2, 2, 3, 3, 4]);
                parts.push(format!("depth {d}"));
                limit(0, 10_000);
            }
            1 => {
                let n = *rng.pick(&[1u64, 2, 10, 100, 1000, 5000, 20_000]);
                parts.push(format!("nodes {n}"));
                limit(1, 10_000);
            }
            2 => {
                let ms = *rng.pick(&[0u64, 1, 5, 10, 50, 100, 300, 800]);
                parts.push(format!("movetime {ms}"));
                limit(2, ms + 1000);
            }
            3 => {
                let max_time = go_clocks(rng, &mut parts);
                limit(3, max_time / 3 + 1000);
            }
            4 if !burst => {
                // Increments only: no time for anyone, an error.
                let seat = *rng.pick(&["p1", "p2", "r", "y", "g", "b"]);
                parts.push(format!("{seat}inc {}", rng.range(1, 1000)));
            }
            5 => {
                // A ponder search waits like an infinite one: this fuzzer
                // ends both with `stop`, never with `ponderhit`.
                parts.push(if rng.chance(25) { "ponder" } else { "infinite" }.into());
                infinite = true;
            }
            6 if !burst => {
                let (k, p) = go_past_bounds(rng);
                parts.push(p.into());
                limit(k, u64::MAX);
            }
            _ => {}
        }
    }
    let bound = limits
        .iter()
        .flatten()
        .min()
        .copied()
        .filter(|&ms| ms <= LONGEST_BOUND_MS);
    if burst && bound.is_none() && !infinite {
        parts.push("infinite".into());
        infinite = true;
    }
    let bound = if infinite { None } else { bound };
    let line = if parts.is_empty() {
        "go".to_string()
    } else {
        format!("go {}", parts.join(" "))
    };
    let spec = GoSpec {
        bound: bound.map(|ms| cfg.margin(ms)),
        infinite,
    };
    Action::valid(line, Kind::Go(spec), Expect::Any)
}

/// The clock parameters of a `go` (UGI's p1/p2, every seat, or some
/// seats; now and then a time on the bound, 10^12 ms, or just past it),
/// pushed onto `parts`; the longest time given.
fn go_clocks(rng: &mut Rng, parts: &mut Vec<String>) -> u64 {
    let t = |rng: &mut Rng| {
        if rng.chance(4) {
            *rng.pick(&[MAX_MS, MAX_MS + 1])
        } else {
            *rng.pick(&[0u64, 1, 10, 100, 1000, 3000])
        }
    };
    let i = |rng: &mut Rng| *rng.pick(&[0u64, 1, 10, 100, 1000]);
    let mut max_time = 0;
    let names: Vec<&str> = match rng.below(3) {
        0 => vec!["p1", "p2"],
        1 => vec!["r", "y", "g", "b"],
        _ => {
            let all = ["p1", "p2", "r", "y", "g", "b"];
            (0..1 + rng.below(3)).map(|_| *rng.pick(&all)).collect()
        }
    };
    for n in names {
        let v = t(rng);
        max_time = max_time.max(v);
        parts.push(format!("{n}time {v}"));
        if rng.chance(40) {
            parts.push(format!("{n}inc {}", i(rng)));
        }
    }
    max_time
}

/// A `go` parameter with a number on or past its bound, and its limit
/// kind: errors, or searches that only `stop` ends (depth above 100 means
/// 100).
fn go_past_bounds(rng: &mut Rng) -> (usize, &'static str) {
    let all = [
        (0, "depth 0"),
        (1, "nodes 0"),
        (0, "depth 101"),
        (0, "depth 1000"),
        (0, "depth 18446744073709551615"),
        (0, "depth 18446744073709551616"),
        (1, "nodes 18446744073709551615"),
        (2, "movetime 1000000000000"),
        (2, "movetime 1000000000001"),
        (2, "movetime 18446744073709551616"),
    ];
    *rng.pick(&all)
}

/// Values for a spin option: in range, on the bounds, just outside, absurd.
fn spin_value(rng: &mut Rng, cfg: &Config, name: &str, min: i128, max: i128) -> (String, Expect) {
    let lname = name.to_ascii_lowercase();
    // A big table is mapped lazily, but searching it touches gigabytes: see
    // `Config::big_hash`.
    let cap = match lname.as_str() {
        "hash" if !cfg.big_hash || cfg.wasm.is_some() => cfg.hash_cap() as i128,
        _ => max,
    }
    .min(max);
    let in_range = |rng: &mut Rng| {
        let span = (cap - min).max(0) as u64;
        min + rng.range(0, span.min(u64::MAX - 1)) as i128
    };
    // A table the machine cannot hold is refused (protocol.md).
    let ok = |v: i128| {
        if lname == "hash" && v > cfg.hash_cap() as i128 {
            Expect::Any
        } else {
            Expect::Ok
        }
    };
    match rng.below(10) {
        0..=3 => {
            let v = in_range(rng);
            (v.to_string(), ok(v))
        }
        4 => (min.to_string(), ok(min)),
        5 => (cap.to_string(), ok(cap)),
        6 => ((max + 1).to_string(), Expect::Err),
        7 if min > 0 => ((min - 1).to_string(), Expect::Err),
        7 => ("-1".to_string(), Expect::Err),
        _ => {
            let v = *rng.pick(&[
                "18446744073709551616",
                "99999999999999999999",
                "1e30",
                "-1",
                "abc",
                "1.5",
                "0x10",
            ]);
            (v.to_string(), Expect::Err)
        }
    }
}

/// A `setoption` for one of the declared options (or a bad one).
pub fn setoption(rng: &mut Rng, cfg: &Config, decls: &[OptionDecl]) -> Action {
    if decls.is_empty() || rng.chance(8) {
        let line = *rng.pick(&[
            "setoption",
            "setoption name",
            "setoption name NoSuchOption value 1",
            "setoption name Hash",
            "setoption name Hash value",
            "setoption value 3",
            "setoption name value 3",
        ]);
        return Action::valid(line.into(), Kind::Other, Expect::Err);
    }
    let decl = rng.pick(decls).clone();
    let (name, value, expect) = match decl {
        OptionDecl::Spin { name, min, max } => {
            let (v, e) = spin_value(rng, cfg, &name, min, max);
            (name, v, e)
        }
        OptionDecl::Combo { name, vars } => {
            if vars.is_empty() || rng.chance(15) {
                let bad = *rng.pick(&["nosuchvalue", "alpha beta", "-", "0"]);
                (name, bad.to_string(), Expect::Err)
            } else {
                (name, rng.pick(&vars).clone(), Expect::Ok)
            }
        }
        OptionDecl::Check { name } => match rng.below(8) {
            0 => (name, "1".into(), Expect::Err),
            1..=4 => (name, "true".into(), Expect::Ok),
            _ => (name, "false".into(), Expect::Ok),
        },
        OptionDecl::Other { name } => (name, "1".into(), Expect::Any),
    };
    // Option names are case-insensitive.
    let name = match rng.below(6) {
        0 => name.to_ascii_lowercase(),
        1 => name.to_ascii_uppercase(),
        _ => name,
    };
    Action::valid(
        format!("setoption name {name} value {value}"),
        Kind::Other,
        expect,
    )
}

/// A `setoption` that makes every search after it another kind: an MCTS
/// algorithm, a skill level, or a limited strength.
pub fn search_style(rng: &mut Rng) -> Action {
    let line = match rng.below(4) {
        0 => "setoption name Algorithm value mcts".to_string(),
        1 => "setoption name Algorithm value uct-plain".to_string(),
        2 => format!("setoption name Skill Level value {}", rng.range(0, 19)),
        _ => "setoption name UCI_LimitStrength value true".to_string(),
    };
    Action::valid(line, Kind::Other, Expect::Ok)
}

/// A job for the end of input to catch running: a search that waits for
/// `stop` (answered at once at the end of input), and with `long` (the
/// 5 s that `protocol.md` allows the rest fit in the run) a search with no
/// limit or one on its bound, a timed one, or `perft 12`.
pub fn eof_job(rng: &mut Rng, cfg: &Config, long: bool) -> Action {
    let waits = [("go infinite", None), ("go ponder", None)];
    let more = [
        ("go", None),
        ("go depth 100", None),
        ("go nodes 18446744073709551615", None),
        ("go movetime 1000000000000", None),
        ("go movetime 300", Some(1300)),
        ("perft 12", None),
    ];
    let all: Vec<_> = if long {
        waits.iter().chain(&more).collect()
    } else {
        waits.iter().collect()
    };
    let &&(line, bound) = rng.pick(&all);
    let kind = if line == "perft 12" {
        Kind::Perft(12)
    } else {
        Kind::Go(GoSpec {
            bound: bound.map(|ms| cfg.margin(ms)),
            infinite: line == "go infinite" || line == "go ponder",
        })
    };
    Action::valid(line.to_string(), kind, Expect::Any)
}

/// A `query`, mostly valid.
pub fn query(rng: &mut Rng) -> Action {
    if rng.chance(10) {
        let bad = *rng.pick(&[
            "query",
            "query nothing",
            "query spn spn",
            "query spn fen",
            "query SPN",
        ]);
        return Action::valid(bad.into(), Kind::Other, Expect::Err);
    }
    let what = *rng.pick(QUESTIONS);
    Action::valid(
        format!("query {what}"),
        Kind::Query(what.into()),
        Expect::Ok,
    )
}

/// `perft`: mostly depth 0..=5 (its count checked), sometimes a deep one
/// that only `stop` ends in reasonable time, or a bad depth.
pub fn perft(rng: &mut Rng, cfg: &Config) -> Action {
    if rng.chance(15) {
        let bad = *rng.pick(&[
            "perft",
            "perft -1",
            "perft 13",
            "perft x",
            "perft 1 2",
            "perft 3 4",
            "perft 4294967296",
        ]);
        return Action::valid(bad.into(), Kind::Other, Expect::Err);
    }
    // The WebAssembly engine must end a perft up to depth
    // WASM_PERFT_BOUNDED on its own; deeper ones are stopped.
    let d = if rng.chance(15) {
        let from = if cfg.wasm.is_some() {
            u64::from(WASM_PERFT_BOUNDED) + 1
        } else {
            6
        };
        rng.range(from, PERFT_MAX) as u32
    } else if cfg.wasm.is_some() {
        rng.range(0, u64::from(WASM_PERFT_BOUNDED)) as u32
    } else {
        rng.below(6) as u32
    };
    Action::valid(format!("perft {d}"), Kind::Perft(d), Expect::Ok)
}

/// A command without arguments, or one given words it does not take
/// (an error, not carried out: `quit later` does not quit).
pub fn simple(rng: &mut Rng) -> Action {
    match rng.below(10) {
        0 => Action::valid("ugi".into(), Kind::Ugi("ugiok"), Expect::Ok),
        1 => Action::valid("uci".into(), Kind::Ugi("uciok"), Expect::Ok),
        2 | 3 => Action::valid("isready".into(), Kind::Other, Expect::Ok),
        4 => Action::valid("uginewgame".into(), Kind::Other, Expect::Ok),
        5 => Action::valid("ucinewgame".into(), Kind::Other, Expect::Ok),
        6 => Action::valid("d".into(), Kind::Display, Expect::Ok),
        7 => Action::valid("stop".into(), Kind::Stop, Expect::Ok),
        8 => {
            let bad = *rng.pick(&[
                "isready now",
                "quit later",
                "quit now please",
                "stop x",
                "stop stop",
                "d 3",
                "ugi x",
                "uci 1",
                "uginewgame x",
                "ucinewgame now",
            ]);
            Action::valid(bad.into(), Kind::Other, Expect::Err)
        }
        _ => {
            let bad = *rng.pick(&["xyzzy", "go!", "Go depth 1", "POSITION startpos", "quit!"]);
            Action::valid(bad.into(), Kind::Other, Expect::Err)
        }
    }
}

/// Applies one to three random mutations to a line.
pub fn mutate(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut words: Vec<Vec<u8>> = line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
    for _ in 0..1 + rng.below(3) {
        let n = words.len();
        let i = rng.below(n);
        match rng.below(12) {
            0 if n > 1 => {
                words.remove(i);
            }
            1 => {
                let w = words[i].clone();
                words.insert(i, w);
            }
            2 if n > 1 => {
                let j = rng.below(n);
                words.swap(i, j);
            }
            3 => {
                // Numbers become absurd.
                let nums: Vec<usize> = (0..n)
                    .filter(|&k| !words[k].is_empty() && words[k].iter().all(u8::is_ascii_digit))
                    .collect();
                let k = if nums.is_empty() { i } else { *rng.pick(&nums) };
                words[k] = rng.pick(NASTY_NUMBERS).as_bytes().to_vec();
            }
            4 if !words[i].is_empty() => {
                let at = rng.below(words[i].len());
                words[i][at] ^= 1 << rng.below(8);
            }
            5 => {
                let at = rng.below(words[i].len() + 1);
                words[i].insert(at, *rng.pick(CONTROL));
            }
            6 => {
                let at = rng.below(words[i].len() + 1);
                let bad = rng.pick(BAD_UTF8);
                words[i].splice(at..at, bad.iter().copied());
            }
            7 if i + 1 < n => {
                // Joined by an odd character instead of ' '.
                let next = words.remove(i + 1);
                words[i].extend_from_slice(rng.pick(ODD_CHARS).as_bytes());
                words[i].extend_from_slice(&next);
            }
            8 => words[i] = words[i].to_ascii_uppercase(),
            9 => words.truncate(i.max(1)),
            10 => words.push(
                rng.pick(&[&b"moves"[..], b"value", b"depth", b"xyz", b"now"])
                    .to_vec(),
            ),
            _ => words.insert(i, Vec::new()),
        }
    }
    let mut out = words.join(&b' ');
    // A `\n` would split the line in two.
    for b in &mut out {
        if *b == b'\n' {
            *b = b'~';
        }
    }
    out
}

/// Garbage: empty, blank, control bytes, invalid UTF-8, commands with
/// control or odd characters in them or before them (a byte-order mark),
/// lines on and over the 1 MiB bound.
pub fn garbage(rng: &mut Rng) -> Vec<u8> {
    match rng.below(16) {
        0 => Vec::new(),
        1 => b"   \t  ".to_vec(),
        2 => b"\r".to_vec(),
        3 => {
            let n = 1 + rng.below(40);
            (0..n)
                .map(|_| match rng.next_u64() as u8 {
                    b'\n' => b' ',
                    b => b,
                })
                .collect()
        }
        4 => rng.pick(BAD_UTF8).to_vec(),
        5 => b"\x1b[2J\x1b[31misready\x1b[0m".to_vec(),
        6 => rng.pick(ODD_CHARS).repeat(1 + rng.below(5)).into_bytes(),
        7 => {
            // A command, then a control or odd character, then more: the
            // whole line is refused (control) or one unknown word.
            let cmd = *rng.pick(&["isready", "quit", "stop", "query spn", "d", "ugi"]);
            let mut line = cmd.as_bytes().to_vec();
            if rng.chance(50) {
                line.push(*rng.pick(CONTROL));
            } else {
                line.extend_from_slice(rng.pick(ODD_CHARS).as_bytes());
            }
            if rng.chance(50) {
                let tail = *rng.pick(&["query spn", "quit", "isready", ""]);
                line.extend_from_slice(tail.as_bytes());
            }
            line
        }
        8 | 9 => bound_line(rng),
        10 => {
            // A command after a byte-order mark (as an editor saves a
            // file) or another odd character: one unknown word, or a
            // control character's error.
            let cmd = *rng.pick(&["isready", "quit", "stop", "query spn", "d", "ugi"]);
            let odd = if rng.chance(50) {
                "\u{feff}"
            } else {
                rng.pick(ODD_CHARS)
            };
            format!("{odd}{cmd}").into_bytes()
        }
        _ => long_line(rng),
    }
}

/// A command padded with spaces and tabs to just under, at or just over
/// [`MAX_LINE`] bytes: up to the bound it is carried out, past it refused
/// whole (an `isready` one byte too long gives no `readyok`, a `quit` does
/// not quit).
pub fn bound_line(rng: &mut Rng) -> Vec<u8> {
    let cmd = *rng.pick(&["isready", "query spn", "quit", "stop", "d"]);
    let size = MAX_LINE - 1 + rng.below(3);
    let mut line = cmd.as_bytes().to_vec();
    let pad = if rng.chance(50) { b' ' } else { b'\t' };
    line.resize(size, pad);
    line
}

/// A line of 100 KB to a few MB.
pub fn long_line(rng: &mut Rng) -> Vec<u8> {
    let size = if rng.chance(10) {
        rng.range(1 << 20, 4 << 20)
    } else {
        rng.range(100_000, 400_000)
    } as usize;
    let (head, unit): (&[u8], &[u8]) = match rng.below(8) {
        0 => (b"position startpos moves ", b"e2e3 "),
        1 => (b"go ", b"depth 1 "),
        2 => (b"setoption name Hash value ", b"9"),
        3 => (b"query ", b"x"),
        4 => (b"", b"A"),
        5 => (b"position fen ", b"R/"),
        6 => (b"isready ", b"\x1b"),
        _ => (b"isready ", "\u{a0}".as_bytes()),
    };
    let mut line = head.to_vec();
    while line.len() < size {
        line.extend_from_slice(unit);
    }
    line
}

/// The first word of a line under each way an engine might split it:
/// `protocol.md`'s (spaces and tabs), Unicode whitespace after a lossy
/// UTF-8 decoding, and with control characters dropped. Used where a wrong
/// guess would cost more than a missed check: whether a line may start a
/// search or a perft.
pub fn first_words(line: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(line);
    let unicode = text.split_whitespace().next();
    let ascii = text.split([' ', '\t']).find(|w| !w.is_empty());
    let clean: String = text
        .chars()
        .filter(|&c| (c.is_whitespace() || !c.is_control()) && c != '\u{fffd}')
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| !c.is_whitespace())
        .collect();
    [unicode, ascii, Some(clean.as_str())]
        .into_iter()
        .flatten()
        .map(String::from)
        .collect()
}

/// Whether any splitting makes `word` the line's command. A line over
/// [`MAX_LINE`] is never read, so it is nothing.
pub fn maybe_command(line: &[u8], word: &str) -> bool {
    line.len() <= MAX_LINE && first_words(line).iter().any(|w| w == word)
}

/// The largest `Hash` that `protocol.md` allows: values above are refused
/// before anything is allocated, so they are safe to send.
const HASH_MAX: u64 = 65_536;

/// Lines the fuzzer must not send: a bare `quit` (the session would end;
/// `quit later` is fine, and sent), a table beyond [`Config::hash_cap`]
/// unless [`Config::big_hash`], and to the WebAssembly engine the lines of
/// [`wasm_unsafe`].
pub fn is_unsafe(line: &[u8], cfg: &Config) -> bool {
    if bare(line, "quit") {
        return true;
    }
    if cfg.wasm.is_some() && wasm_unsafe(line) {
        return true;
    }
    let big_hash = cfg.big_hash && cfg.wasm.is_none();
    if big_hash || !maybe_command(line, "setoption") {
        return false;
    }
    let cap = cfg.hash_cap();
    let text = String::from_utf8_lossy(line);
    let hash = text.to_ascii_lowercase().contains("hash");
    let big = text
        .split(|c: char| !c.is_ascii_digit() && c != '+')
        .any(|w| w.parse::<u64>().is_ok_and(|v| v > cap && v <= HASH_MAX));
    hash && big
}

/// Lines not sent to the WebAssembly engine: `Threads`, since a native
/// search on several threads is not the same twice, and the answers are
/// compared with the native engine's. (Every search and perft of the
/// WebAssembly engine runs in 50 ms slices and reads `stop`, `isready`,
/// `query` and `ponderhit` between them, so MCTS, skill levels, deep
/// perfts and searches without limits are all sent.)
pub fn wasm_unsafe(line: &[u8]) -> bool {
    line.len() <= MAX_LINE
        && maybe_command(line, "setoption")
        && String::from_utf8_lossy(line)
            .to_lowercase()
            .contains("threads")
}

/// The options that make a search differ between hosts or runs: an MCTS
/// algorithm (its playouts, the tree kept between slices), a `Skill
/// Level` below 20, `UCI_LimitStrength` on (a weakened turn is drawn).
/// Searches under them are checked for legality only, not compared line
/// for line with the native twin's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Varied {
    /// `Algorithm` is `mcts` or `uct-plain`.
    pub mcts: bool,
    /// `Skill Level` is below 20.
    pub skill: bool,
    /// `UCI_LimitStrength` is on.
    pub strength: bool,
}

impl Varied {
    /// Whether a search now may differ from the native twin's.
    pub fn any(self) -> bool {
        self.mcts || self.skill || self.strength
    }

    /// The state after a `setoption` line the engine took (no error):
    /// exact for `setoption name <name> value <value>`, and for any other
    /// line that names one of these options (a mutated one) the worst
    /// case.
    pub fn after(self, line: &[u8]) -> Varied {
        let Some(w) = words(line) else {
            return self;
        };
        if w.first().map(String::as_str) != Some("setoption") {
            return self;
        }
        let lower: Vec<String> = w.iter().map(|x| x.to_ascii_lowercase()).collect();
        let value_at = lower.iter().position(|x| x == "value");
        let mut v = self;
        if lower.get(1).map(String::as_str) == Some("name")
            && let Some(at) = value_at
            && at + 2 == lower.len()
        {
            let value = lower[at + 1].as_str();
            match lower[2..at].join(" ").as_str() {
                "algorithm" => v.mcts = matches!(value, "mcts" | "uct-plain"),
                "skill level" => v.skill = value != "20",
                "uci_limitstrength" => v.strength = value == "true",
                _ => {}
            }
            return v;
        }
        let text = lower.join(" ");
        if text.contains("algorithm") {
            v.mcts = true;
        }
        if text.contains("skill") {
            v.skill = true;
        }
        if text.contains("limitstrength") {
            v.strength = true;
        }
        v
    }
}

/// Whether a line is a search the same on every engine: `go` limited by
/// depth or nodes only (no clock, not `infinite` or `ponder`).
pub fn fixed_search(line: &[u8]) -> bool {
    let Some(w) = words(line) else {
        return false;
    };
    let Some((cmd, args)) = w.split_first() else {
        return false;
    };
    cmd == "go"
        && !args
            .iter()
            .any(|a| a.ends_with("time") || a.ends_with("inc") || a == "infinite" || a == "ponder")
        && args.iter().any(|a| a == "depth" || a == "nodes")
}
