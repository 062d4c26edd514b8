//! Auto-split while the analyzer runs: when a region's store passes the split policy's
//! size, it is split at its midpoint key and the daughters take its place (see the module
//! docs of [`crate::analyze`]).

use super::*;

impl Analyzer {
    /// Split region `r` when the policy says so.
    pub(super) fn maybe_split(&mut self, r: usize, time_ms: i64) {
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
        // HBase splits only between rows: a store file whose middle row is its first or last
        // row has no split point (`HStoreFile`'s "midkey is the same as first or last row"),
        // so a region whose data is one row, or nearly, cannot split.
        if mid.is_some()
            && (mid.as_ref() == keys.first().copied() || mid.as_ref() == keys.last().copied())
        {
            if let Some(reg) = self.regions.get_mut(r) {
                reg.unsplittable = true;
            }
            self.backoff(r);
            return;
        }
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
            if let Some(reg) = self.regions.get_mut(r) {
                reg.unsplittable = false;
            }
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
        // The share of the parent's distinct rows (and cells) below the split point: that of
        // its distinct sampled keys.
        let mut distinct: Vec<&[u8]> = parent.sample.items.iter().map(|(k, _)| &k[..]).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let below = distinct.iter().filter(|k| **k < point.as_slice()).count();
        let row_share = if distinct.is_empty() {
            0.5
        } else {
            below as f64 / distinct.len() as f64
        };
        let (ld, rd) = parent.distinct.split(row_share);
        let (lc, rc) = parent.cells.split(row_share);
        let (left_sample, right_sample, left_w, total_w) =
            divide_sample(parent.sample.items, &point, self.windows);
        let n = (left_sample.len() + right_sample.len()) as u64;
        let ln = left_sample.len() as u64;
        let (lwin, rwin) =
            divide_windows(&parent.windows, self.windows, (&left_w, &total_w), (ln, n));
        let lrows = share(parent.rows, ln, n);
        let lbytes = share(parent.bytes, ln, n);
        // The parent leaves its server; each daughter is placed by the assignment rule.
        let ps = usize::try_from(parent.server).unwrap_or(0);
        if let Some(c) = self.server_regions.get_mut(ps) {
            *c = c.saturating_sub(1);
        }
        let cap = usize::try_from(self.opts.region_sample_size).unwrap_or(2);
        let mut daughter = |start: Vec<u8>,
                            end: Vec<u8>,
                            rows,
                            bytes,
                            win,
                            sample: Vec<_>,
                            (distinct, cells): (Distinct, Distinct)| {
            let s = match self.opts.assignment {
                Assignment::RoundRobin | Assignment::Servers(_) => ps,
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
                distinct,
                cells,
                unsplittable: false,
            }
        };
        let left = daughter(
            parent.start,
            point.clone(),
            lrows,
            lbytes,
            lwin,
            left_sample,
            (ld, lc),
        );
        let right = daughter(
            point.clone(),
            parent.end,
            parent.rows.saturating_sub(lrows),
            parent.bytes.saturating_sub(lbytes),
            rwin,
            right_sample,
            (rd, rc),
        );
        self.regions.insert(r, right);
        self.regions.insert(r, left);
        self.insert_split_key(r, point);
    }

    /// Add the split key between regions `r` and `r + 1` (just split) to the key index.
    fn insert_split_key(&mut self, r: usize, point: Vec<u8>) {
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
    pub(super) fn index_first2(&mut self) {
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
}

/// A sampled row: its key and its time window.
type Sampled = (Vec<u8>, u32);

/// The parent's sample split at `point`: the rows below it and from it on, and per time
/// window the rows below it and in all.
fn divide_sample(
    items: Vec<Sampled>,
    point: &[u8],
    windows: usize,
) -> (Vec<Sampled>, Vec<Sampled>, Vec<u64>, Vec<u64>) {
    let mut left_sample = Vec::new();
    let mut right_sample = Vec::new();
    let mut left_w = vec![0u64; windows];
    let mut total_w = vec![0u64; windows];
    for (k, w) in items {
        let wi = usize::try_from(w).unwrap_or(0);
        if let Some(t) = total_w.get_mut(wi) {
            *t += 1;
        }
        if k.as_slice() < point {
            if let Some(l) = left_w.get_mut(wi) {
                *l += 1;
            }
            left_sample.push((k, w));
        } else {
            right_sample.push((k, w));
        }
    }
    (left_sample, right_sample, left_w, total_w)
}

/// The parent's count per time window (of `windows`) divided between the daughters: in the
/// share of the window's sampled rows below the split (`sampled`: below and in all, per
/// window), or of the whole sample (`whole`) when the window has none.
fn divide_windows(
    counts: &[u64],
    windows: usize,
    sampled: (&[u64], &[u64]),
    whole: (u64, u64),
) -> (Vec<u64>, Vec<u64>) {
    let (left_w, total_w) = sampled;
    let mut lwin = vec![0u64; windows];
    let mut rwin = vec![0u64; windows];
    for (i, c) in counts.iter().enumerate() {
        let (num, den) = match (left_w.get(i), total_w.get(i)) {
            (Some(&l), Some(&t)) if t > 0 => (l, t),
            _ => whole,
        };
        let l = share(*c, num, den);
        if let Some(x) = lwin.get_mut(i) {
            *x = l;
        }
        if let Some(x) = rwin.get_mut(i) {
            *x = c.saturating_sub(l);
        }
    }
    (lwin, rwin)
}

/// `x * num / den` (half of `x` when `den` is 0): a daughter's part of a count.
fn share(x: u64, num: u64, den: u64) -> u64 {
    if den == 0 {
        x / 2
    } else {
        u64::try_from(u128::from(x) * u128::from(num) / u128::from(den)).unwrap_or(x)
    }
}
