//! What the advisor's index findings are counted over ([`Over`]): the generated workload the
//! candidates were evaluated on, or the sample of a user's rows they were, the same rows for
//! the hot index, each fix and the data table.

use crate::analyze::{analyze_indexes, AnalysisReport, AnalyzeOptions, IndexAnalysis};
use crate::design::DesignDocument;
use crate::error::Result;

/// A sample of a user's rows (none in a build that reads no rows).
#[cfg(feature = "rows")]
pub(in crate::advise) type Sample = crate::rows::RowSample;
/// A sample of a user's rows (none in a build that reads no rows).
#[cfg(not(feature = "rows"))]
pub(in crate::advise) enum Sample {}

/// What a finding and its fixes are counted over: `None`, the advisor's generated workload;
/// a sample of the user's rows, the rows every candidate was evaluated on.
pub(in crate::advise) type Over<'a> = Option<&'a Sample>;

/// `doc` over a sample of rows as `analyze --records` counts a file (its Phoenix indexes with
/// it): the finished report, each index's analysis in its `indexes`.
#[cfg(feature = "rows")]
fn rows_report(
    doc: &DesignDocument,
    aopts: &AnalyzeOptions,
    rows: &Sample,
) -> Result<AnalysisReport> {
    let fields: Vec<String> = doc.fields.iter().map(|f| f.name.clone()).collect();
    let (run, _, _) =
        crate::analyze::count_rows(doc, aopts, crate::limits::MAX_REPLAY_BYTES, &mut |sink| {
            rows.each(&fields, &mut |values, time| sink.row(values, time))?;
            Ok(crate::rows::RowStats::default())
        })?;
    Ok(run.finish())
}

/// The data table's report of `doc` (its indexes left out: none changes it).
pub(super) fn data_report(
    doc: &DesignDocument,
    aopts: &AnalyzeOptions,
    over: Over<'_>,
) -> Result<AnalysisReport> {
    match over {
        None => {
            let mut run = crate::analyze::AnalysisRun::new(doc, aopts)?;
            while !run.step(1 << 16)?.finished {}
            Ok(run.finish())
        }
        #[cfg(feature = "rows")]
        Some(rows) => {
            let mut bare = doc.clone();
            if let Some(p) = bare.phoenix.as_mut() {
                p.indexes.clear();
            }
            rows_report(&bare, aopts, rows)
        }
        #[cfg(not(feature = "rows"))]
        Some(s) => match *s {},
    }
}

/// `doc`'s indexes analyzed beside its data table's report `data`.
pub(super) fn index_analyses(
    doc: &DesignDocument,
    aopts: &AnalyzeOptions,
    data: &AnalysisReport,
    over: Over<'_>,
) -> Result<Vec<IndexAnalysis>> {
    match over {
        None => analyze_indexes(doc, aopts, data),
        #[cfg(feature = "rows")]
        Some(rows) => Ok(rows_report(doc, aopts, rows)?.indexes),
        #[cfg(not(feature = "rows"))]
        Some(s) => match *s {},
    }
}

/// Field `f`'s distinct values: the design's (its workload's) over the workload, the sample's
/// over rows.
pub(super) fn distinct_values(doc: &DesignDocument, f: &str, over: Over<'_>) -> Result<u64> {
    match over {
        None => Ok(crate::advise::shape::cardinality(doc, f)),
        #[cfg(feature = "rows")]
        Some(rows) => {
            let mut seen = std::collections::HashSet::new();
            rows.each(&[f.to_string()], &mut |values, _| {
                if let Some(v) = values.first() {
                    seen.insert(format!("{v:?}"));
                }
                Ok(())
            })?;
            Ok(seen.len() as u64)
        }
        #[cfg(not(feature = "rows"))]
        Some(s) => match *s {},
    }
}

/// Each sample row's key in index `i` of `doc`, as a pre-split's sample holds keys (`None`:
/// over the workload, whose run cuts at its own first keys).
#[cfg(feature = "rows")]
pub(super) fn index_keys_over(
    doc: &DesignDocument,
    i: usize,
    over: Over<'_>,
) -> Result<Option<Vec<String>>> {
    let Some(rows) = over else {
        return Ok(None);
    };
    let fields: Vec<String> = doc.fields.iter().map(|f| f.name.clone()).collect();
    let mut enc = crate::design::phoenix::IndexEncoder::new(doc, i, &[])?;
    let mut key = Vec::new();
    let mut keys = Vec::with_capacity(rows.len());
    rows.each(&fields, &mut |values, _| {
        key.clear();
        enc.encode_values_into(values, &mut key)?;
        keys.push(crate::hbase::bytes::to_string_binary(&key));
        Ok(())
    })?;
    Ok(Some(keys))
}

/// Over the workload, whose run cuts at its own first keys: `None` (no rows in this build).
#[cfg(not(feature = "rows"))]
pub(super) fn index_keys_over(
    _: &DesignDocument,
    _: usize,
    over: Over<'_>,
) -> Result<Option<Vec<String>>> {
    match over {
        None => Ok(None),
        Some(s) => match *s {},
    }
}

/// The rows a sample holds and the rows of its file.
#[cfg(feature = "rows")]
pub(super) fn sample_rows(rows: &Sample) -> (u64, u64) {
    (rows.len() as u64, rows.file_rows())
}

/// The rows a sample holds and the rows of its file.
#[cfg(not(feature = "rows"))]
pub(super) fn sample_rows(rows: &Sample) -> (u64, u64) {
    match *rows {}
}
