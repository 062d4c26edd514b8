//! The Python binding of rowkey-lab: Arrow data in through the Arrow PyCapsule interface
//! (`__arrow_c_stream__`), one engine call, the result out. Every function is the same three
//! steps — decode the arguments, call the core with the GIL released, encode the result — and
//! every engine error becomes a `RowkeyLabError` carrying the engine's kind and location.
//! The pure-Python package `rowkey_lab` wraps this module; nothing here is its API.

use std::ffi::CStr;

use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
use arrow_array::{RecordBatch, RecordBatchReader};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};

use rowkey_lab::analyze::{self as engine, AnalyzeOptions};
use rowkey_lab::design::DesignDocument;
use rowkey_lab::error::{Error, ErrorKind};
use rowkey_lab::rows::RowsOptions;

mod partials;
mod rekey;

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
                (if keyword { k } else { name.to_string() }, e.to_string())
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

const STREAM: &CStr = c"arrow_array_stream";

/// The PyCapsule `obj.<method>()` returns (kept: it owns what it holds) and its pointer,
/// checked to be named `name`; `arg` and `expected` say what `obj` should have been.
fn capsule<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    arg: &str,
    method: &str,
    name: &CStr,
    expected: &str,
) -> PyResult<(Bound<'py, PyCapsule>, std::ptr::NonNull<std::ffi::c_void>)> {
    let bad = |what: String| py_error(py, &Error::arg(arg, what));
    if !obj.hasattr(method)? {
        return Err(bad(format!(
            "expected {expected}, got {}",
            obj.get_type().name()?
        )));
    }
    let capsule = obj
        .call_method0(method)?
        .cast_into::<PyCapsule>()
        .map_err(|_| bad(format!("{method} did not return a PyCapsule")))?;
    let ptr = capsule.pointer_checked(Some(name))?;
    Ok((capsule, ptr))
}

/// Every record batch of `source`, an object with `__arrow_c_stream__` (a pyarrow Table or
/// RecordBatchReader, a polars or DuckDB result): the batches are shared, not copied, each
/// checked as [`Checked`] reads it. Read with the GIL held (a stream may be produced by Python
/// code); an empty stream gives one empty batch of its schema, so column errors still name the
/// columns.
pub(crate) fn batches(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Vec<RecordBatch>> {
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let out = reader
        .collect::<Result<Vec<_>, Error>>()
        .map_err(|e| py_error(py, &e))?;
    if out.is_empty() {
        return Ok(vec![RecordBatch::new_empty(schema)]);
    }
    Ok(out)
}

/// `source`'s `__arrow_c_stream__` as a reader of its batches, read as they are asked for and
/// checked ([`Checked`]). A producer written in Python
/// (pyarrow's reader of a generator) takes the GIL itself when asked.
pub(crate) fn stream(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Checked> {
    let bad = |what: String| py_error(py, &Error::arg("source", what));
    let (_capsule, ptr) = capsule(
        py,
        source,
        "source",
        "__arrow_c_stream__",
        STREAM,
        "Arrow data (an object with __arrow_c_stream__: a pyarrow Table or RecordBatchReader, a polars or DuckDB result)",
    )?;
    // SAFETY: the capsule is named "arrow_array_stream", so by the Arrow PyCapsule interface
    // it holds an `ArrowArrayStream`; `from_raw` moves the stream out and marks the capsule's
    // copy released, so the capsule's destructor does not release it a second time.
    let stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.as_ptr().cast()) };
    let reader = RecordBatchStreamReader::try_new(stream)
        .map_err(|e| bad(format!("not a readable Arrow stream: {e}")))?;
    Ok(Checked {
        schema: reader.schema(),
        reader,
        index: 0,
        done: false,
    })
}

/// A stream's batches, each checked before the engine reads it: imported without a panic
/// reaching Python, its schema the stream's, every column valid Arrow data (offsets
/// monotonic and inside their values, dictionary indexes inside their dictionary, UTF-8 text:
/// arrow-rs's full validation; data imported through the C interface is not validated, and
/// the engine's reads of it are unchecked). The first failure ends the stream.
pub(crate) struct Checked {
    reader: RecordBatchStreamReader,
    schema: arrow_schema::SchemaRef,
    index: usize,
    done: bool,
}

impl Checked {
    /// The stream's schema.
    pub(crate) fn schema(&self) -> arrow_schema::SchemaRef {
        self.schema.clone()
    }

    fn check(&mut self, i: usize, b: RecordBatch) -> Result<RecordBatch, Error> {
        let bad = |why: String| Error::new(ErrorKind::Invalid, why).at_path("source");
        if b.schema().fields() != self.schema.fields() {
            return Err(bad(format!(
                "batch {i} of the Arrow stream has another schema than the stream's first: {} where the stream said {}",
                b.schema(),
                self.schema
            )));
        }
        for (col, field) in b.columns().iter().zip(self.schema.fields()) {
            col.to_data().validate_full().map_err(|e| {
                bad(format!(
                    "batch {i}, column `{}`: not valid Arrow data: {e}",
                    field.name()
                ))
            })?;
        }
        Ok(b)
    }
}

impl Iterator for Checked {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let i = self.index;
        self.index += 1;
        let next = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.reader.next()));
        let r = match next {
            Ok(None) => None,
            Ok(Some(Ok(b))) => Some(self.check(i, b)),
            Ok(Some(Err(e))) => Some(Err(Error::arg(
                "source",
                format!("the Arrow stream failed: {e}"),
            ))),
            Err(_) => Some(Err(Error::arg(
                "source",
                format!("batch {i} of the Arrow stream could not be imported"),
            ))),
        };
        self.done = !matches!(r, Some(Ok(_)));
        r
    }
}

/// `f`, the engine's work, with the GIL released; a panic (a bug) comes back as the engine's
/// error, never as pyo3's `PanicException` (a `BaseException` that `except Exception` misses).
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> Result<T, Error> {
    py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Error::new(
                ErrorKind::IllegalState,
                format!("rowkey-lab bug (please report): {what}"),
            ))
        })
    })
}

/// `check_design(text)`: for a design that is just a key (no fields), the fields its key reads:
/// it is read, and validated once rows declare them, as the CLI and npm take it. Any other
/// design is validated here (a key that reads a field the design does not declare is refused
/// at that field: a typo, most likely; `Design.from_rows` declares such fields from a table),
/// and none are listed. A `RowkeyLabError` at its JSON path when it does not read.
#[pyfunction]
fn check_design(py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
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

const SCHEMA: &CStr = c"arrow_schema";

/// `declare_fields(design, schema, rows)`: `(design, inferred)` as JSON texts, the design (a
/// document that may be just a key) with every field its key names and does not declare
/// declared from `schema`'s columns (an object with `__arrow_c_schema__`, e.g. a pyarrow
/// Schema), as `analyze --records` declares them from a Parquet or Arrow file; validated.
#[pyfunction]
#[pyo3(signature = (design_json, schema, rows_json=None))]
fn declare_fields(
    py: Python<'_>,
    design_json: &str,
    schema: &Bound<'_, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(String, String)> {
    let bad = |what: String| py_error(py, &Error::arg("schema", what));
    let (_capsule, ptr) = capsule(
        py,
        schema,
        "schema",
        "__arrow_c_schema__",
        SCHEMA,
        "an Arrow schema (an object with __arrow_c_schema__: a pyarrow Schema, or the table's .schema)",
    )?;
    // SAFETY: the capsule is named "arrow_schema", so by the Arrow PyCapsule interface it
    // holds an `ArrowSchema` the capsule keeps alive; it is only read here (the capsule still
    // owns and releases it).
    let ffi = unsafe { &*ptr.as_ptr().cast::<arrow_schema::ffi::FFI_ArrowSchema>() };
    let schema = arrow_schema::Schema::try_from(ffi)
        .map_err(|e| bad(format!("not a readable Arrow schema: {e}")))?;
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

/// `encode(design, source, rows)`: every row's key as `(keys, offsets)`, the keys end to end
/// and the `rows + 1` little-endian u32 offsets where each starts and ends.
#[pyfunction]
#[pyo3(signature = (design_json, source, rows_json=None))]
fn encode<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let rows = rows_options(py, rows_json)?;
    // Batch by batch, each encoded and dropped before the next is read: a stream that does not
    // end stops at the keys' limit instead of holding every batch until memory runs out.
    let reader = stream(py, source)?;
    let schema = reader.schema();
    let doc = design_for(py, design_json, &schema, &rows)?;
    let (keys, offsets, _) = core(
        py,
        detached(py, || engine::encode_stream(&doc, &rows, (&schema, reader))),
    )?;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    Ok((PyBytes::new(py, &keys), PyBytes::new(py, &offsets)))
}

/// `encode_skipped(design, source, rows)`: `encode`'s keys and offsets, and the rows (0-based,
/// little-endian u64s) a `nulls: skip` left out, so each key can sit beside its own row.
#[pyfunction]
#[pyo3(signature = (design_json, source, rows_json=None))]
fn encode_skipped<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    rows_json: Option<&str>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
)> {
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    let (keys, offsets, skipped) = core(
        py,
        detached(py, || engine::encode_batches_skipped(&doc, &rows, &batches)),
    )?;
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let skipped: Vec<u8> = skipped.iter().flat_map(|o| o.to_le_bytes()).collect();
    Ok((
        PyBytes::new(py, &keys),
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &skipped),
    ))
}

/// `analyze(design, source, options, rows)`: the report as JSON text, as `analyze --records
/// --json` prints it (the report, the read plans over the regions analyzed, what reading found).
#[pyfunction]
#[pyo3(signature = (design_json, source, options_json=None, rows_json=None))]
fn analyze(
    py: Python<'_>,
    design_json: &str,
    source: &Bound<'_, PyAny>,
    options_json: Option<&str>,
    rows_json: Option<&str>,
) -> PyResult<String> {
    let opts = analyze_options(py, options_json)?;
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    core(
        py,
        detached(py, || {
            let a = engine::analyze_batches(&doc, &opts, &rows, &batches)?;
            report_text(&doc, a.report, &a.split_keys, Some(&a.stats))
        }),
    )
}

/// A report as the CLI's `--json` prints it: the report, `reads` (the read plans over
/// `split_keys`, the regions analyzed) and `rows` (what reading found).
pub(crate) fn report_text(
    doc: &DesignDocument,
    report: engine::AnalysisReport,
    split_keys: &[Vec<u8>],
    stats: Option<&rowkey_lab::rows::RowStats>,
) -> Result<String, Error> {
    let reads = doc.plan_reads(split_keys)?;
    let write = |e: serde_json::Error| {
        Error::new(
            ErrorKind::IllegalState,
            format!("the report could not be written: {e}"),
        )
    };
    let mut v = serde_json::to_value(&report).map_err(write)?;
    if let Some(obj) = v.as_object_mut() {
        obj.insert("reads".into(), serde_json::to_value(&reads).map_err(write)?);
        if let Some(s) = stats {
            obj.insert("rows".into(), serde_json::to_value(s).map_err(write)?);
        }
    }
    serde_json::to_string(&v).map_err(write)
}

/// `split_points(design, source, regions, rows)`: the keys that cut the rows into `regions`
/// regions of equal rows, from every row's key (exact), as bytes in order.
#[pyfunction]
#[pyo3(signature = (design_json, source, regions, rows_json=None))]
fn split_points<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    regions: u32,
    rows_json: Option<&str>,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    cut(
        py,
        design_json,
        source,
        regions,
        rows_json,
        engine::split_batches,
    )
}

/// An engine function that cuts a table's rows into regions: its split keys.
type Splitter =
    fn(&DesignDocument, &RowsOptions, &[RecordBatch], u32) -> Result<Vec<Vec<u8>>, Error>;

/// The split keys `split(doc, rows, batches, regions)` cuts (the GIL released), as bytes.
fn cut<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    regions: u32,
    rows_json: Option<&str>,
    split: Splitter,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let rows = rows_options(py, rows_json)?;
    let batches = batches(py, source)?;
    let doc = design_of(py, design_json, &batches, &rows)?;
    let keys = core(py, detached(py, || split(&doc, &rows, &batches, regions)))?;
    Ok(keys.iter().map(|k| PyBytes::new(py, k)).collect())
}

/// `split_points_by_bytes(design, source, regions, rows)`: the keys that cut the rows into
/// `regions` regions of equal bytes (each row its key and the design's value size), exact.
#[pyfunction]
#[pyo3(signature = (design_json, source, regions, rows_json=None))]
fn split_points_by_bytes<'py>(
    py: Python<'py>,
    design_json: &str,
    source: &Bound<'py, PyAny>,
    regions: u32,
    rows_json: Option<&str>,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    cut(
        py,
        design_json,
        source,
        regions,
        rows_json,
        engine::split_batches_by_bytes,
    )
}

/// `key_bytes(design, source)`: the bytes of the rows whose keys are `source`'s first column
/// (each its key's length and the design's value size): a sorted partition's weight.
#[pyfunction]
fn key_bytes(py: Python<'_>, design_json: &str, source: &Bound<'_, PyAny>) -> PyResult<u64> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let mut total = 0u64;
    core(
        py,
        each_key(&batches, |k, _| {
            total = total.saturating_add(engine::write_bytes(&doc, k.len()));
            Ok(())
        }),
    )?;
    Ok(total)
}

/// `byte_cuts(design, before, total, regions, source)`: the cuts by bytes
/// (`rowkey_lab::region::byte_cut_ranks`) that fall among the sorted keys of `source`'s first
/// column, the rows ahead of them weighing `before` bytes of `total`: `(cuts, after)`, each cut
/// `(j, index)`, and the bytes up to the last of these rows.
#[pyfunction]
fn byte_cuts(
    py: Python<'_>,
    design_json: &str,
    before: u64,
    total: u64,
    regions: u32,
    source: &Bound<'_, PyAny>,
) -> PyResult<(Vec<(u32, u64)>, u64)> {
    let doc = design(py, design_json)?;
    let batches = batches(py, source)?;
    let mut sizes = Vec::new();
    core(
        py,
        each_key(&batches, |k, _| {
            sizes.push(engine::write_bytes(&doc, k.len()));
            Ok(())
        }),
    )?;
    let after = sizes.iter().fold(before, |t, s| t.saturating_add(*s));
    let cuts = rowkey_lab::region::byte_cut_ranks(before, sizes, total, regions);
    Ok((cuts, after))
}

/// `quantile_ranks(rows, regions)`: the ranks of the sorted keys that start regions 1.. of
/// equal rows (what Spark picks from its sort for `cut_sample`).
#[pyfunction]
fn quantile_ranks(rows: u64, regions: u32) -> Vec<u64> {
    rowkey_lab::region::quantile_ranks(rows, regions)
}

/// `cut_sample(design, sample, regions)`: the split keys that cut `sample` (row keys) into
/// `regions` regions of equal rows, with HBase's rules for split keys.
#[pyfunction]
fn cut_sample<'py>(
    py: Python<'py>,
    design_json: &str,
    sample: Vec<Vec<u8>>,
    regions: u32,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let doc = design(py, design_json)?;
    let keys = core(
        py,
        detached(py, || engine::split_sample(&doc, &sample, regions)),
    )?;
    Ok(keys.iter().map(|k| PyBytes::new(py, k)).collect())
}

/// `parse_create_table(sql)`: the design of a Phoenix `CREATE TABLE` statement, as JSON text.
#[pyfunction]
fn parse_create_table(py: Python<'_>, sql: &str) -> PyResult<String> {
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

/// `life(design, options)`: months of the design's table under HBase's rules, as JSON text
/// (`rowkey-lab life --json`'s report); `options` are `LifeSettings` members as JSON text.
#[pyfunction]
#[pyo3(signature = (design_json, options_json=None))]
fn life(py: Python<'_>, design_json: &str, options_json: Option<&str>) -> PyResult<String> {
    let doc = core(py, DesignDocument::from_json(design_json))?;
    let options: serde_json::Value = match options_json {
        Some(t) => serde_json::from_str(t)
            .map_err(|e| py_error(py, &Error::arg("options", format!("not JSON: {e}"))))?,
        None => serde_json::Value::Null,
    };
    let report = core(
        py,
        py.detach(|| rowkey_lab::life::simulate_design(&doc, &options)),
    )?;
    serde_json::to_string(&report).map_err(|e| {
        py_error(
            py,
            &Error::new(
                ErrorKind::IllegalState,
                format!("could not be written: {e}"),
            ),
        )
    })
}

/// `shell_create(table, family, keys)`: the HBase shell's `create 'table', 'family', SPLITS =>
/// [...]` for split keys.
#[pyfunction]
fn shell_create(py: Python<'_>, table: &str, family: &str, keys: Vec<Vec<u8>>) -> PyResult<String> {
    if table.is_empty() {
        return Err(py_error(
            py,
            &Error::arg("table", "the table name is empty"),
        ));
    }
    core(
        py,
        rowkey_lab::hbase::shell::shell_create(table, family, &keys),
    )
}

/// `regions_of(split_keys, source)`: the region index of each key of `source`'s first column
/// (binary, large binary or binary view) in the table pre-split at `split_keys` (HBase's
/// `[start, end)` rule, its byte order), as little-endian u32s.
#[pyfunction]
fn regions_of<'py>(
    py: Python<'py>,
    split_keys: Vec<Vec<u8>>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let map = core(py, rowkey_lab::region::RegionMap::new(split_keys))?;
    let batches = batches(py, source)?;
    let out = core(py, detached(py, || key_regions(&map, &batches)))?;
    Ok(PyBytes::new(py, &out))
}

/// Each key's region (see `regions_of`); a null key or a column of another type is an error.
fn key_regions(
    map: &rowkey_lab::region::RegionMap,
    batches: &[RecordBatch],
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    each_key(batches, |k, _| {
        let r = u32::try_from(map.region_of(k)).unwrap_or(u32::MAX);
        out.extend_from_slice(&r.to_le_bytes());
        Ok(())
    })?;
    Ok(out)
}

/// Every key of the batches' first column (binary, large binary or binary view) with its row
/// (from 1), in order; a null key or a column of another type is an error naming the row.
fn each_key(
    batches: &[RecordBatch],
    mut f: impl FnMut(&[u8], usize) -> Result<(), Error>,
) -> Result<(), Error> {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    use arrow_schema::DataType;
    let mut put = |k: Option<&[u8]>, row: usize| match k {
        Some(k) => f(k, row),
        None => Err(
            Error::new(ErrorKind::Invalid, format!("row {row}: a null row key")).at_path("keys"),
        ),
    };
    let mut row = 0usize;
    for b in batches {
        let Some(col) = b.columns().first() else {
            return Err(Error::arg("keys", "no column of row keys"));
        };
        let n = col.len();
        match col.data_type() {
            DataType::Binary => {
                let a = col.as_binary::<i32>();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            DataType::LargeBinary => {
                let a = col.as_binary::<i64>();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            DataType::BinaryView => {
                let a = col.as_binary_view();
                for i in 0..n {
                    put(a.is_valid(i).then(|| a.value(i)), row + i + 1)?;
                }
            }
            t => return Err(Error::arg("keys", format!("row keys are binary, not {t}"))),
        }
        row += n;
    }
    Ok(())
}

/// `to_string_binary(key)`: HBase's `Bytes.toStringBinary` of a key.
#[pyfunction]
fn to_string_binary(key: &[u8]) -> String {
    rowkey_lab::hbase::bytes::to_string_binary(key)
}

/// `splits_file(keys)`: the SPLITS_FILE text of split keys, the engine's (the CLI's `splits`
/// writes the same): a key's leading and trailing spaces as `\x20`, which the shell's `strip`
/// of each line keeps.
#[pyfunction]
fn splits_file(py: Python<'_>, keys: Vec<Vec<u8>>) -> PyResult<String> {
    core(py, rowkey_lab::hbase::shell::splits_file(&keys))
}

/// The native module `rowkey_lab._engine`.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RowkeyLabError", m.py().get_type::<RowkeyLabError>())?;
    // The most distinct rows a report counts exactly: rowkey_lab.spark decides from it whether
    // partials carry exact counts that a one-pass run would keep.
    m.add("MAX_EXACT_ROWS", rowkey_lab::analyze::MAX_EXACT_ROWS)?;
    m.add_function(wrap_pyfunction!(check_design, m)?)?;
    m.add_function(wrap_pyfunction!(declare_fields, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(encode_skipped, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(split_points, m)?)?;
    m.add_function(wrap_pyfunction!(to_string_binary, m)?)?;
    m.add_function(wrap_pyfunction!(splits_file, m)?)?;
    m.add_function(wrap_pyfunction!(quantile_ranks, m)?)?;
    m.add_function(wrap_pyfunction!(split_points_by_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(key_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(byte_cuts, m)?)?;
    m.add_function(wrap_pyfunction!(cut_sample, m)?)?;
    m.add_function(wrap_pyfunction!(parse_create_table, m)?)?;
    m.add_function(wrap_pyfunction!(shell_create, m)?)?;
    m.add_function(wrap_pyfunction!(life, m)?)?;
    m.add_function(wrap_pyfunction!(regions_of, m)?)?;
    m.add_function(wrap_pyfunction!(rekey::rekey_plan, m)?)?;
    partials::register(m)?;
    Ok(())
}
