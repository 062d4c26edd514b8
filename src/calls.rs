//! One description of the calls the JavaScript bindings make, whatever the host: the wasm
//! build (`src/wasm`) and the Node-API addon (`node/`) each turn their host's values into
//! JSON text and read it here, so both give the same engine entry the same arguments and a
//! bad argument the same error (kind, message, path); an answer leaves as the text
//! [`to_json`] writes, an error as the fields [`error_fields`] lists. A binding only moves
//! values between its host and these functions.

use serde::Serialize;

use crate::analyze::{AnalysisReport, AnalyzeOptions};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::support::json::{Node, R};

#[cfg(all(feature = "rows", not(target_arch = "wasm32")))]
pub mod rows_file;

/// A design document argument named `name` from its JSON text, read and validated as a whole;
/// an error's JSON pointer is prefixed by the argument's name when that is not `doc`
/// (`docs/0/fields/1`).
pub fn design(name: &str, text: &str) -> Result<DesignDocument> {
    DesignDocument::from_json(text).map_err(|e| match e.location.path.clone() {
        Some(p) if name != "doc" => e.at_path(format!("{name}{p}")),
        _ => e,
    })
}

/// An options argument named `name` from its JSON text, read by `read` (one of the type-owned
/// readers: unknown keys are errors); an error names the path of the bad value
/// (`options.typo`).
pub(crate) fn options<T>(name: &str, text: &str, read: fn(&Node) -> R<T>) -> Result<T> {
    crate::support::json::parse_node(text)
        .and_then(|n| read(&n))
        .map_err(|e| {
            let path = e.dotted();
            let at = if path == "." {
                name.to_string()
            } else {
                format!("{name}.{path}")
            };
            Error::new(ErrorKind::Invalid, e.message()).at_path(at)
        })
}

/// The analysis options (`options`); `None` (JavaScript's `undefined` or `null`): the defaults.
pub fn analyze_options(text: Option<&str>) -> Result<AnalyzeOptions> {
    match text {
        None => Ok(AnalyzeOptions::default()),
        Some(t) => options("options", t, crate::analyze::read::analyze_options),
    }
}

/// The budgets (`budgets`), checked; `None`: the defaults (hotspot 2.0, 16 scans, lint errors).
pub fn budgets(text: Option<&str>) -> Result<crate::analyze::check::Budgets> {
    let b = match text {
        None => crate::analyze::check::Budgets::default(),
        Some(t) => options("budgets", t, crate::analyze::check::budgets)?,
    };
    b.validate()?;
    Ok(b)
}

/// How a file's rows meet the design (`rows`); `None`: the defaults.
#[cfg(feature = "rows")]
pub fn rows_options(text: Option<&str>) -> Result<crate::rows::RowsOptions> {
    let Some(text) = text else {
        return Ok(crate::rows::RowsOptions::default());
    };
    serde_json::from_str(text).map_err(|e| {
        Error::new(ErrorKind::IllegalArgument, format!("rows options: {e}")).at_path("rows")
    })
}

/// The error of an argument named `path` whose JSON text is longer than one JavaScript string
/// holds (V8's `Invalid string length` while the binding writes it): no value that large can
/// be handed to the engine. The wasm build and the native engine's JavaScript say it alike.
pub fn text_too_long(path: &str) -> Error {
    crate::limits::limit_error(
        path,
        "JSON text longer than JavaScript's longest string",
        "about 512 MiB of JSON (V8's longest string)",
        "the most text one JavaScript string holds: no value that large can be handed to the engine",
    )
}

/// The error of an option that is not plain data (`what`: `NaN`, `Infinity`, `-Infinity`, `a
/// function`, `a symbol`) at `path`: JSON text would drop it or write `null`, and the option
/// would silently take its default.
pub fn not_plain(path: &str, what: &str) -> Error {
    if what.starts_with("a ") {
        Error::arg(
            path,
            format!(
                "is {what}: options are plain data (numbers, strings, booleans, arrays, objects)"
            ),
        )
    } else {
        Error::arg(
            path,
            format!("is {what}: a number here is finite (JSON has no NaN or Infinity)"),
        )
    }
}

/// The fields a JavaScript error of the engine carries, in the order they are set: `kind`,
/// `reason` (the message without its place), then `path`, `offset`, `line` and `column` where
/// known. The error's own message is `e.to_string()`.
pub fn error_fields(e: &Error) -> Vec<(&'static str, serde_json::Value)> {
    e.fields()
}

/// The engine's error as JSON text: `[message, [field, value], ...]` (the message, then
/// [`error_fields`] in their order), for a binding that can only throw text.
pub fn error_json(e: &Error) -> String {
    let mut all = vec![serde_json::Value::from(e.to_string())];
    all.extend(
        error_fields(e)
            .into_iter()
            .map(|(k, v)| serde_json::Value::Array(vec![k.into(), v])),
    );
    serde_json::Value::Array(all).to_string()
}

/// The one serializer: JSON text (`serde_json`'s) — missing values are `null`, maps are plain
/// objects — refused past [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES) (so it never
/// grows past it, nor to a JavaScript `Invalid string length`).
pub fn to_json<T: Serialize>(v: &T) -> Result<String> {
    let mut out = Bounded {
        text: Vec::new(),
        refused: false,
    };
    // The writer fails only when the text would pass the limit, on non-string map keys or in a
    // failing `Serialize` impl, which the result types do not have.
    if serde_json::to_writer(&mut out, v).is_err() {
        return Err(match out.refused {
            false => Error::new(
                ErrorKind::Invalid,
                "cannot encode result as JSON (a bug, please report)",
            ),
            true => crate::limits::result_too_large("result"),
        });
    }
    String::from_utf8(out.text).map_err(|_| {
        Error::new(
            ErrorKind::Invalid,
            "result is not UTF-8 (a bug, please report)",
        )
    })
}

/// Result text that refuses to grow past [`MAX_RESULT_BYTES`](crate::limits::MAX_RESULT_BYTES);
/// `refused` once it has refused a write.
struct Bounded {
    text: Vec<u8>,
    refused: bool,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let len = self.text.len().saturating_add(buf.len());
        if len > crate::limits::MAX_RESULT_BYTES {
            self.refused = true;
            return Err(std::io::Error::other("result too large"));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A report as it crosses to JavaScript: its JSON text without the matrices' cells, the key
/// sample and the indexes' reports, which cross as typed arrays (one copy each, no JS object
/// per cell or key): `matrix.cells` and `grid.cells` as `Uint32Array`s, the sample as `{keys:
/// Uint8Array, offsets: Uint32Array, regions: Uint32Array}` (key `i` is
/// `keys[offsets[i]..offsets[i + 1]]` in region `regions[i]`), index `i`'s report as parts of
/// its own, set at `indexes[i].report`.
#[derive(Debug, Clone, Default)]
pub struct ReportParts {
    /// The report's JSON text, the parts below left empty in it.
    pub json: String,
    /// `matrix.cells`.
    pub matrix: Vec<u32>,
    /// `grid.cells`.
    pub grid: Vec<u32>,
    /// The sample's keys, end to end.
    pub keys: Vec<u8>,
    /// Where each sample key starts in `keys`, and the end.
    pub offsets: Vec<u32>,
    /// Each sample key's region.
    pub regions: Vec<u32>,
    /// Each index's report, where it has one.
    pub indexes: Vec<Option<ReportParts>>,
}

/// `r` cut into [`ReportParts`].
pub fn report_parts(mut r: AnalysisReport) -> Result<ReportParts> {
    let matrix = std::mem::take(&mut r.matrix.cells);
    let grid = std::mem::take(&mut r.grid.cells);
    let sample = std::mem::take(&mut r.sample);
    let reports: Vec<Option<AnalysisReport>> =
        r.indexes.iter_mut().map(|x| x.report.take()).collect();
    let json = to_json(&r)?;
    let mut keys = Vec::new();
    let mut offsets = Vec::with_capacity(sample.len() + 1);
    offsets.push(0u32);
    for s in &sample {
        keys.extend_from_slice(&s.key);
        // a sample is at most 100,000 keys of at most 32,767 bytes: under 4 GiB
        offsets.push(u32::try_from(keys.len()).unwrap_or(u32::MAX));
    }
    let regions = sample
        .iter()
        .map(|s| u32::try_from(s.region).unwrap_or(u32::MAX))
        .collect();
    let indexes = reports
        .into_iter()
        .map(|x| x.map(report_parts).transpose())
        .collect::<Result<_>>()?;
    Ok(ReportParts {
        json,
        matrix,
        grid,
        keys,
        offsets,
        regions,
        indexes,
    })
}

/// `analyzeDesign(doc, options)`: a whole design document analyzed.
pub fn analyze_design(doc: &str, options: Option<&str>) -> Result<ReportParts> {
    let doc = design("doc", doc)?;
    let o = analyze_options(options)?;
    report_parts(crate::analyze::analyze(&doc, &o)?)
}

/// `validateDesign(doc)`: the document read, validated and written back with its defaults.
pub fn validate_design(doc: &str) -> Result<String> {
    to_json(&design("doc", doc)?)
}

/// `lintDesign(doc)`: the lint findings over a whole document.
pub fn lint_design(doc: &str) -> Result<String> {
    to_json(&crate::design::lint(&design("doc", doc)?))
}

/// `checkDesign(doc, budgets, options)`: the design's workload analyzed, its reads planned and
/// both checked against the budgets: the verdict.
pub fn check_design(doc: &str, budgets: Option<&str>, options: Option<&str>) -> Result<String> {
    let doc = design("doc", doc)?;
    let b = self::budgets(budgets)?;
    let o = analyze_options(options)?;
    to_json(&crate::analyze::check::check_design(&doc, &b, &o)?)
}

/// The cut at the rows (`cut`: `{regions, by}`, absent: none), read strictly: an unknown
/// member is an error at `cut.member`.
pub fn rows_cut(text: Option<&str>) -> Result<crate::rekey::RowsCut> {
    let Some(text) = text else {
        return Ok(Default::default());
    };
    let invalid =
        |e: serde_json::Error| Error::new(ErrorKind::Invalid, e.to_string()).at_path("cut");
    let v: serde_json::Value = serde_json::from_str(text).map_err(invalid)?;
    // a count that is no whole number a region count can be is refused at `regions`, as one
    // out of range is (`rk.rekey(regions=10**30)` was serde's "cut: invalid type: floating
    // point `1e+30`, expected u32")
    if let Some(r) = v.get("regions").filter(|r| !r.is_null()) {
        if !r.as_u64().is_some_and(|n| n <= u64::from(u32::MAX)) {
            return Err(Error::arg(
                "regions",
                format!(
                    "a whole number of regions, 1 to {}, not {r}",
                    crate::region::MAX_REGIONS
                ),
            ));
        }
    }
    serde_json::from_value(v).map_err(invalid)
}

/// A document argument named `name` as a JSON value, unread (a design that is just a key
/// stays one); not JSON, an error at `name`.
fn doc_value(name: &str, text: &str) -> Result<serde_json::Value> {
    crate::limits::check_text_bytes(
        name,
        "a design document",
        text.len(),
        crate::limits::MAX_DOCUMENT_BYTES,
    )?;
    serde_json::from_str(text)
        .map_err(|e| Error::new(ErrorKind::Parse, format!("not JSON ({e})")).at_path(name))
}

/// `cutAtRows(doc, cut)`: the document with the pre-split that cuts its table at the rows
/// (`region::cut`'s rule; `splits --records`, `rekey --records`), as JSON text.
pub fn cut_at_rows(doc: &str, cut: Option<&str>) -> Result<String> {
    let doc = doc_value("doc", doc)?;
    let cut = rows_cut(cut)?;
    to_json(&crate::rekey::cut_at_rows(&doc, &cut).map_err(crate::rekey::rows::under("doc"))?)
}

/// `rekeyReading(oldDoc, newDoc, cut)`: the designs a rekey's reading of the rows feeds and
/// whether one reading feeds both (`{designs, shared, apart}`), as JSON text.
#[cfg(feature = "rows")]
pub fn rekey_reading(old: &str, new: &str, cut: Option<&str>) -> Result<String> {
    let (old, new) = (doc_value("oldDoc", old)?, doc_value("newDoc", new)?);
    to_json(&crate::rekey::rekey_reading(&old, &new, &rows_cut(cut)?)?)
}

/// One side of a rekey's reading (`{design, report, stats, splitKeysExact}`: the design the
/// rows were read with, its report, what reading found, its split keys' `exact`), named `name`.
pub fn rows_side(name: &str, text: &str) -> Result<crate::rekey::RowsSide> {
    let bad = |what: &str, why: String| Error::arg(&format!("{name}.{what}"), why);
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::arg(name, format!("not JSON ({e})")))?;
    let member = |m: &str| v.get(m).filter(|x| !x.is_null());
    let design_v = member("design")
        .ok_or_else(|| bad("design", "the design the rows were read with".into()))?;
    let design = self::design(&format!("{name}.design"), &design_v.to_string())?;
    let report = member("report")
        .ok_or_else(|| bad("report", "the design's report over the rows".into()))?;
    let report = crate::rekey::ReportFigures::read(&format!("{name}.report"), report)?;
    let columns = match member("stats").and_then(|s| s.get("columns")) {
        None | Some(serde_json::Value::Null) => Vec::new(),
        // no reading finds more (a file of more is refused as it is read)
        Some(serde_json::Value::Object(m)) if m.len() > crate::limits::MAX_COLUMNS => {
            return Err(crate::limits::limit_error(
                &format!("{name}.stats"),
                format!("{} columns", m.len()),
                format!("{} columns", crate::limits::MAX_COLUMNS),
                "the most columns a file of rows is read with (limits::MAX_COLUMNS)",
            ))
        }
        Some(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        Some(_) => {
            return Err(bad(
                "stats",
                "its columns: an object of the rows' columns".into(),
            ))
        }
    };
    let split_keys_exact = member("splitKeysExact")
        .and_then(serde_json::Value::as_bool)
        .ok_or_else(|| {
            bad(
                "splitKeysExact",
                "true or false, the reading's splitKeys().exact".into(),
            )
        })?;
    Ok(crate::rekey::RowsSide {
        design,
        report,
        columns,
        split_keys_exact,
    })
}

/// `rekeyRowsPlan(oldSide, newSide, options)`: the plan over the rows from what one reading
/// found under each design ([`rows_side`]'s), `options` the `RekeyOptions`, as JSON text.
pub fn rekey_rows_plan(old: &str, new: &str, options: Option<&str>) -> Result<String> {
    let opts: crate::rekey::RekeyOptions = match options {
        None => Default::default(),
        Some(t) => serde_json::from_str(t).map_err(|e| Error::arg("options", e.to_string()))?,
    };
    let (a, b) = (rows_side("oldSide", old)?, rows_side("newSide", new)?);
    to_json(&crate::rekey::rekey_over_rows(&a, &b, &opts)?)
}
