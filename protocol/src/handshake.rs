//! A fresh engine's handshake as a state machine with no I/O, for every
//! client: the match's blocking [`Client`](../../splut_play/client/index.html),
//! the board's session and analysis, and the hosts that ask an engine
//! what it offers. `ugi`, its answer up to `ugiok` (kept), the options
//! given, `setoption name UCI_ShowWinProb value true` if asked for and
//! offered, `isready` … `readyok`; an `info string error` line before
//! `readyok` (an option refused) fails it. The lines come in through
//! [`Handshake::line`] and the time through [`Handshake::overdue`]: the
//! machine says when it is late ([`Handshake::deadline`]), its owner
//! keeps the clock and does the reading and writing.

use crate::Command;
use crate::command::SetOption;
use crate::words::{Line, has_option};
use std::time::Duration;

/// The option that asks an engine for its win probabilities in its
/// `info` lines ([`Handshake::asking_win_probabilities`]).
pub const SHOW_WINPROB: &str = "UCI_ShowWinProb";

/// Where the handshake stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// `ugi` sent, its `ugiok` awaited.
    Ugi,
    /// `isready` sent, its `readyok` awaited.
    Ready,
    /// `readyok` came: the engine takes games.
    Done,
    /// It failed: why.
    Failed(String),
}

/// What a line did to the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// It waits for more lines.
    Waiting,
    /// The engine is ready (this line was its `readyok`).
    Done,
    /// The engine refused an option of the handshake: its message.
    Failed(String),
}

/// One engine's handshake.
#[derive(Clone, Debug)]
pub struct Handshake {
    stage: Stage,
    /// The answer to `ugi`, up to its `ugiok` (not included).
    lines: Vec<String>,
    /// When the line awaited was asked for.
    since: Duration,
    /// How long a line may take to come.
    limit: Duration,
    /// The options to set once `ugiok` came, in order.
    options: Vec<SetOption>,
    /// Whether to ask for win probabilities where the engine offers them.
    win_probabilities: bool,
    /// Commands for the engine, not yet taken.
    out: Vec<Command>,
}

impl Handshake {
    /// A handshake begun at `now` that waits at most `limit` for each of
    /// `ugiok` and `readyok`: its first command is `ugi`.
    pub fn new(now: Duration, limit: Duration) -> Handshake {
        Handshake {
            stage: Stage::Ugi,
            lines: Vec::new(),
            since: now,
            limit,
            options: Vec::new(),
            win_probabilities: false,
            out: vec![Command::Ugi],
        }
    }

    /// The same, setting `options` (in order) between `ugiok` and
    /// `isready`.
    pub fn with_options(mut self, options: impl IntoIterator<Item = SetOption>) -> Handshake {
        self.options.extend(options);
        self
    }

    /// The same, also setting [`SHOW_WINPROB`] if the engine offers it.
    pub fn asking_win_probabilities(mut self) -> Handshake {
        self.win_probabilities = true;
        self
    }

    /// The commands to send the engine now, in order.
    pub fn commands(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.out)
    }

    /// One line from the engine, at `now`.
    pub fn line(&mut self, line: &str, now: Duration) -> Progress {
        let parsed = Line::parse(line);
        match self.stage {
            Stage::Ugi if parsed == Ok(Line::UgiOk) => {
                self.out.extend(
                    std::mem::take(&mut self.options)
                        .into_iter()
                        .map(Command::from),
                );
                if self.win_probabilities && has_option(&self.lines, SHOW_WINPROB) {
                    self.out.push(SetOption::new(SHOW_WINPROB, "true").into());
                }
                self.out.push(Command::IsReady);
                self.stage = Stage::Ready;
                self.since = now;
            }
            Stage::Ugi => self.lines.push(line.to_string()),
            Stage::Ready => match parsed {
                Ok(Line::ReadyOk) => {
                    self.stage = Stage::Done;
                    return Progress::Done;
                }
                Ok(Line::InfoString(s)) if s.error_message().is_some() => {
                    let why = s.error_message().unwrap_or_default().to_string();
                    self.stage = Stage::Failed(why.clone());
                    return Progress::Failed(why);
                }
                _ => {}
            },
            Stage::Done => return Progress::Done,
            Stage::Failed(ref why) => return Progress::Failed(why.clone()),
        }
        Progress::Waiting
    }

    /// The line awaited (`ugiok` or `readyok`); `None` once done or failed.
    pub fn awaited(&self) -> Option<&'static str> {
        match self.stage {
            Stage::Ugi => Some("ugiok"),
            Stage::Ready => Some("readyok"),
            Stage::Done | Stage::Failed(_) => None,
        }
    }

    /// When the line awaited is late (the limit after it was asked for);
    /// `None` once done or failed, or if that is beyond any clock.
    pub fn deadline(&self) -> Option<Duration> {
        self.awaited()?;
        self.since.checked_add(self.limit)
    }

    /// Why the handshake failed by `now` (the line awaited is past its
    /// [`Handshake::deadline`]), if it did; it fails for good.
    pub fn overdue(&mut self, now: Duration) -> Option<String> {
        self.deadline().filter(|&d| now > d)?;
        let why = format!(
            "no {} within {} ms",
            self.awaited().unwrap_or_default(),
            self.limit.as_millis()
        );
        self.stage = Stage::Failed(why.clone());
        Some(why)
    }

    /// Whether the engine is ready.
    pub fn done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The engine's answer to `ugi` (its `id` and `option` lines), up to
    /// its `ugiok`.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_secs(10);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn sent(h: &mut Handshake) -> Vec<String> {
        h.commands().iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn ugi_then_the_options_then_the_win_probabilities_then_isready() {
        let mut h = Handshake::new(ms(5), LIMIT)
            .with_options([SetOption::new("Hash", "16"), SetOption::new("Seed", "3")])
            .asking_win_probabilities();
        assert_eq!(sent(&mut h), ["ugi"]);
        assert_eq!(h.deadline(), Some(ms(5) + LIMIT));
        assert_eq!(h.awaited(), Some("ugiok"));
        for line in [
            "id name splut",
            "option name Hash type spin default 64 min 1 max 4096",
            "option name uci_showwinprob type check default false",
        ] {
            assert_eq!(h.line(line, ms(6)), Progress::Waiting);
        }
        assert_eq!(sent(&mut h), Vec::<String>::new(), "nothing before ugiok");
        // `readyok` before its `isready` is not the answer.
        assert_eq!(h.line("readyok", ms(7)), Progress::Waiting);
        assert_eq!(h.line("ugiok", ms(8)), Progress::Waiting);
        assert_eq!(
            sent(&mut h),
            [
                "setoption name Hash value 16",
                "setoption name Seed value 3",
                "setoption name UCI_ShowWinProb value true",
                "isready"
            ]
        );
        assert_eq!(h.deadline(), Some(ms(8) + LIMIT));
        assert_eq!(h.awaited(), Some("readyok"));
        assert_eq!(h.lines().len(), 4);
        assert!(!h.done());
        assert_eq!(h.line("info string hello", ms(9)), Progress::Waiting);
        assert_eq!(h.line("readyok", ms(9)), Progress::Done);
        assert!(h.done());
        assert_eq!((h.deadline(), h.awaited()), (None, None));
        assert_eq!(h.overdue(ms(100_000)), None);
    }

    #[test]
    fn win_probabilities_only_when_asked_for_and_offered() {
        let offered = "option name UCI_ShowWinProb type check default false";
        let mut h = Handshake::new(ms(0), LIMIT).asking_win_probabilities();
        sent(&mut h);
        h.line("id name other", ms(1));
        h.line("ugiok", ms(1));
        assert_eq!(sent(&mut h), ["isready"], "not offered");

        let mut h = Handshake::new(ms(0), LIMIT);
        sent(&mut h);
        h.line(offered, ms(1));
        h.line("ugiok", ms(1));
        assert_eq!(sent(&mut h), ["isready"], "not asked for");
    }

    #[test]
    fn a_silent_or_refusing_engine_fails_it() {
        let mut h = Handshake::new(ms(0), LIMIT);
        assert_eq!(h.overdue(LIMIT), None, "not yet");
        assert_eq!(
            h.overdue(LIMIT + ms(1)),
            Some("no ugiok within 10000 ms".into())
        );
        assert_eq!(h.deadline(), None);
        assert!(matches!(h.line("ugiok", ms(1)), Progress::Failed(_)));

        let mut h = Handshake::new(ms(0), LIMIT);
        h.line("ugiok", ms(50));
        assert_eq!(
            h.overdue(ms(50) + LIMIT + ms(1)).unwrap(),
            "no readyok within 10000 ms"
        );

        let mut h = Handshake::new(ms(0), LIMIT).with_options([SetOption::new("Nope", "1")]);
        h.line("ugiok", ms(1));
        assert_eq!(
            h.line("info string error: no such option", ms(2)),
            Progress::Failed("no such option".into())
        );
        assert!(!h.done());
    }

    #[test]
    fn a_limit_beyond_any_clock_never_runs_out() {
        let mut h = Handshake::new(ms(1), Duration::MAX);
        assert_eq!(h.deadline(), None);
        assert_eq!(h.overdue(Duration::MAX), None);
        assert_eq!(h.awaited(), Some("ugiok"));
    }
}
