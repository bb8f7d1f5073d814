//! Match statistics: Elo from a score, 95% error bars (trinomial over
//! games, pentanomial over game pairs), likelihood of superiority, and the
//! sequential probability ratio test (GSPRT on game pairs, as fishtest and
//! fastchess compute it). Multiplayer standings are in `standings.rs`.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz–Stegun 7.1.26 refined by a series for
/// small |x|; accurate to about 1e-7, plenty for a percentage).
pub fn erf(x: f64) -> f64 {
    // Series for small x, continued fraction-free tail otherwise.
    if x.abs() < 2.0 {
        let mut sum = x;
        let mut term = x;
        let x2 = x * x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        let t = 1.0 / (1.0 + 0.5 * x.abs());
        // Numerical Recipes' erfc approximation, its polynomial written as
        // a flat Horner fold (a nested expression took rustfmt 20 s).
        const C: [f64; 9] = [
            1.000_023_68,
            0.374_091_96,
            0.096_784_18,
            -0.186_288_06,
            0.278_868_07,
            -1.135_203_98,
            1.488_515_87,
            -0.822_152_23,
            0.170_872_77,
        ];
        let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
        let tau = t * (-x * x - 1.265_512_23 + t * poly).exp();
        if x >= 0.0 { 1.0 - tau } else { tau - 1.0 }
    }
}

/// Mean and variance of a discrete distribution given as counts.
fn mean_var(scores: &[f64], counts: &[f64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mu = scores.iter().zip(counts).map(|(s, c)| s * c).sum::<f64>() / n;
    let var = scores
        .iter()
        .zip(counts)
        .map(|(s, c)| c * (s - mu) * (s - mu))
        .sum::<f64>()
        / n;
    (mu, var, n)
}

/// An Elo estimate with its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference (±infinity for a score of 100% or 0%).
    pub elo: f64,
    /// Half-width of the 95% interval, as cutechess-cli computes it
    /// (infinite when the interval is unbounded).
    pub error: f64,
    /// Lower end of the 95% interval (−infinity when the score's interval
    /// reaches 0).
    pub low: f64,
    /// Upper end of the 95% interval (+infinity when it reaches 1).
    pub high: f64,
}

/// Elo of a score, infinite at 0 and 1.
fn elo_or_infinite(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        elo_from_score(score)
    }
}

fn estimate(mu: f64, var: f64, n: f64) -> EloEstimate {
    if n == 0.0 {
        return EloEstimate {
            elo: 0.0,
            error: f64::INFINITY,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let se = (var / n).sqrt();
    let (mut low, mut high) = (
        elo_or_infinite(mu - Z95 * se),
        elo_or_infinite(mu + Z95 * se),
    );
    // A clean sweep has no variance, and the normal interval shrinks to a
    // point; the exact (Clopper-Pearson) bound of n successes in n trials
    // says how far the sweep can be trusted.
    if var == 0.0 && (mu == 0.0 || mu == 1.0) {
        let bound = 0.025f64.powf(1.0 / n);
        if mu == 1.0 {
            (low, high) = (elo_from_score(bound), f64::INFINITY);
        } else {
            (low, high) = (f64::NEG_INFINITY, elo_from_score(1.0 - bound));
        }
    }
    EloEstimate {
        elo: elo_or_infinite(mu),
        error: (high - low) / 2.0,
        low,
        high,
    }
}

impl std::fmt::Display for EloEstimate {
    /// `+60.7 +/- 18.5`; when the interval is unbounded (a score near 0%
    /// or 100%) the interval itself: `+279.6 (95%: +136.4 to +inf)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let elo = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 {
                    "+inf".into()
                } else {
                    "-inf".into()
                }
            } else {
                format!("{x:+.1}")
            }
        };
        if self.error.is_finite() {
            write!(f, "{} +/- {:.1}", elo(self.elo), self.error)
        } else {
            write!(
                f,
                "{} (95%: {} to {})",
                elo(self.elo),
                elo(self.low),
                elo(self.high)
            )
        }
    }
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points (a win 1, a draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Elo with the 95% error bar over independent games.
    pub fn elo(&self) -> EloEstimate {
        let (mu, var, n) = mean_var(
            &[1.0, 0.5, 0.0],
            &[self.wins as f64, self.draws as f64, self.losses as f64],
        );
        estimate(mu, var, n)
    }

    /// Likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Game-pair results (each opening played twice with the seats swapped):
/// counts of pairs scoring 0, ½, 1, 1½ and 2 points — LL, LD, WL+DD, WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Adds a pair with this many points (0, 0.5, …, 2).
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Elo with the 95% error bar over game pairs.
    pub fn elo(&self) -> EloEstimate {
        let counts = self.0.map(|c| c as f64);
        let (mu, var, n) = mean_var(&PAIR_SCORES, &counts);
        estimate(mu, var, n)
    }
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (fishtest's and fastchess's default).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

/// The state of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// More games needed.
    Continue,
    /// H1 accepted: the gain is at least `elo1`.
    AcceptH1,
    /// H0 accepted: the gain is at most `elo0`.
    AcceptH0,
}

/// A sequential probability ratio test on game pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Elo model of the bounds.
    pub model: SprtModel,
}

/// Root of a monotone function on [a, b] by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let mut fa = f(a);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        let fm = f(m);
        if (fm > 0.0) == (fa > 0.0) {
            a = m;
            fa = fm;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// The distribution closest (maximum likelihood) to the observed `p` whose
/// mean is `s` (Van den Bergh, "Comments on Normalized Elo", prop. 1.1).
fn mle_with_mean(scores: &[f64; 5], p: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |theta: f64| {
        scores
            .iter()
            .zip(p)
            .map(|(a, pi)| pi * (a - s) / (1.0 + theta * (a - s)))
            .sum::<f64>()
    };
    let lo = -1.0 / (scores[4] - s) + 1e-12;
    let hi = -1.0 / (scores[0] - s) - 1e-12;
    let theta = bisect(f, lo, hi);
    std::array::from_fn(|i| p[i] / (1.0 + theta * (scores[i] - s)))
}

/// The distribution closest to the observed `p` whose normalized Elo is
/// `t` (same paper, section 4.1), by fixed-point iteration.
fn mle_with_normalized(scores: &[f64; 5], p: &[f64; 5], t: f64) -> [f64; 5] {
    let mut q = [0.2; 5];
    for _ in 0..1000 {
        let (mu, var, _) = mean_var(scores, &q);
        let sigma = var.sqrt();
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (scores[i] - mu) / sigma;
            scores[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let f = |theta: f64| {
            phi.iter()
                .zip(p)
                .map(|(f, pi)| pi * f / (1.0 + theta * f))
                .sum::<f64>()
        };
        let theta = bisect(f, -1.0 / v + 1e-12, -1.0 / u - 1e-12);
        let next: [f64; 5] = std::array::from_fn(|i| p[i] / (1.0 + theta * phi[i]));
        let diff = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if diff < 1e-10 {
            break;
        }
    }
    q
}

impl Sprt {
    /// (lower, upper) log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (counts of
    /// 0 are taken as 0.001, as fastchess does).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        let counts = penta.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let p = counts.map(|c| c / n);
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&PAIR_SCORES, &p, score_from_elo(self.elo0)),
                mle_with_mean(&PAIR_SCORES, &p, score_from_elo(self.elo1)),
            ),
            SprtModel::Normalized => {
                let k = 800.0 / std::f64::consts::LN_10;
                let t = |e: f64| std::f64::consts::SQRT_2 * e / k;
                (
                    mle_with_normalized(&PAIR_SCORES, &p, t(self.elo0)),
                    mle_with_normalized(&PAIR_SCORES, &p, t(self.elo1)),
                )
            }
        };
        n * (0..5)
            .map(|i| p[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_from_score_known_values() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(elo_from_score(0.64)), 0.64, 1e-12));
    }

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (-1.5, -0.966_105_146_475_310_7),
            (3.0, 0.999_977_909_503_001_4),
        ] {
            assert!(close(erf(x), want, 2e-7), "erf({x}) = {}", erf(x));
        }
    }

    /// Published cutechess-cli results: "449 - 276 - 275 … Elo difference:
    /// 60.7 +/- 18.5, LOS: 100.0 %" and "382 - 320 - 298 … 21.6 +/- 18.1,
    /// LOS: 99.0 %" (W - L - D).
    #[test]
    fn trinomial_elo_error_and_los_match_cutechess() {
        let a = Wdl {
            wins: 449,
            draws: 275,
            losses: 276,
        };
        let e = a.elo();
        assert!(
            close(e.elo, 60.7, 0.05) && close(e.error, 18.5, 0.05),
            "{e:?}"
        );
        assert!(a.los() > 0.9995);
        let b = Wdl {
            wins: 382,
            draws: 298,
            losses: 320,
        };
        let e = b.elo();
        assert!(
            close(e.elo, 21.6, 0.05) && close(e.error, 18.1, 0.05),
            "{e:?}"
        );
        assert!(close(b.los(), 0.990, 0.0005), "{}", b.los());
    }

    /// Elo of 0.025^(1/7), the exact 95% lower bound after 7 straight wins.
    fn seven_game_bound() -> f64 {
        elo_from_score(0.025f64.powf(1.0 / 7.0))
    }

    #[test]
    fn an_unbounded_interval_is_printed_as_an_interval() {
        let e = Wdl {
            wins: 449,
            draws: 275,
            losses: 276,
        }
        .elo();
        assert_eq!(e.to_string(), "+60.7 +/- 18.5");
        // 15-0-3: the score's interval passes 100%.
        let e = Wdl {
            wins: 15,
            draws: 0,
            losses: 3,
        }
        .elo();
        assert!(
            close(e.elo, 279.6, 0.05) && close(e.low, 116.1, 0.1),
            "{e:?}"
        );
        assert_eq!(e.high, f64::INFINITY);
        assert_eq!(e.to_string(), "+279.6 (95%: +116.1 to +inf)");
        let e = Wdl {
            wins: 0,
            draws: 0,
            losses: 7,
        }
        .elo();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert!(e.to_string().starts_with("-inf"), "{e}");
        // A sweep: the exact bound, (2.5%)^(1/n) = 0.9118 for 40 games.
        let e = Wdl {
            wins: 40,
            draws: 0,
            losses: 0,
        }
        .elo();
        assert!(close(e.low, 406.0, 0.5), "{e:?}");
        assert_eq!(e.to_string(), "+inf (95%: +406.0 to +inf)");
        let e = Wdl {
            wins: 0,
            draws: 0,
            losses: 7,
        }
        .elo();
        assert!(close(e.high, -seven_game_bound(), 0.05), "{e:?}");
    }

    /// Published fastchess results over game pairs: "Elo: 77.71 +/- 33.03
    /// … Ptnml(0-2): [1, 11, 47, 25, 16] … LLR: 1.71 … [0.00, 10.00]" and
    /// three more from the same log (normalized Elo bounds).
    #[test]
    fn pentanomial_elo_and_llr_match_fastchess() {
        let e = Pentanomial([1, 11, 47, 25, 16]).elo();
        assert!(
            close(e.elo, 77.71, 0.005) && close(e.error, 33.03, 0.005),
            "{e:?}"
        );
        let e = Pentanomial([1, 24, 42, 25, 8]).elo();
        assert!(
            close(e.elo, 26.11, 0.005) && close(e.error, 31.23, 0.005),
            "{e:?}"
        );
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        for (p, want) in [
            ([1, 11, 47, 25, 16], 1.71),
            ([1, 24, 42, 25, 8], 0.60),
            ([2, 23, 32, 35, 8], 0.92),
            ([1, 15, 25, 33, 26], 2.19),
        ] {
            let llr = sprt.llr(&Pentanomial(p));
            assert!(close(llr, want, 0.005), "{p:?}: {llr}");
        }
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944, 0.001) && close(hi, 2.944, 0.001));
        assert_eq!(sprt.verdict(3.0), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(-3.0), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(0.0), SprtVerdict::Continue);
    }

    /// Logistic-Elo GSPRT: checked against an independent implementation
    /// of the same maximum-likelihood formula (Python, 200-step bisection).
    #[test]
    fn logistic_llr_matches_an_independent_computation() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        for (p, want) in [
            ([1, 11, 47, 25, 16], 2.4036),
            ([1, 24, 42, 25, 8], 0.8661),
            ([2, 23, 32, 35, 8], 1.2748),
            ([1, 15, 25, 33, 26], 2.5563),
        ] {
            let llr = sprt.llr(&Pentanomial(p));
            assert!(close(llr, want, 0.0005), "{p:?}: {llr}");
        }
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut p = Pentanomial::default();
        for pts in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0] {
            p.add(pts);
        }
        assert_eq!(p.0, [1, 1, 2, 1, 2]);
        assert_eq!(p.pairs(), 7);
    }
}
