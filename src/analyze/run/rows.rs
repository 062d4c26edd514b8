//! An [`AnalysisRun`] over a user's rows ([`crate::rows`]): the first pass's summary sets the
//! run's size and time axis, then each row is encoded and counted as it is read.

use super::*;
use crate::rows::{RowScan, RowSink};

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
        let doc = fit_to_scan(doc, scan);
        let scan = &scan.summary;
        let mut doc = doc;
        let mut workload = doc.workload.take().unwrap_or_default();
        workload.records = scan.rows.max(1);
        if let (Some(first), Some(last)) = (scan.first_ms, scan.last_ms) {
            workload.start_time = first;
            // The axis spans first..=last: one ms more, so the last row is inside it.
            let span_ms = (i128::from(last) - i128::from(first) + 1).max(1);
            workload.write_rate = workload.records as f64 * 1000.0 / span_ms as f64;
        }
        doc.workload = Some(workload);
        let mut run = AnalysisRun::new(&doc, opts)?;
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
    let mut doc = doc.clone();
    if let Some(layout) = doc.regions.as_mut() {
        if let crate::region::PreSplit::SampleQuantiles { sample, .. } = &mut layout.presplit {
            if sample.is_none() {
                let keys = scan.sample();
                *sample = Some(
                    keys.iter()
                        .map(|k| crate::hbase::bytes::to_string_binary(k))
                        .collect(),
                );
            }
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
        self.key.clear();
        d.key.encode_values_into(&mut self.key, values)?;
        let q = match &self.qualifier {
            Some(q) => q.of_values(values),
            None => 0,
        };
        let time_ms = time_ms.unwrap_or_else(|| self.stream.time_of(self.done));
        let bytes = (self.key.len() as u64).saturating_add(self.value_size);
        self.analyzer.push_cell(&self.key, q, time_ms, bytes);
        self.done += 1;
        self.total = self.total.max(self.done);
        if self.done % SAMPLE_CHECK_EVERY == 0 {
            self.analyzer.check_sample_bytes()?;
        }
        Ok(())
    }
}

/// A design's fields as a [`crate::rows::RowReader`] takes them: each declaration's name and
/// type, and the fields its key reads.
pub fn row_fields(doc: &DesignDocument) -> Result<(crate::rows::FieldList, Vec<usize>)> {
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let fields = doc
        .fields
        .iter()
        .map(|f| (f.name.clone(), f.field_type))
        .collect();
    Ok((fields, key.used_fields()))
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
    use crate::rows::{RowReader, RowScan};
    let (fields, used) = row_fields(doc)?;
    let key = crate::keyspec::CompiledKey::new(&doc.key, &doc.key_fields())?;
    let mut scan = RowScan::new(Some(key));
    if needs_row_sample(doc) {
        scan = scan.with_sample();
    }
    let mut reader = RowReader::new(fields.clone(), used.clone(), rows.clone());
    reader.push(bytes, &mut scan)?;
    reader.finish(&mut scan)?;
    let mut run = AnalysisRun::for_rows(doc, opts, &scan)?;
    let mut reader = RowReader::new(fields, used, rows.clone());
    reader.push(bytes, &mut run)?;
    let stats = reader.finish(&mut run)?;
    Ok((run.finish(), stats))
}
