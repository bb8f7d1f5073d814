//! Finishing places and what they are worth (RULES.md §4): the one place
//! where places are computed; [`Game::places`](super::Game::places) builds
//! them from a game, every other program (the judge, standings, the
//! review, the web board, Python) reads them from here.
//!
//! **No two seats ever go out on the same step, nor in the same turn.** A
//! seat goes out only when a thrown rock lands on its sorcerer (§3,
//! "Throw"; §4): the rock stops on the first sorcerer in its way and lands
//! on that one square, so a throw removes at most one team, and a throw
//! ends the turn at once, so a turn holds at most one throw. (In the code:
//! `Position::eliminate` is called once, from the throw, with the one seat
//! whose sorcerer stands where the rock lands.) So every seat that goes
//! out has a place of its own: §4's "last out = second" order is total,
//! and the only places seats share are the first, by the seats still in
//! when a match adjudicates a draw (a turn limit or a repetition, §4
//! **[choice]**).

use super::piece::Seat;
use std::fmt;

/// Finishing places: the seats of a game, best first, in groups; the
/// seats of a group share a place. At most 4 seats, each once.
///
/// As [`Game::places`](super::Game::places) gives them, the first group
/// holds the seats still in (they share the first place if the game ends
/// there: one seat is the winner, several share it at a draw), then come
/// the seats out, last out first, one to a place.
///
/// Written as game records write results: `g > r = y > b` (`>` between
/// places, `=` between seats sharing one).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Places {
    /// The seats, best first (the first `len`; the rest is `Red`).
    seats: [Seat; 4],
    len: u8,
    /// Bit `i` set: `seats[i]` starts a group (a new place).
    starts: u8,
}

impl Default for Places {
    /// No seat placed.
    fn default() -> Places {
        Places {
            seats: [Seat::Red; 4],
            len: 0,
            starts: 0,
        }
    }
}

impl Places {
    /// All `seats` sharing the first place (a game where no one is out).
    /// Seats given twice count once; more than 4 cannot be (there are 4).
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Places {
        let mut p = Places::default();
        for seat in seats {
            if !p.contains(seat) {
                p.seats[p.len as usize] = seat;
                p.len += 1;
            }
        }
        if p.len > 0 {
            p.starts = 1;
        }
        p
    }

    /// Places given as groups of seats, best first (as a record's result
    /// reads); empty groups are skipped. `None` when a seat is given twice.
    pub fn from_groups<G: AsRef<[Seat]>>(groups: impl IntoIterator<Item = G>) -> Option<Places> {
        let mut p = Places::default();
        for group in groups {
            let group = group.as_ref();
            if group.is_empty() {
                continue;
            }
            p.starts |= 1 << p.len;
            for &seat in group {
                if p.contains(seat) {
                    return None;
                }
                p.seats[p.len as usize] = seat;
                p.len += 1;
            }
        }
        Some(p)
    }

    /// `seat` goes out now: it leaves the first place and takes the place
    /// right below the seats still in there, above every seat out before
    /// it. Nothing changes for a seat not in the first place, or alone
    /// there (it has won). [`Game::places`](super::Game::places) applies
    /// this to each elimination in turn.
    pub fn eliminate(&mut self, seat: Seat) {
        let first = self.group_end(0);
        let Some(i) = self.seats[..first].iter().position(|&s| s == seat) else {
            return;
        };
        if first == 1 {
            return;
        }
        self.seats[i..first].rotate_left(1);
        self.starts |= 1 << (first - 1);
    }

    /// These places with `seat` forfeiting: a forfeit ends the game, the
    /// forfeiting seat below the other seats still in (who share the first
    /// place) and above the seats out before — placed as if it had gone
    /// out now ([`Self::eliminate`]).
    pub fn with_forfeit(mut self, seat: Seat) -> Places {
        self.eliminate(seat);
        self
    }

    /// How many seats are placed.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no seat is placed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `seat` is placed.
    pub fn contains(&self, seat: Seat) -> bool {
        self.seats().contains(&seat)
    }

    /// The seats, best first.
    pub fn seats(&self) -> &[Seat] {
        &self.seats[..self.len as usize]
    }

    /// The groups of seats sharing a place, best first.
    pub fn groups(&self) -> impl Iterator<Item = &[Seat]> + '_ {
        (0..self.len())
            .filter(|&i| self.starts >> i & 1 != 0)
            .map(|i| &self.seats[i..self.group_end(i)])
    }

    /// The groups as vectors, best first (a record's result).
    pub fn to_groups(&self) -> Vec<Vec<Seat>> {
        self.groups().map(<[Seat]>::to_vec).collect()
    }

    /// The end of the group starting at index `i`.
    fn group_end(&self, i: usize) -> usize {
        (i + 1..self.len())
            .find(|&j| self.starts >> j & 1 != 0)
            .unwrap_or(self.len())
    }

    /// Where `seat`'s group starts and how many seats it has.
    fn group_of(&self, seat: Seat) -> Option<(usize, usize)> {
        let i = self.seats().iter().position(|&s| s == seat)?;
        let start = (0..=i).rev().find(|&j| self.starts >> j & 1 != 0)?;
        Some((start, self.group_end(start) - start))
    }

    /// `seat`'s place, 1 the first: one more than the seats placed above
    /// it (seats sharing a place all have its first number: `r = g > y`
    /// places `y` third). `None` for a seat not placed.
    pub fn place_of(&self, seat: Seat) -> Option<usize> {
        self.group_of(seat).map(|(start, _)| start + 1)
    }

    /// How many seats share `seat`'s place, itself included (1 for a place
    /// of its own); `None` for a seat not placed.
    pub fn sharing(&self, seat: Seat) -> Option<usize> {
        self.group_of(seat).map(|(_, size)| size)
    }

    /// What `seat`'s place is worth ([`shared_place_points`]: +1 first
    /// down to −1 last, a shared place the mean of those it spans); `None`
    /// for a seat not placed.
    pub fn points_of(&self, seat: Seat) -> Option<f64> {
        let (start, size) = self.group_of(seat)?;
        Some(shared_place_points(self.len(), start + 1, size))
    }

    /// The places the rules have decided, best first, as `(seat, place)`:
    /// every seat below the first place, and the seat alone in the first
    /// place (the winner). Seats sharing the first place (still in a game
    /// that goes on) have none yet: whether they share it depends on how
    /// the game ends.
    pub fn decided(&self) -> impl Iterator<Item = (Seat, usize)> + '_ {
        let open = match self.group_end(0) {
            1 => 0,
            n => n,
        };
        self.seats()
            .iter()
            .skip(open)
            .filter_map(|&s| Some((s, self.place_of(s)?)))
    }
}

impl fmt::Display for Places {
    /// `g > r = y > b`, as game records write results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seat) in self.seats().iter().enumerate() {
            if i > 0 {
                f.write_str(if self.starts >> i & 1 != 0 {
                    " > "
                } else {
                    " = "
                })?;
            }
            write!(f, "{seat}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Places {
    type Err = String;

    /// Places as [`Display`](fmt::Display) writes them (`g > r = y`):
    /// seat letters, `>` between places, `=` between seats sharing one.
    fn from_str(s: &str) -> Result<Places, String> {
        let groups = s
            .split('>')
            .map(|g| {
                g.split('=')
                    .map(|x| {
                        let x = x.trim();
                        let mut c = x.chars();
                        match (c.next().and_then(Seat::from_letter), c.next()) {
                            (Some(seat), None) => Ok(seat),
                            _ => Err(format!(
                                "'{}' is not a seat in the places",
                                x.chars().take(8).collect::<String>()
                            )),
                        }
                    })
                    .collect::<Result<Vec<Seat>, String>>()
            })
            .collect::<Result<Vec<_>, String>>()?;
        Places::from_groups(groups).ok_or_else(|| "a seat placed twice".to_string())
    }
}

/// What finishing `place` (1 the first) of `players` seats is worth: +1
/// for the first down to −1 for the last in equal steps, `1 − 2 (place −
/// 1) / (players − 1)` (2 players +1, −1; 3 players +1, 0, −1; 4 players
/// +1, +1/3, −1/3, −1); 1 when `players` is 0 or 1. The points are linear
/// in the place, so a fractional place (the mean of the places some seats
/// share) is worth the mean of those places' points
/// ([`shared_place_points`]). Tournaments count points on a 1 (first) to
/// 0 (last) scale: `(1 + place_points) / 2`.
pub fn place_points(players: usize, place: f64) -> f64 {
    if players <= 1 {
        return 1.0;
    }
    1.0 - 2.0 * (place - 1.0) / (players as f64 - 1.0)
}

/// What a place shared by `sharing` seats is worth to each of them: the
/// mean of the [`place_points`] of the places it spans, `place` to `place
/// + sharing − 1` (a 2-player draw: 0 each; 2 of 4 sharing the first
/// place: 2/3 each). `sharing` 0 counts as 1.
pub fn shared_place_points(players: usize, place: usize, sharing: usize) -> f64 {
    let mean = place as f64 + (sharing.max(1) - 1) as f64 / 2.0;
    place_points(players, mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn places_read_back_as_they_are_written() {
        for text in ["g > r = y", "b > g > r > y", "r", "r = y = g = b"] {
            let p: Places = text.parse().unwrap();
            assert_eq!(p.to_string(), text);
        }
        let p: Places = "g>r=y".parse().unwrap();
        assert_eq!(p.place_of(Yellow), Some(2));
        assert_eq!(p.place_of(Green), Some(1));
        for bad in ["", "x", "r > r", "ry", "r >", "r = = y"] {
            assert!(bad.parse::<Places>().is_err(), "{bad}");
        }
    }

    #[test]
    fn seats_go_out_one_by_one_below_those_still_in() {
        let mut p = Places::new(Seat::ALL);
        assert_eq!(p.to_string(), "r = y = g = b");
        assert_eq!(p.decided().count(), 0);
        p.eliminate(Yellow);
        assert_eq!(p.to_string(), "r = g = b > y");
        p.eliminate(Red);
        assert_eq!(p.to_string(), "g = b > r > y");
        assert_eq!(p.decided().collect::<Vec<_>>(), [(Red, 3), (Yellow, 4)]);
        // A seat already out stays where it is.
        p.eliminate(Yellow);
        assert_eq!(p.to_string(), "g = b > r > y");
        p.eliminate(Green);
        assert_eq!(p.to_string(), "b > g > r > y");
        // The last seat in has won: alone in the first place.
        p.eliminate(Blue);
        assert_eq!(p.to_string(), "b > g > r > y");
        let order: Vec<_> = p.decided().collect();
        assert_eq!(order, [(Blue, 1), (Green, 2), (Red, 3), (Yellow, 4)]);
        let groups: Vec<&[Seat]> = p.groups().collect();
        assert_eq!(groups, [&[Blue][..], &[Green], &[Red], &[Yellow]]);
        assert_eq!(p.seats(), [Blue, Green, Red, Yellow]);
    }

    #[test]
    fn a_shared_place_has_its_first_number_and_the_mean_of_its_points() {
        let p = Places::from_groups([vec![Red, Green], vec![Yellow], vec![Blue]]).unwrap();
        assert_eq!(p.to_string(), "r = g > y > b");
        assert_eq!(p.place_of(Green), Some(1));
        assert_eq!(p.sharing(Green), Some(2));
        assert_eq!(p.place_of(Yellow), Some(3));
        assert_eq!(p.place_of(Blue), Some(4));
        assert!(close(p.points_of(Red).unwrap(), (1.0 + 1.0 / 3.0) / 2.0));
        assert!(close(p.points_of(Yellow).unwrap(), -1.0 / 3.0));
        assert!(close(p.points_of(Blue).unwrap(), -1.0));
        assert_eq!(p.to_groups(), [vec![Red, Green], vec![Yellow], vec![Blue]]);
        // A forfeit: below the others still in, above the seats out.
        let f = p.with_forfeit(Red);
        assert_eq!(f.to_string(), "g > r > y > b");
        assert_eq!(p.with_forfeit(Blue), p, "a seat out does not forfeit");
        let two = Places::new([Red, Green]);
        assert_eq!(two.with_forfeit(Green).to_string(), "r > g");
        assert_eq!(two.place_of(Blue), None);
        assert_eq!(two.points_of(Blue), None);
        assert!(close(two.points_of(Red).unwrap(), 0.0), "a draw");
    }

    #[test]
    fn from_groups_refuses_a_seat_twice_and_skips_empty_groups() {
        assert_eq!(Places::from_groups([vec![Red], vec![Red]]), None);
        let p = Places::from_groups([vec![], vec![Red], vec![], vec![Green]]).unwrap();
        assert_eq!(p.to_string(), "r > g");
        assert_eq!(
            Places::from_groups(Vec::<Vec<Seat>>::new()),
            Some(Places::default())
        );
        assert!(Places::default().is_empty());
        assert_eq!(Places::default().to_string(), "");
        assert_eq!(Places::new([Red, Red, Green]).len(), 2);
    }

    #[test]
    fn place_points_go_from_plus_one_to_minus_one() {
        let pts = |n: usize| -> Vec<f64> { (1..=n).map(|p| place_points(n, p as f64)).collect() };
        assert_eq!(pts(2), [1.0, -1.0]);
        assert_eq!(pts(3), [1.0, 0.0, -1.0]);
        let four = pts(4);
        for (a, b) in four.iter().zip([1.0, 1.0 / 3.0, -1.0 / 3.0, -1.0]) {
            assert!(close(*a, b), "{four:?}");
        }
        assert_eq!(place_points(1, 1.0), 1.0);
        assert_eq!(place_points(0, 3.0), 1.0);
        // A shared place: the mean of the points of the places it spans.
        for n in 2..=4 {
            for place in 1..=n {
                for sharing in 1..=n + 1 - place {
                    let mean = (place..place + sharing)
                        .map(|p| place_points(n, p as f64))
                        .sum::<f64>()
                        / sharing as f64;
                    let got = shared_place_points(n, place, sharing);
                    assert!(close(got, mean), "{n} {place} {sharing}: {got} {mean}");
                }
            }
        }
        assert_eq!(shared_place_points(2, 1, 2), 0.0);
        assert_eq!(shared_place_points(3, 2, 0), 0.0);
    }
}
