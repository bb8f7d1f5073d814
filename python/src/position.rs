//! `splut.Position`: a game of Splut! (a start position and the steps played
//! from it, so `undo` works), wrapping `splut_rules::Game`.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};
use splut_engine::options::THREADS_MAX;
use splut_engine::parallel_perft::perft_parallel_until;
use splut_engine::protocol::PERFT_MAX_DEPTH;
use splut_rules::{Game, NUM_ACTIONS, Position, Seat};

use crate::args::Int;
use crate::interrupt::interruptible;

/// A position of Splut! with its history: the game from a start position.
///
/// `Position(players=2)` is the standard start of 2, 3 or 4 players;
/// `Position.from_spn(text)` reads one from SPN. Steps are given and
/// returned as text (`e2e3`, `pass`, ...) or as action ids.
#[pyclass(name = "Position", module = "splut")]
#[derive(Clone)]
pub struct PyPosition {
    pub(crate) game: Game,
}

pyo3::create_exception!(
    splut,
    SplutError,
    PyValueError,
    "Bad input to splut: malformed SPN or step text, an illegal step or action id, a step after the game is over, an unknown engine option. A ValueError."
);

/// A `Position`'s pickled state: the start's SPN and the steps played.
type PositionState = (String, Vec<String>);

/// What `__reduce__` returns: the class, its constructor's arguments and
/// the state for `__setstate__`.
pub(crate) type Reduced<'py, A, S> = (Bound<'py, PyAny>, A, S);

/// A `SplutError` with this message (a rules or engine error's Display).
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    SplutError::new_err(e.to_string())
}

impl PyPosition {
    /// The current position.
    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    /// The legal step with this action id (any Python int; one out of
    /// range or not legal here is a `SplutError`).
    fn legal_step_for(&self, action: &Bound<'_, PyAny>) -> PyResult<splut_rules::Step> {
        if action.cast::<PyBool>().is_ok() {
            return Err(PyTypeError::new_err("an action id is an int, not a bool"));
        }
        let id: i128 = match action.extract::<i128>() {
            Ok(id) => id,
            // An int too large even for i128.
            Err(_) if action.cast::<pyo3::types::PyInt>().is_ok() => i128::MAX,
            Err(e) => return Err(e),
        };
        let Ok(id) = usize::try_from(id) else {
            return Err(bad_action(&action.to_string()));
        };
        if id >= NUM_ACTIONS {
            return Err(bad_action(&id.to_string()));
        }
        self.pos()
            .step_for_action(id)
            .ok_or_else(|| value_error(format!("action {id} is not a legal step here")))
    }

    fn check_not_over(&self) -> PyResult<()> {
        let pos = self.pos();
        if pos.is_game_over() {
            let who = pos.winner().map_or("nobody", |s| s.name());
            return Err(value_error(format!(
                "the game is over ({who} won): no step can be played"
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl PyPosition {
    /// The standard start position of `players` (2, 3 or 4) players.
    #[new]
    #[pyo3(signature = (players = Int::new(2)), text_signature = "(players=2)")]
    fn new(players: Int) -> PyResult<Self> {
        let players: usize = players.within("players", 2, 4)?;
        let start = Position::start(players)
            .ok_or_else(|| value_error(format!("players must be 2, 3 or 4, not {players}")))?;
        Ok(PyPosition {
            game: Game::new(start),
        })
    }

    /// The position this SPN text describes (no history).
    #[staticmethod]
    fn from_spn(text: &str) -> PyResult<Self> {
        let pos = Position::from_spn(text).map_err(value_error)?;
        Ok(PyPosition {
            game: Game::new(pos),
        })
    }

    /// The position as SPN text.
    fn spn(&self) -> String {
        self.pos().to_spn()
    }

    /// The legal steps, as text, in generation order.
    fn legal_steps(&self) -> Vec<String> {
        self.pos()
            .legal_step_vec()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// Plays a step given as text; `ValueError` (nothing played) if it is
    /// malformed or not legal here.
    fn play(&mut self, step: &str) -> PyResult<()> {
        self.check_not_over()?;
        self.game.play_text(step).map_err(value_error)?;
        Ok(())
    }

    /// Takes back the last step; `ValueError` at the start.
    fn undo(&mut self) -> PyResult<()> {
        self.game
            .undo()
            .map(|_| ())
            .ok_or_else(|| value_error("no step to undo: this is the start"))
    }

    /// The steps played since the start, as text.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.game.steps().iter().map(|s| s.to_string()).collect()
    }

    /// The colour to move: "red", "yellow", "green" or "blue".
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.pos().side_to_move().name()
    }

    /// Steps left in the side to move's turn.
    #[getter]
    fn steps_left(&self) -> u8 {
        self.pos().steps_left()
    }

    /// The game turn number.
    #[getter]
    fn turn(&self) -> u32 {
        self.pos().turn()
    }

    /// The colours still in the game, in seat order.
    #[getter]
    fn seats_in_game(&self) -> Vec<&'static str> {
        self.pos().seats_in_game().map(Seat::name).collect()
    }

    /// Whether the game has ended (one sorcerer left).
    fn is_over(&self) -> bool {
        self.pos().is_game_over()
    }

    /// The winner's colour once the game is over, else None.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.pos().winner().map(Seat::name)
    }

    /// Places so far: colour -> place (1 the winner, n the first out) for
    /// every seat already out, and the winner once the game is over (the
    /// rules' decided places, `splut_rules::Game::places`; the same as
    /// `EnvGame.places`).
    fn places<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        places_dict(py, &self.game)
    }

    /// Leaf count of the legal step tree `depth` (0-12) steps deep, on
    /// `threads` (0-256; 0 = all cores, as `splut perft --threads 0`)
    /// threads. The GIL is released and Ctrl-C stops it
    /// (`KeyboardInterrupt`). The position is copied first, so other
    /// threads may play on it meanwhile.
    #[pyo3(signature = (depth, threads = Int::new(1)), text_signature = "($self, depth, threads=1)")]
    fn perft(slf: &Bound<'_, Self>, depth: Int, threads: Int) -> PyResult<u64> {
        let py = slf.py();
        let depth: u32 = depth.within("depth", 0, PERFT_MAX_DEPTH.into())?;
        let most = THREADS_MAX as usize;
        let threads: usize = match threads.within("threads", 0, most as i128)? {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(most)),
            t => t,
        };
        let pos = *slf.borrow().pos();
        let stop = AtomicBool::new(false);
        let count = interruptible(py, &|| stop.store(true, Ordering::Relaxed), || {
            perft_parallel_until(&pos, depth, threads, &stop)
        })?;
        match count {
            Ok(Some(n)) => Ok(n),
            Ok(None) => Err(PyRuntimeError::new_err("perft was stopped")),
            Err(e) => Err(value_error(e)),
        }
    }

    /// The action ids (0..NUM_ACTIONS) of the legal steps, in generation
    /// order.
    fn legal_actions(&self) -> Vec<usize> {
        self.pos().legal_actions()
    }

    /// The action id of a legal step given as text.
    fn action(&self, step: &str) -> PyResult<usize> {
        let s = self.pos().parse_step(step).map_err(value_error)?;
        Ok(s.action())
    }

    /// The text of the legal step with this action id.
    fn step_for_action(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        self.legal_step_for(action).map(|s| s.to_string())
    }

    /// Plays the legal step with this action id.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_not_over()?;
        let step = self.legal_step_for(action)?;
        self.game.play(step).map_err(value_error)
    }

    /// The Zobrist hash of the current position.
    #[getter]
    fn zobrist(&self) -> u64 {
        self.pos().hash()
    }

    fn __str__(&self) -> String {
        self.pos().board_art()
    }

    fn __repr__(&self) -> String {
        format!("Position.from_spn({:?})", self.pos().to_spn())
    }

    /// Pickling: the start position's SPN and the steps played from it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, Bound<'py, PyTuple>, PositionState> {
        let me = slf.borrow();
        let state = (me.game.start().to_spn(), me.history());
        (slf.get_type().into_any(), PyTuple::empty(slf.py()), state)
    }

    /// Unpickling: replays `(start SPN, steps)`; `SplutError` (nothing
    /// changed) when they do not make a game.
    fn __setstate__(&mut self, state: (String, Vec<String>)) -> PyResult<()> {
        let (start, steps) = state;
        let mut game = Game::new(Position::from_spn(&start).map_err(value_error)?);
        for step in &steps {
            if game.position().is_game_over() {
                return Err(value_error("a step after the end of the game"));
            }
            game.play_text(step).map_err(value_error)?;
        }
        self.game = game;
        Ok(())
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Equal when the current positions are (history aside).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.extract::<PyRef<'_, PyPosition>>() {
            Ok(o) => self.pos() == o.pos(),
            Err(_) => false,
        }
    }

    /// The Zobrist hash of the current position.
    fn __hash__(&self) -> u64 {
        self.pos().hash()
    }
}

fn bad_action(action: &str) -> PyErr {
    value_error(format!(
        "action {action} is out of range (0..{NUM_ACTIONS})"
    ))
}

/// Adds this file's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add("SplutError", m.py().get_type::<SplutError>())?;
    Ok(())
}

/// The places the rules have decided in `game`
/// ([`splut_rules::Places::decided`]), as `{colour: place}`, best first:
/// every seat out (the first out is last) and, once the game is over, the
/// winner (1). `Position.places()` and `EnvGame.places` both answer this.
pub(crate) fn places_dict<'py>(py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (seat, place) in game.places().decided() {
        d.set_item(seat.name(), place)?;
    }
    Ok(d)
}
