//! Checks of the numbers Python passes in: every int argument is read
//! whole (any size, or anything with `__index__` such as numpy ints; a
//! bool or a float is a `TypeError`) and refused with a `ValueError` that
//! names the argument and its range when it is out of range, before
//! anything is allocated or changed.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// An int argument as Python gave it. Ints beyond `i128` are kept as
/// `i128::MIN` / `i128::MAX` with `huge` set: out of every range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int {
    value: i128,
    huge: bool,
}

impl Int {
    /// An int argument's default.
    pub(crate) const fn new(value: i128) -> Int {
        Int { value, huge: false }
    }

    /// The value if it lies in `min..=max`, else a `ValueError` naming
    /// `name` and the range.
    pub(crate) fn within<T: TryFrom<i128>>(self, name: &str, min: i128, max: i128) -> PyResult<T> {
        let shown = if self.huge {
            "an int that large".to_string()
        } else {
            self.value.to_string()
        };
        if self.huge || self.value < min || self.value > max {
            return Err(PyValueError::new_err(format!(
                "{name} must be {min}-{max}, not {shown}"
            )));
        }
        T::try_from(self.value)
            .map_err(|_| PyValueError::new_err(format!("{name} must be {min}-{max}, not {shown}")))
    }

    /// The value when it is not huge (for messages and range checks done by
    /// the caller).
    pub(crate) fn get(self) -> Option<i128> {
        (!self.huge).then_some(self.value)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if obj.cast::<PyBool>().is_ok() {
            return Err(PyTypeError::new_err("expected an int, not a bool"));
        }
        match obj.extract::<i128>() {
            Ok(value) => Ok(Int { value, huge: false }),
            Err(e) => {
                // Too large for i128, but an int: out of any range.
                let index = obj.call_method0("__index__");
                match index {
                    Ok(i) if i.cast::<PyInt>().is_ok() => {
                        let negative = i.lt(0i32).unwrap_or(false);
                        Ok(Int {
                            value: if negative { i128::MIN } else { i128::MAX },
                            huge: true,
                        })
                    }
                    _ => Err(e),
                }
            }
        }
    }
}
