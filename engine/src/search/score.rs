//! Scores. Evaluations are centi-units well inside ±[`MATE_BOUND`]; proven
//! wins and losses count game turns.
//!
//! A proven result is scored from the search root: a win decided in game
//! turn `t` is `MATE − (t − root_turn)`, so it is worth more the sooner it
//! comes, and a loss is its negative. Turns, not steps, because a turn's
//! steps all belong to one player and the rules count turns. The
//! transposition table stores these relative to the node's own turn.

/// The score of a win in the root's own turn.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this magnitude are proven results.
pub const MATE_BOUND: i32 = MATE - 100_000;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;
/// A drawn (repeated) position.
pub const DRAW: i32 = 0;

/// A score as the protocol shows it, from the side to move at the root:
/// the protocol crate's, printed and read with the rest of the `info`
/// line's words.
pub use splut_protocol::Score;

/// The protocol's form of an internal root score.
pub fn from_internal(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Win((MATE - v) as u32 + 1)
    } else if v < -MATE_BOUND {
        Score::Loss((MATE + v) as u32 + 1)
    } else {
        Score::Cp(v)
    }
}

/// A win (from the root's side) decided in game turn `turn`.
#[inline]
pub fn win_in_turn(turn: u32, root_turn: u32) -> i32 {
    MATE - turn.saturating_sub(root_turn).min(50_000) as i32
}

/// Root-relative score to node-relative, for the table.
#[inline]
pub fn to_tt(v: i32, turns_from_root: u32) -> i32 {
    let t = turns_from_root.min(50_000) as i32;
    if v > MATE_BOUND {
        v + t
    } else if v < -MATE_BOUND {
        v - t
    } else {
        v
    }
}

/// Node-relative score from the table back to root-relative.
#[inline]
pub fn from_tt(v: i32, turns_from_root: u32) -> i32 {
    let t = turns_from_root.min(50_000) as i32;
    if v > MATE_BOUND {
        v - t
    } else if v < -MATE_BOUND {
        v + t
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_counts_turns_from_one() {
        assert_eq!(from_internal(win_in_turn(10, 10)).to_string(), "win 1");
        assert_eq!(from_internal(-win_in_turn(11, 10)).to_string(), "loss 2");
        assert_eq!(from_internal(37).to_string(), "cp 37");
        assert!(from_internal(win_in_turn(12, 10)).is_decided());
    }

    #[test]
    fn table_conversion_round_trips() {
        for v in [win_in_turn(15, 10), -win_in_turn(13, 10), 250, -40] {
            assert_eq!(from_tt(to_tt(v, 3), 3), v);
        }
        // Stored at a node 2 turns below the root: "win 3 turns from the
        // node", read back at a node 1 turn below: win 4 turns from root.
        let stored = to_tt(win_in_turn(14, 10), 2);
        assert_eq!(from_tt(stored, 1), win_in_turn(13, 10));
    }
}
