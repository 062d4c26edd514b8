//! Every row counted exactly while the rows fit a memory cap: row key → writes and bytes (and,
//! with a `cells` section, each cell's writes), for the largest rows and the distinct rows of
//! the table and of each final region without a sketch's error. Past [`MAX_EXACT_ROWS`] rows
//! (or cells) or [`MAX_EXACT_ROW_BYTES`] bytes of keys the counts are dropped and the report
//! falls back to the sketches (`largest.rs`, `rows.rs`), marked as estimates.
//!
//! Whether the counts stay exact depends only on the rows written, never on how the writes
//! were cut into blocks: the cap is on the distinct rows, cells and key bytes of everything
//! counted, which for two runs of blocks merged is their union's. A run past the cap alone
//! means the union is past it too; two runs within it merge exactly and are checked again.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use super::rows::row_hash;
use crate::analyze::{MAX_EXACT_ROWS, MAX_EXACT_ROW_BYTES};

/// No row: the end of a chain of rows sharing one hash.
const NONE: u32 = u32::MAX;

/// The row hash is xxh3 already: the index uses it as is.
#[derive(Default, Clone, Copy)]
struct PassHasher(u64);

impl Hasher for PassHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type Index<V> = HashMap<u64, V, BuildHasherDefault<PassHasher>>;

/// One distinct row.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct ExactRow {
    /// Its key: `keys[start..start + len]`.
    start: u32,
    len: u32,
    /// The next row with the same hash ([`NONE`]): distinct keys whose 64-bit hashes collide
    /// stay distinct.
    #[serde(skip, default = "none")]
    next: u32,
    pub(super) writes: u64,
    pub(super) bytes: u64,
}

fn none() -> u32 {
    NONE
}

/// One distinct cell: its row and writes.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct ExactCell {
    row: u32,
    writes: u64,
}

/// The exact counts (see the module docs).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(from = "ExactRowsData", into = "ExactRowsData")]
pub(super) struct ExactRows {
    rows: Vec<ExactRow>,
    /// Every row's key, one after another.
    keys: Vec<u8>,
    /// Row hash → the first row with that hash.
    index: Index<u32>,
    /// Cell hash → its cell (only with a `cells` section).
    cells: Index<ExactCell>,
}

/// [`ExactRows`] as it is sent between threads and workers: the index is rebuilt on arrival.
#[derive(Serialize, Deserialize)]
struct ExactRowsData {
    rows: Vec<ExactRow>,
    keys: Vec<u8>,
    /// `(cell hash, row, writes)`, by hash (the map's own order is not the same everywhere).
    cells: Vec<(u64, u32, u64)>,
}

impl From<ExactRows> for ExactRowsData {
    fn from(x: ExactRows) -> ExactRowsData {
        let mut cells: Vec<(u64, u32, u64)> =
            x.cells.iter().map(|(&h, c)| (h, c.row, c.writes)).collect();
        cells.sort_unstable();
        ExactRowsData {
            rows: x.rows,
            keys: x.keys,
            cells,
        }
    }
}

impl From<ExactRowsData> for ExactRows {
    fn from(d: ExactRowsData) -> ExactRows {
        let mut x = ExactRows {
            rows: Vec::with_capacity(d.rows.len()),
            keys: d.keys,
            index: Index::default(),
            cells: d
                .cells
                .into_iter()
                .map(|(h, row, writes)| (h, ExactCell { row, writes }))
                .collect(),
        };
        for r in d.rows {
            let key = x.key_at(r.start, r.len);
            let hash = row_hash(key);
            let i = u32::try_from(x.rows.len()).unwrap_or(NONE);
            let next = x.index.insert(hash, i).unwrap_or(NONE);
            x.rows.push(ExactRow { next, ..r });
        }
        x
    }
}

impl ExactRows {
    pub(super) fn new() -> ExactRows {
        ExactRows {
            rows: Vec::new(),
            keys: Vec::new(),
            index: Index::default(),
            cells: Index::default(),
        }
    }

    fn key_at(&self, start: u32, len: u32) -> &[u8] {
        let a = start as usize;
        self.keys
            .get(a..a.saturating_add(len as usize))
            .unwrap_or(&[])
    }

    /// The key of a row.
    pub(super) fn key(&self, r: &ExactRow) -> &[u8] {
        self.key_at(r.start, r.len)
    }

    /// The distinct rows counted.
    pub(super) fn rows(&self) -> &[ExactRow] {
        &self.rows
    }

    /// The row with this key (and hash), if counted.
    #[inline]
    fn find(&self, key: &[u8], hash: u64) -> Option<u32> {
        let mut i = *self.index.get(&hash)?;
        while let Some(r) = self.rows.get(i as usize) {
            if self.key(r) == key {
                return Some(i);
            }
            i = r.next;
        }
        None
    }

    /// A new row with this key, or `None` past the cap.
    #[cold]
    fn add(&mut self, key: &[u8], hash: u64) -> Option<u32> {
        let start = u32::try_from(self.keys.len()).ok()?;
        let len = u32::try_from(key.len()).ok()?;
        if self.rows.len() >= MAX_EXACT_ROWS
            || self.keys.len().saturating_add(key.len()) > MAX_EXACT_ROW_BYTES
        {
            return None;
        }
        let i = u32::try_from(self.rows.len()).ok()?;
        self.keys.extend_from_slice(key);
        let next = self.index.insert(hash, i).unwrap_or(NONE);
        self.rows.push(ExactRow {
            start,
            len,
            next,
            writes: 0,
            bytes: 0,
        });
        Some(i)
    }

    /// Count `writes` writes of `bytes` bytes to the row `key` (hash `hash`); `false` when
    /// the row would pass the cap (the counts are then to be dropped).
    #[inline]
    fn count(&mut self, key: &[u8], hash: u64, writes: u64, bytes: u64) -> Option<u32> {
        let i = match self.find(key, hash) {
            Some(i) => i,
            None => self.add(key, hash)?,
        };
        let r = self.rows.get_mut(i as usize)?;
        r.writes = r.writes.saturating_add(writes);
        r.bytes = r.bytes.saturating_add(bytes);
        Some(i)
    }

    /// `writes` writes to the cell with hash `cell` of row `row`; `false` past the cap.
    fn count_cell(&mut self, cell: u64, row: u32, writes: u64) -> bool {
        if let Some(c) = self.cells.get_mut(&cell) {
            c.writes = c.writes.saturating_add(writes);
            return true;
        }
        if self.cells.len() >= MAX_EXACT_ROWS {
            return false;
        }
        self.cells.insert(cell, ExactCell { row, writes });
        true
    }

    /// One write of `bytes` bytes to the row `key` (hash `hash`), into the cell `cell`;
    /// `false` when it passes the cap: the caller drops these counts.
    #[inline]
    pub(super) fn offer(&mut self, key: &[u8], hash: u64, bytes: u64, cell: Option<u64>) -> bool {
        let Some(i) = self.count(key, hash, 1, bytes) else {
            return false;
        };
        match cell {
            Some(c) => self.count_cell(c, i, 1),
            None => true,
        }
    }

    /// Add what `other` counted; `false` when the union passes the cap.
    pub(super) fn merge(&mut self, other: &ExactRows) -> bool {
        let mut to = Vec::with_capacity(other.rows.len());
        for r in &other.rows {
            let key = other.key(r);
            match self.count(key, row_hash(key), r.writes, r.bytes) {
                Some(i) => to.push(i),
                None => return false,
            }
        }
        // In hash order, so the row a colliding cell keeps does not depend on the map's order.
        let mut cells: Vec<(&u64, &ExactCell)> = other.cells.iter().collect();
        cells.sort_unstable_by_key(|&(h, _)| *h);
        for (&h, c) in cells {
            let row = to.get(c.row as usize).copied().unwrap_or(NONE);
            if !self.count_cell(h, row, c.writes) {
                return false;
            }
        }
        true
    }

    /// Cells kept of each of `rows` (row indices): `min(writes, versions)` summed over the
    /// row's cells.
    pub(super) fn cells_kept(&self, rows: &[u32], versions: u32) -> Vec<u64> {
        let v = u64::from(versions.max(1));
        let mut kept = vec![0u64; rows.len()];
        for c in self.cells.values() {
            if let Some(k) = rows
                .iter()
                .position(|&r| r == c.row)
                .and_then(|p| kept.get_mut(p))
            {
                *k = k.saturating_add(c.writes.min(v));
            }
        }
        kept
    }

    /// The `n` rows with the most bytes, largest first, ties by key: their indices.
    pub(super) fn largest(&self, n: usize) -> Vec<u32> {
        let order = |a: &u32, b: &u32| {
            let (ra, rb) = (self.rows.get(*a as usize), self.rows.get(*b as usize));
            let bytes = |r: Option<&ExactRow>| r.map_or(0, |r| r.bytes);
            let key = |r: Option<&ExactRow>| r.map_or(&[][..], |r| self.key(r));
            bytes(rb).cmp(&bytes(ra)).then_with(|| key(ra).cmp(key(rb)))
        };
        let mut all: Vec<u32> = (0..self.rows.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        if n == 0 {
            return Vec::new();
        }
        if all.len() > n {
            all.select_nth_unstable_by(n - 1, order);
            all.truncate(n);
        }
        all.sort_unstable_by(order);
        all
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn offer(x: &mut ExactRows, key: &[u8], bytes: u64) -> bool {
        x.offer(key, row_hash(key), bytes, None)
    }

    #[test]
    fn rows_whose_hashes_collide_stay_apart() {
        let mut x = ExactRows::new();
        // Two keys forced onto one hash: the chain keeps them apart.
        assert!(x.count(b"a", 7, 1, 10).is_some());
        assert!(x.count(b"b", 7, 1, 20).is_some());
        assert!(x.count(b"a", 7, 1, 10).is_some());
        assert_eq!(x.find(b"a", 7).map(|i| x.rows[i as usize].writes), Some(2));
        assert_eq!(x.find(b"b", 7).map(|i| x.rows[i as usize].bytes), Some(20));
        assert_eq!(x.find(b"c", 7), None);
    }

    #[test]
    fn cells_kept_sum_the_versions_each_cell_keeps() {
        let (mut a, mut b) = (ExactRows::new(), ExactRows::new());
        let (h, g) = (row_hash(b"r"), row_hash(b"s"));
        // Row r: cell 1 written 5 times (3 in a, 2 in b), cell 2 once; row s: cell 3 twice.
        for (key, hash, cell) in [
            (&b"r"[..], h, 1),
            (b"r", h, 1),
            (b"r", h, 1),
            (b"r", h, 2),
            (b"s", g, 3),
        ] {
            assert!(a.offer(key, hash, 1, Some(cell)));
        }
        for (key, hash, cell) in [(&b"r"[..], h, 1), (b"r", h, 1), (b"s", g, 3)] {
            assert!(b.offer(key, hash, 1, Some(cell)));
        }
        assert!(a.merge(&b));
        let (r, s) = (a.find(b"r", h).unwrap(), a.find(b"s", g).unwrap());
        // VERSIONS 3: min(5, 3) + min(1, 3) = 4 for r, min(2, 3) = 2 for s.
        assert_eq!(a.cells_kept(&[r, s], 3), vec![4, 2]);
        assert_eq!(a.cells_kept(&[s, r], 1), vec![1, 2]);
    }

    #[test]
    fn a_merge_adds_counts_and_survives_a_round_trip() {
        let (mut a, mut b) = (ExactRows::new(), ExactRows::new());
        for k in ["x", "y", "x"] {
            assert!(offer(&mut a, k.as_bytes(), 5));
        }
        for k in ["y", "z"] {
            assert!(offer(&mut b, k.as_bytes(), 5));
        }
        let b: ExactRows = postcard::from_bytes(&postcard::to_allocvec(&b).unwrap()).unwrap();
        assert!(a.merge(&b));
        let got: Vec<(&[u8], u64)> = a
            .largest(10)
            .iter()
            .map(|&i| (a.key(&a.rows[i as usize]), a.rows[i as usize].writes))
            .collect();
        assert_eq!(got, vec![(&b"x"[..], 2), (&b"y"[..], 2), (&b"z"[..], 1)]);
    }
}
