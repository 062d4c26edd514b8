//! Findings about rows and key prefixes: one row or one prefix (a device, a host) that takes
//! more than an even region's share of the writes, a row larger than a region may hold, a row
//! that is its region's load, and regions auto-split could not split because of one row.

use super::super::report::{AnalysisReport, RegionReport};
use crate::hbase::bytes::to_string_binary;
use crate::support::num_text::fixed;

/// The least share of the sampled writes a key prefix takes to be named: two regions' even
/// share, and at least 10 %.
const HEAVY_PREFIX_SHARE: f64 = 0.1;
/// A heavy prefix takes at least this many times the median of the prefixes of its length
/// (its peers): a salt's bucket, one of many alike, is not a heavy hitter.
const HEAVY_PREFIX_PEERS: usize = 4;
/// Sampled keys below which no prefix is named (too few to tell a share).
const HEAVY_PREFIX_SAMPLE: usize = 200;

/// A key prefix that takes far more of the writes than its peers (a device, a tenant, a
/// metric: the value a key leads with), counted on the report's uniform sample of written
/// keys: the longest prefix taking [`HEAVY_PREFIX_SHARE`] or more, shortened while it keeps
/// its count (to where the field's value ends), and at least [`HEAVY_PREFIX_PEERS`] times the
/// median run of its length. Its share is the sample's, said so.
pub(super) fn heavy_prefix(r: &AnalysisReport) -> Option<String> {
    let n = r.regions.len();
    let keys: Vec<&[u8]> = r.sample.iter().map(|s| s.key.as_slice()).collect();
    let m = keys.len();
    if n < 2 || m < HEAVY_PREFIX_SAMPLE {
        return None;
    }
    let need = ((2.0 / n as f64).max(HEAVY_PREFIX_SHARE) * m as f64).ceil() as usize;
    // runs of equal prefixes of `len` bytes in the sorted sample: (first index, count)
    let runs = |len: usize| -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let Some(p) = k.get(..len) else { continue };
            match out.last_mut() {
                Some((first, c)) if keys.get(*first).and_then(|f| f.get(..len)) == Some(p) => {
                    *c += 1
                }
                _ => out.push((i, 1)),
            }
        }
        out
    };
    let longest = keys.iter().map(|k| k.len()).max().unwrap_or(0).min(64);
    // the longest heavy prefix that is not shared by nearly every key (a common prefix)
    let (mut len, first, count) = (1..=longest).rev().find_map(|len| {
        let rs = runs(len);
        let mut sizes: Vec<usize> = rs.iter().map(|x| x.1).collect();
        sizes.sort_unstable();
        let median = sizes.get(sizes.len() / 2).copied().unwrap_or(0);
        rs.iter()
            .filter(|(_, c)| *c >= need && c * 10 < m * 9 && *c >= HEAVY_PREFIX_PEERS * median)
            .max_by_key(|x| x.1)
            .map(|&(first, c)| (len, first, c))
    })?;
    let key = *keys.get(first)?;
    // shortened while no other key joins it: where the value it leads with ends
    while len > 1 {
        let shorter = key.get(..len - 1)?;
        let with = keys.iter().filter(|k| k.starts_with(shorter)).count();
        if with > count {
            break;
        }
        len -= 1;
    }
    let prefix = key.get(..len)?;
    let regions: Vec<usize> = r
        .sample
        .iter()
        .filter(|s| s.key.starts_with(prefix))
        .map(|s| s.region)
        .collect();
    let (lo, hi) = (*regions.iter().min()?, *regions.iter().max()?);
    let held = if lo == hi {
        format!("region {lo} holds them")
    } else {
        format!("regions {lo} to {hi} hold them")
    };
    Some(format!(
        "a heavy key prefix: keys starting `{}` take about {} % of the writes ({count} of {m} \
         sampled keys), more than two regions' even share of {n}: {held}. Their key range is \
         theirs whatever the split points, and the rest of the key decides whether its regions \
         share their writes; a bucket or hash right after the prefix (or in front of the key) \
         spreads them",
        to_string_binary(prefix),
        fixed(count as f64 * 100.0 / m as f64, 0),
    ))
}

/// The largest row when it takes more than an even region's share of all writes: no split
/// spreads it (HBase splits between rows only), so its region stays above the mean.
pub(super) fn heaviest_row(r: &AnalysisReport) -> Option<String> {
    let n = r.regions.len();
    let row = r.largest_rows.iter().max_by_key(|w| w.writes)?;
    if n < 2 || r.writes == 0 || row.writes.saturating_mul(n as u64) <= r.writes {
        return None;
    }
    let share = row.writes as f64 / r.writes as f64;
    let bound = if row.writes_error > 0 {
        format!(" (at least; up to {} more)", row.writes_error)
    } else {
        String::new()
    };
    Some(format!(
        "a heavy row: `{}` takes {} % of all writes{bound}, more than an even share of {n} \
         regions ({} %): HBase splits only between rows, so its region (region {}) stays hot \
         whatever the split points. Spread it over rows (a time range or a bucket in the key)",
        to_string_binary(&row.key),
        fixed(share * 100.0, 1),
        fixed(100.0 / n as f64, 1),
        row.region,
    ))
}

/// Findings about rows: a row larger than `limit` bytes kept (the region max file size, or
/// [`DEFAULT_ROW_LIMIT`](crate::analyze::DEFAULT_ROW_LIMIT)), a row taking most of its
/// region's writes, and regions auto-split could not split because of one row.
pub fn row_findings(r: &AnalysisReport, limit: u64) -> Vec<String> {
    let mut out = Vec::new();
    for row in &r.largest_rows {
        // What stays after compaction: the bytes of a write times the cells kept.
        let kept = if row.writes == 0 {
            0.0
        } else {
            row.bytes as f64 * row.cells as f64 / row.writes as f64
        };
        if limit > 0 && kept > limit as f64 {
            out.push(format!(
                "row `{}` holds {} ({} cells from {} writes), more than the {} a region may \
                 hold before it splits: HBase splits only between rows, so its region \
                 can never get back under that size. Spread what this row holds over more \
                 rows (a time range or a bucket in the key)",
                to_string_binary(&row.key),
                size_text(kept),
                row.cells,
                row.writes,
                size_text(limit as f64),
            ));
        }
    }
    let mut dominant = 0;
    // the row the verdict's findings already name (`heaviest_row`) is not named twice
    let heavy = heaviest_row(r).and(r.largest_rows.iter().max_by_key(|w| w.writes));
    for row in &r.largest_rows {
        if heavy.is_some_and(|h| h.key == row.key) {
            continue;
        }
        let Some(g) = r.regions.get(row.region) else {
            continue;
        };
        if r.regions.len() > 1 && g.writes >= 16 && row.writes.saturating_mul(2) > g.writes {
            out.push(format!(
                "row `{}` takes {} % of the writes of region {}: one row is the region's \
                 load, and no split can spread it (HBase splits only between rows)",
                to_string_binary(&row.key),
                fixed(row.writes as f64 * 100.0 / g.writes as f64, 0),
                g.index
            ));
            dominant += 1;
            if dominant == 3 {
                break;
            }
        }
    }
    let stuck: Vec<&RegionReport> = r.regions.iter().filter(|g| g.unsplittable).collect();
    if let Some(g) = stuck.first() {
        let more = match stuck.len() {
            1 => String::new(),
            n => format!(" ({} regions in all)", n),
        };
        out.push(format!(
            "region {}{more} passed its split size but cannot split: its middle row is its \
             first or last row, so one row holds half its writes or more, and HBase splits \
             only between rows",
            g.index
        ));
    }
    out
}

/// A size in bytes as people read it: `256 KiB`, `1.5 MiB`, `10 GiB`.
pub(crate) fn size_text(bytes: f64) -> String {
    const UNITS: [(&str, f64); 4] = [
        ("TiB", 1_099_511_627_776.0),
        ("GiB", 1_073_741_824.0),
        ("MiB", 1_048_576.0),
        ("KiB", 1024.0),
    ];
    for (unit, size) in UNITS {
        if bytes >= size {
            let x = bytes / size;
            let digits = if x >= 100.0 || x == libm::floor(x) {
                0
            } else {
                1
            };
            return format!("{} {unit}", fixed(x, digits));
        }
    }
    format!("{} bytes", fixed(bytes, 0))
}
