//! Plays one game between participants and judges it.
//!
//! The referee sends every participant the game so far (`position …
//! moves …`) and its time (`go …`); a participant that answers `bestturn`
//! plays its whole turn at once, one that answers only `bestmove` (a plain
//! UGI engine) is asked again for each step. Every step is checked. A crash,
//! a time forfeit or an illegal step loses the game for that seat; the game
//! is drawn after the turn limit or when a position repeats often enough.

use super::openings::Opening;
use super::participant::{Process, TimeControl};
use super::record::{GameRecord, Places, Reason};
use crate::game::{Position, Seat, Step};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Draw rules.
#[derive(Clone, Copy, Debug)]
pub struct Adjudication {
    /// Game turns after which the game is drawn.
    pub max_turns: u32,
    /// A position occurring this many times draws the game (0: never).
    pub repetitions: u32,
}

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

fn go_command(tc: TimeControl, clocks: &[(Seat, u64, u64)], p1: Seat) -> String {
    match tc {
        TimeControl::Movetime(m) => format!("go movetime {m}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Clock { .. } => {
            let mut cmd = String::from("go");
            for &(seat, time, inc) in clocks {
                cmd.push_str(&format!(
                    " {}time {time} {}inc {inc}",
                    seat.letter(),
                    seat.letter()
                ));
            }
            // Plain UGI engines only know p1/p2 clocks (2 players).
            if clocks.len() == 2 {
                let (a, b) = if clocks[0].0 == p1 { (0, 1) } else { (1, 0) };
                cmd.push_str(&format!(
                    " p1time {} p2time {} p1inc {} p2inc {}",
                    clocks[a].1, clocks[b].1, clocks[a].2, clocks[b].2
                ));
            }
            cmd
        }
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
    let mut pos = opening.position();
    let mut all_steps: Vec<Step> = opening.steps.clone();
    let mut turns = opening.turns();
    let p1 = super::super::protocol::commands::first_mover(&opening.start);
    let start_text = if opening.from_startpos {
        "startpos".to_string()
    } else {
        opening.start.to_spn()
    };
    let position_prefix = if opening.from_startpos {
        format!("position startpos players {players}")
    } else {
        format!("position fen {}", opening.start.to_spn())
    };
    let mut clocks: Vec<(Seat, u64, u64)> = seats
        .iter()
        .filter_map(|s| match s.tc {
            TimeControl::Clock { time_ms, inc_ms } => Some((s.seat, time_ms, inc_ms)),
            _ => None,
        })
        .collect();
    let mut eliminated: Vec<Seat> = Vec::new();
    let mut restart = None;

    let mut not_ready = None;
    for s in seats.iter_mut() {
        if let Err(f) = s.process.send("uginewgame").and_then(|_| s.process.ready()) {
            not_ready = Some((s.seat, f));
            break;
        }
    }
    let reason = if let Some((seat, f)) = not_ready {
        restart = Some(seat);
        Reason::Forfeit {
            seat,
            what: f.to_string(),
        }
    } else {
        play_turns(
            &mut pos,
            &mut all_steps,
            &mut turns,
            seats,
            &mut clocks,
            &mut eliminated,
            &mut restart,
            adjudication,
            interrupted,
            (&position_prefix, p1),
        )?
    };
    Some(finish(
        number,
        players,
        opening,
        &start_text,
        seats,
        &pos,
        &eliminated,
        turns,
        reason,
        restart,
    ))
}

/// The game proper: turns until the game ends, is adjudicated or a seat
/// forfeits (`None` if interrupted).
#[allow(clippy::too_many_arguments)]
fn play_turns(
    pos: &mut Position,
    all_steps: &mut Vec<Step>,
    turns: &mut Vec<(Seat, Vec<String>)>,
    seats: &mut [SeatPlayer<'_>],
    clocks: &mut [(Seat, u64, u64)],
    eliminated: &mut Vec<Seat>,
    restart: &mut Option<Seat>,
    adjudication: Adjudication,
    interrupted: &AtomicBool,
    (position_prefix, p1): (&str, Seat),
) -> Option<Reason> {
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let reason = 'game: loop {
        if interrupted.load(Relaxed) {
            return None;
        }
        if pos.is_game_over() {
            break Reason::LastSorcerer;
        }
        if pos.turn() > adjudication.max_turns {
            break Reason::TurnLimit(adjudication.max_turns);
        }
        let side = pos.side_to_move();
        let Some(player) = seats.iter_mut().find(|s| s.seat == side) else {
            break Reason::Forfeit {
                seat: side,
                what: "no participant on this seat".into(),
            };
        };
        let turn_number = pos.turn();
        // A turn the opening began continues its line.
        let mut this_turn: Vec<String> = Vec::new();
        if pos.steps_left() < crate::game::steps_in_turn(turn_number)
            && turns.last().is_some_and(|t| t.0 == side)
        {
            this_turn = turns.pop().map(|t| t.1).unwrap_or_default();
        }
        // One `go` per turn for participants that answer `bestturn`,
        // otherwise one per step.
        while pos.turn() == turn_number && !pos.is_game_over() {
            let moves: Vec<String> = all_steps.iter().map(|s| s.to_string()).collect();
            let position = if moves.is_empty() {
                position_prefix.to_string()
            } else {
                format!("{position_prefix} moves {}", moves.join(" "))
            };
            let go = go_command(player.tc, clocks, p1);
            let limit = match player.tc {
                TimeControl::Movetime(m) => Duration::from_millis(m) + GRACE,
                TimeControl::Clock { .. } => {
                    let left = clocks.iter().find(|c| c.0 == side).map_or(0, |c| c.1);
                    Duration::from_millis(left) + GRACE
                }
                // No time limit of its own: the participant's timeout.
                _ => player.process.timeout(),
            };
            let t0 = Instant::now();
            let answer = player
                .process
                .send(&position)
                .and_then(|_| player.process.send(&go))
                .and_then(|_| player.process.read_until("bestmove", limit));
            let elapsed = t0.elapsed();
            let lines = match answer {
                Ok(lines) => lines,
                Err(f) => {
                    *restart = Some(side);
                    turns.push((side, this_turn));
                    break 'game Reason::Forfeit {
                        seat: side,
                        what: f.to_string(),
                    };
                }
            };
            if let Some(c) = clocks.iter_mut().find(|c| c.0 == side) {
                let spent = elapsed.as_millis() as u64;
                if spent > c.1 {
                    turns.push((side, this_turn));
                    break 'game Reason::Forfeit {
                        seat: side,
                        what: format!("lost on time ({spent} ms with {} ms left)", c.1),
                    };
                }
                c.1 -= spent;
            }
            let bestturn = lines
                .iter()
                .rev()
                .find_map(|l| l.strip_prefix("bestturn "))
                .map(|t| t.split_whitespace().map(String::from).collect::<Vec<_>>());
            let best = lines
                .last()
                .and_then(|l| l.split_whitespace().nth(1))
                .unwrap_or("")
                .to_string();
            let steps = match bestturn {
                Some(t) if !t.is_empty() => {
                    player.process.plays_turns = true;
                    if t[0] != best {
                        turns.push((side, this_turn));
                        break 'game Reason::Forfeit {
                            seat: side,
                            what: format!(
                                "bestmove {best} is not the first step of bestturn {}",
                                t.join(" ")
                            ),
                        };
                    }
                    t
                }
                _ => vec![best],
            };
            for text in steps {
                if pos.turn() != turn_number || pos.is_game_over() {
                    turns.push((side, this_turn));
                    break 'game Reason::Forfeit {
                        seat: side,
                        what: format!("illegal step '{text}': the turn is already over"),
                    };
                }
                let step = match pos.parse_step(&text) {
                    Ok(s) => s,
                    Err(e) => {
                        turns.push((side, this_turn));
                        break 'game Reason::Forfeit {
                            seat: side,
                            what: format!("illegal step '{text}': {}", e.reason),
                        };
                    }
                };
                let before: Vec<Seat> = pos.seats_in_game().collect();
                pos.play(step);
                eliminated.extend(before.into_iter().filter(|s| !pos.in_game(*s)));
                all_steps.push(step);
                this_turn.push(text);
                let n = seen.entry(pos.hash()).or_insert(0);
                *n += 1;
                if adjudication.repetitions > 0 && *n >= adjudication.repetitions {
                    turns.push((side, this_turn));
                    break 'game Reason::Repetition(adjudication.repetitions);
                }
            }
        }
        if let Some(c) = clocks.iter_mut().find(|c| c.0 == side) {
            c.1 += c.2;
        }
        turns.push((side, this_turn));
    };
    Some(reason)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    number: usize,
    players: usize,
    opening: &Opening,
    start_text: &str,
    seats: &[SeatPlayer<'_>],
    pos: &Position,
    eliminated: &[Seat],
    turns: Vec<(Seat, Vec<String>)>,
    reason: Reason,
    restart: Option<Seat>,
) -> Played {
    let left: Vec<Seat> = pos.seats_in_game().collect();
    let mut places: Places = match &reason {
        Reason::LastSorcerer => vec![left],
        Reason::TurnLimit(_) | Reason::Repetition(_) => vec![left],
        Reason::Forfeit { seat, .. } => vec![
            left.iter().copied().filter(|s| s != seat).collect(),
            vec![*seat],
        ],
    };
    places.retain(|g| !g.is_empty());
    for s in eliminated.iter().rev() {
        places.push(vec![*s]);
    }
    let mut tcs: Vec<String> = Vec::new();
    for s in seats {
        let t = format!("{}={}", s.name, s.tc);
        if !tcs.contains(&t) {
            tcs.push(t);
        }
    }
    Played {
        record: GameRecord {
            number,
            players,
            seats: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
            opening: opening.label.clone(),
            start: start_text.to_string(),
            opening_steps: opening.steps.len(),
            time_control: tcs.join(" "),
            places,
            reason,
            turns: turns.into_iter().filter(|t| !t.1.is_empty()).collect(),
        },
        restart,
    }
}
