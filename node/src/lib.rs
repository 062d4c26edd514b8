//! The engine as a Node-API addon: the same calls as the wasm build (`src/wasm`), decoded and
//! answered alike through the engine's one description of them ([`rowkey_lab::calls`]): each
//! argument arrives as JSON text (the package's JavaScript writes it, `npm/node/native.js`),
//! the answer leaves as JSON text or a report's typed arrays, and an engine error leaves as
//! its fields' JSON text behind a marker, which the JavaScript side turns into the very error
//! the wasm build throws. No panic reaches JavaScript: inputs are checked by the engine, and
//! each call runs under `catch_unwind` as a last guard.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Env, Result, Task, Uint32Array, Uint8Array};
use napi_derive::napi;

use rowkey_lab::analyze::{ReadPass, ReadWatch};
use rowkey_lab::calls::{self, ReportParts};
use rowkey_lab::error::Error;

/// What starts the text of an engine error thrown to JavaScript (its fields' JSON follows).
const MARK: &str = "\u{1}rowkey-lab:";

/// The engine's error as a JavaScript exception (`MARK` and the error's fields).
fn js_error(e: &Error) -> napi::Error {
    napi::Error::from_reason(format!("{MARK}{}", calls::error_json(e)))
}

/// `f`, the engine's work, with a panic (a bug) turned into the engine's error.
fn guarded<T>(f: impl FnOnce() -> rowkey_lab::Result<T>) -> Result<T> {
    rowkey_lab::error::catch_bug(f).map_err(|e| js_error(&e))
}

/// `"native"`: which engine this is (the wasm build's JavaScript says `"wasm"`).
#[napi]
pub fn engine() -> String {
    "native".into()
}

/// `notPlain(path, what)`: the engine's error for an option that is not plain data (`what`:
/// `NaN`, `Infinity`, `-Infinity`, `a function`, `a symbol`), thrown.
#[napi(js_name = "notPlain")]
pub fn not_plain(path: String, what: String) -> Result<()> {
    Err(js_error(&calls::not_plain(&path, &what)))
}

/// `tooLong(path)`: the engine's error for an argument whose JSON text is longer than one
/// JavaScript string holds (found by the package's JavaScript as it writes the text), thrown.
#[napi(js_name = "tooLong")]
pub fn too_long(path: String) -> Result<()> {
    Err(js_error(&calls::text_too_long(&path)))
}

/// `argError(path, message)`: the engine's error for a bad argument at `path` (a value of the
/// wrong JavaScript type, found by the package's JavaScript), thrown.
#[napi(js_name = "argError")]
pub fn arg_error(path: String, message: String) -> Result<()> {
    Err(js_error(&Error::arg(&path, message)))
}

/// A report as it crosses: its JSON text and its typed arrays ([`ReportParts`]).
#[napi(object)]
pub struct Report {
    /// The report's JSON text without the parts below.
    pub json: String,
    /// `matrix.cells`.
    pub matrix: Uint32Array,
    /// `grid.cells`.
    pub grid: Uint32Array,
    /// The sample's keys end to end.
    pub keys: Uint8Array,
    /// Where each sample key starts, and the end.
    pub offsets: Uint32Array,
    /// Each sample key's region.
    pub regions: Uint32Array,
    /// Each index's report, where it has one.
    pub indexes: Vec<Option<Report>>,
}

fn report(p: ReportParts) -> Report {
    Report {
        json: p.json,
        matrix: p.matrix.into(),
        grid: p.grid.into(),
        keys: p.keys.into(),
        offsets: p.offsets.into(),
        regions: p.regions.into(),
        indexes: p.indexes.into_iter().map(|x| x.map(report)).collect(),
    }
}

/// `analyzeDesign(doc, options)`: a whole design document analyzed (JSON text in).
#[napi(js_name = "analyzeDesign")]
pub fn analyze_design(doc: String, options: Option<String>) -> Result<Report> {
    guarded(|| calls::analyze_design(&doc, options.as_deref())).map(report)
}

/// `validateDesign(doc)`: the document read, validated and written back (JSON text).
#[napi(js_name = "validateDesign")]
pub fn validate_design(doc: String) -> Result<String> {
    guarded(|| calls::validate_design(&doc))
}

/// `lintDesign(doc)`: the lint findings (JSON text).
#[napi(js_name = "lintDesign")]
pub fn lint_design(doc: String) -> Result<String> {
    guarded(|| calls::lint_design(&doc))
}

/// `checkDesign(doc, budgets, options)`: the verdict (JSON text).
#[napi(js_name = "checkDesign")]
pub fn check_design(
    doc: String,
    budgets: Option<String>,
    options: Option<String>,
) -> Result<String> {
    guarded(|| calls::check_design(&doc, budgets.as_deref(), options.as_deref()))
}

/// The rows of a file analyzed ([`calls::rows_file::analyze_rows_file`]), on a thread of
/// libuv's pool: the event loop goes on meanwhile.
pub struct RowsFileTask {
    doc: String,
    options: Option<String>,
    rows: Option<String>,
    path: String,
    threads: u32,
    chunk_from: Option<f64>,
    watch: Arc<ReadWatch>,
}

impl Task for RowsFileTask {
    type Output = calls::rows_file::RowsFileRun;
    type JsValue = RowsRun;

    fn compute(&mut self) -> Result<Self::Output> {
        guarded(|| {
            calls::rows_file::analyze_rows_file_watched(
                &self.doc,
                self.options.as_deref(),
                self.rows.as_deref(),
                &self.path,
                self.threads,
                self.chunk_from.map(|b| b.max(0.0) as u64),
                &self.watch,
            )
        })
    }

    fn resolve(&mut self, _env: Env, run: Self::Output) -> Result<Self::JsValue> {
        Ok(RowsRun { run })
    }
}

/// `analyzeRowsFile(doc, options, rows, path, threads, chunkFrom, watch)`: the rows of the
/// file at `path` read by the engine itself with the OS's I/O, spread over `threads` threads
/// (0: every core) when it has `chunkFrom` bytes (8 MiB by default): a promise of the
/// [`RowsRun`]. `watch` ([`RowsWatch`]): its progress read and its cancel called from the
/// event loop while the reading runs.
#[napi(js_name = "analyzeRowsFile")]
pub fn analyze_rows_file(
    doc: String,
    options: Option<String>,
    rows: Option<String>,
    path: String,
    threads: u32,
    chunk_from: Option<f64>,
    watch: Option<&RowsWatch>,
) -> AsyncTask<RowsFileTask> {
    AsyncTask::new(RowsFileTask {
        doc,
        options,
        rows,
        path,
        threads,
        chunk_from,
        watch: watch.map_or_else(Arc::default, |w| Arc::clone(&w.watch)),
    })
}

/// A reading of a file watched from JavaScript (`new RowsWatch()`, handed to
/// `analyzeRowsFile`): how far it has gone, as the JS driver's `onProgress` says it, and a
/// cancel, as its `signal` stops it (between pieces of about a MiB or row groups).
#[napi]
pub struct RowsWatch {
    watch: Arc<ReadWatch>,
}

/// `{pass, done, total, unit}` as the JS driver's `onProgress` gets it.
#[napi(object)]
pub struct ReadProgress {
    /// `reading`, or `analyzing` (the second pass, when the first could not keep the rows).
    pub pass: String,
    /// Units read.
    pub done: f64,
    /// Units to read (0: the pass has not begun).
    pub total: f64,
    /// `bytes`, or `rowGroups` (a Parquet file read in one pass).
    pub unit: String,
}

#[napi]
impl RowsWatch {
    /// A watch of a reading not begun.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> RowsWatch {
        RowsWatch {
            watch: Arc::default(),
        }
    }

    /// How far the reading has gone.
    #[napi]
    pub fn progress(&self) -> ReadProgress {
        let (pass, done, total, groups) = self.watch.progress();
        ReadProgress {
            pass: match pass {
                ReadPass::Reading => "reading",
                ReadPass::Analyzing => "analyzing",
            }
            .into(),
            done: done as f64,
            total: total as f64,
            unit: if groups { "rowGroups" } else { "bytes" }.into(),
        }
    }

    /// Stops the reading before its next piece; it then fails with the cancel's error.
    #[napi]
    pub fn cancel(&self) {
        self.watch.cancel();
    }
}

/// A file of rows analyzed: the design it was read with, the scan's summary, what reading found
/// and the session's answers after both passes (as the wasm build's `RowsSession` gives them).
#[napi]
pub struct RowsRun {
    run: calls::rows_file::RowsFileRun,
}

/// `splitKeys()`'s answer.
#[napi(object)]
pub struct SplitKeys {
    /// The split keys, ascending.
    pub keys: Vec<Uint8Array>,
    /// Whether every row's key was counted.
    pub exact: bool,
    /// The rows cut.
    pub rows: f64,
}

#[napi]
impl RowsRun {
    /// The design the rows were read with (JSON text).
    #[napi]
    pub fn design(&self) -> String {
        self.run.design.clone()
    }

    /// The first pass's end (JSON text).
    #[napi]
    pub fn summary(&self) -> Result<String> {
        guarded(|| calls::to_json(&self.run.summary))
    }

    /// What reading found (JSON text).
    #[napi]
    pub fn stats(&self) -> Result<String> {
        guarded(|| self.run.stats_json())
    }

    /// The report over the rows analyzed.
    #[napi]
    pub fn finish(&self) -> Result<Report> {
        guarded(|| calls::report_parts(self.run.report.clone()?)).map(report)
    }

    /// The rows analyzed checked against `budgets` (JSON text): the verdict's JSON text.
    #[napi]
    pub fn check(&self, budgets: Option<String>) -> Result<String> {
        guarded(|| {
            let b = calls::budgets(budgets.as_deref())?;
            calls::to_json(&self.run.check(&b)?)
        })
    }

    /// The design's pre-split keys cut at these rows.
    #[napi(js_name = "splitKeys")]
    pub fn split_keys(&self) -> Result<SplitKeys> {
        let s = guarded(|| self.run.split_keys.clone())?;
        Ok(SplitKeys {
            keys: s.keys.into_iter().map(Uint8Array::from).collect(),
            exact: s.exact,
            rows: s.rows as f64,
        })
    }

    /// The profile of the rows (`rows.profile`) as JSON text, `null` when not asked for.
    #[napi]
    pub fn profile(&self) -> Result<String> {
        guarded(|| calls::to_json(&self.run.profile))
    }
}
