//! A Phoenix table's indexes over a user's rows: every row the data table counts also gives
//! each global index its row, keyed by the `IndexMaintainer` port ([`IndexEncoder`]) from the
//! row's values, and counted over the index's own regions (its salt buckets or `SPLIT ON`
//! points, [`index_table_design`]) on the same time axis; a local index's rows are in the data
//! table's regions ([`local_index_analysis`]). The answer is the one the generated workload
//! gets ([`crate::analyze::analyze_indexes`]): `report.indexes`.
//!
//! One reading feeds them all. The first pass builds each index key beside the data key (a
//! row an index cannot key is refused before anything counts it) and keeps them while the
//! rows fit the memory the first pass keeps (the index keys count against the same cap);
//! the analysis then counts every table from memory, or, past the cap, from the second
//! reading the data table needs anyway. A file read in chunks by several readers carries each
//! chunk's index keys beside its data keys (`chunk.rs`), so the chunks add up to the one
//! reading's indexes as they do to its data table.

use super::super::*;
use crate::analyze::indexes::{global_index_analysis, index_table_design, local_index_analysis};
use crate::analyze::IndexAnalysis;
use crate::design::phoenix::{data_spans, IndexEncoder, IndexKind};
use crate::keyspec::FieldValue;
use crate::rows::{RowSink, ScanSummary};

// Every row's key in the table of one index (the library's and Spark's index keys).
mod keys;
pub use keys::{encode_index_batches, index_position};

/// Each global index's key of the row last given to [`encode`](Self::encode): the row's data
/// key built and split into its columns once, then each index's key written from it into a
/// buffer of its own, reused row after row.
pub(crate) struct IndexKeyer {
    /// Per global index: its position among the design's indexes, its name, its encoder and
    /// the last row's key.
    tables: Vec<(usize, String, IndexEncoder, Vec<u8>)>,
    /// The data key's encoder (the design's key), the last row's data key and where each of
    /// its columns is.
    data: crate::keyspec::CompiledKey,
    data_key: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl IndexKeyer {
    /// The keyer of `doc`'s global indexes; `None` without Phoenix indexes.
    pub(crate) fn new(doc: &DesignDocument) -> Result<Option<IndexKeyer>> {
        let Some(p) = doc.phoenix.as_ref().filter(|p| !p.indexes.is_empty()) else {
            return Ok(None);
        };
        let mut tables = Vec::new();
        for (i, x) in p.indexes.iter().enumerate() {
            if x.kind != IndexKind::Local {
                tables.push((
                    i,
                    x.name.clone(),
                    IndexEncoder::new(doc, i, &[])?,
                    Vec::new(),
                ));
            }
        }
        Ok(Some(IndexKeyer {
            tables,
            data: crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?,
            data_key: Vec::new(),
            spans: Vec::new(),
        }))
    }

    /// Build every global index's key of a row (`values` in field order); an error names the
    /// index and leaves nothing counted.
    pub(crate) fn encode(&mut self, values: &[FieldValue]) -> Result<()> {
        self.encode_with(values, None)
    }

    /// [`encode`](Self::encode) for a row whose data key (the design's key of `values`) is
    /// built: `data_key`, copied, not encoded again.
    pub(crate) fn encode_keyed(&mut self, values: &[FieldValue], data_key: &[u8]) -> Result<()> {
        self.encode_with(values, Some(data_key))
    }

    /// The last row's data key (`None` without global indexes: none is built).
    pub(crate) fn data_key(&self) -> Option<&[u8]> {
        (!self.tables.is_empty()).then_some(self.data_key.as_slice())
    }

    fn encode_with(&mut self, values: &[FieldValue], built: Option<&[u8]>) -> Result<()> {
        let Some((_, first, enc, _)) = self.tables.first() else {
            return Ok(());
        };
        // the data key once for every index (an error is the first index's, as each would
        // have met it)
        self.data_key.clear();
        let split = match built {
            Some(key) => {
                self.data_key.extend_from_slice(key);
                Ok(())
            }
            None => self.data.encode_values_into(&mut self.data_key, values),
        };
        let split = split.and_then(|()| data_spans(enc.shape(), &self.data_key, &mut self.spans));
        split.map_err(|e| Error {
            message: format!("index {first}: {}", e.message),
            ..e
        })?;
        for (_, name, enc, key) in &mut self.tables {
            key.clear();
            enc.encode_from_data_key(values, &self.data_key, &self.spans, key)
                .map_err(|e| Error {
                    message: format!("index {name}: {}", e.message),
                    ..e
                })?;
        }
        Ok(())
    }

    /// The global indexes.
    pub(crate) fn len(&self) -> usize {
        self.tables.len()
    }

    /// Global index `t`'s key of the last row.
    fn key(&self, t: usize) -> &[u8] {
        self.tables.get(t).map_or(&[], |(_, _, _, k)| k.as_slice())
    }
}

impl AnalysisRun {
    /// Let the index tables take the data key this run builds for each row when it is the
    /// design's own (not encoded twice).
    pub(in crate::analyze::run) fn share_data_key(&mut self) {
        if let (Some(ix), Keys::Design(d)) = (self.indexes.as_mut(), &self.keys) {
            ix.share_key_of(&d.key);
        }
    }
}

/// The first pass's side of the indexes: each row's index keys built (so the first pass takes
/// the rows the analysis will) and kept for the analysis while the data table's keys are.
pub(crate) struct IndexFirstPass {
    pub(crate) keyer: IndexKeyer,
    /// Per global index, every kept row's key end to end and where each ends; `None` once the
    /// rows are no longer kept.
    kept: Option<Vec<(Vec<u8>, Vec<u32>)>>,
}

impl IndexFirstPass {
    /// The first pass of `doc`'s indexes (`None` without any), keeping their keys when `keep`.
    pub(crate) fn new(doc: &DesignDocument, keep: bool) -> Result<Option<IndexFirstPass>> {
        Ok(IndexKeyer::new(doc)?.map(|keyer| IndexFirstPass {
            kept: keep.then(|| vec![(Vec::new(), Vec::new()); keyer.len()]),
            keyer,
        }))
    }

    /// Bytes the kept keys hold.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.kept.as_ref().map_or(0, |k| {
            k.iter().map(|(b, e)| b.len() + 4 * e.len()).sum::<usize>()
        })
    }

    /// Bytes keeping the last row's keys adds.
    pub(crate) fn row_bytes(&self) -> usize {
        (0..self.keyer.len())
            .map(|t| self.keyer.key(t).len() + 4)
            .sum()
    }

    /// Keep the last row's keys; `false` (nothing kept) when a key's end passes 4 GiB.
    pub(crate) fn keep_row(&mut self) -> bool {
        let Some(kept) = self.kept.as_mut() else {
            return false;
        };
        for (t, (bytes, ends)) in kept.iter_mut().enumerate() {
            let key = self.keyer.key(t);
            let Ok(end) = u32::try_from(bytes.len() + key.len()) else {
                return false;
            };
            bytes.extend_from_slice(key);
            ends.push(end);
        }
        true
    }

    /// Stop keeping keys (the data table's rows are no longer kept either).
    pub(crate) fn drop_kept(&mut self) {
        self.kept = None;
    }

    /// Per global index, the kept keys end to end and where each ends (a chunk's, to travel
    /// with its data keys); `None` once the rows are no longer kept.
    pub(crate) fn kept_parts(&self) -> Option<&[(Vec<u8>, Vec<u32>)]> {
        self.kept.as_deref()
    }

    /// Add a chunk's kept keys ([`kept_parts`](Self::kept_parts) of the chunk's first pass),
    /// after the rows kept so far: per global index, its keys end to end and where each ends
    /// (from the chunk's 0). An error (nothing added) when the count of indexes differs, the
    /// keys are not kept here, or an end passes 4 GiB.
    pub(crate) fn append_kept(&mut self, parts: Vec<(Vec<u8>, Vec<u32>)>) -> Result<()> {
        let Some(kept) = self.kept.as_mut() else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the index keys are no longer kept: read the file in one pass",
            ));
        };
        if parts.len() != kept.len() {
            return Err(Error::new(
                ErrorKind::IllegalArgument,
                format!(
                    "the chunk carries {} index tables' keys, where the design has {} global indexes",
                    parts.len(),
                    kept.len()
                ),
            )
            .at_path("chunk"));
        }
        let too_long = || {
            Error::limit(
                "rows",
                "the index keys kept passed 4 GiB: read the file in one pass",
            )
        };
        for ((bytes, _), (add, _)) in kept.iter().zip(&parts) {
            u32::try_from(bytes.len() + add.len()).map_err(|_| too_long())?;
        }
        for ((bytes, ends), (add, add_ends)) in kept.iter_mut().zip(parts) {
            let base = u32::try_from(bytes.len()).map_err(|_| too_long())?;
            bytes.extend_from_slice(&add);
            ends.extend(add_ends.iter().map(|e| e.saturating_add(base)));
        }
        Ok(())
    }
}

/// Each global index's table counted beside the data table's run ([`AnalysisRun`]'s
/// `indexes`), and the design to say every index by.
pub(crate) struct IndexRuns {
    doc: DesignDocument,
    keyer: IndexKeyer,
    runs: Vec<AnalysisRun>,
    /// The data table's run builds each row's data key with the design's own key, so
    /// [`encode`](Self::encode) takes it instead of building it again.
    shares_key: bool,
}

impl IndexRuns {
    /// The index tables of `doc` over rows whose first pass found `summary` (their time axis
    /// and count, the data table's); `exact`: their rows counted exactly, as the data table's.
    pub(crate) fn new(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        summary: &ScanSummary,
        exact: bool,
    ) -> Result<Option<Box<IndexRuns>>> {
        let Some(keyer) = IndexKeyer::new(doc)? else {
            return Ok(None);
        };
        let mut runs = Vec::with_capacity(keyer.len());
        for (i, ..) in &keyer.tables {
            let idx = super::super::doc_for_rows(&index_table_design(doc, *i)?, summary);
            // keyed here, not by the index design's own key: the run only counts
            let keys: KeyEncoder = Box::new(|_, _| {
                Err(Error::new(
                    ErrorKind::IllegalState,
                    "an index table over rows counts the keys it is given",
                ))
            });
            let mut run = AnalysisRun::with_encoder(&idx, opts, keys)?;
            if exact {
                run.analyzer.count_rows_exactly()?;
            }
            run.fed = true;
            run.total = summary.rows;
            runs.push(run);
        }
        Ok(Some(Box::new(IndexRuns {
            doc: doc.clone(),
            keyer,
            runs,
            shares_key: false,
        })))
    }

    /// Take the data key the data table's run builds with `key` when it is the design's own.
    pub(crate) fn share_key_of(&mut self, key: &crate::keyspec::CompiledKey) {
        self.shares_key = key.is_compiled_from(&self.doc.key, &self.doc.key_fields());
    }

    /// Build the row's index keys (before the data table counts it), its data key `data_key`
    /// as the data table's run built it.
    pub(crate) fn encode(&mut self, values: &[FieldValue], data_key: &[u8]) -> Result<()> {
        match self.shares_key {
            true => self.keyer.encode_keyed(values, data_key),
            false => self.keyer.encode(values),
        }
    }

    /// The global indexes.
    pub(crate) fn len(&self) -> usize {
        self.runs.len()
    }

    /// Append the last row's keys for a recount of every table (`analyze_df`'s exact mode):
    /// its data key `data` tagged `0`, then each global index's key tagged with its place
    /// among them plus 1, each key's end after it in `ends`.
    pub(crate) fn push_tagged_keys(
        &self,
        data: &[u8],
        (bytes, ends): &mut (Vec<u8>, Vec<u32>),
    ) -> Result<()> {
        let tables = std::iter::once(data).chain((0..self.runs.len()).map(|t| self.keyer.key(t)));
        for (tag, key) in tables.enumerate() {
            bytes.push(u8::try_from(tag).unwrap_or(u8::MAX));
            bytes.extend_from_slice(key);
            end_key(bytes, ends)?;
        }
        Ok(())
    }

    /// [`finish`](Self::finish) with each global index's table recounted exactly elsewhere
    /// (`recounts`, in the order of the global indexes: [`RowRecount::indexes`]).
    ///
    /// [`RowRecount::indexes`]: crate::analyze::RowRecount::indexes
    pub(crate) fn finish_recounted(
        &self,
        data: &AnalysisReport,
        recounts: &[crate::analyze::RowRecount],
    ) -> Result<Vec<IndexAnalysis>> {
        if recounts.len() != self.runs.len() {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "the recount has {} index tables, where the design has {} global indexes",
                    recounts.len(),
                    self.runs.len()
                ),
            )
            .at_path("recount"));
        }
        let n = self.doc.phoenix.as_ref().map_or(0, |p| p.indexes.len());
        let mut runs = self
            .keyer
            .tables
            .iter()
            .zip(&self.runs)
            .zip(recounts)
            .peekable();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            match runs.peek() {
                Some((((at, ..), run), recount)) if *at == i => {
                    let report = run.finish_recounted(recount).map_err(|e| Error {
                        message: format!(
                            "index {}: {}",
                            self.keyer
                                .tables
                                .iter()
                                .find(|t| t.0 == i)
                                .map_or("", |t| t.1.as_str()),
                            e.message
                        ),
                        ..e
                    })?;
                    out.push(global_index_analysis(&self.doc, i, report));
                    runs.next();
                }
                _ => out.push(local_index_analysis(&self.doc, i, data)),
            }
        }
        Ok(out)
    }

    /// Count the keys [`encode`](Self::encode) built, at the row's time (else each table's
    /// workload clock, the data table's).
    pub(crate) fn count(&mut self, time_ms: Option<i64>) -> Result<()> {
        for (t, run) in self.runs.iter_mut().enumerate() {
            run.count_row(self.keyer.key(t), 0, time_ms)?;
        }
        Ok(())
    }

    /// Count the keys the first pass kept, at the kept rows' `times` (empty: untimed rows).
    pub(crate) fn replay(&mut self, first: &IndexFirstPass, times: &[i64]) -> Result<()> {
        let Some(kept) = first.kept.as_ref() else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "the index keys were not kept: read the rows again",
            ));
        };
        for (run, (bytes, ends)) in self.runs.iter_mut().zip(kept) {
            let mut start = 0usize;
            for (i, &end) in ends.iter().enumerate() {
                let end = end as usize;
                let key = bytes.get(start..end).unwrap_or(&[]);
                start = end;
                run.count_row(key, 0, times.get(i).copied())?;
            }
        }
        Ok(())
    }

    /// Each table's counts from row `index` of the table on (a chunk counted apart).
    pub(crate) fn start_at_row(&mut self, index: u64) -> Result<()> {
        for run in &mut self.runs {
            run.analyzer.start_at_row(index)?;
            run.done = index;
        }
        Ok(())
    }

    /// Count the rows by the sketches alone, as the data table does past the exact cap.
    pub(crate) fn stop_counting_rows_exactly(&mut self) {
        for run in &mut self.runs {
            run.analyzer.stop_counting_rows_exactly();
        }
    }

    /// Each table's partial counts, in the design's order of its global indexes.
    pub(crate) fn partials(
        &self,
        fingerprint: u64,
    ) -> Result<Vec<crate::analyze::analyzer::PartialAnalysis>> {
        self.runs
            .iter()
            .map(|r| r.analyzer.partial(fingerprint))
            .collect()
    }

    /// Add another chunk's partial counts ([`partials`](Self::partials)).
    pub(crate) fn absorb(
        &mut self,
        parts: Vec<crate::analyze::analyzer::PartialAnalysis>,
    ) -> Result<()> {
        if parts.len() != self.runs.len() {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "its index tables are {}, where the design has {} global indexes",
                    parts.len(),
                    self.runs.len()
                ),
            ));
        }
        for (run, p) in self.runs.iter_mut().zip(parts) {
            run.analyzer.absorb_rows(p)?;
        }
        Ok(())
    }

    /// Every index of the design analyzed, in its order: a global index from its table's run,
    /// a local one from `data` (the data table's report of the same rows).
    pub(crate) fn finish(&self, data: &AnalysisReport) -> Vec<IndexAnalysis> {
        let n = self.doc.phoenix.as_ref().map_or(0, |p| p.indexes.len());
        let mut runs = self.keyer.tables.iter().zip(&self.runs).peekable();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            match runs.peek() {
                Some(((at, ..), run)) if *at == i => {
                    out.push(global_index_analysis(&self.doc, i, run.finish()));
                    runs.next();
                }
                _ => out.push(local_index_analysis(&self.doc, i, data)),
            }
        }
        out
    }
}

/// A sink that builds each row's index keys before handing the row on, so a row an index
/// cannot key is refused (or skipped) by a first pass as the analysis refuses it.
pub(crate) struct KeyedByIndexes<'a, S: ?Sized> {
    pub(crate) keyer: Option<IndexKeyer>,
    pub(crate) sink: &'a mut S,
}

impl<S: RowSink + ?Sized> RowSink for KeyedByIndexes<'_, S> {
    fn row(&mut self, values: &[FieldValue], time_ms: Option<i64>) -> Result<()> {
        if let Some(k) = self.keyer.as_mut() {
            k.encode(values)?;
        }
        self.sink.row(values, time_ms)
    }
    fn takes_no_rows(&self) -> bool {
        self.sink.takes_no_rows()
    }
}

/// The fields a reader of `doc`'s rows binds for its analysis: [`row_fields`]'s, and the
/// columns every global index keys required of the file as the key's are (a row whose index
/// key cannot be built from a null is the null policy's). `readers`: (field, who reads it)
/// for each field the key does not read, for [`readers_error`].
///
/// [`row_fields`]: super::super::row_fields
/// The key just written to `bytes` ended: its end in `ends` (a chunk's keys are addressed by
/// 32-bit offsets, so they stop at 4 GiB).
pub(super) fn end_key(bytes: &[u8], ends: &mut Vec<u32>) -> Result<()> {
    ends.push(u32::try_from(bytes.len()).map_err(|_| {
        Error::new(
            ErrorKind::Limit,
            "the keys of one chunk of rows passed 4 GiB: cut the rows into smaller chunks",
        )
    })?);
    Ok(())
}

pub(crate) fn analysis_fields(doc: &DesignDocument) -> Result<AnalysisFields> {
    fields_read(doc, |_, x| x.kind != IndexKind::Local)
}

/// [`analysis_fields`] with the columns of the indexes `which` takes (by position).
fn fields_read(
    doc: &DesignDocument,
    which: impl Fn(usize, &crate::design::phoenix::PhoenixIndex) -> bool,
) -> Result<AnalysisFields> {
    let (fields, mut used) = super::super::row_fields(doc)?;
    let mut readers = Vec::new();
    let indexes = doc.phoenix.as_ref().map_or(&[][..], |p| &p.indexes[..]);
    let taken = indexes.iter().enumerate().filter(|(i, x)| which(*i, x));
    for (_, x) in taken {
        for c in &x.columns {
            let Some(at) = doc.fields.iter().position(|f| f.name == c.name) else {
                continue;
            };
            if !used.contains(&at) {
                used.push(at);
                readers.push((c.name.clone(), format!("index {}", x.name)));
            }
        }
    }
    used.sort_unstable();
    Ok((fields, used, readers))
}

/// [`analysis_fields`]' answer: the fields, those required, and who reads each the key does
/// not.
pub(crate) type AnalysisFields = (crate::rows::FieldList, Vec<usize>, Vec<(String, String)>);

/// A reader's error for a field the key does not read but an index does (`readers`, from
/// [`analysis_fields`]): said as the index's, at the same place (`map/FIELD`).
pub(crate) fn readers_error(readers: &[(String, String)], mut e: Error) -> Error {
    for (field, who) in readers {
        if e.location.path.as_deref() == Some(&format!("map/{field}"))
            && e.message.starts_with("the key reads field")
        {
            e.message = e.message.replacen("the key", who, 1);
            break;
        }
    }
    e
}
