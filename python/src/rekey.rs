//! The rekey plan across the boundary: `rk.rekey` analyzes both designs on the rows (the
//! package's `analyze`, a Spark DataFrame's `analyze_df`) and hands the two reports here; the
//! plan is the engine's (`rowkey_lab::rekey`), as the CLI's `rekey` prints it. And its
//! verification in pieces (`rowkey_lab.spark.verify_df`): each partition's rows counted, or
//! held, by the engine's `Verifier` into a partial; the partials merged on the driver. And the
//! plan from a live table's snapshots alone (`rk.rekey_from_series`): the series read by the
//! engine's `read_series` (`rk.read_series`), the plan its `rekey_from_series`, as the CLI's
//! `rekey --series` gives it.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rowkey_lab::analyze as engine;
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::Error;
use rowkey_lab::region::series::{read_series_owned, RegionSeries};
use rowkey_lab::rekey::verify::{ExportSample, Side, Verifier, VerifyColumns, VerifyOptions};
use rowkey_lab::rekey::RekeyOptions;
use rowkey_lab::rekey::{
    rekey_plan_from, rekey_rows as rekey_rows_with, FileRows, RekeyRows, ReportFigures, RowsInto,
};
use rowkey_lab::rows::{FileSample, OwnedSample, RowsOptions};

use crate::design::schema_arg;
use crate::{core, design, design_for, detached, py_error, rows_options, stream};

/// `rekey_plan(old, new, old_report, new_report, options)`: JSON texts in, the plan's JSON out.
#[pyfunction]
#[pyo3(signature = (old_json, new_json, old_report, new_report, options_json=None))]
fn rekey_plan(
    py: Python<'_>,
    old_json: &str,
    new_json: &str,
    old_report: &str,
    new_report: &str,
    options_json: Option<&str>,
) -> PyResult<String> {
    let figures = |name: &str, text: &str| -> Result<ReportFigures, Error> {
        let v = serde_json::from_str(text)
            .map_err(|e| Error::arg(name, format!("not an analysis report ({e})")))?;
        ReportFigures::read(name, &v)
    };
    let old = design_at(py, "old", old_json)?;
    let new = design_at(py, "new", new_json)?;
    core(
        py,
        (|| {
            let plan = rekey_plan_from(
                &old,
                &new,
                &figures("old_report", old_report)?,
                &figures("new_report", new_report)?,
                &rekey_options(options_json)?,
            )?;
            serde_json::to_string(&plan).map_err(|e| Error::arg("plan", e.to_string()))
        })(),
    )
}

/// `rekey_rows(old, new, data, cut, rows, options)`: the plan over the rows as JSON text, the
/// engine's one composition (`rowkey_lab::rekey::rekey_rows`: the new design cut at the
/// rows, both designs over one reading where they can share it, the plan with `splitKeysExact`),
/// as `rekey --records --json` prints it. `data`: a file's path, which the engine reads itself,
/// or Arrow data whose stream can be taken again for a second pass (a Table: the package
/// copies a stream read once to a file first).
#[pyfunction]
#[pyo3(signature = (old_json, new_json, data, cut_json=None, rows_json=None, options_json=None))]
fn rekey_rows(
    py: Python<'_>,
    old_json: &str,
    new_json: &str,
    data: &Bound<'_, PyAny>,
    cut_json: Option<&str>,
    rows_json: Option<&str>,
    options_json: Option<&str>,
) -> PyResult<String> {
    let cut = core(py, rowkey_lab::calls::rows_cut(cut_json))?;
    let rows = rows_options(py, rows_json)?;
    let opts = core(py, rekey_options(options_json))?;
    let doc = |name: &str, text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| py_error(py, &Error::arg(name, format!("{name}: not JSON ({e})"))))
    };
    let (old, new) = (doc("old", old_json)?, doc("new", new_json)?);
    let analyze = engine::AnalyzeOptions::default();
    let plan = |input: &mut dyn RekeyRows, rows: &RowsOptions| {
        let plan = rekey_rows_with(&old, &new, &cut, input, &analyze, rows, &opts)?;
        rowkey_lab::calls::to_json(&plan)
    };
    if data.is_instance_of::<pyo3::types::PyString>() || data.hasattr("__fspath__")? {
        let path: std::path::PathBuf = data.extract()?;
        let mut input = core(py, FileRows::open(&path, rows))?;
        let rows = input.rows.clone();
        return core(py, detached(py, || plan(&mut input, &rows)));
    }
    let first = stream(py, data)?;
    let mut input = StreamRows {
        schema: first.schema(),
        first: Some(first),
        source: data.clone().unbind(),
        rows: rows.clone(),
    };
    core(py, detached(py, || plan(&mut input, &rows)))
}

/// `cut_at_rows(doc, cut)`: the document with the pre-split that cuts its table at the rows
/// (the engine's rule; `splits --records`), JSON text in and out.
#[pyfunction]
#[pyo3(signature = (doc_json, cut_json=None))]
fn cut_at_rows(py: Python<'_>, doc_json: &str, cut_json: Option<&str>) -> PyResult<String> {
    core(py, rowkey_lab::calls::cut_at_rows(doc_json, cut_json))
}

/// `rekey_rows_plan(old_side, new_side, options)`: the plan over the rows from what a reading
/// found under each design (`{design, report, stats, splitKeysExact}`: a Spark DataFrame's
/// `analyze_df`), JSON text in and out.
#[pyfunction]
#[pyo3(signature = (old_side, new_side, options_json=None))]
fn rekey_rows_plan(
    py: Python<'_>,
    old_side: &str,
    new_side: &str,
    options_json: Option<&str>,
) -> PyResult<String> {
    core(
        py,
        detached(py, || {
            rowkey_lab::calls::rekey_rows_plan(old_side, new_side, options_json)
        }),
    )
}

/// Arrow data a rekey plan reads as many times as it needs: the stream taken at the call
/// first, then taken again from `source` (a Table's stream gives the same rows each time).
struct StreamRows {
    schema: arrow_schema::SchemaRef,
    first: Option<crate::arrow::Checked>,
    source: Py<PyAny>,
    rows: rowkey_lab::rows::RowsOptions,
}

impl RekeyRows for StreamRows {
    fn fit(&mut self, doc: DesignDocument) -> Result<DesignDocument, Error> {
        if !doc.fields.is_empty() || doc.undeclared_key_fields().is_empty() {
            return Ok(doc);
        }
        let sample = rowkey_lab::rows::FileSample::Schema(self.schema.as_ref());
        Ok(rowkey_lab::rows::declare_from_file(doc, &self.rows, sample)?.0)
    }

    fn pass(&mut self, into: &mut dyn RowsInto) -> Result<(), Error> {
        let reader = match self.first.take() {
            Some(r) => r,
            None => Python::attach(|py| {
                stream(py, self.source.bind(py)).map_err(|e| {
                    Error::arg(
                        "data",
                        format!("data: its rows could not be read again: {e}"),
                    )
                })
            })?,
        };
        for b in reader {
            into.push_batch(&b?)?;
        }
        if into.done() == 0 {
            // an empty stream: one empty batch of its schema, so column errors name the columns
            into.push_batch(&arrow_array::RecordBatch::new_empty(self.schema.clone()))?;
        }
        Ok(())
    }
}

/// `verify_partial(new, side, source, rows, buckets)`: one piece of one side's rows (`"old"` or
/// `"new"`), read through the verifier's design batch by batch, as a partial: counted, or with
/// `buckets` (the round `verify_driven` asks a read of) the rows of those buckets held.
#[pyfunction]
#[pyo3(signature = (new_json, side, source, rows_json=None, buckets=None))]
fn verify_partial<'py>(
    py: Python<'py>,
    new_json: &str,
    side: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
    buckets: Option<Vec<u32>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let side = match side {
        "old" => Side::Old,
        "new" => Side::New,
        _ => {
            return Err(py_error(
                py,
                &Error::arg(
                    "side",
                    format!("side: expected \"old\" or \"new\", not {side:?}"),
                ),
            ))
        }
    };
    let rows = rows_options(py, rows_json)?;
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let new = design_for(py, new_json, &schema, &rows)?;
    let out = core(
        py,
        detached(py, || {
            let mut v = Verifier::new(&new)?;
            if let Some(b) = &buckets {
                v.hold_in(b)?;
            }
            feed_stream(&mut v, side, &rows, (&schema, reader))?;
            v.partial()
        }),
    )?;
    Ok(PyBytes::new(py, &out))
}

/// `verify_driven(new, read, columns, max_held)`: a verification whose reads a driver makes
/// in pieces (Spark's jobs): the engine's plan of reads (`Verifier::next_read`) walked here,
/// `read(side, buckets)` called for each (`"old"` or `"new"`; `buckets` None: count, else the
/// round's buckets to hold) and answering its pieces' partials (`verify_partial`), merged as
/// they come; the comparison as JSON text (`rowkey-lab verify --json`'s). `columns`: the JSON
/// `verify_design` gave; `max_held`: the bytes of rows a round may hold (at most, and by
/// default, 256 MiB).
#[pyfunction]
#[pyo3(signature = (new_json, read, columns_json=None, max_held=None))]
fn verify_driven(
    py: Python<'_>,
    new_json: &str,
    read: &Bound<'_, PyAny>,
    columns_json: Option<&str>,
    max_held: Option<usize>,
) -> PyResult<String> {
    let new = design(py, new_json)?;
    let columns: VerifyColumns = match columns_json {
        None => VerifyColumns::default(),
        Some(t) => core(
            py,
            serde_json::from_str(t).map_err(|e| {
                Error::arg(
                    "columns",
                    format!("columns: not what verify_design gives ({e})"),
                )
            }),
        )?,
    };
    let mut v = core(py, Verifier::new(&new))?.with_columns(columns);
    if let Some(m) = max_held {
        v.hold_at_most(m);
    }
    while let Some(step) = core(py, v.next_read())? {
        let side = match step.side {
            Side::Old => "old",
            Side::New => "new",
        };
        let parts: Vec<Vec<u8>> = read.call1((side, step.buckets))?.extract()?;
        core(
            py,
            detached(py, || parts.iter().try_for_each(|p| v.merge(p))),
        )?;
    }
    core(
        py,
        serde_json::to_string(&v.finish()).map_err(|e| Error::arg("report", e.to_string())),
    )
}

/// One read of one export (`Verifier::next_read`'s): counted, or the rows of the round's
/// buckets held.
fn read_side(py: Python<'_>, v: &mut Verifier, side: Side, input: &mut Input<'_>) -> PyResult<()> {
    match input {
        Input::File(file, len, rows) => {
            let len = *len;
            core(
                py,
                detached(py, || {
                    let mut x = rowkey_lab::rekey::verify::Export { rows, file, len };
                    v.read_file(side, &mut x)
                }),
            )
        }
        Input::Arrow(source, rows) => {
            let reader = stream(py, source)?;
            let schema = reader.schema();
            core(
                py,
                detached(py, || feed_stream(v, side, rows, (&schema, reader))),
            )
        }
    }
}

/// A stream's batches to `v`'s pass under way, each read through the verifier's design with
/// its rows' digests and dropped before the next.
fn feed_stream(
    v: &mut Verifier,
    side: Side,
    rows: &rowkey_lab::rows::RowsOptions,
    (schema, reader): (&arrow_schema::SchemaRef, crate::arrow::Checked),
) -> Result<(), Error> {
    let doc = v.design().clone();
    for batch in reader {
        let one = std::iter::once(batch);
        let (keys, offsets, _) = engine::encode_stream_with_digests(&doc, rows, (schema, one))?;
        v.feed(side, &keys, &offsets)?;
    }
    Ok(())
}

/// One table's export for `verify`: a file the engine reads itself, or Arrow data (taken
/// once a pass: a table, which gives its rows again).
enum Input<'py> {
    File(std::fs::File, u64, rowkey_lab::rows::RowsOptions),
    Arrow(Bound<'py, PyAny>, rowkey_lab::rows::RowsOptions),
}

/// The engine's `VerifyOptions` (`{ignore, columns}`) from JSON text; none: every column.
fn verify_options(text: Option<&str>) -> Result<VerifyOptions, Error> {
    match text {
        None => Ok(VerifyOptions::default()),
        Some(t) => serde_json::from_str(t).map_err(|e| Error::arg("options", e.to_string())),
    }
}

/// `verify_design(new, old_schema, new_schema, rows, options)`: `(design, columns)` as JSON
/// texts, the design both sides are read through (`new`, or just its key, fitted to the old
/// side, with every column both schemas hold unless `options` leaves it out) and the columns
/// compared, for `verify_driven`: Spark's driver plans once, its executors read.
#[pyfunction]
#[pyo3(signature = (new_json, old_schema, new_schema, rows_json=None, options_json=None))]
fn verify_design(
    py: Python<'_>,
    new_json: &str,
    old_schema: &Bound<'_, PyAny>,
    new_schema: &Bound<'_, PyAny>,
    rows_json: Option<&str>,
    options_json: Option<&str>,
) -> PyResult<(String, String)> {
    let a = schema_arg(py, "old_schema", old_schema)?;
    let b = schema_arg(py, "new_schema", new_schema)?;
    let rows = rows_options(py, rows_json)?;
    let opts = core(py, verify_options(options_json))?;
    let doc = core(py, DesignDocument::from_json_unchecked(new_json))?;
    let side = |schema| ExportSample {
        rows: &rows,
        sample: FileSample::Schema(schema),
    };
    let (d, columns) = core(
        py,
        rowkey_lab::rekey::verify::verify_design(doc, side(&a), side(&b), &opts),
    )?;
    let text = |v: serde_json::Result<String>| {
        core(py, v.map_err(|e| Error::arg("design", e.to_string())))
    };
    Ok((
        text(serde_json::to_string(&d))?,
        text(serde_json::to_string(&columns))?,
    ))
}

/// `verify(new, old_rows, new_rows, rows, options)`: the old table's export against the new
/// table's, both read through `new` (or just its key, fitted to the old export) with every
/// column both hold compared unless `options` (`{ignore, columns}`) leaves it out, as JSON
/// text (`rowkey-lab verify --json`'s). Each export a path (the engine reads it, piece by
/// piece) or Arrow data.
#[pyfunction]
#[pyo3(signature = (new_json, old_rows, new_rows, rows_json=None, options_json=None))]
fn verify<'py>(
    py: Python<'py>,
    new_json: &str,
    old_rows: &Bound<'py, PyAny>,
    new_rows: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
    options_json: Option<&str>,
) -> PyResult<String> {
    let rows = rows_options(py, rows_json)?;
    let opts = core(py, verify_options(options_json))?;
    let doc = core(py, DesignDocument::from_json_unchecked(new_json))?;
    let open = |source: &Bound<'py, PyAny>| -> PyResult<(Input<'py>, OwnedSample)> {
        let mut rows = rows.clone();
        if let Ok(path) = source.extract::<std::path::PathBuf>() {
            rows.name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let io = |e: std::io::Error| {
                py_error(py, &Error::arg("data", format!("{}: {e}", path.display())))
            };
            // the path's kind first: opening a FIFO waits for a writer
            let meta = std::fs::metadata(&path).map_err(io)?;
            if !meta.is_file() {
                return Err(py_error(
                    py,
                    &Error::arg(
                        "data",
                        format!(
                            "{}: not a regular file; verify reads each export more than once: save it to a file, or give the rows as Arrow data",
                            path.display()
                        ),
                    ),
                ));
            }
            let mut file = std::fs::File::open(&path).map_err(io)?;
            let len = file.metadata().map_err(io)?.len();
            let sample = core(py, engine::file_sample(&rows, &mut file, len))?;
            return Ok((Input::File(file, len, rows), sample));
        }
        let schema = stream(py, source)?.schema();
        let sample = OwnedSample::Schema(schema.as_ref().clone());
        Ok((Input::Arrow(source.clone(), rows), sample))
    };
    let (a, sa) = open(old_rows)?;
    let (b, sb) = open(new_rows)?;
    let rows_of = |i: &Input<'py>| match i {
        Input::File(_, _, r) | Input::Arrow(_, r) => r.clone(),
    };
    let (ra, rb) = (rows_of(&a), rows_of(&b));
    let mut v = core(
        py,
        Verifier::for_exports(
            doc,
            ExportSample {
                rows: &ra,
                sample: sa.sample(),
            },
            ExportSample {
                rows: &rb,
                sample: sb.sample(),
            },
            &opts,
        ),
    )?;
    let mut sides = (a, b);
    while let Some(step) = core(py, v.next_read())? {
        let input = match step.side {
            Side::Old => &mut sides.0,
            Side::New => &mut sides.1,
        };
        read_side(py, &mut v, step.side, input)?;
    }
    core(
        py,
        serde_json::to_string(&v.finish()).map_err(|e| Error::arg("report", e.to_string())),
    )
}

/// `check_series_sizes(sizes)`: a series' files refused by their sizes (bytes, in order) before
/// any is read, the engine's rule the CLI and the page follow too.
#[pyfunction]
fn check_series_sizes(py: Python<'_>, sizes: Vec<u64>) -> PyResult<()> {
    core(py, rowkey_lab::limits::check_series_sizes(&sizes))
}

/// `read_series(files, table)`: a table's regions over snapshots (`/jmx` dumps, `list_regions`,
/// `status 'detailed'`, region names) from `(name, text, modified_ms)` in the order taken; the
/// series as JSON text (the npm package's `readSeries`).
#[pyfunction]
#[pyo3(signature = (files, table=None))]
fn read_series(
    py: Python<'_>,
    files: Vec<(String, String, Option<u64>)>,
    table: Option<&str>,
) -> PyResult<String> {
    let sizes: Vec<u64> = files.iter().map(|f| f.1.len() as u64).collect();
    core(py, rowkey_lab::limits::check_series_sizes(&sizes))?;
    core(
        py,
        detached(py, || {
            let series = read_series_owned(&files, table)?;
            serde_json::to_string(&series).map_err(|e| Error::arg("series", e.to_string()))
        }),
    )
}

/// `rekey_from_series(old, new, series, regions, sample, options)`: the plan from the old
/// table's snapshot series alone (`read_series`' JSON), its figures estimates with their error;
/// the plan's JSON out (`rowkey-lab rekey --series --json`'s).
#[pyfunction]
#[pyo3(signature = (old_json, new_json, series_json, regions, sample=None, options_json=None))]
fn rekey_from_series(
    py: Python<'_>,
    old_json: &str,
    new_json: &str,
    series_json: &str,
    regions: u32,
    sample: Option<u64>,
    options_json: Option<&str>,
) -> PyResult<String> {
    let old = design_at(py, "old", old_json)?;
    let new = design_at(py, "new", new_json)?;
    let series: RegionSeries = core(
        py,
        serde_json::from_str(series_json).map_err(|e| {
            Error::arg(
                "series",
                format!("series: not a series read_series gives ({e})"),
            )
        }),
    )?;
    let options = core(py, rekey_options(options_json))?;
    core(
        py,
        detached(py, || {
            let plan = rowkey_lab::rekey::rekey_from_series(
                &old, &new, &series, regions, sample, &options,
            )?;
            serde_json::to_string(&plan).map_err(|e| Error::arg("plan", e.to_string()))
        }),
    )
}

/// The design `text`, an error located under `name` (`old/key`, `new/fields/0`).
fn design_at(py: Python<'_>, name: &str, text: &str) -> PyResult<DesignDocument> {
    core(
        py,
        DesignDocument::from_json(text).map_err(|e| {
            let at = format!("{name}{}", e.location.path.as_deref().unwrap_or_default());
            e.at_path(at)
        }),
    )
}

/// The engine's `RekeyOptions` from JSON text; none: the defaults.
fn rekey_options(text: Option<&str>) -> Result<RekeyOptions, Error> {
    match text {
        None => Ok(RekeyOptions::default()),
        Some(t) => serde_json::from_str(t).map_err(|e| Error::arg("options", e.to_string())),
    }
}

/// This module's functions on the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rekey_plan, m)?)?;
    m.add_function(wrap_pyfunction!(rekey_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rekey_rows_plan, m)?)?;
    m.add_function(wrap_pyfunction!(cut_at_rows, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(verify_design, m)?)?;
    m.add_function(wrap_pyfunction!(verify_partial, m)?)?;
    m.add_function(wrap_pyfunction!(verify_driven, m)?)?;
    m.add_function(wrap_pyfunction!(check_series_sizes, m)?)?;
    m.add_function(wrap_pyfunction!(read_series, m)?)?;
    m.add_function(wrap_pyfunction!(rekey_from_series, m)?)?;
    Ok(())
}
