//! Plays one game between participants and judges it.
//!
//! The referee sends every participant the game so far (`position …
//! moves …`) and its time (`go …`); a participant that answers `bestturn`
//! plays its whole turn at once, one that answers only `bestmove` (a plain
//! UGI engine) is asked again for each step. Every step is checked. A crash,
//! a time forfeit or an illegal step loses the game for that seat; the game
//! is drawn after the turn limit or when a position repeats often enough.

use super::participant::{Clock, TimeControl, forfeit, go_command};
use splut_play::answer::Answer;
use splut_play::client::{Client, ClientError};
use splut_play::judge::Judge;
use splut_play::openings::Opening;
use splut_play::record::{Forfeit, GameRecord, Reason};
use splut_protocol::Command;
use splut_protocol::command::PositionCommand;
use splut_rules::{Game, Seat};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

pub use splut_play::judge::Adjudication;

/// One seat of a game.
pub struct SeatPlayer<'a> {
    /// The seat.
    pub seat: Seat,
    /// Participant name.
    pub name: String,
    /// Its time control.
    pub tc: TimeControl,
    /// Its program.
    pub process: &'a mut Client,
    /// Whether it ponders on the other seats' turns.
    pub ponder: bool,
    /// While it ponders: the steps of the game it guessed (those played
    /// when it started, then the guess).
    pub pondering: Option<Vec<String>>,
}

/// How a game ended, besides its record: which seat (if any) failed and
/// should have its process restarted.
pub struct Played {
    /// The record.
    pub record: GameRecord,
    /// A seat whose process must be restarted (crash, hang).
    pub restart: Option<Seat>,
}

/// Extra time a participant gets beyond its limit before it forfeits.
const GRACE: Duration = Duration::from_millis(1000);

/// How a game stopped: the judge ended it, or a seat forfeited (and
/// whether its process must be restarted).
enum Stop {
    Ended(Reason),
    Forfeit(Seat, Forfeit, bool),
}

impl Stop {
    /// A forfeit for a process failure: the process is restarted.
    fn failed(seat: Seat, e: ClientError) -> Stop {
        Stop::Forfeit(seat, forfeit(e), true)
    }
}

/// Plays a game. `interrupted` aborts it (returns `None`).
pub fn play(
    number: usize,
    opening: &Opening,
    seats: &mut [SeatPlayer<'_>],
    adjudication: Adjudication,
    interrupted: &AtomicBool,
) -> Option<Played> {
    let mut game = opening.game();
    let mut not_ready = None;
    for s in seats.iter_mut() {
        if let Err(f) = s
            .process
            .command(&Command::UgiNewGame)
            .and_then(|_| s.process.ready())
        {
            not_ready = Some(Stop::failed(s.seat, f));
            break;
        }
    }
    let stop = match not_ready {
        Some(stop) => Some(stop),
        None => play_out(
            &mut game,
            Judge::new(adjudication),
            opening.from_startpos,
            seats,
            interrupted,
        ),
    };
    // A search still pondering when the game ends is stopped, so that the
    // process is idle for the next game.
    for s in seats.iter_mut() {
        if s.pondering.take().is_some() {
            let _ = s.process.cancel_ponder();
        }
    }
    let stop = stop?;
    let (reason, restart) = match stop {
        Stop::Ended(r) => (r, None),
        Stop::Forfeit(seat, what, restart) => {
            (Reason::Forfeit { seat, what }, restart.then_some(seat))
        }
    };
    let mut tcs: Vec<String> = Vec::new();
    for s in seats.iter() {
        let t = format!("{}={}", s.name, s.tc);
        if !tcs.contains(&t) {
            tcs.push(t);
        }
    }
    let names = seats.iter().map(|s| (s.seat, s.name.clone())).collect();
    let labels = opening.labels(number, names, tcs.join(" "));
    Some(Played {
        record: GameRecord::new(labels, &game, reason),
        restart,
    })
}

/// The game proper: turns until the judge ends the game or a seat
/// forfeits (`None` if interrupted). One `go` per turn for participants
/// that answer `bestturn`, otherwise one per step.
fn play_out(
    game: &mut Game,
    judge: Judge,
    from_startpos: bool,
    seats: &mut [SeatPlayer<'_>],
    interrupted: &AtomicBool,
) -> Option<Stop> {
    let mut table = Table {
        p1: game.start().first_mover(),
        clocks: clocks_of(seats),
        game,
        judge,
        from_startpos,
    };
    loop {
        if interrupted.load(Relaxed) {
            return None;
        }
        if let Some(r) = table.judge.before_turn(table.game.position()) {
            return Some(Stop::Ended(r));
        }
        let side = table.game.position().side_to_move();
        let Some(player) = seats.iter_mut().find(|s| s.seat == side) else {
            return Some(Stop::Forfeit(side, Forfeit::NoParticipant, false));
        };
        if let Err(stop) = table.turn(player) {
            return Some(stop);
        }
    }
}

/// The clocks of the seats that play with one, full.
fn clocks_of(seats: &[SeatPlayer<'_>]) -> Vec<Clock> {
    seats
        .iter()
        .filter_map(|s| match s.tc {
            TimeControl::Clock { time_ms, inc_ms } => Some(Clock {
                seat: s.seat,
                left_ms: time_ms,
                inc_ms,
            }),
            _ => None,
        })
        .collect()
}

/// A game being played: the game, its judge and the seats' clocks.
struct Table<'g> {
    game: &'g mut Game,
    judge: Judge,
    clocks: Vec<Clock>,
    /// The first mover (UGI's p1).
    p1: Seat,
    /// Whether `position` commands start from `startpos`.
    from_startpos: bool,
}

impl Table<'_> {
    /// One turn of `player` (the side to move): its ponder search
    /// resolved, `go` until its turn is over, its clock charged, then its
    /// next ponder search. `Err`: how the game stopped during it.
    fn turn(&mut self, player: &mut SeatPlayer<'_>) -> Result<(), Stop> {
        let side = player.seat;
        let turn = self.game.position().turn();
        let mut hit = self.resolve_ponder(player)?;
        let mut last_answer = None;
        while self.game.position().turn() == turn && !self.game.position().is_game_over() {
            let answer = match hit.take() {
                Some(a) => a,
                None => self.ask(player)?,
            };
            self.charge(side, &answer)?;
            let steps = answer
                .steps()
                .map_err(|what| Stop::Forfeit(side, what, false))?;
            self.play_steps(side, turn, steps)?;
            last_answer = Some(answer);
        }
        if let Some(c) = self.clocks.iter_mut().find(|c| c.seat == side) {
            c.left_ms += c.inc_ms;
        }
        match last_answer {
            Some(answer) if player.ponder => self.start_ponder(player, &answer),
            _ => Ok(()),
        }
    }

    /// A ponder search of `player` ends as its turn comes: `ponderhit`
    /// if its guess came true (its answer is the turn's first), else
    /// `stop`.
    fn resolve_ponder(&self, player: &mut SeatPlayer<'_>) -> Result<Option<Answer>, Stop> {
        let Some(guess) = player.pondering.take() else {
            return Ok(None);
        };
        let played: Vec<String> = self.game.steps().iter().map(|s| s.to_string()).collect();
        let seat = player.seat;
        let failed = |e| Stop::failed(seat, e);
        if played == guess {
            let limit = time_limit(player, &self.clocks);
            player.process.ponderhit(limit).map(Some).map_err(failed)
        } else {
            player.process.cancel_ponder().map(|_| None).map_err(failed)
        }
    }

    /// `position` and `go` for `player`, and its answer.
    fn ask(&self, player: &mut SeatPlayer<'_>) -> Result<Answer, Stop> {
        let limit = time_limit(player, &self.clocks);
        let go = go_command(player.tc, &self.clocks, self.p1);
        let position = PositionCommand::of(self.game, self.from_startpos);
        player
            .process
            .think(&position, &go, limit)
            .map_err(|e| Stop::failed(player.seat, e))
    }

    /// Takes the answer's time off `side`'s clock, if it has one: more
    /// than is left loses on time.
    fn charge(&mut self, side: Seat, answer: &Answer) -> Result<(), Stop> {
        if let Some(c) = self.clocks.iter_mut().find(|c| c.seat == side) {
            let spent_ms = answer.elapsed.as_millis() as u64;
            if spent_ms > c.left_ms {
                let what = Forfeit::LostOnTime {
                    spent_ms,
                    left_ms: c.left_ms,
                };
                return Err(Stop::Forfeit(side, what, false));
            }
            c.left_ms -= spent_ms;
        }
        Ok(())
    }

    /// Plays `side`'s steps of game turn `turn`, each checked, the judge
    /// watching.
    fn play_steps(&mut self, side: Seat, turn: u32, steps: Vec<String>) -> Result<(), Stop> {
        for text in steps {
            let pos = self.game.position();
            if pos.turn() != turn || pos.is_game_over() {
                let what = Forfeit::PastTurnEnd { text };
                return Err(Stop::Forfeit(side, what, false));
            }
            if let Err(e) = self.game.play_text(&text) {
                let what = Forfeit::IllegalStep {
                    text,
                    why: e.reason,
                };
                return Err(Stop::Forfeit(side, what, false));
            }
            if let Some(r) = self.judge.after_step(self.game.position()) {
                return Err(Stop::Ended(r));
            }
        }
        Ok(())
    }

    /// After `player`'s turn: a ponder search on the line its last
    /// answer guessed, if it guessed one.
    fn start_ponder(&self, player: &mut SeatPlayer<'_>, answer: &Answer) -> Result<(), Stop> {
        let Some((guessed, steps)) = guess(self.game, player.seat, answer) else {
            return Ok(());
        };
        let go = go_command(player.tc, &self.clocks, self.p1);
        player
            .process
            .ponder(&PositionCommand::of(&guessed, self.from_startpos), &go)
            .map_err(|e| Stop::failed(player.seat, e))?;
        player.pondering = Some(steps);
        Ok(())
    }
}

/// How long `player` may take for its answer before it forfeits.
fn time_limit(player: &SeatPlayer<'_>, clocks: &[Clock]) -> Duration {
    match player.tc {
        TimeControl::Movetime(m) => Duration::from_millis(m) + GRACE,
        TimeControl::Clock { .. } => {
            let left = clocks
                .iter()
                .find(|c| c.seat == player.seat)
                .map_or(0, |c| c.left_ms);
            Duration::from_millis(left) + GRACE
        }
        // No time limit of its own: the participant's timeout.
        _ => player.process.timeout(),
    }
}

/// What `seat` guessed, in the line of its last `answer`, the other seats
/// will play until its next turn: that game and its steps as text. `None`
/// when the line stops short, goes wrong or ends the game first.
fn guess(game: &Game, seat: Seat, answer: &Answer) -> Option<(Game, Vec<String>)> {
    let pv = answer.pv();
    let played = answer.steps().ok()?;
    let start = pv.iter().zip(&played).take_while(|(a, b)| a == b).count();
    if start != played.len() {
        return None;
    }
    let mut g = game.clone();
    for text in &pv[start..] {
        if g.position().side_to_move() == seat || g.position().is_game_over() {
            break;
        }
        g.play_text(text).ok()?;
    }
    let pos = g.position();
    if pos.side_to_move() != seat || pos.is_game_over() || g.steps().len() == game.steps().len() {
        return None;
    }
    let steps = g.steps().iter().map(|s| s.to_string()).collect();
    Some((g, steps))
}
