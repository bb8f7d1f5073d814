//! Evaluations for the web board: win probabilities from an engine's
//! `info` lines, the engine's best turn (the hint), and the review of a
//! game, turn by turn, with its mistakes and blunders.
//!
//! A win probability comes from the engine's `winprob` words when it
//! writes them (`UCI_ShowWinProb`), else from its score through
//! [`score_to_win_probabilities`], the one place that maps a score to
//! probabilities.

use super::session::winprob_json;
use crate::game::{Game, Position, Seat, StepKind};
use crate::play::client::Client;
use crate::winprob::{Estimate, win_probabilities};
use serde::Serialize;
use std::time::Duration;

/// A turn whose mover's expected score ([`expected_score`]) drops by this
/// much or more is a mistake.
pub const MISTAKE_DROP: f64 = 0.10;

/// A turn whose mover's expected score drops by this much or more is a
/// blunder.
pub const BLUNDER_DROP: f64 = 0.20;

/// Each seat's chance to win, as `(seat letter, probability)`, summing
/// to 1.
pub type WinProb = Vec<(char, f64)>;

/// Win probabilities from a score (`cp <x>`, `win <n>`, `loss <n>`, from
/// `mover`'s view, as protocol.md has it) among `seats`: the engine's own
/// fitted mapping ([`crate::winprob::win_probabilities`], the one the
/// `winprob` words of its `info` lines come from), so the board and the
/// engine agree. `None` for a score it cannot read.
pub fn score_to_win_probabilities(score: &str, mover: char, seats: &[char]) -> Option<WinProb> {
    let seat = |c: char| Seat::from_letter(c);
    let mover_seat = seat(mover)?;
    let in_game: Vec<Seat> = seats.iter().map(|&c| seat(c)).collect::<Option<_>>()?;
    if !in_game.contains(&mover_seat) {
        return None;
    }
    let mut words = score.split_whitespace();
    let kind = words.next()?;
    let value: f64 = words.next()?.parse().ok()?;
    let estimate = match kind {
        "cp" if value.is_finite() => Estimate::Cp(value.clamp(-1e9, 1e9) as i32),
        "win" => Estimate::Win,
        "loss" => Estimate::Loss,
        _ => return None,
    };
    Some(
        win_probabilities(&in_game, mover_seat, estimate)
            .into_iter()
            .map(|(s, p)| (s.letter(), p))
            .collect(),
    )
}

/// The `winprob <seat> <p> …` words of an `info` line, normalised to sum
/// to 1; `None` if it has none (or they do not read).
pub fn parse_winprob(line: &str) -> Option<WinProb> {
    let mut words = line.split_whitespace().skip_while(|w| *w != "winprob");
    words.next()?;
    let mut out: WinProb = Vec::new();
    let mut words = words.peekable();
    while let Some(w) = words.peek() {
        let mut chars = w.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            break;
        };
        if Seat::from_letter(c).is_none() {
            break;
        }
        words.next();
        let p: f64 = words.next()?.parse().ok()?;
        if !(0.0..=1.0).contains(&p) || out.iter().any(|x| x.0 == c) {
            return None;
        }
        out.push((c, p));
    }
    let sum: f64 = out.iter().map(|x| x.1).sum();
    if out.is_empty() || sum <= 0.0 {
        return None;
    }
    Some(out.into_iter().map(|(c, p)| (c, p / sum)).collect())
}

/// The win probabilities an `info` line gives: its `winprob`, else its
/// score read from the side to move's view in `pos`.
pub fn line_win_probabilities(line: &str, pos: &Position) -> Option<WinProb> {
    if let Some(w) = parse_winprob(line) {
        return Some(w);
    }
    let info = crate::play::client::Info::parse(line)?;
    let seats: Vec<char> = pos.seats_in_game().map(|s| s.letter()).collect();
    score_to_win_probabilities(info.score.as_deref()?, pos.side_to_move().letter(), &seats)
}

/// The end of a game as probabilities: the winner 1, the others 0.
fn decided(pos: &Position, seats: &[char]) -> WinProb {
    let w = pos.winner().map(|s| s.letter());
    seats
        .iter()
        .map(|&s| (s, if Some(s) == w { 1.0 } else { 0.0 }))
        .collect()
}

/// What an engine thinks of a position.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// Its last score (`cp 14`, `win 3`), if it searched.
    pub score: Option<String>,
    /// Each seat's chance to win.
    pub winprob: WinProb,
    /// Its best turn from here (the rest of the side to move's turn).
    pub best: Vec<String>,
}

/// Asks `engine` for `go movetime <ms>` on `start` after `steps` (which
/// lead to `pos`); a finished game is decided without asking. `seats` are
/// the game's seats (probabilities for seats out of the game are 0).
pub fn evaluate(
    engine: &mut Client,
    start: &str,
    steps: &[String],
    pos: &Position,
    seats: &[char],
    ms: u64,
) -> Result<Evaluation, String> {
    if pos.is_game_over() {
        return Ok(Evaluation {
            score: None,
            winprob: decided(pos, seats),
            best: Vec::new(),
        });
    }
    let mut cmd = format!("position spn {start}");
    if !steps.is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&steps.join(" "));
    }
    let limit = Duration::from_millis(ms) + Duration::from_secs(10);
    let answer = engine
        .think(&cmd, &format!("go movetime {ms}"), limit)
        .map_err(|e| e.to_string())?;
    let best = answer.steps().map_err(|e| e.to_string())?;
    let last = answer
        .lines
        .iter()
        .rev()
        .find(|l| crate::play::client::Info::parse(l).is_some_and(|i| i.score.is_some()));
    let score = last.and_then(|l| crate::play::client::Info::parse(l)?.score);
    let probs = last.and_then(|l| line_win_probabilities(l, pos));
    // Every seat of the game, those out of it at 0.
    let winprob = seats
        .iter()
        .map(|&s| {
            let p = probs.as_ref().and_then(|w| w.iter().find(|x| x.0 == s));
            (s, p.map_or(0.0, |x| x.1))
        })
        .collect();
    Ok(Evaluation {
        score,
        winprob,
        best: best.into_iter().filter(|s| s != "(none)").collect(),
    })
}

/// How to draw a step as an arrow: the mover's squares, a levitated or
/// pulled rock's, and a thrown rock's flight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepMark {
    /// The step's text.
    pub step: String,
    /// The mover's square before it (`None` for `pass`).
    pub from: Option<String>,
    /// Its square after it.
    pub to: Option<String>,
    /// A rock moved along: its square before and after (levitation, pull).
    pub rock: Option<(String, String)>,
    /// A thrown rock's flight: the squares it passes, its landing last.
    pub flight: Vec<String>,
}

/// The marks of `steps` played one after another from `pos`; a step that
/// is not legal there ends the list.
pub fn step_marks(pos: &Position, steps: &[String]) -> Vec<StepMark> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for text in steps {
        let Ok(step) = pos.parse_step(text) else {
            break;
        };
        let next = pos.after(step);
        let mut mark = StepMark {
            step: text.clone(),
            from: None,
            to: None,
            rock: None,
            flight: Vec::new(),
        };
        if !step.is_pass() {
            mark.from = Some(step.from().to_string());
            mark.to = Some(step.to().to_string());
        }
        if let Some(r) = step.rock() {
            let to = match step.kind() {
                StepKind::Pull => Some(step.from()),
                _ => r.neighbour(step.direction()),
            };
            mark.rock = to.map(|t| (r.to_string(), t.to_string()));
        }
        if let Some(dir) = step.throw_direction() {
            let landing = (next.rocks() & !pos.rocks()).lowest();
            let mut sq = step.to();
            while let Some(n) = sq.neighbour(dir) {
                mark.flight.push(n.to_string());
                if Some(n) == landing || mark.flight.len() > 9 {
                    break;
                }
                sq = n;
            }
        }
        out.push(mark);
        pos = next;
    }
    out
}

/// The places fixed after the game's first `upto` steps: each seat out by
/// then (the first out last of `n`, the next one place up, …) and, in a
/// finished game, the winner first.
pub fn fixed_places(game: &Game, upto: usize) -> Vec<(char, usize)> {
    let positions = &game.positions()[..=upto.min(game.positions().len() - 1)];
    let n = positions[0].seats_in_game().count();
    let mut out = Vec::new();
    for w in positions.windows(2) {
        for seat in Seat::ALL {
            if w[0].in_game(seat) && !w[1].in_game(seat) {
                out.push((seat.letter(), n - out.len()));
            }
        }
    }
    let last = positions[positions.len() - 1];
    if last.is_game_over()
        && let Some(w) = last.winner()
    {
        out.push((w.letter(), 1));
    }
    out
}

/// A seat's expected score on the game's whole scale: place k of `n` is
/// worth (n − k)/(n − 1), 1 for a win and 0 for last (for 2 players, the
/// chance to win). A seat whose place is fixed (`places`: out, or the
/// winner) has its place's worth. A seat still in the game wins with its
/// chance in `winprob` (taken among the seats still in, rescaled to sum to
/// 1); otherwise its place is taken as spread evenly over the places
/// 2..k left to the k seats still in, an approximation (the engine gives a
/// chance to win, not a distribution of places). One scale before and
/// after a kill: the 3-seat chances before a throw and the 2-seat ones
/// after it give comparable scores, and the place of the seat killed
/// counts for the others.
pub fn expected_score(
    seat: char,
    winprob: &[(char, f64)],
    places: &[(char, usize)],
    n: usize,
) -> f64 {
    if n < 2 {
        return 1.0;
    }
    let worth = |place: f64| (n as f64 - place) / (n as f64 - 1.0);
    if let Some(&(_, place)) = places.iter().find(|x| x.0 == seat) {
        return worth(place as f64);
    }
    let fixed = |c: char| places.iter().any(|x| x.0 == c);
    let sum: f64 = winprob.iter().filter(|x| !fixed(x.0)).map(|x| x.1).sum();
    let p = winprob
        .iter()
        .find(|x| x.0 == seat)
        .map_or(0.0, |x| if sum > 0.0 { x.1 / sum } else { 0.0 });
    // Seats still in: those without a fixed place.
    let k = (n - places.len()).max(1) as f64;
    let place = p + (1.0 - p) * (2.0 + k) / 2.0;
    worth(place).clamp(0.0, 1.0)
}

/// One turn of a reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct TurnReview {
    /// The turn's place in the game's list of turns (0 first).
    pub index: usize,
    /// Its mover.
    pub seat: char,
    /// The steps played.
    pub steps: Vec<String>,
    /// How many steps of the game come before it.
    pub first_step: usize,
    /// The mover's expected score before the turn ([`expected_score`]: 1
    /// a win, 0 last place; for 2 players its chance to win).
    pub before: f64,
    /// The mover's expected score after it.
    pub after: f64,
    /// `before − after` (negative when the turn did better than expected).
    pub drop: f64,
    /// `mistake` or `blunder` (see [`MISTAKE_DROP`], [`BLUNDER_DROP`]);
    /// never for a turn equal to the engine's own choice (`best`).
    pub mark: Option<&'static str>,
    /// The engine's score before the turn, from the mover's view.
    pub score: Option<String>,
    /// The turn the engine would have played.
    pub best: Vec<String>,
    /// How to draw it.
    pub best_marks: Vec<StepMark>,
    /// Every seat's chance before the turn (`{"r": 0.6, …}`).
    pub winprob: serde_json::Value,
    /// Every seat's chance after it.
    pub winprob_after: serde_json::Value,
}

/// The mark of a drop in win probability.
pub fn mark(drop: f64) -> Option<&'static str> {
    if drop >= BLUNDER_DROP {
        Some("blunder")
    } else if drop >= MISTAKE_DROP {
        Some("mistake")
    } else {
        None
    }
}

/// The mark of a turn: none for the engine's own choice, else by its drop.
pub fn turn_mark(played: &[String], best: &[String], drop: f64) -> Option<&'static str> {
    if played == best {
        return None;
    }
    mark(drop)
}

/// Reviews `game` (started from `start`): every turn's position is
/// evaluated for `ms` milliseconds, and the position after the last step;
/// each turn is judged by its mover's expected score before and after it.
pub fn review(
    engine: &mut Client,
    start: &str,
    game: &Game,
    ms: u64,
) -> Result<Vec<TurnReview>, String> {
    let seats: Vec<char> = game.start().seats_in_game().map(|s| s.letter()).collect();
    let texts: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
    let turns = game.turns();
    let mut at = 0;
    let mut bounds = vec![0];
    for (_, steps) in &turns {
        at += steps.len();
        bounds.push(at);
    }
    let mut evals = Vec::with_capacity(bounds.len());
    for &b in &bounds {
        evals.push(evaluate(
            engine,
            start,
            &texts[..b],
            &game.positions()[b],
            &seats,
            ms,
        )?);
    }
    let n = seats.len();
    // The places fixed at each turn's start (and after the last), once.
    let places: Vec<_> = bounds.iter().map(|&b| fixed_places(game, b)).collect();
    let score = |k: usize, seat: char| expected_score(seat, &evals[k].winprob, &places[k], n);
    Ok(turns
        .iter()
        .enumerate()
        .map(|(i, (seat, steps))| {
            let seat = seat.letter();
            let before = score(i, seat);
            let after = score(i + 1, seat);
            let drop = before - after;
            let steps: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
            TurnReview {
                index: i,
                seat,
                mark: turn_mark(&steps, &evals[i].best, drop),
                steps,
                first_step: bounds[i],
                before,
                after,
                drop,
                score: evals[i].score.clone(),
                best: evals[i].best.clone(),
                best_marks: step_marks(&game.positions()[bounds[i]], &evals[i].best),
                winprob: winprob_json(&evals[i].winprob),
                winprob_after: winprob_json(&evals[i + 1].winprob),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn scores_map_to_probabilities_that_sum_to_one() {
        // The engine's fitted mapping, seat letters for seats.
        let two = score_to_win_probabilities("cp 0", 'r', &['r', 'g']).unwrap();
        let engine = win_probabilities(&[Seat::Red, Seat::Green], Seat::Red, Estimate::Cp(0));
        assert_eq!(two, vec![('r', engine[0].1), ('g', engine[1].1)]);
        let four = score_to_win_probabilities("cp 0", 'y', &['r', 'y', 'g', 'b']).unwrap();
        assert!(
            close(four.iter().map(|x| x.1).sum::<f64>(), 1.0),
            "{four:?}"
        );
        // The others share alike.
        assert!(close(four[0].1, four[2].1) && close(four[2].1, four[3].1));
        for (score, want) in [("win 3", 1.0), ("loss 1", 0.0)] {
            let w = score_to_win_probabilities(score, 'g', &['r', 'y', 'g']).unwrap();
            assert!(close(w[2].1, want), "{score}");
            assert!(close(w.iter().map(|x| x.1).sum::<f64>(), 1.0));
        }
        for bad in ["", "cp", "cp x", "mate 3", "cp NaN"] {
            assert_eq!(
                score_to_win_probabilities(bad, 'r', &['r', 'g']),
                None,
                "{bad}"
            );
        }
        assert_eq!(score_to_win_probabilities("cp 1", 'b', &['r', 'g']), None);
        // Higher scores, higher chances.
        let p = |x: i32| {
            score_to_win_probabilities(&format!("cp {x}"), 'r', &['r', 'g', 'b']).unwrap()[0].1
        };
        assert!(p(-300) < p(0) && p(0) < p(300));
    }

    #[test]
    fn winprob_words_are_read_and_checked() {
        let w =
            parse_winprob("info depth 3 score cp 10 winprob r 0.6 g 0.4 nodes 5 pv e2e3").unwrap();
        assert_eq!(w, vec![('r', 0.6), ('g', 0.4)]);
        let w = parse_winprob("info winprob r 2 g 2").map(|w| w.len());
        assert_eq!(w, None, "over 1");
        let w = parse_winprob("info winprob r 0.2 y 0.2 g 0.2 b 0.2").unwrap();
        assert!(w.iter().all(|x| close(x.1, 0.25)));
        for bad in [
            "info depth 3 score cp 1",
            "info winprob",
            "info winprob r x",
            "info winprob r 0.5 r 0.5",
        ] {
            assert_eq!(parse_winprob(bad), None, "{bad}");
        }
        // From the score when there are no winprob words.
        let pos = Position::start(2).unwrap();
        let w = line_win_probabilities("info depth 2 score cp 0 pv e2e3", &pos).unwrap();
        assert_eq!(
            w,
            score_to_win_probabilities("cp 0", 'r', &['r', 'g']).unwrap()
        );
    }

    #[test]
    fn steps_are_marked_for_arrows() {
        let p = Position::from_spn("R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -").unwrap();
        let steps: Vec<String> = ["d2d3@f3", "f2f3", "f3f4*n"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let m = step_marks(&p, &steps);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].rock, Some(("f3".into(), "f4".into())));
        assert_eq!(
            (m[1].from.as_deref(), m[1].to.as_deref()),
            (Some("f2"), Some("f3"))
        );
        assert_eq!(m[2].flight, ["f5", "f6", "f7", "f8"]);
        let direct = step_marks(&p, &["f2f3*w".to_string(), "e2e3".to_string()]);
        // Thrown west from f3: e3, d3 and c3, landing on c3 at the edge; the
        // turn ends there, so the next step does not read.
        assert_eq!(direct.len(), 1);
        assert_eq!(direct[0].flight, ["e3", "d3", "c3"]);
    }

    #[test]
    fn expected_scores_are_on_one_scale_across_a_kill() {
        // 2 players: the chance to win itself.
        let two = vec![('r', 0.7), ('g', 0.3)];
        assert!(close(expected_score('r', &two, &[], 2), 0.7));
        // 3 players, by hand: r wins with 0.75, else 2nd or 3rd evenly:
        // E[place] = 0.75 + 0.25 · 2.5 = 1.375, score (3 − 1.375)/2.
        let three = vec![('r', 0.75), ('y', 0.125), ('g', 0.125)];
        assert!(close(expected_score('r', &three, &[], 3), 0.8125));
        // Red kills green (3rd) and then has 0.52 against yellow: place
        // 0.52 + 0.48 · 2 = 1.48, score 0.76; green's is fixed at 0.
        let after = vec![('r', 0.52), ('y', 0.48), ('g', 0.0)];
        let out = [('g', 3)];
        assert!(close(expected_score('r', &after, &out, 3), 0.76));
        assert!(close(expected_score('g', &after, &out, 3), 0.0));
        // The drop across the kill is small: no mark (the win chance alone
        // fell from 0.75 to 0.52, a "blunder" on two scales).
        let drop = 0.8125 - 0.76;
        assert_eq!(mark(drop), None);
        // A kill that changes nothing else (red's odds against yellow the
        // same, 2 to 1) is a gain, not a drop: before, place 0.5 + 0.5 · 2.5
        // = 1.75, score 0.625; after, 2/3 + 1/3 · 2 = 4/3, score 5/6.
        let before = vec![('r', 0.5), ('y', 0.25), ('g', 0.25)];
        let after = vec![('r', 2.0 / 3.0), ('y', 1.0 / 3.0), ('g', 0.0)];
        let (b, a) = (
            expected_score('r', &before, &[], 3),
            expected_score('r', &after, &out, 3),
        );
        assert!(close(b, 0.625) && close(a, 5.0 / 6.0), "{b} {a}");
        assert_eq!(turn_mark(&["f2f3*n".into()], &["e2e3".into()], b - a), None);
        // Yellow, the one not killed, keeps its score on the same scale:
        // 0.25 + 0.75 · 2.5 = 2.125 before, 1/3 + 2/3 · 2 = 5/3 after.
        assert!(close(expected_score('y', &before, &[], 3), 0.4375));
        assert!(close(expected_score('y', &after, &out, 3), 2.0 / 3.0));
        // Even chances among 3: 1/2 each (places 1, 2, 3 on average 2).
        let even = vec![('r', 1.0 / 3.0), ('y', 1.0 / 3.0), ('g', 1.0 / 3.0)];
        assert!(close(expected_score('y', &even, &[], 3), 0.5));
        // A finished game: the winner 1, the second of 4 2/3.
        let done = [('b', 4), ('g', 3), ('y', 2), ('r', 1)];
        assert!(close(expected_score('r', &[], &done, 4), 1.0));
        assert!(close(expected_score('y', &[], &done, 4), 2.0 / 3.0));
        // Chances given to a seat that is out do not count for the others.
        let stale = vec![('r', 0.4), ('y', 0.4), ('g', 0.2)];
        assert!(close(
            expected_score('r', &stale, &out, 3),
            (3.0 - (0.5 + 0.5 * 2.0)) / 2.0
        ));
    }

    #[test]
    fn the_engines_own_turn_is_never_marked() {
        let played = vec!["f2f3*n".to_string()];
        assert_eq!(turn_mark(&played, &played, 0.5), None);
        assert_eq!(
            turn_mark(&played, &["e2e3".to_string()], 0.5),
            Some("blunder")
        );
        assert_eq!(
            turn_mark(&played, &["e2e3".to_string()], 0.15),
            Some("mistake")
        );
    }

    #[test]
    fn places_are_fixed_as_seats_go_out() {
        let start = Position::from_spn("R/gTgDgS/5/7/yS7R/yD6/3R1/rDrSyT/R r 1 3 - - -").unwrap();
        let mut game = Game::new(start);
        game.play_all("d2d3 f2f3*n").unwrap();
        assert_eq!(fixed_places(&game, 0), []);
        assert_eq!(fixed_places(&game, 1), []);
        assert_eq!(fixed_places(&game, 2), [('g', 3)]);
    }

    #[test]
    fn drops_are_marked() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(-0.5), None);
        assert_eq!(mark(0.10), Some("mistake"));
        assert_eq!(mark(0.19), Some("mistake"));
        assert_eq!(mark(0.2), Some("blunder"));
    }
}
