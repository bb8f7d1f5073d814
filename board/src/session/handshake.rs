//! A fresh engine's handshake as a state machine with no I/O, for the
//! board's machines ([`super::Session`], [`super::analysis::Analysis`])
//! and a host that asks an engine what it offers: `ugi`, its answer up
//! to `ugiok` (the options kept), `setoption name UCI_ShowWinProb value
//! true` if it offers win probabilities, `isready` … `readyok`. The
//! commands are the protocol's ([`splut_protocol::Command`]); the lines
//! come in through [`Handshake::line`] and the time through
//! [`Handshake::overdue`]: the machine says when it is late
//! ([`Handshake::deadline`]), its owner keeps the clock.

use super::HUNG_AFTER;
use super::levels::has_option;
use splut_protocol::Command;
use splut_protocol::command::SetOption;
use splut_protocol::words::Line;
use std::time::Duration;

/// The option that asks an engine for its win probabilities in its
/// `info` lines; set when the engine offers it.
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
    /// The engine refused an option of the handshake: why.
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
    /// Commands for the engine, not yet taken.
    out: Vec<Command>,
}

impl Handshake {
    /// A handshake begun at `now`: its first command is `ugi`.
    pub fn new(now: Duration) -> Handshake {
        Handshake {
            stage: Stage::Ugi,
            lines: Vec::new(),
            since: now,
            out: vec![Command::Ugi],
        }
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
                if has_option(&self.lines, SHOW_WINPROB) {
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

    /// When the line awaited is late ([`HUNG_AFTER`] after it was asked
    /// for); `None` once done or failed.
    pub fn deadline(&self) -> Option<Duration> {
        matches!(self.stage, Stage::Ugi | Stage::Ready).then_some(self.since + HUNG_AFTER)
    }

    /// Why the handshake failed by `now` (the line awaited is past its
    /// [`Handshake::deadline`]), if it did; it fails for good.
    pub fn overdue(&mut self, now: Duration) -> Option<String> {
        let late = self.deadline().filter(|&d| now > d)?;
        let awaited = if self.stage == Stage::Ugi {
            "ugiok"
        } else {
            "readyok"
        };
        let why = format!(
            "no {awaited} within {} ms",
            late.saturating_sub(self.since).as_millis()
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

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn sent(h: &mut Handshake) -> Vec<String> {
        h.commands().iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn ugi_then_the_win_probabilities_then_isready() {
        let mut h = Handshake::new(ms(5));
        assert_eq!(sent(&mut h), ["ugi"]);
        assert_eq!(h.deadline(), Some(ms(5) + HUNG_AFTER));
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
            ["setoption name UCI_ShowWinProb value true", "isready"]
        );
        assert_eq!(h.deadline(), Some(ms(8) + HUNG_AFTER));
        assert_eq!(h.lines().len(), 4);
        assert!(!h.done());
        assert_eq!(h.line("info string hello", ms(9)), Progress::Waiting);
        assert_eq!(h.line("readyok", ms(9)), Progress::Done);
        assert!(h.done());
        assert_eq!(h.deadline(), None);
        assert_eq!(h.overdue(ms(100_000)), None);
    }

    #[test]
    fn an_engine_without_win_probabilities_is_not_asked_for_them() {
        let mut h = Handshake::new(ms(0));
        sent(&mut h);
        h.line("id name other", ms(1));
        h.line("ugiok", ms(1));
        assert_eq!(sent(&mut h), ["isready"]);
    }

    #[test]
    fn a_silent_or_refusing_engine_fails_it() {
        let mut h = Handshake::new(ms(0));
        assert_eq!(h.overdue(HUNG_AFTER), None, "not yet");
        assert_eq!(
            h.overdue(HUNG_AFTER + ms(1)),
            Some("no ugiok within 10000 ms".into())
        );
        assert_eq!(h.deadline(), None);
        assert!(matches!(h.line("ugiok", ms(1)), Progress::Failed(_)));

        let mut h = Handshake::new(ms(0));
        h.line("ugiok", ms(50));
        assert_eq!(
            h.overdue(ms(50) + HUNG_AFTER + ms(1)).unwrap(),
            "no readyok within 10000 ms"
        );

        let mut h = Handshake::new(ms(0));
        h.line("ugiok", ms(1));
        assert_eq!(
            h.line("info string error: no such option", ms(2)),
            Progress::Failed("no such option".into())
        );
        assert!(!h.done());
    }
}
