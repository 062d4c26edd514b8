//! A store's files in aggregate: each file is its on-disk bytes, where they lie in the key
//! space (a piecewise profile, for the split point) and when they were written (bytes per
//! time bin, for the TTL). Key and time are kept apart (a file's expired cells leave its key
//! profile's shape unchanged): exact for keys that spread writes, an approximation only for a
//! partly expired file of a time-led key, which rarely splits.

use std::rc::Rc;

/// At most this many segments per profile; more are merged pairwise (the median then moves by
/// at most one merged segment).
const MAX_SEGMENTS: usize = 256;

/// Where a file's bytes lie: segments `(x0, x1, share)`, ascending, disjoint, shares sum 1.
#[derive(Debug, Clone)]
pub(crate) struct Profile(pub Rc<Vec<(f64, f64, f64)>>);

impl Profile {
    /// A profile from segments of any positive weights (normalised here).
    pub fn from_segments(mut segs: Vec<(f64, f64, f64)>) -> Profile {
        segs.retain(|s| s.1 > s.0 && s.2 > 0.0);
        let total: f64 = segs.iter().map(|s| s.2).sum();
        if total > 0.0 {
            for s in &mut segs {
                s.2 /= total;
            }
        }
        while segs.len() > MAX_SEGMENTS {
            segs = segs
                .chunks(2)
                .map(|c| match c {
                    [a, b] => (a.0, b.1, a.2 + b.2),
                    [a] => *a,
                    _ => (0.0, 0.0, 0.0),
                })
                .collect();
        }
        Profile(Rc::new(segs))
    }

    /// The key range the profile covers.
    pub fn span(&self) -> Option<(f64, f64)> {
        Some((self.0.first()?.0, self.0.last()?.1))
    }

    /// The coordinate below which `q` of the bytes lie (uniform inside a segment).
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let mut acc = 0.0;
        for &(a, b, w) in self.0.iter() {
            if acc + w >= q && w > 0.0 {
                return Some(a + (b - a) * ((q - acc) / w).clamp(0.0, 1.0));
            }
            acc += w;
        }
        self.0.last().map(|s| s.1)
    }

    /// The share of the bytes below `x`.
    pub fn below(&self, x: f64) -> f64 {
        let mut acc = 0.0;
        for &(a, b, w) in self.0.iter() {
            if x >= b {
                acc += w;
            } else {
                if x > a {
                    acc += w * (x - a) / (b - a);
                }
                break;
            }
        }
        acc.clamp(0.0, 1.0)
    }

    /// The part of the profile in `[lo, hi)`, renormalised.
    pub fn clip(&self, lo: f64, hi: f64) -> Profile {
        let segs = self
            .0
            .iter()
            .filter_map(|&(a, b, w)| {
                let (c, d) = (a.max(lo), b.min(hi));
                (d > c).then(|| (c, d, w * (d - c) / (b - a)))
            })
            .collect();
        Profile::from_segments(segs)
    }

    /// The bytes-weighted union of profiles: where overlapping, their densities add.
    pub fn merge(parts: &[(f64, &Profile)]) -> Profile {
        let Some(first) = parts.first() else {
            return Profile(Rc::new(Vec::new()));
        };
        if parts.iter().all(|p| Rc::ptr_eq(&p.1 .0, &first.1 .0)) {
            return first.1.clone();
        }
        // Sweep the densities' steps: +d at a segment's start, -d at its end.
        let mut events: Vec<(f64, f64)> = Vec::new();
        for (bytes, p) in parts {
            for &(a, b, w) in p.0.iter() {
                let d = bytes * w / (b - a);
                if d > 0.0 && d.is_finite() {
                    events.push((a, d));
                    events.push((b, -d));
                }
            }
        }
        events.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut segs = Vec::new();
        let mut density = 0.0;
        let mut at = f64::NEG_INFINITY;
        for (x, d) in events {
            if x > at && density > 1e-300 && at.is_finite() {
                segs.push((at, x, density * (x - at)));
            }
            density += d;
            at = x;
        }
        Profile::from_segments(segs)
    }
}

/// Bytes per time bin, ascending by bin.
pub(crate) type Bins = Vec<(u32, f64)>;

/// Bins summed.
pub(crate) fn merge_bins(parts: &[&Bins]) -> Bins {
    let mut all: Bins = parts.iter().flat_map(|b| b.iter().copied()).collect();
    all.sort_by_key(|b| b.0);
    let mut out: Bins = Vec::with_capacity(all.len());
    for (k, v) in all {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 += v,
            _ => out.push((k, v)),
        }
    }
    out
}

/// One store file (or, under FIFO, several flushed in the same time bin: `count`).
#[derive(Debug, Clone)]
pub(crate) struct StoreFile {
    /// On-disk bytes.
    pub bytes: f64,
    pub profile: Profile,
    /// On-disk bytes by time bin; empty without a TTL (nothing expires).
    pub bins: Bins,
    /// The step of the newest cell (its `max ts`).
    pub max_step: u32,
    /// The step of the oldest cell.
    pub min_step: u32,
    /// The sequence id: files in flush order.
    pub seq: u64,
    /// The step the file was written (its modification time).
    pub mtime: u32,
    /// Written by a major compaction.
    pub major: bool,
    /// A half-file reference left by a split or merge: the store cannot split until compacted.
    pub reference: bool,
    /// Files this entry stands for (FIFO folds one time bin's flushes together).
    pub count: u32,
}

/// `ExploringCompactionPolicy`'s window over the files (`hbase::store::explore`).
pub(crate) fn explore(
    files: &[StoreFile],
    min_files: usize,
    max_files: usize,
    ratio: f64,
    min_size: f64,
) -> Option<(usize, usize)> {
    let size = |i: usize| files.get(i).map_or(0.0, |f| f.bytes);
    crate::hbase::store::explore(files.len(), size, min_files, max_files, ratio, min_size)
}

/// A file of `bytes` written at `step`.
pub(crate) fn flushed_file(
    bytes: f64,
    profile: Profile,
    bins: Bins,
    min_step: u32,
    step: u32,
    seq: u64,
) -> StoreFile {
    StoreFile {
        bytes,
        profile,
        bins,
        max_step: step,
        min_step,
        seq,
        mtime: step,
        major: false,
        reference: false,
        count: 1,
    }
}

/// The cells of `bins` (of a file set spanning steps `min_step..=max_step`) written at or after
/// `cutoff` (in steps): whole bins before it dropped, the bin it falls in cut in proportion
/// (writes are even inside a bin).
pub(crate) fn live_bins(
    bins: &Bins,
    min_step: u32,
    max_step: u32,
    bin_steps: u32,
    cutoff: f64,
) -> Bins {
    let bs = f64::from(bin_steps);
    bins.iter()
        .filter_map(|&(b, v)| {
            let lo = (f64::from(b) * bs).max(f64::from(min_step));
            let hi = ((f64::from(b) + 1.0) * bs).min(f64::from(max_step) + 1.0);
            if hi <= cutoff {
                None
            } else if lo >= cutoff || hi <= lo {
                Some((b, v))
            } else {
                Some((b, v * (hi - cutoff) / (hi - lo)))
            }
        })
        .collect()
}

/// The files' cells rewritten into one, cells older than `cutoff` (now − TTL, in steps)
/// dropped: any compaction drops them. `None` when nothing is left.
pub(crate) fn compact(
    files: &[StoreFile],
    cutoff: Option<f64>,
    bin_steps: u32,
    step: u32,
    major: bool,
) -> Option<StoreFile> {
    let max_step = files.iter().map(|f| f.max_step).max().unwrap_or(step);
    let mut min_step = files.iter().map(|f| f.min_step).min().unwrap_or(step);
    // Without a TTL files keep no bins (nothing expires): the bytes add up.
    let (bins, bytes) = match cutoff {
        None => (Vec::new(), files.iter().map(|f| f.bytes).sum()),
        Some(cut) => {
            let all = merge_bins(&files.iter().map(|f| &f.bins).collect::<Vec<_>>());
            let bins = live_bins(&all, min_step, max_step, bin_steps, cut);
            if cut > f64::from(min_step) {
                min_step = (cut.floor() as u32).min(max_step);
            }
            let bytes = bins.iter().map(|b| b.1).sum();
            (bins, bytes)
        }
    };
    if bytes <= 0.0 {
        return None;
    }
    let profile = match files.first() {
        Some(f0)
            if files
                .iter()
                .all(|f| Rc::ptr_eq(&f.profile.0, &f0.profile.0)) =>
        {
            f0.profile.clone()
        }
        _ => {
            let parts: Vec<(f64, &Profile)> = files.iter().map(|f| (f.bytes, &f.profile)).collect();
            Profile::merge(&parts)
        }
    };
    Some(StoreFile {
        bytes,
        profile,
        bins,
        max_step,
        min_step,
        seq: files.iter().map(|f| f.seq).max().unwrap_or(0),
        mtime: step,
        major,
        reference: false,
        count: 1,
    })
}

/// The half of `f` on one side of `x` (a daughter's reference file), `None` when empty.
pub(crate) fn half(f: &StoreFile, x: f64, lower: bool) -> Option<StoreFile> {
    let below = f.profile.below(x);
    let share = if lower { below } else { 1.0 - below };
    if share <= 0.0 {
        return None;
    }
    let (lo, hi) = if lower {
        (f64::NEG_INFINITY, x)
    } else {
        (x, f64::INFINITY)
    };
    Some(StoreFile {
        bytes: f.bytes * share,
        profile: f.profile.clip(lo, hi),
        bins: f.bins.iter().map(|&(k, v)| (k, v * share)).collect(),
        reference: true,
        ..f.clone()
    })
}
