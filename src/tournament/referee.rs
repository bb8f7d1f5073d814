//! Plays one game between participants and judges it.
//!
//! The referee sends every participant the game so far (`position …
//! moves …`) and its time (`go …`); a participant that answers `bestturn`
//! plays its whole turn at once, one that answers only `bestmove` (a plain
//! UGI engine) is asked again for each step. Every step is checked. A crash,
//! a time forfeit or an illegal step loses the game for that seat; the game
//! is drawn after the turn limit or when a position repeats often enough.

use super::judge::{Judge, places};
use super::openings::Opening;
use super::participant::{
    Answer, Clock, Failure, Process, TimeControl, go_command, position_command,
};
use super::record::{Forfeit, GameRecord, Reason};
use crate::game::{Game, Seat};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

pub use super::judge::Adjudication;

/// One seat of a game.
pub struct SeatPlayer<'a> {
    /// The seat.
    pub seat: Seat,
    /// Participant name.
    pub name: String,
    /// Its time control.
    pub tc: TimeControl,
    /// Its process.
    pub process: &'a mut Process,
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
    fn failed(seat: Seat, f: Failure) -> Stop {
        Stop::Forfeit(seat, f.into(), true)
    }
}

/// Plays a game. `interrupted` aborts it (returns `None`).
pub fn play(
    number: usize,
    players: usize,
    opening: &Opening,
    seats: &mut [SeatPlayer<'_>],
    adjudication: Adjudication,
    interrupted: &AtomicBool,
) -> Option<Played> {
    let mut game = opening.game();
    let mut not_ready = None;
    for s in seats.iter_mut() {
        if let Err(f) = s.process.send("uginewgame").and_then(|_| s.process.ready()) {
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
    Some(Played {
        record: GameRecord {
            number,
            players,
            seats: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
            opening: opening.label.clone(),
            start: if opening.from_startpos {
                "startpos".to_string()
            } else {
                opening.start.to_spn()
            },
            opening_steps: opening.steps.len(),
            time_control: tcs.join(" "),
            places: places(&game, &reason),
            reason,
            turns: GameRecord::turns_of(&game),
        },
        restart,
    })
}

/// The game proper: turns until the judge ends the game or a seat
/// forfeits (`None` if interrupted). One `go` per turn for participants
/// that answer `bestturn`, otherwise one per step.
fn play_out(
    game: &mut Game,
    mut judge: Judge,
    from_startpos: bool,
    seats: &mut [SeatPlayer<'_>],
    interrupted: &AtomicBool,
) -> Option<Stop> {
    let p1 = game.start().first_mover();
    let mut clocks: Vec<Clock> = seats
        .iter()
        .filter_map(|s| match s.tc {
            TimeControl::Clock { time_ms, inc_ms } => Some(Clock {
                seat: s.seat,
                left_ms: time_ms,
                inc_ms,
            }),
            _ => None,
        })
        .collect();
    loop {
        if interrupted.load(Relaxed) {
            return None;
        }
        if let Some(r) = judge.before_turn(game.position()) {
            return Some(Stop::Ended(r));
        }
        let side = game.position().side_to_move();
        let Some(player) = seats.iter_mut().find(|s| s.seat == side) else {
            return Some(Stop::Forfeit(side, Forfeit::NoParticipant, false));
        };
        let turn = game.position().turn();
        let mut hit = None;
        if let Some(guess) = player.pondering.take() {
            let played: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
            if played == guess {
                let limit = time_limit(player, &clocks);
                match player.process.ponderhit(limit) {
                    Ok(a) => hit = Some(a),
                    Err(f) => return Some(Stop::failed(side, f)),
                }
            } else if let Err(f) = player.process.cancel_ponder() {
                return Some(Stop::failed(side, f));
            }
        }
        let mut last_answer = None;
        while game.position().turn() == turn && !game.position().is_game_over() {
            let limit = time_limit(player, &clocks);
            let go = go_command(player.tc, &clocks, p1);
            let answer = match hit.take() {
                Some(a) => a,
                None => {
                    match player
                        .process
                        .think(&position_command(game, from_startpos), &go, limit)
                    {
                        Ok(a) => a,
                        Err(f) => return Some(Stop::failed(side, f)),
                    }
                }
            };
            if let Some(c) = clocks.iter_mut().find(|c| c.seat == side) {
                let spent_ms = answer.elapsed.as_millis() as u64;
                if spent_ms > c.left_ms {
                    let what = Forfeit::LostOnTime {
                        spent_ms,
                        left_ms: c.left_ms,
                    };
                    return Some(Stop::Forfeit(side, what, false));
                }
                c.left_ms -= spent_ms;
            }
            let steps = match answer.steps() {
                Ok(steps) => steps,
                Err(what) => return Some(Stop::Forfeit(side, what, false)),
            };
            for text in steps {
                let pos = game.position();
                if pos.turn() != turn || pos.is_game_over() {
                    let what = Forfeit::PastTurnEnd { text };
                    return Some(Stop::Forfeit(side, what, false));
                }
                if let Err(e) = game.play_text(&text) {
                    let what = Forfeit::IllegalStep {
                        text,
                        why: e.reason,
                    };
                    return Some(Stop::Forfeit(side, what, false));
                }
                if let Some(r) = judge.after_step(game.position()) {
                    return Some(Stop::Ended(r));
                }
            }
            last_answer = Some(answer);
        }
        if let Some(c) = clocks.iter_mut().find(|c| c.seat == side) {
            c.left_ms += c.inc_ms;
        }
        if player.ponder
            && let Some(answer) = last_answer
            && let Some((guessed, steps)) = guess(game, side, &answer)
        {
            let go = go_command(player.tc, &clocks, p1);
            if let Err(f) = player
                .process
                .ponder(&position_command(&guessed, from_startpos), &go)
            {
                return Some(Stop::failed(side, f));
            }
            player.pondering = Some(steps);
        }
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
