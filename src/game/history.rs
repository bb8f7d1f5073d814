//! A game: a start position and the steps played since, with undo. Turn
//! boundaries follow from the rules, so the step list alone replays a game
//! (RULES.md §5).

use super::piece::Seat;
use super::position::{MAX_TURN, Position};
use super::step::{Step, StepError};
use std::fmt;

/// A step list that failed part-way: which step and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StepListError {
    /// 1-based index of the refused step in the list.
    pub index: usize,
    /// Why it was refused.
    pub error: StepError,
}

impl fmt::Display for StepListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} of the list: {}", self.index, self.error)
    }
}

impl std::error::Error for StepListError {}

/// A start position and the steps played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// `positions[i]` is the position before `steps[i]`; the last entry is
    /// the current position.
    positions: Vec<Position>,
    steps: Vec<Step>,
}

impl Game {
    /// A game from this position, no steps played.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            steps: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The steps played, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a step after checking it is legal and that the game stays
    /// within [`MAX_TURN`] turns.
    pub fn play(&mut self, step: Step) -> Result<(), StepError> {
        let pos = *self.position();
        if !pos.is_legal(step) {
            // Let the parser explain why.
            pos.parse_step(&step.to_string())?;
        }
        self.push_within_max_turn(step, &step.to_string())
    }

    /// Plays a step given as text (checked as [`Self::play`] does).
    pub fn play_text(&mut self, text: &str) -> Result<Step, StepError> {
        let step = self.position().parse_step(text)?;
        self.push_within_max_turn(step, text)?;
        Ok(step)
    }

    /// Plays a legal step unless it would take the game past [`MAX_TURN`]:
    /// so every position of a game can be written as an SPN and read back,
    /// and the turn counter stays far from overflowing.
    fn push_within_max_turn(&mut self, step: Step, text: &str) -> Result<(), StepError> {
        let next = self.position().after(step);
        if next.turn() > MAX_TURN {
            return Err(StepError {
                text: text.to_string(),
                column: None,
                reason: format!(
                    "the game would reach turn {}, past turn {MAX_TURN}, the last a game may \
                     reach (MAX_TURN)",
                    next.turn()
                ),
            });
        }
        self.steps.push(step);
        self.positions.push(next);
        Ok(())
    }

    /// Plays space-separated steps; if one is refused, none is played.
    pub fn play_all(&mut self, text: &str) -> Result<(), StepListError> {
        let before = self.steps.len();
        for (i, t) in text.split_whitespace().enumerate() {
            if let Err(error) = self.play_text(t) {
                while self.steps.len() > before {
                    self.undo();
                }
                return Err(StepListError {
                    index: i + 1,
                    error,
                });
            }
        }
        Ok(())
    }

    /// Takes back the last step; `None` at the start.
    pub fn undo(&mut self) -> Option<Step> {
        let step = self.steps.pop()?;
        self.positions.pop();
        Some(step)
    }

    /// The steps grouped into turns: who played and the steps of each turn.
    pub fn turns(&self) -> Vec<(Seat, Vec<Step>)> {
        let mut turns: Vec<(Seat, Vec<Step>)> = Vec::new();
        for (i, &step) in self.steps.iter().enumerate() {
            let before = &self.positions[i];
            let starts_turn = i == 0 || self.positions[i - 1].turn() != before.turn();
            match turns.last_mut() {
                Some(t) if !starts_turn => t.1.push(step),
                _ => turns.push((before.side_to_move(), vec![step])),
            }
        }
        turns
    }

    /// Seats eliminated during the game, first out first. In a 3-4 player
    /// game the last one out finishes second.
    pub fn eliminations(&self) -> Vec<Seat> {
        let mut out = Vec::new();
        for w in self.positions.windows(2) {
            for seat in Seat::ALL {
                if w[0].in_game(seat) && !w[1].in_game(seat) {
                    out.push(seat);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_undo_and_turns() {
        let mut g = Game::new(Position::start(2).unwrap());
        g.play_all("e2e3 e8e7 f8f7 e3e4 d2d3 f2f3").unwrap();
        let turns: Vec<(char, String)> = g
            .turns()
            .iter()
            .map(|(s, v)| {
                let t: Vec<String> = v.iter().map(|s| s.to_string()).collect();
                (s.letter(), t.join(" "))
            })
            .collect();
        assert_eq!(
            turns,
            [
                ('r', "e2e3".to_string()),
                ('g', "e8e7 f8f7".to_string()),
                ('r', "e3e4 d2d3 f2f3".to_string())
            ]
        );
        assert_eq!(g.position().side_to_move(), Seat::Green);
        assert_eq!(g.undo().map(|s| s.to_string()), Some("f2f3".into()));
        assert_eq!(g.position().side_to_move(), Seat::Red);
        assert_eq!(g.steps().len(), 5);
    }

    #[test]
    fn a_refused_step_list_leaves_the_game_unchanged() {
        let mut g = Game::new(Position::start(3).unwrap());
        g.play_text("e2e3").unwrap();
        let before = *g.position();
        let e = g.play_all("b5c5 b6c6 e3e5").unwrap_err();
        assert_eq!(e.index, 3);
        assert!(
            e.to_string()
                .starts_with("step 3 of the list: malformed step 'e3e5'"),
            "{e}"
        );
        assert_eq!(*g.position(), before);
        assert_eq!(g.steps().len(), 1);
        let e = g.play(Step::PASS).unwrap_err();
        assert!(e.to_string().contains("pass"), "{e}");
        assert_eq!(*g.position(), before);
    }

    #[test]
    fn a_game_may_not_go_past_max_turn() {
        let start = Position::from_spn(&format!(
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 {} - - -",
            MAX_TURN - 1
        ))
        .unwrap();
        let mut g = Game::new(start);
        g.play_all("e2e3 e3e4 d2d3 e8e7").unwrap();
        assert_eq!(g.position().turn(), MAX_TURN);
        let before = *g.position();
        // The last step of turn MAX_TURN would start turn MAX_TURN + 1.
        let e = g.play_all("e7e6 f8f7").unwrap_err();
        assert_eq!(e.index, 2);
        assert_eq!(
            e.to_string(),
            "step 2 of the list: illegal step 'f8f7': the game would reach turn 1000000001, \
             past turn 1000000000, the last a game may reach (MAX_TURN)"
        );
        assert_eq!(*g.position(), before);
        g.play_text("e7e6").unwrap();
        let before = *g.position();
        let step = before.parse_step("f8f7").unwrap();
        assert!(g.play(step).unwrap_err().to_string().contains("MAX_TURN"));
        assert!(g.play_text("f8f7").is_err());
        assert_eq!(*g.position(), before);
        // Every position of the game is a valid SPN.
        for p in g.positions() {
            assert_eq!(Position::from_spn(&p.to_spn()).unwrap(), *p);
        }
    }

    #[test]
    fn eliminations_in_order() {
        // Red throws onto the yellow sorcerer (3 players).
        let start =
            Position::from_spn("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -").unwrap();
        let mut g = Game::new(start);
        g.play_text("e3e4*n").unwrap();
        assert_eq!(g.eliminations(), [Seat::Yellow]);
    }
}
