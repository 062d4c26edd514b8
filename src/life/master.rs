//! What the master does to the table every few minutes: the balancer's moves and the
//! normalizer's splits and merges.

use super::balancer::{self, Loads};
use super::normalizer::{self, NormalizerRegion};
use super::sim::{EventKind, Sim};
use super::store::StoreFile;

impl Sim<'_> {
    /// The cost functions' per-server loads: the regions and store-file MB kept as they change,
    /// the writes summed again only when a region's writes changed since the last sum.
    pub(crate) fn loads(&mut self) -> Loads {
        if self.server_writes.0 != Some(self.writes_version) {
            let mut writes = vec![0.0; self.s.servers as usize];
            for r in &self.regions {
                if let Some(x) = writes.get_mut(r.server as usize) {
                    *x += r.step_writes;
                }
            }
            self.server_writes = (Some(self.writes_version), writes);
        }
        Loads {
            regions: self.server_regions.iter().map(|&n| f64::from(n)).collect(),
            writes: self.server_writes.1.clone(),
            storefile_mb: self.server_mb.iter().map(|&mb| mb as f64).collect(),
        }
    }

    /// The largest share of this hour's writes one server took (of this step's, for steps of
    /// hours), into the month's mean, and the most regions one server had written in it.
    pub(crate) fn note_hottest(&mut self) {
        let mut written = vec![0u32; self.s.servers as usize];
        for r in &mut self.regions {
            if r.hour_writes > 0.0 {
                if let Some(n) = written.get_mut(r.server as usize) {
                    *n += 1;
                }
            }
            r.hour_writes = 0.0;
        }
        let most = written.iter().copied().max().unwrap_or(0);
        let m = &mut self.c.month;
        m.max_regions_written_at_once = m.max_regions_written_at_once.max(most);
        let total: f64 = self.server_step_writes.iter().sum();
        if total > 0.0 {
            let top = self.server_step_writes.iter().copied().fold(0.0, f64::max);
            self.c.hottest_sum += top / total;
            self.c.hottest_steps += 1;
        }
        self.server_step_writes.iter_mut().for_each(|w| *w = 0.0);
    }

    /// One balancer run (every `hbase.balancer.period`): when `needsBalance` says so, move
    /// regions from the most-loaded server to the least-loaded one while a move lowers the
    /// weighted cost. A run that would see the loads the last one saw is skipped.
    pub(crate) fn balance(&mut self) {
        let b = &self.s.balancer;
        if !b.enabled || self.s.servers < 2 {
            return;
        }
        if self.balancer_seen == Some(self.version) {
            return;
        }
        self.balancer_seen = Some(self.version);
        self.note(EventKind::BalancerLook, 0);
        let mut loads = self.loads();
        let version = self.s.version;
        if balancer::needs_balance(&loads, b.slop, b.min_cost_need_balance, version).is_none() {
            return;
        }
        self.c.month.balancer_runs += 1;
        let mut moved = 0usize;
        let mut current = balancer::cost(&loads, 0, version).total;
        for _ in 0..self.regions.len() {
            let Some((from, to)) = extremes(&loads.regions) else {
                break;
            };
            let weigher = balancer::Weigher::new(&loads, version);
            let mut best: Option<(usize, f64)> = None;
            for (i, r) in self.regions.iter().enumerate() {
                if r.server as usize != from {
                    continue;
                }
                let load = (r.step_writes, r.size_mb() as f64);
                let c = weigher.moved_total(&loads, (from, to), load, moved + 1);
                if best.map_or(true, |(_, bc)| c < bc) {
                    best = Some((i, c));
                }
            }
            let Some((i, c)) = best else {
                break;
            };
            if c >= current - 1e-12 {
                break;
            }
            let (w, mb) = self
                .regions
                .get(i)
                .map_or((0.0, 0.0), |r| (r.step_writes, r.size_mb() as f64));
            loads = moved_loads(&loads, from, to, w, mb);
            current = c;
            moved += 1;
            self.move_region(i, to as u32);
        }
        self.c.month.moves += moved as u32;
        // Its own moves are what the next look would see: nothing to do until something else
        // changes.
        self.balancer_seen = Some(self.version);
    }

    /// Close region `i` (its memstore flushed) and open it on `to` with a new jitter draw.
    fn move_region(&mut self, i: usize, to: u32) {
        self.flush(i);
        let Some(mut old) = self.regions.get(i).cloned() else {
            return;
        };
        self.close_region(&old);
        let files = old.take_files();
        let mut r = self.open_region(old.start, old.end, to, files);
        r.id = old.id;
        r.created = old.created;
        r.month_writes = old.month_writes;
        r.hour_writes = old.hour_writes;
        r.step_writes = old.step_writes;
        r.pend_kv = old.pend_kv;
        r.pend_segs = old.pend_segs;
        self.note(EventKind::Move, old.id);
        if let Some(slot) = self.regions.get_mut(i) {
            *slot = r;
        }
    }

    /// One look of the normalizer chore (every `hbase.normalizer.period`): its split plans, then
    /// its merge plans over regions no split touched. A look that would see what the last one
    /// saw (no file or region changed, no region grown old enough to merge) plans the same and
    /// is skipped.
    pub(crate) fn normalize(&mut self) {
        let ns = &self.s.normalizer;
        if !ns.enabled {
            return;
        }
        if self.normalizer_seen == Some(self.version) && self.now() <= self.normalizer_age_gate {
            return;
        }
        self.normalizer_seen = Some(self.version);
        self.note(EventKind::NormalizerLook, 0);
        let day_steps = f64::from(self.s.steps_per_day());
        let min_age = ns.merge_min_region_age_days * day_steps;
        let now = self.now();
        // One pass over the regions: what the normalizer reads of each, and when the next one
        // becomes old enough to merge.
        let mut gate = f64::INFINITY;
        let mut view = std::mem::take(&mut self.normalizer_view);
        view.clear();
        view.extend(self.regions.iter().map(|r| {
            let old_enough = r.created + min_age;
            if old_enough >= now && old_enough < gate {
                gate = old_enough;
            }
            NormalizerRegion {
                size_mb: r.size_mb(),
                age_days: (now - r.created) / day_steps,
            }
        }));
        self.normalizer_age_gate = gate;
        let plans = normalizer::plans(&view, &self.s.normalizer);
        self.normalizer_view = view;
        let ids = |sim: &Sim, a: usize, b: usize| -> Vec<u64> {
            sim.regions
                .get(a..=b)
                .map_or(Vec::new(), |rs| rs.iter().map(|r| r.id).collect())
        };
        let split_ids: Vec<u64> = plans.splits.iter().flat_map(|&i| ids(self, i, i)).collect();
        let merge_ids: Vec<Vec<u64>> = plans.merges.iter().map(|&(a, b)| ids(self, a, b)).collect();
        for id in &split_ids {
            let Some(i) = self.regions.iter().position(|r| r.id == *id) else {
                continue;
            };
            if let Some(x) = self.check_split(i, true) {
                self.split(i, x);
                self.c.month.normalizer_splits += 1;
                self.note(EventKind::NormalizerSplit, *id);
            }
        }
        for run in merge_ids {
            if run.iter().any(|id| split_ids.contains(id)) {
                continue;
            }
            self.merge(&run);
        }
    }

    /// Merge adjacent regions `ids` (key order) into one new region on the first one's server,
    /// holding references to all their files.
    fn merge(&mut self, ids: &[u64]) {
        let Some(first) = ids
            .first()
            .and_then(|id| self.regions.iter().position(|r| r.id == *id))
        else {
            return;
        };
        let last = first + ids.len() - 1;
        let contiguous = self
            .regions
            .get(first..=last)
            .is_some_and(|rs| rs.iter().zip(ids).all(|(r, id)| r.id == *id));
        // HRegion.isMergeable: a region still holding references (a daughter not yet
        // compacted) cannot merge.
        let mergeable = self
            .regions
            .get(first..=last)
            .is_some_and(|rs| rs.iter().all(|r| !r.has_references()));
        if !contiguous || !mergeable {
            return;
        }
        for i in first..=last {
            self.flush(i);
        }
        // Read from the members where they are; the merged region then takes the first one's
        // slot and the rest leave: one move of the regions after them.
        let Some(members) = self.regions.get(first..=last) else {
            return;
        };
        let (Some(a), Some(z)) = (members.first(), members.last()) else {
            return;
        };
        let (start, end, server) = (a.start, z.end, a.server);
        let closing: Vec<(u32, i64)> = members.iter().map(|m| (m.server, m.size_mb())).collect();
        let mut files: Vec<StoreFile> = members
            .iter()
            .flat_map(|m| m.files().iter().cloned())
            .map(|mut f| {
                f.reference = true;
                f
            })
            .collect();
        files.sort_by_key(|f| f.seq);
        let month_writes = members.iter().map(|m| m.month_writes).sum();
        let hour_writes = members.iter().map(|m| m.hour_writes).sum();
        let step_writes = members.iter().map(|m| m.step_writes).sum();
        let pend_kv = members.iter().map(|m| m.pend_kv).sum();
        let pend_segs = members
            .iter()
            .flat_map(|m| m.pend_segs.iter().copied())
            .collect();
        for (server, mb) in closing {
            self.close(server, mb);
        }
        let mut merged = self.open_region(start, end, server, files);
        merged.month_writes = month_writes;
        merged.hour_writes = hour_writes;
        merged.step_writes = step_writes;
        merged.pend_kv = pend_kv;
        merged.pend_segs = pend_segs;
        let (id, members_n, bytes) = (merged.id, last - first + 1, merged.disk());
        if let Some(slot) = self.regions.get_mut(first) {
            *slot = merged;
        }
        self.regions.drain(first + 1..=last);
        self.c.month.merges += 1;
        self.note_io(
            EventKind::Merge,
            id,
            u32::try_from(members_n).unwrap_or(u32::MAX),
            bytes,
        );
    }
}

/// The servers with the most and the fewest regions (first of ties).
fn extremes(regions: &[f64]) -> Option<(usize, usize)> {
    let mut hi = 0;
    let mut lo = 0;
    for (i, &x) in regions.iter().enumerate() {
        if x > regions.get(hi).copied().unwrap_or(0.0) {
            hi = i;
        }
        if x < regions.get(lo).copied().unwrap_or(0.0) {
            lo = i;
        }
    }
    (hi != lo).then_some((hi, lo))
}

fn moved_loads(l: &Loads, from: usize, to: usize, writes: f64, mb: f64) -> Loads {
    let mut t = l.clone();
    let shift = |v: &mut Vec<f64>, x: f64| {
        if let Some(a) = v.get_mut(from) {
            *a -= x;
        }
        if let Some(b) = v.get_mut(to) {
            *b += x;
        }
    };
    shift(&mut t.regions, 1.0);
    shift(&mut t.writes, writes);
    shift(&mut t.storefile_mb, mb);
    t
}
