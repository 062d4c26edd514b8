//! Rows counted exactly outside the engine — a Spark job's `groupBy` over every row's encoded
//! key — to stand in for the sketches' largest rows and distinct rows in a report merged from
//! partials (past [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS) the partials carry
//! estimates). Each group of keys is recounted apart ([`RowRecount::add`]), the recounts merge
//! ([`RowRecount::merge`]), and the analyzer puts them in the report
//! (`AnalysisRun::finish_recounted`) as it puts rows it counted exactly itself: the largest
//! rows by bytes, ties by key, and the distinct rows of the table and of each region.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// Rows the report lists as the largest.
pub use super::analyzer::LARGEST_ROWS;

/// Refuse a recount of `doc`'s rows when its writes name cells (a `cells` section): a recount
/// of rows says nothing of the versions each cell keeps, which its largest rows report.
pub fn check_recount(doc: &crate::design::DesignDocument) -> Result<()> {
    if doc.cells.is_some() {
        return Err(cells_not_recounted());
    }
    Ok(())
}

pub(crate) fn cells_not_recounted() -> Error {
    Error::new(
        ErrorKind::Invalid,
        "an exact recount counts rows, not the versions of cells: a design with a cells section is counted exactly up to the engine's cap only",
    )
    .at_path("/cells")
}

/// One distinct row, counted exactly: its key, its writes and their bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CountedRow {
    /// The row key.
    pub key: Vec<u8>,
    /// Writes to the row.
    pub writes: u64,
    /// Bytes written to it (each write its key and the workload's value size).
    pub bytes: u64,
}

/// Rows recounted exactly: distinct rows per region and the largest rows of some groups of
/// distinct keys (every key in one group only: a `groupBy` of the keys gives that).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RowRecount {
    /// Distinct row keys of each region, in key order.
    pub region_distinct_rows: Vec<u64>,
    /// Writes recounted in each region: the report's own, when every row is recounted once.
    pub region_writes: Vec<u64>,
    /// The [`LARGEST_ROWS`] rows with the most bytes (fewer when fewer rows were counted),
    /// largest first, ties by key: the report's order.
    pub largest_rows: Vec<CountedRow>,
    /// A Phoenix design's global index tables recounted beside the data table, in the design's
    /// order of its global indexes; empty without any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<RowRecount>,
}

/// The report's order of the largest rows: most bytes first, ties by key.
fn order(a: &CountedRow, b: &CountedRow) -> std::cmp::Ordering {
    b.bytes.cmp(&a.bytes).then_with(|| a.key.cmp(&b.key))
}

/// Keep the [`LARGEST_ROWS`] first in the report's order.
fn keep_largest(rows: &mut Vec<CountedRow>) {
    if rows.len() > LARGEST_ROWS {
        rows.select_nth_unstable_by(LARGEST_ROWS - 1, order);
        rows.truncate(LARGEST_ROWS);
    }
    rows.sort_unstable_by(order);
}

impl RowRecount {
    /// An empty recount of a table of `regions` regions.
    pub fn new(regions: usize) -> RowRecount {
        RowRecount {
            region_distinct_rows: vec![0; regions],
            region_writes: vec![0; regions],
            largest_rows: Vec::new(),
            indexes: Vec::new(),
        }
    }

    /// The table's distinct row keys: the regions' summed (their key ranges are disjoint).
    pub fn distinct_rows(&self) -> u64 {
        self.region_distinct_rows
            .iter()
            .fold(0u64, |a, d| a.saturating_add(*d))
    }

    /// One distinct row of region `region`.
    pub fn add(&mut self, region: usize, row: CountedRow) -> Result<()> {
        let (Some(d), Some(w)) = (
            self.region_distinct_rows.get_mut(region),
            self.region_writes.get_mut(region),
        ) else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("a recounted row in region {region}: the table has fewer"),
            ));
        };
        *d = d.saturating_add(1);
        *w = w.saturating_add(row.writes);
        self.largest_rows.push(row);
        // Held to twice the rows kept, so a group of a million keys costs 64 rows of memory.
        if self.largest_rows.len() >= 2 * LARGEST_ROWS {
            keep_largest(&mut self.largest_rows);
        }
        Ok(())
    }

    /// The recount in the report's form: the largest rows picked and in order.
    pub fn finish(mut self) -> RowRecount {
        keep_largest(&mut self.largest_rows);
        self.indexes = self.indexes.into_iter().map(RowRecount::finish).collect();
        self
    }

    /// Add another group's recount (its keys none of this one's).
    pub fn merge(mut self, other: RowRecount) -> Result<RowRecount> {
        if other.region_distinct_rows.len() != self.region_distinct_rows.len()
            || other.region_writes.len() != self.region_writes.len()
        {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!(
                    "recounts of {} and {} regions do not merge",
                    self.region_distinct_rows.len(),
                    other.region_distinct_rows.len()
                ),
            ));
        }
        for (a, b) in self
            .region_distinct_rows
            .iter_mut()
            .zip(&other.region_distinct_rows)
        {
            *a = a.saturating_add(*b);
        }
        for (a, b) in self.region_writes.iter_mut().zip(&other.region_writes) {
            *a = a.saturating_add(*b);
        }
        self.largest_rows.extend(other.largest_rows);
        // each index table's recount with its own (a group holds every table's keys, or one
        // group none of an index's: then it has none to add)
        self.indexes = match (self.indexes.is_empty(), other.indexes.is_empty()) {
            (_, true) => self.indexes,
            (true, false) => other.indexes,
            (false, false) if self.indexes.len() == other.indexes.len() => self
                .indexes
                .into_iter()
                .zip(other.indexes)
                .map(|(a, b)| a.merge(b))
                .collect::<Result<Vec<_>>>()?,
            (false, false) => {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "recounts of {} and {} index tables do not merge",
                        self.indexes.len(),
                        other.indexes.len()
                    ),
                ))
            }
        };
        Ok(self.finish())
    }

    /// Whether this recount can be the count of the rows of a report whose regions took
    /// `region_writes` writes: the same writes in each region (every row recounted once),
    /// distinct rows at most the writes and not 0 when there are any; the largest rows distinct, in order, as many as the rows allow (up to
    /// [`LARGEST_ROWS`]), each written at least once and none more than its region.
    pub(crate) fn check(
        &self,
        region_writes: &[u64],
        region_of: impl Fn(&[u8]) -> usize,
    ) -> Result<()> {
        let bad = |what: String| Err(Error::new(ErrorKind::Invalid, what).at_path("recount"));
        if self.region_distinct_rows.len() != region_writes.len()
            || self.region_writes.len() != region_writes.len()
        {
            return bad(format!(
                "the recount has {} regions; the report {}",
                self.region_distinct_rows.len(),
                region_writes.len()
            ));
        }
        for (i, (&w, &had)) in self.region_writes.iter().zip(region_writes).enumerate() {
            if w != had {
                return bad(format!(
                    "region {i}: {w} writes recounted, {had} counted: the recount is not one of every row of these partials once"
                ));
            }
        }
        for (i, (&d, &w)) in self
            .region_distinct_rows
            .iter()
            .zip(region_writes)
            .enumerate()
        {
            if d > w || (d == 0) != (w == 0) {
                return bad(format!(
                    "region {i}: {d} distinct rows recounted of {w} writes counted"
                ));
            }
        }
        let want = usize::try_from(self.distinct_rows())
            .unwrap_or(usize::MAX)
            .min(LARGEST_ROWS);
        if self.largest_rows.len() != want {
            return bad(format!(
                "{} largest rows recounted; the rows give {want}",
                self.largest_rows.len()
            ));
        }
        for (i, r) in self.largest_rows.iter().enumerate() {
            let w = region_writes.get(region_of(&r.key)).copied().unwrap_or(0);
            if r.writes == 0 || r.writes > w {
                return bad(format!(
                    "largest row {i}: {} writes recounted, its region took {w}",
                    r.writes
                ));
            }
            if let Some(next) = self.largest_rows.get(i + 1) {
                if order(r, next) != std::cmp::Ordering::Less {
                    return bad(format!(
                        "largest rows {i} and {}: not in the report's order",
                        i + 1
                    ));
                }
            }
        }
        let mut keys: Vec<&[u8]> = self.largest_rows.iter().map(|r| &r.key[..]).collect();
        keys.sort_unstable();
        if keys.windows(2).any(|w| w.first() == w.last()) {
            return bad(
                "a row key among the largest rows twice: a key recounted in two groups".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn row(key: &str, writes: u64) -> CountedRow {
        CountedRow {
            key: key.as_bytes().to_vec(),
            writes,
            bytes: writes * 10,
        }
    }

    #[test]
    fn groups_merged_keep_the_largest_in_the_reports_order() {
        let mut a = RowRecount::new(2);
        let mut b = RowRecount::new(2);
        for i in 0..100u64 {
            a.add(0, row(&format!("a{i:03}"), 1 + i % 5)).unwrap();
            b.add(1, row(&format!("b{i:03}"), 1 + i % 7)).unwrap();
        }
        let m = a.finish().merge(b.finish()).unwrap();
        assert_eq!(m.region_distinct_rows, vec![100, 100]);
        assert_eq!(m.largest_rows.len(), LARGEST_ROWS);
        // the 14 rows of 7 writes (b006, b013, …) first, then 6 writes: b005, b012, … by key
        assert_eq!(m.largest_rows[0], row("b006", 7));
        assert_eq!(m.largest_rows[13], row("b097", 7));
        assert_eq!(m.largest_rows[14], row("b005", 6));
        let at = |k: &[u8]| usize::from(k.first() == Some(&b'b'));
        assert_eq!(m.region_writes, vec![300, 395]);
        assert!(m.check(&[300, 395], at).is_ok());
        // a recount that does not fit the report is refused
        assert!(m.check(&[300], |_| 0).is_err());
        assert!(m.check(&[300, 400], at).is_err());
        assert!(RowRecount::new(1).add(1, row("x", 1)).is_err());
    }
}
