//! Partial analyses across the boundary: a chunk's first pass (`scan`), the chunks' passes
//! merged (`merge_scans`), a chunk's counts as versioned bytes (`partial`), and partials merged
//! into a partial or the report (`merge_partials`, `report_of_partials`). The engine checks
//! and merges (`rowkey_lab::analyze::partial_of_batches` and its siblings); this translates.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use rowkey_lab::analyze as engine;
use rowkey_lab::error::{Error, ErrorKind};
use rowkey_lab::rows::ScanSummary;

use crate::{
    analyze_options, batches, core, design, design_for, design_of, detached, report_text,
    rows_options, stream,
};

fn summary(py: Python<'_>, text: &str) -> PyResult<ScanSummary> {
    serde_json::from_str(text).map_err(|e| {
        crate::py_error(
            py,
            &Error::new(ErrorKind::IllegalArgument, format!("table: {e}")).at_path("table"),
        )
    })
}

fn json(py: Python<'_>, s: &ScanSummary) -> PyResult<String> {
    serde_json::to_string(s).map_err(|e| {
        crate::py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("the scan could not be written: {e}"),
            ),
        )
    })
}

/// `scan(design, source, rows)`: a chunk's first pass, `{rows, firstMs, lastMs, outOfOrder}`
/// as JSON text.
#[pyfunction]
#[pyo3(signature = (design_json, source, rows_json=None))]
fn scan(
    py: Python<'_>,
    design_json: &str,
    source: &Bound<'_, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<String> {
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    let s = core(
        py,
        detached(py, || engine::scan_batches(&doc, &rows, &batches)),
    )?;
    json(py, &s)
}

/// `merge_scans(scans)`: the chunks' first passes as the table's.
#[pyfunction]
fn merge_scans(py: Python<'_>, scans: Vec<String>) -> PyResult<String> {
    let mut all = ScanSummary::default();
    for s in &scans {
        all = all.merge(&summary(py, s)?);
    }
    json(py, &all)
}

/// A chunk's arguments read: the design, options, the table's scan and its rows as a stream.
struct Chunk {
    doc: rowkey_lab::design::DesignDocument,
    opts: engine::AnalyzeOptions,
    rows: rowkey_lab::rows::RowsOptions,
    table: ScanSummary,
    reader: crate::arrow::Checked,
    schema: arrow_schema::SchemaRef,
}

impl Chunk {
    fn new(
        py: Python<'_>,
        design_json: &str,
        source: &Bound<'_, PyAny>,
        table_json: &str,
        (options_json, rows_json): (Option<&str>, Option<&str>),
    ) -> PyResult<Chunk> {
        let table = summary(py, table_json)?;
        let reader = stream(py, source)?;
        let schema = reader.schema();
        let rows = rows_options(py, rows_json)?;
        Ok(Chunk {
            doc: design_for(py, design_json, &schema, &rows)?,
            opts: analyze_options(py, options_json)?,
            rows,
            table,
            schema,
            reader,
        })
    }
}

/// `partial(design, source, table, first_row, options, rows, recount)`: a chunk's counts as
/// bytes (`recount`: without exact row counts, for `report_of_partials_recounted`).
#[pyfunction]
#[pyo3(signature = (design_json, source, table_json, first_row, options_json=None, rows_json=None, recount=false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, each its own
fn partial<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    table_json: &str,
    first_row: u64,
    options_json: Option<&str>,
    rows_json: Option<&str>,
    recount: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = Chunk::new(
        py,
        design_json,
        source,
        table_json,
        (options_json, rows_json),
    )?;
    // Each batch read as it is counted, the GIL released: a Spark task's batches arrive from
    // its socket while the engine counts the ones before (and memory holds one batch).
    let counted = detached(py, || {
        engine::partial_of_stream(
            &c.doc,
            &c.opts,
            &c.rows,
            (&c.schema, c.reader),
            (&c.table, first_row),
            !recount,
        )
    });
    let bytes = core(py, counted)?;
    Ok(PyBytes::new(py, &bytes))
}

/// `partial_keys(design, source, table, first_row, options, rows)`: `partial`'s bytes for a
/// recount (no exact row counts) and every row's key with its u32 offsets, from one read of
/// the rows (`analyze_df`'s exact mode sends the keys on to Spark's `groupBy`).
#[pyfunction]
#[pyo3(signature = (design_json, source, table_json, first_row, options_json=None, rows_json=None))]
#[allow(clippy::type_complexity)] // the three byte strings Python unpacks
fn partial_keys<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    table_json: &str,
    first_row: u64,
    options_json: Option<&str>,
    rows_json: Option<&str>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let c = Chunk::new(
        py,
        design_json,
        source,
        table_json,
        (options_json, rows_json),
    )?;
    let counted = detached(py, || {
        engine::partial_and_keys_of_stream(
            &c.doc,
            &c.opts,
            &c.rows,
            (&c.schema, c.reader),
            (&c.table, first_row),
        )
    });
    let (part, keys, offsets) = core(py, counted)?;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    Ok((
        PyBytes::new(py, &part),
        PyBytes::new(py, &keys),
        PyBytes::new(py, &offsets),
    ))
}

/// The design to merge with: the one given, or none (the partials' own).
fn given(
    py: Python<'_>,
    design_json: Option<&str>,
) -> PyResult<Option<rowkey_lab::design::DesignDocument>> {
    design_json.map(|t| design(py, t)).transpose()
}

/// `merge_partials(parts, design)`: partials merged into one partial.
#[pyfunction]
#[pyo3(signature = (parts, design_json=None))]
fn merge_partials<'py>(
    py: Python<'py>,
    parts: Vec<Bound<'py, PyBytes>>,
    design_json: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let doc = given(py, design_json)?;
    let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
    let bytes = core(
        py,
        detached(py, || engine::merge_partials(doc.as_ref(), &parts)),
    )?;
    Ok(PyBytes::new(py, &bytes))
}

/// A report merged from `parts` as JSON text, with the read plans of `doc` (else the design
/// the partials carry).
fn merged_text(
    doc: Option<rowkey_lab::design::DesignDocument>,
    parts: &[&[u8]],
    a: engine::RowsAnalysis,
) -> Result<String, Error> {
    let doc = match doc {
        Some(d) => d,
        None => engine::partial_design(parts.first().copied().unwrap_or_default())?,
    };
    report_text(&doc, a.report, Some(&a.stats))
}

/// `report_of_partials(parts, design)`: the report over partials that count every row of the
/// table once, as JSON text (`analyze`'s).
#[pyfunction]
#[pyo3(signature = (parts, design_json=None))]
fn report_of_partials<'py>(
    py: Python<'py>,
    parts: Vec<Bound<'py, PyBytes>>,
    design_json: Option<&str>,
) -> PyResult<String> {
    let doc = given(py, design_json)?;
    let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
    core(
        py,
        detached(py, || {
            let a = engine::report_of_partials(doc.as_ref(), &parts)?;
            merged_text(doc, &parts, a)
        }),
    )
}

/// `recount(design, source)`: one group of distinct row keys recounted exactly (`source`: the
/// keys, then their writes as int64), as JSON text for `report_of_partials_recounted`.
#[pyfunction]
fn recount(py: Python<'_>, design_json: &str, source: &Bound<'_, PyAny>) -> PyResult<String> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let r = core(py, detached(py, || engine::recount_batches(&doc, &batches)))?;
    serde_json::to_string(&r).map_err(|e| {
        crate::py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("the recount could not be written: {e}"),
            ),
        )
    })
}

/// `check_recount(design)`: a `RowkeyLabError` when the design's rows cannot be recounted
/// (a `cells` section), before any work.
#[pyfunction]
fn check_recount(py: Python<'_>, design_json: &str) -> PyResult<()> {
    let doc = design(py, design_json)?;
    core(py, engine::check_recount(&doc))
}

/// `report_of_partials_recounted(parts, design, recounts)`: `report_of_partials` with the
/// largest rows and distinct rows of the recounts (every key of the table in one of them).
#[pyfunction]
#[pyo3(signature = (parts, recounts, design_json=None))]
fn report_of_partials_recounted<'py>(
    py: Python<'py>,
    parts: Vec<Bound<'py, PyBytes>>,
    recounts: Vec<String>,
    design_json: Option<&str>,
) -> PyResult<String> {
    let doc = given(py, design_json)?;
    let recounts = recounts
        .iter()
        .map(|t| {
            serde_json::from_str::<engine::RowRecount>(t).map_err(|e| {
                crate::py_error(
                    py,
                    &Error::new(ErrorKind::IllegalArgument, format!("recounts: {e}"))
                        .at_path("recounts"),
                )
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
    core(
        py,
        detached(py, || {
            let a = engine::report_of_partials_recounted(doc.as_ref(), &parts, recounts)?;
            merged_text(doc, &parts, a)
        }),
    )
}

/// Add the partial-analysis functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(merge_scans, m)?)?;
    m.add_function(wrap_pyfunction!(partial, m)?)?;
    m.add_function(wrap_pyfunction!(partial_keys, m)?)?;
    m.add_function(wrap_pyfunction!(merge_partials, m)?)?;
    m.add_function(wrap_pyfunction!(report_of_partials, m)?)?;
    m.add_function(wrap_pyfunction!(recount, m)?)?;
    m.add_function(wrap_pyfunction!(check_recount, m)?)?;
    m.add_function(wrap_pyfunction!(report_of_partials_recounted, m)?)?;
    Ok(())
}
