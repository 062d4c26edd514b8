//! Auto-split's model of a region's store, on `hbase::store`'s arithmetic (which the
//! months-of-life simulator shares): a memstore of KeyValue bytes that flushes into store
//! files, minor compactions by `ExploringCompactionPolicy`, and the split point at the middle
//! of the largest file. A file's block index is modelled by a sorted sample of its rows (at
//! most `regionSampleSize`), each entry an equal share of its bytes: the mid block is entry
//! `(n − 1) / 2` and its key the shortened separator between it and the entry before, so a
//! split row is cut between sampled neighbours (HBase cuts between adjacent rows: its row can
//! be longer, never outside the two).

use crate::hbase::store::{explore, index_row, largest_file, mid_block};

/// `hbase.hstore.compaction.min`: fewer files are not compacted (minor).
pub(super) const COMPACTION_MIN_FILES: usize = 3;
/// `hbase.hstore.compaction.max`: the most files one minor compaction takes.
pub(super) const COMPACTION_MAX_FILES: usize = 10;
/// `hbase.hstore.compaction.ratio`.
pub(super) const COMPACTION_RATIO: f64 = 1.2;
/// `hbase.regionserver.optionalcacheflushinterval`: a memstore whose oldest edit is an hour
/// old flushes, whatever its size.
pub const PERIODIC_FLUSH_MS: i64 = 3_600_000;
/// How often idle regions are looked at for the periodic flush: HBase's periodic flusher
/// delays each flush by up to `hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds`
/// (5 minutes) anyway.
pub(super) const PERIODIC_SWEEP_MS: i64 = 300_000;

/// One store file.
#[derive(Debug, Clone)]
pub(super) struct FileModel {
    /// On-disk bytes (KeyValue bytes × the compression ratio).
    pub bytes: f64,
    /// Its block index, as sampled rows in key order.
    pub index: Vec<Vec<u8>>,
    /// A half-file reference left by a split: the region cannot split before it is compacted.
    pub reference: bool,
}

/// Bytes of the row keys in `rows`.
pub(super) fn key_bytes(rows: &[Vec<u8>]) -> usize {
    rows.iter().map(Vec::len).sum()
}

/// Whether any of `files` is a reference.
pub(super) fn has_references(files: &[FileModel]) -> bool {
    files.iter().any(|f| f.reference)
}

/// The files' cells rewritten into one: its index the union of theirs weighted by bytes, at
/// the weighted quantiles `(j + ½) / cap` (the union itself when it fits and its entries
/// weigh alike).
pub(super) fn merge(files: &[FileModel], cap: usize) -> FileModel {
    let bytes: f64 = files.iter().map(|f| f.bytes).sum();
    let mut all: Vec<(&Vec<u8>, f64)> = files
        .iter()
        .flat_map(|f| {
            let w = f.bytes / f.index.len().max(1) as f64;
            f.index.iter().map(move |k| (k, w))
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(b.0));
    let total: f64 = all.iter().map(|e| e.1).sum();
    let cap = cap.max(1);
    let alike = all.windows(2).all(|p| match p {
        [a, b] => (a.1 - b.1).abs() <= 1e-9 * a.1.abs().max(b.1.abs()),
        _ => true,
    });
    let index = if (all.len() <= cap && alike) || total <= 0.0 {
        all.iter().map(|e| e.0.clone()).collect()
    } else {
        let mut out = Vec::with_capacity(cap);
        let mut acc = 0.0;
        let mut j = 0usize;
        for (k, w) in &all {
            acc += w;
            // Every quantile this entry's weight reaches takes it.
            while j < cap && (j as f64 + 0.5) / cap as f64 * total <= acc {
                out.push((*k).clone());
                j += 1;
            }
        }
        out
    };
    FileModel {
        bytes,
        index,
        reference: false,
    }
}

/// `ExploringCompactionPolicy`'s minor compaction of `files` (its minimum size the flush
/// size); all of them when one is a reference. Whether any were rewritten.
pub(super) fn compact(files: &mut Vec<FileModel>, flush_size: f64, cap: usize) -> bool {
    if has_references(files) {
        let all = merge(files, cap);
        *files = vec![all];
        return true;
    }
    if files.len() < COMPACTION_MIN_FILES {
        return false;
    }
    let size = |i: usize| files.get(i).map_or(0.0, |f| f.bytes);
    let Some((a, b)) = explore(
        files.len(),
        size,
        COMPACTION_MIN_FILES,
        COMPACTION_MAX_FILES,
        COMPACTION_RATIO,
        flush_size,
    ) else {
        return false;
    };
    let Some(window) = files.get(a..=b) else {
        return false;
    };
    let out = merge(window, cap);
    files.splice(a..=b, [out]);
    true
}

/// Where the split point comes from.
pub(super) enum SplitRow {
    /// The store has no file.
    NoFile,
    /// The mid block's row is the largest file's first or last row (`HStoreFile`: "midkey is
    /// the same as first or last row"): one row holds half the file or more.
    FirstOrLast,
    /// The row.
    Row(Vec<u8>),
}

/// `StoreUtils.getSplitPoint`: the largest file's mid-block row.
pub(super) fn split_row(files: &[FileModel]) -> SplitRow {
    let Some(f) = largest_file(files.iter().map(|f| f.bytes)).and_then(|i| files.get(i)) else {
        return SplitRow::NoFile;
    };
    let m = mid_block(f.index.len());
    let Some(first) = f.index.get(m) else {
        return SplitRow::NoFile;
    };
    let prev = m.checked_sub(1).and_then(|p| f.index.get(p));
    let row = index_row(prev.map(Vec::as_slice), first);
    if Some(&row) == f.index.first() || Some(&row) == f.index.last() {
        SplitRow::FirstOrLast
    } else {
        SplitRow::Row(row)
    }
}

/// The half of `f` below `point` (`lower`) or from it on: a daughter's reference file, its
/// bytes in the share of the index on that side; `None` when that side is empty.
pub(super) fn half(f: &FileModel, point: &[u8], lower: bool) -> Option<FileModel> {
    let below = f.index.partition_point(|k| k.as_slice() < point);
    let index: Vec<Vec<u8>> = if lower {
        f.index.get(..below)?.to_vec()
    } else {
        f.index.get(below..)?.to_vec()
    };
    if index.is_empty() {
        return None;
    }
    let share = index.len() as f64 / f.index.len().max(1) as f64;
    Some(FileModel {
        bytes: f.bytes * share,
        index,
        reference: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(bytes: f64, rows: &[&str]) -> FileModel {
        FileModel {
            bytes,
            index: rows.iter().map(|r| r.as_bytes().to_vec()).collect(),
            reference: false,
        }
    }

    #[test]
    fn the_split_row_is_the_largest_files_mid_block_separator() {
        // The 300-byte file is the largest; 4 entries: mid block (4 − 1) / 2 = 1, "c1" after
        // "a5": the separator is "b".
        let files = [
            file(100.0, &["a", "z"]),
            file(300.0, &["a5", "c1", "d7", "e2"]),
        ];
        match split_row(&files) {
            SplitRow::Row(r) => assert_eq!(r, b"b"),
            _ => panic!("no row"),
        }
        // One row only: its mid block is its first row.
        assert!(matches!(
            split_row(&[file(9.0, &["k", "k", "k"])]),
            SplitRow::FirstOrLast
        ));
    }

    #[test]
    fn a_merge_weighs_each_file_by_its_bytes() {
        // 900 bytes over "m..", 100 over "a": cut to 10 entries, one is "a", nine "m…".
        let big = file(900.0, &["m1", "m2", "m3"]);
        let small = file(100.0, &["a"]);
        let m = merge(&[big, small], 10);
        assert_eq!(m.bytes, 1000.0);
        assert_eq!(m.index.len(), 10);
        assert_eq!(m.index.iter().filter(|k| k.as_slice() == b"a").count(), 1);
    }
}
