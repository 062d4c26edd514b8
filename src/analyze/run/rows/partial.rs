//! A user's rows analyzed in chunks counted apart — a Spark job's partitions, a Python loop's
//! tables — and merged into the report one pass over the whole table gives, byte for byte.
//!
//! Two passes, as over a file: each chunk's first pass ([`scan_batches`]) is merged
//! ([`ScanSummary::merge`]) into the table's row count and time span, which set the run's time
//! axis; then each chunk is counted from its first row's position in the table
//! ([`partial_of_batches`]), so positions (the key sample's priorities, the workload clock of
//! rows without a time column) are those of one pass over the chunks in order. The partials
//! merge in any order and any tree ([`merge_partials`], [`report_of_partials`]) into one
//! pass's report, byte for byte, while the rows are counted exactly (up to
//! [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS) distinct rows); past that cap every
//! figure but the largest rows still is, and the largest rows are the chunks' sketches merged,
//! estimates within their stated bounds (`Analyzer::absorb_rows`).
//!
//! A partial travels as bytes: [`PARTIAL_MAGIC`], [`PARTIAL_VERSION`] (little-endian u16), the
//! hash of the design (little-endian u64), the postcard body, then a checksum of all that
//! (`seal.rs`). A partial of another design, format version or table summary, or whose
//! checksum does not match (a byte changed on its way), is refused before anything is added.

use serde::{Deserialize, Serialize};

use super::super::*;
use super::RowsAnalysis;
use crate::analyze::analyzer::PartialAnalysis;
use crate::rows::{RowScan, RowStats, RowsOptions, ScanSummary};
use arrow_array::RecordBatch;

/// The first bytes of a partial analysis of rows.
pub const PARTIAL_MAGIC: [u8; 4] = crate::support::magic::PARTIAL;
/// The format version of a partial analysis of rows: a partial of another version is refused.
pub const PARTIAL_VERSION: u16 = 3;

const HEADER: usize = 4 + 2 + 8;

/// What a partial holds beyond its header.
#[derive(Serialize, Deserialize)]
struct Body {
    /// The design (its JSON text) and options, so a merge needs nothing else.
    design: String,
    options: String,
    /// The whole table's first pass: its rows and time span.
    table: ScanSummary,
    /// The table's rows counted, as sorted disjoint `[first, end)` ranges.
    ranges: Vec<(u64, u64)>,
    stats: RowStats,
    analysis: PartialAnalysis,
    /// Each global Phoenix index's table counted from the same rows, in the design's order.
    indexes: Vec<PartialAnalysis>,
}

/// A hash of the design document (its JSON form): partials of another design are refused.
pub fn design_hash(doc: &DesignDocument) -> u64 {
    serde_json::to_vec(doc)
        .map(|b| xxhash_rust::xxh3::xxh3_64(&b))
        .unwrap_or(0)
}

/// A hash of what a chunk's counts depend on besides its rows: the design, the options and
/// the table's count and time span.
fn run_hash(doc: &DesignDocument, opts: &AnalyzeOptions, table: &ScanSummary) -> u64 {
    serde_json::to_vec(&(doc, opts, table.rows, table.first_ms, table.last_ms))
        .map(|b| xxhash_rust::xxh3::xxh3_64(&b))
        .unwrap_or(0)
}

fn no_sample_cut(doc: &DesignDocument) -> Result<()> {
    if needs_row_sample(doc) {
        return Err(Error::new(
            ErrorKind::Invalid,
            "a sampleQuantiles pre-split without a sample is cut at every row's key, which chunks counted apart do not see: compute the split points first and give them as the design's pre-split",
        )
        .at_path("/regions/presplit"));
    }
    Ok(())
}

/// The first pass over one chunk of a table's rows: its count and time span, to be merged
/// with the other chunks' ([`ScanSummary::merge`]) into the table's.
pub fn scan_batches(
    doc: &DesignDocument,
    rows: &RowsOptions,
    batches: &[RecordBatch],
) -> Result<ScanSummary> {
    no_sample_cut(doc)?;
    let (fields, used, readers) = super::indexes::analysis_fields(doc)?;
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let mut scan = RowScan::new(Some(key));
    // the rows the partials will count: those every index keys too
    let mut sink = super::indexes::KeyedByIndexes {
        keyer: super::indexes::IndexKeyer::new(doc)?,
        sink: &mut scan,
    };
    crate::rows::batch_rows(batches, &fields, &used, rows, &mut sink)
        .map_err(|e| super::indexes::readers_error(&readers, e))?;
    Ok(scan.summary)
}

/// The run a chunk of `table` starting at row `first_row` is counted in (`first_row` 0 and
/// nothing counted: the run partials are merged into).
fn chunk_run(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    table: &ScanSummary,
    first_row: u64,
) -> Result<AnalysisRun> {
    no_sample_cut(doc)?;
    // A key that numbers names in the order rows arrive (`uid(f, W)` without a table) gives
    // each row the number of the names before it in the whole table: a chunk counted apart
    // would number from 1, and the merged report would differ from one pass's.
    if first_row > 0 && crate::keyspec::opentsdb::numbers_in_order(&doc.key.segments) {
        return Err(Error::new(
            ErrorKind::Invalid,
            "the key numbers names in the order rows arrive (uid(f, W) without a table): its rows are counted in one pass, not in chunks; give the uid a table of names, or analyze the rows in one pass",
        )
        .at_path("key"));
    }
    if table.rows == 0 {
        return Err(Error::new(ErrorKind::Invalid, "no rows to analyze"));
    }
    let mut run = AnalysisRun::for_rows_summary(doc, opts, table)?;
    run.analyzer.start_at_row(first_row)?;
    run.done = first_row;
    run.fingerprint = Some(run_hash(doc, opts, table));
    run.indexes = super::indexes::IndexRuns::new(doc, opts, table, true)?;
    if let Some(ix) = run.indexes.as_mut() {
        ix.start_at_row(first_row)?;
    }
    Ok(run)
}

fn write_err(e: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::IllegalState,
        format!("the partial analysis could not be written: {e}"),
    )
}

/// A partial's bytes: the header, then the body.
fn to_bytes(doc: &DesignDocument, body: &Body) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(HEADER + 1024);
    out.extend_from_slice(&PARTIAL_MAGIC);
    out.extend_from_slice(&PARTIAL_VERSION.to_le_bytes());
    out.extend_from_slice(&design_hash(doc).to_le_bytes());
    postcard::to_extend(body, out)
        .map(super::super::seal::seal)
        .map_err(write_err)
}

fn encode(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    table: ScanSummary,
    ranges: Vec<(u64, u64)>,
    stats: RowStats,
    run: &AnalysisRun,
) -> Result<Vec<u8>> {
    let body = Body {
        design: serde_json::to_string(doc).map_err(write_err)?,
        options: serde_json::to_string(opts).map_err(write_err)?,
        table,
        ranges,
        stats,
        analysis: run.analyzer.partial(run.fingerprint.unwrap_or(0))?,
        indexes: match &run.indexes {
            Some(ix) => ix.partials(run.fingerprint.unwrap_or(0))?,
            None => Vec::new(),
        },
    };
    to_bytes(doc, &body)
}

/// Count one chunk of a table's rows: `table` is the merge of every chunk's
/// [`scan_batches`], `first_row` the number of rows (used, as the scans count them) of the
/// chunks before this one. Returns the partial's bytes.
pub fn partial_of_batches(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    batches: &[RecordBatch],
    table: &ScanSummary,
    first_row: u64,
) -> Result<Vec<u8>> {
    partial_counting(doc, opts, rows, batches, (table, first_row), true)
}

/// [`partial_of_batches`] for a table whose rows are recounted exactly elsewhere
/// ([`report_of_partials_recounted`]): without the exact
/// counts of each row, which the recount replaces (past a few thousand distinct rows they are
/// most of a partial's bytes and of its merge's time). Merged without a recount, such
/// partials give the sketches' largest rows and distinct rows, marked as estimates.
pub fn partial_of_batches_to_recount(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    batches: &[RecordBatch],
    table: &ScanSummary,
    first_row: u64,
) -> Result<Vec<u8>> {
    partial_counting(doc, opts, rows, batches, (table, first_row), false)
}

fn partial_counting(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    batches: &[RecordBatch],
    at: (&ScanSummary, u64),
    exact: bool,
) -> Result<Vec<u8>> {
    let Some(first) = batches.first() else {
        return Err(Error::new(ErrorKind::Invalid, "no record batches"));
    };
    let stream = batches.iter().map(|b| Ok(b.clone()));
    partial_of_stream(doc, opts, rows, (&first.schema(), stream), at, exact)
}

/// [`partial_of_batches`] (`exact`) or [`partial_of_batches_to_recount`] over batches as a
/// stream hands them over, each counted before the next is read (a Spark task's batches:
/// memory holds one batch, not the partition). `schema` is the stream's.
pub fn partial_of_stream(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    stream: (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<RecordBatch>>,
    ),
    at: (&ScanSummary, u64),
    exact: bool,
) -> Result<Vec<u8>> {
    count_chunk(doc, opts, rows, stream, at, exact, None)
}

/// [`partial_of_batches_to_recount`] over a stream, and every row's key (end to end, with
/// `rows + 1` offsets from 0) for the recount: one read of the rows gives both, where a recount
/// would otherwise encode every row again in a pass of its own.
pub fn partial_and_keys_of_stream(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    stream: (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<RecordBatch>>,
    ),
    at: (&ScanSummary, u64),
) -> Result<(Vec<u8>, Vec<u8>, Vec<u32>)> {
    let mut keys = (Vec::new(), vec![0]);
    let part = count_chunk(doc, opts, rows, stream, at, false, Some(&mut keys))?;
    Ok((part, keys.0, keys.1))
}

/// A chunk's run as a sink that refuses the first row past the table's rows (the run's own
/// count: a row `nulls: skip` leaves out is not one).
struct UpTo<'a, S> {
    sink: &'a mut S,
    table: u64,
    first_row: u64,
}

/// The rows a sink's run has counted.
trait Counted {
    fn counted(&self) -> u64;
}

impl Counted for AnalysisRun {
    fn counted(&self) -> u64 {
        self.done
    }
}

impl Counted for KeepKeys<'_> {
    fn counted(&self) -> u64 {
        self.run.done
    }
}

impl<'a, S: crate::rows::RowSink + Counted> UpTo<'a, S> {
    fn new(sink: &'a mut S, table: &ScanSummary, first_row: u64) -> Self {
        UpTo {
            sink,
            table: table.rows,
            first_row,
        }
    }
}

impl<S: crate::rows::RowSink + Counted> crate::rows::RowSink for UpTo<'_, S> {
    fn row(&mut self, values: &[crate::keyspec::FieldValue], time_ms: Option<i64>) -> Result<()> {
        self.sink.row(values, time_ms)?;
        if self.sink.counted() > self.table {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "this chunk's rows from {} go on past the table's {} rows: its scan is not part of the table's (or the stream does not end)",
                    self.first_row, self.table
                ),
            ));
        }
        Ok(())
    }
}

/// A run that also keeps each row's key as it counts it.
struct KeepKeys<'a> {
    run: &'a mut AnalysisRun,
    keys: &'a mut (Vec<u8>, Vec<u32>),
}

impl crate::rows::RowSink for KeepKeys<'_> {
    fn row(&mut self, values: &[crate::keyspec::FieldValue], time_ms: Option<i64>) -> Result<()> {
        self.run.row(values, time_ms)?;
        // a design with global indexes: every table's key, each tagged with its table
        if let Some(ix) = self.run.indexes.as_ref().filter(|ix| ix.len() > 0) {
            return ix.push_tagged_keys(&self.run.key, self.keys);
        }
        let (bytes, ends) = &mut *self.keys;
        bytes.extend_from_slice(&self.run.key);
        super::indexes::end_key(bytes, ends)
    }
}

fn count_chunk(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &RowsOptions,
    (schema, batches): (
        &arrow_schema::Schema,
        impl IntoIterator<Item = Result<RecordBatch>>,
    ),
    (table, first_row): (&ScanSummary, u64),
    exact: bool,
    keys: Option<&mut (Vec<u8>, Vec<u32>)>,
) -> Result<Vec<u8>> {
    let (fields, used, readers) = super::indexes::analysis_fields(doc)?;
    let mut run = chunk_run(doc, opts, table, first_row)?;
    if !exact {
        run.analyzer.stop_counting_rows_exactly();
        if let Some(ix) = run.indexes.as_mut() {
            ix.stop_counting_rows_exactly();
        }
    }
    // The chunk holds the table's rows from `first_row` on, no more: a stream that goes on
    // past them (an endless reader) is stopped at the first row too many.
    let stats = match keys {
        Some(keys) => {
            let mut sink = KeepKeys {
                run: &mut run,
                keys,
            };
            let mut sink = UpTo::new(&mut sink, table, first_row);
            crate::rows::stream_rows(schema, batches, &fields, &used, rows, &mut sink)
        }
        None => {
            let mut sink = UpTo::new(&mut run, table, first_row);
            crate::rows::stream_rows(schema, batches, &fields, &used, rows, &mut sink)
        }
    }
    .map_err(|e| super::indexes::readers_error(&readers, e))?;
    let end = run.done;
    if end > table.rows {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "this chunk's rows {first_row}..{end} pass the table's {} rows: its scan is not part of the table's",
                table.rows
            ),
        ));
    }
    let ranges = if end > first_row {
        vec![(first_row, end)]
    } else {
        Vec::new()
    };
    encode(doc, opts, *table, ranges, stats, &run)
}

/// A partial read back and checked against the header's design (and `expect`, the design
/// hash every partial must have).
fn decode(i: usize, bytes: &[u8], expect: Option<u64>) -> Result<(u64, Body)> {
    let bad = |what: String| Error::new(ErrorKind::Invalid, format!("partial {i}: {what}"));
    // not a partial, or one of another format version, is said as such before its checksum
    if bytes.len() >= 4 && bytes.get(0..4) != Some(&PARTIAL_MAGIC[..]) {
        return Err(bad("not a rowkey-lab partial analysis of rows".into()));
    }
    if bytes
        .get(4..6)
        .is_some_and(|v| v != PARTIAL_VERSION.to_le_bytes())
    {
        let v = bytes.get(4..6).and_then(|b| <[u8; 2]>::try_from(b).ok());
        let version = v.map(u16::from_le_bytes).unwrap_or(0);
        return Err(bad(format!(
            "format version {version}; this engine reads version {PARTIAL_VERSION}"
        )));
    }
    let bytes = super::super::seal::unseal(i, bytes)?;
    let (Some(magic), Some(version), Some(hash)) = (
        bytes.get(0..4),
        bytes.get(4..6).and_then(|b| <[u8; 2]>::try_from(b).ok()),
        bytes
            .get(6..HEADER)
            .and_then(|b| <[u8; 8]>::try_from(b).ok()),
    ) else {
        return Err(bad("too short to be a partial analysis".into()));
    };
    if magic != PARTIAL_MAGIC {
        return Err(bad("not a rowkey-lab partial analysis of rows".into()));
    }
    let version = u16::from_le_bytes(version);
    if version != PARTIAL_VERSION {
        return Err(bad(format!(
            "format version {version}; this engine reads version {PARTIAL_VERSION}"
        )));
    }
    let hash = u64::from_le_bytes(hash);
    if expect.is_some_and(|h| h != hash) {
        return Err(bad("a partial analysis of another design".into()));
    }
    let body: Body = postcard::from_bytes(bytes.get(HEADER..).unwrap_or_default())
        .map_err(|e| bad(format!("not a readable partial analysis: {e}")))?;
    Ok((hash, body))
}

/// `a` and `b`, sorted disjoint ranges, as one; `None` when they overlap (a row counted twice).
fn union(a: &[(u64, u64)], b: &[(u64, u64)]) -> Option<Vec<(u64, u64)>> {
    let mut all: Vec<(u64, u64)> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match out.last_mut() {
            Some(last) if s < last.1 => return None,
            Some(last) if s == last.1 => last.1 = e,
            _ => out.push((s, e)),
        }
    }
    Some(out)
}

/// The merge of partials: the design they counted, its options, the run holding their
/// counts, the rows they cover and what reading found.
struct Merged {
    doc: DesignDocument,
    run: AnalysisRun,
    table: ScanSummary,
    ranges: Vec<(u64, u64)>,
    stats: RowStats,
    opts: AnalyzeOptions,
}

fn merge(doc: Option<&DesignDocument>, parts: &[&[u8]]) -> Result<Merged> {
    let expect = doc.map(design_hash);
    let Some(first) = parts.first() else {
        return Err(Error::arg("partials", "no partial analyses to merge"));
    };
    let (hash, head) = decode(0, first, expect)?;
    let doc = match doc {
        Some(d) => d.clone(),
        None => {
            let d = DesignDocument::from_json(&head.design)?;
            if design_hash(&d) != hash {
                return Err(Error::arg(
                    "design",
                    "the design a partial carries does not read back as itself: give the design",
                ));
            }
            d
        }
    };
    let opts: AnalyzeOptions = serde_json::from_str(&head.options).map_err(|e| {
        Error::new(
            ErrorKind::Invalid,
            format!("partial 0: its options do not read: {e}"),
        )
    })?;
    let table = head.table;
    let mut run = chunk_run(&doc, &opts, &table, 0)?;
    let fingerprint = run.fingerprint;
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    let mut stats: Option<RowStats> = None;
    let mut next = Some(head);
    for (i, bytes) in parts.iter().enumerate() {
        // Read one at a time: memory holds one decoded partial beside the merge.
        let body = match next.take() {
            Some(b) => b,
            None => decode(i, bytes, Some(hash))?.1,
        };
        if body.table != table || Some(body.analysis.fingerprint) != fingerprint {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("partial {i} counted another table's rows (another scan of them) or other options"),
            ));
        }
        ranges = union(&ranges, &body.ranges).ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid,
                format!("partial {i} counts rows another partial counted"),
            )
        })?;
        let at = |e: Error| Error {
            message: format!("partial {i}: {}", e.message),
            ..e
        };
        // a refused partial (an index table's or the data table's) ends the merge
        if let Some(ix) = run.indexes.as_mut() {
            ix.absorb(body.indexes).map_err(at)?;
        }
        run.analyzer.absorb_rows(body.analysis).map_err(at)?;
        match stats.as_mut() {
            None => stats = Some(body.stats),
            Some(s) => s.merge(&body.stats),
        }
    }
    Ok(Merged {
        doc,
        run,
        table,
        ranges,
        stats: stats.unwrap_or_default(),
        opts,
    })
}

/// Partials merged into one partial (a node of a merge tree), in any order. `doc`, when
/// given, must be the design they counted (else the design they carry).
pub fn merge_partials(doc: Option<&DesignDocument>, parts: &[&[u8]]) -> Result<Vec<u8>> {
    let m = merge(doc, parts)?;
    encode(&m.doc, &m.opts, m.table, m.ranges, m.stats, &m.run)
}

/// The report over a table from partials that together count each of its rows once, in any
/// order: the report one pass over the rows gives, byte for byte.
pub fn report_of_partials(doc: Option<&DesignDocument>, parts: &[&[u8]]) -> Result<RowsAnalysis> {
    report_of_merged(doc, parts, |run| Ok(run.finish()))
}

/// [`report_of_partials`] with the report's rows from `finish` (the run's own counts, or a
/// recount's).
pub(super) fn report_of_merged(
    doc: Option<&DesignDocument>,
    parts: &[&[u8]],
    finish: impl FnOnce(&AnalysisRun) -> Result<AnalysisReport>,
) -> Result<RowsAnalysis> {
    let m = merge(doc, parts)?;
    let all = m.table.rows;
    if m.ranges != [(0, all)] {
        let have: Vec<String> = m.ranges.iter().map(|(a, b)| format!("{a}..{b}")).collect();
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "the partials count rows {} of the table's 0..{all}: a chunk is missing",
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            ),
        ));
    }
    let split_keys = partial_split_keys(&m.doc)?;
    Ok(RowsAnalysis {
        report: finish(&m.run)?,
        stats: m.stats,
        split_keys,
        summary: m.table,
    })
}

/// The split keys of the regions partials count in: the design's pre-split (chunks counted
/// apart never auto-split, and a pre-split cut at the rows' keys is refused).
pub(super) fn partial_split_keys(doc: &DesignDocument) -> Result<Vec<Vec<u8>>> {
    doc.presplit_keys(&[])
}

/// The design a partial counted, with its options (for a caller that holds only partials).
pub fn partial_design(bytes: &[u8]) -> Result<DesignDocument> {
    let (_, body) = decode(0, bytes, None)?;
    DesignDocument::from_json(&body.design)
}
