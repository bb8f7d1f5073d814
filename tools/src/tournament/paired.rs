//! A paired comparison of two tournaments that play the same games
//! (`splut standings A… --vs B…`): the same seed, openings, rounds and
//! seatings, the first participant changed (a candidate in A, the build
//! before it in B, the same opponents). Each game's opening and seating
//! is then played by both, so the difference of the first participant's
//! place points is taken game by game: what the opening and the seat
//! decide is the same in both and cancels, and the interval of the
//! difference is narrower than the two intervals combined by as much as
//! they decide. The 3–4 player counterpart of the game pairs the
//! 2-player SPRT reads.

use super::merge::Merged;

/// The paired comparison of the first participant of A and of B.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// A's first participant.
    pub a: String,
    /// B's first participant.
    pub b: String,
    /// Games both played (and read, and found valid).
    pub games: usize,
    /// A's mean place points over those games (0 to 1).
    pub a_mean: f64,
    /// B's, over the same games.
    pub b_mean: f64,
    /// The mean of A's points less B's, game by game.
    pub diff: f64,
    /// The half-width of its 95% interval (normal approximation).
    pub half_width: f64,
}

impl Paired {
    /// Compares the first participant of `a` and of `b` over the games
    /// both have: their tournaments (one each, or pooled runs in the
    /// same order) must play the same games. An error says why not.
    pub fn of(a: &Merged, b: &Merged) -> Result<Paired, String> {
        if a.points.len() != b.points.len() {
            return Err(format!(
                "the sides pool {} and {} tournaments: pool the same runs on both",
                a.points.len(),
                b.points.len()
            ));
        }
        let mut pairs = Vec::new();
        for (i, (ra, rb)) in a.points.iter().zip(&b.points).enumerate() {
            ra.header
                .same_games(&rb.header)
                .map_err(|e| format!("tournament {} of each side: {e}", i + 1))?;
            pairs.extend(
                ra.first
                    .iter()
                    .zip(&rb.first)
                    .filter_map(|(x, y)| Some(((*x)?, (*y)?))),
            );
        }
        if pairs.is_empty() {
            return Err("no game that both first participants played".into());
        }
        let n = pairs.len() as f64;
        let diffs: Vec<f64> = pairs.iter().map(|(x, y)| x - y).collect();
        let diff = diffs.iter().sum::<f64>() / n;
        let var = if pairs.len() > 1 {
            diffs.iter().map(|d| (d - diff).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        Ok(Paired {
            a: first_name(a),
            b: first_name(b),
            games: pairs.len(),
            a_mean: pairs.iter().map(|p| p.0).sum::<f64>() / n,
            b_mean: pairs.iter().map(|p| p.1).sum::<f64>() / n,
            diff,
            half_width: 1.96 * (var / n).sqrt(),
        })
    }

    /// The comparison as `splut standings --vs` prints it, naming B's
    /// files as `against`.
    pub fn report(&self, against: &str) -> String {
        // The same name on both sides (two builds of one engine) reads
        // better with the sides named.
        let (a, b) = if self.a == self.b {
            (format!("{} (A)", self.a), format!("{} (B)", self.b))
        } else {
            (self.a.clone(), self.b.clone())
        };
        format!(
            "Paired against {against}, game by game (the same opening and seating):\n  \
             {a} {:.1}%, {b} {:.1}% over the {} games both played: \
             {:+.1} ± {:.1} points (95%)\n",
            100.0 * self.a_mean,
            100.0 * self.b_mean,
            self.games,
            100.0 * self.diff,
            100.0 * self.half_width,
        )
    }
}

/// The first participant's name (empty if none).
fn first_name(m: &Merged) -> String {
    m.standings.names().first().cloned().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::header::{Header, START, fnv1a};
    use crate::tournament::merge::RunPoints;
    use crate::tournament::standings::Standings;

    /// A header of 3 participants at 3 seats with `seed`, its first
    /// participant `name`.
    fn header(name: &str, seed: u64) -> Header {
        let body = format!(
            "[Players 3]\n[Pairing round-robin]\n[Seatings rotate]\n[Openings random:4]\n\
             [Rounds 1]\n[Games all]\n[Seed {seed}]\n[MaxTurns 300]\n[Repetitions 3]\n\
             [SPRT none]\n[Participant {name} algo=random tc=nodes=10 timeout=60000]\n\
             [Participant b algo=random tc=nodes=10 timeout=60000]\n\
             [Participant c algo=random tc=nodes=10 timeout=60000]\n"
        );
        let mut lines = vec![format!("{START}{:016x} shard 0/1]", fnv1a(body.as_bytes()))];
        lines.extend(body.lines().map(String::from));
        Header::parse(&lines).unwrap()
    }

    fn merged(name: &str, seed: u64, first: Vec<Option<f64>>) -> Merged {
        let header = header(name, seed);
        Merged {
            report: String::new(),
            standings: Standings::new(header.names.clone(), 3),
            games: first.len(),
            scheduled: first.len(),
            invalid: 0,
            missing: 0,
            tournaments: vec![seed.to_string()],
            missing_report: Vec::new(),
            points: vec![RunPoints { header, first }],
        }
    }

    #[test]
    fn the_difference_is_taken_game_by_game() {
        // B scores what A scores less a third in every game: a
        // difference with no spread, whatever the games' own spread.
        let a = merged("new", 7, vec![Some(1.0), Some(0.5), Some(1.0), Some(0.5)]);
        let b_pts = vec![
            Some(2.0 / 3.0),
            Some(0.5 - 1.0 / 3.0),
            Some(2.0 / 3.0),
            Some(0.5 - 1.0 / 3.0),
        ];
        let b = merged("old", 7, b_pts);
        let p = Paired::of(&a, &b).unwrap();
        assert_eq!(p.games, 4);
        assert!((p.diff - 1.0 / 3.0).abs() < 1e-12, "{p:?}");
        assert!(p.half_width < 1e-9, "{p:?}");
        assert!((p.a_mean - 0.75).abs() < 1e-12);
        let r = p.report("b.games");
        assert!(
            r.contains("new 75.0%, old 41.7% over the 4 games both played: +33.3 ± 0.0"),
            "{r}"
        );
    }

    #[test]
    fn only_games_both_played_count() {
        let a = merged("x", 7, vec![Some(1.0), None, Some(0.0)]);
        let b = merged("x", 7, vec![Some(0.0), Some(1.0), None]);
        let p = Paired::of(&a, &b).unwrap();
        assert_eq!(p.games, 1);
        assert_eq!(p.diff, 1.0);
        assert!(p.report("b").contains("x (A) 100.0%, x (B) 0.0%"));
        let none = merged("x", 7, vec![None, None, None]);
        assert!(Paired::of(&a, &none).is_err());
    }

    #[test]
    fn other_games_are_refused() {
        let a = merged("x", 7, vec![Some(1.0)]);
        let e = Paired::of(&a, &merged("x", 8, vec![Some(1.0)])).unwrap_err();
        assert!(e.contains("[Seed 7] against [Seed 8]"), "{e}");
        let mut more = merged("x", 7, vec![Some(1.0)]);
        more.points[0].header.names.push("d".into());
        let e = Paired::of(&a, &more).unwrap_err();
        assert!(e.contains("3 participants against 4"), "{e}");
        let mut two = merged("x", 7, vec![Some(1.0)]);
        two.points.push(two.points[0].clone());
        assert!(
            Paired::of(&a, &two)
                .unwrap_err()
                .contains("pool 1 and 2 tournaments")
        );
    }
}
