//! The `splut` Python package's native module (`splut._splut`): the rules,
//! the engine and the batch environment, wrapped with pyo3. docs/python.md
//! documents the package.

mod args;
mod batch;
mod engine;
mod interrupt;
mod observe;
mod position;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _splut(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NUM_ACTIONS", splut_rules::NUM_ACTIONS)?;
    position::register(m)?;
    engine::register(m)?;
    observe::register(m)?;
    batch::register(m)?;
    m.add("MAX_GAMES", batch::MAX_GAMES)?;
    m.add("MAX_PERFT_DEPTH", splut_engine::protocol::PERFT_MAX_DEPTH)?;
    Ok(())
}
