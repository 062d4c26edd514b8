//! A user's rows' keys in the order they were written, as an even sample of bounded size: what a
//! simulation of the table's months needs from a user's rows (how bytes fall over the key
//! space and over time), whatever the file's length. Rows arrive in file order; every
//! `stride`-th is kept, and when the sample passes its bound every other kept row is dropped
//! and the stride doubles, so the sample stays evenly spread over the whole file.
//! With a time column the sample is put in time order at the end, so a file sorted by key (an
//! export) still gives the order the rows were written in.

use crate::error::{Error, ErrorKind, Result};

/// Most keys the sample holds (it holds between half this and this once the rows pass it).
pub const WRITE_SAMPLE_ROWS: usize = 65_536;
/// Most key bytes the sample holds: past it the sample thins as it does past its rows.
pub const WRITE_SAMPLE_BYTES: usize = 32 << 20;

/// An even sample of the rows' keys in write order; see the module header.
#[derive(Debug, Clone, Default)]
pub struct WriteSample {
    /// Rows offered.
    rows: u64,
    /// Every `stride`-th row offered is kept.
    stride: u64,
    /// Kept rows: (write time in ms when the rows carry one, key), in file order.
    kept: Vec<(Option<i64>, Vec<u8>)>,
    bytes: usize,
    /// The earliest and latest time of every row offered.
    span_ms: Option<(i64, i64)>,
    /// Rows whose key is smaller than the row before.
    out_of_key_order: u64,
    prev_key: Vec<u8>,
}

/// What the sample says about the rows it was taken from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOrder {
    /// Rows read.
    pub rows: u64,
    /// Keys kept.
    pub kept: usize,
    /// Whether the keys were put in the order of the rows' time column (else file order).
    pub by_time: bool,
    /// The earliest and latest write time (ms) of every row read, when the rows carry one.
    pub span_ms: Option<(i64, i64)>,
    /// Whether every row's key is at least the one before: rows in key order (an export
    /// sorted by key, or a key that grows with time).
    pub key_sorted: bool,
}

impl WriteSample {
    /// An empty sample.
    pub fn new() -> WriteSample {
        WriteSample {
            stride: 1,
            ..WriteSample::default()
        }
    }

    /// The next row in file order: its key and its write time, when the rows carry one.
    pub fn offer(&mut self, key: &[u8], time_ms: Option<i64>) {
        if self.rows > 0 && key < self.prev_key.as_slice() {
            self.out_of_key_order += 1;
        }
        self.prev_key.clear();
        self.prev_key.extend_from_slice(key);
        if let Some(t) = time_ms {
            self.span_ms = Some(self.span_ms.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
        }
        if self.rows % self.stride.max(1) == 0 {
            self.bytes += key.len();
            self.kept.push((time_ms, key.to_vec()));
            while self.kept.len() > WRITE_SAMPLE_ROWS
                || (self.bytes > WRITE_SAMPLE_BYTES && self.kept.len() > 1)
            {
                self.thin();
            }
        }
        self.rows += 1;
    }

    /// Every other kept row dropped (those at odd places), the stride doubled: the kept rows
    /// stay the rows at multiples of the stride.
    fn thin(&mut self) {
        let mut i = 0usize;
        self.kept.retain(|_| {
            i += 1;
            i % 2 == 1
        });
        self.bytes = self.kept.iter().map(|(_, k)| k.len()).sum();
        self.stride = self.stride.saturating_mul(2);
    }

    /// Rows offered.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The kept keys in write order (by the time column when every kept row has a time;
    /// equal times keep file order), with what the sample says about the rows; an error
    /// when no row was offered.
    pub fn keys_in_write_order(&self) -> Result<(Vec<&[u8]>, WriteOrder)> {
        if self.kept.is_empty() {
            return Err(Error::new(ErrorKind::Invalid, "no rows to read keys from"));
        }
        let by_time = self.kept.iter().all(|(t, _)| t.is_some());
        let mut order: Vec<&(Option<i64>, Vec<u8>)> = self.kept.iter().collect();
        if by_time {
            order.sort_by_key(|(t, _)| *t);
        }
        let keys = order.iter().map(|(_, k)| k.as_slice()).collect();
        Ok((
            keys,
            WriteOrder {
                rows: self.rows,
                kept: self.kept.len(),
                by_time,
                span_ms: self.span_ms,
                key_sorted: self.out_of_key_order == 0,
            },
        ))
    }
}
