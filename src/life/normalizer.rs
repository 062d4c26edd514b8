//! `SimpleRegionNormalizer`'s plans (research file §A4) over a table's regions in key order:
//! split plans for regions above twice the average, then merge plans for runs of adjacent
//! small regions, with its gates (3 regions, 3 days of age, the minimum size in MB, 100
//! regions a merge).

use super::settings::NormalizerSettings;

/// A region as the normalizer sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalizerRegion {
    /// `(long)` store-file MB, as the region server reports it.
    pub size_mb: i64,
    /// Days since the region was created (its regionId).
    pub age_days: f64,
}

/// The plans of one run, as indices into the regions (key order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NormalizerPlans {
    /// Regions to split.
    pub splits: Vec<usize>,
    /// Runs of adjacent regions to merge, each `first..=last`.
    pub merges: Vec<(usize, usize)>,
}

/// The normalizer's average: the target size if set, else total / target count, else the mean.
pub fn average_mb(regions: &[NormalizerRegion], s: &NormalizerSettings) -> f64 {
    let total: i64 = regions.iter().map(|r| r.size_mb.max(0)).sum();
    match (s.target_region_size_mb, s.target_region_count) {
        (Some(t), _) if t > 0 => t as f64,
        (_, Some(c)) if c > 0 => total as f64 / c as f64,
        _ if regions.is_empty() => 0.0,
        _ => total as f64 / regions.len() as f64,
    }
}

/// The plans `SimpleRegionNormalizer.computePlansForTable` makes.
pub fn plans(regions: &[NormalizerRegion], s: &NormalizerSettings) -> NormalizerPlans {
    let mut out = NormalizerPlans::default();
    if !s.enabled || regions.is_empty() {
        return out;
    }
    let avg = average_mb(regions, s);
    if s.split_enabled {
        out.splits = regions
            .iter()
            .enumerate()
            .filter(|(_, r)| r.size_mb as f64 > 2.0 * avg)
            .map(|(i, _)| i)
            .collect();
    }
    if s.merge_enabled
        && regions.len() >= s.merge_min_region_count as usize
        && (avg as i64) >= s.merge_min_region_size_mb as i64
    {
        out.merges = merge_runs(regions, s, avg);
    }
    out
}

fn merge_runs(
    regions: &[NormalizerRegion],
    s: &NormalizerSettings,
    avg: f64,
) -> Vec<(usize, usize)> {
    let max = s.merge_max_regions as usize;
    let min_size = s.merge_min_region_size_mb as i64;
    let mut runs = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    let mut sum: i64 = 0;
    let close = |run: &mut Option<(usize, usize)>, runs: &mut Vec<(usize, usize)>| {
        if let Some((a, b)) = run.take() {
            if b > a {
                runs.push((a, b));
            }
        }
    };
    for (i, r) in regions.iter().enumerate() {
        if r.age_days <= s.merge_min_region_age_days || r.size_mb < min_size {
            close(&mut run, &mut runs);
            sum = 0;
            continue;
        }
        let size = r.size_mb.max(0);
        let joins = match run {
            None => true,
            Some((a, b)) => {
                let len = b - a + 1;
                (len == 1 && sum == 0)
                    || (size == 0 && len < max)
                    || ((sum + size) as f64 <= avg && len < max)
            }
        };
        if joins {
            run = Some(run.map_or((i, i), |(a, _)| (a, i)));
            sum += size;
        } else {
            close(&mut run, &mut runs);
            run = Some((i, i));
            sum = size;
        }
    }
    close(&mut run, &mut runs);
    runs
}
