//! Rows and cells in fixed memory: distinct counts (HyperLogLog) and a sample of distinct
//! cells with their exact write counts (for the versions a cell keeps); the largest rows are
//! `largest.rs`'s. Every sketch is fed one seedless xxh3 hash per row key, so the
//! same writes give the same figures natively and in wasm. Each sketch merges with another of
//! its kind (see `blocks.rs`): the HyperLogLogs and the cell sample exactly as if one sketch
//! had seen both streams, the largest rows as filtered space-saving's summaries merge.

use serde::{Deserialize, Serialize};

/// The hash of a row key every sketch shares.
#[inline]
pub(super) fn row_hash(key: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(key)
}

/// The hash of a cell: its row's hash and its qualifier's, mixed (splitmix64's finalizer).
#[inline]
pub(super) fn cell_hash(row: u64, qualifier: u64) -> u64 {
    let mut x = row ^ qualifier.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Register-index bits of a region's sketch: 256 registers (256 bytes), relative standard
/// error 1.04 / √256 = 6.5 %. Small on purpose: 64 regions of 1 KiB registers fell out of
/// the first-level cache (+6 % per record on the telecom benchmark).
pub(super) const REGION_PRECISION: u8 = 8;
/// Register-index bits of the whole table's sketch: 16,384 registers (16 KiB), 0.81 %.
pub(super) const TABLE_PRECISION: u8 = 14;

/// HyperLogLog's relative standard error with `2^precision` registers: `1.04 / √m`.
pub(crate) fn relative_error(precision: u8) -> f64 {
    1.04 / libm::sqrt(f64::from(1u32 << precision))
}

/// Standard errors in the bound a reported estimate carries: 99.7 % of HyperLogLog's estimates
/// fall within three (its error is close to normal at these register counts), so the bound
/// printed beside a figure holds, where one standard error is missed a third of the time.
pub(crate) const BOUND_ERRORS: f64 = 3.0;

/// The relative bound of a distinct count estimated with `2^precision` registers:
/// [`BOUND_ERRORS`] × `1.04 / √m` (2.4 % for the table, 19.5 % for a region).
pub(crate) fn relative_bound(precision: u8) -> f64 {
    BOUND_ERRORS * relative_error(precision)
}

/// The register a hash picks and the rank it offers it.
#[inline(always)]
fn hll_slot(registers: usize, hash: u64) -> (usize, u8) {
    let p = registers.trailing_zeros();
    if p == 0 || p >= 64 {
        return (usize::MAX, 0);
    }
    let index = (hash >> (64 - p)) as usize;
    // The rest of the hash, with a stop bit so the count ends at 64 - p + 1.
    let rest = (hash << p) | (1u64 << (p - 1));
    (index, (rest.leading_zeros() + 1) as u8)
}

/// The estimate: the harmonic mean of `2^register`, bias-corrected, or linear counting
/// (`m ln(m / empty registers)`) while it is below `2.5 m` and some register is empty (0 for
/// registers never written). A 64-bit hash needs no large-range correction.
fn hll_estimate(registers: &[u8]) -> f64 {
    let m = registers.len() as f64;
    let mut sum = 0.0;
    let mut zeros = 0usize;
    for &r in registers {
        // 2^-r, exactly.
        sum += f64::from_bits((1023 - u64::from(r)) << 52);
        zeros += usize::from(r == 0);
    }
    let alpha = match registers.len() {
        16 => 0.673,
        32 => 0.697,
        64 => 0.709,
        _ => 0.7213 / (1.0 + 1.079 / m),
    };
    let raw = alpha * m * m / sum;
    if raw <= 2.5 * m && zeros > 0 {
        m * libm::log(m / zeros as f64)
    } else {
        raw
    }
}

/// A first pass's estimate of its rows' distinct keys (the table's HyperLogLog: 16,384
/// registers, 0.81 %), so the analysis knows before it counts whether counting every row
/// exactly can last: past [`MAX_EXACT_ROWS`](crate::analyze::MAX_EXACT_ROWS) distinct rows
/// the exact counts are dropped, after they have cost most of the count's time and memory.
/// Chunks read apart merge exactly (the larger of each register), so the estimate, and the
/// decision, are the same for any number of readers.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DistinctKeys(Distinct);

impl Default for DistinctKeys {
    fn default() -> DistinctKeys {
        DistinctKeys(Distinct::new(TABLE_PRECISION))
    }
}

impl DistinctKeys {
    /// One row's key.
    #[inline]
    pub fn insert(&mut self, key: &[u8]) {
        self.0.insert(row_hash(key));
    }

    /// Count what `other` counted too.
    pub fn merge(&mut self, other: &DistinctKeys) {
        self.0.merge(&other.0);
    }

    /// The estimate.
    pub fn estimate(&self) -> f64 {
        self.0.estimate()
    }

    /// The rows' distinct keys pass the exact counts' cap by more than 12 standard errors:
    /// counting exactly would certainly end in the sketches' figures (the chance that the
    /// true count is within the cap is below 1e-30).
    pub fn past_exact_cap(&self) -> bool {
        let low = self.0.estimate() * (1.0 - 12.0 * relative_error(TABLE_PRECISION));
        low > crate::analyze::MAX_EXACT_ROWS as f64
    }
}

/// HyperLogLog (Flajolet, Fusy, Gandouet and Meunier, 2007) over 64-bit hashes: `2^p` one-byte
/// registers; the top `p` hash bits pick a register, which keeps the most leading zeros (plus
/// one) seen in the other bits. Written here rather than taken from a crate:
/// hyperloglogplus 0.4 does not build without `std` and with it takes the platform's
/// logarithm (native and wasm could then differ in the last bit), cardinality-estimator
/// builds only for 64-bit targets (not wasm32), and hyperloglog seeds its hash at random; and
/// none skips the registers below its floor (below). One byte per register; the
/// logarithm is `libm`'s, so the estimate is the same on every target.
///
/// A distinct count of one key range (a region) or the table. It keeps the smallest register
/// value and how many registers hold it (as Apache DataSketches' HLL does with `curMin`): a
/// rank at or below that floor cannot raise any register, so most inserts of a long run
/// (half of all ranks are 1, a quarter 2…) return without reading a register, the random
/// memory access that made the sketches the analyzer's largest cost. After a split each daughter
/// starts from a copy of its parent's registers: rows it sees again that the parent already
/// held do not count twice, and its estimate is its share of the parent's count plus what its
/// registers grew by since (`inherited + estimate − base`).
///
/// `repr(C)` with the floor first: a region's floor sits in the cache line of its other
/// per-write counters (see `Region`), while the registers, read by few writes, are apart.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[repr(C)]
pub(super) struct Distinct {
    /// Every register is at least this.
    floor: u8,
    /// Registers equal to [`floor`](Self::floor).
    at_floor: u32,
    registers: Box<[u8]>,
    /// The registers' estimate when this sketch was split off its parent.
    base: f64,
    /// The share of the parent's count this key range took.
    inherited: f64,
}

impl Distinct {
    /// `2^precision` registers, all 0.
    pub(super) fn new(precision: u8) -> Distinct {
        let registers = vec![0u8; 1usize << precision.min(24)].into_boxed_slice();
        Distinct {
            floor: 0,
            at_floor: u32::try_from(registers.len()).unwrap_or(u32::MAX),
            registers,
            base: 0.0,
            inherited: 0.0,
        }
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, hash: u64) {
        let (index, rank) = hll_slot(self.registers.len(), hash);
        if rank <= self.floor {
            return;
        }
        let floor = self.floor;
        let Some(r) = self.registers.get_mut(index) else {
            return;
        };
        if rank > *r {
            let was = *r;
            *r = rank;
            if was == floor {
                self.at_floor = self.at_floor.saturating_sub(1);
                if self.at_floor == 0 {
                    self.raise_floor();
                }
            }
        }
    }

    /// The last register at the floor rose: find the new floor and count its registers.
    #[cold]
    fn raise_floor(&mut self) {
        let floor = self.registers.iter().copied().min().unwrap_or(0);
        self.floor = floor;
        let at = self.registers.iter().filter(|&&r| r == floor).count();
        self.at_floor = u32::try_from(at).unwrap_or(u32::MAX);
    }

    /// The distinct count.
    pub(super) fn estimate(&self) -> f64 {
        let raw = hll_estimate(&self.registers);
        self.inherited + (raw - self.base).max(0.0)
    }

    /// Count what `other` counted too: the larger of each register, as if one sketch had seen
    /// both streams. `false` (and nothing merged) when the two have different sizes.
    pub(super) fn merge(&mut self, other: &Distinct) -> bool {
        if self.registers.len() != other.registers.len() {
            return false;
        }
        for (r, o) in self.registers.iter_mut().zip(other.registers.iter()) {
            *r = (*r).max(*o);
        }
        self.raise_floor();
        true
    }

    /// The two daughters of a split: `left_share` of the count goes left, the rest right.
    pub(super) fn split(&self, left_share: f64) -> (Distinct, Distinct) {
        let total = self.estimate();
        let raw = hll_estimate(&self.registers);
        let daughter = |share: f64| Distinct {
            floor: self.floor,
            at_floor: self.at_floor,
            registers: self.registers.clone(),
            base: raw,
            inherited: total * share,
        };
        (daughter(left_share), daughter(1.0 - left_share))
    }
}

/// A uniform sample of distinct cells with the exact number of writes of each: the `k`
/// smallest cell hashes seen (a bottom-k, or KMV, sketch). A cell whose hash ends among the k
/// smallest was among them from its first write on (the threshold only falls), so its count
/// is exact. From it: the distinct cells (exact below k, `(k − 1) / h_k` above) and the
/// versions they keep, `min(writes, VERSIONS)` each, as an exact sum below k and a mean per
/// cell above.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct CellSample {
    /// `(hash, writes)`, sorted by hash.
    items: Vec<(u64, u64)>,
    k: usize,
}

impl CellSample {
    pub(super) fn new(k: usize) -> CellSample {
        CellSample {
            items: Vec::new(),
            k: k.max(2),
        }
    }

    /// One write to the cell with this hash.
    #[inline]
    pub(super) fn offer(&mut self, hash: u64) {
        if self.items.len() >= self.k && self.items.last().is_some_and(|&(h, _)| hash > h) {
            return;
        }
        match self.items.binary_search_by_key(&hash, |&(h, _)| h) {
            Ok(i) => {
                if let Some(c) = self.items.get_mut(i) {
                    c.1 = c.1.saturating_add(1);
                }
            }
            Err(i) => {
                self.items.insert(i, (hash, 1));
                if self.items.len() > self.k {
                    self.items.pop();
                }
            }
        }
    }

    /// Count what `other` counted too: the `k` smallest hashes of both, writes added. A cell
    /// among the `k` smallest of the two streams is among the `k` smallest of each stream it
    /// was written in, with its exact count there: the result is what one sample of both
    /// streams would hold. `false` (and nothing merged) when the two keep different sizes.
    pub(super) fn merge(&mut self, other: &CellSample) -> bool {
        if self.k != other.k {
            return false;
        }
        let mut out = Vec::with_capacity(
            self.items
                .len()
                .saturating_add(other.items.len())
                .min(self.k),
        );
        let (mut a, mut b) = (self.items.iter().peekable(), other.items.iter().peekable());
        while out.len() < self.k {
            let next = match (a.peek(), b.peek()) {
                (Some(&&(ha, wa)), Some(&&(hb, wb))) if ha == hb => {
                    a.next();
                    b.next();
                    (ha, wa.saturating_add(wb))
                }
                (Some(&&x), Some(&&y)) => {
                    if x.0 < y.0 {
                        a.next();
                        x
                    } else {
                        b.next();
                        y
                    }
                }
                (Some(&&x), None) => {
                    a.next();
                    x
                }
                (None, Some(&&y)) => {
                    b.next();
                    y
                }
                (None, None) => break,
            };
            out.push(next);
        }
        self.items = out;
        true
    }

    /// True while the sample holds every distinct cell seen.
    pub(super) fn exact(&self) -> bool {
        self.items.len() < self.k
    }

    /// The distinct cells.
    pub(super) fn distinct(&self) -> f64 {
        match self.items.last() {
            Some(&(h, _)) if !self.exact() => {
                // The k-th smallest of n uniform hashes sits near k / n of the range.
                let at = (h as f64 + 1.0) / 18_446_744_073_709_551_616.0;
                (self.k as f64 - 1.0) / at
            }
            _ => self.items.len() as f64,
        }
    }

    /// Versions kept per distinct cell, on average: `min(writes, versions)` over the sample
    /// (1 when empty).
    pub(super) fn kept_per_cell(&self, versions: u32) -> f64 {
        if self.items.is_empty() {
            return 1.0;
        }
        let v = u64::from(versions.max(1));
        let kept: u64 = self.items.iter().map(|&(_, w)| w.min(v)).sum();
        kept as f64 / self.items.len() as f64
    }

    /// The cells kept (versions included): exact while the sample holds every cell.
    pub(super) fn kept(&self, versions: u32) -> f64 {
        if self.exact() {
            let v = u64::from(versions.max(1));
            return self.items.iter().map(|&(_, w)| w.min(v)).sum::<u64>() as f64;
        }
        self.distinct() * self.kept_per_cell(versions)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_cell_sample_is_exact_below_k_and_close_above() {
        let mut s = CellSample::new(1024);
        for i in 0..500u64 {
            for _ in 0..(1 + i % 4) {
                s.offer(cell_hash(i, 7));
            }
        }
        assert_eq!(s.distinct(), 500.0);
        // min(1 + i % 4, 2) over i: 125 cells keep 1, 375 keep 2.
        assert_eq!(s.kept(2), 875.0);
        for i in 500..100_000u64 {
            s.offer(cell_hash(i, 7));
        }
        let d = s.distinct();
        assert!((d - 100_000.0).abs() < 100_000.0 * 3.0 / 32.0, "{d}");
    }
}
