//! Skew metrics over per-region counts (writes, rows or bytes) and over a region × window
//! matrix. Pure functions on plain slices, so the analyzer, the comparison view and the tests
//! all compute them the same way.
//!
//! Edge cases are defined, never NaN:
//! - no regions, or all counts zero: every ratio is 0, `busiest_region` is `None`,
//!   `active_regions` is 0 and `empty_regions` is the region count;
//! - one region with load: hotspot factor 1, busiest share 1, CV 0, Gini 0, parallelism 1.
//!
//! What the numbers mean, for `n` regions and a total load `T`:
//! - **hotspot factor** = max / mean: 1 is perfectly even, `n` is all load on one region;
//! - **busiest share** = max / T, in `[1/n, 1]`;
//! - **active regions**: regions with any load (a sequential key gives 1 per time window);
//! - **coefficient of variation** = population standard deviation / mean, in `[0, sqrt(n-1)]`;
//! - **Gini** = mean absolute difference / (2 × mean), in `[0, 1 - 1/n]` (not normalized:
//!   all load on one region of `n` gives `1 - 1/n`);
//! - **effective parallelism** = 1 / Σ p², p = share of each region: the number of equally
//!   loaded regions that would give the same concentration, in `[1, n]`;
//! - **empty regions**: regions with no load (the `Bytes.split`-over-hex trap shows up here).
//!
//! All arithmetic is IEEE basic operations and `sqrt` (both correctly rounded), so the values
//! are bit-identical on every platform.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// The skew of one load distribution over regions (or servers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadMetrics {
    /// Number of regions counted.
    pub regions: usize,
    /// The sum of all counts.
    pub total: u64,
    /// The largest count.
    pub max: u64,
    /// Index of the busiest region (the first one on ties), `None` when all are zero.
    pub busiest_region: Option<usize>,
    /// max / mean.
    pub hotspot_factor: f64,
    /// max / total.
    pub busiest_share: f64,
    /// Regions with a count above zero.
    pub active_regions: usize,
    /// Regions with a count of zero.
    pub empty_regions: usize,
    /// Population standard deviation / mean.
    pub coefficient_of_variation: f64,
    /// The Gini coefficient, in `[0, 1 - 1/n]`.
    pub gini: f64,
    /// 1 / Σ p².
    pub effective_parallelism: f64,
}

/// The sum of `counts`, saturating (u64 counts of records never come near the limit).
pub fn total(counts: &[u64]) -> u64 {
    counts.iter().fold(0u64, |a, c| a.saturating_add(*c))
}

/// max / mean; 0 when there are no regions or no load.
pub fn hotspot_factor(counts: &[u64]) -> f64 {
    let t = total(counts);
    if t == 0 {
        return 0.0;
    }
    let max = counts.iter().copied().max().unwrap_or(0);
    max as f64 * counts.len() as f64 / t as f64
}

/// max / total; 0 when there is no load.
pub fn busiest_share(counts: &[u64]) -> f64 {
    let t = total(counts);
    if t == 0 {
        return 0.0;
    }
    counts.iter().copied().max().unwrap_or(0) as f64 / t as f64
}

/// The number of regions with a count above zero.
pub fn active_regions(counts: &[u64]) -> usize {
    counts.iter().filter(|c| **c > 0).count()
}

/// The number of regions with a count of zero.
pub fn empty_regions(counts: &[u64]) -> usize {
    counts.iter().filter(|c| **c == 0).count()
}

/// Population standard deviation / mean; 0 when there is no load.
pub fn coefficient_of_variation(counts: &[u64]) -> f64 {
    let t = total(counts);
    if t == 0 || counts.is_empty() {
        return 0.0;
    }
    let n = counts.len() as f64;
    let mean = t as f64 / n;
    let var = counts
        .iter()
        .map(|c| {
            let d = *c as f64 - mean;
            d * d
        })
        .sum::<f64>()
        / n;
    var.sqrt() / mean
}

/// The Gini coefficient: `Σ_i Σ_j |x_i - x_j| / (2 n² mean)`, computed on the sorted counts as
/// `(2 Σ_k k x_(k)) / (n T) - (n + 1) / n` with `k` from 1; 0 when there is no load.
pub fn gini(counts: &[u64]) -> f64 {
    let t = total(counts);
    if t == 0 || counts.len() < 2 {
        return 0.0;
    }
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    let n = sorted.len() as f64;
    let weighted: f64 = sorted
        .iter()
        .enumerate()
        .map(|(k, x)| (k as f64 + 1.0) * *x as f64)
        .sum();
    let g = 2.0 * weighted / (n * t as f64) - (n + 1.0) / n;
    // Rounding can leave a tiny negative value for a perfectly even load.
    g.max(0.0)
}

/// 1 / Σ p² with `p` each region's share of the total; 0 when there is no load.
pub fn effective_parallelism(counts: &[u64]) -> f64 {
    let t = total(counts);
    if t == 0 {
        return 0.0;
    }
    let tf = t as f64;
    let sum_sq: f64 = counts
        .iter()
        .map(|c| {
            let p = *c as f64 / tf;
            p * p
        })
        .sum();
    if sum_sq > 0.0 {
        1.0 / sum_sq
    } else {
        0.0
    }
}

/// All metrics of one load distribution.
pub fn load_metrics(counts: &[u64]) -> LoadMetrics {
    let t = total(counts);
    let mut max = 0u64;
    let mut busiest = None;
    for (i, c) in counts.iter().enumerate() {
        if *c > max {
            max = *c;
            busiest = Some(i);
        }
    }
    LoadMetrics {
        regions: counts.len(),
        total: t,
        max,
        busiest_region: busiest,
        hotspot_factor: hotspot_factor(counts),
        busiest_share: busiest_share(counts),
        active_regions: active_regions(counts),
        empty_regions: empty_regions(counts),
        coefficient_of_variation: coefficient_of_variation(counts),
        gini: gini(counts),
        effective_parallelism: effective_parallelism(counts),
    }
}

/// The metrics of a region × window matrix: each window, the whole run, and summaries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatrixMetrics {
    /// Number of regions (matrix rows).
    pub regions: usize,
    /// Number of time windows (matrix columns).
    pub windows: usize,
    /// The metrics of each window's column, in time order.
    pub per_window: Vec<LoadMetrics>,
    /// The metrics of the per-region totals over all windows.
    pub overall: LoadMetrics,
    /// Windows with any load.
    pub loaded_windows: usize,
    /// Mean of `active_regions` over the loaded windows (0 when none is loaded).
    pub mean_active_regions: f64,
    /// Mean hotspot factor over the loaded windows.
    pub mean_hotspot_factor: f64,
    /// The largest hotspot factor of any window.
    pub max_hotspot_factor: f64,
    /// Mean effective parallelism over the loaded windows.
    pub mean_effective_parallelism: f64,
    /// The smallest effective parallelism of any loaded window (0 when none is loaded).
    pub min_effective_parallelism: f64,
    /// Mean over the loaded windows of the busiest region's share of the window's writes
    /// (1 when every window's writes land on one region; 1/regions when they spread evenly).
    #[serde(default)]
    pub mean_busiest_share: f64,
    /// The largest busiest-region share of any loaded window.
    #[serde(default)]
    pub max_busiest_share: f64,
}

/// Metrics of a row-major `regions × windows` matrix (`cells[r * windows + w]`).
/// Fails when `cells.len()` is not `regions * windows`.
pub fn matrix_metrics(cells: &[u64], regions: usize, windows: usize) -> Result<MatrixMetrics> {
    let expected = regions.checked_mul(windows);
    if expected != Some(cells.len()) {
        return Err(Error::new(
            ErrorKind::IllegalArgument,
            format!(
                "a {regions} x {windows} matrix has {} cells, not {}",
                expected.map_or_else(|| "too many".to_string(), |e| e.to_string()),
                cells.len()
            ),
        )
        .at_path("cells"));
    }
    let mut region_totals = vec![0u64; regions];
    let mut column = vec![0u64; regions];
    let mut per_window = Vec::with_capacity(windows);
    for w in 0..windows {
        for (r, slot) in column.iter_mut().enumerate() {
            *slot = cells.get(r * windows + w).copied().unwrap_or(0);
        }
        for (t, c) in region_totals.iter_mut().zip(&column) {
            *t = t.saturating_add(*c);
        }
        per_window.push(load_metrics(&column));
    }
    let loaded: Vec<&LoadMetrics> = per_window.iter().filter(|m| m.total > 0).collect();
    let mean = |f: fn(&LoadMetrics) -> f64| {
        if loaded.is_empty() {
            0.0
        } else {
            loaded.iter().map(|m| f(m)).sum::<f64>() / loaded.len() as f64
        }
    };
    let mean_active_regions = mean(|m| m.active_regions as f64);
    let mean_hotspot_factor = mean(|m| m.hotspot_factor);
    let mean_effective_parallelism = mean(|m| m.effective_parallelism);
    let mean_busiest_share = mean(|m| m.busiest_share);
    let max_busiest_share = loaded.iter().map(|m| m.busiest_share).fold(0.0, f64::max);
    let max_hotspot_factor = loaded.iter().map(|m| m.hotspot_factor).fold(0.0, f64::max);
    let min_effective_parallelism = loaded
        .iter()
        .map(|m| m.effective_parallelism)
        .reduce(f64::min)
        .unwrap_or(0.0);
    Ok(MatrixMetrics {
        regions,
        windows,
        loaded_windows: loaded.len(),
        mean_active_regions,
        mean_hotspot_factor,
        max_hotspot_factor,
        mean_effective_parallelism,
        min_effective_parallelism,
        mean_busiest_share,
        max_busiest_share,
        overall: load_metrics(&region_totals),
        per_window,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn hand_computed_example() {
        // counts 0, 10, 30, 60: T = 100, n = 4, mean 25.
        let c = [0u64, 10, 30, 60];
        let m = load_metrics(&c);
        assert_eq!(m.total, 100);
        assert_eq!(m.max, 60);
        assert_eq!(m.busiest_region, Some(3));
        assert!(close(m.hotspot_factor, 2.4));
        assert!(close(m.busiest_share, 0.6));
        assert_eq!(m.active_regions, 3);
        assert_eq!(m.empty_regions, 1);
        // variance = (625 + 225 + 25 + 1225) / 4 = 525; sd = 22.9128784747792; cv = sd / 25.
        assert!(close(m.coefficient_of_variation, 525f64.sqrt() / 25.0));
        // Σ k x_(k) = 1*0 + 2*10 + 3*30 + 4*60 = 350; G = 700 / 400 - 5/4 = 0.5.
        assert!(close(m.gini, 0.5));
        // Σ p² = 0.01 + 0.09 + 0.36 = 0.46.
        assert!(close(m.effective_parallelism, 1.0 / 0.46));
    }

    #[test]
    fn even_load_and_single_hot_region() {
        let even = load_metrics(&[5, 5, 5, 5]);
        assert!(close(even.hotspot_factor, 1.0));
        assert!(close(even.coefficient_of_variation, 0.0));
        assert!(close(even.gini, 0.0));
        assert!(close(even.effective_parallelism, 4.0));
        assert_eq!(even.busiest_region, Some(0));

        let hot = load_metrics(&[0, 0, 8, 0]);
        assert!(close(hot.hotspot_factor, 4.0));
        assert!(close(hot.busiest_share, 1.0));
        assert!(close(hot.gini, 0.75));
        assert!(close(hot.effective_parallelism, 1.0));
        assert!(close(hot.coefficient_of_variation, 3f64.sqrt()));
        assert_eq!(hot.active_regions, 1);
        assert_eq!(hot.empty_regions, 3);
    }

    #[test]
    fn edge_cases_are_zero_not_nan() {
        for c in [&[][..], &[0, 0, 0][..]] {
            let m = load_metrics(c);
            assert_eq!(m.busiest_region, None);
            for x in [
                m.hotspot_factor,
                m.busiest_share,
                m.coefficient_of_variation,
                m.gini,
                m.effective_parallelism,
            ] {
                assert_eq!(x, 0.0);
            }
            assert_eq!(m.empty_regions, c.len());
        }
        let one = load_metrics(&[7]);
        assert!(close(one.hotspot_factor, 1.0));
        assert!(close(one.busiest_share, 1.0));
        assert!(close(one.gini, 0.0));
        assert!(close(one.effective_parallelism, 1.0));
        assert!(close(one.coefficient_of_variation, 0.0));
    }

    #[test]
    fn matrix_diagonal_has_one_active_region_per_window() {
        // 3 regions x 3 windows, a timestamp-first key: region w gets window w's writes.
        #[rustfmt::skip]
        let cells = [
            9, 0, 0,
            0, 9, 0,
            0, 0, 9,
        ];
        let m = matrix_metrics(&cells, 3, 3).unwrap();
        assert_eq!(m.per_window.len(), 3);
        assert_eq!(m.loaded_windows, 3);
        assert!(close(m.mean_active_regions, 1.0));
        assert!(close(m.max_hotspot_factor, 3.0));
        assert!(close(m.min_effective_parallelism, 1.0));
        // Over the whole run the load is even: the hotspot only shows per window.
        assert!(close(m.overall.hotspot_factor, 1.0));
        assert_eq!(m.per_window[1].busiest_region, Some(1));
    }

    #[test]
    fn matrix_with_empty_window_and_bad_shape() {
        let cells = [1, 0, 1, 0];
        let m = matrix_metrics(&cells, 2, 2).unwrap();
        assert_eq!(m.loaded_windows, 1);
        assert_eq!(m.per_window[1].total, 0);
        assert!(close(m.mean_effective_parallelism, 2.0));
        assert!(matrix_metrics(&cells, 3, 2).is_err());
        assert!(matrix_metrics(&[], usize::MAX, 2).is_err());
        let empty = matrix_metrics(&[], 0, 0).unwrap();
        assert_eq!(empty.overall.regions, 0);
        assert_eq!(empty.mean_hotspot_factor, 0.0);
    }
}
