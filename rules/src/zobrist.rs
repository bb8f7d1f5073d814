//! Zobrist keys. Every part of the state that changes which steps are legal,
//! now or later in the game, has keys: pieces and rocks on squares, side to
//! move, steps left, levitation state, cooling rocks, rocks moved this turn,
//! and whether this is the game's first turn (the next turn then has two
//! steps). The turn number beyond that does not change any future step, so it
//! is deliberately left out: equal hashes then mean equal futures.
//!
//! Keys are generated at compile time with SplitMix64 from a fixed seed, so
//! hashes are identical across builds and machines.

use super::board::NUM_SQUARES;

/// All Zobrist keys.
pub struct Keys {
    /// Team pieces: `[seat][kind][square]`.
    pub piece: [[[u64; NUM_SQUARES]; 3]; 4],
    /// A rock on a square.
    pub rock: [u64; NUM_SQUARES],
    /// A cooling rock (moved in the previous turn) on a square.
    pub cooling: [u64; NUM_SQUARES],
    /// A rock on a square that was moved during this turn.
    pub moved: [u64; NUM_SQUARES],
    /// Side to move.
    pub side: [u64; 4],
    /// Steps left in the turn (0 never occurs in a position).
    pub steps: [u64; 4],
    /// Levitation: rock squares 0..41, then "over" at index 42; "not started"
    /// (index 41) is the zero key so the start of every turn adds nothing.
    pub levitation: [u64; NUM_SQUARES + 2],
    /// The game's first turn.
    pub first_turn: u64,
}

/// SplitMix64, the crate's one seed mixer: advances `state` and returns the
/// next number. It generates the Zobrist keys, spreads a run's seed and a
/// game's number into a game's seed (`splut datagen`), and gives the tests
/// their random numbers.
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn fill<const N: usize>(state: &mut u64) -> [u64; N] {
    let mut a = [0; N];
    let mut i = 0;
    while i < N {
        a[i] = splitmix64(state);
        i += 1;
    }
    a
}

const fn build() -> Keys {
    let mut st = 0x5A1E_7E55_0000_0001u64;
    let mut piece = [[[0; NUM_SQUARES]; 3]; 4];
    let mut s = 0;
    while s < 4 {
        let mut k = 0;
        while k < 3 {
            piece[s][k] = fill(&mut st);
            k += 1;
        }
        s += 1;
    }
    let rock = fill(&mut st);
    let cooling = fill(&mut st);
    let moved = fill(&mut st);
    let side = fill(&mut st);
    let steps = fill(&mut st);
    let mut levitation: [u64; NUM_SQUARES + 2] = fill(&mut st);
    levitation[NUM_SQUARES] = 0;
    let first_turn = splitmix64(&mut st);
    Keys {
        piece,
        rock,
        cooling,
        moved,
        side,
        steps,
        levitation,
        first_turn,
    }
}

/// The keys.
pub static KEYS: Keys = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().flatten().copied().collect();
        all.extend(KEYS.rock);
        all.extend(KEYS.cooling);
        all.extend(KEYS.moved);
        all.extend(KEYS.side);
        all.extend(KEYS.steps);
        all.extend(KEYS.levitation.iter().filter(|&&k| k != 0));
        all.push(KEYS.first_turn);
        let n = all.len();
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
