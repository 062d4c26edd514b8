//! The split and skew analyzer: row keys stream in one write at a time and land in counters.
//!
//! [`Analyzer`] keeps, per region, its rows, bytes and writes per time window, a small
//! reservoir of its keys (for the auto-split middle key) and its region server; per server
//! the same totals; a key-space grid × window matrix; and a bounded reservoir of keys for the
//! sorted sample. Memory grows with regions × windows and the sample sizes, never with the
//! number of writes.
//!
//! # Auto-split
//! With [`AnalyzerOptions::auto_split`] set, after every write the written region's size is
//! compared with `SplitPolicy::size_to_check(limits, regions of this table on its server)`
//! (the exact [`crate::policy`] arithmetic, no jitter). When it is exceeded the split point is
//! asked from `SplitPolicy::check_split` with one store whose split point is the **median of
//! the region's key reservoir**: HBase uses the middle key of the largest store file's block
//! index, which is the middle row of the region's data; a uniform reservoir of
//! [`AnalyzerOptions::region_sample_size`] keys estimates that median (the rank error is about
//! `1 / (2 √k)` of the region's rows). The policy's KeyPrefix / Delimited truncation and the
//! [`AnalyzerOptions::split_restriction`] are applied by the policy module, and the point
//! must pass the master's [`crate::policy::is_usable_split_row`] check. When no usable point
//! exists (say every row of the region has the same key) the region is checked again only
//! after it grew by another eighth. Store sizes are the written bytes (key + value, no
//! compression, no memstore delay); daughters may split again at once (reference files are
//! not modelled).
//!
//! # Matrix rows after a split
//! Rows of the region × window matrix are the **final** regions in key order. When a region
//! splits, the counts it had so far are divided between its daughters by key, estimated from
//! its reservoir: for each window, the share of that window's sampled keys that fall below the
//! split point (the overall share where a window has no sampled key). Rows and bytes are
//! divided by the overall share. So the heatmap shows where in the final key space the writes
//! went, and each region's `createdAtMs` says from when it really existed.

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::bytes::{to_hex, to_string_binary};
use crate::design::DesignDocument;
use crate::error::{Error, ErrorKind, Result};
use crate::layout::{Assignment, AutoSplit, MAX_REGIONS};
use crate::metrics::{self, LoadMetrics, MatrixMetrics};
use crate::policy::{self, PolicyLimits, RegionState, SplitRestriction, StoreState};
use crate::workload::{Record, WorkloadSpec, WorkloadStream};

/// The most cells a region × window (or grid × window) matrix may have.
pub const MAX_CELLS: u64 = 16 * 1024 * 1024;
/// The most time windows.
pub const MAX_WINDOWS: u32 = 65_536;
/// The most keys in the sorted sample.
pub const MAX_SAMPLE: u32 = 100_000;
/// The most keys in one region's reservoir.
pub const MAX_REGION_SAMPLE: u32 = 4096;
/// The most key-space grid buckets.
pub const MAX_GRID_BUCKETS: u32 = 65_536;

/// How an [`Analyzer`] counts: the time axis, the sample sizes, the key-space grid, the
/// auto-split settings and the region servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AnalyzerOptions {
    /// Start of window 0, in ms since the epoch.
    pub start_time_ms: i64,
    /// Width of one time window in ms (at least 1).
    pub window_ms: i64,
    /// Number of time windows; writes before the start count in window 0, after the end in
    /// the last window (and are counted in `writesOutsideWindows`).
    pub windows: u32,
    /// Size of the sorted key sample.
    pub sample_size: u32,
    /// Keys kept per region to estimate its middle key for auto-split.
    pub region_sample_size: u32,
    /// Buckets of the key-space grid (the first two key bytes read as a big-endian number,
    /// cut into equal ranges: 256 buckets = one per first byte).
    pub grid_buckets: u32,
    /// Automatic splitting; `None` keeps the initial regions.
    pub auto_split: Option<AutoSplit>,
    /// The table's split restriction (`hbase.regionserver.region.split_restriction.type`).
    pub split_restriction: SplitRestriction,
    /// Number of region servers (at least 1).
    pub region_servers: u32,
    /// How regions are placed on servers.
    pub assignment: Assignment,
    /// Seed of the reservoir sampling.
    pub seed: u64,
}

impl Default for AnalyzerOptions {
    fn default() -> Self {
        AnalyzerOptions {
            start_time_ms: 0,
            window_ms: 1000,
            windows: 64,
            sample_size: 1000,
            region_sample_size: 128,
            grid_buckets: 256,
            auto_split: None,
            split_restriction: SplitRestriction::None,
            region_servers: 1,
            assignment: Assignment::RoundRobin,
            seed: 0,
        }
    }
}

fn invalid(path: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid, message).at_path(path)
}

impl AnalyzerOptions {
    /// Checks every limit, naming the option at fault.
    pub fn validate(&self) -> Result<()> {
        if self.window_ms < 1 {
            return Err(invalid(
                "windowMs",
                "the window width must be at least 1 ms",
            ));
        }
        if self.windows == 0 || self.windows > MAX_WINDOWS {
            return Err(invalid(
                "windows",
                format!("the window count must be between 1 and {MAX_WINDOWS}"),
            ));
        }
        if self.sample_size > MAX_SAMPLE {
            return Err(invalid(
                "sampleSize",
                format!("the sample size must be at most {MAX_SAMPLE}"),
            ));
        }
        if self.region_sample_size < 2 || self.region_sample_size > MAX_REGION_SAMPLE {
            return Err(invalid(
                "regionSampleSize",
                format!("the region sample size must be between 2 and {MAX_REGION_SAMPLE}"),
            ));
        }
        if self.grid_buckets == 0 || self.grid_buckets > MAX_GRID_BUCKETS {
            return Err(invalid(
                "gridBuckets",
                format!("the grid must have between 1 and {MAX_GRID_BUCKETS} buckets"),
            ));
        }
        if u64::from(self.grid_buckets) * u64::from(self.windows) > MAX_CELLS {
            return Err(invalid(
                "gridBuckets",
                format!(
                    "{} grid buckets x {} windows is more than {MAX_CELLS} cells",
                    self.grid_buckets, self.windows
                ),
            ));
        }
        if self.region_servers == 0 || self.region_servers > 10_000 {
            return Err(invalid(
                "regionServers",
                "the region server count must be between 1 and 10000",
            ));
        }
        Ok(())
    }

    /// The most regions the matrix can hold with this many windows.
    fn max_regions(&self) -> usize {
        let by_cells = MAX_CELLS / u64::from(self.windows.max(1));
        usize::try_from(by_cells.min(u64::from(MAX_REGIONS))).unwrap_or(usize::MAX)
    }
}

/// One region while the analyzer runs.
#[derive(Debug, Clone)]
struct Region {
    start: Vec<u8>,
    end: Vec<u8>,
    rows: u64,
    bytes: u64,
    windows: Vec<u64>,
    created_at: Option<i64>,
    server: u32,
    /// Keys with their window, for the middle key and the split of the counts.
    sample: Reservoir<(Vec<u8>, u32)>,
    next_check: u64,
}

impl Region {
    fn new(start: Vec<u8>, end: Vec<u8>, windows: usize, server: u32) -> Region {
        Region {
            start,
            end,
            rows: 0,
            bytes: 0,
            windows: vec![0; windows],
            created_at: None,
            server,
            sample: Reservoir::default(),
            next_check: 0,
        }
    }
}

/// A uniform sample of at most `cap` items of a stream, by Li's Algorithm L: after the
/// reservoir fills, the number of items to skip before the next one is kept is drawn from its
/// geometric-like law, so a stream of `n` items costs `O(k log(n/k))` random draws instead of
/// one draw and one division per item (Algorithm R). Logarithms and exponentials come from
/// `libm`, so native and wasm builds keep the same sample.
#[derive(Debug, Clone)]
struct Reservoir<T> {
    items: Vec<T>,
    /// Items offered so far.
    seen: u64,
    /// The `seen` count at which the next item is kept (after the reservoir filled).
    next: u64,
    /// Algorithm L's running `W`.
    w: f64,
}

impl<T> Default for Reservoir<T> {
    fn default() -> Self {
        Reservoir {
            items: Vec::new(),
            seen: 0,
            next: u64::MAX,
            w: 1.0,
        }
    }
}

/// A uniform draw in `(0, 1)`, never 0 (53 random bits, centred).
fn unit_open(rng: &mut Xoshiro256PlusPlus) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / 9_007_199_254_740_992.0)
}

impl<T> Reservoir<T> {
    /// A reservoir that has seen exactly `items` (a daughter region's share of its parent's).
    fn from_items(items: Vec<T>, cap: usize, rng: &mut Xoshiro256PlusPlus) -> Self {
        let mut r = Reservoir {
            seen: items.len() as u64,
            items,
            ..Reservoir::default()
        };
        if cap > 0 && r.items.len() >= cap {
            r.w = 1.0;
            r.skip(cap, rng);
        }
        r
    }

    /// Algorithm L's step: `W *= U^(1/k)`, then the next kept item is
    /// `floor(ln U' / ln(1 - W)) + 1` items on.
    fn skip(&mut self, cap: usize, rng: &mut Xoshiro256PlusPlus) {
        let k = cap.max(1) as f64;
        self.w *= libm::exp(libm::log(unit_open(rng)) / k);
        let gap = libm::floor(libm::log(unit_open(rng)) / libm::log1p(-self.w));
        // A saturating cast: NaN or a negative gap keeps the very next item.
        self.next = self.seen.saturating_add(gap as u64).saturating_add(1);
    }

    /// Offer one item: `make` builds it when the reservoir is still filling, `set` writes it
    /// over the evicted item's storage when it is kept later (no allocation).
    #[inline]
    fn offer(
        &mut self,
        cap: usize,
        rng: &mut Xoshiro256PlusPlus,
        make: impl FnOnce() -> T,
        set: impl FnOnce(&mut T),
    ) {
        self.seen = self.seen.saturating_add(1);
        if cap == 0 {
            return;
        }
        if self.items.len() < cap {
            self.items.push(make());
            if self.items.len() == cap {
                self.w = 1.0;
                self.skip(cap, rng);
            }
            return;
        }
        if self.seen < self.next {
            return;
        }
        let j = rng.next_u64() % cap as u64;
        if let Some(slot) = usize::try_from(j).ok().and_then(|j| self.items.get_mut(j)) {
            set(slot);
        }
        self.skip(cap, rng);
    }
}

/// A split the simulation performed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitEvent {
    /// Write time of the write that triggered it, ms since the epoch.
    pub time_ms: i64,
    /// The split row, hex.
    pub split_key_hex: String,
    /// The split row, `toStringBinary`.
    pub split_key: String,
    /// The parent's size in bytes when it split.
    pub parent_bytes: u64,
    /// The size the policy compared against.
    pub size_to_check: i64,
    /// Regions of the table on the parent's server when it split.
    pub regions_on_server: u32,
    /// Regions in the table after the split.
    pub regions_after: usize,
}

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
    server_windows: Vec<u64>,
    server_rows: Vec<u64>,
    server_bytes: Vec<u64>,
    grid: Vec<u64>,
    sample: Reservoir<Vec<u8>>,
    rng: Xoshiro256PlusPlus,
    limits: Option<PolicyLimits>,
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
        let split_keys = crate::split::verify_split_keys(split_keys)?;
        let windows = usize::try_from(opts.windows).unwrap_or(1);
        let max_regions = opts.max_regions();
        if split_keys.len().saturating_add(1) > max_regions {
            return Err(invalid(
                "splitKeys",
                format!(
                    "{} regions x {} windows is more than {MAX_CELLS} cells: use fewer regions or windows",
                    split_keys.len().saturating_add(1),
                    opts.windows
                ),
            ));
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
            server_windows: vec![0; servers.saturating_mul(windows)],
            server_rows: vec![0; servers],
            server_bytes: vec![0; servers],
            grid: vec![
                0;
                usize::try_from(opts.grid_buckets)
                    .unwrap_or(1)
                    .saturating_mul(windows)
            ],
            sample: Reservoir::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(opts.seed),
            limits: opts.auto_split.as_ref().map(|a| a.config.limits(None)),
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
                .push(Region::new(start, k.clone(), windows, server));
            start = k.clone();
        }
        let server = a.place(split_keys.len());
        a.regions
            .push(Region::new(start, Vec::new(), windows, server));
        a.split_prefixes = split_keys.iter().map(|k| be_prefix(k)).collect();
        a.split_keys = split_keys;
        a.index_first2();
        Ok(a)
    }

    /// A server for the `i`-th region placed at creation, counted in `server_regions`.
    fn place(&mut self, i: usize) -> u32 {
        let n = self.server_regions.len().max(1);
        let s = match self.opts.assignment {
            Assignment::RoundRobin => i % n,
            Assignment::Balanced => self.least_loaded_server(),
        };
        if let Some(c) = self.server_regions.get_mut(s) {
            *c = c.saturating_add(1);
        }
        u32::try_from(s).unwrap_or(0)
    }

    fn least_loaded_server(&self) -> usize {
        let mut best = 0;
        let mut min = u32::MAX;
        for (i, c) in self.server_regions.iter().enumerate() {
            if *c < min {
                min = *c;
                best = i;
            }
        }
        best
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
    pub fn push(&mut self, key: &[u8], time_ms: i64, bytes: u64) {
        let w = self.window_of(time_ms);
        let r = self.region_of(key);
        let windows = self.windows;
        self.writes = self.writes.saturating_add(1);
        self.bytes = self.bytes.saturating_add(bytes);
        let k = usize::try_from(self.opts.region_sample_size).unwrap_or(2);
        let Some(reg) = self.regions.get_mut(r) else {
            return;
        };
        reg.rows = reg.rows.saturating_add(1);
        reg.bytes = reg.bytes.saturating_add(bytes);
        if let Some(c) = reg.windows.get_mut(w) {
            *c = c.saturating_add(1);
        }
        let w32 = u32::try_from(w).unwrap_or(0);
        reg.sample.offer(
            k,
            &mut self.rng,
            || (key.to_vec(), w32),
            |(kk, ww)| {
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
        let g = self.grid_bucket(key);
        if let Some(c) = self.grid.get_mut(g.saturating_mul(windows) + w) {
            *c = c.saturating_add(1);
        }
        let m = usize::try_from(self.opts.sample_size).unwrap_or(0);
        self.sample.offer(
            m,
            &mut self.rng,
            || key.to_vec(),
            |kk| {
                kk.clear();
                kk.extend_from_slice(key);
            },
        );
        if self.limits.is_some() {
            self.maybe_split(r, time_ms);
        }
    }

    /// Split region `r` when the policy says so.
    fn maybe_split(&mut self, r: usize, time_ms: i64) {
        let (Some(auto), Some(limits)) = (self.opts.auto_split.as_ref(), self.limits) else {
            return;
        };
        let Some(reg) = self.regions.get(r) else {
            return;
        };
        if reg.bytes < reg.next_check {
            return;
        }
        let on_server = self
            .server_regions
            .get(usize::try_from(reg.server).unwrap_or(0))
            .copied()
            .unwrap_or(1);
        let count = i32::try_from(on_server).unwrap_or(i32::MAX);
        let size = i64::try_from(reg.bytes).unwrap_or(i64::MAX);
        let limit = auto.policy.size_to_check(&limits, count);
        if matches!(auto.policy, policy::SplitPolicy::Disabled) || size <= limit {
            return;
        }
        // The policy wants a split: estimate the middle row from the reservoir.
        let mut keys: Vec<&Vec<u8>> = reg.sample.items.iter().map(|(k, _)| k).collect();
        keys.sort_unstable();
        let mid = keys.get(keys.len() / 2).map(|k| (*k).clone());
        let state = RegionState::with_stores(vec![StoreState {
            size,
            can_split: true,
            split_point: mid,
        }]);
        let point = auto.policy.check_split(
            &limits,
            &state,
            count,
            &self.opts.split_restriction,
            (&reg.start, &reg.end),
            false,
        );
        let point = point.filter(|p| policy::is_usable_split_row(&reg.start, &reg.end, p));
        let Some(point) = point else {
            self.backoff(r);
            return;
        };
        if self.regions.len() >= self.max_regions {
            self.split_limit_reached = true;
            if let Some(reg) = self.regions.get_mut(r) {
                reg.next_check = u64::MAX;
            }
            return;
        }
        let event = SplitEvent {
            time_ms,
            split_key_hex: to_hex(&point),
            split_key: to_string_binary(&point),
            parent_bytes: reg.bytes,
            size_to_check: limit,
            regions_on_server: on_server,
            regions_after: self.regions.len().saturating_add(1),
        };
        self.split_region(r, point, time_ms);
        self.splits.push(event);
    }

    fn backoff(&mut self, r: usize) {
        if let Some(reg) = self.regions.get_mut(r) {
            reg.next_check = reg.bytes.saturating_add((reg.bytes / 8).max(1));
        }
    }

    fn split_region(&mut self, r: usize, point: Vec<u8>, time_ms: i64) {
        if r >= self.regions.len() {
            return;
        }
        let parent = self.regions.remove(r);
        let windows = self.windows;
        let mut left_sample = Vec::new();
        let mut right_sample = Vec::new();
        let mut left_w = vec![0u64; windows];
        let mut total_w = vec![0u64; windows];
        for (k, w) in parent.sample.items {
            let wi = usize::try_from(w).unwrap_or(0);
            if let Some(t) = total_w.get_mut(wi) {
                *t += 1;
            }
            if k < point {
                if let Some(l) = left_w.get_mut(wi) {
                    *l += 1;
                }
                left_sample.push((k, w));
            } else {
                right_sample.push((k, w));
            }
        }
        let n = (left_sample.len() + right_sample.len()) as u64;
        let ln = left_sample.len() as u64;
        let share = |x: u64, num: u64, den: u64| -> u64 {
            if den == 0 {
                x / 2
            } else {
                u64::try_from(u128::from(x) * u128::from(num) / u128::from(den)).unwrap_or(x)
            }
        };
        let mut lwin = vec![0u64; windows];
        let mut rwin = vec![0u64; windows];
        for (i, c) in parent.windows.iter().enumerate() {
            let (num, den) = match (left_w.get(i), total_w.get(i)) {
                (Some(&l), Some(&t)) if t > 0 => (l, t),
                _ => (ln, n),
            };
            let l = share(*c, num, den);
            if let Some(x) = lwin.get_mut(i) {
                *x = l;
            }
            if let Some(x) = rwin.get_mut(i) {
                *x = c.saturating_sub(l);
            }
        }
        let lrows = share(parent.rows, ln, n);
        let lbytes = share(parent.bytes, ln, n);
        // The parent leaves its server; each daughter is placed by the assignment rule.
        let ps = usize::try_from(parent.server).unwrap_or(0);
        if let Some(c) = self.server_regions.get_mut(ps) {
            *c = c.saturating_sub(1);
        }
        let cap = usize::try_from(self.opts.region_sample_size).unwrap_or(2);
        let mut daughter = |start: Vec<u8>, end: Vec<u8>, rows, bytes, win, sample: Vec<_>| {
            let s = match self.opts.assignment {
                Assignment::RoundRobin => ps,
                Assignment::Balanced => self.least_loaded_server(),
            };
            if let Some(c) = self.server_regions.get_mut(s) {
                *c = c.saturating_add(1);
            }
            Region {
                start,
                end,
                rows,
                bytes,
                windows: win,
                created_at: Some(time_ms),
                server: u32::try_from(s).unwrap_or(0),
                sample: Reservoir::from_items(sample, cap, &mut self.rng),
                next_check: 0,
            }
        };
        let left = daughter(
            parent.start,
            point.clone(),
            lrows,
            lbytes,
            lwin,
            left_sample,
        );
        let right = daughter(
            point.clone(),
            parent.end,
            parent.rows.saturating_sub(lrows),
            parent.bytes.saturating_sub(lbytes),
            rwin,
            right_sample,
        );
        self.regions.insert(r, right);
        self.regions.insert(r, left);
        let at = r.min(self.split_keys.len());
        let q = be_prefix(&point);
        self.split_prefixes.insert(at, q);
        self.split_keys.insert(at, point);
        if self.first2.is_empty() {
            self.index_first2();
        } else {
            // One more split prefix below every h past its first two bytes.
            let h = (q >> 48) as usize;
            for c in self.first2.iter_mut().skip(h + 1) {
                *c = c.saturating_add(1);
            }
        }
    }

    /// Rebuild [`first2`](Self::first2) from the split prefixes (sorted).
    fn index_first2(&mut self) {
        self.first2.clear();
        if self.split_prefixes.len() < 16 || self.split_prefixes.len() > u32::MAX as usize {
            return;
        }
        self.first2.reserve(1 << 16 | 1);
        let mut below = 0usize;
        for h in 0..=(1u64 << 16) {
            while self
                .split_prefixes
                .get(below)
                .is_some_and(|&q| (q >> 48) < h)
            {
                below += 1;
            }
            self.first2.push(below as u32);
        }
    }

    /// The report: per region, per server, the matrices, the sample, metrics and diagnosis.
    pub fn finish(&self) -> AnalysisReport {
        let windows = self.windows;
        let mut cells = Vec::with_capacity(self.regions.len().saturating_mul(windows));
        let mut regions = Vec::with_capacity(self.regions.len());
        for (i, r) in self.regions.iter().enumerate() {
            cells.extend_from_slice(&r.windows);
            regions.push(RegionReport {
                index: i,
                start_key_hex: to_hex(&r.start),
                start_key: to_string_binary(&r.start),
                end_key_hex: to_hex(&r.end),
                end_key: to_string_binary(&r.end),
                rows: r.rows,
                bytes: r.bytes,
                writes: r.windows.iter().fold(0u64, |a, c| a.saturating_add(*c)),
                created_at_ms: r.created_at,
                server: r.server,
            });
        }
        let region_metrics = metrics::matrix_metrics(&cells, self.regions.len(), windows)
            .unwrap_or_else(|_| empty_matrix_metrics());
        let grid_rows = usize::try_from(self.opts.grid_buckets).unwrap_or(1);
        let grid_metrics = metrics::matrix_metrics(&self.grid, grid_rows, windows)
            .unwrap_or_else(|_| empty_matrix_metrics());
        let servers: Vec<ServerReport> = (0..self.server_regions.len())
            .map(|s| ServerReport {
                index: u32::try_from(s).unwrap_or(0),
                regions: self
                    .regions
                    .iter()
                    .filter(|r| r.server as usize == s)
                    .count(),
                rows: self.server_rows.get(s).copied().unwrap_or(0),
                bytes: self.server_bytes.get(s).copied().unwrap_or(0),
                writes_per_window: self
                    .server_windows
                    .get(s * windows..(s + 1) * windows)
                    .map(|c| c.iter().map(|x| sat32(*x)).collect())
                    .unwrap_or_default(),
            })
            .collect();
        let server_loads: Vec<u64> = servers.iter().map(|s| s.rows).collect();
        let mut sample: Vec<&Vec<u8>> = self.sample.items.iter().collect();
        sample.sort_unstable();
        let sample = sample
            .into_iter()
            .map(|k| SampleKey {
                key: k.clone(),
                region: self.region_of(k),
            })
            .collect();
        let matrix = Matrix {
            rows: self.regions.len(),
            cols: windows,
            cells: cells.iter().map(|c| sat32(*c)).collect(),
        };
        let grid = Matrix {
            rows: grid_rows,
            cols: windows,
            cells: self.grid.iter().map(|c| sat32(*c)).collect(),
        };
        let mut report = AnalysisReport {
            writes: self.writes,
            bytes: self.bytes,
            writes_outside_windows: self.outside,
            start_time_ms: self.opts.start_time_ms,
            window_ms: self.opts.window_ms,
            windows,
            regions,
            servers,
            matrix,
            grid,
            grid_buckets: self.opts.grid_buckets,
            sample,
            metrics: region_metrics,
            grid_metrics,
            server_metrics: metrics::load_metrics(&server_loads),
            splits: self.splits.clone(),
            split_limit_reached: self.split_limit_reached,
            diagnosis: Vec::new(),
        };
        report.diagnosis = diagnose(&report);
        report
    }
}

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

fn sat32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// The grid bucket of `key` among `buckets`: the first two bytes (missing = 0) as a number
/// in `0..65536`, times `buckets / 65536`.
pub fn grid_bucket(key: &[u8], buckets: u32) -> usize {
    let hi = u64::from(key.first().copied().unwrap_or(0));
    let lo = u64::from(key.get(1).copied().unwrap_or(0));
    let v = (hi << 8) | lo;
    usize::try_from((v * u64::from(buckets.max(1))) >> 16).unwrap_or(0)
}

fn empty_matrix_metrics() -> MatrixMetrics {
    MatrixMetrics {
        regions: 0,
        windows: 0,
        per_window: Vec::new(),
        overall: metrics::load_metrics(&[]),
        loaded_windows: 0,
        mean_active_regions: 0.0,
        mean_hotspot_factor: 0.0,
        max_hotspot_factor: 0.0,
        mean_effective_parallelism: 0.0,
        min_effective_parallelism: 0.0,
    }
}

/// A row-major matrix of write counts (`cells[row * cols + col]`, saturating at `u32::MAX`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// Number of rows (regions or grid buckets, in key order).
    pub rows: usize,
    /// Number of columns (time windows).
    pub cols: usize,
    /// The counts, row-major.
    pub cells: Vec<u32>,
}

impl Matrix {
    /// The cell at `row`, `col`, `None` out of range.
    pub fn get(&self, row: usize, col: usize) -> Option<u32> {
        if col >= self.cols {
            return None;
        }
        self.cells
            .get(row.checked_mul(self.cols)?.checked_add(col)?)
            .copied()
    }

    /// One row.
    pub fn row(&self, row: usize) -> Option<&[u32]> {
        let a = row.checked_mul(self.cols)?;
        self.cells.get(a..a.checked_add(self.cols)?)
    }
}

/// One final region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionReport {
    /// Position in key order; also the region's row in [`AnalysisReport::matrix`] (its writes
    /// per window).
    pub index: usize,
    /// Start key, hex (empty: start of table).
    pub start_key_hex: String,
    /// Start key, `toStringBinary`.
    pub start_key: String,
    /// End key, hex (empty: end of table).
    pub end_key_hex: String,
    /// End key, `toStringBinary`.
    pub end_key: String,
    /// Rows written into this key range.
    pub rows: u64,
    /// Bytes written into this key range.
    pub bytes: u64,
    /// Writes (the sum of its matrix row).
    pub writes: u64,
    /// When a split created it (ms since the epoch); `None` for initial regions.
    pub created_at_ms: Option<i64>,
    /// Its region server.
    pub server: u32,
}

/// One region server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerReport {
    /// Server index.
    pub index: u32,
    /// Regions it holds at the end.
    pub regions: usize,
    /// Rows it received.
    pub rows: u64,
    /// Bytes it received.
    pub bytes: u64,
    /// Writes it received per window.
    pub writes_per_window: Vec<u32>,
}

/// A sampled row key and the final region holding it. The key stays bytes: its text forms
/// are written only when the report is serialized (`{keyHex, key, region}`, `key` being
/// `toStringBinary`), so the wasm binding, which hands the bytes over as typed arrays,
/// neither renders nor parses up to 100,000 keys.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "SampleKeyText")]
pub struct SampleKey {
    /// The row key.
    pub key: Vec<u8>,
    /// Index of its final region.
    pub region: usize,
}

impl Serialize for SampleKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("SampleKey", 3)?;
        st.serialize_field("keyHex", &to_hex(&self.key))?;
        st.serialize_field("key", &to_string_binary(&self.key))?;
        st.serialize_field("region", &self.region)?;
        st.end()
    }
}

/// The serialized form of [`SampleKey`]; `keyHex` is the truth, `key` is its rendering.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SampleKeyText {
    key_hex: String,
    region: usize,
}

impl TryFrom<SampleKeyText> for SampleKey {
    type Error = Error;
    fn try_from(t: SampleKeyText) -> Result<Self> {
        Ok(SampleKey {
            key: crate::bytes::from_hex(&t.key_hex)?,
            region: t.region,
        })
    }
}

/// Everything the analysis found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisReport {
    /// Writes counted.
    pub writes: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Writes whose time fell outside the window axis (counted in the first or last window).
    pub writes_outside_windows: u64,
    /// Start of window 0, ms since the epoch.
    pub start_time_ms: i64,
    /// Window width in ms.
    pub window_ms: i64,
    /// Number of windows.
    pub windows: usize,
    /// The final regions in key order.
    pub regions: Vec<RegionReport>,
    /// The region servers.
    pub servers: Vec<ServerReport>,
    /// Writes per final region (rows) and window (columns).
    pub matrix: Matrix,
    /// Writes per key-space grid bucket (rows) and window: comparable across designs.
    pub grid: Matrix,
    /// Number of grid buckets (the first two key bytes cut into equal ranges).
    pub grid_buckets: u32,
    /// A uniform sample of the written keys, sorted, with their final region.
    pub sample: Vec<SampleKey>,
    /// Skew metrics of the region matrix, per window and overall.
    pub metrics: MatrixMetrics,
    /// Skew metrics of the grid matrix.
    pub grid_metrics: MatrixMetrics,
    /// Skew of the rows per server.
    pub server_metrics: LoadMetrics,
    /// The splits, in time order.
    pub splits: Vec<SplitEvent>,
    /// True when auto-split stopped because the matrix would exceed [`MAX_CELLS`].
    pub split_limit_reached: bool,
    /// Plain-language findings.
    pub diagnosis: Vec<String>,
}

/// Plain-language findings from a report: hot regions, sequential keys, empty regions.
pub fn diagnose(r: &AnalysisReport) -> Vec<String> {
    let mut out = Vec::new();
    let m = &r.metrics;
    let n = r.regions.len();
    if r.writes == 0 {
        out.push("no writes were analyzed".to_string());
        return out;
    }
    let loaded: Vec<&LoadMetrics> = m.per_window.iter().filter(|w| w.total > 0).collect();
    let min_share = loaded
        .iter()
        .map(|w| w.busiest_share)
        .fold(f64::INFINITY, f64::min);
    // A hot spot that moves with time: the totals may still even out over the run.
    let moving = n > 1
        && !loaded.is_empty()
        && (min_share >= 0.9 || (m.mean_active_regions > 0.0 && m.mean_active_regions < 1.5));
    if n > 1 && !loaded.is_empty() && min_share >= 0.9 {
        out.push(format!(
            "one region takes {:.0} % or more of the writes in every time window: the key \
             leads with something that grows with time (a timestamp or sequence), so {} of {n} \
             regions idle while one is hot. Put a salt or hash bucket, or a high-cardinality \
             field, in front",
            min_share * 100.0,
            n - 1
        ));
    } else if n > 1 && m.mean_active_regions > 0.0 && m.mean_active_regions < 1.5 {
        out.push(format!(
            "on average only {:.1} of {n} regions take writes in a time window: writes move \
             through the key space one region at a time",
            m.mean_active_regions
        ));
    }
    if n > 1 && m.overall.hotspot_factor >= 2.0 {
        out.push(format!(
            "the busiest region takes {:.1} x the mean load ({:.0} % of all writes)",
            m.overall.hotspot_factor,
            m.overall.busiest_share * 100.0
        ));
    }
    if n > 1 && m.overall.empty_regions > 0 {
        out.push(format!(
            "{} of {n} regions received no writes: their key ranges hold no keys of this \
             design (for example `Bytes.split` over hex text leaves the ranges between '9' \
             and 'a' and above 'f' empty)",
            m.overall.empty_regions
        ));
    }
    if n > 1 && m.overall.hotspot_factor < 1.5 && m.overall.empty_regions == 0 {
        out.push(if moving {
            format!(
                "the totals even out over the whole run (effective parallelism {:.1} of {n} \
                 regions), but not at any one time: each region is hot in its turn",
                m.overall.effective_parallelism
            )
        } else {
            format!(
                "writes are spread evenly: effective parallelism {:.1} of {n} regions",
                m.overall.effective_parallelism
            )
        });
    }
    if !r.splits.is_empty() {
        out.push(format!(
            "auto-split created {} regions from {} splits",
            n,
            r.splits.len()
        ));
    }
    if r.split_limit_reached {
        out.push(format!(
            "auto-split stopped at {n} regions: more would exceed {MAX_CELLS} matrix cells"
        ));
    }
    out
}

/// Options of a whole-document analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AnalyzeOptions {
    /// Number of time windows over the workload's duration.
    pub windows: u32,
    /// Size of the sorted key sample.
    pub sample_size: u32,
    /// Keys per region reservoir (auto-split middle key).
    pub region_sample_size: u32,
    /// Key-space grid buckets.
    pub grid_buckets: u32,
    /// Records read ahead to compute `sampleQuantiles` pre-splits without an inline sample.
    pub presplit_sample: u32,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            windows: 64,
            sample_size: 1000,
            region_sample_size: 128,
            grid_buckets: 256,
            presplit_sample: 10_000,
        }
    }
}

/// Turns one record into its row key (written into the buffer, which arrives cleared).
pub type KeyEncoder = Box<dyn FnMut(&Record, &mut Vec<u8>) -> Result<()>>;

/// Progress of an [`AnalysisRun`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Records analyzed so far.
    pub done: u64,
    /// Records in the workload.
    pub total: u64,
    /// Regions now.
    pub regions: usize,
    /// True when every record is analyzed.
    pub finished: bool,
}

/// A chunked analysis of a design document: call [`AnalysisRun::step`] until finished (a
/// caller can stop at any step to cancel), then [`AnalysisRun::finish`].
pub struct AnalysisRun {
    stream: WorkloadStream,
    keys: Keys,
    analyzer: Analyzer,
    key: Vec<u8>,
    batch: Batch,
    value_size: u64,
    done: u64,
    total: u64,
    /// Fed records ([`AnalysisRun::feed`]) instead of generated ones.
    fed: bool,
}

impl std::fmt::Debug for AnalysisRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisRun")
            .field("done", &self.done)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

/// The analyzer options for `doc`'s workload and layout.
pub fn analyzer_options(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalyzerOptions> {
    let spec = doc.workload.clone().unwrap_or_default();
    spec.validate()?;
    let end = spec.end_time().unwrap_or(spec.start_time);
    let span = i128::from(end) - i128::from(spec.start_time);
    // `max(1)` only keeps the division defined: `validate` below refuses 0 windows by name.
    let windows = opts.windows;
    let width = (span + i128::from(windows.max(1)) - 1) / i128::from(windows.max(1));
    let layout = doc.regions.clone().unwrap_or_default();
    let o = AnalyzerOptions {
        start_time_ms: spec.start_time,
        window_ms: i64::try_from(width.max(1)).unwrap_or(i64::MAX),
        windows,
        sample_size: opts.sample_size,
        region_sample_size: opts.region_sample_size,
        grid_buckets: opts.grid_buckets,
        auto_split: layout.auto_split.clone(),
        split_restriction: SplitRestriction::None,
        region_servers: layout.region_servers,
        assignment: layout.assignment,
        seed: spec.seed,
    };
    o.validate()?;
    Ok(o)
}

/// Where an [`AnalysisRun`]'s row keys come from.
enum Keys {
    /// A caller's encoder over generated [`Record`]s.
    Encoder { encoder: KeyEncoder, record: Record },
    /// The document's own key design, fed the generated values directly.
    Design(Box<DesignKeys>),
}

impl Keys {
    /// Generate the next record, write its row key into `out` (cleared first) and return its
    /// index and write time; `None` when the stream is done.
    fn next(
        &mut self,
        stream: &mut WorkloadStream,
        out: &mut Vec<u8>,
    ) -> Result<Option<(u64, i64)>> {
        match self {
            Keys::Encoder { encoder, record } => {
                if !stream.next_into(record) {
                    return Ok(None);
                }
                out.clear();
                encoder(record, out).map_err(|e| record_err(record.index, e))?;
                Ok(Some((record.index, record.time_ms)))
            }
            Keys::Design(d) => d.next(stream, out),
        }
    }
}

fn record_err(index: u64, e: Error) -> Error {
    let msg = format!("record {index}: {}", e.message);
    Error { message: msg, ..e }
}

/// The document's compiled key over the generator's values: the workload writes straight
/// into the encoder's value type (no per-record conversion or copy), reusing its buffers.
struct DesignKeys {
    key: crate::keyspec::CompiledKey,
    decls: Vec<crate::design::FieldDecl>,
    values: Vec<crate::keyspec::FieldValue>,
    /// bigDecimal fields: generated as text, parsed for the encoder.
    decimals: Vec<usize>,
}

impl DesignKeys {
    fn new(doc: &DesignDocument) -> Result<DesignKeys> {
        let key = compile_key(doc)?;
        let decimals = doc
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.field_type == crate::design::FieldType::BigDecimal)
            .map(|(i, _)| i)
            .collect();
        Ok(DesignKeys {
            key,
            decls: doc.fields.clone(),
            values: Vec::with_capacity(doc.fields.len()),
            decimals,
        })
    }

    /// The next record's values (bigDecimal text parsed); `None` when the stream is done.
    fn values(&mut self, stream: &mut WorkloadStream) -> Result<Option<(u64, i64)>> {
        let Some((index, time_ms)) = stream.next_values(&mut self.values) else {
            return Ok(None);
        };
        for &i in &self.decimals {
            if let (Some(slot), Some(decl)) = (self.values.get_mut(i), self.decls.get(i)) {
                if let crate::keyspec::FieldValue::Str(s) = slot {
                    let text = serde_json::Value::String(std::mem::take(s));
                    *slot = crate::keyspec::FieldValue::from_json(decl, &text)
                        .map_err(|e| record_err(index, e))?;
                }
            }
        }
        Ok(Some((index, time_ms)))
    }

    fn next(
        &mut self,
        stream: &mut WorkloadStream,
        out: &mut Vec<u8>,
    ) -> Result<Option<(u64, i64)>> {
        let Some((index, time_ms)) = self.values(stream)? else {
            return Ok(None);
        };
        out.clear();
        self.key
            .encode_values_into(out, &self.values)
            .map_err(|e| record_err(index, e))?;
        Ok(Some((index, time_ms)))
    }

    /// Up to `max` records' keys into `batch` (cleared first), in stream order, with their
    /// MD5 buckets filled in two at a time. An error (generating or encoding record `k`)
    /// stops the batch: the records before `k` are in it, none after, and the error is
    /// returned with them, exactly the one [`next`](Self::next) gives for record `k`.
    fn next_batch(
        &mut self,
        stream: &mut WorkloadStream,
        batch: &mut Batch,
        max: usize,
    ) -> Option<Error> {
        batch.clear();
        let mut err = None;
        while batch.times.len() < max {
            let (index, time_ms) = match self.values(stream) {
                Ok(Some(x)) => x,
                Ok(None) => break,
                Err(e) => {
                    err = Some(e);
                    break;
                }
            };
            match self
                .key
                .encode_values_deferred(&mut batch.keys, &self.values)
            {
                Ok(Some(hole)) => batch.holes.push(hole),
                Ok(None) => {}
                Err(e) => {
                    err = Some(record_err(index, e));
                    break;
                }
            }
            batch.ends.push(batch.keys.len());
            batch.times.push(time_ms);
        }
        if let Err(e) = self.key.fill_holes(&mut batch.keys, &batch.holes) {
            // Unreachable (a deferred bucket always renders); report it rather than count
            // keys with a hole.
            batch.clear();
            return Some(e);
        }
        err
    }
}

/// Records per batch of [`AnalysisRun::step`] over the document's own key design.
const BATCH: usize = 64;

/// A batch of row keys, one after the other in `keys` (key `i` ends at `ends[i]`), their
/// write times, and the MD5 buckets still to fill in.
#[derive(Debug, Default)]
struct Batch {
    keys: Vec<u8>,
    ends: Vec<usize>,
    times: Vec<i64>,
    holes: Vec<crate::keyspec::Hole>,
}

impl Batch {
    fn clear(&mut self) {
        self.keys.clear();
        self.ends.clear();
        self.times.clear();
        self.holes.clear();
    }
}

impl AnalysisRun {
    /// A run of `doc`'s workload (default workload when absent) through `encoder` into an
    /// analyzer over `doc`'s region layout.
    pub fn with_encoder(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        encoder: KeyEncoder,
    ) -> Result<AnalysisRun> {
        AnalysisRun::with_keys(
            doc,
            opts,
            Keys::Encoder {
                encoder,
                record: Record::default(),
            },
        )
    }

    fn with_keys(
        doc: &DesignDocument,
        opts: &AnalyzeOptions,
        mut keys: Keys,
    ) -> Result<AnalysisRun> {
        doc.validate()?;
        let spec: WorkloadSpec = doc.workload.clone().unwrap_or_default();
        let aopts = analyzer_options(doc, opts)?;
        let layout = doc.regions.clone().unwrap_or_default();
        layout.validate()?;
        let mut sample = Vec::new();
        if layout.presplit.needs_sample() {
            let mut s = WorkloadStream::new(&spec, &doc.fields)?;
            let mut n = 0u32;
            let mut k = Vec::new();
            while n < opts.presplit_sample && keys.next(&mut s, &mut k)?.is_some() {
                sample.push(k.clone());
                n += 1;
            }
        }
        let split_keys = layout.split_keys(&sample)?;
        let analyzer = Analyzer::new(split_keys, aopts)?;
        let stream = WorkloadStream::new(&spec, &doc.fields)?;
        Ok(AnalysisRun {
            total: spec.records,
            value_size: spec.value_size,
            stream,
            keys,
            analyzer,
            key: Vec::new(),
            batch: Batch::default(),
            done: 0,
            fed: false,
        })
    }

    /// Count `records` (field name to JSON value, as [`crate::keyspec::encode`] takes them) as
    /// the run's next writes, in the order given, instead of the generated workload: a team's
    /// own rows. The `n`-th record of the run is written at the workload's clock,
    /// `startTime + n * 1000 / writeRate` ms, so feed them in write order. The run then counts
    /// only what it is fed ([`Progress::total`] is the number fed), and [`step`](Self::step)
    /// refuses to mix in generated records. A pre-split computed from a sample
    /// (`sampleQuantiles`) still comes from the generated workload. A bad record stops the
    /// chunk with an error located at `records[i]` (`records[i].field` when a field is at
    /// fault); the records before it stay counted.
    pub fn feed(&mut self, records: &[Map<String, Value>]) -> Result<Progress> {
        let Keys::Design(d) = &mut self.keys else {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "only a design's own key can be fed records",
            ));
        };
        if !self.fed && self.done > 0 {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "this run has analyzed generated records; feed records to a new run",
            ));
        }
        self.fed = true;
        for (i, r) in records.iter().enumerate() {
            self.key.clear();
            d.key.encode_json_into(&mut self.key, r).map_err(|e| {
                // The location names the record: `records[i]`, then the field in it.
                let path = match e.location.path.as_deref() {
                    Some(p) => format!("records[{i}].{p}"),
                    None => format!("records[{i}]"),
                };
                e.at_path(path)
            })?;
            let time_ms = self.stream.time_of(self.done);
            let bytes = (self.key.len() as u64).saturating_add(self.value_size);
            self.analyzer.push(&self.key, time_ms, bytes);
            self.done += 1;
            self.total = self.done;
        }
        Ok(self.progress())
    }

    /// Analyze up to `max_records` more records.
    pub fn step(&mut self, max_records: u64) -> Result<Progress> {
        if self.fed {
            return Err(Error::new(
                ErrorKind::IllegalState,
                "this run is fed records (feed); it generates none",
            ));
        }
        // In batches when the key has an MD5 bucket to fill in later: generate and encode up
        // to BATCH records, fill their buckets two at a time, then count them, in the same
        // order as one at a time. Other keys gain nothing from batches natively (120 -> 126 ns
        // per record for the telecom String.hashCode key), but about 3 % in the Node wasm,
        // where generating, encoding and counting in separate loops suits V8 better.
        let Keys::Design(d) = &mut self.keys else {
            return self.step_one_by_one(max_records);
        };
        if !d.key.defers_md5() && !cfg!(all(target_arch = "wasm32", not(lean))) {
            return self.step_one_by_one(max_records);
        }
        let mut n = 0u64;
        while n < max_records {
            let want = usize::try_from(max_records - n).map_or(BATCH, |r| r.min(BATCH));
            let err = d.next_batch(&mut self.stream, &mut self.batch, want);
            let b = &self.batch;
            let mut start = 0;
            for (&end, &time_ms) in b.ends.iter().zip(&b.times) {
                let key = b.keys.get(start..end).unwrap_or(&[]);
                let bytes = (key.len() as u64).saturating_add(self.value_size);
                self.analyzer.push(key, time_ms, bytes);
                start = end;
            }
            let got = b.times.len();
            n += got as u64;
            self.done += got as u64;
            if let Some(e) = err {
                return Err(e);
            }
            if got < want {
                break;
            }
        }
        Ok(self.progress())
    }

    /// [`step`](Self::step) one record at a time.
    fn step_one_by_one(&mut self, max_records: u64) -> Result<Progress> {
        let mut n = 0u64;
        while n < max_records {
            let Some((_, time_ms)) = self.keys.next(&mut self.stream, &mut self.key)? else {
                break;
            };
            let bytes = (self.key.len() as u64).saturating_add(self.value_size);
            self.analyzer.push(&self.key, time_ms, bytes);
            n += 1;
            self.done += 1;
        }
        Ok(self.progress())
    }

    /// Where the run is.
    pub fn progress(&self) -> Progress {
        Progress {
            done: self.done,
            total: self.total,
            regions: self.analyzer.region_count(),
            finished: self.done >= self.total,
        }
    }

    /// The analyzer (for partial results).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The report over the records analyzed so far.
    pub fn finish(&self) -> AnalysisReport {
        self.analyzer.finish()
    }
}

/// Run the whole of `doc`'s workload through `encoder` and report.
pub fn analyze_with_encoder(
    doc: &DesignDocument,
    opts: &AnalyzeOptions,
    encoder: KeyEncoder,
) -> Result<AnalysisReport> {
    let mut run = AnalysisRun::with_encoder(doc, opts, encoder)?;
    loop {
        if run.step(1 << 16)?.finished {
            return Ok(run.finish());
        }
    }
}

/// One design's column in a [`Comparison`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedDesign {
    /// The design's name (or `design N`).
    pub name: String,
    /// Final region count.
    pub regions: usize,
    /// Region-matrix metrics.
    pub metrics: MatrixMetrics,
    /// Grid-matrix metrics (same grid for every design).
    pub grid_metrics: MatrixMetrics,
    /// The grid matrix, cell-comparable across designs.
    pub grid: Matrix,
    /// Findings.
    pub diagnosis: Vec<String>,
}

/// Two to four designs analyzed over one workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Grid buckets shared by every design.
    pub grid_buckets: u32,
    /// Windows shared by every design.
    pub windows: usize,
    /// One entry per design, in the given order.
    pub designs: Vec<ComparedDesign>,
}

/// Run the first document's workload through 2–4 designs (each with its own encoder and
/// layout) and put the metrics side by side on the same grid.
pub fn compare_with_encoders(
    docs: &[DesignDocument],
    opts: &AnalyzeOptions,
    mut encoder_for: impl FnMut(&DesignDocument) -> Result<KeyEncoder>,
) -> Result<Comparison> {
    if docs.len() < 2 || docs.len() > 4 {
        return Err(invalid(
            "designs",
            format!("compare takes 2 to 4 designs, not {}", docs.len()),
        ));
    }
    let workload = docs.first().and_then(|d| d.workload.clone());
    let mut designs = Vec::with_capacity(docs.len());
    for (i, d) in docs.iter().enumerate() {
        let mut d = d.clone();
        if workload.is_some() {
            d.workload = workload.clone();
        }
        let enc = encoder_for(&d).map_err(|e| {
            let p = e.location.path.clone().unwrap_or_default();
            e.at_path(format!("/designs/{i}{p}"))
        })?;
        let r = analyze_with_encoder(&d, opts, enc)?;
        designs.push(ComparedDesign {
            name: d
                .name
                .clone()
                .unwrap_or_else(|| format!("design {}", i + 1)),
            regions: r.regions.len(),
            metrics: r.metrics,
            grid_metrics: r.grid_metrics,
            grid: r.grid,
            diagnosis: r.diagnosis,
        });
    }
    Ok(Comparison {
        grid_buckets: opts.grid_buckets,
        windows: usize::try_from(opts.windows).unwrap_or(0),
        designs,
    })
}

/// The document's key design compiled as a [`KeyEncoder`] over generated records.
pub fn document_encoder(doc: &DesignDocument) -> Result<KeyEncoder> {
    let mut key = compile_key(doc)?;
    let decls = doc.fields.clone();
    let mut values: Vec<crate::keyspec::FieldValue> = Vec::with_capacity(decls.len());
    Ok(Box::new(move |rec: &Record, out: &mut Vec<u8>| {
        // Reuse the previous record's string buffers: no allocation per record.
        values.truncate(rec.values.len());
        for (i, (decl, v)) in decls.iter().zip(&rec.values).enumerate() {
            match (values.get_mut(i), v) {
                (
                    Some(crate::keyspec::FieldValue::Str(buf)),
                    crate::workload::FieldValue::Str(s),
                ) if decl.field_type != crate::design::FieldType::BigDecimal => {
                    buf.clear();
                    buf.push_str(s);
                }
                (Some(slot), _) => *slot = convert_value(decl, v)?,
                (None, _) => values.push(convert_value(decl, v)?),
            }
        }
        key.encode_values_into(out, &values)
    }))
}

/// The document's key design compiled against its fields (errors point into `/key`).
fn compile_key(doc: &DesignDocument) -> Result<crate::keyspec::CompiledKey> {
    crate::keyspec::CompiledKey::new(&doc.key, &doc.fields).map_err(|e| {
        match e.location.path.clone() {
            Some(p) if !p.starts_with('/') => e.at_path(format!("/key/{p}")),
            _ => e,
        }
    })
}

/// A generated value as the key encoder's value type.
fn convert_value(
    decl: &crate::design::FieldDecl,
    v: &crate::workload::FieldValue,
) -> Result<crate::keyspec::FieldValue> {
    use crate::keyspec::FieldValue as K;
    use crate::workload::FieldValue as W;
    Ok(match v {
        W::Str(s) if decl.field_type == crate::design::FieldType::BigDecimal => {
            K::from_json(decl, &serde_json::Value::String(s.clone()))?
        }
        W::Str(s) => K::Str(s.clone()),
        W::Long(x) => K::Long(*x),
        W::Double(x) => K::Double(*x),
        W::Bool(b) => K::Bool(*b),
    })
}

impl AnalysisRun {
    /// A run of `doc`'s workload through its own key design and region layout.
    pub fn new(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalysisRun> {
        AnalysisRun::with_keys(doc, opts, Keys::Design(Box::new(DesignKeys::new(doc)?)))
    }
}

/// Analyze `doc`: its workload, encoded with its key design, over its region layout.
pub fn analyze(doc: &DesignDocument, opts: &AnalyzeOptions) -> Result<AnalysisReport> {
    let mut run = AnalysisRun::new(doc, opts)?;
    loop {
        if run.step(1 << 16)?.finished {
            return Ok(run.finish());
        }
    }
}

/// Run the first document's workload through 2–4 designs and compare them on one grid.
pub fn compare(docs: &[DesignDocument], opts: &AnalyzeOptions) -> Result<Comparison> {
    compare_with_encoders(docs, opts, document_encoder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytewise_prefix_matches_be_prefix() {
        let bytes: Vec<u8> = (0..12u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(0xF0))
            .collect();
        for len in 0..=bytes.len() {
            let key = bytes.get(..len).unwrap_or(&[]);
            assert_eq!(be_prefix_bytewise(key), be_prefix(key), "length {len}");
        }
        assert_eq!(be_prefix_bytewise(&[0xFF; 9]), u64::MAX);
    }

    #[test]
    fn region_lookup_matches_the_plain_binary_search() {
        // Keys sharing 8-byte prefixes, prefixes of each other, and short keys.
        let mut keys: Vec<Vec<u8>> = vec![
            b"a".to_vec(),
            b"abcdefgh".to_vec(),
            b"abcdefgh\x00".to_vec(),
            b"abcdefghij".to_vec(),
            b"abcdefgi".to_vec(),
            b"b\x00\x00".to_vec(),
            b"b\x00\x00\x00\x00\x00\x00\x00\x00".to_vec(),
            vec![0xff; 12],
        ];
        keys.sort();
        check_region_lookup(&keys);
        // With 16 or more split keys the search starts from the first-two-bytes index:
        // salt-like keys, keys sharing two bytes, one-byte keys and 0xff.. keys.
        let mut many = keys.clone();
        for i in 0..64u32 {
            many.push(format!("{i:02}").into_bytes());
            many.push(format!("{i:02}_5").into_bytes());
        }
        many.extend([
            b"\x00".to_vec(),
            b"\x00\x00".to_vec(),
            b"\x00\x01".to_vec(),
            b"ab".to_vec(),
            b"ab\x00".to_vec(),
            b"abc".to_vec(),
            vec![0xff],
            vec![0xff, 0xff],
            vec![0xff, 0xff, 0x00],
        ]);
        many.sort();
        many.dedup();
        check_region_lookup(&many);
    }

    #[test]
    fn region_lookup_index_follows_auto_splits() {
        use crate::layout::AutoSplit;
        use crate::policy::{SplitConfig, SplitPolicy};
        let o = AnalyzerOptions {
            start_time_ms: 0,
            window_ms: 1000,
            windows: 4,
            auto_split: Some(AutoSplit {
                policy: SplitPolicy::ConstantSize,
                config: SplitConfig {
                    max_file_size: 1 << 16,
                    memstore_flush_size: 1 << 12,
                    jitter: 0.0,
                    ..SplitConfig::default()
                },
            }),
            ..AnalyzerOptions::default()
        };
        let mut a = Analyzer::new(vec![], o).unwrap_or_else(|e| unreachable!("{e:?}"));
        let mut x = 7u64;
        let mut rows = Vec::new();
        for i in 0..20_000u64 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Two-byte prefixes shared by many keys, and some short keys.
            let key = match i % 3 {
                0 => format!("{:02}_{:016x}", (x >> 58) % 40, x).into_bytes(),
                1 => format!("{:016x}", x).into_bytes(),
                _ => vec![(x >> 56) as u8, (x >> 48) as u8],
            };
            a.push(&key, (i / 100) as i64, 1000);
            if i % 97 == 0 {
                rows.push(key);
            }
            if i % 1000 == 999 {
                if !a.first2.is_empty() {
                    assert_eq!(a.first2.len(), (1 << 16) + 1);
                }
                for r in &rows {
                    let exact = a
                        .split_keys
                        .partition_point(|k| k.as_slice() <= r.as_slice());
                    assert_eq!(a.region_of(r), exact, "{r:?} after {i}");
                }
            }
        }
        assert!(a.split_keys.len() >= 16, "{}", a.split_keys.len());
        assert!(!a.first2.is_empty());
    }

    fn check_region_lookup(keys: &[Vec<u8>]) {
        let a = Analyzer::new(keys.to_vec(), AnalyzerOptions::default()).unwrap_or_else(|e| {
            unreachable!("{e:?}");
        });
        assert_eq!(a.first2.is_empty(), keys.len() < 16);
        let mut rows: Vec<Vec<u8>> = keys.to_vec();
        for k in keys {
            let mut longer = k.clone();
            longer.push(0);
            rows.push(longer.clone());
            longer.push(0xff);
            rows.push(longer);
            rows.push(k.get(..k.len() - 1).unwrap_or(&[]).to_vec());
            let mut bumped = k.clone();
            if let Some(last) = bumped.last_mut() {
                *last = last.wrapping_add(1);
            }
            rows.push(bumped);
        }
        rows.extend([
            vec![],
            vec![0],
            b"abcdefgh\x01".to_vec(),
            vec![0xff; 20],
            b"b".to_vec(),
            b"05_13412341234_20210907".to_vec(),
        ]);
        for r in &rows {
            assert_eq!(
                a.region_of(r),
                keys.partition_point(|k| k.as_slice() <= r.as_slice()),
                "{r:?}"
            );
        }
    }

    #[test]
    fn algorithm_l_samples_uniformly() {
        // 2000 runs of a 100-item stream into a 10-item reservoir: each item is kept with
        // probability 1/10, so about 200 times (binomial sd 13.4; 6 sd = 80).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut hits = [0u32; 100];
        for _ in 0..2000 {
            let mut r: Reservoir<usize> = Reservoir::default();
            for i in 0..100usize {
                r.offer(10, &mut rng, || i, |s| *s = i);
            }
            assert_eq!(r.items.len(), 10);
            for &i in &r.items {
                hits[i] += 1;
            }
        }
        for (i, h) in hits.iter().enumerate() {
            assert!((120..=280).contains(h), "item {i}: {h}");
        }
        // Early, middle and late thirds of the stream equally represented (each ~6667).
        let third = |a: usize, b: usize| hits[a..b].iter().sum::<u32>() as f64 / (b - a) as f64;
        for t in [third(0, 33), third(33, 66), third(66, 100)] {
            assert!((t - 200.0).abs() < 15.0, "{t}");
        }
    }
}
