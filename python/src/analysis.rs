//! Analyses across the boundary: a design's report over the rows (the engine's two-pass
//! `RowsSession`), as `analyze --records --json` prints it, and months of a table's life.

use pyo3::prelude::*;

use arrow_array::RecordBatch;
use rowkey_lab::analyze::{self as engine, RowsSession};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::{Error, ErrorKind};
use rowkey_lab::life::{LifeBudgets, LifeOptions};
use rowkey_lab::rows::RowStats;

use crate::arrow::{stream, Checked};
use crate::design::{analyze_options, design_for, rows_options};
use crate::errors::{core, detached, py_error};

/// `analyze(design, source, options, rows, reread)`: the report as JSON text, as `analyze
/// --records --json` prints it (the report, the read plans over the regions analyzed, what
/// reading found). The batches go through the engine's two-pass [`RowsSession`] one at a time.
/// When the first pass keeps the rows (each key, up to the engine's `MAX_REPLAY_BYTES`) the
/// analysis counts them from memory; else the second pass reads `source` again when `reread`
/// (a Table: its stream taken twice), or the batches the first pass held (a stream read once,
/// such as a RecordBatchReader, is held for that).
#[pyfunction]
#[pyo3(signature = (design_json, source, options_json=None, rows_json=None, reread=false))]
fn analyze(
    py: Python<'_>,
    design_json: &str,
    source: &Bound<'_, PyAny>,
    options_json: Option<&str>,
    rows_json: Option<&str>,
    reread: bool,
) -> PyResult<String> {
    let opts = analyze_options(py, options_json)?;
    let rows = rows_options(py, rows_json)?;
    let reader = stream(py, source)?;
    let doc = design_for(py, design_json, &reader.schema(), &rows)?;
    let source = source.clone().unbind();
    let run = move || -> Result<PyResult<String>, Error> {
        let mut session = RowsSession::new(doc, opts, rows)?;
        let (analyzed, held) = pass(&mut session, reader, !reread)?;
        if !analyzed {
            // a stream read once is analyzed from the batches its first pass held
            let again = match reread {
                true => match Python::attach(|py| stream(py, source.bind(py))) {
                    Ok(r) => Some(r),
                    Err(e) => return Ok(Err(e)),
                },
                false => None,
            };
            again_pass(&mut session, again, held)?;
        }
        let stats = session.end()?;
        finish(&session, &stats).map(Ok)
    };
    core(py, detached(py, run))?
}

/// `analyze_file(design, path, options, rows)`: [`analyze`] over a file the engine reads
/// itself, twice when it must (CSV, JSON Lines, Parquet by row group, Arrow IPC: the CLI's
/// `analyze --records` formats and rules); memory holds a piece of the file at a time.
#[pyfunction]
#[pyo3(signature = (design_json, path, options_json=None, rows_json=None))]
fn analyze_file(
    py: Python<'_>,
    design_json: &str,
    path: std::path::PathBuf,
    options_json: Option<&str>,
    rows_json: Option<&str>,
) -> PyResult<String> {
    let opts = analyze_options(py, options_json)?;
    let mut rows = rows_options(py, rows_json)?;
    let (doc, mut file, len) = open_rows_file(py, design_json, &path, &mut rows)?;
    core(
        py,
        detached(py, || {
            let mut session = RowsSession::new(doc, opts, rows)?;
            let stats = session.analyze_file(&mut file, len)?;
            finish(&session, &stats)
        }),
    )
}

/// A file of rows the engine reads itself, opened, with the design fitted to it (its key's
/// undeclared fields declared from the file) and checked: the design, the file and its length.
/// `rows.name` becomes the file's name (its format by extension, and messages).
pub(crate) fn open_rows_file(
    py: Python<'_>,
    design_json: &str,
    path: &std::path::Path,
    rows: &mut rowkey_lab::rows::RowsOptions,
) -> PyResult<(DesignDocument, std::fs::File, u64)> {
    rows.name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let io =
        |e: std::io::Error| py_error(py, &Error::arg("data", format!("{}: {e}", path.display())));
    let mut file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let doc = core(py, DesignDocument::from_json_unchecked(design_json))?;
    let doc = core(py, engine::design_for_file(doc, rows, &mut file, len))?;
    core(py, doc.validate_in(design_json))?;
    Ok((doc, file, len))
}

/// The first pass over a stream's batches (an empty stream: one empty batch of its schema, so
/// column errors name the columns): whether the rows were analyzed from memory, and the
/// batches when `hold` (a stream that cannot be read again), up to
/// [`MAX_HELD_STREAM_BYTES`](rowkey_lab::limits::MAX_HELD_STREAM_BYTES): past it none (`None`).
fn pass(
    session: &mut RowsSession,
    reader: Checked,
    hold: bool,
) -> Result<(bool, Option<Vec<RecordBatch>>), Error> {
    let schema = reader.schema();
    let mut held = hold.then(Vec::new);
    let mut bytes = 0u64;
    for b in reader {
        let b = b?;
        session.push_batch(&b)?;
        bytes = bytes.saturating_add(b.get_array_memory_size() as u64);
        if bytes > rowkey_lab::limits::MAX_HELD_STREAM_BYTES {
            held = None;
        }
        if let Some(h) = held.as_mut() {
            h.push(b);
        }
    }
    if session.done() == 0 {
        session.push_batch(&RecordBatch::new_empty(schema))?;
    }
    Ok((session.end_scan()?.analyzed, held))
}

/// The analysis pass: the stream read again, or the batches held; neither, an error saying
/// what to give instead.
fn again_pass(
    session: &mut RowsSession,
    again: Option<Checked>,
    held: Option<Vec<RecordBatch>>,
) -> Result<(), Error> {
    match (again, held) {
        (Some(reader), _) => reader
            .into_iter()
            .try_for_each(|b| session.push_batch(&b?).map(drop)),
        (None, Some(held)) => held.iter().try_for_each(|b| session.push_batch(b).map(drop)),
        (None, None) => Err(Error::new(
            ErrorKind::Limit,
            format!(
                "the rows passed the {} MiB of keys the first pass keeps, so they are read twice, and this stream can be read once and passed the {} GiB held for that (limits::MAX_HELD_STREAM_BYTES): give a pyarrow Table or a file path, which are read again",
                rowkey_lab::limits::MAX_REPLAY_BYTES >> 20,
                rowkey_lab::limits::MAX_HELD_STREAM_BYTES >> 30
            ),
        )
        .at_path("data")),
    }
}

/// The session's report as JSON text ([`report_text`]) after its passes, with what reading
/// found (`end()`'s).
fn finish(session: &RowsSession, stats: &RowStats) -> Result<String, Error> {
    report_text(session.design(), session.report()?, Some(stats))
}

/// A report as the CLI's `--json` prints it: the report, `reads` and `readsError` (the read
/// plans over the regions the run ended with, the engine's `reads_over`, as the page and the
/// CLI show them; `indexReads` for a Phoenix design with indexes and reads) and `rows` (what
/// reading found).
pub(crate) fn report_text(
    doc: &DesignDocument,
    report: engine::AnalysisReport,
    stats: Option<&rowkey_lab::rows::RowStats>,
) -> Result<String, Error> {
    let over = engine::reads_over(doc, &report);
    let write = |e: serde_json::Error| {
        Error::new(
            ErrorKind::IllegalState,
            format!("the report could not be written: {e}"),
        )
    };
    let mut v = serde_json::to_value(&report).map_err(write)?;
    if let Some(obj) = v.as_object_mut() {
        // the reads beside it, as the CLI's --json has them (`indexReads` too for a Phoenix
        // design with indexes and reads): the engine's one answer, merged in whole
        if let serde_json::Value::Object(beside) = serde_json::to_value(&over).map_err(write)? {
            obj.extend(beside);
        }
        if let Some(s) = stats {
            obj.insert("rows".into(), serde_json::to_value(s).map_err(write)?);
        }
    }
    serde_json::to_string(&v).map_err(write)
}

/// `life(design, options)`: months of the design's table under HBase's rules, as JSON text
/// (`rowkey-lab life --json`'s report); `options` are `LifeOptions` as JSON text.
#[pyfunction]
#[pyo3(signature = (design_json, options_json=None))]
fn life(py: Python<'_>, design_json: &str, options_json: Option<&str>) -> PyResult<String> {
    let doc = core(py, DesignDocument::from_json(design_json))?;
    let options = life_options(py, "options", options_json)?;
    let report = core(
        py,
        py.detach(|| rowkey_lab::life::simulate_design(&doc, &options)),
    )?;
    json_out(py, &report)
}

/// `life_rows(design, source, options, rows, budgets)`: [`life`] with the table's writes from a
/// user's rows (a path the engine reads itself, or Arrow data), their keys in write order: one
/// pass of the engine's [`RowsSession`] with `keep_write_sample`, then the months; with
/// `budgets`, [`check_life`]'s verdict on them instead.
#[pyfunction]
#[pyo3(signature = (design_json, source, options_json=None, rows_json=None, budgets_json=None))]
fn life_rows(
    py: Python<'_>,
    design_json: &str,
    source: &Bound<'_, PyAny>,
    options_json: Option<&str>,
    rows_json: Option<&str>,
    budgets_json: Option<&str>,
) -> PyResult<String> {
    let options = life_options(py, "options", options_json)?;
    let budgets = match budgets_json {
        Some(_) => Some(life_budgets(py, budgets_json)?),
        None => None,
    };
    let mut rows = rows_options(py, rows_json)?;
    let path: Option<std::path::PathBuf> = source.extract().ok();
    let view = match path {
        Some(path) => {
            let (doc, mut file, len) = open_rows_file(py, design_json, &path, &mut rows)?;
            core(
                py,
                detached(py, move || {
                    let mut session = scan_session(doc, rows)?;
                    session.read_file(&mut file, len)?;
                    session.end_scan()?;
                    months_of_session(&session, &options, budgets.as_ref())
                }),
            )?
        }
        None => {
            let reader = stream(py, source)?;
            let doc = design_for(py, design_json, &reader.schema(), &rows)?;
            core(
                py,
                detached(py, move || {
                    let mut session = scan_session(doc, rows)?;
                    pass(&mut session, reader, false)?;
                    months_of_session(&session, &options, budgets.as_ref())
                }),
            )?
        }
    };
    Ok(view)
}

/// The months of a session's design with the writes from its rows, as JSON text: the report,
/// or with `budgets` the verdict on it.
fn months_of_session(
    session: &RowsSession,
    options: &LifeOptions,
    budgets: Option<&LifeBudgets>,
) -> Result<String, Error> {
    let writes = rowkey_lab::life::Writes::of_session(session)?;
    let text = match budgets {
        Some(b) => serde_json::to_string(&rowkey_lab::life::check_writes(
            session.design(),
            writes,
            options,
            b,
        )?),
        None => serde_json::to_string(
            &rowkey_lab::life::months_of_writes(session.design(), writes, options, &mut |_, _| {
                Ok(())
            })?
            .report,
        ),
    };
    text.map_err(|e| {
        Error::new(
            ErrorKind::IllegalState,
            format!("could not be written: {e}"),
        )
    })
}

/// A session whose first pass keeps the keys in write order (for months of life) and no rows.
fn scan_session(
    doc: DesignDocument,
    rows: rowkey_lab::rows::RowsOptions,
) -> Result<RowsSession, Error> {
    let mut session = RowsSession::new(doc, engine::AnalyzeOptions::default(), rows)?;
    session.keep_write_sample()?;
    Ok(session)
}

/// JSON text of an argument (`name` in messages); absent: null.
fn json_arg(py: Python<'_>, name: &str, text: Option<&str>) -> PyResult<serde_json::Value> {
    match text {
        Some(t) => serde_json::from_str(t)
            .map_err(|e| py_error(py, &Error::arg(name, format!("not JSON: {e}")))),
        None => Ok(serde_json::Value::Null),
    }
}

/// A run's options: JSON text (`json_arg`'s checks), read by the engine's reader (an error at
/// the member, `/months`).
fn life_options(py: Python<'_>, name: &str, text: Option<&str>) -> PyResult<LifeOptions> {
    let v = json_arg(py, name, text)?;
    core(py, LifeOptions::from_json(&v.to_string()))
}

/// The gate's budgets: JSON text (`json_arg`'s checks), read by the engine's reader.
fn life_budgets(py: Python<'_>, text: Option<&str>) -> PyResult<LifeBudgets> {
    let v = json_arg(py, "budgets", text)?;
    core(py, LifeBudgets::from_json(&v.to_string()))
}

/// An engine answer as JSON text.
fn json_out<T: serde::Serialize>(py: Python<'_>, v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| {
        py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("could not be written: {e}"),
            ),
        )
    })
}

/// `life_compare(design, options, other_options)`: the design's table under two settings and
/// the engine's comparison (`lifeCompare`'s `{a, b, figures, verdict}`), as JSON text.
#[pyfunction]
#[pyo3(signature = (design_json, options_json=None, other_options_json=None))]
fn life_compare(
    py: Python<'_>,
    design_json: &str,
    options_json: Option<&str>,
    other_options_json: Option<&str>,
) -> PyResult<String> {
    let doc = core(py, DesignDocument::from_json(design_json))?;
    // (a member's error led by the argument, `otherOptions/months`, as the comparison names
    // its own)
    let named = |name: &'static str, arg: &str, text: Option<&str>| -> PyResult<LifeOptions> {
        let v = json_arg(py, arg, text)?;
        core(
            py,
            LifeOptions::from_json(&v.to_string())
                .map_err(rowkey_lab::life::read::in_argument(name)),
        )
    };
    let a = named("options", "options", options_json)?;
    let b = named("otherOptions", "other_options", other_options_json)?;
    let c = core(
        py,
        py.detach(|| rowkey_lab::life::compare_design(&doc, &a, &b, &mut |_, _| Ok(()))),
    )?;
    json_out(py, &c)
}

/// `check_life(design, options, budgets)`: the design's months against `budgets`
/// (`maxEmptyRegions`, `maxRegionsPerServer`), as `rowkey-lab check --max-empty-regions …`
/// judges them (`checkLife`'s `{ok, months, emptyRegions, regionsPerServer, breaches}`).
#[pyfunction]
#[pyo3(signature = (design_json, options_json=None, budgets_json=None))]
fn check_life(
    py: Python<'_>,
    design_json: &str,
    options_json: Option<&str>,
    budgets_json: Option<&str>,
) -> PyResult<String> {
    let doc = core(py, DesignDocument::from_json(design_json))?;
    let options = life_options(py, "options", options_json)?;
    let budgets = life_budgets(py, budgets_json)?;
    let c = core(
        py,
        py.detach(|| rowkey_lab::life::check_design(&doc, &options, &budgets)),
    )?;
    json_out(py, &c)
}

/// This module's functions on the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_file, m)?)?;
    m.add_function(wrap_pyfunction!(life, m)?)?;
    m.add_function(wrap_pyfunction!(life_rows, m)?)?;
    m.add_function(wrap_pyfunction!(life_compare, m)?)?;
    m.add_function(wrap_pyfunction!(check_life, m)?)?;
    Ok(())
}
