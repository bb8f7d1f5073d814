//! A per-thread cache of [`seat_scores`], keyed by the position's hash.
//!
//! A turn is three steps, and most orders of the same steps meet in the same
//! position, so the search's leaves repeat: the evaluation is more than
//! half of the search's time, and a leaf met again costs a look-up instead.
//! The scores depend only on the position (not on the search's root), so
//! one cache serves one search thread after another while the weights stay:
//! [`EvalCaches`] keeps them between searches.

use super::{EvalParams, seat_scores};
use splut_rules::Position;
use std::sync::Mutex;

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

/// Most caches an [`EvalCaches`] keeps: one per search thread there can be.
const MAX_SPARE: usize = 256;

/// The caches of finished searches, for the next ones: a search thread
/// takes one for its weights and gives it back when it ends, so the next
/// search need not fill 1.5 MiB afresh (which costs more than a 500-node
/// search, `splut datagen`'s default). Whoever owns the transposition
/// table owns one of these and hands both to every search.
#[derive(Default)]
pub struct EvalCaches {
    spare: Mutex<Vec<(EvalParams, EvalCache)>>,
}

impl EvalCaches {
    /// None kept yet.
    pub fn new() -> EvalCaches {
        EvalCaches::default()
    }

    /// A cache of scores under `params`: one a finished search gave back
    /// under the same weights, else an empty one.
    pub fn take(&self, params: &EvalParams) -> EvalCache {
        let Ok(mut spare) = self.spare.lock() else {
            return EvalCache::new();
        };
        match spare.iter().rposition(|(p, _)| p == params) {
            Some(i) => spare.swap_remove(i).1,
            None => EvalCache::new(),
        }
    }

    /// Keeps `cache`, filled under `params`, for a later [`EvalCaches::take`];
    /// caches of other weights are dropped (the weights changed).
    pub fn give_back(&self, params: &EvalParams, cache: EvalCache) {
        if let Ok(mut spare) = self.spare.lock() {
            spare.retain(|(p, _)| p == params);
            if spare.len() < MAX_SPARE {
                spare.push((params.clone(), cache));
            }
        }
    }
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

    /// Moves the entries out into a cache of their own, leaving this one
    /// without (it still answers, computing every time): how a search
    /// that ends hands its cache back without copying 1.5 MiB.
    pub fn take_entries(&mut self) -> EvalCache {
        EvalCache {
            entries: std::mem::take(&mut self.entries),
        }
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
    use splut_rules::Position;

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

    /// A cache given back is taken again for the same weights, with its
    /// entries; other weights get an empty one, and drop the old.
    #[test]
    fn caches_are_kept_for_the_same_weights() {
        let caches = EvalCaches::new();
        let pos = Position::start(2).unwrap();
        let mut cache = caches.take(&DEFAULT_PARAMS);
        cache.seat_scores(&pos, &DEFAULT_PARAMS);
        let filled = |c: &EvalCache| c.entries.iter().filter(|e| e.key != 0).count();
        assert_eq!(filled(&cache), 1);
        caches.give_back(&DEFAULT_PARAMS, cache.take_entries());
        assert_eq!(cache.entries.len(), 0, "the entries moved out");
        let again = caches.take(&DEFAULT_PARAMS);
        assert_eq!(filled(&again), 1);
        caches.give_back(&DEFAULT_PARAMS, again);
        let mut other = DEFAULT_PARAMS;
        other.dwarf += 1;
        assert_eq!(filled(&caches.take(&other)), 0);
        caches.give_back(&other, EvalCache::new());
        assert_eq!(filled(&caches.take(&DEFAULT_PARAMS)), 0, "dropped");
    }
}
