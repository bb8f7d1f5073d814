//! `splut.Engine` and `splut.Turn`: the engine's searches from Python,
//! wrapping `splut_engine::Engine` (shared as an `Arc` so `stop` works from
//! another thread while a search runs with the GIL released).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use splut_engine::engine::win_probabilities;
use splut_engine::options::{self, Id};
use splut_engine::search::MAX_DEPTH;
use splut_engine::search::score::Score;
use splut_engine::{Info, Limits};
use splut_rules::{Game, Seat, Step};

use crate::args::Int;
use crate::interrupt::interruptible;
use crate::position::{PyPosition, value_error};

/// The longest `movetime`, milliseconds (about 49.7 days).
const MAX_MOVETIME: u64 = u32::MAX as u64;

/// The score in centi-units, or None for a proven win or loss.
fn centis(score: &Score) -> Option<i32> {
    match *score {
        Score::Cp(c) => Some(c),
        Score::Win(_) | Score::Loss(_) => None,
    }
}

/// Texts as Python writes a list of str: `['e2e3', 'pass']`.
fn py_list(texts: &[String]) -> String {
    let quoted: Vec<String> = texts.iter().map(|t| format!("'{t}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn texts(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.to_string()).collect()
}

fn probabilities(p: &[(Seat, f64)]) -> BTreeMap<String, f64> {
    p.iter().map(|&(s, v)| (s.name().to_string(), v)).collect()
}

/// A search's answer: the turn to play and what the search saw.
#[pyclass(name = "Turn", module = "splut", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyTurn {
    /// The rest of the side to move's turn, as step texts (1-3 steps).
    steps: Vec<String>,
    /// The score from the side to move's view: "cp 34", "win 3", "loss 2".
    score: String,
    /// The score in centi-units when it is `cp <x>`, else None.
    score_cp: Option<i32>,
    /// Each colour in the game's chance to win.
    win_probabilities: BTreeMap<String, f64>,
    /// The principal variation, as step texts.
    pv: Vec<String>,
    /// The last iteration's depth, in steps.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
}

/// A `Turn`'s fields in the constructor's order.
type TurnArgs = (
    Vec<String>,
    String,
    Option<i32>,
    BTreeMap<String, f64>,
    Vec<String>,
    u32,
    u64,
);

/// A `Line`'s fields in the constructor's order.
type LineArgs = (
    u32,
    String,
    Option<i32>,
    Vec<String>,
    BTreeMap<String, f64>,
    u32,
);

#[pymethods]
impl PyTurn {
    /// A turn with these fields (searches make them; this is for pickling
    /// and tests).
    #[new]
    fn new(
        steps: Vec<String>,
        score: String,
        score_cp: Option<i32>,
        win_probabilities: BTreeMap<String, f64>,
        pv: Vec<String>,
        depth: u32,
        nodes: u64,
    ) -> Self {
        PyTurn {
            steps,
            score,
            score_cp,
            win_probabilities,
            pv,
            depth,
            nodes,
        }
    }

    /// Pickling and copying: the constructor and the fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, TurnArgs) {
        let t = slf.get();
        let args = (
            t.steps.clone(),
            t.score.clone(),
            t.score_cp,
            t.win_probabilities.clone(),
            t.pv.clone(),
            t.depth,
            t.nodes,
        );
        (slf.get_type().into_any(), args)
    }

    fn __repr__(&self) -> String {
        format!(
            "Turn(steps={}, score='{}', depth={}, nodes={})",
            py_list(&self.steps),
            self.score,
            self.depth,
            self.nodes
        )
    }
}

/// One line of an analysis (`MultiPV`).
#[pyclass(name = "Line", module = "splut", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyLine {
    /// 1 for the best line.
    multipv: u32,
    /// The score from the side to move's view.
    score: String,
    /// The score in centi-units when it is `cp <x>`, else None.
    score_cp: Option<i32>,
    /// The line's steps, as text.
    pv: Vec<String>,
    /// Each colour in the game's chance to win, from this line's score.
    win_probabilities: BTreeMap<String, f64>,
    /// The iteration's depth.
    depth: u32,
}

#[pymethods]
impl PyLine {
    /// A line with these fields (analyses make them; this is for pickling
    /// and tests).
    #[new]
    fn new(
        multipv: u32,
        score: String,
        score_cp: Option<i32>,
        pv: Vec<String>,
        win_probabilities: BTreeMap<String, f64>,
        depth: u32,
    ) -> Self {
        PyLine {
            multipv,
            score,
            score_cp,
            pv,
            win_probabilities,
            depth,
        }
    }

    /// Pickling and copying: the constructor and the fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, LineArgs) {
        let l = slf.get();
        let args = (
            l.multipv,
            l.score.clone(),
            l.score_cp,
            l.pv.clone(),
            l.win_probabilities.clone(),
            l.depth,
        );
        (slf.get_type().into_any(), args)
    }

    fn __repr__(&self) -> String {
        format!(
            "Line(multipv={}, score='{}', pv={}, depth={})",
            self.multipv,
            self.score,
            py_list(&self.pv),
            self.depth
        )
    }
}

/// The Splut! engine. `Engine(Hash=32, Threads=1, Skill_Level=5)`: options
/// by the protocol's names (an `_` stands for a space where the name has
/// one), values as str(), bools as "true"/"false".
#[pyclass(name = "Engine", module = "splut", frozen)]
pub struct PyEngine {
    engine: Arc<splut_engine::Engine>,
    /// Held by a call that searches or changes options, for the whole call:
    /// `analyse` sets `MultiPV`, searches and restores it, and a search or
    /// option from another thread in between would break the restore.
    /// Another such call meanwhile is refused, as the engine refuses a
    /// second search.
    busy: Mutex<()>,
}

/// A Python value as the protocol's option value text.
fn option_value(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    Ok(value.str()?.to_string())
}

/// The option's name as the engine knows it: `name`, or `name` with `_`
/// read as spaces when only that is an option.
fn option_name(name: &str) -> String {
    if options::find(name).is_none() {
        let spaced = name.replace('_', " ");
        if options::find(&spaced).is_some() {
            return spaced;
        }
    }
    name.to_string()
}

impl PyEngine {
    /// The engine for one call, or the engine's own refusal while another
    /// thread's call holds it.
    fn claim(&self) -> PyResult<MutexGuard<'_, ()>> {
        match self.busy.try_lock() {
            Ok(guard) => Ok(guard),
            // A call that panicked cannot leave the guard's () inconsistent.
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(value_error(splut_engine::EngineError::Busy)),
        }
    }

    fn set(&self, name: &str, value: &str) -> PyResult<()> {
        self.engine
            .set_option(&option_name(name), value)
            .map_err(value_error)
    }

    /// The search limits, each checked: `movetime` 1 ms to ~49.7 days,
    /// `nodes` at least 1, `depth` 1 to the engine's deepest iteration.
    fn limits(
        movetime: Option<Int>,
        nodes: Option<Int>,
        depth: Option<Int>,
        infinite: bool,
    ) -> PyResult<Limits> {
        let movetime: Option<u64> = movetime
            .map(|m| m.within("movetime", 1, MAX_MOVETIME.into()))
            .transpose()?;
        let nodes: Option<u64> = nodes
            .map(|n| n.within("nodes", 1, u64::MAX.into()))
            .transpose()?;
        let depth: Option<u32> = depth
            .map(|d| d.within("depth", 1, MAX_DEPTH.into()))
            .transpose()?;
        if movetime.is_none() && nodes.is_none() && depth.is_none() && !infinite {
            return Err(value_error(
                "give a limit (movetime, nodes or depth) or infinite=True",
            ));
        }
        Ok(Limits {
            movetime,
            nodes,
            depth,
            infinite,
            ..Limits::default()
        })
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let e = PyEngine {
            engine: Arc::new(splut_engine::Engine::new()),
            busy: Mutex::new(()),
        };
        if let Some(options) = options {
            for (k, v) in options.iter() {
                let name: String = k.extract()?;
                e.set(&name, &option_value(&v)?)?;
            }
        }
        Ok(e)
    }

    /// Sets an option (the protocol's name, case-insensitive; `_` may stand
    /// for a space). `ValueError` on an unknown name or a bad value.
    fn set_option(&self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = option_value(value)?;
        let _busy = self.claim()?;
        self.set(name, &value)
    }

    /// An option's current value (name as `set_option` takes it): an int
    /// (spin), a bool (check) or a str (combo, text). `SplutError` on an
    /// unknown name.
    fn get_option<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let spec = options::find(&option_name(name)).ok_or_else(|| {
            value_error(options::OptionError::Unknown {
                name: name.to_string(),
            })
        })?;
        let values = self.engine.options();
        Ok(match spec.kind {
            options::Kind::Spin { .. } => values.spin(spec.id).into_pyobject(py)?.into_any(),
            options::Kind::Check { .. } => {
                PyBool::new(py, values.check(spec.id)).to_owned().into_any()
            }
            options::Kind::Combo { .. } => values.combo(spec.id).into_pyobject(py)?.into_any(),
            options::Kind::Text { .. } => values.text(spec.id).into_pyobject(py)?.into_any(),
        })
    }

    /// A new game: clears the table.
    fn new_game(&self) -> PyResult<()> {
        let _busy = self.claim()?;
        self.engine.new_game().map_err(value_error)
    }

    /// Ends the running search (from another thread) at once.
    fn stop(&self) {
        self.engine.stop();
    }

    /// Whether a search is running.
    fn is_searching(&self) -> bool {
        self.engine.is_searching()
    }

    /// Searches `position` (its history counts for repetitions) and returns
    /// the `Turn` to play. Give at least one limit (milliseconds, nodes,
    /// depth in steps) or `infinite=True` (then `stop()` from another
    /// thread ends it). The GIL is released while it searches.
    #[pyo3(signature = (position, movetime = None, nodes = None, depth = None, infinite = false))]
    fn best_turn(
        &self,
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        movetime: Option<Int>,
        nodes: Option<Int>,
        depth: Option<Int>,
        infinite: bool,
    ) -> PyResult<PyTurn> {
        let limits = Self::limits(movetime, nodes, depth, infinite)?;
        let game: Game = position.game.clone();
        drop(position);
        let _busy = self.claim()?;
        let engine = &self.engine;
        let report = interruptible(py, &|| engine.stop(), || engine.go(&game, &limits, |_| {}))?
            .map_err(value_error)?;
        Ok(PyTurn {
            steps: texts(&report.turn),
            score: report.info.score.to_string(),
            score_cp: centis(&report.info.score),
            win_probabilities: probabilities(&report.win_probabilities),
            pv: texts(&report.info.pv),
            depth: report.info.depth,
            nodes: report.info.nodes,
        })
    }

    /// The best `multipv` lines of the last completed iteration, best
    /// first, each a `Line` (score, pv, win_probabilities). Limits as
    /// `best_turn`'s. `MultiPV` is set for this search and restored after.
    #[pyo3(
        signature = (position, multipv = Int::new(3), movetime = None, nodes = None, depth = None, infinite = false),
        text_signature = "($self, position, multipv=3, movetime=None, nodes=None, depth=None, infinite=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        multipv: Int,
        movetime: Option<Int>,
        nodes: Option<Int>,
        depth: Option<Int>,
        infinite: bool,
    ) -> PyResult<Vec<PyLine>> {
        let multipv: u32 = multipv.within("multipv", 1, options::MULTI_PV_MAX.into())?;
        let limits = Self::limits(movetime, nodes, depth, infinite)?;
        let game: Game = position.game.clone();
        drop(position);
        let _busy = self.claim()?;
        let before = self.engine.options().spin(Id::MultiPv);
        self.set("MultiPV", &multipv.to_string())?;
        let engine = &self.engine;
        let root = *game.position();
        let result = interruptible(py, &|| engine.stop(), || {
            let mut infos: Vec<Info> = Vec::new();
            let report = engine.go(&game, &limits, |i| infos.push(i.clone()))?;
            Ok::<_, splut_engine::GoError>((report, infos))
        });
        let restored = self.set("MultiPV", &before.to_string());
        let (report, infos) = result?.map_err(value_error)?;
        restored?;
        // Each iteration's lines by index (the last report of each).
        let mut by_depth: BTreeMap<u32, BTreeMap<u32, Info>> = BTreeMap::new();
        for i in infos {
            let index = i.multipv.max(1);
            by_depth.entry(i.depth).or_default().insert(index, i);
        }
        // The deepest iteration that reported as many lines as any did.
        let most = by_depth.values().map(|l| l.len()).max().unwrap_or(0);
        let lines: Vec<Info> = match by_depth.values().rev().find(|l| l.len() == most) {
            Some(l) => l.values().cloned().collect(),
            None => vec![report.info.clone()],
        };
        Ok(lines
            .iter()
            .map(|i| PyLine {
                multipv: i.multipv.max(1),
                score: i.score.to_string(),
                score_cp: centis(&i.score),
                pv: texts(&i.pv),
                win_probabilities: probabilities(&win_probabilities(&root, i)),
                depth: i.depth,
            })
            .collect())
    }
}

/// Adds this file's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyTurn>()?;
    m.add_class::<PyLine>()?;
    Ok(())
}
