//! The counting core: [`Analyzer`] takes row keys one write at a time and keeps, per region,
//! server, key-space grid bucket and time window, the counters the report is made of; it
//! also simulates auto-split (see the module docs of [`crate::analyze`]).

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::diagnosis::{diagnose, row_findings, spread_of};
use super::report::{
    AnalysisReport, AutoSplitRules, LargestRow, Matrix, RegionReport, SampleKey, ServerReport,
    SplitEvent, SplitSizes,
};
use super::{AnalyzerOptions, MAX_CELLS};
use crate::analyze::metrics::{self, MatrixMetrics};
use crate::error::Result;
use crate::hbase::bytes::{to_hex, to_string_binary};
use crate::hbase::policy::{self, PolicyLimits, RegionState, StoreState};
use crate::limits::MAX_SAMPLE_BYTES;
use crate::region::Assignment;

mod autosplit;
mod autosplit_report;
mod blocks;
// Exact row counts in every build, the page's size build too: its first run shows the same
// distinct rows and largest rows as the workers, the CLI and the library (one answer).
mod exact;
mod finish;
mod largest;
mod partial;
mod regions;
mod reservoir;
mod rows;
mod store;

use blocks::SketchTree;
use exact::ExactRows;
use largest::LargestRows;
pub use largest::LARGEST_ROWS;
pub use partial::PartialAnalysis;
use regions::{check_placement, Region};
use reservoir::{KeySample, Reservoir};
pub use rows::DistinctKeys;
use rows::{CellSample, Distinct};
pub use store::PERIODIC_FLUSH_MS;

/// Distinct cells sampled with their write counts, for the versions a cell keeps.
const CELL_SAMPLE: usize = 1024;

/// Streams writes into per-region, per-server, per-window counters.
#[derive(Debug, Clone)]
pub struct Analyzer {
    opts: AnalyzerOptions,
    windows: usize,
    regions: Vec<Region>,
    /// Start keys of regions 1.., for the binary search.
    split_keys: Vec<Vec<u8>>,
    /// The first 8 bytes of each split key as a big-endian number (zero-padded): the binary
    /// search compares these and reads the keys only on a tie.
    split_prefixes: Vec<u64>,
    /// With 16 or more split keys: `first2[h]` = the number of split prefixes whose first two
    /// bytes are below `h` (65 537 entries), so a row's search starts in the few split keys
    /// sharing its first two bytes; empty otherwise.
    first2: Vec<u32>,
    /// The window of the last write: `[start, end)` in ms and its index (clocks move slowly).
    last_window: (i64, i64, usize),
    server_regions: Vec<u32>,
    /// The servers' names, with an explicit placement (`Assignment::Servers`).
    server_names: Vec<String>,
    /// The server of each region at creation, with an explicit placement.
    initial_servers: Vec<u32>,
    server_windows: Vec<u64>,
    server_rows: Vec<u64>,
    server_bytes: Vec<u64>,
    /// The table's distinct rows and cells, the cells sampled with their writes (with
    /// `VERSIONS` above 1) and the largest rows.
    distinct: Distinct,
    cells: Distinct,
    cell_sample: CellSample,
    grid: Vec<u64>,
    /// The key sample: the writes of the smallest priorities (see [`KeySample`]).
    sample: KeySample,
    /// The position of the next write in the stream (its priority's source).
    next_index: u64,
    /// The largest rows of the block being counted.
    largest: LargestRows,
    /// The largest rows of the blocks counted before it (see `blocks.rs`).
    tree: SketchTree,
    /// Every row counted exactly ([`AnalyzerOptions::exact_rows`]); `None` without, or
    /// once the rows passed the cap (see `exact.rs`).
    exact: Option<Box<ExactRows>>,
    /// The block being counted, and the writes it still takes before the next begins
    /// (`u64::MAX` with auto-split, which is one pass).
    block: u64,
    block_left: u64,
    /// Bytes of row keys held by the report's sample and the regions' samples: checked
    /// against [`MAX_SAMPLE_BYTES`] by the run after each batch. A `Cell` so both closures
    /// of a reservoir offer can count.
    sample_bytes: std::cell::Cell<usize>,
    rng: Xoshiro256PlusPlus,
    limits: Option<PolicyLimits>,
    /// Auto-split's memstore flush size (KeyValue bytes) and what a write adds to its key and
    /// value bytes to make its KeyValue.
    flush_size: u64,
    kv_overhead: u64,
    /// The earliest time a memstore is due its periodic flush (`i64::MAX`: none, or no
    /// auto-split), and the latest write time seen.
    next_sweep_ms: i64,
    clock_ms: i64,
    /// Auto-split's counts: KeyValue bytes written, flushes, minor and reference compactions.
    kv_written: u64,
    flushes: u64,
    compactions: u64,
    max_regions: usize,
    writes: u64,
    bytes: u64,
    outside: u64,
    splits: Vec<SplitEvent>,
    split_limit_reached: bool,
}

impl Analyzer {
    /// An analyzer over the table pre-split at `split_keys` (none: one region). The keys are
    /// checked like the client does (sorted, no empty key, no duplicate).
    pub fn new(split_keys: Vec<Vec<u8>>, opts: AnalyzerOptions) -> Result<Analyzer> {
        opts.validate()?;
        let split_keys = crate::hbase::split::verify_split_keys(split_keys)?;
        let windows = usize::try_from(opts.windows).unwrap_or(1);
        let max_regions = opts.max_regions();
        if split_keys.len().saturating_add(1) > max_regions {
            return Err(crate::error::Error::limit(
                "splitKeys",
                format!(
                    "{} regions x {} windows is more than {MAX_CELLS} cells: use fewer regions or windows",
                    split_keys.len().saturating_add(1),
                    opts.windows
                ),
            ));
        }
        let placement = opts.assignment.placement().unwrap_or_default();
        if matches!(opts.assignment, Assignment::Servers(_)) {
            check_placement(&placement, opts.region_servers, split_keys.len() + 1)?;
        }
        let servers = usize::try_from(opts.region_servers).unwrap_or(1);
        let mut a = Analyzer {
            windows,
            regions: Vec::with_capacity(split_keys.len() + 1),
            split_keys: Vec::new(),
            split_prefixes: Vec::new(),
            first2: Vec::new(),
            last_window: (0, 0, 0),
            server_regions: vec![0; servers],
            server_names: placement.names,
            initial_servers: placement.servers,
            server_windows: vec![0; servers.saturating_mul(windows)],
            server_rows: vec![0; servers],
            server_bytes: vec![0; servers],
            distinct: Distinct::new(rows::TABLE_PRECISION),
            cells: Distinct::new(rows::TABLE_PRECISION),
            cell_sample: CellSample::new(CELL_SAMPLE),
            sample: KeySample::new(usize::try_from(opts.sample_size).unwrap_or(0)),
            next_index: 0,
            largest: LargestRows::new(opts.versions.is_some()),
            tree: SketchTree::default(),
            exact: opts.exact_rows.then(|| Box::new(ExactRows::new())),
            block: 0,
            block_left: if opts.auto_split.is_some() {
                u64::MAX
            } else {
                crate::workload::BLOCK_RECORDS
            },
            grid: vec![
                0;
                usize::try_from(opts.grid_buckets)
                    .unwrap_or(1)
                    .saturating_mul(windows)
            ],
            sample_bytes: std::cell::Cell::new(0),
            rng: Xoshiro256PlusPlus::seed_from_u64(opts.seed),
            limits: opts.auto_split.as_ref().map(|a| a.config.limits(None)),
            flush_size: opts.auto_split.as_ref().map_or(u64::MAX, |a| {
                u64::try_from(a.config.flush_size()).unwrap_or(0).max(1)
            }),
            kv_overhead: opts.cell_bytes.overhead(),
            next_sweep_ms: i64::MAX,
            clock_ms: i64::MIN,
            kv_written: 0,
            flushes: 0,
            compactions: 0,
            max_regions,
            writes: 0,
            bytes: 0,
            outside: 0,
            splits: Vec::new(),
            split_limit_reached: false,
            opts,
        };
        let mut start: Vec<u8> = Vec::new();
        for (i, k) in split_keys.iter().enumerate() {
            let server = a.place(i);
            a.regions
                .push(Region::new(start, k.clone(), windows, server, a.opts.seed));
            start = k.clone();
        }
        let server = a.place(split_keys.len());
        a.regions
            .push(Region::new(start, Vec::new(), windows, server, a.opts.seed));
        a.split_prefixes = split_keys.iter().map(|k| be_prefix(k)).collect();
        a.split_keys = split_keys;
        a.index_first2();
        Ok(a)
    }

    /// Count every row exactly from now on ([`AnalyzerOptions::exact_rows`]). Only before
    /// any write.
    pub fn count_rows_exactly(&mut self) -> Result<()> {
        if self.writes > 0 || !self.tree.is_empty() {
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::IllegalState,
                "rows are counted exactly from the first write on",
            ));
        }
        self.opts.exact_rows = true;
        self.exact = Some(Box::new(ExactRows::new()));
        Ok(())
    }

    /// Count rows by the sketches alone from now on, the exact counts dropped: for rows
    /// recounted exactly elsewhere ([`RowRecount`](crate::analyze::RowRecount)), whose exact
    /// counts here would only cost time and bytes.
    pub fn stop_counting_rows_exactly(&mut self) {
        self.exact = None;
    }

    /// The options this analyzer counts with.
    pub fn options(&self) -> &AnalyzerOptions {
        &self.opts
    }

    /// Number of regions now.
    pub fn region_count(&self) -> usize {
        self.regions.len()
    }

    /// The current split keys (start keys of regions 1..).
    pub fn split_keys(&self) -> &[Vec<u8>] {
        &self.split_keys
    }

    /// The block being counted (see [`crate::workload::BLOCK_RECORDS`]).
    pub fn block(&self) -> u64 {
        self.block
    }

    /// Writes counted so far.
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Index of the region holding `row` now (`[start, end)` rule).
    pub fn region_of(&self, row: &[u8]) -> usize {
        // The number of split keys <= row. Zero-padded big-endian prefixes order like the
        // keys whenever they differ (a shorter key that is a prefix pads with zeros, which
        // sort first); only equal prefixes need the full comparison.
        let p = be_prefix_bytewise(row);
        // Split keys whose (zero-padded) first two bytes differ from the row's order like the
        // row: only those sharing them need a search.
        let h = (p >> 48) as usize;
        if let (Some(&a), Some(&b)) = (self.first2.get(h), self.first2.get(h + 1)) {
            let (a, b) = (a as usize, b as usize);
            return self.count_le(row, p, a, b.saturating_sub(a));
        }
        self.count_le(row, p, 0, self.split_prefixes.len())
    }

    /// `base` + the number of split keys in `base..base + size` that are <= `row` (whose
    /// prefix is `p`); every split key before `base` is <= row, every one after is > row.
    #[inline]
    fn count_le(&self, row: &[u8], p: u64, mut base: usize, mut size: usize) -> usize {
        let prefixes = self.split_prefixes.as_slice();
        // Is split key `i` <= row? Prefix ties (rare) read the key.
        let le = |i: usize, q: u64| -> usize {
            if q == p {
                usize::from(self.split_keys.get(i).is_some_and(|k| k.as_slice() <= row))
            } else {
                usize::from(q < p)
            }
        };
        // Branch-free halving (the step is chosen arithmetically: salted keys make the
        // comparisons unpredictable, and a mispredicted branch per step cost more than the
        // search itself).
        if size == 0 {
            return base;
        }
        while size > 1 {
            let half = size / 2;
            let mid = base + half;
            let q = prefixes.get(mid).copied().unwrap_or(u64::MAX);
            base += half * le(mid, q);
            size -= half;
        }
        let q = prefixes.get(base).copied().unwrap_or(u64::MAX);
        base + le(base, q)
    }

    fn window_of(&mut self, time_ms: i64) -> usize {
        let (a, b, w) = self.last_window;
        if a <= time_ms && time_ms < b {
            return w;
        }
        // Fast path in 64-bit arithmetic (an i128 division costs several times more).
        if let Some(off) = time_ms.checked_sub(self.opts.start_time_ms) {
            if off >= 0 {
                let width = self.opts.window_ms.max(1);
                let w = off / width;
                if let Ok(wi) = usize::try_from(w) {
                    if wi < self.windows {
                        // Remember the window's range when it fits in i64.
                        let start = w
                            .checked_mul(width)
                            .and_then(|x| x.checked_add(self.opts.start_time_ms));
                        if let Some(end) = start.and_then(|s| s.checked_add(width)) {
                            self.last_window = (end - width, end, wi);
                        }
                        return wi;
                    }
                }
            }
        }
        let off = i128::from(time_ms) - i128::from(self.opts.start_time_ms);
        let w = off.div_euclid(i128::from(self.opts.window_ms.max(1)));
        let last = self.windows.saturating_sub(1);
        if w < 0 {
            self.outside = self.outside.saturating_add(1);
            0
        } else if w > last as i128 {
            self.outside = self.outside.saturating_add(1);
            last
        } else {
            usize::try_from(w).unwrap_or(last)
        }
    }

    /// The grid bucket of a key: its first two bytes as a big-endian number in `0..65536`
    /// (missing bytes are 0), scaled to `gridBuckets`.
    pub fn grid_bucket(&self, key: &[u8]) -> usize {
        grid_bucket(key, self.opts.grid_buckets)
    }

    /// Count one write of `bytes` bytes (key and value) with row key `key` at `time_ms`.
    /// With [`AnalyzerOptions::versions`] set it writes the row's one fixed qualifier (see
    /// [`push_cell`](Self::push_cell)); without, it is a cell of its own.
    pub fn push(&mut self, key: &[u8], time_ms: i64, bytes: u64) {
        self.write(key, 0, time_ms, bytes);
    }

    /// [`push`](Self::push) into the cell whose column qualifier hashes to `qualifier`: with
    /// [`AnalyzerOptions::versions`] set, writes with the same row key and qualifier are
    /// versions of one cell, which keeps the newest `versions` of them. Without, the
    /// qualifier is not read (every write is its own cell).
    pub fn push_cell(&mut self, key: &[u8], qualifier: u64, time_ms: i64, bytes: u64) {
        self.write(key, qualifier, time_ms, bytes);
    }

    #[inline(always)]
    fn write(&mut self, key: &[u8], qualifier: u64, time_ms: i64, bytes: u64) {
        if self.block_left == 0 {
            self.next_block();
        }
        self.block_left = self.block_left.saturating_sub(1);
        if time_ms >= self.next_sweep_ms {
            self.periodic_flushes(time_ms);
        }
        let w = self.window_of(time_ms);
        let r = self.region_of(key);
        let windows = self.windows;
        self.writes = self.writes.saturating_add(1);
        self.bytes = self.bytes.saturating_add(bytes);
        let index = self.next_index;
        self.next_index = index.wrapping_add(1);
        // Each region's sample is auto-split's (its midpoint key), kept only with auto-split.
        let k = if self.limits.is_some() {
            usize::try_from(self.opts.region_sample_size).unwrap_or(2)
        } else {
            0
        };
        let hash = rows::row_hash(key);
        let cell = self.opts.versions.map(|_| rows::cell_hash(hash, qualifier));
        let Some(reg) = self.regions.get_mut(r) else {
            return;
        };
        reg.distinct.insert(hash);
        if let Some(c) = cell {
            reg.cells.insert(c);
        }
        reg.rows = reg.rows.saturating_add(1);
        reg.bytes = reg.bytes.saturating_add(bytes);
        if let Some(c) = reg.windows.get_mut(w) {
            *c = c.saturating_add(1);
        }
        let w32 = u32::try_from(w).unwrap_or(0);
        let held = &self.sample_bytes;
        reg.sample.offer(
            k,
            &mut self.rng,
            || {
                held.set(held.get().saturating_add(key.len()));
                (key.to_vec(), w32)
            },
            |(kk, ww)| {
                held.set(
                    held.get()
                        .saturating_add(key.len())
                        .saturating_sub(kk.len()),
                );
                kk.clear();
                kk.extend_from_slice(key);
                *ww = w32;
            },
        );
        let s = usize::try_from(reg.server).unwrap_or(0);
        if let Some(c) = self.server_windows.get_mut(s.saturating_mul(windows) + w) {
            *c = c.saturating_add(1);
        }
        if let Some(c) = self.server_rows.get_mut(s) {
            *c = c.saturating_add(1);
        }
        if let Some(c) = self.server_bytes.get_mut(s) {
            *c = c.saturating_add(bytes);
        }
        self.distinct.insert(hash);
        if let Some(c) = cell {
            self.cells.insert(c);
            if self.opts.versions.is_some_and(|v| v > 1) {
                self.cell_sample.offer(c);
            }
        }
        self.largest.offer(key, hash, bytes, cell);
        if let Some(x) = self.exact.as_mut() {
            if !x.offer(key, hash, bytes, cell) {
                self.exact = None;
            }
        }
        let g = self.grid_bucket(key);
        if let Some(c) = self.grid.get_mut(g.saturating_mul(windows) + w) {
            *c = c.saturating_add(1);
        }
        let p = KeySample::priority(self.opts.seed, index);
        if self.sample.takes(p) {
            let (added, out) = self.sample.offer(p, key);
            let held = &self.sample_bytes;
            held.set(held.get().saturating_add(added).saturating_sub(out));
        }
        if self.limits.is_some() {
            self.memstore_write(r, key, time_ms, bytes);
        }
    }

    /// The [`MAX_SAMPLE_BYTES`] error once the kept sample keys pass it (long keys times many
    /// regions times `regionSampleSize`); the run checks after each batch, so memory stays
    /// within the limit plus one batch.
    pub fn check_sample_bytes(&self) -> Result<()> {
        let held = self.sample_bytes.get();
        if held > MAX_SAMPLE_BYTES {
            return Err(crate::limits::limit_error(
                "regionSampleSize",
                format!("{held} bytes of sampled row keys"),
                format!("{MAX_SAMPLE_BYTES} bytes"),
                "use a smaller sampleSize or regionSampleSize, fewer regions, or shorter keys",
            ));
        }
        Ok(())
    }
}

/// The row size past which a row is a finding without auto-split (Bigtable's Key Visualizer
/// flags rows over 256 MB; with auto-split, the region's max file size).
pub const DEFAULT_ROW_LIMIT: u64 = 256 << 20;

/// The first 8 bytes of `key` as a big-endian number, zero-padded.
fn be_prefix(key: &[u8]) -> u64 {
    if let Some(b) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*b);
    }
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    if let (Some(dst), Some(src)) = (b.get_mut(..n), key.get(..n)) {
        dst.copy_from_slice(src);
    }
    u64::from_be_bytes(b)
}

/// [`be_prefix`] read one byte at a time. The row was usually just written by several
/// narrower stores (the hash or salt is filled in last, after the rest of the key): one
/// 8-byte load over them cannot be forwarded from the store buffer and waits for the
/// stores to retire, while byte loads each come from one store.
fn be_prefix_bytewise(key: &[u8]) -> u64 {
    let mut p = 0u64;
    for i in 0..8 {
        p = (p << 8) | u64::from(key.get(i).copied().unwrap_or(0));
    }
    p
}

/// The grid bucket of `key` among `buckets`: the first two bytes (missing = 0) as a number
/// in `0..65536`, times `buckets / 65536`.
pub fn grid_bucket(key: &[u8], buckets: u32) -> usize {
    let hi = u64::from(key.first().copied().unwrap_or(0));
    let lo = u64::from(key.get(1).copied().unwrap_or(0));
    let v = (hi << 8) | lo;
    usize::try_from((v * u64::from(buckets.max(1))) >> 16).unwrap_or(0)
}

#[cfg(test)]
mod tests;
