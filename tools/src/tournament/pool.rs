//! One pool rating for free-for-all results: Weng-Lin (the Bayesian
//! approximation of the Plackett–Luce model, from the `skillratings`
//! crate), every game a ranking of its seats. Each participant starts at
//! the crate's default (25 ± 25/3) and is updated game by game; the
//! rating is the mean, its interval ±1.96 of its uncertainty.
//!
//! The updates depend on the order of the games, so they are taken in
//! the order of their numbers (then of their results, for equal numbers),
//! whatever order they finished in: a tournament and the merge of its
//! shards rate alike.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// One game as the pool rating reads it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PoolGame {
    /// Its number in the tournament (the order of updates).
    pub number: usize,
    /// (participant, rank from 1) of each seat, seat order; seats sharing
    /// a place share its rank.
    pub ranks: Vec<(usize, usize)>,
}

/// A participant's pool rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolRating {
    /// The rating (Weng-Lin's μ, 25 at the start).
    pub rating: f64,
    /// Half its 95% interval: 1.96 σ.
    pub interval: f64,
}

/// The pool ratings of `participants` after `games` (in any order).
/// A participant with two seats in one game is updated by the mean of its
/// seats' updates.
pub fn pool_ratings(participants: usize, games: &[PoolGame]) -> Vec<PoolRating> {
    let mut order: Vec<&PoolGame> = games.iter().collect();
    order.sort();
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); participants];
    for g in order {
        if g.ranks.len() < 2 || g.ranks.iter().any(|&(i, _)| i >= participants) {
            continue;
        }
        let teams: Vec<[WengLinRating; 1]> = g.ranks.iter().map(|&(i, _)| [ratings[i]]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&g.ranks)
            .map(|(t, &(_, rank))| (&t[..], MultiTeamOutcome::new(rank)))
            .collect();
        let updated = weng_lin_multi_team(&input, &config);
        // Mean of each participant's seats.
        let mut sum: Vec<(f64, f64, u32)> = vec![(0.0, 0.0, 0); participants];
        for (team, &(i, _)) in updated.iter().zip(&g.ranks) {
            let s = &mut sum[i];
            s.0 += team[0].rating;
            s.1 += team[0].uncertainty;
            s.2 += 1;
        }
        for (i, &(r, u, k)) in sum.iter().enumerate() {
            if k > 0 {
                ratings[i] = WengLinRating {
                    rating: r / f64::from(k),
                    uncertainty: u / f64::from(k),
                };
            }
        }
    }
    ratings
        .iter()
        .map(|r| PoolRating {
            rating: r.rating,
            interval: 1.96 * r.uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn one_game_rates_as_the_crates_own_example() {
        // By hand, with the Weng-Lin formulas of the crate's docs (β =
        // 25/6, σ = 25/3 for both): c = √(2σ² + 2β²) = 13.176, p = ½;
        // μ' = 25 ± σ²/c · ½ = 25 ± 2.635; Δ = (σ/c) · σ²/c² · ¼ = 0.0632,
        // σ' = σ √(1 − Δ) = 8.066.
        let r = pool_ratings(
            2,
            &[PoolGame {
                number: 1,
                ranks: vec![(0, 1), (1, 2)],
            }],
        );
        assert_eq!(round2(r[0].rating), 27.64);
        assert_eq!(round2(r[1].rating), 22.36);
        assert_eq!(round2(r[0].interval / 1.96), 8.07);
        // A shared place moves nobody's rating.
        let tie = pool_ratings(
            2,
            &[PoolGame {
                number: 1,
                ranks: vec![(0, 1), (1, 1)],
            }],
        );
        assert_eq!(round2(tie[0].rating), 25.0);
        assert!(tie[0].interval < 1.96 * 25.0 / 3.0);
    }

    #[test]
    fn ratings_follow_places_and_not_the_order_games_arrive_in() {
        // a always first, b second, c last, over 3-seat games with every
        // seating: a > b > c, and their intervals shrink.
        let mut games = Vec::new();
        for k in 0..30 {
            let seats = [[0, 1, 2], [1, 2, 0], [2, 0, 1]][k % 3];
            let rank = |i: usize| i + 1; // participant i finishes i+1-th
            games.push(PoolGame {
                number: k + 1,
                ranks: seats.iter().map(|&i| (i, rank(i))).collect(),
            });
        }
        let r = pool_ratings(3, &games);
        assert!(
            r[0].rating > r[1].rating && r[1].rating > r[2].rating,
            "{r:?}"
        );
        assert!(r[0].interval < 0.7 * 1.96 * 25.0 / 3.0, "{r:?}");
        let mut reversed = games.clone();
        reversed.reverse();
        assert_eq!(pool_ratings(3, &reversed), r);
    }
}
