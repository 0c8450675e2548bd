//! Library errors as Python exceptions: the classes live in `grundy/_errors.py` (so that they
//! can derive from both `GrundyError` and `ValueError`); the messages are the library's, the
//! same words the CLI prints.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// An exception of class `name` from `grundy._errors` carrying `message`.
pub fn raise(py: Python<'_>, name: &str, message: String) -> PyErr {
    let class = py
        .import("grundy._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
    match class {
        Ok(class) => PyErr::from_type(class, message),
        // Only when the package is broken: keep the message anyway.
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// The exception class for a library error, by its kind: `InputError` (bad input or a
/// limit, a `ValueError`), `StoppedError` or `GrundyError` (a failure). Two kinds of bad input
/// have their own subclass of `InputError`: `RuleError` (a heap rule that does not parse) and
/// `CycleError` (a game that can reach a position from itself).
pub fn class_of(e: &grundy::Error) -> &'static str {
    use grundy::ErrorKind;
    match e.kind() {
        ErrorKind::Input if matches!(e, grundy::Error::Rule(_)) => "RuleError",
        ErrorKind::Input if matches!(e, grundy::Error::Cycle(_)) => "CycleError",
        ErrorKind::Input | ErrorKind::Limit => "InputError",
        ErrorKind::Stopped => "StoppedError",
        ErrorKind::Failure => "GrundyError",
    }
}

/// A library error as the Python exception of its class.
pub fn from_lib(py: Python<'_>, e: grundy::Error) -> PyErr {
    raise(py, class_of(&e), e.to_string())
}

/// Extension: `?` on library results inside functions that hold `py`.
pub trait LibResult<T> {
    /// The library error as a Python exception.
    fn py(self, py: Python<'_>) -> PyResult<T>;
}

impl<T, E: Into<grundy::Error>> LibResult<T> for Result<T, E> {
    fn py(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| from_lib(py, e.into()))
    }
}

/// A result serialized as the CLI's `--json` text.
pub fn json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}
