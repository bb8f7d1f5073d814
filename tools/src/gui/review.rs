//! Evaluations for the web board: win probabilities from an engine's
//! `info` lines, the engine's best turn (the hint), and the review of a
//! game, turn by turn, with its mistakes and blunders.
//!
//! A win probability comes from the engine's `winprob` words when it
//! writes them (`UCI_ShowWinProb`), else from its score through
//! [`score_to_win_probabilities`], the one place that maps a score to
//! probabilities.

pub use splut_board::marks::{StepMark, step_marks};
pub use splut_board::review::{
    BLUNDER_DROP, Evaluation, MISTAKE_DROP, TurnReview, WinProb, expected_score, fixed_places,
    judge, mark, turn_bounds, turn_mark,
};
use splut_engine::winprob::{Estimate, win_probabilities};
use splut_play::client::Client;
use splut_rules::{Game, Position, Seat};
use std::time::Duration;

/// Win probabilities from a score (`cp <x>`, `win <n>`, `loss <n>`, from
/// `mover`'s view, as protocol.md has it) among `seats`: the engine's own
/// fitted mapping ([`splut_engine::winprob::win_probabilities`], the one the
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
    let info = splut_play::client::Info::parse(line)?;
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
        .find(|l| splut_play::client::Info::parse(l).is_some_and(|i| i.score.is_some()));
    let score = last.and_then(|l| splut_play::client::Info::parse(l)?.score);
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
    let bounds = turn_bounds(game);
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
    Ok(judge(game, &evals))
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
    fn drops_are_marked() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(-0.5), None);
        assert_eq!(mark(0.10), Some("mistake"));
        assert_eq!(mark(0.19), Some("mistake"));
        assert_eq!(mark(0.2), Some("blunder"));
    }
}
