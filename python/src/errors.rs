//! The engine's errors in Python: `RowkeyLabError` with the engine's kind and location, the
//! engine's messages in the package's words, and the engine's work run with the GIL released
//! and no panic reaching Python.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use rowkey_lab::error::Error;

create_exception!(
    _engine,
    RowkeyLabError,
    PyException,
    "An error from the rowkey-lab engine: `.kind` (e.g. \"parse\", \"invalid\"), `.path` (a JSON path, column or argument), `.offset`, `.line`, `.column` (None where not known)."
);

/// The engine's error as a Python `RowkeyLabError` with its kind and location as attributes,
/// worded for Python ([`python_words`]).
pub(crate) fn py_error(py: Python<'_>, e: &Error) -> PyErr {
    let mut e = e.clone();
    e.message = python_words(&e.message);
    let err = RowkeyLabError::new_err(e.to_string());
    let v = err.value(py);
    let loc = &e.location;
    // Setting attributes on a fresh exception instance does not fail; if it did, the error
    // would still carry its message.
    let _ = v.setattr("kind", e.kind.name());
    let _ = v.setattr("reason", e.message.as_str());
    let _ = v.setattr("path", loc.path.as_deref());
    let _ = v.setattr("offset", loc.offset);
    let _ = v.setattr("line", loc.line);
    let _ = v.setattr("column", loc.column);
    err
}

/// The CLI's options an engine message may name, and the Python argument that says the same.
const FLAGS: &[(&str, &str)] = &[
    ("--records", "data"),
    ("--time", "time="),
    ("--nulls", "nulls="),
    ("--epoch", "epoch="),
    ("--regions", "regions="),
    ("--windows", "windows="),
];

/// An engine message in the words of the Python package: the rows are its `data` argument (not
/// a file the CLI reads), and an option of the CLI or npm (`--map f=COLUMN`, `--time`,
/// `nulls: skip`, ...) is the package's keyword argument (`map={"f": "COLUMN"}`, `time=`,
/// `nulls="skip"`). The engine's messages stay the CLI's and npm's; this is the one place the
/// package rewords them.
pub(crate) fn python_words(message: &str) -> String {
    let mut out = message
        .replace(" in the file (it has ", " in the data (it has ")
        .replace("`nulls: skip`", "nulls=\"skip\"")
        .replace("(--map)", "(map=)");
    // `--map FIELD=COLUMN`: the keyword argument's dict.
    while let Some(at) = out.find("--map ") {
        let rest = &out[at + "--map ".len()..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == ')')
            .unwrap_or(rest.len());
        let arg = match rest[..end].split_once('=') {
            Some((field, column)) => format!("map={{{field:?}: {column:?}}}"),
            None => "map=".to_string(),
        };
        out = format!("{}{arg}{}", &out[..at], &rest[end..]);
    }
    for (flag, arg) in FLAGS {
        out = out.replace(flag, arg);
    }
    out
}

/// An engine result as a Python result.
pub(crate) fn core<T>(py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
    r.map_err(|e| py_error(py, &e))
}

/// `f`, the engine's work, with the GIL released; a panic (a bug) comes back as the engine's
/// error, never as pyo3's `PanicException` (a `BaseException` that `except Exception` misses).
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> Result<T, Error> {
    py.detach(|| rowkey_lab::error::catch_bug(f))
}
