//! A table's rows recounted exactly where they live (a Spark job: every row's key encoded,
//! `groupBy` the key, count its writes) and put in the report merged from its partials in place
//! of the sketches' largest rows and distinct rows: the figures one pass gives when it counts
//! every row itself, past the engine's cap too.

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;

use super::super::*;
use super::partial::{partial_split_keys, report_of_merged};
use crate::analyze::{CountedRow, RowRecount};
use crate::region::RegionMap;

/// The tables a recount places keys in: the data table, then each global Phoenix index's
/// (keys tagged by their table: [`IndexRuns::push_tagged_keys`]); each its region map and the
/// design its bytes per write are counted by.
///
/// [`IndexRuns::push_tagged_keys`]: super::indexes::IndexRuns::push_tagged_keys
fn recount_tables(doc: &DesignDocument) -> Result<Vec<(RegionMap, DesignDocument)>> {
    let mut tables = vec![(RegionMap::new(partial_split_keys(doc)?)?, doc.clone())];
    let indexes = doc.phoenix.as_ref().map_or(&[][..], |p| &p.indexes[..]);
    for (i, x) in indexes.iter().enumerate() {
        if x.kind != crate::design::phoenix::IndexKind::Local {
            let idx = crate::analyze::indexes::index_table_design(doc, i)?;
            tables.push((RegionMap::new(partial_split_keys(&idx)?)?, idx));
        }
    }
    Ok(tables)
}

/// The recount of one group of distinct row keys: `batches`' first column the keys (binary,
/// large binary or binary view; each key in no other group), the second their writes (int64,
/// at least 1). Each key is placed in its region of `doc`'s table (the regions its partials
/// count in) and weighs its writes times its bytes per write ([`write_bytes`]). A design with
/// global Phoenix indexes recounts every table: each key's first byte says which (0 the data
/// table, then each global index in order), and the recount carries each index's table
/// ([`RowRecount::indexes`](crate::analyze::RowRecount::indexes)).
pub fn recount_batches(doc: &DesignDocument, batches: &[RecordBatch]) -> Result<RowRecount> {
    let tables = recount_tables(doc)?;
    let tagged = tables.len() > 1;
    let mut out: Vec<RowRecount> = tables
        .iter()
        .map(|(m, _)| RowRecount::new(m.len()))
        .collect();
    let mut row = 0usize;
    for b in batches {
        let (Some(keys), Some(writes)) = (b.columns().first(), b.columns().get(1)) else {
            return Err(Error::arg(
                "recount",
                "a recount reads two columns: the row keys and their writes",
            ));
        };
        let Some(writes) = writes.as_primitive_opt::<arrow_array::types::Int64Type>() else {
            return Err(Error::arg(
                "recount",
                format!("writes are int64, not {}", writes.data_type()),
            ));
        };
        let mut add = |i: usize, key: Option<&[u8]>| -> Result<()> {
            let n = row + i + 1;
            let w = if writes.is_valid(i) {
                writes.value(i)
            } else {
                0
            };
            let (Some(key), Ok(w @ 1..)) = (key, u64::try_from(w)) else {
                return Err(Error::arg(
                    "recount",
                    format!("row {n}: a null key, or not one write or more"),
                ));
            };
            let (t, key) = match (tagged, key.split_first()) {
                (false, _) => (0, key),
                (true, Some((&t, rest))) => (usize::from(t), rest),
                (true, None) => (usize::MAX, key),
            };
            let (Some((map, table)), Some(counted)) = (tables.get(t), out.get_mut(t)) else {
                return Err(Error::arg(
                    "recount",
                    format!("row {n}: not a key of the design's tables (its first byte names the table: 0 the data table, then each of its {} global indexes)", tables.len() - 1),
                ));
            };
            let bytes = w.saturating_mul(write_bytes(table, key.len()));
            counted.add(
                map.region_of(key),
                CountedRow {
                    key: key.to_vec(),
                    writes: w,
                    bytes,
                },
            )
        };
        match keys.data_type() {
            DataType::Binary => {
                let a = keys.as_binary::<i32>();
                for i in 0..a.len() {
                    add(i, a.is_valid(i).then(|| a.value(i)))?;
                }
            }
            DataType::LargeBinary => {
                let a = keys.as_binary::<i64>();
                for i in 0..a.len() {
                    add(i, a.is_valid(i).then(|| a.value(i)))?;
                }
            }
            DataType::BinaryView => {
                let a = keys.as_binary_view();
                for i in 0..a.len() {
                    add(i, a.is_valid(i).then(|| a.value(i)))?;
                }
            }
            t => {
                return Err(Error::arg(
                    "recount",
                    format!("row keys are binary, not {t}"),
                ))
            }
        }
        row += b.num_rows();
    }
    let mut out = out.into_iter().map(RowRecount::finish);
    let mut data = out.next().unwrap_or_default();
    data.indexes = out.collect();
    Ok(data)
}

/// [`report_of_partials`] with the rows of `recounts` (every key of the table in one of them,
/// merged here) in place of the partials' own counts of them: the largest rows and distinct
/// rows exact, in the order and number one pass gives when it counts every row itself. A
/// recount that does not fit the partials' counts is refused.
pub fn report_of_partials_recounted(
    doc: Option<&DesignDocument>,
    parts: &[&[u8]],
    recounts: Vec<RowRecount>,
) -> Result<RowsAnalysis> {
    report_of_merged(doc, parts, |run| {
        let regions = run.analyzer().region_count();
        let mut all = RowRecount::new(regions);
        for r in recounts {
            all = all.merge(r)?;
        }
        run.finish_recounted(&all)
    })
}
