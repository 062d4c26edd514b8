//! An [`AnalysisRun`] over a user's rows ([`crate::rows`]): the first pass's summary sets the
//! run's size and time axis, then each row is encoded and counted as it is read.

use super::*;
use crate::rows::{RowScan, RowSink};

use crate::analyze::qualifier::CompiledQualifier;
use indexes::{IndexFirstPass, IndexRuns};

// The rest of a run over rows, one file each: a file read in chunks by several workers, a
// file the engine reads itself, a Phoenix table's indexes, every row's key and the split
// keys, chunks counted apart and merged, rows recounted where they live, the two passes of
// one session, and one reading shared by several designs.
mod chunk;
pub(super) mod file;
pub(super) mod indexes;
pub(super) mod keys;
pub(super) mod partial;
mod reading;
pub(super) mod recount;
pub(super) mod session;
pub(super) mod shared;

impl AnalysisRun {
    /// A run of `doc`'s key and layout over a user's rows, whose first pass was `scan`:
    /// its rows are the writes (the workload's `records` need not be given), windows cut over
    /// the rows' own write times when they carry them (first to last, whatever their order),
    /// else over arrival order at the workload's rate; a pre-split at sample quantiles
    /// without a sample is cut at the rows' keys the scan kept ([`RowScan::with_sample`]).
    pub fn for_rows(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        scan: &RowScan,
    ) -> Result<AnalysisRun> {
        AnalysisRun::for_rows_summary(&fit_to_scan(doc, scan), opts, &scan.summary)
    }

    /// [`for_rows`](Self::for_rows) after a [`FirstPass`]: its pre-split fitted by
    /// [`fit_to_first`] (exact split points from every kept row).
    ///
    /// Rows whose distinct keys the first pass found certainly past the exact counts' cap
    /// ([`past_exact_cap`](crate::analyze::DistinctKeys::past_exact_cap)) are counted by the
    /// sketches alone: the exact counts would be dropped at the cap, and the report is the same
    /// without them.
    pub fn for_first_pass(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        first: &FirstPass,
    ) -> Result<AnalysisRun> {
        let mut run =
            AnalysisRun::for_rows_summary(&fit_to_first(doc, first), opts, &first.scan.summary)?;
        let exact = !first.distinct.past_exact_cap();
        if !exact {
            run.analyzer.stop_counting_rows_exactly();
        }
        if first.indexes.is_some() {
            run.indexes = IndexRuns::new(doc, opts, &first.scan.summary, exact)?;
            run.share_data_key();
        }
        Ok(run)
    }

    /// [`for_rows`](Self::for_rows) from the first pass's summary alone (a `sampleQuantiles`
    /// pre-split must have its sample by now).
    pub fn for_rows_summary(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        scan: &crate::rows::ScanSummary,
    ) -> Result<AnalysisRun> {
        let mut run = AnalysisRun::new(&doc_for_rows(doc, scan), opts)?;
        // A user's rows, as records fed are: counted exactly while they fit the cap.
        run.analyzer.count_rows_exactly()?;
        run.fed = true;
        run.total = scan.rows;
        Ok(run)
    }
}

/// `doc` with its `sampleQuantiles` pre-split (when it has no sample) cut at the keys `scan`
/// kept.
pub fn fit_to_scan(doc: &DesignDocument, scan: &RowScan) -> DesignDocument {
    fit_to_sample(doc, || scan.sample())
}

/// `doc` with its `sampleQuantiles` pre-split (when it has no sample) cut at the keys `sample`
/// gives (called only then).
fn fit_to_sample(doc: &DesignDocument, sample: impl FnOnce() -> Vec<Vec<u8>>) -> DesignDocument {
    let mut doc = doc.clone();
    if let Some(layout) = doc.regions.as_mut() {
        if let crate::region::PreSplit::SampleQuantiles { sample: cut, .. } = &mut layout.presplit {
            if cut.is_none() {
                let keys = sample();
                *cut = Some(
                    keys.iter()
                        .map(|k| crate::hbase::bytes::to_string_binary(k))
                        .collect(),
                );
            }
        }
    }
    doc
}

/// `doc` fitted to the first pass as [`fit_to_scan`] fits it, but a `sampleQuantiles`
/// pre-split without a sample over more rows than the scan samples ([`SAMPLE_KEYS`]) is cut
/// at every row's key when the first pass kept them all: exact split points at any row count
/// the kept rows hold, where the scan's sample would give estimates.
///
/// [`SAMPLE_KEYS`]: crate::rows::SAMPLE_KEYS
pub fn fit_to_first(doc: &DesignDocument, first: &FirstPass) -> DesignDocument {
    let sampled = first.scan.summary.rows <= crate::rows::SAMPLE_KEYS as u64;
    let regions = match doc.regions.as_ref().map(|l| &l.presplit) {
        Some(crate::region::PreSplit::SampleQuantiles {
            regions,
            sample: None,
            by: crate::region::SplitBy::Rows,
        }) if !sampled => *regions,
        _ => return fit_to_sample(doc, || first.sample()),
    };
    let Some(keys) = first.quantile_keys(regions) else {
        return fit_to_sample(doc, || first.sample());
    };
    let mut doc = doc.clone();
    if let Some(layout) = doc.regions.as_mut() {
        if let crate::region::PreSplit::SampleQuantiles { sample, .. } = &mut layout.presplit {
            *sample = Some(
                keys.iter()
                    .map(|k| crate::hbase::bytes::to_string_binary(k))
                    .collect(),
            );
        }
    }
    doc
}

/// Whether `doc`'s pre-split is cut at its rows' keys (so the scan must keep them).
pub fn needs_row_sample(doc: &DesignDocument) -> bool {
    doc.regions
        .as_ref()
        .is_some_and(|l| l.presplit.needs_sample())
}

impl RowSink for AnalysisRun {
    /// Encode and count one row; an error leaves the run as it was.
    fn row(&mut self, values: &[crate::keyspec::FieldValue], time_ms: Option<i64>) -> Result<()> {
        let Keys::Design(d) = &mut self.keys else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "only a design's own key reads rows",
            ));
        };
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        let built = d.key.encode_values_into(&mut key, values);
        // every table's key built before any counts the row
        let built = built.and_then(|()| match self.indexes.as_mut() {
            Some(ix) => ix.encode(values, &key),
            None => Ok(()),
        });
        let counted = built.and_then(|()| {
            let q = self.qualifier.as_ref().map_or(0, |q| q.of_values(values));
            self.count_row(&key, q, time_ms)
        });
        self.key = key;
        counted?;
        match self.indexes.as_mut() {
            Some(ix) => ix.count(time_ms),
            None => Ok(()),
        }
    }
}

impl AnalysisRun {
    /// Count one row whose key is built: at its own time, else at the workload clock's.
    #[inline]
    pub(super) fn count_row(&mut self, key: &[u8], q: u64, time_ms: Option<i64>) -> Result<()> {
        let time_ms = time_ms.unwrap_or_else(|| self.stream.time_of(self.done));
        let bytes = (key.len() as u64).saturating_add(self.value_size);
        self.analyzer.push_cell(key, q, time_ms, bytes);
        self.done += 1;
        self.total = self.total.max(self.done);
        if self.done % SAMPLE_CHECK_EVERY == 0 {
            self.analyzer.check_sample_bytes()?;
        }
        Ok(())
    }

    /// Count every row the first pass kept ([`FirstPass`]), in its order, as reading them
    /// again would: `false` (nothing counted) when it kept none, and the rows must be read
    /// again.
    pub fn replay(&mut self, first: &FirstPass) -> Result<bool> {
        let Some(r) = &first.replay else {
            return Ok(false);
        };
        let mut start = 0usize;
        for (i, &end) in r.ends.iter().enumerate() {
            let end = end as usize;
            let key = r.keys.get(start..end).unwrap_or(&[]);
            start = end;
            let q = r.qualifiers.get(i).copied().unwrap_or(0);
            self.count_row(key, q, r.times.get(i).copied())?;
        }
        for c in &r.chunks {
            c.each(|key, q, t| self.count_row(key, q, t))?;
        }
        if let (Some(ix), Some(kept)) = (self.indexes.as_mut(), first.indexes.as_ref()) {
            ix.replay(kept, &r.times_in_order())?;
        }
        Ok(true)
    }
}

/// The first pass over a user's rows ([`RowScan`]: the count, the time span, the sample, the
/// profile), keeping each row's key, qualifier and time while they fit
/// [`MAX_REPLAY_BYTES`](crate::limits::MAX_REPLAY_BYTES): then the analysis counts them from
/// memory ([`AnalysisRun::replay`]) and the file is read once, not twice. Reading (parsing
/// text, converting cells) is most of a rows run's time; counting kept keys is a fraction.
pub struct FirstPass {
    /// The count, the time span and what else the scan was asked for.
    pub scan: RowScan,
    /// The rows' distinct keys, estimated.
    pub distinct: crate::analyze::DistinctKeys,
    pub(super) replay: Option<Replay>,
    pub(super) qualifier: Option<CompiledQualifier>,
    pub(super) cap: usize,
    /// The last [`quantile_keys`](Self::quantile_keys) answer and its region count: the cut
    /// is asked for twice at a scan's end (the split keys said, the run laid out), each a
    /// select over every kept row (0.3 s on 3.4 M rows).
    quantiles: std::cell::OnceCell<(u32, Option<Vec<Vec<u8>>>)>,
    /// Where the key's salt buckets start (none without a salt), which a cut keeps whole.
    bounds: Vec<Vec<u8>>,
    /// The design's Phoenix indexes: each row's index keys, kept beside its key.
    pub(super) indexes: Option<IndexFirstPass>,
    /// The scan's key is the design's: it takes the data key the index keys were built from.
    shares_key: bool,
}

/// A chunk's kept rows as they came ([`FirstPass::append_chunk`]; its reading and counting are in `rows/chunk.rs`, which
/// imports this module (the type lives here so that this module imports none back)): its bytes, and where in
/// them the keys, their ends (u32), the qualifiers (u64) and the times (i64) start.
pub(in crate::analyze::run) struct ChunkRows {
    pub(in crate::analyze::run) bytes: Vec<u8>,
    pub(in crate::analyze::run) rows: usize,
    pub(in crate::analyze::run) keys_at: usize,
    pub(in crate::analyze::run) ends_at: usize,
    pub(in crate::analyze::run) qualifiers_at: Option<usize>,
    pub(in crate::analyze::run) times_at: Option<usize>,
}

/// Every row's key end to end, where each ends, and its qualifier and time when it has them;
/// then the rows of the chunks other sessions read, in file order.
#[derive(Default)]
pub(super) struct Replay {
    pub(super) keys: Vec<u8>,
    pub(super) ends: Vec<u32>,
    pub(super) qualifiers: Vec<u64>,
    pub(super) times: Vec<i64>,
    /// The chunks added ([`FirstPass::append_chunk`]), kept as the bytes they came in: counted
    /// from there, not copied into the arrays above (on 3.3 M rows in 10 chunks the copy was
    /// about a tenth of the CLI's run).
    pub(super) chunks: Vec<ChunkRows>,
    /// The chunks' bytes of rows.
    pub(super) chunk_bytes: usize,
}

impl Replay {
    pub(super) fn bytes(&self) -> usize {
        self.keys.len()
            + 4 * self.ends.len()
            + 8 * (self.qualifiers.len() + self.times.len())
            + self.chunk_bytes
    }

    /// Rows kept.
    pub(super) fn rows(&self) -> usize {
        self.ends.len() + self.chunks.iter().map(|c| c.rows()).sum::<usize>()
    }

    /// Whether the rows kept carry their times (`None`: no rows yet).
    pub(super) fn timed(&self) -> Option<bool> {
        if !self.ends.is_empty() {
            return Some(self.times.len() == self.ends.len());
        }
        self.chunks.first().map(|c| c.timed())
    }

    /// Row `i`'s key, in the order rows were kept.
    fn key(&self, i: usize) -> &[u8] {
        if i < self.ends.len() {
            let start = match i.checked_sub(1) {
                Some(p) => self.ends.get(p).map_or(0, |&e| e as usize),
                None => 0,
            };
            let end = self.ends.get(i).map_or(start, |&e| e as usize);
            return self.keys.get(start..end).unwrap_or(&[]);
        }
        let mut i = i - self.ends.len();
        for c in &self.chunks {
            if i < c.rows() {
                return c.key(i);
            }
            i -= c.rows();
        }
        &[]
    }
}

impl FirstPass {
    /// The first pass of `doc` over rows: `scan` built with the design's key; the rows kept
    /// for the analysis up to `cap` bytes (0: none kept, the rows are read twice).
    pub fn new(doc: &DesignDocument, mut scan: RowScan, cap: usize) -> Result<FirstPass> {
        if cap > 0 {
            // the kept keys give the sample later, if it is needed at all
            scan.defer_sample();
        }
        Ok(FirstPass {
            shares_key: scan.keyed_by(&doc.key, &doc.key_fields()),
            scan,
            distinct: crate::analyze::DistinctKeys::default(),
            replay: (cap > 0).then(Replay::default),
            qualifier: CompiledQualifier::new(doc)?,
            cap,
            quantiles: std::cell::OnceCell::new(),
            bounds: doc.bucket_bounds(),
            indexes: IndexFirstPass::new(doc, cap > 0)?,
        })
    }

    /// Whether every row read so far is kept for the analysis.
    pub fn kept(&self) -> bool {
        self.replay.is_some()
    }

    /// The keys that cut every kept row into `regions` regions of equal rows, salt buckets
    /// kept whole, as [`cut_summary`](crate::region::cut_summary) carries a cut (which
    /// [`quantile_split_keys_in`](crate::region::quantile_split_keys_in), given them, cuts
    /// again into the same split keys). `None` when the rows were not kept.
    pub fn quantile_keys(&self, regions: u32) -> Option<Vec<Vec<u8>>> {
        match self.quantiles.get() {
            Some((n, keys)) if *n == regions => keys.clone(),
            Some(_) => self.select_quantiles(regions),
            None => self
                .quantiles
                .get_or_init(|| (regions, self.select_quantiles(regions)))
                .1
                .clone(),
        }
    }

    /// A cut asked for before more rows came is cut again.
    pub(super) fn forget_quantiles(&mut self) {
        if self.quantiles.get().is_some() {
            self.quantiles = std::cell::OnceCell::new();
        }
    }

    /// [`quantile_keys`](Self::quantile_keys), selected.
    fn select_quantiles(&self, regions: u32) -> Option<Vec<Vec<u8>>> {
        let r = self.replay.as_ref()?;
        let key = |i: u32| r.key(i as usize);
        let n = u32::try_from(r.rows()).ok()?;
        // Each row as its key's first twelve bytes (big-endian) above its index: most compares
        // end on them, in a sequential array, not on two keys read at random (which cost
        // about as much as reading the file). Twelve, not eight: a salt and a date fill eight
        // (`\x05` `2013010`), and a select's last rounds compare rows that share them. And
        // each salt bucket's rows (one bucket without a salt), in the same pass over the keys:
        // the cut keeps buckets whole.
        let mut counts = vec![0u64; self.bounds.len() + 1];
        let buckets = crate::region::Buckets::new(&self.bounds);
        let mut order: Vec<u128> = Vec::with_capacity(n as usize);
        for i in 0..n {
            let k = key(i);
            if let Some(c) = counts.get_mut(buckets.of(k)) {
                *c += 1;
            }
            order.push(prefix_96(k) | u128::from(i));
        }
        let plan = crate::region::plan_cut(&counts, regions);
        // The smallest key and those at the cut ranks, selected (not sorted) over indexes (4
        // bytes a row, not the keys copied), in HBase's order.
        let mut ranks: Vec<usize> = std::iter::once(0)
            .chain(
                plan.targets
                    .iter()
                    .map(|t| usize::try_from(t.rank()).unwrap_or(usize::MAX)),
            )
            .collect();
        let mut wanted = ranks.clone();
        wanted.sort_unstable();
        wanted.dedup();
        let row = |v: u128| (v & u128::from(u32::MAX)) as u32;
        crate::region::select_ranks(&mut order, &wanted, &mut |&a, &b| {
            (a >> 32)
                .cmp(&(b >> 32))
                .then_with(|| crate::region::key_order(key(row(a)), key(row(b))))
        });
        let picked: Vec<Option<&[u8]>> = ranks
            .drain(..)
            .map(|at| order.get(at).map(|&v| key(row(v))))
            .collect();
        let (smallest, picks) = picked.split_first()?;
        Some(crate::region::cut_summary(
            &self.bounds,
            &plan,
            *smallest,
            picks,
        ))
    }

    /// Keep no rows (a pass that only scans: a profile, `encode --records`).
    pub fn keep_none(&mut self) {
        self.drop_kept();
        self.cap = 0;
        self.indexes = None;
    }

    /// Stop keeping rows; a deferred sample is first offered the keys kept.
    fn drop_kept(&mut self) {
        if let Some(ix) = self.indexes.as_mut() {
            ix.drop_kept();
        }
        if let Some(r) = self.replay.take() {
            if self.scan.sample_deferred() {
                self.scan.offer_sample((0..r.rows()).map(|i| r.key(i)));
            }
        }
    }

    /// The keys the scan's sample keeps ([`RowScan::sample`]): while it is deferred, those it
    /// would keep of the rows kept.
    pub fn sample(&self) -> Vec<Vec<u8>> {
        match &self.replay {
            Some(r) if self.scan.sample_deferred() => {
                RowScan::sample_from((0..r.rows()).map(|i| r.key(i)))
            }
            _ => self.scan.sample(),
        }
    }
}

impl RowSink for FirstPass {
    fn takes_no_rows(&self) -> bool {
        self.scan.takes_no_rows()
    }

    fn row(&mut self, values: &[crate::keyspec::FieldValue], time_ms: Option<i64>) -> Result<()> {
        self.forget_quantiles();
        // the index keys first: a row an index cannot key is refused before the scan counts it
        if let Some(ix) = self.indexes.as_mut() {
            ix.keyer.encode(values)?;
        }
        let built = self.indexes.as_ref().and_then(|ix| ix.keyer.data_key());
        match built.filter(|_| self.shares_key) {
            Some(key) => self.scan.row_with_key(values, time_ms, key)?,
            None => self.scan.row(values, time_ms)?,
        }
        let key = self.scan.last_key();
        self.distinct.insert(key);
        let Some(r) = self.replay.as_mut() else {
            return Ok(());
        };
        // Rows with a time and rows without cannot both be kept: read them again.
        let timed = time_ms.is_some();
        let mixed = r.timed().is_some_and(|t| t != timed) || !r.chunks.is_empty();
        let end = u32::try_from(r.keys.len() + key.len()).ok();
        let (held, more) = self
            .indexes
            .as_ref()
            .map_or((0, 0), |ix| (ix.kept_bytes(), ix.row_bytes()));
        let fits = r.bytes() + held + key.len() + more + 20 <= self.cap;
        let indexed = fits && self.indexes.as_mut().map_or(true, IndexFirstPass::keep_row);
        match end {
            Some(end) if !mixed && fits && indexed => {
                r.keys.extend_from_slice(key);
                r.ends.push(end);
                if let Some(q) = &self.qualifier {
                    r.qualifiers.push(q.of_values(values));
                }
                if let Some(t) = time_ms {
                    r.times.push(t);
                }
            }
            _ => {
                self.drop_kept();
                // this row's key was not kept: the sample is offered it after the kept ones
                self.scan.offer_last();
            }
        }
        Ok(())
    }
}

/// A key's first twelve bytes in the top 96 bits of a big-endian word, zeros past its end (the
/// low 32 bits free for a row's index): two keys whose prefixes differ compare as they do.
fn prefix_96(k: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let head = k.get(..12).unwrap_or(k);
    b[..head.len()].copy_from_slice(head);
    u128::from_be_bytes(b)
}

/// What a rows analysis gives beside its report: what reading found, the split keys the
/// analysis counted over (a `sampleQuantiles` pre-split cut at these rows), and the first
/// pass's summary.
#[derive(Debug, Clone)]
pub struct RowsAnalysis {
    /// The report over every row.
    pub report: AnalysisReport,
    /// What reading found.
    pub stats: crate::rows::RowStats,
    /// The table's split keys as the analysis laid it out (the read plans' regions).
    pub split_keys: Vec<Vec<u8>>,
    /// The first pass's count and time span.
    pub summary: crate::rows::ScanSummary,
}

/// What feeds rows to [`count_rows`]: every row to the sink it is given, then what reading
/// found.
pub type RowFeed<'a> = dyn FnMut(&mut dyn RowSink) -> Result<crate::rows::RowStats> + 'a;

/// The two passes over a user's rows, whatever holds them: `feed` hands every row to the sink
/// it is given (once to count them and find their time span, and again to analyze them unless
/// they fit `cap` bytes kept in memory). The run, not finished; the first pass (its summary,
/// the pre-split it fits, [`fit_to_first`]); what reading found.
pub fn count_rows(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    cap: usize,
    feed: &mut RowFeed<'_>,
) -> Result<(AnalysisRun, FirstPass, crate::rows::RowStats)> {
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let mut scan = RowScan::new(Some(key));
    if needs_row_sample(doc) {
        scan = scan.with_sample();
    }
    let mut first = FirstPass::new(doc, scan, cap)?;
    let read = feed(&mut first)?;
    if first.scan.summary.rows == 0 {
        return Err(Error::new(ErrorKind::Invalid, "no rows to analyze"));
    }
    let mut run = AnalysisRun::for_first_pass(doc, opts, &first)?;
    let stats = if run.replay(&first)? {
        read
    } else {
        feed(&mut run)?
    };
    Ok((run, first, stats))
}

/// [`count_rows`] with the rows' memory cap, finished as a [`RowsAnalysis`].
fn two_passes(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &crate::rows::RowsOptions,
    feed: &mut RowFeed<'_>,
) -> Result<RowsAnalysis> {
    let (run, first, stats) = count_rows(doc, opts, rows.kept_bytes()?, feed)?;
    let fitted = fit_to_first(doc, &first);
    let split_keys = fitted.presplit_keys(&[])?;
    Ok(RowsAnalysis {
        report: run.finish(),
        stats,
        split_keys,
        summary: first.scan.summary,
    })
}

/// Analyze `doc` over the rows of a file held whole (`bytes`, any format
/// [`crate::rows::Format`] reads): a first pass counts them and finds their time span, the
/// second counts every row. Returns the report and what reading found.
pub fn analyze_rows(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &crate::rows::RowsOptions,
    bytes: &[u8],
) -> Result<(AnalysisReport, crate::rows::RowStats)> {
    use crate::rows::RowReader;
    let (fields, used, _) = indexes::analysis_fields(doc)?;
    let a = two_passes(doc, opts, rows, &mut |sink| {
        let mut reader = RowReader::new(fields.clone(), used.clone(), rows.clone());
        reader.push(bytes, sink)?;
        reader.finish(sink)
    })?;
    Ok((a.report, a.stats))
}

/// Analyze `doc` over Arrow record batches a caller holds (the Python package): the same two
/// passes and the same report as a file of the same rows.
pub fn analyze_batches(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    rows: &crate::rows::RowsOptions,
    batches: &[arrow_array::RecordBatch],
) -> Result<RowsAnalysis> {
    let (fields, used, _) = indexes::analysis_fields(doc)?;
    two_passes(doc, opts, rows, &mut |sink| {
        crate::rows::batch_rows(batches, &fields, &used, rows, sink)
    })
}
