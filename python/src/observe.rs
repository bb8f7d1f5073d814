//! `splut._splut.EnvGame`: one game for learning environments (the
//! PettingZoo environment in `splut/env.py` wraps it), and the observation
//! planes and legal-action masks it shares with the batch API (`batch.rs`).
//!
//! An observation is `PLANES` planes of 9 × 9 (float32, `(28, 9, 9)`), the
//! board seen from one seat, as the engine's network sees it
//! (engine/src/eval/nnue/features.rs): the diamond turned by quarter turns
//! until that seat sits at the bottom (rank 1), the other seats named by how
//! many places after it they come in seat order (0 = the observer, 1 = the
//! next seat clockwise, 2 = the one opposite, 3 = the one before). Cell
//! `[row, col]` is the turned square on rank `row + 1`, file `col` (a = 0);
//! the 40 cells off the diamond are always 0 except where a plane is
//! constant.
//!
//! | planes | what |
//! |---|---|
//! | 0–11 | `3 × relative seat + kind` (sorcerer, dwarf, troll): that piece |
//! | 12 | rocks |
//! | 13 | cooling rocks (moved in the previous turn) |
//! | 14 | rocks moved so far this turn |
//! | 15 | rocks that cannot be levitated now (cooling, or the levitation of this turn is broken or bound to another rock) |
//! | 16 | the diamond (1 on its 41 squares) |
//! | 17–19 | constant 1 on plane `16 + steps left` (1–3) of the side to move |
//! | 20–23 | constant 1 on plane `20 + relative seat of the side to move` |
//! | 24–27 | constant 1 on plane `24 + r` when relative seat `r` is in the game |

use numpy::{PyArray1, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

use crate::args::Int;
use crate::episode::{Episode, Outcome, Reward, adjudication_arg};
use crate::position::Reduced;
use splut_engine::eval::nnue::features;
use splut_play::judge::{Adjudication, places, places_text};
use splut_rules::{
    Bitboard, Game, Kind, Levitation, NUM_ACTIONS, NUM_SQUARES, Position, Seat, Square, Step,
    StepList,
};
use std::sync::LazyLock;

/// An `EnvGame`'s pickled state: the players, the action ids played and
/// the episode's rules (`max_turns`, `repetitions`, `reward`).
type GameState = (usize, Vec<usize>, Option<u32>, u32, &'static str);

/// Planes of an observation.
pub const PLANES: usize = 28;
/// Floats in one observation (`PLANES × 81`).
pub const OBS_SIZE: usize = PLANES * 81;

/// `CELL[k][sq]`: the cell (9 × rank + file, 0-based) where seat `k`
/// (red, yellow, green, blue: south, west, north, east) sees `sq`: the
/// square the engine's network inputs turn it to (`features::turned`, quarter
/// turns anticlockwise until that seat is at the bottom), placed on the
/// 9 × 9 grid by its file and rank.
static CELL: LazyLock<[[u8; NUM_SQUARES]; 4]> = LazyLock::new(|| {
    let mut t = [[0u8; NUM_SQUARES]; 4];
    for seat in Seat::ALL {
        for (i, cell) in t[seat.index()].iter_mut().enumerate() {
            let sq = Square::new(i as u8).expect("a square");
            let seen = Square::new(features::turned(seat, sq) as u8).expect("a square");
            *cell = 9 * seen.rank() + seen.file();
        }
    }
    t
});

/// Seat `seat` relative to `view`: 0 = itself, 1 = the next clockwise, ...
#[inline]
pub(crate) fn relative(view: Seat, seat: Seat) -> usize {
    (seat.index() + 4 - view.index()) % 4
}

/// Rocks that cannot be levitated in this position now.
pub(crate) fn unlevitable(pos: &Position) -> Bitboard {
    let rocks = pos.rocks();
    match pos.levitation() {
        Levitation::NotStarted => rocks & pos.cooling(),
        Levitation::Rock(sq) => rocks & !sq.bb(),
        Levitation::Over => rocks,
    }
}

/// Writes `view`'s observation of `pos` into `out` (`OBS_SIZE` floats,
/// overwritten entirely).
pub(crate) fn write_observation(pos: &Position, view: Seat, out: &mut [f32]) {
    let out = &mut out[..OBS_SIZE];
    out.fill(0.0);
    let table = &CELL[view.index()];
    let mut set = |plane: usize, b: Bitboard| {
        for sq in b {
            out[plane * 81 + table[sq.index()] as usize] = 1.0;
        }
    };
    for seat in pos.seats_in_game() {
        let mine = pos.seat_bb(seat);
        let r = relative(view, seat);
        for kind in Kind::ALL {
            set(3 * r + kind.index(), mine & pos.kind_bb(kind));
        }
    }
    set(12, pos.rocks());
    set(13, pos.rocks() & pos.cooling());
    set(14, pos.rocks() & pos.moved());
    set(15, unlevitable(pos));
    for &c in &CELL[0] {
        out[16 * 81 + c as usize] = 1.0;
    }
    let mut constant = |plane: usize| out[plane * 81..(plane + 1) * 81].fill(1.0);
    if !pos.is_game_over() {
        constant(16 + pos.steps_left().clamp(1, 3) as usize);
        constant(20 + relative(view, pos.side_to_move()));
    }
    for seat in pos.seats_in_game() {
        constant(24 + relative(view, seat));
    }
}

/// The legal steps of `pos` with their action ids (empty once the game is
/// over).
pub(crate) fn legal_with_ids(pos: &Position, out: &mut Vec<(u16, Step)>) {
    out.clear();
    if pos.is_game_over() {
        return;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    out.extend(list.iter().map(|&s| (s.action() as u16, s)));
}

/// Reads a seat from a colour name (`"red"`), its letter (`"r"`) or its
/// index (0–3).
pub(crate) fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
    if seat.cast::<PyBool>().is_ok() {
        return Err(PyTypeError::new_err(
            "a seat is a colour name, its letter or 0-3, not a bool",
        ));
    }
    if let Ok(i) = seat.extract::<Int>() {
        return Ok(Seat::from_index(i.within("the seat index", 0, 3)?));
    }
    let text: String = seat
        .extract()
        .map_err(|_| PyTypeError::new_err("a seat is a colour name, its letter or 0-3"))?;
    let t = text.to_ascii_lowercase();
    Seat::ALL
        .into_iter()
        .find(|s| s.name() == t || t.len() == 1 && t.starts_with(s.letter().to_ascii_lowercase()))
        .ok_or_else(|| PyValueError::new_err(format!("no seat named {text:?}")))
}

/// One game of Splut! for a learning environment: action ids, masks,
/// observations, eliminations in order, and the episode's end and rewards
/// as tournaments judge them (`crate::episode`).
///
/// `EnvGame(players=2, max_turns=None, repetitions=0, reward="place")`
/// starts the standard start of 2, 3 or 4 players; without draw rules
/// (the defaults) the game is played out.
#[pyclass(module = "splut")]
#[derive(Clone)]
pub struct EnvGame {
    game: Game,
    /// Seats at the start, in turn order (red first).
    seats: Vec<Seat>,
    /// Seats out so far, first out first.
    out: Vec<Seat>,
    /// The current legal steps with their ids (none once the episode is
    /// over).
    legal: Vec<(u16, Step)>,
    /// The episode: its judge, places, rewards and end.
    episode: Episode,
}

/// What `EnvGame.step_outcome` returns: rewards, terminations and
/// truncations by colour.
type StepDicts<'py> = (Bound<'py, PyDict>, Bound<'py, PyDict>, Bound<'py, PyDict>);

/// The seats' colour names as interned Python strings, by seat index
/// (made once: `step_outcome` keys its dicts with them at every step).
fn seat_names(py: Python<'_>) -> &[Py<PyString>; 4] {
    static NAMES: PyOnceLock<[Py<PyString>; 4]> = PyOnceLock::new();
    NAMES.get_or_init(py, || {
        Seat::ALL.map(|s| PyString::intern(py, s.name()).unbind())
    })
}

impl EnvGame {
    fn pos(&self) -> &Position {
        self.game.position()
    }

    /// A new game from the standard start of `players` (2-4) players,
    /// judged under `adjudication`, rewarded by `reward`.
    fn start(players: usize, adjudication: Adjudication, reward: Reward) -> PyResult<Self> {
        let start = Position::start(players).ok_or_else(|| {
            PyValueError::new_err(format!("players must be 2, 3 or 4, not {players}"))
        })?;
        let mut legal = Vec::new();
        legal_with_ids(&start, &mut legal);
        Ok(EnvGame {
            game: Game::new(start),
            seats: start.seats_in_game().collect(),
            out: Vec::new(),
            legal,
            episode: Episode::new(adjudication, reward, &start),
        })
    }

    /// Whether the episode is over: one sorcerer left, or a draw.
    fn over(&self) -> bool {
        self.episode.ended().is_some()
    }

    /// Plays the legal step with action id `action` and judges it;
    /// `ValueError` (nothing changed) if there is none. Returns the seat it
    /// eliminated, if any (at most one: `splut_rules::Places`), and what
    /// it gave each seat.
    fn play_id(&mut self, action: Option<i128>) -> PyResult<(Option<Seat>, Outcome)> {
        let found = action.and_then(|a| self.legal.iter().find(|&&(id, _)| i128::from(id) == a));
        let Some(&(_, step)) = found else {
            let shown = action.map_or("(an int that large)".to_string(), |a| a.to_string());
            let why = match self.episode.ended() {
                Some(r) if self.pos().is_game_over() => format!("the game is over: {r}"),
                Some(r) => format!("the game is over: a draw, {r}"),
                None if !action.is_some_and(|a| (0..NUM_ACTIONS as i128).contains(&a)) => {
                    format!("action ids are 0-{}", NUM_ACTIONS - 1)
                }
                None => format!("{} to move", self.pos().side_to_move()),
            };
            return Err(PyValueError::new_err(format!(
                "illegal action {shown} ({why})"
            )));
        };
        let before = *self.pos();
        self.game
            .play(step)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let after = *self.pos();
        let gone = Seat::ALL
            .into_iter()
            .find(|&s| before.in_game(s) && !after.in_game(s));
        self.out.extend(gone);
        let outcome = self.episode.step(&before, &after);
        if self.over() {
            self.legal.clear();
        } else {
            legal_with_ids(&after, &mut self.legal);
        }
        Ok((gone, outcome))
    }

    /// The action ids of the steps played, in order.
    fn played_ids(&self) -> Vec<usize> {
        self.game.steps().iter().map(|s| s.action()).collect()
    }

    /// Each seat's value in `by_index` (by seat index), in `seats` order.
    fn by_seat<T: Copy>(&self, by_index: [T; 4]) -> Vec<T> {
        self.seats.iter().map(|s| by_index[s.index()]).collect()
    }

    /// The game to replay for a pickled `state`: `(players, action ids)`
    /// (no draw rules) or `(players, action ids, max_turns, repetitions,
    /// reward)`.
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bad = || {
            PyTypeError::new_err(
                "an EnvGame's state is (players, action ids, max_turns, repetitions, reward)",
            )
        };
        let t = state.cast::<PyTuple>().map_err(|_| bad())?;
        let (players, ids, adjudication, reward) = match t.len() {
            2 => {
                let (players, ids): (Int, Vec<Int>) = t.extract()?;
                (players, ids, Adjudication::NONE, Reward::Place)
            }
            5 => {
                let (players, ids, max_turns, repetitions, reward): (
                    Int,
                    Vec<Int>,
                    Option<Int>,
                    Int,
                    String,
                ) = t.extract()?;
                let adjudication = adjudication_arg(max_turns, repetitions)?;
                (players, ids, adjudication, Reward::parse(&reward)?)
            }
            _ => return Err(bad()),
        };
        let mut game = EnvGame::start(players.within("players", 2, 4)?, adjudication, reward)?;
        for a in ids {
            game.play_id(a.get())?;
        }
        Ok(game)
    }
}

#[pymethods]
impl EnvGame {
    /// The standard start of `players` (2, 3 or 4) players. Draw rules as
    /// tournaments have them: more than `max_turns` turns (`None`: no
    /// limit) or a position reached `repetitions` times after steps (0:
    /// never); `reward` `"place"` or `"win"` (`step_outcome`).
    #[new]
    #[pyo3(
        signature = (players = Int::new(2), max_turns = None, repetitions = Int::new(0), reward = "place"),
        text_signature = "(players=2, max_turns=None, repetitions=0, reward='place')"
    )]
    fn new(players: Int, max_turns: Option<Int>, repetitions: Int, reward: &str) -> PyResult<Self> {
        let players = players.within("players", 2, 4)?;
        let adjudication = adjudication_arg(max_turns, repetitions)?;
        EnvGame::start(players, adjudication, Reward::parse(reward)?)
    }

    /// A copy of this game.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickling: the players, the action ids played and the episode's
    /// rules (replayed on unpickling, which rebuilds eliminations, places,
    /// repetition counts and the episode's end).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (usize,), GameState> {
        let me = slf.borrow();
        let players = me.seats.len();
        let a = me.episode.adjudication();
        let state = (
            players,
            me.played_ids(),
            (a.max_turns != u32::MAX).then_some(a.max_turns),
            a.repetitions,
            me.episode.reward().name(),
        );
        (slf.get_type().into_any(), (players,), state)
    }

    /// Unpickling: `(players, action ids, max_turns, repetitions, reward)`
    /// replayed from the start (`(players, action ids)`, as pickles
    /// before the draw rules held it: none); `ValueError` or `TypeError`
    /// (nothing changed) when they are not a game.
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        *self = EnvGame::from_state(state)?;
        Ok(())
    }

    /// Equal when the players, the steps played and the episode's rules
    /// are (so the whole state is).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.extract::<PyRef<'_, EnvGame>>() {
            Ok(o) => {
                self.seats == o.seats
                    && self.game.steps() == o.game.steps()
                    && self.episode.adjudication() == o.episode.adjudication()
                    && self.episode.reward() == o.episode.reward()
            }
            Err(_) => false,
        }
    }

    /// The turn limit: more than this many turns draw the episode; `None`
    /// when there is none.
    #[getter]
    fn max_turns(&self) -> Option<u32> {
        let t = self.episode.adjudication().max_turns;
        (t != u32::MAX).then_some(t)
    }

    /// A position reached this many times after steps draws the episode
    /// (0: never).
    #[getter]
    fn repetitions(&self) -> u32 {
        self.episode.adjudication().repetitions
    }

    /// The reward mode: `"place"` or `"win"`.
    #[getter]
    fn reward(&self) -> &'static str {
        self.episode.reward().name()
    }

    /// Number of players at the start.
    #[getter]
    fn players(&self) -> usize {
        self.seats.len()
    }

    /// The seats at the start, colour names in turn order.
    #[getter]
    fn seats(&self) -> Vec<&'static str> {
        self.seats.iter().map(|s| s.name()).collect()
    }

    /// The seats still in the game, in turn order.
    #[getter]
    fn seats_in_game(&self) -> Vec<&'static str> {
        self.pos().seats_in_game().map(|s| s.name()).collect()
    }

    /// The side to move (its colour); `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        (!self.over()).then(|| self.pos().side_to_move().name())
    }

    /// The side to move's seat index (0–3, red yellow green blue); -1 once
    /// the game is over.
    #[getter]
    fn to_move_index(&self) -> i64 {
        if self.over() {
            -1
        } else {
            self.pos().side_to_move().index() as i64
        }
    }

    /// Steps left in the current turn (1–3).
    #[getter]
    fn steps_left(&self) -> u8 {
        self.pos().steps_left()
    }

    /// The 1-based number of the current turn.
    #[getter]
    fn turn(&self) -> u32 {
        self.pos().turn()
    }

    /// Steps played so far.
    #[getter]
    fn ply(&self) -> usize {
        self.game.steps().len()
    }

    /// Whether the game is over: one sorcerer left, or drawn by the draw
    /// rules (`reason` says which).
    #[getter]
    fn is_over(&self) -> bool {
        self.over()
    }

    /// Why the game ended, as game records write it (the judge's reason:
    /// `last sorcerer standing`, `turn limit N`, `repetition N`); `None`
    /// while it goes on.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.episode.ended().map(|r| r.to_string())
    }

    /// The result once the game is over, as game records write it: the
    /// judge's places (`splut_play::judge::places`), first to last, `>`
    /// between places, `=` between seats sharing one (`g > r = y` after
    /// one seat out and a draw); `None` while it goes on.
    #[getter]
    fn result(&self) -> Option<String> {
        let reason = self.episode.ended()?;
        Some(places_text(&places(&self.game, reason)))
    }

    /// Each seat's rewards so far, summed, in `seats` order: once the game
    /// is over, its final rewards (what `Batch` reports when a game ends).
    #[getter]
    fn returns(&self) -> Vec<f64> {
        self.by_seat(self.episode.returns())
    }

    /// The winner's colour once the game is over with one sorcerer left,
    /// else `None`.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.pos().winner().map(|s| s.name())
    }

    /// The seats eliminated so far, first out first.
    #[getter]
    fn eliminations(&self) -> Vec<&'static str> {
        self.out.iter().map(|s| s.name()).collect()
    }

    /// Each seat's finishing place so far, `{colour: place}`: the seats
    /// eliminated (1-based, the first out last; each has a place of its
    /// own, as no two seats go out on one step) and, once the game is
    /// over, the winner (1). The rules' decided places
    /// (`splut_rules::Game::places`), as `Position.places()` gives them.
    #[getter]
    fn places<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::position::places_dict(py, &self.game)
    }

    /// How many times the current position (pieces, rocks, side to move,
    /// steps left, levitation state; by Zobrist hash) has occurred after a
    /// step of this game, this time included (0 at the start): the
    /// judge's count (`splut_play::judge::Judge::occurrences`). The game
    /// is drawn when it reaches `repetitions`.
    #[getter]
    fn repetition_count(&self) -> u32 {
        self.episode.occurrences()
    }

    /// The legal action ids, in generation order (empty once over).
    fn legal_actions(&self) -> Vec<usize> {
        self.legal.iter().map(|&(a, _)| a as usize).collect()
    }

    /// Fills `mask` (a 1-D int8 or uint8 array of `NUM_ACTIONS` entries):
    /// 1 for each legal action id, 0 elsewhere.
    fn fill_mask(&self, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        fn fill<T: numpy::Element + Copy>(
            legal: &[(u16, Step)],
            a: &Bound<'_, PyArray1<T>>,
            zero: T,
            one: T,
        ) -> PyResult<()> {
            if a.len() != NUM_ACTIONS {
                return Err(PyValueError::new_err(format!(
                    "the mask must have {NUM_ACTIONS} entries, not {}",
                    a.len()
                )));
            }
            let mut rw = a
                .try_readwrite()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let s = rw
                .as_slice_mut()
                .map_err(|_| PyValueError::new_err("the mask must be contiguous"))?;
            s.fill(zero);
            for &(id, _) in legal {
                s[id as usize] = one;
            }
            Ok(())
        }
        if let Ok(a) = mask.cast::<PyArray1<i8>>() {
            fill(&self.legal, a, 0, 1)
        } else if let Ok(a) = mask.cast::<PyArray1<u8>>() {
            fill(&self.legal, a, 0, 1)
        } else {
            Err(PyTypeError::new_err(
                "the mask must be a 1-D int8 or uint8 numpy array",
            ))
        }
    }

    /// A new int8 mask of the legal action ids.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut v = vec![0i8; NUM_ACTIONS];
        for &(id, _) in &self.legal {
            v[id as usize] = 1;
        }
        PyArray1::from_vec(py, v)
    }

    /// The observation of `seat` (colour name, letter or index): float32,
    /// shape `(28, 9, 9)` (module docs and the environment's documentation).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let view = seat_arg(seat)?;
        let mut v = vec![0f32; OBS_SIZE];
        write_observation(self.pos(), view, &mut v);
        PyArray1::from_vec(py, v).reshape([PLANES, 9, 9])
    }

    /// Plays the step with action id `action`. Raises `ValueError` (and
    /// changes nothing) when it is not legal here. Returns the colours of
    /// the seats this step eliminated (usually none).
    fn step(&mut self, action: Int) -> PyResult<Vec<&'static str>> {
        let (gone, _) = self.play_id(action.get())?;
        Ok(gone.iter().map(|s| s.name()).collect())
    }

    /// Plays the step with action id `action` (as `step`) and returns what
    /// it gave the seats that were in the game before it (the agents a
    /// PettingZoo step concerns), three dicts by colour: the reward of
    /// this step; whether the seat is terminated (it went out, or the game
    /// was won by the last sorcerer); whether it is truncated (a draw ended
    /// the game on this step with it still in). Raises `ValueError` (and
    /// changes nothing) when the step is not legal here.
    fn step_outcome<'py>(&mut self, py: Python<'py>, action: Int) -> PyResult<StepDicts<'py>> {
        let before = *self.pos();
        let (_, out) = self.play_id(action.get())?;
        let dicts = (PyDict::new(py), PyDict::new(py), PyDict::new(py));
        let names = seat_names(py);
        for seat in before.seats_in_game() {
            let (name, i) = (names[seat.index()].bind(py), seat.index());
            dicts.0.set_item(name, out.rewards[i])?;
            dicts.1.set_item(name, out.terminated[i])?;
            dicts.2.set_item(name, out.truncated[i])?;
        }
        Ok(dicts)
    }

    /// The position as SPN text.
    fn spn(&self) -> String {
        self.pos().to_spn()
    }

    /// A text picture of the board (rank 9 at the top) and the SPN.
    fn render(&self) -> String {
        self.pos().board_art()
    }

    fn __repr__(&self) -> String {
        format!("EnvGame('{}')", self.pos().to_spn())
    }
}

/// Adds this file's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvGame>()?;
    m.add("OBS_PLANES", PLANES)?;
    Ok(())
}
