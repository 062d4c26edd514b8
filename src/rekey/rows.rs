//! Rekey over the user's rows, composed once for every shell (issue 71): the one rule that cuts
//! the new table at the rows ([`cut_at_rows`]), the designs one reading of the rows feeds and
//! whether it can feed both ([`rekey_reading`]), and the plan from what reading found
//! ([`rekey_over_rows`]: the rows' columns, `splitKeysExact`, the plan). A shell that reads the
//! rows itself (the page's and npm's workers) calls the first two around its reading; one that
//! hands the engine the rows (Python, a file the engine reads) calls [`rekey_rows`], which reads
//! them once for both designs where the engine allows it.

use serde::{Deserialize, Serialize};

use super::{rekey_plan_from, RekeyOptions, RekeyPlan, ReportFigures};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};

/// How the new table is cut at the rows: the one rule `rekey --records`, `splits --records`,
/// the page and the libraries cut by (`regions` regions of equal rows or bytes of the rows
/// re-encoded, a leading salt's buckets kept whole: `region::cut`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RowsCut {
    /// The new table's regions (1 to 100,000); absent, the new design's own pre-split.
    pub regions: Option<u32>,
    /// `"rows"` or `"bytes"`: what the regions hold equal shares of (`rows` when absent); only
    /// with `regions`.
    pub by: Option<String>,
}

/// `doc` (a design document as its JSON value, so a design that is just a key stays one and a
/// key given as text stays text; its members come back in serde_json's order) with the
/// pre-split [`RowsCut`] asks for: a
/// `sampleQuantiles` of `regions` regions, `by` rows or bytes, with no sample of its own, so
/// the reading cuts it at every row's key; `doc` unchanged without `regions`. Errors name the
/// cut's member (`regions`, `by`) or the document's (`regions`).
pub fn cut_at_rows(doc: &serde_json::Value, cut: &RowsCut) -> Result<serde_json::Value> {
    // a document's errors are at its JSON pointer (`""`, `/regions`): a shell names the argument
    // before it ([`under`])
    if !doc.is_object() {
        return Err(
            Error::new(ErrorKind::Invalid, "a design document is a JSON object").at_path(""),
        );
    }
    let by = match cut.by.as_deref() {
        None | Some("rows") => None,
        Some("bytes") => Some("bytes"),
        Some(other) => {
            return Err(Error::arg(
                "by",
                format!("expected \"rows\" or \"bytes\", not {other:?}"),
            ))
        }
    };
    let Some(regions) = cut.regions else {
        if cut.by.is_some() {
            return Err(Error::arg(
                "by",
                "by goes with regions: without regions the new design's own pre-split is kept",
            ));
        }
        return Ok(doc.clone());
    };
    if !(1..=crate::region::MAX_REGIONS).contains(&regions) {
        return Err(Error::arg(
            "regions",
            format!("1 to {}, not {regions}", crate::region::MAX_REGIONS),
        ));
    }
    let mut out = doc.clone();
    let serde_json::Value::Object(top) = &mut out else {
        return Ok(out); // (checked above)
    };
    let layout = top
        .entry("regions")
        .or_insert_with(|| serde_json::json!({}));
    if layout.is_null() {
        *layout = serde_json::json!({});
    }
    let serde_json::Value::Object(layout) = layout else {
        return Err(Error::new(ErrorKind::Invalid, "an object").at_path("/regions"));
    };
    let mut presplit = serde_json::json!({"kind": "sampleQuantiles", "regions": regions});
    if let (Some(b), Some(p)) = (by, presplit.as_object_mut()) {
        p.insert("by".into(), b.into());
    }
    layout.insert("presplit".into(), presplit);
    Ok(out)
}

/// The designs a rekey's reading of the rows feeds: the old one, and the new one cut at the
/// rows ([`cut_at_rows`]); `shared`: whether one reading feeds both (the engine's
/// `SharedRows`), else `apart` says why each reads the rows alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RekeyReading {
    /// `[old, new cut]`, each as the caller's document with the cut set.
    pub designs: [serde_json::Value; 2],
    /// One reading feeds both designs.
    pub shared: bool,
    /// Why not, when not (`rows_shareable`'s reason).
    pub apart: Option<String>,
}

/// The designs `old` and `new` read the rows with ([`RekeyReading`]), cut by `cut`. A design
/// may be just a key (its fields declared from the rows as they are read); one that declares
/// its fields is validated here, its errors under `oldDoc` or `newDoc`.
#[cfg(feature = "rows")]
pub fn rekey_reading(
    old: &serde_json::Value,
    new: &serde_json::Value,
    cut: &RowsCut,
) -> Result<RekeyReading> {
    let cut_doc = cut_at_rows(new, cut).map_err(under("newDoc"))?;
    let docs = [for_rows("oldDoc", old)?, for_rows("newDoc", &cut_doc)?];
    let apart = crate::analyze::rows_shareable(&docs);
    Ok(RekeyReading {
        designs: [old.clone(), cut_doc],
        shared: apart.is_none(),
        apart,
    })
}

/// A design argument as a reading of rows takes it: read, and validated unless it is just a
/// key (whose fields the rows declare); an error's path under `name`.
#[cfg(feature = "rows")]
fn for_rows(name: &str, doc: &serde_json::Value) -> Result<DesignDocument> {
    let text = doc.to_string();
    let unchecked = DesignDocument::from_json_unchecked(&text).map_err(under(name))?;
    match unchecked.validate_in(&text) {
        Err(_) if !unchecked.undeclared_key_fields().is_empty() => Ok(unchecked),
        Err(e) => Err(under(name)(e)),
        Ok(()) => Ok(unchecked),
    }
}

/// An error in a document argument named `name`, its JSON pointer (`""`, `/regions`) put
/// under the argument's name (`newDoc`, `newDoc/regions`); another path (a cut's `regions`)
/// or none is left as it is.
pub fn under(name: &str) -> impl Fn(Error) -> Error + '_ {
    move |e| match e.location.path.clone() {
        Some(p) if p.is_empty() || p.starts_with('/') => e.at_path(format!("{name}{p}")),
        _ => e,
    }
}

/// What reading the rows found under one design: the design as read (its fields declared from
/// the rows where it was just a key), its report's figures, the rows' columns and whether its
/// split keys were cut at every row (not a uniform sample of them).
#[derive(Debug, Clone, PartialEq)]
pub struct RowsSide {
    /// The design the rows were read with.
    pub design: DesignDocument,
    /// Its report's figures.
    pub report: ReportFigures,
    /// The columns reading found.
    pub columns: Vec<String>,
    /// Its split keys are the rows' own cut (the reading's `splitKeys().exact`).
    pub split_keys_exact: bool,
}

/// The plan over the rows: [`RekeyPlan`]'s members and whether the new split keys were cut at
/// every row (`false`: at a uniform sample of a million rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowsRekeyPlan {
    /// The plan.
    #[serde(flatten)]
    pub plan: RekeyPlan,
    /// The new table's split keys are cut at every row.
    pub split_keys_exact: bool,
}

/// The plan for moving the rows from `old`'s table to `new`'s, from what one reading of them
/// found under each design (`new` read with the cut [`rekey_reading`] gives). A field of the
/// new key may come from any column either reading found (their union); `opts.columns` is
/// refused, the rows say which columns there are.
pub fn rekey_over_rows(
    old: &RowsSide,
    new: &RowsSide,
    opts: &RekeyOptions,
) -> Result<RowsRekeyPlan> {
    if opts.columns.is_some() {
        return Err(Error::arg(
            "options.columns",
            "a plan over the rows takes the rows' own columns; leave it out",
        ));
    }
    // the union in order, each once: a set, not a scan of the list per column (two readings
    // of 100,000 columns each took a minute)
    let mut columns = old.columns.clone();
    let mut seen: std::collections::HashSet<&str> =
        old.columns.iter().map(String::as_str).collect();
    for c in &new.columns {
        if seen.insert(c) {
            columns.push(c.clone());
        }
    }
    let opts = RekeyOptions {
        columns: Some(columns),
        ..opts.clone()
    };
    let plan = rekey_plan_from(&old.design, &new.design, &old.report, &new.report, &opts)?;
    Ok(RowsRekeyPlan {
        plan,
        split_keys_exact: new.split_keys_exact,
    })
}

/// The rows a rekey plan reads when the engine drives the reading ([`rekey_rows`]): a file the
/// engine reads itself ([`FileRows`]), or a binding's batches, taken again for each pass.
#[cfg(feature = "rows")]
pub trait RekeyRows {
    /// `doc` with the fields its key reads declared from the rows when it is just a key.
    fn fit(&mut self, doc: DesignDocument) -> Result<DesignDocument>;
    /// One pass over every row into `into`.
    fn pass(&mut self, into: &mut dyn RowsInto) -> Result<()>;
}

/// Where a pass of [`RekeyRows`] puts the rows: one design's session, or a shared reading.
#[cfg(feature = "rows")]
pub trait RowsInto {
    /// A batch of rows.
    fn push_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<u64>;
    /// Every row of a file the engine reads itself.
    fn read_file(&mut self, file: &mut std::fs::File, len: u64) -> Result<u64>;
    /// Rows pushed so far.
    fn done(&self) -> u64;
}

#[cfg(feature = "rows")]
impl RowsInto for crate::analyze::RowsSession {
    fn push_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<u64> {
        crate::analyze::RowsSession::push_batch(self, batch)
    }
    fn read_file(&mut self, file: &mut std::fs::File, len: u64) -> Result<u64> {
        crate::analyze::RowsSession::read_file(self, file, len)
    }
    fn done(&self) -> u64 {
        crate::analyze::RowsSession::done(self)
    }
}

#[cfg(feature = "rows")]
impl RowsInto for crate::analyze::SharedRows {
    fn push_batch(&mut self, batch: &arrow_array::RecordBatch) -> Result<u64> {
        crate::analyze::SharedRows::push_batch(self, batch)
    }
    fn read_file(&mut self, file: &mut std::fs::File, len: u64) -> Result<u64> {
        crate::analyze::SharedRows::read_file(self, file, len)
    }
    fn done(&self) -> u64 {
        crate::analyze::SharedRows::done(self)
    }
}

/// A file of rows the engine reads itself (CSV, JSON Lines, Parquet, Arrow IPC), as many
/// passes as the plan needs: memory holds a piece of it at a time.
#[cfg(feature = "rows")]
pub struct FileRows {
    /// The file.
    pub file: std::fs::File,
    /// Its length.
    pub len: u64,
    /// How its rows meet the designs (`name`: the file's, for its format and messages).
    pub rows: crate::rows::RowsOptions,
}

#[cfg(feature = "rows")]
impl FileRows {
    /// The file at `path` opened, its name the rows' (its format by extension, and messages);
    /// an error at `data` naming the path.
    pub fn open(path: &std::path::Path, mut rows: crate::rows::RowsOptions) -> Result<FileRows> {
        let io = |e: std::io::Error| Error::arg("data", format!("{}: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        rows.name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        Ok(FileRows { file, len, rows })
    }
}

#[cfg(feature = "rows")]
impl RekeyRows for FileRows {
    fn fit(&mut self, doc: DesignDocument) -> Result<DesignDocument> {
        crate::analyze::design_for_file(doc, &self.rows, &mut self.file, self.len)
    }
    fn pass(&mut self, into: &mut dyn RowsInto) -> Result<()> {
        into.read_file(&mut self.file, self.len).map(drop)
    }
}

/// The plan over the rows `input` gives, read with `rows` and analyzed with `analyze`: the
/// designs [`rekey_reading`] names, each fitted to the rows and validated, read once for both
/// when they can share a reading (each pass of the engine's `SharedRows` feeds both), else
/// each alone; then [`rekey_over_rows`]. `old` and `new` are design documents as JSON values.
#[cfg(feature = "rows")]
pub fn rekey_rows(
    old: &serde_json::Value,
    new: &serde_json::Value,
    cut: &RowsCut,
    input: &mut dyn RekeyRows,
    analyze: &crate::analyze::AnalyzeOptions,
    rows: &crate::rows::RowsOptions,
    opts: &RekeyOptions,
) -> Result<RowsRekeyPlan> {
    use crate::analyze::{RowsSession, SharedRows};
    let reading = rekey_reading(old, new, cut)?;
    let [a, b] = &reading.designs;
    let fitted = [fitted("oldDoc", a, input)?, fitted("newDoc", b, input)?];
    let sides = if crate::analyze::rows_shareable(&fitted).is_none() {
        let mut shared = SharedRows::new(fitted.to_vec(), analyze.clone(), rows.clone())?;
        two_passes(&mut shared, input, |s| Ok(s.end_scan()?.analyzed))?;
        shared.end()?;
        [side_of_shared(&shared, 0)?, side_of_shared(&shared, 1)?]
    } else {
        let [a, b] = fitted;
        let mut each = |doc: DesignDocument| -> Result<RowsSide> {
            let mut session = RowsSession::new(doc, analyze.clone(), rows.clone())?;
            two_passes(&mut session, input, |s| Ok(s.end_scan()?.analyzed))?;
            let stats = session.end()?;
            Ok(RowsSide {
                design: session.design().clone(),
                report: (&session.report()?).into(),
                columns: stats.columns.keys().cloned().collect(),
                split_keys_exact: session.split_keys()?.exact,
            })
        };
        [each(a)?, each(b)?]
    };
    rekey_over_rows(&sides[0], &sides[1], opts)
}

/// `doc` read for the rows, fitted to them and validated; errors under `name`.
#[cfg(feature = "rows")]
fn fitted(
    name: &str,
    doc: &serde_json::Value,
    input: &mut dyn RekeyRows,
) -> Result<DesignDocument> {
    let text = doc.to_string();
    let d = input.fit(for_rows(name, doc)?)?;
    d.validate_in(&text)
        .map_err(|e| match e.location.path.clone() {
            Some(p) => e.at_path(format!("{name}{p}")),
            None => e,
        })?;
    Ok(d)
}

/// The first pass over the rows, and the second when the first did not keep them (`scan_end`:
/// the session's `end_scan`, whether it analyzed the rows it kept).
#[cfg(feature = "rows")]
fn two_passes<S: RowsInto>(
    session: &mut S,
    input: &mut dyn RekeyRows,
    scan_end: impl Fn(&mut S) -> Result<bool>,
) -> Result<()> {
    input.pass(session)?;
    if !scan_end(session)? {
        input.pass(session)?;
    }
    Ok(())
}

/// Design `i`'s side of a shared reading, after its `end`.
#[cfg(feature = "rows")]
fn side_of_shared(shared: &crate::analyze::SharedRows, i: usize) -> Result<RowsSide> {
    Ok(RowsSide {
        design: shared.design(i)?.clone(),
        report: (&shared.report(i)?).into(),
        columns: shared
            .stats(i)
            .map(|s| s.columns.keys().cloned().collect())
            .unwrap_or_default(),
        split_keys_exact: shared.split_keys(i)?.exact,
    })
}
