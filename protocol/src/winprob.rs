//! Win probabilities from a search score: the engine's `info … winprob`
//! (option `UCI_ShowWinProb`, protocol.md), in one place so that any
//! client (the web board) maps a score the same way. The `winprob` words
//! themselves are printed and read in [`crate::words`].
//!
//! The side to move's chance to win is a logistic function of its score,
//! `1 / (1 + exp(−(cp − offset) / scale))`, with `scale` and `offset`
//! fitted by count of seats in the game on the engine's self-play data
//! (`splut datagen`, each position's search score against whether the side
//! to move went on to win; docs/results/winprob.md has the data, the
//! command and the fit, `tools/examples/winprob_fit.rs` the fit itself). A proven
//! win is 1, a proven loss 0. With 3–4 seats the rest of the probability
//! is shared equally by the other seats still in the game: the score is
//! the paranoid one (the side to move against all the others together), so
//! it says nothing about which of them is ahead.
//!
//! Depends on the rules core only.

use splut_rules::Seat;

/// A score as the engine reports it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimate {
    /// An evaluation in centi-units.
    Cp(i32),
    /// A proven win.
    Win,
    /// A proven loss.
    Loss,
}

/// A reported score as an estimate: a proven result counts as a win or
/// a loss, whatever the turns.
impl From<crate::Score> for Estimate {
    fn from(score: crate::Score) -> Estimate {
        match score {
            crate::Score::Cp(v) => Estimate::Cp(v),
            crate::Score::Win(_) => Estimate::Win,
            crate::Score::Loss(_) => Estimate::Loss,
        }
    }
}

/// The fitted mapping for one count of seats: (scale, offset), both in
/// centi-units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Centi-units per unit of the logistic's argument.
    pub scale: f64,
    /// The score at which the side to move wins half its games.
    pub offset: f64,
}

/// The fits for 2, 3 and 4 seats (docs/results/winprob.md, 2026-11-25:
/// 60000 positions of `splut datagen --positions 20000 --seed 7` with
/// 2, 3 and 4 players, by the seats left in each position). With 3–4
/// seats the paranoid score says little about who will win: the fits are
/// nearly flat, close to an even share.
pub const FITS: [Fit; 3] = [
    Fit {
        scale: 457.8,
        offset: 88.8,
    },
    Fit {
        scale: 5055.2,
        offset: 3839.6,
    },
    Fit {
        scale: 11201.1,
        offset: 12817.3,
    },
];

/// The fit for `players` seats in the game (below 2 counts as 2, above 4
/// as 4).
pub fn fit(players: usize) -> Fit {
    FITS[players.clamp(2, 4) - 2]
}

/// The side to move's chance to win with `players` seats in the game.
pub fn side_to_move(players: usize, score: Estimate) -> f64 {
    match score {
        Estimate::Win => 1.0,
        Estimate::Loss => 0.0,
        Estimate::Cp(cp) => {
            let f = fit(players);
            1.0 / (1.0 + (-(f64::from(cp) - f.offset) / f.scale).exp())
        }
    }
}

/// Every seat's chance to win, in the order of `seats` (the seats still
/// in the game, `mover` among them): the side to move's from its score,
/// the rest shared equally by the others. The chances sum to 1.
pub fn win_probabilities(seats: &[Seat], mover: Seat, score: Estimate) -> Vec<(Seat, f64)> {
    let p = side_to_move(seats.len(), score);
    let others = seats.iter().filter(|&&s| s != mover).count();
    seats
        .iter()
        .map(|&s| {
            let q = if s == mover {
                p
            } else {
                (1.0 - p) / others as f64
            };
            (s, q)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_rise_with_the_score_and_sum_to_one() {
        for players in 2..=4 {
            let seats = &Seat::ALL[..players];
            let mut last = -1.0;
            for cp in (-3000..=3000).step_by(100) {
                let ps = win_probabilities(seats, seats[1], Estimate::Cp(cp));
                let sum: f64 = ps.iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() < 1e-9, "{players} {cp}");
                assert!(ps[1].1 > last, "{players} {cp}");
                last = ps[1].1;
            }
        }
        let seats = [Seat::Red, Seat::Green];
        assert_eq!(
            win_probabilities(&seats, Seat::Green, Estimate::Win),
            vec![(Seat::Red, 0.0), (Seat::Green, 1.0)]
        );
        assert_eq!(side_to_move(3, Estimate::Loss), 0.0);
    }
}
