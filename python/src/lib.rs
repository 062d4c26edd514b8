//! The Python binding of rowkey-lab: Arrow data in through the Arrow PyCapsule interface
//! (`__arrow_c_stream__`), one engine call, the result out. Every function is the same three
//! steps — decode the arguments, call the core with the GIL released, encode the result — and
//! every engine error becomes a `RowkeyLabError` carrying the engine's kind and location.
//! The pure-Python package `rowkey_lab` wraps this module; nothing here is its API (its
//! functions are declared for type checkers in `rowkey_lab/_engine.pyi`, which
//! `python/tests/test_typing.py` holds to this module).
//!
//! By topic: `errors` (the exception, the engine's words, the GIL released), `arrow` (streams
//! in, checked), `design` (documents and options), `keys` (row keys, split keys, regions),
//! `analysis` (reports over the rows, the table's life), `partials` (partial analyses),
//! `rekey` (the move to a new key).

use pyo3::prelude::*;

mod analysis;
mod arrow;
mod design;
mod errors;
mod keys;
mod partials;
mod rekey;

pub(crate) use analysis::report_text;
pub(crate) use arrow::{batches, stream};
pub(crate) use design::{analyze_options, design, design_for, design_of, rows_options};
pub(crate) use errors::{core, detached, py_error};

/// The native module `rowkey_lab._engine`.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "RowkeyLabError",
        m.py().get_type::<errors::RowkeyLabError>(),
    )?;
    // The most distinct rows a report counts exactly: rowkey_lab.spark decides from it whether
    // partials carry exact counts that a one-pass run would keep.
    m.add("MAX_EXACT_ROWS", rowkey_lab::analyze::MAX_EXACT_ROWS)?;
    design::register(m)?;
    keys::register(m)?;
    analysis::register(m)?;
    rekey::register(m)?;
    partials::register(m)?;
    Ok(())
}
