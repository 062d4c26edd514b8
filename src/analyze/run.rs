//! Whole-document analysis: a design's workload generated, encoded with its key design and
//! counted over its region layout, in chunks ([`AnalysisRun`]) or at once ([`analyze`]).
//! Several designs side by side: [`compare`](mod@super::compare).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::analyzer::Analyzer;
use super::qualifier::CompiledQualifier;
use super::report::AnalysisReport;
use super::AnalyzerOptions;
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::hbase::policy::SplitRestriction;
use crate::workload::{Record, WorkloadSpec, WorkloadStream};

/// Options of a whole-document analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AnalyzeOptions {
    /// Number of time windows over the workload's duration.
    pub windows: u32,
    /// Size of the sorted key sample.
    pub sample_size: u32,
    /// Keys per region reservoir (auto-split middle key).
    pub region_sample_size: u32,
    /// Key-space grid buckets.
    pub grid_buckets: u32,
    /// Records read ahead to compute `sampleQuantiles` pre-splits without an inline sample.
    pub presplit_sample: u32,
    /// Count a generated workload of at most [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS)
    /// records exactly (its rows cannot pass the cap; see [`AnalyzerOptions::exact_rows`]; fed
    /// records always are): on by default, since users decide on distinct rows and the largest
    /// rows. It costs about 250 ns a record (the telecom design at 1 M records: 161 ms with
    /// the sketches alone, 402 ms counting, natively); a larger workload keeps the sketches,
    /// whose figures carry their bounds. Off: the sketches alone (their own tests).
    pub exact_rows: bool,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            windows: 64,
            sample_size: 1000,
            region_sample_size: 128,
            grid_buckets: 256,
            presplit_sample: 10_000,
            exact_rows: true,
        }
    }
}

/// Turns one record into its row key (written into the buffer, which arrives cleared).
pub type KeyEncoder = Box<dyn FnMut(&Record, &mut Vec<u8>) -> Result<()>>;

/// Progress of an [`AnalysisRun`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Records analyzed so far.
    pub done: u64,
    /// Records in the workload.
    pub total: u64,
    /// Regions now.
    pub regions: usize,
    /// True when every record is analyzed.
    pub finished: bool,
}

/// A chunked analysis of a design document: call [`AnalysisRun::step`] until finished (a
/// caller can stop at any step to cancel), then [`AnalysisRun::finish`].
pub struct AnalysisRun {
    stream: WorkloadStream,
    keys: Keys,
    analyzer: Analyzer,
    key: Vec<u8>,
    batch: Batch,
    value_size: u64,
    done: u64,
    total: u64,
    /// Fed records ([`AnalysisRun::feed`]) instead of generated ones.
    fed: bool,
    /// The column qualifier of each write (the document's `cells` section).
    qualifier: Option<CompiledQualifier>,
    /// The key leads with a timestamp or sequence (lint's `monotonic-leading`): for the
    /// diagnosis of one region hot all run long.
    led_by_time: bool,
    /// Identifies the document and options, so that partial counts of another design are
    /// refused ([`AnalysisRun::combine`]); set by [`AnalysisRun::for_blocks`] (computed only
    /// where partial counts are made: the page's size build never serializes a document).
    fingerprint: Option<u64>,
    /// Counted in one pass, never cut in blocks: the key numbers names in the order records
    /// arrive (`uid(f, W)` without a table), so a block counted apart would number anew.
    one_pass: bool,
    /// Over a user's rows, the design's Phoenix index tables counted from the same rows
    /// ([`rows::indexes`]): the report's `indexes`.
    #[cfg(feature = "rows")]
    indexes: Option<Box<rows::indexes::IndexRuns>>,
}

impl std::fmt::Debug for AnalysisRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisRun")
            .field("done", &self.done)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

/// The analyzer options for `doc`'s workload and layout.
pub fn analyzer_options(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalyzerOptions> {
    let spec = doc.workload.clone().unwrap_or_default();
    spec.validate()?;
    let end = spec.end_time().unwrap_or(spec.start_time);
    let span = i128::from(end) - i128::from(spec.start_time);
    // `max(1)` only keeps the division defined: `validate` below refuses 0 windows by name.
    let windows = opts.windows;
    let width = (span + i128::from(windows.max(1)) - 1) / i128::from(windows.max(1));
    let layout = doc.regions.clone().unwrap_or_default();
    let o = AnalyzerOptions {
        start_time_ms: spec.start_time,
        window_ms: i64::try_from(width.max(1)).unwrap_or(i64::MAX),
        windows,
        sample_size: opts.sample_size,
        region_sample_size: opts.region_sample_size,
        grid_buckets: opts.grid_buckets,
        auto_split: layout.auto_split.clone(),
        cell_bytes: doc
            .hbase
            .as_ref()
            .map_or_else(Default::default, |t| t.cell_bytes()),
        split_restriction: SplitRestriction::None,
        region_servers: layout.region_servers,
        assignment: layout.assignment,
        seed: spec.seed,
        versions: doc.cells.as_ref().map(|c| c.versions),
        // Every row counted when the workload cannot pass the cap (its rows are at most its
        // records): distinct rows and the largest rows are then exact, as a user's rows are.
        exact_rows: opts.exact_rows && spec.records <= crate::analyze::MAX_EXACT_ROWS as u64,
    };
    o.validate()?;
    Ok(o)
}

/// Where an [`AnalysisRun`]'s row keys come from.
enum Keys {
    /// A caller's encoder over generated [`Record`]s.
    Encoder { encoder: KeyEncoder, record: Record },
    /// The document's own key design, fed the generated values directly.
    Design(Box<DesignKeys>),
}

impl Keys {
    /// Generate the next record, write its row key into `out` (cleared first) and return its
    /// index and write time; `None` when the stream is done.
    fn next(
        &mut self,
        stream: &mut WorkloadStream,
        out: &mut Vec<u8>,
    ) -> Result<Option<(u64, i64)>> {
        match self {
            Keys::Encoder { encoder, record } => {
                if !stream.next_into(record) {
                    return Ok(None);
                }
                out.clear();
                encoder(record, out).map_err(|e| record_err(record.index, e))?;
                Ok(Some((record.index, record.time_ms)))
            }
            Keys::Design(d) => d.next(stream, out),
        }
    }
}

impl Keys {
    /// The column qualifier of the record [`next`](Self::next) just gave.
    #[inline]
    fn qualifier(&self, q: &CompiledQualifier) -> u64 {
        match self {
            Keys::Encoder { record, .. } => q.of_generated(&record.values),
            Keys::Design(d) => q.of_values(&d.values),
        }
    }
}

fn record_err(index: u64, e: Error) -> Error {
    let msg = format!("record {index}: {}", e.message);
    Error { message: msg, ..e }
}

/// Records between two checks of the sampled keys' bytes ([`Analyzer::check_sample_bytes`]).
const SAMPLE_CHECK_EVERY: u64 = 4096;

impl AnalysisRun {
    /// A run of `doc`'s workload (default workload when absent) through `encoder` into an
    /// analyzer over `doc`'s region layout.
    pub fn with_encoder(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        encoder: KeyEncoder,
    ) -> Result<AnalysisRun> {
        AnalysisRun::with_keys(
            doc,
            opts,
            Keys::Encoder {
                encoder,
                record: Record::default(),
            },
        )
    }

    fn with_keys(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        mut keys: Keys,
    ) -> Result<AnalysisRun> {
        doc.validate()?;
        let spec: WorkloadSpec = doc.workload.clone().unwrap_or_default();
        // The layout first: its errors carry the document's path (`/regions/regionServers`),
        // the analyzer options' the option's name.
        let layout = doc.regions.clone().unwrap_or_default();
        layout.validate()?;
        let aopts = analyzer_options(doc, opts)?;
        let mut sample = Vec::new();
        if layout.presplit.needs_sample() {
            let mut s = WorkloadStream::new(&spec, &doc.fields)?;
            let mut n = 0u32;
            let mut k = Vec::new();
            while n < opts.presplit_sample && keys.next(&mut s, &mut k)?.is_some() {
                sample.push(k.clone());
                n += 1;
            }
        }
        let split_keys = doc.presplit_keys(&sample)?;
        let analyzer = Analyzer::new(split_keys, aopts)?;
        let qualifier = CompiledQualifier::new(doc)?;
        let stream = WorkloadStream::new(&spec, &doc.fields)?;
        Ok(AnalysisRun {
            fingerprint: None,
            total: spec.records,
            value_size: spec.value_size,
            stream,
            keys,
            analyzer,
            key: Vec::new(),
            batch: Batch::default(),
            done: 0,
            fed: false,
            qualifier,
            led_by_time: crate::design::leads_with_time(doc),
            one_pass: crate::keyspec::opentsdb::numbers_in_order(&doc.key.segments),
            #[cfg(feature = "rows")]
            indexes: None,
        })
    }

    /// Count `records` (field name to JSON value, as [`crate::keyspec::encode`] takes them) as
    /// the run's next writes, in the order given, instead of the generated workload: a team's
    /// own rows. The `n`-th record of the run is written at the workload's clock,
    /// `startTime + n * 1000 / writeRate` ms, so feed them in write order. The run then counts
    /// only what it is fed ([`Progress::total`] is the number fed), and [`step`](Self::step)
    /// refuses to mix in generated records. A pre-split computed from a sample
    /// (`sampleQuantiles`) still comes from the generated workload. A bad record stops the
    /// chunk with an error located at `records[i]` (`records[i].field` when a field is at
    /// fault); the records before it stay counted. Fed rows are counted exactly while they
    /// fit [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS) (see
    /// [`AnalyzerOptions::exact_rows`]): the largest rows and distinct rows are then exact.
    pub fn feed(&mut self, records: &[Map<String, Value>]) -> Result<Progress> {
        let Keys::Design(d) = &mut self.keys else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "only a design's own key can be fed records",
            ));
        };
        if !self.fed && self.done > 0 {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "this run has analyzed generated records; feed records to a new run",
            ));
        }
        if !self.fed {
            // A team's own rows: their largest rows and distinct rows are what they decide
            // on, so they are counted exactly while they fit the cap.
            self.analyzer.count_rows_exactly()?;
        }
        self.fed = true;
        for (i, r) in records.iter().enumerate() {
            self.key.clear();
            d.key
                .encode_json_into(&mut self.key, r)
                .map_err(|e| crate::keyspec::at_record(e, i))?;
            let q = match &self.qualifier {
                Some(q) => q
                    .of_json(r, &d.decls)
                    .map_err(|e| crate::keyspec::at_record(e, i))?,
                None => 0,
            };
            let time_ms = self.stream.time_of(self.done);
            let bytes = (self.key.len() as u64).saturating_add(self.value_size);
            self.analyzer.push_cell(&self.key, q, time_ms, bytes);
            self.done += 1;
            self.total = self.done;
        }
        self.analyzer.check_sample_bytes()?;
        Ok(self.progress())
    }

    /// Analyze up to `max_records` more records.
    pub fn step(&mut self, max_records: u64) -> Result<Progress> {
        if self.fed {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "this run is fed records (feed); it generates none",
            ));
        }
        // In batches when the key has an MD5 bucket to fill in later: generate and encode up
        // to BATCH records, fill their buckets two at a time, then count them, in the same
        // order as one at a time. Other keys gain nothing from batches natively (120 -> 126 ns
        // per record for the telecom String.hashCode key), but about 3 % in the Node wasm,
        // where generating, encoding and counting in separate loops suits V8 better.
        let Keys::Design(d) = &mut self.keys else {
            return self.step_one_by_one(max_records);
        };
        if !d.key.defers_md5() && !cfg!(all(target_arch = "wasm32", not(lean))) {
            return self.step_one_by_one(max_records);
        }
        let mut n = 0u64;
        while n < max_records {
            let want = usize::try_from(max_records - n).map_or(BATCH, |r| r.min(BATCH));
            let err = d.next_batch(
                &mut self.stream,
                &mut self.batch,
                want,
                self.qualifier.as_ref(),
            );
            let b = &self.batch;
            let mut start = 0;
            for (i, (&end, &time_ms)) in b.ends.iter().zip(&b.times).enumerate() {
                let key = b.keys.get(start..end).unwrap_or(&[]);
                let bytes = (key.len() as u64).saturating_add(self.value_size);
                let q = b.qualifiers.get(i).copied().unwrap_or(0);
                self.analyzer.push_cell(key, q, time_ms, bytes);
                start = end;
            }
            let got = b.times.len();
            n += got as u64;
            self.done += got as u64;
            if let Some(e) = err {
                return Err(e);
            }
            if self.done % SAMPLE_CHECK_EVERY < got as u64 {
                self.analyzer.check_sample_bytes()?;
            }
            if got < want {
                break;
            }
        }
        Ok(self.progress())
    }

    /// [`step`](Self::step) one record at a time.
    fn step_one_by_one(&mut self, max_records: u64) -> Result<Progress> {
        let mut n = 0u64;
        while n < max_records {
            let Some((_, time_ms)) = self.keys.next(&mut self.stream, &mut self.key)? else {
                break;
            };
            let q = match &self.qualifier {
                Some(q) => self.keys.qualifier(q),
                None => 0,
            };
            let bytes = (self.key.len() as u64).saturating_add(self.value_size);
            self.analyzer.push_cell(&self.key, q, time_ms, bytes);
            n += 1;
            self.done += 1;
            if self.done % SAMPLE_CHECK_EVERY == 0 {
                self.analyzer.check_sample_bytes()?;
            }
        }
        self.analyzer.check_sample_bytes()?;
        Ok(self.progress())
    }

    /// Where the run is.
    pub fn progress(&self) -> Progress {
        Progress {
            done: self.done,
            total: self.total,
            regions: self.analyzer.region_count(),
            finished: self.done >= self.total,
        }
    }

    /// Whether the run counts fed records ([`feed`](Self::feed)) rather than its generated
    /// workload.
    pub fn is_fed(&self) -> bool {
        self.fed
    }

    /// The analyzer (for partial results).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The report over the records analyzed so far (over a user's rows, with each Phoenix
    /// index's analysis of the same rows).
    pub fn finish(&self) -> AnalysisReport {
        self.with_index_tables(self.analyzer.finish_for(Some(self.led_by_time)))
    }

    /// [`finish`](Self::finish) with the rows recounted exactly elsewhere
    /// ([`Analyzer::finish_recounted`]).
    pub fn finish_recounted(&self, recount: &crate::analyze::RowRecount) -> Result<AnalysisReport> {
        let r = self
            .analyzer
            .finish_recounted(Some(self.led_by_time), recount)?;
        // the index tables recounted too, when the recount carries them
        #[cfg(feature = "rows")]
        if let Some(ix) = self
            .indexes
            .as_ref()
            .filter(|_| !recount.indexes.is_empty())
        {
            let mut r = r;
            r.indexes = ix.finish_recounted(&r, &recount.indexes)?;
            return Ok(r);
        }
        Ok(self.with_index_tables(r))
    }

    /// `report` with the index tables counted beside this run, if any.
    fn with_index_tables(&self, report: AnalysisReport) -> AnalysisReport {
        #[cfg(feature = "rows")]
        if let Some(ix) = &self.indexes {
            let mut report = report;
            report.indexes = ix.finish(&report);
            return report;
        }
        report
    }
}

/// Run the whole of `doc`'s workload through `encoder` and report.
pub fn analyze_with_encoder(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    encoder: KeyEncoder,
) -> Result<AnalysisReport> {
    Ok(run_to_end(AnalysisRun::with_encoder(doc, opts, encoder)?)?.finish())
}

impl AnalysisRun {
    /// A run of `doc`'s workload through its own key design and region layout.
    pub fn new(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalysisRun> {
        AnalysisRun::with_keys(doc, opts, Keys::Design(Box::new(DesignKeys::new(doc)?)))
    }
}

/// The split keys of `doc`'s table before any write: its pre-split as the analyzer lays it out
/// (a `sampleQuantiles` pre-split cut at its own sample or the workload's keys).
pub fn initial_split_keys(doc: &DesignDocument) -> Result<Vec<Vec<u8>>> {
    let run = AnalysisRun::new(doc, &AnalyzeOptions::default())?;
    Ok(run.analyzer().split_keys().to_vec())
}

/// Analyze `doc`: its workload, encoded with its key design, over its region layout, and
/// each of its Phoenix indexes over the same workload ([`super::with_indexes`]).
pub fn analyze(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalysisReport> {
    super::with_indexes(
        doc,
        opts,
        run_to_end(AnalysisRun::new(doc, opts)?)?.finish(),
    )
}

/// `doc` with its workload sized to the rows a first pass found (`scan`): as many records,
/// starting at the first row's time and spanning to the last's when they carry one.
#[cfg(feature = "rows")]
pub fn doc_for_rows(doc: &DesignDocument, scan: &crate::rows::ScanSummary) -> DesignDocument {
    let mut doc = doc.clone();
    let mut workload = doc.workload.take().unwrap_or_default();
    workload.records = scan.rows.max(1);
    if let (Some(first), Some(last)) = (scan.first_ms, scan.last_ms) {
        workload.start_time = first;
        // The axis spans first..=last: one ms more, so the last row is inside it.
        let span_ms = (i128::from(last) - i128::from(first) + 1).max(1);
        workload.write_rate = workload.records as f64 * 1000.0 / span_ms as f64;
    }
    doc.workload = Some(workload);
    doc
}

/// A design's fields as a [`crate::rows::RowReader`] takes them: each declaration's name and
/// type, and the fields its key reads.
#[cfg(feature = "rows")]
pub fn row_fields(doc: &DesignDocument) -> Result<(crate::rows::FieldList, Vec<usize>)> {
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let fields = doc
        .fields
        .iter()
        .map(|f| (f.name.clone(), f.field_type))
        .collect();
    Ok((fields, key.used_fields()))
}

pub(super) fn run_to_end(mut run: AnalysisRun) -> Result<AnalysisRun> {
    while !run.step(1 << 16)?.finished {}
    Ok(run)
}

mod blocks;
mod design_keys;
#[cfg(feature = "rows")]
mod rows;
mod seal;
pub use blocks::{analyze_parallel, block_ranges};
pub(super) use design_keys::convert_value;
pub use design_keys::document_encoder;
use design_keys::{Batch, DesignKeys, BATCH};
#[cfg(feature = "rows")]
pub use rows::file::{design_for_file, file_sample, ParquetPlan, ReadPass, ReadWatch, READ_PIECE};
#[cfg(feature = "rows")]
pub use rows::indexes::{encode_index_batches, index_position};
#[cfg(feature = "rows")]
pub use rows::keys::{
    bucket_weights, cut_picked, cut_targets, encode_batches, encode_batches_skipped, encode_stream,
    encode_stream_with_digests, split_batches, split_batches_by_bytes, split_keys_of, split_sample,
    write_bytes,
};
#[cfg(feature = "rows")]
pub use rows::partial::{
    design_hash, merge_partials, partial_and_keys_of_stream, partial_design, partial_of_batches,
    partial_of_batches_to_recount, partial_of_stream, report_of_partials, scan_batches,
    PARTIAL_MAGIC, PARTIAL_VERSION,
};
#[cfg(feature = "rows")]
pub use rows::recount::{recount_batches, report_of_partials_recounted};
#[cfg(feature = "rows")]
pub use rows::session::{RowSplitKeys, RowsSession, ScanEnd};
#[cfg(feature = "rows")]
pub use rows::shared::{rows_shareable, SharedRows, MAX_SHARED_DESIGNS};
#[cfg(feature = "rows")]
pub use rows::{
    analyze_batches, analyze_rows, count_rows, fit_to_first, fit_to_scan, needs_row_sample,
    FirstPass, RowFeed, RowsAnalysis,
};
