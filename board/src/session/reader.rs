//! An engine's lines read for the board's session ([`super`]), by the
//! protocol's words ([`splut_protocol::words`]) and the match's reading
//! of an answer ([`splut_play::answer::Answer::steps`]): the one reader
//! both of the session's hosts use, `splut gui` (tools) and the static
//! board (web).

use super::{EngineEvent, InfoView, WinProb};
use splut_play::answer::{Answer, ends_answer};
use splut_protocol::Score;
use splut_protocol::winprob::{Estimate, win_probabilities};
use splut_protocol::words::{self, Info, Line};
use splut_rules::{Position, Seat};
use std::time::Duration;

/// Win probabilities from a score (from `mover`'s view, as protocol.md
/// has it) among `seats`: the engine's own fitted mapping
/// ([`splut_protocol::winprob::win_probabilities`], the one the `winprob`
/// words of its `info` lines come from), so the board and the engine
/// agree. `None` if `mover` is not among `seats`.
pub fn score_to_win_probabilities(score: Score, mover: Seat, seats: &[Seat]) -> Option<WinProb> {
    if !seats.contains(&mover) {
        return None;
    }
    Some(win_probabilities(seats, mover, Estimate::from(score)))
}

/// An `info` line's `winprob` chances, normalised to sum to 1, in the
/// line's order; `None` if there are none (or they sum to 0).
pub fn normalised(chances: &[(Seat, f64)]) -> Option<WinProb> {
    let sum: f64 = chances.iter().map(|x| x.1).sum();
    if chances.is_empty() || sum <= 0.0 {
        return None;
    }
    Some(chances.iter().map(|&(s, p)| (s, p / sum)).collect())
}

/// The win probabilities a search's report gives: its `winprob`, else its
/// score read from the side to move's view in `pos`.
pub fn info_win_probabilities(info: &Info, pos: &Position) -> Option<WinProb> {
    normalised(&info.winprob).or_else(|| {
        let seats: Vec<Seat> = pos.seats_in_game().collect();
        score_to_win_probabilities(info.score?, pos.side_to_move(), &seats)
    })
}

/// A search's report as the page reads it, from the line as
/// [`Info::parse`] reads it.
pub fn info_view(i: &Info) -> InfoView {
    InfoView {
        depth: i.depth,
        score: i.score.map(|s| s.to_string()),
        nodes: i.nodes,
        time: i.time_ms,
        pv: i.pv.iter().map(|s| s.to_string()).collect(),
    }
}

/// Reads one engine's lines, one at a time, into the session's events:
/// it keeps the `bestturn` line until the `bestmove` that ends the
/// answer.
#[derive(Clone, Debug, Default)]
pub struct EngineReader {
    /// The last `bestturn` line of the answer being read.
    bestturn: Option<String>,
}

impl EngineReader {
    /// A reader for a fresh engine.
    pub fn new() -> EngineReader {
        EngineReader::default()
    }

    /// Forgets the answer being read (a new engine was started).
    pub fn reset(&mut self) {
        self.bestturn = None;
    }

    /// What `line` tells the session, if anything; `searched` is the
    /// position the engine's live search is about
    /// ([`super::Session::searched`]), in which an `info`
    /// line's score is read as win probabilities.
    pub fn read(&mut self, line: &str, searched: Option<&Position>) -> Option<EngineEvent> {
        if ends_answer(line) {
            let mut lines: Vec<String> = self.bestturn.take().into_iter().collect();
            lines.push(line.to_string());
            let answer = Answer {
                lines,
                elapsed: Duration::ZERO,
            };
            return Some(EngineEvent::Answer(answer.steps()));
        }
        if !matches!(
            words::BestTurn::parse(line),
            Err(words::ParseError::WrongKind { .. })
        ) {
            self.bestturn = Some(line.to_string());
            return None;
        }
        match Line::parse(line) {
            Ok(Line::Info(info)) => {
                let winprob = searched.and_then(|p| info_win_probabilities(&info, p));
                Some(EngineEvent::Info(info_view(&info), winprob))
            }
            Ok(Line::InfoString(text)) => text
                .error_message()
                .map(|e| EngineEvent::Refused(e.to_string())),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use splut_play::judge::Forfeit;

    /// The page's view of `line`, as JSON.
    fn view(line: &str) -> serde_json::Value {
        let info = Info::parse(line).unwrap();
        serde_json::to_value(info_view(&info)).unwrap()
    }

    const R: Seat = Seat::Red;
    const Y: Seat = Seat::Yellow;
    const G: Seat = Seat::Green;
    const B: Seat = Seat::Blue;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The `winprob` words of an `info` line, normalised; `None` if it
    /// has none or does not read.
    fn parse_winprob(line: &str) -> Option<WinProb> {
        normalised(&Info::parse(line).ok()?.winprob)
    }

    /// The win probabilities an `info` line gives in `pos`.
    fn line_win_probabilities(line: &str, pos: &Position) -> Option<WinProb> {
        info_win_probabilities(&Info::parse(line).ok()?, pos)
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
    fn the_page_sees_info_lines_as_the_engines_words_read_them() {
        // The engine's own line: the JSON the page has always read.
        assert_eq!(
            view(
                "info depth 3 seldepth 4 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 \
                 pv d2d3@e1 e3e4 winprob r 0.61 g 0.39"
            ),
            json!({"depth": 3, "score": "cp -14", "nodes": 120, "time": 5,
                   "pv": ["d2d3@e1", "e3e4"]})
        );
        // Other engines' words skipped, the pv ending at the first word
        // that is no step, the score as the words print it.
        let line = "info currmove e2e3 depth 2 score win 3 lowerbound pv e2e3 f8f7 \
                    refutation e2e3 tbhits 0 nodes 7";
        let info = Info::parse(line).unwrap();
        assert_eq!(info.pv.len(), 2);
        assert_eq!(
            view(line),
            json!({"depth": 2, "score": "win 3", "nodes": 7, "time": null,
                   "pv": ["e2e3", "f8f7"]})
        );
        // None of the page's fields: an empty view, which the session
        // does not show over the last one.
        let info = Info::parse("info currmove e2e3 hashfull 3").unwrap();
        assert_eq!(info_view(&info), InfoView::default());
    }

    #[test]
    fn lines_become_the_sessions_events() {
        let pos = Position::start(2).unwrap();
        let mut r = EngineReader::new();
        for quiet in ["ugiok", "readyok", "id name splut", "info string hello"] {
            assert_eq!(r.read(quiet, Some(&pos)), None, "{quiet}");
        }
        match r.read("info depth 2 score cp 0 pv e2e3", Some(&pos)) {
            Some(EngineEvent::Info(v, Some(w))) => {
                assert_eq!(v.depth, Some(2));
                assert_eq!(w.len(), 2);
            }
            e => panic!("{e:?}"),
        }
        // No live search: no probabilities.
        assert!(matches!(
            r.read("info depth 2 score cp 0", None),
            Some(EngineEvent::Info(_, None))
        ));
        assert_eq!(
            r.read("info string error: no such algorithm", None),
            Some(EngineEvent::Refused("no such algorithm".into()))
        );
        // The whole turn from `bestturn`, ended by its `bestmove`.
        assert_eq!(r.read("bestturn e2e3 e3e4", None), None);
        assert_eq!(
            r.read("bestmove e2e3", None),
            Some(EngineEvent::Answer(Ok(vec!["e2e3".into(), "e3e4".into()])))
        );
        // The `bestturn` was used: the next answer is `bestmove` alone.
        assert_eq!(
            r.read("bestmove d2d3", None),
            Some(EngineEvent::Answer(Ok(vec!["d2d3".into()])))
        );
        assert_eq!(
            r.read("bestmove (none)", None),
            Some(EngineEvent::Answer(Err(Forfeit::NoStep)))
        );
        r.read("bestturn e2e3", None);
        r.reset();
        assert_eq!(
            r.read("bestmove d2d3", None),
            Some(EngineEvent::Answer(Ok(vec!["d2d3".into()])))
        );
    }
}
