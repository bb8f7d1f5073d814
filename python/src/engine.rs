//! `splut.Engine` and `splut.Turn`: the engine's searches from Python,
//! wrapping `splut_engine::Engine` (shared as an `Arc` so `stop` works from
//! another thread while a search runs with the GIL released).

use std::collections::BTreeMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use splut_engine::engine::win_probabilities;
use splut_engine::game::{Game, Seat, Step};
use splut_engine::options::{self, Id};
use splut_engine::search::score::Score;
use splut_engine::{Info, Limits};

use crate::position::{PyPosition, value_error};

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

fn probabilities(p: &[(Seat, f64)]) -> BTreeMap<&'static str, f64> {
    p.iter().map(|&(s, v)| (s.name(), v)).collect()
}

/// A search's answer: the turn to play and what the search saw.
#[pyclass(name = "Turn", module = "splut", frozen, get_all)]
#[derive(Clone)]
pub struct PyTurn {
    /// The rest of the side to move's turn, as step texts (1-3 steps).
    steps: Vec<String>,
    /// The score from the side to move's view: "cp 34", "win 3", "loss 2".
    score: String,
    /// The score in centi-units when it is `cp <x>`, else None.
    score_cp: Option<i32>,
    /// Each colour in the game's chance to win.
    win_probabilities: BTreeMap<&'static str, f64>,
    /// The principal variation, as step texts.
    pv: Vec<String>,
    /// The last iteration's depth, in steps.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
}

#[pymethods]
impl PyTurn {
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
#[pyclass(name = "Line", module = "splut", frozen, get_all)]
#[derive(Clone)]
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
    win_probabilities: BTreeMap<&'static str, f64>,
    /// The iteration's depth.
    depth: u32,
}

#[pymethods]
impl PyLine {
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
    fn set(&self, name: &str, value: &str) -> PyResult<()> {
        self.engine
            .set_option(&option_name(name), value)
            .map_err(value_error)
    }

    fn limits(
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        infinite: bool,
    ) -> PyResult<Limits> {
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
        self.set(name, &option_value(value)?)
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
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        infinite: bool,
    ) -> PyResult<PyTurn> {
        let limits = Self::limits(movetime, nodes, depth, infinite)?;
        let game: Game = position.game.clone();
        drop(position);
        let engine = Arc::clone(&self.engine);
        let report = py
            .detach(move || engine.go(&game, &limits, |_| {}))
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
    #[pyo3(signature = (position, multipv = 3, movetime = None, nodes = None, depth = None, infinite = false))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        multipv: u32,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        infinite: bool,
    ) -> PyResult<Vec<PyLine>> {
        let limits = Self::limits(movetime, nodes, depth, infinite)?;
        let game: Game = position.game.clone();
        drop(position);
        let before = self.engine.options().spin(Id::MultiPv);
        self.set("MultiPV", &multipv.to_string())?;
        let engine = Arc::clone(&self.engine);
        let root = *game.position();
        let result = py.detach(move || {
            let mut infos: Vec<Info> = Vec::new();
            let report = engine.go(&game, &limits, |i| infos.push(i.clone()))?;
            Ok::<_, splut_engine::GoError>((report, infos))
        });
        let restored = self.set("MultiPV", &before.to_string());
        let (report, infos) = result.map_err(value_error)?;
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
