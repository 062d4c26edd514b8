//! A store's arithmetic as HBase does it, shared by the in-run auto-split (`analyze`) and the
//! months-of-life simulator (`life`): the bytes a cell takes (`KeyValue`), the flush size in
//! force, the minor compaction's file selection (`ExploringCompactionPolicy`), the largest
//! file (`StoreUtils.getLargestFile`), its mid block and the shortened separator the block
//! index keeps for it (`HFileWriterImpl.getMinimumMidpointArray`).

/// `KeyValue`'s fixed bytes per cell: key length 4 and value length 4
/// (`KEYVALUE_INFRASTRUCTURE_SIZE`), row length 2, family length 1, timestamp 8 and type 1
/// (`KEY_INFRASTRUCTURE_SIZE`), as `KeyValue.getKeyValueDataStructureSize` adds them (no tags).
pub const KEY_VALUE_FIXED: u64 = 20;

/// How a table's cells are counted: the bytes besides the row and the value, and the on-disk
/// factor of data block encoding and compression.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CellBytes {
    /// The column family name's bytes in each cell.
    pub family_bytes: u32,
    /// The column qualifier's bytes in each cell.
    pub qualifier_bytes: u32,
    /// On-disk bytes per KeyValue byte (1: no encoding or compression).
    pub compression_ratio: f64,
}

impl Default for CellBytes {
    /// A one-byte family (`d`), a one-byte qualifier, no compression: the design's defaults.
    fn default() -> Self {
        CellBytes {
            family_bytes: 1,
            qualifier_bytes: 1,
            compression_ratio: 1.0,
        }
    }
}

impl CellBytes {
    /// What a cell adds to its row and value: [`KEY_VALUE_FIXED`] + family + qualifier.
    pub fn overhead(&self) -> u64 {
        KEY_VALUE_FIXED + u64::from(self.family_bytes) + u64::from(self.qualifier_bytes)
    }

    /// `KeyValue.getKeyValueDataStructureSize` of a cell whose row and value take
    /// `row_and_value` bytes.
    pub fn key_value(&self, row_and_value: u64) -> u64 {
        row_and_value.saturating_add(self.overhead())
    }

    /// [`key_value`](Self::key_value) of a mean row and value (the simulator's aggregate cell).
    pub fn mean_key_value(&self, row: f64, value: f64) -> f64 {
        self.overhead() as f64 + row + value
    }

    /// The store-file bytes of `key_value` bytes flushed (`HStore.getSize` sums file lengths,
    /// after encoding and compression).
    pub fn on_disk(&self, key_value: f64) -> f64 {
        key_value * self.compression_ratio
    }
}

/// `HRegion.getMemStoreFlushSize`: the table's `MEMSTORE_FLUSHSIZE` when above 0, else
/// `hbase.hregion.memstore.flush.size`.
pub fn flush_size(table_memstore_flush_size: Option<i64>, conf_memstore_flush_size: i64) -> i64 {
    match table_memstore_flush_size {
        Some(t) if t > 0 => t,
        _ => conf_memstore_flush_size,
    }
}

/// `ExploringCompactionPolicy.applyCompactionPolicy` over `n` files in sequence order, file
/// `i` of `size(i)` bytes: the contiguous window of `min..=max` files, in ratio when its total
/// reaches `min_size`, with the most files, then the fewest bytes. The window's first and last
/// index.
pub fn explore(
    n: usize,
    size: impl Fn(usize) -> f64,
    min_files: usize,
    max_files: usize,
    ratio: f64,
    min_size: f64,
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize, f64)> = None;
    let first_len = min_files.max(2);
    for start in 0..n {
        // The window grows one file at a time: its total is the same left-to-right sum the
        // Java takes, and `filesInRatio` holds for every file when it holds for the largest
        // (`x ≤ (total − x) × ratio` only gets harder as `x` grows), so each window costs O(1).
        let mut total = 0.0;
        let mut largest = 0.0f64;
        for end in start..n {
            let len = end - start + 1;
            if len > max_files {
                break;
            }
            let x = size(end);
            total += x;
            largest = largest.max(x);
            if len < first_len {
                continue;
            }
            // filesInRatio: no file larger than `ratio` × the others together.
            let in_ratio = largest <= (total - largest) * ratio;
            if total < min_size || in_ratio {
                let better = match best {
                    None => true,
                    Some((bs, be, bsize)) => {
                        let blen = be - bs + 1;
                        len > blen || (len == blen && total < bsize)
                    }
                };
                if better {
                    best = Some((start, end, total));
                }
            }
        }
    }
    best.map(|(s, e, _)| (s, e))
}

/// `StoreUtils.getLargestFile`: the index of the largest of `sizes` (the first of equals),
/// `None` when there is none.
pub fn largest_file(sizes: impl IntoIterator<Item = f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, s) in sizes.into_iter().enumerate() {
        if best.map_or(true, |(_, b)| s > b) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

/// `HFileBlockIndex`'s mid block of a file of `blocks` data blocks: `(blocks − 1) / 2`.
pub fn mid_block(blocks: usize) -> usize {
    blocks.saturating_sub(1) / 2
}

/// `HFileWriterImpl.getMinimumMidpointArray`: the shortest row `> left` and `<= right` that
/// the block index keeps for the block starting at `right` after one ending at `left` (rows
/// that differ, `left < right`). At the first byte where they differ it is `left`'s bytes
/// before it and that byte plus one (or `right`'s bytes through it); when `left` is a prefix
/// of `right`, `right`'s bytes through the one after `left`. Java's byte is signed: the test
/// `diffByte + 1 < right[i] & 0xff` is always true for a left byte of 0x80 or more, which
/// gives the same row (that byte plus one) as the other branch would.
pub fn minimum_midpoint(left: &[u8], right: &[u8]) -> Vec<u8> {
    let min_len = left.len().min(right.len());
    let diff = left
        .iter()
        .zip(right)
        .take_while(|(a, b)| a == b)
        .count()
        .min(min_len);
    if diff >= min_len {
        return right.get(..=diff).unwrap_or(right).to_vec();
    }
    let (l, r) = (
        left.get(diff).copied().unwrap_or(0),
        right.get(diff).copied().unwrap_or(0),
    );
    let signed = i32::from(l as i8);
    if l < 0xff && signed + 1 < i32::from(r) {
        let mut out = left.get(..diff).unwrap_or(&[]).to_vec();
        out.push(l.wrapping_add(1));
        out
    } else {
        right.get(..=diff).unwrap_or(right).to_vec()
    }
}

/// The row the block index keeps for a block whose first row is `first`, after a block whose
/// last row is `prev_last` (`None`: the file's first block, indexed by its first row).
/// `HFileWriterImpl.getMidpoint` on rows: [`minimum_midpoint`] when the rows differ, else the
/// row itself.
pub fn index_row(prev_last: Option<&[u8]>, first: &[u8]) -> Vec<u8> {
    match prev_last {
        Some(l) if l < first => minimum_midpoint(l, first),
        _ => first.to_vec(),
    }
}

/// Which compaction policy the family's store engine uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CompactionPolicy {
    /// `ExploringCompactionPolicy`, the default.
    #[default]
    Exploring,
    /// `FIFOCompactionPolicy`: only whole expired files are deleted; needs a TTL.
    Fifo,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_research_files_examples() {
        // L = abc9, R = abe1 gives abd (§A2, step 5).
        assert_eq!(minimum_midpoint(b"abc9", b"abe1"), b"abd");
        // Adjacent differing bytes: R's prefix through that byte.
        assert_eq!(minimum_midpoint(b"abc9", b"abd1"), b"abd");
        // L a prefix of R: R through the byte after L.
        assert_eq!(minimum_midpoint(b"ab", b"abzz"), b"abz");
        // Bytes of 0x80 and more (Java's signed byte).
        assert_eq!(minimum_midpoint(&[0x85, 1], &[0x90, 0]), vec![0x86]);
        assert_eq!(minimum_midpoint(&[0x7f, 9], &[0x80, 0]), vec![0x80]);
        assert_eq!(index_row(None, b"k"), b"k");
        assert_eq!(index_row(Some(b"k"), b"k"), b"k");
    }

    #[test]
    fn a_cell_is_twenty_bytes_plus_its_parts() {
        let c = CellBytes {
            family_bytes: 1,
            qualifier_bytes: 3,
            compression_ratio: 0.5,
        };
        // 20 + row 10 + family 1 + qualifier 3 + value 100.
        assert_eq!(c.key_value(110), 134);
        assert_eq!(c.on_disk(134.0), 67.0);
        assert_eq!(flush_size(Some(0), 128), 128);
        assert_eq!(flush_size(Some(64), 128), 64);
        assert_eq!(largest_file([3.0, 5.0, 5.0, 1.0]), Some(1));
        assert_eq!(mid_block(1), 0);
        assert_eq!(mid_block(4), 1);
        assert_eq!(mid_block(5), 2);
    }
}

#[cfg(test)]
mod explore_tests {
    use super::explore;

    /// `applyCompactionPolicy` as the Java writes it: every window summed and every file checked.
    fn by_the_letter(
        sizes: &[f64],
        min: usize,
        max: usize,
        ratio: f64,
        min_size: f64,
    ) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, f64)> = None;
        for start in 0..sizes.len() {
            for end in start + min.max(2) - 1..sizes.len() {
                let w = &sizes[start..=end];
                if w.len() > max {
                    break;
                }
                let total: f64 = w.iter().sum();
                let in_ratio = w.iter().all(|&x| x <= (total - x) * ratio);
                if (total < min_size || in_ratio)
                    && best.map_or(true, |(s, e, t)| {
                        w.len() > e - s + 1 || (w.len() == e - s + 1 && total < t)
                    })
                {
                    best = Some((start, end, total));
                }
            }
        }
        best.map(|(s, e, _)| (s, e))
    }

    #[test]
    fn the_growing_window_picks_what_every_window_summed_picks() {
        let mut seed = 11u64;
        let mut draw = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        };
        for round in 0..20_000 {
            let n = round % 14;
            // Sizes of a few magnitudes, some equal, so ties and the ratio's edge both occur.
            let sizes: Vec<f64> = (0..n)
                .map(|_| (draw() * 8.0).floor().exp2() * if draw() < 0.3 { 1.0 } else { draw() })
                .collect();
            let (min, max) = (2 + round % 3, 3 + round % 9);
            let ratio = [1.2, 1.0, 5.0][round % 3];
            let min_size = [0.0, 2.0, 64.0][(round / 3) % 3];
            assert_eq!(
                explore(n, |i| sizes[i], min, max, ratio, min_size),
                by_the_letter(&sizes, min, max, ratio, min_size),
                "{sizes:?} min {min} max {max} ratio {ratio} min size {min_size}"
            );
        }
    }
}
