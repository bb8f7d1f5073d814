//! The accumulators along the search's path.
//!
//! Each entry holds every in-game seat's accumulator and the position's
//! [`Boards`]. A push records the boards; the accumulators are computed
//! when the position is first evaluated (or a descendant is), so entries
//! cut off before any evaluation cost no vector work. A child entry's
//! accumulators are made from its parent's by diffing the boards
//! (removed = old & !new, added = new & !old) and applying the changed
//! inputs' columns: the diff covers every kind of step (a move, a push of
//! a row, a throw's kill of a whole team, a levitation, several steps at
//! once) without knowing which it was. Only the root entry is computed
//! from scratch ([`AccumulatorStack::refresh`]).
//!
//! A search thread keeps its stack from one search to the next (in its
//! search `Worker`), so its buffers are allocated once.

use super::features::{BUCKETS, Boards, board_input, boards, bucket, threat_inputs, threats};
#[cfg(target_arch = "x86_64")]
use super::kernels::Avx2;
use super::kernels::{Base, Kernels};
use super::network::{Accumulator, Network};
use splut_rules::{Bitboard, Position, Seat, Square};
use std::cell::Cell;
use std::sync::Arc;

/// One position's accumulators, one per seat (a seat out of the game
/// keeps stale values, never read), 64-byte aligned for vector loads.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry {
    acc: [Accumulator; 4],
    boards: Boards,
    /// Bit `s`: seat `s` is in the game (its accumulator valid once
    /// `ready`).
    seats: u8,
    /// Whether the accumulators are computed: a pushed entry waits until
    /// its position is evaluated, since many are never (a cut-off below
    /// them, or only their children evaluated).
    ready: bool,
}

impl Entry {
    /// The entry of `pos`, from scratch.
    fn new(net: &Network, pos: &Position) -> Entry {
        let b = boards(pos);
        let mut e = Entry {
            boards: b,
            seats: seat_mask(pos),
            ready: true,
            ..EMPTY_ENTRY
        };
        for view in pos.seats_in_game() {
            let acc = &mut e.acc[view.index()];
            *acc = net.hidden_bias;
            for (i, board) in b.iter().enumerate() {
                for sq in *board {
                    Base::add(acc, &net.input_weights[board_input(view, i, sq)]);
                }
            }
        }
        e
    }

    /// [`Entry::values`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
    fn values_avx2(&self, net: &Network, pos: &Position, bits: u32) -> [i32; 4] {
        self.values::<Avx2>(net, pos, bits)
    }

    /// Each in-game seat's value of `pos`, this entry's position, whose
    /// threats ([`threats`]) are `bits`.
    #[inline(always)]
    fn values<K: Kernels>(&self, net: &Network, pos: &Position, bits: u32) -> [i32; 4] {
        // A push or pop missed by the search shows here (tests run with
        // debug assertions).
        debug_assert!(self.boards == boards(pos), "accumulator out of step: {pos}");
        let mut v = [0; 4];
        for view in Seat::ALL {
            if self.seats & (1 << view.index()) != 0 {
                let b = bucket(pos, view).min(BUCKETS - 1);
                let acc = &self.acc[view.index()];
                v[view.index()] = if bits == 0 {
                    net.value_with::<K>(acc, b)
                } else {
                    // The threat inputs' columns, added in registers as
                    // the value is read (no copy of the accumulator).
                    let columns = threat_inputs(view, bits).map(|i| &net.input_weights[i]);
                    net.value_plus_with::<K>(acc, columns, b)
                };
            }
        }
        v
    }
}

const EMPTY_ENTRY: Entry = Entry {
    acc: [Accumulator::ZERO; 4],
    boards: [Bitboard::EMPTY; 13],
    seats: 0,
    ready: false,
};

/// Most inputs one push may change: every piece and rock leaving and
/// coming back (a position is 16 inputs at most).
const MAX_CHANGES: usize = 32;

/// What fills the unused slots of the lists of changed inputs.
const FILLER: Square = match Square::new(0) {
    Some(s) => s,
    None => panic!("square 0 is on the board"),
};

/// Slots of a stack's threat cache (a power of two).
const THREAT_SLOTS: usize = 1 << 11;

/// Slots of a stack's value cache (a power of two): 128 KiB. The
/// repeats are mostly near in time (one turn's orders), so 4 times as
/// many slots found no more speed in `splut bench`, and datagen's short
/// searches ran 4% slower with them (docs/results/speed.md).
const VALUE_SLOTS: usize = 1 << 12;

/// A value cache slot: the values of the position hashing to `key`,
/// written by the stack whose stamp is `stamp`.
#[derive(Clone, Copy)]
struct Cached {
    key: u64,
    stamp: u32,
    values: [i32; 4],
}

const EMPTY_CACHED: Cached = Cached {
    key: 0,
    stamp: 0,
    values: [0; 4],
};

/// The accumulator stack of one search thread, over one network at a
/// time, kept from one search to the next: a new stack's buffers,
/// allocated and zeroed for each of datagen's searches of a few hundred
/// nodes, were about 3% of its time. The entries need no clearing
/// between searches (only the root's is read before it is written), and
/// the cached threats stay true: they depend on the position alone.
pub struct AccumulatorStack {
    net: Arc<Network>,
    entries: Vec<Entry>,
    /// Entries in use; `entries[len - 1]` is the current position's.
    len: usize,
    /// The threats of recently evaluated positions by hash (hash, bits):
    /// the search evaluates many positions more than once, and finding
    /// the threats costs more than the rest of an evaluation.
    threat_cache: Box<[Cell<(u64, u32)>]>,
    /// The values of positions this stack evaluated, by hash: a turn's
    /// steps in another order meet in the same position, so the search
    /// evaluates many leaves more than once, and a hit skips the
    /// accumulator update as well as the output. The slots are kept from
    /// the stack's earlier searches (maybe of other networks): only those
    /// with this search's `stamp` are read.
    value_cache: Box<[Cached]>,
    stamp: u32,
    /// Whether this CPU has AVX2 ([`wide_vectors`]): then the push and the
    /// values run the copies of their bodies compiled for it (the tests
    /// clear it to check the baseline copies against them). Never set
    /// on other architectures.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

/// Whether this CPU has AVX2 (with BMI1, BMI2 and LZCNT). The build's
/// baseline is x86-64-v2 (128-bit vectors); the network's push and values
/// are compiled a second time for these features (256-bit vectors) and
/// chosen at run time: `splut bench --eval nnue` takes about 0.86 of the
/// time with them, where building the whole engine for x86-64-v3 slows
/// the hand-written evaluation by about 5% (docs/results/speed.md).
pub fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The threats of `pos` for `net`: none for a network without threat
/// weights (it need not look).
#[inline]
fn threats_for(net: &Network, pos: &Position) -> u32 {
    if net.threats { threats(pos) } else { 0 }
}

/// The in-game seats of `pos` as a bit set.
fn seat_mask(pos: &Position) -> u8 {
    pos.seats_in_game().fold(0, |m, s| m | 1 << s.index())
}

impl AccumulatorStack {
    /// A stack for `net`, its root entry built from `pos`.
    pub fn new(net: &Arc<Network>, pos: &Position) -> AccumulatorStack {
        let mut s = AccumulatorStack {
            net: net.clone(),
            // Deep enough for most searches; a deeper one grows it.
            entries: vec![EMPTY_ENTRY; 32],
            len: 1,
            threat_cache: vec![Cell::new((0, 0)); THREAT_SLOTS].into_boxed_slice(),
            value_cache: vec![EMPTY_CACHED; VALUE_SLOTS].into_boxed_slice(),
            stamp: 0,
            avx2: wide_vectors(),
        };
        s.new_search(net, pos);
        s
    }

    /// Readies the stack for a new search with `net`, its root entry built
    /// from `pos`: the values the stack cached before are not read again.
    pub fn new_search(&mut self, net: &Arc<Network>, pos: &Position) {
        if !Arc::ptr_eq(&self.net, net) {
            self.net = net.clone();
        }
        // A new stamp hides the earlier searches' values without clearing
        // the cache (which costs more than a datagen search); only when
        // the stamps run out is it cleared. Stamp 0 marks an empty slot.
        self.stamp = self.stamp.checked_add(1).unwrap_or_else(|| {
            self.value_cache.fill(EMPTY_CACHED);
            1
        });
        self.refresh(pos);
    }

    /// The network evaluated.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Empties the stack and builds its root entry from scratch.
    pub fn refresh(&mut self, pos: &Position) {
        self.entries[0] = Entry::new(&self.net, pos);
        self.len = 1;
    }

    /// Entries in use (1 at the root).
    pub fn depth(&self) -> usize {
        self.len
    }

    /// Makes the entry of `pos`, a position reached from the current
    /// entry's by any steps: its boards now, its accumulators when first
    /// needed ([`Self::values`]), incrementally from its parent's.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        if self.len == self.entries.len() {
            self.entries.push(EMPTY_ENTRY);
        }
        let child = &mut self.entries[self.len];
        child.boards = boards(pos);
        child.seats = seat_mask(pos);
        child.ready = false;
        self.len += 1;
    }

    /// Computes the current entry's accumulators, and those of its
    /// ancestors not computed yet, each from its parent's.
    #[inline]
    #[allow(unsafe_code)]
    fn update(&mut self) {
        if self.entries[self.len - 1].ready {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the CPU has the features
            // enabled ([`wide_vectors`]).
            return unsafe { self.update_avx2() };
        }
        self.update_body::<Base>();
    }

    /// [`Self::update`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
    fn update_avx2(&mut self) {
        self.update_body::<Avx2>();
    }

    /// [`Self::update`]'s body, inlined into each of its copies.
    #[inline(always)]
    fn update_body<K: Kernels>(&mut self) {
        // The root entry is always ready.
        let mut first = self.len - 1;
        while !self.entries[first].ready {
            first -= 1;
        }
        for i in first + 1..self.len {
            self.compute::<K>(i);
        }
    }

    /// Entry `i`'s accumulators from entry `i - 1`'s, by the boards' diff.
    #[inline(always)]
    fn compute<K: Kernels>(&mut self, i: usize) {
        let (done, rest) = self.entries.split_at_mut(i);
        let (parent, child) = (&done[i - 1], &mut rest[0]);
        // Changed squares per board: few, so gathered first.
        let mut removed = [(0u8, FILLER); MAX_CHANGES];
        let mut added = [(0u8, FILLER); MAX_CHANGES];
        let (mut nr, mut na) = (0, 0);
        for i in 0..13 {
            let (old, new) = (parent.boards[i], child.boards[i]);
            // Most steps change one or two of the 13 boards.
            if old == new {
                continue;
            }
            for sq in old & !new {
                removed[nr] = (i as u8, sq);
                nr += 1;
            }
            for sq in new & !old {
                added[na] = (i as u8, sq);
                na += 1;
            }
        }
        let cols = &self.net.input_weights;
        let column =
            |view: Seat, (i, sq): (u8, Square)| &cols[board_input(view, usize::from(i), sq)];
        for view in Seat::ALL {
            if child.seats & (1 << view.index()) == 0 {
                continue;
            }
            let (src, dst) = (&parent.acc[view.index()], &mut child.acc[view.index()]);
            // The usual step: one piece moves (one input off, one on).
            if nr == 1 && na == 1 {
                K::sub_add(dst, src, column(view, removed[0]), column(view, added[0]));
                continue;
            }
            // Several: one pass, the accumulator held in registers.
            let off = removed[..nr].iter().map(|&r| column(view, r));
            K::apply(dst, src, off, added[..na].iter().map(|&a| column(view, a)));
        }
        child.ready = true;
    }

    /// Back to the parent entry (on unmake).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "pop of the root entry");
        self.len = self.len.saturating_sub(1).max(1);
    }

    /// Each in-game seat's value of `pos` (the current entry's position),
    /// in evaluation units; 0 for seats out of the game.
    #[inline]
    pub fn values(&mut self, pos: &Position) -> [i32; 4] {
        let key = pos.hash();
        let (stamp, slot) = (self.stamp, key as usize & (VALUE_SLOTS - 1));
        if let Some(c) = self.value_cache.get(slot)
            && c.key == key
            && c.stamp == stamp
        {
            return c.values;
        }
        let values = self.compute_values(pos);
        if let Some(c) = self.value_cache.get_mut(slot) {
            *c = Cached { key, stamp, values };
        }
        values
    }

    /// [`Self::values`] without the cache.
    #[inline]
    #[allow(unsafe_code)]
    fn compute_values(&mut self, pos: &Position) -> [i32; 4] {
        self.update();
        let bits = self.threat_bits(pos);
        let entry = &self.entries[self.len - 1];
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the CPU has the features
            // enabled ([`wide_vectors`]).
            return unsafe { entry.values_avx2(&self.net, pos, bits) };
        }
        entry.values::<Base>(&self.net, pos, bits)
    }

    /// The threats of `pos` through the cache (none for a network without
    /// threat weights).
    #[inline]
    fn threat_bits(&self, pos: &Position) -> u32 {
        if self.net.threats {
            let h = pos.hash();
            let slot = &self.threat_cache[h as usize & (THREAT_SLOTS - 1)];
            match slot.get() {
                // Hash 0 is the empty slot's: never trusted.
                (k, bits) if k == h && h != 0 => bits,
                _ => {
                    let bits = threats(pos);
                    slot.set((h, bits));
                    bits
                }
            }
        } else {
            0
        }
    }

    /// The current entry's accumulator of `view`, computed if it is not
    /// yet (for tests and benches).
    pub fn accumulator(&mut self, view: Seat) -> &Accumulator {
        self.update();
        &self.entries[self.len - 1].acc[view.index()]
    }
}

/// Each in-game seat's value of `pos` computed from scratch (for callers
/// that copy positions rather than make and unmake: MCTS, tests).
pub fn seat_values(net: &Network, pos: &Position) -> [i32; 4] {
    Entry::new(net, pos).values::<Base>(net, pos, threats_for(net, pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::{StepKind, splitmix64};

    /// Plays seeded random games with make/unmake, pushing after each step
    /// and checking the stack against a fresh refresh; unmakes the last
    /// steps again to check that pops restore the entries.
    fn random_games(players: usize, games: u64, seed: u64) -> [u64; 3] {
        let net = Arc::new(Network::pseudo_random(7, 300));
        let mut rng = seed;
        let mut seen = [0u64; 3]; // pushes (dwarf pushes), kills, levitations
        for _ in 0..games {
            let mut pos = Position::start(players).unwrap();
            let mut stack = AccumulatorStack::new(&net, &pos);
            // The baseline kernels, whatever this CPU has.
            let mut plain = AccumulatorStack::new(&net, &pos);
            plain.avx2 = false;
            let mut made = Vec::new();
            while !pos.is_game_over() && made.len() < 300 {
                let steps = pos.legal_step_vec();
                let step = steps[(splitmix64(&mut rng) % steps.len() as u64) as usize];
                let (players, old) = (pos.players_left(), boards(&pos));
                let undo = pos.make(step);
                stack.push(&pos);
                plain.push(&pos);
                // The stack is looked at every third step only: its
                // entries in between are computed when a later one is.
                let new = boards(&pos);
                let moved: u32 = (0..13).map(|i| (old[i] & !new[i]).count()).sum();
                match step.kind() {
                    StepKind::Levitate => seen[2] += 1,
                    _ if pos.players_left() < players => seen[1] += 1,
                    StepKind::Dwarf if moved > 1 => seen[0] += 1,
                    _ => {}
                }
                if made.len() % 3 != 2 {
                    made.push((step, undo));
                    continue;
                }
                assert_eq!(
                    stack.compute_values(&pos),
                    plain.compute_values(&pos),
                    "{pos}"
                );
                let mut fresh = AccumulatorStack::new(&net, &pos);
                for view in pos.seats_in_game() {
                    assert_eq!(stack.accumulator(view), fresh.accumulator(view), "{pos}");
                }
                assert_eq!(stack.values(&pos), fresh.values(&pos), "{pos}");
                if made.len() % 7 == 2 {
                    // And the inputs as the trainer lists them, threats
                    // included, from nothing.
                    let values = stack.values(&pos);
                    let mut inputs = Vec::new();
                    for view in pos.seats_in_game() {
                        super::super::features::active(&pos, view, &mut inputs);
                        let b = bucket(&pos, view).min(BUCKETS - 1);
                        let v = net.value(&net.refresh(&inputs), b);
                        assert_eq!(values[view.index()], v, "{pos}");
                    }
                }
                made.push((step, undo));
            }
            // Unmake ten steps: the popped-to entries match refreshes.
            for _ in 0..made.len().min(10) {
                let (step, undo) = made.pop().unwrap();
                pos.unmake(step, &undo);
                stack.pop();
                plain.pop();
                assert_eq!(
                    stack.compute_values(&pos),
                    plain.compute_values(&pos),
                    "{pos}"
                );
                let mut fresh = AccumulatorStack::new(&net, &pos);
                assert_eq!(stack.compute_values(&pos), fresh.values(&pos), "{pos}");
                // Through the cache (a hit where the way down evaluated
                // this position), the same.
                assert_eq!(stack.values(&pos), fresh.values(&pos), "{pos}");
            }
        }
        seen
    }

    #[test]
    fn incremental_updates_equal_refreshes_over_random_games() {
        let (mut pushes, mut kills, mut levitations) = (0, 0, 0);
        for players in 2..=4 {
            let [p, k, l] = random_games(players, 700, players as u64);
            pushes += p;
            kills += k;
            levitations += l;
        }
        assert!(pushes > 1000, "{pushes} dwarf pushes");
        assert!(kills > 100, "{kills} kills");
        assert!(levitations > 1000, "{levitations} levitations");
    }

    /// A search reads no value cached by the stack's earlier searches,
    /// which may have evaluated the same positions with another network
    /// (or, once the stamps run out and the cache is cleared, with this
    /// one); its own cached values equal fresh ones.
    #[test]
    fn the_value_cache_is_each_searchs_own() {
        let nets = [
            Arc::new(Network::pseudo_random(11, 300)),
            Arc::new(Network::pseudo_random(12, 300)),
        ];
        let mut rng = 9;
        let mut pos = Position::start(3).unwrap();
        let mut line = vec![pos];
        while !pos.is_game_over() && line.len() < 40 {
            let steps = pos.legal_step_vec();
            pos.make(steps[(splitmix64(&mut rng) % steps.len() as u64) as usize]);
            line.push(pos);
        }
        let mut stack = AccumulatorStack::new(&nets[0], &line[0]);
        for round in 0..6 {
            let net = &nets[round % 2];
            if round == 4 {
                stack.stamp = u32::MAX;
            }
            stack.new_search(net, &line[0]);
            assert!(std::ptr::eq(stack.network(), &**net));
            for p in &line[1..] {
                stack.push(p);
                assert_eq!(stack.values(p), seat_values(net, p), "{p}");
            }
            // Back up the line: each value again, now from the cache.
            for p in line[..line.len() - 1].iter().rev() {
                stack.pop();
                assert_eq!(stack.values(p), seat_values(net, p), "{p}");
            }
        }
        assert_eq!(stack.stamp, 2, "the stamps ran out and began again");
    }

    #[test]
    fn seats_out_of_the_game_are_zero_and_the_start_is_symmetric() {
        let net = Arc::new(Network::pseudo_random(3, 300));
        let four = Position::start(4).unwrap();
        let v = seat_values(&net, &four);
        // Every seat sees the same start, but the mover differs: only the
        // accumulators need be equal.
        let mut s = AccumulatorStack::new(&net, &four);
        let red = *s.accumulator(Seat::Red);
        for view in Seat::ALL {
            assert_eq!(*s.accumulator(view), red);
        }
        assert!(v.iter().any(|&x| x != 0));
        let two = Position::start(2).unwrap();
        let v2 = seat_values(&net, &two);
        assert_eq!((v2[1], v2[3]), (0, 0));
    }
}
