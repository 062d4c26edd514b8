//! Your own rows across the boundary: a file read in chunks (or, for Parquet, by row group)
//! in two passes — a scan for the rows' count and time span, then the analysis — by one
//! [`RowsSession`]. JS reads the file; the engine never sees a path.

use wasm_bindgen::prelude::*;

use super::analyze::report_js;
use super::analyze_opts;
use super::{bad_arg, bytes_arg, core, doc_arg, int_arg, js_error, json_text, to_js};
use crate::analyze::{row_fields, AnalysisRun, AnalyzeOptions, FirstPass};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind};
use crate::rows::{FieldList, ParquetFile, ParquetRows, RowReader, RowScan, RowStats, RowsOptions};

/// Which pass a session is in.
enum Pass {
    /// Counting the rows and their time span (and keeping them, while they fit, for the
    /// analysis to count from memory).
    Scan(Box<FirstPass>),
    /// Analyzing them.
    Analyze(Box<AnalysisRun>),
}

/// A user's rows analyzed in two passes over the file: `push(bytes)` (or `pushRowGroup`)
/// through the whole file, `endScan()`, the same again, `end()`, then `finish()` for the
/// report. `new RowsSession(doc, options, rows)`, `rows` as [`RowsOptions`] (`{format, name,
/// map, time, nulls, epoch, delimiter}`).
#[wasm_bindgen]
pub struct RowsSession {
    doc: DesignDocument,
    options: AnalyzeOptions,
    rows: RowsOptions,
    fields: FieldList,
    used: Vec<usize>,
    reader: RowReader,
    pass: Pass,
    parquet: Option<(ParquetFile, ParquetRows)>,
    stats: Option<RowStats>,
    /// The profile the first pass counted (`rows.profile`).
    profile: Option<crate::rows::profile::RowsProfile>,
    /// The pre-split keys cut at the rows, whether from every row, and the rows.
    split_keys: Option<(Vec<Vec<u8>>, bool, u64)>,
    /// The keys the scan had not handed over when it ended (`keepKeys`).
    last_keys: Option<(Vec<u8>, Vec<u32>)>,
    /// What the first pass's reading found, when the analysis counted the rows it kept (the
    /// file is not read again).
    replayed: Option<RowStats>,
    /// What reading the chunks added so far found (`addChunk`).
    chunk_stats: Option<RowStats>,
    /// The advisor's sample of the rows (`keepRowSample`), from `endScan()` on.
    row_sample: Option<crate::rows::RowSample>,
}

/// The end of the first pass: its summary, and whether the rows were analyzed from memory
/// (then `end()` follows at once: no second pass over the file).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ScanEnd {
    #[serde(flatten)]
    summary: crate::rows::ScanSummary,
    analyzed: bool,
}

fn rows_opts(v: &JsValue) -> Result<RowsOptions, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(RowsOptions::default());
    }
    let text = json_text("rows", v)?;
    serde_json::from_str(&text).map_err(|e| {
        js_error(
            &Error::new(ErrorKind::IllegalArgument, format!("rows options: {e}")).at_path("rows"),
        )
    })
}

/// `rowsFormat(rows, head)`: the format of a file whose first bytes are `head`, by the rules
/// the session reads it with (`rows.format`, the magic number, `rows.name`'s extension, the
/// first character): `"csv"`, `"jsonl"`, `"parquet"`, `"arrow"` or `"arrow-stream"`.
#[wasm_bindgen(js_name = rowsFormat)]
pub fn rows_format(rows: JsValue, head: JsValue) -> Result<String, JsValue> {
    let rows = rows_opts(&rows)?;
    let head = bytes_arg("head", &head)?;
    let f = core(crate::rows::Format::detect(
        rows.format,
        rows.name.as_deref(),
        &head,
    ))?;
    Ok(f.name().to_string())
}

/// `rowsColumns(rows, head)`: the column names of a CSV, JSON Lines or Arrow file whose first
/// bytes are `head` (a CSV's header, the first object's members, the schema), to map fields to
/// columns before reading; a Parquet file's are `RowsSession.parquetColumns(footer, length)`.
#[wasm_bindgen(js_name = rowsColumns)]
pub fn rows_columns(rows: JsValue, head: JsValue) -> Result<JsValue, JsValue> {
    let rows = rows_opts(&rows)?;
    let head = bytes_arg("head", &head)?;
    to_js(&core(crate::rows::columns(&rows, &head))?)
}

/// `rowsDesign(doc, rows, sample)`: `{design, inferred}`, the design with a declaration for
/// every field its key names and does not declare, typed from the file (a design may be just
/// a key), and those fields `[{field, column, type, basis}]`; a design that declares them all
/// comes back as it is, validated. `sample`: `{head, whole}`, a CSV's, JSON Lines' or Arrow
/// file's first bytes (`whole`: the whole file), or `{footer, fileLength}` for a Parquet file.
#[wasm_bindgen(js_name = rowsDesign)]
pub fn rows_design(doc: JsValue, rows: JsValue, sample: JsValue) -> Result<JsValue, JsValue> {
    let text = super::doc_text("doc", &doc)?;
    let unchecked = core(DesignDocument::from_json_unchecked(&text))?;
    let rows = rows_opts(&rows)?;
    let get = |k: &str| super::js::get(&format!("sample.{k}"), &sample, k);
    let footer = get("footer")?;
    let (doc, inferred) = if footer.is_undefined() {
        let head = bytes_arg("sample.head", &get("head")?)?;
        let whole = get("whole")?.as_bool().unwrap_or(false);
        core(crate::rows::declare_from_file(
            unchecked,
            &rows,
            crate::rows::FileSample::Head {
                bytes: &head,
                whole,
            },
        ))?
    } else {
        let footer = bytes_arg("sample.footer", &footer)?;
        let len = int_arg("sample.fileLength", &get("fileLength")?, 0, i64::MAX)?;
        let file = core(ParquetFile::from_footer(&footer, len as u64, &rows))?;
        core(crate::rows::declare_from_file(
            unchecked,
            &rows,
            crate::rows::FileSample::Schema(file.schema()),
        ))?
    };
    core(doc.validate_in(&text))?;
    to_js(&serde_json::json!({"design": doc, "inferred": inferred}))
}

#[wasm_bindgen]
impl RowsSession {
    /// `new RowsSession(doc, options, rows)`.
    #[wasm_bindgen(constructor)]
    pub fn new(doc: JsValue, options: JsValue, rows: JsValue) -> Result<RowsSession, JsValue> {
        let doc = doc_arg("doc", &doc)?;
        let options = analyze_opts(options)?;
        let rows = rows_opts(&rows)?;
        core(doc.validate())?;
        let (fields, used) = core(row_fields(&doc))?;
        let key = core(crate::keyspec::CompiledKey::new(
            &doc.key,
            &doc.key_fields(),
        ))?;
        let mut scan = RowScan::new(Some(key));
        if crate::analyze::needs_row_sample(&doc) {
            scan = scan.with_sample();
        }
        if rows.profile {
            scan = scan.with_profile(&fields);
        }
        let first = core(FirstPass::new(&doc, scan, core(rows.kept_bytes())?))?;
        Ok(RowsSession {
            reader: RowReader::new(fields.clone(), used.clone(), rows.clone()),
            pass: Pass::Scan(Box::new(first)),
            doc,
            options,
            rows,
            fields,
            used,
            parquet: None,
            stats: None,
            profile: None,
            split_keys: None,
            last_keys: None,
            replayed: None,
            chunk_stats: None,
            row_sample: None,
        })
    }

    /// Keep every row's key as the first pass reads it, for `takeKeys()` (what `encode
    /// --records` prints); before the first bytes.
    #[wasm_bindgen(js_name = keepKeys)]
    pub fn keep_keys(&mut self) -> Result<(), JsValue> {
        match &mut self.pass {
            Pass::Scan(first) if first.scan.summary.rows == 0 => {
                let fresh = std::mem::take(&mut first.scan);
                first.scan = fresh.with_keys();
                first.keep_none();
                Ok(())
            }
            _ => Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "keepKeys() comes before the first rows",
            ))),
        }
    }

    /// Keep a sample of `rows` rows' values (every field of the design the file has: the
    /// rows with the smallest hashes of their content, in file order) for the advisor, instead
    /// of the rows for the analysis; before the first bytes. `rowSample()` after `endScan()`.
    /// `rows` absent: the advisor's default records.
    #[wasm_bindgen(js_name = keepRowSample)]
    pub fn keep_row_sample(&mut self, rows: JsValue) -> Result<(), JsValue> {
        let k = if rows.is_undefined() || rows.is_null() {
            crate::advise::DEFAULT_RECORDS.min(crate::rows::MAX_SAMPLE_ROWS)
        } else {
            // the engine's own bound and message (RowSampler::new), naming its limit
            int_arg("rows", &rows, 0, 1 << 53)? as u64
        };
        match &mut self.pass {
            Pass::Scan(first) if first.scan.summary.rows == 0 => {
                let fresh = std::mem::take(&mut first.scan);
                first.scan = core(fresh.with_row_sample(&self.fields, k))?;
                first.keep_none();
                Ok(())
            }
            _ => Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "keepRowSample() comes before the first rows",
            ))),
        }
    }

    /// The row sample (`keepRowSample`) as bytes, for `adviseDesign(doc, options, rows)` and
    /// `evaluateCandidate`: after `endScan()`, once.
    #[wasm_bindgen(js_name = rowSample)]
    pub fn row_sample(&mut self) -> Result<js_sys::Uint8Array, JsValue> {
        let s = self.row_sample.take().ok_or_else(|| {
            js_error(&Error::new(
                ErrorKind::IllegalState,
                "no row sample: keepRowSample() before the first rows, rowSample() after endScan(), once",
            ))
        })?;
        Ok(js_sys::Uint8Array::from(core(s.to_bytes())?.as_slice()))
    }

    /// The keys of the rows the first pass read since the last call (`keepKeys()`):
    /// `{keys: Uint8Array, offsets: Uint32Array}` as `KeyCodec.encodeAll` gives them (row `i`'s
    /// key is `keys.subarray(offsets[i], offsets[i + 1])`); after `endScan()`, the last rows'.
    #[wasm_bindgen(js_name = takeKeys)]
    pub fn take_keys(&mut self) -> Result<JsValue, JsValue> {
        let (keys, offsets) = match &mut self.pass {
            Pass::Scan(first) => first.scan.take_keys(),
            Pass::Analyze(_) => self
                .last_keys
                .take()
                .unwrap_or_else(|| (Vec::new(), vec![0])),
        };
        let out = js_sys::Object::new();
        js_sys::Reflect::set(&out, &"keys".into(), &js_sys::Uint8Array::from(&keys[..]))?;
        js_sys::Reflect::set(
            &out,
            &"offsets".into(),
            &js_sys::Uint32Array::from(&offsets[..]),
        )?;
        Ok(out.into())
    }

    /// The pass rows go to now: an error after an analysis from memory (the rows are counted).
    fn reading(&self) -> Result<(), JsValue> {
        match self.replayed {
            Some(_) => Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "the rows were analyzed from memory at endScan() (it said `analyzed: true`): call end(), not push",
            ))),
            None => Ok(()),
        }
    }

    fn sink(&mut self) -> &mut dyn crate::rows::RowSink {
        match &mut self.pass {
            Pass::Scan(s) => s.as_mut(),
            Pass::Analyze(r) => r.as_mut(),
        }
    }

    /// The next bytes of the file (`Uint8Array`); the rows this pass has read so far.
    pub fn push(&mut self, bytes: JsValue) -> Result<f64, JsValue> {
        self.reading()?;
        let bytes = bytes_arg("bytes", &bytes)?;
        let mut reader = std::mem::replace(
            &mut self.reader,
            RowReader::new(Vec::new(), Vec::new(), RowsOptions::default()),
        );
        let r = reader.push(&bytes, self.sink());
        self.reader = reader;
        core(r)?;
        Ok(self.done() as f64)
    }

    fn done(&self) -> u64 {
        match &self.pass {
            Pass::Scan(s) => s.scan.summary.rows,
            Pass::Analyze(r) => r.progress().done,
        }
    }

    /// A Parquet file by its footer (its last `footerLength(last8)` bytes) and length:
    /// `{rows, rowGroups: [[{start, length}, …], …]}`, the byte ranges each row group needs
    /// for the columns the key reads. Then `pushRowGroup` each, in order, in each pass.
    pub fn parquet(&mut self, footer: JsValue, file_len: JsValue) -> Result<JsValue, JsValue> {
        let footer = bytes_arg("footer", &footer)?;
        let len = int_arg("fileLength", &file_len, 0, i64::MAX)?;
        let file = core(ParquetFile::from_footer(&footer, len as u64, &self.rows))?;
        let mut groups = Vec::with_capacity(file.row_groups());
        for i in 0..file.row_groups() {
            groups.push(core(file.row_group_ranges(
                i,
                &self.fields,
                &self.used,
                &self.rows,
            ))?);
        }
        let reader = core(file.reader(&self.fields, &self.used, &self.rows))?;
        let group_rows: Vec<u64> = (0..file.row_groups()).map(|i| file.group_rows(i)).collect();
        let out =
            serde_json::json!({"rows": file.rows(), "rowGroups": groups, "groupRows": group_rows});
        self.parquet = Some((file, reader));
        to_js(&out)
    }

    /// Bytes of footer a Parquet file ends with, from its last 8 bytes.
    #[wasm_bindgen(js_name = footerLength)]
    pub fn footer_length(last8: JsValue) -> Result<f64, JsValue> {
        let b = bytes_arg("last8", &last8)?;
        Ok(core(ParquetFile::footer_len(&b))? as f64)
    }

    /// The column names of a Parquet file, from its footer and length (as `parquet` takes them).
    #[wasm_bindgen(js_name = parquetColumns)]
    pub fn parquet_columns(
        footer: JsValue,
        file_len: JsValue,
        rows: JsValue,
    ) -> Result<JsValue, JsValue> {
        let footer = bytes_arg("footer", &footer)?;
        let len = int_arg("fileLength", &file_len, 0, i64::MAX)?;
        let rows = rows_opts(&rows)?;
        let file = core(ParquetFile::from_footer(&footer, len as u64, &rows))?;
        to_js(&file.columns())
    }

    /// Row group `index` of the Parquet file: `offsets[i]` is where `chunks[i]` starts in the
    /// file (the ranges `parquet` gave); `rows` (optional), `[skip, take]`: only those of its
    /// rows (a large row group shared by readers, each taking a run of its rows in order).
    #[wasm_bindgen(js_name = pushRowGroup)]
    pub fn push_row_group(
        &mut self,
        index: JsValue,
        offsets: JsValue,
        chunks: JsValue,
        rows: JsValue,
    ) -> Result<f64, JsValue> {
        self.reading()?;
        let i = int_arg("index", &index, 0, i64::from(u32::MAX))? as usize;
        let part = if rows.is_undefined() || rows.is_null() {
            None
        } else {
            let r = numbers("rows", &rows, 2)
                .ok_or_else(|| bad_arg("rows", "[skip, take], two whole numbers", &rows))??;
            match r[..] {
                [skip, take]
                    if [skip, take].iter().all(|v| {
                        v.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(v)
                    }) =>
                {
                    Some((skip as u64, take as u64))
                }
                _ => return Err(bad_arg("rows", "[skip, take], two whole numbers", &rows)),
            }
        };
        let offsets = numbers("offsets", &offsets, crate::limits::MAX_LIST_ITEMS)
            .ok_or_else(|| bad_arg("offsets", "an array of numbers", &JsValue::UNDEFINED))??;
        let chunks = super::bytes_list_arg("chunks", &chunks)?;
        if offsets.len() != chunks.len() {
            return Err(js_error(&Error::arg("offsets", "one offset per chunk")));
        }
        let parts = offsets
            .iter()
            .zip(chunks)
            .map(|(o, c)| (*o as u64, bytes::Bytes::from(c)))
            .collect();
        let Some((file, mut reader)) = self.parquet.take() else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "call parquet(footer, fileLength) first",
            )));
        };
        let r = reader.group(i, parts, part, self.sink());
        self.parquet = Some((file, reader));
        core(r)?;
        Ok(self.done() as f64)
    }

    /// Whether the file may be read in chunks by other sessions (`chunk()`, `addChunk`): the
    /// first passes add up (no profile, no kept keys; a pre-split cut at the rows takes its
    /// keys from the rows kept) and keep the rows for the analysis.
    pub fn chunkable(&self) -> bool {
        // a key that numbers names in the order rows arrive (`uid(f, W)` without a table)
        // reads the file in one pass: a chunk read apart would number from 1
        !crate::keyspec::opentsdb::numbers_in_order(&self.doc.key.segments)
            && matches!(&self.pass, Pass::Scan(f) if f.scan.adds_up() && f.kept() && self.chunk_stats.is_none() && f.scan.summary.rows == 0)
    }

    /// The first pass over this session's chunk of the file (the bytes pushed: a CSV's header
    /// line then a run of whole lines, a run of JSON lines, or row groups) as bytes, for the
    /// session that reads the whole file (`addChunk`). An error when the bytes do not end
    /// between rows (a cut inside a quoted field) or the rows pass the memory kept for them;
    /// the session is spent either way.
    pub fn chunk(&mut self) -> Result<js_sys::Uint8Array, JsValue> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "chunk() ends a first pass",
            )));
        };
        let stats = if let Some((_, reader)) = self.parquet.take() {
            reader.finish()
        } else {
            if !self.reader.at_row_end() {
                return Err(js_error(&Error::new(
                    ErrorKind::Invalid,
                    "the chunk does not end between rows (a line end inside a quoted field?): read the file in one pass",
                ).at_path("chunk")));
            }
            core(self.reader.finish(first.as_mut()))?
        };
        let bytes = core(first.chunk_bytes(&self.doc, &stats))?;
        Ok(js_sys::Uint8Array::from(&bytes[..]))
    }

    /// Add the first pass of the next chunk of the file (another session's `chunk()`, in file
    /// order), before `endScan()`; no bytes are pushed to this session.
    #[wasm_bindgen(js_name = addChunk)]
    pub fn add_chunk(&mut self, chunk: JsValue) -> Result<(), JsValue> {
        let bytes = bytes_arg("chunk", &chunk)?;
        let Pass::Scan(first) = &mut self.pass else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "addChunk() comes before endScan()",
            )));
        };
        let stats = core(first.append_chunk(&self.doc, bytes))?;
        match &mut self.chunk_stats {
            Some(all) => all.merge(&stats),
            none => *none = Some(stats),
        }
        Ok(())
    }

    /// The end of the first pass: `{rows, firstMs, lastMs, outOfOrder}`; the next pass
    /// analyzes.
    #[wasm_bindgen(js_name = endScan)]
    pub fn end_scan(&mut self) -> Result<JsValue, JsValue> {
        let Pass::Scan(first) = &mut self.pass else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "the scan has ended",
            )));
        };
        let stats = if let Some(stats) = self.chunk_stats.take() {
            stats
        } else if let Some((file, reader)) = self.parquet.take() {
            let stats = reader.finish();
            // The analysis pass reads the row groups again.
            let again = core(file.reader(&self.fields, &self.used, &self.rows))?;
            self.parquet = Some((file, again));
            stats
        } else {
            core(self.reader.finish(first.as_mut()))?
        };
        self.profile = first.scan.profile(&stats);
        self.last_keys = Some(first.scan.take_keys());
        self.row_sample = first.scan.take_row_sample();
        let fitted = crate::analyze::fit_to_first(&self.doc, first);
        let keys = core(fitted.presplit_keys(&[]))?;
        let summary = first.scan.summary;
        // Exact: cut at every row's key (the scan's sample holds every row's up to
        // SAMPLE_KEYS rows; the kept rows, every row's beyond).
        // Kept rows cut by rows only (fit_to_first); a cut by bytes beyond the sample is the
        // sample's.
        let by_rows = !matches!(
            self.doc.regions.as_ref().map(|l| &l.presplit),
            Some(crate::region::PreSplit::SampleQuantiles {
                by: crate::region::SplitBy::Bytes,
                ..
            })
        );
        let exact = !crate::analyze::needs_row_sample(&self.doc)
            || summary.rows <= crate::rows::SAMPLE_KEYS as u64
            || (first.kept() && by_rows);
        self.split_keys = Some((keys, exact, summary.rows));
        if summary.rows == 0 {
            return Err(js_error(&Error::new(
                ErrorKind::Invalid,
                "no rows to analyze",
            )));
        }
        let mut run = core(AnalysisRun::for_first_pass(&self.doc, &self.options, first))?;
        let analyzed = core(run.replay(first))?;
        if analyzed {
            self.replayed = Some(stats);
        }
        self.pass = Pass::Analyze(Box::new(run));
        self.reader = RowReader::new(self.fields.clone(), self.used.clone(), self.rows.clone());
        to_js(&ScanEnd { summary, analyzed })
    }

    /// The end of the analysis pass: what reading found (`{rows, used, skipped, columns,
    /// time, format}`).
    pub fn end(&mut self) -> Result<JsValue, JsValue> {
        let Pass::Analyze(run) = &mut self.pass else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "call endScan() after the first pass",
            )));
        };
        let stats = match (self.replayed.take(), self.parquet.take()) {
            (Some(stats), _) => stats,
            (None, Some((_, reader))) => reader.finish(),
            (None, None) => core(self.reader.finish(run.as_mut()))?,
        };
        self.stats = Some(stats.clone());
        to_js(&stats)
    }

    /// After `endScan()`: the design's pre-split keys cut at these rows (a `sampleQuantiles`
    /// pre-split without a sample is cut at every row's key up to a million rows, a uniform
    /// sample of rows beyond): `{keys: Uint8Array[], exact, rows}`, `exact` true when every
    /// row's key was counted.
    #[wasm_bindgen(js_name = splitKeys)]
    pub fn split_keys(&self) -> Result<JsValue, JsValue> {
        let Some((keys, exact, rows)) = &self.split_keys else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "call endScan() first",
            )));
        };
        let out = js_sys::Object::new();
        js_sys::Reflect::set(&out, &"keys".into(), &super::key_list(keys))?;
        js_sys::Reflect::set(&out, &"exact".into(), &JsValue::from_bool(*exact))?;
        js_sys::Reflect::set(&out, &"rows".into(), &JsValue::from_f64(*rows as f64))?;
        Ok(out.into())
    }

    /// The profile of the rows (`rows.profile`), after `endScan()`: per field its rows,
    /// nulls, distinct values, heaviest values, range and order; per key its lengths and the
    /// distinct prefixes at each byte. `null` when not asked for.
    pub fn profile(&self) -> Result<JsValue, JsValue> {
        to_js(&self.profile)
    }

    /// The report over the rows analyzed.
    pub fn finish(&self) -> Result<JsValue, JsValue> {
        match &self.pass {
            Pass::Analyze(run) => report_js(run.finish()),
            Pass::Scan(_) => Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "the rows have not been analyzed yet",
            ))),
        }
    }

    /// The rows analyzed checked against `budgets` (as `checkDesign` does).
    pub fn check(&self, budgets: JsValue) -> Result<JsValue, JsValue> {
        let Pass::Analyze(run) = &self.pass else {
            return Err(js_error(&Error::new(
                ErrorKind::IllegalState,
                "the rows have not been analyzed yet",
            )));
        };
        let b = super::policy::budgets_arg(budgets)?;
        let report = run.finish();
        to_js(&core(crate::analyze::check::check_report(
            &self.doc, &report, &b,
        ))?)
    }
}

/// An array of at most `max` numbers, read under `catch`: `None` when `v` is not an array of
/// numbers, `Some(Err)` when reading it threw or it is too long.
fn numbers(name: &str, v: &JsValue, max: usize) -> Option<Result<Vec<f64>, JsValue>> {
    match super::js::items(name, v, max) {
        Err(e) => Some(Err(e)),
        Ok(None) => None,
        Ok(Some(items)) => items
            .iter()
            .map(JsValue::as_f64)
            .collect::<Option<Vec<f64>>>()
            .map(Ok),
    }
}
