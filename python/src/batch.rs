//! (to be written)

use pyo3::prelude::*;

/// Adds this file's classes and functions to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
