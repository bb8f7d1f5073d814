//! What the fuzzer sends: valid commands built with the rules library
//! (legal steps, reachable positions, declared options), mutations of
//! them, and plain garbage.

use super::config::{Config, HASH_CAP, HUGE_TURN, THREADS_CAP};
use super::rng::Rng;
use splut::game::Position;
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
    /// included); `None`: it only ends on `stop`.
    pub bound: Option<Duration>,
    /// `go infinite` without depth, nodes or movetime.
    pub infinite_pure: bool,
}

/// What a line is, for checking its answer.
#[derive(Clone, Debug)]
pub enum Kind {
    /// `ugi` or `uci`; the word that must end the answer.
    Ugi(&'static str),
    /// A valid `position`; the SPN it must lead to.
    Position(String),
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
    /// What it is (for mutated lines: what it was made from).
    pub kind: Kind,
    /// Whether an error is expected.
    pub expect: Expect,
    /// Whether the line was mutated or is garbage: its meaning is unknown.
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
    "1e30",
    "1.5",
    "0x10",
    "NaN",
    "",
];

/// Whitespace-like characters that are not a space or a tab.
const ODD_SPACES: &[&str] = &[
    "\u{a0}", "\u{2003}", "\u{3000}", "\u{200b}", "\u{feff}", "\u{1680}", "\u{85}", "\u{2028}",
    "\u{b}", "\u{c}",
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
/// ends); returns their texts and the position reached.
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

/// A start position for `position fen`: reached by random play, sometimes
/// with its turn number changed, sometimes a finished game.
fn fen_base(rng: &mut Rng, cfg: &Config) -> Position {
    let players = rng.range(2, 4) as usize;
    let start = Position::start(players).expect("start position");
    let n = rng.below(60);
    let (_, p) = random_play(rng, start, n);
    let spn = p.to_spn();
    let mut fields: Vec<String> = spn.split_whitespace().map(String::from).collect();
    match rng.below(10) {
        0 | 1 => {
            let mut turns = vec![
                3,
                4,
                100,
                65_535,
                1_000_000,
                i32::MAX as u32,
                1u32 << 31,
                HUGE_TURN - 1,
            ];
            if cfg.huge_turns {
                turns.extend([u32::MAX, u32::MAX - 1, u32::MAX - 2, HUGE_TURN]);
            }
            fields[3] = rng.pick(&turns).to_string();
        }
        2 if !p.is_game_over() => {
            let seats: Vec<char> = p.seats_in_game().map(|s| s.letter()).collect();
            return Position::from_spn(&only_one_team(&spn, *rng.pick(&seats))).unwrap_or(p);
        }
        _ => {}
    }
    Position::from_spn(&fields.join(" ")).unwrap_or(p)
}

/// A valid `position` command and the SPN it leads to.
pub fn position(rng: &mut Rng, cfg: &Config) -> (String, String) {
    let (mut line, base) = if rng.chance(50) {
        let players = rng.range(2, 4) as usize;
        let mut line = "position startpos".to_string();
        if players != 2 || rng.chance(30) {
            line.push_str(&format!(" players {players}"));
        }
        (line, Position::start(players).expect("start"))
    } else {
        let base = fen_base(rng, cfg);
        let word = if rng.chance(80) { "fen" } else { "spn" };
        (format!("position {word} {}", base.to_spn()), base)
    };
    let n = match rng.below(10) {
        0 => 0,
        1 => rng.below(400),
        _ => rng.below(40),
    };
    let (steps, end) = random_play(rng, base, n);
    if !steps.is_empty() || rng.chance(10) {
        line.push_str(" moves");
        for s in &steps {
            line.push(' ');
            line.push_str(s);
        }
    }
    (line, end.to_spn())
}

/// A `go` command. `players` is how many seats the position has (for
/// per-seat clocks); with `burst`, only searches that end soon or on `stop`.
pub fn go(rng: &mut Rng, cfg: &Config, burst: bool) -> Action {
    let mut parts: Vec<String> = Vec::new();
    // Per limit kind, the longest it allows: whether the first or the last
    // of a repeated parameter wins is the engine's choice.
    let mut limits: [Option<u64>; 4] = [None; 4];
    let mut limit = |k: usize, b: u64| limits[k] = Some(limits[k].map_or(b, |x: u64| x.max(b)));
    let (mut infinite, mut may_error, mut fixed) = (false, false, false);
    let mut times_sent = false;
    let mut incs_sent = false;
    let kinds = if burst { 1 } else { 1 + rng.below(3) };
    for _ in 0..kinds {
        match rng.weighted(&[25, 20, 25, 15, 8, 4, 3]) {
            0 => {
                let d = *rng.pick(&[1, 1, 2, 2, 3, 3, 4]);
                parts.push(format!("depth {d}"));
                limit(0, 10_000);
                fixed = true;
            }
            1 => {
                let n = *rng.pick(&[1u64, 2, 10, 100, 1000, 5000, 20_000]);
                parts.push(format!("nodes {n}"));
                limit(0, 10_000);
                fixed = true;
            }
            2 => {
                let ms = *rng.pick(&[0u64, 1, 5, 10, 50, 100, 300, 800]);
                parts.push(format!("movetime {ms}"));
                limit(1, ms + 1000);
                fixed = true;
            }
            3 => {
                // Clocks: UGI's p1/p2, every seat, or some seats.
                let t = |rng: &mut Rng| *rng.pick(&[0u64, 1, 10, 100, 1000, 3000]);
                let i = |rng: &mut Rng| *rng.pick(&[0u64, 1, 10, 100, 1000]);
                let mut max_time = 0;
                let names: Vec<&str> = match rng.below(3) {
                    0 => vec!["p1", "p2"],
                    1 => vec!["r", "y", "g", "b"],
                    _ => {
                        may_error = true;
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
                times_sent = true;
                limit(2, max_time / 3 + 1000);
            }
            4 if !burst => {
                // Increments only: no time for anyone.
                let seat = *rng.pick(&["p1", "p2", "r", "y", "g", "b"]);
                parts.push(format!("{seat}inc {}", rng.range(1, 1000)));
                incs_sent = true;
            }
            5 => {
                parts.push("infinite".into());
                infinite = true;
            }
            _ => {}
        }
    }
    if incs_sent && !times_sent && !infinite && cfg.inc_only_bounded {
        // Fixed engines either refuse it or give it a bounded search.
        limit(3, 10_000);
        may_error = true;
    }
    let bound = limits.iter().flatten().min().copied();
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
        infinite_pure: infinite && !fixed,
    };
    let expect = if may_error { Expect::Any } else { Expect::Ok };
    Action::valid(line, Kind::Go(spec), expect)
}

/// Values for a spin option: in range, on the bounds, just outside, absurd.
fn spin_value(rng: &mut Rng, cfg: &Config, name: &str, min: i128, max: i128) -> (String, Expect) {
    let lname = name.to_ascii_lowercase();
    // Caps keep the machine usable; see `Config::big_hash`/`many_threads`.
    let cap = match lname.as_str() {
        "hash" if !cfg.big_hash => HASH_CAP as i128,
        "threads" if !cfg.many_threads => THREADS_CAP as i128,
        _ => max,
    }
    .min(max);
    let in_range = |rng: &mut Rng| {
        let span = (cap - min).max(0) as u64;
        min + rng.range(0, span.min(u64::MAX - 1)) as i128
    };
    // A table the machine cannot hold is refused (protocol.md).
    let ok = |v: i128| {
        if lname == "hash" && v > HASH_CAP as i128 {
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

/// A `query`, mostly valid.
pub fn query(rng: &mut Rng) -> Action {
    const WHAT: &[&str] = &[
        "p1turn", "gameover", "result", "turn", "winner", "steps", "legal", "spn", "fen",
    ];
    if rng.chance(10) {
        let bad = *rng.pick(&["query", "query nothing", "query spn spn", "query SPN"]);
        return Action::valid(bad.into(), Kind::Other, Expect::Err);
    }
    let what = *rng.pick(WHAT);
    Action::valid(
        format!("query {what}"),
        Kind::Query(what.into()),
        Expect::Ok,
    )
}

/// `perft`, depth 0..=3 (or a bad depth).
pub fn perft(rng: &mut Rng) -> Action {
    if rng.chance(15) {
        let bad = *rng.pick(&["perft", "perft -1", "perft 13", "perft x", "perft 1 2"]);
        return Action::valid(bad.into(), Kind::Other, Expect::Err);
    }
    let d = rng.below(4) as u32;
    Action::valid(format!("perft {d}"), Kind::Perft(d), Expect::Ok)
}

/// A command without arguments.
pub fn simple(rng: &mut Rng) -> Action {
    match rng.below(9) {
        0 => Action::valid("ugi".into(), Kind::Ugi("ugiok"), Expect::Ok),
        1 => Action::valid("uci".into(), Kind::Ugi("uciok"), Expect::Ok),
        2 | 3 => Action::valid("isready".into(), Kind::Other, Expect::Ok),
        4 => Action::valid("uginewgame".into(), Kind::Other, Expect::Ok),
        5 => Action::valid("ucinewgame".into(), Kind::Other, Expect::Ok),
        6 => Action::valid("d".into(), Kind::Display, Expect::Ok),
        7 => Action::valid("stop".into(), Kind::Stop, Expect::Ok),
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
                // Joined by an odd space instead of ' '.
                let next = words.remove(i + 1);
                words[i].extend_from_slice(rng.pick(ODD_SPACES).as_bytes());
                words[i].extend_from_slice(&next);
            }
            8 => words[i] = words[i].to_ascii_uppercase(),
            9 => words.truncate(i.max(1)),
            10 => words.push(
                rng.pick(&[&b"moves"[..], b"value", b"depth", b"xyz"])
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

/// Garbage: empty, blank, control bytes, invalid UTF-8, very long lines.
pub fn garbage(rng: &mut Rng) -> Vec<u8> {
    match rng.below(12) {
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
        6 => rng.pick(ODD_SPACES).repeat(1 + rng.below(5)).into_bytes(),
        7 => [b"isready".as_slice(), b"\0"].concat(),
        _ => long_line(rng),
    }
}

/// A line of 100 KB to a few MB.
pub fn long_line(rng: &mut Rng) -> Vec<u8> {
    let size = if rng.chance(10) {
        rng.range(1 << 20, 4 << 20)
    } else {
        rng.range(100_000, 400_000)
    } as usize;
    let (head, unit): (&[u8], &[u8]) = match rng.below(7) {
        0 => (b"position startpos moves ", b"e2e3 "),
        1 => (b"go ", b"depth 1 "),
        2 => (b"setoption name Hash value ", b"9"),
        3 => (b"query ", b"x"),
        4 => (b"", b"A"),
        5 => (b"position fen ", b"R/"),
        _ => (b"isready ", "\u{a0}".as_bytes()),
    };
    let mut line = head.to_vec();
    while line.len() < size {
        line.extend_from_slice(unit);
    }
    line
}

/// The first word of a line under each way an engine might split it: its
/// own (Unicode whitespace after a lossy UTF-8 decoding), spaces and tabs
/// only, and with control characters dropped.
pub fn tokenizations(line: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(line);
    let unicode: Vec<String> = text.split_whitespace().map(String::from).collect();
    let ascii: Vec<String> = text
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    let cleaned: String = text
        .chars()
        .filter(|&c| (c.is_whitespace() || !c.is_control()) && c != '\u{fffd}')
        .collect();
    let clean: Vec<String> = cleaned.split_whitespace().map(String::from).collect();
    vec![unicode, ascii, clean]
}

/// Whether any splitting makes `word` the line's command.
pub fn maybe_command(line: &[u8], word: &str) -> bool {
    tokenizations(line)
        .iter()
        .any(|t| t.first().map(String::as_str) == Some(word))
}

/// The largest `Hash` and `Threads` that `protocol.md` allows: values above
/// are refused before anything is allocated, so they are safe to send.
const HASH_MAX: u64 = 65_536;
const THREADS_MAX: u64 = 256;
/// `perft` depths above this are refused (`protocol.md`: 0–12).
const PERFT_MAX: u64 = 12;

/// Lines the fuzzer must not send: they would quit, run a long perft (which
/// blocks the input loop, so `isready` could not be answered), or size the
/// table or the thread pool beyond the caps.
pub fn is_unsafe(line: &[u8], cfg: &Config) -> bool {
    tokenizations(line).iter().any(|t| {
        let first = t.first().map(String::as_str).unwrap_or("");
        let number_in = |lo: u64, hi: u64| {
            t.iter()
                .skip(1)
                .any(|w| w.parse::<u64>().is_ok_and(|v| v > lo && v <= hi))
        };
        let mentions = |what: &str| t.iter().any(|w| w.to_ascii_lowercase().contains(what));
        match first {
            "quit" => true,
            "perft" => number_in(3, PERFT_MAX),
            "setoption" => {
                (mentions("hash") && !cfg.big_hash && number_in(HASH_CAP, HASH_MAX))
                    || (mentions("thread")
                        && !cfg.many_threads
                        && number_in(THREADS_CAP, THREADS_MAX))
            }
            _ => false,
        }
    })
}
