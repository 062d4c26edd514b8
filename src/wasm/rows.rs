//! Your own rows across the boundary: a file read in chunks (or, for Parquet, by row group)
//! in two passes by the engine's [`crate::analyze::RowsSession`] (the Python binding drives
//! the same type). JS reads the file; the engine never sees a path.

use wasm_bindgen::prelude::*;

use super::analyze::report_js;
use super::analyze_opts;
use super::{bad_arg, bytes_arg, core, doc_arg, int_arg, js_error, to_js};
use crate::analyze::RowsSession as Session;
use crate::analyze::SharedRows as Shared;
use crate::design::DesignDocument;
use crate::error::Error;
use crate::rows::{ParquetFile, RowsOptions};

/// A user's rows analyzed in two passes over the file (the engine's
/// [`crate::analyze::RowsSession`]): `push(bytes)` (or `pushRowGroup`) through the whole file,
/// `endScan()`, the same again, `end()`, then `finish()` for the report. `new RowsSession(doc,
/// options, rows)`, `rows` as [`RowsOptions`] (`{format, name, map, time, nulls, epoch,
/// delimiter}`).
#[wasm_bindgen]
pub struct RowsSession {
    inner: Session,
}

pub(crate) fn rows_opts(v: &JsValue) -> Result<RowsOptions, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(RowsOptions::default());
    }
    let text = super::plain_json("rows", v)?;
    core(crate::calls::rows_options(Some(&text)))
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

/// `chunkKeptBytes(rows, bytes, total)`: the `keepBytes` of a session reading a chunk of
/// `bytes` of a file of `total` read in chunks at once (the chunks' shares of the rows' cap).
#[wasm_bindgen(js_name = chunkKeptBytes)]
pub fn chunk_kept_bytes(rows: JsValue, bytes: JsValue, total: JsValue) -> Result<f64, JsValue> {
    let rows = rows_opts(&rows)?;
    let bytes = int_arg("bytes", &bytes, 0, i64::MAX)?;
    let total = int_arg("total", &total, 0, i64::MAX)?;
    Ok(core(rows.chunk_kept_bytes(bytes as u64, total as u64))? as f64)
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
    let sample = sample_arg("sample", &sample, &rows)?;
    let (doc, inferred) = core(crate::rows::declare_from_file(
        unchecked,
        &rows,
        sample.sample(),
    ))?;
    core(doc.validate_in(&text))?;
    to_js(&serde_json::json!({"design": doc, "inferred": inferred}))
}

/// What a file says of its columns: `{head, whole}` (a CSV's, JSON Lines' or Arrow file's
/// first bytes; `whole`: the whole file) or `{footer, fileLength}` (a Parquet file's).
pub(crate) fn sample_arg(
    name: &str,
    sample: &JsValue,
    rows: &RowsOptions,
) -> Result<crate::rows::OwnedSample, JsValue> {
    if !sample.is_object() {
        return Err(bad_arg(
            name,
            "{head, whole} or {footer, fileLength}",
            sample,
        ));
    }
    let get = |k: &str| super::js::get(&format!("{name}.{k}"), sample, k);
    let footer = get("footer")?;
    if footer.is_undefined() {
        let head = bytes_arg(&format!("{name}.head"), &get("head")?)?;
        let whole = get("whole")?.as_bool().unwrap_or(false);
        return Ok(crate::rows::OwnedSample::Head(head, whole));
    }
    let footer = bytes_arg(&format!("{name}.footer"), &footer)?;
    let len = int_arg(
        &format!("{name}.fileLength"),
        &get("fileLength")?,
        0,
        i64::MAX,
    )?;
    let file = core(ParquetFile::from_footer(&footer, len as u64, rows))?;
    Ok(crate::rows::OwnedSample::Schema(file.schema().clone()))
}

#[wasm_bindgen]
impl RowsSession {
    /// `new RowsSession(doc, options, rows)`.
    #[wasm_bindgen(constructor)]
    pub fn new(doc: JsValue, options: JsValue, rows: JsValue) -> Result<RowsSession, JsValue> {
        let doc = doc_arg("doc", &doc)?;
        let options = analyze_opts(options)?;
        let rows = rows_opts(&rows)?;
        Ok(RowsSession {
            inner: core(Session::new(doc, options, rows))?,
        })
    }

    /// Keep every row's key as the first pass reads it, for `takeKeys()` (what `encode
    /// --records` prints); before the first bytes. With `digests`, each key is followed by its
    /// row's 16-byte digest: how `RekeyVerifier` reads a table's export.
    #[wasm_bindgen(js_name = keepKeys)]
    pub fn keep_keys(&mut self, digests: Option<bool>) -> Result<(), JsValue> {
        core(if digests == Some(true) {
            self.inner.keep_keys_with_digests()
        } else {
            self.inner.keep_keys()
        })
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
        core(self.inner.keep_row_sample(k))
    }

    /// The table's writes from these rows (`keepWriteSample()`, after `endScan()`).
    fn writes(&self) -> Result<crate::life::Writes<'_>, JsValue> {
        core(crate::life::Writes::of_session(&self.inner))
    }

    /// Keep an even sample of the rows' keys in write order (by the time column when the rows
    /// have one), for months of the table's life (`lifeMonths`, `lifeCompare` after
    /// `endScan()`), instead of the rows for the analysis; before the first bytes.
    #[wasm_bindgen(js_name = keepWriteSample)]
    pub fn keep_write_sample(&mut self) -> Result<(), JsValue> {
        core(self.inner.keep_write_sample())
    }

    /// `{report, settings, map}` as the library's `lifeMonths` gives it, with the table's writes
    /// from these rows (`keepWriteSample()`, after `endScan()`) instead of the design's
    /// generated workload.
    #[wasm_bindgen(js_name = lifeMonths)]
    pub fn life_months(&self, options: JsValue, on_month: JsValue) -> Result<JsValue, JsValue> {
        let options = super::life::life_options("options", &options)?;
        let mut hook = super::life::progress(&on_month)?;
        let writes = self.writes()?;
        to_js(&core(crate::life::months_of_writes(
            self.inner.design(),
            writes,
            &options,
            &mut hook,
        ))?)
    }

    /// `{ok, months, emptyRegions, regionsPerServer, breaches}` as `checkLife` gives it, with the
    /// table's writes from these rows (`keepWriteSample()`, after `endScan()`).
    #[wasm_bindgen(js_name = checkLife)]
    pub fn check_life(&self, options: JsValue, budgets: JsValue) -> Result<JsValue, JsValue> {
        let options = super::life::life_options("options", &options)?;
        let budgets = super::life::life_budgets("budgets", &budgets)?;
        let writes = self.writes()?;
        to_js(&core(crate::life::check_writes(
            self.inner.design(),
            writes,
            &options,
            &budgets,
        ))?)
    }

    /// `{a, b, figures, verdict}` as `lifeCompare` gives it, with the writes from these rows.
    #[wasm_bindgen(js_name = lifeCompare)]
    pub fn life_compare(
        &self,
        options: JsValue,
        other_options: JsValue,
        on_month: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (a, b) = super::life::two_options(&options, &other_options)?;
        let mut hook = super::life::progress(&on_month)?;
        let writes = self.writes()?;
        to_js(&core(crate::life::compare_writes(
            self.inner.design(),
            writes,
            &a,
            &b,
            &mut hook,
        ))?)
    }

    /// The row sample (`keepRowSample`) as bytes, for `adviseDesign(doc, options, rows)` and
    /// `evaluateCandidate`: after `endScan()`, once.
    #[wasm_bindgen(js_name = rowSample)]
    pub fn row_sample(&mut self) -> Result<js_sys::Uint8Array, JsValue> {
        Ok(js_sys::Uint8Array::from(
            core(self.inner.row_sample())?.as_slice(),
        ))
    }

    /// The keys of the rows the first pass read since the last call (`keepKeys()`):
    /// `{keys: Uint8Array, offsets: Uint32Array}` as `KeyCodec.encodeAll` gives them (row `i`'s
    /// key is `keys.subarray(offsets[i], offsets[i + 1])`); after `endScan()`, the last rows'.
    #[wasm_bindgen(js_name = takeKeys)]
    pub fn take_keys(&mut self) -> Result<JsValue, JsValue> {
        let (keys, offsets) = self.inner.take_keys();
        let out = js_sys::Object::new();
        js_sys::Reflect::set(&out, &"keys".into(), &js_sys::Uint8Array::from(&keys[..]))?;
        js_sys::Reflect::set(
            &out,
            &"offsets".into(),
            &js_sys::Uint32Array::from(&offsets[..]),
        )?;
        Ok(out.into())
    }

    /// The next bytes of the file (`Uint8Array`); the rows this pass has read so far.
    pub fn push(&mut self, bytes: JsValue) -> Result<f64, JsValue> {
        let bytes = bytes_arg("bytes", &bytes)?;
        Ok(core(self.inner.push(&bytes))? as f64)
    }

    /// A Parquet file by its footer (its last `footerLength(last8)` bytes) and length:
    /// `{rows, rowGroups: [[{start, length}, …], …], groupRows}`, the byte ranges each row group
    /// needs for the columns the key reads. Then `pushRowGroup` each, in order, in each pass.
    pub fn parquet(&mut self, footer: JsValue, file_len: JsValue) -> Result<JsValue, JsValue> {
        let footer = bytes_arg("footer", &footer)?;
        let len = int_arg("fileLength", &file_len, 0, i64::MAX)?;
        to_js(&core(self.inner.parquet(&footer, len as u64))?)
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
        let (i, parts, part) = row_group_args(index, offsets, chunks, rows)?;
        Ok(core(self.inner.push_row_group(i, parts, part))? as f64)
    }

    /// Whether the file may be read in chunks by other sessions (`chunk()`, `addChunk`): the
    /// first passes add up (no profile, no kept keys; a pre-split cut at the rows takes its
    /// keys from the rows kept) and keep the rows for the analysis.
    pub fn chunkable(&self) -> bool {
        self.inner.chunkable()
    }

    /// The first pass over this session's chunk of the file (the bytes pushed: a CSV's header
    /// line then a run of whole lines, a run of JSON lines, or row groups) as bytes, for the
    /// session that reads the whole file (`addChunk`). An error when the bytes do not end
    /// between rows (a cut inside a quoted field) or the rows pass the memory kept for them;
    /// the session is spent either way.
    pub fn chunk(&mut self) -> Result<js_sys::Uint8Array, JsValue> {
        Ok(js_sys::Uint8Array::from(&core(self.inner.chunk())?[..]))
    }

    /// Add the first pass of the next chunk of the file (another session's `chunk()`, in file
    /// order), before `endScan()`; no bytes are pushed to this session.
    #[wasm_bindgen(js_name = addChunk)]
    pub fn add_chunk(&mut self, chunk: JsValue) -> Result<(), JsValue> {
        let bytes = bytes_arg("chunk", &chunk)?;
        core(self.inner.add_chunk(bytes))
    }

    /// The end of the first pass: `{rows, firstMs, lastMs, outOfOrder, analyzed}`; the next
    /// pass analyzes (none when `analyzed`: the rows were counted from memory).
    #[wasm_bindgen(js_name = endScan)]
    pub fn end_scan(&mut self) -> Result<JsValue, JsValue> {
        to_js(&core(self.inner.end_scan())?)
    }

    /// The end of the analysis pass: what reading found (`{rows, used, skipped, columns,
    /// time, format}`).
    pub fn end(&mut self) -> Result<JsValue, JsValue> {
        to_js(&core(self.inner.end())?)
    }

    /// After `endScan()`: the design's pre-split keys cut at these rows (a `sampleQuantiles`
    /// pre-split without a sample is cut at every row's key up to a million rows, a uniform
    /// sample of rows beyond): `{keys: Uint8Array[], exact, rows}`, `exact` true when every
    /// row's key was counted.
    #[wasm_bindgen(js_name = splitKeys)]
    pub fn split_keys(&self) -> Result<JsValue, JsValue> {
        split_keys_js(core(self.inner.split_keys())?)
    }

    /// The profile of the rows (`rows.profile`), after `endScan()`: per field its rows,
    /// nulls, distinct values, heaviest values, range and order; per key its lengths and the
    /// distinct prefixes at each byte. `null` when not asked for.
    pub fn profile(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.profile())
    }

    /// The report over the rows analyzed.
    pub fn finish(&self) -> Result<JsValue, JsValue> {
        report_js(core(self.inner.report())?)
    }

    /// The rows analyzed checked against `budgets` (as `checkDesign` does).
    pub fn check(&self, budgets: JsValue) -> Result<JsValue, JsValue> {
        let b = super::policy::budgets_arg(budgets)?;
        to_js(&core(self.inner.check(&b))?)
    }
}

/// `rowsShareable(docs)`: why the designs `docs` cannot share one reading of a file's rows
/// (`SharedRowsSession`), or `null` when they can (the engine's [`crate::analyze::rows_shareable`]).
#[wasm_bindgen(js_name = rowsShareable)]
pub fn rows_shareable(docs: JsValue) -> Result<JsValue, JsValue> {
    let docs = docs_arg(&docs, super::doc_arg_for_rows)?;
    Ok(crate::analyze::rows_shareable(&docs).map_or(JsValue::NULL, |why| JsValue::from_str(&why)))
}

/// The design documents of the array `v`, each read by `read`.
fn docs_arg(
    v: &JsValue,
    read: fn(&str, &JsValue) -> Result<DesignDocument, JsValue>,
) -> Result<Vec<DesignDocument>, JsValue> {
    let items = super::js::items("docs", v, crate::analyze::MAX_SHARED_DESIGNS)?
        .ok_or_else(|| bad_arg("docs", "an array of design documents", v))?;
    items
        .iter()
        .enumerate()
        .map(|(i, d)| read(&format!("docs/{i}"), d))
        .collect()
}

/// One reading of a file of rows for several designs (the engine's [`Shared`]: the rekey
/// plan's old and new designs): driven as a `RowsSession` is (`push` or `parquet` and
/// `pushRowGroup`, `endScan()`, the same again unless it said `analyzed`, `end()`), then each
/// design's `finish(i)`, `splitKeys(i)` and `stats(i)`, the ones its own session gives.
#[wasm_bindgen]
pub struct SharedRowsSession {
    inner: Shared,
}

#[wasm_bindgen]
impl SharedRowsSession {
    /// `new SharedRowsSession(docs, options, rows)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        docs: JsValue,
        options: JsValue,
        rows: JsValue,
    ) -> Result<SharedRowsSession, JsValue> {
        let docs = docs_arg(&docs, super::doc_arg)?;
        let options = analyze_opts(options)?;
        let rows = rows_opts(&rows)?;
        Ok(SharedRowsSession {
            inner: core(Shared::new(docs, options, rows))?,
        })
    }

    /// The next bytes of the file (`Uint8Array`); the rows this pass has read so far.
    pub fn push(&mut self, bytes: JsValue) -> Result<f64, JsValue> {
        let bytes = bytes_arg("bytes", &bytes)?;
        Ok(core(self.inner.push(&bytes))? as f64)
    }

    /// A Parquet file by its footer and length, as `RowsSession.parquet` (the columns every
    /// design's key reads).
    pub fn parquet(&mut self, footer: JsValue, file_len: JsValue) -> Result<JsValue, JsValue> {
        let footer = bytes_arg("footer", &footer)?;
        let len = int_arg("fileLength", &file_len, 0, i64::MAX)?;
        to_js(&core(self.inner.parquet(&footer, len as u64))?)
    }

    /// Row group `index` of the Parquet file, as `RowsSession.pushRowGroup`.
    #[wasm_bindgen(js_name = pushRowGroup)]
    pub fn push_row_group(
        &mut self,
        index: JsValue,
        offsets: JsValue,
        chunks: JsValue,
        rows: JsValue,
    ) -> Result<f64, JsValue> {
        let (i, parts, part) = row_group_args(index, offsets, chunks, rows)?;
        Ok(core(self.inner.push_row_group(i, parts, part))? as f64)
    }

    /// Whether the file may be read in chunks by other readings of the same designs.
    pub fn chunkable(&self) -> bool {
        self.inner.chunkable()
    }

    /// The first pass over this reading's chunk, every design's, as bytes (`addChunk`).
    pub fn chunk(&mut self) -> Result<js_sys::Uint8Array, JsValue> {
        Ok(js_sys::Uint8Array::from(&core(self.inner.chunk())?[..]))
    }

    /// Add another reading's `chunk()` of the same designs, in file order, before `endScan()`.
    #[wasm_bindgen(js_name = addChunk)]
    pub fn add_chunk(&mut self, chunk: JsValue) -> Result<(), JsValue> {
        let bytes = bytes_arg("chunk", &chunk)?;
        core(self.inner.add_chunk(bytes))
    }

    /// The end of the first pass: design 0's summary, `analyzed` when every design's rows were
    /// counted from memory.
    #[wasm_bindgen(js_name = endScan)]
    pub fn end_scan(&mut self) -> Result<JsValue, JsValue> {
        to_js(&core(self.inner.end_scan())?)
    }

    /// The end of the analysis pass: what reading found for design 0.
    pub fn end(&mut self) -> Result<JsValue, JsValue> {
        to_js(&core(self.inner.end())?)
    }

    /// What reading found for design `i` (after `end()`; `null` before).
    pub fn stats(&self, i: JsValue) -> Result<JsValue, JsValue> {
        let i = design_index(&i)?;
        to_js(&self.inner.stats(i))
    }

    /// Design `i`'s split keys cut at these rows, as `RowsSession.splitKeys()`.
    #[wasm_bindgen(js_name = splitKeys)]
    pub fn split_keys(&self, i: JsValue) -> Result<JsValue, JsValue> {
        split_keys_js(core(self.inner.split_keys(design_index(&i)?))?)
    }

    /// Design `i`'s report over the rows analyzed.
    pub fn finish(&self, i: JsValue) -> Result<JsValue, JsValue> {
        report_js(core(self.inner.report(design_index(&i)?))?)
    }
}

/// A design's index in a shared reading: 0 when absent.
fn design_index(i: &JsValue) -> Result<usize, JsValue> {
    if i.is_undefined() {
        return Ok(0);
    }
    Ok(int_arg("design", i, 0, crate::analyze::MAX_SHARED_DESIGNS as i64)? as usize)
}

/// `splitKeys()`'s answer: `{keys: Uint8Array[], exact, rows}`.
fn split_keys_js(s: &crate::analyze::RowSplitKeys) -> Result<JsValue, JsValue> {
    let out = js_sys::Object::new();
    js_sys::Reflect::set(&out, &"keys".into(), &super::key_list(&s.keys))?;
    js_sys::Reflect::set(&out, &"exact".into(), &JsValue::from_bool(s.exact))?;
    js_sys::Reflect::set(&out, &"rows".into(), &JsValue::from_f64(s.rows as f64))?;
    Ok(out.into())
}

/// `pushRowGroup`'s arguments: the row group's index, its parts `(offset, bytes)`, and the run
/// of its rows `[skip, take]` when given.
#[allow(clippy::type_complexity)]
fn row_group_args(
    index: JsValue,
    offsets: JsValue,
    chunks: JsValue,
    rows: JsValue,
) -> Result<(usize, Vec<(u64, bytes::Bytes)>, Option<(u64, u64)>), JsValue> {
    let i = int_arg("index", &index, 0, i64::from(u32::MAX))? as usize;
    let part = if rows.is_undefined() || rows.is_null() {
        None
    } else {
        let r = numbers("rows", &rows, 2)
            .ok_or_else(|| bad_arg("rows", "[skip, take], two whole numbers", &rows))??;
        match r[..] {
            [skip, take]
                if [skip, take]
                    .iter()
                    .all(|v| v.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(v)) =>
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
    let parts: Vec<(u64, bytes::Bytes)> = offsets
        .iter()
        .zip(chunks)
        .map(|(o, c)| (*o as u64, bytes::Bytes::from(c)))
        .collect();
    Ok((i, parts, part))
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
