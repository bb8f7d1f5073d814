//! The hand-written evaluation as the network's prior.
//!
//! A network trained with a prior ([`super::Network::has_prior`]) adds to
//! each seat's value its gain times the seat's *relative* hand-written
//! score: the seat's [`crate::eval::seat_scores`] less the mean of the
//! other in-game seats'. The trainer ([`crate::train`]) and the search
//! both take it from here, so the two cannot differ.

use crate::game::Position;

/// Each in-game seat's hand-written score less the mean of the other
/// in-game seats' (0 for seats out of the game, and for all with fewer
/// than two seats in the game).
pub fn relative(pos: &Position, scores: &[i32; 4]) -> [i32; 4] {
    let mut rel = [0; 4];
    let n = pos.players_left() as i64;
    if n < 2 {
        return rel;
    }
    let total: i64 = pos.seats_in_game().map(|s| i64::from(scores[s.index()])).sum();
    for s in pos.seats_in_game() {
        let own = i64::from(scores[s.index()]);
        rel[s.index()] = (own - (total - own) / (n - 1)) as i32;
    }
    rel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_scores_are_against_the_other_seats_mean() {
        let two = Position::start(2).unwrap();
        assert_eq!(relative(&two, &[100, 0, -40, 0]), [140, 0, -140, 0]);
        let four = Position::start(4).unwrap();
        assert_eq!(relative(&four, &[90, 0, 30, -30]), [90, -30, 10, -70]);
    }
}
