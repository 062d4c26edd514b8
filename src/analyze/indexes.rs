//! Each Phoenix secondary index of a design analyzed as the table it is: a global index's rows
//! (their keys built by the `IndexMaintainer` port, [`crate::design::phoenix::IndexEncoder`])
//! counted over its own regions (its salt buckets or `SPLIT ON` points), as the data table's
//! rows are over the data table's; a local index adds rows to the data table's own regions and
//! no region of its own. Beside each: the writes an index adds per data write, and its bytes.
//!
//! Write amplification, per kind, from Phoenix 5's `IndexRegionObserver` (strongly consistent
//! global indexes: an unverified index put before the data write, a verifying put after it;
//! a row whose index key changes gets its old index row marked unverified first and deleted
//! after), and the local index's same-region writes:
//!
//! | data write | global (covered) | uncovered | local |
//! |---|---|---|---|
//! | put of a new row | 2 (unverified put, verified put) | 1 (unverified put) | 1 |
//! | update of an indexed column | 4 (new row 2; old row unverified put, delete) | 3 (new row 1; old row 2) | 2 (put, delete) |
//! | delete | 2 (unverified put, delete) | 2 | 1 |

use serde::{Deserialize, Serialize};

use super::{analyze_with_encoder, AnalysisReport, AnalyzeOptions};
use crate::design::phoenix::{index_design, print_create_index, IndexEncoder, IndexKind};
use crate::design::DesignDocument;
use crate::error::Result;

/// The index-table mutations one data-table write causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexWrites {
    /// Per put of a new data row.
    pub put: u32,
    /// Per update that changes an indexed column's value (the index row moves).
    pub update_indexed: u32,
    /// Per delete of a data row.
    pub delete: u32,
    /// Of `put`, the strongly consistent protocol's extra write (the verifying put after the
    /// data write); 0 for uncovered and local indexes.
    pub consistency_extra: u32,
}

/// The index-table writes of an index of `kind` (see the module table).
pub fn index_writes(kind: IndexKind) -> IndexWrites {
    match kind {
        IndexKind::Global => IndexWrites {
            put: 2,
            update_indexed: 4,
            delete: 2,
            consistency_extra: 1,
        },
        IndexKind::Uncovered => IndexWrites {
            put: 1,
            update_indexed: 3,
            delete: 2,
            consistency_extra: 0,
        },
        IndexKind::Local => IndexWrites {
            put: 1,
            update_indexed: 2,
            delete: 1,
            consistency_extra: 0,
        },
    }
}

/// One index of a design, analyzed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexAnalysis {
    /// The index name.
    pub name: String,
    /// Its kind.
    pub kind: IndexKind,
    /// Regions of its own: a global index's table's regions at the end of the run; 0 for a
    /// local index (its rows are in the data table's regions).
    pub regions_of_its_own: usize,
    /// A global index's table analyzed over the design's workload (its regions, writes per
    /// region and window, hotspot metrics); `None` for a local index, whose writes per region
    /// are the data table's.
    pub report: Option<AnalysisReport>,
    /// The index writes each data write causes.
    pub writes: IndexWrites,
    /// Mean bytes of one index row as written (its key, plus the value bytes the analysis
    /// counts: the empty column for an uncovered index, the included columns' for a covered
    /// one).
    pub bytes_per_row: f64,
    /// Bytes written to the index over the run (`bytes_per_row` × rows, before the
    /// consistency protocol's extra puts, which carry no new data).
    pub bytes: u64,
    /// Data-table lookups each row read through the index costs: 1 for an uncovered index
    /// (its rows hold only the key: every other column is fetched from the data table), 0 for
    /// a covered or local one reading columns it holds.
    pub data_lookups_per_row: u32,
    /// Mean over the loaded windows of the busiest region's share of the window's index
    /// writes (the index's report's `metrics.meanBusiestShare`; a local index's are the data
    /// table's, whose regions its rows share).
    pub busiest_share: f64,
    /// The largest busiest-region share of any window.
    pub max_busiest_share: f64,
    /// Mean hotspot factor over the loaded windows (busiest region / mean region).
    pub hotspot_factor: f64,
    /// `bytes_per_row` and `bytes` are estimates, not counts of encoded bytes (see
    /// `estimates`).
    pub bytes_estimated: bool,
    /// What is estimated and how, one sentence each (empty when every figure is counted).
    pub estimates: Vec<String>,
}

/// Why a local index's bytes are an estimate.
const LOCAL_BYTES_ESTIMATE: &str = "bytes per row of a local index are estimated: the data \
    row's key bytes, plus its 2-byte index id and the value bytes (the indexed columns' \
    reorder counted at their data-key sizes, as when no type is converted)";
/// Why a covered index's bytes are an estimate.
const INCLUDE_BYTES_ESTIMATE: &str = "the INCLUDE columns' bytes are estimated: each at its \
    type's width, or its declared length (16 when it has none) for a variable-width type";

/// `report` with each Phoenix index of `doc` analyzed over the same workload
/// ([`analyze_indexes`]) in its `indexes`: the engine's analysis answer for a design with
/// indexes. A design without indexes is returned as it is, at no cost.
pub fn with_indexes(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    mut report: AnalysisReport,
) -> Result<AnalysisReport> {
    // The page's first wasm (no `library`, no `fast`) is budgeted by its gzip bytes and has no
    // index view yet: it leaves `indexes` empty, and the index analysis out of its bytes (29 KB
    // gzip). Its workers' speed build (`fast`), the npm package and native code analyze them.
    #[cfg(any(not(target_arch = "wasm32"), feature = "library", feature = "fast"))]
    if doc.phoenix.as_ref().is_some_and(|p| !p.indexes.is_empty()) {
        report.indexes = analyze_indexes(doc, opts, &report)?;
    }
    #[cfg(not(any(not(target_arch = "wasm32"), feature = "library", feature = "fast")))]
    let _ = (doc, opts, &mut report);
    Ok(report)
}

/// The value bytes an index row carries: one byte for the empty column (`x` / the verified
/// flag), plus a covered index's included columns, each its type's width, or its declared
/// length (16 when it has none) for a variable-width type.
pub fn index_value_bytes(doc: &DesignDocument, i: usize) -> u64 {
    let Some(p) = doc.phoenix.as_ref() else {
        return 1;
    };
    let Some(x) = p.indexes.get(i) else {
        return 1;
    };
    let mut n = 1u64;
    for c in &x.include {
        let decl = p.columns.iter().find(|d| d.name == c.name);
        let width = decl
            .and_then(|d| {
                let name: String = d
                    .data_type
                    .chars()
                    .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                    .collect();
                let t = crate::hbase::phoenix::PhoenixType::from_sql_name(&name.to_uppercase())?;
                t.byte_size().map(|w| w as u64).or_else(|| {
                    let len = d.data_type.split(['(', ',', ')']).nth(1)?;
                    len.trim().parse::<u64>().ok()
                })
            })
            .unwrap_or(16);
        n = n.saturating_add(width);
    }
    n
}

/// Every index of `doc` analyzed (see the module docs), in the design's order. `data` is the
/// data table's own analysis of the same run, whose regions a local index shares.
pub fn analyze_indexes(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    data: &AnalysisReport,
) -> Result<Vec<IndexAnalysis>> {
    let n = doc.phoenix.as_ref().map_or(0, |p| p.indexes.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let Some(x) = doc.phoenix.as_ref().and_then(|p| p.indexes.get(i)) else {
            continue;
        };
        if x.kind == IndexKind::Local {
            out.push(local_index_analysis(doc, i, data));
            continue;
        }
        let idx = index_table_design(doc, i)?;
        let mut enc = IndexEncoder::new(doc, i, &[])?;
        let decls = doc.fields.clone();
        let mut values = Vec::with_capacity(decls.len());
        let encoder: super::KeyEncoder = Box::new(move |r, out| {
            values.clear();
            for (decl, v) in decls.iter().zip(&r.values) {
                values.push(super::run::convert_value(decl, v)?);
            }
            enc.encode_values_into(&values, out)
        });
        let report = analyze_with_encoder(&idx, opts, encoder)?;
        out.push(global_index_analysis(doc, i, report));
    }
    Ok(out)
}

/// Global index `i` of `doc` as the design its table is analyzed with: [`index_design`], each
/// row's bytes its key and the value bytes it carries ([`index_value_bytes`]).
pub(crate) fn index_table_design(doc: &DesignDocument, i: usize) -> Result<DesignDocument> {
    let mut idx = index_design(doc, i)?;
    let mut w = idx.workload.take().unwrap_or_default();
    w.value_size = index_value_bytes(doc, i);
    idx.workload = Some(w);
    Ok(idx)
}

/// Local index `i` of `doc`: its rows in the data table's regions (`data`, the data table's
/// report of the same rows), its figures the data table's, its bytes estimated.
pub(crate) fn local_index_analysis(
    doc: &DesignDocument,
    i: usize,
    data: &AnalysisReport,
) -> IndexAnalysis {
    let x = doc.phoenix.as_ref().and_then(|p| p.indexes.get(i));
    let value = index_value_bytes(doc, i);
    // Rows in the data row's region: the data table's writes per region, again.
    let rows = data.writes;
    let key_bytes = data.bytes.saturating_sub(
        data.writes
            .saturating_mul(doc.workload.clone().unwrap_or_default().value_size),
    );
    // The local key: the region's start key, the 2-byte id and the index columns; counted
    // here as the data key's bytes plus the id (the columns' reorder keeps their sizes when
    // no type is converted).
    let per_row = if rows == 0 {
        0.0
    } else {
        key_bytes as f64 / rows as f64 + 2.0 + value as f64
    };
    let mut estimates = vec![LOCAL_BYTES_ESTIMATE.to_string()];
    if x.is_some_and(|x| !x.include.is_empty()) {
        estimates.push(INCLUDE_BYTES_ESTIMATE.to_string());
    }
    IndexAnalysis {
        name: x.map(|x| x.name.clone()).unwrap_or_default(),
        kind: IndexKind::Local,
        regions_of_its_own: 0,
        report: None,
        writes: index_writes(IndexKind::Local),
        bytes_per_row: per_row,
        bytes: (per_row * rows as f64).round() as u64,
        data_lookups_per_row: 0,
        busiest_share: data.metrics.mean_busiest_share,
        max_busiest_share: data.metrics.max_busiest_share,
        hotspot_factor: data.metrics.mean_hotspot_factor,
        bytes_estimated: true,
        estimates,
    }
}

/// Global index `i` of `doc` from its table's report (`report`, its rows counted over its own
/// regions).
pub(crate) fn global_index_analysis(
    doc: &DesignDocument,
    i: usize,
    report: AnalysisReport,
) -> IndexAnalysis {
    let x = doc.phoenix.as_ref().and_then(|p| p.indexes.get(i));
    let kind = x.map_or(IndexKind::Global, |x| x.kind);
    let per_row = if report.writes == 0 {
        0.0
    } else {
        report.bytes as f64 / report.writes as f64
    };
    let estimates: Vec<String> = if x.is_some_and(|x| !x.include.is_empty()) {
        vec![INCLUDE_BYTES_ESTIMATE.to_string()]
    } else {
        Vec::new()
    };
    IndexAnalysis {
        name: x.map(|x| x.name.clone()).unwrap_or_default(),
        kind,
        regions_of_its_own: report.regions.len(),
        bytes_per_row: per_row,
        bytes: report.bytes,
        busiest_share: report.metrics.mean_busiest_share,
        max_busiest_share: report.metrics.max_busiest_share,
        hotspot_factor: report.metrics.mean_hotspot_factor,
        bytes_estimated: !estimates.is_empty(),
        estimates,
        report: Some(report),
        writes: index_writes(kind),
        data_lookups_per_row: u32::from(kind == IndexKind::Uncovered),
    }
}

/// One Phoenix index of a design as the table Phoenix makes of it: its statement and, for a
/// global index, the split keys its table is created with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexTable {
    /// The index name.
    pub name: String,
    /// Its kind.
    pub kind: IndexKind,
    /// Its `CREATE ... INDEX` statement ([`print_create_index`]).
    pub sql: String,
    /// A global index's initial split keys (its salt buckets or `SPLIT ON` points), hex; none
    /// for a local index, whose rows are in the data table's regions.
    pub split_keys_hex: Vec<String>,
}

/// Each Phoenix index of `doc` as a table ([`IndexTable`]), in the design's order; none
/// without a `phoenix` section or indexes.
pub fn index_tables(doc: &DesignDocument) -> Result<Vec<IndexTable>> {
    let Some(p) = doc.phoenix.as_ref() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(p.indexes.len());
    for (i, x) in p.indexes.iter().enumerate() {
        let split_keys_hex = if x.kind == IndexKind::Local {
            Vec::new()
        } else {
            super::initial_split_keys(&index_design(doc, i)?)?
                .iter()
                .map(|k| k.iter().map(|b| format!("{b:02x}")).collect())
                .collect()
        };
        out.push(IndexTable {
            name: x.name.clone(),
            kind: x.kind,
            sql: print_create_index(doc, i)?,
            split_keys_hex,
        });
    }
    Ok(out)
}
