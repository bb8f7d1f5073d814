//! The schedule: which participants sit where in which game, from the
//! options alone, so a shard on another machine and `splut standings`
//! rebuild the very schedule the whole tournament plays.
//!
//! - Seatings: for round-robin every group of `players` participants (or,
//!   with fewer participants than seats, the participants repeated round
//!   the table); for `--gauntlet` participant 0 with each other one. Each
//!   group is seated either rotated (`--seatings rotate`, the default: each
//!   participant plays each seat equally often) or in every distinct
//!   permutation (`--seatings all`).
//! - Games: every seating of opening 1, then of opening 2, …, numbered
//!   from 1, cut at `--games`.
//! - Units: the games of one opening played by one group (with 2 players,
//!   a game pair with the seats swapped), numbered from 0 in schedule
//!   order. Shard `K/N` plays the units whose number is `K` modulo `N`, so
//!   a pair — and so the pentanomial — is never split between shards.

use std::collections::{HashMap, HashSet};

/// How a group of participants is seated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SeatingMode {
    /// Rotated over the seats: each participant plays each seat equally
    /// often (one cyclic order of a group of 3–4).
    #[default]
    Rotate,
    /// Every distinct permutation of the group over the seats.
    All,
}

impl SeatingMode {
    /// `rotate` or `all`.
    pub fn parse(s: &str) -> Result<SeatingMode, String> {
        match s {
            "rotate" => Ok(SeatingMode::Rotate),
            "all" => Ok(SeatingMode::All),
            _ => Err(format!("seatings '{s}': expected rotate or all")),
        }
    }

    /// The option's word.
    pub fn name(self) -> &'static str {
        match self {
            SeatingMode::Rotate => "rotate",
            SeatingMode::All => "all",
        }
    }
}

/// A part of a tournament: the games of the units whose number is `index`
/// modulo `count` (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based, below `count`.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The whole tournament.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `K/N` with `0 <= K < N` (0-based, as Slurm array and Kubernetes
    /// completion indices are).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "shard '{s}': expected K/N, 0 <= K < N <= {}, e.g. 0/4 (K counts from 0)",
                super::MAX_GAMES
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count || count > super::MAX_GAMES {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard plays unit `unit`.
    pub fn has(self, unit: usize) -> bool {
        unit % self.count == self.index
    }

    /// Whether this is the whole tournament.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One seating of an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seating {
    /// Participant index per seat, in the seats' order of play.
    pub seats: Vec<usize>,
    /// Index of the group of participants it seats.
    pub group: usize,
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameSpec {
    /// 1-based game number.
    pub number: usize,
    /// 0-based opening index.
    pub opening: usize,
    /// Participant index per seat, in the seats' order of play.
    pub seating: Vec<usize>,
    /// Game-pair key (2 players).
    pub pair: Option<u64>,
    /// 0-based unit: the opening's games with this seating's group.
    pub unit: usize,
}

/// The groups of participants that play together, in schedule order.
fn groups(participants: usize, players: usize, gauntlet: bool) -> Vec<Vec<usize>> {
    fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        if n < k {
            return vec![];
        }
        let mut with_last: Vec<Vec<usize>> = combinations(n - 1, k - 1);
        for c in &mut with_last {
            c.push(n - 1);
        }
        let mut out = combinations(n - 1, k);
        out.extend(with_last);
        out
    }
    if gauntlet {
        (1..participants).map(|j| vec![0, j]).collect()
    } else if participants >= players {
        let mut c = combinations(participants, players);
        c.sort();
        c
    } else {
        vec![(0..participants).collect()]
    }
}

/// Every permutation of `0..k` in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for first in 0..k {
        for rest in permutations(k - 1) {
            let mut p = vec![first];
            p.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            out.push(p);
        }
    }
    out
}

/// The seatings of one opening: each group's seatings in turn (a short
/// group filled from each of its members), duplicates dropped.
pub(crate) fn seatings(
    participants: usize,
    players: usize,
    gauntlet: bool,
    mode: SeatingMode,
) -> Vec<Seating> {
    let perms = permutations(players);
    let mut out: Vec<Seating> = Vec::new();
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    for (group, g) in groups(participants, players, gauntlet)
        .into_iter()
        .enumerate()
    {
        // Fill the table from each starting member, then rotate or permute.
        for start in 0..g.len().min(players) {
            let base: Vec<usize> = (0..players).map(|j| g[(start + j) % g.len()]).collect();
            let orders: Vec<Vec<usize>> = match mode {
                SeatingMode::Rotate => (0..players)
                    .map(|r| (0..players).map(|j| (r + j) % players).collect())
                    .collect(),
                SeatingMode::All => perms.clone(),
            };
            for order in orders {
                let seats: Vec<usize> = order.iter().map(|&j| base[j]).collect();
                if seen.insert(seats.clone()) {
                    out.push(Seating { seats, group });
                }
            }
            if g.len() >= players {
                break;
            }
        }
    }
    out
}

/// How many seatings [`seatings`] gives at most, without making them (a
/// round-robin of many participants has millions).
pub(crate) fn seatings_bound(
    participants: usize,
    players: usize,
    gauntlet: bool,
    mode: SeatingMode,
) -> u128 {
    let (n, k) = (participants as u128, players as u128);
    // Groups, and how many members each has.
    let (groups, members): (u128, u128) = if gauntlet {
        (n.saturating_sub(1), 2)
    } else if n >= k {
        // C(n, k), exact at every step.
        ((0..k).fold(1u128, |c, i| c * (n - i) / (i + 1)), k)
    } else {
        (1, n)
    };
    let orders = match mode {
        SeatingMode::Rotate => k,
        SeatingMode::All => (1..=k).product(),
    };
    // A short group is filled from each member.
    groups
        * if members >= k {
            orders
        } else {
            members * orders
        }
}

/// Openings a schedule reaches: `rounds`, or fewer when `--games` stops
/// it earlier (opening `i` does not depend on how many are made).
pub(crate) fn openings_needed(
    rounds: usize,
    max_games: Option<usize>,
    per_opening: usize,
) -> usize {
    match max_games {
        Some(n) => rounds.min(n.div_ceil(per_opening.max(1))),
        None => rounds,
    }
}

/// Refuses a schedule of more than [`super::MAX_GAMES`] games, counted
/// before any is made.
pub(crate) fn check_size(
    participants: usize,
    players: usize,
    gauntlet: bool,
    mode: SeatingMode,
    rounds: usize,
    max_games: Option<usize>,
) -> Result<(), String> {
    let bound = seatings_bound(participants, players, gauntlet, mode);
    let wanted = bound
        .saturating_mul(rounds as u128)
        .min(max_games.map_or(u128::MAX, |n| n as u128));
    if wanted > super::MAX_GAMES as u128 {
        return Err(format!(
            "{participants} participants in {players}-player games with --rounds {rounds} \
             make {wanted} games, more than the {} a tournament schedules: \
             lower --rounds or --games{}",
            super::MAX_GAMES,
            match mode {
                SeatingMode::All => " (or seat them --seatings rotate)",
                SeatingMode::Rotate => "",
            }
        ));
    }
    Ok(())
}

/// The seatings of one opening and the number of openings the games
/// reach, once the schedule's size is checked ([`check_size`]): what both
/// a tournament and a records header's schedule start from.
pub(crate) fn plan(
    participants: usize,
    players: usize,
    gauntlet: bool,
    mode: SeatingMode,
    rounds: usize,
    max_games: Option<usize>,
) -> Result<(Vec<Seating>, usize), String> {
    check_size(participants, players, gauntlet, mode, rounds, max_games)?;
    let per_opening = seatings(participants, players, gauntlet, mode);
    let openings = openings_needed(rounds, max_games, per_opening.len());
    Ok((per_opening, openings))
}

/// The games: every seating of every opening, up to `max_games`.
pub(crate) fn schedule(
    players: usize,
    per_opening: &[Seating],
    openings: usize,
    max_games: Option<usize>,
) -> Vec<GameSpec> {
    // Two players: the two rotations of a pair share a key, the index of
    // the first seating with the same participants.
    let mut first: HashMap<Vec<usize>, usize> = HashMap::new();
    let lineups: Vec<usize> = per_opening
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut key = s.seats.clone();
            key.sort();
            *first.entry(key).or_insert(i)
        })
        .collect();
    let mut games: Vec<GameSpec> = Vec::new();
    let mut unit = 0;
    let mut last: Option<(usize, usize)> = None;
    'all: for o in 0..openings {
        for (i, seating) in per_opening.iter().enumerate() {
            if max_games.is_some_and(|n| games.len() >= n) {
                break 'all;
            }
            // A new unit where the opening or the group changes.
            let here = (o, seating.group);
            if last.is_some_and(|l| l != here) {
                unit += 1;
            }
            last = Some(here);
            let pair = (players == 2).then(|| (o as u64) << 32 | lineups[i] as u64);
            games.push(GameSpec {
                number: games.len() + 1,
                opening: o,
                seating: seating.seats.clone(),
                pair,
                unit,
            });
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(participants: usize, players: usize, gauntlet: bool) -> Vec<Vec<usize>> {
        seatings(participants, players, gauntlet, SeatingMode::Rotate)
            .into_iter()
            .map(|s| s.seats)
            .collect()
    }

    #[test]
    fn seatings_rotate_every_participant_over_every_seat() {
        // 2 players, 2 participants: a game pair.
        assert_eq!(seats(2, 2, false), vec![vec![0, 1], vec![1, 0]]);
        // 3 participants round-robin with 2 players: 3 pairs.
        assert_eq!(seats(3, 2, false).len(), 6);
        // 4 players, 2 participants: A B A B and B A B A.
        assert_eq!(seats(2, 4, false), vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
        // 3 players, 2 participants: both fillings, each rotated.
        let s = seats(2, 3, false);
        assert_eq!(s.len(), 6);
        for seat in 0..3 {
            let zeros = s.iter().filter(|x| x[seat] == 0).count();
            assert_eq!(zeros, 3, "participant 0 takes seat {seat} as often as 1");
        }
        // 4 participants, 3 players: 4 groups × 3 rotations.
        assert_eq!(seats(4, 3, false).len(), 12);
        // Gauntlet: 0 against each of the others.
        let g = seats(3, 2, true);
        assert_eq!(g, vec![vec![0, 1], vec![1, 0], vec![0, 2], vec![2, 0]]);
    }

    #[test]
    fn seatings_all_gives_every_permutation_once() {
        // 4 participants at 4 seats: 24 orders, each participant 6 times on
        // each seat.
        let s = seatings(4, 4, false, SeatingMode::All);
        assert_eq!(s.len(), 24);
        let distinct: HashSet<&Vec<usize>> = s.iter().map(|x| &x.seats).collect();
        assert_eq!(distinct.len(), 24);
        for p in 0..4 {
            for seat in 0..4 {
                assert_eq!(s.iter().filter(|x| x.seats[seat] == p).count(), 6);
            }
        }
        // 5 participants, 3 players: 10 groups × 6 orders.
        assert_eq!(seatings(5, 3, false, SeatingMode::All).len(), 60);
        // 2 participants at 4 seats: the 6 arrangements of A A B B.
        let s = seatings(2, 4, false, SeatingMode::All);
        assert_eq!(s.len(), 6);
        assert!(
            s.iter()
                .all(|x| x.seats.iter().filter(|&&p| p == 0).count() == 2)
        );
        // With 2 players both modes are the game pair.
        assert_eq!(
            seatings(3, 2, false, SeatingMode::All),
            seatings(3, 2, false, SeatingMode::Rotate)
        );
    }

    #[test]
    fn the_seatings_bound_holds_and_is_exact_for_full_groups() {
        for n in 2..=7 {
            for k in 2..=4 {
                for gauntlet in [false, true] {
                    for mode in [SeatingMode::Rotate, SeatingMode::All] {
                        let made = seatings(n, k, gauntlet, mode).len() as u128;
                        let bound = seatings_bound(n, k, gauntlet, mode);
                        assert!(
                            made <= bound,
                            "{n} {k} {gauntlet} {mode:?}: {made} > {bound}"
                        );
                        if !gauntlet && n >= k {
                            assert_eq!(made, bound, "{n} {k} {mode:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn units_are_an_openings_games_of_one_group_and_shards_split_units() {
        // 3 participants, 2 players: 3 pairs per opening.
        let per = seatings(3, 2, false, SeatingMode::Rotate);
        let games = schedule(2, &per, 2, None);
        let units: Vec<usize> = games.iter().map(|g| g.unit).collect();
        assert_eq!(units, vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        for g in games.chunks(2) {
            assert_eq!(g[0].pair, g[1].pair, "a unit is a game pair");
        }
        // 4 players, 4 participants, every permutation: one unit per opening.
        let per = seatings(4, 4, false, SeatingMode::All);
        let games = schedule(4, &per, 3, Some(50));
        assert_eq!(games.len(), 50);
        assert!(games.iter().all(|g| g.unit == g.opening));
        // Every game is in exactly one of 3 shards.
        let per = seatings(2, 3, false, SeatingMode::Rotate);
        let games = schedule(3, &per, 5, None);
        for g in &games {
            let shards: Vec<usize> = (0..3)
                .filter(|&k| Shard { index: k, count: 3 }.has(g.unit))
                .collect();
            assert_eq!(shards.len(), 1);
        }
    }

    #[test]
    fn shards_parse_from_zero() {
        assert_eq!(Shard::parse("0/4"), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(Shard::parse("3/4"), Ok(Shard { index: 3, count: 4 }));
        for bad in ["4/4", "1/0", "-1/3", "1", "a/b", "1/2/3", ""] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.contains("expected K/N"), "{bad}: {e}");
        }
    }
}
