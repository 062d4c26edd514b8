//! A Phoenix design's indexes on an advisor's candidate: each index's figures over the
//! candidate's workload ([`IndexCost`], in its [`super::CandidateMetrics`]). An index key ends
//! with the data key's columns and an index of a salted table takes its buckets, so a change
//! of data key changes its indexes: each candidate carries them. An index "concentrates
//! writes" when its table's verdict is one of the analysis's hotspot verdicts
//! ([`Spread::concentrates_writes`]); a local index has no table of its own (its rows are in
//! the data table's regions) and is judged with the data table.

use serde::{Deserialize, Serialize};

use crate::analyze::{
    analyze_indexes, AnalysisReport, AnalyzeOptions, IndexAnalysis, IndexWrites, Spread,
};
use crate::design::phoenix::IndexKind;
use crate::design::DesignDocument;
use crate::error::Result;

/// One Phoenix index's figures on a candidate (its table over the advisor's workload).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexCost {
    /// The index name.
    pub name: String,
    /// Its kind.
    pub kind: IndexKind,
    /// Regions of its own at the end of the run (0 for a local index).
    pub regions: usize,
    /// Mean over the loaded windows of the busiest region's share of the index's writes (a
    /// local index: the data table's).
    pub busiest_share: f64,
    /// The largest busiest-region share of any window.
    pub max_busiest_share: f64,
    /// Its table's verdict ([`crate::analyze::spread_of`]); `None` for a local index.
    pub spread: Option<Spread>,
    /// Its table concentrates writes ([`Spread::concentrates_writes`]); never for a local
    /// index (judged with the data table).
    pub concentrates_writes: bool,
    /// The index writes each data write causes.
    pub writes: IndexWrites,
    /// Mean bytes of one index row.
    pub bytes_per_row: f64,
}

impl IndexCost {
    fn of(a: &IndexAnalysis) -> IndexCost {
        let spread = a.report.as_ref().map(|r| r.spread);
        IndexCost {
            name: a.name.clone(),
            kind: a.kind,
            regions: a.regions_of_its_own,
            busiest_share: a.busiest_share,
            max_busiest_share: a.max_busiest_share,
            spread,
            concentrates_writes: spread.is_some_and(Spread::concentrates_writes),
            writes: a.writes,
            bytes_per_row: a.bytes_per_row,
        }
    }
}

/// Each Phoenix index of `doc` analyzed over the same run as `data` (the data table's report
/// on the advisor's workload), as [`IndexCost`]s; none without indexes.
pub(super) fn index_costs(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    data: &AnalysisReport,
) -> Result<Vec<IndexCost>> {
    if doc.phoenix.as_ref().map_or(true, |p| p.indexes.is_empty()) {
        return Ok(Vec::new());
    }
    Ok(analyze_indexes(doc, opts, data)?
        .iter()
        .map(IndexCost::of)
        .collect())
}

/// The indexes a run over a user's rows counted beside its data table (its report's
/// `indexes`), as [`IndexCost`]s.
pub(super) fn counted(data: &AnalysisReport) -> Vec<IndexCost> {
    data.indexes.iter().map(IndexCost::of).collect()
}
