//! What a search thread keeps for its evaluation ([`EvalState`]): a cache
//! of [`seat_scores`] keyed by the position's hash, or the network's
//! accumulators.
//!
//! A turn is three steps, and most orders of the same steps meet in the same
//! position, so the search's leaves repeat: the evaluation is more than
//! half of the search's time, and a leaf met again costs a look-up instead.
//! The scores depend only on the position (not on the search's root), so
//! one cache serves a thread's searches one after another while the
//! weights stay: the thread's search `Worker` keeps it, and
//! [`EvalCaches`] the caches no worker holds.

use super::nnue::{AccumulatorStack, Network};
use super::{EvalParams, seat_scores};
use splut_rules::Position;
use std::sync::{Arc, Mutex};

/// Entries in a cache: 24 bytes each, 1.5 MiB in all.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    scores: [i32; 4],
}

/// An empty slot: key 0 marks it (no position hashes to 0 in practice, and
/// one that did would only be evaluated afresh each time).
const EMPTY: Entry = Entry {
    key: 0,
    scores: [0; 4],
};

/// Recently computed [`seat_scores`], one entry per hash slot (a newer
/// position replaces an older one in its slot).
pub struct EvalCache {
    entries: Box<[Entry]>,
}

/// Most caches an [`EvalCaches`] keeps: one per search thread there can be.
const MAX_SPARE: usize = 256;

/// Caches that no search thread holds, for a later one under the same
/// weights: a thread whose searches turn to the network sets its cache
/// aside here, and a thread that needs one (its first hand-written search,
/// or its first after the network's) takes one, so that it need not fill
/// 1.5 MiB afresh (which costs more than a 500-node search, `splut
/// datagen`'s default). Whoever owns the transposition table owns one of
/// these and hands both to every search ([`EvalState::use_hand`]).
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
            entries: vec![EMPTY; ENTRIES].into_boxed_slice(),
        }
    }

    /// Forgets every entry (the weights changed).
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
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

/// What one search thread keeps for its evaluation from one search to the
/// next (a search `Worker`'s): the hand-written evaluation's
/// cache or the network's accumulators, whichever its last search
/// evaluated with. A search readies it as it begins ([`Self::use_hand`],
/// [`Self::use_network`]); a search that switches from one to the other
/// drops the accumulators, or sets the cache aside in [`EvalCaches`].
#[derive(Default)]
pub enum EvalState {
    /// No search has evaluated on this thread yet.
    #[default]
    Empty,
    /// The hand-written evaluation: seat scores under `params`.
    Hand {
        /// The weights the cached scores are under.
        params: EvalParams,
        /// The scores of positions evaluated lately.
        cache: EvalCache,
    },
    /// The network's accumulators (the network is theirs).
    Network(AccumulatorStack),
}

impl EvalState {
    /// Readies the hand-written evaluation under `params` for a search:
    /// the cache kept when its scores are under the same weights, emptied
    /// when under others; a thread without one takes one from `spare`.
    pub fn use_hand(&mut self, params: &EvalParams, spare: &EvalCaches) {
        if let EvalState::Hand {
            params: kept,
            cache,
        } = self
        {
            if kept != params {
                cache.clear();
                kept.clone_from(params);
            }
            return;
        }
        *self = EvalState::Hand {
            params: params.clone(),
            cache: spare.take(params),
        };
    }

    /// Readies `net`'s accumulators for a search of `root`
    /// ([`AccumulatorStack::new_search`]); a hand-written evaluation's
    /// cache is set aside in `spare`.
    pub fn use_network(&mut self, net: &Arc<Network>, root: &Position, spare: &EvalCaches) {
        if let EvalState::Network(stack) = self {
            stack.new_search(net, root);
            return;
        }
        let was = std::mem::replace(self, EvalState::Network(AccumulatorStack::new(net, root)));
        if let EvalState::Hand { params, cache } = was {
            spare.give_back(&params, cache);
        }
    }

    /// The network's accumulators, when it evaluates.
    #[inline]
    pub fn network(&mut self) -> Option<&mut AccumulatorStack> {
        match self {
            EvalState::Network(stack) => Some(stack),
            _ => None,
        }
    }

    /// Each seat's score of `pos` under `params`: the network's values
    /// (`pos` the accumulators' top entry's position), or the hand-written
    /// evaluation's through the cache.
    #[inline]
    pub fn seat_scores(&mut self, pos: &Position, params: &EvalParams) -> [i32; 4] {
        match self {
            EvalState::Network(stack) => stack.values(pos),
            EvalState::Hand { cache, .. } => cache.seat_scores(pos, params),
            EvalState::Empty => seat_scores(pos, params),
        }
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
        assert_eq!(filled(&cache), 1);
        caches.give_back(&DEFAULT_PARAMS, cache);
        let again = caches.take(&DEFAULT_PARAMS);
        assert_eq!(filled(&again), 1);
        caches.give_back(&DEFAULT_PARAMS, again);
        let mut other = DEFAULT_PARAMS;
        other.dwarf += 1;
        assert_eq!(filled(&caches.take(&other)), 0);
        caches.give_back(&other, EvalCache::new());
        assert_eq!(filled(&caches.take(&DEFAULT_PARAMS)), 0, "dropped");
    }

    /// Entries filled in a cache.
    fn filled(c: &EvalCache) -> usize {
        c.entries.iter().filter(|e| e.key != 0).count()
    }

    /// The entries filled in `state`'s cache; None without one.
    fn hand_filled(state: &EvalState) -> Option<usize> {
        match state {
            EvalState::Hand { cache, .. } => Some(filled(cache)),
            _ => None,
        }
    }

    /// A thread's evaluation state: its cache kept from one search to the
    /// next under the same weights, emptied under others, set aside while
    /// the network evaluates and taken again after; the accumulators on
    /// the network of the search; the scores always the evaluation's.
    #[test]
    fn a_threads_evaluation_state_follows_its_searches() {
        use crate::eval::nnue::{Network, seat_values};
        let spare = EvalCaches::new();
        let pos = Position::start(3).unwrap();
        let mut other = DEFAULT_PARAMS;
        other.dwarf += 1;
        let mut state = EvalState::default();
        assert_eq!(state.seat_scores(&pos, &other), seat_scores(&pos, &other));
        state.use_hand(&DEFAULT_PARAMS, &spare);
        let fresh = seat_scores(&pos, &DEFAULT_PARAMS);
        assert_eq!(state.seat_scores(&pos, &DEFAULT_PARAMS), fresh);
        assert!(state.network().is_none());
        state.use_hand(&DEFAULT_PARAMS, &spare);
        assert_eq!(hand_filled(&state), Some(1), "kept");
        state.use_hand(&other, &spare);
        assert_eq!(hand_filled(&state), Some(0), "emptied");
        assert_eq!(state.seat_scores(&pos, &other), seat_scores(&pos, &other));
        let nets = [1, 2].map(|seed| Arc::new(Network::pseudo_random(seed, 300)));
        for net in nets.iter().chain(&nets) {
            state.use_network(net, &pos, &spare);
            assert_eq!(hand_filled(&state), None);
            assert!(std::ptr::eq(state.network().unwrap().network(), &**net));
            assert_eq!(state.seat_scores(&pos, &other), seat_values(net, &pos));
        }
        // The cache was set aside under `other`: taken again with its entry.
        state.use_hand(&other, &spare);
        assert_eq!(hand_filled(&state), Some(1));
        assert_eq!(state.seat_scores(&pos, &other), seat_scores(&pos, &other));
    }
}
