//! An episode: one game judged as tournaments judge games, and what each
//! step of it gives each seat. The one place in the Python module that
//! decides when an episode ends, why, who is terminated or truncated and
//! the rewards: `EnvGame` (and the PettingZoo environment over it,
//! `splut/env.py`) and `Batch` both step an [`Episode`].
//!
//! - The end: the match's judge ([`splut_play::judge::Judge`]) with the
//!   episode's draw rules: one sorcerer left, more than `max_turns` turns,
//!   or a position reached `repetitions` times after steps, in the
//!   referee's order (the repetition counted after every step first).
//! - The places: the rules' [`Places`], a seat going out taking the place
//!   below the seats still in ([`Places::eliminate`], as
//!   [`splut_rules::Game::places`] builds them); at a draw the seats still
//!   in share the first place, as [`splut_play::judge::places`] gives them.
//! - The rewards, by [`Reward`]: `place`, what the seat's place is worth
//!   ([`Places::points_of`]: +1 first to -1 last, a shared place the mean
//!   of the places it spans); `win`, +1 for the winner, -1 for a seat that
//!   goes out, 0 at a draw. A seat gets its reward on the step its place
//!   is settled: when it goes out, or when the episode ends.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use splut_play::judge::{Adjudication, Judge, Reason};
use splut_rules::{Places, Position, Seat};

use crate::args::Int;

/// How an episode rewards the seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reward {
    /// The points of the seat's finishing place (the tournament's points,
    /// from -1 to +1).
    Place,
    /// +1 for the winner, -1 for each seat out, 0 for a draw.
    Win,
}

impl Reward {
    /// Reads `"place"` or `"win"`; else a `ValueError`.
    pub(crate) fn parse(text: &str) -> PyResult<Reward> {
        match text {
            "place" => Ok(Reward::Place),
            "win" => Ok(Reward::Win),
            _ => Err(PyValueError::new_err(format!(
                "reward must be \"place\" or \"win\", not {text:?}"
            ))),
        }
    }

    /// The mode's name, as [`Reward::parse`] reads it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Reward::Place => "place",
            Reward::Win => "win",
        }
    }
}

/// The draw rules as Python gives them: `max_turns` 1 to 2^32 - 1 or
/// `None` (no limit), `repetitions` 0 (never) to 2^32 - 1.
pub(crate) fn adjudication_arg(max_turns: Option<Int>, repetitions: Int) -> PyResult<Adjudication> {
    let max_turns = match max_turns {
        Some(t) => t.within("max_turns", 1, u32::MAX.into())?,
        None => u32::MAX,
    };
    Ok(Adjudication {
        max_turns,
        repetitions: repetitions.within("repetitions", 0, u32::MAX.into())?,
    })
}

/// What one step gave each seat, by seat index (red, yellow, green,
/// blue); seats not in the episode have 0 and `false`. Rewards are `f64`,
/// the rules' points as they are (`Batch` stores them as `f32`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Outcome {
    /// The reward of this step.
    pub(crate) rewards: [f64; 4],
    /// Whether the seat's episode is over for good after this step: it is
    /// out (now or before), or the episode ended with one sorcerer left.
    pub(crate) terminated: [bool; 4],
    /// Whether a draw (turn limit or repetition) ended the episode on this
    /// step with the seat still in.
    pub(crate) truncated: [bool; 4],
}

/// One episode from a start: the judge watching it, the places as they
/// stand, the rewards so far and, once over, why it ended.
#[derive(Clone, Debug)]
pub(crate) struct Episode {
    judge: Judge,
    reward: Reward,
    /// The places as the game stands (all seats of the start).
    places: Places,
    /// Each seat's rewards so far, summed (by seat index).
    returns: [f64; 4],
    /// Why the episode ended, once it has.
    ended: Option<Reason>,
}

impl Episode {
    /// An episode from `start` under these draw rules and rewards.
    pub(crate) fn new(adjudication: Adjudication, reward: Reward, start: &Position) -> Episode {
        Episode {
            judge: Judge::new(adjudication),
            reward,
            places: Places::new(start.seats_in_game()),
            returns: [0.0; 4],
            ended: None,
        }
    }

    /// A new episode from `start` under the same rules (the judge's memory
    /// kept for it).
    pub(crate) fn restart(&mut self, start: &Position) {
        self.judge.clear();
        self.places = Places::new(start.seats_in_game());
        self.returns = [0.0; 4];
        self.ended = None;
    }

    /// The draw rules.
    pub(crate) fn adjudication(&self) -> Adjudication {
        self.judge.adjudication()
    }

    /// The reward mode.
    pub(crate) fn reward(&self) -> Reward {
        self.reward
    }

    /// Why the episode ended; `None` while it goes on.
    pub(crate) fn ended(&self) -> Option<&Reason> {
        self.ended.as_ref()
    }

    /// Each seat's rewards so far, summed, by seat index: once the episode
    /// is over, its final rewards.
    pub(crate) fn returns(&self) -> [f64; 4] {
        self.returns
    }

    /// How many times the current position has occurred after a step
    /// ([`Judge::occurrences`]; 0 at the start).
    pub(crate) fn occurrences(&self) -> u32 {
        self.judge.occurrences()
    }

    /// Judges the step from `before` to `after`: who went out, whether the
    /// episode ends here and why, and what each seat gets. The caller
    /// steps only an episode that goes on.
    pub(crate) fn step(&mut self, before: &Position, after: &Position) -> Outcome {
        debug_assert!(self.ended.is_none(), "a step after the episode ended");
        let mut out = Outcome::default();
        // At most one seat goes out a step (splut_rules::Places), with a
        // place of its own below the seats still in: settled now.
        for seat in Seat::ALL
            .into_iter()
            .filter(|&s| before.in_game(s) && !after.in_game(s))
        {
            self.places.eliminate(seat);
            out.rewards[seat.index()] = self.reward_of(seat, None);
        }
        // The referee's order: the repetition (counted after every step)
        // first, then what it asks before each turn. One sorcerer left or
        // the turn limit passed cannot come in the middle of a turn (an
        // elimination ends the turn; the turn number changes only between
        // turns), so asking after every step ends the episode on the step
        // before the turn the referee would not start.
        self.ended = self
            .judge
            .after_step(after)
            .or_else(|| self.judge.before_turn(after));
        if let Some(reason) = &self.ended {
            let won = matches!(reason, Reason::LastSorcerer);
            for seat in after.seats_in_game() {
                let i = seat.index();
                out.rewards[i] = self.reward_of(seat, Some(won));
                out.terminated[i] = won;
                out.truncated[i] = !won;
            }
        }
        for &seat in self.places.seats() {
            if !after.in_game(seat) {
                out.terminated[seat.index()] = true;
            }
        }
        for (sum, r) in self.returns.iter_mut().zip(out.rewards) {
            *sum += r;
        }
        out
    }

    /// What `seat` gets as its place is settled: going out (`won` is
    /// `None`), or still in when the episode ends (`Some(true)`: it won;
    /// `Some(false)`: a draw).
    fn reward_of(&self, seat: Seat, won: Option<bool>) -> f64 {
        match self.reward {
            Reward::Place => self.places.points_of(seat).unwrap_or(0.0),
            Reward::Win => match won {
                None => -1.0,
                Some(true) => 1.0,
                Some(false) => 0.0,
            },
        }
    }
}
