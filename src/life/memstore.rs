//! The writes: each step's writes given to the regions that take them, reaching their
//! memstores as the step goes, and the flushes they make (one store file each, at the flush
//! size or the periodic flush).

use super::keys::LaneOrder;
use super::settings::CompactionPolicy;
use super::sim::{EventKind, Region, Sim, MAX_FLUSHES_PER_HOUR};
use super::store::{self, Bins, Profile, StoreFile};

impl Sim<'_> {
    /// This step's writes, given to the regions that take them (the region holding each lane's
    /// middle for the step); they reach the memstores as the step goes ([`Sim::sync`]).
    pub fn plan_writes(&mut self) {
        let (kv, t, steps) = (self.step_kv, self.t, self.steps);
        self.written += kv;
        self.writes_version += 1;
        // One pass over the regions where it can be: the step's cost follows regions × steps.
        let spread = self.lanes.order == LaneOrder::Spread;
        for r in &mut self.regions {
            r.step_writes = 0.0;
            r.pend_kv = 0.0;
            r.pend_segs.clear();
            r.synced = 0.0;
            if spread {
                let w = r.share * kv;
                take(r, w);
            }
        }
        if spread {
            return;
        }
        for lane in 0..self.lanes.len() {
            let share = self.lanes.share.get(lane).copied().unwrap_or(0.0);
            if share <= 0.0 {
                continue;
            }
            let (x0, x1) = self.lanes.ordered_span(lane, t, steps);
            let mid = 0.5 * (x0 + x1);
            let i = self.region_at(lane, mid);
            if let Some(r) = self.regions.get_mut(i) {
                let w = share * kv;
                take(r, w);
                if w > 0.0 {
                    r.pend_segs.push((x0, x1, w));
                }
            }
        }
    }

    /// Region `i`'s writes up to now into its memstore.
    pub fn sync(&mut self, i: usize) {
        let (tau, t, bin) = (self.tau, self.t, self.bin(self.t));
        let has_ttl = self.ttl_steps.is_some();
        let Some(r) = self.regions.get_mut(i) else {
            return;
        };
        let d = tau - r.synced;
        if d <= 0.0 {
            return;
        }
        let from = r.synced;
        r.synced = tau;
        if r.pend_kv <= 0.0 {
            return;
        }
        let w = r.pend_kv * d;
        if let Some(x) = self.server_step_writes.get_mut(r.server as usize) {
            *x += w;
        }
        if let Some(x) = self.server_month_writes.get_mut(r.server as usize) {
            *x += w;
        }
        r.mem_kv += w;
        r.mem_first.get_or_insert(f64::from(t) + from);
        // The time bins are the TTL's (a flush keeps them only under one): without a TTL, no
        // write to them (this runs for every region at every step's end).
        if has_ttl {
            match r.mem_bins.last_mut() {
                Some(last) if last.0 == bin => last.1 += w,
                _ => r.mem_bins.push((bin, w)),
            }
        }
        for &(x0, x1, sw) in &r.pend_segs {
            let span = x1 - x0;
            r.mem_segs.push((x0 + span * from, x0 + span * tau, sw * d));
        }
    }

    /// When, in this step, region `i`'s memstore reaches the flush size at the rate it is
    /// written (`None`: not this step).
    pub fn flush_at(&self, i: usize) -> Option<f64> {
        let r = self.regions.get(i)?;
        if r.pend_kv <= 0.0 {
            return None;
        }
        let at = r.synced + (self.flush_threshold(r) - r.mem_kv).max(0.0) / r.pend_kv;
        (at <= 1.0).then_some(at.max(self.tau))
    }

    /// The memstore size region `r` flushes at: the flush size, or for a region written past
    /// [`MAX_FLUSHES_PER_HOUR`] its step's writes over that many.
    pub fn flush_threshold(&self, r: &Region) -> f64 {
        let most = MAX_FLUSHES_PER_HOUR * self.step_secs / 3600.0;
        self.flush_size.max(r.pend_kv / most)
    }

    /// The region holding `x`, through lane `lane`'s cached answer.
    fn region_at(&mut self, lane: usize, x: f64) -> usize {
        let cached = self.lane_region.get(lane).copied().unwrap_or(0);
        if let Some(r) = self.regions.get(cached) {
            if r.start <= x && x < r.end {
                return cached;
            }
        }
        let i = self
            .regions
            .partition_point(|r| r.start <= x)
            .saturating_sub(1);
        if let Some(slot) = self.lane_region.get_mut(lane) {
            if *slot != i {
                // The lane's writes go to another region: the balancer's loads change.
                self.version += 1;
            }
            *slot = i;
        }
        i
    }

    /// Flush region `i`'s memstore (its writes up to now) into one store file.
    pub fn flush(&mut self, i: usize) {
        self.sync(i);
        let (ratio, t, fifo) = (
            self.ratio,
            self.t,
            self.s.compaction.policy == CompactionPolicy::Fifo,
        );
        let has_ttl = self.ttl_steps.is_some();
        let spread = self.lanes.order == LaneOrder::Spread;
        let Some(r) = self.regions.get_mut(i) else {
            return;
        };
        if r.mem_kv <= 0.0 {
            return;
        }
        let disk = r.mem_kv * ratio;
        let profile = if spread {
            r.profile.clone()
        } else {
            Profile::from_segments(std::mem::take(&mut r.mem_segs))
        };
        let bins: Bins = if has_ttl {
            r.mem_bins.iter().map(|&(b, v)| (b, v * ratio)).collect()
        } else {
            Vec::new()
        };
        let min_step = r.mem_first.map_or(t, |f| (f as u32).min(t));
        r.mem_kv = 0.0;
        r.mem_bins.clear();
        r.mem_segs.clear();
        r.mem_first = None;
        let id = r.id;
        self.c.month.flushes += 1;
        self.next_seq += 1;
        let f = store::flushed_file(disk, profile, bins, min_step, t, self.next_seq);
        self.edit_files(i, |files| match files.last_mut() {
            // FIFO only ever deletes whole files by age: one bin's flushes fold together.
            Some(last) if fifo && !last.reference && same_bin(&last.bins, &f.bins) => {
                fold(last, f);
            }
            _ => files.push(f),
        });
        self.note_io(EventKind::Flush, id, 1, disk);
    }

    /// Whether region `i`'s memstore is due a flush: the flush size or the periodic flush.
    pub fn flush_due(&self, i: usize) -> bool {
        self.regions.get(i).is_some_and(|r| {
            r.mem_kv > 0.0
                && (r.mem_kv >= self.flush_threshold(r) * (1.0 - 1e-12)
                    || r.mem_first.is_some_and(|f| {
                        self.periodic_flush_steps > 0.0
                            && self.now() - f >= self.periodic_flush_steps * (1.0 - 1e-12)
                    }))
        })
    }
}

/// `w` KeyValue bytes of this step's writes given to region `r`.
fn take(r: &mut Region, w: f64) {
    if w <= 0.0 {
        return;
    }
    r.pend_kv += w;
    r.step_writes += w;
    r.month_writes += w;
    r.hour_writes += w;
}

/// Both files' cells are of one and the same time bin.
fn same_bin(a: &Bins, b: &Bins) -> bool {
    matches!((a.as_slice(), b.as_slice()), ([x], [y]) if x.0 == y.0)
}

/// Fold a newly flushed file into the previous one of the same time bin (FIFO only).
fn fold(last: &mut StoreFile, f: StoreFile) {
    let parts = [(last.bytes, &last.profile), (f.bytes, &f.profile)];
    last.profile = Profile::merge(&parts);
    last.bytes += f.bytes;
    last.bins = store::merge_bins(&[&last.bins, &f.bins]);
    last.max_step = last.max_step.max(f.max_step);
    last.seq = f.seq;
    last.count += f.count;
}
