//! Openings: where each game starts. Seeded random openings (a number of
//! random legal steps from the standard start, replayable from the seed)
//! or an opening file, one per line: an SPN, or steps from the start
//! (`#` starts a comment).

use crate::record::Labels;
#[cfg(feature = "random")]
use rand::rngs::SmallRng;
#[cfg(feature = "random")]
use rand::{Rng, SeedableRng};
#[cfg(feature = "random")]
use splut_rules::StepList;
use splut_rules::{Game, Position, Seat, Step};

/// One opening.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Start position (standard start or an SPN).
    pub start: Position,
    /// Whether `start` is the standard start for the player count.
    pub from_startpos: bool,
    /// Steps played from `start`.
    pub steps: Vec<Step>,
    /// Where it came from, for the records.
    pub label: String,
}

impl Opening {
    /// The opening as a game: its start and its steps (every opening's
    /// steps are legal, checked when it was made; a refused one would end
    /// the game there).
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start);
        for &s in &self.steps {
            if game.play(s).is_err() {
                break;
            }
        }
        game
    }

    /// The position the game proper starts from.
    pub fn position(&self) -> Position {
        *self.game().position()
    }

    /// The labels of the record of game `number` played from this
    /// opening (see [`super::record::GameRecord::new`]).
    pub fn labels(
        &self,
        number: usize,
        seats: Vec<(Seat, String)>,
        time_control: String,
    ) -> Labels {
        Labels {
            number,
            seats,
            opening: self.label.clone(),
            from_startpos: self.from_startpos,
            opening_steps: self.steps.len(),
            time_control,
        }
    }
}

/// Most random opening steps (`--openings random:<steps>`, `splut datagen
/// --opening-steps`): longer random lines nearly always end the game or
/// leave a kill, and are drawn again.
pub const MAX_OPENING_STEPS: usize = 40;

/// Largest opening file read.
pub const MAX_OPENING_FILE: u64 = 64 << 20;

/// Draws of one random opening before giving up: long random lines nearly
/// always end the game or leave a kill, and would be drawn for ever.
pub const MAX_DRAWS: usize = 10_000;

/// `count` random openings of `steps` steps each for `players` players.
/// Opening `i` depends only on `seed` and `i`. An opening that ends the
/// game or leaves a kill on the board (see [`leaves_a_kill`]) is drawn
/// again, up to [`MAX_DRAWS`] times. Feature `random`: drawn with rand's
/// `SmallRng`, so a seed gives the openings it always gave.
#[cfg(feature = "random")]
pub fn random_openings(
    players: usize,
    steps: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let start = Position::start(players).ok_or("players must be 2, 3 or 4")?;
    (0..count)
        .map(|i| {
            let mut rng =
                SmallRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for _ in 0..MAX_DRAWS {
                let mut pos = start;
                let mut line = Vec::new();
                let mut list = StepList::new();
                for _ in 0..steps {
                    pos.legal_steps(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    let s = list[rng.random_range(0..list.len())];
                    line.push(s);
                    pos.play(s);
                }
                if !pos.is_game_over()
                    && pos.players_left() as usize == players
                    && !leaves_a_kill(&pos)
                {
                    return Ok(Opening {
                        start,
                        from_startpos: true,
                        steps: line,
                        label: format!("random {steps} steps, seed {seed}, #{}", i + 1),
                    });
                }
            }
            Err(format!(
                "random openings of {steps} steps: opening {} still ended the game or \
                 left a kill after {MAX_DRAWS} draws; use fewer steps",
                i + 1
            ))
        })
        .collect()
}

/// Whether a seat can kill at once: the side to move within what is left
/// of its turn, or any other seat within a whole turn of its own played
/// on this board (with 3–4 players a seat moving after the side to move
/// may strike before its victim has played a step). Such a game is
/// decided by its opening.
pub fn leaves_a_kill(pos: &Position) -> bool {
    pos.can_kill_this_turn()
        || pos
            .seats_in_game()
            .filter(|&o| o != pos.side_to_move())
            // A whole turn with no rock cooling: every levitation is
            // allowed, so the check errs towards seeing a kill.
            .any(|o| pos.whole_turn_of(o).is_ok_and(|p| p.can_kill_this_turn()))
}

/// Reads the opening file at `path` (at most [`MAX_OPENING_FILE`] bytes)
/// for `players` players: its openings, and its text.
pub fn read_opening_file(
    path: &std::path::Path,
    players: usize,
) -> Result<(Vec<Opening>, String), String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    if size > MAX_OPENING_FILE {
        return Err(format!(
            "{}: {size} bytes; an opening file may have at most {MAX_OPENING_FILE}",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let openings = read_openings(&text, players, &path.display().to_string())?;
    Ok((openings, text))
}

/// Reads an opening file for `players` players.
pub fn read_openings(text: &str, players: usize, name: &str) -> Result<Vec<Opening>, String> {
    let start = Position::start(players).ok_or("players must be 2, 3 or 4")?;
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = || format!("{name} line {}", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let (start_pos, from_startpos, step_words) =
            match Position::from_spn(&words[..words.len().min(7)].join(" ")) {
                Ok(p) if words.len() >= 7 => (p, false, &words[7..]),
                _ => (start, true, &words[..]),
            };
        if !from_startpos && start_pos.players_left() as usize != players {
            return Err(format!(
                "{}: the position has {} players, the tournament {players}",
                at(),
                start_pos.players_left()
            ));
        }
        let mut game = Game::new(start_pos);
        let steps = step_words
            .iter()
            .map(|t| game.play_text(t))
            .collect::<Result<Vec<Step>, _>>()
            .map_err(|e| format!("{}: {e}", at()))?;
        if game.position().is_game_over() {
            return Err(format!("{}: the opening ends the game", at()));
        }
        out.push(Opening {
            start: start_pos,
            from_startpos,
            steps,
            label: at(),
        });
    }
    if out.is_empty() {
        return Err(format!("{name}: no openings"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "random")]
    fn random_openings_are_replayable_from_the_seed() {
        let a = random_openings(3, 4, 5, 42).unwrap();
        let b = random_openings(3, 4, 5, 42).unwrap();
        assert_eq!(a.len(), 5);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.steps, y.steps);
            assert_eq!(x.steps.len(), 4);
            assert!(!x.position().is_game_over());
            assert!(!leaves_a_kill(&x.position()));
        }
        assert_ne!(
            random_openings(2, 6, 1, 1).unwrap()[0].steps,
            random_openings(2, 6, 1, 2).unwrap()[0].steps
        );
    }

    #[test]
    fn an_opening_leaving_a_later_seat_a_kill_is_refused() {
        // Green to move, but Blue can levitate i5 to h5 and throw it west
        // onto Yellow's sorcerer before Yellow has moved (a game played).
        let mut pos = Position::start(4).unwrap();
        for s in ["d2d3", "b6c6", "c6c5", "e8e7"] {
            let step = pos.parse_step(s).unwrap();
            pos.play(step);
        }
        assert!(!pos.can_kill_this_turn());
        assert!(leaves_a_kill(&pos));
        assert!(!leaves_a_kill(&Position::start(4).unwrap()));
    }

    #[test]
    fn opening_files_take_steps_or_positions() {
        let text = "# comment\ne2e3 e8e7 f8f7\n\nR/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - e2e3 # trailing\n";
        let o = read_openings(text, 2, "book").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].steps.len(), 3);
        assert!(o[0].from_startpos);
        assert!(!o[1].from_startpos);
        let e = read_openings("e2e3 e2e4\n", 2, "book").unwrap_err();
        assert!(e.starts_with("book line 1:"), "{e}");
        assert!(read_openings("\n# nothing\n", 2, "book").is_err());
        let e = read_openings("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -\n", 3, "b").unwrap_err();
        assert!(e.contains("2 players"), "{e}");
    }
}
