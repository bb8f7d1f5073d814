//! The `splut` Python package's native module (`splut._splut`): the rules,
//! the engine and the batch environment, wrapped with pyo3. docs/python.md
//! documents the package.

mod args;
mod batch;
mod engine;
mod episode;
mod interrupt;
mod observe;
mod position;

use args::Int;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// What finishing `place` (1 = first) of `players` (1-4) is worth: +1 for
/// the first down to -1 for the last in equal steps, `1 - 2 (place - 1) /
/// (players - 1)` (the rules' `splut_rules::place_points`). A fractional
/// place, the mean of the places some seats share, is worth the mean of
/// their points. `ValueError` for players outside 1-4 or a place outside
/// 1..players.
#[pyfunction]
#[pyo3(text_signature = "(players, place)")]
fn place_points(players: Int, place: f64) -> PyResult<f64> {
    let players: usize = players.within("players", 1, 4)?;
    if !(1.0..=players as f64).contains(&place) {
        return Err(PyValueError::new_err(format!(
            "place must be 1-{players}, not {place}"
        )));
    }
    Ok(splut_rules::place_points(players, place))
}

/// The native module.
#[pymodule]
fn _splut(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NUM_ACTIONS", splut_rules::NUM_ACTIONS)?;
    m.add_function(wrap_pyfunction!(place_points, m)?)?;
    position::register(m)?;
    engine::register(m)?;
    observe::register(m)?;
    batch::register(m)?;
    m.add("MAX_GAMES", batch::MAX_GAMES)?;
    m.add("MAX_PERFT_DEPTH", splut_engine::protocol::PERFT_MAX_DEPTH)?;
    Ok(())
}
