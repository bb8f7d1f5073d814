//! `go` and its limits.

use crate::input::echo;
use splut_rules::Seat;
use std::fmt;

/// Largest time in milliseconds `go` takes (about 31 years): anything
/// larger is refused rather than overflow an engine's time arithmetic.
pub const MAX_MS: u64 = 1_000_000_000_000;

/// A clock's two numbers in `go`, each given or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatClock {
    /// Its time left, ms (`<seat>time`, `p<n>time`).
    pub time: Option<u64>,
    /// Its increment, ms (`<seat>inc`, `p<n>inc`).
    pub inc: Option<u64>,
}

impl SeatClock {
    /// A clock with both numbers.
    pub fn new(time: u64, inc: u64) -> SeatClock {
        SeatClock {
            time: Some(time),
            inc: Some(inc),
        }
    }

    fn given(&self) -> bool {
        self.time.is_some() || self.inc.is_some()
    }
}

/// `go` with its limits (protocol.md, `go`). A parameter given twice
/// keeps its last value, as the engine always read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `ponder`: think on a guessed position until `ponderhit`.
    pub ponder: bool,
    /// `infinite`: answer only after `stop`.
    pub infinite: bool,
    /// `depth <n>`, 1 or more (an engine bounds it by its deepest
    /// iteration).
    pub depth: Option<u64>,
    /// `nodes <n>`, 1 or more.
    pub nodes: Option<u64>,
    /// `movetime <ms>`.
    pub movetime: Option<u64>,
    /// `rtime`/`rinc` … `btime`/`binc`: each seat's clock, by
    /// [`Seat::index`].
    pub seats: [SeatClock; 4],
    /// `p1time`/`p1inc` and `p2time`/`p2inc`: UGI's clocks of p1 and p2.
    pub players: [SeatClock; 2],
}

/// Why a `go` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommandError {
    /// A parameter without its value.
    MissingValue {
        /// The parameter.
        key: String,
    },
    /// A value that is not a whole number.
    NotANumber {
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
    },
    /// A time over [`MAX_MS`].
    TooLong {
        /// The parameter.
        key: String,
        /// The value given, ms.
        ms: u64,
    },
    /// `depth 0` or `nodes 0`.
    Zero {
        /// `depth` or `nodes`.
        key: &'static str,
    },
    /// A word `go` does not know.
    Unknown {
        /// The word.
        key: String,
    },
    /// Clock times or increments, but no time for the side to move.
    NoTimeForTheMover {
        /// The side to move.
        side: Seat,
        /// Its UGI number (1 for p1, 2 for the others).
        p: usize,
    },
}

impl fmt::Display for GoCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingValue { key } => write!(f, "go: '{}' needs a value", echo(key)),
            Self::NotANumber { key, value } => write!(
                f,
                "go: '{key}' needs a whole number 0..={}, found '{}'",
                u64::MAX,
                echo(value)
            ),
            Self::TooLong { key, ms } => {
                write!(f, "go: {key} {ms} is over the maximum {MAX_MS} ms")
            }
            Self::Zero { key } => write!(f, "go: {key} must be at least 1"),
            Self::Unknown { key } => write!(f, "go: unknown parameter '{}'", echo(key)),
            Self::NoTimeForTheMover { side, p } => write!(
                f,
                "go: clocks given, but no time for the side to move ({}: {}time, or p{p}time)",
                side.name(),
                side.letter(),
            ),
        }
    }
}

impl std::error::Error for GoCommandError {}

/// The seat a `go` parameter `<letter>time` (true) or `<letter>inc`
/// (false) is for.
fn seat_clock_key(key: &str) -> Option<(Seat, bool)> {
    let (letter, is_time) = key
        .strip_suffix("time")
        .map(|s| (s, true))
        .or_else(|| key.strip_suffix("inc").map(|s| (s, false)))?;
    let mut c = letter.chars();
    match (c.next().and_then(Seat::from_letter), c.next()) {
        (Some(seat), None) => Some((seat, is_time)),
        _ => None,
    }
}

/// The clock field a parameter names: a seat's or a player's, time or
/// increment.
fn clock_field<'a>(go: &'a mut Go, key: &str) -> Option<&'a mut Option<u64>> {
    let field = |c: &'a mut SeatClock, time: bool| if time { &mut c.time } else { &mut c.inc };
    match key {
        "p1time" => Some(field(&mut go.players[0], true)),
        "p2time" => Some(field(&mut go.players[1], true)),
        "p1inc" => Some(field(&mut go.players[0], false)),
        "p2inc" => Some(field(&mut go.players[1], false)),
        _ => {
            let (seat, time) = seat_clock_key(key)?;
            Some(field(&mut go.seats[seat.index()], time))
        }
    }
}

impl Go {
    /// `go movetime <ms>`.
    pub fn movetime(ms: u64) -> Go {
        Go {
            movetime: Some(ms),
            ..Go::default()
        }
    }

    /// `go nodes <n>`.
    pub fn nodes(n: u64) -> Go {
        Go {
            nodes: Some(n),
            ..Go::default()
        }
    }

    /// `go depth <n>`.
    pub fn depth(n: u64) -> Go {
        Go {
            depth: Some(n),
            ..Go::default()
        }
    }

    /// Parses the words after `go`.
    pub fn parse(words: &[&str]) -> Result<Go, GoCommandError> {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            match key {
                "ponder" => go.ponder = true,
                "infinite" => go.infinite = true,
                _ if !Go::knows(key) => {
                    return Err(GoCommandError::Unknown {
                        key: key.to_string(),
                    });
                }
                _ => {
                    let value = words
                        .get(i + 1)
                        .ok_or_else(|| GoCommandError::MissingValue {
                            key: key.to_string(),
                        })?;
                    go.set(key, value)?;
                    i += 1;
                }
            }
            i += 1;
        }
        Ok(go)
    }

    /// Whether `key` is a parameter with a value.
    fn knows(key: &str) -> bool {
        matches!(
            key,
            "depth" | "nodes" | "movetime" | "p1time" | "p2time" | "p1inc" | "p2inc"
        ) || seat_clock_key(key).is_some()
    }

    /// Sets parameter `key` (one [`Go::knows`]) to `value`.
    fn set(&mut self, key: &str, value: &str) -> Result<(), GoCommandError> {
        let v = value
            .parse::<u64>()
            .map_err(|_| GoCommandError::NotANumber {
                key: key.to_string(),
                value: value.to_string(),
            })?;
        match key {
            "depth" | "nodes" if v == 0 => {
                return Err(GoCommandError::Zero {
                    key: if key == "depth" { "depth" } else { "nodes" },
                });
            }
            "depth" => self.depth = Some(v),
            "nodes" => self.nodes = Some(v),
            // Milliseconds are bounded here so that no time arithmetic
            // can overflow.
            _ if v > MAX_MS => {
                return Err(GoCommandError::TooLong {
                    key: key.to_string(),
                    ms: v,
                });
            }
            "movetime" => self.movetime = Some(v),
            _ => {
                if let Some(field) = clock_field(self, key) {
                    *field = Some(v);
                }
            }
        }
        Ok(())
    }

    /// The clock of `side` to move in a game whose p1 is `p1`: its time
    /// and increment, its seat's words first, then UGI's p1/p2 (p2 being
    /// every seat but p1); `None` if no clock is given. Clocks given with
    /// no time for the side to move are an error (an increment alone
    /// gives no time: a search would run until `stop`).
    pub fn clock(&self, p1: Seat, side: Seat) -> Result<Option<(u64, u64)>, GoCommandError> {
        let mine = usize::from(side != p1);
        let seat = self.seats[side.index()];
        let player = self.players[mine];
        let time = seat.time.or(player.time);
        let inc = seat.inc.or(player.inc).unwrap_or(0);
        let some_clock = self.seats.iter().chain(&self.players).any(SeatClock::given);
        match time {
            Some(time) => Ok(Some((time, inc))),
            None if some_clock => Err(GoCommandError::NoTimeForTheMover { side, p: mine + 1 }),
            None => Ok(None),
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        let numbers = [
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        for seat in Seat::ALL {
            let c = self.seats[seat.index()];
            let l = seat.letter();
            if let Some(t) = c.time {
                write!(f, " {l}time {t}")?;
            }
            if let Some(i) = c.inc {
                write!(f, " {l}inc {i}")?;
            }
        }
        let [p1, p2] = self.players;
        let players = [
            ("p1time", p1.time),
            ("p2time", p2.time),
            ("p1inc", p1.inc),
            ("p2inc", p2.inc),
        ];
        for (word, n) in players {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        Ok(())
    }
}
