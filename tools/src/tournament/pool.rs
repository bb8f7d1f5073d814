//! One pool rating for free-for-all results: the Plackett–Luce model,
//! every game a ranking of its seats. Each participant has a strength
//! γ = e^θ; a game's first place goes to a seat with probability its γ
//! over the sum of every seat's, the next place likewise among the seats
//! left, and so on (seats sharing a place are each drawn from the seats
//! left: Breslow's treatment of ties). The ratings maximise the
//! probability of every game at once, under a weak normal prior on θ
//! (mean 0, standard deviation [`PRIOR_SD`]: one who always finishes last
//! keeps a finite rating), found by Newton's method. Unlike a rating
//! updated game by game (Weng-Lin, TrueSkill), they do not depend on the
//! order of the games, so a tournament and the merge of its shards rate
//! alike, whatever order their games finished in.
//!
//! A rating is shown in Elo (400 · log10 γ) around the pool's mean, which
//! is 0. Its interval is ±1.96 standard errors of the rating with every
//! other held at theirs, from the curvature of the log-posterior at its
//! peak: with two participants, the usual Elo interval of their
//! difference. (A participant always last is pinned only by the prior;
//! holding the others keeps its width out of everyone else's interval.)
//! With two seats a difference of `D` is the usual Elo: the stronger wins
//! 1 / (1 + 10^(−D/400)) of their games.

use std::collections::BTreeMap;

/// One game as the pool rating reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolGame {
    /// (participant, rank from 1) of each seat, seat order; seats sharing
    /// a place share its rank.
    pub ranks: Vec<(usize, usize)>,
}

/// A participant's pool rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolRating {
    /// The rating in Elo, the pool's mean being 0.
    pub rating: f64,
    /// Half its 95% interval: 1.96 standard errors.
    pub interval: f64,
}

/// The prior's standard deviation of θ (natural-log units; about 695
/// Elo): weak beside a few dozen games, enough to keep every rating finite.
pub const PRIOR_SD: f64 = 4.0;

/// Elo per natural-log unit of strength: 400 / ln 10.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The pool ratings of `participants` after `games` (in any order; games
/// with fewer than two seats or an unknown participant are skipped). A
/// participant with two seats in one game is two seats of one strength.
pub fn pool_ratings(participants: usize, games: &[PoolGame]) -> Vec<PoolRating> {
    // Games reduce to their stages, and equal stages to one with a count:
    // the fit then costs the same for a million games as for a hundred,
    // and sums in one order (the map's) whatever order games came in.
    let mut counts: BTreeMap<Stage, f64> = BTreeMap::new();
    for g in games {
        if g.ranks.len() >= 2 && g.ranks.iter().all(|&(i, _)| i < participants) {
            for s in stages(g) {
                *counts.entry(s).or_insert(0.0) += 1.0;
            }
        }
    }
    let stages: Vec<(Stage, f64)> = counts.into_iter().collect();
    let theta = fit(participants, &stages);
    let (_, _, hessian) = posterior(&theta, &stages, true);
    let n = participants;
    (0..n)
        .map(|i| PoolRating {
            rating: ELO * theta[i],
            interval: 1.96 * ELO / (-hessian[i * n + i]).sqrt(),
        })
        .collect()
}

/// One place of one game: the participants taking it (one per seat, so a
/// participant may appear twice) and those of every seat still left then
/// (including the takers), each sorted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Stage {
    taken: Vec<usize>,
    left: Vec<usize>,
}

/// A game's places as stages, best first; a last place of one seat, which
/// is not drawn, is left out.
fn stages(g: &PoolGame) -> Vec<Stage> {
    let mut seats = g.ranks.clone();
    seats.sort_by_key(|&(i, rank)| (rank, i));
    let mut out = Vec::new();
    let mut start = 0;
    while start < seats.len() {
        let rank = seats[start].1;
        let end = start + seats[start..].iter().take_while(|s| s.1 == rank).count();
        if end - start > 1 || end < seats.len() {
            let mut left: Vec<usize> = seats[start..].iter().map(|s| s.0).collect();
            left.sort_unstable();
            out.push(Stage {
                taken: seats[start..end].iter().map(|s| s.0).collect(),
                left,
            });
        }
        start = end;
    }
    out
}

/// The log-posterior at `theta`, its gradient and (if `hessian`) its
/// Hessian, row-major.
fn posterior(theta: &[f64], stages: &[(Stage, f64)], hessian: bool) -> (f64, Vec<f64>, Vec<f64>) {
    let n = theta.len();
    let lambda = 1.0 / (PRIOR_SD * PRIOR_SD);
    let mut value = -0.5 * lambda * theta.iter().map(|t| t * t).sum::<f64>();
    let mut grad: Vec<f64> = theta.iter().map(|t| -lambda * t).collect();
    let mut hess = vec![0.0; if hessian { n * n } else { 0 }];
    if hessian {
        for i in 0..n {
            hess[i * n + i] = -lambda;
        }
    }
    let mut w = Vec::new();
    for (s, count) in stages {
        let top = s.left.iter().map(|&j| theta[j]).fold(f64::MIN, f64::max);
        w.clear();
        w.extend(s.left.iter().map(|&j| (theta[j] - top).exp()));
        let sum: f64 = w.iter().sum();
        let k = count * s.taken.len() as f64;
        value += count * s.taken.iter().map(|&i| theta[i]).sum::<f64>() - k * (top + sum.ln());
        for &i in &s.taken {
            grad[i] += count;
        }
        for (a, &j) in s.left.iter().enumerate() {
            let p = w[a] / sum;
            grad[j] -= k * p;
            if hessian {
                hess[j * n + j] -= k * p;
                for (b, &l) in s.left.iter().enumerate() {
                    hess[j * n + l] += k * p * w[b] / sum;
                }
            }
        }
    }
    (value, grad, hess)
}

/// The θ of highest posterior: Newton's steps, halved while they do not
/// raise the posterior (it is concave, so this converges).
fn fit(n: usize, stages: &[(Stage, f64)]) -> Vec<f64> {
    let mut theta = vec![0.0; n];
    for _ in 0..100 {
        let (value, grad, hess) = posterior(&theta, stages, true);
        // The Hessian is negative definite: solve (−H) step = grad.
        let neg: Vec<f64> = hess.iter().map(|h| -h).collect();
        let Some(step) = solve(&neg, &grad, n) else {
            break;
        };
        let mut scale = 1.0;
        loop {
            let next: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            if posterior(&next, stages, false).0 >= value || scale < 1e-6 {
                theta = next;
                break;
            }
            scale /= 2.0;
        }
        if step.iter().all(|s| (scale * s).abs() < 1e-10) {
            break;
        }
    }
    theta
}

/// Solves `a x = b` (`a` n×n row-major) by Gaussian elimination with
/// partial pivoting; `None` if `a` is singular.
fn solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|r| {
            let mut row = a[r * n..][..n].to_vec();
            row.push(b[r]);
            row
        })
        .collect();
    for c in 0..n {
        let pivot = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[pivot][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, pivot);
        let (above, below) = m.split_at_mut(c + 1);
        let row = &above[c];
        for other in below {
            let f = other[c] / row[c];
            if f != 0.0 {
                for (x, p) in other[c..].iter_mut().zip(&row[c..]) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| m[r][k] * x[k]).sum();
        x[r] = (m[r][n] - s) / m[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wins` games of `a` (participant 0) over `b` (1) and `losses` the
    /// other way.
    fn duel(wins: usize, losses: usize) -> Vec<PoolGame> {
        (0..wins + losses)
            .map(|k| PoolGame {
                ranks: if k < wins {
                    vec![(0, 1), (1, 2)]
                } else {
                    vec![(0, 2), (1, 1)]
                },
            })
            .collect()
    }

    #[test]
    fn two_seats_rate_as_elo() {
        // 30 wins of 40: the difference is 400 · log10(30/10) = 190.8 Elo
        // (less a hair for the prior), split about the mean 0.
        let r = pool_ratings(2, &duel(30, 10));
        assert!((r[0].rating + r[1].rating).abs() < 1e-9, "{r:?}");
        let d = r[0].rating - r[1].rating;
        assert!(d > 188.0 && d < 190.85, "{r:?}");
        // 50 of 100: level, and a rating's variance with the other held is
        // 1/(n p (1−p)) = 4/n, the difference's: ±1.96 · 173.7 · 2 / 10.
        let r = pool_ratings(2, &duel(50, 50));
        assert!(r[0].rating.abs() < 1e-9, "{r:?}");
        assert!((r[0].interval - 68.1).abs() < 0.2, "{r:?}");
        assert_eq!(r[0].interval, r[1].interval);
    }

    #[test]
    fn one_who_always_loses_stays_finite() {
        let r = pool_ratings(2, &duel(20, 0));
        assert!(r[0].rating.is_finite() && r[0].rating > 300.0, "{r:?}");
        assert!(r[1].interval.is_finite() && r[1].interval > 0.0, "{r:?}");
        // No games: every rating 0, the interval the prior's.
        let none = pool_ratings(3, &[]);
        assert!(none.iter().all(|r| r.rating == 0.0 && r.interval > 0.0));
    }

    #[test]
    fn ratings_follow_places_and_not_the_order_games_arrive_in() {
        // a first, b second, c last, but for every fourth game where b is
        // first, over 3-seat games with every seating: a > b > c, and
        // their intervals shrink with games.
        let games = |count: usize| -> Vec<PoolGame> {
            (0..count)
                .map(|k| PoolGame {
                    ranks: [[0, 1, 2], [1, 2, 0], [2, 0, 1]][k % 3]
                        .iter()
                        .map(|&i| (i, if k % 4 == 3 { [2, 1, 3][i] } else { i + 1 }))
                        .collect(),
                })
                .collect()
        };
        let r = pool_ratings(3, &games(60));
        assert!(
            r[0].rating > r[1].rating && r[1].rating > r[2].rating,
            "{r:?}"
        );
        assert!(pool_ratings(3, &games(240))[0].interval < 0.6 * r[0].interval);
        let mut reversed = games(60);
        reversed.reverse();
        assert_eq!(pool_ratings(3, &reversed), r);
    }

    #[test]
    fn shared_places_and_two_seats_of_one_participant() {
        // Everyone sharing first place moves nobody.
        let tie = pool_ratings(
            3,
            &[PoolGame {
                ranks: vec![(0, 1), (1, 1), (2, 1)],
            }],
        );
        assert!(tie.iter().all(|r| r.rating.abs() < 1e-9), "{tie:?}");
        // b shares first with a once and beats it once, a never beats b.
        let games = vec![
            PoolGame {
                ranks: vec![(0, 1), (1, 1)],
            },
            PoolGame {
                ranks: vec![(0, 2), (1, 1)],
            },
        ];
        let r = pool_ratings(2, &games);
        assert!(r[1].rating > r[0].rating, "{r:?}");
        // Two participants at four seats: a's two seats take 1st and 3rd.
        let r = pool_ratings(
            2,
            &[PoolGame {
                ranks: vec![(0, 1), (1, 2), (0, 3), (1, 4)],
            }],
        );
        assert!(r[0].rating > r[1].rating, "{r:?}");
    }
}
