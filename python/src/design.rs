//! Design documents and options across the boundary: a design read from its JSON text (the
//! same reader as the page, the CLI and npm), the fields a design that is just a key reads
//! declared from the rows' columns, options read by the argument that names them.

use arrow_array::RecordBatch;
use pyo3::prelude::*;

use rowkey_lab::analyze::AnalyzeOptions;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::{Error, ErrorKind};
use rowkey_lab::rows::RowsOptions;

use crate::arrow::{capsule, SCHEMA};
use crate::errors::{core, py_error};

/// A design document from its JSON text (the same reader as the page, the CLI and npm).
pub(crate) fn design(py: Python<'_>, text: &str) -> PyResult<DesignDocument> {
    core(py, DesignDocument::from_json(text))
}

/// Options as JSON text (`None`: the defaults; the package writes them from its keyword
/// arguments), refused by name when they do not read: the keyword argument whose value does not
/// read (`nulls`, `epoch`, `windows`, ...; a member of `options={...}` as `options`), not the
/// JSON text the package wrote.
fn options<T: serde::de::DeserializeOwned + Default>(
    py: Python<'_>,
    name: &str,
    text: Option<&str>,
) -> PyResult<T> {
    let Some(t) = text else {
        return Ok(T::default());
    };
    serde_json::from_str(t).map_err(|e| {
        // The first member that does not read on its own names the argument.
        let members = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(t);
        let bad = members.ok().and_then(|m| {
            m.into_iter().find_map(|(k, v)| {
                let one = serde_json::Value::Object([(k.clone(), v)].into_iter().collect());
                serde_json::from_value::<T>(one).err().map(|e| (k, e))
            })
        });
        let (path, why) = match bad {
            Some((k, e)) => {
                let keyword = matches!(
                    (name, k.as_str()),
                    ("rows", "time" | "map" | "nulls" | "epoch") | ("options", "windows")
                );
                // the engine's reader names the member's path first: the argument names it here
                let why = e.to_string();
                let why = why
                    .strip_prefix(&format!("/{k}: "))
                    .map_or(why.clone(), str::to_string);
                (if keyword { k } else { name.to_string() }, why)
            }
            None => (name.to_string(), e.to_string()),
        };
        py_error(py, &Error::arg(&path, why))
    })
}

pub(crate) fn analyze_options(py: Python<'_>, text: Option<&str>) -> PyResult<AnalyzeOptions> {
    options(py, "options", text)
}

/// The rows options; the rows are named `data` in messages, the package's argument (the engine
/// names them by their file, `rows` without one).
pub(crate) fn rows_options(py: Python<'_>, text: Option<&str>) -> PyResult<RowsOptions> {
    let mut rows: RowsOptions = options(py, "rows", text)?;
    rows.name.get_or_insert_with(|| "data".into());
    Ok(rows)
}

/// `check_design(text)`: for a design that is just a key (no fields), the fields its key reads:
/// it is read, and validated once rows declare them, as the CLI and npm take it. Any other
/// design is validated here (a key that reads a field the design does not declare is refused
/// at that field: a typo, most likely; `Design.from_rows` declares such fields from a table),
/// and none are listed. A `RowkeyLabError` at its JSON path when it does not read.
#[pyfunction]
pub(crate) fn check_design(py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
    let doc = core(py, DesignDocument::from_json_unchecked(text))?;
    if doc.fields.is_empty() {
        let undeclared = doc.undeclared_key_fields();
        if !undeclared.is_empty() {
            return Ok(undeclared);
        }
    }
    core(py, doc.validate_in(text))?;
    Ok(Vec::new())
}

/// The design to read rows of `schema` with: a design that is just a key (no fields, as
/// `check_design` lets through) has the fields its key reads declared from the columns first
/// (`Design.from_rows`'s rule, `analyze --records`'s), then every design is validated.
pub(crate) fn design_for(
    py: Python<'_>,
    text: &str,
    schema: &arrow_schema::Schema,
    rows: &RowsOptions,
) -> PyResult<DesignDocument> {
    let doc = core(py, DesignDocument::from_json_unchecked(text))?;
    let doc = if !doc.fields.is_empty() || doc.undeclared_key_fields().is_empty() {
        doc
    } else {
        let sample = rowkey_lab::rows::FileSample::Schema(schema);
        core(py, rowkey_lab::rows::declare_from_file(doc, rows, sample))?.0
    };
    core(py, doc.validate_in(text))?;
    Ok(doc)
}

/// [`design_for`] the schema of `batches` (never empty: [`batches`] gives one batch at least).
pub(crate) fn design_of(
    py: Python<'_>,
    text: &str,
    batches: &[RecordBatch],
    rows: &RowsOptions,
) -> PyResult<DesignDocument> {
    match batches.first() {
        Some(b) => design_for(py, text, &b.schema(), rows),
        None => design(py, text),
    }
}

/// An Arrow schema from an object with `__arrow_c_schema__` (a pyarrow Schema), an error at
/// `name` otherwise.
pub(crate) fn schema_arg(
    py: Python<'_>,
    name: &str,
    schema: &Bound<'_, PyAny>,
) -> PyResult<arrow_schema::Schema> {
    let bad = |what: String| py_error(py, &Error::arg(name, what));
    let (_capsule, ptr) = capsule(
        py,
        schema,
        name,
        "__arrow_c_schema__",
        SCHEMA,
        "an Arrow schema (an object with __arrow_c_schema__: a pyarrow Schema, or the table's .schema)",
    )?;
    // SAFETY: the capsule is named "arrow_schema", so by the Arrow PyCapsule interface it
    // holds an `ArrowSchema` the capsule keeps alive; it is only read here (the capsule still
    // owns and releases it).
    let ffi = unsafe { &*ptr.as_ptr().cast::<arrow_schema::ffi::FFI_ArrowSchema>() };
    arrow_schema::Schema::try_from(ffi)
        .map_err(|e| bad(format!("not a readable Arrow schema: {e}")))
}

/// `declare_fields(design, schema, rows)`: `(design, inferred)` as JSON texts, the design (a
/// document that may be just a key) with every field its key names and does not declare
/// declared from `schema`'s columns (an object with `__arrow_c_schema__`, e.g. a pyarrow
/// Schema), as `analyze --records` declares them from a Parquet or Arrow file; validated.
#[pyfunction]
#[pyo3(signature = (design_json, schema, rows_json=None))]
pub(crate) fn declare_fields(
    py: Python<'_>,
    design_json: &str,
    schema: &Bound<'_, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(String, String)> {
    let schema = schema_arg(py, "schema", schema)?;
    let rows = rows_options(py, rows_json)?;
    let doc = core(py, DesignDocument::from_json_unchecked(design_json))?;
    let (doc, inferred) = core(
        py,
        rowkey_lab::rows::declare_from_file(
            doc,
            &rows,
            rowkey_lab::rows::FileSample::Schema(&schema),
        ),
    )?;
    core(py, doc.validate_in(design_json))?;
    let text = |v: serde_json::Result<String>| {
        v.map_err(|e| {
            py_error(
                py,
                &Error::new(
                    ErrorKind::IllegalState,
                    format!("could not be written: {e}"),
                ),
            )
        })
    };
    Ok((
        text(serde_json::to_string(&doc))?,
        text(serde_json::to_string(&inferred))?,
    ))
}

/// `parse_create_table(sql)`: the design of a Phoenix `CREATE TABLE` statement, as JSON text.
#[pyfunction]
pub(crate) fn parse_create_table(py: Python<'_>, sql: &str) -> PyResult<String> {
    let doc = core(py, rowkey_lab::design::phoenix::parse_create_table(sql))?;
    serde_json::to_string(&doc).map_err(|e| {
        py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("the design could not be written: {e}"),
            ),
        )
    })
}

/// `value` as JSON text (an engine answer; a failure is the engine's, not the caller's).
fn json_text<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| {
        py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("the answer could not be written: {e}"),
            ),
        )
    })
}

/// `analyze_indexes(design, options)`: each Phoenix index of the design analyzed as the table
/// it is over the design's generated workload (the engine's `analyze`, whose report carries
/// them, as `rowkey-lab analyze` shows them), as JSON text: `[]` without indexes.
#[pyfunction]
#[pyo3(signature = (design_json, options=None))]
pub(crate) fn analyze_indexes(
    py: Python<'_>,
    design_json: &str,
    options: Option<&str>,
) -> PyResult<String> {
    let doc = design(py, design_json)?;
    let opts = analyze_options(py, options)?;
    let report = core(
        py,
        crate::errors::detached(py, || rowkey_lab::analyze::analyze(&doc, &opts)),
    )?;
    json_text(py, &report.indexes)
}

/// `advise(design, options)`: the design advisor's answer (the engine's `advise`: candidates
/// evaluated on every core, the recommendation, the capacity figures, each hot Phoenix index
/// with its checked fixes), as JSON text, as `rowkey-lab advise --json` prints it.
#[pyfunction]
#[pyo3(signature = (design_json, options=None))]
pub(crate) fn advise(py: Python<'_>, design_json: &str, options: Option<&str>) -> PyResult<String> {
    let doc = design(py, design_json)?;
    let opts: rowkey_lab::advise::AdviseOptions = self::options(py, "options", options)?;
    let answer = core(
        py,
        crate::errors::detached(py, || rowkey_lab::advise::advise(&doc, &opts)),
    )?;
    json_text(py, &answer)
}

/// `index_tables(design)`: each Phoenix index's `CREATE INDEX` and a global index's initial
/// split keys (hex), as JSON text.
#[pyfunction]
pub(crate) fn index_tables(py: Python<'_>, design_json: &str) -> PyResult<String> {
    let doc = design(py, design_json)?;
    json_text(py, &core(py, rowkey_lab::analyze::index_tables(&doc))?)
}

/// `plan_index_reads(design)`: each read of the design through the table Phoenix would pick
/// among the data table (on its pre-split) and its indexes, as JSON text.
#[pyfunction]
pub(crate) fn plan_index_reads(py: Python<'_>, design_json: &str) -> PyResult<String> {
    let doc = design(py, design_json)?;
    let plans = core(
        py,
        crate::errors::detached(py, || {
            let keys = rowkey_lab::analyze::initial_split_keys(&doc)?;
            rowkey_lab::analyze::plan_reads_through_indexes(&doc, &keys)
        }),
    )?;
    json_text(py, &plans)
}

/// This module's functions on the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(advise, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_indexes, m)?)?;
    m.add_function(wrap_pyfunction!(index_tables, m)?)?;
    m.add_function(wrap_pyfunction!(plan_index_reads, m)?)?;
    m.add_function(wrap_pyfunction!(check_design, m)?)?;
    m.add_function(wrap_pyfunction!(declare_fields, m)?)?;
    m.add_function(wrap_pyfunction!(parse_create_table, m)?)?;
    Ok(())
}
