//! A game: a start position and the steps played since, with undo. Turn
//! boundaries follow from the rules, so the step list alone replays a game
//! (RULES.md §5).

use super::piece::Seat;
use super::places::Places;
use super::position::Position;
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

    /// Plays a step after checking it is legal. A game may go on past
    /// [`MAX_TURN`](super::MAX_TURN), which bounds only the turn number of
    /// an SPN read from text: every step the move generator offers is one
    /// a game takes.
    pub fn play(&mut self, step: Step) -> Result<(), StepError> {
        let pos = *self.position();
        if !pos.is_legal(step) {
            // Let the parser explain why.
            pos.parse_step(&step.to_string())?;
        }
        self.push(step);
        Ok(())
    }

    /// Plays a step given as text (checked as [`Self::play`] does).
    pub fn play_text(&mut self, text: &str) -> Result<Step, StepError> {
        let step = self.position().parse_step(text)?;
        self.push(step);
        Ok(step)
    }

    /// Plays a step known to be legal.
    fn push(&mut self, step: Step) {
        let next = self.position().after(step);
        self.steps.push(step);
        self.positions.push(next);
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

    /// Takes back the steps played at the end of the game in game turn
    /// `turn` (none if the last step was played in another turn); the
    /// steps taken back, last first.
    pub fn undo_turn(&mut self, turn: u32) -> Vec<Step> {
        let mut out = Vec::new();
        while self.positions.len() >= 2 && self.positions[self.positions.len() - 2].turn() == turn {
            out.extend(self.undo());
        }
        out
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
    /// game the last one out finishes second ([`Self::places`]).
    pub fn eliminations(&self) -> Vec<Seat> {
        self.eliminations_upto(self.steps.len()).collect()
    }

    /// Seats eliminated by the first `steps` steps, first out first: at
    /// most one a step (see [`Places`]).
    fn eliminations_upto(&self, steps: usize) -> impl Iterator<Item = Seat> + '_ {
        let positions = &self.positions[..=steps.min(self.steps.len())];
        positions.windows(2).flat_map(|w| {
            Seat::ALL
                .into_iter()
                .filter(|&seat| w[0].in_game(seat) && !w[1].in_game(seat))
        })
    }

    /// The finishing places as the game stands (RULES.md §4): the seats
    /// still in share the first place — the winner alone once the game is
    /// over, several if a match ends it there by a draw — then the seats
    /// eliminated, last out first, each a place of its own (no two seats
    /// go out on one step or in one turn: [`Places`] says why). Seats out
    /// before the start position have no place; the places count the
    /// seats in at the start. A match that ends the game by a forfeit
    /// places the forfeiting seat with [`Places::with_forfeit`].
    pub fn places(&self) -> Places {
        self.places_at(self.steps.len())
    }

    /// The places as they stood after the game's first `steps` steps (all
    /// of them if there are fewer), as [`Self::places`] gives them.
    pub fn places_at(&self, steps: usize) -> Places {
        let mut places = Places::new(self.start.seats_in_game());
        for seat in self.eliminations_upto(steps) {
            places.eliminate(seat);
        }
        places
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MAX_TURN;

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
    fn undo_turn_takes_back_one_turns_steps() {
        let mut g = Game::new(Position::start(2).unwrap());
        g.play_all("e2e3 e8e7 f8f7 e3e4 d2d3").unwrap();
        // Red's third turn (game turn 2) is half played: its two steps go.
        let turn = g.position().turn();
        let back: Vec<String> = g.undo_turn(turn).iter().map(|s| s.to_string()).collect();
        assert_eq!(back, ["d2d3", "e3e4"]);
        assert_eq!(g.steps().len(), 3);
        // No step of the turn to move: nothing goes.
        assert!(g.undo_turn(g.position().turn()).is_empty());
        // Green's whole turn, named by its number.
        let green = g.positions()[1].turn();
        assert_eq!(g.undo_turn(green).len(), 2);
        assert_eq!(g.steps().len(), 1);
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
    fn a_game_plays_on_past_max_turn() {
        let start = Position::from_spn(&format!(
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 {} - - -",
            MAX_TURN - 1
        ))
        .unwrap();
        let mut g = Game::new(start);
        g.play_all("e2e3 e3e4 d2d3 e8e7").unwrap();
        assert_eq!(g.position().turn(), MAX_TURN);
        // The last step of turn MAX_TURN starts turn MAX_TURN + 1, like
        // the last step of any turn (MAX_TURN bounds the SPN text only).
        g.play_all("e7e6 f8f7").unwrap();
        let p = *g.position();
        assert_eq!((p.side_to_move(), p.turn()), (Seat::Red, MAX_TURN + 1));
        let step = p.parse_step("e4e5").unwrap();
        g.play(step).unwrap();
        assert_eq!(g.turns().len(), 3);
        // Written with its true number, which an SPN read from text may
        // not give: the error says how to set such a game up.
        let spn = g.position().to_spn();
        assert!(spn.contains(" 1000000001 "), "{spn}");
        let e = Position::from_spn(&spn).unwrap_err();
        assert!(
            e.to_string().contains("its start position and its steps"),
            "{e}"
        );
        // Every position of the game is written and read back.
        for p in g.positions() {
            assert_eq!(Position::from_written_spn(&p.to_spn()), Ok(*p));
        }
    }

    /// Plays every line of steps to the end of the current turn of `g`,
    /// checking that the game takes every step the move generator offers;
    /// returns how many lines there are.
    fn every_turn_is_playable(g: &mut Game) -> u64 {
        let p = *g.position();
        let mut lines = 0;
        for step in p.legal_step_vec() {
            g.play(step)
                .unwrap_or_else(|e| panic!("{} then {step}: {e}", p.to_spn()));
            let q = *g.position();
            lines += if q.turn() == p.turn() && !q.is_game_over() {
                every_turn_is_playable(g)
            } else {
                1
            };
            g.undo();
        }
        lines
    }

    #[test]
    fn the_steps_offered_at_max_turn_are_the_steps_a_game_takes() {
        for (spn, steps) in [
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R", 1),
            ("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R", 3),
            ("R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R", 3),
        ] {
            let p = Position::from_spn(&format!("{spn} r {steps} {MAX_TURN} - - -")).unwrap();
            let mut g = Game::new(p);
            let lines = every_turn_is_playable(&mut g);
            assert!(lines >= p.legal_step_count() as u64, "{spn}: {lines}");
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

    /// The places of `g` as text.
    fn places(g: &Game) -> String {
        g.places().to_string()
    }

    #[test]
    fn two_players_the_winner_then_the_one_out() {
        // Red's troll throws the rock on e4 north onto green's sorcerer.
        let start = Position::from_spn("R/gTgD1/5/3gS3/R7R/3R3/2rT2/rSrD1/1 r 3 10 - - -").unwrap();
        let mut g = Game::new(start);
        assert_eq!(places(&g), "r = g", "still running: both in");
        g.play_text("e2f2").unwrap();
        assert_eq!(places(&g), "r = g");
        g.play_text("e3e4*n").unwrap();
        assert!(g.position().is_game_over());
        let p = g.places();
        assert_eq!(p.to_string(), "r > g");
        assert_eq!(
            (p.place_of(Seat::Red), p.place_of(Seat::Green)),
            (Some(1), Some(2))
        );
        assert_eq!(
            (p.points_of(Seat::Red), p.points_of(Seat::Green)),
            (Some(1.0), Some(-1.0))
        );
        assert_eq!(
            p.decided().collect::<Vec<_>>(),
            [(Seat::Red, 1), (Seat::Green, 2)]
        );
        // Before the throw, and past the end (all the steps).
        assert_eq!(g.places_at(1).to_string(), "r = g");
        assert_eq!(g.places_at(1).decided().count(), 0);
        assert_eq!(g.places_at(99), p);
        // Taking the throw back takes the places back.
        g.undo();
        assert_eq!(places(&g), "r = g");
    }

    #[test]
    fn three_players_a_draw_and_a_forfeit() {
        // Red throws onto the yellow sorcerer (3 players).
        let start =
            Position::from_spn("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -").unwrap();
        let mut g = Game::new(start);
        assert_eq!(places(&g), "r = y = g");
        g.play_text("e3e4*n").unwrap();
        assert!(!g.position().is_game_over());
        let p = g.places();
        // A draw here: red and green share the first place (and its
        // points, the mean of the first's and second's: 1/2 each).
        assert_eq!(p.to_string(), "r = g > y");
        assert_eq!(p.place_of(Seat::Green), Some(1));
        assert_eq!(p.points_of(Seat::Green), Some(0.5));
        assert_eq!(p.decided().collect::<Vec<_>>(), [(Seat::Yellow, 3)]);
        // Green forfeits: below red, above yellow (out before).
        let f = p.with_forfeit(Seat::Green);
        assert_eq!(f.to_string(), "r > g > y");
        assert_eq!(f.points_of(Seat::Green), Some(0.0));
        assert_eq!(
            p.with_forfeit(Seat::Yellow),
            p,
            "a seat out has its place already"
        );
    }

    #[test]
    fn four_players_the_order_of_elimination() {
        // Red throws onto yellow's sorcerer; blue, green and red still in.
        let start =
            Position::from_spn("R/gTgDgS/4bD/3yS2bS/RyD6R/yT2R2bT/rD1rT2/rS2/1 r 3 10 - - -")
                .unwrap();
        let mut g = Game::new(start);
        assert_eq!(places(&g), "r = y = g = b");
        g.play_text("e3e4*n").unwrap();
        assert_eq!(places(&g), "r = g = b > y");
        let p = g.places();
        assert_eq!(p.place_of(Seat::Yellow), Some(4));
        assert_eq!(p.points_of(Seat::Yellow), Some(-1.0));
        // Two left at a draw share places 1 and 2, blue forfeiting is
        // third.
        assert_eq!(p.with_forfeit(Seat::Blue).to_string(), "r = g > b > y");
        // The seats in at the start are placed, not those out before.
        let from_three = Game::new(*g.position());
        assert_eq!(places(&from_three), "r = g = b");
    }

    /// A random game of `players` from the start, to its end or `most`
    /// steps.
    fn random_game(players: usize, seed: u64, most: usize) -> Game {
        let mut g = Game::new(Position::start(players).unwrap());
        let mut rng = seed;
        while !g.position().is_game_over() && g.steps().len() < most {
            let legal = g.position().legal_step_vec();
            let k = (crate::splitmix64(&mut rng) % legal.len() as u64) as usize;
            g.play(legal[k]).unwrap();
        }
        g
    }

    #[test]
    fn places_follow_the_eliminations_one_seat_a_step_one_a_turn() {
        let mut finished = 0;
        for seed in 0..24 {
            let players = 2 + seed as usize % 3;
            let g = random_game(players, seed, 4000);
            // At most one seat out per step and per turn: no shared
            // place among the seats out.
            let mut turn_out = (0, 0);
            for (i, w) in g.positions().windows(2).enumerate() {
                let out = w[0].players_left() - w[1].players_left();
                assert!(out <= 1, "seed {seed}: step {i} put {out} seats out");
                if w[0].turn() != turn_out.0 {
                    turn_out = (w[0].turn(), 0);
                }
                turn_out.1 += out;
                assert!(
                    turn_out.1 <= 1,
                    "seed {seed}: turn {} put two out",
                    turn_out.0
                );
            }
            let p = g.places();
            let out = g.eliminations();
            let left: Vec<Seat> = g.position().seats_in_game().collect();
            let mut want: Vec<Vec<Seat>> = vec![left.clone()];
            want.extend(out.iter().rev().map(|&s| vec![s]));
            assert_eq!(p.to_groups(), want, "seed {seed}");
            assert_eq!(p.len(), players);
            for (k, &s) in out.iter().enumerate() {
                assert_eq!(p.place_of(s), Some(players - k), "seed {seed}");
            }
            if let Some(w) = g.position().winner() {
                finished += 1;
                assert_eq!(p.place_of(w), Some(1));
                assert_eq!(p.decided().count(), players);
            } else {
                assert_eq!(p.decided().count(), out.len());
            }
            // Places as the game stood after some of its steps.
            let n = g.steps().len();
            for k in (0..=n).step_by(n / 40 + 1).chain([n]) {
                let at = g.places_at(k);
                assert_eq!(at.len(), players);
                assert_eq!(
                    at.decided().count(),
                    players - g.positions()[k].players_left() as usize
                        + usize::from(g.positions()[k].is_game_over()),
                );
            }
        }
        assert!(finished >= 12, "{finished} of 24 games finished");
    }
}
