//! Tournament participants: programs that speak the protocol, each run
//! through the protocol client ([`splut_play::client`]). A built-in
//! engine is this program itself started with the options that select its
//! algorithm; an external one is any command line.
//!
//! What is the tournament's own is here: time controls and the `go`
//! commands for them, the participants' settings and their checks, and
//! how a client's failure is classified as a forfeit.

use splut_engine::options::{self, Id, Kind, OPTIONS, Spec};
use splut_play::client::{Client, ClientError};
use splut_play::judge::Forfeit;
use splut_protocol::command::{Go, SeatClock};
use splut_rules::Seat;
use std::time::Duration;

/// How long a participant may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Milliseconds per turn.
    Movetime(u64),
    /// Nodes per turn.
    Nodes(u64),
    /// Depth (steps) per turn.
    Depth(u32),
    /// A clock: milliseconds for the game plus an increment per turn.
    Clock {
        /// Time for the game.
        time_ms: u64,
        /// Added after every turn.
        inc_ms: u64,
    },
}

impl TimeControl {
    /// Parses `movetime=100`, `nodes=5000`, `depth=6` or `clock=60+0.5`
    /// (seconds and increment in seconds; `60+0.5` alone also works).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (kind, value) = s.split_once('=').unwrap_or(("clock", s));
        let number = |v: &str, max: u64, unit: &str| {
            let n = v
                .parse::<u64>()
                .map_err(|_| format!("time control '{s}': '{v}' is not a whole number"))?;
            if n > max {
                return Err(format!("time control '{s}': at most {max}{unit}"));
            }
            Ok(n)
        };
        // Checked before converting, so a huge number is an error rather
        // than a saturated clock.
        let seconds = |v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("time control '{s}': '{v}' is not a number of seconds"))
                .and_then(|x| {
                    if x * 1000.0 > MAX_TIME_MS as f64 {
                        Err(format!(
                            "time control '{s}': at most {} s",
                            MAX_TIME_MS / 1000
                        ))
                    } else {
                        Ok((x * 1000.0).round() as u64)
                    }
                })
        };
        match kind {
            "movetime" => Ok(TimeControl::Movetime(
                number(value, MAX_TIME_MS, " ms (a day)")?.max(1),
            )),
            "nodes" => Ok(TimeControl::Nodes(
                number(value, MAX_NODES, " nodes")?.max(1),
            )),
            "depth" => {
                let d = number(value, MAX_DEPTH, " steps")?;
                if d == 0 {
                    return Err(format!("time control '{s}': the depth must be at least 1"));
                }
                Ok(TimeControl::Depth(d as u32))
            }
            "clock" => {
                let (t, i) = value.split_once('+').unwrap_or((value, "0"));
                let time_ms = seconds(t)?;
                if time_ms == 0 {
                    return Err(format!("time control '{s}': the clock needs some time"));
                }
                Ok(TimeControl::Clock {
                    time_ms,
                    inc_ms: seconds(i)?,
                })
            }
            _ => Err(format!(
                "time control '{s}': expected movetime=<ms>, nodes=<n>, depth=<steps> or clock=<s>+<inc s>"
            )),
        }
    }
}

/// Longest movetime, clock time or increment: a day, which keeps every
/// clock sum of a game far from overflowing.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Most nodes per turn (`nodes=`): a trillion, hours of search.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// Deepest `go depth` (`depth=`): the engine's deepest iteration, 100
/// steps (protocol.md, `go depth`).
pub const MAX_DEPTH: u64 = 100;

/// The built-in engine's default `Hash`, in MiB (protocol.md, options).
pub const BUILTIN_HASH_MIB: usize = match OPTIONS[Id::Hash as usize].kind {
    Kind::Spin { default, .. } => default as usize,
    _ => 64,
};

/// Checks a participant's `hash=`, `threads=`, `option.Hash=` or
/// `option.Threads=` setting (`word` as written) against the engine's
/// option table: the tournament sums tables and counts threads, so these
/// are bounded for any program. Other names pass here
/// ([`ParticipantSpec::check_options`] checks them for the built-in
/// engine).
pub fn check_resource_option(word: &str, name: &str, value: &str) -> Result<(), String> {
    match options::find(name) {
        Some(spec) if matches!(spec.id, Id::Hash | Id::Threads) => check_option(word, spec, value),
        _ => Ok(()),
    }
}

/// Checks one value against its row of the option table; a spin's error
/// gives its bounds.
fn check_option(word: &str, spec: &Spec, value: &str) -> Result<(), String> {
    spec.parse(value).map(|_| ()).map_err(|e| match spec.kind {
        Kind::Spin { min, max, unit, .. } => {
            format!("engine setting '{word}': expected {min} to {max}{unit}")
        }
        _ => format!("engine setting '{word}': {e}"),
    })
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Movetime(m) => write!(f, "movetime={m}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Clock { time_ms, inc_ms } => {
                write!(
                    f,
                    "clock={}+{}",
                    *time_ms as f64 / 1000.0,
                    *inc_ms as f64 / 1000.0
                )
            }
        }
    }
}

/// How to start a participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// This program with `Algorithm` set.
    Builtin {
        /// The `Algorithm` option value.
        algorithm: String,
    },
    /// Any program speaking the protocol.
    External {
        /// Program and arguments.
        command: Vec<String>,
    },
}

/// A participant as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParticipantSpec {
    /// Name in standings and records.
    pub name: String,
    /// What to run.
    pub program: Program,
    /// `setoption` name/value pairs sent after the handshake.
    pub options: Vec<(String, String)>,
    /// Time control.
    pub tc: TimeControl,
    /// How long it may take to answer when no clock or movetime says so:
    /// the handshake (`ugiok`, `readyok`) and a turn under `nodes` or
    /// `depth`. Missing it forfeits the game.
    pub timeout: Duration,
    /// Think on the other seats' time (`go ponder` on the turns its last
    /// line guessed, `ponderhit` when they come true).
    pub ponder: bool,
}

impl ParticipantSpec {
    /// Checks the `setoption` pairs of a built-in participant against the
    /// engine's option table (an unknown name or a bad value is an error:
    /// the engine would only answer it with an error line nobody reads).
    /// An external program's options are its own and pass.
    pub fn check_options(&self) -> Result<(), String> {
        if let Program::Builtin { .. } = self.program {
            for (name, value) in &self.options {
                let word = format!("option.{name}={value}");
                let spec = options::find(name).ok_or_else(|| {
                    let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                    format!(
                        "engine setting '{word}': this engine has no option '{name}' (options: {})",
                        names.join(", ")
                    )
                })?;
                check_option(&word, spec, value)?;
            }
        }
        Ok(())
    }
}

/// The default [`ParticipantSpec::timeout`]: a minute per answer, far
/// beyond any sensible node or depth limit, yet a hung engine costs a
/// minute, not the tournament.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// The longest [`ParticipantSpec::timeout`] that may be asked for: a day.
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// Starts a participant and does the handshake (`ugi` … `ugiok`, its
/// options, `isready` … `readyok`, waiting at most its timeout for each);
/// an option it refuses is [`ClientError::Refused`].
pub fn start(spec: &ParticipantSpec) -> Result<Client, ClientError> {
    let (mut client, options) = match &spec.program {
        Program::Builtin { algorithm } => {
            let exe = std::env::current_exe().map_err(|e| ClientError::Start {
                program: "this program".into(),
                why: e.to_string(),
            })?;
            let mut options = vec![("Algorithm".to_string(), algorithm.clone())];
            options.extend(spec.options.iter().cloned());
            (Client::spawn(&[exe])?, options)
        }
        Program::External { command } => (Client::spawn(command)?, spec.options.clone()),
    };
    client = client.with_timeout(spec.timeout);
    client.handshake(&options)?;
    Ok(client)
}

/// How a client's failure forfeits the game, in the records' words: a
/// program that did not answer in time timed out; anything else (it
/// exited, closed its pipes, could not start, refused an option) crashed.
pub fn forfeit(e: ClientError) -> Forfeit {
    match e {
        ClientError::NoCommand => Forfeit::Crashed("empty command".into()),
        ClientError::Start { program, why } => {
            Forfeit::Crashed(format!("cannot start {program}: {why}"))
        }
        ClientError::Write { why, .. } => Forfeit::Crashed(format!("cannot write: {why}")),
        ClientError::Closed { status } => {
            Forfeit::Crashed(status.map_or_else(|| "output closed".to_string(), |s| s.to_string()))
        }
        ClientError::Timeout { prefix, limit } => {
            Forfeit::TimedOut(format!("no '{prefix}' within {} ms", limit.as_millis()))
        }
        ClientError::Refused(line) => Forfeit::Crashed(format!("it refused an option: {line}")),
        ClientError::Garbled(what) => Forfeit::Crashed(what),
    }
}

/// A seat's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The seat.
    pub seat: Seat,
    /// Milliseconds left.
    pub left_ms: u64,
    /// Milliseconds added after each of its turns.
    pub inc_ms: u64,
}

/// The `go` command for a time control: the clocks of every seat that has
/// one, and for 2 players also as UGI's p1/p2 (`p1` is the first mover).
pub fn go_command(tc: TimeControl, clocks: &[Clock], p1: Seat) -> Go {
    match tc {
        TimeControl::Movetime(m) => Go::movetime(m),
        TimeControl::Nodes(n) => Go::nodes(n),
        TimeControl::Depth(d) => Go::depth(u64::from(d)),
        TimeControl::Clock { .. } => {
            let mut go = Go::default();
            for c in clocks {
                go.seats[c.seat.index()] = SeatClock::new(c.left_ms, c.inc_ms);
            }
            // Plain UGI engines only know p1/p2 clocks (2 players).
            if let [a, b] = clocks {
                let (p1c, p2c) = if a.seat == p1 { (a, b) } else { (b, a) };
                go.players = [
                    SeatClock::new(p1c.left_ms, p1c.inc_ms),
                    SeatClock::new(p2c.left_ms, p2c.inc_ms),
                ];
            }
            go
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        for (text, tc) in [
            ("movetime=100", TimeControl::Movetime(100)),
            ("nodes=5000", TimeControl::Nodes(5000)),
            ("depth=6", TimeControl::Depth(6)),
            (
                "clock=60+0.5",
                TimeControl::Clock {
                    time_ms: 60_000,
                    inc_ms: 500,
                },
            ),
            (
                "10+0.1",
                TimeControl::Clock {
                    time_ms: 10_000,
                    inc_ms: 100,
                },
            ),
            (
                "clock=5",
                TimeControl::Clock {
                    time_ms: 5_000,
                    inc_ms: 0,
                },
            ),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(tc), "{text}");
        }
        assert_eq!(
            TimeControl::Clock {
                time_ms: 60_000,
                inc_ms: 500
            }
            .to_string(),
            "clock=60+0.5"
        );
        for bad in [
            "movetime=x",
            "speed=3",
            "clock=0",
            "clock=-1+0",
            "nodes=",
            "movetime=86400001",
            "nodes=1000000000001",
            "depth=0",
            "depth=101",
            "clock=1e300",
            "clock=60+86401",
            "clock=inf",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_options_are_checked_by_the_table() {
        assert_eq!(check_resource_option("hash=16", "Hash", "16"), Ok(()));
        assert_eq!(
            check_resource_option("hash=0", "Hash", "0"),
            Err("engine setting 'hash=0': expected 1 to 65536 MiB".into())
        );
        assert!(
            check_resource_option("option.threads=300", "threads", "300")
                .unwrap_err()
                .contains("expected 1 to 256 threads")
        );
        // Other names are the program's own business here.
        assert_eq!(check_resource_option("option.Foo=x", "Foo", "x"), Ok(()));
        let mut spec = ParticipantSpec {
            name: "a".into(),
            program: Program::Builtin {
                algorithm: "greedy".into(),
            },
            options: vec![("evalfile".into(), "w.txt".into())],
            tc: TimeControl::Depth(1),
            timeout: Duration::from_secs(1),
            ponder: false,
        };
        assert_eq!(spec.check_options(), Ok(()));
        spec.options.push(("MctsParallel".into(), "leaf".into()));
        assert!(spec.check_options().unwrap_err().contains(
            "'option.MctsParallel=leaf': option MctsParallel: 'leaf' is not one of tree, root"
        ));
        spec.options = vec![("Contempt".into(), "10".into())];
        assert!(
            spec.check_options()
                .unwrap_err()
                .contains("no option 'Contempt'")
        );
        spec.program = Program::External {
            command: vec!["other".into()],
        };
        assert_eq!(spec.check_options(), Ok(()));
    }
}
