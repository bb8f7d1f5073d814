//! Evaluations for the web board: win probabilities from an engine's
//! `info` lines, the engine's best turn (the hint), and the review of a
//! game, turn by turn, with its mistakes and blunders.
//!
//! A win probability comes from the engine's `winprob` words when it
//! writes them (`UCI_ShowWinProb`), else from its score through
//! [`score_to_win_probabilities`], the one place that maps a score to
//! probabilities. The lines are read by the engine's own parser
//! ([`splut_play::client::words`]), as the client reads them.

pub use splut_board::marks::{StepMark, step_marks};
pub use splut_board::review::{
    BLUNDER_DROP, Evaluation, MISTAKE_DROP, TurnReview, WinProb, expected_score, fixed_places,
    judge, mark, turn_bounds, turn_mark,
};
use splut_play::client::Client;
use splut_play::client::words::Info;
use splut_play::judge::Forfeit;
use splut_rules::{Game, Position, Seat, StepText};
use splut_web::engine_reader::normalised;
/// The one reading of a search's report as win probabilities, shared with
/// the static board.
pub use splut_web::engine_reader::{info_win_probabilities, score_to_win_probabilities};
use std::time::Duration;

/// The `winprob <seat> <p> …` words of an `info` line, as
/// [`Info::parse`] reads them, normalised to sum to 1; `None` if it has
/// none (or the line does not read).
pub fn parse_winprob(line: &str) -> Option<WinProb> {
    normalised(&Info::parse(line).ok()?.winprob)
}

/// The win probabilities an `info` line gives ([`info_win_probabilities`]
/// of the line as [`Info::parse`] reads it); `None` if it does not read.
pub fn line_win_probabilities(line: &str, pos: &Position) -> Option<WinProb> {
    info_win_probabilities(&Info::parse(line).ok()?, pos)
}

/// The end of a game as probabilities: the winner 1, the others 0.
fn decided(pos: &Position, seats: &[Seat]) -> WinProb {
    let w = pos.winner();
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
    seats: &[Seat],
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
    let best = match answer.steps() {
        // The engine's steps, as it wrote them: the page draws those that
        // are legal ([`step_marks`]).
        Ok(steps) => steps
            .iter()
            .map_while(|s| StepText::parse(s).ok())
            .collect(),
        // `bestmove (none)`: no hint.
        Err(Forfeit::NoStep) => Vec::new(),
        Err(e) => return Err(e.to_string()),
    };
    let last = answer.infos().rev().find(|i| i.score.is_some());
    let score = last.as_ref().and_then(|i| i.score).map(|s| s.to_string());
    let probs = last.and_then(|i| info_win_probabilities(&i, pos));
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
        best,
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
    let seats: Vec<Seat> = game.start().seats_in_game().collect();
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
    use splut_engine::winprob::{Estimate, win_probabilities};
    use splut_play::client::words::Score;

    const R: Seat = Seat::Red;
    const Y: Seat = Seat::Yellow;
    const G: Seat = Seat::Green;
    const B: Seat = Seat::Blue;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn scores_map_to_probabilities_that_sum_to_one() {
        // The engine's fitted mapping.
        let two = score_to_win_probabilities(Score::Cp(0), R, &[R, G]).unwrap();
        let engine = win_probabilities(&[Seat::Red, Seat::Green], Seat::Red, Estimate::Cp(0));
        assert_eq!(two, vec![(R, engine[0].1), (G, engine[1].1)]);
        let four = score_to_win_probabilities(Score::Cp(0), Y, &[R, Y, G, B]).unwrap();
        assert!(
            close(four.iter().map(|x| x.1).sum::<f64>(), 1.0),
            "{four:?}"
        );
        // The others share alike.
        assert!(close(four[0].1, four[2].1) && close(four[2].1, four[3].1));
        for (score, want) in [(Score::Win(3), 1.0), (Score::Loss(1), 0.0)] {
            let w = score_to_win_probabilities(score, G, &[R, Y, G]).unwrap();
            assert!(close(w[2].1, want), "{score}");
            assert!(close(w.iter().map(|x| x.1).sum::<f64>(), 1.0));
        }
        let cp = Score::Cp(1);
        assert_eq!(score_to_win_probabilities(cp, B, &[R, G]), None);
        // Higher scores, higher chances.
        let p = |x: i32| score_to_win_probabilities(Score::Cp(x), R, &[R, G, B]).unwrap()[0].1;
        assert!(p(-300) < p(0) && p(0) < p(300));
    }

    #[test]
    fn winprob_words_are_read_and_checked() {
        let w =
            parse_winprob("info depth 3 score cp 10 winprob r 0.6 g 0.4 nodes 5 pv e2e3").unwrap();
        assert_eq!(w, vec![(R, 0.6), (G, 0.4)]);
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
            score_to_win_probabilities(Score::Cp(0), R, &[R, G]).unwrap()
        );
    }

    #[test]
    fn lines_are_read_as_the_engines_words_read_them() {
        let pos = Position::start(2).unwrap();
        let from_score = |s| score_to_win_probabilities(s, R, &[R, G]);
        // Other engines' words around winprob and a pv cut short by them;
        // the chances in the line's order.
        let line = "info depth 3 currmove e2e3 score cp 10 lowerbound pv e2e3 refutation \
                    winprob g 0.3 r 0.3 tbhits 0";
        let info = Info::parse(line).unwrap();
        assert_eq!(info.winprob, [(Seat::Green, 0.3), (Seat::Red, 0.3)]);
        assert_eq!(parse_winprob(line), Some(vec![(G, 0.5), (R, 0.5)]));
        assert_eq!(line_win_probabilities(line, &pos), parse_winprob(line));
        assert_eq!(info_win_probabilities(&info, &pos), parse_winprob(line));
        // Lines the parser refuses give nothing, though they hold winprob
        // words: free text, an unreadable field, winprob given twice.
        for refused in [
            "info string winprob r 0.6 g 0.4",
            "info depth x winprob r 0.6 g 0.4",
            "info score mate 3 winprob r 0.6 g 0.4",
            "info winprob r 0.6 g 0.4 winprob r 0.5",
            "information winprob r 0.6 g 0.4",
        ] {
            assert!(Info::parse(refused).is_err(), "{refused}");
            assert_eq!(parse_winprob(refused), None, "{refused}");
            assert_eq!(line_win_probabilities(refused, &pos), None, "{refused}");
        }
        // No winprob: the score as the parser reads it, wherever it is.
        let line = "info nodes 5 score win 2 multipv 1 pv e2e3";
        assert_eq!(Info::parse(line).unwrap().score, Some(Score::Win(2)));
        assert_eq!(
            line_win_probabilities(line, &pos),
            from_score(Score::Win(2))
        );
        // Chances that sum to 0: the score instead.
        let line = "info score cp -40 winprob r 0 g 0";
        assert_eq!(
            line_win_probabilities(line, &pos),
            from_score(Score::Cp(-40))
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
