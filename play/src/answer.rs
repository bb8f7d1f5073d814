//! An engine's answers as the match reads them, on the protocol's words
//! ([`splut_protocol::words`]) alone: an answer's steps and line
//! ([`Answer`]), refusals (`info string error: …`), and the choices of an
//! option the handshake declares. The protocol client over pipes
//! (feature `process`) and every host of the board's session read
//! engines' lines with these.

use crate::judge::Forfeit;
use splut_protocol::words;
use splut_rules::StepText;
use std::time::Duration;

/// Why the program refused, if `line` is `info string error: <why>`.
pub fn refusal(line: &str) -> Option<String> {
    let text = words::InfoString::parse(line).ok()?;
    text.error_message().map(str::to_string)
}

/// The message of an `info string error: …` line; any other line as it is.
pub fn error_text(line: &str) -> String {
    refusal(line).unwrap_or_else(|| line.to_string())
}

/// Whether `line` ends an answer: its first word is `bestmove`, whether
/// the rest reads or not ([`words::BestMove`]).
pub fn ends_answer(line: &str) -> bool {
    !matches!(
        words::BestMove::parse(line),
        Err(words::ParseError::WrongKind { .. })
    )
}

/// The choices of a combo option, from the handshake's lines
/// (`option name Algorithm type combo default auto var alphabeta var …`):
/// empty if there is no such option. Option names compare without case,
/// as the protocol's do.
pub fn option_choices<S: AsRef<str>>(ugi_lines: &[S], name: &str) -> Vec<String> {
    match words::find_option(ugi_lines, name).map(|o| o.kind) {
        Some(words::OptionKind::Combo { vars, .. }) => vars,
        _ => Vec::new(),
    }
}

/// A program's answer to `go` (or `ponderhit`).
#[derive(Clone, Debug)]
pub struct Answer {
    /// The lines it wrote, the `bestmove` line last.
    pub lines: Vec<String>,
    /// From sending the first command to reading `bestmove`.
    pub elapsed: Duration,
}

impl Answer {
    /// Its `info` lines that read ([`words::Info::parse`]), in order;
    /// `info string` lines and lines that do not read are left out.
    pub fn infos(&self) -> impl DoubleEndedIterator<Item = words::Info> + '_ {
        self.lines.iter().filter_map(|l| words::Info::parse(l).ok())
    }

    /// The principal variation of its last `info` line with one.
    pub fn pv(&self) -> Vec<String> {
        self.infos()
            .rev()
            .find(|i| !i.pv.is_empty())
            .map(|i| i.pv.iter().map(StepText::to_string).collect())
            .unwrap_or_default()
    }

    /// The steps it plays, as it wrote them: its `bestturn` (the whole
    /// rest of its turn, which `bestmove` must begin), or else its
    /// `bestmove` alone (a plain UGI engine, asked again for each step).
    /// No step (`bestmove (none)`, or none at all) is
    /// [`Forfeit::NoStep`]; a step that does not read is
    /// [`Forfeit::IllegalStep`].
    pub fn steps(&self) -> Result<Vec<String>, Forfeit> {
        let best = match self.lines.last().map(|l| words::BestMove::parse(l)) {
            Some(Ok(words::BestMove(best))) => best,
            Some(Err(e @ words::ParseError::Unreadable { .. })) => return Err(garbled(e)),
            // `bestmove` alone, or no answer line at all.
            _ => None,
        };
        let turn = self
            .lines
            .iter()
            .rev()
            .find_map(|l| match words::BestTurn::parse(l) {
                Err(words::ParseError::WrongKind { .. }) => None,
                read => Some(read),
            });
        let turn = match turn {
            None => return best.map(|s| vec![s.to_string()]).ok_or(Forfeit::NoStep),
            Some(read) => read.map_err(garbled)?.0,
        };
        let text = |steps: &[StepText]| match steps {
            [] => "(none)".to_string(),
            _ => steps
                .iter()
                .map(StepText::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        };
        match turn.first() {
            first if first != best.as_ref() => Err(Forfeit::BestMoveNotInTurn {
                best: text(best.as_slice()),
                turn: text(&turn),
            }),
            None => Err(Forfeit::NoStep),
            Some(_) => Ok(turn.iter().map(StepText::to_string).collect()),
        }
    }
}

/// An answer's line that does not read, as a forfeit: a step that does
/// not read is an illegal step (with the rules' reason, as playing it
/// would give), anything else the parser's words.
fn garbled(e: words::ParseError) -> Forfeit {
    match e {
        words::ParseError::Unreadable { found, .. } => {
            let why = StepText::parse(&found)
                .err()
                .map_or_else(|| "not a step".to_string(), |e| e.reason);
            Forfeit::IllegalStep { text: found, why }
        }
        e => Forfeit::Other(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_protocol::Score;

    fn answer(lines: &[&str]) -> Answer {
        Answer {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            elapsed: Duration::ZERO,
        }
    }

    /// Steps as their text.
    fn texts(steps: &[StepText]) -> Vec<String> {
        steps.iter().map(StepText::to_string).collect()
    }

    #[test]
    fn an_answers_info_lines_are_read_as_the_engines_words_read_them() {
        // Other engines' words, a pv cut short by them, winprob after the
        // pv, free text, a line that does not read, and a line without a pv.
        let lines = [
            "info depth 3 currmove e2e3 score cp 10 lowerbound nodes 5 tbhits 0 \
             pv e2e3 f8f7 refutation e2e3 winprob g 0.4 r 0.6",
            "info depth 4 score win 2 pv d2d3@e1 e3e4 winprob r 0.7 g 0.3",
            "info depth x pv c4c5^c3",
            "info string pv b5c5 e8e7",
            "info nodes 900 hashfull 3",
            "bestturn d2d3@e1",
            "bestmove d2d3@e1",
        ];
        let a = answer(&lines);
        let words: Vec<words::Info> = lines
            .iter()
            .filter_map(|l| words::Info::parse(l).ok())
            .collect();
        assert_eq!(a.infos().collect::<Vec<_>>(), words);
        assert_eq!(
            words.len(),
            3,
            "the free text and the unreadable line are left out"
        );
        assert_eq!(
            words[0].pv,
            [
                StepText::parse("e2e3").unwrap(),
                StepText::parse("f8f7").unwrap()
            ]
        );
        assert_eq!(words[0].score, Some(Score::Cp(10)));
        assert_eq!(
            words[0].winprob,
            [
                (splut_rules::Seat::Green, 0.4),
                (splut_rules::Seat::Red, 0.6)
            ],
            "in the line's order"
        );
        // The pv is the last line's with one, and stops at the first word
        // that is not a step.
        assert_eq!(a.pv(), texts(&words[1].pv));
        assert_eq!(a.pv(), ["d2d3@e1", "e3e4"]);
        assert_eq!(answer(&lines[..1]).pv(), ["e2e3", "f8f7"]);
        // `info string` is free text: its words are no pv.
        assert!(answer(&lines[3..]).pv().is_empty());
        assert_eq!(a.steps(), Ok(vec!["d2d3@e1".to_string()]));
    }

    #[test]
    fn answers_give_their_steps_and_line() {
        let a = answer(&[
            "info depth 2 score cp 3 pv e2e3 e8e7 f8f7",
            "bestturn e2e3",
            "bestmove e2e3",
        ]);
        assert_eq!(a.steps(), Ok(vec!["e2e3".to_string()]));
        assert_eq!(a.pv(), ["e2e3", "e8e7", "f8f7"]);
        assert_eq!(answer(&["bestmove d2d3"]).steps(), Ok(vec!["d2d3".into()]));
        assert_eq!(answer(&["bestmove"]).steps(), Err(Forfeit::NoStep));
        assert!(matches!(
            answer(&["bestturn e2e3", "bestmove d2d3"]).steps(),
            Err(Forfeit::BestMoveNotInTurn { .. })
        ));
        // As the engine's words read them: `ponder` after the step, and
        // `(none)`, are no steps.
        let a = answer(&["bestturn  e2e3 e3e4", "bestmove e2e3 ponder f8f7"]);
        assert_eq!(a.steps(), Ok(vec!["e2e3".into(), "e3e4".into()]));
        let over = answer(&["bestturn (none)", "bestmove (none)"]);
        assert_eq!(over.steps(), Err(Forfeit::NoStep));
        assert_eq!(answer(&["bestmove (none)"]).steps(), Err(Forfeit::NoStep));
        assert_eq!(
            answer(&["bestturn (none)", "bestmove e2e3"]).steps(),
            Err(Forfeit::BestMoveNotInTurn {
                best: "e2e3".into(),
                turn: "(none)".into()
            })
        );
        // A step that does not read is illegal, with the rules' reason.
        let illegal = |text: &str| Forfeit::IllegalStep {
            text: text.into(),
            why: StepText::parse(text).unwrap_err().reason,
        };
        let garbled = answer(&["bestturn e2e3 x", "bestmove e2e3"]);
        assert_eq!(garbled.steps(), Err(illegal("x")));
        assert_eq!(answer(&["bestmove e2e9"]).steps(), Err(illegal("e2e9")));
        assert_eq!(
            answer(&["bestturn", "bestmove e2e3"]).steps(),
            Err(Forfeit::Other("'bestturn' without its value".into()))
        );
        assert!(ends_answer("bestmove  (none)") && ends_answer("bestmove"));
        assert!(!ends_answer("bestmoves e2e3") && !ends_answer("bestturn e2e3"));
    }

    #[test]
    fn combo_choices_and_refusals() {
        let lines = vec![
            "id name splut".to_string(),
            "option name Algorithm type combo default auto var auto var maxn".to_string(),
            "ugiok".to_string(),
        ];
        assert_eq!(option_choices(&lines, "Algorithm"), ["auto", "maxn"]);
        assert!(option_choices(&lines, "Hash").is_empty());
        assert_eq!(option_choices(&lines, "algorithm"), ["auto", "maxn"]);
        // As the engine's words read `info string`: spaces between the
        // words, and only `error:` is an error.
        assert_eq!(
            refusal("info  string error: the game is over").as_deref(),
            Some("the game is over")
        );
        assert_eq!(refusal("info string errors: none"), None);
        assert_eq!(refusal("info depth 3 string error: x"), None);
        assert_eq!(error_text("readyok"), "readyok");
        assert_eq!(
            error_text("info string error: no such position"),
            "no such position"
        );
    }
}
