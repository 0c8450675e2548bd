//! `grundy._grundy`: the native half of the Python package `grundy`.
//!
//! Every function here is one call of the facade crate `grundy`: it converts Python arguments,
//! calls the library (with the GIL released for long work) and hands back the library's result
//! serialized by serde, exactly the CLI's `--json` object, which `grundy/_results.py` wraps for
//! Python users. Sequences come back as numpy arrays that own the library's `Vec<u32>`
//! (no copy). Python-defined games (`game.rs`) implement the core `Game` trait over interned
//! Python objects, so the library's solver does the work.

#![forbid(unsafe_code)]

mod calls;
mod compute;
mod errors;
mod game;
mod misere;
mod script;
mod survey;

use pyo3::prelude::*;

/// The extension module; each file registers its own functions and classes.
#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    calls::register(m)?;
    game::register(m)?;
    misere::register(m)?;
    script::register(m)?;
    survey::register(m)?;
    Ok(())
}
