//! Auto-split while the analyzer runs, on HBase's rules (see the module docs of
//! [`crate::analyze`]): writes fill a region's memstore in KeyValue bytes; it flushes at the
//! flush size or an hour after its oldest edit; a split check follows each flush and each
//! compaction, under the policy's size against the region's store files; the split row is the
//! middle of the largest file (`store.rs`); daughters hold references and split only after
//! their compaction.

use super::store::{self, FileModel, SplitRow, PERIODIC_FLUSH_MS, PERIODIC_SWEEP_MS};
use super::*;

impl Analyzer {
    /// One write of `bytes` (key and value) into region `r`'s memstore: its KeyValue bytes
    /// counted, its row offered to the next file's index, and the flush when it is due.
    #[inline]
    pub(super) fn memstore_write(&mut self, r: usize, key: &[u8], time_ms: i64, bytes: u64) {
        let kv = bytes.saturating_add(self.kv_overhead);
        self.kv_written = self.kv_written.saturating_add(kv);
        self.clock_ms = self.clock_ms.max(time_ms);
        let k = usize::try_from(self.opts.region_sample_size).unwrap_or(2);
        let Some(reg) = self.regions.get_mut(r) else {
            return;
        };
        reg.mem_kv = reg.mem_kv.saturating_add(kv);
        if reg.mem_first_ms == i64::MAX {
            reg.mem_first_ms = time_ms;
            let due = time_ms.saturating_add(PERIODIC_FLUSH_MS);
            self.next_sweep_ms = self.next_sweep_ms.min(due);
        }
        let held = &self.sample_bytes;
        reg.mem_sample.offer(
            k,
            &mut self.rng,
            || {
                held.set(held.get().saturating_add(key.len()));
                key.to_vec()
            },
            |kk| {
                held.set(
                    held.get()
                        .saturating_add(key.len())
                        .saturating_sub(kk.len()),
                );
                kk.clear();
                kk.extend_from_slice(key);
            },
        );
        if reg.mem_kv >= self.flush_size {
            self.flush_and_check(r, time_ms);
        }
    }

    /// The periodic flush (`hbase.regionserver.optionalcacheflushinterval`, an hour) of every
    /// memstore whose oldest edit is an hour old at `now`, each followed by its checks; the
    /// next sweep at the earliest due time left, at least five minutes on (HBase delays each
    /// periodic flush by up to that much).
    pub(super) fn periodic_flushes(&mut self, now: i64) {
        let mut next = i64::MAX;
        let mut i = 0;
        while i < self.regions.len() {
            let first = self.regions.get(i).map_or(i64::MAX, |g| g.mem_first_ms);
            if first != i64::MAX && first <= now.saturating_sub(PERIODIC_FLUSH_MS) {
                if self.flush_and_check(i, now) {
                    i += 2;
                    continue;
                }
            } else if first != i64::MAX {
                next = next.min(first.saturating_add(PERIODIC_FLUSH_MS));
            }
            i += 1;
        }
        self.next_sweep_ms = if next == i64::MAX {
            i64::MAX
        } else {
            next.max(now.saturating_add(PERIODIC_SWEEP_MS))
        };
    }

    /// Flush region `r`, then what `MemStoreFlusher.flushRegion` does: a split check, else a
    /// compaction request (all files while references remain) and a check after it. Whether
    /// it split.
    fn flush_and_check(&mut self, r: usize, time_ms: i64) -> bool {
        self.flush(r);
        if self.try_split(r, time_ms) {
            return true;
        }
        self.compact(r) && self.try_split(r, time_ms)
    }

    /// Region `r`'s memstore into a store file of its KeyValue bytes times the compression
    /// ratio, its index the rows sampled since the last flush.
    fn flush(&mut self, r: usize) {
        let cell = self.opts.cell_bytes;
        let Some(reg) = self.regions.get_mut(r) else {
            return;
        };
        if reg.mem_kv == 0 {
            return;
        }
        let mut index = std::mem::take(&mut reg.mem_sample).items;
        index.sort_unstable();
        reg.files.push(FileModel {
            bytes: cell.on_disk(reg.mem_kv as f64),
            index,
            reference: false,
        });
        reg.mem_kv = 0;
        reg.mem_first_ms = i64::MAX;
        self.flushes = self.flushes.saturating_add(1);
    }

    /// A compaction of region `r`'s store (`store::compact`), the sampled rows' bytes kept
    /// counted. Whether it rewrote anything.
    fn compact(&mut self, r: usize) -> bool {
        let cap = usize::try_from(self.opts.region_sample_size).unwrap_or(2);
        let flush_size = self.flush_size as f64;
        let Some(reg) = self.regions.get_mut(r) else {
            return false;
        };
        let before: usize = reg.files.iter().map(|f| store::key_bytes(&f.index)).sum();
        if !store::compact(&mut reg.files, flush_size, cap) {
            return false;
        }
        let after: usize = reg.files.iter().map(|f| store::key_bytes(&f.index)).sum();
        let held = &self.sample_bytes;
        held.set(held.get().saturating_add(after).saturating_sub(before));
        self.compactions = self.compactions.saturating_add(1);
        true
    }

    /// `HRegion.checkSplit` on region `r` under the policy (the size of its store files, n =
    /// the table's regions on its server), and the split when it says so. Whether it split.
    fn try_split(&mut self, r: usize, time_ms: i64) -> bool {
        let (Some(auto), Some(limits)) = (self.opts.auto_split.as_ref(), self.limits) else {
            return false;
        };
        let Some(reg) = self.regions.get(r) else {
            return false;
        };
        if matches!(auto.policy, policy::SplitPolicy::Disabled) || store::has_references(&reg.files)
        {
            return false;
        }
        let on_server = self
            .server_regions
            .get(usize::try_from(reg.server).unwrap_or(0))
            .copied()
            .unwrap_or(1);
        let count = i32::try_from(on_server).unwrap_or(i32::MAX);
        let disk: f64 = reg.files.iter().map(|f| f.bytes).sum();
        let size = disk.min(i64::MAX as f64) as i64;
        let limits = region_limits(&auto.config, limits, reg.jitter);
        let limit = auto.policy.size_to_check(&limits, count);
        if size <= limit {
            return false;
        }
        // The policy wants a split: the middle of the largest file. HBase splits only between
        // rows: a file whose middle row is its first or last row has no split point, so a
        // region whose data is one row, or nearly, cannot split.
        let mid = match store::split_row(&reg.files) {
            SplitRow::Row(row) => Some(row),
            SplitRow::FirstOrLast => {
                if let Some(reg) = self.regions.get_mut(r) {
                    reg.unsplittable = true;
                }
                return false;
            }
            SplitRow::NoFile => None,
        };
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
            return false;
        };
        if self.regions.len() >= self.max_regions {
            self.split_limit_reached = true;
            return false;
        }
        let event = SplitEvent {
            time_ms,
            split_key_hex: to_hex(&point),
            split_key: to_string_binary(&point),
            parent_bytes: u64::try_from(size).unwrap_or(0),
            size_to_check: limit,
            regions_on_server: on_server,
            regions_after: self.regions.len().saturating_add(1),
        };
        self.split_region(r, point, time_ms);
        self.splits.push(event);
        true
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
        // Each daughter holds a reference to its half of each of the parent's files.
        let halves = |lower: bool| -> Vec<FileModel> {
            parent
                .files
                .iter()
                .filter_map(|f| store::half(f, &point, lower))
                .collect()
        };
        let (lfiles, rfiles) = (halves(true), halves(false));
        let index_bytes = |files: &[FileModel]| -> usize {
            files.iter().map(|f| store::key_bytes(&f.index)).sum()
        };
        let held = &self.sample_bytes;
        held.set(
            held.get()
                .saturating_add(index_bytes(&lfiles) + index_bytes(&rfiles))
                .saturating_sub(index_bytes(&parent.files)),
        );
        let mut daughter = |start: Vec<u8>,
                            end: Vec<u8>,
                            rows,
                            bytes,
                            win,
                            sample: Vec<_>,
                            (distinct, cells): (Distinct, Distinct),
                            files: Vec<FileModel>| {
            let s = match self.opts.assignment {
                Assignment::RoundRobin | Assignment::Servers(_) => ps,
                Assignment::Balanced => self.least_loaded_server(),
            };
            if let Some(c) = self.server_regions.get_mut(s) {
                *c = c.saturating_add(1);
            }
            Region {
                jitter: jitter_draw(self.opts.seed, &start),
                start,
                end,
                rows,
                bytes,
                windows: win,
                created_at: Some(time_ms),
                server: u32::try_from(s).unwrap_or(0),
                sample: Reservoir::from_items(sample, cap, &mut self.rng),
                mem_kv: 0,
                mem_first_ms: i64::MAX,
                mem_sample: Reservoir::default(),
                files,
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
            lfiles,
        );
        let right = daughter(
            point.clone(),
            parent.end,
            parent.rows.saturating_sub(lrows),
            parent.bytes.saturating_sub(lbytes),
            rwin,
            right_sample,
            (rd, rc),
            rfiles,
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
/// window); a window with none takes the share of the nearest window that has some (the
/// earlier on a tie: where the key lay then is the best guess for a key that moves with time),
/// or of the whole sample (`whole`) when no window has any.
fn divide_windows(
    counts: &[u64],
    windows: usize,
    sampled: (&[u64], &[u64]),
    whole: (u64, u64),
) -> (Vec<u64>, Vec<u64>) {
    let (left_w, total_w) = sampled;
    let has = |i: usize| total_w.get(i).is_some_and(|&t| t > 0);
    // The nearest sampled window before and after each window (`usize::MAX`: none).
    let mut before = vec![usize::MAX; windows];
    let mut last = usize::MAX;
    for (i, b) in before.iter_mut().enumerate() {
        if has(i) {
            last = i;
        }
        *b = last;
    }
    let mut after = vec![usize::MAX; windows];
    let mut next = usize::MAX;
    for (i, a) in after.iter_mut().enumerate().rev() {
        if has(i) {
            next = i;
        }
        *a = next;
    }
    let mut lwin = vec![0u64; windows];
    let mut rwin = vec![0u64; windows];
    for (i, c) in counts.iter().enumerate() {
        let b = before.get(i).copied().unwrap_or(usize::MAX);
        let a = after.get(i).copied().unwrap_or(usize::MAX);
        let from = match (b, a) {
            (usize::MAX, usize::MAX) => None,
            (usize::MAX, a) => Some(a),
            (b, usize::MAX) => Some(b),
            (b, a) => Some(if i - b <= a - i { b } else { a }),
        };
        let (num, den) = match from.and_then(|j| Some((*left_w.get(j)?, *total_w.get(j)?))) {
            Some((l, t)) if t > 0 => (l, t),
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

/// The split policy's jitter draw for a region opening with `start`: Java's `nextFloat()` (24
/// bits in [0, 1)), drawn from the run's seed and the start key (splitmix64 over its bytes), so
/// it does not depend on the order regions open in.
pub(super) fn jitter_draw(seed: u64, start: &[u8]) -> f32 {
    let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
    for chunk in start.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = splitmix(h ^ u64::from_le_bytes(w));
    }
    h = splitmix(h ^ start.len() as u64);
    ((h >> 40) as f32) / ((1u32 << 24) as f32)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The limits a region's policy instance checks against: the table's, with the region's own
/// jitter draw when `hbase.hregion.max.filesize.jitter` is above 0.
pub(super) fn region_limits(
    config: &crate::hbase::policy::SplitConfig,
    unjittered: PolicyLimits,
    draw: f32,
) -> PolicyLimits {
    if config.jitter > 0.0 {
        config.limits(Some(draw))
    } else {
        unjittered
    }
}
