//! `splut._splut.Batch`: many games stepped together, in parallel, with
//! their state in numpy arrays that the batch owns and fills in place.
//!
//! `Batch(n, players=2, seed=0, max_turns=300, reward="place",
//! repetitions=3)` holds `n`
//! games from the standard start. Its arrays (attributes, the same objects
//! for the batch's whole life, refilled in place by `step`):
//!
//! - `masks` `(n, NUM_ACTIONS)` uint8: 1 on each legal action id of each
//!   game (only the ids set before are cleared at each step, never whole
//!   rows);
//! - `to_move` `(n,)` int64: the seat index (0–3: red, yellow, green, blue)
//!   of each game's side to move;
//! - `rewards` `(n, 4)` float32, by seat index: zero except on the step that
//!   ends a game, where its row holds every seat's final reward, the sum
//!   of what its steps gave (0 for seats not in the game);
//! - `terminations`, `truncations` `(n,)` bool: whether the last `step`
//!   ended that game (a winner; or a draw: more than `max_turns` turns, or
//!   a position reached `repetitions` times after steps, 0 = never).
//!
//! Each game is an [`Episode`], as `EnvGame` is: the match's judge ends
//! it, and the same code gives the rewards (`crate::episode`).
//!
//! A game that ends is reset to the start at once, in the same `step`:
//! after it, `masks`, `to_move` and `observations()` describe the new game
//! while `rewards`, `terminations` and `truncations` still report the end
//! of the old one (and `winners` its winner).

use std::borrow::Cow;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, ToPyArray};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use splut_play::judge::{Adjudication, Reason};
use splut_rules::{NUM_ACTIONS, Position, Step, splitmix64};

use crate::args::Int;
use crate::episode::{Episode, Reward, adjudication_arg};
use crate::observe::{OBS_SIZE, PLANES, legal_with_ids, write_observation};

/// The most games a batch may hold: 2^18 (262,144). A game costs about
/// 9 KB (its mask row is 7,709 bytes), so the largest batch needs about
/// 2.4 GB, and its `observations()` 2.4 GB more; a step of it takes tens
/// of milliseconds on two cores, so Ctrl-C is never kept waiting long.
pub(crate) const MAX_GAMES: usize = 1 << 18;

/// Values that are valid as all-zero bytes.
trait Zeroable: Copy {}
impl Zeroable for u8 {}
impl Zeroable for f32 {}

/// A zeroed vector of `len` values, or `MemoryError` when the memory is
/// not there (instead of aborting the interpreter). Zeroed by the
/// allocator (fresh pages, mapped on first use), as `vec![0; len]` is.
fn zeroed<T: Zeroable>(len: usize, what: &str) -> PyResult<Vec<T>> {
    let fail = || {
        PyMemoryError::new_err(format!(
            "cannot allocate {what} ({len} values of {} bytes)",
            std::mem::size_of::<T>()
        ))
    };
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| fail())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; a null pointer is the
    // allocation failing. The memory is zeroed, which is a valid `T`
    // (`Zeroable`), allocated by the global allocator with `T`'s layout
    // for exactly `len` values, as `Vec::from_raw_parts` requires.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return Err(fail());
        }
        Ok(Vec::from_raw_parts(ptr, len, len))
    }
}

/// One game of the batch.
#[derive(Clone)]
struct Slot {
    pos: Position,
    legal: Vec<(u16, Step)>,
    rng: u64,
    /// The episode: its judge, places, rewards and end.
    episode: Episode,
}

/// What one game's step did to the arrays' rows.
struct Rows<'a> {
    mask: &'a mut [u8],
    to_move: &'a mut i64,
    reward: &'a mut [f32],
    term: &'a mut bool,
    trunc: &'a mut bool,
    winner: &'a mut i64,
}

impl Slot {
    fn new(start: &Position, seed: u64, episode: &Episode) -> Slot {
        let mut legal = Vec::with_capacity(64);
        legal_with_ids(start, &mut legal);
        Slot {
            pos: *start,
            legal,
            rng: seed,
            episode: episode.clone(),
        }
    }

    /// Resets to `start` and sets the mask row (clearing only the old ids).
    fn reset(&mut self, start: &Position, mask: &mut [u8]) {
        for &(id, _) in &self.legal {
            mask[id as usize] = 0;
        }
        self.pos = *start;
        self.episode.restart(start);
        legal_with_ids(&self.pos, &mut self.legal);
        for &(id, _) in &self.legal {
            mask[id as usize] = 1;
        }
    }

    /// Plays `step` and writes the game's rows; a game the step ends is
    /// reset to `start` at once, its rows reporting the end.
    fn step(&mut self, step: Step, start: &Position, r: Rows) {
        let before = self.pos;
        self.pos.play(step);
        // What each step gives is summed in the episode; the row reports
        // the sums once, when the game ends.
        self.episode.step(&before, &self.pos);
        let done = match self.episode.ended() {
            Some(reason) => {
                for (row, sum) in r.reward.iter_mut().zip(self.episode.returns()) {
                    *row = sum as f32;
                }
                let won = matches!(reason, Reason::LastSorcerer);
                *r.term = won;
                *r.trunc = !won;
                *r.winner = self.pos.winner().map_or(-1, |w| w.index() as i64);
                true
            }
            None => {
                r.reward.fill(0.0);
                *r.term = false;
                *r.trunc = false;
                *r.winner = -1;
                false
            }
        };
        if done {
            self.reset(start, r.mask);
        } else {
            for &(id, _) in &self.legal {
                r.mask[id as usize] = 0;
            }
            legal_with_ids(&self.pos, &mut self.legal);
            for &(id, _) in &self.legal {
                r.mask[id as usize] = 1;
            }
        }
        *r.to_move = self.pos.side_to_move().index() as i64;
    }
}

/// Many games of Splut! stepped together in parallel (the module docs).
#[pyclass(module = "splut")]
pub struct Batch {
    slots: Vec<Slot>,
    start: Position,
    players: usize,
    masks: Py<PyArray2<u8>>,
    to_move: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    terminations: Py<PyArray1<bool>>,
    truncations: Py<PyArray1<bool>>,
    winners: Py<PyArray1<i64>>,
}

#[allow(clippy::mut_from_ref)] // the arrays are the batch's own (SAFETY below)
fn slice_mut<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    a: &'a Bound<'_, numpy::PyArray<T, D>>,
) -> &'a mut [T] {
    // SAFETY: the batch owns these arrays and lends them to Python only for
    // reading between calls; a call holds `&mut self` (or the GIL), so no
    // other Rust code aliases them while they are written.
    unsafe { a.as_slice_mut().expect("contiguous") }
}

impl Batch {
    fn n(&self) -> usize {
        self.slots.len()
    }

    /// Game `i`; `ValueError` unless `0 <= i < n`.
    fn slot(&self, i: Int) -> PyResult<&Slot> {
        let i: usize = i.within("the game index", 0, self.n() as i128 - 1)?;
        Ok(&self.slots[i])
    }
}

#[pymethods]
impl Batch {
    /// `n` (1 to 2^18, `MAX_GAMES`) games of `players` (2-4) players from the standard
    /// start; draws after `max_turns` (at least 1) turns or a position
    /// reached `repetitions` times (0: never).
    #[new]
    #[pyo3(
        signature = (n, players = Int::new(2), seed = Int::new(0), max_turns = Int::new(300), reward = "place", repetitions = Int::new(3)),
        text_signature = "(n, players=2, seed=0, max_turns=300, reward='place', repetitions=3)"
    )]
    fn new(
        py: Python<'_>,
        n: Int,
        players: Int,
        seed: Int,
        max_turns: Int,
        reward: &str,
        repetitions: Int,
    ) -> PyResult<Self> {
        let n: usize = n.within("n (the number of games)", 1, MAX_GAMES as i128)?;
        let players: usize = players.within("players", 2, 4)?;
        let seed: u64 = seed.within("seed", 0, u64::MAX.into())?;
        let adjudication: Adjudication = adjudication_arg(Some(max_turns), repetitions)?;
        let start = Position::start(players).ok_or_else(|| {
            PyValueError::new_err(format!("players must be 2, 3 or 4, not {players}"))
        })?;
        let episode = Episode::new(adjudication, Reward::parse(reward)?, &start);
        // The masks first: most of the memory, in one allocation.
        let mut m = zeroed::<u8>(n * NUM_ACTIONS, "the masks")?;
        let mut s = seed ^ 0x5851_F42D_4C95_7F2D;
        let mut slots: Vec<Slot> = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| PyMemoryError::new_err(format!("cannot allocate {n} games")))?;
        slots.extend((0..n).map(|_| Slot::new(&start, splitmix64(&mut s), &episode)));
        for (i, slot) in slots.iter().enumerate() {
            for &(id, _) in &slot.legal {
                m[i * NUM_ACTIONS + id as usize] = 1;
            }
        }
        let masks = PyArray1::from_vec(py, m).reshape([n, NUM_ACTIONS])?;
        let to_move = PyArray1::<i64>::zeros(py, n, false);
        slice_mut(&to_move).fill(start.side_to_move().index() as i64);
        let winners = PyArray1::<i64>::zeros(py, n, false);
        slice_mut(&winners).fill(-1);
        Ok(Batch {
            slots,
            start,
            players,
            masks: masks.unbind(),
            to_move: to_move.unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, 4], false).unbind(),
            terminations: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncations: PyArray1::<bool>::zeros(py, n, false).unbind(),
            winners: winners.unbind(),
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.n()
    }

    /// Players per game.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    #[getter]
    fn masks(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        self.masks.clone_ref(py)
    }

    #[getter]
    fn to_move(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.to_move.clone_ref(py)
    }

    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.rewards.clone_ref(py)
    }

    #[getter]
    fn terminations(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.terminations.clone_ref(py)
    }

    #[getter]
    fn truncations(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.truncations.clone_ref(py)
    }

    /// The seat index of the winner of each game that the last step ended
    /// with a winner, else -1.
    #[getter]
    fn winners(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.winners.clone_ref(py)
    }

    /// The SPN of game `i` (0 to n - 1).
    fn spn(&self, i: Int) -> PyResult<String> {
        Ok(self.slot(i)?.pos.to_spn())
    }

    /// The legal action ids of game `i` (0 to n - 1).
    fn legal_actions(&self, i: Int) -> PyResult<Vec<usize>> {
        Ok(self
            .slot(i)?
            .legal
            .iter()
            .map(|&(a, _)| a as usize)
            .collect())
    }

    /// The turn number of each game.
    fn turns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let v: Vec<u32> = self.slots.iter().map(|s| s.pos.turn()).collect();
        v.to_pyarray(py)
    }

    /// Plays one step in every game: `actions` (n,) action ids (any integer
    /// dtype, or a list). Raises `ValueError` naming the first game whose id
    /// is not legal, before any game moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let ro: Option<PyReadonlyArray1<i64>> = actions.extract().ok();
        // A strided array (a view such as `a[::2]`) is copied.
        let acts: Cow<[i64]> = match &ro {
            Some(a) => match a.as_slice() {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Owned(a.as_array().iter().copied().collect()),
            },
            None => Cow::Owned(actions.extract()?),
        };
        let n = self.n();
        if acts.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games",
                acts.len()
            )));
        }
        // Checked against each game's own list, not the mask a caller can
        // write to: a step below always finds its id.
        for (i, (&a, slot)) in acts.iter().zip(&self.slots).enumerate() {
            if !slot.legal.iter().any(|&(id, _)| id as i64 == a) {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action {a} is not legal"
                )));
            }
        }
        let masks = self.masks.bind(py);
        let m = slice_mut(masks);
        let tm = slice_mut(self.to_move.bind(py));
        let rw = slice_mut(self.rewards.bind(py));
        let te = slice_mut(self.terminations.bind(py));
        let tr = slice_mut(self.truncations.bind(py));
        let wi = slice_mut(self.winners.bind(py));
        let start = self.start;
        let slots = &mut self.slots;
        py.detach(|| {
            slots
                .par_iter_mut()
                .zip(m.par_chunks_mut(NUM_ACTIONS))
                .zip(rw.par_chunks_mut(4))
                .zip(tm.par_iter_mut())
                .zip(te.par_iter_mut())
                .zip(tr.par_iter_mut())
                .zip(wi.par_iter_mut())
                .zip(acts.par_iter())
                .with_min_len(64)
                .for_each(
                    |(((((((slot, mask), reward), to_move), term), trunc), winner), &a)| {
                        let step = slot
                            .legal
                            .iter()
                            .find(|&&(id, _)| id as i64 == a)
                            .expect("checked legal")
                            .1;
                        slot.step(
                            step,
                            &start,
                            Rows {
                                mask,
                                to_move,
                                reward,
                                term,
                                trunc,
                                winner,
                            },
                        );
                    },
                );
        });
        Ok(())
    }

    /// A legal action id for each game, uniformly at random (each game's
    /// own generator, seeded from the batch's seed): (n,) int64.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let v: Vec<i64> = self
            .slots
            .iter_mut()
            .map(|s| {
                let k = s.legal.len().max(1) as u64;
                let r = splitmix64(&mut s.rng);
                s.legal
                    .get((((r >> 32) * k) >> 32) as usize)
                    .map_or(0, |&(a, _)| a as i64)
            })
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// Each game's observation from its side to move: float32
    /// `(n, 28, 9, 9)` (the layout of `EnvGame.observe`).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray4<f32>>> {
        let n = self.n();
        let mut o = zeroed::<f32>(n * OBS_SIZE, "the observations")?;
        let slots = &self.slots;
        py.detach(|| {
            o.par_chunks_mut(OBS_SIZE)
                .zip(slots.par_iter())
                .with_min_len(16)
                .for_each(|(row, s)| write_observation(&s.pos, s.pos.side_to_move(), row));
        });
        PyArray1::from_vec(py, o).reshape([n, PLANES, 9, 9])
    }

    /// Resets every game to the start (arrays refilled in place).
    fn reset(&mut self, py: Python<'_>) {
        let m = slice_mut(self.masks.bind(py));
        for (slot, mask) in self.slots.iter_mut().zip(m.chunks_mut(NUM_ACTIONS)) {
            slot.reset(&self.start, mask);
        }
        slice_mut(self.to_move.bind(py)).fill(self.start.side_to_move().index() as i64);
        slice_mut(self.rewards.bind(py)).fill(0.0);
        slice_mut(self.terminations.bind(py)).fill(false);
        slice_mut(self.truncations.bind(py)).fill(false);
        slice_mut(self.winners.bind(py)).fill(-1);
    }
}

/// Adds this file's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Batch>()?;
    Ok(())
}
