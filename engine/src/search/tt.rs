//! The transposition table, shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data
//! word. A reader accepts an entry only when `key ^ data` matches its key, so
//! a torn write by another thread (Lazy SMP) reads as a miss, never as a wrong
//! entry. Entries live in buckets of four (one 64-byte cache line); a new
//! entry replaces, in order of preference, the same position, an empty slot,
//! or the slot whose depth is lowest once entries from older searches are
//! aged down.

use crate::system::{TABLE_MEMORY_PERCENT, available_mib};
use splut_rules::Step;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
    /// No usable score, only a best step (max-n stores these).
    None,
}

/// A probed entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Best step found, if any.
    pub step: Option<Step>,
    /// Score, relative to the node (see `score::to_tt`).
    pub score: i32,
    /// Depth in steps the score was searched to.
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
}

// Data word layout: step 24 bits | depth 8 | bound 2 | age 6 | score 24.
const STEP_BITS: u64 = 24;
const SCORE_MIN: i32 = -(1 << 23);
const SCORE_MAX: i32 = (1 << 23) - 1;
const BUCKET: usize = 4;

fn pack(step: Option<Step>, score: i32, depth: u8, bound: Bound, age: u8) -> u64 {
    let step = step.map_or(0, |s| u64::from(s.to_bits()) + 1) & ((1 << STEP_BITS) - 1);
    let bound = match bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
        Bound::None => 3,
    };
    let score = (score.clamp(SCORE_MIN, SCORE_MAX) as u32 as u64) & 0xFF_FFFF;
    step | (depth as u64) << 24 | bound << 32 | ((age & 63) as u64) << 34 | score << 40
}

fn unpack(data: u64) -> (Entry, u8) {
    let raw_step = data & ((1 << STEP_BITS) - 1);
    let step = if raw_step == 0 {
        None
    } else {
        Step::from_bits((raw_step - 1) as u32)
    };
    let bound = match data >> 32 & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::None,
    };
    // Sign-extend the 24-bit score.
    let score = ((data >> 40) as i32) << 8 >> 8;
    let entry = Entry {
        step,
        score,
        depth: (data >> 24) as u8,
        bound,
    };
    (entry, (data >> 34 & 63) as u8)
}

/// One entry: the key XOR the data word, then the data word. A plain
/// array, so the table can be allocated zeroed (see [`TranspositionTable::try_new`]).
type Slot = [AtomicU64; 2];
const CHECK: usize = 0;
const DATA: usize = 1;

/// Why a table of the size asked for was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More than the machine has available (a share of it:
    /// [`TABLE_MEMORY_PERCENT`]).
    TooLarge {
        /// The size asked for, MiB.
        mib: usize,
        /// The memory available, MiB.
        available_mib: usize,
    },
    /// The allocator refused it.
    AllocationFailed {
        /// The size asked for, MiB.
        mib: usize,
    },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::TooLarge { mib, available_mib } => write!(
                f,
                "a {mib} MiB table does not fit in the {available_mib} MiB of memory available"
            ),
            TableError::AllocationFailed { mib } => {
                write!(f, "cannot allocate a {mib} MiB table")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// A fixed-size, thread-safe transposition table.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    buckets: usize,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket). Small sizes
    /// only: use [`Self::try_new`] for sizes a user asks for.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|_| Self::try_new(1).expect("a 1 MiB table"))
    }

    /// A table of about `mib` mebibytes, or an error if the memory is not
    /// there (more than the system has available, or the allocation fails).
    ///
    /// The memory comes zeroed from the allocator (on Linux, fresh pages
    /// the kernel maps on first use), so even a table of many GiB is ready
    /// at once instead of after seconds of writing zeros.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableError> {
        Self::try_replacing(mib, 0)
    }

    /// Whether a table of `mib` mebibytes, replacing one of `freed_mib`,
    /// could be made, without making it: within the share of the memory
    /// the system says is available ([`TABLE_MEMORY_PERCENT`]) and of the
    /// address space (a 32-bit one, as in WebAssembly, holds less than
    /// 2 GiB in one allocation). The allocation itself may still fail.
    pub fn fits(mib: usize, freed_mib: usize) -> Result<(), TableError> {
        if mib
            .max(1)
            .checked_mul(1 << 20)
            .is_none_or(|bytes| bytes > isize::MAX as usize)
        {
            return Err(TableError::AllocationFailed { mib });
        }
        match available_mib() {
            Some(available_mib)
                if mib > available_mib.saturating_add(freed_mib) / 100 * TABLE_MEMORY_PERCENT =>
            {
                Err(TableError::TooLarge { mib, available_mib })
            }
            _ => Ok(()),
        }
    }

    /// [`Self::try_new`] for a table that replaces one of `freed_mib`
    /// mebibytes, which counts as available.
    pub fn try_replacing(mib: usize, freed_mib: usize) -> Result<TranspositionTable, TableError> {
        Self::fits(mib, freed_mib)?;
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let slots = bytemuck::allocation::try_zeroed_slice_box::<Slot>(buckets * BUCKET)
            .map_err(|_| TableError::AllocationFailed { mib })?;
        Ok(TranspositionTable {
            slots,
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// Size in mebibytes.
    pub fn mib(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    /// Forgets everything, writing every slot (for a table in use by
    /// other threads; an owner can instead make a new table, which is
    /// instant).
    pub fn clear(&self) {
        self.clear_with(1);
    }

    /// [`Self::clear`] on `threads` threads (this one among them). Also
    /// maps every page of a fresh table now: left to the search, the page
    /// faults of a new game cost a two-thread search about half its nodes
    /// at 100 ms a turn.
    pub fn clear_with(&self, threads: usize) {
        let zero = |part: &[Slot]| {
            for s in part {
                s[CHECK].store(0, Relaxed);
                s[DATA].store(0, Relaxed);
            }
        };
        // Without the feature `parallel` there are no threads to start.
        let threads = if cfg!(feature = "parallel") {
            threads
        } else {
            1
        };
        let chunk = self.slots.len().div_ceil(threads.max(1)).max(1);
        let mut parts = self.slots.chunks(chunk);
        let first = parts.next().unwrap_or(&[]);
        std::thread::scope(|scope| {
            for part in parts {
                scope.spawn(move || zero(part));
            }
            zero(first);
        });
        self.age.store(0, Relaxed);
    }

    /// Marks the start of a new search: older entries become cheaper to
    /// replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Relaxed) & 63) as u8
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        // Multiply-shift maps the key uniformly onto the buckets.
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[b * BUCKET..(b + 1) * BUCKET]
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, so that a probe
    /// soon after (the child's, once made) finds it there. Changes nothing.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: SSE is part of every x86_64 CPU; a prefetch only
            // hints, reads nothing into the program and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot[DATA].load(Relaxed);
            if data != 0 && slot[CHECK].load(Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores an entry for `key`.
    pub fn store(&self, key: u64, step: Option<Step>, score: i32, depth: u8, bound: Bound) {
        let age = self.current_age();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot[DATA].load(Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            let (old, old_age) = unpack(data);
            if slot[CHECK].load(Relaxed) ^ data == key {
                // Same position: keep a deeper exact result from this search
                // unless we bring a step it lacks.
                if old.depth > depth && old_age == age && bound != Bound::Exact {
                    return;
                }
                let step = step.or(old.step);
                let data = pack(step, score, depth, bound, age);
                slot[CHECK].store(key ^ data, Relaxed);
                slot[DATA].store(data, Relaxed);
                return;
            }
            let stale = i32::from((age.wrapping_sub(old_age)) & 63);
            let worth = i32::from(old.depth) - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(step, score, depth, bound, age);
        bucket[victim][CHECK].store(key ^ data, Relaxed);
        bucket[victim][DATA].store(data, Relaxed);
    }

    /// Permille of a sample of slots holding entries from this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[DATA].load(Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::Position;

    /// `fits` refuses what the address space cannot hold and, where the
    /// system says how much memory is available, more than its share.
    #[test]
    fn fits_checks_the_memory_without_making_the_table() {
        assert_eq!(TranspositionTable::fits(1, 0), Ok(()));
        let beyond = usize::MAX >> 20;
        assert_eq!(
            TranspositionTable::fits(beyond + 1, 0),
            Err(TableError::AllocationFailed { mib: beyond + 1 })
        );
        if let Some(available) = available_mib() {
            let mib = available * 2 + 1;
            assert!(matches!(
                TranspositionTable::fits(mib, 0),
                Err(TableError::TooLarge { mib: m, .. }) if m == mib
            ));
        }
    }

    #[test]
    fn stores_and_probes_every_field() {
        let tt = TranspositionTable::new(1);
        let p = Position::start(2).unwrap();
        let step = p.legal_step_vec()[1];
        for (score, bound) in [
            (123, Bound::Exact),
            (-999_999, Bound::Lower),
            (0, Bound::Upper),
        ] {
            tt.store(42, Some(step), score, 7, bound);
            let e = tt.probe(42).unwrap();
            assert_eq!(
                (e.step, e.score, e.depth, e.bound),
                (Some(step), score, 7, bound)
            );
        }
        assert_eq!(tt.probe(43), None);
        tt.store(44, None, 5, 0, Bound::None);
        assert_eq!(tt.probe(44).unwrap().step, None);
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        // One bucket's worth of keys mapping to bucket 0: small keys do.
        for k in 1..=4u64 {
            tt.store(k, None, 0, k as u8 * 2, Bound::Exact);
        }
        tt.store(5, None, 0, 9, Bound::Exact);
        assert!(tt.probe(1).is_none(), "depth 2 entry should go");
        for k in 2..=5 {
            assert!(tt.probe(k).is_some());
        }
        assert!(tt.hashfull() <= 1000);
        assert!(tt.mib() >= 1);
    }

    #[test]
    fn a_parallel_clear_forgets_every_entry() {
        let tt = TranspositionTable::new(1);
        // Keys spread over the whole table, so every thread's part holds some.
        let keys: Vec<u64> = (1..=200u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for threads in [1, 3, 64] {
            for &k in &keys {
                tt.store(k, None, 1, 3, Bound::Exact);
            }
            assert!(keys.iter().filter(|&&k| tt.probe(k).is_some()).count() > 150);
            tt.clear_with(threads);
            assert!(
                keys.iter().all(|&k| tt.probe(k).is_none()),
                "{threads} threads"
            );
            assert_eq!(tt.hashfull(), 0);
        }
    }
}
