//! The largest rows by bytes written, in fixed memory (filtered space-saving), and their merge
//! with another sketch's (see `blocks.rs`).

use serde::{Deserialize, Serialize};

use super::rows::CellSample;

/// Rows monitored by [`LargestRows`]; the report shows the largest [`LARGEST_ROWS`].
const MONITORED: usize = 64;
/// Rows the report lists as the largest.
pub const LARGEST_ROWS: usize = 32;
/// Counters of the filter in front of the monitored rows (32 KiB). Fewer counters fill up
/// faster, and more rows pass the smallest monitored one and are taken in: 1,024 counters cost
/// the telecom benchmark about a quarter more time per record than 4,096.
const FILTER: usize = 4096;
/// Slots of the monitored rows' hash index (1 KiB, sixteen times the rows, open addressing):
/// a write to a row not monitored, the common case, finds its slot empty 94 % of the time, so
/// the branch is well predicted. 256 slots (a quarter full) cost the telecom benchmark 3.7 ns
/// a record more, in branch mispredictions and probe runs; 4,096 gained nothing more.
const SLOTS: usize = 1024;
/// An empty slot.
const EMPTY: u8 = u8::MAX;
/// Distinct cells sampled per monitored row.
const ROW_CELLS: usize = 64;

/// One monitored row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct MonitoredRow {
    pub(super) key: Vec<u8>,
    hash: u64,
    /// Its estimated bytes: what it had when it was taken in (its filter counter) plus what
    /// it got since. An upper bound of its true bytes.
    estimate: u64,
    /// Writes, bytes and cells since it was taken in: lower bounds, exact for a row
    /// monitored from its first write.
    pub(super) writes: u64,
    pub(super) bytes: u64,
    cells: Option<CellSample>,
}

impl MonitoredRow {
    /// The most bytes its count may miss: its estimate (an upper bound) less its bytes.
    pub(super) fn bytes_error(&self) -> u64 {
        self.estimate.saturating_sub(self.bytes)
    }

    /// The most writes its count may miss: [`bytes_error`](Self::bytes_error) over its bytes
    /// per write (a row's writes all have its key's and the value's bytes).
    pub(super) fn writes_error(&self) -> u64 {
        if self.bytes == 0 {
            return self.bytes_error();
        }
        let w = u128::from(self.bytes_error()) * u128::from(self.writes) / u128::from(self.bytes);
        u64::try_from(w).unwrap_or(u64::MAX)
    }

    /// Its cells kept: its writes when every write is its own cell.
    pub(super) fn cells(&self, versions: Option<u32>) -> u64 {
        match (&self.cells, versions) {
            (Some(s), Some(v)) => (libm::round(s.kept(v)) as u64).min(self.writes),
            _ => self.writes,
        }
    }
}

/// The largest rows by bytes written, in fixed memory: filtered space-saving (Homem and
/// Carvalho, 2010). A write to a monitored row adds to it; any other write adds its bytes to
/// one of [`FILTER`] counters picked by the row's hash, and the row is taken in (replacing
/// the smallest monitored row, whose bytes go back into its counter) only when that counter
/// passes the smallest monitored row. A row with more than 1 / [`MONITORED`] of the bytes is
/// always monitored, and most writes cost one counter update.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct LargestRows {
    rows: Vec<MonitoredRow>,
    /// `rows[i].estimate`, apart for the minimum scan.
    estimates: Vec<u64>,
    /// `rows[i].hash`, apart for the index's probes.
    hashes: Vec<u64>,
    /// Hash index into `rows`: `slots[h]` is a row index or [`EMPTY`].
    slots: Vec<u8>,
    filter: Vec<u64>,
    /// The smallest estimate and its row, once [`MONITORED`] rows are held.
    min: (u64, usize),
    /// Sample each row's cells (a `cells` section).
    track_cells: bool,
}

impl LargestRows {
    pub(super) fn new(track_cells: bool) -> LargestRows {
        LargestRows {
            rows: Vec::with_capacity(MONITORED),
            estimates: Vec::with_capacity(MONITORED),
            hashes: Vec::with_capacity(MONITORED),
            slots: vec![EMPTY; SLOTS],
            filter: vec![0; FILTER],
            min: (0, 0),
            track_cells,
        }
    }

    #[inline]
    fn slot_of(hash: u64) -> usize {
        // bits 48.. (the filter takes bits 32..44, the sketches the top ones)
        (hash >> 48) as usize & (SLOTS - 1)
    }

    #[inline]
    fn filter_of(hash: u64) -> usize {
        (hash >> 32) as usize & (FILTER - 1)
    }

    /// The monitored row with this key, if any.
    #[inline]
    fn find(&self, key: &[u8], hash: u64) -> Option<usize> {
        let mut s = Self::slot_of(hash);
        for _ in 0..SLOTS {
            let i = *self.slots.get(s)?;
            if i == EMPTY {
                return None;
            }
            let i = usize::from(i);
            if self.hashes.get(i) == Some(&hash) && self.rows.get(i).is_some_and(|r| r.key == key) {
                return Some(i);
            }
            s = (s + 1) & (SLOTS - 1);
        }
        None
    }

    /// One write of `bytes` bytes to the row `key` (hash `hash`), into the cell `cell`.
    #[inline]
    pub(super) fn offer(&mut self, key: &[u8], hash: u64, bytes: u64, cell: Option<u64>) {
        if let Some(i) = self.find(key, hash) {
            if let (Some(r), Some(e)) = (self.rows.get_mut(i), self.estimates.get_mut(i)) {
                r.estimate = r.estimate.saturating_add(bytes);
                *e = r.estimate;
                r.writes = r.writes.saturating_add(1);
                r.bytes = r.bytes.saturating_add(bytes);
                if let (Some(s), Some(c)) = (r.cells.as_mut(), cell) {
                    s.offer(c);
                }
            }
            if self.rows.len() >= MONITORED && i == self.min.1 {
                self.find_min();
            }
            return;
        }
        let f = Self::filter_of(hash);
        let counter = self.filter.get(f).copied().unwrap_or(0);
        let estimate = counter.saturating_add(bytes);
        if self.rows.len() < MONITORED || estimate > self.min.0 {
            let cells = self.track_cells.then(|| {
                let mut s = CellSample::new(ROW_CELLS);
                if let Some(c) = cell {
                    s.offer(c);
                }
                s
            });
            self.take_in(key, hash, estimate, (1, bytes), cells);
        } else if let Some(c) = self.filter.get_mut(f) {
            *c = estimate;
        }
    }

    /// Count what `later` counted after this: its filter's counters are added to this one's,
    /// and each row it monitors, largest estimate first, is offered as one write of its
    /// estimate (its writes, bytes and cells added to this one's when monitored here too).
    /// Estimates stay upper bounds and counts lower bounds; a row with more than
    /// 1 / [`MONITORED`] of the bytes of either is monitored by the merge.
    pub(super) fn merge(&mut self, later: &LargestRows) {
        for (c, o) in self.filter.iter_mut().zip(&later.filter) {
            *c = c.saturating_add(*o);
        }
        let mut rows: Vec<&MonitoredRow> = later.rows.iter().collect();
        rows.sort_by(|a, b| b.estimate.cmp(&a.estimate).then_with(|| a.key.cmp(&b.key)));
        for r in rows {
            self.offer_row(r);
        }
    }

    /// [`offer`](Self::offer) for a row another sketch monitored.
    fn offer_row(&mut self, row: &MonitoredRow) {
        if let Some(i) = self.find(&row.key, row.hash) {
            if let (Some(r), Some(e)) = (self.rows.get_mut(i), self.estimates.get_mut(i)) {
                r.estimate = r.estimate.saturating_add(row.estimate);
                *e = r.estimate;
                r.writes = r.writes.saturating_add(row.writes);
                r.bytes = r.bytes.saturating_add(row.bytes);
                if let (Some(s), Some(o)) = (r.cells.as_mut(), row.cells.as_ref()) {
                    s.merge(o);
                }
            }
            if self.rows.len() >= MONITORED && i == self.min.1 {
                self.find_min();
            }
            return;
        }
        let f = Self::filter_of(row.hash);
        let estimate = self
            .filter
            .get(f)
            .copied()
            .unwrap_or(0)
            .saturating_add(row.estimate);
        if self.rows.len() < MONITORED || estimate > self.min.0 {
            let cells = self.track_cells.then(|| {
                row.cells
                    .clone()
                    .unwrap_or_else(|| CellSample::new(ROW_CELLS))
            });
            self.take_in(&row.key, row.hash, estimate, (row.writes, row.bytes), cells);
        } else if let Some(c) = self.filter.get_mut(f) {
            *c = estimate;
        }
    }

    /// Monitor `key` from now on with `(writes, bytes)` counted, in a new slot while fewer
    /// than [`MONITORED`] rows are, else in place of the smallest (whose estimate goes back
    /// into its filter counter).
    fn take_in(
        &mut self,
        key: &[u8],
        hash: u64,
        estimate: u64,
        (writes, bytes): (u64, u64),
        cells: Option<CellSample>,
    ) {
        let out = (self.rows.len() >= MONITORED).then_some(self.min.1);
        let i = match out {
            Some(i) => {
                let old_hash = self.rows.get(i).map_or(0, |r| r.hash);
                self.unindex(i, old_hash);
                let Some(old) = self.rows.get_mut(i) else {
                    return;
                };
                let f = Self::filter_of(old.hash);
                if let Some(c) = self.filter.get_mut(f) {
                    *c = old.estimate;
                }
                old.key.clear();
                old.key.extend_from_slice(key);
                old.hash = hash;
                old.estimate = estimate;
                old.writes = writes;
                old.bytes = bytes;
                old.cells = cells;
                if let Some(e) = self.estimates.get_mut(i) {
                    *e = estimate;
                }
                if let Some(h) = self.hashes.get_mut(i) {
                    *h = hash;
                }
                i
            }
            None => {
                self.rows.push(MonitoredRow {
                    key: key.to_vec(),
                    hash,
                    estimate,
                    writes,
                    bytes,
                    cells,
                });
                self.estimates.push(estimate);
                self.hashes.push(hash);
                self.rows.len() - 1
            }
        };
        self.index(i, hash);
        if self.rows.len() >= MONITORED {
            self.find_min();
        }
    }

    fn index(&mut self, i: usize, hash: u64) {
        let mut s = Self::slot_of(hash);
        for _ in 0..SLOTS {
            match self.slots.get_mut(s) {
                Some(slot) if *slot == EMPTY => {
                    *slot = u8::try_from(i).unwrap_or(EMPTY);
                    return;
                }
                _ => s = (s + 1) & (SLOTS - 1),
            }
        }
    }

    /// Take row `i` (hash `hash`) out of the index: its slot is emptied and the rows after it
    /// in its probe run shift back (linear probing's deletion without tombstones).
    fn unindex(&mut self, i: usize, hash: u64) {
        let Ok(i) = u8::try_from(i) else {
            return;
        };
        let mut hole = Self::slot_of(hash);
        let mut found = false;
        for _ in 0..SLOTS {
            match self.slots.get(hole) {
                Some(&v) if v == i => {
                    found = true;
                    break;
                }
                Some(&v) if v != EMPTY => hole = (hole + 1) & (SLOTS - 1),
                _ => break,
            }
        }
        if !found {
            return;
        }
        let mut j = (hole + 1) & (SLOTS - 1);
        for _ in 0..SLOTS {
            let v = self.slots.get(j).copied().unwrap_or(EMPTY);
            if v == EMPTY {
                break;
            }
            let home = self
                .hashes
                .get(usize::from(v))
                .map_or(j, |&h| Self::slot_of(h));
            // The row at `j` may fill the hole unless its home slot lies in (hole, j].
            if (j.wrapping_sub(home) & (SLOTS - 1)) >= (j.wrapping_sub(hole) & (SLOTS - 1)) {
                if let Some(h) = self.slots.get_mut(hole) {
                    *h = v;
                }
                hole = j;
            }
            j = (j + 1) & (SLOTS - 1);
        }
        if let Some(h) = self.slots.get_mut(hole) {
            *h = EMPTY;
        }
    }

    fn find_min(&mut self) {
        let mut min = (u64::MAX, 0);
        for (i, &e) in self.estimates.iter().enumerate() {
            if e < min.0 {
                min = (e, i);
            }
        }
        self.min = min;
    }

    /// The monitored rows, largest first (by bytes seen, then key).
    pub(super) fn largest(&self) -> Vec<&MonitoredRow> {
        let mut rows: Vec<&MonitoredRow> = self.rows.iter().collect();
        rows.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.key.cmp(&b.key)));
        rows.truncate(LARGEST_ROWS);
        rows
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::analyze::analyzer::rows::row_hash;

    #[test]
    fn every_monitored_row_stays_findable_through_replacements() {
        let mut l = LargestRows::new(false);
        for i in 0..50_000u64 {
            // A few heavy rows among many distinct ones: rows are taken in and replaced.
            let key = if i % 5 == 0 {
                format!("hot{}", i % 3)
            } else {
                format!("row{i}")
            };
            let h = row_hash(key.as_bytes());
            l.offer(key.as_bytes(), h, 10 + i % 7, None);
            if i % 997 == 0 {
                for (j, r) in l.rows.iter().enumerate() {
                    assert_eq!(l.find(&r.key, r.hash), Some(j), "after {i} writes");
                }
            }
        }
        let top: Vec<&[u8]> = l.largest().iter().take(3).map(|r| &r.key[..]).collect();
        let mut want: Vec<&[u8]> = vec![b"hot0", b"hot1", b"hot2"];
        want.sort();
        let mut got = top.clone();
        got.sort();
        assert_eq!(got, want);
    }
}
