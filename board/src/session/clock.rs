//! Clocks for the people's seats (Fischer: a time for the game and an
//! increment each turn), run by the machine on the time `now` it is
//! told, with no clock of its own. A seat's clock runs during its turn
//! while its person plays it (not while the engine stands in for them,
//! nor while the game waits for its engine); the turn's time is taken
//! off when the turn ends, and the increment added. A clock that runs
//! out at its seat's turn has the engine play the rest of that turn
//! (recorded in the seat's `stood_in`); the seat comes back to its
//! person at their next turn with the increment alone.
//!
//! What a clock keeps is in its seat ([`SeatClock`], kept by a host with
//! the seats): its time left at the start of its turn, and that time at
//! each of its past turns, which a take-back restores. The time of the
//! turn under way is the machine's alone (`Running`): a host that
//! resumes a game begins that turn's time anew.

use super::{Refusal, Session};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use splut_rules::Seat;
use std::ops::RangeInclusive;
use std::time::Duration;

/// Bounds on a clock's time for the game, in seconds.
pub const BASE: RangeInclusive<u64> = 10..=36_000;

/// Bounds on a clock's increment each turn, in seconds.
pub const INCREMENT: RangeInclusive<u64> = 0..=600;

/// A clock as a new game asks for it: `{"base": 300, "increment": 2}`,
/// in seconds.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockIn {
    /// The time for the game, in seconds ([`BASE`]).
    pub base: u64,
    /// The time added at the end of each turn, in seconds ([`INCREMENT`]).
    #[serde(default)]
    pub increment: u64,
}

impl ClockIn {
    /// A person's seat's clock at the game's start, checked against
    /// [`BASE`] and [`INCREMENT`].
    pub fn check(&self) -> Result<SeatClock, Refusal> {
        if !BASE.contains(&self.base) {
            return Err(Refusal::BadInput(format!(
                "clock: base must be {} to {} seconds",
                BASE.start(),
                BASE.end()
            )));
        }
        if !INCREMENT.contains(&self.increment) {
            return Err(Refusal::BadInput(format!(
                "clock: increment must be {} to {} seconds",
                INCREMENT.start(),
                INCREMENT.end()
            )));
        }
        Ok(SeatClock {
            base: self.base * 1000,
            increment: self.increment * 1000,
            left: self.base * 1000,
            out: false,
            turns: Vec::new(),
        })
    }
}

/// A person's seat's clock, kept with its seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// The time for the game, in ms.
    pub base: u64,
    /// The time added at the end of each of its turns, in ms.
    pub increment: u64,
    /// Its time left at the start of its turn under way (or its next).
    pub left: u64,
    /// It ran out in the turn under way: the engine plays the rest of it.
    #[serde(default)]
    pub out: bool,
    /// Each of its turns that ended, and its time left at that turn's
    /// start (`[turn, ms]`): a take-back restores them.
    #[serde(default)]
    pub turns: Vec<(u32, u64)>,
}

impl SeatClock {
    /// A clock kept by a page (a game taken up again from its steps at
    /// turn `turn`), checked: its time and increment within [`BASE`] and
    /// [`INCREMENT`], no more time left than the game's time and an
    /// increment for every turn so far, its past turns before `turn` and
    /// in order.
    pub fn check_kept(&self, turn: u32) -> Result<SeatClock, Refusal> {
        let bad = |why: &str| Err(Refusal::BadInput(format!("seats: a kept clock {why}")));
        let ms = |r: &RangeInclusive<u64>| r.start() * 1000..=r.end() * 1000;
        if !ms(&BASE).contains(&self.base) || !ms(&INCREMENT).contains(&self.increment) {
            return bad("has a time or increment out of bounds");
        }
        let most = self
            .base
            .saturating_add(self.increment.saturating_mul(u64::from(turn)));
        if self.left > most || self.turns.iter().any(|t| t.1 > most) {
            return bad("has more time left than the game gave it");
        }
        let ordered = self.turns.windows(2).all(|w| w[0].0 < w[1].0);
        if !ordered || self.turns.last().is_some_and(|t| t.0 >= turn) {
            return bad("has turns out of order or not yet played");
        }
        Ok(self.clone())
    }
}

/// The clock of the turn under way (the machine's, not kept).
#[derive(Clone, Debug)]
pub(super) struct Running {
    seat: Seat,
    turn: u32,
    /// Its time charged so far in this turn.
    used: Duration,
    /// Since when it runs (`None`: stopped).
    since: Option<Duration>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Session {
    /// The clock of `seat`, if it has one.
    fn clock_mut(&mut self, seat: Seat) -> Option<&mut SeatClock> {
        self.seats
            .iter_mut()
            .find(|c| c.seat == seat)
            .and_then(|c| c.clock.as_mut())
    }

    /// The time left on the running turn's clock at `now`.
    fn clock_left(&self, r: &Running, now: Duration) -> Duration {
        let left = self
            .seats
            .iter()
            .find(|c| c.seat == r.seat)
            .and_then(|c| c.clock.as_ref())
            .map_or(0, |c| c.left);
        let used = r.used + r.since.map_or(Duration::ZERO, |s| now.saturating_sub(s));
        Duration::from_millis(left).saturating_sub(used)
    }

    /// Whether the mover's clock may run: a person plays the seat, and
    /// the game can go on.
    fn clock_may_run(&self, seat: Seat) -> bool {
        let person = self
            .seats
            .iter()
            .find(|c| c.seat == seat)
            .is_some_and(|c| !c.engine_plays());
        person && !self.closed && self.error.is_none() && self.engine == super::Engine::Up
    }

    /// Brings the clocks up to `now`: the turn that ended is settled, the
    /// mover's clock starts or stops as who plays and the game's state
    /// say, and a clock that ran out at its seat's turn has the engine
    /// play the rest of it. True when one ran out just now (the engine
    /// must be asked for the turn).
    pub(super) fn clock_sync(&mut self, now: Duration) -> bool {
        self.seen = self.seen.max(now);
        let pos = self.game.position();
        let mover = (!self.over()).then(|| (pos.turn(), pos.side_to_move()));
        if let Some(r) = self.running.take() {
            if Some((r.turn, r.seat)) == mover {
                self.running = Some(r);
            } else {
                self.end_turn(r, now);
            }
        }
        if self.running.is_none()
            && let Some((turn, seat)) = mover
            && self.clock_mut(seat).is_some()
        {
            self.running = Some(Running {
                seat,
                turn,
                used: Duration::ZERO,
                since: None,
            });
        }
        let Some(mut r) = self.running.take() else {
            return false;
        };
        let run = self.clock_may_run(r.seat);
        match r.since {
            Some(since) if !run => {
                r.used += now.saturating_sub(since);
                r.since = None;
            }
            None if run => r.since = Some(now),
            _ => {}
        }
        let out = r.since.is_some() && self.clock_left(&r, now).is_zero();
        if out {
            r.used += now.saturating_sub(r.since.unwrap_or(now));
            r.since = None;
            if let Some(c) = self.clock_mut(r.seat) {
                c.out = true;
            }
            self.bump();
        }
        self.running = Some(r);
        out
    }

    /// The turn of `r` ended at `now`: its time is taken off its clock
    /// (all of it if it ran out) and the increment added.
    fn end_turn(&mut self, mut r: Running, now: Duration) {
        if let Some(since) = r.since.take() {
            r.used += now.saturating_sub(since);
        }
        if let Some(c) = self.clock_mut(r.seat) {
            let start = c.left;
            let kept = if c.out {
                0
            } else {
                start.saturating_sub(millis(r.used))
            };
            c.left = kept.saturating_add(c.increment);
            c.out = false;
            c.turns.push((r.turn, start));
        }
        self.bump();
    }

    /// A take-back to `turn` (the turn now under way, its steps all taken
    /// back or none): every clock is as it was at the start of the first
    /// of its turns taken back, and none has run out.
    pub(super) fn clocks_back_to(&mut self, turn: u32) {
        self.running = None;
        for c in self.seats.iter_mut().filter_map(|c| c.clock.as_mut()) {
            if let Some(i) = c.turns.iter().position(|t| t.0 >= turn) {
                c.left = c.turns[i].1;
                c.turns.truncate(i);
            }
            c.out = false;
        }
    }

    /// No clock has run out (before a take-back decides which turns the
    /// engine plays).
    pub(super) fn clocks_not_out(&mut self) {
        for c in self.seats.iter_mut().filter_map(|c| c.clock.as_mut()) {
            c.out = false;
        }
    }

    /// When the mover's running clock runs out.
    pub(super) fn clock_due(&self) -> Option<Duration> {
        let r = self.running.as_ref()?;
        let since = r.since?;
        Some(since + self.clock_left(r, since))
    }

    /// The host read the state at `now` (the clocks' time left is shown
    /// as of then); nothing changes.
    pub fn observe(&mut self, now: Duration) {
        self.seen = self.seen.max(now);
    }
}

/// The clocks as the page reads them (the state's `clock`, `null` when
/// the game has none): `{"base": ms, "increment": ms, "left": {"r": ms,
/// …}, "running": "r"}`, each person's seat's time left as of the state,
/// and the seat whose clock runs then (`null`: none), which the page
/// counts down from the moment it got the state.
pub(super) struct ClocksView<'a>(pub(super) &'a Session);

impl Serialize for ClocksView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let session = self.0;
        let Some(first) = session.seats.iter().find_map(|c| c.clock.as_ref()) else {
            return s.serialize_none();
        };
        let r = session.running.as_ref();
        let left: std::collections::BTreeMap<String, u64> = session
            .seats
            .iter()
            .filter_map(|c| {
                let clock = c.clock.as_ref()?;
                let ms = match r {
                    Some(r) if r.seat == c.seat => millis(session.clock_left(r, session.seen)),
                    _ => clock.left,
                };
                Some((c.seat.to_string(), ms))
            })
            .collect();
        let running = r.filter(|r| r.since.is_some()).map(|r| r.seat.to_string());
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("base", &first.base)?;
        m.serialize_entry("increment", &first.increment)?;
        m.serialize_entry("left", &left)?;
        m.serialize_entry("running", &running)?;
        m.end()
    }
}
