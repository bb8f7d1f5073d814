//! A per-thread cache of [`seat_scores`], keyed by the position's hash.
//!
//! A turn is three steps, and most orders of the same steps meet in the same
//! position, so the search's leaves repeat: the evaluation is more than
//! half of the search's time, and a leaf met again costs a look-up instead.
//! The scores depend only on the position (not on the search's root), so
//! one cache serves every search of a thread while the weights stay.

use super::{EvalParams, seat_scores};
use crate::game::Position;
use std::cell::RefCell;

/// Entries in a cache: 24 bytes each, 1.5 MiB in all.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    scores: [i32; 4],
}

/// Recently computed [`seat_scores`], one entry per hash slot (a newer
/// position replaces an older one in its slot).
pub struct EvalCache {
    entries: Box<[Entry]>,
}

thread_local! {
    /// The cache a search on this thread gave back, with its weights: the
    /// next search reuses it instead of filling 1.5 MiB afresh (which costs
    /// more than a 500-node search, `splut datagen`'s default).
    static SPARE: RefCell<Option<(EvalParams, EvalCache)>> = const { RefCell::new(None) };
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> EvalCache {
        EvalCache {
            // Key 0 marks an empty slot: no position hashes to 0 in practice,
            // and one that did would only be evaluated afresh each time.
            entries: vec![
                Entry {
                    key: 0,
                    scores: [0; 4],
                };
                ENTRIES
            ]
            .into_boxed_slice(),
        }
    }

    /// This thread's cache for `params`: the one its last search gave back
    /// ([`EvalCache::give_back`]) if that search used the same weights,
    /// else an empty one.
    pub fn take_for(params: &EvalParams) -> EvalCache {
        let spare = SPARE.with(|s| s.borrow_mut().take());
        match spare {
            Some((p, cache)) if p == *params => cache,
            _ => EvalCache::new(),
        }
    }

    /// Hands this cache's entries, computed under `params`, to the thread's
    /// next [`EvalCache::take_for`]; this cache is left without entries
    /// (it still answers, computing every time).
    pub fn give_back(&mut self, params: &EvalParams) {
        let cache = EvalCache {
            entries: std::mem::take(&mut self.entries),
        };
        SPARE.with(|s| *s.borrow_mut() = Some((params.clone(), cache)));
    }

    /// [`seat_scores`] of `pos` under `params`, from the cache when the
    /// position was evaluated last in its slot. Every call on one cache
    /// must pass the same weights.
    #[inline]
    pub fn seat_scores(&mut self, pos: &Position, params: &EvalParams) -> [i32; 4] {
        let key = pos.hash();
        // The table's buckets come from the high bits; the low ones here.
        let Some(slot) = self.entries.get_mut(key as usize & (ENTRIES - 1)) else {
            return seat_scores(pos, params);
        };
        if slot.key == key && key != 0 {
            return slot.scores;
        }
        let scores = seat_scores(pos, params);
        *slot = Entry { key, scores };
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::DEFAULT_PARAMS;
    use crate::game::Position;

    /// Over random games the cached scores equal fresh ones, whether the
    /// position was met before or not.
    #[test]
    fn cached_scores_equal_fresh_ones() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(5);
        let mut cache = EvalCache::new();
        let mut seen = Vec::new();
        for game in 0..15 {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 60 {
                let fresh = seat_scores(&p, &DEFAULT_PARAMS);
                assert_eq!(cache.seat_scores(&p, &DEFAULT_PARAMS), fresh);
                assert_eq!(cache.seat_scores(&p, &DEFAULT_PARAMS), fresh);
                seen.push((p, fresh));
                let steps = p.legal_step_vec();
                p = p.after(steps[rng.random_range(0..steps.len())]);
            }
        }
        // Positions met long ago: evicted or not, the scores are right.
        assert!(seen.len() > 500);
        for (p, fresh) in &seen {
            assert_eq!(cache.seat_scores(p, &DEFAULT_PARAMS), *fresh);
        }
    }
}
