//! Standings: per participant finishing places and points, and pairwise
//! results. With 2 players a pair's games give wins/draws/losses, Elo with
//! error bars, LOS, the game-pair pentanomial and the SPRT; with 3–4 players
//! every two participants in a game are compared by their places.
//!
//! Points: a game's places are worth 1 (first) down to 0 (last) in equal
//! steps; seats sharing a place share its points. With 2 players that is
//! 1 for a win, ½ for a draw. They are the rules' place points
//! (`splut_rules::place_points`, +1 down to −1) on this scale.

use super::pool::{PoolGame, PoolRating, pool_ratings};
use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl, elo_from_score};
use splut_play::record::{Forfeit, GameRecord, Reason};
use splut_rules::{Seat, shared_place_points};
use std::collections::HashMap;
use std::fmt::Write as _;

/// One participant's totals.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    /// Games played (seats taken).
    pub games: u64,
    /// How often it finished in each place (ties count the shared place
    /// they start at).
    pub places: [u64; 4],
    /// Points.
    pub points: f64,
    /// Points in 72nds, exact: the sum does not depend on the order the
    /// games come in, so merged shards print what one run prints.
    units: u64,
    /// Sum of each game's points squared, in 72nds squared (exact, as
    /// `units`): the spread behind [`Entry::score_interval`].
    square_units: u64,
    /// Games lost by forfeit.
    pub forfeits: u64,
    /// Forfeits by kind, indexed by [`ForfeitKind`] (the rest, of no known
    /// kind, are `forfeits` minus their sum).
    pub forfeit_kinds: [u64; 4],
    /// Seats taken in games of 3 or more seats.
    pub multi: u64,
    /// Of those, how often it went out first (last place alone).
    pub out_first: u64,
    /// Of those, how often it was one of the last two (the game came down
    /// to two seats and it was one).
    pub last_two: u64,
    /// Half points won in those last-two phases (a win 2, a shared first
    /// place 1).
    pub last_two_halves: u64,
}

/// A proportion `k` of `n` and half its 95% interval (normal
/// approximation); `None` when `n` is 0.
pub fn proportion(k: f64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let p = k / n as f64;
    Some((p, 1.96 * (p * (1.0 - p) / n as f64).sqrt()))
}

/// What a game of 3–4 seats says of one seat at `place` (the index its
/// place group starts at) in a group of `size`: (out first, one of the
/// last two, half points of the last two's game). The game came down to
/// two seats when its first place is shared by two, or when its first
/// and second places are each one seat's.
fn phases(groups: &[usize], place: usize, size: usize) -> (bool, bool, u64) {
    let n: usize = groups.iter().sum();
    let out_first = n >= 3 && place + size == n && size == 1;
    let two = matches!(groups, [2, ..] | [1, 1, ..]);
    let last_two = n >= 3 && two && place < 2;
    let halves = match (last_two, groups[0], place) {
        (false, _, _) => 0,
        (true, 2, _) => 1,
        (true, _, 0) => 2,
        _ => 0,
    };
    (out_first, last_two, halves)
}

impl Entry {
    /// Half the 95% interval of the mean points per game (a fraction, as
    /// the score): 1.96 standard errors, from the spread of one game's
    /// points. The games are taken as independent, which the seatings of
    /// one opening are not quite. `None` before two games.
    pub fn score_interval(&self) -> Option<f64> {
        if self.games < 2 {
            return None;
        }
        let n = self.games as f64;
        let unit = UNITS as f64;
        let mean = self.units as f64 / unit / n;
        let mean_square = self.square_units as f64 / (unit * unit) / n;
        let variance = (mean_square - mean * mean).max(0.0) * n / (n - 1.0);
        Some(1.96 * (variance / n).sqrt())
    }
}

/// How a forfeit came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// A clock ran out.
    TimeLoss = 0,
    /// No answer within movetime (plus grace) or the timeout: a stall.
    Stall = 1,
    /// The process ended, could not start or its pipes closed.
    Crash = 2,
    /// An illegal step, or an answer that contradicts itself.
    Illegal = 3,
}

/// The seat that forfeited a game and how, from its typed reason.
pub fn forfeit_kind(reason: &Reason) -> Option<(Seat, Option<ForfeitKind>)> {
    let Reason::Forfeit { seat, what } = reason else {
        return None;
    };
    let kind = match what {
        Forfeit::LostOnTime { .. } => Some(ForfeitKind::TimeLoss),
        Forfeit::TimedOut(_) => Some(ForfeitKind::Stall),
        Forfeit::Crashed(_) => Some(ForfeitKind::Crash),
        Forfeit::NoStep
        | Forfeit::BestMoveNotInTurn { .. }
        | Forfeit::IllegalStep { .. }
        | Forfeit::PastTurnEnd { .. } => Some(ForfeitKind::Illegal),
        Forfeit::NoParticipant | Forfeit::Other(_) => None,
    };
    Some((*seat, kind))
}

/// Standings of a tournament.
#[derive(Clone, Debug)]
pub struct Standings {
    names: Vec<String>,
    players: usize,
    /// Totals per participant.
    pub entries: Vec<Entry>,
    /// Pairwise results, (i, j) with i < j, from i's side.
    pub pairwise: HashMap<(usize, usize), Wdl>,
    /// Game pairs (2 players), (i, j) with i < j, from i's side.
    pub pentanomial: HashMap<(usize, usize), Pentanomial>,
    half_pairs: HashMap<u64, f64>,
    /// Games recorded.
    pub games: u64,
    /// Every game's ranks, for the pool rating.
    pool: Vec<PoolGame>,
    /// Per seat (r, y, g, b): seats taken and points in 72nds, every
    /// participant together (the seat's own advantage).
    pub by_seat: [(u64, u64); 4],
}

/// Points are counted in 72nds: with at most 4 seats a place is worth
/// k/(n-1) and a tie of s seats averages s places, and every (n-1)·s
/// divides 72.
const UNITS: u64 = 72;

/// Points of each place group for `n` seats in 72nds: the rules' place
/// points ([`shared_place_points`], +1 first to −1 last, a shared place
/// the mean of those it spans) on the standings' scale, 1 down to 0:
/// `(1 + points) / 2`. With 2 to 4 seats (every record the standings
/// take: the merge checks each seat is placed once) that is a whole
/// number of 72nds, so the rounding is exact.
fn group_units(groups: &[usize], n: usize) -> Vec<u64> {
    let mut first = 1;
    groups
        .iter()
        .map(|&size| {
            let place = first;
            first += size;
            if n <= 1 || size == 0 {
                return UNITS;
            }
            let points = shared_place_points(n, place, size);
            ((1.0 + points) / 2.0 * UNITS as f64).round().max(0.0) as u64
        })
        .collect()
}

/// The place points (1 first down to 0 last, a shared place the mean of
/// those it spans) of the seat named `name` in `g`; `None` when no seat
/// of `g` is that participant's.
pub fn points_of(g: &GameRecord, name: &str) -> Option<f64> {
    let n: usize = g.places.iter().map(|p| p.len()).sum();
    let sizes: Vec<usize> = g.places.iter().map(|p| p.len()).collect();
    g.places
        .iter()
        .zip(group_units(&sizes, n))
        .find(|(group, _)| group.iter().any(|&s| g.name_of(s) == Some(name)))
        .map(|(_, u)| u as f64 / UNITS as f64)
}

impl Standings {
    /// Empty standings for these participants.
    pub fn new(names: Vec<String>, players: usize) -> Standings {
        Standings {
            entries: vec![Entry::default(); names.len()],
            names,
            players,
            pairwise: HashMap::new(),
            pentanomial: HashMap::new(),
            half_pairs: HashMap::new(),
            games: 0,
            pool: Vec::new(),
            by_seat: [(0, 0); 4],
        }
    }

    /// The participants' names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The totals of the participant named `name`.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.index(name).map(|i| &self.entries[i])
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Adds a game. `pair` identifies the game pair (2 players: the same
    /// opening played with the seats swapped) for the pentanomial.
    pub fn add(&mut self, g: &GameRecord, pair: Option<u64>) {
        self.games += 1;
        let n: usize = g.places.iter().map(|p| p.len()).sum();
        let sizes: Vec<usize> = g.places.iter().map(|p| p.len()).collect();
        let units = group_units(&sizes, n);
        let forfeit = forfeit_kind(&g.reason);
        // (participant, place index, points) per seat.
        let mut seat_results = Vec::new();
        let mut place = 0;
        for (group, &u) in g.places.iter().zip(&units) {
            for &seat in group {
                if let Some(i) = g.name_of(seat).and_then(|name| self.index(name)) {
                    seat_results.push((i, place, u as f64 / UNITS as f64));
                    let e = &mut self.entries[i];
                    e.games += 1;
                    e.places[place.min(3)] += 1;
                    e.units = e.units.saturating_add(u);
                    e.square_units = e.square_units.saturating_add(u * u);
                    e.points = e.units as f64 / UNITS as f64;
                    if n >= 3 {
                        let (out_first, last_two, halves) = phases(&sizes, place, group.len());
                        e.multi += 1;
                        e.out_first += u64::from(out_first);
                        e.last_two += u64::from(last_two);
                        e.last_two_halves += halves;
                    }
                    let by_seat = &mut self.by_seat[seat.index()];
                    by_seat.0 += 1;
                    by_seat.1 = by_seat.1.saturating_add(u);
                    if let Some((s, kind)) = forfeit
                        && s == seat
                    {
                        e.forfeits += 1;
                        if let Some(k) = kind {
                            e.forfeit_kinds[k as usize] += 1;
                        }
                    }
                }
            }
            place += group.len();
        }
        self.pool.push(PoolGame {
            ranks: seat_results.iter().map(|&(i, p, _)| (i, p + 1)).collect(),
        });
        for (a, &(i, pi, _)) in seat_results.iter().enumerate() {
            for &(j, pj, _) in &seat_results[a + 1..] {
                if i == j {
                    continue;
                }
                let (lo, hi, p_lo, p_hi) = if i < j {
                    (i, j, pi, pj)
                } else {
                    (j, i, pj, pi)
                };
                let w = self.pairwise.entry((lo, hi)).or_default();
                match p_lo.cmp(&p_hi) {
                    std::cmp::Ordering::Less => w.wins += 1,
                    std::cmp::Ordering::Equal => w.draws += 1,
                    std::cmp::Ordering::Greater => w.losses += 1,
                }
            }
        }
        // Game pairs: two participants, two games.
        if let (Some(key), [(i, _, pi), (j, _, pj)]) = (pair, seat_results.as_slice())
            && i != j
        {
            let (lo, hi, p_lo) = if i < j { (*i, *j, *pi) } else { (*j, *i, *pj) };
            match self.half_pairs.remove(&key) {
                None => {
                    self.half_pairs.insert(key, p_lo);
                }
                Some(first) => {
                    self.pentanomial
                        .entry((lo, hi))
                        .or_default()
                        .add(first + p_lo);
                }
            }
        }
    }

    /// The SPRT's log-likelihood ratio and verdict for participants 0 and 1
    /// (participant 0 is the one being tested).
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtVerdict) {
        let p = self.pentanomial.get(&(0, 1)).copied().unwrap_or_default();
        if p.pairs() == 0 {
            return (0.0, SprtVerdict::Continue);
        }
        let llr = sprt.llr(&p);
        (llr, sprt.verdict(llr))
    }

    /// A one-line summary for the progress bar.
    pub fn short(&self) -> String {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.score(b).total_cmp(&self.score(a)));
        order
            .iter()
            .map(|&i| format!("{} {:.1}%", self.names[i], self.score(i) * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn score(&self, i: usize) -> f64 {
        let e = &self.entries[i];
        if e.games == 0 {
            0.0
        } else {
            e.points / e.games as f64
        }
    }

    /// The full table.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.score(b).total_cmp(&self.score(a)));
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let _ = writeln!(
            s,
            "Standings after {} games ({} players):",
            self.games, self.players
        );
        let place_cols: String = (1..=self.players)
            .map(|p| format!(" {:>5}", ordinal(p)))
            .collect();
        let _ = writeln!(
            s,
            "  # {:<width$} {:>6}{place_cols} {:>8} {:>7} {:>6} {:>9} {:>5} {:>5} {:>5} {:>7}",
            "name",
            "games",
            "points",
            "score",
            "±95%",
            "forfeits",
            "time",
            "stall",
            "crash",
            "illegal"
        );
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.entries[i];
            let places: String = e.places[..self.players]
                .iter()
                .map(|c| format!(" {c:>5}"))
                .collect();
            let [time, stall, crash, illegal] = e.forfeit_kinds;
            let interval = e
                .score_interval()
                .map_or("-".to_string(), |h| format!("±{:.1}", h * 100.0));
            let _ = writeln!(
                s,
                "{:>3} {:<width$} {:>6}{places} {:>8.1} {:>6.1}% {interval:>6} {:>9} {time:>5} {stall:>5} {crash:>5} {illegal:>7}",
                rank + 1,
                self.names[i],
                e.games,
                e.points,
                self.score(i) * 100.0,
                e.forfeits
            );
        }
        if self.players >= 3 {
            self.free_for_all(&mut s, &order, width);
        }
        if !self.pairwise.is_empty() {
            let _ = writeln!(
                s,
                "Pairwise (first named's wins-draws-losses, score, Elo, LOS):"
            );
            let mut keys: Vec<&(usize, usize)> = self.pairwise.keys().collect();
            keys.sort();
            for &(i, j) in keys {
                let w = self.pairwise[&(i, j)];
                let e = w.elo();
                let _ = write!(
                    s,
                    "  {} vs {}: {}-{}-{} ({:.1}%), Elo {}, LOS {:.1}%",
                    self.names[i],
                    self.names[j],
                    w.wins,
                    w.draws,
                    w.losses,
                    100.0 * w.points() / w.games().max(1) as f64,
                    e,
                    100.0 * w.los()
                );
                if let Some(p) = self.pentanomial.get(&(i, j)) {
                    let pe = p.elo();
                    let _ = write!(s, "; pairs {:?}, pair Elo {}", p.0, pe);
                }
                s.push('\n');
            }
        }
        if let Some(sprt) = sprt {
            let (llr, verdict) = self.sprt(sprt);
            let (lo, hi) = sprt.bounds();
            let _ = writeln!(
                s,
                "SPRT [{:.1}, {:.1}] ({:?} Elo): LLR {llr:.2} ({lo:.2}, {hi:.2}) — {}",
                sprt.elo0,
                sprt.elo1,
                sprt.model,
                match verdict {
                    SprtVerdict::Continue => "continue",
                    SprtVerdict::AcceptH1 => "H1 accepted",
                    SprtVerdict::AcceptH0 => "H0 accepted",
                }
            );
        }
        s
    }

    /// The pool rating of every participant (Plackett–Luce over every
    /// game, in Elo around the pool's mean).
    pub fn pool_ratings(&self) -> Vec<PoolRating> {
        pool_ratings(self.names.len(), &self.pool)
    }

    /// The free-for-all table (3–4 players): each participant's place
    /// distribution, how often it went out first and how much of the
    /// last two's game it won, with 95% intervals, and its pool rating;
    /// then the score of each seat.
    fn free_for_all(&self, s: &mut String, order: &[usize], width: usize) {
        let pct = |x: Option<(f64, f64)>| {
            x.map_or("-".to_string(), |(p, h)| {
                format!("{:.1}% ±{:.1}", 100.0 * p, 100.0 * h)
            })
        };
        let _ = writeln!(
            s,
            "Free-for-all (each with its 95% interval; parity: out first 1/{}, the last two's game 50%):",
            self.players
        );
        let place_cols: String = (1..=self.players)
            .map(|p| format!(" {:>13}", ordinal(p)))
            .collect();
        let _ = writeln!(
            s,
            "    {:<width$}{place_cols} {:>13} {:>13} {:>5} {:>14}",
            "name", "out first", "last two won", "of", "pool Elo"
        );
        let ratings = self.pool_ratings();
        for &i in order {
            let e = &self.entries[i];
            let places: String = e.places[..self.players]
                .iter()
                .map(|&c| format!(" {:>13}", pct(proportion(c as f64, e.games))))
                .collect();
            let out = pct(proportion(e.out_first as f64, e.multi));
            let two = pct(proportion(e.last_two_halves as f64 / 2.0, e.last_two));
            let r = ratings[i];
            let _ = writeln!(
                s,
                "    {:<width$}{places} {out:>13} {two:>13} {:>5} {:>14}",
                self.names[i],
                e.last_two,
                format!("{:+.1} ±{:.1}", r.rating, r.interval)
            );
        }
        let seats: Vec<String> = Seat::ALL
            .iter()
            .filter(|seat| self.by_seat[seat.index()].0 > 0)
            .map(|seat| {
                let (n, units) = self.by_seat[seat.index()];
                format!(
                    "{} {:.1}% of {n}",
                    seat.letter(),
                    100.0 * units as f64 / UNITS as f64 / n as f64
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "By seat (score, every participant): {}",
            seats.join(" · ")
        );
    }

    /// Elo of each participant against the field, from its score.
    pub fn field_elo(&self, i: usize) -> f64 {
        elo_from_score(self.score(i).clamp(1e-3, 1.0 - 1e-3))
    }
}

fn ordinal(p: usize) -> String {
    match p {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_play::record::{GameRecord, Reason};
    use splut_rules::Seat;

    fn game(seats: &[(Seat, &str)], places: Vec<Vec<Seat>>) -> GameRecord {
        GameRecord {
            number: 1,
            players: seats.len(),
            seats: seats.iter().map(|(s, n)| (*s, n.to_string())).collect(),
            opening: String::new(),
            start: "startpos".into(),
            opening_steps: 0,
            time_control: String::new(),
            places,
            reason: Reason::LastSorcerer,
            turns: vec![],
        }
    }

    fn group_points(groups: &[usize], n: usize) -> Vec<f64> {
        group_units(groups, n)
            .into_iter()
            .map(|u| u as f64 / UNITS as f64)
            .collect()
    }

    #[test]
    fn group_units_are_the_former_exact_formula() {
        // Before the rules had place points, the standings summed
        // Σ (n-1-p) over a group's places p (0-based), over (n-1)·size.
        fn former(groups: &[usize], n: usize) -> Vec<u64> {
            let mut first = 0;
            groups
                .iter()
                .map(|&size| {
                    let places = first..first + size;
                    first += size;
                    let sum: u64 = places.map(|p| (n - 1).saturating_sub(p) as u64).sum();
                    sum * UNITS / ((n as u64 - 1) * size as u64)
                })
                .collect()
        }
        // Every way to split 2 to 4 seats into places.
        fn splits(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            (1..=n)
                .flat_map(|first| {
                    splits(n - first).into_iter().map(move |mut rest| {
                        rest.insert(0, first);
                        rest
                    })
                })
                .collect()
        }
        for n in 2..=4 {
            for groups in splits(n) {
                assert_eq!(group_units(&groups, n), former(&groups, n), "{groups:?}");
            }
        }
    }

    #[test]
    fn place_points_share_ties() {
        assert_eq!(group_points(&[1, 1], 2), vec![1.0, 0.0]);
        assert_eq!(group_points(&[2], 2), vec![0.5]);
        assert_eq!(group_points(&[1, 1, 1], 3), vec![1.0, 0.5, 0.0]);
        let got = group_points(&[2, 1, 1], 4);
        let want = [(1.0 + 2.0 / 3.0) / 2.0, 1.0 / 3.0, 0.0];
        assert!(
            got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12),
            "{got:?}"
        );
    }

    #[test]
    fn two_player_games_make_pairs_and_pairwise_scores() {
        use Seat::*;
        let mut st = Standings::new(vec!["a".into(), "b".into()], 2);
        st.add(
            &game(&[(Red, "a"), (Green, "b")], vec![vec![Red], vec![Green]]),
            Some(1),
        );
        st.add(
            &game(&[(Red, "b"), (Green, "a")], vec![vec![Red, Green]]),
            Some(1),
        );
        st.add(
            &game(&[(Red, "a"), (Green, "b")], vec![vec![Green], vec![Red]]),
            Some(2),
        );
        assert_eq!(st.entries[0].points, 1.5);
        assert_eq!(
            st.pairwise[&(0, 1)],
            Wdl {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            st.pentanomial[&(0, 1)].0,
            [0, 0, 0, 1, 0],
            "one pair of 1.5 points"
        );
        let r = st.report(None);
        assert!(r.contains("a vs b: 1-1-1"), "{r}");
    }

    #[test]
    fn the_score_interval_comes_from_the_spread_of_game_points() {
        use Seat::*;
        let mut st = Standings::new(vec!["a".into(), "b".into(), "c".into()], 3);
        // a: first, last, second, first: points 1, 0, ½, 1 (mean ⅝,
        // sample variance 11/48).
        for (first, second, third) in [
            ("a", "b", "c"),
            ("b", "c", "a"),
            ("c", "a", "b"),
            ("a", "c", "b"),
        ] {
            st.add(
                &game(
                    &[(Red, first), (Yellow, second), (Green, third)],
                    vec![vec![Red], vec![Yellow], vec![Green]],
                ),
                None,
            );
        }
        let want = 1.96 * (11.0f64 / 48.0 / 4.0).sqrt();
        let got = st.entries[0].score_interval().unwrap();
        assert!((got - want).abs() < 1e-12, "{got} {want}");
        // Equal points every game: no spread.
        let mut one = Standings::new(vec!["a".into(), "b".into()], 2);
        for _ in 0..3 {
            one.add(
                &game(&[(Red, "a"), (Green, "b")], vec![vec![Red], vec![Green]]),
                None,
            );
        }
        assert_eq!(one.entries[0].score_interval(), Some(0.0));
        assert!(one.report(None).contains("±0.0"), "{}", one.report(None));
        // One game: no interval.
        let mut single = Standings::new(vec!["a".into(), "b".into()], 2);
        single.add(
            &game(&[(Red, "a"), (Green, "b")], vec![vec![Red], vec![Green]]),
            None,
        );
        assert_eq!(single.entries[0].score_interval(), None);
    }

    #[test]
    fn four_player_places_and_pairwise() {
        use Seat::*;
        let mut st = Standings::new(vec!["x".into(), "y".into()], 4);
        // x on r and g, y on y and b; r wins, b second, y third, g last.
        st.add(
            &game(
                &[(Red, "x"), (Yellow, "y"), (Green, "x"), (Blue, "y")],
                vec![vec![Red], vec![Blue], vec![Yellow], vec![Green]],
            ),
            None,
        );
        assert_eq!(st.entries[0].places, [1, 0, 0, 1]);
        assert_eq!(st.entries[1].places, [0, 1, 1, 0]);
        assert!((st.entries[0].points - 1.0).abs() < 1e-9);
        assert!((st.entries[1].points - 1.0).abs() < 1e-9);
        // Pairs between different participants: r>y, r>b, g<y, g<b.
        assert_eq!(
            st.pairwise[&(0, 1)],
            Wdl {
                wins: 2,
                draws: 0,
                losses: 2
            }
        );
        assert!(st.report(None).contains("1st"));
    }

    #[test]
    fn points_are_exact_whatever_the_order() {
        // Every split of 4 seats into place groups is a whole number of
        // 72nds, and the groups' points add up to the places' points.
        for sizes in [
            vec![1, 1, 1, 1],
            vec![2, 1, 1],
            vec![1, 2, 1],
            vec![1, 1, 2],
            vec![3, 1],
            vec![1, 3],
            vec![2, 2],
            vec![4],
        ] {
            let units = group_units(&sizes, 4);
            let total: u64 = units.iter().zip(&sizes).map(|(u, &s)| u * s as u64).sum();
            assert_eq!(total, 72 * 2, "{sizes:?}: 1 + 2/3 + 1/3 + 0");
        }
        // Thirds summed in two orders print the same.
        use Seat::*;
        let g1 = game(
            &[(Red, "x"), (Yellow, "y"), (Green, "x"), (Blue, "y")],
            vec![vec![Yellow], vec![Red], vec![Green], vec![Blue]],
        );
        let g2 = game(
            &[(Red, "x"), (Yellow, "y"), (Green, "x"), (Blue, "y")],
            vec![vec![Red, Yellow, Green], vec![Blue]],
        );
        let mut a = Standings::new(vec!["x".into(), "y".into()], 4);
        let mut b = a.clone();
        for g in [&g1, &g2, &g1, &g1, &g2] {
            a.add(g, None);
        }
        for g in [&g2, &g1, &g2, &g1, &g1] {
            b.add(g, None);
        }
        assert_eq!(a.entries[0].points.to_bits(), b.entries[0].points.to_bits());
        assert_eq!(a.report(None), b.report(None));
    }

    #[test]
    fn free_for_all_phases_places_and_the_pool_rating() {
        use Seat::*;
        let mut st = Standings::new(vec!["a".into(), "b".into(), "c".into()], 3);
        // a always wins, b second, c out first, over the three seatings.
        for (k, seats) in [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
            .iter()
            .cycle()
            .take(9)
            .enumerate()
        {
            let seat_of =
                |name: &str| [Red, Yellow, Green][seats.iter().position(|s| *s == name).unwrap()];
            let mut g = game(
                &[(Red, seats[0]), (Yellow, seats[1]), (Green, seats[2])],
                vec![vec![seat_of("a")], vec![seat_of("b")], vec![seat_of("c")]],
            );
            g.number = k + 1;
            st.add(&g, None);
        }
        // A draw at the turn limit with all three left, and one where b
        // and c share first place after a went out.
        let mut draw = game(
            &[(Red, "a"), (Yellow, "b"), (Green, "c")],
            vec![vec![Red, Yellow, Green]],
        );
        draw.number = 10;
        st.add(&draw, None);
        let mut shared = game(
            &[(Red, "a"), (Yellow, "b"), (Green, "c")],
            vec![vec![Yellow, Green], vec![Red]],
        );
        shared.number = 11;
        st.add(&shared, None);
        let (a, b, c) = (&st.entries[0], &st.entries[1], &st.entries[2]);
        assert_eq!(
            (a.multi, a.out_first, a.last_two, a.last_two_halves),
            (11, 1, 9, 18)
        );
        assert_eq!(
            (b.multi, b.out_first, b.last_two, b.last_two_halves),
            (11, 0, 10, 1)
        );
        assert_eq!(
            (c.multi, c.out_first, c.last_two, c.last_two_halves),
            (11, 9, 1, 1)
        );
        let r = st.pool_ratings();
        assert!(
            r[0].rating > r[1].rating && r[1].rating > r[2].rating,
            "{r:?}"
        );
        // Each seat's score: every seat scored alike here but for the two
        // extra games (seat r: a's ½ and 0).
        assert_eq!(st.by_seat[Red.index()].0, 11);
        assert_eq!(st.by_seat[Blue.index()].0, 0);
        let report = st.report(None);
        assert!(report.contains("Free-for-all"), "{report}");
        assert!(report.contains("out first"), "{report}");
        assert!(
            report.contains("By seat (score, every participant): r "),
            "{report}"
        );
        assert!(!report.contains(" b 0"), "{report}");
        // c: out first 9 of 11.
        let (p, h) = proportion(9.0, 11).unwrap();
        assert!(
            report.contains(&format!("{:.1}% ±{:.1}", 100.0 * p, 100.0 * h)),
            "{report}"
        );
        // Two players: no free-for-all table.
        let mut two = Standings::new(vec!["a".into(), "b".into()], 2);
        two.add(
            &game(&[(Red, "a"), (Green, "b")], vec![vec![Red], vec![Green]]),
            None,
        );
        assert!(!two.report(None).contains("Free-for-all"));
        assert_eq!(two.entries[0].multi, 0);
    }

    #[test]
    fn forfeits_are_counted_by_kind() {
        use Seat::*;
        let mut st = Standings::new(vec!["a".into(), "b".into()], 2);
        for what in [
            Forfeit::LostOnTime {
                spent_ms: 120,
                left_ms: 100,
            },
            Forfeit::TimedOut("no bestmove within 1100 ms".into()),
            Forfeit::Crashed("exit status: 3".into()),
            Forfeit::IllegalStep {
                text: "e5e6".into(),
                why: "no piece there".into(),
            },
            Forfeit::BestMoveNotInTurn {
                best: "a1a2".into(),
                turn: "b1b2".into(),
            },
            Forfeit::NoParticipant,
        ] {
            // Through the record text, as `splut standings` reads them.
            let what = Forfeit::parse(&what.to_string());
            let mut g = game(&[(Red, "a"), (Green, "b")], vec![vec![Green], vec![Red]]);
            g.reason = Reason::Forfeit { seat: Red, what };
            st.add(&g, None);
        }
        assert_eq!(st.entries[0].forfeits, 6);
        assert_eq!(st.entries[0].forfeit_kinds, [1, 1, 1, 2]);
        assert_eq!(st.entries[1].forfeits, 0);
        let r = st.report(None);
        assert!(r.contains("forfeits  time stall crash illegal"), "{r}");
        assert!(r.contains("        6     1     1     1       2"), "{r}");
    }
}
