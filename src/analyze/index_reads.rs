//! Reads through a Phoenix table's indexes: for each read of a design, the table Phoenix's
//! optimizer would read (the data table or one of its indexes), how (a point lookup, a range
//! scan over the leading key columns the read binds, or a full scan), the rows read per row
//! returned, and the data-table lookups an index that does not hold the row adds, beside the
//! plan on the data table alone.
//!
//! The choice follows `QueryOptimizer.orderPlansBestToWorst` in its main rules: a point
//! lookup on the data table wins outright; otherwise the table whose key's leading columns the
//! read binds most (each column fixed to one value, then at most one range) is read; among
//! equals the one needing no data-table lookup, then the data table, then the design's order.
//! A table whose leading column the read leaves open is a full scan (Phoenix reads the data
//! table then). A read is taken to return whole rows: an index holds them when every column of
//! the table is in its key or `INCLUDE`; an uncovered index never does, and each row read
//! through an index that does not hold it is looked up again in the data table (a local index
//! in the same region). A local index's rows are in every data region, under each region's
//! start key: a read through it scans every data region.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::design::phoenix::{index_design, index_key_spec, index_shape, IndexKind};
use crate::design::DesignDocument;
use crate::error::Result;
use crate::scan::{ReadPattern, ReadPlan};

/// How a table is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Access {
    /// Every key column fixed: one row.
    PointLookup,
    /// The leading key columns bound: a range of the table.
    RangeScan,
    /// The leading key column left open: the whole table, filtered.
    FullScan,
}

/// One table a read could go through, planned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadThrough {
    /// The index name; `None` for the data table.
    pub index: Option<String>,
    /// The index's kind; `None` for the data table.
    pub kind: Option<IndexKind>,
    /// How the table is read.
    pub access: Access,
    /// The leading key columns (after the salt) the read binds: fixed ones, then at most one
    /// range.
    pub bound_columns: usize,
    /// The read planned on this table (its scans, regions, rows read per row returned).
    pub plan: ReadPlan,
    /// Data-table lookups per row returned: 0 on the data table or an index holding the row,
    /// 1 otherwise.
    pub data_lookups_per_row: u32,
}

/// One read of the design, through the table Phoenix would pick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexReadPlan {
    /// The read's label.
    pub read: String,
    /// The table picked and its plan.
    pub chosen: ReadThrough,
    /// The read on the data table alone.
    pub without_index: ReadThrough,
    /// Every table considered, the data table first (an index whose leading column the read
    /// leaves open is not).
    pub candidates: Vec<ReadThrough>,
}

/// The fields a read fixes to one value, and the ones it bounds by a range.
fn read_fields(r: &ReadPattern) -> (Map<String, Value>, Vec<String>) {
    match r {
        ReadPattern::Get { record, .. }
        | ReadPattern::Prefix { record, .. }
        | ReadPattern::Latest { record, .. } => (record.clone(), Vec::new()),
        ReadPattern::Range { from, to, .. } => {
            let mut fixed = Map::new();
            let mut ranged = Vec::new();
            for (k, v) in from {
                if to.get(k) == Some(v) {
                    fixed.insert(k.clone(), v.clone());
                } else {
                    ranged.push(k.clone());
                }
            }
            ranged.extend(to.keys().filter(|k| !from.contains_key(*k)).cloned());
            (fixed, ranged)
        }
    }
}

/// The leading columns of `columns` the read binds, and how the table is read.
fn bound(columns: &[String], fixed: &Map<String, Value>, ranged: &[String]) -> (usize, Access) {
    let eq = columns
        .iter()
        .take_while(|c| fixed.contains_key(*c))
        .count();
    if eq == columns.len() && eq > 0 {
        return (eq, Access::PointLookup);
    }
    let n = eq + usize::from(columns.get(eq).is_some_and(|c| ranged.contains(c)));
    (
        n,
        if n > 0 {
            Access::RangeScan
        } else {
            Access::FullScan
        },
    )
}

/// `design` with `read` as its one read, planned over its table split at `split_keys`; a read
/// the index's key cannot plan as it is (a get that leaves an index column out) planned as the
/// prefix of the fields it fixes.
fn plan_one(
    design: &mut DesignDocument,
    read: &ReadPattern,
    fixed: &Map<String, Value>,
    split_keys: &[Vec<u8>],
) -> Result<ReadPlan> {
    design.reads = vec![read.clone()];
    let first = design.plan_reads(split_keys);
    let plans = match first {
        Ok(p) => p,
        Err(e) => {
            design.reads = vec![ReadPattern::Prefix {
                name: Some(read.name()),
                record: fixed.clone(),
            }];
            design.plan_reads(split_keys).map_err(|_| e)?
        }
    };
    plans.into_iter().next().ok_or_else(|| {
        crate::error::Error::new(
            crate::error::ErrorKind::IllegalState,
            "no plan for the read",
        )
    })
}

/// Each read of `doc` through the table Phoenix would pick among the data table and its
/// indexes (see the module docs), the data table split at `split_keys` and each global index
/// at its own pre-split; empty without indexes. Errors name the read (`/reads/i`).
pub fn plan_reads_through_indexes(
    doc: &DesignDocument,
    split_keys: &[Vec<u8>],
) -> Result<Vec<IndexReadPlan>> {
    let Some(section) = doc.phoenix.as_ref().filter(|p| !p.indexes.is_empty()) else {
        return Ok(Vec::new());
    };
    let data_plans = doc.plan_reads(split_keys)?;
    // The non-key columns a whole row holds: an index holds the row when it has them all.
    let shape0 = index_shape(doc, 0)?;
    let data_pk: Vec<String> = shape0.data.columns.iter().map(|c| c.name.clone()).collect();
    let others: Vec<&str> = section
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .filter(|c| !data_pk.iter().any(|k| k == c))
        .collect();
    // Each index: its key columns, its design to plan on and its split keys, its lookups.
    let mut tables = Vec::with_capacity(section.indexes.len());
    for (i, x) in section.indexes.iter().enumerate() {
        let shape = index_shape(doc, i)?;
        let columns: Vec<String> = shape.columns.iter().map(|c| c.name.clone()).collect();
        let mut design = index_design(doc, i)?;
        let keys = if x.kind == IndexKind::Local {
            // Planned on the index's own key (no region prefix); every data region is read.
            design.key = index_key_spec(doc, i)?;
            design.regions = None;
            Vec::new()
        } else {
            super::initial_split_keys(&design)?
        };
        let holds = x.kind != IndexKind::Uncovered
            && others.iter().all(|c| {
                // an indexed expression holds its value, not its column's
                (x.columns.iter().chain(&x.include)).any(|k| k.name == *c && k.expression.is_none())
            });
        tables.push((
            x.name.clone(),
            x.kind,
            columns,
            design,
            keys,
            u32::from(!holds),
        ));
    }
    let data_regions = split_keys.len() + 1;
    let mut out = Vec::with_capacity(doc.reads.len());
    for (ri, (read, data_plan)) in doc.reads.iter().zip(data_plans).enumerate() {
        let (fixed, ranged) = read_fields(read);
        let (n, access) = bound(&data_pk, &fixed, &ranged);
        let without = ReadThrough {
            index: None,
            kind: None,
            access,
            bound_columns: n,
            plan: data_plan,
            data_lookups_per_row: 0,
        };
        let mut candidates = vec![without.clone()];
        for (name, kind, columns, design, keys, lookups) in &mut tables {
            let (n, access) = bound(columns, &fixed, &ranged);
            if n == 0 {
                continue;
            }
            let mut plan = plan_one(design, read, &fixed, keys)
                .map_err(|e| e.at_path(format!("/reads/{ri}")))?;
            if *kind == IndexKind::Local {
                plan.regions_touched = data_regions;
                plan.notes.push(format!(
                    "a local index's rows are under each data region's start key: all {data_regions} data regions are read"
                ));
            }
            if *lookups > 0 {
                plan.notes.push(
                    "the index does not hold the whole row: each row read is looked up in the data table".to_string(),
                );
            }
            candidates.push(ReadThrough {
                index: Some(name.clone()),
                kind: Some(*kind),
                access,
                bound_columns: n,
                plan,
                data_lookups_per_row: *lookups,
            });
        }
        let chosen = if without.access == Access::PointLookup {
            without.clone()
        } else {
            // Most bound columns; then no lookup; then the data table; then design order.
            candidates
                .iter()
                .enumerate()
                .max_by(|(i, a), (j, b)| {
                    a.bound_columns
                        .cmp(&b.bound_columns)
                        .then(b.data_lookups_per_row.cmp(&a.data_lookups_per_row))
                        .then(j.cmp(i))
                })
                .map_or_else(|| without.clone(), |(_, c)| c.clone())
        };
        out.push(IndexReadPlan {
            read: read.name(),
            chosen,
            without_index: without,
            candidates,
        });
    }
    Ok(out)
}
